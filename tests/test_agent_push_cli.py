"""`uro agent push --config net.toml` on in-memory switches (tests/daemon_fakes.py):
the daemon's config and checks, exactly the state the daemon writes (so a daemon that
takes over writes nothing), hitless onto a switch that runs the daemon's generations,
retries, read-back verify, and bad input as one line with nothing written."""

from __future__ import annotations

import pytest

from controller.agent import generations as gens
from controller.agent.backend import BackendError
from controller.agent.desired import entry_generation
from controller.agent.diff import same_state
from controller.cli.main import main
from controller.daemon import plan
from controller.daemon.config import load
from controller.schedule.degrade import Failed

from daemon_fakes import FakeSwitch, generation_watcher, make_backend_for, net_toml, ocs_switch, tor_switch

ROUTES_B = ('source_routed = [1, 6]\n[routing.per_hop]\nalgo = "uro"\nk = 2\nmax_hops = 4\n'
            '[routing.source]\nalgo = "ucmp"\nh_max = 3\nengine = "numpy"')


@pytest.fixture
def net(tmp_path, monkeypatch):
    """(write(routing=..., switches=...) -> net.toml, {address: FakeSwitch}); `uro agent
    push` reaches the fake switches through the backend registry."""
    sws = {"127.0.0.1:50000": FakeSwitch("tor0"), "127.0.0.1:50001": FakeSwitch("tor1"),
           "127.0.0.1:50100": FakeSwitch("ocs")}
    monkeypatch.setattr("controller.agent.backend.backend_for", make_backend_for(sws))

    def write(routing=None, switches=None, name="net.toml", **kw):
        p = net_toml(tmp_path, switches or [tor_switch(0), tor_switch(1), ocs_switch()], routing=routing, **kw)
        return p.rename(tmp_path / name)
    return write, sws


def desired(cfg_path, name, generation, routing_failed=Failed()):
    """What the daemon's roles say switch ``name`` holds with ``generation`` active."""
    cfg = load(cfg_path)
    prep = plan.Prepared(cfg, routing_failed, make_backend_for({}), names=[name])
    role = prep.roles[name]
    return gens.final_state(role.static(), role.routes(prep.routes, generation), role.config(generation)), role


def put(sw, state):
    """Set a fake switch's state (no pipeline change, not hitless: test setup)."""
    from controller.agent.diff import diff

    sw.apply(diff(sw.state(), state))


def push(path, *extra):
    return main(["agent", "push", "--config", str(path), *extra])


def test_push_writes_what_the_daemon_would_and_a_second_push_writes_nothing(net, capsys):
    write, sws = net
    p = write()
    assert push(p) == 0
    out, err = capsys.readouterr()
    for name, sw in zip(("tor0", "tor1", "ocs"), sws.values()):
        want, role = desired(p, name, 0)
        assert same_state(sw.state(), want), name
        assert role.active(sw.state()) == (0, frozenset())
        assert f"{name}: pipeline loaded (cookie 0x" in out
    assert out.count("generation 0 installed (the switch was unconfigured; config entry written last)") == 3
    # the summary names every table with its count, and the whole push's rate
    want, _ = desired(p, "tor0", 0)
    from controller.agent.push import per_table

    counts = per_table(want, load(p).programs["tor"].contract)
    assert counts["uro_next_hop"] > 0 and counts["ssrr_selector members"] > 0 and counts["config"] == 1
    line = f"  {sum(counts.values())} objects: " + ", ".join(f"{k} {v}" for k, v in counts.items())
    assert line in out.splitlines()
    assert "push + read-back verify:" in out and "objects/s; read back: identical" in out
    assert "tor0: plaintext gRPC to 127.0.0.1:50000 (insecure = true)" in err
    n = {a: sw.updates for a, sw in sws.items()}
    assert push(p) == 0
    out = capsys.readouterr().out
    assert out.count("pipeline kept") == 3 and out.count("already active with these routes") == 3
    assert out.count("wrote 0 updates") == 3 and {a: sw.updates for a, sw in sws.items()} == n


