"""What the network should run: the schedule, the routes on it (after failures), and the
checks that need them -- done in-process, before any switch is touched. `uro daemon`
and `uro agent push` both start here (:class:`Prepared`), so they compute the same
routes from the same ``net.toml`` and check it the same way.

Data flows one way (ARCHITECTURE): config -> schedule -> routing (the registry of
:mod:`controller.routing.base`, on the degraded schedule of
:mod:`controller.schedule.degrade` when something failed; or compact route artifacts
read one ToR at a time) -> :class:`~controller.agent.desired.Routes`, which the switch
roles (:mod:`controller.agent.desired`) turn into entries one switch at a time, so no
network-wide table dump ever exists (routes at scale).
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time
from typing import Callable, Iterable

from controller import memory
from controller.agent import known as known_state
from controller.agent.backend import BackendError, MissingClient, NotPrimary, SwitchAddress
from controller.agent.desired import ROLES, Routes, RoutesDelta
from controller.daemon import hosts
from controller.daemon.config import AlgoConfig, ConfigError, NetConfig, ProgramConfig, SwitchConfig
from controller.errors import UroError
from controller.routing import base, ucmp_incremental, uro, uro_incremental
from controller.routing.paths import PathRoutes
from controller.schedule import GENERATORS, Schedule, Timing, load as load_schedule_file
from controller.schedule.degrade import Failed, without
from controller.tables import artifacts
from controller.tables import clock as clock_entries
from controller.tables.entries import EntryError

#: in-slice hop budget "none": 255 never binds (8-bit hop counters)
NO_HOP_BUDGET = 255


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
                   schedule_version: int = 1, previous: Routes | None = None,
                   copy: Callable[[], tuple | None] | None = None) -> Routes:
    """Routes of the config's algorithms on ``sched`` without the ``failed`` elements.

    Source routes are computed towards the source-routed destinations only (an algorithm
    that can, :meth:`~controller.routing.base.Algorithm.run`; UCMP at (108, 6) with 36 of
    108 destinations: a third of the work); an artifact without failures is opened whole
    (read per ToR). ``previous``: the routes the network runs now; where they can be
    repaired into these (:func:`repaired_routes`) that is done instead, and the result
    says which cells changed (``delta``); ``copy``: what gives a copy of ``previous``'s URO
    per-hop arrays made ahead, the repair's to write in (:func:`repaired_routes`)."""
    t0 = time.perf_counter()
    rsched = without(sched, failed)
    sr = source_routed(cfg, sched)
    if previous is not None:
        rep = repaired_routes(cfg, previous, sched, failed, rsched, sr, version, schedule_version, copy)
        if rep is not None:
            return dataclasses.replace(rep, seconds=time.perf_counter() - t0)
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
        # source routes: only the source-routed destinations are ever read (entries, host rules)
        out[section] = alg.run(rsched, params, destinations=sr if section == "source" else None)
    per_hop, source = out["per_hop"], out["source"]
    return Routes(version, schedule_version, sched, failed, rsched, per_hop, source, sr,
                  seconds=time.perf_counter() - t0)


