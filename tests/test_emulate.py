"""`uro emulate` without a switch: config validation, the plan of names and ports, the
daemon's generated net.toml, and bad input failing before anything is created."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from controller.cli.main import main
from controller.emulate import config, fabric
from controller.emulate.config import EmuConfigError
from controller.emulate.daemon import net_toml
from controller.emulate.network import Network
from controller.emulate.plan import Plan, make_plan
from controller.tables.tor_batch import host_ip

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("emu-*.toml"))


def _ports():
    it = iter(range(40000, 50000))
    return lambda: next(it)


def _cfg(**over) -> config.EmuConfig:
    doc = {"name": "t", "prefix": "ut", "schedule": {"generate": "round-robin", "tors": 8, "uplinks": 2}}
    for k, v in over.items():
        if isinstance(v, dict):
            doc.setdefault(k, {}).update(v)
        else:
            doc[k] = v
    return config.from_dict(doc, "t.toml")


# ---- config --------------------------------------------------------------------------------
def test_examples_load_and_fit():
    assert len(EXAMPLES) >= 2
    for f in EXAMPLES:
        cfg = config.load(f)
        net = Network(cfg)
        assert net.profile.tors * net.profile.uplinks <= 510
        assert cfg.slice_ms >= 10


@pytest.mark.parametrize("over, needle", [
    ({"schedule": {"tors": 300, "uplinks": 2}}, "OCS emulator needs schedule.tors x schedule.uplinks = 300 x 2 = 600 ports"),
    ({"hosts": {"per_tor": 3, "host_ports": 2}}, "hosts.per_tor = 3 needs host ports 0..2"),
    ({"hosts": {"per_tor": 0}}, "hosts.per_tor must be >= 1"),
    ({"prefix": "toolongprefix"}, "prefix must be 2-6"),
    ({"prefix": "Bad"}, "prefix must be"),
    ({"bogus": 1}, "unknown key 'bogus'"),
    ({"timing": {"slice_us": 2}}, "unknown key 'timing.slice_us'"),
    ({"timing": {"slice_ms": 0.002}}, "too short for bmv2"),
    ({"timing": {"slice_ms": float("nan")}}, "timing.slice_ms must be a finite number"),
    ({"timing": {"guard_ms": 50}}, "timing.guard_ms must be in [0, slice_ms = 50)"),
    ({"switches": {"uplink_pps": -1}}, "switches.uplink_pps must be in 0..10000000"),
    ({"switches": {"hold_pps": -1}}, "switches.hold_pps must be in 0..10000000"),
    ({"switches": {"niceness": -21}}, "switches.niceness must be in -20..19"),
    ({"switches": {"niceness": 1.5}}, "switches.niceness"),
    ({"routing": {"source_routed": [8]}}, "routing.source_routed[] must be in 0..7"),
    ({"routing": {"source_routed": [1, 1]}}, "lists a ToR twice"),
    ({"routing": {"ssrr_hops": 12}}, "routing.ssrr_hops must be in 1..9"),
    ({"switches": {"cpu_port": 3}}, "switches.cpu_port = 3 collides with the data ports 0..15"),
    ({"schedule": {"generate": "mesh"}}, "schedule.generate must be one of"),
    ({"schedule": {"uplinks": 8}}, "must be fewer than schedule.tors"),
    ({"schedule": {"tors": 252, "uplinks": 2}}, "504 ports, a v1model switch has 500 below its pktgen port 500"),
    ({"switches": {"cpu_port": 500}}, "switches.cpu_port = 500 is the pktgen port"),
    ({"clock": {"mode": "ntp"}}, "clock.mode must be \"sync\""),
    ({"clock": {"start_gap_s": -1}}, "clock.start_gap_s must be a number of seconds in [0, 60]"),
    ({"clock": {"trigger_ms": 30}}, "clock.trigger_ms = 30 must be in [0.1, slice_ms / uplinks = 25]"),
    ({"clock": {"max_delay_us": 0}}, "clock.max_delay_us"),
    ({"clock": {"max_delay_us": 20000}}, "clock.max_delay_us = 20000 must be at most slice_ms x 1000 / 4 = 12500"),
    ({"clock": {"holdover_cycles": 0}}, "clock.holdover_cycles must be in 1..1000"),
    ({"clock": {"drift": 1}}, "unknown key 'clock.drift'"),
])
def test_bad_config_names_the_key(over, needle):
    with pytest.raises(EmuConfigError) as e:
        _cfg(**over)
    assert needle in str(e.value)
    assert "\n" not in str(e.value)


def test_a_generated_schedule_without_its_size_names_the_missing_key():
    with pytest.raises(EmuConfigError, match=r"^t.toml: schedule.tors missing$"):
        config.from_dict({"name": "t", "schedule": {"generate": "round-robin", "uplinks": 2}}, "t.toml")
    with pytest.raises(EmuConfigError, match=r"^t.toml: \[hosts\] must be a table$"):
        config.from_dict({"name": "t", "schedule": {"generate": "round-robin", "tors": 8, "uplinks": 2},
                          "hosts": 3}, "t.toml")


def test_source_routed_all_and_file_schedule(tmp_path):
    from controller.schedule import round_robin, save

    save(round_robin(6, 1), tmp_path / "s.json")
    cfg = config.from_dict({"name": "f", "schedule": {"file": "s.json"}, "routing": {"source_routed": "all"}},
                           str(tmp_path / "f.toml"))
    assert (cfg.tors, cfg.uplinks, cfg.prefix) == (6, 1, "uf")
    assert cfg.routing.source_routed == tuple(range(6)) and cfg.all_source_routed


# ---- plan ----------------------------------------------------------------------------------
def test_plan_names_addresses_and_port_layout():
    cfg = _cfg(hosts={"per_tor": 2, "host_ports": 3})
    plan = make_plan(cfg, _ports())
    N, d = 8, 2
    assert len(plan.hosts) == 16 and len(plan.switches) == N + 1
    names = plan.root_ifnames
    # host peers, per uplink cable: ToR port, OCS port and the two wire ends between them,
    # and per switch its pktgen port and the generator's end
    assert len(names) == len(set(names)) == 16 + 4 * N * d + 2 * (N + 1)
    assert all(len(n) <= 15 and n.startswith("ut") for n in names)
    assert len({h.mac for h in plan.hosts}) == 16 and len({h.netns for h in plan.hosts}) == 16
    for h in plan.hosts:
        assert h.ip == host_ip(h.tor, h.port) and h.netns == f"ut-h{h.tor}_{h.port}"
        assert plan.switch(f"tor{h.tor}").ports[h.port] == h.peer_if
    for t in range(N):
        tor = plan.switch(f"tor{t}")
        assert sorted(tor.ports) == [0, 1, 3, 4, 500]   # host ports 0..1 used, uplinks at host_ports + u, pktgen
        assert (tor.ports[500], plan.pktgen_link(tor.name).b) == (f"utg{t}", f"utq{t}")
        for u in range(d):
            link = plan.uplink_link(t, u)
            assert tor.ports[3 + u] == link.a                   # ToR port host_ports + u
            assert plan.ocs.ports[t * d + u] == link.b          # OCS port tor * d + uplink
            assert link.wire == [f"utx{t}u{u}", f"uty{t}u{u}"]  # the wire a drill cuts
    assert (plan.ocs.ports[500], plan.pktgen_link("ocs").b) == (f"utg{N}", f"utq{N}")
    ports = [p for s in plan.switches for p in (s.grpc_port, s.thrift_port)]
    assert len(ports) == len(set(ports))
    assert Plan.from_json(plan.to_json()) == plan


def test_net_toml_names_every_switch_port_and_interface():
    cfg = _cfg(routing={"source_routed": [2, 5]})
    plan = make_plan(cfg, _ports())
    arts = {r: fabric.Artifacts(Path(f"/x/{r}.p4info.txtpb"), Path(f"/x/{r}.json"), Path(f"/x/{r}.contract.json"))
            for r in ("tor", "ocs")}
    doc = tomllib.loads(net_toml(cfg, plan, arts))
    sw = {s["name"]: s for s in doc["switch"]}
    assert set(sw) == {f"tor{t}" for t in range(8)} | {"ocs"}
    assert doc["routing"]["source_routed"] == [2, 5] and doc["clock"]["slice_ms"] == 50
    assert doc["clock"]["mode"] == cfg.clock_mode and "max_delay_us" not in doc["clock"]
    assert tomllib.loads(net_toml(dataclasses.replace(cfg, max_delay_us=800.0), plan, arts))["clock"]["max_delay_us"] == 800
    assert "holdover_cycles" not in doc["clock"]
    assert tomllib.loads(net_toml(_cfg(clock={"holdover_cycles": 10}), plan, arts))["clock"]["holdover_cycles"] == 10
    assert doc["routing"]["per_hop"] == {"algo": "uro", "k": 3, "max_hops": 4, "hop_budget": "auto"}
    assert doc["routing"]["source"] == {"algo": "ucmp", "h_max": 4}
    assert doc["program"]["tor"]["p4info"] == "/x/tor.p4info.txtpb"
    assert sw["tor3"]["tor"] == 3 and sw["tor3"]["ports"] == {"hosts": [0], "uplinks": [1, 2],
                                                              "interfaces": ["utt3u0", "utt3u1"]}
    assert sw["ocs"]["role"] == "ocs" and "ports" not in sw["ocs"]
    assert sw["tor3"]["address"] == plan.switch("tor3").grpc_address
    assert doc["daemon"]["status"] == f"127.0.0.1:{plan.extra['status_port']}"
    assert doc["tls"]["insecure"] is True
    # source-routed destinations: UCMP host flow aging in every host namespace
    assert doc["hosts"] == {"alpha": 0.5, "netns": [h.netns for h in plan.hosts]} and len(plan.hosts) == 8
    assert "hosts" not in tomllib.loads(net_toml(_cfg(routing={"source_routed": []}), plan, arts))
    off = dataclasses.replace(cfg, flow_aging=False)
    assert "hosts" not in tomllib.loads(net_toml(off, plan, arts))
    assert tomllib.loads(net_toml(dataclasses.replace(cfg, alpha=2.0), plan, arts))["hosts"]["alpha"] == 2.0


# ---- the CLI fails before creating anything ----------------------------------------------------
def _write(tmp_path, text: str) -> Path:
    p = tmp_path / "emu.toml"
    p.write_text(text)
    return p


@pytest.mark.parametrize("body, needle", [
    ('name = "x"\nprefix = "ux"\n[schedule]\ngenerate = "round-robin"\ntors = 256\nuplinks = 2\n',
     "512 ports, a v1model switch has 500 below its pktgen port"),
    ('name = "x"\nprefix = "ux"\n[schedule]\ngenerate = "round-robin"\ntors = 8\nuplinks = 2\n'
     '[hosts]\nper_tor = 2\nhost_ports = 1\n', "hosts.per_tor = 2 needs host ports 0..1"),
    ('name = "x"\n[schedule\n', "not valid TOML"),
])
def test_cli_bad_config_exit_2_nothing_created(tmp_path, capsys, body, needle):
    cfg = _write(tmp_path, body)
    state = tmp_path / "state"
    assert main(["emulate", "up", "--config", str(cfg), "--state-dir", str(state), "--no-daemon"]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err
    assert not state.exists()


def test_cli_needs_root_before_creating_anything(tmp_path, capsys, monkeypatch):
    cfg = _write(tmp_path, 'name = "x"\nprefix = "uxr"\n[schedule]\ngenerate = "round-robin"\ntors = 4\nuplinks = 1\n')
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    state = tmp_path / "state"
    assert main(["emulate", "up", "--config", str(cfg), "--state-dir", str(state), "--no-daemon"]) == 2
    assert "needs root" in capsys.readouterr().err
    assert not state.exists()


def test_cli_missing_config_and_unknown_host(tmp_path, capsys):
    assert main(["emulate", "up", "--config", str(tmp_path / "nope.toml")]) == 2
    assert "not found" in capsys.readouterr().err
    assert main(["emulate", "status", "--prefix", "uzz", "--state-dir", str(tmp_path)]) == 2
    assert "no emulated fabric 'uzz' is up" in capsys.readouterr().err


def test_fail_ids_are_checked(tmp_path, capsys):
    assert main(["emulate", "fail", "link", "3", "--prefix", "uzz", "--state-dir", str(tmp_path)]) == 2
    assert "expected `link TOR UPLINK`" in capsys.readouterr().err


@pytest.mark.parametrize("argv, needle", [
    (["tor", "8", "--ppm", "200"], "clock tor 8: no such ToR (ToRs 0..7)"),
    (["tor", "3", "--ppm", "5000"], "clock tor 3: --ppm 5000: a drift beyond +-1000 ppm"),
    (["tor", "3", "--ppm", "nan"], "clock tor 3: --ppm nan"),
    (["tor", "3", "--step-us", "3e6"], "clock tor 3: --step-us 3e+06: a step beyond +-2000000 us"),
    (["tor", "3"], "clock tor 3: give --ppm P, --step-us S or --clear"),
    (["tor", "3", "--clear", "--ppm", "1"], "--clear and --ppm 1 contradict each other"),
    (["tor", "x", "--ppm", "1"], "invalid int value: 'x'"),
    (["ocs", "0", "--ppm", "1"], "invalid choice: 'ocs'"),
])
def test_clock_fault_bad_input_is_one_line_exit_2_nothing_written(tmp_path, capsys, argv, needle):
    """`uro emulate clock` on a fabric's plan (no switch needed: everything is checked
    before a register is written)."""
    plan = make_plan(_cfg(), _ports())
    (tmp_path / "ut").mkdir()
    (tmp_path / "ut" / "plan.json").write_text(plan.to_json())
    assert main(["emulate", "clock", *argv, "--prefix", "ut", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1, err
    assert not (tmp_path / "ut" / "clock_faults.json").exists()


def test_pid_files_only_stop_their_own_process(tmp_path):
    """A PID file whose PID now belongs to another program is left alone."""
    import subprocess
    import sys

    from controller import process

    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        (tmp_path / "pids").mkdir()
        (tmp_path / "pids" / "tor0.pid").write_text(f'{{"pid": {other.pid}, "argv": ["simple_switch_grpc", "-i"]}}')
        assert process.running(tmp_path / "pids", "tor0") is None
        assert process.stop(tmp_path / "pids", "tor0") is False
        assert other.poll() is None                       # still running
        mine = process.start("me", [sys.executable, "-c", "import time; time.sleep(30)"], tmp_path / "pids",
                           tmp_path / "logs")
        import time

        end = time.time() + 5
        while process.running(tmp_path / "pids", "me") is None and time.time() < end:
            time.sleep(0.02)
        assert process.running(tmp_path / "pids", "me") == mine
        assert process.stop(tmp_path / "pids", "me") is True
        assert process.running(tmp_path / "pids", "me") is None
    finally:
        other.kill()
        other.wait()


def test_tor_counts_are_balanced():
    """The plan gives every ToR the same number of hosts and every host a distinct address."""
    plan = make_plan(_cfg(hosts={"per_tor": 3}), _ports())
    assert Counter(h.tor for h in plan.hosts) == Counter({t: 3 for t in range(8)})
    assert len({h.ip for h in plan.hosts}) == 24


def test_switch_command_ports_cpu_port_and_option_placement():
    from controller.emulate import procs

    plan = make_plan(_cfg(switches={"extra_args": ["--log-console"], "target_args": ["--priority-queues", "2"]}),
                     _ports())
    sw = plan.switch("tor2")
    argv = procs.switch_command(sw, ("--log-console",), ("--priority-queues", "2"))
    sep = argv.index("--")
    assert argv[0] == "simple_switch_grpc" and "--no-p4" in argv[:sep] and "--log-console" in argv[:sep]
    assert [argv[i + 1] for i, a in enumerate(argv[:sep]) if a == "-i"] == ["0@utt2h0", "1@utt2u0", "2@utt2u1",
                                                                             "500@utg2"]
    assert argv[sep + 1:] == ["--grpc-server-addr", sw.grpc_address, "--cpu-port", "510", "--priority-queues", "2"]


def test_every_switch_starts_and_restarts_at_the_configured_niceness(tmp_path, monkeypatch):
    """[switches] niceness (default -10: a switch stands in for hardware, which no other work
    of the machine delays) reaches every switch process `up` starts, and a switch restarted
    later (`restart_switch`, from the plan) starts at the same; the daemon's and the packet
    generator's own priority is another setting (procs.CLOCK_NICENESS)."""
    from controller import process
    from controller.agent.bmv2_process import Bmv2Switch

    started: dict[str, int] = {}
    monkeypatch.setattr(process, "start", lambda name, argv, pid_dir, log_dir, env=None, niceness=0:
                        started.__setitem__(name, niceness) or 1)
    monkeypatch.setattr(process, "stop", lambda *a, **k: True)
    monkeypatch.setattr(Bmv2Switch, "wait_started", lambda self, *a, **k: None)
    monkeypatch.setattr(fabric, "pace", lambda *a, **k: None)
    assert config.EmuConfig.switch_niceness == -10 == _cfg().switch_niceness
    for niceness in (-10, 0, 5):
        cfg = dataclasses.replace(_cfg(switches={"niceness": niceness}), start_gap_s=0.0)
        plan = make_plan(cfg, _ports())
        started.clear()
        fabric.start_switches(plan, tmp_path, cfg)
        assert started == {sw.name: niceness for sw in plan.switches}
        plan = Plan.from_json(plan.to_json())      # as plan.json keeps it
        (tmp_path / "switch_args.json").write_text("[[], []]")
        started.clear()
        fabric.restart_switch(plan, tmp_path, "tor3")
        assert started == {"tor3": niceness}


