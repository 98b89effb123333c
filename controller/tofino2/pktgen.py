"""The slice clock on Tofino2: the packet generator's periodic timer application.

URO §IV-B: "We use an on-chip packet generator to reliably send queue control packets
into the data plane at a fixed interval." Each packet can carry ONE advanced-flow-control
word (``ig_intr_md_for_dprsr.adv_flow_ctl``), so a slice boundary needs 2 x d packets:
pause the old active queue on each of the d uplinks, and resume the new one on each uplink.

The slice boundaries are not the generator's: they are decided by the switch's clock
(``global_tstamp``) plus the correction the data plane keeps (the local time of the next
boundary and the local length of a slice, which the synchronization exchanges adjust:
docs/clock.md, docs/tofino2.md "The slice clock"). The generator only gives the data
plane a chance to act: it fires ``ticks`` times per slice (``tick_ns = slice / ticks``,
finer than the slice), and **the trigger whose time crosses the next boundary is the one
that pauses and resumes**; the others change nothing. A boundary is therefore acted on up
to ``tick_ns`` late (the precision of the slice clock on hardware, beside the timestamp's
own), and the generator's packets cost ``2 x d`` frames per ``tick_ns``
(:attr:`TimerPlan.generator_gbps`).

Every trigger generates **two batches of d packets** (batch_id 0 and 1, packet_id = uplink):

- batch 0, packet 0 compares the corrected time with the next boundary (a compare-and-add
  register): if it crossed, the clock ticks (slice, slice number, active queue, epoch);
- batch 0, packet u, if this trigger ticked: pause uplink u's old active queue (and reset
  its byte count and Full bit);
- batch 1, packet u, if this trigger ticked: resume uplink u's new active queue.

The generator emits one packet every ``packet_ns`` (frame + preamble + inter-frame gap at
the generator's rate), so uplink u is paused at ``B + u * packet_ns`` and resumed at
``B1 + u * packet_ns``: every uplink is dark for the same ``dark_ns = B1 - B``. The OCS
reconfigures (for ``guard``) once the last pause has landed, at ``B + (d - 1) *
packet_ns``; the resumes must not start before that plus the guard:

    ibg_ns  = max(guard_ns, packet_ns) - packet_ns   (the inter-batch gap, end of batch 0 to
                                                      batch 1; whole ns, rounded up)
    dark_ns = d * packet_ns + ibg_ns                 (= (d - 1) * packet_ns + max(guard, packet))

That is the **guard band** (no transmission while the circuits reconfigure), widened by
the time the generator needs to walk the uplinks. ``B`` is the first trigger at or after
the boundary, up to ``tick_ns`` after it, so a slice carries ``period - tick_ns - dark_ns``
of traffic per uplink; the calendar-queue capacity is that time at the link rate, in
wire bytes. A trigger's resume batch must end before the next trigger:
``tick_ns >= dark_ns + d * packet_ns``. A profile that breaks it is refused with the
numbers (:class:`TimerPlanError`).

Assumption (to check on hardware): the generator's rate is ``GeneratorSpec.gbps``
(100 Gb/s per pipe) and ``ibg`` is measured from the end of one batch to the start of
the next; both are settings (:mod:`controller.tofino2.settings`).

The FRANCIS-style fast failure reaction (FRANCIS §4.3: the packet generator drives
control on the switch) is a port-down application: when an uplink's link drops, the
generator emits one packet naming the port, and the data plane marks the uplink down in
a register the one-shot lookup reads, so the next packet already avoids it, before the
control plane knows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from controller.errors import UroError
from controller.tofino2 import chip

#: pktgen application ids (any of 0..15; the data plane checks them)
TIMER_APP_ID = 1
PORT_DOWN_APP_ID = 2
#: where the timer packet's payload sits in the generator's buffer (16-byte aligned)
TIMER_BUFFER_OFFSET = 0
#: triggers per slice by default: at most this many (a finer grid costs generator bandwidth),
#: fewer where a trigger's two batches would not fit (``tick_ns >= busy_ns``)
MAX_TICKS = 8
PORT_DOWN_BUFFER_OFFSET = 64


class TimerPlanError(UroError):
    """The slice timing cannot be served by the packet generator; the message has the numbers."""


@dataclass(frozen=True)
class GeneratorSpec:
    """What the generator can do (assumptions, overridable in the deployment settings)."""

    gbps: float = 100.0                      # generated bits per second per pipe
    #: a generated frame on the wire: pkt_len + the 6-byte pktgen header the generator
    #: prepends + the 4-byte FCS it adds (SDE pipe_mgr_tof2_pktgen.c); 70 = the SDE's
    #: default pkt_len of 60, above the Tofino2 minimum of 59
    packet_bytes: int = 70
    max_packets_per_batch: int = 1 << 16     # packet_id is 16 bits
    max_batches: int = 1 << 16               # batch_id is 16 bits

    @property
    def pkt_len(self) -> int:
        """``tf2.pktgen.app_cfg.pkt_len``: the buffer bytes the generator sends."""
        return self.packet_bytes - chip.PKTGEN_HEADER_BYTES - chip.FCS_BYTES

    @property
    def packet_ns(self) -> float:
        """Time the generator needs per packet: frame + preamble/IFG at its rate."""
        return (self.packet_bytes + chip.WIRE_OVERHEAD_BYTES) * 8 / self.gbps


@dataclass(frozen=True)
class TimerPlan:
    """The periodic timer application of one ToR and the slice timing it implies."""

    period_ns: int          # one slice: timer_nanosec
    batches: int            # 2: pause batch, resume batch
    packets_per_batch: int  # d
    ibg_ns: int             # gap from the end of batch 0 to the start of batch 1
    ipg_ns: int             # gap between packets of a batch (0: back to back)
    packet_ns: float        # generator time per packet
    guard_ns: float         # the schedule's reconfiguration guard
    dark_ns: float          # every uplink is paused this long per slice (guard band)
    usable_ns: float        # period - tick - dark: transmission time per uplink per slice
    link_gbps: float
    pkt_len: int            # buffer bytes per packet (the header and FCS are added)
    ticks: int = 1          # generator triggers per slice (the period is period_ns / ticks)
    gen_gbps: float = 100.0  # the generator's rate (GeneratorSpec.gbps)

    @property
    def tick_ns(self) -> int:
        """The generator's period (``timer_nanosec``): how late a boundary may be acted on."""
        return self.period_ns // self.ticks

    @property
    def generator_gbps(self) -> float:
        """What the timer's packets cost: 2 x d generated frames (with preamble and gap) per
        trigger, in Gb/s of the pipe's generator and ingress bandwidth."""
        return self.batches * self.packets_per_batch * self.packet_ns * self.gen_gbps / self.tick_ns

    @property
    def capacity_bytes(self) -> int:
        """Wire bytes one calendar queue carries per slice (usable time x link rate)."""
        return int(self.usable_ns * self.link_gbps / 8)

    @property
    def busy_ns(self) -> float:
        """From the start of the pause batch to the end of the resume batch."""
        return self.dark_ns + self.packets_per_batch * self.packet_ns

    def floor_bytes(self, elapsed_ns: float) -> int:
        """Bytes of the active queue's slice already lost ``elapsed_ns`` after the clock
        ticked (the pause batch started): nothing can be sent before ``dark_ns``, and
        from then on time passes at the link rate (URO §IV-C: the active queue is full
        when its queueing delay exceeds the slice's remaining time)."""
        return max(0, int(math.ceil((elapsed_ns - self.dark_ns) * self.link_gbps / 8)))

    def as_dict(self) -> dict:
        return {
            "period_ns": self.period_ns, "batches": self.batches, "packets_per_batch": self.packets_per_batch,
            "ibg_ns": self.ibg_ns, "ipg_ns": self.ipg_ns, "packet_ns": round(self.packet_ns, 3),
            "guard_ns": self.guard_ns, "dark_ns": round(self.dark_ns, 3), "usable_ns": round(self.usable_ns, 3),
            "capacity_bytes": self.capacity_bytes, "pkt_len": self.pkt_len,
            "ticks": self.ticks, "tick_ns": self.tick_ns, "generator_gbps": round(self.generator_gbps, 3),
        }


