#!/usr/bin/env bash
# The design-against-placements table of docs/models/placement.md, from the model's own exact
# values (`analytic` and `model_facts` in the run JSON). For every r = t+1 .. v it prints P(loss)
# and the share of the data lost given a loss, E[fraction lost] / P(loss), for each layout, then
# each layout's rebuild figures. Every layout holds the same data (12 TB a device); the copyset
# layout cuts it into fewer, larger groups, which is why the share, not the count, is compared.
#   scripts/placement-table.sh [build/mcpilot] > table.md
set -euo pipefail
exe=${1:-build/mcpilot}
v=15 k=3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

layouts=(
  "sts|design=sts"
  "copyset S=4|design=copyset;group_size=$k;scatter_width=4"
  "random|design=random;group_size=$k;groups=35"
  "clustered|design=clustered;group_size=$k;groups=35"
)

run() {  # run LAYOUT_SETTINGS T R -> JSON file path
  local sets=() item
  IFS=';' read -ra items <<<"$1"
  for item in "${items[@]}"; do sets+=(--set "model.$item"); done
  local out="$tmp/run.json"
  "$exe" run configs/placement/declustered.toml --quiet --threads 1 --json "$out" \
    --set experiment.preset=quick --set experiment.max_replications=1000 \
    "${sets[@]}" --set "model.tolerance=$2" --set "model.failed=$3" >/dev/null 2>&1 || true
  echo "$out"
}

for t in 1 2; do
  echo
  echo "t = $t (v = $v, k = $k): P(loss) and, in brackets, the % of the data lost given a loss"
  echo
  header="| r |" sep="|---|"
  for l in "${layouts[@]}"; do header+=" ${l%%|*} |"; sep+="---|"; done
  echo "$header"
  echo "$sep"
  for r in $(seq $((t + 1)) $v); do
    row="| $r |"
    for l in "${layouts[@]}"; do
      j=$(run "${l#*|}" "$t" "$r")
      row+=$(jq -r '[.quantities[] | {(.name): .analytic}] | add |
        if .loss == 0 then " 0 |" else
        " \(if .loss == 1 then "1" elif .loss > 0.99995 then "> 0.9999" else
             (.loss * 1e4 | round / 1e4 | tostring) end)" +
        " (\(.fraction_lost / .loss * 1000 | round / 10)%) |" end' "$j")
    done
    echo "$row"
  done
done

echo
echo "Rebuild of one device (12 TB, 100 MB/s per participant, t = 2, declustered), exact:"
echo
echo "| layout | b | r | lambda | rebuild hours | max/mean load | declustering gain |"
echo "|---|---|---|---|---|---|---|"
for l in "${layouts[@]}"; do
  j=$(run "${l#*|}" 2 3)
  jq -r --arg n "${l%%|*}" '.model_facts |
    "| \($n) | \(.b) | \(.r) | \(.lambda) | \(.rebuild_hours * 100 | round / 100) | \(.rebuild_max_over_mean_load * 1000 | round / 1000) | \(.declustering_gain * 100 | round / 100) |"' "$j"
done
