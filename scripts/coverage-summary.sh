#!/usr/bin/env bash
# Prints line coverage per module of Sources/ from the last
# `swift test --enable-code-coverage` run (SwiftPM's llvm-cov JSON export).
set -euo pipefail
cd "$(dirname "$0")/.."
json=$(swift test --show-codecov-path 2>/dev/null)
[ -f "$json" ] || { echo "coverage: no report at $json"; exit 1; }
python3 - "$json" <<'PY'
import json, sys, collections
data = json.load(open(sys.argv[1]))["data"][0]["files"]
totals = collections.defaultdict(lambda: [0, 0])
for entry in data:
    name = entry["filename"]
    if "/Sources/" not in name or "/.build/" in name:
        continue
    module = name.split("/Sources/")[1].split("/")[0]
    lines = entry["summary"]["lines"]
    totals[module][0] += lines["covered"]
    totals[module][1] += lines["count"]
print("coverage (lines covered, by module):")
for module, (covered, count) in sorted(totals.items()):
    if count:
        print(f"  {module:22} {100 * covered / count:5.1f}%  of {count:6d} lines")
PY
