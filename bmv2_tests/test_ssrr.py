"""UCMP source routing with the IPv4 SSRR option (UCMP §6) on simple_switch_grpc:
written at the source with the group's hops, DSCP buckets, tied paths spread by the
5-tuple, pointer advanced at an intermediate ToR, delivered at the destination."""

from __future__ import annotations

from collections import defaultdict

from fabric import (ME, UPLINK_BASE, collect_frames, parse_ssrr, routed, set_slice, ssrr_entries, ssrr_options,
                    tor_batch, udp, ucmp_routes)
from scapy.layers.inet import IP
from scapy.layers.l2 import Ether



S = 4


def push(client, contract, me: int = ME):
    client.write(tor_batch(contract, me, path_routes=ucmp_routes(),
                           source_routed=[t for t in range(8) if t != me]))


def rank(now: int, slice_: int) -> int:
    return (slice_ - now) % S


def collect(dp, start: int, ports=(UPLINK_BASE, UPLINK_BASE + 1)) -> list[tuple[int, int, bytes]]:
    """Step the clock through one cycle from ``start``; every frame that leaves, as (slice
    it left in, port, bytes): only uplinks (``ports``) may send."""
    got = collect_frames(dp, start, S)
    assert all(port in ports for _, port, _ in got), f"frames left on ports {[p for _, p, _ in got]}"
    return got


def test_source_writes_the_path_and_leaves_on_hop0_in_its_slice(tor):
    sw, client, dp, contract = tor
    push(client, contract)
    seen_multi = False
    cases = [e for e in ssrr_entries() if len(e.paths) == 1][:6]
    assert cases
    for i, e in enumerate(cases):
        path = e.paths[0]
        seen_multi |= len(path) > 1
        set_slice(dp, e.slice)
        pkt = udp(e.dst, dscp=e.buckets[0], ident=i + 1)
        dp.send(0, pkt)
        wait = rank(e.slice, path[0][2])
        for step in range(1, wait + 1):
            dp.expect_none()
            set_slice(dp, (e.slice + step) % S)
        exp = routed(pkt, options=ssrr_options(path, ptr=8))   # hop 0 taken: pointer at hop 1
        frame = dp.expect(UPLINK_BASE + path[0][1], exp)
        assert parse_ssrr(frame) == (8, list(path))
        assert Ether(frame)[IP].ihl == 6 + len(path)
    assert seen_multi, "the cases should include a multi-hop path"
    drops = client.read_counters(contract, "drops")
    assert sum(drops.values()) == 0
    assert client.read_counters(contract, "events")["ssrr_written"] == len(cases)


def test_dscp_buckets_pick_different_paths(tor):
    sw, client, dp, contract = tor
    push(client, contract)
    by_key = defaultdict(list)
    for e in ssrr_entries():
        if len(e.paths) == 1:
            by_key[(e.dst, e.slice)].append(e)
    dst, t = next(k for k, v in by_key.items() if len({x.paths for x in v}) >= 2)
    entries = by_key[(dst, t)]
    for i, e in enumerate(entries):
        set_slice(dp, t)
        dp.send(0, udp(dst, dscp=e.buckets[1], ident=50 + i))
        got = collect(dp, t)
        assert len(got) == 1
        now, port, frame = got[0]
        path = e.paths[0]
        assert (port, now) == (UPLINK_BASE + path[0][1], path[0][2])
        assert parse_ssrr(frame)[1] == list(path)
        set_slice(dp, t)


