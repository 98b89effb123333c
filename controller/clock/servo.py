"""The reference model of the data plane's slice clock (docs/clock.md), bit for bit.

The v1model programs (templates/fragments/sync_clock.p4.j2, sync_tor.p4.j2) do exactly
what this module does, with the same integer widths, wraps and shifts, so a packet test
predicts the registers a message leaves behind with it, and the discrete-event
simulation in the tests (a whole fabric of these clocks) says what the design does at
scale. Only the fixed-function parts are left out: the calendar queues' Full bits (a step
clears them; :attr:`ClockRegisters.steps` counts it) and the switch's own queueing.

One switch's clock is :class:`SwitchClock` (a ToR; :class:`ReferenceClock` is the OCS
emulator's, which nothing corrects). Per packet, ingress calls :meth:`SwitchClock.tick`
with the switch's local time ``l`` (ns): the boundaries passed since the last packet
move the slice number, slice id, epoch and active calendar queue, and the packet gets
its :class:`Snapshot` ``(k, phase)``. A message the switch sends is built in ingress
(:class:`Pending`) and stamped on the way out (:meth:`SwitchClock.sent`, with the egress
time): the switch's own queueing is not path delay.

Local time: the switch's timestamp in ns (bmv2: ``ingress_global_timestamp`` x 1000), run
through the emulation-only fault model (:class:`FaultModel`) on bmv2. ``phase`` is local
ns since the slice's boundary (not rescaled by the rate estimate: a switch cannot divide,
and the bias this leaves in an exchange is (drift difference) x phase, 10 us at 200 ppm
and 50 ms slices).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from controller.clock.message import (ANY_TOR, REF_TOR, UNSYNCED, Flag, Message, Op, Stamp, diff, offset,
                                      path_delay, residence)
from controller.clock.params import MODE_SYNC, ClockConfig, OcsClockConfig

M16 = (1 << 16) - 1
M32 = (1 << 32) - 1
M64 = (1 << 64) - 1
#: the fault model's drift is a signed fraction in units of 2^-FAULT_RATE_SHIFT
FAULT_RATE_SHIFT = 24
#: ns -> us for a 32-bit value: floor(x / 1000) == (x * DIV1000_MUL) >> DIV1000_SHIFT
DIV1000_MUL = 0x10624DD3
DIV1000_SHIFT = 38

#: what a ToR counts per sync frame (counter ``sync``: exactly one per frame)
REASONS = ("from_host", "malformed", "off",
           "req_sent", "ref_req_sent", "outside_window", "not_due", "no_peer",
           "resp_sent", "wrong_peer", "wrong_dst",
           "stale", "slow", "peer_worse", "step", "filtered", "refused", "lost", "applied",
           "probe", "seed")
#: events counted besides a frame's reason (cells after the reasons)
EVENTS = ("adopted", "claimed")
#: what the OCS emulator counts per sync frame it takes (counter ``ocs_sync``); sync frames
#: it forwards per circuit are data to it, not counted here
OCS_REASONS = ("malformed", "off", "trigger", "probe", "seed", "ref_answered", "ref_resp_dropped", "unseeded")


def s64(x: int) -> int:
    x &= M64
    return x - (1 << 64) if x >> 63 else x


def sat32(x: int) -> int:
    """``x`` saturated to a signed 32-bit number (what the offset/delay registers keep)."""
    return max(-(1 << 31), min((1 << 31) - 1, x))


def s32(x: int) -> int:
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def div1000(x: int) -> int:
    """The data plane's ns -> us of a 32-bit value (a multiply and a shift: no division)."""
    return ((x & M32) * DIV1000_MUL) >> DIV1000_SHIFT


def long_div(el: int, llen: int) -> tuple[int, int]:
    """(q, r) of ``el / llen`` by 32 restoring steps, as the switch does it (bmv2 has no
    run-time division): exact while the quotient fits 32 bits."""
    q, r = 0, el
    for j in range(31, -1, -1):
        if r >= llen << j:
            r -= llen << j
            q |= 1 << j
    return q, r


