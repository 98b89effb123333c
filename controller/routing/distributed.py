"""Chunked work on a Dask cluster (``dask.distributed``): the executor behind ``--cluster``
and ``--workers``.

uro's chunk drivers (URO and UCMP destination chunks, failure trials, comparison samples)
take any executor with ``submit(fn, *args) -> future`` (``future.result()``); in-process
that is a thread pool, here it is a Dask client. Results come back to the client in
chunk order and are written there (streamed, atomically) exactly as in-process, so an
artifact is the same file whichever runs the chunks.

- ``--cluster tcp://HOST:PORT``: an existing scheduler; its workers need only uro installed
  (``pip install 'uro[dask]'``); the schedule travels with the tasks.
- ``--workers N``: a local cluster of N worker processes (one thread each) on loopback.
- A lost worker's chunks are run again by the scheduler on another worker (a chunk is a
  pure function of its inputs, so running it twice is harmless); a chunk that raises is
  retried ``RETRIES`` times before its error reaches the user.
- A scheduler that cannot be reached, or that has no workers, is one clear error before
  any work starts.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from controller.errors import UroError

#: how long to wait for a scheduler to answer, and for the first worker to join
CONNECT_TIMEOUT_S = 10
#: re-runs of a chunk whose function raised (a lost worker's chunks are re-run regardless)
RETRIES = 2


def _import():
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UroError("--cluster/--workers need dask.distributed: pip install 'uro[dask]'") from None
    return distributed


class DaskExecutor:
    """A Dask client as a chunk executor (``submit``/``share``/``n_workers``)."""

    def __init__(self, client):
        self.client = client

    def submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False, retries=RETRIES)

    def share(self, obj):
        """Ship ``obj`` (a chunk spec: the schedule's arrays) to the cluster once; tasks
        then refer to it instead of carrying a copy each.

        It travels as the argument of one task whose result it is, not scattered: a
        scattered object exists only as its copies on workers, and the scheduler's active
        memory manager drops all but one of them once no task waits for it elsewhere; when
        the worker holding that one goes away, every chunk that refers to it is cancelled.
        A task's result lost with its worker is computed again from the task, which the
        scheduler keeps, and the chunks waiting for it wait a little longer."""
        import warnings

        with warnings.catch_warnings():      # "large graph": the object is sent once, on purpose
            warnings.filterwarnings("ignore", message=".*[Ll]arge graph.*")
            return self.client.submit(_shared, obj, pure=False)

    def n_workers(self) -> int:
        return len(self.client.scheduler_info().get("workers", {}))

    def map_ordered(self, fn, items, *args) -> Iterator:
        """``fn(item, *args)`` for every item, results yielded in order (at most two per
        worker in flight)."""
        from collections import deque

        width = 2 * max(1, self.n_workers())
        pending: deque = deque()
        it = iter(items)
        for item in it:
            pending.append(self.submit(fn, item, *args))
            if len(pending) >= width:
                break
        while pending:
            res = pending.popleft().result()
            nxt = next(it, None)
            if nxt is not None:
                pending.append(self.submit(fn, nxt, *args))
            yield res


def _shared(obj):
    """The task whose result is the shared object (:meth:`DaskExecutor.share`)."""
    return obj


@contextmanager
def connect(address: str):
    """An executor on the existing scheduler at ``address`` (tcp://HOST:PORT)."""
    distributed = _import()
    if not isinstance(address, str) or "://" not in address:
        raise UroError(f"--cluster {address!r}: give the scheduler's address as tcp://HOST:PORT")
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError) as e:
        raise UroError(f"--cluster {address}: cannot reach the Dask scheduler ({e.__class__.__name__}: "
                       f"{str(e).splitlines()[0] if str(e) else 'no answer'}); nothing was computed") from None
    try:
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError):
            raise UroError(f"--cluster {address}: the scheduler has no workers (none joined within "
                           f"{CONNECT_TIMEOUT_S} s); nothing was computed") from None
        yield DaskExecutor(client)
    finally:
        client.close()


@contextmanager
def local(n_workers: int):
    """An executor on a local cluster of ``n_workers`` processes (loopback only)."""
    distributed = _import()
    import dask

    # workers are this machine's processes: no dashboard, no spilling of chunk results to disk
    with dask.config.set({"distributed.worker.daemon": False, "logging.distributed": "error"}):
        cluster = distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                           host="127.0.0.1", dashboard_address=None, silence_logs=50)
        try:
            client = distributed.Client(cluster, set_as_default=False)
            try:
                yield DaskExecutor(client)
            finally:
                client.close()
        finally:
            cluster.close()
