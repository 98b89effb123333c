"""`uro schedule generate|convert|check`."""

from __future__ import annotations

import sys

from controller.cli import common
from controller.errors import UroError
from controller.schedule import save


def cmd_schedule(args) -> int:
    if args.action in ("generate", "convert"):
        if not args.output:
            raise UroError(f"schedule {args.action} needs -o FILE")
        common.check_output(args.output)
    if args.action == "convert" and not args.schedule:
        raise UroError("schedule convert needs --schedule IN and -o OUT")
    sched = common.ScheduleArgs.from_args(args).load()
    if args.action == "check":
        print(f"ok: {sched.describe()}")
        return 0
    if args.format == "htsim":
        t = sched.timing
        lost = [f"{name} = {getattr(t, name):g}" for name, default in (("propagation_us", 0.5), ("mtu_bytes", 1500))
                if getattr(t, name) != default]
        if lost:
            print(f"uro: warning: the htsim dynexp format has no field for {', '.join(lost)}; "
                  "a reader gets the defaults (use --format json to keep them)", file=sys.stderr)
    save(sched, args.output, args.format)
    print(f"{sched.describe()}\nwrote {args.output} ({args.format})")
    return 0


def register(sub) -> None:
    r = sub.add_parser("schedule", help="generate, convert or check schedules")
    r.add_argument("action", choices=["generate", "convert", "check"])
    common.add_schedule_args(r)
    r.add_argument("-o", "--output", help="file to write")
    r.add_argument("--format", choices=["json", "htsim"], default="json", help="output format")
    r.set_defaults(func=cmd_schedule)
