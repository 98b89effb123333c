"""The fake switches of tests/daemon_fakes.py reached from other processes: the daemon's
worker processes (``[daemon] workers``) own their sessions, the test process owns the
devices, so a worker killed mid-pass leaves its switches as they were -- their clocks,
entries and primary -- for the new owner, as real switches are.

- :class:`FakeNetwork` (test process): serves ``{address: FakeSwitch}`` on the loopback
  (:mod:`multiprocessing.connection`, a thread per connection); every backend call of a
  worker runs there on a :class:`~daemon_fakes.FakeBackend` of its own session, so the fakes'
  checks (a write the switch refuses, a lost primary) and their clocks (the host's
  CLOCK_MONOTONIC, which every process of the host reads) are the one-process tests'.
- :class:`RemoteFakeBackend` (worker process): the ``bmv2`` backend whose calls go to that
  server; ``tests/remote_fakes_preload.py`` (a Dask worker preload) installs it.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import threading
import time
from multiprocessing.connection import Client, Listener

from controller.agent import backend as backends
from controller.agent.backend import BackendError, SwitchAddress, SwitchBackend

ENV = "URO_TEST_FAKE_NETWORK"           # host:port of the server (inherited by the workers)
AUTHKEY = b"uro-test-fakes"


class FakeNetwork:
    """``{address: FakeSwitch}`` served to other processes, one FakeBackend per session a
    worker opened; ``with`` it, the workers started meanwhile find it through :data:`ENV`."""

    def __init__(self, network: dict):
        from daemon_fakes import make_backend_for
        self.network = network
        self.cls = make_backend_for(network)("bmv2")
        self.sessions: dict[int, object] = {}
        self.ids = itertools.count(1)
        self.lock = threading.Lock()
        self.listener: Listener | None = None

    def __enter__(self) -> "FakeNetwork":
        self.listener = Listener(("127.0.0.1", 0), authkey=AUTHKEY)
        threading.Thread(target=self._accept, name="fake-network", daemon=True).start()
        host, port = self.listener.address
        os.environ[ENV] = f"{host}:{port}"
        return self

    def __exit__(self, *exc) -> None:
        os.environ.pop(ENV, None)
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                c = self.listener.accept()
            except OSError:
                return                   # closed
            threading.Thread(target=self._serve, args=(c,), name="fake-network-conn", daemon=True).start()

    def _serve(self, c) -> None:
        with c:
            while True:
                try:
                    req = c.recv()
                except (EOFError, OSError):
                    return               # the worker closed it or died
                c.send(self._handle(*req))

    def _handle(self, sid: int, method: str, args: tuple):
        """``method`` of session ``sid`` (0: open one): ``("ok", result)`` or ``("error",
        class name, message)`` (a backend's error crosses as its name: its class may not
        pickle)."""
        if sid == 0:
            with self.lock:
                sid = next(self.ids)
                self.sessions[sid] = self.cls(*args)
            return "ok", sid
        b = self.sessions[sid]
        try:
            if method == "connected":
                return "ok", b.connected
            return "ok", getattr(b, method)(*args)
        except BackendError as e:
            return "error", type(e).__name__, str(e)


_conn = None
_conn_lock = threading.Lock()


def _call(sid: int, method: str, args: tuple):
    """One call to the fake network, on this process's connection (calls are short)."""
    global _conn
    with _conn_lock:
        if _conn is None:
            host, port = os.environ[ENV].rsplit(":", 1)
            _conn = Client((host, int(port)), authkey=AUTHKEY)
        _conn.send((sid, method, args))
        out = _conn.recv()
    if out[0] == "ok":
        return out[1]
    cls = getattr(backends, out[1], None)
    raise (cls if isinstance(cls, type) and issubclass(cls, BackendError) else BackendError)(out[2])


class RemoteFakeBackend(SwitchBackend):
    """A fake switch's session held by this process, its device in the test process."""

    target = "bmv2"
    concurrent_apply = True
    reads_by_key = True

    def __init__(self, address: SwitchAddress):
        super().__init__(address)
        self.sid = _call(0, "open", (address,))

    def _call(self, method: str, *args):
        return _call(self.sid, method, args)

    @property
    def connected(self) -> bool:
        return self._call("connected")

    def connect(self) -> None:
        self._call("connect")

    def close(self) -> None:
        self._call("close")

    def pipeline_cookie(self):
        return self._call("pipeline_cookie")

    def set_pipeline(self, pipeline, force: bool = False) -> bool:
        return self._call("set_pipeline", pipeline, force)

    def read_state(self):
        return self._call("read_state")

    def read_objects(self, objects):
        return self._call("read_objects", objects)

    def apply(self, diff, progress=None):
        return self._call("apply", diff)

    def send_timer(self, slice_id: int, sync: bool = False) -> None:
        self._call("send_timer", slice_id, sync)

    def read_counters(self):
        return self._call("read_counters")

    def read_clock(self) -> dict[str, int]:
        return self._call("read_clock")

    def probe_clock(self, timeout_s: float = 1.0):
        """Timed on this process's side, as a probe is (ClockProbe: the reader's clock just
        before it left and when its answer arrived): the call's way to the device and back
        is the PacketOut's and the PacketIn's."""
        sent = time.monotonic_ns()
        p = self._call("probe_clock", timeout_s)
        return dataclasses.replace(p, sent_ns=sent, received_ns=time.monotonic_ns())

    def seed_clock(self, k: int, phase_ns: int, reference: bool, lead: bool = False) -> None:
        self._call("seed_clock", k, phase_ns, reference, lead)


def install() -> None:
    """In a worker process: the ``bmv2`` target is the fake network's."""
    def backend_for(target: str):
        if target != "bmv2":
            raise BackendError(f"no switch backend for target {target!r} (available: bmv2)")
        return RemoteFakeBackend
    backends.backend_for = backend_for
