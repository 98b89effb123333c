"""The order of a network-wide update's phases across switches (controller/daemon/update.py,
docs/daemon.md "Network-wide consistency"), on recording stand-ins for the switches: the
fake-network tests (tests/test_daemon_consistency.py) check that every state a switch passes
through keeps the network consistent; these check the sequence itself -- which phase runs
on which switch with which generation, that the hold is waited between every source
stamping the new generation and any switch retiring the old one, which generation an
interrupted update finishes towards, and what the log says at each step."""

from __future__ import annotations

import io
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from controller.agent.backend import BackendError
from controller.agent.generations import Installed, Survey
from controller.daemon import update as update_mod
from controller.daemon.log import EventLog
from controller.daemon.update import NetworkUpdate

ROUTES = "routes-v2"          # what the switches are brought to (opaque to NetworkUpdate)
HOLD_S = 0.25


class Trace:
    """Every phase every switch ran, in order, with the hold's sleeps between them."""

    def __init__(self):
        self.steps: list[tuple] = []

    def sleep(self, s):
        self.steps.append(("sleep", s))


class Agent:
    """A switch as NetworkUpdate sees it: ``survey`` what it holds (``after``, once it
    retired a generation, if given), the phases recorded in the shared trace, each phase in
    ``fail`` raising a BackendError."""

    def __init__(self, name: str, trace: Trace, active=None, live=(), holds=(), fail=(), after=None,
                 pending=False):
        self.name, self.trace, self.fail = name, trace, set(fail)
        self.pending = pending      # a first install leaves its shadow for later (shadow_pending)
        self.surveyed = Survey(active, frozenset(live), frozenset(holds))
        self.after = after
        self.done = None

    def phase(self, fn, *args):
        self.trace.steps.append((self.name, fn.__name__, *args))
        if fn.__name__ in self.fail:
            raise BackendError(f"{self.name}: {fn.__name__} refused")
        return fn(*args)

    def survey(self, routes):
        return self.surveyed

    def prepare_generation(self, routes, new, shadow=False):
        out = "installed" if self.surveyed.active is None else "prepared"
        return Installed(outcome=out, generation=new, previous=self.surveyed.active, objects=7,
                         shadow_pending=self.pending and shadow)

    def activate(self, new):
        return None

    def retire_generation(self, keep, routes=None, fill=True):
        if self.after is not None:
            self.surveyed = self.after
        return 0

    def installed_now(self, routes, res, swapped):
        self.trace.steps.append((self.name, "installed_now"))
        self.done = (routes, res, swapped)


def update(failed=None):
    """A NetworkUpdate over one thread (the trace's order is the calls' order), its log
    lines kept."""
    log = EventLog("json", stream=io.StringIO())
    log.lines = []
    trace = Trace()
    errors = []
    nu = NetworkUpdate(ThreadPoolExecutor(1), log, hold_s=lambda: HOLD_S, sleep=trace.sleep,
                       failed=failed or (lambda a, e: errors.append((a.name, str(e)))))
    return nu, trace, log, errors


def phases(trace: Trace, *names) -> list[tuple]:
    return [s for s in trace.steps if s[0] == "sleep" or s[1] in names]


def said(log, event: str) -> list[dict]:
    return [{k: v for k, v in e.items() if k not in ("ts", "event")} for e in log.lines if e["event"] == event]


