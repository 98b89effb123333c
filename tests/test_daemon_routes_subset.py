"""The daemon computes source routes towards the source-routed destinations only:
every group it reads is the full computation's, the rest are empty;
per-hop routes, host flow-aging rules and the ToR entries follow."""

import dataclasses

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from controller.daemon.config import load
from controller.daemon.plan import compute_routes
from controller.routing import base, ucmp_incremental, uro_incremental
from controller.schedule.degrade import Failed, without

from daemon_fakes import net_toml, tor_switch
from test_ucmp_destinations import group_view

SR = (1, 5, 6)


def _routing(engine: str, sr=SR) -> str:
    return (f"source_routed = {list(sr)}\n[routing.per_hop]\nalgo = \"uro\"\nk = 3\nmax_hops = 4\n"
            f"[routing.source]\nalgo = \"ucmp\"\nh_max = 4\nengine = \"{engine}\"")


@pytest.mark.parametrize("engine", ["numba", "numpy"])
@pytest.mark.parametrize("failed", [Failed(), Failed(uplinks=frozenset({(0, 1), (3, 0)})),
                                    Failed(tors=frozenset({2}))])
def test_source_routes_of_the_source_routed_destinations_are_the_full_ones(tmp_path, engine, failed):
    cfg = load(net_toml(tmp_path, [tor_switch(0)], routing=_routing(engine)))
    from controller.daemon.plan import build_schedule

    sched = build_schedule(cfg)
    r = compute_routes(cfg, sched, failed, 3)
    rsched = without(sched, failed)
    alg = base.get("ucmp")
    full = alg.run(rsched, alg.params({"h_max": 4, "engine": engine, "hops_per_slice": sched.timing.hops_per_slice}))
    S, N = rsched.n_slices, rsched.n_tors
    assert r.source_routed == SR and r.source.notes["destinations"] == list(SR)
    for t in range(S):
        for src in range(N):
            for dst in range(N):
                if dst in SR:
                    assert group_view(r.source, t, src, dst) == group_view(full, t, src, dst), (t, src, dst)
                else:
                    assert r.source.g_count[t, src, dst] == 0
    # per-hop routes are whole, as before
    ph = base.get("uro").run(rsched, base.get("uro").params({"k": 3, "max_hops": 4,
                                                             "hops_per_slice": sched.timing.hops_per_slice}))
    for name in ("arrival", "hops", "alt_uplink", "alt_dep"):
        assert (getattr(r.per_hop, name) == getattr(ph, name)).all(), name


def test_all_source_routed_is_the_full_computation(tmp_path):
    cfg = load(net_toml(tmp_path, [tor_switch(0)], routing=_routing("numpy").replace(
        f"source_routed = {list(SR)}", 'source_routed = "all"')))
    from controller.daemon.plan import build_schedule

    sched = build_schedule(cfg)
    r = compute_routes(cfg, sched, Failed(uplinks=frozenset({(1, 0)})), 2)
    assert (r.source.g_count > 0).sum() > 0
    assert "destinations" in r.source.notes and r.source.notes["destinations"] == list(range(8))
    full = base.get("ucmp").run(without(sched, Failed(uplinks=frozenset({(1, 0)}))), base.get("ucmp").params(
        {"h_max": 4, "engine": "numpy", "hops_per_slice": sched.timing.hops_per_slice}))
    assert r.source.buckets.boundaries == full.buckets.boundaries
    assert (r.source.g_count == full.g_count).all()


# ---- the daemon's cache of computed routes by failed set ---------------------------------------------
@pytest.fixture
def ctl(tmp_path):
    from controller.daemon.controller import Controller
    from daemon_fakes import FakeSwitch, make_backend_for
    from test_daemon_controller import Clock, quiet

    sws = {"127.0.0.1:50000": FakeSwitch("tor0"), "127.0.0.1:50001": FakeSwitch("tor1")}
    clock = Clock()
    c = Controller(load(net_toml(tmp_path, [tor_switch(0), tor_switch(1)])), backend_for=make_backend_for(sws),
                   log=quiet(), clock=clock)
    c.start()
    yield c, clock
    c.shutdown()


def _change(ctl, clock, op, target):
    from controller.daemon.changes import Change

    c = ctl.submit(Change(op, "uplink", target, detected=clock.t))
    ctl.handle_jobs()
    assert c.report["generation_s"] is not None, c.report
    return ctl.routes


