"""The controller behind `uro daemon`: keeps every switch of a network programmed, in
time, and consistent.

- **start**: the config is checked as a whole (schedule, programs against it, routing
  parameters, routes computed, every switch's entries built, pipelines checked offline
  by their backend), then every switch is connected as primary (an address that does not
  answer, or a switch with another primary, stops the start: nothing is written
  anywhere), then each switch is brought to the routes hitlessly
  (:meth:`SwitchAgent.install`).
- **maintenance** (own thread): a switch whose session dropped is reconnected; a
  restarted switch gets its pipeline and entries back; every ``reconcile_s`` each switch
  is read back and drift repaired; a swap that failed half-way is retried; counters read.
- **failures** (control thread, jobs from the API/CLI and the link watcher), in the two
  phases of FRANCIS §3.1 / UCMP §5.3: first the data plane, in one write per affected
  ToR (the per-uplink down mask: the K one-shot alternatives and SSRR hops treat a down
  uplink as Full, URO §IV-C), then routes recomputed on the degraded schedule and
  swapped in hitlessly. Events that arrive while routes are being computed are folded
  into one recomputation (the reaction is re-invoked on the latest state, FRANCIS §3.1).
- **slice clock** (own thread): in sync mode (the default) the switches keep it and the
  daemon seeds and watches it (:meth:`Controller.watch_clocks`,
  :mod:`controller.daemon.clockwatch`: reads, probes, alarms, a ToR unsynchronized too long
  taken out of routes); in timer mode it sends every slice's timer
  (:mod:`controller.daemon.clock`).
- **reload**: a new config is checked the same way; a bad one is refused and the
  running one stays.

Time is injected (``clock``) and every step is a method, so the unit tests drive all of
it without threads or sleeps.
"""

from __future__ import annotations

import collections
import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable

from controller.agent.backend import BackendError, backend_for as default_backend_for
from controller.daemon import hosts, plan as plans
from controller.daemon.clock import SliceClock
from controller.daemon.clockwatch import ClockWatch
from controller.daemon.config import NetConfig, load as load_config
from controller.daemon.log import TS_FORMAT, EventLog
from controller.daemon.metrics import Metrics
from controller.daemon.plan import Prepared, warm
from controller.daemon.switch import SwitchAgent
from controller.errors import UroError
from controller.memory import paused_gc
from controller.schedule.degrade import Failed

#: failure/recovery reports kept for the status
EVENTS_KEPT = 50
#: a seed of the reference within this of the daemon's clock is kept (ns); else corrected
SEED_TOLERANCE_NS = 200_000
#: seeds of the reference tried, each corrected by what the probe after it measured
SEED_ATTEMPTS = 3
#: a packet's time in a switch's queues after its last table lookup, beyond its hold for a
#: slice (bmv2's paced uplink queues; the Tofino2 TM; the software model is the slowest)
QUEUE_MARGIN_S = 0.1


def _iso(t: float | None = None) -> str:
    return datetime.fromtimestamp(time.time() if t is None else t, timezone.utc).strftime(TS_FORMAT)


@dataclass
class Change:
    """One failure or recovery: ``kind`` uplink | tor | ocs, ``target`` (tor, uplink) | tor | ocs."""

    op: str                 # fail | recover
    kind: str
    target: object
    source: str = "api"     # api | netlink | config
    detected: float = 0.0   # controller clock at detection
    done: threading.Event = field(default_factory=threading.Event)
    report: dict | None = None
    masked: dict[str, float] | None = None   # phase 1 at submit: switch -> detection to its mask acked (ms)
    masked_at: float | None = None           # controller clock when the last of them was acked


def parse_change(op: str, doc: dict, n_tors: int, n_uplinks: int, names: dict[str, int]) -> Change:
    """A change from the API's JSON: {"uplink": [tor, u]} | {"tor": t} | {"ocs": u}; a ToR
    may be named by its switch name. Raises UroError naming the problem."""
    if op not in ("fail", "recover"):
        raise UroError(f"unknown operation {op!r}")
    if not isinstance(doc, dict) or len([k for k in ("uplink", "tor", "ocs") if k in doc]) != 1:
        raise UroError('give exactly one of {"uplink": [tor, uplink]}, {"tor": tor}, {"ocs": index}')

    def tor_id(v) -> int:
        if isinstance(v, str) and v in names:
            return names[v]
        if isinstance(v, str) and v.isdigit():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n_tors:
            raise UroError(f"ToR {v!r} is not in the network (0..{n_tors - 1} or a ToR switch name)")
        return v

    def uplink(v) -> int:
        if isinstance(v, str) and v.isdigit():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n_uplinks:
            raise UroError(f"uplink {v!r} is not in the network (0..{n_uplinks - 1})")
        return v

    if "uplink" in doc:
        v = doc["uplink"]
        if not isinstance(v, (list, tuple)) or len(v) != 2:
            raise UroError(f"uplink: [tor, uplink], got {v!r}")
        return Change(op, "uplink", (tor_id(v[0]), uplink(v[1])))
    if "tor" in doc:
        return Change(op, "tor", tor_id(doc["tor"]))
    return Change(op, "ocs", uplink(doc["ocs"]))


