"""The daemon's side of the switches' own slice clocks (``[clock] mode = "sync"``,
docs/clock.md "The daemon supervises"): the I/O of the supervision -- seeding a switch's
clock with the network time, reading its clock registers, probing its offset -- through
each switch's backend, and acting on what :mod:`controller.daemon.clockwatch` decides from
it (alarms logged and counted; a ToR unsynchronized too long taken out of routes like a
failed ToR and put back once it is synchronized again).

Network time is this host's CLOCK_MONOTONIC (``clock_ns``): slice ``k`` of the network
starts at ``k x L`` ns (``L`` the slice length). The reads, probes and seeds go out on
their own pool (PacketOut/PacketIn), never queued behind a table write.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Callable

from controller.agent.backend import BackendError
from controller.daemon.clock import WINDOW
from controller.daemon.clockwatch import ClockWatch
from controller.daemon.log import EventLog
from controller.daemon.metrics import Metrics
from controller.daemon.switch import SwitchAgent

#: a seed of the reference within this of the daemon's clock is kept (ns); else corrected
SEED_TOLERANCE_NS = 200_000
#: seeds of the reference tried, each corrected by what the probe after it measured
SEED_ATTEMPTS = 3


class ClockSupervision:
    """One pass at a time over the programmed switches (:meth:`watch`).

    ``slice_ms``: the slice length (``[clock] slice_ms``); ``clock_ns``: network time; ``failed_tors()``: the ToRs
    failed for another reason (their recovery is not the clock's); ``take_out(tor)`` and
    ``put_back(tor)``: what the controller does with a ToR the clock takes out of routes or
    gives back (a failure or recovery submitted with source "clock")."""

    def __init__(self, watch: ClockWatch, slice_ms: float, pool: Executor, log: EventLog, metrics: Metrics,
                 clock_ns: Callable[[], int], failed_tors: Callable[[], set[int]],
                 take_out: Callable[[int], None], put_back: Callable[[int], None]):
        self.cw = watch
        self.slice_ms = slice_ms
        self.pool = pool
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

    def watch(self, agents: list[SwitchAgent], known: set[str], now: float) -> None:
        """One pass: every switch of ``agents`` (up and programmed) that needs it is seeded
        (a reconnected or reprogrammed one is read first and adopted if it keeps the
        network's time), the OCS emulators before the ToRs; then each one's registers are
        read when due (every second) and it is probed when due (every few seconds), the
        reference first. ``known``: every switch of the network (the others are forgotten)."""
        w = self.cw
        w.forget(known)
        for a in agents:
            w.track(a.name, a.cfg.role, a.cfg.tor)
        ocs = [a for a in agents if a.cfg.role == "ocs"]
        tors = [a for a in agents if a.cfg.role != "ocs"]
        for group in (ocs, tors):       # the reference first: a ToR is seeded, adopted, probed against it
            seed = [a for a in group if a.need_sync]
            if seed:
                list(self.pool.map(lambda a: self._seed(a, now), seed))
            events = self.pool.map(lambda a: self._watch_one(a, now), [a for a in group if not a.need_sync])
            for ev in [e for evs in events for e in evs]:
                self._event(ev)
        self.metrics.set_clocks({n: c for n, c in w.clocks.items()})

    def _seed(self, a: SwitchAgent, now: float) -> None:
        """Seed ``a``'s clock with the network time plus the one-way delay a probe measured,
        unless it keeps that time already. The reference is probed again after each seed
        and seeded again, corrected by what the probe saw, until it is within
        :data:`SEED_TOLERANCE_NS` (or its round trip)."""
        w, L = self.cw, self.slice_ns
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
                a.seed_clock(t // L, t % L, ref)     # the backend keeps k mod 2^32, slice k mod S
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
        """``a``'s registers read and its offset probed, each when due: clockwatch's events."""
        w, out = self.cw, []
        try:
            if w.due(a.name, "read", now):
                out += w.registers(a.name, a.read_clock(), now)
            if w.due(a.name, "probe", now):
                p = a.probe_clock()
                out += w.probe(a.name, p.offset_ns(self.slice_ns), p.uncertainty_ns(), now)
        except BackendError as e:
            w.failed(a.name, str(e))
            self.metrics.clock_errors.labels(a.name).inc()
            self.log.warn("clock.read_failed", switch=a.name, error=str(e))
        return out

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
