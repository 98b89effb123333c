"""The controller on a fake network (2 ToRs + the OCS emulator): failures in two phases,
folding of concurrent events, recovery, the slice clock and its jitter, reload (good,
bad, unreachable), status JSON, metrics, the HTTP API and `uro ctl`. Time is injected."""

import json
import re
import threading

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from dataclasses import replace

from controller.agent.desired import GENERATION_KEY
from controller.agent.diff import Diff, diff as state_diff, entry_key, same_state
from controller.cli.main import main as uro
from controller.agent import generations as gens
from controller.daemon.api import StatusServer
from controller.daemon.config import load
from controller.daemon.controller import Change, Controller
from controller.daemon.log import EventLog
from controller.schedule.degrade import dead_circuits
from controller.tables.state import Batch

from daemon_fakes import FakeSwitch, make_backend_for, net_toml, ocs_switch, tor_switch


class Clock:
    def __init__(self):
        self.t = 5000.0

    def __call__(self):
        return self.t

    def sleep(self, seconds):          # the controller's waits move this clock, not real time
        self.t += seconds


def quiet():
    log = EventLog("json", stream=open("/dev/null", "w"))
    log.lines = []
    return log


@pytest.fixture
def net(tmp_path):
    sws = {"127.0.0.1:50000": FakeSwitch("tor0"), "127.0.0.1:50001": FakeSwitch("tor1"),
           "127.0.0.1:50100": FakeSwitch("ocs")}
    p = net_toml(tmp_path, [tor_switch(0), tor_switch(1), ocs_switch()])
    clock = Clock()
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=quiet(), clock=clock)
    ctl.start()
    yield ctl, sws, clock
    ctl.shutdown()


def config_of(ctl, name):
    a = ctl.agents[name]
    return a.role.active(a.backend.sw.state())


def active_routes(ctl, name):
    a = ctl.agents[name]
    st = a.backend.sw.state()
    g, _ = a.role.active(st)
    return g, gens.split(st, a.role.config_table()).gens[g]


def desired_state(a, routes, active, config):
    """What a ToR running ``routes`` in ``active`` holds exactly: statics, the routes, their
    shadow in the other generation (never live), the config entry."""
    return gens.final_state(a.role.static(), a.routes_batch(routes, active), config,
                            a.routes_batch(routes, 1 - active))


def test_an_update_after_a_swap_writes_only_what_differs(net):
    """The retired generation is rewritten as the shadow of the routes
    (never live; a fresh switch gets it after its first install), so an uplink failure's
    new generation is written as a diff from it: the prepare writes exactly the objects
    that differ between the two route versions, far fewer than a whole generation, but for
    the members and groups it deletes, which no entry reaches once the rest is written (the
    retire deletes them: ``generations.unreachable_deletes``), and the switch ends exactly
    as desired (the new routes live and stamped, their shadow in the other generation,
    nothing else)."""
    ctl, sws, clock = net
    a = ctl.agents["tor0"]
    r0 = ctl.routes
    st = a.backend.sw.state()
    g0 = a.role.active(st)[0]
    assert same_state(st, desired_state(a, r0, g0, gens.split(st, a.role.config_table()).config))
    for k, target in enumerate(((0, 1), (1, 0))):
        before, g = ctl.routes, a.active
        ctl.submit(Change("fail", "uplink", target, detected=clock.t))
        ctl.handle_jobs()
        after = ctl.routes
        assert after.version == before.version + 1 and a.active == 1 - g
        old, new = a.routes_batch(before, 1 - g), a.routes_batch(after, 1 - g)
        d = state_diff(old, new)
        want = len(d)
        assert 0 < want <= gens.objects(old) + gens.objects(new)    # never more than emptying + writing whole
        if k == 1:      # the second failure (of tor1's uplink) changes some routes of tor0, not most
            assert want < gens.objects(new) // 2
        now, later = gens.unreachable_deletes(d)
        assert a.last_swap["written"] == len(now) == want - len(later), \
            f"failure {k}: wrote {a.last_swap['written']}, {want} differ, {len(later)} after the flip"
        st = a.backend.sw.state()
        assert a.role.live(st) == frozenset({1 - g}) and a.role.active(st)[0] == 1 - g
        assert same_state(st, desired_state(a, after, 1 - g, gens.split(st, a.role.config_table()).config))


def test_a_failure_asks_no_cookie_of_a_switch_primary_throughout(net):
    """The survey asks a switch's pipeline cookie only where its session lost primacy (or
    went down) since the cookie was last asked: a switch that restarts ends the session and
    only the primary sets pipelines. A backend that cannot tell (no session epoch) is asked
    every time."""
    ctl, sws, clock = net
    cookies = []
    for a in ctl.agents.values():
        cookie = a.backend.pipeline_cookie
        a.backend.pipeline_cookie = lambda cookie=cookie: cookies.append(1) or cookie()
    ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
    ctl.handle_jobs()
    assert ctl.agents["tor0"].active == 1 and cookies == []
    type(ctl.agents["tor0"].backend).epochs = False
    ctl.submit(Change("recover", "uplink", (0, 1), detected=clock.t))
    ctl.handle_jobs()
    assert ctl.agents["tor0"].active == 0 and len(cookies) >= 2       # each ToR's survey


def test_a_switch_reprogrammed_while_its_session_lost_primacy_is_restored_by_the_next_survey(net):
    """Primacy lost and won back within one session (another controller was primary in
    between and wiped the switch with a pipeline of its own): the token moved, so the next
    failure's survey asks the cookie, loads the pipeline and installs the switch whole."""
    ctl, sws, clock = net
    a = ctl.agents["tor1"]
    sw = a.backend.sw
    with sw.lock:                               # the other controller's pipeline, then ours again
        sw.cookie, sw.members, sw.groups, sw.entries = 12345, {}, {}, {}
        a.backend.session = sw.primary_session = object()
    loads = a.stats["pipeline_loads"]
    ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
    ctl.handle_jobs()
    assert a.stats["pipeline_loads"] == loads + 1 and sw.cookie == a.pipeline.cookie
    g, part = active_routes(ctl, "tor1")
    assert a.installed == a.role.version(ctl.routes) and same_state(part, a.routes_batch(ctl.routes, g))


