"""A ``simple_switch_grpc`` process that uro started: on free localhost ports, logged to a
file, waited for until its P4Runtime port answers, and stopped by its own PID (never by a
name pattern, so other switches on the machine are left alone).

The bmv2 tests, the benchmarks and anything else that runs a throw-away bmv2 switch use
this one class; the switch starts with no program (``--no-p4``): the P4Runtime client
installs the pipeline.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import ClassVar

from controller import process
from controller.process import ProcError
from controller.p4gen.profile import PRIORITY_QUEUES


class SwitchStartError(ProcError):
    """A switch could not be started."""


def _ephemeral_range() -> tuple[int, int]:
    try:
        lo, hi = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
        return lo, hi
    except (OSError, ValueError):
        return 32768, 60999


#: ports this process has handed out: never twice (a switch binds its ports seconds later)
_handed_out: set[int] = set()


def free_port() -> int:
    """A TCP port nobody listens on now, for a switch or daemon that binds it a moment later.

    Chosen below the kernel's ephemeral range: a port from ``bind(0)`` lies inside it and
    can be taken as the local end of any outgoing connection (a P4Runtime client, the
    daemon) before the switch binds it; and never the same port twice in one process."""
    lo, hi = _ephemeral_range()
    if lo >= 11000:
        start, top = 10000, lo
    elif hi <= 64000:
        start, top = hi + 1, 65536
    else:                       # no room outside the ephemeral range: let the kernel pick
        start, top = 0, 0
    for _ in range(1000):
        if top:
            port = random.randrange(start, top)
        else:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
        if port in _handed_out:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _handed_out.add(port)
        return port
    raise SwitchStartError(f"no free TCP port found in {start}..{top - 1}")


class Bmv2Switch:
    """One ``simple_switch_grpc``: interface ``i`` is device port ``i`` (or ``ifaces`` maps
    port -> interface); ``extra_args`` go before ``--``, ``target_args`` after it
    (``--cpu-port``, TLS options). The gRPC and Thrift ports are chosen once (or given),
    so a restarted switch comes back at the same address. The first start logs to
    ``<log_dir>/<name>.log``, restart ``n`` to ``<name>.<n>.log``.

    ``pid_dir``: a switch that outlives this process (the emulated fabric's, `uro emulate
    up`): started in its own session, recorded in ``<pid_dir>/<name>.pid`` with its
    command line, logged to ``<log_dir>/<name>.log`` (appended), and stopped by that PID
    only while ``/proc/<pid>/cmdline`` is still its command line
    (:mod:`controller.process`).

    :attr:`records`: where a switch that is not detached records its PID while it runs
    (``<this process's PID>.<name>.<gRPC port>.pid``, :func:`process.owned_name`). A test
    session sets it: its switches are its children, which a killed session leaves running,
    and the next session stops them by that record (:func:`process.reap_orphans`)."""

    #: see the class docstring; None: not recorded
    records: ClassVar[Path | None] = None

    def __init__(self, log_dir: Path, name: str, ifaces=(), target_args=(), device_id: int = 0, *,
                 grpc_port: int | None = None, thrift_port: int | None = None, cpu_port: int | None = None,
                 extra_args=(), pid_dir: Path | None = None, niceness: int = 0):
        self.log_dir, self.name = Path(log_dir), name
        self.niceness = niceness
        self.ports = dict(ifaces) if isinstance(ifaces, dict) else dict(enumerate(ifaces))
        self.target_args, self.device_id = list(target_args), device_id
        self.extra_args, self.cpu_port = list(extra_args), cpu_port
        self.grpc_port = grpc_port or free_port()
        self.thrift_port = thrift_port or free_port()
        self.pid_dir = None if pid_dir is None else Path(pid_dir)
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        self._recorded: Path | None = None       # the records directory of the running process

    @classmethod
    def for_plan(cls, sw, state_dir: Path, extra_args=(), target_args=(), niceness: int = 0) -> "Bmv2Switch":
        """A switch of an emulated fabric (an ``emulate.plan.SwitchPlan``): its ports and
        addresses from the plan, detached (PID file in ``state_dir/pids``), its nice value
        moved by ``niceness`` (root only: :func:`controller.process.start`)."""
        return cls(Path(state_dir) / "logs", sw.name, dict(sw.ports), target_args, sw.device_id,
                   grpc_port=sw.grpc_port, thrift_port=sw.thrift_port, cpu_port=sw.cpu_port,
                   extra_args=extra_args, pid_dir=Path(state_dir) / "pids", niceness=niceness)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.grpc_port}"

    def command(self) -> list[str]:
        """No program (``--no-p4``: the P4Runtime client sets the pipeline), its
        interfaces as ports, P4Runtime on localhost, the CPU port for PacketOut, and the
        egress priority queues the ToR program's calendar queues use (docs/p4.md
        "Calendar queues on bmv2"; unless ``target_args`` name their own number)."""
        args = ["simple_switch_grpc", "--device-id", str(self.device_id), "--no-p4",
                "--thrift-port", str(self.thrift_port)]
        for port, ifc in sorted(self.ports.items()):
            args += ["-i", f"{port}@{ifc}"]
        args += [*self.extra_args, "--", "--grpc-server-addr", self.address]
        if self.cpu_port is not None:
            args += ["--cpu-port", str(self.cpu_port)]
        args += self.target_args
        if "--priority-queues" not in self.target_args:
            args += ["--priority-queues", str(PRIORITY_QUEUES)]
        target = [a for a in args[args.index("--") + 1:] if a.startswith("--")]
        repeated = sorted({a for a in target if target.count(a) > 1})
        if repeated:
            # bmv2's target parser rejects a repeated option, prints "Target parser returned
            # an error" and runs on without the options after it: a ToR switch without its
            # priority queues drops every packet its program puts in a queue above 0
            raise SwitchStartError(f"{self.name}: switch option {repeated[0]} given twice "
                                   f"(cpu_port and target_args, or target_args twice)")
        return args

    @property
    def log_path(self) -> Path:
        if self.pid_dir is not None:
            return self.log_dir / f"{self.name}.log"
        return self.log_dir / (f"{self.name}.log" if self.starts <= 1 else f"{self.name}.{self.starts}.log")

    def start(self, wait: bool = True, timeout: float = 20.0) -> "Bmv2Switch":
        self.starts += 1
        if self.pid_dir is not None:
            process.start(self.name, self.command(), self.pid_dir, self.log_dir, niceness=self.niceness)
        else:
            argv = self.command()
            with open(self.log_path, "w") as log:
                self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                             preexec_fn=process.reniced(self.niceness))
            self._recorded = self.records
            if self._recorded is not None:
                process.record(self._recorded, self._record_name(), self.proc.pid, argv)
        if wait:
            self.wait_started(timeout)
        return self

    def wait_started(self, timeout: float = 20.0) -> None:
        """Until its P4Runtime port and its Thrift runtime port answer (what the fabric
        writes next -- queue rates, clock faults -- goes over Thrift); raises ProcError
        (naming the switch) if the process exits first."""
        if self.pid_dir is not None:
            exited, timeout = process.pid_exited(self.pid_dir, self.name), max(timeout, 30.0)
        else:
            exited = process.popen_exited(self.proc)
        end = time.monotonic() + timeout
        try:
            process.wait_port(self.grpc_port, timeout, exited)
            if self.thrift_port >= 0:       # -1: a server without bmv2's Thrift runtime (the simulated fabric)
                process.wait_port(self.thrift_port, max(1.0, end - time.monotonic()), exited)
        except ProcError as e:
            raise SwitchStartError(f"{self.name}: {e}") from None

    def alive(self) -> bool:
        if self.pid_dir is not None:
            return process.running(self.pid_dir, self.name) is not None
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL (a crash, for the tests of what survives one)."""
        if self.pid_dir is not None:
            pid = process.running(self.pid_dir, self.name)
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
            return
        if self.alive():
            self.proc.kill()
            self.proc.wait(10)
        self._forget()

    def stop(self) -> None:
        """SIGTERM, SIGKILL after 5 s."""
        if self.pid_dir is not None:
            process.stop(self.pid_dir, self.name)
            return
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._forget()

    def _record_name(self) -> str:
        return process.owned_name(f"{self.name}.{self.grpc_port}")

    def _forget(self) -> None:
        """The record of a switch stopped by its owner removed (see :attr:`records`)."""
        if self._recorded is not None:
            process.forget(self._recorded, self._record_name())
            self._recorded = None
