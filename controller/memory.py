"""How much memory a job needs, estimated before it starts (and how much there is).

Large schedules should be refused in a second with the estimate, not after half a
minute of work with a MemoryError. The figures are peak resident bytes per
(slice, ToR, ToR) cell measured on this code (``benchmarks/bench_artifacts.py --memory``
prints them); they are deliberately rounded up.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import mmap
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from controller.errors import UroError

#: measured peak bytes per (slice, ToR, ToR) cell, rounded up (see the module docstring;
#: measured on Opera-style schedules from (128, 8) to (1024, 32))
BYTES_PER_CELL = {
    # generators build the peer table and validate it (meets(): one bool per cell): 2.5
    "generate": 4,
    # URO labels and K alternatives: key/dep int32, uplink int8 per slice, alt_dep int32
    # and alt_uplink int8 per k, the reshape copies: 86 at K = 4 (50 + 9 K); alt_dep is int16
    # up to 16,384 slices (uro_labels.dep_dtype), and this bound stays the int32 one
    "uro": 50,
    "uro_per_k": 9,
    # `uro stats`/`run`/`compare` on per-hop routes, routes included: 179
    "uro_stats": 190,
    # URO streamed to a compact artifact (artifacts.write_uro_streamed): the artifact's arrays,
    # memory-mapped (2 K + 2 B/cell), plus the chunks in flight: ~11 at (1024, 32), K = 4
    "uro_stream": 14,
    # UCMP assembled in memory (ucmp.compute): every path (~4.5-6 per group) with its
    # sort copies, 320-580 B per path: 1600-2600 per cell
    "ucmp": 2700,
    # UCMP streamed to an artifact (stream.write_ucmp): meeting tables (10 B/cell), group
    # counts, the value tables and paths of the chunks in flight: 85 at (512, 16), 50 at (1024, 32)
    # (61 with the kernel threads' reused buffers). Not counted: phase 1's output held in memory
    # instead of spilled (stream.SPILL_BUDGET, at most a quarter of the available memory)
    "ucmp_stream": 90,
    # the other source-routed schemes, per path of a group (direct, KSP/Opera k = 1): 189 with
    # the `stats` metrics
    "source": 200,
}
def available_memory() -> int:
    """Bytes this process can expect to use: MemAvailable (Linux), else physical memory."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):  # pragma: no cover - non-POSIX
        return 1 << 40


def estimate(what: str, n_tors: int, n_uplinks: int, n_slices: int, k: int = 4) -> int:
    """Estimated peak bytes of job ``what`` (a key of :data:`BYTES_PER_CELL`, or an
    algorithm name) on a schedule of that size; ``k``: URO alternatives, or paths per group."""
    cells = n_slices * n_tors * n_tors
    if what == "uro":
        per = BYTES_PER_CELL["uro"] + BYTES_PER_CELL["uro_per_k"] * k
    elif what == "vlb":
        per = BYTES_PER_CELL["source"] * max(1, n_tors - 2)  # every intermediate is a path of its group
    elif what in ("ksp", "opera"):
        per = BYTES_PER_CELL["source"] * max(1, k)
    elif what in BYTES_PER_CELL:
        per = BYTES_PER_CELL[what]
    else:
        per = BYTES_PER_CELL["source"]
    return int(cells * per) + (200 << 20)  # + the interpreter and libraries


def check(what: str, n_tors: int, n_uplinks: int, n_slices: int, k: int = 4, label: str | None = None,
          limit_bytes: int | None = None) -> int:
    """Refuse a job whose estimate exceeds the available memory (before allocating)."""
    need = estimate(what, n_tors, n_uplinks, n_slices, k)
    limit = available_memory() if limit_bytes is None else limit_bytes
    if need > limit:
        raise UroError(f"{label or what} on {n_tors} ToRs x {n_uplinks} uplinks x {n_slices} slices needs about "
                       f"{_gib(need)} of memory, {_gib(limit)} are available")
    return need


def _gib(b: int) -> str:
    return f"{b / 2**30:.1f} GiB" if b < 100 * 2**30 else f"{b / 2**30:,.0f} GiB"


