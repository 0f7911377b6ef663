#!/usr/bin/env bash
# Benchmark of the VTP (issue 12), on loopback only: `interlude serve
# --no-media` (release) with scripts/fixtures/bench-vtp-catalog.json,
# STREAMS live and STREAMS VOD streams registered, then wrk at CONNECTIONS
# connections with reloads spread over the streams at random
# (scripts/bench-vtp.lua), and in the same run nginx serving the same bytes
# as static files, asked for through the same wrk script (a random stream ID
# in each path), so the client costs both sides the same:
#   live media playlist  /vtp/stream_id/{id}/live/bench-live/360p.m3u8 (6-segment window, 8 s break every 24 s)
#   live, new window on every request: bench-live-fast (the channel at 16x: no reload is answered from
#                        the per-window cache; breaks start and end every 1.5 s, so state and decisions are written)
#   VOD multivariant     /vtp/stream_id/{id}/video/bench-film.m3u8
#   VOD media playlist   /vtp/stream_id/{id}/video/bench-film/360p.m3u8
# Needs wrk, nginx, curl, python3 (WITH_BENCH=1 scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
STREAMS=${STREAMS:-10000}
SERVER_PORT=${SERVER_PORT:-18490}
NGINX_PORT=${NGINX_PORT:-18491}

# INTERLUDE_BIN=DIR runs DIR/interlude without building (another commit's
# release build, to compare two builds back to back on one machine).
if [ -n "${INTERLUDE_BIN:-}" ]; then
    BIN=$INTERLUDE_BIN
else
    swift build -c release --product interlude >&2
    BIN=$(swift build -c release --show-bin-path)
fi

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

"$BIN/interlude" serve --port "$SERVER_PORT" --data-dir "$WORK/data" --catalog scripts/fixtures/bench-vtp-catalog.json \
    --no-media --quiet 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$SERVER_PORT/health" >/dev/null && break; sleep 0.1; done

# Registers the streams over keep-alive connections.
python3 - "$SERVER_PORT" "$STREAMS" "$WORK" <<'PY'
import http.client, json, sys, time
port, count, work = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
connection = http.client.HTTPConnection("127.0.0.1", port)
started = time.monotonic()
for kind, path in (("live", "/ssai/pods/api/v1/network/interlude/custom_asset/bench-live/stream"),
                   ("fast", "/ssai/pods/api/v1/network/interlude/custom_asset/bench-live-fast/stream"),
                   ("vod", "/ondemand/pods/api/v1/network/interlude/stream_registration")):
    ids = []
    for _ in range(count):
        connection.request("POST", path, body=b"")
        response = connection.getresponse()
        body = response.read()
        if response.status >= 300:
            sys.exit(f"POST {path}: {response.status} {body[:200]!r}")
        ids.append(json.loads(body)["stream_id"])
    with open(f"{work}/{kind}.ids", "w") as handle:
        handle.write("\n".join(ids) + "\n")
print(f"registered 3 x {count} streams in {time.monotonic() - started:.1f} s", file=sys.stderr)
PY

# Asks each stream of a kind for its rendition once (its stitch state is then
# stored, as after a viewer's first reload). Run right before that kind's wrk
# step: a player reloads every target duration, so the streams wrk reloads
# are ones that played a moment ago (the VTP decides a new break ahead for
# the streams that reloaded in the last 120 s, as for real viewers).
first_reload() {
    python3 - "$SERVER_PORT" "$WORK/$1.ids" "$2" <<'PY'
import http.client, sys, time
port, ids, pattern = int(sys.argv[1]), sys.argv[2], sys.argv[3]
connection = http.client.HTTPConnection("127.0.0.1", port)
started = time.monotonic()
streams = open(ids).read().split()
for stream in streams:
    connection.request("GET", pattern.replace("[[STREAMID]]", stream))
    response = connection.getresponse()
    body = response.read()
    if response.status >= 300:
        sys.exit(f"GET {pattern}: {response.status} {body[:200]!r}")
print(f"  first reload of each of the {len(streams)} streams in {time.monotonic() - started:.1f} s", file=sys.stderr)
PY
}

