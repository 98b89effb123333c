"""`uro bench --suite ucmp`: UCMP and the baselines against the UCMP paper's figures.

Printed, never asserted:
- 108 x 6, Opera-style, 2 µs slices (the project default): UCMP group + bucket time,
  mean hops, group size, edge-disjoint share, queues/port, buckets, entries/ToR next to
  UCMP Table 2 / §7 (18 queues/port, ~27 buckets, ~9.5K entries/ToR, 93.2% disjoint).
- the paper's setting (50 µs slices: a whole path fits in one slice): mean hops of
  UCMP vs KSP (k=1) vs Opera (k=1) (paper: 2.32 vs 2.80 / 3.11), and round-robin.
- 1024 x 32: UCMP group time on a chunk of destinations, extrapolated to all of them
  (the full run is ``--full``; each chunk is independent, so time scales linearly).
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from controller import compare
from controller.errors import UroError
from controller.routing import ksp, opera, ucmp
from controller.schedule import opera as opera_schedule
from controller.schedule import round_robin

PAPER = {"mean_hops": 2.32, "ksp": 2.80, "opera": 3.11, "queues": 18, "buckets": 27, "entries": 9500,
         "disjoint": 93.2}


def _timed(fn, *a, **kw):
    t0 = time.perf_counter()
    out = fn(*a, **kw)
    return out, time.perf_counter() - t0


def _ucmp_row(label: str, sched) -> tuple[compare.SchemeMetrics, float]:
    """UCMP with the App. B h_max bound; if its buckets overflow the 6-bit DSCP, say so
    and step h_max down until they fit (what a user would do with --h-max)."""
    h_max = None
    while True:
        try:
            routes, secs = _timed(ucmp.compute, sched, ucmp.UcmpParams(h_max=h_max))
            break
        except UroError as e:
            if h_max == 1:
                raise
            bound = ucmp.hmax_upper_bound(sched, sched.timing.hops_per_slice)[0]
            h_max = min(bound - 1, 6) if h_max is None else h_max - 1
            print(f"  {label}: {e} -> retrying with h_max = {h_max}")
    if h_max is not None:
        label += f"(h_max={h_max})"
    return compare.metrics(label, routes), secs


def main(quick: bool = False, full_large: bool = False, large: bool = True) -> int:
    n, d = (32, 4) if quick else (108, 6)
    sched = opera_schedule(n, d)
    m, secs = _ucmp_row("ucmp", sched)
    print(f"== UCMP on Opera-style {n} x {d} ({sched.n_slices} slices of {sched.timing.slice_us:g} us, "
          f"{sched.timing.hops_per_slice} hops/slice)")
    print(f"groups + buckets + backups: {secs:.2f} s (target <= 2 s for 108 x 6)")
    print(f"mean hops {m.mean_hops:.2f} (paper {PAPER['mean_hops']}), mean group size {m.mean_group_size:.2f} paths "
          f"(paper ~3-5), edge-disjoint {100 * (m.edge_disjoint or 0):.1f}% (paper {PAPER['disjoint']}%)")
    print(f"queues/port {m.queues_per_port} (Table 2: {PAPER['queues']}), buckets {m.buckets} "
          f"(Table 2: ~{PAPER['buckets']}), entries/ToR {m.entries_per_tor:.0f} (Table 2: ~{PAPER['entries']})")

    slow = replace(sched.timing, slice_us=50.0)
    paper_sched = opera_schedule(n, d, timing=slow)
    print(f"== paper setting: {n} x {d}, 50 us slices ({paper_sched.timing.hops_per_slice} hops/slice)")
    rows = []
    m_u, t_u = _ucmp_row("ucmp", paper_sched)
    rows.append(m_u)
    sample = 2000 if not quick else None
    r_k, t_k = _timed(ksp.compute, paper_sched, k=1, sample=sample)
    rows.append(compare.metrics("ksp(k=1)" + ("*" if sample else ""), r_k))
    r_o, t_o = _timed(opera.compute, paper_sched, k=1, sample=sample)
    rows.append(compare.metrics("opera(k=1)" + ("*" if sample else ""), r_o))
    rr = round_robin(n, d, timing=slow)
    m_rr, t_rr = _ucmp_row("ucmp-rr", rr)
    rows.append(m_rr)
    print(compare.format_table(rows))
    if sample:
        print(f"* KSP and Opera on a seeded sample of {sample} (slice, src, dst) groups")
    print(f"mean hops: UCMP {m_u.mean_hops:.2f} vs KSP {rows[1].mean_hops:.2f} vs Opera {rows[2].mean_hops:.2f} "
          f"(paper {PAPER['mean_hops']} vs {PAPER['ksp']} / {PAPER['opera']}); "
          f"times: UCMP {t_u:.2f} s, KSP {t_k:.2f} s, Opera {t_o:.2f} s, UCMP round-robin {t_rr:.2f} s")

    if large and not quick:
        big = opera_schedule(1024, 32)
        chunk = 1024 if full_large else 16
        print(f"== UCMP groups on Opera-style 1024 x 32 ({big.n_slices} slices), "
              f"{'all destinations' if full_large else f'first {chunk} destinations, extrapolated'}")
        params = ucmp.UcmpParams()
        t0 = time.perf_counter()
        paths = groups = 0
        for ch in ucmp.group_chunks(big, params, chunk=16):
            paths += ch.p_lv.size
            groups += np.unique(ch.lv_gid).size
            if not full_large:
                break
        secs = time.perf_counter() - t0
        total = secs * (1024 / chunk)
        print(f"{groups} groups, {paths} paths in {secs:.1f} s -> {total:.0f} s for all 1024 destinations "
              f"(target <= 120 s)")
    return 0
