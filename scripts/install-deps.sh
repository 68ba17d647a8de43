#!/usr/bin/env bash
# Installs the Debian 12 packages mcpilot builds against, skipping those already present.
# This list is the one place where the project's dependencies are named.
set -euo pipefail

packages=(
  build-essential    # g++ 12, make
  cmake              # >= 3.25
  libboost-dev       # Boost.Math and Boost.Random (header-only parts)
  libtbb-dev         # oneTBB: parallel replications
  libcli11-dev       # command line
  libgtest-dev       # unit tests
  libgmock-dev
  libbenchmark-dev   # Google Benchmark, tests/perf
  libisal-dev        # Intel ISA-L Reed-Solomon: the peer of tests/perf/mojette_vs_isal
  libtomlplusplus-dev  # TOML configs
  nlohmann-json3-dev # JSON results
  librandom123-dev   # Philox counter-based streams
  gnuplot-nox        # plots (--plot, --report's figures); everything else works without it
  chromium           # the report tests' browser: renders each --report page headless (tests/unit)
  clang              # libFuzzer targets (tests/fuzz, MCPILOT_FUZZ=ON) in CI
  clang-format       # the style test (tests/style): every C++ file as .clang-format says
  libclang-rt-14-dev # libFuzzer and the sanitizer runtimes for clang
  libopenmpi-dev     # MPI runs across ranks (MCPILOT_MPI, docs/cluster.md)
  openmpi-bin        # mpirun, for the MPI tests
  hyperfine          # bench's peer: scripts/bench_vs_hyperfine.sh runs both side by side
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  sudo_cmd=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo_cmd=(sudo)
else
  echo "install-deps: not root and no passwordless sudo; run this as root:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q || true
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
