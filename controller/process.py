"""Processes uro starts (switches, the Tofino2 model and driver, the daemon of an emulated
fabric): recorded in PID files, stopped by PID after checking the PID is still the process
that was started, and waited for until their TCP server answers.

A PID file holds the PID and the exact command line; :func:`stop` signals the PID only if
``/proc/<pid>/cmdline`` is still that command line (a recycled PID is left alone), so
nothing is ever found or killed by a broad pattern: other engineers' switches run on the
same machine.
"""

from __future__ import annotations

import ipaddress
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from controller.errors import UroError


class ProcError(UroError):
    """A process could not be started, or did not come up."""


def start(name: str, argv: list[str], pid_dir: Path, log_dir: Path, env: dict | None = None,
          niceness: int = 0) -> int:
    """Start ``argv`` in its own session (it outlives the CLI), log to ``log_dir/name.log``.
    ``niceness`` is added to the process's nice value before it runs (a negative one only
    where the caller may raise priority, i.e. as root; else it is left as it is)."""
    pid_dir.mkdir(parents=True, exist_ok=True)
    log_dir.mkdir(parents=True, exist_ok=True)
    with open(log_dir / f"{name}.log", "ab") as log:
        try:
            p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 start_new_session=True, env=env,
                                 preexec_fn=reniced(niceness))
        except FileNotFoundError:
            raise ProcError(f"{argv[0]} not found on PATH") from None
    record(pid_dir, name, p.pid, argv)
    return p.pid


def owned_name(name: str, owner: int | None = None) -> str:
    """The PID-file name of ``name``, a process that must not outlive the process ``owner``
    (default: this one) that started it -- a test session's switch: ``<owner>.<name>``.
    A child started without a session of its own is not stopped when its starter is
    killed; :func:`reap_orphans` stops it later by this record."""
    return f"{os.getpid() if owner is None else owner}.{name}"


def gone_owner(name: str) -> tuple[int, str] | None:
    """(owner PID, the rest of the name) of a record named by :func:`owned_name` whose
    owner runs no more; None for a running owner's record or another name."""
    owner, _, rest = name.partition(".")
    if not owner.isdigit() or not rest or alive(int(owner)):
        return None
    return int(owner), rest


def reap_orphans(pid_dir: Path) -> list[str]:
    """Stop every process recorded in ``pid_dir`` under :func:`owned_name` whose owner is
    gone (a killed test session), by its PID only while its command line is still the one
    recorded (:func:`stop`); the records of running owners are left alone. Returns what
    was done."""
    done = []
    for name in pid_names(pid_dir):
        gone = gone_owner(name)
        if gone is None:
            continue
        rec = read_pid(pid_dir, name)
        if stop(pid_dir, name, timeout=2.0) and rec:
            done.append(f"stopped {gone[1]} (pid {rec[0]}; process {gone[0]} that started it is gone)")
    return done


def reniced(niceness: int) -> Callable[[], None] | None:
    """The ``preexec_fn`` of a child whose nice value moves by ``niceness`` (None: 0, as
    its parent runs)."""
    return (lambda: _renice(niceness)) if niceness else None


def _renice(niceness: int) -> None:
    """(In the child, before exec.) Its nice value moved by ``niceness``; a priority it may
    not take (not root) is not an error: it runs at the parent's."""
    try:
        os.nice(niceness)
    except OSError:
        pass


def record(pid_dir: Path, name: str, pid: int, argv: list[str]) -> None:
    """Write ``name``'s PID file (PID + exact command line) for a process started
    elsewhere, so :func:`stop` can find it after its starter died."""
    pid_dir.mkdir(parents=True, exist_ok=True)
    (pid_dir / f"{name}.pid").write_text(json.dumps({"pid": pid, "argv": list(argv)}) + "\n")


def forget(pid_dir: Path, name: str) -> None:
    """Remove ``name``'s PID file (its process was stopped by its owner)."""
    (pid_dir / f"{name}.pid").unlink(missing_ok=True)


def cmdline(pid: int) -> list[str] | None:
    """The command line of ``pid`` (None: no such process, or not readable)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return [a.decode(errors="replace") for a in raw.split(b"\0") if a]


def alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (a zombie counts; so does a reused PID: callers
    that act on a process check :func:`cmdline` too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _is_ours(pid: int, argv: list[str]) -> bool:
    cl = cmdline(pid)
    if not cl:
        return False
    return cl == argv


def read_pid(pid_dir: Path, name: str) -> tuple[int, list[str]] | None:
    """(PID, command line) of ``name``'s PID file, or None."""
    f = pid_dir / f"{name}.pid"
    try:
        d = json.loads(f.read_text())
        return int(d["pid"]), list(d["argv"])
    except (FileNotFoundError, ValueError, KeyError):
        return None


def running(pid_dir: Path, name: str) -> int | None:
    """The PID of ``name`` if the process we started is alive."""
    rec = read_pid(pid_dir, name)
    if rec and _is_ours(*rec):
        return rec[0]
    return None


KILL_WAIT_S = 10.0       # how long stop waits for a SIGKILLed process to be gone