# ---- which pairs a degraded schedule leaves without a per-hop route --------------------------
def _routes(failed, source_routed=()):
    from types import SimpleNamespace

    from controller.routing.uro import UroParams, compute
    from controller.schedule import round_robin
    from controller.schedule.degrade import without

    sched = round_robin(8, 2)
    return SimpleNamespace(schedule=sched, failed=failed, source_routed=tuple(source_routed),
                           per_hop=compute(without(sched, failed), UroParams(k=3, max_hops=2)))


def test_unreachable_names_the_pairs_a_cut_disconnects_under_the_hop_bound():
    """round-robin 8x2, M = 2, ToR 3's uplink 1 cut: ToR 5 met ToR 3 only over that cable
    within two hops (what `uro emulate fail link 3 1` reports, and the drill test expects)."""
    from controller.emulate.daemon import unreachable
    from controller.schedule.degrade import Failed

    assert unreachable(_routes(Failed())) == []
    assert unreachable(_routes(Failed(uplinks=frozenset({(3, 1)})))) == [(5, 3)]
    assert unreachable(_routes(Failed(uplinks=frozenset({(3, 1)})), source_routed=[3])) == []   # not per hop
    # a failed ToR's own pairs are not "unreachable": nothing is meant to reach it
    assert all(2 not in p for p in unreachable(_routes(Failed(tors=frozenset({2})))))


