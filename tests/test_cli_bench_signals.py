"""`uro bench` stops cleanly on SIGTERM and on SIGINT, also when started in the background
with SIGINT ignored (controller.cli.bench.stop_cleanly): the benchmark's ``finally``
blocks run, where it removes the fabrics and processes it built. A child Python stands
in for a benchmark: it installs the handlers, says it is ready, sleeps in a ``try``, and
writes a file in its ``finally``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

CHILD = r"""
import sys, time
from controller.cli.bench import stop_cleanly
stop_cleanly()
try:
    print("ready", flush=True)
    for _ in range(600):           # a benchmark polls; Python runs handlers between bytecodes
        time.sleep(0.1)
finally:
    open(sys.argv[1], "w").write("cleaned")
"""


def _hostile_start() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_runs_the_benchmarks_finally_blocks(tmp_path, sig):
    done = tmp_path / "done"
    # the shell's background job: SIGINT ignored from the start; and SIGTERM blocked, as a
    # test runner's worker thread may leave it (a child inherits the mask)
    p = subprocess.Popen([sys.executable, "-c", CHILD, str(done)], stdout=subprocess.PIPE, text=True,
                         preexec_fn=_hostile_start)
    try:
        assert p.stdout.readline().strip() == "ready"
        p.send_signal(sig)
        p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert done.read_text() == "cleaned", f"{sig.name}: the finally block did not run (exit {p.returncode})"


FORKED = r"""
import os, sys, time
from controller.cli.bench import stop_cleanly
stop_cleanly()
pid = os.fork()
if pid == 0:                       # a helper forked by a library (pyroute2's netns child)
    try:
        print(os.getpid(), flush=True)
        time.sleep(60)             # one long sleep: only the kernel's default action ends it
    finally:
        open(sys.argv[1], "w").write("the child ran the benchmark's finally")
else:
    os.waitpid(pid, 0)
"""


def test_a_forked_child_ends_as_by_default_and_runs_no_finally_block(tmp_path):
    """A child forked after the handlers were installed (pyroute2 forks one for each
    namespace and ends it with SIGTERM) dies of the signal: it must not unwind the
    benchmark's stack, whose finally blocks would tear the fabric down under the parent."""
    done = tmp_path / "done"
    p = subprocess.Popen([sys.executable, "-c", FORKED, str(done)], stdout=subprocess.PIPE, text=True,
                         preexec_fn=_hostile_start)
    child = None
    try:
        child = int(p.stdout.readline())
        os.kill(child, signal.SIGTERM)
        p.wait(timeout=30)
    finally:
        if p.poll() is None:
            if child is not None:
                try:
                    os.kill(child, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            p.kill()
            p.wait()
    assert not done.exists(), done.read_text()


DISPOSITIONS = r"""
import os, signal, sys
from controller.cli.bench import stop_cleanly
stop_cleanly()
stop_cleanly()                     # installed twice (two suites in one run): one fork hook
pid = os.fork()
if pid == 0:
    print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL, signal.getsignal(signal.SIGINT) is signal.SIG_DFL,
          flush=True)
    os._exit(0)
os.waitpid(pid, 0)
print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL, flush=True)
"""


def test_a_forked_child_starts_with_the_default_dispositions_and_the_parent_keeps_its_own():
    """The fork hook gives the child the kernel's default at once (no window in which a
    signal waits for Python's next bytecode); the parent keeps raising KeyboardInterrupt."""
    out = subprocess.run([sys.executable, "-c", DISPOSITIONS], capture_output=True, text=True, timeout=60,
                         preexec_fn=_hostile_start)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "False"]


@pytest.mark.parametrize("stop", [KeyboardInterrupt, RuntimeError])
def test_the_fabric_benchmark_removes_its_work_directory_however_it_ends(tmp_path, monkeypatch, stop):
    """The fabric suite builds programs and starts fabrics in a work directory of its own:
    interrupted (SIGINT/SIGTERM raise KeyboardInterrupt) or failing, the directory goes."""
    from controller.cli.bench import load_suite

    fabric = load_suite("bench_fabric")
    work = tmp_path / "uro-bench-fabric-x"
    work.mkdir()

    def build(profile, where):
        (where / "half-built").write_text(profile)
        raise stop("stopped while building")
    monkeypatch.setattr(fabric, "_missing", lambda: None)
    monkeypatch.setattr(fabric.tempfile, "mkdtemp", lambda prefix: str(work))
    monkeypatch.setattr(fabric, "_build", build)
    with pytest.raises(stop):
        fabric.main(full_large=True, large_only=True)
    assert not work.exists()
