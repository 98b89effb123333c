"""The ``[liveness]`` parameters (docs/liveness.md "Configuration"), checked against the
slice clock they ride on.

A circuit (slice s, uplink u) recurs once per schedule cycle, and its beacon is the sync
exchange the two ToRs start on it in s. So the liveness window -- how long a circuit is
silent before it is marked down -- is ``down_after`` of its circuits, ``down_after``
cycles. It cannot be shorter than one cycle: every circuit must be beaconed in every
cycle (``[clock] exchange_every = 1``: one exchange per uplink per slice), and the
switches must keep the clock (``[clock] mode = "sync"``). Anything else is refused with
the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.errors import UroError
from controller.liveness.damping import DampingParams

#: the data plane counts silent circuits in 8 bits (live_miss)
MAX_DOWN_AFTER = 255
DEFAULT_DOWN_AFTER = 3
#: notices (docs/liveness.md "Notices"): a ToR takes at most ``notice_rate`` per slice on
#: average, ``notice_burst`` at once (8 bits each in the data plane); rate 0: no notices
DEFAULT_NOTICE_RATE = 8
DEFAULT_NOTICE_BURST = 32
MAX_NOTICE = 255
#: every ``notice_refresh`` cycles a ToR sends its marks of each slice again, changed or not,
#: so a ToR that missed a notice catches up within that many cycles (0: only changes are sent)
DEFAULT_NOTICE_REFRESH = 4


class LivenessConfigError(UroError):
    """A ``[liveness]`` value does not suit the clock or the schedule; the message names
    the key and gives the numbers."""


@dataclass(frozen=True)
class LivenessParams:
    """``enabled``: the switches evaluate their circuits and route around the marks;
    ``down_after``: consecutive silent circuits of one (slice, uplink) that mark it down;
    ``notice_rate`` / ``notice_burst``: the notices a ToR takes per slice on average and at
    once (a token bucket; rate 0: the ToRs neither send nor take notices);
    ``notice_refresh``: every this many schedule cycles a ToR sends its marks of each slice
    again, changed or not (0: only changes), so a missed notice is repaired within it;
    ``damping``: how the daemon damps failures that flap (:mod:`controller.liveness.damping`;
    the switches do not see it)."""

    enabled: bool = False
    down_after: int = DEFAULT_DOWN_AFTER
    notice_rate: int = DEFAULT_NOTICE_RATE
    notice_burst: int = DEFAULT_NOTICE_BURST
    notice_refresh: int = DEFAULT_NOTICE_REFRESH
    damping: DampingParams = field(default_factory=DampingParams)

    def problems(self, clock_mode: str, exchange_every: int, slices: int) -> list[str]:
        """Every reason these parameters do not suit a clock in ``clock_mode`` exchanging
        every ``exchange_every`` slices on a schedule of ``slices`` slices (empty: fine)."""
        out: list[str] = []
        d = self.down_after
        if not isinstance(d, int) or isinstance(d, bool):
            return [f"[liveness] down_after must be an integer (silent circuits), got {d!r}"]
        if d < 1:
            out.append(f"[liveness] down_after = {d}: a window of {d} cycles ({d} x {slices} slices) is shorter "
                       f"than one schedule cycle ({slices} slices); at least 1")
        elif d > MAX_DOWN_AFTER:
            out.append(f"[liveness] down_after = {d}: the switches count at most {MAX_DOWN_AFTER} silent circuits")
        for key in ("notice_rate", "notice_burst"):
            v = getattr(self, key)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_NOTICE:
                out.append(f"[liveness] {key} = {v!r}: notices per slice, an integer from 0 to {MAX_NOTICE}")
        r = self.notice_refresh
        if not isinstance(r, int) or isinstance(r, bool) or not 0 <= r <= MAX_NOTICE:
            out.append(f"[liveness] notice_refresh = {r!r}: schedule cycles between two sends of a ToR's unchanged "
                       f"marks, an integer from 0 (never) to {MAX_NOTICE}")
        if not out and self.notice_rate > 0 and self.notice_burst < 1:
            out.append(f"[liveness] notice_burst = {self.notice_burst}: with notice_rate = {self.notice_rate} a ToR "
                       "must take at least one notice at once (or set notice_rate = 0: no notices)")
        out += self.damping.problems()
        if not self.enabled:
            return out
        if clock_mode != "sync":
            out.append(f"[liveness] enabled needs the switches' own clock: [clock] mode = {clock_mode!r} sends no "
                       "beacon (the sync exchange); set mode = \"sync\"")
        elif exchange_every != 1:
            out.append(f"[liveness] enabled needs a beacon on every circuit in every cycle: [clock] exchange_every = "
                       f"{exchange_every} exchanges on an uplink once in {exchange_every} slices, so a circuit of a "
                       f"{slices}-slice schedule is heard only in some cycles and the window "
                       f"(down_after = {d} circuits) would span fewer than {d} beacons; set exchange_every = 1")
        return out

    def check(self, clock_mode: str, exchange_every: int, slices: int) -> "LivenessParams":
        problems = self.problems(clock_mode, exchange_every, slices)
        if problems:
            raise LivenessConfigError("; ".join(problems))
        return self
