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
control plane clears ``link_down_reg``; the test clears it and the timer then resets them).

The control plane's side of it, with the daemon managing the switch: an uplink masked down in
the config (the daemon's one-write reaction to a failure it learned elsewhere) is passed over
like a Full one, with the link up; and an uplink whose link comes back is cleared in
``link_down_reg`` by the daemon (netlink on the switch side of its veth, as on bmv2), so the
timer clears its flags and packets use it again -- only that uplink's bit: another uplink
still marked stays marked."""

from __future__ import annotations

import dataclasses
import subprocess
import time

from model_util import HOSTS, LogTail, View, daemon, dev_port, events, reference_tables, write_net

REG = "UroIngress.link_down_reg"
EPOCH = "UroIngress.epoch_reg"
#: uplinks whose port-down event the generator sent in this bf_switchd run: it sends one per
#: port, never again for that port (seen on the model: a second down of the same veth is not
#: marked; docs/tofino2.md), so a later test takes another uplink down
FIRED: set[int] = set()


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


def _usable(t, cur: int):
    """The reference tables without the alternatives of the active slice: its time is used
    up while the clock stands (see test_c)."""
    return dataclasses.replace(t, uro={k: [a for a in alts if a[1] != k[0]] for k, alts in t.uro.items()})


def _pick(t, cur: int, u: int | None = None):
    """(dst, its alternatives, the uplink u of the first) for a per-hop destination whose first
    usable alternative from slice ``cur`` is on uplink ``u`` (any if None) with a later one on
    the other uplink."""
    cases = [(d, alts) for (s, d), alts in sorted(t.uro.items())
             if s == cur and d not in t.source_routed and alts and any(a[0] != alts[0][0] for a in alts)
             and (u is None or alts[0][0] == u)]
    assert cases, f"no destination with alternatives on both uplinks from slice {cur} (first on {u})"
    dst, alts = cases[0]
    return dst, alts, alts[0][0]


def _moved(c0: dict, c1: dict) -> dict:
    return {k: c1[k] - c0.get(k, 0) for k in c1 if c1[k] != c0.get(k, 0)}


def _set_link_down(view, value: int = 0) -> None:
    """``link_down_reg`` := ``value`` through the test's own BfRt calls (0: what the control
    plane does once the links are back; the timer's pauses then clear the flags again)."""
    s = view.s
    t = s._table("pipe." + REG)
    t.entry_mod(s.target(), [t.make_key([view.gc.KeyTuple("$REGISTER_INDEX", 0)])],
                [t.make_data([view.gc.DataTuple(REG + ".f1", value)])])


def _settled_slice(v: View, slices: int) -> int:
    """Run the clock for more than ``slices`` slices (each queue paused once: flags a
    cleared link mark left set are cleared by then), then stop it: the slice it stopped in."""
    e0 = v.register(EPOCH)
    v.timer(True)
    deadline = time.time() + 120
    while (v.register(EPOCH) - e0) % 65536 <= slices:
        assert time.time() < deadline, "the clock did not advance"
        time.sleep(0.3)
    return v.frozen_slice()


def test_an_uplink_masked_down_in_the_config_takes_the_next_alternative(sole, model, net, ports, port_map, tiny,
                                                                         tmp_path):
    """The daemon's one-write reaction (``SwitchAgent.set_down``: the config entry's ``down``
    mask) to a failure it learned elsewhere -- the link itself stays up, so the port-down
    application never fires: the masked uplink's alternatives are passed over as if Full (as
    bmv2 does), the next alternative on the other uplink is taken (the reference model with
    them removed; counted as a reroute, nothing dropped); unmasked, it is used again."""
    from fabric import udp

    with daemon(net, tmp_path / "daemon.log") as ctl:
        agent = ctl.agents["tor0"]
        v = View(agent.backend)
        try:
            cur = _settled_slice(v, tiny.queues)
            gen = agent.active
            tm, t = reference_tables(ctl.routes, gen)
            t = _usable(t, cur)
            dst, alts, u = _pick(t, cur)
            around = dataclasses.replace(t, uro={**t.uro, (cur, dst): [a for a in alts if a[0] != u]})
            want = {i: tm.decide(around if i == 0x712 else t, udp(dst, ident=i).build(), 0, cur)
                    for i in (0x711, 0x712, 0x713)}
            assert all(isinstance(w, tm.Sent) for w in want.values()), want
            got = {0x711: _send(ports, port_map, model, udp(dst, ident=0x711))}
            c0 = agent.read_counters()
            assert agent.set_down(frozenset({u})) is True
            _, masked = agent.role.active(agent.backend.read_state())
            got[0x712] = _send(ports, port_map, model, udp(dst, ident=0x712))
            c1 = agent.read_counters()
            assert agent.set_down(frozenset()) is True
            _, unmasked = agent.role.active(agent.backend.read_state())
            got[0x713] = _send(ports, port_map, model, udp(dst, ident=0x713))
            link = v.register(REG)
        finally:
            agent.set_down(frozenset())
            v.timer(True)

    assert masked == frozenset({u}) and unmasked == frozenset(), (masked, unmasked)
    assert link == 0, "the port-down application fired: the link was meant to stay up"
    for i, w in want.items():
        assert got[i] == (dev_port(port_map, w.port), w.frame), (hex(i), got[i], w)
    assert dev_port(port_map, want[0x712].port) != port_map.uplinks[u]
    assert dev_port(port_map, want[0x711].port) == dev_port(port_map, want[0x713].port) == port_map.uplinks[u]
    assert _moved(c0["events"], c1["events"]) == {"reroute_spill": 1}, _moved(c0["events"], c1["events"])
    assert c1["drops"] == c0["drops"]


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
        t = _usable(t, cur)
        dst, alts, u = _pick(t, cur)
        around = dataclasses.replace(t, uro={**t.uro, (cur, dst): [a for a in alts if a[0] != u]})
        before = tm.decide(t, udp(dst, ident=0x701).build(), 0, cur)
        after = tm.decide(around, udp(dst, ident=0x702).build(), 0, cur)
        assert isinstance(before, tm.Sent) and isinstance(after, tm.Sent), (before, after)

        got = _send(ports, port_map, model, udp(dst, ident=0x701))
        assert got == (dev_port(port_map, before.port), before.frame), (got, before)
        c0 = view.b.read_counters()
        assert view.register(REG) == 0

        sw_side = veths[port_map.uplinks[u]][0]
        FIRED.add(u)
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
            _set_link_down(view)
        view.timer(True)

    assert got == (dev_port(port_map, after.port), after.frame), (got, after)
    assert dev_port(port_map, after.port) != port_map.uplinks[u]
    ev = {k: c1["events"][k] - c0["events"].get(k, 0) for k in c1["events"]}
    assert ev.get("uplink_down") == tiny.queues, ev          # one per calendar queue of the uplink
    assert c1["drops"] == c0["drops"]
    assert down_now == frozenset(), "the config's down mask was written: not the data plane's own reaction"


def test_a_recovered_uplink_is_cleared_by_the_daemon_and_used_again(sole, model, build, ports, port_map, veths, tiny,
                                                                     tmp_path):
    """``uro daemon`` watching the switch side of the uplinks' veths (ports.interfaces, netlink
    as on bmv2): an uplink's link goes down -> the port-down application marks it in
    ``link_down_reg`` and the daemon masks it (new generation around it); the link comes back
    -> the daemon's recovery clears that uplink's bit (a read-modify-write: the other uplink's
    bit, set here as a mark the daemon has not heard of, stays), the timer clears its flags,
    and a packet whose first alternative is that uplink leaves on it again, as the reference
    model says. Before, nothing cleared the bit: the uplink stayed down in the data plane
    until bf_switchd restarted."""
    from fabric import udp

    from controller.agent.bmv2_process import free_port
    from controller.daemon.log import EventLog
    from controller.daemon.run import Daemon

    sides = [veths[p][0] for p in port_map.uplinks]
    net = write_net(tmp_path / "net.toml", build, free_port(), interfaces=sides)
    log = tmp_path / "daemon.log"
    fh = open(log, "w")
    d = Daemon(net, log=EventLog("json", stream=fh)).start()
    ctl = d.ctl
    agent = ctl.agents["tor0"]
    v = View(agent.backend)
    lk = agent.io_lock                   # the daemon's threads share the session
    sw_side = None

    def handled(op: str, u: int) -> bool:
        return any(e["op"] == op and e["target"] == [0, u] for e in ctl.events)

    def wait(what: str, cond, timeout: float = 180.0) -> None:
        deadline = time.time() + timeout
        while not cond():
            assert time.time() < deadline, f"timed out waiting for {what}"
            time.sleep(0.5)

    try:
        free = [x for x in range(tiny.uplinks) if x not in FIRED]
        assert free, "every uplink's port-down event was used in this bf_switchd run"
        for _ in range(8):               # a slice with a destination whose first alternative is on it
            with lk:
                cur = _settled_slice(v, tiny.queues)
            tm, t = reference_tables(ctl.routes, agent.active)
            try:
                dst, alts, u = _pick(_usable(t, cur), cur, free[0])
                break
            except AssertionError:
                continue
        else:
            raise AssertionError(f"no slice with a destination whose first alternative is on uplink {free[0]}")
        o = 1 - u
        before = tm.decide(_usable(t, cur), udp(dst, ident=0x721).build(), 0, cur)
        got0 = _send(ports, port_map, model, udp(dst, ident=0x721))

        sw_side = veths[port_map.uplinks[u]][0]
        FIRED.add(u)
        subprocess.run(["ip", "link", "set", sw_side, "down"], check=True)
        wait(f"the daemon's reaction to uplink {u} down", lambda: handled("fail", u))

        def reg() -> int:
            with lk:
                return v.register(REG)
        wait(f"the port-down application's mark of uplink {u}", lambda: reg() & 1 << u, 30)
        with lk:
            marked = v.register(REG)
            # the other uplink marked by the data plane too, a failure the daemon has not heard of
            _set_link_down(v, marked | 1 << o)
        down_masked = agent.down

        subprocess.run(["ip", "link", "set", sw_side, "up"], check=True)
        sw_side = None
        wait(f"the daemon's reaction to uplink {u} up", lambda: handled("recover", u))
        with lk:
            after_recovery = v.register(REG)
            _set_link_down(v)                          # the test's own mark goes
        for _ in range(8):               # a slice with a destination whose first alternative is on u
            with lk:
                cur2 = _settled_slice(v, tiny.queues)
            tm, t2 = reference_tables(ctl.routes, agent.active)
            t2 = _usable(t2, cur2)
            on_u = [d for (s, d), alts in sorted(t2.uro.items())
                    if s == cur2 and d not in t2.source_routed and alts and alts[0][0] == u]
            if on_u:
                break
        else:
            raise AssertionError(f"no slice with a destination whose first alternative is on uplink {u}")
        dst2 = on_u[0]
        again = tm.decide(t2, udp(dst2, ident=0x722).build(), 0, cur2)
        got1 = _send(ports, port_map, model, udp(dst2, ident=0x722))
        cleared = [e for e in events(log) if e["event"] == "switch.link_down_cleared"]
        st = next(s for s in ctl.status()["switches"] if s["name"] == "tor0")
    finally:
        if sw_side is not None:
            subprocess.run(["ip", "link", "set", sw_side, "up"], check=False)
        try:
            with lk:
                if v.register(REG):
                    _set_link_down(v)
                v.timer(True)
        finally:
            d.shutdown()
            fh.close()

    assert got0 == (dev_port(port_map, before.port), before.frame) and before.port == HOSTS + u, (got0, before)
    assert marked == 1 << u, f"the port-down application did not mark uplink {u}: {marked:#x}"
    assert down_masked == frozenset({u}), down_masked
    assert after_recovery == 1 << o, (f"link_down_reg after uplink {u} came back: {after_recovery:#x} "
                                      f"(want only uplink {o}'s bit, the mark the daemon never heard of)")
    assert [e["uplinks"] for e in cleared] == [[u]] and st["links_cleared"] == 1, (cleared, st["links_cleared"])
    assert again.port == HOSTS + u and got1 == (dev_port(port_map, again.port), again.frame), (got1, again)