# ---- an ordinary update: prepare, stamp, hold, retire ---------------------------------------------
def test_a_swap_stamps_everywhere_then_holds_then_retires_everywhere():
    nu, trace, log, _ = update()
    agents = [Agent(f"tor{i}", trace, active=0, live={0}, holds=()) for i in range(3)]
    out, gen = nu.run(ROUTES, agents, 0, shadows=True)
    assert (out, gen) == ({"tor0": "swapped", "tor1": "swapped", "tor2": "swapped"}, 1)
    assert phases(trace, "prepare_generation", "activate", "retire_generation") == [
        ("tor0", "prepare_generation", ROUTES, 1), ("tor1", "prepare_generation", ROUTES, 1),
        ("tor2", "prepare_generation", ROUTES, 1),
        ("tor0", "activate", 1), ("tor1", "activate", 1), ("tor2", "activate", 1),
        ("sleep", HOLD_S),
        ("tor0", "retire_generation", 1, ROUTES), ("tor1", "retire_generation", 1, ROUTES),
        ("tor2", "retire_generation", 1, ROUTES)]
    assert said(log, "generation.stamping") == [{"level": "info", "generation": 1, "switches": ["tor0", "tor1", "tor2"]}]
    assert said(log, "generation.retiring") == [{"level": "info", "generation": 0, "switches": ["tor0", "tor1", "tor2"]}]
    for a in agents:
        routes, res, swapped = a.done
        assert (routes, res.generation, swapped) == (ROUTES, 1, True)


def test_without_shadows_the_old_generation_is_emptied_not_rewritten():
    nu, trace, _, _ = update()
    agents = [Agent(f"tor{i}", trace, active=1, live={1}) for i in range(2)]
    assert nu.run(ROUTES, agents, 1, shadows=False) == ({"tor0": "swapped", "tor1": "swapped"}, 0)
    assert phases(trace, "retire_generation") == [("sleep", HOLD_S), ("tor0", "retire_generation", 0, None),
                                                  ("tor1", "retire_generation", 0, None)]


def test_routes_already_held_everywhere_are_current_and_nothing_is_stamped():
    nu, trace, log, _ = update()
    agents = [Agent(f"tor{i}", trace, active=1, live={1}, holds={1}) for i in range(2)]
    assert nu.run(ROUTES, agents, 1, shadows=True) == ({"tor0": "current", "tor1": "current"}, 1)
    assert phases(trace, "prepare_generation", "activate", "retire_generation") == [
        ("tor0", "prepare_generation", ROUTES, 1), ("tor1", "prepare_generation", ROUTES, 1),
        ("tor0", "retire_generation", 1, ROUTES, False), ("tor1", "retire_generation", 1, ROUTES, False)]
    assert not said(log, "generation.stamping") and agents[0].done[2] is False


def test_a_source_that_does_not_stamp_keeps_both_generations_live_and_nothing_retired():
    nu, trace, log, errors = update()
    agents = [Agent("tor0", trace, active=0, live={0}), Agent("tor1", trace, active=0, live={0}, fail={"activate"}),
              Agent("tor2", trace, active=0, live={0})]
    out, gen = nu.run(ROUTES, agents, 0, shadows=True)
    assert gen is None and set(out.values()) == {None}
    assert not phases(trace, "retire_generation") and ("sleep", HOLD_S) not in trace.steps
    assert said(log, "generation.stamping") == [{"level": "info", "generation": 1, "switches": ["tor0", "tor2"]}]
    (w,) = said(log, "generation.retire_deferred")
    assert (w["level"], w["generation"], w["switches"]) == ("warning", 0, ["tor1"]) and w["note"]
    assert not said(log, "generation.retiring")
    assert errors == [("tor1", "tor1: activate refused")]
    assert all(a.done is None for a in agents)


def test_a_switch_that_cannot_prepare_stops_the_update_before_any_stamp():
    nu, trace, log, errors = update()
    agents = [Agent("tor0", trace, active=0, live={0}), Agent("tor1", trace, active=0, live={0},
                                                              fail={"prepare_generation"})]
    assert nu.run(ROUTES, agents, 0, shadows=True) == ({"tor0": None, "tor1": None}, None)
    assert not phases(trace, "activate", "retire_generation")
    (e,) = said(log, "generation.not_prepared")
    assert (e["level"], e["generation"], e["switches"]) == ("error", 1, ["tor1"])
    assert errors == [("tor1", "tor1: prepare_generation refused")]


