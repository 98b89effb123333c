"""`uro bench --suite ucmp-failure`: a failure's new generation of UCMP source routes, the
whole path against the incremental one, side by side in one run.

What a daemon does for the source-route tables of every ToR when a cable is cut or a ToR
dies (docs/fabric.md "UCMP source routes after a failure"), in this process, without
switches (the same functions the daemon calls; the switches' writes are counted, not
made):

- *whole* (``[daemon] incremental = false``): the UCMP routes recomputed on the degraded
  schedule (:func:`controller.routing.ucmp.compute`, towards the source-routed
  destinations), then per ToR its whole source-route generation built
  (:func:`controller.tables.bulk.ssrr_entries`) and diffed against the one it holds;
- *incremental*: the routes repaired (:func:`controller.routing.ucmp_incremental.repair`:
  only the destinations a removed circuit or a capped level touches recomputed, the
  changed (src, dst, start slice) cells found), then per ToR only its changed cells'
  selector groups, members and entries that differ between the old and new routes built
  (:func:`controller.tables.bulk.ssrr_cell_pair`: what both hold equal is compared as
  values and never made) and diffed.

Both diffs are the objects the update writes; they must be the same (checked, printed).
Times are wall and CPU seconds of this process with the load average beside them
(figures, never asserted). The network is the fabric bench's: Opera schedule, seed 1,
every third ToR a source-routed destination, UCMP with h_max = 5. The ToR held
generation is built before the clock starts (a switch holds it already).
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: (ToRs, uplinks) measured; quick: the first only
SIZES = ((108, 6), (192, 8))
FAILURES = (("cut cable ToR 5 uplink 2", {"uplinks": frozenset({(5, 2)})}), ("dead ToR 7", {"tors": frozenset({7})}))


def contract(n: int, d: int) -> dict:
    """The ToR program's contract for (n, d): the committed one, or the r108x6 profile's
    tables at this size (rendered, no compiler needed: only the contract is read)."""
    from controller.p4gen import profile as prof, render as rnd

    f = ROOT / "p4src" / f"tor_r{n}x{d}.contract.json"
    if f.exists():
        return json.loads(f.read_text())
    base = prof.load("r108x6")
    p = dataclasses.replace(base, name=f"r{n}x{d}", tors=n, uplinks=d, slices=n // d, queues=n // d)
    return rnd.contract(p, "tor")


class _Clock:
    """Wall and CPU seconds of what runs inside ``with``."""

    def __enter__(self):
        self.w, self.c = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall, self.cpu = time.perf_counter() - self.w, time.process_time() - self.c


def _objects(b) -> int:
    return len(b.members) + len(b.groups) + len(b.entries)


def measure(n: int, d: int, failed_kw: dict) -> dict:
    from controller.agent.diff import diff
    from controller.routing import ucmp, ucmp_incremental as ui
    from controller.schedule import opera
    from controller.schedule.degrade import Failed, without
    from controller.tables import bulk

    sched = opera(n, d, seed=1)
    sr = list(range(1, n, 3))
    params = ucmp.UcmpParams(h_max=5, hops_per_slice=sched.timing.hops_per_slice)
    c = contract(n, d)
    before = ucmp.compute(sched, params, destinations=sr)
    ui.warm_kernel()                  # as the daemon at its start (plan.warm): no repair loads a kernel
    rs = without(sched, Failed(**failed_kw))
    out = {"tors": n, "uplinks": d, "load": os.getloadavg()[0]}
    gc.collect()
    with _Clock() as routes_w:
        full = ucmp.compute(rs, params, destinations=sr)
    built_w, written_w, ent_w = 0, 0, [0.0, 0.0]
    for tor in range(n):
        dsts = [x for x in sr if x != tor]
        held = bulk.ssrr_entries(c, before, tor, 0, dsts)     # what the switch holds: not timed
        with _Clock() as one:
            new = bulk.ssrr_entries(c, full, tor, 0, dsts)
            built_w += _objects(new)
            written_w += len(diff(held, new))
            del new
        ent_w[0] += one.wall
        ent_w[1] += one.cpu
        del held
    gc.collect()
    with _Clock() as routes_i:
        rep = ui.repair(before, rs, params, sr)
    cells = rep.by_tor()
    built_s, written_s = 0, 0
    gc.collect()
    with _Clock() as ent_s:           # each side's cells built whole (what both hold equal too)
        for tor, mine in cells.items():
            dsts = [x for x in sr if x != tor]
            old = bulk.ssrr_cell_entries(c, before, tor, mine, 0, dsts)
            new = bulk.ssrr_cell_entries(c, rep.routes, tor, mine, 0, dsts)
            built_s += _objects(old) + _objects(new)
            written_s += len(diff(old, new))
    built_i, written_i = 0, 0
    gc.collect()
    with _Clock() as ent_i:
        for tor, mine in cells.items():
            dsts = [x for x in sr if x != tor]
            old, new = bulk.ssrr_cell_pair(c, before, rep.routes, tor, mine, 0, dsts)
            built_i += _objects(old) + _objects(new)
            written_i += len(diff(old, new))
    same = not len(ui.changed_cells(full, rep.routes, sr))
    groups = (n - 1) * len(sr) * sched.n_slices
    out.update(routes_whole=(routes_w.wall, routes_w.cpu), routes_inc=(routes_i.wall, routes_i.cpu),
               entries_whole=tuple(ent_w), entries_inc=(ent_i.wall, ent_i.cpu), entries_sides=(ent_s.wall, ent_s.cpu),
               built_sides=built_s, written_sides=written_s,
               built_whole=built_w, built_inc=built_i, written_whole=written_w, written_inc=written_i,
               cells=len(rep.cells), groups=groups, recomputed=int(rep.destinations.size), dsts=len(sr),
               same=same, load_end=os.getloadavg()[0])
    return out


def report(name: str, r: dict) -> None:
    rw, ri = r["routes_whole"], r["routes_inc"]
    ew, ei = r["entries_whole"], r["entries_inc"]
    tw, ti = rw[1] + ew[1], ri[1] + ei[1]
    print(f"-- ({r['tors']}, {r['uplinks']}) {name}: {r['cells']:,} of {r['groups']:,} source-route cells changed, "
          f"{r['recomputed']} of {r['dsts']} destinations recomputed; routes identical to the whole recomputation: "
          f"{r['same']}; load {r['load']:.1f} -> {r['load_end']:.1f}")
    print(f"   {'':34s} {'whole':>14s} {'incremental':>14s} {'ratio':>7s}")   # entries: built and diffed
    for what, a, b in (("routes (wall / CPU s)", rw, ri), ("entries (wall / CPU s)", ew, ei)):
        print(f"   {what:34s} {a[0]:6.2f} / {a[1]:5.2f} {b[0]:6.2f} / {b[1]:5.2f} {a[1] / max(b[1], 1e-9):6.1f}x")
    print(f"   {'CPU s in all':34s} {tw:14.2f} {ti:14.2f} {tw / max(ti, 1e-9):6.1f}x")
    print(f"   {'objects built':34s} {r['built_whole']:14,} {r['built_inc']:14,} "
          f"{r['built_whole'] / max(r['built_inc'], 1):6.1f}x")
    print(f"   {'objects written':34s} {r['written_whole']:14,} {r['written_inc']:14,} "
          f"{'same' if r['written_whole'] == r['written_inc'] else 'DIFFER'}")
    es = r["entries_sides"]
    print(f"   incremental, each side's cells built whole against only what differs (ssrr_cell_pair): entries "
          f"{es[1]:.2f} / {ei[1]:.2f} CPU s ({es[1] / max(ei[1], 1e-9):.2f}x), objects built {r['built_sides']:,} / "
          f"{r['built_inc']:,}, written {'the same' if r['written_sides'] == r['written_inc'] else 'DIFFERENT'}")


def main(quick: bool = False) -> int:
    print("== a failure's new generation of UCMP source routes: whole path vs incremental (figures, not assertions)")
    rc = 0
    for n, d in SIZES[:1] if quick else SIZES:
        for name, kw in FAILURES if (n, d) == SIZES[0] else FAILURES[:1]:     # the larger size: the cut cable
            r = measure(n, d, kw)
            report(name, r)
            rc |= 0 if r["same"] and r["written_whole"] == r["written_inc"] == r["written_sides"] else 1
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
