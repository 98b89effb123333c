"""A failure's update written as the difference of the cells its routes changed
(docs/fabric.md "A failure's update that follows the failure"): the routes repaired label
by label, only the changed cells' entries built, diffed and written into the shadow slot,
read back by key, the network-wide flip, the retired generation rewritten the same way.

The switches end in exactly the state a whole recomputation leaves (routes computed
whole, whole generations built and diffed: ``[daemon] incremental = false``): two fake
networks of 8 ToRs run the same random sequence of failures and recoveries (cut cables,
dead ToRs, a dead OCS, several at once, recoveries back to a failed set seen before),
and after each one every ToR's state -- both generations, statics, config -- is the same
in both, and its active and shadow generations are the routes of the failed set built
from scratch."""

import dataclasses
import time

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from hypothesis import given, settings, strategies as st

from controller.agent import generations as gens
from controller.agent.diff import explain, same_state
from controller.daemon.config import load
from controller.daemon.controller import Change, Controller
from controller.daemon.log import EventLog
from controller.daemon.plan import compute_routes

from daemon_fakes import FakeSwitch, make_backend_for, net_toml, object_generation, tor_switch

TORS = 8
PER_HOP = 'source_routed = []\n[routing.per_hop]\nalgo = "uro"\nk = 3\nmax_hops = 4'
#: UCMP source routes towards three destinations, URO per-hop towards the others
UCMP = PER_HOP.replace("source_routed = []", "source_routed = [1, 4, 6]") + \
    '\n[routing.source]\nalgo = "ucmp"\nh_max = 4\nengine = "numpy"'


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t

    def sleep(self, s):
        self.t += s


class Log(EventLog):
    def __init__(self):
        super().__init__("json", stream=open("/dev/null", "w"))
        self.events = []

    def event(self, name, **kw):
        self.events.append((name, kw))
        return super().event(name, **kw)


def network(tmp_path, incremental: bool, routing: str = PER_HOP):
    sws = {f"127.0.0.1:{50000 + t}": FakeSwitch(f"tor{t}") for t in range(TORS)}
    d = tmp_path / ("inc" if incremental else "whole")
    d.mkdir()
    p = net_toml(d, [tor_switch(t) for t in range(TORS)], routing=routing,
                 daemon=f'status = "127.0.0.1:0"\nreconcile_s = 1000\nincremental = {str(incremental).lower()}')
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=Log(), clock=Clock())
    _OPEN.append(ctl)
    ctl.start()
    return ctl, sws


@pytest.fixture(autouse=True)
def _closed():
    """Every controller a test starts is shut down after it (its thread pools go)."""
    yield
    while _OPEN:
        _OPEN.pop().shutdown()


_OPEN: list = []


def change(ctl, op, kind, target):
    c = ctl.submit(Change(op, kind, target, detected=ctl.clock()))
    ctl.handle_jobs()
    assert c.report is not None and not c.report.get("error"), c.report
    return c


def written(ctl) -> int:
    return sum(a.stats["entries_written"] for a in ctl.agents.values())


def assert_same_network(a, b):
    (ctl_a, sws_a), (ctl_b, sws_b) = a, b
    for addr, sw in sws_a.items():
        got, want = sw.state(), sws_b[addr].state()
        assert same_state(got, want), f"{sw.name}: {explain(got, want)}"


def assert_runs_the_routes(ctl, sws):
    """Active and shadow generations of every ToR are the routes of the failed set, built
    from scratch; only the active one is live. A failed ToR's switch is not written
    (Role.left_out): it is not asked."""
    r = ctl.routes
    fresh = compute_routes(ctl.cfg, r.schedule, ctl.failed, r.version, r.schedule_version)
    for a in ctl.agents.values():
        if a.role.left_out(r):
            continue
        st = sws[a.cfg.address].state()
        act, _ = a.role.active(st)
        parts = gens.split(st, a.role.config_table())
        assert a.role.live(st) == frozenset({act})
        for g in (0, 1):
            want = a.role.routes(fresh, g)
            assert same_state(parts.gens[g], want), f"{a.name} generation {g}: {explain(parts.gens[g], want)}"


