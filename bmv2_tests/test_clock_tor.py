"""The ToR's slice clock on real simple_switch_grpc (docs/clock.md, docs/p4.md "Time").

One switch serves the module (ToR 0 of the tiny profile, its pktgen port 500 on a veth);
each test resets the clock's registers. The test plays the packet generator (TRIGGERs and
PROBEs on port 500), the peers (REQs and RESPs on the uplinks) and the controller (SEEDs
and PROBEs as PacketOut). Every exchange is checked register by register against the
reference model (controller.clock.servo), loaded with the registers the switch held
just before the message: the model is what the switch does, bit for bit. 4 s slices
(clock_util.L) keep a test's exchanges inside one slice whatever the machine's load.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from clock_util import (L, PKTGEN, Registers, arrival, counts, model, model_regs, moved, ns, params, probe,
                        probe_cpu, recv, seed, send, wait_counted, write_clock)
from fabric import ME, UPLINK_BASE, routed, schedule, send_timer, tor_batch, udp, uro_entry, uro_routes

from controller.clock import message as m
from controller.clock.servo import phase_move
from controller.clock.message import ANY_TOR, REF_TOR, Flag, Message, Op, Stamp
from controller.p4gen.timer import sync_metadata

S = 4


@pytest.fixture(scope="module")
def rig(clock_tor):
    sw, client, dp, contract = clock_tor
    regs = Registers(sw, contract)
    client.write(tor_batch(contract, ME, uro_routes=uro_routes()))     # routes: data packets tell the slice
    try:
        yield Rig(sw, client, dp, contract, regs)
    finally:
        regs.close()


class Rig:
    """The switch under test and what the tests do to it."""

    def __init__(self, sw, client, dp, contract, regs):
        self.sw, self.client, self.dp, self.contract, self.regs = sw, client, dp, contract, regs
        self.sched = schedule()
        self.cfg = None

    def fresh(self, **config) -> None:
        """Clock registers back to 0 (a switch just started), the clock config written
        (sync mode; ``config`` overrides its fields), nothing left to receive.

        The test's own latency (register reads between a REQ and its RESP: tens of ms, up to
        seconds on a loaded machine) is path delay to the switch: max_delay is 3 s here, the
        clock filter as wide (it filters nothing) and the window the whole slice, unless the
        test says otherwise."""
        self.regs.reset()
        config = {"max_delay": 3 * L // 4, "filter": 3 * L // 4, "window_hi": L - 1, **config}
        self.cfg = write_clock(self.client, self.contract, self.sched, ME, **config)
        self.dp.flush()

    def peer(self, s: int, u: int):
        p = int(self.sched.peer[s, ME, u])
        return p if p >= 0 else None

    def counts(self) -> dict:
        return counts(self.client, self.contract)

    def trigger(self, u: int) -> Message:
        """A TRIGGER for uplink ``u``; the REQ it becomes."""
        send(self.dp, PKTGEN, Message(Op.TRIGGER, uplink=u))
        return recv(self.dp, UPLINK_BASE + u)

    def deliver(self, u: int, msg: Message, expect: str, out: bool = False) -> Message | None:
        """Send ``msg`` in on uplink ``u``: the switch counts ``expect`` and its registers
        afterwards are what the model says (loaded with the registers before). ``out``: it
        answers on the same uplink (returned)."""
        pre = self.regs.read()
        c0 = self.counts()
        send(self.dp, UPLINK_BASE + u, msg)
        reply = recv(self.dp, UPLINK_BASE + u) if out else None
        got = wait_counted(self.client, self.contract, c0)
        post = self.regs.read()
        mod = model(pre, self.cfg, self.contract, self.peer)
        if msg.op == Op.RESP and expect not in ("stale", "wrong_peer", "wrong_dst", "malformed"):
            why = mod.response(arrival(pre, mod, Stamp(post["t4_k"], post["t4_phase"])), msg, u)
        else:
            # nothing but the clock's tick: the model crosses the boundaries passed meanwhile
            l = arrival(pre, mod, Stamp(post["k"], 0)) if post["k"] != pre["k"] else pre["next"] - 1
            mod.tick(l)
            why = expect
        assert {k: v for k, v in got.items() if k not in ("adopted", "claimed")} == {expect: 1}, got
        assert why == expect
        want = model_regs(mod)
        assert {k: (post[k], want[k]) for k in want if post[k] != want[k]} == {}
        self.post = post
        return reply

    def respond(self, req: Message, *, src: int | None = None, stratum: int = 1, term: int = 1, lead: int = 6,
                lead_k: int = 900, there: int = 2_000_000, turn: int = 50_000, **kw) -> Message:
        """The RESP a peer ``there`` ns ahead would send to ``req`` (t2 = t1 + there, t3 = t2 + turn)."""
        t2 = Stamp.of_ns(ns(req.t1) + there, L)
        t3 = Stamp.of_ns(ns(t2) + turn, L)
        fields = dict(op=Op.RESP, flags=0, src_tor=req.dst_tor if src is None else src, dst_tor=ME, uplink=req.uplink,
                      stratum=stratum, term=term, lead=lead, lead_k=lead_k, t1=req.t1, t2=t2, t3=t3, slice=req.slice)
        fields.update(kw)
        return Message(**fields)

    def synced(self, k: int = 1000, u: int = 1) -> None:
        """Seed at (k, 0), then step from this slice's peer on ``u`` (stratum 1, term 1,
        lead 6): the ToR is stratum 2 of term 1."""
        seed(self.client, self.contract, k)
        req = self.trigger(u)
        self.deliver(u, self.respond(req, src=self.peer(k % S, u)), "step")
        assert self.post["stratum"] == 2


def probe_reads_the_registers(rig) -> Message:
    """A PROBE's time is the registers' clock: with no fault, network time minus the raw
    clock at its egress is ``k * L + len - next`` (phase = len - (next - l))."""
    r = probe(rig.dp)
    regs = rig.regs.read("k", "next", "len")
    if r.t3.k == regs["k"]:                    # (no boundary since: the test is early in a 4 s slice)
        assert ns(r.t3) - r.aux == regs["k"] * L + (regs["len"] or L) - regs["next"]
    return r


def quiet(dp, timeout: float = 0.3) -> None:
    dp.expect_none(timeout=timeout)


# ---- timer mode ---------------------------------------------------------------------------------
def test_timer_mode_keeps_timers_and_turns_sync_messages_off(rig):
    """No clock_config (clock_off): timers from the CPU port move the clock as always; a
    TRIGGER, a REQ, a RESP or a SEED is counted `off` and changes nothing; a PROBE is
    answered with the timer clock (TIMER flag: k the epoch, phase since the last timer);
    a sync frame from a host port is `from_host` in any mode."""
    c, dp, contract = rig.client, rig.dp, rig.contract
    rig.regs.reset()
    c.write([rig_clock_off(contract)], "MODIFY")
    assert send_timer(dp, 2, sync=True) == "timer_sync"
    assert send_timer(dp, 3) == "timer"
    c0 = rig.counts()
    send(dp, PKTGEN, Message(Op.TRIGGER, uplink=0))
    send(dp, UPLINK_BASE, Message(Op.REQ, src_tor=7, dst_tor=ME))
    send(dp, UPLINK_BASE + 1, Message(Op.RESP, src_tor=1, dst_tor=ME))
    c.packet_out(m.encode_frame(m.seed(5 * L, L, S)), sync_metadata(contract))
    send(dp, 0, m.probe(1))
    assert wait_counted(c, contract, c0, 5) == {"off": 4, "from_host": 1}
    quiet(dp)
    r = probe(dp)
    assert r.flags & Flag.TIMER and r.slice == 3 and r.t2.k == 3 and r.t3.k == 3    # epoch: 0 -> 2 (sync) -> 3
    assert 0 < r.t2.phase <= r.t3.phase < 60_000_000_000
    regs = rig.regs.read("k", "next", "stratum", "term")
    assert regs == {"k": 0, "next": 0, "stratum": 255, "term": 0}


def rig_clock_off(contract):
    from controller.tables import clock as clock_tables
    return clock_tables.clock_config_entry(contract, None)


# ---- TRIGGER -> REQ ------------------------------------------------------------------------------
def test_trigger_becomes_a_req_to_this_slices_peer_with_t1_stamped_on_the_way_out(rig):
    rig.fresh()
    c, dp = rig.client, rig.dp
    k = 1000
    seed(c, rig.contract, k)
    # unsynchronized: BOOT, to whoever the circuit brings
    req = rig.trigger(0)
    assert (req.op, req.flags, req.src_tor, req.dst_tor, req.uplink, req.stratum) == (Op.REQ, Flag.BOOT, ME, ANY_TOR, 0, 255)
    rig.deliver(0, rig.respond(req, src=rig.peer(k % S, 0)), "step")
    before = probe(dp)
    req = rig.trigger(1)
    after = probe(dp)
    assert (req.op, req.flags, req.src_tor, req.dst_tor, req.uplink) == (Op.REQ, 0, ME, rig.peer(k % S, 1), 1)
    assert (req.stratum, req.term, req.lead, req.lead_k, req.slice) == (2, 1, 6, 900, k % S)
    assert (req.t2, req.t3, req.aux, req.reserved) == (Stamp(), Stamp(), 0, 0)
    assert ns(before.t3) <= ns(req.t1) <= ns(after.t2)        # the PROBEs agree with t1
    regs = rig.regs.read("req_open", "req_k", "req_peer", "req_t1")
    assert (regs["req_open"][1], regs["req_k"][1], regs["req_peer"][1]) == (1, k, rig.peer(k % S, 1))
    assert regs["req_t1"][1] == req.t1.word()                  # kept: the RESP must echo it
    # once per slice per uplink (exchange_every = 1)
    c0 = rig.counts()
    send(dp, PKTGEN, Message(Op.TRIGGER, uplink=1))
    send(dp, PKTGEN, Message(Op.TRIGGER, uplink=2))            # no uplink 2
    send(dp, PKTGEN, Message(Op.REQ, uplink=1))                # the pktgen port sends TRIGGERs and PROBEs only
    assert wait_counted(c, rig.contract, c0, 3) == {"not_due": 1, "malformed": 2}
    quiet(dp)


def test_trigger_outside_the_window_or_without_a_peer_sends_nothing(rig):
    rig.fresh()
    rig.synced(k=1003, u=0)                                     # slice 3: uplink 1 has no circuit
    rig.client.write([rig_config(rig, window_lo=L - 2)], "MODIFY")   # the window: the slice's last ns
    c0 = rig.counts()
    send(rig.dp, PKTGEN, Message(Op.TRIGGER, uplink=0))
    assert wait_counted(rig.client, rig.contract, c0) == {"outside_window": 1}
    rig.client.write([rig_config(rig, window_lo=0)], "MODIFY")
    c0 = rig.counts()
    send(rig.dp, PKTGEN, Message(Op.TRIGGER, uplink=1))
    assert wait_counted(rig.client, rig.contract, c0) == {"no_peer": 1}
    quiet(rig.dp)
    assert rig.regs.read("req_open")["req_open"] == [0, 0]


def rig_config(rig, **kw):
    from controller.tables import clock as clock_tables
    rig.cfg = replace(rig.cfg, **kw)
    return clock_tables.clock_config_entry(rig.contract, rig.cfg)


# ---- REQ -> RESP ------------------------------------------------------------------------------------
def test_req_from_this_slices_peer_is_answered_with_t2_at_arrival_and_t3_on_the_way_out(rig):
    rig.fresh()
    k, u = 1001, 0
    rig.synced(k=k, u=1)
    peer = rig.peer(k % S, u)
    t1 = Stamp(k, 123)
    req = Message(Op.REQ, 0, peer, ME, u, 1, 1, 6, 900, t1=t1, slice=k % S)
    before = probe(rig.dp)
    resp = rig.deliver(u, req, "resp_sent", out=True)
    after = probe(rig.dp)
    assert (resp.op, resp.flags, resp.src_tor, resp.dst_tor, resp.uplink) == (Op.RESP, 0, ME, peer, u)
    assert (resp.stratum, resp.term, resp.lead, resp.t1, resp.slice) == (2, 1, 6, t1, k % S)
    assert ns(before.t3) <= ns(resp.t2) <= ns(resp.t3) <= ns(after.t2)
    # the OCS emulator's residence in the REQ (aux's upper half) goes back with the RESP
    held = rig.deliver(u, replace(req, aux=(123_000 << 32) | 456), "resp_sent", out=True)
    assert held.aux == 123_000 << 32 and resp.aux == 0
    # answered only from this slice's peer, and only when addressed here (or BOOT, anyone)
    boot = replace(req, dst_tor=ANY_TOR, flags=Flag.BOOT)
    assert rig.deliver(u, boot, "resp_sent", out=True).dst_tor == peer
    rig.deliver(u, replace(req, src_tor=(peer + 1) % 8), "wrong_peer")
    rig.deliver(u, replace(req, dst_tor=3), "wrong_dst")
    rig.deliver(u, replace(req, dst_tor=ANY_TOR), "wrong_dst")        # ANY without BOOT
    rig.deliver(u, replace(req, flags=Flag.REF, dst_tor=REF_TOR), "wrong_dst")   # a ToR is not the reference
    quiet(rig.dp)


# ---- RESP: the rules and the servo --------------------------------------------------------------
def test_exchanges_leave_the_offset_delay_and_rate_the_model_predicts(rig):
    # several exchanges in one slice; half of each offset (phase_shift 1: the default takes it whole)
    rig.fresh(exchange_every=0, refuse_limit=3, window_hi=L - 1, phase_shift=1)
    k = 1002
    seed(rig.client, rig.contract, k)
    u = 0
    peer = rig.peer(k % S, u)
    # unsynchronized: step to the responder's time (t3 + delta)
    req = rig.trigger(u)
    rig.deliver(u, rig.respond(req, src=peer, there=200_000_000), "step")
    assert probe_reads_the_registers(rig).stratum == 2
    # synchronized: applied -- the boundary moves by theta >> 1, the slice length by theta >> 4
    checked = 0
    for there in (30_000_000, -20_000_000, 7_777_777):
        len0 = rig.regs.read("len")["len"] or L
        before = probe(rig.dp)
        req = rig.trigger(u)
        rig.deliver(u, rig.respond(req, there=there), "applied")
        after = probe(rig.dp)
        theta = rig.post["offset"]
        # read back by PROBE: the clock (network time at the raw clock aux) moved by the
        # boundary's move (servo.phase_move: theta >> phase_shift within twice the filter's
        # bound, here the whole slice), less what the slice got shorter (the phase is read
        # back from the next boundary); a boundary between the two PROBEs would add L - len
        # (the seed put them early in a slice)
        if after.t3.k == before.t3.k:
            moved = phase_move(m.s32(theta), rig.cfg.phase_shift, rig.cfg.filter)
            assert rig.cfg.phase_shift == 1 and abs(moved) == abs(m.s32(theta)) >> 1
            assert (ns(after.t3) - after.aux) - (ns(before.t3) - before.aux) == moved + rig.post["len"] - len0
            checked += 1
    assert checked >= 2
    assert rig.post["len"] != L                                   # the rate moved
    # the OCS emulator held the REQ 300 us and the RESP 100 us: out of each way's delay
    # (deliver checks theta and delta against the model, message.offset / path_delay)
    req = rig.trigger(u)
    rig.deliver(u, rig.respond(req, there=1_000_000, aux=(300_000 << 32) | 100_000), "applied")
    # (t2 = t1 + there: theta + delta = there - fwd, each halved by a shift)
    assert abs(m.s32(rig.post["offset"]) + m.s32(rig.post["delay"]) - (1_000_000 - 300_000)) <= 1
    # a worse peer (same stratum) is not used; a slow exchange is not used
    rig.deliver(u, rig.respond(rig.trigger(u), stratum=2), "peer_worse")
    rig.deliver(u, rig.respond(rig.trigger(u), turn=-2 * rig.cfg.max_delay - 10), "slow")
    # beyond max_offset: refused, refused, lost (refuse_limit 3); then the next exchange steps
    for why in ("refused", "refused", "lost"):
        rig.deliver(u, rig.respond(rig.trigger(u), there=2 * rig.cfg.max_offset), why)
    assert rig.post["stratum"] == 255
    rig.deliver(u, rig.respond(rig.trigger(u), there=2 * rig.cfg.max_offset), "step")
    assert rig.post["stratum"] == 2 and rig.post["refusals"] == 0


def test_noisy_exchanges_move_the_rate_by_at_most_the_bound(rig):
    """NTP's clock filter and the bounded rate step: an exchange whose path delay is far
    above the least one seen on its uplink (a REQ that queued 1 s: its offset is off by
    half that) is counted `filtered` and moves nothing; one near the least delay is
    applied, the boundary by its whole offset but the local slice length by at most
    rate_step (not theta >> 4: 500 ms would move it 31 ms, past L + 1000 ppm).
    The test's own latency (register reads, ms to 100s of ms) is in every delay: the
    filter's bound here (300 ms) is above its noise, far below the queued second."""
    rig.fresh(exchange_every=0, filter=300_000_000, filter_creep=1_000_000)
    rig.synced(k=1003, u=0)
    u, applied = 0, 0

    def within_bound():
        assert abs(rig.post["len"] - L) <= applied * rig.cfg.rate_step, (rig.post["len"], applied)

    rig.deliver(u, rig.respond(rig.trigger(u)), "applied")
    applied += 1
    within_bound()
    before = rig.regs.read("len", "next", "last_k", "stratum")
    rig.deliver(u, rig.respond(rig.trigger(u), turn=-1_000_000_000), "filtered")   # queued 1 s one way
    assert rig.post["delay"] > 400_000_000
    assert {f: rig.post[f] for f in before} == before                              # nothing moved
    for there in (500_000_000, -500_000_000, 500_000_000):
        len0 = rig.post["len"]
        rig.deliver(u, rig.respond(rig.trigger(u), there=there), "applied")
        applied += 1
        within_bound()
        # the offset the switch measured (checked against the model by deliver): the test's
        # latency D is in it (theta = there + turn/2 - D/2), so `there` is far above any D a
        # loaded machine gives and the clamp's direction is the offset's own
        theta = rig.post["offset"]
        assert (theta > 0) == (there > 0) and abs(theta) >> rig.cfg.servo_shift > rig.cfg.rate_step, theta
        # the clamp, not theta >> 4 (tens of ms): shorter when behind, longer when ahead
        assert rig.post["len"] - len0 == (-rig.cfg.rate_step if theta > 0 else rig.cfg.rate_step)


