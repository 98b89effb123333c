"""What a switch holds as far as its one writer knows: the last state read from it, plus
every write the switch acknowledged since (:class:`KnownState`).

A network-wide update (docs/daemon.md "Network-wide consistency") reads each switch
before it writes (the survey, the prepare, the retire) and once after (the verify). A
P4Runtime read of a (108, 6) ToR (7-14K objects) costs bmv2 0.1-0.45 s; the writer that
made the switch's state need not ask for it again. The reads *before* a write may
therefore start from the known state, and one read of the whole switch per update makes
sure it is right: either the verify after the writes (a known state that is wrong -- a
write by someone else, a switch that lost its tables without a reconnect -- shows there
as a mismatch: the update fails before the flip, the known state is forgotten, and the
retry reads the switch), or, where the backend reads by key (P4Runtime: only the primary
writes), a verify by key of what was written and a reconcile right after the update
(it repairs what an out-of-band write changed). A write that fails, a verify that
fails, a reconnect and a pipeline load forget it too (whatever happened, the switch is
read).

**Route generations are kept as what they hold, not as objects.** Where the writer knows
that route generation ``g`` holds exactly the routes of a version (it noted so after a
write or a comparison that shows it: :meth:`KnownState.compact`), the known state keeps
``g`` as that version and a function that builds its objects, plus the writes into ``g``
since (a failure's changed cells), instead of ``g``'s objects: a ToR of (1024, 32) holds
65K route objects in its two generations (several hundred bytes each as Python objects),
67M for the fabric, more than a controller's memory holds; what it keeps per switch is its
statics, its config entry and the objects written since. Whoever asks for the whole state
(:meth:`KnownState.batch`: the whole path's diffs) gets the generation built again from
its routes (docs/daemon.md "Memory")."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable, Hashable, TypeVar

from controller.agent.diff import Diff
from controller.agent.diff import entry_key, group_key, member_key
from controller.tables.state import GENERATION_ID_BIT, Batch, TableEntry

T = TypeVar("T")

#: a route generation of fewer objects stays objects: building it again for a whole-path
#: update (its survey, its retire) would cost more than it takes (a (108, 6) ToR's 2-7K
#: objects per generation: 1-4 MB), while a (1024, 32) ToR's 32K take ~20 MB per generation
COMPACT_MIN_OBJECTS = 8192

#: the match key of a route table's generation (controller.agent.desired.GENERATION_KEY)
_GENERATION = "generation"


def _entry_gen(key) -> int | None:
    """The route generation of the entry of identity ``key`` (None: static or default)."""
    for k, v in key[1]:
        if k == _GENERATION:
            return v
    return None


def _id_gen(x) -> int:
    """The route generation of an action-profile member or group (bit 31 of its id)."""
    return (x.member_id if hasattr(x, "member_id") else x.group_id) >> GENERATION_ID_BIT


def _gen_of(x, key, kind: int) -> int | None:
    """The route generation of object ``x`` of identity ``key`` and kind ``kind`` (0
    member, 1 group, 2 table entry: :meth:`KnownState._kinds`); None for a static or
    default entry."""
    if kind == 2:
        return None if x.is_default else _entry_gen(key)
    return _id_gen(x)


@dataclass
class _Held:
    """A route generation kept as what it holds: ``make()`` builds its objects (the routes
    of ``version``); ``over``: the writes into it since, per kind (members, groups,
    entries): {identity: object, or None where deleted}."""

    version: Hashable
    make: Callable[[], Batch]
    over: tuple[dict, dict, dict] = field(default_factory=lambda: ({}, {}, {}))


class KnownState:
    """A switch's state (:class:`~controller.tables.state.Batch`) kept up to date with
    the writes applied to it (thread-safe: config writes come from other threads)."""

    def __init__(self, state: Batch):
        self._lock = threading.Lock()
        self._m = {member_key(x): x for x in state.members}
        self._g = {group_key(x): x for x in state.groups}
        self._e = {entry_key(x): x for x in state.entries}
        self._held: dict[int, _Held] = {}           # route generations kept as their routes' version
        # {generation (None: static or default): objects kept as objects}, counted when first
        # asked and kept up to date by every write after (None: not counted)
        self._counts: dict[int | None, int] | None = None
        self._writes = 0                            # writes and compactions so far
        self._batch: Batch | None = None            # the state as one batch, until a write
        # what was made of that batch (split, ...): {key: (value, patch or None)}
        self._derived: dict[Hashable, tuple[object, Callable | None]] = {}

    def _kinds(self):
        return ((self._m, member_key, 0), (self._g, group_key, 1), (self._e, entry_key, 2))

    def apply(self, d: Diff) -> None:
        """The switch acknowledged ``d`` (every update of it)."""
        with self._lock:
            self._batch = None
            self._writes += 1
            kept = {}
            for key, (v, patch) in self._derived.items():
                if patch is not None and (nv := patch(v, d)) is not None:
                    kept[key] = (nv, patch)
            self._derived = kept
            counts, held_gens = self._counts, self._held
            for b, put in ((d.insert, True), (d.modify, True), (d.delete, False)):
                for objs, (table, key, kind) in zip((b.members, b.groups, b.entries), self._kinds()):
                    for x in objs:
                        k = key(x)
                        if counts is None and not held_gens:        # (the common case: nothing to find)
                            if put:
                                table[k] = x
                            else:
                                table.pop(k, None)
                            continue
                        g = _gen_of(x, k, kind)
                        held = None if g is None else held_gens.get(g)
                        if held is not None:
                            held.over[kind][k] = x if put else None
                            gone = table.pop(k, None) is not None
                        elif put:
                            gone = False
                            if counts is not None and k not in table:
                                counts[g] = counts.get(g, 0) + 1
                            table[k] = x
                        else:
                            gone = table.pop(k, None) is not None
                        if gone and counts is not None:
                            counts[g] -= 1

    def _objects_of(self, generation: int) -> int:
        """Objects of route generation ``generation`` kept as objects (:func:`_gen_of`); the
        caller holds the lock. Counted once (every generation in one pass over the objects)
        and kept by :meth:`apply`: a failure's update asks for both generations of every
        switch after each of its writes, and counting them each time was half its CPU at
        (108, 6) with UCMP."""
        if self._counts is None:
            counts: dict[int | None, int] = {}
            for table, _, kind in self._kinds():
                for k, x in table.items():
                    g = _gen_of(x, k, kind)
                    counts[g] = counts.get(g, 0) + 1
            self._counts = counts
        return self._counts.get(generation, 0)

    def compact(self, generation: int, version: Hashable, make: Callable[[], Batch]) -> bool:
        """Route generation ``generation`` holds exactly what ``make()`` builds (the routes
        of ``version``: the writer compared or wrote it): from now on it is kept as that,
        its objects dropped (a generation already kept forgets the writes into it since:
        they made it this version). Returns whether it is kept so (not where ``make()``
        holds fewer than :data:`COMPACT_MIN_OBJECTS` objects -- found without building it
        where the switch, or the generation's objects kept here, are fewer --, or an object
        of no route generation or of another one)."""
        with self._lock:
            held = self._held.get(generation)
            if held is not None:
                if held.version != version or any(held.over):
                    self._held[generation] = _Held(version, make)
                    self._batch = None
                    self._writes += 1
                return True
            if len(self._m) + len(self._g) + len(self._e) < COMPACT_MIN_OBJECTS:
                return False            # (not built to find out: a small switch keeps its objects)
            if self._objects_of(generation) < COMPACT_MIN_OBJECTS:
                # nor a small generation on a switch that holds more (a (108, 6) UCMP ToR's
                # ~4K of its ~8K): its objects are kept here, and building the routes only to
                # count them cost a failure's update more than its writes
                return False
        made = make()
        if len(made.members) + len(made.groups) + len(made.entries) < COMPACT_MIN_OBJECTS:
            return False
        with self._lock:
            if generation in self._held:
                return True
            for objs, (table, key, kind) in zip((made.members, made.groups, made.entries), self._kinds()):
                for x in objs:
                    g = _gen_of(x, key(x), kind)
                    if g != generation:
                        return False
            for objs, (table, key, _) in zip((made.members, made.groups, made.entries), self._kinds()):
                for x in objs:
                    table.pop(key(x), None)
            self._counts = None
            # a dict keeps the room of what it held: copied, they take what they keep (a
            # (1024, 32) ToR's entries dict, read whole, has room for 34K: ~1.3 MB)
            self._m, self._g, self._e = dict(self._m), dict(self._g), dict(self._e)
            self._held[generation] = _Held(version, make)
            self._batch = None
            self._writes += 1
            self._derived = {}
            return True

    def add_generation(self, generation: int, batch: Batch, version: Hashable, make: Callable[[], Batch]) -> None:
        """Route generation ``generation``, empty before, was written with exactly
        ``batch`` (the routes of ``version``; ``make()`` builds them again), every insert
        acknowledged: kept as that version where :meth:`compact` would keep it so (at
        least :data:`COMPACT_MIN_OBJECTS` objects) -- no object of it is looked at --, else
        as its objects (:meth:`apply` of their inserts)."""
        if len(batch.members) + len(batch.groups) + len(batch.entries) < COMPACT_MIN_OBJECTS:
            # (its objects: they may be a sequence that makes them when asked, Role.objects_as)
            self.apply(Diff(insert=Batch(list(batch.members), list(batch.groups), list(batch.entries))))
            return
        with self._lock:
            self._held[generation] = _Held(version, make)
            self._batch = None
            self._writes += 1
            self._derived = {}

    def loose(self) -> Batch:
        """The objects kept as objects (statics, the config entry, defaults, anything of a
        generation not kept as a version), without the held generations' writes since."""
        with self._lock:
            return Batch(list(self._m.values()), list(self._g.values()), list(self._e.values()))

    def beside(self, generation: int) -> Batch:
        """The objects kept as objects that are not of route generation ``generation``
        (:func:`_gen_of`): statics, the config entry, defaults, the other generation's
        objects."""
        with self._lock:
            return Batch(*([x for k, x in table.items() if _gen_of(x, k, kind) != generation]
                           for table, _, kind in self._kinds()))

    def exactly(self, generation: int) -> Hashable | None:
        """The routes version ``generation`` is kept as, where nothing was written into it
        since (it holds exactly ``make()``); else None."""
        with self._lock:
            h = self._held.get(generation)
            return None if h is None or any(h.over) else h.version

    def held(self) -> dict[int, Hashable]:
        """{generation: routes version} of the generations kept as what they hold."""
        with self._lock:
            return {g: h.version for g, h in self._held.items()}

    def holds(self, b: Batch) -> bool:
        """Whether every object of ``b`` is kept here as an object, by identity (what a
        delete of them would find: :meth:`controller.agent.generations.NetworkPhases._write_deferred`)."""
        with self._lock:
            return all(key(x) in table for objs, (table, key, _) in zip((b.members, b.groups, b.entries),
                                                                        self._kinds()) for x in objs)

    def objects(self) -> int:
        """Objects kept as objects (statics, the config entry, writes into held generations)."""
        with self._lock:
            return len(self._m) + len(self._g) + len(self._e) + \
                sum(len(o) for h in self._held.values() for o in h.over)

    def entry(self, key) -> TableEntry | None:
        """The entry of identity ``key`` (:func:`~controller.agent.diff.entry_key`), or None."""
        with self._lock:
            e = self._e.get(key)
            held = self._held.get(_entry_gen(key)) if e is None and self._held else None
            if held is not None and key in held.over[2]:
                return held.over[2][key]
        if held is None:
            return e
        return next((x for x in held.make().entries if entry_key(x) == key), None)

    def batch(self) -> Batch:
        """The state (one object until the next write: its callers only read it); a held
        generation is built again (``make()``) with the writes into it since."""
        with self._lock:
            if self._batch is not None:
                return self._batch
            out = Batch(list(self._m.values()), list(self._g.values()), list(self._e.values()))
            held = [(h, tuple(dict(o) for o in h.over)) for h in self._held.values()]
            writes = self._writes
        for h, over in held:
            made = h.make()
            for objs, into, (_, key, kind) in zip((made.members, made.groups, made.entries),
                                                  (out.members, out.groups, out.entries), self._kinds()):
                into.extend(x for x in objs if key(x) not in over[kind])
                into.extend(x for x in over[kind].values() if x is not None)
        with self._lock:
            if self._batch is None and self._writes == writes:   # no write meanwhile
                self._batch = out
        return out

    def derived(self, key: Hashable, make: Callable[[Batch], T],
                patch: Callable[[T, Diff], T | None] | None = None) -> T:
        """``make(self.batch())``, made once until the next write (an update's survey and
        prepare split the same known state into its generations: 25-30 ms at (108, 6)).

        ``patch(value, diff)``: the value for the state after the write ``diff``, made from
        the old one, or None (made again when next asked). A failure's down mask and an
        update's flips write one config entry each: the split survives them."""
        with self._lock:
            if key in self._derived:
                return self._derived[key][0]  # type: ignore[return-value]
        b = self.batch()
        v = make(b)
        with self._lock:
            if self._batch is b:           # no write meanwhile: still what the state makes
                self._derived[key] = (v, patch)
        return v