def test_only_the_source_routed_destinations_get_paths(net):
    """The push writes SSRR paths for [routing] source_routed only (tor_batch no longer
    writes every destination's)."""
    write, sws = net
    p = write(switches=[tor_switch(0)])
    assert push(p) == 0
    st = sws["127.0.0.1:50000"].state()
    paths = {dict(e.match)["dst_tor"] for e in st.entries if e.table == "UroIngress.ssrr_path"}
    assert paths == {5}
    assert len(st.members) == len({m for g in st.groups for m in g.member_ids}) > 0


def test_a_daemon_taking_over_a_pushed_switch_writes_nothing(net):
    pytest.importorskip("prometheus_client", reason="needs the daemon extra")
    from controller.daemon.controller import Controller
    from controller.daemon.log import EventLog

    write, sws = net
    p = write()
    assert push(p) == 0
    before = {a: (sw.updates, sw.pipelines_set) for a, sw in sws.items()}
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=EventLog("json", open("/dev/null", "w")))
    try:
        ctl.start()
        assert {a.name: a.active for a in ctl.agents.values()} == {"tor0": 0, "tor1": 0, "ocs": 0}
        assert ctl.install_all() == {"tor0": "current", "tor1": "current", "ocs": "current"}
    finally:
        ctl.shutdown()
    assert {a: (sw.updates, sw.pipelines_set) for a, sw in sws.items()} == before


def _invariant(sw, role, allowed):
    """After every single update: unconfigured, or the active generation holds exactly
    one of the ``allowed`` route sets (never a mix), and no live generation is touched
    (:func:`daemon_fakes.generation_watcher`); returns the names seen."""
    sw.watch, seen = generation_watcher(role, allowed)
    return seen


def test_push_onto_a_switch_running_another_generation_is_hitless(net, capsys):
    """The switch runs routes B in generation 1 (as after a daemon's swap): the push
    writes routes A into generation 0 beside it, reads it back, flips with one write and
    deletes generation 1; after every single update the active generation is B or A."""
    write, sws = net
    sw = sws["127.0.0.1:50000"]
    pa = write(switches=[tor_switch(0)], name="a.toml")
    pb = write(routing=ROUTES_B, switches=[tor_switch(0)], name="b.toml")
    wa0, role = desired(pa, "tor0", 0)
    wb1, _ = desired(pb, "tor0", 1)
    prep_b = plan.Prepared(load(pb), Failed(), make_backend_for({}))
    sw.load(prep_b.pipeline(load(pb).switch("tor0")))
    put(sw, wb1)                                      # as a daemon leaves it after a swap
    assert role.active(sw.state())[0] == 1
    routes_a = plan.Prepared(load(pa), Failed(), make_backend_for({})).routes
    routes_b = prep_b.routes
    seen = _invariant(sw, role, {"B": (1, role.routes(routes_b, 1)), "A": (0, role.routes(routes_a, 0))})
    assert push(pa) == 0
    out = capsys.readouterr().out
    assert "generation 0 written beside active generation 1, read back, activated by one write" in out
    assert same_state(sw.state(), wa0)
    flips = [i for i in range(1, len(seen)) if seen[i] != seen[i - 1]]
    assert len(flips) == 1 and seen[flips[0] - 1] == "B" and seen[flips[0]] == "A" and seen[-1] == "A"
    assert not any(entry_generation(e) == 1 for e in sw.state().entries)


