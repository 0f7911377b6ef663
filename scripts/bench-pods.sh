#!/usr/bin/env bash
# Benchmark of pod serving (issue 11, "Speed and load"), on loopback only.
# One `interlude serve` (release) over the default catalog's real media
# (made once into $DATA, default .build/bench-pods-data, reused after),
# and nginx serving the very same bytes statically, in the same run.
# CATALOG=test uses scripts/fixtures/bench-pods-test-catalog.json (Catalog.podServingTest:
# 3/5/8 s ads, 180p/360p ladder, channel test-live; about a minute of ffmpeg instead of
# 20 or more on a shared machine) in .build/bench-pods-test-data, 360p, pd=16000.
# Steps:
#  1. registration: wrk POSTs live registrations for $DURATION (target >= 2000/s);
#     this also fills the store past $STREAMS registered streams;
#  2. memory: resident memory and database bytes per stored session;
#  3. the live pod manifest (multivariant) and one profile's media playlist,
#     rotating over $PODS streams' pods, against nginx serving each
#     stream's bytes from a file (target >= 0.5x nginx, p99 < 10 ms at 64 connections);
#  4. an ad segment with its viewer's ID3 packets added, against nginx
#     serving the same tagged bytes;
#     (/health first: the HTTP layer alone, the floor of any route);
#  5. verification: every event of the $PODS pods verified once
#     (interlude-beacon-burst --paths), target >= 10000/s; then each must
#     be recorded once (database count) and a second pass must all be 404;
#     then the server-side beacons drain to the collector, counted.
# Needs: wrk, nginx, curl, sqlite3 (WITH_BENCH=1 scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
STREAMS=${STREAMS:-10000}
PODS=${PODS:-1000}
SERVER_PORT=${SERVER_PORT:-18580}
NGINX_PORT=${NGINX_PORT:-18581}
CATALOG=${CATALOG:-default}
if [ "$CATALOG" = test ]; then
    CATALOG_ARGS=(--catalog scripts/fixtures/bench-pods-test-catalog.json)
    DATA=${DATA:-$PWD/.build/bench-pods-test-data}
    ASSET=${ASSET:-test-live}
    PROFILE=${PROFILE:-360p}
    PD=${PD:-16000}
else
    CATALOG_ARGS=()
    DATA=${DATA:-$PWD/.build/bench-pods-data}
    ASSET=${ASSET:-interlude-live}
    PROFILE=${PROFILE:-720p}
    PD=${PD:-45000}
fi
# SERVER_THREADS=N passes --threads N to the server (its HTTP threads; default one per core).
SERVER_ARGS=()
[ -n "${SERVER_THREADS:-}" ] && SERVER_ARGS=(--threads "$SERVER_THREADS")

# INTERLUDE_BIN=DIR runs DIR/interlude and DIR/interlude-beacon-burst without building
# (a copy of another commit's release build, to compare two builds back to back).
if [ -n "${INTERLUDE_BIN:-}" ]; then
    BIN=$INTERLUDE_BIN
else
    swift build -c release --product interlude >&2
    swift build -c release --product interlude-beacon-burst >&2
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

# Media is made (or reused) first; sessions start from an empty store each run.
mkdir -p "$DATA"
rm -f "$DATA"/streams.sqlite* "$DATA"/beacons.sqlite*
echo "== media: $DATA (made on the first run, reused after)" >&2
"$BIN/interlude" serve --port "$SERVER_PORT" --data-dir "$DATA" ${CATALOG_ARGS[@]+"${CATALOG_ARGS[@]}"} \
    ${SERVER_ARGS[@]+"${SERVER_ARGS[@]}"} --quiet 2>"$WORK/server.log" &
SERVER_PID=$!
until curl -sf "http://127.0.0.1:$SERVER_PORT/health" >/dev/null; do
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; exit 1; }
    sleep 0.5
done
BASE="http://127.0.0.1:$SERVER_PORT"
REGISTER="/ssai/pods/api/v1/network/interlude/custom_asset/$ASSET/stream"
POD="/linear/pods/v1/hls/network/interlude/custom_asset/$ASSET/pod"

# Prints "requests_per_second p50_ms p99_ms" from wrk --latency output.
run_wrk() {
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$@" | awk '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        /Requests\/sec/ { rps = $2 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        /Non-2xx|Socket errors/ { print "  (wrk: " $0 ")" > "/dev/stderr" }
        END { printf "%d %.3f %.3f\n", rps, p50, p99 }'
}

resident_kib() { awk '/^VmRSS/ { print $2 }' "/proc/$SERVER_PID/status"; }

