"""Everything a Tofino2 ToR needs written besides its route tables, as BfRt writes.

Given the compiled program's contract (which carries the target's tables and state
names), the deployment's port map (:mod:`controller.tofino2.settings`) and the TM queue
plan (:mod:`controller.tofino2.tm`), :func:`switch_plan` lists, in the order they must be
written:

0. the ToR's ports, added and enabled at the link speed (``$PORT``);
1. TM: advanced flow control on the pipe, the queue carving of every port group with an
   uplink, XOFF flow-control mode on every calendar queue;
2. the mirror session that carries queue-state updates to the recirculation port;
3. the program's own target tables: port roles, port map, the timer's AFC words
   (``timer_afc``: 2 x d x Q entries), the port-down marks (``down_port``: d x Q), and the
   parser value sets of the generator and recirculation ports;
4. the packet generator: the timer and port-down applications, their packet buffers, the
   port-down mask, and the generator port -- the applications enabled last.

The route tables and the ``config`` entry come from the table writer; the backend writes
``config`` after everything here has run for a whole queue cycle (Q slices), so the TM
rotation is in its steady state (one queue resumed per uplink) before traffic is admitted.

Fixed-function table and field names are the SDE's ``tf2.tm.*``, ``tf2.pktgen.*`` and
``$mirror.cfg`` BfRt schemas; they are checked against the switch's schema at write time
by the backend, not here (the compiler's bfrt.json does not hold them).
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.tofino2 import chip, pktgen, tm
from controller.tofino2.bfrt_json import KeyField, Write
from controller.tofino2.settings import PortMap

#: BfRt names of the fixed functions (SDE bf_rt_tm_tf2.json, bf_rt_pktgen_tf2.json, mirror)
TM_PIPE_SCHED = "tf2.tm.pipe.sched_cfg"
TM_PORT_GROUP = "tf2.tm.port.group"
TM_QUEUE_SCHED = "tf2.tm.queue.sched_cfg"
TM_PORT_CFG = "tf2.tm.port.cfg"
PKTGEN_PORT = "tf2.pktgen.port_cfg"
PKTGEN_APP = "tf2.pktgen.app_cfg"
PKTGEN_BUFFER = "tf2.pktgen.pkt_buffer"
PKTGEN_MASK = "tf2.pktgen.port_mask"
MIRROR_CFG = "$mirror.cfg"
PORT_TABLE = "$PORT"
#: bytes of a mirror copy the session keeps: a queue-state update (qupd header + a little),
#: a clock update, or a RESP on its way to the servo (its 24-byte sync_eval_t + the 66-byte
#: sync frame: docs/tofino2.md "The exchange: the requester and the servo")
QUPD_MAX_LEN = 96


def _k(name: str, value: int) -> tuple[KeyField, ...]:
    return (KeyField(name, value),)


@dataclass(frozen=True)
class SwitchPlan:
    ports: tuple[Write, ...]
    tm: tuple[Write, ...]
    mirror: tuple[Write, ...]
    tables: tuple[Write, ...]
    pktgen: tuple[Write, ...]
    enable: tuple[Write, ...]
    timer: pktgen.TimerPlan
    queues: tm.QueuePlan

    def writes(self) -> list[Write]:
        return [*self.ports, *self.tm, *self.mirror, *self.tables, *self.pktgen, *self.enable]


def target_table_writes(contract: dict, pm: PortMap, qp: tm.QueuePlan) -> list[Write]:
    """Entries of the program's target-only tables (names from the contract)."""
    tt = contract["target_tables"]
    ctl = tt["port_role"]["name"].split(".")[0]
    Q = qp.queues
    out: list[Write] = []
    role = "pipe." + tt["port_role"]["name"]
    for h, port in enumerate(pm.hosts):
        out.append(Write(role, _k("ingress_port", port), f"{ctl}.role_host", (("index", h),)))
    for u, port in enumerate(pm.uplinks):
        out.append(Write(role, _k("ingress_port", port), f"{ctl}.role_uplink", (("uplink", u),)))
    pmap = "pipe." + tt["port_map"]["name"]
    for h, port in enumerate(pm.hosts):
        out.append(Write(pmap, (KeyField("local", 1), KeyField("host_port", h), KeyField("uplink", 0)),
                         f"{ctl}.to_port", (("dev_port", port),)))
    for u, port in enumerate(pm.uplinks):
        out.append(Write(pmap, (KeyField("local", 0), KeyField("host_port", 0), KeyField("uplink", u)),
                         f"{ctl}.to_port", (("dev_port", port),)))
    down = "pipe." + tt["down_port"]["name"]
    for u, port in enumerate(pm.uplinks):
        for q in range(Q):
            out.append(Write(down, (KeyField("port_num", port), KeyField("packet_id", q)), f"{ctl}.mark_down",
                             (("upmask", 1 << u), ("qidx", u * 256 + q))))
    timer = "pipe." + tt["timer_afc"]["name"]
    for e in tm.timer_entries(qp):
        key = (KeyField("batch_id", e.batch_id), KeyField("packet_id", e.packet_id), KeyField("active", e.active))
        if e.pause:
            out.append(Write(timer, key, f"{ctl}.timer_pause",
                             (("afc", e.word), ("qidx", e.uplink * 256 + e.queue), ("upmask", 1 << e.uplink),
                              ("upbit", 1 << e.uplink))))
        else:
            out.append(Write(timer, key, f"{ctl}.timer_resume", (("afc", e.word),)))
    if "sync_req" in tt:        # batch 1 packet u of the timer may leave as a REQ on uplink u
        req = "pipe." + tt["sync_req"]["name"]
        for u, port in enumerate(pm.uplinks):
            out.append(Write(req, _k("packet_id", u), f"{ctl}.req_out", (("dev_port", port), ("uplink", u))))
    vs = contract["target_state"]["parser_value_sets"]
    out.append(Write("pipe." + vs["pktgen_ports"], (KeyField("f1", pm.pktgen_dev_port, mask=0x1FF),)))
    out.append(Write("pipe." + vs["recirc_ports"], (KeyField("f1", pm.recirc_dev_port, mask=0x1FF),)))
    return out


