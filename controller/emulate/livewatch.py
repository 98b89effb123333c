"""The ToRs' liveness marks of an emulated fabric read from outside, as they change
(docs/liveness.md "Measured"): when did each ToR mark the circuits a failure silenced,
when did every other ToR learn them from the notices, and when were they cleared once
healed?

One thread per ToR keeps a ``simple_switch_CLI`` session on its Thrift port (out of band
of the daemon, which may be stopped) and reads ``live_mask`` and ``live_wrong`` (and with
``notices``, the whole ``live_note_map`` in one more command) back to back every
``poll_s`` (25 ms: reading back to back starves the switches, whose Thrift server shares
their few cores, and makes them miss beacons), recording every change with the host's
time (epoch). A change is seen within ``poll_s`` plus one read's round trip
(:attr:`MarkWatch.period_s`: the median time from one read to the next, printed with the
figures).

The pure part: :func:`expected_marks`, which (tor, slice, uplink) circuits a failure
silences on the schedule, i.e. which marks its ends must set; :func:`failed_circuits` and
:func:`knows`, when a ToR routes around each of them -- its own mark, or a notice from an
end that marked it (a source checks a route's hop against the notices of both ends of its
circuit, docs/liveness.md "Notices").
"""

from __future__ import annotations

import statistics
import threading
import time

from controller.emulate import procs
from controller.liveness.marks import circuits_of


def expected_marks(peer, kind: str, ids: list[int]) -> dict[int, frozenset[tuple[int, int]]]:
    """{tor: the (slice, uplink) circuits it must mark} when ``kind`` fails on the schedule
    ``peer[s][t][u]``: ``link T U`` (the cable cut: every circuit of T on U, and its peers'
    ends), ``tor X`` (every circuit into X), ``port T U SLICE...`` (the circuits of T's U in
    those slices, both ends), ``id X AS`` (every circuit into X: its peers hear a wrong
    peer). ToRs without any are left out."""
    S, N, d = len(peer), len(peer[0]), len(peer[0][0])
    out: dict[int, set[tuple[int, int]]] = {}

    def both(s: int, t: int, u: int) -> None:
        p = int(peer[s][t][u])
        if p < 0:
            return
        out.setdefault(t, set()).add((s, u))
        out.setdefault(p, set()).add((s, u))      # the OCS joins uplink u to uplink u

    if kind == "link":
        t, u = ids
        for s in range(S):
            both(s, t, u)
    elif kind == "port":
        t, u, *slices = ids
        for s in slices:
            both(s, t, u)
    elif kind in ("tor", "id"):
        x = ids[0]
        for s in range(S):
            for t in range(N):
                for u in range(d):
                    if t != x and int(peer[s][t][u]) == x:
                        out.setdefault(t, set()).add((s, u))
    else:
        raise ValueError(f"unknown failure kind {kind!r}")
    return {t: frozenset(v) for t, v in out.items() if v}


#: a circuit a failure silences: (slice, uplink, the ToRs at its ends that mark it)
Circuit = tuple[int, int, frozenset[int]]


def failed_circuits(peer, marks: dict[int, frozenset[tuple[int, int]]]) -> list[Circuit]:
    """The circuits of :func:`expected_marks` ``marks``, each once (both ends of a cut cable
    mark the same circuit; a dead ToR's circuits are marked by its peers only), sorted."""
    out: dict[tuple[int, int, int, int], set[int]] = {}
    for t, cs in marks.items():
        for s, u in cs:
            p = int(peer[s][t][u])
            out.setdefault((s, u, min(t, p), max(t, p)), set()).add(t)
    return [(s, u, frozenset(ends)) for (s, u, _a, _b), ends in sorted(out.items())]


