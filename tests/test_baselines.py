"""Baseline schemes (UCMP §2.2, Fig. 1c-f): direct, VLB, KSP and Opera-style paths are
feasible on the schedule and follow each scheme's contract (see the module docstrings
in controller/routing/), checked against brute force on small schedules."""

from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from controller.errors import UroError
from controller.routing import direct, ksp, opera as opera_routing, vlb
from controller.routing.paths import REGULAR
from controller.routing.slicegraph import UNREACHABLE, adjacency, distances, k_shortest
from controller.schedule import opera, round_robin
from strategies import pairs, small_schedules


def schedules(min_tors: int = 4, max_tors: int = 8):
    """Small schedules from the project's generators (4-8 ToRs, 1-3 uplinks), with idle
    extra slices and stacked cycles (ToR pairs meeting twice, so tied paths appear)."""
    return small_schedules(max_tors=max_tors, min_tors=min_tors, max_extra=2)


def group_paths(routes, src, dst, t):
    mem = list(routes.members(src, dst, t))
    assert all(routes.m_kind[m] == REGULAR for m in mem)
    return [p for m in mem for p in routes.member_paths(m)]


def assert_feasible(sched, path, src, dst, t, H=None):
    """Every hop u -> w on uplink j at send slice s is a circuit of the schedule
    (peer[s mod S, u, j] == w), time never goes back, the path ends at dst, and at most
    H hops share a send slice."""
    S = sched.n_slices
    assert path and path[-1][0] == dst
    u, now = src, t
    for w, j, s in path:
        assert s >= now
        assert sched.peer[s % S, u, j] == w, (u, j, s, w)
        u, now = w, s
    assert dst not in [w for w, _, _ in path[:-1]]
    if H is not None:
        assert max(Counter(s for _, _, s in path).values()) <= H


def assert_latency_fields(routes):
    """p_latency is Eq. 1 (last send slice - start slice + 1); p_hops the hop count."""
    N = routes.schedule.n_tors
    gid = routes.path_group_index()
    t = gid // (N * N)
    for p in range(routes.n_paths):
        path = routes.path(p)
        assert len(path) == routes.p_hops[p]
        assert routes.p_latency[p] == path[-1][2] - t[p] + 1


def first_meeting(sched, a, b, start):
    """(slice, uplink) of the first circuit a-b at slice >= start."""
    S = sched.n_slices
    for s in range(start, start + S):
        for j in range(sched.n_uplinks):
            if sched.peer[s % S, a, j] == b:
                return s, j
    raise AssertionError("the pair never meets")


def simple_paths(peer, src, dst, max_len):
    """All simple paths src -> dst of at most max_len hops in a static graph peer[N, d]."""
    N, d = peer.shape
    out = []

    def walk(x, hops, seen):
        if len(hops) == max_len:
            return
        for j in range(d):
            y = int(peer[x, j])
            if y < 0 or y in seen:
                continue
            if y == dst:
                out.append(hops + ((y, j),))
            else:
                walk(y, hops + ((y, j),), seen | {y})

    walk(src, (), frozenset([src]))
    return out


def k_order(h):
    """Order of slicegraph.k_shortest: fewer hops first, ties by the uplink sequence."""
    return len(h), [j for _, j in h]


# ---- direct ---------------------------------------------------------------------------------
@given(schedules())
@settings(max_examples=30, deadline=None)
def test_direct_is_one_hop_on_the_first_slice_with_the_circuit(sched):
    r = direct.compute(sched)
    assert_latency_fields(r)
    for t, src, dst in pairs(sched):
        (path,) = group_paths(r, src, dst, t)
        assert len(path) == 1
        assert_feasible(sched, path, src, dst, t)
        s, _ = first_meeting(sched, src, dst, t)
        assert path[0][2] == s


