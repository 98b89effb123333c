"""The daemon's switches spread over worker processes (``[daemon] workers = N``): each
worker owns a share of the switches -- their P4Runtime sessions, their route entries,
their writes and read-backs -- and the daemon's process is the **coordinator**: it
computes nothing per switch, orders the network-wide update across the workers and
decides who owns which switch (docs/daemon.md "Workers").

The engine is Dask (``dask.distributed``, the ``dask`` extra, which uro's route chunks
already run on): each worker process holds one :class:`ShareWorker` **actor** (an object
living in that process, whose methods the coordinator calls over Dask's comms), placed on
the worker by the scheduler. Without ``[daemon] scheduler`` the daemon starts a local
cluster of N worker processes on the loopback; with it, it uses N workers of an existing
cluster (``dask scheduler`` on one machine, ``dask worker tcp://HOST:8786`` on each
machine that reaches the switches).

- **The same update as one process.** :class:`RemoteUpdate` is
  :class:`~controller.daemon.update.NetworkUpdate` with each phase (survey, prepare,
  stamp, retire) sent as one call per worker naming its switches: prepare everywhere ->
  verify everywhere (the prepare reads back what it wrote) -> only when every switch of
  every worker has the new generation live, every source stamps it -> hold -> retire.
- **Routes are computed where they are written.** A worker computes the routes of a
  failed set itself (the same algorithm and parameters on the same schedule give the same
  routes; a failure's are repaired label by label from the worker's previous routes,
  property-tested equal to a whole recomputation), so no route table crosses the
  network: the coordinator sends the failed set and the routes' version.
- **A worker that dies** (its process killed, its machine gone) fails the phase on its
  switches; the coordinator gives them to the surviving workers, each connects with the
  switch's **election id** of the config -- the dead worker's sessions ended with its
  process, so the new owner is primary at once, nothing is re-bound -- and runs the
  update again on every switch: its survey finds any update the dead worker interrupted
  (sources stamping different generations, two generations live) and finishes it first
  (:meth:`NetworkUpdate.run`). The new owner knows nothing of the switch and reads it
  whole before it writes, so it writes only what the switch lacks.
- **The switches' own clocks** (sync mode, and the liveness marks read with them): each
  pass of the coordinator's :class:`~controller.daemon.clocksync.ClockSupervision` is one
  call per worker (:class:`RemoteClocks`, the reference's owner first), run on the
  worker's clock threads; the raw readings come back and the coordinator keeps the state.
- **A coordinator that goes away** leaves the switches as the update had them: the
  workers write nothing by themselves, and every step of the update leaves the network
  on one generation per packet (the same guarantee as a daemon killed mid-update;
  tests/test_daemon_consistency.py). The next daemon adopts the switches and finishes
  the update.
"""

from __future__ import annotations

import ctypes
import dataclasses
import faulthandler
import logging
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from controller.agent.backend import BackendError
from controller.daemon import plan as plans
from controller.daemon.clocksync import Job, PassParams, switch_pass
from controller.daemon.config import ConfigError, NetConfig, load as load_config
from controller.daemon.controller import WARM_WAIT_S, Controller, Due
from controller.daemon.log import EventLog
from controller.daemon.metrics import Metrics
from controller.daemon.plan import Prepared
from controller.daemon.switch import SwitchAgent, connect_all, kept_sessions
from controller.daemon.update import NetworkUpdate
from controller.schedule.degrade import Failed

#: seconds to wait for the scheduler and for the workers the config asks for
CONNECT_TIMEOUT_S = 10.0
#: a new owner retries the session of a switch taken over this long: the switch may not
#: have noticed yet that the dead worker's stream ended
TAKEOVER_S = 15.0
#: route versions a worker keeps (the current one, the one before: a retry's)
KEPT_VERSIONS = 3
#: threads of a worker's clock pass (reads, probes, seeds of its share: PacketOut/PacketIn)
CLOCK_THREADS = 8
#: threads of a worker's maintenance pass (reconnects, restores, the read-back after an
#: update): its own, so that a pass never holds up a phase's switches
MAINT_THREADS = 4


class WorkerLost(BackendError):
    """The worker process owning a switch did not answer (died, unreachable)."""


@dataclass(frozen=True)
class RoutesRef:
    """Routes named by version across processes: each worker holds its own copy."""

    version: int


@dataclass(frozen=True)
class Fault:
    """Tests: the worker process exits (as if killed) once ``after`` switches of its
    share have done phase ``what`` -- a worker dying in the middle of an update; with
    ``freeze``, its interpreter is held instead (as by a deadlock on the GIL: alive,
    silent, every thread stopped) until the process is killed."""

    what: str
    after: int
    freeze: bool = False


def _plain(e: BackendError) -> BackendError:
    """A phase's error as it crosses processes (its class may take other arguments)."""
    return WorkerLost(str(e)) if isinstance(e, WorkerLost) else BackendError(str(e))


