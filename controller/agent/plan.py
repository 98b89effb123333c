"""How a :class:`~controller.agent.backend.Diff` is cut into write requests (target-neutral).

A switch API may apply the updates of one request in any order (P4Runtime §12.2: "the
server may arbitrarily reorder" the updates of a batch; BfRt batches likewise), so an
update and the update it depends on must never share a request. The dependencies are:

- a group names its members: member inserts/modifies before the group insert/modify
  that names them, and a member is deleted only after every group that named it
  was modified or deleted;
- a table entry names its group: group inserts/modifies before the entry
  insert/modify, and a group is deleted only after the entries that used it were
  modified or deleted.

So a write is a sequence of *stages*; each stage is one request or more, and a request
holds updates of one stage only::

    1. delete entries  + insert/modify members   (independent of each other)
    2. insert/modify groups
    3. insert/modify entries
    4. delete groups
    5. delete members

Where no modified entry names a group -- every entry that named a group or is gone is
deleted in stage 1, none moves off a group in stage 3 -- a group delete depends only on
stage 1 and a member delete only on the groups, so three stages do::

    1. delete entries  + insert/modify members
    2. insert/modify groups + delete groups
    3. insert/modify entries  + delete members

A modified entry that names no group is one of a table without an action profile (an
indirect table's entries name its profile's members or groups, a direct table's name an
action: P4Runtime's ``TableAction``), so neither its old nor its new version named one:
a UCMP failure's changed cells (selector entries inserted and deleted, never modified)
beside the per-hop entries whose alternatives it changed (modified, of a direct table)
are three stages.

Each stage is a round trip to the switch (docs/fabric.md: a UCMP cut cable's prepare).

Deleting entries first frees table space before anything is inserted (a table near its
size would otherwise overflow while old and new entries coexist); it depends on nothing.
Within a stage no update depends on another (entries never depend on entries, groups
never on groups, members on nothing), so a stage is cut into requests only by the
target's size limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Literal

from controller.agent.diff import Diff
from controller.tables.state import EntryRows, Group, Member, TableEntry, blocks

Op = Literal["insert", "modify", "delete"]
Obj = TableEntry | Member | Group


@dataclass(frozen=True)
class Update:
    """One update of a write: an operation on one state object."""

    op: Op
    obj: Obj


#: one part of a stage: an operation on one kind of a :class:`~controller.tables.state.Batch`
Part = tuple[Op, str]

_FIRST: tuple[Part, ...] = (("delete", "entries"), ("insert", "members"), ("modify", "members"))
#: the stages where no modified entry names a group (see module docstring)
THREE_STAGES: tuple[tuple[Part, ...], ...] = (
    _FIRST,
    (("insert", "groups"), ("modify", "groups"), ("delete", "groups")),
    (("insert", "entries"), ("modify", "entries"), ("delete", "members")),
)
#: the stages of any diff
FIVE_STAGES: tuple[tuple[Part, ...], ...] = (
    _FIRST,
    (("insert", "groups"), ("modify", "groups")),
    (("insert", "entries"), ("modify", "entries")),
    (("delete", "groups"),),
    (("delete", "members"),),
)


def names_group(entries) -> bool:
    """Whether one of ``entries`` names a selector group; an :class:`EntryRows` block (rows
    of one action) is answered without making its objects."""
    return any(type(b) is not EntryRows and any(e.group_id is not None for e in b) for b in blocks(entries))


def stage_parts(diff: Diff) -> tuple[tuple[Part, ...], ...]:
    """The stages of ``diff`` as the parts each is made of (see module docstring: three
    where no modified entry names a group, else five), empty ones included: what a caller
    that cuts a long write into calls keeps together (``controller.daemon.switch.chunks``)."""
    return FIVE_STAGES if names_group(diff.modify.entries) else THREE_STAGES


def part(diff: Diff, op: Op, kind: str):
    """The sequence of ``diff`` that ``(op, kind)`` names (``diff.insert.members``...)."""
    return getattr(getattr(diff, op), kind)


def stages(diff: Diff) -> list[list[Update]]:
    """The updates of ``diff`` in stages (:func:`stage_parts`); empty stages left out.

    Default table entries are only ever modified (they exist as long as the table does);
    :func:`controller.agent.diff.diff` already puts them among the modifies."""
    out = [[Update(op, x) for op, kind in parts for x in part(diff, op, kind)] for parts in stage_parts(diff)]
    return [s for s in out if s]


def chunks(stage: list, max_updates: int) -> Iterator[list]:
    """``stage`` cut into runs of at most ``max_updates`` (a request-count limit; byte
    limits are the backend's, it knows the encoded sizes)."""
    if max_updates < 1:
        raise ValueError(f"max_updates must be >= 1, got {max_updates}")
    for i in range(0, len(stage), max_updates):
        yield stage[i:i + max_updates]


def depends_on(a: Update, b: Update) -> bool:
    """True when ``a`` must be written after ``b`` (the dependency rules above).

    Used by tests (and fake servers) to check that no request holds both."""
    x, y = a.obj, b.obj
    if a.op != "delete" and b.op != "delete":
        if isinstance(x, Group) and isinstance(y, Member):
            return x.profile == y.profile and y.member_id in x.member_ids
        if isinstance(x, TableEntry) and isinstance(y, Group):
            return x.group_id is not None and x.group_id == y.group_id
        return False
    if a.op == "delete" and b.op == "delete":
        # a member delete after the delete of the group that named it; a group delete
        # after the delete of the entry that used it
        if isinstance(x, Member) and isinstance(y, Group):
            return x.profile == y.profile and x.member_id in y.member_ids
        if isinstance(x, Group) and isinstance(y, TableEntry):
            return y.group_id == x.group_id
        return False
    if a.op == "delete" and b.op != "delete":
        # deleting what a written (new version of an) object no longer names: after it
        if isinstance(x, Member) and isinstance(y, Group):
            return x.profile == y.profile  # the group's new member list may have dropped x
        if isinstance(x, Group) and isinstance(y, TableEntry):
            # the entry may have moved off group x: one that names a group now (an entry
            # naming an action is of a table without groups, and never named one)
            return y.group_id is not None
        return False
    return False
