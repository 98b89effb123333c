"""What a switch holds as far as its one writer knows: the last state read from it, plus
every write the switch acknowledged since (:class:`KnownState`).

A network-wide update (docs/daemon.md "Network-wide consistency") reads each switch
before it writes (the survey, the prepare, the retire) and once after (the verify). A
P4Runtime read of a (108, 6) ToR (7-14K objects) costs bmv2 0.1-0.45 s; the writer that
made the switch's state need not ask for it again. The reads *before* a write may
therefore start from the known state, and one read of the whole switch per update makes
sure it is right: either the verify after the writes (a known state that is wrong -- a
write by someone else, a switch that lost its tables without a reconnect -- shows there
as a mismatch: the update fails before the flip, the known state is forgotten, and the
retry reads the switch), or, where the backend reads by key (P4Runtime: only the primary
writes), a verify by key of what was written and a reconcile right after the update
(it repairs what an out-of-band write changed). A write that fails, a verify that
fails, a reconnect and a pipeline load forget it too (whatever happened, the switch is
read)."""

from __future__ import annotations

import threading
from typing import Callable, Hashable, TypeVar

from controller.agent.diff import Diff
from controller.agent.diff import entry_key, group_key, member_key
from controller.tables.state import Batch, TableEntry

T = TypeVar("T")


class KnownState:
    """A switch's state (:class:`~controller.tables.state.Batch`) kept up to date with
    the writes applied to it (thread-safe: config writes come from other threads)."""

    def __init__(self, state: Batch):
        self._lock = threading.Lock()
        self._m = {member_key(x): x for x in state.members}
        self._g = {group_key(x): x for x in state.groups}
        self._e = {entry_key(x): x for x in state.entries}
        self._batch: Batch | None = None            # the state as one batch, until a write
        # what was made of that batch (split, ...): {key: (value, patch or None)}
        self._derived: dict[Hashable, tuple[object, Callable | None]] = {}

    def apply(self, d: Diff) -> None:
        """The switch acknowledged ``d`` (every update of it)."""
        with self._lock:
            self._batch = None
            kept = {}
            for key, (v, patch) in self._derived.items():
                if patch is not None and (nv := patch(v, d)) is not None:
                    kept[key] = (nv, patch)
            self._derived = kept
            for b, put in ((d.insert, True), (d.modify, True), (d.delete, False)):
                for objs, table, key in ((b.members, self._m, member_key), (b.groups, self._g, group_key),
                                         (b.entries, self._e, entry_key)):
                    for x in objs:
                        if put:
                            table[key(x)] = x
                        else:
                            table.pop(key(x), None)

    def entry(self, key) -> TableEntry | None:
        """The entry of identity ``key`` (:func:`~controller.agent.diff.entry_key`), or None."""
        with self._lock:
            return self._e.get(key)

    def batch(self) -> Batch:
        """The state (one object until the next write: its callers only read it)."""
        with self._lock:
            if self._batch is None:
                self._batch = Batch(list(self._m.values()), list(self._g.values()), list(self._e.values()))
            return self._batch

    def derived(self, key: Hashable, make: Callable[[Batch], T],
                patch: Callable[[T, Diff], T | None] | None = None) -> T:
        """``make(self.batch())``, made once until the next write (an update's survey and
        prepare split the same known state into its generations: 25-30 ms at (108, 6)).

        ``patch(value, diff)``: the value for the state after the write ``diff``, made from
        the old one, or None (made again when next asked). A failure's down mask and an
        update's flips write one config entry each: the split survives them."""
        with self._lock:
            if key in self._derived:
                return self._derived[key][0]  # type: ignore[return-value]
        b = self.batch()
        v = make(b)
        with self._lock:
            if self._batch is b:           # no write meanwhile: still what the state makes
                self._derived[key] = (v, patch)
        return v
