"""The t2na slice clock as the control plane reads and seeds it (controller.tofino2.clock):
register words -> network time, and the seed's register writes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.tofino2 import clock

M32 = (1 << 32) - 1


def test_time_at_inside_the_slice_and_at_a_pending_boundary():
    # slice 7 ends at local 10_000 and is 2000 ns long: local 9_000 is 1000 ns into it
    assert clock.time_at(7, 10_000, 2000, 9_000) == (7, 1000)
    # local time at the boundary or past it, the generator not having ticked yet: the next slice
    assert clock.time_at(7, 10_000, 2000, 10_000) == (8, 0)
    assert clock.time_at(7, 10_000, 2000, 10_250) == (8, 250)
    # the 32-bit local clock wraps between the two
    assert clock.time_at(M32, 5, 2000, (5 - 300) & M32) == (M32, 1700)
    assert clock.time_at(M32, 5, 2000, 6) == (0, 1)
    # a slice longer than the local length (slewed): never a negative phase
    assert clock.time_at(3, 10_000, 2000, 7_000) == (3, 0)


@given(k=st.integers(0, M32), nxt=st.integers(0, M32), length=st.integers(1000, 10**7),
       ahead=st.integers(-(10**7), 10**7))
def test_time_at_is_the_same_network_time_either_side_of_the_boundary(k, nxt, length, ahead):
    """k x L + phase, with L the local slice length, is local time (up to the clamp at the
    slice's start): one local ns later is one ns later, across the boundary too."""
    local = (nxt + ahead) & M32
    k1, p1 = clock.time_at(k, nxt, length, local)
    t = ((k1 - k) & M32) * length + p1
    if ahead >= 0:
        assert t == length + ahead
    elif -ahead <= length:
        assert t == length + ahead
    else:
        assert (k1, p1) == (k, 0)


def test_decode_signs_and_splits_the_tree():
    v = clock.decode({"offset": (-5) & M32, "delay": 7, "term_lead": 3 << 16 | 9, "stratum": 2})
    assert (v["offset"], v["delay"], v["term"], v["lead"], v["stratum"]) == (-5, 7, 3, 9, 2)


def test_seed_writes_hold_the_boundary_until_the_clock_is_written():
    w = clock.seed_writes(k=1234, phase_ns=500, now=(M32 - 100), slice_ns=2000, slices=4, reference=False)
    names = [n for n, _ in w]
    # the boundary is held away first, the slice number and tree written, the boundary set last
    assert names == ["next", "slice", "k", "stratum", "last_k", "refusals", "lead_k", "next", "slice"]
    assert w[0] == ("next", (M32 - 100 + clock.FREEZE_NS) & M32) and w[1] == ("slice", 1234 % 4)
    # the stratum and the last correction's slice number side by side (one register pair on t2na)
    assert dict(w[2:7]) == {"k": 1234, "stratum": 255, "last_k": 1234, "refusals": 0, "lead_k": 1234}
    # the next boundary: L - phase after now (wrapping)
    assert w[7] == ("next", (M32 - 100 + 1500) & M32)
    assert clock.time_at(1234, w[7][1], 2000, (M32 - 100)) == (1234, 500)
    assert dict(clock.seed_writes(0, 0, 0, 2000, 4, reference=True))["stratum"] == 0
    # the lead the config names (a program that keeps no election): stratum 1
    assert dict(clock.seed_writes(0, 0, 0, 2000, 4, reference=False, lead=True))["stratum"] == 1
    with pytest.raises(ValueError, match="phase 2000 ns is outside a slice of 2000 ns"):
        clock.seed_writes(0, 2000, 0, 2000, 4, reference=True)


def test_register_refs_come_from_the_contract():
    c = {"clock": {"registers": {"next": {"name": "UroIngress.bound_reg", "field": "next"},
                                 "req_k": {"name": "UroIngress.req_k_reg", "size": 2}}}}
    refs = clock.register_refs(c)
    assert refs["next"] == clock.RegisterRef("next", "UroIngress.bound_reg", "next", 1)
    assert refs["req_k"].size == 2 and refs["req_k"].field is None
    assert clock.register_refs({}) == {}