# ---- the cyclic garbage collector during bursts of allocation ------------------------------
_gc_lock = threading.Lock()
_gc_pauses = 0
_gc_was_on = True
_gc_freeze = False


def freeze_after_bursts(on: bool = True) -> None:
    """Let :func:`paused_gc` freeze (``gc.freeze``) what its bursts leave alive when the
    last of them ends, instead of leaving it to the collector: for a long-running daemon
    (``uro daemon`` sets it), whose bursts leave long-lived objects -- each switch's known
    state, rebuilt by every update and reconcile: at (108, 6) with UCMP ~1.6M entries,
    members and groups with their dicts and tuples, 6.4M tracked objects in the young
    generations after a reconcile. Left to the collector, a middle collection walked them
    for 1.7-2.2 s and a full one for 1.2 s, in whichever thread allocated next, holding the
    interpreter: a failure arriving then waited for it. Frozen, they are never walked again
    and still freed by their counts when dropped. The price: cyclic garbage a burst leaves is
    never collected; every middle or full collection over 10 ms that a daemon's run logged
    after its first second found none (47 objects once)."""
    global _gc_freeze
    with _gc_lock:
        _gc_freeze = on


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused while a burst of acyclic objects is made or
    compared: a ToR's route entries (~20K tuples and dataclasses), a switch's state read
    back, diffed and verified. With the collector on, every 700 allocations start a young
    collection, every 10th of those a middle one, and the whole heap -- the daemon's
    routes, entries and decoded reads -- is walked when enough survive: at (108, 6) that
    was 0.2-0.5 s of a failure's 1.5 s update. Paused, the new objects are walked once,
    by the first collection after it (refcounting frees them meanwhile as ever), or never,
    frozen (:func:`freeze_after_bursts`).

    Threads pause it together (a count): the collector runs again when the last of them
    is done, and only if it was on when the first began."""
    global _gc_pauses, _gc_was_on
    with _gc_lock:
        if _gc_pauses == 0:
            _gc_was_on = gc.isenabled()
            gc.disable()
        _gc_pauses += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pauses -= 1
            if _gc_pauses == 0 and _gc_was_on:
                if _gc_freeze:
                    gc.freeze()
                gc.enable()


# ---- where a long-running process's memory goes, phase by phase ---------------------------
#: NumPy's own switch for asking the kernel for transparent huge pages (read at import)
HUGEPAGE_ENV = "NUMPY_MADVISE_HUGEPAGE"


def small_pages() -> bool:
    """NumPy's arrays on ordinary 4 KiB pages in this process and the processes it starts
    (the daemon, its workers, a simulated fabric), unless :data:`HUGEPAGE_ENV` says
    otherwise. Returns whether it changed anything.

    Why: NumPy asks the kernel for transparent huge pages (``madvise(MADV_HUGEPAGE)``) for
    every array of 4 MiB and more. Where the system's policy is ``defrag = madvise`` (the
    default of many distributions) a fault of such an array may compact memory first, and
    in a long-running process on a host whose memory is fragmented that can cost more than
    the copy it serves: at (1024, 32), K = 10, the whole routes took 5.79 s with huge pages
    against 2.62 s without, and of five route repairs in one process (1.7 GiB of fresh
    arrays each) the slowest 5.16 s against 2.54 s, the median 1.44 s against 1.16 s
    (``uro bench --suite uro``, docs/fabric.md "Huge pages"). NumPy documents the
    variable; a user who wants huge pages sets ``NUMPY_MADVISE_HUGEPAGE=1``."""
    if os.environ.get(HUGEPAGE_ENV, "") != "":
        return False                      # the user's choice, read by NumPy at its import
    os.environ[HUGEPAGE_ENV] = "0"        # the processes started from here
    core = getattr(np, "_core", None) or getattr(np, "core")
    toggle = getattr(core.multiarray, "_set_madvise_hugepage", None)
    return bool(toggle(False)) if toggle is not None else False


class SlabCopy:
    """C-ordered copies of ``arrays`` made slab by slab of their first axis (``n`` slabs
    per array, or slabs of about ``slab_bytes``) by whichever threads :meth:`run` it: each
    slab is copied once, by the first thread to take it.

    Why: the copy a failure's route repair at (1024, 32) writes in is 1.1 GiB of fresh
    memory, 290K page faults, and in the daemon each fault cost ~8-35 us of kernel time
    where a process of its own pays ~1.5-3 us. The daemon copies ahead of the failure on a
    thread of its own (:meth:`controller.daemon.plan.RouteCache.prepare_copy`), in small
    slabs, one take of the interpreter each; a failure that comes while that copy is
    being made has it finished on two threads (:meth:`finish`) instead of copying all of
    it again beside."""

    def __init__(self, arrays: Iterable[np.ndarray], n: int = 2, slab_bytes: int | None = None):
        srcs = tuple(arrays)
        self.arrays = tuple(np.empty(a.shape, a.dtype) for a in srcs)
        self._jobs = []
        for a, out in zip(srcs, self.arrays):
            rows = a.shape[0] if a.ndim else 1
            k = n if slab_bytes is None else -(-a.nbytes // max(1, slab_bytes))
            cuts = np.linspace(0, rows, max(1, min(k, rows)) + 1).astype(int)
            self._jobs += [(a, out, int(lo), int(hi)) for lo, hi in zip(cuts[:-1], cuts[1:])]
        self._cv = threading.Condition()
        self._next = 0                      # the next slab to take
        self._left = len(self._jobs)        # slabs not copied yet (taken or not)
        self._error: BaseException | None = None

    @property
    def slabs(self) -> int:
        return len(self._jobs)

    @property
    def complete(self) -> bool:
        with self._cv:
            return self._left == 0 and self._error is None

    def untaken(self) -> int:
        """Slabs no thread has taken yet."""
        with self._cv:
            return len(self._jobs) - self._next

    def run(self, wanted: Callable[[], bool] = lambda: True) -> int:
        """Copy the slabs no thread has taken, one at a time, until none is left or
        ``wanted()`` is false before one; returns how many this call copied."""
        done = 0
        while wanted():
            with self._cv:
                if self._next == len(self._jobs) or self._error is not None:
                    break
                a, out, lo, hi = self._jobs[self._next]
                self._next += 1
            try:
                np.copyto(out[lo:hi] if a.ndim else out, a[lo:hi] if a.ndim else a)
            except BaseException as e:
                with self._cv:
                    self._error = e
                    self._left -= 1
                    self._cv.notify_all()
                raise
            done += 1
            with self._cv:
                self._left -= 1
                if not self._left:
                    self._cv.notify_all()
        return done

    def finish(self, threads: int = 2, wanted: Callable[[], bool] = lambda: True) -> tuple[np.ndarray, ...] | None:
        """Copy the slabs left on ``threads`` threads (NumPy's copy releases the
        interpreter) and wait for those other threads are copying: the copies, or None
        once ``wanted()`` is false before a slab."""
        if threads > 1 and self.untaken() > 1:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                list(pool.map(lambda _: self.run(wanted), range(threads)))
        else:
            self.run(wanted)
        if not wanted():
            return None
        with self._cv:
            self._cv.wait_for(lambda: self._left == 0)
            if self._error is not None:
                raise self._error
        return self.arrays


def copy_slabs(arrays: Iterable[np.ndarray], threads: int = 2, wanted: Callable[[], bool] = lambda: True,
               slab_bytes: int | None = None) -> tuple[np.ndarray, ...] | None:
    """C-ordered copies of ``arrays`` made on ``threads`` threads (:class:`SlabCopy`):
    ``threads`` slabs per array, or slabs of about ``slab_bytes``; None once ``wanted()``
    is false before a slab. Each slab costs a take of the interpreter, which in a busy
    process may wait a switch interval, so the repair's own copy takes few."""
    return SlabCopy(arrays, threads, slab_bytes).finish(threads, wanted)


