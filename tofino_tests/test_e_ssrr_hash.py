"""UCMP source routes on the model (exact tables, the option written in egress):
a host packet for a source-routed ToR leaves with the SSRR option of one of the tied paths
of its (destination, start slice, bucket), picked by the flow's hash (different 5-tuples
spread over the ties, one 5-tuple always takes the same path), on hop 0's uplink, with a
right IPv4 checksum; and a packet in transit at this ToR leaves on the uplink its next hop
names, the pointer moved on. The clock is stopped (as in test_c) so the slice is known: the
active slice's time is used up, so only paths whose next hop leaves in a later slice are
sent (the others are dropped as all_full: a source packet is not resubmitted)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bmv2_tests"))

HOSTS = 2
FLOWS = 24


@pytest.fixture(scope="module")
def source_routes(net):
    """(source-routed ToRs, {src: [SourceEntry]}) of the routes the daemon pushed."""
    from controller.agent.backend import backend_for
    from controller.daemon import plan
    from controller.daemon.config import load
    from controller.schedule.degrade import Failed
    from controller.tables import source as st

    prep = plan.Prepared(load(net), Failed(), backend_for, names=["tor0"])
    sr = tuple(prep.routes.source_routed)
    return sr, {s: list(st.entries(prep.routes.source, s, sr)) for s in range(8)}


def _dev(port_map, logical: int) -> int:
    return port_map.hosts[logical] if logical < HOSTS else port_map.uplinks[logical - HOSTS]


def _collect(ports, port_map, send, want_ids, sent=frozenset(), wait: float = 20):
    """Send, then {ip id: (dev port, frame bytes)} of what left on the uplinks and hosts
    (host 0's port, where the tests send, not sniffed; frames equal to one we sent, seen on
    the port we sent it on, skipped)."""
    from scapy.all import Ether

    sn = ports.sniffer([p for p in (*port_map.hosts, *port_map.uplinks) if p != port_map.hosts[0]])
    send()
    deadline = time.time() + wait
    while time.time() < deadline and len(sn.results or []) < len(want_ids) + len(sent):
        time.sleep(0.5)
    time.sleep(1.5)
    seen = {}
    for p in sn.stop():
        b = bytes(p)
        e = Ether(b)
        if e.haslayer("IP") and e["IP"].id in want_ids and b not in sent:
            seen[e["IP"].id] = (ports.port_of(p.sniffed_on), b)
    return seen


def test_source_route_is_picked_by_the_flow_hash_and_written_whole(view, ports, port_map, source_routes):
    from fabric import parse_ssrr, udp
    from scapy.all import IP, Ether

    _, by_src = source_routes
    cur = view.frozen_slice()
    try:
        # (dst, bucket range, tied paths) of ToR 0 at the frozen slice, every tie leaving later
        cands = [(e.dst, e.buckets, e.paths) for e in by_src[0] if e.slice == cur
                 and all(p[0][2] != cur for p in e.paths)]
        assert cands, f"no source route of ToR 0 at slice {cur} whose hop 0 leaves in a later slice"
        dst, (lo, _), paths = max(cands, key=lambda c: len(c[2]))
        ties = {tuple(p) for p in paths}
        pkts = {0x300 + i: udp(dst, dscp=lo, sport=2000 + i, ident=0x300 + i) for i in range(FLOWS)}
        again = {0x380 + i: udp(dst, dscp=lo, sport=2000 + i, ident=0x380 + i) for i in range(4)}
        drops0 = view.b.read_counter("drops")
        seen = _collect(ports, port_map, lambda: [ports.send(port_map.hosts[0], p) for p in (*pkts.values(), *again.values())],
                        set(pkts) | set(again))
        assert set(seen) == set(pkts) | set(again), f"left: {sorted(seen)} of {len(pkts) + len(again)} (dst {dst}, slice {cur})"
        picked = {}
        for ident, (port, frame) in seen.items():
            ip = Ether(frame)[IP]
            ptr, hops = parse_ssrr(frame)
            path = tuple(hops)
            assert path in ties, (ident, path, ties)                  # one of the range's tied paths
            assert ptr == 8                                           # hop 0 taken here
            assert port == _dev(port_map, HOSTS + path[0][1])          # on hop 0's uplink
            assert ip.ihl == 5 + 1 + len(path) and ip.len == len(pkts.get(ident, again.get(ident))[IP]) + 4 + 4 * len(path)
            fixed = IP(bytes(ip))
            del fixed.chksum
            assert IP(bytes(fixed)).chksum == ip.chksum, "IPv4 checksum over the option"
            picked[ident] = path
        for i in range(4):                                            # one 5-tuple, one path
            assert picked[0x380 + i] == picked[0x300 + i]
        if len(ties) > 1:                                             # the hash spreads flows over the ties
            assert len({picked[k] for k in pkts}) > 1, (ties, set(picked.values()))
        assert view.b.read_counter("drops") == drops0
    finally:
        view.timer(True)


def test_transit_packet_leaves_where_its_next_hop_says(view, ports, port_map, source_routes):
    from fabric import routed, ssrr_options, udp

    _, by_src = source_routes
    cur = view.frozen_slice()
    try:
        # a path of another ToR through ToR 0: hop k reaches ToR 0, hop k + 1 leaves later
        found = None
        for s, es in by_src.items():
            for e in es if s != 0 else ():
                for p in e.paths:
                    for k in range(len(p) - 1):
                        if p[k][0] == 0 and p[k + 1][2] != cur:
                            found = (s, e.dst, tuple(p), k)
                            break
                    if found:
                        break
                if found:
                    break
            if found:
                break
        assert found, f"no source-routed path through ToR 0 whose next hop leaves after slice {cur}"
        src, dst, path, k = found
        ptr = 4 * (k + 2)                                             # the hop after k is next
        pkt = udp(dst, src_tor=src, ident=0x3C0, options=ssrr_options(path, ptr))
        want = routed(pkt, options=ssrr_options(path, ptr + 4))
        drops0 = view.b.read_counter("drops")
        uplink_in = port_map.uplinks[path[k][1]]
        seen = _collect(ports, port_map, lambda: ports.send(uplink_in, pkt), {0x3C0}, sent=frozenset({bytes(pkt)}))
        assert 0x3C0 in seen, f"transit packet {src}->{dst} via hop {k} (path {path}) did not leave"
        port, frame = seen[0x3C0]
        assert port == _dev(port_map, HOSTS + path[k + 1][1])
        assert frame == bytes(want), (frame.hex(), bytes(want).hex())
        assert view.b.read_counter("drops") == drops0
    finally:
        view.timer(True)