cat >"$WORK/register.lua" <<'LUA'
wrk.method = "POST"
wrk.body = "cust_params=section%3Dbench%26page%3Dpods&ppid=bench-viewer"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
LUA
# Rotates over the paths of PATHS_FILE (each thread from its own start).
cat >"$WORK/rotate.lua" <<'LUA'
local paths = {}
for line in io.lines(os.getenv("PATHS_FILE")) do paths[#paths + 1] = line end
local index = 0
setup = function(thread) thread:set("offset", math.random(#paths)) end
request = function()
    index = index + 1
    return wrk.format("GET", paths[(index + (offset or 0)) % #paths + 1])
end
LUA

echo "== load: $(uptime)"
echo "== registration: POST $REGISTER, wrk -t$THREADS -c$CONNECTIONS -d$DURATION"
BEFORE_KIB=$(resident_kib)
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$WORK/register.lua" "$BASE$REGISTER" >"$WORK/register.wrk"
read -r R_RPS R_P50 R_P99 R_DONE R_BAD < <(awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec/ { rps = $2 }
    / requests in / { done = $1 }
    $1 == "50%" { p50 = ms($2) }
    $1 == "99%" { p99 = ms($2) }
    /Non-2xx/ { bad = $4 }
    /Socket errors/ { print "  (wrk: " $0 ")" > "/dev/stderr" }
    END { printf "%d %.3f %.3f %d %d\n", rps, p50, p99, done, bad }' "$WORK/register.wrk")
REGISTERED=$(sqlite3 "$DATA/streams.sqlite" "SELECT COUNT(*) FROM streams")
# wrk counts the answers it read; requests still in flight when it stops (at most one
# per connection) are answered and stored after it, so the store may hold up to
# CONNECTIONS more, never fewer.
R_ANSWERED=$((R_DONE - R_BAD))
if [ "$REGISTERED" -ge "$R_ANSWERED" ] && [ "$REGISTERED" -le $((R_ANSWERED + CONNECTIONS)) ]; then R_CHECK=OK; else R_CHECK=MISMATCH; fi
echo "registrations answered 2xx by wrk: $R_ANSWERED (non-2xx $R_BAD), streams in the store: $REGISTERED $R_CHECK"
while [ "$REGISTERED" -lt "$STREAMS" ]; do
    curl -sf -X POST -d "ppid=fill" "$BASE$REGISTER" >/dev/null
    REGISTERED=$((REGISTERED + 1))
done
AFTER_KIB=$(resident_kib)
printf "registrations/s %d  p50 %.3f ms  p99 %.3f ms (target >= 2000/s)\n" "$R_RPS" "$R_P50" "$R_P99"
echo "== memory per stored session ($REGISTERED streams)"
DB_BYTES=$(($(stat -c %s "$DATA/streams.sqlite") + $(stat -c %s "$DATA/streams.sqlite-wal" 2>/dev/null || echo 0)))
awk -v b="$BEFORE_KIB" -v a="$AFTER_KIB" -v n="$REGISTERED" -v d="$DB_BYTES" 'BEGIN {
    printf "resident: %.0f KiB before, %.0f KiB after: %.0f bytes per session (cached stream + allocator)\n", b, a, (a - b) * 1024 / n
    printf "database: %.0f bytes per session (streams.sqlite with WAL)\n", d / n }'

echo "== deciding one pod for each of $PODS streams (pd=$PD)"
sqlite3 "$DATA/streams.sqlite" "SELECT id FROM streams LIMIT $PODS" >"$WORK/ids"
mkdir -p "$WORK/www/mv" "$WORK/www/media"
: >"$WORK/mv.paths"; : >"$WORK/media.paths"; : >"$WORK/nginx-mv.paths"; : >"$WORK/nginx-media.paths"
n=0
while read -r id; do
    mv="$POD/1.m3u8?stream_id=$id&pd=$PD"
    media="$POD/1/profile/$PROFILE.m3u8?stream_id=$id&pd=$PD"
    curl -sf "$BASE$mv" >"$WORK/www/mv/$n.m3u8"
    curl -sf "$BASE$media" >"$WORK/www/media/$n.m3u8"
    echo "$mv" >>"$WORK/mv.paths"; echo "$media" >>"$WORK/media.paths"
    echo "/mv/$n.m3u8" >>"$WORK/nginx-mv.paths"; echo "/media/$n.m3u8" >>"$WORK/nginx-media.paths"
    n=$((n + 1))
done <"$WORK/ids"
FIRST=$(head -n 1 "$WORK/ids")
SEGMENT="/linear/pods/v1/seg/network/interlude/custom_asset/$ASSET/pod/1/profile/$PROFILE/0.ts?stream_id=$FIRST&pd=$PD"
curl -sf "$BASE$SEGMENT" >"$WORK/www/segment.ts"
chmod -R a+rX "$WORK/www"

cat >"$WORK/nginx.conf" <<CONF
daemon off;
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    keepalive_timeout 65;
    types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
    server { listen 127.0.0.1:$NGINX_PORT; root $WORK/www; }
}
CONF
nginx -c "$WORK/nginx.conf" -p "$WORK" &
NGINX_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$NGINX_PORT/segment.ts" >/dev/null && break; sleep 0.1; done

compare() { # label, interlude rotation file, nginx rotation file
    read -r S_RPS S_P50 S_P99 < <(PATHS_FILE="$2" run_wrk -s "$WORK/rotate.lua" "$BASE")
    read -r N_RPS N_P50 N_P99 < <(PATHS_FILE="$3" run_wrk -s "$WORK/rotate.lua" "http://127.0.0.1:$NGINX_PORT")
    printf "%-30s %12s %10s %10s\n" "$1" "requests/s" "p50 ms" "p99 ms"
    printf "%-30s %12d %10.3f %10.3f\n" "  interlude serve" "$S_RPS" "$S_P50" "$S_P99"
    printf "%-30s %12d %10.3f %10.3f\n" "  nginx (same bytes, static)" "$N_RPS" "$N_P50" "$N_P99"
    awk -v s="$S_RPS" -v n="$N_RPS" -v p="$S_P99" 'BEGIN {
        printf "  ratio %.2f (target >= 0.50), interlude p99 %.3f ms (target < 10)\n", s / n, p }'
}

echo "== wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency, $REGISTERED streams registered"
curl -sf "$BASE/health" >"$WORK/www/health.json"
echo "/health" >"$WORK/health.paths"; echo "/health.json" >"$WORK/nginx-health.paths"
compare "GET /health (HTTP layer alone)" "$WORK/health.paths" "$WORK/nginx-health.paths"
compare "pod multivariant ($PODS pods)" "$WORK/mv.paths" "$WORK/nginx-mv.paths"
compare "pod $PROFILE playlist ($PODS pods)" "$WORK/media.paths" "$WORK/nginx-media.paths"
echo "$SEGMENT" >"$WORK/segment.paths"; echo "/segment.ts" >"$WORK/nginx-segment.paths"
compare "ad segment + ID3 ($(wc -c <"$WORK/www/segment.ts") B)" "$WORK/segment.paths" "$WORK/nginx-segment.paths"

echo "== verification: every event of the $PODS pods, once each"
sqlite3 "$DATA/streams.sqlite" "SELECT '/pods/v1/streams/' || stream_id || '/media/' || id FROM events" | shuf >"$WORK/verify.paths"
EVENTS=$(wc -l <"$WORK/verify.paths")
"$BIN/interlude-beacon-burst" "$SERVER_PORT" --paths "$WORK/verify.paths" "$CONNECTIONS" || true
RECORDED=$(sqlite3 "$DATA/streams.sqlite" "SELECT COUNT(*) FROM events WHERE verified_at IS NOT NULL")
echo "events=$EVENTS recorded=$RECORDED $([ "$RECORDED" -eq "$EVENTS" ] && echo OK || echo MISMATCH)"
echo "-- again (each must now be 404):"
"$BIN/interlude-beacon-burst" "$SERVER_PORT" --paths "$WORK/verify.paths" "$CONNECTIONS" || true
QUEUED=$(sqlite3 "$DATA/streams.sqlite" "SELECT SUM(beacon_count) FROM events WHERE verified_at IS NOT NULL")
START=$(date +%s.%N)
for _ in $(seq 600); do
    LEFT=$(sqlite3 "$DATA/streams.sqlite" "SELECT COUNT(*) FROM events WHERE verified_at IS NOT NULL AND done_at IS NULL")
    [ "$LEFT" -eq 0 ] && break
    sleep 0.5
done
END=$(date +%s.%N)
STORED=$(curl -sf "$BASE/api/stats" | sed 's/[^0-9]//g')
awk -v q="$QUEUED" -v s="$STORED" -v t0="$START" -v t1="$END" 'BEGIN {
    printf "server-side beacons: %d queued, %s in the collector (%s), drained %.1f s after the burst\n", q, s, (q == s ? "OK" : "MISMATCH"), t1 - t0 }'
echo "== load: $(uptime)"
[ "$RECORDED" -eq "$EVENTS" ]
