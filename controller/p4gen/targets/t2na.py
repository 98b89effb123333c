"""Tofino2 (t2na) spellings, limits and contract of the generated ToR program.

The t2na program is a redesign of the v1model one for what Tofino2 allows (URO §IV-B/C,
UCMP §6, FRANCIS §4.3); ``templates/tor_t2na.p4.j2`` and ``templates/fragments/t2na/``
say how. What this module adds:

- ``problems``: profiles the chip cannot hold, refused before rendering with the reason
  (more than 128 queues per port, more uplinks than one down-mask word or a timer batch
  can serve, slices shorter than the packet generator needs, K beyond the stage budget);
- ``context``: the values the t2na fragments need (register words, replicas, the timer
  plan and the slice-time table);
- ``adapt_contract``: where the t2na program's control-plane names differ from v1model
  (URO entries store waits, the bucket is an exact key, events are counted as a bitmap,
  the slice capacity is the one the timer plan leaves) and the target-only tables the
  BfRt backend writes itself.
"""

from __future__ import annotations

import copy

from controller.tofino2 import chip, pktgen, ssrr

#: slots that add their wait to one copy of the active-queue register: the fields one ALU
#: chain links must share a PHV container group, so the K + 1 slots are split over copies
SLOTS_PER_ACTIVE_COPY = 4
#: the t2na liveness counter's cells: each judgment of a circuit counted once -- heard,
#: silent (nothing heard), wrong_peer (only another synchronized ToR heard), down (not heard,
#: and this judgment marked it down), up (heard, and this judgment cleared its mark)
LIVENESS_COUNTS = ["heard", "silent", "wrong_peer", "down", "up"]

#: the mirror session that carries queue-state updates (and clock updates) to the recirculation port
MIRROR_SESSION = 1
#: mirror types are 4 bits on Tofino2 (0: none)
MAX_MIRROR_TYPE = 15
#: the egress control of the t2na program (parser.p4.j2): ssrr_hops lives there
EGRESS_CONTROL = "UroEgress"
#: counter cells the t2na program counts beyond the shared ones (appended if missing)
T2NA_DROPS: list[str] = []
T2NA_EVENTS = ["qstate_full", "resubmit_spill"]
#: events of the bmv2 ToR the t2na program does not have
BMV2_ONLY_EVENTS = ["gen_other", "ssrr_deferred", "ssrr_misdelivered", "departed_late"]
#: the sync message's wire format, as the v1model contract's ``clock`` gives it
SYNC_WIRE = ("ethertype", "header", "flags", "ref_tor", "any_tor", "unsynced", "modes", "counter")
#: the sync message's ops the t2na ToR takes (docs/tofino2.md "The exchange"): it answers a
#: REQ from an uplink and evaluates a RESP to its own REQ (which the packet generator's timer
#: sends, not a TRIGGER); TRIGGER, PROBE and SEED (BfRt reads and seeds the clock) are not taken
SYNC_TAKES = ("REQ", "RESP")
#: the servo's rate step on Tofino2: egress's servo_rate holds, for each step (ns) and sign,
#: the range of -theta that gives it as ternary blocks (bf-p4c matches no range on a 32-bit
#: field); the step is a 7-bit field
RATE_ENTRIES = 256
RATE_STEP_BITS = 7

#: stage model of the ingress pipeline, a LOWER BOUND: the dependent chain (clock read ->
#: lookups -> queue index -> the queue-state copies -> pick -> admission -> Full mark ->
#: counters) plus one stage per STATEFUL_PER_STAGE copies beyond the first group. bf-p4c
#: 9.13.4's own critical path is 15 stages at (108, 6) for K = 4 and K = 10, placed in 17
#: (docs/tofino2.md "Measured"); where tables are split over stages by size the placement
#: takes more, so a profile can pass this and still not fit: the compiler has the last word.
BASE_STAGES = 14
STATEFUL_PER_STAGE = 4


