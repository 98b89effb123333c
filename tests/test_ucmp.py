"""UCMP groups, backups, relaxation and flow-size buckets (UCMP §4-6, App. A/B) against
exhaustive search (:func:`controller.routing.exhaustive.all_paths`) and the paper's
formulas, recomputed independently here in exact Fraction arithmetic."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from controller.errors import UroError
from controller.routing import direct, envelope, ucmp, uro
from controller.routing.exhaustive import all_paths, best_labels
from controller.routing.paths import BACKUP, REGULAR, RELAXED
from controller.schedule import Schedule, opera, random_matchings
from strategies import pairs, small_schedules


#: uro's earlier group formation: every tied walk, every level Properties 1-3 admit (the
#: exhaustive checks below compare against all of them; the default policy has its own tests)
ALL = {"ties": "all", "levels": "all"}


# ---- strategies and ground truth ----------------------------------------------------------
def schedules(min_tors: int = 4, max_tors: int = 8):
    """Small schedules from the project's generators (4-8 ToRs, 1-3 uplinks), with idle
    extra slices and stacked cycles (ToR pairs meeting twice, so tied paths appear)."""
    return small_schedules(max_tors=max_tors, min_tors=min_tors, max_extra=2)


def latency(path, t):
    """UCMP Eq. 1 in slices: last hop's slice - start slice + 1."""
    return path[-1][2] - t + 1


def expected_group(sched, src, dst, t, h_max, H):
    """{n: (latency, paths)}: per hop count the minimum-latency n-hop paths, kept only when
    strictly faster than every path with fewer hops (Properties 1-3, §4.3)."""
    by_n: dict[int, list] = {}
    for p in all_paths(sched, src, dst, t, h_max, H):
        by_n.setdefault(len(p), []).append(p)
    out, best = {}, None
    for n in sorted(by_n):
        m = min(latency(p, t) for p in by_n[n])
        if best is None or m < best:
            out[n] = (m, {p for p in by_n[n] if latency(p, t) == m})
            best = m
    return out, by_n


def regular_group(routes, src, dst, t):
    """{hops: (member latency, set of paths)} of the REGULAR members of one group."""
    out = {}
    for m in routes.members(src, dst, t):
        if routes.m_kind[m] != REGULAR:
            continue
        n = int(routes.m_hops[m])
        assert n not in out, "one member per hop count (ties share a member)"
        paths = [tuple(map(tuple, p)) for p in routes.member_paths(m)]
        assert len(set(paths)) == len(paths), "tied paths are distinct"
        out[n] = (int(routes.m_latency[m]), set(paths))
    return out


def members_of(routes, src, dst, t, kind):
    return [m for m in routes.members(src, dst, t) if routes.m_kind[m] == kind]


# ---- groups: Properties 1-3 against exhaustive search --------------------------------------
@given(schedules(), st.integers(1, 4), st.integers(1, 3))
@settings(max_examples=40, deadline=None)
def test_groups_are_exactly_the_property_1_to_3_paths(sched, h_max, H):
    r = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=h_max, hops_per_slice=H, max_parallel=100_000, backups=0))
    assert r.notes["levels_capped"] == 0
    S = sched.n_slices
    for t, src, dst in pairs(sched):
        got = regular_group(r, src, dst, t)
        want, by_n = expected_group(sched, src, dst, t, h_max, H)
        assert got == want, (t, src, dst)
        # the properties themselves, on what was computed
        hops = sorted(got)
        lats = [got[n][0] for n in hops]
        assert all(a > b for a, b in zip(lats, lats[1:])), "Property 3: more hops, strictly faster"
        for n, (lat, paths) in got.items():
            assert {latency(p, t) for p in paths} == {lat}, "Property 2: ties have equal latency"
            assert all(len(p) == n for p in paths)
            others = [p for p in by_n[n] if p not in paths]
            assert all(latency(p, t) > lat for p in others), "Property 1"
            for p in paths:  # hop slices are absolute and inside the cycle window
                assert all(t <= s < t + S for _, _, s in p)
                assert [s for _, _, s in p] == sorted(s for _, _, s in p)


