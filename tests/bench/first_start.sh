#!/usr/bin/env bash
# Times a first start of the GUI (offscreen): a new home without an experiment store, so that the
# store is seeded with the shipped datasets while the window comes up. The process quits as soon
# as the window is shown (COMPOSELAB_QUIT_WHEN_SHOWN) and waits for the seeding, so this is the time
# to the window plus the seeding's tail. Median of 5; the issue's goal is 1 s. Run by hand.
#   tests/bench/first_start.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-${COMPOSELAB_BUILD_DIR:-$root/build}}"
times=()
for i in 1 2 3 4 5; do
    scratch="$(mktemp -d)"
    start=$(date +%s.%N)
    HOME="$scratch" XDG_RUNTIME_DIR="$scratch" QT_QPA_PLATFORM=offscreen \
        COMPOSELAB_QUIT_WHEN_SHOWN=1 "$build/composelab" >/dev/null 2>&1
    end=$(date +%s.%N)
    [ -s "$scratch/.local/share/ComposeLab/experiments.sqlite" ] || { echo "no store was made"; exit 1; }
    times+=("$(echo "$end - $start" | bc)")
    rm -rf "$scratch"
done
median="$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)"
echo "first start (window shown, store seeded): median ${median} s of ${times[*]} (goal 1 s)"
awk -v m="$median" 'BEGIN { exit !(m <= 1.0) }'
