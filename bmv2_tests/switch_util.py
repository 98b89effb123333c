"""The simple_switch_grpc process the bmv2 tests drive over P4Runtime (used by conftest's
fixtures and by test modules directly)."""

from __future__ import annotations

from pathlib import Path

from controller.agent.bmv2_process import Bmv2Switch


class Switch(Bmv2Switch):
    """A simple_switch_grpc process with the P4Runtime client the tests drive it by;
    ``target_args`` go after ``--`` (e.g. ``--cpu-port``, TLS options)."""

    def __init__(self, ifaces: list[str], log: Path, target_args: list[str] = ()):
        super().__init__(log.parent, log.stem, ifaces, target_args)
        self.client = None
        self.start(wait=False)

    def connect(self, p4info, bmv2_json, contract):
        from controller.agent.p4runtime import P4RuntimeClient

        self.wait_started(20)           # raises, naming the switch, if the process exits first
        self.client = P4RuntimeClient(f"127.0.0.1:{self.grpc_port}", timeout=20)
        self.client.set_pipeline(p4info, bmv2_json)
        self.client.check_contract(contract)
        return self.client

    def stop(self):
        if self.client:
            self.client.close()
        super().stop()


