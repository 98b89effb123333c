"""The daemon's status API: HTTP on localhost unless the config binds it elsewhere.

    GET  /                the live dashboard (HTML/JS/CSS shipped in the package: dashboard/)
    GET  /status          JSON: switches, sessions, generations, entries, errors, clock, failures
    GET  /schedule        JSON: the schedule's circuits (peer[slice][tor][uplink]) and ToR names
    GET  /clock/timers    JSON: when each switch was sent each of the last slices' timers
    GET  /metrics         Prometheus text format (prometheus_client)
    POST /fail            {"uplink": [tor, u]} | {"tor": t} | {"ocs": u} | {"circuit": [s, tor, u]}
                          -> the handling report
    POST /recover         same body
    POST /reload          {} or {"config": "path"}                        -> {"ok": ..., "error": ...}

Write operations run on the control thread (jobs), so they are serialized with
everything else the controller does; the request waits for the report. Every write needs
the daemon's bearer token; reads are open to localhost unless the config says otherwise
(:mod:`controller.daemon.auth`); a refused request is 401, does nothing, and is counted.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from controller.daemon import auth
from controller.daemon.controller import Controller
from controller.errors import UroError

#: how long a POST waits for the control thread
WAIT_S = 300.0


#: the dashboard's files (package data) and their content types
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8"}


def _asset(name: str) -> tuple[bytes, str] | None:
    """A file of the dashboard shipped in the package; None for anything else."""
    from importlib import resources

    if "/" in name or name.startswith(".") or Path(name).suffix not in _TYPES:
        return None
    f = resources.files("controller.daemon").joinpath("dashboard", name)
    if not f.is_file():
        return None
    return f.read_bytes(), _TYPES[Path(name).suffix]


def schedule_doc(ctl: Controller) -> dict:
    """The circuits the OCSes run (the configured schedule; failures are in /status)."""
    cfg, routes = ctl.current()
    sched = routes.schedule
    names = {s.tor: s.name for s in cfg.switches if s.tor is not None}
    return {"name": sched.name, "tors": sched.n_tors, "uplinks": sched.n_uplinks, "slices": sched.n_slices,
            "names": [names.get(t) for t in range(sched.n_tors)], "peer": sched.peer.tolist()}


def _handler(ctl: Controller, token: str, reads: str):
    class Handler(BaseHTTPRequestHandler):
        server_version = "uro-daemon"

        def log_message(self, fmt, *args):      # requests are not events worth a log line
            pass

        def _send(self, code: int, body: bytes, ctype: str = "application/json") -> None:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _json(self, code: int, doc) -> None:
            self._send(code, (json.dumps(doc, indent=1, default=str) + "\n").encode())

        def _authorized(self) -> bool:
            return auth.bearer_ok(self.headers.get("Authorization"), token)

        def _refuse(self, method: str, why: str) -> None:
            """401, nothing done, counted; the body is drained so the client sees the answer."""
            ctl.metrics.api_unauthorized.labels(method).inc()
            n = int(self.headers.get("Content-Length") or 0)
            if 0 < n <= 1 << 20:
                self.rfile.read(n)
            body = (json.dumps({"error": why}) + "\n").encode()
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Bearer realm="uro"')
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if not auth.read_allowed(reads, self.client_address[0], self._authorized()):
                return self._refuse("GET", "reading this API needs the daemon's token here "
                                    f"(reads = {reads!r}): Authorization: Bearer <token file's content>")
            path = self.path.split("?", 1)[0]
            if path == "/status":
                self._json(200, ctl.status())
            elif path == "/schedule":
                self._json(200, schedule_doc(ctl))
            elif path == "/clock/timers":
                self._json(200, ctl.timer_log())
            elif path in ("/", "/dashboard", "/index.html") or path.startswith("/ui/"):
                asset = _asset("index.html" if not path.startswith("/ui/") else path[len("/ui/"):])
                if asset is None:
                    return self._json(404, {"error": f"no such resource {self.path}"})
                self._send(200, *asset)
            elif self.path == "/metrics":
                from prometheus_client import CONTENT_TYPE_LATEST

                self._send(200, ctl.metrics.render(), CONTENT_TYPE_LATEST)
            else:
                self._json(404, {"error": f"no such resource {self.path} (GET /, /status, /schedule, /clock/timers, /metrics)"})

        def do_POST(self):
            if not self._authorized():
                return self._refuse("POST", "writes need the daemon's token (Authorization: Bearer <the token "
                                    "file's content>; `uro ctl` reads the file named by [daemon] token_file)"
                                    if not self.headers.get("Authorization") else "wrong token")
            n = int(self.headers.get("Content-Length") or 0)
            try:
                doc = json.loads(self.rfile.read(n) or b"{}") if n else {}
            except json.JSONDecodeError as e:
                return self._json(400, {"error": f"body is not JSON: {e}"})
            op = self.path.strip("/")
            if op in ("fail", "recover"):
                try:
                    change = ctl.parse_change(op, doc)
                except UroError as e:
                    return self._json(400, {"error": str(e)})
                change.source = "api"
                ctl.submit(change)
                if not change.done.wait(WAIT_S):
                    return self._json(504, {"error": "the controller did not finish in time; see /status"})
                return self._json(200, change.report)
            if op == "reload":
                res = ctl.request_reload(doc.get("config")).wait(WAIT_S)
                if res is None:
                    return self._json(504, {"error": "the reload did not finish in time; see /status"})
                return self._json(200 if res.get("ok") else 409, res)
            self._json(404, {"error": f"no such operation {self.path} (POST /fail, /recover, /reload)"})

    return Handler


class _Server(ThreadingHTTPServer):
    tls = None

    def finish_request(self, request, client_address):
        """The TLS handshake in the request's own thread: a client that never completes
        one holds up nobody else."""
        if self.tls is not None:
            import ssl

            request.settimeout(10.0)
            try:
                request = self.tls.wrap_socket(request, server_side=True)
            except (ssl.SSLError, OSError):
                return
            request.settimeout(None)
        super().finish_request(request, client_address)


class StatusServer:
    """The API on ``host:port``: writes need ``token``; ``reads`` as in
    :data:`controller.daemon.auth.READS`; ``tls`` an :class:`ssl.SSLContext` for HTTPS."""

    def __init__(self, ctl: Controller, host: str, port: int, *, token: str, reads: str = "local", tls=None):
        self.httpd = _Server((host, port), _handler(ctl, token, reads))
        self.httpd.tls = tls
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="uro-status", daemon=True)

    @property
    def address(self) -> tuple[str, int]:
        return self.httpd.server_address[:2]

    def start(self) -> "StatusServer":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
