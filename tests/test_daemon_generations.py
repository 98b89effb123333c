"""Hitless route generations on one switch (fake backend): first install, swap, a crash
after every single update of a swap (then a restart that finishes it), a swap that fails
half-way and is retried, drift repaired in place, a down mask written during a swap.

The invariant checked after EVERY update the switch applies: the switch is unconfigured,
or its active generation holds exactly one complete route set (old or new) -- never a
mix."""

import copy
import dataclasses
import itertools
import threading

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from controller.agent.backend import BackendError
from controller.agent.diff import Diff, entry_key, same_state
from controller.agent import generations as gens
from controller.daemon.config import load
from controller.daemon.controller import Change, Controller, Prepared
from controller.daemon.log import EventLog
from controller.daemon.plan import compute_routes
from controller.tables.state import Batch, TableEntry
from controller.agent.desired import ROLES
from controller.schedule.degrade import Failed

from daemon_fakes import FakeSwitch, generation_watcher, make_backend_for, net_toml, tor_switch


def quiet():
    log = EventLog("json", stream=open("/dev/null", "w"))
    log.lines = []
    return log


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t

    def sleep(self, seconds):          # the controller's waits move this clock, not real time
        self.t += seconds


_PREP = {}


def network(tmp_path, routing=None, sw=None):
    """A one-ToR network on a fake switch; checks and routes computed once per session."""
    sw = sw or FakeSwitch("tor0")
    p = net_toml(tmp_path, [tor_switch(0)], routing=routing)
    bf = make_backend_for({"127.0.0.1:50000": sw})
    ctl = Controller(load(p), backend_for=bf, log=quiet(), clock=Clock())
    if routing not in _PREP:
        _PREP[routing] = Prepared(ctl.cfg, Failed(), bf)
    prep = copy.copy(_PREP[routing])             # fresh roles: a test may patch one
    prep.backends = {"tor0": bf("bmv2")}
    prep.roles = {s.name: ROLES[s.role](ctl.cfg.programs[s.program].contract, s.tor, ctl.cfg.clock.capacity_bytes,
                                        ctl.cfg.clock.bytes_per_us) for s in ctl.cfg.switches}
    ctl.prep = prep
    return ctl, sw


def started(tmp_path, sw=None):
    ctl, sw = network(tmp_path, sw=sw)
    ctl.start(ctl.prep)
    return ctl, sw


def routes_b(ctl, version=2):
    """Other routes that differ observably: ToR 1 failed -> no route to it, others change."""
    r = ctl.routes
    return compute_routes(ctl.cfg, r.schedule, Failed(uplinks=frozenset({(0, 1)})), version, r.schedule_version)


def test_first_install_writes_the_config_entry_last(tmp_path):
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    assert a.active == 0 and sw.pipelines_set == 1
    order = []
    # replay: the config entry is the last update of the first install
    sw2 = FakeSwitch("x")
    sw2.watch = lambda s, *_: order.append((a.role.active(s.state())[0], a.role.live(s.state())))
    started(tmp_path, sw2)
    first = next(i for i, (g, _) in enumerate(order) if g is not None)
    assert all(g is None for g, _ in order[:first])
    # after it, only the shadow (generation 1, never live) is written
    assert first < len(order) - 1 and all(x == (0, frozenset({0})) for x in order[first:])
    p2 = gens.split(sw2.state(), a.role.config_table())
    assert same_state(p2.gens[1], a.routes_batch(ctl.routes, 1))
    st = sw.state()
    assert same_state(gens.split(st, a.role.config_table()).gens[0], a.routes_batch(ctl.routes, 0))
    assert a.status()["entries"] > 100 and a.stats["installs"] == 1


