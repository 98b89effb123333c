"""A Tofino2 software switch that uro started: ``tofino-model`` (chip type 5, tofino2) plus
``bf_switchd`` with its BfRt gRPC server, as the SDE's own recipe runs them
(``/opt/bf-sde/recipe/scripts/verify.sh``), logged to files and stopped by their own PIDs
(never by a name pattern: another engineer's model may run next to this one).

Same shape as :class:`controller.agent.bmv2_process.Bmv2Switch`: ``start`` / ``alive`` /
``stop``; ``restart`` reboots the switch (model and driver; what a switch agent survives).
The model's dev ports are mapped to the given interfaces (``PortToIf``); ``bf_switchd``
needs 2 MiB hugepages for its DMA pools: the old ``vm.nr_hugepages`` is saved and restored
by :meth:`stop`.

The model is quiet unless asked to trace (``trace=True``, ``--logs-disable`` otherwise):
its per-packet trace (every pipeline pass of every packet, the AFC words the program
emits) runs at ~3 MB/s while the packet generator's slice timer runs. Traced, it is
written once, to ``<log_dir>/model_<time>.log``: the model also prints it on its standard
output, of which ``model.log`` keeps the first :data:`STDOUT_CAP` bytes (the start-up
messages) and the rest is read and dropped. Most of the trace, and a good part of the
model's CPU while the timer runs, is the ``P4`` log (every table of every pass): with a
``cli_port`` the model's shell (:mod:`controller.agent.tofino_model_shell`) sets its level
(``p4_log_level``, e.g. ``Info``: the packets in and out without the tables) at every start,
once bf_switchd has attached and before any program writes start the packet generator.
Never while packets flow: tofino-model crashes (SIGSEGV) a moment after its P4 log level
changes under the running slice timer (in a run flipping ``Info``/``Debug`` once a second
with the timer on, the fifteenth switch to ``Debug`` killed it; docs/tofino2.md "Logs").

Fixed resources (one such switch per machine at a time: hold ``/tmp/uro-tofino.lock``):
the BfRt gRPC port 50052, the status port 7777 and the model's dru_sim TCP ports. 50052
lies in Linux's ephemeral range (32768-60999), where any client's connection may take it
for a moment: while the switch runs it is listed in ``net.ipv4.ip_local_reserved_ports``
(restored by :meth:`TofinoModelSwitch.stop`), and bf_switchd starts only once no socket
holds it; bf_switchd itself does not exit when it cannot bind it, so its log is watched.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from controller import process
from controller.agent import bfrt
from controller.agent import tofino_model_shell
from controller.agent.bfrt import sde_install
from controller.agent.bmv2_process import SwitchStartError
from controller.process import ProcError

GRPC_PORT = 50052
STATUS_PORT = 7777
#: bf_switchd's DMA pools (the SDE's dma_setup.sh / verify.sh value)
HUGEPAGES = 196
HUGEPAGES_FILE = Path("/proc/sys/vm/nr_hugepages")
#: in a switch's ``pid_dir``: the hugepages value to restore (see :meth:`TofinoModelSwitch.reap`)
HUGEPAGES_RECORD = "hugepages.old"
#: bytes of the model's standard output kept in ``model.log`` when it traces (see above)
STDOUT_CAP = 1 << 20
#: seconds a start may take on a loaded 2-core machine (~20 s idle, 90+ s at load 20+)
START_TIMEOUT = 300.0
#: the kernel's ports kept out of the ephemeral range (connect() and bind(0) never pick them)
RESERVED_PORTS_FILE = Path("/proc/sys/net/ipv4/ip_local_reserved_ports")
#: in a switch's ``pid_dir``: present while :data:`GRPC_PORT` is reserved by the switch
RESERVED_RECORD = "reserved_port"
#: seconds to wait for a socket another program holds on :data:`GRPC_PORT` to go away
PORT_FREE_TIMEOUT = 90.0
#: what bf_switchd logs (then idles, never exiting) when its BfRt server cannot bind
BFRT_BIND_FAILED = b"Failed to start bfrt grpc server"


def missing() -> str | None:
    """Why a model switch cannot run here (None: it can)."""
    sde = sde_install()
    for b in ("tofino-model", "bf_switchd"):
        if not (sde / "bin" / b).is_file():
            return f"{sde}/bin/{b} not installed (the Tofino SDE runtime: ../shared/toolchain install.sh)"
    try:
        bfrt.load_bfrt_grpc()
    except bfrt.MissingClient as e:
        return f"{e} (readiness is asked of the switch's BfRt server)"
    if os.geteuid() != 0:
        return "needs root (veths, hugepages)"
    if not HUGEPAGES_FILE.exists():
        return "no /proc/sys/vm/nr_hugepages (bf_switchd needs hugepages)"
    return None


def switchd_conf(program_dir: Path | None, program_name: str | None) -> dict:
    """bf_switchd's (and the model's) configuration: the device with the program to load
    at start, or none (the BfRt client binds one)."""
    programs = []
    if program_dir is not None:
        d = Path(program_dir).resolve()
        programs.append({
            "program-name": program_name or d.name, "bfrt-config": str(d / "bfrt.json"),
            "p4_pipelines": [{"p4_pipeline_name": "pipe", "config": str(d / "pipe" / "tofino2.bin"),
                              "context": str(d / "pipe" / "context.json"), "pipe_scope": [0, 1, 2, 3],
                              "path": str(d)}]})
    return {"chip_list": [{"id": "asic-0", "chip_family": "tofino2", "instance": 0,
                           "pcie_sysfs_prefix": "/sys/devices/pci0000:00/0000:00:03.0/0000:05:00.0",
                           "pcie_domain": 0, "pcie_bus": 5, "pcie_fn": 0, "pcie_dev": 0, "pcie_int_mode": 1,
                           "sds_fw_path": "share/tofino_sds_fw/avago/firmware"}],
            "instance": 0,
            "p4_devices": [{"device-id": 0, "p4_programs": programs}]}


class TofinoModelSwitch:
    """tofino-model + bf_switchd. ``ports``: {dev_port: interface} (the switch side of a
    veth pair each); ``program_dir``: a bf-p4c output directory loaded at start (None:
    bf_switchd starts with no program and the BfRt client binds one). Logs go to
    ``<log_dir>/model.log`` (start-up; restart n: ``model.<n>.log``), ``switchd.log``
    (restart n: ``switchd.<n>.log``), and with ``trace`` the model's packet/AFC trace to
    ``model_<time>.log`` there. ``detach``: both run in a session of their own (they outlive
    the process that started them; :meth:`reap` of ``pid_dir`` stops them).

    The model runs with ``--port-monitor``: it polls its interfaces (every 100 ms) and
    tells the chip when one goes down (``Chip::PortDown`` -> the packet generator's
    port-down application), so a veth taken down is a link failure the data plane sees.

    ``pid_dir``: both processes are recorded there by PID and command line
    (:func:`controller.process.record`), and the raised hugepages setting with the
    value to restore; a starter killed before :meth:`stop` ran leaves them, and
    :meth:`reap` stops/restores exactly those (nothing found by a pattern).

    ``cli_port``: the model's shell listens there (on all addresses, without a password)
    and ``p4_log_level`` (traced: the level of its per-table ``P4`` trace, one of
    :data:`~controller.agent.tofino_model_shell.LOG_LEVELS`; None: the model's own,
    ``Debug``) is applied at every start, before anything runs the packet generator; without
    it the model runs with ``--no-cli``."""

    def __init__(self, log_dir: Path, ports: dict[int, str], program_dir: Path | None = None,
                 program_name: str | None = None, pid_dir: Path | None = None, trace: bool = False,
                 detach: bool = False, cli_port: int | None = None, p4_log_level: str | None = None):
        if p4_log_level is not None:
            if cli_port is None or not trace:
                raise ValueError("p4_log_level needs trace=True and a cli_port (the model's shell sets it)")
            if p4_log_level not in tofino_model_shell.LOG_LEVELS:
                raise ValueError(f"p4_log_level {p4_log_level!r}: one of {', '.join(tofino_model_shell.LOG_LEVELS)}")
        self.trace, self.detach = trace, detach
        self.cli_port, self.p4_log_level = cli_port, p4_log_level
        self.log_dir = Path(log_dir)
        self.pid_dir = None if pid_dir is None else Path(pid_dir)
        self.ports = dict(ports)
        self.program_dir, self.program_name = program_dir, program_name
        self.model: subprocess.Popen | None = None
        self.switchd: subprocess.Popen | None = None
        self.switchd_starts = 0
        self._old_hugepages: int | None = None
        self._reserved = False

    @property
    def address(self) -> str:
        return f"127.0.0.1:{GRPC_PORT}"

    def _env(self) -> dict:
        sde = sde_install()
        env = dict(os.environ, SDE_INSTALL=str(sde), SDE=str(sde.parent))
        env["LD_LIBRARY_PATH"] = f"{sde}/lib" + (f":{env['LD_LIBRARY_PATH']}" if env.get("LD_LIBRARY_PATH") else "")
        return env

    def _write_files(self) -> tuple[Path, Path]:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        conf = self.log_dir / "switchd.conf"
        conf.write_text(json.dumps(switchd_conf(self.program_dir, self.program_name), indent=1))
        pmap = self.log_dir / "ports.json"
        pmap.write_text(json.dumps({"PortToIf": [{"device_port": p, "if": i} for p, i in sorted(self.ports.items())]}))
        return conf, pmap

    def model_command(self, conf: Path, pmap: Path) -> list[str]:
        sde = sde_install()
        return [str(sde / "bin" / "tofino-model"), "--chip-type", "5", "-f", str(pmap), "--p4-target-config",
                str(conf), "--install-dir", str(sde), "--log-dir", str(self.log_dir), "--port-monitor",
                *(["--no-cli"] if self.cli_port is None else ["--cli-port", str(self.cli_port)]),
                *([] if self.trace else ["--logs-disable"])]

    def switchd_command(self, conf: Path) -> list[str]:
        sde = sde_install()
        return [str(sde / "bin" / "bf_switchd"), "--install-dir", str(sde), "--conf-file", str(conf),
                "--background", "--status-port", str(STATUS_PORT)]

    # ---- hugepages -------------------------------------------------------------------------
    def _hugepages_up(self) -> None:
        if self._old_hugepages is None:
            self._old_hugepages = int(HUGEPAGES_FILE.read_text())
        if self._old_hugepages < HUGEPAGES:
            if self.pid_dir is not None:
                self.pid_dir.mkdir(parents=True, exist_ok=True)
                (self.pid_dir / HUGEPAGES_RECORD).write_text(f"{self._old_hugepages}\n")
            HUGEPAGES_FILE.write_text(f"{HUGEPAGES}\n")

    def _hugepages_restore(self) -> None:
        if self._old_hugepages is not None:
            _write_hugepages(self._old_hugepages)
            self._old_hugepages = None
        if self.pid_dir is not None:
            (self.pid_dir / HUGEPAGES_RECORD).unlink(missing_ok=True)

    # ---- the BfRt port, out of the ephemeral range ------------------------------------------
    def _reserve_port(self) -> None:
        if self._reserved:
            return
        try:
            old = _parse_ports(RESERVED_PORTS_FILE.read_text())
            if _covers(old, GRPC_PORT):
                return
            if self.pid_dir is not None:
                self.pid_dir.mkdir(parents=True, exist_ok=True)
                (self.pid_dir / RESERVED_RECORD).write_text(f"{GRPC_PORT}\n")
            RESERVED_PORTS_FILE.write_text(_format_ports(old + [(GRPC_PORT, GRPC_PORT)]) + "\n")
            self._reserved = True
        except OSError:
            pass                  # not writable here: the free-port wait below still holds

    def _unreserve_port(self) -> None:
        if self._reserved:
            _release_port(GRPC_PORT)
            self._reserved = False
        if self.pid_dir is not None:
            (self.pid_dir / RESERVED_RECORD).unlink(missing_ok=True)

    def _popen(self, name: str, argv: list[str], log) -> subprocess.Popen:
        # detached: a session of its own, so the switch outlives the command that started it
        p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=self._env(), cwd=self.log_dir,
                             start_new_session=self.detach)
        if self.pid_dir is not None:
            process.record(self.pid_dir, name, p.pid, argv)
        return p

    def _forget(self, name: str) -> None:
        if self.pid_dir is not None:
            process.forget(self.pid_dir, name)

    @staticmethod
    def recorded(pid_dir: Path) -> list[str]:
        """The processes recorded in ``pid_dir`` that still run (by PID and command line)."""
        return [n for n in ("switchd", "model") if process.running(Path(pid_dir), n)]

    @staticmethod
    def reap(pid_dir: Path) -> list[str]:
        """What a killed starter left in ``pid_dir``: stop its bf_switchd and model (by
        the recorded PID, only while that PID still runs the recorded command line) and
        put the recorded hugepages setting back. Returns what was done, for the log."""
        pid_dir, done = Path(pid_dir), []
        for name in ("switchd", "model"):
            rec = process.read_pid(pid_dir, name)
            if process.stop(pid_dir, name) and rec:
                done.append(f"stopped {name} (pid {rec[0]})")
        rec = pid_dir / HUGEPAGES_RECORD
        if rec.exists():
            try:
                old = int(rec.read_text())
            except ValueError:
                old = None
            if old is not None:
                _write_hugepages(old)
                done.append(f"vm.nr_hugepages back to {old}")
            rec.unlink(missing_ok=True)
        rec = pid_dir / RESERVED_RECORD
        if rec.exists():
            _release_port(GRPC_PORT)
            done.append(f"port {GRPC_PORT} out of net.ipv4.ip_local_reserved_ports")
            rec.unlink(missing_ok=True)
        return done

    # ---- life cycle --------------------------------------------------------------------------
    def start(self, timeout: float = START_TIMEOUT) -> "TofinoModelSwitch":
        why = missing()
        if why:
            raise SwitchStartError(why)
        conf, pmap = self._write_files()
        self._hugepages_up()
        self._reserve_port()
        try:
            self._start_model(conf, pmap, "model.log")
            time.sleep(2.0)
            if self.model.poll() is not None:
                raise SwitchStartError(f"tofino-model exited with {self.model.returncode} (see "
                                       f"{self.log_dir / 'model.log'})")
            self.start_switchd(timeout)
            self._apply_log_level()
        except BaseException:
            self.stop()
            raise
        return self

    def _apply_log_level(self) -> None:
        # the shell opens once bf_switchd has attached to the model (start_switchd returned)
        if self.p4_log_level is not None:
            tofino_model_shell.set_log_level(self.cli_port, self.p4_log_level, "P4")

    def _start_model(self, conf: Path, pmap: Path, log_name: str) -> None:
        argv = self.model_command(conf, pmap)
        if not self.trace:
            with open(self.log_dir / log_name, "w") as log:
                self.model = self._popen("model", argv, log)
            return
        # the trace goes to model_<time>.log: of the same on stdout keep the start-up only
        with open(self.log_dir / log_name, "w") as log:
            cap = subprocess.Popen(["sh", "-c", f"head -c {STDOUT_CAP}; exec cat > /dev/null"],
                                   stdin=subprocess.PIPE, stdout=log, cwd=self.log_dir,
                                   start_new_session=self.detach)
        try:
            self.model = self._popen("model", argv, cap.stdin)
        finally:
            cap.stdin.close()              # its end of the pipe is the model's: EOF when it exits

    def start_switchd(self, timeout: float = START_TIMEOUT) -> None:
        conf = self.log_dir / "switchd.conf"
        self.switchd_starts += 1
        name = "switchd.log" if self.switchd_starts == 1 else f"switchd.{self.switchd_starts}.log"
        _wait_port_free(GRPC_PORT, min(timeout, PORT_FREE_TIMEOUT))
        with open(self.log_dir / name, "w") as log:
            self.switchd = self._popen("switchd", self.switchd_command(conf), log)
        end = time.monotonic() + timeout
        exited = process.popen_exited(self.switchd)
        bind_failed = _LogWatch(self.log_dir / "bf_drivers.log", BFRT_BIND_FAILED)

        def why() -> str | None:
            if bind_failed.seen():
                return (f"its BfRt server could not bind port {GRPC_PORT} (held by: "
                        f"{_holders(GRPC_PORT) or 'nothing any more'})")
            return exited()
        try:
            process.wait_port(GRPC_PORT, timeout, why)
        except ProcError as e:
            raise SwitchStartError(f"bf_switchd: {e} (see {self.log_dir / name})") from None
        # the port answers before the device is up, and bf_switchd's log is block-buffered:
        # ask its BfRt server until it reports the device (with the program, if one was given)
        program = None if self.program_dir is None else (self.program_name or Path(self.program_dir).name)
        while not bfrt.server_ready(self.address, program=program):
            if self.switchd.poll() is not None or time.monotonic() > end:
                raise SwitchStartError(f"bf_switchd's BfRt server did not report the device"
                                       + (f" running {program!r}" if program else "") + f" in {timeout:.0f} s "
                                       f"(see {self.log_dir / name})")
            time.sleep(0.2)

    def stop_switchd(self) -> None:
        _stop(self.switchd)
        self.switchd = None
        self._forget("switchd")

    def restart(self, timeout: float = START_TIMEOUT) -> None:
        """A switch reboot: bf_switchd and the model stopped and started again (the model
        does not take a second driver: a bf_switchd restarted alone ends with dru_sim's
        "Receive failed", exit 3)."""
        self.stop_switchd()
        _stop(self.model)
        self.model = None
        conf, pmap = self.log_dir / "switchd.conf", self.log_dir / "ports.json"
        self._start_model(conf, pmap, f"model.{self.switchd_starts + 1}.log")
        time.sleep(2.0)
        self.start_switchd(timeout)
        self._apply_log_level()

    def alive(self) -> bool:
        return all(p is not None and p.poll() is None for p in (self.model, self.switchd))

    def stop(self) -> None:
        """bf_switchd, then the model (SIGTERM, SIGKILL after 5 s), then hugepages back."""
        self.stop_switchd()
        _stop(self.model)
        self.model = None
        self._forget("model")
        self._hugepages_restore()
        self._unreserve_port()

    def __enter__(self) -> "TofinoModelSwitch":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _write_hugepages(n: int) -> None:
    try:
        HUGEPAGES_FILE.write_text(f"{n}\n")
    except OSError:
        pass


def _parse_ports(text: str) -> list[tuple[int, int]]:
    """``ip_local_reserved_ports``'s list ("8080,50000-50010") as (first, last) ranges."""
    out = []
    for part in text.strip().split(","):
        if part.strip():
            lo, _, hi = part.strip().partition("-")
            out.append((int(lo), int(hi or lo)))
    return out


