"""``--cluster`` / ``--workers``: where the chunked work of a command runs.

Default: in this process (threads over all cores). ``--cluster tcp://HOST:PORT``: an
existing Dask scheduler; ``--workers N``: a local Dask cluster of N worker processes
(:mod:`controller.routing.distributed`). Commands take an executor from
:class:`Where` (read once from the arguments) and hand it to the chunk drivers."""

from __future__ import annotations

import argparse
from contextlib import nullcontext
from dataclasses import dataclass

from controller.cli.common import positive_int
from controller.errors import UroError

# library modules are imported inside the commands that use them: `uro` loads only what the command it runs needs


def add_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("where the work runs (default: this process, all cores)")
    g.add_argument("--cluster", metavar="tcp://HOST:PORT", default=None,
                   help="run the chunks on an existing Dask scheduler (workers need only uro installed)")
    g.add_argument("--workers", dest="cluster_workers", type=positive_int, default=None, metavar="N",
                   help="run the chunks on a local Dask cluster of N worker processes")


@dataclass(frozen=True)
class Where:
    """Where a command's chunked work runs, as ``--cluster``/``--workers`` say, read once
    (:meth:`from_args`): an existing Dask scheduler, a local Dask cluster of N worker
    processes, or (neither) this process."""
    url: str | None = None
    workers: int | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Where:
        where = cls(getattr(args, "cluster", None), getattr(args, "cluster_workers", None))
        if where.url and where.workers:
            raise UroError("give either --cluster tcp://HOST:PORT or --workers N, not both")
        return where

    @property
    def cluster(self) -> bool:
        """The work is to run on a Dask cluster."""
        return bool(self.url or self.workers)

    def executor(self):
        """A context manager giving the executor (None: in-process)."""
        if not self.cluster:
            return nullcontext(None)
        from controller.routing import distributed

        return distributed.connect(self.url) if self.url else distributed.local(self.workers)
