"""Bulk route-entry builders (controller/tables/bulk.py) against the per-entry reference.

The reference (``entries.uro_entries_reference``, ``ssrr_entries_reference``,
``ssrr_exact_entries_reference``, one ``make_entry`` per entry) stays in the code; the fast
builders must return the same objects in the same order -- or raise the same error --
for every schedule, profile, generation and set of source-routed destinations, on both
SSRR layouts (bmv2's selector groups, t2na's exact entries). ``tor_batch.regenerate``
must equal a fresh build for the other generation.
"""

from __future__ import annotations

from types import SimpleNamespace
from unittest import mock

import numpy as np

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.p4gen import render as rnd
from controller.p4gen.profile import Profile, ProfileError
from controller.routing import ksp, ucmp
from controller.routing.uro import UroParams
from controller.routing.uro import compute as uro_compute
from controller.schedule import round_robin
from controller.tables import bulk
from controller.tables import entries as ent
from controller.tables import perhop
from controller.tables import tor_batch as tb
from strategies import small_schedules

REFERENCES = ("uro_entries_reference", "ssrr_entries_reference", "ssrr_exact_entries_reference")


def _contract(n, d, s, k, h, target=None, **tables):
    from controller.p4gen.profile import ProfileTables

    kw = {"tables": ProfileTables(**tables)} if tables else {}
    p = Profile(name="bulk", tors=n, uplinks=d, host_ports=2, slices=s, alternatives=k, ssrr_hops=h,
                queues=max(2, s), **kw)
    return rnd.render(p, "tor", target)[1] if target else rnd.contract(p, "tor")


def _outcome(f):
    """(value, None) or (None, (error type, message)): equal outcomes = same objects or the same error."""
    try:
        return f(), None
    except ent.EntryError as e:
        return None, (type(e), str(e))


def _same(a, b):
    """Equal objects and equal reprs (an int where the reference has an int, not a NumPy scalar or bool)."""
    assert a == b
    assert repr(a) == repr(b)


def _fast_only():
    """Fail if a bulk builder falls back to the reference (for inputs that fit)."""
    return mock.patch.multiple(ent, **{r: mock.Mock(side_effect=AssertionError(f"fell back to {r}"))
                                       for r in REFERENCES})


def _check(c, uro, paths, tor, sr, fits=True):
    """Fast == reference for every builder and generation; regenerate == fresh build."""
    for g in (0, 1):
        want_u = _outcome(lambda: ent.uro_entries_reference(c, uro, tor, g))
        want_s = _outcome(lambda: ent.ssrr_entries_reference(c, paths, tor, g, sr))
        if fits:
            assert want_u[1] is None and want_s[1] is None, (want_u[1], want_s[1])
            with _fast_only():
                got_u = _outcome(lambda: bulk.uro_entries(c, uro, tor, g))
                got_s = _outcome(lambda: bulk.ssrr_entries(c, paths, tor, g, iter(sr)))
        else:
            got_u = _outcome(lambda: bulk.uro_entries(c, uro, tor, g))
            got_s = _outcome(lambda: bulk.ssrr_entries(c, paths, tor, g, iter(sr)))
        _same(got_u, want_u)
        _same(got_s, want_s)
        _same(bulk.route_mode_entries(c, sr, True, g), [ent.route_mode_entry(c, d, True, g) for d in sr])
    built = {g: _outcome(lambda: tb.route_entries(c, tor, uro, paths, sr, g)) for g in (0, 1)}
    for g in (0, 1):
        if built[g][1] is None:
            _same(tb.regenerate(built[g][0], 1 - g), built[1 - g][0])
            assert tb.regenerate(built[g][0], g) == built[g][0]
        else:
            assert built[1 - g][1] == built[g][1]     # errors do not depend on the generation
    _check_counted(c, uro, paths, tor, sr, built, fits)


