"""What the daemon learns from the switches' own liveness marks (docs/liveness.md "How
the daemon learns").

The marks reach the daemon with each ToR's clock read (every second in sync mode; on bmv2
the PROBE's PacketIn carries ``live_mask`` and ``live_wrong``, as bmv2's P4Runtime server
reads no registers). :class:`LivenessWatch` reads them as failures
(:func:`controller.liveness.marks.classify`: dead ToRs, cut cables, circuits) and says
which changes to submit, as the daemon's other detections do (source ``"liveness"``): a
failure the marks show that nothing has declared yet, and the recovery of one it declared
once the marks no longer show it. Circuits marked in some slices only (neither a dead ToR
nor a cut cable) are failures too (kind ``circuit``, named by the end with the lower ToR
id, :func:`controller.schedule.degrade.circuit_key`): the new generation routes on the
schedule without just those circuits. A ToR that answers under another id (kind
``misconfigured``: miswired or misconfigured) is declared as such and routed around as a
dead ToR (it is in ``Failed.tors``: :data:`ROUTED_AS`). A failure another detection declared (netlink, a lost
session, the API, the clock) is left to it; the marks agreeing with it are reported.

A unit that flaps is damped (:mod:`controller.liveness.damping`, after RFC 2439): each time
it appears in the marks its penalty grows; once declared (its marks held ``confirm`` reads,
as any failure) a unit above ``suppress`` is held failed while its marks come and go, until
its penalty has decayed below ``reuse`` -- no recover/declare churn, a new generation per
flap. Damping never declares: a unit whose marks never hold ``confirm`` reads (a loaded
switch's late beacons, mostly) makes no generation, flapping or not.
"""

from __future__ import annotations

import time

from controller.daemon.changes import Change
from controller.liveness.damping import Damper, DampingParams
from controller.liveness.marks import Verdict, circuits_of, classify
from controller.schedule.degrade import Failed, circuit_key

SOURCE = "liveness"
#: a failure kind of the marks' own, and the kind of the failed set that routes around it:
#: a misconfigured ToR is taken out of routes as a dead one (``apply_change``)
ROUTED_AS = {"misconfigured": "tor"}


def _routed(item: tuple[str, object]) -> tuple[str, object]:
    kind, target = item
    return ROUTED_AS.get(kind, kind), target


def _covered(peer, circuit: tuple[int, int, int], failed: Failed) -> bool:
    """The circuit ``(s, t, u)`` is lost already by what ``failed`` holds (either end's ToR,
    cable or OCS)."""
    s, t, u = circuit
    p = int(peer[s, t, u])
    return (t in failed.tors or p in failed.tors or (t, u) in failed.uplinks or (p, u) in failed.uplinks
            or u in failed.ocs)


#: reads in a row (one a second) a failure must show before the watch declares it, i.e. its
#: marks held for two seconds, ten cycles of the emulated fabric: a mark that a read shows and
#: a later one does not is a loaded switch whose beacons came too late (measured on the
#: emulated fabric at load 12-30: a bmv2 switch holds a packet tens of ms, a message then
#: crosses the OCS in the next slice), not a failure worth a new generation. A real
#: failure's marks hold; the data plane routes around a mark at once meanwhile
CONFIRM_READS = 3


