"""Properties of the fast URO engine (URO §III-C) against ground truth."""

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from controller.errors import UroError
from controller.routing.exhaustive import best_labels
from controller.routing.reference import Reference
from controller.routing.uro import UroParams, compute
from controller.schedule import opera, round_robin

from strategies import small_schedules


def _all_queries(sched):
    N, S = sched.n_tors, sched.n_slices
    for src in range(N):
        for t in range(S):
            yield src, t


@given(small_schedules())
@settings(max_examples=60, deadline=None)
def test_latency_and_hops_equal_exhaustive_search(sched):
    """Property 1: fastest arrival, fewest hops among the fastest, for every (src, dst, t)."""
    r = compute(sched, UroParams(k=3))
    for src, t in _all_queries(sched):
        ex = best_labels(sched, src, t)
        for dst in range(sched.n_tors):
            assert (int(r.arrival[t, src, dst]), int(r.hops[t, src, dst])) == ex[dst], (src, dst, t)


@given(small_schedules(), st.sampled_from([(None, 1), (None, 2), (2, None), (3, 1), (3, None)]))
@settings(max_examples=60, deadline=None)
def test_per_hop_walk_reproduces_planned_path_and_respects_bounds(sched, bounds):
    """Property 2 and issue item 6: walking the tables gives the planned path, within M and h_slice."""
    M, H = bounds
    r = compute(sched, UroParams(k=2, max_hops=M, hops_per_slice=H))
    S = sched.n_slices
    for src, t in _all_queries(sched):
        ex = best_labels(sched, src, t, M, H)
        for dst in range(sched.n_tors):
            path = r.path(src, dst, t)
            planned = (int(r.arrival[t, src, dst]), int(r.hops[t, src, dst]))
            assert (path[-1][2], len(path) - 1) == planned
            # never better than the constrained optimum (sanity), never beyond the bounds
            assert planned >= ex[dst]
            assert M is None or len(path) - 1 <= M
            if H is not None:
                slices = [dep for _, _, dep in path[:-1]]
                assert max((slices.count(s) for s in set(slices)), default=0) <= H
            # every hop really uses a circuit of its departure slice, time never goes back
            now = t
            for (x, u, dep), (y, _, _) in zip(path, path[1:]):
                assert dep >= now and sched.peer[dep % S, x, u] == y
                now = dep


@given(small_schedules())
@settings(max_examples=40, deadline=None)
def test_alternatives_are_next_optimal_after_a_miss(sched):
    """Property 3: alternative k is the optimal decision at (previous departure + 1).
    The exhaustive labels of a (source, start slice) hold for every destination: searched
    once each, not once per (destination, alternative) (the same checks, a fraction of
    the search)."""
    K = 4
    r = compute(sched, UroParams(k=K))
    S = sched.n_slices
    labels: dict[tuple[int, int], dict] = {}
    for src, t in _all_queries(sched):
        for dst in range(sched.n_tors):
            if src == dst:
                assert (r.alt_uplink[t, src, dst] == -1).all()
                continue
            prev = None
            for k in range(K):
                u = int(r.alt_uplink[t, src, dst, k])
                if u < 0:
                    # only missing when waiting would reach a full cycle
                    nxt = r.next_hop(prev + 1, src, dst)
                    assert nxt is None or nxt[1] - t >= S
                    break
                dep = int(r.alt_dep[t, src, dst, k])
                assert t <= dep < t + S
                if prev is not None:
                    assert dep > prev
                    # same decision as a fresh lookup at the slice after the miss
                    if (src, prev + 1) not in labels:
                        labels[src, prev + 1] = best_labels(sched, src, prev + 1)
                    ex_now = labels[src, prev + 1][dst]
                    lu, ldep, _ = r.next_hop(prev + 1, src, dst)
                    assert (lu, ldep) == (u, dep)
                    s_next = (prev + 1) % S
                    base = prev + 1 - s_next
                    assert (int(r.arrival[s_next, src, dst]) + base, int(r.hops[s_next, src, dst])) == ex_now
                prev = dep


