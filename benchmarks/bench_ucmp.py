"""`uro bench --suite ucmp`: UCMP and the baselines against the UCMP paper's figures.

Printed, never asserted:
- 108 x 6, Opera-style, 2 µs slices (the project default): UCMP group + bucket time,
  mean hops, group size, edge-disjoint share, queues/port, buckets, entries/ToR next to
  UCMP Table 2 / §7 (18 queues/port, ~27 buckets, ~9.5K entries/ToR, 93.2% disjoint).
- the paper's setting (50 µs slices: a whole path fits in one slice): mean hops of
  UCMP vs KSP (k=1) vs Opera (k=1) (paper: 2.32 vs 2.80 / 3.11), and round-robin.
- engines side by side in one run: the compiled kernels (numba, all cores) against
  the NumPy reference engine, on 108 x 6 and on the first destinations of 1024 x 32.
- the daemon's failure step: UCMP towards every third destination of
  108 x 6 with an uplink down, and its compiled pieces (assembly, the other destinations'
  bucket profiles, the meeting table) next to their whole-array references.
- 1024 x 32: UCMP groups (the default policy, docs/ucmp.md) for all 1024 destinations
  with the compiled engine on all cores (target <= 120 s on 2 cores), the compiled
  engine against the same walk with the policies applied after it (every tie walked) on one
  chunk, and the whole `uro routes --algo ucmp` process streamed to the compact artifact
  (target <= 60 s on 2 cores, with the load average); the NumPy
  reference is run on the first chunk and extrapolated (on all of them with
  ``--full-large``; chunks are independent, so time scales linearly).
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import replace

import numpy as np

from controller.analysis import compare
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


#: the wider groups: every tied walk, every level (`--ties all --levels all`)
OLD = {"ties": "all", "levels": "all"}


def _ucmp_row(label: str, sched, **policy) -> tuple[compare.SchemeMetrics, float]:
    """UCMP with the App. B h_max bound; if its buckets overflow the 6-bit DSCP, say so
    and step h_max down until they fit (what a user would do with --h-max)."""
    h_max = None
    while True:
        try:
            routes, secs = _timed(ucmp.compute, sched, ucmp.UcmpParams(h_max=h_max, **policy))
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
    _, jit = _timed(ucmp.compute, round_robin(8, 2))
    print(f"== numba kernels ready in {jit:.1f} s (compiled on first use, then loaded from the on-disk cache)")
    sched = opera_schedule(n, d)
    m, secs = _ucmp_row("ucmp", sched)
    m_old, _ = _ucmp_row("ucmp(all ties)", sched, **OLD)
    _, secs_np = _timed(ucmp.compute, sched, ucmp.UcmpParams(engine="numpy"))
    print(f"== UCMP on Opera-style {n} x {d} ({sched.n_slices} slices of {sched.timing.slice_us:g} us, "
          f"{sched.timing.hops_per_slice} hops/slice)")
    print(f"groups + buckets + backups: {secs:.2f} s (target <= 2 s for 108 x 6); with the numpy reference engine "
          f"{secs_np:.2f} s -> {secs_np / secs:.1f}x")
    print(f"mean hops {m.mean_hops:.2f} (paper {PAPER['mean_hops']}), mean group size {m.mean_group_size:.2f} paths "
          f"(paper ~3-5), edge-disjoint members {100 * (m.edge_disjoint or 0):.1f}%, path pairs "
          f"{100 * (m.edge_disjoint_pairs or 0):.1f}% (paper {PAPER['disjoint']}%)")
    print(compare.format_table([m, m_old]))
    print(f"queues/port {m.queues_per_port} (Table 2: {PAPER['queues']}), buckets {m.buckets} "
          f"(Table 2: ~{PAPER['buckets']}), entries/ToR {m.entries_per_tor:.0f} (Table 2: ~{PAPER['entries']})")

    slow = replace(sched.timing, slice_us=50.0)
    paper_sched = opera_schedule(n, d, timing=slow)
    print(f"== paper setting: {n} x {d}, 50 us slices ({paper_sched.timing.hops_per_slice} hops/slice)")
    rows = []
    m_u, t_u = _ucmp_row("ucmp", paper_sched)
    rows.append(m_u)
    rows.append(_ucmp_row("ucmp(all ties)", paper_sched, **OLD)[0])
    sample = 2000 if not quick else None
    r_k, t_k = _timed(ksp.compute, paper_sched, ksp.KspParams(paths=1, sample=sample))
    rows.append(compare.metrics("ksp(k=1)" + ("*" if sample else ""), r_k))
    r_o, t_o = _timed(opera.compute, paper_sched, opera.OperaParams(paths=1, sample=sample))
    rows.append(compare.metrics("opera(k=1)" + ("*" if sample else ""), r_o))
    rr = round_robin(n, d, timing=slow)
    m_rr, t_rr = _ucmp_row("ucmp-rr", rr)
    rows.append(m_rr)
    print(compare.format_table(rows))
    if sample:
        print(f"* KSP and Opera on a seeded sample of {sample} (slice, src, dst) groups")
    print(f"mean hops: UCMP {m_u.mean_hops:.2f} vs KSP {rows[2].mean_hops:.2f} vs Opera {rows[3].mean_hops:.2f} "
          f"(paper {PAPER['mean_hops']} vs {PAPER['ksp']} / {PAPER['opera']}); "
          f"times: UCMP {t_u:.2f} s, KSP {t_k:.2f} s, Opera {t_o:.2f} s, UCMP round-robin {t_rr:.2f} s")

    _daemon_subset(quick)
    if large and not quick:
        _large(full_large)
    return 0


def _median(fn, reps: int = 7) -> float:
    ts = []
    for _ in range(reps):
        _, t = _timed(fn)
        ts.append(t)
    return float(np.median(ts))


def _daemon_subset(quick: bool) -> None:
    """The daemon's failure step (bench_daemon ROUTES_B): UCMP h_max 5 towards every third
    destination of Opera 108 x 6 with uplink (0, 1) down; the whole call, and its compiled
    pieces next to their whole-array references (same inputs, same process)."""
    from controller.routing import paths
    from controller.schedule.degrade import Failed, without

    n, d = (32, 4) if quick else (108, 6)
    sched = without(opera_schedule(n, d, seed=1), Failed(uplinks=frozenset({(0, 1)})))
    params = ucmp.UcmpParams(h_max=5)
    dsts = tuple(range(1, n, 3))
    got = {}
    orig = ucmp.assemble

    def grab(*a, **kw):
        got["a"] = (a, kw)
        return orig(*a, **kw)
    ucmp.assemble = grab
    try:
        ucmp.compute(sched, params, destinations=dsts)              # warm: numba load
    finally:
        ucmp.assemble = orig
    whole = _median(lambda: ucmp.compute(sched, params, destinations=dsts))
    a, kw = got["a"]
    rest = np.setdiff1d(np.arange(n), dsts)
    rows = [("assemble", lambda: paths.assemble(*a, **kw), lambda: paths.assemble_reference(*a, **kw)),
            ("other destinations' profiles", lambda: ucmp.other_profiles(sched, params, rest),
             lambda: ucmp.other_profiles_reference(sched, params, rest)),
            ("meeting table", lambda: paths.meeting_table(sched), lambda: paths.meeting_table_reference(sched))]
    print(f"== daemon failure step: UCMP h_max 5 towards {len(dsts)} of {n} destinations, {n} x {d}, uplink (0, 1) "
          f"down: {whole * 1e3:.0f} ms (median of 7; loadavg {open('/proc/loadavg').read().split()[0]})")
    for name, fast, ref in rows:
        tf, tr = _median(fast), _median(ref)
        print(f"  {name}: compiled {tf * 1e3:.1f} ms vs reference {tr * 1e3:.1f} ms -> {tr / tf:.1f}x")


def _groups_run(sched, params, engine: str) -> tuple[int, int, int, float]:
    """(groups, levels, paths, seconds) for all destinations."""
    seen = np.zeros(sched.n_slices * sched.n_tors * sched.n_tors, dtype=bool)
    levels = paths = 0
    t0 = time.perf_counter()
    for ch in ucmp.group_chunks(sched, params, engine=engine):
        seen[ch.lv_gid] = True
        levels += ch.lv_gid.size
        paths += ch.p_lv.size
    return int(seen.sum()), levels, paths, time.perf_counter() - t0


def _first_chunk(sched, params, engine: str, n: int = 16) -> tuple[int, int, float]:
    """(levels, paths, seconds) of one engine on destinations 0..n-1, one core."""
    run = ucmp.chunk_runner(sched, params, engine)
    t0 = time.perf_counter()
    out = run(np.arange(n))
    return out[0].size, out[6].size, time.perf_counter() - t0


def _policies_after(sched, params, n: int = 16) -> float:
    """Seconds of the compiled engine with the policies applied after the walk (every tied
    walk up to the tie search, then ``ucmp_policy.apply``) on destinations 0..n-1, one
    core: the yardstick of the in-walk form (same output, tests)."""
    from controller.routing import ucmp_kernel, ucmp_policy

    H, n_cap = ucmp.hop_limits(sched, params)
    peer = np.ascontiguousarray(sched.peer, dtype=np.int32)
    search = max(params.max_parallel, params.tie_search)
    t0 = time.perf_counter()
    out = ucmp_kernel.levels_and_paths(peer, H, n_cap, np.arange(n), search)
    ucmp_policy.apply(out, params.ties, params.levels, params.max_parallel, sched.n_tors)
    return time.perf_counter() - t0


def _streamed_whole_process(n: int, d: int) -> None:
    """`uro routes --algo ucmp` to the compact artifact (streamed), the whole process."""
    import sys
    import tempfile

    from benchmarks.bench_uro import _load, _run_child

    argv = [sys.executable, "-m", "controller.cli", "routes", "--generate", "opera", "--tors", str(n), "--uplinks",
            str(d), "--algo", "ucmp"]
    with tempfile.TemporaryDirectory() as tmp:
        before = _load()
        wall, rss = _run_child(argv + ["-o", f"{tmp}/u.uro"])
        after = _load()
    print(f"`uro routes --algo ucmp` {n} x {d} -> compact artifact (streamed), whole process: {wall:.1f} s, "
          f"peak RSS {rss:.2f} GiB (target <= 60 s on 2 cores; load {before} -> {after})")


def _large(full_large: bool) -> None:
    big = opera_schedule(1024, 32)
    params = ucmp.UcmpParams()
    cores = os.cpu_count() or 1
    print(f"== UCMP groups on Opera-style 1024 x 32 ({big.n_slices} slices, h_max "
          f"{ucmp.hmax_upper_bound(big)[0]}), ties {params.ties} (cap {params.max_parallel}, tie search "
          f"{params.tie_search}), levels {params.levels}")
    lv1, p1, t_nb1 = _first_chunk(big, params, "numba")
    lv_r, p_r, t_np = _first_chunk(big, params, "numpy")
    print(f"first 16 destinations, one core: numba {t_nb1:.2f} s vs numpy reference {t_np:.2f} s -> "
          f"{t_np / t_nb1:.1f}x ({lv1} levels, {p1} paths; reference "
          f"{'the same counts' if (lv1, p1) == (lv_r, p_r) else f'DIFFERENT: {lv_r} levels, {p_r} paths'})")
    t_after = _policies_after(big, params)
    print(f"first 16 destinations, one core: policies in the walk {t_nb1:.2f} s vs walking every tie and "
          f"filtering after {t_after:.2f} s -> ratio {t_nb1 / t_after:.2f}")
    g, lv, p, secs = _groups_run(big, params, "numba")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    print(f"all 1024 destinations, numba on {cores} cores: {g} groups, {lv} levels, {p} paths in {secs:.1f} s "
          f"(target <= 120 s), peak RSS {rss:.2f} GB")
    if full_large:
        _, lv_r, p_r, t_all = _groups_run(big, params, "numpy")
        print(f"numpy reference on all 1024, one core: {t_all:.0f} s -> numba {t_all / secs:.1f}x "
              f"({'the same counts' if (lv, p) == (lv_r, p_r) else f'DIFFERENT: {lv_r} levels, {p_r} paths'})")
    else:
        print(f"numpy reference, one core: ~{t_np * 64:.0f} s extrapolated from 16 destinations -> "
              f"numba ~{t_np * 64 / secs:.0f}x end to end (all 1024: --full-large)")
    _streamed_whole_process(1024, 32)
