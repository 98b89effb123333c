"""``--cluster`` / ``--workers``: where the chunked work of a command runs.

Default: in this process (threads over all cores). ``--cluster tcp://HOST:PORT``: an
existing Dask scheduler; ``--workers N``: a local Dask cluster of N worker processes
(:mod:`controller.routing.distributed`). Commands take an executor from
:func:`executor_from` and hand it to the chunk drivers."""

from __future__ import annotations

import argparse
from contextlib import nullcontext

from controller.cli.common import positive_int
from controller.errors import UroError

# library modules are imported inside the commands that use them: `uro` loads only what the command it runs needs


def add_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("where the work runs (default: this process, all cores)")
    g.add_argument("--cluster", metavar="tcp://HOST:PORT", default=None,
                   help="run the chunks on an existing Dask scheduler (workers need only uro installed)")
    g.add_argument("--workers", dest="cluster_workers", type=positive_int, default=None, metavar="N",
                   help="run the chunks on a local Dask cluster of N worker processes")


def requested(args) -> bool:
    """The command's work is to run on a Dask cluster (``--cluster`` or ``--workers``)."""
    return bool(getattr(args, "cluster", None) or getattr(args, "cluster_workers", None))


def executor_from(args):
    """A context manager giving the executor the command's flags ask for (None: in-process)."""
    url = getattr(args, "cluster", None)
    n = getattr(args, "cluster_workers", None)
    if url and n:
        raise UroError("give either --cluster tcp://HOST:PORT or --workers N, not both")
    if not url and not n:
        return nullcontext(None)
    from controller.routing import distributed

    return distributed.connect(url) if url else distributed.local(n)
