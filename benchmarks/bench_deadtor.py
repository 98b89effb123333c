"""A dead ToR's mask, detection -> written on each neighbour, this tree's daemon against
another tree's (target <= 10 ms after detection; docs/emulate.md "A dead ToR on the wire").

One emulated 8x2 fabric (examples/emu-8x2.toml) is brought up once; its daemon is then
swapped between the two trees (SIGTERM, then `uro daemon` of the other tree on the same
net.toml: it adopts the running switches) and, per trial, ToR ``--tor`` is failed under
pings between all pairs and recovered (controller/emulate/deadtor.measure), A B A B ...
so that both see the same machine. Per trial: the daemon's report (detection -> last
neighbour's mask acknowledged; where the daemon reports it, each neighbour's), the load
average, and the wire check (packets towards the dead ToR in the middle of a slice
before / after the mask).

    python -m benchmarks.bench_deadtor --trials 4 [--vs ../uro-main]

Needs root, bmv2 and p4c (as `uro bench --suite emulate`). A tree's daemon runs on that
tree's ``.venv/bin/python`` when it has one.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from benchmarks.machine import load_average

ROOT = Path(__file__).resolve().parents[1]


def _python(tree: Path) -> str:
    py = tree / ".venv" / "bin" / "python"
    return str(py) if py.exists() else sys.executable


def swap_daemon(cfg, plan, tree: Path, timeout_s: float = 120.0) -> int:
    """Stop the fabric's daemon (SIGTERM: sessions closed, switches keep forwarding) and
    start ``tree``'s on the same config; returns its PID once every switch is programmed."""
    from controller.emulate import daemon as dmn
    from controller import process

    sdir = cfg.state_dir
    process.stop(sdir / "pids", dmn.NAME, timeout=10.0)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(tree)}
    argv = [_python(tree), "-m", "controller.cli", "daemon", "--config", str(sdir / "net.toml")]
    here = os.getcwd()
    os.chdir(tree)                  # `python -m` puts the working directory first on sys.path
    try:
        pid = process.start(dmn.NAME, argv, sdir / "pids", sdir / "logs", env=env)
    finally:
        os.chdir(here)
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if not process.started(sdir / "pids", dmn.NAME):
            raise RuntimeError(f"the daemon of {tree} exited (log {sdir / 'logs' / 'daemon.log'})")
        try:
            if dmn.ready(dmn.status(plan, timeout=2.0), len(plan.switches)):
                return pid
        except Exception:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the daemon of {tree} did not program every switch in {timeout_s:g} s")


def _ms(xs: list[float]) -> str:
    return f"{statistics.median(xs):.1f} / {max(xs):.1f}" if xs else "-"


def main(trials: int = 4, vs: str | None = None, tor: int = 2) -> int:
    from controller.emulate import config, deadtor, fabric
    from controller.emulate import daemon as dmn

    trees = [("this tree", ROOT)] + ([("vs " + vs, Path(vs).resolve())] if vs else [])
    state = tempfile.mkdtemp(prefix="uro-bench-dt-")
    cfg = dataclasses.replace(config.load(ROOT / "examples" / "emu-8x2.toml"), state_root=state,
                              prefix=f"bd{os.getpid() % 1000}"[:6])
    print(f"== dead ToR {tor} mask, emu-8x2, {trials} trial(s) per tree, load average "
          f"{load_average()} at the start", flush=True)
    rows: dict[str, list] = {name: [] for name, _ in trees}
    plan = fabric.up(cfg, log=lambda m: None)
    try:
        for k in range(trials):
            for name, tree in trees:
                swap_daemon(cfg, plan, tree)
                time.sleep(3)                        # the maintenance's first passes done
                load0 = os.getloadavg()[0]
                try:
                    r = deadtor.measure(cfg.prefix, tor, state)
                except Exception as e:               # a figure, not a test: say what failed, go on
                    print(f"  {name} trial {k + 1}: failed: {e}", flush=True)
                    continue
                load = (load0, os.getloadavg()[0])
                rows[name].append((r, load))
                per = r.mask_ms()
                print(f"  {name} trial {k + 1}: load {load[0]:.1f}->{load[1]:.1f}; mask on every neighbour "
                      f"{r.dataplane_ms:.1f} ms" + (f" (per neighbour median {per[0]:.1f}, max {per[1]:.1f} ms: "
                                                    + ", ".join(f"{n} {v:.1f}" for n, v in
                                                                sorted(r.per_switch_ms.items())) + ")"
                                                    if per else " (per neighbour: not reported)")
                      + f"; packets sent towards tor {tor} (timer log): {r.towards_before} before, "
                      f"{r.towards_after_mask} after the mask ({r.towards_mask_to_gen} before the new generation, "
                      f"{(r.expected_without_mask or 0):.1f} at the rate before; {r.skew_after_mask} skew, "
                      f"{r.unclassified_after_mask} unclassified); new generation {r.generation_s:.2f} s", flush=True)
                clk = dmn.status(plan)["clock"]
                print(f"    daemon clock: lateness vs ideal {clk['lateness_vs_ideal']}, slices skipped "
                      f"{clk['slices_skipped']}; sent towards it after the mask: {r.towards_late[:4]}", flush=True)
                marks = deadtor.mask_lines(cfg.state_dir / "logs" / "daemon.log", since=r.detected - 1)
                if marks:
                    print("    mask.written: " + "; ".join(marks), flush=True)
    finally:
        fabric.down(cfg.prefix, state)
        shutil.rmtree(state, ignore_errors=True)
    print("  tree                      trials  last neighbour median/max (ms)  per neighbour median/max (ms)  "
          "load (1 min)     sent towards it after mask")
    for name, _ in trees:
        rs = rows[name]
        last = [r.dataplane_ms for r, _ in rs if r.dataplane_ms is not None]
        per = [v for r, _ in rs for v in (r.per_switch_ms or {}).values()]
        loads = [x for _, ld in rs for x in ld]
        print(f"  {name:<26}{len(rs):>6}  {_ms(last):>30}  {_ms(per):>29}  "
              f"{(f'{min(loads):.1f}-{max(loads):.1f}' if loads else '-'):>12}  "
              f"{sum(r.towards_after_mask for r, _ in rs):>6} (before: {sum(r.towards_before for r, _ in rs)})")
    if vs and rows["this tree"] and rows[trees[1][0]]:
        a = statistics.median([r.dataplane_ms for r, _ in rows["this tree"]])
        b = statistics.median([r.dataplane_ms for r, _ in rows[trees[1][0]]])
        print(f"  last neighbour's mask, median: this tree / {vs} = {a / b:.2f}x" if b else "")
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=4)
    ap.add_argument("--vs", help="another uro checkout whose daemon is measured in turn (e.g. ../uro-main)")
    ap.add_argument("--tor", type=int, default=2)
    a = ap.parse_args()
    sys.exit(main(a.trials, a.vs, a.tor))
