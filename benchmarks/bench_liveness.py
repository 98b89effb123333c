"""`uro bench --suite liveness` (root, bmv2, p4c): failures found by the switches themselves
on the emulated fabric (docs/liveness.md "Measured").

One 8x2 fabric (examples/emu-8x2.toml: 50 ms slices, S = 4, a 200 ms cycle) in sync mode
with ``[liveness] down_after = 3`` (the default), every host pair pinging every
``--ping-interval`` seconds throughout (default 0.5 s, the clock suite's rate: what nine
software switches carry on two cores; a faster rate measures the emulation's starvation,
not liveness). Each failure below is made for real, first with the daemon
running, then with the daemon stopped (``kill -STOP``; continued after the failure healed):

- **a cut cable** (tor3's uplink 0: both wire ends down, netlink tells the daemon);
- **a dead OCS port in some slices only** (tor4's uplink 1 dead in slices 1 and 2: the
  OCS emulator's port fault register; no port state changes);
- **a ToR answering with the wrong id** (tor6's clock goes by id 2: its fault register);
- **a dead ToR** (tor5's switch process stopped).

Per failure: the time from the failure to every ToR having marked the circuits it
silenced (``controller.emulate.livewatch``: each ToR's ``live_mask`` read over Thrift every
25 ms), in ms and slices, per ToR and the last; the same counted from each ToR's first
missed circuit (the start of the first slice after the failure in which the circuit
recurs) less the ideal ``down_after`` cycles (a slice is judged when its slot comes round
again); then the time until **every other ToR routes around it** too: each circuit marked
by one of its ends or in the ToR's notice map (``live_note_map``, read with the marks) from
an end that marked it, the failed ToR itself left out (the notices in-band, docs/liveness.md
"Notices"), with what the ToRs counted in their ``notices`` counters meanwhile; after the
heal, the time until no ToR's map names the circuits any more; next to it, the daemon's own
reaction in the same run (its failure report: source, detection after the failure, its dead
mask written, new generation), every failure it declared during the run and the units it
holds suppressed for flapping ([liveness.damping]); the pings lost before, until every ToR marked, while marked,
and after the heal; then the heal and the time until every mark is cleared. Then **false
alarms**: every-pair pings and no failure for ``--duration`` seconds (``--quick``: 60), quiet
and then with a route computation on each core (``--load`` as in the clock suite), counting
the marks set. The load average is printed next to every figure; nothing is asserted.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_clock import PING_INTERVAL_S, Fabric, _load, _need   # the same fabric, its tools and load line
from benchmarks.machine import nice_as_started as _nice
from benchmarks.bench_clock import pings as _pings

ROOT = Path(__file__).resolve().parents[1]
#: seconds the daemon may take to program and clock every switch at the start
READY_TIMEOUT_S = 400.0
#: the cells of the ToRs' ``sync`` counter a TRIGGER ends in (docs/clock.md): a REQ sent,
#: none due on its uplink (a notice may go instead), or taken outside its slice's exchange
#: window -- no REQ, so the peer's silence there is no verdict (``unasked``)
TRIGGER_CELLS = ("req_sent", "ref_req_sent", "not_due", "outside_window")
#: the failures: (label, kind, ids)
FAILURES = [
    ("cut cable: tor3 uplink 0", "link", [3, 0]),
    ("dead OCS port in slices 1, 2 only: tor4 uplink 1", "port", [4, 1, 1, 2]),
    ("wrong id: tor6 answers as tor2", "id", [6, 2]),
    ("dead ToR: tor5", "tor", [5]),
]


class Bench(Fabric):
    """The clock benchmark's fabric with its mark watch and the pieces a failure needs."""

    def __init__(self, cfg, ping_interval_s: float = PING_INTERVAL_S):
        from controller.emulate import livewatch

        self._clis: list = []
        self.ping_interval_s = ping_interval_s
        # its daemon may take minutes to clock every switch: false marks at the start make
        # new generations, and the machine is loaded by the fabric itself
        super().__init__(cfg, ready_timeout_s=READY_TIMEOUT_S)
        try:
            self.peer = self.routes.schedule.peer
            self.S = self.n_slices
            self.L = cfg.slice_ms / 1e3
            live = self.arts["tor"].contract["liveness"]
            self.liveness_counter, self.notices_counter = live["counter"], live["notices"]["counter"]
            self.sync_counter = self.arts["tor"].contract["clock"]["counter"]
            self.watch = livewatch.MarkWatch(self.plan, self.arts["tor"].contract, notices=True).start()
        except BaseException:
            self.close()
            raise

    # ---- the daemon ----------------------------------------------------------------------
    def daemon_pid(self) -> int:
        from controller.emulate import daemon as dmn

        pid = dmn.running(self.sdir)
        if pid is None:
            raise RuntimeError("the fabric's daemon is not running")
        return pid

    def reports(self, since: float) -> list[dict]:
        """The daemon's failure reports (fail and recover, every source) handled since
        ``since`` (epoch), from its log's ``failure.handled`` lines: the status API keeps the
        last 50 only, fewer than a loaded fabric's false alarms make in one run."""
        from controller.daemon.log import epoch

        try:
            lines = (self.sdir / "logs" / "daemon.log").read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return []
        out = []
        for line in lines:
            if '"failure.handled"' not in line:
                continue
            try:
                e = json.loads(line)
                if epoch(e["ts"]) >= since:
                    out.append(e)
            except (ValueError, KeyError):
                continue
        return out

    def suppressed(self) -> list | None:
        """The units the daemon holds failed for flapping (its status API's
        ``liveness.suppressed``; None: it did not answer)."""
        from controller.emulate import daemon as dmn

        try:
            return dmn.status(self.plan)["liveness"].get("suppressed", [])
        except Exception:                      # noqa: BLE001 -- stopped or busy: not known
            return None

    def settle(self, timeout: float = 20.0) -> float:
        """Until no ToR has a mark and the daemon has nothing failed (or ``timeout``); seconds waited."""
        from controller.emulate import daemon as dmn

        t0 = time.time()
        while time.time() - t0 < timeout:
            marks = any(self.watch.marks(t) for t in range(self.plan.tors))
            try:
                act = dmn.status(self.plan)["failures"]["active"]
                failed = any(act[k] for k in ("uplinks", "tors", "ocs"))
            except Exception:                  # noqa: BLE001 -- busy: ask again
                failed = True
            if not marks and not failed:
                return time.time() - t0
            time.sleep(0.2)
        return time.time() - t0

    # ---- the failures --------------------------------------------------------------------
    def acts(self, kind: str, ids: list[int]):
        """(fail, heal) callables for one failure; each returns the epoch it took effect."""
        from controller import process
        from controller.emulate import fabric, faults, links, procs

        if kind == "link":
            names = self.plan.uplink_link(*ids).wire

            def setl(state):
                t = time.time()
                for n in names:
                    links.set_link(n, state)
                return t
            return (lambda: setl("down")), (lambda: setl("up"))
        if kind in ("port", "id"):
            sw = self.plan.switch("ocs" if kind == "port" else f"tor{ids[0]}")
            cli = procs.RuntimeCLI(sw.thrift_port, sw.name)   # opened first: its start costs seconds
            self._clis.append(cli)

            def put(on: bool):
                t = time.time()
                if kind == "port":
                    faults.set_port(self.plan, self.arts["ocs"].contract, ids[0], ids[1],
                                    tuple(ids[2:]) if on else (), cli=cli)
                else:
                    faults.set_id(self.plan, self.arts["tor"].contract, ids[0], ids[1] if on else None, cli=cli)
                return t
            return (lambda: put(True)), (lambda: put(False))

        def stop():
            t = time.time()
            process.stop(self.sdir / "pids", f"tor{ids[0]}")
            return t

        def start():
            t = time.time()
            fabric.restart_switch(self.plan, self.sdir, f"tor{ids[0]}")
            return t
        return stop, start

    def first_missed(self, t_fail: float, circuits) -> float:
        """The start (epoch) of the first slice after ``t_fail`` in which one of ``circuits``
        ((slice, uplink)) recurs, on the reference's time (the OCS: CLOCK_MONOTONIC)."""
        off = time.time() - time.monotonic()
        k = int((t_fail - off) // self.L) + 1
        slices = {s for s, _ in circuits}
        while (k % self.S) not in slices:
            k += 1
        return k * self.L + off

    def close(self) -> None:
        w = getattr(self, "watch", None)
        if w is not None:
            w.stop()
        for c in self._clis:
            c.close()
        super().close()


def pings(b: Bench, seconds: float):
    """Every pair's pings, one every ``b.ping_interval_s`` (:func:`benchmarks.bench_clock.pings`)."""
    return _pings(b, seconds, b.ping_interval_s)


def lost_by_phase(streams, marks: dict[str, float]) -> dict[str, tuple[int, int]]:
    from controller.emulate import traffic

    traffic.finish_all(streams, timeout=30)
    tot: dict[str, list[int]] = {}
    for s in streams:
        for nm, (lost, sent) in s.phases(marks).items():
            v = tot.setdefault(nm, [0, 0])
            v[0] += lost
            v[1] += sent
    return {nm: (v[0], v[1]) for nm, v in tot.items()}


def one(b: Bench, label: str, kind: str, ids: list[int], stopped: bool, down_after: int,
        lead_s: float = 2.0, hold_s: float = 2.0, timeout_s: float = 15.0) -> dict:
    """One failure (module doc); returns its figures and prints them."""
    from controller.daemon.log import epoch
    from controller.emulate import daemon as dmn
    from controller.emulate import livewatch

    exp = livewatch.expected_marks(b.peer, kind, ids)
    circuits = livewatch.failed_circuits(b.peer, exp)
    learners = [t for t in range(b.plan.tors) if not (kind in ("tor", "id") and t == ids[0])]
    fail, heal = b.acts(kind, ids)
    pid = b.daemon_pid()
    t_start = time.time()
    sup0 = b.suppressed()
    streams = pings(b, lead_s + hold_s + 2 * timeout_s + 60)
    out: dict = {"label": label, "daemon": "stopped" if stopped else "running", "load": _load()}
    conted = False
    try:
        time.sleep(lead_s)
        c0 = counters(b)
        if stopped:
            os.kill(pid, signal.SIGSTOP)
        t_fail = fail()
        already = sorted(t for t, e in exp.items() if e & b.watch.marks(t))
        got = b.watch.wait({t: (lambda m, w, n, e=e: e <= m) for t, e in exp.items()}, t_fail, timeout_s)
        t_all = last(got)
        # a notice follows a mark: waited for until 2 x timeout_s after the failure
        known = b.watch.wait({t: (lambda m, w, n, t=t: all(livewatch.knows(t, c, m, n) for c in circuits))
                              for t in learners}, t_fail, max(0.0, t_fail + 2 * timeout_s - time.time()))
        t_known = last(known)
        c1 = counters(b)
        time.sleep(hold_s)
        t_heal = heal()
        if stopped and kind == "tor":          # a restarted switch has no program until the daemon restores it
            os.kill(pid, signal.SIGCONT)
            conted = True
            try:
                dmn.wait_switch(b.plan, f"tor{ids[0]}", timeout=120)
            except Exception as e:             # noqa: BLE001 -- measured anyway
                print(f"   (tor{ids[0]} not restored within 120 s: {e})", flush=True)
        cleared = b.watch.wait({t: (lambda m, w, n, e=e: not (e & m)) for t, e in exp.items()}, t_heal,
                               120.0 if kind == "tor" else timeout_s)
        t_clear = last(cleared)
        forgot = b.watch.wait({t: (lambda m, w, n: not any((e, s, u) in n for s, u, ends in circuits for e in ends))
                               for t in learners}, t_heal, timeout_s)
        t_forgot = last(forgot)
        time.sleep(1.0)
    finally:
        if stopped and not conted:
            os.kill(pid, signal.SIGCONT)
    marks = {"until_marked": t_fail, "marked": t_all or t_heal, "healed": t_heal,
             "after": (t_clear or t_heal) + 0.5}
    phases = lost_by_phase(streams, marks)
    reps = b.reports(t_start)
    decl, sup1 = declared(reps), b.suppressed()
    per = {t: _ms(v, t_fail) for t, v in got.items()}
    late = {t: None if v is None else (v - b.first_missed(t_fail, exp[t])) * 1e3 - (down_after * b.S)
            * b.L * 1e3 for t, v in got.items()}
    missed = b.first_missed(t_fail, {(s, u) for s, u, _e in circuits})
    evs = [e for e in reps if e.get("op") == "fail" and epoch(e["detected"]) >= t_fail]
    out.update({"already_marked": already, "per_tor_ms": per, "all_ms": _ms(t_all, t_fail),
                "beyond_ideal_ms": late, "clear_ms": _ms(t_clear, t_heal),
                "known_per_tor_ms": {t: _ms(v, t_fail) for t, v in known.items()}, "known_ms": _ms(t_known, t_fail),
                "known_from_first_missed_ms": _ms(t_known, missed), "forgot_ms": _ms(t_forgot, t_heal),
                "notices": moved(c0, c1, b.notices_counter), "declared": decl,
                "suppressed": sup1, "suppressed_new": _new(sup0, sup1),
                "pings": phases, "daemon_events": [
                    {"kind": e["kind"], "target": e["target"], "source": e["source"],
                     "detected_ms": (epoch(e["detected"]) - t_fail) * 1e3, "mask_ms": e.get("dataplane_ms"),
                     "generation_s": e.get("generation_s")} for e in evs]})
    L = b.L * 1e3
    allms = out["all_ms"]
    print(f"== {label}, daemon {out['daemon']} (load {out['load']} -> {_load()}): every ToR marked it in "
          + ("NOT within %g s" % timeout_s if allms is None else f"{allms:.0f} ms ({allms / L:.1f} slices)")
          + "; per ToR " + ", ".join(f"tor{t} " + ("-" if v is None else f"{v:.0f}") for t, v in sorted(per.items()))
          + " ms; beyond down_after cycles from its first missed circuit: "
          + ", ".join(f"tor{t} " + ("-" if v is None else f"{v:+.0f}") for t, v in sorted(late.items())) + " ms"
          + (f" (already marked at the failure, a false alarm: {', '.join(f'tor{t}' for t in already)})"
             if already else ""), flush=True)
    kn, fm = out["known_ms"], out["known_from_first_missed_ms"]
    print(f"   every other ToR routes around it (its own mark or a notice): "
          + ("NOT within %g s" % (2 * timeout_s) if kn is None else
             f"{kn:.0f} ms ({kn / L:.1f} slices) after the failure, {fm:.0f} ms ({fm / L:.1f} slices) after the "
             f"first missed circuit ({fm / L - down_after * b.S:+.1f} slices beyond down_after cycles)")
          + "; per ToR " + ", ".join(f"tor{t} " + ("-" if v is None else f"{v:.0f}")
                                     for t, v in sorted(out["known_per_tor_ms"].items()))
          + " ms; the notices counted meanwhile: " + ", ".join(f"{k} {v}" for k, v in out["notices"].items() if v),
          flush=True)
    for e in out["daemon_events"]:
        print(f"   the daemon: fail {e['kind']} {e['target']} (source {e['source']}) detected "
              f"{e['detected_ms']:.0f} ms after the failure, its dead mask written "
              + ("-" if e["mask_ms"] is None else f"{e['mask_ms']:.0f} ms") + " after that, new generation "
              + ("-" if e["generation_s"] is None else f"{e['generation_s']:.2f} s"), flush=True)
    if not out["daemon_events"]:
        print("   the daemon: no failure reported" + (" (stopped)" if stopped else ""), flush=True)
    print("   " + _declared_line(decl, sup1, out["suppressed_new"]), flush=True)
    fg = out["forgot_ms"]
    print(f"   healed: every mark cleared in "
          + ("NOT within the timeout" if out["clear_ms"] is None else f"{out['clear_ms']:.0f} ms "
                                                                     f"({out['clear_ms'] / L:.1f} slices)")
          + ", no notice map naming it in " + ("NOT within the timeout" if fg is None else
                                               f"{fg:.0f} ms ({fg / L:.1f} slices)")
          + "; pings lost / sent: " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in phases.items()), flush=True)
    return out


