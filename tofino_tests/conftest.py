"""Fixtures of the Tofino2 suite on the SDE's software model: the tiny profile compiled by
bf-p4c, veth pairs for the ToR's dev ports, ``tofino-model`` + ``bf_switchd``
(:class:`controller.agent.tofino_process.TofinoModelSwitch`), a network config whose one
switch is that ToR, and raw-socket packet I/O (scapy) on the test side of the veths.

Needs the SDE runtime (``$SDE_INSTALL``, default /opt/bf-sde/install), bf-p4c, the
``bfrt_grpc`` client (the ``tofino`` extra / ../shared/toolchain wheel) and root; every
test here is skipped with the reason where one is missing. The model, veths and
hugepages are a machine-wide resource: the whole session holds ``/tmp/uro-tofino.lock``.
A session records what it creates in ``/tmp/uro-tofino-tests`` (the model's and
bf_switchd's PIDs with their command lines, the hugepages value to restore, the veth
names); the next session, holding the lock, removes what a killed one left (exactly
those, nothing by pattern). SIGTERM ends a session as Ctrl-C does, so fixtures clean up.

The model's limits (the toolchain README, docs/tofino2.md "On the model"): its TM decodes
the AFC words but never pauses a queue; it runs the 2 us timer at ~25 triggers/s; its
``global_tstamp`` barely moves. So the clock is checked by counting triggers, and AFC by
the words the program emits (the model's log), not by queue behaviour.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from controller.agent import tofino_process
from controller.agent import veths as veth_pairs
from model_util import uro, write_net  # noqa: F401 (the tests' helpers)

REPO = Path(__file__).resolve().parents[1]
#: veth names of this session: ``t<pid>_<dev port>s`` (switch side) / ``...h`` (test side)
VETH_PREFIX = f"t{os.getpid() % 100000}"
LOCK = "/tmp/uro-tofino.lock"
#: what a session created, for the next one to remove if this one is killed
PID_DIR = Path("/tmp/uro-tofino-tests")
VETH_RECORD = PID_DIR / "veths.json"


def _missing() -> str | None:
    why = tofino_process.missing()
    if why:
        return why
    if shutil.which("bf-p4c") is None:
        return "bf-p4c not installed (the Tofino compiler; see README 'P4 toolchain')"
    try:
        from controller.agent.bfrt import load_bfrt_grpc

        load_bfrt_grpc()
    except Exception as e:  # noqa: BLE001
        return f"the bfrt_grpc client is not installed: {e}"
    try:
        import scapy  # noqa: F401
    except ImportError as e:
        return f"needs the packets extra: {e}"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _missing()
    for item in items:
        if "tofino_tests" in str(item.fspath):
            item.add_marker(pytest.mark.tofino_model)
            item.add_marker(pytest.mark.bf_p4c)
            item.add_marker(pytest.mark.t2na_build("tiny"))
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


# ---- the machine-wide lock, the build ------------------------------------------------------
def reap_leftovers() -> list[str]:
    """Remove what a killed session recorded in :data:`PID_DIR` (call with the lock held)."""
    return tofino_process.TofinoModelSwitch.reap(PID_DIR) + veth_pairs.delete_veths(VETH_RECORD)


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def _held_by_an_ancestor(path: str) -> bool:
    """Whether a process this one descends from holds the flock on ``path`` (the session was
    started as ``flock /tmp/uro-tofino.lock python -m pytest ...``: waiting for that lock
    again would wait for ever)."""
    try:
        ino = os.stat(path).st_ino
        locks = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return False
    holders = set()
    for line in locks:
        f = line.split()
        if len(f) >= 6 and f[1] == "FLOCK" and f[2] != "->" and f[5].rsplit(":", 1)[-1] == str(ino):
            holders.add(int(f[4]))
    pid = os.getppid()
    while pid > 1:
        if pid in holders:
            return True
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
    return False


@pytest.fixture(scope="session")
def model_lock():
    with open(LOCK, "a") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not _held_by_an_ancestor(LOCK):
                fcntl.flock(fh, fcntl.LOCK_EX)
        old = signal.signal(signal.SIGTERM, _interrupt)   # a killed run still tears down
        try:
            for what in reap_leftovers():
                print(f"tofino_tests: left by a killed session: {what}")
            yield
        finally:
            signal.signal(signal.SIGTERM, old)
            fcntl.flock(fh, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def tiny():
    from controller.p4gen import profile as prof

    return prof.load("tiny")


@pytest.fixture(scope="session")
def build(tiny, tmp_path_factory, t2na_build):
    """The tiny profile's t2na ToR compiled by bf-p4c: (program dir, contract, port map)."""
    from controller.p4gen import render as rnd
    from controller.tofino2 import settings

    out = tmp_path_factory.mktemp("t2na")
    written = rnd.render_to(tiny, out, ["tor"], "tofino2")
    p4 = next(f for f in written if f.suffix == ".p4")
    # a compile of the same rendered program is reused (bf-p4c takes minutes on a loaded
    # 2-core machine): keyed by the program text and the compiler; started in the
    # background at the start of the session (conftest.py at the top)
    t2na_build(p4, "tiny")
    d = out / f"tor_{tiny.name}_t2na"
    contract = json.loads((out / f"tor_{tiny.name}_t2na.contract.json").read_text())
    pm_path = out / "ports.toml"
    pm_path.write_text(settings.port_map_text(settings.default_port_map(tiny)))
    return d, contract, pm_path


