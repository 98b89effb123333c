"""Helpers of the daemon's reliability tests on real simple_switch_grpc: switch and
daemon processes (started and stopped by PID), a network config on disk, the switch's
own view over Thrift (simple_switch_CLI: an out-of-band channel that does not disturb
the daemon's P4Runtime session), and the status API."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from controller.agent.bmv2_process import Bmv2Switch

REPO = Path(__file__).resolve().parents[1]


def need_daemon_stack() -> None:
    """The daemon drives the switches through the bmv2 backend (the ``agent`` extra: grpcio,
    finsy) and serves metrics (the ``daemon`` extra: prometheus_client): skip (visibly) only
    where an extra is not installed. A backend that is installed but does not load is a
    failure, not a skip."""
    for module, extra in (("grpc", "agent"), ("finsy", "agent"), ("prometheus_client", "daemon")):
        pytest.importorskip(module, reason=f"needs the {extra} extra: pip install -e '.[{extra}]'")
    from controller.agent.backend import backend_for

    backend_for("bmv2")


class SwitchProc(Bmv2Switch):
    """One simple_switch_grpc on fixed ports (so a restart comes back at the same address),
    with its CPU port where the daemon's timers enter and its Thrift view."""

    def __init__(self, log_dir: Path, name: str, ifaces: list[str] = (), cpu_port: int | None = 510):
        super().__init__(log_dir, name, ifaces, cpu_port=cpu_port)

    def cli(self, *commands: str) -> str:
        """simple_switch_CLI commands (Thrift): the switch's own view."""
        r = subprocess.run(["simple_switch_CLI", "--thrift-port", str(self.thrift_port)],
                           input="\n".join(commands) + "\n", capture_output=True, text=True, timeout=60)
        return r.stdout

    def table_count(self, table: str) -> int:
        out = self.cli(f"table_num_entries {table}")
        for line in out.splitlines():
            if "RuntimeCmd:" in line and line.strip().split()[-1].isdigit():
                return int(line.strip().split()[-1])
        raise AssertionError(f"no entry count for {table} in {out!r}")


def write_net(path: Path, programs: dict, switches: list[dict], *, routing: str | None = None,
              status_port: int, election_id: int = 10, reconcile_s: float = 30, clock: str | None = None,
              schedule: str = 'generate = "round-robin"\ntors = 8\nuplinks = 2') -> Path:
    """A net.toml; ``programs``: {role: (p4info, device_config, contract path)}."""
    lines = ['name = "bmv2-test"', "[schedule]", schedule, "[routing]",
             routing or 'source_routed = []\n[routing.per_hop]\nk = 3\nmax_hops = 4',
             "[clock]", clock or "slice_ms = 100\ncapacity_bytes = 100000000\nbytes_per_us = 0",
             "[daemon]", f'status = "127.0.0.1:{status_port}"', f"reconcile_s = {reconcile_s}", "reconnect_s = 0.3",
             f"election_id = {election_id}", "rpc_timeout_s = 3", "[tls]", "insecure = true"]
    for role, (p4info, js, contract) in programs.items():
        lines += [f"[program.{role}]", f'contract = "{contract}"', f'p4info = "{p4info}"', f'device_config = "{js}"']
    for s in switches:
        lines.append("[[switch]]")
        for k, v in s.items():
            if k != "ports":
                lines.append(f"{k} = {json.dumps(v)}")
        if "ports" in s:
            lines.append("[switch.ports]")
            lines += [f"{k} = {json.dumps(v)}" for k, v in s["ports"].items()]
    path.write_text("\n".join(lines) + "\n")
    return path


class DaemonProc:
    """`uro daemon` as a subprocess; its structured log is read back line by line."""

    def __init__(self, config: Path, log_dir: Path, name: str = "daemon"):
        self.config, self.status_port = config, None
        self.err_path = log_dir / f"{name}.err"
        self.err = open(self.err_path, "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "daemon", "--config", str(config)],
                                     stdout=subprocess.DEVNULL, stderr=self.err, cwd=REPO,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self._pos = 0

    def events(self) -> list[dict]:
        out = []
        for line in self.err_path.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                out.append({"event": "raw", "text": line})
        return out

    def wait_event(self, event: str, timeout: float = 60.0, **match) -> dict:
        end = time.time() + timeout
        while time.time() < end:
            for e in self.events():
                if e.get("event") == event and all(e.get(k) == v for k, v in match.items()):
                    return e
            if self.proc.poll() is not None:
                raise AssertionError(f"daemon exited ({self.proc.returncode}) before {event}: "
                                     f"{self.err_path.read_text()[-2000:]}")
            time.sleep(0.02)
        raise AssertionError(f"no {event} {match} within {timeout}s: {self.err_path.read_text()[-2000:]}")

    def signal(self, sig) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, sig)

    def stop(self, timeout: float = 60.0) -> int:
        """SIGTERM, then its exit status (SIGKILL, -9, after ``timeout``): a test asserting 0
        checks that the daemon stops by itself, not how fast -- on a loaded machine its
        shutdown (each thread joined for up to 5 s, a reconcile of a (108, 6) switch in
        progress) takes longer than 15 s. After SIGKILL it waits until the process is gone
        (at load 100 that took longer than 5 s, and a raise here left the caller's switches
        running)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(120)
        self.err.close()
        return self.proc.returncode


def status(port: int, timeout: float = 10.0) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=timeout) as r:
        return json.loads(r.read())


def token_of(config: Path) -> str:
    """The API token the daemon made next to its config (writes need it)."""
    return config.with_name(config.stem + ".token").read_text().strip()


def post(port: int, op: str, body: dict, token: str, timeout: float = 120.0) -> dict:
    req = urllib.request.Request(f"http://127.0.0.1:{port}/{op}", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def until(fn, timeout: float = 30.0, what: str = "condition"):
    end = time.time() + timeout
    last = None
    while time.time() < end:
        try:
            v = fn()
            if v:
                return v
        except Exception as e:  # noqa: BLE001 - e.g. the API not up yet
            last = e
        time.sleep(0.05)
    raise AssertionError(f"{what} not reached within {timeout}s (last error: {last})")


def switch_state(address: str, program: tuple, name: str = "check"):
    """Read a switch's whole state as primary (only once no daemon holds it)."""
    from controller.agent.backend import SwitchAddress, backend_for

    p4info, js, contract_path = program
    contract = json.loads(Path(contract_path).read_text())
    pipe = backend_for("bmv2").pipeline(contract["program"], contract,
                                        {"p4info": Path(p4info), "device_config": Path(js)})
    b = backend_for("bmv2")(SwitchAddress(name=name, address=address, election_id=1000, timeout_s=5))
    b.connect()
    try:
        cookie = b.pipeline_cookie()
        if cookie is None:
            return None, None
        assert cookie == pipe.cookie, "the switch runs another program"
        assert b.set_pipeline(pipe) is False        # adopt: entries kept
        return b.read_state(), contract
    finally:
        b.close()
