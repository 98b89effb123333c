"""A switch's known state keeps its route generations as the routes' version they hold,
not as objects (controller/agent/known.py, docs/daemon.md "Memory"), and the daemon
behaves exactly as when it kept every object: the same writes (diff-only: only what
differs), the same reads (a failure's update reads back by key what it wrote; the switch
is read whole once, after the update), the same switches, after random failures and
recoveries on both the incremental and the whole path.

The fake networks are small (a tiny ToR's generation is below
:data:`~controller.agent.known.COMPACT_MIN_OBJECTS`), so the tests keep every generation
compact by setting that to 0; ``test_daemon_incremental`` runs the same networks with
the default (objects kept)."""

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from hypothesis import given, settings, strategies as st

from controller.agent import known as known_mod
from controller.agent.diff import same_state
from controller.agent.known import KnownState
from controller.daemon import plan as plan_mod
from controller.daemon import update as update_mod
from controller.daemon.switch import SwitchAgent
from controller.tables.state import Batch

import test_daemon_incremental as inc_tests
from test_daemon_incremental import (ELEMENTS, assert_runs_the_routes, assert_same_network, change, network,
                                     run_steps)

_closed = inc_tests._closed          # every controller a test starts is shut down after it


class Counted:
    """Per switch: whole reads, reads by key (objects asked) and updates written."""

    def __init__(self, ctl):
        self.calls: dict = {}
        for a in ctl.agents.values():
            b = a.backend
            c = self.calls.setdefault(a.name, {"read_state": 0, "read_objects": 0, "asked": 0, "written": 0})

            def read_state(c=c, f=b.read_state):
                c["read_state"] += 1
                return f()

            def read_objects(objects, c=c, f=b.read_objects):
                c["read_objects"] += 1
                c["asked"] += len(objects.entries) + len(objects.members) + len(objects.groups)
                return f(objects)

            def apply(d, progress=None, c=c, f=b.apply):
                c["written"] += len(d)
                return f(d, progress)
            b.read_state, b.read_objects, b.apply = read_state, read_objects, apply


def _compact(monkeypatch, on: bool):
    monkeypatch.setattr(known_mod, "COMPACT_MIN_OBJECTS", 0 if on else 1 << 30)


def _started(tmp_path, monkeypatch, compact: bool, incremental: bool = True):
    _compact(monkeypatch, compact)
    d = tmp_path / ("compact" if compact else "objects")
    d.mkdir()
    return network(d, incremental)


def test_a_started_network_keeps_no_route_object(tmp_path, monkeypatch):
    """After the start (generation 0 written, its shadow too), every ToR's known state
    keeps both generations as the routes' version: only its statics and its config entry
    are objects."""
    ctl, sws = _started(tmp_path, monkeypatch, True)
    v = ("routes", ctl.routes.version)
    for a in ctl.agents.values():
        assert a._known is not None and a._known.held() == {0: v, 1: v}, a.name
        assert a._known.objects() == len(a.role.static().entries) + 1, a.name
        assert not a._cache, f"{a.name}: the entries built for the start are still kept"
        assert same_state(a._known.batch(), sws[a.cfg.address].state()), a.name


#: bytes a switch may keep beyond its statics and config entry: per switch, its held
#: generations' bookkeeping (their routes' version, a function that builds them again,
#: the writes into them since: a few KB), and per route entry it holds a few bytes -- the
#: entries themselves as Python objects are 600-800 B each
KEPT_BYTES_PER_SWITCH = 8192
KEPT_BYTES_PER_ROUTE_ENTRY = 16


def _route_bytes_kept(a) -> tuple[int, int]:
    """(bytes this switch keeps of its own beyond what a known state of only its statics
    and config entry takes, its route objects on the switch): its built route entries and
    its known state, measured as objects (pympler's ``asizeof``; not the routes, the codec
    or the session, which every switch of a program shares). A failure's changed cells
    built for its update (kept until its retire, which writes them again) are not counted:
    they follow the failure, not the table."""
    asizeof = pytest.importorskip("pympler.asizeof", reason="needs pympler (the test extra)").asizeof
    static = a.role.static().entries
    floor = asizeof(KnownState(Batch(entries=[*static, a.role.config(0)])))
    built = {k: v for k, v in a._cache.items() if k[0] != "delta"}
    return asizeof(built, a._known, a._fresh_kept) - floor, a.entries - len(static) - 1


