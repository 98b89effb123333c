"""A daemon started again after a crash, on switches that still hold its old sessions: the
switch refuses the daemon's own election id as held until it has seen the dead process's
connection close (bmv2 under load: seconds), and the start waits for that
(``[daemon] held_id_wait_s``) instead of exiting as if a second
controller used the id; a session that holds the id for longer is still named, as the
election id it refuses. On the simulated fabric (controller/simfabric/), which refuses a
held election id as bmv2 does."""

from __future__ import annotations

import threading
import time

import pytest

pytest.importorskip("finsy.proto", reason="needs the agent extra")

from benchmarks.bench_fabric import PER_HOP, net_config  # noqa: E402
from controller.agent.backend import ElectionIdHeld  # noqa: E402
from controller.agent.p4runtime import P4RuntimeClient  # noqa: E402
from controller.daemon.config import ConfigError, load  # noqa: E402
from controller.daemon.controller import Controller  # noqa: E402
from controller.daemon.log import EventLog  # noqa: E402
from controller.simfabric.process import SimFabric  # noqa: E402
from tiny_program import build_tiny_tor  # noqa: E402

pytestmark = pytest.mark.p4c

TORS, UPLINKS, ELECTION = 8, 2, 10      # net_config's election id
HOLDER = 2                              # the device whose session outlives the "crashed" daemon


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build_tiny_tor(tmp_path_factory.mktemp("restart_build"))


@pytest.fixture
def fabric(tmp_path):
    with SimFabric(tmp_path / "fabric", TORS) as f:
        yield f


def controller(tmp_path, program, fabric, held_id_wait_s: float | None = None) -> Controller:
    path = net_config(tmp_path / "net.toml", program, fabric, tors=TORS, uplinks=UPLINKS, routing=PER_HOP,
                      slice_ms=1000, status_port=0, hold_s=0.05, generate="round-robin")
    if held_id_wait_s is not None:
        path.write_text(path.read_text().replace("[daemon]\n", f"[daemon]\nheld_id_wait_s = {held_id_wait_s}\n"))
    cfg = load(path)
    assert held_id_wait_s is None or cfg.daemon.held_id_wait_s == held_id_wait_s
    log = EventLog(stream=open(tmp_path / "log", "w"))
    log.lines = []
    return Controller(cfg, log=log)


def old_session(fabric) -> P4RuntimeClient:
    """A session with the daemon's election id on device HOLDER (the crashed daemon's)."""
    return P4RuntimeClient(fabric.address(HOLDER), device_id=HOLDER, election_id=ELECTION, timeout=10,
                           name=f"tor{HOLDER}-old")


def test_a_start_waits_for_the_switch_to_drop_the_crashed_daemons_session(tmp_path, program, fabric):
    old = old_session(fabric)
    with pytest.raises(ElectionIdHeld, match="Election id already exists"):
        old_session(fabric)                          # the id is held: what a restart meets
    ctl = controller(tmp_path, program, fabric)
    # the switch lets go once the daemon has been refused (not at a fixed time: a loaded
    # machine may be slow to start the daemon's sessions)
    release = threading.Thread(target=lambda: (_wait_for(ctl.log.lines, "switch.id_held"), old.close()))
    release.start()
    try:
        ctl.start()
        release.join()
        st = {s["name"]: s for s in ctl.status()["switches"]}
        assert all(s["state"] == "up" and s["generation"] == 0 for s in st.values()), st
        held = [r for r in ctl.log.lines if r["event"] == "switch.id_held"]
        assert [r["switch"] for r in held] == [f"tor{HOLDER}"], held
        assert held[0]["wait_s"] == 15.0            # the default of [daemon] held_id_wait_s
    finally:
        old.close()
        ctl.shutdown()


def test_an_election_id_held_past_the_wait_is_named(tmp_path, program, fabric):
    old = old_session(fabric)
    ctl = controller(tmp_path, program, fabric, held_id_wait_s=0.5)
    try:
        with pytest.raises(ConfigError, match=rf"switch 'tor{HOLDER}': election_id: {ELECTION} is refused by the "
                                              r"switch: .*Election id already exists"):
            ctl.start()
        held = [r for r in ctl.log.lines if r["event"] == "switch.id_held"]
        assert [(r["switch"], r["wait_s"]) for r in held] == [(f"tor{HOLDER}", 0.5)]   # the config's wait
        assert old.connected                          # the holder keeps its session
    finally:
        old.close()
        ctl.shutdown()


def _wait_for(lines: list, event: str, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not any(r["event"] == event for r in list(lines)) and time.monotonic() < end:
        time.sleep(0.01)
