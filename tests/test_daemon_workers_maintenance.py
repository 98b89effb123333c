"""A worker's maintenance pass never holds up an update's phases
(controller/daemon/workers.py, docs/daemon.md "Workers"): the pass runs on the worker's own
threads, not on the actor's thread that runs the phases (its ``maintain`` returns at once),
and once the coordinator holds the workers' maintenance for an update a pass in progress
starts no more switches -- the phases wait for the switches in flight alone, never for a
pass over the whole share (what a worker's read-back of 108 switches after the start
did to a cut cable's update: 100 s with nothing written)."""

from __future__ import annotations

import asyncio
import inspect
import threading
import time

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra")

from controller.daemon.workers import MAINT_THREADS, ShareWorker  # noqa: E402

from daemon_fakes import net_toml, tor_switch  # noqa: E402

N = 3 * MAINT_THREADS


class Routes:
    version = 1
    failed_tors = frozenset({N + 1})


class Role:
    def __init__(self, tor: int):
        self.tor = tor

    @staticmethod
    def version(routes):
        return ("routes", routes.version)

    def left_out(self, routes):
        return self.tor in routes.failed_tors


class Backend:
    connected = True


class Agent:
    """A switch due for its read-back whose reconcile blocks until ``gate`` opens."""

    def __init__(self, name: str, gate: threading.Event, log: list):
        self.name, self.gate, self.calls = name, gate, log
        self.state, self.backend, self.role = "up", Backend(), Role(int(name[3:]))
        self.installed, self.reconcile_due, self.retry_install = ("routes", 1), True, False
        self.net_gen = 0
        self.handed_over = False          # (a reload's agent took none of these sessions)

    def reconcile(self, routes):
        self.calls.append(("reconcile", self.name))
        assert self.gate.wait(20), "the gate never opened"
        self.reconcile_due = False

    def phase(self, fn, *args):
        self.calls.append(("phase", self.name))
        return fn(*args)

    def survey(self):
        return "surveyed"


def _worker(tmp_path):
    cfg = net_toml(tmp_path, [tor_switch(t) for t in range(2)], daemon='status = "127.0.0.1:0"')
    w = ShareWorker(str(cfg), "w0", threads=4)
    w.routes, w.current = {1: Routes()}, Routes()
    return w


def _wait(cond, what: str, limit: float = 20.0) -> None:
    end = time.monotonic() + limit
    while not cond():
        assert time.monotonic() < end, what
        time.sleep(0.01)


def test_a_pass_runs_beside_the_phases_and_an_update_stops_it(tmp_path):
    w = _worker(tmp_path)
    gate, calls = threading.Event(), []
    w.agents = {f"tor{i}": Agent(f"tor{i}", gate, calls) for i in range(N)}
    try:
        assert inspect.iscoroutinefunction(ShareWorker.maintain), \
            "maintain must run on the worker's event loop, not on the actor's thread"
        assert asyncio.run(w.maintain(1, 600.0, 0)) == []        # returns with the pass blocked
        _wait(lambda: len(calls) == MAINT_THREADS, "the pass did not start its first switches")
        asyncio.run(w.hold(True))                                # the coordinator's update begins
        free = [n for n in w.agents if ("reconcile", n) not in calls]
        out = w.phase(free, "survey", ())                        # not behind the pass: the gate is shut
        assert out == {n: "surveyed" for n in free} and not gate.is_set()
        gate.set()
        _wait(lambda: w._mpass.done(), "the pass did not end")
        started = [n for k, n in calls if k == "reconcile"]
        assert len(started) == MAINT_THREADS, f"{len(started)} switches reconciled during the update"
        assert asyncio.run(w.maintain(1, 600.0, 0)) == [] and w._mpass.done(), "a pass started while held"
        asyncio.run(w.hold(False))                               # the update is over
        asyncio.run(w.maintain(1, 600.0, 0))
        _wait(lambda: w._mpass.done(), "the pass after the update did not end")
        assert sorted(n for k, n in calls if k == "reconcile") == sorted(w.agents), \
            "the switches left by the held pass are reconciled by the next one"
    finally:
        gate.set()
        w._mthread.shutdown(wait=True)
        w._mpool.shutdown(wait=True)
        w._pool.shutdown(wait=True)


def test_a_pass_reports_the_switches_whose_update_failed(tmp_path):
    """The switches to retry come back with the next call (the coordinator retries the
    update network-wide), not a failed ToR's (no update writes to it: Role.left_out);
    nothing while an update holds the pass."""
    w = _worker(tmp_path)
    gate, calls = threading.Event(), []
    gate.set()
    w.agents = {f"tor{i}": Agent(f"tor{i}", gate, calls) for i in (0, 1, 2, N + 1)}
    w.agents["tor1"].retry_install = w.agents[f"tor{N + 1}"].retry_install = True
    try:
        asyncio.run(w.maintain(1, 600.0, 0))
        _wait(lambda: w._mpass.done(), "the pass did not end")
        assert asyncio.run(w.maintain(1, 600.0, 0)) == ["tor1"]
        _wait(lambda: w._mpass.done(), "the pass did not end")
        asyncio.run(w.hold(True))
        assert asyncio.run(w.maintain(1, 600.0, 0)) == []
    finally:
        w._mthread.shutdown(wait=True)
        w._mpool.shutdown(wait=True)
        w._pool.shutdown(wait=True)