def test_a_recovery_reuses_the_routes_of_the_failed_set_it_returns_to(ctl, monkeypatch):
    from controller.agent.diff import same_state
    import controller.daemon.plan as plan
    from test_daemon_controller import active_routes

    ctl, clock = ctl
    start = ctl.routes
    calls = []
    real = plan.compute_routes
    monkeypatch.setattr(plan, "compute_routes", lambda *a, **k: calls.append(a[2]) or real(*a, **k))
    down = _change(ctl, clock, "fail", (0, 1))
    assert calls == [Failed(uplinks=frozenset({(0, 1)}))] and down.per_hop is not start.per_hop
    back = _change(ctl, clock, "recover", (0, 1))
    assert len(calls) == 1, "the empty failed set's routes were recomputed"
    assert back.per_hop is start.per_hop and back.source is start.source and back.failed == Failed()
    assert back.version == down.version + 1 > start.version
    assert back.notes == (f"reused the routes of version {start.version}",)
    again = _change(ctl, clock, "fail", (0, 1))
    assert len(calls) == 1 and again.per_hop is down.per_hop and again.version == back.version + 1
    for name in ("tor0", "tor1"):       # the switches run the reused routes under the new version
        g, part = active_routes(ctl, name)
        assert same_state(part, ctl.agents[name].role.routes(again, g))
    other = _change(ctl, clock, "fail", (1, 0))       # a new failed set: computed
    assert len(calls) == 2 and other.failed.uplinks == {(0, 1), (1, 0)}


def test_a_recovery_to_the_routes_a_failure_was_repaired_from_takes_the_failures_cells(ctl, monkeypatch):
    """Back to the routes before a failure, the changed cells are the failure's repair's (a
    cell differs whichever way round two route sets are compared): no route sets compared,
    the same cells as the comparison's. The failure again (its routes cached) takes them too."""
    import dataclasses

    import numpy as np

    import controller.daemon.plan as plan

    ctl, clock = ctl
    made = []                                 # the routes as computed, their delta not yet dropped
    real_routes = ctl.route_cache.routes
    monkeypatch.setattr(ctl.route_cache, "routes", lambda *a, **k: made.append(real_routes(*a, **k)) or made[-1])
    compared = []
    real = plan.delta_between
    monkeypatch.setattr(plan, "delta_between", lambda *a: compared.append(a) or real(*a))
    start = ctl.routes
    _change(ctl, clock, "fail", (0, 1))
    _change(ctl, clock, "recover", (0, 1))
    _change(ctl, clock, "fail", (0, 1))
    down, back, again = made
    assert compared == []
    assert down.delta.base.per_hop is start.per_hop and down.delta.per_hop_cells
    assert back.per_hop is start.per_hop and again.per_hop is down.per_hop
    for d, a, b in ((back.delta, down, back), (again.delta, back, again)):
        assert d.base.version == a.version and d.base.delta is None
        want = real(dataclasses.replace(a, delta=None), b)
        assert d.per_hop_cells.keys() == want.per_hop_cells.keys()
        for tor, cells in want.per_hop_cells.items():
            np.testing.assert_array_equal(d.per_hop_cells[tor], cells)
        assert d.source_cells.keys() == want.source_cells.keys()
        for tor, cells in want.source_cells.items():
            np.testing.assert_array_equal(d.source_cells[tor], cells)
    # another failed set is repaired; a recovery from it to routes it was not made from compares
    _change(ctl, clock, "fail", (1, 0))
    assert compared == []
    ctl.route_cache._cells.clear()
    _change(ctl, clock, "recover", (1, 0))
    assert len(compared) == 1 and made[-1].delta.per_hop_cells.keys() == made[-2].delta.per_hop_cells.keys()


def test_a_config_reload_empties_the_route_cache(ctl, monkeypatch):
    import controller.daemon.plan as plan

    ctl, clock = ctl
    _change(ctl, clock, "fail", (0, 1))
    assert ctl.reload()["ok"]
    calls = []
    real = plan.compute_routes
    monkeypatch.setattr(plan, "compute_routes", lambda *a, **k: calls.append(a[2]) or real(*a, **k))
    r = _change(ctl, clock, "recover", (0, 1))
    assert calls == [Failed()], "routes of the old config were reused after a reload"
    assert not any(n.startswith("reused") for n in r.notes), r.notes


