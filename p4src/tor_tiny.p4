/*
 * uro ToR program for bmv2 (v1model, simple_switch_grpc) -- GENERATED, do not edit.
 * Rendered from templates/tor_v1model.p4.j2 for profile "tiny" by controller.p4gen.
 *
 * Pipeline (one ToR of a time-sliced optical DCN):
 *   slice clock (docs/clock.md): sync mode (clock_config): the slice, epoch and queue rotation
 *   from the switch's own clock plus the correction the sync exchanges keep; sync messages
 *   (TRIGGER/PROBE from the pktgen port 500, REQ/RESP from uplinks, PROBE/SEED from the CPU
 *   port) answered or applied and counted (`sync`), never forwarded as data;
 *   liveness per circuit (liveness_config; docs/liveness.md): the sync exchange is each
 *   circuit's beacon; a (slice, uplink) silent for down_after circuits is marked down
 *   (live_mask), which the lookups treat as the daemon's dead mask
 *   timer mode (no clock_config): timer packets, only from the CPU port (P4Runtime PacketOut)
 *   -> slice clock (never forwarded)
 *   config (the table default): no entry -> everything but timers dropped and counted
 *   edge checks: malformed IPv4, bad checksum, SSRR from a host -> dropped and counted
 *   IPv4: dst IP -> dst ToR | local host port
 *         route_mode(gen, dst ToR) -> URO per-hop one-shot lookup | UCMP SSRR source route
 *         SSRR in transit: take the hop at the pointer in its send slice (a hop that
 *         names another ToR crossed a slice boundary: re-sourced here);
 *         late, Full or on a failed uplink -> re-sourced from this ToR (UCMP §6.3)
 *   calendar queues: a packet is admitted only if it fits the slice's remaining bytes;
 *   departure in the current slice -> out now; in a later slice -> held by
 *   recirculation through a slowly paced hold queue of its uplink (egress priority
 *   queues) until the slice clock reaches it; slice missed -> routed again from
 *   the current slice; held longer than one cycle -> dropped.
 *   One route generation serves the packet in the whole network: its source ToR stamps
 *   it into the IPv4 header's reserved flag bit, every other ToR routes by the stamp
 *   (a stamp not live here: dropped and counted), the destination ToR clears it. Every drop reason and reroute is counted (`drops`, `events`).
 */
#include <core.p4>
#include <v1model.p4>

/* ---- constants and types (profile tiny) -------------------------------------
 * N = 8 ToRs, d = 2 uplinks, 2 host ports,
 * S = 4 slices, K = 3 alternatives, H = 4 SSRR hops,
 * Q = 4 calendar queues per uplink.
 */
const bit<16> ETHERTYPE_IPV4  = 0x0800;
const bit<8>  IPOPT_NOP  = 1;
const bit<8>  IPOPT_SSRR = 137;      // Strict Source and Record Route
const bit<8>  IPPROTO_TCP = 6;
const bit<8>  IPPROTO_UDP = 17;

typedef bit<16>    tor_t;      // ToR id
typedef bit<8>  uplink_t;   // uplink index 0..d-1
typedef bit<8>  slice_t;    // slice id 0..S-1
typedef bit<8>  bucket_t;   // UCMP flow-size bucket
typedef bit<8>  qstate_t;   // Full(1)/Unfull(0) bit per (uplink, calendar queue)
typedef bit<2>  down_t;     // down(1) bit per uplink (config)
typedef bit<8>  dead_t;     // dead(1) bit per (slice, uplink): bit s*d + u (config)

const bit<32> NUM_SLICES  = 4;
const bit<32> NUM_QUEUES  = 4;   // calendar queues per uplink
const bit<32> NUM_UPLINKS = 2;
const bit<32> NUM_TORS    = 8;
const bit<32> UPLINK_PORT_BASE = 2;   // uplink u leaves on port UPLINK_PORT_BASE + u
const bit<8>  MAX_REROUTES = 5;   // re-decisions of one packet on this ToR (UCMP §6.3)
const bit<32> MIN_FRAME_BYTES = 64;    // a calendar queue with less room left is Full
const bit<32> SSRR_PATH_BUCKETS = 64;   // buckets the ssrr_paths counter tells apart

const bit<32> DROP_NO_ROUTE = 0;
const bit<32> DROP_ALL_FULL = 1;
const bit<32> DROP_HELD_TOO_LONG = 2;
const bit<32> DROP_BAD_SSRR = 3;
const bit<32> DROP_TTL = 4;
const bit<32> DROP_MALFORMED = 5;
const bit<32> DROP_NOT_IPV4 = 6;
const bit<32> DROP_BAD_TIMER = 7;
const bit<32> DROP_UNCONFIGURED = 8;
const bit<32> DROP_BAD_CHECKSUM = 9;
const bit<32> DROP_REROUTE_LIMIT = 10;
const bit<32> DROP_STALE_GEN = 11;
const bit<32> EVENT_REROUTE_MISSED = 0;
const bit<32> EVENT_REROUTE_SPILL = 1;
const bit<32> EVENT_TIMER = 2;
const bit<32> EVENT_SSRR_WRITTEN = 3;
const bit<32> EVENT_SSRR_TRANSIT = 4;
const bit<32> EVENT_TIMER_SYNC = 5;
const bit<32> EVENT_TIMER_REJECTED = 6;
const bit<32> EVENT_SSRR_RESOURCED = 7;
const bit<32> EVENT_SSRR_MISSED = 8;
const bit<32> EVENT_UPLINK_DOWN = 9;
const bit<32> EVENT_GEN_OTHER = 10;
const bit<32> EVENT_SSRR_DEFERRED = 11;
const bit<32> EVENT_SSRR_MISDELIVERED = 12;
const bit<32> EVENT_DEPARTED_LATE = 13;
const bit<16> ETHERTYPE_TIMER = 0x88B5;   // slice timer packets, never forwarded
const bit<16> TIMER_FLAG_SYNC = 1;     // set the clock to this slice whatever the step
const bit<9>  CPU_PORT = 510;             // simple_switch_grpc --cpu-port: P4Runtime PacketOut enters here
const bit<8>  OPCODE_TIMER = 0;          // packet_out.opcode of a timer
const bit<32> DEFAULT_MAX_TIMER_STEP = 1;   // before the config entry says otherwise
/* ---- slice clock: sync messages (docs/clock.md, controller.clock.message) ------------- */
const bit<16> ETHERTYPE_SYNC = 0x88B6;
const bit<8>  SYNC_OP_REQ = 1;
const bit<8>  SYNC_OP_RESP = 2;
const bit<8>  SYNC_OP_TRIGGER = 3;
const bit<8>  SYNC_OP_PROBE = 4;
const bit<8>  SYNC_OP_PROBE_REPLY = 5;
const bit<8>  SYNC_OP_SEED = 6;
const bit<8>  SYNC_OP_NOTICE = 7;
const bit<8>  SYNC_FLAG_REF = 1;
const bit<8>  SYNC_FLAG_BOOT = 2;
const bit<8>  SYNC_FLAG_TIMER = 4;
const bit<16> SYNC_REF_TOR = 0xFFFF;   // the reference clock
const bit<16> SYNC_ANY_TOR = 0xFFFE;   // a searching REQ: whoever the circuit brings
const bit<8>  STRATUM_UNSYNCED = 255;
const bit<8>  CLOCK_SYNC = 1;            // clock_config.mode; anything else: timer mode
const bit<9>  PKTGEN_PORT = 500;          // the emulated packet generator (TRIGGER, PROBE)
const bit<8>  OPCODE_SYNC = 0;            // packet_out.opcode of a PROBE or SEED
/* ns -> us of a 32-bit value without division: x / 1000 == (x * DIV1000_MUL) >> 38 */
const bit<64> DIV1000_MUL = 0x10624DD3;
const bit<32> SYNC_FROM_HOST = 0;
const bit<32> SYNC_MALFORMED = 1;
const bit<32> SYNC_OFF = 2;
const bit<32> SYNC_REQ_SENT = 3;
const bit<32> SYNC_REF_REQ_SENT = 4;
const bit<32> SYNC_OUTSIDE_WINDOW = 5;
const bit<32> SYNC_NOT_DUE = 6;
const bit<32> SYNC_NO_PEER = 7;
const bit<32> SYNC_RESP_SENT = 8;
const bit<32> SYNC_WRONG_PEER = 9;
const bit<32> SYNC_WRONG_DST = 10;
const bit<32> SYNC_STALE = 11;
const bit<32> SYNC_SLOW = 12;
const bit<32> SYNC_PEER_WORSE = 13;
const bit<32> SYNC_STEP = 14;
const bit<32> SYNC_FILTERED = 15;
const bit<32> SYNC_REFUSED = 16;
const bit<32> SYNC_LOST = 17;
const bit<32> SYNC_APPLIED = 18;
const bit<32> SYNC_PROBE = 19;
const bit<32> SYNC_SEED = 20;
const bit<32> SYNC_ADOPTED = 21;
const bit<32> SYNC_CLAIMED = 22;
/* ---- liveness per circuit (docs/liveness.md) ------------------------------------------ */
const bit<32> LIVE_HEARD = 0;
const bit<32> LIVE_SILENT = 1;
const bit<32> LIVE_WRONG_PEER = 2;
const bit<32> LIVE_DOWN = 3;
const bit<32> LIVE_UP = 4;
const bit<32> LIVE_PAUSED = 5;
const bit<32> LIVE_UNASKED = 6;
const bit<32> NOTE_APPLIED = 0;
const bit<32> NOTE_DUPLICATE = 1;
const bit<32> NOTE_WRONG_PEER = 2;
const bit<32> NOTE_UNKNOWN = 3;
const bit<32> NOTE_FLOOD = 4;
const bit<32> NOTE_FROM_HOST = 5;
const bit<32> NOTE_OFF = 6;
const bit<32> NOTE_SENT = 7;
const bit<32> NOTE_BUSY = 8;
const bit<32> NOTE_AVOIDED = 9;
const bit<32> NOTE_REFRESH = 10;
const bit<32> NOTE_REPLACED = 11;

/* Guard at the start of every slice (the schedule's reconfiguration guard, timing.guard_us):
 * nothing departs before slice start + guard, so a packet released at the start of a
 * slice reaches the next ToR after that ToR's timer too, and the OCS has moved (the
 * timers reach the switches one after another: docs/emulate.md "Skew"). */
const bit<48> SLICE_GUARD_US = 0;
const bit<32> PASS_HELD = 0;
const bit<32> PASS_REDECIDED = 1;
const bit<32> PASS_SYNC = 2;
const bit<32> PASS_FRESH = 3;

/* Calendar queues on bmv2 (docs/p4.md): each port has 8 egress priority queues
 * (simple_switch_grpc -- --priority-queues 8). On an uplink, the top one carries what
 * departs now (and a packet in its slice's guard), at the uplink's pace; queues
 * 0..6 are hold queues, each paced slowly, where a packet held for a later slice circles.
 * A held packet takes the lowest hold queue holding fewer than HOLD_CROWD packets (as
 * last seen in egress, hold_depth), so the passes per second grow with what is held:
 * one held packet costs one slow queue's pace, many spread over more queues. */
const bit<3> DEPART_PRIORITY = 7;
const bit<32> HOLD_QUEUES = 7;
const bit<19> HOLD_CROWD = 4;

/* ---- headers ------------------------------------------------------------------------- */
header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

/* P4Runtime PacketOut metadata (bmv2 prepends it to frames from the CPU port). */
@controller_header("packet_out")
header packet_out_t {
    bit<8> opcode;      // 0 = the frame is a slice timer
}

/* Slice timer: sets the slice clock to `slice` (the pktgen batch id on Tofino2).
 * flags bit 0 (SYNC): apply whatever the step (the controller (re)synchronising). */
header timer_t {
    bit<16> slice;
    bit<16> flags;
}

/* Sync message (EtherType 0x88B6, 52 bytes): t1..t3 are (k, phase) pairs, network
 * time T = k * L + phase (slice number, ns into the slice). */
header sync_t {
    bit<8> op;
    bit<8> flags;
    bit<16> src_tor;
    bit<16> dst_tor;
    bit<8> uplink;
    bit<8> stratum;
    bit<16> term;
    bit<16> lead;
    bit<32> lead_k;
    bit<32> t1_k;
    bit<32> t1_phase;
    bit<32> t2_k;
    bit<32> t2_phase;
    bit<32> t3_k;
    bit<32> t3_phase;
    bit<16> slice;
    bit<16> reserved;
    bit<64> aux;
}

/* P4Runtime PacketIn metadata: the answer to a PROBE from the CPU port carries the clock's
 * registers (bmv2's P4Runtime server reads no registers; docs/clock.md). */
@controller_header("packet_in")
header packet_in_t {
    bit<32> clock_k;
    bit<64> clock_next;
    bit<32> clock_len;
    bit<8> clock_stratum;
    bit<16> clock_term;
    bit<16> clock_lead;
    bit<32> clock_lead_k;
    bit<8> clock_refusals;
    bit<32> clock_offset;
    bit<32> clock_delay;
    bit<32> clock_last_k;
    bit<32> clock_t4_k;
    bit<32> clock_t4_phase;
    bit<8> clock_slice;
    bit<32> clock_epoch;
    bit<32> clock_active_q;
    bit<8> clock_live_mask;
    bit<8> clock_live_wrong;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<6>  dscp;
    bit<2>  ecn;
    bit<16> totalLen;
    bit<16> identification;
    bit<3>  flags;
    bit<13> fragOffset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdrChecksum;
    bit<32> srcAddr;
    bit<32> dstAddr;
}

/* IPv4 options as written by the source ToR: one NOP (to keep hops 4-byte aligned),
 * then option 137 = type, length (3 + 4 x hops), pointer (1-based octet offset, inside
 * the option, of the next hop to take: 4 for hop 0, 8 for hop 1, ...). */
header ssrr_t {
    bit<8> nop;
    bit<8> type;
    bit<8> len;
    bit<8> ptr;
}

/* One source-route hop (4 bytes): leave on `uplink` in slice `send_slice`, reaching `next_tor`. */
header ssrr_hop_t {
    tor_t    next_tor;
    uplink_t uplink;
    slice_t  send_slice;
}

/* First 4 bytes of TCP/UDP: the ports of the 5-tuple. */
header l4_ports_t {
    bit<16> srcPort;
    bit<16> dstPort;
}

struct headers_t {
    packet_in_t  packet_in;
    packet_out_t packet_out;
    ethernet_t ethernet;
    timer_t    timer;
    sync_t     sync;
    ipv4_t     ipv4;
    ssrr_t     ssrr;
    ssrr_hop_t[4] hops;
    l4_ports_t l4;
}

/* ---- metadata ------------------------------------------------------------------------ */
struct metadata_t {
    /* carried across recirculation (field list 1): what one packet's stay at this ToR keeps */
    @field_list(1) bit<1>   recirculated;  // not the packet's first pass here
    @field_list(1) bit<1>   gen;           // route generation of the packet: stamped at its source ToR
    @field_list(1) bit<1>   held;          // waiting in a calendar queue for its departure slice
    @field_list(1) bit<1>   redecide;      // the next pass decides again from this ToR
    @field_list(1) bit<1>   late;          // redecided by egress: its slice ended before it could leave
    @field_list(1) bit<8>   reroutes;      // re-decisions so far (bounded by MAX_REROUTES)
    @field_list(1) uplink_t hold_uplink;
    @field_list(1) bit<32>  hold_wait;     // slices between admission and departure (the rank)
    @field_list(1) bit<3>   hold_q;        // the hold queue (egress priority queue of its uplink) it circles in
    @field_list(1) bit<1>   hold_booked;   // counted into hold_depth[hold_q] by egress for its next wait
    @field_list(1) bit<32>  admit_epoch;   // slice epoch at admission
    @field_list(1) bit<32>  first_epoch;   // slice epoch when the packet first entered this ToR (or its source route here starts)
    @field_list(1) tor_t    dst_tor;
    @field_list(1) bit<48>  recirc_ts;     // egress time of the last pass (bmv2 zeroes the ingress time of a recirculated packet)
    @field_list(1) bit<32>  ssrr_not_before; // source route: look up the path of the slice of this epoch at the earliest
    @field_list(1) bit<1>   from_host;     // entered this ToR from a host (its source route is written here)
    /* config (one entry, the table default) */
    bit<1>   configured;
    tor_t    my_tor;
    bit<1>   cfg_gen;        // the route generation stamped into packets from hosts
    bit<2>   live;           // generations complete here (bit g): stamps routed by
    down_t   down;           // failed uplinks
    dead_t   dead;           // (slice, uplink) pairs leading to a dead ToR: bit s*d + u
    bit<32>  capacity;       // bytes one calendar queue takes per slice
    bit<32>  bytes_per_us;   // uplink rate: the byte clock of the active queue (0: off)
    bit<32>  max_step;       // largest forward step of the slice clock a timer may make
    /* per pass */
    bit<1>   in_hold;        // this pass waits in a hold queue (egress: note how crowded it was)
    bit<1>   pick_hold;      // egress picks the hold queue of the packet's next wait
    slice_t  cur_slice;      // slice clock = arrival slice of this pass
    bit<32>  epoch;          // slices elapsed since start (never wraps in practice)
    bit<32>  active_q;       // calendar queue of the current slice
    bit<48>  slice_start;    // when the current slice started (timer arrival time)
    bit<48>  now;            // this pass's time (us)
    qstate_t qstate;         // Full/Unfull bitmap, read once per pass
    bit<1>   routed;
    bit<1>   is_local;
    bit<1>   use_ssrr;
    slice_t  ssrr_start;     // start slice of the source-route lookup (>= the current slice)
    bit<32>  ssrr_lead;      // slices from the current slice to ssrr_start
    bucket_t bucket;
    bit<8>   path_len;
    bit<8>   parse_hops;
    bit<16>  l4_src;
    bit<16>  l4_dst;
    bit<32>  out_len;        // bytes of the frame as it will leave (options written at the source)
    /* URO one-shot alternatives of the matched entry */
    bit<8>   n_alts;
    uplink_t alt_up_0;
    slice_t  alt_sl_0;
    uplink_t alt_up_1;
    slice_t  alt_sl_1;
    uplink_t alt_up_2;
    slice_t  alt_sl_2;
    /* the chosen departure */
    bit<1>   have_dep;
    bit<8>   dep_alt;
    uplink_t dep_uplink;
    slice_t  dep_slice;
    bit<32>  dep_rank;       // (dep_slice - cur_slice) mod S
    bit<32>  dep_queue;      // (active_q + rank) mod Q
    bit<1>   tried_full;     // some alternative was skipped because its queue is Full
    bit<1>   saw_down;       // some alternative was skipped because its uplink is down
    /* SSRR hop at the pointer */
    tor_t    prev_next_tor;  // next_tor of the hop that brought the packet here
    slice_t  prev_slice;     // send slice of that hop
    tor_t    hop_next_tor;
    uplink_t hop_uplink;
    slice_t  hop_slice;
    bit<8>   hop_idx;
    /* slice clock (docs/clock.md): config, this pass's local time and snapshot, what leaves */
    bit<8> clk_mode;
    bit<16> clk_my_tor;
    bit<32> clk_slice_ns;
    bit<32> clk_window_lo;
    bit<32> clk_window_hi;
    bit<32> clk_max_delay;
    bit<32> clk_max_offset;
    bit<32> clk_len_min;
    bit<32> clk_len_max;
    bit<8> clk_servo_shift;
    bit<8> clk_phase_shift;
    bit<32> clk_filter;
    bit<32> clk_filter_creep;
    bit<32> clk_rate_step;
    bit<8> clk_refuse_limit;
    bit<1> clk_candidate;
    bit<8> clk_ref_uplink;
    bit<32> clk_exchange_every;
    bit<32> clk_claim_wait;
    bit<32> clk_start_wait;
    bit<32> clk_search_wait;
    bit<64> clk_l;           // local time (ns) of this pass (after the emulated fault, ToR)
    bit<64> clk_fault;       // the emulated fault's offset (ns, two's complement; 0 on the OCS)
    bit<32> clk_k;           // slice number
    bit<64> clk_next;        // local time of the next boundary
    bit<32> clk_len;         // local slice length in use
    bit<32> clk_phase;       // ns since this slice's boundary
    bit<8>  clk_stratum;
    bit<2>  sync_out;        // a sync message leaves: 1 REQ (t1 in egress), 2 RESP / PROBE_REPLY (t3)

