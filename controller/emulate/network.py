"""The network an emulated fabric runs: schedule, routes and the P4 profile it is built for.

Pure computation from the config (no I/O but reading a schedule file): the same
schedule -> routing -> tables chain the daemon runs, so the tests can compare what a
packet did with what the routes planned. The profile is sized for the fabric
(N, d, host ports, S from the schedule, K, H, Q = S) with the slice timing of the
emulation (tens of ms) so the per-slice capacity of a calendar queue is slice x rate.
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

    @cached_property
    def uro_routes(self):
        """URO per-hop routes (§IV): K one-shot alternatives, hop bound M."""
        from controller.routing.uro import UroParams, compute

        r = self.cfg.routing
        return compute(self.schedule, UroParams(k=r.alternatives, max_hops=r.max_hops))

    @cached_property
    def path_routes(self):
        """UCMP source routes (UCMP §5): only computed when some destination uses them."""
        if not self.cfg.routing.source_routed:
            return None
        from controller.routing import ucmp

        return ucmp.compute(self.schedule, ucmp.UcmpParams(h_max=self.cfg.routing.ssrr_hops))
