"""Liveness per circuit, controller side (docs/liveness.md): ``[liveness]`` checked against
the clock and the schedule's cycle, the ``liveness_config`` entry, the contract section,
and the daemon's static entries carrying it."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from controller.daemon.config import ConfigError, load
from controller.daemon.controller import Prepared
from controller.liveness import notices
from controller.liveness.params import LivenessConfigError, LivenessParams
from controller.p4gen import profile as prof
from controller.p4gen import render
from controller.schedule import round_robin
from controller.schedule.degrade import Failed
from controller.tables import liveness as lt

from daemon_fakes import make_backend_for, net_toml, ocs_switch, tor_switch


@pytest.fixture(scope="module")
def contract():
    return render.contract(prof.load("tiny"), "tor")


def test_expected_circuits_are_the_schedules():
    """Bit s * d + u for every (slice, uplink) on which the ToR has a peer: round robin 8 x 2
    leaves ToR 0 without a circuit on (3, 1)."""
    s = round_robin(8, 2)
    want = sum(1 << (x * 2 + u) for x in range(4) for u in range(2) if s.peer[x, 0, u] >= 0)
    assert lt.expected_circuits(s, 0) == want
    assert want == 0b01111111


def test_the_entry_carries_down_after_and_the_expected_circuits_or_turns_liveness_off(contract):
    s = round_robin(8, 2)
    e = lt.liveness_config_entry(contract, s, LivenessParams(enabled=True, down_after=4), 3)
    assert e.is_default and e.action.endswith("set_liveness")
    assert dict(e.params) == {"down_after": 4, "expect": lt.expected_circuits(s, 3), "notice_rate": 8, "notice_burst": 32,
                              "notice_refresh": 4}
    for off in (None, LivenessParams(enabled=False, down_after=4)):
        assert lt.liveness_config_entry(contract, s, off, 3).action.endswith("liveness_off")
    with pytest.raises(Exception, match="ToR 8 is not in profile 'tiny'"):
        lt.liveness_config_entry(contract, s, LivenessParams(True), 8)
    with pytest.raises(Exception, match="does not match profile"):
        lt.liveness_config_entry(contract, round_robin(10, 2), LivenessParams(True), 0)


@pytest.mark.parametrize("p,mode,every,msg", [
    (LivenessParams(True, 0), "sync", 1, "[liveness] down_after = 0: a window of 0 cycles (0 x 4 slices) is shorter "
                                         "than one schedule cycle (4 slices); at least 1"),
    (LivenessParams(True, -2), "sync", 1, "window of -2 cycles"),
    (LivenessParams(True, 256), "sync", 1, "the switches count at most 255 silent circuits"),
    (LivenessParams(True, True), "sync", 1, "down_after must be an integer"),
    (LivenessParams(True, 3), "timer", 1, "[clock] mode = 'timer' sends no beacon"),
    (LivenessParams(True, 3), "sync", 2, "[clock] exchange_every = 2 exchanges on an uplink once in 2 slices"),
    (LivenessParams(True, 3, notice_rate=256), "sync", 1, "[liveness] notice_rate = 256: notices per slice, an "
                                                           "integer from 0 to 255"),
    (LivenessParams(True, 3, notice_burst=-1), "sync", 1, "[liveness] notice_burst = -1"),
    (LivenessParams(True, 3, notice_rate=2, notice_burst=0), "sync", 1, "notice_burst = 0: with notice_rate = 2"),
    (LivenessParams(True, 3, notice_refresh=256), "sync", 1, "[liveness] notice_refresh = 256: schedule cycles between "
                                                             "two sends of a ToR's unchanged marks, an integer from 0"),
    (LivenessParams(True, 3, notice_refresh=-1), "sync", 1, "[liveness] notice_refresh = -1"),
    (LivenessParams(True, 3, notice_refresh=1.5), "sync", 1, "[liveness] notice_refresh = 1.5"),
])
def test_a_window_shorter_than_a_cycle_or_without_a_beacon_is_refused_with_the_numbers(p, mode, every, msg):
    problems = p.problems(mode, every, 4)
    assert any(msg in x for x in problems), problems
    with pytest.raises(LivenessConfigError):
        p.check(mode, every, 4)


def test_good_parameters_pass_and_disabled_ones_ask_nothing_of_the_clock():
    assert LivenessParams(True, 1).problems("sync", 1, 4) == []
    assert LivenessParams(True, 1, notice_rate=0, notice_burst=0).problems("sync", 1, 4) == []   # no notices
    assert LivenessParams(True, 1, notice_refresh=0).problems("sync", 1, 4) == []                 # no refresh
    assert LivenessParams(False, 3).problems("timer", 7, 4) == []


def test_the_contract_names_the_registers_counter_and_table(contract):
    lv = contract["liveness"]
    assert lv["counter"] == "liveness"
    assert contract["counters"]["liveness"]["indices"] == ["heard", "silent", "wrong_peer", "down", "up", "paused",
                                                           "unasked"]
    r = lv["registers"]
    assert (r["mask"]["name"], r["mask"]["bits"], r["mask"]["size"]) == ("UroIngress.live_mask", 8, 1)
    assert (r["miss"]["bits"], r["miss"]["size"]) == (8, 8)
    # per (slice, uplink): heard, stray, asked and the peer kept from the lookups; valid per slice
    assert [r[x]["size"] for x in ("heard", "stray", "asked", "peer", "valid")] == [8, 8, 8, 8, 4]
    assert "slice" not in r
    params = contract["tables"]["liveness_config"]["actions"]["set_liveness"]["params"]
    assert [(x["name"], x["bitwidth"]) for x in params] == [("down_after", 8), ("expect", 8), ("notice_rate", 8),
                                                            ("notice_burst", 8), ("notice_refresh", 8)]
    # notices: the map (a cell of d bits per (origin, slice)), the slots, the counter
    assert lv["notices"] == {"counter": "notices", "slots": 4}
    assert (r["note_map"]["bits"], r["note_map"]["size"]) == (2, 8 * 4)
    assert (r["note_q_sent"]["size"], r["note_q_origin"]["bits"]) == (4 * 2, 16)
    assert (r["note_refresh"]["bits"], r["note_refresh"]["size"]) == (32, 4)
    assert contract["counters"]["notices"]["indices"] == list(notices.TAKEN) + ["sent", "busy", "avoided", "refresh", "replaced"]
    assert (r["note_q_kind"]["bits"], r["note_q_kind"]["size"]) == (2, 4)
    t2 = render.render(prof.load("tiny"), "tor", "tofino2")[1]          # the marks, no notices
    assert "notices" not in t2["counters"] and "notices" not in t2["liveness"]


def _model(**kw) -> notices.Notices:
    return notices.Notices(8, 4, 2, 0, **kw)


def test_the_notice_codec_round_trips_and_names_its_fields():
    from controller.clock import message as m

    n = m.notice(5, 7, 2, 0b01, src_tor=3, dst_tor=0, uplink=1)
    back = m.decode_frame(m.encode_frame(n))
    assert back == n and back.op == m.Op.NOTICE and m.notice_fields(back) == (5, 7, 2, 0b01)
    with pytest.raises(m.MessageError, match="not a NOTICE"):
        m.notice_fields(m.probe())


@pytest.mark.parametrize("first", [1, 0x7FFFFFFF, 0x80000000, 0x80000005, 0xFFFFFFFF])
def test_the_first_notice_of_an_origin_and_slice_applies_whatever_its_sequence_number(first):
    """A ToR that has taken no notice of an (origin, slice) yet applies the first whatever
    its sequence number, those of half the 32-bit space too (sequence numbers are the
    fabric's slice number: from 2^31 on, a freshly started ToR would otherwise read every
    notice as older than none); after it, the same one or an older one is a duplicate."""
    n = _model()
    kw = dict(from_uplink=True, from_host=False, synced=True, src=3, dst=0, peer=3, origin=5, slice_id=1, down=1)
    assert n.receive(100, seq=first, **kw) == "applied"
    assert n.receive(100, seq=first, **kw) == "duplicate"
    assert n.receive(100, seq=(first - 1) & 0xFFFFFFFF or 0xFFFFFFFF, **kw) == "duplicate"
    assert n.last[5, 1] == first


def test_the_reference_applies_a_notice_once_per_origin_slice_and_sequence():
    """Newer sequence numbers of an (origin, slice) apply, a replay or an older one is a
    duplicate (32-bit wrap-aware), and another slice of the same origin has its own."""
    n = _model()
    kw = dict(from_uplink=True, from_host=False, synced=True, src=3, dst=0, peer=3, slice_id=1)
    got = [n.receive(100, origin=5, seq=s, down=1, **kw) for s in (2, 2, 1, 3)]
    assert got == ["applied", "duplicate", "duplicate", "applied"]
    assert n.receive(100, origin=5, seq=1, down=1, **{**kw, "slice_id": 2}) == "applied"
    assert n.receive(100, origin=0, seq=9, down=1, **kw) == "duplicate"          # its own, back
    assert notices.newer(1, 0xFFFFFFFF) and not notices.newer(0xFFFFFFFF, 1)
    assert n.dead(5, 1, 0) and not n.dead(5, 1, 1) and not n.dead(4, 1, 0)


@pytest.mark.parametrize("over,why", [
    (dict(src=4), "wrong_peer"), (dict(dst=1), "wrong_peer"), (dict(peer=None), "wrong_peer"),
    (dict(origin=8), "unknown"), (dict(slice_id=4), "unknown"), (dict(down=4), "unknown"), (dict(seq=0), "unknown"),
    (dict(synced=False), "off"), (dict(from_uplink=False, from_host=True), "from_host"),
])
def test_the_reference_drops_notices_by_reason_and_changes_nothing(over, why):
    n = _model()
    kw = dict(from_uplink=True, from_host=False, synced=True, src=3, dst=0, peer=3, origin=5, seq=1, slice_id=1,
              down=1) | over
    assert n.receive(100, **kw) == why
    assert n.map == {} and n.slots == [None] * notices.SLOTS


def test_the_reference_bounds_the_rate_and_sends_each_notice_once_per_uplink_and_slice_for_a_cycle():
    n = _model(rate=1, burst=2)
    kw = dict(from_uplink=True, from_host=False, synced=True, src=3, dst=0, peer=3, slice_id=1, down=1)
    assert [n.receive(100, origin=o, seq=1, **kw) for o in (1, 2, 3)] == ["applied", "applied", "flood"]
    assert n.receive(101, origin=3, seq=1, **kw) == "applied"
    assert n.trigger(101, 0, peer=None) is None                     # no circuit
    assert n.trigger(101, 0, peer=2) == (1, 1, 1, 1)
    assert n.trigger(101, 0, peer=2) == (2, 1, 1, 1)                 # the next slot
    assert n.trigger(101, 1, peer=4) == (1, 1, 1, 1)                 # each uplink its own
    assert n.trigger(100 + 4, 0, peer=5) == (3, 1, 1, 1)             # slots 0, 1 free from 104 (one cycle), 2 from 105
    assert n.trigger(100 + 4, 0, peer=5) is None
    n.marked(104, 2, 0b10)
    assert n.seq == 104 and n.dead(0, 2, 1) and n.trigger(104, 0, peer=5) == (0, 104, 2, 0b10)


def test_the_reference_lets_kept_notices_take_turns_when_one_trigger_a_slice_is_spare():
    """Three notices kept, one spare TRIGGER on uplink 0 in each slice of their cycle: each
    goes out in turn (never sent first, then the one sent longest ago; the lower slot of two
    alike), not the first slot every time; uplink 1 keeps its own turns; with TRIGGERs
    enough, every kept notice still goes out once per uplink and slice."""
    n = _model(refresh=0)
    kw = dict(from_uplink=True, from_host=False, synced=True, src=3, dst=0, peer=3, slice_id=1, down=1)
    assert [n.receive(100, origin=o, seq=1, **kw) for o in (4, 5, 6)] == ["applied"] * 3
    got = [n.trigger(k, 0, peer=2)[0] for k in (100, 101, 102, 103)]
    assert got == [4, 5, 6, 4]
    assert n.trigger(103, 1, peer=2)[0] == 4                         # uplink 1: none sent on it yet
    assert n.trigger(103, 1, peer=2)[0] == 5
    m = _model(refresh=0)
    assert [m.receive(100, origin=o, seq=1, **kw) for o in (4, 5, 6)] == ["applied"] * 3
    for k in (100, 101):
        assert sorted(m.trigger(k, 0, peer=2)[0] for _ in range(3)) == [4, 5, 6]
        assert m.trigger(k, 0, peer=2) is None
    # across the slice number's wrap: the one sent before the wrap is the one sent longest ago
    w = _model(refresh=0)
    top = notices.K_MOD - 2
    assert [w.receive(top, origin=o, seq=1, **kw) for o in (4, 5)] == ["applied"] * 2
    assert w.trigger(top + 1, 0, peer=2)[0] == 4
    assert w.trigger(0, 0, peer=2)[0] == 5                             # slice number 2^32 wraps to 0
    assert w.trigger(1, 0, peer=2)[0] == 4


def test_the_reference_sends_the_most_urgent_kept_notice_first_and_lets_it_take_a_less_urgent_slot():
    """Refreshes of slices 0-2 in slots 0-2 and another ToR's notice sent on in slot 3: every
    slot taken. This ToR's change takes the first refresh's slot (`replaced`), another ToR's
    notice the next refresh's; a refresh takes none (`busy`), nor does a change when every
    slot holds a change. A TRIGGER sends this ToR's change first, then the notices sent on
    (the lower slot of two never sent), then the refresh."""
    R, O, N = notices.REFRESH, notices.ON, notices.OWN
    n = _model(refresh=1)
    assert all(n.judged(k, k % 4, 0, changed=False) for k in (100, 101, 102))
    kw = dict(from_uplink=True, from_host=False, synced=True, src=3, dst=0, peer=3, seq=1, slice_id=1, down=1)
    assert n.receive(102, origin=5, **kw) == "applied"
    assert [s.kind for s in n.slots] == [R, R, R, O] and n.counts["replaced"] == 0
    n.marked(103, 3, 0b01)
    assert [(s.kind, s.origin, s.slice) for s in n.slots] == [(N, 0, 3), (R, 0, 1), (R, 0, 2), (O, 5, 1)]
    assert n.counts["replaced"] == 1 and n.counts["busy"] == 0
    assert n.receive(103, origin=6, **kw) == "applied"
    assert [(s.kind, s.origin) for s in n.slots] == [(N, 0), (O, 6), (R, 0), (O, 5)] and n.counts["replaced"] == 2
    assert [n.trigger(103, 0, peer=2)[:3] for _ in range(4)] == [(0, 103, 3), (6, 1, 1), (5, 1, 1), (0, 102, 2)]
    assert n.trigger(103, 0, peer=2) is None
    assert not n.judged(104, 0, 0, changed=False)                   # slice 0's refresh due: no slot less urgent
    assert n.counts["busy"] == 1 and n.counts["replaced"] == 2
    m = _model(refresh=0)
    for k in range(100, 104):
        m.marked(k, k % 4, 0b01)
    assert [s.kind for s in m.slots] == [N] * 4
    m.marked(103, 2, 0b00)
    assert m.counts["busy"] == 1 and m.counts["replaced"] == 0 and [s.seq for s in m.slots] == [100, 101, 102, 103]


def test_the_reference_refreshes_each_slice_every_period_and_leaves_the_last_slot_to_changes():
    """refresh 2: each slice's marks are kept to send at its first judgment and then every
    two cycles whether they changed or not; a refresh takes only the first SLOTS - 1 slots
    (`busy` else: it is tried again at the slice's next judgment), a change any."""
    n = _model(refresh=2)
    kept = [k for k in range(100, 100 + 4 * 4) if n.judged(k, k % 4, 0, changed=False)]
    # slices 0, 1, 2 at their first judgment; 3 finds the first three slots taken (103) and
    # gets one a cycle later (107); 0 and 1 two cycles after their first; 2 finds the three
    # taken (110) and gets one a cycle later; 3 two cycles after 107
    assert kept == [100, 101, 102, 107, 108, 109, 114, 115]
    assert n.counts["refresh"] == 8 and n.counts["busy"] == 2
    # a change is never held back by the refresh period: it takes the fourth slot
    m = _model(refresh=2)
    for k in (100, 101, 102):
        m.judged(k, k % 4, 0, changed=False)
    assert m.judged(103, 3, 0b01, changed=True) and m.slots[3].down == 0b01


def test_the_reference_origin_numbers_its_notices_by_the_slice_so_a_restart_still_counts():
    """A notice's sequence number is the slice number it was kept at (one more than the
    last when that is not newer): a restarted switch (its state from zero) numbers its
    notices after the ones it sent before, and a receiver takes them."""
    before = _model(refresh=0)
    before.marked(500, 1, 0b01)
    rx = notices.Notices(8, 4, 2, 3)
    kw = dict(from_uplink=True, from_host=False, synced=True, src=0, dst=3, peer=0, origin=0, slice_id=1)
    assert rx.receive(500, seq=before.seq, down=0b01, **kw) == "applied"
    after = _model(refresh=0)                                       # restarted
    after.marked(900, 1, 0)
    assert after.seq == 900 and rx.receive(900, seq=after.seq, down=0, **kw) == "applied" and not rx.dead(0, 1, 0)
    after.seq = 950                                                 # a clock stepped back: still newer
    after.marked(940, 1, 0b01)
    assert after.seq == 951


def test_the_reference_sends_on_only_notices_that_change_its_map():
    """A receiver that missed a heal catches up from the origin's refresh and sends that on
    (it changed its map); one that knew sends nothing (the refresh stops at the origin's
    circuits)."""
    kw = dict(from_uplink=True, from_host=False, synced=True, src=5, dst=0, peer=5, origin=5, slice_id=2)
    missed, knew = _model(), _model()
    for n in (missed, knew):
        assert n.receive(100, seq=100, down=0b01, **kw) == "applied"
    assert knew.receive(104, seq=104, down=0, **kw) == "applied"     # the heal: only `knew` got it
    for n in (missed, knew):
        n.slots = [None] * notices.SLOTS
        assert n.receive(112, seq=112, down=0, **kw) == "applied"   # the refresh
    assert not missed.dead(5, 2, 0) and missed.slots[0] is not None and missed.slots[0].seq == 112
    assert knew.slots == [None] * notices.SLOTS


def test_the_reference_avoids_a_path_over_a_circuit_either_end_said_is_dead():
    n = _model(map={(3, 2): 0b10})
    assert n.path_crosses_dead([(3, 0, 1), (6, 1, 2)])               # hop 1 leaves ToR 3 on uplink 1 in 2
    assert n.path_crosses_dead([(5, 1, 2), (3, 0, 0)]) is False
    assert _model(map={(6, 2): 0b10}).path_crosses_dead([(3, 0, 1), (6, 1, 2)])   # its far end said it


def test_the_reference_orders_numbers_by_half_the_32_bit_space():
    """A sequence number is newer than another 1 to 2^31 - 1 after it (the switch: ``seq -
    last`` of 0 or from 0x80000000 is a duplicate); a slice number has reached a mark 0 to
    2^31 - 1 after it. A notice 2^31 after the last of its (origin, slice) is a duplicate."""
    h = 1 << 31
    assert notices.newer(h - 1, 0) and not notices.newer(h, 0) and not notices.newer(h + 1, 0)
    assert not notices.newer(7, 7) and notices.newer(3, 0xFFFFFFFE)
    assert notices.reached(h - 1, 0) and not notices.reached(h, 0) and notices.reached(7, 7)
    assert not notices.reached(6, 7)
    n = _model()
    kw = dict(from_uplink=True, from_host=False, synced=True, src=3, dst=0, peer=3, origin=5, slice_id=1, down=1)
    assert [n.receive(100, seq=s, **kw) for s in (10, 10 + h, 9 + h)] == ["applied", "duplicate", "applied"]


def test_the_reference_takes_the_edges_of_its_fabric_and_counts_nothing_from_the_clock_channel():
    """Origin 0 and N - 1, slice 0 and S - 1, every uplink down and a first sequence number
    2^31 - 1 after none (0) are applied; a NOTICE from neither an uplink nor a host port (the clock channel's) is
    `malformed` and counted nowhere."""
    n = notices.Notices(8, 4, 2, 3)
    kw = dict(from_uplink=True, from_host=False, synced=True, src=5, dst=3, peer=5)
    for origin, seq, sl, down in ((0, 1, 0, 0b01), (7, 1, 3, 0b10), (6, 0x7FFFFFFF, 0, 0b11)):
        assert n.receive(100, origin=origin, seq=seq, slice_id=sl, down=down, **kw) == "applied"
    assert n.dead(0, 0, 0) and n.dead(7, 3, 1) and n.dead(6, 0, 0) and n.dead(6, 0, 1)
    before = dict(n.counts)
    assert n.receive(101, **{**kw, "from_uplink": False}, origin=1, seq=1, slice_id=1, down=1) == "malformed"
    assert n.counts == before and before["applied"] == 3


def test_the_reference_counts_every_notice_once_under_its_reason():
    """The `notices` counter's cells, as the switch counts them (bmv2_tests compare them)."""
    n = _model(rate=1, burst=3)
    kw = dict(from_uplink=True, from_host=False, synced=True, src=3, dst=0, peer=3, origin=5, slice_id=1)
    host = {**kw, "from_uplink": False, "from_host": True}
    got = [n.receive(100, seq=1, down=1, **host), n.receive(100, seq=1, down=1, **host),
           n.receive(100, seq=1, down=1, **kw), n.receive(100, seq=2, down=0, **kw),
           n.receive(100, seq=2, down=0, **kw), n.receive(100, seq=3, down=1, **kw)]
    assert got == ["from_host", "from_host", "applied", "applied", "duplicate", "flood"]
    assert [n.trigger(100, u, peer=3) for u in (0, 1)] == [(5, 1, 1, 1), (5, 1, 1, 1)]
    assert n.trigger(100, 0, peer=3) == (5, 2, 1, 0)
    n.map[3, 2] = 0b01
    assert n.path_crosses_dead([(3, 0, 2)]) and n.path_crosses_dead([(4, 1, 1), (3, 0, 2)])
    assert n.counts == {r: 0 for r in notices.TAKEN + notices.SENDING} | {
        "from_host": 2, "applied": 2, "duplicate": 1, "flood": 1, "sent": 3, "avoided": 2}


def test_the_reference_bucket_fills_by_the_rate_per_slice_and_a_flood_leaves_it_empty():
    """rate 3, burst 8: a full bucket takes 8 notices in a slice, then floods (each flood
    leaves it empty: the next in the slice floods too); two slices later it holds 6."""
    n = _model(rate=3, burst=8)
    kw = dict(from_uplink=True, from_host=False, synced=True, src=3, dst=0, peer=3, origin=5, slice_id=1, down=1)
    seqs = iter(range(1, 100))
    assert [n.receive(100, seq=next(seqs), **kw) for _ in range(10)] == ["applied"] * 8 + ["flood"] * 2
    assert [n.receive(102, seq=next(seqs), **kw) for _ in range(7)] == ["applied"] * 6 + ["flood"]
    assert [n.receive(103, seq=next(seqs), **kw) for _ in range(4)] == ["applied"] * 3 + ["flood"]


def test_the_reference_sends_on_nothing_from_a_first_notice_that_says_all_up():
    """The map starts with every circuit up (the switch's registers at zero): a first notice
    of an origin with nothing down is applied but tells this ToR nothing new, so it is not
    kept to send on; one with a circuit down is."""
    n = _model()
    kw = dict(from_uplink=True, from_host=False, synced=True, src=3, dst=0, peer=3, slice_id=1)
    assert n.receive(100, origin=5, seq=7, down=0, **kw) == "applied" and n.last[5, 1] == 7
    assert n.trigger(100, 0, peer=3) is None
    assert n.receive(100, origin=6, seq=7, down=0b10, **kw) == "applied"
    assert n.trigger(100, 0, peer=3) == (6, 7, 1, 0b10)


def test_the_reference_refresh_of_one_cycle_sends_a_slices_marks_every_cycle():
    for refresh, want in ((1, [100, 104, 108]), (2, [100, 108]), (0, [])):
        n = _model(refresh=refresh)
        assert [k for k in (100, 104, 108) if n.judged(k, 1, 0b01, changed=False)] == want, refresh


def test_the_reference_numbers_its_notices_by_the_slice_number_past_a_wrap():
    """The next notice takes the slice number when that is newer than the last (a first one
    at any slice number, 2^31 and past included), else one more than the last; never 0 (no
    notice: a receiver takes it as `unknown`), also where the count wraps. Its own cell of
    the map and of the last sequence numbers hold it (the switch's note_map, note_last)."""
    n = _model(refresh=0)
    n.marked(100, 1, 0b01)
    n.marked(104, 1, 0)
    assert n.seq == 104 and n.last[0, 1] == 104 and n.map[0, 1] == 0
    late = _model(refresh=0)
    late.marked((1 << 31) + 5, 2, 0b10)
    assert late.seq == (1 << 31) + 5 and late.last[0, 2] == late.seq
    zero = _model(refresh=0)
    zero.marked(0, 3, 0b01)
    assert zero.seq == 1 and zero.last[0, 3] == 1
    wrap = _model(refresh=0, seq=0xFFFFFFFF)
    wrap.marked(0, 3, 0b01)                                         # newer, but 0: the next, 1
    assert wrap.seq == 1
    back = _model(refresh=0, seq=0xFFFFFFFF)
    back.marked(0xFFFFFFF0, 3, 0b10)                                # not newer: one more wraps to 0, then 1
    assert back.seq == 1 and back.trigger(0xFFFFFFF0, 0, peer=3) == (0, 1, 3, 0b10)


def test_the_reference_avoids_a_path_whose_first_hop_this_tor_marked_itself():
    n = _model(refresh=0)
    n.marked(100, 1, 0b01)
    assert n.path_crosses_dead([(3, 0, 1)]) and not n.path_crosses_dead([(3, 1, 1)])
    assert n.counts["avoided"] == 1


def test_the_reference_lists_the_circuits_whose_other_end_marked_them():
    """(slice, uplink) of this ToR whose peer's last notice for that slice has that uplink
    down -- not where there is no circuit, nor where the circuit leads back to this ToR, nor
    a bit of another uplink or slice."""
    n = notices.Notices(8, 4, 2, 0, map={(3, 0): 0b01, (5, 3): 0b10, (6, 2): 0b11, (0, 1): 0b11, (7, 1): 0b10})
    peers = {(0, 0): 3, (0, 1): 3, (3, 1): 5, (3, 0): 5, (2, 0): None, (2, 1): 6, (1, 0): 0, (1, 1): 7}
    assert n.other_end_marks(lambda s, u: peers.get((s, u))) == {(0, 0), (3, 1), (2, 1), (1, 1)}
    assert n.other_end_marks(lambda s, u: None) == set()


def good(tmp_path, clock='slice_ms = 50\nmode = "sync"', liveness="enabled = true\ndown_after = 2"):
    return net_toml(tmp_path, [tor_switch(0), tor_switch(1), ocs_switch()], clock=clock,
                    extra=f"[liveness]\n{liveness}\n")


def test_the_daemon_writes_the_entry_with_the_clocks_static_entries(tmp_path):
    cfg = load(good(tmp_path))
    assert cfg.liveness == LivenessParams(True, 2)
    prep = Prepared(cfg, Failed(), make_backend_for({}))
    got = [e for e in prep.roles["tor1"].static().entries if e.table.endswith("liveness_config")]
    assert len(got) == 1 and dict(got[0].params)["down_after"] == 2
    off = load(good(tmp_path, liveness="enabled = false"))
    prep = Prepared(off, Failed(), make_backend_for({}))
    got = [e for e in prep.roles["tor0"].static().entries if e.table.endswith("liveness_config")]
    assert [e.action.split(".")[-1] for e in got] == ["liveness_off"]


@pytest.mark.parametrize("clock,liveness,msg", [
    ('slice_ms = 50\nmode = "sync"', "enabled = true\ndown_after = 0",
     "[liveness] down_after = 0: a window of 0 cycles (0 x 4 slices) is shorter than one schedule cycle (4 slices)"),
    ('slice_ms = 50\nmode = "timer"', "enabled = true", "[liveness] enabled needs the switches' own clock"),
    ('slice_ms = 50\nmode = "sync"\nexchange_every = 4', "enabled = true", "[clock] exchange_every = 4"),
])
def test_a_config_whose_window_is_shorter_than_a_cycle_is_refused(tmp_path, clock, liveness, msg):
    cfg = load(good(tmp_path, clock=clock, liveness=liveness))
    with pytest.raises(ConfigError) as e:
        Prepared(cfg, Failed(), make_backend_for({}))
    assert msg in str(e.value) and str(cfg.path) in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("liveness,msg", [
    ("enabled = 1", "[liveness]: enabled"),
    ("down_after = \"3\"", "[liveness]: down_after"),
    ("down_afer = 3", "down_afer"),
])
def test_bad_liveness_keys_are_named(tmp_path, liveness, msg):
    with pytest.raises(ConfigError) as e:
        load(good(tmp_path, liveness=liveness))
    assert msg in str(e.value), str(e.value)


# ---- what the marks say failed (controller.liveness.marks, controller.daemon.liveness) -------------
from controller.daemon.liveness import CONFIRM_READS, LivenessWatch    # noqa: E402
from controller.liveness.marks import Verdict, circuits_of, classify   # noqa: E402
from controller.schedule.generate import opera  # noqa: E402
from controller.schedule.model import Schedule  # noqa: E402


def marks_of(sched, failed: Failed, tors=None) -> dict:
    """Each live ToR's marks when ``failed`` happened and down_after passed: every circuit
    whose far end is dead or whose cable (either end) is cut."""
    peer = sched.peer
    S, N, d = peer.shape
    out = {}
    for t in (range(N) if tors is None else tors):
        if t in failed.tors:
            continue
        out[t] = frozenset((s, u) for s in range(S) for u in range(d)
                           if peer[s, t, u] >= 0 and (peer[s, t, u] in failed.tors or (t, u) in failed.uplinks
                                                      or (int(peer[s, t, u]), u) in failed.uplinks))
    return out


def test_circuits_of_reads_bit_s_d_plus_u():
    assert circuits_of(0b1001_0010, 2) == {(0, 1), (2, 0), (3, 1)}
    assert circuits_of(0, 6) == frozenset()


@pytest.mark.parametrize("failed", [
    Failed(tors=frozenset({3})),
    Failed(uplinks=frozenset({(2, 1)})),
    Failed(tors=frozenset({0, 5})),
    Failed(tors=frozenset({4}), uplinks=frozenset({(1, 0)})),
    Failed(tors=frozenset({7, 2, 4, 6})),      # every peer of ToR 0's uplink 0 (round robin): not a cable
    Failed(),
])
@pytest.mark.parametrize("kind", ["round-robin", "opera"])
def test_the_marks_name_what_the_daemon_would_have_failed(failed, kind):
    """A dead ToR's neighbours and a cut cable's two ends mark their circuits: read back,
    the marks are the same failure the daemon's own detections declare (round robin and
    Opera schedules), with no circuit left unexplained."""
    sched = round_robin(8, 2) if kind == "round-robin" else opera(12, 3, seed=1)
    v = classify(sched, marks_of(sched, failed))
    assert (v.failed.tors, v.failed.uplinks) == (failed.tors, failed.uplinks)
    assert v.circuits == frozenset()


def test_circuits_marked_in_some_slices_only_are_circuits_not_a_cable_or_tor():
    """A dead OCS port in some slices: ToR 2 misses its peer on uplink 0 in slice 1 only
    (and that peer misses it): reported as those two circuits, nothing failed."""
    sched = round_robin(8, 2)
    p = int(sched.peer[1, 2, 0])
    marks = {t: frozenset() for t in range(8)}
    marks[2] = frozenset({(1, 0)})
    marks[p] = frozenset({(1, 0)})
    v = classify(sched, marks)
    assert v.failed.empty and v.circuits == {(1, 2, 0), (1, p, 0)}


def test_the_watch_declares_once_leaves_others_failures_alone_and_recovers_what_it_declared():
    """CONFIRM_READS in a row, without flap damping (a mark that comes back is a flap:
    tests/test_liveness_damping.py)."""
    from controller.liveness.damping import DampingParams

    sched = round_robin(8, 2)
    w = LivenessWatch(sched, damping=DampingParams(enabled=False))
    dead = Failed(tors=frozenset({3}))
    regs = {t: {"live_mask": sum(1 << (s * 2 + u) for s, u in m), "live_wrong": 0}
            for t, m in marks_of(sched, dead).items()}
    assert CONFIRM_READS == 3
    for _ in range(CONFIRM_READS - 1):
        w.read(regs)
        assert w.changes(Failed()) == []                              # a loaded switch, maybe
    w.read({t: {"live_mask": 0, "live_wrong": 0} for t in range(8)})
    for _ in range(CONFIRM_READS - 1):
        w.read(regs)
        assert w.changes(Failed()) == []                              # not CONFIRM_READS in a row
    w.read(regs)
    ch = w.changes(Failed())
    assert [(c.op, c.kind, c.target, c.source) for c in ch] == [("fail", "tor", 3, "liveness")]
    assert w.changes(dead) == []                                      # declared: nothing more
    assert w.status()["declared"] == [["tor", 3]]
    healthy = {t: {"live_mask": 0, "live_wrong": 0} for t in range(8)}
    w.read(healthy)
    assert [(c.op, c.kind, c.target) for c in w.changes(dead)] == [("recover", "tor", 3)]
    # a cable the netlink watcher declared: the marks agree, the watch declares nothing
    cut = Failed(uplinks=frozenset({(2, 1)}))
    for _ in range(CONFIRM_READS):
        w.read({t: {"live_mask": sum(1 << (s * 2 + u) for s, u in m)} for t, m in marks_of(sched, cut).items()})
    assert w.changes(cut) == [] and w.agrees == [["uplink", [2, 1]]]
    w.read(healthy)
    assert w.changes(cut) == []                                       # not its to recover


TOR0, TOR1 = "127.0.0.1:50000", "127.0.0.1:50001"


@contextlib.contextmanager
def liveness_daemon(tmp_path):
    """A daemon with liveness on over fake switches tor0, tor1 and the OCS (the others of
    the 8 ToRs unreachable), its clocks read once (seeded): (controller, switches by
    address, its clock). Shut down on the way out."""
    from controller.daemon.controller import Controller
    from daemon_fakes import FakeSwitch
    from test_daemon_clock import Clock, keeping_clock, recorder

    sws = {TOR0: FakeSwitch("tor0"), TOR1: FakeSwitch("tor1"), "127.0.0.1:50100": FakeSwitch("ocs")}
    p = good(tmp_path)
    keeping_clock(tmp_path)
    clock = Clock()
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=recorder(), clock=clock)
    ctl.start()
    try:
        ctl.watch_clocks()                    # seeded
        yield ctl, sws, clock
    finally:
        ctl.shutdown()


