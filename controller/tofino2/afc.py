"""Advanced flow control (AFC) words: pause and resume one TM queue from the data plane.

A t2na program writes a 32-bit word into ``ig_intr_md_for_dprsr.adv_flow_ctl``; the TM
then pauses or resumes one queue (URO §IV-B: "Queue pausing/resuming can be triggered by
any packet in the data plane"). The layout (shared/ARCHITECTURE.md "Target facts", and
the ``adv_flow_ctl`` comments of the SDE's AFC examples)::

    bit  31     afc (qfc): 1 = this word is a flow-control message
    bits 30..29 tm_pipe_id: the egress pipe of the port
    bits 28..25 tm_mac_id: the port group (MAC) of the port in its pipe, (dev_port % 128) >> 3
    bits 24..22 padding (0)
    bits 21..15 tm_mac_qid: the physical queue in the port group (pg_queue)
    bits 14..0  credit: 1 = pause (XOFF), 0 = resume

The physical queue of (port, queue id) comes from the TM's queue carving: with the
default carving of 16 queues per channel it is ``(dev_port % 8) * 16 + qid``; the queue
plan (:mod:`controller.tofino2.tm`) gives it for the carving the profile needs, and the
backend checks it against the switch's own ``tf2.tm.port.cfg.egress_qid_queues``.
"""

from __future__ import annotations

from controller.errors import UroError
from controller.tofino2 import chip

PAUSE = 1
RESUME = 0


class AfcError(UroError):
    pass


def afc_word(pipe: int, pg_id: int, pg_queue: int, pause: bool) -> int:
    """The 32-bit AFC message pausing (or resuming) physical queue ``pg_queue`` of port
    group ``pg_id`` in egress pipe ``pipe``."""
    if not 0 <= pipe < chip.PIPES:
        raise AfcError(f"AFC: pipe {pipe} out of range 0..{chip.PIPES - 1}")
    if not 0 <= pg_id < 16:
        raise AfcError(f"AFC: port group {pg_id} out of range 0..15")
    if not 0 <= pg_queue < chip.PORT_GROUP_QUEUES:
        raise AfcError(f"AFC: physical queue {pg_queue} out of range 0..{chip.PORT_GROUP_QUEUES - 1}")
    return (1 << 31) | (pipe << 29) | (pg_id << 25) | (pg_queue << 15) | (PAUSE if pause else RESUME)


def decode(word: int) -> dict:
    """The fields of an AFC word (for logs and tests)."""
    return {"afc": word >> 31, "pipe": (word >> 29) & 0x3, "pg_id": (word >> 25) & 0xF,
            "pad": (word >> 22) & 0x7, "pg_queue": (word >> 15) & 0x7F, "credit": word & 0x7FFF}


def default_pg_queue(dev_port: int, qid: int) -> int:
    """Physical queue of ``qid`` on ``dev_port`` under the default carving (16 per channel)."""
    if not 0 <= qid < chip.DEFAULT_QUEUES_PER_CHANNEL:
        raise AfcError(f"AFC: queue {qid} of port {dev_port} is beyond the default carving of "
                       f"{chip.DEFAULT_QUEUES_PER_CHANNEL} queues per port")
    return chip.channel(dev_port) * chip.DEFAULT_QUEUES_PER_CHANNEL + qid


def port_word(dev_port: int, pg_queue: int, pause: bool) -> int:
    """AFC word for a physical queue of ``dev_port``'s port group."""
    return afc_word(chip.pipe_of(dev_port), chip.port_group(dev_port), pg_queue, pause)