def repaired_routes(cfg: NetConfig, previous: Routes, sched: Schedule, failed: Failed, rsched: Schedule,
                    sr: tuple[int, ...], version: int, schedule_version: int,
                    copy: Callable[[], tuple | None] | None = None) -> Routes | None:
    """The routes of ``failed`` on ``sched`` made from ``previous`` (the routes of another
    failed set on the same schedule), with the changed cells per ToR as their ``delta``:

    - URO per-hop routes repaired label by label
      (:func:`controller.routing.uro_incremental.repair`: identical to a whole
      recomputation), the changed (arrival slice, destination) cells from it;
    - UCMP source routes repaired destination by destination where circuits were only
      removed (:func:`controller.routing.ucmp_incremental.repair`: identical to a whole
      recomputation), otherwise computed whole; either way the (destination, start slice)
      cells whose groups changed (:func:`~controller.routing.ucmp_incremental.changed_cells`).

    None where that does not apply (other algorithms or parameters, an artifact not yet
    recomputed, a schedule the repair does not take): then the caller computes them whole.
    ``copy``: called once the URO repair is sure to run, it gives arrays holding exactly
    ``previous.per_hop``'s (or None), repaired in place of a fresh copy
    (:func:`controller.routing.uro_incremental.repair`): asked only then, because finishing
    a copy still being made is work only a repair needs."""
    if previous.schedule is not sched or previous.schedule_version != schedule_version \
            or previous.source_routed != sr:
        return None
    per_hop, cells, ahead = None, {}, None
    ac = cfg.routing.per_hop
    if ac is not None:
        if not isinstance(previous.per_hop, uro.UroRoutes):
            return None
        alg, params = _section_params(cfg, "per_hop", ac, sched, rsched, base.PER_HOP)
        if alg.name != "uro" or params != previous.per_hop.params:
            return None
        ahead = None if copy is None else copy()
        try:
            rep = uro_incremental.repair(previous.per_hop, rsched, copy=ahead)
        except uro_incremental.NotRepairable:
            return None
        per_hop, cells = rep.routes, rep.by_tor()
    elif previous.per_hop is not None:
        return None
    source, source_cells = None, None
    if sr:
        got = _repaired_source(cfg, previous, sched, rsched, sr)
        if got is None:
            return None
        source, source_cells = got
    elif previous.source is not None:
        return None
    delta = RoutesDelta(dataclasses.replace(previous, delta=None), cells, source_cells)
    notes = ("repaired in the copy made ahead",) if ahead is not None and per_hop is not None \
        and per_hop.arrival is ahead[0] else ()
    return Routes(version, schedule_version, sched, failed, rsched, per_hop, source, sr, delta=delta, notes=notes)


def _section_params(cfg: NetConfig, section: str, ac, sched: Schedule, rsched: Schedule, kind: str):
    """(algorithm, parameters) of ``[routing.<section>]`` on ``rsched`` (an artifact's own)."""
    if ac.artifact is not None:
        return _artifact_params(cfg, section, open_artifact(cfg, section, ac, sched, kind), rsched)
    return _params(cfg, section, ac, rsched, kind)


def _repaired_source(cfg: NetConfig, previous: Routes, sched: Schedule, rsched: Schedule,
                     sr: tuple[int, ...]) -> tuple | None:
    """(UCMP source routes of ``rsched`` towards ``sr``, {source ToR: changed (dst, start
    slice) cells}) from ``previous.source``: repaired where only circuits were removed,
    computed whole otherwise; None where the previous source routes are not UCMP's
    arrays with these parameters."""
    ac = cfg.routing.source
    if ac is None or not isinstance(previous.source, PathRoutes) or previous.source.algo != "ucmp":
        return None
    alg, params = _section_params(cfg, "source", ac, sched, rsched, base.SOURCE)
    if alg.name != "ucmp":
        return None
    try:
        rep = ucmp_incremental.repair(previous.source, rsched, params, sr)
        return rep.routes, rep.by_tor()
    except ucmp_incremental.NotRepairable:
        pass
    new = alg.run(rsched, params, destinations=sr)
    if new.params != previous.source.params or new.g_count.shape != previous.source.g_count.shape:
        return None
    return new, ucmp_incremental.by_tor(ucmp_incremental.changed_cells(previous.source, new, sr))


def delta_between(previous: Routes | None, routes: Routes) -> RoutesDelta | None:
    """What changed cell by cell from ``previous`` to ``routes`` (routes of one schedule and
    the same source-routed destinations: URO per-hop routes compared array for array, UCMP
    source routes group for group); None where they are not of that kind."""
    if previous is None or previous.source_routed != routes.source_routed:
        return None
    a, b = previous.per_hop, routes.per_hop
    if a is None and b is None:
        cells = {}
    elif (isinstance(a, uro.UroRoutes) and isinstance(b, uro.UroRoutes)
            and a.alt_uplink.shape == b.alt_uplink.shape):
        cells = uro_incremental.by_tor(uro_incremental.changed_cells(a, b))
    else:
        return None
    source_cells = None
    if previous.source is not routes.source:
        a, b = previous.source, routes.source
        if not (isinstance(a, PathRoutes) and isinstance(b, PathRoutes) and a.g_count.shape == b.g_count.shape):
            return None
        source_cells = ucmp_incremental.by_tor(ucmp_incremental.changed_cells(a, b, routes.source_routed))
    return RoutesDelta(dataclasses.replace(previous, delta=None), cells, source_cells)


