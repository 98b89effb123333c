"""Simulated fabrics started and stopped by uro: each server process
(:mod:`controller.simfabric.server`) runs under the project's switch-process wrapper
(:class:`~controller.agent.bmv2_process.Bmv2Switch`: a free port, a log file, waited for
until its port answers, stopped by its own PID), so nothing is ever found or killed by a
name pattern.

A :class:`SimFabric` of N devices in P processes gives ToR ``t`` device id ``t`` in the
process holding it; :meth:`SimFabric.address` says where. :meth:`SimFabric.check` refuses a
network config whose switches the fabric does not simulate (one line naming the switch).
"""

from __future__ import annotations

import sys
from pathlib import Path

from controller.agent.bmv2_process import Bmv2Switch
from controller.errors import UroError


class SimFabricError(UroError):
    pass


class SimFabricProcess(Bmv2Switch):
    """One server process simulating devices ``first .. first + count - 1``."""

    def __init__(self, log_dir: Path, name: str, first: int, count: int, *, grpc_port: int | None = None):
        # the wrapper's Thrift port is bmv2's; a simulated fabric has none (never bound)
        super().__init__(log_dir, name, grpc_port=grpc_port, thrift_port=-1)
        self.first, self.count = first, count

    def command(self) -> list[str]:
        return [sys.executable, "-m", "controller.simfabric", "--devices", f"{self.first}:{self.count}",
                "--address", self.address]

    def holds(self, device_id: int) -> bool:
        return self.first <= device_id < self.first + self.count


class SimFabric:
    """``devices`` simulated switches (device ids 0..devices-1) in ``processes`` server
    processes of about equal shares, logs in ``log_dir``. A context manager: stopped on exit."""

    def __init__(self, log_dir: Path, devices: int, processes: int = 1, name: str = "simfabric"):
        if devices < 1:
            raise SimFabricError(f"a simulated fabric needs at least one device, not {devices}")
        if not 1 <= processes <= devices:
            raise SimFabricError(f"{processes} processes for {devices} devices: give 1..{devices}")
        self.devices = devices
        share, extra = divmod(devices, processes)
        self.procs: list[SimFabricProcess] = []
        first = 0
        for i in range(processes):
            n = share + (i < extra)
            self.procs.append(SimFabricProcess(Path(log_dir), f"{name}{i}", first, n))
            first += n

    def start(self, timeout: float = 120.0) -> "SimFabric":
        self.procs[0].log_dir.mkdir(parents=True, exist_ok=True)
        try:
            for p in self.procs:
                p.start(wait=False)
            for p in self.procs:
                p.wait_started(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for p in self.procs:
            p.stop()

    def __enter__(self) -> "SimFabric":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def address(self, device_id: int) -> str:
        """The P4Runtime address of the process simulating ``device_id``."""
        for p in self.procs:
            if p.holds(device_id):
                return p.address
        raise SimFabricError(f"device {device_id} is not simulated (devices 0..{self.devices - 1})")

    def check(self, cfg) -> None:
        """Every switch of the network config ``cfg`` (:class:`~controller.daemon.config.NetConfig`)
        names a simulated device at the address that simulates it, and every simulated
        device is one switch; raises :class:`SimFabricError` naming the first that is not."""
        seen = set()
        for s in cfg.switches:
            where = f"{cfg.path}: switch {s.name!r}"
            if not 0 <= s.device_id < self.devices:
                raise SimFabricError(f"{where}: device_id {s.device_id} is not simulated: the fabric simulates "
                                     f"{self.devices} devices (0..{self.devices - 1})")
            if s.address != self.address(s.device_id):
                raise SimFabricError(f"{where}: address {s.address}: device {s.device_id} is simulated at "
                                     f"{self.address(s.device_id)}")
            if s.device_id in seen:
                raise SimFabricError(f"{where}: device_id {s.device_id} is another switch's too")
            seen.add(s.device_id)
        if len(seen) != self.devices:
            raise SimFabricError(f"{cfg.path}: {len(seen)} switches for a fabric simulating {self.devices} devices")
