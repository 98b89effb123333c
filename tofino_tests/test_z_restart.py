"""A switch reboot (bf_switchd and the model restarted; the model takes no second driver):
the program comes back from the switch's conf with empty tables; the next push adopts it (no
re-bind), writes the switch plan again and reinstalls the routes (restored). Named to run last:
the reboot replaces the bf_switchd the session's ``view`` fixture talks to."""

from __future__ import annotations

from model_util import uro


def test_push_restores_a_rebooted_switch(pushed, net, model, build, port_map):
    from model_util import View, attach

    model.restart()
    r = uro("agent", "push", "--config", str(net), "--switch", "tor0")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "pipeline kept" in r.stdout and "generation 0 installed" in r.stdout, r.stdout
    assert "read back: identical" in r.stdout
    b = attach(build, model.address)
    try:
        v = View(b)
        assert v.register("UroIngress.epoch_reg") >= 0
        t0 = v.triggers()
        import time

        time.sleep(1.0)
        assert v.triggers() > t0                 # the clock runs again
        for p in (*port_map.hosts, *port_map.uplinks):
            assert v.port(p)["$PORT_ENABLE"] is True
    finally:
        b.close()