class ShareWorker:
    """One worker process's share of the switches (a Dask actor): their agents (sessions,
    known state, entry caches), the routes by version, the phases of an update run on all
    of them in parallel in this process."""

    def __init__(self, config: str, worker: str, threads: int = 16):
        self.worker = worker
        self.cfg: NetConfig = load_config(config)
        self.log = EventLog(self.cfg.daemon.log_format)
        self.metrics = Metrics()
        self.agents: dict[str, SwitchAgent] = {}
        self.prep: Prepared | None = None
        self.routes: dict[int, plans.Routes] = {}
        self.cache = plans.RouteCache()
        self.current: plans.Routes | None = None
        self.fault: Fault | None = None
        self._done = 0
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="uro-worker")
        self._kpool = ThreadPoolExecutor(threads, thread_name_prefix="uro-worker-mask")
        # the maintenance pass runs beside the actor's thread (which runs the phases), on
        # threads of its own, and never while the coordinator runs an update (held)
        self._mthread = ThreadPoolExecutor(1, thread_name_prefix="uro-worker-maint")
        self._mpool = ThreadPoolExecutor(MAINT_THREADS, thread_name_prefix="uro-worker-maint")
        # the clock supervision's reads, probes and seeds: their own threads, never the
        # event loop nor the actor's thread (a phase may hold it for seconds)
        self._cpool = ThreadPoolExecutor(CLOCK_THREADS, thread_name_prefix="uro-worker-clock")
        self._mpass = None                     # the pass in progress (a Future), or the last one
        self._held = threading.Event()         # an update runs: no switch is maintained
        self._staged: tuple[NetConfig, Prepared] | None = None    # a reload's, until committed
        self._closed = False
        self._watch(self.cfg.daemon.worker_silent_s / 2)

    def _watch(self, every: float) -> None:
        """Every thread's stack printed to this process's stderr when the worker's event
        loop has not run for ``every`` seconds (half of ``[daemon] worker_silent_s``), and
        again each ``every`` while it stays so: what a frozen worker is doing (a deadlock on
        the GIL, a call holding the loop), printed before the scheduler drops it. Python's
        faulthandler prints it from a thread of its own that needs neither the interpreter
        nor the loop; the loop re-arms it four times per period. Not on a Dask worker (a
        test's actor built in place): nothing to watch."""
        try:
            from distributed import get_worker
            loop = get_worker().loop
        except (ImportError, ValueError):
            return

        def kick() -> None:
            if self._closed:
                faulthandler.cancel_dump_traceback_later()
                return
            faulthandler.dump_traceback_later(every, repeat=True, file=sys.__stderr__)
            loop.call_later(every / 4, kick)
        loop.add_callback(kick)

    # ---- ownership ---------------------------------------------------------------------------
    def open(self, names: list[str], failed: Failed, version: int, schedule_version: int,
             shadows: bool) -> dict[str, str]:
        """Check this share (its entries built and width-checked, kept for the first
        install), compute the routes, connect every switch as primary: {switch: error} of
        those that refused (nothing written anywhere)."""
        from controller.agent.backend import backend_for
        self.prep = Prepared(self.cfg, failed, backend_for, version, schedule_version, names=names,
                             keep_entries=True)
        self._keep(self.prep.routes)
        self.cache.add(self.cfg, self.prep.routes)
        plans.warm(self.cfg)        # a failure's routes must not load compiled kernels
        return self._own(names, shadows, failed, retry_s=0.0, held_s=self.cfg.daemon.held_id_wait_s)

    def own(self, names: list[str], shadows: bool, failed: Failed) -> dict[str, str]:
        """Take over ``names`` (another worker's share, that worker lost): agents with the
        config's election ids and the masks of ``failed``, connected (retried for
        :data:`TAKEOVER_S` while the switch still counts the dead worker's stream);
        {switch: error} of those not reached."""
        self.prep.add(names)
        return self._own(names, shadows, failed, retry_s=TAKEOVER_S)

    def _own(self, names, shadows: bool, failed: Failed, retry_s: float, held_s: float = 0.0) -> dict[str, str]:
        cfg, prep = self.cfg, self.prep
        agents = {}
        for n in names:
            s = next(x for x in cfg.switches if x.name == n)
            agents[n] = self._agent(cfg, s, prep, shadows, failed)

        errors = {n: str(plans.connect_error(cfg, agents[n].cfg, e)) for n, e in
                  connect_all(list(agents.values()), self._pool, self.log, retry_s=retry_s, held_s=held_s,
                              stop_at_error=not retry_s, worker=self.worker).items()}
        with self._lock:
            self.agents.update(agents)
        self.log.event("worker.owns", worker=self.worker, switches=sorted(agents),
                       failed={k: v for k, v in errors.items() if v})
        return {k: v for k, v in errors.items() if v}

    def _agent(self, cfg: NetConfig, s, prep: Prepared, shadows: bool, failed: Failed) -> SwitchAgent:
        """Switch ``s``'s agent on this worker (not connected), with the masks ``failed`` calls for."""
        a = build_agent(cfg, s, prep, self.log, self.metrics, time.monotonic)
        a.shadows = shadows
        a.down = a.role.down_uplinks(failed)
        a.dead = a.role.dead_slots(prep.schedule, failed)
        return a

    # ---- reload ---------------------------------------------------------------------------------
    def stage(self, config: str, failed: Failed, version: int, schedule_version: int,
              names: list[str] | None = None, fresh: tuple[str, ...] = (), shadows: bool = True) -> str | None:
        """A reload's first step on this share: the new config loaded and the entries of
        ``names`` (this share under the new config; default: the switches it owns) built
        and checked against it, its routes computed as ``version`` (the coordinator's
        numbering), and an agent connected for each switch of ``fresh`` (new to this share,
        or configured differently; one whose session would be the running one's takes that
        at the commit: :func:`~controller.daemon.switch.kept_sessions`), all kept aside;
        nothing of the running config changes. The error of a config refused or a switch
        not reached (its message), or None."""
        from controller.agent.backend import backend_for
        from controller.errors import UroError
        self.unstage()
        names = list(self.agents) if names is None else list(names)
        try:
            cfg = load_config(config)
            prep = Prepared(cfg, failed, backend_for, version, schedule_version, names=names)
        except UroError as e:
            return f"worker {self.worker}: {e}"
        agents = {s.name: self._agent(cfg, s, prep, shadows, failed) for s in cfg.switches if s.name in fresh}
        with self._lock:
            shared = kept_sessions(self.agents, agents)
        opening = [a for n, a in agents.items() if n not in shared]
        errors = connect_all(opening, self._pool, self.log, worker=self.worker) if opening else {}
        if errors:
            for a in agents.values():
                a.close()
            n, e = next(iter(errors.items()))
            return f"worker {self.worker}: {plans.connect_error(cfg, agents[n].cfg, e)}"
        self._staged = (cfg, prep, names, agents, shared)
        return None

    def unstage(self) -> None:
        """The reload was refused (here or on another worker): what :meth:`stage` kept is
        dropped, the sessions it opened closed."""
        staged, self._staged = self._staged, None
        if staged is not None:
            for a in staged[3].values():
                a.close()

    def commit(self) -> None:
        """The staged config becomes this share's: its routes the current ones, the agents
        staged for new or changed switches take their places, the switches no longer in
        the share closed, each kept agent given its new role and program."""
        cfg, prep, names, fresh, shared = self._staged
        self._staged = None
        self.cfg, self.prep = cfg, prep
        self._keep(prep.routes)
        self.cache.clear()                 # routes of the old config are never reused
        self.cache.add(cfg, prep.routes)
        plans.warm(cfg)
        share = set(names)
        with self._lock:
            olds = {n: self.agents[n] for n in shared}
        for n, old in olds.items():
            fresh[n].take_session(old)
        with self._lock:
            gone = [n for n in self.agents if n not in share or n in fresh]
            closed = [self.agents.pop(n) for n in gone]
            self.agents.update(fresh)
        for a in closed:
            a.close()
        for n, a in list(self.agents.items()):
            a.role = prep.roles[n]
            a.program = cfg.programs[a.cfg.program]
            a.drain_s = Controller.drain_s(cfg, prep.routes)
            a.incremental = cfg.daemon.incremental
        self.log.event("worker.reloaded", worker=self.worker, routes_version=prep.routes.version,
                       new_switches=sorted(fresh), closed=sorted(n for n in gone if n not in fresh))

    # ---- routes --------------------------------------------------------------------------------
    def _keep(self, routes: plans.Routes) -> None:
        self.routes[routes.version] = routes
        self.current = routes
        for v in sorted(self.routes)[:-KEPT_VERSIONS]:
            del self.routes[v]

    def compute(self, failed: Failed, version: int, schedule_version: int, incremental: bool) -> float:
        """The routes of ``failed`` as version ``version`` (repaired from the current ones
        where ``incremental``): what the coordinator computed too, the same way."""
        if version in self.routes:
            return 0.0
        cur = self.current
        t0 = time.perf_counter()
        new = self.cache.routes(self.cfg, cur.schedule, failed, version, schedule_version,
                                previous=cur if incremental else None)
        self._keep(new)
        return time.perf_counter() - t0

    def settle(self, version: int) -> None:
        """The update to ``version`` is over: its routes no longer carry the old ones."""
        r = self.routes.get(version)
        if r is not None and r.delta is not None:
            self.routes[version] = self.current = dataclasses.replace(r, delta=None) \
                if self.current is r else self.current

    def _resolve(self, x):
        return self.routes[x.version] if isinstance(x, RoutesRef) else x

    # ---- the phases ------------------------------------------------------------------------------
    def arm(self, fault: Fault | None) -> None:
        self.fault, self._done = fault, 0

    def phase(self, names: list[str], what: str, args: tuple) -> dict[str, object]:
        """Phase ``what`` (a :class:`SwitchAgent` phase) with ``args`` on ``names`` in
        parallel: {switch: result or BackendError}."""
        args = tuple(self._resolve(x) for x in args)

        def one(n: str):
            a = self.agents.get(n)
            if a is None:
                return BackendError(f"switch {n!r} is not owned by worker {self.worker}")
            try:
                out = a.phase(getattr(a, what), *args)
            except BackendError as e:
                a.last_error = str(e)
                a.retry_install = True
                self.log.error("switch.install_failed", switch=n, worker=self.worker, error=str(e))
                return _plain(e)
            self._count(what)
            return out
        return dict(zip(names, self._pool.map(one, names)))

    def _count(self, what: str) -> None:
        """Tests (:class:`Fault`): one more switch of this share did ``what``."""
        f = self.fault
        if f is not None and f.what == what:
            with self._lock:
                self._done += 1
                if self._done >= f.after:
                    if f.freeze:       # libc's sleep called with the GIL held: no thread runs
                        ctypes.PyDLL(None).sleep(3600)
                    os._exit(17)       # as a SIGKILL would: no cleanup, sessions cut

    def done(self, names: list[str], version: int, results: dict, swapped: bool) -> dict[str, dict]:
        """:meth:`SwitchAgent.installed_now` on ``names``: {switch: its state for the coordinator}."""
        routes = self.routes[version]
        for n in names:
            self.agents[n].installed_now(routes, results.get(n), swapped=swapped)
        return {n: self._brief(self.agents[n]) for n in names}

    @staticmethod
    def _brief(a: SwitchAgent) -> dict:
        return {"state": a.state, "active": a.active, "entries": a.entries, "installed": a.installed,
                "dead": bool(a.dead), "retry_install": a.retry_install}

    async def mask(self, failed: Failed) -> dict[str, float]:
        """Phase 1 of a failure on this share: every ToR's down mask for ``failed``, one
        config write each, in parallel -- never behind a phase (an async method runs on the
        worker's event loop, not on the actor's thread): {switch: write ms} of those
        written."""
        import asyncio
        sched = self.current.schedule
        agents = [a for a in list(self.agents.values()) if a.role.has_mask]

        def one(a: SwitchAgent):
            try:
                if not a.set_down(a.role.down_uplinks(failed), a.role.dead_slots(sched, failed)):
                    return None
            except BackendError as e:
                a.last_error = f"down mask: {e}"
                self.log.error("switch.down_mask_failed", switch=a.name, worker=self.worker, error=str(e))
                return None
            return a.name, a.last_mask["write_ms"], bool(a.dead)
        loop = asyncio.get_running_loop()
        res = await asyncio.gather(*(loop.run_in_executor(self._kpool, one, a) for a in agents))
        return {n: {"write_ms": ms, "dead": dead} for n, ms, dead in (r for r in res if r is not None)}

    async def timers(self, slice_id: int) -> int:
        """The slice timer to every switch of this share (timer mode): how many were sent."""
        import asyncio
        agents = list(self.agents.values())

        def send() -> int:        # a timer is a message handed to the streams' loop: never waits
            return sum(1 for a in agents if a.send_timer(slice_id) is not None)
        return await asyncio.get_running_loop().run_in_executor(self._kpool, send)

    async def clocks(self, jobs: dict[str, Job], params: PassParams) -> dict[str, dict]:
        """This share's part of a clock pass (:func:`~controller.daemon.clocksync.switch_pass`
        on each switch of ``jobs``, in parallel on the worker's clock threads; network time
        is this host's CLOCK_MONOTONIC): {switch: its raw readings}. On the event loop, which
        only waits: never behind a phase (the actor's thread) or a maintenance pass."""
        import asyncio

        def one(n: str) -> dict:
            a = self.agents.get(n)
            if a is None:
                return {"error": f"switch {n!r} is not owned by worker {self.worker}"}
            out = switch_pass(a, jobs[n], params, time.monotonic_ns)
            self._count("clocks")
            return out
        loop = asyncio.get_running_loop()
        names = list(jobs)
        res = await asyncio.gather(*(loop.run_in_executor(self._cpool, one, n) for n in names))
        return dict(zip(names, res))

    def boot_id(self) -> str:
        """This host's boot id: the same as the coordinator's, this worker's CLOCK_MONOTONIC
        is the coordinator's (the network time of the switches' own clocks)."""
        return boot_id()

    async def hold(self, on: bool) -> None:
        """The coordinator begins (``on``) or ends a network-wide update: meanwhile no
        switch of this share is maintained, and a pass in progress starts no more switches
        (those in flight finish; a phase on one of them waits for it alone). On the
        worker's event loop: never behind a phase or a pass."""
        (self._held.set if on else self._held.clear)()

    async def maintain(self, version: int, reconcile_s: float, net_gen: int) -> list[str]:
        """This share's maintenance pass (between updates), started on the worker's
        maintenance thread unless one is in progress; returns at once (on the event loop:
        the actor's thread, where the phases run, is never taken by a pass) the switches
        whose last update failed as the last finished pass found them (the coordinator
        retries it network-wide)."""
        last = self._mpass
        if last is not None and not last.done():
            return []
        out = last.result() if last is not None and last.exception() is None else []
        if not self._held.is_set():
            self._mpass = self._mthread.submit(self._maintain, version, reconcile_s, net_gen)
        return [] if self._held.is_set() else out

    def _maintain(self, version: int, reconcile_s: float, net_gen: int) -> list[str]:
        """The pass: a lost session reconnected and the switch restored or repaired, a
        switch due for its read-back after an update reconciled; only those switches go to
        the pass's threads (the others cost an attribute test each)."""
        routes = self.routes.get(version, self.current)
        want = None if routes is None else routes.version
        now = time.monotonic()
        agents = list(self.agents.values())

        def due(a: SwitchAgent) -> bool:
            if a.state != "up" or not a.backend.connected:
                return True
            return a.installed == a.role.version(routes) and (a.reconcile_due or now >= getattr(a, "_due_at", 0))

        def one(a: SwitchAgent):
            if self._held.is_set() or a.handed_over:
                return               # an update began: the switch is the update's (or a reload's agent's)
            a.net_gen = net_gen       # what a switch restored empty starts from
            try:
                if a.state == "up" and not a.backend.connected:
                    a.state = "down"
                    self.log.warn("switch.lost", switch=a.name, worker=self.worker)
                if a.state != "up":
                    a.connect()
                    a.reconcile(routes)
                else:
                    a.reconcile(routes)
                    a._due_at = now + reconcile_s
            except BackendError as e:
                a.last_error = str(e)
                if a.failed_after_handover("maintenance", e, worker=self.worker):
                    return
                self.log.error("switch.maintenance_failed", switch=a.name, worker=self.worker, error=str(e))
        if want is not None:
            list(self._mpool.map(one, [a for a in agents if due(a)]))
        if self._held.is_set() or want is None:
            return []
        return [a.name for a in agents if (a.retry_install or a.installed != a.role.version(routes))
                and not a.role.left_out(routes)]

    async def status(self) -> list[dict]:
        """Every switch of this share as the status shows it, with its owner (on the event
        loop: never behind a phase)."""
        return [{**a.status(), "owner": self.worker} for a in list(self.agents.values())]

    def close(self) -> None:
        self._closed = True
        self._held.set()
        for a in list(self.agents.values()):
            a.close()
        self.agents.clear()


