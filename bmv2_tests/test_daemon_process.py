"""`uro daemon` as a process against real simple_switch_grpc: a restarted switch gets its
pipeline and entries back (counted), drift made behind its back (over Thrift) is repaired
within one reconcile period, bad configs stop it before anything is written, a second
daemon with a lower election id is refused and writes nothing, SIGHUP reloads (a bad
config is refused), SIGTERM stops it cleanly, a link going down (netlink) is routed
around. Every process is started and stopped by PID."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.agent.bmv2_process import free_port
from daemon_util import REPO, DaemonProc, SwitchProc, need_daemon_stack, status, switch_state, until, write_net


@pytest.fixture(autouse=True)
def stack():
    need_daemon_stack()


def programs_of(artifacts) -> dict:
    out = {}
    for role, (p4info, js, _contract) in artifacts.items():
        out[role] = (p4info, js, p4info.parent / f"{p4info.name.split('.')[0]}.contract.json")
    return out


def tor(t: int, sw: SwitchProc, **kw) -> dict:
    d = {"name": f"tor{t}", "role": "tor", "tor": t, "address": sw.address,
         "ports": {"hosts": [0, 1], "uplinks": [2, 3]}}
    d.update(kw)
    return d


@pytest.fixture
def net(tmp_path, artifacts):
    """Two ToR switches and the OCS emulator (no data ports needed: control-plane tests)."""
    sws = [SwitchProc(tmp_path, n).start() for n in ("tor0", "tor1", "ocs")]
    procs = []
    yield sws, programs_of(artifacts), procs
    for p in procs:
        p.stop()
    for s in sws:
        s.stop()


def desired(config: Path, name: str):
    """What the daemon should have written on ``name`` (computed in-process from the config)."""
    from controller.daemon.config import load
    from controller.daemon.controller import Prepared
    from controller.agent.backend import backend_for
    from controller.schedule.degrade import Failed

    cfg = load(config)
    prep = Prepared(cfg, Failed(), backend_for)
    return prep.roles[name], prep.routes


def check_switch(sw: SwitchProc, program, config: Path, name: str, gen=None):
    """The switch holds exactly: static entries, one complete generation, the config, and
    in the other generation nothing or the routes' shadow (never live; docs/daemon.md
    "Diff-only writes")."""
    from controller.agent.diff import same_state
    from controller.agent import generations as gens

    role, routes = desired(config, name)
    st, _ = switch_state(sw.address, program)
    act, down = role.active(st)
    assert act is not None and (gen is None or act == gen)
    p = gens.split(st, role.config_table())
    assert same_state(p.gens[act], role.routes(routes, act)), f"{name}: generation {act} is not the desired routes"
    assert p.entries(1 - act) == 0 or same_state(p.gens[1 - act], role.routes(routes, 1 - act)), \
        f"{name}: leftovers in generation {1 - act}"
    assert role.live(st) == frozenset({act}), f"{name}: generation {1 - act} is live"
    assert same_state(gens.static_as_read(p, role.static()), role.static())
    return act


def test_switch_restart_is_restored_and_counted_then_drift_repaired(net, tmp_path):
    sws, progs, procs = net
    port = free_port()
    cfg = write_net(tmp_path / "net.toml", progs, [tor(0, sws[0]), tor(1, sws[1]),
                                                   {"name": "ocs", "role": "ocs", "address": sws[2].address}],
                    status_port=port, reconcile_s=1.0)
    d = DaemonProc(cfg, tmp_path)
    procs.append(d)
    d.wait_event("api.listening")
    st = until(lambda: status(port), what="status API")
    assert {s["name"]: s["generation"] for s in st["switches"]} == {"tor0": 0, "tor1": 0, "ocs": 0}
    uro_before = sws[0].table_count("UroIngress.uro_next_hop")
    assert uro_before > 0
    until(lambda: status(port)["clock"]["timers_sent"] > 5, what="timers flowing")

    # kill the switch and start it again, empty, at the same address
    sws[0].kill()
    sws[0].start()                    # (the daemon may restore it before the next line runs)
    s0 = until(lambda: next(s for s in status(port)["switches"] if s["name"] == "tor0" and s["restores"] == 1
                            and s["state"] == "up" and s["generation"] == 0), timeout=30, what="restore")
    assert s0["reconnects"] >= 1 and s0["pipeline_loads"] == 2
    assert sws[0].table_count("UroIngress.uro_next_hop") == uro_before
    # the restored switch takes timers again (the daemon's first one after the restore is a SYNC)
    until(lambda: "timer_sync" in json.dumps(next(s for s in status(port)["switches"] if s["name"] == "tor0")
                                             ["counters"]) and
          next(s for s in status(port)["switches"] if s["name"] == "tor0")["counters"]["events"]["timer"] > 3,
          what="timers applied by the restored switch")

    # bmv2 answers each route object in the bytes the daemon encodes: the reconcile every
    # second compares them in bulk (docs/daemon.md "The reconcile")
    until(lambda: next(s for s in status(port)["switches"] if s["name"] == "tor1")["reconcile_in_bulk"] >= 2,
          timeout=10, what="reconciles compared in bulk")

    # drift behind the daemon's back: another controller (higher election id) takes over,
    # deletes two route entries, modifies one, masks an uplink, and leaves. (Thrift edits
    # would desync bmv2's P4Runtime server from its own table store, so they are no test.)
    n1 = sws[1].table_count("UroIngress.uro_next_hop")
    meddle(sws[1].address, progs["tor"])   # (it checks its changes landed; the daemon may repair them at once)
    s1 = until(lambda: next(s for s in status(port)["switches"] if s["name"] == "tor1" and s["repairs"] >= 4),
               timeout=5, what="drift repaired within a reconcile period (1 s) of the daemon being primary again")
    assert sws[1].table_count("UroIngress.uro_next_hop") == n1 and s1["generation"] == 0
    assert s1["down_uplinks"] == [] and s1["state"] == "up"
    met = __import__("urllib.request").request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
    assert 'uro_switch_restores_total{switch="tor0"} 1.0' in met
    assert 'uro_reconcile_repairs_total{switch="tor1"}' in met

    # SIGTERM: clean stop; the switches keep what they hold
    assert d.stop() == 0
    ev = [e["event"] for e in d.events()]
    assert ev[-1] == "daemon.stopped" and "daemon.signal" in ev
    for i, name in enumerate(("tor0", "tor1", "ocs")):
        check_switch(sws[i], progs["ocs" if name == "ocs" else "tor"], cfg, name, gen=0)


def meddle(address: str, program) -> None:
    """Another controller: primary with a higher election id, changes things, leaves."""
    from controller.agent.backend import SwitchAddress, backend_for
    from controller.agent.diff import Diff
    from controller.agent import generations as gens
    from controller.agent.desired import TorRole
    from controller.tables.state import Batch, TableEntry

    p4info, js, cpath = program
    contract = json.loads(Path(cpath).read_text())
    cls = backend_for("bmv2")
    b = cls(SwitchAddress(name="meddler", address=address, election_id=10**6, timeout_s=5))
    b.connect()
    try:
        b.set_pipeline(cls.pipeline("tor", contract, {"p4info": Path(p4info), "device_config": Path(js)}))
        st = b.read_state()
        role = TorRole(contract, 1)
        p = gens.split(st, role.config_table())
        uro = [e for e in p.gens[0].entries if e.table.endswith("uro_next_hop")]
        e = uro[2]
        changed = TableEntry(e.table, e.match, e.action, tuple((k, 1 if k == "n" else v) for k, v in e.params),
                             e.is_default, e.group_id, e.priority)
        cfg = role.config(0, frozenset({1}))
        b.apply(Diff(modify=Batch(entries=[changed, cfg]), delete=Batch(entries=uro[:2])))
        after = {(e.table, e.match): e for e in b.read_state().entries}
        assert (uro[0].table, uro[0].match) not in after and after[(e.table, e.match)] == changed
    finally:
        b.close()


def run_daemon(cfg: Path, *extra) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "controller.cli", "daemon", "--config", str(cfg), *extra],
                          capture_output=True, text=True, cwd=REPO, timeout=180)


def test_bad_configs_are_refused_and_nothing_is_written(net, tmp_path):
    sws, progs, procs = net
    ocs = {"name": "ocs", "role": "ocs", "address": sws[2].address}
    port = free_port()
    dead = f"127.0.0.1:{free_port()}"
    cases = [
        ([tor(0, sws[0], role="leaf"), ocs], {}, "switch 'tor0': role: unknown role 'leaf'"),
        ([tor(0, sws[0]), tor(0, sws[1], name="tor1"), ocs], {}, "switch 'tor1': tor: ToR id 0 is also switch 'tor0'"),
        ([tor(0, sws[0], ports={"hosts": [0, 1], "uplinks": [2]}), ocs], {}, "ports.uplinks: uplink 1 is missing"),
        ([tor(0, sws[0]), ocs], {"schedule": 'generate = "round-robin"\ntors = 10\nuplinks = 2'},
         "tors = 8, the schedule has 10"),
        ([tor(0, sws[0]), tor(1, sws[1], address=dead), ocs], {}, f"switch 'tor1': address: {dead} does not answer"),
    ]
    # a contract that does not match its P4Info (one parameter's width): refused offline
    p4info, js, cpath = progs["tor"]
    c = json.loads(Path(cpath).read_text())
    for prm in c["tables"]["uro_next_hop"]["actions"]["set_alternatives"]["params"]:
        if prm["name"] == "slice1":
            prm["bitwidth"] += 1
    bad_contract = tmp_path / "tor_bad.contract.json"
    bad_contract.write_text(json.dumps(c))
    cases.append(([tor(0, sws[0]), ocs], {"programs": {**progs, "tor": (p4info, js, bad_contract)}},
                  "[program.tor]: UroIngress.set_alternatives: parameter 'slice1' is"))
    for i, (switches, kw, msg) in enumerate(cases):
        kw = dict(kw)
        cfg = write_net(tmp_path / f"bad{i}.toml", kw.pop("programs", progs), switches, status_port=port, **kw)
        r = run_daemon(cfg)
        assert r.returncode == 2, (msg, r.stderr[-1500:])
        last = r.stderr.strip().splitlines()[-1]
        assert last.startswith("uro: error: ") and msg in last, (msg, last)
    for s, prog in zip(sws, ("tor", "tor", "ocs")):
        st, _ = switch_state(s.address, progs[prog])
        assert st is None, f"{s.name}: a pipeline was written"


def test_second_daemon_with_lower_election_id_is_refused_and_never_writes(net, tmp_path):
    sws, progs, procs = net
    p1, p2 = free_port(), free_port()
    switches = [tor(0, sws[0]), {"name": "ocs", "role": "ocs", "address": sws[2].address}]
    cfg1 = write_net(tmp_path / "a.toml", progs, switches, status_port=p1, election_id=20)
    d = DaemonProc(cfg1, tmp_path, "a")
    procs.append(d)
    d.wait_event("api.listening")
    before = status(p1)["switches"]
    cfg2 = write_net(tmp_path / "b.toml", progs, switches, status_port=p2, election_id=5,
                     routing='source_routed = []\n[routing.per_hop]\nk = 2')
    r = run_daemon(cfg2)
    assert r.returncode == 2
    last = r.stderr.strip().splitlines()[-1]
    assert "election_id: 5 is refused by the switch" in last and "election id 20" in last, last
    after = status(p1)["switches"]
    assert [(s["name"], s["state"], s["generation"], s["entries_written"]) for s in after] == \
        [(s["name"], s["state"], s["generation"], s["entries_written"]) for s in before]
    assert d.stop() == 0
    check_switch(sws[0], progs["tor"], cfg1, "tor0", gen=0)     # k = 3 routes, not the refused daemon's k = 2


def test_sighup_reload_swaps_hitlessly_and_refuses_a_bad_config(net, tmp_path):
    """SIGHUP reloads (a bad config refused, the running one kept); SIGUSR1 logs where
    every thread of the daemon is."""
    sws, progs, procs = net
    port = free_port()
    switches = [tor(0, sws[0]), {"name": "ocs", "role": "ocs", "address": sws[2].address}]
    cfg = write_net(tmp_path / "net.toml", progs, switches, status_port=port)
    d = DaemonProc(cfg, tmp_path)
    procs.append(d)
    d.wait_event("api.listening")
    write_net(cfg, progs, switches, status_port=port, routing='source_routed = [5]\n[routing.per_hop]\nk = 3\n'
              '[routing.source]\nalgo = "ucmp"\nh_max = 4\nengine = "numpy"')
    d.signal(signal.SIGHUP)
    d.wait_event("reload.done", timeout=120)
    s0 = until(lambda: next(s for s in status(port)["switches"] if s["name"] == "tor0" and s["generation"] == 1),
               what="new generation active")
    assert s0["swaps"] == 1
    good = cfg.read_text()
    cfg.write_text(good.replace('role = "ocs"', 'role = "optical"'))
    d.signal(signal.SIGHUP)
    e = d.wait_event("reload.refused")
    assert "unknown role 'optical'" in e["error"]
    st = status(port)
    assert st["reloads"]["refused"] == 1 and st["routes"]["source_routed"] == [5]
    d.signal(signal.SIGUSR1)
    threads = d.wait_event("daemon.threads")["threads"]
    for fn in ("_control", "_maintain", "run"):      # the control, maintenance and main threads
        assert any("daemon/run.py:" in f and f.endswith(f" in {fn}") for stack in threads.values() for f in stack), \
            (fn, threads)
    assert d.stop() == 0
    cfg.write_text(good)
    check_switch(sws[0], progs["tor"], cfg, "tor0", gen=1)


def test_link_down_over_netlink_is_routed_around(tmp_path, artifacts, veths):
    """tor0's uplink 1 is a veth watched over netlink; setting its peer end down is a
    detected failure: the down mask first, then a new generation; up again recovers."""
    tor_ifaces = [s for s, _ in veths[:4]]
    sw = SwitchProc(tmp_path, "tor0", ifaces=tor_ifaces).start()
    ocs = SwitchProc(tmp_path, "ocs").start()
    progs = programs_of(artifacts)
    port = free_port()
    up_if, peer_if = veths[3]          # uplink 1 = port 3
    cfg = write_net(tmp_path / "net.toml", progs,
                    [tor(0, sw, ports={"hosts": [0, 1], "uplinks": [2, 3], "interfaces": ["", up_if]}),
                     {"name": "ocs", "role": "ocs", "address": ocs.address}], status_port=port)
    d = DaemonProc(cfg, tmp_path)
    try:
        d.wait_event("links.watching")
        subprocess.run(["ip", "link", "set", peer_if, "down"], check=True)
        e = d.wait_event("failure.handled", timeout=60)
        assert e["source"] == "netlink" and e["kind"] == "uplink" and e["target"] == [0, 1]
        assert e["dataplane_ms"] is not None and e["generation_s"] is not None
        s0 = next(s for s in status(port)["switches"] if s["name"] == "tor0")
        assert s0["down_uplinks"] == [1] and s0["generation"] == 1
        assert "down=0x2" in sw.cli("table_dump UroIngress.config").replace(" ", "").lower() or \
            s0["down_uplinks"] == [1]
        subprocess.run(["ip", "link", "set", peer_if, "up"], check=True)
        until(lambda: next(s for s in status(port)["switches"] if s["name"] == "tor0")["down_uplinks"] == [] and
              status(port)["failures"]["active"]["uplinks"] == [], timeout=60, what="recovery")
        ev = d.wait_event("failure.handled", op="recover")
        assert ev["source"] == "netlink" and ev["generation_s"] is not None
    finally:
        subprocess.run(["ip", "link", "set", peer_if, "up"], capture_output=True)
        try:
            d.stop()
        finally:
            sw.stop()
            ocs.stop()
