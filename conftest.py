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

Every test's CPU time is measured too (:class:`CpuMeter`): the seconds of CPU this
session's processes used from the test's setup to its teardown -- pytest itself and every
process it started (switches, daemons, the tofino model, pings), not the background
builds -- which the load of other jobs on a shared machine disturbs far less than wall
time. It goes into the junit XML as the test's ``cpu_s`` property (``.ci/suite_times.py``
sums it per suite) and, with ``--durations``, the tests that used the most are listed.

The whole suite (``python -m pytest`` without paths: the ``testpaths``) runs in two lanes
side by side, one pytest-xdist worker each (:data:`LANES`): the suites that mostly wait
(bmv2, the tofino model, the t2na builds) beside the ones that mostly compute (the emulated
fabrics, the fast tests), so both cores work. Every resource the suites share is in one
lane (a fabric at a time, the tofino lock, the builds); ports, veths and temporary
directories are per process already. A run with paths (one suite, one file) stays in one
process, as does one with ``-n``/``-p no:xdist``/``--pdb`` or ``URO_LANES=0``.
"""

from __future__ import annotations

import os
import resource
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

try:
    from hypothesis import HealthCheck, settings as _hypothesis_settings
except ImportError:  # hypothesis is a test extra: without it no property test runs anyway
    pass
else:
    # a property test checks behaviour, not speed: no per-example deadline and no "too slow"
    # health check (both are wall-clock limits that a shared, loaded machine trips), as
    # the project asserts no timing in tests; a test that sets its own keeps it
    _hypothesis_settings.register_profile("uro", deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
    _hypothesis_settings.load_profile("uro")

#: bf-p4c's niceness in the background
NICENESS = 10
#: a lane's worker lowers its own priority by this much once it has run its last test of the
#: first suite of :data:`APART`: the rest of that lane (the fast tests) then runs beside the
#: tofino suite, whose model and bf_switchd take the CPU they need first -- the tofino suite
#: is the critical path's second half, and the fast tests have time to spare (_after_apart)
AFTER_APART_NICENESS = 10
#: the whole suite's two lanes (one pytest-xdist worker each): the tests under each path, in
#: this order (the longest path that matches a test's id decides). The emulated fabrics
#: run beside the bmv2 suite (which mostly waits), then the fast tests beside the tofino
#: model. Each lane starts the t2na builds its tests need in the background (the build
#: cache's lock builds each program once): the tofino suite needs tiny, the fit tests of the
#: large profiles (last in the fabrics lane) wait for r1024x32 with no idle model beside
#: them (the switches lane's model stops when that lane ends). The UCMP system test's long
#: TCP flow runs first, beside the bmv2 suite's start: it needs its fabric's switches to keep
#: pace, which tofino-model and bf_switchd beside it (the switches lane's second half) starve.
#: The real p4c compiles of the matrix profiles (~200 s of one core, the (1024, 32) one ~100)
#: run in the switches lane between its suites, while the emulation still runs (:data:`APART`)
LANES = {"fabrics": ("emulate_tests/test_ucmp_system.py", "emulate_tests/", "tests/"),
         "switches": ("bmv2_tests/", "tests/test_p4gen.py::test_matrix_compiles_with_real_p4c", "tofino_tests/")}
#: in a run in lanes, the tests under the second path start only once the other lane has run
#: its last test under the first: tofino-model and bf_switchd keep a core busy, and beside
#: them the emulated fabrics' bmv2 switches, which keep real time, miss their slices (a
#: fabric test failed twice when the tofino suite started before the emulation had ended)
APART = ("emulate_tests/", "tofino_tests/")
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


#: clock ticks per second of /proc/<pid>/stat's times
_TICK = os.sysconf("SC_CLK_TCK")


def _proc_cpu(pid: int) -> tuple[float, list[int], int] | None:
    """(CPU seconds of ``pid`` and of the children it reaped, its children, its start
    time in ticks), or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            f_ = f.read().rpartition(b")")[2].split()
        kids: list[int] = []
        for t in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{t}/children") as f:
                kids.extend(int(x) for x in f.read().split())
    except (OSError, ValueError):
        return None
    # fields after the name: state ppid ... utime(12) stime(13) cutime(14) cstime(15) ... starttime(20)
    return sum(int(x) for x in f_[11:15]) / _TICK, kids, int(f_[19])