def stop(pid_dir: Path, name: str, timeout: float = 5.0) -> bool:
    """SIGTERM (then SIGKILL after ``timeout``, and up to ``KILL_WAIT_S`` more for it to
    die) the process of ``name``'s PID file if it is still ours; remove the PID file. True
    if a process was stopped."""
    rec = read_pid(pid_dir, name)
    stopped = False
    if rec and _is_ours(*rec):
        pid = rec[0]
        try:
            os.kill(pid, signal.SIGTERM)
            end = time.time() + timeout
            while time.time() < end and _is_ours(pid, rec[1]) and not _zombie(pid):
                time.sleep(0.05)
            if _is_ours(pid, rec[1]) and not _zombie(pid):
                os.kill(pid, signal.SIGKILL)
            # until it is gone or a zombie: a dying process holds its ports after its
            # cmdline already reads empty (its memory goes first), and a switch restarted
            # at once then fails to bind them (seen under load 40). A killed process always
            # dies, but a large one on a loaded machine takes longer than a short SIGTERM
            # grace: its own bound
            end = time.time() + max(timeout, KILL_WAIT_S)
            while time.time() < end and not _zombie(pid):
                time.sleep(0.02)
            stopped = True
        except ProcessLookupError:
            pass
        _reap(pid)
    forget(pid_dir, name)
    return stopped


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds ``pid`` has used so far (``/proc/<pid>/stat``; a process
    that is gone raises FileNotFoundError): what the benchmarks measure a process by."""
    f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except (FileNotFoundError, IndexError):
        return True


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def pid_names(pid_dir: Path) -> list[str]:
    """The names that have a PID file in ``pid_dir``."""
    if not pid_dir.is_dir():
        return []
    return sorted(f.stem for f in pid_dir.glob("*.pid"))


def started(pid_dir: Path, name: str) -> bool:
    """Whether the process just started as ``name`` is still alive (by PID: right after
    the start its command line may still be the parent's, so :func:`running` cannot say)."""
    rec = read_pid(pid_dir, name)
    return rec is not None and not _zombie(rec[0])


# ---- readiness --------------------------------------------------------------------------------
#: /proc/net/tcp's state codes
_TCP_STATES = {"01": "ESTABLISHED", "02": "SYN_SENT", "03": "SYN_RECV", "04": "FIN_WAIT1", "05": "FIN_WAIT2",
               "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT", "09": "LAST_ACK", "0A": "LISTEN",
               "0B": "CLOSING"}


def _proc_address(hexaddr: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """An address as ``/proc/net/tcp{,6}`` writes it: hex, each 32-bit word in host order."""
    raw = bytes.fromhex(hexaddr)
    if sys.byteorder == "little":
        raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    return ipaddress.ip_address(raw)


def tcp_sockets(port: int) -> list[tuple[str, str]]:
    """(local address, state) of every TCP socket of this network namespace whose local
    port is ``port`` (``/proc/net/tcp`` and ``tcp6``): what holds a port a server is about
    to bind, read without opening a socket."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            f = line.split()
            if len(f) < 4:
                continue
            addr, _, hexport = f[1].partition(":")
            if int(hexport, 16) == port:
                found.append((str(_proc_address(addr)), _TCP_STATES.get(f[3], f[3])))
    return found


def listening(port: int) -> bool:
    """Whether a TCP server of this network namespace listens on ``port`` where
    127.0.0.1 reaches it (the wildcard or a loopback address, IPv4 or IPv6)."""
    for addr, state in tcp_sockets(port):
        if state != "LISTEN":
            continue
        ip = ipaddress.ip_address(addr)
        mapped = getattr(ip, "ipv4_mapped", None)
        if ip.is_unspecified or ip.is_loopback or (mapped is not None and (mapped.is_loopback or mapped.is_unspecified)):
            return True
    return False


def wait_port(port: int, timeout: float, exited: Callable[[], str | None] = lambda: None) -> None:
    """Until a TCP server listens on ``port`` (the server of a process just started), read
    from the kernel's socket table: a connecting probe would itself take an ephemeral port,
    and one whose source port is ``port`` connects to itself (TCP simultaneous open) and
    leaves the port in TIME-WAIT, so the server's bind fails (seen with bf_switchd's 50052).
    Raises :class:`ProcError` after ``timeout`` seconds, or as soon as ``exited()`` says why
    the process is gone or failed (:func:`popen_exited`, :func:`pid_exited`)."""
    end = time.time() + timeout
    while time.time() < end:
        why = exited()
        if why:
            raise ProcError(why)
        if listening(port):
            return
        time.sleep(0.05)
    raise ProcError(f"nothing listens on 127.0.0.1:{port} after {timeout:g} s")


def popen_exited(proc: subprocess.Popen | None) -> Callable[[], str | None]:
    """For :func:`wait_port`: why the child ``proc`` is gone, or None while it runs."""
    def why() -> str | None:
        if proc is None or proc.poll() is None:
            return None
        return f"the process (pid {proc.pid}) exited with {proc.returncode} during start-up"
    return why


def pid_exited(pid_dir: Path, name: str) -> Callable[[], str | None]:
    """For :func:`wait_port`: why the process of ``name``'s PID file is gone (by PID: right
    after the start its command line may still be the parent's), or None while it runs."""
    rec = read_pid(pid_dir, name)

    def why() -> str | None:
        if rec is None or _zombie(rec[0]):
            return f"exited during start-up (see its log in {pid_dir.parent / 'logs'})"
        return None
    return why