def test_swap_is_hitless_after_every_update(tmp_path):
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    old = a.routes_batch(ctl.routes, 0)
    new_routes = routes_b(ctl)
    new = a.routes_batch(new_routes, 1)
    assert not same_state(old, a.routes_batch(new_routes, 0)), "the two route sets must differ"
    check, seen = generation_watcher(a.role, {"old": (0, old), "new": (1, new)})
    sw.watch = check
    before = sw.updates
    assert a.install(new_routes) == "swapped"
    assert seen[0] == "old" and seen[-1] == "new"
    flips = [i for i, (x, y) in enumerate(zip(seen, seen[1:])) if x != y]
    assert len(flips) == 1, "exactly one update changes what the data plane runs"
    st = sw.state()
    p = gens.split(st, a.role.config_table())
    assert p.entries(0) == 0 and same_state(p.gens[1], new), "the old generation is deleted"
    assert a.active == 1 and a.stats["swaps"] == 1
    # three config writes: the new generation live, the sources stamp it, the old one not live
    assert a.last_swap["write_to_active_s"] >= 0 and a.last_swap["written"] + a.last_swap["deleted"] + 3 == \
        sw.updates - before


def test_a_swap_that_reads_back_a_lost_write_activates_nothing(tmp_path):
    """The daemon's install of other routes (GenerationWriter._swap): the switch
    acknowledges the write of a route entry of the new generation without holding it (a
    modify of the shadow the slot holds: the entry keeps the old routes' content). The
    read-back finds it before any write of the config entry: the swap fails, the old
    generation stays active, complete and alone live; the retry, on a switch that keeps
    what it is written, swaps."""
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    old = a.routes_batch(ctl.routes, 0)
    new_routes = routes_b(ctl)
    lost = next(e for e in a.routes_batch(new_routes, 1).entries if e.table.endswith("uro_next_hop"))
    sw.lose = lambda kind, how, x: kind == "entries" and x == lost
    configs = []
    sw.watch = lambda s, kind, how, x: configs.append(x) if kind == "entries" and x.is_default else None
    with pytest.raises(gens.SwapError, match=r"generation 1 did not read back as written: 1 different \("
                                             r"UroIngress.uro_next_hop \[generation=1 "):
        a.install(new_routes)
    assert configs == [], "the config entry was written before the new generation read back"
    st = sw.state()
    assert a.role.active(st)[0] == 0 and a.role.live(st) == frozenset({0})
    assert same_state(gens.split(st, a.role.config_table()).gens[0], old)
    assert a.stats["swap_failures"] == 1
    sw.lose = None
    assert a.install(new_routes) == "swapped" and a.role.active(sw.state())[0] == 1


def test_a_swap_keeps_the_old_generation_routed_while_its_packets_drain(tmp_path):
    """Between "the sources stamp the new generation" and "the old one is no longer routed"
    the swap waits ``drain_s`` (the daemon's: one cycle + the queue margin): a packet stamped
    with the old generation just before, held for a later slice or queued before an
    after-queue lookup (t2na's egress ssrr_hops), still finds its entries."""
    from controller.daemon.controller import QUEUE_MARGIN_S, Controller

    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    cycle = ctl.cfg.clock.slice_ms / 1e3 * ctl.routes.schedule.n_slices
    assert a.drain_s == pytest.approx(cycle + QUEUE_MARGIN_S) == Controller.drain_s(ctl.cfg, ctl.routes)
    old = a.routes_batch(ctl.routes, 0)
    seen = []

    def wait(seconds):
        st = sw.state()
        p = gens.split(st, a.role.config_table())
        seen.append((seconds, a.role.active(st)[0], a.role.live(st), same_state(p.gens[0], old)))
    a._wait = wait
    assert a.install(routes_b(ctl)) == "swapped"
    # one wait, while generation 1 is stamped and 0 is still live and complete
    assert seen == [(a.drain_s, 1, frozenset({0, 1}), True)], seen
    p = gens.split(sw.state(), a.role.config_table())
    assert p.entries(0) == 0                       # retired after the wait


