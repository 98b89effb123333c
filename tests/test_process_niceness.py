"""controller.process.start's ``niceness``: the process it starts runs at its parent's nice
value moved by it (the emulated fabric's daemon, its slice clock in timer mode, runs ahead
of the machine's other work); a priority the caller may not take leaves it as it was."""

from __future__ import annotations

import os
import sys

from controller import process


def _nice_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[16])   # field 19: nice


def _run(tmp_path, name: str, niceness: int) -> int:
    pid = process.start(name, [sys.executable, "-c", "import time; time.sleep(30)"], tmp_path / "pids",
                        tmp_path / "logs", niceness=niceness)
    try:
        return _nice_of(pid)
    finally:
        process.stop(tmp_path / "pids", name)


def test_a_process_starts_at_the_nice_value_asked(tmp_path):
    base = os.nice(0)
    assert _run(tmp_path, "plain", 0) == base
    assert _run(tmp_path, "nicer", 3) == min(19, base + 3)


def test_a_priority_it_may_not_take_leaves_it_as_it_was_or_raises_it_as_root(tmp_path):
    base = os.nice(0)
    got = _run(tmp_path, "ahead", -2)
    assert got == (max(-20, base - 2) if os.geteuid() == 0 else base)


def test_cpu_seconds_is_the_processs_user_and_system_time_and_a_gone_one_raises(tmp_path):
    """What the benchmarks measure a process by: this process's own user + system time
    (os.times, in the same clock ticks), and FileNotFoundError for a PID that has exited."""
    x = 0
    for i in range(300_000):          # a little CPU of its own
        x += i * i
    t = os.times()
    assert abs(process.cpu_seconds(os.getpid()) - (t.user + t.system)) <= 0.05
    pid = process.start("gone", [sys.executable, "-c", "pass"], tmp_path / "pids", tmp_path / "logs")
    os.waitpid(pid, 0)
    try:
        process.cpu_seconds(pid)
    except FileNotFoundError:
        pass
    else:
        raise AssertionError(f"pid {pid} has exited, yet cpu_seconds read it")
