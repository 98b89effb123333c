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
    assert client.read_counters(contract, "ocs_drops") == {"no_circuit": idle, "bad_timer": 0, "unconfigured": 0,
                                                           "port_fault": 0}


def test_ocs_drops_and_counts_without_circuit(ocs):
    sw, client, dp, contract = ocs
    client.write(ent.circuit_entries(contract, schedule())[:1] + [ocs_config_entry(contract, 0)])
    set_slice(dp, 3)
    dp.send(5, Ether(type=0x9000) / bytes(50))
    dp.expect_none()
    assert client.read_counters(contract, "ocs_drops")["no_circuit"] == 1


def test_a_port_dead_in_some_slices_drops_in_and_out_of_it_there_only(ocs):
    """The emulated port fault (`uro emulate fail port 0 0 1`): ToR 0's uplink-0 port dead
    in slice 1 -- nothing enters or leaves it in slice 1 (counted port_fault), both
    directions; in the other slices it forwards; cleared, slice 1 forwards again."""
    from controller.emulate import procs

    sw, client, dp, contract = ocs
    sched = schedule()
    client.write(ocs_batch(contract, sched))
    reg = contract["fault"]["registers"]["port"]
    assert reg["bits"] == sched.n_slices and reg["size"] == 8 * D
    procs.write_registers(sw.thrift_port, {(reg["name"], 0 * D + 0): 1 << 1}, sw.name)
    b = int(sched.peer[1, 0, 0])
    assert b >= 0
    frame = Ether(src="02:00:00:00:00:0a", dst="02:00:00:00:00:0b", type=0x9000) / bytes(50)
    set_slice(dp, 1)
    dp.send(0 * D + 0, frame)                 # out of the dead port's ToR
    dp.send(b * D + 0, frame)                 # into it
    dp.expect_none()
    assert client.read_counters(contract, "ocs_drops")["port_fault"] == 2
    for s in (0, 2):                          # the other slices: its circuits work
        c = int(sched.peer[s, 0, 0])
        if c >= 0:
            set_slice(dp, s)
            dp.send(0 * D + 0, frame)
            dp.expect(c * D + 0, frame)
    a = int(sched.peer[1, 3, 1])              # another port in slice 1: untouched
    set_slice(dp, 1)
    dp.send(3 * D + 1, frame)
    dp.expect(a * D + 1, frame)
    procs.write_registers(sw.thrift_port, {(reg["name"], 0): 0}, sw.name)
    dp.send(0 * D + 0, frame)
    dp.expect(b * D + 0, frame)
    dp.expect_none()
    assert client.read_counters(contract, "ocs_drops")["port_fault"] == 2
