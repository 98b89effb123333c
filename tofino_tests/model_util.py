"""What the Tofino2 model tests read besides packets: the switch's own state over BfRt
(registers, the generator's counters, the TM carving, ports) through the project's
backend session, and the AFC words the program emitted (the model's log)."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from controller.agent import backend as be
from controller.agent import bfrt as bfrt_backend
from controller.agent import tofino_process
from controller.tofino2 import pktgen
from controller.tofino2 import plan as switch_plan
from controller.tofino2.bfrt_json import KeyField, Write


REPO = Path(__file__).resolve().parents[1]
# the bmv2 suite's packet builders (fabric.py) and reference model (tor_model.py)
if str(REPO / "bmv2_tests") not in sys.path:
    sys.path.insert(0, str(REPO / "bmv2_tests"))


def write_net(path: Path, build, status_port: int, reconcile_s: float = 30.0, source_routed: str = "[6, 7]",
              interfaces: list[str] | None = None) -> Path:
    """A net.toml whose switch tor0 is the model (tofino2, BfRt at 127.0.0.1:50052);
    ``source_routed``: the ToRs routed by UCMP source routes (TOML: a list or "all");
    ``interfaces``: the uplinks' interfaces the daemon watches (the switch side of their veths)."""
    d, _, pm = build
    contract = d.parent / f"{d.name}.contract.json"
    lines = ['name = "tofino-model-test"', "[schedule]", 'generate = "round-robin"', "tors = 8", "uplinks = 2",
             "[routing]", f"source_routed = {source_routed}", "[routing.per_hop]", "k = 3", "max_hops = 4",
             "[routing.source]", 'algo = "ucmp"', "h_max = 4",
             "[daemon]", f'status = "127.0.0.1:{status_port}"', f"reconcile_s = {reconcile_s}", "reconnect_s = 0.5",
             "election_id = 10", "rpc_timeout_s = 10", "[tls]", "insecure = true",
             "[program.tor]", f'contract = "{contract}"', f'bfrt = "{d / "bfrt.json"}"',
             f'context = "{d / "pipe" / "context.json"}"', f'binary = "{d / "pipe" / "tofino2.bin"}"',
             f'port_map = "{pm}"',
             "[[switch]]", 'name = "tor0"', 'role = "tor"', "tor = 0", 'target = "tofino2"',
             f'address = "127.0.0.1:{tofino_process.GRPC_PORT}"', "device_id = 0",
             "[switch.ports]", "hosts = [0, 1]", "uplinks = [2, 3]"]
    if interfaces:
        lines.append("interfaces = [" + ", ".join(f'"{i}"' for i in interfaces) + "]")
    path.write_text("\n".join(lines) + "\n")
    return path


def uro(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO)



def pipeline(build):
    d, contract, pm = build
    return bfrt_backend.pipeline_from_build(d, contract, pm)


def attach(build, address: str) -> bfrt_backend.BfrtBackend:
    """A backend session on the running switch, adopting its program (no re-bind)."""
    b = bfrt_backend.BfrtBackend(be.SwitchAddress("tor0", address, timeout_s=10))
    b.connect()
    b.set_pipeline(pipeline(build))
    return b


