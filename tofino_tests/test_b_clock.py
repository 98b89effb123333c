"""The slice clock on the model: the packet generator's timer fires several times per
slice and the trigger whose local time reaches the next boundary ticks the clock (slice,
slice number, epoch, active queue) and emits the AFC words; its packets never leave the
switch; the AFC words walk each uplink's calendar queues in order (pause the old active
queue, resume the next). tofino-model's ``global_tstamp`` stands still while the timer
runs (and jumps when it is turned off) and its TM does not act on AFC, so the tests move
the boundary against the standing local time, read the clock with the timer running, and
count ticks and AFC words, not time."""

from __future__ import annotations

import time

from controller.tofino2 import afc
from model_util import LogTail

BOUND = "UroIngress.bound_reg"
M32 = 0xFFFFFFFF


def _settled(view, what: str, min_triggers: int = 0, timeout_s: float = 120.0) -> dict:
    """The clock's registers, with the timer running, once ``min_triggers`` more triggers
    were generated and the registers stayed the same for 1.5 s (the model works through a
    backlog: its registers lag the generator's trigger counter)."""
    t0 = view.triggers()
    deadline = time.time() + timeout_s
    last = None
    while True:
        time.sleep(1.5)
        c = view.clock()
        if last is not None and c == last and view.triggers() - t0 >= min_triggers:
            return c
        assert time.time() < deadline, f"{what}: the clock did not settle in {timeout_s:g} s: {last} -> {c}"
        last = c


def _held(view, attempts: int = 3) -> dict:
    """Timer running, nothing ticking (the boundary 2^30 ns ahead of the model's standing
    time): the clock's registers as the last hold wrote them, the same at two reads.

    The model's standing time now and then steps by 1 ms while the timer runs (after a
    hold, or between the settled read and the next hold): a boundary written from the time
    before the step no longer matches the registers read after it. The hold is then done
    again from the time that stands, up to ``attempts`` times."""
    view.timer(True, run=False)
    view.hold_clock()
    seen = []
    for _ in range(attempts):
        c = _settled(view, "held", min_triggers=3)
        now = view.hold_clock()                 # the boundary again, from the time read now
        if now == c["now"] and c["next"] == (now + (1 << 30)) & M32:
            return c
        seen.append((c["now"], c["next"], now))
    raise AssertionError(f"the model's global_tstamp moved with the timer running at each of {attempts} "
                         f"holds (time settled, boundary read, time at the next hold): {seen}")


def test_the_clock_ticks_where_its_corrected_time_reaches_the_boundary(view, model, tiny):
    """With the next boundary put n slices before the (standing) local time, exactly n
    triggers tick, however many run: epoch, slice number, slice id and active queue move by
    n, the boundary by n slices, and the AFC words come from those n triggers only (2 x d
    each); afterwards the clock is ahead of the local time and waits. Fails on a program
    whose every trigger ticks (epoch == triggers)."""
    S, Q, d, L = tiny.slices, tiny.queues, tiny.uplinks, view.b._pipeline.contract["clock"]["slice_ns"]
    try:
        c0 = _held(view)
        n = 5
        start = (c0["now"] - (n - 1) * L) & M32            # boundaries at now - 4L, ..., now: five reached
        tail = LogTail(model.log_dir)
        tail.mark()
        t0 = view.triggers()
        view.set_register(BOUND, {"next": start, "slice": c0["slice"]})
        c1 = _settled(view, "after the ticks", min_triggers=3 * n)
        assert c1["now"] == c0["now"], "the model's global_tstamp moved with the timer running"
        assert view.triggers() - t0 >= 3 * n                       # the other triggers changed nothing
        assert (c1["epoch"] - c0["epoch"]) % 65536 == n, (c0, c1)
        assert (c1["k"] - c0["k"]) & M32 == n
        assert c1["slice"] == (c0["slice"] + n) % S and c1["active_q"] == (c0["active_q"] + n) % Q
        assert c1["next"] == (start + n * L) & M32
        assert len(tail.afc_words()) == n * 2 * d, (len(tail.afc_words()), n)
    finally:
        view.timer(True)


def test_the_local_slice_length_paces_the_boundaries(view, tiny):
    """The rate correction: with the local slice length at L + 7, each tick moves the
    boundary by L (the compare-and-add) and the ticking trigger's clock update by 7 more
    (a mirror copy through the recirculation port), so n ticks move it by n x (L + 7)."""
    L = view.b._pipeline.contract["clock"]["slice_ns"]
    try:
        c0 = _held(view)
        n = 4
        start = (c0["now"] - (n - 1) * (L + 7)) & M32
        view.set_register("UroIngress.len_reg", L + 7)
        view.set_register(BOUND, {"next": start, "slice": c0["slice"]})
        c1 = _settled(view, "after the ticks", min_triggers=3 * n)
        assert c1["now"] == c0["now"], "the model's global_tstamp moved with the timer running"
        assert (c1["epoch"] - c0["epoch"]) % 65536 == n, (c0, c1)
        assert c1["next"] == (start + n * (L + 7)) & M32, (hex(start), c1["next"] - start)
    finally:
        view.set_register("UroIngress.len_reg", L)
        view.timer(True)


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