def report(ctl, sws, clock, masks: dict[str, int]) -> None:
    """The switches at ``masks``' addresses report these ``live_mask`` values, synchronized
    (stratum 2); the daemon reads its clocks a second later and handles what that starts."""
    for addr, m in masks.items():
        sws[addr].stratum = 2
        sws[addr].clock_registers = {"live_mask": m, "live_wrong": 0}
    clock.t += 1.1
    ctl.watch_clocks()
    ctl.handle_jobs()


def test_the_daemon_declares_what_the_marks_show_and_recovers_it_when_they_clear(tmp_path):
    """tor0 and tor1 (of 8) report marks on every circuit they have into ToR 3: read with
    their clocks, the daemon declares ToR 3 failed (source liveness: its neighbours' dead
    masks, a new generation), shows the marks in the status API and /metrics, and recovers
    it once the marks clear."""
    sched = round_robin(8, 2)
    into3 = {t: sum(1 << (s * 2 + u) for s in range(4) for u in range(2) if sched.peer[s, t, u] == 3)
             for t in (0, 1)}
    assert all(into3.values())
    with liveness_daemon(tmp_path) as (ctl, sws, clock):
        for _ in range(CONFIRM_READS - 1):
            report(ctl, sws, clock, {TOR0: into3[0], TOR1: into3[1]})
            assert ctl.failed.tors == frozenset()    # not yet (CONFIRM_READS)
        report(ctl, sws, clock, {TOR0: into3[0], TOR1: into3[1]})
        assert ctl.failed.tors == frozenset({3})
        rep = ctl.status()["failures"]["events"][-1]
        assert (rep["op"], rep["kind"], rep["target"], rep["source"]) == ("fail", "tor", 3, "liveness")
        lv = ctl.status()["liveness"]
        assert lv["verdict"]["tors"] == [3] and lv["declared"] == [["tor", 3]]
        assert lv["marks"]["0"] == [[s, u] for s in range(4) for u in range(2) if sched.peer[s, 0, u] == 3]
        text = ctl.metrics.render().decode()
        assert 'uro_liveness_marked_circuits{switch="tor0"} 1.0' in text
        assert 'uro_failures_total{kind="tor",source="liveness"} 1.0' in text
        report(ctl, sws, clock, {TOR0: 0, TOR1: 0})
        assert ctl.failed.tors == frozenset()
        assert ctl.status()["failures"]["events"][-1]["op"] == "recover"


