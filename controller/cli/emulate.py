"""`uro emulate up|down|status|exec|shell|fail|recover|chaos`: a time-sliced optical DCN on one
machine (host namespaces, a simple_switch_grpc per ToR and one for the OCS emulator,
driven by the controller daemon). See docs/emulate.md."""

from __future__ import annotations

import json
import os
import sys

from controller.errors import UroError

# library modules are imported inside the commands that use them: `uro` loads only what the command it runs needs

DEFAULT_STATE = "/run/uro-emu"


def _select(args) -> tuple[str, str]:
    """(prefix, state root) of the fabric a command works on."""
    from controller.emulate import config, fabric

    if getattr(args, "config", None):
        cfg = config.load(args.config)
        return cfg.prefix, cfg.state_root
    root = args.state_dir or DEFAULT_STATE
    if args.prefix:
        return args.prefix, root
    up = fabric.fabrics(root)
    if len(up) == 1:
        return up[0], root
    if not up:
        raise UroError("no emulated fabric is up (uro emulate up --config examples/emu-8x2.toml)")
    raise UroError(f"{len(up)} fabrics are up ({', '.join(up)}): name one with --prefix or --config")


def cmd_up(args) -> int:
    from controller.emulate import config, fabric

    cfg = config.load(args.config)
    if args.state_dir:
        import dataclasses

        cfg = dataclasses.replace(cfg, state_root=args.state_dir)
    plan = fabric.up(cfg, start_daemon=not args.no_daemon, log=lambda m: print(m, flush=True))
    print(fabric.describe(plan, cfg.state_dir))
    print(f"try:  uro emulate exec {plan.hosts[0].name} ping -c 3 {plan.hosts[-1].ip}")
    print(f"      uro emulate status --prefix {plan.prefix}; uro ctl status --api 127.0.0.1:{plan.extra['status_port']}")
    print(f"stop: uro emulate down --prefix {plan.prefix}")
    return 0


def cmd_down(args) -> int:
    from controller.emulate import fabric

    try:
        prefix, root = _select(args)
    except UroError as e:
        if str(e).startswith("no emulated fabric is up"):
            print("no emulated fabric is up: nothing to remove")
            return 0
        raise
    removed = fabric.down(prefix, root)
    left = fabric.leftovers(prefix, root)
    print(f"fabric {prefix}: removed {len(removed)} item(s)"
          + (f" ({sum(r.startswith('process') for r in removed)} processes, "
             f"{sum(r.startswith('netns') for r in removed)} namespaces, "
             f"{sum(r.startswith('link') for r in removed)} links)" if removed else " (nothing was left)"))
    if left:
        raise UroError(f"fabric {prefix}: could not remove {', '.join(left)}")
    return 0


def cmd_status(args) -> int:
    from controller.emulate import fabric

    prefix, root = _select(args)
    st = fabric.status(prefix, root)
    if args.json:
        print(json.dumps(st, indent=1))
        return 0
    plan = fabric.need_plan(prefix, root)
    print(fabric.describe(plan, fabric.state_dir(root, prefix)))
    dead = [n for n, s in st["switches"].items() if s["pid"] is None]
    print(f"switches running: {len(st['switches']) - len(dead)}/{len(st['switches'])}"
          + (f" (stopped: {', '.join(dead)})" if dead else ""))
    print("cables cut: " + (", ".join(f"tor{t} uplink {u}" for t, u in st["cables_cut"]) or "none"))
    print("drills: " + (", ".join(f"{f['kind']} {' '.join(map(str, f['ids']))}" for f in st["failures"]) or "none"))
    print("clock faults: " + (", ".join(f"{n} {f['ppm']:+g} ppm, steps {f['step_us']:+g} us"
                                        for n, f in sorted(st["clock_faults"].items())) or "none"))
    d = st["daemon"]
    if d is None:
        print("daemon: not running (nothing programs or clocks the switches)")
    elif "error" in d:
        print(f"daemon: pid {st['daemon_pid']}, {d['error']}")
    else:
        from controller.cli.daemon import clock_lines

        print(f"daemon: pid {st['daemon_pid']}, routes v{(d.get('routes') or {}).get('version')}")
        for line in clock_lines(d.get("clock") or {}):
            print(line)
        f = d["failures"]["active"]
        print(f"daemon: failed uplinks {f['uplinks']} tors {f['tors']} ocs {f['ocs']}"
              + (f" circuits {f['circuits']}" if f.get("circuits") else "") + "; switches "
              + ", ".join(f"{s['name']} {s['state']} gen {s['generation']}"
                          + (f" down {s['down_uplinks']}" if s["down_uplinks"] else "") for s in d["switches"]))
        print(f"daemon: more with `uro ctl status --api {st['daemon_api']}`")
    return 0