@given(small_schedules(kinds=("rr", "opera", "random")))
@settings(max_examples=40, deadline=None)
def test_agrees_with_backtracking_reference(sched):
    """Fast engine == URO Alg. 1 on schedules where pairs meet once per cycle (Alg. 1's
    t_(s,d) assumes one meeting; the generators give exactly one, and hypothesis is told
    to discard -- not count as passed -- any example that does not)."""
    counts = sched.meets().sum(axis=0)
    assume(not (counts[~np.eye(sched.n_tors, dtype=bool)] > 1).any())
    r = compute(sched, UroParams(k=1))
    ref = Reference(sched, max_hops=sched.n_tors - 1)
    for src, t in _all_queries(sched):
        for dst in range(sched.n_tors):
            p = ref.route(src, dst, t)
            assert ref.latency(p, t) == (int(r.arrival[t, src, dst]), int(r.hops[t, src, dst]))


@pytest.mark.parametrize("make", [lambda: round_robin(30, 3), lambda: opera(40, 4, seed=2)])
def test_invariants_on_larger_schedules(make):
    sched = make()
    r = compute(sched, UroParams(k=4, hops_per_slice=2))
    S, N = sched.n_slices, sched.n_tors
    t = np.arange(S)[:, None, None]
    off = ~np.eye(N, dtype=bool)
    lat = r.latency_slices()
    assert (lat[:, off] >= 1).all() and (lat[:, off] <= S + 1).all()  # one cycle + 1 slice
    dep = r.alt_dep
    ok = dep >= 0
    assert (dep[..., 0][:, off] >= 0).all()
    assert ((dep - t[..., None])[ok] >= 0).all()
    # the uplink at the departure slice is live
    tt, x, dst, k = np.nonzero(ok)
    assert (sched.peer[dep[ok] % S, x, r.alt_uplink[ok]] >= 0).all()


def test_hop_budget_changes_routes():
    sched = opera(40, 4, seed=1)
    free = compute(sched, UroParams(k=1))
    tight = compute(sched, UroParams(k=1, hops_per_slice=1))
    assert (tight.latency_slices() >= free.latency_slices()).all()
    assert (tight.latency_slices() > free.latency_slices()).any()


def test_latency_is_eq1_of_the_arrival_and_zero_at_the_destination():
    """URO Eq. 1: t_end - t_start + 1 slices for every (t, x, dst) with x != dst; 0 on the diagonal."""
    sched = opera(9, 2, seed=4)
    r = compute(sched, UroParams(k=1))
    S, N = sched.n_slices, sched.n_tors
    t = np.arange(S)[:, None, None]
    lat = r.latency_slices()
    off = ~np.eye(N, dtype=bool)
    assert (lat[:, off] == (r.arrival.astype(np.int64) - t + 1)[:, off]).all()
    assert (lat[:, ~off] == 0).all() and (r.arrival[:, ~off] == t[:, 0]).all()


def _ring_then_round_robin(n: int = 40):
    """A first slice whose circuits form one ring through all ``n`` ToRs (uplink 0 pairs
    (0,1), (2,3), ...; uplink 1 pairs (1,2), ..., (n-1,0)), then a round robin: the fastest
    way from ToR 0 to ToR n/2 is n/2 hops along the ring inside the first slice."""
    from controller.schedule import Schedule
    ring = np.full((1, n, 2), -1)
    for x in range(0, n, 2):
        ring[0, x, 0], ring[0, x + 1, 0] = x + 1, x
        ring[0, x + 1, 1], ring[0, (x + 2) % n, 1] = (x + 2) % n, x + 1
    return Schedule(np.concatenate([ring, round_robin(n, 2).peer]))