def mod_const(n: int, c: int) -> int:
    """``n mod c`` for a 32-bit ``n`` and a compile-time ``c``: subtract ``c << j`` where
    it fits, from the largest ``j`` whose ``c << j`` is a 32-bit value down."""
    for j in range(31, -1, -1):
        if (c << j) <= M32 and n >= c << j:
            n -= c << j
    return n


def crossed(nxt: int, llen: int, l: int) -> tuple[int, int]:
    """(n, next'): the boundaries a packet at local time ``l`` finds passed (the next one at
    ``nxt``, each ``llen`` later) and where the next one is then."""
    if l < nxt:
        return 0, nxt
    el = l - nxt
    q, rem = (0, el) if el < llen else long_div(el, llen)
    return (q + 1) & M32, (l - rem + llen) & M64


def read_time(k: int, nxt: int, llen: int, slice_id: int, l: int) -> Snapshot:
    """The time at ``l`` in the slice that ends at ``nxt``: ``llen - (nxt - l)`` (phase 0
    before the slice's start; never a subtraction that wraps below local time 0)."""
    if l >= nxt:
        phase = (llen + (l - nxt)) & M32
    else:
        rem = nxt - l
        phase = llen - rem if rem <= llen else 0
    return Snapshot(k, nxt, llen, slice_id, phase)


def out_stamp(snap: "Snapshot", le: int, slices: int) -> tuple[Stamp, int]:
    """(stamp, slice id) of egress at local time ``le``, from the packet's ingress snapshot:
    in its slice, or the next one if the boundary passed meanwhile."""
    if le < snap.next:
        return read_time(snap.k, snap.next, snap.llen, snap.slice, le).stamp, snap.slice
    sl = snap.slice + 1
    return Stamp((snap.k + 1) & M32, (le - snap.next) & M32), (0 if sl >= slices else sl)


def newer_term(term: int, lead: int, my_term: int, my_lead: int) -> bool:
    """Whether ``(term, lead)`` beats this switch's: a later term (16-bit, wrap-aware), or
    the same term claimed by a lower lead id."""
    d = (term - my_term) & M16
    return (d != 0 and d < 0x8000) or (d == 0 and term != 0 and lead < my_lead)


def later_k(a: int, b: int) -> int:
    """The later of two 32-bit slice numbers (wrap-aware)."""
    return b if ((b - a) & M32) < 0x80000000 else a


def least_delay(stored: int, delta: int, creep: int) -> tuple[int, int]:
    """NTP's clock filter per uplink (RFC 5905 section 10): (the register's new value, the
    least path delay recently seen), after an exchange of path delay ``delta``.

    The register keeps ``2^32 - 1 - least`` (a register never written reads as "none
    seen"); the least delay ages by ``creep`` per exchange before this one is taken, so
    it is the minimum of this delay and the earlier ones each raised by ``creep`` per
    exchange since: a route whose delay grew is taken again after (growth / creep)
    exchanges. A negative delay counts as 0."""
    aged = min(M32 - stored + creep, M32)
    least = min(aged, min(max(delta, 0), M32))
    return M32 - least, least


def rate_adjust(theta: int, servo_shift: int, rate_step: int) -> int:
    """The rate correction of an applied exchange of offset ``theta`` (this clock ahead by
    theta ns): the change of the local slice length, ``min(|theta| >> servo_shift,
    rate_step)`` ns, negative (a shorter slice) when theta > 0. The shift makes it a
    fraction of the offset (a proportional-integral servo's integral term, as in DPTP's and
    NTP's frequency correction); the cap keeps one exchange's path asymmetry from swinging
    the rate. The caller keeps the length within its bounds."""
    adj = min(abs(theta) >> servo_shift, rate_step)
    return -adj if theta > 0 else adj