class LivenessWatch:
    """``schedule``: the full schedule (the circuits the switches expect); ``confirm``:
    consecutive reads that must show a failure before it is declared (its recovery is
    declared at the first read that no longer shows it: a cleared mark is a peer heard);
    ``damping``: how units that flap are damped (a suppressed unit, once declared, is held:
    its recovery waits for its release)."""

    def __init__(self, schedule, confirm: int = CONFIRM_READS, damping: DampingParams | None = None):
        self.schedule = schedule
        self.confirm = confirm
        self.damper = Damper(DampingParams() if damping is None else damping)
        self.damping_events: list[tuple[str, tuple[str, object], float]] = []   # the last read's (event, unit, penalty)
        self.now = 0.0
        self.streak: dict[tuple[str, object], int] = {}  # what the reads showed, for how many in a row
        self.verdict = Verdict()
        self.masks: dict[int, frozenset[tuple[int, int]]] = {}
        self.wrong: dict[int, frozenset[tuple[int, int]]] = {}
        self.mine: set[tuple[str, object]] = set()      # (kind, target) this watch declared failed
        self.agrees: list = []                           # failures others declared that the marks show too
        self.read_at: float | None = None

    def read(self, registers: dict[int, dict], now: float | None = None) -> Verdict:
        """``{tor: its clock registers as just read}`` (the ToRs that answered) at ``now``
        (seconds on the daemon's clock; default: monotonic): their marks. A unit they show
        that the read before did not has flapped (its penalty grows); suppressed units whose
        penalty decayed below ``reuse`` are released. What changed in the damping is in
        :attr:`damping_events` (``flap`` / ``suppressed`` / ``released``, the unit, its penalty)."""
        self.now = time.monotonic() if now is None else now
        d = self.schedule.n_uplinks
        self.masks = {t: circuits_of(int(r.get("live_mask", 0)), d) for t, r in registers.items() if "live_mask" in r}
        self.wrong = {t: circuits_of(int(r.get("live_wrong", 0)), d) for t, r in registers.items()
                      if "live_wrong" in r}
        self.verdict = classify(self.schedule, self.masks, self.wrong)
        self.read_at = time.time()
        shown = self._shown()
        events = []
        for unit in sorted(shown - set(self.streak), key=repr):      # appeared: the switches withdrew it
            suppressed = self.damper.flap(unit, self.now)
            events.append(("flap", unit, self.damper.penalty(unit, self.now)))
            if suppressed:
                events.append(("suppressed", unit, self.damper.penalty(unit, self.now)))
        events += [("released", u, self.damper.penalty(u, self.now)) for u in self.damper.decay(self.now)]
        self.damping_events = events
        self.streak = {k: self.streak.get(k, 0) + 1 for k in shown}
        return self.verdict

    def _shown(self) -> set[tuple[str, object]]:
        v = self.verdict.failed
        peer = self.schedule.peer
        return {("tor", t) for t in v.tors} | {("uplink", c) for c in v.uplinks} | \
            {("misconfigured", t) for t in self.verdict.misconfigured} | \
            {("circuit", circuit_key(peer, *c)) for c in self.verdict.circuits}

    def changes(self, failed: Failed) -> list[Change]:
        """The changes the last :meth:`read` calls for against ``failed`` (what is failed now,
        whoever declared it)."""
        peer = self.schedule.peer
        shown = self._shown()
        declared = {("tor", t) for t in failed.tors} | {("uplink", c) for c in failed.uplinks} | \
            {("circuit", circuit_key(peer, *c)) for c in failed.circuits}
        out = []
        for kind, target in sorted(shown, key=repr):
            if _routed((kind, target)) in declared:
                continue                              # failed already (a misconfigured ToR: as a ToR)
            if kind == "uplink" and target[0] in failed.tors:
                continue                              # its ToR is failed already
            if kind == "circuit" and _covered(peer, target, failed):
                continue                              # a failed ToR, cable or OCS carries it already
            if self.streak.get((kind, target), 0) < self.confirm:
                continue                              # not yet shown by `confirm` reads in a row
            out.append(Change("fail", kind, target, source=SOURCE))
            self.mine.add((kind, target))
        routed_shown = {_routed(x) for x in shown}
        for kind, target in sorted(self.mine, key=repr):
            if _routed((kind, target)) in routed_shown:
                continue                              # still shown (maybe under the other kind)
            if self.damper.suppressed((kind, target)):
                continue                              # flapping: held failed until released
            self.mine.discard((kind, target))
            if _routed((kind, target)) in declared:
                out.append(Change("recover", kind, target, source=SOURCE))
        mine = {_routed(x) for x in self.mine}
        self.agrees = sorted([unit_json(u) for u in shown if _routed(u) in declared and _routed(u) not in mine],
                             key=repr)
        return out

    def suppressed(self) -> list[tuple[str, object]]:
        """The units suppressed for flapping (penalty above ``suppress``, not yet below
        ``reuse``), sorted: those this watch declared are held failed."""
        return sorted((u for u, st in self.damper.units.items() if st.suppressed), key=repr)

    def status(self) -> dict:
        """The status API's ``liveness``: each ToR's marks, what they say failed, what this
        watch declared (held failed if also ``suppressed``), what others declared that the
        marks show too, the units ``suppressed`` for flapping and every damped unit's
        ``penalty``."""
        p = self.damper.params
        return {"enabled": True, "read_at": self.read_at,
                "marks": {str(t): [list(c) for c in sorted(cs)] for t, cs in sorted(self.masks.items())},
                "wrong_peer": {str(t): [list(c) for c in sorted(cs)] for t, cs in sorted(self.wrong.items()) if cs},
                "verdict": self.verdict.as_dict(),
                "declared": sorted([unit_json(u) for u in self.mine], key=repr),
                "agrees_with": self.agrees,
                "suppressed": [unit_json(u) for u in self.suppressed()],
                "damping": {"enabled": p.enabled, "penalty": p.penalty, "suppress": p.suppress, "reuse": p.reuse,
                            "half_life_s": p.half_life_s, "max_hold_s": p.max_hold_s,
                            "units": [{**row, "unit": unit_json(row["unit"])}
                                      for row in sorted(self.damper.status(self.now), key=lambda r: repr(r["unit"]))]}}


def unit_json(unit: tuple[str, object]) -> list:
    """A unit ``(kind, target)`` as the status API writes it: ``[kind, target]``, a tuple
    target as a list (``["circuit", [1, 0, 0]]``)."""
    kind, target = unit
    return [kind, list(target) if isinstance(target, tuple) else target]