def test_bad_responses_are_counted_and_change_nothing(rig):
    rig.fresh(exchange_every=0)
    k = 1001
    rig.synced(k=k, u=0)
    u = 0
    req = rig.trigger(u)
    good = rig.respond(req)
    rig.deliver(u, replace(good, t1=Stamp(req.t1.k, req.t1.phase + 1)), "stale")   # not our t1
    rig.deliver(1, replace(good, uplink=1), "stale")                               # nothing open there
    rig.deliver(u, replace(good, src_tor=5), "wrong_peer")                         # not the peer asked
    rig.deliver(u, replace(good, flags=Flag.REF, src_tor=REF_TOR, stratum=0), "wrong_peer")   # REF from a peer
    rig.deliver(u, replace(good, dst_tor=4), "wrong_dst")
    rig.deliver(u, replace(good, slice=S), "malformed")
    rig.deliver(u, replace(good, aux=0xFFFFFFFF_00000000), "malformed")             # held longer than the round trip
    rig.deliver(u, good, "applied")
    rig.deliver(u, good, "stale")                                                   # replayed
    # from a host port, truncated, another op on an uplink: counted, nothing changes
    pre = rig.regs.read()
    c0 = rig.counts()
    send(rig.dp, 0, good)
    rig.dp.send(UPLINK_BASE, m.encode_frame(good)[:40])
    send(rig.dp, UPLINK_BASE, replace(good, op=Op.SEED))
    send(rig.dp, UPLINK_BASE, replace(good, op=Op.PROBE))
    assert wait_counted(rig.client, rig.contract, c0, 4) == {"from_host": 1, "malformed": 3}
    post = rig.regs.read()
    assert {f: (pre[f], post[f]) for f in pre if pre[f] != post[f] and f not in ("k", "next", "slice", "epoch",
                                                                              "active_q", "fault_last")} == {}
    quiet(rig.dp)


