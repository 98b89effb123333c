"""Readiness of a started server (:func:`controller.process.wait_port`) is read from the
kernel's socket table, never probed by connecting: a probe whose ephemeral source port is
the awaited port connects to itself and leaves that port in TIME-WAIT, so the server's own
bind then fails (bf_switchd's BfRt port 50052 lies in the ephemeral range)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import textwrap

import pytest

from controller import process
from controller.process import ProcError


def _listener(family=socket.AF_INET, host="127.0.0.1") -> socket.socket:
    s = socket.socket(family, socket.SOCK_STREAM)
    s.bind((host, 0))
    s.listen()
    return s


def test_a_listening_server_is_seen_on_loopback_and_wildcard_addresses():
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET, "0.0.0.0"),
                         (socket.AF_INET6, "::1"), (socket.AF_INET6, "::")):
        if family == socket.AF_INET6 and not socket.has_ipv6:
            continue
        try:
            s = _listener(family, host)
        except OSError:                       # no IPv6 loopback in this namespace
            continue
        with s:
            port = s.getsockname()[1]
            assert process.listening(port), (host, process.tcp_sockets(port))
            assert ("LISTEN" in {st for _, st in process.tcp_sockets(port)})
            process.wait_port(port, 5.0)
        assert not process.listening(port)


def test_a_bound_socket_that_does_not_listen_is_no_server():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        assert not process.listening(port)
        with pytest.raises(ProcError, match=f"nothing listens on 127.0.0.1:{port} after 0.3 s"):
            process.wait_port(port, 0.3)


def test_the_wait_ends_with_the_reason_the_process_gave_up():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        with pytest.raises(ProcError, match="^gone$"):
            process.wait_port(s.getsockname()[1], 30.0, lambda: "gone")


def test_a_client_connection_is_listed_with_its_state_but_is_no_server():
    with _listener() as srv, socket.create_connection(srv.getsockname()) as c:
        local = c.getsockname()[1]
        assert ("127.0.0.1", "ESTABLISHED") in process.tcp_sockets(local)
        assert not process.listening(local)


_PROBE = textwrap.dedent("""
    import socket, sys
    from controller import process
    try:
        process.wait_port(40000, 1.0)
    except process.ProcError:
        pass
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("0.0.0.0", 40000))
        s.listen()
    except OSError as e:
        sys.exit(f"the server could not bind the awaited port: {e}; held: {process.tcp_sockets(40000)}")
""")


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None,
                    reason="needs root, unshare and ip (a network namespace of its own)")
def test_waiting_for_a_port_never_takes_it_from_the_server():
    """In a network namespace whose ephemeral range is the awaited port and the one after
    it, a connecting probe takes the awaited port within a few tries (self-connect, then
    TIME-WAIT); the wait must leave it free for the server to bind."""
    script = ("ip link set lo up && echo '40000 40001' > /proc/sys/net/ipv4/ip_local_port_range && "
              f"exec {sys.executable} -c \"$PROBE\"")
    r = subprocess.run(["unshare", "-n", "sh", "-c", script], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PROBE=_PROBE), cwd=os.path.dirname(os.path.dirname(__file__)))
    assert r.returncode == 0, r.stderr
