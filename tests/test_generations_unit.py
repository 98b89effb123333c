"""The route generations of one switch (controller/agent/generations.py) on a role small
enough to read: two route entries and a selector group per generation, a static entry and
a config entry, written to the in-memory switch of tests/daemon_fakes.py. Every sequence
is checked after every single update (the switch is unconfigured or runs one complete
generation, and no object of a live generation is touched), and by the exact writes,
flips and results it makes: fast enough to run against every mutant of the module
(`uro bench --suite mutation`, docs/mutation.md)."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from controller.agent import generations as gens
from controller.agent.backend import BackendError
from controller.agent.desired import Role
from controller.agent.diff import Diff, entry_key, restrict, same_state
from controller.tables.state import GENERATION_ID_BIT, Batch, Group, Member, TableEntry

from daemon_fakes import FakeSwitch, generation_watcher

CONFIG = "C.config"
UNCONFIGURED = TableEntry(CONFIG, (), "NoAction", (), is_default=True)
OTHER_DEFAULT = TableEntry("C.hop", (), "C.drop", (), is_default=True)
A = {"hop": {1: 3, 2: 4}, "path": {5: (1, 2)}}          # a version of the routes
B = {"hop": {1: 4, 2: 4}, "path": {5: (2, 1, 3)}}       # another (entry 1 and the group differ)


class MiniRole(Role):
    """Per-hop entries ``C.hop [generation, dst] -> C.go(port)`` and a source route per
    ``path`` destination: ``C.path [generation, dst] -> group`` of one member per port."""

    name = "mini"

    def __init__(self):
        super().__init__({"profile": {"uplinks": 2}})

    def static(self) -> Batch:
        return Batch(entries=[TableEntry("C.host", (("h", 0),), "C.fwd", (("port", 9),))])

    def routes(self, routes, generation: int) -> Batch:
        g = generation << GENERATION_ID_BIT
        out = Batch()
        for dst, port in sorted(routes["hop"].items()):
            out.entries.append(TableEntry("C.hop", (("generation", generation), ("dst", dst)), "C.go",
                                          (("port", port),)))
        for dst, ports in sorted(routes["path"].items()):
            mids = tuple(g | (dst * 16 + i + 1) for i in range(len(ports)))
            out.members += [Member("C.sel", m, "C.out", (("port", p),)) for m, p in zip(mids, ports)]
            out.groups.append(Group("C.sel", g | (dst + 1), mids))
            out.entries.append(TableEntry("C.path", (("generation", generation), ("dst", dst)), None, (), False,
                                          g | (dst + 1)))
        return out

    def config(self, generation, down=frozenset(), live=None, dead=frozenset()) -> TableEntry:
        live = frozenset({generation}) if live is None else live
        return TableEntry(CONFIG, (), "C.set_config", (("gen", generation), ("down", sum(1 << u for u in down)),
                                                       ("live", sum(1 << g for g in live))), is_default=True)

    def version(self, routes):
        return repr(routes)


class Writer(gens.GenerationWriter, gens.NetworkPhases):
    """A writer that records what it does: ("read",), ("write", updates), ("flip",
    generation, live), ("wait", seconds), ("starting", new, active), ("failed", message)."""

    def __init__(self, sw: FakeSwitch, by_key: bool = True):
        self.sw, self.role, self.name = sw, MiniRole(), "sw0"
        self.events: list[tuple] = []
        self.down: frozenset[int] = frozenset()
        self.active: int | None = None
        self.live: frozenset[int] = frozenset()
        self.by_key = by_key
        self.rewrite_slot = True

    def _read(self):
        self.events.append(("read",))
        return self.sw.state()

    def _read_objects(self, objects):
        self.events.append(("read_objects", gens.objects(objects)))
        return restrict(self.sw.state(), objects)

    def _knows_state(self):
        return self.by_key

    def _write(self, d):
        self.events.append(("write", len(d)))
        self.sw.apply(d)
        return len(d)

    def _flip(self, generation, live=None):
        live = frozenset({generation}) if live is None else live
        self.events.append(("flip", generation, live))
        self.sw.apply(Diff(modify=Batch(entries=[self.role.config(generation, self.down, live)])))

    def _wait(self, seconds):
        self.events.append(("wait", seconds))

    def _sync_config(self, actual_config):
        want = self.role.config(self.active, self.down, self.live)
        if actual_config == want:
            return 0
        self.events.append(("sync",))
        self.sw.apply(Diff(modify=Batch(entries=[want])))
        return 1

    def _set_active(self, generation):
        self.active = generation

    def _set_live(self, live):
        self.live = live

    def _swap_starting(self, routes, new, active, routes_batch):
        self.events.append(("starting", new, active, gens.objects(routes_batch)))

    def _swap_failed(self, e):
        self.events.append(("failed", str(e)))

    def _slot_rewritten(self, e):
        self.events.append(("slot", str(e)))
        return self.rewrite_slot

    def kinds(self) -> list:
        return [e[0] for e in self.events]

    def flips(self) -> list:
        return [e[1:] for e in self.events if e[0] == "flip"]


def switch(*batches, config: TableEntry | None = None) -> FakeSwitch:
    """An in-memory switch holding ``batches`` and ``config`` (default: unconfigured)."""
    sw = FakeSwitch("sw0")
    for e in (config or UNCONFIGURED, OTHER_DEFAULT):
        sw.entries[entry_key(e)] = e
    for b in batches:
        sw.apply(Diff(insert=b))
    return sw


def running(routes, g: int, shadow=None, live=None) -> tuple[FakeSwitch, Writer]:
    """A switch running ``routes`` in generation ``g`` (``shadow``: routes in the other one)."""
    role = MiniRole()
    extra = [role.routes(shadow, 1 - g)] if shadow is not None else []
    sw = switch(role.static(), role.routes(routes, g), *extra, config=role.config(g, live=live))
    return sw, Writer(sw)


def watch(w: Writer, allowed: dict) -> list:
    """The generation invariant after every single update (daemon_fakes.generation_watcher)."""
    w.sw.watch, seen = generation_watcher(w.role, {k: (g, w.role.routes(r, g)) for k, (g, r) in allowed.items()})
    return seen


def exact(w: Writer, want: Batch) -> None:
    st = w.sw.state()
    others = [e for e in st.entries if e.is_default and e.table != CONFIG]
    assert others == [OTHER_DEFAULT], "a default entry the state does not name is left alone"
    assert same_state(st, want), gens.split(st, CONFIG)


# ---- pure parts -----------------------------------------------------------------------------------------
def test_split_puts_every_object_in_its_part():
    role = MiniRole()
    r0, r1, static = role.routes(A, 0), role.routes(B, 1), role.static()
    junk_m = Member("C.sel", 77, "C.out", (("port", 1),))
    junk_g = Group("C.sel", 78, (77,))
    cfg = role.config(1, live=frozenset({0, 1}))
    st = Batch(r0.members + r1.members + [junk_m], r0.groups + r1.groups + [junk_g],
               r0.entries + r1.entries + static.entries + [cfg, OTHER_DEFAULT])
    p = gens.split(st, CONFIG)
    assert p.config == cfg and p.other_defaults == [OTHER_DEFAULT]
    assert p.static == static
    for g, r in ((0, r0), (1, r1)):
        assert p.gens[g].entries == r.entries and p.gens[g].groups == r.groups and p.gens[g].members == r.members
        assert p.entries(g) == gens.objects(r)
    assert (p.entries(0), p.entries(1)) == (6, 7)
    assert gens.split(Batch(), CONFIG) == gens.Parts()


def test_split_gives_a_group_used_by_two_parts_to_both_and_each_member_once():
    role = MiniRole()
    r0 = role.routes(A, 0)
    grp = r0.groups[0]
    static = TableEntry("C.fixed", (("k", 1),), None, (), False, grp.group_id)
    p = gens.split(Batch(r0.members, r0.groups, r0.entries + [static, static]), CONFIG)
    assert p.static.groups == [grp] and p.gens[0].groups == [grp]
    assert p.static.members == r0.members and p.gens[0].members == r0.members
    assert p.static.entries == [static, static]
    assert p.config is None and p.entries(1) == 0


def test_split_takes_what_a_switch_should_not_hold_without_failing():
    """An entry whose group the switch does not hold (a half-written or damaged state)
    goes to its part without a group; an entry of a generation outside 0/1 gets a part of
    its own (never mixed into 0 or 1)."""
    role = MiniRole()
    r0 = role.routes(A, 0)
    orphan = r0.entries[-1]                                   # C.path -> a group not on the switch
    odd = TableEntry("C.hop", (("generation", 2), ("dst", 1)), "C.go", (("port", 1),))
    p = gens.split(Batch(r0.members, [], r0.entries + [odd]), CONFIG)
    assert p.gens[0].entries == r0.entries and p.gens[0].groups == [] and p.gens[0].members == []
    assert p.gens[2].entries == [odd] and p.entries(1) == 0


def test_combine_merges_duplicates_and_refuses_two_objects_of_one_identity():
    role = MiniRole()
    r = role.routes(A, 0)
    cfg = role.config(0)
    got = gens.combine(r, None, r, cfg, role.static())
    assert got == Batch(r.members, r.groups, r.entries + [cfg] + role.static().entries)
    other = replace(r.entries[0], params=(("port", 99),))
    with pytest.raises(gens.GenerationConflict, match=r"^two different entries with the identity \('C.hop', "):
        gens.combine(r, other)
    with pytest.raises(gens.GenerationConflict, match=r"^two different entries with the identity \('C.hop', "):
        gens.combine(r, Batch(entries=[other]))
    with pytest.raises(gens.GenerationConflict, match=r"^two different members with the identity \('C.sel', 81\)"):
        gens.combine(r, Batch(members=[replace(r.members[0], params=(("port", 7),))]))
    with pytest.raises(gens.GenerationConflict, match=r"^two different groups with the identity \('C.sel', 6\)"):
        gens.combine(r, Batch(groups=[replace(r.groups[0], member_ids=(1,))]))
    assert gens.combine() == Batch()


def test_states_of_an_install():
    role = MiniRole()
    static, r0, r1 = role.static(), role.routes(A, 0), role.routes(B, 1)
    cfg = role.config(0)
    parts = gens.split(gens.combine(static, r0, cfg), CONFIG)
    assert gens.prepare_state(parts, 0, static, r1) == gens.combine(static, r0, r1, cfg)
    assert gens.prepare_state(gens.Parts(), 0, static, r1) == gens.combine(static, r1)
    assert gens.final_state(static, r1, cfg) == gens.combine(static, r1, cfg)
    assert gens.final_state(static, r1, cfg, r0) == gens.combine(static, r1, r0, cfg)
    assert gens.unconfigured_state(static, r0) == gens.combine(static, r0)
    assert gens.objects(r0) == 6 and gens.objects(Batch()) == 0


def test_config_patched_takes_only_config_writes():
    role = MiniRole()
    cfg0, cfg1 = role.config(0), role.config(1, live=frozenset({0, 1}))
    st = gens.combine(role.static(), role.routes(A, 0), cfg0)
    parts = gens.split(st, CONFIG)
    assert gens.config_patched(parts, Diff(modify=Batch(entries=[cfg1])), CONFIG) == replace(parts, config=cfg1)
    assert gens.config_patched(parts, Diff(insert=Batch(entries=[cfg1])), CONFIG).config == cfg1
    assert gens.config_patched(parts, Diff(modify=Batch(entries=[cfg0, cfg1])), CONFIG).config == cfg1
    assert gens.config_patched(parts, Diff(), CONFIG) is parts
    e = st.entries[0]
    for d in (Diff(delete=Batch(entries=[cfg0])), Diff(modify=Batch(entries=[cfg1, e])),
              Diff(insert=Batch(members=st.members[:1])), Diff(modify=Batch(groups=st.groups[:1])),
              Diff(delete=Batch(members=st.members[:1]))):
        assert gens.config_patched(parts, d, CONFIG) is None


# ---- install_routes: the sequence `uro agent push` and the daemon's install run ---------------------------
@pytest.mark.parametrize("first", [0, 1])
def test_an_unconfigured_switch_gets_the_routes_then_the_config_entry(first):
    role = MiniRole()
    sw = switch()
    w = Writer(sw)
    seen = watch(w, {"A": (first, A)})
    t0 = time.perf_counter()
    res = w.install_routes(A, first_generation=first)
    took = time.perf_counter() - t0
    assert (res.outcome, res.generation, res.previous, res.written, res.deleted, res.objects) == \
        ("installed", first, None, 7, 0, 8)
    assert 0 <= res.verify_s <= res.active_s <= res.total_s <= took
    assert w.events == [("read",), ("write", 7), ("read",), ("flip", first, frozenset({first}))]
    assert w.active is None and set(seen) == {"unconfigured", "A"} and seen[-1] == "A" and seen[-2] == "unconfigured"
    exact(w, gens.final_state(role.static(), role.routes(A, first), role.config(first)))


def test_the_active_generation_holding_the_routes_is_kept():
    role = MiniRole()
    sw, w = running(A, 1)
    n = sw.updates
    t0 = time.perf_counter()
    res = w.install_routes(A)
    took = time.perf_counter() - t0
    assert (res.outcome, res.generation, res.previous, res.written, res.deleted, res.objects) == \
        ("current", 1, 1, 0, 0, 8)
    assert sw.updates == n and w.active == 1 and w.live == frozenset({1})
    assert res.verify_s == res.active_s == 0 and 0 < res.total_s <= took


def test_current_routes_clean_the_other_generation_and_the_config_entry():
    """Leftovers in the inactive generation are deleted after it is taken out of live; a
    shadow of these routes stays (the next update diffs against it); a config entry that
    says something else is rewritten."""
    role = MiniRole()
    sw, w = running(A, 0, shadow=B, live=frozenset({0, 1}))
    seen = watch(w, {"A": (0, A)})
    res = w.install_routes(A)
    assert (res.outcome, res.written) == ("current", 1 + 7)
    assert w.events[:2] == [("read",), ("sync",)] and w.live == frozenset({0})
    exact(w, gens.final_state(role.static(), role.routes(A, 0), role.config(0)))
    assert set(seen) == {"A"}
    sw, w = running(A, 0, shadow=A)
    assert w.install_routes(A).written == 0
    exact(w, gens.final_state(role.static(), role.routes(A, 0), role.config(0), role.routes(A, 1)))


@pytest.mark.parametrize("drain", [0.0, 0.5])
def test_a_swap_writes_reads_back_flips_three_times_and_deletes_the_old_generation(drain):
    role = MiniRole()
    sw, w = running(A, 0)
    w.drain_s = drain
    seen = watch(w, {"A": (0, A), "B": (1, B)})
    t0 = time.perf_counter()
    res = w.install_routes(B)
    took = time.perf_counter() - t0
    assert (res.outcome, res.generation, res.previous, res.written, res.deleted, res.objects) == \
        ("swapped", 1, 0, 7, 6, 9)
    assert 0 <= res.verify_s <= res.active_s <= res.total_s <= took
    both = frozenset({0, 1})
    assert w.events == [("read",), ("starting", 1, 0, 7), ("write", 7), ("read",), ("flip", 0, both),
                        ("flip", 1, both)] + ([("wait", drain)] if drain else []) + \
        [("flip", 1, frozenset({1})), ("write", 6)]
    exact(w, gens.final_state(role.static(), role.routes(B, 1), role.config(1)))
    assert [k for i, k in enumerate(seen) if i == 0 or seen[i - 1] != k] == ["A", "B"]


def test_a_swap_first_takes_a_half_written_live_generation_out_of_live():
    """An interrupted sequence left the inactive generation declared live with other
    routes: it is taken out of live before anything is written into it."""
    role = MiniRole()
    sw, w = running(A, 0, shadow=B, live=frozenset({0, 1}))
    sw.apply(Diff(delete=Batch(entries=[role.routes(B, 1).entries[0]])))       # ... and incomplete
    C = {"hop": {1: 1, 2: 2}, "path": {}}
    res = w.install_routes(C)
    assert res.outcome == "swapped"
    assert w.flips()[0] == (0, frozenset({0}))
    assert w.kinds()[:4] == ["read", "starting", "flip", "write"]
    exact(w, gens.final_state(role.static(), role.routes(C, 1), role.config(1)))


@pytest.mark.parametrize("what, message", [
    ("route", r"generation 1 did not read back as written: 1 missing \(C.hop \[generation=1 dst=1\]\)"),
    ("static", r"static entries did not read back as written: 1 missing \(C.host \[h=0\]\)"),
])
def test_a_swap_that_does_not_read_back_activates_nothing(what, message):
    role = MiniRole()
    sw, w = running(A, 0)
    lost = role.routes(B, 1).entries[0] if what == "route" else role.static().entries[0]
    if what == "static":
        sw.apply(Diff(delete=Batch(entries=[lost])))
    sw.lose = lambda kind, how, x: x == lost
    with pytest.raises(gens.SwapError, match=r"^switch 'sw0': " + message + "$") as e:
        w.install_routes(B)
    assert w.flips() == [] and w.events[-1] == ("failed", str(e.value))
    assert role.active(sw.state())[0] == 0 and role.live(sw.state()) == frozenset({0})


def test_the_active_generation_changed_behind_the_writers_back_fails_the_swap():
    role = MiniRole()
    sw, w = running(A, 0)
    hit = []

    def flip_behind(s, kind, how, x):
        if not hit and kind == "entries" and not x.is_default:
            hit.append(1)
            s.entries[entry_key(role.config(0))] = role.config(1, live=frozenset({0, 1}))
    sw.watch = flip_behind
    with pytest.raises(gens.SwapError, match=r"^switch 'sw0': active generation changed behind our back \(0 -> 1\)$"):
        w.install_routes(B)
    assert w.flips() == []


def test_a_new_generation_reusing_a_live_id_is_refused_before_any_write():
    role = MiniRole()
    sw, w = running(A, 0)
    live_member = role.routes(A, 0).members[0]
    real = role.routes
    w.role.routes = lambda r, g: Batch([replace(m, member_id=live_member.member_id) if i == 0 else m
                                        for i, m in enumerate(real(r, g).members)], real(r, g).groups,
                                       real(r, g).entries)
    n = sw.updates
    with pytest.raises(BackendError, match=r"^switch 'sw0': generation 1 would overwrite live state of generation 0: "
                                           r"two different members with the identity"):
        w.install_routes(B)
    assert sw.updates == n and w.events[-1][0] == "failed"


def test_a_write_failing_half_way_keeps_the_old_generation_and_a_retry_finishes():
    role = MiniRole()
    sw, w = running(A, 0)
    seen = watch(w, {"A": (0, A), "B": (1, B)})
    sw.fail_after = 3
    with pytest.raises(BackendError, match="injected"):
        w.install_routes(B)
    assert w.flips() == [] and role.active(sw.state())[0] == 0 and w.events[-1][0] == "failed"
    sw.fail_after = None
    assert w.install_routes(B).outcome == "swapped"
    exact(w, gens.final_state(role.static(), role.routes(B, 1), role.config(1)))
    assert set(seen) == {"A", "B"}


# ---- the network-wide phases -------------------------------------------------------------------------------
def test_survey_names_the_live_generations_that_hold_the_routes():
    sw, w = running(A, 0, shadow=A, live=frozenset({0, 1}))
    assert w.survey(A) == gens.Survey(0, frozenset({0, 1}), frozenset({0, 1}))
    assert (w.active, w.live) == (0, frozenset({0, 1}))
    assert w.survey(B) == gens.Survey(0, frozenset({0, 1}), frozenset())
    sw, w = running(A, 0, shadow=A)                  # a shadow is never asked: not live
    assert w.survey(A) == gens.Survey(0, frozenset({0}), frozenset({0}))
    assert switch() and Writer(switch()).survey(A) == gens.Survey(None, frozenset(), frozenset())


def test_prepare_on_an_unconfigured_switch_installs_and_activates_at_once():
    role = MiniRole()
    w = Writer(switch())
    t0 = time.perf_counter()
    res = w.prepare_generation(A, 1)
    took = time.perf_counter() - t0
    assert (res.outcome, res.generation, res.previous, res.written, res.deleted, res.objects) == \
        ("installed", 1, None, 7, 0, 8)
    assert 0 <= res.verify_s <= res.active_s <= res.total_s <= took
    assert w.events == [("read",), ("write", 7), ("read",), ("flip", 1, frozenset({1}))]
    exact(w, gens.final_state(role.static(), role.routes(A, 1), role.config(1)))


def test_prepare_of_a_live_generation_holding_the_routes_writes_nothing():
    sw, w = running(A, 0, shadow=A, live=frozenset({0, 1}))
    n = sw.updates
    assert (w.prepare_generation(A, 1).outcome, w.prepare_generation(A, 0).outcome) == ("ready", "current")
    t0 = time.perf_counter()
    r = w.prepare_generation(A, 1)
    took = time.perf_counter() - t0
    assert (r.generation, r.previous, r.written, r.deleted, r.objects) == (0, 0, 0, 0, 8)
    assert r.verify_s == r.active_s == 0 and 0 < r.total_s <= took
    assert sw.updates == n and w.flips() == []


def test_prepare_refuses_to_rewrite_the_generation_the_sources_stamp():
    sw, w = running(A, 0)
    with pytest.raises(BackendError, match=r"^switch 'sw0': its sources stamp generation 0, which holds other routes: "
                                           r"it cannot be rewritten in place$"):
        w.prepare_generation(B, 0)


@pytest.mark.parametrize("by_key", [True, False])
def test_prepare_writes_only_what_differs_from_the_shadow_and_verifies_it(by_key):
    """Into a slot holding the active routes' shadow the prepare writes the diff (5
    updates: the entry, the group and the two members that changed, a new member), reads
    back by key only those (and the config entry) where the writer knows the state (else
    the whole switch), and declares it live."""
    role = MiniRole()
    sw, w = running(A, 0, shadow=A)
    w.by_key = by_key
    seen = watch(w, {"A": (0, A), "B": (1, B)})
    t0 = time.perf_counter()
    res = w.prepare_generation(B, 1)
    took = time.perf_counter() - t0
    assert (res.outcome, res.generation, res.previous, res.written, res.deleted, res.objects) == \
        ("ready", 0, 0, 5, 0, 7 + 1 + 1)
    assert 0 <= res.verify_s <= res.total_s <= took and res.active_s == 0
    verify = ("read_objects", 5 + 1) if by_key else ("read",)
    assert w.events == [("read",), ("starting", 1, 0, 7), ("write", 5), verify, ("flip", 0, frozenset({0, 1}))]
    exact(w, gens.combine(role.static(), role.routes(A, 0), role.routes(B, 1), role.config(0, live=frozenset({0, 1}))))
    assert set(seen) == {"A"}


def test_a_prepare_verified_by_key_catches_a_write_the_switch_did_not_hold():
    role = MiniRole()
    sw, w = running(A, 0, shadow=A)
    changed = role.routes(B, 1).entries[0]
    sw.lose = lambda kind, how, x: x == changed
    with pytest.raises(gens.SwapError, match=r"^switch 'sw0': what was written did not read back as written: 1 different "
                                             r"\(C.hop \[generation=1 dst=1\]\)$") as e:
        w.prepare_generation(B, 1)
    assert w.flips() == [] and role.live(sw.state()) == frozenset({0}) and w.events[-1] == ("failed", str(e.value))


def test_a_prepare_verified_by_key_catches_a_flip_behind_its_back():
    role = MiniRole()
    sw, w = running(A, 0, shadow=A)
    sw.watch = lambda s, kind, how, x: s.entries.__setitem__(entry_key(role.config(0)), role.config(1)) \
        if kind == "entries" and not x.is_default else None
    with pytest.raises(gens.SwapError, match=r"active generation changed behind our back \(0 -> 1\)$"):
        w.prepare_generation(B, 1)


def test_a_large_diff_is_verified_by_a_whole_read():
    """More than BY_KEY_MAX_SHARE of the switch written: one whole read instead."""
    role = MiniRole()
    sw, w = running(A, 0)                      # an empty slot: the whole generation is written
    w.prepare_generation(B, 1)
    assert ("read_objects", 8) not in w.events and w.events[3] == ("read",)
    assert gens.BY_KEY_MAX_SHARE == 0.35


def test_prepare_takes_a_live_generation_with_other_routes_out_of_live_first():
    role = MiniRole()
    sw, w = running(A, 0, shadow=B, live=frozenset({0, 1}))
    C = {"hop": {1: 1, 2: 2}, "path": {5: (2, 1, 3)}}
    w.prepare_generation(C, 1)
    assert w.flips() == [(0, frozenset({0})), (0, frozenset({0, 1}))]
    assert w.events[2] == ("flip", 0, frozenset({0}))


def test_a_diff_the_target_refuses_makes_the_slot_be_written_whole():
    """The target refuses an in-place change (here: any modify of a group): the slot is
    emptied and written whole; nothing of it was live."""
    role = MiniRole()
    sw, w = running(A, 0, shadow=A)
    sw.refuse = lambda kind, how, x: kind == "groups" and how == "modify"
    seen = watch(w, {"A": (0, A), "B": (1, B)})
    res = w.prepare_generation(B, 1)
    assert res.outcome == "ready" and res.written == 7 + 7 + 1    # emptied, written, the config entry as read
    assert [e[0] for e in w.events] == ["read", "starting", "write", "slot", "read", "write", "write", "read", "flip"]
    assert "modify of groups" in w.events[3][1] and "refused by the target" in w.events[3][1]
    exact(w, gens.combine(role.static(), role.routes(A, 0), role.routes(B, 1), role.config(0, live=frozenset({0, 1}))))
    assert set(seen) == {"A"}
    sw, w = running(A, 0, shadow=A)
    sw.refuse = lambda kind, how, x: kind == "groups" and how == "modify"
    w.rewrite_slot = False
    with pytest.raises(BackendError, match="refused by the target"):
        w.prepare_generation(B, 1)
    assert w.kinds()[-2:] == ["slot", "failed"]


def test_activate_stamps_only_a_live_generation():
    sw, w = running(A, 0, shadow=A, live=frozenset({0, 1}))
    w.activate_generation(1, frozenset({0, 1}))
    assert w.events == [("flip", 1, frozenset({0, 1}))]
    with pytest.raises(BackendError, match=r"^switch 'sw0': generation 0 is not live here: not activated$"):
        w.activate_generation(0, frozenset({1}))


def test_retire_takes_the_old_generation_out_of_live_then_makes_it_the_shadow():
    role = MiniRole()
    sw, w = running(B, 1, shadow=A, live=frozenset({0, 1}))
    seen = watch(w, {"B": (1, B)})
    n = w.retire_generation(1, B)
    assert n == 1 + 5 and w.events[0] == ("read",) and w.events[1] == ("flip", 1, frozenset({1}))
    exact(w, gens.final_state(role.static(), role.routes(B, 1), role.config(1), role.routes(B, 0)))
    assert set(seen) == {"B"}
    assert w.retire_generation(1, B) == 0                   # done: nothing more


def test_retire_without_routes_or_of_other_routes_deletes_the_old_generation():
    role = MiniRole()
    for routes in (None, A):
        sw, w = running(B, 1, shadow=A, live=frozenset({0, 1}))
        assert w.retire_generation(1, routes) == 1 + 6
        exact(w, gens.final_state(role.static(), role.routes(B, 1), role.config(1)))


def test_retire_without_fill_leaves_an_empty_slot_empty_and_fills_a_used_one():
    role = MiniRole()
    sw, w = running(B, 1)
    n = sw.updates
    assert w.retire_generation(1, B, fill=False) == 0 and sw.updates == n
    sw, w = running(B, 1, shadow=A)
    assert w.retire_generation(1, B, fill=False) == 5
    exact(w, gens.final_state(role.static(), role.routes(B, 1), role.config(1), role.routes(B, 0)))
    sw, w = running(B, 1)
    assert w.retire_generation(1, B) == 7


def test_retire_refuses_a_generation_that_is_not_the_active_one():
    sw, w = running(B, 1)
    with pytest.raises(BackendError, match=r"^switch 'sw0': generation 1 is active, not 0: not retired$"):
        w.retire_generation(0, B)


def test_the_writer_label_is_its_name_or_switch():
    sw, w = running(A, 0)
    assert w.label == "sw0"
    del w.name
    assert w.label == "switch"


class Plain(gens.GenerationWriter, gens.NetworkPhases):
    """Only the I/O a writer must supply: every other method is the base class's."""

    def __init__(self, sw: FakeSwitch):
        self.sw, self.role = sw, MiniRole()
        self.reads = 0

    def _read(self):
        self.reads += 1
        return self.sw.state()

    def _write(self, d):
        self.sw.apply(d)
        return len(d)

    def _flip(self, generation, live=None):
        live = frozenset({generation}) if live is None else live
        self.sw.apply(Diff(modify=Batch(entries=[self.role.config(generation, frozenset(), live)])))

    def _sync_config(self, actual_config):
        return 0