class CpuMeter:
    """CPU seconds used so far by this session's processes.

    From a cgroup when ``$URO_CPU_CGROUP`` names the one the session runs in (cgroup v2
    ``cpu.stat`` or v1 ``cpuacct.usage``: exact, whatever the processes do; ``.ci/run``
    makes one when it can). Otherwise from the process tree: pytest's own time, the
    children it reaped (``RUSAGE_CHILDREN``, which includes what they reaped), and every
    live descendant's time and reaped children's (``/proc/<pid>/stat``, found through
    ``/proc/<pid>/task/*/children``). A descendant whose parent exits without it (a
    switch a CLI started detached) is followed on by its pid and start time; what it
    uses after the meter's last look before it exits is missed (``uro emulate up`` through
    the CLI, mostly)."""

    def __init__(self):
        self._cg = None
        cg = os.environ.get("URO_CPU_CGROUP")
        if cg:
            for name in ("cpu.stat", "cpuacct.usage"):
                if os.path.isfile(os.path.join(cg, name)):
                    self._cg = os.path.join(cg, name)
                    break
        self._orphans: dict[int, int] = {}          # pid -> start time: left by their parent
        self._last: dict[int, tuple[int, int | None]] = {}   # pid -> (start time, parent seen)
        self.source = "cgroup " + cg if self._cg else "process tree"

    def now(self) -> float:
        if self._cg:
            with open(self._cg) as f:
                text = f.read()
            if self._cg.endswith("cpu.stat"):
                return int(text.split("usage_usec", 1)[1].split()[0]) / 1e6
            return int(text) / 1e9
        me = os.getpid()
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        total = own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
        seen: dict[int, tuple[int, int | None]] = {}
        stack = [(k, me) for k in (_proc_cpu(me) or (0, [], 0))[1]]
        stack += [(p, None) for p in self._orphans]
        while stack:
            pid, parent = stack.pop()
            if pid in seen:
                continue
            got = _proc_cpu(pid)
            if got is None or (parent is None and got[2] != self._orphans.get(pid)):
                continue
            cpu, children, start = got
            seen[pid] = (start, parent)
            total += cpu
            stack += [(k, pid) for k in children]
        # a descendant seen last time, alive now but out of the tree: its parent left it
        for pid, (start, _) in self._last.items():
            if pid not in seen and pid not in self._orphans:
                got = _proc_cpu(pid)
                if got is not None and got[2] == start:
                    self._orphans[pid] = start
                    total += got[0]
                    seen[pid] = (start, None)
        self._orphans = {p: s for p, s in self._orphans.items() if p in seen}
        self._last = seen
        return total


def _tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its live descendants (and what they reaped)."""
    total, stack, seen = 0.0, [pid], set()
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        got = _proc_cpu(p)
        if got is not None:
            total += got[0]
            stack += got[1]
    return total


_METER: CpuMeter | None = None


def compiler_error(text: str) -> Exception:
    from controller.tofino2.compiler import CompileError

    return CompileError(text)


#: the builds' directory in the temporary directory: ``<this><pid>.<random>``
PREBUILD_DIR = "uro-t2na-prebuild."


#: a run in lanes: the lanes' hand-over directory (:data:`APART`), ``<this><pid>.<random>``
LANES_DIR = "uro-lanes."


def _reap_session_dirs(prefix: str) -> None:
    """Remove the directories ``<prefix><pid>.<random>`` of sessions that are gone (killed
    before they removed their own), by the PID in the name; a running session's is left
    alone."""
    from controller import process

    for d in Path(tempfile.gettempdir()).glob(f"{prefix}*.*"):
        pid = d.name[len(prefix):].split(".", 1)[0]
        if pid.isdigit() and not process.alive(int(pid)):
            shutil.rmtree(d, ignore_errors=True)


class Prebuilds:
    """The session's background builds: ``{profile: Future}``, one thread, in order."""

    def __init__(self, profiles: list[str]):
        self.profiles = profiles
        self.futures: dict[str, Future] = {p: Future() for p in profiles}
        self.times: dict[str, tuple[float, float]] = {}     # profile: (start, end) since t0
        self.waited: dict[str, float] = {}                  # profile: seconds tests waited for it
        self.t0 = time.monotonic()
        self._proc: subprocess.Popen | None = None
        self.lock = threading.Lock()
        self.cpu_done = 0.0                                 # CPU seconds of the finished builds
        self.cpu: dict[str, float] = {}                     # profile: its build's CPU seconds
        self._stopping = False
        _reap_session_dirs(PREBUILD_DIR)
        self._dir = tempfile.mkdtemp(prefix=f"{PREBUILD_DIR}{os.getpid()}.")
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
            out = p.stdout.read()
            # exited, not yet reaped: its CPU (and bf-p4c's, which it reaped) read from its
            # /proc entry and moved to ``cpu_done`` as it is reaped, under the lock
            # the meter reads under (a test's CPU never counts a build's)
            try:
                os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
            except ChildProcessError:               # reaped by stop()
                pass
            with self.lock:
                self.cpu[name] = _tree_cpu(p.pid)
                self.cpu_done += self.cpu[name]
                p.wait()
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

    def cpu_s(self) -> float:
        """CPU seconds the builds used so far (call it holding ``lock``)."""
        p = self._proc
        return self.cpu_done + (_tree_cpu(p.pid) if p is not None else 0.0)

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
#: on a lane's worker: the build profiles its tests need, started with its first test
_LANE_BUILDS: dict[str, list[str]] | None = None
#: on a lane's worker: (lane, its first test's start, CPU then)
_LANE_START: tuple[str, float, float] | None = None
#: on the controller: whether this run is in lanes
_LANES_ON = pytest.StashKey[bool]()
#: on the controller: what the workers report at their end (``config.workeroutput``)
_WORKER_OUT: list[dict] = []
#: on the controller of a run in lanes: the lanes' hand-over directory
_LANES_DIR = pytest.StashKey[str]()
#: the file of the hand-over directory that says the first suite of :data:`APART` has ended
_APART_DONE = "apart.done"
#: on a lane's worker: the hand-over directory, whether the run holds the first suite of
#: :data:`APART` (its end still to come), and the seconds the second waited for it
_APART: dict = {"dir": None, "pending": False, "waited": None}


