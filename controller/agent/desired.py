"""The desired state of one switch, built from one version of the network's routes.

`uro agent push` and `uro daemon` both build what a switch must hold here, so a switch
pushed once and then taken over by the daemon (or the other way round) holds exactly the
entries the other would write: nothing is rewritten, nothing is left over.

A switch's *role* turns :class:`Routes` into its desired state, split the way hitless
route generations need it (docs/p4.md "Route generations"; URO §IV-B: the tables are
written by the controller while the data plane keeps forwarding):

- ``static()``: entries that do not depend on the routes (the host/address plan, DSCP
  buckets; the slice clock's ``clock_config`` and ``sync_peer``, :mod:`controller.tables.clock`,
  when the role is given the clock's parameters and the schedule);
- ``routes(routes, g)``: the route entries of generation ``g`` (0 or 1): every one
  carries the generation in its key, so both generations sit in the tables side by
  side and only the active one matches;
- ``config(g, down)``: the one default entry that makes generation ``g`` active and
  holds the data plane's per-uplink down mask. Writing it is the flip (one write).

A new kind of switch is a new :class:`Role` registered in :data:`ROLES`; nothing else
branches on the role. The entries come from :mod:`controller.tables.tor_batch` (ToRs)
and the OCS emulator's batch; no name of a table, key or parameter is spelled here
except :data:`GENERATION_KEY`, the match key that tags an entry's generation. How a
switch moves from one generation to the next is :mod:`controller.agent.generations`.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import ClassVar, Hashable, Sequence

import numpy as np

from controller.agent import known
from controller.clock.params import ClockParams
from controller.liveness.params import LivenessParams
from controller.routing import base
from controller.schedule import Schedule
from controller.schedule.degrade import Failed
from controller.tables import bulk, tor_batch
from controller.tables import clock as clock_entries
from controller.tables import liveness as liveness_entries
from controller.tables.state import Batch, TableEntry, joined

#: the match key that carries an entry's route generation
GENERATION_KEY = "generation"

#: static entries of the ToR roles of this process, each kept once (:func:`shared_statics`);
#: emptied when it holds this many (then new roles keep their own until it fills again)
SHARED_STATICS_MAX = 1 << 18
_SHARED_STATICS: dict[TableEntry, TableEntry] = {}


def shared_statics(b: Batch) -> Batch:
    """``b`` with each of its entries replaced by an equal one built before by any role of
    this process, where there is one. A (1024, 32) ToR's 1,105 static entries (the host
    plan: every destination's prefix -> its ToR; the DSCP buckets; the clock's) are 1,088
    the same on every ToR; as each ToR's own objects they were ~0.45 MB per ToR, ~0.45 GB
    for 1024, from the start-up checks on. Entries are frozen values: a shared one is the
    same entry to every switch (its identity key, memoised on it, too)."""
    if len(_SHARED_STATICS) >= SHARED_STATICS_MAX:
        _SHARED_STATICS.clear()
    one = _SHARED_STATICS.setdefault
    return Batch(b.members, b.groups, [one(e, e) for e in b.entries])


@dataclass(frozen=True)
class Routes:
    """One version of the network's routes (what every role builds its entries from).

    ``schedule`` is the full schedule (the OCS circuits); ``routing_schedule`` the one
    routes were computed on (circuits of ``failed`` removed). ``per_hop`` and ``source``
    are route sets or compact route artifacts opened for reading one ToR at a time
    (:mod:`controller.tables.artifacts`); ``source_routed`` the destinations that use
    ``source``. ``version`` increases with every recomputation; ``schedule_version``
    only when the schedule itself changes (the OCS emulators' circuits depend on
    nothing else)."""

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
    #: how these routes differ from the version before them, where that is known cell by
    #: cell (a failure's routes repaired label by label): an update then builds and writes
    #: only the entries of those cells (:meth:`Role.routes_delta`); None: build them whole
    delta: "RoutesDelta | None" = None


@dataclass(frozen=True, eq=False)
class RoutesDelta:
    """What changed from ``base`` (the routes the network ran before, without a delta of its
    own: no chain of versions is kept) to the routes holding this delta: per ToR, the
    (arrival slice, destination) cells whose per-hop alternatives differ
    (:func:`controller.routing.uro_incremental.repair`), and per source ToR the (destination,
    start slice) cells whose source-route groups differ
    (:func:`controller.routing.ucmp_incremental.changed_cells`; None: the source routes
    are the same object); every other route -- route modes, the other cells -- is equal."""

    base: Routes
    per_hop_cells: dict[int, np.ndarray]
    source_cells: dict[int, np.ndarray] | None = None

    def counts(self) -> dict[str, int]:
        """What the routes log says of it: the changed per-hop cells and the ToRs they are
        on; with source routes, their changed cells and the source ToRs."""
        out = {"changed_cells": sum(len(c) for c in self.per_hop_cells.values()),
               "changed_tors": len(self.per_hop_cells)}
        if self.source_cells is not None:
            out.update(changed_source_cells=sum(len(c) for c in self.source_cells.values()),
                       changed_source_tors=len(self.source_cells))
        return out


class Role(abc.ABC):
    name: ClassVar[str]
    #: its config entry carries the failure masks (down uplinks, dead (slice, uplink) pairs):
    #: a failure's phase 1 writes only to switches of such roles
    has_mask: ClassVar[bool] = False

    def __init__(self, contract: dict, tor: int | None = None, capacity_bytes: int | None = None,
                 bytes_per_us: int | None = None, clock: ClockParams | None = None,
                 schedule: Schedule | None = None, liveness: LivenessParams | None = None):
        self.contract = contract
        self.tor = tor
        self.capacity_bytes = capacity_bytes      # None: the program's (profile) values
        self.bytes_per_us = bytes_per_us
        # the slice clock's parameters and the full schedule (its circuits name a ToR's sync
        # peers): with both, and a program that keeps the clock, its entries are static
        self.clock = clock
        self.schedule = schedule
        # liveness per circuit rides on the clock's exchange: a static entry with it (None: off)
        self.liveness = liveness
        self._cfg_codec: tuple | None = None
        self._static: Batch | None = None

    def clock_lead(self) -> bool:
        """This switch is the ToR the clock's config names first among the lead candidates
        (:meth:`ClockParams.lead_at_start`): what its seed tells a program that keeps no
        election (:meth:`SwitchBackend.seed_clock`'s ``lead``)."""
        return self.keeps_clock() and self.tor is not None and self.clock.lead_at_start(self.tor)

    def left_out(self, routes: Routes) -> bool:
        """``routes`` leave this switch's ToR out (it is declared failed): the switch needs
        them not, and a network-wide update that waited for it would wait for a switch
        that may well not answer. One that does keeps the generation it had, which no
        route of the others leads to; it gets the routes once declared back."""
        return self.tor is not None and self.tor in routes.failed.tors

    def keeps_clock(self) -> bool:
        """The program keeps the slice clock (its ``clock_config`` table) and the role was
        given the clock's parameters: its static entries carry the clock's."""
        return self.clock is not None and "clock_config" in self.contract.get("tables", {})

    # ---- desired state ---------------------------------------------------------------------
    @abc.abstractmethod
    def static(self) -> Batch:
        """Entries that do not depend on the routes."""

    @abc.abstractmethod
    def routes(self, routes: Routes, generation: int) -> Batch:
        """The route entries (and members/groups) of ``generation``."""

    def check_routes(self, routes: Routes, generation: int) -> tuple[int, Batch | None]:
        """:meth:`routes`' checks, raising what it raises, and how many objects it makes:
        (that count, the batch where it was built to tell, else None). Default: built."""
        b = self.routes(routes, generation)
        return b.objects(), b

    def routes_delta(self, routes: Routes, generation: int) -> tuple[Batch, Batch] | None:
        """(the entries of ``routes.delta.base``, those of ``routes``) of ``generation`` that
        differ between the two, built alone (equal entries may be in both): diffing one
        against the other turns the base's generation into these routes'. None where this
        role cannot tell (no delta, another table layout): build :meth:`routes` whole."""
        return None

    def routes_as(self, batch: Batch, generation: int) -> Batch | None:
        """:meth:`routes` of the same routes for ``generation``, derived from ``batch`` (the
        other generation's) where that is cheaper than building it again; None: build it."""
        return None

    def objects_as(self, objects: Sequence, generation: int) -> Sequence | None:
        """The objects of :meth:`routes_as` for ``generation``, one for each of ``objects``
        (the other generation's route objects, in any order), each made only when asked
        for, with its :attr:`~controller.tables.bulk.Regenerated.key` and
        :attr:`~controller.tables.bulk.Regenerated.value` (what a table entry of an action
        differs in); None where this role derives none."""
        return None

    @abc.abstractmethod
    def config(self, generation: int, down: frozenset[int] = frozenset(),
               live: frozenset[int] | None = None, dead: frozenset[tuple[int, int]] = frozenset()) -> TableEntry:
        """The entry whose write activates ``generation`` with uplinks ``down`` masked;
        ``live``: the generations complete on the switch (default: ``generation`` only;
        a ToR routes packets stamped with a live generation by it, docs/p4.md); ``dead``:
        the (slice, uplink) pairs whose circuit leads to a dead ToR."""

    @abc.abstractmethod
    def version(self, routes: Routes) -> Hashable:
        """What this role's route entries depend on: equal versions, equal entries."""

    def down_uplinks(self, failed: Failed) -> frozenset[int]:
        """The uplinks the data plane must treat as down (roles without a mask: none)."""
        return frozenset()

    def dead_slots(self, schedule: Schedule, failed: Failed) -> frozenset[tuple[int, int]]:
        """The (slice, uplink) pairs the data plane must treat as down (roles without: none)."""
        return frozenset()

    # ---- reading the switch back ------------------------------------------------------------
    def _codec(self):
        """(config table, set action, generation param, {uplink: (param, bit)}) derived by
        building config entries that differ in one argument, so that the reading side
        never guesses a parameter name."""
        if self._cfg_codec is None:
            base_e = self.config(0, frozenset())
            one = dict(self.config(1, frozenset()).params)
            p0 = dict(base_e.params)
            gen = [k for k in p0 if p0[k] != one.get(k)]
            bits = {}
            for u in range(self.contract["profile"]["uplinks"]):
                try:
                    pu = dict(self.config(0, frozenset({u})).params)
                except Exception:   # a role without a down mask
                    break
                diff = [k for k in p0 if p0[k] != pu.get(k)]
                if len(diff) == 1:
                    bits[u] = (diff[0], pu[diff[0]] ^ p0[diff[0]])
            live = {}
            try:
                both = dict(self.config(0, frozenset(), frozenset({0, 1})).params)
                for k in p0:
                    if p0[k] != both.get(k):
                        live = {k: (p0[k], both[k])}   # (mask of {0}, mask of {0, 1})
            except Exception:   # a role without live generations
                pass
            gen = [k for k in gen if k not in live]
            self._cfg_codec = (base_e.table, base_e.action, gen[0] if len(gen) == 1 else None, bits, live)
        return self._cfg_codec

    def config_table(self) -> str:
        return self._codec()[0]

    def live(self, state: Batch) -> frozenset[int]:
        """The generations the config entry of ``state`` declares complete (a role without
        live generations: the active one)."""
        table, action, gen_param, bits, live = self._codec()
        act, _ = self.active(state)
        if act is None:
            return frozenset()
        if not live:
            return frozenset({act})
        (name, (one, both)), = live.items()
        for e in state.entries:
            if is_config(e, table):
                m = dict(e.params).get(name, 0)
                return frozenset(g for g in (0, 1) if m >> g & 1)
        return frozenset()

    def active(self, state: Batch) -> tuple[int | None, frozenset[int]]:
        """(active generation, down uplinks) from the config entry of ``state``;
        generation None: the switch is unconfigured (drops everything but timers)."""
        table, action, gen_param, bits, _ = self._codec()
        for e in state.entries:
            if is_config(e, table):
                if e.action != action:
                    return None, frozenset()
                p = dict(e.params)
                gen = p.get(gen_param, 0) if gen_param else 0
                down = frozenset(u for u, (name, bit) in bits.items() if p.get(name, 0) & bit)
                return gen, down
        return None, frozenset()


def is_config(e: TableEntry, config_table: str) -> bool:
    """Whether ``e`` is a switch's config entry: the default entry of its config table
    (active generation, live generations, down mask)."""
    return e.is_default and e.table == config_table


def entry_generation(e: TableEntry) -> int | None:
    for k, v in e.match:
        if k == GENERATION_KEY:
            return v
    return None


class TorRole(Role):
    """A ToR: host table and DSCP buckets static; URO per-hop, route mode and SSRR paths
    per generation; config = ToR id, slice capacity, generation, down mask."""

    name = "tor"
    has_mask = True

    def static(self) -> Batch:
        """The host plan and DSCP buckets; with the clock, its ``sync_peer`` entries and its
        ``clock_config`` (``clock_off`` in timer mode, so a switch left in sync mode by an
        earlier run takes the daemon's timers again). Built once per role (what they depend
        on does not change): every phase of every update compares or diffs with it; callers
        never change it."""
        if self._static is None:
            b = tor_batch.static_entries(self.contract, self.tor)
            if self.keeps_clock():
                b.extend(clock_entries.tor_clock_batch(self.contract, self.schedule, self.clock, self.tor))
                if "liveness_config" in self.contract["tables"]:
                    b.entries.append(liveness_entries.liveness_config_entry(
                        self.contract, self.schedule, self.liveness, self.tor))
            self._static = shared_statics(b)
        return self._static

    def routes(self, routes: Routes, generation: int) -> Batch:
        return tor_batch.route_entries(self.contract, self.tor, uro_routes=routes.per_hop,
                                       path_routes=routes.source,
                                       source_routed=[d for d in routes.source_routed if d != self.tor],
                                       generation=generation)

    def check_routes(self, routes: Routes, generation: int) -> tuple[int, Batch | None]:
        # (built whole where the source routes are built anyway and the generation would stay
        # objects in the known state: the daemon keeps such a batch for its first write)
        return tor_batch.check_route_entries(self.contract, self.tor, uro_routes=routes.per_hop,
                                             path_routes=routes.source,
                                             source_routed=[d for d in routes.source_routed if d != self.tor],
                                             generation=generation, build_below=known.COMPACT_MIN_OBJECTS)

    def routes_delta(self, routes: Routes, generation: int) -> tuple[Batch, Batch] | None:
        delta = routes.delta
        if delta is None:
            return None
        base = delta.base
        if routes.source_routed != base.source_routed or (routes.per_hop is None) != (base.per_hop is None):
            return None
        if routes.source is not base.source and delta.source_cells is None:
            return None
        old, new = Batch(), Batch()
        cells = delta.per_hop_cells.get(self.tor)
        if cells is not None and len(cells):
            if routes.per_hop is None:
                return None
            a = bulk.uro_cell_entries(self.contract, base.per_hop, self.tor, cells, generation)
            b = bulk.uro_cell_entries(self.contract, routes.per_hop, self.tor, cells, generation)
            if a is None or b is None:
                return None
            old.entries, new.entries = a, b       # (the only entries yet: kept as columns)
        cells = None if delta.source_cells is None else delta.source_cells.get(self.tor)
        if cells is not None and len(cells):
            sr = [d for d in routes.source_routed if d != self.tor]
            pair = bulk.ssrr_cell_pair(self.contract, base.source, routes.source, self.tor, cells, generation, sr)
            if pair is None:
                return None
            a, b = pair                           # (what is equal in both left out of both)
            # the per-hop cells stay columns beside the source cells' objects (diffed and
            # encoded as columns: controller.agent.diff.diff)
            old = Batch(a.members, a.groups, joined(old.entries, a.entries))
            new = Batch(b.members, b.groups, joined(new.entries, b.entries))
        return old, new

    def routes_as(self, batch: Batch, generation: int) -> Batch:
        return tor_batch.regenerate(batch, generation)

    def objects_as(self, objects: Sequence, generation: int) -> bulk.Regenerated:
        return bulk.Regenerated(objects, generation)

    def config(self, generation: int, down: frozenset[int] = frozenset(),
               live: frozenset[int] | None = None, dead: frozenset[tuple[int, int]] = frozenset()) -> TableEntry:
        kw = {} if self.bytes_per_us is None else {"bytes_per_us": self.bytes_per_us}
        if dead:
            kw["dead_slots"] = sorted(dead)
        return tor_batch.config_entry(self.contract, self.tor, generation, down_uplinks=tuple(sorted(down)),
                                      capacity_bytes=self.capacity_bytes,
                                      live=None if live is None else sorted(live | {generation}), **kw)

    def version(self, routes: Routes) -> Hashable:
        return ("routes", routes.version)

    def down_uplinks(self, failed: Failed) -> frozenset[int]:
        return failed.down_uplinks(self.tor)

    def dead_slots(self, schedule: Schedule, failed: Failed) -> frozenset[tuple[int, int]]:
        """Where this ToR's circuits lead to a failed ToR or into a failed cable, if the
        program has the mask (t2na: none yet, docs/p4.md)."""
        names = {p["name"] for p in self.contract["tables"]["config"]["actions"]["set_config"]["params"]}
        return failed.dead_slots(schedule, self.tor) if "dead" in names else frozenset()


class OcsRole(Role):
    """The OCS emulator: the schedule's circuits per generation (a schedule change is a
    hitless swap too); failures do not change them (routing avoids dead circuits)."""

    name = "ocs"

    def static(self) -> Batch:
        """With the clock: its ``clock_config`` (the reference; ``clock_off`` in timer mode)."""
        return Batch(entries=[clock_entries.ocs_clock_entry(self.contract, self.clock)]) if self.keeps_clock() else Batch()

    def routes(self, routes: Routes, generation: int) -> Batch:
        b = tor_batch.ocs_batch(self.contract, routes.schedule, generation=generation)
        return Batch(b.members, b.groups, [e for e in b.entries if not e.is_default])   # config: see config()

    def config(self, generation: int, down: frozenset[int] = frozenset(),
               live: frozenset[int] | None = None, dead: frozenset[tuple[int, int]] = frozenset()) -> TableEntry:
        if down or dead:
            raise ValueError("the OCS emulator has no down mask")
        return tor_batch.ocs_config_entry(self.contract, generation)

    def version(self, routes: Routes) -> Hashable:
        return ("schedule", routes.schedule_version)


ROLES: dict[str, type[Role]] = {r.name: r for r in (TorRole, OcsRole)}
