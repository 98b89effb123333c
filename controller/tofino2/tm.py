"""The TM queue plan: calendar queues as Tofino2 TM queues (URO §IV-B, UCMP §6.2).

Every uplink port gets Q calendar queues; the packet's queue id (``ig_intr_md_for_tm.qid``)
is ``(active + rank) mod Q``. Queues are paused except the active one: at each slice
boundary the timer batch pauses the old active queue and resumes the next on every
uplink (:mod:`controller.tofino2.pktgen`), with AFC words (:mod:`controller.tofino2.afc`).

Queue carving: a port group (8 channels) has 128 physical queues, shared by its ports
(``tf2.tm.port.group`` action ``map``: ``port_queue_count`` per port and
``ingress_qid_map_<i>``). The plan gives each uplink Q queues and each other port of the
deployment in the same group ``other_port_queues``; the physical queues of a port are
assumed to follow the ports before it in channel order, which is the default carving
(16 per channel: pg_queue = channel * 16 + qid). The backend reads the real mapping back
(``tf2.tm.port.cfg.egress_qid_queues``) and builds the AFC words from it; this plan is
what it writes and what it expects.

All calendar queues are put in XOFF flow-control mode (``tf2.tm.queue.sched_cfg
.advanced_flow_control``) so AFC messages pause and resume them, and AFC is enabled on
the pipe (``tf2.tm.pipe.sched_cfg.advanced_flow_control_enable``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.errors import UroError
from controller.tofino2 import afc, chip


class QueuePlanError(UroError):
    pass


@dataclass(frozen=True)
class PortGroupPlan:
    pipe: int
    pg_id: int
    ports: tuple[int, ...]             # dev ports of the group in use, channel order
    queue_counts: tuple[int, ...]      # queues carved per port (same order)

    @property
    def total(self) -> int:
        return sum(self.queue_counts)

    def base(self, dev_port: int) -> int:
        i = self.ports.index(dev_port)
        return sum(self.queue_counts[:i])

    def ingress_qid_map(self, dev_port: int) -> list[int]:
        """Logical queue id -> port queue (128 items; ids past the carving map to the last)."""
        n = self.queue_counts[self.ports.index(dev_port)]
        return [min(q, n - 1) for q in range(chip.MAX_QUEUES_PER_PORT)]


@dataclass(frozen=True)
class QueuePlan:
    queues: int                                  # Q calendar queues per uplink
    uplink_ports: tuple[int, ...]                # dev port of uplink u
    groups: tuple[PortGroupPlan, ...]
    #: (dev_port, qid) -> physical queue in the port group; the switch's read-back may override
    pg_queues: dict = field(default_factory=dict)

    def group_of(self, dev_port: int) -> PortGroupPlan:
        for g in self.groups:
            if dev_port in g.ports:
                return g
        raise QueuePlanError(f"port {dev_port} is in no planned port group")

    def pg_queue(self, uplink: int, qid: int) -> int:
        return self.pg_queues[(self.uplink_ports[uplink], qid)]

    def word(self, uplink: int, qid: int, pause: bool) -> int:
        port = self.uplink_ports[uplink]
        return afc.port_word(port, self.pg_queue(uplink, qid), pause)


def plan_queues(queues: int, uplink_ports, other_ports=(), other_port_queues: int = 1,
                actual: dict | None = None) -> QueuePlan:
    """Carve ``queues`` calendar queues on every uplink port.

    ``other_ports`` are the deployment's other ports (hosts); those sharing a port group
    with an uplink keep ``other_port_queues`` queues. ``actual`` (optional) is the
    switch's read-back mapping {(dev_port, qid): pg_queue}; without it the default order
    is assumed. Raises :class:`QueuePlanError` naming the port group that cannot hold its
    queues (a port group has 128)."""
    uplink_ports = tuple(int(p) for p in uplink_ports)
    if not 1 <= queues <= chip.MAX_QUEUES_PER_PORT:
        raise QueuePlanError(f"queues = {queues}: a Tofino2 port has at most {chip.MAX_QUEUES_PER_PORT} queues")
    seen = set()
    for p in list(uplink_ports) + list(other_ports):
        if not 0 <= p < (1 << chip.PORT_BITS):
            raise QueuePlanError(f"dev port {p} is out of range 0..{(1 << chip.PORT_BITS) - 1}")
        if p in seen:
            raise QueuePlanError(f"dev port {p} is listed twice in the port map")
        seen.add(p)
    by_group: dict[tuple[int, int], list[int]] = {}
    for p in seen:
        by_group.setdefault((chip.pipe_of(p), chip.port_group(p)), []).append(p)
    groups = []
    pg_queues = {}
    ups = set(uplink_ports)
    for (pipe, pg), ports in sorted(by_group.items()):
        if not ups & set(ports):
            continue  # no calendar queues in this group: left as the switch has it
        ports = sorted(ports, key=chip.channel)
        counts = tuple(queues if p in ups else other_port_queues for p in ports)
        g = PortGroupPlan(pipe, pg, tuple(ports), counts)
        if g.total > chip.PORT_GROUP_QUEUES:
            desc = ", ".join(f"{p}:{c}" for p, c in zip(ports, counts))
            raise QueuePlanError(
                f"port group {pg} of pipe {pipe} needs {g.total} queues (port:queues {desc}), it has "
                f"{chip.PORT_GROUP_QUEUES}: spread the uplinks over more port groups or lower queues")
        groups.append(g)
        for p in ports:
            if p in ups:
                for q in range(queues):
                    pg_queues[(p, q)] = g.base(p) + q
    if actual is not None:
        for p in uplink_ports:
            for q in range(queues):
                if (p, q) not in actual:
                    raise QueuePlanError(f"the switch maps no physical queue to queue {q} of port {p}")
                pg_queues[(p, q)] = int(actual[(p, q)])
    return QueuePlan(queues, uplink_ports, tuple(groups), pg_queues)


# ---- the queue rotation --------------------------------------------------------------------
@dataclass(frozen=True)
class TimerEntry:
    """One entry of the data plane's ``timer_afc`` table: the timer packet
    (batch_id, packet_id) seen when the active queue (after the tick) is ``active``."""

    batch_id: int
    packet_id: int
    active: int
    pause: bool
    uplink: int
    queue: int          # the queue the word pauses (old active) or resumes (active)
    word: int


def timer_entries(plan: QueuePlan) -> list[TimerEntry]:
    """Every (batch, packet, active) the timer application can produce: batch 0 packet u
    pauses uplink u's previous queue (active - 1 mod Q), batch 1 packet u resumes its
    queue ``active``. 2 x d x Q entries."""
    out = []
    Q = plan.queues
    for a in range(Q):
        old = (a - 1) % Q
        for u in range(len(plan.uplink_ports)):
            out.append(TimerEntry(0, u, a, True, u, old, plan.word(u, old, True)))
        for u in range(len(plan.uplink_ports)):
            out.append(TimerEntry(1, u, a, False, u, a, plan.word(u, a, False)))
    return out


def rotation(plan: QueuePlan, ticks: int, start_active: int = 0) -> list[list[int]]:
    """The AFC words the timer sends at each of ``ticks`` slice boundaries, in generation
    order (batch 0 then batch 1, uplink 0..d-1), starting from active queue ``start_active``.
    With Q = S queue s serves slice s of every cycle; with Q > S a slice's queue moves on
    by S mod Q each cycle (calendar queues wrap at Q, not at S)."""
    table = {(e.batch_id, e.packet_id, e.active): e.word for e in timer_entries(plan)}
    out = []
    active = start_active
    d = len(plan.uplink_ports)
    for _ in range(ticks):
        active = (active + 1) % plan.queues
        out.append([table[(b, u, active)] for b in (0, 1) for u in range(d)])
    return out
