"""`uro bench --suite ucmp-emulate` (root, bmv2, p4c, nft): UCMP as a whole system on the
emulated fabric, next to URO per-hop routes.

The same traffic mix on the 8x2 example twice, in one run:

- ``uro``: every destination per-hop (URO routes, no host tagging);
- ``ucmp``: every destination source-routed (UCMP SSRR) with host flow aging (UCMP §6.1):
  every host's nftables table tags a flow's packets with the bucket of the bytes it has
  sent so far, the source ToR maps the DSCP to the bucket and writes the path the
  group gives that bucket (§6.2).

The mix: one long TCP flow (iperf3, h0_0 -> h5_0) and, while it runs, short TCP flows
(request sizes ``SHORT_SIZES``) between every other pair of ToRs, a few at a time.
Reported side by side: short-flow completion times (connect to the sink's answer after
the last byte), the long flow's goodput, and for UCMP the ToRs' ``ssrr_paths`` counters
(packets from hosts per bucket and hop count of the path written) at the long flow's
source ToR and at the others, with the route set's latency for those hop counts: the
UCMP §3 claim is that young flows take low-latency paths and old flows few-hop paths.

The link rate of the emulation is set so that a slice's bytes (the unit of the bucket
boundaries, Eq. 4) are of the order of what bmv2 carries (tens of kB): otherwise no flow
this fabric can carry in seconds ever leaves bucket 0.
"""

from __future__ import annotations

import dataclasses
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from benchmarks.machine import load_average as _load

ROOT = Path(__file__).resolve().parents[1]

#: short-flow request sizes (bytes)
SHORT_SIZES = (2_000, 8_000, 32_000)
#: the emulation's link rate for this benchmark (Gbit/s): 45 ms of a 50 ms slice at
#: 20 Mbit/s = 112.5 kB per slice (the uplink pacing carries at most ~24 Mbit/s)
LINK_GBPS = 0.02
LONG = ("h0_0", "h5_0")


def _need() -> str | None:
    if os.geteuid() != 0:
        return "needs root"
    for tool in ("simple_switch_grpc", "simple_switch_CLI", "p4c-bm2-ss", "iperf3", "ethtool", "nft"):
        if shutil.which(tool) is None:
            return f"{tool} not installed"
    return None


def mix(plan, per_pair: int, seed: int = 1) -> list[tuple[str, str, int]]:
    """Short flows: ``per_pair`` per ordered pair of hosts on different ToRs, sizes
    cycling through SHORT_SIZES, in a shuffled order (the same for both modes)."""
    from controller.emulate import traffic

    rng = random.Random(seed)
    flows = [(s, d, SHORT_SIZES[(i + k) % len(SHORT_SIZES)])
             for i, (s, d) in enumerate(traffic.all_pairs(plan)) for k in range(per_pair)]
    rng.shuffle(flows)
    return flows


def run(cfg, mode: str, long_s: float, per_pair: int, quick: bool = False) -> dict:
    """One fabric, the mix, its figures (the fabric is removed whatever happens)."""
    from controller.emulate import daemon as dmn
    from controller.emulate import fabric, procs, traffic

    if mode == "ucmp":
        cfg = dataclasses.replace(cfg, routing=dataclasses.replace(cfg.routing, source_routed=tuple(range(cfg.tors))))
    cfg = dataclasses.replace(cfg, prefix=f"uc{mode[0]}{os.getpid() % 100}"[:6])
    plan = fabric.up(cfg, log=lambda m: None)
    r: dict = {"mode": mode}
    try:
        arts = fabric.load_artifacts(cfg.state_dir)
        routes = dmn.routes(cfg.state_dir / "net.toml")

        def counters():
            return {sw.name: procs.read_counters(sw.thrift_port, arts[sw.role].contract, sw.name)
                    for sw in plan.tor_switches}

        flows = mix(plan, per_pair)
        if quick:
            flows = flows[::3]
        sinks = traffic.Sinks(plan, sorted({d for _, d, _ in flows}))
        try:
            traffic.short_flows(plan, flows[:8], timeout_s=5)          # warm-up: ARP-free, but caches and TCP
            before = counters()
            long_r: list = []
            long_t = threading.Thread(target=lambda: long_r.append(
                traffic.iperf3(plan, LONG[0], LONG[1], seconds=long_s, port=5202)), daemon=True)
            long_t.start()
            time.sleep(min(2.0, long_s / 4))                           # the long flow is past its first buckets
            t0 = time.monotonic()
            res = traffic.short_flows(plan, flows, timeout_s=10)
            r["short_s"] = time.monotonic() - t0
            long_t.join(long_s + 120)
            r["long"] = dataclasses.asdict(long_r[0]) if long_r else {"goodput_mbps": 0.0, "error": "no result"}
            after = counters()
        finally:
            sinks.stop()
        r["flows"] = res
        r["counters"] = {n: {g: {k: v - before[n][g].get(k, 0) for k, v in cells.items()}
                             for g, cells in c.items()} for n, c in after.items()}
        r["routes"] = routes
        r["plan"] = plan
        r["load"] = os.getloadavg()[0]
    finally:
        fabric.down(cfg.prefix, cfg.state_root)
    return r


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def fct_summary(flows) -> dict:
    """Per size: completed/total and FCT p50/p90 (ms)."""
    out = {}
    for size in SHORT_SIZES:
        got = [f.fct_s * 1e3 for f in flows if f.size == size and f.fct_s is not None]
        n = sum(1 for f in flows if f.size == size)
        out[size] = {"n": n, "done": len(got), "p50": _pct(got, 0.5), "p90": _pct(got, 0.9),
                     "mean": statistics.mean(got) if got else float("nan")}
    return out


