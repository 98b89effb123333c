"""A ToR failure seen on the wire: how soon after the daemon detects it does the
fabric stop sending packets towards the dead ToR (FRANCIS §4.3, URO
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

The mask's own promise is checked packet by packet with the daemon's timer log
(``GET /clock/timers``: when each switch was sent each slice's timer). A packet seen at
X's wire end of uplink ``u`` at time t left the OCS in the slice s' of the OCS's last
timer before t, so it came from N = peer[s', X, u]; N was in the slice s of *its* last
timer before t. If s' = s (the OCS and N agreed), N sent it on a (slice, uplink) whose
circuit leads to X: **sent towards X**. If not, it is boundary skew (N sent it towards
another ToR, the OCS had moved on). A packet within ``boundary_ms`` of a timer of N or
of the OCS is not classified (the timer may not have reached the switch yet), only
counted. Of the packets their hosts sent after every neighbour's mask was acknowledged
(the echo's own send time, :func:`sent_at`; every decision about such a packet met the
mask) the count sent towards X must be 0 (:attr:`DeadTorReport.towards_after_mask`).
A packet sent before may have been decided before the write and still sit in a loaded
bmv2 (its queues drain hundreds of ms late at load 20): not counted; a packet without a
send time counts from the mask + ``margin_ms`` on, by its wire time. (A packet held for
a later slice is looked up again against the mask when it is released, so nothing
queued for a slice escapes it: bmv2_tests/test_dead_tor.py.) Before the failure the
count is the baseline, which must not be 0 or the check proves nothing (:func:`measure`
raises then).

The sniffer is started and waited for (scapy's ``started_callback``) before any traffic
starts, its thread's exception is raised, and it must have seen packets on the wire
before the failure is declared (a sniffer that sees nothing would make every figure 0).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from controller.daemon.client import request
from controller.daemon.log import epoch
from controller.emulate import daemon as dmn, fabric, traffic
from controller.errors import UroError


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
    t_end: float = 0.0                              # epoch: the end of the window
    per_switch_ms: dict[str, float] | None = None   # detection -> each neighbour's mask acked (daemon's report)
    boundary_ms: float = 0.0                        # a packet this close to a timer is not classified
    margin_ms: float = 0.0                          # after the last mask: packets already in a switch
    towards_before: int = 0                         # sent towards X (module doc) before detection
    towards_after_mask: int = 0                     # ... after the mask + margin (to the window's end)
    towards_mask_to_gen: int = 0                    # ... of those, before the new generation
    skew_after_mask: int = 0                        # boundary skew after the mask (reported)
    unclassified_after_mask: int = 0                # within boundary_ms of a timer (reported)
    towards_late: list[str] = field(default_factory=list)   # those sent towards X after the mask, if any
    send_times: int = 0                             # packets after detection whose host's send time was read
    held_s: float = 0.0                             # the new routes held back after detection (hold_packets)

    @property
    def rate_before(self) -> float:
        """Packets per second towards X before detection."""
        return self.before / self.lead_s

    @property
    def rate_towards_before(self) -> float:
        """Packets per second a neighbour sent towards X (timer log) before detection."""
        return self.towards_before / self.lead_s

    @property
    def rate_towards_after(self) -> float | None:
        """... from the last mask + margin to the end of the window."""
        if self.dataplane_ms is None or not self.t_end:
            return None
        span = self.t_end - (self.detected + (self.dataplane_ms + self.margin_ms) / 1e3)
        return self.towards_after_mask / span if span > 0 else None

    @property
    def expected_without_mask(self) -> float | None:
        """Packets sent towards X from the mask + margin to the new generation if the
        neighbours had gone on at the rate before (what the routes do without a mask)."""
        if self.dataplane_ms is None or self.generation_s is None:
            return None
        return self.rate_towards_before * max(0.0, self.generation_s - (self.dataplane_ms + self.margin_ms) / 1e3)

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
        if self.held_s:
            gen += f" (routes held {self.held_s:.2f} s)"
        masked = "-" if self.rate_masked is None else f"{self.rate_masked:.1f}/s"
        return (f"tor {self.tor} failed: mask on every neighbour {dp} and new generation {gen} after detection; "
                f"packets towards it {self.rate_before:.1f}/s before, {masked} between mask and new generation "
                f"({self.before} / {self.to_mask} until the mask / {self.mask_to_generation} / "
                f"{self.after_generation} after); sent towards it by a neighbour (timer log) "
                f"{self.towards_before} before, {self.towards_after_mask} after the mask + {self.margin_ms:g} ms "
                f"({self.towards_mask_to_gen} before the new generation"
                + ("" if self.expected_without_mask is None else
                   f", {self.expected_without_mask:.1f} at the rate before") + ") "
                f"({self.skew_after_mask} boundary skew, {self.unclassified_after_mask} within "
                f"{self.boundary_ms:g} ms of a timer); {self.send_times} packets after detection judged by "
                f"their send time")

    def mask_ms(self) -> tuple[float, float] | None:
        """(median, max) over the neighbours of detection -> their mask acknowledged."""
        v = sorted((self.per_switch_ms or {}).values())
        if not v:
            return None
        n = len(v)
        return ((v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2), v[-1])


class SnifferError(RuntimeError):
    """The wire sniffer did not start, failed, or saw nothing (the figures would be 0)."""


class WireSniffer:
    """scapy's AsyncSniffer on the wire ends, started and *waited for* (its
    ``started_callback``), its thread's exception raised, its packets counted as they
    come (so the caller can wait until it sees traffic before relying on it)."""

    def __init__(self, ifaces: list[str], start_timeout: float = 30.0):
        from scapy.all import AsyncSniffer

        self.ifaces = ifaces
        self.seen = 0
        self._started = threading.Event()
        self._s = AsyncSniffer(iface=ifaces, filter="ip", store=True, prn=self._count,
                               started_callback=self._started.set)
        self._s.start()
        end = time.monotonic() + start_timeout
        while not self._started.wait(0.05):
            self._raise_if_failed()
            if time.monotonic() > end:
                self._abandon()
                raise SnifferError(f"the sniffer on {', '.join(ifaces)} did not start within {start_timeout:g} s")

    def _count(self, _p) -> None:
        self.seen += 1

    def _raise_if_failed(self) -> None:
        e = self._s.exception
        if e is not None:
            raise SnifferError(f"the sniffer on {', '.join(self.ifaces)} failed: {e!r}") from e
        if self._s.thread is not None and not self._s.thread.is_alive() and not self._started.is_set():
            raise SnifferError(f"the sniffer on {', '.join(self.ifaces)} ended before it started")

    def wait_traffic(self, n: int, timeout: float) -> None:
        """Until ``n`` packets were seen; raises SnifferError (with what it saw) if not."""
        end = time.monotonic() + timeout
        while self.seen < n:
            self._raise_if_failed()
            if not self._s.thread.is_alive():
                raise SnifferError(f"the sniffer on {', '.join(self.ifaces)} stopped after {self.seen} packet(s)")
            if time.monotonic() > end:
                raise SnifferError(f"the sniffer on {', '.join(self.ifaces)} saw {self.seen} packet(s) in "
                                   f"{timeout:g} s of traffic (wanted {n}): no traffic crosses these wire ends")
            time.sleep(0.05)

    def stop(self) -> list:
        """The packets seen; raises SnifferError if its thread failed."""
        self._raise_if_failed()
        pkts = self._s.stop()
        self._raise_if_failed()
        return list(pkts or [])

    def _abandon(self) -> None:
        try:
            self._s.stop()
        except Exception:
            pass


def measure(prefix: str, tor: int, state_root: str | Path = "/run/uro-emu", lead_s: float = 3.0,
            tail_s: float = 2.0, interval_s: float = 0.5, recover: bool = True, boundary_ms: float = 10.0,
            margin_ms: float | None = None, told_ms: float = 0.0, min_seen: int = 48,
            max_lead_s: float = 30.0, hold_packets: int = 0) -> DeadTorReport:
    """Fail ToR ``tor`` of a running fabric (daemon included) under a ping stream between
    all pairs, measure the packets towards it (module doc), then recover it (unless
    ``recover`` is false). The fabric must have nothing failed. ``margin_ms`` defaults to
    one slice. The baseline lasts ``lead_s`` and then until the wire ends have seen
    ``min_seen`` packets (at most ``max_lead_s``): on a loaded machine the pings thin out
    (4/s instead of tens) and a fixed lead leaves too few packets to compare with; the
    report's ``lead_s`` is the lead it got. ``hold_packets``: the daemon holds the new
    routes back (``hold_routes_s`` of ``POST /fail``) until about that many packets would
    have crossed the wire ends at the baseline's rate (at least 1 s, at most ``max_lead_s``):
    the mask alone acts over a window long enough to be measured, whatever the load (without
    it the new generation may come ~0.1 s after detection, when about one packet is expected
    towards the ToR and the mask's effect cannot be told from the routes'). Raises
    SnifferError when no packet was sent towards ``tor`` before the failure (nothing to
    compare with)."""
    plan = fabric.need_plan(prefix, state_root)
    sdir = fabric.state_dir(state_root, prefix)
    if fabric.read_failures(sdir):
        raise fabric.FabricError(f"fabric {prefix}: elements are failed already: recover them first")
    if not 0 <= tor < plan.tors:
        raise fabric.FabricError(f"tor {tor}: ToR must be in 0..{plan.tors - 1}")
    routes = dmn.routes(sdir / "net.toml")
    n_slices = routes.schedule.n_slices
    clock = dmn.Clock(plan, n_slices)
    # the daemon's slice clock is CLOCK_MONOTONIC; the wire's timestamps are epoch
    mono_to_epoch = time.time() - time.monotonic()
    margin_ms = clock.slice_s * 1e3 if margin_ms is None else margin_ms
    ifaces = [plan.uplink_link(tor, u).wire_b for u in range(plan.uplinks)]
    max_lead_s = max(lead_s, max_lead_s)
    n = int((max_lead_s + tail_s + 60) / interval_s)
    sniffer = WireSniffer(ifaces)
    streams = [traffic.PingStream(plan, a, b, n, interval_s) for a, b in traffic.all_pairs(plan)]
    failed = False
    try:
        sniffer.wait_traffic(5, timeout=max(10.0, 4 * n_slices * clock.slice_s))
        t_lead, seen0 = time.time(), sniffer.seen
        time.sleep(lead_s)
        while sniffer.seen - seen0 < min_seen and time.time() - t_lead < max_lead_s:
            time.sleep(0.1)
        lead_s = time.time() - t_lead
        hold_s = 0.0
        if hold_packets:
            hold_s = min(max_lead_s, max(1.0, hold_packets * lead_s / max(1, sniffer.seen - seen0)))
        fabric.fail(prefix, "tor", [tor], state_root, hold_routes_s=round(hold_s, 3))
        failed = True
        rep = next(e for e in reversed(fabric.status(prefix, state_root)["daemon"]["failures"]["events"])
                   if e["op"] == "fail" and e["kind"] == "tor" and e["target"] == tor)
        t_det = epoch(rep["detected"])
        t_gen = None if rep.get("generation_s") is None else t_det + rep["generation_s"]
        t_end = (t_gen or time.time()) + tail_s
        time.sleep(max(0.0, t_end - time.time()))
    finally:
        try:
            pkts = sniffer.stop()
        finally:
            lost, sent = traffic.finish_all(streams, timeout=10)
            if failed and recover:
                fabric.recover(prefix, "tor", [tor], state_root)
    out = split(tor, [(float(p.time), _describe(p)) for p in pkts], t_det, rep.get("dataplane_ms"),
                rep.get("generation_s"), lead_s, t_end, (lost, sent))
    out.per_switch_ms = rep.get("dataplane_switch_ms")
    out.held_s = rep.get("hold_routes_s", 0.0)
    try:
        timers = request(dmn.address(plan), "GET", "/clock/timers", timeout=10.0)["timers"]
    except UroError:
        timers = None             # a daemon without the timer log (an older tree): no classification
    if timers is None:
        return out
    up = {w: u for u, w in enumerate(ifaces)}
    seen = [(float(p.time) - mono_to_epoch, up.get(getattr(p, "sniffed_on", None)), _describe(p),
             None if (o := sent_at(p, float(p.time))) is None else o - mono_to_epoch) for p in pkts]
    classify(out, seen, timers, routes.schedule.peer, "ocs", boundary_ms, margin_ms,
             t_end - mono_to_epoch, t_det - mono_to_epoch, told_ms)
    if out.towards_before == 0:
        raise SnifferError(f"no packet was sent towards tor {tor} before it failed ({out.before} seen in all, "
                           f"{len(pkts)} sniffed, pings lost {lost}/{sent}): nothing to compare with")
    return out


def mask_lines(log: Path, since: float) -> list[str]:
    """The daemon's ``mask.written`` events (JSON log) since epoch ``since``: per switch
    the wait for the control thread (queued), the config lock, the I/O lock and the write."""
    import json

    out = []
    try:
        lines = log.read_text(errors="replace").splitlines()
    except FileNotFoundError:
        return out
    for line in lines:
        if '"mask.written"' not in line:
            continue
        try:
            ev = json.loads(line)
            t = epoch(ev["ts"]) if "ts" in ev else since
        except (ValueError, KeyError):
            continue
        if t >= since:
            out.append(f"{ev['switch']} {ev['since_detection_ms']:.1f} ms (queued {ev['queued_ms']:.1f}, "
                       f"thread {ev.get('thread_ms', float('nan')):.1f}, "
                       f"cfg lock {ev['cfg_lock_ms']:.1f}, io lock {ev['lock_wait_ms'] - ev['cfg_lock_ms']:.1f}, "
                       f"write {ev['write_ms']:.1f})")
    return out


def _slice_at(times: list[float], sids: list[int], t: float) -> int | None:
    """The slice id of the last timer sent at or before ``t`` (times sorted)."""
    import bisect

    i = bisect.bisect_right(times, t) - 1
    return sids[i] if i >= 0 else None


def _near(times: list[float], t: float, before: float, after: float) -> bool:
    """A timer was sent within [t - before, t + after]."""
    import bisect

    i = bisect.bisect_left(times, t - before)
    return i < len(times) and times[i] <= t + after


def classify(r: DeadTorReport, seen: list[tuple[float, int | None, str]], timers: list, peer, ocs: str,
             boundary_ms: float, margin_ms: float, t_end: float, t_det: float,
             told_ms: float = 0.0) -> DeadTorReport:
    """Fill ``r``'s counts of packets sent towards ToR ``r.tor`` (module doc).

    ``seen``: (time, uplink of ``r.tor`` it arrived on, description), times on the
    daemon's clock; ``timers``: the daemon's timer log ``[k, slice id, {switch: sent}]``;
    ``seen`` items may carry a fourth field, the time the packet's host sent it (epoch on
    the daemon's clock, :func:`sent_at`; None: unknown); after detection such a packet
    counts only if sent after the last mask was acknowledged, whenever it reached the
    wire (a packet decided before the mask may leave a starved bmv2 hundreds of ms later).
    ``peer[s][t][u]``: the ToR uplink ``u`` of ToR ``t`` reaches in slice ``s``; ``ocs``:
    the OCS switch's name; ``t_det``/``t_end``: detection and the end of the window (the
    ``lead_s`` before detection is the baseline). The sender must have been sent its
    timer at least ``told_ms`` (and 2 x ``boundary_ms``) before the packet: a ToR takes a
    timer later than the daemon hands it to gRPC, tens of ms on a loaded machine."""
    x = r.tor
    per: dict[str, tuple[list[float], list[int]]] = {}
    for _k, sid, sent in sorted(timers, key=lambda e: e[0]):
        for name, ts in sent.items():
            lst = per.setdefault(name, ([], []))
            lst[0].append(float(ts))
            lst[1].append(int(sid))
    for lst in per.values():                 # one clock: sent in k order, but be safe
        order = sorted(range(len(lst[0])), key=lst[0].__getitem__)
        lst[0][:] = [lst[0][i] for i in order]
        lst[1][:] = [lst[1][i] for i in order]
    r.boundary_ms, r.margin_ms = boundary_ms, margin_ms
    r.towards_before = r.towards_after_mask = r.towards_mask_to_gen = 0
    r.skew_after_mask = r.unclassified_after_mask = 0
    r.towards_late = []
    r.send_times = 0
    if r.dataplane_ms is None or ocs not in per:
        return r
    t_mask = t_det + (r.dataplane_ms + margin_ms) / 1e3
    b = boundary_ms / 1e3
    told = max(2 * b, told_ms / 1e3)
    ocs_t, ocs_s = per[ocs]
    t_masked = t_det + r.dataplane_ms / 1e3
    for item in sorted(seen, key=lambda e: e[0]):
        t, u, d = item[:3]
        origin = item[3] if len(item) > 3 else None
        if u is None or t < t_det - r.lead_s or t >= t_end:
            continue
        before = t < t_det
        r.send_times += not before and origin is not None
        # after detection: a packet its host sent once every mask was acknowledged met a
        # mask at every decision; one sent before may have been decided before the mask
        # and sat in a loaded switch's queues (not counted); without a send time, the
        # wire time plus the margin decides
        if not before and (t < t_mask if origin is None else origin < t_masked):
            continue
        s_ocs = _slice_at(ocs_t, ocs_s, t)
        n = None if s_ocs is None else int(peer[s_ocs][x][u])
        sender = per.get(f"tor{n}")
        verdict = "unclassified"
        if sender is not None and not _near(ocs_t, t, b, b) and not _near(sender[0], t, told, b):
            s_n = _slice_at(sender[0], sender[1], t)
            verdict = "towards" if s_n is not None and int(peer[s_n][n][u]) == x else "skew"
        if before:
            r.towards_before += verdict == "towards"
        elif verdict == "towards":
            r.towards_after_mask += 1
            r.towards_mask_to_gen += r.generation_s is None or t < t_det + r.generation_s
            if len(r.towards_late) < 20:
                r.towards_late.append(f"+{(t - t_det) * 1e3:.0f} ms from tor{n} uplink {u} in slice {s_ocs}: {d}")
        elif verdict == "skew":
            r.skew_after_mask += 1
        else:
            r.unclassified_after_mask += 1
    return r


def sent_at(p, wire: float) -> float | None:
    """When an ICMP echo's host sent it (epoch): iputils ping puts its ``gettimeofday``
    (struct timeval, 2 x 64 bits, little-endian here) first in the data, and the reply
    carries the request's, so a reply's is when its request was sent (earlier than the
    reply: the check is lenient with replies, never stricter). None when the packet is
    not an echo or the stamp is not within a minute before ``wire``."""
    import struct

    icmp = p.getlayer("ICMP")
    if icmp is None or icmp.type not in (0, 8):
        return None
    data = bytes(icmp.payload)
    if len(data) < 16:
        return None
    sec, usec = struct.unpack("<qq", data[:16])
    t = sec + usec / 1e6
    return t if 0 <= usec < 1_000_000 and wire - 60.0 <= t <= wire + 0.01 else None


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
        pings=pings, t_end=t_end)
