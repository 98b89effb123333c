"""The vocabulary of a switch's state, shared by the table builders
(:mod:`controller.tables.entries`, :mod:`controller.tables.bulk`), the agent's backends and
the daemon: table entries, action-profile members and groups, a batch of them, and the
route generations they belong to.

Objects are target-neutral and named by the pipeline contract; a backend encodes them for
its switch. Route tables carry a 1-bit ``generation`` key (hitless updates, docs/p4.md):
the entries of generation g match only while the config entry says g is active.
Action-profile member and group ids of generation g have bit ``GENERATION_ID_BIT`` (31)
set to g, so the two generations' ids never collide.

Identity of a state object (what a write inserts or deletes; :mod:`controller.agent.diff`):
a table entry's table, match and priority (a default entry: its table); a member's profile
and member id; a group's profile and group id.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.errors import UroError

#: route generations a switch holds: a 1-bit key of every route table (hitless updates)
GENERATIONS = 2
#: action-profile member/group ids: the generation in this bit (contract "generations.id_bit")
GENERATION_ID_BIT = 31

#: instance attributes a state object (entry, member, group) may carry besides its fields:
#: its identity and content, memoised by :mod:`controller.agent.diff` (the objects are
#: immutable, and one object is diffed many times per update: the known state, the
#: per-version routes). A copy made through ``__dict__`` with other field values must drop
#: them (:func:`controller.tables.bulk.regenerate`); ``dataclasses.replace`` does not copy them.
MEMO_ATTRS = ("_identity", "_content")


@dataclass(frozen=True)
class TableEntry:
    table: str                                   # full P4 name, e.g. UroIngress.uro_next_hop
    match: tuple[tuple[str, object], ...]        # (key name, int | (int, prefix_len))
    action: str | None = None                    # full action name (None for group entries)
    params: tuple[tuple[str, int], ...] = ()
    is_default: bool = False
    group_id: int | None = None                  # action-selector group instead of an action
    priority: int = 0                            # > 0 for tables with range/ternary keys


@dataclass(frozen=True)
class Member:
    profile: str
    member_id: int
    action: str
    params: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Group:
    profile: str
    group_id: int
    member_ids: tuple[int, ...]


@dataclass
class Batch:
    """What to write, in dependency order: members, groups, then table entries."""

    members: list[Member] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    entries: list[TableEntry] = field(default_factory=list)

    def objects(self) -> int:
        """Members, groups and table entries: the objects a switch holds for it."""
        return len(self.members) + len(self.groups) + len(self.entries)

    def extend(self, other: "Batch") -> "Batch":
        self.members += other.members
        self.groups += other.groups
        self.entries += other.entries
        return self


class EntryError(UroError):
    """A route or entry does not fit the pipeline contract (the message names the table
    and field, and the numbers)."""


def gen_id(generation: int, seq: int) -> int:
    """Member/group id ``seq`` (1..2^31-1) of ``generation``: the generation in bit 31."""
    if generation not in (0, 1):
        raise EntryError(f"generation must be 0 or 1, got {generation!r}")
    if not 1 <= seq < (1 << GENERATION_ID_BIT):
        raise EntryError(f"action-profile id {seq} out of 1..{(1 << GENERATION_ID_BIT) - 1}")
    return (generation << GENERATION_ID_BIT) | seq


def check_generation(generation: int) -> int:
    """``generation`` if it is 0 or 1 (the route tables' 1-bit generation key)."""
    if generation not in (0, 1):
        raise EntryError(f"generation must be 0 or 1, got {generation!r}")
    return generation
