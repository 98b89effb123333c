"""`uro daemon --config net.toml` (the long-running controller) and `uro ctl` (talks to
a running daemon over its status API)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from controller.errors import UroError

# library modules are imported inside the commands that use them: `uro` loads only what the command it runs needs


def cmd_daemon(args) -> int:
    from controller.daemon import run

    if args.check:
        res = run.check(args.config)
        print(f"{args.config}: ok: {res['switches']} switch(es) answer, routes in {res['routes_s']} s; "
              "nothing written")
        return 0
    return run.Daemon(args.config).run()


# ---- ctl --------------------------------------------------------------------------------------------
WRITES = ("fail", "recover", "reload")


def _api(args):
    """The daemon's API from --api / --config, with its token for a write (or whenever
    --token-file is given: a daemon whose reads need the token too)."""
    from controller.daemon.auth import read_token
    from controller.daemon.client import Api

    need = args.op in WRITES or args.token_file is not None
    if args.api:
        if args.op in WRITES and args.token_file is None:
            raise UroError(f"ctl {args.op} --api {args.api}: writes need the daemon's token: give --token-file "
                           "FILE (or --config NET.TOML to use its token file)")
        return Api(args.api, read_token(Path(args.token_file)) if need else None,
                   "https" if args.ca else "http", args.ca)
    api = Api.of_config(args.config, token_file=args.token_file, need_token=need)
    return api if args.ca is None else Api(api.address, api.token, "https", args.ca)


USAGE = ("ctl fail|recover uplink TOR UPLINK | tor TOR | ocs INDEX | circuit SLICE TOR UPLINK "
         "(TOR: a ToR id or switch name)")
_ARGS = {"uplink": 2, "tor": 1, "ocs": 1, "circuit": 3}


def _target(args) -> dict:
    if not args.args or args.args[0] not in _ARGS:
        raise UroError(USAGE)
    kind, what = args.args[0], args.args[1:]
    if len(what) != _ARGS[kind]:
        raise UroError(USAGE)
    return {kind: what} if _ARGS[kind] > 1 else {kind: what[0]}


def clock_lines(clock: dict) -> list[str]:
    """The status's slice clock in a few lines: the daemon's timer (timer mode), or the
    switches' own clocks (sync mode): stratum, error against the reference, alarms,
    registers (`uro ctl status`, `uro emulate status`)."""
    if clock.get("mode") != "sync":
        jit = clock.get("jitter_between_switches", {})
        return [f"clock   timer mode: slice {clock.get('slice_ms')} ms, slice {clock.get('current_slice')}, "
                f"{clock.get('timers_sent')} sent, {clock.get('slices_skipped')} skipped, "
                f"spread p99 {jit.get('p99_ms')} ms"]
    out = [f"clock   sync mode: slice {clock.get('slice_ms')} ms, slice {clock.get('current_slice')}; max ToR error "
           f"{clock.get('max_error_us')} us (alarm at {clock.get('alarm_us')} us); alarms "
           f"{', '.join(clock.get('alarms') or []) or 'none'}; unsynchronized "
           f"{', '.join(clock.get('unsynchronized') or []) or 'none'}"
           + (f"; out of routes {', '.join(clock['out_of_routes'])}" if clock.get("out_of_routes") else "")]
    out.append(f"  {'switch':<10} {'stratum':>7} {'error us':>10} {'+-us':>7} {'offset':>9} {'delay':>9} "
               f"{'drift':>7} {'refused':>7}  alarm")
    for name, c in (clock.get("switches") or {}).items():
        reg = c.get("registers") or {}
        val = lambda x: "-" if x is None else str(x)   # noqa: E731
        out.append(f"  {name:<10} {val(c.get('stratum')):>7} {val(c.get('error_us')):>10} "
                   f"{val(c.get('uncertainty_us')):>7} {val(reg.get('offset')):>9} {val(reg.get('delay')):>9} "
                   f"{val(reg.get('drift')):>7} {val(reg.get('refusals')):>7}  "
                   f"{'ALARM' if c.get('alarm') else ''}{'  ' + c['last_error'] if c.get('last_error') else ''}")
    return out


def _print_status(st: dict) -> None:
    r = st.get("routes") or {}
    print(f"network {st['network']}  up {st['uptime_s']:.0f}s  routes v{r.get('version')} "
          f"({r.get('per_hop')}/{r.get('source')}, {r.get('seconds')} s)")
    for line in clock_lines(st.get("clock") or {}):
        print(line)
    f = st["failures"]["active"]
    print(f"failed  uplinks {f['uplinks']} tors {f['tors']} ocs {f['ocs']}"
          + (f" circuits {f['circuits']}" if f.get("circuits") else ""))
    print(f"{'switch':<12} {'state':<12} {'gen':>3} {'entries':>8} {'down':<8} {'swaps':>5} {'repairs':>7} "
          f"{'restores':>8}  last error")
    for s in st["switches"]:
        print(f"{s['name']:<12} {s['state']:<12} {str(s['generation']):>3} {s['entries']:>8} "
              f"{','.join(map(str, s['down_uplinks'])) or '-':<8} {s['swaps']:>5} {s['repairs']:>7} "
              f"{s['restores']:>8}  {s['last_error'] or ''}")


def cmd_ctl(args) -> int:
    api = _api(args)

    def _call(method, path, body=None):
        return api.request(method, path, body)

    if args.op == "status":
        st = _call("GET", "/status")
        if args.json:
            print(json.dumps(st, indent=1))
        else:
            _print_status(st)
        return 0
    if args.op == "metrics":
        sys.stdout.write(_call("GET", "/metrics").decode())
        return 0
    if args.op in ("status", "metrics") and args.args:
        raise UroError(f"ctl {args.op} takes no arguments")
    if args.op in ("fail", "recover"):
        rep = _call("POST", f"/{args.op}", _target(args))
        print(json.dumps(rep, indent=1))
        return 0 if not rep.get("error") else 1
    if args.op == "reload":
        if len(args.args) > 1:
            raise UroError("ctl reload [NEW_CONFIG]")
        body = {} if not args.args else {"config": args.args[0]}
        rep = _call("POST", "/reload", body)
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
                   help="fail/recover: uplink TOR U | tor TOR | ocs U | circuit SLICE TOR U (TOR: id or switch name); "
                        "reload: an optional new config path")
    where = c.add_mutually_exclusive_group()
    where.add_argument("--config", default="net.toml", help="find the daemon's API from this config (default net.toml)")
    where.add_argument("--api", metavar="HOST:PORT", help="the daemon's status API address")
    c.add_argument("--json", action="store_true", help="status: the full JSON")
    c.add_argument("--token-file", metavar="FILE",
                   help="the daemon's API token (default: [daemon] token_file of --config, i.e. NET.token "
                        "next to it); fail/recover/reload need it")
    c.add_argument("--ca", metavar="PEM", type=Path,
                   help="HTTPS: verify the daemon's certificate with this CA (default from --config: "
                        "[daemon] tls_ca or tls_cert)")
    c.set_defaults(func=cmd_ctl)