def test_tied_paths_are_spread_by_five_tuple_and_sticky(tor):
    """Run as ToR 3, whose UCMP groups hold tied paths (ToR 0's do not on this schedule).
    32 flows (source ports 1000-1031), and two of them again, sent in one slice and
    collected over one cycle: each packet leaves once, on one of the tied paths; the flows
    take two paths or more; a flow sent twice takes the same path both times."""
    sw, client, dp, contract = tor
    me = 3
    push(client, contract, me)
    e = max(ssrr_entries(me), key=lambda x: len(x.paths))
    assert len(e.paths) >= 2
    sends = [*range(1000, 1032), 1000, 1007]            # the last two: the same 5-tuples again
    set_slice(dp, e.slice)
    for i, sport in enumerate(sends):
        dp.send(0, udp(e.dst, src_tor=me, dscp=e.buckets[0], sport=sport, ident=IDENT + i))
    paths = _paths_by_ident(collect(dp, e.slice))
    assert sorted(paths) == [IDENT + i for i in range(len(sends))], "every packet leaves"
    chosen: dict[int, set] = defaultdict(set)
    for i, sport in enumerate(sends):
        assert len(paths[IDENT + i]) == 1, f"packet {i} left {len(paths[IDENT + i])} times"
        path = tuple(paths[IDENT + i][0])
        assert path in e.paths
        chosen[sport].add(path)
    assert len(set().union(*chosen.values())) >= 2, "32 flows all hashed onto one tied path"
    assert all(len(p) == 1 for p in chosen.values()), {sp: p for sp, p in chosen.items() if len(p) > 1}


#: the IP ident of the first packet a test sends together with others (the rest count up)
IDENT = 0x700


def _paths_by_ident(got) -> dict[int, list[list[tuple[int, int, int]]]]:
    """The SSRR hops of each collected frame, by the IP ident of the packet it carries."""
    paths = defaultdict(list)
    for _, _, frame in got:
        paths[Ether(frame)[IP].id].append(parse_ssrr(frame)[1])
    return paths


def test_intermediate_advances_pointer_and_sends_in_the_hops_slice(tor):
    sw, client, dp, contract = tor
    push(client, contract)
    hops = [(ME, 1, 0), (6, 0, 2), (3, 1, 3)]       # hop 0 brought it here; hop 1 is ours
    pkt = udp(3, src_tor=4, options=ssrr_options(hops, ptr=8))
    set_slice(dp, 1)
    dp.send(UPLINK_BASE + 1, pkt)
    dp.expect_none()                                  # hop 1 leaves in slice 2, not before
    set_slice(dp, 2)
    frame = dp.expect(UPLINK_BASE + 0, routed(pkt, options=ssrr_options(hops, ptr=12)))
    assert parse_ssrr(frame) == (12, hops)
    assert client.read_counters(contract, "events")["ssrr_transit"] == 1


def test_destination_delivers_to_the_host_port(tor):
    sw, client, dp, contract = tor
    push(client, contract)
    hops = [(5, 0, 1), (ME, 1, 2)]
    pkt = udp(ME, src_tor=2, options=ssrr_options(hops, ptr=12))
    pkt[IP].dst = "10.0.0.2"                          # host port 1 of this ToR
    set_slice(dp, 2)
    dp.send(UPLINK_BASE, pkt)
    # the route ends here: delivered without the option (same TTL, IHL 5, checksum redone)
    dp.expect(1, routed(pkt, ttl_dec=0, options=[]))
    dp.expect_none()


def test_per_hop_and_source_routing_coexist_by_destination(tor):
    """route_mode is a per-destination table choice: ToR 3 source-routed, ToR 5 per-hop."""
    from fabric import uro_entry, uro_routes

    sw, client, dp, contract = tor
    client.write(tor_batch(contract, ME, uro_routes=uro_routes(), path_routes=ucmp_routes(), source_routed=[3]))
    t = 0
    set_slice(dp, t)
    sr = next(e for e in ssrr_entries() if e.dst == 3 and e.slice == t and len(e.paths) == 1)
    dp.send(0, udp(3, dscp=sr.buckets[0], ident=1))
    got = collect(dp, t)
    assert len(got) == 1 and parse_ssrr(got[0][2])[1] == list(sr.paths[0])
    set_slice(dp, t)
    alt = uro_entry(5, t).alternatives[0]
    pkt = udp(5, ident=2)
    dp.send(0, pkt)
    got = collect(dp, t)
    assert [(now, port) for now, port, _ in got] == [(alt.dep_slice, UPLINK_BASE + alt.uplink)]
    assert got[0][2] == routed(pkt).build()             # no option: the per-hop table carried it


