"""The daemon's side of the switches' own slice clocks (``[clock] mode = "sync"``,
docs/clock.md "The daemon supervises") on the fake network (2 ToRs + the OCS emulator):
seeding (the reference first, a clock that keeps the network's time adopted), register
reads and probes, the alarm, a ToR unsynchronized too long taken out of routes and put
back, status, metrics, and the refusal of a mode change at reload. The fake switches'
clocks run on the host's CLOCK_MONOTONIC (tests/daemon_fakes.py); the controller's own
clock is injected, so the supervision's schedule is driven step by step."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from controller.daemon.config import load
from controller.daemon.controller import Controller
from controller.daemon.log import EventLog

from daemon_fakes import FakeSwitch, make_backend_for, net_toml, ocs_switch, tor_switch

L = 50_000_000


class Clock:
    def __init__(self):
        self.t = 5000.0

    def __call__(self):
        return self.t

    def sleep(self, seconds):
        self.t += seconds


def recorder():
    log = EventLog("json", stream=open("/dev/null", "w"))
    log.events = []
    orig = log.event

    def event(name, level="info", **kw):
        log.events.append((name, kw))
        return orig(name, level=level, **kw)
    log.event = event
    log.warn = lambda name, **kw: event(name, level="warning", **kw)
    log.error = lambda name, **kw: event(name, level="error", **kw)
    return log


def keeping_clock(tmp_path):
    """Give the fake programs the contract's clock section (sync mode needs it)."""
    for f in tmp_path.glob("*_tiny.contract.json"):
        c = json.loads(f.read_text())
        c.setdefault("clock", {"ethertype": 0x88B6})
        f.write_text(json.dumps(c))


def make(tmp_path, sws=None, clock_toml='slice_ms = 50\nmode = "sync"\nalarm_us = 1000\nholdover_cycles = 2'):
    sws = sws or {"127.0.0.1:50000": FakeSwitch("tor0"), "127.0.0.1:50001": FakeSwitch("tor1"),
                  "127.0.0.1:50100": FakeSwitch("ocs")}
    p = net_toml(tmp_path, [tor_switch(0), tor_switch(1), ocs_switch()], clock=clock_toml)
    keeping_clock(tmp_path)
    clock = Clock()
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=recorder(), clock=clock)
    return ctl, sws, clock, p


@pytest.fixture
def net(tmp_path):
    ctl, sws, clock, p = make(tmp_path)
    ctl.start()
    yield ctl, sws, clock
    ctl.shutdown()


def events(ctl, name):
    return [kw for n, kw in ctl.log.events if n == name]


def test_sync_mode_seeds_the_reference_first_then_the_tors_and_sends_no_timer(net):
    ctl, sws, clock = net
    assert ctl.sclock is None and ctl.cwatch is not None
    ctl.watch_clocks()
    ocs, tor0, tor1 = sws["127.0.0.1:50100"], sws["127.0.0.1:50000"], sws["127.0.0.1:50001"]
    assert [s[3] for s in ocs.seeds][:1] == [True] and all(s[3] is False for s in tor0.seeds + tor1.seeds)
    assert len(tor0.seeds) == len(tor1.seeds) == 1
    # the lead the config names first ([clock] leads, default [0, 1]): told so at its seed
    # (a program without an election holds stratum 1 from it); no other switch
    assert [s[4] for s in tor0.seeds] == [True] and not any(s[4] for s in tor1.seeds + ocs.seeds)
    assert max(s[0] for s in ocs.seeds) < min(s[0] for s in tor0.seeds + tor1.seeds), "the reference first"
    assert ocs.stratum == 0 and abs(ocs.clock_offset_ns) < 5_000_000, "the reference keeps the host's time"
    assert all(sw.timers == [] for sw in sws.values()), "no daemon timer in sync mode"
    assert {e["switch"] for e in events(ctl, "clock.seeded")} == {"ocs", "tor0", "tor1"}
    assert ctl.metrics.clock_seeds.labels("ocs")._value.get() == 1


