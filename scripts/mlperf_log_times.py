#!/usr/bin/env python3
"""Evaluation and step times from MLPerf Training result logs.

Reads every <submitter>/results/<system>/<benchmark>/result_0.txt of a checkout of an MLPerf
Training results repository (github.com/mlcommons/training_results_vX.Y) and prints, per system:
the global batch, the run time, the number of evaluations, the median eval_start-to-eval_stop time
of one evaluation, and the median training throughput of the run's tracked_stats lines.

This is where the measured evaluation costs of resources/workloads/workloads.json
(evalCostRatio, evalFixedSeconds; the arithmetic is in each evalSource) come from:

    git clone https://github.com/mlcommons/training_results_v3.1
    scripts/mlperf_log_times.py training_results_v3.1 bert
"""

import json
import statistics
import sys
from pathlib import Path

KEYS = {"run_start", "run_stop", "eval_start", "eval_stop", "tracked_stats", "global_batch_size"}


def events(log: Path):
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        start = line.find(":::MLLOG {")
        if start < 0:
            continue
        try:
            record = json.loads(line[start + len(":::MLLOG "):])
        except json.JSONDecodeError:
            continue
        if record.get("key") in KEYS:
            yield record["key"], record.get("time_ms"), record.get("value")


def summary(log: Path):
    times = {"run_start": [], "run_stop": [], "eval_start": [], "eval_stop": []}
    throughput, batch = [], None
    for key, time_ms, value in events(log):
        if key == "global_batch_size":
            batch = value
        elif key == "tracked_stats":
            if isinstance(value, dict) and "throughput" in value:
                throughput.append(value["throughput"])
        else:
            times[key].append(time_ms)
    evals = [b - a for a, b in zip(times["eval_start"], times["eval_stop"])]
    run_s = None
    if times["run_start"] and times["run_stop"]:
        run_s = (times["run_stop"][0] - times["run_start"][0]) / 1000
    return batch, run_s, evals, throughput


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, benchmark = Path(sys.argv[1]), sys.argv[2]
    logs = sorted(root.glob(f"*/results/*/{benchmark}/result_0.txt"))
    if not logs:
        sys.exit(f"{root}: no */results/*/{benchmark}/result_0.txt")
    print("submitter,system,global_batch,run_s,evaluations,eval_ms_median,throughput_median")
    for log in logs:
        batch, run_s, evals, throughput = summary(log)
        system, submitter = log.parts[-3], log.parts[-5]
        print(",".join(str(x) for x in (
            submitter, system, batch, run_s, len(evals),
            statistics.median(evals) if evals else "",
            round(statistics.median(throughput), 1) if throughput else "")))


if __name__ == "__main__":
    main()
