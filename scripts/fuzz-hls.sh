#!/usr/bin/env bash
# Builds the InterludeHLS libFuzzer targets (playlist parser, SCTE-35 decoder,
# MPEG-TS demuxer and ID3 reader), seeds them from the test fixtures, the
# video.js corpus, the SCTE 35 specification samples and generated TS/ID3,
# runs each for FUZZ_SECONDS (default 60) and exits non-zero on any crash.
# Usage: scripts/fuzz-hls.sh [seconds]
set -euo pipefail

cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${1:-${FUZZ_SECONDS:-60}}"
OUT=.build/fuzz
# The Swift runtime's backtracer reads memory ASan has poisoned and can hang;
# libFuzzer and ASan print the stack themselves.
export SWIFT_BACKTRACE=enable=no
mkdir -p "$OUT"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

SOURCES=$(find Sources/InterludeHLS -name '*.swift' | sort)
# InterludeFormatting (the shared date writer InterludeHLS imports) as a
# module and an object to link, with the same sanitizers and package name.
FORMATTING="$OUT/formatting-hls"
mkdir -p "$FORMATTING"
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -wmo -package-name interlude \
    -module-name InterludeFormatting -emit-module -emit-module-path "$FORMATTING/InterludeFormatting.swiftmodule" \
    -c $(find Sources/InterludeFormatting -name '*.swift' | sort) -o "$FORMATTING/InterludeFormatting.o"

build() {
    local name="$1"
    echo "== building $name"
    # One module holding the library and the entry point, so the fuzz file
    # needs no import; -parse-as-library because there is no main.swift.
    swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name InterludeHLSFuzz \
        -package-name interlude -I "$FORMATTING" \
        $SOURCES "Fuzz/$name.swift" "$FORMATTING/InterludeFormatting.o" -o "$OUT/$name" 2>&1 \
        | grep -v "ld.gold: warning: Cannot export local symbol" || true
    test -x "$OUT/$name"
}

