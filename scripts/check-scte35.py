#!/usr/bin/env python3
"""Cross-checks SCTE-35 sections with threefive (PyPI), an independent decoder.

Reads a JSON list on stdin: [{"hex": "0xFC…", "pts": seconds, "type": segmentation_type_id,
"event": segmentation_event_id, "duration": seconds or null}, …]. Prints one line per
section and exits 1 if threefive decodes any differently, 2 if threefive is missing.
"""
import json
import sys

try:
    import threefive
except ImportError:
    print("check-scte35: threefive is not installed (pip install threefive)", file=sys.stderr)
    sys.exit(2)

failures = 0
for expected in json.load(sys.stdin):
    cue = threefive.Cue(expected["hex"])
    cue.decode()
    command = cue.command
    descriptor = cue.descriptors[0]
    got = {
        "command": command.command_type,
        "pts": round(command.pts_time, 6),
        "type": descriptor.segmentation_type_id,
        "event": int(descriptor.segmentation_event_id, 16),
        "duration": getattr(descriptor, "segmentation_duration", None) if descriptor.segmentation_duration_flag else None,
    }
    want = {
        "command": 6,
        "pts": round(expected["pts"], 6),
        "type": expected["type"],
        "event": expected["event"],
        "duration": expected["duration"],
    }
    ok = got == want
    failures += 0 if ok else 1
    print(("ok  " if ok else "BAD ") + json.dumps({"got": got, "want": want}))
sys.exit(1 if failures else 0)
