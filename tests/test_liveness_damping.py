"""Flap damping of the liveness watch (docs/liveness.md "Flap damping",
controller.liveness.damping, controller.daemon.liveness): scripted mark sequences read
once a second on the watch's own clock -- a flapping circuit is declared once and held, a
real failure is declared after CONFIRM_READS and its heal recovered at once, a suppressed
unit is released at most ``max_hold_s`` after its last flap -- the ``[liveness.damping]``
refusals, and what the daemon shows (status API, /metrics, log)."""

from __future__ import annotations

import math

import pytest

from controller.daemon.config import ConfigError, load
from controller.daemon.controller import Prepared
from controller.daemon.liveness import CONFIRM_READS, LivenessWatch
from controller.liveness.damping import Damper, DampingParams, decayed
from controller.schedule import round_robin
from controller.schedule.degrade import Failed, circuit_key

from daemon_fakes import make_backend_for
from test_liveness import TOR0, TOR1, good, liveness_daemon, report

SCHED = round_robin(8, 2)
P = int(SCHED.peer[1, 2, 0])            # ToR 2's peer on uplink 0 in slice 1
BIT = 1 << (1 * 2 + 0)                  # circuit (slice 1, uplink 0)
KEY = circuit_key(SCHED.peer, 1, 2, 0)  # the circuit's one name
MARKED = {t: {"live_mask": BIT if t in (2, P) else 0, "live_wrong": 0} for t in range(8)}
CLEAR = {t: {"live_mask": 0, "live_wrong": 0} for t in range(8)}


class Run:
    """A watch read once a second on its own clock, its changes applied to the failed set
    as the daemon applies them; ``log``: (time, op) of every change."""

    def __init__(self, damping: DampingParams | None = None):
        self.w = LivenessWatch(SCHED, damping=damping)
        self.t = 0.0
        self.failed = Failed()
        self.log: list[tuple[float, str]] = []

    def read(self, regs: dict) -> list[str]:
        self.t += 1.0
        self.w.read(regs, self.t)
        ops = []
        for ch in self.w.changes(self.failed):
            assert (ch.kind, ch.target) == ("circuit", KEY)
            circuits = self.failed.circuits | {KEY} if ch.op == "fail" else self.failed.circuits - {KEY}
            self.failed = Failed(circuits=frozenset(circuits))
            ops.append(ch.op)
            self.log.append((self.t, ch.op))
        return ops

    def ops(self) -> list[str]:
        return [op for _, op in self.log]


def test_a_flapping_circuit_is_declared_once_and_held_until_its_penalty_decays():
    """The circuit's marks come for a read and go for a read (a flap every 2 s), hold
    CONFIRM_READS reads once, then flap again for 30 s: declared once, when they held,
    and held through every clear read after it; recovered only once its penalty has
    decayed below reuse after the flapping stopped -- one failure and one recovery.
    Undamped, the same marks are recovered at the first clear read and declared again at
    the next hold."""
    p = DampingParams()
    blips = [MARKED, CLEAR] * 5
    script = blips + [MARKED] * CONFIRM_READS + [CLEAR] + [MARKED, CLEAR] * 15
    undamped = Run(DampingParams(enabled=False))
    for regs in script + [MARKED] * CONFIRM_READS:
        undamped.read(regs)
    assert undamped.ops() == ["fail", "recover", "fail"]
    r = Run(p)
    for regs in script:
        r.read(regs)
    assert r.ops() == ["fail"] and r.log[0][0] == len(blips) + CONFIRM_READS   # when the marks held
    assert r.w.status()["suppressed"] == [["circuit", list(KEY)]] and r.failed.circuits == {KEY}
    last_flap = r.t - 1
    pen = r.w.damper.penalty(("circuit", KEY), last_flap)
    release_at = last_flap + p.half_life_s * math.log2(pen / p.reuse)
    while r.t < release_at + 5:
        r.read(CLEAR)
    assert r.ops() == ["fail", "recover"]
    (t_rec, _), = [e for e in r.log if e[1] == "recover"]
    assert release_at <= t_rec <= release_at + 1.0          # at the first read after the release
    assert r.w.status()["suppressed"] == [] and r.failed == Failed()