def port_group_map(g: tm.PortGroupPlan) -> tuple[tuple[str, object], ...]:
    """Data of ``tf2.tm.port.group`` action ``map``: ``port_queue_count`` has one item per
    CHANNEL of the group (8; SDE bf_rt_tm_table_impl_portgroup.cpp refuses any other
    length) and ``ingress_qid_map_<c>`` is the map of channel c. Channels without a
    deployment port get no queue (count 0, an all-zero map: the SDE wants a map for every
    channel whose count changes), so the group's sum stays <= 128."""
    counts = [0] * chip.PORT_GROUP_CHANNELS
    maps = {c: (0,) * chip.MAX_QUEUES_PER_PORT for c in range(chip.PORT_GROUP_CHANNELS)}
    for port, n in zip(g.ports, g.queue_counts):
        counts[chip.channel(port)] = n
        maps[chip.channel(port)] = tuple(g.ingress_qid_map(port))
    return (("port_queue_count", tuple(counts)),
            *((f"ingress_qid_map_{c}", maps[c]) for c in sorted(maps)))


def tm_writes(pm: PortMap, qp: tm.QueuePlan) -> list[Write]:
    """AFC on the pipe, the carving of every port group with an uplink, XOFF on every
    calendar queue (the data plane's AFC words pause and resume them). Every tf2.tm.*
    write targets the ToR's pipe: the SDE refuses the all-pipes target there
    (bf_rt_tm_table_impl.cpp singlePipe_validate)."""
    p = pm.pipe
    out = [Write(TM_PIPE_SCHED, (), None, (("advanced_flow_control_enable", True),), default=True, pipe=p)]
    for g in qp.groups:
        out.append(Write(TM_PORT_GROUP, _k("pg_id", g.pg_id), "map", port_group_map(g), pipe=p))
    for u, port in enumerate(qp.uplink_ports):
        for q in range(qp.queues):
            out.append(Write(TM_QUEUE_SCHED, (KeyField("pg_id", chip.port_group(port)),
                                              KeyField("pg_queue", qp.pg_queue(u, q))), None,
                             (("advanced_flow_control", "XOFF"),), pipe=p))
    return out


def port_writes(pm: PortMap, link_gbps: float) -> list[Write]:
    """``$PORT`` entries adding and enabling every port of the ToR at the profile's link
    speed (bf_switchd adds no front-panel port by itself; the TM carving gets its hardware
    when the port exists). 100G is 2 lanes with RS FEC: channels 0/2/4/6 only (the port
    map's check)."""
    speed, lanes, fec, _ = chip.PORT_SPEEDS[int(link_gbps)]
    return [Write(PORT_TABLE, _k("$DEV_PORT", port), None,
                  (("$SPEED", speed), ("$N_LANES", lanes), ("$FEC", fec), ("$PORT_ENABLE", True)))
            for port in (*pm.uplinks, *pm.hosts)]


