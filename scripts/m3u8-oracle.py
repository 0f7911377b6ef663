#!/usr/bin/env python3
"""Parses every .m3u8 file in a directory with the Python `m3u8` package
(pip install m3u8) and prints, as JSON, what it read: the oracle the
InterludeHLS tests compare the stitcher's playlists with.

usage: scripts/m3u8-oracle.py DIR
"""
import json
import os
import sys

import m3u8


def segment(s):
    return {
        "uri": s.uri,
        "duration": s.duration,
        "discontinuity": bool(s.discontinuity),
        "program_date_time": s.program_date_time.isoformat() if s.program_date_time else None,
        "cue_out_start": bool(s.cue_out_start),
        "cue_in": bool(s.cue_in),
        "dateranges": [d.id for d in (s.dateranges or [])],
        "key_method": s.key.method if s.key else None,
        "init_section": s.init_section.uri if s.init_section else None,
    }


def main(directory):
    report = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".m3u8"):
            continue
        with open(os.path.join(directory, name), encoding="utf-8") as handle:
            playlist = m3u8.loads(handle.read())
        report[name] = {
            "media_sequence": playlist.media_sequence,
            "discontinuity_sequence": playlist.discontinuity_sequence,
            "target_duration": playlist.target_duration,
            "is_endlist": playlist.is_endlist,
            "segments": [segment(s) for s in playlist.segments],
        }
    json.dump({"version": m3u8.__version__ if hasattr(m3u8, "__version__") else "", "files": report}, sys.stdout)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
