"""The daemon's side of the switches' own slice clocks (``[clock] mode = "sync"``,
docs/clock.md "The daemon supervises"): the I/O of the supervision -- seeding a switch's
clock with the network time, reading its clock registers, probing its offset -- through
each switch's backend, and acting on what :mod:`controller.daemon.clockwatch` decides from
it (alarms logged and counted; a ToR unsynchronized too long taken out of routes like a
failed ToR and put back once it is synchronized again).

Network time is this host's CLOCK_MONOTONIC (``clock_ns``): slice ``k`` of the network
starts at ``k x L`` ns (``L`` the slice length). The reads, probes and seeds go out on
their own pool (PacketOut/PacketIn), never queued behind a table write.

The I/O and the state are apart: :func:`switch_pass` is one switch's part of a pass, run
where its session is, and returns raw readings (a small dict); :class:`ClockSupervision`
keeps the state (:class:`ClockWatch`), the alarms, the status and the metrics, and gets the
readings through a :class:`ClockIO` -- :class:`LocalClocks` (this process's sessions) or
the workers owning the switches (``controller.daemon.workers.RemoteClocks``, docs/daemon.md
"Workers").
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Callable, Protocol

from controller.agent.backend import BackendError
from controller.daemon.clock import WINDOW
from controller.daemon.clockwatch import ClockWatch, keeps_network_time
from controller.daemon.log import EventLog
from controller.daemon.metrics import Metrics
from controller.daemon.switch import SwitchAgent

#: a seed of the reference within this of the daemon's clock is kept (ns); else corrected
SEED_TOLERANCE_NS = 200_000
#: seeds of the reference tried, each corrected by what the probe after it measured
SEED_ATTEMPTS = 3


@dataclass(frozen=True)
class PassParams:
    """What one switch's part of a pass needs of the supervision's state: the slice length
    and the alarm threshold (ns), and the reference's offset and uncertainty as last probed
    (None: not yet), against which a ToR is adopted or seeded."""

    slice_ns: int
    alarm_ns: int
    reference: tuple[int, int] | None


#: what a pass asks of one switch that keeps the network's time: (read its registers, probe it)
Job = tuple[bool, bool]


def switch_pass(a: SwitchAgent, job: Job, p: PassParams, clock_ns: Callable[[], int]) -> dict:
    """Switch ``a``'s part of a clock pass, where its session is: seeded if it needs it (a
    reconnected or reprogrammed one is probed first and adopted if it keeps the network's
    time) and then read and probed, else its registers read and its offset probed as
    ``job`` says. The raw readings, a small dict the supervision applies
    (:meth:`ClockSupervision.apply`): ``{"op": "seed", "adopted", "before", "stratum",
    "probes": [[offset, uncertainty]], "delay", "read": {...}}`` or ``{"op": "read",
    "registers", "probe": [offset, uncertainty]}``, each with ``"error"`` if the switch did
    not answer."""
    if a.need_sync:
        out = _seed(a, p, clock_ns)
        if "error" not in out:
            out["read"] = _read(a, (True, True), p)
        return out
    return _read(a, job, p)


def _read(a: SwitchAgent, job: Job, p: PassParams) -> dict:
    read, probe = job
    out: dict = {"op": "read"}
    try:
        if read:
            out["registers"] = a.read_clock()
        if probe:
            pr = a.probe_clock()
            out["probe"] = [pr.offset_ns(p.slice_ns), pr.uncertainty_ns()]
    except BackendError as e:
        out["error"] = str(e)
    return out


def _seed(a: SwitchAgent, p: PassParams, clock_ns: Callable[[], int]) -> dict:
    """Seed ``a``'s clock with the network time plus the one-way delay a probe measured,
    unless it keeps that time already. The reference is probed again after each seed
    and seeded again, corrected by what the probe saw, until it is within
    :data:`SEED_TOLERANCE_NS` (or its round trip)."""
    L, ref = p.slice_ns, a.cfg.role == "ocs"
    out: dict = {"op": "seed", "probes": []}
    try:
        pr = a.probe_clock()
        before = pr.offset_ns(L)
        out.update(before=before, stratum=pr.stratum)
        if keeps_network_time(a.cfg.role, before, pr.uncertainty_ns(), pr.stratum, p.reference, p.alarm_ns):
            if ref:               # the ToRs are adopted or seeded against it in this pass
                out["probes"].append([before, pr.uncertainty_ns()])
            a.need_sync = False
            out["adopted"] = True
            return out
        delay = (pr.received_ns - pr.sent_ns) // 2
        for _ in range(SEED_ATTEMPTS if ref else 1):
            t = clock_ns() + delay
            a.seed_clock(t // L, t % L, ref)     # the backend keeps k mod 2^32, slice k mod S
            if not ref:
                break
            pr = a.probe_clock()
            off = pr.offset_ns(L)
            out["probes"].append([off, pr.uncertainty_ns()])
            if abs(off) <= max(SEED_TOLERANCE_NS, pr.uncertainty_ns()):
                break
            delay -= off
    except BackendError as e:
        out["error"] = str(e)
        return out
    a.need_sync = False
    out.update(adopted=False, delay=delay)
    return out


class ClockIO(Protocol):
    """Where the switches' parts of a pass run: ``run(agents, jobs, params)`` runs
    :func:`switch_pass` on every one of ``agents`` (``jobs``: by name) and returns
    ``{name: its readings}`` (a switch not reached: ``{"error": ...}``)."""

    def run(self, agents: list, jobs: dict[str, Job], params: PassParams) -> dict[str, dict]: ...


class LocalClocks:
    """The parts of a pass through this process's sessions, on the clock pool ``pool``;
    network time is ``clock_ns``."""

    def __init__(self, pool: Executor, clock_ns: Callable[[], int]):
        self.pool, self.clock_ns = pool, clock_ns

    def run(self, agents: list[SwitchAgent], jobs: dict[str, Job], params: PassParams) -> dict[str, dict]:
        return dict(zip([a.name for a in agents],
                        self.pool.map(lambda a: switch_pass(a, jobs[a.name], params, self.clock_ns), agents)))


class ClockSupervision:
    """One pass at a time over the programmed switches (:meth:`watch`).

    ``slice_ms``: the slice length (``[clock] slice_ms``); ``io``: where the switches'
    parts of a pass run (:class:`ClockIO`); ``clock_ns``: network time; ``failed_tors()``:
    the ToRs failed for another reason (their recovery is not the clock's); ``take_out(tor)``
    and ``put_back(tor)``: what the controller does with a ToR the clock takes out of
    routes or gives back (a failure or recovery submitted with source "clock")."""

    def __init__(self, watch: ClockWatch, slice_ms: float, io: ClockIO, log: EventLog, metrics: Metrics,
                 clock_ns: Callable[[], int], failed_tors: Callable[[], set[int]],
                 take_out: Callable[[int], None], put_back: Callable[[int], None]):
        self.cw = watch
        self.slice_ms = slice_ms
        self.io = io
        self.log = log
        self.metrics = metrics
        self.clock_ns = clock_ns
        self.failed_tors = failed_tors
        self.take_out = take_out
        self.put_back = put_back
        self.out_of_routes: set[int] = set()      # ToRs out of routes for their clock

    @property
    def slice_ns(self) -> int:
        return round(self.slice_ms * 1000.0 * 1000)

    def watch(self, agents: list, known: set[str], now: float) -> None:
        """One pass: every switch of ``agents`` (up and programmed) that needs it is seeded
        (a reconnected or reprogrammed one is read first and adopted if it keeps the
        network's time), the OCS emulators before the ToRs; then each one's registers are
        read when due (every second) and it is probed when due (every few seconds), the
        reference first. ``known``: every switch of the network (the others are forgotten).
        The reference's group is one :meth:`ClockIO.run` and the ToRs' the next, carrying
        the reference's offset as just read."""
        w = self.cw
        w.forget(known)
        for a in agents:
            w.track(a.name, a.cfg.role, a.cfg.tor)
        ocs = [a for a in agents if a.cfg.role == "ocs"]
        tors = [a for a in agents if a.cfg.role != "ocs"]
        for group in (ocs, tors):       # the reference first: a ToR is seeded, adopted, probed against it
            if not group:
                continue
            jobs = {a.name: (w.due(a.name, "read", now), w.due(a.name, "probe", now)) for a in group}
            res = self.io.run(group, jobs, PassParams(self.slice_ns, w.alarm_ns, w.reference_offset()))
            for a in group:
                for ev in self.apply(a.name, res[a.name], now):
                    self._event(ev)
        self.metrics.set_clocks({n: c for n, c in w.clocks.items()})

    def apply(self, name: str, r: dict, now: float) -> list:
        """One switch's readings (:func:`switch_pass`) into the state: clockwatch's events."""
        w, out = self.cw, []
        if r.get("op") == "seed":
            self._seeded(name, r, now)
            if "read" not in r:
                return out
            w.due(name, "read", now)        # due from the seed on: read and probed at once
            w.due(name, "probe", now)
            r = r["read"]
        if "registers" in r:
            out += w.registers(name, r["registers"], now)
        if "probe" in r:
            out += w.probe(name, *r["probe"], now)
        if "error" in r:
            w.failed(name, r["error"])
            self.metrics.clock_errors.labels(name).inc()
            self.log.warn("clock.read_failed", switch=name, error=r["error"])
        return out

    def _seeded(self, name: str, r: dict, now: float) -> None:
        w = self.cw
        ref = w.clocks[name].role == "ocs"
        if r.get("adopted"):
            w.seeded(name, now, adopted=True)
            for off, unc in r["probes"]:
                w.probe(name, off, unc, now)
            self.log.event("clock.adopted", switch=name, offset_us=round(r["before"] / 1e3, 3),
                           stratum=r["stratum"], note="it keeps the network's time: not seeded")
            return
        for off, unc in r["probes"]:
            w.probe(name, off, unc, now)
        if "error" in r:
            w.failed(name, f"seed: {r['error']}")
            self.log.error("clock.seed_failed", switch=name, error=r["error"])
            return
        w.seeded(name, now)
        self.metrics.clock_seeds.labels(name).inc()
        self.log.event("clock.seeded", switch=name, reference=ref, offset_before_us=round(r["before"] / 1e3, 3),
                       one_way_us=round(r["delay"] / 1e3, 3))

    def _event(self, ev) -> None:
        if ev.kind == "alarm":
            self.metrics.clock_alarms.labels(ev.switch).inc()
            self.log.warn("clock.alarm", switch=ev.switch, tor=ev.tor, **ev.detail)
        elif ev.kind == "alarm_cleared":
            self.log.event("clock.alarm_cleared", switch=ev.switch, tor=ev.tor, **ev.detail)
        elif ev.kind == "out_of_routes":
            if ev.tor in self.failed_tors():    # failed already, not by the clock: its recovery is not the clock's
                self.log.warn("clock.unsynchronized", switch=ev.switch, tor=ev.tor, **ev.detail,
                              note="failed already")
                return
            self.log.warn("clock.unsynchronized", switch=ev.switch, tor=ev.tor, **ev.detail,
                          note="taken out of routes like a failed ToR until it is synchronized again")
            self.out_of_routes.add(ev.tor)
            self.take_out(ev.tor)
        elif ev.kind == "back_in_routes":
            self.log.event("clock.synchronized", switch=ev.switch, tor=ev.tor, **ev.detail)
            if ev.tor in self.out_of_routes:
                self.out_of_routes.discard(ev.tor)
                self.put_back(ev.tor)

    def timer_log(self) -> dict:
        """``GET /clock/timers`` in sync mode: each switch's boundary ``k x L`` of the last
        slices moved by its offset as last probed (network time is this host's clock, so
        ``slice0_at`` is 0): what places a packet seen on a wire in the slice its sender and
        the OCS were in (``controller/emulate/deadtor.py``)."""
        L, S = self.slice_ns, self.cw.n_slices
        offs = {n: c.offset_ns for n, c in self.cw.clocks.items() if c.offset_ns is not None}
        k_now = self.clock_ns() // L
        return {"slice0_at": 0.0,
                "timers": [[k, k % S, {n: (k * L - off) / 1e9 for n, off in offs.items()}]
                           for k in range(max(0, k_now - WINDOW + 1), k_now + 1)] if offs else []}

    def status(self) -> dict:
        """The status API's ``clock`` in sync mode (``slice0_at`` 0: slice k starts at k x
        slice length on this host's CLOCK_MONOTONIC) and the switches' clocks as watched."""
        L, S = self.slice_ns, self.cw.n_slices
        k = self.clock_ns() // L
        return {"mode": "sync", "slice_ms": self.slice_ms, "slices": S, "slice0_at": 0.0,
                "current_slice": k % S, "slices_since_start": k, **self.cw.status()}