def test_push_onto_a_daemon_switch_with_the_same_routes_only_clears_what_the_config_does_not_say(net, capsys):
    """Same routes active in generation 1 with a down mask the daemon wrote: the push
    keeps generation 1 and writes one update, the config entry without the mask (a push
    knows no failures)."""
    write, sws = net
    sw = sws["127.0.0.1:50000"]
    p = write(switches=[tor_switch(0)])
    w1, role = desired(p, "tor0", 1)
    prep = plan.Prepared(load(p), Failed(), make_backend_for({}))
    routes = prep.routes
    sw.load(prep.pipeline(load(p).switch("tor0")))
    put(sw, gens.final_state(role.static(), role.routes(routes, 1), role.config(1, frozenset({1}))))
    assert role.active(sw.state()) == (1, frozenset({1}))
    capsys.readouterr()
    n = sw.updates
    assert push(p) == 0
    out = capsys.readouterr().out
    assert "generation 1 already active with these routes" in out and "wrote 1 updates (0 inserted, 1 modified" in out
    assert sw.updates == n + 1 and same_state(sw.state(), w1)


def test_a_write_failing_half_way_is_retried_and_never_leaves_a_mixed_generation(net, capsys, monkeypatch):
    write, sws = net
    sw = sws["127.0.0.1:50000"]
    pb = write(routing=ROUTES_B, switches=[tor_switch(0)], name="b.toml")
    assert push(pb) == 0
    pa = write(switches=[tor_switch(0)], name="a.toml")
    wa, role = desired(pa, "tor0", 1)
    routes_a = plan.Prepared(load(pa), Failed(), make_backend_for({})).routes
    routes_b = plan.Prepared(load(pb), Failed(), make_backend_for({})).routes
    seen = _invariant(sw, role, {"B": (0, role.routes(routes_b, 0)), "A": (1, role.routes(routes_a, 1))})
    real, count = sw._one, []

    def once(kind, how, x):                           # the 41st update of the swap is refused, once
        count.append(1)
        if len(count) == 41:
            raise BackendError(f"{sw.name}: refused {how} of a {kind[:-1]}")
        real(kind, how, x)
    monkeypatch.setattr(sw, "_one", once)
    capsys.readouterr()
    assert push(pa) == 0
    out = capsys.readouterr().out
    assert "after 1 retry" in out and same_state(sw.state(), wa)
    assert [k for i, k in enumerate(seen) if i == 0 or seen[i - 1] != k] == ["B", "A"]


def test_a_switch_that_does_not_read_back_what_was_written_fails_the_push(net, capsys):
    """Checked twice: the new generation and statics before the flip (a switch that loses
    a write is never configured with it), everything after the old generation is deleted."""
    write, sws = net
    sw = sws["127.0.0.1:50000"]
    sw.lose = lambda kind, how, x: kind == "entries" and x.table == "UroIngress.ssrr_bucket" \
        and dict(x.match)["dscp"] == 7                 # acknowledged, not applied
    pa = write(switches=[tor_switch(0)], name="a.toml")
    assert push(pa) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and err[0].startswith("tor0: plaintext gRPC")
    assert err[1] == ("uro: error: switch 'tor0': static entries did not read back as written: "
                      "1 missing (UroIngress.ssrr_bucket [dscp=7])"), err[1]
    _, role = desired(pa, "tor0", 0)
    assert role.active(sw.state())[0] is None          # never activated
    sw.lose = None
    assert push(pa) == 0
    sw.lose = lambda kind, how, x: how == "delete" and kind == "entries" and x.table == "UroIngress.uro_next_hop"
    pb = write(routing=ROUTES_B, switches=[tor_switch(0)], name="b.toml")
    capsys.readouterr()
    assert push(pb) == 2                               # B in generation 1, flipped; A's entries stay
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("uro: error: tor0: read-back differs from the desired state: 28 unexpected "
                          "(UroIngress.uro_next_hop [generation=0 arrival_slice=0 dst_tor=1]; "), err
    assert role.active(sw.state())[0] == 1