def test_route_cache_keeps_the_most_recently_used_failed_sets(tmp_path):
    from controller.daemon.plan import RouteCache, build_schedule

    cfg = load(net_toml(tmp_path, [tor_switch(0)]))
    sched = build_schedule(cfg)
    cache = RouteCache(size=2)
    sets = [Failed(), Failed(uplinks=frozenset({(0, 0)})), Failed(uplinks=frozenset({(1, 1)}))]
    first = [cache.routes(cfg, sched, f, v, 1) for v, f in enumerate(sets, 1)]
    assert cache.routes(cfg, sched, sets[2], 9, 1).per_hop is first[2].per_hop
    assert cache.routes(cfg, sched, sets[0], 10, 1).per_hop is not first[0].per_hop   # the oldest left
    assert cache.routes(cfg, sched, sets[2], 11, 2).per_hop is not first[2].per_hop   # another schedule version
    assert cache.routes(load(net_toml(tmp_path, [tor_switch(0)])), sched, sets[2], 12, 2).notes == ()



def test_route_cache_keeps_older_routes_only_within_its_byte_budget(tmp_path):
    """``[daemon] route_cache_mib`` bounds the arrays the cache holds besides its newest
    entry (the network's routes): with 1 MiB and route sets of 0.6 MiB each, the newest and
    one older set are kept, never two older ones; with 0 only the newest. An array shared
    between two sets counts once."""
    import dataclasses

    import numpy as np

    from controller.daemon.plan import RouteCache, build_schedule

    @dataclasses.dataclass(frozen=True, eq=False)
    class Heavy:                                    # a route set's arrays, by their bytes
        alt_dep: np.ndarray
        shared: np.ndarray

    cfg = load(net_toml(tmp_path, [tor_switch(0)], daemon='status = "127.0.0.1:0"\nroute_cache_mib = 1'))
    sched = build_schedule(cfg)
    shared = np.zeros(1 << 20, np.uint8)            # 1 MiB held by every set: counted once, not per set
    sets = [Failed(uplinks=frozenset({(t, 0)})) for t in range(4)]
    base_routes = RouteCache().routes(cfg, sched, Failed(), 1, 1)

    def heavy(f: Failed, v: int):
        arr = np.zeros(600 << 10, np.uint8)
        return dataclasses.replace(base_routes, failed=f, version=v, per_hop=Heavy(arr, shared[:]))

    cache = RouteCache(size=4)
    for v, f in enumerate(sets, 1):
        cache.add(cfg, heavy(f, v))
    assert cache.failed_sets() == sets[2:]
    assert 0 < cache.extra_bytes() <= 1 << 20

    zero = dataclasses.replace(cfg, daemon=dataclasses.replace(cfg.daemon, route_cache_mib=0))
    cache = RouteCache(size=4)
    for v, f in enumerate(sets, 1):
        cache.add(zero, heavy(f, v))
    assert cache.failed_sets() == sets[3:]

    big = dataclasses.replace(cfg, daemon=dataclasses.replace(cfg.daemon, route_cache_mib=64))
    cache = RouteCache(size=3)                      # within the budget: the count bounds it
    for v, f in enumerate(sets, 1):
        cache.add(big, heavy(f, v))
    assert cache.failed_sets() == sets[1:]


