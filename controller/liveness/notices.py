"""In-band notices (docs/liveness.md "Notices"): the reference of what a ToR's data plane
does with them, as :mod:`controller.clock.servo` is the clock's. The packet tests predict
the switch with it.

A ToR whose liveness evaluation sets or clears a mark of slice ``s`` tells the fabric: a
NOTICE ``(origin, seq, s, down)`` -- ``down`` bit u set for its uplink u marked down in
``s`` -- kept in a slot and sent, from the packet generator's TRIGGERs whose REQ is not
due, over every circuit the ToR has during one schedule cycle (FRANCIS: message passing in
the data plane, retransmissions driven by the packet generator). A ToR takes a NOTICE only
from an uplink, from the peer the schedule names for that uplink in this slice (the fabric's
own ports authenticate it), within a token bucket's rate, and once per (origin, slice,
seq): it sets the origin's cell of the fabric-wide map of dead circuits and keeps the
notice to send on the same way. A source route whose hop crosses a circuit the map says is
dead (at either end) is routed per hop instead (URO's first known-up alternative).

Why a notice carries one slice's down bits, not one circuit: an evaluation changes the
marks of one slice only (the slice that ended), so one notice says all of it, and the
newest notice of an (origin, slice) supersedes the older ones (a lost or reordered
notice is repaired by the next; a ``down`` then ``up`` cannot be applied in the wrong
order). Pure state and functions; no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: the outcomes counted (the ``notices`` counter's cells, controller.p4gen.render.NOTICE_COUNTS)
TAKEN = ("applied", "duplicate", "wrong_peer", "unknown", "flood", "from_host", "off")
#: the slots a ToR keeps notices to send in (controller.p4gen.render.NOTICE_SLOTS)
SLOTS = 4
K_MOD = 1 << 32


def newer(a: int, b: int) -> bool:
    """Sequence number ``a`` comes after ``b`` (32 bits, wrapping)."""
    return 0 < (a - b) % K_MOD < (1 << 31)


@dataclass
class Slot:
    origin: int
    seq: int
    slice: int
    down: int
    until: int                               # slice number from which the slot is free
    sent: dict[int, int] = field(default_factory=dict)   # uplink -> slice number last sent in


@dataclass
class Notices:
    """One ToR's notice state: ``tors`` N, ``slices`` S, ``uplinks`` d, its id ``me``,
    ``rate`` / ``burst`` (``[liveness] notice_rate``, ``notice_burst``; rate 0: off)."""

    tors: int
    slices: int
    uplinks: int
    me: int
    rate: int = 8
    burst: int = 32
    seq: int = 0
    map: dict[tuple[int, int], int] = field(default_factory=dict)     # (origin, slice) -> down bits
    last: dict[tuple[int, int], int] = field(default_factory=dict)    # (origin, slice) -> seq applied
    tokens: int = 0
    fill: int = 0
    slots: list[Slot | None] = field(default_factory=lambda: [None] * SLOTS)
    counts: dict[str, int] = field(default_factory=lambda: {r: 0 for r in TAKEN + ("sent", "busy", "avoided")})

    # ---- keeping and sending ---------------------------------------------------------------
    def _keep(self, k: int, origin: int, seq: int, slice_id: int, down: int) -> None:
        for i, s in enumerate(self.slots):
            if s is None or (k - s.until) % K_MOD < (1 << 31):
                self.slots[i] = Slot(origin, seq, slice_id, down, (k + self.slices) % K_MOD)
                return
        self.counts["busy"] += 1

    def marked(self, k: int, slice_id: int, down: int) -> None:
        """This ToR's evaluation at slice number ``k`` changed the marks of ``slice_id``,
        whose down bits are now ``down``: its next notice."""
        if self.rate == 0:
            return
        self.seq = (self.seq + 1) % K_MOD or 1
        self.map[self.me, slice_id] = down
        self.last[self.me, slice_id] = self.seq
        self._keep(k, self.me, self.seq, slice_id, down)

    def trigger(self, k: int, uplink: int, peer: int | None) -> tuple[int, int, int, int] | None:
        """A TRIGGER for ``uplink`` whose REQ is not due, at slice number ``k``, ``peer`` the
        circuit's (None: no circuit): the notice ``(origin, seq, slice, down)`` sent, if any."""
        if self.rate == 0 or peer is None:
            return None
        for s in self.slots:
            if s is not None and (s.until - k - 1) % K_MOD < (1 << 31) and s.sent.get(uplink) != k:
                s.sent[uplink] = k
                self.counts["sent"] += 1
                return s.origin, s.seq, s.slice, s.down
        return None

    # ---- taking ----------------------------------------------------------------------------
    def receive(self, k: int, *, from_uplink: bool, from_host: bool, synced: bool, src: int, dst: int,
                peer: int | None, origin: int, seq: int, slice_id: int, down: int) -> str:
        """A NOTICE arriving at slice number ``k`` (``peer``: the ToR this slice's circuit
        on its uplink names, None: none): the reason it is counted under."""
        if not from_uplink:
            if from_host:
                self.counts["from_host"] += 1
                return "from_host"
            return "malformed"                # the clock channel's (pktgen or CPU port)
        why = self._take(k, synced, src, dst, peer, origin, seq, slice_id, down)
        self.counts[why] += 1
        return why

    def _take(self, k, synced, src, dst, peer, origin, seq, slice_id, down) -> str:
        if self.rate == 0 or not synced:
            return "off"
        if peer is None or src != peer or dst != self.me:
            return "wrong_peer"
        if not 0 <= origin < self.tors or not 0 <= slice_id < self.slices or seq == 0 or down >> self.uplinks:
            return "unknown"
        dk = (k - self.fill) % K_MOD
        t = self.burst if dk >= self.burst else min(self.burst, self.tokens + dk * self.rate)
        self.fill = k
        if t == 0:
            self.tokens = 0
            return "flood"
        self.tokens = t - 1
        if origin == self.me or not newer(seq, self.last.get((origin, slice_id), 0)):
            return "duplicate"
        self.last[origin, slice_id] = seq
        self.map[origin, slice_id] = down
        self._keep(k, origin, seq, slice_id, down)
        return "applied"

    # ---- using -----------------------------------------------------------------------------
    def dead(self, tor: int, slice_id: int, uplink: int) -> bool:
        """The circuit of ``tor``'s ``uplink`` in ``slice_id`` is dead by the notices (its
        end's own)."""
        return bool(self.map.get((tor, slice_id), 0) >> uplink & 1)

    def path_crosses_dead(self, hops: list[tuple[int, int, int]]) -> bool:
        """A source route ``[(next_tor, uplink, send_slice), ...]`` from this ToR crosses a
        circuit that either of its ends' notices say is dead: routed per hop instead."""
        at = self.me
        for nxt, u, s in hops:
            if self.dead(at, s, u) or self.dead(nxt, s, u):
                self.counts["avoided"] += 1
                return True
            at = nxt
        return False
