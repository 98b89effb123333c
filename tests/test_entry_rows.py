"""Table entries as columns (controller.tables.state.EntryRows): the entries a list of the
same objects holds, asked for by index, slice or iteration; the sequences that join or
derive them (a batch's members then its rows, the other generation's shadow) keep them as
columns, so that the encoder takes the columns and no entry is made on a first install."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from controller.agent.backend import Inserts
from controller.tables import bulk
from controller.tables.entries import check_sizes
from controller.tables.state import Batch, EntryRows, Joined, Member, TableEntry, blocks, entry_tables


def _rows(m: int, seed: int = 0) -> EntryRows:
    rng = np.random.default_rng(seed)
    keys = np.stack([np.zeros(m, dtype=np.int64), rng.integers(0, 8, m), np.arange(m)], axis=1)
    params = rng.integers(0, 300, (m, 3))
    return EntryRows("I.t", "I.a", ("generation", "slice", "dst"), keys, ("n", "up0", "wait0"), params)


def _objects(r: EntryRows) -> list[TableEntry]:
    """The entries written out one by one, as a builder of objects makes them."""
    return [TableEntry(r.table, tuple(zip(r.key_names, k)), r.action, tuple(zip(r.param_names, p)))
            for k, p in zip(r.keys.tolist(), r.params.tolist())]


def test_rows_are_the_list_of_their_entries_and_are_made_once_when_iterated():
    r = _rows(50)
    want = _objects(r)
    assert len(r) == 50 and not r.made()
    assert r[0] == want[0] and r[-1] == want[-1] and r[17] == want[17]
    assert not r.made()                                   # an index makes one entry, none kept
    part = r[5:9]
    assert type(part) is EntryRows and not r.made() and part == want[5:9]
    assert r == want and want == r and r.made()
    made = r.entries()
    assert r.entries() is made and list(r)[3] is made[3]  # iterated again: the same objects
    assert repr(r) == repr(want)
    assert r[10:12] == want[10:12] and r[-1] is made[-1]
    assert r != want[:-1] and r != [*want[:-1], want[0]]


def test_rows_added_to_a_list_or_extended_become_a_list_of_the_same_entries():
    r, m = _rows(6), Member("I.p", 1, "I.a", ())
    e = TableEntry("I.t", (("generation", 0),), "I.a", ())
    assert r + [e] == [*_objects(r), e] and [e] + r == [e, *_objects(r)]
    b = Batch(entries=r)
    b.extend(Batch([m], [], [e]))
    assert type(b.entries) is list and b.entries == [*_objects(_rows(6)), e] and b.members == [m]


def test_with_key_sets_one_key_column_and_leaves_the_rows_as_they_are():
    r = _rows(20)
    o = r.with_key("generation", 1)
    assert o == [TableEntry(x.table, (("generation", 1), *x.match[1:]), x.action, x.params) for x in _objects(r)]
    assert (r.keys[:, 0] == 0).all() and not r.made()


def test_tables_are_counted_and_checked_without_making_the_entries():
    r = _rows(30)
    e = TableEntry("I.t", (("generation", 0),), "I.a", ())
    d = TableEntry("I.u", (), "I.a", (), True)
    assert entry_tables(r) == ({"I.t": 30}, False)
    assert entry_tables(Joined([e, d], r)) == ({"I.t": 31}, True)
    assert entry_tables(Joined([], _rows(0))) == ({}, False)
    contract = {"profile": {"name": "p"}, "tables": {"t": {"name": "I.t", "short": "t", "size": 64}}}
    check_sizes(contract, Batch(entries=r), "ToR 0")
    assert not r.made()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 6), st.integers(0, 12), st.integers(-20, 20), st.integers(-20, 20))
def test_a_joined_sequence_slices_as_a_list_and_keeps_its_rows_as_columns(n_first, m, start, stop):
    first = [Member("I.p", i, "I.a", ()) for i in range(n_first)]
    rows = _rows(m)
    j = Joined(first, rows)
    want = [*first, *_objects(rows)]
    assert list(j[start:stop]) == want[start:stop]
    assert list(j[::2]) == want[::2]
    assert not rows.made()
    assert [type(b) for b in blocks(j)] == [list, EntryRows]


def test_an_inserts_batch_keeps_the_rows_it_was_made_of():
    m = Member("I.p", 1, "I.a", ())
    rows = _rows(8)
    b = Inserts(Joined([m], rows), [b""] * 9).batch()
    assert b.members == [m] and b.entries is rows and not rows.made()
    b = Inserts(Joined([m], rows[2:4]), [b""] * 3).part(0, 2).batch()
    assert b.members == [m] and b.entries == _objects(rows)[2:3]


def test_the_other_generation_of_rows_is_their_key_column_set():
    m = Member("I.p", 5, "I.a", ())
    rows = _rows(12)
    r = bulk.Regenerated(Joined([m], rows), 1)
    got = blocks(r)
    assert type(got[1]) is EntryRows and (got[1].keys[:, 0] == 1).all()
    assert not rows.made()
    assert [*got[0], *got[1]] == list(r) == [r.derive(x) for x in [m, *_objects(rows)]]