def test_the_watch_declares_circuits_marked_in_some_slices_once_by_one_name_and_recovers_them():
    """An OCS port dead in slice 1 only: both ends of ToR 2's uplink-0 circuit mark it; the
    watch declares one failed circuit (named by its lower end), nothing more while it is
    declared, and its recovery once the marks clear. A circuit a failed cable or ToR
    carries already is not declared again."""
    sched = round_robin(8, 2)
    p = int(sched.peer[1, 2, 0])
    w = LivenessWatch(sched)
    bit = 1 << (1 * 2 + 0)
    for _ in range(CONFIRM_READS):
        w.read({t: {"live_mask": bit if t in (2, p) else 0, "live_wrong": 0} for t in range(8)})
    ch = w.changes(Failed())
    key = (1, min(2, p), 0)
    assert [(c.op, c.kind, c.target, c.source) for c in ch] == [("fail", "circuit", key, "liveness")]
    failed = Failed(circuits=frozenset({key}))
    assert w.changes(failed) == []
    assert w.status()["declared"] == [["circuit", list(key)]]
    w.read({t: {"live_mask": 0, "live_wrong": 0} for t in range(8)})
    assert [(c.op, c.kind, c.target) for c in w.changes(failed)] == [("recover", "circuit", key)]
    # one end only marks it (the other end's clock read is stale): still that circuit
    w2 = LivenessWatch(sched, confirm=1)
    w2.read({2: {"live_mask": bit}})
    assert [(c.kind, c.target) for c in w2.changes(Failed())] == [("circuit", key)]
    # carried by a ToR declared failed meanwhile: nothing to declare
    w3 = LivenessWatch(sched, confirm=1)
    w3.read({2: {"live_mask": bit}})
    assert w3.changes(Failed(tors=frozenset({p}))) == []


