"""The network config: parsed and checked as a whole; every bad config is one error line
naming the switch and the field, and nothing is written to any switch."""

import json

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from controller.daemon.config import ConfigError, load
from controller.daemon.controller import Controller, Prepared
from controller.schedule.degrade import Failed

from daemon_fakes import FakeSwitch, make_backend_for, net_toml, ocs_switch, tor_switch


def good(tmp_path, **kw):
    return net_toml(tmp_path, [tor_switch(0), tor_switch(1), ocs_switch()], **kw)


def test_a_good_config_parses(tmp_path):
    cfg = load(good(tmp_path))
    assert [s.name for s in cfg.switches] == ["tor0", "tor1", "ocs"]
    t0 = cfg.switch("tor0")
    assert (t0.role, t0.tor, t0.target, t0.election_id, t0.program) == ("tor", 0, "bmv2", 10, "tor")
    assert t0.ports.uplinks == (2, 3) and t0.ports.interfaces == (None, None)
    assert t0.tls.insecure
    assert cfg.daemon.status_host == "127.0.0.1"
    assert cfg.routing.source_routed == (5,) and cfg.routing.per_hop.params == {"k": 3, "max_hops": 4}
    assert cfg.clock.slice_ms == 50
    prep = Prepared(cfg, Failed(), make_backend_for({}))
    assert prep.routes.per_hop.schedule.n_tors == 8 and prep.routes.source is not None


def test_shipped_examples_parse(tmp_path):
    """examples/net-*.toml are valid apart from their program files (built by `uro p4 build`).
    Each is read from a copy in an empty directory: the programs its relative paths name
    are not there, whatever a user built in the checkout."""
    import shutil
    from pathlib import Path

    ex = Path(__file__).resolve().parents[1] / "examples"
    files = sorted(ex.glob("net-*.toml"))
    assert files, "examples/ has no network config"
    for f in files:
        d = tmp_path / f.stem / "examples"
        d.mkdir(parents=True)
        with pytest.raises(ConfigError, match=r"not found \(build it with `uro p4 build`\)"):
            load(shutil.copy(f, d))