def test_diff_writes_off_deletes_the_retired_generation(tmp_path):
    """``[daemon] diff_writes = false`` (the bench's baseline): no shadow, the retired generation is deleted, a failure's new generation
    is written whole."""
    sws = {"127.0.0.1:50000": FakeSwitch("tor0"), "127.0.0.1:50100": FakeSwitch("ocs")}
    p = net_toml(tmp_path, [tor_switch(0), ocs_switch()],
                 daemon='status = "127.0.0.1:0"\nreconcile_s = 10\ndiff_writes = false')
    clock = Clock()
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=quiet(), clock=clock)
    ctl.start()
    try:
        a = ctl.agents["tor0"]
        assert not ctl.shadows and gens.split(a.backend.sw.state(), a.role.config_table()).entries(1) == 0
        ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
        ctl.handle_jobs()
        st = a.backend.sw.state()
        g = a.role.active(st)[0]
        assert g == 1 and a.last_swap["written"] == gens.objects(a.routes_batch(ctl.routes, 1))
        assert gens.split(st, a.role.config_table()).entries(0) == 0
    finally:
        ctl.shutdown()


def test_a_diff_the_target_refuses_is_written_whole(net):
    """A target that refuses an in-place change (bmv2: a group's max_size) in the non-live
    generation: that generation is emptied and written whole, the update completes."""
    ctl, sws, clock = net
    a = ctl.agents["tor0"]
    sws["127.0.0.1:50000"].refuse = lambda kind, how, x: kind == "groups" and how == "modify"
    for target in ((0, 1), (1, 0)):
        c = ctl.submit(Change("fail", "uplink", target, detected=clock.t))
        ctl.handle_jobs()
        assert c.report["generation_s"] is not None and "error" not in c.report
    assert any(e["event"] == "generation.diff_refused" for e in ctl.log.lines)
    st = a.backend.sw.state()
    g = a.role.active(st)[0]
    parts = gens.split(st, a.role.config_table())
    assert same_state(parts.gens[g], a.routes_batch(ctl.routes, g))
    assert a.role.live(st) == frozenset({g})


def test_start_programs_every_switch(net):
    ctl, sws, _ = net
    for name in ("tor0", "tor1", "ocs"):
        assert config_of(ctl, name) == (0, frozenset())
        g, part = active_routes(ctl, name)
        assert same_state(part, ctl.agents[name].routes_batch(ctl.routes, 0))
    ev = [r["event"] for r in ctl.log.lines]
    assert ev.count("switch.transport") == 3 and "daemon.started" in ev
    tr = [r for r in ctl.log.lines if r["event"] == "switch.transport"][0]
    assert "insecure" in tr["transport"] and tr["level"] == "warning"


def test_uplink_failure_then_recovery(net):
    ctl, sws, clock = net
    original = ctl.routes
    ocs_updates = sws["127.0.0.1:50100"].updates
    tor1_cfg = sws["127.0.0.1:50001"].updates
    seen = []
    sws["127.0.0.1:50000"].watch = lambda s, kind, how, x: seen.append((kind, how, x.is_default if kind == "entries" else False))
    c = ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
    # phase 1 at detection, before the control thread runs the job: one write on tor0
    # (the first update it saw), before any route entry
    assert seen == [("entries", "modify", True)] and config_of(ctl, "tor0") == (0, frozenset({1}))
    clock.t += 0.002
    assert ctl.handle_jobs() == 1
    rep = c.report
    assert seen[0] == ("entries", "modify", True)
    # ... and on tor1, which meets tor0's failed cable in some slices: those (slice, uplink)
    # pairs masked, the same single config write
    peer = [(s, 1) for s in range(ctl.routes.schedule.n_slices) if ctl.routes.schedule.peer[s, 1, 1] == 0]
    assert peer and ctl.agents["tor1"].dead == frozenset(peer)
    # written at detection, not after the 2 ms the job waited in the queue
    assert rep["dataplane_ms"] == pytest.approx(0.0) and "2 switch" in rep["dataplane"]
    assert set(rep["dataplane_switch_ms"]) == {"tor0", "tor1"}
    assert rep["generation_s"] is not None and rep["routes_version"] == 2
    assert config_of(ctl, "tor0") == (1, frozenset({1}))
    assert config_of(ctl, "tor1") == (1, frozenset())          # its uplinks are fine; its routes changed
    assert sws["127.0.0.1:50100"].updates == ocs_updates, "failures do not touch the OCS circuits"
    assert sws["127.0.0.1:50001"].updates > tor1_cfg
    # the new routes never use a circuit of the failed cable, at either end
    dead = dead_circuits(ctl.routes.schedule, ctl.routes.failed)
    S = ctl.routes.schedule.n_slices
    for name, tor in (("tor0", 0), ("tor1", 1)):
        _, part = active_routes(ctl, name)
        for e in part.entries:
            if e.table.endswith("uro_next_hop"):
                p = dict(e.params)
                for k in range(p["n"]):
                    assert not dead[p[f"slice{k}"] % S, tor, p[f"up{k}"]], (name, e)
    st = ctl.status()
    assert st["failures"]["active"]["uplinks"] == [[0, 1]] and st["failures"]["events"][-1]["kind"] == "uplink"
    # recovery: masks cleared, the original routes back (in the other generation)
    c2 = ctl.submit(Change("recover", "uplink", (0, 1), detected=clock.t))
    ctl.handle_jobs()
    assert c2.report["routes_version"] == 3
    assert config_of(ctl, "tor0") == (0, frozenset())
    for name in ("tor0", "tor1"):
        g, part = active_routes(ctl, name)
        assert same_state(part, ctl.agents[name].role.routes(original, g))
    text = ctl.metrics.render().decode()
    assert 'uro_failures_total{kind="uplink",source="api"} 1.0' in text
    assert 'uro_recoveries_total{kind="uplink",source="api"} 1.0' in text
    assert "uro_failure_dataplane_seconds_count 2.0" in text


