"""`uro daemon`: the process around :class:`Controller` -- its threads, the status API,
link detection and signals.

Threads: control (failure/recovery/reload jobs, one at a time), maintenance (reconnect,
restore, reconcile, counters), the slice clock (sync mode: seeds and watches the switches'
own clocks; timer mode: sends every slice's timer), the HTTP status API, the link watcher.
SIGTERM/SIGINT stop cleanly (sessions closed; switches keep forwarding what they hold);
SIGHUP reloads the config (a bad one is refused and the running one stays); SIGUSR1 logs
where every thread is (``daemon.threads``), for a daemon that seems stuck.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
import traceback
from pathlib import Path

from controller import memory
from controller.daemon import auth
from controller.daemon.api import StatusServer
from controller.daemon.changes import Change
from controller.daemon.config import ConfigError, NetConfig, load
from controller.daemon.controller import WARM_WAIT_S, Controller
from controller.daemon.links import LinkWatcher
from controller.daemon.log import EventLog
from controller.daemon.plan import Prepared
from controller.errors import UroError

#: maintenance pass period (reconnects and reconcile deadlines are checked this often)
MAINTAIN_S = 0.2
#: clock supervision pass period (sync mode: seeds, register reads and probes fall due on it)
WATCH_S = 0.1


class Daemon:
    def __init__(self, config: str | Path, *, backend_for=None, log: EventLog | None = None):
        self.path = Path(config)
        self.cfg: NetConfig = load(self.path)
        self.log = log or EventLog(self.cfg.daemon.log_format)
        kw = {} if backend_for is None else {"backend_for": backend_for}
        if self.cfg.daemon.workers:      # switches owned by worker processes (docs/daemon.md "Workers")
            from controller.daemon.workers import DistributedController
            self.ctl = DistributedController(self.cfg, log=self.log, **kw)
        else:
            self.ctl = Controller(self.cfg, log=self.log, **kw)
        self.stop = threading.Event()
        self.server: StatusServer | None = None
        self.links = None
        self._threads: list[threading.Thread] = []

    # ---- loops -----------------------------------------------------------------------------
    def _control(self) -> None:
        while not self.stop.is_set():
            try:
                self.ctl.handle_jobs(block=0.1)
            except Exception as e:  # a bug must not kill the control thread silently
                self.log.error("control.failed", error=repr(e))

    def _maintain(self) -> None:
        while not self.stop.wait(MAINTAIN_S):
            try:
                self.ctl.maintain()
            except Exception as e:
                self.log.error("maintenance.failed", error=repr(e))

    def _watch(self) -> None:
        while not self.stop.wait(WATCH_S):
            try:
                self.ctl.watch_clocks()
            except Exception as e:
                self.log.error("clock.watch_failed", error=repr(e))

    def _clock(self) -> None:
        ctl = self.ctl
        if ctl.cwatch is not None:
            return self._watch()
        while not self.stop.is_set():
            wait = ctl.sclock.next_time() - ctl.clock()
            if wait > 0.002:          # sleep most of the way, then step up to the slice start
                self.stop.wait(min(wait - 0.0015, 0.5))
                continue
            if wait > 0:
                time.sleep(0.0001)
                continue
            try:
                ctl.tick()
            except Exception as e:
                self.log.error("clock.failed", error=repr(e))

    # ---- link detection --------------------------------------------------------------------
    def _interfaces(self) -> dict[str, tuple[int, int]]:
        out = {}
        for s in self.ctl.cfg.switches:
            if s.ports is not None and s.tor is not None:
                for u, ifc in enumerate(s.ports.interfaces):
                    if ifc:
                        out[ifc] = (s.tor, u)
        return out

    def _on_link(self, ifname: str, up: bool, t: float) -> None:
        where = self._interfaces().get(ifname)
        if where is None:
            return
        self.log.event("link.changed", interface=ifname, up=up, tor=where[0], uplink=where[1])
        self.ctl.submit(Change("recover" if up else "fail", "uplink", where, source="netlink", detected=t))

    def _start_links(self) -> None:
        ifs = self._interfaces()
        if not ifs:
            return
        self.links = LinkWatcher(sorted(ifs), self._on_link, clock=self.ctl.clock)
        now = self.links.initial()
        missing = [n for n, up in now.items() if up is None]
        if missing:
            self.log.warn("links.missing", interfaces=missing,
                          note="named in ports.interfaces but not on this host: treated as down")
        self._links_up_at_start({ifs[n] for n, up in now.items() if up})
        self.links.start()
        self.log.event("links.watching", interfaces=sorted(ifs))

    def _links_up_at_start(self, up: set[tuple[int, int]]) -> None:
        """A data-plane mark of an uplink whose link is up now (it went down and came back
        while no daemon watched: Tofino2's link_down_reg) is cleared as a recovery's would
        be (:meth:`SwitchAgent.links_came_up`); nothing for targets without such marks."""
        for a in list(self.ctl.agents.values()):
            mine = frozenset(u for tor, u in up if tor == a.cfg.tor)
            if mine and a.cfg.tor is not None:
                a.links_came_up(mine)

    # ---- run ----------------------------------------------------------------------------------
    def _reload(self, *_):
        self.ctl.request_reload()

    def _dump_threads(self, *_):
        """SIGUSR1: log every thread's stack from a thread of its own (the handler runs in
        the main thread, which may hold the log's lock)."""
        threading.Thread(target=lambda: self.log.event("daemon.threads", threads=thread_stacks()),
                         name="uro-threads", daemon=True).start()

    def _term(self, signum, _frame):
        self.log.event("daemon.signal", signal=signal.Signals(signum).name)
        self.stop.set()

    def start(self) -> "Daemon":
        """Everything up (raises ConfigError before any write if the network is not right)."""
        d = self.cfg.daemon
        acc = d.api or auth.ApiAccess(auth.default_token_file(self.cfg.path))
        try:   # token and certificate first: a bad one stops the daemon before it touches a switch
            token = auth.ensure_token(acc.token_file)
            tls = auth.server_context(acc) if acc.tls_cert is not None else None
        except UroError as e:
            raise ConfigError(f"{self.cfg.path}: [daemon]: {e}") from None
        try:   # bind first: a taken port stops the daemon before it touches a switch
            self.server = StatusServer(self.ctl, d.status_host, d.status_port, token=token, reads=acc.reads,
                                       tls=tls)
        except OSError as e:
            raise ConfigError(f"{self.cfg.path}: [daemon]: status: cannot listen on "
                              f"{d.status_host}:{d.status_port}: {e.strerror or e}") from None
        try:
            self.ctl.start(on_clock=lambda: self._thread(self._clock, "uro-clock"))
        except BaseException:
            self.stop.set()
            for t in self._threads:
                t.join(timeout=5)
            self.server.httpd.server_close()
            raise
        self.server.start()
        host, port = self.server.address
        self.log.event("api.listening", address=f"{host}:{port}", url=f"{acc.scheme}://{host}:{port}/",
                       token_file=str(acc.token_file), reads=acc.reads,
                       note=None if host in ("127.0.0.1", "::1", "localhost") or acc.scheme == "https" else
                       "bound beyond localhost without TLS: the token travels in clear text")
        self._start_links()
        self._thread(self._control, "uro-control")
        self._thread(self._maintain, "uro-maintain")
        return self

    def _thread(self, fn, name: str) -> None:
        t = threading.Thread(target=fn, name=name, daemon=True)
        t.start()
        self._threads.append(t)

    def shutdown(self, process_ends: bool = False) -> None:
        """Stop the threads, the API and the sessions; ``process_ends``: the process exits
        next (:meth:`run`), so a warm-up still compiling is not waited for."""
        self.stop.set()
        if self.links is not None:
            self.links.stop()
        if self.server is not None:
            self.server.stop()
        for t in self._threads:
            t.join(timeout=5)
        self.ctl.shutdown(0.0 if process_ends else WARM_WAIT_S)

    def run(self) -> int:
        """Until SIGTERM/SIGINT; SIGHUP reloads. The process is the daemon's own: what its
        bursts leave alive is frozen, not walked by the collector again
        (:func:`controller.memory.freeze_after_bursts`)."""
        memory.freeze_after_bursts()
        signal.signal(signal.SIGTERM, self._term)
        signal.signal(signal.SIGINT, self._term)
        signal.signal(signal.SIGHUP, self._reload)
        signal.signal(signal.SIGUSR1, self._dump_threads)
        self.start()
        try:
            while not self.stop.wait(0.5):
                pass
        finally:
            self.shutdown(process_ends=True)
        return 0


def thread_stacks() -> dict[str, list[str]]:
    """{thread name: its stack, innermost call last, one ``file:line in function`` per
    frame} for every thread of this process: what ``daemon.threads`` logs. Two threads of
    one name are told apart by their ident."""
    names = {t.ident: t.name for t in threading.enumerate()}
    out: dict[str, list[str]] = {}
    for ident, frame in sys._current_frames().items():
        name = names.get(ident, "thread")
        key = name if name not in out else f"{name} ({ident})"
        out[key] = [f"{f.filename}:{f.lineno} in {f.name}" for f in traceback.extract_stack(frame)]
    return out


def check(config: str | Path, backend_for=None, log: EventLog | None = None) -> dict:
    """`uro daemon --check`: everything start does except writing -- config, schedule,
    programs, routes, entries, and a session to every switch (closed again)."""
    d = Daemon(config, backend_for=backend_for, log=log)
    ctl = d.ctl
    t0 = time.perf_counter()
    prep = Prepared(d.cfg, ctl.failed, ctl.backend_for)
    switches = ctl.check_switches(prep)
    return {"switches": switches, "routes_s": round(prep.routes.seconds, 3),
            "seconds": round(time.perf_counter() - t0, 3)}