LIVE_ID=$(head -n 1 "$WORK/live.ids")
VOD_ID=$(head -n 1 "$WORK/vod.ids")
mkdir -p "$WORK/www" "$WORK/nginx"
curl -sf "http://127.0.0.1:$SERVER_PORT/vtp/stream_id/$LIVE_ID/live/bench-live/360p.m3u8" >"$WORK/www/live.m3u8"
curl -sf "http://127.0.0.1:$SERVER_PORT/vtp/stream_id/$VOD_ID/video/bench-film.m3u8" >"$WORK/www/vod.m3u8"
curl -sf "http://127.0.0.1:$SERVER_PORT/vtp/stream_id/$VOD_ID/video/bench-film/360p.m3u8" >"$WORK/www/vod-360p.m3u8"
chmod 644 "$WORK"/www/*
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
        default_type application/vnd.apple.mpegurl;
        # /s/{file}/{stream ID}: the same bytes for every stream, asked for by the
        # same wrk script as the VTP's (a random stream ID per request), so both
        # sides pay the same client cost.
        location /s/ { rewrite ^/s/([^/]+)/ /\$1 break; }
        location / { }
    }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
NGINX_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$NGINX_PORT/live.m3u8" >/dev/null && break; sleep 0.1; done

# Prints "requests_per_second p50_ms p99_ms non2xx" from wrk --latency output.
run_wrk() {
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$@" | awk '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        /Requests\/sec/ { rps = $2 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        /Non-2xx/ { bad = $4 }
        /Socket errors/ { print "  (wrk: " $0 ")" > "/dev/stderr" }
        END { printf "%d %.3f %.3f %d\n", rps, p50, p99, bad }'
}

compare() {
    local name=$1 ids=$2 pattern=$3 static=$4
    echo "== $name: $(wc -c <"$WORK/www/$static") bytes, $STREAMS streams, wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency"
    first_reload "$ids" "$pattern"
    read -r S_RPS S_P50 S_P99 S_BAD < <(run_wrk -s scripts/bench-vtp.lua "http://127.0.0.1:$SERVER_PORT" -- \
        "$WORK/$ids.ids" "$pattern")
    read -r N_RPS N_P50 N_P99 N_BAD < <(run_wrk -s scripts/bench-vtp.lua "http://127.0.0.1:$NGINX_PORT" -- \
        "$WORK/$ids.ids" "/s/$static/[[STREAMID]]")
    printf "%-18s %12s %10s %10s %8s\n" "" "requests/s" "p50 ms" "p99 ms" "non-2xx"
    printf "%-18s %12d %10.3f %10.3f %8d\n" "interlude VTP" "$S_RPS" "$S_P50" "$S_P99" "$S_BAD"
    printf "%-18s %12d %10.3f %10.3f %8d\n" "nginx (static)" "$N_RPS" "$N_P50" "$N_P99" "$N_BAD"
    awk -v s="$S_RPS" -v n="$N_RPS" -v p="$S_P99" 'BEGIN {
        printf "ratio VTP/nginx: %.2f (target >= 0.50), VTP p99 %.3f ms (target < 10 ms)\n", s / n, p }'
}

echo "== load: $(uptime)"
compare "live media playlist" live "/vtp/stream_id/[[STREAMID]]/live/bench-live/360p.m3u8" live.m3u8
compare "live media playlist, a new window on every request" fast \
    "/vtp/stream_id/[[STREAMID]]/live/bench-live-fast/360p.m3u8" live.m3u8
compare "VOD multivariant" vod "/vtp/stream_id/[[STREAMID]]/video/bench-film.m3u8" vod.m3u8
compare "VOD media playlist" vod "/vtp/stream_id/[[STREAMID]]/video/bench-film/360p.m3u8" vod-360p.m3u8
echo "== load: $(uptime)"
echo "server RSS after the run: $(ps -o rss= -p "$SERVER_PID" | awk '{printf "%.0f MiB", $1 / 1024}')"
