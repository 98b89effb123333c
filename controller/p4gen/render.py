"""Render the Jinja2 P4 templates for a profile, plus the pipeline contract.

The contract (``<program>.contract.json``) names every table, key, action, parameter,
table size and counter the control plane writes or reads, with bit widths, plus the
timer format and the packet-I/O header. The table writer
(:mod:`controller.tables.entries`) and the P4Runtime agent use it, and the agent checks
it against the P4Info the compiler wrote, so a name is never typed twice by hand.

The names are target-neutral (a Tofino2 program built from the same profile keeps
them); only ``packet_io`` (how timers reach the switch) is bmv2's.
"""

from __future__ import annotations

import dataclasses
import json
import textwrap
from dataclasses import asdict
from pathlib import Path

import jinja2

from controller.atomic import write_text
from controller.clock import message as sync_msg
from controller.clock import servo as sync_model
from controller.clock.params import MODES as CLOCK_MODES, ClockConfig, OcsClockConfig
from controller.p4gen import targets
from controller.p4gen.profile import (CPU_PORT, DEPART_PRIORITY, HOLD_CROWD, HOLD_QUEUES, PKTGEN_PORT,
                                       PRIORITY_QUEUES, TIMER_ETHERTYPE, Profile, ProfileError)
from controller.resources import templates_dir
from controller.tables.state import GENERATION_ID_BIT, GENERATIONS

TEMPLATES_DIR = templates_dir()
CONTRACT_FORMAT = "uro-pipeline-contract/2"

#: ToR drop reasons (counter ``drops``); every frame that is not forwarded is counted
#: under exactly one of them (docs/p4.md says which check comes first)
DROP_REASONS = ["no_route", "all_full", "held_too_long", "bad_ssrr", "ttl", "malformed", "not_ipv4",
                "bad_timer", "unconfigured", "bad_checksum", "reroute_limit", "stale_gen"]
#: ToR events (counter ``events``); a timer from the timer source is counted under exactly
#: one of timer, timer_sync, timer_rejected
EVENTS = ["reroute_missed", "reroute_spill", "timer", "ssrr_written", "ssrr_transit",
          "timer_sync", "timer_rejected", "ssrr_resourced", "ssrr_missed", "uplink_down", "gen_other", "ssrr_deferred",
          "ssrr_misdelivered", "departed_late"]
#: buckets the ToR's ``ssrr_paths`` counter tells apart: every bucket the DSCP map can name
SSRR_PATH_BUCKETS = 64


def ssrr_path_cells(hops: int) -> list[str]:
    """Cells of the ``ssrr_paths`` counter (source routes written for packets from hosts):
    ``b<bucket>h<hops>``, cell ``bucket * H + hops - 1``."""
    return [f"b{b}h{n}" for b in range(SSRR_PATH_BUCKETS) for n in range(1, hops + 1)]