def apply_change(failed: Failed, c: Change) -> Failed:
    attr = {"uplink": "uplinks", "tor": "tors", "ocs": "ocs"}[c.kind]
    cur = set(getattr(failed, attr))
    (cur.add if c.op == "fail" else cur.discard)(c.target)
    return Failed(**{**{a: getattr(failed, a) for a in ("uplinks", "tors", "ocs")}, attr: frozenset(cur)})


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
        self.cwatch: ClockWatch | None = None       # sync mode: the switches' own clocks, watched
        self.clock_ns: Callable[[], int] = time.monotonic_ns   # network time on this host (docs/clock.md)
        self.clock_failed: set[int] = set()         # ToRs out of routes for their clock (sync mode)
        self.events: collections.deque = collections.deque(maxlen=EVENTS_KEPT)
        self.jobs: queue.Queue = queue.Queue()
        self.stopping = threading.Event()
        self.started_at = time.time()
        self.last_error: str | None = None
        self.reloads = {"ok": 0, "refused": 0, "last": None}
        self.host_rules = None                   # host flow aging (controller.daemon.hosts)
        self.hosts_applied: dict = {}            # netns -> rules installed there
        self.hosts_errors: dict = {}             # netns -> last error
        self._state_lock = threading.RLock()     # agents / routes / cfg swapped by reload
        self._next: dict[str, dict[str, float]] = {}
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="uro-ctl")
        self._mpool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="uro-maint")
        # masks have their own threads: never queued behind an update's prepare on _pool
        self._kpool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="uro-mask")
        self._kpool_size = workers
        # the clock's reads, probes and seeds: PacketOut/PacketIn, never behind a write
        self._cpool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="uro-clock")
        self._update_lock = threading.Lock()     # one network-wide update at a time
        self._updating = threading.Event()       # set while one runs: maintenance leaves switches alone
        self.net_gens: dict[str, int] = {}       # per role: the generation its switches run (ToRs: stamp)
        self._update_queued = threading.Event()
        self._mask_lock = threading.RLock()      # the failed set and the masks written from it

    # ---- start -----------------------------------------------------------------------------
    def _agents_for(self, cfg: NetConfig, prep: Prepared, names=None) -> dict[str, SwitchAgent]:
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
            out[s.name].shadows = self.shadows if cfg is self.cfg else cfg.daemon.diff_writes
        return out

    def _connect_all(self, cfg: NetConfig, agents: dict[str, SwitchAgent]) -> None:
        """Connect every agent (in parallel); the first failure closes them all and raises
        ConfigError naming the switch and the field (address / election_id)."""
        def one(a: SwitchAgent):
            try:
                a.connect()
                return None
            except BackendError as e:
                return plans.connect_error(cfg, a.cfg, e)

        errors = [e for e in self._pool.map(one, agents.values()) if e is not None]
        if errors:
            for a in agents.values():
                a.close()
            raise errors[0]

    def start(self, prep: Prepared | None = None, on_clock: Callable[[], None] | None = None) -> None:
        """Check, connect, install (see module docstring). Raises ConfigError before anything
        is written. ``prep``: the checks and routes already done for this config.

        The slice clock exists before the first install and ``on_clock()`` (the daemon
        starts its clock thread there) runs before it: an update a crash interrupted is
        finished at start-up (flip, hold, retire), and packets held in the ToRs only leave
        while their slices advance, so the hold must pass with the clock running (a switch
        gets timers once it runs a generation, :meth:`SwitchAgent.send_timer`)."""
        cfg = self.cfg
        prep = prep or Prepared(cfg, self.failed, self.backend_for)
        self.routes = prep.routes
        self.route_cache.add(cfg, prep.routes)
        agents = self._agents_for(cfg, prep)
        for s in cfg.switches:
            tls = "insecure (plaintext gRPC, as the config says)" if s.tls.insecure else \
                f"TLS (ca={s.tls.ca}, client cert={s.tls.cert})"
            self.log.event("switch.transport", switch=s.name, address=s.address, transport=tls,
                           level="warning" if s.tls.insecure else "info")
        self._check_timing(cfg)
        self._connect_all(cfg, agents)
        self.agents = agents
        now = self.clock()
        for a in agents.values():
            a.down = a.role.down_uplinks(self.routes)
            a.dead = a.role.dead_slots(self.routes.schedule, self.failed)
            self._next[a.name] = {"retry": now, "reconcile": now + cfg.daemon.reconcile_s, "counters": now}
        self.log.event("daemon.started", network=cfg.name, switches=len(agents), routes_version=self.routes.version,
                       routes_s=round(self.routes.seconds, 4), schedule=self.routes.schedule.describe())
        self._warm_masks(sum(1 for a in agents.values() if a.role.has_mask))
        if cfg.clock.sync:
            self.cwatch = self._clock_watch(cfg)
        else:
            self.sclock = SliceClock(cfg.clock.slice_ms / 1e3, self.routes.schedule.n_slices, self.clock())
        if on_clock is not None:
            on_clock()
        self.install_all()
        self.host_rules = prep.aging
        self.sync_hosts()
        self._warm(cfg)      # the first failure's routes must not load compiled kernels

    def _clock_watch(self, cfg: NetConfig) -> ClockWatch:
        c = cfg.clock
        return ClockWatch(round(c.slice_us * 1000), self.routes.schedule.n_slices, round(c.alarm_us * 1000),
                          c.holdover_cycles)

    def _warm(self, cfg: NetConfig) -> None:
        """:func:`controller.daemon.plan.warm`; what could not be warmed is logged."""
        for algo, error in warm(cfg).items():
            self.log.warn("routes.warm_failed", algorithm=algo, error=error,
                          note="its routes after a failure are computed as without the warm-up (NumPy at small sizes)")

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

    # ---- host flow aging ------------------------------------------------------------------------
    def sync_hosts(self) -> dict:
        """Bring every ``[hosts] netns`` to the current flow-aging rules (UCMP §6.1)."""
        rules, netns = self.host_rules, self.cfg.hosts.netns
        for ns in list(self.hosts_applied):
            if ns not in netns:
                self.hosts_applied.pop(ns)
        results = hosts.apply_all(rules, netns, self.hosts_applied, self._pool.map)
        for ns, err in results.items():
            if err is None:
                self.hosts_errors.pop(ns, None)
            else:
                self.hosts_errors[ns] = err
                self.log.error("hosts.aging_failed", netns=ns, error=err)
        if results and rules is not None:
            self.log.event("hosts.aging_applied", netns=sorted(ns for ns, e in results.items() if e is None),
                           alpha=rules.alpha, buckets=rules.buckets)
        return results

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

    @property
    def shadows(self) -> bool:
        """The retired generation is kept as the shadow of the routes, so that an update
        writes only what differs (docs/daemon.md "Diff-only writes"); False (``[daemon]
        diff_writes = false``): deleted, every update writes a whole generation (the path
        before). Settable (`uro bench --suite daemon` alternates both in one run): it
        takes effect at the next retire, so the update after it writes accordingly."""
        override = getattr(self, "_shadows", None)
        return self.cfg.daemon.diff_writes if override is None else override

    @shadows.setter
    def shadows(self, on: bool) -> None:
        self._shadows = bool(on)
        for a in self.agents.values():
            a.shadows = self._shadows

    # ---- installing ----------------------------------------------------------------------------
    def _install(self, a: SwitchAgent, routes) -> str | None:
        try:
            return a.install(routes)
        except BackendError as e:          # a.retry_install is set: the maintenance pass retries it
            a.last_error = str(e)
            self.log.error("switch.install_failed", switch=a.name, error=str(e))
            self._next.setdefault(a.name, {})["retry"] = self.clock() + self.cfg.daemon.reconnect_s
            return None

    def install_all(self, names=None) -> dict[str, str | None]:
        """Bring every up switch to the current routes with a network-wide, per-packet
        consistent update (:meth:`_network_update`); returns per switch what it did
        ("installed", "current", "swapped") or None where it failed (retried)."""
        out: dict[str, str | None] = {}
        with self._update_lock:   # the switches that are up, once no restore runs (_maintain_one)
            with self._state_lock:
                routes = self.routes
                agents = [a for a in self.agents.values() if a.state == "up" and (names is None or a.name in names)]
            groups: dict[str, list[SwitchAgent]] = {}
            for a in agents:        # ToRs stamp one generation together; OCS emulators have their own
                groups.setdefault(a.role.name, []).append(a)
            self._updating.set()
            try:
                for role, group in groups.items():
                    out.update(self._network_update(routes, group, role))
            finally:
                self._updating.clear()
        return {a.name: out.get(a.name) for a in agents}

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

    def _each(self, agents, fn) -> dict[str, object]:
        """``fn(agent)`` on every agent in parallel: {name: result, or the BackendError}."""
        def one(a):
            try:
                return fn(a)
            except BackendError as e:
                a.last_error = str(e)
                a.retry_install = True
                self.log.error("switch.install_failed", switch=a.name, error=str(e))
                self._next.setdefault(a.name, {})["retry"] = self.clock() + self.cfg.daemon.reconnect_s
                return e
        return dict(zip([a.name for a in agents], self._pool.map(one, agents)))

    def _flip_retire(self, agents, target: int, routes=None) -> dict[str, object]:
        """Phases 2-4 of an update towards ``target``: every source stamps it, wait out the
        old generation's packets, retire the old generation everywhere (rewritten as the
        shadow of ``routes`` where ``target`` holds them)."""
        act = self._each(agents, lambda a: a.phase(a.activate_generation, target, a.live))
        self.log.event("generation.stamping", generation=target,
                       switches=sorted(n for n, r in act.items() if not isinstance(r, BackendError)))
        self._sleep(self.hold_s())
        ok = [a for a in agents if not isinstance(act[a.name], BackendError)]
        self.log.event("generation.retiring", generation=1 - target, switches=sorted(a.name for a in ok))
        keep = routes if self.shadows else None
        ret = self._each(ok, lambda a: a.phase(a.retire_generation, target, keep))
        return {n: (act[n] if isinstance(act[n], BackendError) else ret.get(n)) for n in act}

    def _network_update(self, routes, agents, role: str = "tor") -> dict[str, str | None]:
        """The update of docs/daemon.md "Network-wide consistency" (Reitblatt et al. 2012):

        0. read every switch; an update interrupted by a crash (sources stamping different
           generations, or two generations live) is finished first, towards a generation
           live everywhere (the one that holds these routes, if any);
        1. write the routes into the other generation on every switch, read back, declare
           it live (unconfigured switches get it active at once);
        2. only when every switch has it: every source stamps it;
        3. wait until packets stamped with the old one have left (:meth:`hold_s`);
        4. retire the old generation (out of ``live``, then rewritten as the new one's
           shadow, never live: the next update writes only what differs) everywhere.

        A failure before 2 leaves every source on the old generation (the retry starts
        over); after it, the retry finishes the flip."""
        out: dict[str, str | None] = {a.name: None for a in agents}
        if not agents:
            return out
        surveys = self._each(agents, lambda a: a.phase(a.survey, routes))
        agents = [a for a in agents if not isinstance(surveys[a.name], BackendError)]
        conf = {a.name: surveys[a.name] for a in agents if surveys[a.name].active is not None}
        stamps = [s.active for s in conf.values()]
        if len(set(stamps)) > 1 or any(len(s.live) > 1 for s in conf.values()):
            cands = [g for g in (0, 1) if all(g in s.live for s in conf.values())]
            good = [g for g in cands if all(g in s.holds for s in conf.values())]
            target = good[0] if good else max(cands or [0, 1], key=stamps.count)
            self.log.warn("generation.interrupted", generation=target, stamps=sorted(set(stamps)),
                          note="an update interrupted before (a crash) is finished first")
            self._flip_retire([a for a in agents if a.name in conf], target, routes)
            surveys = self._each(agents, lambda a: a.phase(a.survey, routes))
            agents = [a for a in agents if not isinstance(surveys[a.name], BackendError)]
            conf = {a.name: surveys[a.name] for a in agents if surveys[a.name].active is not None}
            stamps = [s.active for s in conf.values()]
        net = max(set(stamps), key=stamps.count) if stamps else self.net_gens.get(role, 0)
        if all(net in s.holds for s in conf.values()):
            new = net                       # every configured switch already runs them
        else:
            new = 1 - net
        configured = [a for a in agents if a.name in conf]
        fresh = [a for a in agents if a.name not in conf]
        # 1. prepare: configured switches first, so that a new switch's stamps are live everywhere
        prep = self._each(configured, lambda a: a.phase(a.prepare_generation, routes, new))
        prep.update(self._each(fresh, lambda a: a.phase(a.prepare_generation, routes, new)))
        failed = [n for n, r in prep.items() if isinstance(r, BackendError) and n in conf]
        for a in fresh:
            r = prep[a.name]
            if not isinstance(r, BackendError):
                a.installed_now(routes, r, swapped=False)
                out[a.name] = r.outcome
        if failed:
            self.log.error("generation.not_prepared", generation=new, switches=failed,
                           note="every source keeps the old generation; the update is retried")
            return out
        swapping = new != net
        keep = routes if self.shadows else None
        res = self._flip_retire(configured, new, routes) if (swapping or any(len(s.live) > 1 for s in conf.values())) \
            else self._each(configured, lambda a: a.phase(a.retire_generation, new, keep, False))
        self.net_gens[role] = new if swapping else net
        for a in self.agents.values():
            if a.role.name == role:
                a.net_gen = self.net_gens[role]
        for a in configured:
            if isinstance(res.get(a.name), BackendError):
                continue
            a.installed_now(routes, prep[a.name], swapped=swapping)
            out[a.name] = "swapped" if swapping else "current"
        if self.shadows:
            self._write_shadows([a for a in fresh if out[a.name] == "installed"], new, routes)
        return out

    def _write_shadows(self, agents, active: int, routes) -> None:
        """A switch that just got its first generation gets the same routes in the other,
        never live (:meth:`~controller.agent.generations.NetworkPhases.retire_generation`),
        so that even the first failure's update writes only what differs. Nothing depends
        on it: a failure is logged (the next update then writes a whole generation)."""
        def one(a):
            try:
                a.phase(a.retire_generation, active, routes)
            except BackendError as e:
                self.log.warn("generation.shadow_failed", switch=a.name, error=str(e))
        list(self._pool.map(one, agents))

    # ---- maintenance ----------------------------------------------------------------------------
    def _maintain_one(self, a: SwitchAgent, now: float) -> None:
        nxt = self._next.setdefault(a.name, {"retry": now, "reconcile": now, "counters": now})
        d = self.cfg.daemon
        routes = self.routes
        if a.state == "up" and not a.backend.connected:
            a.state = "down"
            self.log.warn("switch.lost", switch=a.name, address=a.cfg.address)
        if a.state != "up":
            if now < nxt["retry"]:
                return
            try:
                a.connect()
            except BackendError as e:
                nxt["retry"] = now + d.reconnect_s
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
                    nxt["reconcile"] = now + d.reconcile_s
                    self._behind(a)
                except BackendError as e:
                    a.last_error = str(e)
                    self.log.error("switch.restore_failed", switch=a.name, error=str(e))
                    nxt["retry"] = now + d.reconnect_s
            return
        try:
            if self._updating.is_set():
                pass              # a network-wide update owns the switches meanwhile
            elif a.installed != a.role.version(routes):
                # new routes are installed by whoever made them (control thread); an update
                # that failed on this switch is retried network-wide (it is the control
                # thread's too: one switch alone must not flip its sources)
                if a.retry_install and now >= nxt["retry"]:
                    nxt["retry"] = now + d.reconnect_s
                    self.request_update()
            elif now >= nxt["reconcile"] or a.reconcile_due:
                # due after an update that verified only what it wrote: the whole switch is
                # read once per update, after it (docs/daemon.md "One read per switch and update")
                a.reconcile(routes)
                nxt["reconcile"] = now + d.reconcile_s
                self._behind(a)
            if now >= nxt["counters"]:
                a.read_counters()
                nxt["counters"] = now + min(5.0, d.reconcile_s)
        except BackendError as e:
            a.last_error = str(e)
            self.log.error("switch.maintenance_failed", switch=a.name, error=str(e))
            if not a.backend.connected:
                a.state = "down"
            nxt["retry"] = now + d.reconnect_s

    def request_update(self) -> None:
        """Queue a network-wide update for the control thread (once)."""
        if not self._update_queued.is_set():
            self._update_queued.set()
            self.jobs.put(("update", None))

    def _behind(self, a: SwitchAgent) -> None:
        """After a maintenance pass brought ``a`` to the routes it read at its start: if the
        control thread made newer routes meanwhile, it skipped this switch (down, being
        restored) or was undone by the pass, so the next pass installs the current ones."""
        with self._state_lock:
            current = self.routes
        if current is not None and a.installed != a.role.version(current):
            a.retry_install = True

    def _down_for(self, a: SwitchAgent) -> frozenset[int]:
        return a.role.down_uplinks(Failed() if self.routes is None else _RoutesView(self.failed))

    def maintain(self, now: float | None = None) -> None:
        """One maintenance pass over every switch (in parallel)."""
        now = self.clock() if now is None else now
        with self._state_lock:
            agents = list(self.agents.values())
        list(self._mpool.map(lambda a: self._maintain_one(a, now), agents))
        self._snapshot()

    def _snapshot(self) -> None:
        self.metrics.set_snapshot({a.name: {"up": int(a.alive()), "generation": -1 if a.active is None else a.active,
                                            "entries": a.entries, "counters": a.counters}
                                   for a in self.agents.values()})

    # ---- failures -----------------------------------------------------------------------------------
    def submit(self, change: Change) -> Change:
        """Detection (API, link watcher): the data plane's reaction first, in the caller's
        thread (:meth:`mask_now`), then the job that recomputes routes (control thread)."""
        change.detected = change.detected or self.clock()
        if self.routes is not None and self.agents:
            self.mask_now(change)
        self.jobs.put(("change", change))
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
        self.log.event("failure.masked", kind=change.kind, op=change.op,
                       target=list(change.target) if isinstance(change.target, tuple) else change.target,
                       source=change.source, switches=done,
                       ms=round((change.masked_at - change.detected) * 1e3, 3))

    def handle_jobs(self, block: float = 0.0) -> int:
        """Run the queued jobs: changes are folded (all phase-1 writes, then one routing);
        returns how many jobs ran."""
        try:
            first = self.jobs.get(timeout=block) if block else self.jobs.get_nowait()
        except queue.Empty:
            return 0
        batch = [first]
        while True:
            try:
                batch.append(self.jobs.get_nowait())
            except queue.Empty:
                break
        changes = [j[1] for j in batch if j[0] == "change"]
        if changes:
            self._react(changes)
        if any(k == "update" for k, _ in batch) and not changes:
            self._update_queued.clear()
            self.install_all()
        elif changes:
            self._update_queued.clear()
        for kind, arg in batch:
            if kind == "reload":
                path, box = arg
                box["result"] = self.reload(path)
                box["done"].set()
            elif kind == "call":
                fn, box = arg
                box["result"] = fn()
                box["done"].set()
        return len(batch)

    def _react(self, changes: list[Change]) -> None:
        """Phase 1 (down masks, one write per affected ToR) for all ``changes``, more
        changes that arrive meanwhile likewise, then one recomputation and a hitless swap."""
        reports = []
        pending = list(changes)
        while pending:
            with self._mask_lock:    # changes masked at submit are applied again (idempotent)
                for c in pending:
                    self.metrics.failures.labels(c.kind, c.source).inc() if c.op == "fail" else \
                        self.metrics.recoveries.labels(c.kind, c.source).inc()
                    with self._state_lock:
                        self.failed = apply_change(self.failed, c)
                    self.log.event(f"failure.{'detected' if c.op == 'fail' else 'recovered'}", kind=c.kind,
                                   target=list(c.target) if isinstance(c.target, tuple) else c.target,
                                   source=c.source)
                late = self._phase1(min(c.detected for c in pending))
            t1 = self.clock()
            dead_written = sum(1 for a in self.agents.values() if a.dead)
            for c in pending:
                per = dict(c.masked or {})
                if late:      # not masked at submit (not started then), or the state moved since
                    per.update({n: round((t1 - c.detected) * 1e3, 3) for n in late})
                wrote = len(per)
                done = c.masked_at if c.masked is not None and not late else t1
                masks = c.kind in ("uplink", "ocs") or (c.kind == "tor" and (wrote or dead_written))
                c.report = {
                    "op": c.op, "kind": c.kind, "target": list(c.target) if isinstance(c.target, tuple) else c.target,
                    "source": c.source, "detected": _iso(time.time() - (self.clock() - c.detected)),
                    "dataplane_ms": round((done - c.detected) * 1e3, 3) if masks else None,
                    "dataplane_switch_ms": per if masks else {},
                    "dataplane": (f"down mask written on {wrote} switch(es) in one write each"
                                  + (" (ToRs: the (slice, uplink) pairs that lead to it)" if c.kind == "tor" else "")
                                  if masks else
                                  "this program has no (slice, uplink) mask (t2na): traffic into the failed ToR is "
                                  "lost there until the new generation avoids it"),
                }
                reports.append(c)
            pending = []
            try:   # FRANCIS §3.1: fold in what arrived meanwhile, react on the latest state
                while True:
                    kind, arg = self.jobs.get_nowait()
                    if kind == "change":
                        pending.append(arg)
                    elif kind == "update":
                        pass              # the recomputation below updates every switch
                    else:
                        self.jobs.put((kind, arg))
                        break
            except queue.Empty:
                pass
        err = None
        try:
            with self._state_lock:
                r = self.routes
            # computed outside the lock: the clock thread and the status API keep going
            # (only this thread replaces routes, config and agents)
            # a failed set seen before (a recovery back to it): its routes again, not recomputed.
            # The collector stays paused from the routes to the last switch's cleanup: paused
            # per phase only, it ran between them (a young collection of the phase's ~100K
            # survivors, 20-30 ms at (108, 6)) on the way to the flip; now once, after it.
            with paused_gc():
                new = self.route_cache.routes(self.cfg, r.schedule, self.failed, r.version + 1, r.schedule_version)
                with self._state_lock:
                    self.routes = new
                self.log.event("routes.computed", version=new.version, seconds=round(new.seconds, 4),
                               failed=self.failed.as_dict(), **({"note": new.notes[0]} if new.notes else {}))
                results = self.install_all()
            try:      # the degraded routes' buckets may differ: hosts follow them
                self.host_rules = hosts.rules_for(self.cfg, new)
            except UroError as e:
                self.log.error("hosts.aging_failed", error=str(e))
            self.sync_hosts()
            # a switch of a ToR declared failed may well not answer: the generation is
            # active when every other switch has it (the failed one gets it once back)
            dead = {n for n, a in self.agents.items() if a.cfg.tor is not None and a.cfg.tor in self.failed.tors}
            bad = [k for k, v in results.items() if v is None and k not in dead]
            if bad:
                err = f"new generation not active on {', '.join(bad)} (retried)"
        except Exception as e:   # routing on a degraded schedule can fail; the masks stay
            err = f"routes on the degraded schedule failed: {e}"
            self.log.error("routes.failed", error=str(e))
            results = {}
        # "active": the last switch's flip (the old generation's cleanup comes after)
        flips = [self.agents[k].activated_at for k, v in results.items()
                 if v is not None and k in self.agents and self.agents[k].activated_at is not None]
        t2 = max(flips) if flips else self.clock()
        t_done = self.clock()
        for c in reports:
            c.report["generation_s"] = None if err else round(t2 - c.detected, 4)
            c.report["cleanup_done_s"] = round(t_done - c.detected, 4)
            c.report["routes_version"] = self.routes.version
            if err:
                c.report["error"] = err
            self.events.append(c.report)
            self.log.event("failure.handled", **c.report)
            if c.report["dataplane_ms"] is not None:
                self.metrics.dataplane_seconds.observe(c.report["dataplane_ms"] / 1e3)
            if c.report["generation_s"] is not None:
                self.metrics.generation_seconds.observe(c.report["generation_s"])
            c.done.set()

    def _phase1(self, detected: float | None = None) -> dict[str, float]:
        """The mask of every ToR for the current failed set, one config write each, all
        issued at once (one pool thread per switch, :meth:`SwitchAgent.set_down`).
        Returns {switch: ms from ``detected`` to its write acknowledged} for the switches
        written; logs ``mask.written`` with each switch's lock wait and write time."""
        with self._state_lock:
            agents = [a for a in self.agents.values() if a.role.has_mask]
            failed, sched = self.failed, self.routes.schedule
        view = _RoutesView(failed)
        t_start = self.clock()
        detected = t_start if detected is None else detected

        def one(a: SwitchAgent) -> tuple[str, float] | None:
            t_run = self.clock()
            try:
                if not a.set_down(a.role.down_uplinks(view), a.role.dead_slots(sched, failed)):
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

    # ---- reload ---------------------------------------------------------------------------------------
    def reload(self, path=None) -> dict:
        """Load and check a new config; refuse it (the running one stays) on any problem."""
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
                            previous_schedule=r.schedule)
            keep, fresh = {}, []
            for s in cfg.switches:
                old = self.agents.get(s.name)
                if old is not None and old.cfg == s and old.pipeline.cookie == prep.pipelines[(s.target, s.program)].cookie \
                        and type(old.role) is type(prep.roles[s.name]):
                    keep[s.name] = old
                else:
                    fresh.append(s.name)
            new_agents = self._agents_for(cfg, prep, set(fresh))
            self._connect_all(cfg, new_agents)
        except UroError as e:
            self.reloads["refused"] += 1
            self.reloads["last"] = {"at": _iso(), "ok": False, "error": str(e)}
            self.log.error("reload.refused", config=str(path), error=str(e))
            return {"ok": False, "error": str(e)}
        with self._state_lock:
            for name, a in self.agents.items():
                if name not in keep:
                    a.close()
            for name, a in keep.items():
                a.role = prep.roles[name]
                a.program = cfg.programs[a.cfg.program]
            agents = {**keep, **new_agents}
            self.agents = {s.name: agents[s.name] for s in cfg.switches}
            old_sched = self.routes.schedule
            self.cfg, self.routes, self.failed = cfg, prep.routes, prep.routes.failed
            self.route_cache.clear()            # routes of the old config are never reused
            self.route_cache.add(cfg, prep.routes)
            for a in self.agents.values():      # a new clock or schedule: a new drain
                a.drain_s = self.drain_s(cfg, prep.routes)
            self.host_rules = prep.aging
            now = self.clock()
            for a in new_agents.values():
                a.down = a.role.down_uplinks(self.routes)
                a.dead = a.role.dead_slots(self.routes.schedule, self.failed)
                self._next[a.name] = {"retry": now, "reconcile": now + cfg.daemon.reconcile_s, "counters": now}
        results = self.install_all()
        host_results = self.sync_hosts()
        self._warm(cfg)      # another algorithm may have come with the new config
        if self.sclock is not None:
            if not (old_sched == self.routes.schedule):
                self.sclock.reset(self.routes.schedule.n_slices, self.clock())
            self.sclock.period = cfg.clock.slice_ms / 1e3
        if self.cwatch is not None:
            self.cwatch = self._clock_watch(cfg) if not (old_sched == self.routes.schedule) else self.cwatch
            self.cwatch.alarm_ns = round(cfg.clock.alarm_us * 1000)
        self.reloads["ok"] += 1
        self.reloads["last"] = {"at": _iso(), "ok": True, "routes_version": self.routes.version}
        self.log.event("reload.done", config=str(path), routes_version=self.routes.version,
                       new_switches=sorted(new_agents), results=results, hosts=host_results)
        return {"ok": True, "routes_version": self.routes.version, "results": results, "hosts": host_results}

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
    def watch_clocks(self, now: float | None = None) -> None:
        """One pass of the clock supervision (docs/clock.md "The daemon supervises"): every
        programmed switch that needs it is seeded (a reconnected or reprogrammed one is read
        first and adopted if it keeps the network's time), the OCS emulators before the
        ToRs; then each switch's registers are read when due (every second) and it is probed
        when due (every few seconds), the reference first. Alarms are logged and counted; a
        ToR unsynchronized for ``holdover_cycles`` is taken out of routes like a failed ToR
        (:meth:`submit`, source "clock") and put back when it is synchronized again."""
        now = self.clock() if now is None else now
        w = self.cwatch
        with self._state_lock:
            agents = [a for a in self.agents.values() if a.state == "up" and a.active is not None]
            w.forget(set(self.agents))
        for a in agents:
            w.track(a.name, a.cfg.role, a.cfg.tor)
        ocs = [a for a in agents if a.cfg.role == "ocs"]
        tors = [a for a in agents if a.cfg.role != "ocs"]
        for group in (ocs, tors):       # the reference first: a ToR is seeded, adopted, probed against it
            seed = [a for a in group if a.need_sync]
            if seed:
                list(self._cpool.map(lambda a: self._seed(a, now), seed))
            events = self._cpool.map(lambda a: self._watch_one(a, now), [a for a in group if not a.need_sync])
            for ev in [e for evs in events for e in evs]:
                self._clock_event(ev)
        self.metrics.set_clocks({n: c for n, c in w.clocks.items()})

    def _seed(self, a: SwitchAgent, now: float) -> None:
        """Seed ``a``'s clock with the network time (this host's CLOCK_MONOTONIC) plus the
        one-way delay a probe measured, unless it keeps that time already. The reference is
        probed again after each seed and seeded again, corrected by what the probe saw,
        until it is within :data:`SEED_TOLERANCE_NS` (or its round trip)."""
        w, L = self.cwatch, round(self.cfg.clock.slice_us * 1000)
        ref = a.cfg.role == "ocs"
        try:
            p = a.probe_clock()
            before = p.offset_ns(L)
            if w.keeps_network_time(a.name, before, p.uncertainty_ns(), p.stratum):
                w.seeded(a.name, now, adopted=True)
                if ref:               # the ToRs are adopted or seeded against it in this pass
                    w.probe(a.name, before, p.uncertainty_ns(), now)
                a.need_sync = False
                self.log.event("clock.adopted", switch=a.name, offset_us=round(before / 1e3, 3),
                               stratum=p.stratum, note="it keeps the network's time: not seeded")
                return
            delay = (p.received_ns - p.sent_ns) // 2
            for _ in range(SEED_ATTEMPTS if ref else 1):
                t = self.clock_ns() + delay
                a.seed_clock((t // L) % (1 << 32), t % L, ref)
                if not ref:
                    break
                p = a.probe_clock()
                off = p.offset_ns(L)
                w.probe(a.name, off, p.uncertainty_ns(), now)
                if abs(off) <= max(SEED_TOLERANCE_NS, p.uncertainty_ns()):
                    break
                delay -= off
        except BackendError as e:
            w.failed(a.name, f"seed: {e}")
            self.log.error("clock.seed_failed", switch=a.name, error=str(e))
            return
        w.seeded(a.name, now)
        a.need_sync = False
        self.metrics.clock_seeds.labels(a.name).inc()
        self.log.event("clock.seeded", switch=a.name, reference=ref, offset_before_us=round(before / 1e3, 3),
                       one_way_us=round(delay / 1e3, 3))

    def _watch_one(self, a: SwitchAgent, now: float) -> list:
        w, L = self.cwatch, round(self.cfg.clock.slice_us * 1000)
        out = []
        try:
            if w.due(a.name, "read", now):
                out += w.registers(a.name, a.read_clock(), now)
            if w.due(a.name, "probe", now):
                p = a.probe_clock()
                out += w.probe(a.name, p.offset_ns(L), p.uncertainty_ns(), now)
        except BackendError as e:
            w.failed(a.name, str(e))
            self.metrics.clock_errors.labels(a.name).inc()
            self.log.warn("clock.read_failed", switch=a.name, error=str(e))
        return out

    def _clock_event(self, ev) -> None:
        if ev.kind == "alarm":
            self.metrics.clock_alarms.labels(ev.switch).inc()
            self.log.warn("clock.alarm", switch=ev.switch, tor=ev.tor, **ev.detail)
        elif ev.kind == "alarm_cleared":
            self.log.event("clock.alarm_cleared", switch=ev.switch, tor=ev.tor, **ev.detail)
        elif ev.kind == "out_of_routes":
            if ev.tor in self.failed.tors:    # failed already, not by the clock: its recovery is not the clock's
                self.log.warn("clock.unsynchronized", switch=ev.switch, tor=ev.tor, **ev.detail,
                              note="failed already")
                return
            self.log.warn("clock.unsynchronized", switch=ev.switch, tor=ev.tor, **ev.detail,
                          note="taken out of routes like a failed ToR until it is synchronized again")
            self.clock_failed.add(ev.tor)
            self.submit(Change("fail", "tor", ev.tor, source="clock"))
        elif ev.kind == "back_in_routes":
            self.log.event("clock.synchronized", switch=ev.switch, tor=ev.tor, **ev.detail)
            if ev.tor in self.clock_failed:
                self.clock_failed.discard(ev.tor)
                self.submit(Change("recover", "tor", ev.tor, source="clock"))

    def timer_log(self) -> dict:
        """``GET /clock/timers``: ``slice0_at`` and ``[k, slice id, {switch: when its slice k
        started}]`` of the last slices on the daemon's clock (CLOCK_MONOTONIC, seconds):
        timer mode, when each switch's timer was handed to the backend; sync mode, each
        switch's boundary ``k x L`` moved by its offset as last probed (network time is
        this host's clock): what places a packet seen on a wire in the slice its sender and
        the OCS were in (``controller/emulate/deadtor.py``)."""
        from controller.daemon.clock import WINDOW

        if self.sclock is not None:
            return {"slice0_at": self.sclock.t0, "timers": self.sclock.timer_log()}
        if self.cwatch is None:
            return {"slice0_at": None, "timers": []}
        L, S = round(self.cfg.clock.slice_us * 1000), self.cwatch.n_slices
        offs = {n: c.offset_ns for n, c in self.cwatch.clocks.items() if c.offset_ns is not None}
        k_now = self.clock_ns() // L
        return {"slice0_at": 0.0,
                "timers": [[k, k % S, {n: (k * L - off) / 1e9 for n, off in offs.items()}]
                           for k in range(max(0, k_now - WINDOW + 1), k_now + 1)] if offs else []}

    def clock_status(self) -> dict | None:
        """The status API's ``clock``: the daemon's timer (timer mode) or the switches' own
        clocks as watched (sync mode). In sync mode network time is this host's
        CLOCK_MONOTONIC (``slice0_at`` 0: slice k starts at k x slice_ms)."""
        if self.sclock is not None:
            return {"mode": "timer", **self.sclock.status()}
        if self.cwatch is None:
            return None
        L = round(self.cfg.clock.slice_us * 1000)
        k = self.clock_ns() // L
        S = self.cwatch.n_slices
        return {"mode": "sync", "slice_ms": self.cfg.clock.slice_ms, "slices": S, "slice0_at": 0.0,
                "current_slice": k % S, "slices_since_start": k, **self.cwatch.status()}

    # ---- status ---------------------------------------------------------------------------------------------
    def status(self) -> dict:
        with self._state_lock:
            r = self.routes
            agents = list(self.agents.values())
        return {
            "network": self.cfg.name, "config": str(self.cfg.path), "started": _iso(self.started_at),
            "uptime_s": round(time.time() - self.started_at, 3),
            "routes": None if r is None else {
                "version": r.version, "schedule_version": r.schedule_version, "seconds": round(r.seconds, 4),
                "schedule": r.schedule.describe(),
                "per_hop": None if r.per_hop is None else r.per_hop.algo,
                "source": None if r.source is None else r.source.algo,
                "source_routed": list(r.source_routed)},
            "failures": {"active": self.failed.as_dict(), "events": list(self.events)},
            "clock": self.clock_status(),
            "reloads": self.reloads,
            "hosts": None if not self.cfg.hosts.netns else {
                "alpha": self.cfg.hosts.alpha, "netns": list(self.cfg.hosts.netns),
                "buckets": None if self.host_rules is None else self.host_rules.buckets,
                "applied": sorted(self.hosts_applied), "errors": dict(self.hosts_errors)},
            "switches": [a.status() for a in agents],
        }

    # ---- shutdown ----------------------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Close every session (switches keep forwarding what they hold)."""
        self.stopping.set()
        for a in list(self.agents.values()):
            a.close()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._mpool.shutdown(wait=False, cancel_futures=True)
        self._kpool.shutdown(wait=False, cancel_futures=True)
        self._cpool.shutdown(wait=False, cancel_futures=True)
        self.log.event("daemon.stopped", network=self.cfg.name)


class _RoutesView:
    """What Role.down_uplinks needs of Routes: the failed set."""

    def __init__(self, failed: Failed):
        self.failed = failed
