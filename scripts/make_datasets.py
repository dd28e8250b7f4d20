#!/usr/bin/env python3
"""Writes the recorded results that ComposeLab ships in datasets/ and seeds a new experiment store
with, from the published measurements in ../shared/reference (each row keeps its source_url):

  datasets/mlperf_training_results.csv  MLPerf Training scores, one submission per row
  datasets/training_throughput.csv      published training throughput (images or sequences/s)
  datasets/link_bandwidth.csv           link bandwidths measured with p2pBandwidthLatencyTest,
                                        nvbandwidth, bandwidthTest, nccl-tests, osu_bw, ...

Only the figures and what identifies them are kept (system, GPU, counts, tool, size, source), not
the curators' notes. Re-run after ../shared/reference changes:
    scripts/make_datasets.py [--reference DIR]
"""
import argparse
import csv
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

TABLES = {
    "mlperf_training_results.csv": (
        "mlperf_training_calibration.csv",
        ["round", "submitter", "system", "division", "availability", "accelerator",
         "accelerator_count", "accelerators_per_node", "number_of_nodes", "host_processor",
         "framework", "accelerator_interconnect", "host_networking", "benchmark", "minutes",
         "n_result_files", "n_converged", "rcp_scaling_factor", "global_batch_size",
         "accelerator_host_interconnect", "source_url"],
    ),
    "training_throughput.csv": (
        "throughput_calibration.csv",
        ["model", "gpu", "gpu_count", "precision", "batch_size", "throughput", "unit",
         "framework", "system", "source_url"],
    ),
    "link_bandwidth.csv": (
        "interconnect_bandwidth.csv",
        ["link", "measurement", "gb_per_s", "latency_us", "min_gb_s", "median_gb_s", "max_gb_s",
         "gpu", "system", "tool", "message_size", "source_url"],
    ),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", default=str(ROOT.parent / "shared" / "reference"))
    args = parser.parse_args()
    reference = pathlib.Path(args.reference)
    for out_name, (in_name, columns) in TABLES.items():
        source = reference / in_name
        if not source.exists():
            sys.exit(f"make_datasets.py: {source}: no such file (is ../shared there?)")
        with source.open(newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        missing = [c for c in columns if rows and c not in rows[0]]
        if missing:
            sys.exit(f"make_datasets.py: {source}: missing columns {', '.join(missing)}")
        kept = [r for r in rows if r.get("source_url")]
        out = ROOT / "datasets" / out_name
        with out.open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(columns)
            for r in kept:
                writer.writerow([r[c] for c in columns])
        print(f"{out.relative_to(ROOT)}: {len(kept)} rows (of {len(rows)} in {in_name})")


if __name__ == "__main__":
    main()
