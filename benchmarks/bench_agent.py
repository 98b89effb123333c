"""`uro bench --suite agent`: P4Runtime writes to simple_switch_grpc, side by side.

Figures are printed, never asserted:
- the tables of one (108, 6) ToR (Opera-style schedule, URO per-hop K=4 for every
  destination, UCMP source routes for the destinations whose paths fit the profile's
  action selector) written to a fresh switch in batched, dependency-ordered requests
  (:mod:`controller.agent.plan`) and one update per Write RPC (what a p4runtime-shell
  loop over entries does), alternating, best of two each; the ratio;
- a full push of that ToR (pipeline load, read, diff, write, read-back verify), the
  issue 11 target being <= 10 s;
- the same ToR with source routes to every destination (more members than the
  profile's selector declares; bmv2 does not enforce an action profile's size).

Needs p4c-bm2-ss and simple_switch_grpc; the switch is started and stopped here (by PID).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

TARGET_RATE = 10_000     # entries/s, issue 11
TARGET_RATIO = 10.0
TARGET_PUSH_S = 10.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Switch:
    def __init__(self, log: Path):
        self.port = _free_port()
        self.log = open(log, "w")
        self.proc = subprocess.Popen(
            ["simple_switch_grpc", "--device-id", "0", "--no-p4", "--thrift-port", str(_free_port()), "--",
             "--cpu-port", "64", "--grpc-server-addr", f"127.0.0.1:{self.port}"],
            stdout=self.log, stderr=subprocess.STDOUT)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def _fit_destinations(full, contract, tor: int, members_max: int) -> tuple[list[int], int, int]:
    """Destinations (in id order) whose UCMP members fit ``members_max``; (dsts, members
    kept, members of all destinations)."""
    import collections

    t = contract["tables"]["ssrr_path"]["name"]
    gdst = {e.group_id: dict(e.match)["dst_tor"] for e in full.entries if e.table == t}
    per = collections.Counter()
    for g in full.groups:
        per[gdst[g.group_id]] += len(g.member_ids)
    dsts, kept = [], 0
    for d in sorted(per):
        if d != tor and kept + per[d] <= members_max:
            dsts.append(d)
            kept += per[d]
    return dsts, kept, sum(per.values())


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
    from controller.agent.diff import diff
    from controller.agent.netconfig import source_routes_only_for
    from controller.agent.p4runtime import bmv2_pipeline
    from controller.agent.push import per_table, push
    from controller.p4gen import build as p4build
    from controller.p4gen import profile as prof
    from controller.routing import ucmp
    from controller.routing.uro import UroParams, compute
    from controller.schedule import opera
    from controller.tables.tor_batch import tor_batch

    name = "tiny" if quick else "r108x6"
    p = prof.load(name)
    tor = 0
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
        t0 = time.perf_counter()
        everything = tor_batch(c, tor, uro_routes=uro, path_routes=paths, source_routed=[])
        # one route generation's share of the selector (it holds two, for hitless updates)
        selector = c["action_profiles"]["ssrr_selector"]["size"] // c["generations"]["count"]
        dsts, kept, all_members = _fit_destinations(everything, c, tor, selector)
        desired = source_routes_only_for(tor_batch(c, tor, uro_routes=uro, path_routes=paths, source_routed=dsts),
                                         c, set(dsts))
        batch_s = time.perf_counter() - t0
        n = len(desired.members) + len(desired.groups) + len(desired.entries)
        print(f"== agent: P4Runtime writes to simple_switch_grpc, one {p.tors} x {p.uplinks} ToR "
              f"(Opera-style, {sched.n_slices} slices, URO K={p.alternatives}, UCMP source routes)")
        print(f"program built in {build_s:.1f} s; routes for the whole network in {routes_s:.2f} s; "
              f"ToR {tor}'s state built in {batch_s:.2f} s")
        print(f"source-routed destinations: {len(dsts)} of {p.tors - 1} ({kept} selector members; the profile's "
              f"selector holds {selector} per generation, all destinations need {all_members})")
        print("objects: " + ", ".join(f"{k} {v}" for k, v in per_table(desired, c).items()) + f" = {n}")

        sw = _Switch(tmp / "switch.log")
        try:
            runs = {"batched": [], "one per request": []}
            for _ in range(2):          # alternating, so both see the same machine load
                for k, kw in (("batched", {}), ("one per request", {"max_batch": 1})):
                    be = _connect(sw.port, **kw)
                    runs[k].append(_write(be, pl, desired))
                    be.close()
            best = {k: min(v) for k, v in runs.items()}
            for k, (secs, ups, reqs) in best.items():
                print(f"{k:>16}: {ups} updates in {reqs} Write RPCs, {secs:.2f} s = {ups / secs:,.0f} entries/s")
            rb, r1 = (best[k][1] / best[k][0] for k in ("batched", "one per request"))
            print(f"batched / one per request: {rb / r1:.1f}x (target >= {TARGET_RATIO:.0f}x); batched "
                  f"{rb:,.0f} entries/s (target >= {TARGET_RATE:,})")

            # full push of the ToR from an empty switch: pipeline, read, diff, write, verify
            from controller.agent.backend import Pipeline

            be = _connect(sw.port)
            # another cookie than the running one: the push loads the program (wiping the switch)
            other = Pipeline(pl.target, pl.program, pl.contract, pl.files, pl.cookie ^ 1)
            t0 = time.perf_counter()
            rep = push(be, other, desired)
            total = time.perf_counter() - t0
            t1 = time.perf_counter()
            state = be.read_state()
            read_s = time.perf_counter() - t1
            assert diff(state, desired).empty
            t1 = time.perf_counter()
            be.read_counters()
            counters_s = time.perf_counter() - t1
            print(f"full push + read-back verify: {total:.2f} s (pipeline load, read, diff, {rep.write.updates} "
                  f"updates in {rep.write.seconds:.2f} s, verify) = {n / total:,.0f} objects/s "
                  f"(target <= {TARGET_PUSH_S:.0f} s); a read of the whole state {read_s:.2f} s, "
                  f"all counters in one read {counters_s * 1e3:.1f} ms")

            # every destination source-routed
            full = tor_batch(c, tor, uro_routes=uro, path_routes=paths,
                             source_routed=[d for d in range(p.tors) if d != tor])
            nf = len(full.members) + len(full.groups) + len(full.entries)
            t0 = time.perf_counter()
            rep = push(be, Pipeline(pl.target, pl.program, pl.contract, pl.files, pl.cookie ^ 2), full)
            total = time.perf_counter() - t0
            print(f"every destination source-routed: {nf} objects ({len(full.members)} members, "
                  f"{len(full.groups)} groups), full push + verify {total:.2f} s, writes "
                  f"{rep.write.updates / rep.write.seconds:,.0f} entries/s (the selector holds {selector} members "
                  f"per generation)")
            be.close()
        finally:
            sw.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