OCS_DROP_REASONS = ["no_circuit", "bad_timer", "unconfigured", "port_fault"]
OCS_EVENTS = ["timer", "timer_sync", "timer_rejected"]
#: how the OCS emulator saw each data frame from a ToR port (counter ``ocs_arrivals``, cell
#: ``port * 4 + kind``: ``tor<t>u<u>_<kind>``), by its own phase at arrival: a ToR sends
#: nothing in the first guard of its slice (nor, by its byte clock, in the last), so a
#: frame arriving in the OCS's first guard left in the ToR's previous slice (late by at
#: least the guard, less the ToR's clock error) -- where misalignment comes from
#: (docs/clock.md "Where misaligned frames come from")
OCS_ARRIVAL_KINDS = ["in_time", "in_guard", "in_guard_no_circuit", "no_circuit"]
#: the ToR's data frames leaving on an uplink (counters ``departures`` and
#: ``departure_queue``, in egress), by what the departing pass was: ``fresh`` (the
#: frame's first pass here: decided and sent at once), ``held`` (released after waiting
#: for a later slice), ``recirc`` (recirculated for its own slice: held through its
#: guard, or decided again); and by the wait: under 0.5 ms, under 2 ms, under the guard,
#: at least the guard. ``departures`` times the whole wait from the pass that sent the
#: frame out (its ingress time; a recirculated pass: its previous egress) to its
#: departure; ``departure_queue`` only the part in the egress queue (bmv2's
#: ``deq_timedelta``): the rest is the wait for the ingress thread (docs/clock.md "Where
#: misaligned frames come from")
DEPARTURE_KINDS = ["fresh", "held", "recirc"]
DEPARTURE_WAITS = ["lt_0_5ms", "lt_2ms", "lt_guard", "ge_guard"]
DEPARTURE_BUCKETS = [f"{k}_{w}" for k in DEPARTURE_KINDS for w in DEPARTURE_WAITS]
#: the same frames by when in its slice the pass that sent them out ran (its phase in
#: guards: ``g0`` the guard at the start, ``g1`` the next guard's length, ... ``g9`` the
#: rest) and whether the whole wait was under the guard (counter ``departure_phase``)
DEPARTURE_PHASES = [f"g{i}_{w}" for i in range(10) for w in ("lt_guard", "ge_guard")]
#: the ToR's ingress passes by what they carry (counter ``passes``): a held packet circling
#: (recirculated, held), one recirculated to be decided again, a sync frame (or anything from
#: the pktgen port), anything else fresh (data from hosts and uplinks, timers)
PASS_KINDS = ["held", "redecided", "sync", "fresh"]


def ocs_arrival_cells(ports: int, uplinks: int) -> list[str]:
    """Cells of the OCS emulator's ``ocs_arrivals`` counter: port ``tor * uplinks + uplink``
    times OCS_ARRIVAL_KINDS."""
    return [f"tor{port // uplinks}u{port % uplinks}_{k}" for port in range(ports) for k in OCS_ARRIVAL_KINDS]

#: timer packet: Ethernet (EtherType TIMER_ETHERTYPE) + slice:16 + flags:16
TIMER_FLAGS = {"sync": 1}
#: P4Runtime PacketOut header (``@controller_header("packet_out")``): opcode:8; opcode 0 (what a
#: client that sends no metadata sends) = a frame for the ingress pipeline: a timer; others reserved
PACKET_OUT_FIELDS = [("opcode", 8)]
PACKET_OUT_OPCODES = {"timer": 0, "sync": 0}

#: the slice clock's registers (docs/clock.md): (short name, bits, cells, meaning); register
#: ``clock_<short>`` of the ingress control, ``per_uplink`` ones have a cell per uplink
CLOCK_REGISTERS = [
    ("k", 32, 1, "slice number of the current slice"),
    ("next", 64, 1, "local time (ns) of the next slice boundary"),
    ("len", 32, 1, "local length (ns) of a slice: the rate correction (0: never written, L)"),
    ("stratum", 8, 1, "255 - stratum (a register never written reads as unsynchronized)"),
    ("term", 16, 1, "election term followed (0: none yet)"),
    ("lead", 16, 1, "lead ToR of that term"),
    ("lead_k", 32, 1, "slice number at which the lead last exchanged with the reference"),
    ("refusals", 8, 1, "consecutive refused exchanges"),
    ("offset", 32, 1, "theta of the last exchange evaluated (signed ns, saturated to 32 bits)"),
    ("delay", 32, 1, "delta of the last exchange evaluated (signed ns, saturated to 32 bits)"),
    ("last_k", 32, 1, "slice number of the last correction (step or applied)"),
    ("t4_k", 32, 1, "t4 of the last exchange evaluated: slice number"),
    ("t4_phase", 32, 1, "t4 of the last exchange evaluated: phase"),
    ("req_open", 1, "uplinks", "a REQ on this uplink waits for its RESP"),
    ("req_k", 32, "uplinks", "slice number of this uplink's last REQ"),
    ("req_peer", 16, "uplinks", "the peer it went to (0xFFFF the reference, 0xFFFE anyone)"),
    ("req_t1", 64, "uplinks", "its t1 (k << 32 | phase): the RESP must echo it"),
    ("min_delay", 32, "uplinks", "the clock filter: 2^32 - 1 - the least path delay (ns) recently seen on this "
     "uplink (never written: none yet)"),
]
#: what a ToR program's exchange does beyond docs/clock.md's rules (the contract's
#: ``clock.features``): "filter" NTP's clock filter per uplink (``[clock] filter_us``),
#: "rate_step" the bounded rate step (``[clock] rate_step_ppm``). The config check refuses
#: a key a program lacks.
CLOCK_FEATURES = ("filter", "rate_step")
# bmv2's Thrift runtime reads and writes registers as signed 64-bit numbers: a value of 2^63
# or more does not pass (a read saturates, a write fails). What the daemon or `uro emulate`
# reads or writes stays below (signed values as 32-bit two's complement; ``next`` is local
# ns; ``req_t1`` has k < 2^31 for 3 years of 50 ms slices).