#: the modules that repair routes after a failure (:func:`repaired_routes`), by (routes
#: section, algorithm): URO per-hop and UCMP source routes; :func:`warm` loads their kernels
REPAIRS = {("per_hop", "uro"): uro_incremental, ("source", "ucmp"): ucmp_incremental}


def warm(cfg: NetConfig) -> dict[str, str]:
    """The configured algorithms' :attr:`~controller.routing.base.Algorithm.warm` (compiled
    kernels loaded now: the daemon calls it at start, so that no failure's routes pay the
    load), and the kernels of their repair after a failure: for URO per-hop routes
    :func:`controller.routing.uro_incremental.warm_kernel`, for UCMP source routes
    :func:`controller.routing.ucmp_incremental.warm_kernel`. An artifact's algorithm is
    the artifact's: not known here, not warmed. Returns ``{algorithm: error}`` for those
    that could not be warmed (numba finds no cache location, ...): nothing depends on it,
    their routes are computed as before."""
    failed = {}
    for section in ("per_hop", "source"):
        ac = getattr(cfg.routing, section)
        if ac is None or ac.algo is None:
            continue
        alg = base.get(ac.algo)
        repair = REPAIRS.get((section, alg.name))
        warms = [alg.warm, None if repair is None else repair.warm_kernel]
        try:
            for w in warms:
                if w is not None:
                    w()
        except Exception as e:     # noqa: BLE001 - a speed-up only: reported, never fatal
            failed[ac.algo] = f"{type(e).__name__}: {e}"
    return failed


#: the slabs of the copy made ahead (:meth:`RouteCache.prepare_copy`): one no longer wanted stops within one
COPY_SLAB_BYTES = 16 << 20