def cmd_exec(args) -> int:
    from controller.emulate import fabric

    if not args.argv:
        raise UroError("exec: give a command to run in the host, e.g. uro emulate exec h0_0 ping -c 3 10.0.5.1")
    prefix, root = _select(args)
    argv = fabric.host_argv(fabric.need_plan(prefix, root), args.host, args.argv)
    sys.stdout.flush()
    os.execvp(argv[0], argv)


def cmd_shell(args) -> int:
    from controller.emulate import fabric

    prefix, root = _select(args)
    plan = fabric.need_plan(prefix, root)
    host = args.host or plan.hosts[0].name
    shell = os.environ.get("SHELL", "/bin/bash")
    argv = fabric.host_argv(plan, host, ["env", f"PS1=[{prefix} {host}] \\w# ", shell, "--norc", "-i"]
                            if shell.endswith("bash") else [shell])
    print(f"shell in {host} ({plan.host(host).ip}); exit to leave", file=sys.stderr)
    os.execvp(argv[0], argv)


def _ids(args) -> list[int]:
    want = {"link": 2, "tor": 1, "ocs": 1, "id": 2}.get(args.kind)
    if want is None and len(args.ids) < 3 or want is not None and len(args.ids) != want:
        usage = {"link": "link TOR UPLINK", "tor": "tor TOR", "ocs": "ocs UPLINK", "port": "port TOR UPLINK SLICE...",
                 "id": "id TOR AS"}[args.kind]
        raise UroError(f"{args.action}: expected `{usage}`, got {args.kind} {' '.join(args.ids)}")
    try:
        return [int(x) for x in args.ids]
    except ValueError:
        raise UroError(f"{args.action} {args.kind}: ids must be integers, got {' '.join(args.ids)}") from None


def cmd_fail(args) -> int:
    from controller.emulate import fabric

    prefix, root = _select(args)
    fn = fabric.fail if args.action == "fail" else fabric.recover
    for line in fn(prefix, args.kind, _ids(args), root):
        print(f"fabric {prefix}: {line}", flush=True)
    return 0


def cmd_clock(args) -> int:
    from controller.emulate import clockfault, fabric

    prefix, root = _select(args)
    plan = fabric.need_plan(prefix, root)
    sdir = fabric.state_dir(root, prefix)
    clockfault.check(plan, args.tor, args.ppm, args.step_us, args.clear)
    contract = fabric.load_artifacts(sdir)["tor"].contract
    got = clockfault.apply(plan, sdir, contract, args.tor, args.ppm, args.step_us, args.clear)
    did = ([f"drift {got['ppm']:+g} ppm"] if args.ppm is not None or args.clear else []) + \
          ([f"stepped {args.step_us:+g} us (steps so far {got['step_us']:+g} us)"] if args.step_us is not None else [])
    print(f"fabric {prefix}: tor{args.tor}'s clock: {', '.join(did)} (emulated fault registers, over Thrift); "
          f"the daemon's view: uro emulate status")
    return 0


def cmd_chaos(args) -> int:
    import dataclasses

    from controller.emulate import chaos, fabric

    prefix, root = _select(args)
    plan = fabric.need_plan(prefix, root)
    steps = chaos.plan_steps(args.seed, plan.tors, plan.uplinks, args.duration, tuple(args.gap), args.max_failed,
                             tuple(args.actions.split(",")) if args.actions else chaos.ACTIONS)
    print(f"chaos on fabric {prefix}: seed {args.seed}, {len(steps)} steps over {args.duration:g} s "
          f"(ping between all {len(plan.hosts)} hosts' pairs every {args.interval:g} s)", flush=True)
    rep = chaos.run(prefix, steps, args.seed, root, args.settle_timeout, args.interval,
                    log=lambda m: print(m, flush=True))
    for line in rep.summary():
        print(line)
    if args.json:
        from controller.atomic import write_text

        doc = {**dataclasses.asdict(rep), "steps": [{**dataclasses.asdict(r), "label": r.step.label}
                                                     for r in rep.steps]}
        write_text(args.json, json.dumps(doc, indent=1))
    return 1 if rep.violations else 0


