"""One switch under the daemon: session, pipeline, hitless route generations, drift
repair, the down mask and the slice timer -- all through the target-neutral
:class:`~controller.agent.backend.SwitchBackend` (no P4Runtime or BfRt here). The install
sequence itself is the agent's :class:`~controller.agent.generations.GenerationWriter`,
the one `uro agent push` runs too; this module supplies locked, chunked, measured I/O.

Locks, so that a failure's down-mask write (one entry) never waits for a whole push:

- ``op_lock``: one long operation (install, reconcile, connect) at a time;
- ``io_lock``: one backend call at a time; long writes are cut into chunks of
  :data:`CHUNK` updates, each its own call, in dependency order across chunks;
- ``cfg_lock``: the (active generation, down mask) pair and every write of the config
  entry. Bulk writes never touch the config entry; only :meth:`SwitchAgent._flip`,
  :meth:`SwitchAgent._sync_config` and :meth:`SwitchAgent.set_down` write it, so a mask
  set during a swap is never lost. Where the backend takes concurrent calls
  (``concurrent_apply``: P4Runtime) a config write does not wait for ``io_lock``: a
  failure's mask never waits behind a read-back or a chunk (:meth:`SwitchAgent.set_down`).

``send_timer`` (timer mode) and the slice clock's reads, probes and seeds (sync mode) are
called from the clock thread without ``io_lock`` (backends deliver them on their stream,
independent of writes; see docs/daemon.md); ``clock_lock`` keeps one of the latter at a
time, so a probe's answer is its own.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Callable, Iterator

from controller.agent import generations as gens, plan
from controller.agent.backend import (BackendError, ClockProbe, ElectionIdHeld, Inserts, NotPrimary, Pipeline,
                                      SwitchBackend)
from controller.agent.diff import Diff
from controller.agent.desired import Role
from controller.agent.diff import diff as state_diff, entry_key, same_state
from controller.agent.generations import GenerationWriter
from controller.agent.known import KnownState
from controller.memory import paused_gc
from controller.daemon.config import ProgramConfig, SwitchConfig
from controller.daemon.log import EventLog
from controller.daemon.metrics import Metrics
from controller.tables.state import Batch

#: updates per backend call of a long write: bounds how long a down-mask write waits
CHUNK = 1024


def chunks(d: Diff, size: int = CHUNK) -> Iterator[Diff]:
    """``d`` as a sequence of diffs of at most ``size`` updates, each of one stage of the
    write plan (:func:`controller.agent.plan.stage_parts`), stage after stage: every
    dependency across them kept, and each written by the backend in one request where it
    fits the backend's request limits (a stage of more than ``size`` updates cut into
    several diffs), so a long write still yields to a down-mask write between chunks while
    a short one takes the plan's round trips -- three for a UCMP failure's changed cells,
    not one per kind. A sequence is cut as the
    sequence it is (an :class:`~controller.tables.state.EntryRows` of a failure's changed
    cells stays columns: the backend encodes them as such)."""
    for parts in plan.stage_parts(d):
        out, n = Diff(), 0
        for op, kind in parts:
            seq = plan.part(d, op, kind)
            i = 0
            while i < len(seq):
                k = min(size - n, len(seq) - i)
                setattr(getattr(out, op), kind, seq if k == len(seq) else seq[i:i + k])
                n, i = n + k, i + k
                if n == size:
                    yield out
                    out, n = Diff(), 0
        if n:
            yield out


class SwitchAgent(GenerationWriter, gens.NetworkPhases):
    #: a reconcile of a switch running the current routes compares its route objects as
    #: bytes and decodes only the rest (:meth:`_reconcile_in_bulk`); False: the whole switch
    #: decoded and diffed (the reference the tests compare it with)
    bulk_reconcile: bool = True

    def __init__(self, cfg: SwitchConfig, program: ProgramConfig, role: Role, backend: SwitchBackend,
                 pipeline: Pipeline, *, log: EventLog, metrics: Metrics,
                 clock: Callable[[], float] = time.monotonic, chunk: int = CHUNK):
        self.cfg, self.program, self.role, self.backend = cfg, program, role, backend
        self.log, self.metrics, self.clock, self.chunk = log, metrics, clock, chunk
        self.pipeline = pipeline
        self.op_lock = threading.RLock()
        self.io_lock = threading.Lock()
        self.cfg_lock = threading.Lock()
        self.clock_lock = threading.Lock()
        self.state = "new"            # new | up | down | not_primary | unreachable | handed_over
        self.active: int | None = None
        self.live: frozenset[int] = frozenset()   # generations the config declares complete
        self.net_gen = 0              # the network's stamped generation: a fresh switch's first one
        self.down: frozenset[int] = frozenset()
        self.links_up: frozenset[int] = frozenset()   # recovered uplinks whose data-plane mark is still to clear
        self.dead: frozenset[tuple[int, int]] = frozenset()   # (slice, uplink) leading to a dead ToR
        self.installed = None         # role.version() of the routes in the active generation
        self.entries = 0
        self.last_error: str | None = None
        self.counters: dict = {}
        self.stats = {k: 0 for k in ("connects", "reconnects", "pipeline_loads", "restores", "reconcile_runs",
                                     "reconcile_in_bulk", "repairs", "swaps", "swap_failures", "installs",
                                     "entries_written", "timers_sent", "timer_errors", "links_cleared", "diff_refused",
                                     "clock_reads", "clock_probes", "clock_seeds", "clock_errors")}
        self.last_swap: dict | None = None
        self._cache: dict = {}        # route entries by (version, generation): one update's, then dropped
        #: (generation, version, Inserts) of the last generation written into an empty slot,
        #: kept to the end of its phase, or to the next one where the install left its shadow
        #: for later (_shadow_later): a first install's shadow is derived from it (_fresh_as)
        self._fresh_kept: tuple | None = None
        self._routes_of: dict = {}    # role.version -> the routes (no delta): what a held generation holds
        self._known: KnownState | None = None   # the last read + the writes since (None: read the switch)
        # {generation: routes version it holds} of the state self._known_holds is (Diff of the changed cells)
        self._holds_of: tuple[KnownState | None, dict] = (None, {})
        # (the known state they were diffed against, the deletes a prepare left for after its
        # flip: NetworkPhases._write_deferred)
        self._deferred: tuple[KnownState, Diff] | None = None
        self._config_key = None
        self.reconcile_due = False    # an update verified only what it wrote: reconcile at the next pass
        self.shadows = True           # first generation gets its shadow (Controller.shadows; Diff-only writes)
        self.incremental = True       # a failure's update writes its changed cells only ([daemon] incremental)
        self._written_config = None
        self._adopted = False         # set_pipeline called in this session
        self._cookie_epoch = None     # the backend's session_epoch when the cookie was last asked
        # the switch's clock is to be set: timer mode, the next timer is a SYNC (after a
        # (re)start, skipped slices); sync mode, it is read and seeded unless it keeps the
        # network's time (after a (re)connect or a pipeline load)
        self.need_sync = True
        self.retry_install = False    # an install failed: the maintenance pass retries it
        self.activated_at: float | None = None   # when the last install made its routes active (clock)
        self.last_mask: dict | None = None        # the last set_down write: done (clock), waits in ms

    @property
    def name(self) -> str:
        return self.cfg.name

    # ---- helpers -------------------------------------------------------------------------
    def _io(self, fn, *args):
        with self.io_lock:
            return fn(*args)

    def _error(self, what: str, e: Exception) -> None:
        self.last_error = f"{what}: {e}"
        if self.failed_after_handover(what, e):
            return
        self.log.error(f"switch.{what}", switch=self.name, error=str(e))
        if not self.backend.connected and self.state == "up":
            self.state = "down"

    def routes_batch(self, routes, generation: int) -> Batch:
        """The route entries of ``routes`` in ``generation``, built once per version (an
        update needs both generations': the other one is derived, :meth:`Role.routes_as`)."""
        version = self.role.version(routes)
        self._seen(version, routes)
        b = self._cache.get((version, generation))
        if b is None:
            other = self._cache.get((version, 1 - generation))
            b = self.role.routes_as(other, generation) if other is not None else None
            if b is None:
                b = self.role.routes(routes, generation)
            if len(self._cache) >= 4:
                self._cache.clear()
            self._cache[(version, generation)] = b
        return b

    def _apply(self, d: Diff) -> None:
        """``d`` written to the switch, and the known state follows: ``d`` applied to it once
        acknowledged, dropped if the write failed (some of it may be written: the next read
        asks the switch)."""
        try:
            self.backend.apply(d)
        except BaseException:
            self._known = None
            raise
        known = self._known
        if known is not None:
            known.apply(d)

    def seed_routes(self, routes, generation: int, batch: Batch) -> None:
        """``batch``: the route entries of ``routes`` in ``generation`` already built (the
        start-up checks built them): :meth:`routes_batch` takes them instead of building."""
        self._cache[(self.role.version(routes), generation)] = batch

    def routes_delta(self, routes, generation: int):
        """:meth:`Role.routes_delta` of ``routes`` in ``generation``, built once per version
        (an update needs it for both generations: the other one is derived)."""
        version = self.role.version(routes)
        self._seen(version, routes)
        key = ("delta", version, generation)
        if key not in self._cache:
            other = self._cache.get(("delta", version, 1 - generation))
            if other is not None:
                parts = tuple(self.role.routes_as(b, generation) for b in other)
                made = None if any(b is None for b in parts) else parts
            else:
                made = None
            if made is None:
                made = self.role.routes_delta(routes, generation)
            if len(self._cache) >= 4:
                self._cache.clear()
            self._cache[key] = made
        return self._cache[key]

    def _routes_delta(self, routes, generation: int):
        return self.routes_delta(routes, generation)

    def _seen(self, version, routes) -> None:
        """``routes`` remembered by version (the last few), without the routes they were
        repaired from (``delta``: no chain of versions), for the generations known to
        hold them (:meth:`_note_holds`)."""
        if version not in self._routes_of:
            if getattr(routes, "delta", None) is not None:
                routes = dataclasses.replace(routes, delta=None)
            self._routes_of[version] = routes
            while len(self._routes_of) > 3:
                del self._routes_of[next(iter(self._routes_of))]

    def _drop_built(self) -> None:
        """An update (or a reconcile) is over: the route entries built for it are dropped;
        the known state keeps the generations as the versions they hold (docs/daemon.md
        "Memory")."""
        self._cache.clear()
        self._fresh_kept = None

    def _drop_built_generations(self) -> None:
        """A phase is over on a switch whose known state keeps its route generations as
        versions (:meth:`KnownState.compact`: generations too large to keep as objects): the
        whole generations built for it are dropped, not kept until the network-wide update
        ends -- between its prepare and its retire a (1024, 32) update would otherwise keep
        every ToR's 32K route objects (~26 MB per ToR, ~26 GB for the fabric), which the
        retire builds again instead, one switch at a time. The changed cells of an
        incremental update stay (a failure's few entries, used again by its retire)."""
        known = self._known
        if known is None or not known.held():
            return
        for key in [k for k in self._cache if k[0] != "delta"]:
            del self._cache[key]

    def _holds(self) -> dict:
        known, holds = self._holds_of
        return dict(holds) if known is not None and known is self._known else {}

    def _note_holds(self, holds: dict) -> None:
        """Noted, and each such generation of the known state kept as the version it holds
        instead of its objects (:meth:`KnownState.compact`)."""
        known = self._known
        self._holds_of = (known, dict(holds)) if known is not None else (None, {})
        if known is None:
            return
        for g, version in holds.items():
            make = self._maker(version, g)
            if make is not None:
                known.compact(g, version, make)

    def _maker(self, version, generation: int):
        """What builds the route objects of ``version`` in ``generation`` again (None: those
        routes are no longer remembered)."""
        routes = self._routes_of.get(version)
        return None if routes is None else (lambda: self.routes_batch(routes, generation))

    def _writes_fresh(self) -> bool:
        return True

    def _write_fresh(self, generation: int, rb: Batch, routes, encoded=None) -> tuple[int, object]:
        """:meth:`GenerationWriter._write_fresh`: ``rb`` encoded once by the backend
        (:meth:`~controller.agent.backend.SwitchBackend.encode_inserts`), written in chunks
        of :attr:`chunk` updates under ``io_lock`` as :meth:`_write` writes, and the known
        state told in one step that ``generation`` holds these routes
        (:meth:`KnownState.add_generation`: no object of it applied one by one)."""
        ins = encoded if encoded is not None else self.backend.encode_inserts(rb)
        self._fresh_kept = None
        self._holds_of = (None, {})         # route objects written: what a generation holds is noted again
        n = 0
        for i in range(0, len(ins), self.chunk):
            part = ins.part(i, i + self.chunk)
            t0 = time.perf_counter()
            with self.io_lock:
                try:
                    self.backend.insert_encoded(part)
                except BaseException:
                    self._known = None      # some of it may be written: the next read asks the switch
                    raise
            self.metrics.write_seconds.labels(self.name).observe(time.perf_counter() - t0)
            k = len(part)
            n += k
            self.stats["entries_written"] += k
            self.metrics.entries_written.labels(self.name).inc(k)
        self._known_added(self._known, generation, rb, routes)
        if encoded is None:
            self._fresh_kept = (generation, self.role.version(routes), ins)
        return n, ins

    def _shadow_later(self) -> bool:
        """:meth:`GenerationWriter._shadow_later`: where the generation just written stays
        objects in the known state (fewer than
        :data:`~controller.agent.known.COMPACT_MIN_OBJECTS`: a (108, 6) ToR's), its bytes and
        objects are kept past the phase for the shadow pass (:meth:`_fresh_as`); a larger one
        (a (1024, 32) ToR's ~7 MB, a fabric's ~7 GB) gets its shadow at once, as the phase
        ends, and nothing is kept."""
        known = self._known
        return self._fresh_kept is not None and known is not None and not known.held()

    def _fresh_as(self, routes, generation: int):
        """:meth:`GenerationWriter._fresh_as`: the other generation's objects and bytes as
        this phase wrote them (:attr:`_fresh_kept`), made ``generation``'s: the objects by
        :meth:`Role.objects_as`, each made only when asked for (what the known state keeps
        of a generation this large is its routes' version: :meth:`KnownState.add_generation`),
        the bytes by the backend
        (:meth:`~controller.agent.backend.SwitchBackend.encode_inserts_keyed`: the
        generation's match field patched, only the members, groups and selector entries
        made and encoded). Used once: a (1024, 32) ToR's are ~7 MB."""
        kept, self._fresh_kept = self._fresh_kept, None
        if kept is None:
            return None
        g, version, ins = kept
        if g != 1 - generation or version != self.role.version(routes):
            return None
        like = ins.batch()
        derived = self._derived(like, ins, generation)
        if derived is None:
            return None
        self._cache.pop((version, g), None)      # (the other generation's objects: not needed again)
        return *derived, like

    def _derived(self, rb: Batch, ins: Inserts, generation: int) -> tuple[Batch, Inserts] | None:
        """Route objects ``rb`` (encoded as ``ins``, in its order) in ``generation``: their
        objects, each made when asked for (:meth:`Role.objects_as`), and their bytes derived
        from ``ins`` by the backend
        (:meth:`~controller.agent.backend.SwitchBackend.encode_inserts_keyed`); None where
        the role derives none."""
        objs = self.role.objects_as(ins.objects, generation)
        if objs is None:
            return None
        sb = Batch(*(self.role.objects_as(x, generation) for x in (rb.members, rb.groups, rb.entries)))
        return sb, self.backend.encode_inserts_keyed(ins, objs, objs.key, objs.value)

    def _shadow_failed(self, e: BackendError) -> None:
        self.log.warn("generation.shadow_failed", switch=self.name, error=str(e))

    def _known_added(self, known: KnownState | None, generation: int, rb: Batch, routes) -> None:
        if known is not None:
            version = self.role.version(routes)
            self._seen(version, routes)
            known.add_generation(generation, rb, version, self._maker(version, generation))

    def _read_fresh(self, written):
        with self.io_lock:
            return self.backend.read_state_beside(written)

    def _fresh_verified(self, generation: int, rb: Batch, routes, rest: Batch | None) -> None:
        """The switch as read by the bulk verify: ``rest`` and ``generation`` holding ``rb``
        (None: forgotten, the next read asks the switch)."""
        if rest is None:
            self._known = None
            return
        known = KnownState(rest)
        self._known_added(known, generation, rb, routes)
        self._known = known

    def _known_beside(self, generation: int, version):
        known = self._known
        if known is None:
            return None
        held = known.held()
        if held:
            if known.exactly(generation) != version or set(held) != {generation}:
                return None          # (another generation kept as a version: it holds routes)
            return known.loose()
        # generations small enough to stay objects (a (108, 6) ToR's): what ``generation``
        # holds is what was noted of it since the last write of route objects
        if self._holds().get(generation) != version:
            return None
        return known.beside(generation)

    def _known_config(self):
        known = self._known
        if known is None:
            return None
        if self._config_key is None:
            self._config_key = entry_key(self.role.config(0))
        return known.entry(self._config_key)

    def _objects_now(self) -> int:
        return self.entries

    def _write(self, d: Diff) -> int:
        if not d.empty:
            self._holds_of = (None, {})     # route objects written: what a generation holds is noted again
        n = 0
        for part in chunks(d, self.chunk):
            t0 = time.perf_counter()
            with self.io_lock:
                self._apply(part)
            self.metrics.write_seconds.labels(self.name).observe(time.perf_counter() - t0)
            k = len(part)
            n += k
            self.stats["entries_written"] += k
            self.metrics.entries_written.labels(self.name).inc(k)
        return n

    # ---- session -------------------------------------------------------------------------
    def connect(self) -> None:
        """Open the session as primary; never writes. Raises Unreachable / NotPrimary, and
        BackendError for an agent that handed its session over (:meth:`take_session`):
        the switch is the next agent's, and a second session of the same election id would
        be refused, or, where the switch had let the first go, left open by nobody."""
        with self.op_lock:
            if self.handed_over:
                raise BackendError(f"switch {self.name!r}: this agent handed its session over to the "
                                   "reloaded config's agent; it opens none")
            try:
                self._io(self.backend.close)
            except BackendError:
                pass
            try:
                self._io(self.backend.connect)
            except NotPrimary as e:
                self.state = "not_primary"
                self.last_error = str(e)
                raise
            except BackendError as e:
                self.state = "unreachable"
                self.last_error = str(e)
                raise
            self._opened()

    def take_session(self, old: "SwitchAgent") -> None:
        """Take ``old``'s open session in place of opening one (:func:`same_session`: a
        reload's agent for a changed switch whose session would be the same): the switch
        refuses a second session with the election id ``old`` holds ("Election id already
        exists"), and holding it throughout leaves no moment without a primary. ``old`` gets
        this agent's unopened backend, so closing it closes nothing. Then as :meth:`connect`
        ends: nothing known of the switch, read again before anything is written. Under
        ``old``'s ``io_lock``, as its :meth:`close` (a call of ``old`` in flight ends first;
        one after it finds no session). ``old`` is left ``handed_over`` for good: a
        maintenance pass that listed it before the reload's commit neither reconnects it nor
        reports its calls' failures as the switch's (:attr:`handed_over`)."""
        with old.io_lock:
            self.backend, old.backend = old.backend, self.backend
            old.state = "handed_over"
        with self.op_lock:
            self._opened(kept=True)

    def _opened(self, kept: bool = False) -> None:
        """A session just became this agent's (``kept``: taken from the agent before it):
        nothing is known of the switch until it is read again."""
        self._known = None
        first = self.stats["connects"] == 0
        self.stats["connects"] += 1
        if not first:
            self.stats["reconnects"] += 1
            self.metrics.reconnects.labels(self.name).inc()
        self.state = "up"
        self._adopted = False     # active/installed stay what we last wrote: reconcile checks them
        self._cookie_epoch = None
        self.need_sync = True
        self.log.event("switch.connected", switch=self.name, address=self.cfg.address,
                       election_id=self.cfg.election_id, reconnect=not first, **({"kept": True} if kept else {}))

    def alive(self) -> bool:
        return self.state == "up" and self.backend.connected

    @property
    def handed_over(self) -> bool:
        """This agent gave its session to a reload's agent (:meth:`take_session`): the
        switch is that agent's; this one is done."""
        return self.state == "handed_over"

    def failed_after_handover(self, what: str, e: Exception, **where) -> bool:
        """Whether ``e`` failed a call of this agent that was in flight when it handed its
        session over (:attr:`handed_over`): not the switch's failure, logged as the event
        ``switch.after_handover`` (``what``: the call's kind) rather than an error."""
        if not self.handed_over:
            return False
        self.log.event("switch.after_handover", switch=self.name, what=what, error=str(e), **where)
        return True

    def close(self) -> None:
        try:
            self._io(self.backend.close)
        except BackendError:
            pass
        if not self.handed_over:
            self.state = "down"

    # ---- installing routes -------------------------------------------------------------------
    def _ensure_pipeline(self) -> bool:
        """The switch runs our program (a restarted switch runs none: that is a restore).
        ``set_pipeline`` is called either way: a switch already running the same cookie is
        adopted with its entries (the backend needs the pipeline for reads and writes)."""
        epoch = self.backend.session_epoch()   # (before the cookie: primacy lost meanwhile moves it)
        self._cookie_epoch = None
        cookie = self._io(self.backend.pipeline_cookie)
        if self._adopted and cookie == self.pipeline.cookie:
            self._cookie_epoch = epoch
            return False
        self._known = None
        loaded = self._io(self.backend.set_pipeline, self.pipeline)
        self._adopted = True
        self._cookie_epoch = epoch
        if not loaded:
            return False
        self.stats["pipeline_loads"] += 1
        if self.installed is not None:   # we had programmed it: it restarted (or was re-pipelined)
            self.stats["restores"] += 1
            self.metrics.restores.labels(self.name).inc()
            self.installed = None
        with self.cfg_lock:
            self.active = None
            self.live = frozenset()
            self._written_config = None
        self.need_sync = True
        self.log.event("switch.pipeline_set", switch=self.name, program=self.program.name,
                       cookie=f"{self.pipeline.cookie:016x}", previous=None if cookie is None else f"{cookie:016x}")
        return True

    def _flip(self, generation: int, live: frozenset[int] | None = None) -> None:
        """One write of the config entry: ``generation`` active, ``live`` (default: it
        alone) complete, the current down mask."""
        live = frozenset({generation}) if live is None else frozenset(live)
        with self.cfg_lock:
            e = self.role.config(generation, self.down, live, self.dead)
            self._config_write(e)
            if self.active != generation:
                self.activated_at = self.clock()
            self.active = generation
            self.live = live
            self._written_config = e

    def _config_write(self, e) -> tuple[float, float]:
        """One write of the config entry ``e`` (caller holds ``cfg_lock``); without
        ``io_lock`` where the backend takes concurrent calls (see :meth:`set_down`).
        Returns (sent, acknowledged) in ``perf_counter`` seconds."""
        d = Diff(modify=Batch(entries=[e]))
        if self.backend.concurrent_apply:
            t_io = time.perf_counter()
            self._apply(d)
        else:
            with self.io_lock:
                t_io = time.perf_counter()
                self._apply(d)
        t1 = time.perf_counter()
        self.metrics.write_seconds.labels(self.name).observe(t1 - t_io)
        self.stats["entries_written"] += 1
        self.metrics.entries_written.labels(self.name).inc()
        return t_io, t1

    def _sync_config(self, actual_config) -> int:
        """Make the config entry say (active, down) if it does not (drift, a mask set
        while nothing was active). Returns updates written."""
        with self.cfg_lock:
            if self.active is None:
                return 0
            want = self.role.config(self.active, self.down, self.live or None, self.dead)
            if actual_config == want:
                self._written_config = want
                return 0
            self._config_write(want)
            self._written_config = want
            return 1

    def install(self, routes) -> str:
        """See :meth:`_install`; a failure marks the switch for a retry (``retry_install``)."""
        try:
            res = self._install(routes)
        except BackendError:
            self.retry_install = True
            raise
        finally:
            self._drop_built()
        self.retry_install = False
        return res

    def _install(self, routes) -> str:
        """Bring the switch to ``routes`` hitlessly (:meth:`GenerationWriter.install_routes`).

        Returns what it did: "current" (already running them; junk and drift cleaned),
        "installed" (an unconfigured switch got its first generation) or "swapped".
        Raises BackendError (the old generation stays active; call again to retry)."""
        with self.op_lock:
            if self.state != "up":
                raise BackendError(f"switch {self.name!r} is {self.state}")
            self._ensure_pipeline()
            version = self.role.version(routes)
            res = self.install_routes(routes, first_generation=self.net_gen)
            self.installed = version
            self.entries = res.objects
            if res.outcome == "installed":
                self.stats["installs"] += 1
                self.log.event("generation.installed", switch=self.name, generation=0, version=str(version),
                               seconds=round(res.total_s, 4), entries=self.entries)
                if self.shadows:   # the same routes as the other generation's shadow (never live)
                    try:
                        self.retire_generation(res.generation, routes)
                    except BackendError as e:
                        self.log.warn("generation.shadow_failed", switch=self.name, error=str(e))
            elif res.outcome == "current":
                self.activated_at = self.clock()
                if res.written:
                    self.log.event("switch.cleaned", switch=self.name, generation=res.generation,
                                   updates=res.written)
            else:
                self.stats["swaps"] += 1
                self.metrics.swaps.labels(self.name).inc()
                self.metrics.swap_seconds.labels(self.name).observe(res.active_s)
                self.last_swap = {"generation": res.generation, "version": str(version), "written": res.written,
                                  "deleted": res.deleted, "write_to_active_s": round(res.active_s, 6),
                                  "verify_s": round(res.verify_s, 6), "total_s": round(res.total_s, 6)}
                self.log.event("generation.active", switch=self.name, **self.last_swap)
            return res.outcome

    # ---- network-wide phases (the controller orders them across switches) -------------------------
    def phase(self, fn, *args):
        """One step of a network-wide update (:class:`~controller.agent.generations.NetworkPhases`)
        under this switch's operation lock. The survey, with which every update starts, asks
        the switch's pipeline cookie unless the session stayed primary since it was last asked
        (the backend's ``session_epoch``: a switch that restarts ends the session): a switch
        that restarted empty gets its pipeline first (it is then unconfigured: prepared like
        a new one). The later phases do not ask again (one RPC per phase and switch): a
        switch that restarts meanwhile ends the session and refuses the next write, which
        fails the phase and retries the update."""
        with self.op_lock:
            if self.state != "up":
                raise BackendError(f"switch {self.name!r} is {self.state}")
            if not self._adopted or (getattr(fn, "__func__", fn) is gens.NetworkPhases.survey
                                     and not self._same_session()):
                self._ensure_pipeline()
            res = None
            try:
                with paused_gc():     # builds, reads, diffs of ~10K objects each (controller.memory)
                    res = fn(*args)
                return res
            finally:
                if not getattr(res, "shadow_pending", False):   # (a shadow left for later derives from it)
                    self._fresh_kept = None
                self._drop_built_generations()

    def _same_session(self) -> bool:
        """The session has been primary without a break since the cookie was last asked."""
        epoch = self.backend.session_epoch()
        return epoch is not None and epoch == self._cookie_epoch

    def activate(self, new: int) -> None:
        """Every source of this switch stamps ``new`` (the live set as the switch has it):
        :meth:`~controller.agent.generations.NetworkPhases.activate_generation`."""
        self.activate_generation(new, self.live)

    def installed_now(self, routes, res: gens.Installed | None, swapped: bool) -> None:
        """Bookkeeping once the network runs ``routes`` on this switch."""
        version = self.role.version(routes)
        self.installed = version
        self.retry_install = False
        if res is not None:
            self.entries = res.objects
        if res is not None and res.outcome == "installed":
            self.stats["installs"] += 1
            self.log.event("generation.installed", switch=self.name, generation=res.generation,
                           version=str(version), seconds=round(res.total_s, 4), entries=self.entries)
        elif swapped:
            self.stats["swaps"] += 1
            self.metrics.swaps.labels(self.name).inc()
            if res is not None:
                self.metrics.swap_seconds.labels(self.name).observe(res.total_s)
                self.last_swap = {"generation": self.active, "version": str(version), "written": res.written,
                                  "verify_s": round(res.verify_s, 6), "prepare_s": round(res.total_s, 6)}
            self.log.event("generation.active", switch=self.name, generation=self.active, version=str(version))

    # ---- GenerationWriter I/O: locked, chunked, measured ------------------------------------------
    def _read(self) -> Batch:
        with self.io_lock:
            state = self.backend.read_state()
            self._known = KnownState(state)
        return state

    def _read_objects(self, objects: Batch) -> Batch:
        with self.io_lock:
            return self.backend.read_objects(objects)

    def _defers_deletes(self) -> bool:
        """Where the known state keeps the generations as objects (a (108, 6) ToR's): the
        deletes left for after the flip are checked against it before they are written
        (:meth:`_take_deferred`); a generation kept as a version has none to check."""
        known = self._known
        return known is not None and not known.held()

    def _keep_deferred(self, d: Diff) -> None:
        self._deferred = (self._known, d)

    def _take_deferred(self) -> Diff | None:
        kept, self._deferred = self._deferred, None
        if kept is None:
            return None
        known, d = kept
        if known is not self._known or not known.holds(d.delete):
            return None
        return d

    def _knows_state(self) -> bool:
        """The known state (:mod:`controller.agent.known`) is what the switch holds: this
        session's last read plus the writes it acknowledged since. P4Runtime lets only the
        primary client write (a takeover ends our session, a restarted switch too, and
        either drops the known state), so only out-of-band writes (bmv2's Thrift CLI) can
        make it wrong; the reconcile that follows an update verified by key reads the
        whole switch and repairs them (:attr:`reconcile_due`). A backend without a read by
        key verifies by a whole read anyway."""
        return self._known is not None and self.backend.reads_by_key

    def _verify_written(self, d: Diff, config, expect_active: int) -> None:
        try:
            super()._verify_written(d, config, expect_active)
        except BackendError:
            self._known = None        # the switch holds something else: the retry reads it
            raise
        self.reconcile_due = True     # the whole switch read back after the update

    def _read_known(self) -> tuple[Batch, gens.Parts]:
        known = self._known
        if known is None:
            return self._read_split()
        table = self.role.config_table()
        return known.batch(), known.derived(("split", table), lambda b: gens.split(b, table),
                                            lambda p, d: gens.config_patched(p, d, table))

    def _read_split(self) -> tuple[Batch, gens.Parts]:
        """Read the switch; the split is kept with the known state it starts (the verify's
        split is the next phase's: the flips and down masks in between patch it)."""
        self._read()
        return self._read_known()

    def retire_generation(self, keep: int, routes=None, fill: bool = True) -> int:
        """:meth:`NetworkPhases.retire_generation`, then the new known state split while
        the network is quiet: the next failure's survey starts from that split (a down mask
        written meanwhile patches it) instead of making it on the way to the new routes."""
        n = super().retire_generation(keep, routes, fill)
        self._drop_built()
        # (forgotten: the next survey reads the switch anyway; with incremental updates the
        # next failure's phases start from what the generations hold, :meth:`_holds`; a
        # known state that keeps its generations as versions is not split: that would
        # build and keep every object it does not keep)
        known = self._known
        if known is not None and not known.held() and not (self.incremental and self._holds()):
            self._read_known()
        return n

    def _set_active(self, generation: int | None) -> None:
        with self.cfg_lock:
            self.active = generation

    def _set_live(self, live: frozenset[int]) -> None:
        with self.cfg_lock:
            self.live = frozenset(live)

    def _routes_batch(self, routes, generation: int) -> Batch:
        return self.routes_batch(routes, generation)

    def _swap_starting(self, routes, new: int, active: int, rb: Batch) -> None:
        self.log.event("generation.writing", switch=self.name, generation=new, active=active,
                       version=str(self.role.version(routes)), entries=gens.objects(rb))

    def _slot_rewritten(self, e: BackendError) -> bool:
        if not self.backend.connected:
            return False
        self.stats["diff_refused"] += 1
        self.log.warn("generation.diff_refused", switch=self.name, error=str(e),
                      note="the non-live generation is emptied and written whole instead")
        return True

    def _swap_failed(self, e: BackendError) -> None:
        self.stats["swap_failures"] += 1
        self.metrics.swap_failures.labels(self.name).inc()
        self._error("swap_failed", e)

    # ---- drift --------------------------------------------------------------------------------
    def reconcile(self, routes) -> int:
        """Read back and repair drift in place; a switch that is not running the current
        routes (restart, pending swap, foreign flip) gets :meth:`install` instead.
        Returns the repairs written."""
        try:
            with paused_gc():     # a read of the whole switch, built and compared (controller.memory)
                return self._reconcile(routes)
        finally:
            self._drop_built()

    def _reconcile(self, routes) -> int:
        with self.op_lock:
            if self.state != "up":
                raise BackendError(f"switch {self.name!r} is {self.state}")
            self.reconcile_due = False
            self.stats["reconcile_runs"] += 1
            self.metrics.reconcile_runs.labels(self.name).inc()
            if self._ensure_pipeline():   # (re)loaded: the switch is empty (no link marks either)
                with self.cfg_lock:
                    self.links_up = frozenset()
                self.install(routes)
                return 0
            if self.links_up:
                self.clear_links()        # a recovery the switch missed (session lost meanwhile)
            if self.bulk_reconcile and self.active is not None and self.installed == self.role.version(routes):
                n = self._reconcile_in_bulk(routes)
                if n is not None:
                    return n
            actual, parts = self._read_split()
            act, _ = self.role.active(actual)
            if act is None:
                self.install(routes)      # unconfigured: nothing in flight, its first generation
                return 0
            if self.active is None or self.installed != self.role.version(routes):
                if same_state(parts.gens[act], self.routes_batch(routes, act)):
                    self.install(routes)  # adopted: it runs these routes (leftovers cleaned)
                else:
                    self.retry_install = True   # other routes: a network-wide update, never a lone flip
                return 0
            # drift: entries deleted or changed, even the active generation flipped, by someone
            # else: our generation comes back as it was (a flip back is one config write)
            act = self.active
            static = self.role.static()
            shadow = self._shadow(parts, routes, act)                     # an exact shadow is kept
            want = gens.final_state(static, self.routes_batch(routes, act), parts.config, shadow)
            self._set_live(frozenset({act}))
            n = self._sync_config(parts.config) + self._write(state_diff(actual, want))
            version = self.role.version(routes)
            self._note_holds({act: version, **({1 - act: version} if shadow is not None else {})})
            self.entries = want.objects()
            self._repaired(n, act)
            return n

    def _reconcile_in_bulk(self, routes) -> int | None:
        """:meth:`_reconcile`'s drift repair of a switch running ``routes`` in generation
        :attr:`active`, its route objects compared in bulk: they (and their shadow in the
        other generation, where one is expected) encoded as the backend writes them, the
        switch read whole and each answer looked up among those bytes
        (:meth:`~controller.agent.backend.SwitchBackend.read_state_beside`, as the bulk
        verify of a generation written whole, :meth:`GenerationWriter._verify_fresh`); only
        what is not found is decoded -- the statics, the config entry, defaults, anything
        unexpected -- and diffed with what it should be. Returns the repairs written, or
        None where a route object was not found as encoded or the switch holds other route
        objects (drift in the routes, a shadow missing, partial or not expected): the caller
        then reads, decodes and diffs the whole switch, the same repair.

        Why: the reconcile that follows every update verified by key reads every switch of
        the network; a (1024, 32) ToR holds 65K route objects in its two generations, and
        decoding them and diffing them as objects takes about twice the CPU of encoding
        them and comparing bytes (docs/fabric.md "The reconcile after an update")."""
        act = self.active
        rb = self.routes_batch(routes, act)
        ins = self.backend.encode_inserts(rb)
        holds = self._holds()
        version = self.role.version(routes)
        sb = None
        if (holds.get(1 - act) == version) if holds else self.shadows:
            sb, sins = self._shadow_encoded(rb, ins, routes, 1 - act)
            ins = Inserts.joined(ins, sins)
        with self.io_lock:
            missing, rest = self.backend.read_state_beside(ins)
        del ins
        table = self.role.config_table()
        p = gens.split(rest, table)
        stray = sum(gens.objects(b) for b in p.gens.values())
        if missing or stray or self.role.active(rest)[0] is None:
            self._known = None            # (the caller reads the switch)
            self.log.event("reconcile.decoding", switch=self.name, missing=len(missing), other_route_objects=stray,
                           active=self.role.active(rest)[0], shadow_expected=sb is not None,
                           note="route objects not as encoded: the whole switch is decoded and diffed")
            return None
        known = KnownState(rest)
        self._known_added(known, act, rb, routes)
        if sb is not None:
            self._known_added(known, 1 - act, sb, routes)
        self._known = known
        self.stats["reconcile_in_bulk"] += 1
        static = self.role.static()
        self._set_live(frozenset({act}))
        n = self._sync_config(p.config) + self._write(state_diff(rest, gens.final_state(static, Batch(), p.config)))
        self._note_holds({act: version, **({1 - act: version} if sb is not None else {})})
        self.entries = gens.objects(rb) * (1 if sb is None else 2) + gens.objects(static) + 1
        self._repaired(n, act)
        return n

    def _repaired(self, n: int, generation: int) -> None:
        """A reconcile wrote ``n`` repairs (none: nothing to count)."""
        if n:
            self.stats["repairs"] += n
            self.metrics.reconcile_repairs.labels(self.name).inc(n)
            self.log.warn("reconcile.repaired", switch=self.name, updates=n, generation=generation)

    def _shadow_encoded(self, rb: Batch, ins: Inserts, routes, generation: int) -> tuple[Batch, Inserts]:
        """The shadow of route objects ``rb`` (encoded as ``ins``) in ``generation``, derived
        from them (:meth:`_derived`); where the role derives none, built and encoded."""
        derived = self._derived(rb, ins, generation)
        if derived is None:
            sb = self.routes_batch(routes, generation)
            return sb, self.backend.encode_inserts(sb)
        return derived

    # ---- failures ---------------------------------------------------------------------------------
    def set_down(self, down: frozenset[int], dead: frozenset[tuple[int, int]] | None = None) -> bool:
        """The data plane's reaction: one write of the config entry with uplinks ``down``
        and the (slice, uplink) pairs ``dead`` (circuits to a dead ToR) masked in the
        active generation. Returns whether it wrote; :attr:`last_mask` says how long it
        waited for the lock and for the switch.

        It waits only for ``cfg_lock`` (another config write: a flip, a drift repair;
        one entry each). Where the backend takes concurrent calls
        (:attr:`SwitchBackend.concurrent_apply`) it does not wait for ``io_lock``, so a
        read-back (reconcile, a swap's verify), a counter read or a chunk of a bulk write
        in progress on this switch does not delay it; otherwise it waits for that one
        call. Why that is safe: the config entry is written only under ``cfg_lock``,
        always from the current (active, live, down, dead); bulk writes never contain it
        (every diff takes the config entry as read); a read-back that saw the entry
        before this write finds it differing from the wanted one and rewrites the wanted
        one, which carries this mask (:meth:`_sync_config`), never the old mask."""
        t0 = time.perf_counter()
        with self.cfg_lock:
            t_lock = time.perf_counter()
            dead = self.dead if dead is None else frozenset(dead)
            if down == self.down and dead == self.dead and self._written_config is not None:
                return False
            # uplinks back up: their data-plane marks go too (after the mask: clear_links)
            self.links_up = (self.links_up | (self.down - down)) - down
            self.down = down
            self.dead = dead
            if self.active is None or self.state != "up":
                return False      # nothing active: the next flip writes it
            e = self.role.config(self.active, down, self.live or None, dead)
            t_io, t1 = self._config_write(e)
            self._written_config = e
            self.last_mask = {"done": self.clock(), "lock_wait_ms": round((t_io - t0) * 1e3, 3),
                              "write_ms": round((t1 - t_io) * 1e3, 3), "cfg_lock_ms": round((t_lock - t0) * 1e3, 3)}
        self.clear_links()
        return True

    def links_came_up(self, uplinks: frozenset[int]) -> frozenset[int]:
        """``uplinks`` are known to be up (not down in the mask): clear their data-plane
        marks (:meth:`clear_links`) -- for marks left from before the daemon watched."""
        with self.cfg_lock:
            self.links_up = self.links_up | (frozenset(uplinks) - self.down)
        return self.clear_links()

    def clear_links(self) -> frozenset[int]:
        """Undo the data plane's own marks of the uplinks that came back
        (:meth:`SwitchBackend.clear_link_down`: Tofino2's ``link_down_reg``, set by the
        port-down application; nothing on bmv2), once per recovery; one that fails is logged
        and stays pending for the next maintenance pass (:meth:`reconcile`). Returns the
        uplinks whose mark was cleared."""
        with self.cfg_lock:
            todo = self.links_up - self.down
            if not self.backend.marks_links:
                self.links_up = frozenset()   # nothing marked: no call, no io_lock wait
                return frozenset()
            if not todo or self.state != "up":
                self.links_up = todo      # pending until the switch is up
                return frozenset()
            self.links_up = frozenset()
        try:
            with self.io_lock:
                cleared = self.backend.clear_link_down(todo)
        except BackendError as e:     # the mask is written; the mark waits for the next pass
            with self.cfg_lock:
                self.links_up = (self.links_up | todo) - self.down
            self._error("link_down_clear_failed", e)
            return frozenset()
        if cleared:
            self.stats["links_cleared"] += len(cleared)
            self.log.event("switch.link_down_cleared", switch=self.name, uplinks=sorted(cleared))
        return cleared

    def _wait(self, seconds: float) -> None:
        """The swap's drain wait on the daemon's clock (a test's clock records it)."""
        (getattr(self.clock, "sleep", None) or time.sleep)(seconds)

    # ---- time and counters ---------------------------------------------------------------------------
    def send_timer(self, slice_id: int) -> float | None:
        """Send the timer of ``slice_id``; returns when it was handed to the backend."""
        if self.state != "up" or self.active is None:
            return None               # nothing to clock until it runs a generation
        sync = self.need_sync
        try:
            self.backend.send_timer(slice_id, sync)
            self.need_sync = False
        except BackendError as e:
            self.stats["timer_errors"] += 1
            self.metrics.timer_errors.labels(self.name).inc()
            self.last_error = f"timer: {e}"
            return None
        self.stats["timers_sent"] += 1
        self.metrics.timers_sent.labels(self.name).inc()
        return self.clock()

    def _clock_call(self, what: str, fn, *args):
        if self.state != "up":
            raise BackendError(f"switch {self.name!r} is {self.state}")
        try:
            with self.clock_lock:
                out = fn(*args)
        except BackendError as e:
            self.stats["clock_errors"] += 1
            self.last_error = f"clock {what}: {e}"
            raise
        self.stats[f"clock_{what}"] += 1
        return out

    def read_clock(self) -> dict[str, int]:
        """The clock's registers (:meth:`SwitchBackend.read_clock`)."""
        return self._clock_call("reads", self.backend.read_clock)

    def probe_clock(self) -> ClockProbe:
        """A probe of the switch's clock timed on this host (:meth:`SwitchBackend.probe_clock`)."""
        return self._clock_call("probes", self.backend.probe_clock, min(1.0, self.cfg_timeout()))

    def seed_clock(self, k: int, phase_ns: int, reference: bool) -> None:
        """Step the switch's clock to ``(k, phase_ns)`` (:meth:`SwitchBackend.seed_clock`),
        telling the backend whether this switch is the ToR the clock's config names first
        among the leads (:meth:`Role.clock_lead`)."""
        self._clock_call("seeds", self.backend.seed_clock, k, phase_ns, reference, self.role.clock_lead())

    def cfg_timeout(self) -> float:
        return self.backend.address.timeout_s

    def read_counters(self) -> dict:
        if self.state != "up":
            return self.counters
        self.counters = self._io(self.backend.read_counters)
        return self.counters

    def status(self) -> dict:
        return {
            "name": self.name, "role": self.cfg.role, "tor": self.cfg.tor, "target": self.cfg.target,
            "address": self.cfg.address, "device_id": self.cfg.device_id, "election_id": self.cfg.election_id,
            "state": self.state, "connected": self.alive(), "generation": self.active,
            "live_generations": sorted(self.live),
            "down_uplinks": sorted(self.down), "entries": self.entries,
            "routes_version": None if self.installed is None else str(self.installed),
            "pipeline_cookie": f"{self.pipeline.cookie:016x}", "last_error": self.last_error,
            "last_swap": self.last_swap, "counters": self.counters, **self.stats,
        }


#: seconds between two ``sessions.opening`` progress lines while many sessions open
PROGRESS_S = 5.0


def same_session(old: SwitchAgent, new: SwitchAgent) -> bool:
    """Whether ``new`` would open the session ``old`` holds: the same backend to the same
    address, device id, election id, TLS and deadline. A reload's agent for a switch whose
    config changed elsewhere (its program, its role's entries) takes ``old``'s session
    instead (:meth:`SwitchAgent.take_session`): the switch would refuse the second."""
    return type(new.backend) is type(old.backend) and new.backend.address == old.backend.address


def kept_sessions(running: dict[str, SwitchAgent], new: dict[str, SwitchAgent]) -> set[str]:
    """The switches of ``new`` (a reload's agents) whose session would be the running
    agent's (:func:`same_session`): each takes that session at the commit instead of
    opening one of its own."""
    return {n for n, a in new.items() if n in running and same_session(running[n], a)}


def connect_all(agents: list[SwitchAgent], pool, log: EventLog, *, retry_s: float = 0.0,
                held_s: float = 0.0, stop_at_error: bool = True, **where) -> dict[str, BackendError]:
    """Open the session of every agent on ``pool`` (its threads bound how many open at
    once), with a ``sessions.opening`` line every :data:`PROGRESS_S` seconds and a
    ``sessions.opened`` line at the end (``where``: more fields of both, e.g. the worker).

    A session that does not open is retried for ``retry_s`` (a switch taken over from a
    lost worker may still count its stream); one refused because its election id is held
    (:class:`~controller.agent.backend.ElectionIdHeld`) for ``held_s`` at least, with one
    ``switch.id_held`` line when it is first refused: a daemon started again after a crash
    finds its old sessions on switches that have not yet dropped them, and a second daemon
    configured with the same id is still refused, only later. {switch: error} of those that
    did not open, in the agents' order. With ``stop_at_error`` the first such error stops
    the sessions not yet started (a start that fails names the switch instead of waiting
    for every other session first)."""
    total, t0 = len(agents), time.monotonic()
    lock = threading.Lock()
    stop = threading.Event()
    errors: dict[str, BackendError] = {}
    done = [0, t0]                      # sessions opened, when progress was last logged

    def one(a: SwitchAgent) -> None:
        start = time.monotonic()
        end, held_end = start + retry_s, start + held_s
        told = False
        while not stop.is_set():
            try:
                a.connect()
                break
            except BackendError as e:
                now = time.monotonic()
                if isinstance(e, ElectionIdHeld) and now < held_end:
                    if not told:
                        told = True
                        log.event("switch.id_held", switch=a.name, wait_s=held_s, error=str(e), **where)
                elif now >= end:
                    with lock:
                        errors[a.name] = e
                    if stop_at_error:
                        stop.set()
                    return
                time.sleep(0.2)
        else:
            return
        now = time.monotonic()
        with lock:
            done[0] += 1
            if now - done[1] >= PROGRESS_S:
                done[1] = now
                log.event("sessions.opening", opened=done[0], of=total, seconds=round(now - t0, 1), **where)
    list(pool.map(one, agents))
    log.event("sessions.opened", opened=done[0], of=total, seconds=round(time.monotonic() - t0, 1),
              failed=sorted(errors) or None, **where)
    return {a.name: errors[a.name] for a in agents if a.name in errors}