#: registers egress writes too (a REQ's t1 is stamped on the way out): instantiated at the
#: top level of the program (P4Info name without a control), shared by ingress and egress
GLOBAL_CLOCK_REGISTERS = {"req_t1"}
#: registers the ToR's clock moves that the timer channel keeps too
TIMER_CLOCK_REGISTERS = [("slice", "slice_reg", None, "slice id (k mod S)"),
                         ("epoch", "epoch_reg", 32, "slices since start"),
                         ("active_q", "active_q_reg", 32, "calendar queue of the current slice")]
#: the OCS emulator's (the reference's): it keeps its slice (``slice_reg``) from these
OCS_CLOCK_REGISTERS = ["k", "next", "stratum"]
#: the emulation-only clock fault of the bmv2 ToR (controller.clock.servo.FaultModel), written
#: over Thrift by ``uro emulate clock``: (short name, bits, meaning)
CLOCK_FAULT_REGISTERS = [
    ("rate", 32, "drift: a signed fraction in units of 2^-24 (FaultModel.rate_of_ppm), two's complement"),
    ("step", 32, "ns added to the local clock (signed 32 bits, two's complement: at most +-2.1 s)"),
    ("acc", 64, "the drift integrated so far (signed, 2^-24 ns; internal)"),
    ("last", 64, "raw local time (ns) of the last integration"),
    ("id", 16, "a wrong ToR id: when not 0, the clock's messages name ToR id - 1 as their sender and it takes "
               "messages addressed to it (a misconfigured ToR; 0: the configured id)"),
]
#: the OCS emulator's emulation-only port fault (``uro emulate fail port``, written over Thrift):
#: a cell per OCS port (tor * d + uplink), bit s set: the port is dead in slice s (nothing in
#: or out of it in that slice; counted ``ocs_drops[port_fault]``)
OCS_PORT_FAULT = ("port_fault", "slices in which the OCS port is dead (bit s: slice s), both directions")


