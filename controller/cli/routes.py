"""`uro run`, `uro routes`, `uro stats`: schedule -> routes -> tables, summaries, artifacts."""

from __future__ import annotations

import argparse
from pathlib import Path

from controller.cli import common
from controller.schedule import save

DEFAULT_OUT = "out"


def _summary(args, routes) -> str:
    from controller.analysis import stats

    return stats.summary_text(routes, alpha=args.alpha)


def cmd_run(args) -> int:
    """Main job: schedule -> routes -> tables, with a summary and artifacts."""
    from controller.tables import artifacts

    out = common.check_output_dir(args.out)
    common.check_options_used(args, [args.algo])
    sched = common.schedule_from(args)
    routes = common.routes_for(args, sched)
    name = artifacts.DEFAULT_NAME[routes.kind]
    save(sched, out / "schedule.json")
    artifacts.write_json(routes, str(out / name))
    print(sched.describe())
    print(f"{routes.algo} routes ({routes.kind.replace('_', '-')}): {routes.params_dict()}")
    print(_summary(args, routes))
    print(f"wrote {out / 'schedule.json'} and {out / name}")
    return 0


def cmd_routes(args) -> int:
    from controller.tables import artifacts

    common.check_output(args.output)
    common.check_options_used(args, [args.algo])
    sched = common.schedule_from(args)
    routes = common.routes_for(args, sched)
    artifacts.write_json(routes, args.output, with_paths=not args.no_paths)
    n = artifacts.entries_per_tor(routes)
    print(f"{sched.describe()}\nwrote {args.output}: {args.algo}, {sched.n_tors} ToRs x ~{n} entries")
    return 0


def cmd_stats(args) -> int:
    common.check_options_used(args, [args.algo])
    sched = common.schedule_from(args)
    routes = common.routes_for(args, sched)
    print(sched.describe())
    print(_summary(args, routes))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser("run", help="main job: routes and tables for a schedule (default: built-in 8x2 round-robin)")
    common.add_schedule_args(r)
    common.add_route_args(r)
    r.add_argument("--out", default=DEFAULT_OUT, help="artifact directory (default out/)")
    r.set_defaults(func=cmd_run, default_generate="round-robin")

    r = sub.add_parser("routes", help="compute routes and write them as an artifact")
    common.add_schedule_args(r)
    common.add_route_args(r)
    r.add_argument("-o", "--output", required=True, help="artifact to write")
    r.add_argument("--no-paths", action="store_true", help="omit full paths (smaller JSON)")
    r.set_defaults(func=cmd_routes)

    r = sub.add_parser("stats", help="path-length histogram, latency, queues/port, entries/ToR")
    common.add_schedule_args(r)
    common.add_route_args(r)
    r.set_defaults(func=cmd_stats)
