"""The emulated packet generator's TRIGGER period (controller.clock.params
ClockParams.trigger_period, controller.emulate.config EmuConfig.trigger_s): every uplink
gets a TRIGGER in every exchange window, and not many more -- a TRIGGER only starts an
exchange, and on a software switch each one more is a pass the data waits behind
(docs/clock.md "Where misaligned frames come from")."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from controller.clock.params import ClockParams
from controller.emulate import config

ROOT = Path(__file__).resolve().parents[1]
MS = 1_000_000


def _triggers(period: int, uplinks: int, t0: int, until: int, late: list[int]) -> dict[int, list[int]]:
    """The generator's schedule (controller.emulate.pktgen.run): round i at t0 + i x period
    names uplink i mod uplinks; TRIGGER i arrives late[i] ns late."""
    out: dict[int, list[int]] = {u: [] for u in range(uplinks)}
    i = 0
    while t0 + i * period <= until:
        out[i % uplinks].append(t0 + i * period + late[i % len(late)])
        i += 1
    return out


def _windows_missed(ck: ClockParams, uplinks: int, t0: int, late: list[int], slices: int = 40) -> list[tuple[int, int]]:
    """(slice, uplink) whose exchange window got no TRIGGER, as the ToR's check decides
    (phase within [lo, hi], both included)."""
    lo, hi = ck.window
    L = ck.slice_ns
    trig = _triggers(ck.trigger_period(uplinks), uplinks, t0, (slices + 1) * L, late)
    return [(k, u) for k in range(1, slices) for u in range(uplinks)
            if not any(k * L + lo <= t <= k * L + hi for t in trig[u])]


@pytest.mark.parametrize("slice_ms, guard_ms, max_delay_us, uplinks", [
    (50, 5, 1000, 2),          # examples/emu-8x2.toml
    (50, 5, None, 2),          # the daemon's default max_delay (an eighth of the slice)
    (20, 1, 500, 4),
    (10, 0, 100, 6),
])
def test_every_uplink_gets_a_trigger_in_every_exchange_window_even_a_quarter_window_late(
        slice_ms, guard_ms, max_delay_us, uplinks):
    ck = ClockParams(slice_ns=slice_ms * MS, guard_ns=guard_ms * MS,
                     max_delay_ns=None if max_delay_us is None else max_delay_us * 1000)
    lo, hi = ck.window
    rng = random.Random(7)
    for t0 in range(0, ck.slice_ns, ck.slice_ns // 97):       # the generator's phase against the slices
        on_time = _windows_missed(ck, uplinks, t0, [0])
        assert on_time == [], (t0, on_time[:5])
        late = [rng.randrange(0, (hi - lo) // 4 + 1) for _ in range(101)]
        worst = [(hi - lo) // 4 if i % 2 else 0 for i in range(2 * uplinks)]   # late, on time, late, ...
        assert _windows_missed(ck, uplinks, t0, late) == [], t0
        assert _windows_missed(ck, uplinks, t0, worst) == [], t0


def test_the_emulated_generator_sends_each_uplink_at_most_two_triggers_per_window():
    """The fabric's default period (no trigger_ms): each uplink's TRIGGERs at least half a
    window apart, so no more than two land in one window, where one starts the exchange."""
    cfg = config.load(ROOT / "examples" / "emu-8x2.toml")
    for max_delay_us in (None, 1000.0):
        c = dataclasses.replace(cfg, trigger_ms=None, max_delay_us=max_delay_us)
        ck = ClockParams(slice_ns=round(c.slice_ms * MS), guard_ns=round(c.guard_ms * MS),
                         max_delay_ns=None if max_delay_us is None else round(max_delay_us * 1000))
        lo, hi = ck.window
        per_uplink_ns = c.trigger_s * 1e9 * c.uplinks
        assert per_uplink_ns >= (hi - lo) / 2, (c.trigger_s, ck.window)
        assert per_uplink_ns <= (hi - lo) * 3 / 4 + 1
    # an explicit trigger_ms is kept as given
    assert dataclasses.replace(cfg, trigger_ms=6.25).trigger_s == pytest.approx(0.00625)
