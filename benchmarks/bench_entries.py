"""`uro bench --suite entries`: one ToR's route entries at (108, 6), per-entry vs bulk, side by side.

After a failure the daemon builds a ToR's route entries for the new route set.
The routes are the daemon benchmark's (benchmarks/bench_daemon.py: Opera 108 ToRs x 6 uplinks
seed 1, URO per-hop K = 4, UCMP source routes h_max = 5 for 36 destinations), computed once;
then ToR 0's route batch (``TorRole.routes``) is built, alternating, repeated:

- *per-entry*: the reference builders (``entries.uro_entries_reference``,
  ``ssrr_entries_reference``/``ssrr_exact_entries_reference``, ``route_mode_entry`` per
  destination, the collector on), which the bulk builders are tested against;
- *bulk*: ``route_entries`` as it is (controller/tables/bulk.py);
- *derived*: the other generation's batch from the bulk one (``tor_batch.regenerate``);

for the bmv2 program (selector groups) and the t2na program (exact entries). The daemon
builds both generations during an update: per-entry = two builds, bulk = one build + the
derived one. Medians of wall time with the ratios, the load average printed next to them
(figures, never asserted). All outputs are checked equal before timing.
"""

from __future__ import annotations

import contextlib
import json
import statistics
import tempfile
import time
from pathlib import Path
from unittest import mock
from benchmarks.machine import load_average as _loadavg

ROOT = Path(__file__).resolve().parents[1]


def _routes():
    from benchmarks.bench_daemon import ROUTES_B, SCHED_108, _net, _tor_switch
    from controller.daemon.config import load
    from controller.daemon.plan import build_schedule, compute_routes
    from controller.schedule.degrade import Failed

    c = ROOT / "p4src" / "tor_r108x6.contract.json"
    with tempfile.TemporaryDirectory() as d:
        progs = {"tor": (c, c, c)}      # only the contract is read here
        cfg = load(_net(Path(d) / "b.toml", progs, [_tor_switch(0, "127.0.0.1:1", 8, 6)], schedule=SCHED_108,
                        routing=ROUTES_B, clock="slice_ms = 1000", status_port=1))
        return compute_routes(cfg, build_schedule(cfg), Failed(), version=2)


@contextlib.contextmanager
def per_entry():
    """``route_entries`` on the per-entry reference builders (the code path before bulk)."""
    from controller.tables import bulk, tor_batch
    from controller.tables import entries as ent

    with mock.patch.multiple(ent, uro_entries=ent.uro_entries_reference, ssrr_entries=ent.ssrr_entries_reference), \
            mock.patch.multiple(tor_batch, paused_gc=contextlib.nullcontext), \
            mock.patch.multiple(bulk, route_mode_entries=lambda c, ds, sr, g: [ent.route_mode_entry(c, d, sr, g)
                                                                               for d in ds]):
        yield


def _time(f) -> tuple[float, object]:
    t, c = time.perf_counter(), time.process_time()
    out = f()
    _cpu.append(time.process_time() - c)
    return time.perf_counter() - t, out


_cpu: list[float] = []      # CPU seconds of the last calls (the machine is shared: wall time waits for a core)


def main(quick: bool = False) -> int:
    from controller.agent.desired import TorRole
    from controller.tables import tor_batch

    reps = 3 if quick else 11
    print("== route entries of ToR 0 at (108, 6), per generation: per-entry (reference) vs bulk, "
          "and the other generation derived ==")
    t0 = time.perf_counter()
    routes = _routes()
    print(f"routes computed in {time.perf_counter() - t0:.1f} s; {len(routes.source_routed)} destinations "
          f"source-routed; {reps} repetitions, alternating; loadavg {_loadavg()}")
    for name in ("tor_r108x6", "tor_r108x6_t2na"):
        contract = json.loads((ROOT / "p4src" / f"{name}.contract.json").read_text())
        role = TorRole(contract, 0)
        with per_entry():
            ref = {g: role.routes(routes, g) for g in (0, 1)}
        new = {g: role.routes(routes, g) for g in (0, 1)}
        same = all(ref[g] == new[g] and tor_batch.regenerate(new[g], 1 - g) == ref[1 - g] for g in (0, 1))
        b = new[1]
        print(f"-- {name}: {len(b.entries)} entries, {len(b.groups)} groups, {len(b.members)} members; "
              f"bulk == per-entry and derived == fresh build (both generations): {same}")
        if not same:
            return 1
        t_ref, t_new, t_der, c_ref, c_new, c_der = [], [], [], [], [], []
        for i in range(reps):
            g = i % 2
            with per_entry():
                t_ref.append(_time(lambda: role.routes(routes, g))[0])
            c_ref.append(_cpu[-1])
            dt, out = _time(lambda: role.routes(routes, g))
            t_new.append(dt)
            c_new.append(_cpu[-1])
            t_der.append(_time(lambda: tor_batch.regenerate(out, 1 - g))[0])
            c_der.append(_cpu[-1])
            del out
        r, n, d = (statistics.median(x) for x in (t_ref, t_new, t_der))
        cr, cn, cd = (statistics.median(x) for x in (c_ref, c_new, c_der))
        print(f"   one generation: per-entry {r * 1e3:6.1f} ms   bulk {n * 1e3:6.1f} ms   ratio {r / n:4.1f}x   "
              f"(min {min(t_ref) * 1e3:.1f} / {min(t_new) * 1e3:.1f} ms; CPU {cr * 1e3:.1f} / {cn * 1e3:.1f} ms, "
              f"ratio {cr / cn:.1f}x)")
        print(f"   other generation: fresh bulk build {n * 1e3:6.1f} ms   derived {d * 1e3:6.1f} ms   "
              f"ratio {n / d:4.1f}x   (CPU {cn * 1e3:.1f} / {cd * 1e3:.1f} ms)")
        print(f"   both generations (an update): per-entry 2 builds {2 * r * 1e3:6.1f} ms   bulk + derived "
              f"{(n + d) * 1e3:6.1f} ms   ratio {2 * r / (n + d):4.1f}x   loadavg {_loadavg()}")
    return 0


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(ROOT))
    raise SystemExit(main(quick="--quick" in sys.argv))
