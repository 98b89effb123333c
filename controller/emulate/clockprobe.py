"""How far a ToR's slice boundaries are from the OCS emulator's, measured from outside
(docs/clock.md "How the error is measured"): kernel-timestamped PROBEs through the
switches' pktgen ports.

A PROBE goes out of the generator's end of a switch's pktgen veth (``P q<i>``,
:mod:`controller.emulate.plan`) and the switch answers it out of the same port with a
PROBE_REPLY carrying its time when the probe arrived (``t2``) and left (``t3``). The
kernel stamps the probe's departure and the reply's arrival on the host
(``SO_TIMESTAMPING``, software stamps in the veth driver, CLOCK_REALTIME), so the switch's
clock minus the host's at the midpoint of the round trip is

    off = (t2 + t3) / 2 - (sent + received) / 2

give or take half the round trip minus the switch's own time (the host clock cancels
below). A PROBE to a ToR and one to the OCS emulator, back to back, give the ToR's
offset against the OCS, ``off(tor) - off(ocs)``: its slice-boundary error, since both
switches' boundaries are at ``k * L`` of their own network time. The same difference
between two probes of one switch is the method's floor (bmv2's timestamp resolution
of 1 us and its forwarding jitter, and the kernel's).

In timer mode (the PROBE_REPLY's TIMER flag) a switch's slice number counts the timers
it got, not network time: the error is then taken from the slice ids and phases,
within half a cycle.

Pure arithmetic (:func:`error_ns`) and the I/O (:class:`Prober`) are separate, so the
arithmetic is unit-tested without a fabric.
"""

from __future__ import annotations

import select
import socket
import struct
import time
from dataclasses import dataclass

from controller.clock.message import ETHERTYPE, Flag, Message, Op, Stamp, decode_frame, encode_frame
from controller.errors import UroError

SO_TIMESTAMPING = 37            # = SCM_TIMESTAMPING
SOF_TX_SOFTWARE = 1 << 1
SOF_RX_SOFTWARE = 1 << 3
SOF_SOFTWARE = 1 << 4
SOF_OPT_TSONLY = 1 << 11
MSG_ERRQUEUE = 0x2000
_TS = struct.Struct("qq")       # struct timespec (64-bit)


class ProbeError(UroError):
    pass


@dataclass(frozen=True)
class Sample:
    """One PROBE of one switch: its answer and the host's kernel stamps (ns, CLOCK_REALTIME)."""

    switch: str
    k: int                      # slice number of t2 (32 bits)
    phase_in: int               # t2's phase: when the probe arrived
    k_out: int                  # t3: when the reply left
    phase_out: int
    slice_id: int
    timer: bool                 # the switch runs the timer clock (k counts timers)
    stratum: int
    sent: int
    received: int

    @property
    def rtt(self) -> int:
        return self.received - self.sent


def _s32(x: int) -> int:
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x & 0x80000000 else x


def error_ns(a: Sample, b: Sample, slice_ns: int, n_slices: int) -> int:
    """Switch ``a``'s clock minus switch ``b``'s, each against the host at its own probe's
    midpoint (``a`` and ``b`` may be the same switch: the floor). Network time where both
    keep it (slice numbers compared as signed 32-bit numbers); in timer mode the slice ids
    of the replies (``k mod S`` at ``t3``), so the result is within half a cycle."""
    def rel(s: Sample, k_ref: int) -> int:
        # the switch's time halfway through the probe's stay, from the start of its slice k_ref
        return (_s32(s.k - k_ref) * slice_ns + s.phase_in + _s32(s.k_out - k_ref) * slice_ns + s.phase_out) // 2

    host = (a.sent + a.received) // 2 - (b.sent + b.received) // 2
    if a.timer or b.timer:
        ds = (a.slice_id - b.slice_id) % n_slices
        if ds > n_slices // 2:
            ds -= n_slices
        sw = ds * slice_ns + rel(a, a.k_out) - rel(b, b.k_out)
    else:
        sw = rel(a, b.k_out) - rel(b, b.k_out)
    return sw - host


