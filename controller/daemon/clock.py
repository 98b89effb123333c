"""The bmv2 slice clock: the daemon sends the timer of every slice to every switch.

Tofino2 generates timers on the switch (pktgen); bmv2 has no packet generator, so the
daemon is the software pktgen of ARCHITECTURE "Time and queues": slice ``k`` starts at
``t0 + k * period`` and its timer (slice id ``k mod S``) goes to every switch, ToRs and
OCS emulators alike, over the session the daemon holds (``SwitchBackend.send_timer``).
Slices must be long against what a Python thread and gRPC can hold (tens of ms).

If the thread falls behind by more than a slice, the missed timers are not sent late:
the next timer carries the current slice (the data plane advances its clock by the
difference, docs/p4.md "Time") and the skipped slices are counted.

Jitter is measured at the sender: for each slice, the spread of the send times across
switches and each send's lateness against the ideal slice start. Pure bookkeeping here
(time is passed in), the thread is in :mod:`controller.daemon.controller`.
"""

from __future__ import annotations

import collections
import math
from dataclasses import dataclass

import numpy as np

#: slices of history the jitter figures summarize
WINDOW = 2000


@dataclass
class Tick:
    k: int          # slice number since the clock started
    slice_id: int   # k mod S: what the timer carries
    ideal: float    # when slice k should start
    skipped: int    # slices before k that were never sent


class SliceClock:
    def __init__(self, period_s: float, n_slices: int, t0: float):
        if not period_s > 0 or n_slices < 1:
            raise ValueError("period must be positive and there must be at least one slice")
        self.period = period_s
        self.n_slices = n_slices
        self.t0 = t0
        self.next_k = 0
        self.sent = 0
        self.skipped = 0
        self.last: Tick | None = None
        self._spread = collections.deque(maxlen=WINDOW)
        self._late = collections.deque(maxlen=WINDOW * 4)
        # (k, slice id, {switch: send time}) of the last WINDOW slices: when each switch was
        # told each slice, so that a packet seen at a known time can be placed in the slice
        # its sender and the OCS were in (controller/emulate/deadtor.py)
        self.timers: collections.deque = collections.deque(maxlen=WINDOW)

    def timer_log(self, since: float | None = None) -> list:
        """``[k, slice id, {switch: send time}]`` of the slices kept (at most WINDOW), those
        sent at or after ``since`` (controller clock) only if given."""
        return [[k, sid, sent] for k, sid, sent in list(self.timers)
                if since is None or max(sent.values()) >= since]

    def reset(self, n_slices: int, t0: float) -> None:
        """Start over at slice 0 (a schedule with another cycle length)."""
        self.n_slices, self.t0, self.next_k = n_slices, t0, 0

    def next_time(self) -> float:
        return self.t0 + self.next_k * self.period

    def due(self, now: float) -> Tick | None:
        """The slice to send now, if one started since the last one sent."""
        if now < self.next_time():
            return None
        k = int(math.floor((now - self.t0) / self.period))
        k = max(k, self.next_k)
        skipped = k - self.next_k
        self.next_k = k + 1
        self.skipped += skipped
        self.last = Tick(k, k % self.n_slices, self.t0 + k * self.period, skipped)
        return self.last

    def record(self, tick: Tick, sent_at: dict[str, float]) -> None:
        """Send times of ``tick``'s timer per switch (switches that could not be sent to
        are absent)."""
        if not sent_at:
            return
        self.sent += 1
        self.timers.append((tick.k, tick.slice_id, dict(sent_at)))
        times = list(sent_at.values())
        self._spread.append(max(times) - min(times))
        self._late.extend(t - tick.ideal for t in times)

    @staticmethod
    def _summary(values) -> dict:
        if not values:
            return {"n": 0}
        a = np.fromiter(values, float) * 1e3
        return {"n": int(a.size), "mean_ms": round(float(a.mean()), 4), "p50_ms": round(float(np.percentile(a, 50)), 4),
                "p99_ms": round(float(np.percentile(a, 99)), 4), "max_ms": round(float(a.max()), 4)}

    def status(self) -> dict:
        return {
            "slice_ms": self.period * 1e3, "slices": self.n_slices,
            # when slice 0 started, on the controller's clock (`uro daemon`: time.monotonic(),
            # CLOCK_MONOTONIC, which every process on the host reads alike): slice k starts at
            # slice0_at + k * slice_ms. A process on the same host times its packets by it
            # (the emulated fabric's tests send a probe a known fraction into a known slice).
            "slice0_at": self.t0,
            "current_slice": None if self.last is None else self.last.slice_id,
            "slices_since_start": None if self.last is None else self.last.k,
            "timers_sent": self.sent, "slices_skipped": self.skipped,
            "jitter_between_switches": self._summary(self._spread),
            "lateness_vs_ideal": self._summary(self._late),
        }
