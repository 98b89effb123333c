"""Calendar-queue admission (URO §IV-C).

A packet is admitted to a calendar queue only if it fits in what is left of that
queue's slice: a future queue holds ``capacity_bytes``; the active queue holds what the
uplink can still send before the slice ends (``bytes_per_us`` x the time left). A queue
that cannot take a minimum frame more is Full; a packet that does not fit marks its
queue Full and takes the next alternative. Never more than the capacity is admitted.
"""

from __future__ import annotations

import pytest
from fabric import ME, UPLINK_BASE, collect_frames, routed, set_slice, tor_batch, udp, uro_entry, uro_routes
from scapy.packet import Raw

S = 4


def _case():
    """(dst, slice) whose first two alternatives leave in different future slices."""
    return next((d, s) for s in range(S) for d in range(1, 8)
                if len(uro_entry(d, s).alternatives) >= 2 and uro_entry(d, s).alternatives[0].wait >= 1
                and uro_entry(d, s).alternatives[1].wait > uro_entry(d, s).alternatives[0].wait)


@pytest.mark.parametrize("slack", [0, -1, 63], ids=["exactly-3", "one-byte-short", "63-bytes-over"])
def test_a_burst_fills_a_slice_exactly_and_never_past_it(tor, slack):
    """capacity = 3 packets + slack: three packets fit in a queue (two when one byte is
    missing), the rest spill to the next alternatives' queues, then all_full."""
    sw, client, dp, contract = tor
    dst, t = _case()
    alts = uro_entry(dst, t).alternatives
    pkts = [udp(dst, ident=500 + i) for i in range(7)]
    for p in pkts:
        p[Raw].load = bytes(300)
    size = len(pkts[0].build())
    client.write(tor_batch(contract, ME, uro_routes=uro_routes(), capacity_bytes=3 * size + slack))
    fit = 3 if slack >= 0 else 2
    set_slice(dp, t)
    for p in pkts:
        dp.send(0, p)
    got = collect_frames(dp, t, S)
    by_ident = {int.from_bytes(f[18:20], "big") - 500: (now, port) for now, port, f in got}
    # every alternative's queue takes `fit` packets, never one more; the first `fit`
    # packets are in the first queue (a packet that did not fit was recirculated to be
    # decided again, so later ones may overtake it into the next queues)
    from collections import Counter

    per_queue = Counter(by_ident.values())
    queues = [(a.dep_slice, UPLINK_BASE + a.uplink) for a in alts]
    n_sent = min(len(pkts), fit * len(alts))
    assert len(got) == n_sent
    assert per_queue == Counter({q: min(fit, n_sent - k * fit) for k, q in enumerate(queues) if n_sent > k * fit})
    assert {i for i, v in by_ident.items() if v == queues[0]} == set(range(fit))
    events = client.read_counters(contract, "events")
    drops = client.read_counters(contract, "drops")
    assert events["reroute_spill"] == n_sent - fit
    assert {k: v for k, v in drops.items() if v} == ({"all_full": len(pkts) - n_sent} if n_sent < len(pkts) else {})


def test_the_active_queue_holds_only_the_time_left_in_the_slice(tor):
    """With the byte clock on (bytes_per_us = capacity: one microsecond uses up a whole
    slice), a packet for the current slice arrives after the slice's bytes are spent:
    it takes its next alternative. With the byte clock off it leaves at once."""
    sw, client, dp, contract = tor
    dst, t = next((d, s) for s in range(S) for d in range(1, 8)
                  if len(uro_entry(d, s).alternatives) >= 2 and uro_entry(d, s).alternatives[0].wait == 0)
    a0, a1 = uro_entry(dst, t).alternatives[:2]
    cap = contract["profile"]["slice_capacity_bytes"]
    client.write(tor_batch(contract, ME, uro_routes=uro_routes(), bytes_per_us=0))
    set_slice(dp, t)
    pkt = udp(dst, ident=600)
    dp.send(0, pkt)
    dp.expect(UPLINK_BASE + a0.uplink, routed(pkt))      # clock off: the active queue takes it
    client.write([tor_batch(contract, ME, bytes_per_us=cap).entries[-1]])   # the config entry only
    set_slice(dp, t)                                     # a fresh slice, started just now
    late = udp(dst, ident=601)
    dp.send(0, late)
    got = collect_frames(dp, t, S)
    assert [(now, port) for now, port, _ in got] == [(a1.dep_slice, UPLINK_BASE + a1.uplink)]
    events = client.read_counters(contract, "events")
    assert events["reroute_spill"] == 1