def _whole_ns(value_us: float, what: str) -> int:
    ns = value_us * 1000.0
    if not math.isfinite(ns) or abs(ns - round(ns)) > 1e-6:
        raise TimerPlanError(f"{what} = {value_us!r} us is not a whole number of nanoseconds "
                             "(the packet generator's timer counts nanoseconds)")
    return int(round(ns))


def timer_plan(slice_us: float, guard_us: float, uplinks: int, link_gbps: float,
               gen: GeneratorSpec = GeneratorSpec(), ticks: int | None = None,
               corrected: bool = True) -> TimerPlan:
    """The timer application serving ``uplinks`` uplinks with ``slice_us`` slices, firing
    ``ticks`` times per slice (default: :func:`default_ticks`). ``corrected=False``: the
    generator's period is the slice and every trigger ticks the clock (the program's
    ``[tofino2] slice_clock = "generator"``): one trigger per slice, acted on at once.

    Raises :class:`TimerPlanError` when the slice is shorter than the generator needs
    (pause batch + guard + resume batch), when nothing would be left to transmit, when
    the period does not fit the generator's 32-bit nanosecond timer, or when ``ticks`` does
    not divide the slice into whole nanoseconds no shorter than a trigger's two batches.
    """
    if uplinks < 1:
        raise TimerPlanError(f"uplinks = {uplinks}: the timer needs at least one uplink")
    if uplinks > gen.max_packets_per_batch:
        raise TimerPlanError(f"uplinks = {uplinks}: a pktgen batch holds at most {gen.max_packets_per_batch} packets")
    period = _whole_ns(slice_us, "timing.slice_us")
    if not 0 < period < (1 << 32):
        raise TimerPlanError(f"timing.slice_us = {slice_us!r}: the pktgen timer takes 1..{(1 << 32) - 1} ns")
    guard = guard_us * 1000.0
    t = gen.packet_ns
    ibg = int(math.ceil(max(guard, t) - t - 1e-9))      # whole ns, rounded up: never shorter than the guard
    dark = uplinks * t + ibg
    busy = dark + uplinks * t
    if busy > period:
        raise TimerPlanError(
            f"slice of {period} ns is shorter than the packet generator can serve: pausing and resuming "
            f"{uplinks} uplinks takes 2 x {uplinks} timer packets of {t:.2f} ns plus the {guard:g} ns guard "
            f"= {busy:.1f} ns per slice (lengthen timing.slice_us or use fewer uplinks)")
    if not corrected:
        if ticks not in (None, 1):
            raise TimerPlanError(f"tofino2.clock_ticks = {ticks!r}: the generator's clock ticks at every trigger, "
                                 "once per slice (clock_ticks needs slice_clock = \"corrected\")")
        plan = TimerPlan(
            period_ns=period, batches=2, packets_per_batch=uplinks, ibg_ns=ibg, ipg_ns=0,
            packet_ns=t, guard_ns=guard, dark_ns=dark, usable_ns=period - dark, link_gbps=link_gbps,
            pkt_len=gen.pkt_len, ticks=1, gen_gbps=gen.gbps)
        _check_capacity(plan, period, dark, link_gbps, "")
        return plan
    if ticks is None:
        ticks = default_ticks(period, busy)
    if isinstance(ticks, bool) or not isinstance(ticks, int) or ticks < 1 or period % ticks:
        raise TimerPlanError(f"tofino2.clock_ticks = {ticks!r}: the generator's period is slice / ticks in whole "
                             f"nanoseconds, so ticks must divide the {period} ns slice")
    tick = period // ticks
    if tick < busy:
        raise TimerPlanError(
            f"tofino2.clock_ticks = {ticks}: a trigger every {tick} ns is shorter than its two batches "
            f"take ({busy:.1f} ns: 2 x {uplinks} timer packets of {t:.2f} ns plus the {guard:g} ns guard); "
            f"at most {default_ticks(period, busy, cap=period)} ticks per slice")
    # a boundary is acted on at the first trigger at or after it: up to one tick late, so a
    # calendar queue's slice is one tick and the guard band shorter than the slice
    plan = TimerPlan(
        period_ns=period, batches=2, packets_per_batch=uplinks, ibg_ns=ibg, ipg_ns=0,
        packet_ns=t, guard_ns=guard, dark_ns=dark, usable_ns=period - tick - dark, link_gbps=link_gbps,
        pkt_len=gen.pkt_len, ticks=ticks, gen_gbps=gen.gbps)
    _check_capacity(plan, period, dark, link_gbps,
                    f"and the {tick} ns the clock may act late (one trigger of {ticks} per slice) ")
    return plan


