#!/usr/bin/env python3
"""Replays the sort-constant study's early-stop rule, with other settings, on results tables of
runs that timed every sort at every size: `--set model.stop_sizes=100` keeps the paired timing
and never stops within the grid (`stop_sizes=0` turns the rule off, and the pairing with it).

    scripts/sorting-stop-rules.py TABLE.csv [TABLE.csv ...]          the rules, run by run
    scripts/sorting-stop-rules.py --margins TABLE.csv [TABLE.csv ...] each sort's margin by n
    scripts/sorting-stop-rules.py --check TABLE.csv [TABLE.csv ...]   the replay against the C++

For each rule (consecutive sizes k, margin m) and each sort under the rule: where each run would
have stopped it, and whether the runs agree to one grid step. A rule can only be judged this way
on runs that did not stop: a run cut by one rule holds no data beyond its stops.

The replay follows models/sorting/early_stop.cpp: a candidate timed beside its reference (paired
timing: the table has its ratio_to_reference) is separated at n when the lower end of the ratio's
interval is above 1 + m; otherwise the reference is the n log n sort (quick, quick-stack,
quick-queue, merge, heap) with the largest mean ns_per_sort at n, and a candidate is separated
when the lower end of its interval is above the reference's upper end times 1 + m. It stops at the
k-th consecutive size it is separated at. Run on a table that was cut by the
shipped rule (k = 2, m = 0.01; m = 0 before 2026-12-07), its row gives that run's stops: that is
the replay's check, and `--check` makes it with the margin the table's stop reasons state (exit 1
when a stop differs; a ctest runs it on the stored tables).
Needs only Python 3.
"""
import csv, re, sys

REFERENCES = ["quick", "quick-stack", "quick-queue", "merge", "heap"]
CANDIDATES = ["shell", "selection", "bubble", "shaker", "insertion", "binary-insertion"]
RULES = [(1, 0.0), (2, 0.0), (2, 0.01), (2, 0.02), (2, 0.05), (2, 0.10), (3, 0.0), (3, 0.05)]


def load(path):
    """{(sort, n): (mean, low, high)} for the points with an interval, the (sort, n) that ran,
    and the sorted sizes. A paired point's ratio is under (sort, n, "ratio"): its lower end, or
    None without an interval."""
    points, ran, sizes = {}, set(), set()
    for r in csv.DictReader(open(path)):
        if r["stopped_because"].startswith("skipped"):
            continue
        if r["quantity"] == "ratio_to_reference":
            points[(r["model.algorithm"], int(r["model.n"]), "ratio")] = (
                float(r["ci_low"]) if r["ci_low"] else None)
            continue
        if r["quantity"] != "ns_per_sort":
            continue
        n = int(r["model.n"])
        sizes.add(n)
        ran.add((r["model.algorithm"], n))
        if r["mean"] and r["ci_low"] and r["ci_high"]:
            points[(r["model.algorithm"], n)] = (float(r["mean"]), float(r["ci_low"]),
                                                 float(r["ci_high"]))
    return points, ran, sorted(sizes)


def stop(run, sort, k, m):
    """The n it stops at, or None when it never stops. A size it ran at without a separation
    (no interval, no reference, or too close) breaks the chain, as in early_stop.cpp."""
    points, ran, sizes = run
    chain = 0
    for n in sizes:
        if (sort, n) not in ran:
            continue
        margin = margin_at(points, sort, n)
        chain = chain + 1 if margin is not None and margin > m else 0
        if chain >= k:
            return n
    return None


def label(path):
    """A run's name: the file's, or its folder's for scripts/sorting-study.sh's OUT/table.csv."""
    parts = path.rstrip("/").split("/")
    return parts[-2] if parts[-1] == "table.csv" and len(parts) > 1 else parts[-1]


def margin_at(points, sort, n):
    """Paired: the ratio's lower end minus 1. Otherwise the candidate's lower end over the
    reference's upper end, minus 1, at n. None: not run, or no interval."""
    if (sort, n, "ratio") in points:
        low = points[(sort, n, "ratio")]
        return None if low is None else low - 1
    refs = [points[(a, n)] for a in REFERENCES if (a, n) in points]
    if (sort, n) not in points or not refs:
        return None
    return points[(sort, n)][1] / max(refs)[2] - 1


def margins(paths):
    """Per sort, one row per run: the margin at each size from four steps before the shipped
    rule's earliest stop in any run to two steps after its latest, where the stops are decided."""
    runs = [load(p) for p in paths]
    grid = sorted(set().union(*[set(r[2]) for r in runs]))
    for sort in CANDIDATES:
        stops = [stop(r, sort, 2, 0.0) for r in runs]
        known = [grid.index(n) for n in stops if n]
        if not known:
            continue
        shown = grid[max(0, min(known) - 4):max(known) + 3]
        print(f"\n{sort}: margin at n (the lower end of its interval over the slowest n log n "
              "sort's upper end, minus 1; paired: the lower end of its ratio's interval, minus "
              "1)\n")
        print("| run | " + " | ".join(f"{n:,}" for n in shown) + " |")
        print("|---" * (len(shown) + 1) + "|")
        for path, (points, _, _) in zip(paths, runs):
            cells = []
            for n in shown:
                m = margin_at(points, sort, n)
                cells.append("" if m is None else f"{m:+.1%}")
            print(f"| {label(path)} | " + " | ".join(cells) + " |")


def check(paths):
    """The shipped rule replayed on tables cut by it must stop each sort where the run did."""
    bad = 0
    for path in paths:
        before = bad
        text = open(path).read()
        actual = dict((m.group(1), int(m.group(2))) for m in
                      re.finditer(r"([a-z-]+) stopped at n = ([0-9]+)", text))
        # The margin the run used, as its stop reasons state it ("above 1 by more than 1.0%");
        # none stated: 0, the default before 2026-12-07.
        stated = re.search(r"stopped at n = [0-9]+: [^\n]*? by more than ([0-9.]+)%", text)
        margin = float(stated.group(1)) / 100 if stated else 0.0
        run = load(path)
        for sort in CANDIDATES:
            replayed = stop(run, sort, 2, margin)
            if replayed != actual.get(sort):
                bad += 1
                print(f"{label(path)}: {sort}: the run stopped at {actual.get(sort)}, the replay "
                      f"at {replayed}")
        print(f"{label(path)}: {len(actual)} stops, replay " +
              ("differs" if bad > before else "agrees"))
    return 1 if bad else 0


def main(paths):
    runs = [load(p) for p in paths]
    grid = sorted(set().union(*[set(r[2]) for r in runs]))
    step = {n: i for i, n in enumerate(grid)}
    print("| rule | " + " | ".join(CANDIDATES) + " | sorts within one step |")
    print("|---" * (len(CANDIDATES) + 2) + "|")
    for k, m in RULES:
        cells, agree = [], 0
        for sort in CANDIDATES:
            stops = [stop(r, sort, k, m) for r in runs]
            idx = [step[n] if n else len(grid) for n in stops]
            ok = max(idx) - min(idx) <= 1
            agree += ok
            cells.append(", ".join(f"{n:,}" if n else "none" for n in stops) + ("" if ok else " ✗"))
        print(f"| k = {k}, margin {m:.0%} | " + " | ".join(cells) +
              f" | {agree} of {len(CANDIDATES)} |")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0)
    if len(sys.argv) < 2 or sys.argv[1:] in (["--margins"], ["--check"]):
        sys.exit(__doc__)
    if sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2:]))
    if sys.argv[1] == "--margins":
        margins(sys.argv[2:])
    else:
        main(sys.argv[1:])
