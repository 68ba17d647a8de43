#!/usr/bin/env bash
# Runs the sort-constant study (configs/sorting/constants.toml) as the sorting peer's protocol asks:
# one pinned core, the quietest this machine has, with the machine's state recorded while it runs.
#
#   scripts/sorting-study.sh OUT [--cpu N] [--seed S] [--isolate] [--mcpilot PATH]
#                            [--config FILE] [-- ARGS...]
#
# OUT/                     created; everything the run writes goes there
#   table.csv, study.json  the sweep's results table and JSON (environment, every point)
#   progress.log           the sweep's progress and the estimate it prints before starting
#   machine.csv            every 10 s: time, the 1-minute load, and the study core's busy and
#                          steal shares since the last sample (steal: time the hypervisor gave the
#                          core to someone else; a shift in it is a shift in the VM's speed)
#                          and the study's involuntary context switches (another thread had its
#                          core: a burst of them is a burst of slow readings)
#   core.txt               how the core was chosen, the binary's SHA-256, the host's state at
#                          the start and the end (below), the run's duration
#
# --cpu N      the core to pin to; without it, the core with the fewest device interrupts over
#              5 s (then the least busy) is taken
# --config F   another sweep of the sorting model (default configs/sorting/constants.toml; e.g.
#              configs/sorting/fresh-keys.toml)
# --isolate    for a shared machine: every other thread is moved off the study's core, again
#              twice a second while the study runs (new processes inherit it from their parents);
#              when the study ends, every thread gets all cores back
# --probe P    perf_code_placement (default build/tests/perf_code_placement, skipped if absent):
#              run for a few seconds on the study's core before and after the study. Its summary
#              line tells the host's state: on this VM a host episode slows every copy of the
#              loop (fastest copy 11-13 us, no fast copy), and then insertion sort's mode and stop
#              are the episode's, not the build's (docs/models/sorting.md, "Code placement")
# ARGS         passed to `mcpilot run` (e.g. --set 'sweep."model.n".geometric=[2, 4096]')
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:?usage: scripts/sorting-study.sh OUT [--cpu N] [--seed S] [--isolate] [-- ARGS...]}
shift
cpu="" seed="" isolate=0 mcpilot=build/mcpilot config=configs/sorting/constants.toml
probe=build/tests/perf_code_placement
while [ $# -gt 0 ]; do
  case "$1" in
    --cpu) cpu=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --isolate) isolate=1; shift ;;
    --mcpilot) mcpilot=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --probe) probe=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "sorting-study: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"

# Busy and steal jiffies of one CPU from /proc/stat: "busy steal total".
cpu_times() {
  awk -v c="cpu$1" '$1 == c { busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, $9, busy + $5 + $6 }' /proc/stat
}

