"""A client of the daemon's status API (:mod:`controller.daemon.api`): what `uro ctl` and
`uro emulate` use to read the status and to declare failures and recoveries.

Plain HTTP(S)/JSON with the standard library; every problem is one :class:`UroError` line
(the daemon's own error message when it answered, else that nothing answers). Writes
carry the daemon's bearer token (:mod:`controller.daemon.auth`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from controller.daemon import auth
from controller.daemon.auth import client_context
from controller.daemon.config import load
from controller.errors import UroError


@dataclass(frozen=True)
class Api:
    """Where the API is and how to talk to it: ``host:port``, the token (None: reads
    only), ``https`` with the CA that signed the daemon's certificate."""
    address: str
    token: str | None = None
    scheme: str = "http"
    ca: Path | None = None

    @classmethod
    def of_config(cls, path: str | Path, address: str | None = None, token_file: str | Path | None = None,
                  need_token: bool = False) -> "Api":
        """The API of the daemon that runs ``path`` (its address unless ``address``; its
        token file unless ``token_file``; the token read only when ``need_token``)."""
        cfg = load(path)
        d = cfg.daemon
        acc = d.api or auth.ApiAccess(auth.default_token_file(cfg.path))
        if address is None:
            if d.status_port == 0:
                raise UroError(f"{path}: [daemon] status uses port 0 (any free port): give --api HOST:PORT "
                               "(the daemon logs it in its api.listening line)")
            host = f"[{d.status_host}]" if ":" in d.status_host else d.status_host
            if host in ("0.0.0.0", "[::]"):
                host = "127.0.0.1"
            address = f"{host}:{d.status_port}"
        tf = Path(token_file) if token_file else acc.token_file
        token = auth.read_token(tf) if need_token else None
        return cls(address, token, acc.scheme, acc.tls_ca or acc.tls_cert)

    def request(self, method: str, path: str, body: dict | None = None, timeout: float = 310.0):
        return request(self.address, method, path, body, timeout, token=self.token, scheme=self.scheme,
                       ca=self.ca)


def request(address: str, method: str, path: str, body: dict | None = None, timeout: float = 310.0, *,
            token: str | None = None, scheme: str = "http", ca: Path | None = None):
    """``method path`` at ``host:port``; the decoded JSON (``/metrics``: the raw bytes)."""
    import urllib.error
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(f"{scheme}://{address}{path}", data=data, method=method, headers=headers)
    ctx = None
    if scheme == "https":
        ctx = client_context(ca)
    try:
        with urllib.request.urlopen(req, timeout=timeout, context=ctx) as r:
            raw = r.read()
            return raw if path == "/metrics" else json.loads(raw)
    except urllib.error.HTTPError as e:
        try:
            msg = json.loads(e.read()).get("error", e.reason)
        except (ValueError, AttributeError):
            msg = e.reason
        if e.code == 401:
            msg = f"refused (401): {msg}"
        raise UroError(f"daemon at {address}: {msg}") from None
    except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
        reason = getattr(e, "reason", e)
        where = address if scheme == "http" else f"{scheme}://{address}"
        raise UroError(f"no daemon answers at {where} ({reason}); is `uro daemon --config ...` running?") from None
