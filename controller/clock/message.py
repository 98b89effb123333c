"""The sync message and network time (docs/clock.md "Network time", "Messages").

Network time ``T`` is a count of nanoseconds; slice ``k`` (the *slice number*, 32 bits,
wrapping) covers ``[k * L, (k + 1) * L)``. On the wire and in the data plane a time is
the pair :class:`Stamp` ``(k, phase)``, ``T = k * L + phase``, so no switch divides.

A sync message is an Ethernet frame (EtherType :data:`ETHERTYPE`) carrying one 52-byte
header, big-endian, laid out by :data:`FIELDS` (the P4 programs declare the same fields,
the pipeline contract lists them from here)::

    frame = encode_frame(Message(Op.PROBE, src_tor=0xFFFF, t1=Stamp(7, 0)))
    msg = decode_frame(frame)

Offset and path delay of an exchange (DPTP's four timestamps) are :func:`offset` and
:func:`path_delay`, with the data plane's integer arithmetic (a signed 32-bit slice
difference times L, halved by an arithmetic shift).
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass, field, fields, replace

from controller.errors import UroError

#: IEEE 802 local experimental EtherType 2 (timers use experimental 1, 0x88B5)
ETHERTYPE = 0x88B6
#: the header after Ethernet; frames are 14 + 52 = 66 bytes
HEADER_BYTES = 52
FRAME_BYTES = 14 + HEADER_BYTES

#: ``src_tor``/``dst_tor`` of the reference clock (the optical controller; the OCS emulator)
REF_TOR = 0xFFFF
#: ``dst_tor`` of a REQ whose sender does not know its peer (an unsynchronized ToR, BOOT)
ANY_TOR = 0xFFFE
#: the largest ToR id a message can name (0xFFFE and 0xFFFF are taken)
MAX_TOR = 0xFFFD
#: stratum of an unsynchronized clock
UNSYNCED = 255
#: 32-bit slice numbers
K_MOD = 1 << 32


class Op(enum.IntEnum):
    """``op``: what the message is (8..15 reserved for liveness)."""

    REQ = 1          # requester -> responder, over the circuit of this slice
    RESP = 2         # responder -> requester, the same way back
    TRIGGER = 3      # packet generator -> a ToR: start an exchange on ``uplink``
    PROBE = 4        # a reader (daemon, bench) -> a switch: what time is it
    PROBE_REPLY = 5  # the switch's answer
    SEED = 6         # the controller -> a switch (CPU port): set your clock to ``t3``
    NOTICE = 7       # a ToR -> its circuit's peer: circuits marked down/up (docs/liveness.md "Notices")


class Flag(enum.IntFlag):
    """``flags`` bits."""

    REF = 1          # to/from the reference clock (a lead's exchange; a SEED of the reference)
    BOOT = 2         # the sender is unsynchronized
    TIMER = 4        # PROBE_REPLY: the clock runs in timer mode (k counts timers, not network time)


#: the header, in order: (field, bits); ``t1``..``t3`` are each ``<t>_k:32`` + ``<t>_phase:32``
FIELDS: tuple[tuple[str, int], ...] = (
    ("op", 8), ("flags", 8), ("src_tor", 16), ("dst_tor", 16), ("uplink", 8), ("stratum", 8),
    ("term", 16), ("lead", 16), ("lead_k", 32),
    ("t1_k", 32), ("t1_phase", 32), ("t2_k", 32), ("t2_phase", 32), ("t3_k", 32), ("t3_phase", 32),
    ("slice", 16), ("reserved", 16), ("aux", 64),
)
_FMT = "!BBHHBBHHI" + "II" * 3 + "HHQ"
assert struct.calcsize(_FMT) == HEADER_BYTES == sum(b for _, b in FIELDS) // 8

#: Ethernet addresses of frames uro's tools send (locally administered; switches ignore them)
SRC_MAC = bytes.fromhex("020000000002")
BROADCAST = b"\xff" * 6


class MessageError(UroError):
    """A frame or field is not a valid sync message; the message names the field."""


@dataclass(frozen=True, order=True)
class Stamp:
    """A time as the data plane keeps it: slice number ``k`` (32 bits, wrapping) and
    ``phase`` ns into that slice (32 bits)."""

    k: int = 0
    phase: int = 0

    def __post_init__(self) -> None:
        for name in ("k", "phase"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < K_MOD:
                raise MessageError(f"stamp {name} = {v!r} does not fit 32 bits")

    def ns(self, slice_ns: int) -> int:
        """``T = k * L + phase`` (the slice number taken as it is, not unwrapped)."""
        return self.k * slice_ns + self.phase

    @classmethod
    def of_ns(cls, t_ns: int, slice_ns: int) -> "Stamp":
        """The stamp of network time ``t_ns`` (k wraps at 2^32)."""
        k, phase = divmod(int(t_ns), slice_ns)
        return cls(k % K_MOD, phase)

    def word(self) -> int:
        """The 64-bit register word ``k << 32 | phase``."""
        return (self.k << 32) | self.phase

    @classmethod
    def of_word(cls, w: int) -> "Stamp":
        return cls((w >> 32) & 0xFFFFFFFF, w & 0xFFFFFFFF)


def s32(x: int) -> int:
    """``x`` as a signed 32-bit number (two's complement)."""
    x &= 0xFFFFFFFF
    return x - K_MOD if x & 0x80000000 else x


def s64(x: int) -> int:
    """``x`` as a signed 64-bit number (two's complement)."""
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >> 63 else x


def diff(a: Stamp, b: Stamp, slice_ns: int) -> int:
    """``D(a, b) = (a.k - b.k) * L + (a.phase - b.phase)``, the slice difference taken as a
    signed 32-bit number (so it is right across the wrap of k), in ns. Exact in the data
    plane's signed 64 bits: |k difference| < 2^31 and L < 2^32."""
    return s32(a.k - b.k) * slice_ns + (a.phase - b.phase)


def offset(t1: Stamp, t2: Stamp, t3: Stamp, t4: Stamp, slice_ns: int, fwd: int = 0, back: int = 0) -> int:
    """theta = (D(t2, t1) - fwd + D(t3, t4) + back) / 2: responder minus requester (> 0:
    the requester is behind), halved by an arithmetic shift (rounds towards minus infinity)
    as the P4 does. ``fwd`` / ``back``: the residence the circuit's switch added to the REQ
    / the RESP (:func:`residence`), taken out of each way's delay."""
    return (diff(t2, t1, slice_ns) - fwd + diff(t3, t4, slice_ns) + back) >> 1


def path_delay(t1: Stamp, t2: Stamp, t3: Stamp, t4: Stamp, slice_ns: int, fwd: int = 0, back: int = 0) -> int:
    """delta = (D(t4, t1) - D(t3, t2) - fwd - back) / 2: the one-way delay, assumed
    symmetric (the round trip minus the responder's turnaround and the circuit's residence
    both ways, halved by an arithmetic shift)."""
    return (diff(t4, t1, slice_ns) - diff(t3, t2, slice_ns) - fwd - back) >> 1


def residence(aux: int) -> tuple[int, int]:
    """``(fwd, back)`` of a REQ's or RESP's ``aux``: the ns the circuit's switch held the
    REQ (upper 32 bits) and the RESP (lower 32 bits). A real OCS is a passive light path and
    adds none; the OCS emulator, a software switch that queues, adds its own as it forwards
    them, as a PTP transparent clock adds its residence time to a message's correction
    (IEEE 1588 section 11.5), so that its queueing, which differs between the two ways, is
    not taken for an offset."""
    return (aux >> 32) & 0xFFFFFFFF, aux & 0xFFFFFFFF


def add_residence(m: "Message", ns: int) -> "Message":
    """``m`` as the OCS emulator forwards it after holding it ``ns``: a REQ's residence in
    the upper half of ``aux``, a RESP's in the lower (each saturating at 2^32 - 1); any other
    message, and one of the reference (REF), unchanged."""
    if m.op not in (Op.REQ, Op.RESP) or m.flags & Flag.REF:
        return m
    fwd, back = residence(m.aux)
    ns = max(0, min(int(ns), 0xFFFFFFFF))
    if m.op == Op.REQ:
        fwd = min(fwd + ns, 0xFFFFFFFF)
    else:
        back = min(back + ns, 0xFFFFFFFF)
    return replace(m, aux=(fwd << 32) | back)


@dataclass(frozen=True)
class Message:
    """One sync message (docs/clock.md, "Messages"): every field as an unsigned integer of
    its width; ``t1``..``t3`` as stamps."""

    op: int
    flags: int = 0
    src_tor: int = 0
    dst_tor: int = 0
    uplink: int = 0
    stratum: int = UNSYNCED
    term: int = 0
    lead: int = 0
    lead_k: int = 0
    t1: Stamp = field(default_factory=Stamp)
    t2: Stamp = field(default_factory=Stamp)
    t3: Stamp = field(default_factory=Stamp)
    slice: int = 0
    reserved: int = 0
    aux: int = 0

    def __post_init__(self) -> None:
        for name, bits in _INT_FIELDS:
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < (1 << bits):
                raise MessageError(f"message {name} = {v!r} does not fit {bits} bits")
        for name in ("t1", "t2", "t3"):
            v = getattr(self, name)
            if not isinstance(v, Stamp):
                raise MessageError(f"message {name} must be a Stamp, got {v!r}")

    @property
    def op_name(self) -> str:
        try:
            return Op(self.op).name
        except ValueError:
            return f"op {self.op}"

    def has(self, flag: Flag) -> bool:
        return bool(self.flags & flag)


#: the integer fields of :class:`Message` and their widths (the stamps are checked by Stamp)
_INT_FIELDS = tuple((f.name, dict(FIELDS)[f.name]) for f in fields(Message) if f.name not in ("t1", "t2", "t3"))


def encode(m: Message) -> bytes:
    """The 52-byte header of ``m``."""
    return struct.pack(_FMT, m.op, m.flags, m.src_tor, m.dst_tor, m.uplink, m.stratum, m.term, m.lead,
                       m.lead_k, m.t1.k, m.t1.phase, m.t2.k, m.t2.phase, m.t3.k, m.t3.phase,
                       m.slice, m.reserved, m.aux)


def decode(data: bytes) -> Message:
    """The message in the first 52 bytes of ``data`` (any ``op`` value: what a switch does
    with an unknown op is its business); fewer bytes: :class:`MessageError`."""
    if len(data) < HEADER_BYTES:
        raise MessageError(f"sync header truncated: {len(data)} of {HEADER_BYTES} bytes")
    (op, flags, src, dst, up, stratum, term, lead, lead_k, k1, p1, k2, p2, k3, p3, sl, res,
     aux) = struct.unpack_from(_FMT, data)
    return Message(op, flags, src, dst, up, stratum, term, lead, lead_k, Stamp(k1, p1), Stamp(k2, p2),
                   Stamp(k3, p3), sl, res, aux)


def encode_frame(m: Message, dst: bytes = BROADCAST, src: bytes = SRC_MAC) -> bytes:
    """``m`` as a whole Ethernet frame (66 bytes)."""
    if len(dst) != 6 or len(src) != 6:
        raise MessageError(f"MAC addresses are 6 bytes, got {len(dst)} and {len(src)}")
    return dst + src + ETHERTYPE.to_bytes(2, "big") + encode(m)


def decode_frame(frame: bytes) -> Message:
    """The message of an Ethernet frame; another EtherType or a short frame:
    :class:`MessageError` naming it."""
    if len(frame) < 14:
        raise MessageError(f"frame of {len(frame)} bytes has no Ethernet header")
    et = int.from_bytes(frame[12:14], "big")
    if et != ETHERTYPE:
        raise MessageError(f"EtherType 0x{et:04X} is not a sync message (0x{ETHERTYPE:04X})")
    return decode(frame[14:])


def seed(t_ns: int, slice_ns: int, slices: int, *, ref: bool = False, src_tor: int = REF_TOR) -> Message:
    """The SEED that sets a switch's clock to network time ``t_ns`` on arrival (the sender
    adds the one-way delay it measured): ``t3 = (k, phase)``, ``slice = k mod S``; REF: the
    switch is the reference (stratum 0), else it starts unsynchronized."""
    t3 = Stamp.of_ns(t_ns, slice_ns)
    return Message(Op.SEED, int(Flag.REF) if ref else 0, src_tor=src_tor, dst_tor=ANY_TOR, t3=t3,
                   slice=(t_ns // slice_ns) % slices)


def probe(cookie: int = 0, *, src_tor: int = REF_TOR, uplink: int = 0) -> Message:
    """A PROBE; ``cookie`` (64 bits) comes back in the reply's ``t1`` (as k:32, phase:32)."""
    return Message(Op.PROBE, src_tor=src_tor, dst_tor=ANY_TOR, uplink=uplink, t1=Stamp.of_word(cookie))


def notice(origin: int, seq: int, slice_id: int, down: int, *, src_tor: int, dst_tor: int,
           uplink: int = 0) -> Message:
    """A NOTICE (docs/liveness.md "Notices"): ToR ``origin``'s circuits of slice
    ``slice_id``, bit u of ``down`` set for its uplink u marked down, the ``seq``-th notice
    ``origin`` sent; carried over the circuit of ``src_tor``'s ``uplink`` to ``dst_tor``
    (the peer the sender's schedule names). On the wire: ``t1 = (origin, seq)``, ``t2 =
    (slice, down)``."""
    return Message(Op.NOTICE, src_tor=src_tor, dst_tor=dst_tor, uplink=uplink,
                   t1=Stamp(origin, seq), t2=Stamp(slice_id, down))


def notice_fields(m: Message) -> tuple[int, int, int, int]:
    """``(origin, seq, slice, down)`` of a NOTICE."""
    if m.op != Op.NOTICE:
        raise MessageError(f"not a NOTICE: {m.op_name}")
    return m.t1.k, m.t1.phase, m.t2.k, m.t2.phase
