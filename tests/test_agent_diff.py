"""Entry diffing: desired minus actual state, in dependency order, idempotent."""

from hypothesis import given, settings, strategies as st

from controller.agent.diff import diff, same_state
from controller.tables.state import Batch, Group, Member, TableEntry

T, A, P = "I.t", "I.a", "I.sel"


def ent(k, v, prio=0):
    return TableEntry(T, (("k", k),), A, (("v", v),), priority=prio)


def default(v):
    return TableEntry(T, (), A, (("v", v),), is_default=True)


def apply(actual: Batch, d) -> Batch:
    """What a switch holds after the diff is written (a model of a correct backend)."""
    from controller.agent.diff import entry_key, group_key, member_key

    state = {
        "m": {member_key(m): m for m in actual.members},
        "g": {group_key(g): g for g in actual.groups},
        "e": {entry_key(e): e for e in actual.entries},
    }
    for b in (d.insert, d.modify):
        for m in b.members:
            state["m"][member_key(m)] = m
        for g in b.groups:
            assert all((g.profile, i) in state["m"] for i in g.member_ids), "group before its members"
            state["g"][group_key(g)] = g
        for e in b.entries:
            assert e.group_id is None or (P, e.group_id) in state["g"], "entry before its group"
            state["e"][entry_key(e)] = e
    for e in d.delete.entries:
        del state["e"][entry_key(e)]
    for g in d.delete.groups:
        assert not any(e.group_id == g.group_id for e in state["e"].values()), "group deleted while used"
        del state["g"][group_key(g)]
    for m in d.delete.members:
        assert not any(m.member_id in g.member_ids for g in state["g"].values()), "member deleted while used"
        del state["m"][member_key(m)]
    return Batch(list(state["m"].values()), list(state["g"].values()), list(state["e"].values()))


def test_insert_modify_delete_are_split_and_defaults_only_modified():
    actual = Batch(entries=[ent(1, 10), ent(2, 20), default(0)])
    desired = Batch(entries=[ent(1, 10), ent(2, 21), ent(3, 30), default(5)])
    d = diff(actual, desired)
    assert d.insert.entries == [ent(3, 30)]
    assert d.modify.entries == [ent(2, 21), default(5)]
    assert d.delete.entries == []
    d2 = diff(Batch(entries=[ent(1, 10), default(0)]), Batch(entries=[]))
    assert d2.delete.entries == [ent(1, 10)] and not d2.modify.entries  # defaults are never deleted
    d3 = diff(Batch(), Batch(entries=[default(5)]))                      # not read back: still there, set
    assert d3.modify.entries == [default(5)] and not d3.insert.entries and not d3.delete.entries


def test_group_members_compare_as_sets_and_moves_keep_dependency_order():
    m = [Member(P, i, A, (("v", i),)) for i in range(1, 5)]
    actual = Batch(members=m[:2], groups=[Group(P, 1, (1, 2))],
                   entries=[TableEntry(T, (("k", 1),), None, (), group_id=1)])
    same = Batch(members=m[:2], groups=[Group(P, 1, (2, 1))], entries=actual.entries)
    assert same_state(actual, same)
    moved = Batch(members=m[2:], groups=[Group(P, 2, (3, 4))],
                  entries=[TableEntry(T, (("k", 1),), None, (), group_id=2)])
    d = diff(actual, moved)
    assert same_state(apply(actual, d), moved)
    assert [x.member_id for x in d.delete.members] == [1, 2] and [g.group_id for g in d.delete.groups] == [1]


@st.composite
def states(draw):
    ids = draw(st.lists(st.integers(1, 6), unique=True, max_size=6))
    members = [Member(P, i, A, (("v", draw(st.integers(0, 2))),)) for i in ids]
    groups = []
    for gid in draw(st.lists(st.integers(1, 4), unique=True, max_size=4)):
        if ids:
            groups.append(Group(P, gid, tuple(draw(st.lists(st.sampled_from(ids), min_size=1, unique=True)))))
    entries = []
    for k in draw(st.lists(st.integers(0, 8), unique=True, max_size=8)):
        if groups and draw(st.booleans()):
            entries.append(TableEntry(T, (("k", k),), None, (), group_id=draw(st.sampled_from(groups)).group_id))
        else:
            entries.append(ent(k, draw(st.integers(0, 3))))
    entries.append(default(draw(st.integers(0, 3))))
    return Batch(members, groups, entries)


