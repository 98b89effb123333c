"""Route generations on one switch: the state as pure functions, and the hitless install
sequence that `uro agent push` and `uro daemon` both run (:class:`GenerationWriter`).

A switch's state (a :class:`~controller.tables.state.Batch` read back from it) splits
into the config entry (active generation + down mask), static entries, and the entries
of generation 0 and 1 (tagged by :data:`~controller.agent.desired.GENERATION_KEY` in
their key) with the selector groups and members they reference. Installing routes moves
it through

    prepare: static + active generation (as it is) + new routes in the other generation
    flip:    the config entry names the other generation (ONE write)
    final:   static + new generation + config

and every intermediate state -- including a half-written prepare left by a crash, and
leftovers of an older push -- is one of: unconfigured (the data plane drops all but
timers), or a complete active generation plus junk in the inactive one. Junk never
matches, so a packet sees exactly one generation (docs/p4.md "Route generations": a
packet latches the generation it arrived under); the next install deletes it. The daemon
keeps the retired generation as the *shadow* of the routes (the same routes keyed by the
other generation, never live; docs/daemon.md "Diff-only writes"): junk of that kind, which
the next install diffs against instead of writing a whole generation.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Callable, Hashable

from controller.agent.backend import BackendError, Inserts
from controller.agent.diff import Diff
from controller.agent.desired import Role, Routes, entry_generation, is_config
from controller.agent.diff import diff as state_diff, entry_key, explain, group_key, member_key, restrict, same_state
from controller.tables.state import Batch, TableEntry, entry_tables


#: a prepare's verify reads back by key only what it wrote (:meth:`GenerationWriter._verify_written`)
#: when that is at most this share of the switch's objects: bmv2 answers an object named
#: by key in about twice the time of one of a whole read (a whole generation written into
#: an empty slot -- 7K of a (108, 6) ToR's 14K -- reads back faster whole)
BY_KEY_MAX_SHARE = 0.35


class GenerationConflict(Exception):
    """Two different objects with one identity in a desired state (e.g. the new generation
    reuses a selector group id of the active one): writing it would touch live state."""


class SwapError(BackendError):
    """The new generation did not read back as written: the old one stays active."""


@dataclass
class Parts:
    config: TableEntry | None = None
    static: Batch = field(default_factory=Batch)
    gens: dict[int, Batch] = field(default_factory=lambda: {0: Batch(), 1: Batch()})
    other_defaults: list[TableEntry] = field(default_factory=list)

    def entries(self, g: int) -> int:
        b = self.gens[g]
        return len(b.entries) + len(b.groups) + len(b.members)


def split(state: Batch, config_table: str) -> Parts:
    """Parts of a switch state (see module docstring). Groups and members belong to the
    part whose entries reference them; unreferenced ones belong to no part (junk that a
    diff against any desired state deletes)."""
    out = Parts()
    owner: dict = {}
    for e in state.entries:
        if is_config(e, config_table):
            out.config = e
            continue
        if e.is_default:
            out.other_defaults.append(e)
            continue
        g = entry_generation(e)
        part = out.static if g is None else out.gens.setdefault(g, Batch())
        part.entries.append(e)
        if e.group_id is not None:
            owner.setdefault(e.group_id, []).append(part)
    groups_by_id = {}
    for grp in state.groups:
        groups_by_id.setdefault(grp.group_id, []).append(grp)
    member_owner: dict = {}
    for gid, parts in owner.items():
        for grp in groups_by_id.get(gid, []):
            for part in {id(p): p for p in parts}.values():
                part.groups.append(grp)
                for mid in grp.member_ids:
                    member_owner.setdefault((grp.profile, mid), {})[id(part)] = part
    for m in state.members:
        for part in member_owner.get((m.profile, m.member_id), {}).values():
            part.members.append(m)
    return out


def static_as_read(parts: Parts, static: Batch) -> Batch:
    """The static part of ``parts`` as :func:`split` read it, plus the default entries of
    other tables that ``static`` names (a static default entry, e.g. the slice clock's
    ``clock_config``: split keeps every table's default apart, since most are the program's
    own), so that it compares with ``static``."""
    named = {entry_key(e) for e in static.entries if e.is_default}
    if not named:
        return parts.static
    return Batch(parts.static.members, parts.static.groups,
                 parts.static.entries + [e for e in parts.other_defaults if entry_key(e) in named])


def config_patched(parts: Parts, d: Diff, config_table: str) -> Parts | None:
    """The :func:`split` of the state after ``d``, made from ``parts`` (the split before)
    when ``d`` writes nothing but the config entry -- a failure's down mask, a flip --
    else None (split again)."""
    if d.delete.entries or any(b.members or b.groups for b in (d.insert, d.modify, d.delete)):
        return None
    written = d.insert.entries + d.modify.entries
    if not all(is_config(e, config_table) for e in written):
        return None
    return replace(parts, config=written[-1]) if written else parts


def combine(*parts: Batch | TableEntry | None) -> Batch:
    """One batch of several (identical duplicates merged); raises
    :class:`GenerationConflict` when two different objects share an identity."""
    members, groups, entries = {}, {}, {}

    def put(d, k, x, what):
        if k in d and d[k] != x:
            raise GenerationConflict(f"two different {what} with the identity {k!r}: {d[k]} and {x}")
        d[k] = x

    for p in parts:
        if p is None:
            continue
        if isinstance(p, TableEntry):
            put(entries, entry_key(p), p, "entries")
            continue
        for m in p.members:
            put(members, member_key(m), m, "members")
        for g in p.groups:
            put(groups, group_key(g), g, "groups")
        for e in p.entries:
            put(entries, entry_key(e), e, "entries")
    return Batch(list(members.values()), list(groups.values()), list(entries.values()))


def prepare_state(parts: Parts, active: int, static: Batch, new_routes: Batch) -> Batch:
    """Desired state before a flip: the active generation untouched, the new routes in
    the other generation, statics as desired, the config entry as it is."""
    return combine(static, parts.gens[active], new_routes, parts.config)


def final_state(static: Batch, routes: Batch, config: TableEntry, shadow: Batch | None = None) -> Batch:
    """A switch running ``routes``; ``shadow``: the same routes keyed by the other
    generation, never live (:meth:`NetworkPhases.retire_generation`), or None (that
    generation empty)."""
    return combine(static, routes, shadow, config)


def unconfigured_state(static: Batch, routes: Batch) -> Batch:
    """An unconfigured switch: statics and the first generation, config not yet written
    (it drops everything but timers until the config entry -- the flip -- is written)."""
    return combine(static, routes)


def objects(b: Batch) -> int:
    return b.objects()


def unreachable_deletes(d: Diff) -> tuple[Diff, Diff]:
    """``d`` as (what a generation needs before it goes live, what may wait until after):
    the second is ``d``'s deletes of action-profile members and selector groups. Once the
    first is written, no table entry names a group of the second, nor a group of the first
    a member of it (``d`` leads to a state whose entries and groups name only what it
    holds, and the first holds every insert, modify and entry delete of ``d``), so the
    generation forwards exactly as the whole of ``d`` would make it; the objects left are
    reached by no lookup until the second deletes them. A dead ToR's update deletes every
    route towards it and every path through it: on the (108, 6) UCMP fabric a third of a
    ToR's prepare is member and group deletes, which a prepare that leaves them to the
    retire (after the flip) neither writes nor reads back before its generation is live
    (docs/fabric.md "Deletes after the flip")."""
    later = Diff(delete=Batch(d.delete.members, d.delete.groups, []))
    if later.empty:
        return d, later
    return Diff(d.insert, d.modify, Batch(entries=d.delete.entries)), later


def fresh_slot(rb: Batch, *beside: Batch) -> bool:
    """Whether route objects ``rb`` go into an empty slot beside the states ``beside``: no
    object of these shares a table or an action profile with ``rb`` (default entries
    aside) and ``rb`` has no default entry. Then no identity of ``rb`` is among them, and
    the diff from a state ``actual`` to ``combine(x, rb)`` is the diff from ``actual`` to
    ``x`` plus the inserts of ``rb`` -- what :meth:`NetworkPhases.prepare_generation` and
    :meth:`NetworkPhases.retire_generation` write then, without a diff of ``rb``'s
    objects (a (1024, 32) ToR's 33K per generation)."""
    counted, default = entry_tables(rb.entries)
    if default:
        return False
    tables = set(counted)
    profiles = {x.profile for x in rb.members} | {x.profile for x in rb.groups}
    for b in beside:
        if any(e.table in tables and not e.is_default for e in b.entries) or \
                any(x.profile in profiles for x in b.members) or any(x.profile in profiles for x in b.groups):
            return False
    return True


# ---- the install sequence ---------------------------------------------------------------------
@dataclass
class Installed:
    """What :meth:`GenerationWriter.install_routes` did.

    ``outcome``: "installed" (an unconfigured switch got generation 0, config written
    last), "current" (the active generation already held these routes; leftovers of the
    inactive one deleted, the config entry set if it differed) or "swapped" (the routes
    written into the other generation beside the active one, read back, activated by one
    write, the old generation deleted)."""

    outcome: str
    generation: int                 # active afterwards
    previous: int | None            # active before (None: unconfigured)
    written: int = 0                # updates before the activation (or the cleanup of "current")
    deleted: int = 0                # updates after the activation (the old generation)
    objects: int = 0                # static + routes + the config entry, as now on the switch
    verify_s: float = 0.0           # first write -> new generation read back as written
    active_s: float = 0.0           # first write -> activated
    total_s: float = 0.0
    #: a first install whose shadow was left for a later phase, queued behind every switch's
    #: install (:meth:`GenerationWriter._shadow_later`): the caller writes it (``retire_generation``)
    shadow_pending: bool = False


class GenerationWriter:
    """Brings one switch to a version of the routes without a packet ever seeing half of
    two generations (see module docstring), given a :class:`~controller.agent.desired.Role`.

    The sequence is the same for `uro agent push` (:mod:`controller.agent.push`) and the
    daemon (:class:`controller.daemon.switch.SwitchAgent`); they differ only in how they
    talk to the switch, which they supply by overriding the I/O methods below (the daemon
    adds locks, chunking and metrics; the push a progress bar and a write report)."""

    role: Role
    #: seconds a packet stamped with the old generation can still be inside this switch
    #: after its sources stamp the new one (held for a later slice, queued): a swap keeps
    #: the old generation routed that long before retiring it. A table looked up after the
    #: queues (t2na's ``ssrr_hops`` in egress) misses once it is deleted. The daemon sets it
    #: from its clock (:meth:`controller.daemon.controller.Controller.drain_s`); 0: no wait.
    drain_s: float = 0.0

    #: a generation written into an empty slot (a ToR's first install, its first shadow) is
    #: written as inserts without a diff of its objects and its read-back compared in bulk
    #: (:meth:`_write_fresh`, :meth:`_verify_fresh`); False: the whole state diffed and read
    #: back object by object, as any other write (the reference `uro bench --suite fabric
    #: --large-tors N` measures it against; tests compare the two)
    fresh_writes: bool = True

    # ---- I/O (overridden) -----------------------------------------------------------------
    def _writes_fresh(self) -> bool:
        """Whether this writer writes and verifies an empty slot in bulk (:meth:`_write_fresh`,
        :meth:`_read_fresh`); default: no (every write is a diff, every verify a read)."""
        return False

    def _write_fresh(self, generation: int, rb: Batch, routes: Routes,
                     encoded: Inserts | None = None) -> tuple[int, object]:
        """Insert ``rb`` (the route objects of ``routes`` in ``generation``, no identity of
        which the switch holds: :func:`fresh_slot`; ``encoded``: their encoding where it is
        made already, :meth:`_fresh_as`); returns (updates written, what
        :meth:`_read_fresh` compares the read-back with). Default: a diff of its inserts."""
        return self._write(Diff(insert=rb)), None

    def _shadow_failed(self, e: BackendError) -> None:
        """The shadow :meth:`NetworkPhases.prepare_generation` wrote after an install failed:
        nothing depends on it (the next update writes a whole generation). Default: raised."""
        raise e

    def _shadow_later(self) -> bool:
        """Whether a first install's shadow (:meth:`NetworkPhases.prepare_generation` with
        ``shadow``) is left for a later phase, queued behind every switch's install, what it
        derives from kept for it (:meth:`_fresh_as`): the network then carries its routes
        about one generation's writes sooner. Default: no (the shadow is written at once)."""
        return False

    def _fresh_as(self, routes: Routes, generation: int) -> tuple[Batch, Inserts, Batch] | None:
        """The route objects of ``routes`` in ``generation`` (they may be made only when
        asked for: :meth:`Role.objects_as`), their encoding, and objects of the same tables,
        action profiles and default entries (what :func:`fresh_slot` looks at: the other
        generation's), derived from the other generation's as this writer wrote them into
        an empty slot in this phase (:meth:`_write_fresh`; same routes, only the generation
        differs), for a ToR's first shadow; None where it kept none (default): they are
        built and encoded."""
        return None

    def _read_fresh(self, written) -> tuple[list[int], Batch] | None:
        """The switch read whole against ``written`` (:meth:`_write_fresh`'s):
        (:meth:`~controller.agent.backend.SwitchBackend.read_state_beside`'s indexes of
        objects not held as written, the other objects it holds), or None where this writer
        cannot (the verify then reads and compares object by object: :meth:`_verify`)."""
        return None

    def _fresh_verified(self, generation: int, rb: Batch, routes: Routes, rest: Batch | None) -> None:
        """Hook: the bulk verify of a fresh write of ``generation`` passed; ``rest``: every
        other object the switch holds (``generation`` holds exactly ``rb``), or None where
        the switch answered some of ``rb`` in other bytes than written (equal as objects)
        or the verify failed: the switch is read again before it is trusted."""

    def _known_beside(self, generation: int, version: Hashable) -> Batch | None:
        """The objects this writer knows the switch holds besides route generation
        ``generation``, where it knows that generation holds exactly the routes of
        ``version`` and nothing else; None where it does not know so (default)."""
        return None

    def _read(self) -> Batch:
        """The switch's state."""
        raise NotImplementedError

    def _read_known(self) -> tuple[Batch, Parts]:
        """The switch's state as this writer knows it (its last read plus its writes
        since, :mod:`controller.agent.known`), and its :func:`split`: the reads before a
        write may use it, the verify after one never does. Default: read the switch."""
        return self._read_split()

    def _read_split(self) -> tuple[Batch, Parts]:
        """The switch's state read now, and its :func:`split` (a writer that keeps the known
        state keeps this split with it: the next update's survey starts from it)."""
        actual = self._read()
        return actual, split(actual, self.role.config_table())

    def _read_objects(self, objects: Batch) -> Batch:
        """The objects of ``objects`` the switch holds, read by identity
        (:meth:`~controller.agent.backend.SwitchBackend.read_objects`). Default: picked
        from a read of the whole switch."""
        return restrict(self._read(), objects)

    def _knows_state(self) -> bool:
        """Whether the state this writer's diffs start from is what the switch holds (its
        last read plus this writer's acknowledged writes since): then a prepare's verify
        reads back only what it wrote (:meth:`_verify_written`). Default: yes (the default
        :meth:`_read_known` reads the switch)."""
        return True

    def _write(self, d: Diff) -> int:
        """Write ``d`` (dependency-ordered by the backend); returns updates written."""
        raise NotImplementedError

    def _defers_deletes(self) -> bool:
        """Whether a prepare may leave the deletes its generation does not need
        (:func:`unreachable_deletes`) to the switch's next retire (:meth:`_keep_deferred`).
        Default: no (written with the rest)."""
        return False

    def _keep_deferred(self, d: Diff) -> None:
        """Keep ``d`` (deletes written after the flip) for :meth:`_take_deferred`; only
        called where :meth:`_defers_deletes`."""
        raise NotImplementedError

    def _take_deferred(self) -> Diff | None:
        """What :meth:`_keep_deferred` kept, taken, where the switch is still known to hold
        every object it deletes; None where nothing is kept, or where the state it was
        diffed against is no longer what this writer knows (whoever reads the switch next
        finds those objects, reached by no lookup, and deletes them as any difference)."""
        return None

    def _flip(self, generation: int, live: frozenset[int] | None = None) -> None:
        """One write of the config entry: ``generation`` active (the one a ToR stamps into
        its hosts' packets) and ``live`` the generations complete on the switch (default:
        ``generation`` only)."""
        raise NotImplementedError

    def _wait(self, seconds: float) -> None:
        """Sleep (a writer with its own clock overrides it)."""
        time.sleep(seconds)

    def _sync_config(self, actual_config: TableEntry | None) -> int:
        """Make the config entry say what it should for the active generation (drift, a
        down mask); returns updates written."""
        raise NotImplementedError

    def _set_active(self, generation: int | None) -> None:
        """Told the active generation as read from the switch, before anything is written."""

    def _set_live(self, live: frozenset[int]) -> None:
        """Told the live generations as read from the switch (or as they are to be)."""

    def _routes_batch(self, routes: Routes, generation: int) -> Batch:
        return self.role.routes(routes, generation)

    def _routes_delta(self, routes: Routes, generation: int) -> tuple[Batch, Batch] | None:
        """:meth:`~controller.agent.desired.Role.routes_delta` (a writer may keep it)."""
        return self.role.routes_delta(routes, generation)

    def _holds(self) -> dict[int, Hashable]:
        """{generation: the ``role.version`` of the routes it holds, exactly}, as far as this
        writer knows without reading or building anything: true of the state its diffs start
        from (:meth:`_read_known`), forgotten with it and by any write of route objects it
        did not note. Default: nothing known (every update builds and compares)."""
        return {}

    def _note_holds(self, holds: dict[int, Hashable]) -> None:
        """Told what the generations hold now, after a write or a comparison that shows it."""

    def _known_config(self) -> TableEntry | None:
        """The config entry of the state :meth:`_read_known` would give, without making that
        state (None: not known)."""
        return None

    def _objects_now(self) -> int:
        """Objects of the switch's active part (statics, routes, config) as last installed."""
        return 0

    def _swap_starting(self, routes: Routes, new: int, active: int, routes_batch: Batch) -> None:
        """Hook: a swap is about to write ``routes`` as generation ``new`` beside ``active``."""

    def _swap_failed(self, e: BackendError) -> None:
        """Hook: a swap failed (the old generation stays active)."""

    def _slot_rewritten(self, e: BackendError) -> bool:
        """Hook: a diff into a generation that is not live failed (``e``); returns whether
        to empty that generation and write it whole instead (not when the switch is gone:
        that is the caller's error)."""
        return True

    @property
    def label(self) -> str:
        return getattr(self, "name", "switch")

    # ---- the sequence -----------------------------------------------------------------------
    def install_routes(self, routes: Routes, first_generation: int = 0) -> Installed:
        """Bring the switch (running the right pipeline) to ``routes``; see :class:`Installed`.

        Raises BackendError; whatever happened before, the switch is unconfigured or runs
        one complete generation, and calling again finishes the job (it re-reads)."""
        t0 = time.perf_counter()
        actual, parts = self._read_split()
        act, _ = self.role.active(actual)
        static = self.role.static()
        self._set_active(act)
        if act is None:
            g0 = first_generation
            rb = self._routes_batch(routes, g0)
            # the config entry (a default entry: a diff that does not name it leaves it as
            # it is) says "unconfigured" until the flip
            written = self._write(state_diff(actual, unconfigured_state(static, rb)))
            self._verify(g0, rb, static, expect_active=None)
            t_v = time.perf_counter()
            self._flip(g0)
            t_a = time.perf_counter()
            return Installed("installed", g0, None, written, 0, objects(rb) + objects(static) + 1,
                             t_v - t0, t_a - t0, time.perf_counter() - t0)
        cur = self._routes_batch(routes, act)
        self._set_live(self.role.live(actual))
        if same_state(parts.gens[act], cur):
            # the other generation is taken out of `live` before its entries are deleted
            # (kept if it is these routes' shadow: the next update then writes a diff)
            self._set_live(frozenset({act}))
            d = state_diff(actual, combine(static, cur, self._shadow(parts, routes, act)))   # config: synced
            n = self._sync_config(parts.config) + self._write(d)
            return Installed("current", act, act, n, 0, objects(cur) + objects(static) + 1,
                             total_s=time.perf_counter() - t0)
        return self._swap(routes, actual, parts, act, static)

    def _shadow(self, parts: Parts, routes: Routes, active: int) -> Batch | None:
        """The inactive generation of ``parts`` if it holds exactly ``routes`` (a shadow
        left by :meth:`NetworkPhases.retire_generation`), else None."""
        other = 1 - active
        if not objects(parts.gens[other]):
            return None
        sb = self._routes_batch(routes, other)
        return sb if same_state(parts.gens[other], sb) else None

    def _write_slot(self, actual: Batch, desired: Batch, base: Callable[[], Batch]) -> tuple[int, Diff | None]:
        """Make the switch ``desired`` = ``base()`` plus a generation that is not live here
        (the slot) from ``actual``, writing only what differs: whatever the slot held (a
        shadow, a partial write a crash left, junk) is content to diff against. The config
        entry is left as it is where ``desired`` does not name it (a diff leaves a default
        entry it does not name alone: a down mask written meanwhile stays). A target that
        refuses an in-place change (a group whose size limit differs, ...) makes the slot
        be emptied and written whole instead (``generation.diff_refused``): nothing of it
        is live, so no packet sees either write (docs/daemon.md "Diff-only writes").
        ``base`` is made only then (a failure's prepare does not combine 7K objects for it).
        Returns the updates written and the diff written (None: the slot was written whole)."""
        d = state_diff(actual, desired)
        try:
            return self._write(d), d
        except BackendError as e:
            if not self._slot_rewritten(e):
                raise
        b = base()
        n = self._write(state_diff(self._read(), b))
        return n + self._write(state_diff(b, desired)), None

    def _verify(self, generation: int, rb: Batch, static: Batch, expect_active) -> tuple[Batch, Parts]:
        """Read the switch back: ``generation`` holds ``rb``, the statics ``static``, and
        ``expect_active`` is still the active one; returns the state read and its split."""
        after, p = self._read_split()
        self._check_read(generation, p.gens[generation], rb, after, p, static, expect_active)
        return after, p

    def _check_read(self, generation: int, got: Batch, want: Batch, read: Batch, p: Parts, static: Batch,
                    expect_active) -> None:
        """A read-back (``read``, split into ``p``) as written: ``got`` (what ``generation``
        holds, or the part of it compared) is ``want``, the statics ``static``, and
        ``expect_active`` is still the active generation; else :class:`SwapError`."""
        if not same_state(got, want):
            raise SwapError(f"switch {self.label!r}: generation {generation} did not read back as written: "
                            f"{explain(got, want)}")
        got_static = static_as_read(p, static)
        if not same_state(got_static, static):
            raise SwapError(f"switch {self.label!r}: static entries did not read back as written: "
                            f"{explain(got_static, static)}")
        act, _ = self.role.active(read)
        if act != expect_active:
            raise SwapError(f"switch {self.label!r}: active generation changed behind our back "
                            f"({expect_active} -> {act})")

    def _verify_fresh(self, generation: int, rb: Batch, static: Batch, expect_active, written,
                      routes: Routes) -> None:
        """:meth:`_verify` of a generation written into an empty slot by :meth:`_write_fresh`,
        in bulk: the switch read whole, what it answers compared with what was written as
        the backend encoded it (P4Runtime: the entity bytes), and only the rest decoded --
        the statics, the config entry, defaults, and anything of ``generation`` that is not
        what was written. A missing, different or unexpected object of ``generation`` fails
        it as :meth:`_verify` does, and so do statics that differ and another active
        generation. Where this writer cannot compare in bulk (:meth:`_read_fresh` None),
        :meth:`_verify`."""
        got = self._read_fresh(written)
        if got is None:
            self._verify(generation, rb, static, expect_active)
            return
        missing, rest = got
        try:
            p = split(rest, self.role.config_table())
            other = p.gens[generation]         # read back in other bytes than written, or not written
            want = Batch()
            if missing:                        # compared as objects: what was not found as written
                objs = [*rb.members, *rb.groups, *rb.entries]
                want = Inserts([objs[i] for i in missing]).batch()
            self._check_read(generation, other, want, rest, p, static, expect_active)
        except BackendError:
            self._fresh_verified(generation, rb, routes, None)
            raise
        self._fresh_verified(generation, rb, routes, None if missing or objects(other) else rest)

    def _verify_written(self, d: Diff, config: TableEntry, expect_active: int) -> None:
        """Read back what ``d`` wrote, by identity (:meth:`_read_objects`): what it inserted
        or modified holds what was written, what it deleted is gone, and ``expect_active``
        is still the active generation (the config entry ``config`` names is read with
        them). Used where the state ``d`` was diffed against is what the switch holds
        (:meth:`_knows_state`): the rest of the slot is then as known, and the generation
        complete as :meth:`_verify` would find it (docs/daemon.md "One read per switch and
        update")."""
        want = Batch(d.insert.members + d.modify.members, d.insert.groups + d.modify.groups,
                     d.insert.entries + d.modify.entries)
        # the config entry is read with them: a default entry ``want`` does not name, which
        # same_state leaves out of the comparison
        got = self._read_objects(Batch(want.members + d.delete.members, want.groups + d.delete.groups,
                                       want.entries + d.delete.entries + [config]))
        act, _ = self.role.active(got)
        if not same_state(got, want):
            raise SwapError(f"switch {self.label!r}: what was written did not read back as written: "
                            f"{explain(got, want)}")
        if act != expect_active:
            raise SwapError(f"switch {self.label!r}: active generation changed behind our back "
                            f"({expect_active} -> {act})")

    def _prepare(self, parts: Parts, act: int, static: Batch, rb: Batch, new: int):
        """The state to write beside the live generation ``act`` (:func:`prepare_state`); a
        conflict with live state is the switch's error."""
        try:
            return prepare_state(parts, act, static, rb)
        except GenerationConflict as e:
            raise BackendError(f"switch {self.label!r}: generation {new} would overwrite live state of "
                               f"generation {act}: {e}") from None

    def _swap(self, routes: Routes, actual: Batch, parts: Parts, act: int, static: Batch) -> Installed:
        new = 1 - act
        rb = self._routes_batch(routes, new)
        t0 = time.perf_counter()
        self._swap_starting(routes, new, act, rb)
        try:
            prepare = self._prepare(parts, act, static, rb, new)
            if new in self.role.live(actual):      # left live by an interrupted sequence
                self._flip(act)                    # (only `act` live)
            written = self._write(state_diff(actual, prepare))
            after, _ = self._verify(new, rb, static, expect_active=act)
            t_v = time.perf_counter()
            both = frozenset({act, new})
            self._flip(act, both)                  # stamps of `new` are routed here from now on
            self._flip(new, both)                  # this switch's sources stamp `new`
            t_a = time.perf_counter()
            if self.drain_s > 0:                   # packets stamped `act` still inside leave first
                self._wait(self.drain_s)
            self._flip(new)                        # only `new` live: `act` is no longer routed here ...
            deleted = self._write(state_diff(after, combine(static, rb)))   # ... and deleted (config: flipped)
        except BackendError as e:
            self._swap_failed(e)
            raise
        return Installed("swapped", new, act, written, deleted, objects(rb) + objects(static) + 1,
                         t_v - t0, t_a - t0, time.perf_counter() - t0)


# ---- network-wide phases (docs/daemon.md "Network-wide consistency") -------------------------
@dataclass(frozen=True)
class Survey:
    """One switch as read before a network-wide update: its active (stamped) generation,
    the generations its config declares live, and those of them that hold exactly the
    routes."""

    active: int | None
    live: frozenset[int]
    holds: frozenset[int]


class NetworkPhases:
    """The per-switch steps of a network-wide, per-packet consistent update (Reitblatt et
    al., "Abstractions for Network Update", SIGCOMM 2012, two-phase update with version
    stamps); the order across switches is the controller's
    (:meth:`controller.daemon.controller.Controller.install_all`):

    1. :meth:`prepare_generation` on every switch: the routes written into the inactive
       generation, read back, then declared live (one config write): from then on a
       packet stamped with it elsewhere is routed by it here;
    2. :meth:`activate_generation` on every switch: its sources stamp the new generation
       (one config write);
    3. the controller waits until every packet stamped with the old one has left;
    4. :meth:`retire_generation`: the old generation taken out of ``live`` (one write),
       then rewritten as the shadow of the new one (or deleted), so that the next
       update's phase 1 writes only what differs.

    At any point (a crash included) every live generation of every switch is complete,
    and a packet is routed by the generation its source stamped on every ToR it crosses,
    or dropped and counted (``stale_gen``) where that generation is not live."""

    def survey(self: GenerationWriter, routes: Routes) -> Survey:
        version = self.role.version(routes)
        known = self._known_generations()
        if known is not None and all(g in known[2] for g in known[1]):
            act, live, had = known               # what each live generation holds is known
            self._set_active(act)
            self._set_live(live)
            return Survey(act, live, frozenset(g for g in live if had[g] == version))
        actual, parts = self._read_known()
        act, _ = self.role.active(actual)
        live = self.role.live(actual)
        self._set_active(act)
        self._set_live(live)
        # only live generations are asked: the update's choices are among them (a shadow,
        # never live, holds the routes as well; comparing it is a diff of a whole generation)
        holds = frozenset(g for g in sorted(live) if same_state(parts.gens[g], self._routes_batch(routes, g)))
        self._note_holds({**self._holds(), **{g: version for g in holds}})
        return Survey(act, live, holds)

    def _known_generations(self: GenerationWriter) -> tuple[int, frozenset[int], dict] | None:
        """(active generation, live generations, :meth:`_holds`) from what this writer knows,
        without making the known state; None where that is not known or nothing is active."""
        had = self._holds()
        cfg = self._known_config() if had else None
        if cfg is None:
            return None
        one = Batch(entries=[cfg])
        act, _ = self.role.active(one)
        return None if act is None else (act, self.role.live(one), had)

    def _prepare_delta(self: GenerationWriter, routes: Routes, new: int) -> Installed | None:
        """Phase 1 written as a difference of the changed cells only: where the slot ``new``
        (not live) is known to hold the routes these were made from (``routes.delta.base``:
        the shadow a retire left), the entries of the cells that changed are built for both
        (:meth:`~controller.agent.desired.Role.routes_delta`), their difference is written,
        read back by key, and ``new`` declared live. Nothing else is built, compared or
        split: the cost follows the failure, not the size of a generation. None where that
        does not apply (the whole phase runs instead)."""
        delta = getattr(routes, "delta", None)
        known = self._known_generations() if delta is not None and self._knows_state() else None
        if known is None:
            return None
        act, live, had = known
        if act == new or new in live or had.get(new) != self.role.version(delta.base):
            return None
        parts = self._routes_delta(routes, new)
        if parts is None:
            return None
        t0 = time.perf_counter()
        self._set_active(act)
        self._set_live(live)
        d = state_diff(*parts)
        # the members and groups no entry reaches once the rest is written: deleted after
        # the flip, by this switch's next phase (its retire), out of the network's way
        now, later = unreachable_deletes(d) if self._defers_deletes() else (d, Diff())
        self._swap_starting(routes, new, act, parts[1])
        try:
            try:
                written = self._write(now)
            except BackendError as e:
                # a change the target refuses in place (a selector group's size limit): the
                # whole phase empties the slot and writes it whole (_write_slot); nothing of
                # it is live. The failed write dropped what the slot is known to hold.
                if self._slot_rewritten(e):
                    return None
                raise
            self._verify_written(now, self._known_config() or self.role.config(act), expect_active=act)
            if not later.empty:
                self._keep_deferred(later)
            self._note_holds({**had, new: self.role.version(routes)})
            t_v = time.perf_counter()
            self._flip(act, frozenset({act, new}))
        except BackendError as e:
            self._swap_failed(e)
            raise
        return Installed("ready", act, act, written, 0, self._objects_now() + objects(d.insert) - objects(d.delete),
                         t_v - t0, 0.0, time.perf_counter() - t0)

    def _write_deferred(self: GenerationWriter) -> int:
        """The deletes a prepare left for after its flip (:meth:`_prepare_delta`), written
        and read back by key, first thing in this switch's next retire (the update's, or,
        where the update stopped before it, the one of the update that finishes it). They
        delete objects no lookup reaches: what each generation holds stays as noted, and a
        prepare meanwhile writes the other generation. Returns the updates written."""
        d = self._take_deferred()
        cfg = self._known_config() if d is not None else None
        if cfg is None:
            return 0
        act, _ = self.role.active(Batch(entries=[cfg]))
        had = self._holds()
        n = self._write(d)
        self._verify_written(d, cfg, expect_active=act)
        self._note_holds(had)
        return n

    def _retire_delta(self: GenerationWriter, keep: int, routes: Routes | None) -> int | None:
        """Phase 4 written as a difference of the changed cells only (see
        :meth:`_prepare_delta`): where ``keep`` is known to hold ``routes`` and the other
        generation the routes they were made from, it is made their shadow by writing the
        changed cells' difference. None where that does not apply."""
        delta = getattr(routes, "delta", None)
        known = self._known_generations() if delta is not None else None
        if known is None:
            return None
        act, live, had = known
        other = 1 - keep
        version = self.role.version(routes)
        if act != keep or had.get(keep) != version or had.get(other) != self.role.version(delta.base):
            return None
        parts = self._routes_delta(routes, other)
        if parts is None:
            return None
        n = 0
        if live != frozenset({keep}):
            self._flip(keep, frozenset({keep}))
            n += 1
        try:
            n += self._write(state_diff(*parts))
        except BackendError as e:
            if self._slot_rewritten(e):      # refused in place: the whole retire rewrites the slot
                return None
            raise
        self._note_holds({**had, other: version})
        return n

    def _retire_held(self: GenerationWriter, keep: int, routes: Routes) -> int | None:
        """Phase 4 where ``keep`` holds other routes than ``routes`` and the other generation
        is known to hold exactly what ``keep`` holds (:meth:`_holds`: the same version in
        both, the other one ``keep``'s shadow already): only ``keep`` made the one live
        generation. The update that finishes an interrupted one, or brings back a switch that
        stamps a generation the others retired (a failed ToR declared back), retires the
        others' old stamp with routes that generation does not hold; the shadow they keep is
        what the next phase writes its difference into. None where that is not known (the
        other paths decide)."""
        known = self._known_generations()
        if known is None:
            return None
        act, live, had = known
        held = had.get(keep)
        if act != keep or held in (None, self.role.version(routes)) or had.get(1 - keep) != held:
            return None
        if live == frozenset({keep}):
            return 0
        self._flip(keep, frozenset({keep}))
        return 1

    def _retire_fresh(self: GenerationWriter, keep: int, routes: Routes) -> int | None:
        """Phase 4 where ``keep`` is known to hold exactly ``routes`` and the other slot is
        empty (a ToR's first shadow, :meth:`controller.daemon.update.NetworkUpdate.write_shadows`):
        the statics' diff, then the shadow written as inserts (:meth:`_write_fresh`) -- what
        the whole phase writes there, without building, splitting or diffing ``keep``'s
        objects. None where that does not apply (the whole phase runs instead)."""
        version = self.role.version(routes)
        beside = self._known_beside(keep, version)
        if beside is None:
            return None
        act, _ = self.role.active(beside)
        if act != keep:
            return None
        static = self.role.static()
        derived = self._fresh_as(routes, 1 - keep)
        if derived is not None:
            rb, encoded, like = derived
        else:
            rb = like = self._routes_batch(routes, 1 - keep)
            encoded = None
        if not fresh_slot(like, beside, static):
            return None
        n = 0
        if self.role.live(beside) != frozenset({keep}):
            self._flip(keep)                       # only `keep` live
            n += 1
        n += self._write(state_diff(beside, static))     # (config and defaults: left as they are)
        n += self._write_fresh(1 - keep, rb, routes, encoded)[0]
        self._note_holds({keep: version, 1 - keep: version})
        return n

    def prepare_generation(self: GenerationWriter, routes: Routes, new: int, shadow: bool = False) -> Installed:
        """Phase 1 on this switch. An unconfigured switch gets ``new`` written and active at
        once ("installed": nothing of it is in flight); one that already stamps ``new``
        with these routes has nothing to do ("current"); otherwise "ready". ``shadow``: a
        switch this installs then gets the shadow of ``routes`` in the other generation at
        once (:meth:`retire_generation`; its encoding derived from the generation just
        written, :meth:`_fresh_as`), instead of in a later phase after every other switch;
        a failure of it is told to :meth:`_shadow_failed` (the install stands). Where the
        writer keeps what the shadow derives from until a later pass (:meth:`_shadow_later`),
        the shadow is left to it: the result says so (``shadow_pending``)."""
        fast = self._prepare_delta(routes, new)
        if fast is not None:
            return fast
        t0 = time.perf_counter()
        version = self.role.version(routes)
        actual, parts = self._read_known()
        act, _ = self.role.active(actual)
        live = self.role.live(actual)
        static = self.role.static()
        self._set_active(act)
        self._set_live(live)
        rb = self._routes_batch(routes, new)
        if act is None:
            if self.fresh_writes and self._writes_fresh() and fresh_slot(rb, actual, static):
                # no route object there: the statics' diff, then the routes as inserts
                written = self._write(state_diff(actual, static))       # config: the flip
                n, done = self._write_fresh(new, rb, routes)
                self._verify_fresh(new, rb, static, None, done, routes)
                written += n
            else:
                written = self._write(state_diff(actual, unconfigured_state(static, rb)))   # config: the flip
                self._verify(new, rb, static, expect_active=None)
            self._note_holds({new: version})
            t_v = time.perf_counter()
            self._flip(new)
            res = Installed("installed", new, None, written, 0, objects(rb) + objects(static) + 1,
                            t_v - t0, time.perf_counter() - t0, time.perf_counter() - t0)
            if shadow:
                rb = done = None     # (what the writer keeps of them for the shadow, only as long as it needs it)
                if self._shadow_later():
                    res.shadow_pending = True
                    return res
                try:
                    self.retire_generation(new, routes)
                except BackendError as e:
                    self._shadow_failed(e)
            return res
        if new in live and same_state(parts.gens[new], rb):
            self._note_holds({**self._holds(), new: version})
            return Installed("current" if act == new else "ready", act, act, 0, 0,
                             objects(rb) + objects(static) + 1, total_s=time.perf_counter() - t0)
        if act == new:
            raise BackendError(f"switch {self.label!r}: its sources stamp generation {new}, which holds other "
                               f"routes: it cannot be rewritten in place")
        self._swap_starting(routes, new, act, rb)
        try:
            prepare = self._prepare(parts, act, static, rb, new)   # a conflict with live state: refused
            if new in live:                        # live, but with other routes: out first
                self._flip(act)                    # (only `act` live)
            # only what differs from what the slot holds (the shadow of the active routes);
            # the config entry as read (before the flip above): equal, not written
            written, d = self._write_slot(actual, prepare, lambda: combine(static, parts.gens[act]))
            if d is not None and parts.config is not None and self._knows_state() \
                    and len(d) <= BY_KEY_MAX_SHARE * objects(actual):
                self._verify_written(d, parts.config, expect_active=act)
            else:
                self._verify(new, rb, static, expect_active=act)
            self._note_holds({new: version})
            t_v = time.perf_counter()
            self._flip(act, frozenset({act, new}))
        except BackendError as e:
            self._swap_failed(e)
            raise
        return Installed("ready", act, act, written, 0, objects(rb) + objects(static) + 1,
                         t_v - t0, 0.0, time.perf_counter() - t0)

    def activate_generation(self: GenerationWriter, new: int, live: frozenset[int]) -> None:
        """Phase 2 on this switch: its sources stamp ``new`` (one write; ``live`` as read)."""
        if new not in live:
            raise BackendError(f"switch {self.label!r}: generation {new} is not live here: not activated")
        self._flip(new, live)

    def retire_generation(self: GenerationWriter, keep: int, routes: Routes | None = None,
                          fill: bool = True) -> int:
        """Phase 4 on this switch: only ``keep`` live (one write), then the other
        generation rewritten as the *shadow* of ``keep``: the same routes (``routes``, when
        ``keep`` holds them) keyed by the other generation, never live, never stamped -- so
        the next update writes only what its routes change there, not a whole generation
        (docs/daemon.md "Diff-only writes"). Without ``routes`` (or when ``keep`` does not
        hold them: an interrupted update being finished) the other generation is deleted,
        unless it is known to be ``keep``'s shadow already (:meth:`_retire_held`: it stays).
        ``fill=False`` (an update that changed nothing): an empty other generation stays
        empty (nothing written: a daemon taking over a pushed switch writes nothing); one
        holding anything (a partial diff a crash left, junk) is still made the shadow.
        Returns the updates written (the deletes the prepare left for after the flip
        included: :meth:`_write_deferred`)."""
        return self._write_deferred() + self._retire(keep, routes, fill)

    def _retire(self: GenerationWriter, keep: int, routes: Routes | None, fill: bool) -> int:
        fast = self._retire_delta(keep, routes)
        if fast is None and routes is not None:
            fast = self._retire_held(keep, routes)   # `keep` holds other routes, and its shadow is there
        if fast is None and fill and routes is not None and self.fresh_writes and self._writes_fresh():
            fast = self._retire_fresh(keep, routes)
        if fast is not None:
            return fast
        actual, parts = self._read_known()
        act, _ = self.role.active(actual)
        if act != keep:
            raise BackendError(f"switch {self.label!r}: generation {act} is active, not {keep}: not retired")
        n = 0
        if self.role.live(actual) != frozenset({keep}):
            self._flip(keep)                       # only `keep` live
            n += 1
        static = self.role.static()
        if routes is None or not same_state(parts.gens[keep], self._routes_batch(routes, keep)) \
                or not (fill or objects(parts.gens[1 - keep])):
            # no config entry in the desired state: the flip above wrote it after `actual`
            return n + self._write(state_diff(actual, combine(static, parts.gens[keep])))
        # no config entry in the desired state: the flip above wrote it after `actual`
        base = combine(static, parts.gens[keep])
        n += self._write_slot(actual, combine(base, self._routes_batch(routes, 1 - keep)), lambda: base)[0]
        version = self.role.version(routes)
        self._note_holds({keep: version, 1 - keep: version})
        return n