#: liveness per circuit (docs/liveness.md): the ToR's registers (short name, bits, cells,
#: meaning); register ``live_<short>`` of the ingress control. ``"circuits"``: a cell per
#: (slice, uplink), index s * d + u; ``"mask"``: one cell of S x d bits, bit s * d + u
LIVENESS_REGISTERS = [
    ("mask", "mask", 1, "circuits marked down by liveness (bit s*d + u): the lookups treat them as dead"),
    ("wrong", "mask", 1, "circuits whose last evaluation heard only another ToR than the schedule's peer"),
    ("remote", "mask", 1, "circuits whose other end marked them down (bit s*d + u: the last notice of the peer "
                          "of (s, u) for slice s has its uplink u down): the lookups treat them as dead too"),
    ("miss", 8, "circuits", "consecutive silent circuits of (s, u) (saturates at 255)"),
    ("heard", 1, "circuits", "cell s*d + u: the peer was heard on (s, u) since that slot was last judged (a "
                             "beacon counts for the slice its message names)"),
    ("stray", 1, "circuits", "cell s*d + u: another (synchronized) ToR was heard there meanwhile"),
    ("asked", 1, "circuits", "cell s*d + u: this ToR sent its REQ to the peer there meanwhile (no REQ sent: "
                             "no verdict)"),
    ("peer", 16, "circuits", "cell s*d + u: the sync_peer table's answer for (s, u) + 1, kept by every lookup "
                             "(0: none yet): a beacon taken in a later slice is checked against it"),
    ("k", 32, 1, "slice number of the last slice seen (a new one judges its slot)"),
    ("valid", 1, "slices", "cell s: this ToR was synchronized when slot s began collecting (else it is not "
                           "judged)"),
    # in-band notices (docs/liveness.md "Notices")
    ("note_seq", 32, 1, "sequence number of the last notice this ToR originated (the fabric's slice number "
                        "it was kept at, or one more than the last: newer after this switch restarts too)"),
    ("note_refresh", 32, "slices", "cell s: slice number from which this ToR's marks of slice s are due to be "
                                   "sent again, whether they changed or not (0: at its next judgment)"),
    ("note_map", "uplinks", "origins", "cell t*S + s: bit u set when ToR t's last notice for slice s marked its "
                                       "uplink u down (the fabric-wide map of dead circuits)"),
    ("note_last", 32, "origins", "cell t*S + s: sequence number of the last notice of ToR t for slice s applied "
                                 "(0: none; an older or equal one is a duplicate)"),
    ("note_tokens", 8, 1, "the notice rate bound's token bucket"),
    ("note_fill", 32, 1, "slice number at which the bucket was last filled"),
    ("note_q_origin", "tor", "slots", "a notice to send: its origin"),
    ("note_q_seq", 32, "slots", "its sequence number"),
    ("note_q_slice", "slice", "slots", "its slice"),
    ("note_q_down", "uplinks", "slots", "its down bits (bit u: the origin's uplink u)"),
    ("note_q_until", 32, "slots", "slice number from which the slot is free (sent on every uplink in every slice "
                                  "before it: one schedule cycle)"),
    ("note_q_sent", 32, "slot_uplinks", "cell i*d + u: 1 + the slice number slot i was last sent in on uplink u"),
    ("note_q_kind", 2, "slots", "its kind, the more urgent the lower: 0 this ToR's change, 1 another ToR's notice "
                                "sent on, 2 this ToR's refresh (sent first; takes a less urgent one's slot when "
                                "none is free)"),
]
#: notices a ToR keeps to send at once (each sent on every uplink in every slice for one cycle)
NOTICE_SLOTS = 4
#: the liveness counter's cells: one count per (slice, uplink) with a circuit judged (heard,
#: silent, wrong_peer, or unasked: nothing heard where this ToR sent no REQ, no verdict), the
#: marks set and cleared, and slices not judged (paused)
LIVENESS_COUNTS = ["heard", "silent", "wrong_peer", "down", "up", "paused", "unasked"]
#: the notices counter's cells (docs/liveness.md "Notices"): a NOTICE from an uplink is counted
#: once under applied | duplicate | wrong_peer | unknown | flood | off, one from a host port
#: under from_host; sent (a NOTICE sent), busy (one not kept: every slot taken), avoided (a
#: source route over a circuit the notices say is dead, routed per hop instead), refresh (a
#: ToR's unchanged marks of one slice kept to be sent again: the periodic refresh), replaced (a
#: kept notice whose slot a more urgent one took: every slot taken)
NOTICE_COUNTS = ["applied", "duplicate", "wrong_peer", "unknown", "flood", "from_host", "off", "sent", "busy",
                 "avoided", "refresh", "replaced"]
#: the liveness registers the daemon reads with the clock's (``read_clock``: live_<short>)
LIVENESS_READ = ("mask", "wrong")