def test_marks_that_never_hold_confirm_reads_are_never_declared_however_they_flap():
    """Damping holds what was declared; it declares nothing: a circuit whose marks come
    and go for a read at a time for a minute (a loaded switch's late beacons) is
    suppressed, and never declared."""
    r = Run()
    for _ in range(30):
        r.read(MARKED)
        r.read(CLEAR)
    assert r.ops() == [] and r.w.damper.suppressed(("circuit", KEY))
    assert r.w.status()["declared"] == []


def test_a_slowly_flapping_circuit_is_held_from_its_second_appearance():
    """Marks that hold CONFIRM_READS reads and clear for two, again and again: without
    damping each flap is a declaration and a recovery (a generation each); with it the
    first goes as before and the second is declared and held."""
    script = ([MARKED] * CONFIRM_READS + [CLEAR] * 2) * 6
    undamped = Run(DampingParams(enabled=False))
    for regs in script:
        undamped.read(regs)
    assert undamped.ops() == ["fail", "recover"] * 6
    damped = Run()
    for regs in script:
        damped.read(regs)
    assert damped.ops() == ["fail", "recover", "fail"]
    assert damped.w.damper.suppressed(("circuit", KEY))


def test_a_real_failure_is_declared_after_confirm_reads_and_its_heal_recovered_at_once():
    """A circuit dead for a minute: declared at its CONFIRM_READS-th read as without damping
    (its one appearance is one flap, below suppress), nothing while it stays, and recovered
    at the first read that no longer shows it."""
    r = Run()
    for i in range(1, 61):
        ops = r.read(MARKED)
        assert ops == (["fail"] if i == CONFIRM_READS else [])
    assert not r.w.damper.suppressed(("circuit", KEY))
    assert r.read(CLEAR) == ["recover"]
    assert r.w.status()["suppressed"] == []


def test_a_suppressed_unit_is_released_at_most_max_hold_after_its_last_flap():
    """However often a unit flaps, its penalty stops at the ceiling reuse x 2^(max_hold /
    half_life): released max_hold_s after its last flap, not later (RFC 2439 4.2)."""
    p = DampingParams(penalty=1000, suppress=1500, reuse=750, half_life_s=10, max_hold_s=40)
    d = Damper(p)
    assert decayed(1000, 10, 10) == pytest.approx(500)
    assert d.flap("u", 0.0) is False and d.flap("u", 1.0) is True          # the second flap suppresses
    for t in range(2, 200):
        assert d.flap("u", float(t)) is False                               # suppressed already
    assert d.penalty("u", 199.0) == pytest.approx(p.ceiling) == pytest.approx(750 * 16)
    assert d.decay(199.0 + 40 - 0.5) == [] and d.suppressed("u")
    assert d.decay(199.0 + 40 + 0.01) == ["u"] and not d.suppressed("u")
    assert d.decay(199.0 + 60) == [] and d.units == {}                      # quiet: forgotten