def test_per_hop_walk_of_a_long_path_and_of_broken_tables():
    """The walk follows a path of n/2 hops (its loop guard is no shorter than a real path)
    and ends at the destination with no uplink; a table that sends a packet round in
    circles, or has no entry, is reported with the walk and the ToR where it stopped."""
    import dataclasses
    sched = _ring_then_round_robin(40)
    r = compute(sched, UroParams(k=1))
    assert r.path(0, 20, 0) == [*((x, x % 2, 0) for x in range(20)), (20, -1, 0)]
    assert int(r.hops[0, 0, 20]) == 20 and int(r.arrival[0, 0, 20]) == 0
    up = r.alt_uplink.copy()
    up[0, 1, 20, 0] = -1                                     # ToR 1 has no entry
    with pytest.raises(RuntimeError, match=r"^per-hop walk from 0 to 20 at slice 0 is broken at ToR 1$"):
        dataclasses.replace(r, alt_uplink=up).path(0, 20, 0)
    up[0, 1, 20, 0] = 0                                      # ToR 1 sends it back to ToR 0
    with pytest.raises(RuntimeError, match=r"^per-hop walk from 0 to 20 at slice 0 is broken at ToR [01]$"):
        dataclasses.replace(r, alt_uplink=up).path(0, 20, 0)
    assert r.params_dict() == {"k": 1, "max_hops": None, "hops_per_slice": None}
    assert r.latency_slices().dtype.kind == "i"             # whole slices


@pytest.mark.parametrize("kw", [{"k": 1}, {"k": 10}, {"max_hops": 1}, {"max_hops": 254},
                                {"hops_per_slice": 1}, {"hops_per_slice": 255}])
def test_params_at_their_bounds_are_accepted(kw):
    assert UroParams(**kw) == UroParams(**{"k": 4, "max_hops": None, "hops_per_slice": None, **kw})


@pytest.mark.parametrize("kw,message", [
    ({"k": 0}, "K (alternatives per entry) must be 1..10, got 0"),
    ({"k": 11}, "K (alternatives per entry) must be 1..10, got 11"),
    ({"k": 2.0}, "K (alternatives per entry) must be 1..10, got 2.0"),
    ({"max_hops": 0}, "max_hops must be an integer in 1..254, got 0"),
    ({"max_hops": 255}, "max_hops must be an integer in 1..254, got 255"),
    ({"max_hops": 2.0}, "max_hops must be an integer in 1..254, got 2.0"),
    ({"hops_per_slice": -1}, "hops_per_slice must be an integer in 1..255, got -1"),
    ({"hops_per_slice": 256}, "hops_per_slice must be an integer in 1..255, got 256"),
    ({"hops_per_slice": "2"}, "hops_per_slice must be an integer in 1..255, got '2'"),
])
def test_bad_params(kw, message):
    with pytest.raises(UroError) as e:
        UroParams(**kw)
    assert str(e.value) == message


def test_too_many_slices_are_refused_before_any_work():
    """Arrivals are packed into 15 bits and reach up to three cycles ahead: 3 * S < 2**15."""
    from controller.routing import uro
    from controller.routing.uro import compute_numpy
    from controller.schedule import Schedule
    peer = np.full((10923, 2, 1), -1)
    peer[0] = [[1], [0]]
    for engine in (compute, compute_numpy):
        with pytest.raises(UroError) as e:
            engine(Schedule(peer))
        assert str(e.value) == "10923 slices per cycle is more than the engine supports (at most 10922)"
    uro._check_slices(10922)   # the largest cycle accepted


@st.composite
def _degraded(draw):
    """A small schedule with some cables and at most one ToR failed: pairs whose every
    meeting (direct or over other ToRs) is gone are unreachable."""
    from controller.schedule.degrade import Failed, without
    sched = draw(small_schedules(max_tors=8))
    n, d = sched.n_tors, sched.n_uplinks
    ups = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, d - 1)), min_size=1, max_size=4))
    tors = draw(st.sets(st.integers(0, n - 1), max_size=1))
    return without(sched, Failed(uplinks=frozenset(ups), tors=frozenset(tors)))