# ---- a source route whose hop 0 cannot leave now ------------------------------------------
def _entry(dst: int, t: int, bucket: int = 0, me: int = ME):
    return next(e for e in ssrr_entries(me) if e.dst == dst and e.slice == t % S
                and e.buckets[0] <= bucket <= e.buckets[1])


def _leaves_now():
    """(dst, t): the bucket-0 path of slice t leaves now (hop 0 in slice t), one path per
    entry at t and t + 1 (so the test knows which path it must see)."""
    for t in range(S):
        for dst in range(1, 8):
            a, b = _entry(dst, t), _entry(dst, t + 1)
            if len(a.paths) == 1 and len(b.paths) == 1 and a.paths[0][0][2] == t:
                return dst, t
    raise AssertionError("no source route leaving in its start slice on this schedule")


def _spend_the_slice(client, contract, me: int = ME):
    """Routes with the byte clock at the slice capacity per microsecond: the current
    slice's queues have no bytes left a moment after its timer (a packet arriving at
    the end of a slice); future slices' queues are empty."""
    cap = contract["profile"]["slice_capacity_bytes"]
    client.write(tor_batch(contract, me, path_routes=ucmp_routes(),
                           source_routed=[t for t in range(8) if t != me], bytes_per_us=cap))


def test_source_whose_hop0_slice_is_spent_takes_the_next_start_slices_path(tor):
    """At the end of slice t a source route whose hop 0 leaves in t cannot be admitted.
    A re-decision in the same slice would find the same path again and drop the packet
    (drops[all_full]) although every later slice is empty, where a per-hop route takes its
    next alternative: the source takes the path of start slice t + 1 and the packet leaves
    on its hop 0 in that path's slice, nothing dropped."""
    sw, client, dp, contract = tor
    dst, t = _leaves_now()
    later = _entry(dst, t + 1).paths[0]
    _spend_the_slice(client, contract)
    set_slice(dp, t)
    dp.send(0, udp(dst, ident=700))
    got = collect(dp, t)
    drops = {k: v for k, v in client.read_counters(contract, "drops").items() if v}
    assert drops == {}, f"dropped: {drops}"
    assert [(now, port) for now, port, _ in got] == [(later[0][2], UPLINK_BASE + later[0][1])]
    assert parse_ssrr(got[0][2]) == (8, list(later))
    events = client.read_counters(contract, "events")
    assert events["ssrr_deferred"] == 1


def test_transit_hop_in_a_spent_slice_is_resourced_onto_a_later_path(tor):
    """A packet in transit whose hop leaves in the current slice, with that slice's
    bytes spent, is re-sourced here (UCMP §6.3); the re-sourced path of the current slice
    leaves now as well, so it takes a later start slice's path instead of being dropped
    (all_full)."""
    sw, client, dp, contract = tor
    dst, t = _leaves_now()
    later = _entry(dst, t + 1).paths[0]
    _spend_the_slice(client, contract)
    hops = [(ME, 1, (t - 1) % S), (dst, 0, t)]        # hop 0 brought it here; hop 1 (ours) leaves now
    pkt = udp(dst, src_tor=4, options=ssrr_options(hops, ptr=8))
    set_slice(dp, t)
    dp.send(UPLINK_BASE + 1, pkt)
    got = collect(dp, t)
    drops = {k: v for k, v in client.read_counters(contract, "drops").items() if v}
    assert drops == {}, f"dropped: {drops}"
    assert [(now, port) for now, port, _ in got] == [(later[0][2], UPLINK_BASE + later[0][1])]
    assert parse_ssrr(got[0][2]) == (8, list(later))
    events = client.read_counters(contract, "events")
    assert events["ssrr_resourced"] == 1 and events["ssrr_deferred"] >= 1
    # a transit packet is not a packet from a host: the path counter stays at zero
    assert sum(client.read_counters(contract, "ssrr_paths").values()) == 0


