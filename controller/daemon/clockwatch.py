"""What the daemon knows of the switches' own slice clocks (``[clock] mode = "sync"``,
docs/clock.md "The daemon supervises"): pure bookkeeping, time passed in; the I/O
(register reads, probes, seeds through the backend) is :mod:`controller.daemon.clocksync`'s.

Per switch it keeps the clock's registers as last read (stratum, term, lead, the last
exchange's offset and delay, drift, refusals, last exchange), and from the daemon's own
probes its **error**: for the OCS emulator (the reference) its offset against the
daemon's host clock (CLOCK_MONOTONIC, the network time the daemon seeded it with), for a
ToR its offset against the OCS emulator's at the latest probe of each, with the half
round trips of both as the uncertainty. A history of the errors is kept for the status
API and the dashboard.

It decides, and says so as events the controller acts on:

- **seeding**: a switch the daemon (re)connected or (re)programmed is read first; one
  that already keeps the network's time is adopted (a daemon restart does not step the
  fabric's clocks), otherwise seeded -- the OCS emulator before any ToR;
- **alarm**: a ToR whose error exceeds ``alarm_us`` beyond the probe's uncertainty
  raises one (``clock.alarm``, cleared when it is back within);
- **holdover**: a ToR unsynchronized (stratum 255) for ``holdover_cycles`` cycles (and at
  least three register reads) since it was first seen so (or seeded) is to be taken out of
  routes like a failed ToR, and put back once it is synchronized again.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field

#: probe errors kept per switch (the status API's history)
HISTORY = 600
#: stratum of an unsynchronized clock (docs/clock.md)
UNSYNCED = 255
#: a reference clock within this of the daemon's host clock is adopted, not seeded again (ns)
ADOPT_REFERENCE_NS = 1_000_000


@dataclass
class SwitchClock:
    name: str
    role: str                                # tor | ocs
    tor: int | None = None
    registers: dict = field(default_factory=dict)
    read_at: float | None = None             # controller clock of the last register read
    offset_ns: int | None = None             # the last probe: the switch minus the host's clock
    uncertainty_ns: int | None = None        # half the last probe's round trip
    probed_at: float | None = None
    error_ns: int | None = None              # ToR: its offset minus the reference's; OCS: its offset
    history: collections.deque = field(default_factory=lambda: collections.deque(maxlen=HISTORY))
    seeds: int = 0
    seeded_at: float | None = None
    adopted: int = 0
    alarm: bool = False
    alarms: int = 0
    unsynced_since: float | None = None
    out_of_routes: bool = False              # taken out of routes by the clock (not by a failure)
    last_error: str | None = None

    @property
    def stratum(self) -> int | None:
        return self.registers.get("stratum")

    @property
    def synced(self) -> bool:
        s = self.stratum
        return s is not None and s != UNSYNCED

    def status(self) -> dict:
        us = lambda ns: None if ns is None else round(ns / 1e3, 3)   # noqa: E731
        return {"role": self.role, "tor": self.tor, "stratum": self.stratum, "synced": self.synced,
                "registers": dict(self.registers), "error_us": us(self.error_ns), "offset_us": us(self.offset_ns),
                "uncertainty_us": us(self.uncertainty_ns), "alarm": self.alarm, "alarms": self.alarms,
                "seeds": self.seeds, "adopted": self.adopted, "out_of_routes": self.out_of_routes,
                "unsynced_since": self.unsynced_since, "last_error": self.last_error,
                "history": [[round(t, 3), us(e), us(u)] for t, e, u in list(self.history)[-60:]]}


def keeps_network_time(role: str, offset_ns: int, uncertainty_ns: int, stratum: int,
                       reference: tuple[int, int] | None, alarm_ns: int) -> bool:
    """A switch just (re)connected keeps the network's time already (adopt it, do not seed
    it): the reference (``role`` ocs) at stratum 0 within :data:`ADOPT_REFERENCE_NS` of the
    host's clock; a ToR synchronized and within ``alarm_ns`` of ``reference`` (its offset
    and uncertainty as last probed, None: not probed yet). Pure: it runs where the switch's
    session is (the daemon's process or the worker owning the switch)."""
    if role == "ocs":
        return stratum == 0 and abs(offset_ns) <= ADOPT_REFERENCE_NS + uncertainty_ns
    if reference is None or stratum == UNSYNCED:
        return False
    ref_off, ref_unc = reference
    return abs(offset_ns - ref_off) <= alarm_ns + uncertainty_ns + ref_unc


@dataclass(frozen=True)
class Event:
    kind: str          # alarm | alarm_cleared | out_of_routes | back_in_routes
    switch: str
    tor: int | None
    detail: dict


class ClockWatch:
    """The network's switch clocks as the daemon last saw them (see module docstring)."""

    def __init__(self, slice_ns: int, n_slices: int, alarm_ns: int, holdover_cycles: int,
                 read_s: float = 1.0, probe_s: float = 3.0):
        self.slice_ns = slice_ns
        self.n_slices = n_slices
        self.alarm_ns = alarm_ns
        # at least three register reads: one read that found a freshly seeded ToR before its
        # first exchange must not take it out of routes
        self.holdover_s = max(holdover_cycles * n_slices * slice_ns / 1e9, 3 * read_s)
        self.read_s, self.probe_s = read_s, probe_s
        self.clocks: dict[str, SwitchClock] = {}
        self._next: dict[str, dict[str, float]] = {}

    # ---- membership --------------------------------------------------------------------------
    def track(self, name: str, role: str, tor: int | None) -> SwitchClock:
        c = self.clocks.get(name)
        if c is None or c.role != role or c.tor != tor:
            c = self.clocks[name] = SwitchClock(name, role, tor)
            self._next[name] = {"read": 0.0, "probe": 0.0}
        return c

    def forget(self, keep: set[str]) -> None:
        for n in list(self.clocks):
            if n not in keep:
                self.clocks.pop(n)
                self._next.pop(n, None)

    def reference(self) -> SwitchClock | None:
        """The OCS emulator probed last (the reference the ToRs' errors are taken against)."""
        refs = [c for c in self.clocks.values() if c.role == "ocs" and c.offset_ns is not None]
        return max(refs, key=lambda c: c.probed_at or 0.0) if refs else None

    # ---- schedule ----------------------------------------------------------------------------
    def due(self, name: str, what: str, now: float) -> bool:
        """Whether ``name``'s ``what`` (read | probe) is due; if so it is booked for the next period."""
        nxt = self._next.setdefault(name, {"read": 0.0, "probe": 0.0})
        if now < nxt[what]:
            return False
        nxt[what] = now + (self.read_s if what == "read" else self.probe_s)
        return True

    # ---- seeding -----------------------------------------------------------------------------
    def reference_offset(self) -> tuple[int, int] | None:
        """The reference's offset and uncertainty as last probed (ns), None before any probe:
        what a switch's owner needs to tell a ToR that keeps the network's time."""
        ref = self.reference()
        return None if ref is None else (ref.offset_ns, ref.uncertainty_ns or 0)

    def seeded(self, name: str, now: float, adopted: bool = False) -> None:
        c = self.clocks[name]
        if adopted:
            c.adopted += 1
        else:
            c.seeds += 1
            c.seeded_at = now
            if c.unsynced_since is not None:   # its holdover starts again from the seed
                c.unsynced_since = now
        self._next[name] = {"read": now, "probe": now}

    # ---- readings ----------------------------------------------------------------------------
    def registers(self, name: str, regs: dict, now: float) -> list[Event]:
        """The registers of ``name`` read at ``now``; returns the holdover events."""
        c = self.clocks[name]
        c.registers = dict(regs)
        if regs.get("len"):       # the local slice length: its rate correction, as a drift in ppb
            c.registers["drift"] = round((regs["len"] - self.slice_ns) * 1_000_000_000 / self.slice_ns)
        c.read_at = now
        c.last_error = None
        out: list[Event] = []
        if c.synced:
            c.unsynced_since = None
            if c.out_of_routes:
                c.out_of_routes = False
                out.append(Event("back_in_routes", name, c.tor, {"stratum": c.stratum}))
        else:
            if c.unsynced_since is None:
                c.unsynced_since = now if c.seeded_at is None else max(now, c.seeded_at)
            if (c.role == "tor" and not c.out_of_routes and now - c.unsynced_since >= self.holdover_s):
                c.out_of_routes = True
                out.append(Event("out_of_routes", name, c.tor,
                                 {"unsynced_s": round(now - c.unsynced_since, 3),
                                  "holdover_s": round(self.holdover_s, 3)}))
        return out

    def probe(self, name: str, offset_ns: int, uncertainty_ns: int, now: float) -> list[Event]:
        """A probe of ``name``: its offset against the host and half the round trip; returns
        the alarm events."""
        c = self.clocks[name]
        c.offset_ns, c.uncertainty_ns, c.probed_at = offset_ns, uncertainty_ns, now
        c.last_error = None
        if c.role == "ocs":
            c.error_ns = offset_ns
            c.history.append((now, c.error_ns, uncertainty_ns))
            return []
        ref = self.reference()
        if ref is None:
            return []
        c.error_ns = offset_ns - ref.offset_ns
        unc = uncertainty_ns + (ref.uncertainty_ns or 0)
        c.history.append((now, c.error_ns, unc))
        out: list[Event] = []
        over = abs(c.error_ns) - unc > self.alarm_ns
        within = abs(c.error_ns) + unc <= self.alarm_ns
        if over and not c.alarm:
            c.alarm = True
            c.alarms += 1
            out.append(Event("alarm", name, c.tor, {"error_us": round(c.error_ns / 1e3, 3),
                                                    "uncertainty_us": round(unc / 1e3, 3),
                                                    "alarm_us": round(self.alarm_ns / 1e3, 3)}))
        elif within and c.alarm:
            c.alarm = False
            out.append(Event("alarm_cleared", name, c.tor, {"error_us": round(c.error_ns / 1e3, 3)}))
        return out

    def failed(self, name: str, error: str) -> None:
        self.clocks[name].last_error = error

    # ---- status ------------------------------------------------------------------------------
    def errors(self, role: str = "tor") -> list[int]:
        return [c.error_ns for c in self.clocks.values() if c.role == role and c.error_ns is not None]

    def status(self) -> dict:
        errs = [abs(e) for e in self.errors()]
        return {"switches": {n: c.status() for n, c in sorted(self.clocks.items())},
                "max_error_us": round(max(errs) / 1e3, 3) if errs else None,
                "alarms": sorted(n for n, c in self.clocks.items() if c.alarm),
                "unsynchronized": sorted(n for n, c in self.clocks.items() if c.registers and not c.synced),
                "out_of_routes": sorted(n for n, c in self.clocks.items() if c.out_of_routes),
                "alarm_us": round(self.alarm_ns / 1e3, 3), "holdover_s": round(self.holdover_s, 3)}
