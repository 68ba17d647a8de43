# The known answers of tests/unit/placement_availability_test.cpp: the exact long-run
# unavailability of placement.design's lifetime scenario, written from the rules in
# docs/models/placement.md without the C++ (states enumerated from all up as Python sets, a
# sparse solve of pi Q = 0 in float64). Needs numpy and scipy (1.10 gave the figures):
#   python3 tests/known/placement_availability.py fano|fano2|complete|two-mirrors|ag2
# Not run by CI.
# Semantics: devices fail at lam (also while out), repaired at mu in parallel; an up device starts
# its own outage at a, ends at b; domain j (devices d with d % D == j) with a working device:
# fails at r (all working devices fail at once), starts an outage at ad (holds its working
# devices; truncated at K outages per domain), each outage ends at bd. A failed device leaves all
# outages; a repaired device is up. A group with > t failed is lost and renewed at once: each of
# its devices comes back up, leaving outages. Unavailable: some group with > t failed-or-out.
import sys, itertools
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla

def solve(groups, v, t, lam, mu, a=0, b=1, D=1, r=0, ad=0, bd=1, K=3, exact=False):
    of = [[g for g, G in enumerate(groups) if d in G] for d in range(v)]
    def norm(failed, own, outs):
        outs = tuple(sorted((j, h) for j, h in outs if h))
        return (failed, own, outs)
    def out_set(own, outs):
        s = set(own)
        for _, h in outs: s |= h
        return s
    def renew(failed, own, outs):
        lost = [g for g, G in enumerate(groups) if len(failed & G) > t]
        for g in lost:
            G = groups[g]
            failed = failed - G
            own = own - G
            outs = [(j, h - G) for j, h in outs]
        return norm(failed, own, outs)
    def fail(devs, failed, own, outs):
        failed = failed | devs
        own = own - devs
        outs = [(j, h - devs) for j, h in outs]
        return renew(failed, own, outs)
    def moves(s):
        failed, own, outs = s
        out = out_set(own, outs)
        res = []
        for d in range(v):
            if d not in failed:
                if lam: res.append((fail(frozenset([d]), failed, own, outs), lam))
                if a and d not in out: res.append((norm(failed, own | {d}, outs), a))
            elif mu:
                res.append((norm(failed - {d}, own, outs), mu))
        for d in own:
            res.append((norm(failed, own - {d}, outs), b))
        for i, (j, h) in enumerate(outs):
            res.append((norm(failed, own, outs[:i] + outs[i+1:]), bd))
        for j in range(D):
            working = frozenset(d for d in range(v) if d % D == j and d not in failed)
            if not working: continue
            if r: res.append((fail(working, failed, own, list(outs)), r))
            if ad and sum(1 for jj, _ in outs if jj == j) < K:
                res.append((norm(failed, own, list(outs) + [(j, working)]), ad))
        return res
    start = (frozenset(), frozenset(), ())
    index = {start: 0}; order = [start]; rows=[]; cols=[]; vals=[]
    i = 0
    while i < len(order):
        s = order[i]
        for to, q in moves(s):
            if to == s: continue
            if to not in index:
                index[to] = len(order); order.append(to)
            rows.append(i); cols.append(index[to]); vals.append(q)
        i += 1
    n = len(order)
    if exact:
        return solve_fractions(order, rows, cols, vals, groups, t, out_set)
    Q = sp.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()
    Q = Q - sp.diags(np.asarray(Q.sum(axis=1)).ravel())
    A = Q.T.tolil(); A[0, :] = 1
    rhs = np.zeros(n); rhs[0] = 1
    pi = sla.spsolve(A.tocsc(), rhs)
    def unavailable(s):
        failed, own, outs = s
        down = failed | out_set(own, outs)
        return any(len(down & G) > t for G in groups)
    un = np.array([unavailable(s) for s in order])
    U = pi[un].sum()
    Qc = Q.tocoo()
    entries = sum(pi[i] * q for i, j, q in zip(Qc.row, Qc.col, Qc.data) if i != j and not un[i] and un[j])
    return n, U, entries * 8766

def solve_fractions(order, rows, cols, vals, groups, t, out_set):
    """The same chain in exact rational arithmetic (rational_chain.py; rates must be
    Fractions)."""
    from rational_chain import stationary
    pi = stationary(len(order), list(zip(rows, cols, vals)))
    def unavailable(s):
        failed, own, outs = s
        down = failed | out_set(own, outs)
        return any(len(down & G) > t for G in groups)
    un = [unavailable(s) for s in order]
    U = sum(p for p, u in zip(pi, un) if u)
    E = sum(pi[i] * q for i, j, q in zip(rows, cols, vals) if not un[i] and un[j])
    return len(order), U, E

fano = [frozenset({i % 7, (i + 1) % 7, (i + 3) % 7}) for i in range(7)]
def ag2(q):
    gs = []
    for m in range(q):
        for c in range(q):
            gs.append(frozenset(q * x + (m * x + c) % q for x in range(q)))
    for c in range(q):
        gs.append(frozenset(q * c + y for y in range(q)))
    return gs

if __name__ == "__main__":
    np.set_printoptions(precision=17)
    case = sys.argv[1]
    if case == "fano":
        print(solve(fano, 7, 1, 1e-3, 0.1, a=1e-2, b=1.0))
    if case == "fano2":
        print(solve(fano, 7, 2, 1e-3, 0.1, a=1e-2, b=1.0))
    if case == "complete":
        # All 3-subsets of 4 devices, t = 1, in 2 racks (device d in rack d mod 2), rates as
        # exact fractions: MTTF 1000 h, repairs 10 h, server outages 1/100 per hour of 1 h, rack
        # failures 1/10000 per rack-hour. Prints U and the entries per hour as fractions.
        from fractions import Fraction as F
        groups = [frozenset(c) for c in itertools.combinations(range(4), 3)]
        n, U, E = solve(groups, 4, 1, F(1, 1000), F(1, 10), a=F(1, 100), b=F(1), D=2,
                        r=F(1, 10000), exact=True)
        print(n, U, float(U), E, float(E), float(E * 8766))
    if case == "two-mirrors":
        # storage.group's two mirrors striped over two racks (tests/unit/
        # storage_availability_walk_test.cpp): groups {0, 1} and {2, 3}, rack d mod 2, MTTF
        # 1000 h, repairs 10 h, server outages 1/1000 per hour of 1 h, rack failures 1/10000.
        from fractions import Fraction as F
        groups = [frozenset({0, 1}), frozenset({2, 3})]
        n, U, E = solve(groups, 4, 1, F(1, 1000), F(1, 10), a=F(1, 1000), b=F(1), D=2,
                        r=F(1, 10000), exact=True)
        print(n, U, float(U), E, float(E), float(E * 8766))
    if case == "ag2":
        # racks: outages of mean 1 h at 1e-4 per rack-hour (two at once in one rack: truncated at
        # K, an error of order rho^K = 1e-4^K relative), failures at 1e-5
        # K = 2 has far more states; it does not finish in 10 minutes.
        for K in (1,):
            print(K, solve(ag2(3), 9, 1, 1e-4, 1/24, D=3, r=1e-5, ad=1e-4, bd=1.0, K=K))
