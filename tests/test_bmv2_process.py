"""The throw-away bmv2 switch process (controller/agent/bmv2_process.py): the ports it
picks and the command line it runs (starting one is the bmv2 suite's job)."""

import os
import socket
import subprocess
from pathlib import Path

import pytest

from controller import process
from controller.agent import bmv2_process
from controller.agent.bmv2_process import Bmv2Switch, SwitchStartError, free_port
from controller.p4gen.profile import PRIORITY_QUEUES


def test_free_ports_are_distinct_bindable_and_outside_the_ephemeral_range():
    lo, hi = bmv2_process._ephemeral_range()
    ports = [free_port() for _ in range(300)]
    assert len(set(ports)) == len(ports)
    if lo >= 11000:
        assert all(10000 <= p < lo for p in ports), (lo, hi, sorted(ports)[:5], sorted(ports)[-5:])
    for p in ports[:20]:
        with socket.socket() as s:
            s.bind(("127.0.0.1", p))


def test_a_port_in_use_is_never_handed_out(monkeypatch):
    import random

    real, calls = random.randrange, []

    def first_the_busy_port(a, b):
        calls.append((a, b))
        return taken if len(calls) <= 5 else real(a, b)

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        monkeypatch.setattr(bmv2_process, "_ephemeral_range", lambda: (taken + 1, 65000))
        monkeypatch.setattr(random, "randrange", first_the_busy_port)
        port = free_port()
    assert len(calls) > 5 and port != taken and 10000 <= port <= taken


def test_command_puts_interfaces_as_ports_and_target_args_after_the_separator(tmp_path: Path):
    sw = Bmv2Switch(tmp_path, "tor0", ["a0", "a1"], ["--cpu-port", "510"], device_id=3)
    cmd = sw.command()
    assert cmd[:3] == ["simple_switch_grpc", "--device-id", "3"]
    assert cmd[cmd.index("-i"):cmd.index("-i") + 4] == ["-i", "0@a0", "-i", "1@a1"]
    assert cmd[cmd.index("--") + 1:] == ["--grpc-server-addr", sw.address, "--cpu-port", "510",
                                         "--priority-queues", str(PRIORITY_QUEUES)]
    # the ToR program's calendar queues need the priority queues, unless the caller names its own number
    own = Bmv2Switch(tmp_path, "tor1", [], ["--priority-queues", "2"]).command()
    assert own.count("--priority-queues") == 1 and own[-2:] == ["--priority-queues", "2"]
    assert sw.address == f"127.0.0.1:{sw.grpc_port}" and sw.grpc_port != sw.thrift_port
    # an option given twice: bmv2 would drop every option after it (the priority queues) and run on
    twice = Bmv2Switch(tmp_path, "tor2", [], ["--cpu-port", "510"], cpu_port=510)
    with pytest.raises(SwitchStartError, match="tor2: switch option --cpu-port given twice"):
        twice.command()
    with pytest.raises(SwitchStartError, match="--priority-queues given twice"):
        Bmv2Switch(tmp_path, "tor3", [], ["--priority-queues", "2", "--priority-queues", "4"]).command()
    assert not sw.alive()
    sw.stop()       # never started: nothing to stop, no error


def _dead_pid() -> int:
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def test_a_switch_records_its_pid_while_it_runs_and_forgets_it_when_stopped(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(Bmv2Switch, "records", tmp_path / "records")
    monkeypatch.setattr(Bmv2Switch, "command", lambda self: ["sleep", "300"])
    sw = Bmv2Switch(tmp_path, "tor0", [], grpc_port=12345, thrift_port=12346).start(wait=False)
    try:
        name = f"{os.getpid()}.tor0.12345"
        assert process.read_pid(tmp_path / "records", name) == (sw.proc.pid, ["sleep", "300"])
    finally:
        sw.stop()
    assert sw.proc.poll() is not None
    assert process.pid_names(tmp_path / "records") == []
    sw.start(wait=False)                    # a restart records it again; a kill forgets it too
    assert process.pid_names(tmp_path / "records") == [f"{os.getpid()}.tor0.12345"]
    sw.kill()
    assert process.pid_names(tmp_path / "records") == []


def test_the_switches_of_a_killed_owner_are_stopped_by_their_record_and_no_other(tmp_path: Path):
    recs = tmp_path / "records"
    orphan = subprocess.Popen(["sleep", "300"])
    mine = subprocess.Popen(["sleep", "301"])
    other = subprocess.Popen(["sleep", "302"])       # its PID recorded with another command line
    try:
        dead = _dead_pid()
        process.record(recs, process.owned_name("tor0.1", owner=dead), orphan.pid, ["sleep", "300"])
        process.record(recs, process.owned_name("tor1.2"), mine.pid, ["sleep", "301"])
        process.record(recs, process.owned_name("tor2.3", owner=dead), other.pid, ["simple_switch_grpc"])
        done = process.reap_orphans(recs)
        assert orphan.wait(10) is not None
        assert done == [f"stopped tor0.1 (pid {orphan.pid}; process {dead} that started it is gone)"]
        assert mine.poll() is None and other.poll() is None
        assert process.pid_names(recs) == [f"{os.getpid()}.tor1.2"]
    finally:
        for p in (orphan, mine, other):
            p.kill()
            p.wait()