# ---- the lead and the reference -------------------------------------------------------------------
def test_a_candidate_claims_the_lead_and_exchanges_with_the_reference(rig):
    rig.fresh(candidate=1, start_wait=0, claim_wait=8, exchange_every=0, window_hi=L - 1)
    k = 1000
    seed(rig.client, rig.contract, k)
    rig.regs.write(lead_k=k - 5)                                # no term, and no lead for 5 slices
    c0 = rig.counts()
    req = rig.trigger(0)                                        # ref_uplink 0
    assert wait_counted(rig.client, rig.contract, c0, 2) == {"claimed": 1, "ref_req_sent": 1}
    assert (req.dst_tor, req.flags, req.term, req.lead, req.lead_k) == (REF_TOR, Flag.REF | Flag.BOOT, 1, ME, k)
    ref = Message(Op.RESP, Flag.REF, REF_TOR, ME, 0, 0, 0, REF_TOR, 0, req.t1, Stamp(k, req.t1.phase + 10_000),
                  Stamp(k, req.t1.phase + 20_000), k % S)
    rig.deliver(0, ref, "step")
    assert (rig.post["stratum"], rig.post["lead_k"], rig.post["term"]) == (1, rig.post["k"], 1)
    assert rig.trigger(1).dst_tor == rig.peer(k % S, 1)          # its other uplinks exchange with peers
    req = rig.trigger(0)
    rig.deliver(0, replace(ref, t1=req.t1), "applied")
    # a RESP of a newer term: adopted, this ToR follows (and steps from it)
    req = rig.trigger(1)
    rig.deliver(1, rig.respond(req, term=2, lead=7, stratum=1, lead_k=rig.post["k"]), "step")
    assert (rig.post["term"], rig.post["lead"], rig.post["stratum"]) == (2, 7, 2)
    assert rig.trigger(0).dst_tor != REF_TOR                   # no longer the lead