def _is_worker(config) -> bool:
    return hasattr(config, "workerinput")


def _in_lane(config) -> bool:
    """Whether this process is a lane's worker (the controller said so)."""
    return _is_worker(config) and bool(config.workerinput.get("uro_lanes"))


def _lanes_wanted(config) -> bool:
    """Whether this run is the whole suite, to run in lanes: no paths given (pytest took
    the ``testpaths``), xdist present and not asked for otherwise."""
    if _is_worker(config) or os.environ.get("URO_LANES", "1") == "0":
        return False
    if not config.pluginmanager.hasplugin("xdist") or config.getoption("numprocesses", None) is not None:
        return False
    if config.getoption("dist", "no") != "no" or config.getoption("usepdb", False) or config.getoption("collectonly"):
        return False
    return config.args_source == pytest.Config.ArgsSource.TESTPATHS


def _worker_cgroup(config) -> None:
    """A lane's worker measures its own CPU: a child cgroup of the run's (``.ci/run``'s),
    named by the worker, that it and everything it starts then run in; the run's own
    cgroup still counts both lanes. Without one, the process-tree meter (per process)."""
    cg = os.environ.get("URO_CPU_CGROUP")
    if not cg:
        return
    sub = os.path.join(cg, config.workerinput["workerid"])
    try:
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
        os.environ["URO_CPU_CGROUP"] = sub
    except OSError:
        os.environ["URO_CPU_CGROUP"] = ""


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    global _METER
    config.addinivalue_line("markers", "t2na_build(*profiles): needs the bf-p4c build of these named profiles "
                                       "(built in the background, see conftest.py)")
    if _lanes_wanted(config):
        # before xdist's own pytest_configure, which starts the workers from these
        config.option.numprocesses = len(LANES)
        config.option.tx = ["popen"] * len(LANES)
        config.option.dist = "loadscope"         # by lane: pytest_xdist_make_scheduler
        config.stash[_LANES_ON] = True
        _reap_session_dirs(LANES_DIR)
        config.stash[_LANES_DIR] = tempfile.mkdtemp(prefix=f"{LANES_DIR}{os.getpid()}.")
    if _in_lane(config):
        _worker_cgroup(config)
        _APART["dir"] = config.workerinput.get("uro_lanes_dir")
    _METER = CpuMeter()


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """On the controller of a run in lanes: tell the worker (it parses the same command
    line, which does not say so)."""
    if node.config.stash.get(_LANES_ON, False):
        node.workerinput["uro_lanes"] = True
        node.workerinput["uro_lanes_dir"] = node.config.stash[_LANES_DIR]


def _apart_done(lanes_dir: str | None) -> None:
    """Say in the run's hand-over directory that the first suite of :data:`APART` has ended
    (a lane ran its last test of it, or ended); nothing once the run removed the directory."""
    if lanes_dir and os.path.isdir(lanes_dir):
        Path(lanes_dir, _APART_DONE).touch()