def register(sub) -> None:
    p = sub.add_parser("emulate", help="run a time-sliced optical DCN on this machine (namespaces + bmv2)")
    es = p.add_subparsers(dest="emulate_command", required=True)

    def which(q, config: bool = True):
        if config:
            q.add_argument("--config", metavar="FILE", help="the fabric's config (examples/emu-*.toml)")
        q.add_argument("--prefix", help="the fabric's prefix (default: the only fabric that is up)")
        q.add_argument("--state-dir", default=None, help=f"state root (default {DEFAULT_STATE})")

    q = es.add_parser("up", help="build the fabric and start the daemon on it")
    q.add_argument("--config", required=True, metavar="FILE", help="fabric config, e.g. examples/emu-8x2.toml")
    q.add_argument("--state-dir", default=None, help=f"state root (default: the config's, {DEFAULT_STATE})")
    q.add_argument("--no-daemon", action="store_true",
                   help="build the bare fabric only: nothing programs the switches or sends the slice timer "
                        "(<state>/net.toml is written for a daemon you start yourself)")
    q.set_defaults(func=cmd_up)

    q = es.add_parser("down", help="stop and remove everything a fabric made (idempotent)")
    which(q)
    q.set_defaults(func=cmd_down)

    q = es.add_parser("status", help="what runs where, what is failed")
    which(q)
    q.add_argument("--json", action="store_true", help="machine-readable")
    q.set_defaults(func=cmd_status)

    q = es.add_parser("exec", help="run a command in a host: uro emulate exec h0_0 ping -c 3 10.0.5.1")
    which(q)
    q.add_argument("host", help="host name h<tor>_<port>")
    q.add_argument("argv", nargs="...", help="command and arguments")
    q.set_defaults(func=cmd_exec)

    q = es.add_parser("shell", help="an interactive shell in a host (default the first)")
    which(q)
    q.add_argument("host", nargs="?", help="host name h<tor>_<port>")
    q.set_defaults(func=cmd_shell)

    q = es.add_parser("chaos", help="seeded random failures, recoveries, daemon kills, switch restarts and "
                                    "reloads under traffic; checks the invariants after every step")
    which(q)
    q.add_argument("--seed", type=int, default=1, help="the drill a seed gives is always the same (default 1)")
    q.add_argument("--duration", type=float, default=120.0, metavar="S",
                   help="seconds of random steps (then everything still failed is recovered; default 120)")
    q.add_argument("--gap", type=float, nargs=2, default=[4.0, 10.0], metavar=("MIN", "MAX"),
                   help="seconds between steps, uniform (a step also waits for the last to settle; default 4 10)")
    q.add_argument("--max-failed", type=int, default=2, help="elements failed at once, at most (default 2)")
    q.add_argument("--actions", default=None,
                   help="comma-separated subset of fail,recover,daemon_kill,switch_restart,reload (default all)")
    q.add_argument("--settle-timeout", type=float, default=120.0, metavar="S",
                   help="a step that has not settled after S seconds is a violation (default 120)")
    q.add_argument("--interval", type=float, default=0.5, metavar="S", help="ping interval per pair (default 0.5)")
    q.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    q.set_defaults(func=cmd_chaos)

    q = es.add_parser("clock", help="inject a clock fault into a ToR: uro emulate clock tor 3 --ppm 200 --step-us 5000")
    which(q)
    q.add_argument("kind", choices=["tor"], help="what to fault (a ToR's clock)")
    q.add_argument("tor", type=int, help="the ToR id")
    q.add_argument("--ppm", type=float, default=None, help="drift from now on, parts per million (+ fast, - slow)")
    q.add_argument("--step-us", type=float, default=None, help="step the clock by this many microseconds now")
    q.add_argument("--clear", action="store_true", help="no drift from now on (what it put on the clock stays)")
    q.set_defaults(func=cmd_clock)

    for action, text in (("fail", "take an element down for real: link TOR UPLINK | tor TOR | ocs UPLINK | "
                                   "port TOR UPLINK SLICE... (the OCS port dead in those slices only) | "
                                   "id TOR AS (the ToR's clock goes by another ToR's id)"),
                         ("recover", "bring a failed element back")):
        q = es.add_parser(action, help=text)
        which(q)
        q.add_argument("kind", choices=["link", "tor", "ocs", "port", "id"])
        q.add_argument("ids", nargs="+", help="link: TOR UPLINK; tor: TOR; ocs: UPLINK; port: TOR UPLINK SLICE...; "
                                              "id: TOR AS")
        q.set_defaults(func=cmd_fail, action=action)
