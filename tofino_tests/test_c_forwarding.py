"""URO per-hop forwarding on the model, against the reference model of the bmv2 fuzzing
(bmv2_tests/tor_model.py) fed with the routes the daemon computed and pushed: the clock is
stopped (timer application disabled) so the slice is known, then every destination's
packet must leave on the port the reference model names, as the same bytes. The model's
TM does not pause queues, so a packet for a later slice leaves at once on Tofino2 (in its
calendar queue; bmv2 holds it by recirculation): the departure slice is checked by the
queue id the TM got (model log), not by time."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bmv2_tests"))

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


@pytest.mark.xfail(strict=True, reason=(
    "on tofino-model the t2na parser's Checksum().verify() never sets meta.csum_ok: every valid IPv4 packet "
    "is dropped as bad_checksum (model log: 'Gateway table condition ((meta.csum_ok)) not matched'; drops "
    "counter bad_checksum += 1); program or model, not settled (docs/tofino2.md 'On the model')"))
def test_per_hop_forwarding_matches_the_reference_model(view, ports, port_map, reference, model, tiny):
    from fabric import udp
    from scapy.all import Ether

    tm, t = reference
    cur = view.frozen_slice()
    tail = LogTail(model.log_dir)
    tail.mark()
    try:
        drops0 = view.b.read_counters()["drops"]
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
        drops1 = view.b.read_counters()["drops"]
        assert drops1 == drops0
        # the calendar queue of the departure slice: qid = (active + wait) mod Q
        qids = [int(m.group(1), 16) for line in tail.lines() for m in [re.search(r"ig_intr_md_for_tm\.qid\[\d+:0\] = 0x([0-9a-f]+)", line)] if m]
        waits = sorted({(f.slice - cur) % tiny.slices for f, _ in want.values()})
        assert sorted(set(qids)) == sorted({(cur + w) % tiny.queues for w in waits}) or not qids, (qids, waits)
    finally:
        view.timer(True)