def test_the_daemon_removes_just_the_marked_circuits_from_its_new_generation(tmp_path):
    """tor0 and its peer mark their uplink-0 circuit in slice 1 only: the daemon declares that
    circuit failed (source liveness), both ends' dead masks get (1, 0), and the new
    generation is computed on the schedule without just that circuit; once the marks clear
    it is recovered."""
    from controller.schedule.degrade import dead_circuits

    sched = round_robin(8, 2)
    peer0 = int(sched.peer[1, 0, 0])
    with liveness_daemon(tmp_path) as (ctl, sws, clock):
        for _ in range(CONFIRM_READS):
            report(ctl, sws, clock, {TOR0: 1 << 2, TOR1: 0})      # (tor1 synchronized: not out of routes)
        assert ctl.failed.circuits == frozenset({(1, 0, 0)}) and not ctl.failed.tors and not ctl.failed.uplinks
        rep = ctl.status()["failures"]["events"][-1]
        assert (rep["op"], rep["kind"], rep["target"], rep["source"]) == ("fail", "circuit", [1, 0, 0], "liveness")
        dead = dead_circuits(ctl.routes.schedule, ctl.routes.failed)
        assert dead[1, 0, 0] and dead[1, peer0, 0] and dead.sum() == 2
        assert ctl.status()["failures"]["active"]["circuits"] == [[1, 0, 0]]
        assert ctl.agents["tor0"].dead == {(1, 0)}
        assert 'uro_failures_total{kind="circuit",source="liveness"} 1.0' in ctl.metrics.render().decode()
        report(ctl, sws, clock, {TOR0: 0})
        assert ctl.failed.circuits == frozenset()
        assert ctl.status()["failures"]["events"][-1]["op"] == "recover"


