"""The control thread's work queue: failures and recoveries (:class:`~controller.daemon.changes.Change`),
network-wide updates the maintenance pass asks for, and reloads (API, SIGHUP).

One thread takes jobs (:meth:`Jobs.take`); any thread puts them. Changes that arrive
while the control thread reacts to earlier ones are folded into the same reaction
(:meth:`Jobs.more_changes`, FRANCIS §3.1); an update is queued at most once at a time.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path

from controller.daemon.changes import Change


@dataclass
class Pending:
    """A job another thread waits for: ``result`` is set, then ``done``."""

    done: threading.Event = field(default_factory=threading.Event)
    result: dict | None = None

    def wait(self, timeout: float | None = None) -> dict | None:
        """The result, or None if the job did not finish within ``timeout`` seconds."""
        return self.result if self.done.wait(timeout) else None

    def finish(self, result: dict) -> None:
        self.result = result
        self.done.set()


@dataclass(frozen=True)
class Reload:
    """Load the config at ``path`` (None: the running config's file) and switch to it."""

    path: str | Path | None
    pending: Pending


class Jobs:
    """Changes, updates and reloads for the control thread, in arrival order."""

    def __init__(self):
        self._q: queue.Queue = queue.Queue()
        self._update_queued = threading.Event()

    def change(self, c: Change) -> None:
        self._q.put(("change", c))

    def update(self) -> None:
        """A network-wide update (once: one already queued covers this request)."""
        if not self._update_queued.is_set():
            self._update_queued.set()
            self._q.put(("update", None))

    def reload(self, path: str | Path | None = None) -> Pending:
        """A reload; the returned :class:`Pending` gets the reload's result."""
        job = Reload(path, Pending())
        self._q.put(("reload", job))
        return job.pending

    def update_taken(self) -> None:
        """The queued update runs now: a later request queues another."""
        self._update_queued.clear()

    def take(self, block: float = 0.0) -> list[tuple[str, object]]:
        """Every queued job as (kind, arg), waiting up to ``block`` seconds for the first."""
        try:
            first = self._q.get(timeout=block) if block else self._q.get_nowait()
        except queue.Empty:
            return []
        batch = [first]
        while True:
            try:
                batch.append(self._q.get_nowait())
            except queue.Empty:
                return batch

    def more_changes(self) -> list[Change]:
        """The changes queued since the reaction began, up to the first job of another
        kind (which goes back to the end of the queue); a queued update is dropped: the
        reaction's recomputation updates every switch."""
        out = []
        while True:
            try:
                kind, arg = self._q.get_nowait()
            except queue.Empty:
                return out
            if kind == "change":
                out.append(arg)
            elif kind != "update":
                self._q.put((kind, arg))
                return out

    def empty(self) -> bool:
        return self._q.empty()

    def qsize(self) -> int:
        return self._q.qsize()
