"""`uro agent push` of a Tofino2 ToR onto tofino-model + bf_switchd: the switch plan, the
routes, read-back verify, and adoption of a running switch (no re-bind)."""

from __future__ import annotations

import re

from model_util import uro


def test_push_installs_generation_0_and_reads_it_back(pushed):
    out, seconds = pushed
    assert "generation 0 installed" in out and "read back: identical" in out, out
    # the switch ran the program named in its conf: the push adopted it and wrote the plan
    assert "pipeline kept" in out, out


def test_second_push_adopts_the_running_switch(pushed, net, model):
    r = uro("agent", "push", "--config", str(net), "--switch", "tor0")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "pipeline kept" in r.stdout and "already active with these routes" in r.stdout, r.stdout
    assert re.search(r"wrote 0 updates", r.stdout), r.stdout
    assert model.alive()


def test_plan_is_on_the_switch(view, port_map, tiny):
    """F5/F14: the carving reads back as planned (Q queues per uplink, consecutive in the
    port group, channel order); F11: every ToR port was added and is enabled."""
    got = view.queue_map(port_map.uplinks)
    Q = tiny.queues
    for u, p in enumerate(port_map.uplinks):
        assert [got[(p, q)] for q in range(Q)] == [u * Q + q for q in range(Q)], got
    for p in (*port_map.hosts, *port_map.uplinks):
        assert view.port(p)["$PORT_ENABLE"] is True


def test_a_bad_write_is_one_line_not_a_traceback(pushed, build, tmp_path):
    """A port map the switch refuses (a port on a channel the chip has no port at) ends
    the push with one `uro: error:` line naming the switch and the write."""
    from model_util import write_net

    d, contract, _ = build
    bad = tmp_path / "ports.toml"
    bad.write_text("pipe = 0\npktgen_port = 6\nrecirc_port = 1\nhosts = [12, 14]\nuplinks = [8, 10]\n"
                   "other_port_queues = 1\n[generator]\ngbps = 100.0\npacket_bytes = 66\n")
    net = write_net(tmp_path / "net.toml", (d, contract, bad), 10998)
    r = uro("agent", "push", "--config", str(net), "--switch", "tor0")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("uro: error: "), r.stderr
    assert "packet_bytes >= 69" in r.stderr, r.stderr


def test_push_names_what_the_model_does_not_hold(pushed):
    """bf_switchd added the ports at 10G and the model refuses 100G; its TM does not keep
    the AFC enable: the push's output names each as a tofino-model limit with the values
    read and planned (it said "read back: identical" and nothing else)."""
    out, _ = pushed
    limits = [ln for ln in out.splitlines() if "switch plan: not held by the switch" in ln]
    assert any("$SPEED reads 'BF_SPEED_10G', planned 'BF_SPEED_100G'" in ln and "tofino-model" in ln
               for ln in limits), out
    assert any("advanced_flow_control_enable reads False, planned True" in ln and "tofino-model" in ln
               for ln in limits), out
