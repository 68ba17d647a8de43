#!/usr/bin/env bash
# Peak memory of `mcpilot analyze` (docs/performance.md): AR(1) readings, rho 0.5, one per line
# at full precision, written by perf_analyze_speed; the maximum resident set size of each run
# from GNU time, with and without warm-up removal.
#
#   scripts/analyze-memory.sh [BUILD_DIR]      (default build)
set -euo pipefail
build=${1:-build}
for tool in "$build/mcpilot" "$build/tests/perf_analyze_speed"; do
  [[ -x $tool ]] || { echo "analyze-memory: $tool not built (cmake --build $build --target mcpilot perf_analyze_speed)" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "analyze-memory: needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
peak_kib() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
printf '| readings | analyze (default) | --no-warmup-removal |\n|---|---|---|\n'
for n in 100 100000 1000000; do
  "$build/tests/perf_analyze_speed" --write "$n" "$dir/r.txt"
  with=$(peak_kib "$build/mcpilot" analyze "$dir/r.txt" --json)
  without=$(peak_kib "$build/mcpilot" analyze "$dir/r.txt" --json --no-warmup-removal)
  printf '| %s | %s KiB | %s KiB |\n' "$n" "$with" "$without"
done