@given(states(), states())
@settings(max_examples=300, deadline=None)
def test_writing_the_diff_reaches_the_desired_state_in_dependency_order(actual, desired):
    d = diff(actual, desired)
    after = apply(actual, d)  # asserts the order on the way
    assert same_state(after, desired)
    assert diff(after, desired).empty  # a second push writes nothing (idempotent)


@st.composite
def near_states(draw):
    """Two states that mostly agree: ``actual`` and a copy of it with a few objects changed,
    added or dropped (the default entry among them), so that "no difference" comes up."""
    actual = draw(states())
    objs = {"members": list(actual.members), "groups": list(actual.groups), "entries": list(actual.entries)}
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from(sorted(objs)))
        op = draw(st.sampled_from(["drop", "change", "add"]))
        xs = objs[kind]
        if op == "drop" and xs:
            xs.pop(draw(st.integers(0, len(xs) - 1)))
        elif op == "change" and xs:
            i = draw(st.integers(0, len(xs) - 1))
            x = xs[i]
            xs[i] = (Group(P, x.group_id, tuple(reversed(x.member_ids)) + (9,)) if kind == "groups" else
                     Member(P, x.member_id, A, (("v", 7),)) if kind == "members" else
                     TableEntry(T, x.match, A, (("v", 7),), is_default=x.is_default))
        elif op == "add":
            xs.append(Group(P, 9, (1,)) if kind == "groups" else Member(P, 9, A, ()) if kind == "members"
                      else ent(99, 0))
    if draw(st.booleans()):   # the same objects in another order: still the same state
        for xs in objs.values():
            xs.reverse()
    return actual, Batch(objs["members"], objs["groups"], objs["entries"])


@given(near_states())
@settings(max_examples=400, deadline=None)
def test_same_state_answers_as_the_diff_does(pair):
    """The early-exit comparison agrees with the whole diff, on close and distant states
    (identities and contents memoised on the objects or not)."""
    actual, desired = pair
    assert same_state(actual, desired) == diff(actual, desired).empty
    assert same_state(desired, actual) == diff(desired, actual).empty


@given(states(), states())
@settings(max_examples=200, deadline=None)
def test_same_state_on_unrelated_states(a, b):
    assert same_state(a, b) == diff(a, b).empty


def test_an_objects_identity_is_computed_once_and_kept_on_it():
    """Objects are immutable and diffed many times: the identity is computed at the first
    ask and kept on the object (the same value is handed back, not computed again)."""
    from controller.agent.diff import entry_key, group_key, member_key
    from controller.tables.state import MEMO_ATTRS

    e, m, g = ent(1, 10), Member(P, 3, A, (("v", 1),)), Group(P, 4, (3,))
    k = entry_key(e)
    assert k == (T, (("k", 1),), 0) and entry_key(e) is k and e.__dict__[MEMO_ATTRS[0]] is k
    assert member_key(m) == (P, 3) and group_key(g) == (P, 4) and member_key(m) is member_key(m)
    assert entry_key(default(1)) == (T, "default")


def test_two_different_objects_of_one_identity_in_a_state_are_refused():
    import pytest

    twice = Batch(entries=[ent(1, 10), ent(1, 11)])
    with pytest.raises(ValueError, match=r"^two different entries with the same identity \('I.t', \(\('k', 1\),\), 0\)$"):
        diff(twice, Batch())
    with pytest.raises(ValueError, match=r"^two different entries with the same identity"):
        same_state(twice, Batch(entries=[ent(1, 10)]))
    with pytest.raises(ValueError, match=r"^two different members with the same identity \('I.sel', 1\)$"):
        diff(Batch(), Batch(members=[Member(P, 1, A, (("v", 1),)), Member(P, 1, A, (("v", 2),))]))
    assert not same_state(Batch(entries=[ent(1, 10)]), twice)      # a desired state naming two: a difference
    once = Batch(entries=[ent(1, 10), ent(1, 10)])                    # the same object twice: one
    assert diff(once, Batch(entries=[ent(1, 10)])).empty and same_state(once, Batch(entries=[ent(1, 10)]))


