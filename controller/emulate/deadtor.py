"""A ToR failure seen on the wire: how soon after the daemon detects it does the
fabric stop sending packets towards the dead ToR (issue 21 part 2; FRANCIS §4.3, URO
§IV-C: the data plane routes around a failed element before new routes exist).

What is watched: every frame the OCS delivers towards ToR ``X`` crosses one of X's
cables' OCS-side wire ends (``plan.uplink_link(X, u).wire_b``), which stay up when X's
switch process is stopped (``uro emulate fail tor X``), so a sniffer there sees, with
kernel timestamps, each packet the neighbours still send towards X. With a ping stream
between all host pairs crossing the fabric (X is a transit ToR of many routes, and its
own host is a destination), the packets towards X are split by the daemon's own times:
before detection, detection -> the last neighbour's (slice, uplink) mask write
(``dataplane_ms``), mask -> new generation active on every ToR (``generation_s``), and
after (up to ``tail_s``).

What the wire cannot tell: whether a packet was *sent* towards X. A neighbour in slice s
masks the (s, u) pairs that lead to X; a packet it sends at the end of its slice s on
uplink u to another ToR still reaches X when the OCS has already moved to slice s + 1
(boundary skew between the switches' timers, docs/emulate.md "Skew at slice
boundaries"; large on a loaded machine). So the figures are rates: packets per second
towards X before detection and between the mask and the new generation. Without the
mask the neighbours keep routing through X at the rate before; with it what is left is
skew.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from controller.emulate import fabric, traffic


@dataclass
class DeadTorReport:
    """Packets the OCS delivered towards the failed ToR, by phase (see the module doc)."""

    tor: int
    detected: float                 # epoch seconds (the daemon's report)
    dataplane_ms: float | None      # detection -> last neighbour's mask written
    generation_s: float | None      # detection -> new generation active on every ToR
    lead_s: float
    before: int                     # packets towards X in the ``lead_s`` before detection
    to_mask: int                    # detection -> mask written
    mask_to_generation: int         # mask written -> new generation
    after_generation: int           # new generation -> its ``tail_s`` later
    late: list[str] = field(default_factory=list)   # the first after the mask: "+ms iface src > dst ..."
    pings: tuple[int, int] = (0, 0)                 # (lost, sent) over the whole measurement

    @property
    def rate_before(self) -> float:
        """Packets per second towards X before detection."""
        return self.before / self.lead_s

    @property
    def rate_masked(self) -> float | None:
        """Packets per second towards X between the mask and the new generation."""
        if self.dataplane_ms is None or self.generation_s is None:
            return None
        span = self.generation_s - self.dataplane_ms / 1e3
        return self.mask_to_generation / span if span > 0 else None

    def line(self) -> str:
        dp = "no mask" if self.dataplane_ms is None else f"{self.dataplane_ms:.1f} ms"
        gen = "none" if self.generation_s is None else f"{self.generation_s:.2f} s"
        masked = "-" if self.rate_masked is None else f"{self.rate_masked:.1f}/s"
        return (f"tor {self.tor} failed: mask on every neighbour {dp} and new generation {gen} after detection; "
                f"packets towards it {self.rate_before:.1f}/s before, {masked} between mask and new generation "
                f"({self.before} / {self.to_mask} until the mask / {self.mask_to_generation} / "
                f"{self.after_generation} after)")


def _epoch(iso: str) -> float:
    """The daemon's report times (``controller._iso``: UTC, microseconds, ``Z``) as epoch seconds."""
    return datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


def measure(prefix: str, tor: int, state_root: str | Path = "/run/uro-emu", lead_s: float = 3.0,
            tail_s: float = 2.0, interval_s: float = 0.5, recover: bool = True) -> DeadTorReport:
    """Fail ToR ``tor`` of a running fabric (daemon included) under a ping stream between
    all pairs, measure the packets towards it (module doc), then recover it (unless
    ``recover`` is false). The fabric must have nothing failed."""
    from scapy.all import AsyncSniffer

    plan = fabric.need_plan(prefix, state_root)
    if fabric.read_failures(fabric.state_dir(state_root, prefix)):
        raise fabric.FabricError(f"fabric {prefix}: elements are failed already: recover them first")
    if not 0 <= tor < plan.tors:
        raise fabric.FabricError(f"tor {tor}: ToR must be in 0..{plan.tors - 1}")
    ifaces = [plan.uplink_link(tor, u).wire_b for u in range(plan.uplinks)]
    n = int((lead_s + tail_s + 60) / interval_s)
    streams = [traffic.PingStream(plan, a, b, n, interval_s) for a, b in traffic.all_pairs(plan)]
    sniffer = AsyncSniffer(iface=ifaces, filter="ip", store=True)
    sniffer.start()
    failed = False
    try:
        time.sleep(lead_s)
        fabric.fail(prefix, "tor", [tor], state_root)
        failed = True
        rep = next(e for e in reversed(fabric.status(prefix, state_root)["daemon"]["failures"]["events"])
                   if e["op"] == "fail" and e["kind"] == "tor" and e["target"] == tor)
        t_det = _epoch(rep["detected"])
        t_gen = None if rep.get("generation_s") is None else t_det + rep["generation_s"]
        t_end = (t_gen or time.time()) + tail_s
        time.sleep(max(0.0, t_end - time.time()))
    finally:
        pkts = sniffer.stop() or []
        lost, sent = traffic.finish_all(streams, timeout=10)
        if failed and recover:
            fabric.recover(prefix, "tor", [tor], state_root)
    return split(tor, [(float(p.time), _describe(p)) for p in pkts], t_det, rep.get("dataplane_ms"),
                 rep.get("generation_s"), lead_s, t_end, (lost, sent))


def _describe(p) -> str:
    ip = p.getlayer("IP")
    return f"{getattr(p, 'sniffed_on', '?')} {ip.src} > {ip.dst} proto {ip.proto} ttl {ip.ttl}" if ip else p.summary()


def split(tor: int, seen: list[tuple[float, str]], t_det: float, dataplane_ms: float | None,
          generation_s: float | None, lead_s: float, t_end: float, pings: tuple[int, int] = (0, 0)) -> DeadTorReport:
    """The packets seen towards the failed ToR (``(epoch, description)``) by phase: the
    ``lead_s`` before detection ``t_det``; detection -> mask (``dataplane_ms`` after it;
    none: no mask, every later packet counts as before the mask); mask -> new generation
    (``generation_s``; none: never); after, up to ``t_end`` (epoch)."""
    seen = sorted(x for x in seen if t_det - lead_s <= x[0] < t_end)
    edge_mask = float("inf") if dataplane_ms is None else t_det + dataplane_ms / 1e3
    edge_gen = float("inf") if generation_s is None else t_det + generation_s
    times = [t for t, _ in seen]
    return DeadTorReport(
        tor=tor, detected=t_det, dataplane_ms=dataplane_ms, generation_s=generation_s, lead_s=lead_s,
        before=sum(1 for t in times if t < t_det),
        to_mask=sum(1 for t in times if t_det <= t < edge_mask),
        mask_to_generation=sum(1 for t in times if edge_mask <= t < edge_gen),
        after_generation=sum(1 for t in times if t >= max(edge_gen, t_det)),
        late=[f"+{(t - t_det) * 1e3:.0f} ms {d}" for t, d in seen if t >= edge_mask][:20],
        pings=pings)