def test_the_base_writer_reads_the_switch_for_what_it_knows_and_for_a_read_by_key(monkeypatch):
    """The defaults: the known state is a read of the switch, a read by key is picked out
    of a whole read, the writer knows the state (so a small prepare is verified by key),
    a diff refused into the slot is written whole, and the drain is a sleep."""
    role = MiniRole()
    sw = switch(role.static(), role.routes(A, 0), role.routes(A, 1), config=role.config(0))
    w = Plain(sw)
    assert w.label == "switch"
    assert w.survey(A).holds == frozenset({0}) and w.reads == 1
    assert w.prepare_generation(B, 1).written == 5 and w.reads == 3       # the prepare's read, the verify's
    exact(w, gens.combine(role.static(), role.routes(A, 0), role.routes(B, 1), role.config(0, live=frozenset({0, 1}))))
    slept = []
    monkeypatch.setattr(gens.time, "sleep", slept.append)
    sw = switch(role.static(), role.routes(A, 0), role.routes(A, 1), config=role.config(0))
    sw.lose = lambda kind, how, x: x == role.routes(B, 1).entries[0]
    with pytest.raises(gens.SwapError, match="what was written did not read back"):    # verified by key
        Plain(sw).prepare_generation(B, 1)
    sw = switch(role.static(), role.routes(A, 0), config=role.config(0))
    w = Plain(sw)
    w.drain_s = 0.25
    sw.refuse = lambda kind, how, x: kind == "groups" and how == "modify"
    assert w.install_routes(B).outcome == "swapped" and slept == [0.25]
    sw = switch(role.static(), role.routes(B, 1), role.routes(A, 0), config=role.config(1))
    sw.refuse = lambda kind, how, x: kind == "groups" and how == "modify"
    assert Plain(sw).retire_generation(1, B) == 7 + 7
    exact(Plain(sw), gens.final_state(role.static(), role.routes(B, 1), role.config(1), role.routes(B, 0)))