def test_restrict_answers_as_a_read_by_key():
    from controller.agent.diff import restrict

    m1, m2 = Member(P, 1, A, (("v", 1),)), Member(P, 2, A, (("v", 2),))
    g1, g2 = Group(P, 1, (1,)), Group(P, 2, (2,))
    state = Batch([m1, m2], [g1, g2], [ent(1, 10), ent(2, 20), default(0)])
    asked = Batch([Member(P, 2, A, (("v", 9),))], [Group(P, 1, (2,)), Group(P, 7, (1,))],
                  [ent(2, 99), ent(5, 5), default(3)])
    assert restrict(state, asked) == Batch([m2], [g1], [ent(2, 20), default(0)])
    assert restrict(state, Batch()) == Batch()


def test_describe_and_explain_name_what_differs_as_a_person_reads_it():
    from controller.agent.diff import describe, explain

    lpm = TableEntry(T, (("k", 3), ("p", (0x0A000000, 8))), A, (("v", 1),))
    rng = TableEntry(T, (("k", 3), ("r", (2, 9, 1))), A, (("v", 1),))
    assert describe(lpm) == f"{T} [k=3 p={0x0A000000}/8]"
    assert describe(rng) == f"{T} [k=3 r=(2, 9, 1)]"
    assert describe(ent(4, 1, prio=7)) == f"{T} [k=4] priority 7"
    assert describe(default(1)) == f"{T} default entry"
    assert describe(Member(P, 3, A, ())) == f"{P} member 3"
    assert describe(Group(P, 2, (3, 4))) == f"{P} group 2 (members 3, 4)"
    assert describe("other") == "'other'"
    actual = Batch(entries=[ent(k, 0) for k in range(6)])
    desired = Batch(entries=[ent(0, 1)] + [ent(k, 0) for k in range(10, 15)])
    assert explain(actual, desired) == (
        f"5 missing ({T} [k=10]; {T} [k=11]; {T} [k=12]; ...), 1 different ({T} [k=0]), "
        f"5 unexpected ({T} [k=1]; {T} [k=2]; {T} [k=3]; ...)")
    assert explain(actual, desired, limit=5).startswith(f"5 missing ({T} [k=10]; {T} [k=11]; {T} [k=12]; {T} [k=13]; "
                                                        f"{T} [k=14]), ")
    assert explain(Batch(members=[Member(P, 1, A, ())]), Batch(groups=[Group(P, 2, (3,))])) == \
        f"1 missing ({P} group 2 (members 3)), 1 unexpected ({P} member 1)"
    assert explain(actual, actual) == "no difference"


@st.composite
def _row_pairs(draw):
    """Two :class:`EntryRows` of one table with the same keys in the same order (a failure's
    changed cells before and after), some rows' parameters changed."""
    import numpy as np

    m = draw(st.integers(0, 30))
    keys = np.array(draw(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 7), st.integers(0, 9)),
                                  min_size=m, max_size=m, unique=True)), dtype=np.int64).reshape(m, 3)
    old = np.array(draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=m, max_size=m)),
                   dtype=np.int64).reshape(m, 2)
    new = old.copy()
    for i in draw(st.lists(st.integers(0, max(m - 1, 0)), max_size=m)) if m else []:
        new[i, draw(st.integers(0, 1))] += 1
    return _rows(keys, old), _rows(keys.copy(), new)


def _rows(keys, params):
    from controller.tables.state import EntryRows

    return EntryRows(T, A, ("g", "s", "d"), keys, ("x", "y"), params)