def test_a_unit_is_suppressed_above_suppress_released_below_reuse_and_forgotten_below_half_reuse():
    """Each bound is strict: a penalty at `suppress` does not suppress, one at `reuse` does
    not release (docs/liveness.md "Flap damping"), one at half `reuse` is not forgotten (the
    Damper's history). Penalty 750, suppress 1000, reuse 750, half-life 10 s; the status's
    figures to the tenth."""
    p = DampingParams(penalty=750, suppress=1000, reuse=750, half_life_s=10, max_hold_s=40)
    d = Damper(p)
    assert d.penalty("u", 0.0) == 0.0 and d.status(0.0) == []                # never flapped
    assert d.flap("u", 0.0) is False and d.penalty("u", 0.0) == 750          # one flap: exactly the penalty
    e = Damper(DampingParams(penalty=500, suppress=1000, reuse=750, half_life_s=10, max_hold_s=40))
    assert [e.flap("v", 0.0) for _ in range(3)] == [False, False, True]      # 1000 is not above 1000; 1500 is
    assert d.flap("u", 0.0) is True                                          # 1500: suppressed
    assert d.status(0.123) == [{"unit": "u", "penalty": 1487.3, "suppressed": True, "flaps": 2, "release_in_s": 9.9}]
    assert d.status(9.7) == [{"unit": "u", "penalty": 765.8, "suppressed": True, "flaps": 2, "release_in_s": 0.3}]
    # below reuse but not yet decayed by the watch: still suppressed, released in no time
    assert d.status(10.5) == [{"unit": "u", "penalty": 724.5, "suppressed": True, "flaps": 2, "release_in_s": 0.0}]
    assert d.decay(10.0) == [] and d.suppressed("u")                         # at reuse (750): held
    assert d.decay(10.01) == ["u"] and not d.suppressed("u")
    assert d.status(10.01) == [{"unit": "u", "penalty": 749.5, "suppressed": False, "flaps": 2}]
    assert d.decay(20.0) == [] and d.status(20.0) == [{"unit": "u", "penalty": 375.0, "suppressed": False, "flaps": 2}]
    assert d.decay(20.01) == [] and d.units == {}                            # below half reuse: forgotten


@pytest.mark.parametrize("params,want", [
    (DampingParams(reuse=1500), "[liveness.damping] reuse = 1500 is not below suppress = 1500: a suppressed unit "
                                "would be released before its penalty fell (reuse must be below suppress)"),
    (DampingParams(penalty=1600), "[liveness.damping] penalty = 1600 is above suppress = 1500: the first flap "
                                  "would suppress, so every mark would be declared at once and held (no failure "
                                  "would be confirmed over three reads); penalty at most suppress"),
    (DampingParams(suppress=3000, max_hold_s=60), "[liveness.damping] max_hold_s = 60 with half_life_s = 30: the "
                                                  "penalty's ceiling reuse x 2^(max_hold_s / half_life_s) = 3000 is "
                                                  "not above suppress = 3000, so nothing could be suppressed; raise "
                                                  "max_hold_s above 60 s"),
    (DampingParams(penalty="x"), "[liveness.damping] penalty = 'x': must be a positive number"),
    (DampingParams(penalty=True), "[liveness.damping] penalty = True: must be a positive number"),
    (DampingParams(max_hold_s=math.inf), "[liveness.damping] max_hold_s = inf: must be a positive number"),
    (DampingParams(penalty=1500), None),                                      # at suppress: fine
    (DampingParams(penalty=0.5, suppress=1, reuse=0.75, half_life_s=0.5, max_hold_s=2), None),   # below 1: fine
])
def test_the_damping_figures_are_refused_at_their_bounds_with_the_whole_reason(params, want):
    """Each refusal whole, at its bound (reuse equal to suppress, a ceiling equal to
    suppress), anything but a finite positive number, and what passes at the bounds."""
    assert params.problems() == ([want] if want else [])


