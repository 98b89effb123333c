"""What the controller daemon relies on in the data plane (docs/p4.md, "Control-plane API"):

- an unconfigured switch (no config entry) forwards nothing but still keeps time;
- route generations: both generations' entries coexist (member/group ids do not
  collide), one MODIFY of the config entry flips which one packets use, and a packet
  uses the generation it arrived under for its whole stay (held packets too);
- failed uplinks: the config's down mask makes the one-shot lookup route around an
  uplink, re-sources SSRR hops on it, and re-routes packets held for it -- one write.
"""

from __future__ import annotations

from fabric import (ME, UPLINK_BASE, collect_frames, routed, schedule, send_timer, set_slice, ssrr_options, tor_batch,
                    ucmp_routes, udp)

from controller.schedule import opera
from controller.tables import entries as ent
from controller.tables import tor_batch as tb

S = 4
DST = 5


def config(contract, generation=0, down=(), **kw):
    kw.setdefault("bytes_per_us", 0)
    return tb.config_entry(contract, ME, generation, down, **kw)


def uro(contract, generation, table):
    """Hand-written per-hop entries: {(arrival slice, dst): [(uplink, departure slice)]}."""
    return [ent.uro_entry(contract, s, d, alts, generation) for (s, d), alts in table.items()]


def leaves(dp, start):
    return [(now, port) for now, port, _ in collect_frames(dp, start, S)]


def test_unconfigured_switch_forwards_nothing_but_keeps_time(tor):
    sw, client, dp, contract = tor
    b = tb.static_entries(contract, ME).extend(
        ent.Batch(entries=uro(contract, 0, {(0, DST): [(0, 0)], (2, DST): [(1, 2)]})))
    client.write(b)                                    # everything but the config entry
    assert send_timer(dp, 2, sync=True) == "timer_sync"   # time runs before configuration
    for i, port in enumerate((0, 1, UPLINK_BASE)):
        dp.send(port, udp(DST, ident=i))
    dp.expect_none()
    drops = client.read_counters(contract, "drops")
    assert {k: v for k, v in drops.items() if v} == {"unconfigured": 3}
    client.write([config(contract)])                   # one write: live, in slice 2
    pkt = udp(DST, ident=9)
    dp.send(0, pkt)
    dp.expect(UPLINK_BASE + 1, routed(pkt))
    # and back: the controller can take a switch out of service with one write
    client.write([ent.make_entry(contract, "config", {}, "unconfigured", is_default=True)])
    dp.send(0, udp(DST, ident=10))
    dp.expect_none()
    assert client.read_counters(contract, "drops")["unconfigured"] == 4


def test_one_write_flips_the_route_generation(tor):
    sw, client, dp, contract = tor
    b = tb.static_entries(contract, ME)
    b.entries += uro(contract, 0, {(0, DST): [(0, 0)]}) + uro(contract, 1, {(0, DST): [(1, 0)]})
    # both generations' source routes side by side: member and group ids must not collide
    for g in (0, 1):
        b.extend(tb.route_entries(contract, ME, path_routes=ucmp_routes(), source_routed=[3], generation=g))
    b.entries.append(config(contract, 0))
    client.write(b)
    assert len(client.read_table(contract["tables"]["ssrr_path"]["name"])) == \
        2 * len(tb.route_entries(contract, ME, path_routes=ucmp_routes(), source_routed=[3]).groups)
    set_slice(dp, 0)
    for i, (g, port) in enumerate([(0, 0), (1, 1), (0, 0), (1, 1)]):
        client.write([config(contract, g)])
        pkt = udp(DST, ident=20 + i)
        dp.send(0, pkt)
        dp.expect(UPLINK_BASE + port, routed(pkt, stamp=g))   # stamped with the generation it took
        sr = udp(3, ident=30 + i)                      # source-routed: from generation g's selector
        dp.send(0, sr)
        got = collect_frames(dp, 0, S)
        assert len(got) == 1 and got[0][1] in (UPLINK_BASE, UPLINK_BASE + 1)
        set_slice(dp, 0)
    assert sum(client.read_counters(contract, "drops").values()) == 0


def test_a_held_packet_keeps_the_generation_it_arrived_under(tor):
    """Generation 0 holds the packet for slice 2 on uplink 0; generation 1 would send it
    in slice 1 on uplink 1. Flipped while it is held, it still leaves by generation 0;
    a packet arriving after the flip goes by generation 1. When its slice is missed, the
    re-lookup uses generation 0 too."""
    sw, client, dp, contract = tor
    b = tb.static_entries(contract, ME)
    b.entries += uro(contract, 0, {(0, DST): [(0, 2)], (3, DST): [(0, 3)]})
    b.entries += uro(contract, 1, {(0, DST): [(1, 1)], (3, DST): [(1, 3)]})
    b.entries.append(config(contract, 0))
    client.write(b)
    set_slice(dp, 0)
    old = udp(DST, ident=40)
    dp.send(0, old)
    dp.expect_none()
    client.write([config(contract, 1)])
    new = udp(DST, ident=41)
    dp.send(0, new)
    assert leaves(dp, 0) == [(1, UPLINK_BASE + 1), (2, UPLINK_BASE + 0)]   # new by gen 1, old by gen 0
    # missed slice: held under generation 0 for slice 2, the clock jumps to 3
    client.write([config(contract, 0)])
    set_slice(dp, 0)
    again = udp(DST, ident=42)
    dp.send(0, again)
    dp.expect_none()
    client.write([config(contract, 1)])
    set_slice(dp, 3)                                   # re-looked-up in slice 3 by generation 0
    dp.expect(UPLINK_BASE + 0, routed(again))
    assert client.read_counters(contract, "events")["reroute_missed"] == 1


