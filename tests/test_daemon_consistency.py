"""Network-wide, per-packet consistent updates (docs/daemon.md "Network-wide consistency";
Reitblatt et al., SIGCOMM 2012) on a fake network of 3 ToRs + the OCS emulator.

After every single update any switch applies, the network invariant is checked: every
generation a ToR stamps into its hosts' packets is live (complete) on every other
configured ToR, and every live generation holds one whole route set (what its lookups
reach: the members and groups a prepare leaves to its retire are reached by none). So a packet is
routed by the generation its source stamped at every hop, never by a mix. The old
generation is retired only after the hold, and a daemon killed after any update leaves
the invariant true and a new daemon finishes the job."""

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from controller.agent import generations as gens
from controller.agent.diff import same_state
from controller.daemon.config import load
from controller.daemon.controller import QUEUE_MARGIN_S, Change, Controller
from controller.daemon.log import EventLog

from daemon_fakes import FakeSwitch, assert_not_live, make_backend_for, net_toml, ocs_switch, reachable, tor_switch

TORS = ("127.0.0.1:50000", "127.0.0.1:50001", "127.0.0.1:50002")


class Clock:
    def __init__(self):
        self.t = 100.0
        self.sleeps = []

    def __call__(self):
        return self.t

    def sleep(self, s):
        self.sleeps.append(s)
        self.t += s


class Killed(BaseException):
    """The daemon's SIGKILL: nothing after it runs (not a BackendError the daemon handles)."""


def quiet():
    return EventLog("json", stream=open("/dev/null", "w"))


def switches():
    sws = {a: FakeSwitch(f"tor{i}") for i, a in enumerate(TORS)}
    sws["127.0.0.1:50100"] = FakeSwitch("ocs")
    return sws


def controller(tmp_path, sws, clock):
    p = net_toml(tmp_path, [tor_switch(0), tor_switch(1), tor_switch(2), ocs_switch()])
    # one worker: the invariant check reads every switch from inside one switch's update
    return Controller(load(p), backend_for=make_backend_for(sws), log=quiet(), clock=clock, workers=1)


def route_sets(ctl, routes_list):
    """{tor name: [route batches per generation of every route set]} for the invariant."""
    out = {}
    for a in ctl.agents.values():
        if a.role.name == "tor":
            out[a.name] = [(g, a.role.routes(r, g)) for r in routes_list for g in (0, 1)]
    return out


def check_network(ctl, sws, allowed):
    """The invariant (module docstring) over the ToRs as they are now."""
    agents = {a.name: a for a in ctl.agents.values() if a.role.name == "tor"}
    states = {n: sws[a.cfg.address].state() for n, a in agents.items()}
    stamps, lives = {}, {}
    for n, st in states.items():
        a = agents[n]
        act, _ = a.role.active(st)
        if act is None:
            continue
        stamps[n], lives[n] = act, a.role.live(st)
        assert act in lives[n]
        parts = gens.split(st, a.role.config_table())
        for g in lives[n]:
            assert any(h == g and same_state(reachable(parts.gens[g]), b) for h, b in allowed[n]), \
                f"{n}: generation {g} is live but not a whole route set"
    for n, s in stamps.items():
        for m, live in lives.items():
            assert s in live, f"{n} stamps generation {s}, which {m} does not route (live {sorted(live)})"
    return stamps, lives


def untouched_live(ctl, sw, kind, how, x):
    """An update of a route object (not the config entry) never touches a generation the
    switch declares live (the diff into the non-live generation, the shadow's rewrite)."""
    if kind == "entries" and x.is_default:
        return
    a = next(a for a in ctl.agents.values() if a.backend.sw is sw)
    if a.role.name != "tor":
        return
    assert_not_live(a.name, a.role.live(sw.state()), kind, how, x)


