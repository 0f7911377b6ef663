#!/usr/bin/env python3
"""Decodes SCTE-35 sections with `threefive` (pip install threefive) and
prints the fields as JSON, in 90 kHz ticks: the oracle the InterludeHLS
tests compare InterludeHLS's encoder with.

usage: scripts/scte35-oracle.py FILE   (FILE: a JSON list of {"name", "data"};
data is 0x-prefixed hex or base64)
"""
import json
import sys

import threefive


def ticks(seconds):
    return None if seconds is None else round(seconds * 90000)


def number(value):
    if value is None:
        return None
    if isinstance(value, str):
        return int(value, 16) if value.startswith("0x") else int(value)
    return int(value)


def decode(data):
    cue = threefive.Cue(data)
    cue.decode()
    command = cue.command
    info = cue.info_section
    result = {
        "command_type": command.command_type,
        "pts_ticks": ticks(getattr(command, "pts_time", None)),
        "tier": number(info.tier),
        "crc": info.crc,
    }
    if command.command_type == 5:
        result.update(
            {
                "event_id": number(command.splice_event_id),
                "out_of_network": bool(command.out_of_network_indicator),
                "immediate": bool(command.splice_immediate_flag),
                "duration_ticks": ticks(command.break_duration) if command.duration_flag else None,
                "auto_return": bool(command.break_auto_return) if command.duration_flag else None,
            }
        )
    result["descriptors"] = [
        {
            "type_id": d.segmentation_type_id,
            "event_id": number(d.segmentation_event_id),
            "duration_ticks": ticks(d.segmentation_duration) if d.segmentation_duration_flag else None,
            "upid_type": d.segmentation_upid_type,
            "segment_num": d.segment_num,
            "segments_expected": d.segments_expected,
        }
        for d in cue.descriptors
        if getattr(d, "tag", None) == 2
    ]
    return result


def main(path):
    with open(path, encoding="utf-8") as handle:
        sections = json.load(handle)
    json.dump({section["name"]: decode(section["data"]) for section in sections}, sys.stdout)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
