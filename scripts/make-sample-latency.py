#!/usr/bin/env python3
"""Writes the shipped latency samples: 2000 request latencies in milliseconds, as a service under
steady load would report them after a cold start.

- Readings 0-149 are the warm-up: caches are cold, so requests are slower (about +35% at first,
  settling towards the steady level, but still clearly above it when the warm-up ends).
- From reading 150 on the service is in its steady state: mean about 120 ms.
- Consecutive requests share queue state, so the noise is AR(1) with rho = 0.4 (mild
  autocorrelation: subsession analysis must batch a few readings together).
- Latencies are right-skewed: the noise acts multiplicatively (lognormal-like).

With --candidate it writes a second run of a service 1.5% faster in the steady state (another
seed), for `mcpilot compare`.

Deterministic (fixed seeds, Python standard library only), so the files can be regenerated
exactly:
    python3 scripts/make-sample-latency.py > configs/samples/latency.csv
    python3 scripts/make-sample-latency.py --candidate > configs/samples/latency-candidate.csv
"""
import math
import random
import sys

N = 2000
WARMUP = 150
RHO = 0.4
SIGMA = 0.12  # sd of log-latency in the steady state

candidate = "--candidate" in sys.argv[1:]
steady_ms = 120.0 * (0.985 if candidate else 1.0)
rng = random.Random(20261201 if candidate else 20261130)
innovation_sd = SIGMA * math.sqrt(1 - RHO * RHO)
z = rng.gauss(0, SIGMA)
print("latency_ms")
for i in range(N):
    z = RHO * z + rng.gauss(0, innovation_sd)
    # Cold caches: +35% at the start, decaying to about +20% at the end of the warm-up.
    slowdown = 1 + (0.35 * math.exp(-i / 280.0) if i < WARMUP else 0.0)
    print(f"{steady_ms * slowdown * math.exp(z - SIGMA * SIGMA / 2):.2f}")
