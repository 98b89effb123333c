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
seq): it sets the origin's cell of the fabric-wide map of dead circuits and, when that
changed the cell, keeps the notice to send on the same way. A source route whose hop
crosses a circuit the map says is dead (at either end) is routed per hop instead (URO's
first known-up alternative).

**The refresh**: a notice is sent for one cycle, so a ToR that missed it (and every copy
sent on) would keep the old bits until the origin's next change of that slice. So every
``refresh`` cycles a ToR sends its marks of each slice again, changed or not, with a new
sequence number; a ToR that missed a notice takes the refresh (newer) and catches up
within one refresh period, and one whose map it does not change does not send it on (the
cost stays at S notices per origin per period, not N x S per ToR). A refresh leaves the
last slot to changes.

**Urgency**: a kept notice is this ToR's change, another ToR's notice sent on, or this
ToR's refresh, in that order of urgency. A TRIGGER sends the most urgent kept notice not
yet sent on its uplink in this slice (of one kind, the one sent on it longest ago), and a
notice that finds every slot taken takes the slot of a less urgent one: where TRIGGERs are
scarce (a software switch's generator), a change goes out before the refreshes and is not
lost to them. Sequence numbers are the fabric's slice number at which the notice
was kept (one more than the last when that is not newer), so the notices of a restarted
switch, whose registers start at zero, are newer than the ones it sent before.

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
#: the sending side's cells after them: sent, busy (not kept: no slot), avoided, refresh (kept
#: unchanged: the periodic refresh), replaced (a kept notice whose slot a more urgent one took)
SENDING = ("sent", "busy", "avoided", "refresh", "replaced")
#: the kinds of a kept notice, the more urgent the lower: sent first, and one takes the slot of
#: a less urgent one when every slot is taken
OWN, ON, REFRESH = 0, 1, 2
#: the slots a ToR keeps notices to send in (controller.p4gen.render.NOTICE_SLOTS)
SLOTS = 4
K_MOD = 1 << 32


def newer(a: int, b: int) -> bool:
    """Sequence number ``a`` comes after ``b`` (32 bits, wrapping)."""
    return 0 < (a - b) % K_MOD < (1 << 31)


def reached(k: int, mark: int) -> bool:
    """Slice number ``k`` is ``mark`` or after it (32 bits, wrapping)."""
    return (k - mark) % K_MOD < (1 << 31)


@dataclass
class Slot:
    origin: int
    seq: int
    slice: int
    down: int
    until: int                               # slice number from which the slot is free
    kind: int = OWN                          # OWN (this ToR's change), ON (another's sent on), REFRESH
    sent: dict[int, int] = field(default_factory=dict)   # uplink -> slice number last sent in


@dataclass
class Notices:
    """One ToR's notice state: ``tors`` N, ``slices`` S, ``uplinks`` d, its id ``me``,
    ``rate`` / ``burst`` (``[liveness] notice_rate``, ``notice_burst``; rate 0: off),
    ``refresh`` (``[liveness] notice_refresh``: cycles between two sends of a slice's marks,
    0: only changes)."""

    tors: int
    slices: int
    uplinks: int
    me: int
    rate: int = 8
    burst: int = 32
    refresh: int = 4
    seq: int = 0
    map: dict[tuple[int, int], int] = field(default_factory=dict)     # (origin, slice) -> down bits
    last: dict[tuple[int, int], int] = field(default_factory=dict)    # (origin, slice) -> seq applied
    tokens: int = 0
    fill: int = 0
    due: dict[int, int] = field(default_factory=dict)                  # slice -> slice number its refresh is due
    slots: list[Slot | None] = field(default_factory=lambda: [None] * SLOTS)
    counts: dict[str, int] = field(default_factory=lambda: {r: 0 for r in TAKEN + SENDING})

    # ---- keeping and sending ---------------------------------------------------------------
    def _keep(self, k: int, origin: int, seq: int, slice_id: int, down: int, kind: int,
              limit: int = SLOTS) -> bool:
        """Keep a notice of ``kind`` in the first free slot of the first ``limit``; none free:
        in the first slot of the least urgent kind less urgent than ``kind`` (``replaced``),
        else not at all (``busy``)."""
        free = next((i for i, s in enumerate(self.slots[:limit]) if s is None or reached(k, s.until)), None)
        if free is None:
            worst = kind
            for i, s in enumerate(self.slots[:limit]):
                if s.kind > worst:
                    free, worst = i, s.kind
            if free is not None:
                self.counts["replaced"] += 1
        if free is None:
            self.counts["busy"] += 1
            return False
        self.slots[free] = Slot(origin, seq, slice_id, down, (k + self.slices) % K_MOD, kind)
        return True

    def judged(self, k: int, slice_id: int, down: int, changed: bool) -> bool:
        """This ToR's evaluation at slice number ``k`` judged ``slice_id``, whose down bits
        are now ``down`` (``changed``: a mark set or cleared). A change, or the refresh due
        (every ``refresh`` cycles, the first judgment included), is its next notice; whether
        one was kept."""
        due = self.due.get(slice_id)
        refresh = self.refresh != 0 and (due is None or reached(k, due))
        if self.rate == 0 or not (changed or refresh):
            return False
        self.seq = k % K_MOD if self.seq == 0 or newer(k, self.seq) else (self.seq + 1) % K_MOD
        self.seq = self.seq or 1
        self.map[self.me, slice_id] = down
        self.last[self.me, slice_id] = self.seq
        kept = self._keep(k, self.me, self.seq, slice_id, down, OWN if changed else REFRESH,
                          SLOTS if changed else SLOTS - 1)
        if kept:
            if not changed:
                self.counts["refresh"] += 1
            self.due[slice_id] = (k + self.refresh * self.slices) % K_MOD
        return kept

    def marked(self, k: int, slice_id: int, down: int) -> None:
        """This ToR's evaluation at slice number ``k`` changed the marks of ``slice_id``,
        whose down bits are now ``down``: its next notice."""
        self.judged(k, slice_id, down, changed=True)

    def trigger(self, k: int, uplink: int, peer: int | None) -> tuple[int, int, int, int] | None:
        """A TRIGGER for ``uplink`` whose REQ is not due, at slice number ``k``, ``peer`` the
        circuit's (None: no circuit): the notice ``(origin, seq, slice, down)`` sent, if any.
        Of the kept notices not yet sent on ``uplink`` in this slice, the most urgent kind
        goes first (this ToR's change, another's sent on, a refresh), and of one kind the one
        sent on it longest ago (never sent first, the lower slot of two alike): where TRIGGERs
        are fewer than kept notices, the changes go before the refreshes and the notices of
        one kind take turns, rather than the first slot taking every spare TRIGGER."""
        if self.rate == 0 or peer is None:
            return None
        ready = [s for s in self.slots if s is not None and not reached(k, s.until) and s.sent.get(uplink) != k]
        if not ready:
            return None
        # max() keeps the first of equals: the lower slot
        pick = max(ready, key=lambda s: (-s.kind, K_MOD if uplink not in s.sent else (k - s.sent[uplink]) % K_MOD))
        pick.sent[uplink] = k
        self.counts["sent"] += 1
        return pick.origin, pick.seq, pick.slice, pick.down

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
        last = self.last.get((origin, slice_id), 0)     # 0: none taken yet (no sequence number is 0)
        if origin == self.me or (last != 0 and not newer(seq, last)):
            return "duplicate"
        self.last[origin, slice_id] = seq
        known = self.map.get((origin, slice_id), 0)
        self.map[origin, slice_id] = down
        if known != down:                     # sent on only when it told this ToR something new
            self._keep(k, origin, seq, slice_id, down, ON)
        return "applied"

    # ---- using -----------------------------------------------------------------------------
    def dead(self, tor: int, slice_id: int, uplink: int) -> bool:
        """The circuit of ``tor``'s ``uplink`` in ``slice_id`` is dead by the notices (its
        end's own)."""
        return bool(self.map.get((tor, slice_id), 0) >> uplink & 1)

    def other_end_marks(self, peer) -> set[tuple[int, int]]:
        """This ToR's circuits ``(slice, uplink)`` whose other end marked them down: the
        last notice of ``peer(slice, uplink)`` (the ToR the circuit leads to, None: none)
        for that slice has its ``uplink`` down. The lookups pass over them as over this
        ToR's own marks (a one-way failure: the peer does not hear this ToR)."""
        out = set()
        for s in range(self.slices):
            for u in range(self.uplinks):
                t = peer(s, u)
                if t is not None and t != self.me and self.dead(t, s, u):
                    out.add((s, u))
        return out

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
