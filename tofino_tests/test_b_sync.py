"""The synchronization exchange's responder on the model (docs/tofino2.md "The exchange"): a
REQ from an uplink, sent by the peer this slice's circuit names, is answered by a RESP out
of the same uplink with t2 taken at ingress and t3 in egress from the corrected clock; a
sync frame from a host port, from a ToR the circuit does not bring, to another ToR, in
timer mode or truncated changes nothing and is counted under its reason.

tofino-model's ``global_tstamp`` stands still (test_b_clock.py), so the test is the
requester with crafted timestamps: the clock is held (no trigger ticks), the switch's local
times at ingress and egress are learnt from a first RESP, and every later RESP must be
what the reference model (``controller.clock.servo``) says for those local times after the
test moves the clock's boundary and local slice length -- the stamps follow the corrected
clock, not the raw one."""

from __future__ import annotations

import time

import pytest

from controller.agent.diff import Diff
from controller.clock import message as sm
from controller.clock import servo
from controller.clock.params import ClockParams
from controller.schedule.generate import round_robin
from controller.tables import clock as clock_entries
from controller.tables.state import Batch
from test_b_clock import BOUND, M32, _held


def _write(view, insert=(), modify=(), delete=()) -> None:
    view.b.apply(Diff(insert=Batch(entries=list(insert)), modify=Batch(entries=list(modify)),
                      delete=Batch(entries=list(delete))))


#: the requester's registers (egress): per uplink the slice number from which its next REQ
#: is due, and its open request (t1; phase REQ_NONE: none)
REQ_DUE = "UroEgress.req_due_reg"
REQ_REG = "UroEgress.req_reg"
REQ_NONE = 0xFFFFFFFF
#: the ToR's stratum (egress): {stratum, last_k}, as the program starts it
STRATUM = "UroEgress.stratum_reg"
STRATUM_START = {"stratum": sm.UNSYNCED, "last_k": 0}


def hold_requester(view, k: int, uplinks: int) -> None:
    """No uplink's REQ due for 2^30 slices from slice number ``k`` (``req_due_reg``, compared
    wrap-aware): in sync mode the switch's own requester sends a REQ from a timer packet
    whose phase is in the exchange window, which a test's boundary put half a slice after
    the model's standing time is -- that REQ would leave an uplink amid the test's frames
    and open the request the test wrote (``req_reg``)."""
    for u in range(uplinks):
        view.set_register(REQ_DUE, (k + (1 << 30)) & M32, index=u)


def reset_requester(view, uplinks: int) -> None:
    """The requester's registers as the program starts them: every uplink due from slice
    number 0, no request open, unsynchronized (stratum 255)."""
    for u in range(uplinks):
        view.set_register(REQ_DUE, 0, index=u)
        view.set_register(REQ_REG, {"k": 0, "phase": REQ_NONE}, index=u)
    view.set_register(STRATUM, STRATUM_START)


@pytest.fixture(scope="module")
def sync(view, build, tiny):
    """tor0 in sync mode (its sync_peer entries and clock_config, as the daemon writes them)
    with the clock held and its own requester held (:func:`hold_requester`: the tests here
    are its peer); put back in timer mode, its peers deleted, the requester's registers
    reset and the clock running after the module."""
    contract = build[1]
    L = contract["clock"]["slice_ns"]
    sched = round_robin(tiny.tors, tiny.uplinks)
    params = ClockParams(slice_ns=L)
    batch = clock_entries.tor_clock_batch(contract, sched, params, 0)
    peers = [e for e in batch.entries if not e.is_default]
    config = [e for e in batch.entries if e.is_default]
    hold_requester(view, view.clock()["k"], tiny.uplinks)      # before sync mode turns it on
    _write(view, insert=peers, modify=config)
    try:
        c0 = _held(view)
        yield {"L": L, "sched": sched, "clock": c0, "peers": peers}
    finally:
        _write(view, delete=peers, modify=[clock_entries.clock_config_entry(contract, None)])
        reset_requester(view, tiny.uplinks)
        view.timer(True)


def _counts(view) -> dict[str, int]:
    return view.b.read_counter("sync")


def _req(peer: int, me: int, uplink: int, t1: sm.Stamp, **kw) -> bytes:
    return sm.encode_frame(sm.Message(sm.Op.REQ, kw.pop("flags", 0), src_tor=peer, dst_tor=me, uplink=uplink,
                                      t1=t1, **kw))


def _counted(view, c0: dict[str, int], timeout_s: float, n: int = 1) -> dict[str, int]:
    """The sync counter's cells that moved since ``c0``, once they moved by ``n`` in all."""
    deadline = time.time() + timeout_s
    while True:
        time.sleep(0.5)
        c1 = _counts(view)
        if sum(c1[r] - c0[r] for r in c1) >= n:
            return {r: c1[r] - c0[r] for r in c1 if c1[r] != c0[r]}
        assert time.time() < deadline, f"the sync counter did not move in {timeout_s:g} s"