@given(schedules(), st.integers(2, 4), st.integers(1, 3), st.integers(1, 2))
@settings(max_examples=30, deadline=None)
def test_tie_cap_keeps_max_parallel_paths_and_reports_capped_levels(sched, h_max, H, cap):
    r = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=h_max, hops_per_slice=H, max_parallel=cap, backups=0))
    capped = 0
    for t, src, dst in pairs(sched):
        got = regular_group(r, src, dst, t)
        want, _ = expected_group(sched, src, dst, t, h_max, H)
        assert {n: lat for n, (lat, _) in got.items()} == {n: lat for n, (lat, _) in want.items()}
        for n, (lat, paths) in got.items():
            full = want[n][1]
            assert paths <= full
            assert len(paths) == min(cap, len(full))
            capped += len(full) > cap
    assert r.notes["levels_capped"] == capped


def test_tie_cap_binds_on_a_schedule_with_ties():
    """A fixed example where ties exist, so the cap really drops paths."""
    sched = Schedule(np.concatenate([random_matchings(6, 2, seed=1).peer, random_matchings(6, 2, seed=2).peer]))
    full = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=4, hops_per_slice=2, max_parallel=1000))
    one = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=4, hops_per_slice=2, max_parallel=1))
    assert full.notes["levels_capped"] == 0
    sizes = np.asarray(full.m_count)[full.m_kind == REGULAR]
    assert (sizes > 1).sum() == one.notes["levels_capped"] > 0
    assert (np.asarray(one.m_count)[one.m_kind == REGULAR] == 1).all()


@given(schedules(), st.sampled_from([None, 2, 3, 4]), st.sampled_from([1, 2, 3, None]))
@settings(max_examples=40, deadline=None)
def test_direct_member_and_fastest_member(sched, h_max, H):
    """The 1-hop member is the direct path; the fastest member is the constrained optimum
    (earliest delivery, fewest hops among the earliest) and never slower than URO."""
    r = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=h_max, hops_per_slice=H, max_parallel=4, backups=0))
    Hu = H or sched.timing.hops_per_slice
    u = uro.compute(sched, uro.UroParams(k=1, max_hops=h_max, hops_per_slice=Hu))
    dr = direct.compute(sched)
    for t in range(sched.n_slices):
        for src in range(sched.n_tors):
            ex = best_labels(sched, src, t, h_max, Hu)
            for dst in range(sched.n_tors):
                if dst == src:
                    continue
                got = regular_group(r, src, dst, t)
                (dm,) = dr.members(src, dst, t)
                assert got[1] == (int(dr.m_latency[dm]), {tuple(map(tuple, p)) for p in dr.member_paths(dm)})
                n_fast = max(got)
                lat_fast = got[n_fast][0]
                assert lat_fast == min(lat for lat, _ in got.values())
                assert (t + lat_fast - 1, n_fast) == ex[dst]
                # URO's per-hop tables can only be slower when a bound binds (uro.py docstring)
                assert int(u.arrival[t, src, dst]) - t + 1 >= lat_fast


@given(schedules())
@settings(max_examples=30, deadline=None)
def test_fastest_member_equals_uro_fastest_path(sched):
    """With bounds that cannot bind (in-slice budget N-1, exact h_max), URO's fastest path
    and UCMP's fastest member agree on latency and hop count for every (t, src, dst)."""
    N = sched.n_tors
    r = ucmp.compute(sched, ucmp.UcmpParams(**ALL, hops_per_slice=N - 1, max_parallel=2, backups=0))
    u = uro.compute(sched, uro.UroParams(k=1, hops_per_slice=N - 1))
    u_free = uro.compute(sched, uro.UroParams(k=1))
    assert np.array_equal(u.arrival, u_free.arrival) and np.array_equal(u.hops, u_free.hops)
    for t, src, dst in pairs(sched):
        mem = members_of(r, src, dst, t, REGULAR)
        fast = min(mem, key=lambda m: r.m_latency[m])
        assert int(r.m_latency[fast]) == int(u.arrival[t, src, dst]) - t + 1
        assert int(r.m_hops[fast]) == int(u.hops[t, src, dst])


