"""A dead ToR in one write per neighbour (FRANCIS §4.3, URO §IV-C) on real
simple_switch_grpc: the config's per-(slice, uplink) mask marks the departures whose
circuit leads to the dead ToR; the one-shot lookup passes over them (the next
alternative is taken at once), an SSRR hop on one is re-sourced, and a packet held for
one is looked up again when its slice comes -- while the same uplink in other slices
keeps forwarding (a per-uplink mask would have stopped it in every slice)."""

from __future__ import annotations

from fabric import (ME, UPLINK_BASE, collect_frames, routed, set_slice, ssrr_options, tor_batch, ucmp_routes, udp)

from controller.tables import entries as ent
from controller.tables import tor_batch as tb

S = 4
DST = 5


def config(contract, dead=(), **kw):
    return tb.config_entry(contract, ME, 0, (), bytes_per_us=0, dead_slots=dead, **kw)


def test_one_shot_alternatives_pass_over_a_dead_slot_only(tor):
    sw, client, dp, contract = tor
    b = tb.static_entries(contract, ME)
    b.entries += [ent.uro_entry(contract, 0, DST, [(0, 0), (1, 0)]), ent.uro_entry(contract, 1, DST, [(0, 1)])]
    b.entries.append(config(contract))
    client.write(b)
    set_slice(dp, 0)
    client.write([config(contract, dead=[(0, 0)])])     # uplink 0 leads to the dead ToR in slice 0 only
    pkt = udp(DST, ident=1)
    dp.send(0, pkt)
    dp.expect(UPLINK_BASE + 1, routed(pkt))              # the next alternative, at once
    set_slice(dp, 1)
    pkt = udp(DST, ident=2)
    dp.send(0, pkt)
    dp.expect(UPLINK_BASE + 0, routed(pkt))              # uplink 0 in slice 1 still forwards
    ev = client.read_counters(contract, "events")
    assert (ev["uplink_down"], ev["reroute_spill"]) == (1, 1)
    assert sum(client.read_counters(contract, "drops").values()) == 0


def test_a_packet_held_for_a_dead_slot_is_looked_up_again(tor):
    sw, client, dp, contract = tor
    b = tb.static_entries(contract, ME)
    b.entries += [ent.uro_entry(contract, 0, DST, [(0, 2)]), ent.uro_entry(contract, 2, DST, [(1, 3)])]
    b.entries.append(config(contract))
    client.write(b)
    set_slice(dp, 0)
    dp.send(0, udp(DST, ident=3))                        # held for uplink 0 in slice 2
    dp.expect_none()
    client.write([config(contract, dead=[(2, 0)])])     # its circuit in slice 2 now leads to a dead ToR
    got = collect_frames(dp, 0, S)
    assert [(now, port) for now, port, _ in got] == [(3, UPLINK_BASE + 1)]   # re-looked-up in slice 2
    assert client.read_counters(contract, "events")["uplink_down"] >= 1


def test_an_ssrr_hop_on_a_dead_slot_is_resourced(tor):
    sw, client, dp, contract = tor
    from fabric import ssrr_entries

    t = 1
    e = next(e for e in ssrr_entries() if e.slice == t and e.buckets[0] == 0 and len(e.paths) == 1
             and e.paths[0][0][1] == 1)
    b = tor_batch(contract, ME, path_routes=ucmp_routes(), source_routed=[d for d in range(8) if d != ME])
    b.entries = [x for x in b.entries if not (x.is_default and x.table.endswith("config"))]
    b.entries.append(config(contract, dead=[(t, 0)]))
    client.write(b)
    hops = [(ME, 1, t), (6, 0, t), (e.dst, 1, t)]       # its hop leaves on uplink 0 in slice t: dead
    pkt = udp(e.dst, src_tor=4, ident=70, options=ssrr_options(hops, ptr=8))
    set_slice(dp, t)
    dp.send(UPLINK_BASE + 1, pkt)
    got = collect_frames(dp, t, S)
    path = e.paths[0]
    assert [(now, port) for now, port, _ in got] == [(path[0][2], UPLINK_BASE + 1)]
    assert got[0][2] == routed(pkt, options=ssrr_options(path, ptr=8)).build()
    assert client.read_counters(contract, "events")["ssrr_resourced"] == 1
