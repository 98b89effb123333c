"""`uro bench --suite daemon`: the controller daemon on real simple_switch_grpc.

Figures (printed, never asserted; needs root, p4c-bm2-ss and simple_switch_grpc):

1. hitless swap of a (108, 6) ToR's route generation (r108x6 program): first write ->
   activation (the one config write), and the whole swap (write beside, read back and
   verify, flip, delete the old), while a packet stream crosses the switch: packets lost
   or misrouted during the swaps (the two generations differ on the wire: per-hop vs
   SSRR source-routed);
2. failure: link down (netlink, a veth) -> detected -> data plane reacts (the down mask,
   one write) -> new generation active, on the (108, 6) ToR, side by side as ratios;
3. slice-timer jitter between switches: 9 switches (8 ToRs + the OCS emulator) at 50 ms
   and 20 ms slices: spread of one slice's send times across switches and lateness against
   the ideal slice start, and what the switches counted (applied / rejected).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from controller.agent.bmv2_process import Bmv2Switch, free_port
from controller.daemon.log import epoch

PREFIX = f"ub{os.getpid() % 100000}"


def _missing() -> str | None:
    for tool in ("p4c-bm2-ss", "simple_switch_grpc"):
        if shutil.which(tool) is None:
            return f"{tool} not installed"
    if os.geteuid() != 0:
        return "needs root (veth pairs)"
    from controller.tables import tor_batch

    if not hasattr(tor_batch, "route_entries"):
        return "needs the data plane's route generations (tor_batch.route_entries)"
    return None


def _switch(work: Path, name: str, ifaces=()) -> Bmv2Switch:
    """A started simple_switch_grpc whose CPU port (510) takes the daemon's timers."""
    return Bmv2Switch(work, name, ifaces, ["--cpu-port", "510"]).start()


def _veths(n: int) -> list[tuple[str, str]]:
    out = []
    for i in range(n):
        a, b = f"{PREFIX}_{i}s", f"{PREFIX}_{i}h"
        subprocess.run(["ip", "link", "add", a, "type", "veth", "peer", "name", b], check=True, capture_output=True)
        for x in (a, b):
            Path(f"/proc/sys/net/ipv6/conf/{x}/disable_ipv6").write_text("1\n")
            subprocess.run(["ip", "link", "set", x, "mtu", "9000", "up"], check=True, capture_output=True)
        out.append((a, b))
    return out


def _build(profile: str, work: Path, programs) -> dict:
    from controller.p4gen import build as p4build
    from controller.p4gen import profile as prof

    out = work / f"build_{profile}"
    p4build.build(prof.load(profile), out, programs)
    return {p: (out / f"{p}_{profile}.p4info.txtpb", out / f"{p}_{profile}.json", out / f"{p}_{profile}.contract.json")
            for p in programs}


def _net(path: Path, programs: dict, switches: list[str], *, schedule: str, routing: str, clock: str,
         status_port: int, daemon: str = "") -> Path:
    lines = ['name = "bench"', "[schedule]", schedule, "[routing]", routing, "[clock]", clock, "[daemon]",
             f'status = "127.0.0.1:{status_port}"', "reconcile_s = 600", "election_id = 10", daemon,
             "[tls]", "insecure = true"]
    for role, (p4info, js, contract) in programs.items():
        lines += [f"[program.{role}]", f'contract = "{contract}"', f'p4info = "{p4info}"', f'device_config = "{js}"']
    path.write_text("\n".join(lines + switches) + "\n")
    return path


def _tor_switch(t: int, address: str, hosts: int, d: int, interfaces=None) -> str:
    s = (f'[[switch]]\nname = "tor{t}"\nrole = "tor"\ntor = {t}\naddress = "{address}"\n[switch.ports]\n'
         f"hosts = {list(range(hosts))}\nuplinks = {list(range(hosts, hosts + d))}\n")
    if interfaces:
        s += f"interfaces = {json.dumps(interfaces)}\n"
    return s


