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
        with cond:                                   # a missing interface is reported down at start
            cond.wait_for(lambda: ("no-such-if0", False) in got, 2)
        t0 = time.monotonic()
        subprocess.run(["ip", "link", "set", b, "down"], check=True)   # the cable's other end
        with cond:
            assert cond.wait_for(lambda: (a, False) in got, 5)
        took = time.monotonic() - t0
        subprocess.run(["ip", "link", "set", b, "up"], check=True)
        with cond:
            assert cond.wait_for(lambda: (a, True) in got, 5)
        w.stop()
        assert [g for g in got if g[0] == a] == [(a, False), (a, True)]
        assert took < 2.0
    finally:
        subprocess.run(["ip", "link", "del", a], capture_output=True)
