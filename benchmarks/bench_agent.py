"""`uro bench --suite agent`: P4Runtime writes to simple_switch_grpc, side by side.

Figures are printed, never asserted, with the machine's load average next to them (the
batched side is CPU-bound in Python and bmv2, so it suffers most on a busy machine):
- the state of one (108, 6) ToR as `uro agent push` and the daemon build it
  (:class:`controller.agent.desired.TorRole`; Opera-style schedule, URO per-hop K=4 for
  every destination, UCMP source routes for every destination) written to a fresh
  switch in batched, dependency-ordered requests (:mod:`controller.agent.plan`) and one
  update per Write RPC (what a p4runtime-shell loop over entries does), alternating,
  best of two each; the ratio;
- a full push of that ToR by :func:`controller.agent.push.push` (the `uro agent push`
  path: pipeline load, read, generation 0 written, read back, config entry, read-back
  verify), target <= 10 s; then a push of other routes onto the
  forwarding switch (a hitless generation swap) and a push that finds nothing to do.

Needs p4c-bm2-ss and simple_switch_grpc; the switch is started and stopped here (by PID).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from controller.agent.bmv2_process import Bmv2Switch
from benchmarks.machine import load_average as _load

TARGET_RATE = 10_000     # entries/s
TARGET_RATIO = 10.0
TARGET_PUSH_S = 10.0


def _connect(port: int, **kw):
    from controller.agent.backend import SwitchAddress, Unreachable
    from controller.agent.p4runtime import P4RuntimeBackend

    be = P4RuntimeBackend(SwitchAddress("bench", f"127.0.0.1:{port}", election_id=1, timeout_s=60), **kw)
    end = time.time() + 30
    while True:
        try:
            be.connect()
            return be
        except Unreachable:
            if time.time() > end:
                raise
            time.sleep(0.2)


def _write(be, pipeline, desired) -> tuple[float, int, int]:
    """Load the pipeline (empty switch), write ``desired``: (seconds, updates, requests)."""
    from controller.agent.diff import diff

    be.set_pipeline(pipeline, force=True)
    d = diff(be.read_state(), desired)
    rep = be.apply(d)
    return rep.seconds, rep.updates, rep.requests


def main(quick: bool = False) -> int:
    missing = [t for t in ("p4c-bm2-ss", "simple_switch_grpc") if shutil.which(t) is None]
    if missing:
        print(f"== agent: skipped ({', '.join(missing)} not installed)")
        return 0
    try:
        import controller.agent.p4runtime  # noqa: F401
    except ImportError as e:
        print(f"== agent: skipped ({e})")
        return 0
    from controller.agent import generations as gens
    from controller.agent.backend import Pipeline
    from controller.agent.desired import Routes, TorRole
    from controller.agent.diff import diff
    from controller.agent.p4runtime import bmv2_pipeline
    from controller.agent.push import per_table, push
    from controller.p4gen import build as p4build
    from controller.p4gen import profile as prof
    from controller.routing import ucmp
    from controller.routing.uro import UroParams, compute
    from controller.schedule import opera
    from controller.schedule.degrade import Failed

    name = "tiny" if quick else "r108x6"
    p = prof.load(name)
    tor = 0
    print(f"== agent: P4Runtime writes to simple_switch_grpc; load average {_load()} at the start")
    with tempfile.TemporaryDirectory(prefix="uro-bench-agent-") as tmp:
        tmp = Path(tmp)
        t0 = time.perf_counter()
        p4build.build(p, tmp, ["tor"])
        base = tmp / f"tor_{p.name}"
        pl = bmv2_pipeline(base.with_suffix(".p4info.txtpb"), base.with_suffix(".json"),
                           base.with_suffix(".contract.json"))
        c = pl.contract
        build_s = time.perf_counter() - t0
        sched = opera(p.tors, p.uplinks)
        t0 = time.perf_counter()
        uro = compute(sched, UroParams(k=p.alternatives))
        paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=p.ssrr_hops))   # paths the SSRR option can carry
        routes_s = time.perf_counter() - t0
        everyone = tuple(d for d in range(p.tors) if d != tor)
        routes = Routes(1, 1, sched, Failed(), sched, uro, paths, everyone)
        role = TorRole(c, tor)
        t0 = time.perf_counter()
        desired = gens.final_state(role.static(), role.routes(routes, 0), role.config(0))
        batch_s = time.perf_counter() - t0
        n = len(desired.members) + len(desired.groups) + len(desired.entries)
        print(f"one {p.tors} x {p.uplinks} ToR: Opera-style, {sched.n_slices} slices, URO K={p.alternatives} for every "
              f"destination + UCMP source routes (h_max {p.ssrr_hops}) for every destination")
        print(f"program built in {build_s:.1f} s; routes for the whole network in {routes_s:.2f} s; "
              f"ToR {tor}'s state built in {batch_s:.2f} s")
        print("objects: " + ", ".join(f"{k} {v}" for k, v in per_table(desired, c).items()) + f" = {n}")

        sw = Bmv2Switch(tmp, "switch", target_args=["--cpu-port", "64"]).start()
        try:
            runs = {"batched": [], "one per request": []}
            for _ in range(2):          # alternating, so both see the same machine load
                for k, kw in (("batched", {}), ("one per request", {"max_batch": 1})):
                    be = _connect(sw.grpc_port, **kw)
                    runs[k].append(_write(be, pl, desired))
                    be.close()
            best = {k: min(v) for k, v in runs.items()}
            for k, (secs, ups, reqs) in best.items():
                print(f"{k:>16}: {ups} updates in {reqs} Write RPCs, {secs:.2f} s = {ups / secs:,.0f} entries/s "
                      f"(runs: {', '.join(f'{ups / r[0]:,.0f}' for r in runs[k])})")
            rb, r1 = (best[k][1] / best[k][0] for k in ("batched", "one per request"))
            print(f"batched / one per request: {rb / r1:.1f}x (target >= {TARGET_RATIO:.0f}x); batched "
                  f"{rb:,.0f} entries/s (target >= {TARGET_RATE:,}); load average {_load()}")

            # full push from an empty switch, as `uro agent push` does it
            be = _connect(sw.grpc_port)
            # another cookie than the running one: the push loads the program (wiping the switch)
            other = Pipeline(pl.target, pl.program, pl.contract, pl.files, pl.cookie ^ 1)
            t0 = time.perf_counter()
            rep = push(be, other, role, routes)
            total = time.perf_counter() - t0
            t1 = time.perf_counter()
            state = be.read_state()
            read_s = time.perf_counter() - t1
            assert diff(state, desired).empty and rep.installed.outcome == "installed"
            t1 = time.perf_counter()
            be.read_counters()
            counters_s = time.perf_counter() - t1
            w = rep.write
            print(f"full push + read-back verify (pipeline load, read, {w.updates} updates in {w.requests} requests "
                  f"= {w.seconds:.2f} s of writing, read back before and after the flip): {total:.2f} s = "
                  f"{n / total:,.0f} objects/s (target <= {TARGET_PUSH_S:.0f} s); a read of the whole state "
                  f"{read_s:.2f} s, all counters in one read {counters_s * 1e3:.1f} ms")

            # other routes onto the forwarding switch: a hitless generation swap
            half = Routes(2, 1, sched, Failed(), sched, uro, paths, everyone[::2])
            t0 = time.perf_counter()
            rep = push(be, other, role, half)
            total = time.perf_counter() - t0
            i = rep.installed
            print(f"push of other routes (every other destination source-routed) onto the running switch: "
                  f"{i.outcome}, generation {i.previous} -> {i.generation}; {i.written} updates beside the active "
                  f"generation, activated by one write {i.active_s:.2f} s after the first, {i.deleted} deleted; "
                  f"{total:.2f} s with the verify")
            t0 = time.perf_counter()
            rep = push(be, other, role, half)
            print(f"the same push again: {rep.installed.outcome}, {rep.write.updates} updates, "
                  f"{time.perf_counter() - t0:.2f} s; load average {_load()} at the end")
            be.close()
        finally:
            sw.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