def test_one_tors_silent_circuit_into_a_tor_is_a_circuit_not_a_dead_tor():
    """Only ToR 2 reports (the others' reads are stale), and it marks its one circuit into
    ToR 0: that says no more than the circuit (two witnesses make a dead ToR)."""
    sched = round_robin(8, 2)
    assert int(sched.peer[1, 2, 0]) == 0
    v = classify(sched, {2: frozenset({(1, 0)})})
    assert v.failed.empty and v.circuits == {(1, 2, 0)}
    both = marks_of(sched, Failed(tors=frozenset({0})), tors=[2, 3])
    assert classify(sched, both).failed.tors == {0}


def _wrong_id_marks(sched, x: int):
    """Every live ToR's marks and wrong-peer bits when ToR ``x`` answers under another id
    (``uro emulate fail id``): each circuit into ``x`` silent for its schedule's peer, and
    another synchronized ToR heard on it."""
    marks = marks_of(sched, Failed(tors=frozenset({x})))
    return marks, {t: m for t, m in marks.items()}


@pytest.mark.parametrize("kind", ["round-robin", "opera"])
def test_a_tor_answering_under_another_id_is_misconfigured_not_dead(kind):
    """The dead-ToR pattern with another ToR heard on the circuits into X (live_wrong) is
    a misconfigured ToR, not a dead one (X sends, under a name the schedule does not give
    its port); without the wrong-peer bits it stays a dead ToR; one witness's wrong-peer
    bits among several are not enough (as one ToR's silence does not make a dead ToR)."""
    sched = round_robin(8, 2) if kind == "round-robin" else opera(12, 3, seed=1)
    marks, wrong = _wrong_id_marks(sched, 6)
    v = classify(sched, marks, wrong)
    assert v.misconfigured == {6} and v.failed.tors == frozenset() and v.failed.empty
    assert v.circuits == frozenset()                          # explained by the misconfigured ToR
    assert v.as_dict()["misconfigured"] == [6]
    assert classify(sched, marks).failed.tors == {6}          # silence alone: dead
    one = next(t for t, m in wrong.items() if m)
    v1 = classify(sched, marks, {one: wrong[one]})
    assert v1.failed.tors == {6} and v1.misconfigured == frozenset()