class View:
    """Reads and the few test-only writes (timer on/off) over one backend session."""

    def __init__(self, b: bfrt_backend.BfrtBackend, pipe: int = 0):
        self.b, self.pipe = b, pipe

    @property
    def s(self):
        """The backend's current session (a reconnect replaces it)."""
        return self.b._s()

    @property
    def gc(self):
        return self.s.gc

    def detach(self) -> None:
        """Give the switch up: BfRt lets one client own (bind) a program, so another
        controller (the daemon, a meddler) can take it only once this session is closed."""
        self.b.close()

    def reattach(self, build) -> None:
        """Take the switch back (adopting its program, no re-bind)."""
        self.b.connect()
        self.b.set_pipeline(pipeline(build))

    def _get(self, table: str, key_fields, pipe: int | None = None) -> dict:
        t = self.s._table(table)
        key = t.make_key([self.gc.KeyTuple(n, v) for n, v in key_fields])
        for data, _ in t.entry_get(self.s.target(pipe), [key], {"from_hw": True}):
            return data.to_dict()
        raise AssertionError(f"{table} {key_fields}: no entry")

    def register(self, name: str, index: int = 0, field: str | None = None) -> int:
        """Register cell ``index`` of pipe ``self.pipe`` (``field``: of a pair register, e.g.
        ``bound_reg``'s ``next`` or ``slice``)."""
        full = "pipe." + name
        d = self._get(full, [("$REGISTER_INDEX", index)])
        want = f"{name}.{field}" if field else None
        vals = next(v for k, v in d.items() if (k == want if want else k.startswith(name)))
        return int(vals[self.pipe] if isinstance(vals, list) else vals)

    def set_register(self, name: str, value: int | dict, index: int = 0) -> None:
        """Write register cell ``index`` (every pipe): a value, or {field: value} of a pair."""
        t = self.s._table("pipe." + name)
        fields = value if isinstance(value, dict) else {"f1": value}
        t.entry_mod(self.s.target(), [t.make_key([self.gc.KeyTuple("$REGISTER_INDEX", index)])],
                    [t.make_data([self.gc.DataTuple(f"{name}.{f}", int(v)) for f, v in fields.items()])])

    def clock(self) -> dict:
        """The slice clock's registers, as the backend reads them (``read_clock``: the
        contract's ``clock.registers`` names), with the calendar-queue rotation's."""
        return self.b.read_clock()

    def run_clock(self) -> int:
        """Make every trigger tick, as if the local time ran on: tofino-model's
        ``global_tstamp`` stands still while the timer runs (the driver sets no increment:
        "Either core_freq or pps_freq is 0"), so the next boundary is put 2^30 ns (half a
        million slices) behind the last trigger's time; returns that time. The model's time
        jumps by seconds when the timer is turned off (the triggers it still works through
        carry another time), which can put the boundary ahead again: :meth:`timer` re-arms
        it whenever it turns the timer on."""
        now = self.clock()["now"]
        self.set_register("UroIngress.bound_reg", {"next": (now - (1 << 30)) & 0xFFFFFFFF,
                                                    "slice": self.register("UroIngress.bound_reg", field="slice")})
        return now

    def hold_clock(self, slice_id: int | None = None) -> int:
        """Put the next boundary 2^30 ns after the last trigger's time: no trigger ticks
        while the model's time stands; returns that time. ``slice_id``: the clock is put in
        that slice too, as the daemon's seed writes the boundary register first
        (``controller.tofino2.clock.seed_writes``; the calendar-queue rotation and the slice
        number stay, as a seed leaves the rotation)."""
        now = self.clock()["now"]
        if slice_id is None:
            slice_id = self.register("UroIngress.bound_reg", field="slice")
        self.set_register("UroIngress.bound_reg", {"next": (now + (1 << 30)) & 0xFFFFFFFF, "slice": slice_id})
        return now

    def app(self, app_id: int = pktgen.TIMER_APP_ID) -> dict:
        return self._get(switch_plan.PKTGEN_APP, [("app_id", app_id)], pipe=self.pipe)

    def triggers(self) -> int:
        return int(self.app()["trigger_counter"])

    def timer(self, on: bool, run: bool = True) -> None:
        """Start/stop the clock (the timer application's enable, as the plan writes it);
        starting it makes every trigger tick (:meth:`keep_running`), unless ``run`` is False."""
        if on and run:
            self.run_clock()
        self._enable(on)
        if on and run:
            self.keep_running()

    def keep_running(self, timeout_s: float = 60.0) -> None:
        """Wait until the clock ticks, re-arming it (:meth:`run_clock`) while its boundary is
        ahead of the model's time: the triggers the model still works through when the timer
        was turned off carry a time seconds later, which can put the boundary ahead again.
        A boundary ahead ticks nothing, so re-arming it races no trigger."""
        e0 = self.register("UroIngress.epoch_reg")
        deadline = time.time() + timeout_s
        while True:
            time.sleep(0.5)
            c = self.clock()
            if (c["epoch"] - e0) % 65536:
                return
            assert time.time() < deadline, f"the slice clock does not tick: {c}"
            if (c["now"] - c["next"]) & 0xFFFFFFFF >= 1 << 31:
                self.run_clock()

    def _enable(self, on: bool) -> None:
        self.s.write("mod", Write(switch_plan.PKTGEN_APP, (KeyField("app_id", pktgen.TIMER_APP_ID),),
                                  "trigger_timer_periodic", (("app_enable", on),), pipe=self.pipe))

    def queue_map(self, ports) -> dict:
        return self.s.tm_queue_map(ports)

    def port(self, dev_port: int) -> dict:
        return self._get("$PORT", [("$DEV_PORT", dev_port)])

    def frozen_slice(self, settle: float = 0.5, tries: int = 60) -> int:
        """Stop the clock and return the slice it stopped in, once the data plane has taken
        every generated packet: the model works through a backlog, so the slice register can
        still move after the timer is off (seen: read 1, the next packet saw 2)."""
        self.timer(False)
        last = None
        for _ in range(tries):
            time.sleep(settle)
            now = (self.triggers(), self.register("UroIngress.epoch_reg"),
                   self.register("UroIngress.bound_reg", field="slice"))
            if now == last:
                return now[2]
            last = now
        raise AssertionError(f"the clock did not settle: {last}")


