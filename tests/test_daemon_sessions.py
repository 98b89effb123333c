"""Opening the daemon's sessions (:func:`controller.daemon.switch.connect_all`): as many at
once as the pool has threads, progress while they open, and a session that does not open
named -- the first one stops the sessions not yet started."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from controller.agent.backend import ElectionIdHeld, NotPrimary, Unreachable
from controller.daemon import switch as sw
from controller.daemon.log import EventLog


class Agent:
    """What connect_all uses of a SwitchAgent: its name and connect()."""

    def __init__(self, name: str, track: dict, fail: bool = False, attempts_to_open: int = 1):
        self.name, self.track, self.fail, self.left = name, track, fail, attempts_to_open

    def connect(self) -> None:
        t = self.track
        with t["lock"]:
            t["now"] += 1
            t["max"] = max(t["max"], t["now"])
            t["tried"].append(self.name)
        try:
            t["gate"].wait(0.01)
            self.left -= 1
            if self.fail or self.left > 0:
                raise Unreachable(f"{self.name}: no P4Runtime server")
        finally:
            with t["lock"]:
                t["now"] -= 1


def track() -> dict:
    return {"lock": threading.Lock(), "now": 0, "max": 0, "tried": [], "gate": threading.Event()}


def log() -> EventLog:
    lg = EventLog(stream=open("/dev/null", "w"))
    lg.lines = []
    return lg


def test_sessions_open_as_many_at_once_as_the_pool_has_threads_with_progress(monkeypatch):
    monkeypatch.setattr(sw, "PROGRESS_S", 0.0)
    t, lg = track(), log()
    agents = [Agent(f"tor{i}", t) for i in range(40)]
    with ThreadPoolExecutor(4) as pool:
        assert sw.connect_all(agents, pool, lg, worker="w1") == {}
    assert sorted(t["tried"]) == sorted(a.name for a in agents)
    assert 1 <= t["max"] <= 4
    progress = [r for r in lg.lines if r["event"] == "sessions.opening"]
    assert progress and all(r["of"] == 40 and r["worker"] == "w1" for r in progress)
    assert [r["opened"] for r in progress] == sorted(r["opened"] for r in progress)
    end = lg.lines[-1]
    assert (end["event"], end["opened"], end["of"], end["failed"]) == ("sessions.opened", 40, 40, None)


def test_the_first_session_that_does_not_open_is_named_and_stops_the_others():
    t, lg = track(), log()
    agents = [Agent(f"tor{i}", t, fail=(i == 3)) for i in range(40)]
    with ThreadPoolExecutor(1) as pool:
        errors = sw.connect_all(agents, pool, lg)
    assert list(errors) == ["tor3"] and "tor3: no P4Runtime server" in str(errors["tor3"])
    assert t["tried"] == ["tor0", "tor1", "tor2", "tor3"]          # none started after it
    assert lg.lines[-1]["failed"] == ["tor3"] and lg.lines[-1]["opened"] == 3


def test_a_taken_over_switch_is_retried_and_every_error_is_reported(monkeypatch):
    """retry_s (a switch taken over from a lost worker): tried again until it opens or the
    time is up, on a clock of its own (each look 0.1 s later, no sleep)."""
    import itertools
    from types import SimpleNamespace

    ticks = itertools.count()
    monkeypatch.setattr(sw, "time", SimpleNamespace(monotonic=lambda: next(ticks) * 0.1, sleep=lambda s: None))
    t, lg = track(), log()
    agents = [Agent("late", t, attempts_to_open=3), Agent("gone", t, fail=True), Agent("ok", t)]
    with ThreadPoolExecutor(2) as pool:
        errors = sw.connect_all(agents, pool, lg, retry_s=1.0, stop_at_error=False)
    assert list(errors) == ["gone"]
    assert t["tried"].count("late") == 3 and t["tried"].count("ok") == 1 and t["tried"].count("gone") > 1


class Held:
    """An agent whose switch refuses its election id as held ``times`` times, then opens."""

    def __init__(self, name: str, times: int, exc=ElectionIdHeld):
        self.name, self.left, self.exc, self.tries = name, times, exc, 0

    def connect(self) -> None:
        self.tries += 1
        if self.left > 0:
            self.left -= 1
            raise self.exc(f"{self.name}: the switch refused election id 10 (Election id already exists)")


def test_an_election_id_held_is_waited_for_and_then_named(monkeypatch):
    """held_s (a start after a crash): a switch that still holds the daemon's old session is
    tried again until it lets go, with one ``switch.id_held`` line; one that holds it past
    held_s is named; a higher election id (NotPrimary) is never waited for."""
    import itertools
    from types import SimpleNamespace

    ticks = itertools.count()
    monkeypatch.setattr(sw, "time", SimpleNamespace(monotonic=lambda: next(ticks) * 0.1, sleep=lambda s: None))
    lg = log()
    late, held, higher = Held("late", 4), Held("held", 10**6), Held("higher", 10**6, NotPrimary)
    with ThreadPoolExecutor(1) as pool:
        errors = sw.connect_all([late, held, higher], pool, lg, held_s=2.0, stop_at_error=False)
    assert list(errors) == ["held", "higher"]
    assert isinstance(errors["held"], ElectionIdHeld) and type(errors["higher"]) is NotPrimary
    assert late.tries == 5 and higher.tries == 1 and 10 < held.tries < 25
    told = [r for r in lg.lines if r["event"] == "switch.id_held"]
    assert [(r["switch"], r["wait_s"]) for r in told] == [("late", 2.0), ("held", 2.0)]
    assert "Election id already exists" in told[0]["error"]
    end = lg.lines[-1]
    assert (end["event"], end["opened"], end["failed"]) == ("sessions.opened", 1, ["held", "higher"])


def test_without_held_s_an_election_id_held_is_an_error_at_once():
    lg = log()
    a = Held("tor1", 1)
    with ThreadPoolExecutor(1) as pool:
        errors = sw.connect_all([a], pool, lg)
    assert list(errors) == ["tor1"] and a.tries == 1
    assert not [r for r in lg.lines if r["event"] == "switch.id_held"]