def test_a_clock_that_keeps_the_network_time_is_adopted_not_seeded_again(tmp_path):
    """A daemon restarted on a running fabric must not step its clocks."""
    ctl, sws, clock, p = make(tmp_path)
    ctl.start()
    ctl.watch_clocks()
    for sw in sws.values():            # the tree synchronized the ToRs meanwhile
        if sw.stratum == 255:
            sw.stratum = 2
    seeds = {n: len(sw.seeds) for n, sw in sws.items()}
    ctl.shutdown()
    ctl2 = Controller(load(p), backend_for=make_backend_for(sws), log=recorder(), clock=clock)
    ctl2.start()
    ctl2.watch_clocks()
    assert {n: len(sw.seeds) for n, sw in sws.items()} == seeds
    assert {e["switch"] for e in events(ctl2, "clock.adopted")} == {"ocs", "tor0", "tor1"}
    ctl2.shutdown()


def test_registers_and_probes_are_read_on_their_periods_and_the_error_is_against_the_reference(net):
    ctl, sws, clock = net
    ctl.watch_clocks()                      # seeds; reads and probes fall due from the seed on
    tor0 = sws["127.0.0.1:50000"]
    tor0.stratum, tor0.clock_registers = 2, {"offset": -1200, "delay": 80_000, "len": L + 10, "refusals": 0}
    tor0.clock_offset_ns = sws["127.0.0.1:50100"].clock_offset_ns + 300_000        # 0.3 ms late
    clock.t += 3.0
    ctl.watch_clocks()
    st = ctl.status()["clock"]
    assert st["mode"] == "sync" and st["slice0_at"] == 0.0
    c = st["switches"]["tor0"]
    assert c["stratum"] == 2 and c["synced"] and c["registers"]["offset"] == -1200
    # the error is tor0's offset less the reference's: each probe is off by up to its own
    # uncertainty (half its round trip: a loaded machine makes either one long)
    ref = next(v for n, v in st["switches"].items() if n != "tor0" and v["stratum"] == 0)
    assert c["error_us"] == pytest.approx(300.0, abs=c["uncertainty_us"] + ref["uncertainty_us"] + 5)
    assert c["history"] and not c["alarm"]
    probes = tor0.probes
    clock.t += 0.5
    ctl.watch_clocks()
    assert tor0.probes == probes, "not due yet"
    clock.t += 3.0
    ctl.watch_clocks()
    assert tor0.probes == probes + 1
    text = ctl.metrics.render().decode()
    for line in ('uro_clock_stratum{switch="tor0"} 2.0', 'uro_clock_offset_seconds{switch="tor0"} -1.2e-06',
                 'uro_clock_drift_ppb{switch="tor0"} 200.0', 'uro_clock_alarm{switch="tor0"} 0.0'):
        assert line in text, line
    assert 'uro_clock_error_seconds{switch="tor0"}' in text


def test_an_error_beyond_alarm_us_raises_an_alarm_once_and_clears_it(net):
    ctl, sws, clock = net
    ctl.watch_clocks()
    ocs, tor1 = sws["127.0.0.1:50100"], sws["127.0.0.1:50001"]
    tor1.stratum = 2
    tor1.clock_offset_ns = ocs.clock_offset_ns + 5_000_000          # 5 ms off, alarm at 1 ms
    for _ in range(3):
        clock.t += 3.1
        ctl.watch_clocks()
    alarms = events(ctl, "clock.alarm")
    assert [a["switch"] for a in alarms] == ["tor1"], "once, not at every probe"
    assert alarms[0]["error_us"] == pytest.approx(5000, abs=200) and alarms[0]["alarm_us"] == 1000
    assert ctl.status()["clock"]["alarms"] == ["tor1"]
    assert ctl.metrics.clock_alarms.labels("tor1")._value.get() == 1
    assert 'uro_clock_alarm{switch="tor1"} 1.0' in ctl.metrics.render().decode()
    from controller.cli.daemon import clock_lines

    lines = clock_lines(ctl.status()["clock"])      # `uro ctl status`, `uro emulate status`
    assert lines[0].startswith("clock   sync mode: slice 50.0 ms") and "alarms tor1" in lines[0]
    row = next(x for x in lines if x.split()[0] == "tor1")
    assert row.split()[1] == "2" and row.rstrip().endswith("ALARM")
    tor1.clock_offset_ns = ocs.clock_offset_ns
    clock.t += 3.1
    ctl.watch_clocks()
    assert [e["switch"] for e in events(ctl, "clock.alarm_cleared")] == ["tor1"]
    assert ctl.status()["clock"]["alarms"] == []