# ---- new switches --------------------------------------------------------------------------------
def test_a_first_install_writes_each_shadow_with_its_generation():
    nu, trace, _, _ = update()
    agents = [Agent(f"tor{i}", trace) for i in range(2)]
    assert nu.run(ROUTES, agents, 1, shadows=True) == ({"tor0": "installed", "tor1": "installed"}, 1)
    assert phases(trace, "prepare_generation", "retire_generation") == [
        ("tor0", "prepare_generation", ROUTES, 1, True), ("tor1", "prepare_generation", ROUTES, 1, True)]
    assert all(a.done[2] is False for a in agents)


def test_a_first_install_whose_switches_keep_their_shadows_writes_them_behind_every_install():
    """Switches that leave their shadow for later (``shadow_pending``: small ones, which
    keep what it derives from) start every install before any shadow (queued behind them
    on the pool), then each writes its own; a switch that wrote its shadow at once writes
    none again, and every install is reported as installed."""
    nu, trace, log, _ = update()
    agents = [Agent("tor0", trace, pending=True), Agent("tor1", trace), Agent("tor2", trace, pending=True)]
    assert nu.run(ROUTES, agents, 0, shadows=True) == ({f"tor{i}": "installed" for i in range(3)}, 0)
    # the shadows' progress counts the switch that wrote its own at once: its last line says 3 of 3
    assert [e["phase"] for e in said(log, "memory.phase")][-1] == "retire_generation 3 of 3"
    assert phases(trace, "prepare_generation", "retire_generation") == [
        ("tor0", "prepare_generation", ROUTES, 0, True), ("tor1", "prepare_generation", ROUTES, 0, True),
        ("tor2", "prepare_generation", ROUTES, 0, True),
        ("tor0", "retire_generation", 0, ROUTES), ("tor2", "retire_generation", 0, ROUTES)]
    assert all(a.done[2] is False for a in agents)


def test_the_shadows_wait_for_every_install():
    """On a pool of several threads, no shadow starts before every switch's install ended,
    though threads are free sooner: the shadows' writes would share the interpreter and the
    switches with the last installs and delay the network's generation 0 (docs/fabric.md
    "A UCMP fabric's start"). A shadow that fails is logged and asks for no retry."""
    log = EventLog("json", stream=io.StringIO())
    log.lines = []
    trace, errors = Trace(), []
    others_free = threading.Event()

    class Slow(Agent):
        def prepare_generation(self, routes, new, shadow=False):
            if self.name == "tor1":          # the last install, long after the others ended
                assert others_free.wait(10)
                time.sleep(0.3)
            out = super().prepare_generation(routes, new, shadow)
            self.trace.steps.append((self.name, "prepare_ended"))
            if self.name == "tor0":
                others_free.set()
            return out

    nu = NetworkUpdate(ThreadPoolExecutor(3), log, hold_s=lambda: HOLD_S, sleep=trace.sleep,
                       failed=lambda a, e: errors.append(a.name))
    agents = [Slow("tor0", trace, pending=True), Slow("tor1", trace, pending=True),
              Slow("tor2", trace, pending=True, fail={"retire_generation"})]
    assert nu.run(ROUTES, agents, 0, shadows=True) == ({f"tor{i}": "installed" for i in range(3)}, 0)
    steps = [s[:2] for s in trace.steps if s[0] != "sleep"]
    last_install = max(steps.index((t, "prepare_ended")) for t in ("tor0", "tor1", "tor2"))
    assert last_install == steps.index(("tor1", "prepare_ended"))
    assert all(steps.index((t, "retire_generation")) > last_install for t in ("tor0", "tor1", "tor2"))
    assert errors == [] and said(log, "generation.shadow_failed") == [
        {"level": "warning", "switch": "tor2", "error": "tor2: retire_generation refused"}]


def test_without_shadows_a_first_install_writes_none_later_either():
    nu, trace, _, _ = update()
    agents = [Agent(f"tor{i}", trace, pending=True) for i in range(2)]
    assert nu.run(ROUTES, agents, 0, shadows=False) == ({"tor0": "installed", "tor1": "installed"}, 0)
    assert not phases(trace, "retire_generation")


