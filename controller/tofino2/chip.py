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
#: the internal ports 0..7 that exist as recirculation/generator ports, per pipe. Pipe 0's
#: channels are: 0 PCIe CPU, 1 50G recirculation, 2-5 Ethernet CPU, 6-7 one 100G recirculation
#: port (SDE bf_pm_intf.c, Tofino2 branch; tna_pktgen/test.py uses 1 and 6 in pipe 0, 0/2/4/6
#: elsewhere). Port 7 of pipe 0 is not a port: a mirror to it goes nowhere.
INTERNAL_PORTS = {0: (1, 6)}
INTERNAL_PORTS_OTHER_PIPES = (0, 2, 4, 6)
#: the 6-byte pktgen header the generator PREPENDS to the buffer (and the 4-byte FCS it adds):
#: a generated frame is pkt_len + 10 bytes (SDE pipe_mgr_tof2_pktgen.c "Hardware will add 6
#: bytes of pgen header and 4 bytes of CRC"; tna_pktgen/test.py)
PKTGEN_HEADER_BYTES = 6
#: the smallest pkt_len Tofino2 accepts (PIPE_MGR_TOF2_PKTGEN_PKT_LEN_MIN 69 = pkt_len + 6 + 4)
PKTGEN_MIN_PKT_LEN = 59
#: port speeds of a Tofino2 port group: link Gb/s -> ($SPEED, $N_LANES, $FEC, channels it may
#: start at) (SDE bf_pm_intf.c pm_port_valid_speed_and_channel_internal, Tofino2 branch: 100G
#: needs 2 lanes with RS FEC at channel 0/2/4/6; odd channels hold at most 50G ports)
PORT_SPEEDS = {
    400: ("BF_SPEED_400G", 8, "BF_FEC_TYP_RS", (0,)),
    200: ("BF_SPEED_200G", 4, "BF_FEC_TYP_RS", (0, 4)),
    100: ("BF_SPEED_100G", 2, "BF_FEC_TYP_RS", (0, 2, 4, 6)),
    50: ("BF_SPEED_50G", 1, "BF_FEC_TYP_RS", tuple(range(8))),
    25: ("BF_SPEED_25G", 1, "BF_FEC_TYP_NONE", tuple(range(8))),
    10: ("BF_SPEED_10G", 1, "BF_FEC_TYP_NONE", tuple(range(8))),
}
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


def internal_ports(pipe: int) -> tuple[int, ...]:
    """Pipe-local ports 0..7 that are real recirculation/generator ports in ``pipe``."""
    return INTERNAL_PORTS.get(pipe, INTERNAL_PORTS_OTHER_PIPES)
