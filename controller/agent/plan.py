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

Where no entry is modified -- every entry that named a group or is gone is deleted in
stage 1, none moves off a group in stage 3 -- a group delete depends only on stage 1 and a
member delete only on the groups, so three stages do (a UCMP failure's changed cells:
selector entries inserted and deleted, never modified)::

    1. delete entries  + insert/modify members
    2. insert/modify groups + delete groups
    3. insert entries  + delete members

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
from controller.tables.state import Group, Member, TableEntry

Op = Literal["insert", "modify", "delete"]
Obj = TableEntry | Member | Group


@dataclass(frozen=True)
class Update:
    """One update of a write: an operation on one state object."""

    op: Op
    obj: Obj


def stages(diff: Diff) -> list[list[Update]]:
    """The updates of ``diff`` in stages (see module docstring: three where no entry is
    modified, else five); empty stages left out.

    Default table entries are only ever modified (they exist as long as the table does);
    :func:`controller.agent.diff.diff` already puts them among the modifies."""
    ins, mod, dele = diff.insert, diff.modify, diff.delete
    first = ([Update("delete", e) for e in dele.entries]
             + [Update("insert", m) for m in ins.members] + [Update("modify", m) for m in mod.members])
    groups = [Update("insert", g) for g in ins.groups] + [Update("modify", g) for g in mod.groups]
    entries = [Update("insert", e) for e in ins.entries] + [Update("modify", e) for e in mod.entries]
    group_deletes = [Update("delete", g) for g in dele.groups]
    member_deletes = [Update("delete", m) for m in dele.members]
    if not mod.entries:
        out = [first, groups + group_deletes, entries + member_deletes]
    else:
        out = [first, groups, entries, group_deletes, member_deletes]
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
            return True                      # the entry may have moved off group x
        return False
    return False
