"""The dead-ToR figure's bookkeeping (controller/emulate/deadtor.split): packets seen
towards a failed ToR are split by the daemon's own times and turned into rates."""

from controller.emulate.deadtor import split

T = 1000.0


def test_packets_are_split_by_detection_mask_and_generation():
    times = [T - 5.0, T - 2.0, T - 0.1, T + 0.001, T + 0.004, T + 0.020, T + 1.5, T + 3.2, T + 9.0]
    r = split(2, [(t, f"p{i}") for i, t in enumerate(times)], T, dataplane_ms=5.0, generation_s=3.0,
              lead_s=3.0, t_end=T + 5.0, pings=(4, 100))
    # T - 5 is outside the lead, T + 9 after the end
    assert (r.before, r.to_mask, r.mask_to_generation, r.after_generation) == (2, 2, 2, 1)
    assert r.late == ["+20 ms p5", "+1500 ms p6", "+3200 ms p7"]
    assert abs(r.rate_before - 2 / 3.0) < 1e-9 and abs(r.rate_masked - 2 / 2.995) < 1e-9
    assert "0.7/s before, 0.7/s between mask and new generation" in r.line()


def test_without_a_mask_everything_after_detection_is_before_the_mask():
    r = split(1, [(T + 0.5, "a"), (T + 9.0, "b")], T, dataplane_ms=None, generation_s=None, lead_s=3.0,
              t_end=T + 10)
    assert (r.before, r.to_mask, r.mask_to_generation, r.after_generation) == (0, 2, 0, 0)
    assert r.rate_masked is None and "no mask" in r.line() and r.late == []