@pytest.mark.parametrize("call", [lambda w: w._read(), lambda w: w._write(Diff()), lambda w: w._flip(0),
                                  lambda w: w._sync_config(None)], ids=["read", "write", "flip", "sync_config"])
def test_the_io_a_writer_must_supply(call):
    with pytest.raises(NotImplementedError):
        call(gens.GenerationWriter())


def test_prepare_refuses_a_new_generation_reusing_a_live_id_before_any_write():
    role = MiniRole()
    sw, w = running(A, 0, shadow=A)
    live_group = role.routes(A, 0).groups[0]
    real = role.routes
    w.role.routes = lambda r, g: Batch(real(r, g).members, [replace(real(r, g).groups[0], group_id=live_group.group_id)],
                                       real(r, g).entries)
    n = sw.updates
    with pytest.raises(BackendError, match=r"^switch 'sw0': generation 1 would overwrite live state of generation 0: "
                                           r"two different groups with the identity") as e:
        w.prepare_generation(B, 1)
    assert sw.updates == n and w.events[-1] == ("failed", str(e.value))


@pytest.mark.parametrize("by_key", [True, False])
def test_a_prepare_reads_back_by_key_up_to_the_share_of_the_switch(monkeypatch, by_key):
    """The diff (5 updates) into the shadow slot of a 15-object switch: read back by key
    while it is at most BY_KEY_MAX_SHARE of the switch's objects (here exactly 5 of 15),
    whole above (a share a little lower)."""
    sw, w = running(A, 0, shadow=A)
    assert gens.objects(sw.state()) == 15
    monkeypatch.setattr(gens, "BY_KEY_MAX_SHARE", 5 / 15 if by_key else 4.99 / 15)
    w.prepare_generation(B, 1)
    assert w.events[2] == ("write", 5) and (w.events[3][0] == "read_objects") is by_key, w.events


