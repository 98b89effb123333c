"""The network an emulated fabric runs: its schedule and the P4 profile its programs are
built for.

Pure computation from the config (no I/O but reading a schedule file). The profile is
sized for the fabric (N, d, host ports, S from the schedule, K, H, Q = S) with the slice
timing of the emulation (tens of ms, a guard, the link rate), so the per-slice capacity
of a calendar queue is (slice - guard) x rate and the data plane admits nothing into the
current slice that would not leave before the guard (docs/p4.md "admission"). The routes
are the daemon's (:func:`controller.emulate.daemon.routes`), never computed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from controller.emulate.config import EmuConfig
from controller.p4gen.profile import Profile, ProfileTiming
from controller.schedule import GENERATORS, Schedule, Timing, load


@dataclass(frozen=True)
class Network:
    cfg: EmuConfig

    @cached_property
    def schedule(self) -> Schedule:
        c = self.cfg
        timing = Timing(slice_us=c.slice_us, guard_us=c.guard_ms * 1000.0, propagation_us=0.5, link_gbps=c.link_gbps)
        if c.schedule_file:
            s = load(c.schedule_file)
            return Schedule(s.peer, timing, name=s.name)
        gen = GENERATORS[c.generate]
        kw = {"timing": timing}
        if c.generate != "round-robin":
            kw["seed"] = c.seed
        return gen(c.tors, c.uplinks, **kw)

    @property
    def n_slices(self) -> int:
        return self.schedule.n_slices

    @cached_property
    def profile(self) -> Profile:
        c = self.cfg
        S = self.n_slices
        return Profile(
            name=f"emu{c.tors}x{c.uplinks}h{c.host_ports}", tors=c.tors, uplinks=c.uplinks, host_ports=c.host_ports, slices=S,
            alternatives=c.routing.alternatives, ssrr_hops=c.routing.ssrr_hops, queues=S,
            timing=ProfileTiming(slice_us=c.slice_us, guard_us=c.guard_ms * 1000.0, link_gbps=c.link_gbps),
        )