def path_table(r: dict, tor: int) -> dict[int, dict[int, int]]:
    """{bucket: {hops: packets}} from ToR ``tor``'s ssrr_paths counter deltas."""
    from controller.emulate.traffic import ssrr_path_counts

    name = next(sw.name for sw in r["plan"].tor_switches if sw.tor == tor)
    return ssrr_path_counts(r["counters"][name].get("ssrr_paths", {}))


def main(quick: bool = False) -> int:
    why = _need()
    if why:
        print(f"ucmp-emulate benchmark skipped: {why}")
        return 0
    from controller.emulate import config

    state = tempfile.mkdtemp(prefix="uro-bench-ucmp-")
    base = dataclasses.replace(config.load(ROOT / "examples" / "emu-8x2.toml"), state_root=state, link_gbps=LINK_GBPS)
    long_s = 10.0 if quick else 25.0
    per_pair = 1          # 56 short flows; each source sends its flows one after another
    print(f"== UCMP on the emulated fabric: {base.tors} ToRs x {base.uplinks} uplinks, {base.slice_ms:g} ms slices, "
          f"link {LINK_GBPS * 1000:g} Mbit/s, host alpha {base.alpha:g}; long flow {LONG[0]} -> {LONG[1]} for "
          f"{long_s:g} s, short flows {'/'.join(f'{s // 1000} kB' for s in SHORT_SIZES)}, "
          f"{'a third of the pairs' if quick else f'{per_pair} per pair'}; "
          f"{os.cpu_count()} cores, load average {_load()} at the start" + (" (quick)" if quick else ""))
    runs = {}
    try:
        for mode in ("uro", "ucmp"):
            try:
                runs[mode] = run(base, mode, long_s, per_pair, quick)
            except Exception as e:  # a figure, not a test: say what failed and go on
                print(f"  {mode}: failed: {type(e).__name__}: {e}")
    finally:
        shutil.rmtree(state, ignore_errors=True)
    report(runs, base)
    print(f"== load average at the end: {_load()}")
    return 0


def report(runs: dict, cfg) -> None:
    from controller.emulate.traffic import route_levels

    modes = [m for m in ("uro", "ucmp") if m in runs]
    w, cw = 34, 22

    def line(label, values, note=""):
        print(f"  {label:<{w}}" + "".join(f"{v:>{cw}}" for v in values) + (f"  {note}" if note else ""))

    line("", ["URO per-hop" if m == "uro" else "UCMP SSRR + aging" for m in modes])
    line("load average (1 min) at the end", [f"{runs[m]['load']:.2f}" for m in modes])
    fs = {m: fct_summary(runs[m]["flows"]) for m in modes}
    for size in SHORT_SIZES:
        vals = [f"{fs[m][size]['p50']:.0f} / {fs[m][size]['p90']:.0f}" for m in modes]
        note = ""
        if len(modes) == 2 and fs["uro"][size]["p50"] > 0:
            note = f"ucmp/uro p50 {fs['ucmp'][size]['p50'] / fs['uro'][size]['p50']:.2f}x"
        line(f"short {size // 1000} kB FCT p50 / p90 (ms)", vals, note)
        line("  completed", [f"{fs[m][size]['done']}/{fs[m][size]['n']}" for m in modes])
    line("long flow goodput (Mbit/s)", [f"{runs[m]['long'].get('goodput_mbps', 0):.2f}"
                                        + (" (error)" if runs[m]["long"].get("error") else "") for m in modes])
    line("long flow retransmits", [str(runs[m]["long"].get("retransmits")) for m in modes])
    for m in modes:
        tot: dict = {}
        for c in runs[m]["counters"].values():
            for g in ("drops", "events"):
                for k, v in c.get(g, {}).items():
                    if v and k not in ("timer", "timer_sync"):
                        tot[f"{g}.{k}"] = tot.get(f"{g}.{k}", 0) + v
        print(f"  [{m}] ToR counters during the mix: {dict(sorted(tot.items()))}")
    if "ucmp" in runs:
        r = runs["ucmp"]
        lv = route_levels(r["routes"].source, cfg.tors)
        print("  UCMP paths taken (ToR ssrr_paths: packets from hosts, by bucket and hop count; "
              "latency = the route set's mean latency of that hop count, in slices):")
        src = int(LONG[0][1:].split("_")[0])
        for label, tors in ((f"ToR {src} (long flow's source)", [src]),
                            ("the other ToRs (short flows only)", [t for t in range(cfg.tors) if t != src])):
            agg: dict = {}
            for t in tors:
                for b, hs in path_table(r, t).items():
                    for h, n in hs.items():
                        agg.setdefault(b, {}).setdefault(h, 0)
                        agg[b][h] += n
            for b in sorted(agg):
                total = sum(agg[b].values())
                mean_h = sum(h * n for h, n in agg[b].items()) / total
                cells = ", ".join(f"{h} hop{'s' if h > 1 else ''} {n}"
                                  + (f" ({lv[h]:.2f} sl)" if h in lv else "") for h, n in sorted(agg[b].items()))
                print(f"    {label:<36} bucket {b}: {total} packets, mean {mean_h:.2f} hops: {cells}")


if __name__ == "__main__":
    sys.exit(main(quick="--quick" in sys.argv))
