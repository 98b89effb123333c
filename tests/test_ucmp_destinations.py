"""UCMP for a subset of destinations (``ucmp.compute(..., destinations=...)``) against the
full computation: every group towards a requested destination is the full one's (members,
kinds, hops, latencies, paths, and the flow sizes each member serves), every other group
is empty, with both engines, on healthy and degraded schedules (the daemon computes only
the source-routed destinations)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from controller.errors import UroError
from controller.routing import base, ucmp
from controller.routing.paths import PathRoutes
from controller.schedule.degrade import Failed, without

from strategies import small_schedules


def served(routes: PathRoutes, m: int) -> tuple[Fraction, Fraction | None] | None:
    """The flow sizes (x, UCMP Eq. 4) member ``m`` serves, as ``[lo, hi)`` in boundary
    values (hi None: unbounded), independent of how the buckets are numbered."""
    b = routes.buckets
    lo, hi = int(b.m_lo[m]), int(b.m_hi[m])
    if lo < 0:
        return None
    return (Fraction(0) if lo == 0 else b.boundaries[lo - 1],
            None if hi == len(b.boundaries) else b.boundaries[hi])


def group_view(routes: PathRoutes, t: int, src: int, dst: int) -> list:
    """One group: per member its kind, hops, latency, paths, buckets and the flow sizes they are."""
    b = routes.buckets
    return [(int(routes.m_kind[m]), int(routes.m_hops[m]), int(routes.m_latency[m]),
             [tuple(map(tuple, p)) for p in routes.member_paths(m)], (int(b.m_lo[m]), int(b.m_hi[m])),
             served(routes, m))
            for m in routes.members(src, dst, t)]


@st.composite
def cases(draw):
    sched = draw(small_schedules(max_tors=8, min_tors=3))
    N, d = sched.n_tors, sched.n_uplinks
    links = draw(st.sets(st.tuples(st.integers(0, N - 1), st.integers(0, d - 1)), max_size=3))
    tors = draw(st.sets(st.integers(0, N - 1), max_size=1))
    dsts = draw(st.lists(st.integers(0, N - 1), max_size=N + 2))   # repeats and any order
    return sched, Failed(uplinks=frozenset(links), tors=frozenset(tors)), dsts


@settings(max_examples=30, deadline=None)
@given(case=cases(), engine=st.sampled_from(["numba", "numpy"]), chunk=st.integers(1, 4),
       backups=st.integers(0, 2), relax=st.sampled_from([None, 0, 2]), h_max=st.sampled_from([None, 2, 4]))
def test_restricted_groups_are_the_full_ones(case, engine, chunk, backups, relax, h_max):
    sched, failed, dsts = case
    sched = without(sched, failed)
    params = ucmp.UcmpParams(h_max=h_max, hops_per_slice=2, engine=engine, backups=backups, relax_slices=relax)
    full = ucmp.compute(sched, params, chunk=chunk)
    part = ucmp.compute(sched, params, chunk=chunk, destinations=dsts)
    want = set(dsts)
    S, N = sched.n_slices, sched.n_tors
    for t in range(S):
        for src in range(N):
            for dst in range(N):
                if dst in want:
                    assert group_view(part, t, src, dst) == group_view(full, t, src, dst), (t, src, dst)
                else:
                    assert part.g_count[t, src, dst] == 0, (t, src, dst)
    assert part.buckets.boundaries == full.buckets.boundaries     # global: every group's break points
    assert part.m_kind.size == int(full.g_count[:, :, sorted(want)].sum())
    assert part.notes["destinations"] == sorted(want)
    assert "destinations" not in full.notes


@pytest.mark.parametrize("engine", ["numba", "numpy"])
def test_the_buckets_take_the_break_points_of_groups_not_computed(engine):
    """The groups towards ToR 0 alone break at x = 1 and 2 only; x = 1/2 is a break point
    of groups towards other ToRs, and the buckets (global, DSCP values) keep it, so the
    members towards 0 have the full computation's bucket numbers."""
    from controller.routing.envelope import envelope
    from controller.schedule import opera

    sched = opera(12, 3, seed=4)
    params = ucmp.UcmpParams(h_max=4, hops_per_slice=1, engine=engine)
    full = ucmp.compute(sched, params)
    part = ucmp.compute(sched, params, destinations=[0])
    own = set()
    for t in range(sched.n_slices):
        for src in range(1, 12):
            mem = [(int(part.m_hops[m]), int(part.m_latency[m])) for m in part.members(src, 0, t)
                   if part.m_kind[m] == 0]
            own |= {x for _, x in envelope(mem)[1:]}
            assert group_view(part, t, src, 0) == group_view(full, t, src, 0)
    assert own == {1, 2}
    assert part.buckets.boundaries == full.buckets.boundaries == (Fraction(1, 2), 1, 2)


