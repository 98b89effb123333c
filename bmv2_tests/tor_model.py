"""A reference model of the generated ToR program's decision for one frame, for the
fuzzing test: what a frame arriving on a data port in a given slice becomes -- dropped
(and under which counter) or sent (in which slice, on which port, as which bytes).

It follows the program (templates/tor_v1model.p4.j2) step by step: the parser (where a
truncated or oversized header ends in a parser error), the edge checks in their order,
host ingress, SSRR transit with its late test and re-sourcing, source writes and the
URO lookup, with P4's bit-width arithmetic. Queues are never Full here (the fuzzing
test configures capacity 2^32 - 1 and the byte clock off) and no uplink is down.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

TIMER = 0x88B5
IPV4 = 0x0800


def csum16(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    s = sum(int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def with_checksum(hdr: bytearray) -> bytes:
    hdr[10:12] = b"\0\0"
    hdr[10:12] = csum16(bytes(hdr)).to_bytes(2, "big")
    return bytes(hdr)


@dataclass
class Tables:
    """What the fuzzing test wrote: ToR ``me`` of N ToRs, d uplinks, S slices, H hops."""

    me: int
    n: int
    d: int
    s: int
    h: int
    host_ports: int
    uplink_base: int
    #: (arrival slice, dst) -> [(uplink, departure slice)]
    uro: dict[tuple[int, int], list[tuple[int, int]]] = field(default_factory=dict)
    #: destinations that are source-routed
    source_routed: set[int] = field(default_factory=set)
    #: (dst, start slice) -> one path [(next ToR, uplink, send slice)] for every bucket
    paths: dict[tuple[int, int], list[tuple[int, int, int]]] = field(default_factory=dict)
    #: the config: generation stamped into host packets, generations live (bit g)
    gen: int = 0
    live: int = 1

    def host_dst(self, ip: int):
        """('local', port) | ('remote', tor) | None, as the LPM table says."""
        a = ipaddress.IPv4Address(ip).packed
        for h in range(self.host_ports):
            if ip == int(ipaddress.IPv4Address(f"10.{self.me // 256}.{self.me % 256}.{h + 1}")):
                return ("local", h)
        if a[0] == 10:
            t = a[1] * 256 + a[2]
            if t < self.n and t != self.me:
                return ("remote", t)
        return None


@dataclass(frozen=True)
class Sent:
    slice: int
    port: int
    frame: bytes


@dataclass(frozen=True)
class Dropped:
    reason: str


def decide(t: Tables, frame: bytes, in_port: int, cur: int):
    """Sent(...) or Dropped(reason) for a frame from data port ``in_port`` in slice ``cur``."""
    H, S = t.h, t.s
    # ---- parser ----------------------------------------------------------------------
    error = False
    eth_valid = ip_valid = ssrr_valid = False
    hops: list[tuple[int, int, int]] = []
    pos = 0
    etype = None
    ip = b""
    ssrr = b""
    if len(frame) < 14:
        error = True
    else:
        eth_valid = True
        etype = int.from_bytes(frame[12:14], "big")
        pos = 14
        if etype == TIMER:
            error = len(frame) < 18
        elif etype == IPV4:
            if len(frame) < pos + 20:
                error = True
            else:
                ip_valid = True
                ip = frame[pos:pos + 20]
                pos += 20
                ihl = ip[0] & 0xF
                go_l4 = False
                if ihl == 5:
                    go_l4 = True
                elif ihl >= 6:
                    if len(frame) < pos + 4:
                        error = True
                    else:
                        ssrr_valid = True
                        ssrr = frame[pos:pos + 4]
                        pos += 4
                        n = ((ssrr[2] - 3) & 0xFF) >> 2
                        if (ssrr[0], ssrr[1]) == (1, 137):
                            for i in range(n):
                                if i >= H or len(frame) < pos + 4:
                                    error = True
                                    break
                                v = int.from_bytes(frame[pos:pos + 4], "big")
                                hops.append((v >> 16, (v >> 8) & 0xFF, v & 0xFF))
                                pos += 4
                            go_l4 = not error
                if go_l4 and ip[9] in (6, 17) and len(frame) < pos + 4:
                    error = True                     # the L4 ports are cut off
    # ---- ingress ---------------------------------------------------------------------
    if eth_valid and etype == TIMER:
        return Dropped("bad_timer")
    if error:
        return Dropped("bad_ssrr" if ip_valid and (ip[0] & 0xF) > 5 else "malformed")
    if not ip_valid:
        return Dropped("not_ipv4")
    version, ihl = ip[0] >> 4, ip[0] & 0xF
    total = int.from_bytes(ip[2:4], "big")
    if version != 4 or ihl < 5 or total < ihl * 4:
        return Dropped("malformed")
    nhops = ((ssrr[2] - 3) & 0xFF) >> 2 if ssrr_valid else 0
    if ihl > 5:
        if not (ssrr[0] == 1 and ssrr[1] == 137 and ssrr[2] >= 7 and ((ssrr[2] - 3) & 0xFF) & 3 == 0
                and ihl == (6 + nhops) & 0xFF):
            return Dropped("bad_ssrr")
    header = frame[14:14 + ihl * 4]
    if csum16(header[:10] + header[12:]) != int.from_bytes(ip[10:12], "big"):
        return Dropped("bad_checksum")
    from_uplink = t.uplink_base <= in_port < t.uplink_base + t.d
    if ssrr_valid and not from_uplink:
        return Dropped("bad_ssrr")
    ttl = ip[8]
    if ttl == 0:
        return Dropped("ttl")
    # the route generation: an uplink's packet carries its source's stamp (IPv4 reserved
    # flag bit), which must be live here; a host's is stamped with the config's
    if from_uplink:
        gen = ip[6] >> 7
        if not t.live >> gen & 1:
            return Dropped("stale_gen")
    else:
        gen = t.gen
    ip = bytearray(ip)
    ip[6] = (ip[6] & 0x7F) | (gen << 7)
    where = t.host_dst(int.from_bytes(ip[16:20], "big"))
    if where is None:
        return Dropped("no_route")
    if where[0] == "local":
        if ssrr_valid:                               # the route ends here: the option is removed
            hdr = bytearray(ip)
            hdr[0] = 0x45
            hdr[2:4] = ((total - (ihl - 5) * 4) & 0xFFFF).to_bytes(2, "big")
            hdr[6] &= 0x7F                           # and the generation stamp
            return Sent(cur, where[1], frame[:14] + with_checksum(hdr) + frame[14 + ihl * 4:])
        hdr = bytearray(ip)
        hdr[6] &= 0x7F                               # hosts never see the generation stamp
        return Sent(cur, where[1], frame[:14] + with_checksum(hdr) + frame[14 + 20:])
    dst = where[1]
    if ttl <= 1:
        return Dropped("ttl")
    rest = frame[14 + ihl * 4:]                      # L4 and everything after the IPv4 header

    def out_frame(ip_hdr: bytearray, option: bytes) -> bytes:
        return frame[:14] + with_checksum(bytearray(bytes(ip_hdr) + option)) + rest

    base = bytearray(ip)
    base[8] = ttl - 1

    def source_write(old_ihl: int):
        path = t.paths.get((dst, cur))
        if path is None:
            return Dropped("no_route")
        n = len(path)
        hdr = bytearray(base)
        hdr[0] = 0x40 | (6 + n)
        hdr[2:4] = ((total - old_ihl * 4 + 24 + 4 * n) & 0xFFFF).to_bytes(2, "big")
        opt = bytes([1, 137, 3 + 4 * n, 8]) + b"".join(
            ((tor << 16) | (u << 8) | s).to_bytes(4, "big") for tor, u, s in path)
        _, u0, s0 = path[0]
        return Sent((cur + (s0 - cur) % S) % S, t.uplink_base + u0, out_frame(hdr, opt))

    if ssrr_valid:
        ptr = ssrr[3]
        if ptr < 8 or ptr & 3:
            return Dropped("bad_ssrr")
        idx = ((ptr >> 2) - 1) & 0xFF
        if idx > nhops:
            return Dropped("bad_ssrr")
        if idx == nhops:
            return source_write(ihl)                 # its last hop went astray: re-sourced here
        nxt, up, sl = hops[idx]
        prev_tor, _, prev_sl = hops[idx - 1]
        if up >= t.d or sl >= S or nxt >= t.n or prev_sl >= S:
            return Dropped("bad_ssrr")
        if prev_tor != t.me:
            return source_write(ihl)                 # delivered to a ToR its route does not name
        waited = (cur - prev_sl) % S
        if S >= 3 and waited == S - 1:
            waited = 0                               # the previous ToR is a slice ahead: not late
        if waited > (sl - prev_sl) % S:
            return source_write(ihl)                 # late: re-sourced from here
        opt = bytearray(frame[14 + 20:14 + ihl * 4])
        opt[3] = (ptr + 4) & 0xFF
        return Sent((cur + (sl - cur) % S) % S, t.uplink_base + up, out_frame(base, bytes(opt)))
    if dst in t.source_routed:
        return source_write(ihl)
    alts = t.uro.get((cur, dst))
    if not alts:
        return Dropped("no_route")
    for up, sl in alts:
        if up < t.d and sl < S:
            return Sent((cur + (sl - cur) % S) % S, t.uplink_base + up, out_frame(base, b""))
    return Dropped("all_full")