def test_a_network_update_never_lets_a_stamp_meet_a_missing_generation(tmp_path):
    sws = switches()
    clock = Clock()
    ctl = controller(tmp_path, sws, clock)
    ctl.start()
    first = ctl.routes
    events = []

    def watch(sw, kind, how, x):
        st, _ = check_network(ctl, sws, allowed)
        untouched_live(ctl, sw, kind, how, x)
        events.append((clock.t, dict(st)))

    c = ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
    # the new routes are computed inside handle_jobs: allow every route set the daemon may make
    from controller.daemon.plan import compute_routes
    second = compute_routes(ctl.cfg, first.schedule, ctl.failed.__class__(uplinks=frozenset({(0, 1)})), 2,
                            first.schedule_version)
    allowed = route_sets(ctl, [first, second])
    for a in TORS:
        sws[a].watch = watch
    ctl.handle_jobs()
    assert c.report["generation_s"] is not None and "error" not in c.report
    # every ToR ends stamping generation 1 with only it live; generation 0 holds the same
    # routes as its shadow (never live: the next update writes a diff into it)
    for a in ctl.agents.values():
        if a.role.name == "tor":
            st = a.backend.sw.state()
            assert a.role.active(st)[0] == 1 and a.role.live(st) == frozenset({1})
            assert same_state(gens.split(st, a.role.config_table()).gens[0], a.routes_batch(ctl.routes, 0))
    # the sources flipped only once every ToR had generation 1 live, and generation 0 was
    # retired a hold later
    flips = [t for t, st in events if 1 in st.values()]
    assert flips and clock.sleeps == [pytest.approx(ctl.hold_s())]
    # a cycle on each of H + 1 ToRs, and the queues after the last lookup
    assert ctl.hold_s() == pytest.approx(0.05 * 4 * (4 + 1) + QUEUE_MARGIN_S)
    retired = [t for t, st in events if set(st.values()) == {1}]
    assert retired[-1] - flips[0] >= ctl.hold_s() - 1e-9     # (a fake clock: float sums)
    ctl.shutdown()