def test_a_cable_is_every_circuit_of_the_uplink_including_the_one_into_tor_0():
    """ToR 2's uplink 0 meets ToR 0 in slice 1 (round robin 8 x 2): all its circuits marked
    (both ends) are the cut cable; the same marks but for that circuit are circuits, not a
    cable (ToR 2 still hears ToR 0 on it)."""
    sched = round_robin(8, 2)
    assert int(sched.peer[1, 2, 0]) == 0
    cut = marks_of(sched, Failed(uplinks=frozenset({(2, 0)})))
    v = classify(sched, cut)
    assert v.failed.uplinks == {(2, 0)} and not v.failed.tors and v.circuits == frozenset()
    heard = dict(cut) | {2: cut[2] - {(1, 0)}, 0: cut[0] - {(1, 0)}}
    v = classify(sched, heard)
    ends = {(s, int(sched.peer[s, 2, 0]), 0) for s in (0, 2, 3)}
    assert v.failed.empty and v.circuits == {(s, 2, 0) for s in (0, 2, 3)} | ends


def test_a_tor_with_one_neighbour_is_dead_by_its_one_neighbours_marks():
    """A degraded schedule where ToR 3 meets only ToR 2 (slice 0) and ToR 2 meets all three:
    ToR 2's mark of its circuit into ToR 3 is a dead ToR 3 (its one neighbour is all the
    witnesses it can have); ToR 0's mark of its one circuit into ToR 2 is that circuit (ToR 2
    has three neighbours: two witnesses make it dead)."""
    peer = np.full((3, 4, 1), -1)
    for s, a, b in ((0, 0, 1), (0, 2, 3), (1, 0, 2), (2, 1, 2)):
        peer[s, a, 0], peer[s, b, 0] = b, a
    sched = Schedule(peer, complete=False)
    v = classify(sched, {0: frozenset(), 1: frozenset(), 2: frozenset({(0, 0)})})
    assert v.failed.tors == {3} and not v.failed.uplinks and v.circuits == frozenset()
    v = classify(sched, {0: frozenset({(1, 0)}), 1: frozenset(), 3: frozenset()})
    assert v.failed.empty and v.circuits == {(1, 0, 0)}


