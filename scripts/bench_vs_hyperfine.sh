#!/usr/bin/env bash
# mcpilot bench against hyperfine 1.15 (-N), side by side in one run, on the cases of
# docs/bench.md's "Against hyperfine":
#   sleep    `sleep 0.01` at +-1% (--ci-perc 0.02), 5 sessions of each tool
#   true     `true` at +-1%, 5 sessions
#   slow20   a program slow (50 ms) for its first 20 runs, then 10 ms; normal preset; and the
#            steady state measured alone
#   loop     a shell loop of about 5 ms (sh -c), +-1%, 5 sessions
#   overhead --max-runs 2000 -- true against hyperfine --runs 2000 -N true, alternated 5 times:
#            each tool's wall time for the whole session / the sum of its runs' wall times
# For sleep, true and loop a long reference sequence (REF runs, default 20000, --export-csv,
# every run kept) gives the coefficient of variation, the integrated autocorrelation time tau
# (Sokal's self-consistent window, computed below in Python) and the runs an ideal batch-means
# rule needs for +-1% at 95%: n* = tau (1.96 CV / 0.01)^2. Each reference is then replayed
# through bench's own stop rule (BUILD_DIR/tests/perf_bench_replay, where the benchmarks are
# built): consecutive sessions cut from it, at --min-seconds 0, 1, 3 and 10, and hyperfine's
# default stop on the same runs, with how often a converged interval holds the reference's mean
# and how often consecutive ones overlap.
# Usage: scripts/bench_vs_hyperfine.sh [BUILD_DIR] [CASES...]   (default: all cases)
#   REF=N (reference runs; 0 skips them), SESSIONS=N (default 5), MAXSEC=N (mcpilot's
#   --max-seconds, 60), STATISTIC=median (mcpilot's --statistic; hyperfine's own median beside it,
#   which comes without an interval), KEEP=DIR (keeps every mcpilot session's JSON and its runs'
#   CSV there, as session-1.json, session-1.csv, ..., so that a session can be replayed with
#   `mcpilot analyze`)
# Prints a Markdown table per case, then a line of issue 35's targets for it (converged sessions,
# median time, intervals overlapping pairwise, sides, run counts; the slow start's warm-up and
# mean against the steady state; the overhead rounds), and after each reference the sessions'
# runs against 1.5 max(n*, min_samples q); every figure comes from this run.
set -euo pipefail
build=${1:-build}
shift || true
cases=${*:-"sleep true slow20 loop overhead"}
mcpilot=$(realpath "$build/mcpilot")
helper=$(realpath "$build/tests/bench_helper")
ref=${REF:-20000}
sessions=${SESSIONS:-5}
maxsec=${MAXSEC:-60}
statistic=${STATISTIC:-mean}
keep=${KEEP:-}
[ -z "$keep" ] || mkdir -p "$keep"
kept=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export BENCH_HELPER_SEED=1
loop_cmd='i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done'

py_mcpilot() {  # mcpilot.json: runs, seconds, mean, interval, stop
  python3 - "$1" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
c = m["commands"][0]
w = next(q for q in c["quantities"] if q["name"] == "wall_time")
from datetime import datetime
t = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))
env = m["environment"]
secs = (t(env["end"]) - t(env["start"])).total_seconds() if "end" in env and "start" in env else float("nan")
if w.get("ci_low") is None:
    print(f"| mcpilot | {c['runs']} | {secs:.1f} | {w.get('mean') or float('nan'):.6g} | no interval ({w['status']}) | {m['stopped_because']} |")
else:
    lo, hi, mu = w["ci_low"], w["ci_high"], w["mean"]
    label = "median " if w.get("statistic") == "median" else ""
    print(f"| mcpilot | {c['runs']} | {secs:.1f} | {label}{mu*1e3:.4g} ms | [{lo*1e3:.4g}, {hi*1e3:.4g}] "
          f"(-{100*(mu-lo)/mu:.2f}%, +{100*(hi-mu)/mu:.2f}%), warm-up {w['warmup']['removed_begin']} | {m['stopped_because']} |")
PY
}

py_hyperfine() {  # hyperfine.json seconds
  python3 - "$1" "$2" "$statistic" <<'PY'
import json, math, sys
h = json.load(open(sys.argv[1]))["results"][0]
n = len(h["times"]); half = 1.96 * h["stddev"] / math.sqrt(n)
if sys.argv[3] == "median":
    print(f"| hyperfine | {n} | {float(sys.argv[2]):.1f} | median {h['median']*1e3:.4g} ms | "
          f"none (hyperfine gives no interval for the median) | default stop |")
else:
    print(f"| hyperfine | {n} | {float(sys.argv[2]):.1f} | {h['mean']*1e3:.4g} ms | "
          f"+-{100*half/h['mean']:.2f}% (1.96 sd/sqrt(n), independence assumed) | default stop |")
PY
}

