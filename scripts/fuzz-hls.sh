#!/usr/bin/env bash
# Builds the InterludeHLS libFuzzer targets (playlist parser, SCTE-35 decoder),
# seeds them from the test fixtures, the video.js corpus and the SCTE 35
# specification samples, runs each for FUZZ_SECONDS (default 60) and exits
# non-zero on any crash. Usage: scripts/fuzz-hls.sh [seconds]
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
seed_playlists
seed_scte35
status=0
run HLSPlaylistFuzz "$WORK/seeds-hls" || status=1
run SCTE35Fuzz "$WORK/seeds-scte35" || status=1
exit $status
