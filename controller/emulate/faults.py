"""Faults of an emulated fabric that no port state shows (docs/liveness.md "Measured"):
failures only the switches' liveness per circuit sees, written for real into the
switches' emulation-only fault registers over their Thrift runtime port (as
:mod:`controller.emulate.clockfault` writes a clock fault).

- **a dead OCS port in some slices** (``uro emulate fail port TOR UPLINK SLICE...``): the OCS
  emulator's ``port_fault`` cell of port ``tor * d + uplink`` gets bit s for each slice
  s: in those slices nothing enters or leaves that port (``ocs_drops[port_fault]``), in
  the others it works. Every circuit of ToR ``tor``'s uplink ``uplink`` in those slices
  is silent both ways; the cable stays up (no netlink event).
- **a ToR going by a wrong id** (``uro emulate fail id TOR AS``): the ToR's clock fault
  register ``id`` = AS + 1, so its sync messages name ToR AS as their sender (a
  misconfigured ToR); its peers hear a wrong peer on every circuit to it.

Pure checks (:func:`check_port`, :func:`check_id`) and the writes are separate.
"""

from __future__ import annotations

from controller.emulate import procs
from controller.errors import UroError


class FaultError(UroError):
    pass


def check_port(plan, n_slices: int, ids: list[int]) -> tuple[int, int, tuple[int, ...]]:
    """``ids`` = TOR UPLINK SLICE [SLICE...] -> (tor, uplink, sorted slices), or one
    :class:`FaultError` line naming the bad one."""
    if len(ids) < 3:
        raise FaultError(f"port {' '.join(map(str, ids))}: give TOR UPLINK and the slice(s) the port is dead in")
    tor, up, slices = ids[0], ids[1], ids[2:]
    if not 0 <= tor < plan.tors:
        raise FaultError(f"port {tor} {up}: ToR must be in 0..{plan.tors - 1}")
    if not 0 <= up < plan.uplinks:
        raise FaultError(f"port {tor} {up}: uplink must be in 0..{plan.uplinks - 1}")
    bad = [s for s in slices if not 0 <= s < n_slices]
    if bad:
        raise FaultError(f"port {tor} {up}: slice {bad[0]} is not a slice of the schedule (0..{n_slices - 1})")
    if len(set(slices)) != len(slices):
        raise FaultError(f"port {tor} {up}: slice listed twice in {' '.join(map(str, slices))}")
    return tor, up, tuple(sorted(slices))


def check_id(plan, ids: list[int]) -> tuple[int, int]:
    """``ids`` = TOR AS -> (tor, as), or one :class:`FaultError` line."""
    if len(ids) != 2:
        raise FaultError(f"id {' '.join(map(str, ids))}: give TOR and the id it goes by (AS)")
    tor, as_id = ids
    if not 0 <= tor < plan.tors:
        raise FaultError(f"id {tor} {as_id}: ToR must be in 0..{plan.tors - 1}")
    if not 0 <= as_id < plan.tors or as_id == tor:
        raise FaultError(f"id {tor} {as_id}: the wrong id must be another ToR's (0..{plan.tors - 1}, not {tor})")
    return tor, as_id


def port_register(contract: dict) -> dict:
    """The OCS contract's ``fault.registers.port``, or a clear error."""
    r = ((contract.get("fault") or {}).get("registers") or {}).get("port")
    if not r:
        raise FaultError("ocs: its program has no emulated port fault (no fault.registers.port in its contract): "
                         "rebuild the fabric")
    return r


def id_register(contract: dict, name: str) -> dict:
    """The ToR contract's ``clock.fault.registers.id``, or a clear error."""
    r = (((contract.get("clock") or {}).get("fault") or {}).get("registers") or {}).get("id")
    if not r:
        raise FaultError(f"{name}: its program has no emulated id fault (no clock.fault.registers.id in its "
                         "contract): rebuild the fabric")
    return r


def port_cell(plan, tor: int, up: int) -> int:
    """The OCS port of ToR ``tor``'s uplink ``up`` (the emulator's numbering)."""
    return tor * plan.uplinks + up


def _write(sw, values: dict, cli: procs.RuntimeCLI | None) -> None:
    if cli is None:
        procs.write_registers(sw.thrift_port, values, sw.name)
    else:
        cli.write_registers(values)


def set_port(plan, contract: dict, tor: int, up: int, slices: tuple[int, ...],
             cli: procs.RuntimeCLI | None = None) -> None:
    """The OCS port of (tor, up) dead in ``slices`` from now (empty: alive in every slice);
    ``cli``: a session open on the OCS emulator (a CLI's start costs seconds on a busy
    machine: a measurement opens it first)."""
    reg = port_register(contract)
    value = sum(1 << s for s in slices)
    _write(plan.switch("ocs"), {(reg["name"], port_cell(plan, tor, up)): value}, cli)


def set_id(plan, contract: dict, tor: int, as_id: int | None, cli: procs.RuntimeCLI | None = None) -> None:
    """ToR ``tor`` goes by id ``as_id`` from now (None: its own); ``cli`` as for :func:`set_port`."""
    sw = plan.switch(f"tor{tor}")
    reg = id_register(contract, sw.name)
    _write(sw, {(reg["name"], 0): 0 if as_id is None else as_id + 1}, cli)