class ClockRole(MiniRole):
    """A role whose statics hold a default entry of another table (the slice clock's
    ``clock_config``)."""

    CLOCK = TableEntry("C.clock", (), "C.set_clock", (("period", 7),), is_default=True)

    def static(self) -> Batch:
        b = super().static()
        return Batch(b.members, b.groups, b.entries + [self.CLOCK])


def test_a_static_default_entry_is_written_and_read_back_with_the_statics():
    unset = TableEntry("C.clock", (), "NoAction", (), is_default=True)
    st = gens.combine(MiniRole().static(), unset, OTHER_DEFAULT, MiniRole().config(0))
    parts = gens.split(st, CONFIG)
    assert gens.static_as_read(parts, MiniRole().static()) is parts.static
    assert gens.static_as_read(parts, ClockRole().static()) == Batch(entries=MiniRole().static().entries + [unset])
    for lose in (False, True):
        sw = switch()
        sw.entries[entry_key(unset)] = unset
        w = Writer(sw)
        w.role = ClockRole()
        if lose:
            sw.lose = lambda kind, how, x: x == ClockRole.CLOCK
            with pytest.raises(gens.SwapError, match=r"^switch 'sw0': static entries did not read back as written: "
                                                     r"1 different \(C.clock default entry\)$"):
                w.install_routes(A)
            assert w.flips() == []
        else:
            assert w.install_routes(A).outcome == "installed"
            assert sw.entries[entry_key(unset)] == ClockRole.CLOCK


