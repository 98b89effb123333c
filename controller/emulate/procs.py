"""The bmv2 switches of an emulated fabric: their command line, and what the fabric asks
of them over their Thrift runtime (queue rates, counters). Starting, stopping and waiting
for processes is :mod:`controller.process`.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import time
from pathlib import Path

import controller
from controller.agent.bmv2_process import Bmv2Switch
from controller.emulate.plan import SwitchPlan
from controller.process import ProcError


#: nice value added to the processes that keep the fabric's time, the daemon (in timer mode
#: every switch's clock) and the packet generator (the TRIGGERs of sync mode), when started
#: by root: they run ahead of the machine's other work. A starved daemon skips slices (187
#: of 378 at load 12-17 on 2 cores, beside a test suite's other lane and a bf-p4c build).
CLOCK_NICENESS = -10


def switch_command(sw: SwitchPlan, extra: tuple[str, ...] = (), target: tuple[str, ...] = ()) -> list[str]:
    """simple_switch_grpc for one switch: no program (the daemon sets the pipeline over
    P4Runtime), its interfaces as ports, P4Runtime on localhost, the CPU port for PacketOut."""
    return Bmv2Switch.for_plan(sw, Path("."), extra, target).command()   # the one switch-process class


def python_env() -> dict:
    """The environment of a uro process the fabric starts (the daemon, the packet
    generator): this checkout on PYTHONPATH, unbuffered output for its log."""
    repo = str(Path(controller.__file__).resolve().parents[1])
    return {**os.environ, "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": os.pathsep.join(x for x in (repo, os.environ.get("PYTHONPATH", "")) if x)}


def set_queue_rates(thrift_port: int, rates: dict, name: str, priority: int | None = None) -> None:
    """Egress queue rate (packets/s, 0 = unlimited) per port over the switch's Thrift
    runtime (``simple_switch_CLI set_queue_rate``), in one CLI call: a key ``port`` sets
    ``priority``'s queue of the port (None: all of them), a key ``(port, priority)`` that
    priority queue; a port's all-queue rate is set before its per-queue ones."""
    if not rates:
        return

    def key(k):
        port, pri = k if isinstance(k, tuple) else (k, priority)
        return (port, -1 if pri is None else pri)

    cmds = []
    for k in sorted(rates, key=key):
        port, pri = key(k)
        cmds.append(f"set_queue_rate {rates[k]} {port}" + ("" if pri < 0 else f" {pri}"))
    _cli(thrift_port, cmds, name, "set_queue_rate")


def read_counters(thrift_port: int, contract: dict, name: str) -> dict[str, dict[str, int]]:
    """``{counter: {cell: packets}}`` of every counter the pipeline contract names, read over
    the switch's Thrift runtime (``simple_switch_CLI counter_read``): the switch's own view,
    out of band, so it neither needs nor disturbs the daemon's P4Runtime session."""
    cmds, cells = [], []
    for short, c in contract["counters"].items():
        for i, cell in enumerate(c["indices"]):
            cmds.append(f"counter_read {c['name']} {i}")
            cells.append((short, cell, f"{c['name']}[{i}]"))
    text = _cli(thrift_port, cmds, name, "counter_read")
    got = {m.group(1): int(m.group(2)) for m in re.finditer(r"(\S+\[\d+\])=\s*\(\d+ bytes, (\d+) packets\)", text)}
    out: dict[str, dict[str, int]] = {}
    for short, cell, key in cells:
        if key not in got:
            raise ProcError(f"{name}: counter_read gave no value for {key}: {text.strip()[-200:]}")
        out.setdefault(short, {})[cell] = got[key]
    return out


