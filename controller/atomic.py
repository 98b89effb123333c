"""Write files so that a failure never leaves a half-written artifact behind.

Every output is written to a temporary name next to its target and renamed over it
when complete. Temporaries get the mode an ordinary ``open()`` would give (0666 or,
for directories, 0777, less the process umask), not :func:`tempfile.mkstemp`'s 0600,
so artifacts are readable by the other users a umask allows.

A command with several outputs (``uro run``: the schedule and the routes) commits them
as one set with :class:`OutputSet`: everything is written to temporaries first and only
renamed into place once all of it is complete, so an interrupted or failing run leaves
the previous set untouched (the renames at the end take microseconds; route artifacts
also record the schedule's content hash, so a mismatched pair is detected on load).

This module is where every output of every command is created, so it is also the one
place where the operating system's refusals become user errors: a location the OS
refuses at creation time (``/proc``, ``/sys``, a read-only mount, a full disk) past the
checks the commands make first raises :class:`OutputError` -- one line naming the
user's path and the OS's reason -- instead of an ``OSError`` traceback.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

from controller.errors import UroError

_umask_lock = threading.Lock()
_umask: int | None = None


def umask() -> int:
    """The process umask (read once; ``os.umask`` can only be read by setting it)."""
    global _umask
    with _umask_lock:
        if _umask is None:
            current = os.umask(0o022)
            os.umask(current)
            _umask = current
        return _umask


class OutputError(UroError):
    """The OS refused to create or write an output (the message names the path and why)."""


def output_error(target: Path, e: OSError) -> OutputError:
    """``cannot write TARGET: REASON`` (the OS's reason, e.g. read-only file system)."""
    import errno

    reason = e.strerror or str(e) or type(e).__name__
    where = next((p for p in (target.parent, *target.parent.parents) if p.is_dir()), None)
    if e.errno == errno.ENOENT and where is not None and where != target.parent or \
            e.errno == errno.ENOENT and target.parent.is_dir():
        # /proc and its like say ENOENT for a file that cannot be created in them
        reason = f"{reason}: {where} does not take new files or directories"
    return OutputError(f"cannot write {target}: {reason}")


@contextmanager
def creating(target: str | os.PathLike[str], tmp: Path | None = None) -> Iterator[None]:
    """OS errors raised inside become :class:`OutputError` naming ``target``: every one
    that concerns no file (a write's ENOSPC, EIO), ``target`` itself, its temporary
    ``tmp`` or anything inside it, or a parent of ``target`` (a ``mkdir`` on the way).
    An error about another file (an input read in the body) keeps its own type."""
    target = Path(target)
    try:
        yield
    except OSError as e:
        if isinstance(e, OutputError) or not _concerns(e, target, tmp):
            raise
        raise output_error(target, e) from None


def _concerns(e: OSError, target: Path, tmp: Path | None) -> bool:
    if e.filename is None:
        return True
    f = os.path.abspath(os.fsdecode(e.filename))
    for mine in (target, tmp):
        if mine is None:
            continue
        m = os.path.abspath(mine)
        if f == m or f.startswith(m.rstrip(os.sep) + os.sep) or m.startswith(f.rstrip(os.sep) + os.sep):
            return True
    # a temporary next to the target (.NAME.xxxx.tmp / .old) that failed to be created
    return os.path.dirname(f) == os.path.dirname(os.path.abspath(target)) and \
        os.path.basename(f).startswith(f".{target.name}.")


def file_mode() -> int:
    return 0o666 & ~umask()


def dir_mode() -> int:
    return 0o777 & ~umask()


def temp_file(target: Path) -> Path:
    """A new empty file next to ``target`` with ordinary permissions."""
    with creating(target):
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.fchmod(fd, file_mode())
        os.close(fd)
    return Path(tmp)


def temp_dir(target: Path) -> Path:
    """A new empty directory next to ``target`` with ordinary permissions."""
    with creating(target):
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
        os.chmod(tmp, dir_mode())
    return tmp


def remove(path: Path) -> None:
    """Remove a file or a directory tree; missing is fine."""
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    except FileNotFoundError:
        pass


def replace(tmp: Path, target: Path) -> None:
    """Move ``tmp`` (file or directory) to ``target``, replacing what is there.

    A file is replaced atomically (``os.replace``). A directory cannot be renamed over
    a non-empty one, so the old one is first moved aside and removed after the new one
    is in place (if the second rename fails the old one is put back)."""
    with creating(target, tmp):
        _replace(tmp, target)


def _replace(tmp: Path, target: Path) -> None:
    if tmp.is_dir() and target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
        old.rmdir()
        os.replace(target, old)
        try:
            os.replace(tmp, target)
        except BaseException:
            os.replace(old, target)
            raise
        remove(old)
    else:
        os.replace(tmp, target)


@contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO]:
    """Open a temporary file next to ``path``; rename it over ``path`` on success.

    If the body raises, the temporary file is removed and ``path`` is untouched.
    """
    target = Path(path)
    tmp = temp_file(target)
    try:
        with creating(target, tmp):
            with open(tmp, mode) as fh:
                yield fh
            os.replace(tmp, target)
    except BaseException:
        remove(tmp)
        raise


@contextmanager
def atomic_dir(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A new temporary directory next to ``path`` to fill; it replaces ``path`` (a file
    or directory) when the body succeeds and is removed when it raises."""
    target = Path(path)
    tmp = temp_dir(target)
    try:
        with creating(target, tmp):
            yield tmp
        replace(tmp, target)
    except BaseException:
        remove(tmp)
        raise


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Atomically replace ``path`` with ``text``."""
    with atomic_open(path, "w") as fh:
        fh.write(text)


class OutputSet:
    """Several outputs committed together (see the module docstring).

    ::

        with OutputSet() as out:
            save(sched, out.file("out/schedule.json"))
            artifacts.write(routes, out.dir("out/routes.uro"))
        # both renamed into place here; on an exception neither is

    ``file(target)``/``dir(target)`` return a temporary path to write instead of
    ``target``; ``remove(target)`` deletes a stale output at commit time.
    """

    def __init__(self) -> None:
        self._pending: list[tuple[Path, Path]] = []
        self._stale: list[Path] = []

    def file(self, target: str | os.PathLike[str]) -> Path:
        tmp = temp_file(Path(target))
        self._pending.append((tmp, Path(target)))
        return tmp

    def dir(self, target: str | os.PathLike[str]) -> Path:
        tmp = temp_dir(Path(target))
        self._pending.append((tmp, Path(target)))
        return tmp

    def remove(self, target: str | os.PathLike[str]) -> None:
        self._stale.append(Path(target))

    def abort(self) -> None:
        for tmp, _ in self._pending:
            remove(tmp)
        self._pending.clear()

    def commit(self) -> None:
        for tmp, target in self._pending:
            replace(tmp, target)
        self._pending.clear()
        for p in self._stale:
            remove(p)

    def __enter__(self) -> "OutputSet":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.commit()
            return
        pending = list(self._pending)
        self.abort()
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            for tmp, target in pending:   # a write into one of our temporaries failed
                if _concerns(exc, target, tmp):
                    raise output_error(target, exc) from None
