"""UCMP §6.3 rerouting at an intermediate ToR.

A transit packet whose SSRR hop cannot be taken -- its calendar queue is Full, or its
send slice has passed by the time it arrives -- is re-routed from this ToR as a new
source: this ToR's own UCMP table picks a path for (dst, current slice, bucket) and
writes it over the old option (events ssrr_resourced / ssrr_missed), instead of dropping
a Full hop (all_full) or letting a late one wait a whole cycle.
"""

from __future__ import annotations

from fabric import (ME, UPLINK_BASE, collect_frames, parse_ssrr, routed, set_slice, ssrr_entries, ssrr_options,
                    tor_batch, ucmp_routes, udp)

S = 4
SRC = 4            # the packets' source ToR (elsewhere)


def push(client, contract, **kw):
    client.write(tor_batch(contract, ME, path_routes=ucmp_routes(),
                           source_routed=[t for t in range(8) if t != ME], **kw))


def own_path(dst: int, slice_: int):
    """This ToR's source route for (dst, slice) and bucket 0 (DSCP 0), if it has one path."""
    for e in ssrr_entries():
        if e.dst == dst and e.slice == slice_ and e.buckets[0] == 0 and len(e.paths) == 1:
            return e.paths[0]
    return None


def transit_packet(dst, hop, ident, prev_slice):
    """A packet that left ToR SRC for this ToR in ``prev_slice``; the hop at the pointer
    is ``hop``; padded to H = 4 hops (the largest option) so no re-sourced copy is bigger."""
    hops = [(ME, 1, prev_slice), hop, (dst, 0, hop[2]), (dst, 0, hop[2])]
    return udp(dst, src_tor=SRC, ident=ident, options=ssrr_options(hops, ptr=8)), hops


def test_full_hop_queue_is_resourced_from_this_tor(tor):
    sw, client, dp, contract = tor
    t = 1
    dst, path = next((d, own_path(d, t)) for d in range(1, 8) if own_path(d, t) is not None)
    u0, s0 = path[0][1], path[0][2]
    hop = (5, 1 - u0 if s0 == t else u0, t)           # leaves now, not in the new path's queue
    first, hops = transit_packet(dst, hop, 1, prev_slice=t)
    second, _ = transit_packet(dst, hop, 2, prev_slice=t)
    # the hop's queue takes exactly the first packet (63 bytes left: Full)
    push(client, contract, capacity_bytes=len(first.build()) + 63)
    set_slice(dp, t)
    dp.send(UPLINK_BASE + 1, first)
    dp.expect(UPLINK_BASE + hop[1], routed(first, options=ssrr_options(hops, ptr=12)))
    dp.send(UPLINK_BASE + 1, second)                  # its hop's queue is Full now
    got = collect_frames(dp, t, S)
    assert [(now, port) for now, port, _ in got] == [(s0, UPLINK_BASE + u0)], got
    assert parse_ssrr(got[0][2]) == (8, list(path))   # this ToR's own path, hop 0 taken
    assert got[0][2] == routed(second, options=ssrr_options(path, ptr=8)).build()
    drops = client.read_counters(contract, "drops")
    events = client.read_counters(contract, "events")
    assert sum(drops.values()) == 0, drops
    assert (events["ssrr_transit"], events["ssrr_resourced"], events["ssrr_written"]) == (2, 1, 1)


def test_late_transit_is_a_missed_slice_and_rerouted_at_once(tor):
    """The packet left the previous ToR in slice 0 to be sent on from here in slice 1,
    but arrives in slice 2: its slice is missed; this ToR re-routes it now instead of
    holding it for a whole cycle."""
    sw, client, dp, contract = tor
    push(client, contract)
    now = 2
    dst, path = next((d, own_path(d, now)) for d in range(1, 8) if own_path(d, now) is not None)
    pkt, _ = transit_packet(dst, (5, 0, 1), 3, prev_slice=0)
    set_slice(dp, now)
    dp.send(UPLINK_BASE + 1, pkt)
    got = collect_frames(dp, now, S)
    assert [(n, port) for n, port, _ in got] == [(path[0][2], UPLINK_BASE + path[0][1])], got
    assert got[0][2] == routed(pkt, options=ssrr_options(path, ptr=8)).build()
    events = client.read_counters(contract, "events")
    assert (events["ssrr_missed"], events["ssrr_written"]) == (1, 1)
    assert sum(client.read_counters(contract, "drops").values()) == 0


def test_transit_on_time_waits_for_its_slice_and_keeps_its_path(tor):
    """Not late (left the previous ToR in slice 0, arrives in slice 0, sent on in
    slice 2): held until slice 2, the path untouched but for the pointer."""
    sw, client, dp, contract = tor
    push(client, contract)
    pkt, hops = transit_packet(3, (5, 0, 2), 4, prev_slice=0)
    set_slice(dp, 0)
    dp.send(UPLINK_BASE + 1, pkt)
    got = collect_frames(dp, 0, S)
    assert [(n, port) for n, port, _ in got] == [(2, UPLINK_BASE + 0)]
    assert got[0][2] == routed(pkt, options=ssrr_options(hops, ptr=12)).build()
    events = client.read_counters(contract, "events")
    assert (events["ssrr_missed"], events["ssrr_resourced"], events["ssrr_written"]) == (0, 0, 0)


def test_held_transit_that_misses_its_slice_is_resourced(tor):
    sw, client, dp, contract = tor
    push(client, contract)
    pkt, _ = transit_packet(3, (5, 0, 1), 5, prev_slice=0)
    set_slice(dp, 0)
    dp.send(UPLINK_BASE + 1, pkt)                     # held for slice 1
    dp.expect_none()
    now = 2
    path = own_path(3, now)
    assert path is not None
    set_slice(dp, now)                                # slice 1 skipped: missed
    got = collect_frames(dp, now, S)
    assert [(n, port) for n, port, _ in got] == [(path[0][2], UPLINK_BASE + path[0][1])], got
    assert got[0][2] == routed(pkt, options=ssrr_options(path, ptr=8)).build()
    assert client.read_counters(contract, "events")["ssrr_missed"] == 1