def test_a_new_switch_joins_a_configured_network_and_gets_its_shadow_after_the_flip():
    """The configured switches flip to the new generation; the new switch gets it active at
    once (its stamp live everywhere only once the others hold it: it is prepared after
    them), then, after the flip, the same routes in its other generation, never live."""
    nu, trace, log, _ = update()
    agents = [Agent("tor0", trace, active=0, live={0}), Agent("tor9", trace)]
    assert nu.run(ROUTES, agents, 0, shadows=True) == ({"tor0": "swapped", "tor9": "installed"}, 1)
    assert phases(trace, "prepare_generation", "retire_generation") == [
        ("tor0", "prepare_generation", ROUTES, 1), ("tor9", "prepare_generation", ROUTES, 1, False),
        ("sleep", HOLD_S), ("tor0", "retire_generation", 1, ROUTES), ("tor9", "retire_generation", 1, ROUTES)]
    assert agents[1].done[2] is False and agents[0].done[2] is True


def test_a_shadow_that_fails_is_logged_and_asks_for_no_retry():
    nu, trace, log, errors = update()
    agents = [Agent("tor0", trace, active=0, live={0}), Agent("tor9", trace, fail={"retire_generation"})]
    assert nu.run(ROUTES, agents, 0, shadows=True) == ({"tor0": "swapped", "tor9": "installed"}, 1)
    assert errors == []
    (w,) = said(log, "generation.shadow_failed")
    assert w == {"level": "warning", "switch": "tor9", "error": "tor9: retire_generation refused"}


# ---- an update interrupted before (a crash) ---------------------------------------------------
def test_an_interrupted_flip_finishes_towards_the_generation_that_holds_the_routes():
    """Both generations live everywhere, the sources split between them (a daemon killed
    mid-flip): the update finishes the flip towards the generation that already holds these
    routes, even when fewer sources stamp it, and writes nothing more."""
    nu, trace, log, _ = update()
    flipped = Survey(1, frozenset({1}), frozenset({1}))        # what the survey after the flip reads
    agents = [Agent("tor0", trace, active=0, live={0, 1}, holds={1}, after=flipped),
              Agent("tor1", trace, active=0, live={0, 1}, holds={1}, after=flipped),
              Agent("tor2", trace, active=1, live={0, 1}, holds={1}, after=flipped)]
    out, gen = nu.run(ROUTES, agents, 0, shadows=True)
    (w,) = said(log, "generation.interrupted")
    assert (w["level"], w["generation"], w["stamps"]) == ("warning", 1, [0, 1]) and w["note"]
    assert [s for s in trace.steps if s[1:2] == ("activate",)] == [("tor0", "activate", 1), ("tor1", "activate", 1),
                                                                   ("tor2", "activate", 1)]
    assert (out, gen) == ({"tor0": "current", "tor1": "current", "tor2": "current"}, 1)
    # nothing written into the generation the flip left: the routes were already in 1
    assert [s[3] for s in trace.steps if s[1:2] == ("prepare_generation",)] == [1, 1, 1]
    assert not said(log, "generation.rejoining")


@pytest.mark.parametrize("stamps,want", [((0, 0, 1), 0), ((1, 1, 0), 1), ((0, 1, 1), 1)])
def test_an_interrupted_flip_with_neither_generation_holding_the_routes_follows_the_majority(stamps, want):
    nu, trace, log, _ = update()
    agents = [Agent(f"tor{i}", trace, active=s, live={0, 1}, holds=()) for i, s in enumerate(stamps)]
    nu.run(ROUTES, agents, 0, shadows=True)
    (w,) = said(log, "generation.interrupted")
    assert w["generation"] == want
    first = [s for s in trace.steps if s[1:2] == ("activate",)][:3]
    assert first == [(f"tor{i}", "activate", want) for i in range(3)]


