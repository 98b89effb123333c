"""Shared pieces of the bmv2 suite: the tiny network, its routes, packets, the clock.

The switch under test is ToR ``ME`` of the tiny profile (8 ToRs x 2 uplinks, round-robin
schedule, S = 4): host ports 0..1, uplink u on port 2 + u. Hosts follow the address plan
of :mod:`controller.agent.tor_tables`.
"""

from __future__ import annotations

import struct
import time
from functools import lru_cache

from scapy.layers.inet import IP, TCP, UDP, IPOption
from scapy.layers.l2 import Ether

from controller.tables import perhop, source as source_tables
from controller.tables import tor_batch as tb
from controller.tables.tor_batch import host_ip
from controller.routing import ucmp
from controller.routing.uro import UroParams, compute
from controller.schedule import round_robin

ME = 0
HOST_PORTS = 2
UPLINK_BASE = 2
TIMER_ETHERTYPE = 0x88B5
SSRR = 137


@lru_cache(maxsize=None)
def schedule():
    return round_robin(8, 2)


@lru_cache(maxsize=None)
def uro_routes():
    return compute(schedule(), UroParams(k=3, max_hops=4))


@lru_cache(maxsize=None)
def ucmp_routes():
    return ucmp.compute(schedule(), ucmp.UcmpParams(h_max=4))


def uro_entry(dst: int, slice_: int, tor: int = ME) -> perhop.Entry:
    for e in perhop.entries(uro_routes(), tor):
        if e.dst == dst and e.slice == slice_:
            return e
    raise KeyError((dst, slice_))


def ssrr_entries(tor: int = ME) -> list[source_tables.SourceEntry]:
    return list(source_tables.entries(ucmp_routes(), tor))


def tor_batch(contract, tor: int, **kw):
    """:func:`controller.tables.tor_batch.tor_batch` for a switch whose clock the test
    steps by hand: the active queue's byte clock is off (``bytes_per_us = 0``) unless
    the test sets it, since wall time between the test's timers means nothing."""
    kw.setdefault("bytes_per_us", 0)
    return tb.tor_batch(contract, tor, **kw)


# ---- packets ---------------------------------------------------------------------------------
def timer(slice_id: int, flags: int = 0) -> bytes:
    """A slice timer frame as a host would send it (the real ones come as PacketOut)."""
    return (Ether(dst="ff:ff:ff:ff:ff:ff", src="02:00:00:00:00:01", type=TIMER_ETHERTYPE)
            / struct.pack("!HH", slice_id, flags) / bytes(42)).build()


def send_timer(dp, slice_id: int, sync: bool = False, timeout: float = 15.0) -> str:
    """Send one timer over P4Runtime (the CPU port); wait until the switch has counted it.
    (15 s: a liveness bound, not a timing; a switch busy with held packets' recirculations
    on a machine at load 20 once needed more than 5 s in test_fuzz_tor.)

    Returns the event it was counted under: timer, timer_sync or timer_rejected."""
    before = dp.timer_counts()
    dp.send_timer(slice_id, sync)
    end = time.time() + timeout
    while True:
        now = dp.timer_counts()
        moved = [k for k in ("timer", "timer_sync", "timer_rejected") if now[k] != before[k]]
        if moved:
            return moved[0]
        if time.time() > end:
            raise AssertionError(f"the switch did not take the timer for slice {slice_id} in {timeout}s")
        time.sleep(0.01)


def set_slice(dp, slice_id: int, settle: float = 0.05, timeout: float = 15.0) -> None:
    """Set the switch's slice clock to ``slice_id`` (a SYNC timer: any step).

    Returns once the switch has applied the timer (its timer counter moved), then gives
    held packets ``settle`` seconds to take their pass."""
    got = send_timer(dp, slice_id, sync=True, timeout=timeout)
    assert got == "timer_sync", f"the sync timer for slice {slice_id} was counted as {got}"
    time.sleep(settle)


def udp(dst_tor: int, *, src_tor: int = ME, ttl: int = 64, dscp: int = 0, sport: int = 1234,
        dport: int = 5001, ident: int = 1, options=None, proto: str = "udp"):
    l4 = UDP(sport=sport, dport=dport) if proto == "udp" else TCP(sport=sport, dport=dport)
    ip = IP(src=host_ip(src_tor, 0), dst=host_ip(dst_tor, 0), ttl=ttl, tos=dscp << 2, id=ident)
    if options is not None:
        ip.options = options
    return Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01") / ip / l4 / (b"uro-test" * 4)


def routed(pkt, ttl_dec: int = 1, options=None, stamp: int | None = 0):
    """The frame as it leaves a ToR: TTL decremented, IPv4 checksum recomputed, L4 bytes
    untouched (scapy would recompute a UDP/TCP checksum against the SSRR option's last
    hop as the final destination, RFC 791; the switch leaves L4 alone). ``stamp``: the
    route generation in the IPv4 reserved flag bit (None: as sent)."""
    orig = Ether(pkt.build())
    p = pkt.copy()
    if stamp is not None:
        p[IP].flags = (int(p[IP].flags) & 3) | (stamp << 2)
    for l4 in (UDP, TCP):
        if l4 in p:
            p[l4].chksum = orig[l4].chksum
    p[IP].ttl -= ttl_dec
    if options is not None:
        p[IP].options = options
    del p[IP].chksum
    del p[IP].ihl
    del p[IP].len
    return Ether(p.build())


def hop_bytes(hops, widths=(16, 8, 8)) -> bytes:
    """SSRR hops (next ToR, uplink, send slice) packed like ssrr_hop_t (4 bytes each)."""
    wt, wu, ws = widths
    out = b""
    for t, u, s in hops:
        out += ((t << (wu + ws)) | (u << ws) | s).to_bytes(4, "big")
    return out


def ssrr_options(hops, ptr: int, length: int | None = None) -> list:
    """NOP + option 137 (type, length, pointer, hops) as scapy IP options."""
    body = hop_bytes(hops)
    ln = 3 + len(body) if length is None else length
    return [IPOption(b"\x01"), IPOption(bytes([SSRR, ln, ptr]) + body)]


def parse_ssrr(frame: bytes) -> tuple[int, list[tuple[int, int, int]]]:
    """(pointer, hops) of the SSRR option of a received frame."""
    ip = Ether(frame)[IP]
    raw = b"".join(bytes(o) for o in ip.options)
    i = raw.index(bytes([SSRR]))
    ln, ptr = raw[i + 1], raw[i + 2]
    body = raw[i + 3:i + ln]
    hops = []
    for k in range(0, len(body), 4):
        v = int.from_bytes(body[k:k + 4], "big")
        hops.append((v >> 16, (v >> 8) & 0xFF, v & 0xFF))
    return ptr, hops


def collect_frames(dp, start: int, slices: int, settle: float = 0.3) -> list[tuple[int, int, bytes]]:
    """Step the clock (SYNC timers) through one cycle from ``start``; every frame that
    leaves the switch as (slice it left in, port, bytes)."""
    got = []
    for step in range(slices):
        now = (start + step) % slices
        if step:
            set_slice(dp, now)
        while True:
            r = dp.dataplane.poll(timeout=settle)
            if not isinstance(r, dp.dataplane.PollSuccess):
                break
            got.append((now, r.port, bytes(r.packet)))
    return got
