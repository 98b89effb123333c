"""How the daemon cuts a long write (:func:`controller.daemon.switch.chunks`): at most
``size`` updates per backend call, in an order that keeps every dependency, the changed
cells' columns kept as columns."""

import numpy as np
from hypothesis import given, settings, strategies as st

from controller.agent.diff import Diff
from controller.daemon.switch import chunks
from controller.tables.state import Batch, EntryRows, Group, Member, TableEntry


def _entry(i: int) -> TableEntry:
    return TableEntry("I.t", (("k", i),), "I.a", (("v", i),))


def _updates(d: Diff) -> list:
    """The updates of ``d`` in the order :func:`chunks` writes them: inserts and modifies of
    members, groups, entries, then deletes of entries, groups, members."""
    out = []
    for kind in ("members", "groups", "entries"):
        out += [("insert", x) for x in getattr(d.insert, kind)] + [("modify", x) for x in getattr(d.modify, kind)]
    for kind in ("entries", "groups", "members"):
        out += [("delete", x) for x in getattr(d.delete, kind)]
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 5), st.integers(0, 5), st.integers(0, 7), st.integers(0, 7), st.integers(0, 3),
       st.integers(1, 4), st.booleans())
def test_chunks_are_the_updates_of_the_diff_in_dependency_order(members, groups, ins, mod, dele, size, rows):
    """The chunks, written one after the other, are the diff's updates, each once, members
    before the groups that name them before the entries, deletes after and in reverse, each
    chunk at most ``size`` updates; modified entries given as columns stay columns when nothing
    else of their kind is inserted."""
    ms = [Member("I.p", i, "I.a", (("v", i),)) for i in range(members)]
    gs = [Group("I.p", 100 + i, (i,)) for i in range(groups)]
    ie = [_entry(i) for i in range(ins)]
    me = [_entry(100 + i) for i in range(mod)]
    if rows:
        me = EntryRows("I.t", "I.a", ("k",), np.arange(100, 100 + mod).reshape(mod, 1), ("v",),
                       np.arange(100, 100 + mod).reshape(mod, 1))
    de = [_entry(200 + i) for i in range(dele)]
    d = Diff(insert=Batch(ms, gs, ie), modify=Batch(entries=me), delete=Batch(entries=de, members=ms[:1]))
    parts = list(chunks(d, size))
    assert all(0 < len(p) <= size for p in parts)
    for p in parts:
        if len(p.modify.entries) and rows and not ins:
            assert type(p.modify.entries) is EntryRows and not p.modify.entries.made()
    assert [u for p in parts for u in _updates(p)] == _updates(d)