@given(schedules(max_tors=7), st.integers(1, 3))
@settings(max_examples=20, deadline=None)
def test_destination_chunks_do_not_change_the_result(sched, H):
    a = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=3, hops_per_slice=H, relax_slices=1), chunk=128)
    b = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=3, hops_per_slice=H, relax_slices=1), chunk=3)
    for name in ("g_first", "g_count", "m_kind", "m_hops", "m_latency", "m_count", "p_hops", "hop_node",
                 "hop_uplink", "hop_slice"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.buckets.boundaries == b.buckets.boundaries


# ---- buckets (§5.1-5.2, §6.1, Eq. 2-4) -------------------------------------------------------
def cost(L, n, x):
    """Uniform cost (Eq. 2) in slices: latency + hops * alpha * size / (B u)."""
    return L + n * x


def argmin_member(members, x):
    """Member (hops, latency) of minimum uniform cost at x; a tie goes to fewer hops."""
    return min(members, key=lambda hl: (cost(hl[1], hl[0], x), hl[0]))


def bucket_points(boundaries):
    """One x strictly inside every bucket: [0, b1), [b1, b2), ..., [bK, inf)."""
    edges = [Fraction(0)] + list(boundaries)
    return [(a + b) / 2 for a, b in zip(edges, edges[1:])] + [edges[-1] + 1]


def envelope_breaks(members):
    """Break points of the lower envelope of L + n x over x >= 0, by brute force over all
    pairwise crossings: [(x, member left of x, member right of x)]."""
    xs = sorted({Fraction(l1 - l2, n2 - n1) for n1, l1 in members for n2, l2 in members if n2 > n1})
    xs = [x for x in xs if x > 0]
    probes = bucket_points(xs)
    out = []
    for i, x in enumerate(xs):
        left, right = argmin_member(members, probes[i]), argmin_member(members, probes[i + 1])
        if left != right:
            out.append((x, left, right))
    return out


@given(schedules(), st.integers(2, 4), st.integers(1, 3))
@settings(max_examples=40, deadline=None)
def test_buckets_map_to_the_uniform_cost_argmin(sched, h_max, H):
    r = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=h_max, hops_per_slice=H, backups=1))
    b = r.buckets
    bounds = list(b.boundaries)
    assert all(isinstance(x, Fraction) for x in bounds)
    assert bounds == sorted(set(bounds)) and all(x > 0 for x in bounds)
    assert b.count == len(bounds) + 1 <= ucmp.MAX_BUCKETS
    # only regular members serve buckets
    assert (b.m_lo[r.m_kind != REGULAR] == -1).all() and (b.m_hi[r.m_kind != REGULAR] == -1).all()
    probes = bucket_points(bounds)
    union = set()
    for t, src, dst in pairs(sched):
        mem = members_of(r, src, dst, t, REGULAR)
        hl = {m: (int(r.m_hops[m]), int(r.m_latency[m])) for m in mem}
        # every bucket index is served by exactly one member (one path or one tie group)
        owner = {}
        for m in mem:
            lo, hi = int(b.m_lo[m]), int(b.m_hi[m])
            assert (lo < 0) == (hi < 0)
            if lo >= 0:
                assert 0 <= lo <= hi < b.count
                for k in range(lo, hi + 1):
                    assert k not in owner
                    owner[k] = m
        assert sorted(owner) == list(range(b.count))
        # inside each bucket the member is the argmin of Eq. 2
        for k, x in enumerate(probes):
            assert hl[owner[k]] == argmin_member(list(hl.values()), x), (t, src, dst, k)
        # at a boundary itself the tie goes to the member with fewer hops (half-open buckets)
        for i, x in enumerate(bounds):
            assert hl[owner[i + 1]] == argmin_member(list(hl.values()), x)
        # group boundaries = envelope break points; Eq. 3: x = (L_n - L_m) / (m - n)
        breaks = envelope_breaks(list(hl.values()))
        for x, (n_l, l_l), (n_r, l_r) in breaks:  # left of x: more hops, right: fewer
            assert x == Fraction(l_r - l_l, n_l - n_r)
            if n_l == n_r + 1:  # adjacent hop counts: Eq. 4 boundary = latency(p1) - latency(p2)
                assert x == l_r - l_l
            k = bounds.index(x) + 1
            assert hl[owner[k - 1]] == (n_l, l_l) and hl[owner[k]] == (n_r, l_r)
        union |= {x for x, _, _ in breaks}
    assert union == set(bounds), "global buckets are the union of all groups' boundaries (§6.1)"


