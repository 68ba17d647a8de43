#!/usr/bin/env python3
"""Runs single sorting points with `mcpilot run` and prints a Markdown table of the constants.

An interim driver for docs/models/sorting.md until `mcpilot run configs/sorting/constants.toml`
(the sweep) is available: each point is one session of configs/sorting/quick-181.toml with
--set overrides. It applies no early-stop rule; it runs the points it is given.

  scripts/sorting-points.py OUT_DIR [--seconds S] [--fresh-study]
"""
import json
import os
import subprocess
import sys

EXE = os.environ.get("MCPILOT", "build/mcpilot")
BASE = "configs/sorting/quick-181.toml"

QUADRATIC = ["bubble", "insertion", "selection", "binary-insertion"]
FAST = ["shell", "heap", "merge", "quick", "std-sort", "std-stable-sort", "radix"]


def run(out_dir, name, sets, seconds):
    path = os.path.join(out_dir, name + ".json")
    raw = os.path.join(out_dir, name + ".csv")
    if not os.path.exists(path):
        args = [EXE, "run", BASE, "--quiet", "--json", path, "--raw", raw,
                "--set", "experiment.max_seconds=%g" % seconds,
                "--set", 'experiment.counters=["task-clock","context-switches"]']
        for s in sets:
            args += ["--set", s]
        subprocess.run(args, check=False, stdout=subprocess.DEVNULL)
    with open(path) as f:
        j = json.load(f)
    # The median of every ns_per_sort reading, for a session that found no interval: a figure
    # without an interval, and labelled so.
    values = []
    with open(raw) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) == 4 and parts[2] == "ns_per_sort":
                values.append(float(parts[3]))
    values.sort()
    j["median_ns_per_sort"] = values[len(values) // 2] if values else None
    return j


def fmt(q, median=None):
    if q is None or q.get("mean") is None:
        return "median %.4g, no interval" % median if median else "-"
    lo, hi = q.get("ci_low"), q.get("ci_high")
    if lo is None or hi is None:
        return "%.4g (no interval)" % q["mean"]
    return "%.4g [%.4g, %.4g]" % (q["mean"], lo, hi)


def row(j, label):
    qs = {q["name"]: q for q in j["quantities"]}
    m = j["environment"]["measurement"]
    ns = qs.get("ns_per_sort")
    status = j["stopped_because"]
    if ns and not ns.get("converged") and ns.get("status"):
        status += ": " + ns["status"].split(":")[0]
    return "| %s | %s | %s | %s | %d | %d | %s |" % (
        label, fmt(ns, j["median_ns_per_sort"]), fmt(qs.get("ns_per_f")), fmt(qs.get("task-clock_per_f")),
        ns["n"] if ns else 0, m["batch"], status)


def main():
    out_dir = sys.argv[1]
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 40
    os.makedirs(out_dir, exist_ok=True)
    print("| sort, n | ns_per_sort | ns_per_f (c) | task-clock per f | readings | batch | stopped |")
    print("|---|---|---|---|---|---|---|")
    if "--fresh-study" in sys.argv:
        for alg in ["quick", "heap", "insertion"]:
            for fresh in ["true", "false"]:
                j = run(out_dir, "%s-181-%s" % (alg, fresh),
                        ["model.algorithm=" + alg, "model.n=181", "model.fresh_keys=" + fresh],
                        seconds)
                print(row(j, "%s, 181, fresh_keys = %s" % (alg, fresh)))
        return
    for n in [16, 181, 2048, 65536]:
        for alg in QUADRATIC + FAST:
            if n == 65536 and alg in QUADRATIC:
                continue
            j = run(out_dir, "%s-%d" % (alg, n), ["model.algorithm=" + alg, "model.n=%d" % n],
                    seconds)
            print(row(j, "%s, %d" % (alg, n)), flush=True)


if __name__ == "__main__":
    main()
