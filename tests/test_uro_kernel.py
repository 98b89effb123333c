"""The compiled URO engine (numba, per destination chunk) against the NumPy reference.

Not only equally good routes: the very same tables, entry for entry (arrival, hops, every
alternative's uplink and departure slice), on random schedules -- complete and degraded
by failures -- with and without hop bounds and for every K; and the compact artifact the
compiled engine writes chunk by chunk is byte for byte the one written from the
reference's routes.
"""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from controller.errors import UroError
from controller.routing import base, uro
from controller.schedule import opera, round_robin
from controller.schedule.degrade import Failed, without
from controller.tables import artifacts

from strategies import small_schedules

FIELDS = ("arrival", "hops", "alt_uplink", "alt_dep")


def assert_same_routes(a, b) -> None:
    for f in FIELDS:
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and x.shape == y.shape, f
        bad = np.argwhere(x != y)
        assert bad.size == 0, f"{f} differs at {bad[:3].tolist()}: {x[tuple(bad[0])]} vs {y[tuple(bad[0])]}"


@st.composite
def degraded(draw, sched):
    n, d = sched.n_tors, sched.n_uplinks
    ups = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, d - 1)), max_size=3))
    tors = draw(st.sets(st.integers(0, n - 1), max_size=1))
    return without(sched, Failed(uplinks=frozenset(ups), tors=frozenset(tors)))


@settings(max_examples=60, deadline=None)
@given(data=st.data(), k=st.integers(1, 10), max_hops=st.one_of(st.none(), st.integers(1, 5)),
       per_slice=st.one_of(st.none(), st.integers(1, 3)), chunk=st.integers(1, 5), fail=st.booleans())
def test_compiled_engine_gives_the_reference_tables(data, k, max_hops, per_slice, chunk, fail):
    sched = data.draw(small_schedules(max_tors=11))
    if fail:
        sched = data.draw(degraded(sched))
    params = uro.UroParams(k=k, max_hops=max_hops, hops_per_slice=per_slice)
    assert_same_routes(uro.compute(sched, params, engine="numba", chunk=chunk, workers=2),
                       uro.compute_numpy(sched, params))


def test_opera_with_ties_and_every_alternative():
    sched = opera(40, 4, seed=3)
    for params in (uro.UroParams(k=10), uro.UroParams(k=4, max_hops=2), uro.UroParams(k=3, hops_per_slice=1)):
        assert_same_routes(uro.compute(sched, params, engine="numba"), uro.compute_numpy(sched, params))


def test_streamed_artifact_is_the_one_written_from_the_reference(tmp_path: Path):
    sched = without(opera(24, 3, seed=1), Failed(uplinks=frozenset({(2, 1)})))
    params = uro.UroParams(k=4, max_hops=4)
    ref = tmp_path / "ref.uro"
    artifacts.write(uro.compute_numpy(sched, params), ref)
    new = tmp_path / "new.uro"
    new.mkdir()
    man = artifacts.write_uro_streamed(sched, params, new, chunk=5)
    for f in sorted(ref.iterdir()):
        if f.suffix == ".npy":
            assert f.read_bytes() == (new / f.name).read_bytes(), f.name
    assert man["arrays"] == artifacts.open(ref).manifest["arrays"]
    art = artifacts.open(new, sched)
    assert art.params_dict() == artifacts.open(ref).params_dict()