def _apart_wait(item) -> None:
    """Before the first test of the second suite of :data:`APART`: wait until the other lane
    has run its last test of the first (or ended), when this run holds any."""
    if not (_APART["pending"] and _APART["dir"] and item.nodeid.startswith(APART[1])):
        return
    _APART["pending"] = False
    t0 = time.monotonic()
    done = Path(_APART["dir"], _APART_DONE)
    while not done.exists() and done.parent.is_dir():
        time.sleep(1.0)
    _APART["waited"] = time.monotonic() - t0


def _cpu_now() -> float:
    """The session's CPU seconds so far, less the background builds'."""
    pb = _PREBUILDS
    if pb is None:
        return _METER.now()
    with pb.lock:
        return _METER.now() - pb.cpu_s()


#: nodeid -> CPU seconds of the test (setup, call and teardown)
_CPU: dict[str, float] = {}


def _lane_path(nodeid: str) -> tuple[str, int]:
    """(lane, place of the matching path in the lanes' order) of a test id."""
    paths = [(p, lane) for lane, ps in LANES.items() for p in ps]
    best = max((i for i, (p, _) in enumerate(paths) if nodeid.startswith(p)),
               key=lambda i: len(paths[i][0]), default=None)
    return (paths[best][1], best) if best is not None else (list(LANES)[0], len(paths))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _LANE_START
    if _LANE_BUILDS is not None and _LANE_START is None:
        # the first test of this worker's lane: its builds start now, in this process
        lane = _lane_path(item.nodeid)[0]
        _start_builds(_LANE_BUILDS.get(lane, []))
        _LANE_START = (lane, time.monotonic(), _cpu_now())
    _apart_wait(item)
    if _METER is not None:
        item._uro_cpu0 = _cpu_now()
    yield
    if item.nodeid.startswith(APART[0]) and (nextitem is None or not nextitem.nodeid.startswith(APART[0])):
        _apart_done(_APART["dir"])
        _after_apart(item.config)


def _after_apart(config) -> None:
    """On a lane's worker that has run its last test of the first suite of :data:`APART`:
    lower its priority (and its children's, inherited) for the rest of its lane, which runs
    beside the second suite. A run in one process keeps its priority."""
    if _in_lane(config):
        os.nice(AFTER_APART_NICENESS)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """At the end of teardown: the test's CPU seconds as its ``cpu_s`` property (before
    the report is made, which copies the item's properties)."""
    if call.when == "teardown" and hasattr(item, "_uro_cpu0"):
        cpu = _cpu_now() - item._uro_cpu0
        item.user_properties.append(("cpu_s", f"{cpu:.2f}"))
    yield


def pytest_runtest_logreport(report):
    """The test's CPU from its teardown report (here, or sent by a lane's worker)."""
    if report.when == "teardown":
        for name, value in report.user_properties:
            if name == "cpu_s":
                _CPU[report.nodeid] = float(value)


def _profiles(item) -> list[str]:
    return [p for m in item.iter_markers("t2na_build") for p in m.args]


def _skipped(item) -> bool:
    return any(not m.args or m.args[0] is True for m in item.iter_markers("skip")) or any(
        m.args and m.args[0] is True for m in item.iter_markers("skipif"))


def _suite_rank(config, item) -> int:
    """In lanes: the place of the test's path in its lane (:data:`LANES`); else 0."""
    return _lane_path(item.nodeid)[1] if _in_lane(config) else 0


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """In lanes: each lane's tests to one worker, in their order (:data:`LANES`)."""
    if not config.stash.get(_LANES_ON, False):
        return None
    from xdist.scheduler import LoadScopeScheduling

    class LaneScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _lane_path(nodeid)[0]

    return LaneScheduling(config, log)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Tests that need a build after all others, ordered by their last build's place (in
    lanes, the others by their suite's place in the lane)."""
    order: list[str] = []
    for item in items:
        for p in _profiles(item):
            if p not in order:
                order.append(p)
    order.sort(key=lambda p: (p != "tiny", 0))          # tiny first: most of them need only it
    rank = {p: i for i, p in enumerate(order)}
    items.sort(key=lambda it: (-1 if not _profiles(it) else max(rank[p] for p in _profiles(it)),
                               _suite_rank(config, it)))


def _wanted(items) -> list[str]:
    """The profiles these tests need built, tiny first."""
    want: list[str] = []
    for item in items:
        if _skipped(item):
            continue
        for p in _profiles(item):
            if p not in want:
                want.append(p)
    want.sort(key=lambda p: (p != "tiny", 0))
    return want


def _start_builds(want: list[str]) -> None:
    global _PREBUILDS
    if want:
        _PREBUILDS = Prebuilds(want)


