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

build() {
    local name="$1"
    echo "== building $name"
    # One module holding the library and the entry point, so the fuzz file
    # needs no import; -parse-as-library because there is no main.swift.
    swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name InterludeHLSFuzz \
        $SOURCES "Fuzz/$name.swift" -o "$OUT/$name" 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol" || true
    test -x "$OUT/$name"
}

seed_playlists() {
    local dir="$WORK/seeds-hls"
    mkdir -p "$dir"
    find Tests/InterludeHLSTests/Fixtures -name '*.m3u8' -exec cp {} "$dir/" \;
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

seed_transport_streams() {
    local dir="$WORK/seeds-ts"
    mkdir -p "$dir"
    cp Tests/InterludeHLSTests/Fixtures/MPEGTS/*.ts "$dir/"
    # Generated: the fixture's first packets (PAT, PMT, media), a PAT/PMT
    # declaring a timed-ID3 stream followed by an ID3 PES, and bare ID3 tags
    # (v2.4 TXXX + PRIV, v2.3 unsynchronised, one with an extended header).
    python3 - "$dir" Tests/InterludeHLSTests/Fixtures/MPEGTS/h264-aac-1s.ts <<'PY'
import sys, pathlib, struct, zlib
d = pathlib.Path(sys.argv[1]); ts = pathlib.Path(sys.argv[2]).read_bytes()
(d / "head.ts").write_bytes(ts[:188 * 12])
def synchsafe(n): return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])
def frame24(fid, data): return fid.encode() + synchsafe(len(data)) + b"\0\0" + data
def tag24(frames, flags=0): body = b"".join(frames); return b"ID3\x04\x00" + bytes([flags]) + synchsafe(len(body)) + body
txxx = frame24("TXXX", b"\x03\x00google_1234")
priv = frame24("PRIV", b"com.example\x00\x01\x02\xff")
(d / "id3-v24.bin").write_bytes(tag24([txxx, priv]))
(d / "id3-v24-ext.bin").write_bytes(tag24([b"\x00\x00\x00\x06\x01\x00", txxx], flags=0x40))
v23 = b"TXXX" + struct.pack(">I", 9) + b"\0\0" + b"\x00\x00\xff\x00ab\xffcd"
(d / "id3-v23-unsync.bin").write_bytes(b"ID3\x03\x00\x80" + synchsafe(len(v23)) + v23)
def packet(pid, payload, start=True, cc=0):
    head = bytes([0x47, (0x40 if start else 0) | (pid >> 8), pid & 0xFF, 0x10 | cc])
    body = payload[:184]
    return head + body + b"\xff" * (184 - len(body))
def crc32_mpeg(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b << 24
        for _ in range(8): crc = ((crc << 1) ^ 0x04C11DB7 if crc & 0x80000000 else crc << 1) & 0xFFFFFFFF
    return crc
def section(table, body):
    s = bytes([table, 0xB0 | ((len(body) + 9) >> 8), (len(body) + 9) & 0xFF, 0, 1, 0xC1, 0, 0]) + body
    return s + struct.pack(">I", crc32_mpeg(s))
pat = section(0x00, b"\x00\x01\xf0\x00")
pmt = section(0x02, b"\xe1\x00\xf0\x00" + b"\x1b\xe1\x00\xf0\x00" + b"\x15\xe1\x02\xf0\x0f" + b"\x26\x0d\xff\xffID3 \xffID3 \x00\x1f\x00")
tag = tag24([txxx])
pts = 900000
pes = b"\x00\x00\x01\xbd" + struct.pack(">H", len(tag) + 8) + b"\x84\x80\x05" + bytes([0x21 | ((pts >> 29) & 0x0E), (pts >> 22) & 0xFF, ((pts >> 14) & 0xFE) | 1, (pts >> 7) & 0xFF, ((pts << 1) & 0xFE) | 1]) + tag
(d / "id3-pes.ts").write_bytes(packet(0, b"\x00" + pat) + packet(0x1000, b"\x00" + pmt) + packet(0x102, pes))
PY
}

run() {
    local name="$1" seeds="$2"; shift 2
    echo "== fuzzing $name for ${SECONDS_PER_TARGET}s"
    mkdir -p "$WORK/corpus-$name" "$WORK/artifacts-$name"
    if ! "$OUT/$name" "$WORK/corpus-$name" "$seeds" "$@" -max_total_time="$SECONDS_PER_TARGET" \
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
build MPEGTSFuzz
seed_playlists
seed_scte35
seed_transport_streams
status=0
run HLSPlaylistFuzz "$WORK/seeds-hls" || status=1
run SCTE35Fuzz "$WORK/seeds-scte35" || status=1
# Inputs up to 16 KiB: a segment's first PAT, PMT, media and metadata PES fit.
run MPEGTSFuzz "$WORK/seeds-ts" -max_len=16384 || status=1
exit $status
