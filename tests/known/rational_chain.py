# The stationary law of a small continuous-time Markov chain in exact rational arithmetic, for
# the known answers beside it (placement_availability.py, mojette_steady.py): pi Q = 0 with
# sum pi = 1 by Gauss-Jordan elimination over Fractions. O(n^3) rational operations.
from fractions import Fraction


def stationary(n, moves):
    """moves: (from, to, rate) with Fraction rates; self-moves are ignored."""
    Q = [[Fraction(0)] * n for _ in range(n)]
    for a, b, r in moves:
        if a != b:
            Q[a][b] += r
    for i in range(n):
        Q[i][i] = -sum(Q[i][j] for j in range(n) if j != i)
    # Q transposed, with the first equation replaced by sum pi = 1.
    A = [[Q[j][i] for j in range(n)] + [Fraction(0)] for i in range(n)]
    A[0] = [Fraction(1)] * n + [Fraction(1)]
    for c in range(n):
        p = next(r for r in range(c, n) if A[r][c] != 0)
        A[c], A[p] = A[p], A[c]
        inv = 1 / A[c][c]
        A[c] = [x * inv for x in A[c]]
        for r in range(n):
            if r != c and A[r][c] != 0:
                g = A[r][c]
                A[r] = [x - g * y for x, y in zip(A[r], A[c])]
    return [A[i][n] for i in range(n)]
