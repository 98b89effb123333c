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

import collections.abc
import itertools
import operator
from dataclasses import dataclass, field

import numpy as np

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


class _ListLike(collections.abc.Sequence):
    """A sequence that stands for a list of objects: it compares and adds as that list
    does (:class:`EntryRows`, :class:`Joined`: a batch's entries may be either)."""

    def __eq__(self, other) -> bool:
        if isinstance(other, (list, tuple, collections.abc.Sequence)) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None        # (a list's equality)

    def __add__(self, other) -> list:
        return [*self, *other]

    def __radd__(self, other) -> list:
        return [*other, *self]

    def __repr__(self) -> str:
        return repr(list(self))              # (a list's: the objects it stands for)


class EntryRows(_ListLike):
    """Table entries of one table and one action as integer columns: row ``i`` is the entry
    ``TableEntry(table, tuple(zip(key_names, keys[i])), action, tuple(zip(param_names,
    params[i])))`` (exact keys, no priority, not a default entry). The route compiler's
    per-hop table is arrays; a (1024, 32) ToR's 33K entries of 21 parameters each cost more
    as objects than anything else the daemon does with them on a first install, where they
    are only encoded (docs/fabric.md "Where the CPU goes per ToR"). The P4Runtime encoder
    takes the columns as they are (:meth:`controller.agent.p4wire.WireCodec.rows`); anything
    else that asks for the entries gets them: an index makes one, iterating makes all of them
    once and keeps them (a list, as the objects a builder returns), and the columns stay
    (:meth:`made`: whether the objects were made). Equal to a list of the same entries."""

    def __init__(self, table: str, action: str, key_names: tuple[str, ...], keys: np.ndarray,
                 param_names: tuple[str, ...], params: np.ndarray):
        keys, params = np.asarray(keys), np.asarray(params)
        if keys.ndim != 2 or params.ndim != 2 or len(keys) != len(params) or \
                keys.shape[1] != len(key_names) or params.shape[1] != len(param_names):
            raise ValueError(f"{table}: key columns {keys.shape} / parameter columns {params.shape} do not "
                             f"match {len(key_names)} keys and {len(param_names)} parameters")
        self.table, self.action = table, action
        self.key_names, self.param_names = tuple(key_names), tuple(param_names)
        self.keys, self.params = keys, params
        self._list: list[TableEntry] | None = None

    def __len__(self) -> int:
        return len(self.keys)

    def made(self) -> bool:
        """Whether the entries were made as objects (and are kept)."""
        return self._list is not None

    def entries(self) -> list[TableEntry]:
        """Every entry as an object, made once (the (name, value) pairs shared between
        entries: made once per distinct value of a column), each with its identity and
        content (:data:`MEMO_ATTRS`) set as :mod:`controller.agent.diff` computes them --
        the pairs sorted by name -- from the column order sorted once: objects made from
        columns are written, kept and compared (a failure's changed cells), and sorting
        each one's pairs again costs more than making it."""
        if self._list is None:
            def pairs(name, col):
                vals = np.unique(col).tolist() if col.size >= 256 else col.tolist()
                return {v: (name, v) for v in vals}

            def sorter(names):
                order = sorted(range(len(names)), key=names.__getitem__)
                if order == list(range(len(names))):
                    return None                      # (already sorted: the tuple itself; one name or none)
                return operator.itemgetter(*order)   # (two names or more: a tuple)
            kp = [pairs(nm, c) for nm, c in zip(self.key_names, self.keys.T)]
            pp = [pairs(nm, c) for nm, c in zip(self.param_names, self.params.T)]
            ks, ps = sorter(self.key_names), sorter(self.param_names)
            get = dict.__getitem__
            new, table, action = object.__new__, self.table, self.action
            ident, content = MEMO_ATTRS
            out = []
            for k, p in zip(self.keys.tolist(), self.params.tolist()):
                o = new(TableEntry)
                match, params = tuple(map(get, kp, k)), tuple(map(get, pp, p))
                o.__dict__.update(table=table, match=match, action=action, params=params, is_default=False,
                                  group_id=None, priority=0)
                o.__dict__[ident] = (table, match if ks is None else ks(match), 0)
                o.__dict__[content] = (action, params if ps is None else ps(params), None)
                out.append(o)
            self._list = out
        return self._list

    def __iter__(self):
        return iter(self.entries())

    def __getitem__(self, i):
        if isinstance(i, slice):
            if self._list is not None:
                return self._list[i]
            return EntryRows(self.table, self.action, self.key_names, self.keys[i], self.param_names, self.params[i])
        if self._list is not None:
            return self._list[i]
        k, p = self.keys[i].tolist(), self.params[i].tolist()
        return TableEntry(self.table, tuple(zip(self.key_names, k)), self.action, tuple(zip(self.param_names, p)))

    def take(self, index) -> "EntryRows":
        """The rows ``index`` selects (a boolean mask or row numbers), as columns: a
        failure's changed cells are diffed and written without making an object of those
        that did not change (:func:`controller.agent.diff.diff`)."""
        if self._list is not None:
            rows = np.arange(len(self))[index]
            out = EntryRows(self.table, self.action, self.key_names, self.keys[rows], self.param_names,
                            self.params[rows])
            out._list = [self._list[i] for i in rows.tolist()]
            return out
        return EntryRows(self.table, self.action, self.key_names, self.keys[index], self.param_names,
                         self.params[index])

    def same_layout(self, other) -> bool:
        """Whether ``other`` is an :class:`EntryRows` of the same table, action, key names
        and parameter names (its rows compare column by column with these)."""
        return type(other) is EntryRows and (self.table, self.action, self.key_names, self.param_names) == \
            (other.table, other.action, other.key_names, other.param_names)

    def with_key(self, name: str, value: int) -> "EntryRows":
        """The same entries with match key ``name`` set to ``value`` (the other route
        generation's: docs/p4.md "Route generations"); KeyError if there is no such key."""
        i = self.key_names.index(name)
        keys = self.keys.copy()
        keys[:, i] = value
        return EntryRows(self.table, self.action, self.key_names, keys, self.param_names, self.params)


