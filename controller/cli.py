"""The `uro` command line. I/O lives here; algorithms live in their modules.

User errors (:class:`UroError`) print one line on stderr and exit 2; nothing is
written unless the whole command succeeds (artifacts are written atomically, last).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.errors import UroError
from controller.schedule import GENERATORS, Schedule, Timing, load, save

DEFAULT_OUT = "out"


# ---- shared options ---------------------------------------------------------------------
def _add_schedule_args(
    p: argparse.ArgumentParser, default_generate: str | None = None, size_flags: tuple[str, str] = ("--tors", "--uplinks")
) -> None:
    g = p.add_argument_group("schedule (a file, or a generator)")
    g.add_argument("--schedule", metavar="FILE", help="uro JSON or htsim dynexp schedule file")
    g.add_argument("--generate", choices=sorted(GENERATORS), default=default_generate,
                   help="generate a schedule instead of loading one")
    g.add_argument(size_flags[0], dest="tors", type=int, default=8, help="ToRs for --generate (default 8)")
    g.add_argument(size_flags[1], dest="uplinks", type=int, default=2, help="uplinks per ToR for --generate (default 2)")
    g.add_argument("--seed", type=int, default=0, help="seed for opera/random generators")
    g.add_argument("--slice-us", type=float, default=None, help="slice duration in us (generated schedules)")
    g.add_argument("--guard-us", type=float, default=None, help="reconfiguration guard in us")
    g.add_argument("--propagation-us", type=float, default=None, help="per-hop propagation delay in us")
    g.add_argument("--link-gbps", type=float, default=None, help="link rate in Gbps")


def _timing(args) -> Timing:
    base = Timing()
    kw = {}
    for name in ("slice_us", "guard_us", "propagation_us", "link_gbps"):
        v = getattr(args, name, None)
        if v is not None:
            kw[name] = v
    t = Timing(**{**base.__dict__, **kw})
    problems = t.problems()
    if problems:
        raise UroError("; ".join(problems))
    return t


def _schedule(args) -> Schedule:
    if args.schedule and args.generate:
        raise UroError("give either --schedule FILE or --generate KIND, not both")
    if args.schedule:
        return load(args.schedule)
    if not args.generate:
        raise UroError("no schedule: give --schedule FILE or --generate " + "|".join(sorted(GENERATORS)))
    gen = GENERATORS[args.generate]
    kw = {"timing": _timing(args)}
    if args.generate != "round-robin":
        kw["seed"] = args.seed
    return gen(args.tors, args.uplinks, **kw)


ALGORITHMS = ("uro", "ucmp", "direct", "vlb", "ksp", "opera")


def _add_route_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("routing")
    g.add_argument("--algo", default="uro",
                   help="routing scheme: " + ", ".join(ALGORITHMS) + " (default uro)")
    g.add_argument("-K", "--alternatives", dest="k", type=int, default=4, help="URO one-shot alternatives per entry, 1..10")
    g.add_argument("--max-hops", type=int, default=None, help="URO hop bound M (default: none)")
    g.add_argument("--hop-budget", default="auto",
                   help="hops per slice: 'auto' (from timing, UCMP App. B), 'none' (URO only), or a number")
    g.add_argument("--paths", type=int, default=1, help="k paths for ksp / opera (default 1)")
    g.add_argument("--h-max", type=int, default=None, help="UCMP largest hop count (default: exact, App. B bound)")
    g.add_argument("--max-parallel", type=int, default=8, help="UCMP tied paths kept per hop count (default 8)")
    g.add_argument("--backups", type=int, default=2, help="UCMP 2-hop backups for direct-only groups (default 2)")
    g.add_argument("--relax", type=int, default=None, metavar="SLICES",
                   help="UCMP latency relaxation: extra 2-hop paths up to this many slices slower")
    g.add_argument("--ucmp-engine", default="auto", metavar="auto|numba|numpy",
                   help="UCMP group engine: compiled numba kernels on all cores, or the NumPy reference "
                        "(default auto: numba up to 64 uplinks per ToR)")
    g.add_argument("--alpha", type=float, default=0.5, help="UCMP weight factor alpha for host bucket thresholds (default 0.5)")


def _hop_budget(args, sched: Schedule) -> int | None:
    hb = str(args.hop_budget).lower()
    if hb == "auto":
        return sched.timing.hops_per_slice
    if hb == "none":
        return None
    try:
        v = int(hb)
    except ValueError:
        v = 0
    if v < 1:
        raise UroError(f"--hop-budget must be auto, none or a positive integer, got {args.hop_budget!r}")
    return v


def _check_alpha(args) -> None:
    a = getattr(args, "alpha", 0.5)
    if not (a > 0 and a < float("inf")):
        raise UroError(f"--alpha must be a positive number, got {a!r}")


def _routes(args, sched: Schedule, algo: str | None = None):
    """Compute routes with the scheme ``algo`` (default ``--algo``)."""
    algo = algo or args.algo
    if algo not in ALGORITHMS:
        raise UroError(f"unknown algorithm {algo!r} (available: {', '.join(ALGORITHMS)})")
    _check_alpha(args)
    per_slice = _hop_budget(args, sched)
    if algo == "uro":
        from controller.routing.uro import UroParams, compute

        params = UroParams(k=args.k, max_hops=args.max_hops, hops_per_slice=per_slice)
        return compute(sched, params, progress=_progress(sched.n_slices * 2, "routing"))
    if per_slice is None:
        raise UroError(f"--hop-budget none is only meaningful for uro; {algo} needs a per-slice hop budget")
    if algo == "ucmp":
        from controller.routing import ucmp

        params = ucmp.UcmpParams(h_max=args.h_max, hops_per_slice=per_slice, max_parallel=args.max_parallel,
                                 backups=args.backups, relax_slices=args.relax)
        return ucmp.compute(sched, params, progress=_progress(sched.n_tors, "ucmp", "dst"), engine=args.ucmp_engine)
    if algo == "direct":
        from controller.routing import direct

        return direct.compute(sched)
    if algo == "vlb":
        from controller.routing import vlb

        return vlb.compute(sched, per_slice)
    from controller.routing import ksp, opera

    mod = ksp if algo == "ksp" else opera
    total = sched.n_slices * sched.n_tors * (sched.n_tors - 1)
    return mod.compute(sched, args.paths, per_slice, progress=_progress(total, algo, "group"),
                       sample=getattr(args, "sample", None), seed=getattr(args, "seed", 0))


def _progress(total: int, desc: str, unit: str = "slice"):
    """A tqdm bar on stderr for long work (hidden on small jobs and non-terminals)."""
    from tqdm import tqdm

    if total < 64 or not sys.stderr.isatty():
        return None
    bar = tqdm(total=total, desc=desc, unit=unit, leave=False)
    return bar.update


# ---- commands -----------------------------------------------------------------------------
def _write(routes, path: str, with_paths: bool = True) -> None:
    from controller import source_tables, tables
    from controller.routing.uro import UroRoutes

    if isinstance(routes, UroRoutes):
        tables.write_routes(routes, path, with_paths=with_paths)
    else:
        source_tables.write_source_routes(routes, path)


def _summary(args, routes) -> str:
    from controller import stats
    from controller.routing.uro import UroRoutes

    if isinstance(routes, UroRoutes):
        return stats.format_stats(stats.summarize(routes))
    return stats.format_path_stats(routes, alpha=args.alpha)


def cmd_run(args) -> int:
    """Main job: schedule -> routes -> tables, with a summary and artifacts."""
    sched = _schedule(args)
    routes = _routes(args, sched)
    out = Path(args.out)
    name = "routes.json" if args.algo == "uro" else "source_routes.json"
    save(sched, out / "schedule.json")
    _write(routes, str(out / name))
    print(sched.describe())
    if args.algo == "uro":
        print(f"URO routes: K={routes.params.k}, max hops {routes.params.max_hops or 'none'}, "
              f"hops/slice {routes.params.hops_per_slice or 'none'}")
    else:
        print(f"{args.algo} source routes: {routes.params}")
    print(_summary(args, routes))
    print(f"wrote {out / 'schedule.json'} and {out / name}")
    return 0


def cmd_routes(args) -> int:
    from controller import source_tables, tables
    from controller.routing.uro import UroRoutes

    sched = _schedule(args)
    routes = _routes(args, sched)
    _write(routes, args.output, with_paths=not args.no_paths)
    if isinstance(routes, UroRoutes):
        n = tables.uncompressed_count(routes)
    else:
        n = int(source_tables.entry_counts(routes).mean())
    print(f"{sched.describe()}\nwrote {args.output}: {args.algo}, {sched.n_tors} ToRs x ~{n} entries")
    return 0


def cmd_stats(args) -> int:
    sched = _schedule(args)
    routes = _routes(args, sched)
    print(sched.describe())
    print(_summary(args, routes))
    return 0


def cmd_schedule(args) -> int:
    if args.action == "generate":
        sched = _schedule(args)
        if not args.output:
            raise UroError("schedule generate needs -o FILE")
        save(sched, args.output, args.format)
        print(f"{sched.describe()}\nwrote {args.output}")
    elif args.action == "convert":
        if not args.schedule or not args.output:
            raise UroError("schedule convert needs --schedule IN and -o OUT")
        sched = load(args.schedule)
        save(sched, args.output, args.format)
        print(f"wrote {args.output} ({args.format})")
    else:  # check
        sched = _schedule(args)
        print(f"ok: {sched.describe()}")
    return 0


def cmd_bench(args) -> int:
    from controller import bench, bench_ucmp

    rc = 0
    if args.suite in ("uro", "all"):
        rc |= bench.main(quick=args.quick, large=not args.skip_large)
    if args.suite in ("ucmp", "all"):
        rc |= bench_ucmp.main(quick=args.quick, full_large=args.full_large, large=not args.skip_large)
    return rc


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="uro", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="main job: routes and tables for a schedule (default: built-in 8x2 round-robin)")
    _add_schedule_args(r, default_generate=None)
    _add_route_args(r)
    r.add_argument("--out", default=DEFAULT_OUT, help="artifact directory (default out/)")
    r.set_defaults(func=cmd_run)

    r = sub.add_parser("routes", help="compute routes and export them as JSON")
    _add_schedule_args(r)
    _add_route_args(r)
    r.add_argument("-o", "--output", required=True, help="routes.json to write")
    r.add_argument("--no-paths", action="store_true", help="omit full paths (smaller file)")
    r.set_defaults(func=cmd_routes)

    r = sub.add_parser("stats", help="path-length histogram, latency, queues/port, entries/ToR")
    _add_schedule_args(r)
    _add_route_args(r)
    r.set_defaults(func=cmd_stats)

    r = sub.add_parser("schedule", help="generate, convert or check schedules")
    r.add_argument("action", choices=["generate", "convert", "check"])
    _add_schedule_args(r)
    r.add_argument("-o", "--output", help="file to write")
    r.add_argument("--format", choices=["json", "htsim"], default="json", help="output format")
    r.set_defaults(func=cmd_schedule)

    r = sub.add_parser("bench", help="fast engine vs Alg. 1 reference, full-table build times")
    r.add_argument("--quick", action="store_true", help="small sizes only")
    r.add_argument("--skip-large", action="store_true", help="skip the 1024x32 run")
    r.add_argument("--suite", choices=["uro", "ucmp", "all"], default="all",
                   help="URO engine vs reference, UCMP and baselines vs the paper, or both (default)")
    r.add_argument("--full-large", action="store_true", help="UCMP 1024x32 on all destinations, not a chunk")
    r.set_defaults(func=cmd_bench)

    from controller import commands_p4  # `uro p4 render|build`

    commands_p4.register(sub)
    try:  # UCMP / baselines commands, when present
        from controller import commands_ucmp
    except ImportError:
        pass
    else:
        commands_ucmp.register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "run" and not args.schedule and not args.generate:
        args.generate = "round-robin"  # the built-in example network
    try:
        return args.func(args)
    except UroError as e:
        print(f"uro: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("uro: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
