#!/usr/bin/env python3
"""Plays an HLS URL in real HLS clients and prints what they saw, as JSON.

    scripts/hls-clients.py chromium URL [--seconds N] [--rate R]
    scripts/hls-clients.py gstreamer URL [--seconds N]
    scripts/hls-clients.py ffmpeg URL

chromium: headless Chromium plays URL natively in <video> (autoplay, muted)
from a page this script serves on loopback; the page posts its events and
the video's playback quality back here. Without --seconds it waits for
`ended`; with it, it stops after N seconds of playback. Prints
{"ended", "error", "currentTime", "duration", "totalVideoFrames",
"droppedVideoFrames", "events": [...], "wallSeconds"}.

gstreamer: playbin3 with synced fake sinks; prints {"eos", "error",
"wallSeconds", "playSeconds" (PLAYING to EOS, as gst-launch reports it)} (EOS after N seconds with --seconds is "eos": false, "stopped": true).

ffmpeg: decodes every stream of URL with `ffmpeg -v error` and prints
{"errors": [lines], "ok"} (DTS warnings at DISCONTINUITY are expected by
the ffmpeg HLS demuxer and are reported separately as "dtsWarnings").

Exit status 0 when the client played as asked, 1 otherwise, 2 on bad usage.
"""

import argparse
import http.server
import json
import os
import re
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

PAGE = """<!doctype html>
<html><body>
<video id="v" muted autoplay playsinline></video>
<script>
const v = document.getElementById('v');
const events = [];
const started = performance.now();
const limit = %(seconds)s;
let sent = false;
function post(final, error) {
  if (sent && final) return;
  if (final) sent = true;
  const q = v.getVideoPlaybackQuality ? v.getVideoPlaybackQuality() : {};
  const body = JSON.stringify({
    final, error, ended: v.ended, currentTime: v.currentTime,
    duration: isFinite(v.duration) ? v.duration : -1,
    totalVideoFrames: q.totalVideoFrames || 0, droppedVideoFrames: q.droppedVideoFrames || 0,
    events, mediaError: v.error ? {code: v.error.code, message: v.error.message} : null,
  });
  fetch('/report', {method: 'POST', body});
}
for (const name of ['loadedmetadata', 'playing', 'waiting', 'stalled', 'seeking', 'seeked', 'pause', 'ended']) {
  v.addEventListener(name, () => {
    events.push({event: name, t: v.currentTime, wall: (performance.now() - started) / 1000});
    if (name === 'ended') post(true, null);
  });
}
v.addEventListener('error', () => post(true, v.error ? 'media error ' + v.error.code + ': ' + v.error.message : 'error'));
v.playbackRate = %(rate)s;
v.addEventListener('loadedmetadata', () => { v.playbackRate = %(rate)s; });
v.src = %(url)s;
v.play().catch(e => post(true, 'play() failed: ' + e));
setInterval(() => {
  if (limit > 0 && v.currentTime >= limit) post(true, null); else post(false, null);
}, 1000);
</script></body></html>
"""


def chromium(url, seconds, rate, timeout):
    reports = []
    done = threading.Event()
    page = (PAGE % {"url": json.dumps(url), "seconds": seconds or 0, "rate": rate}).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            report = json.loads(self.rfile.read(length) or b"{}")
            reports.append(report)
            if report.get("final"):
                done.set()
            self.send_response(204)
            self.end_headers()

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if not browser:
        return {"error": "chromium not found"}, False
    profile = tempfile.mkdtemp(prefix="hls-clients-chromium-")
    started = time.monotonic()
    process = subprocess.Popen(
        [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--autoplay-policy=no-user-gesture-required", "--mute-audio", f"--user-data-dir={profile}",
         f"http://127.0.0.1:{server.server_address[1]}/"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finished = done.wait(timeout)
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
    server.shutdown()
    shutil.rmtree(profile, ignore_errors=True)
    result = dict(reports[-1]) if reports else {"error": "the page never reported"}
    result.pop("final", None)
    result["wallSeconds"] = round(time.monotonic() - started, 2)
    if not finished:
        result["error"] = result.get("error") or f"no end within {timeout} s"
    ok = finished and not result.get("error") and (result.get("ended") or bool(seconds))
    return result, bool(ok)


def gstreamer(url, seconds, timeout):
    launcher = shutil.which("gst-launch-1.0")
    if not launcher:
        return {"error": "gst-launch-1.0 not found"}, False
    started = time.monotonic()
    process = subprocess.Popen(
        [launcher, "playbin3", f"uri={url}", "video-sink=fakesink sync=true",
         "audio-sink=fakesink sync=true"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    limit = seconds if seconds else timeout
    try:
        out, err = process.communicate(timeout=limit)
        stopped = False
    except subprocess.TimeoutExpired:
        process.terminate()
        out, err = process.communicate()
        stopped = True
    wall = round(time.monotonic() - started, 2)
    error = None
    if not stopped and process.returncode != 0:
        error = (err or out).strip()[-400:] or f"exit {process.returncode}"
    text = (out or "") + (err or "")
    if "ERROR" in text and not error:
        error = text.strip()[-400:]
    # gst-launch prints how long the pipeline ran from PLAYING to EOS (no process start, no preroll).
    ran = re.search(r"Execution ended after (\d+):(\d+):(\d+(?:\.\d+)?)", text)
    played = round(int(ran.group(1)) * 3600 + int(ran.group(2)) * 60 + float(ran.group(3)), 3) if ran else None
    result = {"eos": not stopped and error is None, "stopped": stopped, "error": error, "wallSeconds": wall,
              "playSeconds": played}
    ok = error is None and (stopped if seconds else not stopped)
    return result, ok


def ffmpeg(url, timeout):
    binary = shutil.which("ffmpeg")
    if not binary:
        return {"error": "ffmpeg not found"}, False
    process = subprocess.run(
        [binary, "-v", "error", "-nostdin", "-i", url, "-map", "0", "-f", "null", "-"],
        capture_output=True, text=True, timeout=timeout)
    lines = [line for line in process.stderr.splitlines() if line.strip()]
    dts = [line for line in lines if "DTS" in line or "dts" in line]
    errors = [line for line in lines if line not in dts]
    ok = process.returncode == 0 and not errors
    return {"ok": ok, "errors": errors, "dtsWarnings": len(dts), "exit": process.returncode}, ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("client", choices=["chromium", "gstreamer", "ffmpeg"])
    parser.add_argument("url")
    parser.add_argument("--seconds", type=float, default=0, help="stop after N seconds of playback")
    parser.add_argument("--rate", type=float, default=1, help="chromium playbackRate")
    parser.add_argument("--timeout", type=float, default=600, help="give up after N wall seconds")
    args = parser.parse_args()
    if args.client == "chromium":
        result, ok = chromium(args.url, args.seconds, args.rate, args.timeout)
    elif args.client == "gstreamer":
        result, ok = gstreamer(args.url, args.seconds, args.timeout)
    else:
        result, ok = ffmpeg(args.url, args.timeout)
    print(json.dumps(result))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