def _dropped(view, ports, rounds: list[list[tuple[int, bytes, str]]], timeout_s: float = 60.0) -> None:
    """Send each round's ``(dev, frame, reason)`` frames together, the reasons of a round all
    different: the sync counter moves by exactly one under each of the round's reasons (and
    no other) before the next round is sent, and nothing leaves any port (one sniffer for
    all: starting one costs seconds on a loaded machine). A round costs one wait for the
    model, whatever its size: the reasons within a round still tell its frames apart."""
    from scapy.all import Ether

    sn = ports.sniffer()
    try:
        for sends in rounds:
            want = {reason: 1 for _, _, reason in sends}
            assert len(want) == len(sends), f"two frames of a round expect one reason: {sends}"
            c0 = _counts(view)
            for dev, frame, _ in sends:
                ports.send(dev, Ether(frame))
            _counted(view, c0, timeout_s, len(sends))
            time.sleep(0.2)                 # (a second cell of the same frame would show by now)
            c1 = _counts(view)
            assert {r: c1[r] - c0[r] for r in c1 if c1[r] != c0[r]} == want, want
        time.sleep(1.0)                     # anything the last one sent through the TM shows now
    finally:
        got = sn.stop()
    sent = {f for r in rounds for _, f, _ in r}
    out = [p for p in got if bytes(p) not in sent]
    assert out == [], [p.summary() for p in out]


def _exchange(view, ports, dev: int, frame: bytes, timeout_s: float = 60.0) -> sm.Message:
    """Send ``frame`` into ``dev``: the sync counter's ``resp_sent`` moves by exactly 1 (and
    no other reason moves), and the RESP comes back out of ``dev`` alone."""
    from scapy.all import Ether

    c0 = _counts(view)
    sn = ports.sniffer()
    try:
        ports.send(dev, Ether(frame))
        moved = _counted(view, c0, timeout_s)
        time.sleep(1.0)                     # the RESP through the TM and egress, and anything else, shows now
    finally:
        got = [p for p in sn.stop() if bytes(p) != frame]
    assert moved == {"resp_sent": 1}, moved
    assert [ports.port_of(p.sniffed_on) for p in got] == [dev], [p.summary() for p in got]
    return sm.decode_frame(bytes(got[0]))


def _linked(sched, slice_id: int) -> list[int]:
    """tor0's uplinks whose circuit brings a peer in slice ``slice_id`` (-1 in the schedule:
    none; a round robin of 8 ToRs over 2 uplinks x 4 slices leaves one uplink dark once)."""
    return [u for u in range(sched.peer.shape[2]) if sched.peer[slice_id, 0, u] >= 0]


def _t2(k: int, nxt: int, llen: int, l: int) -> sm.Stamp:
    """The data plane's t2: ``len - (next - now)`` in 32-bit arithmetic (servo.read_time
    while the slice has started, ``0 <= next - now <= len``)."""
    return sm.Stamp(k, (llen - (nxt - l)) & M32)


def _t3(k: int, nxt: int, llen: int, sl: int, l: int, S: int) -> tuple[sm.Stamp, int]:
    """The data plane's t3 and slice id in egress (servo.out_stamp)."""
    a = (l - nxt) & M32
    if a >= 1 << 31:
        return sm.Stamp(k, (llen + a) & M32), sl
    return sm.Stamp((k + 1) & M32, a), (0 if sl + 1 >= S else sl + 1)


