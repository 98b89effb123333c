"""`uro bench --suite clock` (root, bmv2, p4c): the slice clock on the emulated fabric.

One 8x2 fabric (examples/emu-8x2.toml: 50 ms slices, S = 4), every switch started at a
different time (1 s apart: their bmv2 clocks really differ by seconds), two ToRs
drifting +200 / -200 ppm (the emulated fault, `uro emulate clock`), measured in one run:

1. **the floor** of the measurement: two kernel-timestamped PROBEs of one switch, back to
   back, compared as a ToR and the OCS are (bmv2's 1 us timestamps, its forwarding
   jitter, the kernel's);
2. **sync mode, per-hop routes**: each ToR's slice-boundary error against the OCS
   emulator (docs/clock.md "How the error is measured": a PROBE to the ToR and one to the
   OCS, back to back, each stamped by the kernel on the way out and in), p50 / p99 / max,
   while every host pair pings; the losses the switches count to misalignment
   (``ocs_drops[no_circuit]``, ``drops[held_too_long]``). A measurement is within its
   uncertainty (half the two probes' round trips) of the truth; the figures keep those
   within 1 ms (NTP's least-delay samples: a probe that waited in a busy bmv2 measures the
   wait) and print how many were discarded, the uncertainty's p50 / p99 and the
   unfiltered figure; the headline figure is each round's least-delay pair of three
   (NTP's clock filter: :func:`least_delay`), the floor measured both ways;
3. **sync mode, every destination source-routed** (the daemon reloaded with
   ``source_routed = "all"``): the same;
4. **convergence**: a ToR's switch restarted (its clock from zero: seconds off) until
   its error stays within 0.5 ms, from its start and from the daemon's seed; a 5 ms step
   injected into a ToR's clock until it is back within 0.5 ms;
5. **the daemon stopped** (``kill -STOP``) for 60 s under the pings: the error and the
   loss meanwhile (continued in a ``finally``);
6. **timer mode on the same fabric**: the daemon restarted with ``[clock] mode =
   "timer"`` (it sends every slice's timer, as before the slice clock), the same error
   (slice ids and phases: a timer-driven switch counts timers) and pings.

``--hold-pps N``: each ToR uplink's hold queues paced at N packets/s instead of the
emulator's default (what held packets cost the ToRs' one ingress thread).

``--load``: real work beside it all (a route computation in a loop on each core, `uro
routes --generate opera --tors 108 --uplinks 6`), for the figures under load; ``--load N``:
N of them (on 2 cores the fabric and one per core keep the load average at 4-6; four
computations take it above 8). The load
average is printed next to every figure; nothing is asserted (a benchmark, not a test).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from benchmarks.machine import load_average as _load, nice_as_started as _nice

ROOT = Path(__file__).resolve().parents[1]
#: the convergence criterion: within this of the reference, for CONVERGED_FOR seconds
ALIGNED_NS = 500_000
CONVERGED_FOR = 1.0
#: a measurement is kept when its probes' round trips put it within this of the truth
#: (clockprobe.uncertainty_ns): a probe that waited in a busy bmv2 measures the wait
MAX_UNCERTAINTY_NS = 1_000_000
#: probe pairs per ToR and round: the round's figure is the pair of least uncertainty
PAIRS = 3
#: seconds between rounds: 8 ToRs x 3 pairs each 0.75 s is the OCS emulator's 32 probes a
#: second that one pair each 0.25 s was
PERIOD_S = 0.75
DRIFTS = {1: 200.0, 2: -200.0}       # ToR -> ppm


def _need() -> str | None:
    if os.geteuid() != 0:
        return "needs root"
    for tool in ("simple_switch_grpc", "simple_switch_CLI", "p4c-bm2-ss", "ping", "ethtool"):
        if shutil.which(tool) is None:
            return f"{tool} not installed"
    return None


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def summary_us(errors_ns: list[int]) -> str:
    """``p50 / p99 / max`` of |error| in us (n samples)."""
    a = [abs(e) / 1e3 for e in errors_ns]
    if not a:
        return "no samples"
    return f"{_pct(a, 0.5):.1f} / {_pct(a, 0.99):.1f} / {max(a):.1f} us (n = {len(a)})"


def filtered_us(samples: list[tuple[int, int]]) -> str:
    """The |error| summary of the (error, uncertainty) samples whose uncertainty is within
    MAX_UNCERTAINTY_NS, then how many were discarded and the uncertainty's p50 / p99 over
    all of them: the figure, and how much the probes themselves waited."""
    kept = [e for e, u in samples if u <= MAX_UNCERTAINTY_NS]
    unc = [u / 1e3 for _, u in samples]
    tail = (f"; {len(samples) - len(kept)} of {len(samples)} discarded (uncertainty > {MAX_UNCERTAINTY_NS / 1e6:g} ms; "
            f"uncertainty p50 / p99 {_pct(unc, 0.5):.0f} / {_pct(unc, 0.99):.0f} us)") if samples else ""
    return summary_us(kept) + tail


def signed_us(samples: list[tuple[int, int]]) -> str:
    """The signed error (this clock ahead of the OCS: positive) p5 / p50 / p95 in us of the
    samples within MAX_UNCERTAINTY_NS: a p50 far from 0 with a narrow spread around it is a
    bias (the exchanges' paths asymmetric), a p50 near 0 with wide tails is noise."""
    a = [e / 1e3 for e, u in samples if u <= MAX_UNCERTAINTY_NS]
    if not a:
        return "signed: no samples"
    return f"signed p5 / p50 / p95 {_pct(a, 0.05):+.0f} / {_pct(a, 0.5):+.0f} / {_pct(a, 0.95):+.0f} us"


def _phase_guard(res: dict, key: str, fn, *args, **kw):
    """Run one phase of the benchmark; a failure is printed and recorded, and the next
    phases still run (the fabric is torn down in main's ``finally``)."""
    try:
        res[key] = fn(*args, **kw)
    except Exception as e:          # noqa: BLE001 -- a benchmark reports and goes on
        res[key] = {"error": f"{type(e).__name__}: {e}"}
        print(f"== {key}: FAILED ({type(e).__name__}: {e}; load {_load()}); the next phases run", flush=True)
    return res[key]


# ---- the fabric ------------------------------------------------------------------------------
class Fabric:
    def __init__(self, cfg, ready_timeout_s: float = 120.0):
        from controller.emulate import daemon as dmn
        from controller.emulate import fabric

        self.cfg = cfg
        t0 = time.monotonic()
        self.plan = fabric.up(cfg, log=lambda m: print(f"   {m}", flush=True), ready_timeout_s=ready_timeout_s)
        self.up_s = time.monotonic() - t0
        self.sdir = cfg.state_dir
        try:
            self.arts = fabric.load_artifacts(self.sdir)
            self.routes = dmn.routes(self.sdir / "net.toml")
            self.n_slices = self.routes.schedule.n_slices
            self.slice_ns = round(cfg.slice_ms * 1e6)
        except BaseException:
            self.close()
            raise

    def tor_cpu_seconds(self) -> float:
        """CPU seconds (user + system) the ToRs' bmv2 processes have used so far."""
        from controller import process

        pids = [process.running(self.sdir / "pids", sw.name) for sw in self.plan.tor_switches]
        return sum(process.cpu_seconds(p) for p in pids if p)

    def counters(self) -> dict[str, int]:
        """The switches' drop and sync counters summed over the fabric, by cell
        (``ocs_drops.no_circuit``, ``drops.held_too_long``, ...)."""
        from concurrent.futures import ThreadPoolExecutor

        from controller.emulate import procs

        tot: dict[str, int] = {}
        with ThreadPoolExecutor(max_workers=4) as ex:       # a CLI start costs seconds on a loaded machine
            got = list(ex.map(lambda sw: procs.read_counters(sw.thrift_port, self.arts[sw.role].contract, sw.name),
                              self.plan.switches))
        for counters in got:
            for c, cells in counters.items():
                for cell, v in cells.items():
                    tot[f"{c}.{cell}"] = tot.get(f"{c}.{cell}", 0) + v
        return tot

    def daemon_status(self) -> dict:
        from controller.emulate import daemon as dmn

        return dmn.status(self.plan)

    def restart_daemon(self, mode: str, source_routed=None) -> float:
        """The daemon stopped and started again on the same fabric with ``[clock] mode``
        (and routing) changed in its net.toml; returns the seconds until it is ready."""
        from controller.emulate import daemon as dmn
        from controller import process

        process.stop(self.sdir / "pids", dmn.NAME)
        self.cfg = dataclasses.replace(self.cfg, clock_mode=mode)
        if source_routed is not None:
            self.cfg = dataclasses.replace(self.cfg, routing=dataclasses.replace(self.cfg.routing,
                                                                                 source_routed=source_routed))
        path = self.sdir / "net.toml"
        path.write_text(dmn.net_toml(self.cfg, self.plan, self.arts))
        t0 = time.monotonic()
        dmn.start(self.sdir, self.plan, path, log=lambda m: None)
        return time.monotonic() - t0

    def close(self) -> None:
        from controller.emulate import fabric

        fabric.down(self.cfg.prefix, self.cfg.state_root)


# ---- measuring -------------------------------------------------------------------------------
class Periodic:
    """A daemon thread running :meth:`step` every ``period`` seconds (from each step's
    start) until :meth:`stop`. A step that fails once :meth:`stop` was called (the resource
    it reads closed under it) ends the thread quietly; before, the error is raised."""

    join_s = 10.0

    def __init__(self, period_s: float):
        self.period = period_s
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def step(self) -> None:
        raise NotImplementedError

    def _run(self) -> None:
        while not self._stop.is_set():
            t0 = time.monotonic()
            try:
                self.step()
            except (OSError, KeyError):
                if self._stop.is_set():
                    return
                raise
            self._stop.wait(max(0.0, self.period - (time.monotonic() - t0)))

    def start(self):
        self._t.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._t.join(timeout=self.join_s)


class ErrorSampler(Periodic):
    """A thread probing every ToR against the OCS emulator, round after round, until
    stopped: ``errors[tor name]`` of (host time, error ns, uncertainty ns), every probe pair;
    ``best[tor name]``: per round, the pair of least uncertainty (NTP's clock filter: of a
    few measurements of one offset, the one whose probes waited least). A round probes
    each ToR ``pairs`` times, back to back (within a few ms: the boundary error does not
    move meanwhile), and up to ``tries`` times while none is within MAX_UNCERTAINTY_NS."""

    def __init__(self, fab: Fabric, names: list[str] | None = None, period_s: float = PERIOD_S,
                 tries: int = 3, pairs: int = PAIRS):
        from controller.emulate.clockprobe import Prober

        super().__init__(period_s)
        self.fab = fab
        self.names = names or [s.name for s in fab.plan.tor_switches]
        self.tries = max(tries, pairs)
        self.pairs = pairs
        self.prober = Prober.for_plan(fab.plan, self.names + ["ocs"])
        self.errors: dict[str, list[tuple[float, int, int]]] = {n: [] for n in self.names}
        self.best: dict[str, list[tuple[float, int, int]]] = {n: [] for n in self.names}
        self.missed = 0

    def step(self) -> None:
        self.round()

    def round(self) -> None:
        from controller.emulate.clockprobe import error_ns, uncertainty_ns

        for n in self.names:
            mine = []
            for i in range(self.tries):
                if i >= self.pairs and any(u <= MAX_UNCERTAINTY_NS for _, _, u in mine):
                    break
                got = self.prober.probe([n, "ocs"])
                if n not in got or "ocs" not in got:
                    self.missed += 1
                    continue
                mine.append((time.time(), error_ns(got[n], got["ocs"], self.fab.slice_ns, self.fab.n_slices),
                             uncertainty_ns(got[n], got["ocs"])))
            self.errors[n] += mine
            if mine:
                self.best[n].append(least_delay(mine))

    def stop(self) -> dict[str, list[tuple[float, int, int]]]:
        super().stop()
        self.prober.close()               # a slow round still running ends quietly (Periodic)
        return self.errors

    def samples(self, names: list[str] | None = None, best: bool = False) -> list[tuple[int, int]]:
        """(error, uncertainty) of every probe pair of ``names`` (every ToR), or of each
        round's pair of least uncertainty (``best``)."""
        src = self.best if best else self.errors
        return [(e, u) for n, v in src.items() if names is None or n in names for _, e, u in v]


def least_delay(measurements: list[tuple]) -> tuple:
    """The measurement of least uncertainty (its last item) of a few of one offset: NTP's
    clock filter (RFC 5905 §10) keeps the sample of least delay, whose error is bounded
    tightest; the first of equal ones."""
    return min(measurements, key=lambda m: m[-1])


def floor(fab: Fabric, n: int = 200, pairs: int = PAIRS) -> dict[str, list[tuple[int, int]]]:
    """The method's floor: the 'error' between two back-to-back probes of one switch (the
    OCS emulator, and a ToR), which should be 0; (error, uncertainty) pairs, every one and
    (``"<switch>, least delay"``) each round's least uncertain of ``pairs``, as the
    measurements of :class:`ErrorSampler` are filtered."""
    from controller.emulate.clockprobe import Prober, error_ns, uncertainty_ns

    names = ("ocs", "tor0")
    out: dict[str, list[tuple[int, int]]] = {k: [] for n in names for k in (n, f"{n}, least delay of {pairs}")}
    with Prober.for_plan(fab.plan, list(names)) as pr:
        for _ in range(n):
            for name in names:
                mine = []
                for _ in range(pairs):
                    a = pr.probe([name])
                    b = pr.probe([name])
                    if name in a and name in b:
                        mine.append((error_ns(a[name], b[name], fab.slice_ns, fab.n_slices),
                                     uncertainty_ns(a[name], b[name])))
                out[name] += mine
                if mine:
                    out[f"{name}, least delay of {pairs}"].append(least_delay(mine))
            time.sleep(0.01)
    return out


#: seconds between two pings of one host pair: 2 a second per pair, 112 pairs on the 8x2
#: fabric -- traffic the nine software switches carry on two cores (the liveness suite's
#: default too)
PING_INTERVAL_S = 0.5


def pings(fab: Fabric, seconds: float, interval: float = PING_INTERVAL_S):
    """A ping stream between every ordered pair of hosts on different ToRs, one every
    ``interval`` seconds."""
    from controller.emulate import traffic

    n = max(1, int(seconds / interval))
    return [traffic.PingStream(fab.plan, a, b, n, interval) for a, b in traffic.all_pairs(fab.plan)]


def finish(streams) -> tuple[int, int]:
    from controller.emulate import traffic

    return traffic.finish_all(streams, timeout=30)


def misalignment(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """Data frames lost to misalignment: the OCS's ``no_circuit`` drops of data frames
    (its ``ocs_arrivals``; the clock's own REQ/RESP crossing the OCS are counted apart,
    ``no_circuit_sync``) and the ToRs' ``held_too_long``."""
    d = delta(before, after)
    data_nc = sum(v for k, v in d.items() if k.startswith("ocs_arrivals.") and k.endswith("no_circuit"))
    total_nc = d.get("ocs_drops.no_circuit", 0)
    if not any(k.startswith("ocs_arrivals.") for k in after):      # a program without the counter
        return {"ocs_drops.no_circuit": total_nc, "drops.held_too_long": d.get("drops.held_too_long", 0)}
    return {"ocs_drops.no_circuit": data_nc, "drops.held_too_long": d.get("drops.held_too_long", 0),
            "no_circuit_sync": total_nc - data_nc}


def drops_line(grown: dict[str, int]) -> str:
    """Every drop counter cell that grew (ToRs' ``drops``, the OCS's ``ocs_drops``), the
    ToRs' re-decisions of a held frame whose slice passed while it circled (``events``:
    ``reroute_missed``, ``ssrr_missed``), and of a frame whose slice ended before it
    could leave (``departed_late``: sync mode, found in egress)."""
    cells = sorted(((k, v) for k, v in grown.items() if k.startswith(("drops.", "ocs_drops.")) and v), key=lambda kv: -kv[1])
    missed = [(k, grown[f"events.{k}"]) for k in ("reroute_missed", "ssrr_missed") if f"events.{k}" in grown]
    late = grown.get("events.departed_late")
    return ("every drop: " + (", ".join(f"{k} {v}" for k, v in cells) or "none")
            + ("; slice missed while held, decided again: " + ", ".join(f"{k} {v}" for k, v in missed) if missed else "")
            + ("" if late is None else f"; slice ended before it left, decided again: departed_late {late}"))


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """Every counter cell's growth between two reads of :meth:`Fabric.counters`."""
    return {k: after.get(k, 0) - before.get(k, 0) for k in after}


@dataclasses.dataclass(frozen=True)
class Arrivals:
    """Where the misaligned frames come from (docs/clock.md "Where misaligned frames come
    from"): the OCS emulator's ``ocs_arrivals`` (data frames from each ToR by the OCS's
    phase at arrival) and the ToRs' ``departures`` / ``departure_queue`` (the departing
    pass's kind and its wait: the whole of it, the part in the egress queue)."""
    in_time: dict[int, int]
    in_guard: dict[int, int]             # arrived in the OCS's first guard: left in the ToR's previous slice
    in_guard_no_circuit: dict[int, int]
    no_circuit: dict[int, int]           # no circuit outside the guard: the ToR's slice was another
    departures: dict[str, int]           # <kind>_<wait> -> frames (every ToR): pass to departure
    queue: dict[str, int] = dataclasses.field(default_factory=dict)   # <kind>_<wait>: in the egress queue
    phase: dict[str, int] = dataclasses.field(default_factory=dict)   # g<i>_<wait>: by the sending pass's phase

    @classmethod
    def of(cls, d: dict[str, int]) -> "Arrivals":
        """From a counter delta (cells ``ocs_arrivals.tor<t>u<u>_<kind>``,
        ``departures.<kind>_<wait>``, ``departure_queue.<kind>_<wait>``,
        ``departure_phase.g<i>_<wait>``)."""
        import re

        kinds: dict[str, dict[int, int]] = {k: {} for k in ("in_time", "in_guard", "in_guard_no_circuit", "no_circuit")}
        dep: dict[str, int] = {}
        queue: dict[str, int] = {}
        phase: dict[str, int] = {}
        for key, v in d.items():
            m = re.fullmatch(r"ocs_arrivals\.tor(\d+)u\d+_(\w+)", key)
            if m and m.group(2) in kinds:
                t = int(m.group(1))
                kinds[m.group(2)][t] = kinds[m.group(2)].get(t, 0) + v
            elif key.startswith("departures."):
                dep[key.split(".", 1)[1]] = v
            elif key.startswith("departure_queue."):
                queue[key.split(".", 1)[1]] = v
            elif key.startswith("departure_phase."):
                phase[key.split(".", 1)[1]] = v
        return cls(departures=dep, queue=queue, phase=phase, **kinds)

    def lines(self) -> list[str]:
        tors = sorted(set(self.in_time) | set(self.in_guard) | set(self.no_circuit) | set(self.in_guard_no_circuit))
        tot = {k: sum(getattr(self, k).values()) for k in ("in_time", "in_guard", "in_guard_no_circuit", "no_circuit")}
        n = sum(tot.values())
        pc = lambda x, of: f"{100 * x / of:.1f} %" if of else "-"      # noqa: E731
        late = tot["in_guard"] + tot["in_guard_no_circuit"]
        out = [f"where misaligned frames come from: of {n} data frames the OCS took from the ToRs, "
               f"{late} ({pc(late, n)}) arrived in the OCS's first guard of its slice (left in the ToR's previous "
               f"slice: late), {tot['in_guard_no_circuit']} of them dropped no_circuit; {tot['no_circuit']} no_circuit "
               f"outside the guard (the ToR's slice was another)"]
        out.append("   per ToR, late / no_circuit outside the guard: " + ", ".join(
            f"tor{t} {self.in_guard.get(t, 0) + self.in_guard_no_circuit.get(t, 0)} / {self.no_circuit.get(t, 0)}"
            for t in tors))
        nd = sum(self.departures.values())
        if nd:
            out.append(f"   the ToRs' data frames on uplinks, pass to departure of {nd}: "
                       + self.waits(self.departures, ""))
            for kind in self.kinds():
                nk = sum(v for c, v in self.departures.items() if self.split(c)[0] == kind)
                out.append(f"     {kind} {nk} ({pc(nk, nd)}): pass to departure " + self.waits(self.departures, kind)
                           + "; in the egress queue " + self.waits(self.queue, kind))
            if self.phase:
                out.append("     by the sending pass's phase, in guards (frames, of them waiting >= the guard): " + ", ".join(
                    f"g{i} {self.phase.get(f'g{i}_lt_guard', 0) + self.phase.get(f'g{i}_ge_guard', 0)} "
                    f"({pc(self.phase.get(f'g{i}_ge_guard', 0), self.phase.get(f'g{i}_lt_guard', 0) + self.phase.get(f'g{i}_ge_guard', 0))})"
                    for i in range(10)))
        return out

    @staticmethod
    def split(cell: str) -> tuple[str, str]:
        """``held_ge_guard`` -> (``held``, ``ge_guard``); a cell without a kind -> ("", cell)."""
        kind, _, wait = cell.partition("_")
        return (kind, wait) if wait and not kind.startswith(("lt", "ge")) else ("", cell)

    def kinds(self) -> list[str]:
        return list(dict.fromkeys(k for k, _ in map(self.split, self.departures) if k))

    @classmethod
    def waits(cls, cells: dict[str, int], kind: str) -> str:
        """The wait buckets of ``kind`` (every kind: ""), in % of its frames."""
        by: dict[str, int] = {}
        for c, v in cells.items():
            k, w = cls.split(c)
            if not kind or k == kind:
                by[w] = by.get(w, 0) + v
        n = sum(by.values())
        if not n:
            return "-"
        return ", ".join(f"{w.replace('lt_', '< ').replace('ge_', '>= ').replace('0_5', '0.5')} "
                         f"{100 * v / n:.1f} %" for w, v in by.items())


class ClockView(Periodic):
    """The daemon's view of the clocks during a phase (its status API, every second):
    per ToR how many reads found it unsynchronized, out of routes or in alarm, and the
    error the daemon measured; in timer mode its timers' lateness."""

    join_s = 15.0

    def __init__(self, fab: Fabric, period_s: float = 1.0):
        super().__init__(period_s)
        self.fab = fab
        self.reads: list[dict] = []

    def step(self) -> None:
        try:
            self.reads.append((self.fab.daemon_status() or {}).get("clock") or {})
        except Exception:           # noqa: BLE001 -- a busy daemon's status may time out: a read missed
            pass

    def stop(self) -> list[dict]:
        super().stop()
        return self.reads

    @staticmethod
    def summary(reads: list[dict]) -> str:
        if not reads:
            return "the daemon's view: no status read"
        last = reads[-1]
        if last.get("mode") == "timer":
            late = last.get("lateness_vs_ideal") or {}
            spread = last.get("jitter_between_switches") or {}
            return (f"the daemon's view ({len(reads)} reads): timers late vs ideal p50 / p99 / max "
                    f"{late.get('p50_ms', '-')} / {late.get('p99_ms', '-')} / {late.get('max_ms', '-')} ms, between "
                    f"switches p99 {spread.get('p99_ms', '-')} ms, slices skipped {last.get('slices_skipped', '-')}")
        unsynced: dict[str, int] = {}
        out_of_routes: dict[str, int] = {}
        alarms: dict[str, int] = {}
        errs: dict[str, list[float]] = {}
        for r in reads:
            for name, sw in (r.get("switches") or {}).items():
                if sw.get("role") != "tor":
                    continue
                if sw.get("registers") and not sw.get("synced"):
                    unsynced[name] = unsynced.get(name, 0) + 1
                if sw.get("out_of_routes"):
                    out_of_routes[name] = out_of_routes.get(name, 0) + 1
                if sw.get("alarm"):
                    alarms[name] = alarms.get(name, 0) + 1
                if sw.get("error_us") is not None:
                    errs.setdefault(name, []).append(abs(sw["error_us"]))
        fmt = lambda d: ", ".join(f"{n} {v}" for n, v in sorted(d.items())) or "none"   # noqa: E731
        worst = ", ".join(f"{n} {max(v) / 1e3:.2f}" for n, v in sorted(errs.items()))
        return (f"the daemon's view ({len(reads)} reads, 1 s apart): ToRs unsynchronized {fmt(unsynced)}; out of "
                f"routes {fmt(out_of_routes)}; in alarm {fmt(alarms)}; largest |error| it probed (ms) {worst or '-'}"
                f"\n   {ClockView.servo(reads)}")

    @staticmethod
    def servo(reads: list[dict]) -> str:
        """Per ToR, what its servo did in the phase, from the registers the daemon read: the
        drift it learnt (its local slice length against L, ppm) at the first and the last
        read, beside the fault injected; and the slices since its last applied exchange
        (``k - last_k``), median / max over the reads -- between two applied exchanges a
        clock runs on its learnt rate alone, so the error a drift leaves grows with both."""
        drift: dict[str, list[float]] = {}
        since: dict[str, list[int]] = {}
        for r in reads:
            for name, sw in (r.get("switches") or {}).items():
                regs = sw.get("registers") or {}
                if sw.get("role") != "tor" or not regs:
                    continue
                if regs.get("drift") is not None:
                    drift.setdefault(name, []).append(regs["drift"] / 1000)
                if regs.get("k") is not None and regs.get("last_k") is not None:
                    since.setdefault(name, []).append((regs["k"] - regs["last_k"]) & 0xFFFFFFFF)
        if not drift and not since:
            return "the ToRs' servo: no register read"
        parts = []
        for name in sorted(set(drift) | set(since), key=lambda n: int(n[3:]) if n[3:].isdigit() else n):
            tor = int(name[3:]) if name[3:].isdigit() else None
            truth = f" (fault {DRIFTS[tor]:+g})" if tor in DRIFTS else ""
            d = drift.get(name)
            learnt = f"{d[0]:+.0f} -> {d[-1]:+.0f} ppm{truth}" if d else "-"
            g = sorted(since.get(name, []))
            gap = f", {g[len(g) // 2]} / {g[-1]} slices since an applied exchange" if g else ""
            parts.append(f"{name} {learnt}{gap}")
        return "the ToRs' servo, learnt drift first -> last read: " + "; ".join(parts)


def phase(fab: Fabric, label: str, seconds: float) -> dict:
    """Errors and every-pair pings for ``seconds``; returns the figures."""
    tc0 = time.time()
    c0 = fab.counters()
    tc0 = (tc0 + time.time()) / 2          # the counters' reads take seconds on a loaded machine
    cpu0 = fab.tor_cpu_seconds()
    sampler = ErrorSampler(fab).start()
    view = ClockView(fab).start()
    streams = pings(fab, seconds)
    t0 = time.time()
    time.sleep(seconds)
    lost, sent = finish(streams)
    errors = sampler.stop()
    reads = view.stop()
    tc1 = time.time()
    cpu1 = fab.tor_cpu_seconds()
    c1 = fab.counters()
    tc1 = (tc1 + time.time()) / 2
    mis = misalignment(c0, c1)
    grown = delta(c0, c1)
    arrivals = Arrivals.of(grown)
    out = {"label": label, "seconds": round(time.time() - t0, 1), "load": _load(),
           "error": filtered_us(sampler.samples()),
           "least_delay": filtered_us(sampler.samples(best=True)),
           "unfiltered": summary_us([e for e, _ in sampler.samples()]),
           "per_tor": {n: filtered_us(sampler.samples([n])) for n in errors},
           "per_tor_least_delay": {n: filtered_us(sampler.samples([n], best=True)) for n in errors},
           "per_tor_signed": {n: signed_us(sampler.samples([n], best=True)) for n in errors},
           "pings": (lost, sent), "misaligned": mis, "missed_probes": sampler.missed,
           "sync_counters": {k: c1.get(k, 0) - c0.get(k, 0) for k in c1 if k.startswith(("sync.", "ocs_sync."))
                             and c1.get(k, 0) != c0.get(k, 0)}}
    print(f"== {label} ({out['seconds']} s, load {out['load']}): |error| vs OCS p50 / p99 / max, each round's "
          f"least delay of {PAIRS} pairs: {out['least_delay']}; every pair within the bound: {out['error']}; "
          f"every probe pair, unfiltered: {out['unfiltered']}", flush=True)
    for n, line in out["per_tor"].items():
        print(f"   {n}{' (%+g ppm)' % DRIFTS[int(n[3:])] if int(n[3:]) in DRIFTS else ''}: least delay "
              f"{out['per_tor_least_delay'][n]}, {out['per_tor_signed'][n]}; every pair {line}")
    data_mis = {k: v for k, v in mis.items() if k != "no_circuit_sync"}
    lost_mis = sum(data_mis.values())
    print(f"   pings lost {lost} / {sent} ({100 * lost / max(1, sent):.2f} %); data frames dropped by misalignment "
          f"{lost_mis} ({100 * lost_mis / max(1, sent):.2f} % of the pings: "
          + ", ".join(f"{k} {v}" for k, v in data_mis.items()) + f"); probes unanswered {sampler.missed}"
          + (f"; the clock's own frames dropped no_circuit at the OCS {mis['no_circuit_sync']}"
             if "no_circuit_sync" in mis else ""), flush=True)
    out["arrivals"] = dataclasses.asdict(arrivals)
    out["clock_view"] = ClockView.summary(reads)
    out["sync_rates"] = sync_rates(grown, tc1 - tc0, len(fab.plan.tor_switches))
    out["tor_cpu"] = cpu_line(cpu1 - cpu0, grown, tc1 - tc0, len(fab.plan.tor_switches))
    for line in arrivals.lines() + [drops_line(grown), out["clock_view"], out["sync_rates"], out["tor_cpu"]]:
        print(f"   {line}", flush=True)
    return out


def sync_rates(grown: dict[str, int], seconds: float, tors: int) -> str:
    """What each ToR's thread did per second: its ingress passes by kind (``passes``: held
    packets circling, recirculated to be decided again, sync frames, fresh frames) and the
    sync frames by kind (its ``sync`` counter): what the clock costs a software switch
    beside the data."""
    kinds = {"TRIGGER": ("req_sent", "ref_req_sent", "outside_window", "not_due", "no_peer"),
             "REQ in": ("resp_sent", "wrong_peer", "wrong_dst"),
             "RESP in": ("stale", "slow", "peer_worse", "step", "filtered", "refused", "lost", "applied")}
    per = {k: sum(grown.get(f"sync.{r}", 0) for r in rs) / max(seconds, 1e-9) / max(tors, 1) for k, rs in kinds.items()}
    passes = {k.split(".", 1)[1]: v / max(seconds, 1e-9) / max(tors, 1) for k, v in grown.items()
              if k.startswith("passes.")}
    return ("ingress passes per ToR per second: " + (", ".join(f"{k} {v:.0f}" for k, v in passes.items()) or "-")
            + "; of the sync frames: " + ", ".join(f"{k} {v:.0f}" for k, v in per.items()))


def cpu_line(cpu_s: float, grown: dict[str, int], seconds: float, tors: int) -> str:
    """What the ToRs' bmv2 processes cost: CPU (user + system) per ToR in cores, and per
    ingress pass (its egress and recirculation included): the same fabric and pings cost
    more per pass in sync mode when the program's clock costs more per packet."""
    passes = sum(v for k, v in grown.items() if k.startswith("passes."))
    per_pass = f"{1e6 * cpu_s / passes:.0f} us" if passes else "-"
    return (f"the ToRs' bmv2 CPU: {cpu_s / max(seconds, 1e-9) / max(tors, 1):.2f} cores per ToR, "
            f"{per_pass} per ingress pass")


def converge(fab: Fabric, name: str, t_from: float, timeout_s: float = 60.0) -> tuple[float | None, list]:
    """Seconds from ``t_from`` (epoch) until ``name``'s error stays within ALIGNED_NS for
    CONVERGED_FOR seconds (probed at 20/s); None if not within ``timeout_s``."""
    from controller.emulate.clockprobe import ProbeError

    try:
        s = ErrorSampler(fab, [name], period_s=0.05)
    except ProbeError:
        return None, []
    ok_since = None
    end = time.time() + timeout_s
    try:
        while time.time() < end:
            n0 = len(s.best[name])
            s.round()
            v = s.best[name]
            if len(v) == n0 or v[-1][2] > MAX_UNCERTAINTY_NS:
                pass                    # no answer, or a probe that waited: says nothing either way
            elif abs(v[-1][1]) <= ALIGNED_NS:
                ok_since = ok_since or v[-1][0]
                if v[-1][0] - ok_since >= CONVERGED_FOR:
                    return ok_since - t_from, v
            else:
                ok_since = None
            time.sleep(0.05)
    finally:
        s.prober.close()
    return None, s.best[name]


def seeded_at(fab: Fabric, name: str, since: float) -> float | None:
    """When the daemon logged ``clock.seeded`` for ``name`` after ``since`` (epoch)."""
    from controller.emulate.deadtor import epoch

    try:
        lines = (fab.sdir / "logs" / "daemon.log").read_text(errors="replace").splitlines()
    except FileNotFoundError:
        return None
    for line in lines:
        if '"clock.seeded"' in line and f'"switch": "{name}"' in line:
            try:
                t = epoch(json.loads(line)["ts"])
            except (ValueError, KeyError):
                continue
            if t >= since:
                return t
    return None


def convergence(fab: Fabric) -> dict:
    from controller.emulate import clockfault, fabric

    from controller.emulate import daemon as dmn

    out = {}
    t0 = time.time()
    fabric.restart_switch(fab.plan, fab.sdir, "tor3")       # returns once its ports answer
    try:
        dmn.wait_switches(fab.plan, ["tor3"], timeout=120)  # the daemon restored its pipeline and tables
    except Exception as e:          # noqa: BLE001 -- measured anyway: converge says if it never did
        print(f"   (tor3 not restored by the daemon within 120 s: {e})", flush=True)
    secs, _ = converge(fab, "tor3", t0, timeout_s=120)
    seed = seeded_at(fab, "tor3", t0)
    out["start"] = (secs, None if seed is None or secs is None else secs - (seed - t0), _load())
    print(f"== convergence after tor3's start (restarted: its clock from zero): "
          + ("not within 120 s" if secs is None else f"{secs:.2f} s from its start"
             + (f", {out['start'][1]:.2f} s from the daemon's seed" if out['start'][1] is not None else ""))
          + f" to |error| <= {ALIGNED_NS / 1e6:g} ms for {CONVERGED_FOR:g} s (load {out['start'][2]})", flush=True)
    contract = fab.arts["tor"].contract
    t0 = time.time()
    clockfault.apply(fab.plan, fab.sdir, contract, 4, step_us=5000)
    secs, _ = converge(fab, "tor4", t0, timeout_s=60)
    out["step"] = (secs, _load())
    print(f"== convergence after a 5 ms step of tor4's clock: "
          + ("not within 60 s" if secs is None else f"{secs:.2f} s") + f" (load {out['step'][1]})", flush=True)
    return out


def stopped_daemon(fab: Fabric, seconds: float = 60.0) -> dict:
    """``kill -STOP`` of the daemon for ``seconds`` under every-pair pings."""
    from controller.emulate import daemon as dmn

    pid = dmn.running(fab.sdir)
    if pid is None:
        return {"error": "no daemon"}
    c0 = fab.counters()
    sampler = ErrorSampler(fab).start()
    streams = pings(fab, seconds)
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(seconds)
    finally:
        os.kill(pid, signal.SIGCONT)
    lost, sent = finish(streams)
    errors = sampler.stop()
    mis = misalignment(c0, fab.counters())
    out = {"error": filtered_us(sampler.samples()), "least_delay": filtered_us(sampler.samples(best=True)),
           "pings": (lost, sent), "misaligned": mis, "load": _load()}
    print(f"== the daemon stopped (SIGSTOP) for {seconds:g} s under pings (load {out['load']}): |error| vs OCS, "
          f"each round's least delay of {PAIRS} pairs {out['least_delay']}; every pair {out['error']}; "
          f"pings lost {lost} / {sent} ({100 * lost / max(1, sent):.2f} %), by misalignment "
          + ", ".join(f"{k} {v}" for k, v in mis.items()), flush=True)
    return out


# ---- load -----------------------------------------------------------------------------------
class Load:
    """``n`` route computations in a loop, one per core where ``n`` is 0 or None (real work beside the fabric)."""

    def __init__(self, n: int | None = None):
        self.n = n or os.cpu_count() or 2
        self.dir = tempfile.mkdtemp(prefix="uro-bench-load-")
        self.procs: list[subprocess.Popen] = []

    def start(self) -> "Load":
        loop = (f"while true; do {sys.executable} -m controller.cli routes --generate opera --tors 108 --uplinks 6 "
                f"-K 4 -o {self.dir}/r$$.uro >/dev/null 2>&1; done")
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        for _ in range(self.n):
            self.procs.append(subprocess.Popen(["sh", "-c", loop], env=env, start_new_session=True))
        return self

    def stop(self) -> None:
        for p in self.procs:            # the loop and what it runs: its own session, by its PID
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in self.procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        shutil.rmtree(self.dir, ignore_errors=True)


# ---- main -----------------------------------------------------------------------------------
def main(quick: bool = False, duration_s: float = 600.0, load: int | None = None, hold_pps: int | None = None,
         switch_niceness: int | None = None) -> int:
    """``load``: None, no load; 0, a route computation per core; N > 0, N of them.
    ``switch_niceness``: the switches' nice increment (None: the emulator's default)."""
    why = _need()
    if why:
        print(f"clock benchmark skipped: {why}")
        return 0
    from controller.emulate import clockfault, config

    if quick:                       # about 5 minutes on a quiet machine, fabric bring-up included
        duration_s = min(duration_s, 40.0)
    state = tempfile.mkdtemp(prefix="uro-bench-clock-")
    cfg = dataclasses.replace(config.load(ROOT / "examples" / "emu-8x2.toml"), state_root=state,
                              prefix=f"uc{os.getpid() % 1000}"[:6], clock_mode="sync", start_gap_s=1.0,
                              max_delay_us=1000.0)
    if hold_pps is not None:
        cfg = dataclasses.replace(cfg, hold_pps=hold_pps)
    if switch_niceness is not None:
        cfg = dataclasses.replace(cfg, switch_niceness=switch_niceness)
    print(f"== uro bench --suite clock: 8x2, {cfg.slice_ms:g} ms slices, switches started {cfg.start_gap_s:g} s "
          f"apart, tor1 +200 ppm, tor2 -200 ppm, {duration_s:g} s of measurement"
          + ("" if load is None else ", with a route computation on each core (--load)" if load == 0
             else f", with {load} route computations beside it (--load {load})")
          + f", hold queues at {cfg.hold_pps} packets/s, switches at nice {_nice(cfg.switch_niceness)}"
          + f"; {os.cpu_count()} cores, load average {_load()} at the start", flush=True)
    lo = None if load is None else Load(load).start()
    fab = None
    res: dict = {}
    try:
        fab = Fabric(cfg)
        print(f"== up in {fab.up_s:.1f} s (every switch programmed and its clock synchronized; load {_load()})")
        for tor, ppm in DRIFTS.items():
            clockfault.apply(fab.plan, fab.sdir, fab.arts["tor"].contract, tor, ppm=ppm)
        fl = _phase_guard(res, "floor_samples", floor, fab, 30 if quick else 200)
        if "error" not in fl:
            res["floor"] = {n: filtered_us(v) for n, v in fl.items()}
            print(f"== the method's floor (two probes of one switch; load {_load()}): "
                  + "; ".join(f"{n} {v}" for n, v in res["floor"].items()), flush=True)
        _phase_guard(res, "sync_per_hop", phase, fab, "sync mode, per-hop routes", duration_s / 2)

        def ssrr():
            t = fab.restart_daemon("sync", source_routed=tuple(range(cfg.tors)))
            print(f"   (daemon restarted with every destination source-routed: ready in {t:.1f} s, clocks adopted)")
            return phase(fab, "sync mode, every destination source-routed", duration_s / 2)

        _phase_guard(res, "sync_ssrr", ssrr)
        _phase_guard(res, "convergence", convergence, fab)
        _phase_guard(res, "sigstop", stopped_daemon, fab, 15.0 if quick else 60.0)

        def timer():
            t = fab.restart_daemon("timer", source_routed=())
            print(f"   (daemon restarted in timer mode, per-hop routes: ready in {t:.1f} s)")
            return phase(fab, "timer mode (the daemon's timer), per-hop routes",
                         min(duration_s / 2, 300.0))

        _phase_guard(res, "timer_per_hop", timer)
    finally:
        if fab is not None:
            fab.close()
        if lo is not None:
            lo.stop()
        shutil.rmtree(state, ignore_errors=True)
    print(f"== load average at the end: {_load()}")
    return 0
