"""Fixtures of the end-to-end suite: whole emulated fabrics, driven by the controller
daemon, with real hosts and traffic.

Needs root, simple_switch_grpc, p4c-bm2-ss, ping, iperf3, ethtool, tc and the emulate
extra (pyroute2, the daemon and its P4Runtime client); otherwise every test here is
skipped with the reason. Every fabric gets a per-session prefix (several sessions can
run at once) and the session's state root (:data:`RECORDS`); teardown runs ``down`` and
checks nothing is left, also when a test failed. A session that was killed before its
teardown ran (SIGKILL, a CI time-out) leaves its fabrics' namespaces, links and
switches: the next session takes them down by the records of the dead one.

Every fabric is brought up by ``fabric.up`` exactly as ``uro emulate up`` does: the
daemon (a process) programs the switches and sends the slice timer; the tests only
send traffic, read the switches' counters over Thrift (out of band) and ask the
daemon's status API. Figures the tests measure (loss, RTT, goodput, failure reaction)
are printed at the end of the run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: this session's fabric prefixes start with it (<= 6 characters in all)
SESSION = f"e{os.getpid() % 10000}"
FIGURES: list[str] = []
#: the fabrics this session brought up and has not taken down yet, by prefix (state root):
#: the session's end takes down any a fixture's teardown missed (a rerun of a failed test,
#: pytest-rerunfailures, suspends the module fixtures' teardown)
UP: dict[str, str] = {}


def _missing() -> str | None:
    for tool in ("simple_switch_grpc", "simple_switch_CLI", "p4c-bm2-ss", "ping", "iperf3", "ethtool", "ip", "tc"):
        if shutil.which(tool) is None:
            return f"{tool} not installed (emulate_tests need bmv2, p4c, iputils-ping, iperf3, ethtool, iproute2)"
    if os.geteuid() != 0:
        return "needs root (network namespaces and veth links)"
    try:
        import finsy.proto  # noqa: F401
        import prometheus_client  # noqa: F401
        import pyroute2  # noqa: F401
    except ImportError as e:
        return f"needs the emulate extra (pip install -e '.[emulate]'): {e}"
    return None


#: runs of a failed test here (pytest-rerunfailures): these tests keep real time on software
#: switches that share the machine's cores with everything else CI runs. At a load of 15-25
#: on 2 cores a starved bmv2 misses slices and exchanges, and one of ~28 tests failed in
#: most whole-suite runs, a different one each time; a failure that repeats on the next run
#: fails the suite (the summary lists every rerun with its first failure).
RERUNS = 1


def pytest_collection_modifyitems(config, items):
    reason = _missing()
    rerun = config.pluginmanager.hasplugin("rerunfailures")
    for item in items:
        if "emulate_tests" in str(item.fspath):
            item.add_marker(pytest.mark.emulate)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))
            elif rerun:
                item.add_marker(pytest.mark.flaky(reruns=RERUNS, reruns_delay=2))


def _down_what_is_up() -> None:
    from controller.emulate import fabric

    for prefix, root in list(UP.items()):
        fabric.down(prefix, root)
        UP.pop(prefix)
        FIGURES.append(f"fabric {prefix} was still up at the session's end: taken down")


def pytest_sessionfinish(session):
    """Take down every fabric still up; on a lane's worker (conftest.py at the top): the
    figures go to the controller."""
    _down_what_is_up()
    out = getattr(session.config, "workeroutput", None)
    if out is not None:
        out["emulate_figures"] = list(FIGURES)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    FIGURES.extend((getattr(node, "workeroutput", None) or {}).get("emulate_figures", []))


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("emulated fabric figures (measured, not asserted)")
        for line in FIGURES:
            terminalreporter.write_line(line)


def figure(line: str) -> None:
    FIGURES.append(line)


def example(name: str = "emu-8x2.toml"):
    from controller.emulate import config

    return config.load(ROOT / "examples" / name)


#: each session's state root, ``<pid>.emu-state`` (:func:`controller.process.owned_name`):
#: its fabrics' plans and PID records, kept outside pytest's temporary directories (which
#: pytest deletes after a few runs) so that a later session can take down the fabrics of
#: a session that was killed
RECORDS = Path("/tmp/uro-emulate-tests")


def reap_killed_sessions(records: Path = RECORDS) -> list[str]:
    """Take down every fabric of the state roots in ``records`` whose session is gone (by
    the prefixes and PIDs it recorded, :func:`controller.emulate.fabric.down`), then
    remove those roots; the roots of running sessions are left alone. Returns what was done."""
    from controller import process
    from controller.emulate import fabric

    done = []
    for root in sorted(records.iterdir()) if records.is_dir() else []:
        gone = process.gone_owner(root.name)
        if gone is None or not root.is_dir():
            continue
        kept = False
        for sdir in sorted(d for d in root.iterdir() if d.is_dir() and not d.name.startswith(".")):  # .build: the programs
            try:
                removed = fabric.down(sdir.name, root)
            except Exception as e:  # noqa: BLE001 -- a half-written record: say it, keep it, go on
                done.append(f"fabric {sdir.name} of process {gone[0]}: not taken down ({e}); its records kept in {root}")
                kept = True
                continue
            done.append(f"fabric {sdir.name} of process {gone[0]} (gone): removed {len(removed)} item(s)")
        if not kept:
            shutil.rmtree(root, ignore_errors=True)
    return done


@pytest.fixture(scope="session")
def state_root():
    from controller import process

    for line in reap_killed_sessions():
        print(f"emulate_tests: left by a killed session: {line}")
        FIGURES.append(f"left by a killed session: {line}")
    root = RECORDS / process.owned_name("emu-state")
    root.mkdir(parents=True, exist_ok=True)
    yield str(root)
    _down_what_is_up()
    if not [d for d in root.iterdir() if not d.name.startswith(".")]:   # every fabric down: the programs go too
        shutil.rmtree(root, ignore_errors=True)                         # else the next session reaps the root


class Env:
    """A running fabric: config, plan, the daemon's routes, the switches' programs, and
    the daemon's slice clock (to send a packet a known fraction into a known slice)."""

    def __init__(self, cfg, plan):
        from controller.emulate import daemon as dmn
        from controller.emulate import fabric

        self.cfg, self.plan = cfg, plan
        self.sdir = cfg.state_dir
        self.routes = dmn.routes(self.sdir / "net.toml")     # what the daemon computed and installed
        self.arts = fabric.load_artifacts(self.sdir)
        self.n_slices = self.routes.schedule.n_slices
        self.slice_s = cfg.slice_ms / 1000.0
        self.clock = dmn.Clock(plan, self.n_slices)

    def status(self) -> dict:
        from controller.emulate import daemon as dmn

        return dmn.status(self.plan)

    def counters(self, name: str) -> dict:
        """The switch's own counters (Thrift, out of band of the daemon's session)."""
        from controller.emulate import procs

        sw = self.plan.switch(name)
        return procs.read_counters(sw.thrift_port, self.arts[sw.role].contract, name)

    def all_counters(self) -> dict:
        return {sw.name: self.counters(sw.name) for sw in self.plan.switches}

    def wait_slice(self, slice_id: int, into: float = 0.2) -> float:
        """Until ``into`` x slice after the next start of slice ``slice_id`` on the daemon's clock."""
        return self.clock.wait_slice(slice_id, into)


