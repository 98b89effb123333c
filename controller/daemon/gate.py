"""Which comes first on the daemon's core: a failure's handling or the background reconcile.

The maintenance pass reads every switch back after each update and every ``reconcile_s``
(:meth:`~controller.daemon.switch.SwitchAgent.reconcile`). On a (1024, 32) fabric one round
of those read-backs keeps a core busy for about 11 minutes, so a failure almost always
arrives while reconciles run. They share the daemon's interpreter with the failure's masks,
routes and update: with every maintenance thread reconciling, a cut cable's masks took
1.5 s and its new generation 21 s; with the failure first, 0.3-0.7 s and 9.8-13.1 s
(docs/fabric.md "A failure before the reconcile").

:class:`MaintenanceGate` puts the failure first: from the moment a change is submitted until
its new generation is installed (its report finished), no reconcile starts; those due wait
(they stay due, none is lost) and are counted, and the counters are not read meanwhile. Reconciles also run at most
``reconciles_at_once`` together, so that what is in flight when a failure arrives is a
bounded amount of work: a reconcile is not interrupted (its repair must be whole).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager


class MaintenanceGate:
    """Open changes (detected, not yet handled) and the reconcile slots."""

    def __init__(self, at_once: int):
        if at_once < 1:
            raise ValueError(f"reconciles_at_once must be >= 1, got {at_once}")
        self.at_once = at_once
        self._slots = threading.BoundedSemaphore(at_once)
        self._lock = threading.Lock()
        self._open: set[int] = set()
        self.running = 0
        self.deferred = 0       # times a due reconcile was put off for a failure (per pass and switch)
        self.ran = 0

    # ---- failures -----------------------------------------------------------------------
    def opened(self, change) -> None:
        """``change`` was detected: reconciles wait until :meth:`closed`."""
        with self._lock:
            self._open.add(id(change))

    def closed(self, changes) -> None:
        """``changes`` are handled (their new generation installed, or failed and reported)."""
        with self._lock:
            for c in changes:
                self._open.discard(id(c))

    @property
    def failure_pending(self) -> bool:
        with self._lock:
            return bool(self._open)

    # ---- reconciles ---------------------------------------------------------------------
    @contextmanager
    def reconcile(self):
        """A reconcile's turn: yields True once one of the ``at_once`` slots is free and no
        failure is pending, False (nothing to do now, counted as deferred) when a failure
        is pending before or after the wait for a slot."""
        if self.failure_pending:
            self.put_off()
            yield False
            return
        with self._slots:
            if self.failure_pending:
                self.put_off()
                yield False
                return
            with self._lock:
                self.running += 1
                self.ran += 1
            try:
                yield True
            finally:
                with self._lock:
                    self.running -= 1

    def put_off(self) -> None:
        """A due reconcile not started because a failure is pending (counted)."""
        with self._lock:
            self.deferred += 1

    def status(self) -> dict:
        with self._lock:
            return {"reconciles_at_once": self.at_once, "reconciles_running": self.running,
                    "reconciles_run": self.ran, "reconcile_deferrals": self.deferred,
                    "failures_pending": len(self._open)}