def test_the_references_answer_to_a_lead_that_adopted_another_is_refused(rig):
    """A candidate claims and asks the reference; before the answer arrives a RESP of a
    newer term makes it follow another lead. The reference's answer then is not its to take
    (``wrong_peer``): taken, it would make this ToR stratum 1 under another lead, a parent
    that nothing corrects any more (servo.SwitchClock.response)."""
    rig.fresh(candidate=1, start_wait=0, claim_wait=8, exchange_every=0, window_hi=L - 1)
    k = 1000
    seed(rig.client, rig.contract, k)
    rig.regs.write(lead_k=k - 5)
    c0 = rig.counts()
    ask = rig.trigger(0)                                        # claims, REF REQ on ref_uplink 0
    assert wait_counted(rig.client, rig.contract, c0, 2) == {"claimed": 1, "ref_req_sent": 1}
    req = rig.trigger(1)
    rig.deliver(1, rig.respond(req, term=2, lead=7, stratum=1, lead_k=k), "step")
    assert (rig.post["term"], rig.post["lead"], rig.post["stratum"]) == (2, 7, 2)
    late = Message(Op.RESP, Flag.REF, REF_TOR, ME, 0, 0, 0, REF_TOR, 0, ask.t1, Stamp(k, ask.t1.phase + 10_000),
                   Stamp(k, ask.t1.phase + 20_000), k % S)
    rig.deliver(0, late, "wrong_peer")
    assert (rig.post["term"], rig.post["lead"], rig.post["stratum"]) == (2, 7, 2)