def test_stop_returns_once_the_process_is_gone_and_its_port_free(tmp_path):
    """A switch restarted at once binds the ports of the one stopped: ``stop`` returns only
    when the process is gone. The stand-in ignores SIGTERM (so SIGKILL ends it) and holds
    512 MiB, which the kernel frees before the socket, so a ``stop`` that returned right
    after SIGKILL would leave the port bound for a while."""
    import socket
    import sys
    import time

    from controller import process

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code = ("import signal, socket, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "m = bytearray(512 << 20); s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1]))); "
            "s.listen(); print('ready', flush=True); time.sleep(60)")
    process.start("sw", [sys.executable, "-c", code, str(port)], tmp_path / "pids", tmp_path / "logs")
    log = tmp_path / "logs" / "sw.log"
    end = time.time() + 30
    while "ready" not in (log.read_text() if log.exists() else "") and time.time() < end:
        time.sleep(0.05)
    assert process.stop(tmp_path / "pids", "sw", timeout=0.5) is True
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))          # EADDRINUSE while the old process still dies


def test_a_ping_stream_waits_for_its_answers_without_moving_pings_output():
    """``PingStream.wait_answered`` counts the answers ping has written so far and returns
    at ``k``; ping's later output still lands after them (its file offset is untouched), so
    ``wait`` reads every line."""
    import subprocess
    import sys
    import tempfile

    from controller.emulate import traffic

    s = object.__new__(traffic.PingStream)
    s.out = tempfile.TemporaryFile("w+")
    code = ("import sys, time\n"
            "for i in range(1, 31):\n"
            "    print(f'[{time.time():.6f}] 64 bytes from 10.0.0.2: icmp_seq={i} ttl=64 time=0.1 ms', flush=True)\n"
            "    time.sleep(0.01 if i < 10 else 0.05)\n"
            "print('30 packets transmitted, 30 received', flush=True)\n")
    s.p = subprocess.Popen([sys.executable, "-c", code], stdout=s.out, text=True)
    s.n, s.interval, s.answered, s.transmitted = 30, 0.05, {}, None
    got = s.wait_answered(10, timeout=30)
    assert 10 <= got < 30 and s.p.poll() is None
    assert s.wait_answered(1000, timeout=60) == 30         # ping ended: returns what it has
    assert sorted(s.wait(timeout=5)) == list(range(1, 31)) and s.transmitted == 30


