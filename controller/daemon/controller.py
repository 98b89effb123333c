"""The controller behind `uro daemon`: keeps every switch of a network programmed, in
time, and consistent.

- **start**: the config is checked as a whole (schedule, programs against it, routing
  parameters, routes computed, every switch's entries built, pipelines checked offline
  by their backend), then every switch is connected as primary (an address that does not
  answer, or a switch with another primary, stops the start: nothing is written
  anywhere), then each switch is brought to the routes hitlessly
  (:meth:`SwitchAgent.install`).
- **installing** new routes: a network-wide, per-packet consistent update
  (:mod:`controller.daemon.update`).
- **maintenance** (own thread): a switch whose session dropped is reconnected; a
  restarted switch gets its pipeline and entries back; every ``reconcile_s`` each switch
  is read back and drift repaired; a swap that failed half-way is retried; counters read.
- **failures** (:mod:`controller.daemon.changes`; control thread, jobs from the API/CLI and
  the link watcher, :mod:`controller.daemon.jobs`), in the two phases of FRANCIS §3.1 /
  UCMP §5.3: first the data plane, in one write per affected ToR (the per-uplink down
  mask: the K one-shot alternatives and SSRR hops treat a down uplink as Full, URO §IV-C),
  then routes recomputed on the degraded schedule and swapped in hitlessly. Events that
  arrive while routes are being computed are folded into one recomputation (the reaction
  is re-invoked on the latest state, FRANCIS §3.1).
- **slice clock** (own thread): in sync mode (the default) the switches keep it and the
  daemon seeds and watches it (:meth:`Controller.watch_clocks`,
  :mod:`controller.daemon.clocksync` through the backends, deciding by
  :mod:`controller.daemon.clockwatch`: reads, probes, alarms, a ToR unsynchronized too long
  taken out of routes); in timer mode it sends every slice's timer
  (:mod:`controller.daemon.clock`).
- **reload**: a new config is checked the same way; a bad one is refused and the
  running one stays.
- **status**: :meth:`Controller.status` and the snapshots the status API reads
  (:meth:`Controller.current`, :meth:`Controller.parse_change`).

Time is injected (``clock``) and every step is a method, so the unit tests drive all of
it without threads or sleeps.
"""

from __future__ import annotations

import collections
import dataclasses
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from controller.agent.backend import BackendError, backend_for as default_backend_for
from controller.daemon import hosts, plan as plans
from controller.daemon.changes import Change, apply_change, dataplane_report, generation_report, iso, parse_change
from controller.daemon.clock import SliceClock
from controller.daemon.clocksync import ClockIO, ClockSupervision, LocalClocks
from controller.daemon.clockwatch import ClockWatch
from controller.daemon.config import NetConfig, load as load_config
from controller.daemon.jobs import Jobs, Pending
from controller.daemon.liveness import LivenessWatch, unit_json
from controller.daemon.log import EventLog
from controller.daemon.metrics import Metrics
from controller.daemon.plan import Prepared, warm
from controller.daemon.gate import MaintenanceGate
from controller.daemon.switch import SwitchAgent, connect_all, kept_sessions
from controller.daemon.update import NetworkUpdate
from controller.errors import UroError
from controller import memory
from controller.memory import paused_gc
from controller.schedule.degrade import Failed

#: failure/recovery reports kept for the status
EVENTS_KEPT = 50
#: how long a shutdown waits for a warm-up still loading or compiling kernels (:meth:`Controller.warmed`)
WARM_WAIT_S = 60.0
#: a packet's time in a switch's queues after its last table lookup, beyond its hold for a
#: slice (bmv2's paced uplink queues; the Tofino2 TM; the software model is the slowest)
QUEUE_MARGIN_S = 0.1


@dataclass
class Due:
    """When the maintenance pass next does each thing on a switch (controller clock):
    reconnect or retry an install, read it back whole, read its counters."""

    retry: float
    reconcile: float
    counters: float


@dataclass
class Reloads:
    """The reloads so far (the status's ``reloads``)."""

    ok: int = 0
    refused: int = 0
    last: dict | None = None


