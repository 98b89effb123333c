"""The emulated fabric's packet generator: TRIGGERs into every ToR's pktgen port.

On Tofino2 a ToR's packet generator starts its clock's exchanges; bmv2 has none, so
``uro emulate up`` starts this process for the whole fabric (sync mode, docs/clock.md
"The emulated fabric"). It stands in for the generator and nothing more: it knows nothing
of time or slices, it sends a TRIGGER to every ToR every ``period`` seconds, naming
the uplinks in turn (TRIGGER ``uplink`` field), out of the generator's end of each ToR's
pktgen veth (``P q<t>``, :mod:`controller.emulate.plan`). The ToR decides whether a
TRIGGER becomes a request (its own slice, window and peer table).

The period is fixed at start (``[clock] trigger_ms``; by default the longest that puts a
TRIGGER of every uplink in every exchange window with a quarter window of slack,
:meth:`controller.clock.params.ClockParams.trigger_period`: a TRIGGER only starts an
exchange, and on a software switch every one more is a pass the data waits behind). Missed periods (a starved process) are not sent late. The sockets only
send (``AF_PACKET`` with protocol 0 receives nothing): replies to the measurements'
PROBEs on the same veths are theirs.

Run by the fabric (recorded in its PID files, stopped by ``down``)::

    python -m controller.emulate.pktgen --plan <state>/plan.json --period-s 0.01425
"""

from __future__ import annotations

import argparse
import socket
import sys
import time
from pathlib import Path

from controller.clock.message import Message, Op, encode_frame
from controller.emulate.plan import Plan

#: the name of the process in the fabric's PID files and logs
NAME = "pktgen"


def trigger_frame(uplink: int) -> bytes:
    """The TRIGGER of ``uplink`` as an Ethernet frame (controller.clock.message)."""
    return encode_frame(Message(Op.TRIGGER, uplink=uplink))


def command(plan_path: Path, period_s: float) -> list[str]:
    """The process's command line (what the PID file records)."""
    return [sys.executable, "-m", "controller.emulate.pktgen", "--plan", str(plan_path), "--period-s",
            f"{period_s:.9g}"]


def targets(plan: Plan) -> list[str]:
    """The generator's end of every ToR's pktgen link (the OCS emulator gets none: it is
    the reference, it starts no exchange)."""
    return [plan.pktgen_link(s.name).b for s in plan.tor_switches]


def open_sockets(ifnames: list[str]) -> list[socket.socket]:
    out = []
    for n in ifnames:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)   # protocol 0: send only
        s.bind((n, 0))
        out.append(s)
    return out


def run(plan: Plan, period_s: float, stop_after: float | None = None, log=print) -> int:
    """Send TRIGGERs until killed (or for ``stop_after`` seconds); returns the rounds sent."""
    socks = open_sockets(targets(plan))
    frames = [trigger_frame(u) for u in range(plan.uplinks)]
    log(f"pktgen: a TRIGGER every {period_s * 1e3:.3g} ms to each of {len(socks)} ToRs "
        f"({', '.join(targets(plan))}), uplinks 0..{plan.uplinks - 1} in turn")
    t0 = time.monotonic()
    n = sent = 0
    while stop_after is None or time.monotonic() - t0 < stop_after:
        frame = frames[sent % len(frames)]     # uplinks in turn by rounds sent: a skipped period skips no uplink
        for s in socks:
            try:
                s.send(frame)
            except OSError as e:          # the fabric is being taken down
                log(f"pktgen: {s.getsockname()[0]}: {e.strerror or e}; stopping after {sent} rounds")
                return sent
        sent += 1
        # the next period on the fixed grid; missed ones are skipped, not sent late
        n = max(n + 1, int((time.monotonic() - t0) / period_s))
        time.sleep(max(0.0, t0 + n * period_s - time.monotonic()))
    return sent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m controller.emulate.pktgen", description=__doc__.splitlines()[0])
    ap.add_argument("--plan", required=True, type=Path, help="the fabric's plan.json")
    ap.add_argument("--period-s", required=True, type=float, help="seconds between two TRIGGERs to one ToR")
    args = ap.parse_args(argv)
    plan = Plan.from_json(args.plan.read_text())
    run(plan, args.period_s, log=lambda m: print(m, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