def test_route_cache_copies_the_running_uro_arrays_ahead_for_the_next_repair_alone(tmp_path):
    """After an update the daemon has the cache copy the running per-hop arrays; the next
    failure's repair from those routes writes in that copy (the routes it runs untouched),
    as a repair without it would; a copy serves one repair, is not used for a repair from
    other routes, and none is made twice, beyond ``route_cache_mib`` or without
    ``incremental``."""
    import numpy as np

    from controller.daemon.plan import RouteCache, build_schedule
    from test_uro_kernel import assert_same_routes

    cfg = load(net_toml(tmp_path, [tor_switch(0)]))
    sched = build_schedule(cfg)
    cache = RouteCache()
    start = cache.routes(cfg, sched, Failed(), 1, 1)
    kept = tuple(a.copy() for a in start.per_hop.arrays)
    assert cache.copy_state() == "none"
    cache.prepare_copy(cfg, start).join()
    assert cache.copy_state() == "ready"
    assert cache.prepare_copy(cfg, start) is None                      # made already
    made = cache._copy[1].arrays
    assert all(np.array_equal(m, a) and not np.shares_memory(m, a) for m, a in zip(made, start.per_hop.arrays))
    cut = Failed(uplinks=frozenset({(0, 0)}))
    got = cache.routes(cfg, sched, cut, 2, 1, previous=start)
    assert cache.copy_state() == "none"
    assert all(g is m for g, m in zip(got.per_hop.arrays, made))  # repaired in the copy
    assert got.notes == ("repaired in the copy made ahead",)
    assert all(np.array_equal(k, a) for k, a in zip(kept, start.per_hop.arrays))   # the running ones untouched
    want = compute_routes(cfg, sched, cut, 2, 1, previous=start)
    assert_same_routes(got.per_hop, want.per_hop)
    assert {t: c.tolist() for t, c in got.delta.per_hop_cells.items()} == \
        {t: c.tolist() for t, c in want.delta.per_hop_cells.items()}

    # a copy of other routes than the repair's is not used, and is gone after it
    cache.prepare_copy(cfg, start).join()
    made = cache._copy[1].arrays
    both = Failed(uplinks=cut.uplinks | frozenset({(1, 0)}))
    again = cache.routes(cfg, sched, both, 3, 1, previous=got)
    assert cache.copy_state() == "none"
    assert not any(g is m for g in again.per_hop.arrays for m in made) and again.notes == ()
    assert_same_routes(again.per_hop, compute_routes(cfg, sched, both, 3, 1, previous=got).per_hop)

    for daemon in ('status = "127.0.0.1:0"\nroute_cache_mib = 0', 'status = "127.0.0.1:0"\nincremental = false'):
        c = RouteCache()
        tight = load(net_toml(tmp_path, [tor_switch(0)], daemon=daemon))
        assert c.prepare_copy(tight, c.routes(tight, sched, Failed(), 1, 1)) is None
        assert c.copy_state() == "none"


def test_a_copy_still_being_made_is_finished_by_the_repair_from_where_it_was(tmp_path, monkeypatch):
    """A failure that comes while the copy is being made: its repair finishes that copy
    (the slabs its thread had not taken, the one it was copying waited for) and writes in
    it, rather than copying the routes again beside it; the copy's thread stops."""
    import threading

    import numpy as np

    from controller import memory
    from controller.daemon.plan import RouteCache, build_schedule
    from test_uro_kernel import assert_same_routes

    cfg = load(net_toml(tmp_path, [tor_switch(0)]))
    sched = build_schedule(cfg)
    cache = RouteCache()
    start = cache.routes(cfg, sched, Failed(), 1, 1)
    paused, go, real = threading.Event(), threading.Event(), memory.SlabCopy.run
    stops = []

    def one_slab_then_wait(self, wanted=lambda: True):    # the copy's thread: a slab, then a pause
        if threading.current_thread().name != "uro-route-copy":
            return real(self, wanted)
        n = real(self, lambda: wanted() and self.untaken() == self.slabs)
        paused.set()
        go.wait(10)
        n += real(self, wanted)
        stops.append((n, wanted()))
        return n

    monkeypatch.setattr(memory.SlabCopy, "run", one_slab_then_wait)
    t = cache.prepare_copy(cfg, start)
    assert paused.wait(10) and cache.copy_state() == "making"
    made = cache._copy[1]
    assert made.slabs == 4 and made.untaken() == 3
    cut = Failed(uplinks=frozenset({(0, 0)}))
    got = cache.routes(cfg, sched, cut, 2, 1, previous=start)
    assert got.notes == ("repaired in the copy made ahead (finished: 3 of its 4 slabs copied then)",)
    assert all(g is m for g, m in zip(got.per_hop.arrays, made.arrays)) and made.complete
    assert_same_routes(got.per_hop, compute_routes(cfg, sched, cut, 2, 1, previous=start).per_hop)
    assert not any(np.shares_memory(g, a) for g in got.per_hop.arrays for a in start.per_hop.arrays)
    go.set()
    t.join()
    assert stops == [(1, False)] and cache.copy_state() == "none"     # its thread copied its one slab, then stopped