class RouteCache:
    """Routes already computed, by what :func:`compute_routes` depends on: the config (by
    identity: a reload brings a new one and empties the cache), the schedule version and
    the failed set. A recovery that returns to a failed set seen before -- usually the
    empty one, the routes at start -- takes those route sets again instead of recomputing
    them; the :class:`Routes` is a new one with the new ``version`` (the switches'
    per-version entry caches and generations see a new version, as after a
    recomputation).

    Holds the routes of at most ``size`` failed sets, and the ones besides the newest (the
    routes the network runs, held anyway) in at most the config's ``[daemon]
    route_cache_mib`` of arrays (:func:`controller.memory.array_bytes`): the least recently
    used one leaves first. A (1024, 32) URO route set at K = 10 is 1.1 GiB, so four of them
    would hold 4.4 GiB; the default 1536 MiB keeps the newest and the one before it (a
    recovery back to the routes at start).

    It also keeps, within the same budget, a copy of the running URO per-hop arrays made
    ahead of a failure (:meth:`prepare_copy`), which the next repair from them writes in
    instead of copying them then."""

    def __init__(self, size: int = 4):
        self.size = size
        self._cfg: NetConfig | None = None
        self._by_key: dict[tuple, Routes] = {}
        # (the UroRoutes copied, its arrays' copy or None while being made, token): see prepare_copy
        self._copy: tuple | None = None
        self._copy_lock = threading.Lock()
        # {(key a, key b): (per-hop cells, source cells)} of route sets repaired one from the
        # other: the cells that differ between them, whichever way round (no route sets held)
        self._cells: dict[tuple, tuple] = {}

    def add(self, cfg: NetConfig, routes: Routes) -> None:
        if cfg is not self._cfg:
            self._cfg, self._by_key, self._cells = cfg, {}, {}
        key = (routes.schedule_version, routes.failed)
        self._by_key.pop(key, None)
        self._by_key[key] = dataclasses.replace(routes, delta=None)    # never a chain of versions
        d = routes.delta
        if d is not None and d.base.source_routed == routes.source_routed and d.base.schedule is routes.schedule:
            base = (d.base.schedule_version, d.base.failed)
            self._cells[(base, key)] = self._cells[(key, base)] = (d.per_hop_cells, d.source_cells)
        budget = cfg.daemon.route_cache_mib << 20
        while len(self._by_key) > self.size or (len(self._by_key) > 1 and self.extra_bytes() > budget):
            del self._by_key[next(iter(self._by_key))]
        self._cells = {k: v for k, v in self._cells.items() if k[0] in self._by_key and k[1] in self._by_key}

    def _known_delta(self, previous: Routes | None, routes: Routes) -> RoutesDelta | None:
        """The delta from ``previous`` to cached ``routes`` where one was repaired from the
        other (a recovery back to the routes a failure was repaired from, or that failure
        again): the repair's cells, since a cell differs between two route sets whichever
        way round they are compared, and a failed set's routes are the same numbers however
        they were made (a repair is a whole recomputation's twin). None where not known.

        Why: comparing two (1024, 32) route sets array for array (:func:`delta_between`)
        takes about 3 s of a recovery."""
        if previous is None or previous.source_routed != routes.source_routed or previous.schedule is not routes.schedule:
            return None
        got = self._cells.get(((previous.schedule_version, previous.failed), (routes.schedule_version, routes.failed)))
        return None if got is None else RoutesDelta(dataclasses.replace(previous, delta=None), *got)

    def extra_bytes(self) -> int:
        """The array bytes the cache holds besides its newest entry's (those stay held by
        the network's routes): what the ``route_cache_mib`` budget bounds."""
        kept = list(self._by_key.values())
        if len(kept) < 2:
            return 0
        return memory.array_bytes(*kept) - memory.array_bytes(kept[-1])

    def failed_sets(self) -> list[Failed]:
        """The failed sets whose routes are kept, oldest first."""
        return [failed for _, failed in self._by_key]

    def routes(self, cfg: NetConfig, sched: Schedule, failed: Failed, version: int,
               schedule_version: int, previous: Routes | None = None) -> Routes:
        """:func:`compute_routes` of these arguments, or the routes computed for the same
        config, schedule version and failed set before (``notes`` says which version).
        ``previous``: the routes the network runs now; the result's ``delta`` says what
        changed from them cell by cell where that is known (:func:`compute_routes`,
        :meth:`_known_delta`, :func:`delta_between`)."""
        t0 = time.perf_counter()
        hit = self._by_key.get((schedule_version, failed)) if cfg is self._cfg else None
        taken: list = []

        def copy() -> tuple | None:        # asked by the repair only (finishing a copy is its work)
            got = self._take_copy(previous)
            taken.append(got)
            return None if got is None else got[0]
        try:
            if hit is None or hit.schedule is not sched:
                out = compute_routes(cfg, sched, failed, version, schedule_version, previous=previous, copy=copy)
                if taken and taken[0] is not None and taken[0][1] and out.notes:
                    out = dataclasses.replace(out, notes=(f"{out.notes[0]} (finished: {taken[0][1]} of its "
                                                          f"{taken[0][2]} slabs copied then)",))
            else:
                out = dataclasses.replace(hit, version=version, seconds=time.perf_counter() - t0,
                                          notes=(f"reused the routes of version {hit.version}",),
                                          delta=self._known_delta(previous, hit) or delta_between(previous, hit))
        finally:     # one copy serves one repair; routes not repaired from ``previous`` leave it of no use
            with self._copy_lock:
                self._copy = None
        self.add(cfg, out)
        return out

    def clear(self) -> None:
        self._cfg, self._by_key, self._cells = None, {}, {}
        with self._copy_lock:
            self._copy = None

    def prepare_copy(self, cfg: NetConfig, routes: Routes,
                     done: Callable[[float, int], None] | None = None) -> threading.Thread | None:
        """Copy the URO per-hop arrays of ``routes`` (the routes the network now runs) on a
        thread of their own, for the next failure's repair to write in
        (:func:`controller.routing.uro_incremental.repair`); returns that thread, or None
        where no copy is made: routes that are not URO per-hop arrays, updates that are not
        incremental, a copy of them already made or being made, or one that would take
        the arrays this cache holds besides the newest set past ``route_cache_mib``.

        Why: the repair's copy writes fresh memory, and in the daemon's process a (1024,
        32) set's 290K page faults took 10.6 s of a cut cable's routes phase (the repair's
        kernels: 0.6 s). Made while the daemon is idle, the copy's faults are paid then;
        a failure that comes while it is being made has it finished (:meth:`_take_copy`).
        The copy holds as much memory as the set before a failure, which the cache keeps
        after it (both within the budget), so the daemon's peak does not grow: at (1024,
        32) the copy is made after the start (only the start's set held), and not after
        a failure (the set before it held for a recovery). ``done(seconds, bytes)`` is
        called once the copy is ready (the daemon logs it)."""
        ph = routes.per_hop
        if not cfg.daemon.incremental or not isinstance(ph, uro.UroRoutes):
            return None
        with self._copy_lock:
            if self._copy is not None and self._copy[0] is ph:
                return None
            if self.extra_bytes() + memory.array_bytes(ph) > cfg.daemon.route_cache_mib << 20:
                self._copy = None
                return None
            made = memory.SlabCopy(ph.arrays, slab_bytes=COPY_SLAB_BYTES)
            self._copy = (ph, made)

        def current() -> bool:
            c = self._copy
            return c is not None and c[1] is made

        def make() -> None:
            t0 = time.perf_counter()
            made.run(wanted=current)
            if made.complete and current() and done is not None:
                done(time.perf_counter() - t0, sum(a.nbytes for a in made.arrays))

        t = threading.Thread(target=make, name="uro-route-copy", daemon=True)
        t.start()
        return t

    def _take_copy(self, previous: Routes | None) -> tuple[tuple, int, int] | None:
        """The copy :meth:`prepare_copy` made of ``previous``'s per-hop arrays, the slabs
        of it copied here and all its slabs; or None (none, or of other routes). One still
        being made is finished here, on two threads, from the slab it had reached (its
        thread stops at the end of the slab it copies). Either way the cache keeps no copy
        after this call: one copy serves one repair."""
        with self._copy_lock:
            got, self._copy = self._copy, None
        if got is None or previous is None or got[0] is not previous.per_hop:
            return None
        left = got[1].untaken()
        return got[1].finish(threads=2), left, got[1].slabs

    def copy_state(self) -> str:
        """``"none"``, ``"making"`` or ``"ready"``: the copy made ahead."""
        with self._copy_lock:
            return "none" if self._copy is None else "ready" if self._copy[1].complete else "making"


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


