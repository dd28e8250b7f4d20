#!/usr/bin/env bash
# The planned CI (not yet .ci/run: its cold run on a fresh machine is still to be timed), three parts; any failure stops the run with a non-zero status.
#   1. the README's test command;
#   2. the whole suite again built with AddressSanitizer and UBSan (build-asan). -O1 with line
#      tables only (-g1): sanitizer reports keep file and line, and the build and the run both
#      stay short on a 2-core machine;
#   3. every input of the fuzz corpus replayed once through its libFuzzer target (build-fuzz).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { echo "=== $1 ($(date -u +%H:%M:%S))"; }

step "tests"
./scripts/test.sh

step "tests under ASan+UBSan"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCOMPOSELAB_SANITIZE=ON \
    ${COMPOSELAB_CMAKE_ARGS:-} >/dev/null
cmake --build build-asan -j"$(nproc)"
QT_QPA_PLATFORM=offscreen ctest --test-dir build-asan --output-on-failure -j"$(nproc)"

step "fuzz corpus replay"
./scripts/fuzz.sh --replay

step "done"
