"""The compiled fast paths of UCMP route assembly (what the daemon runs after a failure)
against their whole-array forms, kept as ``*_reference``: the same orders, levels and
profiles, bit for bit."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from controller.routing import envelope, paths, paths_kernel, ucmp, ucmp_kernel, ucmp_numpy
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


def _same_routes(a, b):
    for f in ("g_first", "g_count", "m_kind", "m_hops", "m_latency", "m_first", "m_count", "p_hops", "p_latency",
              "hop_node", "hop_uplink", "hop_slice"):
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), f


@settings(max_examples=40, deadline=None)
@given(sched=small_schedules(max_tors=5, min_tors=2), data=st.data())
def test_assemble_is_the_reference(sched, data):
    """Random raw paths (any group order, members split and interleaved, mixed hop
    counts inside a member): the compiled assembly gives the reference's arrays."""
    G = sched.n_slices * sched.n_tors ** 2
    P = data.draw(st.integers(0, 40))
    ints = lambda lo, hi, dt: np.array(data.draw(st.lists(st.integers(lo, hi), min_size=P, max_size=P)), dt)
    gid, key, kind = ints(0, G - 1, np.int64), ints(0, 3, np.int32), ints(0, 2, np.int8)
    hops, lat = ints(1, 4, np.int16), ints(1, 60, np.int64)
    W = data.draw(st.integers(1, 4))
    hn, hu, hs = (np.array(data.draw(st.lists(st.integers(-1, 50), min_size=P * W, max_size=P * W)), dt).reshape(P, W)
                  for dt in (np.int32, np.int16, np.int32))
    args = (sched, "x", {}, gid, key, kind, hops, lat, hn, hu, hs)
    _same_routes(paths.assemble(*args), paths.assemble_reference(*args))


def test_ucmp_routes_are_the_reference_assembly():
    """UCMP's own paths (groups listed destination chunk by chunk, backups after): the
    counting-sort path of the assembly gives the reference's arrays."""
    from controller.schedule import opera

    sched = without(opera(12, 3), Failed(uplinks=frozenset({(0, 1)})))
    got = {}
    orig = ucmp.assemble
    try:
        ucmp.assemble = lambda *a, **k: got.setdefault("a", (a, k)) and orig(*a, **k)
        routes = ucmp.compute(sched, ucmp.UcmpParams(h_max=4), destinations=range(1, 12, 3))
    finally:
        ucmp.assemble = orig
    a, k = got["a"]
    combined = (a[3].astype(np.int64) * 4 + a[5]) * 1024 + a[4]
    assert paths_kernel._counting_order(combined, sched.n_slices * 144)[1]      # the O(P) path is the one taken
    _same_routes(routes, paths.assemble_reference(*a, **k))


@settings(max_examples=25, deadline=None)
@given(sched=degraded(), h_max=st.sampled_from([None, 2, 4]), H=st.sampled_from([1, 2, 3]),
       chunk=st.integers(1, 4), data=st.data())
def test_other_profiles_are_the_reference_profiles(sched, h_max, H, chunk, data):
    """The distinct bucket profiles packed per chunk in the kernel equal those of the
    level lists (:func:`ucmp.other_profiles_reference`), row for row."""
    N = sched.n_tors
    dsts = np.array(sorted(data.draw(st.sets(st.integers(0, N - 1)))), np.int64)
    params = ucmp.UcmpParams(h_max=h_max, hops_per_slice=H, engine="numba")
    got = ucmp.other_profiles(sched, params, dsts, chunk)
    want = ucmp.other_profiles_reference(sched, params, dsts, chunk)
    assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)


@settings(max_examples=25, deadline=None)
@given(sched=degraded(), h_max=st.sampled_from([None, 2, 5]), H=st.sampled_from([1, 2, 3]), data=st.data())
def test_values_only_are_the_value_tables(sched, h_max, H, data):
    """The V-only fill gives the value tables' V, levels included (so the same fixed point)."""
    N = sched.n_tors
    dsts = np.array(sorted(data.draw(st.sets(st.integers(0, N - 1), min_size=1))), np.int64)
    Hs, n_cap = ucmp.hop_limits(sched, ucmp.UcmpParams(h_max=h_max, hops_per_slice=H))
    peer = np.ascontiguousarray(sched.peer, dtype=np.int32)
    V = ucmp_kernel.value_tables(peer, dsts, Hs, n_cap)[0]
    shape = (2, 2 * sched.n_slices + 1, Hs + 1, N, dsts.size)     # grown on the way, as the tables are
    got = ucmp_kernel.values_only_into(peer, dsts, Hs, n_cap, np.empty(shape, np.int16))
    assert got.shape == V.shape and np.array_equal(got, V)


@settings(max_examples=30, deadline=None)
@given(sched=degraded())
def test_meeting_table_is_the_reference(sched):
    for got, want in zip(paths.meeting_table(sched), paths.meeting_table_reference(sched)):
        assert got.dtype == want.dtype and np.array_equal(got, want)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), width=st.sampled_from([None, 4, 6]))
def test_group_profiles_are_the_reference(data, width):
    """Random member lists (consecutive groups, any kinds, repeated group runs, latencies
    with and without ties): the compiled profiles are the reference's, dtypes included."""
    runs = data.draw(st.lists(st.tuples(st.integers(0, 9), st.lists(st.tuples(st.integers(0, 2), st.integers(1, 50)),
                                                                     min_size=1, max_size=4)), max_size=12))
    g = np.array([gid for gid, ms in runs for _ in ms], np.int64)
    kind = np.array([k for _, ms in runs for k, _ in ms], np.int8)
    lat = np.array([x for _, ms in runs for _, x in ms], np.int32)
    hops = np.array([i + 1 for _, ms in runs for i in range(len(ms))], np.int16)
    try:
        want = ucmp.group_profiles_reference(g, hops, lat, kind, width)
    except IndexError:      # a group wider than the width asked for: refused by both
        with pytest.raises(IndexError):
            ucmp.group_profiles(g, hops, lat, kind, width)
        return
    got = ucmp.group_profiles(g, hops, lat, kind, width)
    for x, y in zip(got, want):
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_unique_rows_is_the_bytewise_unique(data):
    rows = data.draw(st.lists(st.lists(st.integers(-1, 3), min_size=4, max_size=4), max_size=30))
    prof = np.array(rows, np.int32).reshape(len(rows), 4)
    uniq, inv = envelope.unique_rows(prof)
    v = np.ascontiguousarray(prof).view(np.dtype((np.void, 16))).ravel()
    _, first, inv_ref = np.unique(v, return_index=True, return_inverse=True)
    assert np.array_equal(uniq, prof[first]) and np.array_equal(inv, inv_ref.ravel())