# the correction's boundary is within a slice of the generator's time: on a loaded machine
# the model can still take a trigger of a later time (its backlog), which ticks the clock;
# the rerun starts from a clock held again
@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_a_req_from_this_slices_peer_is_answered_from_the_corrected_clock(view, ports, port_map, sync, tiny):
    """RESP out of the uplink the REQ came in on: to the requester, t1 echoed, the responder
    unsynchronized (BOOT, stratum 255: the t2na ToR takes no RESP), t2 and t3 from the
    clock's registers at the switch's local times (learnt from this first RESP: the model's
    time stands). Then a correction -- the boundary put half a slice after the ingress time,
    40 ns earlier, the slice 7 ns longer -- and the next RESP's stamps are the reference
    model's (servo.read_time at ingress, servo.out_stamp in egress) for the corrected clock,
    and the offset and delay a requester computes from them are the arithmetic's. The clock
    is held here (not the fixture's): a test before may have ticked it."""
    L, sched, c = sync["L"], sync["sched"], _held(view)
    S = tiny.slices
    u = _linked(sched, c["slice"])[-1]
    peer = int(sched.peer[c["slice"], 0, u])
    dev = port_map.uplinks[u]
    t1 = sm.Stamp((c["k"] - 3) & M32, 12345)
    m = _exchange(view, ports, dev, _req(peer, 0, u, t1))
    assert (m.op, m.src_tor, m.dst_tor, m.uplink, m.t1) == (sm.Op.RESP, 0, peer, u, t1)
    assert (m.flags, m.stratum, m.term, m.lead, m.lead_k) == (int(sm.Flag.BOOT), sm.UNSYNCED, 0, 0, 0)
    # the switch's local times at ingress and egress (32 bits), as the stamps say
    assert m.t2.k == c["k"]
    l_in = (c["next"] - c["len"] + m.t2.phase) & M32
    l_out = ((c["next"] - c["len"] + m.t3.phase) if m.t3.k == c["k"] else (c["next"] + m.t3.phase)) & M32
    assert (l_out - l_in) & M32 < 1 << 31, (l_in, l_out)           # egress is not before ingress
    assert (m.t3, m.slice) == _t3(c["k"], c["next"], c["len"], c["slice"], l_out, S)

    # a correction: the boundary half a slice after the ingress time, then 40 ns earlier
    # (the clock ahead), the slice 7 ns longer. Kept ahead of the triggers' time, so that
    # no trigger ticks meanwhile.
    D, E = 40, 7
    nxt = (l_in + L // 2 - D) & M32
    assert (nxt - c["now"]) & M32 < 1 << 31, (f"the model stamps front-panel packets at {l_in}, the generator's at "
                                              f"{c['now']}: a boundary within a slice of the former would tick the clock")
    view.set_register(BOUND, {"next": nxt, "slice": c["slice"]})
    view.set_register("UroIngress.len_reg", c["len"] + E)
    try:
        t1b = sm.Stamp((c["k"] - 2) & M32, 999)
        m2 = _exchange(view, ports, dev, _req(peer, 0, u, t1b))
        snap = servo.read_time(c["k"], nxt, c["len"] + E, c["slice"], l_in)
        assert m2.t2 == snap.stamp == _t2(c["k"], nxt, c["len"] + E, l_in)
        assert m2.t2.phase == c["len"] + E - L // 2 + D
        assert (m2.t3, m2.slice) == servo.out_stamp(snap, l_out, S)
        # the requester's arithmetic on these stamps (t4 crafted: 1000 ns after t1 at the requester)
        t4 = sm.Stamp(t1b.k, t1b.phase + 1000)
        assert sm.offset(t1b, m2.t2, m2.t3, t4, L) == (sm.diff(m2.t2, t1b, L) + sm.diff(m2.t3, t4, L)) // 2
        assert sm.path_delay(t1b, m2.t2, m2.t3, t4, L) == (sm.diff(t4, t1b, L) - sm.diff(m2.t3, m2.t2, L)) // 2
    finally:
        view.set_register(BOUND, {"next": c["next"], "slice": c["slice"]})
        view.set_register("UroIngress.len_reg", c["len"])


def test_sync_frames_that_must_not_move_the_clock_are_counted_and_dropped(view, ports, port_map, sync, tiny):
    """From a host port (`from_host`), from a ToR this slice's circuit does not bring
    (`wrong_peer`), to another ToR (`wrong_dst`), a REF request (`wrong_dst`: a ToR is not
    the reference), truncated (`malformed`), an op the t2na ToR does not take (`malformed`):
    nothing leaves and the clock's registers are as they were (held here)."""
    sched, c = sync["sched"], _held(view)
    u = _linked(sched, c["slice"])[0]
    peer = int(sched.peer[c["slice"], 0, u])
    other = next(t for t in range(1, tiny.tors) if t != peer)
    dev = port_map.uplinks[u]
    t1 = sm.Stamp(c["k"], 5)
    req = _req(peer, 0, u, t1)
    seed = sm.encode_frame(sm.Message(sm.Op.SEED, 0, src_tor=peer, dst_tor=0, t3=t1))
    _dropped(view, ports, [
        [(port_map.hosts[0], req, "from_host"), (dev, _req(other, 0, u, t1), "wrong_peer"),
         (dev, _req(peer, other, u, t1), "wrong_dst"), (dev, req[:14 + 20], "malformed")],
        [(dev, _req(peer, 0, u, t1, flags=int(sm.Flag.REF)), "wrong_dst"), (dev, seed, "malformed")],
    ])
    # the clock's registers; `now` (the last trigger's local time) is the model's global_tstamp,
    # which moves a little
    c1 = view.clock()
    assert {n: v for n, v in c1.items() if n != "now"} == {n: v for n, v in c.items() if n != "now"}, (c, c1)


def test_in_timer_mode_a_req_is_counted_off(view, ports, port_map, build, sync):
    contract = build[1]
    sched, c = sync["sched"], _held(view)
    u = _linked(sched, c["slice"])[0]
    peer = int(sched.peer[c["slice"], 0, u])
    _write(view, modify=[clock_entries.clock_config_entry(contract, None)])
    try:
        _dropped(view, ports, [[(port_map.uplinks[u], _req(peer, 0, u, sm.Stamp(c["k"], 5)), "off")]])
    finally:
        cfg = clock_entries.tor_clock_batch(contract, sched, ClockParams(slice_ns=sync["L"]), 0).entries[-1]
        _write(view, modify=[cfg])