def test_unreachable_deletes_leave_only_members_and_groups_no_entry_reaches_for_after_the_flip():
    """A diff split as a prepare writes it: its member and group deletes after the rest.
    Written in turn to a switch holding the old routes, the switch takes both (nothing
    deleted is still named), forwards as the new routes once the first is written (its
    reachable part is theirs) and holds exactly them after the second."""
    from daemon_fakes import reachable

    role = MiniRole()
    old = role.routes({"hop": {1: 3, 2: 4}, "path": {5: (1, 2, 3), 6: (1,)}}, 1)
    new = role.routes({"hop": {2: 5}, "path": {5: (2,)}}, 1)
    d = gens.state_diff(old, new)
    now, later = gens.unreachable_deletes(d)
    g = 1 << GENERATION_ID_BIT
    assert sorted(m.member_id for m in later.delete.members) == [g | 82, g | 83, g | 97]
    assert [x.group_id for x in later.delete.groups] == [g | 7]
    assert later == Diff(delete=Batch(d.delete.members, d.delete.groups, []))
    assert now == Diff(d.insert, d.modify, Batch(entries=d.delete.entries))
    assert len(now.delete.entries) == 2 and len(now.modify.members) == 1 and len(now.modify.groups) == 1
    sw = FakeSwitch()
    sw.apply(Diff(insert=old))
    sw.apply(now)
    assert same_state(reachable(sw.state()), new) and not same_state(sw.state(), new)
    sw.apply(later)
    assert same_state(sw.state(), new)
    # a diff that deletes no member or group: all of it before the flip, nothing after
    hop_only = gens.state_diff(role.routes(A, 1), role.routes({"hop": {1: 4}, "path": A["path"]}, 1))
    first, second = gens.unreachable_deletes(hop_only)
    assert first is hop_only and second.empty and len(hop_only.delete.entries) == 1
