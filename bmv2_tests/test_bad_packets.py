"""Malformed and unroutable packets on simple_switch_grpc: dropped, counted under the
right reason, never forwarded; the switch keeps forwarding good packets afterwards."""

from __future__ import annotations

import pytest
from fabric import ME, UPLINK_BASE, routed, set_slice, ssrr_options, tor_batch, udp, uro_entry, uro_routes
from scapy.layers.inet import IP




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


CASES = [
    ("truncated IPv4 options", _truncated_options, 0, "bad_ssrr"),
    ("SSRR pointer past the end", _ptr_past_end, UPLINK_BASE, "bad_ssrr"),
    ("SSRR hop names another ToR", _hop_names_other_tor, UPLINK_BASE, "bad_ssrr"),
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
    # still forwarding
    alt = uro_entry(3, 0).alternatives[0]
    good = udp(3, ident=77)
    if alt.wait:
        pytest.skip("route from slice 0 to ToR 3 waits; the liveness probe needs one that leaves now")
    dp.send(0, good)
    dp.expect(UPLINK_BASE + alt.uplink, routed(good))