def test_an_update_keeps_no_route_object_between_its_phases(tmp_path, monkeypatch):
    """With generations held as versions, no switch keeps its route entries as objects
    while the other switches are written: at the point of a network-wide update where
    every switch is prepared (the first install before its shadows, a cut cable and a dead
    ToR before the flip, on the incremental and the whole path), the bytes each keeps per
    route entry stay bounded -- a (1024, 32) install kept each ToR's 32K built entries
    until the last ToR was written (~26 MB per ToR)."""
    seen: list[tuple[str, str, int, int]] = []

    def measured(fn):
        def at(self, agents, *args, **kw):
            for a in agents:
                seen.append((fn.__name__, a.name, *_route_bytes_kept(a)))
            return fn(self, agents, *args, **kw)
        return at
    def installed(fn):
        def at(self, agents, routes, results, swapped):
            out = fn(self, agents, routes, results, swapped)
            for a in agents:
                if getattr(results.get(a.name), "outcome", None) == "installed":
                    seen.append(("installed", a.name, *_route_bytes_kept(a)))
            return out
        return at
    # the first install writes each ToR's shadow right after its generation: measured once
    # every switch has both (NetworkUpdate.done after the prepare phase, on the installed)
    monkeypatch.setattr(update_mod.NetworkUpdate, "done", installed(update_mod.NetworkUpdate.done))
    monkeypatch.setattr(update_mod.NetworkUpdate, "flip_retire", measured(update_mod.NetworkUpdate.flip_retire))
    for incremental in (True, False):
        d = tmp_path / f"inc{incremental}"
        d.mkdir()
        ctl, _ = _started(d, monkeypatch, True, incremental)
        change(ctl, "fail", "uplink", (3, 1))
        change(ctl, "fail", "tor", 5)
    phases = {p for p, *_ in seen}
    assert phases == {"installed", "flip_retire"}, phases
    for phase, name, kept, routes in seen:
        assert routes > 0, (phase, name)
        assert kept <= KEPT_BYTES_PER_SWITCH + KEPT_BYTES_PER_ROUTE_ENTRY * routes, \
            f"{name} keeps {kept} B for {routes} route entries at {phase}"
    for a in ctl.agents.values():       # after the updates: the same
        kept, routes = _route_bytes_kept(a)
        assert kept <= KEPT_BYTES_PER_SWITCH + KEPT_BYTES_PER_ROUTE_ENTRY * routes, (a.name, kept, routes)


def test_a_failures_update_writes_and_reads_what_it_did_with_every_object_kept(tmp_path, monkeypatch):
    """A cut cable, a dead ToR and their recoveries: per switch the same updates written,
    the same whole reads and reads by key (as many objects asked), the same switches, as
    the daemon keeping every object; the written difference is small (diff-only)."""
    kept = _started(tmp_path, monkeypatch, False)
    compact = _started(tmp_path, monkeypatch, True)
    counts = [Counted(ctl) for ctl, _ in (kept, compact)]
    for op, kind, target in (("fail", "uplink", (3, 1)), ("recover", "uplink", (3, 1)),
                             ("fail", "tor", 5), ("recover", "tor", 5)):
        for i, (ctl, _) in enumerate((kept, compact)):
            _compact(monkeypatch, i == 1)
            change(ctl, op, kind, target)
            ctl.maintain()                                  # the reconcile right after the update
        assert counts[0].calls == counts[1].calls, (op, kind, target)
        assert_same_network(kept, compact)
    ctl, sws = compact
    v = ("routes", ctl.routes.version)
    assert any(c["read_objects"] for c in counts[1].calls.values()), "no update verified by key"
    total = sum(len(sw.state().entries) for sw in sws.values())
    assert 0 < sum(c["written"] for c in counts[1].calls.values()) < 4 * total
    for a in ctl.agents.values():
        assert a._known is not None and set(a._known.held().values()) == {v}, a.name
        assert a._known.objects() == len(a.role.static().entries) + 1, a.name
    assert_runs_the_routes(*compact)


