"""The switches' own slice clocks and their liveness marks with ``[daemon] workers``
(controller/daemon/workers.py ``RemoteClocks``, docs/daemon.md "Workers"): each worker
seeds, reads and probes the clocks of its share through its own sessions and sends the raw
readings back, the coordinator keeps the state (ClockWatch, LivenessWatch), the alarms, the
status and the metrics -- so the network ends as the one-process daemon leaves it.

On the fake switches of tests/daemon_fakes.py, owned by the test process and reached by a
local Dask cluster of 2 worker processes (tests/remote_fakes.py): 8 ToRs and the OCS
emulator, the ToRs in two shares, the OCS (the reference) in the second one. The
controller's clock is injected, so the supervision's schedule is driven pass by pass; the
switches' clocks run on the host's CLOCK_MONOTONIC, which every process reads. Slices of 1 s
and the alarm at 200 ms: a seed and a probe cross processes here, which on a loaded host
takes up to tens of ms (the probes' uncertainty says how much), and a seed's precision is
not what these tests are about (tests/test_daemon_clock.py)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra")
pytest.importorskip("dask.distributed", reason="needs the dask extra")

import dask  # noqa: E402

from controller.daemon.clocksync import SEED_ATTEMPTS  # noqa: E402
from controller.daemon.config import ConfigError, load  # noqa: E402
from controller.daemon.controller import Controller  # noqa: E402
from controller.daemon.liveness import CONFIRM_READS  # noqa: E402
from controller.daemon.workers import DistributedController, Fault, check_same_clock  # noqa: E402
from controller.schedule import round_robin  # noqa: E402

from daemon_fakes import FakeSwitch, make_backend_for, net_toml, ocs_switch, tor_switch  # noqa: E402
from remote_fakes import FakeNetwork  # noqa: E402
from test_daemon_clock import Clock, events, keeping_clock, recorder  # noqa: E402

TESTS = Path(__file__).resolve().parent
TORS = 8
OCS = "127.0.0.1:50100"
SLICE_NS = 1_000_000_000


def addr(t: int) -> str:
    return f"127.0.0.1:{50000 + t}"


def switches() -> dict[str, FakeSwitch]:
    sws = {addr(t): FakeSwitch(f"tor{t}") for t in range(TORS)}
    sws[OCS] = FakeSwitch("ocs")
    for sw in sws.values():
        sw.slice_ns = SLICE_NS
    return sws


def config(tmp_path, workers: int):
    p = net_toml(tmp_path, [tor_switch(t) for t in range(TORS)] + [ocs_switch()],
                 clock='slice_ms = 1000\nmode = "sync"\nalarm_us = 200000\nholdover_cycles = 2',
                 daemon=f'status = "127.0.0.1:0"\nreconcile_s = 10\nworkers = {workers}',
                 extra="[liveness]\nenabled = true\ndown_after = 2")
    keeping_clock(tmp_path)
    return load(p)


@contextlib.contextmanager
def daemon(tmp_path, monkeypatch, workers: int = 2):
    """The daemon on the fake switches, started (every switch programmed): (controller, the
    switches by address, its clock). With workers, the switches are served to the workers'
    processes; without, the one-process daemon's sessions reach them directly."""
    sws, clock = switches(), Clock()
    cfg = config(tmp_path, workers)
    if not workers:
        ctl = Controller(cfg, backend_for=make_backend_for(sws), log=recorder(), clock=clock)
        ctl.start()
        try:
            yield ctl, sws, clock
        finally:
            ctl.shutdown()
        return
    monkeypatch.setenv("URO_TEST_DIR", str(TESTS))
    with FakeNetwork(sws), dask.config.set({"distributed.worker.preload": [str(TESTS / "remote_fakes_preload.py")]}):
        ctl = DistributedController(cfg, backend_for=make_backend_for({}), log=recorder(), clock=clock)
        try:
            ctl.start()
            yield ctl, sws, clock
        finally:
            ctl.shutdown()


def owners(ctl) -> dict[str, str]:
    return dict(ctl.workers.owner)


