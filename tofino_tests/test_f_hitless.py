"""Hitless generation swaps under a packet stream on the model (the Tofino2 twin of
bmv2_tests/test_daemon_hitless.py): the daemon's agent swaps tor0 between route set A (the
session's routes: destination X per-hop) and B (every ToR source-routed: X by UCMP paths)
as fast as it can (write beside, read back, flip with one config write, retire the old
generation) while a host streams packets to X. The two are told apart on the wire: A leaves
with no IP options on the port the reference model names, B on its path's first uplink with
the SSRR option carrying one of B's paths; and every frame carries the generation that
processed it (the stamp). Every packet must come out exactly once, in the form of the
generation it is stamped with, with no drop counted; at the end the switch holds one
generation only.

Deterministic by construction: the clock is stopped (the slice is known and stays; the
active slice's time is used up, so only later slices' queues take packets), and the stream is
short enough that no queue fills (no Full mark moves a packet to another alternative)."""

from __future__ import annotations

import dataclasses
import threading
import time

from model_util import LogTail, View, daemon, dev_port, reference_tables, stamp, write_net

#: both forms may book the same calendar queue (A's departure and B's hop 0 on one uplink in
#: one slice): 160 packets of <= 110 bytes booked stay below its FILL_MARK (20119 bytes for
#: tiny), so no Full mark moves a packet (seen with 240: the last 13 lost, Full marks sent)
MAX_PACKETS = 160
MIN_SWAPS = 2


def _pick(ra, rb, cur: int):
    """(dst X, A's expected fate maker, B's source entry) for the frozen slice ``cur``: X per-hop
    in A with an alternative of a later slice, source-routed in B with every path starting
    later (the active slice takes nothing while the clock stands)."""
    from controller.tables import source as source_tables

    tm, ta = reference_tables(ra)
    ta = dataclasses.replace(ta, uro={k: [a for a in alts if a[1] != k[0]] for k, alts in ta.uro.items()})
    for e in source_tables.entries(rb.source, 0):
        if e.slice != cur or e.dst in ta.source_routed or not e.paths or any(p[0][2] == cur for p in e.paths):
            continue
        if ta.uro.get((cur, e.dst)):
            return e.dst, (tm, ta), e
    raise AssertionError(f"no destination per-hop in A and source-routed in B from slice {cur}")


