"""`uro p4 render|build`: the P4 programs for a profile."""

from __future__ import annotations


def cmd_p4(args) -> int:
    from controller.cli import common
    from controller.p4gen import build, profile, render

    prof = profile.load(args.profile)
    common.check_output_dir(args.out)
    programs = [args.program] if args.program else None
    if args.action == "render":
        files = render.render_to(prof, args.out, programs, args.target)
    else:
        files = build.build(prof, args.out, programs, args.target)
    for f in files:
        print(f"wrote {f}")
    return 0


def register(sub) -> None:
    r = sub.add_parser("p4", help="render (and compile) the P4 programs for a profile")
    r.add_argument("action", choices=["render", "build"], help="render: templates -> P4 + contract; build: also compile")
    r.add_argument("--profile", default="tiny", help="a named profile (shipped with uro) or a .toml path (default tiny)")
    r.add_argument("--target", default="bmv2", choices=["bmv2"], help="target (default bmv2)")
    r.add_argument("--program", choices=["tor", "ocs"], help="only this program (default: all the profile fits)")
    r.add_argument("--out", default="build", help="output directory (default build/)")
    r.set_defaults(func=cmd_p4)
