"""`uro bench --suite emulate` (root, bmv2, p4c): the emulated fabric, measured.

Side by side in one run, for three paces of the loop a packet held for a later slice
circles in on stock bmv2 (the hold queues of its uplink, egress priority queues paced
with ``set_queue_rate``): ``recirculate``, unpaced (held packets spin through
ingress/egress as fast as the switch goes); the hold queues at the uplinks' 2000
packets/s; and at 500 packets/s each, the default (``[switches] hold_pps``), so a held
packet costs at most a bounded number of passes and the slice clock is never starved:

1. time to bring up the 8x2 example until every host pair has pinged;
2. RTT of single ICMP echoes sent at a known slice and phase, next to the RTT the
   routes predict (URO Eq. 1: the slices each direction waits x slice duration, from
   the send phase), and `uro stats`' mean route latency;
3. TCP goodput between two ToRs (iperf3), and the switches' CPU while it runs;
4. what holding costs: CPU of one ToR while it holds exactly one packet for several
   slices, against the same ToR idle;
5. whether bmv2's queue rates could hold packets instead (a per-slice priority-queue
   mode): a queue at 1 pps, then set unlimited, releases what it holds at the times
   fixed when the packets were queued -- see docs/emulate.md;
6. a link failure under a 20/s ping stream: loss before, during (cut -> the daemon's
   new generation active) and after, and the daemon's reaction times.

Every fabric is brought up as `uro emulate up` does: the controller daemon (`uro
daemon`, a process) programs the switches and sends the slice timer; the benchmark
only sends traffic, times it by the daemon's slice clock (its status API) and reads
the switches' counters over Thrift. Figures are printed with the load average (the
machine is shared), never asserted.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ECHO = r"""
import os, select, socket, struct, sys, time
from benchmarks.machine import load_average as _load
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
ident = os.getpid() & 0xFFFF
def csum(b):
    t = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    t = (t >> 16) + (t & 0xFFFF); t += t >> 16
    return ~t & 0xFFFF
for line in sys.stdin:
    dst, seq, wait = line.split(); seq = int(seq); wait = float(wait)
    body = struct.pack('!BBHHH', 8, 0, 0, ident, seq) + b'uro-bench' * 4
    body = body[:2] + struct.pack('!H', csum(body)) + body[4:]
    t0 = time.monotonic(); s.sendto(body, (dst, 0)); rtt = -1.0
    while time.monotonic() - t0 < wait:
        r, _, _ = select.select([s], [], [], wait - (time.monotonic() - t0))
        if not r: break
        d, _ = s.recvfrom(4096); ic = d[(d[0] & 15) * 4:]
        if ic[0] == 0 and struct.unpack('!HH', ic[4:8]) == (ident, seq):
            rtt = time.monotonic() - t0; break
    print(t0, rtt, flush=True)
