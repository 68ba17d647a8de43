#!/usr/bin/env python3
# One sort's rows from several runs of a sorting sweep, as `mcpilot scaling` reads them: the
# independent repeats at each size are the runs (a table of several sorts is refused, since rows
# at one n would mix experiments).
#
#   scripts/sorting-join.py SORT NMIN NMAX OUT.csv TABLE.csv...
#
# Keeps the ns_per_sort rows of SORT with NMIN <= n <= NMAX that have an interval, and only the
# sizes every TABLE has (so each size has one row per run); prints the sizes kept and left out.
# Then: mcpilot scaling OUT.csv --quantity ns_per_sort --n-column model.n --models ...
import csv, sys
sort, nmin, nmax, out = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
files = sys.argv[5:]
per = []
header = None
for f in files:
    rows = {}
    for r in csv.DictReader(open(f)):
        header = header or list(r.keys())
        if r['quantity'] != 'ns_per_sort' or r['model.algorithm'] != sort or not r['mean'] or not r['ci_low']:
            continue
        n = float(r['model.n'])
        if nmin <= n <= nmax:
            rows[n] = r
    per.append(rows)
common = set(per[0])
for rows in per[1:]:
    common &= set(rows)
left = sorted(set().union(*[set(r) for r in per]) - common)
with open(out, 'w', newline='') as fh:
    w = csv.DictWriter(fh, fieldnames=header)
    w.writeheader()
    for rows in per:
        for n in sorted(common):
            w.writerow(rows[n])
print(sort, 'sizes', len(common), 'left out', [int(x) for x in left])