ELEMENTS = st.one_of(st.tuples(st.just("uplink"), st.tuples(st.integers(0, TORS - 1), st.integers(0, 1))),
                     st.tuples(st.just("tor"), st.integers(0, TORS - 1)),
                     st.tuples(st.just("ocs"), st.integers(0, 1)))


def run_steps(tmp, steps, maintain: bool = False, routing: str = PER_HOP):
    """``steps`` (failures, and recoveries of what failed before) on an incremental and a
    whole-path network: after each, the same switches; at the end, the routes of the
    failed set. ``maintain``: a maintenance pass (the reconcile) after each update."""
    inc, whole = network(tmp, True, routing), network(tmp, False, routing)
    try:
        down = set()
        for kind, target in steps:
            op = "recover" if (kind, target) in down else "fail"
            down ^= {(kind, target)}
            for ctl, _ in (inc, whole):
                change(ctl, op, kind, target)
                if maintain:
                    ctl.maintain()
            assert_same_network(inc, whole)
        assert_runs_the_routes(*inc)
        assert_runs_the_routes(*whole)
    finally:                         # one example's controllers go before the next starts
        while _OPEN:
            _OPEN.pop().shutdown()


@settings(max_examples=6, deadline=None)
@given(steps=st.lists(ELEMENTS, min_size=1, max_size=4))
def test_a_failures_cells_written_alone_leave_the_switches_as_a_whole_recomputation(tmp_path_factory, steps):
    run_steps(tmp_path_factory.mktemp("net"), steps)


@settings(max_examples=6, deadline=None)
@given(steps=st.lists(ELEMENTS, min_size=1, max_size=4))
def test_ucmp_source_routes_written_by_their_changed_cells_leave_the_switches_as_a_whole_recomputation(
        tmp_path_factory, steps):
    """The same with UCMP source routes towards three destinations (their groups repaired
    destination by destination where circuits only went, their changed cells' selector
    groups, members and entries written alone)."""
    run_steps(tmp_path_factory.mktemp("net"), steps, routing=UCMP)


def test_a_ucmp_cut_cable_builds_no_whole_table(tmp_path, monkeypatch):
    """With UCMP source routes a cut cable and its recovery build no ToR's whole route
    table and split no switch state, write what the whole path writes, and the routes
    log names the changed source-route cells."""
    inc, whole = network(tmp_path, True, UCMP), network(tmp_path, False, UCMP)
    built = []
    for a in inc[0].agents.values():
        monkeypatch.setattr(a.role, "routes", lambda r, g, a=a, f=a.role.routes: built.append(a.name) or f(r, g))
    for op in ("fail", "recover"):
        w = [written(ctl) for ctl, _ in (inc, whole)]
        built.clear()
        change(inc[0], op, "uplink", (3, 1))
        assert built == [], built
        change(whole[0], op, "uplink", (3, 1))
        assert written(inc[0]) - w[0] == written(whole[0]) - w[1] > 0
        assert_same_network(inc, whole)
        computed = [kw for n, kw in inc[0].log.events if n == "routes.computed"][-1]
        assert computed["changed_source_cells"] > 0 and computed["changed_source_tors"] > 0, computed
    assert_runs_the_routes(*inc)


