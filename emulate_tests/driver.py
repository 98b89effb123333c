"""TEST-ONLY stand-in for the controller daemon on an emulated fabric.

Until `uro daemon` (issue 11) is on this branch, the end-to-end tests need something
that programs the switches and sends the slice timer. This helper does the minimum,
with the existing P4Runtime client: pipeline + the tables of every ToR
(:func:`controller.tables.tor_batch.tor_batch`) and the OCS circuits, then one timer
per slice to every switch as a P4Runtime PacketOut on the CPU port (the daemon's
mechanism). It is not part of the product and handles no failure, reconnect or
route generation; the tests use the daemon instead as soon as it is available.
"""

from __future__ import annotations

import threading
import time

from controller.agent.p4runtime import P4RuntimeClient
from controller.emulate.network import Network
from controller.emulate.plan import Plan
from controller.tables import entries as ent
from controller.tables.tor_batch import tor_batch

class TestDriver:
    def __init__(self, plan: Plan, net: Network, arts: dict, ocs_first: bool = True):
        self.ocs_first = ocs_first
        self.plan, self.net, self.arts = plan, net, arts
        self.clients: dict[str, P4RuntimeClient] = {}
        self.ticks: list[tuple[float, int]] = []     # (monotonic time, slice) of every timer round
        self.failed_sends = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.slice_s = net.cfg.slice_ms / 1000.0
        self.S = net.n_slices

    # ---- tables ----------------------------------------------------------------------------
    def program(self) -> None:
        cfg = self.net.cfg
        # OCS first: it is the element every slice boundary must move first (see timer below)
        order = [self.plan.ocs] + self.plan.tor_switches
        for sw in order:
            a = self.arts[sw.role]
            c = P4RuntimeClient(sw.grpc_address, device_id=sw.device_id, timeout=10)
            c.set_pipeline(a.p4info, a.device_config)
            contract = a.contract
            c.check_contract(contract)
            if sw.role == "ocs":
                c.write(ent.circuit_entries(contract, self.net.schedule))
            else:
                c.write(tor_batch(contract, sw.tor, self.net.uro_routes, self.net.path_routes,
                                  cfg.routing.source_routed))
            self.clients[sw.name] = c

    # ---- slice clock ---------------------------------------------------------------------------
    def _send(self, name: str, slice_id: int) -> None:
        self.clients[name].send_timer(slice_id)    # PacketOut on the session's stream

    def _run(self) -> None:
        t0 = time.monotonic()
        k = 0
        tors = [s.name for s in self.plan.tor_switches]
        names = ["ocs"] + tors if self.ocs_first else tors + ["ocs"]
        while not self._stop.is_set():
            s = k % self.S
            for n in names:          # OCS first: held packets released at the boundary find the new circuits
                if n in self.clients:
                    try:
                        self._send(n, s)
                    except Exception:    # a stopped switch (failure drill): the others keep their clock
                        self.failed_sends += 1
            self.ticks.append((time.monotonic(), s))
            k += 1
            delay = t0 + k * self.slice_s - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)

    def start_clock(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True, name="emu-timer")
        self._thread.start()

    def current(self) -> tuple[float, int]:
        return self.ticks[-1] if self.ticks else (0.0, -1)

    def wait_slice(self, slice_id: int, into: float = 0.2, timeout: float = 10.0) -> float:
        """Return ``into`` x slice after the next boundary where slice ``slice_id`` starts."""
        end = time.monotonic() + timeout
        n0 = len(self.ticks)
        while time.monotonic() < end:
            if len(self.ticks) > n0 and self.ticks[-1][1] == slice_id:
                t, _ = self.ticks[-1]
                time.sleep(max(0.0, t + into * self.slice_s - time.monotonic()))
                return t
            time.sleep(0.002)
        raise AssertionError(f"slice {slice_id} did not start within {timeout}s")

    def counters(self, name: str) -> dict:
        sw = self.plan.switch(name)
        c = self.arts[sw.role].contract
        return {k: self.clients[name].read_counters(c, k) for k in c["counters"]}

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(5)
        for c in self.clients.values():
            try:
                c.close()
            except Exception:
                pass
        self.clients.clear()