@settings(max_examples=150, deadline=None)
@given(_row_pairs())
def test_changed_cells_as_columns_diff_as_their_objects_do(pair):
    """Two EntryRows of one table holding the same keys in the same order are diffed by
    their columns: the modifies are the rows whose parameters changed, in order, still
    columns (no object made), and the same updates the objects' diff gives."""
    from controller.tables.state import EntryRows

    a, b = pair
    d = diff(Batch(entries=a), Batch(entries=b))
    assert type(d.modify.entries) is EntryRows and not d.modify.entries.made() and not b.made()
    assert not d.insert.entries and not d.delete.entries
    want = diff(Batch(entries=list(a)), Batch(entries=list(b)))
    assert list(d.modify.entries) == want.modify.entries
    assert same_state(apply(Batch(entries=list(a)), d), Batch(entries=list(b)))


@settings(max_examples=150, deadline=None)
@given(_row_pairs(), st.lists(st.tuples(st.integers(0, 9), st.integers(0, 3)), unique_by=lambda x: x[0], max_size=8),
       st.lists(st.tuples(st.integers(0, 9), st.integers(0, 3)), unique_by=lambda x: x[0], max_size=8),
       st.booleans())
def test_changed_cells_as_columns_beside_objects_diff_as_their_objects_do(pair, old_objs, new_objs, clash):
    """A failure's changed per-hop cells as columns joined with its source-route cells'
    objects (another table) are diffed by the columns and the objects: the same updates
    as the objects' diff, the columns' modifies still columns. Objects of the columns'
    table beside them (``clash``): the objects' diff (which names an identity held twice)."""
    import pytest

    from controller.tables.state import EntryRows, Joined

    a, b = pair
    table = T if clash else "I.src"
    xs = [TableEntry(table, (("g", 0), ("s", 0), ("d", k)) if clash else (("k", k),), A, (("x", v), ("y", 0)))
          for k, v in old_objs]
    ys = [TableEntry(table, (("g", 0), ("s", 0), ("d", k)) if clash else (("k", k),), A, (("x", v), ("y", 0)))
          for k, v in new_objs]
    try:
        want = diff(Batch(entries=[*a, *xs]), Batch(entries=[*b, *ys]))
    except ValueError as e:             # one identity twice in a state: refused the same way
        with pytest.raises(ValueError, match="two different entries with the same identity"):
            diff(Batch(entries=Joined(a, xs)), Batch(entries=Joined(b, ys)))
        assert clash and "two different entries" in str(e)
        return
    d = diff(Batch(entries=Joined(a, xs)), Batch(entries=Joined(b, ys)))
    assert (d.insert.entries, list(d.modify.entries), d.delete.entries) == \
        (want.insert.entries, want.modify.entries, want.delete.entries)
    if not clash:       # the columns' modifies are columns (no object of theirs made to diff them)
        rows = [x for x in blocks_of(d.modify.entries) if type(x) is EntryRows]
        assert sum(len(x) for x in rows) == sum(1 for e in want.modify.entries if e.table == T)
    assert same_state(apply(Batch(entries=[*a, *xs]), d), Batch(entries=[*b, *ys]))


def blocks_of(seq):
    from controller.tables.state import blocks

    return blocks(seq)


@st.composite
def _row_sets(draw):
    """Two :class:`EntryRows` of one table whose keys differ (a dead ToR's changed cells:
    no entry towards it after), each in its own order, some common rows' parameters
    changed."""
    import numpy as np

    pool = draw(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 7), st.integers(0, 9)), max_size=30,
                         unique=True))
    old_keys = draw(st.permutations(draw(st.lists(st.sampled_from(pool), unique=True)) if pool else []))
    new_keys = draw(st.permutations(draw(st.lists(st.sampled_from(pool), unique=True)) if pool else []))
    value = {k: draw(st.tuples(st.integers(0, 3), st.integers(0, 3))) for k in pool}
    moved = {k: (v[0] + draw(st.integers(0, 1)), v[1]) for k, v in value.items()}

    def rows(keys, vals):
        return _rows(np.array(keys, dtype=np.int64).reshape(len(keys), 3),
                     np.array([vals[k] for k in keys], dtype=np.int64).reshape(len(keys), 2))
    return rows(old_keys, value), rows(new_keys, moved)