def test_a_cut_cable_builds_only_its_cells_and_writes_what_the_whole_path_writes(tmp_path, monkeypatch):
    """A cut cable and its recovery: the incremental network's update repairs the routes
    (the routes log names the changed cells), builds no ToR's whole route table and splits
    no switch state (the whole path does both on every ToR), writes exactly the updates
    the whole path writes, and leaves the same switches."""
    inc, whole = network(tmp_path, True), network(tmp_path, False)
    built, splits = [], []
    for ctl, _ in (inc, whole):
        for a in ctl.agents.values():
            def routes(r, g, a=a, ctl=ctl, whole_routes=a.role.routes):
                built.append(ctl)
                return whole_routes(r, g)
            monkeypatch.setattr(a.role, "routes", routes)
    split = gens.split
    monkeypatch.setattr(gens, "split", lambda st, t: splits.append(1) or split(st, t))
    for op in ("fail", "recover"):
        w = [written(ctl) for ctl, _ in (inc, whole)]
        built.clear()
        splits.clear()
        if op == "fail":      # the start's update left a copy of its routes for this repair to write in
            cache = inc[0].route_cache
            for _ in range(1000):
                if cache.copy_state() == "ready":
                    break
                time.sleep(0.01)
            made = cache._copy[1].arrays
        change(inc[0], op, "uplink", (3, 1))
        assert built == [] and splits == [], (len(built), len(splits))
        if op == "fail":
            ph = inc[0].routes.per_hop
            assert all(x is m for x, m in zip(ph.arrays, made))
        change(whole[0], op, "uplink", (3, 1))
        assert built.count(whole[0]) >= TORS and splits
        assert written(inc[0]) - w[0] == written(whole[0]) - w[1] > 0
        assert_same_network(inc, whole)
        computed = [kw for n, kw in inc[0].log.events if n == "routes.computed"][-1]
        assert computed["changed_cells"] > 0 and computed["changed_tors"] > 0, computed
    assert_runs_the_routes(*inc)


def test_a_network_without_a_delta_writes_whole_and_the_next_failure_is_incremental_again(tmp_path, monkeypatch):
    """An update whose routes carry no delta (the routes recomputed whole: here the
    incremental path switched off for one failure) writes whole generations and notes
    what they hold; the next failure is written as its cells again, and the switches
    stay those of a whole recomputation."""
    inc, whole = network(tmp_path, True), network(tmp_path, False)
    ctl = inc[0]
    on = ctl.cfg
    ctl.cfg = dataclasses.replace(on, daemon=dataclasses.replace(on.daemon, incremental=False))
    for c, _ in (inc, whole):
        change(c, "fail", "tor", 2)
    assert_same_network(inc, whole)
    ctl.cfg = on
    splits = []
    split = gens.split
    monkeypatch.setattr(gens, "split", lambda st, t: splits.append(1) or split(st, t))
    change(ctl, "fail", "uplink", (5, 0))
    assert splits == []
    change(whole[0], "fail", "uplink", (5, 0))
    assert_same_network(inc, whole)
    assert_runs_the_routes(*inc)


def _writes_by_stamp(ctl, sws) -> dict:
    """{ToR name: [(kind, how, route generation of the object, generation the ToR stamped
    when the switch applied it)]}, recorded from now on (config entries: not recorded)."""
    from controller.agent.desired import is_config
    from controller.tables.state import Batch

    log = {}
    for a in ctl.agents.values():
        sw, rec = sws[a.cfg.address], log.setdefault(a.name, [])
        stamp = {"now": a.role.active(sw.state())[0]}

        def watch(_sw, kind, how, x, role=a.role, rec=rec, stamp=stamp):
            if kind == "entries" and is_config(x, role.config_table()):
                stamp["now"] = role.active(Batch(entries=[x]))[0]
            else:
                rec.append((kind, how, object_generation(kind, x), stamp["now"]))
        sw.watch = watch
    return log


def test_a_dead_tors_members_and_groups_are_deleted_after_the_sources_stamp_the_new_generation(tmp_path):
    """A dead ToR's update deletes every source route towards it. Each ToR's prepare
    writes into the new generation what its lookups need -- inserts, modifies, the entries'
    deletes -- and leaves the members and groups no entry reaches any more to its retire,
    after its sources stamp the new generation (docs/fabric.md "Deletes after the flip").
    The switches end as the whole recomputation leaves them."""
    ctl, sws = network(tmp_path, True, UCMP)
    log = _writes_by_stamp(ctl, sws)
    change(ctl, "fail", "tor", 4)
    new = ctl.agents["tor0"].active
    assert log["tor4"] == []
    for name, rec in log.items():
        if name == "tor4":
            continue
        into_new = [(kind, how, stamped) for kind, how, g, stamped in rec if g == new]
        later = [stamped for kind, how, stamped in into_new if how == "delete" and kind != "entries"]
        before = [(kind, how, stamped) for kind, how, stamped in into_new if how != "delete" or kind == "entries"]
        assert later and set(later) == {new}, (name, rec)
        assert any(kind == "entries" and how == "delete" for kind, how, _ in before), (name, rec)
        assert all(stamped != new for _, _, stamped in before), (name, before)
    assert_runs_the_routes(ctl, sws)