def test_a_tor_unsynchronized_for_holdover_is_taken_out_of_routes_and_put_back(net):
    """holdover_cycles = 2 cycles of 4 x 50 ms, but at least three reads (3 s): tor1 stays
    stratum 255 after its seed -> a failed ToR (dead mask on its neighbour, routes around
    it); once it is synchronized -> recovered."""
    ctl, sws, clock = net
    ctl.watch_clocks()
    tor0, tor1 = sws["127.0.0.1:50000"], sws["127.0.0.1:50001"]
    tor0.stratum = 2
    clock.t += 1.1
    ctl.watch_clocks()
    assert ctl.failed.tors == frozenset()
    clock.t += 2.0
    ctl.watch_clocks()
    ctl.handle_jobs()
    assert ctl.failed.tors == frozenset({1})
    assert [e["switch"] for e in events(ctl, "clock.unsynchronized")] == ["tor1"]
    assert ctl.agents["tor0"].dead, "its neighbour masks the circuits that lead to it"
    assert ctl.status()["clock"]["out_of_routes"] == ["tor1"]
    rep = ctl.status()["failures"]["events"][-1]
    assert (rep["op"], rep["kind"], rep["target"], rep["source"]) == ("fail", "tor", 1, "clock")
    tor1.stratum = 2
    clock.t += 1.1
    ctl.watch_clocks()
    ctl.handle_jobs()
    assert ctl.failed.tors == frozenset()
    assert not ctl.agents["tor0"].dead
    assert ctl.status()["failures"]["events"][-1]["op"] == "recover"


def test_a_tor_failed_by_the_operator_is_not_recovered_by_its_clock(net):
    ctl, sws, clock = net
    from controller.daemon.controller import Change

    ctl.watch_clocks()
    ctl.submit(Change("fail", "tor", 1))
    ctl.handle_jobs()
    sws["127.0.0.1:50000"].stratum = 2
    sws["127.0.0.1:50001"].stratum = 255
    for _ in range(5):
        clock.t += 1.1
        ctl.watch_clocks()
    sws["127.0.0.1:50001"].stratum = 2
    clock.t += 1.1
    ctl.watch_clocks()
    assert ctl.jobs.empty() and ctl.failed.tors == frozenset({1})


def test_a_switch_that_does_not_answer_is_reported_and_seeded_when_it_does(net):
    ctl, sws, clock = net
    ocs = sws["127.0.0.1:50100"]
    ocs.clock_answers = False
    ctl.watch_clocks()
    assert ocs.seeds == [] and ctl.status()["clock"]["switches"]["ocs"]["last_error"].startswith("seed: ")
    assert events(ctl, "clock.seed_failed")
    ocs.clock_answers = True
    clock.t += 0.2
    ctl.watch_clocks()
    assert ocs.seeds and ocs.stratum == 0


def test_reload_refuses_another_clock_mode_and_keeps_the_running_one(tmp_path):
    ctl, sws, clock, p = make(tmp_path)
    ctl.start()
    p.write_text(p.read_text().replace('mode = "sync"', 'mode = "timer"'))
    res = ctl.reload()
    assert not res["ok"] and "[clock]: mode: 'timer', the running daemon's is 'sync'" in res["error"]
    assert ctl.cfg.clock.mode == "sync" and ctl.cwatch is not None
    ctl.shutdown()


