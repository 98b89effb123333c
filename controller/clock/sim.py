"""A discrete-event simulation of a whole fabric's slice clocks (the reference model's
switches, docs/clock.md): N ToRs with their own drifts and start times, the schedule's
circuits per slice through an OCS that is the reference clock, packet generators that
trigger exchanges, and faults (a ToR stopped, its clock stepped or drifting).

It answers "what does the design do at scale" cheaply: the tests property-test
convergence, bootstrap from seconds off, a runaway clock refused, the loss of the lead
and the election with it; a user can try parameters (``Fabric(...).run(...)``) before
deploying them. Time is true time in integer ns (the OCS's clock is exact and seeded at
0); a ToR's local clock is ``(t - start) x (1 + drift)`` truncated to ``quantum_ns``
(bmv2's clock ticks in microseconds), plus its fault step.
"""

from __future__ import annotations

import heapq
import itertools
import random
from dataclasses import dataclass, field

import numpy as np

from controller.clock.message import K_MOD, Flag, Message, Op, Stamp, add_residence, s32
from controller.clock.params import ClockParams
from controller.clock.servo import ReferenceClock, SwitchClock, crossed, read_time


@dataclass
class ToRSpec:
    """One simulated ToR: its crystal's drift, when it starts (true ns), its fault step."""

    drift_ppm: float = 0.0
    start_ns: int = 0
    step_ns: int = 0


@dataclass
class Links:
    """Timing of the fabric: one-way ToR <-> OCS link delay, a switch's ingress-to-egress
    time, a uniform jitter added to each link crossing, the packet generator's period per
    uplink, and the mean of a random wait a frame crossing the OCS has there (the OCS
    emulator, a software switch, queues; it tells each REQ and RESP how long it held it)."""

    link_ns: int = 20_000
    proc_ns: int = 5_000
    jitter_ns: int = 0
    trigger_ns: int | None = None      # default L / 4
    ocs_queue_ns: int = 0              # mean of an exponential wait in the OCS (a software OCS queues)


@dataclass
class _ToR:
    spec: ToRSpec
    clock: SwitchClock
    alive: bool = True
    counts: dict = field(default_factory=dict)