def test_a_failures_prepare_says_what_it_writes_and_keeps_the_old_generation_active_meanwhile(tmp_path):
    """While a ToR's prepare writes the difference into the new generation, the switch's
    status keeps the old one active (a down mask written meanwhile goes there); the log's
    ``generation.writing`` names both; after the update the status counts the updates the
    prepare wrote, the seconds until they read back, and the objects of the switch's active
    part (statics, the new generation's routes, the config entry)."""
    ctl, sws = network(tmp_path, True, UCMP)
    old = ctl.agents["tor0"].active
    log = _writes_by_stamp(ctl, sws)
    status = {}
    for a in ctl.agents.values():
        sw, seen = sws[a.cfg.address], status.setdefault(a.name, [])

        def watch(s, kind, how, x, a=a, seen=seen, then=sw.watch):
            seen.append((a.active, object_generation(kind, x)))
            then(s, kind, how, x)
        sw.watch = watch
    t0 = time.perf_counter()
    change(ctl, "fail", "tor", 4)
    took = time.perf_counter() - t0
    new = 1 - old
    writing = {kw["switch"]: (kw["generation"], kw["active"]) for n, kw in ctl.log.events if n == "generation.writing"}
    for a in ctl.agents.values():
        if a.name == "tor4":
            continue
        assert a.active == new and writing[a.name] == (new, old), (a.name, writing.get(a.name))
        prepared = [r for r in log[a.name] if r[2] == new and r[3] == old]
        assert prepared and all(act == old for act, g in status[a.name][:len(prepared)]), a.name
        assert a.last_swap["written"] == len(prepared), (a.name, a.last_swap)
        # the prepare's seconds to its generation read back, within its own, within the update's (an order, not a figure)
        assert 0 < a.last_swap["verify_s"] <= a.last_swap["prepare_s"] <= took, (a.name, a.last_swap, took)
        parts = gens.split(sws[a.cfg.address].state(), a.role.config_table())
        assert a.entries == (gens.objects(parts.static) + len(parts.other_defaults) + gens.objects(parts.gens[new])
                             + 1), a.name


def test_without_the_deletes_left_to_the_retire_a_prepare_writes_them_before_the_flip(tmp_path, monkeypatch):
    """Where a switch's known state cannot check the deletes a prepare would leave (a
    (1024, 32) ToR's keeps its generations as versions), the prepare writes the whole
    difference, members and groups deleted too, before its sources stamp the new
    generation; nothing is left to the retire."""
    from controller.daemon.switch import SwitchAgent

    monkeypatch.setattr(SwitchAgent, "_defers_deletes", lambda self: False)
    ctl, sws = network(tmp_path, True, UCMP)
    log = _writes_by_stamp(ctl, sws)
    change(ctl, "fail", "tor", 4)
    new = ctl.agents["tor0"].active
    for name, rec in log.items():
        into_new = [(kind, how, stamped) for kind, how, g, stamped in rec if g == new]
        gone = [stamped for kind, how, stamped in into_new if how == "delete" and kind != "entries"]
        assert name == "tor4" or (gone and new not in gone), (name, rec)
    assert all(a._deferred is None for a in ctl.agents.values())
    assert_runs_the_routes(ctl, sws)


def test_a_difference_the_switch_refuses_is_written_whole_and_said_why(tmp_path):
    """A difference the switch refuses (as bmv2 refuses a selector group changed in place
    past its size) empties the new generation and writes it whole; the warning and the
    switch's counter say so, the warning with the switch's own error."""
    ctl, sws = network(tmp_path, True, UCMP)
    a = ctl.agents["tor2"]
    sws[a.cfg.address].refuse = lambda kind, how, x: kind == "entries" and how == "modify" and not x.is_default
    change(ctl, "fail", "tor", 4)
    warned = [kw for n, kw in ctl.log.events if n == "generation.diff_refused"]
    # (the prepare's and the retire's: each writes its generation's difference)
    assert {kw["switch"] for kw in warned} == {"tor2"} and a.stats["diff_refused"] == len(warned) >= 1
    assert all("INVALID_ARGUMENT: modify of entries" in kw["error"] for kw in warned), warned
    assert_runs_the_routes(ctl, sws)


