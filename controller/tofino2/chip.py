"""Facts about the Tofino2 chip the t2na program and the BfRt backend rely on.

Sources: the t2na architecture headers shipped with the compiler (``tofino2_base.p4``,
``tofino2_specs.p4``), the SDE's fixed-function BfRt schemas (``tf2.tm.*``,
``tf2.pktgen.*``) and shared/ARCHITECTURE.md "Target facts". Where a number is an
assumption rather than a documented fact it says so; every such number can be
overridden in the deployment settings (:mod:`controller.tofino2.settings`).
"""

from __future__ import annotations

#: dev_port is 9 bits: pipe (2 bits) + pipe-local port (7 bits)
PORT_BITS = 9
PIPES = 4
PIPE_LOCAL_PORTS = 128
#: TM queues of one egress port (ig_intr_md_for_tm.qid is 7 bits): URO §V, UCMP §6.2
MAX_QUEUES_PER_PORT = 128
#: a port group (tm_mac) has 8 channels and 128 physical queues (tf2.tm.port.group_cfg.pg_queues)
PORT_GROUP_CHANNELS = 8
PORT_GROUP_QUEUES = 128
#: default carving: 16 physical queues per channel, so pg_queue = channel * 16 + qid
#: (ARCHITECTURE.md: tm_mac_qid = (dev_port % 8) * 16 + qid)
DEFAULT_QUEUES_PER_CHANNEL = 16
#: pipe-local ports that can carry generated packets on Tofino2 (tna_pktgen: "ports 0-7")
PKTGEN_LOCAL_PORTS = range(0, 8)
#: the pktgen header that replaces the first 6 bytes of a generated packet
PKTGEN_HEADER_BYTES = 6
#: pktgen applications (tf2.pktgen.app_cfg holds 16)
PKTGEN_APPS = 16
#: bits of a stateful ALU word: the Full/Unfull queue state is split into words this wide
REGISTER_WORD_BITS = 32
#: Ethernet framing on the wire around a frame (preamble + SFD 8, inter-frame gap 12) and its FCS
WIRE_OVERHEAD_BYTES = 20
FCS_BYTES = 4
#: the largest frame the calendar queues are sized for (1500-byte IP MTU + Ethernet header + FCS)
MTU_FRAME_BYTES = 1518
#: MAU stages of one Tofino2 pipe (ingress and egress each)
MAU_STAGES = 20


def pipe_of(dev_port: int) -> int:
    return dev_port >> 7


def local_port(dev_port: int) -> int:
    return dev_port & 0x7F


def port_group(dev_port: int) -> int:
    """tm_mac_id: the port group (MAC) of a port within its pipe: (dev_port % 128) >> 3."""
    return local_port(dev_port) >> 3


def channel(dev_port: int) -> int:
    """The port's channel within its port group: dev_port % 8."""
    return dev_port & 0x7


def make_port(pipe: int, local: int) -> int:
    return (pipe << 7) | local