def _new(before: list | None, after: list | None) -> list | None:
    """The units in ``after`` not in ``before`` (None: either not known)."""
    if before is None or after is None:
        return None
    return [u for u in after if u not in before]


def _units(units: list | None) -> str:
    if units is None:
        return "not known (the daemon did not answer)"
    return ", ".join(f"{k} {'/'.join(map(str, t)) if isinstance(t, list) else t}" for k, t in units) or "none"


def _declared_line(decl: dict[str, int], sup: list | None, new: list | None) -> str:
    """The daemon's failures and recoveries during a run (by op, kind and source), the units
    suppressed for flapping at its end, and which of them were not at its start."""
    return ("the daemon's failure reports during the run (each a new generation): "
            + (", ".join(f"{v} x {k}" for k, v in decl.items()) or "none")
            + "; suppressed for flapping at its end (held failed if declared): " + _units(sup)
            + ("" if new is None else f" (new in this run: {_units(new)})"))


def _damping() -> str:
    """The daemon's ``[liveness.damping]`` on the emulated fabric (its defaults)."""
    from controller.liveness.damping import DampingParams

    p = DampingParams()
    return (f"({'on' if p.enabled else 'off'}: penalty {p.penalty:g} per flap, suppress above {p.suppress:g}, reuse "
            f"below {p.reuse:g}, half-life {p.half_life_s:g} s, max hold {p.max_hold_s:g} s)")


