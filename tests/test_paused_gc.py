"""controller.memory.paused_gc: threads pause the cyclic collector together; it runs
again when the last one is done (and only if it was on), whatever the interleaving."""

from __future__ import annotations

import gc
import random
import threading

from controller.memory import paused_gc


def test_threads_pausing_together_leave_the_collector_as_they_found_it():
    assert gc.isenabled()
    inside = threading.Semaphore(0)
    seen_on_inside = []

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(200):
            with paused_gc():
                seen_on_inside.append(gc.isenabled())
                if rng.random() < 0.1:
                    with paused_gc():           # nested in one thread too
                        seen_on_inside.append(gc.isenabled())
        inside.release()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not any(seen_on_inside), "the collector ran while a thread had it paused"
    assert gc.isenabled(), "the collector was left off"


def test_a_collector_that_was_off_stays_off_and_an_error_resumes_it():
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    try:
        with paused_gc():
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.isenabled()


def test_what_a_burst_leaves_alive_is_frozen_where_asked_and_only_there():
    """With :func:`freeze_after_bursts` on (a daemon's process), the objects a burst made
    and left alive go to the permanent generation when the last pause ends (never walked
    by the collector again) and the collector runs again; off, nothing is frozen."""
    from controller.memory import freeze_after_bursts

    class Obj:                          # tracked by the collector, as the daemon's entries are
        pass

    gc.unfreeze()
    try:
        with paused_gc():
            kept_off = [Obj() for _ in range(1000)]
        assert gc.get_freeze_count() == 0 and gc.isenabled()
        freeze_after_bursts(True)
        with paused_gc():
            with paused_gc():           # nested: frozen once the outer pause ends, not before
                kept = [Obj() for _ in range(1000)]
            assert gc.get_freeze_count() == 0
        assert gc.get_freeze_count() >= 1000 and gc.isenabled()
        assert all(gc.is_tracked(o) for o in kept[:3]) and kept_off
    finally:
        freeze_after_bursts(False)
        gc.unfreeze()


def test_the_daemons_process_freezes_what_its_bursts_leave(monkeypatch):
    """``uro daemon`` (Daemon.run) turns the freezing on before it starts anything."""
    from controller import memory
    from controller.daemon import run

    calls = []

    class Started(Exception):
        pass

    def start(self):
        calls.append("start")
        raise Started

    monkeypatch.setattr(memory, "freeze_after_bursts", lambda on=True: calls.append(("freeze", on)))
    monkeypatch.setattr(run.signal, "signal", lambda *a: None)
    monkeypatch.setattr(run.Daemon, "start", start)
    try:
        run.Daemon.run(object.__new__(run.Daemon))
    except Started:
        pass
    assert calls == [("freeze", True), "start"]
