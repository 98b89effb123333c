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
def _add_schedule_args(p: argparse.ArgumentParser, default_generate: str | None = None) -> None:
    g = p.add_argument_group("schedule (a file, or a generator)")
    g.add_argument("--schedule", metavar="FILE", help="uro JSON or htsim dynexp schedule file")
    g.add_argument("--generate", choices=sorted(GENERATORS), default=default_generate,
                   help="generate a schedule instead of loading one")
    g.add_argument("--tors", type=int, default=8, help="ToRs for --generate (default 8)")
    g.add_argument("--uplinks", type=int, default=2, help="uplinks per ToR for --generate (default 2)")
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


def _add_route_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("routing")
    g.add_argument("--algo", default="uro", help="routing algorithm (default uro)")
    g.add_argument("-K", "--alternatives", dest="k", type=int, default=4, help="one-shot alternatives per entry, 1..10")
    g.add_argument("--max-hops", type=int, default=None, help="hop bound M (default: none)")
    g.add_argument("--hop-budget", default="auto",
                   help="hops per slice: 'auto' (from timing, UCMP App. B), 'none', or a number")


def _routes(args, sched: Schedule):
    from controller.routing.uro import UroParams, compute

    if args.algo != "uro":
        raise UroError(f"unknown algorithm {args.algo!r} (available: uro)")
    hb = str(args.hop_budget).lower()
    if hb == "auto":
        per_slice = sched.timing.hops_per_slice
    elif hb == "none":
        per_slice = None
    else:
        try:
            per_slice = int(hb)
        except ValueError:
            raise UroError(f"--hop-budget must be auto, none or a positive integer, got {args.hop_budget!r}") from None
    params = UroParams(k=args.k, max_hops=args.max_hops, hops_per_slice=per_slice)
    return compute(sched, params, progress=_progress(sched.n_slices * 2, "routing"))


def _progress(total: int, desc: str):
    """A tqdm bar on stderr for long work (hidden on small jobs and non-terminals)."""
    from tqdm import tqdm

    if total < 64 or not sys.stderr.isatty():
        return None
    bar = tqdm(total=total, desc=desc, unit="slice", leave=False)
    return bar.update


# ---- commands -----------------------------------------------------------------------------
def cmd_run(args) -> int:
    """Main job: schedule -> URO routes -> tables, with a summary and artifacts."""
    from controller import stats, tables

    sched = _schedule(args)
    routes = _routes(args, sched)
    st = stats.summarize(routes)
    out = Path(args.out)
    save(sched, out / "schedule.json")
    tables.write_routes(routes, str(out / "routes.json"))
    print(sched.describe())
    print(f"URO routes: K={routes.params.k}, max hops {routes.params.max_hops or 'none'}, "
          f"hops/slice {routes.params.hops_per_slice or 'none'}")
    print(stats.format_stats(st))
    print(f"wrote {out / 'schedule.json'} and {out / 'routes.json'}")
    return 0


def cmd_routes(args) -> int:
    from controller import tables

    sched = _schedule(args)
    routes = _routes(args, sched)
    tables.write_routes(routes, args.output, with_paths=not args.no_paths)
    print(f"{sched.describe()}\nwrote {args.output}: {sched.n_tors} ToRs x {tables.uncompressed_count(routes)} entries")
    return 0


def cmd_stats(args) -> int:
    from controller import stats

    sched = _schedule(args)
    routes = _routes(args, sched)
    print(sched.describe())
    print(stats.format_stats(stats.summarize(routes)))
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
    from controller import bench

    return bench.main(quick=args.quick, large=not args.skip_large)


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
