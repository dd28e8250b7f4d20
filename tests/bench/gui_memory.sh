#!/usr/bin/env bash
# Opens the GUI (offscreen) on a synthetic 1,000-device design, lets it lay out, analyse and draw
# for a few seconds, and checks its peak memory against the issue's 400 MB. Run by hand, like
# run.sh: memory depends on the machine's Qt and fonts, not only on our code.
#   tests/bench/gui_memory.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-${COMPOSELAB_BUILD_DIR:-$root/build}}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$build/composelab" example pool:1000 --out "$scratch/pool.clab"
# A home of its own, so that no recovery prompt or saved window state interferes.
HOME="$scratch" XDG_RUNTIME_DIR="$scratch" QT_QPA_PLATFORM=offscreen \
    /usr/bin/time -f "%M" -o "$scratch/rss" timeout -s INT 10 "$build/composelab" "$scratch/pool.clab" \
    >/dev/null 2>&1 || true
kb="$(tail -1 "$scratch/rss")"
echo "GUI with 1,000 devices: peak resident memory $((kb / 1024)) MB (goal < 400 MB)"
[ "$kb" -lt $((400 * 1024)) ]
