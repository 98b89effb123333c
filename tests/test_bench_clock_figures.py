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
    assert drops_line({**grown, "events.departed_late": 4}) == (
        "every drop: ocs_drops.no_circuit 5, drops.ttl 2; slice missed while held, decided again: reroute_missed 3, "
        "ssrr_missed 0; slice ended before it left, decided again: departed_late 4")


# ---- the error's measurement: each round's least-delay probe pair -------------------------------
class _Prober:
    """Probe pairs answered from a script: per call, (tor's offset, its round trip) or None
    (no answer); the OCS at offset 0 with a 100 us round trip."""

    def __init__(self, script):
        self.script = list(script)

    def probe(self, names):
        from controller.emulate.clockprobe import Sample

        step = self.script.pop(0)
        if step is None:
            return {}
        off, rtt = step
        sent = 1_000_000_000
        return {"tor0": Sample("tor0", 0, 1000 + off + rtt // 2, 0, 1000 + off + rtt // 2, 0, False, 2, sent, sent + rtt),
                "ocs": Sample("ocs", 0, 1000 + 50_000, 0, 1000 + 50_000, 0, False, 1, sent, sent + 100_000)}


def _sampler(monkeypatch, script, pairs=3, tries=3):
    import types

    from benchmarks import bench_clock as bc
    from controller.emulate import clockprobe

    monkeypatch.setattr(clockprobe.Prober, "for_plan", classmethod(lambda cls, plan, names: _Prober(script)))
    fab = types.SimpleNamespace(plan=None, slice_ns=50_000_000, n_slices=4)
    return bc.ErrorSampler(fab, ["tor0"], pairs=pairs, tries=tries)


def test_a_round_keeps_every_pair_and_takes_the_one_of_least_uncertainty(monkeypatch):
    """Three pairs of one ToR in a round: each kept (error = its offset, uncertainty = half
    the two round trips), and the round's figure is the pair whose probes waited least."""
    s = _sampler(monkeypatch, [(300_000, 900_000), (40_000, 200_000), (-70_000, 400_000)])
    s.round()
    assert [(e, u) for _, e, u in s.errors["tor0"]] == [(300_000, 500_000), (40_000, 150_000), (-70_000, 250_000)]
    assert [(e, u) for _, e, u in s.best["tor0"]] == [(40_000, 150_000)]
    assert s.samples(best=True) == [(40_000, 150_000)] and len(s.samples()) == 3


def test_a_round_whose_pairs_all_waited_too_long_probes_again_up_to_its_tries(monkeypatch):
    """No pair within MAX_UNCERTAINTY_NS among the first ``pairs``: more pairs, until one is
    or ``tries`` were made; an unanswered pair is counted missed and measures nothing."""
    far = 2_500_000                              # a round trip that puts a pair past the bound
    s = _sampler(monkeypatch, [(1, far), None, (2, far), (3, 600_000), (4, 10)], pairs=2, tries=5)
    s.round()
    assert [e for _, e, _ in s.errors["tor0"]] == [1, 2, 3]          # stopped at the first within the bound
    assert [e for _, e, _ in s.best["tor0"]] == [3] and s.missed == 1
    s2 = _sampler(monkeypatch, [(1, far), (2, far), (3, far)], pairs=2, tries=3)
    s2.round()
    assert [e for _, e, _ in s2.best["tor0"]] == [1] and len(s2.errors["tor0"]) == 3


def test_a_round_with_no_answer_measures_nothing(monkeypatch):
    s = _sampler(monkeypatch, [None, None, None])
    s.round()
    assert s.errors["tor0"] == [] and s.best["tor0"] == [] and s.missed == 3


def test_the_servo_line_gives_each_tors_learnt_drift_and_its_gap_between_applied_exchanges():
    """The daemon's reads of a phase: per ToR the drift its slice length says (ppm, first and
    last read, the injected fault beside it) and the slices since its last applied exchange
    (median / max, k wrapping at 2^32); the OCS and ToRs without registers left out."""
    from benchmarks.bench_clock import ClockView

    reads = [{"switches": {"tor1": {"role": "tor", "registers": {"drift": 150_000, "k": 100, "last_k": 90}},
                           "tor0": {"role": "tor", "registers": {"drift": -1_000, "k": 100, "last_k": 99}},
                           "tor3": {"role": "tor", "registers": {}},
                           "ocs": {"role": "ocs", "registers": {"k": 5, "last_k": 0}}}},
             {"switches": {"tor1": {"role": "tor", "registers": {"drift": 199_400, "k": 3, "last_k": 0xFFFFFFFE}},
                           "tor0": {"role": "tor", "registers": {"drift": 2_000, "k": 110, "last_k": 108}}}},
             {"switches": {"tor1": {"role": "tor", "registers": {"drift": 201_000, "k": 10, "last_k": 9}}}}]
    assert ClockView.servo(reads) == (
        "the ToRs' servo, learnt drift first -> last read: tor0 -1 -> +2 ppm, 2 / 2 slices since an applied "
        "exchange; tor1 +150 -> +201 ppm (fault +200), 5 / 10 slices since an applied exchange")
    assert ClockView.servo([]) == "the ToRs' servo: no register read"


def test_the_signed_error_tells_a_bias_from_noise_and_leaves_out_uncertain_pairs():
    from benchmarks.bench_clock import MAX_UNCERTAINTY_NS, signed_us
    biased = [(200_000 + d, 10_000) for d in range(-20_000, 20_000, 1_000)]      # +180..+219 us
    assert signed_us(biased) == "signed p5 / p50 / p95 +182 / +200 / +218 us"
    noisy = [(e, 10_000) for e in range(-300_000, 301_000, 15_000)] + [(5_000_000, MAX_UNCERTAINTY_NS + 1)]
    assert signed_us(noisy) == "signed p5 / p50 / p95 -270 / +0 / +270 us"
    assert signed_us([(1, MAX_UNCERTAINTY_NS + 1)]) == "signed: no samples"