@settings(max_examples=5, deadline=None)
@given(steps=st.lists(ELEMENTS, min_size=1, max_size=4))
def test_held_generations_leave_the_switches_as_a_whole_recomputation(tmp_path_factory, steps):
    """inc_tests' property with every generation held as its version, on both paths."""
    mp = pytest.MonkeyPatch()
    mp.setattr(known_mod, "COMPACT_MIN_OBJECTS", 0)
    try:
        run_steps(tmp_path_factory.mktemp("net"), steps, maintain=True)
    finally:
        mp.undo()


def test_the_checks_keep_for_the_first_install_only_generations_kept_as_objects():
    """A switch's route objects built by the start-up checks are kept for the first install
    only where its generations stay objects anyway (below ``COMPACT_MIN_OBJECTS``), within
    the budget in all: a (1024, 32) ToR's 34K are built again when written -- kept, the
    first 29 ToRs' were ~650 MB of the daemon from the checks to their write."""
    small = known_mod.COMPACT_MIN_OBJECTS - 1
    assert plan_mod.keeps_for_install(small, 0)
    assert not plan_mod.keeps_for_install(known_mod.COMPACT_MIN_OBJECTS, 0)
    assert not plan_mod.keeps_for_install(33_848, 0)                 # a (1024, 32) ToR's generation
    assert not plan_mod.keeps_for_install(small, plan_mod.KEEP_MAX_OBJECTS - small + 1)
    assert plan_mod.keeps_for_install(small, plan_mod.KEEP_MAX_OBJECTS - small)


def test_a_start_whose_generations_are_kept_as_versions_keeps_nothing_from_the_checks(tmp_path, monkeypatch):
    """Started with every generation held as a version, no switch gets the checks' entries
    (each builds its own when written); started with generations kept as objects, every
    switch does. Either way the switches hold the same entries after the start and after a
    cut cable."""
    seeded: list[str] = []
    seed = SwitchAgent.seed_routes

    def seeding(self, *args):
        seeded.append(self.name)
        return seed(self, *args)
    monkeypatch.setattr(SwitchAgent, "seed_routes", seeding)
    kept = _started(tmp_path, monkeypatch, False)
    assert sorted(seeded) == sorted(kept[0].agents)
    seeded.clear()
    compact = _started(tmp_path, monkeypatch, True)
    assert seeded == []
    assert_same_network(kept, compact)
    for i, (ctl, _) in enumerate((kept, compact)):
        _compact(monkeypatch, i == 1)
        change(ctl, "fail", "uplink", (3, 1))
    assert_same_network(kept, compact)


def test_the_tors_of_a_process_share_their_equal_static_entries(tmp_path, monkeypatch):
    """Equal static entries of the ToRs (the host plan, the DSCP buckets: at (1024, 32)
    1,088 of a ToR's 1,105) are one object in the process, not one per ToR (~0.45 GB at
    (1024, 32)); each ToR's statics are still what it builds alone, and its switch holds them."""
    import copy

    from controller.agent import desired

    ctl, sws = _started(tmp_path, monkeypatch, True)
    statics = {a.name: a.role.static().entries for a in ctl.agents.values()}
    one: dict = {}
    for name, entries in statics.items():
        for e in entries:
            assert one.setdefault(e, e) is e, f"{name}: {e} is a second object of an equal entry"
    a, b = list(statics.values())[:2]
    assert set(a) & set(b), "the ToRs have static entries in common"
    monkeypatch.setattr(desired, "shared_statics", lambda batch: batch)
    for ag in ctl.agents.values():
        alone = copy.copy(ag.role)
        alone._static = None
        assert alone.static().entries == statics[ag.name], ag.name
        assert set(statics[ag.name]) <= set(sws[ag.cfg.address].state().entries), ag.name


def test_the_checks_build_every_roles_statics_before_any_route_entries(tmp_path, monkeypatch):
    """The start-up checks build every ToR's statics (kept for the daemon's life) before
    any ToR's route entries (built, checked and dropped): built in between, ToR by ToR,
    the kept statics held the memory of the dropped entries around them (Python's arenas),
    0.7 MiB per ToR at (1024, 32) -- 0.17 MiB with the statics first
    (`uro bench --suite fabric --large-only --large-setup 64`)."""
    from controller.agent import desired

    calls: list[tuple[str, int]] = []
    static, routes = desired.TorRole.static, desired.TorRole.routes

    def static_seen(self):
        calls.append(("static", self.tor))
        return static(self)

    def routes_seen(self, *args):
        calls.append(("routes", self.tor))
        return routes(self, *args)
    monkeypatch.setattr(desired.TorRole, "static", static_seen)
    monkeypatch.setattr(desired.TorRole, "routes", routes_seen)
    ctl, sws = _started(tmp_path, monkeypatch, True)
    first_routes = next(i for i, (what, _) in enumerate(calls) if what == "routes")
    assert {t for what, t in calls[:first_routes] if what == "static"} == {a.cfg.tor for a in ctl.agents.values()}
    assert {t for what, t in calls if what == "routes"} == {a.cfg.tor for a in ctl.agents.values()}