def test_the_daemon_shows_a_suppressed_unit_in_status_metrics_and_log(tmp_path):
    """tor0 marks its uplink-0 circuit in slice 1 in every other read, then for
    CONFIRM_READS reads, then every other read again: the daemon declares it once (source
    liveness; logged liveness.suppressed), lists it ``suppressed`` with its penalty in the
    status API and counts it in /metrics, and keeps it failed meanwhile."""
    with liveness_daemon(tmp_path) as (ctl, sws, clock):
        for _ in range(2):
            report(ctl, sws, clock, {TOR0: 1 << 2, TOR1: 0})
            report(ctl, sws, clock, {TOR0: 0, TOR1: 0})
        assert ctl.failed.circuits == frozenset()
        for _ in range(CONFIRM_READS):
            report(ctl, sws, clock, {TOR0: 1 << 2, TOR1: 0})
        assert ctl.failed.circuits == frozenset({(1, 0, 0)})
        for _ in range(2):
            report(ctl, sws, clock, {TOR0: 0, TOR1: 0})
            report(ctl, sws, clock, {TOR0: 1 << 2, TOR1: 0})
        assert ctl.failed.circuits == frozenset({(1, 0, 0)})
        fails = [e for e in ctl.status()["failures"]["events"] if e["source"] == "liveness"]
        assert [(e["op"], e["kind"], e["target"]) for e in fails] == [("fail", "circuit", [1, 0, 0])]
        lv = ctl.status()["liveness"]
        assert lv["suppressed"] == [["circuit", [1, 0, 0]]]
        (unit,) = lv["damping"]["units"]
        assert unit["unit"] == ["circuit", [1, 0, 0]] and unit["suppressed"] and unit["flaps"] == 5
        assert unit["penalty"] > lv["damping"]["suppress"] and unit["release_in_s"] > 0
        text = ctl.metrics.render().decode()
        assert 'uro_liveness_suppressed_units{kind="circuit"} 1.0' in text
        assert 'uro_liveness_suppressions_total{kind="circuit"} 1.0' in text
        assert 'uro_liveness_flaps_total{kind="circuit"} 5.0' in text
        assert 'uro_liveness_damping_penalty{kind="circuit",target="1/0/0"}' in text
        (sup,) = [kw for name, kw in ctl.log.events if name == "liveness.suppressed"]
        assert (sup["kind"], sup["target"]) == ("circuit", [1, 0, 0]) and sup["penalty"] > 1500


def test_a_reload_applies_new_damping_figures(tmp_path):
    """``[liveness.damping]`` changed and reloaded: the running watch damps with the new
    figures (the status API shows them; a penalty of two flaps no longer suppresses)."""
    with liveness_daemon(tmp_path) as (ctl, sws, clock):
        p = ctl.cfg.path
        text = p.read_text()
        assert "[liveness]\nenabled = true\ndown_after = 2\n" in text
        p.write_text(text.replace("[liveness]\nenabled = true\ndown_after = 2\n",
                                  "[liveness]\nenabled = true\ndown_after = 2\n[liveness.damping]\nsuppress = 2500\n"))
        assert ctl.reload()["ok"]
        assert ctl.status()["liveness"]["damping"]["suppress"] == 2500
        for _ in range(2):
            report(ctl, sws, clock, {TOR0: 1 << 2, TOR1: 0})
            report(ctl, sws, clock, {TOR0: 0, TOR1: 0})
        assert ctl.status()["liveness"]["suppressed"] == []


def damping_cfg(tmp_path, damping: str):
    return load(good(tmp_path, liveness=f"enabled = true\ndown_after = 2\n[liveness.damping]\n{damping}"))


def test_the_damping_is_read_from_its_table(tmp_path):
    cfg = damping_cfg(tmp_path, "half_life_s = 10\nmax_hold_s = 60\nsuppress = 3000\nreuse = 500")
    assert cfg.liveness.damping == DampingParams(half_life_s=10.0, max_hold_s=60.0, suppress=3000.0, reuse=500.0)
    assert load(good(tmp_path)).liveness.damping == DampingParams()


@pytest.mark.parametrize("damping,msg", [
    ("reuse = 2000", "[liveness.damping] reuse = 2000 is not below suppress = 1500"),
    ("penalty = 1600", "[liveness.damping] penalty = 1600 is above suppress = 1500: the first flap would suppress"),
    ("max_hold_s = 10", "[liveness.damping] max_hold_s = 10 with half_life_s = 30: the penalty's ceiling reuse x "
                        "2^(max_hold_s / half_life_s) = 944.941 is not above suppress = 1500"),
    ("half_life_s = 0", "[liveness.damping] half_life_s = 0.0: must be a positive number"),
    ("penalty = -5", "[liveness.damping] penalty = -5.0: must be a positive number"),
])
def test_nonsensical_damping_is_refused_with_the_numbers(tmp_path, damping, msg):
    cfg = damping_cfg(tmp_path, damping)
    with pytest.raises(ConfigError) as e:
        Prepared(cfg, Failed(), make_backend_for({}))
    assert msg in str(e.value) and str(cfg.path) in str(e.value)