def last(got: dict[int, float | None]) -> float | None:
    """When the last ToR of a :meth:`~controller.emulate.livewatch.MarkWatch.wait` got there
    (None: some ToR did not)."""
    return None if any(v is None for v in got.values()) else max(got.values())


def _ms(t: float | None, t0: float) -> float | None:
    return None if t is None else (t - t0) * 1e3


def counters(b: Bench) -> dict[str, dict[str, dict[str, int]]]:
    """{ToR: {counter: {cell: value}}} of the fabric's running ToRs, one read per ToR (the
    ``liveness`` counter: heard, silent, ...; the ``notices`` counter: applied, sent, ...)."""
    from controller.emulate import procs

    out: dict[str, dict[str, dict[str, int]]] = {}
    for sw in b.plan.tor_switches:
        try:
            out[sw.name] = procs.read_counters(sw.thrift_port, b.arts["tor"].contract, sw.name)
        except procs.ProcError:              # a stopped ToR (the dead-ToR failure): not counted
            continue
    return out


def moved(c0: dict, c1: dict, counter: str) -> dict[str, int]:
    """Each cell of ``counter``'s growth from ``c0`` to ``c1`` (:func:`counters`), summed
    over the ToRs read both times."""
    tot: dict[str, int] = {}
    for sw in c0.keys() & c1.keys():
        before = c0[sw].get(counter, {})
        for cell, v in c1[sw].get(counter, {}).items():
            tot[cell] = tot.get(cell, 0) + v - before.get(cell, 0)
    return tot


