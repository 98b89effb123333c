"""Prometheus metrics of the daemon (prometheus_client, one registry per daemon).

Counters and histograms are updated where things happen; the switches' own drop and
event counters (read through the backend by the control loop) and per-switch state are
exported by a collector from the latest snapshot, so a scrape never waits on a switch.
"""

from __future__ import annotations

import threading

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

WRITE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
JITTER_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1)


class Metrics:
    def __init__(self):
        self.registry = CollectorRegistry()
        r = self.registry
        self.entries_written = Counter("uro_entries_written", "Updates written to switches (insert+modify+delete)",
                                       ["switch"], registry=r)
        self.write_seconds = Histogram("uro_write_seconds", "Latency of one write (apply) to a switch",
                                       ["switch"], buckets=WRITE_BUCKETS, registry=r)
        self.reconcile_runs = Counter("uro_reconcile_runs", "Read-back-and-repair runs", ["switch"], registry=r)
        self.reconcile_repairs = Counter("uro_reconcile_repairs", "Updates written to repair drift", ["switch"],
                                         registry=r)
        self.restores = Counter("uro_switch_restores", "Pipeline (re)loads after a switch restart or a foreign "
                                "pipeline", ["switch"], registry=r)
        self.reconnects = Counter("uro_switch_reconnects", "Sessions re-established", ["switch"], registry=r)
        self.swaps = Counter("uro_generation_swaps", "Hitless generation swaps completed", ["switch"], registry=r)
        self.swap_failures = Counter("uro_generation_swap_failures", "Swaps that failed half-way (old generation "
                                     "kept active, retried)", ["switch"], registry=r)
        self.swap_seconds = Histogram("uro_generation_swap_seconds", "First write to activation of a generation",
                                      ["switch"], buckets=WRITE_BUCKETS, registry=r)
        self.failures = Counter("uro_failures", "Failures declared or detected", ["kind", "source"], registry=r)
        self.recoveries = Counter("uro_recoveries", "Recoveries declared or detected", ["kind", "source"], registry=r)
        self.dataplane_seconds = Histogram("uro_failure_dataplane_seconds", "Detection -> down mask written on "
                                           "every affected switch", buckets=WRITE_BUCKETS, registry=r)
        self.generation_seconds = Histogram("uro_failure_generation_seconds", "Detection -> recomputed routes "
                                            "active on every ToR", buckets=WRITE_BUCKETS + (30.0, 60.0), registry=r)
        self.timers_sent = Counter("uro_timers_sent", "Slice timers sent", ["switch"], registry=r)
        self.timer_errors = Counter("uro_timer_errors", "Slice timers that could not be sent", ["switch"], registry=r)
        self.timer_spread = Histogram("uro_timer_spread_seconds", "Spread of one slice's timer send times "
                                      "across switches", buckets=JITTER_BUCKETS, registry=r)
        self.timer_lateness = Histogram("uro_timer_lateness_seconds", "Timer send time minus the ideal slice start",
                                        buckets=JITTER_BUCKETS, registry=r)
        self.slices_skipped = Counter("uro_slices_skipped", "Slices the clock thread could not send in time "
                                      "(the next timer carries the current slice)", registry=r)
        self.clock_seeds = Counter("uro_clock_seeds", "Switch clocks seeded by the daemon (sync mode)", ["switch"],
                                   registry=r)
        self.clock_alarms = Counter("uro_clock_alarms", "Alarms raised: a ToR's slice-boundary error beyond "
                                    "[clock] alarm_us", ["switch"], registry=r)
        self.clock_errors = Counter("uro_clock_read_errors", "Clock register reads or probes that failed",
                                    ["switch"], registry=r)
        self.api_unauthorized = Counter("uro_api_unauthorized", "Status API requests refused for a missing or "
                                        "wrong token (nothing done)", ["method"], registry=r)
        for method in ("GET", "POST"):
            self.api_unauthorized.labels(method)
        for kind in ("uplink", "tor", "ocs"):       # 0 from the start: increase() sees the first one
            for source in ("api", "netlink", "clock", "liveness"):
                self.failures.labels(kind, source)
                self.recoveries.labels(kind, source)
        self.failures.labels("circuit", "liveness")  # circuits: only the switches' marks show them
        self.recoveries.labels("circuit", "liveness")
        self.failures.labels("misconfigured", "liveness")   # a ToR answering under another id: the marks only
        self.recoveries.labels("misconfigured", "liveness")
        self._lock = threading.Lock()
        self._snapshot: dict = {}
        self._clocks: dict = {}
        self._damping: list = []
        self.flaps = Counter("uro_liveness_flaps", "Times a failure unit appeared in the switches' liveness marks "
                             "(a flap: its damping penalty grew)", ["kind"], registry=r)
        self.suppressions = Counter("uro_liveness_suppressions", "Failure units suppressed for flapping: declared "
                                    "failed and held until their penalty decayed ([liveness.damping])", ["kind"],
                                    registry=r)
        for kind in ("tor", "uplink", "circuit", "misconfigured"):
            self.flaps.labels(kind)
            self.suppressions.labels(kind)
        r.register(_SnapshotCollector(self))

    def switch_known(self, name: str) -> None:
        """Every per-switch series exists from the start (at 0), so a dashboard's rate()
        and increase() see the first event and a scrape lists every switch."""
        for m in (self.entries_written, self.write_seconds, self.reconcile_runs, self.reconcile_repairs,
                  self.restores, self.reconnects, self.swaps, self.swap_failures, self.swap_seconds,
                  self.timers_sent, self.timer_errors, self.clock_seeds, self.clock_alarms, self.clock_errors):
            m.labels(name)

    def set_snapshot(self, snap: dict) -> None:
        """``{switch: {"up": 0|1, "generation": g|-1, "entries": n, "counters": {counter: {cell: packets}}}}``"""
        with self._lock:
            self._snapshot = snap

    def snapshot(self) -> dict:
        with self._lock:
            return dict(self._snapshot)

    def set_clocks(self, clocks: dict) -> None:
        """``{switch: SwitchClock}`` as the clock supervision last saw them (sync mode)."""
        with self._lock:
            self._clocks = {n: (c.stratum, c.error_ns, c.uncertainty_ns, dict(c.registers), c.alarm,
                                c.out_of_routes) for n, c in clocks.items()}

    def set_damping(self, units: list[dict]) -> None:
        """The liveness watch's damped units (:meth:`controller.liveness.damping.Damper.status`)."""
        with self._lock:
            self._damping = [dict(u) for u in units]

    def damping(self) -> list[dict]:
        with self._lock:
            return list(self._damping)

    def clocks(self) -> dict:
        with self._lock:
            return dict(self._clocks)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _SnapshotCollector:
    def __init__(self, metrics: Metrics):
        self.metrics = metrics

    def collect(self):
        snap = self.metrics.snapshot()
        up = GaugeMetricFamily("uro_switch_up", "Session up and primary", labels=["switch"])
        gen = GaugeMetricFamily("uro_switch_generation", "Active route generation (-1: unconfigured/unknown)",
                                labels=["switch"])
        ent = GaugeMetricFamily("uro_switch_entries", "Entries, members and groups read back at the last "
                                "reconcile", labels=["switch"])
        cnt = GaugeMetricFamily("uro_switch_counter_packets", "The switch's own drop/event counters, read "
                                "through the backend", labels=["switch", "counter", "cell"])
        for name, s in sorted(snap.items()):
            up.add_metric([name], s.get("up", 0))
            gen.add_metric([name], s.get("generation", -1))
            ent.add_metric([name], s.get("entries", 0))
            for counter, cells in sorted((s.get("counters") or {}).items()):
                for cell, packets in sorted(cells.items()):
                    cnt.add_metric([name, counter, cell], packets)
        yield from (up, gen, ent, cnt)
        yield from self._clock_families()
        yield from self._damping_families()

    def _damping_families(self):
        """The liveness watch's flap damping: units suppressed now, and each damped unit's
        penalty (labelled by kind and target, e.g. ``circuit`` ``1/0/0``)."""
        units = self.metrics.damping()
        supp = GaugeMetricFamily("uro_liveness_suppressed_units", "Failure units held failed for flapping "
                                 "(suppressed by [liveness.damping])", labels=["kind"])
        pen = GaugeMetricFamily("uro_liveness_damping_penalty", "A failure unit's flap damping penalty (decayed "
                                "to the last read; suppressed above [liveness.damping] suppress)",
                                labels=["kind", "target"])
        for kind in ("tor", "uplink", "circuit", "misconfigured"):
            supp.add_metric([kind], sum(1 for u in units if u["unit"][0] == kind and u["suppressed"]))
        for u in units:
            kind, target = u["unit"]
            pen.add_metric([kind, "/".join(map(str, target)) if isinstance(target, tuple) else str(target)],
                           u["penalty"])
        yield from (supp, pen)

    def _clock_families(self):
        """The switches' own clocks (sync mode): stratum, the daemon's measured error, the
        registers' last offset, delay and drift, refusals, alarm and out-of-routes state."""
        fams = {
            "stratum": GaugeMetricFamily("uro_clock_stratum", "Distance from the reference clock (0 reference, "
                                         "1 lead, 255 unsynchronized)", labels=["switch"]),
            "error": GaugeMetricFamily("uro_clock_error_seconds", "Slice-boundary error against the reference "
                                       "(OCS emulator), as the daemon's last probe measured it", labels=["switch"]),
            "uncertainty": GaugeMetricFamily("uro_clock_error_uncertainty_seconds", "Half the round trips of the "
                                             "probes behind uro_clock_error_seconds", labels=["switch"]),
            "offset": GaugeMetricFamily("uro_clock_offset_seconds", "The switch's last exchange: offset to its "
                                        "parent (register)", labels=["switch"]),
            "delay": GaugeMetricFamily("uro_clock_delay_seconds", "The switch's last exchange: path delay "
                                       "(register)", labels=["switch"]),
            "drift": GaugeMetricFamily("uro_clock_drift_ppb", "The switch's rate correction (register)",
                                       labels=["switch"]),
            "refusals": GaugeMetricFamily("uro_clock_refusals", "Consecutive refused exchanges (register)",
                                          labels=["switch"]),
            "alarm": GaugeMetricFamily("uro_clock_alarm", "1 while the switch's error exceeds [clock] alarm_us",
                                       labels=["switch"]),
            "out": GaugeMetricFamily("uro_clock_out_of_routes", "1 while the ToR is out of routes for an "
                                     "unsynchronized clock", labels=["switch"]),
            "live_mask": GaugeMetricFamily("uro_liveness_marked_circuits", "Circuits (slice, uplink) the ToR "
                                           "marked down itself: its peer silent for [liveness] down_after "
                                           "(register live_mask, read with the clock)", labels=["switch"]),
            "live_wrong": GaugeMetricFamily("uro_liveness_wrong_peer_circuits", "Circuits on which the ToR heard "
                                            "only another ToR than the schedule's peer (register live_wrong)",
                                            labels=["switch"]),
        }
        for name, (stratum, err, unc, regs, alarm, out) in sorted(self.metrics.clocks().items()):
            if stratum is not None:
                fams["stratum"].add_metric([name], stratum)
            if err is not None:
                fams["error"].add_metric([name], err / 1e9)
                fams["uncertainty"].add_metric([name], (unc or 0) / 1e9)
            for key, fam, per in (("offset", "offset", 1e9), ("delay", "delay", 1e9), ("drift", "drift", 1),
                                  ("refusals", "refusals", 1)):
                if key in regs:
                    fams[fam].add_metric([name], regs[key] / per)
            for key in ("live_mask", "live_wrong"):
                if key in regs:
                    fams[key].add_metric([name], bin(int(regs[key])).count("1"))
            fams["alarm"].add_metric([name], int(alarm))
            fams["out"].add_metric([name], int(out))
        yield from fams.values()


# ---- checking a dashboard against the metrics ------------------------------------------------
def exported_names(text: str) -> set[str]:
    """The series names of a Prometheus text exposition (``_bucket``/``_sum``/``_total`` ...)."""
    import re

    return {re.split(r"[{ ]", line, maxsplit=1)[0] for line in text.splitlines()
            if line and not line.startswith("#")}


def queried_names(grafana: dict, prefix: str = "uro_") -> set[str]:
    """The metric names a Grafana dashboard's panels and variables query (PromQL
    identifiers starting with ``prefix``, label values aside): examples/grafana-uro.json
    is checked against a real daemon's /metrics with this."""
    import re

    exprs = [t.get("expr", "") for p in grafana.get("panels", []) for t in p.get("targets", [])]
    exprs += [v["query"].get("query", "") if isinstance(v.get("query"), dict) else str(v.get("query", ""))
              for v in grafana.get("templating", {}).get("list", [])]
    names: set[str] = set()
    for e in exprs:
        names |= set(re.findall(rf"\b({re.escape(prefix)}[a-zA-Z0-9_]+)\b", re.sub(r'"[^"]*"', '""', e)))
    return names
