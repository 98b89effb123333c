"""Bringing fabrics up and down for real: `down` leaves nothing (also after `up` was
killed half-way), bad configs and a missing root fail before anything exists, and the
failure drills take links, ToRs and OCSes down for real and bring them back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from emulate_tests.conftest import SESSION, figure

from controller.emulate import fabric, links, procs

UP_ARGS = ["--no-daemon"]


def _uro(*args, **kw):
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True, **kw)


def _config(tmp_path: Path, prefix: str, tors: int = 4, uplinks: int = 1, extra: str = "") -> Path:
    p = tmp_path / f"{prefix}.toml"
    p.write_text(f'name = "{prefix}"\nprefix = "{prefix}"\n[schedule]\ngenerate = "round-robin"\n'
                 f"tors = {tors}\nuplinks = {uplinks}\n[timing]\nslice_ms = 50\n{extra}")
    return p


def _nothing_of(prefix: str, state_root: str) -> list[str]:
    return fabric.leftovers(prefix, state_root)


def test_down_after_up_was_killed_halfway(tmp_path, state_root):
    """SIGKILL `uro emulate up` once its namespaces exist: `down` removes the lot, twice is fine."""
    prefix = f"{SESSION}k"[:6]
    cfg = _config(tmp_path, prefix, tors=8, uplinks=2)
    p = subprocess.Popen([sys.executable, "-m", "controller.cli", "emulate", "up", "--config", str(cfg),
                          "--state-dir", state_root, *UP_ARGS], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        end = time.time() + 60
        while time.time() < end and len(links.existing_netns(prefix)) < 3:
            time.sleep(0.01)
        assert links.existing_netns(prefix), "up never created a namespace"
        p.send_signal(signal.SIGKILL)
        p.wait()
        left = _nothing_of(prefix, state_root)
        assert left, "the kill came too late to leave anything behind"
        r = _uro("emulate", "down", "--prefix", prefix, "--state-dir", state_root)
        assert r.returncode == 0, r.stderr
        assert _nothing_of(prefix, state_root) == []
        r = _uro("emulate", "down", "--prefix", prefix, "--state-dir", state_root)
        assert r.returncode == 0 and "nothing was left" in r.stdout
        figure(f"[lifecycle] up killed half-way left {len(left)} items; down removed them all")
    finally:
        if p.poll() is None:
            p.kill()
        fabric.down(prefix, state_root)


def test_up_down_cli_leaves_nothing_and_processes_are_ours(tmp_path, state_root):
    prefix = f"{SESSION}c"[:6]
    cfg = _config(tmp_path, prefix)
    try:
        t0 = time.time()
        r = _uro("emulate", "up", "--config", str(cfg), "--state-dir", state_root, *UP_ARGS)
        assert r.returncode == 0, r.stderr
        assert "tor3" in r.stdout and "P4Runtime 127.0.0.1:" in r.stdout and f"netns {prefix}-h3_0" in r.stdout
        sdir = Path(state_root) / prefix
        pids = {n: procs.running(sdir / "pids", n) for n in ("tor0", "tor1", "tor2", "tor3", "ocs")}
        assert all(pids.values()), pids
        assert len(links.existing_netns(prefix)) == 4 and len(links.existing_links(prefix)) == 4 + 2 * 4
        r = _uro("emulate", "exec", "--prefix", prefix, "--state-dir", state_root, "h2_0", "ip", "-o", "-4", "addr",
                 "show", "dev", "eth0")
        assert r.returncode == 0 and "10.0.2.1/24" in r.stdout
        # a process a user left in a host (like `iperf3 -s -D`) goes with the fabric
        lingering = subprocess.Popen(["ip", "netns", "exec", f"{prefix}-h1_0", "sleep", "300"])
        time.sleep(0.3)
        r = _uro("emulate", "down", "--prefix", prefix, "--state-dir", state_root)
        assert r.returncode == 0 and "6 processes, 4 namespaces" in r.stdout, r.stdout
        assert lingering.wait(5) is not None
        for pid in pids.values():
            assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split(")")[-1][:3]
        assert _nothing_of(prefix, state_root) == []
        figure(f"[lifecycle] 4x1 fabric up + down through the CLI in {time.time() - t0:.1f} s")
    finally:
        fabric.down(prefix, state_root)


@pytest.mark.parametrize("case", ["ocs_ports", "host_port", "not_root", "exists"])
def test_bad_config_fails_before_anything_is_created(tmp_path, state_root, case):
    prefix = f"{SESSION}b"[:6]
    if case == "ocs_ports":
        cfg, needle, pre = _config(tmp_path, prefix, tors=256, uplinks=2), "512 ports, a v1model switch has 510", []
    elif case == "host_port":
        cfg = _config(tmp_path, prefix, extra="[hosts]\nper_tor = 3\nhost_ports = 2\n")
        needle, pre = "hosts.per_tor = 3 needs host ports 0..2", []
    elif case == "not_root":
        import tempfile

        pub = Path(tempfile.mkdtemp(prefix="uro-emu-cfg-", dir="/tmp"))   # readable by nobody
        os.chmod(pub, 0o755)
        cfg, needle = _config(pub, prefix), "needs root"
        os.chmod(cfg, 0o644)
        pre = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    else:
        cfg, needle, pre = _config(tmp_path, prefix), "already exists", []
        # a leftover link with this fabric's name blocks `up`
        subprocess.run(["ip", "link", "add", f"{prefix}t0u0", "type", "veth", "peer", "name", f"{prefix}o0u0"],
                       check=True)
    try:
        cmd = [*pre, sys.executable, "-m", "controller.cli", "emulate", "up", "--config", str(cfg),
               "--state-dir", state_root, *UP_ARGS]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=str(Path(__file__).resolve().parents[1]))
        assert r.returncode == 2, (r.stdout, r.stderr)
        assert needle in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
        left = _nothing_of(prefix, state_root)
        assert left == ([] if case != "exists" else [f"link {prefix}o0u0", f"link {prefix}t0u0"])
    finally:
        fabric.down(prefix, state_root)
        if case == "not_root":
            import shutil

            shutil.rmtree(cfg.parent, ignore_errors=True)
    assert _nothing_of(prefix, state_root) == []


def test_failure_drills_take_elements_down_for_real(tmp_path, state_root):
    """fail link / ocs set the veths down, fail tor stops the switch process; recover
    undoes each; a failed link really stops the traffic that crossed it."""
    from emulate_tests.conftest import bring_up, example, tear_down

    from controller.emulate import traffic

    env = bring_up(example(), "f", state_root)
    prefix, root = env.cfg.prefix, env.cfg.state_root
    sdir = Path(root) / prefix
    try:
        link = env.plan.uplink_link(3, 1)
        fabric.fail(prefix, "link", [3, 1], root)
        assert links.link_state(link.a) == "down"
        st = fabric.status(prefix, root)
        assert st["links_down"] == [link.a] and st["failures"] == [{"kind": "link", "ids": [3, 1]}]
        with pytest.raises(fabric.FabricError, match="already failed"):
            fabric.fail(prefix, "link", [3, 1], root)
        before = links.counters([link.a])[link.a][1]
        traffic.ping_pairs(env.plan, [("h3_0", f"h{b}_0") for b in range(8) if b != 3], count=2, interval=0.2,
                           wait_s=1)
        assert links.counters([link.a])[link.a][1] == before, "a down link carried packets"
        fabric.recover(prefix, "link", [3, 1], root)
        assert links.link_state(link.a) == "up" and fabric.status(prefix, root)["failures"] == []

        fabric.fail(prefix, "ocs", [0], root)
        assert all(links.link_state(env.plan.uplink_link(t, 0).a) == "down" for t in range(8))
        fabric.recover(prefix, "ocs", [0], root)
        assert all(links.link_state(env.plan.uplink_link(t, 0).a) == "up" for t in range(8))

        pid = procs.running(sdir / "pids", "tor2")
        fabric.fail(prefix, "tor", [2], root)
        assert procs.running(sdir / "pids", "tor2") is None and not Path(f"/proc/{pid}/cmdline").exists() \
            or Path(f"/proc/{pid}/cmdline").read_bytes() == b""
        fabric.recover(prefix, "tor", [2], root)
        assert procs.running(sdir / "pids", "tor2") not in (None, pid)
        with pytest.raises(fabric.FabricError, match="is not failed"):
            fabric.recover(prefix, "tor", [2], root)
        with pytest.raises(fabric.FabricError, match="ToR must be in 0..7"):
            fabric.fail(prefix, "link", [9, 0], root)
    finally:
        tear_down(env)


@pytest.mark.skipif("not __import__('controller.emulate.daemon', fromlist=['x']).available()",
                    reason="needs the controller daemon (`uro daemon`, issue 11), not on this branch yet: "
                           "rerouting around a failed link is the daemon's job")
def test_link_failure_traffic_keeps_flowing(tmp_path, state_root):
    """A ping stream between a pair whose route crosses a link; fail the link: the daemon
    routes around it (one-shot alternatives at once, then a new generation); loss during
    the transition is measured and reported; after it the stream flows again."""
    from emulate_tests.conftest import example

    import dataclasses

    cfg = dataclasses.replace(example(), prefix=f"{SESSION}d"[:6], state_root=state_root)
    plan = fabric.up(cfg, start_daemon=True, log=lambda m: None)
    try:
        time.sleep(3)   # the daemon pushes tables and starts the clock
        a, b = 0, 5
        from controller.emulate.network import Network

        route = Network(cfg).uro_routes.path(a, b, 0)
        tor, up = route[0][0], route[0][1]
        stream = subprocess.Popen(["ip", "netns", "exec", plan.host(f"h{a}_0").netns, "ping", "-n", "-i", "0.05",
                                   "-c", "200", "-W", "2", plan.host(f"h{b}_0").ip], stdout=subprocess.PIPE, text=True)
        time.sleep(3)
        fabric.fail(cfg.prefix, "link", [tor, up], state_root)
        out, _ = stream.communicate(timeout=60)
        seqs = sorted(int(x.split("icmp_seq=")[1].split()[0]) for x in out.splitlines() if "icmp_seq=" in x)
        lost = 200 - len(seqs)
        tail = [s for s in seqs if s >= 150]
        figure(f"[failure] link {tor}/{up} failed under a 20/s ping stream h{a}_0 -> h{b}_0: {lost}/200 lost")
        assert len(tail) >= 45, f"the stream did not recover: {len(tail)}/50 of the last pings answered"
    finally:
        fabric.down(cfg.prefix, state_root)