def _check_counted(c, uro, paths, tor, sr, built, fits):
    """The start-up checks' count (``tor_batch.check_route_entries``): the build's number of
    objects, or its error; where the fast path fits, the per-hop entries not built."""
    for g in (0, 1):
        with mock.patch.object(bulk, "uro_entries", wraps=bulk.uro_entries) as uro_built:
            got = _outcome(lambda: tb.check_route_entries(c, tor, uro, paths, sr, g))
        want, err = built[g]
        if err is not None:
            assert got == (None, err)
            continue
        assert got[1] is None
        assert got[0][0] == len(want.entries) + len(want.members) + len(want.groups)
        if fits:
            assert got[0][1] is None and not uro_built.called
        # asked to build a small batch whose source routes it builds anyway: built once, whole
        with mock.patch.object(bulk, "ssrr_entries", wraps=bulk.ssrr_entries) as ssrr_built:
            n, b = tb.check_route_entries(c, tor, uro, paths, sr, g, build_below=1 << 30)
        assert n == got[0][0]
        if paths is not None and any(d != tor for d in sr) and fits:
            assert b is not None and b.objects() == n and ssrr_built.call_count == 1
            _same((b, None), (want, None))
        elif fits:
            assert b is None


@st.composite
def cases(draw):
    sched = draw(small_schedules(max_tors=7))
    n, d, s = sched.n_tors, sched.n_uplinks, sched.n_slices
    k_routes = draw(st.integers(1, 4))
    h = draw(st.integers(1, 5))
    tor = draw(st.integers(0, n - 1))
    sr = draw(st.lists(st.sampled_from([x for x in range(n) if x != tor]), max_size=n - 1, unique=True))
    return sched, k_routes, h, tor, sr


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.sampled_from([None, "tofino2"]), st.booleans())
def test_bulk_equals_reference(case, target, fit):
    """Random small schedules, K, H, source-routed sets; both SSRR layouts; a profile the
    routes fit (the fast path must be taken) or one with a smaller K / H (same errors)."""
    sched, k, h, tor, sr = case
    n, d, s = sched.n_tors, sched.n_uplinks, sched.n_slices
    uro = uro_compute(sched, UroParams(k=k, max_hops=4))
    paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=h))
    kk, hh = (k, h) if fit else (max(1, k - 1), max(1, h - 1))
    try:
        c = _contract(max(n, 2), d, s, kk, hh, target, ssrr_ties=8, ssrr_ranges=8, ssrr_paths=16)
    except ProfileError:
        return        # a profile the target cannot hold (no program to build entries for)
    ok_k = all(len(e.alternatives) <= kk for e in perhop.entries(uro, tor))
    _check(c, uro, paths, tor, sr, fits=fit and ok_k and _fits_exact(c, paths, tor, sr))


def _fits_exact(c, paths, tor, sr):
    """The reference builds the SSRR entries for these destinations (the t2na layout can
    refuse a tie count, a group or shape id the profile cannot hold)."""
    return all(_outcome(lambda: ent.ssrr_entries_reference(c, paths, tor, g, sr))[1] is None for g in (0, 1))


def test_bulk_equals_reference_on_the_tiny_profile_both_layouts():
    """The bmv2 and t2na programs of profile tiny: per-hop and UCMP source routes to some
    destinations, the fast path taken, the other generation derived."""
    from controller.p4gen import profile as prof

    p = prof.load("tiny")
    sched = round_robin(p.tors, p.uplinks)
    uro = uro_compute(sched, UroParams(k=p.alternatives, max_hops=4))
    paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=4))
    for c in (rnd.contract(p, "tor"), rnd.render(p, "tor", "tofino2")[1]):
        for tor in (0, 3):
            _check(c, uro, paths, tor, [d for d in (1, 2, 5, 6) if d != tor])
        b = tb.route_entries(c, 3, uro, paths, [5, 6], 0)
        assert b.entries and any(e.table.endswith("ssrr_path") for e in b.entries)
        for g in (0, 1):          # every destination (dsts None): the same entries or the same error
            _same(_outcome(lambda: bulk.ssrr_entries(c, paths, 3, g)),
                  _outcome(lambda: ent.ssrr_entries_reference(c, paths, 3, g)))
    # the selector layout: both builders give the content-stable ids (docs/daemon.md
    # "Diff-only writes"): a group's id is its ssrr_path key, its members follow it
    c = rnd.contract(p, "tor")
    per = c["action_profiles"]["ssrr_selector"]["max_group_size"]
    for build in (bulk.ssrr_entries, ent.ssrr_entries_reference):
        b = build(c, paths, 3, 1)
        members = {g.group_id: g.member_ids for g in b.groups}
        assert b.entries
        for e in b.entries:
            k = dict(e.match)
            gid = ((k["dst_tor"] * sched.n_slices + k["start_slice"]) << p.bucket_bits) + k["bucket"][0] + 1
            assert e.group_id == 1 << 31 | gid
            assert members[e.group_id] == tuple(1 << 31 | (gid - 1) * per + 1 + i
                                                for i in range(len(members[e.group_id])))


