"""Tofino2 builds: compile time and resources of the named profiles with the real bf-p4c,
and URO's K = 4 vs K = 10 alternatives at (108, 6) and (1024, 32) (URO Table II).

`uro bench --suite tofino2` (or `python -m benchmarks.bench_tofino2`). Each build takes
minutes (r1024x32 takes 5-20 on a shared 2-core machine); figures are printed,
never asserted. A profile that does not fit is reported with the compiler's reason.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from pathlib import Path

from controller.errors import UroError
from controller.p4gen import build as p4build
from controller.p4gen import profile as prof
from controller.tofino2 import compiler, report


def _variants(quick: bool, large: bool):
    out = [("tiny", prof.load("tiny"))]
    if quick:
        return out
    r108 = prof.load("r108x6")
    out += [("r108x6 (K=4)", r108), ("r108x6 K=10", dataclasses.replace(r108, name="r108x6_k10", alternatives=10))]
    if large:
        r1024 = prof.load("r1024x32")
        out += [("r1024x32 (K=10)", r1024), ("r1024x32 K=4", dataclasses.replace(r1024, name="r1024x32_k4",
                                                                                 alternatives=4))]
    return out


def main(quick: bool = False, large: bool = True, keep: str | None = None) -> int:
    if compiler.find() is None:
        print(f"tofino2 builds skipped: {compiler.missing_message()}")
        return 0
    print("Tofino2 builds (bf-p4c --target tofino2 --arch t2na): compile time and resources")
    rows = []
    for label, p in _variants(quick, large):
        out = Path(keep) / p.name if keep else Path(tempfile.mkdtemp(prefix=f"t2na_{p.name}_"))
        t0 = time.monotonic()
        try:
            p4build.build(p, out, target="tofino2")
        except UroError as e:
            rows.append((label, f"{time.monotonic() - t0:.0f} s", f"does not fit: {e}"))
            print(f"  {label}: does not build ({time.monotonic() - t0:.0f} s): {e}")
            continue
        r = report.load(out)
        uro = r.table_sram("uro_next_hop")
        ssrr = r.table_sram(*report.SOURCE_ROUTE_TABLES)
        rows.append((label, f"{r.compile_seconds:.0f} s",
                     f"stages {r.stages}/20, SRAM {r.sram.pct:.2f}% (uro_next_hop {uro.pct:.2f}%, ssrr {ssrr.pct:.2f}%), "
                     f"TCAM {r.tcam.pct:.2f}%, stateful ALUs {r.stateful_alus.used}/{r.stateful_alus.total}, "
                     f"PHV {r.phv_bits.pct:.1f}%"))
        print(report.format_report(r, p))
    print()
    w = max(len(r[0]) for r in rows)
    for label, secs, text in rows:
        print(f"  {label.ljust(w)}  {secs:>6}  {text}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(quick="--quick" in sys.argv, large="--skip-large" not in sys.argv))
