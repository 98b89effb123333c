"""The bmv2 ToR's departure counters (docs/clock.md "Where misaligned frames come from"):
``departures`` counts each data frame leaving on an uplink by the departing pass's kind and
the time from that pass's timestamp to the departure; ``departure_queue`` the part of it
in the egress queue. The test makes a wait in the egress queue: the uplink's top queue is
paced at 2 frames a second and three frames for the current slice are sent at once, so the
second and third wait there 0.5 s and 1 s; the first does not.
"""

from __future__ import annotations

from fabric import ME, UPLINK_BASE, routed, set_slice, tor_batch, udp, uro_entry, uro_routes

from controller.emulate import procs
from controller.emulate.config import DEFAULT_UPLINK_PPS

S = 4
PACED_PPS = 2


def test_a_wait_in_the_egress_queue_is_counted_as_such(tor):
    sw, client, dp, contract = tor
    client.write(tor_batch(contract, ME, uro_routes=uro_routes()))
    dst, t, a0 = next((d, s, uro_entry(d, s).alternatives[0]) for s in range(S) for d in range(1, 8)
                      if uro_entry(d, s).alternatives[0].wait == 0)
    top = (UPLINK_BASE + a0.uplink, contract["calendar"]["depart_priority"])
    procs.set_queue_rates(sw.thrift_port, {top: PACED_PPS}, "tor")
    try:
        set_slice(dp, t)
        pkts = [udp(dst, ident=700 + i) for i in range(3)]
        for p in pkts:
            dp.send(0, p)
        for p in pkts:
            dp.expect(UPLINK_BASE + a0.uplink, routed(p), timeout=10)
    finally:
        procs.set_queue_rates(sw.thrift_port, {top: DEFAULT_UPLINK_PPS}, "tor")
    dep = client.read_counters(contract, "departures")
    queued = client.read_counters(contract, "departure_queue")
    phase = client.read_counters(contract, "departure_phase")
    # three fresh frames (decided and sent on their first pass), counted once each
    assert sum(dep.values()) == sum(queued.values()) == sum(phase.values()) == 3
    assert sum(v for c, v in dep.items() if c.startswith("fresh_")) == 3
    # the two behind the first waited >= 0.5 s, and the wait was in the egress queue
    # (this profile's guard is 0: every wait of 2 ms or more is >= the guard)
    assert queued["fresh_ge_guard"] >= 2 and dep["fresh_ge_guard"] >= queued["fresh_ge_guard"]