def test_path_counter_counts_host_packets_by_bucket_and_hops(tor):
    """ssrr_paths[b<bucket>h<hops>] counts each packet from a host once, at the cell of its
    DSCP bucket and the hop count of the path written into it."""
    from collections import Counter

    sw, client, dp, contract = tor
    push(client, contract)
    want = Counter()
    for t in range(S):                  # a slice's packets sent together, told apart by their IP ident
        cases = {}
        set_slice(dp, t)
        for dst in (1, 3, 6):
            for bucket in (0, 5):
                ident = IDENT + len(cases)
                cases[ident] = (bucket, _entry(dst, t, bucket))
                dp.send(0, udp(dst, dscp=bucket, ident=ident))
        paths = _paths_by_ident(collect(dp, t))
        assert sorted(paths) == sorted(cases), f"slice {t}: every packet leaves"
        for ident, (bucket, e) in cases.items():
            assert len(paths[ident]) == 1, f"slice {t}: packet {ident:#x} left {len(paths[ident])} times"
            hops = len(paths[ident][0])
            assert hops in {len(p) for p in e.paths}
            want[f"b{bucket}h{hops}"] += 1
    cells = {k: v for k, v in client.read_counters(contract, "ssrr_paths").items() if v}
    assert cells == dict(want)
    assert len({k.split("h")[1] for k in cells}) >= 2, "the cases should cover paths of different hop counts"


def test_transit_from_a_tor_already_in_the_next_slice_waits_for_this_tors_timer(tor):
    """Boundary skew: the previous ToR took its timer for slice t + 1 first and sent the
    hop it planned for t + 1; this ToR still counts slice t. Read as S - 1 slices late
    (ssrr_missed), the packet would be re-sourced onto a path of slice t, on a circuit the
    OCS no longer has (bad_ssrr one ToR on); it waits here for its own timer of t + 1 and
    takes its planned hop then."""
    sw, client, dp, contract = tor
    push(client, contract)
    t = 1
    nxt = (t + 1) % S
    hops = [(ME, 1, nxt), (5, 0, nxt), (3, 1, (nxt + 1) % S)]   # hop 1 (ours) leaves in t + 1
    pkt = udp(3, src_tor=4, options=ssrr_options(hops, ptr=8))
    set_slice(dp, t)
    dp.send(UPLINK_BASE + 1, pkt)
    dp.expect_none()                                  # this ToR is still in slice t
    set_slice(dp, nxt, settle=0)
    frame = dp.expect(UPLINK_BASE + 0, routed(pkt, options=ssrr_options(hops, ptr=12)))
    assert parse_ssrr(frame) == (12, hops)
    events = client.read_counters(contract, "events")
    assert events["ssrr_missed"] == 0 and events["ssrr_resourced"] == 0
    assert sum(client.read_counters(contract, "drops").values()) == 0


def test_packet_delivered_to_a_tor_its_route_does_not_name_is_resourced_here(tor):
    """A circuit of another slice carried the hop (a slice boundary the switches did not
    see at the same moment): the previous hop names ToR 5, the packet is here. Its route is
    no longer available, so it is re-sourced from here (UCMP §6.3) onto this ToR's path
    for the current slice, not dropped as bad_ssrr."""
    sw, client, dp, contract = tor
    push(client, contract)
    t = 2
    e = next(x for x in ssrr_entries() if x.dst == 3 and x.slice == t and x.buckets[0] == 0)
    hops = [(5, 0, t), (3, 1, (t + 1) % S)]
    set_slice(dp, t)
    dp.send(UPLINK_BASE, udp(3, src_tor=4, options=ssrr_options(hops, ptr=8)))
    got = collect(dp, t)
    assert len(got) == 1
    path = parse_ssrr(got[0][2])[1]
    assert tuple(path) in {tuple(p) for p in e.paths}
    assert sum(client.read_counters(contract, "drops").values()) == 0
    events = client.read_counters(contract, "events")
    assert events["ssrr_misdelivered"] == 1