def test_a_swap_reads_the_new_generation_back_before_any_flip(net, capsys):
    """Write, read back, then activate: the switch runs B in generation 1 and acknowledges
    one route entry of the new generation 0 without holding it. The push fails naming that
    entry before any write of the config entry: B stays active and alone live, and the
    incomplete generation 0 is never declared live (nor stamped)."""
    write, sws = net
    sw = sws["127.0.0.1:50000"]
    pa = write(switches=[tor_switch(0)], name="a.toml")
    pb = write(routing=ROUTES_B, switches=[tor_switch(0)], name="b.toml")
    wb1, role = desired(pb, "tor0", 1)
    prep_b = plan.Prepared(load(pb), Failed(), make_backend_for({}))
    sw.load(prep_b.pipeline(load(pb).switch("tor0")))
    put(sw, wb1)
    lost = next(e for e in role.routes(plan.Prepared(load(pa), Failed(), make_backend_for({})).routes, 0).entries
                if e.table == "UroIngress.uro_next_hop")
    sw.lose = lambda kind, how, x: kind == "entries" and x == lost
    configs = []
    sw.watch = lambda s, kind, how, x: configs.append(x) if kind == "entries" and x.is_default else None
    capsys.readouterr()
    assert push(pa) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("uro: error: switch 'tor0': generation 0 did not read back as written: 1 missing "
                          "(UroIngress.uro_next_hop [generation=0 "), err
    assert configs == [], "the config entry was written before the new generation read back"
    assert role.active(sw.state())[0] == 1 and role.live(sw.state()) == frozenset({1})
    assert same_state(gens.split(sw.state(), role.config_table()).gens[1], role.routes(prep_b.routes, 1))


def test_only_the_named_switch_and_force_pipeline(net, capsys):
    write, sws = net
    p = write()
    assert push(p, "--switch", "tor1") == 0
    out = capsys.readouterr().out
    assert "tor1: pipeline loaded" in out and "tor0" not in out and "ocs" not in out
    assert sws["127.0.0.1:50001"].updates > 0
    assert sws["127.0.0.1:50000"].updates == sws["127.0.0.1:50100"].updates == 0
    assert sws["127.0.0.1:50000"].primary is None      # not even contacted
    assert push(p, "--switch", "tor1", "--force-pipeline") == 0
    out = capsys.readouterr().out
    assert "tor1: pipeline loaded" in out and "generation 0 installed" in out
    assert sws["127.0.0.1:50001"].pipelines_set == 2


def test_routes_from_compact_artifacts_give_the_same_state(net, tmp_path):
    from controller.routing import base
    from controller.schedule import round_robin
    from controller.tables import artifacts

    write, sws = net
    sched = round_robin(8, 2)
    hps = sched.timing.hops_per_slice
    artifacts.write(base.compute("uro", sched, base.get("uro").params({"k": 3, "max_hops": 4, "hops_per_slice": hps})),
                    tmp_path / "uro.uro")
    artifacts.write(base.compute("ucmp", sched, base.get("ucmp").params({"h_max": 4, "engine": "numpy",
                                                                        "hops_per_slice": hps})),
                    tmp_path / "ucmp.uro")
    p = write(routing='source_routed = [5]\n[routing.per_hop]\nartifact = "uro.uro"\n'
                      '[routing.source]\nartifact = "ucmp.uro"', switches=[tor_switch(0)])
    assert isinstance(plan.Prepared(load(p), Failed(), make_backend_for({})).routes.per_hop, artifacts.RouteArtifact)
    assert push(p) == 0
    from_artifacts = sws["127.0.0.1:50000"].state()
    want, _ = desired(write(switches=[tor_switch(0)], name="inproc.toml"), "tor0", 0)   # the same routes, computed
    assert same_state(from_artifacts, want)


