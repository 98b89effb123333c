"""Flap damping of the failures the liveness marks show (docs/liveness.md "Flap damping").

What a circuit that flaps would cost without it: every time its marks hold for
``CONFIRM_READS`` reads the daemon declares it failed and computes a new route generation,
and every time they clear it recovers it and computes another -- a generation every few
seconds for a circuit that is neither up nor down, which is what an operator does not want
at 3 a.m. The data plane needs no help (a ToR routes around its own marks at once); it is
the route generations that must not follow every flap.

So the daemon damps failure units as BGP damps routes (RFC 2439, "BGP Route Flap
Damping", section 4.2): each unit (a dead ToR, a cut cable, a circuit, a misconfigured ToR)
has a **penalty**, a figure of merit that

- grows by ``penalty`` at each **flap** -- each time the unit appears in the marks, i.e.
  each time the switches withdraw it (a read shows it that the read before did not),
- decays exponentially with a **half-life** (``half_life_s``) between flaps,
- is capped at the **ceiling** ``reuse * 2 ** (max_hold_s / half_life_s)``, so a unit is
  never held longer than ``max_hold_s`` after its last flap (RFC 2439 4.2, "maximum hold
  down time").

A unit whose penalty goes above ``suppress`` at a flap is **suppressed**: once the daemon
has declared it (its marks held ``CONFIRM_READS`` reads, as for any failure: damping never
declares) it is **held** failed while its marks come and go -- routed around, as the data
plane routes around its marks anyway -- instead of a recovery and a declaration per flap;
once its penalty has decayed below ``reuse`` it is released, and recovered at the first
read whose marks no longer show it. A unit that does not flap is not damped: a real
failure (one flap) is declared after ``CONFIRM_READS`` reads, and its heal recovered at
once, as without damping. Why damping does not declare too (BGP suppresses a route by
withdrawing it): on a loaded emulated fabric every unit's marks come and go for a read or
two (late beacons); declaring them as flapping would turn that noise into held failures
(measured: 60 declarations in 2.5 minutes at load 15-27), while a unit whose marks never
hold three reads makes no generation, and its marks are routed around in the data plane
anyway.

Pure state and arithmetic; the watch (:class:`controller.daemon.liveness.LivenessWatch`)
says what a flap is and what to declare.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Hashable

#: after RFC 2439 section 4.2's example figures of merit (1000 per flap, reuse below 750, a
#: maximum hold of four half-lives), with suppress at 1500: a unit that appears a second
#: time within a half-life is held once declared (its first declaration and heal go as
#: without damping);
#: the half-life is a data center's (a flapping circuit held for a minute or two, not
#: BGP's 15 minutes)
DEFAULT_PENALTY = 1000.0
DEFAULT_SUPPRESS = 1500.0
DEFAULT_REUSE = 750.0
DEFAULT_HALF_LIFE_S = 30.0
DEFAULT_MAX_HOLD_S = 120.0


@dataclass(frozen=True)
class DampingParams:
    """``[liveness.damping]``: ``enabled`` (default true); ``penalty`` added per flap;
    ``suppress``: above it a unit is suppressed (held failed); ``reuse``: below it a
    suppressed unit is released; ``half_life_s``: the penalty halves in this many seconds;
    ``max_hold_s``: a unit is held at most this long after its last flap."""

    enabled: bool = True
    penalty: float = DEFAULT_PENALTY
    suppress: float = DEFAULT_SUPPRESS
    reuse: float = DEFAULT_REUSE
    half_life_s: float = DEFAULT_HALF_LIFE_S
    max_hold_s: float = DEFAULT_MAX_HOLD_S

    @property
    def ceiling(self) -> float:
        """The penalty's cap: from it, the penalty decays to ``reuse`` in ``max_hold_s``."""
        return self.reuse * 2.0 ** (self.max_hold_s / self.half_life_s)

    def problems(self) -> list[str]:
        """Every reason these figures cannot damp (empty: fine), with the numbers."""
        where = "[liveness.damping]"
        out = []
        for key in ("penalty", "suppress", "reuse", "half_life_s", "max_hold_s"):
            v = getattr(self, key)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not v > 0:
                out.append(f"{where} {key} = {v!r}: must be a positive number")
        if out or not self.enabled:
            return out
        if self.reuse >= self.suppress:
            out.append(f"{where} reuse = {self.reuse:g} is not below suppress = {self.suppress:g}: a suppressed unit "
                       "would be released before its penalty fell (reuse must be below suppress)")
        if self.penalty > self.suppress:
            out.append(f"{where} penalty = {self.penalty:g} is above suppress = {self.suppress:g}: the first flap "
                       "would suppress, so every mark would be declared at once and held (no failure would be "
                       "confirmed over three reads); penalty at most suppress")
        if self.ceiling <= self.suppress:
            out.append(f"{where} max_hold_s = {self.max_hold_s:g} with half_life_s = {self.half_life_s:g}: the "
                       f"penalty's ceiling reuse x 2^(max_hold_s / half_life_s) = {self.ceiling:.6g} is not above "
                       f"suppress = {self.suppress:g}, so nothing could be suppressed; raise max_hold_s above "
                       f"{self.half_life_s * math.log2(self.suppress / self.reuse):.6g} s")
        return out


