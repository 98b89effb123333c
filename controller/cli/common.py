"""Options and helpers every `uro` command group shares: schedules, routing options,
output paths, progress bars. Command modules import this; nothing here imports them.

A command reads its arguments once: the schedule's into :class:`ScheduleArgs`, the
routing options into :class:`RouteArgs` (and where the work runs into
:class:`controller.cli.cluster.Where`); from there on only these and the algorithms' typed
parameters travel, and library code never sees an argparse namespace.

Routing options are named after the fields of the algorithms' parameter dataclasses
(``dest`` = field name), so one set of options serves every algorithm of the registry
(:mod:`controller.routing.base`). They default to ``argparse.SUPPRESS``: an option the
user did not give is absent and the dataclass default applies, and an option given
to an algorithm that does not take it is an error instead of being ignored.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import math
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from controller.errors import UroError
from controller.routing import base
from controller.schedule import GENERATORS, Schedule, Timing, load

# library modules are imported inside the commands that use them: `uro` loads only what the command it runs needs

#: in-slice hop budget ``--hop-budget none``: 255 never binds (8-bit hop counters)
NO_HOP_BUDGET = 255
#: options that are not routing parameters even where a parameter has the same name
_NOT_ALGORITHM_OPTIONS = {"seed"}
#: how a routing option is spelled on the command line (for messages)
FLAGS = {
    "k": "-K/--alternatives", "max_hops": "--max-hops", "hops_per_slice": "--hop-budget", "paths": "--paths",
    "h_max": "--h-max", "max_parallel": "--max-parallel", "backups": "--backups", "relax_slices": "--relax",
    "engine": "--ucmp-engine", "sample": "--sample", "stagger": "--stagger/--no-stagger",
    "ties": "--ties", "levels": "--levels", "tie_search": "--tie-search",
}


class DeprecatedAlias(argparse.Action):
    """An old flag kept for one release: works like ``new``, with a warning on stderr."""

    def __init__(self, option_strings, dest, new: str, **kw):
        self.new = new
        super().__init__(option_strings, dest, **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"uro: warning: {option_string} is deprecated, use {self.new}", file=sys.stderr)
        setattr(namespace, self.dest, values)


# ---- numbers -------------------------------------------------------------------------------
def positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return v


def non_negative_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return v


def finite_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return v


def tor_count(text: str) -> int:
    """``--tors``: a number of ToRs everywhere (the ToR failure rate is ``--tor-rate``)."""
    try:
        return positive_int(text)
    except argparse.ArgumentTypeError:
        hint = " (a failure rate is --tor-rate)" if _is_fraction(text) else ""
        raise argparse.ArgumentTypeError(f"--tors is a number of ToRs, got {text!r}{hint}") from None


def _is_fraction(text: str) -> bool:
    try:
        return 0 < float(text) < 1
    except ValueError:
        return False


def parse_list(text: str, conv, what: str) -> list:
    """A comma-separated list; empty items and duplicates are errors."""
    items = [x.strip() for x in str(text).split(",")]
    if any(x == "" for x in items):
        raise UroError(f"{what}: empty item in {text!r}")
    try:
        out = [conv(x) for x in items]
    except (ValueError, argparse.ArgumentTypeError):
        raise UroError(f"{what}: expected a comma-separated list, got {text!r}") from None
    dup = sorted({x for x in out if out.count(x) > 1}, key=str)
    if dup:
        raise UroError(f"{what}: {dup[0]!r} is listed twice")
    return out


# ---- schedules -----------------------------------------------------------------------------
def add_schedule_args(p: argparse.ArgumentParser, default_generate: str | None = None) -> None:
    g = p.add_argument_group("schedule (a file, or a generator)")
    g.add_argument("--schedule", metavar="FILE", help="uro JSON or htsim dynexp schedule file")
    g.add_argument("--generate", choices=sorted(GENERATORS), default=default_generate,
                   help="generate a schedule instead of loading one")
    g.add_argument("--tors", type=tor_count, default=8, help="ToRs for --generate (default 8)")
    g.add_argument("--uplinks", type=positive_int, default=2, help="uplinks per ToR for --generate (default 2)")
    g.add_argument("--seed", type=non_negative_int, default=0,
                   help="seed for the opera/random generators and for --sample (default 0)")
    g.add_argument("--slice-us", type=finite_float, default=None,
                   help="slice duration in us (generated schedules; overrides a file's)")
    g.add_argument("--guard-us", type=finite_float, default=None, help="reconfiguration guard in us (overrides)")
    g.add_argument("--propagation-us", type=finite_float, default=None, help="per-hop propagation delay in us (overrides)")
    g.add_argument("--link-gbps", type=finite_float, default=None, help="link rate in Gbps (overrides)")


_TIMING_FLAGS = {"slice_us": "--slice-us", "guard_us": "--guard-us", "propagation_us": "--propagation-us",
                 "link_gbps": "--link-gbps"}


@dataclass(frozen=True)
class ScheduleArgs:
    """The schedule a command works on, as its command line says it, read once
    (:meth:`from_args`): a file (``--schedule``) or a generator (``--generate`` with
    ``--tors``, ``--uplinks``, ``--seed``), and the timing flags given (they override a
    file's timing)."""
    path: str | None = None
    generate: str | None = None
    tors: int = 8
    uplinks: int = 2
    seed: int = 0
    timing: tuple[tuple[str, float], ...] = ()

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> ScheduleArgs:
        return cls(path=getattr(args, "schedule", None), generate=getattr(args, "generate", None),
                   tors=getattr(args, "tors", 8), uplinks=getattr(args, "uplinks", 2), seed=getattr(args, "seed", 0),
                   timing=tuple((n, getattr(args, n)) for n in _TIMING_FLAGS if getattr(args, n, None) is not None))

    @property
    def given(self) -> bool:
        """A schedule was named (a file or a generator)."""
        return bool(self.path or self.generate)

    def _timing(self, base_timing: Timing) -> Timing:
        kw = dict(self.timing)
        t = dataclasses.replace(base_timing, **kw)
        problems = t.problems()
        if problems:
            msg = "; ".join(problems)
            for name, flag in _TIMING_FLAGS.items():  # name the flag, not the internal field
                msg = msg.replace(f"timing.{name}", flag if name in kw else f"timing.{name}")
            raise UroError(msg)
        return t

    def load(self, plan: tuple[str, ...] | list[str] = (), k: int = 4) -> Schedule:
        """The schedule: the file (timing flags override its timing) or generated.

        ``plan``: the jobs the command will run on it (algorithm names or keys of
        :data:`controller.memory.BYTES_PER_CELL`, with ``k`` alternatives or paths); their
        memory is estimated before the schedule is generated (its size is known from the
        flags) or right after it is loaded, so a job that cannot fit is refused in a second,
        with the estimate."""
        if self.path and self.generate:
            raise UroError("give either --schedule FILE or --generate KIND, not both")
        if self.path:
            sched = load(self.path)
            placeholder = "slice_us" not in dict(self.timing) and is_htsim_placeholder(self.path, sched)
            t = self._timing(sched.timing)
            if t != sched.timing:
                sched = Schedule(sched.peer, t, name=sched.name)
            check_plan(plan, sched.n_tors, sched.n_uplinks, sched.n_slices, k)
            if placeholder:
                print(f"uro: warning: {self.path} is an htsim topology file with {sched.timing.slice_us / 1e6:g} s "
                      "slices, a placeholder (the UCMP and Opera artifacts' files carry one; their routes were "
                      "computed for 50 us slices): give --slice-us with your network's slice length, e.g. --slice-us "
                      "50; latencies in us and the in-slice hop budget depend on it", file=sys.stderr)
                return sched
        elif not self.generate:
            raise UroError("no schedule: give --schedule FILE or --generate " + "|".join(sorted(GENERATORS)))
        else:
            gen = GENERATORS[self.generate]
            kw = {"timing": self._timing(Timing())}
            if self.generate != "round-robin":
                kw["seed"] = self.seed
            n_slices = -(-(self.tors - 1) // self.uplinks)
            estimate_memory(self.tors, self.uplinks, n_slices, "generate",
                            label=f"generating a {self.generate} schedule")
            check_plan(plan, self.tors, self.uplinks, n_slices, k)
            sched = gen(self.tors, self.uplinks, **kw)
        warn_implausible_timing(sched.timing)
        return sched


def check_plan(plan, n_tors: int, n_uplinks: int, n_slices: int, k: int = 4) -> None:
    """Refuse the jobs of ``plan`` on a schedule of this size if they cannot fit in memory."""
    for what in plan:
        label = {"uro_stats": "uro routes and their statistics", "ucmp_stream": "ucmp routes (streamed)"}.get(
            what, f"{what} routes")
        try:
            estimate_memory(n_tors, n_uplinks, n_slices, what, k=k, label=label)
        except UroError as e:
            if what == "ucmp":  # the streamed writer needs a fraction of it
                raise UroError(f"{e}; `uro routes --algo ucmp -o NAME.uro` computes and writes UCMP routes "
                               "ToR by ToR in far less") from None
            raise


def is_htsim_placeholder(path: str, sched: Schedule) -> bool:
    """An htsim dynexp file (not uro JSON) whose slices are a second or longer: a
    placeholder length, not a network's (optical slices are us to ms)."""
    if sched.timing.slice_us < 1e6:
        return False
    try:
        with open(path, "rb") as fh:
            head = fh.read(64).decode("utf-8-sig", "replace").lstrip()[:1]
    except OSError:
        return False
    return head not in ("{", "[", '"', "n", "t", "f")


def warn_implausible_timing(t: Timing) -> None:
    """Slices of seconds, or hours, are legal but probably a unit mistake."""
    if t.slice_us > 1e6:
        print(f"uro: warning: slices of {t.slice_us:g} us ({t.slice_us / 1e6:g} s) are unusually long "
              "for an optical DCN (us to ms); check the units (--slice-us overrides a file's)", file=sys.stderr)


def estimate_memory(n_tors: int, n_uplinks: int, n_slices: int, what: str = "generate", k: int = 4,
                    label: str | None = None, limit_bytes: int | None = None) -> int:
    """Refuse a job whose memory estimate (:mod:`controller.memory`, measured per algorithm)
    exceeds what is available, before allocating anything, with the estimate in the message."""
    from controller import memory

    return memory.check(what, n_tors, n_uplinks, n_slices, k=k, label=label, limit_bytes=limit_bytes)


# ---- routing -------------------------------------------------------------------------------
def add_route_args(p: argparse.ArgumentParser, algo_flag: bool = True) -> None:
    g = p.add_argument_group("routing (options apply to the algorithms that take them)")
    if algo_flag:
        g.add_argument("--algo", default=None, help="routing algorithm: " + ", ".join(base.algorithms()) + " (default uro)")
    S = argparse.SUPPRESS
    g.add_argument("-K", "--alternatives", dest="k", type=positive_int, default=S,
                   help="uro: one-shot alternatives per entry, 1..10 (default 4)")
    g.add_argument("--max-hops", type=positive_int, default=S, help="uro: path hop bound M (default: none)")
    g.add_argument("--hop-budget", dest="hops_per_slice", default=S, metavar="auto|none|N",
                   help="hops per slice: 'auto' (from timing, UCMP App. B; default), 'none', or a number")
    g.add_argument("--paths", type=positive_int, default=S, help="ksp, opera: k paths per group (default 1)")
    g.add_argument("--stagger", dest="stagger", action="store_true", default=S,
                   help="opera: leave out the OCS that reconfigures in each slice (default)")
    g.add_argument("--no-stagger", dest="stagger", action="store_false", default=S,
                   help="opera: use every circuit of a slice")
    g.add_argument("--sample", type=positive_int, default=S,
                   help="ksp, opera: route only this many random (slice, src, dst) groups (they run in Python)")
    g.add_argument("--h-max", type=positive_int, default=S, help="ucmp: largest hop count (default: exact, App. B bound)")
    g.add_argument("--max-parallel", type=positive_int, default=S,
                   help="ucmp: tied paths (--ties all) or last-hop ToRs (--ties last-hop) kept per hop count (default 8)")
    g.add_argument("--ties", default=S, metavar="last-hop|all",
                   help="ucmp: tied minimum-latency paths of one hop count: 'last-hop' keeps one per last-hop ToR, the "
                        "earliest-leaving (UCMP App. A Alg. 1 and the paper's artifact; default), 'all' keeps every tie")
    g.add_argument("--levels", default=S, metavar="envelope|all",
                   help="ucmp: 'envelope' drops hop counts no flow size selects (off the lower envelope of uniform "
                        "cost, UCMP Eq. 2; collinear ones are kept), 'all' keeps them (default envelope)")
    g.add_argument("--tie-search", type=positive_int, default=S,
                   help="ucmp --ties last-hop: tied walks per hop count searched for last-hop ToRs, earliest-leaving first "
                        "(default 64; a hop count with more is reported capped)")
    g.add_argument("--backups", type=non_negative_int, default=S, help="ucmp: 2-hop backups for direct-only groups (default 2)")
    g.add_argument("--relax", dest="relax_slices", type=non_negative_int, default=S, metavar="SLICES",
                   help="ucmp: extra 2-hop paths up to this many slices slower")
    g.add_argument("--ucmp-engine", dest="engine", default=S, metavar="auto|numba|numpy",
                   help="ucmp: group engine, compiled numba kernels on all cores or the NumPy reference (default auto)")
    g.add_argument("--alpha", type=finite_float, default=0.5,
                   help="ucmp: weight factor alpha for the host bucket thresholds shown (default 0.5)")


def hop_budget(value, sched: Schedule) -> int:
    """``--hop-budget auto|none|N`` as the in-slice hop budget of ``sched``."""
    text = str(value).strip().lower()
    if text == "auto":
        return sched.timing.hops_per_slice
    if text == "none":
        return NO_HOP_BUDGET
    try:
        v = int(text)
    except ValueError:
        v = 0
    if not 1 <= v <= NO_HOP_BUDGET:
        raise UroError(f"--hop-budget must be auto, none or an integer in 1..{NO_HOP_BUDGET}, got {value!r}")
    return v


@dataclass(frozen=True)
class RouteArgs:
    """The routing options as the command line gave them, read once (:meth:`from_args`):
    the algorithm (``--algo``), the options the user set (``{parameter field: value}``;
    absent ones keep the algorithms' defaults), the seed and ``--alpha``. The typed
    parameters of an algorithm come from :meth:`params`, its routes from :meth:`routes`."""
    algo: str | None = "uro"
    given: tuple[tuple[str, object], ...] = ()
    seed: int = 0
    alpha: float = 0.5

    @classmethod
    def from_args(cls, args: argparse.Namespace, default_algo: str | None = "uro") -> RouteArgs:
        return cls(algo=getattr(args, "algo", None) or default_algo,
                   given=tuple((k, v) for k, v in vars(args).items() if k in FLAGS),
                   seed=getattr(args, "seed", 0), alpha=getattr(args, "alpha", 0.5))

    @property
    def k(self) -> int:
        """The alternatives (or paths) asked for, for memory estimates (default 4)."""
        g = dict(self.given)
        return g.get("k", g.get("paths", 4))

    def check_used(self, algos: list[str]) -> None:
        """An option none of ``algos`` takes is an error, not silently ignored."""
        taken = set()
        for name in algos:
            taken |= {f.name for f in dataclasses.fields(base.get(name).params_type)}
        for opt, _ in self.given:
            if opt not in taken and opt not in _NOT_ALGORITHM_OPTIONS:
                who = ", ".join(n for n in base.algorithms()
                                if opt in {f.name for f in dataclasses.fields(base.get(n).params_type)})
                raise UroError(f"{FLAGS[opt]} is an option of {who}; {'/'.join(algos)} does not take it")
        if not (self.alpha > 0):
            raise UroError(f"--alpha must be a positive number, got {self.alpha!r}")

    def check_reads(self, path: str) -> None:
        """Routing options compute routes; ``--routes PATH`` reads them: not both."""
        if self.given:
            raise UroError(f"{FLAGS[self.given[0][0]]} computes routes; --routes {path} reads them "
                           "(give one or the other)")

    def params(self, sched: Schedule, algo: str | None = None, **override):
        """The typed parameters of ``algo`` (default ``--algo``) from the options (plus ``override``)."""
        alg = base.get(algo or self.algo)
        opts = {**dict(self.given), "seed": self.seed, **override}
        opts["hops_per_slice"] = hop_budget(opts.get("hops_per_slice", "auto"), sched)
        try:
            return alg.params(opts)
        except UroError as e:
            raise UroError(flagify(str(e))) from None

    def routes(self, sched: Schedule, algo: str | None = None, extra: str | None = None, executor=None,
               **override) -> base.RouteSet:
        """Routes of ``algo`` (default ``--algo``) through the registry; ``executor``
        (``--cluster``/``--workers``): where algorithms that work in chunks run them."""
        algo = algo or self.algo
        alg = base.get(algo)
        params = self.params(sched, algo, **override)
        check_route_memory(sched, algo, params, extra)
        total = sched.n_slices * 2 if alg.kind == base.PER_HOP else sched.n_tors
        if executor is not None and "executor" in inspect.signature(alg.compute).parameters:
            routes = alg.compute(sched, params, progress=progress(total, algo), executor=executor)
        else:
            routes = alg.run(sched, params, progress=progress(total, algo))
        warn_capped(getattr(routes, "notes", None))
        return routes


def flagify(message: str) -> str:
    """Name the command-line flags instead of the parameter fields in a message."""
    for name, flag in FLAGS.items():
        if name not in ("k", "engine", "stagger"):
            message = re.sub(rf"(?<![\w-]){name}(?!\w)", flag, message)
    return message


def warn_capped(notes: dict | None) -> None:
    """Say on stderr how many group levels a tie cap cut (UCMP Property 1 may not hold
    there: a tied path, or a last-hop ToR, was left out)."""
    if not notes or not notes.get("levels_capped"):
        return
    last_hop = notes.get("ties") == "last-hop"
    print(f"uro: warning: the tie cap cut {notes['levels_capped']} of {notes['levels']} group levels "
          f"({'a last-hop ToR' if last_hop else 'a tied path'} may be missing there, UCMP Property 1); "
          f"raise --max-parallel{' or --tie-search' if last_hop else ''} to keep them", file=sys.stderr)


def check_route_memory(sched: Schedule, algo: str, params=None, extra: str | None = None) -> None:
    """Refuse routing (plus ``extra``, e.g. ``"uro_stats"``) that cannot fit in memory."""
    k = getattr(params, "k", getattr(params, "paths", 4))
    for what in (algo,) + ((extra,) if extra else ()):
        label = "uro routes and their statistics" if what == "uro_stats" else f"{what} routes"
        estimate_memory(sched.n_tors, sched.n_uplinks, sched.n_slices, what, k=k, label=label)


def progress(total: int, desc: str, unit: str = "step"):
    """A tqdm bar's update function on stderr for long work (None on small jobs and non-terminals)."""
    from tqdm import tqdm

    if total < 64 or not sys.stderr.isatty():
        return None
    bar = tqdm(total=total, desc=desc, unit=unit, leave=False)
    return bar.update


def add_routes_input(p: argparse.ArgumentParser, many: bool = False) -> None:
    """``--routes FILE``: read a compact route artifact instead of computing routes."""
    if many:
        p.add_argument("--routes", metavar="DIR", action="append", default=[],
                       help="compact route artifact to include (repeatable; no recomputation)")
    else:
        p.add_argument("--routes", metavar="DIR",
                       help="read routes from a compact artifact (uro routes -o NAME.uro) instead of computing them")


def open_routes(opts: RouteArgs, path: str, sched: Schedule | None = None):
    """A route artifact from ``--routes`` (checked against ``sched`` when one was given)."""
    from controller.tables import artifacts

    opts.check_reads(path)
    return artifacts.open(path, sched)


# ---- outputs -------------------------------------------------------------------------------
def check_output(path: str | os.PathLike, flag: str = "-o", allow_dir: bool = False) -> Path:
    """Fail before any work if ``path`` cannot be written: a directory (unless
    ``allow_dir``: a compact artifact is one), a parent that is a file, a read-only or
    missing-permission location. The message names the user's path."""
    p = Path(path)
    if str(path) == "" or p.name in ("", ".", ".."):
        raise UroError(f"{flag} {str(path)!r}: not a file name")
    if p.is_dir() and not allow_dir:
        raise UroError(f"{flag} {p}: is a directory")
    parent = p.parent if str(p.parent) else Path(".")
    probe = parent
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise UroError(f"{flag} {p}: {probe} is not a directory")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise UroError(f"{flag} {p}: cannot write in {probe} (permission denied or read-only)")
    if p.exists() and not p.is_dir() and not os.access(p, os.W_OK):
        raise UroError(f"{flag} {p}: file is not writable")
    if p.is_dir() and not os.access(p, os.W_OK | os.X_OK):
        raise UroError(f"{flag} {p}: cannot replace {p} (permission denied or read-only)")
    return p


def check_output_dir(path: str | os.PathLike, flag: str = "--out") -> Path:
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise UroError(f"{flag} {p}: exists and is not a directory")
    probe = p
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    if not probe.is_dir():
        raise UroError(f"{flag} {p}: {probe} is not a directory")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise UroError(f"{flag} {p}: cannot write in {probe} (permission denied or read-only)")
    return p
