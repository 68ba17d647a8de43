#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build-fuzz/ and runs each for SECONDS
# (default 60) on its seed corpus in tests/fuzz/corpus/. New inputs go to a temporary folder, so
# the corpus in the repository only changes when someone copies a useful input there. A crash,
# a sanitizer report, a timeout or an internal error stops with the input saved as
# build-fuzz/crash-*.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     TARGET: readings_csv, config, cli, checkpoint, bench_csv (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(readings_csv config cli checkpoint bench_csv)

cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang -DMCPILOT_FUZZ=ON \
  -DMCPILOT_BUILD_TESTS=OFF -DMCPILOT_BUILD_BENCHMARKS=OFF
cmake --build build-fuzz -j "$(nproc)" $(printf -- '--target fuzz_%s ' "${targets[@]}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in "${targets[@]}"; do
  mkdir -p "$work/$t"
  echo "== fuzz_$t, ${seconds} s"
  build-fuzz/tests/fuzz/"fuzz_$t" "$work/$t" "tests/fuzz/corpus/$t" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix=build-fuzz/ 2>&1 | grep -E '^(#|stat::|==|SUMMARY|INFO: Seed)' | tail -n 8
done
