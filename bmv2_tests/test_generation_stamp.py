"""Per-packet consistency across ToRs on real simple_switch_grpc (docs/p4.md "Route
generations"; Reitblatt et al., SIGCOMM 2012): the source ToR stamps the route generation
into the IPv4 reserved flag bit, a transit ToR routes by the stamp (whatever generation
its own sources use), a stamp of a generation not live there is dropped and counted, and
the destination ToR clears the stamp before a host sees the packet."""

from __future__ import annotations

from scapy.layers.inet import IP
from scapy.layers.l2 import Ether

from fabric import ME, UPLINK_BASE, routed, set_slice, udp

from controller.tables import entries as ent
from controller.tables import tor_batch as tb

DST = 5


def config(contract, generation, live=None):
    return tb.config_entry(contract, ME, generation, (), bytes_per_us=0, live=live)


def stamped(pkt, g: int):
    p = pkt.copy()
    p[IP].flags = (int(p[IP].flags) & 3) | (g << 2)
    del p[IP].chksum
    return Ether(p.build())


def setup(client, contract, generation, live):
    """Generation 0 sends DST's packets on uplink 0, generation 1 on uplink 1."""
    b = tb.static_entries(contract, ME)
    b.entries += [ent.uro_entry(contract, 0, DST, [(0, 0)], 0), ent.uro_entry(contract, 0, DST, [(1, 0)], 1)]
    b.entries.append(config(contract, generation, live))
    client.write(b)


def test_a_source_stamps_and_a_transit_tor_routes_by_the_stamp(tor):
    sw, client, dp, contract = tor
    setup(client, contract, 1, live=[0, 1])        # mid-update: sources stamp 1, both generations live
    set_slice(dp, 0)
    host = udp(DST, ident=1)
    dp.send(0, host)                               # from a host: generation 1, stamped 1
    dp.expect(UPLINK_BASE + 1, routed(host, stamp=1))
    old = stamped(udp(DST, src_tor=2, ident=2), 0)
    dp.send(UPLINK_BASE, old)                      # stamped 0 at its source: routed by generation 0
    dp.expect(UPLINK_BASE + 0, routed(old, stamp=0))
    new = stamped(udp(DST, src_tor=2, ident=3), 1)
    dp.send(UPLINK_BASE + 1, new)
    dp.expect(UPLINK_BASE + 1, routed(new, stamp=1))
    ev = client.read_counters(contract, "events")
    assert ev["gen_other"] == 1                    # the packet a per-switch flip would have mixed
    assert sum(client.read_counters(contract, "drops").values()) == 0


def test_a_stamp_of_a_generation_not_live_is_dropped_and_counted(tor):
    sw, client, dp, contract = tor
    setup(client, contract, 1, live=[1])           # generation 0 retired here
    set_slice(dp, 0)
    dp.send(UPLINK_BASE, stamped(udp(DST, src_tor=2, ident=4), 0))
    dp.expect_none()
    assert {k: v for k, v in client.read_counters(contract, "drops").items() if v} == {"stale_gen": 1}
    # the same packet stamped 1 is routed by generation 1; one config write makes 0 live again
    dp.send(UPLINK_BASE, stamped(udp(DST, src_tor=2, ident=5), 1))
    dp.expect(UPLINK_BASE + 1, routed(stamped(udp(DST, src_tor=2, ident=5), 1), stamp=1))
    client.write([config(contract, 1, live=[0, 1])])
    p = stamped(udp(DST, src_tor=2, ident=6), 0)
    dp.send(UPLINK_BASE, p)
    dp.expect(UPLINK_BASE + 0, routed(p, stamp=0))


def test_the_destination_clears_the_stamp_before_a_host_sees_it(tor):
    sw, client, dp, contract = tor
    setup(client, contract, 1, live=[0, 1])
    set_slice(dp, 0)
    for g in (0, 1):
        p = stamped(udp(ME, src_tor=2, ident=10 + g), g)      # to this ToR's host 0
        dp.send(UPLINK_BASE, p)
        dp.expect(0, routed(p, ttl_dec=0, stamp=0))          # reserved bit 0, checksum valid
    local = udp(ME, src_tor=ME, ident=12)
    dp.send(1, local)                                          # host to host on one ToR
    dp.expect(0, routed(local, ttl_dec=0, stamp=0))
