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
    if args.target is not None:
        return _resource_report(args)
    common.check_options_used(args, [args.algo])
    sched = common.schedule_from(args)
    routes = common.routes_for(args, sched)
    print(sched.describe())
    print(_summary(args, routes))
    return 0


def _resource_report(args) -> int:
    """`uro stats --target tofino2 --profile P`: the compiler's resource usage of the built
    program, next to URO Table II and UCMP Table 2."""
    from controller.errors import UroError
    from controller.p4gen import profile, render
    from controller.tofino2 import report

    if args.profile is None:
        raise UroError("--target needs --profile (the profile whose built program to report)")
    prof = profile.load(args.profile)
    tgt = render.target_class(args.target)
    build = Path(args.build or tgt.build_dir.format(profile=prof.name))
    print(report.format_report(report.load(build), prof))
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

    r = sub.add_parser("stats", help="path-length histogram, latency, queues/port, entries/ToR; "
                                     "with --target tofino2: the compiled program's resources")
    common.add_schedule_args(r)
    common.add_route_args(r)
    r.add_argument("--target", choices=["tofino2"],
                   help="report the switch resources of the program built for this target instead")
    r.add_argument("--profile", help="with --target: the profile the program was built for")
    r.add_argument("--build", help="with --target: the build directory (default tofino/build/<profile>/)")
    r.set_defaults(func=cmd_stats)