def test_a_slow_exchange_still_says_the_lead_is_alive(rig):
    """A queued exchange (delay over max_delay) is not used for the time, but it still
    refreshes lead_k: a RESP from the reference says the lead reaches it now (lead_k = k),
    a same-term peer's carries its later lead_k. On a loaded fabric most exchanges are
    slow; without this lead_k aged, the next candidate claimed and every ToR re-joined."""
    rig.fresh(exchange_every=0)
    k = 1003
    rig.synced(k=k, u=0)                                        # stratum 2, term 1, lead 6
    u = 0
    slow = -2 * rig.cfg.max_delay - 10
    rig.deliver(u, rig.respond(rig.trigger(u), lead_k=k + 7, turn=slow), "slow")
    assert rig.post["lead_k"] == k + 7 and rig.post["stratum"] == 2
    rig.deliver(u, rig.respond(rig.trigger(u), lead_k=k + 9, term=0, turn=slow), "slow")   # another term: not
    assert rig.post["lead_k"] == k + 7
    # the lead: a slow RESP of the reference refreshes its lead_k
    rig.fresh(candidate=1, start_wait=0, claim_wait=8, exchange_every=0)
    seed(rig.client, rig.contract, k)
    rig.regs.write(lead_k=k - 5)
    req = rig.trigger(0)                                        # claims, REF REQ
    ref = Message(Op.RESP, Flag.REF, REF_TOR, ME, 0, 0, 0, REF_TOR, 0, req.t1, Stamp(k, req.t1.phase + 10_000),
                  Stamp(k, req.t1.phase + 20_000), k % S)
    rig.deliver(0, ref, "step")
    rig.regs.write(lead_k=rig.post["k"] - 3)
    req = rig.trigger(0)
    t2 = Stamp.of_ns(ns(req.t1) + 10_000, L)
    rig.deliver(0, replace(ref, t1=req.t1, t2=t2, t3=Stamp.of_ns(ns(t2) + slow, L)), "slow")
    assert rig.post["lead_k"] == rig.post["k"] and rig.post["stratum"] == 1


