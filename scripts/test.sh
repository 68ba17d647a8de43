#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the default test suite (everything but the
# `validation` label, which holds the full-size statistical studies: run them with
# `ctest --test-dir build -L validation`).
#
#   scripts/test.sh              the default suite in build/ (Release)
#   scripts/test.sh --sanitize   the same suite under ASan + UBSan in build-asan/ (clang; the
#                                fuzz targets share that build), then the runner, session and
#                                `run` tests under TSan in build-tsan/ (gcc; a test binary of
#                                those tests' files alone)
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize=0
for arg in "$@"; do
  case "$arg" in
    --sanitize) sanitize=1 ;;
    *) echo "usage: scripts/test.sh [--sanitize]" >&2; exit 2 ;;
  esac
done

scripts/install-deps.sh
# A shell left pinned to fewer CPUs than the machine has (a long run pinned with `taskset -p` on
# the shell, or on PID 1, instead of on its own command) builds and tests on those only: one
# session here ran everything on 1 of 2 cores without knowing. Say so; it is not an error.
online=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 0)
if [ "$(nproc)" -lt "$online" ]; then
  echo "test.sh: this shell may use $(nproc) of the $online CPUs (taskset -p $$ shows its mask);" \
    "the build and the tests run on those only" >&2
fi
if [ "$sanitize" -eq 0 ]; then
  build=${MCPILOT_BUILD_DIR:-build}
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
  cmake --build "$build" -j "$(nproc)"
  ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -LE validation
  exit 0
fi

# -O1 keeps the sanitized builds and runs quick enough for CI; the benchmarks and the validation
# studies are not built. install.own_model builds a separate project against the installed
# library, a packaging check that sanitizer flags would only get in the way of.
# ASan + UBSan: clang, in the build the fuzz targets share (scripts/asan-build.sh says why).
# TSan: gcc, below.
sanitized_build() {  # folder sanitizers targets...
  local dir=$1 what=$2
  shift 2
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DMCPILOT_SANITIZE="$what" -DMCPILOT_BUILD_BENCHMARKS=OFF ${MCPILOT_EXTRA_CMAKE:-}
  cmake --build "$dir" -j "$(nproc)" --target "$@"
}

# UBSan stops at its first report (-fno-sanitize-recover); ASan's leak check stays on.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
scripts/asan-build.sh mcpilot mcpilot_tests example-pi example-mm1
# The unit tests run in 16 fixed shards of the test binary, $(nproc) shards at a time, not one
# process per test as ctest runs them: an ASan process costs about 0.14 s of CPU to start and end
# (its shadow memory, the leak check), 760 times over. On 2 cores the suite took 262 s of wall
# under ctest (with no timings of an earlier run, as on a fresh clone) and 211 s in shards
# (2026-12-06). The shards are fixed, not one per core, so that every machine runs the same tests
# side by side in one process. The bench tests time real commands and run after the others,
# alone; the tests that are not in the binary (the quickstart's command, the docs' tables, the
# style checks) stay with ctest. mpi.identical runs mpirun, and OpenMPI's own allocations are
# reported as leaks by LeakSanitizer: the MPI paths are covered here through the round executor's
# unit test instead.
gtest_shards() {  # binary shards filter
  local binary=$1 shards=$2 filter=$3 logs
  logs=$(mktemp -d)
  # shellcheck disable=SC2016 # expanded by the inner shell
  if ! seq 0 $((shards - 1)) | xargs -P "$(nproc)" -I{} sh -c 'cd "$(dirname "$0")" &&
      GTEST_TOTAL_SHARDS=$1 GTEST_SHARD_INDEX=$2 timeout 1500 "$0" --gtest_filter="$3" \
        --gtest_brief=1 >"$4/shard-$2.log" 2>&1 || { echo "shard $2 of $1 failed:"; cat "$4/shard-$2.log"; exit 1; }' \
      "$binary" "$shards" {} "$filter" "$logs"; then
    rm -rf "$logs"
    return 1
  fi
  # Every test the filter names must have run: a shard that ran none (a wrong filter, a binary
  # that lists nothing) passes in gtest's eyes.
  local listed ran
  listed=$("$binary" --gtest_filter="$filter" --gtest_list_tests | grep -c '^  ' || true)
  ran=$(cat "$logs"/shard-*.log | sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?\.$/\1/p' |
    awk '{ s += $1 } END { print s + 0 }')
  rm -rf "$logs"
  echo "$binary, '$filter': $ran of $listed tests passed (shards: $shards)"
  [ "$ran" -eq "$listed" ] && [ "$listed" -gt 0 ]
}
gtest_shards "$PWD/build-asan/tests/mcpilot_tests" 16 '-CliBench*'
gtest_shards "$PWD/build-asan/tests/mcpilot_tests" 1 'CliBench*'
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE 'validation|unit' -E '^(install|mpi)\.'

# Threads: the runner (oneTBB) and everything that drives it. TBB's own library is not
# instrumented; its synchronisation is seen through the instrumented headers.
# tests/tsan.supp: Debian's libtbb is not instrumented, so TBB's own task hand-over shows up as
# races; the file says what it hides.
# history_size=7: a suppression matches a report's stacks, and with the default history a worker's
# earlier access is often "failed to restore the stack", which no suppression matches (seen on
# Session.FailureInALaterChunkKeepsEveryEarlierReading, one run in two under ctest -j2).
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=7:suppressions=$PWD/tests/tsan.supp"
# OpenMPI's libraries are not instrumented, and an executable linking them under TSan crashed
# before main (Debian's OpenMPI 4.1); none links them now (only the MPI plug-in, which a run
# outside mpirun never loads), so this build is the one users get. MPI jobs are tested by
# mpi.identical, uninstrumented.
# mcpilot_thread_tests holds those tests' files alone (tests/CMakeLists.txt), so nothing else is
# compiled under TSan.
sanitized_build build-tsan thread mcpilot mcpilot_thread_tests
ctest --test-dir build-tsan --output-on-failure -j "$(nproc)" -R '^thread\.(Session|CliRun|Runner)'