# Involuntary context switches of a process's threads, summed (0 once it has ended). A thread
# that ends between the glob and the read makes cat fail; under pipefail and set -e that ended
# the sampling loop after 40 s of one run (N), so the failure is ignored here.
preemptions() {
  { cat /proc/"$1"/task/*/status 2> /dev/null || true; } \
    | awk '/^nonvoluntary_ctxt_switches/ { n += $2 } END { print n + 0 }'
}

# Device interrupts (numbered lines of /proc/interrupts) of one CPU, summed.
cpu_irqs() {
  awk -v col=$(($1 + 2)) '$1 ~ /^[0-9]+:$/ { n += $col } END { print n + 0 }' /proc/interrupts
}

ncpu=$(nproc --all)
if [ -z "$cpu" ]; then
  # The quietest core: the fewest device interrupts over 5 s (a disk or network interrupt stops
  # the timed code wherever it lands, and other processes can be moved away, interrupts cannot),
  # then the least busy.
  declare -A before irq_before
  for ((c = 0; c < ncpu; c++)); do before[$c]=$(cpu_times $c); irq_before[$c]=$(cpu_irqs $c); done
  sleep 5
  best="" best_key=""
  : > "$out/core.txt"
  for ((c = 0; c < ncpu; c++)); do
    read -r b0 s0 t0 <<< "${before[$c]}"
    read -r b1 s1 t1 <<< "$(cpu_times $c)"
    irqs=$(( $(cpu_irqs $c) - irq_before[$c] ))
    share=$(awk -v b=$((b1 - b0)) -v t=$((t1 - t0)) 'BEGIN { printf "%.4f", (t > 0 ? b / t : 1) }')
    echo "cpu $c: $irqs device interrupts, busy share $share over 5 s" >> "$out/core.txt"
    key=$(awk -v i="$irqs" -v s="$share" 'BEGIN { printf "%012d %.4f", i, s }')
    if [ -z "$best" ] || [[ "$key" < "$best_key" ]]; then best=$c best_key=$key; fi
  done
  cpu=$best
  echo "chosen: cpu $cpu (fewest device interrupts, then least busy)" >> "$out/core.txt"
else
  echo "chosen: cpu $cpu (--cpu)" > "$out/core.txt"
fi
# The binary itself, not only its commit: a rebuild of the same source can move a sort's speed by
# 1.6x (code placement, docs/models/sorting.md), and with it the stop sizes.
echo "binary: $mcpilot sha256 $(sha256sum "$mcpilot" | cut -d' ' -f1)" >> "$out/core.txt"
host_state() {  # when
  if [ -x "$probe" ]; then
    echo "host $1: $(taskset -c "$cpu" "$probe" 256 32 30 | tail -1 | sed 's/^# //')" >> "$out/core.txt"
  else
    echo "host $1: not probed ($probe not built)" >> "$out/core.txt"
  fi
}
host_state "before the study"
others=$(seq 0 $((ncpu - 1)) | grep -vx "$cpu" | paste -sd, -)

args=(run "$config" --set "experiment.cpu=$cpu" --progress
      --table "$out/table.csv" --json "$out/study.json")
[ -n "$seed" ] && args+=(--seed "$seed")
args+=("$@")

start=$(date +%s)
taskset -c "$cpu" "$mcpilot" "${args[@]}" > "$out/table.txt" 2> "$out/progress.log" &
study=$!

# With --isolate, every other thread is moved off the core twice a second, by one process (a
# taskset per process would itself fork hundreds of processes that can land on the core): a
# process started from outside this process tree (a build, a shell) runs there until it is moved,
# and each such visit preempts a timed batch.
if [ "$isolate" -eq 1 ] && [ -n "$others" ]; then
  python3 - "$study" "$others" << 'EOF' &
import os, signal, sys, time
study, others = int(sys.argv[1]), {int(c) for c in sys.argv[2].split(",")}
every = set(range(os.cpu_count()))

def pin_all(cpus):
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == study:
            continue
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                os.sched_setaffinity(int(tid), cpus)
        except OSError:
            pass

# The machine is given its cores back however the loop ends (the study exits, or this process
# is told to stop): a study that ended must not leave every other process on one core.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
signal.signal(signal.SIGHUP, lambda *_: sys.exit(0))
try:
    while os.path.exists(f"/proc/{study}"):
        pin_all(others)
        time.sleep(0.5)
finally:
    pin_all(every)
EOF
fi

# The machine's state every 10 s, and the study's involuntary context switches over each interval
# (each is a moment another thread had the core: a burst of them is a burst of slow readings).
(
  echo "time,load1,busy_share,steal_share,preemptions" > "$out/machine.csv"
  read -r b0 s0 t0 <<< "$(cpu_times "$cpu")"
  v0=$(preemptions "$study")
  last=$(date +%s)
  while kill -0 "$study" 2> /dev/null; do
    sleep 5
    now=$(date +%s)
    if (( now - last >= 10 )); then
      read -r b1 s1 t1 <<< "$(cpu_times "$cpu")"
      v1=$(preemptions "$study")
      awk -v t="$now" -v l="$(cut -d' ' -f1 /proc/loadavg)" -v b=$((b1 - b0)) \
          -v s=$((s1 - s0)) -v d=$((t1 - t0)) -v v=$((v1 - v0)) \
          'BEGIN { printf "%d,%s,%.4f,%.4f,%d\n", t, l, (d > 0 ? b / d : 0), (d > 0 ? s / d : 0), v }' \
          >> "$out/machine.csv"
      b0=$b1 s0=$s1 t0=$t1 v0=$v1 last=$now
    fi
  done
) &
watcher=$!

set +e
wait "$study"
code=$?
set -e
wait "$watcher" 2> /dev/null || true
end=$(date +%s)
host_state "after the study"
echo "sorting-study: exit $code after $(( (end - start) / 60 )) min $(( (end - start) % 60 )) s on cpu $cpu" \
  | tee -a "$out/core.txt"
exit "$code"
