#!/usr/bin/env bash
# Runs `composelab bench` and checks every median against the goal the issues set. Not part of
# the test suite (timing a busy machine makes tests flaky): run it by hand on a quiet machine.
#   tests/bench/run.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-${COMPOSELAB_BUILD_DIR:-$root/build}}"
"$build/composelab" bench --json > "$build/bench.json"
python3 - "$build/bench.json" <<'PY'
import json, sys
goals = {  # seconds, from the issues
    "analyze_seed": 1e-3, "analyze_1000": 20e-3, "predict": 10e-6,
    "edit_rerun_seed": 16e-3, "edit_rerun_1000": 5e-3, "edit_move_1000": 1e-3,
    "validate_calibration": 2.0, "import_calibration_csv": 1.0, "import_100k": 5.0,
    "chart_100k": 0.2, "topo_hx2_64x64": 1.0, "topo_fattree_16k": 1.0,
    "place_hx_64x64": 0.1, "schedule_100k": 2.0, "schedule_4096gpu_20k": 2.0,
    "plans_gpt3_3072": 1.0, "plan_predict": 10e-6,
}
missed = 0
for r in json.load(open(sys.argv[1]))["results"]:
    goal = goals.get(r["name"])
    ok = goal is None or r["median_s"] <= goal
    missed += not ok
    print(f'{r["name"]:24} median {r["median_s"]*1e3:10.3f} ms  runs {r["runs"]:6}  '
          f'goal {"-" if goal is None else f"{goal*1e3:.3f} ms"}  {"ok" if ok else "MISSED"}')
sys.exit(1 if missed else 0)
PY