def liveness_section(profile: Profile, ctl: str) -> dict:
    """The contract's ``liveness`` (ToR): the registers with widths and cells, the counter."""
    w = profile.widths
    bits = {"mask": profile.slices * profile.uplinks, "slice": w.slice, "uplinks": profile.uplinks, "tor": w.tor}
    cells = {"circuits": profile.slices * profile.uplinks, "uplinks": profile.uplinks, "slices": profile.slices,
             "origins": profile.tors * profile.slices, "slots": NOTICE_SLOTS,
             "slot_uplinks": NOTICE_SLOTS * profile.uplinks}
    return {
        "counter": "liveness",
        "notices": {"counter": "notices", "slots": NOTICE_SLOTS},
        "registers": {short: {"name": f"{ctl}.live_{short}", "bits": bits.get(b, b), "size": cells.get(n, n),
                              "meaning": meaning}
                      for short, b, n, meaning in LIVENESS_REGISTERS},
    }


def clock_config_params(profile: Profile, program: str) -> list[tuple[str, int]]:
    """``set_clock``'s parameters: the fields of a ToR's
    :class:`controller.clock.params.ClockConfig` (the OCS emulator's
    :class:`~controller.clock.params.OcsClockConfig`), in order; 32 bits unless named here."""
    w = profile.widths
    narrow = {"mode": 8, "my_tor": w.tor, "servo_shift": 8, "phase_shift": 8, "refuse_limit": 8, "candidate": 1, "ref_uplink": w.uplink}
    cls = OcsClockConfig if program == "ocs" else ClockConfig
    return [(f.name, narrow.get(f.name, 32)) for f in dataclasses.fields(cls)]


def clock_section(profile: Profile, program: str, ctl: str) -> dict:
    """The contract's ``clock``: the sync message, the pktgen port, the modes, the registers
    the daemon reads (and, ToR, the fault model's) with their widths."""
    regs = CLOCK_REGISTERS if program == "tor" else [r for r in CLOCK_REGISTERS if r[0] in OCS_CLOCK_REGISTERS]
    out = {
        "ethertype": sync_msg.ETHERTYPE,
        "header": [[n, b] for n, b in sync_msg.FIELDS],
        "ops": {o.name: int(o) for o in sync_msg.Op},
        "flags": {f.name: int(f) for f in sync_msg.Flag},
        "ref_tor": sync_msg.REF_TOR, "any_tor": sync_msg.ANY_TOR, "unsynced": sync_msg.UNSYNCED,
        "pktgen_port": PKTGEN_PORT,
        "modes": dict(CLOCK_MODES),
        "counter": "sync" if program == "tor" else "ocs_sync",
        **({"features": list(CLOCK_FEATURES)} if program == "tor" else {}),
        "registers": {short: {"name": f"clock_{short}" if short in GLOBAL_CLOCK_REGISTERS else f"{ctl}.clock_{short}",
                              "bits": bits,
                              "size": profile.uplinks if size == "uplinks" else size, "meaning": meaning}
                      for short, bits, size, meaning in regs},
    }
    if program == "ocs":
        out["registers"]["slice"] = {"name": f"{ctl}.slice_reg", "bits": profile.widths.slice, "size": 1,
                                     "meaning": "slice id (k mod S)"}
    else:
        for short, reg, bits, meaning in TIMER_CLOCK_REGISTERS:
            out["registers"][short] = {"name": f"{ctl}.{reg}", "bits": bits or profile.widths.slice, "size": 1,
                                       "meaning": meaning}
        out["fault"] = {"rate_shift": sync_model.FAULT_RATE_SHIFT,
                        "registers": {short: {"name": f"{ctl}.clock_fault_{short}", "bits": bits, "size": 1,
                                              "meaning": meaning} for short, bits, meaning in CLOCK_FAULT_REGISTERS}}
    # bmv2's P4Runtime server reads no registers: a PROBE from the CPU port is answered by a
    # PacketIn whose packet_in header carries every one-cell register (field per register)
    out["packet_in"] = {short: f"clock_{short}" for short, r in out["registers"].items() if r["size"] == 1}
    return out


def packet_in_fields(clock: dict) -> list[tuple[str, int]]:
    """The ``packet_in`` controller header: the clock's one-cell registers, padded to bytes."""
    fields = [(field, clock["registers"][short]["bits"]) for short, field in clock["packet_in"].items()]
    pad = -sum(b for _, b in fields) % 8
    return fields + ([("pad", pad)] if pad else [])


