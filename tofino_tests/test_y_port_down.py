"""The port-down application on the model (FRANCIS §4.3, URO §IV-C): an uplink whose link
goes down is routed around by the data plane alone, before any control plane reacts.

The model runs with ``--port-monitor`` (tofino_process): taking the switch side of an
uplink's veth down is a link failure the chip sees (``Chip::PortDown``): the packet
generator's port-down application sends its batch (one packet per calendar queue), the
program's ``down_port`` table marks the uplink in ``link_down_reg`` and sets every Full flag
of its queues. A packet whose first usable alternative is that uplink then leaves on the next
alternative of the other uplink, as the reference model says with the uplink's alternatives
removed; the config's ``down`` mask (the daemon's reaction) is never written. No daemon runs
here. Named to run after the tests that need both uplinks (the flags stay set until the
control plane clears ``link_down_reg``; the test clears it and the timer then resets them)."""

from __future__ import annotations

import dataclasses
import subprocess
import time

from model_util import LogTail, dev_port, reference_tables

REG = "UroIngress.link_down_reg"


def _send(ports, port_map, model, frame, timeout: float = 30.0):
    """(dev port, bytes) the frame left on, None if it did not (the model logged no departure
    within ``timeout``)."""
    from scapy.all import Ether

    tail = LogTail(model.log_dir)
    tail.mark()
    sn = ports.sniffer(port_map.uplinks)
    ports.send(port_map.hosts[0], frame)
    deadline = time.time() + timeout
    while time.time() < deadline and not tail.tx_ports():
        time.sleep(0.5)
    time.sleep(1.0)
    ident = frame["IP"].id
    for p in sn.stop():
        e = Ether(bytes(p))
        if e.haslayer("IP") and e["IP"].id == ident:
            return ports.port_of(p.sniffed_on), bytes(p)
    return None


def _clear_link_down(view) -> None:
    """What the control plane does once the link is back: the register cleared (the timer's
    pauses then clear the uplink's flags again)."""
    s = view.s
    t = s._table("pipe." + REG)
    t.entry_mod(s.target(), [t.make_key([view.gc.KeyTuple("$REGISTER_INDEX", 0)])],
                [t.make_data([view.gc.DataTuple(REG + ".f1", 0)])])


def test_an_uplink_down_is_routed_around_by_the_data_plane(view, model, net, ports, port_map, veths, tiny):
    from fabric import udp

    from controller.agent.backend import backend_for
    from controller.daemon import plan
    from controller.daemon.config import load
    from controller.schedule.degrade import Failed

    prep = plan.Prepared(load(net), Failed(), backend_for, names=["tor0"])
    role = prep.roles["tor0"]
    gen, down = role.active(view.b.read_state())
    assert gen is not None and down == frozenset()
    tm, t = reference_tables(prep.routes, gen)
    cur = view.frozen_slice()
    sw_side = None
    try:
        # the active slice's time is used up while the clock stands (see test_c)
        t = dataclasses.replace(t, uro={k: [a for a in alts if a[1] != k[0]] for k, alts in t.uro.items()})
        cases = [(d, alts) for (s, d), alts in t.uro.items()
                 if s == cur and d not in t.source_routed and alts and any(a[0] != alts[0][0] for a in alts)]
        assert cases, f"no destination with alternatives on both uplinks from slice {cur}"
        dst, alts = cases[0]
        u = alts[0][0]
        around = dataclasses.replace(t, uro={**t.uro, (cur, dst): [a for a in alts if a[0] != u]})
        before = tm.decide(t, udp(dst, ident=0x701).build(), 0, cur)
        after = tm.decide(around, udp(dst, ident=0x702).build(), 0, cur)
        assert isinstance(before, tm.Sent) and isinstance(after, tm.Sent), (before, after)

        got = _send(ports, port_map, model, udp(dst, ident=0x701))
        assert got == (dev_port(port_map, before.port), before.frame), (got, before)
        c0 = view.b.read_counters()
        assert view.register(REG) == 0

        sw_side = veths[port_map.uplinks[u]][0]
        subprocess.run(["ip", "link", "set", sw_side, "down"], check=True)
        deadline = time.time() + 30
        while time.time() < deadline and not view.register(REG) & (1 << u):
            time.sleep(0.5)
        assert view.register(REG) == 1 << u, f"the port-down application did not mark uplink {u} down"

        got = _send(ports, port_map, model, udp(dst, ident=0x702))
        c1 = view.b.read_counters()
        _, down_now = role.active(view.b.read_state())
    finally:
        if sw_side is not None:
            subprocess.run(["ip", "link", "set", sw_side, "up"], check=False)
            _clear_link_down(view)
        view.timer(True)

    assert got == (dev_port(port_map, after.port), after.frame), (got, after)
    assert dev_port(port_map, after.port) != port_map.uplinks[u]
    ev = {k: c1["events"][k] - c0["events"].get(k, 0) for k in c1["events"]}
    assert ev.get("uplink_down") == tiny.queues, ev          # one per calendar queue of the uplink
    assert c1["drops"] == c0["drops"]
    assert down_now == frozenset(), "the config's down mask was written: not the data plane's own reaction"