def test_a_copy_is_not_finished_for_routes_the_cache_had(tmp_path, monkeypatch):
    """Routes the cache holds already (a recovery back to a failed set seen before) need no
    repair: a copy still being made is dropped, not finished."""
    import threading

    from controller import memory
    from controller.daemon.plan import RouteCache, build_schedule

    cfg = load(net_toml(tmp_path, [tor_switch(0)]))
    sched = build_schedule(cfg)
    cache = RouteCache()
    start = cache.routes(cfg, sched, Failed(), 1, 1)
    cut = cache.routes(cfg, sched, Failed(uplinks=frozenset({(0, 0)})), 2, 1, previous=start)
    paused, go, real = threading.Event(), threading.Event(), memory.SlabCopy.run
    finished = []
    monkeypatch.setattr(memory.SlabCopy, "finish", lambda self, *a, **k: finished.append(1))

    def waits(self, wanted=lambda: True):
        paused.set()
        go.wait(10)
        return real(self, wanted)

    monkeypatch.setattr(memory.SlabCopy, "run", waits)
    t = cache.prepare_copy(cfg, cut)
    assert paused.wait(10)
    back = cache.routes(cfg, sched, Failed(), 3, 1, previous=cut)
    assert back.notes == ("reused the routes of version 1",) and finished == []
    assert cache.copy_state() == "none"
    go.set()
    t.join()



def test_array_bytes_counts_each_heap_buffer_once_and_mapped_files_not_at_all(tmp_path):
    import dataclasses

    import numpy as np

    from controller.memory import array_bytes

    @dataclasses.dataclass
    class Holder:
        a: np.ndarray
        more: tuple
        by_name: dict

    a = np.zeros((100, 10), np.int32)               # 4000 B
    b = np.ones(250, np.int64)                      # 2000 B
    np.save(tmp_path / "m.npy", np.zeros(10_000, np.int64))
    mapped = np.load(tmp_path / "m.npy", mmap_mode="r")
    h = Holder(a, (a[3:7], a.T, [b]), {"b": b[::2], "m": mapped, "n": None, "s": "x"})
    assert array_bytes(h) == 6000
    assert array_bytes(h, Holder(a, (), {})) == 6000
    assert array_bytes(mapped, mapped[10:20]) == 0
    assert array_bytes(a[:1]) == 4000                 # a view holds its whole base


# ---- compiled kernels loaded at start, not on a failure's path ------------------------------------------
@pytest.mark.parametrize("fails", [False, True])
def test_the_daemon_warms_its_algorithms_at_start_and_a_failed_warm_is_only_logged(tmp_path, monkeypatch, fails):
    """Controller.start runs plan.warm: the configured algorithms' warm hooks (URO's loads
    its compiled kernels, so that "auto" uses them on a failure's routes), and for URO
    per-hop routes the kernel of their repair after a failure. A warm that
    raises (numba without a cache location, ...) is a `routes.warm_failed` warning: the
    daemon starts, and a failure's routes are computed all the same."""
    from controller.daemon.controller import Change, Controller
    from daemon_fakes import FakeSwitch, make_backend_for
    from test_daemon_controller import Clock, quiet

    calls = []

    def warm():
        calls.append("uro")
        if fails:
            raise RuntimeError("cannot cache function '_labels': no locator available")
    monkeypatch.setitem(base._REGISTRY, "uro", dataclasses.replace(base.get("uro"), warm=warm))
    monkeypatch.setattr(uro_incremental, "warm_kernel", lambda: calls.append("repair"))
    sws = {"127.0.0.1:50000": FakeSwitch("tor0"), "127.0.0.1:50001": FakeSwitch("tor1")}
    clock = Clock()
    log = quiet()
    c = Controller(load(net_toml(tmp_path, [tor_switch(0), tor_switch(1)])), backend_for=make_backend_for(sws),
                   log=log, clock=clock)
    try:
        c.start()
        assert c.warmed(60)                                       # (on a thread beside the start)
        assert calls == (["uro"] if fails else ["uro", "repair"])     # the repair's kernel as well
        warned = [e for e in log.lines if e["event"] == "routes.warm_failed"]
        if fails:
            assert len(warned) == 1 and warned[0]["algorithm"] == "uro" and "no locator" in warned[0]["error"]
        else:
            assert not warned
        ch = c.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
        c.handle_jobs()
        assert ch.report["generation_s"] is not None and c.routes.failed.uplinks == {(0, 1)}
    finally:
        c.shutdown()