class Joined(_ListLike):
    """Two sequences as one, neither copied (:meth:`controller.agent.backend.Inserts.joined`; a
    failure's changed per-hop cells as columns beside its source-route cells' objects)."""

    def __init__(self, first: collections.abc.Sequence, second: collections.abc.Sequence):
        self.first, self.second = first, second

    def __len__(self) -> int:
        return len(self.first) + len(self.second)

    def __getitem__(self, i):
        n = len(self.first)
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step != 1:
                return [self[j] for j in range(start, stop, step)]
            # (a slice of each, not copied where they slice lazily: Regenerated, EntryRows)
            a = self.first[min(start, n):min(stop, n)]
            return joined(a, self.second[max(start - n, 0):max(stop - n, 0)])
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self.first[i] if i < n else self.second[i - n]

    def __iter__(self):
        return itertools.chain(self.first, self.second)

    def blocks(self) -> list:
        """The sequences joined (:func:`blocks`)."""
        return [*blocks(self.first), *blocks(self.second)]


def joined(first: collections.abc.Sequence, second: collections.abc.Sequence) -> collections.abc.Sequence:
    """``first`` then ``second`` as one sequence: either alone where the other is empty,
    else :class:`Joined` (neither copied); ``second`` where both are empty."""
    if not len(first):
        return second
    if not len(second):
        return first
    return Joined(first, second)


def blocks(seq) -> list:
    """``seq`` as the sequences it is made of (a sequence that joins or derives others may
    say: ``blocks()``), so that an encoder can take an :class:`EntryRows` as columns; a
    plain sequence is one block."""
    b = getattr(seq, "blocks", None)
    return b() if b is not None else [seq]


def entry_tables(entries) -> tuple[dict[str, int], bool]:
    """({table: entries that are not default entries}, whether any is a default entry) of
    ``entries``; an :class:`EntryRows` block is counted without making its objects."""
    count: dict[str, int] = {}
    default = False
    for b in blocks(entries):
        if type(b) is EntryRows and not b.made():
            if len(b):
                count[b.table] = count.get(b.table, 0) + len(b)
            continue
        for e in b:
            if e.is_default:
                default = True
            else:
                count[e.table] = count.get(e.table, 0) + 1
    return count, default


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
