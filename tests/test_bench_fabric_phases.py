"""The fabric benchmark's phases of an update, read from the daemon's log lines: a dead
ToR's update takes one switch fewer than the network holds, and its phases are reported
all the same."""

from __future__ import annotations

from datetime import datetime, timezone

from benchmarks.bench_fabric import _phase_ends, _phases
from controller.daemon.log import TS_FORMAT


def _ts(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).strftime(TS_FORMAT)


def _lines(n: int, t0: float) -> list[dict]:
    """An update's memory.phase lines over ``n`` switches: survey ends at +0.2 s, prepare at +1.0 s."""
    out = []
    for k, (phase, t) in enumerate((("survey", 0.2), ("prepare_generation", 1.0))):
        for i in (1, n // 2, n):
            out.append({"event": "memory.phase", "phase": f"{phase} {i} of {n}", "ts": _ts(t0 + t - 0.1 * (i < n))})
    out.append({"event": "routes.computed", "ts": _ts(t0 + 0.15)})
    return out


def test_a_dead_tors_update_has_its_phases_read_from_its_last_switch():
    t0 = 1_800_000_000.0
    for n in (108, 107):                       # every ToR, and a dead ToR's update of the others
        ends = _phase_ends(_lines(n, t0), t0)
        assert set(ends) == {"survey", "prepare_generation"}
        assert abs(ends["survey"] - 0.2) < 1e-3 and abs(ends["prepare_generation"] - 1.0) < 1e-3
        ph = _phases({"dataplane_ms": 50.0, "generation_s": 1.1}, {"routes.computed": 0.15}, ends)
        assert ph is not None
        want = {"masks": 0.05, "routes": 0.1, "survey": 0.05, "prepare": 0.8, "flip": 0.1}
        assert all(abs(ph[k] - v) < 1e-3 for k, v in want.items()), ph


def test_lines_that_end_no_phase_are_not_taken():
    t0 = 1_800_000_000.0
    lines = [{"event": "memory.phase", "phase": "prepare_generation 50 of 107", "ts": _ts(t0 + 0.5)},
             {"event": "memory.phase", "phase": "sessions", "ts": _ts(t0 + 0.6)},
             {"event": "generation.writing", "phase": "prepare_generation 107 of 107", "ts": _ts(t0 + 0.7)}]
    assert _phase_ends(lines, t0) == {}