def test_ocs_failure_masks_every_tor_and_tor_failure_masks_its_slots_on_each_neighbour(net):
    ctl, sws, clock = net
    c = ctl.submit(Change("fail", "ocs", 0, detected=clock.t))
    ctl.handle_jobs()
    assert config_of(ctl, "tor0")[1] == frozenset({0}) and config_of(ctl, "tor1")[1] == frozenset({0})
    assert "2 switch" in c.report["dataplane"]
    c = ctl.submit(Change("fail", "tor", 3, detected=clock.t))
    ctl.handle_jobs()
    # a dead ToR in one write per neighbour: the (slice, uplink) pairs whose circuit leads to it
    assert c.report["dataplane_ms"] is not None and "2 switch" in c.report["dataplane"], c.report
    sched = ctl.routes.schedule
    for name, tor in (("tor0", 0), ("tor1", 1)):
        want = {(s, u) for s in range(sched.n_slices) for u in range(2) if sched.peer[s, tor, u] == 3}
        assert want and ctl.agents[name].dead == want
        cfg = [e for e in ctl.agents[name].backend.sw.state().entries if e.is_default and "config" in e.table][0]
        assert dict(cfg.params)["dead"] == sum(1 << (s * 2 + u) for s, u in want)
    assert c.report["generation_s"] is not None
    # nothing routes to ToR 3 any more, from either ToR
    for name in ("tor0", "tor1"):
        _, part = active_routes(ctl, name)
        assert not [e for e in part.entries if e.table.endswith("uro_next_hop") and dict(e.match)["dst_tor"] == 3]


def _config_params(ctl, name) -> dict:
    st = ctl.agents[name].backend.sw.state()
    return dict(next(e for e in st.entries if e.is_default and e.table == ctl.agents[name].role.config_table()).params)


def test_a_dead_tor_is_masked_at_detection_not_behind_a_read_in_progress(net):
    """Detection writes the mask itself (the control thread has not run the job), and a
    read-back holding a switch's I/O lock (reconcile, a swap's verify, counters) does not
    delay it: P4Runtime-like backends take the write beside the read."""
    ctl, sws, clock = net
    c = Change("fail", "tor", 3, detected=clock.t)
    with ctl.agents["tor1"].io_lock:     # a read-back in progress on tor1
        t = threading.Thread(target=ctl.submit, args=(c,))
        t.start()
        t.join(10)
        assert not t.is_alive(), "the mask waited for the read in progress"
    sched = ctl.routes.schedule
    for name, tor in (("tor0", 0), ("tor1", 1)):
        want = {(s, u) for s in range(sched.n_slices) for u in range(2) if sched.peer[s, tor, u] == 3}
        assert want and _config_params(ctl, name)["dead"] == sum(1 << (s * 2 + u) for s, u in want)
    assert set(c.masked) == {"tor0", "tor1"} and ctl.jobs.qsize() == 1     # routes: still the control thread's
    ev = [r for r in ctl.log.lines if r["event"] == "mask.written"]
    assert sorted(r["switch"] for r in ev) == ["tor0", "tor1"] and all("lock_wait_ms" in r for r in ev)
    ctl.handle_jobs()
    assert c.report["dataplane_switch_ms"].keys() == {"tor0", "tor1"} and c.report["generation_s"] is not None


def test_a_mask_written_in_the_middle_of_an_update_changes_no_generation(net):
    """A ToR fails while a network-wide update is in its hold (both generations live,
    every source stamping the new one): the mask is written at once on every neighbour,
    and only the mask changes in their config entries -- same active generation, same
    live set -- so no switch is left between generations; the update then ends with the
    new generation alone live, the mask kept."""
    ctl, sws, clock = net
    paused, go = threading.Event(), threading.Event()

    def sleep(seconds):                  # the update's hold
        paused.set()
        assert go.wait(30)
        clock.t += seconds
    clock.sleep = sleep
    ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
    worker = threading.Thread(target=ctl.handle_jobs)
    worker.start()
    try:
        assert paused.wait(60), "the update did not reach its hold"
        before = {n: _config_params(ctl, n) for n in ("tor0", "tor1")}
        c = Change("fail", "tor", 3, detected=clock.t)
        t = threading.Thread(target=ctl.submit, args=(c,))
        t.start()
        t.join(10)
        assert not t.is_alive(), "the mask waited for the update"
        for n in ("tor0", "tor1"):
            after = _config_params(ctl, n)
            assert {k for k in after if after[k] != before[n][k]} == {"dead"}, (n, before[n], after)
    finally:
        go.set()
        worker.join(60)
    ctl.handle_jobs()
    for n in ("tor0", "tor1"):
        a = ctl.agents[n]
        assert a.live == frozenset({a.active}) and _config_params(ctl, n)["dead"] != 0
    assert c.report["generation_s"] is not None


def _junk_behind_the_back(sw, a, routes, clash=True, stray=True):
    """Into generation 0 of ``sw`` (the shadow, not live), where a recovery writes ``routes``
    again: one entry clashing with them and/or one they do not have. Returns the stray."""
    want = a.role.routes(routes, 0)
    keys = {entry_key(e) for e in want.entries}
    hop = next(e for e in want.entries if e.table.endswith("uro_next_hop"))
    if clash:       # an entry the update inserts (not on the switch as the daemon knows it)
        held = {entry_key(e) for e in sw.state().entries}
        new = next(e for e in want.entries if entry_key(e) not in held and not e.is_default)
        groups = sorted({e.group_id for e in sw.state().entries if e.group_id is not None} - {new.group_id})
        sw.set_entry(replace(new, group_id=groups[0]) if new.group_id is not None else new)
    junk = replace(hop, match=tuple((k, 0 if k == "dst_tor" else v) for k, v in hop.match))
    assert entry_key(junk) not in keys
    if stray:
        sw.set_entry(junk)                                                     # not in the routes at all
    return junk


def _counting_reads(a, events=None):
    """Count ``a``'s whole reads and keep what its reads by key asked for (and, in
    ``events``, the diffs written and "asked" where a read by key happened)."""
    reads, asked = [], []
    read, by_key, apply = a.backend.read_state, a.backend.read_objects, a.backend.apply
    a.backend.read_state = lambda: reads.append(1) or read()

    def keyed(b):
        asked.append(b)
        if events is not None:
            events.append("asked")
        return by_key(b)
    a.backend.read_objects = keyed
    if events is not None:
        a.backend.apply = lambda d, progress=None: events.append(d) or apply(d, progress)
    return reads, asked


def _exact(ctl, sw, a):
    st = sw.state()
    parts = gens.split(st, a.role.config_table())
    act = a.role.active(st)[0]
    assert a.role.live(st) == frozenset({act})
    assert same_state(parts.gens[act], a.routes_batch(ctl.routes, act))
    assert same_state(parts.gens[1 - act], a.routes_batch(ctl.routes, 1 - act))   # the shadow (not live)
    return act