class RuntimeCLI:
    """One ``simple_switch_CLI`` on a switch's Thrift runtime port, kept open: bmv2's
    out-of-band runtime (registers, counters, queue rates). Starting the CLI costs seconds
    on a busy machine (it fetches the switch's JSON); a command on an open one costs ms.
    Commands go in on stdin; each one's output ends at the next prompt. Use as a context
    manager, or :meth:`close` it; the process is stopped by its own PID."""

    PROMPT = b"RuntimeCmd: "

    def __init__(self, thrift_port: int, name: str, timeout: float = 60.0):
        self.name, self.timeout = name, timeout
        try:
            self.proc = subprocess.Popen(["simple_switch_CLI", "--thrift-port", str(thrift_port)],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        except FileNotFoundError:
            raise ProcError("simple_switch_CLI not found on PATH (it comes with bmv2)") from None
        try:
            self._read_prompts(1, "start")
        except ProcError:
            self.close()
            raise

    def _read_prompts(self, n: int, what: str) -> str:
        buf, end = b"", time.monotonic() + self.timeout
        fd = self.proc.stdout.fileno()
        while buf.count(self.PROMPT) < n:
            left = end - time.monotonic()
            if left <= 0:
                raise ProcError(f"{self.name}: {what}: simple_switch_CLI gave no answer in {self.timeout:g}s")
            ready, _, _ = select.select([fd], [], [], min(left, 0.5))
            if ready:
                data = os.read(fd, 1 << 16)
                if not data:
                    raise ProcError(f"{self.name}: {what}: simple_switch_CLI exited: "
                                    f"{buf.decode(errors='replace').strip()[-300:]}")
                buf += data
        return buf.decode(errors="replace")

    def run(self, cmds: list[str], what: str) -> str:
        """The output of ``cmds`` (one per line); an error reported by any: :class:`ProcError`."""
        if not cmds:
            return ""
        if self.proc.poll() is not None:
            raise ProcError(f"{self.name}: {what}: simple_switch_CLI is not running")
        self.proc.stdin.write(("\n".join(cmds) + "\n").encode())
        self.proc.stdin.flush()
        out = self._read_prompts(len(cmds), what)
        if "Error" in out or "Invalid" in out:
            raise ProcError(f"{self.name}: {what} failed: {out.strip()[-300:]}")
        return out

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> "RuntimeCLI":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- registers ------------------------------------------------------------------------
    def read_registers(self, cells: list[tuple[str, int]]) -> dict[tuple[str, int], int]:
        """``{(register, index): value}`` of register cells (full names, e.g. the contract's
        ``clock.registers``). Values are unsigned (a signed register's two's complement:
        :func:`controller.clock.servo.s64`)."""
        out = self.run([f"register_read {reg} {i}" for reg, i in cells], "register_read")
        got = {(m.group(1), int(m.group(2))): int(m.group(3)) for m in re.finditer(r"(\S+)\[(\d+)\]=\s*(\d+)", out)}
        missing = [c for c in cells if c not in got]
        if missing:
            raise ProcError(f"{self.name}: register_read gave no value for {missing[0][0]}[{missing[0][1]}]: "
                            f"{out.strip()[-200:]}")
        return {c: got[c] for c in cells}

    def read_register(self, register: str) -> list[int]:
        """Every cell of ``register`` (its full name), in index order, in one command
        (``register_read`` without an index: one Thrift call for the whole array)."""
        out = self.run([f"register_read {register}"], "register_read")
        m = re.search(re.escape(register) + r"=\s*([\d,\s]*)", out)
        if m is None or not m.group(1).strip():
            raise ProcError(f"{self.name}: register_read gave no values for {register}: {out.strip()[-200:]}")
        return [int(v) for v in m.group(1).replace(",", " ").split()]

    def write_registers(self, values: dict[tuple[str, int], int]) -> None:
        """Write register cells (``{(register, index): unsigned value}``): the emulation-only
        clock fault of ``uro emulate clock``, test set-ups."""
        self.run([f"register_write {reg} {i} {v}" for (reg, i), v in values.items()], "register_write")

    def reset_registers(self, registers: list[str]) -> None:
        """Every cell of ``registers`` back to 0 (what a switch starts with)."""
        self.run([f"register_reset {reg}" for reg in registers], "register_reset")


def _cli(thrift_port: int, cmds: list[str], name: str, what: str) -> str:
    """``cmds`` through a simple_switch_CLI started for them (one process)."""
    with RuntimeCLI(thrift_port, name) as cli:
        return cli.run(cmds, what)


def read_registers(thrift_port: int, cells: list[tuple[str, int]], name: str) -> dict[tuple[str, int], int]:
    """:meth:`RuntimeCLI.read_registers` through a CLI started for it."""
    with RuntimeCLI(thrift_port, name) as cli:
        return cli.read_registers(cells)


def write_registers(thrift_port: int, values: dict[tuple[str, int], int], name: str) -> None:
    """:meth:`RuntimeCLI.write_registers` through a CLI started for it."""
    if values:
        with RuntimeCLI(thrift_port, name) as cli:
            cli.write_registers(values)
