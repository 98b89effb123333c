"""Degraded schedules (circuits of failed uplinks/ToRs/OCSes removed) and routes on them:
never a dead circuit, every state that can still reach its destination does, a dead
ToR is unreachable (URO §IV-D, UCMP §5.3)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from controller.errors import UroError
from controller.routing import base
from controller.schedule import opera, round_robin
from controller.schedule.degrade import Failed, dead_circuits, without
from controller.tables import perhop, source as source_tables

from strategies import small_schedules


@st.composite
def failures(draw, sched):
    N, d = sched.n_tors, sched.n_uplinks
    ups = draw(st.sets(st.tuples(st.integers(0, N - 1), st.integers(0, d - 1)), max_size=3))
    tors = draw(st.sets(st.integers(0, N - 1), max_size=1))
    ocs = draw(st.sets(st.integers(0, d - 1), max_size=1 if d > 1 else 0))
    circs = draw(st.sets(st.tuples(st.integers(0, sched.n_slices - 1), st.integers(0, N - 1), st.integers(0, d - 1)),
                         max_size=3))
    return Failed(frozenset(ups), frozenset(tors), frozenset(ocs), frozenset(circs))


def reachable(sched, x, t, dst) -> bool:
    """Time-expanded search (unbounded hops): can a packet at x in slice t reach dst? A path
    in a degraded schedule may take several cycles; it visits a ToR at most once and
    waits less than a cycle per ToR, so N cycles bound it."""
    S = sched.n_slices
    at = {x}
    for s in range(t, t + sched.n_tors * S):
        grow = True
        while grow:  # any number of hops inside one slice
            grow = False
            for a in list(at):
                for b in sched.peer[s % S, a]:
                    if b >= 0 and b not in at:
                        at.add(int(b))
                        grow = True
        if dst in at:
            return True
    return False


def test_a_failed_circuit_is_removed_in_its_slice_only_at_both_ends_whichever_end_names_it():
    """An OCS port dead in slice 1 only: the circuit ToR 2's uplink 0 has in slice 1 is
    idle at both ends, nothing else changes; named by the other end, the same schedule."""
    s = round_robin(8, 2)
    p = int(s.peer[1, 2, 0])
    ds = without(s, Failed(circuits=frozenset({(1, 2, 0)})))
    assert ds.peer[1, 2, 0] == -1 and ds.peer[1, p, 0] == -1
    assert len(np.argwhere(ds.peer != s.peer)) == 2
    assert (without(s, Failed(circuits=frozenset({(1, p, 0)}))).peer == ds.peer).all()
    f = Failed(circuits=frozenset({(1, 2, 0)}))
    assert f.dead_slots(s, 2) == {(1, 0)} and f.dead_slots(s, p) == {(1, 0)}
    assert f.dead_slots(s, (set(range(8)) - {2, p}).pop()) == frozenset()
    assert f.down_uplinks(2) == frozenset()             # no uplink is down as a whole
    assert not f.empty and f.as_dict()["circuits"] == [[1, 2, 0]]


@pytest.mark.parametrize("circ, msg", [((4, 0, 0), "circuit slice 4 ToR 0 uplink 0"),
                                       ((0, 8, 0), "circuit slice 0 ToR 8"), ((0, 0, 2), "uplink 2")])
def test_a_circuit_outside_the_network_is_refused(circ, msg):
    with pytest.raises(UroError, match=msg):
        without(round_robin(8, 2), Failed(circuits=frozenset({circ})))


def test_circuit_key_names_a_circuit_by_its_lower_end():
    from controller.schedule.degrade import circuit_key

    s = round_robin(8, 2)
    p = int(s.peer[1, 2, 0])
    assert circuit_key(s.peer, 1, 2, 0) == circuit_key(s.peer, 1, p, 0) == (1, min(2, p), 0)


def test_failed_uplink_removes_both_ends_of_every_circuit():
    s = round_robin(8, 2)
    f = Failed(uplinks=frozenset({(0, 1)}))
    ds = without(s, f)
    assert not ds.complete and s.complete
    live = 0
    for t in range(s.n_slices):
        b = s.peer[t, 0, 1]
        assert ds.peer[t, 0, 1] == -1
        if b >= 0:
            live += 1
            assert ds.peer[t, b, 1] == -1
        assert ds.peer[t, 0, 0] == s.peer[t, 0, 0]       # the other uplink is untouched
    changed = np.argwhere(ds.peer != s.peer)
    assert live >= 2 and len(changed) == 2 * live


def test_failed_tor_and_ocs():
    s = opera(8, 2)
    ds = without(s, Failed(tors=frozenset({3})))
    assert (ds.peer[:, 3, :] == -1).all() and not (ds.peer == 3).any()
    ds = without(s, Failed(ocs=frozenset({1})))
    assert (ds.peer[:, :, 1] == -1).all() and (ds.peer[:, :, 0] == s.peer[:, :, 0]).all()
    assert without(s, Failed()) is s


def test_out_of_range_failure_is_a_user_error():
    with pytest.raises(UroError, match="uplink 0/5"):
        without(round_robin(8, 2), Failed(uplinks=frozenset({(0, 5)})))
    with pytest.raises(UroError, match="ToR 9"):
        without(round_robin(8, 2), Failed(tors=frozenset({9})))


@pytest.mark.parametrize("past, last, msg", [
    (Failed(uplinks=frozenset({(8, 0)})), Failed(uplinks=frozenset({(7, 1)})),
     r"^uplink 8/0 is not in the network \(8 ToRs x 2 uplinks\)$"),
    (Failed(uplinks=frozenset({(0, 2)})), Failed(uplinks=frozenset({(7, 1)})),
     r"^uplink 0/2 is not in the network \(8 ToRs x 2 uplinks\)$"),
    (Failed(tors=frozenset({8})), Failed(tors=frozenset({7})), r"^ToR 8 is not in the network \(0\.\.7\)$"),
    (Failed(ocs=frozenset({2})), Failed(ocs=frozenset({1})), r"^OCS 2 is not in the network \(0\.\.1\)$"),
    (Failed(circuits=frozenset({(0, 0, 2)})), Failed(circuits=frozenset({(3, 7, 1)})),
     r"^circuit slice 0 ToR 0 uplink 2 is not in the network \(8 ToRs x 2 uplinks x 4 slices\)$")])
def test_the_first_element_past_the_network_is_refused_by_name(past, last, msg):
    """The check's bounds are exclusive -- ToR ids 0..N-1, uplinks and OCSes 0..d-1 --
    and the message gives the network's ranges; the last element of each kind is in the
    network."""
    with pytest.raises(UroError, match=msg):
        without(round_robin(8, 2), past)
    assert without(round_robin(8, 2), last).n_tors == 8


def test_a_circuit_past_the_network_without_a_slice_count_names_no_slices():
    with pytest.raises(UroError, match=r"^circuit slice 0 ToR 9 uplink 0 is not in the network \(8 ToRs x 2 uplinks\)$"):
        Failed(circuits=frozenset({(0, 9, 0)})).check(8, 2)


def test_dead_slots_leave_out_what_the_schedule_does_not_have():
    """A failed set made for a larger network (an uplink, a circuit's slice, ToR or uplink
    past this schedule's) marks nothing of this schedule and raises nothing: the daemon
    asks each ToR's mask of the failed set it holds, which a smaller schedule may not fit."""
    s = round_robin(8, 2)
    S = s.n_slices
    for f in (Failed(uplinks=frozenset({(3, 2)})), Failed(circuits=frozenset({(S, 0, 0)})),
              Failed(circuits=frozenset({(0, 0, 2)})), Failed(circuits=frozenset({(0, 8, 0)}))):
        assert all(f.dead_slots(s, tor) == frozenset() for tor in range(8)), f


def test_a_degraded_schedule_keeps_the_timing_and_says_it_is_degraded():
    from controller.schedule import Timing

    s = round_robin(8, 2, timing=Timing(slice_us=300.0, guard_us=20.0))
    ds = without(s, Failed(tors=frozenset({3})))
    assert ds.timing == s.timing
    assert ds.name == f"{s.name}-degraded"
    assert ds.complete is False


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_uro_routes_on_a_degraded_schedule_avoid_dead_circuits_and_reach_what_is_reachable(data):
    sched = data.draw(small_schedules(max_tors=7))
    f = data.draw(failures(sched))
    dead = dead_circuits(sched, f)
    ds = without(sched, f)
    r = base.compute("uro", ds, base.get("uro").params({"k": 3}))
    S, N = sched.n_slices, sched.n_tors
    for x in range(N):
        for e in perhop.entries(r, x):
            for a in e.alternatives:
                assert not dead[a.dep_slice % S, x, a.uplink], (x, e.slice, e.dst, a)
                assert sched.peer[a.dep_slice % S, x, a.uplink] not in f.tors
    for t in range(S):
        for x in range(N):
            for dst in range(N):
                if x == dst:
                    continue
                can = reachable(ds, x, t, dst)
                has = r.alt_uplink[t, x, dst, 0] >= 0
                assert can == has, (t, x, dst, can, has)
                if has:
                    hops = r.path(x, dst, t)          # Property 2 on the degraded tables
                    assert not any(h[0] in f.tors for h in hops)
                if dst in f.tors or x in f.tors:
                    assert not has


def test_hop_bounded_uro_on_a_degraded_schedule_converges():
    """Regression (found by the emulated fabric's link drill): round-robin 8x2 without
    uplink 3/1, M = 2. ToR 5 met ToR 3 only over that cable, and every 2-hop route would
    extend a neighbour's own choice of 2 hops; its label only waited for itself, grew by S
    every sweep, and the engine gave up ("did not converge"). Such a destination is
    unreachable for the per-hop tables; everything else keeps its bounded routes."""
    ds = without(round_robin(8, 2), Failed(uplinks=frozenset({(3, 1)})))
    r = base.compute("uro", ds, base.get("uro").params({"k": 3, "max_hops": 2}))
    S = ds.n_slices
    missing = {(x, dst) for t in range(S) for x in range(8) for dst in range(8)
               if x != dst and r.alt_uplink[t, x, dst, 0] < 0}
    assert missing == {(5, 3)}
    assert all(r.alt_uplink[t, 5, 3, 0] < 0 for t in range(S))      # from no slice at all
    for t in range(S):
        for x in range(8):
            for dst in range(8):
                if x != dst and (x, dst) not in missing:
                    path = r.path(x, dst, t)
                    assert path[-1][0] == dst and len(path) - 1 <= 2


@settings(max_examples=30, deadline=None)
@given(data=st.data(), max_hops=st.sampled_from([1, 2, 3]))
def test_hop_bounded_uro_on_degraded_schedules_walks_live_circuits_within_the_bound(data, max_hops):
    """Under a hop bound a degraded schedule may leave a destination unreachable for the
    per-hop tables; the engine still converges, and every entry it keeps walks live
    circuits to its destination within M hops (Property 2)."""
    sched = data.draw(small_schedules(max_tors=7))
    f = data.draw(failures(sched))
    ds = without(sched, f)
    dead = dead_circuits(sched, f)
    r = base.compute("uro", ds, base.get("uro").params({"k": 2, "max_hops": max_hops}))
    S, N = sched.n_slices, sched.n_tors
    for t in range(S):
        for x in range(N):
            for dst in range(N):
                if x == dst or r.alt_uplink[t, x, dst, 0] < 0:
                    continue
                path = r.path(x, dst, t)
                assert path[-1][0] == dst and len(path) - 1 <= max_hops
                now = t
                for (a, u, dep), (b, _, _) in zip(path, path[1:]):
                    assert dep >= now and ds.peer[dep % S, a, u] == b and not dead[dep % S, a, u]
                    now = dep


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_ucmp_paths_on_a_degraded_schedule_avoid_dead_circuits(data):
    sched = data.draw(small_schedules(max_tors=7))
    f = data.draw(failures(sched))
    ds = without(sched, f)
    if (ds.peer < 0).all():
        return
    dead = dead_circuits(sched, f)
    r = base.compute("ucmp", ds, base.get("ucmp").params({"engine": "numpy"}))
    S = sched.n_slices
    for src in range(sched.n_tors):
        for e in source_tables.entries(r, src):
            assert src not in f.tors and e.dst not in f.tors
            for path in e.paths:
                prev = src
                for nxt, up, sl in path:
                    assert not dead[sl % S, prev, up], (src, e.dst, e.slice, path)
                    assert ds.peer[sl % S, prev, up] == nxt
                    prev = nxt
                assert prev == e.dst


def _dead_slots_by_definition(f: Failed, sched, tor: int) -> set:
    """Every (slice, uplink) of ``tor`` one by one: its circuit leads to a failed ToR or into
    a failed cable at the far end, or is a failed circuit named by either end."""
    if tor in f.tors:
        return set()
    out = set()
    for s in range(sched.n_slices):
        for u in range(sched.n_uplinks):
            b = int(sched.peer[s, tor, u])
            if b in f.tors or (b, u) in f.uplinks:
                out.add((s, u))
            if (s, tor, u) in f.circuits or (b >= 0 and (s, b, u) in f.circuits):
                out.add((s, u))
    return out


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_dead_slots_are_every_slot_whose_circuit_leads_to_a_failure(data):
    """The per-(slice, uplink) mask of each ToR (what its config entry's ``dead`` carries)
    against its definition, slot by slot, on random schedules and failures."""
    sched = data.draw(small_schedules())
    f = data.draw(failures(sched))
    for tor in range(sched.n_tors):
        assert f.dead_slots(sched, tor) == _dead_slots_by_definition(f, sched, tor), tor
