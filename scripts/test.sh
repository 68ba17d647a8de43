#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the default test suite (everything but the
# `validation` label, which holds the full-size statistical studies: run them with
# `ctest --test-dir build -L validation`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
build=${MCPILOT_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -LE validation
