"""URO routes repaired label by label after circuits fail or come back
(controller/routing/uro_incremental.py) are the routes a whole recomputation on the new
schedule gives: array for array (arrival, hops, every alternative's uplink and departure
slice), on random schedules, random failures and recoveries (cables, ToRs, OCSes, several
at once, on top of earlier ones), with and without hop bounds, for every K; and the cells
it lists as changed are exactly those whose alternatives differ."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from controller.routing import uro, uro_incremental as inc
from controller.schedule import opera
from controller.schedule.degrade import Failed, without

from strategies import small_schedules
from test_uro_kernel import assert_same_routes


@st.composite
def failures(draw, sched, max_uplinks: int = 3):
    n, d = sched.n_tors, sched.n_uplinks
    ups = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, d - 1)), max_size=max_uplinks))
    tors = draw(st.sets(st.integers(0, n - 1), max_size=1))
    ocs = draw(st.sets(st.integers(0, d - 1), max_size=1))
    return Failed(uplinks=frozenset(ups), tors=frozenset(tors), ocs=frozenset(ocs))


def union(a: Failed, b: Failed) -> Failed:
    return Failed(a.uplinks | b.uplinks, a.tors | b.tors, a.ocs | b.ocs)


def check(before, sched, params):
    got = inc.repair(before, sched, workers=2)
    want = uro.compute(sched, params, engine="numba", workers=1)
    assert_same_routes(got.routes, want)
    assert np.array_equal(got.cells, inc.changed_cells(before, want))
    # the same repair written in a copy of ``before`` made ahead (the daemon's RouteCache)
    copy = tuple(a.copy() for a in before.arrays)
    ahead = inc.repair(before, sched, workers=2, copy=copy)
    assert_same_routes(ahead.routes, want)
    assert np.array_equal(ahead.cells, got.cells)
    rem, add = inc.circuit_changes(before.schedule, sched)
    if len(rem) or len(add):
        assert all(x is c for x, c in zip(ahead.routes.arrays, copy))
    return got


@settings(max_examples=150, deadline=None)
@given(data=st.data(), k=st.integers(1, 6), max_hops=st.one_of(st.none(), st.integers(1, 5)),
       per_slice=st.one_of(st.none(), st.integers(1, 3)))
def test_routes_repaired_after_a_failure_and_its_recovery_are_the_whole_recomputation(data, k, max_hops, per_slice):
    sched = data.draw(small_schedules(max_tors=11))
    params = uro.UroParams(k=k, max_hops=max_hops, hops_per_slice=per_slice)
    first = data.draw(failures(sched, max_uplinks=1))       # routes already on a degraded schedule
    more = data.draw(failures(sched))
    start = without(sched, first)
    before = uro.compute(start, params, engine="numba", workers=1)
    failed = check(before, without(sched, union(first, more)), params)      # more circuits gone
    check(failed.routes, start, params)                                      # back: circuits added
    other = data.draw(failures(sched))                                       # some back, others gone
    check(failed.routes, without(sched, union(first, other)), params)


@pytest.mark.parametrize("failed", [Failed(uplinks=frozenset({(5, 2)})), Failed(tors=frozenset({7}))],
                         ids=["cut cable", "dead ToR"])
def test_a_failure_at_108_changes_a_few_cells_and_recovers_to_the_start(failed):
    sched = opera(108, 6, seed=1)
    params = uro.UroParams(k=4, max_hops=4)
    before = uro.compute(sched, params, engine="numba", workers=2)
    got = check(before, without(sched, failed), params)
    assert 0 < len(got.cells) < 0.1 * 108 * 108 * sched.n_slices     # 2.3 % and 6.8 % here
    back = inc.repair(got.routes, sched)
    assert_same_routes(back.routes, before)
    assert np.array_equal(back.cells, got.cells)


def test_nothing_changed_is_the_same_routes_and_no_cells():
    sched = opera(12, 2, seed=3)
    before = uro.compute(sched, uro.UroParams(k=2), engine="numba", workers=1)
    got = inc.repair(before, sched)
    assert got.cells.shape == (0, 3)
    assert_same_routes(got.routes, before)


def test_another_shape_is_not_repairable():
    before = uro.compute(opera(12, 2, seed=3), uro.UroParams(k=2), engine="numba", workers=1)
    with pytest.raises(inc.NotRepairable, match="shape"):
        inc.repair(before, opera(12, 3, seed=3))


_WARM_THEN_REPAIR = """
from controller.routing import uro, uro_incremental, uro_incremental_kernel as kern
from controller.schedule import opera
from controller.schedule.degrade import Failed, without
assert not kern.repair_chunk.signatures           # nothing has run a repair in this process
uro_incremental.warm_kernel()
warm = list(kern.repair_chunk.signatures)
sched = opera(64, 4)
uro_incremental.repair(uro.compute(sched, uro.UroParams(k=4), engine="numba"),
                       without(sched, Failed(uplinks=frozenset({(3, 1)}))))
