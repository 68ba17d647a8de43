#!/usr/bin/env bash
# MPI runs give the same numbers as one process (docs/cluster.md): `mpirun -np 1`, 2 and 3 write a
# `quantities` JSON block byte-identical to a plain run's, for replication style (the pi example,
# storage importance sampling) and stream style (M/M/1); and a config error under mpirun is said
# once, with exit 2.
# Usage: identical.sh MPIEXEC MCPILOT EXAMPLE_PI EXAMPLE_MM1   (run from the source root)
set -uo pipefail
mpiexec=$1 mcpilot=$2 pi=$3 mm1=$4
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
  "$program" run "$config" --quiet --json "$work/plain.json" "$@" >/dev/null
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
    else
      echo "ok   $name: mpirun -np $n gives the plain run's quantities (exit $rc)"
    fi
  done
}

check pi "$pi" configs/examples/pi.toml
check storage-importance-sampling "$mcpilot" configs/storage/raid6-exponential.toml
# Stream style, cut by a reading budget to stay short (exit 3 on both sides).
check mm1-streams "$mm1" configs/examples/mm1.toml --set experiment.max_replications=200000

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

exit $((failures > 0))