def test_timer_mode_keeps_the_daemon_timer_and_never_touches_the_clocks(tmp_path):
    ctl, sws, clock, p = make(tmp_path, clock_toml='slice_ms = 50\nmode = "timer"')
    ctl.start()
    assert ctl.cwatch is None and ctl.sclock is not None
    assert ctl.tick(ctl.sclock.next_time())
    assert all(sw.timers for sw in sws.values()) and all(sw.seeds == [] and sw.probes == 0 for sw in sws.values())
    assert ctl.status()["clock"]["mode"] == "timer"
    ctl.shutdown()


def test_the_timer_log_gives_each_switch_its_boundaries_from_its_offset(net):
    """``GET /clock/timers`` in sync mode: slice k of a switch starts at k x L on the
    daemon's clock, earlier by what the switch is ahead (deadtor.py places packets by it)."""
    ctl, sws, clock = net
    ctl.watch_clocks()
    clock.t += 3.1
    ctl.watch_clocks()
    log = ctl.timer_log()
    assert log["slice0_at"] == 0.0 and len(log["timers"]) == 2000
    k, sid, sent = log["timers"][-1]
    assert sid == k % 4 and set(sent) == {"ocs", "tor0", "tor1"}
    off = ctl.cwatch.clocks["tor0"].offset_ns
    assert sent["tor0"] == pytest.approx((k * L - off) / 1e9)


def clock_entries(sw) -> dict[str, list]:
    """A fake switch's slice-clock entries: ``{"clock_config": [...], "sync_peer": [...]}``."""
    out: dict[str, list] = {"clock_config": [], "sync_peer": []}
    for e in sw.entries.values():
        short = e.table.split(".")[-1]
        if short in out:
            out[short].append(e)
    return out


@pytest.mark.parametrize("mode", ["sync", "timer"])
def test_the_daemon_writes_each_switchs_clock_entries(tmp_path, mode):
    """The clock's entries are static entries of every switch whose program keeps the clock
    (controller.tables.clock): sync mode, a ToR gets its sync peers (every circuit of the
    schedule: tiny has S x d of them) and set_clock with its own id and the mode, the OCS
    emulator set_clock as the reference; timer mode, every switch clock_off (a switch an
    earlier run left in sync mode takes the daemon's timers again) and no peers. Catches a
    role whose statics leave the clock out, or the wrong ToR's config."""
    from controller.clock.params import MODES

    ctl, sws, clock, p = make(tmp_path, clock_toml=f'slice_ms = 50\nmode = "{mode}"')
    ctl.start()
    try:
        for addr, sw in sws.items():
            got = clock_entries(sw)
            assert [e.is_default for e in got["clock_config"]] == [True], (sw.name, got)
            cfg = got["clock_config"][0]
            if mode == "timer":
                assert cfg.action.endswith("clock_off") and got["sync_peer"] == [], (sw.name, cfg)
                continue
            params = dict(cfg.params)
            assert cfg.action.endswith("set_clock") and params["mode"] == MODES["sync"], (sw.name, cfg)
            assert params["slice_ns"] == L
            if sw.name == "ocs":
                assert got["sync_peer"] == []
            else:
                tor = int(sw.name[3:])
                assert params["my_tor"] == tor
                sched = ctl.routes.schedule
                want = {(s, u): int(sched.peer[s, tor, u]) for s in range(sched.n_slices)
                        for u in range(sched.n_uplinks) if sched.peer[s, tor, u] >= 0}
                assert want and {(dict(e.match)["slice"], dict(e.match)["uplink"]): dict(e.params)["peer"]
                                 for e in got["sync_peer"]} == want
    finally:
        ctl.shutdown()
