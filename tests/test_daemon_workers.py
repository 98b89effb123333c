"""The daemon's switches owned by worker processes (``[daemon] workers``,
controller/daemon/workers.py) on a small simulated fabric: the network ends exactly as
the one-process daemon leaves it -- after the start and after a failure's update -- also
when a worker dies in the middle of an update (its switches taken over by the other, no
switch on a mix of generations, no write the switch refused); the bad inputs: a fabric
that does not simulate the config's devices, a scheduler that cannot be reached."""

from __future__ import annotations

import pytest

pytest.importorskip("finsy.proto", reason="needs the agent extra")
pytest.importorskip("dask.distributed", reason="needs the dask extra")

from benchmarks.bench_fabric import PER_HOP, net_config  # noqa: E402
from controller.agent.backend import BackendError, NotPrimary  # noqa: E402
from controller.agent.diff import diff, same_state  # noqa: E402
from controller.agent.p4runtime import P4RuntimeClient  # noqa: E402
from controller.daemon.changes import Change  # noqa: E402
from controller.daemon.config import ConfigError, load  # noqa: E402
from controller.daemon.controller import Controller  # noqa: E402
from controller.daemon.log import EventLog  # noqa: E402
from controller.daemon.workers import DistributedController, Fault  # noqa: E402
from controller.simfabric.process import SimFabric  # noqa: E402
from tiny_program import build_tiny_tor  # noqa: E402

pytestmark = pytest.mark.p4c

TORS, UPLINKS = 8, 2
CUT = ("uplink", (5, 1))


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build_tiny_tor(tmp_path_factory.mktemp("workers_build"))


def config(tmp_path, program, fabric, workers: int, silent_s: float | None = None):
    path = net_config(tmp_path / f"net{workers}.toml", program, fabric, tors=TORS, uplinks=UPLINKS,
                      routing=PER_HOP, slice_ms=1000, status_port=0, hold_s=0.05, workers=workers,
                      generate="round-robin")
    if silent_s is not None:
        path.write_text(path.read_text().replace(f"workers = {workers}", f"workers = {workers}\n"
                                                 f"worker_silent_s = {silent_s:g}"))
    return load(path)


#: the test's own reads of the simulated fabric: a deadline for a starved CI lane (a read
#: of a tiny device takes milliseconds; in a loaded CI lane one waited past 10 s)
READ_TIMEOUT_S = 60


class Reader(P4RuntimeClient):
    """A client that only reads (a lower election id than the daemon's: a backup)."""

    def _arbitrate(self) -> None:
        try:
            super()._arbitrate()
        except NotPrimary:
            pass


def states(fabric) -> list:
    """Every device's whole state, read by a client of its own."""
    out = []
    for t in range(TORS):
        c = Reader(fabric.address(t), device_id=t, election_id=1, timeout=READ_TIMEOUT_S, name=f"reader{t}")
        try:
            c.use_p4info(c.get_p4info())
            out.append(c.read_state())
        finally:
            c.close()
    return out


def assert_same(got: list, want: list) -> None:
    for t, (g, w) in enumerate(zip(got, want)):
        if not same_state(g, w):
            d = diff(g, w)
            pytest.fail(f"ToR {t} differs from the one-process daemon's: {d.insert} / {d.modify} / {d.delete}"[:3000])


def fail(ctl, op="fail") -> dict:
    ctl.submit(Change(op, *CUT, source="api"))
    ctl.handle_jobs()
    return ctl.events[-1]


@pytest.fixture(scope="module")
def reference(program, tmp_path_factory):
    """The one-process daemon's network: after the start, after the cut cable."""
    tmp = tmp_path_factory.mktemp("reference")
    with SimFabric(tmp / "fabric", TORS) as fabric:
        ctl = Controller(config(tmp, program, fabric, 0), log=EventLog(stream=open(tmp / "log", "w")))
        try:
            ctl.start()
            started = states(fabric)
            rep = fail(ctl)
            assert rep.get("error") is None
            failed = states(fabric)
        finally:
            ctl.shutdown()
    return started, failed


