"""Route artifacts, side by side in one run (`uro bench --suite artifacts` or
`python -m benchmarks.bench_artifacts`). Figures are printed, never asserted.

Every figure is a whole `uro` process (interpreter start, imports, schedule, routes,
writing), timed from outside with its peak RSS from ``wait4``:

- (108, 6) Opera-style, K = 4, `uro routes`: compact artifact vs JSON (time, size, ratios);
- (1024, 32), K = 4, per-hop tables to the compact artifact: time, peak RSS, size;
- (1024, 32) UCMP source routes of every source ToR, streamed to the compact artifact:
  time, peak RSS, size, entries and paths per ToR next to UCMP Table 2 (187K entries/ToR);
- reading one ToR's tables back from the (1024, 32) artifacts (open + tor_table + entries): ms.

``--memory`` measures the peak bytes per (slice, ToR, ToR) cell of each job
(:data:`controller.memory.BYTES_PER_CELL`) at a mid size.

The machine may be shared: the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from benchmarks.machine import load_average as _load

#: UCMP paper, Table 2: entries per ToR at (1024, 32) (counted per path)
UCMP_TABLE2_ENTRIES = 187_000


def _measured(argv: list[str], cwd: Path) -> dict:
    """Run ``uro argv`` under a helper process that reports the child's peak RSS."""
    code = ("import os, resource, subprocess, sys, time\n"
            "t = time.perf_counter()\n"
            "p = subprocess.run([sys.executable, '-m', 'controller.cli'] + sys.argv[1:], capture_output=True, text=True)\n"
            "secs = time.perf_counter() - t\n"
            "ru = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "sys.stderr.write(p.stderr)\n"
            "print(p.returncode, secs, ru.ru_maxrss * 1024, ru.ru_utime + ru.ru_stime)\n")
    p = subprocess.run([sys.executable, "-c", code, *argv], cwd=cwd, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    rc, secs, rss, cpu = p.stdout.strip().splitlines()[-1].split()
    return {"rc": int(rc), "secs": float(secs), "rss": int(rss), "cpu": float(cpu),
            "err": p.stderr.strip().splitlines()[-1:]}


def size_of(path: Path) -> int:
    if path.is_dir():
        return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
    return path.stat().st_size


def _mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB" if n < 1e9 else f"{n / 1e9:.2f} GB"


def _gib(n: float) -> str:
    return f"{n / 2**30:.2f} GiB"


def _check(r: dict, what: str) -> None:
    if r["rc"] != 0:
        raise SystemExit(f"{what} failed: {r['err']}")


def read_one_tor(path: Path, tors: list[int]) -> list[float]:
    """ms to open the artifact and read one ToR's table and all its entries, per ToR."""
    from controller.tables import artifacts, perhop, source

    out = []
    for x in tors:
        t0 = time.perf_counter()
        art = artifacts.open(path)
        tbl = art.tor_table(x)
        n = sum(1 for _ in (perhop if art.kind == "per_hop" else source).entries(tbl, x))
        out.append(((time.perf_counter() - t0) * 1e3, n))
    return out


def main(quick: bool = False, large: bool = True, keep: Path | None = None) -> int:
    from controller.tables import artifacts

    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="uro-bench-art-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"load average before: {_load()} ({os.cpu_count()} cores)")
    try:
        gen108 = ["--generate", "opera", "--tors", "108", "--uplinks", "6"]
        c = _measured(["routes", *gen108, "-K", "4", "-o", "r108.uro"], work)
        _check(c, "108x6 compact")
        j = _measured(["routes", *gen108, "-K", "4", "-o", "r108.json"], work)
        _check(j, "108x6 JSON")
        sc, sj = size_of(work / "r108.uro"), size_of(work / "r108.json")
        print("\n(108, 6) Opera-style, K=4, `uro routes` whole process")
        print(f"  compact artifact  {c['secs']:6.2f} s  ({c['cpu']:.2f} CPU-s)  peak RSS {_gib(c['rss'])}  {_mb(sc)}   (targets <= 1.5 s)")
        print(f"  JSON              {j['secs']:6.2f} s  ({j['cpu']:.2f} CPU-s)  peak RSS {_gib(j['rss'])}  {_mb(sj)}")
        print(f"  ratio             {j['secs'] / c['secs']:6.1f}x faster, {sj / sc:.0f}x smaller "
              f"(target: <= 1/10 of the JSON)")
        if quick or not large:
            return 0
        gen1024 = ["--generate", "opera", "--tors", "1024", "--uplinks", "32"]
        u = _measured(["routes", *gen1024, "-K", "4", "-o", "r1024.uro"], work)
        _check(u, "1024x32 per-hop")
        print("\n(1024, 32) Opera-style, K=4 per-hop tables -> compact artifact, whole process")
        print(f"  {u['secs']:.1f} s ({u['cpu']:.0f} CPU-s), peak RSS {_gib(u['rss'])}, artifact "
              f"{_mb(size_of(work / 'r1024.uro'))} (targets <= 45 s, <= 4 GiB)")
        m = _measured(["routes", *gen1024, "--algo", "ucmp", "-o", "u1024.uro"], work)
        _check(m, "1024x32 UCMP")
        man = artifacts.open(work / "u1024.uro").manifest
        N = 1024
        print("\n(1024, 32) UCMP source routes for every source ToR, streamed -> compact artifact, whole process")
        print(f"  {m['secs']:.1f} s ({m['cpu']:.0f} CPU-s: {m['cpu'] / 2:.0f} s on 2 idle cores), peak RSS "
              f"{_gib(m['rss'])}, artifact {_mb(size_of(work / 'u1024.uro'))} (targets <= 180 s, <= 6 GiB on 2 cores)")
        print(f"  {man['paths']:,} paths, {man['members']:,} members, {man['buckets']['count']} buckets")
        print(f"  per ToR: {man['entries_per_tor']:,.0f} entries (tied paths share one selector entry), "
              f"{man['paths'] / N:,.0f} paths; UCMP Table 2: {UCMP_TABLE2_ENTRIES:,} entries/ToR (counted per path)")
        print("\nreading one ToR's tables back (open + tor_table + every entry), this process")
        for name in ("r1024.uro", "u1024.uro"):
            res = read_one_tor(work / name, [0, 517, 1023])
            print(f"  {name}: " + ", ".join(f"ToR {x}: {ms:.0f} ms ({n:,} entries)"
                                             for x, (ms, n) in zip((0, 517, 1023), res)))
            t0 = time.perf_counter()
            art = artifacts.open(work / name)
            for x in (3, 700):
                art.tor_table(x)
            print(f"    tor_table alone (artifact open): {(time.perf_counter() - t0) * 1e3 / 2:.1f} ms per ToR")
        return 0
    finally:
        print(f"\nload average after: {_load()}")
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def memory_figures() -> int:
    """Peak bytes per (slice, ToR, ToR) cell of each job, from two sizes (the difference
    removes the interpreter's fixed share)."""
    from controller import memory

    work = Path(tempfile.mkdtemp(prefix="uro-bench-mem-"))
    big = [(256, 8), (512, 16)]
    small = [(128, 8), (256, 8)]  # in-memory UCMP holds every path: smaller sizes
    jobs = {
        "generate": (lambda g: ["schedule", "generate", *g, "-o", "s.json"], big),
        "uro": (lambda g: ["routes", *g, "-K", "4", "-o", "r.uro"], big),
        "uro_stats": (lambda g: ["stats", *g, "-K", "4"], big),
        "ucmp": (lambda g: ["stats", *g, "--algo", "ucmp"], small),
        "ucmp_stream": (lambda g: ["routes", *g, "--algo", "ucmp", "-o", "u.uro"], big),
        "direct": (lambda g: ["stats", *g, "--algo", "direct"], big),
    }
    print(f"load average: {_load()}")
    print(f"{'job':12s} {'bytes/cell measured':>20s} {'in controller.memory':>22s}")
    try:
        for what, (argv, sizes) in jobs.items():
            rss = []
            cells = []
            for n, d in sizes:
                g = ["--generate", "opera", "--tors", str(n), "--uplinks", str(d)]
                r = _measured(argv(g), work)
                _check(r, f"{what} {n}x{d}")
                rss.append(r["rss"])
                cells.append(-(-(n - 1) // d) * n * n)
            per = (rss[1] - rss[0]) / (cells[1] - cells[0])
            have = memory.estimate(what, 1, 1, 1) - (200 << 20) if what != "uro" else \
                memory.BYTES_PER_CELL["uro"] + 4 * memory.BYTES_PER_CELL["uro_per_k"]
            print(f"{what:12s} {per:20.1f} {have:22.0f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="(108, 6) only")
    ap.add_argument("--memory", action="store_true", help="measure bytes per cell per job instead")
    ap.add_argument("--keep", help="keep the artifacts in this directory")
    a = ap.parse_args()
    sys.exit(memory_figures() if a.memory else main(quick=a.quick, keep=a.keep))
