"""The compiled UCMP engine (numba kernels) against the NumPy reference engine.

Both must give identical tables: the same group levels (hop count, latency, whether a
cap bound), the same paths per level in the same order, and the same dropped-level
count, also where ``--tie-search`` or ``--max-parallel`` binds: both keep the first
tied walks in (send slice, uplink) order, hop by hop -- checked against the
reference's complete set too.
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from controller.errors import UroError
from controller.routing import envelope, ucmp, ucmp_kernel, ucmp_policy
from controller.schedule import Schedule, opera, round_robin

from strategies import small_schedules

#: every tie and every level (the engines' raw output); the default policy is checked below
ALL = {"ties": "all", "levels": "all"}


def groups(sched: Schedule, params: ucmp.UcmpParams, engine: str, chunk: int) -> tuple[dict, dict, int]:
    """{(gid, hops): (latency, capped)}, {(gid, hops): [path, ...]} with a path as a tuple
    of (send slice, uplink, next ToR) hops, and the number of levels the levels policy
    dropped."""
    levels, paths, dropped = {}, {}, 0
    for ch in ucmp.group_chunks(sched, params, chunk=chunk, engine=engine):
        dropped += ch.lv_dropped
        for i in range(ch.lv_gid.size):
            key = (int(ch.lv_gid[i]), int(ch.lv_hops[i]))
            assert key not in levels, f"level {key} twice"
            levels[key] = (int(ch.lv_latency[i]), bool(ch.lv_capped[i]))
            paths[key] = []
        for p in range(ch.p_lv.size):
            lv = int(ch.p_lv[p])
            key = (int(ch.lv_gid[lv]), int(ch.lv_hops[lv]))
            n = key[1]
            paths[key].append(tuple(
                (int(ch.hop_slice[p, i]), int(ch.hop_uplink[p, i]), int(ch.hop_node[p, i])) for i in range(n)))
            assert (ch.hop_node[p, n:] == -1).all(), "hops past the level's hop count"
    return levels, paths, dropped


def levels_and_paths(sched: Schedule, params: ucmp.UcmpParams, engine: str, chunk: int) -> tuple[dict, dict]:
    """The levels and paths of :func:`groups`."""
    return groups(sched, params, engine, chunk)[:2]


@settings(max_examples=40, deadline=None)
@given(sched=small_schedules(max_tors=10), h_max=st.integers(1, 5), H=st.integers(1, 3),
       chunk=st.integers(1, 4))
def test_compiled_engine_finds_the_reference_levels_and_paths(sched, h_max, H, chunk):
    params = ucmp.UcmpParams(**ALL, h_max=h_max, hops_per_slice=H, max_parallel=10_000)
    ref_lv, ref_p = levels_and_paths(sched, params, "numpy", chunk=128)
    fast_lv, fast_p = levels_and_paths(sched, params, "numba", chunk=chunk)
    assert fast_lv == ref_lv
    for key, ps in ref_p.items():
        assert len(set(ps)) == len(ps), f"level {key}: a path twice in the reference"
        # both list a level's paths in (send slice, uplink) order, hop by hop
        assert fast_p[key] == ps == sorted(ps), f"level {key}"


@settings(max_examples=30, deadline=None)
@given(sched=small_schedules(max_tors=10), h_max=st.integers(2, 5), H=st.integers(1, 3), cap=st.integers(1, 3))
@example(sched=opera(9, 2, seed=0), h_max=3, H=2, cap=2)
def test_compiled_engine_cap_keeps_the_first_paths_in_send_order(sched, h_max, H, cap):
    full_lv, full_p = levels_and_paths(sched, ucmp.UcmpParams(**ALL, h_max=h_max, hops_per_slice=H, max_parallel=10_000),
                                       "numpy", chunk=128)
    capped = ucmp.UcmpParams(**ALL, h_max=h_max, hops_per_slice=H, max_parallel=cap)
    ref_lv, ref_p = levels_and_paths(sched, capped, "numpy", chunk=128)
    fast_lv, fast_p = levels_and_paths(sched, capped, "numba", chunk=3)
    assert fast_lv == ref_lv
    for key, ps in full_p.items():
        assert fast_lv[key][1] == (len(ps) > cap), f"level {key}: capped flag"
        assert fast_p[key] == ref_p[key] == sorted(ps)[:cap], f"level {key}"


def test_engines_agree_on_an_opera_schedule_with_ties_and_the_exact_hmax():
    sched = opera(24, 3, seed=5)
    params = ucmp.UcmpParams(**ALL, max_parallel=4)
    a = list(ucmp.group_chunks(sched, params, engine="numpy"))
    b = list(ucmp.group_chunks(sched, params, engine="numba", chunk=5))
    assert max(c.hmax_reached for c in a) == max(c.hmax_reached for c in b)
    assert any(c.bound_hit for c in a) == any(c.bound_hit for c in b)
    assert sum(c.lv_capped.sum() for c in a) == sum(c.lv_capped.sum() for c in b) > 0
    assert sum(c.p_lv.size for c in a) == sum(c.p_lv.size for c in b)


@settings(max_examples=60, deadline=None)
@given(sched=small_schedules(max_tors=10), h_max=st.integers(1, 5), H=st.integers(1, 3), chunk=st.integers(1, 4),
       ties=st.sampled_from(["last-hop", "all"]), levels=st.sampled_from(["envelope", "all"]),
       cap=st.integers(1, 3), search=st.integers(1, 4))
@example(sched=opera(9, 2, seed=0), h_max=3, H=2, chunk=2, ties="all", levels="all", cap=2, search=1)
@example(sched=opera(9, 2, seed=0), h_max=4, H=2, chunk=3, ties="last-hop", levels="envelope", cap=1, search=2)
def test_engines_agree_under_every_ties_and_levels_policy(sched, h_max, H, chunk, ties, levels, cap, search):
    """Identical levels, capped flags, paths (in order) and dropped-level counts from both
    engines, for the paper's policy (one path per last-hop ToR, envelope levels) and the
    old one, also where ``--tie-search`` and ``--max-parallel`` bind (small caps): both
    keep the first tied walks in (send slice, uplink) order, hop by hop (docs/ucmp.md)."""
    params = ucmp.UcmpParams(h_max=h_max, hops_per_slice=H, max_parallel=cap, tie_search=search, ties=ties,
                             levels=levels)
    ref_lv, ref_p, ref_drop = groups(sched, params, "numpy", chunk=128)
    fast_lv, fast_p, fast_drop = groups(sched, params, "numba", chunk=chunk)
    assert fast_lv == ref_lv
    assert fast_p == ref_p
    assert fast_drop == ref_drop
    if ties == "last-hop":
        for key, ps in ref_p.items():
            lasts = [p[-2][2] if len(p) >= 2 else None for p in ps]
            assert len(set(lasts)) == len(lasts) <= cap, f"level {key}: one path per last-hop ToR"


@pytest.mark.parametrize("ties,cap,search", [("last-hop", 2, 3), ("last-hop", 1, 2), ("all", 2, 2)])
def test_engines_agree_where_the_tie_search_binds_on_opera_schedules(ties, cap, search):
    """Opera schedules with many tied walks per level: the tie search (or the path cap,
    ``--ties all``) cuts many levels, and both engines keep the same walks there."""
    bound = 0
    for sched in (opera(9, 2, seed=0), opera(24, 3, seed=5)):
        params = ucmp.UcmpParams(max_parallel=cap, tie_search=search, ties=ties)
        ref = groups(sched, params, "numpy", chunk=128)
        assert groups(sched, params, "numba", chunk=5) == ref
        bound += sum(capped for _, capped in ref[0].values())
    assert bound > 0, "a cap binds somewhere"


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_worker_threads_do_not_change_the_result(workers):
    sched = round_robin(20, 2)
    params = ucmp.UcmpParams(**ALL, max_parallel=3)
    one = ucmp.compute(sched, dataclasses.replace(params, engine="numba", workers=1), chunk=3)
    many = ucmp.compute(sched, dataclasses.replace(params, engine="numba", workers=workers), chunk=3)
    for field in ("g_first", "g_count", "m_kind", "m_latency", "m_count", "hop_node", "hop_uplink", "hop_slice"):
        assert np.array_equal(getattr(one, field), getattr(many, field)), field


def test_unknown_engine_is_a_user_error():
    with pytest.raises(UroError, match="unknown UCMP engine 'fast'"):
        list(ucmp.group_chunks(round_robin(6, 1), ucmp.UcmpParams(**ALL), engine="fast"))


def test_full_path_arrays_grow_without_losing_or_repeating_walks():
    """Output arrays of 1 path double again and again (a destination interrupted by a
    full array is walked again): the result equals one walk into roomy arrays."""
    sched = opera(16, 2, seed=3)
    peer = np.ascontiguousarray(sched.peer, dtype=np.int32)
    H, n_cap = ucmp.hop_limits(sched, ucmp.UcmpParams(**ALL))
    roomy = ucmp_kernel.levels_and_paths(peer, H, n_cap, np.arange(2, 7), cap=6, path_room=100_000)
    tight = ucmp_kernel.levels_and_paths(peer, H, n_cap, np.arange(2, 7), cap=6, path_room=1)
    assert roomy[6].size > 100
    for a, b in zip(roomy, tight):
        assert np.array_equal(a, b)


def _poison_buffers(byte: int) -> None:
    """Fill every buffer this thread's kernel calls reuse with ``byte``."""
    for buf in vars(ucmp_kernel._WORK).values():
        buf.view(np.uint8)[:] = byte