def declared(reports: list[dict]) -> dict[str, int]:
    """The failures the daemon declared and recovered in ``reports``, counted by ``op kind
    (source)`` (each a new generation; a false alarm it acted on: its dead mask too)."""
    out: dict[str, int] = {}
    for e in reports:
        key = f"{e.get('op')} {e.get('kind')} ({e.get('source')})"
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def lost_per_tor(b: Bench, streams) -> dict[int, tuple[int, int]]:
    """{ToR: (lost, sent)} of the pings from or to its hosts (finished streams, in the
    order of :func:`pings`)."""
    from controller.emulate import traffic

    out: dict[int, list[int]] = {}
    for (x, y), s in zip(traffic.all_pairs(b.plan), streams):
        for h in (x, y):
            v = out.setdefault(b.plan.host(h).tor, [0, 0])
            v[0] += s.n - len(s.answered)
            v[1] += s.n
    return {t: (v[0], v[1]) for t, v in sorted(out.items())}


def false_alarms(b: Bench, seconds: float, label: str) -> dict:
    """Every-pair pings and no failure for ``seconds``: the marks set meanwhile, and what
    the switches counted per circuit evaluated (heard, silent, wrong peer, not evaluated);
    where the pings went: what the daemon declared failed meanwhile (acting on false
    marks), the ToRs' drops by reason, the loss per ToR."""
    c0 = counters(b)
    sup0 = b.suppressed()
    t0 = time.time()
    load0 = _load()
    streams = pings(b, seconds)
    time.sleep(seconds)
    phases = lost_by_phase(streams, {})
    c1 = counters(b)
    decl, sup1 = declared(b.reports(t0)), b.suppressed()
    drops = {k: v for k, v in moved(c0, c1, "drops").items() if v}
    per_tor = lost_per_tor(b, streams)
    moved_, notes = moved(c0, c1, b.liveness_counter), moved(c0, c1, b.notices_counter)
    trig = {k: v for k, v in moved(c0, c1, b.sync_counter).items() if k in TRIGGER_CELLS}
    marked = b.watch.marked_since(t0)
    sets = 0
    for t in range(b.plan.tors):
        h = [x for x in b.watch.history[t] if x[0] >= t0]
        prev = b.watch.history[t][0][1] if b.watch.history[t] else frozenset()
        for _t, m, *_rest in h:
            sets += len(m - prev)
            prev = m
    out = {"label": label, "seconds": round(time.time() - t0), "load": f"{load0} -> {_load()}",
           "marks_set": sets, "circuits": {t: sorted(v) for t, v in marked.items()}, "pings": phases["before"],
           "counted": moved_, "notices": notes, "triggers": trig, "declared": decl, "suppressed": sup1,
           "suppressed_new": _new(sup0, sup1), "drops": drops, "lost_per_tor": per_tor}
    print(f"== false alarms, {label} ({out['seconds']} s, load {out['load']}): {sets} mark(s) set on "
          f"{sum(len(v) for v in marked.values())} circuit(s) of {sum(1 for t in marked)} ToR(s)"
          + (" (" + "; ".join(f"tor{t} {v}" for t, v in sorted(out['circuits'].items())) + ")" if marked else "")
          + f"; pings lost {phases['before'][0]} / {phases['before'][1]}; the switches counted "
          + ", ".join(f"{k} {v}" for k, v in moved_.items()) + "; notices counted: "
          + (", ".join(f"{k} {v}" for k, v in notes.items() if v) or "none")
          + "; the TRIGGERs taken (counter sync): " + ", ".join(f"{k} {v}" for k, v in trig.items())
          + " (a REQ per uplink and slice from the first TRIGGER inside the exchange window; a slice whose "
            "TRIGGERs all came outside it sent none, and its silence is judged unasked)",
          flush=True)
    print("   " + _declared_line(decl, sup1, out["suppressed_new"])
          + "; the ToRs dropped: " + (", ".join(f"{k} {v}" for k, v in drops.items()) or "nothing")
          + "; pings lost / sent from or to each ToR: "
          + ", ".join(f"tor{t} {v[0]}/{v[1]}" for t, v in per_tor.items()), flush=True)
    return out


