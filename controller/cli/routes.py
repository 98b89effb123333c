"""`uro run`, `uro routes`, `uro stats`: schedule -> routes -> tables, summaries, artifacts."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from controller.cli import cluster, common
from controller.errors import UroError
from controller.routing import base, uro

# library modules are imported inside the commands that use them: `uro` loads only what the command it runs needs

DEFAULT_OUT = "out"


def _summary(opts: common.RouteArgs, routes) -> str:
    from controller.analysis import stats

    return stats.summary_text(routes, alpha=opts.alpha)


def _size(path: Path) -> str:
    n = sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else path.stat().st_size
    for unit, div in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= div:
            return f"{n / div:.3g} {unit}"
    return f"{n} B"


def _write_bar(sched, kind: str):
    return common.progress(sched.n_tors, f"writing {kind.replace('_', '-')} tables", unit="ToR")


def _check_no_paths(no_paths: bool, fmt: str, algo: str) -> None:
    if no_paths and (fmt != "json" or base.get(algo).kind != base.PER_HOP):
        raise UroError("--no-paths applies to JSON per-hop routes (uro routes -o NAME.json --algo uro); "
                       "compact artifacts and source routes carry no path column")


def cmd_run(args) -> int:
    """Main job: schedule -> routes -> tables, with a summary and artifacts, committed as one set."""
    from controller.atomic import OutputSet
    from controller.schedule import save
    from controller.tables import artifacts

    source, opts = common.ScheduleArgs.from_args(args), common.RouteArgs.from_args(args)
    fmt = artifacts.output_format("", args.format or "compact")
    out = common.check_output_dir(args.out)
    kind = base.get(opts.algo).kind
    name = artifacts.default_name(kind, fmt)
    artifacts.check_output(out / name, fmt, "--out")
    opts.check_used([opts.algo])
    _check_no_paths(args.no_paths, fmt, opts.algo)
    sched = source.load(plan=[opts.algo], k=opts.k)
    routes = opts.routes(sched)
    stale = [out / artifacts.default_name(k, f) for k in base.KINDS for f in artifacts.FORMATS]
    stale = [p for p in stale if p.name != name and p.exists()]
    with OutputSet() as outs:  # everything to temporaries; renamed together at the end
        save(sched, outs.file(out / "schedule.json"))
        tmp = outs.dir(out / name) if fmt == "compact" else outs.file(out / name)
        artifacts.write_to(routes, tmp, fmt, with_paths=not args.no_paths, progress=_write_bar(sched, kind))
        for p in stale:
            outs.remove(p)
    print(sched.describe())
    print(f"{routes.algo} routes ({routes.kind.replace('_', '-')}): {routes.params_dict()}")
    print(_summary(opts, routes))
    print(f"wrote {out / 'schedule.json'} and {out / name} ({_size(out / name)})")
    if stale:
        print(f"removed the previous run's {', '.join(str(p) for p in stale)}")
    return 0


def cmd_routes(args) -> int:
    from controller.tables import artifacts

    # the command line, read once: the schedule, the routing options, where the work runs, the output
    source, opts, on = (common.ScheduleArgs.from_args(args), common.RouteArgs.from_args(args),
                        cluster.Where.from_args(args))
    output, engine, no_paths = args.output, args.uro_engine, args.no_paths
    fmt = artifacts.output_format(output, args.format)
    common.check_output(output, allow_dir=fmt == "compact")
    artifacts.check_output(output, fmt)
    opts.check_used([opts.algo])
    _check_no_paths(no_paths, fmt, opts.algo)
    if engine != "auto" and opts.algo != "uro":
        raise UroError(f"--uro-engine applies to --algo uro, not {opts.algo}")
    if engine == "numpy" and on.cluster:
        raise UroError("--uro-engine numpy runs in this process; --cluster/--workers run the compiled kernels' chunks")
    streamed = opts.algo == "ucmp" and fmt == "compact"
    uro_streamed = opts.algo == "uro" and fmt == "compact"
    sched = source.load(plan=["ucmp_stream" if streamed else "uro_stream" if uro_streamed else opts.algo], k=opts.k)
    if streamed:
        return _routes_ucmp_streamed(opts.params(sched, "ucmp"), sched, output, on)
    resolved = uro.resolve_engine(engine, sched.n_uplinks, sched.n_tors) if opts.algo == "uro" else None
    if uro_streamed and (on.cluster or resolved == "numba"):
        return _routes_uro_streamed(opts.params(sched, "uro"), sched, output, on)
    with on.executor() as ex:
        if opts.algo == "uro":  # the engine asked for (or auto), on the cluster if one is given
            params = opts.params(sched, "uro")
            common.check_route_memory(sched, "uro", params)
            routes = uro.compute(sched, params, engine=engine, executor=ex)
        else:
            routes = opts.routes(sched, executor=ex)
    artifacts.write(routes, output, fmt, with_paths=not no_paths, progress=_write_bar(sched, routes.kind))
    n = artifacts.entries_per_tor(routes)
    print(f"{sched.describe()}\nwrote {output} ({fmt}, {_size(Path(output))}): {opts.algo}, "
          f"{sched.n_tors} ToRs x ~{n:.0f} entries")
    return 0


def _routes_uro_streamed(params: uro.UroParams, sched, output: str, on: cluster.Where) -> int:
    """URO to a compact artifact: compiled kernels per destination chunk, scattered straight
    into the artifact's arrays (no in-memory [slice, tor, dst, K] route set)."""
    from controller.atomic import atomic_dir
    from controller.tables import artifacts

    target = Path(output)
    with on.executor() as ex, atomic_dir(target) as tmp:
        man = artifacts.write_uro_streamed(sched, params, tmp, executor=ex,
                                           progress=common.progress(sched.n_tors, "uro", unit="dst"))
    print(f"{sched.describe()}\nwrote {output} (compact, {_size(target)}): uro, "
          f"{sched.n_tors} ToRs x ~{man['entries_per_tor']:.0f} entries")
    return 0


