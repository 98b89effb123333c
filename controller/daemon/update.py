"""The network-wide, per-packet consistent route update (Reitblatt et al. 2012, "Abstractions
for network update"; docs/daemon.md "Network-wide consistency"): new routes are written into
the generation no packet is stamped with on every switch, every source stamps it only once
every switch holds it, and the old generation is retired only after the packets stamped with
it have left. A packet is routed by one generation from its source to its destination.

:class:`NetworkUpdate` runs the phases over a set of switches of one role (the ToRs stamp a
generation together; the OCS emulators have their own); the controller
(:mod:`controller.daemon.controller`) decides when, on which switches, and how long to hold.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Executor
from typing import Callable

from controller import memory
from controller.agent.backend import BackendError
from controller.daemon.log import EventLog
from controller.daemon.switch import PROGRESS_S, SwitchAgent


#: switches done in a phase after which its ``memory.phase`` line is written (and its last)
MEMORY_AT = frozenset({1, 16, 64, 256})


class NetworkUpdate:
    """The phases of one update, run on every switch in parallel (``pool``).

    ``hold_s()``: how long the old generation stays live after every source stamps the new
    one; ``sleep``: waits it out (a fake clock's in the tests); ``failed(agent, error)``:
    what the controller does with a switch whose phase raised (marks it for a retry)."""

    def __init__(self, pool: Executor, log: EventLog, hold_s: Callable[[], float],
                 sleep: Callable[[float], None], failed: Callable[[SwitchAgent, BackendError], None]):
        self.pool = pool
        self.log = log
        self.hold_s = hold_s
        self.sleep = sleep
        self.failed = failed

    def each(self, agents, what: str, *args, failed=None) -> dict[str, object]:
        """The phase ``what`` (a :class:`~controller.agent.generations.NetworkPhases` method
        of :class:`SwitchAgent`, run under its :meth:`~SwitchAgent.phase`) with ``args`` on
        every agent in parallel: {name: result, or the BackendError}; ``failed(agent,
        error)`` is told of each error (default: the controller's, a retry).
        :class:`controller.daemon.workers.RemoteUpdate` runs the same on worker processes."""
        return dict(zip([a.name for a in agents], self.pool.map(self._one(len(agents), what, args, failed), agents)))

    def each_then(self, agents, what: str, args: tuple, then: str, then_args: tuple, then_if: Callable,
                  then_failed=None) -> tuple[dict[str, object], Callable[[], dict[str, object]]]:
        """:meth:`each` of ``what``, then the phase ``then`` on each agent whose result of
        ``what`` (a result, or the BackendError) passes ``then_if``, started on the pool once
        every ``what`` ended, and not waited for here. Returns ({name: result of ``what``},
        once each has one; a call that waits for the second phases: {name: result of
        ``then``, None where it did not run}). No second phase starts while a first one
        runs, though a thread is free: on a first install the second phases are the
        shadows, and their writes would share the daemon's interpreter and the switches
        with the last installs, delaying the network's generation 0 (docs/fabric.md "A UCMP
        fabric's start")."""
        done = self.each(agents, what, *args)
        second = self._one(len(agents), then, then_args, then_failed)
        thens = {}
        for a in agents:
            if then_if(done[a.name]):
                thens[a.name] = self.pool.submit(second, a)
            else:
                second.skipped()          # (counted done: the phase's progress lines reach the total)
        return done, lambda: {a.name: thens[a.name].result() if a.name in thens else None for a in agents}

    def _one(self, total: int, what: str, args: tuple, failed) -> Callable:
        """The phase ``what`` with ``args`` on one agent (:meth:`each`): its result, or the
        BackendError, told to ``failed`` (default: the controller's)."""
        failed = failed or self.failed
        t0, lock, done = time.monotonic(), threading.Lock(), [0, 0, time.monotonic()]   # done, failed, last line

        def one(a):
            try:
                return a.phase(getattr(a, what), *args)
            except BackendError as e:
                failed(a, e)
                with lock:
                    done[1] += 1
                return e
            finally:
                self._progress(what, total, t0, lock, done)
        one.skipped = lambda: self._progress(what, total, t0, lock, done)
        return one

    def _progress(self, what: str, total: int, t0: float, lock, done: list) -> None:
        """One switch's phase ended: an ``update.progress`` line every :data:`PROGRESS_S`
        seconds (a first install of a (1024, 32) fabric writes for most of an hour)."""
        with lock:
            now = time.monotonic()
            # the lines are written under the lock: counted and written in one order, so a
            # phase's last line is its N of N (the fabric bench reads a phase's end from it)
            done[0] += 1
            n = done[0]
            if n in MEMORY_AT or n == total:
                self.log.event("memory.phase", **memory.phase(f"{what} {n} of {total}"))
            if now - done[2] >= PROGRESS_S:
                done[2] = now
                self.log.event("update.progress", phase=what, done=n, of=total, failed=done[1],
                               seconds=round(now - t0, 1), **memory.resident())

    def done(self, agents, routes, results: dict, swapped: bool) -> None:
        """Bookkeeping on each agent once the network runs ``routes`` on it
        (:meth:`SwitchAgent.installed_now` with its prepare's result)."""
        for a in agents:
            a.installed_now(routes, results.get(a.name), swapped=swapped)

    def flip_retire(self, agents, target: int, keep=None) -> tuple[dict[str, object], bool]:
        """Phases 2-4 of an update towards ``target``: every source stamps it, wait out the
        old generation's packets, retire the old generation everywhere (rewritten as the
        shadow of the routes ``keep``, where ``target`` holds them; None: emptied).
        Returns ({switch: result or BackendError}, whether the old generation was retired).

        A switch whose activation failed still stamps the old generation, so no switch
        retires it: both stay live everywhere (each switch routes a packet by the
        generation its source stamped) until the retry the failure asked for (``failed``)
        finishes the flip -- :meth:`run` finds two live generations and flips towards the
        one that holds the routes."""
        act = self.each(agents, "activate", target)
        ok = [a for a in agents if not isinstance(act[a.name], BackendError)]
        self.log.event("generation.stamping", generation=target, switches=sorted(a.name for a in ok))
        if len(ok) < len(agents):
            self.log.warn("generation.retire_deferred", generation=1 - target,
                          switches=sorted(n for n, r in act.items() if isinstance(r, BackendError)),
                          note="these switches still stamp it: it stays live everywhere until their retry")
            return act, False
        self.sleep(self.hold_s())
        self.log.event("generation.retiring", generation=1 - target, switches=sorted(a.name for a in agents))
        return self.each(agents, "retire_generation", target, keep), True

    def run(self, routes, agents: list[SwitchAgent], net_gen: int,
            shadows: bool) -> tuple[dict[str, str | None], int | None]:
        """Bring ``agents`` to ``routes``; ``net_gen``: the generation this role's sources
        stamped after the last update (what a network of fresh switches starts from);
        ``shadows``: the retired generation is rewritten as the shadow of the routes (the
        next update writes only what differs) instead of emptied.

        0. read every switch; an update interrupted by a crash (sources stamping different
           generations, or two generations live) is finished first, towards a generation
           live everywhere (the one that holds these routes, if any); when none is (a
           switch back with a generation the others retired), towards the majority's
           stamp, written with these routes on the switches that lack it;
        1. write the routes into the other generation on every switch, read back, declare
           it live (unconfigured switches get it active at once; with ``shadows`` and no
           switch configured -- a first install -- each then gets its shadow, at once or,
           where the switch keeps what it derives it from, once every install ended);
        2. only when every switch has it: every source stamps it;
        3. wait until packets stamped with the old one have left (``hold_s``);
        4. retire the old generation (out of ``live``, then rewritten as the new one's
           shadow, never live: the next update writes only what differs) everywhere.

        A failure before 2 leaves every source on the old generation (the retry starts
        over); a source that does not flip in 2 keeps both generations live everywhere and
        the update unfinished (no switch's bookkeeping moves on: the maintenance pass
        neither repairs nor retires what a source still stamps); after 2, the retry
        finishes the flip. Returns ({switch: "installed" |
        "current" | "swapped", or None where it failed}, the generation the role's
        sources stamp now, or None if the update stopped before the flip)."""
        out: dict[str, str | None] = {a.name: None for a in agents}
        if not agents:
            return out, None
        keep = routes if shadows else None
        surveys = self.each(agents, "survey", routes)
        agents = [a for a in agents if not isinstance(surveys[a.name], BackendError)]
        conf = {a.name: surveys[a.name] for a in agents if surveys[a.name].active is not None}
        stamps = [s.active for s in conf.values()]
        if len(set(stamps)) > 1 or any(len(s.live) > 1 for s in conf.values()):
            cands = [g for g in (0, 1) if all(g in s.live for s in conf.values())]
            good = [g for g in cands if all(g in s.holds for s in conf.values())]
            target = good[0] if good else max(cands or [0, 1], key=stamps.count)
            self.log.warn("generation.interrupted", generation=target, stamps=sorted(set(stamps)),
                          note="an update interrupted before (a crash) is finished first")
            if not cands:
                # no generation is live everywhere: a switch stamps one the others retired
                # (it was away, or out of the config, during an update). Its stamp is routed
                # nowhere else already; it gets these routes into the network's stamp
                # first, so that it can flip with the others
                behind = [a for a in agents if a.name in conf and target not in conf[a.name].live]
                self.log.warn("generation.rejoining", generation=target, switches=sorted(a.name for a in behind),
                              note="these switches stamp a generation no other switch routes")
                prep = self.each(behind, "prepare_generation", routes, target)
                if any(isinstance(r, BackendError) for r in prep.values()):
                    return out, None     # the retry starts over
            if not self.flip_retire([a for a in agents if a.name in conf], target, keep)[1]:
                return out, None         # a source still stamps the other one: the retry finishes it
            surveys = self.each(agents, "survey", routes)
            agents = [a for a in agents if not isinstance(surveys[a.name], BackendError)]
            conf = {a.name: surveys[a.name] for a in agents if surveys[a.name].active is not None}
            stamps = [s.active for s in conf.values()]
        net = max(set(stamps), key=stamps.count) if stamps else net_gen
        # every configured switch already running these routes: nothing to swap
        new = net if all(net in s.holds for s in conf.values()) else 1 - net
        configured = [a for a in agents if a.name in conf]
        fresh = [a for a in agents if a.name not in conf]
        # 1. prepare: configured switches first, so that a new switch's stamps are live everywhere.
        # With no switch configured (a first install), each new switch gets its shadow derived
        # from the bytes just written: right after its generation, or, where it keeps those
        # bytes (a small switch, GenerationWriter._shadow_later), once every switch has its
        # generation (each_then: the network carries its routes about a generation's writes
        # sooner); where some are configured, the new switches' shadows wait until the
        # network flipped (write_shadows)
        first = shadows and not configured
        prep = self.each(configured, "prepare_generation", routes, new)
        if first:           # (the shadows left for later: started once every install ended)
            done, shadows_written = self.each_then(
                fresh, "prepare_generation", (routes, new, first), "retire_generation", (new, routes),
                lambda r: getattr(r, "shadow_pending", False), self._shadow_failed)
            prep.update(done)
        else:
            prep.update(self.each(fresh, "prepare_generation", routes, new, first))
        failed = [n for n, r in prep.items() if isinstance(r, BackendError) and n in conf]
        ready = [a for a in fresh if not isinstance(prep[a.name], BackendError)]
        self.done(ready, routes, prep, swapped=False)
        for a in ready:
            out[a.name] = prep[a.name].outcome
        if failed:
            self.log.error("generation.not_prepared", generation=new, switches=failed,
                           note="every source keeps the old generation; the update is retried")
            return out, None
        swapping = new != net
        if swapping or any(len(s.live) > 1 for s in conf.values()):
            res, retired = self.flip_retire(configured, new, keep)
            if not retired:
                return out, None         # a source still stamps the old one: the retry finishes it
        else:
            res = self.each(configured, "retire_generation", new, keep, False)
        ready = [a for a in configured if not isinstance(res.get(a.name), BackendError)]
        self.done(ready, routes, prep, swapped=swapping)
        for a in ready:
            out[a.name] = "swapped" if swapping else "current"
        if first:
            shadows_written()
        elif shadows:
            self.write_shadows([a for a in fresh if out[a.name] == "installed"], new, routes)
        return out, new if swapping else net

    def write_shadows(self, agents, active: int, routes) -> None:
        """A switch that just got its first generation gets the same routes in the other,
        never live (:meth:`~controller.agent.generations.NetworkPhases.retire_generation`),
        so that even the first failure's update writes only what differs. Nothing depends
        on it: a failure is logged (the next update then writes a whole generation)."""
        self.each(agents, "retire_generation", active, routes, failed=self._shadow_failed)

    def _shadow_failed(self, a, e: BackendError) -> None:
        self.log.warn("generation.shadow_failed", switch=a.name, error=str(e))