def test_down_uplink_is_routed_around_with_one_write(tor):
    sw, client, dp, contract = tor
    b = tb.static_entries(contract, ME)
    b.entries += uro(contract, 0, {(0, DST): [(0, 0), (1, 0)]})
    b.entries.append(config(contract, 0))
    client.write(b)
    set_slice(dp, 0)
    for i, (down, port) in enumerate([((), 0), ((0,), 1), ((), 0), ((0, 1), None)]):
        client.write([config(contract, 0, down)])
        pkt = udp(DST, ident=50 + i)
        dp.send(0, pkt)
        if port is None:
            dp.expect_none()
        else:
            dp.expect(UPLINK_BASE + port, routed(pkt))
    events = client.read_counters(contract, "events")
    assert (events["uplink_down"], events["reroute_spill"]) == (2, 1)
    assert client.read_counters(contract, "drops")["all_full"] == 1


def test_a_packet_held_for_an_uplink_that_fails_is_rerouted_at_once(tor):
    """Held for slice 2 on uplink 0; uplink 0 is marked down: on its next pass the packet
    is looked up again from the current slice (URO: a failure is like a missed slice)
    and takes the entry's next alternative, uplink 1 in slice 3."""
    sw, client, dp, contract = tor
    b = tb.static_entries(contract, ME)
    b.entries += uro(contract, 0, {(0, DST): [(0, 2), (1, 3)]})
    b.entries.append(config(contract, 0))
    client.write(b)
    set_slice(dp, 0)
    pkt = udp(DST, ident=60)
    dp.send(0, pkt)
    dp.expect_none()
    client.write([config(contract, 0, down=(0,))])
    assert leaves(dp, 0) == [(3, UPLINK_BASE + 1)]
    events = client.read_counters(contract, "events")
    assert (events["uplink_down"], events["reroute_spill"]) == (2, 1)   # the held pass, then the lookup
    assert sum(client.read_counters(contract, "drops").values()) == 0


def test_ssrr_hop_on_a_down_uplink_is_resourced(tor):
    sw, client, dp, contract = tor
    from fabric import ssrr_entries

    t = 1
    e = next(e for e in ssrr_entries() if e.slice == t and e.buckets[0] == 0 and len(e.paths) == 1
             and e.paths[0][0][1] == 1)                 # this ToR's own path leaves on uplink 1
    client.write(tor_batch(contract, ME, path_routes=ucmp_routes(), source_routed=[d for d in range(8) if d != ME],
                           down_uplinks=(0,)))
    hops = [(ME, 1, t), (6, 0, t), (e.dst, 1, t)]       # its hop is on the failed uplink 0
    pkt = udp(e.dst, src_tor=4, ident=70, options=ssrr_options(hops, ptr=8))
    set_slice(dp, t)
    dp.send(UPLINK_BASE + 1, pkt)
    got = collect_frames(dp, t, S)
    path = e.paths[0]
    assert [(now, port) for now, port, _ in got] == [(path[0][2], UPLINK_BASE + 1)]
    assert got[0][2] == routed(pkt, options=ssrr_options(path, ptr=8)).build()
    events = client.read_counters(contract, "events")
    assert (events["ssrr_resourced"], events["uplink_down"]) == (1, 1)


def test_ocs_unconfigured_then_one_write_flips_the_circuit_generation(ocs):
    from scapy.layers.l2 import Ether

    sw, client, dp, contract = ocs
    a, b = schedule(), opera(8, 2, seed=3)
    client.write(ent.circuit_entries(contract, a, 0) + ent.circuit_entries(contract, b, 1))
    set_slice(dp, 1)                                   # time runs before configuration
    frame = Ether(src="02:00:00:00:00:0a", dst="02:00:00:00:00:0b", type=0x9000) / bytes(50)
    dp.send(0, frame)
    dp.expect_none()
    assert client.read_counters(contract, "ocs_drops")["unconfigured"] == 1
    d = 2
    for g, sched in ((0, a), (1, b), (0, a)):
        client.write([tb.ocs_config_entry(contract, g)])
        for port in range(0, 16, 3):
            tor_, u = divmod(port, d)
            peer = int(sched.peer[1, tor_, u])
            dp.send(port, frame)
            if peer >= 0:
                dp.expect(peer * d + u, frame)
        dp.expect_none()