def run_workers(tmp_path, program, fault: Fault | None = None, silent_s: float | None = None,
                held: dict | None = None):
    """The network on two workers, started, then the cut cable (``fault`` armed on the
    first worker before it); ``held`` gets the fabric and the controller, for a caller
    that must stop them itself (a run that hangs)."""
    with SimFabric(tmp_path / "fabric", TORS) as fabric:
        log = EventLog(stream=open(tmp_path / "log", "w"))
        log.lines = []
        ctl = DistributedController(config(tmp_path, program, fabric, 2, silent_s), log=log)
        if held is not None:
            held.update(fabric=fabric, ctl=ctl)
        try:
            ctl.start()
            started = states(fabric)
            owners = ctl.status()["workers"]["owners"]
            assert sorted(len(v) for v in owners.values()) == [TORS // 2, TORS // 2]
            if fault is not None:
                first = sorted(ctl.workers.actors)[0]
                ctl.workers.actors[first].arm(fault).result()
            rep = fail(ctl)
            failed = states(fabric)
            st = ctl.status()
        finally:
            ctl.shutdown()
    return started, failed, rep, st, log.lines


def test_two_workers_program_the_network_exactly_as_one_process(tmp_path, program, reference):
    started, failed, rep, st, _ = run_workers(tmp_path, program)
    assert_same(started, reference[0])
    assert rep.get("error") is None and rep["generation_s"] is not None
    assert_same(failed, reference[1])
    owners = st["workers"]["owners"]
    assert {s["name"]: s["owner"] for s in st["switches"]} == {n: w for w, ns in owners.items() for n in ns}
    assert not st["workers"]["lost"]


@pytest.mark.parametrize("phase", ["prepare_generation", "activate"])
def test_a_worker_killed_mid_update_the_others_finish_it(tmp_path, program, reference, phase):
    started, failed, rep, st, lines = run_workers(tmp_path, program, Fault(phase, after=2))
    assert_same(started, reference[0])
    lost = st["workers"]["lost"]
    assert len(lost) == 1 and not any(lost[0] == w for w in st["workers"]["owners"])
    # the survivor owns every switch, and they end exactly as the one-process daemon's
    assert [len(v) for v in st["workers"]["owners"].values()] == [TORS]
    assert all(s["state"] == "up" and s["diff_refused"] == 0 for s in st["switches"])
    assert rep.get("error") is None, rep
    assert_same(failed, reference[1])
    assert any(e["event"] == "worker.takeover" for e in lines)


#: a frozen worker is dropped after this long silent (the daemon's default is 30 s)
SILENT_S = 4.0
#: a bound on the update with a frozen worker, so that the test fails instead of hanging:
#: Dask's own default drops a silent worker after 5 to 10 minutes
FROZEN_LIMIT_S = 150.0


def test_a_worker_frozen_mid_update_is_dropped_and_the_others_finish_it(tmp_path, program, reference, capfd):
    """A worker whose process freezes in the middle of an update (its interpreter held, as
    by a deadlock on the GIL: alive, silent) is dropped after ``worker_silent_s`` and the
    update completes on the other worker, the network ending exactly as the one-process
    daemon's; before it is dropped, the frozen worker printed its threads' stacks, the
    frozen call among them."""
    import threading
    out: list = []
    held: dict = {}
    t = threading.Thread(target=lambda: out.append(run_workers(
        tmp_path, program, Fault("prepare_generation", after=2, freeze=True), silent_s=SILENT_S, held=held)),
        daemon=True)
    t.start()
    t.join(FROZEN_LIMIT_S)
    if t.is_alive():
        # the update hangs on the frozen worker: stop the fabric and the cluster here (the
        # stuck thread never leaves run_workers' cleanup), then fail
        held["fabric"].stop()
        cluster = held["ctl"].workers.cluster
        if cluster is not None:
            cluster.close(timeout=30)
    assert not t.is_alive(), f"the update did not finish within {FROZEN_LIMIT_S:g} s: the frozen worker was not dropped"
    assert out, "run_workers raised (see the thread's exception above)"
    started, failed, rep, st, lines = out[0]
    assert_same(started, reference[0])
    lost = st["workers"]["lost"]
    assert len(lost) == 1 and [len(v) for v in st["workers"]["owners"].values()] == [TORS]
    assert all(s["state"] == "up" and s["diff_refused"] == 0 for s in st["switches"])
    assert rep.get("error") is None, rep
    assert_same(failed, reference[1])
    assert any(e["event"] == "worker.takeover" for e in lines)
    err = capfd.readouterr().err
    assert "Timeout (0:00:02)!" in err and "in _count" in err, err[-3000:]


def reload_configs(tmp_path, program, fabric, workers: int):
    """The config the daemon starts on, a reload of it with another schedule (Opera's, not
    round-robin: other routes on every ToR) and another slice capacity (each ToR's config
    entry, built by its role), and one without the last ToR."""
    start = config(tmp_path, program, fabric, workers).path
    other = tmp_path / f"opera{workers}.toml"
    other.write_text(start.read_text().replace('generate = "round-robin"', 'generate = "opera"')
                     .replace("capacity_bytes = 100000000", "capacity_bytes = 50000000"))
    fewer = tmp_path / f"fewer{workers}.toml"
    text = other.read_text()
    fewer.write_text(text[:text.rindex("[[switch]]")])
    return start, other, fewer


def test_a_reload_with_workers_updates_the_network_exactly_as_one_process(tmp_path, program):
    """A reload with workers: every worker checks its share against the new config, then
    the network moves to its routes as one generation, ending exactly as the one-process
    daemon's after the same reloads: another schedule, then one switch fewer (its session
    closed, the others on a new generation), then the switch back (a new owner, the one
    with the fewest, programs it). A reload whose new switch cannot be reached, or one a
    worker cannot read, is refused, naming it, and leaves the network as it was."""
    from controller.agent.bmv2_process import free_port
    ends = {}
    for workers, cls in ((0, Controller), (2, DistributedController)):
        tmp = tmp_path / f"w{workers}"
        tmp.mkdir()
        with SimFabric(tmp / "fabric", TORS) as fabric:
            start, other, fewer = reload_configs(tmp, program, fabric, workers)
            ctl = cls(load(start), log=EventLog(stream=open(tmp / "log", "w")))
            try:
                ctl.start()
                before = states(fabric)
                rep = ctl.reload(other)
                assert rep["ok"], rep
                assert rep["routes_version"] == 2 and set(rep["results"].values()) == {"swapped"}, rep
                after = states(fabric)
                assert not all(same_state(b, a) for b, a in zip(before, after))   # the routes changed
                st = ctl.status()
                assert {s["generation"] for s in st["switches"]} == {1}, st["switches"]
                rep = ctl.reload(fewer)
                assert rep["ok"] and rep["routes_version"] == 3 and "tor7" not in rep["results"], rep
                st = ctl.status()
                assert [s["name"] for s in st["switches"]] == [f"tor{t}" for t in range(TORS - 1)]
                assert {s["generation"] for s in st["switches"]} == {0}, st["switches"]
                if workers:
                    owners = st["workers"]["owners"]
                    assert sorted(n for ns in owners.values() for n in ns) == [f"tor{t}" for t in range(TORS - 1)]
                    fewest = min(owners, key=lambda w: len(owners[w]))
                    # the new switch's address does not answer: refused, naming it
                    dead = tmp / "dead.toml"
                    text = other.read_text()
                    last = text.rindex("[[switch]]")     # tor7's
                    assert fabric.address(TORS - 1) in text[last:]
                    # (a connect waits for the address up to rpc_timeout_s: 60 s in the
                    # benchmark's config, a few here)
                    assert "rpc_timeout_s = 60" in text
                    dead.write_text(text[:last].replace("rpc_timeout_s = 60", "rpc_timeout_s = 3")
                                    + text[last:].replace(fabric.address(TORS - 1), f"127.0.0.1:{free_port()}"))
                    bad = ctl.reload(dead)
                    assert not bad["ok"] and "switch 'tor7'" in bad["error"] and "address" in bad["error"], bad
                    # the cluster's settings are the running daemon's: refused, naming the key
                    assert "workers = 2\n" in other.read_text()
                    for key, lines in (("workers", "workers = 1"), ("worker_silent_s", "workers = 2\nworker_silent_s = 9"),
                                       ("scheduler", 'workers = 2\nscheduler = "tcp://127.0.0.1:1"')):
                        changed = tmp / f"{key}.toml"
                        changed.write_text(other.read_text().replace("workers = 2", lines))
                        bad = ctl.reload(changed)
                        assert not bad["ok"] and f"[daemon]: {key}: " in bad["error"] and \
                            "restart the daemon to change it" in bad["error"], (key, bad)
                    assert ctl.routes.version == 3 and ctl.cfg.path == fewer
                    assert ctl.status()["workers"]["owners"] == owners
                rep = ctl.reload(other)
                assert rep["ok"] and rep["routes_version"] == 4 and None not in rep["results"].values(), rep
                st = ctl.status()
                assert len(st["switches"]) == TORS and len({s["generation"] for s in st["switches"]}) == 1
                ends[workers] = states(fabric)
                if workers:
                    assert {s["name"]: s["owner"] for s in st["switches"]}["tor7"] == fewest
                    assert sorted(len(v) for v in st["workers"]["owners"].values()) == [TORS // 2, TORS // 2]
                    # the workers read the file themselves (a worker's machine may lack it):
                    # one refusing refuses the reload, nothing changes anywhere
                    import dataclasses
                    import controller.daemon.controller as dc
                    missing = tmp / "not-on-the-workers.toml"
                    real = dc.load_config
                    dc.load_config = lambda p: dataclasses.replace(real(p), path=missing)
                    try:
                        bad = ctl.reload(other)
                    finally:
                        dc.load_config = real
                    assert not bad["ok"] and bad["error"].startswith("worker tcp://"), bad
                    assert str(missing) in bad["error"], bad
                    assert ctl.routes.version == 4 and ctl.cfg.path == other
                    assert_same(states(fabric), ends[workers])
                    rep = ctl.reload(other)              # the workers dropped what they staged
                    assert rep["ok"] and rep["routes_version"] == 5, rep
                    assert len({s["generation"] for s in ctl.status()["switches"]}) == 1
            finally:
                ctl.shutdown()
    assert_same(ends[2], ends[0])


def other_program(start, tmp_path, switch: str):
    """``start`` with ``switch`` on a program of another name (the same files): a changed
    switch to a reload, its session (address, device, election id) the same."""
    text = start.read_text()
    first = text.index("[[switch]]")
    prog = text[text.index("[program.tor]"):first].replace("[program.tor]", "[program.torb]")
    text = text[:first] + prog + text[first:]
    at = text.index(f'name = "{switch}"\n')
    path = tmp_path / "torb.toml"
    path.write_text(text[:at] + 'program = "torb"\n' + text[at:])
    return path


@pytest.mark.parametrize("workers", [0, 2])
def test_a_reload_that_changes_a_switch_but_not_its_session_keeps_the_session(tmp_path, program, workers):
    """A switch whose config changes but whose session would be the same (here: its
    program's name): a new session with the election id the running one holds is refused
    by the switch ("Election id already exists"), so the reload's agent takes the running
    session over; the reload goes through and the network moves to one new generation."""
    cls = DistributedController if workers else Controller
    with SimFabric(tmp_path / "fabric", TORS) as fabric:
        start = config(tmp_path, program, fabric, workers).path
        log = EventLog(stream=open(tmp_path / "log", "w"))
        log.lines = []
        ctl = cls(load(start), log=log)
        try:
            ctl.start()
            rep = ctl.reload(other_program(start, tmp_path, "tor3"))
            assert rep.get("ok"), rep
            assert set(rep["results"].values()) == {"swapped"}, rep
            st = ctl.status()
            assert {(s["state"], s["generation"]) for s in st["switches"]} == {("up", 1)}, st["switches"]
            assert ctl.cfg.switches[3].program == "torb"
            if not workers:
                kept = [r["switch"] for r in log.lines if r["event"] == "switch.connected" and r.get("kept")]
                assert kept == ["tor3"], kept
        finally:
            ctl.shutdown()


def test_a_maintenance_pass_in_flight_leaves_a_handed_over_agent_alone(tmp_path, program):
    """A maintenance pass lists the agents under the state lock and maintains them after
    it: one that listed tor3 before a reload's commit handed tor3's session to the new
    agent must neither reconnect the old agent (a second session of the election id the
    new one holds: refused, or left open by nobody) nor report the switch as failing."""
    with SimFabric(tmp_path / "fabric", TORS) as fabric:
        start = config(tmp_path, program, fabric, 0).path
        log = EventLog(stream=open(tmp_path / "log", "w"))
        log.lines = []
        ctl = Controller(load(start), log=log)
        try:
            ctl.start()
            old = ctl.agents["tor3"]
            rep = ctl.reload(other_program(start, tmp_path, "tor3"))
            assert rep.get("ok"), rep
            assert old.handed_over and ctl.agents["tor3"] is not old
            n = len(log.lines)
            ctl._maintain_one(old, ctl.clock() + 3600.0)      # every due time past
            after = [r for r in log.lines[n:] if r.get("switch") == "tor3"]
            assert after == [], after
            assert old.handed_over and not old.backend.connected
            with pytest.raises(BackendError, match="handed its session over"):
                old.connect()
            # the commit between the pass's test of the agent and its connect: the connect
            # refuses, and that is the handover's event, not the switch's failure
            real = old.connect

            def connect_after_the_commit():
                old.state = "handed_over"
                real()
            old.state, old.connect = "down", connect_after_the_commit
            m = len(log.lines)
            ctl._maintain_one(old, ctl.clock() + 7200.0)
            after = [(r["event"], r.get("what")) for r in log.lines[m:] if r.get("switch") == "tor3"]
            assert after == [("switch.after_handover", "connect")], after
            new = ctl.agents["tor3"]
            assert new.alive()
            ctl.maintain(ctl.clock() + 3600.0)                 # the new agent still owns the switch
            st = {s["name"]: s for s in ctl.status()["switches"]}
            assert (st["tor3"]["state"], st["tor3"]["generation"]) == ("up", 1), st["tor3"]
            assert not [r for r in log.lines[n:] if r["event"] in ("switch.connect_failed", "switch.maintenance_failed",
                                                                   "switch.restore_failed", "switch.lost")]
        finally:
            ctl.shutdown()


def test_a_fabric_that_does_not_simulate_the_configs_devices_is_named(tmp_path, program):
    with SimFabric(tmp_path / "fabric", TORS - 1) as fabric:
        cfg = config(tmp_path, program, fabric_with(fabric), 2)
        ctl = DistributedController(cfg, log=EventLog(stream=open(tmp_path / "log", "w")))
        try:
            with pytest.raises(ConfigError, match=r"switch 'tor7': address: .*device 7 is not simulated"):
                ctl.start()
        finally:
            ctl.shutdown()


def fabric_with(fabric):
    """``fabric`` answering an address for one device more than it simulates."""
    class Wider:
        def address(self, t):
            return fabric.address(min(t, fabric.devices - 1))
    return Wider()


def refused(tmp_path, program, fabric, scheduler: str, msg: str) -> None:
    """The daemon with 2 workers of ``scheduler`` does not start: ConfigError matching ``msg``."""
    path = net_config(tmp_path / "net.toml", program, fabric, tors=TORS, uplinks=UPLINKS, routing=PER_HOP,
                      slice_ms=1000, status_port=0, workers=2, generate="round-robin")
    path.write_text(path.read_text().replace("workers = 2", f'workers = 2\nscheduler = "{scheduler}"'))
    ctl = DistributedController(load(path), log=EventLog(stream=open(tmp_path / "log", "w")))
    try:
        with pytest.raises(ConfigError, match=msg):
            ctl.start()
    finally:
        ctl.shutdown()


def test_a_scheduler_that_cannot_be_reached_is_named(tmp_path, program):
    from controller.agent.bmv2_process import free_port
    with SimFabric(tmp_path / "fabric", TORS) as fabric:
        dead = f"tcp://127.0.0.1:{free_port()}"
        refused(tmp_path, program, fabric, dead, rf"scheduler: {dead}: cannot reach the Dask scheduler")
        for t in range(TORS):                                   # nothing written: no pipeline anywhere
            c = Reader(fabric.address(t), device_id=t, election_id=1, timeout=READ_TIMEOUT_S, name=f"reader{t}")
            try:
                assert c.pipeline_cookie() is None
            finally:
                c.close()


class CoordinatorGone(BaseException):
    """The coordinator stops where it stands (as a killed daemon would)."""


def test_a_coordinator_gone_mid_flip_leaves_one_generation_per_packet(tmp_path, program, reference):
    """The coordinator stops after one worker's switches stamped the new generation and
    before the other's: every generation a ToR stamps is live on every ToR (a packet is
    routed by the generation its source stamped, never by a mix), and a daemon started
    again finishes the update."""
    with SimFabric(tmp_path / "fabric", TORS) as fabric:
        ctl = DistributedController(config(tmp_path, program, fabric, 2), log=EventLog(stream=open(tmp_path / "log", "w")))
        call = ctl.workers.call

        def dying(calls):
            if any(m == "phase" and a[1] == "activate" for m, a in calls.values()):
                first = sorted(calls)[0]
                call({first: calls[first]})
                raise CoordinatorGone
            return call(calls)
        try:
            ctl.start()
            ctl.workers.call = dying
            with pytest.raises(CoordinatorGone):
                fail(ctl)
        finally:
            ctl.workers.call = call
            ctl.shutdown()
        roles = {a.cfg.tor: a.role for a in ctl.agents.values()}
        stamps, lives = {}, {}
        for t, st in enumerate(states(fabric)):
            stamps[t], lives[t] = roles[t].active(st)[0], roles[t].live(st)
        assert set(stamps.values()) == {0, 1}, stamps       # cut half-way through the stamps
        for t, g in stamps.items():
            for u, live in lives.items():
                assert g in live, f"ToR {t} stamps generation {g}, which ToR {u} does not route (live {sorted(live)})"
        again = Controller(config(tmp_path, program, fabric, 0), log=EventLog(stream=open(tmp_path / "log2", "w")))
        try:
            again.start()
        finally:
            again.shutdown()
        assert_same(states(fabric), reference[0])       # finished towards its routes (it knows no failure)


def test_workers_that_do_not_reach_the_scheduler_are_named(tmp_path, program, monkeypatch):
    """A scheduler with fewer workers than the config asks for (the others cannot reach it)."""
    from dask.distributed import LocalCluster
    from controller.daemon import workers
    monkeypatch.setattr(workers, "CONNECT_TIMEOUT_S", 3.0)
    with SimFabric(tmp_path / "fabric", TORS) as fabric, \
            LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1",
                         dashboard_address=None) as one:
        refused(tmp_path, program, fabric, one.scheduler_address, r"scheduler: tcp://.*: 1 of 2 workers within 3 s")


#: the scheduler's patience for a worker that stops answering (its worker-ttl; Dask takes at
#: least 10 heartbeats, 5 s here): long enough that a worker answering from a loaded machine
#: (the suite's other lane beside it) is not taken for a silent one
WORKER_TTL_S = 8.0
#: how long each session of the slow worker takes to open: beyond that patience
SLOW_CONNECT_S = 10.0
#: what the slow worker's start may take before the test gives up on it (a hang guard, not
#: a figure: the start takes SLOW_CONNECT_S and a few seconds)
START_LIMIT_S = 240.0


def _slow_sessions(seconds: float) -> None:
    """In a worker process: every session of a switch takes ``seconds`` to open, half of
    it busy in Python (as a worker opening hundreds of sessions on a loaded machine)."""
    import time as _time
    from controller.daemon.switch import SwitchAgent
    connect = SwitchAgent.connect

    def slow(self):
        end = _time.monotonic() + seconds / 2
        while _time.monotonic() < end:
            sum(range(1000))
        _time.sleep(seconds / 2)
        connect(self)
    SwitchAgent.connect = slow


def test_a_worker_busy_opening_its_sessions_keeps_answering_the_scheduler(tmp_path, program):
    """A worker whose sessions open slowly (each longer than the scheduler waits for a
    silent worker) is not dropped by the Dask scheduler: the opening runs on threads of the
    worker, beside the event loop that answers the scheduler, and the daemon starts with
    every switch up on it."""
    import dask
    from dask.distributed import Client, LocalCluster
    with dask.config.set({"distributed.scheduler.worker-ttl": f"{WORKER_TTL_S:g}s"}), \
            SimFabric(tmp_path / "fabric", TORS) as fabric, \
            LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address=None, memory_limit=0) as cluster:
        with Client(cluster) as client:      # closed before the daemon's: an actor binds to the current client
            client.run(_slow_sessions, SLOW_CONNECT_S)
            worker = next(iter(client.scheduler_info()["workers"]))
        path = net_config(tmp_path / "net.toml", program, fabric, tors=TORS, uplinks=UPLINKS, routing=PER_HOP,
                          slice_ms=1000, status_port=0, workers=1, generate="round-robin")
        path.write_text(path.read_text().replace("workers = 1", f'workers = 1\nscheduler = "{cluster.scheduler_address}"'))
        log = EventLog(stream=open(tmp_path / "log", "w"))
        log.lines = []
        ctl = DistributedController(load(path), log=log)
        import threading
        errors = []

        def start():
            try:
                ctl.start()
            except Exception as e:   # noqa: BLE001 - reported below
                errors.append(e)
        started = threading.Thread(target=start, daemon=True)
        try:
            started.start()
            # a worker the scheduler dropped or restarted loses its actor, and the call of
            # its opening never returns: bounded here so that the test fails instead of hanging
            started.join(START_LIMIT_S)
            assert not started.is_alive(), f"the start did not finish within {START_LIMIT_S:g} s (worker lost?)"
            assert not errors, errors
            st = ctl.status()
            workers = list(ctl.workers.client.scheduler_info()["workers"])
        finally:
            ctl.shutdown()
        assert workers == [worker]          # never dropped (nor restarted: a new address)
        assert not any(e["event"] == "worker.lost" for e in log.lines)
        assert not st["workers"]["lost"] and st["workers"]["owners"] == {worker: sorted(f"tor{t}" for t in range(TORS))}
        assert all(s["state"] == "up" and s["generation"] is not None for s in st["switches"])
