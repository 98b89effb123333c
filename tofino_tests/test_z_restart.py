"""A switch reboot under the daemon (bf_switchd and the model restarted; the model takes no
second driver): the program comes back from the switch's conf with empty tables. The old
session still answers GetForwardingPipelineConfig (the same cookie) while every table read
and write on it fails NOT_FOUND, so only its ended notification stream says the switch went
away; the daemon's next maintenance pass reconnects, adopts the program (no re-bind), writes
the switch plan again and puts the routes back. Named to run last: the reboot replaces the
bf_switchd the session's ``view`` fixture talks to."""

from __future__ import annotations

import time

from model_util import View, daemon, events


def test_the_daemon_restores_a_rebooted_switch(sole, model, net, build, port_map, tmp_path):
    from controller.agent import generations as gens
    from controller.agent.diff import same_state

    log = tmp_path / "daemon.log"
    with daemon(net, log) as ctl:
        a = ctl.agents["tor0"]
        gen = a.active
        # the session's token (the survey skips the cookie while it holds) holds while the
        # switch runs, and is gone with the session once bf_switchd restarted
        token = a.backend.session_epoch()
        assert token is not None and a.backend.session_epoch() == token
        reconnects0, loads0 = a.stats["reconnects"], a.stats["pipeline_loads"]
        model.restart()
        deadline = time.monotonic() + 10.0
        while a.backend.connected and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not a.backend.connected, "the old session still counts as up after the switch restarted"
        assert a.backend.session_epoch() is None
        # maintenance passes, each as far ahead as every retry and reconcile is due
        now = ctl.clock()
        deadline = time.monotonic() + 120.0
        while time.monotonic() < deadline:
            now += 3600.0
            ctl.maintain(now)
            if a.alive() and a.stats["reconnects"] > reconnects0:
                break
            time.sleep(0.5)
        st = next(s for s in ctl.status()["switches"] if s["name"] == "tor0")
        actual = a.backend.read_state()
        parts = gens.split(actual, a.role.config_table())
        v = View(a.backend)
        t0 = v.triggers()
        time.sleep(1.0)
        t1 = v.triggers()
        enabled = {p: v.port(p)["$PORT_ENABLE"] for p in (*port_map.hosts, *port_map.uplinks)}

    assert st["state"] == "up" and st["generation"] == gen, st
    assert a.stats["reconnects"] == reconnects0 + 1, a.stats
    assert a.stats["pipeline_loads"] == loads0, "the program the switch's conf loaded is adopted, not bound again"
    assert any(e["event"] == "switch.lost" for e in events(log))
    # the routes are back, the active generation's config entry with them
    assert a.role.active(actual)[0] == gen
    assert same_state(parts.gens[gen], a.role.routes(ctl.routes, gen))
    # the switch plan is written again: the clock runs, every port is enabled
    assert t1 > t0, "the packet generator's timer does not run after the restore"
    assert all(enabled.values()), enabled
