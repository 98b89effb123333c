"""Clock faults of an emulated fabric's ToRs: a drift in ppm and a step, for real in the
switch (`uro emulate clock tor N --ppm P --step-us S`, docs/emulate.md "Time").

The bmv2 ToR program carries an emulation-only clock model (docs/clock.md "The emulated
fabric"; :class:`controller.clock.servo.FaultModel`): registers that scale its local
clock by ``rate / 2^24`` and add ``step`` ns. This module writes them over the switch's
Thrift runtime port (out of band, as the fabric paces queues), by the names the
pipeline contract's ``clock.fault`` section gives, and remembers what it set in the
fabric's state directory (``clock_faults.json``) for ``uro emulate status``.

- ``--ppm P``: the clock runs P parts per million fast (negative: slow) from now on;
  ``|P| <= MAX_PPM`` (the rate correction of the data plane tracks at most its
  ``max_drift_ppm``; crystals are within +-100 ppm);
- ``--step-us S``: the clock jumps S microseconds now (added to the steps before);
- ``--clear``: no drift from now on (the time the drift and the steps put on the clock
  stays: clearing is no step; step back with ``--step-us -S``).
"""

from __future__ import annotations

import json
from pathlib import Path

from controller.atomic import write_text
from controller.clock.servo import FaultModel
from controller.emulate import procs
from controller.errors import UroError

#: the largest drift accepted (ppm): the data plane's rate correction bound
MAX_PPM = 1000.0
#: the largest single step accepted (us): 2 s (the fault's step register is 32-bit signed ns)
MAX_STEP_US = 2_000_000


class ClockFaultError(UroError):
    pass


def _u(v: int, bits: int) -> int:
    return v & ((1 << bits) - 1)


def _s(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def check(plan, tor: int, ppm: float | None, step_us: float | None, clear: bool) -> None:
    """The arguments, or one :class:`ClockFaultError` line naming the bad one."""
    import math

    if not 0 <= tor < plan.tors:
        raise ClockFaultError(f"clock tor {tor}: no such ToR (ToRs 0..{plan.tors - 1})")
    if ppm is None and step_us is None and not clear:
        raise ClockFaultError(f"clock tor {tor}: give --ppm P, --step-us S or --clear")
    if clear and ppm is not None:
        raise ClockFaultError(f"clock tor {tor}: --clear and --ppm {ppm:g} contradict each other")
    if ppm is not None and (not math.isfinite(ppm) or abs(ppm) > MAX_PPM):
        raise ClockFaultError(f"clock tor {tor}: --ppm {ppm:g}: a drift beyond +-{MAX_PPM:g} ppm is more than the "
                              "data plane's rate correction tracks (real clocks are within +-100 ppm)")
    if step_us is not None and (not math.isfinite(step_us) or abs(step_us) > MAX_STEP_US):
        raise ClockFaultError(f"clock tor {tor}: --step-us {step_us:g}: a step beyond +-{MAX_STEP_US} us "
                              "(2 s) is not a clock fault this emulation takes")


def fault_registers(contract: dict, name: str) -> dict:
    """The contract's ``clock.fault`` section of the ToR program, or a clear error."""
    f = (contract.get("clock") or {}).get("fault")
    if not f or "rate" not in f.get("registers", {}) or "step" not in f["registers"]:
        raise ClockFaultError(f"{name}: its program has no emulated clock fault (no clock.fault registers in its "
                              "contract): rebuild the fabric")
    return f


def read_faults(sdir: Path) -> dict[str, dict]:
    try:
        return json.loads((sdir / "clock_faults.json").read_text())
    except FileNotFoundError:
        return {}


def apply(plan, sdir: Path, contract: dict, tor: int, ppm: float | None = None, step_us: float | None = None,
          clear: bool = False) -> dict:
    """Set ToR ``tor``'s clock fault (see module docstring); returns what it now has:
    ``{"ppm": ..., "step_us": total steps, "rate": register value}``."""
    check(plan, tor, ppm, step_us, clear)
    sw = plan.switch(f"tor{tor}")
    f = fault_registers(contract, sw.name)
    regs = f["registers"]
    rate_reg, step_reg = regs["rate"], regs["step"]
    writes: dict[tuple[str, int], int] = {}
    faults = read_faults(sdir)
    cur = faults.get(sw.name, {"ppm": 0.0, "step_us": 0.0})
    if ppm is not None or clear:
        cur["ppm"] = 0.0 if clear else float(ppm)
        writes[(rate_reg["name"], 0)] = _u(FaultModel.rate_of_ppm(cur["ppm"]), rate_reg["bits"])
    if step_us is not None:
        now = procs.read_registers(sw.thrift_port, [(step_reg["name"], 0)], sw.name)[(step_reg["name"], 0)]
        total = _s(now, step_reg["bits"]) + round(step_us * 1000)
        if not -(1 << (step_reg["bits"] - 1)) <= total < 1 << (step_reg["bits"] - 1):
            raise ClockFaultError(f"clock tor {tor}: --step-us {step_us:g}: the steps would add up to "
                                  f"{total / 1000:g} us, more than the fault register holds "
                                  f"(+-{(1 << (step_reg['bits'] - 1)) / 1000:g} us)")
        writes[(step_reg["name"], 0)] = _u(total, step_reg["bits"])
        cur["step_us"] = total / 1000
    procs.write_registers(sw.thrift_port, writes, sw.name)
    faults[sw.name] = cur
    write_text(sdir / "clock_faults.json", json.dumps(faults) + "\n")
    return {**cur, "rate": FaultModel.rate_of_ppm(cur["ppm"])}