def _routes_ucmp_streamed(params, sched, output: str, on: cluster.Where) -> int:
    """UCMP to a compact artifact: computed and written chunk by chunk (bounded memory)."""
    from controller.atomic import atomic_dir
    from controller.tables import stream

    common.estimate_memory(sched.n_tors, sched.n_uplinks, sched.n_slices, "ucmp_stream",
                           label="ucmp routes (streamed)")
    target = Path(output)
    with on.executor() as ex, atomic_dir(target) as tmp:
        man = stream.write_ucmp(sched, params, tmp, progress=common.progress(sched.n_tors, "ucmp", unit="dst"),
                                write_progress=common.progress(sched.n_tors, "writing source tables", unit="ToR"),
                                executor=ex)
    common.warn_capped(man.get("notes"))
    print(f"{sched.describe()}\nwrote {output} (compact, {_size(target)}): ucmp, {sched.n_tors} ToRs x "
          f"~{man['entries_per_tor']:.0f} entries, {man['paths']} paths, {man['buckets']['count']} buckets")
    return 0


def cmd_stats(args) -> int:
    if args.target is not None:
        return _resource_report(args)
    source, opts = common.ScheduleArgs.from_args(args), common.RouteArgs.from_args(args, default_algo=None)
    if args.routes:
        if opts.algo is not None:
            raise UroError(f"--algo {opts.algo} computes routes; --routes {args.routes} reads them (give one or the other)")
        sched = source.load() if source.given else None
        art = common.open_routes(opts, args.routes, sched)
        # the whole route set and the summary's own arrays, estimated before loading
        common.estimate_memory(art.n_tors, art.n_uplinks, art.n_slices,
                               "uro_stats" if art.kind == base.PER_HOP else art.algo, k=art.params_dict().get("k", art.params_dict().get("paths", 4)),
                               label=f"statistics of {art.algo} routes")
        routes = art.route_set()
        sched = routes.schedule
        print(f"read {art.describe()}", file=sys.stderr)
    else:
        opts = dataclasses.replace(opts, algo=opts.algo or "uro")
        opts.check_used([opts.algo])
        extra = "uro_stats" if base.get(opts.algo).kind == base.PER_HOP else None
        sched = source.load(plan=[opts.algo] + ([extra] if extra else []), k=opts.k)
        routes = opts.routes(sched, extra=extra)
    print(sched.describe())
    print(_summary(opts, routes))
    return 0


