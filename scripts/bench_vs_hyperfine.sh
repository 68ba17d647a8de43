#!/usr/bin/env bash
# mcpilot bench against hyperfine, side by side in one run (docs/bench.md, docs/performance.md):
#  1. the overhead per run of `true` (mean wall time, no shell in either);
#  2. a command of 5 ms +- 10%: runs each tool makes and the width each reports;
#  3. a command slow (50 ms) for its first 20 runs, then 5 ms: hyperfine's mean includes the slow
#     runs, mcpilot removes them as warm-up.
# mcpilot uses the normal preset (+-5%) with --max-seconds 30, so that a machine whose load drifts
# (no stable phase) ends the script in bounded time.
# Usage: scripts/bench_vs_hyperfine.sh [BUILD_DIR]   (needs mcpilot, tests/bench_helper, hyperfine)
set -euo pipefail
build=${1:-build}
mcpilot=$build/mcpilot
helper=$(realpath "$build/tests/bench_helper")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export BENCH_HELPER_SEED=1

summary() {  # hyperfine.json mcpilot.json label
  python3 - "$@" <<'PY'
import json, math, sys
h = json.load(open(sys.argv[1]))["results"][0]
m = json.load(open(sys.argv[2]))
wall = next(q for q in m["commands"][0]["quantities"] if q["name"] == "wall_time")
n = len(h["times"])
half = 1.96 * h["stddev"] / math.sqrt(n)
print(f"{sys.argv[3]}:")
print(f"  hyperfine: {n} runs, mean {h['mean']*1e3:.3f} ms, sd {h['stddev']*1e3:.3f} ms, "
      f"95% half-width from its sd {half*1e3:.3f} ms (+-{100*half/h['mean']:.1f}%)")
if wall.get("ci_low") is None:
    print(f"  mcpilot:   {m['commands'][0]['runs']} runs, no interval: {wall['status']} "
          f"(stopped: {m['stopped_because']})")
else:
    print(f"  mcpilot:   {m['commands'][0]['runs']} runs, mean {wall['mean']*1e3:.3f} ms "
          f"[{wall['ci_low']*1e3:.3f}, {wall['ci_high']*1e3:.3f}] "
          f"(+-{50*wall['ci_width_rel']:.1f}%), warm-up removed "
          f"{wall['warmup']['removed_begin']}, stopped: {m['stopped_because']}")
    print(f"  ratio of means mcpilot/hyperfine: {wall['mean']/h['mean']:.3f}")
PY
}

run_pair() {  # label, then the command words
  local label=$1; shift
  BENCH_HELPER_STATE=$work/h.state hyperfine -N --style none --export-json "$work/h.json" \
    "$*" >/dev/null 2>&1
  BENCH_HELPER_STATE=$work/m.state "$mcpilot" bench --quiet --max-seconds 30 ${extra:-} \
    --export-json "$work/m.json" -- "$@" >/dev/null || true
  summary "$work/h.json" "$work/m.json" "$label"
  rm -f "$work"/*.state
}

run_pair "true (overhead per run)" true
# A loaded machine drifts: `true` takes ~2 ms, and change-points in the load can leave no stable
# phase. The overhead itself, with every run taken as stable:
extra=--no-warmup-removal run_pair "true (overhead per run), --no-warmup-removal" true
run_pair "5 ms +- 10%" "$helper" sleepnormal 0.005 0.0005
run_pair "slow (50 ms) for the first 20 runs, then 5 ms" "$helper" slowfirst 20 0.005 0.05

# The overhead again, alternating the tools five times with 300 runs each, so that drift in the
# machine's load falls on both alike (the sequential pairs above can differ by 2x on a loaded VM).
echo "true, 300 runs each, alternating (mcpilot/hyperfine mean wall time):"
for i in 1 2 3 4 5; do
  hyperfine -N --style none --runs 300 --export-json "$work/h.json" true >/dev/null 2>&1
  "$mcpilot" bench --quiet --no-warmup-removal --max-runs 300 --export-json "$work/m.json" \
    -- true >/dev/null || true
  python3 - "$work/h.json" "$work/m.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))["results"][0]["mean"]
m = next(q for q in json.load(open(sys.argv[2]))["commands"][0]["quantities"]
         if q["name"] == "wall_time")["mean"]
print(f"  hyperfine {h*1e3:.3f} ms, mcpilot {m*1e3:.3f} ms, ratio {m/h:.3f}")
PY
done