def phase_move(theta: int, phase_shift: int, filter_ns: int) -> int:
    """How far an applied exchange of offset ``theta`` moves the next boundary (earlier when
    > 0): ``theta >> phase_shift`` (its magnitude shifted: towards 0) while ``|theta|`` is
    within twice the clock filter's bound, else the whole ``theta``. An exchange that
    passed the filter is off by up to its delay's asymmetry, a few hundred us on a loaded
    bmv2 whichever way: taking a fraction of each offset averages that noise over the
    exchanges (a phase-locked loop's proportional gain, NTP's and PTP's servos alike),
    while an offset larger than any asymmetry the filter lets through is the clock's own
    (a step, a start) and is taken whole, at once."""
    mag = abs(theta)
    move = mag if mag > 2 * filter_ns else mag >> phase_shift
    return move if theta > 0 else -move


@dataclass
class FaultModel:
    """The emulation-only clock fault of a bmv2 ToR (registers ``clock_fault_*``): its local
    clock runs ``rate / 2^24`` faster (a signed 32-bit fraction) and ``step`` ns ahead (a
    signed 32-bit number: at most +-2.1 s).
    The drift is integrated per packet in ``acc`` (units of 2^-24 ns) from the raw clock's
    advance since the last packet (at most 2^32 - 1 ns at once)."""

    rate: int = 0
    step: int = 0
    acc: int = 0
    last: int = 0

    @staticmethod
    def rate_of_ppm(ppm: float) -> int:
        """The ``rate`` register value for a drift of ``ppm`` parts per million."""
        return round(ppm * (1 << FAULT_RATE_SHIFT) / 1e6)

    def offset(self, raw: int) -> int:
        """Ingress: advance the integral to ``raw`` and return the fault's offset (ns)."""
        if raw > self.last:
            dt = min(raw - self.last, M32)
            self.acc = s64(self.acc + dt * self.rate)
            self.last = raw
        return s64(s32(self.step) + (self.acc >> FAULT_RATE_SHIFT))

    def local(self, raw: int) -> int:
        return (raw + self.offset(raw)) & M64


@dataclass(frozen=True)
class Snapshot:
    """A packet's view of the clock at ingress (what egress stamps from)."""

    k: int
    next: int
    llen: int
    slice: int
    phase: int

    @property
    def stamp(self) -> Stamp:
        return Stamp(self.k, self.phase)


@dataclass
class Uplink:
    """Per uplink: the open request (its slice number, the peer it went to, its t1), and
    the clock filter's least delay (stored as ``2^32 - 1 - least``: :func:`least_delay`)."""

    open: int = 0
    k: int = 0
    peer: int = 0
    t1: int = 0
    min_delay: int = 0


@dataclass
class ClockRegisters:
    """The clock registers of a switch (register ``clock_<name>``; ``stratum`` is stored
    as ``255 - stratum``, so a register never written reads as unsynchronized)."""

    k: int = 0
    next: int = 0
    llen: int = 0
    slice: int = 0
    epoch: int = 0
    active_q: int = 0
    stratum: int = UNSYNCED
    term: int = 0
    lead: int = 0
    lead_k: int = 0
    refusals: int = 0
    offset: int = 0          # theta of the last exchange evaluated (signed ns, saturated to 32 bits)
    delay: int = 0           # delta of the last exchange evaluated (the same)
    last_k: int = 0          # slice number of the last correction (step or applied)
    t4_k: int = 0            # t4 of the last exchange evaluated
    t4_phase: int = 0
    steps: int = 0           # model only: steps taken (each clears the Full bits)
    uplinks: list[Uplink] = field(default_factory=list)


@dataclass(frozen=True)
class Pending:
    """A message built in ingress, to be stamped in egress (:meth:`SwitchClock.sent`): a
    REQ (``uplink``: the uplink whose t1 is kept) is stamped t1 and leaves on that uplink;
    an answer (RESP, PROBE_REPLY: ``uplink`` None) is stamped t3 and leaves by the port
    its request came in on."""

    msg: Message
    snap: Snapshot
    uplink: int | None = None