reference() {  # label, then the command: CV, tau, n* from REF runs
  local label=$1; shift
  [ "$ref" -gt 0 ] || return 0
  "$mcpilot" bench --quiet --no-warmup-removal --ci-perc 0.0001 --max-runs "$ref" --max-seconds 1200 \
    --export-csv "$work/ref.csv" "$@" >/dev/null || true
  python3 - "$work/ref.csv" "$label" <<'PY'
import csv, math, sys
x = [float(r["value"]) for r in csv.DictReader(open(sys.argv[1])) if r["quantity"] == "wall_time"]
n = len(x); m = sum(x) / n
d = [v - m for v in x]; c0 = sum(v * v for v in d) / n
cv = math.sqrt(c0) / m
# Sokal: tau = 1 + 2 sum_{k<=W} rho_k with the smallest W >= 5 tau.
tau, k = 1.0, 1
while k < n // 2:
    rho = sum(d[i] * d[i + k] for i in range(n - k)) / (n * c0)
    tau += 2 * rho
    if k >= 5 * tau: break
    k += 1
nstar = tau * (1.96 * cv / 0.01) ** 2
print(f"reference {sys.argv[2]}: {n} runs, mean {m*1e3:.4g} ms, CV {cv:.3f}, tau {tau:.2f} "
      f"(window {k}), n* = {nstar:.0f}")
open(sys.argv[1] + ".nstar", "w").write(f"{nstar}\n")
PY
  runs_vs_nstar "$(cat "$work/ref.csv.nstar")"
  if [ -x "$build/tests/perf_bench_replay" ]; then
    echo
    "$build/tests/perf_bench_replay" "$work/ref.csv" 0.02 "$maxsec"
  fi
}

