#!/usr/bin/env bash
# Installs the mcpilot build into a temporary prefix, then configures, builds and runs
# examples/own_model against it, as a user would. Usage: test_own_model.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log"
test -f "$tmp/prefix/lib/cmake/mcpilot/mcpilotConfig.cmake" || test -f "$tmp/prefix/lib64/cmake/mcpilot/mcpilotConfig.cmake"
test -x "$tmp/prefix/bin/mcpilot"
# MPI runs load their plug-in from the installed library folder; nothing else links MPI. The
# installed program finds it beside itself, wherever the prefix is (not the build tree's).
if [ -f "$build/framework/libmcpilot-mpi.so" ]; then
  ls "$tmp"/prefix/lib*/mcpilot/libmcpilot-mpi.so >/dev/null
  if command -v mpirun >/dev/null; then
    launch=(mpirun --oversubscribe -np 2)
    [ "$(id -u)" -eq 0 ] && launch+=(--allow-run-as-root)
    OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader} \
      OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none} \
      "${launch[@]}" "$tmp/prefix/bin/mcpilot" run "$source/configs/storage/raid6-exponential.toml" \
      --quiet --threads 1 --json "$tmp/mpi.json" >"$tmp/mpi.log" 2>&1 || { cat "$tmp/mpi.log"; exit 1; }
    grep -q "\"mpi_plugin\": \"$tmp/prefix/lib" "$tmp/mpi.json" ||
      { echo "the installed mcpilot did not load the installed MPI plug-in:" >&2; grep mpi_ "$tmp/mpi.json" >&2; exit 1; }
  fi
fi

# Only the installed package: no path into the source or build tree.
cmake -S "$source/examples/own_model" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/configure.log"
cmake --build "$tmp/build" -j2 >"$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }

"$tmp/build/birthday" models | grep -q birthday
if ldd "$tmp/build/birthday" | grep -q libmpi; then
  echo "a user's executable links MPI: only the plug-in should" >&2
  exit 1
fi
"$tmp/build/birthday" run "$source/examples/own_model/birthday.toml" --threads 2 --quiet \
  --json "$tmp/out.json"

# The exact answer 0.507297 must lie in the reported interval (this seed covers it; a seed
# that did not would fail 5% of the time, so the check is of the pipeline, not of coverage).
/usr/bin/env python3 - "$tmp/out.json" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
q = result["quantities"][0]
assert result["stopped_because"] == "converged", result["stopped_because"]
assert q["name"] == "shared" and q["kind"] == "proportion", q
assert q["ci_low"] <= 0.507297 <= q["ci_high"], (q["ci_low"], q["ci_high"])
print("own_model: shared = %.4f [%.4f, %.4f] after %d replications"
      % (q["mean"], q["ci_low"], q["ci_high"], result["replications"]))
PY

# A user's executable speaks in its own name, with the contract's exit code for bad input.
set +e
"$tmp/build/birthday" run "$tmp/no-such-config.toml" 2>"$tmp/err.txt"
status=$?
set -e
test "$status" -eq 2 || { echo "bad config: exit $status, expected 2"; exit 1; }
grep -q '^birthday: error: .*no-such-config.toml' "$tmp/err.txt" || { cat "$tmp/err.txt"; exit 1; }
