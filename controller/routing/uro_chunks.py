"""The compiled URO engine's driver: destination chunks on all cores, or on a Dask cluster.

:mod:`controller.routing.uro_kernel` computes the labels of a chunk of destinations
(every ToR, every arrival slice) independently of every other chunk (URO §III: a label
of ``(x, dst)`` is built only from labels of the same destination). This module runs
those chunks on an *executor* -- anything with ``submit(fn, *args) -> future`` whose
futures have ``result()``: the in-process thread pool (default; the kernels release the
GIL) or a Dask client (:mod:`controller.routing.distributed`) -- and gathers them

- into the arrays of :class:`~controller.routing.uro.UroRoutes` (:func:`compute`), or
- chunk by chunk in the compact artifact's layout (:func:`artifact_chunk`), which
  :func:`controller.tables.artifacts.write_uro_streamed` scatters straight into the
  artifact's files: no ``[t, x, dst, K]`` copy of the routes is ever held, which is what
  keeps (1024, 32) under 2 GiB.
"""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from controller.errors import UroError
from controller.routing.uro_labels import UNBOUNDED, dep_dtype, direct_labels
from controller.schedule.model import Schedule

#: destinations per chunk: small enough to spread over workers, large enough to amortise a call
DEFAULT_CHUNK = 16


@dataclass(frozen=True)
class ChunkSpec:
    """Everything a worker needs for URO chunks of one schedule (picklable, shipped once)."""

    peer: np.ndarray  # [S, N, d] int32
    inj: np.ndarray  # [S, d] bool: uplink is a matching in that slice (uro_kernel.injective)
    dkey: np.ndarray  # [N, N] int64 direct labels (uro_labels.direct_labels)
    ddep: np.ndarray  # [N, N] int32
    dupl: np.ndarray  # [N, N] int8
    k: int
    max_hops: int
    per_slice: int


def spec_for(sched: Schedule, params) -> ChunkSpec:
    from controller.routing.uro_kernel import injective  # numba: loaded on first use (test_import_no_jit)

    S, N, d = sched.peer.shape
    dkey, ddep, dupl = direct_labels(sched)
    return ChunkSpec(np.ascontiguousarray(sched.peer, dtype=np.int32), injective(sched.peer), dkey.reshape(N, N).astype(np.int64),
                     ddep.reshape(N, N).astype(np.int32), dupl.reshape(N, N).astype(np.int8), params.k,
                     params.max_hops or UNBOUNDED, params.hops_per_slice or UNBOUNDED)


def _failed(dst: int) -> UroError:
    return UroError(f"URO labels towards ToR {dst} did not converge over the cycle; please report this schedule")


def routes_chunk(spec: ChunkSpec, d0: int, C: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Chunk ``d0 .. d0+C-1`` as UroRoutes columns: ``(d0, arrival, hops, alt_uplink, alt_dep)``,
    each ``[S, N, C(, K)]``. Runs on a worker; raises if the labels do not converge."""
    from controller.routing import uro_kernel  # numba: loaded on first use (test_import_no_jit)

    S, N, _ = spec.peer.shape
    arrival = np.empty((S, N, C), np.int32)
    hops = np.empty((S, N, C), np.uint8)
    au = np.empty((S, N, C, spec.k), np.int8)
    ad = np.empty((S, N, C, spec.k), dep_dtype(S))
    bad = uro_kernel.routes_chunk(spec.peer, spec.inj, spec.dkey, spec.ddep, spec.dupl, d0, C, d0, spec.max_hops,
                                  spec.per_slice, arrival, hops, au, ad)
    if bad >= 0:
        raise _failed(int(bad))
    return d0, arrival, hops, au, ad


def artifact_chunk(spec: ChunkSpec, d0: int, C: int, tdt: str) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Chunk ``d0 .. d0+C-1`` in the compact artifact's layout: ``(d0, latency, hops,
    alt_uplink, alt_wait)``, each ``[N, S, C(, K)]`` (what the client scatters into the files)."""
    from controller.routing import uro_kernel  # numba: loaded on first use (test_import_no_jit)

    S, N, d = spec.peer.shape
    lat = np.empty((N, S, C), tdt)
    hops = np.empty((N, S, C), np.uint8)
    au = np.empty((N, S, C, spec.k), np.int8 if d <= 127 else np.int16)
    aw = np.empty((N, S, C, spec.k), tdt)
    bad = uro_kernel.artifact_chunk(spec.peer, spec.inj, spec.dkey, spec.ddep, spec.dupl, d0, C, d0, spec.max_hops,
                                    spec.per_slice, lat, hops, au, aw)
    if bad >= 0:
        raise _failed(int(bad))
    return d0, lat, hops, au, aw


def run_chunks(fn: Callable, spec: ChunkSpec, n: int, chunk: int, extra: tuple = (), executor=None,
               workers: int | None = None, progress=None) -> Iterator[tuple]:
    """Yield ``fn(spec, d0, C, *extra)`` for every chunk of ``n`` destinations, in order.

    ``executor``: ``submit``-style (a Dask client, see :mod:`.distributed`); None runs
    the chunks on a thread pool of ``workers`` threads (default all cores). At most
    two chunks per worker are in flight, so the results held stay bounded."""
    starts = list(range(0, n, chunk))
    width = workers or os.cpu_count() or 1
    if executor is not None:
        width = max(1, getattr(executor, "n_workers", lambda: width)())
        spec_ref = executor.share(spec) if hasattr(executor, "share") else spec
        ctx = nullcontext(executor)
    else:
        spec_ref = spec
        ctx = ThreadPoolExecutor(max_workers=width)
    with ctx as pool:
        pending: deque = deque()
        todo = iter(starts)
        for d0 in todo:
            pending.append((d0, pool.submit(fn, spec_ref, d0, min(n, d0 + chunk) - d0, *extra)))
            if len(pending) >= 2 * width:
                break
        while pending:
            d0, fut = pending.popleft()
            res = fut.result()
            nxt = next(todo, None)
            if nxt is not None:
                pending.append((nxt, pool.submit(fn, spec_ref, nxt, min(n, nxt + chunk) - nxt, *extra)))
            yield res
            if progress is not None:
                progress(min(n, d0 + chunk) - d0)


def compute(sched: Schedule, params, progress=None, executor=None, workers: int | None = None,
            chunk: int = DEFAULT_CHUNK) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arrays of :class:`~controller.routing.uro.UroRoutes` (arrival, hops,
    alt_uplink, alt_dep) from the compiled kernels, identical to
    :func:`controller.routing.uro.compute_numpy`'s."""
    S, N, _ = sched.peer.shape
    spec = spec_for(sched, params)
    arrival = np.empty((S, N, N), np.int32)
    hops = np.empty((S, N, N), np.uint8)
    au = np.empty((S, N, N, params.k), np.int8)
    ad = np.empty((S, N, N, params.k), dep_dtype(S))
    for d0, a, h, u, dp in run_chunks(routes_chunk, spec, N, chunk, (), executor, workers, progress):
        C = a.shape[2]
        arrival[:, :, d0:d0 + C] = a
        hops[:, :, d0:d0 + C] = h
        au[:, :, d0:d0 + C] = u
        ad[:, :, d0:d0 + C] = dp
    return arrival, hops, au, ad