def test_engine_choice(monkeypatch):
    monkeypatch.setattr(uro, "_kernels_warm", False)     # a process that has not loaded the kernels
    assert uro.resolve_engine("auto", 6, 108) == "numpy"  # small: NumPy is done before numba loads
    assert uro.resolve_engine("auto", 32, 1024) == "numba"
    assert uro.resolve_engine("auto", 200, 1024) == "numpy"
    with pytest.raises(UroError, match="^unknown URO engine 'fast'; choose one of: auto, numba, numpy$"):
        uro.resolve_engine("fast", 6, 108)
    with pytest.raises(UroError, match="at most 127 uplinks"):
        uro.resolve_engine("numba", 200, 1024)
    # the edges: int8 uplink columns hold 127 uplinks; the compiled kernels from 192 ToRs on
    assert (uro.resolve_engine("auto", 127, 1024), uro.resolve_engine("auto", 128, 1024)) == ("numba", "numpy")
    assert (uro.resolve_engine("auto", 6, 192), uro.resolve_engine("auto", 6, 191)) == ("numba", "numpy")
    assert uro.resolve_engine("numba", 127, 8) == "numba" and uro.resolve_engine("numpy", 200, 1024) == "numpy"
    with pytest.raises(UroError, match="^the numba URO engine takes at most 127 uplinks, the schedule has 128$"):
        uro.resolve_engine("numba", 128, 1024)


def test_warm_kernels_make_auto_compiled_at_any_size_with_the_same_routes(monkeypatch):
    """After warm_kernels (the daemon calls it at start: controller.daemon.plan.warm) "auto"
    routes a small schedule with the compiled kernels too -- the same routes as NumPy."""
    monkeypatch.setattr(uro, "_kernels_warm", False)
    sched = round_robin(12, 3)
    params = uro.UroParams(k=3, max_hops=4)
    before = uro.compute(sched, params)
    assert uro.resolve_engine("auto", 3, 12) == "numpy"
    assert base.get("uro").warm is uro.warm_kernels
    uro.warm_kernels()
    assert uro.resolve_engine("auto", 3, 12) == "numba" and uro.resolve_engine("auto", 200, 1024) == "numpy"
    assert_same_routes(uro.compute(sched, params), before)


def test_departures_are_int16_up_to_16384_slices():
    """The latest departure of a cycle of S slices is 2 S - 2 (arrival slice S - 1, a wait
    below one cycle): int16 holds it up to S = 16384."""
    from controller.routing.uro_labels import dep_dtype

    assert [dep_dtype(s) for s in (1, 6, 32, 16384, 16385, 40000)] == [np.int16] * 4 + [np.int32] * 2
    assert 2 * 16384 - 2 <= np.iinfo(np.int16).max < 2 * 16385 - 2


def test_int32_departures_give_the_same_tables_in_every_engine_and_the_artifact(monkeypatch, tmp_path: Path):
    """Every producer of a route set follows dep_dtype: the compiled engine, the NumPy
    reference, an artifact read whole and the repair. With int32 forced (a cycle of more
    than 16384 slices) the tables are the same numbers."""
    from controller.routing import uro_chunks, uro_incremental

    sched = opera(60, 4, seed=2)       # slice x N x N above 2**15: int16 index arithmetic would overflow
    params = uro.UroParams(k=5, max_hops=4)
    cut = without(sched, Failed(uplinks=frozenset({(3, 1)})))
    small = [uro.compute(sched, params, engine="numba"), uro.compute_numpy(sched, params)]
    assert_same_routes(*small)
    artifacts.write(small[1], tmp_path / "a.uro")
    small.append(artifacts.open(tmp_path / "a.uro", sched).route_set())
    small_rep = uro_incremental.repair(small[0], cut).routes
    assert {r.alt_dep.dtype for r in small + [small_rep]} == {np.dtype(np.int16)}
    assert_same_routes(small_rep, uro.compute(cut, params, engine="numba"))
    for mod in (uro, uro_chunks, artifacts):
        monkeypatch.setattr(mod, "dep_dtype", lambda s: np.int32)
    wide = [uro.compute(sched, params, engine="numba"), uro.compute_numpy(sched, params),
            artifacts.open(tmp_path / "a.uro", sched).route_set()]
    wide_rep = uro_incremental.repair(wide[0], cut).routes
    for a, b in zip(small + [small_rep], wide + [wide_rep]):
        assert b.alt_dep.dtype == np.int32
        np.testing.assert_array_equal(a.alt_dep, b.alt_dep)
        for f in ("arrival", "hops", "alt_uplink"):
            np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
