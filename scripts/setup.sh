#!/usr/bin/env bash
# Installs the Debian packages ComposeLab needs (only those that are missing), then configures
# and builds it in build/ (or $COMPOSELAB_BUILD_DIR). Safe to run again: apt runs only when
# something is absent, and the build is incremental.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${COMPOSELAB_BUILD_DIR:-$root/build}"

packages=(
    cmake ninja-build g++ pkg-config
    qt6-base-dev qt6-svg-dev libqt6sql6-sqlite libqcustomplot-dev
    libboost-graph-dev nlohmann-json3-dev libcli11-dev libsqlite3-dev
    xvfb xauth fonts-dejavu-core
)

# The tests also run a study as a Slurm job array on a Slurm started on localhost
# (tests/slurm/study_array.sh): `setup.sh --tests` (what scripts/test.sh runs) installs it too.
if [ "${1:-}" = "--tests" ]; then
    packages+=(slurm-wlm munge sqlite3)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if ((${#missing[@]})); then
    echo "Installing missing packages: ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${COMPOSELAB_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j"$(nproc)"
