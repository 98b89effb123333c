"""Route generations on one switch, as pure functions over its state (a
:class:`~controller.tables.entries.Batch` read back from the switch).

A switch's state splits into the config entry (active generation + down mask), static
entries, and the entries of generation 0 and 1 (tagged by :data:`GENERATION_KEY` in
their key) with the selector groups and members they reference. A hitless update
(:class:`~controller.daemon.switch.SwitchAgent.install`) moves it through

    prepare: static + active generation (as it is) + new routes in the other generation
    flip:    the config entry names the other generation (ONE write)
    final:   static + new generation + config

and every intermediate state -- including a half-written prepare left by a crash, and
leftovers of an older push -- is one of: unconfigured (the data plane drops all but
timers), or a complete active generation plus junk in the inactive one. Junk never
matches, so a packet sees exactly one generation; the next install deletes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.agent.diff import entry_key, group_key, member_key
from controller.daemon.roles import entry_generation
from controller.tables.entries import Batch, TableEntry


class GenerationConflict(Exception):
    """Two different objects with one identity in a desired state (e.g. the new generation
    reuses a selector group id of the active one): writing it would touch live state."""


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
        if e.is_default:
            if e.table == config_table:
                out.config = e
            else:
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
    return combine(static, parts.gens.get(active, Batch()), new_routes, parts.config)


def final_state(static: Batch, routes: Batch, config: TableEntry) -> Batch:
    return combine(static, routes, config)


def unconfigured_state(static: Batch, routes: Batch) -> Batch:
    """An unconfigured switch: statics and the first generation, config not yet written
    (it drops everything but timers until the config entry -- the flip -- is written)."""
    return combine(static, routes)