def test_two_live_generations_with_one_stamp_are_an_interrupted_update_too():
    """Every source stamps generation 0 but 1 is still live (killed between the retire's
    phases, or before it): the update first retires what no source stamps."""
    nu, trace, log, _ = update()
    agents = [Agent(f"tor{i}", trace, active=0, live={0, 1}, holds={0}) for i in range(2)]
    nu.run(ROUTES, agents, 0, shadows=True)
    (w,) = said(log, "generation.interrupted")
    assert (w["generation"], w["stamps"]) == (0, [0])
    assert phases(trace, "activate", "retire_generation")[:4] == [
        ("tor0", "activate", 0), ("tor1", "activate", 0), ("sleep", HOLD_S), ("tor0", "retire_generation", 0, ROUTES)]


def test_a_switch_whose_retire_failed_is_retired_again_after_a_new_hold():
    """Every source stamps 1, every switch holds the routes in 1, but ToR 1 still declares 0
    live (its retire failed, and fails again): the update stamps 1 everywhere, holds, and
    retires once more, every time it finds two live generations."""
    nu, trace, log, _ = update()
    agents = [Agent("tor0", trace, active=1, live={1}, holds={1}),
              Agent("tor1", trace, active=1, live={0, 1}, holds={1}, fail={"retire_generation"})]
    nu.run(ROUTES, agents, 1, shadows=True)
    assert phases(trace, "activate", "retire_generation") == [
        ("tor0", "activate", 1), ("tor1", "activate", 1), ("sleep", HOLD_S),
        ("tor0", "retire_generation", 1, ROUTES), ("tor1", "retire_generation", 1, ROUTES)] * 2


def test_a_switch_stamping_a_generation_the_others_retired_joins_the_majority():
    nu, trace, log, _ = update()
    agents = [Agent("tor0", trace, active=1, live={1}), Agent("tor1", trace, active=1, live={1}),
              Agent("tor2", trace, active=0, live={0})]
    nu.run(ROUTES, agents, 1, shadows=True)
    (w,) = said(log, "generation.rejoining")
    assert (w["generation"], w["switches"]) == (1, ["tor2"])


def test_a_switch_stamping_a_generation_the_others_retired_is_brought_in_first():
    nu, trace, log, _ = update()
    agents = [Agent("tor0", trace, active=0, live={0}, holds={0}), Agent("tor1", trace, active=0, live={0}),
              Agent("tor2", trace, active=1, live={1}, holds=())]
    nu.run(ROUTES, agents, 0, shadows=True)
    (w,) = said(log, "generation.rejoining")
    assert (w["level"], w["generation"], w["switches"]) == ("warning", 0, ["tor2"]) and w["note"]
    assert phases(trace, "prepare_generation", "activate")[:4] == [
        ("tor2", "prepare_generation", ROUTES, 0), ("tor0", "activate", 0), ("tor1", "activate", 0),
        ("tor2", "activate", 0)]


# ---- progress lines ------------------------------------------------------------------------------
def test_each_phase_reports_its_progress_and_failures(monkeypatch):
    monkeypatch.setattr(update_mod, "PROGRESS_S", 0.0)
    nu, trace, log, errors = update()
    agents = [Agent(f"tor{i}", trace, fail={"survey"} if i in (1, 2) else ()) for i in range(4)]
    res = nu.each(agents, "survey", ROUTES)
    assert isinstance(res["tor1"], BackendError) and res["tor0"].active is None
    lines = said(log, "update.progress")
    assert [(e["phase"], e["done"], e["of"], e["failed"]) for e in lines] == [
        ("survey", 1, 4, 0), ("survey", 2, 4, 1), ("survey", 3, 4, 2), ("survey", 4, 4, 2)]
    assert all(e["seconds"] >= 0 and e["rss_mib"] > 0 for e in lines), lines
    mem = said(log, "memory.phase")
    assert [e["phase"] for e in mem] == ["survey 1 of 4", "survey 4 of 4"]
    assert errors == [("tor1", "tor1: survey refused"), ("tor2", "tor2: survey refused")]