def test_two_workers_seed_every_clock_once_and_the_coordinator_watches_them(tmp_path, monkeypatch):
    """Every switch seeded once (the reference first, by its owner), then read and probed
    by its owner; the readings of both workers reach the coordinator's ClockWatch: the
    status shows each switch's registers and offset, and a ToR of the other worker than
    the reference's whose error exceeds the alarm raises the alarm (once; status and
    metrics), and clears it."""
    with daemon(tmp_path, monkeypatch) as (ctl, sws, clock):
        own = owners(ctl)
        assert len(set(own.values())) == 2
        ctl.watch_clocks()
        ocs = sws[OCS]
        assert {sw.name: len(sw.seeds) for sw in sws.values() if sw is not ocs} == \
            {f"tor{t}": 1 for t in range(TORS)}, "every ToR seeded once"
        assert 1 <= len(ocs.seeds) <= SEED_ATTEMPTS and all(s[3] for s in ocs.seeds), \
            "the OCS seeded as the reference (again, corrected, while a probe finds it off)"
        assert all(not s[3] for sw in sws.values() if sw is not ocs for s in sw.seeds)
        seeds = {sw.name: len(sw.seeds) for sw in sws.values()}
        assert ocs.seeds[0][0] < min(sw.seeds[0][0] for sw in sws.values() if sw is not ocs), "the reference first"
        assert ocs.stratum == 0
        assert all(sw.timers == [] for sw in sws.values()), "no daemon timer in sync mode"
        assert {e["switch"] for e in events(ctl, "clock.seeded")} == {sw.name for sw in sws.values()}
        seeded = len(ctl.log.events)     # a ToR just seeded (off by its seed's way) may be in alarm: not ours

        # the ToRs synchronized by the tree; each reports its registers
        for t in range(TORS):
            sw = sws[addr(t)]
            sw.stratum, sw.clock_registers = 2, {"offset": -100 - t, "delay": 80_000}
            sw.clock_offset_ns = ocs.clock_offset_ns + 1_000_000     # 1 ms: within the alarm
        far = next(t for t in range(TORS) if own[f"tor{t}"] != own["ocs"])
        sws[addr(far)].clock_offset_ns = ocs.clock_offset_ns + 600_000_000  # 600 ms off, the alarm at 200 ms
        for _ in range(6):            # a ToR in alarm from its seed is cleared once a probe's error and
            clock.t += 3.1            # uncertainty are within (the uncertainty is the load's)
            ctl.watch_clocks()
            if ctl.status()["clock"]["alarms"] == [f"tor{far}"]:
                break
        st = ctl.status()["clock"]
        assert st["mode"] == "sync"
        for t in range(TORS):
            c = st["switches"][f"tor{t}"]
            assert c["seeds"] == 1 and c["stratum"] == 2 and c["registers"]["offset"] == -100 - t, (t, own[f"tor{t}"])
            want = 600_000.0 if t == far else 1000.0
            assert c["error_us"] == pytest.approx(want, abs=c["uncertainty_us"] + st["switches"]["ocs"]["uncertainty_us"]
                                                  + 1), (t, own[f"tor{t}"], c, st["switches"]["ocs"])
            assert c["last_error"] is None
        assert st["alarms"] == [f"tor{far}"]
        assert [kw["switch"] for n, kw in ctl.log.events[seeded:] if n == "clock.alarm"] == [f"tor{far}"], \
            "once, not at every probe"
        assert ctl.metrics.clock_alarms.labels(f"tor{far}")._value.get() >= 1
        assert f'uro_clock_stratum{{switch="tor{far}"}} 2.0' in ctl.metrics.render().decode()

        sws[addr(far)].clock_offset_ns = ocs.clock_offset_ns
        for _ in range(5):            # cleared once a probe's error and uncertainty are within (the load's)
            clock.t += 3.1
            ctl.watch_clocks()
            if not ctl.status()["clock"]["alarms"]:
                break
        assert f"tor{far}" in [kw["switch"] for n, kw in ctl.log.events[seeded:] if n == "clock.alarm_cleared"]
        assert ctl.status()["clock"]["alarms"] == []
        assert {sw.name: len(sw.seeds) for sw in sws.values()} == seeds, "never seeded again"


def dead_tor_3(ctl, sws, clock) -> dict:
    """Every ToR but 3 marks its circuits into ToR 3 (which no longer answers) for
    CONFIRM_READS reads: what the daemon declares and its liveness status."""
    ctl.watch_clocks()                                   # seeded
    sched = round_robin(TORS, 2)
    sws[addr(3)].clock_answers = False
    for _ in range(CONFIRM_READS):
        for t in range(TORS):
            if t != 3:
                sws[addr(t)].stratum = 2
                sws[addr(t)].clock_registers = {
                    "live_mask": sum(1 << (s * 2 + u) for s in range(4) for u in range(2) if sched.peer[s, t, u] == 3),
                    "live_wrong": 0}
        clock.t += 1.1
        ctl.watch_clocks()
        ctl.handle_jobs()
    live = ctl.status()["liveness"]
    return {"failed": ctl.failed.as_dict(), "declared": live["declared"], "verdict": live["verdict"],
            "marks": live["marks"], "events": [(e["op"], e["kind"], e["target"], e["source"])
                                               for e in ctl.status()["failures"]["events"]],
            # the failed ToR's switch is not written (Role.left_out): it keeps the generation it had
            "tors_active": sorted({ctl.agents[f"tor{t}"].active for t in range(TORS) if t != 3}),
            "tor3_active": ctl.agents["tor3"].active}