class T2na:
    """t2na spellings; program state lives in registers driven by RegisterActions."""

    name = "tofino2"
    arch = "t2na"
    std_meta_type = "ingress_intrinsic_metadata_t"
    sm = "ig_intr_md"
    port_t = "bit<9>"
    drop = "meta.drop = 1"
    egress_spec = "meta.out_port"           # a logical port; port_map gives the dev port
    ingress_port = "ig_intr_md.ingress_port"
    packet_length = "meta.wire_len"
    programs = ("tor",)
    #: where `uro p4 build --target tofino2` writes by default (gitignored)
    build_dir = "tofino/build/{profile}"
    #: why there is no OCS program (the v1model target emulates the OCS on bmv2)
    no_ocs_reason = ("the OCS is real optical hardware in a Tofino2 deployment; the OCS emulator "
                     "exists only for bmv2 (render it with --target bmv2)")

    # ---- spellings ----------------------------------------------------------------------
    @staticmethod
    def action_selector(name: str, size: int, max_group: int = 8, groups: int | None = None) -> str:
        """``size`` members; ``groups`` groups (one per ssrr_path entry at most)."""
        groups = max(1, groups or size)
        return (f"ActionProfile({size}) {name}_profile;\n"
                f"    Hash<bit<16>>(HashAlgorithm_t.CRC16) {name}_hash;\n"
                f"    ActionSelector({name}_profile, {name}_hash, SelectorMode_t.FAIR, {max_group}, {groups}) {name};")

    @staticmethod
    def selector_impl(name: str) -> str:
        return f"implementation = {name};"

    # ---- limits -------------------------------------------------------------------------
    @staticmethod
    def replicas(profile) -> int:
        """Copies of the queue-state flags: one per URO alternative (each alternative reads
        its own copy: one register access per packet) and one for the SSRR hop, so the URO
        and SSRR lookups run side by side in the pipeline."""
        return profile.alternatives + 1

    @classmethod
    def stages_needed(cls, profile) -> int:
        """A lower bound on the ingress stages the program needs: a fixed chain plus one stage
        for every STATEFUL_PER_STAGE queue-state copies beyond the first group (what K
        costs). Refusing a profile below it is certain; passing it is not (see BASE_STAGES)."""
        return BASE_STAGES + max(0, -(-cls.replicas(profile) // STATEFUL_PER_STAGE) - 1)

    @staticmethod
    def timer(profile) -> pktgen.TimerPlan:
        t = profile.timing
        return pktgen.timer_plan(t.slice_us, t.guard_us, profile.uplinks, t.link_gbps,
                                 ticks=profile.tofino2.clock_ticks, corrected=T2na.clock_corrected(profile))

    @staticmethod
    def clock_corrected(profile) -> bool:
        """Whether the program keeps the corrected slice clock (``[tofino2] slice_clock``,
        default) or the generator's (every trigger ticks)."""
        return (profile.tofino2.slice_clock or "corrected") == "corrected"

    @classmethod
    def unit_bytes(cls, profile) -> int:
        """Lengths and capacities are counted in units of this many bytes (a power of two)
        so that a slice's capacity fits 15 bits (16-bit arithmetic)."""
        cap = cls.timer(profile).capacity_bytes
        unit = 1
        while cap // unit >= 1 << 15:
            unit *= 2
        return unit

    @classmethod
    def problems(cls, profile, program: str = "tor") -> list[str]:
        out = []
        if program != "tor":
            out.append(f"no {program!r} program for tofino2: {cls.no_ocs_reason}")
        if profile.queues > chip.MAX_QUEUES_PER_PORT:
            out.append(f"queues = {profile.queues}: a Tofino2 port has at most {chip.MAX_QUEUES_PER_PORT} TM queues "
                       "(ig_intr_md_for_tm.qid is 7 bits)")
        if profile.uplinks > chip.REGISTER_WORD_BITS:
            out.append(f"uplinks = {profile.uplinks}: the t2na program keeps one down bit per uplink in one "
                       f"{chip.REGISTER_WORD_BITS}-bit register word (at most {chip.REGISTER_WORD_BITS} uplinks)")
        if profile.host_ports + profile.uplinks > chip.PIPE_LOCAL_PORTS - 8:
            out.append(f"host_ports + uplinks = {profile.host_ports + profile.uplinks}: one ToR is one Tofino2 pipe "
                       f"({chip.PIPE_LOCAL_PORTS - 8} front-panel ports)")
        if profile.widths.uplink != 8 or profile.widths.slice != 8:
            out.append(f"widths.uplink = {profile.widths.uplink}, widths.slice = {profile.widths.slice}: the t2na "
                       "queue arithmetic is 8-bit (a Tofino ALU does not mix widths): both must be 8")
        if profile.slices > 128:
            out.append(f"slices = {profile.slices}: the t2na program adds active queue + wait in 8 bits "
                       "(queues + slices <= 256), which needs slices <= 128")
        last = cls.replicas(profile) + 1 + (1 if cls.clock_sync(profile) else 0)
        if last > MAX_MIRROR_TYPE:
            out.append(f"alternatives = {profile.alternatives}: the queue-state updates take mirror types 1..K + 1, "
                       f"the clock's updates the next (and a RESP to the servo the one after: {last} in all); "
                       f"a Tofino2 mirror type is 4 bits (1..{MAX_MIRROR_TYPE})")
        need = cls.stages_needed(profile)
        if need > chip.MAU_STAGES:
            out.append(f"alternatives = {profile.alternatives}: the one-shot lookup reads {cls.replicas(profile)} "
                       f"queue-state copies, {need} ingress stages with the rest of the program; a Tofino2 pipe has "
                       f"{chip.MAU_STAGES}")
        try:
            cls.timer(profile)
        except pktgen.TimerPlanError as e:
            out.append(str(e))
        return out

    # ---- template values --------------------------------------------------------------------
    @classmethod
    def context(cls, profile) -> dict:
        plan = cls.timer(profile)
        unit = cls.unit_bytes(profile)
        st = pktgen.slice_time_table(plan)
        mtu = chip.MTU_FRAME_BYTES + chip.WIRE_OVERHEAD_BYTES
        return {
            "unit_bytes": unit,
            "unit_shift": unit.bit_length() - 1,
            "cap_units": plan.capacity_bytes // unit,
            "mtu_units": -(-mtu // unit),
            "floor_units": [-(-f // unit) for f in st.floors],
            "replicas": cls.replicas(profile),
            "ssrr": ssrr.layout(profile),
            "active_copies": -(-cls.replicas(profile) // SLOTS_PER_ACTIVE_COPY),
            "slots_per_copy": SLOTS_PER_ACTIVE_COPY,
            "qstate_size": profile.uplinks * 256,
            "timer": plan,
            "slice_time": st,
            "timer_app": pktgen.TIMER_APP_ID,
            "port_down_app": pktgen.PORT_DOWN_APP_ID,
            "frame_overhead": 14 + chip.FCS_BYTES + chip.WIRE_OVERHEAD_BYTES,
            "timer_afc_size": 2 * profile.uplinks * profile.queues,
            "clock_mirror": cls.replicas(profile) + 1,
            "clock_corrected": cls.clock_corrected(profile),
            "sync": cls.clock_sync(profile),
            "liveness": cls.liveness_off_reason(profile) is None,
            "live_cells": profile.slices * profile.uplinks,
        }

    # ---- contract -----------------------------------------------------------------------------
    @classmethod
    def ssrr_tables(cls, ctl: str, profile) -> dict:
        """The contract entries of the t2na source-route tables (see :func:`controller.tofino2.ssrr.layout`)."""
        L = ssrr.layout(profile)
        gen = {"name": "generation", "match": "exact", "bitwidth": 1}

        def table(short, size, keys, actions, ctl=ctl):
            return {"short": short, "name": f"{ctl}.{short}", "size": size, "generation_keyed": True,
                    "keys": [gen] + [{"name": n, "match": m, "bitwidth": b} for n, m, b in keys],
                    "actions": {a: {"name": f"{ctl}.{a}", "params": [{"name": n, "bitwidth": b} for n, b in ps]}
                                for a, ps in actions.items()}}
        write, first = {}, {}
        for n in range(1, profile.ssrr_hops + 1):
            # hop 0's send slice is written in egress (ssrr_hops); the queue test needs its wait
            first[f"first_{n}"] = [("up0", L["uplink_bits"]), ("wait0", L["slice_bits"])]
            ps = [(f"tor{h}", L["tor_bits"]) for h in range(n - 1)]      # the last hop's ToR is the destination
            ps += [(f"up{h}", L["uplink_bits"]) for h in range(n)] + [(f"slice{h}", L["slice_bits"]) for h in range(n)]
            write[f"write_path_{n}"] = ps
        path_key = [("group", "exact", L["group_bits"]), ("level", "exact", L["level_bits"]),
                    ("member", "exact", L["member_bits"])]
        return {
            "ssrr_path": table("ssrr_path", L["path_size"],
                               [("dst_tor", "exact", L["tor_bits"]), ("start_slice", "exact", L["slice_bits"])],
                               {"set_group": [("group", L["group_bits"]), ("shape", L["shape_bits"])]}),
            "ssrr_level": table("ssrr_level", L["level_size"],
                                [("shape", "exact", L["shape_bits"]), ("bucket", "range", profile.bucket_bits)],
                                {f"level_{n}": [("level", L["level_bits"])] for n in range(1, L["ties"] + 1)}),
            "ssrr_first": table("ssrr_first", L["hops_size"], path_key, first),
            # in egress: nothing in ingress reads the option (off the queue test's critical path)
            "ssrr_hops": table("ssrr_hops", L["hops_size"], path_key, write, ctl=EGRESS_CONTROL),
        }

    @staticmethod
    def servo_rate_table() -> dict:
        """The contract entry of egress's ``servo_rate`` (templates/fragments/t2na/sync.p4.j2):
        the rate step of an applied exchange by the range of ``arg`` (-theta) that gives it,
        and the bound less the step (``room``), in ``RATE_ENTRIES`` ternary blocks."""
        params = [{"name": "room", "bitwidth": 32}, {"name": "step", "bitwidth": RATE_STEP_BITS}]
        return {"short": "servo_rate", "name": f"{EGRESS_CONTROL}.servo_rate", "size": RATE_ENTRIES,
                "generation_keyed": False, "keys": [{"name": "arg", "match": "ternary", "bitwidth": 32}],
                "actions": {a: {"name": f"{EGRESS_CONTROL}.{a}", "params": params} for a in ("rate_up", "rate_down")}}

    @staticmethod
    def clock_sync(profile) -> bool:
        """Whether the program takes part in the synchronization exchange (the corrected clock:
        docs/tofino2.md "The exchange")."""
        return T2na.clock_corrected(profile)

    @classmethod
    def liveness_off_reason(cls, profile) -> str | None:
        """Why the t2na program of ``profile`` has no liveness per circuit (docs/liveness.md
        "On Tofino2"), or None when it has: the beacon is the exchange (the corrected clock),
        and a circuit marked down is the Full flag of the calendar queue that serves it,
        which takes one queue per slice (Q = S)."""
        if not cls.clock_sync(profile):
            return ("the program keeps the packet generator's clock ([tofino2] slice_clock = \"generator\"), "
                    "which takes no sync exchange: no circuit is beaconed")
        if profile.queues != profile.slices:
            return (f"queues = {profile.queues} and slices = {profile.slices}: a circuit marked down is the Full "
                    "flag of the calendar queue that serves it, which needs one queue per slice (queues = slices)")
        return None

    @classmethod
    def clock_section(cls, ctl: str, profile) -> dict:
        """The contract's ``clock`` for the t2na program: the packet generator's applications
        and grid, and where the clock's state lives in this program's registers ({short:
        {"name", "field", "size"}}: a pair register has two fields, each read by its name).
        The synchronization exchange's wire format and ops are added by :meth:`adapt_contract`
        (the corrected clock only)."""
        plan = cls.timer(profile)
        if not cls.clock_corrected(profile):
            return {"source": "pktgen", "slice_clock": "generator", "timer_app": pktgen.TIMER_APP_ID,
                    "port_down_app": pktgen.PORT_DOWN_APP_ID, "slice_ns": plan.period_ns, "ticks": 1,
                    "tick_ns": plan.tick_ns}

        def reg(name, field=None, size=1, meaning="", ctl=ctl):
            return {"name": f"{ctl}.{name}", "field": field, "size": size, "meaning": meaning}
        return {
            "source": "pktgen", "slice_clock": "corrected", "timer_app": pktgen.TIMER_APP_ID,
            "port_down_app": pktgen.PORT_DOWN_APP_ID, "slice_ns": plan.period_ns, "ticks": plan.ticks, "tick_ns": plan.tick_ns,
            "registers": {
                "next": reg("bound_reg", "next", meaning="local time (ns, low 32 bits) of the next slice boundary"),
                "slice": reg("bound_reg", "slice", meaning="slice id (k mod S)"),
                "k": reg("k_reg", meaning="slice number of the current slice"),
                "len": reg("len_reg", meaning="local length (ns) of a slice: the rate correction"),
                "epoch": reg("epoch_reg", meaning="slices since start, mod 65536"),
                "active_q": reg("active_reg", meaning="calendar queue of the current slice"),
                "now": reg("tick_reg", "now", meaning="local time of the generator's last trigger"),
                # egress keeps the tree's one register (docs/tofino2.md "The exchange: the stratum")
                "stratum": reg("stratum_reg", "stratum", ctl=EGRESS_CONTROL,
                               meaning="distance from the reference: 1 the lead (written at its seed), parent + 1, "
                                       "255 unsynchronized"),
                "last_k": reg("stratum_reg", "last_k", ctl=EGRESS_CONTROL,
                              meaning="slice number of the last correction (applied exchange or seed)"),
            },
        }

    @classmethod
    def adapt_liveness(cls, c: dict, ctl: str, profile) -> None:
        """The contract's liveness for the t2na program: ``liveness_config`` with
        ``set_liveness(down_after, expect)``, the ``liveness`` counter (each judgment counted
        once, LIVENESS_COUNTS) and the two registers (``state``: heard and the silent
        count per circuit; ``mark``: per circuit, bit 0 marked down, bit 1 only another ToR
        heard), which the BfRt backend reads with the clock (``read_clock``: ``live_mask``,
        ``live_wrong``). No notices. Without liveness (``liveness_off_reason``), none of it,
        and ``liveness_off`` says why."""
        t = c["tables"]
        c["counters"].pop("notices", None)
        reason = cls.liveness_off_reason(profile)
        if reason is not None:
            t.pop("liveness_config", None)
            c.pop("liveness", None)
            c["counters"].pop("liveness", None)
            c["liveness_off"] = reason
            return
        cells = profile.slices * profile.uplinks
        act = t["liveness_config"]["actions"]["set_liveness"]
        act["params"] = [prm for prm in act["params"] if prm["name"] in ("down_after", "expect")]
        c["counters"]["liveness"] = {"name": f"{ctl}.liveness", "indices": list(LIVENESS_COUNTS)}
        c["liveness"] = {
            "counter": "liveness",
            "counted": "once",
            "registers": {
                "state": {"name": f"{ctl}.live_reg", "bits": 32, "size": cells,
                          "meaning": "cell s*d + u: heard (low 16 bits: 1 the peer, 2 only another synchronized "
                                     "ToR, since the last judgment) and the consecutive silent circuits (high 16 "
                                     "bits, saturates at 255)"},
                "mark": {"name": f"{ctl}.live_mark", "bits": 8, "size": cells,
                         "meaning": "cell s*d + u: bit 0 the circuit is marked down (the queue that serves it "
                                    "is held Full), bit 1 its last judgment heard only another ToR"},
            },
            "marks": {"register": "mark", "down_bit": 1, "wrong_bit": 2},
        }

    @classmethod
    def adapt_contract(cls, contract: dict, profile) -> dict:
        c = copy.deepcopy(contract)
        c["target"] = cls.name
        w = profile.widths
        t = c["tables"]
        ctl = t["config"]["name"].split(".")[0]
        # the slice capacity and the link rate are properties of the compiled program (the timer
        # plan), and the packet generator is the clock: no run-time capacity, rate or timer step
        cfg = t["config"]["actions"]["set_config"]
        cfg["params"] = [prm for prm in cfg["params"]
                         if prm["name"] not in ("capacity_bytes", "bytes_per_us", "max_timer_step", "dead")]
        c.pop("packet_io", None)                  # timers are generated on the switch, not sent
        c.pop("calendar", None)                   # held packets wait in paused TM queues, not in a loop
        c.pop("timer", None)
        sync = {k: contract["clock"][k] for k in SYNC_WIRE if k in contract.get("clock", {})}
        c["clock"] = cls.clock_section(ctl, profile)
        if cls.clock_corrected(profile):
            # the exchange's wire format, its tables (clock_config, sync_peer) and its counter
            # are the v1model program's; ``ops`` lists the ops it takes (SYNC_TAKES), as the
            # v1model contract's lists every op its programs take
            c["clock"].update(sync, ops={o: contract["clock"]["ops"][o] for o in SYNC_TAKES})
            # the servo's bounded rate step (egress's servo_rate: a range of -theta per step);
            # NTP's clock filter is not in this exchange
            c["clock"]["features"] = ["rate_step"]
            t["servo_rate"] = cls.servo_rate_table()
        else:
            for short in ("clock_config", "sync_peer"):
                t.pop(short, None)
            c["counters"].pop("sync", None)
        # liveness per circuit (docs/liveness.md "On Tofino2"): the marks, no notices
        cls.adapt_liveness(c, ctl, profile)
        alt = t["uro_next_hop"]["actions"]["set_alternatives"]
        params = [{"name": "n", "bitwidth": 8}]
        for k in range(profile.alternatives):
            params += [{"name": f"up{k}", "bitwidth": w.uplink}, {"name": f"wait{k}", "bitwidth": w.slice}]
        alt["params"] = params
        # source routes on exact tables, the flow's hash picking the member (no action selector:
        # bf-p4c put a selector's groups and members in every stage its range match spanned);
        # ssrr_level is the one range match, over the few distinct group shapes
        c["tables"].update(cls.ssrr_tables(ctl, profile))
        c.pop("action_profiles", None)
        # bmv2's source-route deferral and path counter are not in the t2na program, nor gen_other:
        # the events counter has a cell per subset of events, one more event doubles it
        # (docs/p4.md "Route generations")
        c["counters"].pop("ssrr_paths", None)
        # the software switch's own measurements (its passes, its egress waits): bmv2's
        c["counters"].pop("passes", None)
        c["counters"].pop("departures", None)
        c["counters"].pop("departure_queue", None)
        c["counters"].pop("departure_phase", None)
        c["counters"]["events"]["indices"] = [x for x in c["counters"]["events"]["indices"] if x not in BMV2_ONLY_EVENTS]
        for cname, extra in (("drops", T2NA_DROPS), ("events", T2NA_EVENTS)):
            idx = c["counters"][cname]["indices"]
            idx += [x for x in extra if x not in idx]
        c["counters"]["events"]["encoding"] = "bitmap"   # one count per packet: cell = set of events
        c["counters"]["drops"]["cell_offset"] = 1         # cell 0 = not dropped (never counted)
        plan = cls.timer(profile)
        c["profile"]["slice_capacity_bytes"] = plan.capacity_bytes
        c["target_tables"] = {
            "port_role": {"name": f"{ctl}.port_role", "keys": [{"name": "ingress_port", "match": "exact", "bitwidth": 9}],
                          "actions": {"role_host": [{"name": "index", "bitwidth": 8}],
                                      "role_uplink": [{"name": "uplink", "bitwidth": w.uplink}]}},
            "port_map": {"name": f"{ctl}.port_map",
                         "keys": [{"name": "local", "match": "exact", "bitwidth": 1},
                                  {"name": "host_port", "match": "exact", "bitwidth": 9},
                                  {"name": "uplink", "match": "exact", "bitwidth": w.uplink}],
                         "actions": {"to_port": [{"name": "dev_port", "bitwidth": 9}]}},
            "down_port": {"name": f"{ctl}.down_port",
                          "keys": [{"name": "port_num", "match": "exact", "bitwidth": 9},
                                   {"name": "packet_id", "match": "exact", "bitwidth": 16}],
                          "actions": {"mark_down": [{"name": "upmask", "bitwidth": 32}, {"name": "qidx", "bitwidth": 16}]}},
            "timer_afc": {"name": f"{ctl}.timer_afc",
                          "keys": [{"name": "batch_id", "match": "exact", "bitwidth": 16},
                                   {"name": "packet_id", "match": "exact", "bitwidth": 16},
                                   {"name": "active", "match": "exact", "bitwidth": 16}],
                          "actions": {"timer_pause": [{"name": "afc", "bitwidth": 32}, {"name": "qidx", "bitwidth": 16},
                                                      {"name": "upmask", "bitwidth": 32},
                                                      {"name": "upbit", "bitwidth": profile.uplinks}],
                                      "timer_resume": [{"name": "afc", "bitwidth": 32}]}},
            **({"sync_req": {"name": f"{ctl}.sync_req",
                             "keys": [{"name": "packet_id", "match": "exact", "bitwidth": 16}],
                             "actions": {"req_out": [{"name": "dev_port", "bitwidth": 9},
                                                     {"name": "uplink", "bitwidth": w.uplink}]}}}
               if cls.clock_sync(profile) else {}),
        }
        c["target_state"] = {
            "registers": {"link_down": f"{ctl}.link_down_reg",
                          **({"bound": f"{ctl}.bound_reg", "slice_number": f"{ctl}.k_reg", "tick": f"{ctl}.tick_reg"}
                             if cls.clock_corrected(profile) else {"slice": f"{ctl}.slice_reg"}),
                          "active": f"{ctl}.active_reg", "epoch": f"{ctl}.epoch_reg",
                          "qfin": f"{ctl}.qfin_reg",
                          "qstate": [f"{ctl}.qstate_{r}" for r in range(cls.replicas(profile))],
                          **({"sync_request": "UroEgress.req_reg", "sync_due": "UroEgress.req_due_reg"}
                             if cls.clock_sync(profile) else {})},
            "qstate_index": "uplink * 256 + queue",
            "parser_value_sets": {"pktgen_ports": "UroIngressParser.pktgen_ports",
                                  "recirc_ports": "UroIngressParser.recirc_ports"},
            "mirror_session": MIRROR_SESSION,
            "unit_bytes": cls.unit_bytes(profile),
            "timer": plan.as_dict(),
        }
        return c