def notices_of(cells: list[int], slices: int, uplinks: int) -> frozenset[tuple[int, int, int]]:
    """The (origin, slice, uplink) circuits ``live_note_map`` says are dead (cell
    ``origin * S + s``, bit ``u``)."""
    return frozenset((i // slices, i % slices, u) for i, v in enumerate(cells) if v
                     for u in range(uplinks) if v >> u & 1)


def knows(tor: int, circuit: Circuit, marks: frozenset, notes: frozenset) -> bool:
    """Whether ``tor`` routes around ``circuit``: it is an end that marked it (its own
    ``marks``), or a notice from an end that marked it is in its map (``notes``)."""
    s, u, ends = circuit
    return (tor in ends and (s, u) in marks) or any((e, s, u) in notes for e in ends)


class MarkWatch:
    """Every ToR's ``live_mask`` / ``live_wrong`` (and with ``notices`` its
    ``live_note_map``) read in a loop (module doc) until :meth:`stop`; ``history[tor]`` =
    [(epoch, marks, wrong, notes)] at each change (the first read included; ``notes`` the
    (origin, slice, uplink) circuits of its notice map, empty without ``notices``). A ToR
    that stops answering (a dead-ToR failure, a restart) reads as no marks until it answers
    again, and is watched again then; ``gaps[tor]`` says when it did not answer."""

    def __init__(self, plan, contract: dict, tors: list[int] | None = None, poll_s: float = 0.025,
                 notices: bool = False, retry_s: float = 1.0):
        regs = contract["liveness"]["registers"]
        self.mask_reg, self.wrong_reg = regs["mask"]["name"], regs["wrong"]["name"]
        self.note_reg = regs["note_map"]["name"] if notices else None
        self.S = regs["valid"]["size"]
        self.d = plan.uplinks
        self.plan = plan
        self.poll_s, self.retry_s = poll_s, retry_s
        self.tors = list(range(plan.tors)) if tors is None else list(tors)
        self.history: dict[int, list[tuple[float, frozenset, frozenset, frozenset]]] = {t: [] for t in self.tors}
        #: the last error of a ToR not answering now (removed when it answers again)
        self.errors: dict[int, str] = {}
        #: per ToR, each time it did not answer: (from, until) epochs, until None while it lasts
        self.gaps: dict[int, list[tuple[float, float | None]]] = {t: [] for t in self.tors}
        self.rtts: list[float] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._run, args=(t,), daemon=True) for t in self.tors]

    def start(self, timeout: float = 60.0) -> "MarkWatch":
        for th in self._threads:
            th.start()
        end = time.monotonic() + timeout
        while any(not self.history[t] and t not in self.errors for t in self.tors):
            if time.monotonic() > end:
                raise procs.ProcError(f"liveness marks of {self.missing()} not read within {timeout:g} s")
            time.sleep(0.05)
        return self

    def missing(self) -> list[int]:
        return [t for t in self.tors if not self.history[t]]

    def _run(self, tor: int) -> None:
        """Read ``tor``'s marks until :meth:`stop`. A switch that stops answering (stopped,
        restarting, its program not loaded yet) is an outage, not the end: its marks are
        recorded as none from then on (a stopped switch routes around nothing) and it is
        connected to again every ``retry_s`` until it answers, so a ToR restarted after a
        dead-ToR failure is watched again like any other (each try starts a
        ``simple_switch_CLI``, a Python process: once a second, not every ``poll_s``)."""
        sw = self.plan.switch(f"tor{tor}")
        cells = [(self.mask_reg, 0), (self.wrong_reg, 0)]
        try:
            while not self._stop.is_set():
                try:
                    cli = procs.RuntimeCLI(sw.thrift_port, sw.name)
                except procs.ProcError as e:
                    self._outage(tor, e)
                    self._stop.wait(self.retry_s)
                    continue
                with cli:
                    last = None
                    while not self._stop.is_set():
                        t0 = time.time()
                        if last is not None:
                            with self._lock:
                                self.rtts.append(t0 - last)
                        last = t0
                        try:
                            got = cli.read_registers(cells)
                            n = notices_of(cli.read_register(self.note_reg), self.S, self.d) \
                                if self.note_reg else frozenset()
                        except procs.ProcError as e:      # stopped or restarting: connect again
                            self._outage(tor, e)
                            break
                        t1 = time.time()
                        m, w = circuits_of(got[cells[0]], self.d), circuits_of(got[cells[1]], self.d)
                        self._record(tor, (t0 + t1) / 2, m, w, n)
                        self._stop.wait(self.poll_s)
                self._stop.wait(self.retry_s)
        except Exception as e:                            # noqa: BLE001 -- reported by the caller
            self.errors[tor] = f"{type(e).__name__}: {e}"

    def _record(self, tor: int, t: float, m: frozenset, w: frozenset, n: frozenset) -> None:
        with self._lock:
            self.errors.pop(tor, None)
            g = self.gaps[tor]
            if g and g[-1][1] is None:
                g[-1] = (g[-1][0], t)
            h = self.history[tor]
            if not h or h[-1][1:] != (m, w, n):
                h.append((t, m, w, n))

    def _outage(self, tor: int, e: Exception) -> None:
        t = time.time()
        with self._lock:
            self.errors[tor] = str(e)
            g = self.gaps[tor]
            if not g or g[-1][1] is not None:
                g.append((t, None))
            h = self.history[tor]
            if h and h[-1][1:] != (frozenset(), frozenset(), frozenset()):
                h.append((t, frozenset(), frozenset(), frozenset()))

    @property
    def period_s(self) -> float:
        with self._lock:
            return statistics.median(self.rtts) if self.rtts else float("nan")

    def marks(self, tor: int) -> frozenset:
        with self._lock:
            h = self.history[tor]
            return h[-1][1] if h else frozenset()

    def first(self, tor: int, pred, since: float) -> float | None:
        """The first time at or after ``since`` at which ``pred(marks, wrong, notes)`` held on
        ``tor`` (a state that began before ``since`` and still held counts from ``since``)."""
        with self._lock:
            h = list(self.history[tor])
        for i, (t, m, w, n) in enumerate(h):
            end = h[i + 1][0] if i + 1 < len(h) else float("inf")
            if end > since and pred(m, w, n):
                return max(t, since)
        return None

    def wait(self, pred_by_tor: dict[int, object], since: float, timeout: float) -> dict[int, float | None]:
        """Until ``pred_by_tor[t](marks, wrong, notes)`` held on every ToR t at or after ``since``
        (or ``timeout`` s passed): {tor: when it first held, None if not}."""
        end = time.time() + timeout
        while True:
            got = {t: self.first(t, p, since) for t, p in pred_by_tor.items()}
            if all(v is not None for v in got.values()) or time.time() > end:
                return got
            time.sleep(0.05)

    def changes(self, since: float) -> int:
        """How many mark changes the ToRs saw after ``since`` (a false alarm is two: set, cleared)."""
        with self._lock:
            return sum(1 for h in self.history.values() for i, (t, *_rest) in enumerate(h) if i and t >= since)

    def marked_since(self, since: float) -> dict[int, set]:
        """{tor: every circuit it marked at some point at or after ``since``}."""
        out: dict[int, set] = {}
        with self._lock:
            for tor, h in self.history.items():
                for i, (t, m, _w, _n) in enumerate(h):
                    end = h[i + 1][0] if i + 1 < len(h) else float("inf")
                    if end > since and m:
                        out.setdefault(tor, set()).update(m)
        return out

    def stop(self) -> None:
        self._stop.set()
        for th in self._threads:
            th.join(timeout=15)
