"""Calendar queues of the t2na ToR on the model (URO §IV-C): the one-shot pick skips a Full
queue, the mirror copy of a packet that fills its queue marks it Full, a refused packet
comes back once by resubmit. The clock is stopped for the module (the active slice's time is
used up, so every packet waits for a later slice, test_c), the queue state is set the way
the program sets it (a BfRt write of the queue-state bitmap, all copies; the byte count of
a queue), and each test puts back what it wrote.

Each departure is compared with the bmv2 fuzzing's reference model (bmv2_tests/tor_model.py)
fed the pushed routes without the alternatives the queue state rules out, and checked in the
model's ingress trace: the qid the TM got is the calendar queue of the departure slice and a
resubmitted packet went through ingress exactly twice."""

from __future__ import annotations

import dataclasses
import time

import pytest

from ingress_log import by_ident, ingress_passes
from model_util import LogTail
from test_c_forwarding import _dev, reference  # noqa: F401 (the reference-model fixture)

from controller.p4gen import profile as prof
from controller.p4gen.targets.t2na import T2na
from controller.tofino2.bfrt_json import KeyField, Write

#: the program's constants for tiny, as the template compiles them in (p4src/tor_tiny_t2na.p4;
#: unit = 1 byte): a queue's slice, the mark past which no full frame fits, a frame's overhead
_TINY = T2na.context(prof.load("tiny"))
CAP_UNITS, FILL_MARK, OVERHEAD = _TINY["cap_units"], _TINY["cap_units"] - _TINY["mtu_units"], _TINY["frame_overhead"]
QSTATE = [f"UroIngress.qstate_{r}" for r in range(4)]
QFIN = "UroIngress.qfin_reg"


def write_reg(view, name: str, index: int, value: int) -> None:
    view.s.write("mod", Write("pipe." + name, (KeyField("$REGISTER_INDEX", index),), None,
                              ((name + ".f1", value),), pipe=view.pipe))


@pytest.fixture(scope="module")
def frozen(view):
    """(slice, active calendar queue) with the clock stopped for the module."""
    cur = view.frozen_slice()
    try:
        yield cur, view.register("UroIngress.active_reg")
    finally:
        view.timer(True)


@pytest.fixture
def regs(view):
    """Register writes of one test (value None: a cell the program writes), put back to 0
    (drained, Unfull) afterwards. (A register write takes seconds on the model.)"""
    touched = set()

    def w(name, index, value):
        touched.add((name, index))
        if value is not None:
            write_reg(view, name, index, value)
    try:
        yield w
    finally:
        for name, index in touched:
            write_reg(view, name, index, 0)


@pytest.fixture(scope="module")
def case(reference, frozen, tiny):
    """A destination whose first alternative and one more leave in later slices (eligible with
    the clock stopped): (dst, [(uplink, dep slice, qidx, qid)] of its later alternatives with
    the first one first, the reference tables without the active slice's alternatives)."""
    tm, t = reference
    cur, active = frozen
    for dst in range(1, 8):
        alts = t.uro.get((cur, dst), [])
        later = [(u, s) for u, s in alts if s != cur]
        if dst in t.source_routed or len(later) < 2 or alts[0][1] == cur:
            continue
        rows = []
        for u, s in later:
            q = (active + (s - cur) % tiny.slices) % tiny.queues
            rows.append((u, s, u * 256 + q, q))
        assert len({r[2] for r in rows}) == len(rows), rows
        tl = dataclasses.replace(t, uro={k: [a for a in v if a[1] != k[0]] for k, v in t.uro.items()})
        return dst, rows, tl
    pytest.fail(f"no destination with two later-slice alternatives in slice {cur}: {t.uro}")


def expect(tm, tl, dst, pkt, cur, drop_first: int):
    """The reference model's departure with the first ``drop_first`` later alternatives out."""
    t = dataclasses.replace(tl, uro={**tl.uro, (cur, dst): tl.uro[(cur, dst)][drop_first:]})
    fate = tm.decide(t, pkt.build(), 0, cur)
    assert isinstance(fate, tm.Sent), fate
    return fate