def _format_ports(ranges: list[tuple[int, int]]) -> str:
    return ",".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in sorted(ranges))


def _covers(ranges: list[tuple[int, int]], port: int) -> bool:
    return any(lo <= port <= hi for lo, hi in ranges)


def _release_port(port: int) -> None:
    """Take ``port`` alone out of ``ip_local_reserved_ports`` (the rest stays as it is)."""
    try:
        out = []
        for lo, hi in _parse_ports(RESERVED_PORTS_FILE.read_text()):
            if lo <= port <= hi:
                out += [r for r in ((lo, port - 1), (port + 1, hi)) if r[0] <= r[1]]
            else:
                out.append((lo, hi))
        RESERVED_PORTS_FILE.write_text(_format_ports(out) + "\n")
    except OSError:
        pass


def _holders(port: int) -> str:
    return ", ".join(f"{a}:{port} {st}" for a, st in process.tcp_sockets(port))


def _bindable(port: int) -> bool:
    """Whether a server could bind ``port`` now, as gRPC binds (SO_REUSEADDR: a server's own
    TIME-WAITs do not stop it; a client's connection that took the port, its TIME-WAIT, or a
    listener do). The trial socket is never connected, so it leaves nothing behind."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", port))
        except OSError:
            return False
    return True


def _wait_port_free(port: int, timeout: float) -> None:
    """Until a server could bind ``port`` (:func:`_bindable`): a client's connection that
    took it as its ephemeral port is short-lived; a server on it is another switch."""
    end = time.monotonic() + timeout
    while not _bindable(port):
        if any(st == "LISTEN" for _, st in process.tcp_sockets(port)):
            raise SwitchStartError(f"port {port} is taken by a server already ({_holders(port)}): another "
                                   f"bf_switchd? (one Tofino model switch per machine)")
        if time.monotonic() > end:
            held = _holders(port) or "nothing this network namespace lists"
            raise SwitchStartError(f"port {port} stayed held for {timeout:.0f} s ({held}); bf_switchd's BfRt "
                                   f"server needs it")
        time.sleep(0.5)


class _LogWatch:
    """Whether ``needle`` was written to the log file ``path`` since this watch began
    (reads only what was appended, at most every ``interval`` seconds; a rotated file is
    read from its start)."""

    def __init__(self, path: Path, needle: bytes, interval: float = 0.5):
        self.path, self.needle, self.interval = Path(path), needle, interval
        self.ino, self.offset, self.tail, self.next_read = None, 0, b"", 0.0
        try:
            st = self.path.stat()
            self.ino, self.offset = st.st_ino, st.st_size
        except FileNotFoundError:
            pass

    def seen(self) -> bool:
        now = time.monotonic()
        if now < self.next_read:
            return False
        self.next_read = now + self.interval
        try:
            with open(self.path, "rb") as f:
                st = os.fstat(f.fileno())
                if st.st_ino != self.ino or st.st_size < self.offset:
                    self.ino, self.offset, self.tail = st.st_ino, 0, b""
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return False
        self.offset += len(data)
        found = self.needle in self.tail + data
        self.tail = data[-len(self.needle):] if data else self.tail
        return found


def _stop(p: subprocess.Popen | None) -> None:
    if p is None or p.poll() is not None:
        return
    p.terminate()
    try:
        p.wait(5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait(5)


def have_bf_p4c() -> bool:
    return shutil.which("bf-p4c") is not None
