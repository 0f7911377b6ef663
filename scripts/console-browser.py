#!/usr/bin/env python3
"""Drives headless Chromium through the web console of a running `interlude serve`.

    scripts/console-browser.py BASE_URL [--screenshot-dir DIR] [--stream-steps FILE] [--timeout S]

Opens BASE_URL/console in `chromium --headless=new`, controlled over the
DevTools protocol on a pipe (--remote-debugging-pipe: no port to find, no
websocket, Python's standard library only), and runs the console as a
person would:

  inspector: a good tag (BASE/vast?pod=2), a wrapper chain (BASE/wrapper/2),
  a broken tag (XML pasted), a URL to a non-loopback host (refused);
  sessions: a client-side session (BASE/vmap?session=…, a few beacons sent
  here) shown with its owed beacons;
  streams (with --stream-steps): a JSON file, written by the Swift test
  that starts the server, saying how to register a pod-serving stream and
  get its pods (`{"register": {"path", "body"}, "setup": [{"method",
  "path", "body"}], "play_break": 0}`); the monitor must list the stream,
  open its timeline, and show the events of the break played while the
  page is open (each verified over HTTP here, as a player would) within
  --timeout seconds.

Screenshots (PNG) go to --screenshot-dir (default .build/console). Prints one
JSON object of what the page showed (the caller checks it); exit status 0
when the browser ran the whole scenario, 1 when it could not, 2 on bad usage.
"""

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