@settings(max_examples=200, deadline=None)
@given(_row_sets())
def test_cells_added_and_dropped_as_columns_diff_as_their_objects_do(pair):
    """Two EntryRows of one table whose keys differ are diffed by their columns too: rows
    only after inserted, rows only before deleted, common rows whose parameters changed
    modified, each still columns (no object made) and in the objects' diff's order."""
    from controller.tables.state import EntryRows

    a, b = pair
    d = diff(Batch(entries=a), Batch(entries=b))
    assert all(type(x) is EntryRows for x in (d.insert.entries, d.modify.entries, d.delete.entries) if len(x))
    assert not a.made() and not b.made()
    want = diff(Batch(entries=list(a)), Batch(entries=list(b)))
    assert (list(d.insert.entries), list(d.modify.entries), list(d.delete.entries)) == \
        (want.insert.entries, want.modify.entries, want.delete.entries)
    assert same_state(apply(Batch(entries=list(a)), d), Batch(entries=list(b)))


def test_columns_that_do_not_line_up_are_diffed_as_objects():
    """Another table, or a key twice: the objects' diff (which names a key held twice);
    other keys or another order: columns, the same updates."""
    import numpy as np
    import pytest

    from controller.tables.state import EntryRows

    k = np.array([[0, 1, 2], [0, 1, 3]])
    p = np.array([[1, 1], [2, 2]])
    a = _rows(k, p)
    for b, columns in ((_rows(k[::-1].copy(), p + 1), True), (_rows(np.array([[0, 1, 2], [0, 1, 4]]), p), True),
                       (EntryRows("I.u", A, ("g", "s", "d"), k, ("x", "y"), p + 1), False)):
        d = diff(Batch(entries=a), Batch(entries=b))
        want = diff(Batch(entries=list(a)), Batch(entries=list(b)))
        assert (list(d.insert.entries), list(d.modify.entries), list(d.delete.entries)) == \
            (want.insert.entries, want.modify.entries, want.delete.entries)
        assert (type(d.modify.entries) is EntryRows) == columns
    twice = _rows(np.array([[0, 1, 2], [0, 1, 2]]), p)
    for before, after in ((_rows(twice.keys, p + 1), twice), (twice, _rows(np.array([[0, 1, 2], [0, 1, 5]]), p)),
                          (_rows(np.array([[0, 1, 2], [0, 1, 5]]), p), twice)):
        with pytest.raises(ValueError, match="two different entries with the same identity"):
            diff(Batch(entries=before), Batch(entries=after))


@settings(max_examples=100, deadline=None)
@given(st.permutations(["g", "s", "d"]), st.permutations(["x", "y", "up10", "up2"]), st.integers(0, 12), st.data())
def test_entries_made_from_columns_carry_the_identity_and_content_the_diff_computes(knames, pnames, m, data):
    """An entry made from columns carries its identity and content already (its pairs
    sorted by name, whatever the columns' order): what the diff would compute for it."""
    import numpy as np

    from controller.agent.diff import _entry_value, entry_key
    from controller.tables.state import MEMO_ATTRS, EntryRows

    vals = st.lists(st.integers(0, 3), min_size=m * 4, max_size=m * 4)
    rows = EntryRows(T, A, tuple(knames), np.array(data.draw(vals)[:m * 3], dtype=np.int64).reshape(m, 3),
                     tuple(pnames), np.array(data.draw(vals), dtype=np.int64).reshape(m, 4))
    for e in rows:
        fresh = TableEntry(e.table, e.match, e.action, e.params)
        assert e.__dict__[MEMO_ATTRS[0]] == entry_key(fresh)
        assert e.__dict__[MEMO_ATTRS[1]] == _entry_value(fresh)
