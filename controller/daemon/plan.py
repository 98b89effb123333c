"""What the network should run: the schedule, the routes on it (after failures), and the
checks that need them -- done in-process, before any switch is touched.

Data flows one way (ARCHITECTURE): config -> schedule -> routing (the registry of
:mod:`controller.routing.base`, on the degraded schedule of
:mod:`controller.schedule.degrade` when something failed) -> :class:`Routes`, which the
switch roles (:mod:`controller.daemon.roles`) turn into entries one switch at a time, so
no network-wide table dump ever exists (issue 11 "routes at scale").
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

from controller.daemon.config import ConfigError, NetConfig, ProgramConfig
from controller.errors import UroError
from controller.routing import base
from controller.schedule import GENERATORS, Schedule, Timing, load as load_schedule_file
from controller.schedule.degrade import Failed, without

#: in-slice hop budget "none": 255 never binds (8-bit hop counters)
NO_HOP_BUDGET = 255


@dataclass(frozen=True)
class Routes:
    """One version of the network's routes.

    ``schedule`` is the full schedule (the OCS circuits); ``routing_schedule`` the one
    routes were computed on (circuits of ``failed`` removed). ``version`` increases with
    every recomputation; ``schedule_version`` only when the schedule itself changes (the
    OCS emulators' circuits depend on nothing else)."""

    version: int
    schedule_version: int
    schedule: Schedule
    failed: Failed
    routing_schedule: Schedule
    per_hop: base.RouteSet | None
    source: base.RouteSet | None
    source_routed: tuple[int, ...]
    seconds: float = 0.0
    notes: tuple[str, ...] = field(default=())


def build_schedule(cfg: NetConfig) -> Schedule:
    sc = cfg.schedule
    where = f"{cfg.path}: [schedule]"
    try:
        if sc.file is not None:
            sched = load_schedule_file(sc.file)
            if sc.timing:
                sched = Schedule(sched.peer, dataclasses.replace(sched.timing, **sc.timing), name=sched.name)
        else:
            timing = Timing(**sc.timing)
            problems = timing.problems()
            if problems:
                raise UroError("; ".join(problems))
            kw = {"timing": timing}
            if sc.generate != "round-robin":
                kw["seed"] = sc.seed
            sched = GENERATORS[sc.generate](sc.tors, sc.uplinks, **kw)
    except UroError as e:
        raise ConfigError(f"{where}: {e}") from None
    return sched


def _params(cfg: NetConfig, section: str, algo_cfg, sched: Schedule, kind: str):
    where = f"{cfg.path}: [routing.{section}]"
    try:
        alg = base.get(algo_cfg.algo)
    except UroError as e:
        raise ConfigError(f"{where}: algo: {e}") from None
    if alg.kind != kind:
        raise ConfigError(f"{where}: algo: {algo_cfg.algo!r} computes {alg.kind} routes; "
                          f"[routing.{section}] needs a {kind} algorithm "
                          f"({', '.join(n for n, a in base.algorithms().items() if a.kind == kind)})")
    fields = {f.name for f in dataclasses.fields(alg.params_type) if f.init}
    opts = dict(algo_cfg.params)
    if "hop_budget" in opts:                   # the CLI's --hop-budget: auto | none | N
        hb = opts.pop("hop_budget")
        if hb == "auto":
            opts["hops_per_slice"] = sched.timing.hops_per_slice
        elif hb == "none":
            opts["hops_per_slice"] = NO_HOP_BUDGET
        elif isinstance(hb, int) and not isinstance(hb, bool) and 1 <= hb <= NO_HOP_BUDGET:
            opts["hops_per_slice"] = hb
        else:
            raise ConfigError(f"{where}: hop_budget: \"auto\", \"none\" or 1..{NO_HOP_BUDGET}, got {hb!r}")
    elif "hops_per_slice" in fields:
        opts.setdefault("hops_per_slice", sched.timing.hops_per_slice)
    if "k" in fields and "k" not in opts and tor_alternatives(cfg):
        opts["k"] = tor_alternatives(cfg)      # K defaults to what the ToR program holds
    for k in opts:
        if k not in fields:
            known = sorted(fields - {"hops_per_slice"}) + (["hop_budget"] if "hops_per_slice" in fields else [])
            raise ConfigError(f"{where}: {k}: not a parameter of {algo_cfg.algo} (known: {', '.join(known)})")
    try:
        return alg, alg.params(opts)
    except (UroError, TypeError) as e:
        raise ConfigError(f"{where}: {e}") from None


def tor_alternatives(cfg: NetConfig) -> int | None:
    """K of the ToR programs in use (the smallest, if several)."""
    ks = [cfg.programs[s.program].profile.get("alternatives") for s in cfg.switches if s.role == "tor"]
    ks = [k for k in ks if isinstance(k, int)]
    return min(ks) if ks else None


def source_routed(cfg: NetConfig, sched: Schedule) -> tuple[int, ...]:
    sr = cfg.routing.source_routed
    if sr == "all":
        return tuple(range(sched.n_tors))
    for t in sr:
        if not 0 <= t < sched.n_tors:
            raise ConfigError(f"{cfg.path}: [routing]: source_routed: ToR {t} is not in the schedule "
                              f"(0..{sched.n_tors - 1})")
    return tuple(sr)


def check_params(cfg: NetConfig, sched: Schedule) -> None:
    """Routing parameters are valid for ``sched`` (no routes computed)."""
    if cfg.routing.per_hop is not None:
        _params(cfg, "per_hop", cfg.routing.per_hop, sched, base.PER_HOP)
    if cfg.routing.source is not None:
        _params(cfg, "source", cfg.routing.source, sched, base.SOURCE)
    source_routed(cfg, sched)


def compute_routes(cfg: NetConfig, sched: Schedule, failed: Failed = Failed(), version: int = 1,
                   schedule_version: int = 1) -> Routes:
    """Routes of the config's algorithms on ``sched`` without the ``failed`` elements."""
    t0 = time.perf_counter()
    rsched = without(sched, failed)
    sr = source_routed(cfg, sched)
    per_hop = source = None
    if cfg.routing.per_hop is not None:
        alg, params = _params(cfg, "per_hop", cfg.routing.per_hop, rsched, base.PER_HOP)
        per_hop = alg.run(rsched, params)
    if cfg.routing.source is not None and sr:
        alg, params = _params(cfg, "source", cfg.routing.source, rsched, base.SOURCE)
        source = alg.run(rsched, params)
    return Routes(version, schedule_version, sched, failed, rsched, per_hop, source, sr,
                  seconds=time.perf_counter() - t0)


def check_program(cfg: NetConfig, prog: ProgramConfig, sched: Schedule) -> None:
    """The program was built for this schedule and these routes: N, d, S, K, widths."""
    p = prog.profile
    where = f"{cfg.path}: [program.{prog.name}] ({prog.contract_path.name}, profile {p.get('name')!r})"
    for key, have in (("tors", sched.n_tors), ("uplinks", sched.n_uplinks), ("slices", sched.n_slices)):
        if p.get(key) != have:
            raise ConfigError(f"{where}: {key} = {p.get(key)}, the schedule has {have} "
                              f"(rebuild the program for this schedule: uro p4 build --profile ...)")
    w = p.get("widths", {})
    for key, n in (("tor", sched.n_tors), ("uplink", sched.n_uplinks), ("slice", sched.n_slices)):
        if w.get(key) is not None and n > (1 << w[key]):
            raise ConfigError(f"{where}: widths.{key} = {w[key]} bits cannot hold {n} {key}s")
    if prog.role == "tor" and cfg.routing.per_hop is not None:
        k = cfg.routing.per_hop.params.get("k") if cfg.routing.per_hop.algo == "uro" else None
        if k is not None and isinstance(k, int) and k > p.get("alternatives", 0):
            raise ConfigError(f"{where}: alternatives (K) = {p.get('alternatives')}, but [routing.per_hop] "
                              f"k = {k}: the program holds fewer one-shot alternatives than the routes have")
