"""Drift repaired on the model: the daemon's controller manages tor0; another BfRt client
(raw bfrt_grpc, its own client id) deletes one route entry and changes another behind its
back (BfRt lets one client own a program: the other controller takes the switch while the
daemon's session is lost, as bmv2_tests/test_daemon_process.py's meddler does with a higher
election id). The data plane shows the drift (one destination unroutable, another on the wrong
uplink); the daemon's next reconcile pass reads the switch back and writes exactly those two
entries again (counted in its status and logged as ``reconcile.repaired``), and both
destinations leave again where the reference model says. The clock is stopped so the slice
of every lookup is known."""

from __future__ import annotations

import dataclasses
import time

from model_util import HOSTS, LogTail, View, daemon, dev_port, events, reference_tables

TABLE = "pipe.UroIngress.uro_next_hop"


def _meddle(address: str, p4_name: str, generation: int, cur: int, gone: int, changed: int) -> None:
    """Another controller: deletes (gen, cur, gone), moves (gen, cur, changed)'s first
    alternative to the other uplink, and leaves."""
    from controller.agent.bfrt import load_bfrt_grpc

    gc = load_bfrt_grpc()
    iface = gc.ClientInterface(grpc_addr=address, client_id=1, device_id=0, num_tries=5)
    try:
        info = iface.bfrt_info_get(p4_name)
        iface.bind_pipeline_config(p4_name)
        t = info.table_get(TABLE)
        tgt = gc.Target(device_id=0, pipe_id=0xFFFF)

        def key(dst):
            return t.make_key([gc.KeyTuple("generation", generation), gc.KeyTuple("arrival_slice", cur),
                               gc.KeyTuple("dst_tor", dst)])

        data = next(d for d, _ in t.entry_get(tgt, [key(changed)], {"from_hw": False})).to_dict()
        fields = [gc.DataTuple(n, int(data[n]) ^ (1 if n == "up0" else 0))
                  for n in ("n", "up0", "wait0", "up1", "wait1", "up2", "wait2")]
        t.entry_mod(tgt, [key(changed)], [t.make_data(fields, "UroIngress.set_alternatives")])
        t.entry_del(tgt, [key(gone)])
    finally:
        iface.tear_down_stream()


def _send(ports, port_map, model, frames: dict, expect: int | None = None, timeout: float = 30.0) -> dict:
    """{IP id: (dev port, bytes)} of the frames that left (after the model logged ``expect``
    (default: all) departures, or ``timeout``)."""
    from scapy.all import Ether

    tail = LogTail(model.log_dir)
    tail.mark()
    sn = ports.sniffer(port_map.uplinks)
    for f in frames.values():
        ports.send(port_map.hosts[0], f)
    deadline = time.time() + timeout
    while time.time() < deadline and len(tail.tx_ports()) < (len(frames) if expect is None else expect):
        time.sleep(0.5)
    time.sleep(1.0)
    seen = {}
    for p in sn.stop():
        e = Ether(bytes(p))
        if e.haslayer("IP") and e["IP"].id in frames:
            seen[e["IP"].id] = (ports.port_of(p.sniffed_on), bytes(p))
    return seen


def test_drift_behind_the_daemons_back_is_repaired(sole, model, net, build, ports, port_map, tmp_path):
    from fabric import udp

    from controller.agent.diff import same_state
    from controller.agent import generations as gens

    log = tmp_path / "daemon.log"
    with daemon(net, log) as ctl:
        agent = ctl.agents["tor0"]
        v = View(agent.backend)
        cur = v.frozen_slice()
        try:
            gen = agent.active
            p4_name = agent.backend._s().p4_name
            tm, full = reference_tables(ctl.routes, gen)
            # the active slice's time is used up while the clock stands (see test_c)
            t = dataclasses.replace(full, uro={k: [a for a in alts if a[1] != k[0]] for k, alts in full.uro.items()})
            cands = [d for d in range(1, 8) if d not in t.source_routed and t.uro.get((cur, d))]
            # changed: its first alternative (up0, the one moved) is the one taken
            changed = next(d for d in cands if t.uro[(cur, d)][0] == full.uro[(cur, d)][0])
            gone = next(d for d in cands if d != changed)
            frames = {0x601: udp(gone, ident=0x601), 0x602: udp(changed, ident=0x602)}
            want = {i: tm.decide(t, f.build(), 0, cur) for i, f in frames.items()}
            assert all(isinstance(w, tm.Sent) for w in want.values()), want

            drops0 = agent.read_counters()["drops"]
            repairs0 = agent.stats["repairs"]
            # another controller: BfRt binds a program to one client, so it takes the switch
            # while the daemon's session is lost, meddles, and leaves
            agent.backend.close()
            _meddle(model.address, p4_name, gen, cur, gone, changed)
            drifted = _send(ports, port_map, model, frames, expect=1)     # the deleted one has no route
            # the daemon's next maintenance pass: reconnect, read back, repair
            ctl.maintain(ctl.clock() + ctl.cfg.daemon.reconcile_s + 1)
            st = next(s for s in ctl.status()["switches"] if s["name"] == "tor0")
            actual = agent.backend.read_state()
            parts = gens.split(actual, agent.role.config_table())
            repaired = _send(ports, port_map, model, frames)
            drops1 = agent.read_counters()["drops"]
        finally:
            v.timer(True)

    # the drift was real: the deleted destination unroutable, the changed one on the other uplink
    assert 0x601 not in drifted, drifted
    assert drifted.get(0x602, (None,))[0] == port_map.uplinks[1 - (want[0x602].port - HOSTS)], drifted
    # one pass reconnected, found exactly those two entries changed and wrote them, and said so
    assert st["state"] == "up" and st["generation"] == gen, st
    assert agent.stats["repairs"] - repairs0 == 2 and st["repairs"] == agent.stats["repairs"], st
    rep = [e for e in events(log) if e["event"] == "reconcile.repaired"]
    assert rep and rep[-1]["updates"] == 2 and rep[-1]["generation"] == gen, rep
    assert same_state(parts.gens[gen], agent.role.routes(ctl.routes, gen))
    # the other generation: empty or the routes' shadow (never live; docs/daemon.md "Diff-only writes")
    assert parts.entries(1 - gen) == 0 or same_state(parts.gens[1 - gen], agent.role.routes(ctl.routes, 1 - gen))
    # and the switch forwards as before; the only drop was the unroutable packet of the drift
    for i, w in want.items():
        assert i in repaired, f"packet {i:#x} did not leave after the repair"
        assert repaired[i] == (dev_port(port_map, w.port), w.frame), (i, repaired[i], w)
    moved = {k: drops1[k] - drops0.get(k, 0) for k in drops1 if drops1[k] != drops0.get(k, 0)}
    assert moved == {"no_route": 1}, moved