class V1Model:
    """v1model spellings of the few target-specific constructs the fragments use."""

    name = "bmv2"
    arch = "v1model"
    std_meta_type = "standard_metadata_t"
    sm = "sm"
    port_t = "bit<9>"
    drop = "mark_to_drop(sm)"
    egress_spec = "sm.egress_spec"
    ingress_port = "sm.ingress_port"
    packet_length = "sm.packet_length"

    @staticmethod
    def register(type_: str, size: int, name: str) -> str:
        return f"register<{type_}>({size}) {name};"

    @staticmethod
    def action_selector(name: str, size: int, max_group_size: int) -> str:
        return f"@max_group_size({max_group_size}) action_selector(HashAlgorithm.crc16, 32w{size}, 32w14) {name};"

    @staticmethod
    def selector_impl(name: str) -> str:
        return f"implementation = {name};"


TARGETS = {"bmv2": V1Model}


def target_class(target: str):
    """The spelling class of ``target``: v1model here, the others from their own modules
    (:mod:`controller.p4gen.targets`)."""
    cls = TARGETS.get(target) or targets.load(target)
    if cls is None:
        names = list(TARGETS) + targets.builtin_names()
        raise ProfileError(f"unknown target {target!r} (available: {', '.join(names)})")
    return cls


def target_names() -> list[str]:
    return list(TARGETS) + targets.builtin_names()


