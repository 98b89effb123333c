"""The slice clock is not host-writable.

Timers are taken only from the CPU port (P4Runtime PacketOut, opcode timer); a timer
frame from a host port or an uplink is dropped and counted (drops[bad_timer]) and the
clock does not move; a timer from the controller that would move the clock backwards,
repeat the slice, or step further than the config's max_timer_step is counted
(events[timer_rejected]) and ignored. The clock is observed through forwarding: a probe
packet leaves by the route of the slice the switch believes it is in.
"""

from __future__ import annotations

import time

import pytest
from fabric import (ME, UPLINK_BASE, routed, send_timer, set_slice, timer, tor_batch, udp, uro_entry,
                    uro_routes)

S = 4


def probe_dst(t: int) -> int:
    """A destination whose slice-t route leaves at once, on a port (or slice) that the
    route of every other slice does not share: where the probe leaves tells the slice."""
    for dst in range(1, 8):
        a = uro_entry(dst, t).alternatives[0]
        if a.wait != 0:
            continue
        if all((uro_entry(dst, o).alternatives[0].uplink, uro_entry(dst, o).alternatives[0].wait)
               != (a.uplink, 0) for o in range(S) if o != t):
            return dst
    raise AssertionError(f"no probe destination for slice {t}")


def assert_clock_at(dp, t: int, ident: int) -> None:
    """The switch is in slice t: the probe leaves now, on the slice-t route's uplink."""
    dst = probe_dst(t)
    a = uro_entry(dst, t).alternatives[0]
    pkt = udp(dst, ident=ident)
    dp.send(0, pkt)
    dp.expect(UPLINK_BASE + a.uplink, routed(pkt))
    dp.expect_none()


def counters(client, contract):
    return client.read_counters(contract, "drops"), client.read_counters(contract, "events")


@pytest.mark.parametrize("port", [0, 1, UPLINK_BASE, UPLINK_BASE + 1], ids=["host0", "host1", "uplink0", "uplink1"])
def test_timer_from_a_data_port_is_dropped_counted_and_ignored(tor, port):
    sw, client, dp, contract = tor
    client.write(tor_batch(contract, ME, uro_routes=uro_routes()))
    set_slice(dp, 0)
    d0, e0 = counters(client, contract)
    for s in (2, 3, 1):                       # a spoofed timer for every other slice
        dp.send(port, timer(s))
        dp.send(port, timer(s, flags=1))      # SYNC does not help from a data port
    dp.expect_none()
    deadline = time.time() + 5
    while client.read_counters(contract, "drops")["bad_timer"] - d0["bad_timer"] < 6 and time.time() < deadline:
        time.sleep(0.02)
    d1, e1 = counters(client, contract)
    assert {k: d1[k] - d0[k] for k in d1 if d1[k] != d0[k]} == {"bad_timer": 6}
    assert {k: e1[k] - e0[k] for k in ("timer", "timer_sync", "timer_rejected")} == \
        {"timer": 0, "timer_sync": 0, "timer_rejected": 0}
    assert_clock_at(dp, 0, ident=11)          # the clock stayed in slice 0
    assert sw.alive()


def test_timer_steps_forward_within_the_bound_only(tor):
    """Default bound for S = 4: one slice. From slice 1: a step of one is applied; a
    repeat, a step back and a step of two are rejected and change nothing."""
    sw, client, dp, contract = tor
    assert contract["profile"]["default_max_timer_step"] == 1
    client.write(tor_batch(contract, ME, uro_routes=uro_routes()))
    set_slice(dp, 1)
    assert send_timer(dp, 1) == "timer_rejected"      # the same slice again (a duplicate)
    assert send_timer(dp, 0) == "timer_rejected"      # backwards
    assert send_timer(dp, 3) == "timer_rejected"      # forward by 2 > max_timer_step = 1
    assert_clock_at(dp, 1, ident=21)
    assert send_timer(dp, 2) == "timer"               # the next slice
    assert_clock_at(dp, 2, ident=22)
    assert send_timer(dp, 1) == "timer_rejected"      # a late timer of the slice before
    assert_clock_at(dp, 2, ident=23)
    drops, events = counters(client, contract)
    assert (events["timer"], events["timer_rejected"]) == (1, 4)
    assert sum(drops.values()) == 0


def test_max_timer_step_comes_from_the_config_and_sync_jumps(tor):
    sw, client, dp, contract = tor
    client.write(tor_batch(contract, ME, uro_routes=uro_routes(), max_timer_step=2))
    set_slice(dp, 0)
    assert send_timer(dp, 2) == "timer"               # a lost timer (slice 1) is tolerated
    assert_clock_at(dp, 2, ident=31)
    assert send_timer(dp, 1) == "timer_rejected"      # 3 ahead = one back
    assert_clock_at(dp, 2, ident=32)
    assert send_timer(dp, 1, sync=True) == "timer_sync"   # the controller re-synchronising
    assert_clock_at(dp, 1, ident=33)


def _wait_counter(read, key, before, want, timeout=5.0):
    end = time.time() + timeout
    while read()[key] - before < want and time.time() < end:
        time.sleep(0.02)


def test_controller_frames_that_are_not_timers_and_timers_for_no_slice(tor):
    """From the CPU port too, only a timer with opcode timer for a slice in 0..S-1 moves
    the clock: slice S is rejected, a timer frame with another opcode and a non-timer
    frame are bad_timer. Nothing is forwarded."""
    sw, client, dp, contract = tor
    client.write(tor_batch(contract, ME, uro_routes=uro_routes()))
    set_slice(dp, 0)
    ev = lambda: client.read_counters(contract, "events")     # noqa: E731
    dr = lambda: client.read_counters(contract, "drops")      # noqa: E731
    e0, d0 = ev(), dr()
    client.packet_out(timer(S), {"opcode": 0})                # slice 4 of 0..3
    client.packet_out(timer(S + 200, flags=1), {"opcode": 0})  # even as a SYNC
    _wait_counter(ev, "timer_rejected", e0["timer_rejected"], 2)
    client.packet_out(timer(1), {"opcode": 7})                # not the timer opcode
    client.packet_out(bytes(udp(3).build()))                  # not a timer frame
    _wait_counter(dr, "bad_timer", d0["bad_timer"], 2)
    dp.expect_none()
    e1, d1 = ev(), dr()
    assert e1["timer_rejected"] - e0["timer_rejected"] == 2
    assert (e1["timer"], e1["timer_sync"]) == (e0["timer"], e0["timer_sync"])
    assert {k: d1[k] - d0[k] for k in d1 if d1[k] != d0[k]} == {"bad_timer": 2}
    assert_clock_at(dp, 0, ident=41)
