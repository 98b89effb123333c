"""The guard at the start of every slice (the schedule's reconfiguration guard,
``timing.guard_us``): nothing departs before slice start + guard.

The ToRs of the emulated fabric take their timers one after another, a few ms apart; a
packet released the moment one ToR starts slice s + 1 would reach the next ToR while that
one still counts slice s, find its hop "missed" and be re-sourced onto a circuit the OCS
no longer has (drops[bad_ssrr] at a ToR its route does not name). With the guard the
release waits until every switch has moved.

The program is the tiny profile with a guard of 1.5 s in a 4 s slice (bmv2 keeps wall
time in microseconds; the test steps the clock by hand and the byte clock is off), so
"not before the guard ends" is seconds apart from "at once".
"""

from __future__ import annotations

import dataclasses
import time

from clock_util import recv, send
from fabric import ME, UPLINK_BASE, routed, schedule, set_slice, tor_batch, udp, uro_entry, uro_routes
from scapy.layers.l2 import Ether

from controller.clock.message import Message, Op, Stamp, residence
from controller.p4gen import profile as prof
from controller.tables.tor_batch import ocs_batch

S = 4
D = 2
GUARD_S = 1.5


def guarded() -> prof.Profile:
    base = prof.load("tiny")
    return dataclasses.replace(base, name="tiny_guard",
                               timing=prof.ProfileTiming(slice_us=4e6, guard_us=GUARD_S * 1e6, link_gbps=1.0))


def _case(wait: int):
    """(dst, slice, alternative 0) whose first alternative leaves ``wait`` slices later."""
    return next((d, s, uro_entry(d, s).alternatives[0]) for s in range(S) for d in range(1, 8)
                if uro_entry(d, s).alternatives[0].wait == wait)


def test_nothing_leaves_in_the_guard_at_the_start_of_a_slice(compile_profile, tor_of):
    arts = compile_profile(guarded())
    with tor_of(arts) as (sw, client, dp, contract):
        client.write(tor_batch(contract, ME, uro_routes=uro_routes()))
        # a departure in the current slice, sent right after the slice's timer
        dst, t, a0 = _case(0)
        set_slice(dp, t, settle=0)
        t0 = time.monotonic()
        pkt = udp(dst, ident=900)
        dp.send(0, pkt)
        dp.expect_none(timeout=GUARD_S / 2)               # held in the guard
        dp.expect(UPLINK_BASE + a0.uplink, routed(pkt), timeout=GUARD_S + 2)
        assert time.monotonic() - t0 >= GUARD_S / 2
        # a packet held for the next slice: its timer releases it only after the guard
        dst, t, a0 = _case(1)
        set_slice(dp, t)
        pkt = udp(dst, ident=901)
        dp.send(0, pkt)
        dp.expect_none(timeout=0.3)
        set_slice(dp, (t + 1) % S, settle=0)
        dp.expect_none(timeout=GUARD_S / 2)
        dp.expect(UPLINK_BASE + a0.uplink, routed(pkt), timeout=GUARD_S + 2)
        drops = client.read_counters(contract, "drops")
        assert {k: v for k, v in drops.items() if v} == {}
        events = client.read_counters(contract, "events")
        assert events["reroute_missed"] == 0
        # both left on their uplink once, each counted by its egress wait; the held one's
        # waits in the guard were passes of a held packet
        assert sum(client.read_counters(contract, "departures").values()) == 2
        passes = client.read_counters(contract, "passes")
        assert passes["fresh"] >= 2 and passes["held"] >= 1, passes


def test_the_ocs_counts_each_data_frame_by_its_phase_at_arrival(compile_profile, ocs_of):
    """``ocs_arrivals`` (docs/clock.md "Where misaligned frames come from"): a data frame
    arriving in the OCS's first guard of its slice left in its ToR's previous slice (a ToR
    sends nothing in its own guard): counted in_guard, or in_guard_no_circuit when the
    port has no circuit; later in the slice in_time or no_circuit. The clock's own frames
    crossing the OCS are not counted."""
    arts = compile_profile(guarded())
    with ocs_of(arts) as (sw, client, dp, contract):
        sched = schedule()
        client.write(ocs_batch(contract, sched))
        n = sched.peer.shape[1]
        s, ia, iu = next((s, a, u) for s in range(S) for a in range(n) for u in range(D) if sched.peer[s, a, u] < 0)
        a, u = next((a, u) for a in range(n) for u in range(D) if sched.peer[s, a, u] >= 0)
        b = int(sched.peer[s, a, u])
        set_slice(dp, s, settle=0)
        t0 = time.monotonic()
        dp.send(a * D + u, frame(1))
        dp.expect(b * D + u, frame(1))
        dp.send(ia * D + iu, frame(2))
        req = Message(Op.REQ, 0, a, b, u, 2, 1, 6, 10, t1=Stamp(7, 5))
        send(dp, a * D + u, req)
        got = recv(dp, b * D + u)          # across the circuit, the OCS's residence in aux's upper half
        assert got == dataclasses.replace(req, aux=got.aux) and residence(got.aux)[1] == 0
        assert time.monotonic() - t0 < GUARD_S, "the machine took the whole guard"
        time.sleep(max(0.0, GUARD_S + 0.2 - (time.monotonic() - t0)))
        dp.send(a * D + u, frame(3))
        dp.expect(b * D + u, frame(3))
        dp.send(ia * D + iu, frame(4))
        dp.expect_none(timeout=0.3)
        got = {k: v for k, v in client.read_counters(contract, "ocs_arrivals").items() if v}
        assert got == {f"tor{a}u{u}_in_guard": 1, f"tor{a}u{u}_in_time": 1,
                       f"tor{ia}u{iu}_in_guard_no_circuit": 1, f"tor{ia}u{iu}_no_circuit": 1}
        assert client.read_counters(contract, "ocs_drops")["no_circuit"] == 2


def frame(tag: int):
    return Ether(src="02:00:00:00:00:0a", dst="02:00:00:00:00:0b", type=0x9000) / bytes([tag]) / bytes(50)