def test_the_daemon_logs_its_memory_after_each_step_of_its_start_and_each_phase(tmp_path, monkeypatch):
    """``memory.phase`` lines: the resident memory and its peak after the config, the
    pipelines, the routes, the checks and the sessions, and after each phase of the first
    install (its first switch and its last); with ``URO_TRACEMALLOC`` the largest
    allocation sites too (`uro bench --suite fabric` prints them)."""
    import tracemalloc

    from controller import memory

    ctl, _ = _started(tmp_path, monkeypatch, True)
    assert ctl.warmed(60)          # (the warm-up's thread: nothing else allocates while tracing)
    lines = [kw for name, kw in ctl.log.events if name == "memory.phase"]
    phases = [e["phase"] for e in lines]
    assert phases[:5] == ["config", "pipelines", "routes", "checks", "sessions"], phases
    n = len(ctl.agents)
    assert f"prepare_generation 1 of {n}" in phases and f"prepare_generation {n} of {n}" in phases, phases
    assert all(0 < e["rss_mib"] <= e["hwm_mib"] for e in lines)
    monkeypatch.setenv(memory.TRACE_ENV, "2")
    try:
        assert memory.phase("first")["traced_mib"] == 0        # tracing starts here
        kept = [bytearray(1 << 20) for _ in range(4)]           # noqa: F841 - 4 MiB allocated here
        traced = memory.phase("second")
        assert traced["traced_mib"] >= 4 and traced["top"]
        assert "test_daemon_memory.py" in traced["top"][0], traced["top"][0]
    finally:
        tracemalloc.stop()


def test_proc_status_reads_another_process_and_resident_reads_this_one():
    """One reader of /proc/<pid>/status for the daemon's own memory lines and for the
    benchmark's figures of the daemon it started: fields by name, kB and counts as ints."""
    import subprocess
    import sys

    from controller.memory import proc_status, resident

    child = subprocess.Popen([sys.executable, "-c", "import threading, time\n"
                              "[threading.Thread(target=time.sleep, args=(30,), daemon=True).start() for _ in range(3)]\n"
                              "print('up', flush=True); time.sleep(30)"], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "up"
        st = proc_status(child.pid)
        assert st["Threads"] == 4
        assert 0 < st["VmRSS"] <= st["VmHWM"]
        assert st["Pid"] == child.pid
    finally:
        child.kill()
        child.wait()
    with pytest.raises(OSError):
        proc_status(child.pid)
    before = resident()
    ballast = bytearray(64 << 20)                 # 64 MiB touched: the peak and the RSS see it
    ballast[::4096] = b"x" * len(ballast[::4096])
    after = resident()
    assert after["hwm_mib"] >= before["rss_mib"] + 60
    assert after["rss_mib"] >= before["rss_mib"] + 60


def test_a_reconcile_reads_and_compares_with_the_collector_paused(tmp_path, monkeypatch):
    """The read-back of a switch (its whole state read, built and compared) runs with the
    cyclic collector paused, as an update's phases do, and leaves it running: with the
    collector on, a (108, 6) UCMP round of read-backs promoted its temporaries into the
    oldest generation and made 18 whole-heap collections of 1.2-1.7 s (5 with it paused)."""
    import gc
    ctl, _ = _started(tmp_path, monkeypatch, False)
    a = next(iter(ctl.agents.values()))
    seen = []
    monkeypatch.setattr(a, "_reconcile", lambda routes, f=a._reconcile: seen.append(gc.isenabled()) or f(routes))
    assert gc.isenabled()
    assert a.reconcile(ctl.routes) == 0
    assert seen == [False] and gc.isenabled()
