"""The chaos drill's plan (controller/emulate/chaos.py): what a seed gives
is fixed, and every plan respects the rules the drill's invariants rely on. The drill
itself runs on a real fabric in emulate_tests/test_emulate_chaos.py; here, with the
fabric's processes stood in for, what a drill leaves behind when a step fails."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.emulate import chaos


def test_a_seed_gives_one_drill_and_seeds_differ():
    a = chaos.plan_steps(7, 8, 2, 300)
    assert a == chaos.plan_steps(7, 8, 2, 300)
    assert a != chaos.plan_steps(8, 8, 2, 300)
    assert {s.action for s in a} == set(chaos.ACTIONS)      # 300 s of steps try every action


def replay(steps, tors, uplinks, max_failed):
    """Walk a plan, asserting its rules; returns the failed set at the end."""
    failed = chaos.Failures()
    last = 0.0
    for s in steps:
        assert s.at_s >= last
        last = s.at_s
        if s.action == "fail":
            assert (s.kind, s.ids) not in failed.items
            assert len(failed.items) < max_failed
            if s.kind == "link":
                assert s.ids[0] not in failed.tors()
                assert ("ocs", (s.ids[1],)) not in failed.items
            if s.kind == "ocs":
                assert not any(k == "link" and i[1] == s.ids[0] for k, i in failed.items), \
                    f"{s.label} over a cable already cut"
            failed = failed.with_(s.kind, s.ids)
        elif s.action == "recover":
            assert (s.kind, s.ids) in failed.items, f"recovers {s.label}, not failed"
            failed = failed.without(s.kind, s.ids)
        elif s.action == "daemon_kill":
            assert not failed.tors(), "a daemon killed while a ToR is failed (its declaration dies with it)"
        elif s.action == "switch_restart":
            assert s.ids[0] not in failed.tors()
        down = failed.uplinks(tors)
        for t in set(range(tors)) - failed.tors():
            assert any((t, u) not in down for u in range(uplinks)), f"ToR {t} lost every uplink after {s.label}"
        assert len(failed.tors()) < tors
    return failed


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), tors=st.integers(3, 12), uplinks=st.integers(1, 4),
       duration=st.floats(1.0, 400.0), max_failed=st.integers(0, 4),
       actions=st.sets(st.sampled_from(chaos.ACTIONS), min_size=1))
def test_every_plan_keeps_the_rules_and_ends_whole(seed, tors, uplinks, duration, max_failed, actions):
    steps = chaos.plan_steps(seed, tors, uplinks, duration, (2.0, 6.0), max_failed, tuple(sorted(actions)))
    assert all(s.action in actions or s.action == "recover" for s in steps)
    assert replay(steps, tors, uplinks, max_failed).items == frozenset(), "the drill does not end whole"


def test_an_ocs_failure_is_every_tors_uplink():
    f = chaos.Failures().with_("ocs", (1,)).with_("link", (0, 0)).with_("tor", (2,))
    assert f.uplinks(3) == {(0, 1), (1, 1), (2, 1), (0, 0)}
    assert f.tors() == {2}


@pytest.mark.parametrize("kw, msg", [
    ({"actions": ("fail", "explode")}, "chaos action 'explode'"),
    ({"tors": 2}, "at least 3 ToRs"),
    ({"duration_s": 0}, "must be positive"),
    ({"gap_s": (5.0, 1.0)}, "must be positive and ordered"),
    ({"max_failed": -1}, "--max-failed -1"),
])
def test_bad_drills_are_refused_by_name(kw, msg):
    args = {"seed": 1, "tors": 8, "uplinks": 2, "duration_s": 60.0, **kw}
    with pytest.raises(chaos.ChaosError, match=msg):
        chaos.plan_steps(**args)


def test_a_failed_tor_comes_back_with_an_uplink():
    """A drill may fail an OCS port while a ToR whose other cable is cut is failed itself:
    recovering that ToR would bring it back with no uplink (seed 0 gives one such plan at
    3 x 2, 108 s, at most 3 failed). No plan may do that."""
    steps = chaos.plan_steps(0, 3, 2, 108.0, (2.0, 6.0), 3, ("fail", "recover"))
    assert replay(steps, 3, 2, 3).items == frozenset()


class _Stream:
    def __init__(self, *a):
        pass

    def finish(self, timeout):
        pass

    def phases(self, marks):
        return {}


def test_a_drill_whose_daemon_restart_failed_ends_with_a_daemon(monkeypatch, tmp_path):
    """A daemon kill whose restart fails (a slow start on a loaded machine) must not leave
    the fabric without its daemon: the drill reports the step and starts one at its end,
    so the fabric (and a drill run after it) has a daemon again."""
    alive = {"pid": 41}
    starts = []

    def start(sdir, plan, path, log=print):
        starts.append(path)
        if len(starts) == 1:
            raise chaos.dmn.DaemonError("the daemon did not program every switch within 120 s")
        alive["pid"] = 42
        return 42

    def kill(sdir):
        alive["pid"] = None
        return 41

    monkeypatch.setattr(chaos.fabric, "need_plan", lambda prefix, root: object())
    monkeypatch.setattr(chaos.fabric, "state_dir", lambda root, prefix: tmp_path)
    monkeypatch.setattr(chaos.fabric, "read_failures", lambda sdir: [])
    monkeypatch.setattr(chaos.dmn, "running", lambda sdir: alive["pid"])
    monkeypatch.setattr(chaos.dmn, "start", start)
    monkeypatch.setattr(chaos.dmn, "kill", kill)
    monkeypatch.setattr(chaos, "check", lambda plan, sdir, failed: [] if alive["pid"] else ["the daemon is not running"])
    monkeypatch.setattr(chaos, "_tor_counters", lambda plan: {})
    monkeypatch.setattr(chaos, "_COUNTER_LAG_S", 0.0)
    monkeypatch.setattr(chaos, "leaks", lambda plan, sdir: [])
    monkeypatch.setattr(chaos.traffic, "all_pairs", lambda plan: [(0, 1)])
    monkeypatch.setattr(chaos.traffic, "PingStream", _Stream)
    said = []
    rep = chaos.run("x", [chaos.Step(0.0, "daemon_kill")], settle_timeout_s=0.05, log=said.append)
    assert len(starts) == 2 and alive["pid"] == 42, (starts, said)
    assert rep.steps[0].settle_s is None
    assert any("the step itself failed" in v for v in rep.violations), rep.violations
    assert any("started again" in m for m in said), said
