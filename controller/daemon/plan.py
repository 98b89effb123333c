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


def open_artifact(cfg: NetConfig, section: str, algo_cfg, sched: Schedule, kind: str):
    """The section's compact route artifact, checked: the right kind, computed for this
    schedule (content hash). Opening reads the manifest only; tables are read per ToR."""
    from controller.tables import artifacts

    where = f"{cfg.path}: [routing.{section}]: artifact"
    try:
        art = artifacts.open(algo_cfg.artifact, sched)
    except UroError as e:
        raise ConfigError(f"{where}: {e}") from None
    if art.kind != kind:
        raise ConfigError(f"{where}: {algo_cfg.artifact} holds {art.kind} routes ({art.algo}); "
                          f"[routing.{section}] needs {kind} routes")
    return art


def _artifact_params(cfg: NetConfig, section: str, art, sched: Schedule):
    """The algorithm and parameters an artifact was computed with (to recompute it on a
    degraded schedule after a failure)."""
    from controller.daemon.config import AlgoConfig

    params = {k: v for k, v in art.params_dict().items() if v is not None}
    return _params(cfg, section, AlgoConfig(art.algo, params), sched, art.kind)


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
    for section, kind in (("per_hop", base.PER_HOP), ("source", base.SOURCE)):
        ac = getattr(cfg.routing, section)
        if ac is None:
            continue
        if ac.artifact is not None:
            open_artifact(cfg, section, ac, sched, kind)
        else:
            _params(cfg, section, ac, sched, kind)
    source_routed(cfg, sched)


def compute_routes(cfg: NetConfig, sched: Schedule, failed: Failed = Failed(), version: int = 1,
                   schedule_version: int = 1) -> Routes:
    """Routes of the config's algorithms on ``sched`` without the ``failed`` elements."""
    t0 = time.perf_counter()
    rsched = without(sched, failed)
    sr = source_routed(cfg, sched)
    out = {}
    for section, kind in (("per_hop", base.PER_HOP), ("source", base.SOURCE)):
        ac = getattr(cfg.routing, section)
        out[section] = None
        if ac is None or (section == "source" and not sr):
            continue
        if ac.artifact is not None:
            art = open_artifact(cfg, section, ac, sched, kind)
            if failed.empty:      # read per ToR when entries are built: never the whole set
                out[section] = art
                continue
            alg, params = _artifact_params(cfg, section, art, rsched)   # recomputed without the failures
        else:
            alg, params = _params(cfg, section, ac, rsched, kind)
        out[section] = alg.run(rsched, params)
    per_hop, source = out["per_hop"], out["source"]
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
        ac = cfg.routing.per_hop
        if ac.artifact is not None:
            from controller.tables import artifacts

            try:
                art = artifacts.open(ac.artifact)
            except UroError as e:
                raise ConfigError(f"{cfg.path}: [routing.per_hop]: artifact: {e}") from None
            k = art.params_dict().get("k") if art.algo == "uro" else None
        else:
            k = ac.params.get("k") if ac.algo == "uro" else None
        if k is not None and isinstance(k, int) and k > p.get("alternatives", 0):
            raise ConfigError(f"{where}: alternatives (K) = {p.get('alternatives')}, but [routing.per_hop] "
                              f"k = {k}: the program holds fewer one-shot alternatives than the routes have")
