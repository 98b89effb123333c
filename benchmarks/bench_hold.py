"""`uro bench --suite hold` (root, bmv2, p4c): what packets held for a later slice cost a
bmv2 ToR.

bmv2 cannot pause a queue, so a held packet circles (ingress -> one of its uplink's egress
queues -> recirculated) until its slice (docs/p4.md "Calendar queues on bmv2"). One ToR
of the tiny profile, paced as the emulated fabric paces its ToRs, gets one sync timer
(its clock then stands still: timer mode) and N packets from a host whose departure is
the next slice; they stay held. Printed for N = 0, 1, 10, 100: the CPU the switch
process uses (cores, from /proc/<pid>/stat over a few seconds), with the load average
next to each figure, for the hold queues at the uplink pace (2000/s: one held packet
passes as often as it did in the uplink's own queue, so this column shows what the
early path saves) and at the default hold pace. Nothing is asserted: a figure, not a
test.

`uro bench --suite pass-cost` (``main_pass_cost``): the CPU one held packet's pass costs,
per clock mode: a fresh switch holding 10 packets, in timer mode and in sync mode (4 s
slices, seeded just after a boundary, so the clock is read and moved on every pass but no
boundary passes during the window), bmv2's CPU seconds over the ingress passes its
``passes`` counter counted meanwhile (egress and recirculation included): what the
clock costs a pass (docs/clock.md "What a pass costs").

The switch and its one veth pair are started and removed here, by PID and by name.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from benchmarks.machine import load_average as _load

COUNTS = (0, 1, 10, 100)
PASS_HELD = 10                 # packets held while a pass's cost is measured
PASS_SLICE_NS = 4_000_000_000  # sync mode's slice then: no boundary passes during the window
PASS_WINDOW = 2.5              # s measured, inside that slice


def _need() -> str | None:
    if os.geteuid() != 0:
        return "needs root (veths)"
    for tool in ("simple_switch_grpc", "simple_switch_CLI", "p4c-bm2-ss", "ip"):
        if shutil.which(tool) is None:
            return f"{tool} not installed"
    return None


def _held_case(routes, tor: int, slices: int):
    """(dst, slice) whose first alternative at ``tor`` leaves one slice later."""
    from controller.tables import perhop

    for e in perhop.entries(routes, tor):
        if e.alternatives[0].wait == 1 and e.slice < slices:
            return e.dst, e.slice
    raise RuntimeError("no (destination, slice) whose first alternative waits one slice")


def _start(tmp: Path, name: str, contract: dict, base: Path, tag: str):
    """A fresh tiny ToR on one veth pair: (switch, P4Runtime client, veth, peer)."""
    from controller.agent.bmv2_process import Bmv2Switch
    from controller.agent.p4runtime import P4RuntimeClient

    veth, peer = f"uh{os.getpid() % 10000}{tag}a", f"uh{os.getpid() % 10000}{tag}b"
    subprocess.run(["ip", "link", "add", veth, "type", "veth", "peer", "name", peer], check=True)
    for ifc in (veth, peer):
        Path(f"/proc/sys/net/ipv6/conf/{ifc}/disable_ipv6").write_text("1\n")
        subprocess.run(["ip", "link", "set", ifc, "up"], check=True)
    sw = Bmv2Switch(tmp, name, {0: veth}, ["--cpu-port", str(contract["packet_io"]["cpu_port"])]).start()
    client = P4RuntimeClient(f"127.0.0.1:{sw.grpc_port}", timeout=20)
    client.set_pipeline(base.with_suffix(".p4info.txtpb"), base.with_suffix(".json"))
    return sw, client, veth, peer


def _stop(sw, client, veth: str) -> None:
    """Stop what :func:`_start` started (by its PID, the veth by its name)."""
    if client is not None:
        client.close()
    if sw is not None:
        sw.stop()
    if veth:
        subprocess.run(["ip", "link", "del", veth], check=False, stderr=subprocess.DEVNULL)


def _held_frames(me: int, dst: int, first: int, n: int) -> list[bytes]:
    """Frames ``first .. n - 1`` from a host of ``me`` to ``dst`` (held: their departure is later)."""
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether

    from controller.tables.tor_batch import host_ip

    return [bytes(Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01")
                  / IP(src=host_ip(me, 0), dst=host_ip(dst, 0), id=1000 + i) / UDP(sport=1234, dport=5001)
                  / (b"uro-hold" * 4)) for i in range(first, n)]


def pass_cost(p, contract, base: Path, routes, mode: str, window: float, tmp: Path, hold_pps: int | None = None) -> tuple[float, float]:
    """(us of bmv2 CPU per ingress pass, passes per second) of a fresh ToR holding
    PASS_HELD packets, its clock in ``mode`` ("timer" | "sync")."""
    from scapy.arch.linux import L2Socket

    from controller.clock import message as m
    from controller.clock.params import ClockParams
    from controller.emulate import procs
    from controller.emulate.config import DEFAULT_HOLD_PPS, DEFAULT_UPLINK_PPS
    from controller.emulate.fabric import queue_rates
    from controller.p4gen.timer import sync_metadata, timer_frame, timer_metadata
    from controller.process import cpu_seconds
    from controller.schedule import round_robin
    from controller.tables.clock import tor_clock_batch
    from controller.tables.tor_batch import tor_batch

    me = 0
    dst, slice_ = _held_case(routes, me, p.slices)
    sw = client = None
    veth = ""
    try:
        sw, client, veth, peer = _start(tmp, f"pass{mode}", contract, base, mode[0])
        client.write(tor_batch(contract, me, uro_routes=routes, bytes_per_us=0))
        ups = [contract["profile"]["uplink_port_base"] + u for u in range(p.uplinks)]
        procs.set_queue_rates(sw.thrift_port, queue_rates(ups, DEFAULT_UPLINK_PPS, DEFAULT_HOLD_PPS if hold_pps is None else hold_pps), "hold")
        sock = L2Socket(iface=peer)          # open before the seed: the window must fit the slice
        frames = _held_frames(me, dst, 0, PASS_HELD)
        t_seed = None
        if mode == "sync":
            cp = ClockParams(slice_ns=PASS_SLICE_NS, mode="sync", leads=(p.tors - 1,), guard_ns=0)
            client.write(tor_clock_batch(contract, round_robin(p.tors, p.uplinks), cp, me))
            k = 1000 * p.slices + slice_         # 1 ms into slice ``slice_``: held until the next one
            seed = m.seed(k * PASS_SLICE_NS + 1_000_000, PASS_SLICE_NS, p.slices)
            client.packet_out(m.encode_frame(seed), sync_metadata(contract))
            t_seed = time.monotonic()
        else:
            client.packet_out(timer_frame(contract, slice_, sync=True), timer_metadata(contract))
        time.sleep(0.1)
        for fr in frames:
            sock.send(fr)
        sock.close()
        time.sleep(0.3)
        pid = sw.proc.pid
        p0, c0, t0 = client.read_counters(contract, "passes"), cpu_seconds(pid), time.monotonic()
        time.sleep(window)
        c1, t1 = cpu_seconds(pid), time.monotonic()
        p1 = client.read_counters(contract, "passes")
        n = sum(p1.values()) - sum(p0.values())
        if n == 0 or p1["held"] - p0["held"] != n:
            raise RuntimeError(f"pass cost ({mode}): not only held passes in the window: {p0} -> {p1}")
        if t_seed is not None and time.monotonic() - t_seed > 0.9 * PASS_SLICE_NS / 1e9:
            raise RuntimeError(f"pass cost (sync): the slice may have ended during the window (machine too slow?)")
        drops = {k: v for k, v in client.read_counters(contract, "drops").items() if v}
        if drops:
            raise RuntimeError(f"pass cost ({mode}): the switch dropped {drops}")
        return 1e6 * (c1 - c0) / n, n / (t1 - t0)
    finally:
        _stop(sw, client, veth)


def measure(p, contract, base: Path, routes, hold_pps: int, window: float, tmp: Path) -> list[float]:
    """Cores of a fresh ToR switch holding 0, 1, 10, 100 packets, its hold queues at
    ``hold_pps`` (the top queue at the uplink pace)."""
    from scapy.sendrecv import sendp

    from controller.emulate import procs
    from controller.emulate.config import DEFAULT_UPLINK_PPS
    from controller.emulate.fabric import queue_rates
    from controller.process import cpu_seconds
    from controller.p4gen.timer import timer_frame, timer_metadata
    from controller.tables.tor_batch import tor_batch

    me = 0
    dst, slice_ = _held_case(routes, me, p.slices)
    sw = client = None
    veth = ""
    out = []
    try:
        sw, client, veth, peer = _start(tmp, f"hold{hold_pps}", contract, base, f"p{hold_pps % 10000}")
        client.write(tor_batch(contract, me, uro_routes=routes, bytes_per_us=0))
        ups = [contract["profile"]["uplink_port_base"] + u for u in range(p.uplinks)]
        procs.set_queue_rates(sw.thrift_port, queue_rates(ups, DEFAULT_UPLINK_PPS, hold_pps), "hold")
        client.packet_out(timer_frame(contract, slice_, sync=True), timer_metadata(contract))
        time.sleep(0.5)
        pid = sw.proc.pid
        held = 0
        for n in COUNTS:
            sendp(_held_frames(me, dst, held, n), iface=peer, verbose=False)
            held = n
            time.sleep(1.0)
            c0, t0 = cpu_seconds(pid), time.monotonic()
            time.sleep(window)
            out.append((cpu_seconds(pid) - c0) / (time.monotonic() - t0))
            print(f"  hold queues at {hold_pps}/s, N = {n:3d} held: {out[-1]:.3f} cores  (load {_load()})", flush=True)
        drops = {k: v for k, v in client.read_counters(contract, "drops").items() if v}
        print(f"  drops counted: {drops or 'none'}")
    finally:
        _stop(sw, client, veth)
    return out


def _tiny_build(prefix: str):
    """The tiny profile's ToR program built into a new temporary directory: (profile,
    its URO routes, the directory, the program's base path, its contract)."""
    import json

    from controller.p4gen import build as p4build, profile as prof
    from controller.routing.uro import UroParams, compute
    from controller.schedule import round_robin

    p = prof.load("tiny")
    routes = compute(round_robin(p.tors, p.uplinks), UroParams(k=3, max_hops=4))
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        p4build.build(p, tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    base = tmp / f"tor_{p.name}"
    return p, routes, tmp, base, json.loads(base.with_suffix(".contract.json").read_text())


def main(quick: bool = False) -> int:
    from controller.emulate.config import DEFAULT_HOLD_PPS, DEFAULT_UPLINK_PPS

    why = _need()
    print("== held packets on one bmv2 ToR (tiny profile, timer mode, clock standing still)")
    if why:
        print(f"  skipped: {why}")
        return 0
    window = 2.0 if quick else 4.0
    p, routes, tmp, base, contract = _tiny_build("uro-bench-hold-")
    try:
        paces = (DEFAULT_UPLINK_PPS, DEFAULT_HOLD_PPS)
        rows = {pps: measure(p, contract, base, routes, pps, window, tmp) for pps in paces}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"  cores of the switch process by packets held (N), load {_load()} at the end")
    print("  " + f"{'N':>5}" + "".join(f"  hold queues {pps}/s" for pps in paces))
    for i, n in enumerate(COUNTS):
        print("  " + f"{n:>5}" + "".join(f"  {rows[pps][i]:>17.3f}" for pps in paces))
    return 0