def test_all_destinations_is_the_full_computation():
    from controller.schedule import opera

    sched = opera(8, 2, seed=3)
    params = ucmp.UcmpParams(h_max=4, hops_per_slice=2)
    full = ucmp.compute(sched, params)
    part = ucmp.compute(sched, params, destinations=range(8))
    for name in ("g_first", "g_count", "m_kind", "m_hops", "m_latency", "m_first", "m_count", "p_hops",
                 "p_latency", "hop_node", "hop_uplink", "hop_slice"):
        assert np.array_equal(getattr(part, name), getattr(full, name)), name
    assert part.buckets.boundaries == full.buckets.boundaries
    assert np.array_equal(part.buckets.m_lo, full.buckets.m_lo)
    assert np.array_equal(part.buckets.m_hi, full.buckets.m_hi)


def test_no_destination_gives_no_groups():
    from controller.schedule import opera

    sched, params = opera(6, 2, seed=1), ucmp.UcmpParams(h_max=3)
    r = ucmp.compute(sched, params, destinations=[])
    assert r.g_count.sum() == 0 and r.n_paths == 0
    assert r.buckets.boundaries == ucmp.compute(sched, params).buckets.boundaries


def test_a_destination_outside_the_schedule_is_refused():
    from controller.schedule import opera

    with pytest.raises(UroError, match=r"destination 6 is not a ToR of the schedule \(0\.\.5\)"):
        ucmp.compute(opera(6, 2, seed=1), ucmp.UcmpParams(h_max=3), destinations=[1, 6])


def test_registry_passes_destinations_only_to_algorithms_that_take_them():
    from controller.schedule import opera

    sched = opera(6, 2, seed=1)
    assert base.get("ucmp").by_destination
    r = base.get("ucmp").run(sched, ucmp.UcmpParams(h_max=3), destinations=[2])
    assert r.g_count[:, :, 2].sum() > 0 and r.g_count.sum() == r.g_count[:, :, 2].sum()
    ksp = base.get("ksp")
    assert not ksp.by_destination       # computes every destination, as before
    full = ksp.run(sched)
    assert np.array_equal(ksp.run(sched, destinations=[2]).g_count, full.g_count)


@settings(max_examples=15, deadline=None)
@given(sched=small_schedules(max_tors=8), engine=st.sampled_from(["numba", "numpy"]), h_max=st.sampled_from([None, 3]),
       H=st.integers(1, 3))
def test_level_lists_are_the_engines_levels_without_walks(sched, engine, h_max, H):
    """What the buckets take of the groups not computed: every level (hops, latency) the
    engines find (levels policy "all"), none more."""
    params = ucmp.UcmpParams(h_max=h_max, hops_per_slice=H, engine=engine, levels="all")
    want = set()
    for ch in ucmp.group_chunks(sched, params, engine=engine):
        want |= set(zip(ch.lv_gid.tolist(), ch.lv_hops.tolist(), ch.lv_latency.tolist()))
    dsts = np.arange(sched.n_tors)
    g, n, lat = ucmp.level_lists(sched, params, dsts, chunk=3)
    assert len(g) == len(want) and set(zip(g.tolist(), n.tolist(), lat.tolist())) == want
