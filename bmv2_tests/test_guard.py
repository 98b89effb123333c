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

from fabric import ME, UPLINK_BASE, routed, set_slice, tor_batch, udp, uro_entry, uro_routes

from controller.p4gen import profile as prof

S = 4
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