def test_a_failures_update_verifies_by_key_what_it_wrote_and_the_switch_is_read_whole_after_it(net):
    """A failure's update starts from what the daemon knows of the switch (its last read
    plus its writes since) and reads nothing whole on the way: its prepare's verify reads
    back by key exactly what it wrote (and the config entry), and its retire the members
    and groups the prepare left it to delete (``generations.unreachable_deletes``: its
    first write, only deletes of those). The whole switch is read
    once per update, after it: the next maintenance pass reconciles it, long before
    ``reconcile_s``, and finds nothing to repair."""
    ctl, sws, clock = net
    sw, a = sws["127.0.0.1:50000"], ctl.agents["tor0"]
    ctl.maintain(now=clock.t)                     # the periodic reconcile: not due for reconcile_s now
    events = []
    reads, asked = _counting_reads(a, events)
    c = ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
    ctl.handle_jobs()
    assert c.report["generation_s"] is not None and a.active == 1
    assert not reads, "the update read the switch whole"
    assert len(asked) == 2
    cfg = (a.role.config_table(), "default")

    def of_routes(d) -> bool:       # a write of route objects (the mask and the flips: config writes of their own)
        return any(b.members or b.groups or any(entry_key(e) != cfg for e in b.entries)
                   for b in (d.insert, d.modify, d.delete))
    first = events.index("asked")
    later = [d for d in events[first + 1:events.index("asked", first + 1)] if of_routes(d)]   # before the second read
    assert later and not any(d.insert.members or d.insert.groups or d.insert.entries or d.modify.members
                             or d.modify.groups or d.delete.entries for d in later)
    assert asked[1].members == [m for d in later for m in d.delete.members] != []
    assert asked[1].groups == [g for d in later for g in d.delete.groups] != []
    assert [entry_key(e) for e in asked[1].entries] == [cfg]
    # the prepare's writes: the route diffs before the read by key
    prepared = [d for d in events[:first] if of_routes(d)]
    wrote = {entry_key(e) for d in prepared for b in (d.insert, d.modify, d.delete) for e in b.entries}
    assert cfg not in wrote and len(wrote) > 10
    assert {entry_key(e) for e in asked[0].entries} == wrote | {cfg}
    assert len(asked[0].members) == sum(len(b.members) for d in prepared for b in (d.insert, d.modify, d.delete))
    assert a.reconcile_due
    runs = a.stats["reconcile_runs"]
    ctl.maintain(now=clock.t + 0.2)               # the next pass, well within reconcile_s
    assert a.stats["reconcile_runs"] == runs + 1 and len(reads) == 1 and not a.reconcile_due
    assert a.stats["repairs"] == 0
    _exact(ctl, sw, a)


def test_what_changed_behind_the_daemons_back_is_repaired_by_the_update_or_right_after_it(net):
    """A switch changed behind the daemon's back (an out-of-band write into the inactive
    generation, where a recovery writes the original routes again): an entry clashing with
    what the update inserts is refused by the switch, and the slot is emptied and written
    whole instead (read back whole); a stray entry the update does not write is found by
    the reconcile right after the update and deleted. Either way no update fails and the
    switch ends exactly as computed."""
    ctl, sws, clock = net
    sw, a = sws["127.0.0.1:50000"], ctl.agents["tor0"]
    original = ctl.routes
    for clash, stray in ((True, False), (False, True)):
        ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
        ctl.handle_jobs()
        ctl.maintain(now=clock.t)
        refused, repairs = a.stats["diff_refused"], a.stats["repairs"]
        junk = _junk_behind_the_back(sw, a, original, clash=clash, stray=stray)
        c = ctl.submit(Change("recover", "uplink", (0, 1), detected=clock.t))
        ctl.handle_jobs()
        assert "error" not in c.report and a.stats["swap_failures"] == 0, c.report
        if clash:
            assert a.stats["diff_refused"] == refused + 1
        else:
            assert a.stats["diff_refused"] == refused
            assert entry_key(junk) in {entry_key(e) for e in sw.state().entries}   # live until ...
            ctl.maintain(now=clock.t)                                               # ... the pass after
            assert a.stats["repairs"] > repairs
            assert entry_key(junk) not in {entry_key(e) for e in sw.state().entries}
        assert _exact(ctl, sw, a) == 0


def test_a_verify_by_key_that_fails_forgets_what_the_daemon_knew(net):
    """A verify by key that finds the switch holding something else than what was written
    fails (SwapError, naming the object) and the daemon forgets what it knew of the switch:
    the next step starts from the switch's own state, not from the writes it believed."""
    ctl, sws, clock = net
    sw, a = sws["127.0.0.1:50000"], ctl.agents["tor0"]
    a.phase(a.survey, ctl.routes)                   # the known state, from the last read
    e = next(x for x in sw.state().entries if x.table.endswith("uro_next_hop"))
    held = replace(e, params=tuple((k, v + 1 if k == "n" else v) for k, v in e.params))
    sw.set_entry(held)                                 # acknowledged as `e`, holds `held`
    cfg = next(x for x in sw.state().entries if x.table == a.role.config_table() and x.is_default)
    with pytest.raises(gens.SwapError, match="did not read back as written.*uro_next_hop"):
        a.phase(a._verify_written, Diff(modify=Batch(entries=[e])), cfg, a.active)
    actual, _ = a.phase(a._read_known)
    assert held in actual.entries and e not in actual.entries


def test_a_backend_without_a_read_by_key_verifies_the_whole_switch_and_catches_a_stale_known_state(net):
    """Where the backend has no read by key (BfRt here), the verify after the writes reads
    the whole switch: a switch changed behind the daemon's back fails that update before
    any flip (the old generation stays active, alone live), and the retry reads the switch
    and ends with the new generation exactly as computed."""
    ctl, sws, clock = net
    sw, a = sws["127.0.0.1:50000"], ctl.agents["tor0"]
    original = ctl.routes
    ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
    ctl.handle_jobs()
    a.backend.reads_by_key = False
    reads, asked = _counting_reads(a)
    _junk_behind_the_back(sw, a, original, clash=False)
    c2 = ctl.submit(Change("recover", "uplink", (0, 1), detected=clock.t))
    ctl.handle_jobs()
    assert "not active on tor0" in c2.report.get("error", "")   # what it knew was stale: failed before any flip
    assert reads and not asked
    st = sw.state()
    assert a.role.active(st)[0] == 1 and a.role.live(st) == frozenset({1}) and a.stats["swap_failures"] == 1
    ctl.maintain(now=clock.t + 10)             # the maintenance pass asks for the update again ...
    ctl.handle_jobs()                          # ... which reads the switch
    assert _exact(ctl, sw, a) == 0


