# The known answers of tests/unit/mojette_unavailability_exact_test.cpp's long-run case: the
# steady-state unavailability of RozoFS 4-of-6 under server failures, rebuilds and outages, a lost
# layout replaced at once by a new one (all servers up), written from docs/models/mojette.md's
# rules without the C++. RozoFS recovers from any 4 of its 6 projections, so the chain on the
# counts (failed f, out o) is exact. Solved in rational arithmetic (Gauss-Jordan over Fractions):
#   python3 tests/known/mojette_steady.py
# Not run by CI.
from fractions import Fraction as F

from rational_chain import stationary


def steady(n, k, lam, mu, alpha, beta, serial):
    states = [(f, o) for f in range(n - k + 1) for o in range(n - f + 1)]
    index = {s: i for i, s in enumerate(states)}
    moves = []  # (from, to, rate)

    def add(a, f, o, rate):
        if rate == 0:
            return
        if n - f < k:  # loss: a new layout, all up
            f, o = 0, 0
        moves.append((a, index[(f, o)], rate))

    for a, (f, o) in enumerate(states):
        up = n - f - o
        add(a, f + 1, o, up * lam)  # an up server fails
        add(a, f + 1, o - 1, o * lam)  # an out server fails, which ends its outage
        add(a, f, o + 1, up * alpha)
        add(a, f, o - 1, o * beta)
        if f > 0:
            add(a, f - 1, o, mu if serial else f * mu)
    pi = stationary(len(states), moves)
    unavailable = [n - f - o < k for f, o in states]
    U = sum(p for p, u in zip(pi, unavailable) if u)
    E = sum(pi[a] * r for a, b, r in moves if a != b and not unavailable[a] and unavailable[b])
    return U, E


if __name__ == "__main__":
    # MTTF 1,000 h, rebuilds of 10 h, outages at 0.02 per server-hour of 10 h.
    for serial in (True, False):
        U, E = steady(6, 4, F(1, 1000), F(1, 10), F(1, 50), F(1, 10), serial)
        print("serial" if serial else "parallel", U, float(U), E, float(E), float(E * 8766))