# ---- the data plane follows the clock -------------------------------------------------------------
def probe_dst(t: int) -> int:
    """A destination whose slice-t route leaves at once on an uplink no other slice's route
    leaves at once on: where a packet to it leaves tells the slice."""
    for dst in range(1, 8):
        a = uro_entry(dst, t).alternatives[0]
        if a.wait == 0 and all((uro_entry(dst, o).alternatives[0].uplink, uro_entry(dst, o).alternatives[0].wait)
                               != (a.uplink, 0) for o in range(S) if o != t):
            return dst
    raise AssertionError(f"no probe destination for slice {t}")


def assert_slice(dp, t: int, ident: int) -> None:
    dst = probe_dst(t)
    pkt = udp(dst, ident=ident)
    dp.send(0, pkt)
    dp.expect(UPLINK_BASE + uro_entry(dst, t).alternatives[0].uplink, routed(pkt))


def test_packets_take_the_slice_the_clock_says_and_wait_for_the_boundary(rig):
    rig.fresh()
    c, dp = rig.client, rig.dp
    drops0 = rig.client.read_counters(rig.contract, "drops")
    seed(c, rig.contract, 1003, L - 3_000_000_000)             # slice 3, 3 s before its end
    assert_slice(dp, 3, ident=1)
    # timers are refused in sync mode: the switch keeps time itself
    assert send_timer(dp, 0, sync=True) == "timer_rejected"
    assert_slice(dp, 3, ident=2)
    # a packet for the next slice is held until the clock crosses the boundary
    dst, a0 = next((d, uro_entry(d, 3).alternatives[0]) for d in range(1, 8) if uro_entry(d, 3).alternatives[0].wait == 1)
    pkt = udp(dst, ident=3)
    # The PROBE's phase is read in the switch at some time after t0, so the boundary comes
    # no sooner than t0 + left (a reply that comes back late on a loaded machine is stale).
    t0 = time.monotonic()
    left = (L - probe(dp).t3.phase) / 1e9                       # s to the boundary
    dp.send(0, pkt)
    hold = min(0.3, (t0 + left - time.monotonic()) / 2)
    assert hold > 0.05, f"the test took most of the slice ({left:.2f} s were left)"
    dp.expect_none(timeout=hold)                                # held: the boundary is not yet
    dp.expect(UPLINK_BASE + a0.uplink, routed(pkt), timeout=left + 3)
    assert probe(dp).t2.k == 1004                               # it left once the clock crossed
    assert_slice(dp, 0, ident=4)
    assert rig.regs.read("k", "slice") == {"k": 1004, "slice": 0}
    # a step (here a new seed) moves the slice at once
    seed(c, rig.contract, 2001, 0)
    assert_slice(dp, 1, ident=5)
    assert moved(drops0, rig.client.read_counters(rig.contract, "drops")) == {}