def _s(x, width: int = 6) -> str:
    return f"{x:>{width}.2f}s" if x is not None else f"{'-':>{width + 1}}"


def _ms(x) -> str:
    return f"{x * 1e3:.1f} ms"


# ---- 1. hitless swap of a (108, 6) ToR under a packet stream -------------------------------------------
SCHED_108 = 'generate = "opera"\ntors = 108\nuplinks = 6\nseed = 1'
ROUTES_A = 'source_routed = []\n[routing.per_hop]\nk = 4\nmax_hops = 4'
ROUTES_B = ('source_routed = [' + ", ".join(str(d) for d in range(1, 108, 3)) + ']\n[routing.per_hop]\nk = 4\n'
            'max_hops = 4\n[routing.source]\nalgo = "ucmp"\nh_max = 5')


def _pick(ra, rb, me=0):
    from controller.tables import perhop, source as source_tables

    S = ra.schedule.n_slices
    a = {(e.slice, e.dst): e.alternatives[0] for e in perhop.entries(ra.per_hop, me) if e.alternatives}
    for e in source_tables.entries(rb.source, me):
        if e.buckets[0] <= 0 <= e.buckets[1] and (e.slice, e.dst) in a:
            alt = a[(e.slice, e.dst)]
            if alt.dep_slice % S == e.slice and all(p[0][2] == e.slice for p in e.paths):
                return e.slice, e.dst, alt.uplink, e.paths
    raise RuntimeError("no (slice, dst) where both route sets depart at once")


def bench_swap(work: Path, progs: dict, veths, swaps: int = 6) -> dict:
    from scapy.all import AsyncSniffer, conf
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether

    from controller.agent.backend import backend_for
    from controller.daemon.config import load
    from controller.daemon.controller import Controller, Prepared
    from controller.daemon.log import EventLog
    from controller.daemon.plan import compute_routes
    from controller.schedule.degrade import Failed
    from controller.tables.tor_batch import host_ip

    sw = _switch(work, "tor108", [a for a, _ in veths[:14]])
    hosts = [b for _, b in veths[:14]]
    try:
        clock = "slice_ms = 1000\ncapacity_bytes = 100000000\nbytes_per_us = 0"
        sws = [_tor_switch(0, sw.address, 8, 6)]
        cfg_a = _net(work / "a.toml", progs, sws, schedule=SCHED_108, routing=ROUTES_A, clock=clock,
                     status_port=free_port())
        cfg_b = _net(work / "b.toml", progs, sws, schedule=SCHED_108, routing=ROUTES_B, clock=clock,
                     status_port=free_port())
        ctl = Controller(load(cfg_a), log=EventLog("json", open(work / "swap.log", "w")))
        t0 = time.perf_counter()
        ctl.start(Prepared(ctl.cfg, Failed(), backend_for))
        first_push = time.perf_counter() - t0
        agent = ctl.agents["tor0"]
        ra = ctl.routes
        rb = compute_routes(load(cfg_b), ra.schedule, Failed(), version=2)
        t, dst, up_a, paths_b = _pick(ra, rb)
        agent.need_sync = True
        agent.send_timer(t)
        time.sleep(0.3)
        dst_ip = host_ip(dst, 0)
        sniff = AsyncSniffer(iface=hosts[8:14], store=True, lfilter=lambda p: IP in p and p[IP].dst == dst_ip)
        sniff.start()
        time.sleep(0.5)
        out = conf.L2socket(iface=hosts[0])
        stop, sent = threading.Event(), []

        def sender():
            i = 0
            while not stop.is_set():
                i += 1
                out.send(Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01") /
                         IP(src=host_ip(0, 0), dst=dst_ip, id=i & 0xFFFF) / UDP(sport=1, dport=2) / b"uro-bench")
                sent.append(i)
                time.sleep(0.004)
        th = threading.Thread(target=sender)
        th.start()
        rows = []
        try:
            for k in range(swaps):
                r = rb if k % 2 == 0 else ra
                agent.install(r)
                rows.append(dict(agent.last_swap, to="B" if k % 2 == 0 else "A"))
        finally:
            time.sleep(0.5)
            stop.set()
            th.join()
        time.sleep(1.0)
        got = sniff.stop()
        out.close()
        ctl.shutdown()
    finally:
        sw.stop()
    ports = {hosts[8 + u]: u for u in range(6)}
    ids, bad = [], 0
    for p in got:
        u = ports[p.sniffed_on]
        ids.append(p[IP].id)
        if p[IP].options:
            opts = b"".join(bytes(o) for o in p[IP].options)
            k = opts.index(bytes([137]))
            body = opts[k + 3:k + opts[k + 1]]
            hops = tuple((int.from_bytes(body[j:j + 4], "big") >> 16, body[j + 2], body[j + 3])
                         for j in range(0, len(body), 4))
            bad += hops not in {tuple(x) for x in paths_b} or u != hops[0][1]
        else:
            bad += u != up_a
    lost = len(set(sent)) - len(set(ids))
    dup = len(ids) - len(set(ids))
    return {"first_push_s": first_push, "rows": rows, "sent": len(sent), "received": len(ids), "lost": lost,
            "dup": dup, "misrouted": bad, "per_hop": sum(1 for p in got if not p[IP].options),
            "ssrr": sum(1 for p in got if p[IP].options)}


