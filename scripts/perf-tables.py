#!/usr/bin/env python3
"""The benchmark tables of the docs, rendered from the benchmarks' own JSON output.

A table in a page sits between two markers that name what it shows and the result files it is
rendered from (paths relative to the repository):

    <!-- perf-table mojette-decode docs/data/perf/mojette_vs_isal.json -->
    | ... |
    <!-- /perf-table -->

    scripts/perf-tables.py check        re-render every table from its files; exit 1 naming each
                                        table that differs from the page (a ctest, docs.perf_tables)
    scripts/perf-tables.py write        re-render them into the pages (after a new measurement)
    scripts/perf-tables.py show KIND FILE...   print one table

The result files are Google Benchmark's `--benchmark_out=FILE --benchmark_out_format=json`; the
commands that produced them are printed beside each table in the pages. Figures are CPU time
(the medians of the repetitions where there are several). Needs only Python 3.
"""
import json, math, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r"^<!-- perf-table (\S+)((?: \S+)+) -->$")
END = "<!-- /perf-table -->"


def load(path):
    with open(os.path.join(ROOT, path)) as f:
        return json.load(f)["benchmarks"]


def medians(runs):
    """name -> the benchmark's entry: the median aggregate when repeated, else the run itself."""
    out = {}
    for b in runs:
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                out[b["run_name"]] = b
        elif b.get("run_name", b["name"]) not in out:
            out[b.get("run_name", b["name"])] = b
    return out


def ns(b):
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    return b["cpu_time"] * scale


def grouped(n):
    return f"{n:,.0f}"


def nanos(t):
    return grouped(t) if t >= 1000 else f"{t:.0f}" if t >= 100 else f"{t:.1f}"


def speed(nbytes, t):
    gbs = nbytes / t  # bytes per ns = GB/s; three significant digits, trailing zeros kept
    return f"{gbs:.{max(0, 2 - int(math.floor(math.log10(gbs))))}f} GB/s ({nanos(t)} ns)"


LAYOUTS = [(2, "2-of-3"), (4, "4-of-6"), (8, "8-of-12")]
BLOCKS = [(4096, "4 KiB"), (1 << 20, "1 MiB")]


def mojette_encode(files):
    m = medians(sum((load(f) for f in files), []))
    rows = ["| k-of-n | block | ISA-L encode | Mojette encode | ratio (Mojette time / ISA-L) "
            "| systematic Mojette encode | ratio |", "|---|---|---|---|---|---|---|"]
    for k, kn in LAYOUTS:
        for nbytes, bn in BLOCKS:
            a = f"{k}/{nbytes}"
            i, mo, s = (ns(m[f"BM_{c}_encode/{a}"]) for c in ("isal", "mojette", "mojette_sys"))
            rows.append(f"| {kn} | {bn} | {speed(nbytes, i)} | {speed(nbytes, mo)} | "
                        f"**{mo / i:.2f}** | {speed(nbytes, s)} | **{s / i:.2f}** |")
    return rows


def mojette_decode(files):
    m = medians(sum((load(f) for f in files), []))
    rows = ["| k-of-n | block | failures | ISA-L decode | Mojette decode | ratio "
            "| systematic Mojette decode | ratio |", "|---|---|---|---|---|---|---|---|"]
    for k, kn in LAYOUTS:
        for nbytes, bn in BLOCKS:
            for f in (1, 2):
                if f > k // 2:
                    continue
                a = f"{k}/{nbytes}/{f}"
                i, mo, s = (ns(m[f"BM_{c}_decode/{a}"]) for c in ("isal", "mojette", "mojette_sys"))
                rows.append(f"| {kn} | {bn} | {f} | {speed(nbytes, i)} | {speed(nbytes, mo)} | "
                            f"**{mo / i:.1f}** | {speed(nbytes, s)} | **{s / i:.2f}** |")
    return rows


def mojette_setup(files):
    m = medians(sum((load(f) for f in files), []))
    rows = ["| k-of-n | block | ISA-L: invert the matrix, build the tables "
            "| Mojette: build the reconstruction plan |", "|---|---|---|---|"]
    for k, kn in LAYOUTS:
        for nbytes, bn in BLOCKS:
            a = f"{k}/{nbytes}"
            i = ns(m[f"BM_isal_decode_setup/{a}"]) / 1e3
            mo = ns(m[f"BM_mojette_decode_setup/{a}"]) / 1e3
            rows.append(f"| {kn} | {bn} | {i:,.2f} µs | {mo:,.1f} µs |")
    return rows


