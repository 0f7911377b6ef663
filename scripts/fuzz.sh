#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for a
# bounded time, seeded from the shared corpus. Exits non-zero on any crash.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${FUZZ_SECONDS:-60}}
# The Swift runtime's backtracer can hang on memory ASan has poisoned;
# libFuzzer and ASan print the stack themselves.
export SWIFT_BACKTRACE=enable=no
out=.build/fuzz
mkdir -p "$out" fuzz-artifacts
corpus_root=../shared/corpus
if [ ! -d "$corpus_root" ]; then
    echo "fuzz: $corpus_root is missing: the fuzzers are seeded from the shared corpus beside the clone" >&2
    exit 1
fi

# InterludeFormatting (imported by the format modules) as a module and an
# object to link, built once with the same sanitizers and package name.
formatting=$out/formatting
build_formatting() {
    mkdir -p "$formatting"
    # shellcheck disable=SC2046
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -package-name interlude \
        -module-name InterludeFormatting -emit-module -emit-module-path "$formatting/InterludeFormatting.swiftmodule" \
        -c $(find Sources/InterludeFormatting -name '*.swift' | sort) -o "$formatting/InterludeFormatting.o"
}
build_formatting

build() {  # name module-name module-sources... entry-file
    # The entry file is compiled into the module itself, so its
    # `import <module>` is ignored and internal symbols are reachable.
    local name=$1 module=$2; shift 2
    echo "fuzz: building $name"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -package-name interlude -I "$formatting" \
        -module-name "$module" "$@" "$formatting/InterludeFormatting.o" -o "$out/$name" 2>&1 \
        | grep -v -e "is part of module" -e "Cannot export local symbol" || true
    test -x "$out/$name"
}

run() {  # name seed-dir
    local name=$1 seeds=$2 work="$out/$1-corpus"
    mkdir -p "$work"
    echo "fuzz: running $name for ${seconds}s"
    # -rss_limit_mb bounds memory; any crash, leak or timeout fails the run.
    "$out/$name" "$work" "$seeds" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix=fuzz-artifacts/"$name"- -print_final_stats=1 2>&1 | tail -n 12
    return "${PIPESTATUS[0]}"
}

vast_sources=$(find Sources/InterludeVAST -name '*.swift' | sort)
status=0

if [ -f Fuzz/VASTFuzz.swift ]; then
    seeds="$out/vast-seeds"; rm -rf "$seeds"; mkdir -p "$seeds"
    find "$corpus_root" -name '*.xml' -exec cp {} "$seeds"/ \;
    cp Fuzz/Regressions/vast/* "$seeds"/
    # shellcheck disable=SC2086
    build vast InterludeVAST $vast_sources Fuzz/VASTFuzz.swift
    run vast "$seeds" || status=1

    seeds="$out/vmap-seeds"; rm -rf "$seeds"; mkdir -p "$seeds"
    for file in "$corpus_root"/vmap-js/*.xml "$corpus_root"/videojs-vast/vmap*.xml; do
        cp "$file" "$seeds"/
        # The break elements alone, which the VMAP target wraps itself.
        sed -n '/<vmap:AdBreak/,/<\/vmap:AdBreak>/p' "$file" > "$seeds/breaks-$(basename "$file")"
    done
    cp Fuzz/Regressions/vmap/* "$seeds"/
    # shellcheck disable=SC2086
    build vmap InterludeVAST $vast_sources Fuzz/VMAPFuzz.swift
    run vmap "$seeds" || status=1
fi

if [ -f scripts/fuzz-hls.sh ]; then
    scripts/fuzz-hls.sh "$seconds" || status=1
fi

if [ "$status" -ne 0 ]; then
    echo "fuzz: FAILED — crashing inputs are in fuzz-artifacts/" >&2
else
    echo "fuzz: all targets ran clean"
fi
exit "$status"
