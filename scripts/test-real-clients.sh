#!/usr/bin/env bash
# Real HLS clients against the VTP (issue 12), on loopback: starts
# `interlude serve` on a fresh data directory with the small catalog of
# scripts/fixtures/real-clients-catalog.json (30 s title, 24 s live loop, 3–8 s
# ads; media made with ffmpeg, about 30 s), then runs scripts/real-clients-check.py:
# the seed's flow with the templates the server printed, Chromium (VOD to
# `ended`, 60 s of live), GStreamer playbin3, ffmpeg, ffprobe (timed ID3),
# Python m3u8, threefive and a live-window numbering check over HTTP.
#
#   scripts/test-real-clients.sh [path/to/interlude]     (default .build/debug/interlude)
#
# Exits non-zero when any client misbehaves; a client whose binary is
# missing is skipped with a SKIP line. REAL_CLIENTS_DATA=DIR reuses a data
# directory (its media cache) instead of a fresh one.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/debug/interlude}
[ -x "$BIN" ] || { echo "test-real-clients: $BIN is not built" >&2; exit 1; }
command -v python3 >/dev/null || { echo "test-real-clients: python3 is required" >&2; exit 1; }

WORK=$(mktemp -d)
DATA=${REAL_CLIENTS_DATA:-$WORK/data}
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

started=$(date +%s)
"$BIN" serve --port "$PORT" --data-dir "$DATA" --catalog scripts/fixtures/real-clients-catalog.json \
    2>"$WORK/serve.log" &
SERVER_PID=$!
for _ in $(seq 1200); do
    grep -q "ready at" "$WORK/serve.log" 2>/dev/null && break
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        echo "test-real-clients: interlude serve exited before it was ready:" >&2
        tail -n 20 "$WORK/serve.log" >&2
        exit 1
    fi
    sleep 0.5
done
grep -q "ready at" "$WORK/serve.log" || { echo "test-real-clients: server not ready after 600 s" >&2; exit 1; }
echo "test-real-clients: server ready on port $PORT after $(($(date +%s) - started)) s (media included)"

status=0
INTERLUDE_BIN="$BIN" python3 scripts/real-clients-check.py "http://127.0.0.1:$PORT" "$WORK/serve.log" || status=$?
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "FAIL the server died during the run" >&2
    status=1
fi
echo "test-real-clients: $(($(date +%s) - started)) s in all"
if [ "$status" -ne 0 ]; then
    echo "test-real-clients: server log tail:" >&2
    grep -v " 200 " "$WORK/serve.log" | tail -n 20 >&2 || true
fi
exit "$status"
