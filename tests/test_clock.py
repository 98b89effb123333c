"""The slice clock's codec, parameters and reference model (controller/clock, docs/clock.md):
no switch. The model is what the bmv2 packet tests predict registers with, so its
arithmetic is checked against plain integer/float arithmetic here, and every rule of
its state machine against a crafted exchange."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings, strategies as st

from controller.clock import message as m
from controller.clock.message import ANY_TOR, REF_TOR, UNSYNCED, Flag, Message, MessageError, Op, Stamp
from controller.clock.params import MODE_SYNC, MODE_TIMER, ClockConfigError, ClockParams
from controller.clock.servo import (FAULT_RATE_SHIFT, M32, FaultModel, ReferenceClock, SwitchClock, div1000,
                                    least_delay, long_div, mod_const, newer_term)

L = 50_000_000          # 50 ms slices
S, Q, D = 4, 4, 2


# ---- codec ------------------------------------------------------------------------------
def stamps():
    return st.builds(Stamp, st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))


def messages():
    u = lambda b: st.integers(0, 2**b - 1)   # noqa: E731
    return st.builds(Message, u(8), u(8), u(16), u(16), u(8), u(8), u(16), u(16), u(32), stamps(), stamps(),
                     stamps(), u(16), u(16), u(64))


@given(messages())
def test_message_round_trips_through_header_and_frame(msg):
    b = m.encode(msg)
    assert len(b) == m.HEADER_BYTES == 52
    assert m.decode(b) == msg
    f = m.encode_frame(msg)
    assert len(f) == m.FRAME_BYTES == 66 and f[12:14] == b"\x88\xb6"
    assert m.decode_frame(f) == msg
    assert m.decode(b + b"trailing bytes") == msg


def test_header_layout_is_the_documented_one():
    msg = Message(Op.RESP, Flag.REF | Flag.BOOT, 0x0102, 0x0304, 5, 6, 0x0708, 0x090A, 0x0B0C0D0E,
                  Stamp(0x11121314, 0x15161718), Stamp(0x21222324, 0x25262728), Stamp(0x31323334, 0x35363738),
                  0x4142, 0, 0x5152535455565758)
    b = m.encode(msg)
    assert b[0] == 2 and b[1] == 3 and b[2:4] == b"\x01\x02" and b[4:6] == b"\x03\x04" and b[6] == 5 and b[7] == 6
    assert b[8:10] == b"\x07\x08" and b[10:12] == b"\x09\x0a" and b[12:16] == bytes.fromhex("0b0c0d0e")
    assert b[16:24] == bytes.fromhex("1112131415161718") and b[32:40] == bytes.fromhex("3132333435363738")
    assert b[40:42] == b"\x41\x42" and b[42:44] == b"\0\0" and b[44:52] == bytes.fromhex("5152535455565758")
    offsets, pos = {}, 0
    for name, bits in m.FIELDS:
        offsets[name] = pos
        pos += bits // 8
    assert offsets == {"op": 0, "flags": 1, "src_tor": 2, "dst_tor": 4, "uplink": 6, "stratum": 7, "term": 8,
                       "lead": 10, "lead_k": 12, "t1_k": 16, "t1_phase": 20, "t2_k": 24, "t2_phase": 28,
                       "t3_k": 32, "t3_phase": 36, "slice": 40, "reserved": 42, "aux": 44}


@pytest.mark.parametrize("bad,msg", [
    (lambda: Message(Op.REQ, src_tor=1 << 16), "src_tor = 65536 does not fit 16 bits"),
    (lambda: Message(Op.REQ, stratum=-1), "stratum = -1"),
    (lambda: Message(Op.REQ, t1=(1, 2)), "t1 must be a Stamp"),
    (lambda: Stamp(1 << 32, 0), "k = 4294967296"),
    (lambda: m.decode(b"\x01" * 51), "truncated: 51 of 52"),
    (lambda: m.decode_frame(b"\xff" * 12 + b"\x08\x00" + b"\0" * 52), "EtherType 0x0800 is not a sync message"),
    (lambda: m.decode_frame(b"\xff" * 10), "no Ethernet header"),
    (lambda: m.encode_frame(Message(Op.REQ), dst=b"\1"), "MAC addresses are 6 bytes"),
])
def test_bad_messages_are_refused_with_the_field_named(bad, msg):
    with pytest.raises(MessageError, match=msg):
        bad()


@given(st.integers(0, 2**62), st.integers(1000, 2**32 - 1))
def test_stamp_of_ns_and_back(t, slice_ns):
    s = Stamp.of_ns(t, slice_ns)
    assert 0 <= s.phase < slice_ns
    assert s.ns(slice_ns) % (slice_ns * 2**32) == t % (slice_ns * 2**32)
    assert Stamp.of_word(s.word()) == s


@given(st.integers(0, 2**32 - 1), st.integers(-2**31 + 1, 2**31 - 2), st.integers(0, L - 1), st.integers(0, L - 1))
def test_slice_difference_is_right_across_the_wrap(k, dk, pa, pb):
    a, b = Stamp((k + dk) % 2**32, pa), Stamp(k, pb)
    assert m.diff(a, b, L) == dk * L + pa - pb


@given(t1=st.integers(0, 10**12), off=st.integers(-10**10, 10**10), d1=st.integers(0, 10**7),
       d2=st.integers(0, 10**7), turn=st.integers(0, 10**6))
def test_offset_and_delay_agree_with_float_arithmetic(t1, off, d1, d2, turn):
    """A requester at true time t1, a responder ``off`` ns ahead, one-way delays d1 (there)
    and d2 (back): theta = off + (d1 - d2) / 2, delta = (d1 + d2) / 2, as floats, up to the
    data plane's halving (an arithmetic shift: rounds down)."""
    r1 = Stamp.of_ns(t1, L)
    r2 = Stamp.of_ns(t1 + d1 + off + 10**13, L)      # responder's clock (never negative)
    r3 = Stamp.of_ns(t1 + d1 + turn + off + 10**13, L)
    r4 = Stamp.of_ns(t1 + d1 + turn + d2, L)
    theta = m.offset(r1, r2, r3, r4, L)
    delta = m.path_delay(r1, r2, r3, r4, L)
    assert abs(theta - (off + 10**13 + (d1 - d2) / 2)) <= 0.5
    assert abs(delta - (d1 + d2) / 2) <= 0.5
    assert theta == (off + 10**13) + ((d1 - d2) >> 1) and delta == (d1 + d2) >> 1