@pytest.mark.parametrize("reuse", [False, True])
def test_reused_buffers_do_not_leak_into_the_next_chunk(reuse):
    """Each thread reuses its value tables and walk arrays from call to call; a chunk's
    result must not depend on what they held: the same chunk walked after buffers full of
    0x00 and of 0xA5 bytes (after a larger schedule's chunk sized them) is identical."""
    big, small = opera(48, 4, seed=1), opera(16, 2, seed=3)
    outs = []
    for byte in (0x00, 0xA5):
        for sched, c0, C in ((big, 3, 9), (small, 2, 5)):
            peer = np.ascontiguousarray(sched.peer, dtype=np.int32)
            H, n_cap = ucmp.hop_limits(sched, ucmp.UcmpParams())
            _poison_buffers(byte)
            out = ucmp_kernel.levels_and_paths(peer, H, n_cap, np.arange(c0, c0 + C), 64, last_hops=8, envelope=True,
                                               reuse=reuse)
            outs.append([np.array(x, copy=True) for x in out])
    assert outs[0][6].size > 1000 and outs[1][6].size > 10
    for a, b in ((outs[0], outs[2]), (outs[1], outs[3])):
        _assert_same_chunk(a, b)


def _walks_then_policy(peer, H, n_cap, c0, C, cap, search, levels="all"):
    """The compiled engine before the policies moved into the walk: every tied walk of
    every level up to the tie search, then :func:`ucmp_policy.apply` (the reference of the
    in-walk form), with the number of levels dropped when ``levels="envelope"``."""
    out = ucmp_kernel.levels_and_paths(peer, H, n_cap, np.arange(c0, c0 + C), search)
    kept = ucmp_policy.apply(out, "last-hop", levels, cap, peer.shape[1])
    return kept if levels == "all" else (*kept, out[0].size - kept[0].size)


