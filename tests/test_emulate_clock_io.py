"""The emulated fabric's clock I/O on real veth pairs, without a switch (needs root):
the packet generator's TRIGGERs (controller/emulate/pktgen.py) and the kernel-timestamped
PROBEs of the measurement (controller/emulate/clockprobe.py) against a responder that
answers as a switch would, with a known clock."""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time

import pytest

from controller.clock.message import ETHERTYPE, Flag, Message, Op, Stamp, decode_frame, encode_frame
from controller.emulate.config import from_dict
from controller.emulate.plan import make_plan

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to create veth pairs")

L = 50_000_000


def _plan(prefix: str):
    it = iter(range(40000, 50000))
    cfg = from_dict({"name": "t", "prefix": prefix, "schedule": {"generate": "round-robin", "tors": 4, "uplinks": 2}},
                    "t.toml")
    return make_plan(cfg, lambda: next(it))


class Veths:
    """The pktgen veth pairs of a plan's switches (nothing else of the fabric)."""

    def __init__(self, plan):
        self.links = [x for x in plan.links if x.kind == "pktgen"]
        for x in self.links:
            subprocess.run(["ip", "link", "add", x.a, "type", "veth", "peer", "name", x.b], check=True)
            for n in (x.a, x.b):
                subprocess.run(["ip", "link", "set", n, "up"], check=True)

    def close(self):
        for x in self.links:
            subprocess.run(["ip", "link", "del", x.a], capture_output=True)


@pytest.fixture
def fab():
    prefix = f"uk{os.getpid() % 1000}"
    plan = _plan(prefix)
    v = Veths(plan)
    try:
        yield plan
    finally:
        v.close()


def _listen(ifname: str) -> socket.socket:
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETHERTYPE))
    s.bind((ifname, ETHERTYPE))
    s.settimeout(0.2)
    return s


def test_the_generator_sends_every_tor_a_trigger_per_period_uplinks_in_turn(fab):
    from controller.emulate import pktgen

    socks = {s.name: _listen(fab.pktgen_link(s.name).a) for s in fab.switches}   # the switches' ports
    t = threading.Thread(target=pktgen.run, args=(fab, 0.01, 0.5, lambda m: None))
    t.start()
    t.join(10)
    got = {n: [] for n in socks}
    for n, s in socks.items():
        while True:
            try:
                got[n].append(decode_frame(s.recv(2048)))
            except socket.timeout:
                break
        s.close()
    assert got["ocs"] == [], "the reference starts no exchange: no TRIGGER"
    for s in fab.tor_switches:
        msgs = got[s.name]
        assert 20 <= len(msgs) <= 60, (s.name, len(msgs))          # 0.5 s at 10 ms, give or take a starved host
        assert all(m.op == Op.TRIGGER for m in msgs)
        ups = [m.uplink for m in msgs]
        assert set(ups) == {0, 1} and all(a != b for a, b in zip(ups, ups[1:])), ups[:10]


class Switch(threading.Thread):
    """Answers PROBEs on a pktgen port as a switch in sync mode would, its clock
    ``offset`` ns ahead of the host's CLOCK_REALTIME (the kernel's stamps)."""

    def __init__(self, ifname: str, offset: int, stay: int = 20_000, timer: bool = False, decoy: bool = False):
        super().__init__(daemon=True)
        self.sock = _listen(ifname)
        self.offset, self.stay, self.timer, self.decoy = offset, stay, timer, decoy
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                m = decode_frame(self.sock.recv(2048))
            except (socket.timeout, OSError):
                continue
            if m.op != Op.PROBE:
                continue
            t2 = time.time_ns() + self.offset
            time.sleep(self.stay / 1e9)
            t3 = time.time_ns() + self.offset
            r = Message(Op.PROBE_REPLY, flags=int(Flag.TIMER) if self.timer else 0, src_tor=1, stratum=2,
                        t1=m.t1, t2=Stamp.of_ns(t2, L), t3=Stamp.of_ns(t3, L), slice=(t3 // L) % 4)
            if self.decoy:       # first a late answer to another probe (another nonce), 10 s off
                self.sock.send(encode_frame(Message(Op.PROBE_REPLY, src_tor=1, stratum=2,
                                                    t1=Stamp((m.t1.k + 1) % (1 << 32), 0),
                                                    t2=Stamp.of_ns(t2 + 10**10, L), t3=Stamp.of_ns(t3 + 10**10, L))))
            self.sock.send(encode_frame(r))

    def close(self):
        self.stop.set()
        self.join(2)
        self.sock.close()


#: probes of the offset test: up to this many rounds, until :data:`WANT_CLOSE` measurements
#: of each kind are within :data:`CLOSE_NS` (their round trips short enough to say much)
MAX_ROUNDS, WANT_CLOSE, CLOSE_NS = 300, 5, 1_000_000


def test_probes_measure_a_tors_offset_against_the_reference(fab):
    """Two responders 3 ms apart: the kernel-stamped probes give tor1 minus ocs = 3 ms, the
    floor (one switch twice) 0, each measurement within its uncertainty (half of its two
    probes' round trips) of the truth -- a responder stamps between the probe's departure
    and its answer's arrival, however loaded the host -- and some, on the least-delay
    filter's terms, within 1 ms; the ToR first sends an answer to another probe (another
    nonce, 10 s off): not taken."""
    from controller.emulate.clockprobe import Prober, error_ns, uncertainty_ns

    tor = Switch(fab.pktgen_link("tor1").a, 3_000_000 + 123_456_789, decoy=True)
    ocs = Switch(fab.pktgen_link("ocs").a, 123_456_789)
    tor.start()
    ocs.start()
    errs, floor = [], []
    try:
        with Prober.for_plan(fab, ["tor1", "ocs"]) as pr:
            for _ in range(MAX_ROUNDS):
                got = pr.probe(["tor1", "ocs"])
                assert set(got) == {"tor1", "ocs"} and got["tor1"].stratum == 2 and not got["tor1"].timer
                assert got["tor1"].received > got["tor1"].sent
                errs.append((error_ns(got["tor1"], got["ocs"], L, 4), uncertainty_ns(got["tor1"], got["ocs"])))
                a, b = pr.probe(["ocs"]), pr.probe(["ocs"])
                floor.append((error_ns(a["ocs"], b["ocs"], L, 4), uncertainty_ns(a["ocs"], b["ocs"])))
                if min(sum(u <= CLOSE_NS for _, u in m) for m in (errs, floor)) >= WANT_CLOSE:
                    break
    finally:
        tor.close()
        ocs.close()
    for truth, ms in ((3_000_000, errs), (0, floor)):
        # +2: the integer halves of the midpoints
        assert [(e, u) for e, u in ms if abs(e - truth) > u + 2] == [], (truth, ms)
        assert sum(u <= CLOSE_NS for _, u in ms) >= WANT_CLOSE, (truth, ms)