def _check_capacity(plan: TimerPlan, period: int, dark: float, link_gbps: float, late: str) -> None:
    if plan.capacity_bytes < chip.MTU_FRAME_BYTES + chip.WIRE_OVERHEAD_BYTES:
        more = " (more ticks per slice: tofino2.clock_ticks)" if late else ""
        raise TimerPlanError(
            f"slice of {period} ns leaves {plan.usable_ns:.1f} ns per uplink after the {dark:.1f} ns guard band "
            f"{late}= {plan.capacity_bytes} bytes at {link_gbps:g} Gb/s, less than one "
            f"{chip.MTU_FRAME_BYTES}-byte frame{more}")


def default_ticks(period_ns: int, busy_ns: float, cap: int = MAX_TICKS) -> int:
    """The most generator triggers per slice, at most ``cap``, that divide the slice into whole
    nanoseconds each at least ``busy_ns`` long (one trigger's two batches); if none but one
    does, the fewest above ``cap`` that do (a slice of a prime number of ns: 1, which the
    capacity check then refuses)."""
    best = max(m for m in range(1, max(1, cap) + 1) if period_ns % m == 0 and period_ns // m >= busy_ns)
    if best > 1:
        return best
    return next((m for m in range(cap + 1, int(period_ns // max(busy_ns, 1)) + 1) if period_ns % m == 0), 1)


@dataclass(frozen=True)
class SliceTimeTable:
    """``slice_time``: elapsed time since the clock ticked, in quanta of 2**shift ns ->
    bytes of the active queue's slice already lost (conservatively at the quantum's end).
    Quanta past the slice end are not listed: the table's default treats the active
    queue as unusable (the next timer is late)."""

    shift: int
    floors: tuple[int, ...]

    @property
    def quantum_ns(self) -> int:
        return 1 << self.shift


def slice_time_table(plan: TimerPlan, max_entries: int = 256) -> SliceTimeTable:
    shift = 0
    while math.ceil(plan.period_ns / (1 << shift)) > max_entries:
        shift += 1
    q = 1 << shift
    n = math.ceil(plan.period_ns / q)
    return SliceTimeTable(shift, tuple(min(plan.capacity_bytes, plan.floor_bytes((i + 1) * q)) for i in range(n)))


# ---- BfRt configuration of the generator (tf2.pktgen.*) ---------------------------------
def timer_packet(pkt_len: int) -> bytes:
    """The generator's buffer of one application: ``pkt_len`` zero bytes (the pktgen
    header is prepended to it; the data plane reads only that header and drops the packet)."""
    if pkt_len < chip.PKTGEN_MIN_PKT_LEN:
        raise TimerPlanError(f"pkt_len = {pkt_len}: Tofino2 generates packets of pkt_len >= "
                             f"{chip.PKTGEN_MIN_PKT_LEN} (pipe_mgr_tof2_pktgen.c)")
    return bytes(pkt_len)


def buffer_offset_after(offset: int, pkt_len: int) -> int:
    """The next 16-byte aligned buffer offset after ``pkt_len`` bytes at ``offset``."""
    return offset + -(-pkt_len // 16) * 16


def timer_app_config(plan: TimerPlan, source_port: int) -> dict:
    """Data of the ``tf2.pktgen.app_cfg`` entry (action ``trigger_timer_periodic``) of the
    timer application: one trigger every ``tick_ns``; counts are written minus one, as the
    SDE expects."""
    return {
        "timer_nanosec": plan.tick_ns,
        "app_enable": False,                       # enabled last, once everything is written
        "pkt_len": plan.pkt_len,
        "pkt_buffer_offset": TIMER_BUFFER_OFFSET,
        "pipe_local_source_port": chip.local_port(source_port),
        "increment_source_port": False,
        "batch_count_cfg": plan.batches - 1,
        "packets_per_batch_cfg": plan.packets_per_batch - 1,
        "ibg": plan.ibg_ns,
        "ibg_jitter": 0,
        "ipg": plan.ipg_ns,
        "ipg_jitter": 0,
        "assigned_chnl_id": chip.local_port(source_port),
    }


def port_down_app_config(source_port: int, packets: int = 1, pkt_len: int = GeneratorSpec().pkt_len,
                         buffer_offset: int = PORT_DOWN_BUFFER_OFFSET) -> dict:
    """Data of the port-down application (action ``trigger_port_down``): one packet naming
    the port that went down; ``port_mask_sel`` 0 selects the ports in ``port_down_mask``."""
    return {
        "port_mask_sel": 0,
        "app_enable": False,
        "pkt_len": pkt_len,
        "pkt_buffer_offset": buffer_offset,
        "pipe_local_source_port": chip.local_port(source_port),
        "increment_source_port": False,
        "batch_count_cfg": 0,
        "packets_per_batch_cfg": packets - 1,
        "assigned_chnl_id": chip.local_port(source_port),
    }


def port_down_mask(dev_ports) -> int:
    """``tf2.pktgen.port_mask`` of the watched ports of one pipe: bit (pipe-local port) per
    port, 72 bits (the SDE's tna_pktgen example: "a 72-bit value per pipe representing the
    72 ports on that pipe"; bf_rt_pktgen_tf2.json port_mask.mask is 9 bytes), written with
    that pipe's target."""
    m = 0
    for p in dev_ports:
        lp = chip.local_port(p)
        if lp >= 72:
            raise TimerPlanError(f"dev port {p}: the port-down mask covers pipe-local ports 0..71")
        m |= 1 << lp
    return m
