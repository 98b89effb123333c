"""Hitless generation swaps under a steady packet stream on real simple_switch_grpc.

The ToR runs route set A (URO per-hop for destination X) and B (UCMP source routes for X)
alternately, swapped as fast as the daemon's agent can (write beside, verify, flip with
one write, delete the old). The two are told apart on the wire: A leaves on A's uplink
with no IP options, B on its path's first uplink carrying the SSRR option with that path.
Every packet sent must come out exactly once, and in exactly one generation's form on
that generation's port: no loss, no wrong port, no mix. The slice clock is held at one
slice (one SYNC timer) so every packet's route is known."""

from __future__ import annotations

import threading
import time

import pytest

from controller.agent.bmv2_process import free_port
from daemon_util import SwitchProc, need_daemon_stack, until, write_net

HOST, UPLINK_BASE = 0, 2


@pytest.fixture(autouse=True)
def stack():
    need_daemon_stack()


def programs_of(artifacts) -> dict:
    p4info, js, _ = artifacts["tor"]
    return {"tor": (p4info, js, p4info.parent / f"{p4info.name.split('.')[0]}.contract.json")}


def pick(routes_a, routes_b, me: int = 0):
    """(slice t, dst X) where A's first alternative and every path of B's bucket-0 group
    depart now (the held clock never reaches a later slice), on different uplinks if any."""
    from controller.tables import perhop, source as source_tables

    S = routes_a.schedule.n_slices
    a = {(e.slice, e.dst): e.alternatives[0] for e in perhop.entries(routes_a.per_hop, me) if e.alternatives}
    best = None
    for e in source_tables.entries(routes_b.source, me):
        if not e.buckets[0] <= 0 <= e.buckets[1] or (e.slice, e.dst) not in a:
            continue
        alt = a[(e.slice, e.dst)]
        if alt.dep_slice % S != e.slice or any(p[0][2] != e.slice for p in e.paths):
            continue
        cand = (e.slice, e.dst, alt.uplink, e.paths)
        if best is None or (alt.uplink not in {p[0][1] for p in e.paths}):
            best = cand
    assert best is not None, "no (slice, dst) where both route sets depart at once"
    return best


