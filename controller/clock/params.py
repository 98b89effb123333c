"""The slice clock's parameters, and what one switch's ``clock_config`` entry holds.

:class:`ClockParams` is the network-wide ``[clock]`` configuration in nanoseconds
(docs/clock.md "Modes and configuration"; the daemon's config reads the user's keys into
it). :meth:`ClockParams.tor_config` derives one ToR's :class:`ClockConfig`: the values
the data plane's ``clock_config`` default entry carries, precomputed so the switch only
compares, adds and shifts (the exchange window, the bounds of the local slice length,
the election's waits in slices). :class:`OcsClockConfig` is the OCS emulator's (the
reference: a mode and the slice length).

Every check names the ``[clock]`` key and gives the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.clock.message import MAX_TOR
from controller.errors import UroError

#: the data plane's clock modes (``clock_config.mode``; no entry = timer)
MODE_TIMER = 0
MODE_SYNC = 1
MODES = {"timer": MODE_TIMER, "sync": MODE_SYNC}
#: ``phase`` and the local slice length are 32-bit ns
MAX_SLICE_NS = (1 << 32) - 1
#: how far the local slice length may move from L (the rate correction's bound); a drift
#: beyond it cannot be tracked (crystals are within +-100 ppm)
DEFAULT_MAX_DRIFT_PPM = 1000
#: how far one applied exchange may move the local slice length (ppm of L): a drift of
#: +-200 ppm is learnt within 20 applied exchanges, and an exchange whose path delay was
#: asymmetric moves the rate by no more than this (docs/clock.md "The servo")
DEFAULT_RATE_STEP_PPM = 10
#: the clock filter's least delay creeps up by filter / 2^FILTER_CREEP_SHIFT per exchange
#: on its uplink (so a route whose delay grew is taken again after a few dozen exchanges)
FILTER_CREEP_SHIFT = 4
#: a lead candidate's rank is 8 bits; 255 = not a candidate
NOT_CANDIDATE = 255
U32 = (1 << 32) - 1


class ClockConfigError(UroError):
    """A ``[clock]`` value is invalid; the message names the key and the numbers."""


@dataclass(frozen=True)
class ClockParams:
    """The network's slice clock (times in ns). Defaults as docs/clock.md says:
    ``max_offset_ns`` L / 4, ``max_delay_ns`` L / 8, ``leads`` (0, 1)."""

    slice_ns: int
    guard_ns: int = 0
    mode: str = "sync"
    leads: tuple[int, ...] = (0, 1)
    ref_uplink: int = 0
    exchange_every: int = 1
    max_offset_ns: int | None = None
    max_delay_ns: int | None = None
    refuse_limit: int = 3
    holdover_cycles: int = 2
    servo_shift: int = 4
    phase_shift: int = 0
    max_drift_ppm: int = DEFAULT_MAX_DRIFT_PPM
    filter_ns: int | None = None
    rate_step_ppm: int = DEFAULT_RATE_STEP_PPM
    _checked: bool = field(default=False, repr=False, compare=False)

    @property
    def offset_bound(self) -> int:
        return self.slice_ns // 4 if self.max_offset_ns is None else self.max_offset_ns

    @property
    def delay_bound(self) -> int:
        return self.slice_ns // 8 if self.max_delay_ns is None else self.max_delay_ns

    @property
    def filter_bound(self) -> int:
        """The clock filter's bound (ns): an exchange is used for the servo only when its
        path delay is within this of the least delay recently seen on its uplink (default:
        an eighth of ``max_delay``). An exchange's offset is off by at most its delay's
        excess over the true path delay, so this bounds how far off an exchange the servo
        takes can be (plus the least delay's own asymmetry)."""
        return self.delay_bound // 8 if self.filter_ns is None else self.filter_ns

    @property
    def filter_creep(self) -> int:
        """How much the least delay recently seen grows per exchange on its uplink (ns, at
        least 1): the minimum ages, so a route change that lengthens the path is followed."""
        return max(1, self.filter_bound >> FILTER_CREEP_SHIFT)

    @property
    def rate_step(self) -> int:
        """The most one applied exchange moves the local slice length (ns, at least 1)."""
        return max(1, self.slice_ns * self.rate_step_ppm // 1_000_000)

    @property
    def window(self) -> tuple[int, int]:
        """(first, last) phase at which a ToR starts an exchange: after the guard, and early
        enough that the REQ and its RESP both cross this slice's circuit."""
        return self.guard_ns, self.slice_ns - self.guard_ns - 2 * self.delay_bound

    def trigger_period(self, uplinks: int) -> int:
        """The packet generator's period per ToR (ns; TRIGGERs name the uplinks in turn)
        that puts a TRIGGER of every uplink in every exchange window even when each comes
        up to a quarter window late: each uplink's TRIGGERs are ``3/4 x window`` apart.

        A TRIGGER only starts an exchange (the slice itself comes from the switch's clock on
        every packet), and one exchange per uplink per ``exchange_every`` slices is all the
        clock takes (HOHO section 4: a ToR synchronizes once per cycle; here once per
        slice). Every TRIGGER beyond that is a pass the switch spends to say ``not_due`` or
        ``outside_window``: on a software switch they were most of a ToR's passes, and the
        data waited behind them (docs/clock.md "Where misaligned frames come from")."""
        lo, hi = self.window
        return max(1, (hi - lo) * 3 // 4 // max(1, uplinks))

    @property
    def len_bounds(self) -> tuple[int, int]:
        """(min, max) local slice length: L -+ max_drift_ppm."""
        d = self.slice_ns * self.max_drift_ppm // 1_000_000
        return self.slice_ns - d, self.slice_ns + d

    # ---- validation ------------------------------------------------------------------------
    def problems(self, tors: int, uplinks: int, slices: int) -> list[str]:
        """Every reason these parameters do not suit a network of ``tors`` x ``uplinks``
        with ``slices`` slices (empty: fine)."""
        out: list[str] = []

        def integer(name: str, v, lo: int, hi: int, key: str | None = None, unit: int = 1) -> bool:
            key = key or name
            if not isinstance(v, int) or isinstance(v, bool):
                out.append(f"[clock] {key} must be an integer, got {v!r}")
                return False
            if not lo <= v <= hi:
                out.append(f"[clock] {key} must be in {-(-lo // unit)}..{hi // unit}, got {f'{v / unit:g}' if unit > 1 else v}")
                return False
            return True

        if self.mode not in MODES:
            out.append(f"[clock] mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if not integer("slice_ns", self.slice_ns, 1000, MAX_SLICE_NS, "slice length (ns)"):
            return out
        L = self.slice_ns
        integer("guard_ns", self.guard_ns, 0, L - 1, "guard (ns)")
        integer("ref_uplink", self.ref_uplink, 0, uplinks - 1)
        integer("exchange_every", self.exchange_every, 1, 1 << 16)
        integer("refuse_limit", self.refuse_limit, 1, 255)
        integer("holdover_cycles", self.holdover_cycles, 1, 1 << 16)
        integer("servo_shift", self.servo_shift, 0, 31)
        integer("phase_shift", self.phase_shift, 0, 8)
        if integer("max_drift_ppm", self.max_drift_ppm, 1, 100_000) and L + L * self.max_drift_ppm // 1_000_000 > U32:
            out.append(f"[clock] a slice of {L} ns plus max_drift_ppm = {self.max_drift_ppm} does not fit "
                       f"the 32-bit local slice length ({U32} ns)")
        integer("rate_step_ppm", self.rate_step_ppm, 1,
                self.max_drift_ppm if isinstance(self.max_drift_ppm, int) and self.max_drift_ppm >= 1 else 100_000)
        # the config's keys are in us: so are the numbers the message gives
        ok_off = integer("max_offset_ns", self.offset_bound, 1, L - 1, "max_offset_us", unit=1000)
        ok_del = integer("max_delay_ns", self.delay_bound, 1, L - 1, "max_delay_us", unit=1000)
        if not isinstance(self.leads, (tuple, list)) or not self.leads:
            out.append(f"[clock] leads must be a non-empty list of ToR ids, got {self.leads!r}")
        else:
            for i, t in enumerate(self.leads):
                if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < min(tors, MAX_TOR + 1):
                    out.append(f"[clock] leads[{i}] = {t!r} is not a ToR (0..{tors - 1})")
            if len(set(self.leads)) != len(self.leads):
                out.append(f"[clock] leads {list(self.leads)} name a ToR twice")
            if len(self.leads) >= NOT_CANDIDATE:
                out.append(f"[clock] leads: at most {NOT_CANDIDATE - 1} candidates, got {len(self.leads)}")
        if out or not (ok_off and ok_del):
            return out
        f = self.filter_ns
        if f is not None and (not isinstance(f, int) or isinstance(f, bool) or not 0 <= f <= self.delay_bound):
            out.append(f"[clock] filter_us must be in 0..max_delay_us ({self.delay_bound / 1000:g} us: an exchange "
                       f"slower than that is not used anyway), got {f / 1000 if isinstance(f, int) else f!r}")
        lo, hi = self.window
        if lo > hi:
            out.append(f"[clock] a slice of {L / 1000:g} us cannot hold an exchange: it needs 2 x guard "
                       f"({self.guard_ns / 1000:g} us) + 2 x max_delay ({self.delay_bound / 1000:g} us) = "
                       f"{(2 * self.guard_ns + 2 * self.delay_bound) / 1000:g} us")
        waits = (self.holdover_cycles + len(self.leads)) * slices * self.exchange_every
        if waits >= 1 << 31:
            out.append(f"[clock] holdover_cycles = {self.holdover_cycles} with {len(self.leads)} leads and "
                       f"{slices} slices waits {waits} slices, more than the 31 bits the switch compares")
        return out

    def check(self, tors: int, uplinks: int, slices: int) -> "ClockParams":
        """These parameters, or :class:`ClockConfigError` with every problem on one line."""
        problems = self.problems(tors, uplinks, slices)
        if problems:
            raise ClockConfigError("; ".join(problems))
        return self

    # ---- per switch ----------------------------------------------------------------------
    def rank(self, tor: int) -> int:
        """``tor``'s rank among the lead candidates (NOT_CANDIDATE if it is none)."""
        return self.leads.index(tor) if tor in self.leads else NOT_CANDIDATE

    def lead_at_start(self, tor: int) -> bool:
        """``tor`` is the lead candidate ranked first (``leads[0]``): the one the data
        plane's election makes the lead at start (its ``start_wait`` is 0: it claims the
        first term at once, docs/clock.md "The tree and the election"). A program that keeps
        no election (t2na) is told so at its seed and holds stratum 1."""
        return self.rank(tor) == 0

    def tor_config(self, tor: int, tors: int, uplinks: int, slices: int) -> "ClockConfig":
        """ToR ``tor``'s ``clock_config`` values (checked first)."""
        self.check(tors, uplinks, slices)
        if not isinstance(tor, int) or not 0 <= tor < tors:
            raise ClockConfigError(f"ToR {tor!r} is not in the network (0..{tors - 1})")
        lo, hi = self.window
        lmin, lmax = self.len_bounds
        r = self.rank(tor)
        cand = r != NOT_CANDIDATE
        return ClockConfig(
            mode=MODES[self.mode], my_tor=tor, slice_ns=self.slice_ns, window_lo=lo, window_hi=hi,
            max_delay=self.delay_bound, max_offset=self.offset_bound, len_min=lmin, len_max=lmax,
            servo_shift=self.servo_shift, phase_shift=self.phase_shift, filter=self.filter_bound, filter_creep=self.filter_creep,
            rate_step=self.rate_step, refuse_limit=self.refuse_limit, candidate=int(cand),
            ref_uplink=self.ref_uplink, exchange_every=self.exchange_every,
            claim_wait=(self.holdover_cycles + r) * slices if cand else 0,
            start_wait=r * slices if cand else 0,
            search_wait=self.holdover_cycles * slices * self.exchange_every)

    def ocs_config(self) -> "OcsClockConfig":
        return OcsClockConfig(mode=MODES[self.mode], slice_ns=self.slice_ns)


@dataclass(frozen=True)
class ClockConfig:
    """One ToR's ``clock_config`` default entry (``set_clock``), field for parameter.

    ``window_lo``..``window_hi``: the phases (ns) at which a TRIGGER may start an exchange;
    ``len_min``..``len_max``: the bounds of the local slice length (the rate correction);
    ``filter``: an exchange whose path delay exceeds the least one recently seen on its
    uplink by more is not used by the servo (NTP's clock filter), that least delay growing
    by ``filter_creep`` per exchange; ``rate_step``: the most one applied exchange moves the
    local slice length; ``phase_shift``: an applied exchange moves the boundary by
    ``theta >> phase_shift`` (towards 0) while ``|theta| <= 2 x filter``, by ``theta`` beyond;
    ``claim_wait``: slices the lead may be silent before this candidate claims
    (``(holdover_cycles + rank) x S``); ``start_wait``: the same with no term yet
    (``rank x S``); ``search_wait``: slices without a correction after which a ToR
    addresses its requests to whoever the circuit brings (BOOT, ``dst_tor`` 0xFFFE), as
    an unsynchronized one does: a clock that jumped by more than the exchange window
    reaches no peer its slice names (``holdover_cycles x S x exchange_every``)."""

    mode: int
    my_tor: int
    slice_ns: int
    window_lo: int
    window_hi: int
    max_delay: int
    max_offset: int
    len_min: int
    len_max: int
    servo_shift: int
    phase_shift: int
    filter: int
    filter_creep: int
    rate_step: int
    refuse_limit: int
    candidate: int
    ref_uplink: int
    exchange_every: int
    claim_wait: int
    start_wait: int
    search_wait: int

    def params(self) -> dict[str, int]:
        """The action parameters by name (what the table builder writes)."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class OcsClockConfig:
    """The OCS emulator's ``clock_config`` default entry: it is the reference, nothing
    corrects it; it only needs the mode and the slice length."""

    mode: int
    slice_ns: int

    def params(self) -> dict[str, int]:
        return dict(self.__dict__)