def pytest_collection_finish(session):
    global _LANE_BUILDS
    if _in_lane(session.config):
        _APART["pending"] = any(it.nodeid.startswith(APART[0]) for it in session.items)
    if os.environ.get("URO_T2NA_PREBUILD", "1") == "0" or session.config.option.collectonly:
        return
    from controller.tofino2 import compiler

    if compiler.find() is None:
        return
    if _in_lane(session.config):
        # which lane this worker runs is known at its first test: the builds start then
        _LANE_BUILDS = {lane: _wanted([it for it in session.items if _lane_path(it.nodeid)[0] == lane])
                        for lane in LANES}
        return
    _start_builds(_wanted(session.items))


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
    d = config.stash.get(_LANES_DIR, None)
    if d:
        shutil.rmtree(d, ignore_errors=True)


def _build_lines(pb: Prebuilds) -> list[str]:
    lines = []
    for name in pb.profiles:
        fut = pb.futures[name]
        if name not in pb.times:
            state = "not finished"
        else:
            s, e = pb.times[name]
            state = (f"{e - s:.0f} s ({pb.cpu.get(name, 0.0):.0f} s CPU), from +{s:.0f} s to +{e:.0f} s of the session"
                     + ("" if fut.exception() is None else f", FAILED: {str(fut.exception()).splitlines()[0]}"))
        lines.append(f"  {name}: {state}; tests waited {pb.waited.get(name, 0.0):.0f} s for it")
    return lines


def pytest_sessionfinish(session):
    """On a lane's worker: its lane's time and CPU, and its builds' summary, for the
    controller to print."""
    out = getattr(session.config, "workeroutput", None)
    if out is None:
        return
    if _LANE_START is not None:
        lane, t0, cpu0 = _LANE_START
        out["uro_lane"] = (lane, time.monotonic() - t0, _cpu_now() - cpu0)
    if _APART["waited"] is not None:
        out["uro_apart_waited"] = _APART["waited"]
    if _PREBUILDS is not None:
        out["uro_builds"] = _build_lines(_PREBUILDS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """On the controller: what a lane's worker reported at its end. A lane that ended has
    ended its part of :data:`APART` too (also when its worker crashed)."""
    _WORKER_OUT.append(dict(getattr(node, "workeroutput", {}) or {}))
    _apart_done(node.config.stash.get(_LANES_DIR, None))


def pytest_terminal_summary(terminalreporter, config):
    reruns = terminalreporter.stats.get("rerun", [])
    if reruns:
        # what made each test run again (pytest-rerunfailures: the emulated fabrics' RERUNS,
        # the tests marked flaky): -rR names them, this says why
        terminalreporter.section("tests run again after a failure: their first failure")
        for r in reruns:
            lines = str(r.longrepr).strip().splitlines()
            said = [x[1:].strip() for x in lines if x.startswith("E ")][:2] or lines[-1:]
            terminalreporter.write_line(f"{r.nodeid}: {' / '.join(said)}"[:400])
    n = config.option.durations
    if _CPU and n is not None:
        top = sorted(_CPU.items(), key=lambda kv: -kv[1])[:n or None]
        terminalreporter.section(f"most CPU {len(top)} (setup + call + teardown, this session's processes "
                                 f"without the background builds; {_METER.source})")
        for nodeid, cpu in top:
            terminalreporter.write_line(f"{cpu:8.2f}s cpu  {nodeid}")
        terminalreporter.write_line(f"{sum(_CPU.values()):8.0f}s cpu  all {len(_CPU)} tests")
    lanes = sorted(o["uro_lane"] for o in _WORKER_OUT if "uro_lane" in o)
    if lanes:
        terminalreporter.section("lanes (one pytest-xdist worker each, side by side)")
        for lane, wall, cpu in lanes:
            terminalreporter.write_line(f"  {lane} ({' + '.join(LANES.get(lane, ()))}): {wall:.0f} s, "
                                        f"{cpu:.0f} s CPU without the background builds")
    for o in _WORKER_OUT:
        if "uro_apart_waited" in o:
            terminalreporter.write_line(f"{APART[1]} waited {o['uro_apart_waited']:.0f} s for the other lane's "
                                        f"{APART[0]} to end (never side by side)")
    builds = [ln for o in _WORKER_OUT for ln in o.get("uro_builds", [])]
    if _PREBUILDS is not None:
        builds = _build_lines(_PREBUILDS)
    if builds:
        terminalreporter.section("t2na builds in the background (bf-p4c, niced, one at a time)")
        for line in builds:
            terminalreporter.write_line(line)