def cmd_htsim(args) -> int:
    """`uro htsim --routes NAME.uro -o FILE`: the routes as the UCMP artifact's htsim topology file."""
    from controller.tables import htsim

    common.check_output(args.output)
    art = common.open_routes(common.RouteArgs.from_args(args), args.routes)
    routes = art.route_set()
    n = htsim.write_file(routes, args.output, downlinks=args.downlinks, alpha=args.alpha,
                         progress=common.progress(art.n_slices, "writing paths", unit="slice"))
    print(f"wrote {args.output} ({_size(Path(args.output))}): {art.algo} routes of {art.n_tors} ToRs, {n} paths "
          f"(htsim: -topfile {args.output} -routing OptiRoute)")
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


def _add_format(r) -> None:
    r.add_argument("--format", choices=["compact", "json"], default=None,
                   help="compact: a directory of .npy arrays + manifest.json, loadable per ToR (default); "
                        "json: readable, for small networks and debugging (default for a .json name)")


def register(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser("run", help="main job: routes and tables for a schedule (default: built-in 8x2 round-robin)")
    common.add_schedule_args(r)
    common.add_route_args(r)
    r.add_argument("--out", default=DEFAULT_OUT, help="artifact directory (default out/)")
    _add_format(r)
    r.add_argument("--no-paths", action="store_true", help="JSON per-hop routes: omit full paths (smaller)")
    r.set_defaults(func=cmd_run, default_generate="round-robin")

    r = sub.add_parser("routes", help="compute routes and write them as an artifact")
    common.add_schedule_args(r)
    common.add_route_args(r)
    cluster.add_args(r)
    r.add_argument("--uro-engine", choices=uro.ENGINES, default="auto",
                   help="uro: compiled numba kernels per destination chunk (streamed into a compact artifact), "
                        "the NumPy reference engine, or auto (numba from %d ToRs on; default)" % uro.NUMBA_FROM_TORS)
    r.add_argument("-o", "--output", required=True,
                   help="artifact to write: NAME.uro (compact directory) or NAME.json (JSON document)")
    _add_format(r)
    r.add_argument("--no-paths", action="store_true", help="JSON per-hop routes: omit full paths (smaller)")
    r.set_defaults(func=cmd_routes)

    r = sub.add_parser("htsim", help="write a route artifact as an htsim topology file (schedule + paths) for the "
                                     "UCMP artifact's simulator (-routing OptiRoute)")
    r.add_argument("--routes", metavar="DIR", required=True, help="compact route artifact (uro routes -o NAME.uro)")
    r.add_argument("-o", "--output", required=True, help="topology file to write")
    r.add_argument("--downlinks", type=common.positive_int, default=None,
                   help="hosts per ToR in the file's header (default: the uplink count, as the UCMP artifact has)")
    r.add_argument("--alpha", type=common.finite_float, default=0.5,
                   help="ucmp: weight factor alpha the flow-size classes are written for (default 0.5)")
    r.set_defaults(func=cmd_htsim)

    r = sub.add_parser("stats", help="path-length histogram, latency, queues/port, entries/ToR; "
                                     "with --target tofino2: the compiled program's resources")
    common.add_schedule_args(r)
    common.add_route_args(r)
    common.add_routes_input(r)
    r.add_argument("--target", choices=["tofino2"],
                   help="report the switch resources of the program built for this target instead")
    r.add_argument("--profile", help="with --target: the profile the program was built for")
    r.add_argument("--build", help="with --target: the build directory (default tofino/build/<profile>/)")
    r.set_defaults(func=cmd_stats)
