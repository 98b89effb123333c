"""`uro agent push`: program switches once from a network config, and verify.

Per switch: the pipeline (skipped when the switch runs the same build), every entry by
diff against what the switch holds, then a read-back that must equal the desired state
(:mod:`controller.agent.push`). Every selected switch is contacted and every program is
checked against its contract before the first write; routes are computed in-process
and each switch's entries are built when it is pushed.
"""

from __future__ import annotations

import sys


def _bar(name: str):
    """A tqdm bar on stderr that appears only when a push takes more than a moment."""
    from tqdm import tqdm

    bar = tqdm(total=0, desc=name, unit="upd", delay=0.5, leave=False, file=sys.stderr,
               disable=not sys.stderr.isatty())

    def total(n: int) -> None:
        bar.reset(total=n)

    return bar, total


def _summary(rep, pipeline) -> str:
    w = rep.write
    tables = ", ".join(f"{k} {v}" for k, v in rep.tables.items())
    pipe = (f"pipeline loaded (cookie {pipeline.cookie:#018x})" if rep.pipeline_loaded
            else f"pipeline kept (cookie {pipeline.cookie:#018x} already running)")
    retry = f" after {rep.attempts - 1} retry" if rep.attempts > 1 else ""
    wrate = f", {w.updates / w.seconds:,.0f} updates/s" if w.seconds > 0 and w.updates else ""
    return (f"{rep.switch}: {pipe}; {rep.objects} objects: {tables}\n"
            f"  wrote {w.updates} updates ({w.inserted} inserted, {w.modified} modified, {w.deleted} deleted) "
            f"in {w.requests} requests, {w.seconds:.2f} s{wrate}{retry}\n"
            f"  push + read-back verify: {rep.seconds:.2f} s, {rep.rate:,.0f} objects/s; read back: identical")


def cmd_push(args) -> int:
    from controller.agent import netconfig
    from controller.agent.backend import backend_for
    from controller.agent.p4info import P4Info
    from controller.agent.push import push

    cfg = netconfig.load(args.config)
    switches = list(netconfig.select(cfg, args.switch))
    pipelines = {}
    for role in sorted({s.role for s in switches}):
        pl = cfg.pipeline(role)
        P4Info.load(pl.files["p4info"], pl.files["device_config"]).check_contract(pl.contract)
        pipelines[role] = pl
    # contact every switch before writing to any: a bad address or a lower election id
    # stops the push with nothing written
    backends = []
    try:
        for s in switches:
            be = backend_for(pipelines[s.role].target)(s.address)
            if s.address.insecure:
                print(f"{s.name}: plaintext gRPC to {s.address.address} (insecure = true)", file=sys.stderr)
            be.connect()
            backends.append((s, be))
        for s, be in backends:
            pl = pipelines[s.role]
            desired = cfg.desired(s, pl.contract)
            bar, total = _bar(s.name)
            try:
                rep = push(be, pl, desired, progress=bar.update, on_total=total, force_pipeline=args.force_pipeline)
            finally:
                bar.close()
            print(_summary(rep, pl))
    finally:
        for _, be in backends:
            be.close()
    return 0


def register(sub) -> None:
    p = sub.add_parser("agent", help="switch agent: push tables to switches over P4Runtime")
    asub = p.add_subparsers(dest="agent_command", required=True)
    r = asub.add_parser("push", help="one-shot: pipeline + all entries + read back and verify, per switch")
    r.add_argument("--config", required=True, metavar="NET.TOML", help="network config (see examples/push.toml)")
    r.add_argument("--switch", metavar="NAME", help="push only this switch")
    r.add_argument("--force-pipeline", action="store_true",
                   help="reload the program even when the switch runs the same build (wipes its entries first)")
    r.set_defaults(func=cmd_push)

