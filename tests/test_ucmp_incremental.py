"""UCMP source routes repaired after a failure (controller/routing/ucmp_incremental.py)
against a whole recomputation, cell for cell, and the changed cells' source-route entries
built alone against whole tables.

For random small schedules, destinations, UCMP parameters (engines, tie caps that bind,
backups, relaxed members, hop limits) and a sequence of growing failure sets (cut cables,
dead ToRs, dead OCSes, single circuits), each repair -- made from the previous repair, as
the daemon chains them -- must give the arrays of :func:`ucmp.compute` on the degraded
schedule (every group's members, kinds, hops, latencies, paths and bucket ranges, the
global boundaries), its changed cells must be exactly the groups that differ, and a
ToR's whole source table with the changed cells' objects swapped must be the new whole
table. An affected set that misses a destination (the repair broken on purpose) is
caught by the same comparison."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from controller.p4gen import render as rnd
from controller.p4gen.profile import Profile
from controller.routing import ucmp, ucmp_incremental as ui
from controller.routing.paths import PathRoutes
from controller.schedule import opera
from controller.schedule.degrade import Failed, without
from controller.tables import bulk
from controller.tables import entries as ent

from strategies import small_schedules


def _hops(a: np.ndarray, width: int) -> np.ndarray:
    return np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=-1)


def assert_same_routes(got: PathRoutes, want: PathRoutes) -> None:
    """Array for array (hop arrays up to their -1 padding), buckets included."""
    for name in ("g_first", "g_count", "m_kind", "m_hops", "m_latency", "m_first", "m_count", "p_hops",
                 "p_latency"):
        assert np.array_equal(getattr(got, name), getattr(want, name)), name
    w = max(got.hop_node.shape[1], want.hop_node.shape[1])
    for name in ("hop_node", "hop_uplink", "hop_slice"):
        assert np.array_equal(_hops(getattr(got, name), w), _hops(getattr(want, name), w)), name
    assert got.buckets.boundaries == want.buckets.boundaries
    assert np.array_equal(got.buckets.m_lo, want.buckets.m_lo)
    assert np.array_equal(got.buckets.m_hi, want.buckets.m_hi)
    assert got.params == want.params


def _failure(draw, sched) -> Failed:
    N, d, S = sched.n_tors, sched.n_uplinks, sched.n_slices
    kind = draw(st.sampled_from(["uplink", "tor", "ocs", "circuit"]))
    if kind == "uplink":
        return Failed(uplinks=frozenset({(draw(st.integers(0, N - 1)), draw(st.integers(0, d - 1)))}))
    if kind == "tor":
        return Failed(tors=frozenset({draw(st.integers(0, N - 1))}))
    if kind == "ocs":
        return Failed(ocs=frozenset({draw(st.integers(0, d - 1))}))
    return Failed(circuits=frozenset({(draw(st.integers(0, S - 1)), draw(st.integers(0, N - 1)),
                                       draw(st.integers(0, d - 1)))}))


def _union(a: Failed, b: Failed) -> Failed:
    return Failed(a.uplinks | b.uplinks, a.tors | b.tors, a.ocs | b.ocs, a.circuits | b.circuits)


@st.composite
def cases(draw):
    sched = draw(small_schedules(max_tors=8, min_tors=3))
    N = sched.n_tors
    dsts = sorted(draw(st.sets(st.integers(0, N - 1), min_size=1, max_size=N)))
    params = ucmp.UcmpParams(h_max=draw(st.sampled_from([None, 2, 4])), hops_per_slice=draw(st.sampled_from([1, 2])),
                             engine=draw(st.sampled_from(["numba", "numpy"])), backups=draw(st.integers(0, 2)),
                             relax_slices=draw(st.sampled_from([None, 0, 2])),
                             ties=draw(st.sampled_from(["last-hop", "all"])),
                             max_parallel=draw(st.integers(1, 3)), tie_search=draw(st.integers(1, 4)))
    steps, failed = [], Failed()
    for _ in range(draw(st.integers(1, 3))):
        failed = _union(failed, _failure(draw, sched))
        steps.append(failed)
    return sched, dsts, params, steps


def check_repairs(sched, dsts, params, steps, affected=ui.affected_destinations) -> int:
    """Each step's repair (from the previous one) against the whole recomputation;
    returns how many steps were repaired (a step whose hop limits change is not)."""
    before = ucmp.compute(sched, params, destinations=dsts)
    repaired = 0
    for failed in steps:
        rs = without(sched, failed)
        full = ucmp.compute(rs, params, destinations=dsts)
        try:
            rep = ui.repair(before, rs, params, dsts, affected=affected)
        except ui.NotRepairable:
            before = full
            continue
        assert_same_routes(rep.routes, full)
        want = ui.changed_cells(before, full, dsts)
        assert np.array_equal(rep.cells, want), (rep.cells.tolist(), want.tolist())
        assert set(map(int, rep.destinations)) <= set(dsts)
        before = rep.routes
        repaired += 1
    return repaired


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_a_repair_is_the_whole_recomputation_cell_for_cell(case):
    sched, dsts, params, steps = case
    check_repairs(sched, dsts, params, steps)


def _riding_by_path(routes: PathRoutes, removed: np.ndarray) -> list[bool]:
    """:func:`ui.riding` read path by path: each hop departs from the ToR the hop before
    reached (the group's source for the first), until the first -1."""
    S, N, _ = removed.shape
    out = []
    for p, g in enumerate(routes.path_group_index().tolist()):
        prev, hit = (g // N) % N, False
        for node, up, slot in zip(routes.hop_node[p].tolist(), routes.hop_uplink[p].tolist(),
                                  routes.hop_slice[p].tolist()):
            if node < 0:
                break
            if removed[slot % S, prev, up]:
                hit = True
                break
            prev = node
        out.append(hit)
    return out


def _group_by_members(routes: PathRoutes, g: int) -> tuple:
    """One group as values: per member its kind, hops, latency, bucket range, and per path
    its hop count, latency and hops (without the -1 padding)."""
    def row(a, p):
        r = a[p].tolist()
        while r and r[-1] < 0:
            r.pop()
        return tuple(r)
    b = routes.buckets
    first, count = int(routes.g_first.ravel()[g]), int(routes.g_count.ravel()[g])
    out = []
    for m in range(first, first + count):
        pf, pc = int(routes.m_first[m]), int(routes.m_count[m])
        paths = tuple((int(routes.p_hops[p]), int(routes.p_latency[p]), row(routes.hop_node, p),
                       row(routes.hop_uplink, p), row(routes.hop_slice, p)) for p in range(pf, pf + pc))
        out.append((int(routes.m_kind[m]), int(routes.m_hops[m]), int(routes.m_latency[m]),
                    None if b is None else (int(b.m_lo[m]), int(b.m_hi[m])), paths))
    return tuple(out)


def _changed_by_group(a: PathRoutes, b: PathRoutes, dsts) -> list[tuple[int, int, int]]:
    S, N, _ = a.g_count.shape
    rows = [(t, s, d) for t in range(S) for s in range(N) for d in dsts if s != d
            if _group_by_members(a, (t * N + s) * N + d) != _group_by_members(b, (t * N + s) * N + d)]
    return sorted(rows, key=lambda r: (r[1], r[2], r[0]))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_the_paths_riding_and_the_changed_groups_are_those_read_path_by_path(case):
    """The compiled :func:`ui.riding` and :func:`ui.changed_cells` against the arrays read
    path by path and group by group, before and after each failure of a sequence."""
    sched, dsts, params, steps = case
    before = ucmp.compute(sched, params, destinations=dsts)
    S, N, d = sched.peer.shape
    for failed in steps:
        rs = without(sched, failed)
        rem, _ = ui.circuit_changes(sched, rs)
        removed = np.zeros((S, N, d), bool)
        removed[rem[:, 0], rem[:, 1], rem[:, 2]] = True
        assert ui.riding(before, removed).tolist() == _riding_by_path(before, removed)
        after = ucmp.compute(rs, params, destinations=dsts)
        assert ui.changed_cells(before, after, dsts).tolist() == [list(r) for r in _changed_by_group(before, after, dsts)]


def test_groups_differ_where_only_the_hop_padding_or_the_buckets_differ():
    """Hop arrays of other widths compare up to their -1 padding; a route set without
    buckets differs from one with them in every group that has a member."""
    sched = opera(8, 2, seed=1)
    dsts = [0, 5]
    a = ucmp.compute(sched, ucmp.UcmpParams(h_max=4), destinations=dsts)
    wide = dataclasses.replace(a, **{k: _hops(getattr(a, k), getattr(a, k).shape[1] + 2)
                                    for k in ("hop_node", "hop_uplink", "hop_slice")})
    assert len(ui.changed_cells(a, wide, dsts)) == 0
    moved = wide.hop_slice.copy()
    moved[0, a.hop_slice.shape[1]] = 0                # a hop in the padding of the narrower one
    moved = dataclasses.replace(wide, hop_slice=moved)
    changed = ui.changed_cells(a, moved, dsts)
    assert changed.tolist() == [list(r) for r in _changed_by_group(a, moved, dsts)]
    assert len(changed) == 1
    assert ui.changed_cells(moved, a, dsts).tolist() == changed.tolist()     # the wider one first
    bare = dataclasses.replace(a, buckets=None)
    with_members = int(sum(1 for t in range(sched.n_slices) for s in range(8) for d in dsts
                           if s != d and a.g_count[t, s, d] > 0))
    assert len(ui.changed_cells(a, bare, dsts)) == with_members > 0


def test_groups_differ_in_their_member_count_or_a_member_s_path_count():
    """A group emptied, and a member given one more path (the next member's first), are
    changed cells, though every member or path both sides have is the same."""
    sched = opera(8, 2, seed=1)
    dsts = [0, 5]
    a = ucmp.compute(sched, ucmp.UcmpParams(h_max=4), destinations=dsts)
    N = sched.n_tors
    g = int(np.flatnonzero(a.g_count.ravel() > 0)[0])
    want = [[g // (N * N), (g // N) % N, g % N]]
    count = a.g_count.copy()
    count.ravel()[g] = 0
    assert ui.changed_cells(dataclasses.replace(a, g_count=count), a, dsts).tolist() == want
    m = int(a.g_first.ravel()[g])
    paths = a.m_count.copy()
    paths[m] += 1
    assert ui.changed_cells(a, dataclasses.replace(a, m_count=paths), dsts).tolist() == want


def test_groups_differ_by_their_member_counts_where_one_side_has_no_buckets():
    """One side without buckets: a group differs where either side has a member, or their
    counts differ -- a group emptied on one side, one empty on both (the same), one of a
    single member on both (differs) -- as read group by group; both sides without buckets
    compare the rest as usual."""
    sched = opera(8, 2, seed=1)
    dsts = [0, 5]
    a = ucmp.compute(sched, ucmp.UcmpParams(h_max=4), destinations=dsts)
    full = np.flatnonzero(a.g_count.ravel() > 1)
    g0, g1, g2 = (int(x) for x in full[:3])
    ca, cb = a.g_count.copy(), a.g_count.copy()
    ca.ravel()[g0] = 0                       # emptied on one side
    ca.ravel()[g1] = cb.ravel()[g1] = 0      # empty on both
    ca.ravel()[g2] = cb.ravel()[g2] = 1      # a single member on both
    x, y = dataclasses.replace(a, g_count=ca), dataclasses.replace(a, g_count=cb, buckets=None)
    got = ui.changed_cells(x, y, dsts).tolist()
    assert got == [list(r) for r in _changed_by_group(x, y, dsts)]
    N = sched.n_tors
    cell = [[g // (N * N), (g // N) % N, g % N] for g in (g0, g1, g2)]
    assert cell[0] in got and cell[1] not in got and cell[2] in got
    bare = dataclasses.replace(a, buckets=None)
    assert ui.changed_cells(bare, bare, dsts).tolist() == []
    moved = a.hop_slice.copy()
    moved[0, 0] += 1
    assert ui.changed_cells(bare, dataclasses.replace(bare, hop_slice=moved), dsts).tolist() == \
        [list(r) for r in _changed_by_group(bare, dataclasses.replace(bare, hop_slice=moved), dsts)] != []


def test_a_path_rides_only_hops_before_its_padding():
    """Every circuit of the last slice on the last uplink removed (and of the first slice on
    the first): a path rides one only through a hop it has, never through the -1 padding
    after its last hop (which would index exactly the last slice's last uplink)."""
    sched = opera(8, 2, seed=1)
    a = ucmp.compute(sched, ucmp.UcmpParams(h_max=4), destinations=[0, 5])
    S, N, d = sched.peer.shape
    removed = np.zeros((S, N, d), bool)
    removed[S - 1, :, d - 1] = True
    removed[0, :, 0] = True
    got = ui.riding(a, removed)
    assert got.tolist() == _riding_by_path(a, removed)
    assert 0 < got.sum() < got.size and (a.hop_node[~got] < 0).any()


def test_an_affected_set_that_misses_a_destination_is_caught():
    """The same check with the affected set broken on purpose (its first destination
    dropped): the routes differ from the whole recomputation."""
    sched = opera(12, 3, seed=4)
    dsts = [1, 4, 7, 10]
    params = ucmp.UcmpParams(h_max=4, engine="numpy")
    failed = Failed(uplinks=frozenset({(4, 1)}))
    assert check_repairs(sched, dsts, params, [failed]) == 1

    def broken(routes, removed):
        return ui.affected_destinations(routes, removed)[1:]
    with pytest.raises(AssertionError):
        check_repairs(sched, dsts, params, [failed], affected=broken)


def test_a_circuit_that_comes_back_is_not_repaired():
    sched = opera(8, 2, seed=1)
    params = ucmp.UcmpParams(h_max=4, engine="numpy")
    down = ucmp.compute(without(sched, Failed(tors=frozenset({3}))), params, destinations=[0, 5])
    with pytest.raises(ui.NotRepairable, match="come back"):
        ui.repair(down, sched, params, [0, 5])


@pytest.mark.parametrize("n, circuit, buckets_move", [(16, (0, 4, 1), False), (24, (0, 0, 2), True)])
def test_a_repair_that_keeps_some_destinations_is_the_whole_recomputation(n, circuit, buckets_move):
    """One circuit gone: some destinations recomputed, the others' groups kept, as a whole
    recomputation gives them -- bucket boundaries that move included, where a kept
    destination's bucket ranges change too -- with the changed cells read group by group,
    the notes a chained repair reads, and the repair chained from it."""
    sched = opera(n, 4, seed=4)
    dsts = list(range(1, n, 3))
    params = ucmp.UcmpParams(h_max=4, engine="numpy")
    before = ucmp.compute(sched, params, destinations=dsts)
    rs = without(sched, Failed(circuits=frozenset({circuit})))
    rep = ui.repair(before, rs, params, dsts)
    full = ucmp.compute(rs, params, destinations=dsts)
    assert 0 < rep.destinations.size < len(dsts)
    assert (rep.routes.buckets.boundaries != before.buckets.boundaries) == buckets_move
    assert_same_routes(rep.routes, full)
    assert rep.cells.tolist() == [list(r) for r in _changed_by_group(before, full, dsts)]
    notes = rep.routes.notes
    assert notes["destinations"] == dsts and notes["capped_destinations"] == full.notes["capped_destinations"]
    assert notes["repaired_destinations"] == rep.destinations.size
    more = without(sched, Failed(circuits=frozenset({circuit, (1, 3, 0)})))
    assert_same_routes(ui.repair(rep.routes, more, params, dsts).routes, ucmp.compute(more, params, destinations=dsts))


def test_a_capped_destination_is_recomputed_and_its_note_follows_the_recomputation():
    """A destination the routes name as capped (a tie search cut short) is affected by any
    failure, even one no path of it rides, and the repaired routes' note says what the
    recomputation capped -- not what the routes before said."""
    sched = opera(16, 4, seed=4)
    dsts = list(range(1, 16, 3))
    params = ucmp.UcmpParams(h_max=4, engine="numpy")
    before = ucmp.compute(sched, params, destinations=dsts)
    assert before.notes["capped_destinations"] == []
    said = dataclasses.replace(before, notes={**before.notes, "capped_destinations": [dsts[0]]})
    nothing = np.zeros(sched.peer.shape, bool)
    assert ui.affected_destinations(said, nothing).tolist() == [dsts[0]]
    rs = without(sched, Failed(circuits=frozenset({(0, 4, 1)})))
    rep = ui.repair(said, rs, params, dsts)
    assert dsts[0] in rep.destinations.tolist() and rep.destinations.size < len(dsts)
    assert rep.routes.notes["capped_destinations"] == ucmp.compute(rs, params, destinations=dsts).notes["capped_destinations"] == []


def test_changed_cells_are_int32_rows_and_refuse_route_sets_of_two_shapes():
    sched = opera(8, 2, seed=1)
    a = ucmp.compute(sched, ucmp.UcmpParams(h_max=4), destinations=[0, 5])
    cells = ui.changed_cells(a, ucmp.compute(without(sched, Failed(tors=frozenset({3}))), ucmp.UcmpParams(h_max=4),
                                             destinations=[0, 5]), [0, 5])
    assert cells.dtype == np.int32 and cells.shape[1] == 3 and len(cells)
    b = ucmp.compute(opera(12, 3, seed=1), ucmp.UcmpParams(h_max=4), destinations=[0, 5])
    with pytest.raises(ValueError) as e:
        ui.changed_cells(a, b, [0, 5])
    assert str(e.value) == f"route sets of different shapes ({a.g_count.shape}, {b.g_count.shape})"


def test_a_repair_passes_the_worker_count_on(monkeypatch):
    seen = []
    for name in ("group_chunks", "other_profiles"):
        real = getattr(ucmp, name)
        monkeypatch.setattr(ucmp, name, lambda *a, _f=real, _n=name, **k: seen.append((_n, k.get("workers"))) or _f(*a, **k))
    sched = opera(16, 4, seed=4)
    dsts = list(range(1, 16, 3))
    params = ucmp.UcmpParams(h_max=4, engine="numpy", workers=1)
    before = ucmp.compute(sched, params, destinations=dsts)
    seen.clear()
    ui.repair(before, without(sched, Failed(circuits=frozenset({(0, 4, 1)}))), params, dsts)
    assert sorted(set(seen)) == [("group_chunks", 1), ("other_profiles", 1)]


def test_each_refusal_of_a_repair_says_why():
    """Each condition alone refuses, with its reason whole."""
    sched = opera(8, 2, seed=1)
    dsts = [0, 5]
    params = ucmp.UcmpParams(h_max=4, engine="numpy")
    before = ucmp.compute(sched, params, destinations=dsts)
    rs = without(sched, Failed(uplinks=frozenset({(1, 0)})))
    other = opera(12, 3, seed=1)
    with pytest.raises(ui.NotRepairable) as e:
        ui.repair(before, other, params, dsts)
    assert str(e.value) == f"the schedule's shape changed ({sched.peer.shape} -> {other.peer.shape})"
    notes = "the routes do not say towards which destinations they were computed, or which were capped"
    uncapped = {k: v for k, v in before.notes.items() if k != "capped_destinations"}
    for routes, towards in ((before, [0]), (dataclasses.replace(before, notes=uncapped), dsts),
                            (dataclasses.replace(before, buckets=None), dsts)):
        with pytest.raises(ui.NotRepairable) as e:
            ui.repair(routes, rs, params, towards)
        assert str(e.value) == notes
    with pytest.raises(ui.NotRepairable) as e:          # the same hop limits, other parameters
        ui.repair(before, rs, dataclasses.replace(params, backups=1), dsts)
    assert str(e.value) == "the hop limits or parameters differ (the static diameter changed)"


def _contract(sched, h: int = 5) -> dict:
    p = Profile(name="inc", tors=sched.n_tors, uplinks=sched.n_uplinks, host_ports=2, slices=sched.n_slices,
                alternatives=2, ssrr_hops=h, queues=max(2, sched.n_slices))
    return rnd.contract(p, "tor")


def _objects(b) -> set:
    return set(b.members) | set(b.groups) | set(b.entries)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1000), n=st.integers(5, 9), failure=st.data(), gen=st.sampled_from([0, 1]))
def test_the_changed_cells_objects_turn_a_whole_table_into_the_new_one(seed, n, failure, gen):
    sched = opera(n, 2, seed=seed)
    c = _contract(sched)
    assume(ent.selector_ids(c, sched) is not None)
    dsts = list(range(0, n, 2))
    params = ucmp.UcmpParams(h_max=4, engine="numpy")
    before = ucmp.compute(sched, params, destinations=dsts)
    rs = without(sched, _failure(failure.draw, sched))
    rep = ui.repair(before, rs, params, dsts)
    cells = rep.by_tor()
    for tor in range(n):
        sr = [d for d in dsts if d != tor]
        old_all = bulk.ssrr_entries(c, before, tor, gen, sr)
        new_all = bulk.ssrr_entries(c, rep.routes, tor, gen, sr)
        mine = cells.get(tor, np.zeros((0, 2), np.int64))
        old = bulk.ssrr_cell_entries(c, before, tor, mine, gen, sr)
        new = bulk.ssrr_cell_entries(c, rep.routes, tor, mine, gen, sr)
        assert old is not None and new is not None
        assert _objects(old) <= _objects(old_all) and _objects(new) <= _objects(new_all)
        assert (_objects(old_all) - _objects(old)) | _objects(new) == _objects(new_all), tor


def _repaired(seed: int, n: int, draw, h: int = 5, relax: int | None = None) -> tuple:
    """(contract, source-routed destinations, UCMP routes, their repair after a drawn
    failure) on a small Opera schedule whose selector ids are content-stable."""
    sched = opera(n, 2, seed=seed)
    c = _contract(sched, h)
    assume(ent.selector_ids(c, sched) is not None)
    dsts = list(range(0, n, 2))
    params = ucmp.UcmpParams(h_max=4, engine="numpy", relax_slices=relax)
    before = ucmp.compute(sched, params, destinations=dsts)
    return c, dsts, before, ui.repair(before, without(sched, _failure(draw, sched)), params, dsts)


def _updates(d) -> tuple:
    """A diff's updates as sets per kind and operation (what a switch is sent)."""
    return tuple(frozenset(getattr(b, k)) for b in (d.insert, d.modify, d.delete)
                 for k in ("members", "groups", "entries"))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1000), n=st.integers(5, 9), failure=st.data(), gen=st.sampled_from([0, 1]))
def test_the_cells_pair_leaves_out_only_what_both_sides_hold_equal(seed, n, failure, gen):
    """ssrr_cell_pair against the two sides built whole cell by cell: the same updates,
    each object one of the cell's, and no object on both sides (equal ones are never made)."""
    from controller.agent.diff import diff
    c, dsts, before, rep = _repaired(seed, n, failure.draw)
    for tor, mine in rep.by_tor().items():
        sr = [d for d in dsts if d != tor]
        old = bulk.ssrr_cell_entries(c, before, tor, mine, gen, sr)
        new = bulk.ssrr_cell_entries(c, rep.routes, tor, mine, gen, sr)
        a, b = bulk.ssrr_cell_pair(c, before, rep.routes, tor, mine, gen, sr)
        assert _updates(diff(a, b)) == _updates(diff(old, new)), tor
        assert _objects(a) <= _objects(old) and _objects(b) <= _objects(new)
        assert not _objects(a) & _objects(b)


def test_the_cells_pair_makes_fewer_objects_than_the_two_sides_after_a_dead_tor():
    """A dead ToR's cells: most of what a source holds towards and through it goes, yet
    part of each changed cell stays (members and groups of unchanged paths): the pair
    leaves those out, where the two sides built whole hold them on both."""
    sched = opera(12, 3, seed=2)
    c = _contract(sched)
    dsts = list(range(0, 12, 2))
    params = ucmp.UcmpParams(h_max=4, engine="numpy")
    before = ucmp.compute(sched, params, destinations=dsts)
    rep = ui.repair(before, without(sched, Failed(tors=frozenset({4}))), params, dsts)
    whole = pair = 0
    for tor, mine in rep.by_tor().items():
        sr = [d for d in dsts if d != tor]
        whole += sum(len(_objects(bulk.ssrr_cell_entries(c, r, tor, mine, 0, sr))) for r in (before, rep.routes))
        pair += sum(len(_objects(x)) for x in bulk.ssrr_cell_pair(c, before, rep.routes, tor, mine, 0, sr))
    assert 0 < pair < whole


def _rows_only(*args):
    raise bulk._Slow        # (the pair's column path declined: its row path builds)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1000), n=st.integers(5, 9), failure=st.data(), gen=st.sampled_from([0, 1]),
       h=st.sampled_from([4, 5]), relax=st.sampled_from([None, 0, 2]))
def test_the_cells_compared_as_columns_make_what_the_rows_make(seed, n, failure, gen, h, relax):
    """The pair's column path (each side's cells as arrays, compared as arrays) against its
    row path (each side's rows as Python values): the same objects on each side, and the
    column path taken (UCMP's bucket ranges, relaxed 2-hop paths, ids that fit)."""
    c, dsts, before, rep = _repaired(seed, n, failure.draw, h, relax)
    prof = ent.check_fits(c, before.schedule)
    columns = bulk._cells_pair
    for tor, mine in rep.by_tor().items():
        sr = [d for d in dsts if d != tor]
        got = columns(c, prof, before, rep.routes, tor, mine, gen, sr)    # (raises _Slow: failed)
        bulk._cells_pair = _rows_only
        try:
            want = bulk.ssrr_cell_pair(c, before, rep.routes, tor, mine, gen, sr)
        finally:
            bulk._cells_pair = columns
        for x, y in zip(got, want):
            assert (x.members, x.groups, x.entries) == (y.members, y.groups, y.entries), tor


_WARM_THEN_REPAIR = """
from controller.routing import ucmp, ucmp_incremental, ucmp_incremental_kernel as kern
from controller.schedule import opera
from controller.schedule.degrade import Failed, without
assert not kern.riding.signatures and not kern.groups_differ.signatures   # no repair ran in this process
ucmp_incremental.warm_kernel()
warm = (list(kern.riding.signatures), list(kern.groups_differ.signatures))
sched = opera(24, 4, seed=2)
params = ucmp.UcmpParams(h_max=5, hops_per_slice=sched.timing.hops_per_slice, backups=1)
before = ucmp.compute(sched, params, destinations=[1, 4, 7])
ucmp_incremental.repair(before, without(sched, Failed(tors=frozenset({5}))), params, [1, 4, 7])
print(len(warm[0]), len(warm[1]), len(kern.riding.signatures), len(kern.groups_differ.signatures))
"""


def test_warm_kernel_loads_the_kernels_a_repair_of_any_size_uses():
    """The daemon's warm-up of the UCMP repair (plan.warm) loads both compiled kernels: a
    repair of another size and other parameters after it needs no other compiled version,
    so the first failure after an install (an empty numba cache) does not compile them. In
    a process of its own: another test may have run a repair in this one."""
    out = subprocess.run([sys.executable, "-c", _WARM_THEN_REPAIR], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["1", "1", "1", "1"], out.stdout
