"""`uro compare` and `uro failures`: the route schemes side by side, and under failures."""

from __future__ import annotations

import argparse
import json
import sys

from controller.cli import cluster, common
from controller.errors import UroError

# library modules are imported inside the commands that use them: `uro` loads only what the command it runs needs

#: scheme name -> (registered algorithm, parameter overrides)
SCHEMES = {
    "uro": ("uro", {}), "ucmp": ("ucmp", {}), "direct": ("direct", {}), "vlb": ("vlb", {}),
    "ksp": ("ksp", {"paths": 1}), "ksp5": ("ksp", {"paths": 5}),
    "opera": ("opera", {"paths": 1}), "opera5": ("opera", {"paths": 5}),
}
COMPARE_FORMAT = "uro-compare/1"


def cmd_compare(args) -> int:
    from controller.analysis import compare

    if args.schemes is None:
        schemes = [] if args.routes else list(SCHEMES)
    else:
        schemes = common.parse_list(args.schemes, str, "--schemes")
    for s in schemes:
        if s not in SCHEMES:
            raise UroError(f"unknown scheme {s!r} in --schemes (available: {', '.join(SCHEMES)})")
    if args.json:
        common.check_output(args.json, "--json")
    if args.plot:
        common.check_output(args.plot, "--plot")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise UroError("--plot needs matplotlib (pip install 'uro[plot]' or matplotlib)") from None
    source, opts, on = (common.ScheduleArgs.from_args(args), common.RouteArgs.from_args(args),
                        cluster.Where.from_args(args))
    if schemes:
        opts.check_used(sorted({SCHEMES[s][0] for s in schemes}))
    # artifacts first (cheap to open): they fix the schedule when none is given
    plan = sorted({SCHEMES[s][0] for s in schemes}) + (["uro_stats"] if "uro" in schemes else [])
    sched = source.load(plan, k=opts.k) if source.given or not args.routes else None
    loaded = []
    for path in args.routes:
        if path in [str(a.path) for a in loaded]:
            raise UroError(f"--routes {path} is listed twice")
        from controller.tables import artifacts

        art = artifacts.open(path, sched)
        if sched is None:
            sched = art.schedule
        loaded.append(art)
    total = sched.n_slices * sched.n_tors * (sched.n_tors - 1)
    sample = dict(opts.given).get("sample")
    sampled = sample is not None and sample < total
    rows, named, labels = [], [], set()
    jobs = [(s, None) for s in schemes] + [(None, a) for a in loaded]
    with on.executor() as ex:  # route chunks and sampled groups run there (default: here)
        routed = {s: opts.routes(sched, SCHEMES[s][0], executor=ex, **SCHEMES[s][1])
                  for s in schemes if ex is not None}
    for s, art in jobs:
        if art is None:
            algo, override = SCHEMES[s]
            r = routed.pop(s) if s in routed else opts.routes(sched, algo, **override)
            label = s if "paths" not in override else f"{algo}(k={override['paths']})"
            if "paths" in override and sampled:
                label += "*"
        else:
            common.estimate_memory(art.n_tors, art.n_uplinks, art.n_slices,
                                   "uro_stats" if art.kind == "per_hop" else art.algo,
                                   k=art.params_dict().get("k", art.params_dict().get("paths", 4)), label=f"metrics of {art.algo} routes")
            r = art.route_set()
            label = art.algo if art.algo not in labels else f"{art.algo} ({art.path.name})"
        labels.add(label)
        print(f"  {label}: routes {'loaded' if art is not None else 'done'}, computing metrics ...",
              file=sys.stderr, flush=True)
        bar = common.progress(compare.METRIC_STEPS * 64, f"{label} metrics", unit="step")
        rows.append(compare.metrics(label, r, progress=None if bar is None else (lambda n: bar(64 * n))))
        named.append((label, r))
    print(sched.describe())
    print(compare.format_table(rows))
    if sampled:
        print(f"* computed on a seeded sample of {sample} of {total} (slice, src, dst) groups")
    if args.json:
        from controller.atomic import write_text

        doc = {"format": COMPARE_FORMAT, "schedule": {"name": sched.name, "tors": sched.n_tors,
               "uplinks": sched.n_uplinks, "slices": sched.n_slices, "hash": sched.content_hash()},
               "rows": [m.as_dict() for m in rows]}
        write_text(args.json, json.dumps(doc, indent=1) + "\n")
        print(f"wrote {args.json}")
    if args.plot:
        compare.plot_cdfs(named, args.plot, sched.timing.slice_us,
                          title=f"{sched.name}: {sched.n_tors} ToRs x {sched.n_uplinks} uplinks, {sched.n_slices} slices")
        print(f"wrote {args.plot}")
    return 0


