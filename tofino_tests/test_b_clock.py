"""The slice clock on the model: the packet generator's timer application advances the
slice register once per trigger; its packets never leave the switch; the AFC words the
program emits walk each uplink's calendar queues in order (pause the old active queue,
resume the next). The model runs the 2 us timer at ~25 triggers/s and its TM does not act
on AFC, so the clock is counted in triggers and AFC is checked by the words emitted."""

from __future__ import annotations

import time

from controller.tofino2 import afc
from model_util import LogTail


def _stopped(view) -> tuple[int, int, int]:
    """Stop the clock; once the data plane has taken every generated packet (the model
    works through a backlog: its epoch register lags the generator's trigger counter),
    (triggers, epoch, slice)."""
    view.timer(False)
    last = None
    for _ in range(60):
        time.sleep(0.25)
        now = (view.triggers(), view.register("UroIngress.epoch_reg"), view.register("UroIngress.slice_reg"))
        if now == last:
            return now
        last = now
    raise AssertionError(f"the clock did not settle: {last}")


def test_slice_clock_advances_one_slice_per_trigger(view, tiny):
    """Each trigger of the timer application (2 batches of d packets) ticks the clock once:
    the epoch register counts triggers, the slice register is the epoch mod S."""
    S = tiny.slices
    t0, e0, s0 = _stopped(view)
    view.timer(True)
    time.sleep(2.0)
    t1, e1, s1 = _stopped(view)
    view.timer(True)
    n = t1 - t0
    assert n >= 5, f"only {n} timer triggers in 2 s"
    assert e1 - e0 == n, (t0, e0, t1, e1)
    assert s1 == (s0 + n) % S, (s0, s1, n)


def test_timer_packets_never_leave(view, ports):
    before = view.triggers()
    sn = ports.sniffer()
    time.sleep(2.0)
    got = sn.stop()
    assert view.triggers() - before >= 5
    assert list(got) == [], [p.summary() for p in got]


def test_afc_words_walk_each_uplinks_calendar_queues(view, model, port_map, tiny):
    Q = tiny.queues
    qmap = view.queue_map(port_map.uplinks)
    owner = {qmap[(p, q)]: (u, q) for u, p in enumerate(port_map.uplinks) for q in range(Q)}
    tail = LogTail(model.log_dir)
    tail.mark()
    time.sleep(3.0)
    words = [afc.decode(w) for w in tail.afc_words()]
    assert len(words) >= 4 * 4, f"{len(words)} AFC words in 3 s"
    seq: dict[int, list] = {}
    for w in words:
        assert w["afc"] == 1 and w["pipe"] == port_map.pipe and w["pad"] == 0
        u, q = owner[w["pg_queue"]]                  # the queue belongs to an uplink's carving
        assert w["pg_id"] == port_map.uplinks[u] >> 3 & 0xF
        seq.setdefault(u, []).append(("pause" if w["credit"] else "resume", q))
    assert sorted(seq) == list(range(tiny.uplinks))
    for u, s in seq.items():
        # pause(q) is followed by resume(q + 1): one slice later the next queue is active
        for (a, qa), (b, qb) in zip(s, s[1:]):
            if a == "pause":
                assert b == "resume" and qb == (qa + 1) % Q, s
            else:
                assert b == "pause" and qb == qa, s
