#!/usr/bin/env python3
"""Real HLS clients against the VTP of a running `interlude serve` (the
small catalog of scripts/fixtures/real-clients-catalog.json): the seed's
flow with the templates the server printed, then every client.

    scripts/real-clients-check.py BASE_URL SERVER_LOG

Checks (each prints `ok`, `FAIL` or `SKIP <client missing>`):
  m3u8       Python m3u8 parses every playlist the VTP writes (VOD and live)
  ffmpeg     `ffmpeg -v error` decodes every rendition of the stitched VOD
  chromium   the VOD plays to `ended`, decoded frames = duration x fps (+-5%);
             60 s of live play with pod segments fetched
  gstreamer  playbin3 (synced fake sinks) plays the VOD to EOS in its duration +-1 s
  id3        ffprobe finds each ad's 5 timed_id3 packets at the expected PTS (live)
  numbering  20 reloads of one live stream keep RFC 8216bis 6.2.2's numbering
  scte35     threefive decodes the origin's SCTE35-OUT/IN as the catalog and InterludeHLS say
Exit 1 when any check fails, 0 otherwise (skips included).
"""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
FAILURES = []


def report(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + (f": {detail}" if detail else ""), flush=True)
    if not ok:
        FAILURES.append(name)


def skip(name, why, required=False):
    """A client that is not installed. `required` ones (Debian packages that
    install-deps installs) fail the run under REAL_CLIENTS_STRICT=1, as the
    test command sets it: a check that silently did not run proves nothing."""
    strict = required and os.environ.get("REAL_CLIENTS_STRICT") == "1"
    print(f"{'FAIL' if strict else 'SKIP'} {name}: {why}", flush=True)
    if strict:
        FAILURES.append(name)


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