#: the peer a ToR's ``sync_peer`` table names for (slice id, uplink), None without one
PeerTable = Callable[[int, int], "int | None"]


class SwitchClock:
    """One ToR's slice clock in sync mode (``cfg.mode`` must be sync for anything but
    :meth:`probe`): registers and the rules the data plane applies to each message.

    Methods return the reason the switch counts (``REASONS``) and, for a message it
    sends, a :class:`Pending`; ``events`` counts ``EVENTS``."""

    def __init__(self, cfg: ClockConfig, *, slices: int, queues: int, uplinks: int, peer: PeerTable):
        self.cfg, self.S, self.Q, self.d, self.peer = cfg, slices, queues, uplinks, peer
        self.r = ClockRegisters(uplinks=[Uplink() for _ in range(uplinks)])
        self.events: dict[str, int] = {e: 0 for e in EVENTS}

    # ---- time ----------------------------------------------------------------------------
    def _len(self) -> int:
        """The local slice length in use: the register (L while it was never written),
        within the configured bounds."""
        c = self.cfg
        llen = self.r.llen or c.slice_ns
        return min(max(llen, c.len_min), c.len_max)

    def _rotate(self, n: int) -> None:
        """``n`` boundaries passed: slice id, epoch and active queue move by n (mod S, Q)."""
        r = self.r
        r.k = (r.k + n) & M32
        r.slice += mod_const(n, self.S)
        if r.slice >= self.S:
            r.slice -= self.S
        r.epoch = (r.epoch + n) & M32
        r.active_q += mod_const(n, self.Q)
        if r.active_q >= self.Q:
            r.active_q -= self.Q

    def tick(self, l: int) -> Snapshot:
        """Ingress of a packet at local time ``l``: cross the boundaries passed (the next
        one is at ``next``, each a local slice length ``llen`` later) and read the time."""
        r = self.r
        llen = self._len()
        if l >= r.next:
            n, r.next = crossed(r.next, llen, l)
            r.llen = llen
            self._rotate(n)
        return read_time(r.k, r.next, llen, r.slice, l)

    def peek(self, l: int) -> Snapshot:
        """The time at ``l`` without crossing a boundary (after :meth:`tick`: the packet's)."""
        r = self.r
        return read_time(r.k, r.next, self._len(), r.slice, l)

    def _step(self, l: int, k: int, slice_id: int, phase: int) -> None:
        """Set the clock: at local time ``l`` it is ``(k, phase)`` in slice id ``slice_id``.
        A new slice number starts a new slice for the queues (epoch + 1, the active queue
        moves on, every Full bit cleared)."""
        r = self.r
        if k != r.k:
            r.epoch = (r.epoch + 1) & M32
            r.active_q = 0 if r.active_q + 1 >= self.Q else r.active_q + 1
            r.steps += 1
        r.k, r.slice = k, slice_id
        r.next = (l + (self.cfg.slice_ns - phase)) & M64

    # ---- messages --------------------------------------------------------------------------
    def _sync(self) -> bool:
        return self.cfg.mode == MODE_SYNC

    def _msg(self, op: Op, flags: int, dst: int, uplink: int, **kw) -> Message:
        r = self.r
        if r.stratum == UNSYNCED:
            flags |= Flag.BOOT
        return Message(op, flags, self.cfg.my_tor, dst, uplink, r.stratum, r.term, r.lead, r.lead_k, **kw)

    def trigger(self, l: int, msg: Message) -> tuple[str, Pending | None]:
        """A TRIGGER from the packet generator: maybe claim the lead, then maybe a REQ on
        ``msg.uplink`` (to this slice's peer; the lead's ``ref_uplink``: to the reference)."""
        if not self._sync():
            return "off", None
        snap = self.tick(l)
        u = msg.uplink
        if u >= self.d:
            return "malformed", None
        c, r = self.cfg, self.r
        is_lead = r.term != 0 and r.lead == c.my_tor
        if c.candidate and not is_lead:
            wait = c.start_wait if r.term == 0 else c.claim_wait
            age = (snap.k - r.lead_k) & M32
            if wait < age < 0x80000000:
                r.term = (r.term + 1) & M16
                r.lead, r.lead_k = c.my_tor, snap.k
                self.events["claimed"] += 1
                is_lead = True
        if snap.phase < c.window_lo or snap.phase > c.window_hi:
            return "outside_window", None
        ul = r.uplinks[u]
        if ((snap.k - ul.k) & M32) < c.exchange_every:
            return "not_due", None
        if is_lead and u == c.ref_uplink:
            dst, kept, flags, why = REF_TOR, REF_TOR, int(Flag.REF), "ref_req_sent"
        else:
            # unsynchronized, or no correction for search_wait slices: the slice may be
            # wrong, so the REQ goes to whoever the circuit brings (the table aside)
            search = r.stratum == UNSYNCED or ((snap.k - r.last_k) & M32) > c.search_wait
            peer = self.peer(snap.slice, u)
            if peer is None and not search:
                return "no_peer", None
            dst = ANY_TOR if search else peer
            kept, flags, why = dst, int(Flag.BOOT) if search else 0, "req_sent"
        ul.open, ul.k, ul.peer = 1, snap.k, kept
        return why, Pending(self._msg(Op.REQ, flags, dst, u), snap, u)

    def request(self, l: int, msg: Message, uplink: int) -> tuple[str, Pending | None]:
        """A REQ from ``uplink``: answered (RESP, the same way back) when it comes from the
        peer this slice's circuit names and is addressed to this ToR (or, BOOT, to anyone)."""
        if not self._sync():
            return "off", None
        snap = self.tick(l)
        if msg.flags & Flag.REF:
            return "wrong_dst", None            # a ToR is not the reference
        if self.peer(snap.slice, uplink) != msg.src_tor:
            return "wrong_peer", None
        if not (msg.dst_tor == self.cfg.my_tor or (msg.dst_tor == ANY_TOR and msg.flags & Flag.BOOT)):
            return "wrong_dst", None
        # the REQ's residence in the circuit's switch goes back with the RESP (aux's upper half)
        resp = replace(self._msg(Op.RESP, 0, msg.src_tor, uplink, t1=msg.t1, t2=snap.stamp),
                       aux=msg.aux & (M32 << 32))
        return "resp_sent", Pending(resp, snap)

    def response(self, l: int, msg: Message, uplink: int) -> str:
        """A RESP from ``uplink``: checked against the open request, then the rules of
        docs/clock.md in order (the clock filter's least delay; adopt a newer term; too slow;
        not a better clock; step when unsynchronized; filtered: too far above the least
        delay; refuse beyond the bound; apply, the rate step bounded)."""
        if not self._sync():
            return "off"
        snap = self.tick(l)
        c, r = self.cfg, self.r
        L = c.slice_ns
        t4 = snap.stamp
        fwd, back = residence(msg.aux)
        if msg.slice >= self.S or fwd + back > max(0, diff(t4, msg.t1, L) - diff(msg.t3, msg.t2, L)):
            return "malformed"                  # (a residence longer than the round trip: forged)
        ul = r.uplinks[uplink]
        if not ul.open or msg.t1.word() != ul.t1:
            return "stale"
        ref = bool(msg.flags & Flag.REF)
        if ref:
            # the reference answers the lead: a REF RESP that reaches a ToR no longer the
            # term's lead (it adopted another lead after it sent the REQ) would make it
            # stratum 1 under another lead, a parent that nothing corrects any more
            ok = ul.peer == REF_TOR and msg.src_tor == REF_TOR and r.term != 0 and r.lead == c.my_tor
        else:
            ok = ul.peer != REF_TOR and (ul.peer == ANY_TOR or msg.src_tor == ul.peer)
        if not ok:
            return "wrong_peer"
        if msg.dst_tor != c.my_tor:
            return "wrong_dst"
        ul.open = 0
        theta = offset(msg.t1, msg.t2, msg.t3, t4, L, fwd, back)
        delta = path_delay(msg.t1, msg.t2, msg.t3, t4, L, fwd, back)
        r.offset, r.delay, r.t4_k, r.t4_phase = sat32(theta), sat32(delta), t4.k, t4.phase
        # the clock filter: the least delay recently seen on this uplink, whatever this
        # exchange's fate (a slow one still ages it)
        ul.min_delay, least = least_delay(ul.min_delay, delta, c.filter_creep)
        if not ref and newer_term(msg.term, msg.lead, r.term, r.lead):
            r.term, r.lead, r.lead_k = msg.term, msg.lead, msg.lead_k
            r.stratum = UNSYNCED
            self.events["adopted"] += 1
        # the lead's liveness, whatever the delay: a RESP from the reference says the lead
        # reaches it now, a same-term peer's carries its lead_k (a queued exchange tells
        # nothing of the time, but a lead that only saw queued exchanges is still alive:
        # without this a loaded fabric lets lead_k age and the next candidate claims)
        if ref:
            r.lead_k = r.k
        elif msg.term == r.term:
            r.lead_k = later_k(r.lead_k, msg.lead_k)
        if delta > c.max_delay:
            return "slow"
        if not (msg.stratum < r.stratum and (ref or msg.term == r.term)):
            return "peer_worse"
        if r.stratum == UNSYNCED:
            # step to the responder's time now: t3 + delta
            ph = msg.t3.phase + max(delta, 0)
            k, sl = msg.t3.k, msg.slice
            if ph >= L:
                ph, k, sl = ph - L, (k + 1) & M32, (0 if sl + 1 >= self.S else sl + 1)
                if ph >= L:
                    ph = L - 1
            self._step(l, k, sl, ph)
            self._took(msg, ref)
            return "step"
        if delta > least + c.filter:
            # far above the least delay: its asymmetry may be as large (RFC 5905 section 10)
            return "filtered"
        if abs(theta) > c.max_offset:
            r.refusals = (r.refusals + 1) & 0xFF
            if r.refusals >= c.refuse_limit:
                r.stratum, r.refusals = UNSYNCED, 0
                return "lost"
            return "refused"
        # apply: the boundary moves by phase_move, the local slice length by rate_adjust
        r.next = (r.next - phase_move(theta, c.phase_shift, c.filter)) & M64
        llen = snap.llen + rate_adjust(theta, c.servo_shift, c.rate_step)
        r.llen = min(max(llen, c.len_min), c.len_max)
        self._took(msg, ref)
        return "applied"

    def _took(self, msg: Message, ref: bool) -> None:
        r = self.r
        r.stratum = 1 if ref else msg.stratum + 1
        r.refusals = 0
        r.lead_k = r.k if ref else later_k(r.lead_k, msg.lead_k)
        r.last_k = r.k

    def seed(self, l: int, msg: Message) -> str:
        """A SEED from the controller (CPU port): step to ``t3`` now; stratum 0 with REF (the
        reference), else unsynchronized (the next exchange still steps or corrects it)."""
        if not self._sync():
            return "off"
        self.tick(l)
        if msg.t3.phase >= self.cfg.slice_ns or msg.slice >= self.S:
            return "malformed"
        self._step(l, msg.t3.k, msg.slice, msg.t3.phase)
        r = self.r
        r.stratum = 0 if msg.flags & Flag.REF else UNSYNCED
        r.refusals = 0
        r.lead_k = r.last_k = msg.t3.k
        return "seed"

    def probe(self, l: int, msg: Message) -> tuple[str, Pending]:
        """A PROBE: answered where it came from (t2 now, t3 and aux, the raw clock, on the
        way out). Sync mode only here (timer mode: docs/p4.md "Time")."""
        snap = self.tick(l)
        reply = self._msg(Op.PROBE_REPLY, 0, msg.src_tor, msg.uplink, t1=msg.t1, t2=snap.stamp)
        return "probe", Pending(reply, snap)

    def sent(self, p: Pending, le: int, raw_e: int = 0) -> Message:
        """Egress of ``p`` at local time ``le`` (``raw_e``: the raw clock, PROBE_REPLY's aux):
        the stamp and slice id written; a REQ's t1 kept for its RESP."""
        if p.uplink is None:
            return answer_sent(p, le, raw_e, self.S)
        stamp, sl = out_stamp(p.snap, le, self.S)
        self.r.uplinks[p.uplink].t1 = stamp.word()
        return replace(p.msg, t1=stamp, slice=sl)


