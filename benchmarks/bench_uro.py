"""`uro bench` / `make bench`: the fast engine against the Alg. 1 reference, side by side.

Figures are printed, never asserted (timings belong in benchmarks, not unit tests):
- 108 ToRs x 6 uplinks, Opera-style (18 slices), K=4: full table build time; the
  reference backtracking on a random sample of queries, extrapolated to all
  (src, dst, slice) queries; the speed ratio; agreement on the sample.
- OpenOptics' ``routing_hoho`` on the same schedule when ``openoptics-dcn`` is installed.
- 1024 x 32 (32 slices), K=4: the whole `uro routes` process to the compact artifact, today's
  NumPy engine vs the compiled kernels (wall time, peak RSS, ratio, load average).
- the compiled engine vs the NumPy engine in-process, its first call (kernel load) apart.
- entries/ToR against URO Table II: (N-1) x S.
- the compiled kernels' CPU per destination at (1024, 32), and with ``--full-large`` at
  (2048, 64) and (4096, 64).
- (1024, 32), K = 10: the routes after one cut cable after another, each repaired from the
  last (the daemon's path), in one long-running process with NumPy's arrays on huge pages
  and on ordinary pages, side by side (``controller.memory.small_pages``).
"""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np

from controller.analysis import stats
from controller.tables import perhop
from controller.routing.reference import Reference
from controller.routing.uro import NUMBA_FROM_TORS, UroParams, compute
from controller.schedule import opera
from benchmarks.machine import load_average as _load

PAPER_ENTRIES = {(108, 6): "1.9K", (1024, 32): "32.8K"}
BENCH_M = 4  # hop bound given to both engines (the reference needs one)


def _fast(n: int, d: int, k: int = 4) -> dict:
    sched = opera(n, d)
    t0 = time.perf_counter()
    routes = compute(sched, UroParams(k=k, max_hops=BENCH_M))
    comp = perhop.compressed_counts(routes)
    secs = time.perf_counter() - t0
    return {"sched": sched, "routes": routes, "secs": secs, "compressed": float(comp.mean())}


def _reference_sample(sched, routes, budget_s: float, rng) -> dict:
    ref = Reference(sched, max_hops=BENCH_M)
    N, S = sched.n_tors, sched.n_slices
    n = agree = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < budget_s or n < 20:
        a, b = (int(v) for v in rng.choice(N, 2, replace=False))
        t = int(rng.integers(S))
        p = ref.route(a, b, t)
        n += 1
        got = (int(routes.arrival[t, a, b]), int(routes.hops[t, a, b]))
        agree += p is not None and ref.latency(p, t) == got
    per_query = (time.perf_counter() - t0) / n
    return {"queries": n, "per_query": per_query, "agree": agree / n, "total": per_query * N * (N - 1) * S}


def _openoptics(sched) -> float | None:
    try:
        import networkx as nx
        from openoptics.OpticalRouting import routing_hoho
    except Exception:
        return None
    graphs = {}
    for s in range(sched.n_slices):
        g = nx.Graph()
        g.add_nodes_from(range(sched.n_tors))
        for a in range(sched.n_tors):
            for u in range(sched.n_uplinks):
                b = int(sched.peer[s, a, u])
                if b > a:
                    g.add_edge(a, b, port1=u, port2=u)
        graphs[s] = g
    t0 = time.perf_counter()
    routing_hoho(graphs)
    return time.perf_counter() - t0


def _engines_side_by_side(sched, quick: bool, repeat: int = 5) -> None:
    """The compiled per-destination engine against today's NumPy engine, in this process:
    first call (cached-kernel load, or compilation on a new machine) reported apart."""
    params = UroParams(k=4)
    t0 = time.perf_counter()
    compute(sched, params, engine="numba")
    first = time.perf_counter() - t0
    rows = []
    for _ in range(2 if quick else repeat):
        t0 = time.perf_counter()
        compute(sched, params, engine="numpy")
        a = time.perf_counter() - t0
        t0 = time.perf_counter()
        compute(sched, params, engine="numba")
        rows.append((a, time.perf_counter() - t0))
    a, b = (float(np.median([r[i] for r in rows])) for i in (0, 1))
    print(f"== engines, {sched.n_tors}x{sched.n_uplinks} K=4 in-process (median of {len(rows)}, load {_load()}): "
          f"numpy {a:.3f} s, numba {b:.3f} s -> ratio numba/numpy {b / a:.2f}; numba first call (kernel load "
          f"or compile) {first:.2f} s; `uro routes` picks numba from {NUMBA_FROM_TORS} ToRs on")