def test_errors_are_the_references():
    """Entries that do not fit raise the reference's error, naming the same entry:
    too many alternatives, a path longer than H, a generation out of 0/1, a width."""
    sched = round_robin(8, 2)
    uro = uro_compute(sched, UroParams(k=3, max_hops=4))
    paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=4))
    small = _contract(8, 2, 4, 2, 2)
    for f, ref in ((lambda c, g: bulk.uro_entries(c, uro, 0, g), lambda c, g: ent.uro_entries_reference(c, uro, 0, g)),
                   (lambda c, g: bulk.ssrr_entries(c, paths, 0, g), lambda c, g: ent.ssrr_entries_reference(c, paths, 0, g))):
        for g in (0, 2):
            got, want = _outcome(lambda: f(small, g)), _outcome(lambda: ref(small, g))
            assert want[1] is not None and got == want
    with pytest.raises(ent.EntryError, match="compute the routes with k <= 2"):
        bulk.uro_entries(small, uro, 0)
    with pytest.raises(ent.EntryError, match="ssrr_hops = 2"):
        bulk.ssrr_entries(small, paths, 0)
    # a key too narrow for the destination ids: the reference's width error
    narrow = _contract(8, 2, 4, 3, 4)
    narrow["tables"]["route_mode"]["keys"][1]["bitwidth"] = 2
    with pytest.raises(ent.EntryError, match="key dst_tor = 5 does not fit 2 bits"):
        tb.route_entries(narrow, 0, uro, paths, [5])
    narrow["tables"]["uro_next_hop"]["keys"][2]["bitwidth"] = 2
    assert _outcome(lambda: bulk.uro_entries(narrow, uro, 0)) == _outcome(lambda: ent.uro_entries_reference(narrow, uro, 0))


def test_the_checks_count_refuses_a_table_too_small_as_the_build_does():
    """A per-hop table one entry too small for a ToR's routes: the count raises the build's
    error (the numbers, the table, the profile); one entry more and it passes, counted and
    not built."""
    sched = round_robin(8, 2)
    uro = uro_compute(sched, UroParams(k=3, max_hops=4))
    c = _contract(8, 2, 4, 3, 4)
    b = tb.route_entries(c, 0, uro, None, [])
    need = sum(1 for e in b.entries if e.table == c["tables"]["uro_next_hop"]["name"])
    gens = c.get("generations", {}).get("count", 1)
    c["tables"]["uro_next_hop"]["size"] = (need - 1) * gens
    want = _outcome(lambda: tb.route_entries(c, 0, uro, None, []))
    assert want[1] is not None and f"needs {need} entries" in want[1][1]
    with pytest.raises(ent.EntryError) as e:
        tb.check_route_entries(c, 0, uro, None, [])
    assert (type(e.value), str(e.value)) == want[1]
    c["tables"]["uro_next_hop"]["size"] = need * gens
    with mock.patch.object(bulk, "uro_entries", side_effect=AssertionError("built")):
        assert tb.check_route_entries(c, 0, uro, None, []) == (len(b.entries), None)


def test_regenerate_changes_only_the_generation():
    """The derived batch differs from its source exactly in the generation key and bit 31
    of member/group ids; the source batch is left as it was; a non-route entry is refused."""
    c = _contract(8, 2, 4, 3, 4)
    sched = round_robin(8, 2)
    uro = uro_compute(sched, UroParams(k=3, max_hops=4))
    paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=4))
    b0 = tb.route_entries(c, 2, uro, paths, [1, 5], 0)
    before = repr(b0)
    b1 = tb.regenerate(b0, 1)
    assert repr(b0) == before
    assert b0.groups and b0.members and len(b1.entries) == len(b0.entries)
    for x, y in zip(b0.entries, b1.entries):
        assert dict(x.match)["generation"] == 0 and dict(y.match)["generation"] == 1
        assert {k: v for k, v in x.match if k != "generation"} == {k: v for k, v in y.match if k != "generation"}
        assert (x.table, x.action, x.params, x.priority) == (y.table, y.action, y.params, y.priority)
        assert (x.group_id is None and y.group_id is None) or y.group_id == x.group_id | 1 << 31
    assert [m.member_id | 1 << 31 for m in b0.members] == [m.member_id for m in b1.members]
    with pytest.raises(ent.EntryError, match="not a route entry"):
        tb.regenerate(tb.static_entries(c, 2), 1)
    with pytest.raises(ent.EntryError, match="generation must be 0 or 1"):
        tb.regenerate(b0, 2)


