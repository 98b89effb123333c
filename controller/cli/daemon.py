"""`uro daemon --config net.toml` (the long-running controller) and `uro ctl` (talks to
a running daemon over its status API)."""

from __future__ import annotations

import json
import sys

from controller.errors import UroError


def cmd_daemon(args) -> int:
    from controller.daemon import run

    if args.check:
        res = run.check(args.config)
        print(f"{args.config}: ok: {res['switches']} switch(es) answer, routes in {res['routes_s']} s; "
              "nothing written")
        return 0
    return run.Daemon(args.config).run()


# ---- ctl --------------------------------------------------------------------------------------------
def _api_address(args) -> str:
    if args.api:
        return args.api
    from controller.daemon.config import load

    d = load(args.config).daemon
    if d.status_port == 0:
        raise UroError(f"{args.config}: [daemon] status uses port 0 (any free port): give --api HOST:PORT "
                       "(the daemon logs it in its api.listening line)")
    host = f"[{d.status_host}]" if ":" in d.status_host else d.status_host
    if host in ("0.0.0.0", "[::]"):
        host = "127.0.0.1"
    return f"{host}:{d.status_port}"


def _call(address: str, method: str, path: str, body: dict | None = None, timeout: float = 310.0):
    from controller.daemon.client import request

    return request(address, method, path, body, timeout)


USAGE = "ctl fail|recover uplink TOR UPLINK | tor TOR | ocs INDEX (TOR: a ToR id or switch name)"


def _target(args) -> dict:
    if not args.args or args.args[0] not in ("uplink", "tor", "ocs"):
        raise UroError(USAGE)
    kind, what = args.args[0], args.args[1:]
    if len(what) != (2 if kind == "uplink" else 1):
        raise UroError(USAGE)
    return {"uplink": what} if kind == "uplink" else {kind: what[0]}


def _print_status(st: dict) -> None:
    r = st.get("routes") or {}
    clock = st.get("clock") or {}
    jit = clock.get("jitter_between_switches", {})
    print(f"network {st['network']}  up {st['uptime_s']:.0f}s  routes v{r.get('version')} "
          f"({r.get('per_hop')}/{r.get('source')}, {r.get('seconds')} s)")
    print(f"clock   slice {clock.get('slice_ms')} ms, slice {clock.get('current_slice')}, "
          f"{clock.get('timers_sent')} sent, {clock.get('slices_skipped')} skipped, "
          f"spread p99 {jit.get('p99_ms')} ms")
    f = st["failures"]["active"]
    print(f"failed  uplinks {f['uplinks']} tors {f['tors']} ocs {f['ocs']}")
    print(f"{'switch':<12} {'state':<12} {'gen':>3} {'entries':>8} {'down':<8} {'swaps':>5} {'repairs':>7} "
          f"{'restores':>8}  last error")
    for s in st["switches"]:
        print(f"{s['name']:<12} {s['state']:<12} {str(s['generation']):>3} {s['entries']:>8} "
              f"{','.join(map(str, s['down_uplinks'])) or '-':<8} {s['swaps']:>5} {s['repairs']:>7} "
              f"{s['restores']:>8}  {s['last_error'] or ''}")


def cmd_ctl(args) -> int:
    address = _api_address(args)
    if args.op == "status":
        st = _call(address, "GET", "/status")
        if args.json:
            print(json.dumps(st, indent=1))
        else:
            _print_status(st)
        return 0
    if args.op == "metrics":
        sys.stdout.write(_call(address, "GET", "/metrics").decode())
        return 0
    if args.op in ("status", "metrics") and args.args:
        raise UroError(f"ctl {args.op} takes no arguments")
    if args.op in ("fail", "recover"):
        rep = _call(address, "POST", f"/{args.op}", _target(args))
        print(json.dumps(rep, indent=1))
        return 0 if not rep.get("error") else 1
    if args.op == "reload":
        if len(args.args) > 1:
            raise UroError("ctl reload [NEW_CONFIG]")
        body = {} if not args.args else {"config": args.args[0]}
        rep = _call(address, "POST", "/reload", body)
        print(json.dumps(rep, indent=1))
        return 0
    raise UroError(f"unknown ctl operation {args.op!r}")  # pragma: no cover - argparse choices


def register(sub) -> None:
    d = sub.add_parser("daemon", help="run the controller: keep a network of switches programmed, in time, consistent")
    d.add_argument("--config", required=True, metavar="NET.TOML", help="the network config (docs/daemon.md)")
    d.add_argument("--check", action="store_true",
                   help="check config, programs, routes and that every switch answers; write nothing and exit")
    d.set_defaults(func=cmd_daemon)

    c = sub.add_parser("ctl", help="talk to a running daemon: status, fail, recover, reload, metrics")
    c.add_argument("op", choices=["status", "fail", "recover", "reload", "metrics"])
    c.add_argument("args", nargs="*", metavar="ARG",
                   help="fail/recover: uplink TOR U | tor TOR | ocs U (TOR: id or switch name); "
                        "reload: an optional new config path")
    where = c.add_mutually_exclusive_group()
    where.add_argument("--config", default="net.toml", help="find the daemon's API from this config (default net.toml)")
    where.add_argument("--api", metavar="HOST:PORT", help="the daemon's status API address")
    c.add_argument("--json", action="store_true", help="status: the full JSON")
    c.set_defaults(func=cmd_ctl)
