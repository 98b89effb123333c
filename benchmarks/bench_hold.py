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


def measure(p, contract, base: Path, routes, hold_pps: int, window: float, tmp: Path) -> list[float]:
    """Cores of a fresh ToR switch holding 0, 1, 10, 100 packets, its hold queues at
    ``hold_pps`` (the top queue at the uplink pace)."""
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether
    from scapy.sendrecv import sendp

    from controller.agent.bmv2_process import Bmv2Switch
    from controller.agent.p4runtime import P4RuntimeClient
    from controller.emulate import procs
    from controller.emulate.config import DEFAULT_UPLINK_PPS
    from controller.emulate.fabric import queue_rates
    from controller.process import cpu_seconds
    from controller.p4gen.timer import timer_frame, timer_metadata
    from controller.tables.tor_batch import host_ip, tor_batch

    me = 0
    dst, slice_ = _held_case(routes, me, p.slices)
    veth, peer = f"uh{os.getpid() % 10000}p{hold_pps % 10000}a", f"uh{os.getpid() % 10000}p{hold_pps % 10000}b"
    sw = client = None
    out = []
    try:
        subprocess.run(["ip", "link", "add", veth, "type", "veth", "peer", "name", peer], check=True)
        for ifc in (veth, peer):
            Path(f"/proc/sys/net/ipv6/conf/{ifc}/disable_ipv6").write_text("1\n")
            subprocess.run(["ip", "link", "set", ifc, "up"], check=True)
        sw = Bmv2Switch(tmp, f"hold{hold_pps}", {0: veth},
                        ["--cpu-port", str(contract["packet_io"]["cpu_port"])]).start()
        client = P4RuntimeClient(f"127.0.0.1:{sw.grpc_port}", timeout=20)
        client.set_pipeline(base.with_suffix(".p4info.txtpb"), base.with_suffix(".json"))
        client.write(tor_batch(contract, me, uro_routes=routes, bytes_per_us=0))
        ups = [contract["profile"]["uplink_port_base"] + u for u in range(p.uplinks)]
        procs.set_queue_rates(sw.thrift_port, queue_rates(ups, DEFAULT_UPLINK_PPS, hold_pps), "hold")
        client.packet_out(timer_frame(contract, slice_, sync=True), timer_metadata(contract))
        time.sleep(0.5)
        pid = sw.proc.pid
        held = 0
        for n in COUNTS:
            for i in range(held, n):
                pkt = (Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01")
                       / IP(src=host_ip(me, 0), dst=host_ip(dst, 0), id=1000 + i) / UDP(sport=1234, dport=5001)
                       / (b"uro-hold" * 4))
                sendp(pkt, iface=peer, verbose=False)
            held = n
            time.sleep(1.0)
            c0, t0 = cpu_seconds(pid), time.monotonic()
            time.sleep(window)
            out.append((cpu_seconds(pid) - c0) / (time.monotonic() - t0))
            print(f"  hold queues at {hold_pps}/s, N = {n:3d} held: {out[-1]:.3f} cores  (load {_load()})", flush=True)
        drops = {k: v for k, v in client.read_counters(contract, "drops").items() if v}
        print(f"  drops counted: {drops or 'none'}")
    finally:
        if client is not None:
            client.close()
        if sw is not None:
            sw.stop()
        subprocess.run(["ip", "link", "del", veth], check=False, stderr=subprocess.DEVNULL)
    return out


def main(quick: bool = False) -> int:
    import json

    from controller.emulate.config import DEFAULT_HOLD_PPS, DEFAULT_UPLINK_PPS
    from controller.p4gen import build as p4build, profile as prof
    from controller.routing.uro import UroParams, compute
    from controller.schedule import round_robin

    why = _need()
    print("== held packets on one bmv2 ToR (tiny profile, timer mode, clock standing still)")
    if why:
        print(f"  skipped: {why}")
        return 0
    window = 2.0 if quick else 4.0
    p = prof.load("tiny")
    routes = compute(round_robin(p.tors, p.uplinks), UroParams(k=3, max_hops=4))
    tmp = Path(tempfile.mkdtemp(prefix="uro-bench-hold-"))
    try:
        p4build.build(p, tmp)
        base = tmp / f"tor_{p.name}"
        contract = json.loads(base.with_suffix(".contract.json").read_text())
        paces = (DEFAULT_UPLINK_PPS, DEFAULT_HOLD_PPS)
        rows = {pps: measure(p, contract, base, routes, pps, window, tmp) for pps in paces}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"  cores of the switch process by packets held (N), load {_load()} at the end")
    print("  " + f"{'N':>5}" + "".join(f"  hold queues {pps}/s" for pps in paces))
    for i, n in enumerate(COUNTS):
        print("  " + f"{n:>5}" + "".join(f"  {rows[pps][i]:>17.3f}" for pps in paces))
    return 0
