"""The slice clock on the emulated fabric (sync mode, the default; docs/clock.md): the
switches started seconds apart keep one time and forward; the clocks stay aligned with
the daemon stopped; a step injected into a ToR's clock is corrected; a drift is tracked.

The error is measured from outside as `uro bench --suite clock` does (kernel-timestamped
PROBEs through the pktgen ports, controller/emulate/clockprobe.py): a ToR's clock minus
the OCS emulator's, each against the host at its probe's midpoint. Bounds are the
guard (5 ms: what the fabric needs to forward in the right slice) or a fraction of an
injected fault, never a timing of the machine; the figures are printed at the end.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import statistics
import time

import pytest
from emulate_tests.conftest import bring_up, example, figure

#: the fabric's reconfiguration guard: an error under it keeps packets in their slice
GUARD_NS = 5_000_000
#: how long the drift test lets tor2 drift (s)
DRIFT_S = 16
#: a measurement is used when its probes' round trips say it is within this of the truth
MAX_UNCERTAINTY_NS = 1_000_000
#: how long the cut cable's ends have to mark it (and to clear it after the join): a ToR
#: judges a circuit only in slices it asked in with its clock synchronized, and at a load
#: of 15-25 on two cores a starved bmv2's TRIGGERs come late (``unasked``) and its clock
#: loses the exchange (``paused``) for long stretches: one end marked nothing in 30 s in
#: such a run, twice. The figure the test prints is the time it took.
MARK_WAIT_S = 60.0


@pytest.fixture(scope="module")
def clk_fab(state_root):
    cfg = dataclasses.replace(example(), clock_mode="sync", start_gap_s=0.7, max_delay_us=1000)
    with bring_up(cfg, "c", state_root) as env:
        yield env


def errors(env, names=None, rounds: int = 5, pause: float = 0.05, tries: int = 10) -> dict[str, list[int]]:
    """``rounds`` measurements of each ToR's error against the OCS emulator (ns), each the
    first of up to ``tries`` whose uncertainty (half the probes' round trips) is within
    MAX_UNCERTAINTY_NS: on a loaded machine a probe may wait in bmv2 for tens of ms, and
    such a measurement says nothing about the clocks."""
    from controller.emulate.clockprobe import Prober, error_ns, uncertainty_ns

    names = names or [s.name for s in env.plan.tor_switches]
    out: dict[str, list[int]] = {n: [] for n in names}
    L = round(env.cfg.slice_ms * 1e6)
    with Prober.for_plan(env.plan, names + ["ocs"]) as pr:
        for _ in range(rounds):
            for n in names:
                for _ in range(tries):
                    got = pr.probe([n, "ocs"])
                    if n in got and "ocs" in got and uncertainty_ns(got[n], got["ocs"]) <= MAX_UNCERTAINTY_NS:
                        out[n].append(error_ns(got[n], got["ocs"], L, env.n_slices))
                        break
            time.sleep(pause)
    return out


def worst(errs: dict[str, list[int]]) -> int:
    return max((abs(e) for v in errs.values() for e in v), default=None)


def load() -> str:
    return open("/proc/loadavg").read().split()[0]


def test_switches_started_apart_keep_one_time_and_forward(clk_fab):
    """Every switch was started 0.7 s after the previous one: their raw clocks differ by
    seconds, yet the daemon reports every clock synchronized, every ToR is within the
    guard of the OCS emulator, and pings cross the fabric."""
    from controller.emulate import traffic
    from controller.emulate.clockprobe import Prober

    st = clk_fab.status()["clock"]
    assert st["mode"] == "sync" and all(c["synced"] for c in st["switches"].values()), st
    with Prober.for_plan(clk_fab.plan) as pr:       # raw local clocks: the PROBE_REPLY's aux
        names = [s.name for s in clk_fab.plan.switches]
        got = pr.probe(names)
    assert set(got) == set(names)
    errs = errors(clk_fab)
    figure(f"[clock] started 0.7 s apart; every ToR vs the OCS: worst |error| {worst(errs) / 1e3:.0f} us over "
           f"{sum(map(len, errs.values()))} probes (load {load()})")
    assert all(errs.values()), f"some ToR gave no measurement within {MAX_UNCERTAINTY_NS} ns: {errs}"
    assert worst(errs) < GUARD_NS, errs
    res = traffic.ping_pairs(clk_fab.plan, [("h0_0", "h5_0"), ("h3_0", "h6_0"), ("h7_0", "h1_0")], count=3,
                             interval=0.3, wait_s=2.0)
    assert all(r.received for r in res), [(r.src, r.dst, r.received) for r in res]


def test_the_clocks_keep_time_with_the_daemon_stopped(clk_fab):
    """SIGSTOP the daemon (continued in a finally): the switches keep their time, the
    ToRs stay within the guard, pings keep crossing."""
    from controller.emulate import daemon as dmn
    from controller.emulate import traffic

    pid = dmn.running(clk_fab.sdir)
    assert pid is not None
    stream = traffic.PingStream(clk_fab.plan, "h2_0", "h6_0", 20, 0.25)
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(1.0)
        errs = errors(clk_fab, rounds=10, pause=0.3)
    finally:
        os.kill(pid, signal.SIGCONT)
    got = stream.finish(timeout=20)
    figure(f"[clock] daemon stopped ~5 s: worst |error| {worst(errs) / 1e3:.0f} us, pings {len(got)}/{stream.n} "
           f"(load {load()})")
    assert all(errs.values()), errs
    assert worst(errs) < GUARD_NS, errs
    assert len(got) >= stream.n // 2, f"{stream.n - len(got)} of {stream.n} pings lost with the daemon stopped"


def test_a_step_of_a_tor_clock_is_corrected(clk_fab):
    """A 5 ms step injected into tor3's clock (the emulated fault registers): within a few
    seconds its error is back under a fifth of the step."""
    from controller.emulate import clockfault

    before = worst(errors(clk_fab, ["tor3"]))
    clockfault.apply(clk_fab.plan, clk_fab.sdir, clk_fab.arts["tor"].contract, 3, step_us=5000)
    t0 = time.monotonic()
    end, last = t0 + 20, None
    while time.monotonic() < end:
        last = worst(errors(clk_fab, ["tor3"], rounds=3))
        if last is not None and last < 1_000_000:
            break
    took = time.monotonic() - t0
    figure(f"[clock] tor3 stepped 5 ms: back under 1 ms after {took:.1f} s (before the step {before / 1e3:.0f} us, "
           f"now {last / 1e3:.0f} us; load {load()})")
    assert last is not None and last < 1_000_000, f"tor3's error {last} ns 20 s after a 5 ms step"


def test_a_drifting_tor_clock_is_tracked(clk_fab):
    """tor2's clock runs 200 ppm fast (10 us per 50 ms slice): over 16 s (3.2 ms of free
    drift) its error stays within the guard and ends under half the drift it would have
    accumulated, and no ToR's local slice length leaves the drift bound (the rate step is
    bounded: one exchange's asymmetry cannot swing it). 16 s, not less: on a loaded
    machine a ToR that does not drift reads 1-2 ms off at worst through its probes, and
    most exchanges are too slow to be used (at load 14-22, tor2's RESPs: 1549 `slow`, 21
    `filtered`, 21 `applied`), so a corrected ToR can be 1 ms off between two applied
    exchanges: only a free drift well past that tells tracking from not."""
    from controller.emulate import clockfault, procs

    c = clk_fab.arts["tor"].contract
    clockfault.apply(clk_fab.plan, clk_fab.sdir, c, 2, ppm=200)
    try:
        errs = {"tor2": []}
        t0 = time.monotonic()
        while time.monotonic() - t0 < DRIFT_S:
            errs["tor2"] += errors(clk_fab, ["tor2"], rounds=2, pause=0.2)["tor2"]
        free = round((time.monotonic() - t0) * 200e3)     # ns of drift at 200 ppm, untracked
        reg = c["clock"]["registers"]["len"]
        lens = {sw.name: procs.read_registers(sw.thrift_port, [(reg["name"], 0)], sw.name)[(reg["name"], 0)]
                for sw in clk_fab.plan.tor_switches}
        llen = lens["tor2"]
    finally:
        clockfault.apply(clk_fab.plan, clk_fab.sdir, c, 2, clear=True)
    L = round(clk_fab.cfg.slice_ms * 1e6)
    tail = errs["tor2"][-5:]
    figure(f"[clock] tor2 +200 ppm for {DRIFT_S} s: worst |error| {worst(errs) / 1e3:.0f} us, median of the last five "
           f"{statistics.median(map(abs, tail)) / 1e3:.0f} us (free drift {free / 1e3:.0f} us); its local slice "
           f"{llen - L:+d} ns from L (200 ppm: +{L * 200 // 10**6} ns; load {load()})")
    assert worst(errs) < GUARD_NS, errs
    # the median of the last five: one exchange's path-delay asymmetry (up to max_delay, 1 ms)
    # or a probe's own uncertainty can put a sample past 1 ms on a loaded machine; untracked,
    # all five drift to the free drift
    assert statistics.median(map(abs, tail)) < free // 2, \
        f"tor2's error at the end {tail} ns: not tracked (free drift: {free} ns)"
    # every local slice within 200 ppm of the truth (the others do not drift; a length never
    # written reads 0: L): an exchange off by 1 ms once moved it 62 us (1250 ppm)
    off = {n: (v or L) - L - (L * 200 // 10**6 if n == "tor2" else 0) for n, v in lens.items()}
    assert all(abs(v) <= L * 200 // 10**6 for v in off.values()), f"local slice length - truth (ns): {off}"
    if not llen - L > L * 100 // 10**6:
        # measured (load 2-22): +511, +1619 and +4530 ns after 8 s, +1500 to +5000 ns after 12 s. The rate moves at most rate_step_ppm (10 ppm) per
        # applied exchange, and an exchange's offset (its asymmetry up to filter_us, 125 us here)
        # outweighs the 10 us per slice of drift between two applied exchanges: learning +200 ppm
        # takes tens of seconds of exchanges on this loaded fabric, the bounded rate's price
        pytest.xfail(f"tor2's local slice length {llen} ns: the drift is learnt within {DRIFT_S} s only by an unbounded "
                     f"rate step (L = {L}; docs/clock.md \"The servo\")")


def test_a_cut_cable_is_marked_by_the_switches_with_the_daemon_stopped(clk_fab):
    """Liveness per circuit with no controller (docs/liveness.md): the daemon stopped
    (SIGSTOP), every ToR's liveness turned on for the test (its ``liveness_config`` entry
    written over Thrift: this fabric's daemon runs without ``[liveness]``), tor3's uplink-0
    cable cut: tor3 and each of its uplink-0 peers mark exactly the circuits the cable
    carried; joined again, the marks clear. Everything is put back in a finally."""
    from controller.emulate import daemon as dmn
    from controller.emulate import links, livewatch, procs
    from controller.liveness.params import LivenessParams
    from controller.tables.liveness import liveness_config_entry

    c = clk_fab.arts["tor"].contract
    t = c["tables"]["liveness_config"]
    on = {}
    for sw in clk_fab.plan.tor_switches:
        e = liveness_config_entry(c, clk_fab.routes.schedule, LivenessParams(enabled=True, down_after=2), sw.tor)
        on[sw.name] = f"table_set_default {e.table} {e.action} " + " ".join(str(v) for _, v in e.params)
    off = f"table_set_default {t['name']} {t['actions']['liveness_off']['name']}"
    cable = clk_fab.plan.uplink_link(3, 0).wire
    expect = livewatch.expected_marks(clk_fab.routes.schedule.peer, "link", [3, 0])
    pid = dmn.running(clk_fab.sdir)
    assert pid is not None
    watch = None
    os.kill(pid, signal.SIGSTOP)
    try:
        for sw in clk_fab.plan.tor_switches:
            with procs.RuntimeCLI(sw.thrift_port, sw.name) as cli:
                cli.run([on[sw.name]], "liveness on")
        watch = livewatch.MarkWatch(clk_fab.plan, c).start()
        time.sleep(1.0)
        t_cut = time.time()
        for n in cable:
            links.set_link(n, "down")
        marked = watch.wait({t: (lambda m, w, n, e=e: e <= m) for t, e in expect.items()}, t_cut, MARK_WAIT_S)
        # what an end that did not mark counted (its liveness and sync counters): for the
        # failure message only
        why = {t: {g: {k: v for k, v in n.items() if v} for g, n in clk_fab.counters(f"tor{t}").items()
                   if g in ("liveness", "sync")} for t, v in marked.items() if v is None}
        t_join = time.time()
        for n in cable:
            links.set_link(n, "up")
        cleared = watch.wait({t: (lambda m, w, n, e=e: not (e & m)) for t, e in expect.items()}, t_join, MARK_WAIT_S)
    finally:
        for n in cable:
            links.set_link(n, "up")
        if watch is not None:
            watch.stop()
        try:
            for sw in clk_fab.plan.tor_switches:
                with procs.RuntimeCLI(sw.thrift_port, sw.name) as cli:
                    cli.run([off], "liveness off")
        finally:
            os.kill(pid, signal.SIGCONT)
    figure(f"[liveness] cable tor3/0 cut, daemon stopped: every end marked it in "
           + ("-" if None in marked.values() else f"{(max(marked.values()) - t_cut) * 1e3:.0f} ms")
           + ", cleared after the join in "
           + ("-" if None in cleared.values() else f"{(max(cleared.values()) - t_join) * 1e3:.0f} ms")
           + f" (down_after 2, marks read every {watch.period_s * 1e3:.0f} ms; load {load()})")
    assert set(expect) == {3} | {int(clk_fab.routes.schedule.peer[s, 3, 0]) for s in range(clk_fab.n_slices)
                                 if clk_fab.routes.schedule.peer[s, 3, 0] >= 0}
    assert all(v is not None for v in marked.values()), \
        f"not marked by every end: {marked} (expected {expect}); counters of those that did not: {why}"
    assert all(v is not None for v in cleared.values()), f"not cleared after the join: {cleared}"
