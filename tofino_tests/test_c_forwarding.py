"""URO per-hop forwarding on the model, against the reference model of the bmv2 fuzzing
(bmv2_tests/tor_model.py) fed with the routes the daemon computed and pushed: the clock is
stopped (timer application disabled) so the slice is known, then every destination's
packet must leave on the port the reference model names, as the same bytes. The model's
TM does not pause queues, so a packet for a later slice leaves at once on Tofino2 (in its
calendar queue; bmv2 holds it by recirculation): the departure slice is checked by the
queue id the TM got (model log), not by time."""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bmv2_tests"))

from ingress_log import by_ident, ingress_passes  # noqa: E402
from model_util import LogTail  # noqa: E402

HOSTS = 2


@pytest.fixture(scope="module")
def reference(net):
    """(tor_model module, Tables of tor0 as pushed)."""
    import tor_model
    from controller.agent.backend import backend_for
    from controller.daemon import plan
    from controller.daemon.config import load
    from controller.schedule.degrade import Failed
    from controller.tables import perhop

    cfg = load(net)
    prep = plan.Prepared(cfg, Failed(), backend_for, names=["tor0"])
    t = tor_model.Tables(me=0, n=8, d=2, s=4, h=4, host_ports=HOSTS, uplink_base=HOSTS)
    for e in perhop.entries(prep.routes.per_hop, 0):
        t.uro[(e.slice, e.dst)] = [(a.uplink, a.dep_slice) for a in e.alternatives]
    t.source_routed = set(prep.routes.source_routed)
    return tor_model, t


def _dev(port_map, logical: int) -> int:
    return port_map.hosts[logical] if logical < HOSTS else port_map.uplinks[logical - HOSTS]


def test_per_hop_forwarding_matches_the_reference_model(view, ports, port_map, reference, model, tiny):
    from fabric import udp
    from scapy.all import Ether

    tm, t = reference
    cur = view.frozen_slice()
    # the clock is stopped, so the active slice's time is used up (elapsed past its end:
    # slice_time -> slice_over) and its queue takes nothing (URO §IV-C): the program sends on
    # the first alternative of a later slice; bmv2's reference runs with the byte clock off
    t = dataclasses.replace(t, uro={k: [a for a in alts if a[1] != k[0]] for k, alts in t.uro.items()})
    tail = LogTail(model.log_dir)
    tail.mark()
    try:
        drops0 = view.b.read_counter("drops")
        cases = [d for d in range(1, 8) if d not in t.source_routed]
        want = {}
        for i, dst in enumerate(cases):
            pkt = udp(dst, ident=0x100 + i)
            fate = tm.decide(t, pkt.build(), 0, cur)
            assert isinstance(fate, tm.Sent), (dst, fate)
            want[0x100 + i] = (fate, dst)
        sn = ports.sniffer([p for p in (*port_map.hosts, *port_map.uplinks) if p != port_map.hosts[0]])
        for i, dst in enumerate(cases):
            ports.send(port_map.hosts[0], udp(dst, ident=0x100 + i))
        deadline = time.time() + 20
        while time.time() < deadline and len([p for p in sn.results or []]) < len(cases):
            time.sleep(0.5)
        time.sleep(1.0)
        got = sn.stop()
        seen = {}
        for p in got:
            b = bytes(p)
            e = Ether(b)
            if e.haslayer("IP") and e["IP"].id in want:
                seen[e["IP"].id] = (ports.port_of(p.sniffed_on), b)
        for ident, (fate, dst) in want.items():
            assert ident in seen, f"packet for ToR {dst} (slice {cur}) did not leave; expected on {fate.port}"
            port, frame = seen[ident]
            assert port == _dev(port_map, fate.port), (dst, port, fate)
            assert frame == fate.frame, (dst, frame.hex(), fate.frame.hex())
        drops1 = view.b.read_counter("drops")
        assert drops1 == drops0
        # each packet was put in the calendar queue of its departure slice, qid = (active +
        # wait) mod Q, for the port it left on (the model's ingress trace: the TM's qid)
        active = view.register("UroIngress.active_reg")
        passes = by_ident(ingress_passes(tail.lines()), want)
        for ident, (fate, dst) in want.items():
            qid = (active + (fate.slice - cur) % tiny.slices) % tiny.queues
            assert [(p.qid, p.egress_port) for p in passes[ident]] == [(qid, seen[ident][0])], (dst, passes[ident])
    finally:
        view.timer(True)


def test_bad_header_checksum_is_dropped_and_counted(view, ports, port_map):
    """The parser's checksum unit on the model: the same packet leaves with its header
    checksum right and is dropped as ``bad_checksum`` (counted once) with it wrong. On the old
    program (``csum_ok = verify()``: verify() is the error bit) the right one was dropped
    and the wrong one sent."""
    from fabric import udp
    from scapy.all import IP, Ether

    good = Ether(udp(3, ident=0x201).build())
    bad = Ether(udp(3, ident=0x202).build())
    bad[IP].chksum = good[IP].chksum ^ 0x0101
    drops0 = view.b.read_counter("drops")
    sn = ports.sniffer([p for p in (*port_map.hosts, *port_map.uplinks) if p != port_map.hosts[0]])
    ports.send(port_map.hosts[0], good)
    ports.send(port_map.hosts[0], bad)
    deadline = time.time() + 20
    while time.time() < deadline and not any(Ether(bytes(p)).haslayer("IP") and Ether(bytes(p))["IP"].id == 0x201
                                             for p in sn.results or []):
        time.sleep(0.5)
    time.sleep(2.0)
    ids = {Ether(bytes(p))["IP"].id for p in sn.stop() if Ether(bytes(p)).haslayer("IP")}
    assert 0x201 in ids, "the packet with a right header checksum did not leave"
    assert 0x202 not in ids, "the packet with a wrong header checksum left"
    deadline = time.time() + 10
    while True:
        drops1 = view.b.read_counter("drops")
        moved = {k: drops1[k] - drops0.get(k, 0) for k in drops1 if drops1[k] != drops0.get(k, 0)}
        if moved or time.time() > deadline:
            break
        time.sleep(0.5)
    assert moved == {"bad_checksum": 1}, moved