def test_regenerate_keeps_columns_as_columns():
    """A batch whose entries are an EntryRows (a failure's changed cells) is derived as
    columns, no object made: the same entries the objects' derivation gives, the source
    unchanged; columns without a generation key are refused as objects are."""
    from controller.tables.state import EntryRows

    c = _contract(8, 2, 4, 3, 4)
    uro = uro_compute(round_robin(8, 2), UroParams(k=3, max_hops=4))
    cells = np.array([[0, 1], [3, 5], [2, 7], [1, 1]])
    rows = bulk.uro_cell_entries(c, uro, 2, cells, 0)
    assert type(rows) is EntryRows and len(rows) == 4
    before = rows.keys.copy()
    got = tb.regenerate(ent.Batch(entries=rows), 1)
    assert type(got.entries) is EntryRows and not got.entries.made() and not rows.made()
    assert list(got.entries) == tb.regenerate(ent.Batch(entries=list(rows)), 1).entries
    assert list(got.entries) == list(bulk.uro_cell_entries(c, uro, 2, cells, 1))
    assert (rows.keys == before).all()
    bare = EntryRows(rows.table, rows.action, ("x",), rows.keys[:, :1], rows.param_names, rows.params)
    with pytest.raises(ent.EntryError, match="not a route entry"):
        tb.regenerate(ent.Batch(entries=bare), 1)


def test_regenerate_does_not_inherit_memoised_identities():
    """The diff memoises an object's identity and content on it (entries.MEMO_ATTRS); an
    entry derived from a diffed one has another identity (its generation key, its group
    id): the derived batch diffs exactly like a fresh build of that generation."""
    from controller.agent.diff import diff, entry_key, same_state

    c = _contract(8, 2, 4, 3, 4)
    sched = round_robin(8, 2)
    uro = uro_compute(sched, UroParams(k=3, max_hops=4))
    paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=4))
    b0 = tb.route_entries(c, 2, uro, paths, [1, 5], 0)
    assert same_state(b0, b0)                   # identities and contents memoised on b0's objects
    b1 = tb.regenerate(b0, 1)
    fresh = tb.route_entries(c, 2, uro, paths, [1, 5], 1)
    assert same_state(b1, fresh) and same_state(fresh, b1)
    assert {entry_key(e) for e in b1.entries}.isdisjoint(entry_key(e) for e in b0.entries)
    d = diff(b0, b1)            # nothing of generation 0 is generation 1: all of b1 new, all of b0 gone
    assert len(d.insert.entries) == len(b1.entries) and len(d.delete.entries) == len(b0.entries)
    assert not (d.modify.entries or d.modify.groups or d.modify.members)


def test_bulk_equals_reference_from_route_artifacts(tmp_path):
    """Routes read one ToR at a time from compact artifacts (what the daemon uses at scale):
    memory-mapped arrays of narrow dtypes give the same entries, as plain ints."""
    from controller.tables import artifacts

    sched = round_robin(8, 2)
    uro = uro_compute(sched, UroParams(k=3, max_hops=4))
    paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=4))
    a_uro = artifacts.open(artifacts.write(uro, tmp_path / "u.uro"), sched)
    a_src = artifacts.open(artifacts.write(paths, tmp_path / "s.uro"), sched)
    c = _contract(8, 2, 4, 3, 4)
    for tor in (0, 5):
        _check(c, a_uro, a_src, tor, [d for d in (1, 4, 6) if d != tor])
        _same(tb.route_entries(c, tor, a_uro, a_src, [1, 6], 1), tb.route_entries(c, tor, uro, paths, [1, 6], 1))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.sampled_from([None, "tofino2"]), st.data())
