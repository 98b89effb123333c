"""A client of the daemon's status API (:mod:`controller.daemon.api`): what `uro ctl` and
`uro emulate` use to read the status and to declare failures and recoveries.

Plain HTTP/JSON with the standard library; every problem is one :class:`UroError` line
(the daemon's own error message when it answered, else that nothing answers)."""

from __future__ import annotations

import json

from controller.errors import UroError


def request(address: str, method: str, path: str, body: dict | None = None, timeout: float = 310.0):
    """``method path`` at ``host:port``; the decoded JSON (``/metrics``: the raw bytes)."""
    import urllib.error
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://{address}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
            return raw if path == "/metrics" else json.loads(raw)
    except urllib.error.HTTPError as e:
        try:
            msg = json.loads(e.read()).get("error", e.reason)
        except (ValueError, AttributeError):
            msg = e.reason
        raise UroError(f"daemon at {address}: {msg}") from None
    except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
        reason = getattr(e, "reason", e)
        raise UroError(f"no daemon answers at {address} ({reason}); is `uro daemon --config ...` running?") from None