def test_the_pass_that_crosses_a_boundary_takes_the_new_slices_phase(rig):
    """The first packet after a boundary moves the clock and takes its phase from the
    moved clock (not the phase the pass read before crossing: 0, the slice's start now):
    a PROBE ~0.8 s after the boundary is stamped at arrival (t2) in the new slice, its
    phase within the PROBE's own time in the switch of its t3."""
    rig.fresh()
    seed(rig.client, rig.contract, 1003, L - 200_000_000)      # 0.2 s before the end of slice 3
    time.sleep(1.0)                                            # nothing enters the switch meanwhile
    r = probe(rig.dp)
    assert (r.t2.k, r.t3.k) == (1004, 1004)
    assert r.t2.phase >= 500_000_000, r.t2
    assert 0 <= r.t3.phase - r.t2.phase < 300_000_000, (r.t2, r.t3)
    assert rig.regs.read("k", "slice") == {"k": 1004, "slice": 0}

def test_a_frame_whose_slice_ends_before_it_can_leave_is_decided_again(rig):
    """A frame decided for this slice that leaves after the slice ended would cross the OCS
    on the next slice's circuit: egress, which has the time it leaves, sends it round to
    be decided again from then (event ``departed_late``), and it takes the new slice's
    route. The wait is made in the egress queue: the route's uplink paced at 1 frame a
    second, three frames sent at once 1.5 s before the slice ends, so the third leaves
    ~0.5 s after the end (the second, ~0.5 s before it, is left out: a loaded machine may
    delay it past the end too)."""
    from controller.emulate import procs
    from controller.emulate.config import DEFAULT_UPLINK_PPS

    rig.fresh()
    c, dp, contract = rig.client, rig.dp, rig.contract
    # a destination routed at once in slice 3 and in slice 0, on different uplinks
    dst, a3, a0 = next((d, uro_entry(d, 3).alternatives[0], uro_entry(d, 0).alternatives[0]) for d in range(1, 8)
                       if uro_entry(d, 3).alternatives[0].wait == 0 == uro_entry(d, 0).alternatives[0].wait
                       and uro_entry(d, 3).alternatives[0].uplink != uro_entry(d, 0).alternatives[0].uplink)
    top = (UPLINK_BASE + a3.uplink, contract["calendar"]["depart_priority"])
    ev0, dep0 = c.read_counters(contract, "events"), c.read_counters(contract, "departures")
    procs.set_queue_rates(rig.sw.thrift_port, {top: 1}, "tor")
    try:
        seed(c, contract, 1003, L - 1_500_000_000)              # slice 3, 1.5 s before its end
        pkts = [udp(dst, ident=40 + i) for i in range(3)]
        for p in pkts:
            dp.send(0, p)
        dp.expect(UPLINK_BASE + a3.uplink, routed(pkts[0]), timeout=3)    # at once, in slice 3
        dp.expect(UPLINK_BASE + a0.uplink, routed(pkts[2]), timeout=5)    # slice 0's route
    finally:
        procs.set_queue_rates(rig.sw.thrift_port, {top: DEFAULT_UPLINK_PPS}, "tor")
    late = moved(ev0, c.read_counters(contract, "events")).get("departed_late", 0)
    assert late in (1, 2), late
    dep = moved(dep0, c.read_counters(contract, "departures"))
    # the redecided frames leave on a recirculated pass, counted there (and not when egress sent them round)
    assert sum(v for k, v in dep.items() if k.startswith("recirc_")) == late
    assert sum(dep.values()) == 3


