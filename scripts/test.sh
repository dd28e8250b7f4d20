#!/usr/bin/env bash
# Sets up (scripts/setup.sh --tests: also Slurm and munge for the job-array test) and runs the
# whole test suite: model, app and (offscreen) view tests.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh" --tests
build="${COMPOSELAB_BUILD_DIR:-$root/build}"
QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure -j"$(nproc)" "$@"