def test_two_witnesses_hearing_another_tor_answer_make_it_misconfigured():
    """As two ToRs' silence makes a dead ToR, two that heard another ToR answer on their
    circuits into it make it misconfigured (one is not enough)."""
    sched = round_robin(8, 2)
    marks, wrong = _wrong_id_marks(sched, 6)
    two = sorted(t for t, m in wrong.items() if m)[:2]
    v = classify(sched, marks, {t: wrong[t] for t in two})
    assert v.misconfigured == {6} and v.failed.empty and v.circuits == frozenset()
    assert v.wrong == {(s, t, u) for t in two for s, u in wrong[t]}


def test_the_verdict_reads_as_the_status_and_log_show_it():
    """Verdict.as_dict: the failed set's fields, then the misconfigured ToRs, the circuits
    no failure explains and those a wrong peer was heard on, each sorted."""
    v = Verdict(Failed(uplinks=frozenset({(2, 1), (0, 0)}), tors=frozenset({5, 3})),
                circuits=frozenset({(1, 4, 0), (0, 2, 1)}), wrong=frozenset({(3, 5, 1), (0, 1, 0)}),
                misconfigured=frozenset({7, 6}))
    assert v.as_dict() == {"uplinks": [[0, 0], [2, 1]], "tors": [3, 5], "ocs": [], "misconfigured": [6, 7],
                           "circuits": [[0, 2, 1], [1, 4, 0]], "wrong_peer": [[0, 1, 0], [3, 5, 1]]}
    assert Verdict().as_dict() == {"uplinks": [], "tors": [], "ocs": [], "misconfigured": [], "circuits": [],
                                   "wrong_peer": []}


