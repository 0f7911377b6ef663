#!/usr/bin/env python3
"""Times the Python `m3u8` package (pip install m3u8) parsing and dumping the
benchmark playlists in DIR; prints microseconds per playlist as JSON for
`interlude-bench hls`. Best of 7 batches of about 0.2 s each."""
import json
import sys
import time
from pathlib import Path

import m3u8

FILES = ["vod.m3u8", "live.m3u8", "multivariant.m3u8"]


def measure(body):
    iterations = 1
    while True:
        start = time.perf_counter()
        for _ in range(iterations):
            body()
        if time.perf_counter() - start > 0.2:
            break
        iterations *= 2
    best = float("inf")
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(iterations):
            body()
        best = min(best, (time.perf_counter() - start) / iterations)
    return best * 1e6


def main():
    directory = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    report = {"version": getattr(m3u8, "__version__", None) or _version(), "files": {}}
    for name in FILES:
        text = (directory / name).read_text()
        playlist = m3u8.loads(text)
        report["files"][name] = {
            "parse": measure(lambda: m3u8.loads(text)),
            "dump": measure(lambda: playlist.dumps()),
        }
    json.dump(report, sys.stdout)


def _version():
    try:
        from importlib.metadata import version
        return version("m3u8")
    except Exception:
        return "unknown"


if __name__ == "__main__":
    main()