def test_a_write_the_switch_acknowledged_but_does_not_hold_fails_the_verify_before_any_flip(net):
    """The verify of what was written reads it back: a switch that acknowledges an entry
    and holds another one (here: every route entry of the new generation silently gets
    other parameters) fails the update before any flip -- the old generation stays
    active on every switch, and the wrong one is never declared live there; the retry
    starts from a read of the switch and ends exactly as computed."""
    ctl, sws, clock = net
    sw, a = sws["127.0.0.1:50000"], ctl.agents["tor0"]

    def corrupt(switch, kind, how, x):
        if kind == "entries" and how != "delete" and x.table.endswith("uro_next_hop") \
                and dict(x.match).get(GENERATION_KEY) == 1:
            p = dict(x.params)
            p["n"] = p["n"] + 1
            switch.entries[entry_key(x)] = replace(x, params=tuple(p.items()))
    sw.watch = corrupt
    c = ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
    ctl.handle_jobs()
    assert "not active on tor0" in c.report.get("error", ""), c.report
    assert "did not read back as written" in a.last_error
    for n in ("tor0", "tor1"):                   # every source still stamps the old generation
        assert a.role.active(sws[f"127.0.0.1:5000{n[-1]}"].state())[0] == 0
    assert a.role.live(sw.state()) == frozenset({0})    # never declared live where it is wrong
    # what the daemon knew is forgotten: the retry reads the switch, rewrites what differs
    # (the switch now holds what it is written) and ends exactly as computed
    sw.watch = None
    ctl.maintain(now=clock.t + 10)
    ctl.handle_jobs()
    assert _exact(ctl, sw, a) == 1


def test_a_failed_tor_that_does_not_answer_does_not_hold_up_the_new_generation(net):
    """A ToR declared failed because its switch stopped (uro emulate fail tor): the daemon
    may not have noticed the lost session yet; the new generation is active when every
    other switch has it (the failed one gets the routes once it is back)."""
    ctl, sws, clock = net
    sws["127.0.0.1:50001"].reachable = False
    c = ctl.submit(Change("fail", "tor", 1, detected=clock.t))
    ctl.handle_jobs()
    assert c.report["generation_s"] is not None and "error" not in c.report, c.report
    _, part = active_routes(ctl, "tor0")
    assert part.entries and not [e for e in part.entries
                                 if e.table.endswith("uro_next_hop") and dict(e.match)["dst_tor"] == 1]
    sws["127.0.0.1:50001"].reachable = True
    c = ctl.submit(Change("recover", "tor", 1, detected=clock.t))
    ctl.handle_jobs()
    assert c.report["generation_s"] is not None and "error" not in c.report, c.report
    a = ctl.agents["tor1"]
    assert a.installed == a.role.version(ctl.routes)


def test_a_switch_restored_while_routes_change_catches_up(net):
    """A failure arrives while a maintenance pass restores a restarted switch: the control
    thread's network-wide update waits for the restore (they never interleave: a restore
    beside an update could give the switch a generation the update retires), then takes
    the restored switch along (found on the emulated fabric: a restored ToR stayed stale)."""
    import threading

    ctl, sws, clock = net
    a = ctl.agents["tor1"]
    orig = a.reconcile
    control: dict = {}

    def racing(routes):
        a.reconcile = orig
        ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
        t = threading.Thread(target=ctl.handle_jobs, daemon=True)   # the control thread
        control["t"] = t
        t.start()
        t.join(1.0)
        control["waited"] = t.is_alive()      # blocked behind the restore
        return orig(routes)

    a.reconcile = racing
    sws["127.0.0.1:50001"].restart()
    ctl.maintain(now=clock.t + 100)
    control["t"].join(30)
    assert control["waited"] and not control["t"].is_alive()
    assert a.state == "up" and a.stats["restores"] == 1
    # the network-wide update of the failure took the reconnected switch along (or the
    # pass's older routes left it behind: then the next pass catches up); never a lone flip
    ctl.maintain(now=clock.t + 200)
    ctl.handle_jobs()
    assert a.installed == a.role.version(ctl.routes)
    g, part = active_routes(ctl, "tor1")
    assert same_state(part, a.routes_batch(ctl.routes, g))


def test_events_arriving_together_are_folded_into_one_recomputation(net):
    ctl, sws, clock = net
    v = ctl.routes.version
    a = ctl.submit(Change("fail", "uplink", (0, 0), detected=clock.t))
    b = ctl.submit(Change("fail", "uplink", (1, 1), detected=clock.t))
    ctl.handle_jobs()
    assert ctl.routes.version == v + 1
    assert a.report["routes_version"] == b.report["routes_version"] == v + 1
    assert config_of(ctl, "tor0")[1] == frozenset({0}) and config_of(ctl, "tor1")[1] == frozenset({1})


def test_a_held_failure_keeps_the_mask_alone_until_its_hold_then_installs_new_routes(net):
    """``hold_routes_s`` (POST /fail, a diagnosis knob): the mask is written at detection
    as always, the new routes wait until detection + hold (the controller's own clock),
    then come as usual; the report says how long they were held."""
    ctl, sws, clock = net
    v = ctl.routes.version
    seen = []
    sleep = clock.sleep

    def held(seconds):                   # what the switches run while the routes are held
        seen.append((seconds, ctl.routes.version, config_of(ctl, "tor0"), ctl.agents["tor0"].dead))
        sleep(seconds)
    clock.sleep = held
    t0 = clock.t
    c = ctl.submit(Change("fail", "tor", 1, detected=t0, hold_routes_s=1.5))
    clock.t += 0.25                      # the job waited in the queue: the hold counts from detection
    ctl.handle_jobs()
    # the waits before the new routes (the swap's own hold for the old generation comes after)
    holds = [x for x in seen if x[1] == v]
    assert len(holds) == 1 and holds[0][0] == pytest.approx(1.25), seen
    _, _, (active, _down), dead = holds[0]
    assert active == 0 and dead, "during the hold: the old routes, the mask written"
    assert c.report["hold_routes_s"] == 1.5 and c.report["generation_s"] >= 1.5
    assert c.report["dataplane_ms"] == pytest.approx(0.0) and ctl.routes.version == v + 1
    assert [r for r in ctl.log.lines if r["event"] == "routes.held"][0]["seconds"] == pytest.approx(1.25)
    # without the knob nothing waits
    seen.clear()
    c = ctl.submit(Change("recover", "tor", 1, detected=clock.t))
    ctl.handle_jobs()
    assert not [x for x in seen if x[1] == v + 1] and "hold_routes_s" not in c.report


