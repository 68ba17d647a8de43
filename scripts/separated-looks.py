#!/usr/bin/env python3
"""How often repeated looks resolve two commands that do not differ (docs/bench.md).

`mcpilot bench --until separated` judges every pair at the end of each round, and an unresolved
pair gets rounds of up to four times its runs so far: looks after n, 5n, 25n, ... runs. This
simulates that schedule on the difference of two equal commands (normal readings, a two-sided z
test at each look; the sum of the differences is a random walk) and prints the share of runs in
which some look rejects. It models the looks only; it does not run bench.

    scripts/separated-looks.py [REPETITIONS]      (default 100000; seeded, so reproducible)
"""
import math
import random
import sys


def false_resolved(looks, z, repetitions, rng):
    hits = 0
    for _ in range(repetitions):
        total, before = 0.0, 0
        for n in looks:
            total += rng.gauss(0.0, math.sqrt(n - before))
            before = n
            if abs(total / math.sqrt(n)) > z:
                hits += 1
                break
    return hits / repetitions


def main():
    repetitions = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    rng = random.Random(2)
    print("| looks (runs each) | at 95% | at 90% |")
    print("|---|---|---|")
    for looks in ([10], [10, 50, 250, 1250], [10, 50, 250, 1250, 6250, 31250]):
        at95 = false_resolved(looks, 1.959964, repetitions, rng)
        at90 = false_resolved(looks, 1.644854, repetitions, rng)
        print(f"| {', '.join(map(str, looks))} | {100 * at95:.1f}% | {100 * at90:.1f}% |")


if __name__ == "__main__":
    main()
