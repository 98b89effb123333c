"""The compiled fast paths of UCMP route assembly (issue 21 part 3: new routes after a
failure in <= 0.5 s) against the whole-array forms they replace, which stay as
``*_reference``: the same orders, levels and profiles, bit for bit."""

import numpy as np
from hypothesis import given, settings, strategies as st

from controller.routing import paths, ucmp, ucmp_kernel, ucmp_numpy
from controller.schedule.degrade import Failed, without

from strategies import small_schedules


@st.composite
def degraded(draw):
    sched = draw(small_schedules(max_tors=8, min_tors=3))
    N, d = sched.n_tors, sched.n_uplinks
    links = draw(st.sets(st.tuples(st.integers(0, N - 1), st.integers(0, d - 1)), max_size=3))
    tors = draw(st.sets(st.integers(0, N - 1), max_size=1))
    return without(sched, Failed(uplinks=frozenset(links), tors=frozenset(tors)))


@settings(max_examples=60, deadline=None)
@given(keys=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 3), st.integers(0, 1023)), max_size=60),
       presorted=st.booleans())
def test_member_order_is_the_stable_sort(keys, presorted):
    """Counting sort by group when each group's keys are in order, else the comparison
    sort: always ``np.argsort(kind="stable")`` of the member keys (ties keep input order)."""
    if presorted:   # groups in any order, each group's (kind, key) non-decreasing: the fast path
        keys = sorted(keys, key=lambda k: (k[1], k[2]))
    combined = np.array([(g * 4 + k) * 1024 + m for g, k, m in keys], np.int64)
    got = paths.member_order(combined, 21)
    assert np.array_equal(got, paths.member_order_reference(combined))
    assert np.array_equal(got, np.argsort(combined, kind="stable"))


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(0, 40), width=st.integers(1, 6), data=st.data())
def test_take_rows_is_fancy_indexing(rows, width, data):
    a = np.arange(rows * width, dtype=np.int16).reshape(rows, width)
    order = np.array(data.draw(st.lists(st.integers(0, max(rows - 1, 0)), max_size=50 if rows else 0)), np.int64)
    out = paths.take_rows(a, order)
    assert out.dtype == a.dtype and np.array_equal(out, a[order])


@settings(max_examples=25, deadline=None)
@given(sched=degraded(), h_max=st.sampled_from([None, 2, 4]), H=st.sampled_from([1, 2, 3]), data=st.data())
def test_table_levels_are_the_reference_levels(sched, h_max, H, data):
    """The compiled level lists of the value tables equal the whole-array ones
    (:func:`ucmp.levels_reference` of the arrival table), order included."""
    N = sched.n_tors
    dsts = np.array(sorted(data.draw(st.sets(st.integers(0, N - 1), min_size=1))), np.int64)
    params = ucmp.UcmpParams(h_max=h_max, hops_per_slice=H)
    Hs, n_cap = ucmp.hop_limits(sched, params)
    peer = np.ascontiguousarray(sched.peer, dtype=np.int32)
    got = ucmp_kernel.table_levels(peer, Hs, n_cap, dsts)
    for A in (ucmp_kernel.arrival_table(peer, Hs, n_cap, dsts), ucmp_numpy.arrival_table(sched, Hs, n_cap, dsts)):
        want = ucmp.levels_reference(A, dsts, N)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and np.array_equal(g, w)
