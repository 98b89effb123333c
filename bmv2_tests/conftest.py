"""Fixtures for the bmv2 suite: compiled programs, veth pairs, a simple_switch_grpc per
test (fresh state), the pipeline pushed over P4Runtime, and raw-socket packet I/O.

Time is deterministic: the slice clock only moves when a test sends a timer packet.
Needs p4c-bm2-ss, simple_switch_grpc and root (veth pairs); otherwise every test here
is skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from switch_util import Switch
from controller import process
from controller.agent.bmv2_process import Bmv2Switch
from controller.agent import veths as veth_pairs
from controller.p4gen import build as p4build
from controller.p4gen import profile as prof
from controller.p4gen.timer import timer_frame, timer_metadata

HERE = Path(__file__).resolve().parent
#: veth names of this test session: several sessions (worktrees, CI) can run at once
VETH_PREFIX = f"u{os.getpid() % 100000}"


def _missing() -> str | None:
    for tool in ("p4c-bm2-ss", "simple_switch_grpc"):
        if shutil.which(tool) is None:
            return f"{tool} not installed (see README 'P4 toolchain')"
    if os.geteuid() != 0:
        return "needs root to create veth pairs"
    try:
        import finsy.proto  # noqa: F401
        import scapy  # noqa: F401
    except ImportError as e:
        return f"needs the agent and packets extras: {e}"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _missing()
    for item in items:
        if "bmv2_tests" in str(item.fspath):
            item.add_marker(pytest.mark.bmv2)
            item.add_marker(pytest.mark.p4c)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


# ---- compiled programs ----------------------------------------------------------------------
@pytest.fixture(scope="session")
def tiny():
    return prof.load("tiny")


def _compile(profile, out: Path) -> dict:
    """{program: (p4info, bmv2 json, contract)} of a profile, compiled by real p4c."""
    import json

    p4build.build(profile, out)
    arts = {}
    for program in profile.programs():
        base = out / f"{program}_{profile.name}"
        arts[program] = (base.with_suffix(".p4info.txtpb"), base.with_suffix(".json"),
                         json.loads(base.with_suffix(".contract.json").read_text()))
    return arts


@pytest.fixture(scope="session")
def artifacts(tiny, tmp_path_factory):
    """{program: (p4info, bmv2 json, contract)} for the tiny profile, compiled by real p4c."""
    return _compile(tiny, tmp_path_factory.mktemp("p4build"))


@pytest.fixture(scope="session")
def compile_profile(tmp_path_factory):
    """(Profile) -> artifacts of that profile (compiled once per session)."""
    cache: dict = {}

    def build(profile):
        if profile not in cache:
            cache[profile] = _compile(profile, tmp_path_factory.mktemp(f"p4build_{profile.name}"))
        return cache[profile]

    return build


#: the data ports a switch of each program has, from its contract's profile
PORTS = {"tor": lambda prof_: prof_["host_ports"] + prof_["uplinks"],
         "ocs": lambda prof_: prof_["tors"] * prof_["uplinks"]}


def _switch_of(program: str, veths, tmp_path):
    """(artifacts) -> context manager giving a fresh switch of ``program`` of that build:
    (switch, client, ports, contract)."""
    import contextlib

    @contextlib.contextmanager
    def run(arts):
        gen = _run_switch(PORTS[program](arts[program][2]["profile"]), program, arts, veths, tmp_path)
        try:
            yield next(gen)
        finally:
            gen.close()

    return run


@pytest.fixture
def tor_of(veths, tmp_path):
    """(artifacts) -> context manager giving a fresh ToR switch of that build."""
    return _switch_of("tor", veths, tmp_path)


@pytest.fixture
def ocs_of(veths, tmp_path):
    """(artifacts) -> context manager giving a fresh OCS emulator of that build."""
    return _switch_of("ocs", veths, tmp_path)


# ---- what a session leaves if it is killed -------------------------------------------------
#: each session's records of the veths it made (``<pid>.<what>.json``) and of the switches
#: running (``<pid>.<name>.<port>.pid``): a session removes the veths and stops the
#: switches of a session that was killed before its teardown ran
RECORDS = Path("/tmp/uro-bmv2-tests")


@pytest.fixture(scope="session", autouse=True)
def session_records():
    for done in process.reap_orphans(RECORDS) + veth_pairs.reap_orphans(RECORDS):
        print(f"bmv2_tests: left by a killed session: {done}")
    Bmv2Switch.records = RECORDS
    yield
    Bmv2Switch.records = None


# ---- veth pairs -------------------------------------------------------------------------
@pytest.fixture(scope="session")
def veths():
    rec = veth_pairs.session_record(RECORDS, "ports")
    pairs = veth_pairs.add_veths(range(16), VETH_PREFIX, rec)  # enough for the OCS emulator of the tiny profile (8 x 2 ports)
    yield [pairs[p] for p in range(16)]
    veth_pairs.delete_veths(rec)


@pytest.fixture(scope="session")
def pktgen_veth():
    """One more veth pair (``<prefix>_pgs``/``<prefix>_pgh``), for a switch's pktgen port
    (500: the slice clock's TRIGGERs and PROBEs, docs/clock.md)."""
    rec = veth_pairs.session_record(RECORDS, "pktgen")
    yield veth_pairs.add_veths(["pg"], VETH_PREFIX, rec)["pg"]
    veth_pairs.delete_veths(rec)


# ---- packet I/O: the ptf package's dataplane on the test side of each veth ---------------
class Dataplane:
    """What ``ptf.testutils`` calls a test: a ptf ``DataPlane`` with port i on veth i.

    ``send``/``expect``/``expect_none`` wrap ``ptf.testutils``; expected packets are scapy
    packets or ``ptf.mask.Mask`` objects."""

    def __init__(self, hosts: list[str] | dict[int, str]):
        import ptf
        import ptf.ptfutils
        from ptf.dataplane import DataPlane

        ports = dict(hosts) if isinstance(hosts, dict) else dict(enumerate(hosts))
        ptf.config.update({"relax": False, "platform": "local", "qlen": 1000,
                           "port_map": {(0, i): ifc for i, ifc in ports.items()}})
        ptf.ptfutils.default_timeout = 2
        ptf.ptfutils.default_negative_timeout = 0.3
        self.dataplane = DataPlane(ptf.config)
        for i, ifc in ports.items():
            self.dataplane.port_add(ifc, 0, i)
        self.n_ports = len(ports)

    # hooks ptf.testutils calls
    def before_send(self, pkt, device_number=0, port_number=-1):
        pass

    def at_receive(self, pkt, device_number=0, port_number=-1):
        pass

    def fail(self, msg):
        raise AssertionError(msg)

    # the test-facing API
    def send(self, port: int, pkt) -> None:
        from ptf import testutils as tu

        tu.send_packet(self, port, pkt)

    def expect(self, port: int, pkt, timeout: float = 10.0) -> bytes:
        """The packet leaves on ``port`` (within timeout); returns the bytes received. The
        poll returns as soon as it arrives: the timeout only bounds a packet that never
        comes, and is wide because a bmv2 switch on a loaded two-core machine (load 30-50)
        takes seconds for a packet it forwards at once when idle (a test that needs a
        packet *not* to leave before some time says so with :meth:`expect_none`)."""
        from ptf import testutils as tu

        r = tu.dp_poll(self, port_number=port, timeout=timeout, exp_pkt=pkt)
        if isinstance(r, self.dataplane.PollFailure):
            raise AssertionError(f"expected packet not received on port {port}:\n{r.format()}")
        return bytes(r.packet)

    def expect_none(self, timeout: float = 0.3) -> None:
        """No packet leaves on any port."""
        from ptf import testutils as tu

        tu.verify_no_other_packets(self, timeout=timeout)

    timer_counts = None     # () -> {timer, timer_sync, timer_rejected}: the switch's timer events
    send_timer = None       # (slice, sync) -> None: a timer as P4Runtime PacketOut (the CPU port)

    def flush(self) -> None:
        self.dataplane.flush()

    def socket_drops(self) -> dict[int, int]:
        """Frames each port's receive socket dropped since the last call (the kernel's
        PACKET_STATISTICS, which a read resets): a frame the switch sent that the test
        never saw because the socket's buffer was full, not because the switch lost it."""
        import socket
        import struct

        sol_packet, packet_statistics = 263, 6       # <linux/if_packet.h>
        out = {}
        for (_, port), p in self.dataplane.ports.items():
            _, drops = struct.unpack("II", p.socket.getsockopt(sol_packet, packet_statistics, 8))
            if drops:
                out[port] = drops
        return out

    def close(self) -> None:
        self.dataplane.kill()


# ---- switch: bmv2_tests/switch_util.py (a module of its own: test modules import it by
# name, and "conftest" names whichever suite's conftest pytest loaded last)


def _pace_uplinks(sw, contract) -> None:
    """Pace the ToR's uplink egress queues as the emulated fabric does (docs/p4.md
    "Calendar queues on bmv2"): the top priority queue (what departs now) at the uplink
    pace, the hold queues a held packet circles in at the hold pace. bmv2's ingress
    thread takes a new packet (a timer, the rest of a burst) only when no recirculated
    one waits (``InputBuffer::pop_back`` in simple_switch.cpp). Unpaced, a burst of held
    packets can keep the ingress busy with recirculations for good: the switch took no
    timer for seconds (bmv2_tests/test_uro_forwarding.py, the burst test)."""
    from controller.emulate import procs
    from controller.emulate.config import DEFAULT_HOLD_PPS, DEFAULT_UPLINK_PPS
    from controller.emulate.fabric import queue_rates

    prof_ = contract["profile"]
    ups = [prof_["uplink_port_base"] + u for u in range(prof_["uplinks"])]
    procs.set_queue_rates(sw.thrift_port, queue_rates(ups, DEFAULT_UPLINK_PPS, DEFAULT_HOLD_PPS), "tor")


def _run_switch(n_ports, program, artifacts, veths, tmp_path, extra: dict | None = None):
    """A switch of ``program`` on veths 0..n_ports-1 (and ``extra``: port -> veth pair)."""
    p4info, js, contract = artifacts[program]
    pairs = dict(enumerate(veths[:n_ports]))
    pairs.update(extra or {})
    # timers come from the controller as PacketOut: they enter on the programs' CPU port
    sw = Switch({i: s for i, (s, _) in pairs.items()}, tmp_path / f"{program}_switch.log",
                ["--cpu-port", str(contract["packet_io"]["cpu_port"])])
    ports = Dataplane({i: h for i, (_, h) in pairs.items()})
    try:
        client = sw.connect(p4info, js, contract)
        if program == "tor":
            _pace_uplinks(sw, contract)
        # the switch counts every timer it takes: tests wait for that count (a timer
        # waits in bmv2's input buffer while recirculated packets are served first)
        events = "events" if program == "tor" else "ocs_events"
        ports.timer_counts = lambda: client.read_counters(contract, events)
        ports.send_timer = lambda s, sync=True: client.packet_out(timer_frame(contract, s, sync),
                                                                   timer_metadata(contract))
        time.sleep(0.2)
        ports.flush()
        yield sw, client, ports, contract
    finally:
        ports.close()
        sw.stop()


@pytest.fixture
def tor(tiny, artifacts, veths, tmp_path):
    """A fresh ToR switch of the tiny profile: (switch, client, ports, contract)."""
    yield from _run_switch(tiny.host_ports + tiny.uplinks, "tor", artifacts, veths, tmp_path)


@pytest.fixture
def ocs(tiny, artifacts, veths, tmp_path):
    yield from _run_switch(tiny.tors * tiny.uplinks, "ocs", artifacts, veths, tmp_path)


@pytest.fixture(scope="module")
def clock_tor(tiny, artifacts, veths, pktgen_veth, tmp_path_factory):
    """A ToR of the tiny build with its pktgen port (500), one per test module (the slice
    clock's tests: docs/clock.md): (switch, client, ports, contract)."""
    pg = artifacts["tor"][2]["clock"]["pktgen_port"]
    yield from _run_switch(tiny.host_ports + tiny.uplinks, "tor", artifacts, veths,
                           tmp_path_factory.mktemp("clock_tor"), extra={pg: pktgen_veth})


@pytest.fixture(scope="module")
def clock_ocs(tiny, artifacts, veths, pktgen_veth, tmp_path_factory):
    """The tiny OCS emulator with its pktgen port (500), one per test module."""
    pg = artifacts["ocs"][2]["clock"]["pktgen_port"]
    yield from _run_switch(tiny.tors * tiny.uplinks, "ocs", artifacts, veths,
                           tmp_path_factory.mktemp("clock_ocs"), extra={pg: pktgen_veth})