@contextlib.contextmanager
def bring_up(cfg, tag: str, state_root: str) -> Iterator[Env]:
    """``fabric.up`` as `uro emulate up` runs it (the daemon programs and clocks the
    fabric); on leaving, ``down`` and the check that it left nothing."""
    from controller.emulate import fabric

    cfg = dataclasses.replace(cfg, prefix=f"{SESSION}{tag}"[:6], state_root=state_root)
    assert cfg.prefix not in UP, f"fabric {cfg.prefix} is up already: each fixture needs its own tag"
    UP[cfg.prefix] = state_root
    try:
        plan = fabric.up(cfg, log=lambda m: None)
        yield Env(cfg, plan)
    finally:
        fabric.down(cfg.prefix, state_root)
        UP.pop(cfg.prefix, None)
        left = fabric.leftovers(cfg.prefix, state_root)
        assert left == [], f"down left {left}"


@pytest.fixture(scope="module", params=["uro", "ssrr"])
def fab(request, state_root):
    """The 8x2 example, all destinations per-hop (URO) or all source-routed (UCMP SSRR)."""
    cfg = example()
    if request.param == "ssrr":
        cfg = dataclasses.replace(cfg, routing=dataclasses.replace(cfg.routing, source_routed=tuple(range(cfg.tors))))
    with bring_up(cfg, "u" if request.param == "uro" else "s", state_root) as env:
        env.mode = request.param
        yield env