def _trial(case, routes, models):
    from controller.analysis import failures

    return failures.trial_losses(routes, case, models)


def failure_table(args):
    """The connectivity-loss table of `uro failures` (and `uro plot failures`):
    ``(schedule, columns, [(kind, rate, [loss per column as a fraction])])``; the routes' chunks and
    the trials run on ``--cluster``/``--workers`` when given (default: in-process)."""
    import numpy as np

    from controller.analysis import failures
    from controller.routing import ucmp
    from controller.routing.uro import UroParams, compute

    rates = {}
    for kind, attr in (("links", "link_rate"), ("tors", "tor_rate"), ("ocs", "ocs_rate")):
        vals = common.parse_list(getattr(args, attr), float, f"--{attr.replace('_', '-')}")
        for v in vals:
            failures.check_rate(attr.replace("_", "-"), v)
        rates[kind] = vals
    ks = common.parse_list(args.k_list, int, "-K/--alternatives")
    if any(k < 1 or k > 10 for k in ks):
        raise UroError(f"-K/--alternatives values must be 1..10 URO alternatives, got {args.k_list!r}")
    rs = common.parse_list(args.reroutes, int, "-R/--reroutes")
    if any(r < 0 or r > 64 for r in rs):
        raise UroError(f"-R/--reroutes values must be 0..64 re-routing attempts, got {args.reroutes!r}")
    kinds = common.parse_list(args.model, str, "--model")
    for name in kinds:
        if name not in failures.MODELS:
            raise UroError(f"--model: unknown model {name!r}; choose from: {', '.join(failures.MODELS)}")
    models = tuple(failures.UroModel(k=k, reroutes=r, model=name, knowledge=args.knowledge)
                   for name in kinds for k in ks for r in rs)
    if args.trials < 1:
        raise UroError(f"--trials must be >= 1, got {args.trials}")
    cases = [(kind, {kind: v}) for kind, vals in rates.items() for v in vals if v > 0]
    if not cases:
        raise UroError("no failures asked for: give a positive rate to --link-rate, --tor-rate or --ocs-rate")
    on = cluster.Where.from_args(args)
    sched = common.ScheduleArgs.from_args(args).load(plan=["uro", "ucmp"])
    per_slice = common.hop_budget(getattr(args, "hops_per_slice", "auto"), sched)
    cols = [m.label for m in models] + ["ucmp", "ucmp+backups"]
    trials = [(kind, kw[kind], args.seed + trial, args.unit) for kind, kw in cases for trial in range(args.trials)]
    with on.executor() as ex:
        uro = compute(sched, UroParams(k=max(ks), hops_per_slice=per_slice), executor=ex)
        uc = ucmp.compute(sched, ucmp.UcmpParams(hops_per_slice=per_slice, backups=args.backups), executor=ex)
        if ex is None:
            losses = [failures.trial_losses((uro, uc), c, models) for c in trials]
        else:
            shared = ex.share((uro, uc))
            losses = list(ex.map_ordered(_trial, trials, shared, models))
    out = []
    for i, (kind, kw) in enumerate(cases):
        acc = np.mean(np.array(losses[i * args.trials:(i + 1) * args.trials]), axis=0)
        out.append((kind, kw[kind], acc.tolist()))
    return sched, cols, out


def cmd_failures(args) -> int:
    sched, cols, rows = failure_table(args)
    head = ["failure", "rate"] + cols
    lines = [head] + [[kind, f"{rate:.3f}"] + [f"{100 * x:.3f}%" for x in acc] for kind, rate, acc in rows]
    widths = [max(len(r[i]) for r in lines) for i in range(len(head))]
    print(sched.describe())  # only once every trial has run: a bad rate leaves no partial table
    print(f"connectivity loss (fraction of (slice, src, dst) whose packet is lost), mean of {args.trials} trials; "
          f"failed {'cables' if args.unit == 'cable' else 'circuits'} for 'links'")
    print("uro: the data plane (the first alternative known to be up is taken and followed); "
          "bound: the oracle (some alternative survives), which no switch reaches")
    print("\n".join("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
                    for r in lines))
    return 0


