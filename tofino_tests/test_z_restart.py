"""A switch reboot (bf_switchd and the model restarted; the model takes no second driver):
the program comes back from the switch's conf with empty tables; the next push adopts it (no
re-bind), writes the switch plan again and reinstalls the routes (restored). Named to run last:
the reboot replaces the bf_switchd the session's ``view`` fixture talks to."""

from __future__ import annotations

import time

from model_util import uro


def test_push_restores_a_rebooted_switch(view, pushed, net, model, build, port_map):
    from model_util import View, attach

    # the session's token (the daemon's survey skips the cookie while it holds) holds while
    # the switch runs, and is gone once bf_switchd restarted (its stream ended)
    token = view.b.session_epoch()
    assert token is not None and view.b.session_epoch() == token
    model.restart()
    deadline = time.monotonic() + 10.0
    while view.b.session_epoch() is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert view.b.session_epoch() is None, "the old session's token outlived the switch's restart"
    r = uro("agent", "push", "--config", str(net), "--switch", "tor0")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "pipeline kept" in r.stdout and "generation 0 installed" in r.stdout, r.stdout
    assert "read back: identical" in r.stdout
    b = attach(build, model.address)
    try:
        v = View(b)
        assert v.register("UroIngress.epoch_reg") >= 0
        t0 = v.triggers()
        time.sleep(1.0)
        assert v.triggers() > t0                 # the clock runs again
        for p in (*port_map.hosts, *port_map.uplinks):
            assert v.port(p)["$PORT_ENABLE"] is True
    finally:
        b.close()
