"""The OCS emulator as the reference clock, on real simple_switch_grpc (docs/clock.md "The
tree and the election"): it answers REF requests itself once seeded, drops REF responses
from ToR ports, forwards every other sync frame per circuit, and its slice -- which
circuits it connects -- follows its own clock. One switch serves the module.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from clock_util import (L, PKTGEN, Registers, counts, ns, params, probe, probe_cpu, recv, seed, send,
                        wait_counted)
from fabric import schedule, send_timer
from scapy.layers.l2 import Ether

from controller.clock import message as m
from controller.clock.message import REF_TOR, Flag, Message, Op, Stamp
from controller.p4gen.timer import sync_metadata
from controller.tables import clock as clock_tables
from controller.tables.tor_batch import ocs_batch

D = 2
S = 4


@pytest.fixture(scope="module")
def ocs_rig(clock_ocs):
    sw, client, dp, contract = clock_ocs
    client.write(ocs_batch(contract, schedule()))
    regs = Registers(sw, contract)
    try:
        yield sw, client, dp, contract, regs
    finally:
        regs.close()


def sync_mode(client, contract, regs, on: bool = True) -> None:
    regs.reset()
    entry = clock_tables.ocs_clock_entry(contract, params() if on else params(mode="timer"))
    client.write([entry], "MODIFY")


def data(tag: int) -> bytes:
    return (Ether(src="02:00:00:00:00:0a", dst="02:00:00:00:00:0b", type=0x9000) / bytes([tag]) / bytes(50)).build()


def test_the_reference_answers_ref_requests_once_seeded(ocs_rig):
    sw, c, dp, contract, regs = ocs_rig
    sync_mode(c, contract, regs)
    port = 3 * D + 1                                           # ToR 3's uplink 1
    req = Message(Op.REQ, Flag.REF, 3, REF_TOR, 1, 1, 4, 3, 500, t1=Stamp(42, 4242))
    c0 = counts(c, contract)
    send(dp, port, req)
    assert wait_counted(c, contract, c0) == {"unseeded": 1}    # no reference time yet
    dp.expect_none(timeout=0.3)
    seed(c, contract, 5000, 0, ref=True)
    before = probe(dp)
    assert (before.src_tor, before.stratum, before.flags) == (REF_TOR, 0, Flag.REF)
    send(dp, port, req)
    resp = recv(dp, port)
    after, carried = probe_cpu(c, contract)
    assert (resp.op, resp.flags, resp.src_tor, resp.dst_tor, resp.uplink) == (Op.RESP, Flag.REF, REF_TOR, 3, 1)
    assert (resp.stratum, resp.term, resp.lead, resp.t1, resp.slice) == (0, 0, REF_TOR, req.t1, 5000 % S)
    assert ns(before.t3) <= ns(resp.t2) <= ns(resp.t3) <= ns(after.t2)
    assert regs.read("stratum", "k") == {"stratum": 0, "k": 5000}
    assert (carried["k"], carried["stratum"], carried["slice"]) == (5000, 255 - 0, 5000 % S)   # stratum as stored
    # a REF RESP from a ToR port is dropped: only the reference answers REF requests
    c0 = counts(c, contract)
    send(dp, port, replace(resp, src_tor=3, dst_tor=REF_TOR))
    assert wait_counted(c, contract, c0) == {"ref_resp_dropped": 1}
    dp.expect_none(timeout=0.3)


def test_the_slice_follows_its_clock_and_other_sync_frames_cross_by_circuit(ocs_rig):
    sw, c, dp, contract, regs = ocs_rig
    sync_mode(c, contract, regs)
    sched = schedule()
    seed(c, contract, 2001, L - 3_000_000_000, ref=True)      # slice 1, 3 s before its end
    a, u = 0, 0
    b = int(sched.peer[1, a, u])
    dp.send(a * D + u, data(1))
    dp.expect(b * D + u, Ether(data(1)))
    # a ToR's REQ is data to the OCS: across this slice's circuit, the time it held it added
    # to aux's upper half (a RESP's: the lower half; message.add_residence), nothing else changed
    req = Message(Op.REQ, 0, a, b, u, 2, 1, 6, 10, t1=Stamp(2001, 5))
    send(dp, a * D + u, req)
    got = recv(dp, b * D + u)
    fwd, back = m.residence(got.aux)
    assert got == replace(req, aux=got.aux) and back == 0
    assert fwd % 1000 == 0 and 0 < fwd < 1_000_000_000, "bmv2 keeps us: the residence in ns, and not nothing"
    resp = Message(Op.RESP, 0, b, a, u, 1, 1, 6, 10, t1=Stamp(2001, 5), aux=(fwd << 32) | 7)
    send(dp, b * D + u, resp)
    got = recv(dp, a * D + u)
    assert got == replace(resp, aux=got.aux) and m.residence(got.aux)[0] == fwd
    assert m.residence(got.aux)[1] % 1000 == 7 and m.residence(got.aux)[1] > 7
    # each half saturates; other ops cross unchanged (the reference's own: the test above)
    full = replace(req, aux=0xFFFFFFF0_00000003)
    send(dp, a * D + u, full)
    assert recv(dp, b * D + u).aux == 0xFFFFFFFF_00000003
    notice = Message(Op.NOTICE, 0, a, b, u, t1=Stamp(1, 2), aux=5)
    send(dp, a * D + u, notice)
    assert recv(dp, b * D + u) == notice
    # timers are refused in sync mode
    assert send_timer(dp, 3, sync=True) == "timer_rejected"
    # the next slice comes from the clock alone
    r = probe(dp)
    assert r.t3.k == 2001, "the test took the whole slice"
    time.sleep((L - r.t3.phase) / 1e9 + 0.2)
    b2 = int(sched.peer[2, a, u])
    assert b2 != b
    dp.send(a * D + u, data(2))
    dp.expect(b2 * D + u, Ether(data(2)))
    assert regs.read("slice", "k") == {"slice": 2, "k": 2002}
    # the pktgen port: TRIGGERs are taken (they only move the clock), PROBEs answered, the rest malformed
    c0 = counts(c, contract)
    send(dp, PKTGEN, Message(Op.TRIGGER, uplink=0))
    send(dp, PKTGEN, Message(Op.REQ, Flag.REF))
    c.packet_out(m.encode_frame(Message(Op.TRIGGER)), sync_metadata(contract))
    assert wait_counted(c, contract, c0, 3) == {"trigger": 1, "malformed": 2}
    dp.expect_none(timeout=0.3)


def test_timer_mode_keeps_timers_and_refuses_the_clock(ocs_rig):
    sw, c, dp, contract, regs = ocs_rig
    sync_mode(c, contract, regs, on=False)
    sched = schedule()
    assert send_timer(dp, 2, sync=True) == "timer_sync"
    dp.send(0, data(3))
    dp.expect(int(sched.peer[2, 0, 0]) * D, Ether(data(3)))
    c0 = counts(c, contract)
    send(dp, 5, Message(Op.REQ, Flag.REF, 2, REF_TOR, 1))
    # counted before the SEED's PacketOut goes in: the two race into the switch otherwise
    assert wait_counted(c, contract, c0) == {"off": 1}
    seed(c, contract, 5, 0, ref=True, expect="off")
    send(dp, PKTGEN, Message(Op.TRIGGER))
    assert wait_counted(c, contract, c0, 3) == {"off": 3}
    r = probe(dp)
    assert r.flags == Flag.REF | Flag.BOOT | Flag.TIMER and r.slice == 2 and r.t2.k == 0
    assert 0 < r.t2.phase <= r.t3.phase
    dp.expect_none(timeout=0.3)