def test_cell_entries_are_the_whole_builds_entries_of_those_cells(case, target, data):
    """A failure's update builds only its changed cells (``uro_cell_entries``): from the
    in-memory routes (the cells' rows gathered alone) and from a ToR's table (the whole
    table masked) it must give exactly the whole build's entries of those cells, in its
    order, for any set of cells (repeated, unordered, the ToR's own destination)."""
    sched, k, _h, tor, _sr = case
    n, d, s = sched.n_tors, sched.n_uplinks, sched.n_slices
    uro = uro_compute(sched, UroParams(k=k, max_hops=4))
    try:
        c = _contract(max(n, 2), d, s, k, 2, target)
    except ProfileError:
        return
    cells = data.draw(st.lists(st.tuples(st.integers(0, s - 1), st.integers(0, n - 1)), max_size=3 * s))
    cells_a = np.array([list(x) for x in cells], dtype=np.int64).reshape(-1, 2)
    want_set = {(a, dd) for a, dd in cells}
    # a loaded artifact: the ToR's table read, then masked to the cells
    artifact = SimpleNamespace(schedule=uro.schedule, tor_table=lambda t: perhop.tor_table(uro, t))
    for g in (0, 1):
        whole = bulk.uro_entries(c, uro, tor, g)
        want = [e for e in whole if (dict(e.match)["arrival_slice"], dict(e.match)["dst_tor"]) in want_set]
        with _fast_only():
            got = bulk.uro_cell_entries(c, uro, tor, cells_a, g)
            from_table = bulk.uro_cell_entries(c, artifact, tor, cells_a, g)
        _same(got, want)
        _same(from_table, want)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.booleans(), st.data())
def test_source_cell_entries_are_the_whole_tables_entries_of_those_cells(case, buckets, data):
    """A failure's update reads only its changed cells of a ToR's source table (from the
    in-memory routes: the cells' groups, members and paths gathered alone). For any cells
    (repeated, unordered, the ToR's own destination, one outside ``dsts``) they must be
    exactly the whole table's entries of those cells, in its order, as read from the ToR's
    table -- and so must the selector objects built from them."""
    from controller.tables import source

    sched, _k, h, tor, sr = case
    n, s = sched.n_tors, sched.n_slices
    if buckets:     # UCMP: bucket ranges, relaxed 2-hop members (§4.3), backups (§5.3)
        paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=h, relax_slices=data.draw(st.sampled_from([None, 0, 2]))))
    else:           # KSP: no buckets, every regular path of a group in its entry
        paths = ksp.compute(sched)
    cells = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, s - 1)), max_size=3 * s))
    cells_a = np.array([list(x) for x in cells], dtype=np.int64).reshape(-1, 2)
    for dsts in (None, sr):
        want_set = {(d, t) for d, t in cells if dsts is None or d in dsts}
        whole = [e for e in source.entries(paths, tor, dsts) if (e.dst, e.slice) in want_set]
        got = list(source.entries(paths, tor, dsts, cells_a))
        from_table = list(source.entries(source.tor_table(paths, tor), tor, dsts, cells_a))
        assert got == whole and from_table == whole


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.randoms(use_true_random=False))
def test_stable_ids_fit_kept_per_route_set_answers_as_computed(case, rng):
    """``_stable_ids_fit`` is kept per route set, ToR and destinations: asked in any order,
    of two route sets, each ToR towards every destination alone and towards all, it
    answers what computing it answers (a selector of 2 ids per entry: some destinations'
    groups fit it, others do not), also where a whole build of the ToR's table noted it."""
    sched, k, h, _tor, _sr = case
    n, d, s = sched.n_tors, sched.n_uplinks, sched.n_slices
    sets = [ucmp.compute(sched, ucmp.UcmpParams(h_max=h)), ucmp.compute(sched, ucmp.UcmpParams(h_max=max(1, h - 1)))]
    try:
        c = _contract(max(n, 2), d, s, k, h, None, ssrr_ties=2, ssrr_ranges=2, ssrr_paths=2)
    except ProfileError:
        return
    per = ent.selector_ids(c, sched)
    for t in range(n):      # a whole build notes what its rows say (what the start builds)
        try:
            bulk.ssrr_entries(c, sets[1], t, 0, list(range(n)))       # (as the daemon's start: its own among them)
        except ent.EntryError:
            pass
    asks = [(w, t, dsts) for w in (0, 1) for t in range(n) for dsts in [None, tuple(x for x in range(n) if x != t), *((x,) for x in range(n) if x != t)]]
    rng.shuffle(asks)
    for which, t, dsts in asks:
        got = bulk._stable_ids_fit(c, sets[which], t, dsts)
        assert got == (per is not None and bulk._ids_fit(c, sets[which], t, dsts, per)), (which, t, dsts)
