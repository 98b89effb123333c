"""The t2na program's slice clock as the control plane sees it: its registers, the network
time they hold, and the register writes that seed it (docs/tofino2.md "The slice clock").

The data plane keeps the local time of the next slice boundary (``bound_reg.next``, the
low 32 bits of ``global_tstamp``), the slice id beside it, the slice number ``k``, the local
slice length (the rate) and, in ``tick_reg.now``, the local time of the packet generator's
last trigger. The control plane cannot read the switch's clock itself over BfRt, so the
last trigger's time stands for "now": it is at most one generator period old
(``clock.tick_ns`` in the contract), which is the uncertainty a read or a seed carries on
top of the RPC's round trip.

Pure functions; the BfRt calls are in :mod:`controller.agent.bfrt`.
"""

from __future__ import annotations

from dataclasses import dataclass

M32 = (1 << 32) - 1
#: a seed holds the next boundary this far from the last trigger while it writes the clock's
#: registers one by one, so that no trigger ticks a half-written clock (about 1 s)
FREEZE_NS = 1 << 30
#: the stratum of an unsynchronized clock (docs/clock.md)
UNSYNCED = 255
#: the stratum of the lead (synchronized with the controller)
LEAD = 1
#: registers whose value is a signed 32-bit number
SIGNED = ("offset", "delay")


class ClockRegisterError(ValueError):
    """The contract names no such clock register."""


@dataclass(frozen=True)
class RegisterRef:
    """Where one of the clock's values lives: register table ``name`` (``pipe.`` prefix
    not included), its data field (None: the register's single field), its cells."""

    short: str
    name: str
    field: str | None
    size: int


def register_refs(contract: dict) -> dict[str, RegisterRef]:
    """The clock's registers by their contract name (``clock.registers``)."""
    regs = contract.get("clock", {}).get("registers", {})
    return {short: RegisterRef(short, r["name"], r.get("field"), int(r.get("size", 1))) for short, r in regs.items()}


def signed32(v: int) -> int:
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def decode(values: dict[str, int]) -> dict[str, int]:
    """Register words as read -> the values they mean: signed where signed, and term and
    lead split out of ``term_lead``."""
    out = {k: (signed32(v) if k in SIGNED else int(v)) for k, v in values.items()}
    if "term_lead" in out:
        out["term"], out["lead"] = out["term_lead"] >> 16 & 0xFFFF, out["term_lead"] & 0xFFFF
    return out


def time_at(k: int, nxt: int, length: int, local: int) -> tuple[int, int]:
    """(k, phase) of local time ``local`` for a clock whose next boundary is at ``nxt`` in
    slice ``k`` of local length ``length`` (all 32-bit, wrap-aware): inside the slice,
    ``length - (nxt - local)``; at or past the boundary (the generator has not ticked it
    yet), the next slice's ``local - nxt``."""
    before = (nxt - local) & M32
    if before == 0 or before >= 1 << 31:
        return (k + 1) & M32, (local - nxt) & M32
    return k & M32, max(0, length - before)


def seed_writes(k: int, phase_ns: int, now: int, slice_ns: int, slices: int,
                reference: bool, lead: bool = False) -> list[tuple[str, int]]:
    """The register writes, in order, that set the clock to network time ``(k, phase_ns)``
    at local time ``now`` (the last trigger's): the boundary held away first, then the
    slice number, the tree (stratum 0 for the reference, 1 for ``lead``, the ToR the
    config names first among the leads in a program that keeps no election, else 255 so
    that the next exchange steps or corrects it; the last correction now, which the
    stratum's aging counts from; no refusals; the lead's freshness now), and last the
    next boundary at ``now + L - phase``. (short name, value) with ``next``/``slice`` the
    two fields of the boundary register; a program without the synchronization exchange
    keeps no tree registers (the caller writes what the contract names)."""
    if not 0 <= phase_ns < slice_ns:
        raise ValueError(f"phase {phase_ns} ns is outside a slice of {slice_ns} ns")
    sl = k % slices
    return [
        ("next", (now + FREEZE_NS) & M32), ("slice", sl),
        ("k", k & M32),
        ("stratum", 0 if reference else LEAD if lead else UNSYNCED), ("last_k", k & M32),
        ("refusals", 0), ("lead_k", k & M32),
        ("next", (now + slice_ns - phase_ns) & M32), ("slice", sl),
    ]