# ---- 2. failure: detection -> data plane -> new generation ----------------------------------------------
def bench_failure(work: Path, progs: dict, veths, trials: int = 2) -> dict:
    """Uplink failures and recoveries of ToR 0, detection -> new generation, on the two
    write paths alternating in one run (``trials`` fail + recover pairs each): "whole"
    (the retired generation deleted, every update writes a whole generation) and "diff"
    (it is kept as the routes' shadow and an update writes only what differs; docs/daemon.md
    "Diff-only writes"). The path is switched (:attr:`Controller.shadows`) when the update
    before is triggered: its retire then leaves the slot the next one writes into."""
    from controller.daemon.log import EventLog
    from controller.daemon.run import Daemon

    sw = _switch(work, "tor108f", [a for a, _ in veths[:14]])
    # uplink u = port 8 + u; each failure takes another uplink down (1..5), so that every
    # failure's routes are computed, not found among the routes of a failed set seen
    # before (each recovery's are: the healthy routes of the start)
    ups = {u: veths[8 + u] for u in range(1, 6)}
    modes = [m for _ in range(trials) for m in ("whole", "diff") for _ in range(2)]   # per update
    try:
        sws = [_tor_switch(0, sw.address, 8, 6, interfaces=[""] + [ups[u][0] for u in range(1, 6)])]
        cfg = _net(work / "f.toml", progs, sws, schedule=SCHED_108, routing=ROUTES_B,
                   clock="slice_ms = 100\ncapacity_bytes = 100000000\nbytes_per_us = 0", status_port=free_port(),
                   daemon=f"diff_writes = {'true' if modes[0] == 'diff' else 'false'}")
        log = EventLog("json", open(work / "failure.log", "w"))
        log.lines = []
        d = Daemon(cfg, log=log).start()
        rows = []
        try:
            for k, mode in enumerate(modes):
                down = k % 2 == 0
                peer = ups[1 + (k // 2) % 5][1]
                n0 = len(log.lines)
                t_wall = time.time()
                subprocess.run(["ip", "link", "set", peer, "down" if down else "up"], check=True)
                # this update's retire prepares the slot of the next one: its path from now
                d.ctl.shadows = (modes[k + 1] if k + 1 < len(modes) else mode) == "diff"
                end = time.time() + 300
                # only the lines logged since this change are looked at (a light poll beside
                # the daemon's threads)
                while not any(e["event"] == "failure.handled" for e in log.lines[n0:]):
                    if time.time() > end:
                        raise RuntimeError("no failure.handled")
                    time.sleep(0.005)
                rep = [e for e in log.lines[n0:] if e["event"] == "failure.handled"][0]
                t_det = epoch(rep["detected"])
                # where the time went: detection -> routes computed -> the new generation's
                # writing started -> every source stamps it (the report's generation_s)
                after = {e["event"]: epoch(e["ts"]) - t_det for e in log.lines
                         if e["event"] in ("routes.computed", "generation.writing") and epoch(e["ts"]) >= t_det}
                swap = d.ctl.agents["tor0"].last_swap or {}
                rows.append({"mode": mode, "op": rep["op"], "uplink": rep["target"][1],
                             "dataplane_ms": rep["dataplane_ms"], "generation_s": rep["generation_s"],
                             "detect_ms": (t_det - t_wall) * 1e3, "routes_s": after.get("routes.computed"),
                             "writing_s": after.get("generation.writing"), "written": swap.get("written"),
                             "verify_s": swap.get("verify_s"), "load": os.getloadavg()[0]})
                time.sleep(0.5)       # failure.handled comes after the retire: the next slot is ready
        finally:
            for _, peer in ups.values():
                subprocess.run(["ip", "link", "set", peer, "up"], capture_output=True)
            d.shutdown()
    finally:
        sw.stop()
    return {"rows": rows}


def print_failure(f: dict) -> None:
    """Whole vs diff side by side, per (trial, op), with the ratio of detection -> new
    generation and the 1-min load average at each update."""
    print("\n-- failure of an uplink of ToR 0 (veth down over netlink; another one each time), (108, 6) ToR:")
    print("   whole = every update writes a whole generation (retired one deleted); diff = the retired generation")
    print("   is the routes' shadow and an update writes only what differs (alternating, one daemon)")
    rows = f["rows"]
    whole = [r for r in rows if r["mode"] == "whole"]
    diff = [r for r in rows if r["mode"] == "diff"]
    print(f"{'op':<10} {'data plane':>10} | {'whole: routes':>13} {'writing':>8} {'written':>8} {'new gen':>8} "
          f"{'load':>5} | {'diff: routes':>12} {'writing':>8} {'written':>8} {'new gen':>8} {'load':>5} | "
          f"{'whole/diff':>10}")
    for a, b in zip(whole, diff):
        ratio = a["generation_s"] / b["generation_s"] if a["generation_s"] and b["generation_s"] else float("nan")
        print(f"{a['op'] + ' 0/' + str(a['uplink']) + ',' + str(b['uplink']):<10} {b['dataplane_ms']:>7.1f} ms | {_s(a['routes_s'], 12)} "
              f"{_s(a['writing_s'], 7)} {a['written'] or '-':>8} {_s(a['generation_s'], 7)} {a['load']:>5.1f} | "
              f"{_s(b['routes_s'], 11)} {_s(b['writing_s'], 7)} {b['written'] or '-':>8} "
              f"{_s(b['generation_s'], 7)} {b['load']:>5.1f} | {ratio:>9.2f}x")
    print("(routes, writing: detection -> routes computed, -> the new generation's writing started; new gen: "
          "-> every source stamps it; written: objects the prepare wrote)")


# ---- 3. timer jitter across switches ----------------------------------------------------------------------
def bench_jitter(work: Path, progs: dict, seconds: float = 8.0) -> list[dict]:
    from controller.daemon.log import EventLog
    from controller.daemon.run import Daemon

    out = []
    sws = [_switch(work, f"j{i}") for i in range(9)]
    try:
        for slice_ms in (50, 20):
            switches = [_tor_switch(t, sws[t].address, 2, 2) for t in range(8)]
            switches.append(f'[[switch]]\nname = "ocs"\nrole = "ocs"\naddress = "{sws[8].address}"\n')
            cfg = _net(work / f"j{slice_ms}.toml", progs, switches,
                       schedule='generate = "round-robin"\ntors = 8\nuplinks = 2',
                       routing='source_routed = []\n[routing.per_hop]\nk = 3\nmax_hops = 4',
                       clock=f"slice_ms = {slice_ms}\ncapacity_bytes = 100000000\nbytes_per_us = 0",
                       status_port=free_port())
            d = Daemon(cfg, log=EventLog("json", open(work / f"jitter{slice_ms}.log", "w"))).start()
            time.sleep(seconds)
            d.ctl.maintain()
            for a in d.ctl.agents.values():
                a.read_counters()
            st = d.ctl.status()
            d.shutdown()
            applied = rejected = 0
            for s in st["switches"]:
                ev = s["counters"].get("events") or s["counters"].get("ocs_events") or {}
                applied += ev.get("timer", 0) + ev.get("timer_sync", 0)
                rejected += ev.get("timer_rejected", 0)
            c = st["clock"]
            out.append({"slice_ms": slice_ms, "sent": c["timers_sent"], "skipped": c["slices_skipped"],
                        "spread": c["jitter_between_switches"], "late": c["lateness_vs_ideal"],
                        "applied": applied, "rejected": rejected})
    finally:
        for s in sws:
            s.stop()
    return out


def main(quick: bool = False) -> int:
    why = _missing()
    if why:
        print(f"daemon benchmark skipped: {why}")
        return 0
    work = Path(tempfile.mkdtemp(prefix="uro-bench-daemon-"))
    veths = []
    try:
        veths = _veths(14)
        print("== uro daemon on simple_switch_grpc (figures, not assertions)")
        t0 = time.perf_counter()
        p108 = _build("r108x6", work, ["tor"])
        tiny = _build("tiny", work, ["tor", "ocs"])
        print(f"programs built in {time.perf_counter() - t0:.1f} s")

        s = bench_swap(work, p108, veths, swaps=4 if quick else 8)
        print("\n-- hitless swap of a (108, 6) ToR generation, under a packet stream")
        print(f"first push (empty switch -> generation 0): {s['first_push_s']:.2f} s")
        print(f"{'to':<3} {'written':>8} {'deleted':>8} {'write->active':>14} {'whole swap':>11}")
        for r in s["rows"]:
            print(f"{r['to']:<3} {r['written']:>8} {r['deleted']:>8} {r['write_to_active_s']:>13.2f}s {r['total_s']:>10.2f}s")
        print(f"packets: sent {s['sent']}, received {s['received']} ({s['per_hop']} per-hop, {s['ssrr']} SSRR), "
              f"lost {s['lost']}, duplicated {s['dup']}, misrouted {s['misrouted']}")

        print_failure(bench_failure(work, p108, veths, trials=1 if quick else 2))

        j = bench_jitter(work, tiny, seconds=4.0 if quick else 8.0)
        print("\n-- slice timer, 9 switches (8 ToRs + OCS emulator)")
        print(f"{'slice':>6} {'sent':>5} {'skipped':>7} {'spread p50/p99/max (ms)':>25} {'late p50/p99/max (ms)':>23} "
              f"{'applied':>8} {'rejected':>8}")
        for r in j:
            sp, la = r["spread"], r["late"]
            print(f"{r['slice_ms']:>4}ms {r['sent']:>5} {r['skipped']:>7} "
                  f"{sp['p50_ms']:>8.3f}/{sp['p99_ms']:.3f}/{sp['max_ms']:.3f} "
                  f"{la['p50_ms']:>8.3f}/{la['p99_ms']:.3f}/{la['max_ms']:.3f} {r['applied']:>8} {r['rejected']:>8}")
    finally:
        for a, _ in veths:
            subprocess.run(["ip", "link", "del", a], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