def test_a_daemon_killed_after_any_update_leaves_the_network_consistent(tmp_path):
    """SIGKILL after update i of a network-wide update (sampled over all of them): the
    invariant held at every update, and a new daemon (fresh sessions, no memory) brings
    every switch to its routes with one generation live."""
    probe = switches()
    ctl = controller(tmp_path / "probe", probe, Clock())
    ctl.start()
    before = sum(s.updates for s in probe.values())
    ctl.submit(Change("fail", "uplink", (0, 1)))
    ctl.handle_jobs()
    total = sum(s.updates for s in probe.values()) - before
    ctl.shutdown()
    assert total > 50
    points = sorted(set(list(range(1, total, max(1, total // 6))) + [total - 1]))
    for i in points:
        sws = switches()
        clock = Clock()
        ctl = controller(tmp_path / f"k{i}", sws, clock)
        ctl.start()
        first = ctl.routes
        from controller.daemon.plan import compute_routes
        second = compute_routes(ctl.cfg, first.schedule, ctl.failed.__class__(uplinks=frozenset({(0, 1)})), 2,
                                first.schedule_version)
        allowed = route_sets(ctl, [first, second])
        n = {"left": i}

        def watch(sw, kind, how, x, ctl=ctl, sws=sws, allowed=allowed, n=n):
            check_network(ctl, sws, allowed)
            untouched_live(ctl, sw, kind, how, x)
            n["left"] -= 1
            if n["left"] == 0:
                raise Killed()

        for s in sws.values():
            s.watch = watch
        with pytest.raises(Killed):      # the masks are written at detection (submit), then the job
            ctl.submit(Change("fail", "uplink", (0, 1)))
            ctl.handle_jobs()
        ctl._kpool.shutdown(wait=True)
        ctl._pool.shutdown(wait=True)
        # a new daemon (it knows nothing of the failure: its routes are the first ones)
        for s in sws.values():
            s.primary = s.primary_session = None
        new = controller(tmp_path / f"k{i}", sws, Clock())
        n["left"] = -1
        allowed.update(route_sets(new, [first, second]))
        new.start()
        check_network(new, sws, allowed)
        for a in new.agents.values():
            st = a.backend.sw.state()
            act, _ = a.role.active(st)
            assert a.role.live(st) == frozenset({act}), f"kill after update {i}: {a.name} live {a.role.live(st)}"
            part = gens.split(st, a.role.config_table()).gens[act]
            assert same_state(part, a.role.routes(new.routes, act)), f"kill after update {i}: {a.name}"
            if a.role.name == "tor":    # exact: the routes, their shadow (a partial diff is gone), statics
                cfg = gens.split(st, a.role.config_table()).config
                want = gens.final_state(a.role.static(), part, cfg, a.role.routes(new.routes, 1 - act))
                assert same_state(st, want), f"kill after update {i}: {a.name} is not exactly the routes + shadow"
        new.shutdown()


def test_a_switch_restored_during_a_network_update_stamps_the_network_generation(tmp_path):
    """ToR 2 comes back empty while a failure's update flips the others (the update listed
    the switches before ToR 2 was up, so it skips it): the maintenance pass that restores
    ToR 2 must not give it the generation the network stamped before the flip -- the
    others retire that one, and ToR 2's packets would meet no live generation anywhere
    (the chaos drill's "recover tor" that never settled). The restore waits for the
    update and takes the generation the network stamps after it."""
    import threading

    sws = switches()
    clock = Clock()
    ctl = controller(tmp_path, sws, clock)
    ctl.start()
    first = ctl.routes
    tor2 = next(a for a in ctl.agents.values() if a.name == "tor2")
    sws[tor2.cfg.address].restart()           # back empty, the daemon has not noticed yet
    tor2.state = "down"
    ctl._due[tor2.name].retry = 0.0
    restore: dict = {}

    def watch(sw, kind, how, x):              # inside the update of the new routes, at tor0's first write
        if ctl.routes.version == first.version or "thread" in restore:
            return
        t = threading.Thread(target=lambda: ctl._maintain_one(tor2, clock.t), daemon=True)
        restore["thread"] = t
        t.start()
        t.join(2.0)                           # a restore free to run finishes well within this

    sws[TORS[0]].watch = watch
    ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
    ctl.handle_jobs()
    restore["thread"].join(30)
    assert not restore["thread"].is_alive()
    from controller.daemon.plan import compute_routes
    second = compute_routes(ctl.cfg, first.schedule, ctl.failed.__class__(uplinks=frozenset({(0, 1)})), 2,
                            first.schedule_version)
    stamps, lives = check_network(ctl, sws, route_sets(ctl, [first, second]))
    assert set(stamps) == {"tor0", "tor1", "tor2"} and len(set(stamps.values())) == 1, (stamps, lives)
    ctl.shutdown()


def test_a_switch_whose_activation_fails_keeps_the_old_generation_live_everywhere(tmp_path):
    """Every ToR holds the new routes and two of three stamp them, but ToR 1's activation
    is refused: ToR 1 keeps stamping the old generation, so no ToR may retire it (its
    packets would meet a generation no other ToR routes: dropped as ``stale_gen`` until the
    retry). The retire waits for every source; the retry the maintenance pass asks for
    flips ToR 1 and then retires the old generation everywhere."""
    from controller.agent.desired import is_config
    from controller.tables.state import Batch

    sws = switches()
    clock = Clock()
    ctl = controller(tmp_path, sws, clock)
    ctl.start()
    first = ctl.routes
    tor1 = ctl.agents["tor1"]
    table = tor1.role.config_table()

    def refuse_activation(kind, how, x):       # the config entry that makes generation 1 active
        return kind == "entries" and is_config(x, table) and tor1.role.active(Batch(entries=[x]))[0] == 1

    from controller.daemon.plan import compute_routes
    second = compute_routes(ctl.cfg, first.schedule, ctl.failed.__class__(uplinks=frozenset({(0, 1)})), 2,
                            first.schedule_version)
    allowed = route_sets(ctl, [first, second])
    for a in TORS:
        sws[a].watch = lambda sw, kind, how, x: check_network(ctl, sws, allowed)
    sws[TORS[1]].refuse = refuse_activation
    ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
    ctl.handle_jobs()
    stamps, lives = check_network(ctl, sws, allowed)
    assert stamps == {"tor0": 1, "tor1": 0, "tor2": 1}, stamps
    assert all(live == frozenset({0, 1}) for live in lives.values()), lives
    assert tor1.retry_install
    sws[TORS[1]].refuse = None
    ctl.maintain(now=clock.t + 60)              # the maintenance pass asks for the update again
    ctl.handle_jobs()                           # ... which the control thread runs network-wide
    stamps, lives = check_network(ctl, sws, allowed)
    assert set(stamps.values()) == {1} and all(live == frozenset({1}) for live in lives.values()), (stamps, lives)
    for a in ctl.agents.values():
        if a.role.name == "tor":
            st = a.backend.sw.state()
            assert same_state(gens.split(st, a.role.config_table()).gens[1], a.routes_batch(ctl.routes, 1)), a.name
    ctl.shutdown()


def test_a_switch_that_fails_its_prepare_keeps_every_source_on_the_old_generation(tmp_path):
    """ToR 1 refuses the new routes' writes: no ToR may stamp the new generation (ToR 1
    would not route it), at any point of the update; the retry the maintenance pass asks
    for brings every ToR to the new routes."""
    sws = switches()
    clock = Clock()
    ctl = controller(tmp_path, sws, clock)
    ctl.start()
    first = ctl.routes
    from controller.daemon.plan import compute_routes
    second = compute_routes(ctl.cfg, first.schedule, ctl.failed.__class__(uplinks=frozenset({(0, 1)})), 2,
                            first.schedule_version)
    allowed = route_sets(ctl, [first, second])
    for a in TORS:
        sws[a].watch = lambda sw, kind, how, x: check_network(ctl, sws, allowed)
    sws[TORS[1]].refuse = lambda kind, how, x: not (kind == "entries" and x.is_default)   # routes, not the config
    ctl.log = ctl._update.log = EventLog("json", stream=open("/dev/null", "w"))
    ctl.log.lines = []
    ctl.submit(Change("fail", "uplink", (0, 1), detected=clock.t))
    ctl.handle_jobs()
    stamps, lives = check_network(ctl, sws, allowed)
    assert set(stamps.values()) == {0}, stamps
    said = [e for e in ctl.log.lines if e["event"] == "generation.not_prepared"]
    assert [(e["level"], e["generation"], e["switches"]) for e in said] == [("error", 1, ["tor1"])] and said[0]["note"]
    assert ctl.agents["tor1"].retry_install
    sws[TORS[1]].refuse = None
    ctl.maintain(now=clock.t + 60)
    ctl.handle_jobs()
    stamps, lives = check_network(ctl, sws, allowed)
    assert set(stamps.values()) == {1} and all(live == frozenset({1}) for live in lives.values()), (stamps, lives)
    ctl.shutdown()


def test_a_switch_found_empty_at_start_stamps_only_what_every_other_tor_routes(tmp_path):
    """A daemon starts on a network whose ToRs run other routes (its predecessor's, after a
    failure) while ToR 2 restarted empty: the configured ToRs get the daemon's routes live
    first, and only then ToR 2 its first generation, active at once -- so ToR 2's sources
    never stamp a generation another ToR does not route. (ToR 2, empty, routes neither of
    the others' stamps until then: their packets to it are dropped as ``stale_gen``.)"""
    sws = switches()
    ctl = controller(tmp_path, sws, Clock())
    ctl.start()
    first = ctl.routes
    ctl.submit(Change("fail", "uplink", (0, 1)))
    ctl.handle_jobs()
    second = ctl.routes
    ctl.shutdown()
    for s in sws.values():
        s.primary = s.primary_session = None
    sws[TORS[2]].restart()
    new = controller(tmp_path, sws, Clock())   # knows nothing of the failure: the first routes
    allowed = route_sets(ctl, [first, second])
    tors = {a.name: a for a in ctl.agents.values() if a.role.name == "tor"}   # their roles and addresses
    seen = []

    def watch(sw, kind, how, x):
        st = sws[TORS[2]].state()
        act, _ = tors["tor2"].role.active(st)
        if act is None:
            return
        for n in ("tor0", "tor1"):
            live = tors[n].role.live(sws[tors[n].cfg.address].state())
            assert act in live, f"tor2 stamps generation {act}, which {n} does not route (live {sorted(live)})"
        seen.append(act)

    for a in TORS:
        sws[a].watch = watch
    new.start()
    assert seen, "tor2 never got a generation"
    stamps, lives = check_network(new, sws, allowed)
    assert len(set(stamps.values())) == 1 and set(stamps) == {"tor0", "tor1", "tor2"}, stamps
    for a in new.agents.values():
        if a.role.name == "tor":
            st = a.backend.sw.state()
            act, _ = a.role.active(st)
            assert same_state(gens.split(st, a.role.config_table()).gens[act], a.routes_batch(first, act)), a.name
    new.shutdown()


def test_a_switch_back_with_a_generation_the_others_retired_rejoins_the_network_generation(tmp_path):
    """ToR 2 leaves the config (a reload) with its own uplink 0 failed, the others flip to the
    recovery's routes without it, and a reload brings it back: it still stamps the
    generation the others retired, holding routes that avoid its uplink 0 (not the
    network's), so no generation is live everywhere and its stamp cannot be rewritten in
    place. The update writes the network's routes into the network's stamp on ToR 2 and
    flips it there: every ToR ends stamping one generation, the only one live, holding the
    network's routes (before, the update stopped at ToR 2's activation and left it stamping
    a generation no other ToR routes)."""
    sws = switches()
    clock = Clock()
    full = net_toml(tmp_path, [tor_switch(0), tor_switch(1), tor_switch(2), ocs_switch()])
    ctl = Controller(load(full), backend_for=make_backend_for(sws), log=quiet(), clock=clock, workers=1)
    ctl.start()
    cut = ("uplink", (2, 0))
    ctl.submit(Change("fail", *cut, detected=clock.t))
    ctl.handle_jobs()                                    # every ToR on generation 1
    without = tmp_path / "without.toml"
    text = full.read_text()
    i = text.index('name = "tor2"')
    without.write_text(text[:text.rindex("[[switch]]", 0, i)] + text[text.index("[[switch]]", i):])
    assert ctl.reload(without)["ok"]
    role = ctl.agents["tor0"].role
    ctl.submit(Change("recover", *cut, detected=clock.t))
    ctl.handle_jobs()                                    # the others on the recovery's routes
    if role.active(sws[TORS[0]].state())[0] == role.active(sws[TORS[2]].state())[0]:
        assert ctl.reload(without)["ok"]                 # (each reload is a new generation)
    here, away = role.active(sws[TORS[0]].state())[0], role.active(sws[TORS[2]].state())[0]
    assert here != away and role.live(sws[TORS[0]].state()) == {here}
    left = sws[TORS[2]].state()
    ctl.log = ctl._update.log = EventLog("json", stream=open("/dev/null", "w"))
    ctl.log.lines = []
    rep = ctl.reload(full)
    assert rep["ok"] and None not in rep["results"].values(), rep
    said = {e["event"]: e for e in ctl.log.lines if e["event"].startswith("generation.")}
    assert {k: said["generation.interrupted"][k] for k in ("level", "generation", "stamps")} == \
        {"level": "warning", "generation": here, "stamps": sorted({here, away})}
    assert {k: said["generation.rejoining"][k] for k in ("level", "generation", "switches")} == \
        {"level": "warning", "generation": here, "switches": ["tor2"]}
    assert all(said[e]["note"] for e in ("generation.interrupted", "generation.rejoining"))
    tor2 = ctl.agents["tor2"]
    assert not same_state(gens.split(left, tor2.role.config_table()).gens[away], tor2.routes_batch(ctl.routes, away))
    stamps, lives = check_network(ctl, sws, route_sets(ctl, [ctl.routes]))
    assert set(stamps) == {"tor0", "tor1", "tor2"} and len(set(stamps.values())) == 1, (stamps, lives)
    assert all(live == {stamps["tor0"]} for live in lives.values()), lives
    ctl.shutdown()