def check_switches(cfg: NetConfig, sched: Schedule) -> None:
    """Every ToR id names a ToR of the schedule (the loader cannot know N)."""
    for s in cfg.switches:
        if s.tor is not None and s.tor >= sched.n_tors:
            raise ConfigError(f"{cfg.path}: switch {s.name!r}: tor: ToR id {s.tor} is not in the schedule "
                              f"(0..{sched.n_tors - 1})")


#: the messages of the synchronization exchange a program must implement (its contract's
#: ``clock.ops``) to run in sync mode (docs/clock.md "Messages")
EXCHANGE_OPS = ("REQ", "RESP")


def check_liveness(cfg: NetConfig, sched: Schedule) -> None:
    """``[liveness]`` against the clock and the schedule (docs/liveness.md "Configuration"):
    a window shorter than one schedule cycle, or a clock that beacons not every circuit in
    every cycle, is refused with the numbers; enabled, every ToR program must keep it (its
    contract's ``liveness`` section)."""
    lv = cfg.liveness
    problems = lv.problems(cfg.clock.mode, cfg.clock.exchange_every, sched.n_slices)
    if problems:
        raise ConfigError(f"{cfg.path}: " + "; ".join(problems))
    if not lv.enabled:
        return
    for prog in {cfg.programs[s.program].name: cfg.programs[s.program] for s in cfg.switches}.values():
        if prog.role == "tor" and "liveness" not in prog.contract and "liveness_off" in prog.contract:
            raise ConfigError(f"{cfg.path}: [liveness]: enabled, but [program.{prog.name}] "
                              f"({prog.contract_path.name}) has no liveness per circuit: "
                              f"{prog.contract['liveness_off']}; set enabled = false")
        if prog.role == "tor" and "liveness" not in prog.contract:
            raise ConfigError(f"{cfg.path}: [liveness]: enabled, but [program.{prog.name}] "
                              f"({prog.contract_path.name}) has no liveness per circuit (no liveness section in "
                              "its contract): rebuild it with `uro p4 build`, or set enabled = false")


