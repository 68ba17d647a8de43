#!/usr/bin/env bash
# Installs the dependencies, builds mcpilot in Release mode, and runs a first real job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
echo
echo "== mcpilot analyze configs/samples/latency.csv --kind ordinary"
build/mcpilot analyze configs/samples/latency.csv
