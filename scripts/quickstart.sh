#!/usr/bin/env bash
# Installs the dependencies, builds mcpilot in Release mode, and runs the default experiment: a
# RAID-6 group simulated with importance sampling until MTTDL and the 10-year loss probability are
# known to +-5%, printed beside the exact Markov-chain values.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
# Only the executable it runs: the tests and benchmarks are scripts/test.sh's business.
cmake --build build -j "$(nproc)" --target mcpilot
echo
echo "== build/mcpilot run configs/storage/raid6-exponential.toml"
build/mcpilot run configs/storage/raid6-exponential.toml