#: ``[clock]`` keys that need a feature of the ToR program's exchange (its contract's
#: ``clock.features``; docs/clock.md "The servo")
CLOCK_FEATURE_KEYS = {"filter_us": "filter", "rate_step_ppm": "rate_step"}


def check_clock_features(cfg: NetConfig, prog, sched: Schedule) -> None:
    """A ``[clock]`` key set for a feature ToR program ``prog`` lacks (NTP's clock filter
    on the t2na ToR) is refused, naming both: the key would silently do nothing. So is a
    rate step the program's ``servo_rate`` table cannot hold (the t2na servo takes its
    step from there: :func:`controller.tables.clock.servo_rate_entries`)."""
    have = prog.contract["clock"].get("features") or []
    for key, feature in CLOCK_FEATURE_KEYS.items():
        if getattr(cfg.clock, key) is not None and feature not in have:
            raise ConfigError(f"{cfg.path}: [clock]: {key}: [program.{prog.name}] ({prog.contract_path.name}) has no "
                              f"{feature!r} in its exchange (its contract's clock.features lists "
                              f"{', '.join(have) or 'none'}): remove {key}, or rebuild the program with "
                              "`uro p4 build`")
    if "servo_rate" in prog.contract.get("tables", {}):
        try:
            clock_entries.servo_rate_entries(prog.contract, cfg.clock.params().tor_config(
                0, sched.n_tors, sched.n_uplinks, sched.n_slices))
        except EntryError as e:
            raise ConfigError(f"{cfg.path}: [program.{prog.name}] ({prog.contract_path.name}): {e}") from None


def check_clock(cfg: NetConfig, sched: Schedule) -> None:
    """``[clock]`` against the schedule (the loader cannot know N and d), and in sync mode
    against the programs: each must keep the slice clock itself (its contract's ``clock``
    section, docs/clock.md), or the daemon would seed and watch nothing, and implement the
    exchange (``clock.ops`` lists REQ and RESP: a program that only keeps a free-running or
    seeded clock, as the t2na one without the exchange, would drift apart unseen)."""
    c = cfg.clock
    for t in c.leads:
        if t >= sched.n_tors:
            raise ConfigError(f"{cfg.path}: [clock]: leads: ToR {t} is not in the schedule (0..{sched.n_tors - 1})")
    if c.ref_uplink >= sched.n_uplinks:
        raise ConfigError(f"{cfg.path}: [clock]: ref_uplink: uplink {c.ref_uplink} is not in the schedule "
                          f"(0..{sched.n_uplinks - 1})")
    if not c.sync:
        return
    for prog in {cfg.programs[s.program].name: cfg.programs[s.program] for s in cfg.switches}.values():
        if "clock" not in prog.contract:
            raise ConfigError(f"{cfg.path}: [clock]: mode: \"sync\", but [program.{prog.name}] "
                              f"({prog.contract_path.name}) keeps no slice clock of its own (no clock section in "
                              "its contract): rebuild it with `uro p4 build`, or set mode = \"timer\"")
        if prog.role == "tor":
            check_clock_features(cfg, prog, sched)
        ops = prog.contract["clock"].get("ops") or {}
        if not all(op in ops for op in EXCHANGE_OPS):
            raise ConfigError(f"{cfg.path}: [clock]: mode: \"sync\", but [program.{prog.name}] "
                              f"({prog.contract_path.name}) has no sync exchange (its contract's clock.ops lists "
                              f"{', '.join(sorted(ops)) or 'none'}; sync needs {' and '.join(EXCHANGE_OPS)}): its "
                              "switches could not synchronize each other; set mode = \"timer\"")


def select(cfg: NetConfig, name: str | None) -> list[SwitchConfig]:
    """The switches of ``cfg`` called ``name`` (all when None); ConfigError naming the ones
    there are otherwise."""
    if name is None:
        return list(cfg.switches)
    for s in cfg.switches:
        if s.name == name:
            return [s]
    raise ConfigError(f"--switch {name!r}: no such switch in {cfg.path} "
                      f"(switches: {', '.join(s.name for s in cfg.switches)})")


