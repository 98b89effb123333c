"""The slice clock's part of the pipeline contract and its entry builders
(controller.p4gen.render, controller.tables.clock): no switch."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from controller.clock import message as m
from controller.clock.params import MODE_SYNC, ClockConfigError, ClockParams
from controller.clock.servo import EVENTS, OCS_REASONS, REASONS, rate_adjust
from controller.p4gen import profile as prof
from controller.p4gen import render as rnd
from controller.schedule import round_robin
from controller.tables import clock as ct
from controller.tables.entries import EntryError

L = 50_000_000


@pytest.fixture(scope="module")
def contracts():
    p = prof.load("tiny")
    return rnd.contract(p, "tor"), rnd.contract(p, "ocs")


def test_the_contract_names_the_clock_once(contracts):
    tor, ocs = contracts
    ck = tor["clock"]
    assert ck["ethertype"] == 0x88B6 and ck["pktgen_port"] == 500 == prof.PKTGEN_PORT
    assert [tuple(f) for f in ck["header"]] == list(m.FIELDS)
    assert ck["ops"] == {"REQ": 1, "RESP": 2, "TRIGGER": 3, "PROBE": 4, "PROBE_REPLY": 5, "SEED": 6, "NOTICE": 7}
    assert ck["flags"] == {"REF": 1, "BOOT": 2, "TIMER": 4} and ck["modes"] == {"timer": 0, "sync": 1}
    assert tor["counters"]["sync"]["indices"] == list(REASONS + EVENTS)
    assert ocs["counters"]["ocs_sync"]["indices"] == list(OCS_REASONS) and ocs["clock"]["counter"] == "ocs_sync"
    regs = ck["registers"]
    assert regs["k"] == {"name": "UroIngress.clock_k", "bits": 32, "size": 1, "meaning": regs["k"]["meaning"]}
    assert regs["req_t1"]["name"] == "clock_req_t1" and regs["req_t1"]["size"] == 2   # egress writes it: top level
    assert regs["slice"]["name"] == "UroIngress.slice_reg"
    assert set(ck["fault"]["registers"]) == {"rate", "step", "acc", "last", "id"} and ck["fault"]["rate_shift"] == 24
    assert set(ocs["clock"]["registers"]) == {"k", "next", "stratum", "slice"} and "fault" not in ocs["clock"]
    # the PacketIn header: every one-cell register, whole bytes
    pin = tor["packet_io"]["packet_in"]
    assert [f for f, _ in pin if f != "pad"] == [f"clock_{s}" for s, r in regs.items() if r["size"] == 1]
    assert sum(b for _, b in pin) % 8 == 0
    assert tor["packet_io"]["opcodes"]["sync"] == 0
    assert tor["tables"]["sync_peer"]["size"] == 4 * 2 and tor["tables"]["clock_config"]["size"] == 1


def test_the_tofino2_contract_has_the_exchange():
    """The corrected clock's program takes REQ and RESP (docs/tofino2.md "The exchange"): its
    clock.ops lists those ops, and the v1model contract's wire format, clock_config, sync_peer
    and sync counter are there by the same names; the generator's clock takes no sync
    message and has none of them."""
    tor = rnd.render(prof.load("tiny"), "tor", "bmv2")[1]
    c = rnd.render(prof.load("tiny"), "tor", "tofino2")[1]
    assert c["clock"]["source"] == "pktgen" and c["clock"]["ops"] == {"REQ": 1, "RESP": 2}
    for k in ("ethertype", "header", "flags", "ref_tor", "any_tor", "unsynced", "modes", "counter"):
        assert c["clock"][k] == tor["clock"][k], k
    for t in ("clock_config", "sync_peer"):
        assert c["tables"][t] == tor["tables"][t]
    assert c["counters"]["sync"] == tor["counters"]["sync"]
    # the servo's rate step from egress's servo_rate; no clock filter (bmv2's has both)
    assert c["clock"]["features"] == ["rate_step"] and tor["clock"]["features"] == ["filter", "rate_step"]
    assert c["tables"]["servo_rate"]["name"] == "UroEgress.servo_rate" and "servo_rate" not in tor["tables"]
    assert [k["match"] for k in c["tables"]["servo_rate"]["keys"]] == ["ternary"]
    gen = rnd.render(prof.load("r1024x32"), "tor", "tofino2")[1]
    assert gen["clock"]["slice_clock"] == "generator" and "ops" not in gen["clock"]
    assert "clock_config" not in gen["tables"] and "sync_peer" not in gen["tables"] and "sync" not in gen["counters"]
    assert "servo_rate" not in gen["tables"] and "features" not in gen["clock"]


@pytest.fixture(scope="module")
def t2na_tiny():
    return rnd.render(prof.load("tiny"), "tor", "tofino2")[1]


def _rate_entry(entries, theta: int):
    """The servo_rate entry whose ternary block holds arg = -theta (32-bit), None for none;
    more than one is a failure (the switch would pick by priority)."""
    arg = (-theta) & 0xFFFFFFFF
    hits = [e for e in entries if arg & dict(e.match)["arg"][1] == dict(e.match)["arg"][0]]
    assert len(hits) <= 1, (theta, hits)
    return hits[0] if hits else None


@given(lo=st.integers(0, (1 << 32) - 1), n=st.integers(0, (1 << 32) - 1), probe=st.integers(0, (1 << 32) - 1))
def test_prefix_blocks_cover_exactly_the_range(lo, n, probe):
    """The blocks are aligned, disjoint, in order and cover lo..hi and nothing else: a value
    is in exactly one block iff it is in the range; at most 2 x 32 blocks."""
    hi = min(lo + n % (1 << 33), (1 << 32) - 1)
    blocks = ct.prefix_blocks(lo, hi)
    assert len(blocks) <= 64
    spans = [(v, v + ((~m) & 0xFFFFFFFF)) for v, m in blocks]
    assert all(v & m == v for v, m in blocks)
    assert spans[0][0] == lo and spans[-1][1] == hi
    assert all(a[1] + 1 == b[0] for a, b in zip(spans, spans[1:]))
    # the fewest: no block could be twice as large (misaligned for it, or past the range)
    for v, e in spans:
        size = e - v + 1
        assert v % (2 * size) != 0 or v + 2 * size - 1 > hi or size == 1 << 32, (v, size)
    for x in (probe, lo, hi, max(lo - 1, 0), min(hi + 1, (1 << 32) - 1)):
        assert sum(x & m == v for v, m in blocks) == (1 if lo <= x <= hi else 0), x


@settings(max_examples=300, deadline=None)
@example(shift=27, ppm=16_000, drift=16_000, theta=(1 << 31) - 1, at=0)     # more steps than 2^31 >> shift
@example(shift=27, ppm=16_000, drift=16_000, theta=1 - (1 << 31), at=0)
@example(shift=30, ppm=3_000, drift=3_000, theta=(1 << 30) + 5, at=0)      # steps 2..6: no |theta| < 2^31
@example(shift=0, ppm=1_000, drift=1_000, theta=2, at=0)                    # one value per step
@example(shift=0, ppm=1_000, drift=1_000, theta=-1, at=0)
@given(shift=st.integers(0, 31), ppm=st.integers(1, 16_000), drift=st.integers(1, 100_000),
       theta=st.one_of(st.integers(1 - (1 << 31), (1 << 31) - 1), st.integers(-600, 600)),
       at=st.integers(0, 1 << 16))
def test_servo_rate_entries_give_the_reference_models_step(t2na_tiny, shift, ppm, drift, theta, at):
    """For any theta, the one entry whose range holds -theta moves the local slice length
    the way SwitchClock.response does (rate_adjust): by min(|theta| >> servo_shift,
    rate_step), up when theta < 0; no entry where that is 0. Taken while it stays within
    len_min..len_max (the switch's rule: up while len <= room, down while len >= room), the
    length never leaves the bounds and equals the reference's clamped length wherever the
    clamp does not bind."""
    assume(ppm <= drift)
    params = ClockParams(slice_ns=2000, servo_shift=shift, rate_step_ppm=ppm, max_drift_ppm=drift)
    cfg = params.tor_config(0, 8, 2, 4)
    try:
        entries = ct.servo_rate_entries(t2na_tiny, cfg)
    except EntryError:              # refused: steps whose ranges need more than the table holds
        assume(False)
    d = rate_adjust(theta, shift, cfg.rate_step)
    e = _rate_entry(entries, theta)
    if d == 0:
        assert e is None
        return
    p = dict(e.params)
    assert p["step"] == abs(d)
    assert e.action == ("UroEgress.rate_down" if d < 0 else "UroEgress.rate_up")
    v = cfg.len_min + at % (cfg.len_max - cfg.len_min + 1)
    want = v + d
    if d < 0:
        got = want if v >= p["room"] else v
    else:
        got = want if v <= p["room"] else v
    assert cfg.len_min <= got <= cfg.len_max
    if cfg.len_min <= want <= cfg.len_max:
        assert got == want


def test_servo_rate_entries_in_the_t2na_batch_and_steps_the_table_cannot_hold(t2na_tiny):
    """The t2na ToR's clock batch carries servo_rate's entries before clock_config (at 2 us
    slices and 1000 ppm, steps of 1 and 2 ns each way); steps whose ranges need more
    entries than the table holds are refused naming rate_step_ppm."""
    sched = round_robin(8, 2)
    b = ct.tor_clock_batch(t2na_tiny, sched, ClockParams(slice_ns=2000, rate_step_ppm=1000), 3)
    rate = [e for e in b.entries if e.table == "UroEgress.servo_rate"]
    assert {(e.action.split(".")[-1], dict(e.params)["step"]) for e in rate} == {
        ("rate_down", 1), ("rate_down", 2), ("rate_up", 1), ("rate_up", 2)}
    assert all(e.priority == 1 for e in rate) and len(rate) <= t2na_tiny["tables"]["servo_rate"]["size"]
    assert b.entries[-1].table == "UroIngress.clock_config"
    peers = [e for e in b.entries if e.table == "UroIngress.sync_peer"]
    assert len(peers) == 7 and len(b.entries) == len(peers) + len(rate) + 1     # round robin: 7 peers of ToR 3
    cfg = ClockParams(slice_ns=2000, rate_step_ppm=40_000, max_drift_ppm=40_000).tor_config(0, 8, 2, 4)
    with pytest.raises(EntryError, match=r"rate_step_ppm, servo_shift: a rate step of up to 80 ns per exchange with "
                                         r"servo_shift = 4 needs more entries than UroEgress\.servo_rate holds \(256: "
                                         r"a range of -theta per step and sign, in aligned blocks\): lower "
                                         r"rate_step_ppm$"):
        ct.servo_rate_entries(t2na_tiny, cfg)
    # the table holds them exactly, or one entry short
    c = copy.deepcopy(t2na_tiny)
    c["tables"]["servo_rate"]["size"] = 1 << 20
    need = len(ct.servo_rate_entries(c, cfg))
    c["tables"]["servo_rate"]["size"] = need
    assert len(ct.servo_rate_entries(c, cfg)) == need
    c["tables"]["servo_rate"]["size"] = need - 1
    with pytest.raises(EntryError, match=rf"holds \({need - 1}:"):
        ct.servo_rate_entries(c, cfg)


def test_tor_clock_entries_from_the_schedule_and_the_parameters(contracts):
    tor, _ = contracts
    sched = round_robin(8, 2)
    b = ct.tor_clock_batch(tor, sched, ClockParams(slice_ns=L, guard_ns=5_000_000), 3)
    peers = {(dict(e.match)["slice"], dict(e.match)["uplink"]): dict(e.params)["peer"] for e in b.entries[:-1]}
    assert peers == {(s, u): int(sched.peer[s, 3, u]) for s in range(4) for u in range(2) if sched.peer[s, 3, u] >= 0}
    cfg = b.entries[-1]
    assert cfg.is_default and cfg.table == "UroIngress.clock_config" and cfg.action == "UroIngress.set_clock"
    params = dict(cfg.params)
    assert (params["mode"], params["my_tor"], params["slice_ns"]) == (MODE_SYNC, 3, L)
    assert params["window_hi"] == L - 5_000_000 - 2 * (L // 8)
    timer = ct.tor_clock_batch(tor, sched, ClockParams(slice_ns=L, mode="timer"), 3)
    assert [(e.table, e.action, e.match, e.params, e.is_default) for e in timer.entries] == [
        ("UroIngress.clock_config", "UroIngress.clock_off", (), (), True)]
    # ToR 0 is a ToR too
    assert {dict(e.match)["slice"] for e in ct.sync_peer_entries(tor, sched, 0)} == set(range(4))


def test_ocs_clock_entry(contracts):
    _, ocs = contracts
    e = ct.ocs_clock_entry(ocs, ClockParams(slice_ns=L))
    assert e.action == "OcsIngress.set_clock" and dict(e.params) == {"mode": MODE_SYNC, "slice_ns": L}
    assert ct.ocs_clock_entry(ocs, ClockParams(slice_ns=L, mode="timer")).action == "OcsIngress.clock_off"


@pytest.mark.parametrize("bad,msg", [
    (lambda c: ct.tor_clock_batch(c, round_robin(6, 2), ClockParams(slice_ns=L), 0), "schedule 6x2x3 does not match"),
    (lambda c: ct.sync_peer_entries(c, round_robin(8, 2), 8), r"ToR 8 is not in profile 'tiny' \(0\.\.7\)$"),
    (lambda c: ct.tor_clock_batch({**c, "tables": {**c["tables"], "sync_peer": {**c["tables"]["sync_peer"], "size": 2}}},
                                  round_robin(8, 2), ClockParams(slice_ns=L), 3),
     r"^ToR 3 clock entries: table sync_peer needs 7 entries"),
    (lambda c: ct.tor_clock_batch(c, round_robin(8, 2), ClockParams(slice_ns=L, ref_uplink=5), 0),
     "ref_uplink must be in 0..1"),
    (lambda c: ct.clock_config_entry(c, replace(ClockParams(slice_ns=L).tor_config(0, 8, 2, 4), my_tor=1 << 16)),
     "my_tor = 65536 does not fit 16 bits"),
])
def test_bad_clock_entries_are_refused_with_the_item_named(contracts, bad, msg):
    with pytest.raises((EntryError, ClockConfigError), match=msg):
        bad(contracts[0])


def test_seed_and_probe_messages():
    s = m.seed(7 * L + 123, L, 4, ref=True)
    assert (s.op, s.flags, s.t3, s.slice) == (m.Op.SEED, m.Flag.REF, m.Stamp(7, 123), 3)
    p = m.probe((5 << 32) | 6)
    assert (p.op, p.t1) == (m.Op.PROBE, m.Stamp(5, 6))


def test_the_pktgen_port_is_kept_free():
    with pytest.raises(prof.ProfileError, match="reaches port 500, the packet generator's"):
        prof.Profile(name="big", tors=600, uplinks=4, host_ports=497, slices=150, alternatives=1, ssrr_hops=1,
                     queues=150)
    p = prof.Profile(name="wide", tors=126, uplinks=4, host_ports=2, slices=32, alternatives=1, ssrr_hops=1, queues=32)
    assert p.ocs_ports == 504 and not p.ocs_fits and p.programs() == ["tor"]


@pytest.mark.parametrize("arg,msg", [
    (16, r"ternary key arg needs \(value, mask\), got 16"),
    ((0x11, 0xFFFFFFF0), r"ternary key arg value 0x11 has bits outside mask 0xfffffff0"),
    ((1 << 32, 0), r"key arg value"),
])
def test_a_ternary_key_needs_a_value_within_its_mask(t2na_tiny, arg, msg):
    """make_entry's ternary keys (servo_rate's blocks): a (value, mask) pair whose value has
    no bit outside the mask, each within the key's width; else refused naming the key."""
    with pytest.raises(EntryError, match=msg):
        ct.ent.make_entry(t2na_tiny, "servo_rate", {"arg": arg}, "rate_up", {"room": 1, "step": 1})
    e = ct.ent.make_entry(t2na_tiny, "servo_rate", {"arg": (0x10, 0xFFFFFFF0)}, "rate_up", {"room": 1, "step": 1})
    assert dict(e.match)["arg"] == (0x10, 0xFFFFFFF0) and e.priority == 1