def test_a_difference_that_does_not_read_back_fails_the_update_naming_it(tmp_path):
    """A switch that takes a write of the prepare but does not hold it after: the read by
    key misses it, the update stops before any source stamps the new generation, the
    switch's error names what did not read back, and the retry writes it."""
    from controller.agent.desired import is_config

    from daemon_fakes import entry_key

    ctl, sws = network(tmp_path, True, UCMP)
    a = ctl.agents["tor2"]
    sw, old = sws[a.cfg.address], a.active
    lost = []

    def lose(s, kind, how, x):
        if not lost and how != "delete" and kind == "entries" and not is_config(x, a.role.config_table()):
            lost.append(x)
            del s.entries[entry_key(x)]
    sw.watch = lose
    c = ctl.submit(Change("fail", "tor", 4, detected=ctl.clock()))
    ctl.handle_jobs()
    assert lost and c.report.get("error"), c.report
    failed = [kw["error"] for n, kw in ctl.log.events if n == "switch.swap_failed" and kw["switch"] == "tor2"]
    assert failed and failed[0].startswith("switch 'tor2': what was written did not read back as written"), failed
    assert all(x.active == old for x in ctl.agents.values() if x.name != "tor4")
    sw.watch = None
    ctl.maintain(now=ctl.clock() + 60)
    ctl.handle_jobs()
    assert_runs_the_routes(ctl, sws)


def _refuse_to_stamp(sw, agent) -> None:
    """Switch ``sw`` (``agent``'s) refuses every config write that stamps another generation
    than the one it stamps now: an update stops after its prepares, both generations live."""
    from controller.agent.desired import is_config
    from controller.tables.state import Batch

    now = agent.active
    sw.refuse = lambda kind, how, x: (
        kind == "entries" and is_config(x, agent.role.config_table()) and agent.role.active(Batch(entries=[x]))[0] != now)


def test_deletes_left_by_a_prepare_whose_update_stopped_are_written_by_the_next_update(tmp_path):
    """A dead ToR's update stops after every prepare (ToR 0 refuses to stamp the new
    generation: both stay live everywhere), so no retire writes the members and groups
    the prepares left; the update the maintenance pass asks for writes them before anything
    else (its retire of the old generation), and the switches end as the whole
    recomputation leaves them."""
    ctl, sws = network(tmp_path, True, UCMP)
    tor0 = ctl.agents["tor0"]
    _refuse_to_stamp(sws[tor0.cfg.address], tor0)
    c = ctl.submit(Change("fail", "tor", 4, detected=ctl.clock()))
    ctl.handle_jobs()
    assert any(n == "generation.retire_deferred" for n, _ in ctl.log.events), c.report
    left = {a.name: a._deferred for a in ctl.agents.values()}
    assert all(left[n] is not None for n in left if n != "tor4"), left
    log = _writes_by_stamp(ctl, sws)
    sws[tor0.cfg.address].refuse = None
    ctl.maintain(now=ctl.clock() + 60)
    ctl.handle_jobs()
    for name, rec in log.items():
        if name not in ("tor4", "tor0"):
            first = [(kind, how) for kind, how, g, _ in rec[:len(left[name][1])]]
            assert first and {how for _, how in first} == {"delete"}, (name, rec[:5])
    assert all(a._deferred is None for a in ctl.agents.values())
    assert_runs_the_routes(ctl, sws)