def _assert_same_chunk(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        assert np.array_equal(np.asarray(x), np.asarray(y)), f"field {i}"


@settings(max_examples=80, deadline=None)
@given(sched=small_schedules(max_tors=12), h_max=st.integers(1, 6), H=st.integers(1, 3), cap=st.integers(1, 4),
       search=st.integers(1, 8), c0=st.integers(0, 11), C=st.integers(1, 5),
       levels=st.sampled_from(["envelope", "all"]))
def test_policies_in_the_walk_equal_the_policies_after_it(sched, h_max, H, cap, search, c0, C, levels):
    """Same levels, capped flags, kept paths (in order) and dropped-level count whether
    the compiled engine applies the last-hop ties and envelope levels policies while it
    walks or after enumerating every tied walk of every level up to the tie search, also
    where the tie search or the last-hop cap binds."""
    N = sched.n_tors
    c0 = min(c0, N - 1)
    C = min(C, N - c0)
    peer = np.ascontiguousarray(sched.peer, dtype=np.int32)
    search = max(cap, search)
    ref = _walks_then_policy(peer, H, h_max, c0, C, cap, search, levels)
    fast = ucmp_kernel.levels_and_paths(peer, H, h_max, np.arange(c0, c0 + C), search, last_hops=cap,
                                        envelope=levels == "envelope")
    _assert_same_chunk(fast, ref)


@settings(max_examples=300, deadline=None)
@given(members=st.lists(st.tuples(st.integers(1, 6), st.integers(0, 40)), min_size=1, max_size=8))
def test_compiled_envelope_test_equals_the_exact_one(members):
    """:func:`ucmp_kernel.on_envelope` (integer bounds) == :func:`envelope.on_envelope`
    (the envelope's break points in fractions), collinear members included."""
    hops, lat = [], []
    for n, dl in sorted(members):   # hops ascending, latency strictly descending: a group's levels
        if hops and n == hops[-1]:
            continue
        hops.append(n)
    lat = list(np.cumsum([dl + 1 for _, dl in members[:len(hops)]])[::-1] + 5)
    out = np.empty(len(hops), np.bool_)
    ucmp_kernel.on_envelope(np.array(hops, np.int64), np.array(lat, np.int64), len(hops), out)
    assert out.tolist() == envelope.on_envelope(list(zip(hops, (int(x) for x in lat))))


@pytest.mark.parametrize("cap,search", [(8, 64), (2, 3), (8, 8), (1, 64)])
def test_policies_in_the_walk_on_opera_schedules_with_many_ties(cap, search):
    """Opera schedules with thousands of tied walks, where both the tie search and the
    last-hop cap bind on some levels (the cases the default settings meet at scale)."""
    bound = dropped = 0
    for sched in (opera(48, 4, seed=1), opera(96, 12, seed=3)):
        H, n_cap = ucmp.hop_limits(sched, ucmp.UcmpParams())
        peer = np.ascontiguousarray(sched.peer, dtype=np.int32)
        ref = _walks_then_policy(peer, H, n_cap, 5, 7, cap, search, "envelope")
        fast = ucmp_kernel.levels_and_paths(peer, H, n_cap, np.arange(5, 12), search, last_hops=cap, path_room=64,
                                            envelope=True)
        assert ref[6].size > 5000
        bound += int(ref[5].sum())
        dropped += ref[-1]
        _assert_same_chunk(fast, ref)
    assert bound > 0, "a cap binds somewhere"
    assert dropped > 0, "levels off the envelope"


@settings(max_examples=60, deadline=None)
@given(data=st.data(), H=st.integers(1, 3), k=st.integers(1, 4), fail=st.booleans(), relax=st.booleans())
def test_compiled_two_hop_search_equals_the_reference(data, H, k, fail, relax):
    """Backup / relaxed 2-hop paths (§5.3, §4.3): the compiled search, which visits the
    intermediates in meeting order and stops early, keeps the same k paths (fastest, ties
    by intermediate) as the NumPy reference that scans every ToR, also with failed
    uplinks / ToRs and a delivery limit."""
    from controller.schedule.degrade import Failed, without

    sched = data.draw(small_schedules(max_tors=12))
    if fail:
        n, d = sched.n_tors, sched.n_uplinks
        ups = data.draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, d - 1)), max_size=3))
        tors = data.draw(st.sets(st.integers(0, n - 1), max_size=1))
        sched = without(sched, Failed(uplinks=frozenset(ups), tors=frozenset(tors)))
    S, N = sched.n_slices, sched.n_tors
    t = np.repeat(np.arange(S), N * N)
    src = np.tile(np.repeat(np.arange(N), N), S)
    dst = np.tile(np.arange(N), S * N)
    sel = src != dst
    groups = (t[sel], src[sel], dst[sel], np.flatnonzero(sel))
    lim = None
    if relax:
        lim = groups[0] + np.asarray(data.draw(st.lists(st.integers(0, 2 * S), min_size=int(sel.sum()),
                                                        max_size=int(sel.sum()))), np.int64)
    meet = ucmp.meeting_tables(sched)
    ref = ucmp._two_hop_best_k(sched, groups, H, 2, k, lim, meet, "numpy")
    fast = ucmp._two_hop_best_k(sched, groups, H, 2, k, lim, meet, "numba")
    assert ref[0].size > 0 or fail or relax or N < 3  # the test compares something
    for i, (x, y) in enumerate(zip(fast, ref)):
        assert np.array_equal(np.asarray(x), np.asarray(y)), f"field {i}"