#: environment variable: ``N`` (> 0) makes :func:`phase` trace Python's allocations
#: (``tracemalloc`` with N frames per allocation, started at the first phase) and name the
#: largest by traceback; unset or 0: only the resident figures, which cost nothing
TRACE_ENV = "URO_TRACEMALLOC"
#: allocation sites :func:`phase` names when tracing
TRACE_TOP = 12


def proc_status(pid: int | str = "self") -> dict[str, int]:
    """The numeric fields of ``/proc/<pid>/status`` by name (``VmRSS``, ``VmHWM`` in kB,
    ``Threads``, ...): one reader for this process's figures and a benchmark's of the
    daemon it started. OSError where the process or the file is not there."""
    out = {}
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            name, _, rest = line.partition(":")
            first = rest.split()[:1]
            if first and first[0].isdigit():
                out[name] = int(first[0])
    return out


def resident() -> dict[str, int]:
    """This process's resident memory now and its peak so far, MiB (``VmRSS``, ``VmHWM``
    of ``/proc/self/status``); ``{}`` where the system keeps no such file."""
    try:
        st = proc_status()
    except OSError:
        return {}
    return {key: st[name] >> 10 for key, name in (("rss_mib", "VmRSS"), ("hwm_mib", "VmHWM")) if name in st}