def main(quick: bool = False, duration_s: float = 600.0, ping_interval_s: float = PING_INTERVAL_S,
         switch_niceness: int | None = None) -> int:
    why = _need()
    if why:
        print(f"liveness benchmark skipped: {why}")
        return 0
    from benchmarks.bench_clock import Load
    from controller.emulate import config
    from controller.liveness.params import DEFAULT_DOWN_AFTER

    down_after = DEFAULT_DOWN_AFTER
    quiet_s = min(duration_s, 60.0) if quick else duration_s
    state = tempfile.mkdtemp(prefix="uro-bench-live-")
    cfg = dataclasses.replace(config.load(ROOT / "examples" / "emu-8x2.toml"), state_root=state,
                              prefix=f"ul{os.getpid() % 1000}"[:6], clock_mode="sync", liveness_down_after=down_after)
    if switch_niceness is not None:
        cfg = dataclasses.replace(cfg, switch_niceness=switch_niceness)
    print(f"== uro bench --suite liveness: 8x2, {cfg.slice_ms:g} ms slices, a {4 * cfg.slice_ms:g} ms cycle, "
          f"[liveness] down_after = {down_after}, flap damping {_damping()}, every host pair pinging every "
          f"{ping_interval_s:g} s, switches at nice {_nice(cfg.switch_niceness)}; "
          f"{os.cpu_count()} cores, load average {_load()} at the start", flush=True)
    b = None
    res: dict = {"failures": [], "false_alarms": []}
    try:
        b = Bench(cfg, ping_interval_s)
        print(f"== up in {b.up_s:.1f} s (load {_load()}); marks read every {b.watch.period_s * 1e3:.0f} ms "
              f"(median time between two reads of one ToR)", flush=True)
        print(f"   settled in {b.settle():.1f} s", flush=True)
        for stopped in (False, True):
            for label, kind, ids in FAILURES:
                try:
                    res["failures"].append(one(b, label, kind, ids, stopped, down_after))
                except Exception as e:          # noqa: BLE001 -- a benchmark reports and goes on
                    print(f"== {label}, daemon {'stopped' if stopped else 'running'}: FAILED "
                          f"({type(e).__name__}: {e}; load {_load()})", flush=True)
                print(f"   settled in {b.settle():.1f} s", flush=True)
        print(f"   marks read every {b.watch.period_s * 1e3:.0f} ms (median)", flush=True)
        res["false_alarms"].append(false_alarms(b, quiet_s, "quiet"))
        lo = Load().start()
        try:
            time.sleep(10)                      # the load average climbs
            res["false_alarms"].append(false_alarms(b, quiet_s, "a route computation on each core"))
        finally:
            lo.stop()
    finally:
        if b is not None:
            b.close()
        shutil.rmtree(state, ignore_errors=True)
    print(f"== load average at the end: {_load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(quick="--quick" in sys.argv))
