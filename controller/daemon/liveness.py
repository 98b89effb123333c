"""What the daemon learns from the switches' own liveness marks (docs/liveness.md "How
the daemon learns").

The marks reach the daemon with each ToR's clock read (every second in sync mode; on bmv2
the PROBE's PacketIn carries ``live_mask`` and ``live_wrong``, as bmv2's P4Runtime server
reads no registers). :class:`LivenessWatch` reads them as failures
(:func:`controller.liveness.marks.classify`: dead ToRs, cut cables, circuits) and says
which changes to submit, as the daemon's other detections do (source ``"liveness"``): a
failure the marks show that nothing has declared yet, and the recovery of one it declared
once the marks no longer show it. A failure another detection declared (netlink, a lost
session, the API, the clock) is left to it; the marks agreeing with it are reported.
"""

from __future__ import annotations

import time

from controller.daemon.changes import Change
from controller.liveness.marks import Verdict, circuits_of, classify
from controller.schedule.degrade import Failed

SOURCE = "liveness"


class LivenessWatch:
    """``schedule``: the full schedule (the circuits the switches expect)."""

    def __init__(self, schedule):
        self.schedule = schedule
        self.verdict = Verdict()
        self.masks: dict[int, frozenset[tuple[int, int]]] = {}
        self.wrong: dict[int, frozenset[tuple[int, int]]] = {}
        self.mine: set[tuple[str, object]] = set()      # (kind, target) this watch declared failed
        self.agrees: list = []                           # failures others declared that the marks show too
        self.read_at: float | None = None

    def read(self, registers: dict[int, dict]) -> Verdict:
        """``{tor: its clock registers as just read}`` (the ToRs that answered): their marks."""
        d = self.schedule.n_uplinks
        self.masks = {t: circuits_of(int(r.get("live_mask", 0)), d) for t, r in registers.items() if "live_mask" in r}
        self.wrong = {t: circuits_of(int(r.get("live_wrong", 0)), d) for t, r in registers.items()
                      if "live_wrong" in r}
        self.verdict = classify(self.schedule, self.masks, self.wrong)
        self.read_at = time.time()
        return self.verdict

    def changes(self, failed: Failed) -> list[Change]:
        """The changes the last :meth:`read` calls for against ``failed`` (what is failed now,
        whoever declared it)."""
        v = self.verdict.failed
        shown = {("tor", t) for t in v.tors} | {("uplink", c) for c in v.uplinks}
        declared = {("tor", t) for t in failed.tors} | {("uplink", c) for c in failed.uplinks}
        out = []
        for kind, target in sorted(shown - declared, key=repr):
            if kind == "uplink" and target[0] in failed.tors:
                continue                              # its ToR is failed already
            out.append(Change("fail", kind, target, source=SOURCE))
            self.mine.add((kind, target))
        for kind, target in sorted(self.mine - shown, key=repr):
            self.mine.discard((kind, target))
            if (kind, target) in declared:
                out.append(Change("recover", kind, target, source=SOURCE))
        self.agrees = sorted([[k, list(t) if isinstance(t, tuple) else t] for k, t in (shown & declared) - self.mine],
                             key=repr)
        return out

    def status(self) -> dict:
        """The status API's ``liveness``: each ToR's marks, what they say failed, what this
        watch declared, and what others declared that the marks show too."""
        return {"enabled": True, "read_at": self.read_at,
                "marks": {str(t): [list(c) for c in sorted(cs)] for t, cs in sorted(self.masks.items())},
                "wrong_peer": {str(t): [list(c) for c in sorted(cs)] for t, cs in sorted(self.wrong.items()) if cs},
                "verdict": self.verdict.as_dict(),
                "declared": sorted([[k, list(t) if isinstance(t, tuple) else t] for k, t in self.mine], key=repr),
                "agrees_with": self.agrees}
