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