def main_pass_cost(quick: bool = False) -> int:
    """`uro bench --suite pass-cost`: bmv2's CPU per held packet's pass, timer vs sync mode,
    at the default hold pace and with the hold queues unpaced (the switch as busy as it
    gets: fewer wake-ups per pass); the modes alternate, 3 rounds (1 with --quick), and the
    median of each is printed."""
    import statistics

    from controller.emulate.config import DEFAULT_HOLD_PPS

    why = _need()
    print(f"== bmv2 CPU per held packet's pass, one ToR (tiny profile, {PASS_HELD} packets held), timer vs sync mode; "
          f"load {_load()} at the start")
    if why:
        print(f"  skipped: {why}")
        return 0
    p, routes, tmp, base, contract = _tiny_build("uro-bench-pass-")
    try:
        for pps, what in ((DEFAULT_HOLD_PPS, f"hold queues at {DEFAULT_HOLD_PPS}/s"), (0, "hold queues unpaced")):
            got: dict[str, list[tuple[float, float]]] = {"timer": [], "sync": []}
            for _ in range(1 if quick else 3):
                for mode in got:
                    got[mode].append(pass_cost(p, contract, base, routes, mode, PASS_WINDOW, tmp, hold_pps=pps))
                    print(f"  {what}, {mode} mode: {got[mode][-1][0]:.0f} us per pass, "
                          f"{got[mode][-1][1]:.0f} passes/s  (load {_load()})", flush=True)
            print(f"  {what}, median: " + ", ".join(
                f"{mode} mode {statistics.median(us for us, _ in v):.0f} us per pass "
                f"({statistics.median(r for _, r in v):.0f} passes/s)" for mode, v in got.items()))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"== load average at the end: {_load()}")
    return 0
