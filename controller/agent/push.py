"""One-shot push of one switch: pipeline, entries by diff, read back and verify.

Target-neutral: it only talks to a :class:`~controller.agent.backend.SwitchBackend`.
The sequence is the one the daemon's reconcile loop repeats (issue 11):

1. the pipeline: loaded unless the switch already runs the same build (cookie), so a
   repeated push keeps forwarding;
2. read the switch's state, diff it against the desired state, write the difference
   (INSERT/MODIFY/DELETE, dependency-ordered by the backend);
3. read back and compare: the push succeeds only when the switch holds exactly the
   desired state.

A write that fails half-way is retried from step 2 (re-read, re-diff), which is
idempotent: what the failed attempt wrote is not written again.
"""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field
from typing import Callable

from controller.agent.backend import BackendError, NotPrimary, Pipeline, SwitchBackend, Unreachable, WriteReport
from controller.agent.diff import diff
from controller.tables.entries import Batch


class VerifyError(BackendError):
    """The state read back differs from the desired state."""


@dataclass
class PushReport:
    switch: str
    pipeline_loaded: bool = False
    tables: dict[str, int] = field(default_factory=dict)   # desired objects per table / profile
    write: WriteReport = field(default_factory=WriteReport)
    attempts: int = 0
    seconds: float = 0.0            # the whole push: pipeline, reads, writes, verify
    verified: bool = False

    @property
    def objects(self) -> int:
        return sum(self.tables.values())

    @property
    def rate(self) -> float:
        """Desired objects per second of the whole push."""
        return self.objects / self.seconds if self.seconds > 0 else 0.0


def per_table(b: Batch, contract: dict | None = None) -> dict[str, int]:
    """Objects of ``b`` per table short name (members and groups per action profile)."""
    short = {}
    if contract:
        short = {t["name"]: s for s, t in contract["tables"].items()}
    c: collections.Counter = collections.Counter()
    for e in b.entries:
        c[short.get(e.table, e.table)] += 1
    for m in b.members:
        c[f"{m.profile.rsplit('.', 1)[-1]} members"] += 1
    for g in b.groups:
        c[f"{g.profile.rsplit('.', 1)[-1]} groups"] += 1
    return dict(c)


def explain(actual: Batch, desired: Batch, limit: int = 3) -> str:
    """What differs, as a person reads it (the first few objects)."""
    from controller.agent.p4info import describe

    d = diff(actual, desired)
    parts = []
    for what, b in (("missing", d.insert), ("different", d.modify), ("unexpected", d.delete)):
        objs = b.members + b.groups + b.entries
        if objs:
            shown = "; ".join(describe(o) for o in objs[:limit])
            parts.append(f"{len(objs)} {what} ({shown}{'; ...' if len(objs) > limit else ''})")
    return ", ".join(parts) or "no difference"


def push(backend: SwitchBackend, pipeline: Pipeline, desired: Batch, *, retries: int = 1,
         progress: Callable[[int], object] | None = None, on_total: Callable[[int], object] | None = None,
         force_pipeline: bool = False) -> PushReport:
    """Bring the (connected) switch of ``backend`` to ``pipeline`` + ``desired``.

    ``on_total(n)`` is told the number of updates before they are written (for a progress
    bar), ``progress(n)`` after each request. Raises :class:`BackendError` (its subclasses
    :class:`Unreachable`, :class:`NotPrimary`, :class:`VerifyError`)."""
    t0 = time.perf_counter()
    rep = PushReport(backend.address.name, tables=per_table(desired, pipeline.contract))
    rep.pipeline_loaded = bool(backend.set_pipeline(pipeline, force=force_pipeline))
    while True:
        rep.attempts += 1
        d = diff(backend.read_state(), desired)
        if on_total is not None:
            on_total(len(d))
        try:
            w = backend.apply(d, progress)
        except (Unreachable, NotPrimary):
            raise
        except BackendError as e:
            done = getattr(e, "report", None)
            if done is not None:
                _add(rep.write, done)
            if rep.attempts > retries:
                raise
            continue   # re-read, re-diff: what went through is not written again
        _add(rep.write, w)
        break
    actual = backend.read_state()
    if diff(actual, desired).empty:
        rep.verified = True
    else:
        raise VerifyError(f"{backend.address.name}: read-back differs from the desired state: "
                          f"{explain(actual, desired)}")
    rep.seconds = time.perf_counter() - t0
    return rep


def _add(total: WriteReport, w: WriteReport) -> None:
    total.inserted += w.inserted
    total.modified += w.modified
    total.deleted += w.deleted
    total.requests += w.requests
    total.seconds += w.seconds
