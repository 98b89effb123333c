"""`uro agent push`: program switches once from the network config, and verify.

The config is the daemon's ``net.toml`` (:mod:`controller.daemon.config`, the one
loader); it is checked as the daemon checks it (:class:`controller.daemon.plan.Prepared`:
schedule, programs against it and against their files, routing parameters, routes
computed in-process or opened from compact artifacts, every selected switch's entries
built and width-checked), then every selected switch is contacted, and only then is
anything written. Per switch, :func:`controller.agent.push.push` loads the pipeline
(skipped when the switch runs the same build), installs the routes as a route generation
the way the daemon does (hitless on a switch that is forwarding) and reads everything
back (docs/agent.md).
"""

from __future__ import annotations

import sys

# library modules are imported inside the commands that use them: `uro` loads only what the command it runs needs


def _bar(name: str):
    """A tqdm bar on stderr that appears only when a push takes more than a moment."""
    from tqdm import tqdm

    bar = tqdm(total=0, desc=name, unit="upd", delay=0.5, leave=False, file=sys.stderr,
               disable=not sys.stderr.isatty())

    def more(n: int) -> None:
        bar.total = (bar.total or 0) + n
        bar.refresh()

    return bar, more


def _what(rep) -> str:
    i = rep.installed
    if i.outcome == "installed":
        return "generation 0 installed (the switch was unconfigured; config entry written last)"
    if i.outcome == "current":
        return f"generation {i.generation} already active with these routes"
    return (f"generation {i.generation} written beside active generation {i.previous}, read back, activated by "
            f"one write ({i.active_s:.2f} s after the first write); generation {i.previous} deleted")


def summary(rep, pipeline) -> str:
    w = rep.write
    tables = ", ".join(f"{k} {v}" for k, v in rep.tables.items())
    pipe = (f"pipeline loaded (cookie {pipeline.cookie:#018x})" if rep.pipeline_loaded
            else f"pipeline kept (cookie {pipeline.cookie:#018x} already running)")
    retry = f" after {rep.attempts - 1} retry" if rep.attempts > 1 else ""
    wrate = f", {w.updates / w.seconds:,.0f} updates/s" if w.seconds > 0 and w.updates else ""
    return (f"{rep.switch}: {pipe}; {_what(rep)}\n"
            f"  {rep.objects} objects: {tables}\n"
            f"  wrote {w.updates} updates ({w.inserted} inserted, {w.modified} modified, {w.deleted} deleted) "
            f"in {w.requests} requests, {w.seconds:.2f} s{wrate}{retry}\n"
            f"  push + read-back verify: {rep.seconds:.2f} s, {rep.rate:,.0f} objects/s; read back: identical")


def cmd_push(args) -> int:
    from controller.agent.backend import BackendError, backend_for
    from controller.agent.push import push
    from controller.daemon import plan
    from controller.daemon.config import load
    from controller.schedule.degrade import Failed

    cfg = load(args.config)
    switches = plan.select(cfg, args.switch)
    prep = plan.Prepared(cfg, Failed(), backend_for, names=[s.name for s in switches])
    # contact every switch before writing to any: an address that does not answer or a
    # lower election id stops the push with nothing written
    backends = []
    try:
        for s in switches:
            be = prep.backends[s.name](plan.switch_address(s, cfg.daemon.rpc_timeout_s))
            if s.tls.insecure:
                print(f"{s.name}: plaintext gRPC to {s.address} (insecure = true)", file=sys.stderr)
            try:
                be.connect()
            except BackendError as e:
                raise plan.connect_error(cfg, s, e) from None
            backends.append((s, be))
        for s, be in backends:
            pl = prep.pipeline(s)
            bar, more = _bar(s.name)
            try:
                rep = push(be, pl, prep.roles[s.name], prep.routes, progress=bar.update, on_total=more,
                           force_pipeline=args.force_pipeline)
            finally:
                bar.close()
            print(summary(rep, pl), flush=True)
            for line in be.plan_limits():
                print(f"  switch plan: not held by the switch: {line}", flush=True)
    finally:
        for _, be in backends:
            be.close()
    return 0


def register(sub) -> None:
    p = sub.add_parser("agent", help="switch agent: push tables to switches over P4Runtime")
    asub = p.add_subparsers(dest="agent_command", required=True)
    r = asub.add_parser("push", help="one-shot: pipeline + all entries + read back and verify, per switch")
    r.add_argument("--config", required=True, metavar="NET.TOML",
                   help="the network config `uro daemon` reads (docs/daemon.md, examples/net-tiny.toml)")
    r.add_argument("--switch", metavar="NAME", help="push only this switch")
    r.add_argument("--force-pipeline", action="store_true",
                   help="reload the program even when the switch runs the same build (wipes its entries first)")
    r.set_defaults(func=cmd_push)