def uncertainty_ns(a: Sample, b: Sample) -> int:
    """How far :func:`error_ns` of ``a`` and ``b`` may be from the truth: half of each
    probe's round trip (each midpoint is within it of the switch's stamps). A probe that
    waited in a busy switch or host has a long round trip and says little; the
    measurements keep those whose uncertainty is small (the least-delay filter of NTP)."""
    return (a.rtt + b.rtt) // 2


def _stamp(ancdata) -> int | None:
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPING and len(data) >= _TS.size:
            sec, nsec = _TS.unpack_from(data, 0)        # ts[0]: the software stamp
            if sec or nsec:
                return sec * 1_000_000_000 + nsec
    return None


class Prober:
    """PROBEs through the pktgen veths of the switches of a fabric's plan.

    ``ports``: switch name -> the generator's end of its pktgen link. Each socket receives
    only sync frames (EtherType 0x88B6)."""

    def __init__(self, ports: dict[str, str]):
        self.ethertype = ETHERTYPE
        self.socks: dict[str, socket.socket] = {}
        try:
            for name, ifname in ports.items():
                s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETHERTYPE))
                s.bind((ifname, ETHERTYPE))
                s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPING,
                             SOF_TX_SOFTWARE | SOF_RX_SOFTWARE | SOF_SOFTWARE | SOF_OPT_TSONLY)
                s.setblocking(False)
                self.socks[name] = s
        except OSError as e:
            self.close()
            raise ProbeError(f"cannot open the pktgen port {ifname} of {name}: {e.strerror or e}") from None
        self._nonce = int(time.monotonic_ns()) & 0xFFFFFFFF

    @classmethod
    def for_plan(cls, plan, names: list[str] | None = None) -> "Prober":
        names = names if names is not None else [s.name for s in plan.switches]
        return cls({n: plan.pktgen_link(n).b for n in names})

    def close(self) -> None:
        for s in self.socks.values():
            s.close()
        self.socks = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _drain(self, s: socket.socket) -> None:
        while True:
            try:
                s.recv(2048)
            except BlockingIOError:
                break
        while True:
            try:
                s.recvmsg(2048, 256, MSG_ERRQUEUE)
            except (BlockingIOError, OSError):
                break

    def probe(self, names: list[str], timeout: float = 1.0) -> dict[str, Sample]:
        """PROBE each switch of ``names``, back to back in that order; their samples (a
        switch that did not answer within ``timeout`` is left out)."""
        socks = {n: self.socks[n] for n in names}
        for s in socks.values():
            self._drain(s)
        nonces = {}
        for n, s in socks.items():
            self._nonce = (self._nonce + 1) & 0xFFFFFFFF
            nonces[n] = self._nonce
            # t1 carries a nonce the reply echoes: a late answer to an earlier probe is not this one's
            s.send(encode_frame(Message(Op.PROBE, src_tor=0xFFFF, t1=Stamp(self._nonce, 0))))
        sent: dict[str, int] = {}
        got: dict[str, tuple] = {}
        end = time.monotonic() + timeout
        while (len(sent) < len(socks) or len(got) < len(socks)) and time.monotonic() < end:
            r, _, _ = select.select(list(socks.values()), [], [], max(0.0, end - time.monotonic()))
            for n, s in socks.items():
                if n not in sent:
                    try:
                        _, anc, _, _ = s.recvmsg(2048, 256, MSG_ERRQUEUE)
                        ts = _stamp(anc)
                        if ts is not None:
                            sent[n] = ts
                    except (BlockingIOError, OSError):
                        pass
                if s in r and n not in got:
                    while True:
                        try:
                            data, anc, _, _ = s.recvmsg(2048, 256)
                        except BlockingIOError:
                            break
                        try:
                            m = decode_frame(data)
                        except UroError:
                            continue
                        if m.op == Op.PROBE_REPLY and m.t1.k == nonces[n]:
                            got[n] = (m, _stamp(anc))
                            break
        out = {}
        for n, (m, rx) in got.items():
            if n in sent and rx is not None:
                out[n] = Sample(n, m.t2.k, m.t2.phase, m.t3.k, m.t3.phase, m.slice, m.has(Flag.TIMER), m.stratum,
                                sent[n], rx)
        return out
