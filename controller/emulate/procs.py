"""Processes of an emulated fabric (switches, the daemon): started detached, recorded in
PID files, stopped by PID after checking the PID is still the process we started.

A PID file holds the PID and the exact command line; ``stop`` signals the PID only if
``/proc/<pid>/cmdline`` is still that command line (a recycled PID is left alone), so
nothing is ever found or killed by a broad pattern.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

from controller.emulate.plan import SwitchPlan
from controller.errors import UroError


class ProcError(UroError):
    pass


def switch_command(sw: SwitchPlan, extra: tuple[str, ...] = (), target: tuple[str, ...] = ()) -> list[str]:
    """simple_switch_grpc for one switch: no program (the daemon sets the pipeline over
    P4Runtime), its interfaces as ports, P4Runtime on localhost, the CPU port for PacketOut."""
    from controller.agent.bmv2_process import Bmv2Switch

    return Bmv2Switch.for_plan(sw, Path("."), extra, target).command()   # the one switch-process class


def python_env() -> dict:
    """The environment of a uro process the fabric starts (the daemon, the packet
    generator): this checkout on PYTHONPATH, unbuffered output for its log."""
    import controller

    repo = str(Path(controller.__file__).resolve().parents[1])
    return {**os.environ, "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": os.pathsep.join(x for x in (repo, os.environ.get("PYTHONPATH", "")) if x)}


def start(name: str, argv: list[str], pid_dir: Path, log_dir: Path, env: dict | None = None) -> int:
    """Start ``argv`` in its own session (it outlives the CLI), log to ``log_dir/name.log``."""
    pid_dir.mkdir(parents=True, exist_ok=True)
    log_dir.mkdir(parents=True, exist_ok=True)
    with open(log_dir / f"{name}.log", "ab") as log:
        try:
            p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 start_new_session=True, env=env)
        except FileNotFoundError:
            raise ProcError(f"{argv[0]} not found on PATH") from None
    record(pid_dir, name, p.pid, argv)
    return p.pid


def record(pid_dir: Path, name: str, pid: int, argv: list[str]) -> None:
    """Write ``name``'s PID file (PID + exact command line) for a process started
    elsewhere, so :func:`stop` can find it after its starter died."""
    pid_dir.mkdir(parents=True, exist_ok=True)
    (pid_dir / f"{name}.pid").write_text(json.dumps({"pid": pid, "argv": list(argv)}) + "\n")


def forget(pid_dir: Path, name: str) -> None:
    """Remove ``name``'s PID file (its process was stopped by its owner)."""
    (pid_dir / f"{name}.pid").unlink(missing_ok=True)


def _cmdline(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return [a.decode(errors="replace") for a in raw.split(b"\0") if a]


def _is_ours(pid: int, argv: list[str]) -> bool:
    cl = _cmdline(pid)
    if not cl:
        return False
    return cl == argv


def read_pid(pid_dir: Path, name: str) -> tuple[int, list[str]] | None:
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


def stop(pid_dir: Path, name: str, timeout: float = 5.0) -> bool:
    """SIGTERM (then SIGKILL after ``timeout``, and up to ``timeout`` more for it to die)
    the process of ``name``'s PID file if it is still ours; remove the PID file. True if a
    process was stopped."""
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
            # at once then fails to bind them (seen under load 40)
            end = time.time() + timeout
            while time.time() < end and not _zombie(pid):
                time.sleep(0.02)
            stopped = True
        except ProcessLookupError:
            pass
        _reap(pid)
    forget(pid_dir, name)
    return stopped


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
    if not pid_dir.is_dir():
        return []
    return sorted(f.stem for f in pid_dir.glob("*.pid"))


def started(pid_dir: Path, name: str) -> bool:
    """Whether the process just started as ``name`` is still alive (by PID: right after
    the start its command line may still be the parent's, so :func:`running` cannot say)."""
    rec = read_pid(pid_dir, name)
    return rec is not None and not _zombie(rec[0])


def wait_port(port: int, pid_dir: Path, name: str, timeout: float = 30.0) -> None:
    """Until something accepts TCP on 127.0.0.1:``port`` (the switch's gRPC server)."""
    rec = read_pid(pid_dir, name)
    end = time.time() + timeout
    while time.time() < end:
        # alive by PID (right after the start its cmdline may still be the parent's)
        if rec is None or _zombie(rec[0]):
            raise ProcError(f"{name} exited during start-up (see its log in {pid_dir.parent / 'logs'})")
        with socket.socket() as s:
            s.settimeout(0.2)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise ProcError(f"{name} did not open 127.0.0.1:{port} within {timeout:g}s")


def set_queue_rates(thrift_port: int, rates: dict[int, int], name: str, priority: int | None = None) -> None:
    """Egress queue rate (packets/s, 0 = unlimited) per port over the switch's Thrift
    runtime (``simple_switch_CLI set_queue_rate``); one priority queue or all of them."""
    if not rates:
        return
    pri = "" if priority is None else f" {priority}"
    cmds = "".join(f"set_queue_rate {pps} {port}{pri}\n" for port, pps in sorted(rates.items()))
    try:
        r = subprocess.run(["simple_switch_CLI", "--thrift-port", str(thrift_port)], input=cmds,
                           capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        raise ProcError("simple_switch_CLI not found on PATH (it comes with bmv2)") from None
    if r.returncode != 0 or "Error" in r.stdout:
        raise ProcError(f"{name}: set_queue_rate failed: {(r.stderr or r.stdout).strip()[-200:]}")


def read_counters(thrift_port: int, contract: dict, name: str) -> dict[str, dict[str, int]]:
    """``{counter: {cell: packets}}`` of every counter the pipeline contract names, read over
    the switch's Thrift runtime (``simple_switch_CLI counter_read``): the switch's own view,
    out of band, so it neither needs nor disturbs the daemon's P4Runtime session."""
    import re

    cmds, cells = [], []
    for short, c in contract["counters"].items():
        for i, cell in enumerate(c["indices"]):
            cmds.append(f"counter_read {c['name']} {i}")
            cells.append((short, cell, f"{c['name']}[{i}]"))
    try:
        r = subprocess.run(["simple_switch_CLI", "--thrift-port", str(thrift_port)], input="\n".join(cmds) + "\n",
                           capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        raise ProcError("simple_switch_CLI not found on PATH (it comes with bmv2)") from None
    got = {m.group(1): int(m.group(2)) for m in re.finditer(r"(\S+\[\d+\])=\s*\(\d+ bytes, (\d+) packets\)", r.stdout)}
    out: dict[str, dict[str, int]] = {}
    for short, cell, key in cells:
        if key not in got:
            raise ProcError(f"{name}: counter_read gave no value for {key}: {(r.stderr or r.stdout).strip()[-200:]}")
        out.setdefault(short, {})[cell] = got[key]
    return out
