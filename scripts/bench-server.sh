#!/usr/bin/env bash
# Benchmark of the reference ad server (issue 4), on loopback only:
#  1. wrk against GET /vast?pod=3 on `interlude serve`, and in the same run
#     against nginx serving the very same VAST bytes as a static file;
#     prints requests/s, p50, p99 for both and the ratio.
#  2. A burst of exactly BURST beacon requests at CONNECTIONS connections;
#     checks that the number stored equals the number sent.
# Needs: wrk, nginx, curl (scripts/install-deps.sh). Builds in release.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
BURST=${BURST:-100000}
SERVER_PORT=${SERVER_PORT:-18480}
NGINX_PORT=${NGINX_PORT:-18481}

swift build -c release >&2
BIN=$(swift build -c release --show-bin-path)

WORK=$(mktemp -d)
chmod 755 "$WORK"
SERVER_PID=""
NGINX_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    [ -n "$NGINX_PID" ] && kill -TERM "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

"$BIN/interlude" serve --port "$SERVER_PORT" --data-dir "$WORK/data" --no-media --quiet 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$SERVER_PORT/health" >/dev/null && break; sleep 0.1; done

VAST_PATH="/vast?pod=3&session=bench"
mkdir -p "$WORK/www" "$WORK/nginx"
curl -sf "http://127.0.0.1:$SERVER_PORT$VAST_PATH" >"$WORK/www/vast.xml"
chmod 644 "$WORK/www/vast.xml"
cat >"$WORK/nginx/nginx.conf" <<CONF
daemon off;
worker_processes auto;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    keepalive_timeout 65;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $WORK/www;
        location / { default_type application/xml; }
    }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
NGINX_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$NGINX_PORT/vast.xml" >/dev/null && break; sleep 0.1; done

# Prints "requests_per_second p50_ms p99_ms" from wrk --latency output.
run_wrk() {
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$1" | awk '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        /Requests\/sec/ { rps = $2 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        /Non-2xx|Socket errors/ { print "  (wrk: " $0 ")" > "/dev/stderr" }
        END { printf "%d %.3f %.3f\n", rps, p50, p99 }'
}

echo "== GET $VAST_PATH ($(wc -c <"$WORK/www/vast.xml") bytes), wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency"
read -r S_RPS S_P50 S_P99 < <(run_wrk "http://127.0.0.1:$SERVER_PORT$VAST_PATH")
read -r N_RPS N_P50 N_P99 < <(run_wrk "http://127.0.0.1:$NGINX_PORT/vast.xml")
printf "%-18s %12s %10s %10s\n" "" "requests/s" "p50 ms" "p99 ms"
printf "%-18s %12d %10.3f %10.3f\n" "interlude serve" "$S_RPS" "$S_P50" "$S_P99"
printf "%-18s %12d %10.3f %10.3f\n" "nginx (static)" "$N_RPS" "$N_P50" "$N_P99"
awk -v s="$S_RPS" -v n="$N_RPS" 'BEGIN { printf "ratio interlude/nginx: %.2f (target >= 0.50)\n", s / n }'
awk -v p="$S_P99" 'BEGIN { printf "interlude p99: %.3f ms (target < 10 ms)\n", p }'

echo "== beacon burst: $BURST requests at $CONNECTIONS connections"
BEFORE=$(curl -sf "http://127.0.0.1:$SERVER_PORT/api/stats" | sed 's/[^0-9]//g')
"$BIN/interlude-beacon-burst" "$SERVER_PORT" "$BURST" "$CONNECTIONS" burst || true
AFTER=$(curl -sf "http://127.0.0.1:$SERVER_PORT/api/stats" | sed 's/[^0-9]//g')
STORED=$((AFTER - BEFORE))
echo "stored=$STORED sent=$BURST $([ "$STORED" -eq "$BURST" ] && echo OK || echo MISMATCH)"

# Restart and count again: the beacons are on disk, not only in memory.
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true
"$BIN/interlude" serve --port "$SERVER_PORT" --data-dir "$WORK/data" --no-media --quiet 2>>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$SERVER_PORT/health" >/dev/null && break; sleep 0.1; done
echo "after restart: $(curl -sf "http://127.0.0.1:$SERVER_PORT/api/stats")"
[ "$STORED" -eq "$BURST" ]
