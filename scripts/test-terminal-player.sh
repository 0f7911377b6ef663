#!/usr/bin/env bash
# Drives `interlude play` under tmux as a person would: waits for the
# countdown and the skip countdown, presses `s` once "Skip ad" shows, and
# checks that the next ad of the pod starts. The tag comes from
# `interlude serve` on loopback. Then `interlude stream vod` against a
# second server with stream media (the small catalog of
# scripts/fixtures/real-clients-catalog.json, made with ffmpeg on the first
# run, cached in STREAM_DATA): the countdown and Learn More show in an ad,
# `l` opens the click-through, and the cuepoints bar marks the break played.
#   scripts/test-terminal-player.sh [path/to/interlude]
#   STREAM_DATA=DIR reuses a data directory (its media) for the stream part.
set -euo pipefail
cd "$(dirname "$0")/.."
interlude=${1:-.build/debug/interlude}
work=$(mktemp -d)
# A tmux server of our own (not the user's), and a new session made before the
# previous one is killed: a server whose last session ends exits, and a
# `new-session` that meets it exiting fails with "server exited unexpectedly"
# (seen in CI).
tmux() { command tmux -L "interlude-test-$$" "$@"; }
session="interlude-play-$$-0"
session_count=0
new_session() {  # width height command
    local previous=$session
    session_count=$((session_count + 1))
    session="interlude-play-$$-$session_count"
    tmux new-session -d -s "$session" -x "$1" -y "$2" "$3"
    tmux kill-session -t "$previous" 2>/dev/null || true
}
cleanup() {
    tmux kill-session -t "$session" 2>/dev/null || true
    [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null || true
    [ -n "${stream_server_pid:-}" ] && kill "$stream_server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The reference ad stack on a free loopback port, without generating media
# (the simulated display never fetches it).
"$interlude" serve --port 0 --data-dir "$work/data" --no-media --quiet 2>"$work/serve.log" &
server_pid=$!
base=""
for _ in $(seq 100); do
    base=$(sed -n 's/.*ready at \(http:[^ ]*\).*/\1/p' "$work/serve.log" | head -n 1)
    [ -n "$base" ] && break
    sleep 0.1
done
[ -n "$base" ] || { echo "interlude serve did not start:"; cat "$work/serve.log"; exit 1; }
# A pod of two: a skippable ad (offset 5 s) whose UI is hideable, then a non-skippable one.
tag="$base/vast?pod=2&ads=orbit-bikes-10s,lighthouse-coffee-6s&hideable=true&session=tmux-$$"

passed=0
failed=0
screen() { tmux capture-pane -p -t "$session"; }
expect() {  # description pattern timeout-seconds [grep mode: -F fixed (default) or -E]
    local deadline=$((SECONDS + $3)) mode=${4:--F}
    while [ "$SECONDS" -le "$deadline" ]; do
        if screen | grep -q "$mode" -- "$2"; then
            echo "ok: $1"
            passed=$((passed + 1))
            return 0
        fi
        sleep 0.1
    done
    echo "FAILED: $1 — '$2' never appeared; the screen was:"
    screen
    failed=$((failed + 1))
    return 1
}

new_session 100 20 "$interlude play --speed 2 --content-duration 6 '$tag'; sleep 60"
expect "the countdown shows the pod position" "Ad 1 of 2 (" 20 || true
expect "the skip button counts down" "( Skip this ad in " 10 || true
expect "the skip button enables after the offset" "[ Skip ad (s) ]" 10 || true
expect "Learn More is shown" "[ Learn More (l) ]" 1 || true
tmux send-keys -t "$session" s
expect "s skips to the second ad" "Ad 2 of 2 (" 10 || true
expect "the second ad starts" "STARTED lighthouse-coffee-6s" 5 || true
if screen | grep -qF "Skip"; then
    echo "FAILED: a non-skippable ad shows a skip button"
    failed=$((failed + 1))
else
    echo "ok: no skip button on a non-skippable ad"
    passed=$((passed + 1))
fi
expect "the player finishes after the content" "done" 30 || true

# Ctrl-C ends `interlude play` as q does: status 130 and the terminal's echo
# back on (it used to die in raw mode and leave the terminal without echo).
new_session 100 20 \
    "$interlude play --content-duration 600 '$tag'; echo play-exit=\$?; stty -a | tr ' ;' '\n\n' | grep -qx echo && echo echo-on || echo echo-off; sleep 60"
expect "play shows the ad before Ctrl-C" "Ad 1 of 2 (" 20 || true
tmux send-keys -t "$session" C-c
expect "Ctrl-C ends play with status 130" "play-exit=130" 15 || true
expect "the terminal's echo is on again after Ctrl-C" "echo-on" 5 || true

# `interlude stream` against a server with stream media (first run: ffmpeg, about a minute).
stream_data=${STREAM_DATA:-$work/stream-data}
"$interlude" serve --port 0 --data-dir "$stream_data" --catalog scripts/fixtures/real-clients-catalog.json --quiet \
    2>"$work/stream-serve.log" &
stream_server_pid=$!
stream_base=""
for _ in $(seq 1800); do
    stream_base=$(sed -n 's/.*ready at \(http:[^ ]*\).*/\1/p' "$work/stream-serve.log" | head -n 1)
    [ -n "$stream_base" ] && break
    kill -0 "$stream_server_pid" 2>/dev/null || break
    sleep 0.2
done
if [ -z "$stream_base" ]; then
    echo "FAILED: interlude serve with stream media did not start:"
    tail -n 20 "$work/stream-serve.log"
    failed=$((failed + 1))
else
    new_session 110 12 \
        "$interlude stream vod test-film --server '$stream_base'; echo stream-exit=\$?; sleep 60"
    # A pod of one ad counts down "Ad (5s)", a longer pod "Ad 1 of 2 (5s)"; the
    # decisioner fills each viewer's pods differently, so either may come.
    expect "the stream's pre-roll shows the countdown" "AD  Ad (1 of [0-9]+ )?\([0-9]+s\)" 30 -E || true
    expect "Learn More is shown in the ad" "[ Learn More (l) ]" 2 || true
    tmux send-keys -t "$session" l
    expect "l opens the ad's click-through" "last event: Learn More: https://example.com/test-ad-" 5 || true
    # At least the pre-roll: on a loaded machine the steps above can take long
    # enough for the stream to reach its next break before this looks.
    expect "the cuepoints bar counts the pre-roll played" "breaks played [1-3]/3" 30 -E || true
    expect "the pre-roll ends" "last event: AD_PERIOD_ENDED" 30 || true
    if screen | grep -qE '^\[#+[=|]'; then
        echo "ok: the bar starts with the played pre-roll (#), then content"
        passed=$((passed + 1))
    else
        echo "FAILED: the cuepoints bar does not start with a played break:"
        screen
        failed=$((failed + 1))
    fi
    tmux send-keys -t "$session" q
    expect "q quits the stream with status 0" "stream-exit=0" 10 || true
fi
echo "terminal player: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