def phase(name: str) -> dict:
    """The figures of one phase's end (:func:`resident`, ``phase`` = ``name``), with, when
    :data:`TRACE_ENV` asks for it, the traced Python memory (``traced_mib``, its peak since
    the last phase ``traced_peak_mib``) and the :data:`TRACE_TOP` largest allocation sites
    by traceback (``top``: "MiB in N blocks: file:line <- caller ..."). Numpy arrays are
    traced too (their buffers); memory of C libraries (gRPC's) is in the resident figure only."""
    import tracemalloc

    out = {"phase": name, **resident()}
    try:
        frames = int(os.environ.get(TRACE_ENV, "0") or 0)
    except ValueError:
        frames = 0
    if frames <= 0:
        return out
    if not tracemalloc.is_tracing():
        tracemalloc.start(frames)
        return out | {"traced_mib": 0}
    now, peak = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    snap = tracemalloc.take_snapshot().filter_traces((tracemalloc.Filter(False, tracemalloc.__file__),))
    top = []
    for st in snap.statistics("traceback")[:TRACE_TOP]:
        where = " <- ".join(f"{_short(f.filename)}:{f.lineno}" for f in reversed(st.traceback))
        top.append(f"{st.size / 2**20:.1f} MiB in {st.count} blocks: {where}")
    del snap
    return out | {"traced_mib": now >> 20, "traced_peak_mib": peak >> 20, "top": top}


def _short(path: str) -> str:
    """A traced file's path from its package (``controller/agent/diff.py``, ``numpy/...``)."""
    for mark in ("/controller/", "/site-packages/", "/lib/python"):
        i = path.rfind(mark)
        if i >= 0:
            return path[i + 1:]
    return path


def array_bytes(*objs: Any) -> int:
    """The heap bytes of the NumPy arrays these objects hold: through dataclass fields,
    tuples, lists and dict values, each buffer once however many objects or views share it
    (two route sets that share an array cost it once). Arrays mapped from a file (a compact
    route artifact opened for reading) count nothing: the kernel can drop their pages.
    What a cache of route sets costs, without walking every Python object (pympler's
    ``asizeof`` takes seconds on a (1024, 32) route set; this reads a few dozen fields)."""
    seen_objs: set[int] = set()
    buffers: dict[int, int] = {}

    def root(a: np.ndarray) -> Any:
        while isinstance(a, np.ndarray) and a.base is not None:
            if isinstance(a, np.memmap):
                return a
            a = a.base
        return a

    def walk(o: Any) -> None:
        if o is None or isinstance(o, (str, bytes, int, float, bool)) or id(o) in seen_objs:
            return
        seen_objs.add(id(o))
        if isinstance(o, np.ndarray):
            r = root(o)
            if isinstance(r, (np.memmap, mmap.mmap)):
                return
            buffers[id(r)] = r.nbytes if isinstance(r, np.ndarray) else max(buffers.get(id(r), 0), o.nbytes)
        elif dataclasses.is_dataclass(o) and not isinstance(o, type):
            for f in dataclasses.fields(o):
                walk(getattr(o, f.name, None))
        elif isinstance(o, (tuple, list)):
            for x in o:
                walk(x)
        elif isinstance(o, dict):
            for x in o.values():
                walk(x)

    for o in objs:
        walk(o)
    return sum(buffers.values())
