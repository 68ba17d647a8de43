#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build-asan/, the build the sanitized unit
# tests use (scripts/asan-build.sh), and runs each for SECONDS (default 60) on its seed corpus in
# tests/fuzz/corpus/, as many at once as there are cores. New inputs go to a temporary folder, so
# the corpus in the repository only changes when someone copies a useful input there. A crash, a
# sanitizer report, a timeout or an internal error fails the script (once the fuzzers under way
# are done) with the input saved as build-asan/crash-*.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     TARGET: readings_csv, config, cli, checkpoint, bench_csv (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(readings_csv config cli checkpoint bench_csv)

scripts/asan-build.sh $(printf -- 'fuzz_%s ' "${targets[@]}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One fuzzer per core at a time: each still runs its SECONDS on a core of its own, and on CI's 2
# cores the four take 2 x SECONDS of wall time instead of 4 x. A failure of any stops the script
# once the ones under way are done, with every fuzzer's summary printed in order.
fuzz_one() {  # target
  local t=$1
  mkdir -p "$work/$t"
  build-asan/tests/fuzz/"fuzz_$t" "$work/$t" "tests/fuzz/corpus/$t" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix=build-asan/ >"$work/$t.log" 2>&1
}
jobs_at_once=$(nproc)
failed=0
pids=()
names=()
report() {  # index
  local t=${names[$1]} rc=0
  wait "${pids[$1]}" || rc=$?
  echo "== fuzz_$t, ${seconds} s"
  grep -E '^(#|stat::|==|SUMMARY|INFO: Seed)' "$work/$t.log" | tail -n 8 || true
  if [ "$rc" -ne 0 ]; then
    echo "fuzz_$t failed (exit $rc); its input is saved as build-asan/crash-* (or leak-*, timeout-*)"
    failed=1
  fi
}
for t in "${targets[@]}"; do
  fuzz_one "$t" &
  pids+=($!)
  names+=("$t")
  if [ $(( ${#pids[@]} % jobs_at_once )) -eq 0 ]; then
    for i in $(seq $(( ${#pids[@]} - jobs_at_once )) $(( ${#pids[@]} - 1 ))); do report "$i"; done
  fi
done
for i in $(seq $(( ${#pids[@]} - ${#pids[@]} % jobs_at_once )) $(( ${#pids[@]} - 1 ))); do
  report "$i"
done
exit "$failed"