@given(t1=st.integers(0, 10**12), off=st.integers(-10**10, 10**10), d1=st.integers(0, 10**6),
       d2=st.integers(0, 10**6), h1=st.integers(0, 10**8), h2=st.integers(0, 10**8), turn=st.integers(0, 10**6))
def test_the_circuits_residence_is_taken_out_of_each_way(t1, off, d1, d2, h1, h2, turn):
    """The OCS emulator held the REQ h1 ns and the RESP h2 ns (told in aux): theta and delta
    are those of the links alone, whatever the two holds (a requester that ignored them
    would be off by (h1 - h2) / 2)."""
    r1 = Stamp.of_ns(t1, L)
    r2 = Stamp.of_ns(t1 + d1 + h1 + off + 10**13, L)
    r3 = Stamp.of_ns(t1 + d1 + h1 + turn + off + 10**13, L)
    r4 = Stamp.of_ns(t1 + d1 + h1 + turn + d2 + h2, L)
    fwd, back = m.residence(m.add_residence(m.add_residence(Message(Op.RESP, aux=h1 << 32), h2), 0).aux)
    assert (fwd, back) == (h1, h2)
    assert m.offset(r1, r2, r3, r4, L, fwd, back) == (off + 10**13) + ((d1 - d2) >> 1)
    assert m.path_delay(r1, r2, r3, r4, L, fwd, back) == (d1 + d2) >> 1


def test_add_residence_fills_its_half_saturates_and_leaves_other_messages_alone():
    req = Message(Op.REQ, aux=(5 << 32) | 7)
    assert m.add_residence(req, 1000).aux == (1005 << 32) | 7
    assert m.add_residence(Message(Op.RESP, aux=(5 << 32) | 7), 1000).aux == (5 << 32) | 1007
    assert m.add_residence(Message(Op.REQ, aux=0xFFFFFFF0 << 32), 10**6).aux == 0xFFFFFFFF << 32
    assert m.add_residence(req, -3).aux == req.aux                       # a negative hold adds nothing
    for other in (Message(Op.REQ, Flag.REF, aux=9), Message(Op.NOTICE, aux=9), Message(Op.PROBE_REPLY, aux=9)):
        assert m.add_residence(other, 1000) == other


# ---- the data plane's integer helpers ----------------------------------------------------
@given(st.integers(0, 2**32 - 1))
def test_div1000_is_exact_for_32_bit_values(x):
    assert div1000(x) == x // 1000


@given(st.integers(0, 2**63), st.integers(1000, 2**32 - 1))
def test_long_division_matches_divmod_while_the_quotient_fits_32_bits(el, llen):
    q, r = long_div(el, llen)
    if el // llen < 2**32:
        assert (q, r) == divmod(el, llen)
    assert q * llen + r == el


@given(st.integers(0, 2**32 - 1), st.integers(1, 70000))
def test_mod_by_a_constant(n, c):
    assert mod_const(n, c) == n % c


# ---- parameters ------------------------------------------------------------------------------
def params(**kw) -> ClockParams:
    """50 ms slices, a 5 ms guard; lead candidates 6 and 7 unless said (the tests' ToRs
    0..5 do not claim)."""
    kw.setdefault("leads", (6, 7))
    return ClockParams(slice_ns=L, guard_ns=5_000_000, **kw)