def test_swaps_under_a_packet_stream_lose_and_misroute_nothing(tmp_path, artifacts, veths):
    from scapy.all import AsyncSniffer, conf
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether

    from controller.agent.backend import backend_for
    from controller.daemon.config import load
    from controller.daemon.controller import Controller, Prepared
    from controller.daemon.log import EventLog
    from controller.daemon.plan import compute_routes
    from controller.schedule.degrade import Failed
    from controller.tables.tor_batch import host_ip

    sw = SwitchProc(tmp_path, "tor0", ifaces=[s for s, _ in veths[:4]]).start()
    progs = programs_of(artifacts)
    switches = [{"name": "tor0", "role": "tor", "tor": 0, "address": sw.address,
                 "ports": {"hosts": [0, 1], "uplinks": [2, 3]}}]
    cfg_a = write_net(tmp_path / "a.toml", progs, switches, status_port=free_port())
    ctl = None
    try:
        log = EventLog("json", stream=open(tmp_path / "daemon.log", "w"))
        ctl = Controller(load(cfg_a), log=log)
        prep = Prepared(ctl.cfg, Failed(), backend_for)
        ctl.start(prep)
        agent = ctl.agents["tor0"]
        ra = ctl.routes
        # B: the same network with every destination source-routed (UCMP)
        cfg_b = write_net(tmp_path / "b.toml", progs, switches, status_port=free_port(),
                          routing='source_routed = "all"\n[routing.per_hop]\nk = 3\nmax_hops = 4\n'
                                  '[routing.source]\nalgo = "ucmp"\nh_max = 4\nengine = "numpy"')
        rb = compute_routes(load(cfg_b), ra.schedule, Failed(), version=2)
        t, dst, up_a, paths_b = pick(ra, rb)
        # hold the clock at slice t
        agent.need_sync = True
        before = agent.read_counters()["events"]["timer_sync"]
        agent.send_timer(t)
        until(lambda: agent.read_counters()["events"]["timer_sync"] > before, what="the switch took the SYNC timer")

        hosts = [h for _, h in veths[:4]]
        dst_ip = host_ip(dst, 0)
        # the stream starts once the sniffer's sockets are open (after a fixed 0.5 s, at load
        # 14, the stream's first two packets were missing; a loss now names the switch's
        # drops, which tell the switch's losses from the sniffer's)
        sniffing = threading.Event()
        sniff = AsyncSniffer(iface=hosts[2:4], store=True, started_callback=sniffing.set,
                             lfilter=lambda p: IP in p and p[IP].dst == dst_ip)
        sniff.start()
        assert sniffing.wait(30), "the sniffer did not start within 30 s"
        out = conf.L2socket(iface=hosts[0])
        # long enough for >= 6 swaps: each keeps the old generation one cycle + 0.1 s after the
        # flip for its packets to drain (GenerationWriter.drain_s), ~0.56 s a swap here
        n_pkts, sent, stop, abort = 800, [], threading.Event(), threading.Event()

        def sender():
            for i in range(n_pkts):
                if abort.is_set():
                    break
                p = Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01") / \
                    IP(src=host_ip(0, 0), dst=dst_ip, ttl=64, id=i + 1) / UDP(sport=1234, dport=5001) / \
                    (b"uro-hitless" + i.to_bytes(4, "big"))
                out.send(p)
                sent.append((i + 1, time.monotonic()))
                time.sleep(0.004)
            stop.set()
        th = threading.Thread(target=sender)
        th.start()
        swaps = []
        use_b = True
        try:
            while not stop.is_set():
                r = rb if use_b else ra
                t0 = time.monotonic()
                assert agent.install(r) == "swapped"
                swaps.append((time.monotonic() - t0, agent.active, "B" if use_b else "A"))
                use_b = not use_b
        finally:
            abort.set()
            th.join()
        time.sleep(1.0)
        got = sniff.stop()
        out.close()
        drops = {k: v for k, v in agent.read_counters().get("drops", {}).items() if v}
    finally:
        if ctl is not None:
            ctl.shutdown()
        sw.stop()

    assert len(swaps) >= 6, f"only {len(swaps)} swaps during the stream"
    b_first = {p[0][1] for p in paths_b}
    seen: dict[int, str] = {}
    port_of = {hosts[2]: 2, hosts[3]: 3}
    for p in got:
        ident = p[IP].id
        port = port_of[p.sniffed_on]
        raw = bytes(p[IP].options[0]) if p[IP].options else b""
        if not p[IP].options:
            form = "A"
            assert port == UPLINK_BASE + up_a, f"packet {ident}: per-hop form on port {port}, A's uplink is {up_a}"
        else:
            form = "B"
            opts = b"".join(bytes(o) for o in p[IP].options)
            k = opts.index(bytes([137]))
            ln = opts[k + 1]
            body = opts[k + 3:k + ln]
            hops = [(int.from_bytes(body[j:j + 4], "big") >> 16, body[j + 2], body[j + 3]) for j in range(0, len(body), 4)]
            assert tuple(hops) in {tuple(pp) for pp in paths_b}, f"packet {ident}: SSRR path {hops} is not B's"
            assert port == UPLINK_BASE + hops[0][1] and hops[0][1] in b_first, f"packet {ident}: port {port}"
        assert ident not in seen, f"packet {ident} came out twice"
        seen[ident] = form
        del raw
    missing = sorted(set(range(1, n_pkts + 1)) - set(seen))
    assert not missing, f"{len(missing)} packets lost, e.g. {missing[:10]}; the switch's drops: {drops}"
    forms = list(seen.values())
    assert forms.count("A") > 20 and forms.count("B") > 20, "both generations carried traffic"
    changes = sum(1 for i in range(1, n_pkts) if seen[i] != seen[i + 1])
    assert changes >= 4, f"the stream saw only {changes} generation changes"