@pytest.mark.parametrize("doc, op, needle", [
    ({"tor": 1, "hold_routes_s": -1}, "fail", "hold_routes_s: seconds from 0 to 60, got -1"),
    ({"tor": 1, "hold_routes_s": 61}, "fail", "hold_routes_s: seconds from 0 to 60, got 61"),
    ({"tor": 1, "hold_routes_s": "2"}, "fail", "hold_routes_s: seconds from 0 to 60, got '2'"),
    ({"tor": 1, "hold_routes_s": True}, "fail", "hold_routes_s: seconds from 0 to 60, got True"),
    ({"tor": 1, "hold_routes_s": 2}, "recover", "hold_routes_s: only a failure's new routes can be held"),
    ({"tor": 1, "hold_route_s": 2}, "fail", "unknown key 'hold_route_s'"),
    ({"circuit": [0, 1]}, "recover", "circuit: [slice, tor, uplink], got [0, 1]"),
    ({"circuit": [4, 1, 0]}, "recover", "slice 4 is not in the schedule (0..3)"),
    ({"circuit": [0, 2, 0]}, "recover", "ToR 2 is not in the network (0..1 or a ToR switch name)"),
    ({"circuit": [0, 1, 0]}, "recover", "circuit [0, 1, 0]: ToR 1's uplink 0 has no circuit in slice 0"),
    ({"circuit": [0, 0, 1], "tor": 1}, "recover", "give exactly one of"),
])
def test_a_bad_hold_is_refused_naming_it(doc, op, needle):
    import numpy as np

    from controller.daemon.changes import parse_change
    from controller.errors import UroError

    peer = np.full((4, 2, 2), -1)
    peer[:, 0, 1], peer[:, 1, 1] = 1, 0                  # ToR 0 and 1 meet on uplink 1 in every slice
    with pytest.raises(UroError, match="^" + needle.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        parse_change(op, doc, 2, 2, {}, peer)
    assert parse_change("recover", {"circuit": [2, 1, 1]}, 2, 2, {}, peer).target == (2, 0, 1)
    assert parse_change("recover", {"circuit": ["2", "0", "1"]}, 2, 2, {}, peer).target == (2, 0, 1)
    assert parse_change("fail", {"tor": 1, "hold_routes_s": 2}, 2, 2, {}).hold_routes_s == 2.0


def test_routing_failure_keeps_the_masks_and_says_so(net):
    ctl, sws, clock = net

    def broken(*a, **k):
        raise RuntimeError("no routes today")
    import controller.daemon.plan as plan
    orig = plan.compute_routes
    plan.compute_routes = broken
    try:
        c = ctl.submit(Change("fail", "ocs", 1, detected=clock.t))
        ctl.handle_jobs()
    finally:
        plan.compute_routes = orig
    assert config_of(ctl, "tor0") == (0, frozenset({1})), "the data-plane reaction stays"
    assert c.report["generation_s"] is None and "no routes today" in c.report["error"]


def test_slice_clock_sends_every_slice_to_every_switch_and_measures_jitter(net):
    ctl, sws, clock = net
    period = ctl.cfg.clock.slice_ms / 1e3
    S = ctl.routes.schedule.n_slices
    t0 = ctl.sclock.t0
    for k in range(10):
        clock.t = t0 + k * period + 0.0005          # half a ms late
        assert ctl.tick()
        assert not ctl.tick(), "one timer per slice"
    clock.t = t0 + 13.2 * period                    # the thread stalled: slices 10..12 missed
    assert ctl.tick()
    for sw in sws.values():
        assert sw.timers == [k % S for k in range(10)] + [13 % S]
        # the first timer sets the switch's clock, so does the one after the missed slices
        assert sw.syncs == [True] + [False] * 9 + [True]
    st = ctl.status()["clock"]
    assert st["timers_sent"] == 11 and st["slices_skipped"] == 3 and st["current_slice"] == 13 % S
    # slice k started at slice0_at + k * period: another process on the host can time packets by it
    assert st["slice0_at"] == t0 and st["slices_since_start"] == 13
    assert st["lateness_vs_ideal"]["p50_ms"] == pytest.approx(0.5)
    assert st["jitter_between_switches"]["max_ms"] == 0.0   # the fake clock does not move while sending
    assert "uro_slices_skipped_total 3.0" in ctl.metrics.render().decode()


def test_maintenance_reads_counters_into_metrics_and_status(net):
    ctl, sws, clock = net
    sws["127.0.0.1:50000"].counters["drops"]["no_route"] = 7
    ctl.maintain(now=clock.t + 1)
    text = ctl.metrics.render().decode()
    assert 'uro_switch_counter_packets{cell="no_route",counter="drops",switch="tor0"} 7.0' in text
    assert 'uro_switch_up{switch="ocs"} 1.0' in text and 'uro_switch_generation{switch="tor1"} 0.0' in text
    st = ctl.status()
    s0 = [s for s in st["switches"] if s["name"] == "tor0"][0]
    assert s0["counters"]["drops"]["no_route"] == 7 and s0["state"] == "up" and s0["generation"] == 0
    json.dumps(st)


def test_reload_good_bad_and_unreachable(net, tmp_path):
    ctl, sws, clock = net
    path = ctl.cfg.path
    # bad: refused, the running config stays
    good_text = path.read_text()
    path.write_text(good_text.replace('role = "ocs"', 'role = "spine"'))
    res = ctl.reload()
    assert not res["ok"] and "unknown role 'spine'" in res["error"]
    assert ctl.cfg.switch("ocs").role == "ocs" and ctl.status()["reloads"]["refused"] == 1
    # a new switch that does not answer: refused, nothing written anywhere
    n = {k: s.updates for k, s in sws.items()}
    sws["127.0.0.1:50002"] = FakeSwitch("tor2")
    sws["127.0.0.1:50002"].reachable = False
    extra = '\n[[switch]]\nname = "tor2"\nrole = "tor"\ntor = 2\naddress = "127.0.0.1:50002"\n' \
            '[switch.ports]\nhosts = [0]\nuplinks = [2, 3]\n'
    path.write_text(good_text + extra)
    res = ctl.reload()
    assert not res["ok"] and "switch 'tor2': address: 127.0.0.1:50002 does not answer" in res["error"]
    assert {k: s.updates for k, s in sws.items() if k in n} == n and "tor2" not in ctl.agents
    # good: the new switch joins, routing changes are swapped in hitlessly everywhere
    sws["127.0.0.1:50002"].reachable = True
    path.write_text(good_text.replace("k = 3", "k = 2") + extra)
    res = ctl.reload()
    assert res["ok"], res
    # the new switch joins in the generation the network's sources stamp
    assert config_of(ctl, "tor2") == (1, frozenset()) and config_of(ctl, "tor0") == (1, frozenset())
    assert config_of(ctl, "ocs") == (0, frozenset()), "same schedule: the OCS keeps its generation"
    _, part = active_routes(ctl, "tor0")
    ns = {dict(e.params)["n"] for e in part.entries if e.table.endswith("uro_next_hop")}
    assert max(ns) == 2


def test_api_and_ctl(net, capsys):
    ctl, sws, clock = net
    tf = ctl.cfg.path.with_name("net.token")
    tf.write_text("t" * 32 + "\n")
    tf.chmod(0o600)
    srv = StatusServer(ctl, "127.0.0.1", 0, token="t" * 32).start()
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            ctl.handle_jobs(block=0.05)
    t = threading.Thread(target=loop, daemon=True)
    t.start()
    addr = "%s:%d" % srv.address
    try:
        assert uro(["ctl", "status", "--api", addr]) == 0
        out = capsys.readouterr().out
        assert "tor0" in out and "ocs" in out and "routes v1" in out
        assert uro(["ctl", "fail", "uplink", "tor1", "0", "--api", addr, "--token-file", str(tf)]) == 0
        rep = json.loads(capsys.readouterr().out)
        assert rep["kind"] == "uplink" and rep["target"] == [1, 0] and rep["dataplane_ms"] is not None
        assert config_of(ctl, "tor1")[1] == frozenset({0})
        assert uro(["ctl", "status", "--json", "--api", addr]) == 0
        st = json.loads(capsys.readouterr().out)
        assert st["failures"]["active"]["uplinks"] == [[1, 0]]
        assert uro(["ctl", "fail", "uplink", "9", "0", "--api", addr, "--token-file", str(tf)]) == 2
        err = capsys.readouterr().err
        assert "ToR 9 is not in the network" in err and err.count("\n") == 1
        assert uro(["ctl", "fail", "ocs", "--api", addr, "--token-file", str(tf)]) == 2
        assert uro(["ctl", "recover", "uplink", "1", "0", "--api", addr, "--token-file", str(tf)]) == 0
        capsys.readouterr()
        assert uro(["ctl", "metrics", "--api", addr]) == 0
        assert "uro_entries_written_total" in capsys.readouterr().out
        ctl.cfg.path.write_text(ctl.cfg.path.read_text().replace('role = "ocs"', 'role = "x"'))
        assert uro(["ctl", "reload", "--api", addr, "--token-file", str(tf)]) == 2
        assert "unknown role 'x'" in capsys.readouterr().err
    finally:
        stop.set()
        t.join(2)
        srv.stop()


def test_ctl_without_a_daemon_is_one_line(tmp_path, capsys):
    p = net_toml(tmp_path, [tor_switch(0)], daemon='status = "127.0.0.1:1"')
    assert uro(["ctl", "status", "--config", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("uro: error: no daemon answers at 127.0.0.1:1") and err.count("\n") == 1


def test_log_lines_are_one_json_event_each(tmp_path):
    import io

    buf = io.StringIO()
    log = EventLog("json", buf)
    log.event("x.y", switch="a b", n=3)
    log2 = EventLog("kv", buf)
    log2.event("x.z", switch="a b", n=3)
    lines = buf.getvalue().splitlines()
    assert len(lines) == 2
    rec = json.loads(lines[0])
    assert rec["event"] == "x.y" and rec["switch"] == "a b" and rec["n"] == 3 and rec["level"] == "info"
    assert ' event=x.z switch="a b" n=3' in lines[1]


def test_daemon_with_a_taken_status_port_stops_before_touching_a_switch(tmp_path):
    import socket

    from controller.daemon.config import ConfigError
    from controller.daemon.run import Daemon

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        sws = {"127.0.0.1:50000": FakeSwitch("tor0")}
        p = net_toml(tmp_path, [tor_switch(0)], daemon=f'status = "127.0.0.1:{port}"')
        d = Daemon(p, backend_for=make_backend_for(sws), log=quiet())
        with pytest.raises(ConfigError, match=f"status: cannot listen on 127.0.0.1:{port}"):
            d.start()
        assert sws["127.0.0.1:50000"].updates == 0 and sws["127.0.0.1:50000"].primary is None


def test_daemon_runs_its_threads_and_stops(tmp_path):
    """The process around the controller, in-process on the fake network: API up, the
    clock thread sends timers, a SIGHUP-style reload job runs, shutdown closes sessions."""
    import time
    import urllib.request

    from controller.daemon.run import Daemon

    sws = {"127.0.0.1:50000": FakeSwitch("tor0"), "127.0.0.1:50100": FakeSwitch("ocs")}
    p = net_toml(tmp_path, [tor_switch(0), ocs_switch()], clock="slice_ms = 5")
    d = Daemon(p, backend_for=make_backend_for(sws), log=quiet()).start()
    try:
        host, port = d.server.address
        end = time.time() + 10
        while len(sws["127.0.0.1:50100"].timers) < 5 and time.time() < end:
            time.sleep(0.01)
        assert len(sws["127.0.0.1:50100"].timers) >= 5 and sws["127.0.0.1:50100"].syncs[0] is True
        st = json.loads(urllib.request.urlopen(f"http://{host}:{port}/status").read())
        assert st["clock"]["timers_sent"] >= 5
        d._reload()
        end = time.time() + 10
        while d.ctl.reloads.ok == 0 and time.time() < end:
            time.sleep(0.01)
        assert d.ctl.reloads.ok == 1
    finally:
        d.shutdown()
    assert all(s.primary is None for s in sws.values()), "sessions closed at shutdown"
    assert [e["event"] for e in d.log.lines][-1] == "daemon.stopped"


def test_tls_settings_reach_the_backend(tmp_path):
    from controller.daemon.plan import switch_address as _address

    for f in ("ca.pem", "c.pem", "k.pem"):
        (tmp_path / f).write_text("x")
    p = net_toml(tmp_path, [tor_switch(0, tls={"insecure": False, "ca": "ca.pem", "cert": "c.pem", "key": "k.pem"}),
                            tor_switch(1)])
    cfg = load(p)
    a0, a1 = _address(cfg.switch("tor0"), 3.0), _address(cfg.switch("tor1"), 3.0)
    assert (a0.insecure, a0.ca_cert, a0.client_cert, a0.client_key) == \
        (False, tmp_path / "ca.pem", tmp_path / "c.pem", tmp_path / "k.pem")
    assert a1.insecure is True and a1.ca_cert is None and a0.timeout_s == 3.0 and a0.election_id == 10


def test_the_clock_and_status_keep_going_while_routes_are_computed(net):
    """Recomputing routes after a failure takes seconds at scale; timers and the status
    API must not wait for it."""
    ctl, sws, clock = net
    import controller.daemon.plan as plan

    started, release = threading.Event(), threading.Event()
    orig = plan.compute_routes

    def slow(*a, **k):
        started.set()
        release.wait(10)
        return orig(*a, **k)
    plan.compute_routes = slow
    try:
        ctl.submit(Change("fail", "ocs", 1, detected=clock.t))
        th = threading.Thread(target=ctl.handle_jobs)
        th.start()
        assert started.wait(10)
        clock.t = ctl.sclock.next_time() + 0.001
        done = threading.Event()
        threading.Thread(target=lambda: (ctl.tick(), ctl.status(), done.set())).start()
        assert done.wait(5), "tick/status blocked behind the route computation"
        release.set()
        th.join(10)
    finally:
        plan.compute_routes = orig
        release.set()


def test_routes_from_compact_artifacts_streamed_per_tor(tmp_path):
    """[routing.*] artifact = ...: the daemon opens the artifacts (manifest only) and reads
    one ToR's tables when it builds that ToR's entries; the switches end up with exactly
    what in-process routes give; after a failure the artifact's algorithm and parameters
    are recomputed on the degraded schedule; an artifact of another schedule is refused."""
    from controller.daemon.config import ConfigError
    from controller.daemon.controller import Prepared
    from controller.daemon.plan import compute_routes
    from controller.routing import base
    from controller.schedule import opera, round_robin
    from controller.schedule.degrade import Failed
    from controller.tables import artifacts

    sched = round_robin(8, 2)
    uro = base.compute("uro", sched, base.get("uro").params({"k": 3, "max_hops": 4,
                                                             "hops_per_slice": sched.timing.hops_per_slice}))
    ucmp = base.compute("ucmp", sched, base.get("ucmp").params({"h_max": 4, "engine": "numpy",
                                                                "hops_per_slice": sched.timing.hops_per_slice}))
    artifacts.write(uro, tmp_path / "uro.uro")
    artifacts.write(ucmp, tmp_path / "ucmp.uro")
    routing = 'source_routed = [5]\n[routing.per_hop]\nartifact = "uro.uro"\n[routing.source]\nartifact = "ucmp.uro"'
    sws = {"127.0.0.1:50000": FakeSwitch("tor0")}
    p = net_toml(tmp_path, [tor_switch(0)], routing=routing)
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=quiet(), clock=Clock())
    ctl.start()
    try:
        assert isinstance(ctl.routes.per_hop, artifacts.RouteArtifact)
        a = ctl.agents["tor0"]
        g, part = active_routes(ctl, "tor0")
        from controller.daemon.plan import Routes
        inproc = Routes(1, 1, sched, Failed(), sched, uro, ucmp, (5,))
        assert same_state(part, a.role.routes(inproc, g))
        c = ctl.submit(Change("fail", "uplink", (0, 1), detected=ctl.clock()))
        ctl.handle_jobs()
        assert c.report["generation_s"] is not None and ctl.routes.per_hop.algo == "uro"
        assert not isinstance(ctl.routes.per_hop, artifacts.RouteArtifact)
        assert ctl.routes.per_hop.params_dict()["k"] == 3 and ctl.routes.source.params_dict()["h_max"] == 4
        ref = compute_routes(ctl.cfg, sched, Failed(uplinks=frozenset({(0, 1)})), 9)   # from the artifacts' params
        g, part = active_routes(ctl, "tor0")
        assert same_state(part, a.role.routes(ref, g))
    finally:
        ctl.shutdown()
    other = base.compute("uro", opera(8, 2, seed=3), base.get("uro").params({"k": 3}))
    artifacts.write(other, tmp_path / "other.uro")
    p = net_toml(tmp_path, [tor_switch(0)], routing='[routing.per_hop]\nartifact = "other.uro"')
    with pytest.raises(ConfigError, match=r"\[routing.per_hop\]: artifact: .*computed for schedule"):
        Prepared(load(p), Failed(), make_backend_for(sws))
    p = net_toml(tmp_path, [tor_switch(0)], routing='[routing.per_hop]\nartifact = "ucmp.uro"')
    with pytest.raises(ConfigError, match=r"holds source routes \(ucmp\); \[routing.per_hop\] needs per_hop"):
        Prepared(load(p), Failed(), make_backend_for(sws))


def test_daemon_clears_stale_link_marks_of_uplinks_up_at_start(tmp_path, monkeypatch):
    """A data-plane link mark (Tofino2: link_down_reg) of an uplink whose watched interface
    is up when the daemon starts -- it went down and came back while no daemon watched --
    is cleared; one whose interface is down (missing here) is not."""
    pytest.importorskip("pyroute2")
    from daemon_fakes import FakeBackend

    from controller.daemon.run import Daemon

    asked = []
    monkeypatch.setattr(FakeBackend, "clear_link_down",
                        lambda self, uplinks: asked.append(set(uplinks)) or frozenset(uplinks), raising=False)
    monkeypatch.setattr(FakeBackend, "marks_links", True, raising=False)
    sws = {"127.0.0.1:50000": FakeSwitch("tor0")}
    ports = {"hosts": [0, 1], "uplinks": [2, 3], "interfaces": ["no-such-if9", "lo"]}
    p = net_toml(tmp_path, [tor_switch(0, ports=ports)])
    d = Daemon(p, backend_for=make_backend_for(sws), log=quiet()).start()
    try:
        assert asked == [{1}], asked
        assert d.ctl.agents["tor0"].stats["links_cleared"] == 1
    finally:
        d.shutdown()