@given(schedules(max_tors=6), st.integers(1, 4), st.integers(1, 10 ** 7), st.integers(1, 16))
@settings(max_examples=30, deadline=None)
def test_bucket_of_picks_the_min_cost_member_and_alpha_scales_sizes(sched, h_max, size, a4):
    """Host mapping (Eq. 4): bucket = #{b : b * B u <= alpha * size}; the member serving it
    minimises Eq. 2 computed in bytes and seconds; boundaries do not depend on alpha, so
    doubling alpha is doubling the size."""
    r = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=h_max, hops_per_slice=2, backups=0))
    b = r.buckets
    alpha = Fraction(a4, 4)
    tm = sched.timing
    B = Fraction(int(tm.link_gbps * 1000), 8) * 10 ** 6  # bytes per second
    u = Fraction(tm.slice_us).limit_denominator(10 ** 6) / 10 ** 6  # seconds
    assert b.slice_bytes == pytest.approx(float(B * u))
    assert b.boundary_bytes() == pytest.approx([float(x * B * u) for x in b.boundaries])
    k = b.bucket_of(size, float(alpha))
    assert k == sum(1 for x in b.boundaries if x * B * u <= alpha * size)
    assert k == b.bucket_of(size * 2, float(alpha) / 2) == b.bucket_of(size * a4, 0.25)
    assert b.bucket_of(size, float(alpha)) <= b.bucket_of(size + 1, float(alpha))
    assert b.bucket_of(0, float(alpha)) == 0
    for t, src, dst in list(pairs(sched))[:: max(1, sched.n_tors)]:
        mem = members_of(r, src, dst, t, REGULAR)
        serving = [m for m in mem if b.m_lo[m] <= k <= b.m_hi[m]]
        assert len(serving) == 1
        eq2 = {m: Fraction(int(r.m_latency[m])) * u + alpha * int(r.m_hops[m]) * size / B for m in mem}
        best = min(eq2.values())
        winners = [m for m in mem if eq2[m] == best]
        assert serving[0] == min(winners, key=lambda m: r.m_hops[m])


def test_envelope_reproduces_paper_table_1():
    """UCMP Table 1 (alpha = 1, 100 Gbps): paths of 1-4 hops with 60/15/10/5 us latency; the
    10 KB flow takes the 4-hop path, 100 KB the 2-hop path and 1 MB the direct path."""
    members = [(1, 12), (2, 3), (3, 2), (4, 1)]  # latencies in 5 us slices
    env = envelope.envelope(members)
    # 4 hops from 0; at x = 1 the 3- and 2-hop lines tie with it -> 2 hops (fewest); 1 hop at 9
    assert env == [(3, Fraction(0)), (1, Fraction(1)), (0, Fraction(9))]
    m_group = np.zeros(4, np.int64)
    buckets, _ = ucmp._buckets((m_group, np.array([1, 2, 3, 4]), np.array([12, 3, 2, 1]),
                                np.zeros(4, np.int8)), slice_bytes=5e-6 * 100e9 / 8)
    assert buckets.boundaries == (Fraction(1), Fraction(9))
    assert list(buckets.m_lo) == [2, 1, -1, 0] and list(buckets.m_hi) == [2, 1, -1, 0]
    def hops_for(size):
        k = buckets.bucket_of(size, 1.0)
        (i,) = [i for i in range(4) if buckets.m_lo[i] <= k <= buckets.m_hi[i]]
        return i + 1

    assert [hops_for(s) for s in (10e3, 100e3, 1e6)] == [4, 2, 1]