def test_a_live_generation_is_never_prepared_as_a_difference_even_where_it_holds_the_base(tmp_path):
    """An update stopped after its prepares (ToR 0 refuses to stamp the new generation)
    leaves both generations live on every ToR; the others stamp the new one, and the old
    one still holds the routes before the failure. Routes repaired from those (another
    failure's, whose ``delta.base`` is what that live generation holds) are not written
    into it as a difference: the phase declines (None) and writes nothing (the update
    the maintenance pass asks for finishes the flip first)."""
    from controller.schedule.degrade import Failed

    ctl, sws = network(tmp_path, True, UCMP)
    tor0 = ctl.agents["tor0"]
    old, before_failure = tor0.active, ctl.routes
    _refuse_to_stamp(sws[tor0.cfg.address], tor0)
    ctl.submit(Change("fail", "tor", 4, detected=ctl.clock()))
    ctl.handle_jobs()
    r = compute_routes(ctl.cfg, before_failure.schedule, Failed(uplinks=frozenset({(2, 0)})),
                       ctl.routes.version + 1, before_failure.schedule_version, previous=before_failure)
    assert r.delta is not None
    a = ctl.agents["tor2"]
    act, live, had = a._known_generations()
    assert act != old and live == {act, old} and had[old] == a.role.version(r.delta.base)
    before = sws[a.cfg.address].state()
    assert a._prepare_delta(r, old) is None
    assert same_state(sws[a.cfg.address].state(), before)


def test_deletes_left_by_a_prepare_are_dropped_where_the_switch_is_no_longer_known_to_hold_them(tmp_path):
    """The deletes a prepare left are written only against the known state they were
    diffed with, and only while it holds every object they delete: a known state
    forgotten (a failed write, a reconnect: the switch is read again) or one that no longer
    holds one of them drops them -- the next read finds whatever is left and the whole
    path deletes it as any difference -- instead of writing deletes the switch may refuse."""
    from controller.agent.diff import Diff
    from controller.agent.known import KnownState
    from controller.tables.state import Batch

    ctl, sws = network(tmp_path, True, UCMP)
    a = ctl.agents["tor1"]
    sws[a.cfg.address].refuse = lambda kind, how, x: kind == "entries" and x.is_default and \
        a.role.active(Batch(entries=[x]))[0] != a.active             # its activation refused: no retire
    ctl.submit(Change("fail", "tor", 4, detected=ctl.clock()))
    ctl.handle_jobs()
    known, d = kept = ctl.agents["tor2"]._deferred
    assert known is ctl.agents["tor2"]._known and d.delete.members and d.delete.groups
    b = ctl.agents["tor2"]
    assert b._take_deferred() is d and b._deferred is None and b._take_deferred() is None
    b._deferred = kept
    b._known = KnownState(known.batch())                      # read again: another known state
    assert b._take_deferred() is None
    b._known = known
    known.apply(Diff(delete=Batch(members=d.delete.members[:1])))
    b._deferred = kept
    assert b._take_deferred() is None                         # one of its members is gone


def test_a_failed_tors_switch_is_left_out_of_the_updates_until_it_is_back(tmp_path):
    """The switch of a ToR declared failed may well be gone (or, as it stopped, still look
    connected): no update writes to it or waits for it. Every other ToR gets the routes
    around it at once; it keeps what it had, is not retried meanwhile, and gets the
    routes once declared back."""
    ctl, sws = network(tmp_path, True)
    tor2 = sws["127.0.0.1:50002"]
    tor2.fail_after = 0                        # a write would be refused, as a stopped switch's
    before, updates = tor2.state(), tor2.updates
    c = change(ctl, "fail", "tor", 2)
    assert c.report["generation_s"] is not None, c.report
    change(ctl, "fail", "uplink", (5, 0))      # a second failure meanwhile: it waits for nothing either
    ctl.agents["tor2"].retry_install = True    # as an update that failed on it before it failed leaves it
    installs, install_all = [], ctl.install_all
    ctl.install_all = lambda *a: installs.append(a) or install_all(*a)
    for _ in range(3):
        ctl.clock.sleep(ctl.cfg.daemon.reconnect_s + 1)
        ctl.maintain(ctl.clock())
        ctl.handle_jobs()
    assert installs == [] and tor2.updates == updates and same_state(tor2.state(), before)
    assert not any(n in ("switch.install_failed", "generation.not_prepared") for n, _ in ctl.log.events)
    assert_runs_the_routes(ctl, sws)
    tor2.fail_after = None
    change(ctl, "recover", "tor", 2)
    assert ctl.agents["tor2"].installed == ctl.agents["tor2"].role.version(ctl.routes)
    assert_runs_the_routes(ctl, sws)


