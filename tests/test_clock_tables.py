"""The slice clock's part of the pipeline contract and its entry builders
(controller.p4gen.render, controller.tables.clock): no switch."""

from __future__ import annotations

from dataclasses import replace

import pytest

from controller.clock import message as m
from controller.clock.params import MODE_SYNC, ClockConfigError, ClockParams
from controller.clock.servo import EVENTS, OCS_REASONS, REASONS
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
    gen = rnd.render(prof.load("r1024x32"), "tor", "tofino2")[1]
    assert gen["clock"]["slice_clock"] == "generator" and "ops" not in gen["clock"]
    assert "clock_config" not in gen["tables"] and "sync_peer" not in gen["tables"] and "sync" not in gen["counters"]


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
    assert [e.action for e in timer.entries] == ["UroIngress.clock_off"]


def test_ocs_clock_entry(contracts):
    _, ocs = contracts
    e = ct.ocs_clock_entry(ocs, ClockParams(slice_ns=L))
    assert e.action == "OcsIngress.set_clock" and dict(e.params) == {"mode": MODE_SYNC, "slice_ns": L}
    assert ct.ocs_clock_entry(ocs, ClockParams(slice_ns=L, mode="timer")).action == "OcsIngress.clock_off"


@pytest.mark.parametrize("bad,msg", [
    (lambda c: ct.tor_clock_batch(c, round_robin(6, 2), ClockParams(slice_ns=L), 0), "schedule 6x2x3 does not match"),
    (lambda c: ct.sync_peer_entries(c, round_robin(8, 2), 8), "ToR 8 is not in profile 'tiny'"),
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