BAD = [
    # (switch list mutation, extra TOML / overrides, expected message fragment)
    (lambda s: s[0].update(role="spine"), {}, "switch 'tor0': role: unknown role 'spine'"),
    (lambda s: s[1].update(tor=0), {}, "switch 'tor1': tor: ToR id 0 is also switch 'tor0'"),
    (lambda s: s[1].update(name="tor0"), {}, "switch 'tor0': name: used twice"),
    (lambda s: s[0]["ports"].update(uplinks=[2]), {}, "switch 'tor0': ports.uplinks: uplink 1 is missing"),
    (lambda s: s[0]["ports"].update(uplinks=[3, 2]), {},
     "switch 'tor0': ports.uplinks[0]: port 3, but program tor_tiny has host ports 0..1 and uplink u on port 2 + u"),
    (lambda s: s[0]["ports"].update(hosts=[0, 5]), {}, "switch 'tor0': ports.hosts: port 5 is not a host port"),
    (lambda s: s[0]["ports"].update(hosts=[0, 2]), {}, "switch 'tor0': ports: port 2 is both a host port and an uplink"),
    (lambda s: s[0].pop("ports"), {}, "switch 'tor0': ports: missing"),
    (lambda s: s[0].pop("tor"), {}, "switch 'tor0': tor: missing"),
    (lambda s: s[2].update(tor=3), {}, "switch 'ocs': tor: only a role = \"tor\" switch has a ToR id"),
    (lambda s: s.pop(2), {"clock": 'slice_ms = 50\nmode = "sync"'},
     "[clock]: mode = \"sync\": no switch is the reference clock (a [[switch]] with role = \"ocs\""),
    (lambda s: s[0].update(address="localhost"), {}, "switch 'tor0': address: expected host:port"),
    (lambda s: s[0].update(address="127.0.0.1:70000"), {}, "switch 'tor0': address: expected host:port"),
    (lambda s: s[0].update(election_id=0), {}, "switch 'tor0': election_id: must be in 1.."),
    (lambda s: s[0].update(device_id=-1), {}, "switch 'tor0': device_id: must be in 0.."),
    (lambda s: s[0].update(colour="red"), {}, "switch 'tor0': colour: unknown key"),
    (lambda s: s[0].update(program="nope"), {}, "switch 'tor0': program: no [program.nope]"),
    (lambda s: s[0].update(program="ocs"), {}, "switch 'tor0': program: [program.ocs] is the 'ocs' program"),
    (lambda s: s[0].update(target="tofino2"), {}, "switch 'tor0': target: 'tofino2', but [program.tor] was built for 'bmv2'"),
    (lambda s: s[0]["ports"].update(interfaces=["a", "b", "c"]), {}, "ports.interfaces: 3 names for 2 uplinks"),
    (lambda s: s[1].update(address=s[0]["address"]), {}, "switch 'tor1': address: 127.0.0.1:50000 device 0 is also switch 'tor0'"),
    (lambda s: None, {"clock": "slice_ms = 0.1"}, "[clock]: slice_ms: 0.1 ms is too short"),
    (lambda s: None, {"clock": "slice_ms = -5"}, "[clock]: slice_ms: must be a positive number"),
    (lambda s: None, {"clock": 'mode = "ptp"'}, "[clock]: mode: 'ptp' is not a clock mode"),
    (lambda s: None, {"clock": "leads = []"}, "[clock]: leads: a non-empty list of ToR ids"),
    (lambda s: None, {"clock": "leads = [2, 2]"}, "[clock]: leads: ToR 2 is listed twice"),
    (lambda s: None, {"clock": 'leads = ["tor0"]'}, "[clock]: leads: a non-empty list of ToR ids"),
    (lambda s: None, {"clock": "exchange_every = 0"}, "[clock]: exchange_every: must be in 1..65535, got 0"),
    (lambda s: None, {"clock": "max_offset_us = 0"}, "[clock]: max_offset_us: must be a positive number"),
    (lambda s: None, {"clock": "max_offset_us = 30000"}, "[clock]: max_offset_us: 30000 us is more than half a slice"),
    (lambda s: None, {"clock": "max_delay_us = -1"}, "[clock]: max_delay_us: must be a positive number"),
    (lambda s: None, {"clock": "refuse_limit = 0"}, "[clock]: refuse_limit: must be in 1..255, got 0"),
    (lambda s: None, {"clock": "holdover_cycles = 0"}, "[clock]: holdover_cycles: must be in 1..1000, got 0"),
    (lambda s: None, {"clock": "servo_shift = 40"}, "[clock]: servo_shift: must be in 0..31, got 40"),
    (lambda s: None, {"clock": "phase_shift = 9"}, "[clock]: phase_shift: must be in 0..8, got 9"),
    (lambda s: None, {"clock": "alarm_us = nan"}, "[clock]: alarm_us: must be a number"),
    (lambda s: None, {"clock": "filter_us = 0"}, "[clock]: filter_us: must be a positive number"),
    (lambda s: None, {"clock": "max_delay_us = 1000\nfilter_us = 1500"},
     "[clock]: filter_us: 1500 us is more than max_delay_us (1000 us)"),
    (lambda s: None, {"clock": "rate_step_ppm = 0"}, "[clock]: rate_step_ppm: must be in 1..1000, got 0"),
    (lambda s: None, {"clock": "leader = 1"}, "[clock]: leader: unknown key"),
    (lambda s: None, {"clock": 'mode = "sync"\nmax_delay_us = 24800'},
     "[clock]: slice_ms: a 50 ms slice cannot hold a sync exchange: it needs 2 x guard + 2 x max_delay_us = "
     "2 x 250 + 2 x 24800 = 50100 us"),
    (lambda s: None, {"daemon": 'status = "nowhere"'}, "[daemon]: status: expected host:port"),
    (lambda s: None, {"daemon": 'log = "xml"'}, "[daemon]: log: \"json\" or \"kv\""),
    (lambda s: None, {"daemon": "workers = -1"}, "[daemon]: workers: must be in 0..4096, got -1"),
    (lambda s: None, {"daemon": "route_cache_mib = -1"}, "[daemon]: route_cache_mib: must be in 0..16777216, got -1"),
    (lambda s: None, {"daemon": 'route_cache_mib = "2G"'}, "[daemon]: route_cache_mib: must be an integer"),
    (lambda s: None, {"daemon": "workers = 4"}, "[daemon]: workers = 4: more workers than the 3 switches they would own"),
    (lambda s: None, {"daemon": "worker_silent_s = 0"}, "[daemon]: worker_silent_s: must be a positive number, got 0"),
    (lambda s: None, {"daemon": 'worker_silent_s = "1m"'}, "[daemon]: worker_silent_s: must be a number"),
    (lambda s: None, {"daemon": "held_id_wait_s = -1"}, "[daemon]: held_id_wait_s: must be a positive number, got -1"),
    (lambda s: None, {"daemon": 'workers = 2\nscheduler = "10.0.0.1:8786"'},
     "[daemon]: scheduler: a Dask scheduler address such as \"tcp://10.0.0.1:8786\", got '10.0.0.1:8786'"),
    (lambda s: None, {"daemon": 'scheduler = "tcp://10.0.0.1:8786"'},
     "[daemon]: scheduler: tcp://10.0.0.1:8786 needs workers = N"),
    (lambda s: None, {"schedule": 'generate = "spiral"\ntors = 8\nuplinks = 2'}, "[schedule]: generate: unknown generator 'spiral'"),
    (lambda s: None, {"schedule": 'file = "none.json"'}, "[schedule]: file:"),
    (lambda s: None, {"routing": "source_routed = [5]\n[routing.per_hop]\nk = 3"}, "[routing]: source: missing"),
    (lambda s: None, {"routing": "source_routed = \"some\""}, "[routing]: source_routed: a list"),
]


