#!/usr/bin/env python3
"""Markdown tables from the sort-constant study's results table (`mcpilot run --table`).

    scripts/sorting-tables.py TABLE.csv constants   every point: interval, task-clock, status
    scripts/sorting-tables.py TABLE.csv wide        c per sort and n, one row per n
    scripts/sorting-tables.py TABLE.csv stops       the last n each sort ran at, and why
    scripts/sorting-tables.py TABLE.csv summary     sessions run and converged, readings

Used for docs/models/sorting.md and docs/models/sorting-constants.md; needs only Python 3.
"""
import csv, sys, math
from collections import defaultdict

def fmt(v, digits=4):
    v = float(v)
    if v == 0: return "0"
    e = math.floor(math.log10(abs(v)))
    d = max(0, digits - 1 - e)
    return f"{v:,.{d}f}" if e < 6 else f"{v:.{digits-1}e}"

rows = list(csv.DictReader(open(sys.argv[1])))
# The study's eleven sorts in the peer's order, then the extras a table may hold.
order = ["quick", "quick-stack", "quick-queue", "merge", "heap", "shell", "selection", "bubble",
         "shaker", "insertion", "binary-insertion", "std-sort", "std-stable-sort", "radix"]
by = defaultdict(dict)
ns = set()
for r in rows:
    by[(r["model.algorithm"], int(r["model.n"]))][r["quantity"]] = r
    ns.add(int(r["model.n"]))
ns = sorted(ns)
mode = sys.argv[2] if len(sys.argv) > 2 else "constants"
if mode == "constants":
    # c = ns_per_f with its interval; task-clock per f beside it; readings; status
    print("| sort | n | ns per sort | c = ns per f(n) [95% interval] | task-clock ns per f(n) [95% interval] | readings | status |")
    print("|---|---|---|---|---|---|---|")
    for a in order:
        for n in ns:
            q = by.get((a, n))
            if not q: continue
            t = q.get("ns_per_f") or q.get("ns_per_sort")
            if t is None: continue
            if t["stopped_because"].startswith("skipped"):
                continue
            if t["mean"] == "":
                c = "no interval: " + t["stopped_because"]
            else:
                c = f"{fmt(t['mean'])} [{fmt(t['ci_low'])}, {fmt(t['ci_high'])}]"
            tc = q.get("task-clock_per_f")
            tcs = f"{fmt(tc['mean'])} [{fmt(tc['ci_low'])}, {fmt(tc['ci_high'])}]" if tc and tc["mean"] else "-"
            st = "converged" if t["converged"] == "true" else t["stopped_because"]
            ps = q.get("ns_per_sort")
            pss = fmt(ps["mean"]) if ps and ps["mean"] else "-"
            print(f"| {a} | {n:,} | {pss} | {c} | {tcs} | {t['readings']} | {st} |")
elif mode == "wide":
    # one row per n, one column per sort: c only
    print("| n | " + " | ".join(order) + " |")
    print("|---" * (len(order) + 1) + "|")
    for n in ns:
        cells = []
        for a in order:
            q = by.get((a, n), {})
            t = q.get("ns_per_f") or q.get("ns_per_sort")
            if not t or t["stopped_because"].startswith("skipped"): cells.append("")
            elif t["mean"] == "": cells.append("—")
            else:
                w = float(t["ci_width_rel"]) / 2 * 100
                mark = "" if t["converged"] == "true" else "*"
                cells.append(f"{fmt(t['mean'], 3)} ±{w:.1f}%{mark}")
        print(f"| {n:,} | " + " | ".join(cells) + " |")
elif mode == "stops":
    # Where each sort under the rule stopped, with the rule's reason (its two sizes and margins).
    for a in order:
        ran = [n for n in ns if (a, n) in by and not by[(a, n)].get("ns_per_sort", {}).get("stopped_because", "").startswith("skipped")]
        sk = [r for r in rows if r["model.algorithm"] == a and r["stopped_because"].startswith("skipped")]
        if not ran: continue
        print(f"| {a} | {max(ran):,} | {len({r['point'] for r in sk})} | {sk[0]['stopped_because'] if sk else 'not stopped'} |")
elif mode == "summary":
    # Sessions, converged, readings: the study's own account of itself.
    points = {}
    for r in rows:
        if r["quantity"] != "ns_per_sort": continue
        points[r["point"]] = r
    ran = [r for r in points.values() if not r["stopped_because"].startswith(("skipped", "not run"))]
    conv = [r for r in ran if r["converged"] == "true"]
    reads = sorted(int(r["readings"]) for r in ran if r["readings"])
    print(f"{len(ran)} sessions ran, {len(conv)} converged; readings per session: median "
          f"{reads[len(reads) // 2] if reads else 0}, 90th percentile "
          f"{reads[int(0.9 * (len(reads) - 1))] if reads else 0}, largest {reads[-1] if reads else 0}")
    for r in ran:
        if r["converged"] != "true":
            print(f"  not converged: {r['model.algorithm']} n = {r['model.n']}: {r['stopped_because']}, "
                  f"{r['mean'] or '-'} [{r['ci_low'] or '-'}, {r['ci_high'] or '-'}], {r['readings']} readings")