# ---- liveness on the emulated fabric: [liveness], the faults no port state shows, the marks ---
def test_liveness_key_reaches_the_daemon_and_needs_sync_mode():
    plan = make_plan(_cfg(), _ports())
    arts = {r: fabric.Artifacts(Path(f"/x/{r}.p4info.txtpb"), Path(f"/x/{r}.json"), Path(f"/x/{r}.contract.json"))
            for r in ("tor", "ocs")}
    assert "liveness" not in tomllib.loads(net_toml(_cfg(), plan, arts))
    on = _cfg(clock={"mode": "sync"}, liveness={"enabled": True, "down_after": 2})
    assert on.liveness_down_after == 2
    assert tomllib.loads(net_toml(on, plan, arts))["liveness"] == {"enabled": True, "down_after": 2}
    assert _cfg(clock={"mode": "sync"}, liveness={"enabled": True}).liveness_down_after == 3
    assert _cfg(liveness={"enabled": False, "down_after": 5}).liveness_down_after is None


@pytest.mark.parametrize("over, needle", [
    ({"liveness": {"enabled": True}}, 'liveness.enabled needs clock.mode = "sync"'),
    ({"clock": {"mode": "sync"}, "liveness": {"enabled": True, "down_after": 0}}, "liveness.down_after must be in 1..255"),
    ({"clock": {"mode": "sync"}, "liveness": {"enabled": "yes"}}, "liveness.enabled must be true or false"),
    ({"liveness": {"window": 3}}, "unknown key 'liveness.window'"),
])
def test_bad_liveness_config_names_the_key(over, needle):
    with pytest.raises(EmuConfigError) as e:
        _cfg(**over)
    assert needle in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("ids, needle", [
    ([4, 1], "give TOR UPLINK and the slice(s)"),
    ([8, 1, 0], "port 8 1: ToR must be in 0..7"),
    ([4, 2, 0], "port 4 2: uplink must be in 0..1"),
    ([4, 1, 4], "port 4 1: slice 4 is not a slice of the schedule (0..3)"),
    ([4, 1, 2, 2], "slice listed twice"),
])
def test_a_bad_port_fault_is_one_line(ids, needle):
    from controller.emulate import faults

    with pytest.raises(faults.FaultError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        faults.check_port(make_plan(_cfg(), _ports()), 4, ids)


def test_port_and_id_faults_are_checked():
    from controller.emulate import faults

    plan = make_plan(_cfg(), _ports())
    assert faults.check_port(plan, 4, [4, 1, 2, 0]) == (4, 1, (0, 2))
    assert faults.check_id(plan, [6, 2]) == (6, 2)
    for ids, needle in (([6], "give TOR and the id"), ([6, 6], "another ToR's"), ([6, 8], "another ToR's"),
                        ([9, 1], "ToR must be in 0..7")):
        with pytest.raises(faults.FaultError, match=needle):
            faults.check_id(plan, ids)
    assert faults.port_cell(plan, 4, 1) == 9
    with pytest.raises(faults.FaultError, match="no emulated port fault"):
        faults.port_register({"fault": {}})
    with pytest.raises(faults.FaultError, match="tor3: its program has no emulated id fault"):
        faults.id_register({"clock": {"fault": {"registers": {"rate": {}}}}}, "tor3")


def test_fail_port_and_id_argument_counts_are_checked(tmp_path, capsys):
    assert main(["emulate", "fail", "port", "3", "1", "--prefix", "uzz", "--state-dir", str(tmp_path)]) == 2
    assert "expected `port TOR UPLINK SLICE...`" in capsys.readouterr().err
    assert main(["emulate", "recover", "id", "3", "--prefix", "uzz", "--state-dir", str(tmp_path)]) == 2
    assert "expected `id TOR AS`" in capsys.readouterr().err


def test_the_marks_a_failure_must_leave_are_the_circuits_it_silences():
    from controller.emulate.livewatch import expected_marks
    from controller.schedule import round_robin

    peer = round_robin(8, 2).peer
    cut = expected_marks(peer, "link", [3, 0])
    ends = {int(peer[s, 3, 0]) for s in range(4) if peer[s, 3, 0] >= 0}
    assert set(cut) == {3} | ends
    assert cut[3] == {(s, 0) for s in range(4) if peer[s, 3, 0] >= 0}
    assert all(cut[p] == {(s, 0) for s in range(4) if peer[s, 3, 0] == p} for p in ends)
    port = expected_marks(peer, "port", [4, 1, 1, 2])
    assert port[4] == {(1, 1), (2, 1)} and sum(len(v) for v in port.values()) == 4
    dead = expected_marks(peer, "tor", [5])
    assert 5 not in dead and dead == expected_marks(peer, "id", [5, 2])
    assert all(int(peer[s, t, u]) == 5 for t, cs in dead.items() for s, u in cs)
    assert sum(len(v) for v in dead.values()) == int((peer == 5).sum())
    with pytest.raises(ValueError):
        expected_marks(peer, "ocs", [0])


def test_a_tor_routes_around_a_failed_circuit_by_its_own_mark_or_a_notice_from_an_end_that_marked_it():
    """The circuits of a failure's marks, each once with the ends that mark it; a ToR knows
    one when it is such an end and marked it, or when its notice map has it from such an
    end (not from an end that does not mark it, not another slice or uplink); the notice
    map's cells decode to (origin, slice, uplink)."""
    from controller.emulate.livewatch import expected_marks, failed_circuits, knows, notices_of
    from controller.schedule import round_robin

    peer = round_robin(8, 2).peer
    cut = failed_circuits(peer, expected_marks(peer, "link", [3, 0]))
    assert len(cut) == sum(1 for s in range(4) if peer[s, 3, 0] >= 0)
    assert all(ends == {3, int(peer[s, 3, u])} and u == 0 for s, u, ends in cut)
    dead = failed_circuits(peer, expected_marks(peer, "tor", [5]))
    assert len(dead) == int((peer == 5).sum()) and all(5 not in ends and len(ends) == 1 for _s, _u, ends in dead)
    s, u, ends = c = dead[0]
    (end,) = ends
    far = next(t for t in range(8) if t not in (end, 5))
    assert knows(end, c, frozenset({(s, u)}), frozenset())
    assert not knows(end, c, frozenset({((s + 1) % 4, u)}), frozenset())
    assert not knows(far, c, frozenset({(s, u)}), frozenset())          # not an end: its mask is its own
    assert knows(far, c, frozenset(), frozenset({(end, s, u)}))
    assert not knows(far, c, frozenset(), frozenset({(5, s, u)}))        # the dead end tells nothing
    assert not knows(far, c, frozenset(), frozenset({(end, s, 1 - u), (end, (s + 1) % 4, u)}))
    assert notices_of([0, 0b10, 0, 0, 0b11, 0], 3, 2) == {(0, 1, 1), (1, 1, 0), (1, 1, 1)}
    assert notices_of([0] * 6, 3, 2) == frozenset()


def test_the_mark_watch_reads_a_tor_again_once_it_answers_after_a_restart(monkeypatch):
    """A ToR whose switch stops answering (a dead-ToR failure) reads as no marks from then
    on, with its gap open and its error kept; once the restarted switch answers again its
    marks are read again (a new session) and the gap is closed: the ToR is watched for the
    rest of the run, not left at what it held before it stopped."""
    import time

    from controller.emulate import livewatch, procs
    from controller.liveness.marks import circuits_of
    from controller.p4gen import render as rnd
    from controller.p4gen.profile import load as load_profile

    plan = make_plan(_cfg(), _ports())
    contract = rnd.contract(load_profile("tiny"), "tor")
    mask_reg = contract["liveness"]["registers"]["mask"]["name"]
    switch = {"up": True, "mask": 0b1, "sessions": 0}

    class FakeCLI:
        def __init__(self, port, name, timeout=60.0):
            if not switch["up"]:
                raise procs.ProcError(f"{name}: start: simple_switch_CLI exited: could not connect")
            switch["sessions"] += 1

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def read_registers(self, cells):
            if not switch["up"]:
                raise procs.ProcError("tor0: register_read failed: Error: connection lost")
            return {c: switch["mask"] if c[0] == mask_reg else 0 for c in cells}

    def until(pred, what):
        end = time.monotonic() + 10
        while not pred():
            assert time.monotonic() < end, what
            time.sleep(0.005)

    monkeypatch.setattr(procs, "RuntimeCLI", FakeCLI)
    d = plan.uplinks
    w = livewatch.MarkWatch(plan, contract, tors=[0], poll_s=0.002, retry_s=0.005).start()
    try:
        until(lambda: w.marks(0) == circuits_of(0b1, d), "the first marks read")
        assert w.gaps[0] == [] and 0 not in w.errors
        switch["up"] = False
        until(lambda: w.marks(0) == frozenset(), "a stopped ToR reads as no marks")
        assert 0 in w.errors and len(w.gaps[0]) == 1 and w.gaps[0][0][1] is None
        t_down = w.gaps[0][0][0]
        switch["mask"], switch["up"] = 0b110, True
        until(lambda: w.marks(0) == circuits_of(0b110, d), "the restarted ToR's marks read again")
        assert 0 not in w.errors and switch["sessions"] >= 2
        assert len(w.gaps[0]) == 1 and w.gaps[0][0][1] is not None and w.gaps[0][0][1] > t_down
        assert [h[1] for h in w.history[0]] == [circuits_of(0b1, d), frozenset(), circuits_of(0b110, d)]
        assert w.first(0, lambda m, _w, _n: m == circuits_of(0b110, d), t_down) >= w.gaps[0][0][1]
    finally:
        w.stop()


def test_fail_and_recover_port_and_id_write_the_fault_registers_and_record_the_drill(tmp_path, monkeypatch):
    """`uro emulate fail port|id` on a fabric's state (the register writes recorded instead
    of sent over Thrift; no daemon): the OCS port's cell gets the slices' bits, the ToR's id
    register AS + 1; the drill is recorded with its slices sorted; a second fault on the same
    port, recovering another set of slices, or an id on a ToR that has one is refused;
    recover writes 0 and forgets the drill."""
    from controller.emulate import faults, procs
    from controller.p4gen import render as rnd
    from controller.p4gen.profile import load as load_profile

    plan = make_plan(_cfg(), _ports())
    sdir = tmp_path / "ut"
    sdir.mkdir()
    (sdir / "plan.json").write_text(plan.to_json())
    prof = load_profile("tiny")
    arts = {}
    for role in ("tor", "ocs"):
        c = sdir / f"{role}.contract.json"
        c.write_text(__import__("json").dumps(rnd.contract(prof, role)))
        arts[role] = {"p4info": "x", "device_config": "x", "contract": str(c)}
    (sdir / "artifacts.json").write_text(__import__("json").dumps(arts))
    writes = []
    monkeypatch.setattr(procs, "write_registers", lambda port, values, name: writes.append((name, values)))
    monkeypatch.setattr(faults.procs, "write_registers", lambda port, values, name: writes.append((name, values)))
    out = fabric.fail("ut", "port", [4, 1, 2, 0], tmp_path)
    assert "dead in slice(s) 0, 2" in out[0] and "nothing reacts" in out[1]
    assert writes[-1] == ("ocs", {("OcsIngress.port_fault", 9): 0b101})
    assert fabric.read_failures(sdir) == [{"kind": "port", "ids": [4, 1, 0, 2]}]
    with pytest.raises(fabric.FabricError, match="already failed"):
        fabric.fail("ut", "port", [4, 1, 0, 2], tmp_path)
    with pytest.raises(fabric.FabricError, match=r"port 4 1: already dead in slice\(s\) 0 2"):
        fabric.fail("ut", "port", [4, 1, 3], tmp_path)
    with pytest.raises(fabric.FabricError, match="port 4 1 3 is not failed"):
        fabric.recover("ut", "port", [4, 1, 3], tmp_path)
    fabric.fail("ut", "id", [6, 2], tmp_path)
    assert writes[-1] == ("tor6", {("UroIngress.clock_fault_id", 0): 3})
    with pytest.raises(fabric.FabricError, match="tor6 goes by id 2 already"):
        fabric.fail("ut", "id", [6, 3], tmp_path)
    fabric.recover("ut", "port", [4, 1, 0, 2], tmp_path)
    fabric.recover("ut", "id", [6, 2], tmp_path)
    assert writes[-2:] == [("ocs", {("OcsIngress.port_fault", 9): 0}), ("tor6", {("UroIngress.clock_fault_id", 0): 0})]
    assert fabric.read_failures(sdir) == []
    n = len(writes)
    with pytest.raises(faults.FaultError, match="slice 4 is not a slice"):
        fabric.fail("ut", "port", [4, 1, 4], tmp_path)
    assert len(writes) == n and fabric.read_failures(sdir) == []     # nothing written