# ---- bad input: one line, exit 2, nothing written -----------------------------------------------
BAD = [
    (lambda s: s[0].update(role="spine"), {}, "switch 'tor0': role: unknown role 'spine'"),
    (lambda s: s[1].update(tor=0), {}, "switch 'tor1': tor: ToR id 0 is also switch 'tor0'"),
    (lambda s: s[1].update(tor=8), {}, "switch 'tor1': tor: ToR id 8 is not in the schedule (0..7)"),
    (lambda s: s[0]["ports"].update(uplinks=[2]), {}, "switch 'tor0': ports.uplinks: uplink 1 is missing"),
    (lambda s: s[0].update(address="localhost"), {}, "switch 'tor0': address: expected host:port"),
    (lambda s: None, {"routing": "[routing.per_hop]\nk = 5"}, "alternatives (K) = 3, but [routing.per_hop] k = 5"),
    (lambda s: None, {"routing": "[routing.per_hop]\nk = 3\nh_max = 2"}, "[routing.per_hop]: h_max: not a parameter of uro"),
    (lambda s: None, {"routing": 'source_routed = [3, 9]\n[routing.per_hop]\nk = 3\n[routing.source]\nalgo = "ucmp"'},
     "[routing]: source_routed: ToR 9 is not in the schedule"),
    (lambda s: None, {"schedule": 'generate = "round-robin"\ntors = 10\nuplinks = 2'},
     "[program.tor] (tor_tiny.contract.json, profile 'tiny'): tors = 8, the schedule has 10"),
]


@pytest.mark.parametrize("mutate,over,msg", BAD, ids=[b[2][:40] for b in BAD])
def test_bad_config_is_one_line_exit_2_and_nothing_is_written(net, capsys, mutate, over, msg):
    write, sws = net
    switches = [tor_switch(0), tor_switch(1), ocs_switch()]
    mutate(switches)
    p = write(switches=switches, **over)
    assert push(p) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"uro: error: {p}") and msg in err, err
    assert all(sw.updates == 0 and sw.pipelines_set == 0 and sw.primary is None for sw in sws.values())


def test_unreachable_or_refused_switch_stops_the_push_before_any_write(net, capsys):
    write, sws = net
    p = write()
    sws["127.0.0.1:50100"].reachable = False
    assert push(p) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith(f"uro: error: {p}: switch 'ocs': address: 127.0.0.1:50100 does not answer"), err
    sws["127.0.0.1:50100"].reachable = True
    sws["127.0.0.1:50001"].primary, sws["127.0.0.1:50001"].primary_session = 99, object()   # a daemon, say
    assert push(p) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "switch 'tor1': election_id: 10 is refused by the switch: " in err and "election id 99" in err
    assert all(sw.updates == 0 and sw.pipelines_set == 0 for sw in sws.values())
    assert sws["127.0.0.1:50000"].primary is None                 # sessions opened for the check are closed


def test_unknown_switch_name_missing_file_and_the_old_format(net, tmp_path, capsys):
    write, sws = net
    p = write()
    assert push(p, "--switch", "tor9") == 2
    assert f"uro: error: --switch 'tor9': no such switch in {p} (switches: tor0, tor1, ocs)" in capsys.readouterr().err
    assert push(tmp_path / "none.toml") == 2
    assert "none.toml: not found" in capsys.readouterr().err
    old = tmp_path / "push.toml"                          # the agent's former format is refused by name
    old.write_text('[network]\nprofile = "tiny"\n[[switch]]\nname = "tor0"\n')
    assert push(old) == 2
    assert "unknown top-level key 'network'" in capsys.readouterr().err
    assert all(sw.updates == 0 for sw in sws.values())


def test_a_backend_failure_during_the_push_is_one_line(net, capsys, monkeypatch):
    """A switch that refuses a write twice (the push retries once): one line naming it."""
    write, sws = net
    p = write(switches=[tor_switch(0)])
    sw = sws["127.0.0.1:50000"]
    real = sw._one

    def refuse(kind, how, x):
        if kind == "entries" and x.table == "UroIngress.host_dst":
            raise BackendError(f"{sw.name}: insert of {x.table} refused")
        real(kind, how, x)
    monkeypatch.setattr(sw, "_one", refuse)
    assert push(p) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == "uro: error: tor0: insert of UroIngress.host_dst refused", err
    assert sw.watch is None and gens.split(sw.state(), "UroIngress.config").config is not None
    assert sw.state().entries and not any(e.table == "UroIngress.config" and e.action != "NoAction"
                                          for e in sw.state().entries)     # never configured