def switch_address(s: SwitchConfig, timeout: float) -> SwitchAddress:
    """How a backend reaches switch ``s`` (address, ids, TLS, RPC deadline)."""
    return SwitchAddress(name=s.name, address=s.address, device_id=s.device_id, election_id=s.election_id,
                         insecure=s.tls.insecure, ca_cert=s.tls.ca, client_cert=s.tls.cert, client_key=s.tls.key,
                         timeout_s=timeout)


def connect_error(cfg: NetConfig, s: SwitchConfig, e: BackendError) -> UroError:
    """A switch that refused a session, as a config error naming the switch and the field:
    the election id (another controller is primary) or the address (no answer). A client
    library that is not installed is that, as it is (the switch was not asked)."""
    if isinstance(e, MissingClient):
        return e
    if isinstance(e, NotPrimary):
        return ConfigError(f"{cfg.path}: switch {s.name!r}: election_id: {s.election_id} is refused by "
                           f"the switch: {e}")
    return ConfigError(f"{cfg.path}: switch {s.name!r}: address: {s.address} does not answer: {e}")


#: route objects the checks keep for the first install (``keep_entries``), in all: a
#: (108, 6) network's 216K are kept; (1024, 32)'s 33.5M (tens of GB as Python objects) are
#: not: each switch's are built again when it is written
KEEP_MAX_OBJECTS = 1_000_000


def keeps_for_install(n: int, kept: int) -> bool:
    """Whether the checks keep a switch's ``n`` route objects for the first install, ``kept``
    being kept already: only a generation the switch keeps as objects anyway (fewer than
    :data:`~controller.agent.known.COMPACT_MIN_OBJECTS`: a (108, 6) ToR's 2K), within
    :data:`KEEP_MAX_OBJECTS` in all. A larger one is known as its routes' version once
    written and is built again for the write (a (1024, 32) ToR's 34K in ~0.5 s): kept, the
    first 29 of them were ~650 MB of the daemon from the checks, through the sessions and
    the survey, to their write -- for 14 s of CPU saved."""
    return n < known_state.COMPACT_MIN_OBJECTS and kept + n <= KEEP_MAX_OBJECTS