class Counts:
    """The counter cells a test looks at, read over BfRt: the drops (13 cells) and only the
    named cells of the events bitmap (4096 cells: a read-all of it is seconds on the model).
    A packet is counted once, in the cell whose index is the set of its events."""

    def __init__(self, view, contract):
        ev, dr = contract["counters"]["events"], contract["counters"]["drops"]
        self.view = view
        self.bit = {n: 1 << i for i, n in enumerate(ev["indices"])}
        self.ev_table, self.dr_table = "pipe." + ev["name"], "pipe." + dr["name"]
        self.reason = {i + int(dr.get("cell_offset", 0)): n for i, n in enumerate(dr["indices"])}

    def cell(self, *events: str) -> int:
        return sum(self.bit[e] for e in events)

    def read(self, cells) -> dict:
        """{("events", cell): packets} for ``cells`` and {("drops", reason): packets}."""
        from controller.agent.bfrt import _key_value

        s = self.view.s
        t = s._table(self.ev_table)
        keys = [t.make_key([s.gc.KeyTuple("$COUNTER_INDEX", c)]) for c in cells]
        out = {}
        for data, key in t.entry_get(s.target(), keys, {"from_hw": True}):
            out[("events", int(_key_value(key.to_dict()["$COUNTER_INDEX"])))] = \
                int(data.to_dict().get("$COUNTER_SPEC_PKTS", 0))
        for i, n in s.read_cells(self.dr_table).items():
            out[("drops", self.reason.get(i, i))] = n
        return out


@pytest.fixture(scope="module")
def counts(view, build):
    return Counts(view, build[1])


def exchange(counts, ports, port_map, model, pkts, want_left, watch):
    """Send ``pkts`` on host 0; wait until the idents in ``want_left`` left, then until the
    counters in ``watch`` ({("events", cell) | ("drops", reason): n}) moved by n; return (left {ident: (dev port,
    bytes)}, counter deltas {(counter, cell or reason): n}, the packets' ingress passes by
    ident, the log tail)."""
    from scapy.all import Ether

    idents = [Ether(p.build())["IP"].id for p in pkts]
    tail = LogTail(model.log_dir)
    tail.mark()
    cells = [c for k, c in watch if k == "events"]
    before = counts.read(cells)
    sn = ports.sniffer([p for p in (*port_map.hosts, *port_map.uplinks) if p != port_map.hosts[0]])
    for p in pkts:
        ports.send(port_map.hosts[0], p)

    def left_now():
        out = {}
        for f in list(sn.results or []):
            e = Ether(bytes(f))
            if e.haslayer("IP") and e["IP"].id in idents:
                out[e["IP"].id] = (ports.port_of(f.sniffed_on), bytes(f))
        return out
    deadline = time.time() + 30
    while not set(want_left) <= set(left_now()) and time.time() < deadline:
        time.sleep(0.2)
    time.sleep(1.0)                     # anything more (a second copy, a late drop) shows now
    sn.stop()
    left = left_now()
    while True:
        now = counts.read(cells)
        delta = {k: v - before.get(k, 0) for k, v in now.items() if v != before.get(k, 0)}
        if all(delta.get(k, 0) >= n for k, n in watch.items()) or time.time() > deadline:
            break
        time.sleep(0.5)
    return left, delta, by_ident(ingress_passes(tail.lines()), idents), tail


def left_as(left, ident, fate, port_map, qid, passes):
    assert ident in left, f"packet {ident:#x} did not leave; the reference model sends it on {fate.port}"
    port, frame = left[ident]
    assert port == _dev(port_map, fate.port), (port, fate)
    assert frame == fate.frame, (frame.hex(), fate.frame.hex())
    # the TM got the departure slice's calendar queue, for that port (the model's trace)
    assert [(p.qid, p.egress_port) for p in passes[ident]][-1:] == [(qid, port)], passes[ident]


