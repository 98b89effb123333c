"""The backend's slice-clock interface: what a probe says, and the default of a target
without a clock of its own (docs/clock.md, controller/agent/backend.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from controller.agent.backend import BackendError, ClockNotSupported, ClockProbe, SwitchAddress, SwitchBackend

L = 50_000_000     # 50 ms in ns


def probe(switch_ns: int, sent: int, received: int) -> ClockProbe:
    k, phase = divmod(switch_ns, L)
    return ClockProbe(k=k % (1 << 32), phase_ns=phase, local_ns=123, stratum=2, term=1, lead=0, lead_k=0,
                      sent_ns=sent, received_ns=received)


@given(host=st.integers(0, 1 << 62), off=st.integers(-(1 << 40), 1 << 40), rtt=st.integers(0, 10**9))
def test_the_offset_is_the_switch_time_minus_the_midpoint_whatever_the_wrap(host, off, rtt):
    """k is 32 bits on the wire: the time is unwrapped to the reader's, so an offset of
    +-18 minutes at 50 ms slices (2^40 ns) comes out exact, whatever slice number the
    host's clock is at."""
    p = probe(host + rtt // 2 + off, host, host + rtt)
    assert p.midpoint_ns == host + rtt // 2
    assert p.offset_ns(L) == off
    assert p.time_ns(L) == host + rtt // 2 + off
    assert p.uncertainty_ns() == (rtt + 1) // 2


def test_a_switch_at_the_host_time_has_no_offset_and_half_the_round_trip_as_uncertainty():
    p = probe(10 * L + 1000, 10 * L, 10 * L + 2000)
    assert (p.offset_ns(L), p.uncertainty_ns()) == (0, 1000)
    assert p.registers == {}


class _NoClock(SwitchBackend):
    """A target that implements only what every backend must (no slice clock)."""

    target = "noclock"

    def connect(self): ...
    def close(self): ...
    connected = True
    def pipeline_cookie(self): return None
    def set_pipeline(self, pipeline, force=False): return False
    def read_state(self): ...
    def apply(self, diff, progress=None): ...
    def send_timer(self, slice_id, sync=False): ...
    def read_counters(self): return {}


@pytest.mark.parametrize("call", [lambda b: b.read_clock(), lambda b: b.probe_clock(),
                                  lambda b: b.seed_clock(1, 0, True)])
def test_a_backend_without_a_clock_says_so_by_a_named_error(call):
    b = _NoClock(SwitchAddress("tor7", "127.0.0.1:1"))
    with pytest.raises(ClockNotSupported, match=r"^tor7: the noclock backend cannot (read|probe|seed) the slice clock"):
        call(b)
    assert issubclass(ClockNotSupported, BackendError)   # the daemon's handlers of switch errors catch it
