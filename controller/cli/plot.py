"""`uro plot schedule|route|cdf|failures`: pictures (PNG or SVG by the -o suffix) of a
schedule's circuits, one route's time-space diagram, the schemes' hop/latency CDFs, and
connectivity loss under failures (:mod:`controller.analysis.plots`; the ``plot`` extra)."""

from __future__ import annotations

from controller.cli import analysis, common
from controller.errors import UroError

# library modules are imported inside the commands that use them: `uro` loads only what the command it runs needs


def _need_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UroError("uro plot needs matplotlib (pip install 'uro[plot]' or matplotlib)") from None


def _output(args) -> str:
    from controller.analysis.plots import image_format

    common.check_output(args.output)
    image_format(args.output)
    _need_matplotlib()
    return args.output


def cmd_schedule(args) -> int:
    from controller.analysis import plots

    out = _output(args)
    sched = common.ScheduleArgs.from_args(args).load()
    plots.save(plots.schedule_matrix(sched, args.by, args.max_slices), out)
    print(f"wrote {out}: {sched.describe().splitlines()[0]}, coloured by {args.by}")
    return 0


def cmd_route(args) -> int:
    from controller.analysis import plots
    from controller.routing import base

    out = _output(args)
    source, opts = common.ScheduleArgs.from_args(args), common.RouteArgs.from_args(args)
    if args.routes:
        sched = source.load() if source.given else None
        art = common.open_routes(opts, args.routes, sched)
        sched = art.schedule
        kind, name, algo = art.kind, args.routes, art.algo
    else:
        opts.check_used([opts.algo])
        sched = source.load(plan=[opts.algo], k=opts.k)
        kind, name, algo = base.get(opts.algo).kind, f"--algo {opts.algo}", opts.algo
    plots.check_pair(sched, args.src, args.dst, args.slice)
    show = args.show or ("alternatives" if kind == base.PER_HOP else "group")
    if show == "group" and kind == base.PER_HOP:
        raise UroError(f"--show group: {name} holds per-hop routes ({algo}), which have no UCMP group; give "
                       "source routes (uro routes --algo ucmp -o NAME.uro) or --show alternatives")
    if show == "alternatives" and kind != base.PER_HOP:
        raise UroError(f"--show alternatives: {name} holds source routes ({algo}), which have no per-hop "
                       "alternatives; give per-hop routes (--algo uro) or --show group")
    routes = art.route_set() if args.routes else opts.routes(sched)
    if show == "alternatives":
        paths = plots.uro_alternatives(routes, args.src, args.dst, args.slice)
        title = f"{algo} K={routes.alt_uplink.shape[-1]} one-shot alternatives"
    else:
        paths = plots.ucmp_group(routes, args.src, args.dst, args.slice)
        title = f"{algo} group"
    plots.save(plots.route_diagram(sched, paths, args.src, args.dst, args.slice, title), out)
    print(f"wrote {out}: {len(paths)} path(s) from ToR {args.src} to ToR {args.dst} in slice {args.slice}")
    return 0


def cmd_cdf(args) -> int:

    out = _output(args)
    args.json, args.plot = None, out
    return analysis.cmd_compare(args)


def cmd_failures(args) -> int:
    from controller.analysis import plots

    out = _output(args)
    sched, cols, rows = analysis.failure_table(args)
    plots.save(plots.failure_curves(sched, cols, rows, args.trials), out)
    print(f"wrote {out}: {len(rows)} failure case(s) x {len(cols)} scheme(s)")
    return 0


def register(sub) -> None:

    p = sub.add_parser("plot", help="pictures: a schedule's circuits, one route, hop/latency CDFs, failure curves")
    kinds = p.add_subparsers(dest="plot", required=True)

    r = kinds.add_parser("schedule", help="the circuit matrix: ToR x slice (split by uplink), coloured by peer or OCS")
    common.add_schedule_args(r)
    r.add_argument("--by", choices=["peer", "ocs"], default="peer", help="colour by the peer ToR or by the OCS")
    r.add_argument("--max-slices", type=common.positive_int, help="draw only the first N slices")
    r.add_argument("-o", "--output", required=True, help="image to write (.png or .svg)")
    r.set_defaults(func=cmd_schedule)

    r = kinds.add_parser("route", help="one route's time-space diagram: URO alternatives or a UCMP group's paths")
    common.add_schedule_args(r)
    common.add_route_args(r)
    common.add_routes_input(r)
    r.add_argument("--src", type=int, required=True, help="source ToR")
    r.add_argument("--dst", type=int, required=True, help="destination ToR")
    r.add_argument("--slice", type=int, default=0, help="the slice the packet arrives at the source (default 0)")
    r.add_argument("--show", choices=["alternatives", "group"],
                   help="per-hop routes: the K alternatives at the source; source routes: the group's paths "
                        "(default: what the routes have)")
    r.add_argument("-o", "--output", required=True, help="image to write (.png or .svg)")
    r.set_defaults(func=cmd_route)

    r = kinds.add_parser("cdf", help="path-length and latency CDFs of schemes (what uro compare --plot draws)")
    analysis.compare_args(r)
    r.add_argument("-o", "--output", required=True, help="image to write (.png)")
    r.set_defaults(func=cmd_cdf)

    r = kinds.add_parser("failures", help="connectivity loss against failure rate (uro failures as curves)")
    analysis.failures_args(r)
    r.add_argument("-o", "--output", required=True, help="image to write (.png or .svg)")
    r.set_defaults(func=cmd_failures)
