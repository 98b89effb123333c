"""The bmv2 switches of an emulated fabric: their command line, and what the fabric asks
of them over their Thrift runtime (queue rates, counters). Starting, stopping and waiting
for processes is :mod:`controller.process`.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import controller
from controller.agent.bmv2_process import Bmv2Switch
from controller.emulate.plan import SwitchPlan
from controller.process import ProcError


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
