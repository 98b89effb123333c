"""The route-set artifact store: write and read route sets of every kind.

Two formats (docs/formats.md):

- **compact** (``uro-route-artifact/1``): a directory holding ``manifest.json`` and one
  NumPy ``.npy`` file per array. Arrays are laid out by source ToR first, so one ToR's
  tables are contiguous bytes that a memory map reads without touching the others'
  (:meth:`RouteArtifact.tor_table`, milliseconds at (1024, 32)). The manifest records the
  format version, the schedule's content hash, the algorithm and its parameters and the
  uro version; :func:`open` refuses an artifact for another schedule, of another format
  version, truncated or corrupted, with the reason on one line.
- **JSON** (``uro-routes/1``, ``uro-source-routes/1``): readable documents for small
  networks and debugging (:mod:`.perhop`, :mod:`.source`). Chosen by a ``.json`` suffix
  or ``fmt="json"``.

Writers stream by source ToR (one ToR's rows in memory at a time) into a temporary
directory renamed into place when complete; UCMP routes too large to assemble in memory
are computed and written chunk by chunk by :mod:`.stream`. Dispatch is on
``RouteSet.kind`` (:mod:`controller.routing.base`), never on a class.
"""

from __future__ import annotations

import builtins
import json
import os
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Callable

import numpy as np

from controller import __version__
from controller.atomic import atomic_dir
from controller.errors import UroError
from controller.memory import available_memory
from controller.routing import base, uro_chunks
from controller.routing.base import PER_HOP, SOURCE, RouteSet
from controller.routing.paths import RELAXED, Buckets, PathRoutes, group_parts, ranges
from controller.routing.uro import UroParams, UroRoutes
from controller.routing.uro_labels import dep_dtype
from controller.schedule.model import Schedule, Timing, content_hash
from controller.tables import perhop, source

FORMAT = "uro-route-artifact"
VERSION = 1
MANIFEST = "manifest.json"
#: default artifact name per kind and format (``uro run``)
DEFAULT_NAME = {PER_HOP: "routes", SOURCE: "source_routes"}
COMPACT_SUFFIX = ".uro"
FORMATS = ("compact", "json")


class ArtifactError(UroError):
    """A route artifact that cannot be used: missing, truncated, corrupted, from another
    format version or for another schedule."""


