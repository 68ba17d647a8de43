#!/usr/bin/env bash
# Configures build-asan/ and builds the targets named in it: clang, ASan + UBSan at -O1, with
# libFuzzer's edge coverage. One build serves both the sanitized unit tests
# (scripts/test.sh --sanitize) and the fuzz targets (scripts/fuzz.sh), so that CI compiles the
# library under ASan once, not once with gcc for the tests and again with clang for the fuzzers.
#
#   scripts/asan-build.sh TARGET...
#
# The coverage is the edge counters alone (MCPILOT_FUZZ_COVERAGE, cmake/sanitizers.cmake): with
# libFuzzer's full default, which also calls back on every comparison, the unit tests ran 2-3x
# slower, and in 60-s runs the fuzzers reached the same edges without it (README.md, "CI time").
# -DNDEBUG, as the gcc ASan build had: the library has no assert() of its own. -gline-tables-only:
# a sanitizer's report and a fuzzer's crash name file and line.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: scripts/asan-build.sh TARGET..." >&2; exit 2; }
# A build-asan/ of an earlier layout (gcc, no fuzzers) cannot switch compilers in place.
if [ -f build-asan/CMakeCache.txt ] && ! grep -q '^MCPILOT_FUZZ:BOOL=ON$' build-asan/CMakeCache.txt; then
  echo "asan-build.sh: build-asan/ was configured for gcc; starting it afresh with clang" >&2
  rm -rf build-asan
fi
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG -gline-tables-only" \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  -DMCPILOT_SANITIZE=address,undefined -DMCPILOT_FUZZ=ON -DMCPILOT_BUILD_BENCHMARKS=OFF \
  ${MCPILOT_EXTRA_CMAKE:-}
cmake --build build-asan -j "$(nproc)" $(printf -- '--target %s ' "$@")