def test_a_full_queue_sends_the_packet_on_the_next_alternative(view, ports, port_map, model, reference, frozen,
                                                                case, regs, counts):
    """Alternative 0's queue marked Full in the queue-state bitmap (every copy, as a
    queue-state update sets it): the packet leaves on the next alternative, in its queue,
    counted as ``reroute_spill``; with the queue Unfull the same packet takes alternative 0."""
    from fabric import udp

    tm, _ = reference
    cur, _ = frozen
    dst, rows, tl = case
    spill = ("events", counts.cell("reroute_spill"))
    a = udp(dst, ident=0x301)
    left, delta, passes, _ = exchange(counts, ports, port_map, model, [a], [0x301], {spill: 0})
    left_as(left, 0x301, expect(tm, tl, dst, a, cur, 0), port_map, rows[0][3], passes)
    assert delta == {}, delta                               # no event, no drop

    for name in QSTATE:
        regs(name, rows[0][2], 1)
    b = udp(dst, ident=0x302)
    left, delta, passes, _ = exchange(counts, ports, port_map, model, [b], [0x302], {spill: 1})
    left_as(left, 0x302, expect(tm, tl, dst, b, cur, 1), port_map, rows[1][3], passes)
    assert delta == {spill: 1}, delta                       # counted once as reroute_spill alone
    assert len(passes[0x302]) == 1, passes[0x302]          # the Full queue is skipped, not tried


def test_b_the_mirror_copy_of_a_filling_packet_marks_its_queue_full(view, ports, port_map, model, reference, frozen,
                                                                     case, regs, counts):
    """Alternative 0's queue booked so that the packet leaves less than a full frame of its
    slice: the packet leaves on it, its mirror copy comes back through the recirculation
    port carrying the queue's index, and every copy of the queue state reads Full after
    (``qstate_full`` counted once). (That a Full copy sends the next packet on, test_a.)"""
    from fabric import udp

    tm, _ = reference
    cur, _ = frozen
    dst, rows, tl = case
    i0 = rows[0][2]
    a = udp(dst, ident=0x311)
    length = len(a[1]) + OVERHEAD
    booked = FILL_MARK + 1 - length                          # fin = FILL_MARK + 1: no room for 1538 B
    regs(QFIN, i0, booked)
    assert [view.register(n, i0) for n in QSTATE] == [0] * len(QSTATE)   # Unfull before
    for name in QSTATE:
        regs(name, i0, None)                                 # the update sets them: put back after
    full, spill = ("events", counts.cell("qstate_full")), ("events", counts.cell("reroute_spill"))
    left, delta, passes, tail = exchange(counts, ports, port_map, model, [a], [0x311], {full: 1, spill: 0})
    left_as(left, 0x311, expect(tm, tl, dst, a, cur, 0), port_map, rows[0][3], passes)
    assert delta == {full: 1}, delta                        # the update counted once, no drop
    assert view.register(QFIN, i0) == FILL_MARK + 1
    assert [view.register(n, i0) for n in QSTATE] == [1] * len(QSTATE)
    upd = [p for p in ingress_passes(tail.lines()) if p.in_port == port_map.recirc_dev_port]
    assert [(p.head[0], int.from_bytes(p.head[2:4], "big")) for p in upd] == [(0xA2, i0)], upd


def test_c_a_refused_packet_is_resubmitted_once(view, ports, port_map, model, reference, frozen, case, regs,
                                                counts):
    """Alternative 0's queue Unfull but its slice booked full: admission refuses the packet,
    it is resubmitted and leaves on the next alternative (two ingress passes,
    ``resubmit_spill`` counted once). With every later queue booked full the second refusal
    drops it as ``all_full``: resubmitted once, never a third pass."""
    from fabric import udp

    tm, _ = reference
    cur, _ = frozen
    dst, rows, tl = case
    # the second pass counts its events: resubmitted, on an alternative after the first
    again = ("events", counts.cell("resubmit_spill", "reroute_spill"))
    regs(QFIN, rows[0][2], CAP_UNITS)
    a = udp(dst, ident=0x321)
    left, delta, passes, _ = exchange(counts, ports, port_map, model, [a], [0x321], {again: 1})
    left_as(left, 0x321, expect(tm, tl, dst, a, cur, 1), port_map, rows[1][3], passes)
    assert len(passes[0x321]) == 2, passes[0x321]
    assert delta == {again: 1}, delta
    assert view.register(QFIN, rows[0][2]) == CAP_UNITS          # the refused queue was not booked

    for _, _, i, _ in rows:
        regs(QFIN, i, CAP_UNITS)
    b = udp(dst, ident=0x322)
    left, delta, passes, _ = exchange(counts, ports, port_map, model, [b], [], {again: 1, ("drops", "all_full"): 1})
    assert 0x322 not in left, left[0x322]
    assert len(passes[0x322]) == 2, passes[0x322]
    assert delta == {again: 1, ("drops", "all_full"): 1}, delta