def _synthetic(n_groups):
    """n_groups groups, group k holding (1 hop, latency k + 2) and (2 hops, latency 1):
    its only boundary is x = k + 1 (Eq. 3)."""
    k = np.arange(n_groups)
    m_group = np.repeat(k, 2)
    m_hops = np.tile([1, 2], n_groups)
    m_lat = np.ravel(np.stack([k + 2, np.ones(n_groups, int)], 1))
    return m_group, m_hops, m_lat, np.zeros(2 * n_groups, np.int8)


def test_64_buckets_fit_the_dscp():
    buckets, _ = ucmp._buckets(_synthetic(63), slice_bytes=25000.0)
    assert buckets.count == 64
    assert buckets.boundaries == tuple(Fraction(i) for i in range(1, 64))
    # group k: the 2-hop member serves buckets 0..k, the direct path k+1..63
    assert list(buckets.m_lo) == [v for k in range(63) for v in (k + 1, 0)]
    assert list(buckets.m_hi) == [v for k in range(63) for v in (63, k)]


def test_more_than_64_buckets_is_a_user_error():
    with pytest.raises(UroError, match=r"65 flow-size buckets needed, more than the 64 a 6-bit DSCP can tag"):
        ucmp._buckets(_synthetic(64), slice_bytes=25000.0)


# ---- backups (§5.3) and relaxation (§4.3) -------------------------------------------------
def fastest_two_hop_via(sched, src, dst, t, H):
    """{intermediate: (min latency, set of 2-hop paths with it)} by exhaustive search."""
    out = {}
    for p in all_paths(sched, src, dst, t, 2, H, horizon=2 * sched.n_slices):
        if len(p) != 2:
            continue
        w, lat = p[0][0], latency(p, t)
        if w not in out or lat < out[w][0]:
            out[w] = (lat, {p})
        elif lat == out[w][0]:
            out[w][1].add(p)
    return out


@given(schedules(max_tors=7), st.integers(1, 3), st.integers(1, 3))
@settings(max_examples=30, deadline=None)
def test_backups_for_direct_only_groups(sched, H, k):
    r = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=4, hops_per_slice=H, backups=k))
    for t, src, dst in pairs(sched):
        reg = members_of(r, src, dst, t, REGULAR)
        bak = members_of(r, src, dst, t, BACKUP)
        only_direct = len(reg) == 1 and int(r.m_hops[reg[0]]) == 1
        via = fastest_two_hop_via(sched, src, dst, t, H)
        if not only_direct or not via:
            assert bak == []
            continue
        (m,) = bak
        paths = [tuple(map(tuple, p)) for p in r.member_paths(m)]
        ws = [p[0][0] for p in paths]
        assert len(set(ws)) == len(ws) == min(k, len(via)), "distinct intermediates"
        assert src not in ws and dst not in ws
        for p in paths:
            lat, best = via[p[0][0]]
            assert p in best and latency(p, t) == lat, "fastest 2-hop path through its intermediate"
        ranked = sorted(via, key=lambda w: (via[w][0], w))
        assert sorted(ws) == sorted(ranked[:k])
        assert int(r.m_hops[m]) == 2 and int(r.m_latency[m]) == min(via[w][0] for w in ws)


@given(schedules(max_tors=7), st.integers(1, 3), st.integers(0, 3), st.integers(1, 3))
@settings(max_examples=25, deadline=None)
def test_relaxed_two_hop_paths(sched, H, relax, cap):
    """§4.3 latency relaxation: groups with a 2-hop member also get the 2-hop paths at most
    ``relax`` slices slower (fastest per intermediate, best first, at most max_parallel)."""
    r = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=4, hops_per_slice=H, backups=0, relax_slices=relax,
                                            max_parallel=cap))
    for t, src, dst in pairs(sched):
        reg = {int(r.m_hops[m]): m for m in members_of(r, src, dst, t, REGULAR)}
        rel = members_of(r, src, dst, t, RELAXED)
        if 2 not in reg:
            assert rel == []
            continue
        l2 = int(r.m_latency[reg[2]])
        via = fastest_two_hop_via(sched, src, dst, t, H)
        ok = sorted((lat, w) for w, (lat, _) in via.items() if lat <= l2 + relax)
        (m,) = rel
        paths = [tuple(map(tuple, p)) for p in r.member_paths(m)]
        assert sorted(p[0][0] for p in paths) == sorted(w for _, w in ok[:cap])
        for p in paths:
            assert p in via[p[0][0]][1]