def mojette_ratios(files):
    """The short table of docs/models/mojette.md: each code's time over ISA-L's, 4 KiB blocks."""
    m = medians(sum((load(f) for f in files), []))
    rows = ["| k-of-n (4 KiB) | Mojette encode | decode, 1 failure | decode, 2 failures "
            "| systematic encode | systematic decode, 1 | systematic decode, 2 |",
            "|---|---|---|---|---|---|---|"]
    for k, kn in LAYOUTS:
        a = f"{k}/4096"
        r = lambda c, op, extra="": ns(m[f"BM_{c}_{op}/{a}{extra}"]) / ns(m[f"BM_isal_{op}/{a}{extra}"])
        two = lambda c, d: f"{r(c, 'decode', '/2'):.{d}f}×" if k >= 4 else "–"
        rows.append(f"| {kn} | {r('mojette', 'encode'):.2f}× | {r('mojette', 'decode', '/1'):.1f}× "
                    f"| {two('mojette', 1)} | {r('mojette_sys', 'encode'):.2f}× "
                    f"| {r('mojette_sys', 'decode', '/1'):.2f}× | {two('mojette_sys', 2)} |")
    return rows


def session_overhead(files):
    """Framework cost per replication of the empty model: one fresh process per file."""
    fresh = []
    for f in files:
        for b in load(f):
            if b["name"].startswith("session/us:0/n:1048576/threads:1"):
                fresh.append((b["ns_per_replication"], b["faults_per_1k"],
                              b["user_ns"] + b["system_ns"]))
    ns_ = sorted(x[0] for x in fresh)
    faults = sum(x[1] for x in fresh) / len(fresh)
    cpu = sorted(x[2] for x in fresh)
    span = lambda v: f"{v[0]:.1f}" if len(v) == 1 else f"{v[0]:.1f}–{v[-1]:.1f}"
    return ["| empty model, 2²⁰ replications, 1 thread | wall per replication | CPU (user + "
            "system) per replication | page faults per 1,000 replications |", "|---|---|---|---|",
            f"| one session in a fresh process ({len(fresh)} processes) | {span(ns_)} ns | "
            f"**{span(cpu)} ns** | {faults:.1f} |"]


def analysis_cost(files):
    """analyze() with the mean and with the median, and fit_wps_stable, at n = 10^3 .. 10^6."""
    m = medians(sum((load(f) for f in files), []))
    rows = ["| n | `analyze`, the mean | `analyze`, `--statistic median` | ratio | `fit_wps_stable` |",
            "|---|---|---|---|---|"]
    ms = lambda t: f"{t / 1e6:.3g} ms"
    for e in range(3, 7):
        n = 10 ** e
        mean = ns(m[f"BM_analyze_no_warmup/{n}"])
        median = ns(m[f"BM_analyze_median_no_warmup/{n}"])
        wps = ns(m[f"BM_fit_wps_stable/{n}"])
        rows.append(f"| 10^{e} | {ms(mean)} | {ms(median)} | **{median / mean:.2f}** | {ms(wps)} |")
    return rows


KINDS = {"mojette-encode": mojette_encode, "mojette-decode": mojette_decode,
         "mojette-setup": mojette_setup, "mojette-ratios": mojette_ratios,
         "session-overhead": session_overhead, "analysis-cost": analysis_cost}


def pages():
    for d, _, names in os.walk(os.path.join(ROOT, "docs")):
        for n in sorted(names):
            if n.endswith(".md"):
                yield os.path.join(d, n)
    yield os.path.join(ROOT, "README.md")


def blocks(lines):
    """(start, end, kind, files) of each marked table: lines[start] is the marker, lines[end] END."""
    for i, line in enumerate(lines):
        m = MARK.match(line.rstrip("\n"))
        if not m:
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].rstrip("\n") == END), None)
        if end is None:
            raise SystemExit(f"line {i + 1}: {line.strip()} has no {END}")
        yield i, end, m.group(1), m.group(2).split()


def main(argv):
    if len(argv) >= 3 and argv[1] == "show":
        print("\n".join(KINDS[argv[2]](argv[3:])))
        return 0
    if len(argv) != 2 or argv[1] not in ("check", "write"):
        print(__doc__, file=sys.stderr)
        return 2
    differ, tables = [], 0
    for page in pages():
        with open(page) as f:
            lines = f.readlines()
        out, at = [], 0
        for start, end, kind, files in blocks(lines):
            tables += 1
            if kind not in KINDS:
                raise SystemExit(f"{os.path.relpath(page, ROOT)}:{start + 1}: unknown table {kind}")
            fresh = [r + "\n" for r in KINDS[kind](files)]
            if lines[start + 1:end] != fresh:
                differ.append(f"{os.path.relpath(page, ROOT)}:{start + 1}: {kind} from "
                              f"{' '.join(files)}")
            out += lines[at:start + 1] + fresh
            at = end
        out += lines[at:]
        if argv[1] == "write" and out != lines:
            with open(page, "w") as f:
                f.writelines(out)
    if tables == 0:
        print("no marked tables found: the scan is broken", file=sys.stderr)
        return 1
    if argv[1] == "check" and differ:
        print("tables that are not what their result files give (scripts/perf-tables.py write):",
              *differ, sep="\n  ", file=sys.stderr)
        return 1
    print(f"{tables} tables {'checked' if argv[1] == 'check' else 'written'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
