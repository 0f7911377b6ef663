#!/usr/bin/env bash
# Installs the Debian packages the build, tests and tools need, when missing.
# Safe to run repeatedly; does nothing when everything is present.
set -euo pipefail
packages=(pkg-config libxml2-dev libmicrohttpd-dev libsqlite3-dev ffmpeg fontconfig fonts-dejavu-core tmux curl python3
    chromium gstreamer1.0-tools gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-base
    gstreamer1.0-libav)
[ "${WITH_BENCH:-0}" = "1" ] && packages+=(wrk nginx)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Python oracles of the HLS tests (scripts/m3u8-oracle.py, scripts/scte35-oracle.py).
if command -v python3 >/dev/null 2>&1 && ! python3 -c "import m3u8, threefive" 2>/dev/null; then
    echo "install-deps: installing m3u8 threefive (pip)"
    python3 -m pip install --quiet m3u8 threefive 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages m3u8 threefive \
        || echo "install-deps: pip could not install m3u8 threefive; the HLS oracle tests will be skipped" >&2
fi
if ! command -v swift >/dev/null 2>&1; then
    [ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
fi
command -v swift >/dev/null 2>&1 || { echo "install-deps: a Swift 6 toolchain is required (swift.org)" >&2; exit 1; }
