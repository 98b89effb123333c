"""The workers' ownership table while a takeover runs (controller/daemon/workers.py).

The clock pass runs on a thread of its own and reads ``Workers.actors`` and
``Workers.owner`` (which worker to ask for which switch) while an update's takeover
hands a lost worker's switches to the others. The takeover therefore replaces both dicts
whole (copy-on-write) instead of changing them in place: a reader keeps the dict it took,
never one that changes size under it. No Dask here: the actors are stand-ins whose
``own`` answers like a worker's."""

from __future__ import annotations

import io
from types import SimpleNamespace

from controller.daemon.log import EventLog
from controller.daemon.workers import Workers
from controller.schedule.degrade import Failed


class _Done:
    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value


class _Actor:
    """Answers ``own`` as a worker that reached every switch it was given."""

    def __init__(self):
        self.owned: list[str] = []

    def own(self, names, shadows, failed):
        self.owned += names
        return _Done({})


def _workers() -> tuple[Workers, dict]:
    ws = Workers(SimpleNamespace(daemon=SimpleNamespace(workers=3)), EventLog("json", io.StringIO()))
    actors = {w: _Actor() for w in ("w0", "w1", "w2")}
    ws.actors = dict(actors)
    ws.owner = {f"tor{i}": f"w{i % 3}" for i in range(9)}
    return ws, actors


def test_a_takeover_gives_the_lost_workers_switches_to_the_others():
    ws, actors = _workers()
    ws.lost.add("w1")
    assert ws.take_over(False, Failed()) == {}
    assert sorted(ws.actors) == ["w0", "w2"] and ws.alive() == ["w0", "w2"]
    assert sorted(actors["w0"].owned + actors["w2"].owned) == ["tor1", "tor4", "tor7"]
    assert {n for n, w in ws.owner.items() if w == "w1"} == set()
    assert all(ws.owner[n] == w for w, a in actors.items() for n in a.owned)
    assert len(ws.owner) == 9


def test_a_takeover_leaves_the_dicts_a_reader_holds_as_they_were():
    """What a clock pass took before the takeover (its iteration over them) is untouched:
    the takeover changed neither dict in place."""
    ws, _ = _workers()
    held_actors, held_owner = ws.actors, ws.owner
    before_actors, before_owner = dict(held_actors), dict(held_owner)
    ws.lost.add("w1")
    ws.take_over(False, Failed())
    assert held_actors == before_actors and held_owner == before_owner
    assert ws.actors is not held_actors and ws.owner is not held_owner