class Fabric:
    """The simulated fabric: ``schedule_peer`` is a schedule's (S, N, d) circuit table."""

    def __init__(self, schedule_peer: np.ndarray, params: ClockParams, tors: list[ToRSpec],
                 links: Links | None = None, *, queues: int | None = None, quantum_ns: int = 1000, seed: int = 0):
        self.peer = np.asarray(schedule_peer)
        S, N, d = self.peer.shape
        if len(tors) != N:
            raise ValueError(f"{len(tors)} ToR specs for a schedule of {N} ToRs")
        self.S, self.N, self.d = S, N, d
        self.params = params
        self.links = links or Links()
        self.L = params.slice_ns
        self.trigger_ns = self.links.trigger_ns or self.L // 4
        self.quantum = quantum_ns
        self.rng = random.Random(seed)
        self.t = 0
        self._events: list = []
        self._seq = itertools.count()
        self.ocs = ReferenceClock(params.ocs_config(), slices=S)
        self.ocs.seed(0, Message(Op.SEED, int(Flag.REF), t3=Stamp(0, 0), slice=0))
        self._triggers = [Message(Op.TRIGGER, uplink=u) for u in range(d)]
        self.tors: list[_ToR] = []
        for i, spec in enumerate(tors):
            cfg = params.tor_config(i, N, d, S)
            clk = SwitchClock(cfg, slices=S, queues=queues or S, uplinks=d, peer=self._peer_of(i))
            self.tors.append(_ToR(spec, clk))
            for u in range(d):
                # packet generators free-run, each from its own phase
                self._at(spec.start_ns + self.rng.randrange(self.trigger_ns), "trigger", i, u)

    def _peer_of(self, tor: int):
        def peer(slice_id: int, uplink: int):
            p = int(self.peer[slice_id, tor, uplink])
            return p if p >= 0 else None
        return peer

    # ---- time ------------------------------------------------------------------------------
    def local(self, i: int, t: int) -> int:
        """ToR ``i``'s local clock at true time ``t`` (ns)."""
        s = self.tors[i].spec
        el = max(0, t - s.start_ns)
        raw = el + int(el * s.drift_ppm) // 1_000_000
        return max(0, raw // self.quantum * self.quantum + s.step_ns)

    def network_time(self, i: int, t: int) -> int:
        """What ToR ``i`` says the network time is at true time ``t`` (its k unwrapped
        near the true slice number)."""
        r = self.tors[i].clock.r
        llen = self.tors[i].clock._len()
        l = self.local(i, t)
        n, nxt = crossed(r.next, llen, l)
        snap = read_time((r.k + n) % K_MOD, nxt, llen, 0, l)
        k_true = t // self.L
        return (k_true + s32(snap.k - k_true)) * self.L + snap.phase

    def error(self, i: int, t: int | None = None) -> int:
        """ToR ``i``'s clock minus the reference (ns) at ``t`` (default: now)."""
        t = self.t if t is None else t
        return self.network_time(i, t) - t

    # ---- faults ----------------------------------------------------------------------------
    def stop(self, i: int) -> None:
        """ToR ``i`` dies: it neither sends nor answers."""
        self.tors[i].alive = False

    def step(self, i: int, ns: int) -> None:
        """ToR ``i``'s local clock jumps by ``ns``."""
        self.tors[i].spec.step_ns += ns

    # ---- events ----------------------------------------------------------------------------
    def _at(self, t: int, kind: str, *args) -> None:
        heapq.heappush(self._events, (t, next(self._seq), kind, args))

    def _link(self) -> int:
        j = self.links.jitter_ns
        return self.links.link_ns + (self.rng.randrange(j + 1) if j else 0)

    def _count(self, i: int, reason: str) -> None:
        c = self.tors[i].counts
        c[reason] = c.get(reason, 0) + 1

    def run(self, until_ns: int) -> None:
        """Process every event before ``until_ns`` (true ns)."""
        proc = self.links.proc_ns
        while self._events and self._events[0][0] < until_ns:
            t, _, kind, args = heapq.heappop(self._events)
            self.t = t
            if kind == "trigger":
                i, u = args
                self._at(t + self.trigger_ns, "trigger", i, u)
                tor = self.tors[i]
                if not tor.alive:
                    continue
                why, p = tor.clock.trigger(self.local(i, t), self._triggers[u])
                self._count(i, why)
                if p is not None:
                    out = tor.clock.sent(p, self.local(i, t + proc))
                    self._at(t + proc + self._link(), "ocs", i, u, out)
            elif kind == "ocs":
                i, u, msg = args
                if msg.flags & Flag.REF:
                    if msg.op == Op.REQ:
                        why, p = self.ocs.answer(t, msg)
                        if p is not None:
                            self._at(t + proc + self._link(), "tor", i, u, self.ocs.sent(p, t + proc))
                    continue                       # a REF RESP from a ToR port: dropped
                s = self.ocs.tick(t).slice
                j = int(self.peer[s, i, u])
                if j >= 0:
                    # the OCS holds it (its processing and queueing) and says so in aux
                    # (message.add_residence), as the OCS emulator's program does
                    q = self.links.ocs_queue_ns
                    hold = proc + (int(self.rng.expovariate(1 / q)) if q else 0)
                    self._at(t + hold + self._link(), "tor", j, u, add_residence(msg, hold))
            elif kind == "tor":
                i, u, msg = args
                tor = self.tors[i]
                if not tor.alive or t < tor.spec.start_ns:
                    continue
                l = self.local(i, t)
                if msg.op == Op.REQ:
                    why, p = tor.clock.request(l, msg, u)
                    self._count(i, why)
                    if p is not None:
                        out = tor.clock.sent(p, self.local(i, t + proc))
                        self._at(t + proc + self._link(), "ocs", i, u, out)
                elif msg.op == Op.RESP:
                    self._count(i, tor.clock.response(l, msg, u))
        self.t = until_ns