def answer_sent(p: Pending, le: int, raw_e: int, slices: int) -> Message:
    """An answer (RESP, PROBE_REPLY) of a ToR or of the reference leaving at local time
    ``le``: its t3 and slice id written from the clock it read (``p.snap``); a PROBE_REPLY
    carries the raw clock ``raw_e`` in ``aux``, a RESP the residences it was built with."""
    stamp, sl = out_stamp(p.snap, le, slices)
    return replace(p.msg, t3=stamp, slice=sl, aux=raw_e if p.msg.op == Op.PROBE_REPLY else p.msg.aux)


class ReferenceClock:
    """The OCS emulator's clock: the reference (stratum 0 once seeded), slices of exactly L,
    nothing corrects it. It answers REF requests; everything else is forwarded."""

    def __init__(self, cfg: OcsClockConfig, *, slices: int):
        self.cfg, self.S = cfg, slices
        self.k = self.next = self.slice = 0
        self.stratum = UNSYNCED

    def tick(self, l: int) -> Snapshot:
        L = self.cfg.slice_ns
        n, self.next = crossed(self.next, L, l)
        if n:
            self.k = (self.k + n) & M32
            self.slice += mod_const(n, self.S)
            if self.slice >= self.S:
                self.slice -= self.S
        return read_time(self.k, self.next, L, self.slice, l)

    def seed(self, l: int, msg: Message) -> str:
        if self.cfg.mode != MODE_SYNC:
            return "off"
        self.tick(l)
        if msg.t3.phase >= self.cfg.slice_ns or msg.slice >= self.S:
            return "malformed"
        self.k, self.slice = msg.t3.k, msg.slice
        self.next = (l + self.cfg.slice_ns - msg.t3.phase) & M64
        self.stratum = 0 if msg.flags & Flag.REF else UNSYNCED
        return "seed"

    def answer(self, l: int, msg: Message) -> tuple[str, Pending | None]:
        """A REF REQ from a ToR port: the reference's RESP, the same way back."""
        if self.cfg.mode != MODE_SYNC:
            return "off", None
        snap = self.tick(l)
        if self.stratum != 0:
            return "unseeded", None
        resp = Message(Op.RESP, int(Flag.REF), REF_TOR, msg.src_tor, msg.uplink, 0, 0, REF_TOR, 0,
                       t1=msg.t1, t2=snap.stamp)
        return "ref_answered", Pending(resp, snap)

    def probe(self, l: int, msg: Message) -> tuple[str, Pending]:
        snap = self.tick(l)
        flags = int(Flag.REF) | (int(Flag.BOOT) if self.stratum == UNSYNCED else 0)
        reply = Message(Op.PROBE_REPLY, flags, REF_TOR, msg.src_tor, msg.uplink, self.stratum, 0, REF_TOR, 0,
                        t1=msg.t1, t2=snap.stamp)
        return "probe", Pending(reply, snap)

    def sent(self, p: Pending, le: int, raw_e: int = 0) -> Message:
        return answer_sent(p, le, raw_e, self.S)