print(len(warm), len(kern.repair_chunk.signatures))
"""


def test_warm_kernel_loads_the_kernel_a_repair_of_any_size_uses():
    """The daemon's warm-up of the repair (plan.warm) loads its compiled kernel: a repair of
    another size and K after it needs no other compiled version, so the first failure after
    an install (an empty numba cache) does not compile it. In a process of its own: another
    test may have run a repair in this one."""
    out = subprocess.run([sys.executable, "-c", _WARM_THEN_REPAIR], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["1", "1"], out.stdout


def test_a_copy_that_is_not_of_the_routes_arrays_is_refused():
    sched = opera(8, 2)
    before = uro.compute(sched, uro.UroParams(k=2), engine="numba", workers=1)
    copy = [a.copy() for a in before.arrays]
    copy[3] = copy[3].astype(np.int64)
    with pytest.raises(ValueError, match=r"^the copy given to repair is not of the routes' arrays \(shapes or types differ\)$"):
        inc.repair(before, without(sched, Failed(uplinks=frozenset({(1, 0)}))), copy=tuple(copy))


def test_changed_cells_are_int32_rows_grouped_by_tor_even_one_row_per_tor():
    """The changed cells -- repaired or compared -- are int32 ``(slice, ToR, dst)`` rows (what
    the daemon's per-ToR entry build indexes with); split by ToR, a ToR with a single changed
    cell keeps it."""
    sched = opera(12, 2, seed=3)
    before = uro.compute(sched, uro.UroParams(k=2), engine="numba", workers=1)
    got = inc.repair(before, without(sched, Failed(uplinks=frozenset({(1, 0)}))), workers=1)
    assert got.cells.dtype == np.int32 and got.cells.shape[1] == 3
    assert inc.changed_cells(before, got.routes).dtype == np.int32
    assert inc.repair(before, sched).cells.dtype == np.int32          # nothing changed: no rows, the same type
    cells = np.array([[0, 1, 5], [2, 1, 5], [3, 4, 0], [1, 6, 2], [4, 6, 3]], np.int32)
    parts = inc.by_tor(cells)
    assert sorted(parts) == [1, 4, 6]
    assert parts[4].tolist() == [[3, 0]] and parts[1].tolist() == [[0, 5], [2, 5]] and parts[6].tolist() == [[1, 2], [4, 3]]
    assert inc.by_tor(np.zeros((0, 3), np.int32)) == {}


def test_circuit_changes_name_each_end_removed_and_added():
    """A failure removes circuit ends and adds none; its recovery adds them back and removes
    none; a circuit that moves to another peer is both."""
    sched = opera(8, 2, seed=1)
    cut = without(sched, Failed(uplinks=frozenset({(1, 0)})))
    rem, add = inc.circuit_changes(sched, cut)
    assert len(rem) and not len(add) and rem.dtype == np.int32
    assert {(int(t), int(u)) for _, t, u in rem} == {(1, 0)} | {(int(sched.peer[s, 1, 0]), 0)
                                                           for s in range(sched.n_slices) if sched.peer[s, 1, 0] >= 0}
    back_rem, back_add = inc.circuit_changes(cut, sched)
    assert not len(back_rem) and np.array_equal(back_add, rem)
    other = opera(8, 2, seed=2)
    moved_rem, moved_add = inc.circuit_changes(sched, other)
    moved = np.argwhere(sched.peer != other.peer)
    assert np.array_equal(moved_rem, moved) and np.array_equal(moved_add, moved)


def test_a_schedule_whose_slice_is_not_a_matching_is_not_repairable():
    """The repair's tie rule needs each slice's uplink to pair ToRs (a schedule's own checks
    make it so; a route set of one built around them is refused, either side)."""
    import copy as copying

    sched = opera(8, 2, seed=1)
    before = uro.compute(sched, uro.UroParams(k=2), engine="numba", workers=1)
    bad = copying.copy(sched)
    peer = sched.peer.copy()
    peer[0, 0, 0] = peer[0, 1, 0] if peer[0, 1, 0] != 0 else peer[0, 2, 0]     # two ToRs claim one peer
    object.__setattr__(bad, "peer", peer)
    msg = r"^a slice's uplink is not a matching of ToRs: the repair's tie rule does not hold$"
    with pytest.raises(inc.NotRepairable, match=msg):
        inc.repair(before, bad)
    broken = uro.UroRoutes(bad, before.params, *before.arrays)
    with pytest.raises(inc.NotRepairable, match=msg):
        inc.repair(broken, sched)


def test_the_warm_up_runs_the_kernel_with_the_argument_types_of_a_repair(monkeypatch):
    """In this process (`test_warm_kernel_loads_the_kernel_a_repair_of_any_size_uses` runs
    the checkout's warm-up in a Python of its own):
    the warm-up calls the repair's kernel, with the argument types a repair of another size,
    K and failure passes -- so the version it loads is the one that repair runs."""
    from numba import typeof

    from controller.routing import uro_incremental_kernel as kern

    seen = []
    real = kern.repair_chunk

    def spy(*args):
        seen.append(tuple(str(typeof(a)) for a in args))
        return real(*args)
    monkeypatch.setattr(kern, "repair_chunk", spy)
    inc.warm_kernel()
    warm = set(seen)
    seen.clear()
    sched = opera(24, 3, seed=5)
    inc.repair(uro.compute(sched, uro.UroParams(k=4, max_hops=3), engine="numba"),
               without(sched, Failed(tors=frozenset({2}))))
    assert warm and seen and set(seen) <= warm
