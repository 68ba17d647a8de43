#!/usr/bin/env bash
# Unity builds compile the unit test files a batch at a time (tests/CMakeLists.txt), so each file
# keeps its helpers and tests in `namespace MCPILOT_TEST_FILE`, a name of its own in a batch. An
# anonymous namespace there would share one scope with the other files of its batch, and two
# files' `run_cli` or `outcome` would collide, but only in a fresh (unity) build such as CI's, not
# in a developer's ccache build, which compiles files alone. This says so at once.
# Usage: tests/style/test_file_namespaces.sh   (from the repository root)
set -u
bad=$(grep -ln '^\s*namespace\s*{' tests/unit/*.cpp)
if [ -n "$bad" ]; then
  echo "anonymous namespace in a unit test file; use 'namespace MCPILOT_TEST_FILE {' instead:"
  printf '  %s\n' $bad
  exit 1
fi
echo "unit test files: no anonymous namespaces"
