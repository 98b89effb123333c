"""The reference clock model at its edges (controller/clock/servo.py, docs/clock.md): the
integer helpers at the widths the data plane keeps, every comparison of the servo and the
requester exactly at its bound, a step that carries into the next slice, and the OCS
emulator's reference clock message by message.

The bmv2 packet tests predict registers with this model, so a model that is wrong at a
bound makes them predict the program's mistake; these tests pin each bound to what
docs/clock.md says, one value on each side of it. (Found by mutation testing: `uro bench
--suite mutation --module clock.servo`, docs/mutation.md.)"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import example, given, strategies as st

from controller.clock.message import ANY_TOR, REF_TOR, UNSYNCED, Flag, Message, Op, Stamp
from controller.clock.params import ClockParams
from controller.clock.servo import (FAULT_RATE_SHIFT, M32, FaultModel, ReferenceClock, Snapshot, SwitchClock,
                                    crossed, later_k, long_div, mod_const, newer_term, out_stamp, read_time,
                                    s32, s64, sat32)

# test_clock.py's clock: 50 ms slices, S = Q = 4, D = 2, ToR 0's circuits PEERS; its ToRs,
# seeds and synchronized pair
from test_clock import PEERS, D, L, Q, S, params, seeded, synced_pair, tor  # noqa: E402

LQ = 10_000_000         # a requester's TRIGGER at this phase: inside the exchange window


def resp_for(a: SwitchClock, b: SwitchClock, lq: int, d: int, turn: int = 1000, u: int = 0) -> tuple[Message, int]:
    """ToR ``a``'s REQ at ``lq`` answered by ``b`` (delay ``d`` each way, both clocks at
    true time but for their seeds): (the RESP, a's local time when it arrives)."""
    why, p = a.trigger(lq, Message(Op.TRIGGER, uplink=u))
    assert why == "req_sent", why
    req = a.sent(p, lq)
    why, p2 = b.request(lq + d, req, u)
    assert why == "resp_sent", why
    return b.sent(p2, lq + d + turn), lq + 2 * d + turn


# ---- the integer helpers --------------------------------------------------------------------
@given(st.integers(-2**70, 2**70))
@example(2**63 - 1)
@example(2**63)
@example(2**64 - 1)
def test_signed_views_of_64_and_32_bit_registers(x):
    assert s64(x) == ((x + 2**63) % 2**64) - 2**63
    assert s32(x) == ((x + 2**31) % 2**32) - 2**31


@pytest.mark.parametrize("x,want", [(-2**31 - 1, -2**31), (-2**31, -2**31), (-2**31 + 1, -2**31 + 1),
                                    (2**31 - 2, 2**31 - 2), (2**31 - 1, 2**31 - 1), (2**31, 2**31 - 1),
                                    (2**33, 2**31 - 1), (-2**33, -2**31), (0, 0)])
def test_saturation_to_a_signed_32_bit_register(x, want):
    assert sat32(x) == want


@given(st.integers(1000, 2**32 - 1), st.integers(2**32, 2**40))
def test_a_quotient_past_32_bits_keeps_32_bits(llen, q):
    """The switch's quotient register is 32 bits: past that the division still ends with
    a 32-bit quotient (and the remainder what is left), never a 33rd bit."""
    q32, r = long_div(llen * q, llen)
    assert q32 < 2**32 and q32 * llen + r == llen * q


def test_mod_by_the_largest_constant():
    assert mod_const(M32, M32) == 0 and mod_const(M32 - 1, M32) == M32 - 1


def test_crossing_exactly_one_slice_length_after_the_boundary_counts_two():
    """A packet at next + llen: the boundary at next and the one a slice later both passed."""
    assert crossed(100, 10, 110) == (2, 120)
    assert crossed(100, 10, 109) == (1, 110)
    assert crossed(100, 10, 99) == (0, 100)


def test_the_time_read_before_at_and_after_a_boundary():
    # after the boundary at 100 (the slice that ended there was 50 long): its phase runs on
    assert read_time(7, 100, 50, 1, 130).phase == 80
    assert read_time(7, 100, 50, 1, 100).phase == 50
    assert read_time(7, 100, 50, 1, 70).phase == 20
    # before the slice's start (more than a slice before the boundary): phase 0, no wrap
    assert read_time(7, 100, 50, 1, 40).phase == 0
    assert read_time(7, 100, 50, 1, 50).phase == 0


def test_the_egress_stamp_at_the_boundary_is_the_next_slice():
    snap = Snapshot(k=9, next=1000, llen=500, slice=S - 1, phase=400)
    assert out_stamp(snap, 999, S) == (Stamp(9, 499), S - 1)
    assert out_stamp(snap, 1000, S) == (Stamp(10, 0), 0)           # the slice id wraps to 0
    assert out_stamp(replace(snap, slice=1), 1010, S) == (Stamp(10, 10), 2)


def test_a_term_half_the_space_ahead_is_not_newer():
    assert newer_term(0x7FFF, 0, 0, 0) and not newer_term(0x8000, 0, 0, 0)
    assert newer_term(0x8001 + 0x7FFE, 0, 0x8001, 0) and not newer_term(0x8001 + 0x8000, 0, 0x8001, 0)


def test_the_later_of_two_slice_numbers_half_the_space_apart_is_the_first():
    assert later_k(0, 2**31 - 1) == 2**31 - 1
    assert later_k(0, 2**31) == 0
    assert later_k(M32, 3) == 3


def test_fault_rate_of_a_whole_clock_rate():
    assert FaultModel.rate_of_ppm(1e6) == 1 << FAULT_RATE_SHIFT
    assert FaultModel.rate_of_ppm(-1e6) == -(1 << FAULT_RATE_SHIFT)


# ---- a switch's clock: time and steps ---------------------------------------------------------
def test_peek_reads_the_slice_id_too():
    c = seeded(tor(), 0, 101, 0)
    snap = c.peek(L // 2)
    assert (snap.k, snap.slice, snap.phase) == (101, 101 % S, L // 2)


def test_a_step_to_another_slice_number_starts_a_new_slice_for_the_queues():
    c = tor()
    c.r.next, c.r.epoch, c.r.active_q = 2**40, 5, Q - 2      # no boundary crossed before the seed
    seeded(c, 0, 100, 0)
    assert (c.r.epoch, c.r.active_q, c.r.steps) == (6, Q - 1, 1)
    seeded(c, 0, 200, 0)
    assert (c.r.epoch, c.r.active_q, c.r.steps) == (7, 0, 2)              # the active queue wraps
    seeded(c, 0, 200, 1000)                                                 # the same slice number
    assert (c.r.epoch, c.r.active_q, c.r.steps) == (7, 0, 2)
    seeded(c, 0, 201, 0)
    assert (c.r.epoch, c.r.active_q, c.r.steps) == (8, 1, 3)


def test_timer_mode_answers_off_to_every_message():
    c = tor(mode="timer")
    assert c.request(0, Message(Op.REQ, src_tor=1), 0) == ("off", None)
    assert c.response(0, Message(Op.RESP, src_tor=1), 0) == "off"
    assert c.seed(0, Message(Op.SEED, t3=Stamp(1, 0))) == "off"
    ref = ReferenceClock(ClockParams(slice_ns=L, mode="timer").ocs_config(), slices=S)
    assert ref.seed(0, Message(Op.SEED, Flag.REF, t3=Stamp(1, 0))) == "off"
    assert ref.answer(0, Message(Op.REQ, Flag.REF, src_tor=1)) == ("off", None)


# ---- the requester's bounds ---------------------------------------------------------------------
def test_the_exchange_window_includes_both_its_ends():
    lo, hi = params().window
    for phase in (lo, hi):
        c = seeded(tor(), 0, 100, 0)
        c.r.stratum, c.r.last_k = 2, 100
        why, p = c.trigger(phase, Message(Op.TRIGGER, uplink=0))
        assert why == "req_sent" and p.snap.phase == phase
        assert c.r.uplinks[0].open == 1
    for phase in (lo - 1, hi + 1):
        c = seeded(tor(), 0, 100, 0)
        c.r.stratum, c.r.last_k = 2, 100
        assert c.trigger(phase, Message(Op.TRIGGER, uplink=0))[0] == "outside_window"


def test_search_starts_only_past_search_wait():
    c = seeded(tor(), 0, 100, 0)
    c.r.stratum, c.r.last_k = 2, 100 - c.cfg.search_wait
    why, p = c.trigger(LQ, Message(Op.TRIGGER, uplink=0))
    assert (why, p.msg.dst_tor, p.msg.flags) == ("req_sent", PEERS[(100 % S, 0)], 0)   # exactly search_wait old
    c.r.last_k -= 1
    why, p = c.trigger(L + LQ, Message(Op.TRIGGER, uplink=0))
    assert (p.msg.dst_tor, p.msg.flags) == (ANY_TOR, Flag.BOOT)


def test_a_lead_silent_for_half_the_slice_number_space_is_not_older():
    """A candidate claims when the lead's last sign of life is more than its wait ago,
    wrap-aware: 2^31 slices ago reads as the future, so it does not claim."""
    c = seeded(tor(7, leads=(6, 7)), 0, 100, 0)
    c.r.term, c.r.lead, c.r.stratum, c.r.last_k = 3, 6, 2, 100
    c.r.lead_k = (100 - 2**31) & M32
    c.trigger(LQ, Message(Op.TRIGGER, uplink=1))
    assert (c.r.term, c.r.lead, c.events["claimed"]) == (3, 6, 0)
    c.r.lead_k = (101 - 2**31 + 1) & M32                    # 2^31 - 1 slices ago: older
    c.trigger(L + LQ, Message(Op.TRIGGER, uplink=1))
    assert (c.r.term, c.r.lead, c.events["claimed"]) == (4, 7, 1)


def test_a_req_is_stamped_with_its_slice_and_an_answer_carries_no_raw_clock_but_a_probes():
    c = seeded(tor(), 0, 101, 0)
    c.r.stratum = 2
    why, p = c.trigger(LQ, Message(Op.TRIGGER, uplink=1))
    req = c.sent(p, L + 5)                                  # left after the boundary
    assert (req.t1, req.slice, req.aux) == (Stamp(102, 5), 102 % S, 0)
    why, p = c.request(LQ, Message(Op.REQ, src_tor=PEERS[(101 % S, 1)], dst_tor=0, uplink=1, t1=Stamp(3, 4)), 1)
    resp = c.sent(p, LQ + 10, raw_e=12345)
    assert (why, resp.op, resp.t1, resp.t3, resp.slice, resp.aux) == ("resp_sent", Op.RESP, Stamp(3, 4),
                                                                        Stamp(101, LQ + 10), 101 % S, 0)
    why, p = c.probe(LQ, Message(Op.PROBE, src_tor=9, uplink=1, t1=Stamp(5, 6)))
    assert why == "probe"
    reply = c.sent(p, LQ + 20, raw_e=777)
    assert (reply.op, reply.flags, reply.dst_tor, reply.uplink, reply.t1, reply.t2, reply.t3, reply.aux) == (
        Op.PROBE_REPLY, 0, 9, 1, Stamp(5, 6), Stamp(101, LQ), Stamp(101, LQ + 20), 777)
    assert c.sent(p, LQ + 20).aux == 0                      # no raw clock given: none written


# ---- the servo's bounds ---------------------------------------------------------------------------
def test_an_exchange_exactly_at_max_delay_is_used():
    a, b = synced_pair(theta=30_000)
    d = a.cfg.max_delay
    resp, l4 = resp_for(a, b, LQ, d + 0, turn=0)
    # delta = ((l4 - t1) - (t3 - t2)) / 2 = d
    assert a.response(l4, resp, 0) == "applied" and a.r.delay == d
    assert a.r.uplinks[0].open == 0
    a, b = synced_pair(theta=30_000)
    resp, l4 = resp_for(a, b, LQ, d + 1, turn=0)
    assert a.response(l4, resp, 0) == "slow"


def test_an_offset_exactly_at_max_offset_is_applied_one_more_refused():
    for off, want in ((0, "applied"), (1, "refused")):
        a, b = synced_pair(theta=0)
        b.r.next = (b.r.next - a.cfg.max_offset - off) & 2**64 - 1     # b ahead by max_offset (+ 1)
        resp, l4 = resp_for(a, b, LQ, 20_000)
        assert a.response(l4, resp, 0) == want
        assert a.r.offset == a.cfg.max_offset + off


def test_an_offset_of_one_ns_moves_the_rate_by_one_ns_the_right_way():
    for sign in (1, -1):
        a, b = synced_pair(theta=0, servo_shift=0)
        b.r.next = (b.r.next - sign) & 2**64 - 1                        # b ahead (behind) by 1 ns
        resp, l4 = resp_for(a, b, LQ, 20_000)
        assert a.response(l4, resp, 0) == "applied" and a.r.offset == sign
        assert a.r.llen == L - sign                                     # ahead: a shorter slice


def test_adoptions_are_counted_each_time():
    a, b = synced_pair(theta=30_000)
    for term, lq in ((2, LQ), (3, L + LQ)):
        b.r.term = term
        resp, l4 = resp_for(a, b, lq, 20_000)
        a.response(l4, resp, 0)
    assert a.events["adopted"] == 2


def with_t3(resp: Message, t3: Stamp, slice_id: int, turn: int = 1000) -> Message:
    """``resp`` answered at ``t3`` in slice id ``slice_id``, taken ``turn`` ns earlier (the
    same path delay: only t3 - t2 enters it)."""
    return replace(resp, t2=Stamp(t3.k, t3.phase - turn), t3=t3, slice=slice_id)


def _step_from(resp: Message, l4: int, a: SwitchClock) -> tuple[str, Stamp, int]:
    a.r.stratum = UNSYNCED
    why = a.response(l4, resp, 0)
    return why, a.peek(l4).stamp, a.r.slice


def test_a_step_carries_into_the_next_slice_and_wraps_the_slice_id():
    """An unsynchronized ToR steps to t3 + delta: past the responder's slice end, that is
    the next slice number and slice id (S - 1 -> 0)."""
    delta, k = 20_000, 104
    for t3_phase, sl, want in ((L - delta, S - 1, (Stamp(k, 0), 0)),            # exactly the slice's end
                               (L - delta - 1, S - 1, (Stamp(k - 1, L - 1), S - 1)),
                               (L - delta + 7, 1, (Stamp(k, 7), 2)),
                               (L - delta, S - 2, (Stamp(k, 0), S - 1))):
        a, b = synced_pair()
        resp, l4 = resp_for(a, b, LQ, delta)
        resp = with_t3(resp, Stamp(k - 1, t3_phase), sl)
        assert _step_from(resp, l4, a) == ("step", *want)
        assert a.r.delay == delta


def test_a_step_from_a_phase_past_two_slices_ends_in_the_last_ns_of_the_next():
    a, b = synced_pair()
    resp, l4 = resp_for(a, b, LQ, 20_000)
    resp = with_t3(resp, Stamp(50, 3 * L), 1)
    assert _step_from(resp, l4, a) == ("step", Stamp(51, L - 1), 2)
    a, b = synced_pair()
    resp, l4 = resp_for(a, b, LQ, 20_000)
    resp = with_t3(resp, Stamp(50, 2 * L - 20_000), 1)              # t3 + delta = 2 L exactly
    assert _step_from(resp, l4, a) == ("step", Stamp(51, L - 1), 2)


def test_a_step_over_a_negative_path_delay_adds_nothing():
    """Stamps whose path delay comes out negative (a responder's clock running backwards
    between t2 and t3): the step goes to t3 itself."""
    a, b = synced_pair()
    resp, l4 = resp_for(a, b, LQ, 20_000)
    resp = replace(resp, t2=Stamp(60, 100_000), t3=Stamp(60, 200_000), slice=0)   # t3 - t2 > t4 - t1
    why, stamp, _ = _step_from(resp, l4, a)
    assert a.r.delay < 0 and (why, stamp) == ("step", Stamp(60, 200_000))


def test_the_references_answer_makes_the_lead_stratum_1_whatever_it_says():
    """A REF RESP taken (step or applied): stratum 1 and the lead's freshness now -- not the
    responder's stratum + 1 or its lead_k (a REF RESP says stratum 0; here another one
    below this ToR's, which a peer's answer would make this ToR's stratum + 1)."""
    for stratum0, says in ((UNSYNCED, 5), (2, 1)):
        c = seeded(tor(7, leads=(7,)), 0, 100, 0)
        c.r.term, c.r.lead, c.r.lead_k, c.r.stratum = 1, 7, 100, stratum0
        why, p = c.trigger(LQ, Message(Op.TRIGGER, uplink=0))
        assert why == "ref_req_sent"
        req = c.sent(p, LQ)
        resp = Message(Op.RESP, Flag.REF, REF_TOR, 7, 0, says, 0, REF_TOR, 150, t1=req.t1,
                       t2=Stamp(100, LQ + 20_000), t3=Stamp(100, LQ + 21_000), slice=100 % S)
        got = c.response(LQ + 41_000, resp, 0)
        assert got == ("step" if stratum0 == UNSYNCED else "applied")
        assert (c.r.stratum, c.r.lead_k, c.r.last_k) == (1, c.r.k, c.r.k)


def test_a_peers_answer_makes_lead_k_the_later_of_the_two():
    a, b = synced_pair(theta=30_000)
    a.r.lead_k, b.r.lead_k = 90, 95
    resp, l4 = resp_for(a, b, LQ, 20_000)
    assert a.response(l4, resp, 0) == "applied" and a.r.lead_k == 95
    a, b = synced_pair(theta=30_000)
    a.r.lead_k, b.r.lead_k = 99, 95
    resp, l4 = resp_for(a, b, LQ, 20_000)
    assert a.response(l4, resp, 0) == "applied" and a.r.lead_k == 99


# ---- the reference clock (the OCS emulator) ---------------------------------------------------
def reference(**kw) -> ReferenceClock:
    return ReferenceClock(params(**kw).ocs_config(), slices=S)


def test_an_unseeded_reference_counts_slices_from_local_time_zero():
    ref = reference()
    assert ref.stratum == UNSYNCED
    assert ref.tick(5).stamp == Stamp(1, 5) and ref.slice == 1


def test_the_reference_refuses_a_seed_out_of_range_and_takes_a_plain_one_unsynchronized():
    ref = reference()
    assert ref.seed(0, Message(Op.SEED, Flag.REF, t3=Stamp(7, L), slice=0)) == "malformed"
    assert ref.seed(0, Message(Op.SEED, Flag.REF, t3=Stamp(7, 0), slice=S)) == "malformed"
    assert ref.stratum == UNSYNCED
    assert ref.seed(0, Message(Op.SEED, Flag.REF, t3=Stamp(7, L - 1), slice=S - 1)) == "seed"
    assert ref.stratum == 0
    assert ref.seed(0, Message(Op.SEED, 0, t3=Stamp(7, 0), slice=3)) == "seed"
    assert ref.stratum == UNSYNCED


def test_the_references_answer_and_probe_reply_field_by_field():
    ref = reference()
    probe = Message(Op.PROBE, src_tor=4, uplink=1, t1=Stamp(8, 9))
    why, p = ref.probe(100, probe)
    assert why == "probe"
    reply = ref.sent(p, 200, raw_e=4242)
    assert reply == Message(Op.PROBE_REPLY, Flag.REF | Flag.BOOT, REF_TOR, 4, 1, UNSYNCED, 0, REF_TOR, 0,
                            t1=Stamp(8, 9), t2=Stamp(1, 100), t3=Stamp(1, 200), slice=1, aux=4242)
    assert ref.sent(p, 200).aux == 0
    ref.seed(0, Message(Op.SEED, Flag.REF, t3=Stamp(40, 0), slice=0))
    why, p = ref.probe(L - 10, probe)
    reply = ref.sent(p, L + 10, raw_e=1)                 # across the boundary: the next slice
    assert (reply.flags, reply.stratum, reply.t2, reply.t3, reply.slice) == (Flag.REF, 0, Stamp(40, L - 10),
                                                                            Stamp(41, 10), 1)
    req = Message(Op.REQ, Flag.REF, src_tor=6, dst_tor=REF_TOR, uplink=1, stratum=1, term=3, lead=6,
                  lead_k=77, t1=Stamp(40, 5))
    why, p = ref.answer(L - 10, req)
    resp = ref.sent(p, L + 10, raw_e=99)
    assert why == "ref_answered"
    assert resp == Message(Op.RESP, Flag.REF, REF_TOR, 6, 1, 0, 0, REF_TOR, 0, t1=Stamp(40, 5),
                           t2=Stamp(40, L - 10), t3=Stamp(41, 10), slice=1, aux=0)
