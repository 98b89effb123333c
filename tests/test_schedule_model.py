"""The schedule model's contract to the letter: every message of a refused schedule,
timing or offset list as a user reads it, the limits exactly at their edges, the peer
table as stored (int32, read-only), equality, the uplink lookup, the content hash that
route artifacts record (pinned: a change of it orphans every artifact written before), and
the sub-slices of staggered offsets. Each assertion kills mutants of
controller/schedule/model.py that tests/test_schedule.py let through (`uro bench --suite
mutation --module schedule.model`, docs/mutation.md)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.errors import ScheduleError
from controller.schedule import IDLE, Schedule, Timing, round_robin
from controller.schedule.model import MAX_SUBSLICES, content_hash, expand_offsets


def _peer(slices):
    return np.array(slices, dtype=np.int32)[:, :, None]


def _refused(peer, **kw) -> str:
    with pytest.raises(ScheduleError) as e:
        Schedule(peer, **kw)
    return str(e.value)


# ---- timing ---------------------------------------------------------------------------

def test_timing_edges():
    assert Timing(guard_us=0, propagation_us=0).problems() == []
    assert Timing(mtu_bytes=1).problems() == []
    assert Timing(guard_us=2.0, slice_us=2.0).problems() == [
        "timing.guard_us (2.0) must be shorter than timing.slice_us (2.0)"]
    assert Timing(mtu_bytes=0).problems() == ["timing.mtu_bytes must be a positive integer, got 0"]
    assert Timing(mtu_bytes=1500.0).problems() == ["timing.mtu_bytes must be a positive integer, got 1500.0"]
    assert Timing(propagation_us=-1, link_gbps=float("nan")).problems() == [
        "timing.link_gbps must be a positive number, got nan",
        "timing.propagation_us must be a non-negative number, got -1"]
    # a bad value is reported alone: the guard is not compared with a slice that is not a number
    assert Timing(slice_us="2", guard_us=5).problems() == ["timing.slice_us must be a positive number, got '2'"]


# ---- the peer table -----------------------------------------------------------------------

def test_peer_table_shape_and_type_messages():
    assert _refused(np.zeros((2, 3), dtype=np.int32)) == \
        "peer table must have shape (slices, tors, uplinks), got (2, 3)"
    assert _refused(np.zeros((1, 2, 1), dtype=float)) == "peer table must hold integer ToR ids"


def test_peer_table_is_stored_as_read_only_int32():
    s = round_robin(4, 1)
    t = Schedule(s.peer.astype(np.int64), name=s.name)
    assert t.peer.dtype == np.int32 and t.peer.flags.c_contiguous and not t.peer.flags.writeable
    assert t == s
    with pytest.raises(ValueError):
        t.peer[0, 0, 0] = 1


def test_equality_needs_peer_timing_and_name():
    s = round_robin(4, 1)
    assert s == Schedule(s.peer, s.timing, s.name)
    assert s != Schedule(s.peer[::-1].copy(), s.timing, s.name)
    assert s != Schedule(s.peer, Timing(slice_us=3.0), s.name)
    assert s != Schedule(s.peer, s.timing, "other")
    assert s != s.peer


def test_uplink_to_and_meets():
    # 4 ToRs, 2 uplinks; slice 0: 0-1 on uplink 1, 2-3 on uplink 0; slice 1: 0-2 on uplink 0, 1-3 on uplink 1
    peer = np.array([[[IDLE, 1], [IDLE, 0], [3, IDLE], [2, IDLE]],
                     [[2, IDLE], [IDLE, 3], [0, IDLE], [IDLE, 1]],
                     [[3, IDLE], [IDLE, 2], [IDLE, 1], [0, IDLE]]], dtype=np.int32)
    s = Schedule(peer)
    assert s.uplink_to(0, 0, 1) == 1 and s.uplink_to(0, 2, 3) == 0
    assert s.uplink_to(4, 1, 3) == 1                      # slice 4 of the cycle is slice 1
    assert s.uplink_to(0, 0, 2) == -1
    m = s.meets()
    assert m.dtype == bool and m.shape == (3, 4, 4)
    assert m[0, 0, 1] and m[0, 1, 0] and not m[0, 0, 2] and m.sum() == 12


def test_content_hash_is_pinned_and_covers_circuits_and_timing_not_the_name():
    s = round_robin(4, 1)
    h = "sha256:6504ddad955f93fd4909efe0b24f669dc64b06f1763644c822ebdfac75898c4e"
    assert s.content_hash() == h == content_hash(s.peer, s.timing)
    assert Schedule(s.peer, name="other").content_hash() == h
    assert Schedule(s.peer, Timing(guard_us=0.02)).content_hash() != h
    assert Schedule(s.peer[[1, 2, 0]].copy()).content_hash() != h
    # the circuits' values, not how an array holds them
    assert content_hash(s.peer.astype(np.int64), s.timing) == h
    assert content_hash(s.peer.astype(">i4"), s.timing) == h


def test_describe():
    assert round_robin(4, 1).describe() == (
        "round-robin-4x1: 4 ToRs x 1 uplinks, 3 slices/cycle, slice 2 us (guard 0.01 us), 100 Gbps, "
        "hop 0.620 us -> h_slice 3")


# ---- validate ---------------------------------------------------------------------------------

def test_too_small_a_schedule():
    assert _refused(np.zeros((1, 1, 1), dtype=np.int32)) == \
        "a schedule needs >= 1 slice, >= 2 ToRs and >= 1 uplink, got S=1, N=1, d=1"
    assert _refused(np.zeros((0, 2, 1), dtype=np.int32)).startswith("a schedule needs")
    assert _refused(np.zeros((1, 2, 0), dtype=np.int32)).startswith("a schedule needs")
    Schedule(_peer([[1, 0]]))                                 # the smallest: 1 slice, 2 ToRs, 1 uplink


def test_peer_ids_at_the_edges_of_their_range():
    assert _refused(_peer([[2, 0]])) == \
        "slice 0, ToR 0, uplink 0: peer 2 is out of range 0..1; 1 peer id(s) out of range"
    assert _refused(_peer([[-2, IDLE]])) == \
        "slice 0, ToR 0, uplink 0: peer -2 is out of range 0..1; 1 peer id(s) out of range"
    # out of range and a bad timing: both named, the timing first
    assert _refused(_peer([[1, 5]]), timing=Timing(slice_us=0)) == (
        "timing.slice_us must be a positive number, got 0; "
        "slice 0, ToR 1, uplink 0: peer 5 is out of range 0..1; 1 peer id(s) out of range")


def test_many_problems_are_cut_to_a_few_with_a_count():
    n = 12
    text = _refused(np.full((1, n, 1), n, dtype=np.int32))
    assert text.count("is out of range") == 8
    assert text.endswith("; ... and 1 more")           # 8 named, the 9th: the count line
    assert "12 peer id(s) out of range" not in text


def test_self_peer_message():
    assert _refused(_peer([[0, IDLE, IDLE]])) == \
        "slice 0, ToR 0, uplink 0: a ToR cannot be its own peer (use idle)"


def test_claim_and_symmetry_messages():
    assert _refused(_peer([[1, 0, 1], [2, IDLE, 0], [IDLE, 2, 1]])) == (
        "slice 0: ToRs [0, 2] all claim uplink 0 of ToR 1; "
        "slice 0, uplink 0: ToR 2 -> ToR 1 is not symmetric (ToR 1 uplink 0 -> 0)")
    assert _refused(_peer([[1, IDLE, IDLE], [2, IDLE, 0], [IDLE, 2, 1]])) == \
        "slice 0, uplink 0: ToR 0 -> ToR 1 is not symmetric (ToR 1 uplink 0 -> idle)"
    # ToR 0 as the peer claimed twice / the far end of a one-way circuit
    assert _refused(_peer([[IDLE, 0, 0], [2, IDLE, 0], [1, 0, IDLE]])) == (
        "slice 0: ToRs [1, 2] all claim uplink 0 of ToR 0; "
        "slice 0, uplink 0: ToR 1 -> ToR 0 is not symmetric (ToR 0 uplink 0 -> idle); "
        "slice 0, uplink 0: ToR 2 -> ToR 0 is not symmetric (ToR 0 uplink 0 -> idle)")


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 3), st.integers(2, 6), st.integers(1, 3), st.data())
def test_a_table_is_refused_for_claims_or_symmetry_exactly_when_some_circuit_is_one_way(S, N, d, data):
    """The whole-array check that lets a valid table skip the per-(slice, uplink) loop: a
    table (ids in range, no ToR its own peer) is refused for a claim or an asymmetry iff
    some circuit a -> b has no b -> a on its uplink, checked circuit by circuit here."""
    cells = data.draw(st.lists(st.integers(IDLE, N - 1), min_size=S * N * d, max_size=S * N * d))
    peer = np.array(cells, dtype=np.int32).reshape(S, N, d)
    peer[peer == np.arange(N)[None, :, None]] = IDLE
    one_way = any(peer[s, a, u] >= 0 and peer[s, peer[s, a, u], u] != a
                  for s in range(S) for a in range(N) for u in range(d))
    try:
        Schedule(peer, complete=False)
        refused = ""
    except ScheduleError as e:
        refused = str(e)
    assert ("not symmetric" in refused) == one_way, (peer.tolist(), refused)


def test_a_flood_of_problems_stops_after_the_first_slice_and_uplink_past_32():
    """Problems are counted slice by slice and uplink by uplink; the check stops after the
    first (slice, uplink) that takes the count past 4 x 8 = 32 (8 named, the rest counted)."""
    n = 32
    many = np.full(n, 0)                     # 31 ToRs on ToR 0, which is idle: 1 claim + 31 one-way = 32
    many[0] = IDLE
    one = np.full(n, IDLE)                   # ToR 1 -> ToR 2, which is idle: 1 problem
    one[1] = 2
    peer = np.stack([many, one, many])[:, :, None].astype(np.int32)
    text = _refused(peer)
    assert text.startswith("slice 0: ToRs [1, 2, 3") and text.endswith("; ... and 25 more")   # 33 problems


def test_a_flood_of_problems_in_one_slice():
    col = np.full(41, 40)
    col[40] = IDLE
    text = _refused(np.stack([col, col])[:, :, None].astype(np.int32))
    assert text.startswith("slice 0: ToRs [0, 1, 2") and text.endswith("; ... and 33 more")   # 1 + 40


def test_missing_pairs_message_and_the_degraded_schedule():
    assert _refused(_peer([[1, 0, IDLE], [IDLE, 2, 1]])) == (
        "1 ToR pair(s) never share a circuit in the cycle (URO needs every pair to meet once per cycle): (0,2)")
    text = _refused(np.full((1, 6, 1), IDLE, dtype=np.int32))
    assert text.startswith("15 ToR pair(s) never share") and text.endswith(
        "(0,1), (0,2), (0,3), (0,4), (0,5), (1,2), (1,3), (1,4) ...")
    assert _refused(_peer([[1, 0, IDLE, IDLE]])).endswith("(0,2), (0,3), (1,2), (1,3), (2,3)")
    # exactly 8 missing pairs: all named, nothing left out
    assert _refused(_peer([[1, 0, 3, 2, IDLE]])).endswith("(0,2), (0,3), (0,4), (1,2), (1,3), (1,4), (2,4), (3,4)")
    Schedule(np.full((1, 6, 1), IDLE, dtype=np.int32), complete=False)


# ---- offsets -----------------------------------------------------------------------------------

def _offsets_refused(offsets, timing=Timing(), d=2) -> str:
    peer = round_robin(8, d).peer
    with pytest.raises(ScheduleError) as e:
        expand_offsets(peer, offsets, timing)
    return str(e.value)


def test_offsets_messages():
    assert _offsets_refused([0.0]) == "uplink_offsets must list 2 values (one per uplink), got 1"
    for bad in (1.0, -0.25, float("inf"), True, "0.5", None):
        assert _offsets_refused([0.0, bad]) == f"uplink_offsets[1] must be a fraction of a slice in [0, 1), got {bad!r}"
    assert _offsets_refused([0.0, 0.013]) == (
        f"uplink_offsets[1] = 0.013 is not a multiple of 1/m for any m <= {MAX_SUBSLICES} sub-slices per slice")
    assert _offsets_refused([1 / 63, 1 / 64]) == \
        f"uplink_offsets {[1 / 63, 1 / 64]} need 4032 sub-slices per slice (at most {MAX_SUBSLICES})"
    assert _offsets_refused([0.0, 0.5], Timing(slice_us=2.0, guard_us=1.0)) == (
        "uplink_offsets cut each 2 us slice into 2 sub-slices of 1 us, not longer than the 1 us guard")


def test_offsets_edges_and_the_sub_slices():
    peer = round_robin(8, 2).peer
    t = Timing()
    same, t1, m = expand_offsets(peer, [0, 0.0], t)
    assert same is peer and t1 is t and m == 1
    out, t64, m = expand_offsets(peer, [0.0, 1 / 64], t)             # exactly MAX_SUBSLICES
    assert m == 64 and out.shape == (64 * peer.shape[0], 8, 2) and out.dtype == np.int32
    assert t64 == Timing(slice_us=2.0 / 64)
    S = peer.shape[0]
    out, t3, m = expand_offsets(peer, [1 / 3, 2 / 3], t)
    assert m == 3 and t3.slice_us == pytest.approx(2.0 / 3) and t3.guard_us == t.guard_us
    for s in range(S):
        for j in range(3):
            for u, o in enumerate((1, 2)):
                src = s if o <= j else (s - 1) % S
                assert (out[3 * s + j, :, u] == peer[src, :, u]).all(), (s, j, u)
    assert expand_offsets(peer, [0.0, 1e-7], t)[2] == 1               # within 1e-6 of a fraction
    assert expand_offsets(peer, [0.0, 1e-6], t)[2] == 1               # 1e-6 exactly: still within