def register(sub) -> None:
    r = sub.add_parser(
        "compare", help="routing schemes side by side on one schedule",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Routing schemes side by side on one schedule (path statistics count every path a scheme "
                    "may use; UCMP backups and relaxed paths left out).\n\n"
                    "  edge-disj   member share: of the paths in groups with >= 2 paths, the share that shares no\n"
                    "              directed ToR-to-ToR edge (any slice) with another path of its group\n"
                    "  disj-pairs  pair share: of all pairs of paths within a group, the share of pairs that\n"
                    "              share no edge (UCMP §7.2, 'edge-disjoint paths in a group')\n"
                    "  grp-size    paths per (slice, src, dst) group\n\n"
                    "An htsim topology file with slices of a second or more (the UCMP/Opera artifacts' files "
                    "carry a 2 s placeholder) gets a warning: give --slice-us.")
    compare_args(r)
    r.add_argument("--json", help="also write the table as JSON")
    r.add_argument("--plot", help="write a PNG with path-length and latency CDFs (matplotlib)")
    cluster.add_args(r)
    r.set_defaults(func=cmd_compare)

    r = sub.add_parser("failures", help="connectivity loss under random link / ToR / OCS failures")
    failures_args(r)
    r.set_defaults(func=cmd_failures)


def compare_args(r) -> None:
    """The schedule, routing, schemes and --routes options of `uro compare` (and `uro plot cdf`)."""
    common.add_schedule_args(r)
    common.add_route_args(r, algo_flag=False)
    r.add_argument("--schemes", default=None,
                   help="comma list of " + ", ".join(SCHEMES) + " (default: all, or none when --routes is given)")
    common.add_routes_input(r, many=True)


def failures_args(r) -> None:
    """The options of `uro failures` (and `uro plot failures`)."""
    common.add_schedule_args(r)
    r.add_argument("--n-tors", dest="tors", type=common.tor_count, action=common.DeprecatedAlias, new="--tors",
                   help="deprecated: use --tors")
    r.add_argument("--n-uplinks", dest="uplinks", type=common.positive_int, action=common.DeprecatedAlias,
                   new="--uplinks", help="deprecated: use --uplinks")
    r.add_argument("--hop-budget", dest="hops_per_slice", default="auto", help="hops per slice (auto: from timing)")
    r.add_argument("--link-rate", default="0", help="link failure rates, comma list in [0, 1)")
    r.add_argument("--tor-rate", default="0", help="ToR failure rates, comma list in [0, 1)")
    r.add_argument("--ocs-rate", default="0", help="OCS (uplink index) failure rates, comma list in [0, 1)")
    r.add_argument("--links", dest="link_rate", action=common.DeprecatedAlias, new="--link-rate",
                   help="deprecated: use --link-rate")
    r.add_argument("--ocs", dest="ocs_rate", action=common.DeprecatedAlias, new="--ocs-rate",
                   help="deprecated: use --ocs-rate")
    r.add_argument("-K", "--alternatives", dest="k_list", default="1,3,5",
                   help="URO alternatives K to compare, comma list (default 1,3,5)")
    r.add_argument("--paths", dest="k_list", action=common.DeprecatedAlias, new="-K/--alternatives",
                   help="deprecated: use -K/--alternatives")
    r.add_argument("-R", "--reroutes", default="0",
                   help="URO re-routing attempts per packet (URO Property 3: deferred a slice and looked up "
                        "again when no alternative is known to be up), comma list (default 0: the ToR program "
                        "drops such a packet)")
    r.add_argument("--model", default="dataplane",
                   help="URO failure models, comma list: dataplane (default: the first alternative known to be up "
                        "is taken and followed, as the ToR program does) and/or oracle (a bound: some alternative "
                        "survives)")
    r.add_argument("--knowledge", default="masks", choices=("masks", "local"),
                   help="what a ToR knows in the dataplane model: masks (every failed circuit at its ends: port "
                        "state and liveness masks, after detection; default) or local (its own port state only)")
    r.add_argument("--unit", default="cable", choices=("cable", "circuit"),
                   help="what one failed link is: a cable (a ToR uplink's fibre, both ends, every slice; default) "
                        "or a circuit (one circuit of one slice)")
    r.add_argument("--backups", type=common.non_negative_int, default=2,
                   help="UCMP backup paths for direct-only groups")
    r.add_argument("--trials", type=common.positive_int, default=3, help="random failure sets per rate (default 3)")
    cluster.add_args(r)