# ---- VLB ------------------------------------------------------------------------------------
@given(schedules(), st.sampled_from([1, 2, 3]))
@settings(max_examples=30, deadline=None)
def test_vlb_is_direct_now_or_two_hops_sprayed_in_the_arrival_slice(sched, H):
    r = vlb.compute(sched, vlb.VlbParams(hops_per_slice=H))
    assert_latency_fields(r)
    S = sched.n_slices
    for t, src, dst in pairs(sched):
        paths = group_paths(r, src, dst, t)
        for p in paths:
            assert_feasible(sched, p, src, dst, t, H)
            assert p[0][2] == t, "first hop is sent in the arrival slice"
        if dst in sched.peer[t % S, src]:
            assert [len(p) for p in paths] == [1], "the direct circuit is up: 1-hop path only"
            continue
        live = {int(w) for w in sched.peer[t % S, src] if w >= 0}
        assert all(len(p) == 2 for p in paths)
        mids = [p[0][0] for p in paths]
        assert len(set(mids)) == len(mids) and set(mids) == live, "one path per circuit of src now"
        for p in paths:
            # phase 2: the intermediate waits for its direct circuit to dst
            start = t if H >= 2 else t + 1
            assert p[1][2] == first_meeting(sched, p[0][0], dst, start)[0]


# ---- KSP ------------------------------------------------------------------------------------
def ksp_ride(sched, dist, src, dst, t, planned, H):
    """The KSP packet of ksp.py's contract, simulated step by step: the first (at most H)
    hops of its planned path in slice t, then in every slice up to H hops along a shortest
    path of that slice's graph (lowest uplink), waiting where the graph has none; None
    when it has not arrived within two cycles."""
    S, d = sched.n_slices, sched.n_uplinks
    hops = [(w, j, t) for w, j in planned[:H]]
    x = hops[-1][0] if hops else src
    s, budget = t, H - len(hops)
    while x != dst:
        if budget == 0:
            s, budget = s + 1, H
        if s - t >= 2 * S:
            return None
        dd = dist[s % S]
        if dd[x, dst] >= UNREACHABLE:
            s, budget = s + 1, H
            continue
        j = min(j for j in range(d) if sched.peer[s % S, x, j] >= 0
                and dd[sched.peer[s % S, x, j], dst] == dd[x, dst] - 1)
        x = int(sched.peer[s % S, x, j])
        hops.append((x, j, s))
        budget -= 1
    return hops


@given(schedules(), st.sampled_from([1, 5]), st.sampled_from([1, 2, 3]))
@settings(max_examples=30, deadline=None)
def test_ksp_paths_are_feasible_and_reroute_on_shortest_paths(sched, k, H):
    """Each of the k paths starts on one of slice t's k shortest paths and is re-routed on a
    shortest path of the current slice's graph after every reconfiguration. A packet whose
    ride does not arrive within two cycles (it can cycle forever) gets no path."""
    r = ksp.compute(sched, ksp.KspParams(paths=k, hops_per_slice=H))
    assert_latency_fields(r)
    S = sched.n_slices
    dist = [distances(adjacency(sched, s)) for s in range(S)]
    for t, src, dst in pairs(sched):
        paths = group_paths(r, src, dst, t)
        firsts = k_shortest(sched.peer[t % S], dist[t % S], src, dst, k) or [()]
        rides = [ksp_ride(sched, dist, src, dst, t, f, H) for f in firsts]
        assert paths == [p for p in rides if p is not None]
        for p in paths:
            assert_feasible(sched, p, src, dst, t, H)
            assert p[-1][2] - t < 2 * S