@pytest.fixture(scope="session")
def port_map(build):
    from controller.tofino2 import settings

    return settings.load(build[2])


# ---- veths -----------------------------------------------------------------------------
@pytest.fixture(scope="session")
def veths(port_map, model_lock):
    """{dev port: (switch side, test side)} for every port of the ToR."""
    PID_DIR.mkdir(parents=True, exist_ok=True)
    try:
        yield veth_pairs.add_veths((*port_map.hosts, *port_map.uplinks), VETH_PREFIX, VETH_RECORD)
    finally:
        veth_pairs.delete_veths(VETH_RECORD)


# ---- the switch ---------------------------------------------------------------------------
@pytest.fixture(scope="session")
def model(build, veths, tmp_path_factory):
    """tofino-model + bf_switchd with the tiny ToR program loaded at start (as a switch
    whose bf_switchd.conf names the program): the daemon adopts it and writes the plan.
    Traced at the model's default level, every table of every pass: the tests read the
    packets it sent, the TM's qid and the AFC words from it. The level is never changed
    while the model runs: tofino-model has crashed (a segfault) a fraction of a second after
    its shell switched the P4 trace under the running slice timer (docs/tofino2.md "Logs")."""
    d, _, _ = build
    sw = tofino_process.TofinoModelSwitch(tmp_path_factory.mktemp("model"), {p: s for p, (s, _) in veths.items()},
                                          program_dir=d, pid_dir=PID_DIR, trace=True)
    sw.start()
    try:
        yield sw
    finally:
        sw.stop()


@pytest.fixture(scope="session")
def net(build, tmp_path_factory):
    from controller.agent.bmv2_process import free_port

    return write_net(tmp_path_factory.mktemp("net") / "net.toml", build, free_port())


# ---- packet I/O ------------------------------------------------------------------------------
class Ports:
    """scapy on the test side of the veths: ``send(dev_port, pkt)``, ``sniff(...)``."""

    def __init__(self, veths: dict):
        self.veths = veths

    def iface(self, dev_port: int) -> str:
        return self.veths[dev_port][1]

    def send(self, dev_port: int, pkt, count: int = 1) -> None:
        from scapy.all import sendp

        sendp(pkt, iface=self.iface(dev_port), count=count, verbose=False)

    def sniffer(self, dev_ports=None):
        """A started AsyncSniffer on the given (default: all) ports; ``stop()`` returns
        the packets, each with ``.sniffed_on`` naming the interface. Returned once its
        sockets are open (scapy's ``started_callback``), not after a guessed delay: a
        frame leaving the model before then would be missed."""
        import threading

        from scapy.all import AsyncSniffer

        ports = list(self.veths) if dev_ports is None else list(dev_ports)
        ready = threading.Event()
        s = AsyncSniffer(iface=[self.iface(p) for p in ports], store=True, started_callback=ready.set)
        s.start()
        if not ready.wait(60):
            s.stop()
            raise AssertionError(f"the sniffer on {ports} did not start in 60 s")
        return s

    def port_of(self, iface: str) -> int:
        for p, (_, h) in self.veths.items():
            if h == iface:
                return p
        raise KeyError(iface)


@pytest.fixture(scope="session")
def ports(veths):
    return Ports(veths)


@pytest.fixture(scope="session")
def pushed(model, net):
    """`uro agent push` of tor0 onto the running model, once per session: its output."""
    t0 = time.monotonic()
    r = uro("agent", "push", "--config", str(net), "--switch", "tor0")
    assert r.returncode == 0, f"uro agent push failed:\n{r.stdout}\n{r.stderr}"
    return r.stdout, time.monotonic() - t0


@pytest.fixture(scope="session")
def view(pushed, build, model):
    """A backend session of the test's own on the configured switch (it adopts the switch)."""
    from model_util import View, attach

    b = attach(build, model.address)
    v = View(b)
    v.run_clock()              # the model's own time stands still: every trigger ticks, as a running clock
    v.keep_running()
    yield v
    b.close()


@pytest.fixture()
def sole(view, build):
    """The switch without the test's own session while a test's daemon (or another
    controller) owns it: BfRt binds a program to one client; the session comes back after."""
    view.detach()
    try:
        yield
    finally:
        view.reattach(build)