def test_a_daemon_whose_process_ends_does_not_wait_for_its_warm_up(tmp_path, monkeypatch):
    """SIGTERM during the warm-up (numba compiling into an empty cache: tens of seconds on a
    loaded machine): the daemon's process, which ends next, stops without waiting for it
    (it waited up to a minute); an in-process shutdown still waits (the test above)."""
    import threading

    from controller.daemon.run import Daemon
    from daemon_fakes import FakeSwitch, make_backend_for
    from test_daemon_controller import quiet

    release, calls = threading.Event(), []

    def warm():
        calls.append("warming")
        release.wait(30)
        calls.append("warm")
    monkeypatch.setitem(base._REGISTRY, "uro", dataclasses.replace(base.get("uro"), warm=warm))
    monkeypatch.setattr(uro_incremental, "warm_kernel", lambda: None)
    sws = {"127.0.0.1:50000": FakeSwitch("tor0")}
    d = Daemon(net_toml(tmp_path, [tor_switch(0)], daemon='status = "127.0.0.1:0"'),
               backend_for=make_backend_for(sws), log=quiet())
    try:
        d.start()
        d.shutdown(process_ends=True)
        assert calls == ["warming"], "the shutdown waited for the warm-up"
    finally:
        release.set()
        d.ctl.warmed(30)


def test_warm_loads_each_repair_kernel_only_for_the_algorithm_it_repairs(monkeypatch):
    """plan.warm warms URO's repair only for a per-hop section computed by URO and UCMP's
    only for a source section computed by UCMP: each repair is that section's
    (plan.repaired_routes)."""
    from types import SimpleNamespace

    from controller.daemon import plan

    calls = []
    monkeypatch.setattr(uro_incremental, "warm_kernel", lambda: calls.append("repair"))
    monkeypatch.setattr(ucmp_incremental, "warm_kernel", lambda: calls.append("ucmp repair"))
    for algo in ("uro", "ucmp"):
        monkeypatch.setitem(base._REGISTRY, algo, dataclasses.replace(base.get(algo), warm=lambda a=algo: calls.append(a)))

    def cfg(per_hop, source):
        return SimpleNamespace(routing=SimpleNamespace(per_hop=per_hop and SimpleNamespace(algo=per_hop),
                                                       source=source and SimpleNamespace(algo=source)))
    assert plan.warm(cfg("uro", None)) == {} and calls == ["uro", "repair"]
    calls.clear()
    assert plan.warm(cfg(None, "ucmp")) == {} and calls == ["ucmp", "ucmp repair"]
    calls.clear()
    assert plan.warm(cfg("uro", "ucmp")) == {} and calls == ["uro", "repair", "ucmp", "ucmp repair"]
    calls.clear()
    assert plan.warm(cfg("ucmp", "uro")) == {} and calls == ["ucmp", "uro"]


def test_the_start_does_not_wait_for_the_warm_up(tmp_path, monkeypatch):
    """The warm-up runs beside the start: where numba's cache is empty its compile takes tens
    of seconds, and the status API comes up only when the start returns. A shutdown waits
    for it (no thread of a stopped controller left compiling)."""
    import threading
    import time

    from controller.daemon.controller import Controller
    from daemon_fakes import FakeSwitch, make_backend_for
    from test_daemon_controller import Clock, quiet

    release, calls = threading.Event(), []

    def warm():
        calls.append("warming")
        release.wait(30)
        time.sleep(0.3)                  # still at work when the shutdown starts
        calls.append("warm")
    monkeypatch.setitem(base._REGISTRY, "uro", dataclasses.replace(base.get("uro"), warm=warm))
    monkeypatch.setattr(uro_incremental, "warm_kernel", lambda: None)
    sws = {"127.0.0.1:50000": FakeSwitch("tor0"), "127.0.0.1:50001": FakeSwitch("tor1")}
    c = Controller(load(net_toml(tmp_path, [tor_switch(0), tor_switch(1)])), backend_for=make_backend_for(sws),
                   log=quiet(), clock=Clock())
    try:
        c.start()
        assert "warm" not in calls and not c.warmed(0.05)      # started while the warm-up runs
        assert all(a.active == 0 for a in c.agents.values())   # and every switch programmed
    finally:
        release.set()
        c.shutdown()
    assert calls == ["warming", "warm"] and c.warmed(0)
