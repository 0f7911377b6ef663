#!/usr/bin/env bash
# The live VTP under load across break boundaries (issue 12): registers
# STREAMS live streams of `bench-live` (scripts/fixtures/bench-vtp-catalog.json:
# 4 s segments, 6-segment window, an 8 s break every 24 s), reloads each once,
# then runs wrk over their 360p playlists for DURATION seconds (30 by default,
# so every run meets a break) with a probe beside it: one request every 5 ms on
# a keep-alive connection, reporting each slower than 20 ms, grouped into stalls.
#
# usage: scripts/bench-vtp-stall.sh [path/to/interlude]   (default .build/release/interlude)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/interlude}
PORT=${PORT:-18590}
DURATION=${DURATION:-30}
STREAMS=${STREAMS:-10000}
PATTERN='/vtp/stream_id/[[STREAMID]]/live/bench-live/360p.m3u8'
WORK=$(mktemp -d)
"$BIN" serve --port "$PORT" --data-dir "$WORK/data" --catalog scripts/fixtures/bench-vtp-catalog.json \
    --no-media --quiet 2>"$WORK/server.log" &
PID=$!
trap 'kill -TERM $PID; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break; sleep 0.1; done
python3 - "$PORT" "$WORK/ids" "$PATTERN" "$STREAMS" <<'PY'
import http.client, json, sys, time
port, ids_file, pattern, count = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
connection = http.client.HTTPConnection("127.0.0.1", port)
ids = []
started = time.monotonic()
for _ in range(count):
    connection.request("POST", "/ssai/pods/api/v1/network/interlude/custom_asset/bench-live/stream", body=b"")
    ids.append(json.loads(connection.getresponse().read())["stream_id"])
open(ids_file, "w").write("\n".join(ids) + "\n")
registered = time.monotonic()
for stream in ids:
    connection.request("GET", pattern.replace("[[STREAMID]]", stream))
    answer = connection.getresponse(); answer.read()
    assert answer.status < 300, answer.status
print(f"registered {count} in {registered - started:.1f} s, first reloads {time.monotonic() - registered:.1f} s")
PY
python3 - "$PORT" "$WORK/ids" "$PATTERN" "$DURATION" <<'PY' &
import http.client, sys, time
port, ids, pattern, seconds = int(sys.argv[1]), open(sys.argv[2]).read().split(), sys.argv[3], float(sys.argv[4])
connection = http.client.HTTPConnection("127.0.0.1", port)
start = time.monotonic(); sent = 0; slow = []
while time.monotonic() - start < seconds:
    asked = time.monotonic()
    connection.request("GET", pattern.replace("[[STREAMID]]", ids[sent % len(ids)])); sent += 1
    connection.getresponse().read()
    took = (time.monotonic() - asked) * 1000
    if took > 20: slow.append((asked - start, took))
    time.sleep(0.005)
stalls = []
for at, took in slow:
    if stalls and at - stalls[-1][1] < 1.0:
        stalls[-1][1] = at; stalls[-1][2] += 1; stalls[-1][3] = max(stalls[-1][3], took)
    else:
        stalls.append([at, at, 1, took])
print(f"probe: {sent} requests, {len(slow)} over 20 ms; stalls (from s, to s, requests, worst ms):",
      [(round(a, 1), round(b, 1), n, round(m)) for a, b, n, m in stalls])
PY
PROBE=$!
wrk -t2 -c64 -d"${DURATION}s" --latency -s scripts/bench-vtp.lua "http://127.0.0.1:$PORT" -- "$WORK/ids" "$PATTERN" \
    | grep -E "Requests/sec|50%|99%|Non-2xx"
wait $PROBE
uptime