def test_long_slices_budget_from_timing_is_accepted():
    """Timing.hops_per_slice reaches 80 for the paper's 50 us slices and 255 for long ones;
    such a budget never binds (it is capped at h_max) and gives the unbounded result."""
    sched = opera(7, 2, seed=1)
    N = sched.n_tors
    ref = ucmp.compute(sched, ucmp.UcmpParams(**ALL, hops_per_slice=N - 1))
    for H in (80, 255):
        r = ucmp.compute(sched, ucmp.UcmpParams(**ALL, hops_per_slice=H))
        for name in ("g_count", "m_hops", "m_latency", "m_count", "hop_node", "hop_uplink", "hop_slice"):
            assert np.array_equal(getattr(r, name), getattr(ref, name)), (H, name)
    with pytest.raises(UroError, match="hops_per_slice must be an integer in 1..255, got 256"):
        ucmp.UcmpParams(**ALL, hops_per_slice=256)
    free = uro.compute(sched, uro.UroParams(k=1))
    u255 = uro.compute(sched, uro.UroParams(k=1, hops_per_slice=255))
    assert np.array_equal(free.arrival, u255.arrival) and np.array_equal(free.hops, u255.hops)
    with pytest.raises(UroError, match="max_hops must be an integer in 1..254"):
        uro.UroParams(max_hops=255)


# ---- the default policy: the paper's groups (App. A Alg. 1, its artifact) ---------------------
def on_envelope_oracle(levels: dict) -> set:
    """Hop counts whose cost line L + n x (Eq. 2) is minimal at some x >= 0: checked at x = 0
    and at every pairwise crossing (where the minimum can change), in exact fractions."""
    xs = {Fraction(0)} | {Fraction(levels[a] - levels[b], b - a) for a in levels for b in levels if b > a}
    xs = {x for x in xs if x >= 0}
    keep = set()
    for x in xs:
        cost = {n: levels[n] + n * x for n in levels}
        low = min(cost.values())
        keep |= {n for n, c in cost.items() if c == low}
    return keep


def paper_group(sched, src, dst, t, h_max, H):
    """{n: (latency, paths)}: Properties 1-3 levels on the envelope; per level one path per
    last-hop ToR, the first in (send slice, uplink) order hop by hop."""
    want, _ = expected_group(sched, src, dst, t, h_max, H)
    keep = on_envelope_oracle({n: lat for n, (lat, _) in want.items()})
    out = {}
    for n, (lat, paths) in want.items():
        if n not in keep:
            continue
        by_last: dict = {}
        for p in paths:
            by_last.setdefault(p[-2][0] if len(p) >= 2 else src, []).append(p)
        out[n] = (lat, {min(ps, key=lambda p: [(s, j) for _, j, s in p]) for ps in by_last.values()})
    return out


@given(schedules(), st.integers(1, 4), st.integers(1, 3))
@settings(max_examples=40, deadline=None)
def test_default_groups_are_one_path_per_last_hop_tor_on_the_envelope(sched, h_max, H):
    r = ucmp.compute(sched, ucmp.UcmpParams(h_max=h_max, hops_per_slice=H, max_parallel=100_000,
                                            tie_search=100_000, backups=0))
    assert r.notes["levels_capped"] == 0 and r.notes["ties"] == "last-hop"
    full = ucmp.compute(sched, ucmp.UcmpParams(**ALL, h_max=h_max, hops_per_slice=H, max_parallel=100_000, backups=0))
    assert r.notes["levels"] + r.notes["levels_dropped"] == full.notes["levels"]
    for t, src, dst in pairs(sched):
        assert regular_group(r, src, dst, t) == paper_group(sched, src, dst, t, h_max, H), (t, src, dst)
    # dropped levels served no bucket: the buckets are the same as with every level
    assert r.buckets.boundaries == full.buckets.boundaries