def test_a_first_install_and_its_later_shadows_report_each_phases_progress_to_its_total(monkeypatch):
    """``each_then``: the installs' progress lines and memory lines count to the number of
    switches, then the shadows' do too -- a switch that wrote its shadow at once counted
    among them when its turn comes (its line like any other: the phase's name, the total,
    the seconds since the phase started) -- so the last line of each phase says N of N (the
    fabric bench reads a phase's end from it)."""
    monkeypatch.setattr(update_mod, "PROGRESS_S", 0.0)
    nu, trace, log, _ = update()
    agents = [Agent("tor0", trace, pending=True), Agent("tor1", trace), Agent("tor2", trace, pending=True)]
    nu.run(ROUTES, agents, 0, shadows=True)
    mine = ("prepare_generation", "retire_generation")
    lines = [e for e in said(log, "update.progress") if e["phase"] in mine]
    assert [(e["phase"], e["done"], e["of"], e["failed"]) for e in lines] == [
        ("prepare_generation", 1, 3, 0), ("prepare_generation", 2, 3, 0), ("prepare_generation", 3, 3, 0),
        ("retire_generation", 1, 3, 0), ("retire_generation", 2, 3, 0), ("retire_generation", 3, 3, 0)]
    assert all(isinstance(e["seconds"], float) and e["seconds"] >= 0 for e in lines), lines
    assert [e["phase"] for e in said(log, "memory.phase") if e["phase"].startswith(mine)] == [
        "prepare_generation 1 of 3", "prepare_generation 3 of 3", "retire_generation 1 of 3",
        "retire_generation 3 of 3"]


def test_progress_lines_come_every_progress_s_with_the_phases_seconds(monkeypatch):
    """A line when PROGRESS_S (10 s here) have passed since the last (or the phase's start),
    exactly 10 s included, with the seconds since the phase started, to 0.1 s."""
    import types
    times = iter([1000.0, 1000.0, 1005.0, 1011.75, 1012.0, 1021.75])      # t0, last line, then one per switch

    monkeypatch.setattr(update_mod, "PROGRESS_S", 10.0)
    monkeypatch.setattr(update_mod, "time", types.SimpleNamespace(monotonic=lambda: next(times)))
    nu, trace, log, _ = update()
    nu.each([Agent(f"tor{i}", trace) for i in range(4)], "survey", ROUTES)
    lines = said(log, "update.progress")
    assert [(e["done"], e["seconds"]) for e in lines] == [(2, 11.8), (4, 21.8)]      # the last: 10 s after
    assert all(isinstance(e["seconds"], float) for e in lines)


def test_progress_lines_are_written_in_the_order_they_count_whatever_the_threads(monkeypatch):
    """Two switches end a phase at once on two threads: the one counted first writes its
    line first, even when writing it is slow -- a phase's last line is its N of N (the
    fabric bench reads a phase's end from it). The first line's writer waits (up to 0.5 s)
    for the second's: on code that counts under the lock but writes outside it, the
    second line comes first."""
    class SlowLog:
        def __init__(self):
            self.lines, self.second = [], threading.Event()

        def event(self, event, **fields):
            if event != "update.progress":
                return
            if fields["done"] == 1:
                self.second.wait(0.5)
            else:
                self.second.set()
            self.lines.append(fields["done"])

    log = SlowLog()
    nu = NetworkUpdate(ThreadPoolExecutor(1), log, hold_s=lambda: HOLD_S, sleep=time.sleep,
                       failed=lambda a, e: None)
    monkeypatch.setattr(update_mod, "PROGRESS_S", 0.0)
    one = nu._one(2, "survey", (ROUTES,), None)
    first = threading.Thread(target=one.skipped)
    first.start()
    time.sleep(0.05)                 # the first counted (and waiting in its line) ...
    second = threading.Thread(target=one.skipped)
    second.start()                   # ... before the second counts
    first.join(5)
    second.join(5)
    assert log.lines == [1, 2]