# ---- the emulation-only fault model ----------------------------------------------------------------
def test_the_fault_model_steps_and_scales_the_clock(rig):
    rig.fresh()
    seed(rig.client, rig.contract, 1000)
    off = lambda r: ns(r.t3) - r.aux          # noqa: E731 -- network time minus the raw clock
    p0 = probe(rig.dp)
    rig.regs.write(fault_step=5_000_000)
    p1 = probe(rig.dp)
    assert off(p1) - off(p0) == 5_000_000
    rig.regs.write(fault_step=-3_000_000)
    p2 = probe(rig.dp)
    assert off(p2) - off(p0) == -3_000_000
    from controller.clock.servo import FaultModel
    rate = FaultModel.rate_of_ppm(1000)                         # 1000 ppm fast
    rig.regs.write(fault_rate=rate)
    p3 = probe(rig.dp)
    f3 = rig.regs.read("fault_acc", "fault_last")
    time.sleep(1.0)
    p4 = probe(rig.dp)
    f4 = rig.regs.read("fault_acc", "fault_last", "fault_step", "fault_rate")
    # the drift integrated over the raw clock's advance between the two PROBEs, exactly
    assert f4["fault_acc"] - f3["fault_acc"] == (f4["fault_last"] - f3["fault_last"]) * rate
    assert off(p4) - off(p3) == (f4["fault_acc"] >> 24) - (f3["fault_acc"] >> 24)
    assert 0.9e-3 < (off(p4) - off(p3)) / (f4["fault_last"] - f3["fault_last"]) < 1.1e-3   # 1 ms per s
    assert (f4["fault_step"], f4["fault_rate"]) == (-3_000_000, rate)


# ---- the controller's side: SEED and PROBE as PacketOut --------------------------------------------
def test_seed_and_probe_from_the_controller(rig):
    rig.fresh()
    c, contract = rig.client, rig.contract
    seed(c, contract, 777, 1_000_000)
    r, carried = probe_cpu(c, contract)                         # answered as a PacketIn
    assert (r.src_tor, r.dst_tor, r.stratum, r.flags) == (ME, REF_TOR, 255, Flag.BOOT)
    assert r.t2.k == 777 and 1_000_000 <= r.t2.phase <= r.t3.phase < L
    assert r.slice == 777 % S and r.aux > 0
    # the PacketIn carries the clock's registers (bmv2's P4Runtime reads none): as Thrift reads them
    regs = rig.regs.read(*carried)
    regs["stratum"] = 255 - regs["stratum"]                     # as stored
    for f in ("offset", "delay"):
        regs[f] &= 0xFFFFFFFF
    assert carried == regs
    c0 = rig.counts()
    c.packet_out(m.encode_frame(replace(m.seed(5 * L, L, S), t3=Stamp(5, L))), sync_metadata(contract))  # phase >= L
    c.packet_out(m.encode_frame(m.seed(5 * L, L, S)), {"opcode": 7})                     # not the sync opcode
    c.packet_out(m.encode_frame(Message(Op.TRIGGER)), sync_metadata(contract))          # not from the CPU
    send(rig.dp, PKTGEN, m.seed(5 * L, L, S))                                            # a SEED from the pktgen port
    assert wait_counted(c, contract, c0, 4) == {"malformed": 4}
    assert rig.regs.read("k")["k"] in (777, 778)                # not moved (but by its own boundary)
    seed(c, contract, 9, 0, ref=True)
    assert probe(rig.dp).stratum == 0


def test_the_emulated_id_fault_makes_the_tor_go_by_another_id(rig):
    """`uro emulate fail id`: with the fault register ``id`` = X + 1 the ToR's messages name
    X as their sender and it takes messages addressed to X (a misconfigured ToR); 0: its
    own id again."""
    rig.fresh()
    k, u = 1001, 0
    rig.synced(k=k, u=1)
    other = (ME + 3) % 8
    rig.regs.write(fault_id=other + 1)
    req = rig.trigger(u)
    assert (req.op, req.src_tor, req.dst_tor) == (Op.REQ, other, rig.peer(k % S, u))
    peer = rig.peer(k % S, 1)
    t1 = Stamp(k, 123)
    to_me = Message(Op.REQ, 0, peer, ME, 1, 1, 1, 6, 900, t1=t1, slice=k % S)
    rig.deliver(1, to_me, "wrong_dst")                          # not its id any more
    resp = rig.deliver(1, replace(to_me, dst_tor=other), "resp_sent", out=True)
    assert (resp.src_tor, resp.dst_tor) == (other, peer)
    rig.regs.write(fault_id=0)
    resp = rig.deliver(1, to_me, "resp_sent", out=True)
    assert resp.src_tor == ME
    quiet(rig.dp)