def test_swaps_under_a_packet_stream_lose_and_misroute_nothing(sole, model, net, build, ports, port_map,
                                                               tmp_path):
    from fabric import parse_ssrr, udp
    from scapy.all import IP, Ether, conf

    from controller.agent import generations as gens
    from controller.agent.bmv2_process import free_port
    from controller.agent.diff import same_state
    from controller.daemon.config import load
    from controller.daemon.plan import compute_routes
    from controller.schedule.degrade import Failed

    with daemon(net, tmp_path / "daemon.log") as ctl:
        agent = ctl.agents["tor0"]
        ra = ctl.routes
        rb = compute_routes(load(write_net(tmp_path / "b.toml", build, free_port(), source_routed='"all"')),
                            ra.schedule, Failed(), version=2)
        v = View(agent.backend)
        cur = v.frozen_slice()
        try:
            dst, (tm, ta), eb = _pick(ra, rb, cur)
            gen_a = agent.active
            assert gen_a is not None
            mk = lambda i: udp(dst, dscp=eb.buckets[0], ident=i + 1)  # noqa: E731
            want_a = tm.decide(dataclasses.replace(ta, gen=gen_a, live=1 << gen_a), mk(0).build(), 0, cur)
            assert isinstance(want_a, tm.Sent), want_a
            drops0 = agent.read_counters()["drops"]

            tail = LogTail(model.log_dir)
            tail.mark()
            sn = ports.sniffer(port_map.uplinks)
            out = conf.L2socket(iface=ports.iface(port_map.hosts[0]))
            sent, swaps, stop = [], [], threading.Event()

            def sender():
                try:
                    for i in range(MAX_PACKETS):
                        if len(swaps) > MIN_SWAPS and i >= 60:
                            break
                        out.send(mk(i))
                        sent.append(i + 1)
                        time.sleep(0.05)
                finally:
                    stop.set()

            th = threading.Thread(target=sender)
            th.start()
            use_b = True
            try:
                while not stop.is_set():
                    t0 = time.monotonic()
                    assert agent.install(rb if use_b else ra) == "swapped"
                    swaps.append((round(time.monotonic() - t0, 2), agent.active, "B" if use_b else "A"))
                    use_b = not use_b
            finally:
                stop.set()
                th.join()
            out.close()
            # the model works through its backlog: every frame out (its Tx log), or a minute
            deadline = time.time() + 60
            while time.time() < deadline and len([p for p in tail.tx_ports() if p in port_map.uplinks]) < len(sent):
                time.sleep(0.5)
            time.sleep(1.0)
            got = sn.stop()
            drops1 = agent.read_counters()["drops"]
            # the old generation is retired: one generation on the switch, the last one installed
            last = ra if use_b else rb
            actual = agent.backend.read_state()
            act, _ = agent.role.active(actual)
            parts = gens.split(actual, agent.role.config_table())
            held = (act, parts.entries(1 - act), same_state(parts.gens[act], agent.role.routes(last, act)))
            if not use_b:
                agent.install(ra)              # the session's routes again, for the tests after this one
        finally:
            v.timer(True)

    assert len(swaps) >= MIN_SWAPS, f"only {swaps} swaps during the stream"
    assert [g for _, g, _ in swaps] == [1 - gen_a if k % 2 == 0 else gen_a for k in range(len(swaps))], swaps
    paths_b = {tuple(p) for p in eb.paths}
    seen: dict[int, str] = {}
    for p in got:
        frame = bytes(p)
        e = Ether(frame)
        if not e.haslayer(IP) or e[IP].dst != Ether(mk(0).build())[IP].dst:
            continue
        ident, port = e[IP].id, ports.port_of(p.sniffed_on)
        assert ident not in seen, f"packet {ident} came out twice"
        if e[IP].ihl == 5:
            seen[ident] = "A"
            assert stamp(frame) == gen_a, f"packet {ident}: per-hop (A) form stamped generation {stamp(frame)}"
            assert port == dev_port(port_map, want_a.port), f"packet {ident}: A form on {port}, not {want_a.port}"
        else:
            seen[ident] = "B"
            assert stamp(frame) == 1 - gen_a, f"packet {ident}: SSRR (B) form stamped generation {stamp(frame)}"
            _, hops = parse_ssrr(frame)
            assert tuple(hops) in paths_b, f"packet {ident}: SSRR path {hops} is not one of B's {paths_b}"
            assert port == port_map.uplinks[hops[0][1]], f"packet {ident}: B form on {port}, path {hops}"
    missing = sorted(set(sent) - set(seen))
    moved = {k: drops1[k] - drops0.get(k, 0) for k in drops1 if drops1[k] != drops0.get(k, 0)}
    assert not missing, f"{len(missing)} of {len(sent)} packets lost, e.g. {missing[:10]} (swaps {swaps}, drops {moved})"
    assert moved == {}, f"drops counted during the swaps: {moved}"
    forms = [seen[i] for i in sorted(seen)]
    changes = sum(1 for a, b in zip(forms, forms[1:]) if a != b)
    assert forms.count("A") > 5 and forms.count("B") > 5 and changes >= 2, (forms, swaps)
    print(f"swaps (seconds, generation, routes): {swaps}; packets A {forms.count('A')}, B {forms.count('B')}")
    act, leftovers, same = held
    assert leftovers == 0, f"generation {1 - act} not retired: {leftovers} entries left"
    assert same, f"generation {act} is not the last routes installed"