@given(schedules(max_tors=7), st.sampled_from([1, 5]))
@settings(max_examples=30, deadline=None)
def test_ksp_with_a_free_budget_takes_the_k_shortest_simple_distinct_paths(sched, k):
    N, S = sched.n_tors, sched.n_slices
    r = ksp.compute(sched, ksp.KspParams(paths=k, hops_per_slice=N - 1))
    for t, src, dst in pairs(sched):
        paths = group_paths(r, src, dst, t)
        every = simple_paths(sched.peer[t % S], src, dst, N - 1)
        if not every:  # slice t does not connect them: wait and route in a later slice
            assert len(paths) == 1 and paths[0][0][2] > t
            continue
        assert len(paths) == min(k, len(every))
        hops = [tuple((w, j) for w, j, _ in p) for p in paths]
        assert len(set(hops)) == len(hops), "distinct"
        assert all(h in every for h in hops), "simple paths of slice t's graph"
        assert all(s == t for p in paths for _, _, s in p)
        assert hops == sorted(every, key=k_order)[:k], "the k shortest, shortest first, ties in uplink order"


def test_k_shortest_rejects_nonpositive_k():
    with pytest.raises(UroError, match=r"--paths .* must be >= 1"):
        ksp.KspParams(paths=0)
    with pytest.raises(UroError, match=r"--paths .* must be >= 1"):
        opera_routing.OperaParams(paths=0)


# ---- Opera ----------------------------------------------------------------------------------
@given(schedules(), st.sampled_from([1, 5]), st.sampled_from([1, 2, 3]), st.booleans())
@settings(max_examples=30, deadline=None)
def test_opera_paths_stay_in_one_slice_on_stable_circuits(sched, k, H, stagger):
    r = opera_routing.compute(sched, opera_routing.OperaParams(paths=k, hops_per_slice=H, stagger=stagger))
    assert_latency_fields(r)
    S, N, d = sched.peer.shape
    staggered = stagger and d > 1
    assert r.params["skips_reconfiguring_ocs"] == staggered

    def skipped(s):
        return (s % S) % d  # the OCS reconfiguring during slice id s mod S (opera.py)

    def stable(s):
        peer = sched.peer[s % S].copy()
        if staggered:
            peer[:, skipped(s)] = -1
        return peer

    for t, src, dst in pairs(sched):
        paths = group_paths(r, src, dst, t)
        usable = [s for s in range(t, t + S + 1) if simple_paths(stable(s), src, dst, H)]
        if not usable:
            # no stable path within a cycle: wait for the direct circuit (Opera's bulk mode)
            w = [s for s in range(t, t + S) if dst in sched.peer[s % S, src]]
            assert paths == ([[(dst, int(list(sched.peer[w[0] % S, src]).index(dst)), w[0])]] if w else [])
            continue
        s0 = usable[0]  # the first slice whose stable graph has a path within the budget
        every = simple_paths(stable(s0), src, dst, H)
        assert len(paths) == min(k, len(every))
        hops = [tuple((w, j) for w, j, _ in p) for p in paths]
        assert len(set(hops)) == len(hops)
        for p, h in zip(paths, hops):
            assert_feasible(sched, p, src, dst, t, H)
            assert {s for _, _, s in p} == {s0}, "the whole path inside one slice"
            assert len(p) <= H
            assert h in every, "simple, on the slice's stable circuits"
            assert not staggered or all(j != skipped(s0) for _, j, _ in p), "never the reconfiguring OCS"
        assert hops == sorted(every, key=k_order)[:k]


def test_opera_skips_the_reconfiguring_ocs_when_staggered():
    sched = opera(8, 3, seed=2)
    r = opera_routing.compute(sched, opera_routing.OperaParams(paths=5, hops_per_slice=3))
    d = sched.n_uplinks
    S = sched.n_slices
    used = Counter(((s % S) % d, j) for p in range(r.n_paths) for _, j, s in r.path(p))
    assert used and all(j != s_mod for s_mod, j in used)
    # without the stagger every uplink is used in every slice class
    rr = opera_routing.compute(round_robin(8, 3), opera_routing.OperaParams(paths=5, hops_per_slice=3, stagger=False))
    assert not rr.params["skips_reconfiguring_ocs"]
    S = rr.schedule.n_slices
    assert any(j == (s % S) % 3 for p in range(rr.n_paths) for _, j, s in rr.path(p))
