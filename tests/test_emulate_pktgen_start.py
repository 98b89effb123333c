"""The emulated fabric's packet generator start (controller.emulate.fabric.start_pktgen):
a generator that takes seconds to import before sending is waited for while it lives, one
that exits fails at once naming its log, one that lives but never sends fails after the
bound. The generator is a stand-in command (the real one needs a fabric); each process is
stopped by its own PID file."""

from __future__ import annotations

import sys

import pytest

from controller import process
from controller.emulate import fabric, pktgen


def _stand_in(monkeypatch, code: str) -> None:
    monkeypatch.setattr(pktgen, "command", lambda plan_path, period_s: [sys.executable, "-c", code])


@pytest.fixture
def sdir(tmp_path):
    yield tmp_path
    process.stop(tmp_path / "pids", pktgen.NAME, timeout=2.0)


def test_a_generator_slow_to_start_is_waited_for(monkeypatch, sdir):
    _stand_in(monkeypatch, "import time; time.sleep(1.5); print('pktgen: a TRIGGER every 6 ms', flush=True); "
                           "time.sleep(60)")
    said = []
    pid = fabric.start_pktgen(None, sdir, 0.006, log=said.append)
    assert pid == process.running(sdir / "pids", pktgen.NAME)
    assert said and f"pid {pid}" in said[0]


def test_a_generator_that_exits_fails_at_once_naming_its_log(monkeypatch, sdir):
    _stand_in(monkeypatch, "raise SystemExit(3)")
    with pytest.raises(fabric.FabricError, match=r"exited at start: see .*pktgen\.log"):
        fabric.start_pktgen(None, sdir, 0.006, log=lambda m: None)


def test_a_generator_that_never_sends_fails_after_the_bound(monkeypatch, sdir):
    monkeypatch.setattr(fabric, "PKTGEN_START_S", 0.5)
    _stand_in(monkeypatch, "import time; time.sleep(60)")
    with pytest.raises(fabric.FabricError, match=r"did not start within 0\.5 s"):
        fabric.start_pktgen(None, sdir, 0.006, log=lambda m: None)