# ---- the model's log -------------------------------------------------------------------------
_AFC = re.compile(r"adv_flow_ctl\[31:0\] = 0x([0-9a-fA-F]+)")
_TX = re.compile(r"Tx Pkt to port (\d+) ")


def model_log(log_dir: Path) -> Path:
    """The model's current trace log (``model_<date>.log``, the newest)."""
    logs = sorted(Path(log_dir).glob("model_*.log"), key=lambda p: p.stat().st_mtime)
    if not logs:
        raise AssertionError(f"no model_*.log in {log_dir}")
    return logs[-1]


class LogTail:
    """The lines the model logged since :meth:`mark`."""

    def __init__(self, log_dir: Path):
        self.path = model_log(log_dir)
        self.pos = 0

    def mark(self) -> None:
        self.path.stat()
        self.pos = self.path.stat().st_size

    def lines(self) -> list[str]:
        with open(self.path, "rb") as fh:
            fh.seek(self.pos)
            return fh.read().decode(errors="replace").splitlines()

    def tx_ports(self) -> list[int]:
        """The dev ports the model sent a frame out of (its ``Tx Pkt to port N`` lines):
        tells a frame the switch never sent from one the test's sniffer missed."""
        return [int(m.group(1)) for line in self.lines() for m in [_TX.search(line)] if m]

    def afc_words(self) -> list[int]:
        return [int(m.group(1), 16) for line in self.lines() for m in [_AFC.search(line)] if m]


# ---- the daemon on the model, the reference model --------------------------------------------
HOSTS = 2        # host ports of the tiny ToR (logical ports 0, 1; uplinks from 2)


@contextlib.contextmanager
def daemon(net: Path, log_path: Path):
    """The daemon's controller, in this process, managing the configured switch: started
    (it connects, adopts the running program and finds its routes current, as ``uro daemon``
    does), shut down after (the switch keeps what it holds). Events go to ``log_path``."""
    from controller.daemon.config import load
    from controller.daemon.controller import Controller, Prepared
    from controller.daemon.log import EventLog
    from controller.schedule.degrade import Failed

    fh = open(log_path, "w")
    ctl = Controller(load(net), log=EventLog("json", stream=fh))
    try:
        ctl.start(Prepared(ctl.cfg, Failed(), be.backend_for))
        yield ctl
    finally:
        ctl.shutdown()
        fh.close()


def events(log_path: Path) -> list[dict]:
    return [json.loads(line) for line in Path(log_path).read_text().splitlines() if line.strip()]


def reference_tables(routes, generation: int = 0):
    """The bmv2 fuzzing's reference model (bmv2_tests/tor_model.py) loaded with tor0's
    per-hop routes as the daemon computed them: (tor_model module, Tables)."""
    import tor_model
    from controller.tables import perhop

    t = tor_model.Tables(me=0, n=8, d=2, s=4, h=4, host_ports=HOSTS, uplink_base=HOSTS, gen=generation,
                         live=1 << generation)
    for e in perhop.entries(routes.per_hop, 0):
        t.uro[(e.slice, e.dst)] = [(a.uplink, a.dep_slice) for a in e.alternatives]
    t.source_routed = set(routes.source_routed)
    return tor_model, t


def dev_port(port_map, logical: int) -> int:
    """The dev port of a reference-model port (hosts 0..HOSTS-1, then the uplinks)."""
    return port_map.hosts[logical] if logical < HOSTS else port_map.uplinks[logical - HOSTS]


def stamp(frame: bytes) -> int:
    """The route generation a ToR stamped into a frame (the IPv4 reserved flag bit)."""
    return frame[14 + 6] >> 7