def test_crash_after_any_update_then_restart_ends_in_the_desired_state(tmp_path):
    """SIGKILL of the daemon after update i of a swap, for every i: the switch never runs
    a mix, and a new daemon (fresh agent, fresh session) brings it to the new routes."""
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    new_routes = routes_b(ctl)
    total = None
    probe = FakeSwitch("probe")
    # count the updates of one full swap
    c0, _ = started(tmp_path, probe)
    n0 = probe.updates
    c0.agents["tor0"].install(new_routes)
    total = probe.updates - n0
    assert total > 50
    old = a.routes_batch(ctl.routes, 0)
    for i in itertools.chain(range(0, 12), range(12, total, max(1, total // 25)), [total - 2, total - 1]):
        dev = FakeSwitch("dev")
        c1, _ = started(tmp_path, dev)              # running the old routes, generation 0
        a1 = c1.agents["tor0"]
        new0, new1 = a1.routes_batch(new_routes, 0), a1.routes_batch(new_routes, 1)
        check, seen = generation_watcher(a1.role, {"old": (0, old), "new": (1, new1), "new0": (0, new0)})
        dev.watch = check
        dev.fail_after = i                          # the daemon dies after update i
        with pytest.raises(BackendError):
            a1.install(new_routes)
        dev.fail_after = None
        a1.backend.close()                          # the process is gone; its session with it
        c2, _ = network(tmp_path, sw=dev)           # the restarted daemon computes the new routes
        prep = copy.copy(c2.prep)
        prep.routes = new_routes
        c2.start(prep)
        agents = c2.agents
        res = agents["tor0"].installed
        st = dev.state()
        act, _ = agents["tor0"].role.active(st)
        p = gens.split(st, agents["tor0"].role.config_table())
        assert same_state(p.gens[act], agents["tor0"].routes_batch(new_routes, act)), (i, res)
        # the other generation is empty or the shadow of the routes (never live), no junk
        assert p.entries(1 - act) == 0 or same_state(p.gens[1 - act], agents["tor0"].routes_batch(new_routes, 1 - act)), \
            f"crash after update {i}: junk of the other generation left"
        assert agents["tor0"].role.live(st) == frozenset({act})
        assert set(seen) <= {"old", "new", "new0"}


def test_failed_swap_keeps_the_old_generation_and_is_retried(tmp_path):
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    old = a.routes_batch(ctl.routes, 0)
    new_routes = routes_b(ctl)
    sw.fail_after = 40
    with pytest.raises(BackendError, match="injected"):
        a.install(new_routes)
    st = sw.state()
    assert a.role.active(st)[0] == 0 and same_state(gens.split(st, a.role.config_table()).gens[0], old)
    assert a.stats["swap_failures"] == 1 and "injected" in a.last_error
    sw.fail_after = None
    ctl.routes = new_routes
    ctl.maintain(now=ctl.clock() + 10)                        # the maintenance pass asks for the update again
    ctl.handle_jobs()                                         # ... which the control thread runs network-wide
    assert a.active == 1 and a.installed == ("routes", 2) and a.stats["swaps"] == 1


def test_same_routes_again_is_a_no_op(tmp_path):
    ctl, sw = started(tmp_path)
    n = sw.updates
    assert ctl.agents["tor0"].install(ctl.routes) == "current"
    assert sw.updates == n


def test_drift_is_repaired_in_place_and_counted(tmp_path):
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    st = gens.split(sw.state(), a.role.config_table())
    victims = st.gens[0].entries[:3]
    sw.delete_entry(victims[0])                              # deleted behind the daemon's back
    e = victims[1]
    sw.set_entry(type(e)(e.table, e.match, e.action, tuple((k, 0) for k, _ in e.params), e.is_default,
                         e.group_id, e.priority))            # modified
    static = st.static.entries[0]
    sw.delete_entry(static)
    cfg = st.config
    sw.set_entry(type(cfg)(cfg.table, (), cfg.action, tuple((k, 1 if k == "down" else v) for k, v in cfg.params),
                           True))                            # someone masked an uplink
    n = a.reconcile(ctl.routes)
    assert n == 4 and a.stats["repairs"] == 4 and a.stats["reconcile_runs"] == 1
    assert a.active == 0 and a.role.active(sw.state()) == (0, frozenset())
    assert a.reconcile(ctl.routes) == 0 and a.stats["repairs"] == 4
    # counted in the metrics too
    text = ctl.metrics.render().decode()
    assert 'uro_reconcile_repairs_total{switch="tor0"} 4.0' in text


def test_switch_restart_restores_pipeline_and_entries(tmp_path):
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    want = sw.state()
    sw.restart()                                             # the process restarted empty
    assert not a.backend.connected
    ctl.maintain(now=ctl.clock() + 100)
    assert a.state == "up" and a.stats["restores"] == 1 and a.stats["reconnects"] == 1
    assert same_state(sw.state(), want)
    assert sw.pipelines_set == 2
    # a reconnect to a switch that kept running (session dropped only) adopts it: no pipeline load
    a.backend.close()
    ctl.maintain(now=ctl.clock() + 200)
    assert a.stats["reconnects"] == 2 and sw.pipelines_set == 2 and same_state(sw.state(), want)


def test_down_mask_during_a_swap_is_not_lost(tmp_path):
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    new_routes = routes_b(ctl)
    a.chunk = 16
    hit = {"n": 0, "t": None}

    def midway(s, *_):
        hit["n"] += 1
        if hit["n"] == 30:                       # a failure while the new generation is written
            s.watch = None                       # (from another thread, like the control thread)
            hit["t"] = threading.Thread(target=a.set_down, args=(frozenset({1}),))
            hit["t"].start()
    sw.watch = midway
    a.install(new_routes)
    hit["t"].join(10)
    assert a.role.active(sw.state()) == (1, frozenset({1})), "the mask set during the swap is not lost"


def test_generation_id_conflict_is_refused_not_written(tmp_path):
    """If a new generation's selector ids collided with the live generation's, the swap
    would rewrite live members: it is refused before anything is written."""
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    live = gens.split(sw.state(), a.role.config_table()).gens[0]
    assert live.members, "the tiny network has source routes (selector members)"
    new_routes = routes_b(ctl)
    real = a.role.routes

    def colliding(routes, g):
        b = real(routes, g)
        m = b.members[0]
        b.members[0] = type(m)(m.profile, live.members[0].member_id, m.action, m.params)
        return b
    a.role.routes = colliding
    a.role.routes_as = lambda batch, g: None          # built, not derived: each generation collides
    n = sw.updates
    with pytest.raises(BackendError, match="would overwrite live state of generation 0"):
        a.install(new_routes)
    assert sw.updates == n


def test_another_controller_takes_over_changes_things_and_leaves(tmp_path):
    """While a controller with a higher election id is primary the daemon does not write
    (not_primary); when it leaves, the daemon is primary again and repairs what it did --
    including a flip of the active generation -- counted as repairs."""
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    ctl.routes = routes_b(ctl)
    a.install(ctl.routes)                               # gen 1 active, gen 0 deleted
    want = sw.state()
    other = object()
    sw.primary, sw.primary_session = 99, other          # another controller took over
    ctl.maintain(now=ctl.clock() + 10)
    assert a.state == "not_primary" and "election id 99" in a.last_error
    n = sw.updates
    st = gens.split(sw.state(), a.role.config_table())
    sw.delete_entry(st.gens[1].entries[0])
    cfg = st.config
    sw.set_entry(type(cfg)(cfg.table, (), cfg.action, tuple((k, 0 if k == "generation" else v) for k, v in cfg.params),
                           True))                       # it even flipped to the (empty) generation 0
    ctl.maintain(now=ctl.clock() + 20)
    assert a.state == "not_primary" and sw.updates == n, "no write while another controller is primary"
    sw.primary = sw.primary_session = None              # it left
    ctl.maintain(now=ctl.clock() + 30)
    assert a.state == "up" and a.stats["repairs"] == 2 and a.stats["swaps"] == 1
    assert same_state(sw.state(), want)


def test_a_recovery_on_a_target_that_marks_no_link_never_waits_for_io(tmp_path):
    """bmv2 marks no uplink by itself (``marks_links`` False): a recovery writes the mask
    and never calls ``clear_link_down`` -- which would wait for a read-back holding the
    session (``io_lock``) only to do nothing."""
    from controller.daemon.changes import Change

    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    assert not a.backend.marks_links
    calls = []
    a.backend.clear_link_down = lambda uplinks: calls.append(set(uplinks)) or frozenset()
    ctl.submit(Change("fail", "uplink", (0, 1), source="test"))
    ctl.handle_jobs()
    assert a.role.active(sw.state())[1] == frozenset({1})
    ctl.submit(Change("recover", "uplink", (0, 1), source="test"))
    ctl.handle_jobs()
    assert a.role.active(sw.state())[1] == frozenset()
    assert calls == [] and a.links_up == frozenset() and a.stats["links_cleared"] == 0


def test_a_recovered_uplinks_data_plane_mark_is_cleared_and_no_other(tmp_path):
    """An uplink back up (a recovery the controller handles, any source) gets its data-plane
    mark cleared through the backend (Tofino2: link_down_reg, set by the port-down
    application), after the mask write; a failure clears nothing; an uplink still down keeps
    its mark; a clear that fails is retried by the next reconcile pass."""
    from controller.daemon.changes import Change

    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    marks = {"reg": 0b11, "calls": [], "fail": 0}      # both uplinks marked by the data plane

    def clear_link_down(uplinks):
        marks["calls"].append(set(uplinks))
        if marks["fail"]:
            marks["fail"] -= 1
            raise BackendError("tor0: injected")
        hit = frozenset(u for u in uplinks if marks["reg"] >> u & 1)
        marks["reg"] &= ~sum(1 << u for u in hit)
        return hit
    a.backend.clear_link_down = clear_link_down
    a.backend.marks_links = True         # a target whose data plane marks links (Tofino2)

    for u in (0, 1):
        ctl.submit(Change("fail", "uplink", (0, u), source="test"))
    ctl.handle_jobs()
    assert a.down == frozenset({0, 1}) and marks["calls"] == []
    ctl.submit(Change("recover", "uplink", (0, 0), source="test"))
    ctl.handle_jobs()
    assert marks["calls"] == [{0}] and marks["reg"] == 0b10, marks       # uplink 1 is still down
    assert a.role.active(sw.state())[1] == frozenset({1}) and a.stats["links_cleared"] == 1
    # the switch refuses the clear: pending, done by the next pass
    marks["fail"] = 1
    assert a.set_down(frozenset()) is True                  # the mask is written all the same
    assert a.links_up == frozenset({1}) and marks["reg"] == 0b10 and "injected" in a.last_error
    a.reconcile(ctl.routes)
    assert marks["calls"][-1] == {1} and marks["reg"] == 0 and a.links_up == frozenset()
    assert a.role.active(sw.state())[1] == frozenset()


def test_an_update_builds_the_routes_once_and_derives_the_other_generation(tmp_path):
    """The survey needs both generations' entries of the new routes: one is built, the
    other derived from it (Role.routes_as), equal to building it."""
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    new_routes = routes_b(ctl)
    built = []
    routes = a.role.routes
    a.role.routes = lambda r, g: built.append(g) or routes(r, g)
    b1 = a.routes_batch(new_routes, 1)
    b0 = a.routes_batch(new_routes, 0)
    assert built == [1]
    assert b0 == routes(new_routes, 0) and b1 == routes(new_routes, 1) and b0 != b1


def test_selector_ids_are_stable_so_a_diff_touches_only_changed_groups(tmp_path):
    """A selector group's id is its ssrr_path key (dst, start slice, first
    bucket) and its members follow it, so a group whose paths did not change keeps its id
    and members in the next route version: the diff between the versions names only
    groups, members and entries whose content changed (sequential ids would renumber every
    group after the first that changed size)."""
    from controller.agent.diff import diff as state_diff
    from controller.tables.state import GENERATION_ID_BIT

    ctl, _ = network(tmp_path, routing='source_routed = [2, 3, 5, 6]\n[routing.per_hop]\nalgo = "uro"\nk = 3\n'
                                       'max_hops = 4\n[routing.source]\nalgo = "ucmp"\nh_max = 4\nengine = "numpy"')
    ctl.start(ctl.prep)
    a = ctl.agents["tor0"]
    old, new = a.routes_batch(ctl.routes, 1), a.routes_batch(routes_b(ctl), 1)
    S = ctl.routes.schedule.n_slices
    for b in (old, new):
        assert b.groups and len({g.group_id for g in b.groups}) == len(b.groups)
        assert len({m.member_id for m in b.members}) == len(b.members)
        for e in b.entries:
            if e.group_id is not None:
                k = dict(e.match)
                assert e.group_id == (1 << GENERATION_ID_BIT) | ((k["dst_tor"] * S + k["start_slice"]) * 256
                                                                 + k["bucket"][0] + 1)
    paths = {}
    for b, name in ((old, "old"), (new, "new")):
        members = {m.member_id: m for m in b.members}
        for g in b.groups:
            paths[(name, g.group_id)] = tuple(members[i] for i in g.member_ids)
    d = state_diff(old, new)
    touched = {g.group_id for g in d.insert.groups + d.modify.groups + d.delete.groups}
    same = [gid for (n, gid) in paths if n == "old" and paths.get(("new", gid)) == paths[("old", gid)]]
    assert same and not touched & set(same), "a group whose paths are unchanged is not rewritten"


def test_config_patched_is_the_split_of_the_state_after_a_config_write(tmp_path):
    """gens.config_patched: for a write of the config entry alone (a down mask, a flip) the
    split before it, patched, equals splitting the state after it; any other write is
    refused (None: split again)."""
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    table = a.role.config_table()
    st = sw.state()
    parts = gens.split(st, table)
    cfg = parts.config
    other = dataclasses.replace(cfg, params=tuple((k, v + 1 if k == cfg.params[0][0] else v) for k, v in cfg.params))
    after = Batch(st.members, st.groups, [other if e is cfg else e for e in st.entries])
    got = gens.config_patched(parts, Diff(modify=Batch(entries=[other])), table)
    assert got == gens.split(after, table) and got.config == other
    assert gens.config_patched(parts, Diff(), table) is parts
    entry = next(e for e in st.entries if not e.is_default)
    for d in (Diff(modify=Batch(entries=[other, entry])), Diff(delete=Batch(entries=[entry])),
              Diff(insert=Batch(members=st.members[:1])), Diff(modify=Batch(groups=st.groups[:1]))):
        assert gens.config_patched(parts, d, table) is None


def same_parts(a: gens.Parts, b: gens.Parts) -> bool:
    """The same split, in whatever order (a known state keeping a generation as its routes'
    version builds it again: its objects come in the order they are built)."""
    return a.config == b.config and same_state(a.static, b.static) and \
        same_state(Batch(entries=a.other_defaults), Batch(entries=b.other_defaults)) and \
        a.gens.keys() == b.gens.keys() and all(same_state(a.gens[g], b.gens[g]) for g in a.gens)


def _splits_and_writes(tmp_path):
    """A started network whose ToR 0 just retired (as an update ends), and ``events``: every
    split ("split"), route write ("write") and flip (("flip", generation)) of it, and for
    every split an update starts from whether it equals splitting the switch's state
    then. ``restore()`` puts the split function back."""
    ctl, sw = started(tmp_path)
    a = ctl.agents["tor0"]
    table = a.role.config_table()
    a.phase(a.retire_generation, a.active, ctl.routes)
    events = []
    split, write, flip, read_known = gens.split, a._write, a._flip, a._read_known

    def counted(state, t):
        events.append("split")
        return split(state, t)

    def written(d):
        events.append("write")
        return write(d)

    def flipped(g, live=None):
        events.append(("flip", g))
        return flip(g, live)

    def checked():
        actual, parts = read_known()
        events.append(same_parts(parts, split(sw.state(), table)) and same_state(actual, sw.state()))
        return actual, parts
    gens.split, a._write, a._flip, a._read_known = counted, written, flipped, checked

    def restore():
        gens.split = split
    return ctl, sw, a, events, restore


def test_a_failures_update_splits_only_what_it_read_back(tmp_path):
    """The known state's split is made while the network is quiet (after the retire) and
    carried across config writes (the failure's down mask, the flips): on the way to the
    new generation an update that verifies by a whole read splits only that read (then the
    retire's result, once done); every split an update starts from equals splitting the
    switch's state then."""
    ctl, sw, a, events, restore = _splits_and_writes(tmp_path)
    a.backend.reads_by_key = False            # the verify reads the whole switch
    a.incremental = False                     # the whole path's quiet split (an incremental one needs none)
    try:
        a.set_down(frozenset({1}))                           # the failure's mask: one config write
        ctl.routes = routes_b(ctl)
        ctl.install_all()
    finally:
        restore()
    starts = [e for e in events if isinstance(e, bool)]
    assert starts and all(starts), "a split the update started from is not the switch's state"
    # the new generation's write, its verify's split; the retire's write, the quiet split
    # (the mask and the flips are config writes of their own: no split after them)
    assert [e for e in events if e in ("write", "split")] == ["write", "split", "write", "split"]
    assert a.role.active(sw.state())[0] == a.active


def test_a_failures_update_splits_nothing_on_the_way_to_the_flip(tmp_path):
    """A failure's update starts from the known state's split made while the network was
    quiet (carried across its down mask): from detection to the flip that makes every
    source stamp the new generation it writes once (the prepare) and splits nothing (its
    verify reads back by key only what it wrote); the retire splits after, and the split
    an update starts from is the switch's state. The whole path (``incremental = false``):
    the incremental one builds and splits nothing (tests/test_daemon_incremental.py)."""
    ctl, sw, a, events, restore = _splits_and_writes(tmp_path)
    ctl.cfg = dataclasses.replace(ctl.cfg, daemon=dataclasses.replace(ctl.cfg.daemon, incremental=False))
    old = a.active
    try:
        c = ctl.submit(Change("fail", "uplink", (0, 1), detected=ctl.clock()))
        ctl.handle_jobs()
    finally:
        restore()
    assert "error" not in c.report, c.report
    starts = [e for e in events if isinstance(e, bool)]
    assert starts and all(starts), "a split the update started from is not the switch's state"
    seq = [e for e in events if not isinstance(e, bool)]
    stamp = seq.index(("flip", 1 - old))             # every source stamps the new generation
    assert seq[:stamp] == ["write", ("flip", old)], seq
    assert "split" in seq[stamp:] and a.role.active(sw.state())[0] == 1 - old


def test_a_static_default_entry_is_written_verified_and_kept_across_swaps(tmp_path):
    """A static entry may be a default entry of a table other than the config table (the
    slice clock's ``clock_config``): split keeps defaults apart, yet the install verifies
    it as a static and writes it (a modify of the default); a swap keeps it."""
    class WithClockTable(FakeSwitch):
        def load(self, pipeline):
            super().load(pipeline)
            e = TableEntry("UroIngress.clock_config", (), "NoAction", (), is_default=True)
            self.entries[entry_key(e)] = e

    ctl, sw = network(tmp_path, sw=WithClockTable("tor0"))
    role = ctl.prep.roles["tor0"]
    clock = TableEntry("UroIngress.clock_config", (), "UroIngress.set_clock", (("mode", 1), ("slice_ns", 50_000_000)),
                       is_default=True)
    base = role.static
    role.static = lambda: Batch(base().members, base().groups, base().entries + [clock])
    ctl.start(ctl.prep)
    a = ctl.agents["tor0"]
    assert a.active == 0 and a.last_error is None
    assert sw.entries[entry_key(clock)] == clock
    ctl.routes = routes_b(ctl)
    assert a.install(ctl.routes) == "swapped"
    assert sw.entries[entry_key(clock)] == clock and a.active == 1
