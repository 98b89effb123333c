"""`uro p4 render|build`: the P4 programs for a profile and a target."""

from __future__ import annotations

from controller.cli import common

# library modules are imported inside the commands that use them: `uro` loads only what the command it runs needs


def cmd_p4(args) -> int:
    from controller.p4gen import build, profile, render

    prof = profile.load(args.profile)
    tgt = render.target_class(args.target)
    out = args.out or getattr(tgt, "build_dir", "build").format(profile=prof.name)
    common.check_output_dir(out)
    programs = [args.program] if args.program else None
    if args.action == "render":
        files = render.render_to(prof, out, programs, args.target)
    else:
        files = build.build(prof, out, programs, args.target)
    for f in files:
        print(f"wrote {f}")
    return 0


def register(sub) -> None:
    from controller.p4gen import render

    r = sub.add_parser("p4", help="render (and compile) the P4 programs for a profile")
    r.add_argument("action", choices=["render", "build"], help="render: templates -> P4 + contract; build: also compile")
    r.add_argument("--profile", default="tiny", help="a named profile (shipped with uro) or a .toml path (default tiny)")
    r.add_argument("--target", default="bmv2", choices=render.target_names(),
                   help="bmv2 (v1model, p4c-bm2-ss) or tofino2 (t2na, bf-p4c); default bmv2")
    r.add_argument("--program", choices=["tor", "ocs"], help="only this program (default: all the profile and target have)")
    r.add_argument("--out", help="output directory (default build/ for bmv2, tofino/build/<profile>/ for tofino2)")
    r.set_defaults(func=cmd_p4)
