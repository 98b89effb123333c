"""One-shot push of one switch: pipeline, the routes of the current version installed as
a route generation, read back and verified -- the state the daemon would write.

Target-neutral: it only talks to a :class:`~controller.agent.backend.SwitchBackend`, and
the desired state comes from the switch's :class:`~controller.agent.desired.Role` (the
same builder the daemon uses). The sequence:

1. the pipeline: loaded unless the switch already runs the same build (cookie), so a
   repeated push keeps forwarding;
2. the routes installed by :class:`~controller.agent.generations.GenerationWriter`, the
   daemon's own sequence: an unconfigured switch gets generation 0 with the config entry
   written last; a switch whose active generation already holds these routes only loses
   leftovers (and gets its config entry set if it differs); any other switch gets the
   routes written into its *inactive* generation beside the active one, read back,
   activated by one write of the config entry, and the old generation deleted -- so a
   push onto a forwarding switch is hitless, and a daemon that takes over afterwards
   finds its routes current and writes nothing;
3. read back and compare: the push succeeds only when the switch holds exactly static
   entries + the active generation + its config entry (no down mask: a push knows no
   failures).

A write that fails half-way is retried from step 2 (re-read, re-diff), which is
idempotent: what the failed attempt wrote is not written again, and the switch is never
left with a mixed generation active.
"""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field
from typing import Callable

from controller.agent.backend import BackendError, NotPrimary, Pipeline, SwitchBackend, Unreachable, WriteReport
from controller.agent.diff import Diff
from controller.agent.desired import Role, Routes
from controller.agent.diff import diff, explain
from controller.agent.generations import GenerationWriter, Installed, final_state
from controller.tables.state import Batch, TableEntry


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
    installed: Installed | None = None

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


class _Pusher(GenerationWriter):
    """The generation sequence over a backend, counting what it writes."""

    def __init__(self, backend: SwitchBackend, role: Role, report: WriteReport,
                 progress: Callable[[int], object] | None, more: Callable[[int], object] | None):
        self.backend, self.role, self.report = backend, role, report
        self.name = backend.address.name
        self.progress, self.more = progress, more
        self.active: int | None = None
        self._batches: dict = {}

    def _routes_batch(self, routes: Routes, generation: int) -> Batch:
        b = self._batches.get(generation)
        if b is None:
            b = self._batches[generation] = self.role.routes(routes, generation)
        return b

    def _read(self) -> Batch:
        return self.backend.read_state()

    def _write(self, d: Diff) -> int:
        if d.empty:
            return 0
        if self.more is not None:
            self.more(len(d))
        try:
            w = self.backend.apply(d, self.progress)
        except BackendError as e:
            done = getattr(e, "report", None)
            if done is not None:
                _add(self.report, done)
            raise
        _add(self.report, w)
        return w.updates

    def config(self, generation: int, live: frozenset[int] | None = None) -> TableEntry:
        return self.role.config(generation, frozenset(), live)

    def _flip(self, generation: int, live: frozenset[int] | None = None) -> None:
        self._write(Diff(modify=Batch(entries=[self.config(generation, live)])))
        self.active = generation
        self.live = frozenset({generation}) if live is None else live

    def _set_live(self, live: frozenset[int]) -> None:
        self.live = live

    def _sync_config(self, actual_config: TableEntry | None) -> int:
        if self.active is None:
            return 0
        want = self.config(self.active, getattr(self, "live", None))
        return 0 if actual_config == want else self._write(Diff(modify=Batch(entries=[want])))

    def _set_active(self, generation: int | None) -> None:
        self.active = generation


def push(backend: SwitchBackend, pipeline: Pipeline, role: Role, routes: Routes, *, retries: int = 1,
         progress: Callable[[int], object] | None = None, on_total: Callable[[int], object] | None = None,
         force_pipeline: bool = False) -> PushReport:
    """Bring the (connected) switch of ``backend`` to ``pipeline`` + the state ``role``
    builds from ``routes`` (see module docstring).

    ``on_total(n)`` is told of ``n`` more updates before they are written (for a progress
    bar), ``progress(n)`` after each request. Raises :class:`BackendError` (its subclasses
    :class:`Unreachable`, :class:`NotPrimary`, :class:`VerifyError`)."""
    t0 = time.perf_counter()
    rep = PushReport(backend.address.name)
    rep.pipeline_loaded = bool(backend.set_pipeline(pipeline, force=force_pipeline))
    writer = _Pusher(backend, role, rep.write, progress, on_total)
    while True:
        rep.attempts += 1
        try:
            rep.installed = writer.install_routes(routes)
            break
        except (Unreachable, NotPrimary):
            raise
        except BackendError:
            if rep.attempts > retries:
                raise
            # re-read, re-diff: what went through is not written again
    g = rep.installed.generation
    desired = final_state(role.static(), writer._routes_batch(routes, g), writer.config(g))
    rep.tables = per_table(desired, pipeline.contract)
    actual = backend.read_state()
    if not diff(actual, desired).empty:
        raise VerifyError(f"{backend.address.name}: read-back differs from the desired state: "
                          f"{explain(actual, desired)}")
    rep.verified = True
    rep.seconds = time.perf_counter() - t0
    return rep


def _add(total: WriteReport, w: WriteReport) -> None:
    total.inserted += w.inserted
    total.modified += w.modified
    total.deleted += w.deleted
    total.requests += w.requests
    total.seconds += w.seconds