def mirror_writes(pm: PortMap, session: int) -> list[Write]:
    return [Write(MIRROR_CFG, _k("$sid", session), "$normal", (
        ("$direction", "INGRESS"), ("$session_enable", True), ("$ucast_egress_port", pm.recirc_dev_port),
        ("$ucast_egress_port_valid", True), ("$max_pkt_len", QUPD_MAX_LEN)))]


def pktgen_writes(plan: pktgen.TimerPlan, pm: PortMap, queues: int) -> tuple[list[Write], list[Write]]:
    """(configuration, enables) of the timer and port-down applications."""
    src, p = pm.pktgen_dev_port, pm.pipe
    down_offset = pktgen.buffer_offset_after(pktgen.TIMER_BUFFER_OFFSET, plan.pkt_len)
    timer = pktgen.timer_app_config(plan, src)
    down = pktgen.port_down_app_config(src, packets=queues, pkt_len=plan.pkt_len, buffer_offset=down_offset)
    # every tf2.pktgen.* table holds its entries already: mod only (bf_rt_pktgen_tf2.json);
    # written for the ToR's pipe only (the generator of each pipe is its own)
    cfg = [
        Write(PKTGEN_PORT, _k("dev_port", src), None, (("pktgen_enable", True),), pipe=p),
        Write(PKTGEN_BUFFER, (KeyField("pkt_buffer_offset", pktgen.TIMER_BUFFER_OFFSET),
                              KeyField("pkt_buffer_size", timer["pkt_len"])), None,
              (("buffer", pktgen.timer_packet(timer["pkt_len"])),), pipe=p),
        Write(PKTGEN_BUFFER, (KeyField("pkt_buffer_offset", down_offset),
                              KeyField("pkt_buffer_size", down["pkt_len"])), None,
              (("buffer", pktgen.timer_packet(down["pkt_len"])),), pipe=p),
        Write(PKTGEN_MASK, _k("port_mask_sel", 0), None, (("mask", pktgen.port_down_mask(pm.uplinks)),), pipe=p),
        Write(PKTGEN_APP, _k("app_id", pktgen.TIMER_APP_ID), "trigger_timer_periodic", tuple(timer.items()), pipe=p),
        Write(PKTGEN_APP, _k("app_id", pktgen.PORT_DOWN_APP_ID), "trigger_port_down", tuple(down.items()), pipe=p),
    ]
    for port in pm.uplinks:   # a port that went down re-arms its port-down event when it is cleared
        cfg.append(Write(PKTGEN_PORT, _k("dev_port", port), None, (("clear_port_down_enable", True),), pipe=p))
    enable = [
        Write(PKTGEN_APP, _k("app_id", pktgen.PORT_DOWN_APP_ID), "trigger_port_down", (("app_enable", True),),
              pipe=p),
        Write(PKTGEN_APP, _k("app_id", pktgen.TIMER_APP_ID), "trigger_timer_periodic", (("app_enable", True),),
              pipe=p),
    ]
    return cfg, enable


def switch_plan(contract: dict, pm: PortMap, profile, actual_queues: dict | None = None) -> SwitchPlan:
    """All fixed-function and target-table writes of one ToR (see module docstring).

    ``actual_queues`` is the switch's read-back {(dev_port, qid): pg_queue}; the AFC words
    are built from it when given (else from the planned carving)."""
    qp = pm.check(profile)
    if actual_queues is not None:
        qp = tm.plan_queues(profile.queues, pm.uplinks, pm.hosts, pm.other_port_queues, actual=actual_queues)
    t = profile.timing
    # the generator's grid is the compiled program's (the contract's timer plan)
    ticks = contract.get("target_state", {}).get("timer", {}).get("ticks")
    corrected = contract.get("clock", {}).get("slice_clock", "corrected") == "corrected"
    plan = pktgen.timer_plan(t.slice_us, t.guard_us, profile.uplinks, t.link_gbps, pm.generator, ticks=ticks,
                             corrected=corrected)
    cfg, enable = pktgen_writes(plan, pm, profile.queues)
    return SwitchPlan(tuple(port_writes(pm, t.link_gbps)), tuple(tm_writes(pm, qp)), tuple(mirror_writes(pm, contract["target_state"]["mirror_session"])),
                      tuple(target_table_writes(contract, pm, qp)), tuple(cfg), tuple(enable), plan, qp)