def contract(profile: Profile, program: str = "tor") -> dict:
    """The pipeline contract: control-plane names, widths and sizes of one rendered program."""
    p = profile
    w = p.widths
    sizes = p.table_sizes()
    gen = ("generation", "exact", 1)
    if program == "ocs":
        ctl = "OcsIngress"
        tables = {
            "config": {"keys": [], "actions": {"set_config": [("generation", 1), ("max_timer_step", w.slice)],
                                               "unconfigured": []}},
            "circuit": {
                "keys": [gen, ("slice", "exact", w.slice), ("in_port", "exact", p.port_bits)],
                "actions": {"connect": [("port", p.port_bits)]},
                "generation_keyed": True,
            },
            "clock_config": {"keys": [], "actions": {"set_clock": clock_config_params(p, "ocs"), "clock_off": []}},
        }
        counters = {"ocs_drops": OCS_DROP_REASONS, "ocs_events": OCS_EVENTS,
                    "ocs_sync": list(sync_model.OCS_REASONS),
                    "ocs_arrivals": ocs_arrival_cells(p.ocs_ports, p.uplinks)}
    else:
        ctl = "UroIngress"
        alt_params = [("n", 8)]
        for k in range(p.alternatives):
            alt_params += [(f"up{k}", w.uplink), (f"slice{k}", w.slice)]
        path_params = [("n", 8)]
        for h in range(p.ssrr_hops):
            path_params += [(f"tor{h}", w.tor), (f"up{h}", w.uplink), (f"slice{h}", w.slice)]
        tables = {
            "config": {"keys": [], "actions": {
                "set_config": [("my_tor", w.tor), ("generation", 1), ("live", 2), ("down", p.uplinks), ("dead", p.slices * p.uplinks), ("capacity_bytes", 32),
                               ("bytes_per_us", 32), ("max_timer_step", w.slice)],
                "unconfigured": []}},
            "host_dst": {
                "keys": [("dst_addr", "lpm", 32)],
                "actions": {"set_dst_tor": [("tor", w.tor)], "deliver_local": [("port", p.port_bits)]},
            },
            "route_mode": {
                "keys": [gen, ("dst_tor", "exact", w.tor)],
                "actions": {"per_hop": [], "source_route": []},
                "generation_keyed": True,
            },
            "uro_next_hop": {
                "keys": [gen, ("arrival_slice", "exact", w.slice), ("dst_tor", "exact", w.tor)],
                "actions": {"set_alternatives": alt_params},
                "generation_keyed": True,
            },
            "ssrr_bucket": {"keys": [("dscp", "exact", 6)], "actions": {"set_bucket": [("bucket", p.bucket_bits)]}},
            "ssrr_path": {
                "keys": [gen, ("dst_tor", "exact", w.tor), ("start_slice", "exact", w.slice),
                         ("bucket", "range", p.bucket_bits)],
                "actions": {"write_path": path_params},
                "action_profile": f"{ctl}.ssrr_selector",
                "generation_keyed": True,
            },
            "clock_config": {"keys": [], "actions": {"set_clock": clock_config_params(p, "tor"), "clock_off": []}},
            "sync_peer": {"keys": [("slice", "exact", w.slice), ("uplink", "exact", w.uplink)],
                          "actions": {"set_peer": [("peer", w.tor)]}},
            "liveness_config": {"keys": [], "actions": {
                "set_liveness": [("down_after", 8), ("expect", p.slices * p.uplinks), ("notice_rate", 8),
                                 ("notice_burst", 8), ("notice_refresh", 8)], "liveness_off": []}},
        }
        counters = {"drops": DROP_REASONS, "events": EVENTS, "ssrr_paths": ssrr_path_cells(p.ssrr_hops),
                    "sync": list(sync_model.REASONS + sync_model.EVENTS), "passes": list(PASS_KINDS), "liveness": LIVENESS_COUNTS,
                    "notices": NOTICE_COUNTS}
    out_tables = {}
    for short, t in tables.items():
        entry = {
            "short": short,
            "name": f"{ctl}.{short}",
            "size": sizes[short],
            "generation_keyed": t.get("generation_keyed", False),
            "keys": [{"name": n, "match": m, "bitwidth": b} for n, m, b in t["keys"]],
            "actions": {
                a: {"name": f"{ctl}.{a}", "params": [{"name": n, "bitwidth": b} for n, b in params]}
                for a, params in t["actions"].items()
            },
        }
        if "action_profile" in t:
            entry["action_profile"] = t["action_profile"]
        out_tables[short] = entry
    out = {
        "format": CONTRACT_FORMAT,
        "program": program,
        "target": "bmv2",
        "profile": {**asdict(p), "uplink_port_base": p.uplink_port_base, "ssrr_dsts": p.ssrr_dsts,
                    "slice_capacity_bytes": p.slice_capacity_bytes,
                    "link_bytes_per_us": p.link_bytes_per_us,
                    "default_max_timer_step": p.default_max_timer_step},
        "timer_ethertype": TIMER_ETHERTYPE,
        "timer": {"ethertype": TIMER_ETHERTYPE, "fields": [["slice", 16], ["flags", 16]], "flags": TIMER_FLAGS},
        "generations": {"count": GENERATIONS, "key": "generation", "id_bit": GENERATION_ID_BIT},
        "packet_io": {"cpu_port": CPU_PORT, "packet_out": [[n, b] for n, b in PACKET_OUT_FIELDS],
                      "opcodes": PACKET_OUT_OPCODES},
        "tables": out_tables,
        "counters": {c: {"name": f"{ctl}.{c}", "indices": idx} for c, idx in counters.items()},
        "clock": clock_section(p, program, ctl),
    }
    if program == "tor":          # counted in egress, where a frame leaves
        out["counters"]["departures"] = {"name": "UroEgress.departures", "indices": list(DEPARTURE_BUCKETS)}
        out["counters"]["departure_queue"] = {"name": "UroEgress.departure_queue", "indices": list(DEPARTURE_BUCKETS)}
        out["counters"]["departure_phase"] = {"name": "UroEgress.departure_phase", "indices": list(DEPARTURE_PHASES)}
    if program == "ocs":
        out["fault"] = {"registers": {"port": {"name": f"{ctl}.{OCS_PORT_FAULT[0]}", "bits": p.slices,
                                               "size": p.ocs_ports, "meaning": OCS_PORT_FAULT[1]}}}
    if program == "tor":
        out["liveness"] = liveness_section(p, ctl)
        # the marks ride on the clock's read (bmv2: the PROBE's PacketIn, docs/liveness.md
        # "How the daemon learns"): clock register live_<short>, packet_in field clock_live_<short>
        for short in LIVENESS_READ:
            out["clock"]["registers"][f"live_{short}"] = dict(out["liveness"]["registers"][short])
            out["clock"]["packet_in"][f"live_{short}"] = f"clock_live_{short}"
    out["packet_io"]["packet_in"] = [[n, b] for n, b in packet_in_fields(out["clock"])]
    if program == "tor":
        out["calendar"] = {"priority_queues": PRIORITY_QUEUES, "hold_queues": HOLD_QUEUES,
                           "depart_priority": DEPART_PRIORITY, "hold_crowd": HOLD_CROWD}
        out["action_profiles"] = {"ssrr_selector": {"name": f"{ctl}.ssrr_selector", "size": sizes["ssrr_selector"],
                                                    "max_group_size": p.tables.ssrr_ties}}
    return out


