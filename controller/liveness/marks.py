"""What the switches' liveness marks say failed (docs/liveness.md "How the daemon learns").

Each ToR reports the (slice, uplink) circuits it marked down (``live_mask``, bit
``s * d + u``) and those on which only another ToR was heard (``live_wrong``). A failure
shows as a pattern over the ToRs' marks, which :func:`classify` reads in the daemon's own
vocabulary (:class:`controller.schedule.degrade.Failed`), so the two detections agree on
what failed:

- a **dead ToR** X: every circuit into X that a reporting ToR has is marked there (nobody
  hears X on any circuit: whatever X reports itself, nothing it sends arrives), by two
  reporting ToRs at least (one ToR's silent circuit into X says no more than that circuit);
- a **cut cable** (t, u) (t's uplink u to OCS u): t marks every circuit it has on u, in
  every slice (t is alive: it reports, and it hears on its other uplinks);
- a **misconfigured ToR** X (miswired, or configured with another ToR's id): the dead-ToR
  pattern, but on the circuits into X another, synchronized ToR answers (``live_wrong``),
  seen by two reporting ToRs at least: X is alive and sends, under a name that is not the
  one the schedule gives its port. Its circuits carry nothing the schedule can trust (a
  miswired OCS port delivers X's traffic to another ToR; a wrong id breaks the clock's
  exchange and the notices), so it is routed around as a dead ToR, but reported apart:
  an operator fixes it by its configuration or cabling, not by replacing a switch;
- **circuits** marked in some slices only (a dead OCS port in some slices, a miswired or
  misconfigured circuit): neither, reported as circuits ``(slice, tor, uplink)``; the
  daemon declares each as a failed circuit (``Failed.circuits``), and the new generation
  routes on the schedule without just those circuits.

Pure functions over the schedule and the masks; the daemon does the I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.schedule.degrade import Failed


def circuits_of(mask: int, uplinks: int) -> frozenset[tuple[int, int]]:
    """The (slice, uplink) pairs whose bit ``s * d + u`` is set in ``mask``."""
    out, i = set(), 0
    while mask:
        if mask & 1:
            out.add(divmod(i, uplinks))
        mask >>= 1
        i += 1
    return frozenset(out)


@dataclass(frozen=True)
class Verdict:
    """What the marks say: ``failed`` in the daemon's vocabulary (dead ToRs and cables), the
    ToRs that answer under another id (``misconfigured``: not in ``failed.tors``), and the
    marked circuits none of them explains, ``(slice, tor, uplink)``; ``wrong`` the circuits
    on which a wrong peer was heard."""

    failed: Failed = field(default_factory=Failed)
    circuits: frozenset[tuple[int, int, int]] = frozenset()
    wrong: frozenset[tuple[int, int, int]] = frozenset()
    misconfigured: frozenset[int] = frozenset()

    def as_dict(self) -> dict:
        return {**self.failed.as_dict(), "misconfigured": sorted(self.misconfigured),
                "circuits": [list(c) for c in sorted(self.circuits)],
                "wrong_peer": [list(c) for c in sorted(self.wrong)]}


def classify(schedule, marks: dict[int, frozenset[tuple[int, int]]],
             wrong: dict[int, frozenset[tuple[int, int]]] | None = None) -> Verdict:
    """Read ``marks`` ({ToR: its marked (slice, uplink) pairs}, the ToRs that reported)
    against ``schedule``'s circuits (``peer[s, t, u]``)."""
    peer = schedule.peer
    S, N, d = peer.shape
    reporting = set(marks)
    wrong = wrong or {}
    # a dead ToR: every circuit into it that a reporting ToR has is marked, reported by two
    # ToRs at least (or by its one neighbour): one ToR's one silent circuit is a circuit;
    # misconfigured when, on those circuits, as many ToRs heard another ToR answer
    dead_tors, misconfigured = set(), set()
    for x in range(N):
        into = [(s, t, u) for s in range(S) for t in reporting if t != x for u in range(d) if int(peer[s, t, u]) == x]
        neighbours = {int(t) for t in range(N) if t != x and (peer[:, t, :] == x).any()}
        witnesses = {t for _, t, _ in into}
        need = min(2, len(neighbours))
        if into and len(witnesses) >= need and all((s, u) in marks[t] for s, t, u in into):
            answered = {t for s, t, u in into if (s, u) in wrong.get(t, ())}
            (misconfigured if len(answered) >= need else dead_tors).add(x)
    gone = dead_tors | misconfigured
    # a cut cable: a reporting, live ToR marks every circuit it has on one uplink (those to
    # dead ToRs aside: a ToR whose uplink meets only dead ToRs has no cable evidence)
    cables = set()
    for t in reporting - gone:
        for u in range(d):
            have = [s for s in range(S) if int(peer[s, t, u]) >= 0 and int(peer[s, t, u]) not in gone]
            if have and all((s, u) in marks[t] for s in have):
                cables.add((t, u))
    explained = set()
    for t in reporting:
        for s, u in marks[t]:
            p = int(peer[s, t, u])
            if t in gone or p in gone or (t, u) in cables or (p, u) in cables:
                explained.add((s, t, u))
    circuits = {(s, t, u) for t in reporting for s, u in marks[t]} - explained
    wrong_c = {(s, t, u) for t, cs in wrong.items() for s, u in cs}
    return Verdict(Failed(uplinks=frozenset(cables), tors=frozenset(dead_tors)), frozenset(circuits),
                   frozenset(wrong_c), frozenset(misconfigured))
