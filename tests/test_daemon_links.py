"""Link detection over netlink on a real veth pair (needs root: skipped otherwise)."""

import os
import subprocess
import threading
import time

import pytest

pytest.importorskip("pyroute2")

from controller.daemon.links import LinkWatcher  # noqa: E402


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to create a veth pair")
def test_veth_down_and_up_are_reported_once_each():
    """The far end of a veth goes down, then up: the watched end is reported down, then up,
    once each, each change before the next one happens (how soon is a figure: the cable
    cut row of `uro bench --suite emulate`, the daemon's mask a few ms after the cut)."""
    a, b = f"ul{os.getpid() % 100000}a", f"ul{os.getpid() % 100000}b"
    subprocess.run(["ip", "link", "add", a, "type", "veth", "peer", "name", b], check=True)
    try:
        for x in (a, b):
            subprocess.run(["ip", "link", "set", x, "up"], check=True)
        time.sleep(0.2)
        got, cond = [], threading.Condition()

        def on(name, up, t):
            with cond:
                got.append((name, up))
                cond.notify_all()
        w = LinkWatcher([a, "no-such-if0"], on)
        assert w.initial() == {a: True, "no-such-if0": None}
        w.start()
        assert got == [("no-such-if0", False)]      # a missing interface is reported down at start
        subprocess.run(["ip", "link", "set", b, "down"], check=True)   # the cable's other end
        with cond:
            assert cond.wait_for(lambda: (a, False) in got, 30)
        subprocess.run(["ip", "link", "set", b, "up"], check=True)
        with cond:
            assert cond.wait_for(lambda: (a, True) in got, 30)
        w.stop()
        assert [g for g in got if g[0] == a] == [(a, False), (a, True)]
    finally:
        subprocess.run(["ip", "link", "del", a], capture_output=True)
