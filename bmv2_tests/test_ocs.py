"""The OCS emulator program forwards by the circuits of the current slice."""

from __future__ import annotations

from fabric import schedule, set_slice
from scapy.layers.l2 import Ether

from controller.tables import entries as ent
from controller.tables.tor_batch import ocs_batch, ocs_config_entry

D = 2


def test_ocs_forwards_by_current_slice_circuits(ocs):
    sw, client, dp, contract = ocs
    sched = schedule()
    client.write(ocs_batch(contract, sched))
    idle = 0
    for s in range(sched.n_slices):
        set_slice(dp, s)
        for a, u in ((0, 0), (3, 1), (6, 0), (7, 1)):
            b = int(sched.peer[s, a, u])
            frame = Ether(src="02:00:00:00:00:0a", dst="02:00:00:00:00:0b", type=0x9000) / bytes([s, a, u]) / bytes(50)
            dp.send(a * D + u, frame)
            if b >= 0:
                dp.expect(b * D + u, frame)
            else:
                idle += 1                      # that uplink has no circuit in this slice
        dp.expect_none()
    assert client.read_counters(contract, "ocs_drops") == {"no_circuit": idle, "bad_timer": 0, "unconfigured": 0}


def test_ocs_drops_and_counts_without_circuit(ocs):
    sw, client, dp, contract = ocs
    client.write(ent.circuit_entries(contract, schedule())[:1] + [ocs_config_entry(contract, 0)])
    set_slice(dp, 3)
    dp.send(5, Ether(type=0x9000) / bytes(50))
    dp.expect_none()
    assert client.read_counters(contract, "ocs_drops")["no_circuit"] == 1
