"""The Tofino compiler: ``bf-p4c --target tofino2 --arch t2na``.

Found, in this order: ``$URO_BF_P4C``, ``bf-p4c`` on PATH, ``$SDE_INSTALL/bin/bf-p4c``,
``$SDE/install/bin/bf-p4c`` (the open Tofino backend of p4c installs ``bf-p4c``; a p4c
built with it also takes ``--target tofino2 --arch t2na``, point ``URO_BF_P4C`` at it).

``compile(p4_file)`` writes the compiler's output directory next to the source,
``<dir>/<program>/``: ``bfrt.json``, ``pipe/tofino2.bin``, ``pipe/context.json`` and
``pipe/logs/`` (resource usage, read by :mod:`controller.tofino2.report`), plus
``build.json`` (compiler, version, command, seconds). It compiles into a temporary
directory and renames it over the old one, so a failed build leaves nothing half written.
A build whose assembly does arithmetic on PHV containers shared by fields at different bits
is refused (:mod:`controller.tofino2.bfa_check`: bf-p4c 9.13.4 emitted such code silently).

``compile_cached(p4_file, cache_root)`` reuses an earlier accepted build of the same
program text by the same compiler (and the same assembly check): bf-p4c takes 1-20
minutes per program on a loaded 2-core machine, and the test suites compile the same
programs run after run. One build of a program runs at a time per cache (a lock file per
cache key): a second caller of the same program waits for it and takes its result.

The output directory gets the modes the caller's umask gives (as ``mkdir`` would), not
the 0700 of the temporary directory it is built in.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from controller.errors import UroError
from controller.tofino2 import bfa_check

NAME = "bf-p4c"
BUILD_INFO = "build.json"


class CompileError(UroError):
    pass


def find() -> str | None:
    env = os.environ.get("URO_BF_P4C")
    if env:
        return env if Path(env).is_file() and os.access(env, os.X_OK) else None
    exe = shutil.which(NAME)
    if exe:
        return exe
    for var, rel in (("SDE_INSTALL", "bin"), ("SDE", "install/bin")):
        root = os.environ.get(var)
        if root:
            cand = Path(root) / rel / NAME
            if cand.is_file() and os.access(cand, os.X_OK):
                return str(cand)
    return None


def missing_message() -> str:
    return (f"{NAME} not found (PATH, $SDE_INSTALL/bin, $SDE/install/bin or $URO_BF_P4C): install p4c's Tofino "
            "backend, see README 'P4 toolchain'")


def version(exe: str) -> str:
    try:
        r = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
        return (r.stdout or r.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def output_dir(p4_file: Path) -> Path:
    return p4_file.with_suffix("")


def check_assembly(bfa: Path, p4_file: Path) -> None:
    """Refuse a build whose assembly computes on containers shared by fields at different
    bits (:mod:`controller.tofino2.bfa_check`): bf-p4c compiles it without a word and the
    switch then computes wrong values."""
    if not bfa.is_file():
        return
    text = bfa.read_text()
    found = [f for g in ("ingress", "egress") for f in bfa_check.shared_arithmetic(text, g)]
    if found:
        raise CompileError(f"{NAME} output of {p4_file} is unsafe: {found[0]}"
                           + (f" (+{len(found) - 1} more)" if len(found) > 1 else ""))


def umask_dir_mode() -> int:
    """The mode ``mkdir`` gives a new directory under the process's umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o777 & ~mask


def compile(p4_file: str | Path) -> list[Path]:
    """Compile one rendered t2na program; returns the artifacts it wrote."""
    p4_file = Path(p4_file)
    exe = find()
    if exe is None:
        raise CompileError(missing_message())
    out = output_dir(p4_file)
    failed_dir = failed_output_dir(p4_file)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=p4_file.parent))
    cmd = [exe, "--target", "tofino2", "--arch", "t2na", "--std", "p4-16", "--verbose", "1",
           "--program-name", p4_file.stem, "-o", str(tmp), str(p4_file)]
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.monotonic() - t0
        if r.returncode != 0 or not (tmp / "bfrt.json").is_file():
            lines = [ln for ln in (r.stderr + r.stdout).splitlines() if ln.strip()]
            errs = [ln for ln in lines if "error" in ln.lower() and "warning" not in ln.lower()]
            first = errs[0] if errs else (lines[-1] if lines else "no output")
            log = _keep_failed(tmp, failed_dir, r)
            raise CompileError(f"{NAME} failed on {p4_file} after {seconds:.0f} s: {first.strip()}"
                               + (f" (+{len(errs) - 1} more errors)" if len(errs) > 1 else "")
                               + f"; its whole output: {log}")
        check_assembly(tmp / "pipe" / f"{p4_file.stem}.bfa", p4_file)
        (tmp / BUILD_INFO).write_text(json.dumps({
            "compiler": exe, "version": version(exe), "command": cmd, "seconds": round(seconds, 1),
            "program": p4_file.stem}, indent=1) + "\n")
        tmp.chmod(umask_dir_mode())              # mkdtemp made it 0700
        if out.exists():
            shutil.rmtree(out)
        os.replace(tmp, out)
        shutil.rmtree(failed_dir, ignore_errors=True)      # an earlier failure's output is stale
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    files = _artifacts(out)
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise CompileError(f"{NAME} finished but did not write {missing[0]}")
    return files


