"""The compiled UCMP engine (numba kernels) against the NumPy reference engine.

Both must find the same group levels (hop count, latency, whether the tie cap bound)
and, where the cap does not bind, the same set of paths per level. Where it binds,
the compiled engine keeps the first ``max_parallel`` paths in (send slice, uplink)
order, hop by hop -- checked against the reference's complete set.
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from controller.errors import UroError
from controller.routing import ucmp, ucmp_kernel
from controller.schedule import Schedule, opera, round_robin

from strategies import small_schedules

#: every tie and every level (the engines' raw output); the default policy is checked below
ALL = {"ties": "all", "levels": "all"}


def levels_and_paths(sched: Schedule, params: ucmp.UcmpParams, engine: str, chunk: int) -> tuple[dict, dict]:
    """{(gid, hops): (latency, capped)} and {(gid, hops): [path, ...]} with a path as a
    tuple of (send slice, uplink, next ToR) hops."""
    levels, paths = {}, {}
    for ch in ucmp.group_chunks(sched, params, chunk=chunk, engine=engine):
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
    return levels, paths


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
def test_compiled_engine_cap_keeps_the_first_paths_in_send_order(sched, h_max, H, cap):
    full_lv, full_p = levels_and_paths(sched, ucmp.UcmpParams(**ALL, h_max=h_max, hops_per_slice=H, max_parallel=10_000),
                                       "numpy", chunk=128)
    capped = ucmp.UcmpParams(**ALL, h_max=h_max, hops_per_slice=H, max_parallel=cap)
    ref_lv, _ = levels_and_paths(sched, capped, "numpy", chunk=128)
    fast_lv, fast_p = levels_and_paths(sched, capped, "numba", chunk=3)
    assert fast_lv == ref_lv
    for key, ps in full_p.items():
        assert fast_lv[key][1] == (len(ps) > cap), f"level {key}: capped flag"
        assert fast_p[key] == sorted(ps)[:cap], f"level {key}"


def test_engines_agree_on_an_opera_schedule_with_ties_and_the_exact_hmax():
    sched = opera(24, 3, seed=5)
    params = ucmp.UcmpParams(**ALL, max_parallel=4)
    a = list(ucmp.group_chunks(sched, params, engine="numpy"))
    b = list(ucmp.group_chunks(sched, params, engine="numba", chunk=5))
    assert max(c.hmax_reached for c in a) == max(c.hmax_reached for c in b)
    assert any(c.bound_hit for c in a) == any(c.bound_hit for c in b)
    assert sum(c.lv_capped.sum() for c in a) == sum(c.lv_capped.sum() for c in b) > 0
    assert sum(c.p_lv.size for c in a) == sum(c.p_lv.size for c in b)


@settings(max_examples=40, deadline=None)
@given(sched=small_schedules(max_tors=10), h_max=st.integers(1, 5), H=st.integers(1, 3), chunk=st.integers(1, 4),
       ties=st.sampled_from(["last-hop", "all"]), levels=st.sampled_from(["envelope", "all"]),
       cap=st.integers(1, 4), search=st.integers(1, 6))
def test_engines_agree_under_every_ties_and_levels_policy(sched, h_max, H, chunk, ties, levels, cap, search):
    """Same levels, capped flags and paths from both engines, for the paper's policy (one
    path per last-hop ToR, envelope levels) and the old one, also where caps bind."""
    params = ucmp.UcmpParams(h_max=h_max, hops_per_slice=H, max_parallel=cap, tie_search=search, ties=ties,
                             levels=levels)
    ref_lv, ref_p = levels_and_paths(sched, params, "numpy", chunk=128)
    fast_lv, fast_p = levels_and_paths(sched, params, "numba", chunk=chunk)
    assert fast_lv == ref_lv
    assert fast_p == ref_p
    if ties == "last-hop":
        for key, ps in ref_p.items():
            lasts = [p[-2][2] if len(p) >= 2 else None for p in ps]
            assert len(set(lasts)) == len(lasts) <= cap, f"level {key}: one path per last-hop ToR"


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
    roomy = ucmp_kernel.levels_and_paths(peer, H, n_cap, 2, 5, cap=6, path_room=100_000)
    tight = ucmp_kernel.levels_and_paths(peer, H, n_cap, 2, 5, cap=6, path_room=1)
    assert roomy[6].size > 100
    for a, b in zip(roomy, tight):
        assert np.array_equal(a, b)