@pytest.mark.parametrize("mutate,over,msg", BAD, ids=[b[2][:50] for b in BAD])
def test_bad_config_is_one_clear_error(tmp_path, mutate, over, msg):
    sw = [tor_switch(0), tor_switch(1), ocs_switch()]
    mutate(sw)
    p = net_toml(tmp_path, sw, **over)
    with pytest.raises(ConfigError) as e:
        load(p)
    text = str(e.value)
    assert msg in text, text
    assert "\n" not in text and str(p) in text


BAD_PLAN = [
    # needs the schedule, routes, programs: checked by Prepared (before any switch is contacted)
    ({"schedule": 'generate = "round-robin"\ntors = 10\nuplinks = 2'}, "[program.tor] (tor_tiny.contract.json, profile 'tiny'): tors = 8, the schedule has 10"),
    ({"schedule": 'generate = "round-robin"\ntors = 8\nuplinks = 1'}, "uplinks = 2, the schedule has 1"),
    ({"routing": "[routing.per_hop]\nk = 5"}, "alternatives (K) = 3, but [routing.per_hop] k = 5"),
    ({"routing": "[routing.per_hop]\nalgo = \"ucmp\""}, "[routing.per_hop]: algo: 'ucmp' computes source routes"),
    ({"routing": "[routing.per_hop]\nalgo = \"magic\""}, "[routing.per_hop]: algo: unknown routing algorithm 'magic'"),
    ({"routing": "[routing.per_hop]\nk = 3\nwidth = 2"}, "[routing.per_hop]: width: not a parameter of uro"),
    ({"routing": "[routing.per_hop]\nk = 3\nhop_budget = \"lots\""}, "hop_budget: \"auto\", \"none\" or 1..255"),
    ({"routing": "source_routed = [9]\n[routing.per_hop]\nk = 3\n[routing.source]\nh_max = 4"},
     "[routing]: source_routed: ToR 9 is not in the schedule"),
    ({"clock": "leads = [0, 8]"}, "[clock]: leads: ToR 8 is not in the schedule (0..7)"),
    ({"clock": "ref_uplink = 2"}, "[clock]: ref_uplink: uplink 2 is not in the schedule (0..1)"),
]


@pytest.mark.parametrize("over,msg", BAD_PLAN, ids=[b[1][:50] for b in BAD_PLAN])
def test_config_that_does_not_match_the_schedule_or_program(tmp_path, over, msg):
    cfg = load(good(tmp_path, **over))
    with pytest.raises(ConfigError) as e:
        Prepared(cfg, Failed(), make_backend_for({}))
    assert msg in str(e.value), str(e.value)


