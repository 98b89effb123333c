"""KnownState: a switch's last read plus the writes it acknowledged since equals what a
read of the switch would answer (checked against the fake switch, for random states and
random diffs, including deletes and config-entry writes)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

pytest.importorskip("prometheus_client", reason="needs the daemon extra")

from controller.agent.diff import Diff  # noqa: E402
from controller.agent.diff import diff, same_state  # noqa: E402
from controller.agent.known import KnownState  # noqa: E402
from controller.tables.state import Batch, Group, Member, TableEntry  # noqa: E402

from daemon_fakes import FakeSwitch  # noqa: E402


@st.composite
def states(draw):
    mids = draw(st.lists(st.integers(1, 6), unique=True, max_size=6))
    members = [Member("P.prof", i, "P.set", (("v", draw(st.integers(0, 3))),)) for i in mids]
    groups = []
    if mids:
        for gid in draw(st.lists(st.integers(1, 4), unique=True, max_size=4)):
            groups.append(Group("P.prof", gid, tuple(draw(st.lists(st.sampled_from(mids), min_size=1, unique=True)))))
    entries = [TableEntry("P.t", (("k", k),), "P.a", (("v", draw(st.integers(0, 3))),))
               for k in draw(st.lists(st.integers(0, 9), unique=True, max_size=8))]
    for k in draw(st.lists(st.integers(10, 14), unique=True, max_size=3)) if groups else []:
        entries.append(TableEntry("P.s", (("k", k),), None, (), group_id=draw(st.sampled_from(groups)).group_id))
    entries.append(TableEntry("P.cfg", (), "P.c", (("g", draw(st.integers(0, 1))),), is_default=True))
    return Batch(members, groups, entries)


def _switch(b: Batch) -> FakeSwitch:
    sw = FakeSwitch()
    sw.apply(diff(Batch(entries=[e for e in b.entries if e.is_default]), b))
    for e in b.entries:
        if e.is_default:
            sw.set_entry(e)
    return sw


@settings(deadline=None, max_examples=60)
@given(states(), st.lists(states(), min_size=1, max_size=3), st.integers(0, 1))
def test_the_last_read_plus_acknowledged_writes_is_what_the_switch_holds(first, later, g):
    sw = _switch(first)
    known = KnownState(sw.state())
    for want in later:
        d = diff(sw.state(), want)
        sw.apply(d)
        known.apply(d)
        cfg = TableEntry("P.cfg", (), "P.c", (("g", g),), is_default=True)
        sw.set_entry(cfg)
        known.apply(Diff(modify=Batch(entries=[cfg])))   # as the daemon's config write
        assert same_state(known.batch(), sw.state())
        assert same_state(sw.state(), Batch(want.members, want.groups,
                                            [e for e in want.entries if not e.is_default] + [cfg]))


def test_what_is_made_of_the_state_is_kept_until_the_next_write():
    """The split an update's survey and prepare both ask for is made once, and made again
    from the new state after a write (never a split of what the switch no longer holds)."""
    e1 = TableEntry("P.t", (("k", 1),), "P.a", (("v", 1),))
    known = KnownState(Batch(entries=[e1]))
    made = []

    def keys(b: Batch) -> list:
        made.append(b)
        return sorted(dict(e.match)["k"] for e in b.entries)

    assert known.derived("keys", keys) == [1] and known.derived("keys", keys) == [1]
    assert len(made) == 1 and known.batch() is made[0]
    e2 = TableEntry("P.t", (("k", 2),), "P.a", (("v", 2),))
    known.apply(Diff(insert=Batch(entries=[e2])))
    assert known.derived("keys", keys) == [1, 2] and len(made) == 2
    known.apply(Diff(delete=Batch(entries=[e1])))
    assert known.derived("keys", keys) == [2] and known.derived("other", keys) == [2] and len(made) == 4


def test_a_patch_carries_what_was_made_across_the_writes_it_accepts():
    """``derived(..., patch)``: a write the patch accepts carries the value over (patched:
    nothing made again); one it refuses (None) drops it, and the next ask makes it anew."""
    e1 = TableEntry("P.t", (("k", 1),), "P.a", (("v", 1),))
    cfg = TableEntry("P.cfg", (), "P.c", (("g", 0),), is_default=True)
    known = KnownState(Batch(entries=[e1, cfg]))
    made, patched = [], []

    def cfgs(b: Batch) -> list:
        made.append(b)
        return [dict(e.params)["g"] for e in b.entries if e.is_default]

    def patch(v, d):
        patched.append(d)
        es = d.insert.entries + d.modify.entries
        if d.delete.entries or not all(e.is_default for e in es):
            return None
        return [dict(e.params)["g"] for e in es] or v

    assert known.derived("cfg", cfgs, patch) == [0]
    cfg1 = TableEntry("P.cfg", (), "P.c", (("g", 1),), is_default=True)
    known.apply(Diff(modify=Batch(entries=[cfg1])))
    assert known.derived("cfg", cfgs, patch) == [1] and len(made) == 1 and len(patched) == 1
    assert known.derived("cfg", cfgs, patch) == cfgs(known.batch())          # what making it gives
    known.apply(Diff(insert=Batch(entries=[TableEntry("P.t", (("k", 2),), "P.a", (("v", 2),))])))
    assert known.derived("cfg", cfgs, patch) == [1] and len(made) == 3       # refused: made again


def test_a_patch_is_given_the_value_made_before_the_write():
    """The patch turns the value made before a write into the value after it: it is
    handed that value (here a count it carries on), not made anew."""
    e1 = TableEntry("P.t", (("k", 1),), "P.a", (("v", 1),))
    known = KnownState(Batch(entries=[e1]))
    assert known.derived("n", lambda b: len(b.entries), lambda v, d: v + len(d.insert.entries)) == 1
    for k in (2, 3):
        known.apply(Diff(insert=Batch(entries=[TableEntry("P.t", (("k", k),), "P.a", (("v", k),))])))
    assert known.derived("n", lambda b: -1) == 3


def test_a_delete_of_something_it_did_not_know_of_is_taken_as_done():
    """The switch acknowledged the delete of an object the known state does not hold
    (another writer's, a stale state): nothing to forget, no error."""
    e1 = TableEntry("P.t", (("k", 1),), "P.a", (("v", 1),))
    m = Member("P.sel", 3, "P.a", (("v", 1),))
    known = KnownState(Batch(entries=[e1]))
    known.apply(Diff(delete=Batch(members=[m], groups=[Group("P.sel", 4, (3,))],
                                  entries=[TableEntry("P.t", (("k", 2),), "P.a", (("v", 2),))])))
    assert known.batch() == Batch(entries=[e1])


def test_holds_is_every_object_by_identity_and_follows_the_writes():
    """``holds``: every member, group and entry of a batch is kept, by identity (another
    content of the same identity counts: a delete finds it by identity), and what a write
    deleted is no longer held (the deletes a prepare leaves for after its flip are written
    only where it still holds them)."""
    m, m2 = Member("P.sel", 3, "P.a", (("v", 1),)), Member("P.sel", 5, "P.a", (("v", 2),))
    g = Group("P.sel", 4, (3,))
    e = TableEntry("P.t", (("k", 1),), None, (), group_id=4)
    known = KnownState(Batch([m, m2], [g], [e]))
    assert known.holds(Batch([m, m2], [g], [e])) and known.holds(Batch())
    assert known.holds(Batch(members=[Member("P.sel", 3, "P.b", ())]))
    assert not known.holds(Batch(members=[m, Member("P.sel", 6, "P.a", ())]))
    assert not known.holds(Batch(groups=[Group("P.sel", 3, (3,))]))          # a member's id, not a group's
    assert not known.holds(Batch(entries=[TableEntry("P.t", (("k", 2),), None, (), group_id=4)]))
    known.apply(Diff(delete=Batch(members=[m2])))
    assert not known.holds(Batch(members=[m2])) and known.holds(Batch([m], [g], [e]))


# ---- route generations kept as what they hold (KnownState.compact) ----------------------------
_BIT = 1 << 31


@st.composite
def gen_states(draw):
    """A switch with two route generations (entries keyed by ``generation``, members and
    groups with the generation in bit 31 of their ids), a static entry and the config."""
    out = Batch()
    for g in (0, 1):
        mids = draw(st.lists(st.integers(1, 5), unique=True, max_size=4))
        out.members += [Member("P.prof", g * _BIT | i, "P.set", (("v", draw(st.integers(0, 3))),)) for i in mids]
        grps = []
        if mids:
            for gid in draw(st.lists(st.integers(1, 3), unique=True, max_size=3)):
                grps.append(Group("P.prof", g * _BIT | gid,
                                  tuple(g * _BIT | m for m in draw(st.lists(st.sampled_from(mids), min_size=1,
                                                                            unique=True)))))
        out.groups += grps
        out.entries += [TableEntry("P.r", (("generation", g), ("k", k)), "P.a", (("v", draw(st.integers(0, 3))),))
                        for k in draw(st.lists(st.integers(0, 6), unique=True, max_size=6))]
        out.entries += [TableEntry("P.s", (("generation", g), ("k", k)), None, (), group_id=draw(st.sampled_from(grps)).group_id)
                        for k in (draw(st.lists(st.integers(10, 12), unique=True, max_size=2)) if grps else [])]
    out.entries.append(TableEntry("P.host", (("h", 1),), "P.a", (("v", draw(st.integers(0, 3))),)))
    out.entries.append(TableEntry("P.cfg", (), "P.c", (("g", draw(st.integers(0, 1))),), is_default=True))
    return out


def _gen(b: Batch, g: int) -> Batch:
    return Batch([m for m in b.members if m.member_id >> 31 == g], [x for x in b.groups if x.group_id >> 31 == g],
                 [e for e in b.entries if dict(e.match).get("generation") == g])


@settings(deadline=None, max_examples=80)
@given(gen_states(), st.lists(gen_states(), min_size=1, max_size=3), st.lists(st.integers(0, 1), max_size=3),
       st.booleans())
def test_a_generation_kept_as_what_it_holds_reads_as_the_switch(first, later, renote, note_after):
    """A generation compacted (kept as a function building its objects) and the writes of
    random diffs into both generations after it: the known state reads as what the switch
    holds; noting what a generation holds after the writes keeps it so; its objects are
    dropped, not kept."""
    import controller.agent.known as km
    old, km.COMPACT_MIN_OBJECTS = km.COMPACT_MIN_OBJECTS, 0
    try:
        sw = _switch(first)
        known = KnownState(sw.state())
        for g in (0, 1):
            made = _gen(first, g)
            assert known.compact(g, ("v", g), lambda made=made: made)
        assert known.objects() == 2 and known.held() == {0: ("v", 0), 1: ("v", 1)}
        assert same_state(known.batch(), sw.state())
        for i, want in enumerate(later):
            d = diff(sw.state(), want)
            sw.apply(d)
            known.apply(d)
            assert same_state(known.batch(), sw.state())
            assert known.entry(d.insert.entries[0]._identity if d.insert.entries else ("P.host", (("h", 1),), 0)) \
                is not None
            if note_after and i < len(renote):
                g = renote[i]
                now = _gen(sw.state(), g)
                known.compact(g, ("w", i), lambda now=now: now)    # noted after the write
                assert known.held()[g] == ("w", i) and same_state(known.batch(), sw.state())
    finally:
        km.COMPACT_MIN_OBJECTS = old


def test_a_generation_that_is_not_a_route_generation_is_kept_as_objects():
    """compact refuses what would drop objects of another generation or statics."""
    import controller.agent.known as km
    old, km.COMPACT_MIN_OBJECTS = km.COMPACT_MIN_OBJECTS, 0
    try:
        e0 = TableEntry("P.r", (("generation", 0), ("k", 1)), "P.a", (("v", 1),))
        host = TableEntry("P.host", (("h", 1),), "P.a", (("v", 1),))
        known = KnownState(Batch(entries=[e0, host]))
        assert not known.compact(0, "v", lambda: Batch(entries=[e0, host]))
        assert known.held() == {} and known.objects() == 2
        assert known.compact(0, "v", lambda: Batch(entries=[e0]))
        assert known.objects() == 1 and same_state(known.batch(), Batch(entries=[e0, host]))
    finally:
        km.COMPACT_MIN_OBJECTS = old


def test_a_generation_smaller_than_the_threshold_is_not_built_to_find_out():
    """A switch above COMPACT_MIN_OBJECTS whose generation is below it (a (108, 6) UCMP
    ToR's two generations and statics): noting what the generation holds does not build its
    routes (``make`` is not called) and keeps its objects; a generation at the threshold is
    built once and compacted."""
    import controller.agent.known as km
    old, km.COMPACT_MIN_OBJECTS = km.COMPACT_MIN_OBJECTS, 10
    try:
        gens = [[TableEntry("P.r", (("generation", g), ("k", k)), "P.a", (("v", k),)) for k in range(6 + 4 * g)]
                for g in (0, 1)]
        cfg = TableEntry("P.cfg", (), "P.c", (("g", 0),), is_default=True)
        known = KnownState(Batch(entries=[*gens[0], *gens[1], cfg]))
        built = []

        def make(g):
            return lambda: built.append(g) or Batch(entries=list(gens[g]))
        assert not known.compact(0, "v", make(0))             # 6 entries: not built
        assert built == [] and known.held() == {}
        assert known.compact(1, "v", make(1))                  # 10 entries: built, kept as "v"
        assert built == [1] and known.held() == {1: "v"} and known.objects() == 7
        assert same_state(known.batch(), Batch(entries=[*gens[0], *gens[1], cfg]))
    finally:
        km.COMPACT_MIN_OBJECTS = old


def _loose_of(known: KnownState, g: int) -> int:
    b = _gen(known.loose(), g)
    return len(b.members) + len(b.groups) + len(b.entries)


@settings(deadline=None, max_examples=80)
@given(gen_states(), st.lists(gen_states(), min_size=1, max_size=3), st.sampled_from([None, 0, 1]))
def test_the_objects_of_a_generation_are_counted_once_and_kept_by_every_write(first, later, compacted):
    """How many objects of each generation the known state keeps (what compact asks before
    it builds a generation) is counted when first asked and kept up to date by the writes
    after it, with or without a generation kept as its routes: it equals a count of
    :meth:`KnownState.loose` after random diffs."""
    import controller.agent.known as km
    old, km.COMPACT_MIN_OBJECTS = km.COMPACT_MIN_OBJECTS, 0
    try:
        sw = _switch(first)
        known = KnownState(sw.state())
        assert [known._objects_of(g) for g in (0, 1)] == [_loose_of(known, g) for g in (0, 1)]
        if compacted is not None:
            made = _gen(first, compacted)
            assert known.compact(compacted, "v", lambda: made)
            assert known._objects_of(compacted) == 0
        for want in later:
            d = diff(sw.state(), want)
            sw.apply(d)
            known.apply(d)
            known.apply(d)          # (acknowledged twice: a retried write; nothing counted twice)
            assert [known._objects_of(g) for g in (0, 1)] == [_loose_of(known, g) for g in (0, 1)]
            assert same_state(known.batch(), sw.state())
    finally:
        km.COMPACT_MIN_OBJECTS = old


def test_a_write_costs_the_count_its_own_objects_only(monkeypatch):
    """Once counted, the count is not made again: asking again looks at no object, and a
    write looks at the objects it wrote (a (108, 6) UCMP ToR's ~7K objects were counted
    twice after every write of a failure's update: half its CPU)."""
    import controller.agent.known as km
    entries = [TableEntry("P.r", (("generation", g), ("k", k)), "P.a", (("v", k),)) for g in (0, 1) for k in range(50)]
    known = KnownState(Batch(entries=entries))
    looked = []
    real = km._gen_of
    monkeypatch.setattr(km, "_gen_of", lambda x, key, kind: looked.append(key) or real(x, key, kind))
    assert known._objects_of(0) == 50 and len(looked) == 50 * 2
    looked.clear()
    assert known._objects_of(1) == 50 and known._objects_of(0) == 50 and looked == []
    e = TableEntry("P.r", (("generation", 1), ("k", 99)), "P.a", (("v", 1),))
    known.apply(Diff(insert=Batch(entries=[e])))
    assert len(looked) == 1 and known._objects_of(1) == 51 and known._objects_of(0) == 50


def test_a_compacted_generation_keeps_bytes_of_the_statics_only():
    """A switch read whole with a large route generation, then the generation compacted:
    the known state takes the bytes of a known state of its statics alone, plus a bounded
    amount per route entry it no longer keeps (bytes counted with pympler's ``asizeof``;
    a dict that held the generation keeps its room unless copied: ~30 B per entry)."""
    asizeof = pytest.importorskip("pympler.asizeof", reason="needs pympler (the test extra)").asizeof
    n = 20_000                     # above COMPACT_MIN_OBJECTS: compacted as at (1024, 32)
    gen = Batch(entries=[TableEntry("P.r", (("generation", 0), ("k", k)), "P.a", (("v", k % 7),)) for k in range(n)])
    statics = [TableEntry("P.host", (("h", h),), "P.a", (("v", 1),)) for h in range(8)]
    statics.append(TableEntry("P.cfg", (), "P.c", (("g", 0),), is_default=True))
    known = KnownState(Batch(entries=[*gen.entries, *statics]))
    assert known.compact(0, "v0", lambda: gen)
    floor = asizeof(KnownState(Batch(entries=statics)))
    kept = asizeof(known, code=False) - floor
    assert kept <= 4 * n, f"{kept} B kept beyond the statics for {n} route entries compacted ({kept / n:.1f} B each)"
    assert same_state(known.batch(), Batch(entries=[*gen.entries, *statics]))