def test_the_watch_declares_a_misconfigured_tor_routes_around_it_as_failed_and_recovers_it():
    """Declared with kind ``misconfigured`` (CONFIRM_READS in a row), which the failed set holds
    as a failed ToR (its neighbours' dead masks, a new generation without it); nothing
    more while it is failed, and its recovery once the marks clear. A ToR another
    detection declared failed is only agreed with."""
    from controller.daemon.changes import apply_change

    sched = round_robin(8, 2)
    marks, wrong = _wrong_id_marks(sched, 6)
    bits = lambda cs: sum(1 << (s * 2 + u) for s, u in cs)          # noqa: E731
    regs = {t: {"live_mask": bits(m), "live_wrong": bits(wrong[t])} for t, m in marks.items()}
    w = LivenessWatch(sched)
    for _ in range(CONFIRM_READS - 1):
        w.read(regs)
        assert w.changes(Failed()) == []
    w.read(regs)
    ch = w.changes(Failed())
    assert [(c.op, c.kind, c.target, c.source) for c in ch] == [("fail", "misconfigured", 6, "liveness")]
    failed = apply_change(Failed(), ch[0])
    assert failed.tors == {6}
    w.read(regs)
    assert w.changes(failed) == [] and w.status()["declared"] == [["misconfigured", 6]]
    assert w.status()["verdict"]["misconfigured"] == [6]
    w.read({t: {"live_mask": 0, "live_wrong": 0} for t in range(8)})
    rec = w.changes(failed)
    assert [(c.op, c.kind, c.target) for c in rec] == [("recover", "misconfigured", 6)]
    assert apply_change(failed, rec[0]).tors == frozenset()
    other = LivenessWatch(sched, confirm=1)
    other.read(regs)
    assert other.changes(Failed(tors=frozenset({6}))) == [] and other.agrees == [["misconfigured", 6]]
