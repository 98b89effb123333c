"""`uro bench` / `make bench`: the fast engine against the Alg. 1 reference, side by side.

Figures are printed, never asserted (timings belong in benchmarks, not unit tests):
- 108 ToRs x 6 uplinks, Opera-style (18 slices), K=4: full table build time; the
  reference backtracking on a random sample of queries, extrapolated to all
  (src, dst, slice) queries; the speed ratio; agreement on the sample.
- OpenOptics' ``routing_hoho`` on the same schedule when ``openoptics-dcn`` is installed.
- 1024 x 32 (32 slices), K=4: build time and peak RSS, in a child process.
- entries/ToR against URO Table II: (N-1) x S.
"""

from __future__ import annotations

import json
from pathlib import Path
import resource
import subprocess
import sys
import time

import numpy as np

from controller.analysis import stats
from controller.tables import perhop
from controller.routing.reference import Reference
from controller.routing.uro import UroParams, compute
from controller.schedule import opera

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


def _child(n: int, d: int) -> None:
    """Run in a fresh process: build all tables for opera(n, d), print JSON figures."""
    r = _fast(n, d)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    st = stats.summarize(r["routes"]) if n <= 256 else None
    print(json.dumps({"secs": r["secs"], "rss_gib": rss, "entries": perhop.uncompressed_count(r["routes"]),
                      "compressed": r["compressed"], "mean_hops": st.mean_hops if st else None}))


def main(quick: bool = False, large: bool = True) -> int:
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
    if large and not quick:
        print("== 1024 ToRs x 32 uplinks (32 slices), K=4, in a child process")
        out = subprocess.run([sys.executable, "-c", "from benchmarks.bench_uro import _child; _child(1024, 32)"],
                             capture_output=True, text=True, cwd=str(Path(__file__).resolve().parents[1]))
        if out.returncode != 0:
            print(out.stderr.strip().splitlines()[-1] if out.stderr else "child failed")
            return 1
        fig = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"all per-hop tables in {fig['secs']:.1f} s, peak RSS {fig['rss_gib']:.2f} GiB; "
              f"entries/ToR {fig['entries']} (URO Table II: 32.8K), {fig['compressed']:.0f} with ranges")
    return 0


if __name__ == "__main__":
    sys.exit(main())
