"""uro bench --suite clock's loss attribution (benchmarks/bench_clock.py): the OCS's
no_circuit drops of data frames apart from the clock's own REQ/RESP crossing it, and the
misaligned data frames per ToR (docs/clock.md "Where misaligned frames come from")."""

from __future__ import annotations

from benchmarks.bench_clock import Arrivals, cpu_line, drops_line, misalignment

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


def test_departures_are_told_apart_by_kind_by_the_part_in_the_egress_queue_and_by_phase():
    d = {"departures.fresh_lt_0_5ms": 6, "departures.fresh_ge_guard": 2, "departures.held_ge_guard": 2,
         "departure_queue.fresh_lt_0_5ms": 8, "departure_queue.held_lt_2ms": 1, "departure_queue.held_ge_guard": 1,
         "departure_phase.g1_lt_guard": 3, "departure_phase.g1_ge_guard": 1, "departure_phase.g5_ge_guard": 3,
         "departure_phase.g9_lt_guard": 3}
    a = Arrivals.of(d)
    assert a.departures == {"fresh_lt_0_5ms": 6, "fresh_ge_guard": 2, "held_ge_guard": 2}
    assert a.queue["held_ge_guard"] == 1 and a.phase["g5_ge_guard"] == 3
    text = "\n".join(a.lines())
    assert "pass to departure of 10: < 0.5ms 60.0 %, >= guard 40.0 %" in text
    # the fresh frames' long waits were not in the egress queue; half the held ones' were
    assert "fresh 8 (80.0 %): pass to departure < 0.5ms 75.0 %, >= guard 25.0 %; in the egress queue < 0.5ms 100.0 %" in text
    assert "held 2 (20.0 %): pass to departure >= guard 100.0 %; in the egress queue < 2ms 50.0 %, >= guard 50.0 %" in text
    assert "g1 4 (25.0 %)" in text and "g5 3 (100.0 %)" in text and "g9 3 (0.0 %)" in text and "g0 0 (-)" in text


def test_the_tors_cpu_is_given_per_tor_and_per_ingress_pass():
    grown = {"passes.held": 300, "passes.sync": 100, "passes.fresh": 100, "drops.ttl": 9}
    assert cpu_line(0.1, grown, 10.0, 2) == "the ToRs' bmv2 CPU: 0.01 cores per ToR, 200 us per ingress pass"
    assert cpu_line(0.1, {}, 10.0, 2).endswith("- per ingress pass")


def test_the_drops_line_adds_the_held_frames_decided_again_after_their_slice_passed():
    grown = {"drops.ttl": 2, "ocs_drops.no_circuit": 5, "drops.no_route": 0, "events.reroute_missed": 3,
             "events.ssrr_missed": 0, "events.timer": 9}
    assert drops_line(grown) == ("every drop: ocs_drops.no_circuit 5, drops.ttl 2; slice missed while held, decided "
                                 "again: reroute_missed 3, ssrr_missed 0")
    assert drops_line({"drops.ttl": 1}) == "every drop: drops.ttl 1"