def test_liveness_marks_read_on_workers_declare_the_failure_one_process_declares(tmp_path, monkeypatch):
    """The marks ride the clock reads of both workers' ToRs; the coordinator's
    LivenessWatch declares ToR 3 failed exactly as the one-process daemon does, and the
    new generation is written by the workers."""
    with daemon(tmp_path / "one", monkeypatch, workers=0) as (ctl, sws, clock):
        want = dead_tor_3(ctl, sws, clock)
    assert want["failed"]["tors"] == [3] and want["events"] == [("fail", "tor", 3, "liveness")]
    assert want["tors_active"] == [1] and want["tor3_active"] == 0, "the new generation, live on every other ToR"
    with daemon(tmp_path / "two", monkeypatch) as (ctl, sws, clock):
        got = dead_tor_3(ctl, sws, clock)
    assert got == want
    assert len(got["marks"]) == TORS - 1, "the marks of both workers' ToRs"


def test_a_worker_killed_mid_pass_its_clocks_are_read_by_the_new_owner_without_a_reseed(tmp_path, monkeypatch):
    """The worker owning the reference dies in the middle of a pass (after the reference
    and one ToR): its other ToRs' readings fail, the next update gives its switches to
    the other worker, whose next pass adopts every one of them (they keep the network's
    time) instead of seeding it, and reads them."""
    with daemon(tmp_path, monkeypatch) as (ctl, sws, clock):
        ctl.watch_clocks()                               # seeded
        seeds = {sw.name: len(sw.seeds) for sw in sws.values()}
        ocs = sws[OCS]
        ocs.clock_offset_ns = 0                          # the reference on the network's time
        for sw in sws.values():
            if sw is not ocs:                            # synchronized by the tree
                sw.stratum, sw.clock_offset_ns = 2, 0
        clock.t += 1.1
        ctl.watch_clocks()
        victim = ctl.workers.owner["ocs"]
        orphans = sorted(n for n, w in ctl.workers.owner.items() if w == victim)
        ctl.workers.actors[victim].arm(Fault("clocks", after=2)).result()
        clock.t += 1.1
        ctl.watch_clocks()
        assert victim in ctl.workers.lost, "the worker died in the pass"
        st = ctl.status()["clock"]["switches"]
        failed = sorted(n for n in orphans if st[n]["last_error"])
        assert failed and len(failed) < len(orphans), (failed, orphans)
        ctl.install_all()                                # takes its switches over
        assert set(ctl.workers.owner.values()) == set(ctl.workers.alive()) and victim not in ctl.workers.alive()
        read_before = {n: st[n]["registers"] for n in orphans}
        for sw in sws.values():
            sw.clock_registers = {"offset": -7}
        clock.t += 1.1
        ctl.watch_clocks()
        st = ctl.status()["clock"]["switches"]
        assert {sw.name: len(sw.seeds) for sw in sws.values()} == seeds, "none seeded again"
        assert sorted(e["switch"] for e in events(ctl, "clock.adopted")) == orphans
        for n in orphans:
            assert st[n]["seeds"] == 1 and st[n]["adopted"] == 1 and st[n]["last_error"] is None, (n, st[n])
            assert st[n]["registers"]["offset"] == -7 and read_before[n] != st[n]["registers"], n
        assert st["ocs"]["stratum"] == 0 and st["ocs"]["error_us"] is not None


def test_sync_mode_refuses_a_worker_on_another_machine(tmp_path):
    """Network time is the daemon host's CLOCK_MONOTONIC: a worker booted elsewhere is
    named, nothing written."""
    cfg = config(tmp_path, 2)
    check_same_clock(cfg, {"tcp://127.0.0.1:1": "b1", "tcp://127.0.0.1:2": "b1"}, "b1")
    with pytest.raises(ConfigError) as e:
        check_same_clock(cfg, {"tcp://127.0.0.1:1": "b1", "tcp://10.0.0.2:2": "b2"}, "b1")
    msg = str(e.value)
    assert "worker tcp://10.0.0.2:2 runs on another machine (boot id b2, ours is b1)" in msg
    assert msg.startswith(str(cfg.path)) and msg.endswith("nothing was written") and "\n" not in msg
