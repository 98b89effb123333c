"""Session-wide test plumbing: the Tofino2 builds run in the background.

bf-p4c takes minutes per program on a 2-core machine (tiny ~3, r108x6 ~4, r1024x32 ~7
with an empty cache), one core each. A test that needs a t2na build carries the marker
``t2na_build(profile, ...)``; once the session's tests are collected, the builds they
need start in one background thread, one at a time and niced (the other suites keep the
other core and their timing), in the order the tests need them, while everything else
runs. The tests that need them are moved to the end of the session (in the order of
their builds) and take their build through the ``t2na_build`` fixture, which waits for
the background build of the same program and raises its error when it failed (no second
attempt). The build is the real one (:func:`controller.tofino2.compiler.compile_cached`,
cached in ``$URO_T2NA_CACHE``): a program that does not compile or fit fails its test as
before. ``URO_T2NA_PREBUILD=0`` builds in the foreground instead, when a test asks.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

#: bf-p4c's niceness in the background
NICENESS = 10
#: one background build: render the named profile's t2na ToR into a directory, compile it
#: through the cache (argv: profile, directory); a CompileError's line is the last output
_BUILD = """
import sys
from pathlib import Path
from controller.errors import UroError
from controller.p4gen import profile, render
from controller.tofino2 import compiler
name, out = sys.argv[1], Path(sys.argv[2]) / sys.argv[1]
try:
    p4 = next(f for f in render.render_to(profile.load(name), out, ["tor"], "tofino2") if f.suffix == ".p4")
    compiler.compile_cached(p4, compiler.cache_root())
except UroError as e:
    print(e)
    sys.exit(1)
"""


def compiler_error(text: str) -> Exception:
    from controller.tofino2.compiler import CompileError

    return CompileError(text)


class Prebuilds:
    """The session's background builds: ``{profile: Future}``, one thread, in order."""

    def __init__(self, profiles: list[str]):
        self.profiles = profiles
        self.futures: dict[str, Future] = {p: Future() for p in profiles}
        self.times: dict[str, tuple[float, float]] = {}     # profile: (start, end) since t0
        self.waited: dict[str, float] = {}                  # profile: seconds tests waited for it
        self.t0 = time.monotonic()
        self._proc: subprocess.Popen | None = None
        self._stopping = False
        self._dir = tempfile.mkdtemp(prefix="uro-t2na-prebuild.")
        self._thread = threading.Thread(target=self._run, name="t2na-prebuild", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        for name in self.profiles:
            fut = self.futures[name]
            t = time.monotonic() - self.t0
            if self._stopping:
                fut.set_exception(RuntimeError(f"the session ended before the {name} build started"))
                continue
            # a process of its own (its group is stopped by its id if the session ends first)
            p = subprocess.Popen(["nice", "-n", str(NICENESS), sys.executable, "-c", _BUILD, name, self._dir],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 start_new_session=True)
            self._proc = p
            out, _ = p.communicate()
            self._proc = None
            if p.returncode == 0:
                fut.set_result(None)
            else:
                lines = [ln for ln in out.splitlines() if ln.strip()]
                fut.set_exception(compiler_error(f"the {name} build (bf-p4c, in the background) failed: "
                                                 + (lines[-1] if lines else f"exit {p.returncode}")))
            self.times[name] = (t, time.monotonic() - self.t0)

    def stop(self) -> None:
        """The build still running when the session ends: its process group, by its id."""
        self._stopping = True
        p = self._proc
        if p is not None and p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        self._thread.join(15)
        shutil.rmtree(self._dir, ignore_errors=True)

    def wait(self, profile: str) -> None:
        fut = self.futures.get(profile)
        if fut is None:
            return
        t = time.monotonic()
        try:
            fut.result()
        finally:
            self.waited[profile] = self.waited.get(profile, 0.0) + time.monotonic() - t


_PREBUILDS: Prebuilds | None = None


def pytest_configure(config):
    config.addinivalue_line("markers", "t2na_build(*profiles): needs the bf-p4c build of these named profiles "
                                       "(built in the background, see conftest.py)")


def _profiles(item) -> list[str]:
    return [p for m in item.iter_markers("t2na_build") for p in m.args]


def _skipped(item) -> bool:
    return any(not m.args or m.args[0] is True for m in item.iter_markers("skip")) or any(
        m.args and m.args[0] is True for m in item.iter_markers("skipif"))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Tests that need a build after all others, ordered by their last build's place."""
    order: list[str] = []
    for item in items:
        for p in _profiles(item):
            if p not in order:
                order.append(p)
    order.sort(key=lambda p: (p != "tiny", 0))          # tiny first: most of them need only it
    rank = {p: i for i, p in enumerate(order)}
    items.sort(key=lambda it: -1 if not _profiles(it) else max(rank[p] for p in _profiles(it)))


def pytest_collection_finish(session):
    global _PREBUILDS
    if os.environ.get("URO_T2NA_PREBUILD", "1") == "0" or session.config.option.collectonly:
        return
    from controller.tofino2 import compiler

    if compiler.find() is None:
        return
    want: list[str] = []
    for item in session.items:
        if _skipped(item):
            continue
        for p in _profiles(item):
            if p not in want:
                want.append(p)
    if want:
        want.sort(key=lambda p: (p != "tiny", 0))
        _PREBUILDS = Prebuilds(want)


@pytest.fixture(scope="session")
def t2na_build():
    """``build(p4_file)``: the program's bf-p4c build in its output directory (waiting for
    the background build of its profile first, and raising that build's error)."""
    from controller.tofino2 import compiler

    def build(p4_file, profile: str | None = None) -> list[Path]:
        if _PREBUILDS is not None and profile is not None:
            _PREBUILDS.wait(profile)
        return compiler.compile_cached(p4_file, compiler.cache_root())

    return build


def pytest_unconfigure(config):
    if _PREBUILDS is not None:
        _PREBUILDS.stop()


def pytest_terminal_summary(terminalreporter):
    pb = _PREBUILDS
    if pb is None:
        return
    terminalreporter.section("t2na builds in the background (bf-p4c, niced, one at a time)")
    for name in pb.profiles:
        fut = pb.futures[name]
        if name not in pb.times:
            state = "not finished"
        else:
            s, e = pb.times[name]
            state = (f"{e - s:.0f} s, from +{s:.0f} s to +{e:.0f} s of the session"
                     + ("" if fut.exception() is None else f", FAILED: {str(fut.exception()).splitlines()[0]}"))
        terminalreporter.write_line(f"  {name}: {state}; tests waited {pb.waited.get(name, 0.0):.0f} s for it")
