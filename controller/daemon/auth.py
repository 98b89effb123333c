"""Who may use the daemon's status API: a bearer token for every write, reads
open to localhost (configurable), optional HTTPS.

Writes (``POST /fail``, ``/recover``, ``/reload``) fail a link or load another config, so
they need ``Authorization: Bearer <token>``. The token lives in a file only its owner
can read (mode 0600): the daemon creates it at start with a fresh random token when it
does not exist (``[daemon] token_file``, default ``<config stem>.token`` next to the
config), and refuses to start if an existing one is readable by others. ``uro ctl``
reads the same file. A request with a missing or wrong token is answered 401, nothing
is done, and it is counted (``uro_api_unauthorized_total``).

Reads (``GET``: the dashboard, ``/status``, ``/metrics``) are open to clients on the
loopback interface by default (``reads = "local"``); ``"open"`` lets anyone read, and
``"token"`` needs the token for reads too. ``tls_cert`` + ``tls_key`` serve the API over
HTTPS (clients verify it against ``tls_ca``, default the certificate itself).

Pure checks and file handling only; the HTTP server is :mod:`controller.daemon.api`.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.errors import UroError

#: who may read without the token
READS = ("local", "open", "token")


@dataclass(frozen=True)
class ApiAccess:
    token_file: Path
    reads: str = "local"
    tls_cert: Path | None = None
    tls_key: Path | None = None
    tls_ca: Path | None = None

    @property
    def scheme(self) -> str:
        return "https" if self.tls_cert is not None else "http"


def default_token_file(config: Path) -> Path:
    return config.with_name(config.stem + ".token")


def api_access(t: Any, src: Path) -> ApiAccess:
    """The ``[daemon]`` keys of the API's access, read from the config table ``t``."""
    token_file = t.path("token_file") or default_token_file(src)
    reads = t.get("reads", "str", "local")
    if reads not in READS:
        raise t.err("reads", f"one of {', '.join(map(repr, READS))}, got {reads!r}")
    cert, key, ca = t.path("tls_cert"), t.path("tls_key"), t.path("tls_ca")
    if (cert is None) != (key is None):
        raise t.err("tls_cert" if cert is None else "tls_key",
                    "tls_cert and tls_key go together (the API's HTTPS certificate and its key)")
    if ca is not None and cert is None:
        raise t.err("tls_ca", "only with tls_cert and tls_key (HTTPS for the API)")
    for name, p in (("tls_cert", cert), ("tls_key", key), ("tls_ca", ca)):
        if p is not None and not p.is_file():
            raise t.err(name, f"{p} not found")
    return ApiAccess(token_file, reads, cert, key, ca)


# ---- the token file --------------------------------------------------------------------------
def ensure_token(path: Path) -> str:
    """The daemon's token: read from ``path``, or a new random one written there 0600.

    An existing file must be a regular file readable by its owner only (else anyone who can
    read it could write to the API) and hold a token of at least 16 characters."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        return read_token(path, check_mode=True)
    except OSError as e:
        raise UroError(f"token file {path}: cannot create it: {e.strerror or e}") from None
    token = secrets.token_urlsafe(32)
    try:
        os.fchmod(fd, 0o600)               # whatever the umask
        os.write(fd, (token + "\n").encode())
    finally:
        os.close(fd)
    return token


def read_token(path: Path, check_mode: bool = False) -> str:
    """The token in ``path`` (what ``uro ctl`` sends); one line naming the problem."""
    try:
        st = os.stat(path)
        if check_mode:
            if not stat.S_ISREG(st.st_mode):
                raise UroError(f"token file {path}: not a regular file")
            if st.st_mode & 0o077:
                raise UroError(f"token file {path}: mode {stat.S_IMODE(st.st_mode):04o} lets other users read "
                               "it; chmod 600 it (or remove it: the daemon makes a new one)")
        text = Path(path).read_text().strip()
    except FileNotFoundError:
        raise UroError(f"token file {path}: not found (the daemon creates it at start)") from None
    except PermissionError:
        raise UroError(f"token file {path}: permission denied (only the daemon's operator may write "
                       "to its API)") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UroError(f"token file {path}: cannot read it: {getattr(e, 'strerror', None) or e}") from None
    if len(text) < 16 or any(c.isspace() for c in text):
        raise UroError(f"token file {path}: does not hold a token (one word of at least 16 characters)")
    return text


# ---- request checks (pure) -------------------------------------------------------------------
def bearer_ok(header: str | None, token: str) -> bool:
    """``Authorization: Bearer <token>`` with the right token (constant-time compare)."""
    if not header:
        return False
    scheme, _, given = header.strip().partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


def is_loopback(client_host: str) -> bool:
    try:
        a = ipaddress.ip_address(client_host.split("%")[0])
    except ValueError:
        return False
    if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped is not None:
        a = a.ipv4_mapped
    return a.is_loopback


def read_allowed(reads: str, client_host: str, authorized: bool) -> bool:
    return authorized or reads == "open" or (reads == "local" and is_loopback(client_host))


# ---- TLS ---------------------------------------------------------------------------------------
def server_context(acc: ApiAccess):
    import ssl

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        ctx.load_cert_chain(str(acc.tls_cert), str(acc.tls_key))
    except (ssl.SSLError, OSError) as e:
        raise UroError(f"[daemon] tls_cert {acc.tls_cert} / tls_key {acc.tls_key}: cannot load: {e}") from None
    return ctx


def client_context(ca: Path | None):
    """Verify the daemon's certificate against ``ca`` (a private CA or the self-signed
    certificate itself), else against the system's roots."""
    import ssl

    try:
        return ssl.create_default_context(cafile=str(ca) if ca else None)
    except (ssl.SSLError, OSError) as e:
        raise UroError(f"TLS CA {ca}: cannot load: {e}") from None
