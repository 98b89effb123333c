"""Link detection: netlink (pyroute2) link events of the uplink interfaces named in the
config (``ports.interfaces``), on the daemon's host (the emulated fabric's veths; on real
hardware, a switch's own port-status mechanism would feed the same callback).

An interface is up when its operational state is UP (or UNKNOWN with the lower layer
up, as some virtual links report); anything else -- DOWN, LOWERLAYERDOWN (the peer end
of a veth went down), NOTPRESENT, the interface deleted -- is down. Only changes are
reported; the state at start is reported once, so an uplink that is down when the
daemon starts is handled like any other failure.
"""

from __future__ import annotations

import errno
import select
import socket
import threading
import time
from typing import Callable

from controller.errors import UroError

IFF_LOWER_UP = 0x10000


def link_up(msg) -> bool:
    state = msg.get_attr("IFLA_OPERSTATE")
    if state == "UP":
        return True
    return state == "UNKNOWN" and bool((msg.get("flags") or 0) & IFF_LOWER_UP)


class LinkWatcher:
    """Calls ``on_change(interface, up, monotonic_time)`` from its own thread.

    Events come from a plain netlink socket bound to the link multicast group, parsed with
    pyroute2's rtnetlink marshal; pyroute2's IPRoute reads through an internal buffer that
    a ``select`` on its descriptor does not see, which delayed events until the next one."""

    def __init__(self, interfaces: list[str], on_change: Callable[[str, bool, float], None],
                 clock: Callable[[], float] = time.monotonic):
        try:
            from pyroute2.netlink.rtnl import RTMGRP_LINK
            from pyroute2.netlink.rtnl.marshal import MarshalRtnl
        except ImportError as e:  # pragma: no cover - depends on the install
            raise UroError(f"link detection needs pyroute2 (pip install -e '.[daemon]'): {e}") from None
        self.interfaces = set(interfaces)
        self.on_change = on_change
        self.clock = clock
        self.state: dict[str, bool] = {}
        self._marshal = MarshalRtnl()
        self._sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)   # (the kernel caps it)
        self._sock.bind((0, RTMGRP_LINK))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="uro-links", daemon=True)

    def initial(self) -> dict[str, bool | None]:
        """The interfaces' states now (None: no such interface)."""
        from pyroute2 import IPRoute

        out: dict[str, bool | None] = {}
        with IPRoute() as ipr:
            for name in sorted(self.interfaces):
                try:
                    msgs = ipr.link("get", ifname=name)
                except Exception:  # noqa: BLE001 - no such device
                    out[name] = None
                    continue
                out[name] = link_up(msgs[0]) if msgs else None
        return out

    def start(self) -> "LinkWatcher":
        for name, up in self.initial().items():
            self.state[name] = bool(up)
            if not up:
                self.on_change(name, False, self.clock())
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self._sock], [], [], 0.2)
                if not ready:
                    continue
                data = self._sock.recv(1 << 16)
            except OSError as e:
                if e.errno == errno.ENOBUFS and not self._stop.is_set():
                    self._resync()
                    continue
                return
            except ValueError:
                return
            t = self.clock()
            try:
                msgs = list(self._marshal.parse(data))
            except Exception:  # noqa: BLE001 - a message we cannot parse is not ours to act on
                continue
            for m in msgs:
                ev = m.get("event")
                if ev not in ("RTM_NEWLINK", "RTM_DELLINK"):
                    continue
                name = m.get_attr("IFLA_IFNAME")
                if name not in self.interfaces:
                    continue
                self._note(name, ev == "RTM_NEWLINK" and link_up(m), t)

    def _resync(self) -> None:
        """The socket's buffer overflowed (ENOBUFS: the link group's events came faster than
        they were read, e.g. while another fabric's veths are made beside this one) and
        events were lost: the watched interfaces are read again and what changed is
        reported, so a link that came back up meanwhile is not missed."""
        for name, up in self.initial().items():
            self._note(name, bool(up), self.clock())

    def _note(self, name: str, up: bool, t: float) -> None:
        """``name`` is ``up`` at ``t``: reported where that is a change."""
        if self.state.get(name) != up:
            self.state[name] = up
            self.on_change(name, up, t)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        try:
            self._sock.close()
        except OSError:
            pass
