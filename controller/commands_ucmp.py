"""`uro compare` and `uro failures`: the route schemes side by side, and under failures."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from controller.errors import UroError

SCHEMES = ("uro", "ucmp", "direct", "vlb", "ksp", "ksp5", "opera", "opera5")


def _parse_list(text: str, conv, what: str) -> list:
    try:
        out = [conv(x) for x in str(text).split(",") if x.strip() != ""]
    except ValueError:
        raise UroError(f"{what}: expected a comma-separated list, got {text!r}") from None
    if not out:
        raise UroError(f"{what}: empty list")
    return out


def cmd_compare(args) -> int:
    from controller import cli, compare

    schemes = _parse_list(args.schemes, str, "--schemes")
    for s in schemes:
        if s not in SCHEMES:
            raise UroError(f"unknown scheme {s!r} in --schemes (available: {', '.join(SCHEMES)})")
    sched = cli._schedule(args)
    total = sched.n_slices * sched.n_tors * (sched.n_tors - 1)
    if args.sample is not None and args.sample < 1:
        raise UroError(f"--sample must be a positive number of groups, got {args.sample}")
    rows, named = [], []
    for s in schemes:
        algo = s.rstrip("5")
        args.paths = 5 if s.endswith("5") else 1
        r = cli._routes(args, sched, algo)
        label = s if algo not in ("ksp", "opera") else f"{algo}(k={args.paths})"
        if algo in ("ksp", "opera") and args.sample is not None and args.sample < total:
            label += "*"
        rows.append(compare.metrics(label, r))
        named.append((label, r))
    print(sched.describe())
    print(compare.format_table(rows))
    if args.sample is not None and args.sample < total:
        print(f"* computed on a seeded sample of {args.sample} of {total} (slice, src, dst) groups")
    if args.json:
        from controller.atomic import write_text

        write_text(args.json, json.dumps([m.as_dict() for m in rows], indent=1) + "\n")
        print(f"wrote {args.json}")
    if args.plot:
        compare.plot_cdfs(named, args.plot, sched.timing.slice_us)
        print(f"wrote {args.plot}")
    return 0


def cmd_failures(args) -> int:
    import numpy as np

    from controller import cli, failures
    from controller.routing import ucmp
    from controller.routing.uro import UroParams, compute

    rates = {}
    for kind, attr in (("links", "links"), ("tors", "fail_tors"), ("ocs", "ocs")):
        vals = _parse_list(getattr(args, attr), float, f"--{kind}")
        for v in vals:
            failures.check_rate(kind, v)
        rates[kind] = vals
    ks = _parse_list(args.paths_list, int, "--paths")
    if any(k < 1 or k > 10 for k in ks):
        raise UroError(f"--paths values must be 1..10 URO alternatives, got {args.paths_list!r}")
    if args.trials < 1:
        raise UroError(f"--trials must be >= 1, got {args.trials}")
    sched = cli._schedule(args)
    per_slice = cli._hop_budget(args, sched) or sched.timing.hops_per_slice
    uro = compute(sched, UroParams(k=max(ks), hops_per_slice=per_slice))
    uc = ucmp.compute(sched, ucmp.UcmpParams(hops_per_slice=per_slice, backups=args.backups))
    cols = [f"uro K={k}" for k in ks] + ["ucmp", "ucmp+backups"]
    cases = []
    for kind, vals in rates.items():
        for v in vals:
            if v > 0:
                cases.append((kind, {kind: v}))
    if not cases:
        raise UroError("no failures asked for: give a positive rate to --links, --tors or --ocs")
    head = ["failure", "rate"] + cols
    lines = [head]
    for kind, kw in cases:
        acc = np.zeros(len(cols))
        for trial in range(args.trials):
            f = failures.sample(sched, seed=args.seed + trial, **kw)
            vals = [failures.uro_loss(uro, f, k) for k in ks]
            vals += [failures.ucmp_loss(uc, f, with_backups=False), failures.ucmp_loss(uc, f, with_backups=True)]
            acc += vals
        acc /= args.trials
        lines.append([kind, f"{kw[kind]:.3f}"] + [f"{100 * x:.3f}%" for x in acc])
    widths = [max(len(r[i]) for r in lines) for i in range(len(head))]
    print(sched.describe())  # only once every trial has run: a bad rate leaves no partial table
    print(f"connectivity loss (fraction of (slice, src, dst) with no surviving route), mean of {args.trials} trials")
    print("\n".join("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
                    for r in lines))
    return 0


def register(sub) -> None:
    from controller import cli

    r = sub.add_parser("compare", help="routing schemes side by side on one schedule")
    cli._add_schedule_args(r)
    cli._add_route_args(r)
    r.add_argument("--schemes", default=",".join(SCHEMES), help="comma list of " + ", ".join(SCHEMES))
    r.add_argument("--sample", type=int, default=None,
                   help="route only this many random (slice, src, dst) groups for ksp/opera (they run in Python)")
    r.add_argument("--json", help="also write the table as JSON")
    r.add_argument("--plot", help="write a PNG with path-length and latency CDFs (matplotlib)")
    r.set_defaults(func=cmd_compare)

    r = sub.add_parser("failures", help="connectivity loss under random link / ToR / OCS failures",
                       description="--tors here is a failure rate; size a generated schedule with --n-tors/--n-uplinks")
    cli._add_schedule_args(r, size_flags=("--n-tors", "--n-uplinks"))
    r.add_argument("--hop-budget", default="auto", help="hops per slice (auto: from timing)")
    r.add_argument("--links", default="0", help="link failure rates, comma list in [0, 1)")
    r.add_argument("--tors", dest="fail_tors", default="0", help="ToR failure rates, comma list in [0, 1)")
    r.add_argument("--ocs", default="0", help="OCS (uplink) failure rates, comma list in [0, 1)")
    r.add_argument("--paths", dest="paths_list", default="1,3,5", help="URO alternatives to compare (default 1,3,5)")
    r.add_argument("--backups", type=int, default=2, help="UCMP backup paths for direct-only groups")
    r.add_argument("--trials", type=int, default=3, help="random failure sets per rate (default 3)")
    r.set_defaults(func=cmd_failures)
