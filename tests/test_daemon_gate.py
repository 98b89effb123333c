"""A failure's handling comes before the background reconcile (controller/daemon/gate.py):
no reconcile starts between a change's detection and its new generation, the due ones wait
and then run, and reconciles run a bounded number at a time."""

import threading
import time

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from controller.daemon.config import ConfigError, load
from controller.daemon.controller import Change, Controller
from controller.daemon.gate import MaintenanceGate

from daemon_fakes import FakeSwitch, make_backend_for, net_toml, ocs_switch, tor_switch
from test_daemon_controller import Clock, quiet


def _net(tmp_path, daemon='status = "127.0.0.1:0"\nreconcile_s = 10'):
    sws = {"127.0.0.1:50000": FakeSwitch("tor0"), "127.0.0.1:50001": FakeSwitch("tor1"),
           "127.0.0.1:50100": FakeSwitch("ocs")}
    p = net_toml(tmp_path, [tor_switch(0), tor_switch(1), ocs_switch()], daemon=daemon)
    clock = Clock()
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=quiet(), clock=clock)
    ctl.start()
    return ctl, clock


@pytest.fixture
def net(tmp_path):
    ctl, clock = _net(tmp_path)
    yield ctl, clock
    ctl.shutdown()


def _runs(ctl) -> dict[str, int]:
    return {n: a.stats["reconcile_runs"] for n, a in ctl.agents.items()}


def test_no_reconcile_starts_while_a_failure_is_handled_and_the_due_ones_run_after_it(net, monkeypatch):
    ctl, clock = net
    before = _runs(ctl)
    clock.t += 11                                  # every switch due for its periodic read-back
    ch = Change("fail", "uplink", (0, 1), detected=clock.t)
    ctl.submit(ch)                                 # masks written; the routes wait for the control thread
    handed, counted = [], []
    monkeypatch.setattr(ctl, "_maintain_one", lambda a, now, inner=ctl._maintain_one: handed.append(a.name) or
                        inner(a, now))
    for a in ctl.agents.values():
        monkeypatch.setattr(a, "read_counters", lambda a=a: counted.append(a.name))
    ctl.maintain(now=clock.t)
    assert _runs(ctl) == before, "a reconcile ran while the failure waited for its routes"
    assert handed == [] and counted == [], "a pass beside a failure handed switches to the pool or read counters"
    st = ctl.status()["maintenance"]
    assert st["failures_pending"] == 1 and st["reconcile_deferrals"] == len(ctl.agents)
    ctl.handle_jobs()                              # the new generation: the failure is handled
    assert ch.report["generation_s"] is not None
    assert ctl.status()["maintenance"]["failures_pending"] == 0
    ctl.maintain(now=clock.t + 0.2)
    after = _runs(ctl)
    assert all(after[n] == before[n] + 1 for n in before), (before, after)
    assert sorted(counted) == sorted(ctl.agents)      # the counters are read again too
    assert ctl.status()["maintenance"]["reconciles_run"] >= len(ctl.agents)


def test_the_gate_opens_again_when_the_routes_after_a_failure_raise(net, monkeypatch):
    ctl, clock = net
    ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))

    def broken():
        raise RuntimeError("broken on purpose")
    monkeypatch.setattr(ctl, "_recompute_and_install", broken)
    with pytest.raises(RuntimeError, match="on purpose"):
        ctl.handle_jobs()
    assert not ctl.gate.failure_pending
    before = _runs(ctl)
    clock.t += 11
    ctl.maintain(now=clock.t)
    assert all(v == before[n] + 1 for n, v in _runs(ctl).items())


def test_reconciles_run_at_most_at_once_together(tmp_path):
    ctl, clock = _net(tmp_path, 'status = "127.0.0.1:0"\nreconcile_s = 10\nreconciles_at_once = 1')
    try:
        assert ctl.gate.at_once == 1
        live, most, lock = [0], [0], threading.Lock()
        for a in ctl.agents.values():
            inner = a.reconcile

            def slow(routes, inner=inner):
                with lock:
                    live[0] += 1
                    most[0] = max(most[0], live[0])
                time.sleep(0.05)
                try:
                    return inner(routes)
                finally:
                    with lock:
                        live[0] -= 1
            a.reconcile = slow
        clock.t += 11
        ctl.maintain(now=clock.t)
        assert most[0] == 1 and ctl.status()["maintenance"]["reconciles_run"] == len(ctl.agents)
    finally:
        ctl.shutdown()


def test_a_reconcile_waiting_for_a_slot_when_a_failure_arrives_does_not_run():
    gate = MaintenanceGate(1)
    holding, release, turns = threading.Event(), threading.Event(), []

    def first():
        with gate.reconcile() as turn:
            turns.append(("first", turn))
            holding.set()
            release.wait(5)

    def second():
        with gate.reconcile() as turn:
            turns.append(("second", turn))
    a = threading.Thread(target=first)
    a.start()
    assert holding.wait(5)
    b = threading.Thread(target=second)
    b.start()
    time.sleep(0.05)                    # b waits for the only slot
    change = object()
    gate.opened(change)
    release.set()
    a.join(5)
    b.join(5)
    assert turns == [("first", True), ("second", False)]
    assert gate.status()["reconcile_deferrals"] == 1
    gate.closed([change])
    with gate.reconcile() as turn:
        assert turn


def test_reconciles_at_once_must_be_positive(tmp_path):
    p = net_toml(tmp_path, [tor_switch(0)], daemon='status = "127.0.0.1:0"\nreconciles_at_once = 0')
    with pytest.raises(ConfigError, match="reconciles_at_once"):
        load(p)
    with pytest.raises(ValueError, match="reconciles_at_once"):
        MaintenanceGate(0)


def test_the_gates_status_counts_what_runs_what_ran_and_what_waits():
    """The status's counters, exactly: none at first; a reconcile is running inside its turn
    and has run after it; a due one put off while a failure is pending is a deferral."""
    gate = MaintenanceGate(2)
    assert gate.status() == {"reconciles_at_once": 2, "reconciles_running": 0, "reconciles_run": 0,
                             "reconcile_deferrals": 0, "failures_pending": 0}
    with gate.reconcile() as go:
        assert go and gate.status()["reconciles_running"] == 1
    change = object()
    gate.opened(change)
    with gate.reconcile() as go:
        assert not go
    assert gate.status() == {"reconciles_at_once": 2, "reconciles_running": 0, "reconciles_run": 1,
                             "reconcile_deferrals": 1, "failures_pending": 1}
    gate.closed([change])
    assert gate.status()["failures_pending"] == 0