session_pair() {  # mcpilot options..., --, command words
  local opts=() cmd=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift; cmd=("$@")
  local t0 t1
  t0=$(date +%s.%N)
  hyperfine -N --style none --export-json "$work/h.json" "${cmd[*]}" >/dev/null 2>&1 || true
  t1=$(date +%s.%N)
  py_hyperfine "$work/h.json" "$(echo "$t1 - $t0" | bc)"
  rm -f "$work"/*.state
  "$mcpilot" bench --quiet --max-seconds "$maxsec" --statistic "$statistic" "${opts[@]}" \
    --export-json "$work/m.json" --export-csv "$work/m.csv" \
    -- "${cmd[@]}" >/dev/null || true
  py_mcpilot "$work/m.json"
  cased=$((cased + 1))
  cp "$work/m.json" "$work/case/$cased.json"
  if [ -n "$keep" ]; then
    kept=$((kept + 1))
    cp "$work/m.json" "$keep/session-$kept.json"
    cp "$work/m.csv" "$keep/session-$kept.csv"
    echo "(mcpilot's session kept as $keep/session-$kept.json and .csv)" >&2
  fi
  rm -f "$work"/*.state
}

# Issue 35's targets for the case's sessions so far ($work/case/N.json, in order).
targets() {  # sessions | slow20
  python3 - "$work/case" "$1" <<'PY'
import json, os, statistics, sys
from datetime import datetime
d, kind = sys.argv[1], sys.argv[2]
files = sorted((f for f in os.listdir(d) if f.endswith(".json")), key=lambda f: int(f[:-5]))
t = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))
rows = []
for f in files:
    m = json.load(open(os.path.join(d, f)))
    w = next(q for q in m["commands"][0]["quantities"] if q["name"] == "wall_time")
    env = m["environment"]
    rows.append(dict(ok=m["stopped_because"] == "converged", runs=m["commands"][0]["runs"],
                     s=(t(env["end"]) - t(env["start"])).total_seconds(), mean=w.get("mean"),
                     lo=w.get("ci_low"), hi=w.get("ci_high"), warm=w["warmup"]["removed_begin"],
                     lead=w["warmup"].get("leading_warmup", 0)))
if kind == "slow20":
    a, b = rows[0], rows[1]
    dev = 100 * (a["mean"] / b["mean"] - 1)
    # A later step of the machine's level removes an earlier level too; the warm-up is then the
    # part of it the engine tells apart (warmup.leading_warmup), and both counts are printed.
    before = f" (of {a['warm']} before the stable phase)" if a["lead"] else ""
    print(f"targets: warm-up {a['lead'] or a['warm']} runs removed (20-35){before}, {'converged' if a['ok'] else 'not converged'} "
          f"in {a['s']:.1f} s (<= 20), mean {dev:+.1f}% from the steady state alone (+-5%)")
    sys.exit()
ok = [r for r in rows if r["ok"]]
iv = [r for r in rows if r["lo"] is not None]
pairs = [(i, j) for i in range(len(iv)) for j in range(i + 1, len(iv))]
over = sum(iv[i]["lo"] <= iv[j]["hi"] and iv[j]["lo"] <= iv[i]["hi"] for i, j in pairs)
sides = [max(r["hi"] - r["mean"], r["mean"] - r["lo"]) / max(1e-300, min(r["hi"] - r["mean"], r["mean"] - r["lo"])) for r in ok]
runs = [r["runs"] for r in rows]
print(f"targets: {len(ok)} of {len(rows)} converged, median {statistics.median(r['s'] for r in rows):.1f} s, "
      f"{over} of {len(pairs)} pairs of intervals overlap, converged sides at most "
      f"{max(sides) if sides else float('nan'):.3f}x apart, runs {min(runs)}-{max(runs)} ({max(runs) / min(runs):.1f}x)")
PY
}

# Each session's runs against issue 35's bound, read as 1.5 max(n*, min_samples q): n* from the
# reference, q the subsession size the session chose. Below min_samples subsessions of q no
# interval may stop (docs/validation.md, "The minimum of subsessions against n*").
runs_vs_nstar() {  # n*
  python3 - "$work/case" "$1" <<'PY'
import json, os, sys
d, nstar = sys.argv[1], float(sys.argv[2])
files = sorted((f for f in os.listdir(d) if f.endswith(".json")), key=lambda f: int(f[:-5]))
cells, within = [], 0
for f in files:
    m = json.load(open(os.path.join(d, f)))
    w = next(q for q in m["commands"][0]["quantities"] if q["name"] == "wall_time")
    q = w.get("subsession_size") or 1
    bound = 1.5 * max(nstar, m["precision"]["min_samples"] * q)
    runs = m["commands"][0]["runs"]
    within += runs <= bound
    cells.append(f"{runs} (q {q}, bound {bound:.0f})")
print(f"runs against 1.5 max(n*, min_samples q): {within} of {len(files)} within; " + ", ".join(cells))
PY
}

header() {
  rm -rf "$work/case"; mkdir -p "$work/case"; cased=0
  echo; echo "### $1"; echo
  echo "| tool | runs | s | estimate | interval | stop |"; echo "|---|---|---|---|---|---|"
}

for c in $cases; do
  case $c in
    sleep)
      header "sleep 0.01, +-1%"
      for i in $(seq "$sessions"); do session_pair --ci-perc 0.02 -- sleep 0.01; done
      targets sessions
      reference "sleep 0.01" -- sleep 0.01 ;;
    true)
      header "true, +-1%"
      for i in $(seq "$sessions"); do session_pair --ci-perc 0.02 -- true; done
      targets sessions
      reference "true" -- true ;;
    loop)
      header "shell loop (~5 ms), +-1%"
      # One command line (quoted for both tools' word splitting), not three words.
      for i in $(seq "$sessions"); do session_pair --ci-perc 0.02 -- "sh -c '$loop_cmd'"; done
      targets sessions
      reference "shell loop" -- "sh -c '$loop_cmd'" ;;
    slow20)
      header "50 ms for the first 20 runs, then 10 ms (normal preset)"
      export BENCH_HELPER_STATE=$work/s.state
      session_pair -- "$helper" slowfirst 20 0.01 0.05
      # The steady state alone runs the same helper with no slow runs and its state file too:
      # the file's read and write each run cost about 0.7 ms here, which `sleep 0.01` alone
      # would leave out (it read 6% faster).
      echo; echo "steady state alone:"; session_pair -- "$helper" slowfirst 0 0.01 0.05
      targets slow20
      unset BENCH_HELPER_STATE ;;
    overhead)
      echo; echo "### overhead: session wall / sum of runs' wall, 2000 runs of true"; echo
      echo "| round | hyperfine | mcpilot |"; echo "|---|---|---|"
      : > "$work/overhead.txt"
      for i in 1 2 3 4 5; do
        t0=$(date +%s.%N)
        hyperfine -N --style none --runs 2000 --export-json "$work/h.json" true >/dev/null 2>&1
        t1=$(date +%s.%N)
        t2=$(date +%s.%N)
        # A width no session reaches, so that mcpilot runs its 2,000 as hyperfine does: a session
        # that converged after 100 runs would divide its fixed start and end by 100 runs' time.
        "$mcpilot" bench --quiet --no-warmup-removal --ci-perc 0.0001 --max-runs 2000 \
          --export-csv "$work/m.csv" -- true >/dev/null || true
        t3=$(date +%s.%N)
        python3 - "$work/h.json" "$work/m.csv" "$t0" "$t1" "$t2" "$t3" "$i" <<'PY'
import csv, json, sys
h = sum(json.load(open(sys.argv[1]))["results"][0]["times"])
m = sum(float(r["value"]) for r in csv.DictReader(open(sys.argv[2])) if r["quantity"] == "wall_time")
t0, t1, t2, t3 = map(float, sys.argv[3:7])
print(f"| {sys.argv[7]} | {(t1-t0)/h:.3f} | {(t3-t2)/m:.3f} |")
PY
      done | tee "$work/overhead.txt"
      python3 - "$work/overhead.txt" <<'PY'
import sys
r = [tuple(float(v) for v in l.split("|")[2:4]) for l in open(sys.argv[1])]
print(f"targets: mcpilot {min(m for _, m in r):.3f}-{max(m for _, m in r):.3f} (<= 1.05), at or below "
      f"hyperfine's in {sum(m <= h for h, m in r)} of {len(r)} rounds (to the third decimal)")
PY
      ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
done