def test_a_failed_tor_back_costs_the_others_what_its_failure_did(tmp_path):
    """A failed ToR's switch, left out of the update that routed around it, still stamps
    the generation the others retired; declared back, it rejoins the network's stamp
    (``generation.rejoining``) and the network moves to the routes with it. Every other
    switch then writes what the failure wrote it (the same changed cells back) and a
    config write: the generation it retires on the way is the one its shadow is, and the
    shadow stays for the new routes' difference, not emptied and written whole."""
    ctl, sws = network(tmp_path, True)

    def written_each():
        return {n: a.stats["entries_written"] for n, a in ctl.agents.items()}
    w0 = written_each()
    change(ctl, "fail", "tor", 2)
    w1 = written_each()
    n0 = len(ctl.log.events)
    change(ctl, "recover", "tor", 2)
    w2 = written_each()
    assert "generation.rejoining" in {n for n, _ in ctl.log.events[n0:]}
    assert_runs_the_routes(ctl, sws)
    failed = {n: w1[n] - w0[n] for n in w0}
    back = {n: w2[n] - w1[n] for n in w0}
    assert failed["tor2"] == 0 and back["tor2"] > 0
    assert all(0 < failed[n] <= back[n] <= failed[n] + 1 for n in back if n != "tor2"), (failed, back)


def test_the_fixed_costs_are_paid_once(tmp_path, monkeypatch):
    """The start builds each ToR's route table once (the checks' build is the one written;
    the shadow is derived from it), a role builds its static entries once, and an update
    asks each switch's pipeline cookie once (its survey), not once per phase -- and not at
    all where the session stayed primary since it was last asked (its session epoch)."""
    from controller.agent import desired
    from controller.tables import tor_batch

    builds, statics, cookies = [], [], []
    routes, static = desired.TorRole.routes, tor_batch.static_entries
    monkeypatch.setattr(desired.TorRole, "routes", lambda self, r, g: builds.append(self.tor) or routes(self, r, g))
    monkeypatch.setattr(tor_batch, "static_entries", lambda c, t: statics.append(t) or static(c, t))
    ctl, sws = network(tmp_path, True)
    assert sorted(builds) == list(range(TORS)), builds
    for a in ctl.agents.values():
        cookie = a.backend.pipeline_cookie
        monkeypatch.setattr(a.backend, "pipeline_cookie", lambda cookie=cookie: cookies.append(1) or cookie())
    change(ctl, "fail", "uplink", (3, 1))
    assert cookies == []                          # every session primary throughout
    type(next(iter(ctl.agents.values())).backend).epochs = False     # a backend that cannot tell
    change(ctl, "fail", "tor", 6)
    assert len(cookies) == TORS - 1, len(cookies)     # every switch but the failed ToR's
    assert sorted(statics) == sorted(set(statics)) and len(statics) <= TORS, statics


def test_an_update_logs_its_progress_per_phase(tmp_path, monkeypatch):
    """A network-wide update logs ``update.progress`` (phase, switches done, of, failed)
    while its phases run: the first install's prepare counts every ToR once, up to all."""
    from controller.daemon import update as update_mod
    monkeypatch.setattr(update_mod, "PROGRESS_S", 0.0)
    ctl, _ = network(tmp_path, True)
    lines = [kw for name, kw in ctl.log.events if name == "update.progress"]
    prep = [kw for kw in lines if kw["phase"] == "prepare_generation"]
    assert sorted(kw["done"] for kw in prep) == list(range(1, TORS + 1)), prep
    assert all(kw["of"] == TORS and kw["failed"] == 0 for kw in prep), prep
    # (each small ToR's shadow starts once every install ended: a retire phase, every ToR once)
    assert {kw["phase"] for kw in lines} == {"survey", "prepare_generation", "retire_generation"}, lines
    retire = [kw for kw in lines if kw["phase"] == "retire_generation"]
    assert sorted(kw["done"] for kw in retire) == list(range(1, TORS + 1)), retire