"""


def _need() -> str | None:
    if os.geteuid() != 0:
        return "needs root"
    for tool in ("simple_switch_grpc", "simple_switch_CLI", "p4c-bm2-ss", "iperf3", "ping", "ethtool"):
        if shutil.which(tool) is None:
            return f"{tool} not installed"
    return None


def _cpu_s(pids: list[int]) -> float:
    """CPU seconds of ``pids`` together (those gone count nothing)."""
    from controller.process import cpu_seconds

    tot = 0.0
    for pid in pids:
        try:
            tot += cpu_seconds(pid)
        except FileNotFoundError:
            pass
    return tot


class Fabric:
    """An emulated fabric run by its daemon, for the benchmark."""

    def __init__(self, cfg):
        from controller import process
        from controller.emulate import daemon as dmn
        from controller.emulate import fabric, procs
        from controller.emulate.network import Network

        self.cfg = cfg
        t0 = time.monotonic()
        net = Network(cfg)
        self.plan = fabric.up(cfg, log=lambda m: None)
        try:
            self.routes = dmn.routes(cfg.state_dir / "net.toml")      # what the daemon installed
            self.arts = fabric.load_artifacts(cfg.state_dir)
            self.n_slices = self.routes.schedule.n_slices
            self.slice_s = cfg.slice_ms / 1000.0
            self.clock = dmn.Clock(self.plan, self.n_slices)
        except BaseException:
            fabric.down(cfg.prefix, cfg.state_root)
            raise
        self.up_s = time.monotonic() - t0
        self.pids = {s.name: process.running(cfg.state_dir / "pids", s.name) for s in self.plan.switches}
        self.daemon_pid = dmn.running(cfg)

    @property
    def lat(self):
        return self.routes.per_hop.latency_slices()

    def counters(self, name: str) -> dict:
        from controller.emulate import procs

        sw = self.plan.switch(name)
        return procs.read_counters(sw.thrift_port, self.arts[sw.role].contract, name)

    def cpu(self, names=None) -> float:
        return _cpu_s([p for n, p in self.pids.items() if names is None or n in names])

    def daemon_cpu(self) -> float:
        return _cpu_s([self.daemon_pid] if self.daemon_pid else [])

    def close(self) -> None:
        from controller.emulate import fabric

        fabric.down(self.cfg.prefix, self.cfg.state_root)


# ---- 1. bring-up until every pair pings ------------------------------------------------------
def until_all_ping(fab: Fabric, t_start: float, limit_s: float = 120) -> float:
    from controller.emulate import traffic

    todo = traffic.all_pairs(fab.plan)
    cycle = fab.n_slices * fab.slice_s
    while todo and time.monotonic() - t_start < limit_s:
        res = traffic.ping_pairs(fab.plan, todo, count=1, wait_s=2 * cycle + 1, parallel=8)
        todo = [(r.src, r.dst) for r in res if r.received == 0]
    return time.monotonic() - t_start if not todo else float("nan")


# ---- 2. RTT vs the routes' prediction ----------------------------------------------------------
def predicted_rtt_slices(lat, a: int, b: int, x0: float, S: int) -> float:
    """Slices from send (cycle position x0 = slice + phase) until the echo reply is back,
    with zero switch latency: a direction whose route ends in a later slice (URO Eq. 1
    latency L > 1) arrives when slice t + L - 1 starts, else at once."""
    t = int(x0) % S
    lf = int(lat[t, a, b])
    x1 = x0 if lf == 1 else float(int(x0) + lf - 1)
    tb = int(x1) % S
    lr = int(lat[tb, b, a])
    x2 = x1 if lr == 1 else float(int(x1) + lr - 1)
    return x2 - x0


def rtt_probes(fab: Fabric, per_source: int, phase: float = 0.3) -> list[dict]:
    """Every source host sends ``per_source`` echoes (its destinations x start slices,
    round robin) at ``phase`` into a slice; returns measured and predicted RTTs."""
    plan, clock = fab.plan, fab.clock
    S, slice_s = fab.n_slices, fab.slice_s
    lat = fab.lat
    out, lock = [], threading.Lock()

    def one_source(a: int):
        src = plan.host(f"h{a}_0")
        p = subprocess.Popen(["ip", "netns", "exec", src.netns, sys.executable, "-c", ECHO], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        dsts = [b for b in range(fab.cfg.tors) if b != a]
        try:
            for k in range(per_source):
                b, t = dsts[k % len(dsts)], (k // len(dsts) + a) % S
                clock.wait_slice(t, into=phase)
                p.stdin.write(f"{plan.host(f'h{b}_0').ip} {k} {2 * S * slice_s + 1:.3f}\n")
                p.stdin.flush()
                t0, rtt = map(float, p.stdout.readline().split())
                # where in the cycle it was sent, on the daemon's clock
                x0 = clock.position(t0)
                pred = predicted_rtt_slices(lat, a, b, x0, S) * slice_s
                with lock:
                    out.append({"a": a, "b": b, "slice": int(x0), "rtt": rtt, "pred": pred,
                                "lat_f": int(lat[int(x0), a, b])})
        finally:
            p.stdin.close()
            p.wait(10)

    ths = [threading.Thread(target=one_source, args=(a,)) for a in range(fab.cfg.tors)]
    for th in ths:
        th.start()
    for th in ths:
        th.join()
    return out


# ---- 4. the cost of one held packet ------------------------------------------------------------
def hold_cost(fab: Fabric, seconds: float = 2.0) -> tuple[float, float, float]:
    """(cores of ToR a idle, cores of ToR a holding one packet, slices held)."""
    plan, ph = fab.plan, fab.routes.per_hop
    S = fab.n_slices
    # the (src, dst, slice) whose first hop waits longest at the source
    best = max(((int(ph.path(a, b, t)[0][2]) - t, a, b, t) for a in range(fab.cfg.tors)
                for b in range(fab.cfg.tors) if a != b for t in range(S)))
    wait, a, b, t = best
    name = f"tor{a}"
    c0, w0 = fab.cpu([name]), time.monotonic()
    time.sleep(seconds)
    idle = (fab.cpu([name]) - c0) / (time.monotonic() - w0)
    src = plan.host(f"h{a}_0")
    # an unsolicited echo reply: nothing answers it; it is held at ToR a for `wait` slices
    code = ("import socket,struct;s=socket.socket(socket.AF_INET,socket.SOCK_RAW,socket.IPPROTO_ICMP);"
            "b=struct.pack('!BBHHH',0,0,0,1,1)+bytes(32);"
            "t=sum(struct.unpack('!%dH'%(len(b)//2),b));t=(t>>16)+(t&0xFFFF);t+=t>>16;"
            "b=b[:2]+struct.pack('!H',~t&0xFFFF)+b[4:];s.sendto(b,(" + repr(plan.host(f"h{b}_0").ip) + ",0))")
    fab.clock.wait_slice(t, into=0.05)
    c1, w1 = fab.cpu([name]), time.monotonic()
    subprocess.run(["ip", "netns", "exec", src.netns, sys.executable, "-c", code], check=True)
    time.sleep(max(0.0, (wait - 0.2) * fab.slice_s - (time.monotonic() - w1)))
    held = (fab.cpu([name]) - c1) / (time.monotonic() - w1)
    return idle, held, wait


# ---- 5. can queue rates hold packets? ----------------------------------------------------------
def queue_rate_release(fab: Fabric) -> list[float]:
    """Five frames into one OCS egress queue limited to 1 pps; 0.2 s later the rate is set
    to unlimited (what a per-slice 'resume' would do). Returns when each frame left."""
    from controller.emulate import links, procs

    plan, sched = fab.plan, fab.routes.schedule
    d = plan.uplinks
    s = next(k for k in range(fab.n_slices) if int(sched.peer[k, 0, 0]) >= 0)
    b = int(sched.peer[s, 0, 0])
    out_if = plan.uplink_link(b, 0).b            # OCS port b*d+0 -> ToR b uplink 0
    in_if = plan.uplink_link(0, 0).a             # ToR 0 uplink 0 side: frames enter OCS port 0
    ocs = plan.ocs
    procs.set_queue_rates(ocs.thrift_port, {b * d: 1}, "ocs")
    fab.clock.wait_slice(s, into=0.2)
    sk = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    sk.bind((in_if, 0))
    base = links.counters([out_if])[out_if][1]
    t0 = time.monotonic()
    for i in range(5):
        sk.send(b"\x02\x00\x00\x00\x00\x02" + b"\x02\x00\x00\x00\x00\x01" + struct.pack("!H", 0x9000) + bytes([i]) * 50)
    sk.close()
    released, rate_reset = [], False
    while time.monotonic() - t0 < 6 and len(released) < 5:
        n = links.counters([out_if])[out_if][1] - base
        while len(released) < n:
            released.append(time.monotonic() - t0)
        if not rate_reset and time.monotonic() - t0 > 0.2:
            procs.set_queue_rates(ocs.thrift_port, {b * d: 0}, "ocs")   # 0 = unlimited
            rate_reset = True
        time.sleep(0.005)
    return released


# ---- 6. a link failure under traffic -----------------------------------------------------------
def link_failure(fab: Fabric, seconds: float = 12.0, interval: float = 0.05) -> dict:
    """A ping stream h0_0 -> h5_0; the cable of the uplink its route leaves ToR 0 on in
    slice 0 is cut 4 s in (``uro emulate fail link``: the daemon sees it over netlink, masks
    the uplink, installs a new generation) and joined again at the end. Loss before,
    during (cut -> new generation active) and after."""
    from controller.emulate import fabric, traffic

    prefix, root = fab.cfg.prefix, fab.cfg.state_root
    tor, up = fab.routes.per_hop.path(0, 5, 0)[0][:2]
    n = int(seconds / interval)
    stream = traffic.PingStream(fab.plan, "h0_0", "h5_0", n, interval)
    cut = False
    try:
        time.sleep(4)
        t_cut = time.time()
        fabric.fail(prefix, "link", [tor, up], root)
        cut = True
        stream.wait(timeout=seconds + 60)
    finally:
        stream.stop()
        if cut:
            ev = fabric.status(prefix, root)["daemon"]["failures"]["events"]
            fabric.recover(prefix, "link", [tor, up], root)
    rep = next(e for e in ev if e["op"] == "fail" and e["target"] == [tor, up])
    ph = stream.phases({"transition": t_cut, "after": t_cut + (rep["generation_s"] or 0)})
    return {"link": (tor, up), "phases": ph, "gap": stream.longest_gap_s(t_cut), "dataplane_ms": rep["dataplane_ms"],
            "generation_s": rep["generation_s"]}


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run_mode(base_cfg, mode: str, uplink_pps: int, hold_pps: int, quick: bool) -> dict:
    from controller.analysis import stats
    from controller.emulate import traffic

    cfg = dataclasses.replace(base_cfg, uplink_pps=uplink_pps, hold_pps=hold_pps,
                              prefix=f"ub{mode[0]}{os.getpid() % 100}"[:6])
    t0 = time.monotonic()
    fab = Fabric(cfg)
    r: dict = {"mode": mode, "pps": uplink_pps, "hold_pps": hold_pps}
    try:
        r["up_s"] = fab.up_s
        r["all_ping_s"] = until_all_ping(fab, t0)
        c0, d0, w0 = fab.cpu(), fab.daemon_cpu(), time.monotonic()
        time.sleep(2)
        r["idle_cores"] = (fab.cpu() - c0) / (time.monotonic() - w0)
        r["daemon_cores"] = (fab.daemon_cpu() - d0) / (time.monotonic() - w0)
        c0, w0 = fab.cpu(), time.monotonic()
        probes = rtt_probes(fab, per_source=7 if quick else 28)
        r["probe_cores"] = (fab.cpu() - c0) / (time.monotonic() - w0)
        r["probes"] = probes
        st = stats.summarize(fab.routes.per_hop)
        r["stats_mean_ms"] = st.mean_latency_slices * cfg.slice_ms
        c0, w0 = fab.cpu(), time.monotonic()
        ip = traffic.iperf3(fab.plan, "h0_0", "h5_0", seconds=3 if quick else 5)
        r["iperf"] = ip
        r["iperf_cores"] = (fab.cpu() - c0) / (time.monotonic() - w0)
        tot = {}
        for sw in fab.plan.tor_switches:
            for k, v in fab.counters(sw.name).items():
                for kk, vv in v.items():
                    if kk != "timer":
                        tot[kk] = tot.get(kk, 0) + vv
        r["counters"] = tot
        r["hold"] = hold_cost(fab)
        r["failure"] = link_failure(fab)
        from controller.emulate import deadtor
        r["tor_failure"] = deadtor.measure(fab.cfg.prefix, 2, fab.cfg.state_root)
        if mode == "paced":
            r["queue_rate_release"] = queue_rate_release(fab)
        r["load"] = os.getloadavg()[0]
    finally:
        fab.close()
    return r


def large_example(quick: bool) -> dict:
    """The larger example: bring-up, idle CPU, a sample of pairs pinging."""
    import random

    from controller.emulate import config, traffic

    cfg = config.load(ROOT / "examples" / "emu-16x4.toml")
    cfg = dataclasses.replace(cfg, prefix=f"ubl{os.getpid() % 100}"[:6], state_root=tempfile.mkdtemp(prefix="uro-bench-"))
    fab = Fabric(cfg)
    try:
        c0, w0 = fab.cpu(), time.monotonic()
        time.sleep(2)
        idle = (fab.cpu() - c0) / (time.monotonic() - w0)
        pairs = traffic.all_pairs(fab.plan)
        random.Random(1).shuffle(pairs)
        pairs = pairs[:32 if quick else 128]
        cycle = fab.n_slices * fab.slice_s
        c0, w0 = fab.cpu(), time.monotonic()
        res = traffic.ping_pairs(fab.plan, pairs, count=3, interval=0.3, wait_s=2 * cycle + 1, parallel=8)
        busy = (fab.cpu() - c0) / (time.monotonic() - w0)
        got = sum(x.received for x in res)
        rtts = [x for p in res for x in p.rtts_ms]
        return {"up_s": fab.up_s, "idle": idle, "busy": busy, "pairs": len(pairs), "got": got, "sent": 3 * len(pairs),
                "p50": statistics.median(rtts) if rtts else float("nan"), "hosts": len(fab.plan.hosts),
                "switches": len(fab.plan.switches), "slice_ms": cfg.slice_ms}
    finally:
        fab.close()
        shutil.rmtree(cfg.state_root, ignore_errors=True)


def _summarize(r: dict, slice_ms: float) -> dict:
    pr = [p for p in r["probes"] if p["rtt"] >= 0]
    err = [p["rtt"] * 1000 - p["pred"] * 1000 for p in pr]
    nan = float("nan")
    return {"n": len(r["probes"]), "answered": len(pr),
            "meas50": statistics.median([p["rtt"] * 1000 for p in pr]) if pr else nan,
            "pred50": statistics.median([p["pred"] * 1000 for p in pr]) if pr else nan,
            "meas90": _pct([p["rtt"] * 1000 for p in pr], 0.9) if pr else nan,
            "pred90": _pct([p["pred"] * 1000 for p in pr], 0.9) if pr else nan,
            "all50": statistics.median([p["pred"] * 1000 for p in r["probes"]]) if r["probes"] else nan,
            "all90": _pct([p["pred"] * 1000 for p in r["probes"]], 0.9) if r["probes"] else nan,
            "err50": statistics.median(err) if err else nan,
            "err90": _pct([abs(e) for e in err], 0.9) if err else nan,
            "within": sum(1 for e in err if -5 <= e <= slice_ms + 10)}


def main(quick: bool = False) -> int:
    why = _need()
    if why:
        print(f"emulate benchmark skipped: {why}")
        return 0
    from controller.emulate import config

    state = tempfile.mkdtemp(prefix="uro-bench-")
    base = dataclasses.replace(config.load(ROOT / "examples" / "emu-8x2.toml"), state_root=state)
    print(f"== emulated fabric: {base.tors} ToRs x {base.uplinks} uplinks, slices of {base.slice_ms:g} ms, "
          f"{os.cpu_count()} cores, load average {_load()} at the start" + (" (quick)" if quick else ""))
    pps, hold = base.uplink_pps or 2000, base.hold_pps or 500
    modes = [("recirculate", 0, 0, "recirculate (unpaced)"), ("uplink-pace", pps, pps, f"hold queues {pps} pps"),
             ("paced", pps, hold, f"hold queues {hold} pps (default)")]
    runs = []
    try:
        for mode, p, h, label in modes:
            try:
                r = run_mode(base, mode, p, h, quick)
            except Exception as e:  # a figure, not a test: say what failed and go on
                print(f"  {label}: failed: {e}")
                continue
            r["label"] = label
            r["rtt"] = _summarize(r, base.slice_ms)
            runs.append(r)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    w, cw = 32, 26

    def line(label, values, note=""):
        print(f"  {label:<{w}}" + "".join(f"{v:>{cw}}" for v in values) + (f"  {note}" if note else ""))

    line("", [r["label"] for r in runs])
    line("bring-up (s)", [f"{r['up_s']:.1f}" for r in runs])
    line("until every pair pinged (s)", [f"{r['all_ping_s']:.1f}" for r in runs])
    line("load average (1 min) at the end", [f"{r['load']:.2f}" for r in runs], "shared machine: other work runs")
    line("switch CPU idle (cores)", [f"{r['idle_cores']:.2f}" for r in runs])
    line("daemon CPU idle (cores)", [f"{r['daemon_cores']:.2f}" for r in runs])
    q = [r["rtt"] for r in runs]
    line("echoes answered", [f"{x['answered']}/{x['n']}" for x in q])
    line("RTT measured p50/p90 (ms)", [f"{x['meas50']:.0f}/{x['meas90']:.0f}" for x in q])
    line("RTT predicted p50/p90 (ms)", [f"{x['pred50']:.0f}/{x['pred90']:.0f}" for x in q], "of the answered echoes")
    line("  of every echo sent", [f"{x['all50']:.0f}/{x['all90']:.0f}" for x in q])
    line("meas - pred: p50 / |p90| (ms)", [f"{x['err50']:+.1f}/{x['err90']:.1f}" for x in q])
    line("within [-5, slice+10] ms", [f"{x['within']}/{x['answered']}" for x in q])
    line("switch CPU during echoes", [f"{r['probe_cores']:.2f}" for r in runs])
    line("uro stats mean latency (ms)", [f"{r['stats_mean_ms']:.0f} one-way" for r in runs])
    g = [r["iperf"].goodput_mbps for r in runs]
    note = ("vs recirculate: " + ", ".join(f"{x / g[0]:.2f}x" for x in g[1:])) if runs and g[0] else ""
    line("TCP h0_0->h5_0 goodput (Mbit/s)", [f"{r['iperf'].goodput_mbps:.2f}" + (" (error)" if r["iperf"].error else "")
                                             for r in runs], note)
    line("TCP retransmits", [str(r["iperf"].retransmits) for r in runs])
    line("switch CPU during TCP (cores)", [f"{r['iperf_cores']:.2f}" for r in runs])
    line("ToR drops held_too_long", [str(r["counters"].get("held_too_long", 0)) for r in runs])
    line("ToR reroute_missed", [str(r["counters"].get("reroute_missed", 0)) for r in runs])
    line("one ToR idle / holding 1 pkt", [f"{r['hold'][0]:.3f} / {r['hold'][1]:.3f}" for r in runs])
    hc = [r["hold"][1] - r["hold"][0] for r in runs]
    line("  holding costs (cores)", [f"{x:.2f}" for x in hc],
         ("vs recirculate: " + ", ".join(f"{x / hc[0]:.2f}x" for x in hc[1:])) if runs and hc[0] > 0 else "")
    fl = [r["failure"] for r in runs]
    line("link cut under 20/s pings: lost", [" ".join(f"{lo}/{se}" for lo, se in f["phases"].values()) for f in fl],
         "before / cut -> new generation / after")
    line("  longest gap after the cut (s)", [f"{f['gap']:.2f}" for f in fl])
    line("  daemon: mask (ms) / generation (s)", [f"{f['dataplane_ms']:.0f} / {f['generation_s']:.2f}" for f in fl])
    tf = [r["tor_failure"] for r in runs]
    line("ToR 2 failed under pings: mask (ms)", [f"{t.dataplane_ms:.0f}" if t.dataplane_ms is not None else "-" for t in tf],
         "detection -> last neighbour's (slice, uplink) mask written; target <= 10 ms")
    line("  mask per neighbour median/max (ms)", [("%.1f/%.1f" % t.mask_ms()) if t.mask_ms() else "-" for t in tf],
         "detection -> each neighbour's write acknowledged (daemon report)")
    line("  sent towards it: before / mask -> new gen", [f"{t.towards_before} / {t.towards_mask_to_gen}"
                                                       + (f" ({t.expected_without_mask:.0f} at the rate before)"
                                                          if t.expected_without_mask is not None else "")
                                                       for t in tf],
         "placed in slices by the daemon's timer log (controller/emulate/deadtor.py)")
    line("  packets towards it per s: before / mask -> new gen", [f"{t.rate_before:.1f} / " + (
        f"{t.rate_masked:.1f}" if t.rate_masked is not None else "-") for t in tf],
         "what is left after the mask is boundary skew (controller/emulate/deadtor.py)")
    line("  new generation (s)", [f"{t.generation_s:.2f}" if t.generation_s is not None else "-" for t in tf])
    rel = next((r["queue_rate_release"] for r in runs if "queue_rate_release" in r), [])
    print("  queue-rate hold check (OCS egress at 1 pps, set unlimited at 0.2 s): 5 frames left at "
          + ", ".join(f"{x:.2f}" for x in rel) + " s")
    try:
        lg = large_example(quick)
        print(f"== larger example emu-16x4: {lg['switches']} switches, {lg['hosts']} hosts, {lg['slice_ms']:g} ms "
              f"slices: up in {lg['up_s']:.1f} s, CPU idle {lg['idle']:.2f} cores, pinging {lg['busy']:.2f} cores; "
              f"{lg['got']}/{lg['sent']} pings of {lg['pairs']} random pairs answered, RTT p50 {lg['p50']:.0f} ms")
    except Exception as e:  # a figure, not a test: say what failed
        print(f"== larger example failed: {e}")
    print(f"== load average at the end: {_load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(quick="--quick" in sys.argv))
