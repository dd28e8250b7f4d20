#!/usr/bin/env python3
"""Turn MLPerf Reference Convergence Points into ComposeLab convergence tables.

Reads mlcommons/logging's rcps_<benchmark>.json files (copied under
../shared/reference/mlperf_rcps/training_X.Y.0/) and prints, for each workload of
resources/workloads/workloads.json that has RCPs, the "convergence" array:
[{"globalBatch": BS, "samples": training samples to converge, "source": ...}, ...].

    python3 scripts/rcp_to_convergence.py [--rcps DIR]            # print the tables
    python3 scripts/rcp_to_convergence.py --write resources/workloads/workloads.json

--write replaces the "convergence" arrays of the matching workloads in that file
and leaves every other key as it is (the file is rewritten with 2-space indent).

Rules (see resources/workloads/README.md):
* For each workload take the newest round that has its benchmark.
* Per batch size, the mean is the olympic mean that mlperf_logging's rcp_checker
  uses: sort the runs, drop the fastest and the slowest (4 of each for unet3d).
* "Epochs to converge" is not always in epochs. Its unit per benchmark and round:
  epochs (x datasetSamples), samples (BERT; 3D U-Net from v3.1; Stable Diffusion from
  v4.0; Llama 2 70B LoRA, whose files call the key "samples to converge"), tokens (GPT-3:
  / 2048 tokens per sequence), and 1-based epochs for DLRM v1, whose reference
  logs epoch_num = k + 1 + fraction (facebookresearch/dlrm dlrm_s_pytorch.py).
Python 3 standard library only.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_RCPS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "reference", "mlperf_rcps"))
DEFAULT_WORKLOADS = os.path.normpath(os.path.join(HERE, "..", "resources", "workloads", "workloads.json"))

# workload id -> list of (rcps file stem, first round, last round, unit), newest rule wins.
# Rounds are (major, minor). "ssd" is SSD-ResNet34/COCO up to v1.1 and RetinaNet/OpenImages from v2.0;
# from v5.0 the RetinaNet file is called rcps_retinanet.json.
BENCHMARKS = {
    "resnet50": [("resnet", (0, 0), (99, 9), "epochs")],
    "bert_large": [("bert", (0, 0), (99, 9), "samples")],
    "ssd_resnet34": [("ssd", (0, 0), (1, 1), "epochs")],
    "retinanet": [("ssd", (2, 0), (4, 1), "epochs"), ("retinanet", (5, 0), (99, 9), "epochs")],
    "maskrcnn": [("maskrcnn", (0, 0), (99, 9), "epochs")],
    "unet3d": [("unet3d", (0, 0), (3, 0), "epochs"), ("unet3d", (3, 1), (99, 9), "samples")],
    "rnnt": [("rnnt", (0, 0), (99, 9), "epochs")],
    "dlrm": [("dlrm", (0, 0), (99, 9), "epochs1")],
    "dlrm_dcnv2": [("dlrm_dcnv2", (0, 0), (99, 9), "epochs")],
    "gpt3": [("gpt3", (0, 0), (99, 9), "tokens")],
    # Its calibration rows are v3.1 to v4.1; v5.0 changed the learning rates (and v3.1 counted steps).
    "stable_diffusion": [("stable_diffusion", (4, 0), (4, 1), "samples")],
    # Every round's file holds the same values (v5.1 on adds "Precision": "BF16").
    "llama2_70b_lora": [("llama2_70b_lora", (4, 0), (99, 9), "samples")],
    # R-GAT: epochs of the 94,605,581 training seeds; v4.0 and v4.1 hold the same values.
    "gnn": [("gnn", (4, 0), (4, 1), "epochs")],
}
GPT3_SEQUENCE = 2048


def parse_round(name):
    # "training_3.1.0" -> (3, 1)
    parts = name[len("training_"):].split(".")
    return int(parts[0]), int(parts[1])


def olympic_mean(values, benchmark):
    values = sorted(values)
    drop = 4 if benchmark == "unet3d" else 1
    if len(values) <= 2 * drop:
        raise ValueError("%s: too few runs (%d) for an olympic mean" % (benchmark, len(values)))
    kept = values[drop:len(values) - drop]
    return sum(kept) / len(kept)


def newest_file(rcps_dir, rules):
    """The newest (round, path, unit) among the rounds that have a file for one of the rules."""
    best = None
    for entry in sorted(os.listdir(rcps_dir)):
        if not entry.startswith("training_"):
            continue
        rnd = parse_round(entry)
        for stem, first, last, unit in rules:
            path = os.path.join(rcps_dir, entry, "rcps_%s.json" % stem)
            if first <= rnd <= last and os.path.exists(path) and (best is None or rnd > best[0]):
                best = (rnd, path, unit)
    return best


def convergence(rcps_dir, workload_id, dataset_samples):
    found = newest_file(rcps_dir, BENCHMARKS[workload_id])
    if found is None:
        return []
    _, path, unit = found
    with open(path) as f:
        records = json.load(f)
    rel = os.path.relpath(path, rcps_dir).replace(os.sep, "/").replace("/", " ")
    rows = []
    for name, rec in records.items():
        # The LoRA (and Flux) files name the key for their unit.
        runs = rec.get("Epochs to converge") or rec.get("samples to converge")
        if not runs:
            continue
        mean = olympic_mean(runs, rec["Benchmark"])
        if unit == "epochs":
            samples, how = mean * dataset_samples, "%.6g epochs x %d" % (mean, dataset_samples)
        elif unit == "epochs1":
            samples, how = (mean - 1) * dataset_samples, "(%.6g - 1) epochs x %d" % (mean, dataset_samples)
        elif unit == "tokens":
            samples, how = mean / GPT3_SEQUENCE, "%.6g tokens / %d" % (mean, GPT3_SEQUENCE)
        else:
            samples, how = mean, "%.6g samples" % mean
        rows.append({
            "globalBatch": int(rec["BS"]),
            "samples": round(samples),
            "source": "mlperf_rcps %s %s: olympic mean of %d runs, %s" % (rel, name, len(runs), how),
        })
    rows.sort(key=lambda r: r["globalBatch"])
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rcps", default=DEFAULT_RCPS, help="folder with training_X.Y.0/ subfolders")
    parser.add_argument("--workloads", default=DEFAULT_WORKLOADS,
                        help="workloads.json to take datasetSamples from")
    parser.add_argument("--write", metavar="FILE", help="replace the convergence arrays in FILE")
    args = parser.parse_args()
    if not os.path.isdir(args.rcps):
        sys.exit("no RCP folder at %s (use --rcps)" % args.rcps)
    with open(args.write or args.workloads) as f:
        doc = json.load(f)
    tables = {}
    for w in doc["workloads"]:
        if w["id"] in BENCHMARKS:
            tables[w["id"]] = convergence(args.rcps, w["id"], w["datasetSamples"])
    if args.write:
        for w in doc["workloads"]:
            if w["id"] in tables:
                w["convergence"] = tables[w["id"]]
        with open(args.write, "w") as f:
            json.dump(doc, f, indent=2, ensure_ascii=False)
            f.write("\n")
    else:
        json.dump(tables, sys.stdout, indent=2)
        sys.stdout.write("\n")


if __name__ == "__main__":
    main()