def post(url):
    request = urllib.request.Request(url, data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def absolute(base, uri):
    return urllib.parse.urljoin(base, uri)


def client(kind, url, *extra):
    """scripts/hls-clients.py: (result, ok)."""
    process = subprocess.run(
        [sys.executable, os.path.join(HERE, "hls-clients.py"), kind, url, *extra], capture_output=True, text=True)
    try:
        result = json.loads(process.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        result = {"error": (process.stderr or process.stdout)[-400:]}
    return result, process.returncode == 0


def templates(log):
    """The VTP templates `interlude serve` printed: {content or channel: template}."""
    found = {}
    registration = {}
    last_live = None
    for line in open(log, encoding="utf-8", errors="replace"):
        line = line.strip()
        live = re.search(r"live (\S+): POST (\S+)", line)
        if live:
            last_live = live.group(1)
            registration[last_live] = live.group(2)
        vod = re.search(r"VOD: POST (\S+)", line)
        if vod:
            registration["vod"] = vod.group(1)
        template = re.search(r"VTP template(?: \((\S+)\))?: (\S+)", line)
        if template:
            found[template.group(1) or last_live] = template.group(2)
    return found, registration


def extinf(text):
    return [float(m) for m in re.findall(r"#EXTINF:([0-9.]+)", text)]


def m3u8_oracle(files):
    """Runs scripts/m3u8-oracle.py over {name: text}; returns its report or None when m3u8 is missing."""
    try:
        import m3u8  # noqa: F401
    except ImportError:
        return None
    directory = tempfile.mkdtemp(prefix="vtp-m3u8-")
    try:
        for name, text in files.items():
            with open(os.path.join(directory, name), "w", encoding="utf-8") as handle:
                handle.write(text)
        out = subprocess.run(
            [sys.executable, os.path.join(HERE, "m3u8-oracle.py"), directory], capture_output=True, text=True)
        if out.returncode != 0:
            return {"error": out.stderr[-400:]}
        return json.loads(out.stdout)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def check_m3u8(name, files):
    oracle = m3u8_oracle(files)
    if oracle is None:
        skip(f"m3u8 {name}", "python m3u8 not installed")
        return
    if "error" in oracle:
        report(f"m3u8 {name}", False, oracle["error"])
        return
    bad = []
    for file, text in files.items():
        parsed = oracle["files"].get(file)
        segments = len(extinf(text))
        if parsed is None or len(parsed["segments"]) != segments:
            bad.append(f"{file}: m3u8 read {None if parsed is None else len(parsed['segments'])} of {segments}")
            continue
        durations = [round(s["duration"], 3) for s in parsed["segments"]]
        if durations != [round(d, 3) for d in extinf(text)]:
            bad.append(f"{file}: durations differ")
        discontinuities = sum(1 for s in parsed["segments"] if s["discontinuity"])
        if discontinuities != text.count("#EXT-X-DISCONTINUITY\n"):
            bad.append(f"{file}: {discontinuities} discontinuities read")
    report(f"m3u8 {name} ({len(files)} playlists)", not bad, "; ".join(bad[:3]))


def vod(templates_found, registration, executor):
    template = templates_found["test-film"]
    stream = post(registration["vod"])["stream_id"]
    url = template.replace("[[STREAMID]]", stream)
    multivariant = get(url).decode()
    variants = [absolute(url, line) for line in multivariant.splitlines() if line and not line.startswith("#")]
    rates = [float(m) for m in re.findall(r"FRAME-RATE=([0-9.]+)", multivariant)]
    files = {"multivariant.m3u8": multivariant}
    renditions = {}
    for variant in variants:
        text = get(variant).decode()
        name = variant.rsplit("/", 1)[-1].split("?")[0]
        files[name] = text
        renditions[variant] = text
    check_m3u8("VOD", files)
    durations = {variant: sum(extinf(text)) for variant, text in renditions.items()}
    duration = max(durations.values())
    pods = sum(text.count("/ondemand/pods/") for text in renditions.values())
    report("VOD stitched", pods > 0 and len(set(round(d, 3) for d in durations.values())) == 1,
           f"{duration:.3f} s, {pods} pod segments over {len(renditions)} renditions")
    jobs = {}
    if shutil.which("ffmpeg"):
        for variant in variants:
            jobs[executor.submit(client, "ffmpeg", variant)] = ("ffmpeg", variant)
    else:
        skip("ffmpeg", "ffmpeg not installed", required=True)
    if shutil.which("gst-launch-1.0"):
        jobs[executor.submit(client, "gstreamer", url, "--timeout", "180")] = ("gstreamer", url)
    else:
        skip("gstreamer", "gst-launch-1.0 not installed", required=True)
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    return url, duration, (rates[0] if rates else 30.0), jobs, browser


def check_vod_jobs(jobs, duration):
    for future in concurrent.futures.as_completed(jobs):
        kind, url = jobs[future]
        result, ok = future.result()
        if kind == "ffmpeg":
            report(f"ffmpeg decodes {url.rsplit('/', 1)[-1]}", ok and result.get("ok"), json.dumps(result)[:300])
        elif kind == "gstreamer":
            played = result.get("playSeconds") or result.get("wallSeconds", 0)
            report("gstreamer playbin3 VOD to EOS", ok and result.get("eos") and abs(played - duration) <= 1.0,
                   f"EOS after {played} s of playing for {duration:.3f} s of playlist "
                   f"({result.get('wallSeconds')} s wall); {result.get('error') or ''}")


def chromium_vod(url, duration, fps):
    result, ok = client("chromium", url, "--rate", "2", "--timeout", "240")
    frames = result.get("totalVideoFrames", 0)
    expected = duration * fps
    report("chromium VOD to ended", ok and result.get("ended") and not result.get("error")
           and abs(frames - expected) <= 0.05 * expected,
           f"{frames} frames decoded for {expected:.0f} expected, ended={result.get('ended')}, error={result.get('error')}")


def chromium_live(url, stream, log):
    before = os.path.getsize(log)
    result, ok = client("chromium", url, "--seconds", "60", "--timeout", "150")
    with open(log, encoding="utf-8", errors="replace") as handle:
        handle.seek(before)
        lines = handle.read().splitlines()
    pods = [line for line in lines if "/linear/pods/v1/seg/" in line and stream in line and " 200 " in line]
    report("chromium plays 60 s of live across a stitched break",
           ok and not result.get("error") and result.get("currentTime", 0) >= 59 and len(pods) >= 2,
           f"currentTime={result.get('currentTime')}, {len(pods)} pod segments fetched, error={result.get('error')}")


def playlist_segments(text):
    """[(uri, duration, discontinuity, program_date_time)] of a media playlist, and its header numbers."""
    segments = []
    discontinuity = False
    date = None
    header = {"sequence": 0, "discontinuity_sequence": 0}
    duration = None
    for line in text.splitlines():
        if line.startswith("#EXT-X-MEDIA-SEQUENCE:"):
            header["sequence"] = int(line.split(":", 1)[1])
        elif line.startswith("#EXT-X-DISCONTINUITY-SEQUENCE:"):
            header["discontinuity_sequence"] = int(line.split(":", 1)[1])
        elif line == "#EXT-X-DISCONTINUITY":
            discontinuity = True
        elif line.startswith("#EXT-X-PROGRAM-DATE-TIME:"):
            date = line.split(":", 1)[1]
        elif line.startswith("#EXTINF:"):
            duration = float(line[8:].split(",")[0])
        elif line and not line.startswith("#"):
            segments.append((line, duration, discontinuity, date))
            discontinuity = False
            date = None
    return header, segments


def check_numbering(base, templates_found, registration):
    """20 reloads of the fast channel (8x): RFC 8216bis 6.2.2, checked independently of InterludeHLS."""
    stream = post(registration["test-live-fast"])["stream_id"]
    url = absolute(templates_found["test-live-fast"].replace("[[STREAMID]]", stream), "test-live-fast/360p.m3u8")
    reloads = []
    origin_texts = []
    for _ in range(20):
        reloads.append(get(url).decode())
        origin_texts.append(get(f"{base}/origin/live/test-live-fast/360p.m3u8").decode())
        time.sleep(0.5)
    problems = []
    seen = {}
    previous = None
    for number, text in enumerate(reloads):
        header, segments = playlist_segments(text)
        numbered = []
        discontinuity = header["discontinuity_sequence"]
        for index, (uri, duration, tagged, _) in enumerate(segments):
            discontinuity += 1 if tagged else 0
            numbered.append((header["sequence"] + index, uri, duration, discontinuity))
        for sequence, uri, duration, disc in numbered:
            if sequence in seen and seen[sequence] != (uri, duration, disc):
                problems.append(f"reload {number}: {sequence} was {seen[sequence]}, now {(uri, duration, disc)}")
            seen.setdefault(sequence, (uri, duration, disc))
        if previous is not None:
            removed = header["sequence"] - previous[0]["sequence"]
            if removed < 0:
                problems.append(f"reload {number}: MEDIA-SEQUENCE went back")
            left = previous[1][:max(0, removed)]
            expected = previous[0]["discontinuity_sequence"] + sum(1 for s in left if s[2])
            # A tag on the new first segment is counted by its own number, not by the header.
            if removed < len(previous[1]) and header["discontinuity_sequence"] != expected:
                problems.append(
                    f"reload {number}: DISCONTINUITY-SEQUENCE {header['discontinuity_sequence']}, expected {expected}")
        previous = (header, segments)
    pods = sum(1 for text in reloads if "/linear/pods/v1/seg/" in text)
    report("numbering over 20 live reloads (RFC 8216bis 6.2.2)", not problems and pods > 0,
           f"{len(seen)} segments, pods in {pods} reloads; " + "; ".join(problems[:3]))
    check_m3u8("live", {f"reload{n:02d}.m3u8": text for n, text in enumerate(reloads)})
    return origin_texts


def check_scte35(base, origin_texts, interlude):
    try:
        import threefive  # noqa: F401
    except ImportError:
        skip("scte35", "threefive not installed")
        return
    if not shutil.which("ffprobe"):
        skip("scte35", "ffprobe not installed")
        return
    cases = {}
    inspected = {}
    for text in origin_texts:
        dates = {}
        _, segments = playlist_segments(text)
        for uri, _, _, date in segments:
            dates[date] = uri
        for line in text.splitlines():
            if not line.startswith("#EXT-X-DATERANGE:"):
                continue
            attributes = dict(re.findall(r'([A-Z0-9-]+)=("[^"]*"|[^,]*)', line[len("#EXT-X-DATERANGE:"):]))
            attributes = {k: v.strip('"') for k, v in attributes.items()}
            index = int(attributes["ID"].split("-")[-1])
            for key, kind, date_key in (("SCTE35-OUT", 0x34, "START-DATE"), ("SCTE35-IN", 0x35, "END-DATE")):
                if key not in attributes or attributes.get(date_key) not in dates:
                    continue
                cases[attributes[key]] = {
                    "hex": attributes[key], "type": kind, "event": index + 1,
                    "duration": 8.0 if kind == 0x34 else None, "segment": absolute(
                        f"{base}/origin/live/test-live-fast/360p.m3u8", dates[attributes[date_key]])}
        if interlude:
            out = subprocess.run([interlude, "inspect", "--json", "-"], input=text, capture_output=True, text=True)
            try:
                for adbreak in json.loads(out.stdout).get("adBreaks", []):
                    if adbreak.get("scte35Out"):
                        inspected[adbreak["scte35Out"].upper().replace("0X", "0x")] = adbreak.get("plannedDuration")
            except ValueError:
                pass
    if not cases:
        report("scte35 sections seen", False, "no SCTE35-OUT/IN with its segment in 20 windows")
        return
    for case in cases.values():
        probe = subprocess.run(
            ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0",
             "-read_intervals", "%+#1", case.pop("segment")], capture_output=True, text=True)
        first = re.search(r"\d+", probe.stdout)
        if not first:
            report("scte35 segment probed", False, probe.stderr[-200:])
            return
        case["pts"] = int(first.group(0)) / 90000
    out = subprocess.run([sys.executable, os.path.join(HERE, "check-scte35.py")],
                         input=json.dumps(list(cases.values())), capture_output=True, text=True)
    report("threefive decodes the origin's SCTE-35 as the catalog says", out.returncode == 0,
           f"{len(cases)} sections; " + " | ".join(l for l in out.stdout.splitlines() if l.startswith("BAD"))[:300])
    # InterludeHLS (interlude inspect) reads each SCTE35-OUT break with the duration threefive decodes.
    mismatched = []
    for case in cases.values():
        if case["type"] != 0x34:
            continue
        key = case["hex"].upper().replace("0X", "0x")
        if key in inspected and inspected[key] != case["duration"]:
            mismatched.append(f"{key[:20]}…: InterludeHLS {inspected[key]} vs {case['duration']}")
    report("InterludeHLS reads the same break durations", bool(inspected) and not mismatched,
           f"{len(inspected)} breaks inspected; " + "; ".join(mismatched[:2]))


def check_id3(base, templates_found, registration):
    if not shutil.which("ffprobe"):
        skip("id3", "ffprobe not installed", required=True)
        return
    stream = post(registration["test-live"])["stream_id"]
    url = absolute(templates_found["test-live"].replace("[[STREAMID]]", stream), "test-live/360p.m3u8")
    deadline = time.time() + 60
    pod = None
    while time.time() < deadline and pod is None:
        _, segments = playlist_segments(get(url).decode())
        # A whole pod: pod segments between content on both sides.
        runs, current, before_content = [], [], False
        for segment in segments:
            if "/linear/pods/v1/seg/" in segment[0]:
                current.append(segment)
            else:
                if current and before_content:
                    runs.append(current)
                current, before_content = [], True
        pod = runs[0] if runs else None
        if pod is None:
            time.sleep(2)
    if pod is None:
        report("id3 pod visible", False, "no whole pod in the live window within 60 s")
        return
    break_id = pod[0][0].split("/ad_break_id/")[1].split("/")[0]
    metadata = json.loads(get(f"{base}/pods/v1/streams/{stream}/metadata"))
    ads = sorted((ad for ad in metadata["ads"].values() if ad["ad_break_id"] == break_id and not ad["slate"]),
                 key=lambda ad: ad["position"])
    # Ads in order, each starting at a DISCONTINUITY; events at 0, 1/4, 1/2, 3/4 and the end of each ad.
    groups, offset = [], 0.0
    for uri, duration, tagged, _ in pod:
        if tagged or not groups:
            groups.append([])
        groups[-1].append((uri, duration))
    problems, found_total = [], 0
    for ad, segments in zip(ads, groups):
        length = ad["duration"]
        expected = []
        starts, elapsed = [], 0.0
        for uri, duration in segments:
            starts.append(elapsed)
            elapsed += duration
        firsts, packets = [], []
        for uri, duration in segments:
            probe = json.loads(subprocess.run(
                ["ffprobe", "-v", "error", "-show_entries", "packet=pts,codec_type", "-of", "json", absolute(url, uri)],
                capture_output=True, text=True).stdout or "{}")
            video = [p["pts"] for p in probe.get("packets", []) if p.get("codec_type") == "video"]
            firsts.append(min(video) if video else 0)
            packets.append(sorted(p["pts"] for p in probe.get("packets", []) if p.get("codec_type") == "data"))
        # Pod serving's offsets (README): quartiles of the ad's milliseconds, complete on its last frame (33 ms before the end).
        milliseconds = round(length * 1000)
        offsets = [0, milliseconds // 4, milliseconds // 2, milliseconds * 3 // 4,
                   max(milliseconds * 3 // 4, milliseconds - 33)]
        for offset_ms in offsets:
            at = offset_ms / 1000
            index = max(i for i, start in enumerate(starts) if start <= min(at, elapsed - 0.001) + 1e-9)
            into = min(at - starts[index], segments[index][1] - 0.001)
            expected.append((index, firsts[index] + round(into * 1000) * 90))
        for index, pts in expected:
            if not any(abs(pts - got) <= 2 for got in packets[index]):
                problems.append(f"{ad['ad_id']}: no timed_id3 at {pts} in segment {index} (has {packets[index]})")
        found_total += sum(len(p) for p in packets)
        if sum(len(p) for p in packets) != 5:
            problems.append(f"{ad['ad_id']}: {sum(len(p) for p in packets)} timed_id3 packets, expected 5")
    report("ffprobe finds each ad's timed_id3 at the expected PTS (live)", bool(ads) and not problems,
           f"{len(ads)} ads, {found_total} packets; " + "; ".join(problems[:3]))


def with_query(url, query):
    return url + ("&" if "?" in url else "?") + query


def option_playlists(vod_url, live_url, live_playlists):
    """The VTP's other outputs: interstitials (VOD and live) and live with
    the origin's markers passed through, for every rendition."""
    files = {}
    for name, url in (("vod", vod_url), ("live", live_url)):
        modes = ["mode=interstitials"] + (["markers=passthrough"] if name == "live" else [])
        multivariant = get(url).decode()
        for line in multivariant.splitlines():
            if not line or line.startswith("#"):
                continue
            rendition = line.rsplit("/", 1)[-1].split("?")[0]
            for query in modes:
                files[f"{name}-{query.split('=')[1]}-{rendition}"] = get(with_query(absolute(url, line), query)).decode()
    return files


def main(base, log):
    templates_found, registration = templates(log)
    needed = {"test-film", "test-live", "test-live-fast"}
    if not needed <= set(templates_found):
        report("templates printed by interlude serve", False, f"found {sorted(templates_found)}")
        return 1
    report("templates printed by interlude serve", True, ", ".join(sorted(templates_found)))
    interlude = os.environ.get("INTERLUDE_BIN")
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as executor:
        url, duration, fps, jobs, browser = vod(templates_found, registration, executor)
        live_stream = post(registration["test-live"])["stream_id"]
        live_url = templates_found["test-live"].replace("[[STREAMID]]", live_stream)
        live_playlists = {"live-multivariant.m3u8": get(live_url).decode()}
        for line in live_playlists["live-multivariant.m3u8"].splitlines():
            if line and not line.startswith("#"):
                live_playlists[f"live-{line.rsplit('/', 1)[-1].split('?')[0]}"] = get(absolute(live_url, line)).decode()
        check_m3u8("live renditions", live_playlists)
        check_m3u8("options", option_playlists(url, live_url, live_playlists))
        live = executor.submit(chromium_live, live_url, live_stream, log) if browser else None
        numbering = executor.submit(check_numbering, base, templates_found, registration)
        id3 = executor.submit(check_id3, base, templates_found, registration)
        check_vod_jobs(jobs, duration)
        origin_texts = numbering.result()
        check_scte35(base, origin_texts, interlude)
        id3.result()
        if live:
            live.result()
        else:
            skip("chromium", "chromium not installed", required=True)
    if browser:
        chromium_vod(url, duration, fps)
    print(f"real clients: {len(FAILURES)} failed" + (f" ({', '.join(FAILURES)})" if FAILURES else ""))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1].rstrip("/"), sys.argv[2]))
