"""Chaos drills on a running emulated fabric (``uro emulate chaos``).

A seeded random sequence of link, ToR and OCS failures and recoveries, daemon SIGKILLs
and restarts, switch process restarts behind the daemon's back, and config reloads, under
a ping stream between all host pairs. After every step the drill waits until the network
settles and checks the invariants an operator relies on:

- **status API true**: the daemon's active failures are exactly what the drill failed;
- **desired state**: every switch that should run is running (its process, by PID) and
  programmed (up, a generation active), every failed ToR's process is stopped;
- **one generation**: every running ToR stamps the same generation and has one live
  (a network-wide update finished: Reitblatt et al. 2012, docs/daemon.md);
- **no mix**: packets routed by a mix of generations cannot happen by construction (a ToR
  routes by the stamp or drops); the ToRs' ``stale_gen`` drops (a packet that outstayed
  its generation's hold) are reported per step;

and at the end that nothing leaked (processes, namespaces: exactly the plan's). It reports
loss per step (the echoes sent between one step and the next) and each step's time to
settle. :func:`plan_steps` is pure (the sequence a seed gives); :func:`run` does the I/O.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from controller.emulate import daemon as dmn
from controller import process
from controller.emulate import fabric, links, traffic
from controller.errors import UroError

#: how long after a step settled its stale_gen drops are read: the daemon reads the
#: switches' counters every few seconds (docs/daemon.md)
_COUNTER_LAG_S = 5.0

#: what a step can do
ACTIONS = ("fail", "recover", "daemon_kill", "switch_restart", "reload")
KINDS = ("link", "tor", "ocs")


class ChaosError(UroError):
    pass


@dataclass(frozen=True)
class Step:
    """One action ``at_s`` seconds after the drill's start (a step also waits for the one
    before it to settle, so it may start later)."""
    at_s: float
    action: str
    kind: str | None = None
    ids: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        return " ".join([self.action.replace("_", " ")] + ([self.kind] if self.kind else []) + [str(i) for i in self.ids])


@dataclass(frozen=True)
class Failures:
    """The elements a drill holds failed: ``(kind, ids)`` pairs."""
    items: frozenset[tuple[str, tuple[int, ...]]] = frozenset()

    def uplinks(self, tors: int) -> set[tuple[int, int]]:
        out = set()
        for kind, ids in self.items:
            if kind == "link":
                out.add((ids[0], ids[1]))
            elif kind == "ocs":
                out |= {(t, ids[0]) for t in range(tors)}
        return out

    def tors(self) -> set[int]:
        return {ids[0] for kind, ids in self.items if kind == "tor"}

    def with_(self, kind: str, ids: tuple[int, ...]) -> "Failures":
        return Failures(self.items | {(kind, ids)})

    def without(self, kind: str, ids: tuple[int, ...]) -> "Failures":
        return Failures(self.items - {(kind, ids)})


def _candidates(kind: str, failed: Failures, tors: int, uplinks: int) -> list[tuple[int, ...]]:
    """Elements of ``kind`` that may fail next: not failed, not touching a failed ToR, and
    leaving every ToR at least one uplink (a ToR cut off entirely is a ToR failure, and
    the drill has its own kind for that) -- a failed ToR too, so that it comes back with
    an uplink whichever step recovers it first."""
    dead_t = failed.tors()
    down = failed.uplinks(tors)
    if kind == "tor":
        return [(t,) for t in range(tors) if t not in dead_t and len(dead_t) + 1 < tors]

    def keeps_one(extra: set[tuple[int, int]]) -> bool:
        gone = down | extra
        return all(any((t, u) not in gone for u in range(uplinks)) for t in range(tors))

    if kind == "ocs":     # not over a cable already cut (the fabric refuses that: nothing would change there)
        return [(u,) for u in range(uplinks)
                if not any((t, u) in down for t in range(tors)) and keeps_one({(t, u) for t in range(tors)})]
    return [(t, u) for t in range(tors) for u in range(uplinks)
            if t not in dead_t and (t, u) not in down and keeps_one({(t, u)})]


def plan_steps(seed: int, tors: int, uplinks: int, duration_s: float, gap_s: tuple[float, float] = (4.0, 10.0),
               max_failed: int = 2, actions: tuple[str, ...] = ACTIONS) -> list[Step]:
    """The drill a seed gives: steps spaced ``gap_s`` apart (uniform) until ``duration_s``,
    at most ``max_failed`` elements failed at a time, then every element still failed
    recovered (one step each), so the drill ends with the network whole. A daemon is
    killed only while no ToR is failed (a ToR's failure is declared to a daemon over its
    API and dies with it, docs/daemon.md; the restarted one finds links by netlink)."""
    for a in actions:
        if a not in ACTIONS:
            raise ChaosError(f"chaos action {a!r}: not one of {', '.join(ACTIONS)}")
    if tors < 3 or uplinks < 1:
        raise ChaosError(f"chaos needs at least 3 ToRs and 1 uplink (the fabric has {tors} x {uplinks})")
    if max_failed < 0:
        raise ChaosError(f"chaos: --max-failed {max_failed} must be 0 or more")
    if duration_s <= 0 or gap_s[0] <= 0 or gap_s[1] < gap_s[0]:
        raise ChaosError(f"chaos: duration {duration_s:g} s and gap {gap_s[0]:g}..{gap_s[1]:g} s must be positive "
                         f"and ordered")
    rng = random.Random(seed)
    failed = Failures()
    steps: list[Step] = []
    t = rng.uniform(*gap_s)
    while t < duration_s:
        options: list[Step] = []
        if "recover" in actions:
            options += [Step(t, "recover", k, ids) for k, ids in sorted(failed.items)]
        if "fail" in actions and len(failed.items) < max_failed:
            for kind in KINDS:
                cands = _candidates(kind, failed, tors, uplinks)
                if cands:
                    options.append(Step(t, "fail", kind, rng.choice(cands)))
        if "daemon_kill" in actions and not failed.tors():
            options.append(Step(t, "daemon_kill"))
        if "switch_restart" in actions:
            live = [x for x in range(tors) if x not in failed.tors()]
            options.append(Step(t, "switch_restart", "tor", (rng.choice(live),)))
        if "reload" in actions:
            options.append(Step(t, "reload"))
        if not options:
            break
        step = rng.choice(options)
        if step.action == "fail":
            failed = failed.with_(step.kind, step.ids)
        elif step.action == "recover":
            failed = failed.without(step.kind, step.ids)
        steps.append(step)
        t += rng.uniform(*gap_s)
    for kind, ids in sorted(failed.items):
        steps.append(Step(t, "recover", kind, ids))
        t += gap_s[0]
    return steps


# ---- running a drill -------------------------------------------------------------------------
@dataclass
class StepResult:
    step: Step
    started: float                  # epoch
    settle_s: float | None          # from the action's start to every invariant holding (None: never)
    lines: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    lost: int = 0
    sent: int = 0
    stale_gen: int = 0


@dataclass
class Report:
    seed: int
    steps: list[StepResult]
    seconds: float
    violations: list[str]           # every step's, then the leaks
    lost: int
    sent: int
    load: str
    leaks: list[str] = field(default_factory=list)

    def summary(self) -> list[str]:
        out = []
        for i, r in enumerate(self.steps):
            settle = "never settled" if r.settle_s is None else f"settled in {r.settle_s:.1f} s"
            loss = f"loss {r.lost}/{r.sent}" + (f" ({100 * r.lost / r.sent:.0f}%)" if r.sent else "")
            out.append(f"step {i + 1:2d} +{r.started - self.steps[0].started:6.1f} s  {r.step.label:<22} {settle}; "
                       f"{loss}; stale_gen {r.stale_gen}" + "".join(f"\n    VIOLATION: {v}" for v in r.violations))
        settles = sorted(r.settle_s for r in self.steps if r.settle_s is not None)
        med = f"{settles[len(settles) // 2]:.1f}" if settles else "-"
        mx = f"{settles[-1]:.1f}" if settles else "-"
        out.append(f"chaos seed {self.seed}: {len(self.steps)} steps in {self.seconds:.0f} s, loss {self.lost}/{self.sent}"
                   + (f" ({100 * self.lost / self.sent:.1f}%)" if self.sent else "")
                   + f", settle median {med} s max {mx} s, {len(self.violations)} violation(s); load {self.load}")
        out += [f"VIOLATION: {v}" for v in self.leaks]
        return out


def _tor_counters(plan) -> dict[str, int]:
    """``{tor: stale_gen}`` as the daemon last read the ToRs' counters (its maintenance
    reads them every few seconds over P4Runtime; reading them out of band over Thrift
    costs a ``simple_switch_CLI`` per switch, tens of seconds on a loaded machine)."""
    try:
        st = dmn.status(plan, timeout=5.0)
    except UroError:
        return {}
    return {s["name"]: (s.get("counters") or {}).get("drops", {}).get("stale_gen", 0)
            for s in st["switches"] if s["role"] == "tor"}


def _stale_between(before: dict[str, int], after: dict[str, int]) -> int:
    """stale_gen drops counted between two readings (a restarted switch counts from 0)."""
    return sum(n - before.get(k, 0) if n >= before.get(k, 0) else n for k, n in after.items())


def check(plan, sdir: Path, failed: Failures) -> list[str]:
    """The invariants that hold once the network settled after a step (module docstring);
    returns what does not hold (empty: all do)."""
    bad: list[str] = []
    dead = failed.tors()
    pid_dir = sdir / "pids"
    if dmn.running(sdir) is None:
        return [f"the daemon is not running (its log ends: {dmn.last_lines(sdir / 'logs' / f'{dmn.NAME}.log')})"]
    for sw in plan.switches:
        pid = process.running(pid_dir, sw.name)
        if sw.role == "tor" and sw.tor in dead:
            if pid is not None:
                bad.append(f"{sw.name} is failed but its process {pid} runs")
        elif pid is None:
            bad.append(f"{sw.name}: no process runs (its log ends: {dmn.last_lines(sdir / 'logs' / f'{sw.name}.log')})")
    try:
        st = dmn.status(plan, timeout=5.0)
    except UroError as e:
        return bad + [f"status API: {e}"]
    act = st["failures"]["active"]
    want_up = sorted(failed.uplinks(plan.tors))
    if sorted(map(tuple, act["uplinks"])) != want_up or sorted(act["tors"]) != sorted(dead):
        bad.append(f"status API says failed uplinks {act['uplinks']} tors {act['tors']}, the drill failed "
                   f"uplinks {[list(x) for x in want_up]} tors {sorted(dead)}")
    gens = set()
    for s in st["switches"]:
        if s["role"] == "tor" and s.get("tor") in dead:
            continue
        if not dmn.programmed(s):
            bad.append(f"{s['name']}: state {s['state']}, generation {s['generation']} (not programmed)")
            continue
        if s["role"] == "tor":
            gens.add(s["generation"])
            if len(s.get("live_generations") or []) != 1:
                bad.append(f"{s['name']}: live generations {s.get('live_generations')} (an update did not finish)")
    if len(gens) > 1:
        bad.append(f"the ToRs stamp different generations {sorted(gens)}")
    return bad


def _settle(plan, sdir: Path, failed: Failures, timeout: float) -> tuple[float | None, list[str]]:
    """(seconds until every invariant held, or None; what still did not hold)."""
    t0 = time.monotonic()
    bad: list[str] = []
    while time.monotonic() - t0 < timeout:
        bad = check(plan, sdir, failed)
        if not bad:
            return time.monotonic() - t0, []
        time.sleep(0.25)
    return None, bad


def _restart_daemon(plan, sdir: Path) -> list[str]:
    pid = dmn.kill(sdir)
    new = dmn.start(sdir, plan, sdir / "net.toml", log=lambda m: None)
    return [f"daemon pid {pid} killed (SIGKILL), pid {new} started and programmed every switch"]


def _act(prefix: str, root: str | Path, plan, sdir: Path, step: Step) -> list[str]:
    if step.action in ("fail", "recover"):
        fn = fabric.fail if step.action == "fail" else fabric.recover
        return fn(prefix, step.kind, list(step.ids), root)
    if step.action == "daemon_kill":
        return _restart_daemon(plan, sdir)
    if step.action == "switch_restart":
        name = f"tor{step.ids[0]}"
        fabric.restart_switch(plan, sdir, name)
        return [f"{name} restarted behind the daemon's back (its tables are gone)"]
    r = dmn.declare(plan, sdir, "reload", {}, timeout=120)
    return [f"config reloaded: {'ok' if r.get('ok') else r}"]


def run(prefix: str, steps: list[Step], seed: int = 0, state_root: str | Path = "/run/uro-emu",
        settle_timeout_s: float = 120.0, interval_s: float = 0.5, log=print) -> Report:
    """Carry out ``steps`` on the running fabric ``prefix`` under a ping stream between
    all host pairs; checks the invariants after every step (:func:`check`) and at the
    end that nothing leaked. Every element the drill failed is recovered before it
    returns, even when a step raises."""
    plan = fabric.need_plan(prefix, state_root)
    sdir = fabric.state_dir(state_root, prefix)
    already = fabric.read_failures(sdir)
    if already:
        raise ChaosError(f"fabric {prefix}: elements are failed already ({already}): recover them before a drill")
    if dmn.running(sdir) is None:
        raise ChaosError(f"fabric {prefix}: no daemon runs on it (built with --no-daemon?): nothing to drill")
    bad0 = check(plan, sdir, Failures())
    if bad0:
        raise ChaosError(f"fabric {prefix} is not settled before the drill: {'; '.join(bad0)}")
    span = (steps[-1].at_s if steps else 0.0) + len(steps) * settle_timeout_s
    n = int(span / interval_s) + 1
    streams = [traffic.PingStream(plan, a, b, n, interval_s) for a, b in traffic.all_pairs(plan)]
    t_start = time.monotonic()
    results: list[StepResult] = []
    failed = Failures()
    try:
        for step in steps:
            time.sleep(max(0.0, t_start + step.at_s - time.monotonic()))
            before = _tor_counters(plan)
            r = StepResult(step, time.time(), None)
            results.append(r)
            log(f"chaos: {step.label}")
            t_act = time.monotonic()
            try:
                r.lines = _act(prefix, state_root, plan, sdir, step)
            except UroError as e:       # e.g. the daemon's report late: a violation, the drill goes on
                r.violations.append(f"the step itself failed: {e}")
                log(f"chaos:   the step failed: {e}")
            if step.action in ("fail", "recover"):
                # what the fabric records as failed (it records before it acts, forgets after)
                rec = {"kind": step.kind, "ids": list(step.ids)} in fabric.read_failures(sdir)
                failed = failed.with_(step.kind, step.ids) if rec else failed.without(step.kind, step.ids)
            settled, bad = _settle(plan, sdir, failed, settle_timeout_s)
            r.violations += bad
            r.settle_s = None if settled is None else time.monotonic() - t_act
            time.sleep(_COUNTER_LAG_S)
            r.stale_gen = _stale_between(before, _tor_counters(plan))
            log("chaos:   " + ("never settled: " + "; ".join(r.violations) if r.settle_s is None
                                else f"settled in {r.settle_s:.1f} s"))
    finally:
        for kind, ids in sorted(failed.items):      # whatever a raising step left failed
            try:
                fabric.recover(prefix, kind, list(ids), state_root)
            except UroError as e:
                log(f"chaos: could not recover {kind} {ids}: {e}")
        if dmn.running(sdir) is None:               # a daemon that died, or a restart that failed
            try:
                dmn.start(sdir, plan, sdir / "net.toml", log=lambda m: None)
                log("chaos: the daemon was not running at the drill's end: started again")
            except UroError as e:
                log(f"chaos: could not start the daemon again: {e}")
        for s in streams:
            s.finish(30.0)
    seconds = time.monotonic() - t_start
    marks = {f"{i}": r.started for i, r in enumerate(results)}
    for s in streams:
        for name, (lost, sent) in s.phases(marks).items():
            if name != "before":
                results[int(name)].lost += lost
                results[int(name)].sent += sent
    leaked = leaks(plan, sdir)
    violations = [f"{r.step.label}: {v}" for r in results for v in r.violations] + leaked
    return Report(seed, results, seconds, violations, sum(r.lost for r in results), sum(r.sent for r in results),
                  open("/proc/loadavg").read().split()[0], leaked)


def leaks(plan, sdir: Path) -> list[str]:
    """Processes and namespaces of the fabric that are not the plan's (a drill must leave
    exactly the plan's switches, its daemon and its hosts' namespaces)."""
    out = []
    want = {sw.name for sw in plan.switches} | {dmn.NAME}
    for name in process.pid_names(sdir / "pids"):
        if process.running(sdir / "pids", name) is not None and name not in want:
            out.append(f"process {name} runs and is not the plan's")
    ns_want = {h.netns for h in plan.hosts}
    extra = sorted(set(links.existing_netns(plan.prefix)) - ns_want)
    missing = sorted(ns_want - set(links.existing_netns(plan.prefix)))
    out += [f"namespace {n} exists and is not the plan's" for n in extra]
    out += [f"namespace {n} of the plan is gone" for n in missing]
    return out