class Prepared:
    """Everything checked and computed from a config before any switch is touched: the
    schedule, every program against it (N, d, S, K, widths) and against its files (offline,
    by the target's backend), the routing parameters, ToR ids, the routes, and every
    switch's entries (width- and size-checked: counted where the role can check them
    without building them, else built and dropped -- built when written, one switch at a
    time -- or, with ``keep_entries``, kept for the daemon's first install:
    :meth:`take_entries`). ``names``: only these switches get backends,
    pipelines and roles (`uro agent push --switch`); the config and programs are still
    checked as a whole."""

    def __init__(self, cfg: NetConfig, failed: Failed, backend_for, version: int = 1, schedule_version: int = 1,
                 previous_schedule=None, names: Iterable[str] | None = None, keep_entries: bool = False):
        self.cfg = cfg
        self.backend_for = backend_for
        self._entries: dict = {}
        self._kept = 0
        #: the process's memory at the end of each step (:func:`controller.memory.phase`):
        #: the daemon logs them (``memory.phase``)
        self.memory: list[dict] = [memory.phase("config")]
        sched = build_schedule(cfg)
        for prog in {cfg.programs[s.program].name: cfg.programs[s.program] for s in cfg.switches}.values():
            check_program(cfg, prog, sched)
        check_params(cfg, sched)
        check_switches(cfg, sched)
        check_clock(cfg, sched)
        check_liveness(cfg, sched)
        names = None if names is None else set(names)
        self.schedule = sched
        failed = _fit_failed(failed, sched)
        if previous_schedule is not None and not (previous_schedule == sched):
            schedule_version += 1
        self.backends, self.pipelines, self.roles = {}, {}, {}
        switches = [s for s in cfg.switches if names is None or s.name in names]
        self._add_backends(switches)
        self.memory.append(memory.phase("pipelines"))
        try:
            self.routes = compute_routes(cfg, sched, failed, version, schedule_version)
        except UroError as e:
            raise ConfigError(f"{cfg.path}: [routing]: {e}") from None
        self.memory.append(memory.phase("routes"))
        self.aging = hosts.rules_for(cfg, self.routes)     # host flow aging: checked with the rest
        self._add_roles(switches, check=True, keep_entries=keep_entries)
        self.memory.append(memory.phase("checks"))

    def add(self, names: Iterable[str]) -> None:
        """Backends, pipelines and roles for more of the config's switches (a worker taking
        over another's share, controller/daemon/workers.py): the config was checked as a
        whole when this was made, so their entries are not built again here."""
        names = set(names)
        switches = [s for s in self.cfg.switches if s.name in names and s.name not in self.roles]
        self._add_backends(switches)
        self._add_roles(switches, check=False, keep_entries=False)

    def _add_backends(self, switches) -> None:
        cfg = self.cfg
        for s in switches:
            try:
                cls = self.backend_for(s.target)
            except BackendError as e:
                raise ConfigError(f"{cfg.path}: switch {s.name!r}: target: {e}") from None
            self.backends[s.name] = cls
        for s in switches:                    # (target, program) -> Pipeline, checked offline
            key = (s.target, s.program)
            if key in self.pipelines:
                continue
            prog, cls = cfg.programs[s.program], self.backends[s.name]
            try:
                pipe = cls.pipeline(prog.name, prog.contract, prog.files)
                cls.check_pipeline(pipe)
            except UroError as e:
                raise ConfigError(f"{cfg.path}: [program.{prog.name}]: {e}") from None
            self.pipelines[key] = pipe

    def _add_roles(self, switches, check: bool, keep_entries: bool) -> None:
        """A role for each of ``switches``; ``check``: every switch's entries checked (widths,
        table sizes) before anything is written, counted where the role can count them
        without building them (:meth:`Role.check_routes`; built where they are kept). Every role's statics, which the daemon
        keeps, are built before any switch's route entries, which it drops: objects kept
        among the ones dropped hold the allocator's memory (Python's arenas) they sit in --
        built ToR by ToR, that was 0.7 MiB per ToR checked at (1024, 32)."""
        cfg, sched = self.cfg, self.schedule
        clock = cfg.clock.params()
        roles = {}
        for s in switches:
            prog = cfg.programs[s.program]
            roles[s.name] = role = ROLES[s.role](prog.contract, s.tor, cfg.clock.capacity_bytes,
                                                 cfg.clock.bytes_per_us, clock=clock, schedule=sched,
                                                 liveness=cfg.liveness)
            if check:
                with _named(cfg, s):
                    role.static()
        for s in switches:
            role = roles[s.name]
            if check:
                with _named(cfg, s):
                    n, built = role.check_routes(self.routes, 0)
                    role.config(0, role.down_uplinks(self.routes.failed))
                    if keep_entries and keeps_for_install(n, self._kept):
                        self._entries[s.name] = built if built is not None else role.routes(self.routes, 0)
                        self._kept += n
                    del built
            self.roles[s.name] = role

    def pipeline(self, s: SwitchConfig):
        return self.pipelines[(s.target, s.program)]

    def take_entries(self, name: str):
        """Switch ``name``'s route entries of generation 0 as the checks built them (None:
        not kept), handed over once: the daemon's first install writes them instead of
        building them again."""
        return self._entries.pop(name, None)


@contextlib.contextmanager
def _named(cfg: NetConfig, s: SwitchConfig):
    """A switch's entries that cannot be built: a ConfigError naming the switch."""
    try:
        yield
    except UroError as e:
        raise ConfigError(f"{cfg.path}: switch {s.name!r}: program: {e}") from None


def _fit_failed(failed: Failed, sched) -> Failed:
    N, d = sched.n_tors, sched.n_uplinks
    return Failed(frozenset((t, u) for t, u in failed.uplinks if t < N and u < d),
                  frozenset(t for t in failed.tors if t < N), frozenset(u for u in failed.ocs if u < d),
                  frozenset((s, t, u) for s, t, u in failed.circuits if s < sched.n_slices and t < N and u < d))