def boot_id() -> str:
    """The kernel's boot id: two processes with the same one read the same CLOCK_MONOTONIC."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            return f.read().strip()
    except OSError:
        import socket
        return f"host {socket.gethostname()}"


def check_same_clock(cfg: NetConfig, ids: dict[str, object], ours: str) -> None:
    """Sync mode: the network time is the coordinator host's CLOCK_MONOTONIC, and each
    worker seeds and probes its switches against its own; a worker whose boot id (``ids``:
    {worker: its boot id, or the error of the call}) is not ``ours`` runs on another
    machine (another clock, since another boot): ConfigError naming it, nothing written."""
    for w, b in sorted(ids.items()):
        if b != ours:
            seen = f"its call failed: {b}" if isinstance(b, Exception) else f"boot id {b}, ours is {ours}"
            raise ConfigError(f"{cfg.path}: [clock] mode = \"sync\" with [daemon] workers: worker {w} runs on "
                              f"another machine ({seen}): the switches' clocks are seeded and probed against this "
                              "host's CLOCK_MONOTONIC, so every worker must run on the daemon's host; nothing was "
                              "written")


def build_agent(cfg: NetConfig, s, prep: Prepared, log: EventLog, metrics: Metrics, clock) -> SwitchAgent:
    """The agent of switch ``s`` (not connected), as the daemon makes it: the first
    install writes the entries the checks built (:meth:`Prepared.take_entries`)."""
    backend = prep.backends[s.name](plans.switch_address(s, cfg.daemon.rpc_timeout_s))
    metrics.switch_known(s.name)
    a = SwitchAgent(s, cfg.programs[s.program], prep.roles[s.name], backend, prep.pipelines[(s.target, s.program)],
                    log=log, metrics=metrics, clock=clock)
    a.drain_s = Controller.drain_s(cfg, prep.routes)
    built = prep.take_entries(s.name)
    if built is not None:
        a.seed_routes(prep.routes, 0, built)
    a.incremental = cfg.daemon.incremental
    return a


class SwitchRef:
    """The coordinator's view of a switch a worker owns: its config and role (the masks
    and versions are computed from them here), its owner, and what the owner last said of
    it."""

    def __init__(self, s, role, program, cookie: int):
        self.cfg, self.role, self.program = s, role, program
        self.cookie = cookie            # the pipeline's: a reload keeps the program
        self.owner: str | None = None
        self.state = "up"
        self.active: int | None = None
        self.entries = 0
        self.installed = None
        self.dead = False
        self.retry_install = False
        self.last_error: str | None = None
        self.activated_at: float | None = None
        self.counters: dict = {}
        self.net_gen = 0
        self.shadows = True

    @property
    def name(self) -> str:
        return self.cfg.name

    def alive(self) -> bool:
        return self.state == "up"

    def status(self) -> dict:
        """What the coordinator knows of a switch whose owner did not answer."""
        return {"name": self.name, "role": self.cfg.role, "tor": self.cfg.tor, "address": self.cfg.address,
                "device_id": self.cfg.device_id, "state": "unreachable", "owner": self.owner,
                "generation": self.active, "entries": self.entries, "entries_written": 0,
                "last_error": self.last_error}

    def close(self) -> None:
        pass


class Workers:
    """The Dask cluster, one :class:`ShareWorker` actor per worker, and who owns which
    switch."""

    def __init__(self, cfg: NetConfig, log: EventLog):
        self.cfg, self.log = cfg, log
        self.n = cfg.daemon.workers
        self.client = None
        self.cluster = None
        self.actors: dict[str, object] = {}          # worker address -> ShareWorker actor
        self.owner: dict[str, str] = {}              # switch -> worker address
        self.lost: set[str] = set()                  # workers found dead, not yet taken over from
        self.gone: set[str] = set()                  # workers taken over from
        self._lock = threading.Lock()

    # ---- cluster ---------------------------------------------------------------------------------
    def start(self) -> None:
        """A local cluster of N worker processes on the loopback, or N workers of the
        configured scheduler; raises ConfigError naming the scheduler if it cannot be
        reached or has too few workers."""
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError as e:
            raise ConfigError(f"{self.cfg.path}: [daemon]: workers = {self.n} needs dask.distributed "
                              f"(pip install 'uro[dask]'): {e}") from None
        where = f"{self.cfg.path}: [daemon]: scheduler: {self.cfg.daemon.scheduler}"
        if self.cfg.daemon.scheduler is None:
            # a worker silent for worker_silent_s is dropped (its nanny kills and restarts it): its
            # actor's calls fail and its switches are taken over, where Dask's default would wait
            # 5 to 10 minutes
            self.cluster = LocalCluster(n_workers=self.n, threads_per_worker=1, processes=True, host="127.0.0.1",
                                        dashboard_address=None, memory_limit=0, silence_logs=logging.ERROR,
                                        scheduler_kwargs={"worker_ttl": self.cfg.daemon.worker_silent_s})
            self.client = Client(self.cluster)
        else:
            try:
                self.client = Client(self.cfg.daemon.scheduler, timeout=CONNECT_TIMEOUT_S)
            except (OSError, TimeoutError) as e:
                raise ConfigError(f"{where}: cannot reach the Dask scheduler ({e}); nothing was written") from None
        try:
            self.client.wait_for_workers(self.n, timeout=CONNECT_TIMEOUT_S)
        except (TimeoutError, OSError) as e:
            have = len(self.client.scheduler_info()["workers"])
            self.close()
            raise ConfigError(f"{where if self.cfg.daemon.scheduler else f'{self.cfg.path}: [daemon]: workers'}: "
                              f"{have} of {self.n} workers within {CONNECT_TIMEOUT_S:g} s (the others do not reach "
                              "it); nothing was written") from None
        addrs = sorted(self.client.scheduler_info()["workers"])[:self.n]
        futs = {w: self.client.submit(ShareWorker, str(self.cfg.path), w, actor=True, workers=[w],
                                      allow_other_workers=False, pure=False) for w in addrs}
        self.actors = {w: f.result(timeout=CONNECT_TIMEOUT_S * 3) for w, f in futs.items()}

    def shares(self, names: list[str]) -> dict[str, list[str]]:
        """``names`` in contiguous shares of about equal size, one per worker."""
        ws = list(self.actors)
        k, extra = divmod(len(names), len(ws))
        out, i = {}, 0
        for j, w in enumerate(ws):
            n = k + (j < extra)
            out[w] = names[i:i + n]
            i += n
        return out

    def alive(self) -> list[str]:
        return [w for w in self.actors if w not in self.lost and w not in self.gone]

    def call(self, calls: dict[str, tuple[str, tuple]]) -> dict[str, object]:
        """``{worker: (method, args)}`` all at once: {worker: result, or WorkerLost}; a
        worker that does not answer is marked lost."""
        futs = {}
        for w, (method, args) in calls.items():
            try:
                futs[w] = getattr(self.actors[w], method)(*args)
            except Exception as e:   # noqa: BLE001 - any comm failure: the worker is gone
                futs[w] = e
        out = {}
        for w, f in futs.items():
            if isinstance(f, Exception):
                out[w] = self.lost_worker(w, f)
                continue
            try:
                out[w] = f.result()
            except BackendError as e:
                out[w] = e
            except Exception as e:   # noqa: BLE001
                out[w] = self.lost_worker(w, e)
        return out

    def lost_worker(self, w: str, e: Exception) -> WorkerLost:
        with self._lock:
            if w not in self.gone:
                self.lost.add(w)
        self.log.error("worker.lost", worker=w, error=f"{type(e).__name__}: {e}",
                       switches=sum(1 for o in self.owner.values() if o == w))
        return WorkerLost(f"worker {w} lost ({type(e).__name__}: {e})")

    def by_owner(self, names) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for n in names:
            out.setdefault(self.owner[n], []).append(n)
        return out

    def take_over(self, shadows: bool, failed: Failed) -> dict[str, str]:
        """The switches of every lost worker shared among the survivors (each connects
        with the config's election ids); {switch: error} of those not reached."""
        with self._lock:
            lost, self.lost = set(self.lost), set()
            self.gone |= lost
        orphans = [n for n, w in self.owner.items() if w in lost]
        alive = self.alive()
        if not alive:
            raise BackendError(f"every worker is lost ({', '.join(sorted(self.gone))}): "
                               f"{len(orphans)} switches have no owner")
        # copy-on-write: the clock pass's thread reads ``actors`` and ``owner`` while an
        # update's takeover runs; a reader keeps the dict it took, never one changing size
        self.actors = {w: a for w, a in self.actors.items() if w not in lost}
        plan = {w: orphans[i::len(alive)] for i, w in enumerate(alive)}
        res = self.call({w: ("own", (names, shadows, failed)) for w, names in plan.items() if names})
        self.owner = {**self.owner, **{n: w for w, names in plan.items() for n in names}}
        errors = {}
        for w, names in plan.items():
            r = res.get(w)
            if isinstance(r, Exception):
                errors.update({n: str(r) for n in names})
            elif r:
                errors.update(r)
        self.log.warn("worker.takeover", lost=sorted(lost),
                      owners={w: len(v) for w, v in plan.items() if v}, errors=errors or None,
                      note="the switches keep the election ids of the config: the new owner is primary at once")
        return errors

    def close(self) -> None:
        if self.client is not None:
            try:
                self.call({w: ("close", ()) for w in self.alive()})
            except Exception:   # noqa: BLE001 - shutting down
                pass
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        self.client = self.cluster = None


class RemoteClocks:
    """:class:`~controller.daemon.clocksync.ClockIO` through the workers owning the
    switches: one call per worker naming its switches (all workers at once); the readings
    come back raw and the coordinator's supervision keeps the state. A switch whose worker
    is lost (or does not answer) gets an error: it is read by its new owner once the next
    update took it over."""

    def __init__(self, workers: "Workers"):
        self.workers = workers

    def run(self, agents: list, jobs: dict[str, Job], params: PassParams) -> dict[str, dict]:
        alive = set(self.workers.alive())
        out: dict[str, dict] = {}
        groups: dict[str, dict[str, Job]] = {}
        for a in agents:
            w = self.workers.owner.get(a.name)
            if w in alive:
                groups.setdefault(w, {})[a.name] = jobs[a.name]
            else:
                out[a.name] = {"error": f"its worker {w} is lost: read by its new owner after the takeover"}
        res = self.workers.call({w: ("clocks", (js, params)) for w, js in groups.items()})
        for w, js in groups.items():
            r = res[w]
            for n in js:
                out[n] = {"error": str(r)} if isinstance(r, Exception) else r[n]
        return out


class RemoteUpdate(NetworkUpdate):
    """:class:`NetworkUpdate` with each phase run by the workers owning the switches: one
    call per worker and phase, all workers at once. A lost worker fails the phase on its
    switches (:class:`WorkerLost`), exactly as a switch that failed it."""

    def __init__(self, workers: Workers, *args, **kw):
        super().__init__(*args, **kw)
        self.workers = workers

    @staticmethod
    def _ref(x):
        return RoutesRef(x.version) if isinstance(x, plans.Routes) else x

    def each(self, agents, what: str, *args, failed=None) -> dict[str, object]:
        failed = failed or self.failed
        args = tuple(self._ref(x) for x in args)
        groups = self.workers.by_owner([a.name for a in agents])
        res = self.workers.call({w: ("phase", (names, what, args)) for w, names in groups.items()})
        now = time.monotonic()
        out: dict[str, object] = {}
        for w, names in groups.items():
            r = res[w]
            for n in names:
                out[n] = r if isinstance(r, Exception) else r[n]
        for a in agents:
            r = out[a.name]
            if isinstance(r, BackendError):
                a.last_error = str(r)
                failed(a, r)
            elif what == "activate":
                a.activated_at = now
        return out

    def each_then(self, agents, what: str, args: tuple, then: str, then_args: tuple, then_if,
                  then_failed=None):
        """:meth:`NetworkUpdate.each_then` as two calls per worker: the second phase on the
        switches whose first passed ``then_if``, once every worker has answered the first."""
        first = self.each(agents, what, *args)
        more = [a for a in agents if then_if(first[a.name])]
        return first, lambda: self.each(more, then, *then_args, failed=then_failed)

    def done(self, agents, routes, results: dict, swapped: bool) -> None:
        groups = self.workers.by_owner([a.name for a in agents])
        res = self.workers.call({w: ("done", (names, routes.version, {n: results.get(n) for n in names}, swapped))
                                 for w, names in groups.items()})
        refs = {a.name: a for a in agents}
        for w, r in res.items():
            if isinstance(r, Exception):
                continue
            for n, brief in r.items():
                ref = refs[n]
                ref.state, ref.active, ref.entries = brief["state"], brief["active"], brief["entries"]
                ref.installed, ref.retry_install = brief["installed"], brief["retry_install"]


class DistributedController(Controller):
    """:class:`Controller` whose switches are owned by worker processes (:class:`Workers`):
    the start, the network-wide updates, the failures' masks, the slice timers, the
    maintenance and the status go to the owners; routes, failures, the API and the
    reports stay here."""

    def __init__(self, cfg: NetConfig, **kw):
        super().__init__(cfg, **kw)
        self.workers = Workers(cfg, self.log)
        self._update = RemoteUpdate(self.workers, self._pool, self.log, self.hold_s, self._sleep, self._phase_failed)
        self._maint = None          # the last maintenance call to the workers, still running

    def start(self, prep: Prepared | None = None, on_clock=None) -> None:
        cfg = self.cfg
        # the checks of every switch's entries run on the workers, each for its share
        prep = prep or Prepared(cfg, self.failed, self.backend_for, names=())
        prep.add(s.name for s in cfg.switches)
        self.routes = prep.routes
        self.route_cache.add(cfg, prep.routes)
        self.agents = {s.name: SwitchRef(s, prep.roles[s.name], cfg.programs[s.program],
                                   prep.pipelines[(s.target, s.program)].cookie) for s in cfg.switches}
        self._check_timing(cfg)
        self.workers.start()
        if cfg.clock.sync:
            try:
                check_same_clock(cfg, self.workers.call({w: ("boot_id", ()) for w in self.workers.alive()}), boot_id())
            except ConfigError:
                self.workers.close()
                raise
        shares = self.workers.shares([s.name for s in cfg.switches])
        res = self.workers.call({w: ("open", (names, self.failed, self.routes.version, self.routes.schedule_version,
                                              self.shadows)) for w, names in shares.items()})
        self.workers.owner = {n: w for w, names in shares.items() for n in names}
        for n, w in self.workers.owner.items():
            self.agents[n].owner = w
        bad = {w: r for w, r in res.items() if isinstance(r, Exception) or r}
        if bad:
            w, r = next(iter(bad.items()))
            self.workers.close()
            if isinstance(r, Exception):
                raise ConfigError(f"{cfg.path}: [daemon]: workers: worker {w}: {r}") from None
            raise ConfigError(next(iter(r.values())))
        self._adopt(self.agents.values(), self.clock())
        self.log.event("daemon.started", network=cfg.name, switches=len(self.agents), routes_version=self.routes.version,
                       routes_s=round(self.routes.seconds, 4), schedule=self.routes.schedule.describe(),
                       workers={w: len(v) for w, v in shares.items()})
        self._start_clock(cfg)
        if on_clock is not None:
            on_clock()
        self.install_all()
        self.aging.rules = prep.aging      # host aging: the hosts' namespaces are on this host
        self.sync_hosts()
        self._warm(cfg)

    def _clock_io(self) -> RemoteClocks:
        """The clock supervision's reads, probes and seeds on the workers owning the switches."""
        return RemoteClocks(self.workers)

    def _adopt(self, agents, now: float) -> None:
        for a in agents:
            self._due[a.name] = Due(retry=now, reconcile=now + self.cfg.daemon.reconcile_s, counters=now)

    def install_all(self, names=None) -> dict[str, str | None]:
        """The network-wide update on the workers, their maintenance held meanwhile (as
        the one-process daemon's is: a pass in progress stops starting switches, so the
        update's phases wait at most for the switches in flight, never for a pass over
        the whole share); a worker lost in it: its switches taken over by the others and
        the update run again (its survey finishes what the lost worker left), until no
        worker is lost or none is left."""
        self.workers.call({w: ("hold", (True,)) for w in self.workers.alive()})
        try:
            return self._install_all(names)
        finally:
            self.workers.call({w: ("hold", (False,)) for w in self.workers.alive()})

    def _install_all(self, names=None) -> dict[str, str | None]:
        while True:
            routes = self.routes
            res = self.workers.call({w: ("compute", (self.failed, routes.version, routes.schedule_version,
                                                     self.cfg.daemon.incremental)) for w in self.workers.alive()})
            for w, r in res.items():
                if isinstance(r, Exception) and not isinstance(r, BackendError):
                    self.log.error("worker.routes_failed", worker=w, error=str(r))
            out = super().install_all(names) if not self.workers.lost else {}
            if not self.workers.lost:
                self.workers.call({w: ("settle", (routes.version,)) for w in self.workers.alive()})
                return out
            errors = self.workers.take_over(self.shadows, self.failed)
            for n, w in self.workers.owner.items():
                self.agents[n].owner = w
                self.agents[n].state = "down" if n in errors else "up"

    def _phase1(self, detected: float | None = None) -> dict[str, float]:
        with self._state_lock:
            failed = self.failed
        t0 = self.clock()
        detected = t0 if detected is None else detected
        res = self.workers.call({w: ("mask", (failed,)) for w in self.workers.alive()})
        out = {}
        for w, r in res.items():
            if isinstance(r, Exception):
                continue
            ms = round((self.clock() - detected) * 1e3, 3)
            for n, m in r.items():
                self.agents[n].dead = m["dead"]
                out[n] = ms
                self.log.event("mask.written", switch=n, worker=w, since_detection_ms=ms, write_ms=m["write_ms"])
        return out

    def tick(self, now: float | None = None) -> bool:
        now = self.clock() if now is None else now
        t = self.sclock.due(now)
        if t is None:
            return False
        for w in self.workers.alive():
            try:
                self.workers.actors[w].timers(t.slice_id)      # not waited for: the next slice's is
            except Exception:   # noqa: BLE001 - a lost worker is found by the maintenance pass
                pass
        self.sclock.record(t, {})
        return True

    def maintain(self, now: float | None = None) -> None:
        """Between updates: each worker's own pass over its share (not waited for: the next
        pass looks at its answer); a lost worker's switches taken over; a failed update
        retried network-wide; none started while a failure is being handled (gate.py: the
        passes in progress finish)."""
        if self._updating.is_set() or self.gate.failure_pending:
            return
        if self.workers.lost:
            self.request_update()          # the control thread takes over and runs the update
            return
        m = self._maint
        if m is not None:
            futs, started = m
            if not all(f.done() for f in futs.values()):
                return
            retry = False
            for w, f in futs.items():
                try:
                    retry = retry or bool(f.result())
                except Exception as e:   # noqa: BLE001
                    self.workers.lost_worker(w, e)
            if retry:
                self.request_update()
        version = self.routes.version
        futs = {}
        for w in self.workers.alive():
            try:
                futs[w] = self.workers.actors[w].maintain(version, self.cfg.daemon.reconcile_s,
                                                          self.net_gens.get("tor", 0))
            except Exception as e:   # noqa: BLE001
                self.workers.lost_worker(w, e)
        self._maint = (futs, self.clock())

    def _checked_here(self, cfg: NetConfig):
        """A reload's entries are built and checked by the workers, each for its share."""
        return ()

    def _stage_switches(self, cfg: NetConfig, prep: Prepared):
        """A reload's switches with workers, before anything changes: a switch that stays
        (same config, program and role) keeps its owner and agent; a changed one gets a new
        agent on its owner; a new one goes to the worker owning the fewest. Every worker
        loads the new config, checks its share against it and connects its new agents; one
        refusing (a config it cannot read, a switch it cannot reach) refuses the reload,
        and every worker drops what it staged. ``[daemon] workers``, ``scheduler`` and
        ``worker_silent_s`` stay (refused, naming the key: the cluster is the running
        daemon's)."""
        old = self.cfg
        for key in ("workers", "scheduler", "worker_silent_s"):
            if getattr(cfg.daemon, key) != getattr(old.daemon, key):
                raise ConfigError(f"{cfg.path}: [daemon]: {key}: {getattr(cfg.daemon, key)!r}, the running daemon's "
                                  f"is {getattr(old.daemon, key)!r}; the workers are the running daemon's: restart "
                                  "the daemon to change it")
        prep.add(s.name for s in cfg.switches)
        alive = self.workers.alive()
        if not alive:
            raise ConfigError(f"{cfg.path}: every worker is lost: restart the daemon")
        owners, fresh = {}, []
        for s in cfg.switches:
            ref = self.agents.get(s.name)
            w = self.workers.owner.get(s.name)
            if ref is not None and w in alive:
                owners[s.name] = w
                if not Controller.unchanged(ref.cfg, ref.cookie, ref.role, s, prep):
                    fresh.append(s.name)
        load = {w: sum(1 for o in owners.values() if o == w) for w in alive}
        for s in cfg.switches:
            if s.name not in owners:
                w = min(alive, key=lambda x: (load[x], alive.index(x)))
                owners[s.name] = w
                load[w] += 1
                fresh.append(s.name)
        shares = {w: [n for n, o in owners.items() if o == w] for w in alive}
        r = prep.routes
        res = self.workers.call({w: ("stage", (str(cfg.path), self.failed, r.version, r.schedule_version, names,
                                               tuple(n for n in fresh if owners[n] == w), self.shadows))
                                 for w, names in shares.items()})
        bad = [(w, x) for w, x in sorted(res.items()) if x is not None]
        if bad:
            self.workers.call({w: ("unstage", ()) for w in alive})
            w, x = bad[0]
            raise ConfigError(str(x) if isinstance(x, str) else f"{cfg.path}: worker {w}: {x}")
        return owners, fresh

    def _commit_switches(self, cfg: NetConfig, prep: Prepared, staged) -> list:
        """Every worker takes the staged config (its switches held until the update that
        follows ends, as during any update); the coordinator's view follows: the new
        owners, a reference for each new or changed switch (returned), the new roles."""
        owners, fresh = staged
        self.workers.cfg = cfg
        alive = self.workers.alive()
        self.workers.call({w: ("hold", (True,)) for w in alive})
        self.workers.call({w: ("commit", ()) for w in alive})      # a worker lost here is taken over by the update
        self.workers.owner = dict(owners)      # copy-on-write (the clock pass reads it)
        refs = {}
        for s in cfg.switches:
            if s.name in fresh:
                ref = SwitchRef(s, prep.roles[s.name], cfg.programs[s.program],
                                prep.pipelines[(s.target, s.program)].cookie)
            else:
                ref = self.agents[s.name]
                ref.cfg, ref.role, ref.program = s, prep.roles[s.name], cfg.programs[s.program]
            ref.owner = owners[s.name]
            refs[s.name] = ref
        self.agents = refs
        return [refs[n] for n in fresh]

    def status(self) -> dict:
        out = super().status()
        res = self.workers.call({w: ("status", ()) for w in self.workers.alive()})
        by_name = {}
        for w, r in res.items():
            if not isinstance(r, Exception):
                by_name.update({s["name"]: s for s in r})
        out["switches"] = [by_name.get(n) or a.status() for n, a in self.agents.items()]
        out["workers"] = {"scheduler": self.cfg.daemon.scheduler or "local",
                          "owners": {w: sorted(n for n, o in self.workers.owner.items() if o == w)
                                     for w in self.workers.actors},
                          "lost": sorted(self.workers.gone | self.workers.lost)}
        return out

    def _snapshot(self) -> None:
        pass

    def shutdown(self, warm_wait_s: float = WARM_WAIT_S) -> None:
        self.stopping.set()
        self.workers.close()
        super().shutdown(warm_wait_s)