    bit<1>   peer_hit;       // sync_peer: this slice's circuit on peer_uplink reaches `peer`
    tor_t    peer;
    uplink_t peer_uplink;
    /* liveness per circuit (liveness_config; docs/liveness.md) */
    bit<8>   lv_down_after;  // consecutive silent circuits that mark one down (0: liveness off)
    dead_t   lv_expect;      // the (slice, uplink) pairs with a circuit: bit s*d + u
    bit<8>   lv_note_rate;   // notices taken per slice on average (0: no notices)
    bit<8>   lv_note_burst;  // ... and at once (the token bucket's depth)
    bit<8>   lv_note_refresh; // cycles between two sends of this ToR's unchanged marks of a slice (0: never)

}

/* ---- parser ---------------------------------------------------------------------------
 * [packet_out from the CPU port ->] Ethernet -> timer | sync | IPv4 [-> NOP + SSRR option + hops]
 * -> TCP/UDP ports. Anything malformed (truncated headers or options, more hops than H)
 * ends in a parser error that ingress drops and counts; IHL < 5, version != 4 and the
 * like are parsed as far as they go and dropped by ingress. */
parser UroParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t sm) {
    state start {
        transition select(sm.ingress_port) {
            CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }
    state parse_packet_out {
        pkt.extract(hdr.packet_out);
        transition parse_ethernet;
    }

    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_TIMER: parse_timer;
            ETHERTYPE_SYNC:  parse_sync;
            ETHERTYPE_IPV4:  parse_ipv4;
            default: accept;
        }
    }
    state parse_timer {
        pkt.extract(hdr.timer);
        transition accept;
    }
    state parse_sync {
        pkt.extract(hdr.sync);       // truncated: a parser error, the sync channel counts it malformed
        transition accept;
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl) {
            5: parse_l4;
            0 &&& 0xC: accept;       // ihl < 5 (0..3; 4 below): malformed, ingress drops
            4: accept;
            default: parse_options;  // ihl 6..15
        }
    }
    state parse_options {
        pkt.extract(hdr.ssrr);
        meta.parse_hops = (hdr.ssrr.len - 3) >> 2;
        transition select(hdr.ssrr.nop, hdr.ssrr.type) {
            (IPOPT_NOP, IPOPT_SSRR): parse_hops;
            default: accept;         // other options: not ours, ingress drops as bad SSRR
        }
    }
    state parse_hops {
        transition select(meta.parse_hops) {
            0: parse_l4;
            default: parse_hop;
        }
    }
    state parse_hop {
        pkt.extract(hdr.hops.next);  // more than H hops: StackOutOfBounds
        meta.parse_hops = meta.parse_hops - 1;
        transition parse_hops;
    }
    state parse_l4 {
        transition select(hdr.ipv4.protocol) {
            IPPROTO_TCP: parse_ports;
            IPPROTO_UDP: parse_ports;
            default: accept;
        }
    }
    state parse_ports {
        pkt.extract(hdr.l4);
        transition accept;
    }
}

control UroDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.packet_in);     // a PROBE's answer to the CPU port: the clock's registers
        pkt.emit(hdr.packet_out);    // never valid on the way out: timers are not forwarded
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.timer);
        pkt.emit(hdr.sync);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ssrr);
        pkt.emit(hdr.hops);
        pkt.emit(hdr.l4);
    }
}

/* slice clock: the registers ingress and egress share */
register<bit<64>>(2) clock_req_t1;   // its t1 (k << 32 | phase): the RESP must echo it

/* calendar queues: packets in each (uplink, hold queue) as last seen in egress */
register<bit<19>>(14) hold_depth;

control UroVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        /* IPv4 header checksum over the header and the SSRR option: a mismatch sets
         * checksum_error, which ingress drops and counts (bad_checksum). */
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr,
              hdr.ssrr.nop, hdr.ssrr.type, hdr.ssrr.len, hdr.ssrr.ptr,
              hdr.hops[0].next_tor, hdr.hops[0].uplink, hdr.hops[0].send_slice,
              hdr.hops[1].next_tor, hdr.hops[1].uplink, hdr.hops[1].send_slice,
              hdr.hops[2].next_tor, hdr.hops[2].uplink, hdr.hops[2].send_slice,
              hdr.hops[3].next_tor, hdr.hops[3].uplink, hdr.hops[3].send_slice },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control UroIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t sm) {
    /* drop reasons: no_route, all_full, held_too_long, bad_ssrr, ttl, malformed, not_ipv4, bad_timer, unconfigured, bad_checksum, reroute_limit, stale_gen */
    counter(12, CounterType.packets) drops;
    /* events: reroute_missed, reroute_spill, timer, ssrr_written, ssrr_transit, timer_sync, timer_rejected, ssrr_resourced, ssrr_missed, uplink_down, gen_other, ssrr_deferred, ssrr_misdelivered, departed_late */
    counter(14, CounterType.packets) events;
    /* source routes written here for packets from hosts, by UCMP bucket and hop count:
     * b0h1 .. b63h4 (cell bucket * 4 + hops - 1) */
    counter(256, CounterType.packets) ssrr_paths;
    /* every ingress pass by what it carries (what a software switch's thread spends its
     * time on): held, redecided, sync, fresh */
    counter(4, CounterType.packets) passes;

    /* ---- slice clock (advanced by timer packets) and calendar-queue state ---------- */
    register<slice_t>(1) slice_reg;       // current slice id
    register<bit<32>>(1) epoch_reg;       // slices elapsed (for hold bookkeeping)
    register<bit<32>>(1) active_q_reg;    // calendar queue of the current slice
    register<bit<48>>(1) slice_start_reg; // when the current slice started (us)
    register<qstate_t>(1) qstate_reg;     // Full bit per (uplink, queue): bit uplink*Q + queue
    register<bit<32>>(8) qbytes_reg;  // byte position the queue drains at
    register<bit<32>>(8) qtag_reg;    // departure epoch that position belongs to

    /* The one config entry (the table's default, written by the controller): this ToR's
     * id, the route generation it stamps into its hosts' packets, the generations complete
     * here (bit g: packets stamped g elsewhere are routed by them), the failed uplinks,
     * the (slice, uplink) pairs whose circuit leads to a dead ToR, bytes per calendar queue per
     * slice, the uplink rate (the active queue's byte clock; 0 = off) and the largest
     * step a timer may move the clock. Without it the switch is unconfigured: it drops
     * and counts everything but timers. */
    action set_config(tor_t my_tor, bit<1> generation, bit<2> live, down_t down, dead_t dead,
                      bit<32> capacity_bytes,
                      bit<32> bytes_per_us, slice_t max_timer_step) {
        meta.configured = 1;
        meta.my_tor = my_tor;
        meta.cfg_gen = generation;
        meta.live = live;
        meta.down = down;
        meta.dead = dead;
        meta.capacity = capacity_bytes;
        meta.bytes_per_us = bytes_per_us;
        meta.max_step = (bit<32>)max_timer_step;
    }
    action unconfigured() {
        meta.configured = 0;
    }
    table config {
        actions = { set_config; unconfigured; }
        default_action = unconfigured();
        size = 1;
    }

    /* ---- slice clock in sync mode (docs/clock.md): registers the daemon reads --------- */
    register<bit<32>>(1) clock_k;   // slice number of the current slice
    register<bit<64>>(1) clock_next;   // local time (ns) of the next slice boundary
    register<bit<32>>(1) clock_len;   // local length (ns) of a slice: the rate correction (0: never written, L)
    register<bit<8>>(1) clock_stratum;   // 255 - stratum (a register never written reads as unsynchronized)
    register<bit<16>>(1) clock_term;   // election term followed (0: none yet)
    register<bit<16>>(1) clock_lead;   // lead ToR of that term
    register<bit<32>>(1) clock_lead_k;   // slice number at which the lead last exchanged with the reference
    register<bit<8>>(1) clock_refusals;   // consecutive refused exchanges
    register<bit<32>>(1) clock_offset;   // theta of the last exchange evaluated (signed ns, saturated to 32 bits)
    register<bit<32>>(1) clock_delay;   // delta of the last exchange evaluated (signed ns, saturated to 32 bits)
    register<bit<32>>(1) clock_last_k;   // slice number of the last correction (step or applied)
    register<bit<32>>(1) clock_t4_k;   // t4 of the last exchange evaluated: slice number
    register<bit<32>>(1) clock_t4_phase;   // t4 of the last exchange evaluated: phase
    register<bit<1>>(2) clock_req_open;   // a REQ on this uplink waits for its RESP
    register<bit<32>>(2) clock_req_k;   // slice number of this uplink's last REQ
    register<bit<16>>(2) clock_req_peer;   // the peer it went to (0xFFFF the reference, 0xFFFE anyone)
    register<bit<32>>(2) clock_min_delay;   // the clock filter: 2^32 - 1 - the least path delay (ns) recently seen on this uplink (never written: none yet)
    /* emulation-only clock fault (bmv2; `uro emulate clock`, written over Thrift) */
    register<bit<32>>(1) clock_fault_rate;   // drift: a signed fraction in units of 2^-24 (FaultModel.rate_of_ppm), two's complement
    register<bit<32>>(1) clock_fault_step;   // ns added to the local clock (signed 32 bits, two's complement: at most +-2.1 s)
    register<bit<64>>(1) clock_fault_acc;   // the drift integrated so far (signed, 2^-24 ns; internal)
    register<bit<64>>(1) clock_fault_last;   // raw local time (ns) of the last integration
    register<bit<16>>(1) clock_fault_id;   // a wrong ToR id: when not 0, the clock's messages name ToR id - 1 as their sender and it takes messages addressed to it (a misconfigured ToR; 0: the configured id)
    counter(23, CounterType.packets) sync;

    /* The clock's config (the table default): mode (sync or timer: no entry is timer mode)
     * and, precomputed by the controller (controller.clock.params), what the switch only
     * compares, adds and shifts. */
    action set_clock(bit<8> mode, bit<16> my_tor, bit<32> slice_ns, bit<32> window_lo, bit<32> window_hi, bit<32> max_delay, bit<32> max_offset, bit<32> len_min, bit<32> len_max, bit<8> servo_shift, bit<8> phase_shift, bit<32> filter, bit<32> filter_creep, bit<32> rate_step, bit<8> refuse_limit, bit<1> candidate, bit<8> ref_uplink, bit<32> exchange_every, bit<32> claim_wait, bit<32> start_wait, bit<32> search_wait) {
        meta.clk_mode = mode;
        meta.clk_my_tor = my_tor;
        meta.clk_slice_ns = slice_ns;
        meta.clk_window_lo = window_lo;
        meta.clk_window_hi = window_hi;
        meta.clk_max_delay = max_delay;
        meta.clk_max_offset = max_offset;
        meta.clk_len_min = len_min;
        meta.clk_len_max = len_max;
        meta.clk_servo_shift = servo_shift;
        meta.clk_phase_shift = phase_shift;
        meta.clk_filter = filter;
        meta.clk_filter_creep = filter_creep;
        meta.clk_rate_step = rate_step;
        meta.clk_refuse_limit = refuse_limit;
        meta.clk_candidate = candidate;
        meta.clk_ref_uplink = ref_uplink;
        meta.clk_exchange_every = exchange_every;
        meta.clk_claim_wait = claim_wait;
        meta.clk_start_wait = start_wait;
        meta.clk_search_wait = search_wait;
    }
    action clock_off() {
        meta.clk_mode = 0;
    }
    table clock_config {
        actions = { set_clock; clock_off; }
        default_action = clock_off();
        size = 1;
    }

    action clock_phase() {
        bit<64> left = meta.clk_next - meta.clk_l;   // > 0 unless a boundary passed
        meta.clk_phase = (left <= (bit<64>)meta.clk_len) ? meta.clk_len - (bit<32>)left : 0;
        bit<48> phase_us = (bit<48>)(((bit<64>)meta.clk_phase * DIV1000_MUL) >> 38);
        meta.slice_start = (phase_us > meta.now) ? 0 : meta.now - phase_us;
    }
    action clock_now() {
        bit<64> raw = (bit<64>)meta.now * 1000;
        bit<32> frate;
        bit<32> fstep;
        bit<64> facc;
        bit<64> flast;
        clock_fault_rate.read(frate, 0);
        clock_fault_step.read(fstep, 0);
        clock_fault_acc.read(facc, 0);
        clock_fault_last.read(flast, 0);
        bit<64> dt = raw - flast;
        dt = (dt > 0xFFFFFFFF) ? 64w0xFFFFFFFF : dt;
        bool adv = raw > flast;
        facc = adv ? facc + (bit<64>)((int<64>)dt * (int<64>)(int<32>)frate) : facc;
        clock_fault_acc.write(0, facc);
        clock_fault_last.write(0, adv ? raw : flast);
        meta.clk_fault = (bit<64>)(int<64>)(int<32>)fstep
                         + (bit<64>)(((int<64>)facc) >> 24);
        meta.clk_l = raw + meta.clk_fault;
        bit<32> lreg;
        clock_len.read(lreg, 0);
        lreg = (lreg == 0) ? meta.clk_slice_ns : lreg;
        lreg = (lreg < meta.clk_len_min) ? meta.clk_len_min : lreg;
        lreg = (lreg > meta.clk_len_max) ? meta.clk_len_max : lreg;
        meta.clk_len = lreg;
        clock_k.read(meta.clk_k, 0);
        clock_next.read(meta.clk_next, 0);
        clock_phase();
    }
    /* sync_peer(slice, uplink) -> the ToR this slice's circuit reaches on that uplink */
    action set_peer(tor_t peer) {
        meta.peer_hit = 1;
        meta.peer = peer;
    }
    action no_peer() {
        meta.peer_hit = 0;
    }
    table sync_peer {
        key = {
            meta.cur_slice: exact @name("slice");
            meta.peer_uplink: exact @name("uplink");
        }
        actions = { set_peer; @defaultonly no_peer; }
        default_action = no_peer();
        size = 8;
    }

    /* ---- liveness per circuit (docs/liveness.md) ------------------------------------- */
    register<bit<8>>(1) live_mask;   // circuits marked down by liveness (bit s*d + u): the lookups treat them as dead
    register<bit<8>>(1) live_wrong;   // circuits whose last evaluation heard only another ToR than the schedule's peer
    register<bit<8>>(1) live_remote;   // circuits whose other end marked them down (bit s*d + u: the last notice of the peer of (s, u) for slice s has its uplink u down): the lookups treat them as dead too
    register<bit<8>>(8) live_miss;   // consecutive silent circuits of (s, u) (saturates at 255)
    register<bit<1>>(8) live_heard;   // cell s*d + u: the peer was heard on (s, u) since that slot was last judged (a beacon counts for the slice its message names)
    register<bit<1>>(8) live_stray;   // cell s*d + u: another (synchronized) ToR was heard there meanwhile
    register<bit<1>>(8) live_asked;   // cell s*d + u: this ToR sent its REQ to the peer there meanwhile (no REQ sent: no verdict)
    register<bit<16>>(8) live_peer;   // cell s*d + u: the sync_peer table's answer for (s, u) + 1, kept by every lookup (0: none yet): a beacon taken in a later slice is checked against it
    register<bit<32>>(1) live_k;   // slice number of the last slice seen (a new one judges its slot)
    register<bit<1>>(4) live_valid;   // cell s: this ToR was synchronized when slot s began collecting (else it is not judged)
    register<bit<32>>(1) live_note_seq;   // sequence number of the last notice this ToR originated (the fabric's slice number it was kept at, or one more than the last: newer after this switch restarts too)
    register<bit<32>>(4) live_note_refresh;   // cell s: slice number from which this ToR's marks of slice s are due to be sent again, whether they changed or not (0: at its next judgment)
    register<bit<2>>(32) live_note_map;   // cell t*S + s: bit u set when ToR t's last notice for slice s marked its uplink u down (the fabric-wide map of dead circuits)
    register<bit<32>>(32) live_note_last;   // cell t*S + s: sequence number of the last notice of ToR t for slice s applied (0: none; an older or equal one is a duplicate)
    register<bit<8>>(1) live_note_tokens;   // the notice rate bound's token bucket
    register<bit<32>>(1) live_note_fill;   // slice number at which the bucket was last filled
    register<bit<16>>(4) live_note_q_origin;   // a notice to send: its origin
    register<bit<32>>(4) live_note_q_seq;   // its sequence number
    register<bit<8>>(4) live_note_q_slice;   // its slice
    register<bit<2>>(4) live_note_q_down;   // its down bits (bit u: the origin's uplink u)
    register<bit<32>>(4) live_note_q_until;   // slice number from which the slot is free (sent on every uplink in every slice before it: one schedule cycle)
    register<bit<32>>(8) live_note_q_sent;   // cell i*d + u: 1 + the slice number slot i was last sent in on uplink u
    register<bit<2>>(4) live_note_q_kind;   // its kind, the more urgent the lower: 0 this ToR's change, 1 another ToR's notice sent on, 2 this ToR's refresh (sent first; takes a less urgent one's slot when none is free)
    /* heard, silent, wrong_peer, down, up, paused, unasked: one count per (uplink, slice) evaluated */
    counter(7, CounterType.packets) liveness;
    /* applied, duplicate, wrong_peer, unknown, flood, from_host, off, sent, busy, avoided, refresh, replaced */
    counter(12, CounterType.packets) notices;

    /* The liveness config (the table default, written by the controller): down_after and
     * the (slice, uplink) pairs the schedule gives a circuit (only those are expected to be
     * heard). No entry: liveness off (nothing evaluated, the mask not used). */
    action set_liveness(bit<8> down_after, bit<8> expect, bit<8> notice_rate, bit<8> notice_burst, bit<8> notice_refresh) {
        meta.lv_down_after = down_after;
        meta.lv_expect = expect;
        meta.lv_note_rate = notice_rate;
        meta.lv_note_burst = notice_burst;
        meta.lv_note_refresh = notice_refresh;
    }
    action liveness_off() {
        meta.lv_down_after = 0;
        meta.lv_note_rate = 0;
        meta.lv_note_refresh = 0;
    }
    table liveness_config {
        actions = { set_liveness; liveness_off; }
        default_action = liveness_off();
        size = 1;
    }

    /* ---- host ingress: dst IP -> dst ToR | local host port ------------------------- */
    action set_dst_tor(tor_t tor) {
        meta.routed = 1;
        meta.is_local = 0;
        meta.dst_tor = tor;
    }
    action deliver_local(bit<9> port) {
        meta.routed = 1;
        meta.is_local = 1;
        sm.egress_spec = port;
    }
    action no_route() {
        meta.routed = 0;
    }
    table host_dst {
        key = { hdr.ipv4.dstAddr: lpm @name("dst_addr"); }
        actions = { set_dst_tor; deliver_local; @defaultonly no_route; }
        default_action = no_route();
        size = 9;
    }

    /* Per (generation, destination): URO per-hop tables (default) or UCMP source routing. */
    action per_hop() { meta.use_ssrr = 0; }
    action source_route() { meta.use_ssrr = 1; }
    table route_mode {
        key = {
            meta.gen:     exact @name("generation");
            meta.dst_tor: exact @name("dst_tor");
        }
        actions = { per_hop; source_route; }
        default_action = per_hop();
        size = 14;
    }

    /* ---- URO per-hop table: (generation, arrival slice, dst ToR) -> K (uplink, departure slice) ---- */
    action set_alternatives(bit<8> n, uplink_t up0, slice_t slice0, uplink_t up1, slice_t slice1, uplink_t up2, slice_t slice2) {
        meta.n_alts = n;
        meta.alt_up_0 = up0;
        meta.alt_sl_0 = slice0;
        meta.alt_up_1 = up1;
        meta.alt_sl_1 = slice1;
        meta.alt_up_2 = up2;
        meta.alt_sl_2 = slice2;
    }
    action uro_miss() { meta.n_alts = 0; }
    table uro_next_hop {
        key = {
            meta.gen:       exact @name("generation");
            meta.cur_slice: exact @name("arrival_slice");
            meta.dst_tor:   exact @name("dst_tor");
        }
        actions = { set_alternatives; @defaultonly uro_miss; }
        default_action = uro_miss();
        size = 56;
    }

    /* ---- SSRR source routing ------------------------------------------------------- */
    /* DSCP -> UCMP flow-size bucket (default bucket 0). */
    action set_bucket(bucket_t bucket) { meta.bucket = bucket; }
    table ssrr_bucket {
        key = { hdr.ipv4.dscp: exact @name("dscp"); }
        actions = { set_bucket; }
        default_action = set_bucket(0);
        size = 64;
    }

    /* (generation, dst ToR, start slice, bucket range) -> path; tied paths are members of
     * one group of the action selector, picked by the 5-tuple hash. Writes the NOP +
     * option 137 with all H hops valid; source() invalidates hops past n and fixes
     * IHL/length. */
    action write_path(bit<8> n, tor_t tor0, uplink_t up0, slice_t slice0, tor_t tor1, uplink_t up1, slice_t slice1, tor_t tor2, uplink_t up2, slice_t slice2, tor_t tor3, uplink_t up3, slice_t slice3) {
        meta.path_len = n;
        hdr.ssrr.setValid();
        hdr.ssrr.nop = IPOPT_NOP;
        hdr.ssrr.type = IPOPT_SSRR;
        hdr.ssrr.len = 3 + (n << 2);
        hdr.ssrr.ptr = 4;
        hdr.hops[0].setValid();
        hdr.hops[0].next_tor = tor0;
        hdr.hops[0].uplink = up0;
        hdr.hops[0].send_slice = slice0;
        hdr.hops[1].setValid();
        hdr.hops[1].next_tor = tor1;
        hdr.hops[1].uplink = up1;
        hdr.hops[1].send_slice = slice1;
        hdr.hops[2].setValid();
        hdr.hops[2].next_tor = tor2;
        hdr.hops[2].uplink = up2;
        hdr.hops[2].send_slice = slice2;
        hdr.hops[3].setValid();
        hdr.hops[3].next_tor = tor3;
        hdr.hops[3].uplink = up3;
        hdr.hops[3].send_slice = slice3;
    }
    /* members: (N-1) x S x tables.ssrr_paths per generation, groups of at most tables.ssrr_ties */
    @max_group_size(8) action_selector(HashAlgorithm.crc16, 32w448, 32w14) ssrr_selector;
    table ssrr_path {
        key = {
            meta.gen:       exact @name("generation");
            meta.dst_tor:   exact @name("dst_tor");
            meta.ssrr_start: exact @name("start_slice");  // the current slice, or a later one (defer())
            meta.bucket:    range @name("bucket");   // a UCMP bucket range (priority-ordered)
            hdr.ipv4.srcAddr:  selector;
            hdr.ipv4.dstAddr:  selector;
            hdr.ipv4.protocol: selector;
            meta.l4_src:       selector;
            meta.l4_dst:       selector;
        }
        /* no default action with an action selector (p4c warns that bmv2 cannot set
         * one): a miss runs NoAction and leaves path_len = 0 */
        actions = { write_path; }
        implementation = ssrr_selector;
        size = 168;
    }

    /* The lowest hold queue of the packet's uplink holding fewer than HOLD_CROWD packets
     * (else the least full), by hold_depth; booked there (+1) as meta.hold_q. One action
     * (conditions as ?:), so bmv2 applies one table for it on every held pass. */
    action book_hold_queue(in bit<32> hbase) {
        bit<19> hd0;
        hold_depth.read(hd0, hbase + 0);
        bit<19> hd1;
        hold_depth.read(hd1, hbase + 1);
        bit<19> hd2;
        hold_depth.read(hd2, hbase + 2);
        bit<19> hd3;
        hold_depth.read(hd3, hbase + 3);
        bit<19> hd4;
        hold_depth.read(hd4, hbase + 4);
        bit<19> hd5;
        hold_depth.read(hd5, hbase + 5);
        bit<19> hd6;
        hold_depth.read(hd6, hbase + 6);
        bit<3> hq = 0;
        bit<19> hbest = hd0;
        bool hfound = hd0 < HOLD_CROWD;
        bool take1 = !hfound && (hd1 < HOLD_CROWD || hd1 < hbest);
        hfound = hfound || hd1 < HOLD_CROWD;
        hq = take1 ? 3w1 : hq;
        hbest = take1 ? hd1 : hbest;
        bool take2 = !hfound && (hd2 < HOLD_CROWD || hd2 < hbest);
        hfound = hfound || hd2 < HOLD_CROWD;
        hq = take2 ? 3w2 : hq;
        hbest = take2 ? hd2 : hbest;
        bool take3 = !hfound && (hd3 < HOLD_CROWD || hd3 < hbest);
        hfound = hfound || hd3 < HOLD_CROWD;
        hq = take3 ? 3w3 : hq;
        hbest = take3 ? hd3 : hbest;
        bool take4 = !hfound && (hd4 < HOLD_CROWD || hd4 < hbest);
        hfound = hfound || hd4 < HOLD_CROWD;
        hq = take4 ? 3w4 : hq;
        hbest = take4 ? hd4 : hbest;
        bool take5 = !hfound && (hd5 < HOLD_CROWD || hd5 < hbest);
        hfound = hfound || hd5 < HOLD_CROWD;
        hq = take5 ? 3w5 : hq;
        hbest = take5 ? hd5 : hbest;
        bool take6 = !hfound && (hd6 < HOLD_CROWD || hd6 < hbest);
        hfound = hfound || hd6 < HOLD_CROWD;
        hq = take6 ? 3w6 : hq;
        hbest = take6 ? hd6 : hbest;
        meta.hold_q = hq;
        hold_depth.write(hbase + (bit<32>)hq, hbest + 1);
        meta.hold_booked = 1;
    }
    /* Every pass: its time, its kind counted, the clock's registers read once. One action
     * (conditions as ?:), one table apply. */
    action pass_start() {
        /* bmv2 zeroes the ingress time of a recirculated packet: use its last egress time */
        meta.now = (meta.recirculated == 1) ? meta.recirc_ts : sm.ingress_global_timestamp;
        meta.out_len = sm.packet_length;
        bool sync_pass = sm.ingress_port == PKTGEN_PORT
                         || (hdr.ethernet.isValid() && hdr.ethernet.etherType == ETHERTYPE_SYNC);
        passes.count((meta.recirculated == 1) ? ((meta.held == 1) ? PASS_HELD : PASS_REDECIDED)
                     : (sync_pass ? PASS_SYNC : PASS_FRESH));
        /* Read the clock once per pass. */
        slice_reg.read(meta.cur_slice, 0);
        epoch_reg.read(meta.epoch, 0);
        active_q_reg.read(meta.active_q, 0);
        slice_start_reg.read(meta.slice_start, 0);

    }
    apply {
        meta.have_dep = 0;
        meta.dep_alt = 255;
        meta.tried_full = 0;
        meta.saw_down = 0;
        meta.max_step = DEFAULT_MAX_TIMER_STEP;
        meta.in_hold = 0;
        meta.pick_hold = 0;
        sm.priority = DEPART_PRIORITY;           // everything but a held packet's wait: the top queue
        config.apply();
        clock_config.apply();
        pass_start();
        meta.clk_fault = 0;
        meta.sync_out = 0;
        if (meta.clk_mode == CLOCK_SYNC) {
            clock_now();
            if (meta.clk_l >= meta.clk_next) {
                bit<64> el = meta.clk_l - meta.clk_next;
                bit<64> rem = el;
                bit<32> q = 0;
                if (el >= (bit<64>)meta.clk_len) {
                rem = el;
                q = 0;
                if (rem >= ((bit<64>)meta.clk_len << 31)) { rem = rem - ((bit<64>)meta.clk_len << 31); q = q | 32w2147483648; }
                if (rem >= ((bit<64>)meta.clk_len << 30)) { rem = rem - ((bit<64>)meta.clk_len << 30); q = q | 32w1073741824; }
                if (rem >= ((bit<64>)meta.clk_len << 29)) { rem = rem - ((bit<64>)meta.clk_len << 29); q = q | 32w536870912; }
                if (rem >= ((bit<64>)meta.clk_len << 28)) { rem = rem - ((bit<64>)meta.clk_len << 28); q = q | 32w268435456; }
                if (rem >= ((bit<64>)meta.clk_len << 27)) { rem = rem - ((bit<64>)meta.clk_len << 27); q = q | 32w134217728; }
                if (rem >= ((bit<64>)meta.clk_len << 26)) { rem = rem - ((bit<64>)meta.clk_len << 26); q = q | 32w67108864; }
                if (rem >= ((bit<64>)meta.clk_len << 25)) { rem = rem - ((bit<64>)meta.clk_len << 25); q = q | 32w33554432; }
                if (rem >= ((bit<64>)meta.clk_len << 24)) { rem = rem - ((bit<64>)meta.clk_len << 24); q = q | 32w16777216; }
                if (rem >= ((bit<64>)meta.clk_len << 23)) { rem = rem - ((bit<64>)meta.clk_len << 23); q = q | 32w8388608; }
                if (rem >= ((bit<64>)meta.clk_len << 22)) { rem = rem - ((bit<64>)meta.clk_len << 22); q = q | 32w4194304; }
                if (rem >= ((bit<64>)meta.clk_len << 21)) { rem = rem - ((bit<64>)meta.clk_len << 21); q = q | 32w2097152; }
                if (rem >= ((bit<64>)meta.clk_len << 20)) { rem = rem - ((bit<64>)meta.clk_len << 20); q = q | 32w1048576; }
                if (rem >= ((bit<64>)meta.clk_len << 19)) { rem = rem - ((bit<64>)meta.clk_len << 19); q = q | 32w524288; }
                if (rem >= ((bit<64>)meta.clk_len << 18)) { rem = rem - ((bit<64>)meta.clk_len << 18); q = q | 32w262144; }
                if (rem >= ((bit<64>)meta.clk_len << 17)) { rem = rem - ((bit<64>)meta.clk_len << 17); q = q | 32w131072; }
                if (rem >= ((bit<64>)meta.clk_len << 16)) { rem = rem - ((bit<64>)meta.clk_len << 16); q = q | 32w65536; }
                if (rem >= ((bit<64>)meta.clk_len << 15)) { rem = rem - ((bit<64>)meta.clk_len << 15); q = q | 32w32768; }
                if (rem >= ((bit<64>)meta.clk_len << 14)) { rem = rem - ((bit<64>)meta.clk_len << 14); q = q | 32w16384; }
                if (rem >= ((bit<64>)meta.clk_len << 13)) { rem = rem - ((bit<64>)meta.clk_len << 13); q = q | 32w8192; }
                if (rem >= ((bit<64>)meta.clk_len << 12)) { rem = rem - ((bit<64>)meta.clk_len << 12); q = q | 32w4096; }
                if (rem >= ((bit<64>)meta.clk_len << 11)) { rem = rem - ((bit<64>)meta.clk_len << 11); q = q | 32w2048; }
                if (rem >= ((bit<64>)meta.clk_len << 10)) { rem = rem - ((bit<64>)meta.clk_len << 10); q = q | 32w1024; }
                if (rem >= ((bit<64>)meta.clk_len << 9)) { rem = rem - ((bit<64>)meta.clk_len << 9); q = q | 32w512; }
                if (rem >= ((bit<64>)meta.clk_len << 8)) { rem = rem - ((bit<64>)meta.clk_len << 8); q = q | 32w256; }
                if (rem >= ((bit<64>)meta.clk_len << 7)) { rem = rem - ((bit<64>)meta.clk_len << 7); q = q | 32w128; }
                if (rem >= ((bit<64>)meta.clk_len << 6)) { rem = rem - ((bit<64>)meta.clk_len << 6); q = q | 32w64; }
                if (rem >= ((bit<64>)meta.clk_len << 5)) { rem = rem - ((bit<64>)meta.clk_len << 5); q = q | 32w32; }
                if (rem >= ((bit<64>)meta.clk_len << 4)) { rem = rem - ((bit<64>)meta.clk_len << 4); q = q | 32w16; }
                if (rem >= ((bit<64>)meta.clk_len << 3)) { rem = rem - ((bit<64>)meta.clk_len << 3); q = q | 32w8; }
                if (rem >= ((bit<64>)meta.clk_len << 2)) { rem = rem - ((bit<64>)meta.clk_len << 2); q = q | 32w4; }
                if (rem >= ((bit<64>)meta.clk_len << 1)) { rem = rem - ((bit<64>)meta.clk_len << 1); q = q | 32w2; }
                if (rem >= ((bit<64>)meta.clk_len << 0)) { rem = rem - ((bit<64>)meta.clk_len << 0); q = q | 32w1; }

                }
                bit<32> n = q + 1;              // boundaries passed
                meta.clk_next = meta.clk_l - rem + (bit<64>)meta.clk_len;
                meta.clk_k = meta.clk_k + n;
                clock_k.write(0, meta.clk_k);
                clock_next.write(0, meta.clk_next);
                clock_len.write(0, meta.clk_len);
                bit<32> ns = n;
                if (ns >= 32w2147483648) { ns = ns - 32w2147483648; }
                if (ns >= 32w1073741824) { ns = ns - 32w1073741824; }
                if (ns >= 32w536870912) { ns = ns - 32w536870912; }
                if (ns >= 32w268435456) { ns = ns - 32w268435456; }
                if (ns >= 32w134217728) { ns = ns - 32w134217728; }
                if (ns >= 32w67108864) { ns = ns - 32w67108864; }
                if (ns >= 32w33554432) { ns = ns - 32w33554432; }
                if (ns >= 32w16777216) { ns = ns - 32w16777216; }
                if (ns >= 32w8388608) { ns = ns - 32w8388608; }
                if (ns >= 32w4194304) { ns = ns - 32w4194304; }
                if (ns >= 32w2097152) { ns = ns - 32w2097152; }
                if (ns >= 32w1048576) { ns = ns - 32w1048576; }
                if (ns >= 32w524288) { ns = ns - 32w524288; }
                if (ns >= 32w262144) { ns = ns - 32w262144; }
                if (ns >= 32w131072) { ns = ns - 32w131072; }
                if (ns >= 32w65536) { ns = ns - 32w65536; }
                if (ns >= 32w32768) { ns = ns - 32w32768; }
                if (ns >= 32w16384) { ns = ns - 32w16384; }
                if (ns >= 32w8192) { ns = ns - 32w8192; }
                if (ns >= 32w4096) { ns = ns - 32w4096; }
                if (ns >= 32w2048) { ns = ns - 32w2048; }
                if (ns >= 32w1024) { ns = ns - 32w1024; }
                if (ns >= 32w512) { ns = ns - 32w512; }
                if (ns >= 32w256) { ns = ns - 32w256; }
                if (ns >= 32w128) { ns = ns - 32w128; }
                if (ns >= 32w64) { ns = ns - 32w64; }
                if (ns >= 32w32) { ns = ns - 32w32; }
                if (ns >= 32w16) { ns = ns - 32w16; }
                if (ns >= 32w8) { ns = ns - 32w8; }
                if (ns >= 32w4) { ns = ns - 32w4; }

                bit<32> sl = (bit<32>)meta.cur_slice + ns;
                if (sl >= NUM_SLICES) { sl = sl - NUM_SLICES; }
                bit<32> nq = n;
                if (nq >= 32w2147483648) { nq = nq - 32w2147483648; }
                if (nq >= 32w1073741824) { nq = nq - 32w1073741824; }
                if (nq >= 32w536870912) { nq = nq - 32w536870912; }
                if (nq >= 32w268435456) { nq = nq - 32w268435456; }
                if (nq >= 32w134217728) { nq = nq - 32w134217728; }
                if (nq >= 32w67108864) { nq = nq - 32w67108864; }
                if (nq >= 32w33554432) { nq = nq - 32w33554432; }
                if (nq >= 32w16777216) { nq = nq - 32w16777216; }
                if (nq >= 32w8388608) { nq = nq - 32w8388608; }
                if (nq >= 32w4194304) { nq = nq - 32w4194304; }
                if (nq >= 32w2097152) { nq = nq - 32w2097152; }
                if (nq >= 32w1048576) { nq = nq - 32w1048576; }
                if (nq >= 32w524288) { nq = nq - 32w524288; }
                if (nq >= 32w262144) { nq = nq - 32w262144; }
                if (nq >= 32w131072) { nq = nq - 32w131072; }
                if (nq >= 32w65536) { nq = nq - 32w65536; }
                if (nq >= 32w32768) { nq = nq - 32w32768; }
                if (nq >= 32w16384) { nq = nq - 32w16384; }
                if (nq >= 32w8192) { nq = nq - 32w8192; }
                if (nq >= 32w4096) { nq = nq - 32w4096; }
                if (nq >= 32w2048) { nq = nq - 32w2048; }
                if (nq >= 32w1024) { nq = nq - 32w1024; }
                if (nq >= 32w512) { nq = nq - 32w512; }
                if (nq >= 32w256) { nq = nq - 32w256; }
                if (nq >= 32w128) { nq = nq - 32w128; }
                if (nq >= 32w64) { nq = nq - 32w64; }
                if (nq >= 32w32) { nq = nq - 32w32; }
                if (nq >= 32w16) { nq = nq - 32w16; }
                if (nq >= 32w8) { nq = nq - 32w8; }
                if (nq >= 32w4) { nq = nq - 32w4; }

                bit<32> new_active = meta.active_q + nq;
                if (new_active >= NUM_QUEUES) { new_active = new_active - NUM_QUEUES; }
                bit<4> drained = ~(bit<4>)0;
                if (n < NUM_QUEUES) {
                    bit<8> run = (((bit<8>)1 << (bit<8>)n) - 1) << (bit<8>)meta.active_q;
                    drained = run[3:0] | run[7:4];
                }
                /* the same drained queues on every uplink: d copies side by side */
                qstate_t clear = drained ++ drained;
                qstate_reg.read(meta.qstate, 0);
                qstate_reg.write(0, meta.qstate & ~clear);

                meta.cur_slice = (slice_t)sl;
                meta.epoch = meta.epoch + n;
                meta.active_q = new_active;
                slice_reg.write(0, meta.cur_slice);
                epoch_reg.write(0, meta.epoch);
                active_q_reg.write(0, meta.active_q);

                clock_phase();
            }
        }

        /* ---- a held packet that is not due yet: straight back to its hold queue ------ */
        /* (the clock read and moved, nothing else: a held packet's pass is most of what a
         * busy bmv2 ToR does. Everything else -- its uplink failed, held too long, due --
         * goes the full way below.) */
        bit<1> wait_elsewhere = 0;
        if (meta.recirculated == 1 && meta.held == 1 && meta.configured == 1) {
            bit<32> waited = meta.epoch - meta.admit_epoch;
            bit<1> hdown;
                hdown = (bit<1>)(meta.down >> (bit<8>)meta.hold_uplink);

            if (hdown == 0 && (meta.epoch <= meta.first_epoch || meta.epoch - meta.first_epoch < NUM_SLICES)) {
                if (waited < meta.hold_wait) {
                    sm.egress_spec = (bit<9>)(UPLINK_PORT_BASE + (bit<32>)meta.hold_uplink);
                    sm.priority = meta.hold_q;
                    meta.in_hold = 1;
                    meta.pick_hold = 1;
                    exit;
                }
                if (waited == meta.hold_wait && meta.now < meta.slice_start + SLICE_GUARD_US) {
                    sm.egress_spec = (bit<9>)(UPLINK_PORT_BASE + (bit<32>)meta.hold_uplink);
                    wait_elsewhere = 1;
                }
            }
        }
        if (meta.hold_booked == 1) {
            /* egress counted it into the hold queue it picked, and it waits there no more */
            bit<32> hslot = (bit<32>)meta.hold_uplink * HOLD_QUEUES + (bit<32>)meta.hold_q;
            bit<19> hd;
            hold_depth.read(hd, hslot);
            if (hd != 0) { hold_depth.write(hslot, hd - 1); }
            meta.hold_booked = 0;
        }
        if (wait_elsewhere == 1) {
            exit;                                // its slice's guard: in the top queue until it ends
        }
        liveness_config.apply();
        if (meta.clk_mode == CLOCK_SYNC && meta.lv_down_after != 0) {
            bit<32> lk;
            live_k.read(lk, 0);
            bit<8> lsreg;
            clock_stratum.read(lsreg, 0);
            bit<1> synced = (255 - lsreg != STRATUM_UNSYNCED) ? 1w1 : 1w0;
            dead_t mask;
            live_mask.read(mask, 0);
            if (meta.clk_k != lk) {
                slice_t ls = meta.cur_slice;        // the slot judged: the previous circuits of this slice id
                bit<1> valid;
                live_valid.read(valid, (bit<32>)ls);
                if (valid == 1 && synced == 1) {
                    dead_t wrong;
                    live_wrong.read(wrong, 0);
                    bit<2> nvec = 0;          // slice ls's down bits after this judgment
                    bit<1> changed = 0;
                    {
                        /* uplink 0 in slice ls */
                        bit<32> pos = (bit<32>)ls * NUM_UPLINKS + 0;
                        bit<1> want;
                        want = (bit<1>)(meta.lv_expect >> (bit<8>)pos);

                        bit<1> heard;
                        bit<1> stray;
                        bit<1> asked;
                        live_heard.read(heard, pos);
                        live_stray.read(stray, pos);
                        live_asked.read(asked, pos);
                        bit<1> was;
                        was = (bit<1>)(mask >> (bit<8>)pos);

                        if (want == 1) {
                            bit<8> miss;
                            live_miss.read(miss, pos);
                            bit<1> down = was;
                            if (heard == 1) {
                                miss = 0;
                                down = 0;
                                liveness.count(LIVE_HEARD);
                                if (was == 1) { liveness.count(LIVE_UP); }
                            } else if (asked == 0) {
                                /* this ToR sent no REQ on it (its TRIGGERs were late or missing):
                                 * no exchange was offered, no verdict -- the count stays */
                                liveness.count(LIVE_UNASKED);
                            } else {
                                if (miss != 255) { miss = miss + 1; }
                                if (stray == 1) {
                                    liveness.count(LIVE_WRONG_PEER);
                                } else {
                                    liveness.count(LIVE_SILENT);
                                }
                                if (miss >= meta.lv_down_after) {
                                    down = 1;
                                    if (was == 0) { liveness.count(LIVE_DOWN); }
                                }
                            }
                            live_miss.write(pos, miss);
                            nvec = nvec | ((bit<2>)down << 0);
                            if (down != was) { changed = 1; }
                            mask = (mask & ~((bit<8>)1 << (bit<8>)pos))
                                           | ((bit<8>)down << (bit<8>)pos);

                            bit<1> only_wrong = (heard == 0 && asked == 1) ? stray : 1w0;
                            if (heard == 1 || asked == 1) {
                                wrong = (wrong & ~((bit<8>)1 << (bit<8>)pos))
                                               | ((bit<8>)only_wrong << (bit<8>)pos);

                            }
                        }
                        live_heard.write(pos, 0);
                        live_stray.write(pos, 0);
                        live_asked.write(pos, 0);
                    }
                    {
                        /* uplink 1 in slice ls */
                        bit<32> pos = (bit<32>)ls * NUM_UPLINKS + 1;
                        bit<1> want;
                        want = (bit<1>)(meta.lv_expect >> (bit<8>)pos);

                        bit<1> heard;
                        bit<1> stray;
                        bit<1> asked;
                        live_heard.read(heard, pos);
                        live_stray.read(stray, pos);
                        live_asked.read(asked, pos);
                        bit<1> was;
                        was = (bit<1>)(mask >> (bit<8>)pos);

                        if (want == 1) {
                            bit<8> miss;
                            live_miss.read(miss, pos);
                            bit<1> down = was;
                            if (heard == 1) {
                                miss = 0;
                                down = 0;
                                liveness.count(LIVE_HEARD);
                                if (was == 1) { liveness.count(LIVE_UP); }
                            } else if (asked == 0) {
                                /* this ToR sent no REQ on it (its TRIGGERs were late or missing):
                                 * no exchange was offered, no verdict -- the count stays */
                                liveness.count(LIVE_UNASKED);
                            } else {
                                if (miss != 255) { miss = miss + 1; }
                                if (stray == 1) {
                                    liveness.count(LIVE_WRONG_PEER);
                                } else {
                                    liveness.count(LIVE_SILENT);
                                }
                                if (miss >= meta.lv_down_after) {
                                    down = 1;
                                    if (was == 0) { liveness.count(LIVE_DOWN); }
                                }
                            }
                            live_miss.write(pos, miss);
                            nvec = nvec | ((bit<2>)down << 1);
                            if (down != was) { changed = 1; }
                            mask = (mask & ~((bit<8>)1 << (bit<8>)pos))
                                           | ((bit<8>)down << (bit<8>)pos);

                            bit<1> only_wrong = (heard == 0 && asked == 1) ? stray : 1w0;
                            if (heard == 1 || asked == 1) {
                                wrong = (wrong & ~((bit<8>)1 << (bit<8>)pos))
                                               | ((bit<8>)only_wrong << (bit<8>)pos);

                            }
                        }
                        live_heard.write(pos, 0);
                        live_stray.write(pos, 0);
                        live_asked.write(pos, 0);
                    }
                    live_mask.write(0, mask);
                    live_wrong.write(0, wrong);
                    /* the refresh: slice ls's marks are sent again every notice_refresh cycles,
                     * changed or not, so a ToR that missed a notice catches up */
                    bit<32> rdue;
                    live_note_refresh.read(rdue, (bit<32>)ls);
                    bit<1> refresh = (meta.lv_note_refresh != 0 && (rdue == 0 || meta.clk_k - rdue < 0x80000000))
                                     ? 1w1 : 1w0;
                    if (meta.lv_note_rate != 0 && (changed == 1 || refresh == 1)) {
                        /* a mark set or cleared, or the refresh due: tell the fabric (this ToR's
                         * next notice). Its sequence number is the fabric's slice number when
                         * that is newer than the last (one notice per slice number at most), so
                         * a restarted switch's notices are newer than those it sent before. */
                        bit<32> seq;
                        live_note_seq.read(seq, 0);
                        if (seq == 0 || meta.clk_k - seq - 1 < 0x7fffffff) {
                            seq = meta.clk_k;
                        } else {
                            seq = seq + 1;
                        }
                        if (seq == 0) { seq = 1; }
                        live_note_seq.write(0, seq);
                        bit<32> cell = (bit<32>)meta.clk_my_tor * NUM_SLICES + (bit<32>)ls;
                        live_note_map.write(cell, nvec);
                        live_note_last.write(cell, seq);
                        bit<1> kept = 0;
                        /* a change may take any slot; a refresh leaves the last one to changes */
                        bit<32> slots = (changed == 1) ? 32w4 : 32w3;
                        {
                            bit<32> free = 4;
                            bit<2> nkind = ((changed == 1) ? 2w0 : 2w2);
                            bit<32> until0;
                            bit<2> qk0;
                            live_note_q_until.read(until0, 0);
                            live_note_q_kind.read(qk0, 0);
                            if (free == 4 && 0 < slots && (until0 == 0 || meta.clk_k - until0 < 0x80000000)) { free = 0; }
                            bit<32> until1;
                            bit<2> qk1;
                            live_note_q_until.read(until1, 1);
                            live_note_q_kind.read(qk1, 1);
                            if (free == 4 && 1 < slots && (until1 == 0 || meta.clk_k - until1 < 0x80000000)) { free = 1; }
                            bit<32> until2;
                            bit<2> qk2;
                            live_note_q_until.read(until2, 2);
                            live_note_q_kind.read(qk2, 2);
                            if (free == 4 && 2 < slots && (until2 == 0 || meta.clk_k - until2 < 0x80000000)) { free = 2; }
                            bit<32> until3;
                            bit<2> qk3;
                            live_note_q_until.read(until3, 3);
                            live_note_q_kind.read(qk3, 3);
                            if (free == 4 && 3 < slots && (until3 == 0 || meta.clk_k - until3 < 0x80000000)) { free = 3; }
                            if (free == 4) {
                                bit<2> worst = nkind;
                                if (0 < slots && qk0 > worst) { free = 0; worst = qk0; }
                                if (1 < slots && qk1 > worst) { free = 1; worst = qk1; }
                                if (2 < slots && qk2 > worst) { free = 2; worst = qk2; }
                                if (3 < slots && qk3 > worst) { free = 3; worst = qk3; }
                                if (free != 4) { notices.count(NOTE_REPLACED); }
                            }
                            if (free == 4) {
                                notices.count(NOTE_BUSY);
                            } else {
                                kept = 1;
                                live_note_q_kind.write(free, nkind);
                                live_note_q_origin.write(free, (bit<16>)meta.clk_my_tor);
                                live_note_q_seq.write(free, seq);
                                live_note_q_slice.write(free, (bit<8>)ls);
                                live_note_q_down.write(free, (bit<2>)nvec);
                                live_note_q_until.write(free, meta.clk_k + NUM_SLICES);
                                live_note_q_sent.write(free * NUM_UPLINKS + 0, 0);
                                live_note_q_sent.write(free * NUM_UPLINKS + 1, 0);
                            }
                        }

                        if (kept == 1) {
                            if (changed == 0) { notices.count(NOTE_REFRESH); }
                            live_note_refresh.write((bit<32>)ls, meta.clk_k
                                                    + (bit<32>)meta.lv_note_refresh * NUM_SLICES);
                        }
                    }
                } else {
                    liveness.count(LIVE_PAUSED);   // not judged: this clock was not the schedule's
                    live_heard.write((bit<32>)ls * NUM_UPLINKS + 0, 0);
                    live_stray.write((bit<32>)ls * NUM_UPLINKS + 0, 0);
                    live_asked.write((bit<32>)ls * NUM_UPLINKS + 0, 0);
                    live_heard.write((bit<32>)ls * NUM_UPLINKS + 1, 0);
                    live_stray.write((bit<32>)ls * NUM_UPLINKS + 1, 0);
                    live_asked.write((bit<32>)ls * NUM_UPLINKS + 1, 0);
                }
                live_k.write(0, meta.clk_k);
                live_valid.write((bit<32>)ls, synced);
            }
            dead_t remote;
            live_remote.read(remote, 0);
            meta.dead = meta.dead | mask | remote;   // liveness marks, here and at the other ends: dead circuits to the lookups
        }

        if (sm.ingress_port == PKTGEN_PORT
            || (hdr.ethernet.isValid() && hdr.ethernet.etherType == ETHERTYPE_SYNC)) {
            bit<32> why = SYNC_MALFORMED;
            bit<1> from_uplink = (sm.ingress_port >= (bit<9>)UPLINK_PORT_BASE
                && sm.ingress_port < (bit<9>)(UPLINK_PORT_BASE + NUM_UPLINKS)) ? 1w1 : 1w0;
            bit<8> op = hdr.sync.isValid() ? hdr.sync.op : 0;
            bit<1> cpu_ok = (!hdr.packet_out.isValid() || hdr.packet_out.opcode == OPCODE_SYNC) ? 1w1 : 1w0;
            /* the clock's registers of this ToR (stratum stored as 255 - stratum) */
            bit<8> sreg;
            bit<16> term;
            bit<16> lead;
            bit<32> lead_k;
            bit<8> refusals;
            bit<32> last_k;
            clock_stratum.read(sreg, 0);
            clock_term.read(term, 0);
            clock_lead.read(lead, 0);
            clock_lead_k.read(lead_k, 0);
            clock_refusals.read(refusals, 0);
            clock_last_k.read(last_k, 0);
            meta.clk_stratum = 255 - sreg;
            bit<16> me = (meta.clk_mode == CLOCK_SYNC) ? (bit<16>)meta.clk_my_tor : (bit<16>)meta.my_tor;
            /* emulation-only: a misconfigured ToR (`uro emulate fail id`) goes by another id */
            bit<16> fault_id;
            clock_fault_id.read(fault_id, 0);
            if (fault_id != 0) { me = fault_id - 1; }
            /* the one sync_peer lookup: this slice's peer on the uplink in question */
            meta.peer_uplink = (op == SYNC_OP_TRIGGER) ? (uplink_t)hdr.sync.uplink
                             : (uplink_t)(sm.ingress_port - (bit<9>)UPLINK_PORT_BASE);
            meta.peer_hit = 0;
            if (meta.clk_mode == CLOCK_SYNC && (op == SYNC_OP_TRIGGER || op == SYNC_OP_REQ || op == SYNC_OP_RESP                                                || op == SYNC_OP_NOTICE)) {
                sync_peer.apply();
            }
            /* what else reads this lookup (the caller: liveness per circuit) */
            if (meta.clk_mode == CLOCK_SYNC && meta.lv_down_after != 0
                && (bit<32>)meta.peer_uplink < NUM_UPLINKS
                && (op == SYNC_OP_TRIGGER || from_uplink == 1)
                && (op == SYNC_OP_TRIGGER || op == SYNC_OP_REQ || op == SYNC_OP_RESP || op == SYNC_OP_NOTICE)) {
                live_peer.write((bit<32>)meta.cur_slice * NUM_UPLINKS + (bit<32>)meta.peer_uplink,
                                (meta.peer_hit == 1) ? (bit<16>)meta.peer + 1 : 16w0);
            }
            if (meta.clk_mode == CLOCK_SYNC && meta.lv_down_after != 0 && from_uplink == 1
                && (op == SYNC_OP_REQ || op == SYNC_OP_RESP) && (hdr.sync.flags & SYNC_FLAG_REF) == 0
                && hdr.sync.isValid()) {
                bit<32> age = meta.clk_k - hdr.sync.t1_k;          // slices since the message's own
                if (age < NUM_SLICES && (op == SYNC_OP_REQ || hdr.sync.dst_tor == me)) {
                    bit<32> cs = (bit<32>)meta.cur_slice;
                    bit<32> hs = (cs >= age) ? cs - age : cs + NUM_SLICES - age;
                    bit<32> hpos = hs * NUM_UPLINKS + (bit<32>)meta.peer_uplink;
                    bit<16> want_peer;
                    live_peer.read(want_peer, hpos);
                    if (want_peer != 0 && hdr.sync.src_tor == want_peer - 1) {
                        live_heard.write(hpos, 1);
                    } else if (want_peer != 0 && (hdr.sync.flags & SYNC_FLAG_BOOT) == 0
                               && hdr.sync.src_tor != SYNC_REF_TOR) {
                        live_stray.write(hpos, 1);
                    }
                }
            }

            if (op == SYNC_OP_NOTICE && hdr.sync.isValid()) {
                if (from_uplink == 0) {
                    if (sm.ingress_port < (bit<9>)UPLINK_PORT_BASE) {
                        notices.count(NOTE_FROM_HOST);
                    }
                } else {
                    bit<32> nwhy = NOTE_APPLIED;
                    bit<32> origin = hdr.sync.t1_k;
                    bit<32> seq = hdr.sync.t1_phase;
                    bit<32> nsl = hdr.sync.t2_k;
                    bit<32> ndown = hdr.sync.t2_phase;
                    if (meta.clk_mode != CLOCK_SYNC || meta.lv_down_after == 0 || meta.lv_note_rate == 0
                        || meta.clk_stratum == STRATUM_UNSYNCED) {
                        nwhy = NOTE_OFF;
                    } else if (meta.peer_hit == 0 || hdr.sync.src_tor != (bit<16>)meta.peer || hdr.sync.dst_tor != me) {
                        nwhy = NOTE_WRONG_PEER;
                    } else if (origin >= NUM_TORS || nsl >= NUM_SLICES || seq == 0 || (ndown >> 2) != 0) {
                        nwhy = NOTE_UNKNOWN;
                    } else {
                        /* the rate bound: a token bucket filled by notice_rate per slice */
                        bit<8> tok;
                        bit<32> fill;
                        live_note_tokens.read(tok, 0);
                        live_note_fill.read(fill, 0);
                        bit<32> dk = meta.clk_k - fill;
                        bit<32> t = (bit<32>)tok;
                        if (dk >= (bit<32>)meta.lv_note_burst) {
                            t = (bit<32>)meta.lv_note_burst;
                        } else {
                            t = t + dk * (bit<32>)meta.lv_note_rate;
                            if (t > (bit<32>)meta.lv_note_burst) { t = (bit<32>)meta.lv_note_burst; }
                        }
                        if (t == 0) {
                            nwhy = NOTE_FLOOD;
                        } else {
                            t = t - 1;
                            bit<32> cell = origin * NUM_SLICES + nsl;
                            bit<32> last;
                            live_note_last.read(last, cell);
                            /* last 0: none taken yet (no notice's sequence number is 0),
                             * so any is newer -- half the sequence space would otherwise
                             * read as older than 0 */
                            if (origin == (bit<32>)me ||
                                (last != 0 && (seq - last == 0 || seq - last >= 0x80000000))) {
                                nwhy = NOTE_DUPLICATE;
                            } else {
                                bit<2> known;
                                live_note_map.read(known, cell);
                                live_note_last.write(cell, seq);
                                live_note_map.write(cell, (bit<2>)ndown);
                                /* the other end: where this ToR's own circuit of slice nsl on
                                 * uplink u leads to the origin (live_peer), the origin's mark is
                                 * this ToR's too -- a one-way failure, the origin not hearing
                                 * this ToR while this ToR hears it, is routed around at both ends */
                                dead_t remote;
                                live_remote.read(remote, 0);
                                {
                                    bit<32> pos = nsl * NUM_UPLINKS + 0;
                                    bit<16> end;
                                    live_peer.read(end, pos);
                                    if (end == (bit<16>)origin + 1) {
                                        bit<1> rdown = (bit<1>)(ndown >> 0);
                                        remote = (remote & ~((bit<8>)1 << (bit<8>)pos))
                                                       | ((bit<8>)rdown << (bit<8>)pos);

                                    }
                                }
                                {
                                    bit<32> pos = nsl * NUM_UPLINKS + 1;
                                    bit<16> end;
                                    live_peer.read(end, pos);
                                    if (end == (bit<16>)origin + 1) {
                                        bit<1> rdown = (bit<1>)(ndown >> 1);
                                        remote = (remote & ~((bit<8>)1 << (bit<8>)pos))
                                                       | ((bit<8>)rdown << (bit<8>)pos);

                                    }
                                }
                                live_remote.write(0, remote);
                                /* sent on only when it told this ToR something new: a refresh
                                 * that changes nothing goes no further than its origin's circuits */
                                if (known != (bit<2>)ndown) {
                                    {
                                        bit<32> free = 4;
                                        bit<2> nkind = 2w1;
                                        bit<32> until0;
                                        bit<2> qk0;
                                        live_note_q_until.read(until0, 0);
                                        live_note_q_kind.read(qk0, 0);
                                        if (free == 4 && (until0 == 0 || meta.clk_k - until0 < 0x80000000)) { free = 0; }
                                        bit<32> until1;
                                        bit<2> qk1;
                                        live_note_q_until.read(until1, 1);
                                        live_note_q_kind.read(qk1, 1);
                                        if (free == 4 && (until1 == 0 || meta.clk_k - until1 < 0x80000000)) { free = 1; }
                                        bit<32> until2;
                                        bit<2> qk2;
                                        live_note_q_until.read(until2, 2);
                                        live_note_q_kind.read(qk2, 2);
                                        if (free == 4 && (until2 == 0 || meta.clk_k - until2 < 0x80000000)) { free = 2; }
                                        bit<32> until3;
                                        bit<2> qk3;
                                        live_note_q_until.read(until3, 3);
                                        live_note_q_kind.read(qk3, 3);
                                        if (free == 4 && (until3 == 0 || meta.clk_k - until3 < 0x80000000)) { free = 3; }
                                        if (free == 4) {
                                            bit<2> worst = nkind;
                                            if (qk0 > worst) { free = 0; worst = qk0; }
                                            if (qk1 > worst) { free = 1; worst = qk1; }
                                            if (qk2 > worst) { free = 2; worst = qk2; }
                                            if (qk3 > worst) { free = 3; worst = qk3; }
                                            if (free != 4) { notices.count(NOTE_REPLACED); }
                                        }
                                        if (free == 4) {
                                            notices.count(NOTE_BUSY);
                                        } else {
                                            live_note_q_kind.write(free, nkind);
                                            live_note_q_origin.write(free, (bit<16>)origin);
                                            live_note_q_seq.write(free, seq);
                                            live_note_q_slice.write(free, (bit<8>)nsl);
                                            live_note_q_down.write(free, (bit<2>)ndown);
                                            live_note_q_until.write(free, meta.clk_k + NUM_SLICES);
                                            live_note_q_sent.write(free * NUM_UPLINKS + 0, 0);
                                            live_note_q_sent.write(free * NUM_UPLINKS + 1, 0);
                                        }
                                    }

                                }
                            }
                        }
                        live_note_tokens.write(0, (bit<8>)t);
                        live_note_fill.write(0, meta.clk_k);
                    }
                    notices.count(nwhy);
                    mark_to_drop(sm);
                    exit;
                }
            }

            if (sm.ingress_port < (bit<9>)UPLINK_PORT_BASE) {
                why = SYNC_FROM_HOST;                    // hosts cannot move the clock
            } else if (!hdr.sync.isValid()) {
                why = SYNC_MALFORMED;                    // truncated, or not a sync frame (pktgen port)
            } else if (op == SYNC_OP_PROBE && (sm.ingress_port == PKTGEN_PORT
                       || (sm.ingress_port == CPU_PORT && cpu_ok == 1))) {
                /* PROBE: answered where it came from, in either mode (timer mode: the epoch
                 * and ns since the last timer, flag TIMER) */
                bit<8> flags = (meta.clk_stratum == STRATUM_UNSYNCED) ? SYNC_FLAG_BOOT : 0;
                bit<32> k = meta.clk_k;
                bit<32> ph = meta.clk_phase;
                if (meta.clk_mode != CLOCK_SYNC) {
                    flags = flags | SYNC_FLAG_TIMER;
                    k = meta.epoch;
                    ph = (((bit<64>)(meta.now - meta.slice_start) * 1000 > 0xFFFFFFFF) ? 32w0xFFFFFFFF : (bit<32>)((bit<64>)(meta.now - meta.slice_start) * 1000));
                }
                    hdr.sync.op = SYNC_OP_PROBE_REPLY;
                    hdr.sync.flags = flags;
                    hdr.sync.dst_tor = hdr.sync.src_tor;
                    hdr.sync.src_tor = me;
                    hdr.sync.stratum = meta.clk_stratum;
                    hdr.sync.term = term;
                    hdr.sync.lead = lead;
                    hdr.sync.lead_k = lead_k;
                    hdr.sync.t2_k = k;
                    hdr.sync.t2_phase = ph;
                    hdr.sync.reserved = 0;
                    hdr.sync.aux = 0;
                    hdr.packet_out.setInvalid();
                    if (sm.ingress_port == CPU_PORT) {
                        hdr.packet_in.setValid();
                        clock_k.read(hdr.packet_in.clock_k, 0);
                        clock_next.read(hdr.packet_in.clock_next, 0);
                        clock_len.read(hdr.packet_in.clock_len, 0);
                        clock_stratum.read(hdr.packet_in.clock_stratum, 0);
                        clock_term.read(hdr.packet_in.clock_term, 0);
                        clock_lead.read(hdr.packet_in.clock_lead, 0);
                        clock_lead_k.read(hdr.packet_in.clock_lead_k, 0);
                        clock_refusals.read(hdr.packet_in.clock_refusals, 0);
                        clock_offset.read(hdr.packet_in.clock_offset, 0);
                        clock_delay.read(hdr.packet_in.clock_delay, 0);
                        clock_last_k.read(hdr.packet_in.clock_last_k, 0);
                        clock_t4_k.read(hdr.packet_in.clock_t4_k, 0);
                        clock_t4_phase.read(hdr.packet_in.clock_t4_phase, 0);
                        slice_reg.read(hdr.packet_in.clock_slice, 0);
                        epoch_reg.read(hdr.packet_in.clock_epoch, 0);
                        active_q_reg.read(hdr.packet_in.clock_active_q, 0);
                        live_mask.read(hdr.packet_in.clock_live_mask, 0);
                        live_wrong.read(hdr.packet_in.clock_live_wrong, 0);

                    }
                    sm.egress_spec = sm.ingress_port;
                    meta.sync_out = 2;

                why = SYNC_PROBE;
            } else if (meta.clk_mode != CLOCK_SYNC) {
                if ((from_uplink == 1 && (op == SYNC_OP_REQ || op == SYNC_OP_RESP))
                    || (sm.ingress_port == PKTGEN_PORT && op == SYNC_OP_TRIGGER)
                    || (sm.ingress_port == CPU_PORT && cpu_ok == 1 && op == SYNC_OP_SEED)) {
                    why = SYNC_OFF;                      // timer mode: the clock is the daemon's
                }
            } else if (sm.ingress_port == PKTGEN_PORT && op == SYNC_OP_TRIGGER) {
                if ((bit<32>)hdr.sync.uplink >= NUM_UPLINKS) {
                    why = SYNC_MALFORMED;
                } else {
                    uplink_t u = (uplink_t)hdr.sync.uplink;
                    bit<1> is_lead = (term != 0 && lead == me) ? 1w1 : 1w0;
                    if (meta.clk_candidate == 1 && is_lead == 0) {
                        /* the lead silent too long (or no term yet): claim the next term */
                        bit<32> wait = (term == 0) ? meta.clk_start_wait : meta.clk_claim_wait;
                        bit<32> age = meta.clk_k - lead_k;
                        if (age > wait && age < 0x80000000) {
                            term = term + 1;
                            lead = me;
                            lead_k = meta.clk_k;
                            is_lead = 1;
                            sync.count(SYNC_CLAIMED);
                        }
                    }
                    bit<32> rk;
                    clock_req_k.read(rk, (bit<32>)u);
                    if (meta.clk_phase < meta.clk_window_lo || meta.clk_phase > meta.clk_window_hi) {
                        why = SYNC_OUTSIDE_WINDOW;
                    } else if (meta.clk_k - rk < meta.clk_exchange_every) {
                        why = SYNC_NOT_DUE;
                        /* no REQ due on this uplink: a notice to send goes out instead */
                        if (meta.lv_down_after != 0 && meta.lv_note_rate != 0 && meta.peer_hit == 1
                            && meta.clk_stratum != STRATUM_UNSYNCED) {
                            bit<32> pick = 4;
                            bit<2> pkind = 3;            // the pick's kind (lower: more urgent)
                            bit<32> oldest = 0;          // slices since the pick was last sent on u
                            bit<32> nu0;
                            bit<32> ns0;
                            bit<2> nk0;
                            live_note_q_until.read(nu0, 0);
                            live_note_q_sent.read(ns0, 0 * NUM_UPLINKS + (bit<32>)u);
                            live_note_q_kind.read(nk0, 0);
                            bit<32> age0 = (ns0 == 0) ? 32w0xFFFFFFFF : meta.clk_k + 1 - ns0;
                            if (nu0 != 0 && nu0 - meta.clk_k - 1 < 0x80000000 && ns0 != meta.clk_k + 1
                                && (nk0 < pkind || (nk0 == pkind && age0 > oldest))) {
                                pick = 0;
                                pkind = nk0;
                                oldest = age0;
                            }
                            bit<32> nu1;
                            bit<32> ns1;
                            bit<2> nk1;
                            live_note_q_until.read(nu1, 1);
                            live_note_q_sent.read(ns1, 1 * NUM_UPLINKS + (bit<32>)u);
                            live_note_q_kind.read(nk1, 1);
                            bit<32> age1 = (ns1 == 0) ? 32w0xFFFFFFFF : meta.clk_k + 1 - ns1;
                            if (nu1 != 0 && nu1 - meta.clk_k - 1 < 0x80000000 && ns1 != meta.clk_k + 1
                                && (nk1 < pkind || (nk1 == pkind && age1 > oldest))) {
                                pick = 1;
                                pkind = nk1;
                                oldest = age1;
                            }
                            bit<32> nu2;
                            bit<32> ns2;
                            bit<2> nk2;
                            live_note_q_until.read(nu2, 2);
                            live_note_q_sent.read(ns2, 2 * NUM_UPLINKS + (bit<32>)u);
                            live_note_q_kind.read(nk2, 2);
                            bit<32> age2 = (ns2 == 0) ? 32w0xFFFFFFFF : meta.clk_k + 1 - ns2;
                            if (nu2 != 0 && nu2 - meta.clk_k - 1 < 0x80000000 && ns2 != meta.clk_k + 1
                                && (nk2 < pkind || (nk2 == pkind && age2 > oldest))) {
                                pick = 2;
                                pkind = nk2;
                                oldest = age2;
                            }
                            bit<32> nu3;
                            bit<32> ns3;
                            bit<2> nk3;
                            live_note_q_until.read(nu3, 3);
                            live_note_q_sent.read(ns3, 3 * NUM_UPLINKS + (bit<32>)u);
                            live_note_q_kind.read(nk3, 3);
                            bit<32> age3 = (ns3 == 0) ? 32w0xFFFFFFFF : meta.clk_k + 1 - ns3;
                            if (nu3 != 0 && nu3 - meta.clk_k - 1 < 0x80000000 && ns3 != meta.clk_k + 1
                                && (nk3 < pkind || (nk3 == pkind && age3 > oldest))) {
                                pick = 3;
                                pkind = nk3;
                                oldest = age3;
                            }
                            if (pick != 4) {
                                bit<16> norigin;
                                bit<32> nseq;
                                bit<8> nsl;
                                bit<2> ndown;
                                live_note_q_origin.read(norigin, pick);
                                live_note_q_seq.read(nseq, pick);
                                live_note_q_slice.read(nsl, pick);
                                live_note_q_down.read(ndown, pick);
                                live_note_q_sent.write(pick * NUM_UPLINKS + (bit<32>)u, meta.clk_k + 1);
                                hdr.sync.op = SYNC_OP_NOTICE;
                                hdr.sync.flags = 0;
                                hdr.sync.src_tor = me;
                                hdr.sync.dst_tor = (bit<16>)meta.peer;
                                hdr.sync.uplink = (bit<8>)u;
                                hdr.sync.stratum = meta.clk_stratum;
                                hdr.sync.term = 0;
                                hdr.sync.lead = 0;
                                hdr.sync.lead_k = 0;
                                hdr.sync.t1_k = (bit<32>)norigin;
                                hdr.sync.t1_phase = nseq;
                                hdr.sync.t2_k = (bit<32>)nsl;
                                hdr.sync.t2_phase = (bit<32>)ndown;
                                hdr.sync.t3_k = 0;
                                hdr.sync.t3_phase = 0;
                                hdr.sync.reserved = 0;
                                hdr.sync.aux = 0;
                                sm.egress_spec = (bit<9>)(UPLINK_PORT_BASE + (bit<32>)u);
                                meta.sync_out = 3;       // t3 (when sent) and the slice id in egress
                                notices.count(NOTE_SENT);
                            }
                        }

                    } else {
                        bit<16> dst = 0;
                        bit<8> flags = 0;
                        bit<1> send = 0;
                        if (is_lead == 1 && u == meta.clk_ref_uplink) {
                            dst = SYNC_REF_TOR;                  // the lead: to the reference
                            flags = SYNC_FLAG_REF;
                            why = SYNC_REF_REQ_SENT;
                            send = 1;
                        } else {
                            /* searching (unsynchronized, or no correction for a while): the
                             * slice may be wrong, so to whoever the circuit brings */
                            bit<1> search = (meta.clk_stratum == STRATUM_UNSYNCED
                                             || meta.clk_k - last_k > meta.clk_search_wait) ? 1w1 : 1w0;
                            if (meta.peer_hit == 0 && search == 0) {
                                why = SYNC_NO_PEER;
                            } else {
                                dst = (search == 1) ? SYNC_ANY_TOR : (bit<16>)meta.peer;
                                flags = (search == 1) ? SYNC_FLAG_BOOT : 0;
                                why = SYNC_REQ_SENT;
                                send = 1;
                            }
                        }
                        if (send == 1) {
                            if (meta.lv_down_after != 0 && (flags & SYNC_FLAG_BOOT) == 0) {
                                live_asked.write((bit<32>)meta.cur_slice * NUM_UPLINKS + (bit<32>)u, 1);
                            }

                            clock_req_k.write((bit<32>)u, meta.clk_k);
                            clock_req_peer.write((bit<32>)u, dst);
                            clock_req_open.write((bit<32>)u, 1);
                            hdr.sync.op = SYNC_OP_REQ;
                            hdr.sync.flags = flags | ((meta.clk_stratum == STRATUM_UNSYNCED) ? SYNC_FLAG_BOOT : 0);
                            hdr.sync.dst_tor = dst;
                    hdr.sync.src_tor = me;
                    hdr.sync.stratum = meta.clk_stratum;
                    hdr.sync.term = term;
                    hdr.sync.lead = lead;
                    hdr.sync.lead_k = lead_k;
                    hdr.sync.reserved = 0;
                    hdr.sync.aux = 0;

                            hdr.sync.t2_k = 0;
                            hdr.sync.t2_phase = 0;
                            hdr.sync.t3_k = 0;
                            hdr.sync.t3_phase = 0;
                            sm.egress_spec = (bit<9>)(UPLINK_PORT_BASE + (bit<32>)u);
                            meta.sync_out = 1;           // t1 and the slice id in egress
                        }
                    }
                }

            } else if (from_uplink == 1 && op == SYNC_OP_REQ) {
                if ((hdr.sync.flags & SYNC_FLAG_REF) != 0) {
                    why = SYNC_WRONG_DST;                    // a ToR is not the reference
                } else if (meta.peer_hit == 0 || hdr.sync.src_tor != (bit<16>)meta.peer) {
                    why = SYNC_WRONG_PEER;                   // not on this slice's circuit
                } else if (!(hdr.sync.dst_tor == me
                             || (hdr.sync.dst_tor == SYNC_ANY_TOR && (hdr.sync.flags & SYNC_FLAG_BOOT) != 0))) {
                    why = SYNC_WRONG_DST;
                } else {
                    bit<64> res_fwd = hdr.sync.aux & 0xFFFFFFFF00000000;   // the REQ's residence in the OCS
                    hdr.sync.op = SYNC_OP_RESP;
                    hdr.sync.flags = (meta.clk_stratum == STRATUM_UNSYNCED) ? SYNC_FLAG_BOOT : 0;
                    hdr.sync.dst_tor = hdr.sync.src_tor;
                    hdr.sync.uplink = (bit<8>)meta.peer_uplink;
                    hdr.sync.src_tor = me;
                    hdr.sync.stratum = meta.clk_stratum;
                    hdr.sync.term = term;
                    hdr.sync.lead = lead;
                    hdr.sync.lead_k = lead_k;
                    hdr.sync.reserved = 0;
                    hdr.sync.aux = 0;

                    hdr.sync.aux = res_fwd;                  // goes back with the RESP
                    hdr.sync.t2_k = meta.clk_k;              // t1 stays: the requester's
                    hdr.sync.t2_phase = meta.clk_phase;
                    sm.egress_spec = sm.ingress_port;
                    meta.sync_out = 2;                       // t3 and the slice id in egress
                    why = SYNC_RESP_SENT;
                }

            } else if (from_uplink == 1 && op == SYNC_OP_RESP) {
                bit<32> u = (bit<32>)meta.peer_uplink;
                bit<1> open;
                bit<64> kept_t1;
                bit<16> kept;
                clock_req_open.read(open, u);
                clock_req_t1.read(kept_t1, u);
                clock_req_peer.read(kept, u);
                bit<1> ref = ((hdr.sync.flags & SYNC_FLAG_REF) != 0) ? 1w1 : 1w0;
                /* D(a, b) = (a.k - b.k) as signed 32 bits x L + (a.phase - b.phase) */
                int<64> L = (int<64>)(bit<64>)meta.clk_slice_ns;
                int<64> d21 = (int<64>)(int<32>)(hdr.sync.t2_k - hdr.sync.t1_k) * L
                              + ((int<64>)(bit<64>)hdr.sync.t2_phase - (int<64>)(bit<64>)hdr.sync.t1_phase);
                int<64> d34 = (int<64>)(int<32>)(hdr.sync.t3_k - meta.clk_k) * L
                              + ((int<64>)(bit<64>)hdr.sync.t3_phase - (int<64>)(bit<64>)meta.clk_phase);
                int<64> d41 = (int<64>)(int<32>)(meta.clk_k - hdr.sync.t1_k) * L
                              + ((int<64>)(bit<64>)meta.clk_phase - (int<64>)(bit<64>)hdr.sync.t1_phase);
                int<64> d32 = (int<64>)(int<32>)(hdr.sync.t3_k - hdr.sync.t2_k) * L
                              + ((int<64>)(bit<64>)hdr.sync.t3_phase - (int<64>)(bit<64>)hdr.sync.t2_phase);
                /* the OCS emulator's residence, REQ (aux's upper half) and RESP (lower): out of the
                 * delays, as a PTP transparent clock's (message.residence); longer than the round
                 * trip: forged */
                int<64> fwd = (int<64>)(bit<64>)hdr.sync.aux[63:32];
                int<64> back = (int<64>)(bit<64>)hdr.sync.aux[31:0];
                int<64> rt = d41 - d32;
                if ((bit<32>)hdr.sync.slice >= NUM_SLICES || fwd + back > ((rt > 0) ? rt : 0)) {
                    why = SYNC_MALFORMED;
                } else if (open == 0 || kept_t1 != (hdr.sync.t1_k ++ hdr.sync.t1_phase)) {
                    why = SYNC_STALE;                        // no such request open: stale or replayed
                } else if ((ref == 1 && !(kept == SYNC_REF_TOR && hdr.sync.src_tor == SYNC_REF_TOR
                                          && term != 0 && lead == me))   // the reference answers the lead only
                           || (ref == 0 && (kept == SYNC_REF_TOR
                                            || (kept != SYNC_ANY_TOR && hdr.sync.src_tor != kept)))) {
                    why = SYNC_WRONG_PEER;
                } else if (hdr.sync.dst_tor != me) {
                    why = SYNC_WRONG_DST;
                } else {
                    clock_req_open.write(u, 0);              // one answer per request
                    /* theta = (D(t2, t1) - fwd + D(t3, t4) + back) / 2,
                     * delta = (D(t4, t1) - D(t3, t2) - fwd - back) / 2 */
                    int<64> theta = (d21 - fwd + d34 + back) >> 1;
                    int<64> delta = (rt - fwd - back) >> 1;
                    /* kept for the daemon, saturated to signed 32 bits */
                    int<64> top = 0x7FFFFFFF;
                    int<64> bottom = -0x80000000;
                    clock_offset.write(0, (bit<32>)(bit<64>)((theta > top) ? top : ((theta < bottom) ? bottom : theta)));
                    clock_delay.write(0, (bit<32>)(bit<64>)((delta > top) ? top : ((delta < bottom) ? bottom : delta)));
                    clock_t4_k.write(0, meta.clk_k);
                    clock_t4_phase.write(0, meta.clk_phase);
                    /* the clock filter (NTP, RFC 5905 section 10): the least delay recently seen
                     * on this uplink, aged by filter_creep per exchange, kept as 2^32 - 1 - least
                     * (never written: none); every exchange ages it, a slow one too */
                    bit<32> minv;
                    clock_min_delay.read(minv, u);
                    bit<64> least = (bit<64>)(32w0xFFFFFFFF - minv) + (bit<64>)meta.clk_filter_creep;
                    if (least > 0xFFFFFFFF) { least = 0xFFFFFFFF; }
                    bit<64> dpos = (delta < 0) ? 0 : (bit<64>)delta;
                    if (dpos < least) { least = dpos; }
                    clock_min_delay.write(u, 32w0xFFFFFFFF - (bit<32>)least);
                    /* 1. a newer (term, lower lead id) is adopted: this ToR re-joins the tree */
                    bit<16> dterm = hdr.sync.term - term;
                    if (ref == 0 && ((dterm != 0 && dterm < 0x8000)
                                     || (dterm == 0 && hdr.sync.term != 0 && hdr.sync.lead < lead))) {
                        term = hdr.sync.term;
                        lead = hdr.sync.lead;
                        lead_k = hdr.sync.lead_k;
                        meta.clk_stratum = STRATUM_UNSYNCED;
                        sync.count(SYNC_ADOPTED);
                    }
                    bit<32> newer_k = hdr.sync.lead_k - lead_k;      // the later lead_k (wrap-aware)
                    bit<32> later_k = (newer_k < 0x80000000) ? hdr.sync.lead_k : lead_k;
                    /* the lead's liveness, whatever the delay: the reference answered the lead
                     * now, a same-term peer carries its lead_k (a queued exchange says nothing
                     * of the time, but the lead is alive: no claim on a loaded fabric) */
                    if (ref == 1) {
                        lead_k = meta.clk_k;
                    } else if (hdr.sync.term == term) {
                        lead_k = later_k;
                    }
                    if (delta > (int<64>)(bit<64>)meta.clk_max_delay) {
                        why = SYNC_SLOW;                             // 2. queued: measures the queue
                    } else if (!(hdr.sync.stratum < meta.clk_stratum && (ref == 1 || hdr.sync.term == term))) {
                        why = SYNC_PEER_WORSE;                       // 3. not a better clock
                    } else if (meta.clk_stratum == STRATUM_UNSYNCED) {
                        /* 4. step to the responder's time now: t3 + max(delta, 0) */
                        bit<64> ph = (bit<64>)hdr.sync.t3_phase + ((delta > 0) ? (bit<64>)delta : 0);
                        bit<32> k3 = hdr.sync.t3_k;
                        bit<32> sl = (bit<32>)hdr.sync.slice;
                        if (ph >= (bit<64>)meta.clk_slice_ns) {
                            ph = ph - (bit<64>)meta.clk_slice_ns;
                            k3 = k3 + 1;
                            sl = sl + 1;
                            if (sl >= NUM_SLICES) { sl = 0; }
                            if (ph >= (bit<64>)meta.clk_slice_ns) { ph = (bit<64>)meta.clk_slice_ns - 1; }
                        }
                    if (k3 != meta.clk_k) {
                        epoch_reg.write(0, meta.epoch + 1);
                        bit<32> na = meta.active_q + 1;
                        if (na >= NUM_QUEUES) { na = 0; }
                        active_q_reg.write(0, na);
                        qstate_reg.write(0, 0);
                    }
                    clock_k.write(0, k3);
                    slice_reg.write(0, (slice_t)sl);
                    clock_next.write(0, meta.clk_l + (bit<64>)(meta.clk_slice_ns - (bit<32>)ph));

                        meta.clk_stratum = (ref == 1) ? 8w1 : hdr.sync.stratum + 1;
                        refusals = 0;
                        lead_k = (ref == 1) ? k3 : later_k;
                        last_k = k3;
                        why = SYNC_STEP;
                    } else if (delta > (int<64>)(least + (bit<64>)meta.clk_filter)) {
                        why = SYNC_FILTERED;                         // 5. far above the least delay: as asymmetric
                    } else {
                        int<64> mag = (theta < 0) ? -theta : theta;
                        if (mag > (int<64>)(bit<64>)meta.clk_max_offset) {
                            /* 6. beyond the bound: refused; refuse_limit in a row: this clock is the runaway */
                            refusals = refusals + 1;
                            if (refusals >= meta.clk_refuse_limit) {
                                meta.clk_stratum = STRATUM_UNSYNCED;
                                refusals = 0;
                                why = SYNC_LOST;
                            } else {
                                why = SYNC_REFUSED;
                            }
                        } else {
                            /* 7. applied: the boundary moves by |theta| >> phase_shift within twice the
                             * filter's bound, by theta beyond (servo.phase_move); the slice length by
                             * theta >> shift, at most rate_step (one exchange's asymmetry cannot swing
                             * the rate) */
                            bit<64> pmove = ((bit<64>)mag > ((bit<64>)meta.clk_filter << 1))
                                            ? (bit<64>)mag : ((bit<64>)mag >> meta.clk_phase_shift);
                            clock_next.write(0, (theta > 0) ? meta.clk_next - pmove : meta.clk_next + pmove);
                            bit<64> adj64 = (bit<64>)mag >> meta.clk_servo_shift;
                            bit<32> adj = (adj64 > (bit<64>)meta.clk_rate_step) ? meta.clk_rate_step : (bit<32>)adj64;
                            bit<32> len = meta.clk_len;
                            if (theta > 0) {
                                len = (adj >= len - meta.clk_len_min) ? meta.clk_len_min : len - adj;
                            } else {
                                len = (adj >= meta.clk_len_max - len) ? meta.clk_len_max : len + adj;
                            }
                            clock_len.write(0, len);
                            meta.clk_stratum = (ref == 1) ? 8w1 : hdr.sync.stratum + 1;
                            refusals = 0;
                            lead_k = (ref == 1) ? meta.clk_k : later_k;
                            last_k = meta.clk_k;
                            why = SYNC_APPLIED;
                        }
                    }
                }

            } else if (sm.ingress_port == CPU_PORT && cpu_ok == 1 && op == SYNC_OP_SEED) {
                if (hdr.sync.t3_phase >= meta.clk_slice_ns || (bit<32>)hdr.sync.slice >= NUM_SLICES) {
                    why = SYNC_MALFORMED;
                } else {
                    if (hdr.sync.t3_k != meta.clk_k) {
                        epoch_reg.write(0, meta.epoch + 1);
                        bit<32> na = meta.active_q + 1;
                        if (na >= NUM_QUEUES) { na = 0; }
                        active_q_reg.write(0, na);
                        qstate_reg.write(0, 0);
                    }
                    clock_k.write(0, hdr.sync.t3_k);
                    slice_reg.write(0, (slice_t)hdr.sync.slice);
                    clock_next.write(0, meta.clk_l + (bit<64>)(meta.clk_slice_ns - hdr.sync.t3_phase));

                    meta.clk_stratum = ((hdr.sync.flags & SYNC_FLAG_REF) != 0) ? 8w0 : STRATUM_UNSYNCED;
                    refusals = 0;
                    lead_k = hdr.sync.t3_k;
                    last_k = hdr.sync.t3_k;
                    why = SYNC_SEED;
                }

            }
            clock_stratum.write(0, 255 - meta.clk_stratum);
            clock_term.write(0, term);
            clock_lead.write(0, lead);
            clock_lead_k.write(0, lead_k);
            clock_refusals.write(0, refusals);
            clock_last_k.write(0, last_k);
            sync.count(why);
            if (meta.sync_out == 0) {
                mark_to_drop(sm);
            }
            exit;
        }
        /* Timer channel (see fragments/timer.p4.j2). An applied timer moves the clock by
         * delta slices: the calendar queues of the slices that ended have drained, so
         * their Full bits are cleared on every uplink (their byte positions are dropped
         * lazily: the next admission sees a different departure epoch in qtag_reg), and
         * the new slice starts now (the active queue's byte clock). */
        if (sm.ingress_port == CPU_PORT) {
            if (hdr.packet_out.isValid() && hdr.packet_out.opcode == OPCODE_TIMER && hdr.timer.isValid()) {
                bit<32> delta = (bit<32>)hdr.timer.slice + NUM_SLICES - (bit<32>)meta.cur_slice;
                if (delta >= NUM_SLICES) { delta = delta - NUM_SLICES; }
                bit<1> is_sync = ((hdr.timer.flags & TIMER_FLAG_SYNC) != 0) ? 1w1 : 1w0;
                if ((bit<32>)hdr.timer.slice >= NUM_SLICES) {
                    events.count(EVENT_TIMER_REJECTED);   // no such slice
                } else if (meta.clk_mode == CLOCK_SYNC) {
                    events.count(EVENT_TIMER_REJECTED);   // sync mode: the switch keeps time itself
                } else if (is_sync == 0 && (delta == 0 || delta > meta.max_step)) {
                    events.count(EVENT_TIMER_REJECTED);   // duplicate, backwards or too far
                } else {
                    if (delta != 0) {
                        bit<32> new_active = meta.active_q + delta;
                        if (new_active >= NUM_QUEUES) { new_active = new_active - NUM_QUEUES; }
                        bit<4> drained = ~(bit<4>)0;
                        if (delta < NUM_QUEUES) {
                            bit<8> run = (((bit<8>)1 << (bit<8>)delta) - 1) << (bit<8>)meta.active_q;
                            drained = run[3:0] | run[7:4];
                        }
                        /* the same drained queues on every uplink: d copies side by side */
                        qstate_t clear = drained ++ drained;
                        qstate_reg.read(meta.qstate, 0);
                        qstate_reg.write(0, meta.qstate & ~clear);

                        slice_reg.write(0, (slice_t)hdr.timer.slice);
                        epoch_reg.write(0, meta.epoch + delta);
                        active_q_reg.write(0, new_active);
                    }
                    slice_start_reg.write(0, meta.now);

                    if (is_sync == 1) {
                        events.count(EVENT_TIMER_SYNC);
                    } else {
                        events.count(EVENT_TIMER);
                    }
                }
            } else {
                drops.count(DROP_BAD_TIMER);        // the controller sent something else
            }
            mark_to_drop(sm);
            exit;
        }
        if (hdr.ethernet.isValid() && hdr.ethernet.etherType == ETHERTYPE_TIMER) {
            drops.count(DROP_BAD_TIMER);            // a timer from a data port: never trusted
            mark_to_drop(sm);
            exit;
        }

        if (meta.configured == 0) {
            drops.count(DROP_UNCONFIGURED);      // no config entry yet: forward nothing
            mark_to_drop(sm);
            exit;
        }
        if (meta.recirculated == 0) {
            meta.first_epoch = meta.epoch;
            meta.from_host = hdr.ssrr.isValid() ? 1w0 : 1w1;   // (an option from a host port is dropped below)
        }
        /* ---- malformed input: dropped and counted, never forwarded --------------------
         * In this order (the first that applies is the reason counted): a parser error
         * (truncated headers; bad_ssrr inside IPv4 options); not IPv4; version != 4,
         * IHL < 5 or total length shorter than the header; options other than exactly
         * NOP + one SSRR option filling the header (bad_ssrr); a wrong header checksum;
         * an SSRR option arriving from anything but an uplink (hosts never source-route; RFC 7126
         * recommends dropping SSRR at the edge); TTL 0. */
        if (sm.parser_error != error.NoError) {
            if (hdr.ipv4.isValid() && hdr.ipv4.ihl > 5) {
                drops.count(DROP_BAD_SSRR);      // truncated / oversized options
            } else {
                drops.count(DROP_MALFORMED);
            }
            mark_to_drop(sm);
            exit;
        }
        if (!hdr.ipv4.isValid()) {
            drops.count(DROP_NOT_IPV4);
            mark_to_drop(sm);
            exit;
        }
        if (hdr.ipv4.version != 4 || hdr.ipv4.ihl < 5 || hdr.ipv4.totalLen < ((bit<16>)hdr.ipv4.ihl << 2)) {
            drops.count(DROP_MALFORMED);
            mark_to_drop(sm);
            exit;
        }
        if (hdr.ipv4.ihl > 5) {
            /* NOP, type 137, length 3 + 4n (n >= 1), and nothing else in the header */
            if (!hdr.ssrr.isValid() || hdr.ssrr.nop != IPOPT_NOP || hdr.ssrr.type != IPOPT_SSRR
                || hdr.ssrr.len < 7 || ((hdr.ssrr.len - 3) & 3) != 0
                || (bit<8>)hdr.ipv4.ihl != 6 + ((hdr.ssrr.len - 3) >> 2)) {
                drops.count(DROP_BAD_SSRR);
                mark_to_drop(sm);
                exit;
            }
        }
        if (sm.checksum_error == 1) {
            drops.count(DROP_BAD_CHECKSUM);
            mark_to_drop(sm);
            exit;
        }
        if (hdr.ssrr.isValid() && meta.recirculated == 0
            && !(sm.ingress_port >= (bit<9>)UPLINK_PORT_BASE
                 && sm.ingress_port < (bit<9>)(UPLINK_PORT_BASE + NUM_UPLINKS))) {
            drops.count(DROP_BAD_SSRR);          // a host (or anything but an uplink) source-routing
            mark_to_drop(sm);
            exit;
        }
        if (hdr.ipv4.ttl == 0) {
            drops.count(DROP_TTL);
            mark_to_drop(sm);
            exit;
        }

        /* ---- the packet's route generation (Reitblatt et al., SIGCOMM 2012: per-packet
         * consistency): a packet from a host is stamped with this ToR's generation in the
         * IPv4 reserved flag bit (must be zero on the wire, RFC 791; the header checksum is
         * recomputed on the way out); one from an uplink is routed by its stamp, which must
         * be a generation complete here (config `live`), else dropped and counted. The
         * generation then serves its whole stay (held, re-decided, re-sourced). */
        if (meta.recirculated == 0) {
            if (sm.ingress_port >= (bit<9>)UPLINK_PORT_BASE
                && sm.ingress_port < (bit<9>)(UPLINK_PORT_BASE + NUM_UPLINKS)) {
                meta.gen = hdr.ipv4.flags[2:2];
                if ((meta.live >> meta.gen)[0:0] == 0) {
                    drops.count(DROP_STALE_GEN);     // its generation is not (or no longer) here
                    mark_to_drop(sm);
                    exit;
                }
                if (meta.gen != meta.cfg_gen) {
                    events.count(EVENT_GEN_OTHER);   // per-switch flips would have mixed it
                }
            } else {
                meta.gen = meta.cfg_gen;
                hdr.ipv4.flags[2:2] = meta.gen;
            }
        }
        qstate_reg.read(meta.qstate, 0);         // the one queue-state read of this pass

        /* ---- calendar queue on bmv2: a held packet circles until its slice ---------- */
        bit<1> again = meta.redecide;
        meta.redecide = 0;
        if (meta.held == 1) {
            bit<32> elapsed = meta.epoch - meta.admit_epoch;
            if (meta.epoch > meta.first_epoch && meta.epoch - meta.first_epoch >= NUM_SLICES) {
                drops.count(DROP_HELD_TOO_LONG);
                mark_to_drop(sm);
                exit;
            }
            bit<1> down;
                down = (bit<1>)(meta.down >> (bit<8>)meta.hold_uplink);

            sm.egress_spec = (bit<9>)(UPLINK_PORT_BASE + (bit<32>)meta.hold_uplink);
            meta.held = 0;
            if (down == 1) {
                events.count(EVENT_UPLINK_DOWN);  // its uplink failed meanwhile: route again
                again = 1;
            } else if (elapsed < meta.hold_wait) {
                meta.held = 1;
                sm.priority = meta.hold_q;
                meta.in_hold = 1;
                meta.pick_hold = 1;
                exit;                            // not yet: around again (egress recirculates)
            } else if (elapsed == meta.hold_wait) {
                if (meta.now < meta.slice_start + SLICE_GUARD_US) {
                    meta.held = 1;               // its slice, but in the guard at its start: not yet
                    exit;
                }
                /* its slice: out on the uplink, unless its circuit now leads to a dead ToR */
                bit<32> dpos = (bit<32>)meta.cur_slice * NUM_UPLINKS + (bit<32>)meta.hold_uplink;
                bit<1> dead;
                dead = (bit<1>)(meta.dead >> (bit<8>)dpos);

                if (dead == 0) {
                    exit;
                }
                events.count(EVENT_UPLINK_DOWN);
                again = 1;
            } else {
                /* the departure slice passed (URO Property 3, UCMP §6.3): route again from now */
                again = 1;
                if (hdr.ssrr.isValid()) {
                    events.count(EVENT_SSRR_MISSED);
                } else {
                    events.count(EVENT_REROUTE_MISSED);
                }
            }
        }

        bit<1> transit = 0;
        if (again == 1) {
            /* ---- decided again: from this ToR, now, with the latched generation ------ */
            if (meta.late == 1) {
                events.count(EVENT_DEPARTED_LATE);   // egress found its slice over (below)
                meta.late = 0;
            }
            if (meta.reroutes >= MAX_REROUTES) {
                drops.count(DROP_REROUTE_LIMIT);
                mark_to_drop(sm);
                exit;
            }
            meta.reroutes = meta.reroutes + 1;
            if (hdr.ssrr.isValid()) {
                meta.use_ssrr = 1;               // UCMP §6.3: this ToR is the new source
            } else {
                route_mode.apply();
            }
        } else {
            /* ---- first pass: host ingress ------------------------------------------ */
            host_dst.apply();
            if (meta.routed == 0 || (meta.is_local == 0 && meta.dst_tor == meta.my_tor)) {
                drops.count(DROP_NO_ROUTE);
                mark_to_drop(sm);
                exit;
            }
            if (meta.is_local == 1) {
                hdr.ipv4.flags = hdr.ipv4.flags & 3;   // the generation stamp never reaches a host
                /* Destination ToR: to the host port. A source route ends here: the
                 * option is removed, so hosts never see fabric routes (a host kernel
                 * would echo a reversed source route in its replies, RFC 791 3.1). */
                if (hdr.ssrr.isValid()) {
                    hdr.ipv4.totalLen = hdr.ipv4.totalLen - ((bit<16>)(hdr.ipv4.ihl - 5) << 2);
                    hdr.ipv4.ihl = 5;
                    hdr.ssrr.setInvalid();
                    hdr.hops[0].setInvalid();
                    hdr.hops[1].setInvalid();
                    hdr.hops[2].setInvalid();
                    hdr.hops[3].setInvalid();
                }
                exit;
            }
            if (hdr.ipv4.ttl <= 1) {
                drops.count(DROP_TTL);
                mark_to_drop(sm);
                exit;
            }
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
            if (hdr.ssrr.isValid()) {
                transit = 1;
            } else {
                route_mode.apply();
            }
        }

        /* ---- pick the departure ------------------------------------------------------ */
        if (transit == 1) {
            /* Intermediate ToR: the option's structure was checked at the edge; the pointer
             * must point at a hop and every field used is range-checked before it indexes
             * anything. The hop before it must name this ToR: one that names another ToR was
             * carried by another slice's circuit (it crossed a slice boundary the switches
             * did not see at the same moment), so its path is no longer available: it is
             * re-sourced here (UCMP §6.3), as a per-hop packet is routed on from wherever it
             * arrives. */
            {
                bit<8> nhops = (hdr.ssrr.len - 3) >> 2;
                bit<1> bad = 0;
                bit<1> elsewhere = 0;
                if (hdr.ssrr.ptr < 8 || (hdr.ssrr.ptr & 3) != 0) { bad = 1; }  // hop 0 is the source's
                meta.hop_idx = (hdr.ssrr.ptr >> 2) - 1;
                if (meta.hop_idx > nhops) {
                    bad = 1;                                                  // pointer past the end
                } else if (bad == 0 && meta.hop_idx == nhops) {
                    elsewhere = 1;      // every hop taken, yet not at its destination: its last hop went astray
                }
                if (bad == 0 && elsewhere == 0) {
                    /* The hop at the pointer (index hop_idx) and the hop before it. */
                    if (meta.hop_idx == 0) {
                        meta.hop_next_tor = hdr.hops[0].next_tor;
                        meta.hop_uplink = hdr.hops[0].uplink;
                        meta.hop_slice = hdr.hops[0].send_slice;
                    }
                    else if (meta.hop_idx == 1) {
                        meta.hop_next_tor = hdr.hops[1].next_tor;
                        meta.hop_uplink = hdr.hops[1].uplink;
                        meta.hop_slice = hdr.hops[1].send_slice;
                        meta.prev_next_tor = hdr.hops[0].next_tor;
                        meta.prev_slice = hdr.hops[0].send_slice;
                    }
                    else if (meta.hop_idx == 2) {
                        meta.hop_next_tor = hdr.hops[2].next_tor;
                        meta.hop_uplink = hdr.hops[2].uplink;
                        meta.hop_slice = hdr.hops[2].send_slice;
                        meta.prev_next_tor = hdr.hops[1].next_tor;
                        meta.prev_slice = hdr.hops[1].send_slice;
                    }
                    else if (meta.hop_idx == 3) {
                        meta.hop_next_tor = hdr.hops[3].next_tor;
                        meta.hop_uplink = hdr.hops[3].uplink;
                        meta.hop_slice = hdr.hops[3].send_slice;
                        meta.prev_next_tor = hdr.hops[2].next_tor;
                        meta.prev_slice = hdr.hops[2].send_slice;
                    }

                    if (meta.prev_next_tor != meta.my_tor) { elsewhere = 1; } // hop names another ToR
                    if ((bit<32>)meta.hop_uplink >= NUM_UPLINKS || (bit<32>)meta.hop_slice >= NUM_SLICES
                        || (bit<32>)meta.hop_next_tor >= NUM_TORS || (bit<32>)meta.prev_slice >= NUM_SLICES) {
                        bad = 1;                                              // out of range
                    }
                }
                if (bad == 1) {
                    drops.count(DROP_BAD_SSRR);
                    mark_to_drop(sm);
                    exit;
                }
                if (elsewhere == 1) {
                    events.count(EVENT_SSRR_MISDELIVERED);
                    /* delivered to a ToR its route does not name: re-sourced here: decide again from this ToR on the next pass (recirculation; the
                     * egress sends it around). */
                    meta.redecide = 1;
                    sm.egress_spec = (bit<9>)UPLINK_PORT_BASE;
                    exit;

                }
                events.count(EVENT_SSRR_TRANSIT);
                /* The packet left the previous ToR in prev_slice and was to wait here until
                 * hop_slice; if more slices have passed than that, its slice is missed:
                 * re-route from here (UCMP §6.3), never wait a whole cycle. */
                bit<32> planned = (bit<32>)meta.hop_slice + NUM_SLICES - (bit<32>)meta.prev_slice;
                if (planned >= NUM_SLICES) { planned = planned - NUM_SLICES; }
                bit<32> waited = (bit<32>)meta.cur_slice + NUM_SLICES - (bit<32>)meta.prev_slice;
                if (waited >= NUM_SLICES) { waited = waited - NUM_SLICES; }
                /* It left the previous ToR in the slice after this ToR's current one: no packet
                 * spends S - 1 slices in flight, so this ToR's timer is late (the timers reach
                 * the switches one after another). Not missed: its hop is still ahead, it
                 * waits here for this ToR's clock (try_hop holds it by the hop's rank). */
                if (waited == NUM_SLICES - 1) { waited = 0; }
                if (waited > planned) {
                    events.count(EVENT_SSRR_MISSED);
                    /* late: its send slice has passed: decide again from this ToR on the next pass (recirculation; the
                     * egress sends it around). */
                    meta.redecide = 1;
                    sm.egress_spec = (bit<9>)UPLINK_PORT_BASE;
                    exit;

                }
            }

            /* Take the hop: its uplink in its send slice (the pointer moves on admission). */
            /* source-route hop: usable if its uplink is up and its calendar queue Unfull */
            if (meta.have_dep == 0 && (bit<32>)meta.hop_uplink < NUM_UPLINKS && (bit<32>)meta.hop_slice < NUM_SLICES) {
                bit<32> rank = (bit<32>)meta.hop_slice + NUM_SLICES - (bit<32>)meta.cur_slice;
                if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                bit<32> q = meta.active_q + rank;
                if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                bit<32> pos = (bit<32>)meta.hop_uplink * NUM_QUEUES + q;
                bit<1> full;
                full = (bit<1>)(meta.qstate >> (bit<8>)pos);

                bit<1> down;
                down = (bit<1>)(meta.down >> (bit<8>)meta.hop_uplink);

                /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                bit<32> dpos = (bit<32>)meta.hop_slice * NUM_UPLINKS + (bit<32>)meta.hop_uplink;
                bit<1> dead;
                dead = (bit<1>)(meta.dead >> (bit<8>)dpos);

                if (down == 1 || dead == 1) {
                    meta.saw_down = 1;           // a failed uplink counts as Full
                    meta.tried_full = 1;
                } else if (full == 0) {
                    meta.have_dep = 1;
                    meta.dep_uplink = meta.hop_uplink;
                    meta.dep_slice = meta.hop_slice;
                    meta.dep_rank = rank;
                    meta.dep_queue = q;
                } else {
                    meta.tried_full = 1;
                }
            }

            if (meta.have_dep == 0) {
                /* its hop's queue is Full or its uplink down: re-source (UCMP §6.3) */
                events.count(EVENT_SSRR_RESOURCED);
                if (meta.saw_down == 1) { events.count(EVENT_UPLINK_DOWN); }
                /* Full hop: decide again from this ToR on the next pass (recirculation; the
                 * egress sends it around). */
                meta.redecide = 1;
                sm.egress_spec = (bit<9>)UPLINK_PORT_BASE;
                exit;

            }
        } else {
            if (meta.use_ssrr == 1) {
                /* Source ToR (or a ToR re-sourcing, UCMP §6.3): pick a path for (dst, slice,
                 * bucket) and write it into the packet, replacing any option it carried. */
                if (hdr.l4.isValid()) { meta.l4_src = hdr.l4.srcPort; meta.l4_dst = hdr.l4.dstPort; }
                ssrr_bucket.apply();
                /* the path of the current slice, or of a later one once hop 0 of an earlier
                 * start slice could not leave (defer() below) */
                meta.ssrr_lead = 0;
                if (meta.ssrr_not_before > meta.epoch) { meta.ssrr_lead = meta.ssrr_not_before - meta.epoch; }
                {
                    bit<32> start = (bit<32>)meta.cur_slice + meta.ssrr_lead;
                    if (start >= NUM_SLICES) { start = start - NUM_SLICES; }
                    meta.ssrr_start = (slice_t)start;
                }
                /* a path written here starts here: its hops lie within one cycle of its start
                 * slice, which the held-too-long bound counts from */
                meta.first_epoch = meta.epoch + meta.ssrr_lead;
                meta.path_len = 0;
                ssrr_path.apply();
                if (meta.path_len == 0 || meta.path_len > 4) {
                    drops.count(DROP_NO_ROUTE);
                    mark_to_drop(sm);
                    exit;
                }
                if (meta.path_len <= 1) { hdr.hops[1].setInvalid(); }
                if (meta.path_len <= 2) { hdr.hops[2].setInvalid(); }
                if (meta.path_len <= 3) { hdr.hops[3].setInvalid(); }
                /* header length: 5 words + NOP/type/len/ptr word + one word per hop */
                {
                    bit<16> old_hdr = (bit<16>)hdr.ipv4.ihl << 2;
                    bit<16> new_hdr = 24 + ((bit<16>)meta.path_len << 2);
                    hdr.ipv4.totalLen = hdr.ipv4.totalLen - old_hdr + new_hdr;
                    hdr.ipv4.ihl = 6 + (bit<4>)meta.path_len;
                    meta.out_len = meta.out_len - (bit<32>)old_hdr + (bit<32>)new_hdr;
                }
                meta.hop_idx = 0;
                meta.hop_uplink = hdr.hops[0].uplink;
                meta.hop_slice = hdr.hops[0].send_slice;
                events.count(EVENT_SSRR_WRITTEN);
                /* a hop over a circuit the notices say is dead: routed per hop instead */
                if (meta.clk_mode == CLOCK_SYNC && meta.lv_down_after != 0 && meta.lv_note_rate != 0) {
                    bit<1> crossed = 0;
                    if (meta.path_len > 0) {
                        bit<32> from = (bit<32>)meta.my_tor;
                        bit<32> to = (bit<32>)hdr.hops[0].next_tor;
                        bit<32> hs = (bit<32>)hdr.hops[0].send_slice;
                        bit<8> hu = (bit<8>)hdr.hops[0].uplink;
                        if (from < NUM_TORS && to < NUM_TORS && hs < NUM_SLICES) {
                            bit<2> a;
                            bit<2> b;
                            live_note_map.read(a, from * NUM_SLICES + hs);
                            live_note_map.read(b, to * NUM_SLICES + hs);
                            if (((a | b) >> hu)[0:0] == 1) { crossed = 1; }
                        }
                    }
                    if (meta.path_len > 1) {
                        bit<32> from = (bit<32>)hdr.hops[0].next_tor;
                        bit<32> to = (bit<32>)hdr.hops[1].next_tor;
                        bit<32> hs = (bit<32>)hdr.hops[1].send_slice;
                        bit<8> hu = (bit<8>)hdr.hops[1].uplink;
                        if (from < NUM_TORS && to < NUM_TORS && hs < NUM_SLICES) {
                            bit<2> a;
                            bit<2> b;
                            live_note_map.read(a, from * NUM_SLICES + hs);
                            live_note_map.read(b, to * NUM_SLICES + hs);
                            if (((a | b) >> hu)[0:0] == 1) { crossed = 1; }
                        }
                    }
                    if (meta.path_len > 2) {
                        bit<32> from = (bit<32>)hdr.hops[1].next_tor;
                        bit<32> to = (bit<32>)hdr.hops[2].next_tor;
                        bit<32> hs = (bit<32>)hdr.hops[2].send_slice;
                        bit<8> hu = (bit<8>)hdr.hops[2].uplink;
                        if (from < NUM_TORS && to < NUM_TORS && hs < NUM_SLICES) {
                            bit<2> a;
                            bit<2> b;
                            live_note_map.read(a, from * NUM_SLICES + hs);
                            live_note_map.read(b, to * NUM_SLICES + hs);
                            if (((a | b) >> hu)[0:0] == 1) { crossed = 1; }
                        }
                    }
                    if (meta.path_len > 3) {
                        bit<32> from = (bit<32>)hdr.hops[2].next_tor;
                        bit<32> to = (bit<32>)hdr.hops[3].next_tor;
                        bit<32> hs = (bit<32>)hdr.hops[3].send_slice;
                        bit<8> hu = (bit<8>)hdr.hops[3].uplink;
                        if (from < NUM_TORS && to < NUM_TORS && hs < NUM_SLICES) {
                            bit<2> a;
                            bit<2> b;
                            live_note_map.read(a, from * NUM_SLICES + hs);
                            live_note_map.read(b, to * NUM_SLICES + hs);
                            if (((a | b) >> hu)[0:0] == 1) { crossed = 1; }
                        }
                    }
                    if (crossed == 1) {
                        notices.count(NOTE_AVOIDED);
                        bit<16> cur = (bit<16>)hdr.ipv4.ihl << 2;
                        hdr.ipv4.totalLen = hdr.ipv4.totalLen - cur + 20;
                        meta.out_len = meta.out_len - (bit<32>)cur + 20;
                        hdr.ipv4.ihl = 5;
                        hdr.ssrr.setInvalid();
                        hdr.hops[0].setInvalid();
                        hdr.hops[1].setInvalid();
                        hdr.hops[2].setInvalid();
                        hdr.hops[3].setInvalid();
                        meta.use_ssrr = 0;
                    }
                }

                if (meta.use_ssrr == 1) {       // (not routed per hop instead: the notices)
                    /* Take the hop: its uplink in its send slice (the pointer moves on admission). */
                    /* hop 0 of the new path: usable if its uplink is up and its calendar queue Unfull */
                    if (meta.have_dep == 0 && (bit<32>)meta.hop_uplink < NUM_UPLINKS && (bit<32>)meta.hop_slice < NUM_SLICES) {
                        bit<32> rank = (bit<32>)meta.hop_slice + NUM_SLICES - (bit<32>)meta.cur_slice;
                        if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                        bit<32> q = meta.active_q + rank;
                        if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                        bit<32> pos = (bit<32>)meta.hop_uplink * NUM_QUEUES + q;
                        bit<1> full;
                        full = (bit<1>)(meta.qstate >> (bit<8>)pos);

                        bit<1> down;
                        down = (bit<1>)(meta.down >> (bit<8>)meta.hop_uplink);

                        /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                        bit<32> dpos = (bit<32>)meta.hop_slice * NUM_UPLINKS + (bit<32>)meta.hop_uplink;
                        bit<1> dead;
                        dead = (bit<1>)(meta.dead >> (bit<8>)dpos);

                        if (down == 1 || dead == 1) {
                            meta.saw_down = 1;           // a failed uplink counts as Full
                            meta.tried_full = 1;
                        } else if (full == 0) {
                            meta.have_dep = 1;
                            meta.dep_uplink = meta.hop_uplink;
                            meta.dep_slice = meta.hop_slice;
                            meta.dep_rank = rank;
                            meta.dep_queue = q;
                        } else {
                            meta.tried_full = 1;
                        }
                    }

                    /* Hop 0 of the path cannot leave: its queue is Full (no room left in its slice,
                     * e.g. the current slice's last bytes are spent) or its uplink is down. A packet
                     * that cannot leave in slice t is, for routing, a packet that starts in slice
                     * t + 1: take the path the routes give for the next start slice (whose hops all
                     * leave in or after it; their latency is the route's own), up to S - 1 slices on.
                     * Without this the one path of a source route had no way out at all (all_full)
                     * where a per-hop route takes its next alternative (UCMP §6.3 re-sources a packet
                     * that cannot be buffered; repeated in the same slice it finds the same path). */
                    if (meta.have_dep == 0 && meta.ssrr_lead + 1 < NUM_SLICES) {
                        meta.ssrr_not_before = meta.epoch + meta.ssrr_lead + 1;
                        events.count(EVENT_SSRR_DEFERRED);
                        if (meta.saw_down == 1) { events.count(EVENT_UPLINK_DOWN); }
                            /* hop 0 cannot leave in its slice: the path of the next start slice: decide again from this ToR on the next pass (recirculation; the
                             * egress sends it around). */
                            meta.redecide = 1;
                            sm.egress_spec = (bit<9>)UPLINK_PORT_BASE;
                            exit;

                    }

                }
            }
            if (meta.use_ssrr == 0) {
                /* One table hit gives all K alternatives; the queue-state bitmap read once
                 * (meta.qstate) and the config's down mask say which are usable; the first
                 * usable one wins. */
                uro_next_hop.apply();
                if (meta.n_alts == 0) {
                    drops.count(DROP_NO_ROUTE);
                    mark_to_drop(sm);
                    exit;
                }
                if (meta.n_alts > 0) {
                    /* alternative 0: usable if its uplink is up and its calendar queue Unfull */
                    if (meta.have_dep == 0 && (bit<32>)meta.alt_up_0 < NUM_UPLINKS && (bit<32>)meta.alt_sl_0 < NUM_SLICES) {
                        bit<32> rank = (bit<32>)meta.alt_sl_0 + NUM_SLICES - (bit<32>)meta.cur_slice;
                        if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                        bit<32> q = meta.active_q + rank;
                        if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                        bit<32> pos = (bit<32>)meta.alt_up_0 * NUM_QUEUES + q;
                        bit<1> full;
                        full = (bit<1>)(meta.qstate >> (bit<8>)pos);

                        bit<1> down;
                        down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_0);

                        /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                        bit<32> dpos = (bit<32>)meta.alt_sl_0 * NUM_UPLINKS + (bit<32>)meta.alt_up_0;
                        bit<1> dead;
                        dead = (bit<1>)(meta.dead >> (bit<8>)dpos);

                        if (down == 1 || dead == 1) {
                            meta.saw_down = 1;           // a failed uplink counts as Full
                            meta.tried_full = 1;
                        } else if (full == 0) {
                            meta.have_dep = 1;
                            meta.dep_uplink = meta.alt_up_0;
                            meta.dep_slice = meta.alt_sl_0;
                            meta.dep_rank = rank;
                            meta.dep_queue = q;
                        } else {
                            meta.tried_full = 1;
                        }
                    }

                    if (meta.have_dep == 1 && meta.dep_alt == 255) { meta.dep_alt = 0; }
                }
                if (meta.n_alts > 1) {
                    /* alternative 1: usable if its uplink is up and its calendar queue Unfull */
                    if (meta.have_dep == 0 && (bit<32>)meta.alt_up_1 < NUM_UPLINKS && (bit<32>)meta.alt_sl_1 < NUM_SLICES) {
                        bit<32> rank = (bit<32>)meta.alt_sl_1 + NUM_SLICES - (bit<32>)meta.cur_slice;
                        if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                        bit<32> q = meta.active_q + rank;
                        if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                        bit<32> pos = (bit<32>)meta.alt_up_1 * NUM_QUEUES + q;
                        bit<1> full;
                        full = (bit<1>)(meta.qstate >> (bit<8>)pos);

                        bit<1> down;
                        down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_1);

                        /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                        bit<32> dpos = (bit<32>)meta.alt_sl_1 * NUM_UPLINKS + (bit<32>)meta.alt_up_1;
                        bit<1> dead;
                        dead = (bit<1>)(meta.dead >> (bit<8>)dpos);

                        if (down == 1 || dead == 1) {
                            meta.saw_down = 1;           // a failed uplink counts as Full
                            meta.tried_full = 1;
                        } else if (full == 0) {
                            meta.have_dep = 1;
                            meta.dep_uplink = meta.alt_up_1;
                            meta.dep_slice = meta.alt_sl_1;
                            meta.dep_rank = rank;
                            meta.dep_queue = q;
                        } else {
                            meta.tried_full = 1;
                        }
                    }

                    if (meta.have_dep == 1 && meta.dep_alt == 255) { meta.dep_alt = 1; }
                }
                if (meta.n_alts > 2) {
                    /* alternative 2: usable if its uplink is up and its calendar queue Unfull */
                    if (meta.have_dep == 0 && (bit<32>)meta.alt_up_2 < NUM_UPLINKS && (bit<32>)meta.alt_sl_2 < NUM_SLICES) {
                        bit<32> rank = (bit<32>)meta.alt_sl_2 + NUM_SLICES - (bit<32>)meta.cur_slice;
                        if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                        bit<32> q = meta.active_q + rank;
                        if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                        bit<32> pos = (bit<32>)meta.alt_up_2 * NUM_QUEUES + q;
                        bit<1> full;
                        full = (bit<1>)(meta.qstate >> (bit<8>)pos);

                        bit<1> down;
                        down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_2);

                        /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                        bit<32> dpos = (bit<32>)meta.alt_sl_2 * NUM_UPLINKS + (bit<32>)meta.alt_up_2;
                        bit<1> dead;
                        dead = (bit<1>)(meta.dead >> (bit<8>)dpos);

                        if (down == 1 || dead == 1) {
                            meta.saw_down = 1;           // a failed uplink counts as Full
                            meta.tried_full = 1;
                        } else if (full == 0) {
                            meta.have_dep = 1;
                            meta.dep_uplink = meta.alt_up_2;
                            meta.dep_slice = meta.alt_sl_2;
                            meta.dep_rank = rank;
                            meta.dep_queue = q;
                        } else {
                            meta.tried_full = 1;
                        }
                    }

                    if (meta.have_dep == 1 && meta.dep_alt == 255) { meta.dep_alt = 2; }
                }

            }
        }
        if (meta.saw_down == 1) {
            events.count(EVENT_UPLINK_DOWN);     // a failed uplink was passed over
        }
        if (meta.have_dep == 0) {
            drops.count(DROP_ALL_FULL);          // every alternative's queue is Full (or down)
            mark_to_drop(sm);
            exit;
        }
        /* Admission to calendar queue (dep_uplink, dep_queue) (URO §IV-C): the queue
         * drains at byte position `at` of its slice; the packet fits if it ends by the
         * slice capacity. The active queue's position is at least the byte clock (bytes
         * the uplink could have sent since the slice started), so its capacity is the
         * time left in the slice; a future queue starts its slice at 0. A queue with no
         * room for a minimum frame left is marked Full; a packet that does not fit marks
         * its queue Full and is decided again (next alternative, or re-sourced). A
         * departure in the current slice leaves now; a later one is held until its slice. */
        {
            bit<32> idx = (bit<32>)meta.dep_uplink * NUM_QUEUES + meta.dep_queue;
            bit<32> dep_epoch = meta.epoch + meta.dep_rank;
            bit<32> tag;
            bit<32> at;
            qtag_reg.read(tag, idx);
            qbytes_reg.read(at, idx);
            if (tag != dep_epoch) { at = 0; }     // the queue drained since: a fresh slice
            if (meta.dep_rank == 0 && meta.bytes_per_us != 0) {
                bit<48> el = 0;
                if (meta.now > meta.slice_start) { el = meta.now - meta.slice_start; }
                bit<64> clock = (bit<64>)meta.capacity;
                if (el < 48w0xFFFFFFFF) {
                    bit<64> sent = (bit<64>)el[31:0] * (bit<64>)meta.bytes_per_us;
                    if (sent < clock) { clock = sent; }
                }
                if ((bit<64>)at < clock) { at = (bit<32>)clock; }
            }
            qstate_t full = 0;
                full = (qstate_t)1 << (bit<8>)idx;

            if ((bit<64>)at + (bit<64>)meta.out_len <= (bit<64>)meta.capacity) {
                at = at + meta.out_len;
                qbytes_reg.write(idx, at);
                qtag_reg.write(idx, dep_epoch);
                if (meta.capacity - at < MIN_FRAME_BYTES) {
                    qstate_reg.write(0, meta.qstate | full);
                }
                sm.egress_spec = (bit<9>)(UPLINK_PORT_BASE + (bit<32>)meta.dep_uplink);
                meta.hold_uplink = meta.dep_uplink;
                meta.hold_wait = meta.dep_rank;
                meta.admit_epoch = meta.epoch;
                meta.held = (meta.dep_rank == 0) ? 1w0 : 1w1;
                meta.pick_hold = meta.held;            // (bmv2: held in a hold queue, picked by load)
                if (meta.dep_rank == 0 && meta.now < meta.slice_start + SLICE_GUARD_US) {
                    meta.held = 1;                     // the slice's start guard: held until it ends
                }
                if (hdr.ssrr.isValid()) {
                    hdr.ssrr.ptr = hdr.ssrr.ptr + 4;   // hop taken: the pointer moves to the next
                }
                if (meta.tried_full == 1) {
                    events.count(EVENT_REROUTE_SPILL); // admitted on a later alternative
                }
            } else {
                qstate_reg.write(0, meta.qstate | full);
                if (transit == 1) {
                    events.count(EVENT_SSRR_RESOURCED);
                }
                /* it does not fit: decide again from this ToR on the next pass (recirculation; the
                 * egress sends it around). */
                meta.redecide = 1;
                sm.egress_spec = (bit<9>)UPLINK_PORT_BASE;
                exit;

            }
        }

        if (meta.held == 1 && meta.pick_hold == 1) {
            /* held for a later slice: its first wait is already in a hold queue (a burst
             * held at once would otherwise crowd the top queue, which bmv2 caps at 64
             * packets and overflows unseen); egress picks the queue of each next wait */
            bit<32> hbase = (bit<32>)meta.hold_uplink * HOLD_QUEUES;
            book_hold_queue(hbase);
            sm.priority = meta.hold_q;
            meta.in_hold = 1;
        }
        /* paths taken: a packet from a host whose source route was written here, by its
         * UCMP bucket and the path's hop count (bucket * H + hops - 1) */
        if (meta.use_ssrr == 1 && meta.from_host == 1 && meta.path_len != 0 && (bit<32>)meta.bucket < SSRR_PATH_BUCKETS) {
            ssrr_paths.count((bit<32>)meta.bucket * 4 + (bit<32>)meta.path_len - 1);
            meta.from_host = 0;                  // once per packet, even if re-sourced here later
        }

    }
}

control UroEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t sm) {
    /* data frames leaving on an uplink, by the departing pass's kind (fresh: its first
     * pass; held: released after waiting for a later slice; recirc: recirculated in its
     * own slice: held through the guard, or decided again) and the wait: `departures`
     * from the pass that sent them out (its ingress time; a recirculated pass: its
     * previous egress) to the departure, `departure_queue` the part in the egress queue
     * (deq_timedelta): fresh_lt_0_5ms, fresh_lt_2ms, fresh_lt_guard, fresh_ge_guard, held_lt_0_5ms, held_lt_2ms, held_lt_guard, held_ge_guard, recirc_lt_0_5ms, recirc_lt_2ms, recirc_lt_guard, recirc_ge_guard */
    counter(12, CounterType.packets) departures;
    counter(12, CounterType.packets) departure_queue;
    /* the same frames by the phase of the pass that sent them out, in guards (g0: the
     * guard at the slice's start, ..., g9: the rest), and whether the whole wait was
     * under the guard: g0_lt_guard, g0_ge_guard, g1_lt_guard, g1_ge_guard, g2_lt_guard, g2_ge_guard, g3_lt_guard, g3_ge_guard, g4_lt_guard, g4_ge_guard, g5_lt_guard, g5_ge_guard, g6_lt_guard, g6_ge_guard, g7_lt_guard, g7_ge_guard, g8_lt_guard, g8_ge_guard, g9_lt_guard, g9_ge_guard */
    counter(20, CounterType.packets) departure_phase;
    /* The lowest hold queue of the packet's uplink holding fewer than HOLD_CROWD packets
     * (else the least full), by hold_depth; booked there (+1) as meta.hold_q. One action
     * (conditions as ?:), so bmv2 applies one table for it on every held pass. */
    action book_hold_queue(in bit<32> hbase) {
        bit<19> hd0;
        hold_depth.read(hd0, hbase + 0);
        bit<19> hd1;
        hold_depth.read(hd1, hbase + 1);
        bit<19> hd2;
        hold_depth.read(hd2, hbase + 2);
        bit<19> hd3;
        hold_depth.read(hd3, hbase + 3);
        bit<19> hd4;
        hold_depth.read(hd4, hbase + 4);
        bit<19> hd5;
        hold_depth.read(hd5, hbase + 5);
        bit<19> hd6;
        hold_depth.read(hd6, hbase + 6);
        bit<3> hq = 0;
        bit<19> hbest = hd0;
        bool hfound = hd0 < HOLD_CROWD;
        bool take1 = !hfound && (hd1 < HOLD_CROWD || hd1 < hbest);
        hfound = hfound || hd1 < HOLD_CROWD;
        hq = take1 ? 3w1 : hq;
        hbest = take1 ? hd1 : hbest;
        bool take2 = !hfound && (hd2 < HOLD_CROWD || hd2 < hbest);
        hfound = hfound || hd2 < HOLD_CROWD;
        hq = take2 ? 3w2 : hq;
        hbest = take2 ? hd2 : hbest;
        bool take3 = !hfound && (hd3 < HOLD_CROWD || hd3 < hbest);
        hfound = hfound || hd3 < HOLD_CROWD;
        hq = take3 ? 3w3 : hq;
        hbest = take3 ? hd3 : hbest;
        bool take4 = !hfound && (hd4 < HOLD_CROWD || hd4 < hbest);
        hfound = hfound || hd4 < HOLD_CROWD;
        hq = take4 ? 3w4 : hq;
        hbest = take4 ? hd4 : hbest;
        bool take5 = !hfound && (hd5 < HOLD_CROWD || hd5 < hbest);
        hfound = hfound || hd5 < HOLD_CROWD;
        hq = take5 ? 3w5 : hq;
        hbest = take5 ? hd5 : hbest;
        bool take6 = !hfound && (hd6 < HOLD_CROWD || hd6 < hbest);
        hfound = hfound || hd6 < HOLD_CROWD;
        hq = take6 ? 3w6 : hq;
        hbest = take6 ? hd6 : hbest;
        meta.hold_q = hq;
        hold_depth.write(hbase + (bit<32>)hq, hbest + 1);
        meta.hold_booked = 1;
    }
    apply {
        /* a sync message built in ingress: t1 (REQ, kept per uplink for its RESP) or t3 on
         * the way out, so this switch's own queueing is not path delay */
        if (meta.sync_out != 0) {
            bit<64> raw = (bit<64>)sm.egress_global_timestamp * 1000;
            bit<64> le = raw + meta.clk_fault;
            bit<32> ok = meta.clk_k;
            bit<32> oph = 0;
            bit<32> osl = (bit<32>)meta.cur_slice;
            if (meta.clk_mode != CLOCK_SYNC) {
                ok = meta.epoch;          // timer mode: the epoch, ns since the last timer
                oph = (((bit<64>)(sm.egress_global_timestamp - meta.slice_start) * 1000 > 0xFFFFFFFF) ? 32w0xFFFFFFFF : (bit<32>)((bit<64>)(sm.egress_global_timestamp - meta.slice_start) * 1000));
            } else if (le < meta.clk_next) {
                bit<64> left = meta.clk_next - le;
                oph = (left <= (bit<64>)meta.clk_len) ? meta.clk_len - (bit<32>)left : 0;
            } else {
                ok = meta.clk_k + 1;
                oph = (bit<32>)(le - meta.clk_next);
                osl = osl + 1;
                if (osl >= NUM_SLICES) { osl = 0; }
            }
            hdr.sync.slice = (bit<16>)osl;
            if (meta.sync_out == 1) {
                hdr.sync.t1_k = ok;
                hdr.sync.t1_phase = oph;
                clock_req_t1.write((bit<32>)hdr.sync.uplink, (hdr.sync.t1_k ++ hdr.sync.t1_phase));

            } else {
                hdr.sync.t3_k = ok;
                hdr.sync.t3_phase = oph;
                if (hdr.sync.op == SYNC_OP_PROBE_REPLY) {
                    hdr.sync.aux = raw;          // the raw local clock (before the emulated fault)
                }
            }
            exit;
        }
        /* bmv2 cannot pause a queue: a packet held for a later slice goes around again;
         * so does one to be decided again. */
        if (meta.held == 1 && meta.pick_hold == 1) {
            /* the hold queue of its next wait: the lowest not crowded (else the least full),
             * by what egress last saw of each; the queue it came from is seen now */
            bit<32> hbase = (bit<32>)meta.hold_uplink * HOLD_QUEUES;
            if (meta.in_hold == 1) {
                hold_depth.write(hbase + (bit<32>)meta.hold_q, (bit<19>)sm.deq_qdepth);
            }
            book_hold_queue(hbase);
        }
        bool data_out = meta.held == 0 && meta.redecide == 0 && hdr.ipv4.isValid()
            && sm.egress_port >= (bit<9>)UPLINK_PORT_BASE
            && sm.egress_port < (bit<9>)(UPLINK_PORT_BASE + NUM_UPLINKS);
        /* sync mode: a data frame whose slice ended before it could leave (stamped when
         * bmv2 took it in, it waited for the one ingress thread, or in its egress queue)
         * would cross the OCS on the next slice's circuit, to another ToR: it is
         * decided again from now instead (HOHO §4: the departure slice is the one the frame
         * leaves in, not the one it arrived in). Its local time now, as stamp_out takes it:
         * the egress timestamp through the same fault model offset. */
        if (data_out && meta.clk_mode == CLOCK_SYNC
            && (bit<64>)sm.egress_global_timestamp * 1000 + meta.clk_fault >= meta.clk_next) {
            meta.redecide = 1;
            meta.late = 1;
            data_out = false;
        }
        if (data_out) {
            bit<32> kind = 0;                    // cell kind * 4 + wait; fresh
            if (meta.recirculated == 1) {
                kind = (meta.hold_wait != 0) ? 32w4 : 32w8;   // held : recirc
            }
            bit<48> waited = (sm.egress_global_timestamp > meta.now) ? sm.egress_global_timestamp - meta.now : 0;
            bit<32> bucket = 3;
            if (waited < 500) { bucket = 0; }
            else if (waited < 2000) { bucket = 1; }
            else if (waited < SLICE_GUARD_US) { bucket = 2; }
            departures.count(kind + bucket);
            bit<48> queued = (bit<48>)sm.deq_timedelta;
            bit<32> qbucket = 3;
            if (queued < 500) { qbucket = 0; }
            else if (queued < 2000) { qbucket = 1; }
            else if (queued < SLICE_GUARD_US) { qbucket = 2; }
            departure_queue.count(kind + qbucket);
            bit<48> sent_at = (meta.now > meta.slice_start) ? meta.now - meta.slice_start : 0;
            bit<32> pcell = 18;
            if (sent_at < 1 * SLICE_GUARD_US) { pcell = 0; }
            else if (sent_at < 2 * SLICE_GUARD_US) { pcell = 2; }
            else if (sent_at < 3 * SLICE_GUARD_US) { pcell = 4; }
            else if (sent_at < 4 * SLICE_GUARD_US) { pcell = 6; }
            else if (sent_at < 5 * SLICE_GUARD_US) { pcell = 8; }
            else if (sent_at < 6 * SLICE_GUARD_US) { pcell = 10; }
            else if (sent_at < 7 * SLICE_GUARD_US) { pcell = 12; }
            else if (sent_at < 8 * SLICE_GUARD_US) { pcell = 14; }
            else if (sent_at < 9 * SLICE_GUARD_US) { pcell = 16; }
            departure_phase.count(pcell + ((bucket == 3) ? 32w1 : 32w0));
        }
        if (meta.held == 1 || meta.redecide == 1) {
            meta.recirculated = 1;
            meta.recirc_ts = sm.egress_global_timestamp;
            recirculate_preserving_field_list(1);
        }
    }
}

control UroComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        /* IPv4 header checksum over the header and the SSRR option (invalid hops are skipped). */
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr,
              hdr.ssrr.nop, hdr.ssrr.type, hdr.ssrr.len, hdr.ssrr.ptr,
              hdr.hops[0].next_tor, hdr.hops[0].uplink, hdr.hops[0].send_slice,
              hdr.hops[1].next_tor, hdr.hops[1].uplink, hdr.hops[1].send_slice,
              hdr.hops[2].next_tor, hdr.hops[2].uplink, hdr.hops[2].send_slice,
              hdr.hops[3].next_tor, hdr.hops[3].uplink, hdr.hops[3].send_slice },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

V1Switch(UroParser(), UroVerifyChecksum(), UroIngress(), UroEgress(),
         UroComputeChecksum(), UroDeparser()) main;
