"""How the daemon cuts a long write (:func:`controller.daemon.switch.chunks`): at most
``size`` updates per backend call, each call one stage of the write plan
(:mod:`controller.agent.plan`) in the plan's order, the changed cells' columns kept as
columns."""

import numpy as np
from hypothesis import given, settings, strategies as st

from controller.agent import plan
from controller.agent.diff import Diff
from controller.daemon.switch import chunks
from controller.tables.state import Batch, EntryRows, Group, Member, TableEntry


def _entry(i: int) -> TableEntry:
    return TableEntry("I.t", (("k", i),), "I.a", (("v", i),))


def _updates(d: Diff) -> list:
    """The updates of ``d`` as (operation, object) pairs, in no particular order."""
    return [(op, x) for b, op in ((d.insert, "insert"), (d.modify, "modify"), (d.delete, "delete"))
            for kind in ("members", "groups", "entries") for x in getattr(b, kind)]


def _ordered(parts: list[Diff]) -> None:
    """``parts`` written one after the other, each as one request whose updates a switch may
    apply in any order: no update waits for one of its own part or of a later part."""
    ups = [[plan.Update(op, x) for op, x in _updates(p)] for p in parts]
    for i, mine in enumerate(ups):
        later = [u for p in ups[i:] for u in p]
        for a in mine:
            assert not any(plan.depends_on(a, b) for b in later if b is not a), (a, i)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 5), st.integers(0, 5), st.integers(0, 7), st.integers(0, 7), st.integers(0, 3),
       st.integers(1, 4), st.booleans(), st.booleans())
def test_chunks_are_the_stages_of_the_diff_cut_at_size(members, groups, ins, mod, dele, size, rows, selector):
    """The chunks, written one after the other, are the diff's updates, each once, in the
    plan's stages: each chunk within one stage (one request), at most ``size`` updates,
    none waiting for an update of its own chunk or a later one; three stages where only
    direct entries are modified, five where a selector entry is (``selector``); modified
    entries given as columns stay columns."""
    ms = [Member("I.p", i, "I.a", (("v", i),)) for i in range(members)]
    gs = [Group("I.p", 100 + i, (i,)) for i in range(groups)]
    ie = [_entry(i) for i in range(ins)]
    me = [_entry(100 + i) for i in range(mod)]
    if rows:
        me = EntryRows("I.t", "I.a", ("k",), np.arange(100, 100 + mod).reshape(mod, 1), ("v",),
                       np.arange(100, 100 + mod).reshape(mod, 1))
    de = [_entry(200 + i) for i in range(dele)]
    ge = [TableEntry("I.sel", (("d", 1),), None, (), False, 100)] if selector else []
    d = Diff(insert=Batch(ms, gs, ie), modify=Batch(entries=me if not ge else list(me) + ge),
             delete=Batch(entries=de, groups=gs[1:2], members=ms[:1]))
    parts = list(chunks(d, size))
    for p in parts:
        if len(p.modify.entries) and rows and not selector:
            assert type(p.modify.entries) is EntryRows and not p.modify.entries.made()
    assert all(0 < len(p) <= size for p in parts)
    assert all(len(plan.stages(p)) == 1 for p in parts)
    # (objects compared by value: an EntryRows makes new objects for each slice)
    stage_of = {(u.op, u.obj): i for i, st_ in enumerate(plan.stages(d)) for u in st_}
    written = [stage_of[u] for p in parts for u in _updates(p)]
    assert written == sorted(written)
    assert sorted(map(repr, (u for p in parts for u in _updates(p)))) == sorted(map(repr, _updates(d)))
    _ordered(parts)
    nonempty = sum(1 for s in plan.stage_parts(d) if any(len(plan.part(d, op, k)) for op, k in s))
    assert len(set(written)) == nonempty
    assert (plan.stage_parts(d) is plan.FIVE_STAGES) == selector