def _reindent(text: str, width: int) -> str:
    """Template filter: move a rendered block to ``width`` spaces, keeping its shape."""
    body = textwrap.dedent(str(text)).strip("\n")
    return textwrap.indent(body, " " * width) + "\n"


def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["reindent"] = _reindent
    return env


class _Obj(dict):
    """dict with attribute access, so templates can write contract.tables.uro_next_hop.short."""

    def __getattr__(self, k):
        try:
            v = self[k]
        except KeyError:
            raise AttributeError(k) from None
        return _Obj(v) if isinstance(v, dict) else v


def render(profile: Profile, program: str = "tor", target: str = "bmv2") -> tuple[str, dict]:
    """Return (P4 source, contract) of one program for one profile.

    A target with its own limits (``problems``) refuses a profile it cannot hold before
    anything is rendered, naming every reason."""
    tgt = target_class(target)
    profile = profile.for_target(target)
    problems = getattr(tgt, "problems", None)
    if problems is not None:
        found = problems(profile, program)
        if found:
                raise ProfileError(f"profile {profile.name!r} does not fit {target}: " + "; ".join(found))
    else:
        profile.check_program(program)
    c = contract(profile, program)
    if hasattr(tgt, "adapt_contract"):
        c = tgt.adapt_contract(c, profile)
    extra = tgt.context(profile) if hasattr(tgt, "context") else {}
    tmpl = _env().get_template(f"{program}_{tgt.arch}.p4.j2")
    text = tmpl.render(p=profile, tgt=tgt, contract=_Obj(c), timer_ethertype=TIMER_ETHERTYPE,
                       sizes=profile.table_sizes(), cpu_port=CPU_PORT, timer_flags=TIMER_FLAGS,
                       opcodes=PACKET_OUT_OPCODES, packet_out_fields=PACKET_OUT_FIELDS, t=extra,
                       sync_ops={o.name: int(o) for o in sync_msg.Op})
    # collapse runs of blank lines left by template control blocks
    lines, blank = [], 0
    for line in text.splitlines():
        blank = blank + 1 if not line.strip() else 0
        if blank <= 1:
            lines.append(line.rstrip())
    return "\n".join(lines).rstrip() + "\n", c


def output_name(profile: Profile, program: str, target: str = "bmv2") -> str:
    """``<program>_<profile>`` for bmv2, ``<program>_<profile>_<arch>`` for other targets."""
    base = f"{program}_{profile.name}"
    return base if target == "bmv2" else f"{base}_{target_class(target).arch}"


def render_to(profile: Profile, out_dir: str | Path, programs: list[str] | None = None,
              target: str = "bmv2") -> list[Path]:
    """Render every program of a profile into out_dir; nothing is written unless all render."""
    tgt = target_class(target)
    programs = programs or [p for p in profile.programs() if p in getattr(tgt, "programs", (p,))]
    rendered = [(prog, *render(profile, prog, target)) for prog in programs]
    out = Path(out_dir)
    written = []
    for prog, text, c in rendered:
        base = output_name(profile, prog, target)
        write_text(out / f"{base}.p4", text)
        write_text(out / f"{base}.contract.json", json.dumps(c, indent=1, sort_keys=True) + "\n")
        written += [out / f"{base}.p4", out / f"{base}.contract.json"]
    return written
