#!/usr/bin/env bash
# Drives `interlude play` under tmux as a person would: waits for the
# countdown and the skip countdown, presses `s` once "Skip ad" shows, and
# checks that the next ad of the pod starts. Serves its tag from loopback.
#   scripts/test-terminal-player.sh [path/to/interlude]
set -euo pipefail
cd "$(dirname "$0")/.."
interlude=${1:-.build/debug/interlude}
work=$(mktemp -d)
session="interlude-play-$$"
cleanup() {
    tmux kill-session -t "$session" 2>/dev/null || true
    [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
ad() {  # id sequence title skipoffset-attribute
    cat <<XML
<Ad id="$1" sequence="$2"><InLine><AdSystem>test</AdSystem><AdTitle>$3</AdTitle><Impression>$base/imp/$1</Impression>
<Creatives><Creative><Linear $4><Duration>00:00:10</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">$base/$1.mp4</MediaFile></MediaFiles>
<VideoClicks><ClickThrough>$base/landing/$1</ClickThrough></VideoClicks></Linear></Creative></Creatives>
<Extensions><Extension type="uiSettings"><UiHideable>1</UiHideable></Extension></Extensions></InLine></Ad>
XML
}
{ echo '<VAST version="4.2">'; ad first 1 "Skippable" 'skipoffset="00:00:05"'; ad second 2 "Second" ''; echo '</VAST>'; } > "$work/pod.xml"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
server_pid=$!
for _ in $(seq 50); do curl -sf "$base/pod.xml" >/dev/null 2>&1 && break; sleep 0.1; done

passed=0
failed=0
screen() { tmux capture-pane -p -t "$session"; }
expect() {  # description pattern timeout-seconds
    local deadline=$((SECONDS + $3))
    while [ "$SECONDS" -le "$deadline" ]; do
        if screen | grep -qF -- "$2"; then
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

tmux new-session -d -s "$session" -x 100 -y 20 "$interlude play --speed 2 --content-duration 6 $base/pod.xml; sleep 60"
expect "the countdown shows the pod position" "Ad 1 of 2 (" 20 || true
expect "the skip button counts down" "( Skip this ad in " 10 || true
expect "the skip button enables after the offset" "[ Skip ad (s) ]" 10 || true
expect "Learn More is shown" "[ Learn More (l) ]" 1 || true
tmux send-keys -t "$session" s
expect "s skips to the second ad" "Ad 2 of 2 (" 10 || true
expect "the second ad has no skip button" "STARTED second" 5 || true
if screen | grep -qF "Skip"; then
    echo "FAILED: a non-skippable ad shows a skip button"
    failed=$((failed + 1))
else
    echo "ok: no skip button on a non-skippable ad"
    passed=$((passed + 1))
fi
expect "the player finishes after the content" "done" 30 || true
echo "terminal player: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
