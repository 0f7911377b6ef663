#!/usr/bin/env bash
# A/B of two builds on the ad segment route alone (issue 11, "Speed and load"):
# BEFORE=DIR AFTER=DIR scripts/bench-segment-ab.sh [ROUNDS]
# DIR holds a release `interlude`. Each round runs BEFORE then AFTER, each a
# fresh `interlude serve` over the test catalog's media (made once into $DATA,
# shared with bench-pods.sh CATALOG=test), one stream whose pod 1 starts with
# the 8 s ad (so every run sends the same bytes: a 360p segment of about
# 437 KB with its ID3 packets), 3 s of warm-up, then wrk -t2 -c64 -d8s.
# Prints requests/s, p99 and the server's CPU (user + system, /proc) per request.
# Needs: wrk, curl, python3 (WITH_BENCH=1 scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-4}
: "${BEFORE:?BEFORE=DIR with a release interlude}" "${AFTER:?AFTER=DIR with a release interlude}"
DATA=${DATA:-$PWD/.build/bench-pods-test-data}
PORT=${PORT:-18700}
CATALOG=scripts/fixtures/bench-pods-test-catalog.json
ASSET=test-live
BASE="http://127.0.0.1:$PORT"
SERVER_PID=""
trap '[ -n "$SERVER_PID" ] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true' EXIT

measure() {
    local label=$1 bin=$2
    mkdir -p "$DATA"
    rm -f "$DATA"/streams.sqlite* "$DATA"/beacons.sqlite*
    "$bin/interlude" serve --port "$PORT" --data-dir "$DATA" --catalog "$CATALOG" --quiet 2>/dev/null &
    SERVER_PID=$!
    until curl -sf "$BASE/health" >/dev/null; do
        kill -0 "$SERVER_PID" 2>/dev/null || { echo "$label: the server did not start" >&2; exit 1; }
        sleep 0.3
    done
    local id url size=0
    for _ in $(seq 60); do
        id=$(curl -sf -X POST -d ppid=ab "$BASE/ssai/pods/api/v1/network/interlude/custom_asset/$ASSET/stream" |
            python3 -c 'import json, sys; print(json.load(sys.stdin)["stream_id"])')
        curl -sf "$BASE/linear/pods/v1/hls/network/interlude/custom_asset/$ASSET/pod/1/profile/360p.m3u8?stream_id=$id&pd=16000" >/dev/null
        url="$BASE/linear/pods/v1/seg/network/interlude/custom_asset/$ASSET/pod/1/profile/360p/0.ts?stream_id=$id&pd=16000"
        size=$(curl -sf "$url" | wc -c)
        [ "$size" -gt 430000 ] && break
    done
    wrk -t2 -c64 -d3s "$url" >/dev/null
    local before after out
    before=$(awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat")
    out=$(wrk -t2 -c64 -d8s --latency "$url")
    after=$(awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat")
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
    echo "$out" | awk -v label="$label" -v size="$size" -v t0="$before" -v t1="$after" -v hz="$(getconf CLK_TCK)" \
        -v load="$(cut -d' ' -f1 /proc/loadavg)" '
        /requests in/ { n = $1 }
        /Requests\/sec/ { rps = $2 }
        $1 == "99%" { p99 = $2 }
        END { printf "%-7s %7d B  load %5s  %8.0f req/s  p99 %9s  %4.0f us CPU/req\n", label, size, load, rps, p99, (t1 - t0) / hz * 1e6 / n }'
}

for round in $(seq "$ROUNDS"); do
    echo "== round $round"
    measure before "$BEFORE"
    measure after "$AFTER"
done
