#!/usr/bin/env bash
# One command from a fresh clone: install what `interlude serve` needs (when
# missing), build in release and serve. Arguments go to `interlude serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
exec swift run -c release interlude serve "$@"
