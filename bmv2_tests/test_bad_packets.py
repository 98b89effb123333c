"""Malformed, untrusted and unroutable packets on simple_switch_grpc: dropped, counted
under the right reason, never forwarded; the switch keeps forwarding good packets
afterwards: SSRR from a host, out-of-range fields, malformed IPv4 (IHL < 5, version != 4,
short total length, bad checksum, TTL)."""

from __future__ import annotations

import pytest
from fabric import ME, UPLINK_BASE, routed, set_slice, ssrr_options, tor_batch, udp, uro_entry, uro_routes
from scapy.layers.inet import IP, IPOption
from scapy.layers.l2 import Ether




def _truncated_options():
    p = udp(3, options=ssrr_options([(ME, 0, 0), (3, 1, 1)], ptr=8))
    return p.build()[: 14 + 20 + 6]              # IHL says 8 words, the frame ends inside the option


def _ptr_past_end():
    return udp(3, src_tor=4, options=ssrr_options([(ME, 0, 0), (3, 1, 1)], ptr=16))


def _hop_names_other_tor():
    return udp(3, src_tor=4, options=ssrr_options([(5, 0, 0), (3, 1, 1)], ptr=8))


def _unknown_destination():
    p = udp(3)
    p[IP].dst = "192.168.7.7"
    return p


def _ttl_one():
    return udp(3, ttl=1)


def _bad_option_length():
    good = bytearray(udp(3, src_tor=4, options=ssrr_options([(ME, 0, 0), (3, 1, 1)], ptr=8)).build())
    assert good[14 + 21] == 137
    good[14 + 22] = 9                            # option length 9: not 3 + 4 x hops
    return bytes(good)


def _ssrr_from(port_hops, ptr=8):
    return udp(3, src_tor=4, options=ssrr_options(port_hops, ptr=ptr))


def _raw_ip(pkt, **fields) -> bytes:
    """The frame with IPv4 header fields overwritten; the header checksum recomputed
    over the (possibly odd) header unless ``chksum`` is given."""
    b = bytearray(pkt.build())
    ip = 14
    if "version" in fields or "ihl" in fields:
        v = fields.get("version", b[ip] >> 4)
        h = fields.get("ihl", b[ip] & 0xF)
        b[ip] = (v << 4) | h
    if "total_len" in fields:
        b[ip + 2:ip + 4] = fields["total_len"].to_bytes(2, "big")
    if "ttl" in fields:
        b[ip + 8] = fields["ttl"]
    b[ip + 10:ip + 12] = b"\0\0"
    hlen = max(20, (b[ip] & 0xF) * 4)
    words = sum(int.from_bytes(b[ip + i:ip + i + 2], "big") for i in range(0, hlen, 2))
    while words >> 16:
        words = (words & 0xFFFF) + (words >> 16)
    csum = fields.get("chksum", ~words & 0xFFFF)
    b[ip + 10:ip + 12] = csum.to_bytes(2, "big")
    return bytes(b)


def _bad_checksum():
    good = Ether(udp(3).build())
    return _raw_ip(udp(3), chksum=good[IP].chksum ^ 0x0101)


def _router_alert():
    return udp(3, options=[IPOption(b"\x94\x04\x00\x00")])


CASES = [
    # item 2: hosts cannot source-route
    ("SSRR from a host port (transit form)", lambda: _ssrr_from([(ME, 0, 0), (3, 1, 1)]), 0, "bad_ssrr"),
    ("SSRR from a host port (source form)", lambda: _ssrr_from([(ME, 0, 0), (3, 1, 1)], ptr=4), 1, "bad_ssrr"),
    # item 3: every field range-checked before it indexes anything
    ("SSRR send slice = S", lambda: _ssrr_from([(ME, 0, 0), (3, 1, 4)]), UPLINK_BASE, "bad_ssrr"),
    ("SSRR send slice = 255", lambda: _ssrr_from([(ME, 0, 0), (3, 1, 255)]), UPLINK_BASE, "bad_ssrr"),
    ("SSRR uplink = d", lambda: _ssrr_from([(ME, 0, 0), (3, 2, 1)]), UPLINK_BASE, "bad_ssrr"),
    ("SSRR next ToR = N", lambda: _ssrr_from([(ME, 0, 0), (8, 1, 1)]), UPLINK_BASE, "bad_ssrr"),
    ("SSRR previous hop's slice = S", lambda: _ssrr_from([(ME, 0, 7), (3, 1, 1)]), UPLINK_BASE, "bad_ssrr"),
    ("IPv4 option other than SSRR", _router_alert, 0, "bad_ssrr"),
    # item 4: malformed IPv4 is never forwarded
    ("IHL 3", lambda: _raw_ip(udp(3), ihl=3), 0, "malformed"),
    ("IHL 4", lambda: _raw_ip(udp(3), ihl=4), 0, "malformed"),
    ("version 6", lambda: _raw_ip(udp(3), version=6), 0, "malformed"),
    ("total length 19", lambda: _raw_ip(udp(3), total_len=19), 0, "malformed"),
    ("bad header checksum", _bad_checksum, 0, "bad_checksum"),
    ("bad header checksum from an uplink", lambda: _raw_ip(udp(3), chksum=0x1234), UPLINK_BASE, "bad_checksum"),
    ("TTL 0 to a local host", lambda: _raw_ip(udp(ME), ttl=0), UPLINK_BASE, "ttl"),
    ("truncated IPv4 options", _truncated_options, 0, "bad_ssrr"),
    ("SSRR pointer past the end", _ptr_past_end, UPLINK_BASE, "bad_ssrr"),
    # a hop naming another ToR is re-sourced, not dropped (test_ssrr.py): with per-hop routes
    # only, this ToR has no source route for it
    ("SSRR hop names another ToR (no source route here)", _hop_names_other_tor, UPLINK_BASE, "no_route"),
    ("SSRR length not 3 + 4 x hops", _bad_option_length, UPLINK_BASE, "bad_ssrr"),
    ("unknown destination", _unknown_destination, 0, "no_route"),
    ("TTL 1", _ttl_one, 0, "ttl"),
]


@pytest.mark.parametrize("what,make,port,reason", CASES, ids=[c[0] for c in CASES])
def test_bad_packet_is_dropped_counted_and_switch_keeps_running(tor, what, make, port, reason):
    sw, client, dp, contract = tor
    client.write(tor_batch(contract, ME, uro_routes=uro_routes()))
    set_slice(dp, 0)
    before = client.read_counters(contract, "drops")
    dp.send(port, make())
    dp.expect_none(timeout=0.5)
    after = client.read_counters(contract, "drops")
    changed = {k: after[k] - before[k] for k in after if after[k] != before[k]}
    assert changed == {reason: 1}, f"{what}: counters moved {changed}"
    assert sw.alive()
    # still forwarding: a packet whose route from slice 0 leaves at once
    dst = next(d for d in range(1, 8) if uro_entry(d, 0).alternatives[0].wait == 0)
    alt = uro_entry(dst, 0).alternatives[0]
    good = udp(dst, ident=77)
    dp.send(0, good)
    dp.expect(UPLINK_BASE + alt.uplink, routed(good))
