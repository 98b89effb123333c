"""The slice-timer packet of the generated programs, as the controller sends it.

A timer is an Ethernet frame with EtherType ``0x88B5`` and ``slice:16, flags:16``
(flag ``sync`` = 1: set the clock to this slice whatever the step). On bmv2 it reaches
the switch as a P4Runtime PacketOut with ``packet_out.opcode = timer`` (the CPU port);
from any other port the switch drops it (``drops[bad_timer]``). Formats and opcodes
come from the pipeline contract (``timer``, ``packet_io``), so nothing is typed twice::

    client.packet_out(timer_frame(contract, s), timer_metadata(contract))
"""

from __future__ import annotations

import struct

from controller.errors import UroError

#: Ethernet addresses of timer frames (locally administered; the switch ignores them)
TIMER_SRC_MAC = bytes.fromhex("020000000001")
BROADCAST = b"\xff" * 6


def timer_frame(contract: dict, slice_id: int, sync: bool = False) -> bytes:
    """The timer frame for ``slice_id`` (padded to the 60-byte Ethernet minimum)."""
    t = contract["timer"]
    slices = contract["profile"]["slices"]
    if not isinstance(slice_id, int) or not 0 <= slice_id < min(slices, 1 << 16):
        raise UroError(f"timer slice {slice_id!r} out of 0..{slices - 1}")
    flags = t["flags"]["sync"] if sync else 0
    frame = BROADCAST + TIMER_SRC_MAC + struct.pack("!HHH", t["ethertype"], slice_id, flags)
    return frame + bytes(max(0, 60 - len(frame)))


def timer_metadata(contract: dict) -> dict[str, int]:
    """The PacketOut metadata of a timer (bmv2: ``{"opcode": 0}``, also what a client sends without metadata)."""
    return {"opcode": contract["packet_io"]["opcodes"]["timer"]}


def sync_metadata(contract: dict) -> dict[str, int]:
    """The PacketOut metadata of a sync message (PROBE, SEED: ``controller.clock.message``)."""
    return {"opcode": contract["packet_io"]["opcodes"]["sync"]}
