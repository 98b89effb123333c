"""The fabric benchmark's phases of an update, read from the daemon's log lines: a dead
ToR's update takes one switch fewer than the network holds, and its phases are reported
all the same."""

from __future__ import annotations

from datetime import datetime, timezone

from benchmarks.bench_fabric import _phase_ends, _phases, repeated, repeats
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


def _failure(op: str, what: dict, gen: float, prepare: float, cpu: float, load: float = 1.0) -> dict:
    return {"op": op, "what": what, "generation_s": gen, "cpu_update_s": cpu, "load": load,
            "phases": {"prepare": prepare}}


def test_repeated_failures_are_summarized_first_and_then_the_repeats(capsys):
    """`--repeat`: each failure done more than once is one line -- its first (routes
    computed) apart, the median and range of the repeats -- grouped by what it did, in the
    order of its first; a failure done once has none."""
    cut, dead = {"uplink": [5, 2]}, {"tor": 7}
    fs = []
    for i, g in enumerate((1.30, 1.00, 0.90, 1.20)):
        fs += [_failure("fail", cut, 0.5 + i, 0.4, 0.8), _failure("recover", cut, 0.6, 0.3, 0.7),
               _failure("fail", dead, g, g - 0.2, 2.0 - i / 10, load=1.0 + i),
               _failure("recover", dead, 1.8, 1.0, 2.1)]
    fs.append(_failure("fail", {"tor": 9}, 1.1, 0.9, 1.9))
    groups = repeated(fs)
    assert [k for k, _ in groups] == ["fail cable of ToR 5 uplink 2", "recover cable of ToR 5 uplink 2",
                                      "fail ToR 7", "recover ToR 7"]
    assert [len(v) for _, v in groups] == [4, 4, 4, 4]
    assert all(all(f["what"] == v[0]["what"] and f["op"] == v[0]["op"] for f in v) for _, v in groups)
    repeats(fs)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 4
    line = out[2]
    assert line.lstrip().startswith("fail ") and "4 times" in line
    # the dead ToR: first 1.30 s; the repeats 1.00, 0.90, 1.20 -> median 1.00 (0.90-1.20)
    assert "every ToR on the new generation first 1.30 s; the 3 repeats 1.00 s (0.90-1.20)" in line
    assert "prepare first 1.10 s; the 3 repeats 0.80 s (0.70-1.00)" in line
    assert "daemon CPU of the update first 2.00 s; the 3 repeats 1.80 s (1.70-1.90)" in line
    assert "(load 1.0-4.0)" in line
    repeats(fs[:4])                            # each once: nothing to summarize
    assert capsys.readouterr().out == ""