def test_tor_config_derives_window_bounds_and_waits():
    p = params(leads=(3, 1), holdover_cycles=2)
    c = p.tor_config(1, 8, 2, S)
    assert (c.mode, c.my_tor, c.slice_ns) == (MODE_SYNC, 1, L)
    assert (c.window_lo, c.window_hi) == (5_000_000, L - 5_000_000 - 2 * (L // 8))
    assert (c.max_offset, c.max_delay) == (L // 4, L // 8)
    assert (c.len_min, c.len_max) == (L - L // 1000, L + L // 1000)
    assert (c.candidate, c.start_wait, c.claim_wait) == (1, 1 * S, (2 + 1) * S)
    c0 = p.tor_config(0, 8, 2, S)
    assert (c0.candidate, c0.start_wait, c0.claim_wait) == (0, 0, 0)
    assert p.tor_config(3, 8, 2, S).start_wait == 0
    assert ClockParams(slice_ns=L, mode="timer").tor_config(0, 8, 2, S).mode == MODE_TIMER
    assert set(c.params()) >= {"window_hi", "claim_wait", "servo_shift"}


@pytest.mark.parametrize("kw,msg", [
    (dict(slice_ns=10_000_000, guard_ns=3_000_000, max_delay_ns=2_500_000),
     r"a slice of 10000 us cannot hold an exchange: it needs 2 x guard \(3000 us\) \+ 2 x max_delay "
     r"\(2500 us\) = 11000 us"),
    (dict(leads=(0, 9)), r"leads\[1\] = 9 is not a ToR \(0..7\)"),
    (dict(leads=(2, 2)), "name a ToR twice"),
    (dict(leads=()), "non-empty list"),
    (dict(ref_uplink=2), "ref_uplink must be in 0..1, got 2"),
    (dict(mode="free"), "mode must be one of timer, sync"),
    (dict(refuse_limit=0), "refuse_limit must be in 1..255"),
    (dict(servo_shift=40), "servo_shift must be in 0..31"),
    (dict(max_offset_ns=L), r"max_offset_us must be in 1..49999, got 50000\b"),
    (dict(max_delay_ns=L + 500), r"max_delay_us must be in 1..49999, got 50000.5\b"),
    (dict(slice_ns=5 * 10**9), "slice length"),
    (dict(exchange_every=True), "exchange_every must be an integer"),
])
def test_bad_clock_parameters_are_refused_with_the_key_and_numbers(kw, msg):
    base = dict(slice_ns=L, guard_ns=5_000_000)
    base.update(kw)
    with pytest.raises(ClockConfigError, match=msg):
        ClockParams(**base).tor_config(0, 8, 2, S)


def test_a_tor_outside_the_network_is_refused():
    with pytest.raises(ClockConfigError, match="ToR 8 is not in the network"):
        params().tor_config(8, 8, 2, S)


# ---- the model: time --------------------------------------------------------------------------
PEERS = {(s, u): (s + u + 1) % 8 for s in range(S) for u in range(D)}   # ToR 0's circuits


def tor(tor_id=0, peers=PEERS, **kw) -> SwitchClock:
    cfg = params(**kw).tor_config(tor_id, 8, D, S)
    return SwitchClock(cfg, slices=S, queues=Q, uplinks=D, peer=lambda s, u: peers.get((s, u)))


@given(st.lists(st.integers(0, 30 * L), min_size=1, max_size=20))
def test_tick_counts_every_boundary_passed(gaps):
    """However sparse the packets, the slice number is the number of slices since start,
    and slice id / epoch / active queue move with it (mod S, Q)."""
    c = tor()
    l = 0
    for g in gaps:
        l += g
        snap = c.tick(l)
        assert snap.k == l // L + 1 and snap.phase == l % L     # registers start at next = 0
        assert (c.r.slice, c.r.epoch, c.r.active_q) == (snap.k % S, snap.k, snap.k % Q)
        assert c.r.llen == L


def seeded(c: SwitchClock, l: int, k: int, phase: int, ref=False) -> SwitchClock:
    assert c.seed(l, Message(Op.SEED, Flag.REF if ref else 0, t3=Stamp(k, phase), slice=k % S)) == "seed"
    return c


def test_seed_steps_the_clock_and_sets_the_stratum():
    c = tor()
    c.tick(7 * L)
    seeded(c, 7 * L + 123, 1000, 4_000)
    assert c.peek(7 * L + 123).stamp == Stamp(1000, 4_000)
    assert c.peek(7 * L + 123 + L - 4_000).stamp == Stamp(1000, L)      # not crossed before a tick
    assert c.tick(7 * L + 123 + L - 4_000).stamp == Stamp(1001, 0)
    assert (c.r.stratum, c.r.lead_k, c.r.slice) == (UNSYNCED, 1000, 1001 % S)
    seeded(c, 9 * L, 5, 0, ref=True)
    assert c.r.stratum == 0
    assert c.seed(9 * L, Message(Op.SEED, t3=Stamp(5, L), slice=1)) == "malformed"
    assert c.seed(9 * L, Message(Op.SEED, t3=Stamp(5, 0), slice=S)) == "malformed"


def test_egress_stamp_follows_a_boundary_passed_in_the_switch():
    c = seeded(tor(), 0, 10, 0)
    snap = c.tick(L - 2000)
    assert c.sent(c.probe(L - 2000, Message(Op.PROBE))[1], L - 1000).t3 == Stamp(10, L - 1000)
    out = c.sent(c.probe(L - 2000, Message(Op.PROBE))[1], L + 500, raw_e=777)
    assert (out.t3, out.slice, out.aux, out.t2) == (Stamp(11, 500), 11 % S, 777, snap.stamp)


def test_fault_model_scales_and_steps_the_local_clock():
    f = FaultModel()
    assert f.local(5_000) == 5_000
    f.rate = FaultModel.rate_of_ppm(200)
    assert f.rate == round(200e-6 * 2**FAULT_RATE_SHIFT)
    assert f.local(1_000_005_000) == 1_000_005_000 + (10**9 * f.rate >> FAULT_RATE_SHIFT)
    f.step = -5_000_000
    l = f.local(2_000_005_000)
    assert abs(l - (2_000_005_000 + (2 * 10**9 * f.rate >> FAULT_RATE_SHIFT) - 5_000_000)) <= 1
    assert abs((2 * 10**9 * f.rate >> FAULT_RATE_SHIFT) - 400_000) < 100      # 200 ppm within 0.06 ppm
    assert f.local(1_000) == (1_000 + f.offset(1_000)) % 2**64     # an older raw time: no integration


# ---- the model: exchanges ----------------------------------------------------------------------
def responder(tor_id: int, **kw) -> SwitchClock:
    peers = {(s, u): 0 for s in range(S) for u in range(D)}
    return tor(tor_id, peers=peers, **kw)


def exchange(req: SwitchClock, resp: SwitchClock, lq: int, lr: int, d1: int, d2: int, turn: int = 1000,
             u: int = 0):
    """A TRIGGER at requester local time ``lq``; the REQ reaches the responder at its local
    ``lr`` (d1 later in true time), the RESP comes back d2 later. Returns the reasons."""
    why, p = req.trigger(lq, Message(Op.TRIGGER, uplink=u))
    if p is None:
        return why, None, None
    q = req.sent(p, lq)
    why2, p2 = resp.request(lr, q, u)
    if p2 is None:
        return why, why2, None
    a = resp.sent(p2, lr + turn)
    return why, why2, req.response(lq + d1 + turn + d2, a, u)


def test_unsynchronized_tor_steps_to_a_synchronized_peer():
    a = tor(0)                       # never seeded: unsynchronized, BOOT
    b = seeded(responder(1), 0, 5000, 0)
    b.r.stratum, b.r.term, b.r.lead = 1, 3, 1
    a.tick(L // 2)                   # a's slice 0, phase L/2 (inside the window)
    why, p = a.trigger(L // 2, Message(Op.TRIGGER, uplink=0))
    assert why == "req_sent" and p.msg.dst_tor == ANY_TOR and p.msg.flags & Flag.BOOT
    req = a.sent(p, L // 2)
    why, p2 = b.request(1_000_000, req, 0)
    assert why == "resp_sent"
    resp = b.sent(p2, 1_010_000)
    assert resp.t2 == Stamp(5000, 1_000_000) and resp.t3 == Stamp(5000, 1_010_000)
    assert a.response(L // 2 + 30_000, resp, 0) == "step"
    # t3 + delta: the responder's time now; delta = (30000 - 10000) / 2
    assert a.peek(L // 2 + 30_000).stamp == Stamp(5000, 1_020_000)
    assert (a.r.stratum, a.r.term, a.r.lead, a.r.slice, a.r.steps) == (2, 3, 1, 5000 % S, 1)
    assert a.events["adopted"] == 1


def synced_pair(theta=0, **kw):
    """ToR 0 (stratum 2) and its peer ToR 1 (stratum 1) on every slice and uplink, both
    local clocks at true time, ToR 0 ``theta`` ns behind."""
    a = seeded(tor(0, peers={(s, u): 1 for s in range(S) for u in range(D)}, **kw), 0, 100, max(0, -theta))
    b = seeded(responder(1, **kw), 0, 100, max(0, theta))
    for c, s in ((a, 2), (b, 1)):
        c.r.stratum, c.r.term, c.r.lead, c.r.last_k = s, 1, 1, 100
    return a, b


def test_an_applied_exchange_moves_the_boundary_by_theta_and_the_rate_by_theta_shifted():
    a, b = synced_pair(theta=40_000, servo_shift=4, rate_step_ppm=100, phase_shift=0)
    before = a.r.next
    lq = 10_000_000
    reasons = exchange(a, b, lq, lq + 20_000, 20_000, 20_000)
    assert reasons == ("req_sent", "resp_sent", "applied")
    assert (a.r.offset, a.r.delay) == (40_000, 20_000)
    assert Stamp(a.r.t4_k, a.r.t4_phase) == Stamp(100, lq + 41_000)
    assert a.r.next == before - 40_000
    assert a.r.llen == L - (40_000 >> 4)
    assert (a.r.stratum, a.r.refusals, a.r.last_k) == (2, 0, 100)
    # ahead: the slice gets longer (slew), never a step back
    a2, b2 = synced_pair(theta=-40_001, servo_shift=3, rate_step_ppm=100, phase_shift=0)
    before = a2.r.next
    assert exchange(a2, b2, lq, lq + 20_000, 20_000, 20_000)[2] == "applied"
    assert a2.r.offset == -40_001
    assert (a2.r.next, a2.r.llen) == (before + 40_001, L + (40_001 >> 3))


@pytest.mark.parametrize("theta, shift, moved", [
    (40_000, 1, 20_000), (-40_001, 1, -20_000), (40_003, 2, 10_000), (-40_003, 3, -5_000),
    (200_000, 1, 100_000),                          # exactly twice the filter's bound: still a fraction
    (200_001, 1, 200_001), (-300_000, 2, -300_000),  # beyond it: the whole offset, at once
])
def test_the_boundary_takes_a_fraction_of_an_offset_the_filter_explains_and_the_whole_of_a_larger_one(
        theta, shift, moved):
    """phase_shift: within twice the filter's bound (100 us here) an applied exchange moves
    the boundary by |theta| >> phase_shift (towards 0), beyond it by theta; the rate step is
    the same either way (it follows the whole offset)."""
    a, b = synced_pair(theta=theta, phase_shift=shift, filter_ns=100_000, rate_step_ppm=100)
    before, lq = a.r.next, 10_000_000
    assert exchange(a, b, lq, lq + 20_000, 20_000, 20_000)[2] == "applied"
    assert a.r.offset == theta
    assert a.r.next == before - moved
    assert a.r.llen == L - min(abs(theta) >> 4, a.cfg.rate_step) * (1 if theta > 0 else -1)


def test_the_rate_step_is_bounded_the_phase_still_takes_the_offset():
    """An exchange 1 ms off (its path delay's asymmetry, within max_delay) moves the
    boundary by the whole offset (phase_shift 0 by default) but the local slice length by
    at most rate_step (10 ppm of L by default), not by theta >> shift (62 us)."""
    a, b = synced_pair(theta=1_000_000)
    assert a.cfg.rate_step == L * 10 // 10**6 == 500
    assert a.cfg.phase_shift == 0
    before = a.r.next
    lq = 10_000_000
    assert exchange(a, b, lq, lq + 20_000, 20_000, 20_000)[2] == "applied"
    assert (a.r.next, a.r.llen) == (before - 1_000_000, L - 500)
    a2, b2 = synced_pair(theta=-1_000_000, rate_step_ppm=3)
    assert exchange(a2, b2, lq, lq + 20_000, 20_000, 20_000)[2] == "applied"
    assert a2.r.llen == L + L * 3 // 10**6
    # under the bound the step is theta >> shift
    a3, b3 = synced_pair(theta=4_000)
    assert exchange(a3, b3, lq, lq + 20_000, 20_000, 20_000)[2] == "applied"
    assert a3.r.llen == L - (4_000 >> 4)


def test_rate_stays_within_its_bounds():
    a, b = synced_pair(theta=L // 5, servo_shift=0, max_drift_ppm=100, rate_step_ppm=100)
    assert exchange(a, b, 10_000_000, 10_000_000 + 20_000, 20_000, 20_000)[2] == "applied"
    assert a.r.llen == L - L * 100 // 10**6


def test_beyond_max_offset_refused_then_lost_then_stepped():
    a, b = synced_pair(theta=L // 4 + 1, refuse_limit=3)
    got = []
    for i in range(3):
        lq = (i + 1) * L + 10_000_000      # one exchange per slice
        got.append(exchange(a, b, lq, lq + 20_000, 20_000, 20_000)[2])
    assert got == ["refused", "refused", "lost"]
    assert (a.r.stratum, a.r.refusals) == (UNSYNCED, 0)
    lq = 4 * L + 10_000_000
    assert exchange(a, b, lq, lq + 20_000, 20_000, 20_000)[2] == "step"
    # a correction within the bound resets the count
    a, b = synced_pair(theta=L // 4 + 1, refuse_limit=3)
    assert exchange(a, b, L + 10_000_000, L + 10_020_000, 20_000, 20_000)[2] == "refused"
    b.r.next += L // 4                  # the peer comes back near us
    assert exchange(a, b, 2 * L + 10_000_000, 2 * L + 10_020_000, 20_000, 20_000)[2] == "applied"
    assert a.r.refusals == 0


def test_a_slow_exchange_is_not_used():
    a, b = synced_pair(theta=30_000)
    before = (a.r.next, a.r.llen)
    lq = 10_000_000
    assert exchange(a, b, lq, lq + L // 8 + 1, L // 8 + 1, L // 8 + 1)[2] == "slow"
    assert (a.r.next, a.r.llen) == before and a.r.delay == L // 8 + 1


@given(st.lists(st.integers(-10**6, 2**33), min_size=1, max_size=30), st.integers(1, 10**5))
def test_the_filter_keeps_the_least_delay_aged_by_its_creep(delays, creep):
    """After n exchanges the filter's least delay is the minimum over them of each delay
    (negative: 0) raised by ``creep`` per exchange since, capped at 32 bits."""
    stored = 0
    for d in delays:
        stored, least = least_delay(stored, d, creep)
    n = len(delays)
    want = min(min(max(d, 0), M32) + creep * (n - 1 - j) for j, d in enumerate(delays))
    assert least == min(want, M32) and stored == M32 - least


def test_an_exchange_far_above_the_least_delay_is_filtered():
    """Per uplink: an exchange whose delay is more than filter_us above the least delay
    recently seen is counted `filtered` and moves nothing; the least delay creeps up per
    exchange, so a path that stays longer is used again; an unsynchronized ToR still steps."""
    a, b = synced_pair(theta=30_000, max_delay_ns=1_000_000, filter_ns=100_000)
    assert (a.cfg.filter, a.cfg.filter_creep) == (100_000, 100_000 >> 4)
    k = iter(range(1, 10**6))

    def xch(theta_off: int, d: int, u: int = 0) -> str:
        """One exchange in the next slice, delay d each way, the responder theta_off ahead."""
        lq = next(k) * L + 10_000_000
        return exchange(a, b, lq, lq + d + theta_off, d, d, u=u)[2]

    assert xch(30_000, 20_000) == "applied"                 # the first sets the least delay
    assert a.r.uplinks[0].min_delay == M32 - 20_000
    before = (a.r.next, a.r.llen, a.r.stratum, a.r.last_k)
    assert xch(0, 20_000 + 100_000 + 6_250 + 1) == "filtered"   # least aged by one creep, + filter, + 1
    # the boundary only crossed one slice (no correction), the rest unchanged
    assert (a.r.next - a.r.llen, a.r.llen, a.r.stratum, a.r.last_k) == before
    assert a.r.delay == 126_251                             # still kept for the daemon
    assert xch(0, 20_000 + 100_000 + 2 * 6_250) == "applied"   # exactly at the bound
    # the other uplink has its own least delay
    assert xch(0, 500_000, u=1) == "applied"
    # a route that got 400 us longer: filtered until the least delay crept up to it
    got = [xch(0, 420_000) for _ in range(60)]
    first = got.index("applied")
    assert set(got[:first]) == {"filtered"} and 15 <= first <= 60 and set(got[first:]) == {"applied"}
    # unsynchronized: steps from an exchange the filter would refuse
    a.r.stratum = UNSYNCED
    a.r.uplinks[0].min_delay = M32 - 1_000
    assert xch(0, 500_000) == "step"


def test_a_worse_peer_only_refreshes_lead_k():
    a, b = synced_pair(theta=30_000)
    b.r.stratum = 2                         # equal: not better
    b.r.lead_k = 99_999
    before = (a.r.next, a.r.llen, a.r.stratum)
    assert exchange(a, b, 10_000_000, 10_020_000, 20_000, 20_000)[2] == "peer_worse"
    assert (a.r.next, a.r.llen, a.r.stratum) == before and a.r.lead_k == 99_999
    b.r.term = 0                            # an older term: not even lead_k
    b.r.lead_k = 200_000
    assert exchange(a, b, L + 10_000_000, L + 10_020_000, 20_000, 20_000)[2] == "peer_worse"
    assert a.r.lead_k == 99_999


def test_a_newer_term_is_adopted_and_the_tor_rejoins_the_tree():
    a, b = synced_pair(theta=30_000)
    b.r.term, b.r.lead, b.r.lead_k = 2, 5, 77
    assert exchange(a, b, 10_000_000, 10_020_000, 20_000, 20_000)[2] == "step"
    assert (a.r.term, a.r.lead, a.r.stratum) == (2, 5, 2) and a.events["adopted"] == 1
    # the same term from a lower lead id wins too; a higher one does not
    assert newer_term(2, 4, 2, 5) and not newer_term(2, 6, 2, 5) and not newer_term(1, 0, 2, 5)
    assert newer_term(0, 0, 0xFFFF, 9) and not newer_term(0, 0, 0, 0)


def test_stale_replayed_and_misaddressed_responses_change_nothing():
    a, b = synced_pair(theta=30_000)
    lq = 10_000_000
    why, p = a.trigger(lq, Message(Op.TRIGGER, uplink=0))
    req = a.sent(p, lq)
    resp = b.sent(b.request(lq + 20_000, req, 0)[1], lq + 21_000)
    state = (a.r.next, a.r.llen, a.r.stratum, a.r.offset)
    from dataclasses import replace
    assert a.response(lq + 41_000, replace(resp, t1=Stamp(req.t1.k, req.t1.phase + 1)), 0) == "stale"
    assert a.response(lq + 41_000, resp, 1) == "stale"                     # no request open there
    assert a.response(lq + 41_000, replace(resp, src_tor=2), 0) == "wrong_peer"
    assert a.response(lq + 41_000, replace(resp, flags=Flag.REF, src_tor=REF_TOR), 0) == "wrong_peer"
    assert a.response(lq + 41_000, replace(resp, dst_tor=3), 0) == "wrong_dst"
    assert a.response(lq + 41_000, replace(resp, slice=S), 0) == "malformed"
    assert (a.r.next, a.r.llen, a.r.stratum, a.r.offset) == state
    assert a.response(lq + 41_000, resp, 0) == "applied"
    assert a.response(lq + 42_000, resp, 0) == "stale"                     # replayed


def test_the_ocs_emulators_queueing_is_not_taken_for_an_offset():
    """The OCS emulator held the REQ 300 us and the RESP 20 us, and said so (aux): the
    responder sends the REQ's residence back with its RESP, and the requester takes both
    out, so the offset is the clocks' (30 us) and not 30 + (300 - 20) / 2 us; a residence
    longer than the whole round trip is forged: malformed, nothing moved."""
    from dataclasses import replace
    a, b = synced_pair(theta=30_000)
    lq = 10_000_000
    req = a.sent(a.trigger(lq, Message(Op.TRIGGER, uplink=0))[1], lq)
    held = m.add_residence(req, 300_000)
    why, p = b.request(lq + 20_000 + 300_000, held, 0)             # (the two raw clocks agree)
    resp = b.sent(p, lq + 20_000 + 300_000 + 1_000)
    assert why == "resp_sent" and resp.aux == 300_000 << 32
    back = m.add_residence(resp, 20_000)
    state = (a.r.next, a.r.llen, a.r.stratum, a.r.offset)
    forged = replace(back, aux=back.aux + (10**6 << 32))
    assert a.response(lq + 20_000 + 300_000 + 1_000 + 20_000 + 20_000, forged, 0) == "malformed"
    assert (a.r.next, a.r.llen, a.r.stratum, a.r.offset) == state
    assert a.response(lq + 20_000 + 300_000 + 1_000 + 20_000 + 20_000, back, 0) == "applied"
    assert (a.r.offset, a.r.delay) == (30_000, 20_000)


def test_requests_are_answered_only_from_this_slices_peer_to_this_tor():
    a, b = synced_pair()
    req = a.sent(a.trigger(10_000_000, Message(Op.TRIGGER, uplink=0))[1], 10_000_000)
    from dataclasses import replace
    assert b.request(10_020_000, replace(req, src_tor=3), 0)[0] == "wrong_peer"
    assert b.request(10_020_000, replace(req, dst_tor=4), 0)[0] == "wrong_dst"
    assert b.request(10_020_000, replace(req, dst_tor=ANY_TOR), 0)[0] == "wrong_dst"   # without BOOT
    assert b.request(10_020_000, replace(req, dst_tor=ANY_TOR, flags=Flag.BOOT), 0)[0] == "resp_sent"
    assert b.request(10_020_000, replace(req, flags=Flag.REF), 0)[0] == "wrong_dst"
    assert b.request(10_020_000, req, 0)[0] == "resp_sent"


def test_trigger_window_due_and_peer():
    c = seeded(tor(0, exchange_every=2), 0, 100, 0)
    c.r.stratum, c.r.last_k = 2, 100
    assert c.trigger(1_000_000, Message(Op.TRIGGER, uplink=0))[0] == "outside_window"       # in the guard
    assert c.trigger(L - 10_000_000, Message(Op.TRIGGER, uplink=0))[0] == "outside_window"  # too late to return
    assert c.trigger(10_000_000, Message(Op.TRIGGER, uplink=D))[0] == "malformed"
    why, p = c.trigger(10_000_000, Message(Op.TRIGGER, uplink=1))
    assert why == "req_sent" and (p.msg.dst_tor, p.msg.src_tor, p.msg.uplink) == (PEERS[(100 % S, 1)], 0, 1)
    assert c.trigger(11_000_000, Message(Op.TRIGGER, uplink=1))[0] == "not_due"
    assert c.trigger(L + 11_000_000, Message(Op.TRIGGER, uplink=1))[0] == "not_due"         # every 2 slices
    assert c.trigger(2 * L + 11_000_000, Message(Op.TRIGGER, uplink=1))[0] == "req_sent"
    lonely = seeded(tor(0, peers={}), 0, 100, 0)
    lonely.r.stratum, lonely.r.last_k = 2, 100
    assert lonely.trigger(10_000_000, Message(Op.TRIGGER, uplink=0))[0] == "no_peer"
    # searching (unsynchronized, or no correction for search_wait slices): to whoever is there
    lonely.r.last_k = 100 - lonely.cfg.search_wait - 1
    why, p = lonely.trigger(L + 10_000_000, Message(Op.TRIGGER, uplink=0))
    assert why == "req_sent" and p.msg.dst_tor == ANY_TOR and p.msg.flags == Flag.BOOT
    timer = SwitchClock(ClockParams(slice_ns=L, mode="timer").tor_config(0, 8, D, S), slices=S, queues=Q,
                        uplinks=D, peer=lambda s, u: 1)
    assert timer.trigger(10_000_000, Message(Op.TRIGGER, uplink=0))[0] == "off"


def test_lead_claims_after_its_wait_and_exchanges_with_the_reference():
    c = seeded(tor(1, leads=(0, 1), holdover_cycles=2), 0, 100, 0)
    assert c.cfg.start_wait == S
    c.trigger(S * L + 10_000_000, Message(Op.TRIGGER, uplink=0))           # k - lead_k = S: not yet
    assert c.r.term == 0
    why, p = c.trigger((S + 1) * L + 10_000_000, Message(Op.TRIGGER, uplink=0))
    assert (c.r.term, c.r.lead, c.r.lead_k, c.events["claimed"]) == (1, 1, 100 + S + 1, 1)
    assert why == "ref_req_sent" and p.msg.dst_tor == REF_TOR and p.msg.flags == Flag.REF | Flag.BOOT
    req = c.sent(p, (S + 1) * L + 10_000_000)
    ref = ReferenceClock(params().ocs_config(), slices=S)
    assert ref.answer(5, req)[0] == "unseeded"
    ref.seed(0, Message(Op.SEED, Flag.REF, t3=Stamp(100 + S + 1, 10_000_000 - 500), slice=(100 + S + 1) % S))
    why, p = ref.answer(20_000, req)
    assert why == "ref_answered"
    resp = ref.sent(p, 21_000)
    assert (resp.src_tor, resp.dst_tor, resp.stratum, resp.flags) == (REF_TOR, 1, 0, Flag.REF)
    assert c.response((S + 1) * L + 10_000_000 + 41_000, resp, 0) == "step"
    assert (c.r.stratum, c.r.lead_k) == (1, c.r.k)
    # a lead in its term exchanges with the reference again, not with ToR peers on ref_uplink
    why, p = c.trigger((S + 2) * L + 10_000_000, Message(Op.TRIGGER, uplink=0))
    assert why == "ref_req_sent"
    assert c.trigger((S + 2) * L + 10_000_000, Message(Op.TRIGGER, uplink=1))[0] == "req_sent"
    # a silent lead: the candidate claims a new term after holdover + rank cycles
    d = seeded(tor(1, leads=(0, 1), holdover_cycles=2), 0, 100, 0)
    d.r.term, d.r.lead, d.r.lead_k, d.r.stratum = 4, 0, 100, 2
    d.trigger((3 * S) * L + 10_000_000, Message(Op.TRIGGER, uplink=1))
    assert d.r.term == 4
    d.trigger((3 * S + 1) * L + 10_000_000, Message(Op.TRIGGER, uplink=1))
    assert (d.r.term, d.r.lead) == (5, 1)
    # a ToR that is no candidate never claims
    n = seeded(tor(5, leads=(0, 1)), 0, 100, 0)
    n.trigger(1000 * L + 10_000_000, Message(Op.TRIGGER, uplink=0))
    assert n.r.term == 0 and n.events["claimed"] == 0


def test_reference_clock_keeps_exact_slices():
    ref = ReferenceClock(params().ocs_config(), slices=S)
    ref.seed(1000, Message(Op.SEED, Flag.REF, t3=Stamp(7, 100), slice=3))
    assert ref.tick(1000 + L - 100).stamp == Stamp(8, 0) and ref.slice == 0
    assert ref.tick(1000 + 10 * L).stamp == Stamp(17, 100) and ref.slice == 17 % S


# ---- the servo against noisy exchanges ----------------------------------------------------
def noisy_pair_run(drift_ppm: float, off0: int, seed: int, slices: int, **kw) -> tuple[list[int], list[int]]:
    """ToR 0 (stratum 2, its crystal ``drift_ppm`` fast, ``off0`` ns ahead after its seed)
    exchanges once per slice on uplink 0 with a perfect stratum-1 peer (local time = true
    time) over a loaded path: each way 20 us, plus, half the time, a queue of up to
    max_delay (1 ms) -- the asymmetry of an exchange is up to half its excess delay, as on
    a loaded bmv2. Returns per slice (after the exchange) ToR 0's local slice length's
    error against the truth (ns per slice) and its clock's error (ns)."""
    import random
    rng = random.Random(seed)
    kw.setdefault("max_delay_ns", 1_000_000)
    a = tor(0, peers={(s, u): 1 for s in range(S) for u in range(D)}, **kw)
    b = seeded(responder(1, **kw), 100 * L, 100, 0)

    def la(t: int) -> int:                   # ToR 0's local clock at true time t
        return t + (t * round(drift_ppm * 1000)) // 10**9

    seeded(a, la(100 * L), 100, off0)
    for c, s in ((a, 2), (b, 1)):
        c.r.stratum, c.r.term, c.r.lead, c.r.last_k = s, 1, 1, 100
    true_len = L + L * round(drift_ppm * 1000) // 10**9
    len_err, clk_err = [], []
    for i in range(1, slices + 1):
        t = (100 + i) * L + 15_000_000
        why, p = a.trigger(la(t), Message(Op.TRIGGER, uplink=0))
        if p is not None:
            q = a.sent(p, la(t))
            d1 = 20_000 + (rng.randrange(1_000_000) if rng.random() < 0.5 else 0)
            d2 = 20_000 + (rng.randrange(1_000_000) if rng.random() < 0.5 else 0)
            why2, p2 = b.request(t + d1, q, 0)
            resp = b.sent(p2, t + d1 + 1_000)
            a.response(la(t + d1 + 1_000 + d2), resp, 0)
        te = t + 10_000_000
        len_err.append(a.peek(la(te)).llen - true_len)
        clk_err.append(m.diff(a.peek(la(te)).stamp, Stamp.of_ns(te, L), L))
    return len_err, clk_err


@settings(max_examples=8, deadline=None)
@given(drift=st.floats(-200, 200), off0=st.integers(0, 1_000_000), seed=st.integers(0, 2**32))
@example(drift=200.0, off0=1_000_000, seed=1)
@example(drift=-200.0, off0=0, seed=2)
def test_the_servo_learns_a_drift_through_noisy_exchanges(drift, off0, seed):
    """Exchanges whose path delay is asymmetric by up to 0.5 ms (within max_delay), a
    drift within +-200 ppm: after 20 s the local slice length is within 120 ppm of the
    truth and the clock within 400 us of it, in every slice of the last 10 s (the
    filter takes the exchanges near the least delay, whose asymmetry is small; the
    bounded rate step keeps any one from swinging the rate). Over 1000 random draws of
    this test's inputs the slice length's worst error had p50 / p99 / max 1.5 / 2.7 /
    3.3 us (max 66 ppm; one noise seed of 100 more, 8684, gave 94 ppm with no drift), the
    clock's 171 / 257 / 288 us; a servo that learnt no rate is off by the drift itself
    (the two explicit examples: 200 ppm)."""
    len_err, clk_err = noisy_pair_run(drift, off0, seed, 600)
    worst_len = max(map(abs, len_err[400:]))
    worst_clk = max(map(abs, clk_err[400:]))
    assert worst_len <= L * 120 // 10**6, (worst_len, worst_clk)
    assert worst_clk <= 400_000, (worst_len, worst_clk)
