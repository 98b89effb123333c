"""`uro bench`: the side-by-side figures of benchmarks/ (a source checkout only).

The benchmarks are not part of the runtime package; this command imports them lazily
from the ``benchmarks/`` directory of the checkout the package was installed from."""

from __future__ import annotations

import importlib
import os
import signal
import sys
from pathlib import Path

from controller.cli.common import finite_float, positive_int
from controller.errors import UroError


def _benchmarks_dir() -> Path:
    here = Path(__file__).resolve().parents[2] / "benchmarks"
    if not (here / "bench_uro.py").exists():
        raise UroError("uro bench needs a source checkout (benchmarks/ is not installed with the package); "
                       "run it from a clone with `pip install -e .`")
    return here


def load_suite(name: str):
    root = str(_benchmarks_dir().parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    return importlib.import_module(f"benchmarks.{name}")


_AT_FORK_REGISTERED = False
_OUR_HANDLERS: list = []               # the handlers stop_cleanly installed, for the fork hook


def stop_cleanly() -> None:
    """SIGTERM and SIGINT raise KeyboardInterrupt in the main thread, so that a benchmark's
    ``finally`` blocks remove the fabrics, switches and processes it built. Python's
    default SIGTERM ends the process at once (leaving an emulated fabric up), and a job
    started in the background by a shell has SIGINT ignored, which Python keeps.

    Only the process that installed them: a child forked from it (pyroute2's namespace
    helper, which its parent ends with SIGTERM) would otherwise unwind the benchmark's own
    stack -- its ``finally`` blocks tearing the fabric down under the parent, which then
    waits for the helper forever. A child forked by ``os.fork`` gets the default
    dispositions back at once (``os.register_at_fork``), so the kernel ends it even while
    it is blocked in a system call; Python runs its handlers only between bytecodes, and a
    signal that lands just before a ``sleep`` would wait out the whole sleep. A child forked
    another way still dies as by default at the first signal (the handler checks its pid).

    A process started with the signals blocked (a test runner's worker thread may block
    them, and its children inherit the mask) has them unblocked, or they would never
    arrive."""
    global _AT_FORK_REGISTERED
    owner = os.getpid()

    def raise_interrupt(signum, frame):
        if os.getpid() != owner:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise KeyboardInterrupt(signal.Signals(signum).name)

    _OUR_HANDLERS.append(raise_interrupt)
    signal.signal(signal.SIGTERM, raise_interrupt)
    signal.signal(signal.SIGINT, raise_interrupt)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    if not _AT_FORK_REGISTERED:        # register_at_fork hooks cannot be removed: once
        os.register_at_fork(after_in_child=_default_signals_in_child)
        _AT_FORK_REGISTERED = True


def _default_signals_in_child() -> None:
    for signum in (signal.SIGTERM, signal.SIGINT):
        if any(signal.getsignal(signum) is h for h in _OUR_HANDLERS):
            signal.signal(signum, signal.SIG_DFL)


def cmd_bench(args) -> int:
    if args.profile and (args.suite != "fabric" or args.large_tors is None):
        raise UroError("bench: --profile profiles the runs of --suite fabric --large-tors N: give both")
    if args.hold_pps is not None and args.suite != "clock":
        raise UroError(f"bench: --hold-pps paces the hold queues of --suite clock's fabric, not --suite {args.suite}")
    if args.switch_niceness is not None and args.suite not in ("clock", "liveness"):
        raise UroError(f"bench: --switch-niceness sets the priority of the emulated fabric's switches of --suite "
                       f"clock and liveness, not --suite {args.suite}")
    if args.load is not None and args.suite != "clock":
        raise UroError(f"bench: --load runs route computations beside --suite clock's fabric, not --suite {args.suite}")
    if args.networks is not None and args.suite != "fabric":
        raise UroError(f"bench: --networks picks the (108, 6) networks of --suite fabric, not --suite {args.suite}")
    if args.repeat is not None and args.suite != "fabric":
        raise UroError(f"bench: --repeat repeats the failures of --suite fabric's (108, 6) networks, "
                       f"not --suite {args.suite}")
    if args.memory_cap is not None and args.suite != "fabric":
        raise UroError(f"bench: --memory-cap caps the daemon and the simulated fabric of --suite fabric, "
                       f"not --suite {args.suite}")
    stop_cleanly()
    rc = 0
    if args.suite in ("uro", "all"):
        rc |= load_suite("bench_uro").main(quick=args.quick, large=not args.skip_large, full_large=args.full_large)
    if args.suite in ("ucmp", "all"):
        rc |= load_suite("bench_ucmp").main(quick=args.quick, full_large=args.full_large, large=not args.skip_large)
    if args.suite in ("agent", "all"):
        rc |= load_suite("bench_agent").main(quick=args.quick)
    if args.suite in ("artifacts", "all"):
        rc |= load_suite("bench_artifacts").main(quick=args.quick, large=not args.skip_large)
    if args.suite in ("daemon", "all"):   # real switches (root); says why and skips where they are absent
        rc |= load_suite("bench_daemon").main(quick=args.quick)
    if args.suite == "tofino2":            # minutes per build with bf-p4c: only when asked for
        rc |= load_suite("bench_tofino2").main(quick=args.quick, large=not args.skip_large)
    if args.suite == "entries":            # one (108, 6) ToR's route entries: per-entry vs bulk (~1 min)
        rc |= load_suite("bench_entries").main(quick=args.quick)
    if args.suite == "hold":               # what held packets cost one bmv2 ToR (root, bmv2, p4c; ~30 s)
        rc |= load_suite("bench_hold").main(quick=args.quick)
    if args.suite == "pass-cost":          # one bmv2 ToR's CPU per held pass, timer vs sync mode (root; ~2 min)
        rc |= load_suite("bench_hold").main_pass_cost(quick=args.quick)
    if args.suite == "emulate":
        rc |= load_suite("bench_emulate").main(quick=args.quick)
    if args.suite == "fabric":             # a whole (108, 6) / (1024, 32) fabric, simulated (minutes)
        rc |= load_suite("bench_fabric").main(quick=args.quick, large=not args.skip_large, full_large=args.full_large,
                                              large_only=args.large_only, large_workers=args.large_workers,
                                              large_stop_after=args.large_stop_after, large_setup=args.large_setup,
                                              large_tors=args.large_tors, profile=args.profile,
                                              **({} if args.networks is None else {"networks": args.networks}),
                                              **({} if args.repeat is None else {"repeat": args.repeat}),
                                              **({} if args.memory_cap is None else {"memory_cap_gib": args.memory_cap}))
    if args.suite == "ucmp-emulate":
        rc |= load_suite("bench_ucmp_emulate").main(quick=args.quick)
    if args.suite == "ucmp-failure":       # a failure's UCMP source routes, whole vs incremental (minutes)
        rc |= load_suite("bench_ucmp_failure").main(quick=args.quick)
    if args.suite == "clock":
        rc |= load_suite("bench_clock").main(quick=args.quick, duration_s=args.duration, load=args.load,
                                             hold_pps=args.hold_pps, switch_niceness=args.switch_niceness)
    if args.suite == "liveness":
        rc |= load_suite("bench_liveness").main(quick=args.quick, duration_s=args.duration,
                                                ping_interval_s=args.ping_interval,
                                                switch_niceness=args.switch_niceness)
    if args.suite == "mutation":           # mutmut, nice 19: minutes to an hour per module
        rc |= load_suite("bench_mutation").main(quick=args.quick, modules=args.module, jobs=args.jobs,
                                                functions=args.functions)
    return rc


def _workers(text: str) -> tuple[int, ...]:
    import argparse

    try:
        out = tuple(int(x) for x in text.split(","))
    except ValueError:
        out = ()
    if not out or any(n < 0 for n in out):
        raise argparse.ArgumentTypeError(f"--large-workers {text!r}: worker counts, comma-separated, each 0 or more (e.g. 0,1)")
    return out


#: the (108, 6) networks of --suite fabric (benchmarks/bench_fabric.py main)
FABRIC_NETWORKS = ("uro", "ucmp", "whole")


def _networks(text: str) -> tuple[str, ...]:
    """--networks: some of :data:`FABRIC_NETWORKS`, comma-separated, each once."""
    import argparse

    names = [n.strip() for n in text.split(",")]
    bad = [n for n in names if n not in FABRIC_NETWORKS]
    if bad or len(set(names)) != len(names):
        what = f"{bad[0]!r} is not one of them" if bad else "each once"
        raise argparse.ArgumentTypeError(f"--networks {text!r}: names of (108, 6) networks among "
                                         f"{', '.join(FABRIC_NETWORKS)}, comma-separated ({what})")
    return tuple(names)


def _repeat(text: str) -> int:
    """--repeat: how many times the (108, 6) failures run, 1..20."""
    import argparse

    n = positive_int(text)
    if n > 20:
        raise argparse.ArgumentTypeError(f"--repeat {text!r}: at most 20 (each round is a few seconds per network)")
    return n


def _gib(text: str) -> float:
    """--memory-cap: GiB of resident memory, more than 0."""
    import argparse

    try:
        v = finite_float(text)
    except argparse.ArgumentTypeError:
        v = 0.0
    if v <= 0:
        raise argparse.ArgumentTypeError(f"--memory-cap {text!r}: GiB of resident memory, a number above 0 (e.g. 14)")
    return v


def _tors_checked(text: str) -> int:
    """--large-setup, --large-tors: ToRs of the (1024, 32) network, 1 to 1024."""
    import argparse

    n = positive_int(text)
    if n > 1024:
        raise argparse.ArgumentTypeError(f"at most 1024 (the ToRs of the network), got {n}")
    return n


def _seconds(flag: str, lo: float, hi: float, what: str = "seconds"):
    """An argparse type: a number of seconds in ``lo..hi`` for ``flag`` (the message names it)."""
    def parse(text: str) -> float:
        import argparse
        import math

        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} {text!r}: a number of seconds") from None
        if not math.isfinite(v) or not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"{flag} {text}: {what} in {lo:g}..{hi:g}")
        return v
    return parse