@given(_degraded())
@settings(max_examples=40, deadline=None)
def test_degraded_schedules_equal_exhaustive_search_and_unreachable_pairs_have_no_route(sched):
    """After failures (URO §IV-D: failed elements are missing circuits) the labels are
    still the fastest, fewest-hop ones wherever a destination is reachable at all, and a
    destination that is not has arrival -1, 0 hops and no alternative."""
    r = compute(sched, UroParams(k=3))
    for src, t in _all_queries(sched):
        ex = best_labels(sched, src, t)
        for dst in range(sched.n_tors):
            got = (int(r.arrival[t, src, dst]), int(r.hops[t, src, dst]))
            if dst in ex:
                assert got == ex[dst], (src, dst, t)
            else:
                assert got == (-1, 0), (src, dst, t)
                assert (r.alt_uplink[t, src, dst] == -1).all() and (r.alt_dep[t, src, dst] == -1).all()


def _sparse(n_tors: int, n_slices: int, meets: dict[int, list[tuple[int, int]]]):
    """``n_tors`` ToRs with one uplink, ``n_slices`` slices idle but for the circuits
    ``{slice: [(a, b), ...]}``."""
    from controller.schedule import Schedule
    peer = np.full((n_slices, n_tors, 1), -1)
    for s, pairs in meets.items():
        for a, b in pairs:
            peer[s, a, 0], peer[s, b, 0] = b, a
    return Schedule(peer, complete=False)


def test_waits_of_more_than_255_slices_are_ordered_exactly():
    """The labels of a slice are settled in (arrival, hops) order, packed with the wait in
    the high bits; a wait of 256 slices or more does not fit the 16-bit radix sort and
    takes the general sort. A 300-slice cycle with circuits in three slices only: from
    slice 103, ToR 3 reaches ToR 0 in slice 367 over ToR 4 (a wait of 264 slices); every
    label of the slices checked equals the exhaustive search's (a 16-bit sort of these
    waits would send it on a 3-hop path arriving in slice 623)."""
    sched = _sparse(5, 300, {23: [(0, 4), (1, 3)], 43: [(0, 4), (2, 3)], 67: [(0, 1), (2, 4)]})
    r = compute(sched, UroParams(k=2))
    assert (int(r.arrival[103, 3, 0]), int(r.hops[103, 3, 0])) == (367, 2)
    for t in (0, 22, 23, 24, 66, 67, 68, 103, 299):
        for src in range(5):
            ex = best_labels(sched, src, t)
            for dst in range(5):
                want = ex.get(dst, (-1, 0))
                assert (int(r.arrival[t, src, dst]), int(r.hops[t, src, dst])) == want, (src, dst, t)


def test_the_numpy_engine_reports_each_slice_it_settles():
    """``progress`` (a bar's update) is called with 1 per slice settled: at least one
    sweep of the cycle, at most the 8 sweeps the engine tries."""
    from controller.routing.uro import compute_numpy
    sched = opera(9, 2, seed=1)
    calls = []
    compute_numpy(sched, UroParams(k=2), progress=calls.append)
    assert set(calls) == {1} and sched.n_slices <= len(calls) <= 8 * sched.n_slices


def test_labels_that_never_become_periodic_are_refused(monkeypatch):
    """The cycle is swept backwards until a sweep reproduces the labels of a slice; labels
    that still change after 8 sweeps (a schedule that would need a pathological structure:
    here a settling step that makes every label one slice later each time) are refused
    with the schedule named for a report, after exactly 8 sweeps."""
    from controller.routing import uro
    real = uro._settle_slice
    late = {"by": 0}

    def drifting(t, peer_t, key, dep, upl, max_hops, per_slice):
        real(t, peer_t, key, dep, upl, max_hops, per_slice)
        late["by"] += 1
        key[key < uro.NEVER] += late["by"] << uro.ARR          # arrival: late["by"] slices later
    monkeypatch.setattr(uro, "_settle_slice", drifting)
    sched = round_robin(5, 1)
    calls = []
    with pytest.raises(UroError) as e:
        uro.compute_numpy(sched, UroParams(k=1), progress=calls.append)
    assert str(e.value) == "URO labels did not converge over the cycle; please report this schedule"
    assert len(calls) == 8 * sched.n_slices