def test_clock_defaults_are_numbers_from_the_slice_and_the_programs_guard(tmp_path):
    """The tiny profile's guard (0.01 us of a 2 us slice) on a 50 ms clock is 250 us; the
    bounds default to a quarter slice (offset), an eighth (delay) and the guard (alarm)."""
    c = load(good(tmp_path)).clock
    assert (c.mode, c.leads, c.ref_uplink, c.exchange_every) == ("timer", (0, 1), 0, 1)
    assert c.guard_us == pytest.approx(250.0)
    assert c.max_offset_us == pytest.approx(12500.0)
    assert c.max_delay_us == pytest.approx(6250.0)
    assert c.alarm_us == pytest.approx(250.0)
    c = load(good(tmp_path, clock='slice_ms = 20\nmode = "sync"\nleads = [3, 1]\nalarm_us = 700\nservo_shift = 5'
                                    '\nmax_delay_us = 4000')).clock
    assert (c.mode, c.sync, c.leads, c.alarm_us, c.servo_shift, c.max_delay_us) == ("sync", True, (3, 1), 700, 5, 4000)
    assert (c.filter_us, c.rate_step_ppm) == (None, None)
    p = c.params()
    assert (p.filter_bound, p.rate_step) == (4_000_000 // 8, 20_000_000 * 10 // 10**6)    # the defaults
    c = load(good(tmp_path, clock='mode = "sync"\nfilter_us = 80\nrate_step_ppm = 4')).clock
    assert (c.filter_us, c.rate_step_ppm, c.params().filter_bound, c.params().rate_step) == (80, 4, 80_000, 200)
    assert c.params().phase_shift == 0                                                   # the whole offset
    c = load(good(tmp_path, clock='mode = "sync"\nphase_shift = 1')).clock
    assert c.params().tor_config(0, 8, 2, 4).phase_shift == 1


def test_workers_take_the_switches_own_clocks_and_their_liveness_marks(tmp_path):
    """The clock supervision and the liveness marks run with workers (each worker reads
    its share's clocks, docs/daemon.md "Workers"): the config is not refused."""
    cfg = load(net_toml(tmp_path, [tor_switch(0), tor_switch(1), ocs_switch()], daemon="workers = 2",
                        clock='slice_ms = 50\nmode = "sync"', extra="[liveness]\nenabled = true"))
    assert cfg.daemon.workers == 2 and cfg.clock.sync and cfg.liveness.enabled


def test_sync_mode_needs_programs_that_keep_the_clock(tmp_path):
    p = good(tmp_path, clock='slice_ms = 50\nmode = "sync"')
    for f in tmp_path.glob("*_tiny.contract.json"):       # programs built before the slice clock
        c = json.loads(f.read_text())
        c.pop("clock", None)
        f.write_text(json.dumps(c))
    cfg = load(p)
    with pytest.raises(ConfigError, match=r'\[clock\]: mode: "sync", but \[program\.(tor|ocs)\] \((tor|ocs)_tiny\.contract\.json\) '
                                          r'keeps no slice clock of its own'):
        Prepared(cfg, Failed(), make_backend_for({}))


def test_sync_mode_needs_programs_with_the_exchange(tmp_path):
    """A program whose clock section lists no REQ/RESP (a t2na ToR keeping a seeded clock
    without the exchange) is refused at the config check, not at seeding."""
    p = good(tmp_path, clock='slice_ms = 50\nmode = "sync"')
    f = next(tmp_path.glob("tor_tiny.contract.json"))
    c = json.loads(f.read_text())
    c["clock"]["ops"] = {k: v for k, v in c["clock"]["ops"].items() if k not in ("REQ", "RESP", "NOTICE")}
    f.write_text(json.dumps(c))
    with pytest.raises(ConfigError, match=r'\[clock\]: mode: "sync", but \[program\.tor\] \(tor_tiny\.contract\.json\) '
                                          r'has no sync exchange \(its contract\'s clock\.ops lists PROBE, PROBE_REPLY, '
                                          r'SEED, TRIGGER; sync needs REQ and RESP\)'):
        Prepared(load(p), Failed(), make_backend_for({}))
    c["clock"].pop("ops")                                   # the generator's clock: no ops at all
    f.write_text(json.dumps(c))
    with pytest.raises(ConfigError, match=r"clock\.ops lists none; sync needs REQ and RESP"):
        Prepared(load(p), Failed(), make_backend_for({}))
    c["clock"]["ops"] = {"REQ": 1}                          # a responder only
    f.write_text(json.dumps(c))
    with pytest.raises(ConfigError, match=r"clock\.ops lists REQ; sync needs REQ and RESP"):
        Prepared(load(p), Failed(), make_backend_for({}))


def test_sync_mode_takes_the_tofino2_exchange(tmp_path):
    """The t2na ToR's contract lists REQ and RESP (docs/tofino2.md "The exchange"): sync
    mode passes the config check with its clock.ops."""
    from pathlib import Path
    p = good(tmp_path, clock='slice_ms = 50\nmode = "sync"')
    f = next(tmp_path.glob("tor_tiny.contract.json"))
    c = json.loads(f.read_text())
    t2na = json.loads((Path(__file__).resolve().parents[1] / "p4src" / "tor_tiny_t2na.contract.json").read_text())
    assert t2na["clock"]["ops"] == {"REQ": 1, "RESP": 2}
    c["clock"]["ops"] = t2na["clock"]["ops"]
    f.write_text(json.dumps(c))
    Prepared(load(p), Failed(), make_backend_for({}))


@pytest.mark.parametrize("key,feature", [("filter_us = 100", "filter"), ("rate_step_ppm = 5", "rate_step")])
def test_a_clock_key_the_program_lacks_is_refused(tmp_path, key, feature):
    """A ToR program whose exchange lacks the clock filter or the bounded rate step (its
    contract's clock.features; the t2na ToR has no filter) is refused when [clock] sets the
    key that needs it; without the key it is taken."""
    p = good(tmp_path, clock=f'slice_ms = 50\nmode = "sync"\n{key}')
    Prepared(load(p), Failed(), make_backend_for({}))
    f = next(tmp_path.glob("tor_tiny.contract.json"))
    c = json.loads(f.read_text())
    c["clock"]["features"] = [x for x in c["clock"]["features"] if x != feature]
    f.write_text(json.dumps(c))
    with pytest.raises(ConfigError, match=rf"\[clock\]: {key.split()[0]}: \[program\.tor\] \(tor_tiny\.contract\.json\) "
                                          rf"has no '{feature}' in its exchange"):
        Prepared(load(p), Failed(), make_backend_for({}))
    Prepared(load(good(tmp_path, clock='slice_ms = 50\nmode = "sync"')), Failed(), make_backend_for({}))


def test_a_rate_step_beyond_the_programs_servo_rate_is_refused(tmp_path):
    """A program that takes the servo's rate step from a table (the t2na ToR's servo_rate:
    the range of -theta of each step and sign) refuses a [clock] whose steps need more
    entries than it holds, naming the keys and the table; one entry more is enough."""
    from pathlib import Path

    from controller.tables.clock import servo_rate_entries
    t2na = json.loads((Path(__file__).resolve().parents[1] / "p4src" / "tor_tiny_t2na.contract.json").read_text())
    p = good(tmp_path, clock='slice_ms = 50\nmode = "sync"\nrate_step_ppm = 2')
    f = next(tmp_path.glob("tor_tiny.contract.json"))
    c = json.loads(f.read_text())
    c["tables"]["servo_rate"] = t2na["tables"]["servo_rate"]
    f.write_text(json.dumps(c))
    with pytest.raises(ConfigError, match=r"\[program\.tor\] \(tor_tiny\.contract\.json\): \[clock\] rate_step_ppm, "
                                          r"servo_shift: a rate step of up to 100 ns per exchange with servo_shift = 4 "
                                          r"needs more entries than UroEgress\.servo_rate holds \(256"):
        Prepared(load(p), Failed(), make_backend_for({}))
    c["tables"]["servo_rate"]["size"] = 1 << 20
    need = len(servo_rate_entries(c, load(p).clock.params().tor_config(0, 8, 2, 4)))
    assert 256 < need < 1 << 20
    for size, ok in ((need - 1, False), (need, True)):
        c["tables"]["servo_rate"]["size"] = size
        f.write_text(json.dumps(c))
        if ok:
            Prepared(load(p), Failed(), make_backend_for({}))
        else:
            with pytest.raises(ConfigError, match=rf"holds \({size}:"):
                Prepared(load(p), Failed(), make_backend_for({}))


def test_a_tor_id_outside_the_schedule_is_named(tmp_path):
    """The loader cannot know N; Prepared (daemon and `uro agent push`) names the field."""
    p = net_toml(tmp_path, [tor_switch(0), tor_switch(8), ocs_switch()])
    with pytest.raises(ConfigError, match=r"switch 'tor8': tor: ToR id 8 is not in the schedule \(0\.\.7\)"):
        Prepared(load(p), Failed(), make_backend_for({}))


def test_unknown_target_is_named(tmp_path):
    p = good(tmp_path)
    cfg = load(p)
    with pytest.raises(ConfigError, match="switch 'tor0': target: no switch backend for target 'bmv2'"):
        Prepared(cfg, Failed(), lambda target: (_ for _ in ()).throw(
            __import__("controller.agent.backend", fromlist=["x"]).BackendError(
                f"no switch backend for target {target!r} (available: tofino2)")))


def test_entries_that_do_not_fit_the_program_are_refused_before_connecting(tmp_path):
    """A program whose departure-slice field is too narrow for the routes: the error names
    the switch and the field."""
    p = good(tmp_path)
    c = json.loads((tmp_path / "tor_tiny.contract.json").read_text())
    for prm in c["tables"]["uro_next_hop"]["actions"]["set_alternatives"]["params"]:
        if prm["name"] == "slice0":
            prm["bitwidth"] = 1
    (tmp_path / "tor_tiny.contract.json").write_text(json.dumps(c))
    with pytest.raises(ConfigError, match="switch 'tor0': program: .*set_alternatives: parameter slice0 = . does not fit 1 bits"):
        Prepared(load(p), Failed(), make_backend_for({}))


def test_unreachable_address_or_lower_election_id_stops_start_and_nothing_is_written(tmp_path):
    sws = {f"127.0.0.1:{50000 + t}": FakeSwitch(f"tor{t}") for t in range(2)}
    sws["127.0.0.1:50100"] = FakeSwitch("ocs")
    p = good(tmp_path)
    sws["127.0.0.1:50001"].reachable = False
    c = Controller(load(p), backend_for=make_backend_for(sws))
    with pytest.raises(ConfigError, match=r"switch 'tor1': address: 127.0.0.1:50001 does not answer"):
        c.start()
    assert all(s.updates == 0 and s.pipelines_set == 0 for s in sws.values())
    assert all(s.primary is None for s in sws.values()), "sessions opened for the check are closed again"

    sws["127.0.0.1:50001"].reachable = True
    sws["127.0.0.1:50100"].primary, sws["127.0.0.1:50100"].primary_session = 99, object()   # another daemon
    c = Controller(load(p), backend_for=make_backend_for(sws))
    with pytest.raises(ConfigError, match=r"switch 'ocs': election_id: 10 is refused by the switch: .*another "
                                          r"controller is primary \(election id 99, ours is 10\)"):
        c.start()
    assert all(s.updates == 0 and s.pipelines_set == 0 for s in sws.values())


def test_tls_files_and_pairs(tmp_path):
    p = net_toml(tmp_path, [tor_switch(0, tls={"insecure": False, "ca": "ca.pem"})])
    with pytest.raises(ConfigError, match=r"switch 'tor0': tls: ca: .*ca.pem not found"):
        load(p)
    (tmp_path / "ca.pem").write_text("x")
    (tmp_path / "c.pem").write_text("x")
    p = net_toml(tmp_path, [tor_switch(0, tls={"insecure": False, "ca": "ca.pem", "cert": "c.pem"})])
    with pytest.raises(ConfigError, match="cert and key go together"):
        load(p)
    (tmp_path / "k.pem").write_text("x")
    p = net_toml(tmp_path, [tor_switch(0, tls={"insecure": False, "ca": "ca.pem", "cert": "c.pem", "key": "k.pem"})])
    s = load(p).switch("tor0")
    assert not s.tls.insecure and s.tls.ca == tmp_path / "ca.pem" and s.tls.key == tmp_path / "k.pem"


def test_secure_by_default(tmp_path):
    """Without [tls] insecure = true a switch uses TLS (system roots when no CA is given)."""
    p = net_toml(tmp_path, [tor_switch(0)])
    p.write_text(p.read_text().replace("[tls]\ninsecure = true", ""))
    assert load(p).switch("tor0").tls.insecure is False


def test_not_toml_and_missing_file(tmp_path):
    p = tmp_path / "net.toml"
    p.write_text("[schedule\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(p)
    with pytest.raises(ConfigError, match="nothere.toml: not found"):
        load(tmp_path / "nothere.toml")


def test_cli_bad_config_exits_2_with_one_line(tmp_path, capsys):
    from controller.cli.main import main as uro

    sw = [tor_switch(0), tor_switch(0, name="twin"), ocs_switch()]
    p = net_toml(tmp_path, sw)
    for argv in (["daemon", "--config", str(p)], ["daemon", "--config", str(p), "--check"]):
        assert uro(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("uro: error: ") and err.count("\n") == 1
        assert "switch 'twin': tor: ToR id 0 is also switch 'tor0'" in err


def test_check_connects_and_writes_nothing(tmp_path, capsys):
    from controller.daemon import run

    sws = {"127.0.0.1:50000": FakeSwitch("tor0"), "127.0.0.1:50100": FakeSwitch("ocs")}
    p = net_toml(tmp_path, [tor_switch(0), ocs_switch()])
    res = run.check(p, backend_for=make_backend_for(sws), log=__import__("controller.daemon.log", fromlist=["x"])
                    .EventLog("json", open("/dev/null", "w")))
    assert res["switches"] == 2
    assert all(s.updates == 0 and s.pipelines_set == 0 and s.primary is None for s in sws.values())