def _run_child(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (GiB) of a whole child process."""
    import os

    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {proc.stderr.read().decode()[-400:]}")
    return wall, ru.ru_maxrss / 2**20


def _whole_process(n: int, d: int, repeat: int = 2) -> None:
    """`uro routes` to the compact artifact, the whole process, today's engine vs the compiled one."""
    import tempfile

    uro = [sys.executable, "-m", "controller.cli"]
    base = ["routes", "--generate", "opera", "--tors", str(n), "--uplinks", str(d), "-K", "4"]
    print(f"== `uro routes` {n}x{d} K=4 -> compact artifact, whole process, today's NumPy engine vs compiled kernels")
    with tempfile.TemporaryDirectory() as tmp:
        figs = {"numpy": [], "numba": []}
        loads = [_load()]
        for _ in range(repeat):
            for eng in ("numpy", "numba"):
                figs[eng].append(_run_child(uro + base + ["--uro-engine", eng, "-o", f"{tmp}/{eng}.uro"]))
            loads.append(_load())
    (a, ra), (b, rb) = ((float(np.median([f[0] for f in figs[e]])), max(f[1] for f in figs[e])) for e in ("numpy", "numba"))
    print(f"numpy: {a:.1f} s, peak RSS {ra:.2f} GiB; numba: {b:.1f} s, peak RSS {rb:.2f} GiB; "
          f"ratio numba/numpy {b / a:.2f} (median of {repeat}; load {' -> '.join(loads)}; target <= 10 s, <= 2 GiB)")


def _per_destination(n: int, d: int) -> None:
    """Kernel CPU per destination: one chunk of 16 destinations in this thread after a warm
    chunk (kernels loaded), and the client's set-up (schedule, direct labels); what sizes a
    machine or a Dask cluster for a fabric (docs/scale.md "What larger fabrics would take")."""
    from controller.routing import uro_chunks

    t0 = time.process_time()
    sched = opera(n, d)
    spec = uro_chunks.spec_for(sched, UroParams(k=4))
    setup = time.process_time() - t0
    C = uro_chunks.DEFAULT_CHUNK
    uro_chunks.routes_chunk(spec, 0, C)
    t0 = time.process_time()
    uro_chunks.routes_chunk(spec, C, C)
    per = (time.process_time() - t0) / C
    print(f"== URO kernel CPU, Opera-style {n}x{d} ({sched.n_slices} slices) K=4 (load {_load()}): "
          f"{per * 1e3:.1f} ms per destination -> {per * n:.1f} CPU-s for all {n}; set-up (schedule, direct "
          f"labels) {setup:.1f} CPU-s")


#: the cables cut one after another by :func:`_repairs` (ToR, uplink)
CABLES = ((5, 2), (9, 3), (17, 4), (33, 5), (65, 6))


def _repairs(n: int, d: int, k: int) -> list[float]:
    """(In the child of :func:`_repairs_side_by_side`.) The whole routes, then each of
    :data:`CABLES` cut alone, its routes repaired from the last ones
    (``uro_incremental.repair``, the daemon's path after a failure), the last two sets kept
    as the daemon's route cache keeps them at this size: the seconds of each."""
    from controller.routing import uro_incremental
    from controller.schedule.degrade import Failed, without

    sched = opera(n, d)
    params = UroParams(k=k, max_hops=4)
    cables = [(t % n, u % d) for t, u in CABLES]
    t0 = time.perf_counter()
    r = compute(sched, params)
    times = [time.perf_counter() - t0]
    uro_incremental.repair(r, without(sched, Failed(uplinks=frozenset({cables[-1]}))))   # kernels loaded
    kept = [r]
    for cable in cables:
        t0 = time.perf_counter()
        r = uro_incremental.repair(kept[-1], without(sched, Failed(uplinks=frozenset({cable})))).routes
        times.append(time.perf_counter() - t0)
        kept = [kept[-1], r]
    return times


def _repairs_side_by_side(n: int, d: int, k: int = 10) -> None:
    """:func:`_repairs` in two child processes, NumPy's arrays on huge pages
    (``NUMPY_MADVISE_HUGEPAGE=1``) and on ordinary pages (``=0``, what uro's processes use:
    ``controller.memory.small_pages``), one after the other."""
    import json
    import os
    from pathlib import Path

    print(f"== URO routes after one cut cable after another, {n}x{d} K={k}, each repaired from the last in one "
          "long-running process: NumPy's arrays on huge pages vs ordinary pages")
    got, loads = {}, [_load()]
    for huge in ("1", "0"):
        env = dict(os.environ, NUMPY_MADVISE_HUGEPAGE=huge)
        out = subprocess.run([sys.executable, "-m", "benchmarks.bench_uro", "--repairs", str(n), str(d), str(k)],
                             capture_output=True, text=True, env=env, cwd=Path(__file__).resolve().parent.parent)
        if out.returncode != 0:
            print(f"   NUMPY_MADVISE_HUGEPAGE={huge}: failed: {(out.stderr or out.stdout).strip()[-300:]}")
            return
        got[huge] = json.loads(out.stdout.strip().splitlines()[-1])
        loads.append(_load())
    for huge, label in (("1", "huge pages"), ("0", "ordinary pages")):
        t = got[huge]
        print(f"   {label:<14}: whole {t[0]:.2f} s; repairs " + ", ".join(f"{x:.2f}" for x in t[1:]) + " s")
    a, b = np.median(got["1"][1:]), np.median(got["0"][1:])
    print(f"   median repair {a:.2f} s vs {b:.2f} s: ratio huge/ordinary {a / b:.1f}x; whole "
          f"{got['1'][0] / got['0'][0]:.1f}x (load {' -> '.join(loads)})")


def main(quick: bool = False, large: bool = True, full_large: bool = False) -> int:
    rng = np.random.default_rng(1)
    n, d = (32, 4) if quick else (108, 6)
    print(f"== URO fast engine vs Alg. 1 reference: Opera-style {n} ToRs x {d} uplinks, K=4, M={BENCH_M}")
    r = _fast(n, d)
    sched, routes = r["sched"], r["routes"]
    st = stats.summarize(routes)
    print(f"fast engine: all per-hop tables in {r['secs']:.3f} s "
          f"({sched.n_slices} slices, {n * (n - 1) * sched.n_slices} (src,dst,slice) queries)")
    ref = _reference_sample(sched, routes, 3.0 if quick else 15.0, rng)
    print(f"reference (backtracking): {ref['per_query'] * 1e3:.2f} ms/query on {ref['queries']} sampled queries "
          f"-> {ref['total']:.1f} s for all (URO paper: 55 s)")
    print(f"speed ratio fast/reference: {ref['total'] / r['secs']:.0f}x; "
          f"same (latency, hops) on {100 * ref['agree']:.1f}% of the sample")
    oo = None if quick else _openoptics(sched)
    if oo is None:
        print("OpenOptics routing_hoho: not measured (pip install 'uro[bench]' to include it)")
    else:
        t0 = time.perf_counter()
        compute(sched, UroParams(k=1))
        ours = time.perf_counter() - t0
        print(f"OpenOptics routing_hoho (unbounded): {oo:.2f} s vs fast engine unbounded K=1 {ours:.3f} s "
              f"-> ratio {oo / ours:.0f}x")
    paper = PAPER_ENTRIES.get((n, d), "-")
    print(f"entries/ToR: {st.entries_per_tor} = (N-1) x S (URO Table II: {paper}); "
          f"{r['compressed']:.0f} with arrival-slice ranges; queues/port {st.max_queues_per_port}; "
          f"mean hops {st.mean_hops:.2f}")
    _engines_side_by_side(sched, quick)
    if large and not quick:
        _whole_process(1024, 32)
        _per_destination(1024, 32)
        _repairs_side_by_side(1024, 32)
    if full_large and not quick:
        _per_destination(2048, 64)
        _per_destination(4096, 64)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--repairs"]:           # the child of _repairs_side_by_side
        import json
        print(json.dumps(_repairs(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))))
        raise SystemExit(0)
    sys.exit(main())
