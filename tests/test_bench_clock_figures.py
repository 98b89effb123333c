"""uro bench --suite clock's loss attribution (benchmarks/bench_clock.py): the OCS's
no_circuit drops of data frames apart from the clock's own REQ/RESP crossing it, and the
misaligned data frames per ToR (docs/clock.md "Where misaligned frames come from")."""

from __future__ import annotations

from benchmarks.bench_clock import Arrivals, misalignment

BEFORE = {"ocs_drops.no_circuit": 10, "drops.held_too_long": 1, "ocs_arrivals.tor0u0_no_circuit": 0,
          "ocs_arrivals.tor0u1_in_guard_no_circuit": 0, "ocs_arrivals.tor1u0_in_guard": 0,
          "ocs_arrivals.tor1u0_in_time": 0, "departures.lt_0_5ms": 0, "departures.ge_guard": 0}


def test_no_circuit_drops_of_the_clocks_own_frames_are_not_counted_as_pings_lost():
    after = {**BEFORE, "ocs_drops.no_circuit": 110, "drops.held_too_long": 4, "ocs_arrivals.tor0u0_no_circuit": 7,
             "ocs_arrivals.tor0u1_in_guard_no_circuit": 3}
    assert misalignment(BEFORE, after) == {"ocs_drops.no_circuit": 10, "drops.held_too_long": 3,
                                           "no_circuit_sync": 90}


def test_a_program_without_the_arrival_counter_keeps_the_whole_no_circuit_figure():
    before = {"ocs_drops.no_circuit": 1, "drops.held_too_long": 0}
    after = {"ocs_drops.no_circuit": 5, "drops.held_too_long": 2}
    assert misalignment(before, after) == {"ocs_drops.no_circuit": 4, "drops.held_too_long": 2}


def test_arrivals_are_summed_per_tor_over_its_uplinks():
    d = {"ocs_arrivals.tor1u0_in_guard": 2, "ocs_arrivals.tor1u1_in_guard": 3, "ocs_arrivals.tor0u1_in_time": 9,
         "ocs_arrivals.tor0u0_no_circuit": 1, "departures.lt_2ms": 4, "departures.ge_guard": 1, "drops.ttl": 5}
    a = Arrivals.of(d)
    assert (a.in_guard, a.in_time, a.no_circuit, a.departures) == ({1: 5}, {0: 9}, {0: 1},
                                                                   {"lt_2ms": 4, "ge_guard": 1})
    text = "\n".join(a.lines())
    assert "5 (33.3 %) arrived in the OCS's first guard" in text and "tor1 5 / 0" in text and "tor0 0 / 1" in text
