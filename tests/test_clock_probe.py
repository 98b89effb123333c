"""The arithmetic of the external clock measurement (controller/emulate/clockprobe.py):
a ToR's slice-boundary error against the OCS emulator from two kernel-timestamped probes."""

from __future__ import annotations

from hypothesis import given, strategies as st

from controller.emulate.clockprobe import Sample, error_ns, uncertainty_ns

L, S = 50_000_000, 4


def sample(name, switch_ns_at_arrival: int, stay: int, sent: int, rtt: int, timer: bool = False,
           k_offset: int = 0) -> Sample:
    """A switch whose network time at the probe's arrival is ``switch_ns_at_arrival``; it
    answers ``stay`` ns later; the host stamped ``sent`` and ``sent + rtt``. ``k_offset``:
    a timer-mode switch counts slices from elsewhere (its slice ids still follow time)."""
    k, ph = divmod(switch_ns_at_arrival, L)
    k2, ph2 = divmod(switch_ns_at_arrival + stay, L)
    return Sample(name, (k + k_offset) % (1 << 32), ph, (k2 + k_offset) % (1 << 32), ph2, k2 % S, timer, 2,
                  sent, sent + rtt)


def probe_of(name, offset, host_sent, wire, stay, **kw):
    """The sample of a switch ``offset`` ns ahead of the host, probed at ``host_sent``, with
    ``wire`` ns each way and ``stay`` ns inside (a symmetric path)."""
    return sample(name, host_sent + wire + offset, stay, host_sent, 2 * wire + stay, **kw)


@given(off_a=st.integers(-10**8, 10**8), off_b=st.integers(-10**8, 10**8), t=st.integers(10**15, 10**18),
       gap=st.integers(0, 10**7), wa=st.integers(0, 10**6), wb=st.integers(0, 10**6),
       sa=st.integers(0, 10**6), sb=st.integers(0, 10**6))
def test_a_symmetric_path_gives_the_exact_difference_of_the_clocks(off_a, off_b, t, gap, wa, wb, sa, sb):
    """Whatever the host's clock, the probes' spacing, wires and stays: the error is the
    difference of the two switches' offsets (up to the halving's rounding)."""
    a = probe_of("tor", off_a, t, wa, sa)
    b = probe_of("ocs", off_b, t + gap, wb, sb)
    assert abs(error_ns(a, b, L, S) - (off_a - off_b)) <= 2


@given(off_a=st.integers(-20 * 10**6, 20 * 10**6), t=st.integers(10**15, 10**18), k_off=st.integers(0, 1 << 32))
def test_timer_mode_compares_slice_ids_not_slice_counts(off_a, t, k_off):
    """A timer-driven switch's slice number counts its timers; only its slice id (and
    phase) say where its boundaries are: within half a cycle the same error comes out."""
    a = probe_of("tor", off_a, t, 1000, 500, timer=True, k_offset=k_off)
    b = probe_of("ocs", 0, t + 3000, 1000, 500, timer=True)
    assert abs(error_ns(a, b, L, S) - off_a) <= 2


def test_a_switch_probed_twice_has_no_error_but_the_paths_asymmetry():
    a = probe_of("tor", 12345, 10**15, 1000, 700)
    b = probe_of("tor", 12345, 10**15 + 5000, 1000, 700)
    assert error_ns(a, b, L, S) == 0
    # an answer that took 400 ns longer on the way back reads 200 ns early
    c = sample("tor", 10**15 + 1000 + 12345, 700, 10**15, 1000 + 700 + 1400)
    assert error_ns(c, a, L, S) == -200


@given(off_a=st.integers(-10**8, 10**8), t=st.integers(10**15, 10**18), up=st.integers(0, 10**7),
       down=st.integers(0, 10**7), stay=st.integers(0, 10**6), wb=st.integers(0, 10**6))
def test_the_error_is_within_the_uncertainty_whatever_the_asymmetry(off_a, t, up, down, stay, wb):
    """A probe that waited ``up`` ns on the way in and ``down`` on the way out (a busy switch
    or host): the error may be off by half the asymmetry, never by more than the
    uncertainty, half the two round trips. Catches an uncertainty that leaves the switch's
    stay or one probe out."""
    a = sample("tor", t + up + off_a, stay, t, up + stay + down)
    b = probe_of("ocs", 0, t + 10**6, wb, 500)
    err = error_ns(a, b, L, S) - off_a
    assert abs(err - (up - down) // 2) <= 2
    assert abs(err) <= uncertainty_ns(a, b) + 2
