#!/usr/bin/env bash
# MPI runs give the same numbers as one process (docs/cluster.md): `mpirun -np 1`, 2 and 3 write a
# `quantities` JSON block byte-identical to a plain run's, for replication style (the pi example,
# storage importance sampling) and stream style (M/M/1); and a config error under mpirun is said
# once, with exit 2.
# A replication failing on any rank ends the session as on one process, naming the lowest index;
# a checkpoint written under mpirun (stream states gathered from every rank) is byte-identical to
# one process's.
# The plug-in that MCPILOT_MPI_PLUGIN names is the one loaded (the JSON's environment.mpi_plugin).
# Usage: identical.sh MPIEXEC MCPILOT EXAMPLE_PI EXAMPLE_MM1 MPI_FAILING MPI_PLUGIN
#   (from the source root)
set -uo pipefail
mpiexec=$1 mcpilot=$2 pi=$3 mm1=$4 failing=$5 plugin=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Shared memory only (a container may have no network), no single-copy (CMA is often not
# permitted there), ranks may outnumber cores; root as in CI containers.
export OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
launch=("$mpiexec" --oversubscribe)
[ "$(id -u)" -eq 0 ] && launch+=(--allow-run-as-root)

failures=0
# The JSON's `quantities` block, as written (dump with indent 2): from its key to its closing ].
quantities() { awk '/^  "quantities": \[/{on=1} on{print} on&&/^  \]/{exit}' "$1"; }

check() {  # name, program, config, extra options...
  local name=$1 program=$2 config=$3
  shift 3
  "$program" run "$config" --quiet --json "$work/plain.json" "$@" >/dev/null 2>"$work/plain.err"
  local plain_rc=$?
  quantities "$work/plain.json" >"$work/plain.q"
  if [ ! -s "$work/plain.q" ]; then
    echo "FAIL $name: the plain run (exit $plain_rc) wrote no quantities"
    failures=$((failures + 1))
    return
  fi
  for n in 1 2 3; do
    rm -f "$work/mpi.json"
    "${launch[@]}" -np "$n" "$program" run "$config" --quiet --threads 1 \
      --json "$work/mpi.json" "$@" >"$work/mpi.out" 2>&1
    local rc=$?
    quantities "$work/mpi.json" >"$work/mpi.q" 2>/dev/null
    if [ "$rc" -ne "$plain_rc" ] || ! cmp -s "$work/plain.q" "$work/mpi.q"; then
      echo "FAIL $name: mpirun -np $n (exit $rc; plain $plain_rc) differs from the plain run"
      diff "$work/plain.q" "$work/mpi.q" | head -20
      tail -20 "$work/mpi.out"
      failures=$((failures + 1))
    elif ! grep -q "\"ranks\": $n" "$work/mpi.json"; then
      echo "FAIL $name: mpirun -np $n: the environment does not record $n ranks"
      failures=$((failures + 1))
    elif ! grep -q '"mpi_library": "[^"]' "$work/mpi.json" ||
      ! grep -q '"mpi_plugin": ".*libmcpilot-mpi.so"' "$work/mpi.json"; then
      echo "FAIL $name: mpirun -np $n: the environment does not name the MPI library and plug-in"
      failures=$((failures + 1))
    else
      echo "ok   $name: mpirun -np $n gives the plain run's quantities (exit $rc)"
    fi
  done
}

check pi "$pi" configs/examples/pi.toml
check storage-importance-sampling "$mcpilot" configs/storage/raid6-exponential.toml
# Stream style, cut by a reading budget to stay short (exit 3 on both sides).
check mm1-streams "$mm1" configs/examples/mm1.toml --set experiment.max_replications=200000

# Replications 700 and 900 throw: every run names 700 and keeps the 700 readings before it.
check failing-replication "$failing" tests/mpi/failing.toml
if ! grep -q "replication 700 (seed 7) failed: planted failure" "$work/mpi.out"; then
  echo "FAIL failing-replication: mpirun -np 3 does not name replication 700:"
  cat "$work/mpi.out"
  failures=$((failures + 1))
fi

# Stream states come from every rank into rank 0's checkpoint.
opts=(--quiet --set experiment.max_replications=50000 --checkpoint-every 0)
"$mm1" run configs/examples/mm1.toml "${opts[@]}" --checkpoint "$work/plain.ckpt" >/dev/null
"${launch[@]}" -np 3 "$mm1" run configs/examples/mm1.toml "${opts[@]}" --threads 1 \
  --checkpoint "$work/mpi.ckpt" >/dev/null 2>&1
if cmp -s "$work/plain.ckpt" "$work/mpi.ckpt"; then
  echo "ok   mm1-checkpoint: mpirun -np 3 writes the plain run's checkpoint byte for byte"
else
  echo "FAIL mm1-checkpoint: mpirun -np 3 wrote a different checkpoint"
  failures=$((failures + 1))
fi

# A config error: exit 2 from every rank (mpirun passes it on), said once, by rank 0.
"${launch[@]}" -np 3 "$pi" run configs/examples/pi.toml --set model.darts=-1 >"$work/bad.out" 2>&1
rc=$?
said=$(grep -c "error:" "$work/bad.out")
if [ "$rc" -ne 2 ] || [ "$said" -ne 1 ]; then
  echo "FAIL config error under mpirun: exit $rc (want 2), said $said times (want 1)"
  cat "$work/bad.out"
  failures=$((failures + 1))
else
  echo "ok   config error under mpirun: exit 2, said once: $(grep error: "$work/bad.out")"
fi

# The plug-in named by MCPILOT_MPI_PLUGIN is the one loaded; one that does not load is passed
# over for the next place (an installed plug-in, or the build tree's).
plugin_json() { grep -o '"mpi_plugin": "[^"]*"' "$work/env.json" | cut -d'"' -f4; }
mkdir -p "$work/copy" && cp "$plugin" "$work/copy/"
for named in "$work/copy/$(basename "$plugin")" "$work/no-such-plugin.so"; do
  rm -f "$work/env.json"
  MCPILOT_MPI_PLUGIN=$named "${launch[@]}" -np 2 -x MCPILOT_MPI_PLUGIN "$mcpilot" run \
    configs/storage/raid6-exponential.toml --quiet --threads 1 --json "$work/env.json" >"$work/env.out" 2>&1
  loaded=$(plugin_json)
  if { [ -f "$named" ] && [ "$loaded" = "$named" ]; } ||
    { [ ! -f "$named" ] && [ -f "$loaded" ] && [ "$loaded" != "$named" ]; }; then
    echo "ok   MCPILOT_MPI_PLUGIN=$named: loaded $loaded"
  else
    echo "FAIL MCPILOT_MPI_PLUGIN=$named: loaded '$loaded'"
    cat "$work/env.out"
    failures=$((failures + 1))
  fi
done

exit $((failures > 0))