class Browser:
    """One headless Chromium, one page, DevTools protocol over fds 3 and 4."""

    def __init__(self, width=1400, height=1000):
        binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if not binary:
            raise RuntimeError("chromium not found (scripts/install-deps.sh installs it)")
        self.profile = tempfile.mkdtemp(prefix="console-browser-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def wire():
            # Chromium reads commands on fd 3 and writes answers on fd 4. Copied
            # high first, so that neither dup2 overwrites the other's source.
            read_copy, write_copy = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(read_copy, 3)
            os.dup2(write_copy, 4)

        self.process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--mute-audio",
             "--autoplay-policy=no-user-gesture-required", "--remote-debugging-pipe",
             f"--window-size={width},{height}", f"--user-data-dir={self.profile}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=wire,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)

    def call(self, method, params=None, session=False, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            for reply in self._read(deadline):
                if reply.get("id") == self.next_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
                self.events.append(reply)

    def _read(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("the browser did not answer")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buffer += chunk
        messages = []
        while b"\0" in self.buffer:
            raw, self.buffer = self.buffer.split(b"\0", 1)
            messages.append(json.loads(raw))
        return messages

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True},
                           session=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {result['exceptionDetails'].get('text')} in {expression[:80]}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout=15, interval=0.1):
        """Polls `expression` in the page until it is truthy; returns its value (None on timeout)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(interval)
        return None

    def navigate(self, url):
        self.call("Page.navigate", {"url": url}, session=True)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def http(method, url, body=None, headers=None):
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def inspect(browser, text):
    """Types `text` into the inspector, submits, waits for the result; returns what it shows."""
    browser.evaluate("location.hash = '#inspect'")
    browser.evaluate(f"""(() => {{
        const result = document.getElementById('inspect-result');
        delete result.dataset.done;
        document.getElementById('inspect-input').value = {json.dumps(text)};
        document.getElementById('inspect-submit').click();
    }})()""")
    browser.wait_for("document.getElementById('inspect-result').dataset.done", timeout=20)
    return browser.evaluate("""(() => {
        const result = document.getElementById('inspect-result');
        const texts = (selector) => [...result.querySelectorAll(selector)].map((e) => e.textContent.trim());
        return {
            kind: result.dataset.kind || null,
            ads: [...result.querySelectorAll('#inspect-ads .ad-card')].map((e) => e.dataset.adId),
            hops: [...result.querySelectorAll('#inspect-hops tr.hop')].map((e) => Number(e.dataset.depth)),
            codes: [...result.querySelectorAll('[data-code]')].map((e) => Number(e.dataset.code)),
            refusedStatus: result.querySelector('#inspect-refused') ? Number(result.querySelector('#inspect-refused').dataset.status) : null,
            messages: texts('.error-box'),
        };
    })()""")


def register_stream(base, steps):
    """Registers the stream and runs the setup requests the steps name; returns the registration answer."""
    register = steps["register"]
    status, body = http("POST", base + register["path"], json.dumps(register.get("body", {})).encode(),
                        {"Content-Type": "application/json"})
    if status not in (200, 201):
        raise RuntimeError(f"registration answered {status}: {body[:200]!r}")
    stream = json.loads(body)
    for step in steps.get("setup", []):
        path = step["path"].replace("[[STREAMID]]", stream["stream_id"])
        payload = json.dumps(step["body"]).encode() if "body" in step else None
        status, body = http(step.get("method", "GET"), base + path, payload,
                            {"Content-Type": "application/json"} if payload else {})
        if status >= 400:
            raise RuntimeError(f"{step.get('method', 'GET')} {path} answered {status}: {body[:200]!r}")
    return stream


def play_break(base, stream, index):
    """Verifies every event of the stream's break `index`, in play order, as a
    player does on each ID3 event (GET media_verification_url + event ID);
    returns the event IDs the server accepted."""
    stream_id = stream["stream_id"]
    status, body = http("GET", f"{base}/api/streams/{stream_id}")
    if status != 200:
        raise RuntimeError(f"/api/streams/{stream_id} answered {status}")
    breaks = json.loads(body).get("breaks", [])
    if index >= len(breaks):
        raise RuntimeError(f"the stream has {len(breaks)} break(s), not {index + 1}")
    verified = []
    for ad in breaks[index]["ads"]:
        for event in ad["events"]:
            url = stream["media_verification_url"] + event["id"]
            if not url.startswith("http"):
                url = base + url
            status, _ = http("GET", url)
            if status in (202, 204):
                verified.append(event["id"])
    return verified


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("--screenshot-dir", default=".build/console")
    parser.add_argument("--stream-steps", help="JSON file: how to register a stream and play a break")
    parser.add_argument("--timeout", type=float, default=10, help="seconds the monitor may take to show events")
    parser.add_argument("--streams-only", action="store_true", help="skip the inspector and session scenarios")
    parser.add_argument("--screenshot-name", default="console-monitor.png", help="file name of the monitor's screenshot")
    args = parser.parse_args()
    base = args.base.rstrip("/")
    os.makedirs(args.screenshot_dir, exist_ok=True)
    results = {}
    browser = Browser()
    try:
        browser.navigate(base + "/console#inspect")
        results["pageLoaded"] = bool(browser.wait_for("document.getElementById('inspect-form') && document.readyState === 'complete'"))

        if not args.streams_only:
            inspect_and_sessions(browser, base, args, results)
        if args.stream_steps:
            monitor_stream(browser, base, args, results)
        else:
            browser.screenshot(os.path.join(args.screenshot_dir, "console-monitor.png"))
    finally:
        browser.close()
    print(json.dumps(results))


def inspect_and_sessions(browser, base, args, results):
    """The inspector on a good tag, a wrapper chain, a broken tag and a refused host; a client-side session."""
    good = inspect(browser, f"{base}/vast?pod=2&session=browser-good")
    results["good"] = good
    wrapper = inspect(browser, f"{base}/wrapper/2?session=browser-chain")
    results["wrapper"] = wrapper
    browser.screenshot(os.path.join(args.screenshot_dir, "console-inspector.png"))
    broken = inspect(browser, '<VAST version="4.2">\n<Ad id="x"><InLine></Ad>')
    results["broken"] = broken
    refused = inspect(browser, "http://192.0.2.1/vast")
    results["refused"] = refused

    # A client-side session: served its VMAP, then the pre-roll's first beacons.
    session = f"browser-{int(time.time() * 1000) % 1000000}"
    http("GET", f"{base}/vmap?session={session}")
    results["sessionID"] = session
    status, body = http("GET", f"{base}/api/console/sessions/{session}")
    first_break = json.loads(body)["breaks"][0]
    first_ad = first_break["ads"][0]["id"]
    browser.evaluate(f"location.hash = '#monitor/session/{session}'")
    for ad, event in [(f"break-{first_break['id']}", "breakStart"), (first_ad, "impression"), (first_ad, "start")]:
        http("GET", f"{base}/track/{session}/{ad}/{event}")
    results["sessionListed"] = bool(browser.wait_for(
        f"[...document.querySelectorAll('#activity-list li')].some((li) => li.dataset.id === {json.dumps(session)})"))
    results["sessionBeaconsShown"] = browser.wait_for(
        "(() => { const n = document.querySelectorAll('#session-beacons tbody tr').length; return n >= 3 && n; })()") or 0
    results["sessionMissing"] = browser.evaluate(
        "(() => { const m = document.getElementById('session-missing'); return m ? m.textContent : null; })()")
    browser.screenshot(os.path.join(args.screenshot_dir, "console-session.png"))


def monitor_stream(browser, base, args, results):
    """A stream registered now, listed, its timeline open while its pre-roll plays."""
    with open(args.stream_steps) as file:
        steps = json.load(file)
    browser.evaluate("location.hash = '#monitor'")
    stream = register_stream(base, steps)
    stream_id = stream["stream_id"]
    results["streamID"] = stream_id
    results["streamListed"] = bool(browser.wait_for(
        f"[...document.querySelectorAll('#activity-list li')].some((li) => li.dataset.id === {json.dumps(stream_id)})",
        timeout=args.timeout))
    browser.evaluate(f"location.hash = '#monitor/stream/{stream_id}'")
    results["timelineEvents"] = browser.wait_for(
        f"(() => {{ const d = document.getElementById('stream-detail'); if (!d || d.dataset.streamId !== {json.dumps(stream_id)}) return 0;"
        " return document.querySelectorAll('.timeline circle.event').length; })()", timeout=args.timeout) or 0
    results["verifiedBeforePlay"] = browser.evaluate("document.querySelectorAll('.timeline circle.event.verified').length")
    # The break plays now, while the page is open: its events must show up as they are verified.
    started = time.monotonic()
    verified = play_break(base, stream, steps.get("play_break", 0))
    results["eventsVerified"] = len(verified)
    shown = browser.wait_for(
        f"(() => {{ const n = document.querySelectorAll('.timeline circle.event.verified').length; return n >= {len(verified)} && n; }})()",
        timeout=args.timeout)
    results["timelineVerifiedEvents"] = shown or 0
    results["timelineSeconds"] = round(time.monotonic() - started, 2)
    results["tableVerifiedRows"] = browser.evaluate(
        "document.querySelectorAll('#stream-events tbody tr.verified').length")
    results["timelineSpans"] = sorted(set(browser.evaluate(
        "[...document.querySelectorAll('.timeline .spans rect')].map((r) => r.getAttribute('class'))")))
    results["preview"] = browser.evaluate(
        "(() => { const v = document.getElementById('preview'); return v ? v.getAttribute('src') : null; })()")
    # Server-side beacons arrive at the collector after the verifications; let them draw.
    results["beaconsShown"] = browser.wait_for(
        "(() => { const n = document.querySelectorAll('.timeline rect.beacon').length; return n > 0 && n; })()",
        timeout=args.timeout) or 0
    results["axis"] = browser.evaluate(
        "(() => { const t = document.querySelector('.timeline'); return t ? t.dataset.axis || null : null; })()")
    time.sleep(1.5)  # let the preview draw a frame, when it has media
    browser.screenshot(os.path.join(args.screenshot_dir, args.screenshot_name))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # the caller reads one JSON object either way
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
        sys.exit(1)