def test_collinear_levels_are_kept_and_serve_no_bucket_off_envelope_ones_are_dropped():
    from controller.routing import ucmp_policy

    # three lines meeting in one point (x = 3): the middle one is collinear, kept
    col = [(1, 10), (2, 7), (3, 4)]
    # 8 + 2x is above min(10 + x, 4 + 3x) everywhere: never selected, dropped
    off = [(1, 10), (2, 8), (3, 4)]
    assert envelope.on_envelope(col) == [True, True, True]
    assert envelope.on_envelope(off) == [True, False, True]
    gid = np.array([7, 7, 7, 9, 9, 9])
    hops = np.array([3, 1, 2, 2, 3, 1])                     # any order inside a group
    lat = np.array([4, 10, 7, 8, 4, 10])
    assert ucmp_policy.envelope_levels(gid, hops, lat).tolist() == [True, True, True, False, True, True]
    # the collinear level gets no bucket: at the break point the member with fewer hops wins
    prof = np.array([[1, 6, 2, 3, 3, 0]], np.int32)          # (hops, latency - min) of `col`
    boundaries, lo, hi = ucmp.profile_ranges(prof)
    assert boundaries == (Fraction(3),)
    assert lo.tolist() == [[1, -1, 0]] and hi.tolist() == [[1, -1, 0]]


def test_tie_search_cap_is_reported():
    sched = Schedule(np.concatenate([random_matchings(6, 2, seed=1).peer, random_matchings(6, 2, seed=2).peer]))
    roomy = ucmp.compute(sched, ucmp.UcmpParams(h_max=4, hops_per_slice=2, tie_search=1000))
    tight = ucmp.compute(sched, ucmp.UcmpParams(h_max=4, hops_per_slice=2, tie_search=1, max_parallel=1))
    assert roomy.notes["levels_capped"] == 0
    sizes = np.asarray(roomy.m_count)[roomy.m_kind == REGULAR]
    assert tight.notes["levels_capped"] >= (sizes > 1).sum() > 0


def _diameter_by_bfs(peer: np.ndarray) -> int:
    """App. B's h_static the plain way: a BFS from every ToR of every slice graph (edge i ->
    peer[s, i, j]); a ToR that cannot reach all makes it N - 1."""
    S, N, d = peer.shape
    worst = 0
    for s in range(S):
        for i in range(N):
            dist = {i: 0}
            todo = [i]
            for x in todo:
                for y in peer[s, x]:
                    if y >= 0 and int(y) not in dist:
                        dist[int(y)] = dist[x] + 1
                        todo.append(int(y))
            if len(dist) < N:
                return N - 1
            worst = max(worst, max(dist.values()))
    return worst


@given(st.integers(1, 4), st.integers(1, 9), st.integers(1, 3), st.integers(0, 2**32 - 1), st.floats(0, 0.5))
@settings(max_examples=150, deadline=None)
def test_static_diameter_is_the_largest_slice_diameter(S, N, d, seed, holes):
    """The all-slices bit-packed BFS gives what a BFS per ToR and slice gives, on random
    (also disconnected, with absent peers) slice graphs."""
    from types import SimpleNamespace

    rng = np.random.default_rng(seed)
    peer = rng.integers(0, N, size=(S, N, d)).astype(np.int32)
    peer[rng.random(peer.shape) < holes] = -1
    want = _diameter_by_bfs(peer)
    assert ucmp._static_diameter(SimpleNamespace(peer=peer)) == want
    assert ucmp._static_diameter(SimpleNamespace(peer=peer), block_bytes=1) == want   # a slice per block


def test_static_diameter_of_real_schedules():
    for sched in (opera(16, 4, seed=1), opera(12, 3, seed=2), random_matchings(10, 2, seed=3)):
        assert ucmp._static_diameter(sched) == _diameter_by_bfs(sched.peer)