def test_policy_helpers_on_no_path_one_path_and_narrow_inputs():
    """ucmp_policy.last_hops / first_per_key at the edges: no path, a single path, and
    int32 inputs (the results are int64 whatever the inputs' width)."""
    lv_n, lv_src = np.array([1, 3], np.int32), np.array([4, 5], np.int32)
    hop_node = np.array([[7, 8, 9], [2, -1, -1], [6, 3, 9]], np.int32)
    got = ucmp_policy.last_hops(lv_n, lv_src, np.array([1, 0, 1]), hop_node)
    assert got.dtype == np.int64 and got.tolist() == [8, 4, 3]
    one = ucmp_policy.last_hops(lv_n, lv_src, np.array([0]), hop_node[1:2])
    assert one.dtype == np.int64 and one.tolist() == [4]
    none = ucmp_policy.last_hops(lv_n, lv_src, np.zeros(0, np.int64), np.zeros((0, 3), np.int32))
    assert none.dtype == np.int64 and none.shape == (0,)
    keep, lost = ucmp_policy.first_per_key(np.array([0]), np.array([5]), 1)
    assert keep.dtype == bool and keep.tolist() == [True] and lost.shape == (0,)
    keep, lost = ucmp_policy.first_per_key(np.zeros(0, np.int64), np.zeros(0, np.int64), 1)
    assert keep.dtype == bool and keep.shape == (0,) and lost.dtype == np.int64 and lost.shape == (0,)