def _hold_pps(text: str) -> int:
    """--hold-pps: packets/s of each hold queue, 1 to 10,000,000 (the emulator's own bound)."""
    import argparse

    n = positive_int(text)
    if n > 10_000_000:
        raise argparse.ArgumentTypeError(f"--hold-pps {n}: packets/s in 1..10000000")
    return n


def _niceness(text: str) -> int:
    """--switch-niceness: a nice increment, -20 to 19 (the emulator's [switches] niceness)."""
    import argparse

    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--switch-niceness {text!r}: an integer in -20..19") from None
    if not -20 <= n <= 19:
        raise argparse.ArgumentTypeError(f"--switch-niceness {n}: an integer in -20..19")
    return n


_duration = _seconds("--duration", 10, 86400)
_ping_interval = _seconds("--ping-interval", 0.05, 60, "seconds between two pings of one host pair,")


def register(sub) -> None:
    r = sub.add_parser("bench", help="benchmarks: fast engine vs Alg. 1 reference, table build times, UCMP vs paper, "
                                     "P4Runtime writes")
    r.add_argument("--quick", action="store_true", help="small sizes only")
    r.add_argument("--skip-large", action="store_true", help="skip the 1024x32 runs")
    r.add_argument("--suite", choices=["uro", "ucmp", "agent", "artifacts", "daemon", "tofino2", "entries",
                                       "emulate", "ucmp-emulate", "ucmp-failure", "clock", "liveness", "fabric",
                                       "mutation", "hold", "pass-cost",
                                       "all"],
                   default="all",
                   help="URO engine vs reference, UCMP and baselines vs the paper, P4Runtime writes to "
                        "simple_switch_grpc (batched vs one per request, full push of a 108x6 ToR), route artifacts "
                        "(compact vs JSON, (1024, 32) per-hop and UCMP written, one ToR read back), the daemon "
                        "(hitless swaps, failure reaction, timer jitter on simple_switch_grpc), or all (default); "
                        "not part of all: entries (one (108, 6) ToR's route entries built per entry vs in bulk, "
                        "and the other generation derived), ucmp-failure (a failure's new generation of UCMP source "
                        "routes at (108, 6) and (192, 8): the routes and every ToR's entries, the whole path against "
                        "the incremental one; minutes), tofino2 (builds with bf-p4c: compile times, resources, K = 4 vs 10; minutes "
                        "per build), emulate (the emulated fabric driven by the daemon; root, bmv2, p4c) and ucmp-emulate "
                        "(UCMP source routes with host flow aging vs URO per-hop routes under a mix of short flows and "
                        "one long flow on the emulated fabric; root, bmv2, p4c, nft), clock (the slice clock on the "
                        "emulated fabric: each ToR's error against the OCS in sync and timer mode, convergence, "
                        "misalignment losses, the daemon stopped; root, bmv2, p4c; --duration, --load), liveness (failures "
                        "found by the switches themselves on the emulated fabric: a cut cable, a dead OCS port in some "
                        "slices, a wrong id, a dead ToR, with the daemon running and stopped; false alarms over "
                        "--duration s quiet and loaded; root, bmv2, p4c), fabric "
                        "(the daemon of a whole (108, 6) and (1024, 32) network on simulated switches: from empty, a cut "
                        "cable, a dead ToR; p4c) and mutation (mutmut on the modules of pyproject.toml "
                        "[tool.uro.mutation.modules], each against its fast tests, at nice 19; --quick: agent.diff and "
                        "agent.known; docs/mutation.md), hold (what packets held for a later slice cost one bmv2 ToR) and "
                        "pass-cost (bmv2's CPU per held packet's pass on one ToR, timer vs sync mode; root, bmv2, p4c)")
    r.add_argument("--full-large", action="store_true", help="UCMP 1024x32 on all destinations, not a chunk; "
                                                          "URO kernel CPU per destination at 2048x64 and 4096x64 too; "
                                                          "fabric: the daemon on 1024 simulated ToRs, 1 and 2 workers")
    r.add_argument("--large-only", action="store_true", help="fabric: only the (1024, 32) runs of --full-large")
    r.add_argument("--large-workers", type=_workers, default=(2, 1), metavar="N,N",
                   help="fabric: the worker counts of the (1024, 32) runs, in order (default 2,1; 0: every switch "
                        "in the daemon's process)")
    r.add_argument("--large-stop-after", type=positive_int, default=None, metavar="N",
                   help="fabric: stop each (1024, 32) daemon once N ToRs of generation 0 are written and read back "
                        "(its set-up and the first writes: the memory phase by phase, not the whole start)")
    r.add_argument("--large-setup", type=_tors_checked, default=None, metavar="N",
                   help="fabric: instead of the daemon runs, the (1024, 32) daemon's set-up alone in one process "
                        "(config, pipeline, routes, the start-up checks of the first N ToRs): its memory step by step")
    r.add_argument("--large-tors", type=_tors_checked, default=None, metavar="N",
                   help="fabric: instead of the daemon runs, the first N ToRs of the (1024, 32) network programmed from "
                        "empty as the daemon's first install does, with the protobuf-message encoder and the wire "
                        "encoder side by side: objects written per CPU second")
    r.add_argument("--networks", type=_networks, default=None, metavar="NAME,NAME",
                   help="fabric: only these of the (108, 6) runs: uro (URO per-hop, 0, 1 and 2 workers), ucmp (UCMP "
                        "source-routed, 0 and 2 workers), whole (URO per-hop, incremental = false); default all "
                        "three, --quick: uro with 0 and 2 workers")
    r.add_argument("--repeat", type=_repeat, default=None, metavar="N",
                   help="fabric: each (108, 6) network's failures (a cut cable and a dead ToR, each failed and "
                        "recovered) N times in a row, 1..20 (default 1): the median and range of each beside the "
                        "first (whose routes are computed; a repeat's come from the daemon's route cache)")
    r.add_argument("--memory-cap", type=_gib, default=None, metavar="GIB",
                   help="fabric: stop a daemon whose resident memory, or the simulated fabric's, passes GIB "
                        "(default 8: the machine is shared; a whole (1024, 32) start needs more)")
    r.add_argument("--profile", action="store_true",
                   help="fabric, with --large-tors: cProfile's top entries of each run (every thread's CPU time)")
    r.add_argument("--duration", type=_duration, default=600.0, metavar="S",
                   help="clock: seconds of error measurement in sync mode (default 600; the timer mode gets half, "
                        "at most 300); liveness: seconds of each false-alarm run (default 600; --quick: 60)")
    r.add_argument("--ping-interval", type=_ping_interval, default=0.5, metavar="S",
                   help="liveness: seconds between two pings of one host pair, every pair (default 0.5, the clock "
                        "suite's rate)")
    r.add_argument("--hold-pps", type=_hold_pps, default=None, metavar="N",
                   help="clock: each ToR uplink's hold queues paced at N packets/s (default: the emulator's, "
                        "[switches] hold_pps)")
    r.add_argument("--switch-niceness", type=_niceness, default=None, metavar="N",
                   help="clock, liveness: the emulated fabric's switches started N nice levels from the bench's "
                        "(-20..19; default: the emulator's, [switches] niceness, -10: a switch stands in for "
                        "hardware and goes before the machine's other work; 0: it shares the cores as an equal)")
    r.add_argument("--load", nargs="?", type=positive_int, const=0, default=None, metavar="N",
                   help="clock: route computations in a loop beside the fabric, one per core or N of them (the "
                        "loaded figures; more computations than cores for a load average above twice the cores)")
    r.add_argument("--module", default=None, metavar="NAMES",
                   help="--suite mutation: only these modules of [tool.uro.mutation.modules] (comma-separated, "
                        "e.g. agent.diff,generations)")
    r.add_argument("--functions", default=None, metavar="NAMES",
                   help="--suite mutation, one --module: only the mutants of these functions (comma-separated, "
                        "Class.method for a method, * and ? as in a shell), a sample of a long module")
    r.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="--suite mutation: mutants tested at a time (default 1: the machine is shared)")
    r.set_defaults(func=cmd_bench)