class Controller:
    def __init__(self, cfg: NetConfig, *, backend_for=default_backend_for, clock: Callable[[], float] = time.monotonic,
                 log: EventLog | None = None, metrics: Metrics | None = None, workers: int = 16):
        self.cfg = cfg
        self.backend_for = backend_for
        self.clock = clock
        self.log = log or EventLog(cfg.daemon.log_format)
        self.metrics = metrics or Metrics()
        self.failed = Failed()
        self.routes: plans.Routes | None = None
        self.route_cache = plans.RouteCache()   # routes by (config, schedule version, failed set)
        self.agents: dict[str, SwitchAgent] = {}
        self.sclock: SliceClock | None = None       # timer mode: the daemon's slice timer
        self.csync: ClockSupervision | None = None  # sync mode: the switches' own clocks, supervised
        self.lwatch: LivenessWatch | None = None     # [liveness] enabled: the switches' own marks, read
        self.clock_ns: Callable[[], int] = time.monotonic_ns   # network time on this host (docs/clock.md)
        self.events: collections.deque = collections.deque(maxlen=EVENTS_KEPT)
        self.jobs = Jobs()
        self.stopping = threading.Event()
        self.started_at = time.time()
        self.reloads = Reloads()
        self.aging = hosts.HostAging(self.log)   # host flow aging in the [hosts] namespaces
        self._state_lock = threading.RLock()     # agents / routes / cfg swapped by reload
        self._due: dict[str, Due] = {}           # per switch: the maintenance pass's next times
        self.gate = MaintenanceGate(cfg.daemon.reconciles_at_once)   # failures before reconciles
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="uro-ctl")
        self._mpool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="uro-maint")
        # masks have their own threads: never queued behind an update's prepare on _pool
        self._kpool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="uro-mask")
        self._kpool_size = workers
        # the clock's reads, probes and seeds: PacketOut/PacketIn, never behind a write
        self._cpool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="uro-clock")
        self._warm_threads: list[threading.Thread] = []   # compiled kernels loaded beside the start
        self._update_lock = threading.Lock()     # one network-wide update at a time
        self._updating = threading.Event()       # set while one runs: maintenance leaves switches alone
        self.net_gens: dict[str, int] = {}       # per role: the generation its switches run (ToRs: stamp)
        self._mask_lock = threading.RLock()      # the failed set and the masks written from it
        self._update = NetworkUpdate(self._pool, self.log, self.hold_s, self._sleep, self._phase_failed)

    # ---- start -----------------------------------------------------------------------------
    def _agents_for(self, cfg: NetConfig, prep: Prepared, names=None) -> dict[str, SwitchAgent]:
        """An agent (not connected) for every switch of ``cfg`` (or those in ``names``)."""
        out = {}
        for s in cfg.switches:
            if names is not None and s.name not in names:
                continue
            backend = prep.backends[s.name](plans.switch_address(s, cfg.daemon.rpc_timeout_s))
            self.metrics.switch_known(s.name)
            out[s.name] = SwitchAgent(s, cfg.programs[s.program], prep.roles[s.name], backend,
                                      prep.pipelines[(s.target, s.program)],
                                      log=self.log, metrics=self.metrics, clock=self.clock)
            out[s.name].drain_s = self.drain_s(cfg, prep.routes)
            built = prep.take_entries(s.name)
            if built is not None:
                out[s.name].seed_routes(prep.routes, 0, built)
            out[s.name].shadows = self.shadows if cfg is self.cfg else cfg.daemon.diff_writes
            out[s.name].incremental = cfg.daemon.incremental
        return out

    def _connect_all(self, cfg: NetConfig, agents: dict[str, SwitchAgent], held_s: float = 0.0) -> None:
        """Connect every agent (:func:`~controller.daemon.switch.connect_all`: as many at
        once as the pool has threads, with progress; a session refused because its election
        id is held tried again for ``held_s``); the first failure stops the others, closes
        them all and raises ConfigError naming the switch and the field (address /
        election_id)."""
        errors = connect_all(list(agents.values()), self._pool, self.log, held_s=held_s)
        if errors:
            for a in agents.values():
                a.close()
            name, e = next(iter(errors.items()))
            raise plans.connect_error(cfg, agents[name].cfg, e)

    def check_switches(self, prep: Prepared) -> int:
        """`uro daemon --check`: a session to every switch of the config, closed again
        (raises ConfigError like :meth:`start`); returns how many switches answered."""
        agents = self._agents_for(self.cfg, prep)
        self._connect_all(self.cfg, agents, self.cfg.daemon.held_id_wait_s)
        for a in agents.values():
            a.close()
        return len(agents)

    def _adopt(self, agents, now: float) -> None:
        """Newly connected ``agents`` get the current masks and their maintenance times."""
        for a in agents:
            a.down = a.role.down_uplinks(self.routes.failed)
            a.dead = a.role.dead_slots(self.routes.schedule, self.failed)
            self._due[a.name] = Due(retry=now, reconcile=now + self.cfg.daemon.reconcile_s, counters=now)

    def start(self, prep: Prepared | None = None, on_clock: Callable[[], None] | None = None) -> None:
        """Check, connect, install (see module docstring). Raises ConfigError before anything
        is written. ``prep``: the checks and routes already done for this config.

        The slice clock exists before the first install and ``on_clock()`` (the daemon
        starts its clock thread there) runs before it: an update a crash interrupted is
        finished at start-up (flip, hold, retire), and packets held in the ToRs only leave
        while their slices advance, so the hold must pass with the clock running (a switch
        gets timers once it runs a generation, :meth:`SwitchAgent.send_timer`)."""
        cfg = self.cfg
        prep = prep or Prepared(cfg, self.failed, self.backend_for, keep_entries=True)
        for m in prep.memory:
            self.log.event("memory.phase", **m)
        self.routes = prep.routes
        self.route_cache.add(cfg, prep.routes)
        agents = self._agents_for(cfg, prep)
        for s in cfg.switches:
            tls = "insecure (plaintext gRPC, as the config says)" if s.tls.insecure else \
                f"TLS (ca={s.tls.ca}, client cert={s.tls.cert})"
            self.log.event("switch.transport", switch=s.name, address=s.address, transport=tls,
                           level="warning" if s.tls.insecure else "info")
        self._check_timing(cfg)
        self._connect_all(cfg, agents, cfg.daemon.held_id_wait_s)
        self.agents = agents
        self._adopt(agents.values(), self.clock())
        self.log.event("daemon.started", network=cfg.name, switches=len(agents), routes_version=self.routes.version,
                       routes_s=round(self.routes.seconds, 4), schedule=self.routes.schedule.describe())
        self.log.event("memory.phase", **memory.phase("sessions"))
        self._warm_masks(sum(1 for a in agents.values() if a.role.has_mask))
        self._start_clock(cfg)
        if on_clock is not None:
            on_clock()
        self.install_all()
        self.aging.rules = prep.aging
        self.sync_hosts()
        self._warm(cfg)      # the first failure's routes must not load compiled kernels

    def _start_clock(self, cfg: NetConfig) -> None:
        """Sync mode: the supervision of the switches' own clocks (and the liveness watch
        that reads their marks with them), its I/O through :meth:`_clock_io`; timer mode:
        the daemon's slice timer."""
        if cfg.clock.sync:
            self.csync = ClockSupervision(
                self._clock_watch(cfg), cfg.clock.slice_ms, self._clock_io(), self.log, self.metrics,
                clock_ns=lambda: self.clock_ns(), failed_tors=lambda: self.failed.tors,
                take_out=lambda tor: self.submit(Change("fail", "tor", tor, source="clock")),
                put_back=lambda tor: self.submit(Change("recover", "tor", tor, source="clock")))
            if cfg.liveness.enabled:
                self.lwatch = LivenessWatch(self.routes.schedule, damping=cfg.liveness.damping)
        else:
            self.sclock = SliceClock(cfg.clock.slice_ms / 1e3, self.routes.schedule.n_slices, self.clock())

    def _clock_io(self) -> ClockIO:
        """Where the clock supervision's reads, probes and seeds run: this process's
        sessions, on the clock pool (never behind a table write)."""
        return LocalClocks(self._cpool, lambda: self.clock_ns())

    def _clock_watch(self, cfg: NetConfig) -> ClockWatch:
        c = cfg.clock
        return ClockWatch(round(c.slice_us * 1000), self.routes.schedule.n_slices, round(c.alarm_us * 1000),
                          c.holdover_cycles)

    def _warm(self, cfg: NetConfig) -> None:
        """:func:`controller.daemon.plan.warm` on a thread of its own (:meth:`warmed` waits
        for it); what could not be warmed is logged. Not on the start's path: where numba's
        cache is empty (a fresh install) the kernels compile for tens of seconds on a 2-core
        machine, and the status API comes up only when the start returns. A failure meanwhile
        computes its routes as without the warm-up (numba's lock: a kernel being compiled is
        waited for, not compiled twice)."""
        def run() -> None:
            for algo, error in warm(cfg).items():
                self.log.warn("routes.warm_failed", algorithm=algo, error=error,
                              note="its routes after a failure are computed as without the warm-up (NumPy at small sizes)")
        t = threading.Thread(target=run, name="uro-warm", daemon=True)
        # (one per start or reload: the ended ones are let go, not kept for every reload)
        self._warm_threads = [w for w in self._warm_threads if w.is_alive()] + [t]
        t.start()

    def warmed(self, timeout: float | None = None) -> bool:
        """Wait until the warm-ups started so far ended (at most ``timeout`` s each); True
        when none is running."""
        for t in list(self._warm_threads):
            t.join(timeout)
        return not any(t.is_alive() for t in self._warm_threads)

    def _warm_masks(self, n: int) -> None:
        """Start the mask pool's threads now (one per switch with a mask, up to the pool's
        size): a failure's writes then go out at once instead of waiting for threads to be
        created one by one on a loaded host."""
        n = min(n, self._kpool_size)
        if n < 1:
            return
        gate = threading.Barrier(n)

        def hold(_):
            try:
                gate.wait(5.0)
            except threading.BrokenBarrierError:
                pass
        list(self._kpool.map(hold, range(n)))

    def _check_timing(self, cfg: NetConfig) -> None:
        """The queue model of a ToR program (slice capacity, byte clock) is built for its
        profile's slice length; a clock of another length needs [clock] capacity_bytes and
        bytes_per_us, or a program built for the clock (docs/daemon.md "Slice timing")."""
        if cfg.clock.capacity_bytes is not None and cfg.clock.bytes_per_us is not None:
            return
        for prog in {cfg.programs[s.program].name: cfg.programs[s.program]
                     for s in cfg.switches if s.role == "tor"}.values():
            us = prog.profile.get("timing", {}).get("slice_us")
            if us and abs(us - cfg.clock.slice_ms * 1e3) > 0.01 * us:
                self.log.warn("clock.program_timing", program=prog.name, program_slice_us=us,
                              clock_slice_us=cfg.clock.slice_ms * 1e3,
                              note="slice capacity and byte clock come from the program's profile; set [clock] "
                                   "capacity_bytes and bytes_per_us (0 = off), or build the program for the clock")

    # ---- host flow aging ------------------------------------------------------------------------
    def sync_hosts(self) -> dict:
        """Bring every ``[hosts] netns`` to the current flow-aging rules (UCMP §6.1):
        {netns: error or None} for the namespaces written."""
        return self.aging.sync(self.cfg.hosts.netns, self._pool.map)

    # ---- installing ----------------------------------------------------------------------------
    @property
    def shadows(self) -> bool:
        """The retired generation is kept as the shadow of the routes, so that an update
        writes only what differs (docs/daemon.md "Diff-only writes"); False (``[daemon]
        diff_writes = false``): deleted, every update writes a whole generation. Settable
        (`uro bench --suite daemon` alternates both in one run): it takes effect at the
        next retire, so the update after it writes accordingly."""
        override = getattr(self, "_shadows", None)
        return self.cfg.daemon.diff_writes if override is None else override

    @shadows.setter
    def shadows(self, on: bool) -> None:
        self._shadows = bool(on)
        for a in self.agents.values():
            a.shadows = self._shadows

    def install_all(self, names=None) -> dict[str, str | None]:
        """Bring every up switch to the current routes with a network-wide, per-packet
        consistent update (:class:`~controller.daemon.update.NetworkUpdate`, one per role:
        ToRs stamp one generation together, OCS emulators have their own); returns per
        switch what it did ("installed", "current", "swapped") or None where it failed
        (retried)."""
        out: dict[str, str | None] = {}
        with self._update_lock:   # the switches that are up, once no restore runs (_maintain_one)
            with self._state_lock:
                routes = self.routes
                # the switch of a ToR declared failed is not written (Role.left_out)
                agents = [a for a in self.agents.values() if a.state == "up" and (names is None or a.name in names)
                          and not a.role.left_out(routes)]
            groups: dict[str, list[SwitchAgent]] = {}
            for a in agents:
                groups.setdefault(a.role.name, []).append(a)
            self._updating.set()
            try:
                for role, group in groups.items():
                    done, gen = self._update.run(routes, group, self.net_gens.get(role, 0), self.shadows)
                    out.update(done)
                    if gen is not None:
                        self.net_gens[role] = gen
                        for a in self.agents.values():
                            if a.role.name == role:
                                a.net_gen = gen
            finally:
                self._updating.clear()
        # the next failure's repair writes in a copy of these routes made now, not then
        self.route_cache.prepare_copy(self.cfg, routes, lambda s, n: self.log.event(
            "routes.copy_made", version=routes.version, seconds=round(s, 3), mib=round(n / 2**20, 1)))
        return {a.name: out.get(a.name) for a in agents}

    def _phase_failed(self, a: SwitchAgent, e: BackendError) -> None:
        """A phase of an update raised on ``a``: the maintenance pass retries it."""
        a.last_error = str(e)
        a.retry_install = True
        self.log.error("switch.install_failed", switch=a.name, error=str(e))
        self._due_for(a.name).retry = self.clock() + self.cfg.daemon.reconnect_s

    @staticmethod
    def drain_s(cfg: NetConfig, routes) -> float:
        """How long a single switch's swap keeps the old generation routed after its sources
        stamp the new one (:attr:`GenerationWriter.drain_s`): a packet stamped with it is held
        at most one cycle on this ToR (``held_too_long``), plus :data:`QUEUE_MARGIN_S` for
        the queues after the last lookup."""
        return cfg.clock.slice_ms / 1e3 * routes.schedule.n_slices + QUEUE_MARGIN_S

    def hold_s(self) -> float:
        """How long the old generation stays live after every source stamps the new one: a
        packet stamped with it can still be in the network for its longest hold, at most
        one cycle on each ToR it crosses (``held_too_long``), over at most H + 1 ToRs (H:
        the most hops a route of the ToR program carries), plus :data:`QUEUE_MARGIN_S` for
        the queues after the last lookup (t2na's egress ``ssrr_hops``). ``[daemon] hold_s`` overrides
        it. A packet that outstays it is dropped and counted (``stale_gen``), never
        routed by the other generation."""
        if self.cfg.daemon.hold_s is not None:
            return self.cfg.daemon.hold_s
        hops = max([self.cfg.programs[a.cfg.program].profile.get("ssrr_hops", 1)
                    for a in self.agents.values() if a.cfg.role == "tor"] or [1])
        cycle = self.cfg.clock.slice_ms / 1e3 * self.routes.schedule.n_slices
        return cycle * (hops + 1) + QUEUE_MARGIN_S

    def _sleep(self, seconds: float) -> None:
        (getattr(self.clock, "sleep", None) or time.sleep)(seconds)

    # ---- maintenance ----------------------------------------------------------------------------
    def _due_for(self, name: str) -> Due:
        now = self.clock()
        return self._due.setdefault(name, Due(retry=now, reconcile=now, counters=now))

    def _maintain_one(self, a: SwitchAgent, now: float) -> None:
        if a.handed_over:
            return     # listed by this pass before a reload's commit: the switch is the next agent's
        due = self._due.setdefault(a.name, Due(retry=now, reconcile=now, counters=now))
        d = self.cfg.daemon
        routes = self.routes
        if a.state == "up" and not a.backend.connected:
            a.state = "down"
            self.log.warn("switch.lost", switch=a.name, address=a.cfg.address)
        if a.state != "up":
            if now < due.retry:
                return
            try:
                a.connect()
            except BackendError as e:
                # handed over after the test above (a reload's commit between the two): its
                # connect refused, the switch is the next agent's
                if a.failed_after_handover("connect", e):
                    return
                due.retry = now + d.reconnect_s
                self.log.warn("switch.connect_failed", switch=a.name, error=str(e))
                return
            # never beside a network-wide update: a switch restored with the generation the
            # network stamped when this pass began, while the update flips the others to the
            # other one (it skipped this switch: not up yet) and retires the first, would stamp
            # a generation no other ToR has live (its packets dropped as stale_gen, the chaos
            # drill's "recover tor" never settled). Routes, failures and generation are read
            # under the same lock the updates hold.
            with self._update_lock:
                routes = self.routes
                with a.cfg_lock:
                    a.down = self._down_for(a)
                    a.dead = a.role.dead_slots(routes.schedule, self.failed)
                a.net_gen = self.net_gens.get(a.role.name, 0)
                try:   # back: a restarted switch is restored, one that kept running is read back and repaired
                    a.reconcile(routes)
                    due.reconcile = now + d.reconcile_s
                    self._behind(a)
                except BackendError as e:
                    a.last_error = str(e)
                    self.log.error("switch.restore_failed", switch=a.name, error=str(e))
                    due.retry = now + d.reconnect_s
            return
        try:
            if self._updating.is_set():
                pass              # a network-wide update owns the switches meanwhile
            elif a.installed != a.role.version(routes):
                # new routes are installed by whoever made them (control thread); an update
                # that failed on this switch is retried network-wide (it is the control
                # thread's too: one switch alone must not flip its sources)
                if a.retry_install and now >= due.retry and not a.role.left_out(routes):
                    due.retry = now + d.reconnect_s
                    self.request_update()
            elif now >= due.reconcile or a.reconcile_due:
                # due after an update that verified only what it wrote: the whole switch is
                # read once per update, after it (docs/daemon.md "One read per switch and update");
                # never while a failure is being handled, and a few at a time (gate.py)
                with self.gate.reconcile() as turn:
                    if turn:
                        a.reconcile(routes)
                        due.reconcile = now + d.reconcile_s
                        self._behind(a)
            if now >= due.counters and not self.gate.failure_pending:
                a.read_counters()
                due.counters = now + min(5.0, d.reconcile_s)
        except BackendError as e:
            a.last_error = str(e)
            if a.failed_after_handover("maintenance", e):
                return
            self.log.error("switch.maintenance_failed", switch=a.name, error=str(e))
            if not a.backend.connected:
                a.state = "down"
            due.retry = now + d.reconnect_s

    def request_update(self) -> None:
        """Queue a network-wide update for the control thread (once)."""
        self.jobs.update()

    def _behind(self, a: SwitchAgent) -> None:
        """After a maintenance pass brought ``a`` to the routes it read at its start: if the
        control thread made newer routes meanwhile, it skipped this switch (down, being
        restored) or was undone by the pass, so the next pass installs the current ones."""
        with self._state_lock:
            current = self.routes
        if current is not None and a.installed != a.role.version(current):
            a.retry_install = True

    def _down_for(self, a: SwitchAgent) -> frozenset[int]:
        return a.role.down_uplinks(Failed() if self.routes is None else self.failed)

    def maintain(self, now: float | None = None) -> None:
        """One maintenance pass over every switch with something due (in parallel): the
        others cost a few attribute tests, not a task on the pool (a pass runs five times a
        second, over a thousand switches at (1024, 32))."""
        now = self.clock() if now is None else now
        failing = self.gate.failure_pending
        with self._state_lock:
            agents = [a for a in self.agents.values() if self._pass_due(a, now, failing)]
        list(self._mpool.map(lambda a: self._maintain_one(a, now), agents))
        self._snapshot()

    def _pass_due(self, a: SwitchAgent, now: float, failing: bool = False) -> bool:
        """Whether :meth:`_maintain_one` may do anything on ``a`` now (a superset: it decides).
        ``failing``: a failure is being handled (gate.py): a switch that is up goes to the
        pool only for a retry; its due reconcile is put off (counted) and its counters wait,
        so that a (1024, 32) pass does not hand a thousand switches to the pool five times a
        second beside the failure's routes."""
        due = self._due.get(a.name)
        if due is None or a.state != "up" or not a.backend.connected or a.retry_install:
            return True
        if failing:
            if a.reconcile_due or now >= due.reconcile:
                self.gate.put_off()
            return False
        return a.reconcile_due or now >= due.reconcile or now >= due.counters

    def _snapshot(self) -> None:
        self.metrics.set_snapshot({a.name: {"up": int(a.alive()), "generation": -1 if a.active is None else a.active,
                                            "entries": a.entries, "counters": a.counters}
                                   for a in self.agents.values()})

    # ---- failures: phase 1, the data plane --------------------------------------------------------
    def submit(self, change: Change) -> Change:
        """Detection (API, link watcher): the data plane's reaction first, in the caller's
        thread (:meth:`mask_now`), then the job that recomputes routes (control thread)."""
        change.detected = change.detected or self.clock()
        self.gate.opened(change)           # no reconcile starts until it is handled
        if self.routes is not None and self.agents:
            self.mask_now(change)
        self.jobs.change(change)
        return change

    def mask_now(self, change: Change) -> None:
        """Phase 1 of ``change`` at once, not behind the control thread (which may be in a
        network-wide update, a reload or a routing computation) nor behind a reconcile or
        counter read on a switch: the failed set is updated and every ToR whose mask
        changes gets its one config write, all issued in parallel (:meth:`_phase1`).

        Why this never routes a packet by a mix of generations: the mask is not a
        generation change. It lives in the config entry next to the active generation
        and applies to whichever generation a packet carries (a packet of the old
        generation held for its hold sees it as well: the (slice, uplink) it would leave
        on is treated as Full and the packet takes its next alternative *of its own
        generation*, URO §IV-C, or is re-sourced, UCMP §6.3). The write keeps the active
        generation and the live set as they are (``cfg_lock``: a flip and a mask never
        interleave, each writes the other's latest value), so a mask written in the
        middle of a network-wide update leaves every switch exactly where the update had
        it: same stamp, same live generations. The control thread applies the change again
        (idempotent) and finds the masks written."""
        with self._mask_lock:
            with self._state_lock:
                self.failed = apply_change(self.failed, change)
            done = self._phase1(change.detected)
        change.masked = done
        change.masked_at = self.clock()
        self.log.event("failure.masked", kind=change.kind, op=change.op, target=change.target_json,
                       source=change.source, switches=done,
                       ms=round((change.masked_at - change.detected) * 1e3, 3))

    def _phase1(self, detected: float | None = None) -> dict[str, float]:
        """The mask of every ToR for the current failed set, one config write each, all
        issued at once (one pool thread per switch, :meth:`SwitchAgent.set_down`).
        Returns {switch: ms from ``detected`` to its write acknowledged} for the switches
        written; logs ``mask.written`` with each switch's lock wait and write time."""
        with self._state_lock:
            agents = [a for a in self.agents.values() if a.role.has_mask]
            failed, sched = self.failed, self.routes.schedule
        t_start = self.clock()
        detected = t_start if detected is None else detected

        def one(a: SwitchAgent) -> tuple[str, float] | None:
            t_run = self.clock()
            try:
                if not a.set_down(a.role.down_uplinks(failed), a.role.dead_slots(sched, failed)):
                    return None
            except BackendError as e:
                a.last_error = f"down mask: {e}"
                self.log.error("switch.down_mask_failed", switch=a.name, error=str(e))
                return None
            m = a.last_mask
            ms = round((m["done"] - detected) * 1e3, 3)
            self.log.event("mask.written", switch=a.name, since_detection_ms=ms,
                           queued_ms=round((t_start - detected) * 1e3, 3),
                           thread_ms=round((t_run - t_start) * 1e3, 3), lock_wait_ms=m["lock_wait_ms"],
                           cfg_lock_ms=m["cfg_lock_ms"], write_ms=m["write_ms"])
            return a.name, ms
        return dict(x for x in self._kpool.map(one, agents) if x is not None)

    # ---- the control thread: jobs, and phase 2 of failures (new routes) ---------------------------
    def handle_jobs(self, block: float = 0.0) -> int:
        """Run the queued jobs: changes are folded (all phase-1 writes, then one routing);
        returns how many jobs ran."""
        batch = self.jobs.take(block)
        changes = [arg for kind, arg in batch if kind == "change"]
        if changes:
            self._react(changes)
            self.jobs.update_taken()
        elif any(kind == "update" for kind, _ in batch):
            self.jobs.update_taken()
            self.install_all()
        for kind, arg in batch:
            if kind == "reload":
                arg.pending.finish(self.reload(arg.path))
        return len(batch)

    def _react(self, changes: list[Change]) -> None:
        """Phase 1 (down masks, one write per affected ToR) for all ``changes``, more
        changes that arrive meanwhile likewise, then one recomputation and a hitless swap;
        every change gets its report."""
        handled: list[Change] = []
        pending = list(changes)
        try:
            while pending:
                late = self._apply(pending)
                t_masked = self.clock()
                dead_written = sum(1 for a in self.agents.values() if a.dead)
                for c in pending:
                    c.report = dataplane_report(c, late, t_masked, dead_written, self.clock())
                handled += pending
                until = max(c.detected + c.hold_routes_s for c in handled)
                if until > self.clock():       # held on request (diagnosis): the masks alone meanwhile
                    self.log.event("routes.held", seconds=round(until - self.clock(), 3))
                    self._sleep(until - self.clock())
                pending = self.jobs.more_changes()    # FRANCIS §3.1: fold in what arrived meanwhile
            results, err = self._recompute_and_install()
            self._finish(handled, results, err)
        finally:
            self.gate.closed(handled + pending)   # the reconciles go on (gate.py)

    def _apply(self, changes: list[Change]) -> dict[str, float]:
        """Count and log ``changes``, apply them to the failed set and write the masks of
        the ToRs whose mask still differs (those masked at submit are applied again,
        idempotent): {switch: ms} written here."""
        with self._mask_lock:
            for c in changes:
                (self.metrics.failures if c.op == "fail" else self.metrics.recoveries).labels(c.kind, c.source).inc()
                with self._state_lock:
                    self.failed = apply_change(self.failed, c)
                self.log.event(f"failure.{'detected' if c.op == 'fail' else 'recovered'}", kind=c.kind,
                               target=c.target_json, source=c.source)
            return self._phase1(min(c.detected for c in changes))

    def _recompute_and_install(self) -> tuple[dict[str, str | None], str | None]:
        """Routes for the current failed set (from the cache when this set was seen before,
        a recovery back to it), installed network-wide, the hosts' aging rules after
        them: (per switch what the install did, an error for the reports or None). The
        masks stay whatever happens."""
        try:
            with self._state_lock:
                r = self.routes
            # computed outside the lock: the clock thread and the status API keep going
            # (only this thread replaces routes, config and agents). The collector stays
            # paused from the routes to the last switch's cleanup (paused per phase only,
            # a young collection of the phase's survivors ran between them on the way to
            # the flip).
            with paused_gc():
                new = self.route_cache.routes(self.cfg, r.schedule, self.failed, r.version + 1, r.schedule_version,
                                              previous=r if self.cfg.daemon.incremental else None)
                with self._state_lock:
                    self.routes = new
                self.log.event("routes.computed", version=new.version, seconds=round(new.seconds, 4),
                               failed=self.failed.as_dict(), **({"note": new.notes[0]} if new.notes else {}),
                               **(new.delta.counts() if new.delta else {}))
                results = self.install_all()
                if new.delta is not None:     # the old routes are not kept past the update (a retry writes whole)
                    with self._state_lock:
                        if self.routes is new:
                            self.routes = dataclasses.replace(new, delta=None)
            try:      # the degraded routes' buckets may differ: hosts follow them
                self.aging.rules = hosts.rules_for(self.cfg, new)
            except UroError as e:
                self.log.error("hosts.aging_failed", error=str(e))
            self.sync_hosts()
            # the generation is active when every switch it was written to has it (the
            # switch of a failed ToR was not: Role.left_out)
            bad = [k for k, v in results.items() if v is None]
            return results, (f"new generation not active on {', '.join(bad)} (retried)" if bad else None)
        except Exception as e:   # routing on a degraded schedule can fail; the masks stay
            self.log.error("routes.failed", error=str(e))
            return {}, f"routes on the degraded schedule failed: {e}"

    def _finish(self, changes: list[Change], results: dict[str, str | None], err: str | None) -> None:
        """Complete each change's report (phase 2's times), keep it for the status, log it,
        observe its times in the metrics and wake whoever waits for it."""
        # "active": the last switch's flip (the old generation's cleanup comes after)
        flips = [self.agents[k].activated_at for k, v in results.items()
                 if v is not None and k in self.agents and self.agents[k].activated_at is not None]
        t_active = max(flips) if flips else self.clock()
        t_done = self.clock()
        for c in changes:
            generation_report(c.report, c.detected, t_active, t_done, self.routes.version, err)
            self.events.append(c.report)
            self.log.event("failure.handled", **c.report)
            if c.report["dataplane_ms"] is not None:
                self.metrics.dataplane_seconds.observe(c.report["dataplane_ms"] / 1e3)
            if c.report["generation_s"] is not None:
                self.metrics.generation_seconds.observe(c.report["generation_s"])
            c.done.set()

    # ---- reload ---------------------------------------------------------------------------------------
    def request_reload(self, path: str | Path | None = None) -> Pending:
        """Queue a reload of ``path`` (None: the running config's file) for the control
        thread; the returned :class:`~controller.daemon.jobs.Pending` gets :meth:`reload`'s result."""
        return self.jobs.reload(path)

    def reload(self, path=None) -> dict:
        """Load and check a new config; refuse it (the running one stays) on any problem.
        Then the switches are changed to it (:meth:`_stage_switches` before anything is
        changed, :meth:`_commit_switches` after every check passed) and the whole network
        updated to its routes as one generation."""
        path = path or self.cfg.path
        try:
            cfg = load_config(path)
            old = self.cfg.clock
            if cfg.clock.mode != old.mode or (old.sync and cfg.clock.slice_ms != old.slice_ms):
                key = "mode" if cfg.clock.mode != old.mode else "slice_ms"
                raise UroError(f"{path}: [clock]: {key}: {getattr(cfg.clock, key)!r}, the running daemon's is "
                               f"{getattr(old, key)!r}: the switches' clocks run on it; restart the daemon to "
                               "change it")
            with self._state_lock:
                r = self.routes
            prep = Prepared(cfg, self.failed, self.backend_for, r.version + 1, r.schedule_version,
                            previous_schedule=r.schedule, names=self._checked_here(cfg))
            staged = self._stage_switches(cfg, prep)
        except UroError as e:
            self.reloads.refused += 1
            self.reloads.last = {"at": iso(), "ok": False, "error": str(e)}
            self.log.error("reload.refused", config=str(path), error=str(e))
            return {"ok": False, "error": str(e)}
        with self._state_lock:
            new_agents = self._commit_switches(cfg, prep, staged)
            old_sched = self.routes.schedule
            self.cfg, self.routes, self.failed = cfg, prep.routes, prep.routes.failed
            self.route_cache.clear()            # routes of the old config are never reused
            self.route_cache.add(cfg, prep.routes)
            self.aging.rules = prep.aging
            self._adopt(new_agents, self.clock())
        results = self.install_all()
        host_results = self.sync_hosts()
        self._warm(cfg)      # another algorithm may have come with the new config
        if self.sclock is not None:
            if not (old_sched == self.routes.schedule):
                self.sclock.reset(self.routes.schedule.n_slices, self.clock())
            self.sclock.period = cfg.clock.slice_ms / 1e3
        if self.csync is not None:
            if not (old_sched == self.routes.schedule):
                self.csync.cw = self._clock_watch(cfg)
            self.csync.cw.alarm_ns = round(cfg.clock.alarm_us * 1000)
            self.csync.slice_ms = cfg.clock.slice_ms
        if self.csync is not None:
            self._reload_liveness(cfg, new_schedule=not (old_sched == self.routes.schedule))
        self.reloads.ok += 1
        self.reloads.last = {"at": iso(), "ok": True, "routes_version": self.routes.version}
        self.log.event("reload.done", config=str(path), routes_version=self.routes.version,
                       new_switches=sorted(a.name for a in new_agents), results=results, hosts=host_results)
        return {"ok": True, "routes_version": self.routes.version, "results": results, "hosts": host_results}

    def _checked_here(self, cfg: NetConfig):
        """The switches whose entries a reload builds and checks in this process (None: all)."""
        return None

    @staticmethod
    def unchanged(running_cfg, cookie: int, role, s, prep: Prepared) -> bool:
        """A running switch (its config, pipeline cookie and role) stays as it is under a
        reload's switch ``s``: same config, same program build, same kind of role."""
        return running_cfg == s and cookie == prep.pipelines[(s.target, s.program)].cookie \
            and type(role) is type(prep.roles[s.name])

    def _stage_switches(self, cfg: NetConfig, prep: Prepared):
        """A reload's switches, before anything changes: an agent kept for each switch
        whose config, program and role are the same, a new one for each other -- connected,
        or, where its session would be the running one's, to take that session at the
        commit (:func:`~controller.daemon.switch.kept_sessions`) -- (raises UroError,
        nothing changed, when one cannot be reached)."""
        keep, fresh = {}, []
        for s in cfg.switches:
            old = self.agents.get(s.name)
            if old is not None and self.unchanged(old.cfg, old.pipeline.cookie, old.role, s, prep):
                keep[s.name] = old
            else:
                fresh.append(s.name)
        new_agents = self._agents_for(cfg, prep, set(fresh))
        shared = kept_sessions(self.agents, new_agents)
        self._connect_all(cfg, {n: a for n, a in new_agents.items() if n not in shared})
        return keep, new_agents, shared

    def _commit_switches(self, cfg: NetConfig, prep: Prepared, staged) -> list:
        """The staged switches become the daemon's (under the state lock): the others
        closed, the kept ones given the new roles; returns the new agents."""
        keep, new_agents, shared = staged
        for name in shared:
            new_agents[name].take_session(self.agents[name])
        for name, a in self.agents.items():
            if name not in keep:
                a.close()
        for name, a in keep.items():
            a.role = prep.roles[name]
            a.program = cfg.programs[a.cfg.program]
        agents = {**keep, **new_agents}
        self.agents = {s.name: agents[s.name] for s in cfg.switches}
        for a in self.agents.values():      # a new clock or schedule: a new drain
            a.drain_s = self.drain_s(cfg, prep.routes)
            a.incremental = cfg.daemon.incremental
        return list(new_agents.values())

    def _reload_liveness(self, cfg: NetConfig, new_schedule: bool) -> None:
        """A reload's ``[liveness]`` (sync mode): turned on, the watch starts; turned off, it
        stops, and what it declared failed stays failed (``liveness.off`` lists it: nothing
        watches it any more, so only the operator knows it is mended -- ``uro ctl recover``);
        a new schedule, a new watch on its circuits that keeps the penalties and what was
        declared; new damping figures apply to the penalties as they stand."""
        old = self.lwatch
        if not cfg.liveness.enabled:
            if old is not None:
                self.lwatch = None
                held = [unit_json(u) for u in sorted(old.mine, key=repr)]
                self.log.warn("liveness.off", held_failed=held,
                              note="the failures liveness declared stay failed: recover each with uro ctl "
                                   "recover once it is mended" if held else "nothing it declared is failed")
            return
        if old is None or new_schedule:
            lw = LivenessWatch(self.routes.schedule, damping=cfg.liveness.damping)
            if old is not None:
                lw.damper, lw.mine = old.damper, set(old.mine)
            self.lwatch = lw
            if old is None:
                self.log.event("liveness.on", down_after=cfg.liveness.down_after)
        self.lwatch.damper.params = cfg.liveness.damping

    # ---- clock --------------------------------------------------------------------------------------------
    def tick(self, now: float | None = None) -> bool:
        """Send the timer of the slice that started, if one did; returns whether it sent."""
        now = self.clock() if now is None else now
        t = self.sclock.due(now)
        if t is None:
            return False
        with self._state_lock:
            agents = list(self.agents.values())
        if t.skipped:
            self.metrics.slices_skipped.inc(t.skipped)
            for a in agents:          # a jump the switches would refuse as too far
                a.need_sync = True
        sent = {}
        for a in agents:
            ts = a.send_timer(t.slice_id)
            if ts is not None:
                sent[a.name] = ts
        self.sclock.record(t, sent)
        if sent:
            self.metrics.timer_spread.observe(max(sent.values()) - min(sent.values()))
            for ts in sent.values():
                self.metrics.timer_lateness.observe(max(0.0, ts - t.ideal))
        return True

    # ---- the switches' own clocks (sync mode) ------------------------------------------------------------
    @property
    def cwatch(self) -> ClockWatch | None:
        """Sync mode: the switches' clocks as the supervision last saw them (None: timer mode)."""
        return None if self.csync is None else self.csync.cw

    def watch_clocks(self, now: float | None = None) -> None:
        """One pass of the clock supervision over the switches that are up and programmed
        (:meth:`controller.daemon.clocksync.ClockSupervision.watch`)."""
        now = self.clock() if now is None else now
        with self._state_lock:
            agents = [a for a in self.agents.values() if a.state == "up" and a.active is not None]
            known = set(self.agents)
        self.csync.watch(agents, known, now)
        lw = self.lwatch                     # a reload may replace it meanwhile (another thread)
        if lw is not None:
            self.watch_liveness(now, lw)

    def watch_liveness(self, now: float, lw: LivenessWatch) -> None:
        """The ToRs' liveness marks, read with their clocks (fresh: read within three read
        periods, without an error since), as failures (``lw``, the watch the pass took: a
        reload may replace :attr:`lwatch` meanwhile): each change they call for submitted
        like any detection's (source ``liveness``)."""
        cw = self.csync.cw
        fresh = {c.tor: c.registers for c in cw.clocks.values()
                 if c.role == "tor" and c.tor is not None and c.last_error is None and c.read_at is not None
                 and now - c.read_at <= 3 * cw.read_s and "live_mask" in c.registers}
        if not fresh:
            return
        before = lw.verdict
        v = lw.read(fresh, now)
        if v != before:
            self.log.event("liveness.marks", **v.as_dict(), agrees_with=lw.agrees)
        for event, unit, penalty in lw.damping_events:
            kind, target = unit_json(unit)
            if event == "flap":
                self.metrics.flaps.labels(kind).inc()
            elif event == "suppressed":
                self.metrics.suppressions.labels(kind).inc()
                self.log.warn("liveness.suppressed", kind=kind, target=target, penalty=round(penalty, 1),
                              note="flapping: once declared (its marks held three reads) it is held failed until "
                                   "its penalty decays below [liveness.damping] reuse (docs/liveness.md \"Flap "
                                   "damping\")")
            else:
                self.log.event("liveness.released", kind=kind, target=target, penalty=round(penalty, 1))
        self.metrics.set_damping(lw.damper.status(now))
        with self._state_lock:
            failed = self.failed
        for ch in lw.changes(failed):
            note = "the switches' own marks (docs/liveness.md)"
            if ch.op == "fail" and lw.damper.suppressed((ch.kind, ch.target)):
                note = ("flapping in the switches' marks: held failed until its penalty decays below "
                        "[liveness.damping] reuse (docs/liveness.md \"Flap damping\")")
            elif ch.kind == "misconfigured":
                note = (f"ToR {ch.target} answers under another ToR's id on its circuits: check its configured id "
                        "and its OCS cabling; routed around as a failed ToR meanwhile (docs/liveness.md)")
            self.log.warn("liveness.detected" if ch.op == "fail" else "liveness.healed", kind=ch.kind,
                          target=ch.target_json, note=note)
            self.submit(ch)

    def timer_log(self) -> dict:
        """``GET /clock/timers``: ``slice0_at`` and ``[k, slice id, {switch: when its slice k
        started}]`` of the last slices on the daemon's clock (CLOCK_MONOTONIC, seconds):
        timer mode, when each switch's timer was handed to the backend; sync mode, each
        switch's boundary as last probed (:meth:`ClockSupervision.timer_log`)."""
        if self.sclock is not None:
            return {"slice0_at": self.sclock.t0, "timers": self.sclock.timer_log()}
        if self.csync is None:
            return {"slice0_at": None, "timers": []}
        return self.csync.timer_log()

    def clock_status(self) -> dict | None:
        """The status API's ``clock``: the daemon's timer (timer mode) or the switches' own
        clocks as watched (sync mode, :meth:`ClockSupervision.status`)."""
        if self.sclock is not None:
            return {"mode": "timer", **self.sclock.status()}
        return None if self.csync is None else self.csync.status()

    # ---- status ---------------------------------------------------------------------------------------------
    def current(self) -> tuple[NetConfig, plans.Routes]:
        """The running config and routes, read together (a reload replaces both)."""
        with self._state_lock:
            return self.cfg, self.routes

    def parse_change(self, op: str, doc: dict) -> Change:
        """A change from the API's JSON, checked against the running network
        (:func:`~controller.daemon.changes.parse_change`; raises UroError)."""
        cfg, routes = self.current()
        names = {s.name: s.tor for s in cfg.switches if s.tor is not None}
        return parse_change(op, doc, routes.schedule.n_tors, routes.schedule.n_uplinks, names, routes.schedule.peer)

    def status(self) -> dict:
        """The status API's document: network, routes, failures and their reports, clock,
        reloads, host aging and every switch's state."""
        with self._state_lock:
            r = self.routes
            agents = list(self.agents.values())
        return {
            "network": self.cfg.name, "config": str(self.cfg.path), "started": iso(self.started_at),
            "uptime_s": round(time.time() - self.started_at, 3),
            "routes": None if r is None else {
                "version": r.version, "schedule_version": r.schedule_version, "seconds": round(r.seconds, 4),
                "schedule": r.schedule.describe(),
                "per_hop": None if r.per_hop is None else r.per_hop.algo,
                "source": None if r.source is None else r.source.algo,
                "source_routed": list(r.source_routed)},
            "failures": {"active": self.failed.as_dict(), "events": list(self.events)},
            "clock": self.clock_status(),
            "liveness": {"enabled": False} if (lw := self.lwatch) is None else lw.status(),
            "reloads": asdict(self.reloads),
            "maintenance": self.gate.status(),
            "hosts": self.aging.status(self.cfg),
            "switches": [a.status() for a in agents],
        }

    # ---- shutdown ----------------------------------------------------------------------------------------------
    def shutdown(self, warm_wait_s: float = WARM_WAIT_S) -> None:
        """Close every session (switches keep forwarding what they hold). ``warm_wait_s``:
        how long to wait for a warm-up still loading or compiling kernels; the daemon's
        process, which ends next, waits for none (a cold numba cache compiles for tens of
        seconds on a loaded 2-core machine, and a SIGTERM then took over a minute)."""
        self.stopping.set()
        for a in list(self.agents.values()):
            a.close()
        # a warm-up still compiling ends with the process; in a process that goes on (tests),
        # it is waited for, so that no thread of a stopped controller sets a kernel flag later
        self.warmed(warm_wait_s)
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._mpool.shutdown(wait=False, cancel_futures=True)
        self._kpool.shutdown(wait=False, cancel_futures=True)
        self._cpool.shutdown(wait=False, cancel_futures=True)
        self.log.event("daemon.stopped", network=self.cfg.name)
