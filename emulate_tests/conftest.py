"""Fixtures of the end-to-end suite: whole emulated fabrics with real hosts and traffic.

Needs root, simple_switch_grpc, p4c-bm2-ss, ping, iperf3, ethtool and the emulate
extra (pyroute2); otherwise every test here is skipped with the reason. Every fabric
gets a per-session prefix (several sessions can run at once) and a temporary state
root; teardown runs ``down`` and checks nothing is left, also when a test failed.

The switches are programmed and clocked by the test driver (``driver.py``) until the
controller daemon (issue 11) is on this branch; figures the tests measure (loss, RTT,
goodput) are printed at the end of the run.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: this session's fabric prefixes start with it (<= 6 characters in all)
SESSION = f"e{os.getpid() % 10000}"
FIGURES: list[str] = []


def _missing() -> str | None:
    for tool in ("simple_switch_grpc", "simple_switch_CLI", "p4c-bm2-ss", "ping", "iperf3", "ethtool", "ip"):
        if shutil.which(tool) is None:
            return f"{tool} not installed (emulate_tests need bmv2, p4c, iputils-ping, iperf3, ethtool)"
    if os.geteuid() != 0:
        return "needs root (network namespaces and veth links)"
    try:
        import finsy.proto  # noqa: F401
        import pyroute2  # noqa: F401
    except ImportError as e:
        return f"needs the agent and emulate extras (pip install -e '.[agent,emulate]'): {e}"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _missing()
    for item in items:
        if "emulate_tests" in str(item.fspath):
            item.add_marker(pytest.mark.emulate)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


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


@pytest.fixture(scope="session")
def state_root(tmp_path_factory):
    return str(tmp_path_factory.mktemp("emu-state"))


class Env:
    """A running fabric: config, plan, network (schedule, routes), driver (clock)."""

    def __init__(self, cfg, plan, net, arts, driver):
        self.cfg, self.plan, self.net, self.arts, self.driver = cfg, plan, net, arts, driver


def bring_up(cfg, tag: str, state_root: str) -> Env:
    """``fabric.up`` (without the daemon) + the test driver programming and clocking it."""
    from emulate_tests.driver import TestDriver

    from controller.emulate import fabric
    from controller.emulate.network import Network

    cfg = dataclasses.replace(cfg, prefix=f"{SESSION}{tag}"[:6], state_root=state_root)
    plan = fabric.up(cfg, start_daemon=False, log=lambda m: None)
    net = Network(cfg)
    arts = fabric.build_programs(net, Path(state_root) / ".build")
    drv = TestDriver(plan, net, arts)
    try:
        drv.program()
        drv.start_clock()
    except BaseException:
        drv.stop()
        fabric.down(cfg.prefix, state_root)
        raise
    return Env(cfg, plan, net, arts, drv)


def tear_down(env: Env) -> None:
    from controller.emulate import fabric

    env.driver.stop()
    fabric.down(env.cfg.prefix, env.cfg.state_root)
    left = fabric.leftovers(env.cfg.prefix, env.cfg.state_root)
    assert left == [], f"down left {left}"


@pytest.fixture(scope="module", params=["uro", "ssrr"])
def fab(request, state_root):
    """The 8x2 example, all destinations per-hop (URO) or all source-routed (UCMP SSRR)."""
    cfg = example()
    if request.param == "ssrr":
        cfg = dataclasses.replace(cfg, routing=dataclasses.replace(cfg.routing, source_routed=tuple(range(cfg.tors))))
    env = bring_up(cfg, "u" if request.param == "uro" else "s", state_root)
    env.mode = request.param
    try:
        yield env
    finally:
        tear_down(env)