seed_playlists() {
    local dir="$WORK/seeds-hls"
    mkdir -p "$dir"
    find Tests/InterludeHLSTests/Fixtures -name '*.m3u8' -exec cp {} "$dir/" \;
    # Inputs that once crashed a target: every run replays them first.
    cp Fuzz/Regressions/HLSPlaylistFuzz/* "$dir/" 2>/dev/null || true
    local corpus=../shared/corpus/hls-videojs
    if [ -d "$corpus" ]; then
        for file in "$corpus"/*.m3u8; do cp "$file" "$dir/videojs-$(basename "$file")"; done
    fi
    # Generated: a long VOD playlist and a live window with every ad marker style.
    python3 - "$dir" <<'PY'
import sys, pathlib
d = pathlib.Path(sys.argv[1])
vod = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"]
for i in range(200):
    vod += ["#EXTINF:4.000,", f"seg{i}.ts"]
vod.append("#EXT-X-ENDLIST")
(d / "gen-vod.m3u8").write_text("\n".join(vod) + "\n")
live = """#EXTM3U
#EXT-X-TARGETDURATION:6
#EXT-X-MEDIA-SEQUENCE:7
#EXT-X-DISCONTINUITY-SEQUENCE:2
#EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z
#EXTINF:6.0,
a.ts
#EXT-X-DATERANGE:ID="b1",START-DATE="2024-05-01T12:00:06.000Z",PLANNED-DURATION=12,SCTE35-OUT=0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A
#EXT-X-CUE-OUT:12
#EXT-OATCLS-SCTE35:/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo=
#EXTINF:6.0,
b.ts
#EXT-X-CUE-OUT-CONT:ElapsedTime=6,Duration=12
#EXT-X-SPLICEPOINT-SCTE35:/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo=
#EXTINF:6.0,
c.ts
#EXT-X-CUE-IN
#EXT-X-DISCONTINUITY
#EXT-X-DATERANGE:ID="i1",CLASS="com.apple.hls.interstitial",START-DATE="2024-05-01T12:00:18.000Z",X-ASSET-URI="x.m3u8",X-RESUME-OFFSET=0,CUE="ONCE"
#EXTINF:6.0,
d.ts
"""
(d / "gen-live.m3u8").write_text(live)
PY
}

seed_scte35() {
    local dir="$WORK/seeds-scte35"
    mkdir -p "$dir"
    # SCTE 35 (2019) section 14 examples: splice_insert and time_signal.
    echo "/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo=" | base64 -d > "$dir/splice-insert.bin"
    echo "/DA0AAAAAAAA///wBQb+cr0AUAAeAhxDVUVJSAAAjn/PAAGlmbAICAAAAAAsoKGKNAIAmsnRfg==" | base64 -d > "$dir/time-signal.bin"
    printf '%s' "0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A" > "$dir/splice-insert.hex"
    printf '%s' "/DA0AAAAAAAA///wBQb+cr0AUAAeAhxDVUVJSAAAjn/PAAGlmbAICAAAAAAsoKGKNAIAmsnRfg==" > "$dir/time-signal.b64"
}

seed_ts() {
    local dir="$WORK/seeds-ts"
    mkdir -p "$dir"
    cp Tests/InterludeHLSTests/Fixtures/MPEGTS/*.ts "$dir/"
    # Generated: a PAT/PMT declaring a timed-ID3 stream and ID3 PES packets
    # (v2.4 and v2.3 tags), the tags alone, and the PAT and PMT sections alone.
    python3 - "$dir" <<'PY'
import sys, pathlib
d = pathlib.Path(sys.argv[1])

def crc(data):
    value = 0xFFFFFFFF
    for byte in data:
        value ^= byte << 24
        for _ in range(8):
            value = ((value << 1) ^ 0x04C11DB7) if value & 0x80000000 else value << 1
            value &= 0xFFFFFFFF
    return value.to_bytes(4, "big")

def section(table_id, extension, body):
    head = bytes([table_id, 0xB0 | (len(body) + 9) >> 8, (len(body) + 9) & 0xFF]) + extension.to_bytes(2, "big") + bytes([0xC1, 0, 0])
    return head + body + crc(head + body)

def synchsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])

def id3(frames, major=4):
    body = b""
    for fid, data in frames:
        size = synchsafe(len(data)) if major == 4 else len(data).to_bytes(4, "big")
        body += fid + size + b"\0\0" + data
    return b"ID3" + bytes([major, 0, 0]) + synchsafe(len(body)) + body

def packets(pid, payload, cc=0, psi=False):
    out = b""
    first = True
    if psi:
        payload = b"\0" + payload
    while payload:
        chunk, payload = payload[:184], payload[184:]
        header = bytes([0x47, (0x40 if first else 0) | pid >> 8, pid & 0xFF])
        if len(chunk) == 184 or psi:
            out += header + bytes([0x10 | cc]) + chunk + b"\xff" * (184 - len(chunk))
        else:
            stuffing = 184 - len(chunk)
            field = bytes([stuffing - 1]) + (b"\0" + b"\xff" * (stuffing - 2) if stuffing > 1 else b"")
            out += header + bytes([0x30 | cc]) + field + chunk
        cc = (cc + 1) & 15
        first = False
    return out

def pes(pts, payload):
    stamp = bytes([0x21 | (pts >> 29) & 0x0E, (pts >> 22) & 0xFF, ((pts >> 14) & 0xFE) | 1, (pts >> 7) & 0xFF, ((pts << 1) & 0xFE) | 1])
    return b"\0\0\1\xbd" + (len(payload) + 8).to_bytes(2, "big") + b"\x84\x80\x05" + stamp + payload

ident = b"\xff\xffID3 \xffID3 \0"
pat = section(0, 1, b"\0\1\xf0\0")
pmt = section(2, 1, b"\xe1\0\xf0\x11" + b"\x25\x0f" + ident + b"\x1f\0\1" + b"\x1b\xe1\0\xf0\0" + b"\x15\xe1\2\xf0\x0f\x26\x0d" + ident + b"\x0f")
tag24 = id3([(b"TXXX", b"\3\0google_start_1"), (b"PRIV", b"owner\0\1\2\3")])
tag23 = id3([(b"TXXX", b"\1\xff\xfea\0\0\0\xff\xfeb\0"), (b"TIT2", b"\0title")], major=3)
video = b"\0\0\1\xe0\0\0\x80\x80\x05\x21\0\x05\xbf\x21" + bytes(300)
ts = packets(0, pat, psi=True) + packets(0x1000, pmt, psi=True) + packets(0x102, pes(90000, tag24)) + packets(0x100, video) + packets(0x102, pes(93000, tag23), cc=1)
(d / "gen-id3.ts").write_bytes(ts)
(d / "tag-v24.id3").write_bytes(tag24)
(d / "tag-v23.id3").write_bytes(tag23)
(d / "pat.section").write_bytes(pat)
(d / "pmt.section").write_bytes(pmt)
PY
}

run() {
    local name="$1" seeds="$2"
    echo "== fuzzing $name for ${SECONDS_PER_TARGET}s"
    mkdir -p "$WORK/corpus-$name" "$WORK/artifacts-$name"
    if ! "$OUT/$name" "$WORK/corpus-$name" "$seeds" -max_total_time="$SECONDS_PER_TARGET" \
        -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="$WORK/artifacts-$name/" \
        > "$WORK/$name.log" 2>&1; then
        tail -n 60 "$WORK/$name.log"
        mkdir -p "$OUT/crashes"
        cp "$WORK/artifacts-$name/"* "$OUT/crashes/" 2>/dev/null || true
        echo "!! $name found a crash; inputs copied to $OUT/crashes" >&2
        return 1
    fi
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+.*DONE)" "$WORK/$name.log" || tail -n 3 "$WORK/$name.log"
}

build HLSPlaylistFuzz
build SCTE35Fuzz
build TSID3Fuzz
seed_playlists
seed_scte35
seed_ts
status=0
run HLSPlaylistFuzz "$WORK/seeds-hls" || status=1
run SCTE35Fuzz "$WORK/seeds-scte35" || status=1
run TSID3Fuzz "$WORK/seeds-ts" || status=1
exit $status