@pytest.mark.parametrize("damping,msg", [
    ("half_life = 30", "half_life"),
    ("suppress = \"high\"", "[liveness.damping]: suppress: must be a number"),
    ("enabled = 1", "[liveness.damping]: enabled: must be true or false"),
])
def test_bad_damping_keys_are_named(tmp_path, damping, msg):
    with pytest.raises(ConfigError) as e:
        damping_cfg(tmp_path, damping)
    assert msg in str(e.value), str(e.value)


LIVE_ON = "[liveness]\nenabled = true\ndown_after = 2\n"
LIVE_OFF = "[liveness]\nenabled = false\ndown_after = 2\n"


def test_a_reload_turns_liveness_off_and_keeps_what_it_declared_failed(tmp_path):
    """``[liveness] enabled = false`` reloaded: the watch stops (the status says so, later
    marks declare nothing); the circuit it declared stays failed, named in ``liveness.off``
    (nothing watches it any more); turned on again, marks are read and declared again."""
    with liveness_daemon(tmp_path) as (ctl, sws, clock):
        for _ in range(CONFIRM_READS):
            report(ctl, sws, clock, {TOR0: 1 << 2, TOR1: 0})
        assert ctl.failed.circuits == frozenset({(1, 0, 0)})
        p = ctl.cfg.path
        text = p.read_text()
        assert LIVE_ON in text
        p.write_text(text.replace(LIVE_ON, LIVE_OFF))
        assert ctl.reload()["ok"]
        assert ctl.status()["liveness"] == {"enabled": False}
        (off,) = [kw for name, kw in ctl.log.events if name == "liveness.off"]
        assert off["held_failed"] == [["circuit", [1, 0, 0]]]
        for _ in range(CONFIRM_READS):                     # marks cleared, another shown: nothing read
            report(ctl, sws, clock, {TOR0: 0, TOR1: 1 << 3})
        assert ctl.failed.circuits == frozenset({(1, 0, 0)})
        ctl.submit(ctl.parse_change("recover", {"circuit": [1, 0, 0]}))   # the operator, once it is mended
        ctl.handle_jobs()
        assert ctl.failed.circuits == frozenset()

        p.write_text(text)
        assert ctl.reload()["ok"]
        assert ctl.status()["liveness"]["enabled"] is True
        assert [n for n, _ in ctl.log.events].count("liveness.on") == 1
        for _ in range(CONFIRM_READS):
            report(ctl, sws, clock, {TOR0: 0, TOR1: 1 << 3})
        assert ctl.failed.circuits == frozenset({circuit_key(ctl.routes.schedule.peer, 1, 1, 1)})


def test_a_reload_with_a_new_schedule_watches_its_circuits_and_keeps_the_penalties(tmp_path):
    """A reload that changes the schedule (a random one of the same shape: the programs
    still fit) gives the watch the new schedule's circuits; the penalties of flapping units
    carry over."""
    with liveness_daemon(tmp_path) as (ctl, sws, clock):
        report(ctl, sws, clock, {TOR0: 1 << 2, TOR1: 0})
        report(ctl, sws, clock, {TOR0: 0, TOR1: 0})
        old = ctl.lwatch
        assert old.damper.units
        p = ctl.cfg.path
        text = p.read_text()
        assert 'generate = "round-robin"\ntors = 8\nuplinks = 2' in text
        p.write_text(text.replace('generate = "round-robin"\ntors = 8\nuplinks = 2',
                                  'generate = "random"\ntors = 8\nuplinks = 2\nseed = 3'))
        r = ctl.reload()
        assert r["ok"], r
        assert not (ctl.routes.schedule == old.schedule)
        assert ctl.lwatch is not old and ctl.lwatch.schedule is ctl.routes.schedule
        assert ctl.lwatch.damper is old.damper