def failed_output_dir(p4_file: Path) -> Path:
    """Where a failed build of ``p4_file`` leaves what the compiler wrote and said (its
    logs name the stage, table or field it gave up on), until the next build succeeds."""
    out = output_dir(p4_file)
    return out.with_name(out.name + ".failed")


def _keep_failed(tmp: Path, failed_dir: Path, r: subprocess.CompletedProcess) -> Path:
    """A failed build's directory moved to ``failed_dir``, with the compiler's standard
    output and error in ``compiler.log``; returns that log's path."""
    (tmp / "compiler.log").write_text(f"$ {' '.join(r.args)}\nexit status {r.returncode}\n\n"
                                      f"--- standard output\n{r.stdout}\n--- standard error\n{r.stderr}")
    tmp.chmod(umask_dir_mode())
    shutil.rmtree(failed_dir, ignore_errors=True)
    os.replace(tmp, failed_dir)
    return failed_dir / "compiler.log"


def _artifacts(out: Path) -> list[Path]:
    """The files a build of ``out`` must hold (what :func:`compile` returns)."""
    return [out / "bfrt.json", out / "pipe" / "context.json", out / "pipe" / "tofino2.bin", out / BUILD_INFO]


def cache_root() -> Path:
    """Where the test suites keep accepted builds: ``$URO_T2NA_CACHE`` or /tmp/uro-t2na-cache."""
    return Path(os.environ.get("URO_T2NA_CACHE", "/tmp/uro-t2na-cache"))


def cache_key(p4_file: Path, exe: str) -> str:
    """Program text + compiler (path and version) + the assembly check that accepted it."""
    h = hashlib.sha256(Path(p4_file).read_bytes())
    h.update(f"\0{exe}\0{version(exe)}\0".encode())
    h.update(Path(bfa_check.__file__).read_bytes())
    return h.hexdigest()[:16]


def compile_cached(p4_file: str | Path, cache_root: str | Path) -> list[Path]:
    """:func:`compile`, or a copy of the build ``cache_root/<key>`` made earlier of the same
    program by the same compiler (:func:`cache_key`); a new build is stored there (renamed
    into place whole, so a concurrent or killed run never leaves a partial entry). While
    one caller builds a program, another caller of the same program (a thread or another
    process) waits for it (``cache_root/.<key>.lock``) and copies its build."""
    p4_file = Path(p4_file)
    exe = find()
    if exe is None:
        raise CompileError(missing_message())
    key = cache_key(p4_file, exe)
    cache = Path(cache_root) / key
    if _cached(cache):
        return _copy_out(cache, p4_file)
    cache.parent.mkdir(parents=True, exist_ok=True)
    with _locked(cache.parent / f".{key}.lock"):
        if _cached(cache):                   # built by the holder we waited for
            return _copy_out(cache, p4_file)
        files = compile(p4_file)
        tmp = cache.with_name(f".{cache.name}.{os.getpid()}")
        shutil.copytree(output_dir(p4_file), tmp, dirs_exist_ok=True)
        try:
            os.rename(tmp, cache)
        except OSError:                      # stored by a run that does not take the lock
            shutil.rmtree(tmp, ignore_errors=True)
    return files


def _cached(cache: Path) -> bool:
    return (cache / "pipe" / "tofino2.bin").is_file() and (cache / BUILD_INFO).is_file()


def _copy_out(cache: Path, p4_file: Path) -> list[Path]:
    out = output_dir(p4_file)
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(cache, out)
    out.chmod(umask_dir_mode())              # entries stored by older trees are 0700
    return _artifacts(out)


@contextlib.contextmanager
def _locked(path: Path):
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