# ---- choosing a format -------------------------------------------------------------------
def output_format(path: str | os.PathLike, fmt: str | None = None) -> str:
    """``"json"`` for a ``.json`` path (or ``fmt="json"``), else ``"compact"``."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise UroError(f"unknown route artifact format {fmt!r} (choose {' or '.join(FORMATS)})")
        return fmt
    return "json" if str(path).lower().endswith(".json") else "compact"


def default_name(kind: str, fmt: str) -> str:
    return DEFAULT_NAME[kind] + (".json" if fmt == "json" else COMPACT_SUFFIX)


def check_output(path: str | os.PathLike, fmt: str, flag: str = "-o") -> Path:
    """Before any work: ``path`` can take an artifact of format ``fmt``. A compact artifact
    is a directory: an existing one is replaced only if it is a uro artifact (or empty)."""
    p = Path(path)
    if fmt == "compact" and p.exists():
        if not p.is_dir():
            raise UroError(f"{flag} {p}: exists and is a file; a compact route artifact is a directory "
                           "(give a new name, or a .json name for JSON)")
        if any(p.iterdir()) and not _looks_like_artifact(p):
            raise UroError(f"{flag} {p}: is a directory that is not a uro route artifact; not replacing it")
    return p


def _looks_like_artifact(p: Path) -> bool:
    try:
        return json.loads((p / MANIFEST).read_text()).get("format", "").startswith(FORMAT)
    except (OSError, ValueError, AttributeError):
        return False


# ---- .npy files written in blocks ----------------------------------------------------------
#: buffers per ``pwritev`` call (Linux: 1024)
_IOV_MAX = os.sysconf("SC_IOV_MAX") if "SC_IOV_MAX" in getattr(os, "sysconf_names", {}) else 16


class NpyBlocks:
    """A ``.npy`` file of known dtype and shape, written block by block at row offsets
    (``os.pwrite``: bounded memory, no mapped pages counted against the writer)."""

    def __init__(self, path: Path, dtype, shape: tuple[int, ...]):
        self.path = Path(path)
        self.dtype = np.dtype(dtype)
        self.shape = tuple(int(x) for x in shape)
        self.row_bytes = self.dtype.itemsize * int(np.prod(self.shape[1:], dtype=np.int64))
        with builtins.open(self.path, "wb") as fh:
            np.lib.format.write_array_header_1_0(fh, {
                "descr": np.lib.format.dtype_to_descr(self.dtype), "fortran_order": False, "shape": self.shape})
            self.offset = fh.tell()
            fh.truncate(self.offset + self.row_bytes * (self.shape[0] if self.shape else 1))
        self.fd = os.open(self.path, os.O_WRONLY)

    def write(self, row0: int, block: np.ndarray) -> None:
        data = np.ascontiguousarray(block, dtype=self.dtype)
        if data.shape[1:] != self.shape[1:] or row0 < 0 or row0 + data.shape[0] > self.shape[0]:
            raise ValueError(f"{self.path.name}: block {data.shape} at row {row0} does not fit {self.shape}")
        if data.size:
            os.pwrite(self.fd, memoryview(data).cast("B"), self.offset + row0 * self.row_bytes)

    def write_runs(self, row0: int, runs: list) -> None:
        """Write the byte buffers ``runs`` (whole rows of this array's dtype and row shape)
        one after the other from row ``row0``: gathered by the kernel (``os.pwritev``,
        :data:`_IOV_MAX` buffers a call), without copying them into one block first."""
        at = self.offset + row0 * self.row_bytes
        end = self.offset + self.row_bytes * (self.shape[0] if self.shape else 1)
        runs = [r for r in runs if len(r)]
        i = 0
        while i < len(runs):
            part = runs[i:i + _IOV_MAX]
            want = sum(len(r) for r in part)
            if at + want > end:
                raise ValueError(f"{self.path.name}: runs past the end of the array")
            n = os.pwritev(self.fd, part, at)
            at += n
            if n == want:
                i += len(part)
                continue
            for r in part:  # short write: go on from the first byte not written
                if n < len(r):
                    runs[i] = r[n:]
                    break
                n -= len(r)
                i += 1

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def uint_for(top: int):
    """The smallest unsigned dtype holding 0..top."""
    for dt in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype(np.uint64)


def int_for(top: int):
    """The smallest signed dtype holding -1..top."""
    for dt in (np.int8, np.int16, np.int32):
        if top <= np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype(np.int64)


class _Writer:
    """Arrays of one compact artifact: created up front, filled block by block."""

    def __init__(self, directory: Path):
        self.dir = Path(directory)
        self.files: dict[str, NpyBlocks] = {}
        self.index: dict[str, str] = {}

    def array(self, name: str, dtype, shape, index: str) -> NpyBlocks:
        f = NpyBlocks(self.dir / f"{name}.npy", dtype, shape)
        self.files[name] = f
        self.index[name] = index
        return f

    def close(self) -> None:
        for f in self.files.values():
            f.close()

    def manifest_arrays(self) -> dict:
        return {n: {"dtype": f.dtype.str, "shape": list(f.shape), "index": self.index[n]}
                for n, f in self.files.items()}


def _schedule_doc(sched: Schedule) -> dict:
    t = sched.timing
    return {"name": sched.name, "tors": sched.n_tors, "uplinks": sched.n_uplinks, "slices": sched.n_slices,
            "hash": sched.content_hash(),
            "timing": {"slice_us": t.slice_us, "guard_us": t.guard_us, "propagation_us": t.propagation_us,
                       "link_gbps": t.link_gbps, "mtu_bytes": t.mtu_bytes}}


#: notes of a route set that say how the run that made it went, for a repair in the same
#: process (controller/routing/ucmp_incremental.py), not what the routes are: not written
#: (the streamed writer has none; routes read back are repaired by recomputing them)
RUN_NOTES = ("capped_destinations",)


def artifact_notes(notes: dict) -> dict:
    """``notes`` without :data:`RUN_NOTES`."""
    return {k: v for k, v in notes.items() if k not in RUN_NOTES}


def write_manifest(directory: Path, kind: str, algo: str, params: dict, sched: Schedule, w: _Writer,
                   buckets: dict | None = None, notes: dict | None = None, extra: dict | None = None) -> dict:
    """Write ``manifest.json`` (last: an artifact without one is incomplete)."""
    doc = {
        "format": f"{FORMAT}/{VERSION}",
        "kind": kind,
        "algo": algo,
        "params": params,
        "uro_version": __version__,
        "schedule": _schedule_doc(sched),
        "contract": None,  # route artifacts do not depend on a P4 profile
        "buckets": buckets,
        "notes": _jsonable(notes or {}),
        "arrays": w.manifest_arrays(),
        **(extra or {}),
    }
    (Path(directory) / MANIFEST).write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def _jsonable(x):
    return json.loads(json.dumps(x, default=lambda o: o.item() if hasattr(o, "item") else str(o)))


def _write_peer(w: _Writer, sched: Schedule) -> None:
    S, N, d = sched.peer.shape
    w.array("peer", int_for(N), (S, N, d), "[slice, tor, uplink] -> peer ToR, -1 idle").write(0, sched.peer)


# ---- writing: per-hop (URO) ------------------------------------------------------------------
def _per_hop_arrays(sched: Schedule, K: int) -> dict[str, tuple[tuple[int, ...], object, str]]:
    """The per-hop artifact's arrays by source ToR: {name: (shape, dtype, index)}."""
    S, N, d = sched.peer.shape
    tdt = uint_for(S)
    return {"alt_uplink": ((N, S, N, K), np.int8 if d <= 127 else np.int16,
                           "[tor, arrival slice, dst, k] -> uplink of alternative k, -1 none"),
            "alt_wait": ((N, S, N, K), tdt,
                         "[tor, arrival slice, dst, k] -> slices from arrival to departure (where alt_uplink >= 0)"),
            "hops": ((N, S, N), np.uint8, "[tor, arrival slice, dst] -> hops of the planned path"),
            "latency": ((N, S, N), tdt, "[tor, arrival slice, dst] -> latency in slices (Eq. 1), 0 at dst == tor")}


def _write_per_hop(routes, directory: Path, progress=None) -> dict:
    sched = routes.schedule
    N = sched.n_tors
    w = _Writer(directory)
    try:
        _write_peer(w, sched)
        out = {name: w.array(name, dt, shape, index)
               for name, (shape, dt, index) in _per_hop_arrays(sched, int(routes.alt_uplink.shape[-1])).items()}
        for x in range(N):
            tbl = perhop.tor_table(routes, x)
            out["alt_uplink"].write(x, tbl.alt_uplink[None])
            out["alt_wait"].write(x, np.where(tbl.alt_uplink >= 0, tbl.alt_wait, 0)[None])
            out["hops"].write(x, tbl.hops[None])
            out["latency"].write(x, tbl.latency[None])
            if progress is not None:
                progress(1)
    finally:
        w.close()
    return write_manifest(directory, PER_HOP, routes.algo, routes.params_dict(), sched, w,
                          extra={"entries_per_tor": perhop.uncompressed_count(routes)})


def write_uro_streamed(sched: Schedule, params: UroParams, directory: str | os.PathLike, progress=None,
                       executor=None, workers: int | None = None, chunk: int = uro_chunks.DEFAULT_CHUNK) -> dict:
    """Compute URO routes chunk by chunk (:mod:`controller.routing.uro_chunks`) straight into
    a compact per-hop artifact in the (new, empty) ``directory`` -- the same files
    :func:`write_compact` writes for :class:`~controller.routing.uro.UroRoutes` -- and
    return its manifest.

    The artifact's arrays are created at their final size and each chunk's columns are
    scattered into them through a memory map (the pages go to the file, not the heap)."""
    N = sched.n_tors
    directory = Path(directory)
    spec = uro_chunks.spec_for(sched, params)
    arrays = _per_hop_arrays(sched, params.k)
    w = _Writer(directory)
    try:
        _write_peer(w, sched)
        for name, (shape, dt, index) in arrays.items():
            w.array(name, dt, shape, index)
        w.close()
        maps = {name: np.load(directory / f"{name}.npy", mmap_mode="r+") for name in arrays}
        tdt = np.dtype(arrays["latency"][1])
        for d0, lat, hp, au, aw in uro_chunks.run_chunks(uro_chunks.artifact_chunk, spec, N, chunk, (tdt.str,),
                                                         executor, workers, progress):
            C = lat.shape[2]
            maps["latency"][:, :, d0:d0 + C] = lat
            maps["hops"][:, :, d0:d0 + C] = hp
            maps["alt_uplink"][:, :, d0:d0 + C] = au
            maps["alt_wait"][:, :, d0:d0 + C] = aw
        for m in maps.values():
            m.flush()
        del maps
    finally:
        w.close()
    shell = UroRoutes(sched, params, *(np.empty((0,)),) * 4)  # for the manifest's algo/params only
    return write_manifest(directory, PER_HOP, shell.algo, shell.params_dict(), sched, w,
                          extra={"entries_per_tor": perhop.uncompressed_count(shell)})


# ---- writing: source routes --------------------------------------------------------------------
class SourceLayout:
    """The arrays of a compact source-route artifact, for writers that fill them per
    source ToR (:func:`_write_source`) or scatter chunks into them (:mod:`.stream`).

    Per source ToR ``x``: groups ``g_count[x]`` in (dst, start slice) order; members
    ``tor_members[x] .. tor_members[x+1]`` and paths ``tor_paths[x] .. tor_paths[x+1]``
    of the member and path arrays, CSR-style (offsets are cumulative sums of counts).
    A hop's send slice is stored relative to its group's start slice (``hop_wait``)."""

    def __init__(self, directory: Path, sched: Schedule, M: int, P: int, width: int, buckets: bool):
        S, N, d = sched.peer.shape
        self.S, self.N, self.d = S, N, d
        self.width = width
        self.w = w = _Writer(directory)
        _write_peer(w, sched)
        self.g_count = w.array("g_count", np.uint16, (N, N, S), "[src, dst, start slice] -> members of the group")
        self.m_kind = w.array("m_kind", np.int8, (M,), "member kind: 0 regular, 1 backup, 2 relaxed")
        self.m_hops = w.array("m_hops", np.int8, (M,), "member hops (-1: its paths differ)")
        self.m_latency = w.array("m_latency", np.uint16, (M,), "member latency in slices (Eq. 1)")
        self.m_npaths = w.array("m_npaths", np.uint16, (M,), "paths of the member")
        self.m_lo = w.array("m_lo", np.int8, (M,), "first bucket served, -1 none") if buckets else None
        self.m_hi = w.array("m_hi", np.int8, (M,), "last bucket served (inclusive), -1 none") if buckets else None
        self.hop_node = w.array("hop_node", int_for(N), (P, width), "[path, hop] -> next ToR, -1 padding")
        self.hop_uplink = w.array("hop_uplink", int_for(d), (P, width), "[path, hop] -> egress uplink, -1 padding")
        self.wait_dt = uint_for(4 * S + 1)
        self.pad = int(np.iinfo(self.wait_dt).max)
        self.hop_wait = w.array("hop_wait", self.wait_dt, (P, width),
                                f"[path, hop] -> send slice - group start slice, {self.pad} padding")

    def check_member_values(self, hops, lat, npaths) -> None:
        if hops.size and (hops.max() > 127 or lat.max() > 65535 or npaths.max() > 65535):
            raise UroError("route set too large for the compact format (member hops > 127, latency or "
                           "paths per member > 65535); write JSON instead")

    def hop_wait_of(self, node: np.ndarray, hop_slice: np.ndarray, t_path: np.ndarray) -> np.ndarray:
        off = hop_slice.astype(np.int64) - t_path[:, None]
        live = node >= 0
        if live.any() and (off[live].min() < 0 or off[live].max() >= self.pad):
            raise UroError(f"a path sends {int(off[live].max())} slices after its start; the compact format "
                           f"holds < {self.pad} (write JSON instead)")
        return np.where(live, off, self.pad)

    def close(self) -> None:
        self.w.close()


def _tor_counts(routes: PathRoutes) -> tuple[np.ndarray, np.ndarray]:
    """Members and paths per source ToR of an in-memory route set."""
    N = routes.schedule.n_tors
    m_src = np.repeat(np.tile(np.repeat(np.arange(N), N), routes.schedule.n_slices), routes.g_count.ravel())
    members = np.bincount(m_src, minlength=N)
    paths = np.bincount(m_src, weights=routes.m_count, minlength=N).astype(np.int64)
    return members, paths


def _write_source(routes: PathRoutes, directory: Path, progress=None) -> dict:
    sched = routes.schedule
    S, N = sched.n_slices, sched.n_tors
    if routes.n_paths:
        t = group_parts(routes.path_group_index(), N)[0]
        last = routes.hop_slice[np.arange(routes.n_paths), routes.p_hops.astype(np.int64) - 1]
        if not (np.array_equal(routes.p_latency, last - t + 1)
                and np.array_equal(routes.p_hops, (routes.hop_node >= 0).sum(1))):
            raise UroError(f"{routes.algo} paths do not follow the Eq. 1 latency of their hops; "
                           "the compact format derives it (write JSON instead)")
    members, paths = _tor_counts(routes)
    tor_m = np.concatenate([[0], np.cumsum(members)]).astype(np.int64)
    tor_p = np.concatenate([[0], np.cumsum(paths)]).astype(np.int64)
    L = SourceLayout(directory, sched, int(tor_m[-1]), int(tor_p[-1]), int(routes.hop_node.shape[1]),
                     routes.buckets is not None)
    entries = np.zeros(N, np.int64)
    try:
        L.check_member_values(routes.m_hops, routes.m_latency, routes.m_count)
        for x in range(N):
            tbl = source.tor_table(routes, x)
            L.g_count.write(x, tbl.g_count[None])
            m0, p0 = int(tor_m[x]), int(tor_p[x])
            L.m_kind.write(m0, tbl.m_kind)
            L.m_hops.write(m0, tbl.m_hops)
            L.m_latency.write(m0, tbl.m_latency)
            L.m_npaths.write(m0, tbl.m_npaths)
            if L.m_lo is not None:
                L.m_lo.write(m0, tbl.m_lo)
                L.m_hi.write(m0, tbl.m_hi)
            t_m = np.repeat(np.tile(np.arange(S), N), tbl.g_count.ravel())
            t_p = np.repeat(t_m, tbl.m_npaths)
            L.hop_node.write(p0, tbl.hop_node)
            L.hop_uplink.write(p0, tbl.hop_uplink)
            L.hop_wait.write(p0, L.hop_wait_of(tbl.hop_node, tbl.hop_slice, t_p))
            entries[x] = source.tor_entry_count(tbl)
            if progress is not None:
                progress(1)
        return finish_source(directory, L, sched, routes.algo, routes.params_dict(), tor_m, tor_p, entries,
                             buckets_doc(routes.buckets), artifact_notes(routes.notes))
    finally:
        L.close()


def finish_source(directory: Path, L: SourceLayout, sched: Schedule, algo: str, params: dict, tor_m, tor_p,
                  entries, buckets: dict | None, notes: dict) -> dict:
    """The per-ToR offsets and the manifest of a source artifact whose arrays are filled."""
    N = sched.n_tors
    L.w.array("tor_members", np.int64, (N + 1,), "[tor] -> first member of the ToR (CSR offsets)").write(0, tor_m)
    L.w.array("tor_paths", np.int64, (N + 1,), "[tor] -> first path of the ToR (CSR offsets)").write(0, tor_p)
    L.w.array("tor_entries", np.int64, (N,), "[tor] -> source-route entries of the ToR").write(0, entries)
    L.close()
    return write_manifest(directory, SOURCE, algo, params, sched, L.w, buckets=buckets, notes=notes,
                          extra={"entries_per_tor": float(np.mean(entries)) if N else 0.0,
                                 "members": int(tor_m[-1]), "paths": int(tor_p[-1])})


def buckets_doc(b: Buckets | None) -> dict | None:
    if b is None:
        return None
    return {"count": b.count, "boundaries_slices_per_hop": [str(x) for x in b.boundaries],
            "slice_bytes": b.slice_bytes}


# ---- writing: entry points ----------------------------------------------------------------------
_COMPACT_WRITERS: dict[str, Callable] = {PER_HOP: _write_per_hop, SOURCE: _write_source}


def write_compact(routes: RouteSet, directory: str | os.PathLike, progress=None) -> dict:
    """Write ``routes`` into the (new, empty) ``directory``; returns the manifest."""
    return _COMPACT_WRITERS[routes.kind](routes, Path(directory), progress)


def write_json(routes: RouteSet, path: str | os.PathLike, with_paths: bool = True, progress=None) -> None:
    if routes.kind == PER_HOP:
        perhop.write_routes(routes, str(path), with_paths=with_paths, progress=progress)
    else:
        source.write_source_routes(routes, str(path), progress=progress)


def write_to(routes: RouteSet, tmp: Path, fmt: str, with_paths: bool = True, progress=None) -> None:
    """Write into a temporary path (a file for JSON, a new directory for compact) that an
    :class:`~controller.atomic.OutputSet` renames into place."""
    if fmt == "json":
        write_json(routes, tmp, with_paths, progress)
    else:
        write_compact(routes, tmp, progress)


def write(routes: RouteSet, path: str | os.PathLike, fmt: str | None = None, with_paths: bool = True,
          progress=None) -> Path:
    """Write ``routes`` to ``path`` atomically (format by :func:`output_format`; the JSON
    writers replace their file atomically themselves)."""
    fmt = output_format(path, fmt)
    target = Path(path)
    if fmt == "json":
        write_to(routes, target, fmt, with_paths, progress)
        return target
    with atomic_dir(target) as tmp:
        write_to(routes, tmp, fmt, with_paths, progress)
    return target


def entries_per_tor(routes) -> float:
    """Mean source-route / per-hop entries per ToR of a route set or an artifact."""
    if isinstance(routes, RouteArtifact):
        return routes.entries_per_tor()
    if routes.kind == PER_HOP:
        return perhop.uncompressed_count(routes)
    return float(source.entry_counts(routes).mean())


# ---- reading ------------------------------------------------------------------------------------
_REQUIRED = {
    PER_HOP: ("peer", "alt_uplink", "alt_wait", "hops", "latency"),
    SOURCE: ("peer", "g_count", "m_kind", "m_hops", "m_latency", "m_npaths", "hop_node", "hop_uplink",
             "hop_wait", "tor_members", "tor_paths", "tor_entries"),
}


def _fail(path: Path, why: str) -> ArtifactError:
    return ArtifactError(f"route artifact {path}: {why}")


def open(path: str | os.PathLike, schedule: Schedule | None = None) -> "RouteArtifact":  # noqa: A001
    """Open a compact route artifact (cheap: reads the manifest and the array headers).

    With ``schedule``, refuses an artifact computed for another schedule (content hash).
    Every problem is an :class:`ArtifactError` naming the path and the reason."""
    p = Path(path)
    if not p.exists():
        raise _fail(p, "not found")
    if p.is_file():
        if p.suffix.lower() == ".json":
            raise _fail(p, "is a JSON route document (for people and small tools); the loader reads compact "
                           "artifacts: write one with `uro routes -o NAME.uro`")
        raise _fail(p, "is a file, not a compact route artifact (a directory with manifest.json)")
    mpath = p / MANIFEST
    try:
        text = mpath.read_text()
    except FileNotFoundError:
        raise _fail(p, f"no {MANIFEST} (not a uro route artifact, or one whose writing did not finish)") from None
    except (OSError, UnicodeDecodeError) as e:
        raise _fail(p, f"cannot read {MANIFEST}: {e}") from None
    try:
        man = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise _fail(p, f"{MANIFEST} is corrupted ({getattr(e, 'msg', 'nested too deeply')})") from None
    if not isinstance(man, dict):
        raise _fail(p, f"{MANIFEST} is corrupted (not a JSON object)")
    fmt = man.get("format")
    if not (isinstance(fmt, str) and fmt.startswith(FORMAT + "/")):
        raise _fail(p, f"not a uro route artifact (format {fmt!r})")
    ver = fmt.split("/", 1)[1]
    if ver != str(VERSION):
        raise _fail(p, f"format version {ver} (written by uro {man.get('uro_version', '?')}); this uro "
                       f"({__version__}) reads version {VERSION}: recompute the routes with this uro")
    try:
        return RouteArtifact(p, man, schedule)
    except (KeyError, TypeError, ValueError) as e:
        raise _fail(p, f"{MANIFEST} is corrupted ({type(e).__name__}: {e})") from None


def _npy_header(path: Path) -> tuple[tuple, np.dtype, int]:
    with path.open("rb") as fh:
        major, _ = np.lib.format.read_magic(fh)
        if major == 1:
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
        else:
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
        if fortran:
            raise ValueError("Fortran order")
        return tuple(shape), np.dtype(dtype), fh.tell()


@dataclass(frozen=True)
class _Array:
    path: Path
    dtype: np.dtype
    shape: tuple


class RouteArtifact:
    """A compact route artifact opened for reading (see :func:`open`).

    ``kind``, ``algo``, ``manifest``, ``schedule`` (built on first use), ``params_dict()``;
    :meth:`tor_table` reads one ToR's tables (what :func:`perhop.entries` /
    :func:`source.entries` and so :func:`controller.tables.tor_batch.tor_batch` take: the
    artifact itself can be passed where routes are expected); :meth:`route_set` loads the
    whole route set where memory allows."""

    def __init__(self, path: Path, manifest: dict, schedule: Schedule | None = None):
        self.path = path
        self.manifest = manifest
        self.kind = manifest["kind"]
        if self.kind not in _REQUIRED:
            raise _fail(path, f"unknown route-set kind {self.kind!r}")
        self.algo = str(manifest["algo"])
        sd = manifest["schedule"]
        self.n_slices, self.n_tors, self.n_uplinks = int(sd["slices"]), int(sd["tors"]), int(sd["uplinks"])
        self.schedule_hash = str(sd["hash"])
        self._timing = Timing(**sd["timing"])
        self._sched_name = str(sd["name"])
        arrays = manifest["arrays"]
        self._arrays: dict[str, _Array] = {}
        for name in _REQUIRED[self.kind]:
            if name not in arrays:
                raise _fail(path, f"{MANIFEST} lists no array {name!r} (corrupted)")
        for name, meta in arrays.items():
            f = path / f"{name}.npy"
            want_shape, want_dtype = tuple(int(x) for x in meta["shape"]), np.dtype(meta["dtype"])
            if not f.is_file():
                raise _fail(path, f"{f.name} is missing (incomplete or damaged artifact)")
            try:
                shape, dtype, offset = _npy_header(f)
            except (ValueError, OSError, SyntaxError) as e:
                raise _fail(path, f"{f.name} is corrupted (bad .npy header: {e})") from None
            if shape != want_shape or dtype != want_dtype:
                raise _fail(path, f"{f.name} holds {dtype}{list(shape)}, the manifest says "
                                  f"{want_dtype}{list(want_shape)} (corrupted)")
            need = offset + dtype.itemsize * int(np.prod(shape, dtype=np.int64))
            size = f.stat().st_size
            if size != need:
                raise _fail(path, f"{f.name} is {'truncated' if size < need else 'too long'} "
                                  f"({size} of {need} bytes)")
            self._arrays[name] = _Array(f, dtype, shape)
        self._mm: dict[str, np.ndarray] = {}
        S, N, d = self.n_slices, self.n_tors, self.n_uplinks
        if self._arrays["peer"].shape != (S, N, d):
            raise _fail(path, f"peer.npy has shape {list(self._arrays['peer'].shape)}, the schedule is {S}x{N}x{d}")
        self._schedule = None
        if schedule is not None:
            self.check_schedule(schedule)
            self._schedule = schedule

    # ---- identity -------------------------------------------------------------------------
    def check_schedule(self, schedule: Schedule, what: str = "the schedule given") -> None:
        """Refuse routes computed for another schedule (different circuits or timing)."""
        h = schedule.content_hash()
        if h != self.schedule_hash:
            raise _fail(self.path, f"computed for schedule {self._sched_name!r} ({self.n_tors} ToRs x "
                                   f"{self.n_uplinks} uplinks x {self.n_slices} slices, {self.schedule_hash[:19]}), "
                                   f"not for {what} {schedule.name!r} ({schedule.n_tors} x {schedule.n_uplinks} x "
                                   f"{schedule.n_slices}, {h[:19]}): recompute the routes for it")

    def params_dict(self) -> dict:
        return dict(self.manifest["params"])

    @property
    def notes(self) -> dict:
        return dict(self.manifest.get("notes") or {})

    @property
    def schedule(self) -> Schedule:
        """The schedule the routes were computed for (stored in the artifact)."""
        if self._schedule is None:
            peer = np.array(self._array("peer"), dtype=np.int32)
            if content_hash(peer, self._timing) != self.schedule_hash:
                raise _fail(self.path, "peer.npy does not match the schedule hash in the manifest (corrupted)")
            self._schedule = Schedule(peer, self._timing, name=self._sched_name)
        return self._schedule

    def entries_per_tor(self) -> float:
        return float(self.manifest.get("entries_per_tor", 0.0))

    def describe(self) -> str:
        return (f"{self.path}: {self.algo} routes ({self.kind.replace('_', '-')}) for schedule {self._sched_name!r} "
                f"({self.n_tors} ToRs x {self.n_uplinks} uplinks x {self.n_slices} slices), "
                f"params {self.params_dict()}")

    # ---- arrays ---------------------------------------------------------------------------
    def _array(self, name: str) -> np.ndarray:
        if name not in self._mm:
            a = self._arrays[name]
            try:
                self._mm[name] = np.load(a.path, mmap_mode="r")
            except (ValueError, OSError) as e:
                raise _fail(self.path, f"{a.path.name}: {e}") from None
        return self._mm[name]

    def _check_tor(self, tor) -> int:
        if isinstance(tor, bool) or not isinstance(tor, (int, np.integer)) or not 0 <= tor < self.n_tors:
            raise UroError(f"ToR {tor!r} is not in route artifact {self.path} (0..{self.n_tors - 1})")
        return int(tor)

    def _corrupt(self, tor: int, what: str) -> ArtifactError:
        return _fail(self.path, f"ToR {tor}'s table is corrupted ({what})")

    def tor_table(self, tor: int):
        """One ToR's table, read alone: a :class:`perhop.PerHopTable` or a
        :class:`source.SourceTable` (values range-checked: corruption is an ArtifactError)."""
        tor = self._check_tor(tor)
        return self._per_hop_table(tor) if self.kind == PER_HOP else self._source_table(tor)

    def _per_hop_table(self, x: int) -> perhop.PerHopTable:
        S, d = self.n_slices, self.n_uplinks
        peer = self._array("peer")
        upl = np.array(self._array("alt_uplink")[x], dtype=np.int8 if d <= 127 else np.int16)
        wait = np.array(self._array("alt_wait")[x], dtype=np.int32)
        hops = np.array(self._array("hops")[x])
        lat = np.array(self._array("latency")[x], dtype=np.int32)
        if upl.size and (upl.min() < -1 or upl.max() >= d):
            raise self._corrupt(x, "uplink out of range")
        if wait.size and wait.max() >= S:
            raise self._corrupt(x, "departure after a full cycle")
        if lat.size and lat.max() > S:
            raise self._corrupt(x, "latency longer than a cycle")
        return perhop.PerHopTable(x, peer, upl, wait, hops, lat)

    def _source_table(self, x: int) -> source.SourceTable:
        S, N, d = self.n_slices, self.n_tors, self.n_uplinks
        tm, tp = self._array("tor_members"), self._array("tor_paths")
        m0, m1, p0, p1 = int(tm[x]), int(tm[x + 1]), int(tp[x]), int(tp[x + 1])
        M, P = self._arrays["m_kind"].shape[0], self._arrays["hop_node"].shape[0]
        if not (0 <= m0 <= m1 <= M and 0 <= p0 <= p1 <= P):
            raise self._corrupt(x, "member/path offsets out of range")
        gc = np.array(self._array("g_count")[x], dtype=np.int64)
        npaths = np.array(self._array("m_npaths")[m0:m1], dtype=np.int64)
        if gc.sum() != m1 - m0 or npaths.sum() != p1 - p0:
            raise self._corrupt(x, "group/member counts disagree with the offsets")
        kind = np.array(self._array("m_kind")[m0:m1])
        if kind.size and (kind.min() < 0 or kind.max() > RELAXED):
            raise self._corrupt(x, "unknown member kind")
        node = np.array(self._array("hop_node")[p0:p1], dtype=np.int32)
        upl = np.array(self._array("hop_uplink")[p0:p1], dtype=np.int16)
        wait = self._array("hop_wait")[p0:p1]
        if node.size and (node.min() < -1 or node.max() >= N or upl.min() < -1 or upl.max() >= d):
            raise self._corrupt(x, "hop out of range")
        t_m = np.repeat(np.tile(np.arange(S), N), gc.ravel())
        t_p = np.repeat(t_m, npaths)
        hop_slice = np.where(node >= 0, wait.astype(np.int32) + t_p[:, None].astype(np.int32), -1)
        has_b = "m_lo" in self._arrays
        return source.SourceTable(
            src=x, n_slices=S, g_count=gc.astype(np.int32), m_kind=kind,
            m_hops=np.array(self._array("m_hops")[m0:m1], dtype=np.int16),
            m_latency=np.array(self._array("m_latency")[m0:m1], dtype=np.int32), m_npaths=npaths.astype(np.int32),
            m_lo=np.array(self._array("m_lo")[m0:m1], dtype=np.int32) if has_b else None,
            m_hi=np.array(self._array("m_hi")[m0:m1], dtype=np.int32) if has_b else None,
            hop_node=node, hop_uplink=upl, hop_slice=hop_slice)

    # ---- the whole route set --------------------------------------------------------------
    def memory_needed(self) -> int:
        """Bytes :meth:`route_set` holds at its peak (the in-memory arrays plus one copy)."""
        S, N = self.n_slices, self.n_tors
        if self.kind == PER_HOP:
            K = self._arrays["alt_uplink"].shape[-1]
            return 2 * S * N * N * (K * (1 + np.dtype(dep_dtype(S)).itemsize) + 5)
        M, P = self._arrays["m_kind"].shape[0], self._arrays["hop_node"].shape[0]
        width = self._arrays["hop_node"].shape[1]
        return 2 * (S * N * N * 12 + M * 27 + P * (6 + width * 10))

    def route_set(self, limit_bytes: int | None = None) -> RouteSet:
        """The whole route set in memory (:class:`UroRoutes` or :class:`PathRoutes`),
        refused with the estimate when it would not fit."""
        need = self.memory_needed()
        limit = available_memory() if limit_bytes is None else limit_bytes
        if need > limit:
            raise UroError(f"loading all of route artifact {self.path} needs about {need / 2**30:.1f} GiB, "
                           f"{limit / 2**30:.1f} GiB are available; per-ToR readers (tor_table) need "
                           "one ToR's tables only")
        return self._per_hop_routes() if self.kind == PER_HOP else self._path_routes()

    def _per_hop_routes(self):
        sched = self.schedule
        S, N = self.n_slices, self.n_tors
        t = np.arange(S)[:, None, None]
        upl = np.ascontiguousarray(np.asarray(self._array("alt_uplink")).transpose(1, 0, 2, 3)).astype(np.int8)
        wait = np.asarray(self._array("alt_wait")).transpose(1, 0, 2, 3)
        alt_dep = np.where(upl >= 0, wait.astype(np.int32) + t[..., None].astype(np.int32), -1).astype(dep_dtype(S))
        hops = np.ascontiguousarray(np.asarray(self._array("hops")).transpose(1, 0, 2)).astype(np.uint8)
        lat = np.asarray(self._array("latency")).transpose(1, 0, 2).astype(np.int32)
        arrival = (lat + t - 1).astype(np.int32)
        arrival[:, np.arange(N), np.arange(N)] = np.arange(S)[:, None]
        if upl.size and (upl.min() < -1 or upl.max() >= self.n_uplinks or wait.max() >= S):
            raise _fail(self.path, "alt_uplink/alt_wait out of range (corrupted)")
        params = base.get(self.algo).params_type(**self.params_dict())
        return UroRoutes(sched, params, arrival, hops, upl, alt_dep)

    def _path_routes(self) -> PathRoutes:
        sched = self.schedule
        S, N = self.n_slices, self.n_tors
        gc_a = np.asarray(self._array("g_count")).astype(np.int64)  # [src, dst, t]
        gfirst_a = np.cumsum(gc_a.ravel()) - gc_a.ravel()
        # PathRoutes order: groups by (t, src, dst)
        order = np.arange(N * N * S).reshape(N, N, S).transpose(2, 0, 1).ravel()
        g_count = gc_a.ravel()[order]
        midx = ranges(gfirst_a[order], g_count)
        npaths_a = np.asarray(self._array("m_npaths")).astype(np.int64)
        pfirst_a = np.cumsum(npaths_a) - npaths_a
        m_count = npaths_a[midx]
        pidx = ranges(pfirst_a[midx], m_count)
        node = np.asarray(self._array("hop_node"))[pidx].astype(np.int32)
        upl = np.asarray(self._array("hop_uplink"))[pidx].astype(np.int16)
        wait = np.asarray(self._array("hop_wait"))[pidx]
        if node.size and (node.min() < -1 or node.max() >= N or upl.min() < -1 or upl.max() >= self.n_uplinks):
            raise _fail(self.path, "hop_node/hop_uplink out of range (corrupted)")
        t_g = np.repeat(np.arange(S), N * N)
        t_p = np.repeat(np.repeat(t_g, g_count), m_count)
        hop_slice = np.where(node >= 0, wait.astype(np.int32) + t_p[:, None].astype(np.int32), -1).astype(np.int32)
        p_hops = (node >= 0).sum(1).astype(np.int16)
        P = node.shape[0]
        p_latency = (hop_slice[np.arange(P), np.maximum(p_hops.astype(np.int64) - 1, 0)] - t_p + 1).astype(np.int32)
        m_kind = np.asarray(self._array("m_kind"))[midx].astype(np.int8)
        m_first = (np.cumsum(m_count) - m_count).astype(np.int64)
        g_first = (np.cumsum(g_count) - g_count).astype(np.int64)
        b = self.manifest.get("buckets")
        buckets = None
        if b is not None:
            m_lo = np.asarray(self._array("m_lo"))[midx].astype(np.int32)
            m_hi = np.asarray(self._array("m_hi"))[midx].astype(np.int32)
            buckets = Buckets(tuple(Fraction(x) for x in b["boundaries_slices_per_hop"]), float(b["slice_bytes"]),
                              m_lo, m_hi)
        return PathRoutes(
            schedule=sched, algo=self.algo, params=self.params_dict(),
            g_first=g_first.reshape(S, N, N), g_count=g_count.astype(np.int32).reshape(S, N, N),
            m_kind=m_kind, m_hops=np.asarray(self._array("m_hops"))[midx].astype(np.int16),
            m_latency=np.asarray(self._array("m_latency"))[midx].astype(np.int32),
            m_first=m_first, m_count=m_count.astype(np.int32), p_hops=p_hops, p_latency=p_latency,
            hop_node=node, hop_uplink=upl, hop_slice=hop_slice, buckets=buckets, notes=self.notes)


__all__ = ["ArtifactError", "RouteArtifact", "open", "write", "write_compact", "write_json",
           "output_format", "check_output", "entries_per_tor", "DEFAULT_NAME", "FORMAT", "VERSION"]
