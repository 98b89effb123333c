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


class _Overflowing:
    """A netlink socket stand-in: readable (one end of a socket pair), its first recv
    fails as an overflowed netlink socket's does (ENOBUFS), the next stops the watcher."""

    def __init__(self, watcher):
        import socket
        self.a, self.b = socket.socketpair()
        self.b.send(b"x")
        self.watcher, self.calls = watcher, 0

    def fileno(self) -> int:
        return self.a.fileno()

    def recv(self, n: int) -> bytes:
        import errno
        self.calls += 1
        if self.calls == 1:
            raise OSError(errno.ENOBUFS, "No buffer space available")
        self.watcher._stop.set()
        return b""

    def close(self) -> None:
        self.a.close()
        self.b.close()


def test_events_lost_to_an_overflowed_socket_are_read_again_and_the_watcher_goes_on():
    """A netlink socket whose buffer overflowed (ENOBUFS: another fabric's links made and
    removed beside this one) lost events: the watcher reads the interfaces' states again,
    reports the link that came back up meanwhile, and keeps watching."""
    got = []
    w = LinkWatcher(["up0", "down0"], lambda name, up, t: got.append((name, up)))
    real = w._sock
    w._sock = fake = _Overflowing(w)
    try:
        w.state = {"up0": False, "down0": False}
        w.initial = lambda: {"up0": True, "down0": None}
        w._run()
        assert got == [("up0", True)] and w.state == {"up0": True, "down0": False}
        assert fake.calls == 2                     # it went on reading after the overflow
    finally:
        fake.close()
        real.close()