def decayed(penalty: float, seconds: float, half_life_s: float) -> float:
    """``penalty`` after ``seconds`` of exponential decay with that half-life (RFC 2439 4.2)."""
    return penalty * 0.5 ** (max(seconds, 0.0) / half_life_s)


@dataclass
class UnitState:
    """One unit's figure of merit: ``penalty`` as of ``at`` (seconds, the watch's clock),
    whether it is ``suppressed``, and its ``flaps`` since its state was created."""

    penalty: float
    at: float
    suppressed: bool = False
    flaps: int = 0


@dataclass
class Damper:
    """The damping state of every unit that flapped recently (forgotten once its penalty is
    below half ``reuse`` and it is not suppressed, as RFC 2439 4.2 frees a route's
    history)."""

    params: DampingParams
    units: dict[Hashable, UnitState] = field(default_factory=dict)

    def penalty(self, unit: Hashable, now: float) -> float:
        st = self.units.get(unit)
        return 0.0 if st is None else decayed(st.penalty, now - st.at, self.params.half_life_s)

    def flap(self, unit: Hashable, now: float) -> bool:
        """``unit`` flapped at ``now``: its penalty grows (to at most the ceiling). True
        when this flap suppressed it (it was not suppressed before)."""
        p = self.params
        st = self.units.setdefault(unit, UnitState(0.0, now))
        st.penalty = min(decayed(st.penalty, now - st.at, p.half_life_s) + p.penalty, p.ceiling)
        st.at = now
        st.flaps += 1
        if p.enabled and not st.suppressed and st.penalty > p.suppress:
            st.suppressed = True
            return True
        return False

    def suppressed(self, unit: Hashable) -> bool:
        st = self.units.get(unit)
        return st is not None and st.suppressed

    def decay(self, now: float) -> list[Hashable]:
        """Release every suppressed unit whose penalty decayed below ``reuse`` by ``now``
        (returned, in order), and forget the quiet ones."""
        p = self.params
        released = []
        for unit, st in list(self.units.items()):
            pen = decayed(st.penalty, now - st.at, p.half_life_s)
            if st.suppressed and pen < p.reuse:
                st.suppressed = False
                released.append(unit)
            if not st.suppressed and pen < p.reuse / 2:
                del self.units[unit]
        return released

    def status(self, now: float) -> list[dict]:
        """Each unit with a penalty: ``unit``, ``penalty`` (decayed to ``now``), ``suppressed``,
        ``flaps``; for a suppressed one ``release_in_s``: seconds until its penalty is below
        ``reuse`` (if it does not flap again)."""
        p = self.params
        out = []
        for unit, st in self.units.items():
            pen = decayed(st.penalty, now - st.at, p.half_life_s)
            row = {"unit": unit, "penalty": round(pen, 1), "suppressed": st.suppressed, "flaps": st.flaps}
            if st.suppressed:
                row["release_in_s"] = round(max(p.half_life_s * math.log2(pen / p.reuse), 0.0), 1)
            out.append(row)
        return out
