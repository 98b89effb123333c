"""What a killed Tofino2-model starter leaves behind is removed by PID and record, never
by pattern (:meth:`TofinoModelSwitch.reap`); no SDE needed (stand-in processes)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from controller.agent import tofino_process
from controller.agent.tofino_process import HUGEPAGES_RECORD, TofinoModelSwitch
from controller.emulate import procs


def _sleeper() -> tuple[subprocess.Popen, list[str]]:
    argv = ["sleep", "300"]
    p = subprocess.Popen(argv)
    for _ in range(100):                      # until exec replaced the forked parent's cmdline
        if procs._cmdline(p.pid) == argv:
            break
        time.sleep(0.01)
    return p, argv


def test_reap_stops_the_recorded_processes_and_restores_hugepages(tmp_path, monkeypatch):
    hp = tmp_path / "nr_hugepages"
    hp.write_text("196\n")                    # raised by the killed session
    monkeypatch.setattr(tofino_process, "HUGEPAGES_FILE", hp)
    pid_dir = tmp_path / "pids"
    model, m_argv = _sleeper()
    switchd, s_argv = _sleeper()
    bystander, b_argv = _sleeper()            # a process nobody recorded
    try:
        procs.record(pid_dir, "model", model.pid, m_argv)
        procs.record(pid_dir, "switchd", switchd.pid, s_argv)
        (pid_dir / HUGEPAGES_RECORD).write_text("7\n")
        done = TofinoModelSwitch.reap(pid_dir)
        assert model.wait(5) is not None and switchd.wait(5) is not None
        assert bystander.poll() is None
        assert hp.read_text() == "7\n"
        assert sorted(p.name for p in pid_dir.iterdir()) == []
        assert done == [f"stopped switchd (pid {switchd.pid})", f"stopped model (pid {model.pid})",
                        "vm.nr_hugepages back to 7"]
        assert TofinoModelSwitch.reap(pid_dir) == []          # nothing left: nothing done
    finally:
        for p in (model, switchd, bystander):
            p.kill()
            p.wait()


def test_reap_leaves_a_recycled_pid_alone(tmp_path, monkeypatch):
    """A record whose PID now runs another command line (the PID was reused) is dropped,
    its process left running."""
    monkeypatch.setattr(tofino_process, "HUGEPAGES_FILE", tmp_path / "nr_hugepages")
    other, _ = _sleeper()
    try:
        procs.record(tmp_path, "model", other.pid, [str(Path("/opt/bf-sde/install/bin/tofino-model")), "--no-cli"])
        assert TofinoModelSwitch.reap(tmp_path) == []
        assert other.poll() is None
        assert not (tmp_path / "model.pid").exists()
    finally:
        other.kill()
        other.wait()
