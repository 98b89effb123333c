/*
 * uro ToR program for Tofino2 (t2na) -- GENERATED, do not edit.
 * Rendered from templates/tor_t2na.p4.j2 for profile "r1024x32" by controller.p4gen.
 *
 * One ToR of a time-sliced optical DCN on one Tofino2 pipe (URO §IV, UCMP §6):
 *   slice clock  the packet generator's periodic timer: every slice, batch 0 pauses the
 *                old active calendar queue of each uplink (packet 0 also ticks the clock)
 *                and batch 1, a guard band later, resumes the new one (AFC words)
 *   queues       calendar queues are TM queues: qid = (active + rank) mod Q
 *   lookup       URO: (arrival slice, dst ToR) -> K (uplink, wait); the first alternative
 *                whose queue is Unfull (one copy of the queue state per alternative, one
 *                register access each) and whose uplink is up wins (one-shot, §IV-C)
 *                UCMP: SSRR source routes; a Full or missed hop is re-sourced here (§6.3)
 *   admission    a packet is queued only if it fits its queue's slice; a queue left
 *                without room for a full frame is marked Full by a mirror copy that loops
 *                back through the recirculation port; a refused packet is resubmitted
 *                once to try the next alternative
 *   failures     the packet generator's port-down app marks a dead uplink down before
 *                the control plane knows (FRANCIS §4.3)
 * Every drop reason and every event is counted (counters `drops`, `events`).
 */
#include <core.p4>
#include <t2na.p4>

/* ---- constants and types (profile r1024x32) -------------------------------------
 * N = 1024 ToRs, d = 32 uplinks, 16 host ports,
 * S = 32 slices, K = 10 alternatives, H = 3 SSRR hops,
 * Q = 32 calendar queues per uplink.
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
typedef bit<1024>  qstate_t;   // Full(1)/Unfull(0) bit per (uplink, calendar queue)
typedef bit<32>  down_t;     // down(1) bit per uplink (config)
typedef bit<1024>  dead_t;     // dead(1) bit per (slice, uplink): bit s*d + u (config)

const bit<32> NUM_SLICES  = 32;
const bit<32> NUM_QUEUES  = 32;   // calendar queues per uplink
const bit<32> NUM_UPLINKS = 32;
const bit<32> NUM_TORS    = 1024;
const bit<32> UPLINK_PORT_BASE = 16;   // uplink u leaves on port UPLINK_PORT_BASE + u
const bit<8>  MAX_REROUTES = 5;   // re-decisions of one packet on this ToR (UCMP §6.3)
const bit<32> MIN_FRAME_BYTES = 64;    // a calendar queue with less room left is Full

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
const bit<32> EVENT_QSTATE_FULL = 10;
const bit<32> EVENT_RESUBMIT_SPILL = 11;

/* ---- t2na constants ---------------------------------------------------------------------
 * Queue state: 11 copies (one per URO alternative, one for the SSRR hop) of a Full flag per
 * (uplink u, queue q) at u * 256 + q.
 * Timer (pktgen app 1): period 2000 ns, 2 batches x 32 packets,
 * inter-batch gap 3 ns; every uplink is dark 233.4 ns per slice (guard band),
 * leaving 88330 wire bytes per calendar queue per slice.
 */
/* Arithmetic never mixes widths (a Tofino ALU operates on same-size containers): slices,
 * queues, waits, ranks and epochs are 8-bit (S, Q <= 128); lengths and capacities are
 * 16-bit counts of 4-byte units (rounded conservatively); masks are 32-bit. */
const bit<16> ETHERTYPE_TIMER = 0x88B5;   // bmv2's timer frame: never trusted here (dropped, bad_timer)
typedef bit<8>  queue_t;            // calendar queue id 0..Q-1 (Q <= 128)
typedef bit<16> step_t;             // slot arithmetic: active queue + wait (< Q + S), ranks, epochs
typedef bit<16> qidx_t;             // (uplink, queue) = uplink * 256 + queue
typedef bit<16> units_t;            // wire bytes / 4, rounded up for packets, down for capacity

const bit<8>  NUM_QUEUES8  = 32;
const bit<8>  NUM_SLICES8  = 32;
const bit<4>  TIMER_APP     = 1;
const bit<4>  PORT_DOWN_APP = 2;
const bit<16> FRAME_OVERHEAD = 41;         // IPv4 total length + Ethernet, FCS, preamble, IFG (+ unit - 1: round up)
const units_t MTU_UNITS     = 385;       // a full 1518-byte frame on the wire
const units_t CAP_UNITS     = 22082;    // a calendar queue's slice: the timer plan's usable time x link rate
const units_t FILL_MARK     = 21697;    // booked past this: no room for another full frame (Full)
const bit<16> GROWTH_BYTES  = 16;        // most a source route adds (NOP + option + H hops)

/* first byte of what egress sees: a bridged data packet or a queue-state update (mirror copy) */
const bit<8> PKT_NORMAL = 0xA1;
const bit<8> PKT_QUPD   = 0xA2;
const bit<8> PKT_SOURCED = 0xA3;   // a data packet whose source route egress writes (bridge_src follows)
const bit<3> RESUBMIT_SPILL = 1;

/* what a packet does to the queue-state copies (meta.q_op; one access per copy) */
const bit<8> Q_NONE  = 0;
const bit<8> Q_TEST  = 1;           // a front-panel packet: test its slots' queues
const bit<8> Q_SET   = 2;           // mark the queue Full (port-down app, queue-state update)
const bit<8> Q_CLEAR = 3;           // mark it Unfull (a pause drained it)

const bit<8> ROLE_OTHER  = 0;
const bit<8> ROLE_HOST   = 1;
const bit<8> ROLE_UPLINK = 2;

/* drop reasons, 1-based (0 = not dropped): the drops counter's cell is the reason itself */
const bit<8> DR_NO_ROUTE = 1;
const bit<8> DR_ALL_FULL = 2;
const bit<8> DR_HELD_TOO_LONG = 3;
const bit<8> DR_BAD_SSRR = 4;
const bit<8> DR_TTL = 5;
const bit<8> DR_MALFORMED = 6;
const bit<8> DR_NOT_IPV4 = 7;
const bit<8> DR_BAD_TIMER = 8;
const bit<8> DR_UNCONFIGURED = 9;
const bit<8> DR_BAD_CHECKSUM = 10;
const bit<8> DR_REROUTE_LIMIT = 11;
const bit<8> DR_STALE_GEN = 12;
/* events are counted as one cell per packet: the cell index is the set of events (bitmap) */
const bit<12> EV_REROUTE_MISSED = 1;
const bit<12> EV_REROUTE_SPILL = 2;
const bit<12> EV_TIMER = 4;
const bit<12> EV_SSRR_WRITTEN = 8;
const bit<12> EV_SSRR_TRANSIT = 16;
const bit<12> EV_TIMER_SYNC = 32;
const bit<12> EV_TIMER_REJECTED = 64;
const bit<12> EV_SSRR_RESOURCED = 128;
const bit<12> EV_SSRR_MISSED = 256;
const bit<12> EV_UPLINK_DOWN = 512;
const bit<12> EV_QSTATE_FULL = 1024;
const bit<12> EV_RESUBMIT_SPILL = 2048;

/* ---- headers ------------------------------------------------------------------------- */
header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

/* A slice-timer frame (EtherType 0x88B5) is the bmv2 clock; on Tofino2 the clock is the
 * packet generator, so such a frame is never trusted: it is dropped and counted. */
header timer_t {
    bit<16> slice;
    bit<16> reserved;
}

/* version and IHL as one byte: Tofino allocates PHV containers in bytes, and IHL is
 * rewritten when a source route is written */
header ipv4_t {
    bit<8>  version_ihl;
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

/* NOP + option 137 (SSRR): type, length = 3 + 4 x hops, pointer (4 = hop 0) */
header ssrr_t {
    bit<8> nop;
    bit<8> type;
    bit<8> len;
    bit<8> ptr;
}

/* One source-route hop: leave on `uplink` in slice `send_slice`, reaching `next_tor`. */
header ssrr_hop_t {
    tor_t    next_tor;
    uplink_t uplink;
    slice_t  send_slice;
}

header l4_ports_t {
    bit<16> srcPort;
    bit<16> dstPort;
}

/* Bridged to egress with every forwarded packet (stripped there). */
header bridge_t {
    bit<8> type;                    // PKT_NORMAL, or PKT_SOURCED: bridge_src follows
}

/* A packet source-routed here: the key of its path in egress's ssrr_hops (the hops are
 * written in egress, off ingress's critical path) and the last hop's ToR. Every field is
 * whole bytes (but gen: one bit and zeros): packed sub-byte fields share a container, which
 * ssrr_first's action would then write from five PHV sources (bf-p4c: at most two). */
header bridge_src_t {
    bit<1>  gen;                    // at bit 7 of its byte, as the stamp in ipv4.flags (bf-p4c
    bit<7>  spare;                  // copies meta.gen <- flags[2:2] without a shift: same alignment)
    bit<16> group;
    bit<8>  level;
    bit<8>  member;
    tor_t   dst_tor;
}

/* Queue-state update ("estimator packet"): a mirror copy of a packet whose admission left
 * its calendar queue without room for another full frame. It loops through the
 * recirculation port and sets the queue's Full bit in every copy of the queue state,
 * unless the queue has drained since (more than `rank` slices passed). */
header qupd_t {
    bit<8>  type;                   // PKT_QUPD
    bit<8>  pad;
    qidx_t  qidx;                   // the queue: uplink * 256 + queue
    step_t  epoch;                  // slice epoch (mod 65536) when the packet was admitted
    step_t  rank;                   // slices it waits: the queue drains after epoch + rank
}

/* Resubmit data (16 bytes on Tofino2): a refused packet comes back once and skips the
 * alternatives before `skip` (for SSRR: skip >= 1 means its hop was refused). */
header resub_t {
    bit<8>   type;
    bit<8>   skip;
    bit<112> pad;
}

struct headers_t {
    resub_t    resub;
    pktgen_timer_header_t     pg_timer;
    pktgen_port_down_header_t pg_port_down;
    qupd_t     qupd;
    bridge_t   bridge;
    bridge_src_t bridge_src;
    ethernet_t ethernet;
    timer_t    timer;
    ipv4_t     ipv4;
    ssrr_t     ssrr;
    ssrr_hop_t[3] hops;
    l4_ports_t l4;
}

/* ---- metadata (the parser zeroes the fields some path reads before writing) ------------- */
struct metadata_t {
    /* parser */
    bit<1>   bad_ihl;       // IHL < 5
    bit<1>   bad_options;   // options other than NOP + SSRR of 1..H hops matching IHL
    bool     csum_err;      // IPv4 header checksum (options included) wrong: Checksum.verify()'s result
    bit<8>   n_hops;        // SSRR hops in the packet
    /* who sent it, what this ToR is */
    bit<8>   role;
    bit<1>   configured;
    tor_t    my_tor;
    bit<1>   gen;           // the packet's route generation: config (from a host) or its stamp (uplink)
    bit<2>   live;          // generations complete here (config)
    down_t   down_cfg;      // uplinks the control plane marked down (config)
    down_t   down_upbit;    // timer: the uplink's bit in down_cfg
    down_t   down_hit;
    bit<32>  down;          // timer: link_down_reg & the uplink's bit
    bit<32>  down_bit;
    /* slice clock */
    slice_t  cur_slice;
    step_t   active_q;
    step_t   active_q_1;   // the same value, for slots 4..
    step_t   active_q_2;   // the same value, for slots 8..
    step_t   epoch;         // slices since the start, mod 65536
    bit<32>  slice_start;
    bit<32>  elapsed;       // ns since the tick, then in slice_time quanta
    units_t  e_floor;       // units of the active slice already gone (time)
    bit<1>   fits_active;   // the packet still fits in the active queue's slice
    bit<1>   fits_active_g; // ... with the most a source route adds
    /* per packet */
    units_t  len;           // the packet on the wire
    units_t  len_g;         // ... with the most a source route adds
    units_t  need;
    units_t  need_g;
    bit<16>  hdr_bytes;     // IHL x 4
    bit<16>  body;          // total length - header bytes
    bit<1>   unmapped;
    bit<8>   drop_reason;   // 0 or DR_*: the drops counter's cell
    bit<12> ev;
    bit<9>   out_port;      // host port for local delivery
    bit<1>   routed;
    bit<1>   is_local;
    tor_t    dst_tor;
    bit<1>   use_ssrr;
    bucket_t bucket;
    bit<8>   ssrr_hash;     // the flow's 5-tuple hash (UCMP §6.2: a flow keeps its path)
    bit<3>   ssrr_k2;       // ssrr_hash mod 2
    bit<3>   ssrr_k3;       // ssrr_hash mod 3
    bit<3>   ssrr_k4;       // ssrr_hash mod 4
    bit<3>   ssrr_k5;       // ssrr_hash mod 5
    bit<3>   ssrr_k6;       // ssrr_hash mod 6
    bit<3>   ssrr_k7;       // ssrr_hash mod 7
    bit<3>   ssrr_k8;       // ssrr_hash mod 8
    bit<15>  ssrr_group;    // ssrr_path: the (dst, start slice) group (0: none)
    bit<11>  ssrr_shape;    // ... and its shape (0: none)
    bit<2>   ssrr_level;    // ssrr_level: the bucket's range in the group
    bit<3>   ssrr_member;   // ... and the flow's tied path in it
    bit<16>  path_bytes;    // IPv4 header + NOP + option + the path's hops
    bit<1>   has_path;      // ssrr_first found the flow's path (hop 0 is in the SSRR slot)
    bit<1>   fits_ssrr;     // the SSRR slot's packet fits the active slice (transit: as is; source: with the path)
    bit<16>  l4_src;
    bit<16>  l4_dst;
    bit<8>   skip;
    bit<1>   resubmitted;
    /* URO one-shot alternatives of the matched entry / SSRR slots */
    bit<8>   n_alts;
    bit<8>   q_op;          // Q_*: what this packet does to the queue-state copies
    uplink_t alt_up_0;
    step_t   alt_wait_0;
    queue_t  alt_q_0;
    qidx_t   alt_i_0;
    bit<8>   alt_pre_0;     // 1: eligible (in play and, if active, the packet fits)
    bit<8>   alt_unfull_0;  // 1: its queue is Unfull (the register's answer)
    bit<1>   alt_c_0;       // in play: skip <= k < n (URO), an SSRR packet (the SSRR slot)
    bit<8>   alt_ok_0;      // eligible & Unfull: usable (the key of choose)
    bit<1>   alt_act_0;     // wait 0: the active queue
    bit<1>   alt_dn_0;      // its uplink is masked down in the config
    uplink_t alt_up_1;
    step_t   alt_wait_1;
    queue_t  alt_q_1;
    qidx_t   alt_i_1;
    bit<8>   alt_pre_1;     // 1: eligible (in play and, if active, the packet fits)
    bit<8>   alt_unfull_1;  // 1: its queue is Unfull (the register's answer)
    bit<1>   alt_c_1;       // in play: skip <= k < n (URO), an SSRR packet (the SSRR slot)
    bit<8>   alt_ok_1;      // eligible & Unfull: usable (the key of choose)
    bit<1>   alt_act_1;     // wait 0: the active queue
    bit<1>   alt_dn_1;      // its uplink is masked down in the config
    uplink_t alt_up_2;
    step_t   alt_wait_2;
    queue_t  alt_q_2;
    qidx_t   alt_i_2;
    bit<8>   alt_pre_2;     // 1: eligible (in play and, if active, the packet fits)
    bit<8>   alt_unfull_2;  // 1: its queue is Unfull (the register's answer)
    bit<1>   alt_c_2;       // in play: skip <= k < n (URO), an SSRR packet (the SSRR slot)
    bit<8>   alt_ok_2;      // eligible & Unfull: usable (the key of choose)
    bit<1>   alt_act_2;     // wait 0: the active queue
    bit<1>   alt_dn_2;      // its uplink is masked down in the config
    uplink_t alt_up_3;
    step_t   alt_wait_3;
    queue_t  alt_q_3;
    qidx_t   alt_i_3;
    bit<8>   alt_pre_3;     // 1: eligible (in play and, if active, the packet fits)
    bit<8>   alt_unfull_3;  // 1: its queue is Unfull (the register's answer)
    bit<1>   alt_c_3;       // in play: skip <= k < n (URO), an SSRR packet (the SSRR slot)
    bit<8>   alt_ok_3;      // eligible & Unfull: usable (the key of choose)
    bit<1>   alt_act_3;     // wait 0: the active queue
    bit<1>   alt_dn_3;      // its uplink is masked down in the config
    uplink_t alt_up_4;
    step_t   alt_wait_4;
    queue_t  alt_q_4;
    qidx_t   alt_i_4;
    bit<8>   alt_pre_4;     // 1: eligible (in play and, if active, the packet fits)
    bit<8>   alt_unfull_4;  // 1: its queue is Unfull (the register's answer)
    bit<1>   alt_c_4;       // in play: skip <= k < n (URO), an SSRR packet (the SSRR slot)
    bit<8>   alt_ok_4;      // eligible & Unfull: usable (the key of choose)
    bit<1>   alt_act_4;     // wait 0: the active queue
    bit<1>   alt_dn_4;      // its uplink is masked down in the config
    uplink_t alt_up_5;
    step_t   alt_wait_5;
    queue_t  alt_q_5;
    qidx_t   alt_i_5;
    bit<8>   alt_pre_5;     // 1: eligible (in play and, if active, the packet fits)
    bit<8>   alt_unfull_5;  // 1: its queue is Unfull (the register's answer)
    bit<1>   alt_c_5;       // in play: skip <= k < n (URO), an SSRR packet (the SSRR slot)
    bit<8>   alt_ok_5;      // eligible & Unfull: usable (the key of choose)
    bit<1>   alt_act_5;     // wait 0: the active queue
    bit<1>   alt_dn_5;      // its uplink is masked down in the config
    uplink_t alt_up_6;
    step_t   alt_wait_6;
    queue_t  alt_q_6;
    qidx_t   alt_i_6;
    bit<8>   alt_pre_6;     // 1: eligible (in play and, if active, the packet fits)
    bit<8>   alt_unfull_6;  // 1: its queue is Unfull (the register's answer)
    bit<1>   alt_c_6;       // in play: skip <= k < n (URO), an SSRR packet (the SSRR slot)
    bit<8>   alt_ok_6;      // eligible & Unfull: usable (the key of choose)
    bit<1>   alt_act_6;     // wait 0: the active queue
    bit<1>   alt_dn_6;      // its uplink is masked down in the config
    uplink_t alt_up_7;
    step_t   alt_wait_7;
    queue_t  alt_q_7;
    qidx_t   alt_i_7;
    bit<8>   alt_pre_7;     // 1: eligible (in play and, if active, the packet fits)
    bit<8>   alt_unfull_7;  // 1: its queue is Unfull (the register's answer)
    bit<1>   alt_c_7;       // in play: skip <= k < n (URO), an SSRR packet (the SSRR slot)
    bit<8>   alt_ok_7;      // eligible & Unfull: usable (the key of choose)
    bit<1>   alt_act_7;     // wait 0: the active queue
    bit<1>   alt_dn_7;      // its uplink is masked down in the config
    uplink_t alt_up_8;
    step_t   alt_wait_8;
    queue_t  alt_q_8;
    qidx_t   alt_i_8;
    bit<8>   alt_pre_8;     // 1: eligible (in play and, if active, the packet fits)
    bit<8>   alt_unfull_8;  // 1: its queue is Unfull (the register's answer)
    bit<1>   alt_c_8;       // in play: skip <= k < n (URO), an SSRR packet (the SSRR slot)
    bit<8>   alt_ok_8;      // eligible & Unfull: usable (the key of choose)
    bit<1>   alt_act_8;     // wait 0: the active queue
    bit<1>   alt_dn_8;      // its uplink is masked down in the config
    uplink_t alt_up_9;
    step_t   alt_wait_9;
    queue_t  alt_q_9;
    qidx_t   alt_i_9;
    bit<8>   alt_pre_9;     // 1: eligible (in play and, if active, the packet fits)
    bit<8>   alt_unfull_9;  // 1: its queue is Unfull (the register's answer)
    bit<1>   alt_c_9;       // in play: skip <= k < n (URO), an SSRR packet (the SSRR slot)
    bit<8>   alt_ok_9;      // eligible & Unfull: usable (the key of choose)
    bit<1>   alt_act_9;     // wait 0: the active queue
    bit<1>   alt_dn_9;      // its uplink is masked down in the config
    uplink_t alt_up_10;
    step_t   alt_wait_10;
    queue_t  alt_q_10;
    qidx_t   alt_i_10;
    bit<8>   alt_pre_10;     // 1: eligible (in play and, if active, the packet fits)
    bit<8>   alt_unfull_10;  // 1: its queue is Unfull (the register's answer)
    bit<1>   alt_c_10;       // in play: skip <= k < n (URO), an SSRR packet (the SSRR slot)
    bit<8>   alt_ok_10;      // eligible & Unfull: usable (the key of choose)
    bit<1>   alt_act_10;     // wait 0: the active queue
    bit<1>   alt_dn_10;      // its uplink is masked down in the config
    /* SSRR hop at the pointer */
    bit<8>   hop_idx;
    tor_t    prev_next_tor;
    slice_t  prev_slice;
    uplink_t hop_uplink;
    slice_t  hop_slice;
    bit<8>   hop_el;        // (now - previous hop's slice) mod S
    bit<16>  wire_g;
    bit<1>   hop_missed;
    /* the chosen departure */
    bit<1>   have_dep;
    bit<8>   dep_alt;
    uplink_t dep_up;
    queue_t  dep_q;
    MirrorType_t dep_mirror;   // the chosen slot's mirror type (its qupd fields)
    qidx_t   dep_i;
    bit<1>   dep_act;       // the chosen queue is the active one
    units_t  admitted;
    units_t  fin;
    /* timer, queue-state updates */
    qidx_t   t_qidx;
    step_t   qupd_age;
    step_t   qupd_min;
    MirrorId_t mirror_session;
    bit<8>   pkt_type;      // first byte of a mirror copy / resubmit data
}

/* ---- ingress parser ---------------------------------------------------------------------
 * Generated packets (pktgen ports) carry the 6-byte pktgen header: the slice timer (app
 * 1) or the port-down app (2). Queue-state updates come back on the
 * recirculation port. Everything else is Ethernet -> IPv4 [-> NOP + SSRR + n hops] -> L4.
 * The SSRR option is parsed by unrolled states (no loop, no counter): length 3 + 4n
 * selects the chain of n hop states; each checks its hop's uplink and slice ranges. The IPv4 checksum covers the
 * options. Malformed input is flagged, never forwarded (ingress drops and counts it). */
parser UroIngressParser(packet_in pkt, out headers_t hdr, out metadata_t meta,
                        out ingress_intrinsic_metadata_t ig_intr_md) {
    Checksum() ipv4_csum;
    /* dev ports whose packets are generated (the pipe's pktgen port) / recirculated
     * queue-state updates: set by the control plane */
    value_set<bit<9>>(4) pktgen_ports;
    value_set<bit<9>>(4) recirc_ports;

    state start {
        pkt.extract(ig_intr_md);
        /* metadata that some path reads before any table or action writes it */
        meta.bad_ihl = 0;
        meta.bad_options = 0;
        meta.csum_err = false;
        meta.n_hops = 0;
        meta.fits_active = 0;
        meta.fits_active_g = 0;
        meta.drop_reason = 0;
        meta.ev = 0;
        meta.routed = 0;
        meta.is_local = 0;
        meta.use_ssrr = 0;
        meta.ssrr_group = 0;
        meta.ssrr_shape = 0;
        meta.ssrr_level = 0;
        meta.ssrr_member = 0;
        meta.q_op = Q_NONE;
        meta.has_path = 0;
        meta.path_bytes = 0;
        meta.l4_src = 0;
        meta.l4_dst = 0;
        meta.skip = 0;
        meta.resubmitted = 0;
        meta.hop_missed = 0;
        meta.have_dep = 0;
        meta.dep_act = 0;
        meta.pkt_type = 0;
        meta.unmapped = 0;
        meta.gen = 0;
        meta.live = 0;
        meta.alt_c_0 = 0;
        meta.alt_ok_0 = 0;
        meta.alt_pre_0 = 0;
        meta.alt_act_0 = 0;
        meta.alt_dn_0 = 0;
        meta.alt_c_1 = 0;
        meta.alt_ok_1 = 0;
        meta.alt_pre_1 = 0;
        meta.alt_act_1 = 0;
        meta.alt_dn_1 = 0;
        meta.alt_c_2 = 0;
        meta.alt_ok_2 = 0;
        meta.alt_pre_2 = 0;
        meta.alt_act_2 = 0;
        meta.alt_dn_2 = 0;
        meta.alt_c_3 = 0;
        meta.alt_ok_3 = 0;
        meta.alt_pre_3 = 0;
        meta.alt_act_3 = 0;
        meta.alt_dn_3 = 0;
        meta.alt_c_4 = 0;
        meta.alt_ok_4 = 0;
        meta.alt_pre_4 = 0;
        meta.alt_act_4 = 0;
        meta.alt_dn_4 = 0;
        meta.alt_c_5 = 0;
        meta.alt_ok_5 = 0;
        meta.alt_pre_5 = 0;
        meta.alt_act_5 = 0;
        meta.alt_dn_5 = 0;
        meta.alt_c_6 = 0;
        meta.alt_ok_6 = 0;
        meta.alt_pre_6 = 0;
        meta.alt_act_6 = 0;
        meta.alt_dn_6 = 0;
        meta.alt_c_7 = 0;
        meta.alt_ok_7 = 0;
        meta.alt_pre_7 = 0;
        meta.alt_act_7 = 0;
        meta.alt_dn_7 = 0;
        meta.alt_c_8 = 0;
        meta.alt_ok_8 = 0;
        meta.alt_pre_8 = 0;
        meta.alt_act_8 = 0;
        meta.alt_dn_8 = 0;
        meta.alt_c_9 = 0;
        meta.alt_ok_9 = 0;
        meta.alt_pre_9 = 0;
        meta.alt_act_9 = 0;
        meta.alt_dn_9 = 0;
        meta.alt_c_10 = 0;
        meta.alt_ok_10 = 0;
        meta.alt_pre_10 = 0;
        meta.alt_act_10 = 0;
        meta.alt_dn_10 = 0;
        transition select(ig_intr_md.resubmit_flag) {
            1: parse_resubmit;
            default: parse_port_metadata;
        }
    }
    state parse_resubmit {
        pkt.extract(hdr.resub);
        pkt.advance(64);                  // Tofino2 pads resubmit data to the port metadata size
        transition parse_source;
    }
    state parse_port_metadata {
        pkt.advance(PORT_METADATA_SIZE);
        transition parse_source;
    }
    state parse_source {
        transition select(ig_intr_md.ingress_port) {
            pktgen_ports: parse_pktgen;
            recirc_ports: parse_qupd;
            default: parse_ethernet;
        }
    }
    state parse_pktgen {
        pktgen_timer_header_t pg = pkt.lookahead<pktgen_timer_header_t>();
        transition select(pg.app_id) {
            TIMER_APP: parse_pg_timer;
            PORT_DOWN_APP: parse_pg_port_down;
            default: accept;              // no header valid: dropped as not IPv4
        }
    }
    state parse_pg_timer {
        pkt.extract(hdr.pg_timer);
        transition accept;
    }
    state parse_pg_port_down {
        pkt.extract(hdr.pg_port_down);
        transition accept;
    }
    state parse_qupd {
        pkt.extract(hdr.qupd);
        transition accept;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_TIMER: parse_timer;
            ETHERTYPE_IPV4:  parse_ipv4;
            default: accept;
        }
    }
    state parse_timer {
        pkt.extract(hdr.timer);
        transition accept;
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        ipv4_csum.add(hdr.ipv4);
        transition select(hdr.ipv4.version_ihl[3:0]) {
            5: parse_ipv4_done;
            0 &&& 0xC: parse_bad_ihl;     // 0..3
            4: parse_bad_ihl;
            default: parse_options;
        }
    }
    state parse_bad_ihl {
        meta.bad_ihl = 1;
        transition accept;
    }
    state parse_options {
        pkt.extract(hdr.ssrr);
        ipv4_csum.add(hdr.ssrr);
        transition select(hdr.ssrr.nop, hdr.ssrr.type, hdr.ssrr.len) {
            (IPOPT_NOP, IPOPT_SSRR, 7): parse_hop_0_of_1;
            (IPOPT_NOP, IPOPT_SSRR, 11): parse_hop_0_of_2;
            (IPOPT_NOP, IPOPT_SSRR, 15): parse_hop_0_of_3;
            default: parse_bad_options;
        }
    }
    state parse_bad_options {
        meta.bad_options = 1;
        transition accept;
    }
    /* hop 0 of 1: its uplink and send slice must be in range (the parser checks every
     * field a packet brings before anything is indexed with it) */
    state parse_hop_0_of_1 {
        pkt.extract(hdr.hops[0]);
        /* by field, not ipv4_csum.add(hdr.hops[i]): bf-p4c 9.13.4 drops a header-stack element
         * added whole from the checksum unit without a word (the .bfa's hop states had no
         * checksum entry), so every packet arriving with hops failed verify() and was dropped
         * as bad_checksum (seen on tofino-model: tofino_tests/test_e_ssrr.py) */
        ipv4_csum.add({hdr.hops[0].next_tor, hdr.hops[0].uplink, hdr.hops[0].send_slice});
        transition select(hdr.hops[0].uplink, hdr.hops[0].send_slice) {
            (0 .. 31, 0 .. 31): parse_hops_end_1;
            default: parse_bad_options;
        }
    }
    state parse_hops_end_1 {
        meta.n_hops = 1;
        transition select(hdr.ipv4.version_ihl[3:0]) {
            7: parse_ipv4_done;      // IHL = 5 + NOP/option word + 1 hops: nothing else
            default: parse_bad_options;
        }
    }
    /* hop 0 of 2: its uplink and send slice must be in range (the parser checks every
     * field a packet brings before anything is indexed with it) */
    state parse_hop_0_of_2 {
        pkt.extract(hdr.hops[0]);
        /* by field, not ipv4_csum.add(hdr.hops[i]): bf-p4c 9.13.4 drops a header-stack element
         * added whole from the checksum unit without a word (the .bfa's hop states had no
         * checksum entry), so every packet arriving with hops failed verify() and was dropped
         * as bad_checksum (seen on tofino-model: tofino_tests/test_e_ssrr.py) */
        ipv4_csum.add({hdr.hops[0].next_tor, hdr.hops[0].uplink, hdr.hops[0].send_slice});
        transition select(hdr.hops[0].uplink, hdr.hops[0].send_slice) {
            (0 .. 31, 0 .. 31): parse_hop_1_of_2;
            default: parse_bad_options;
        }
    }
    /* hop 1 of 2: its uplink and send slice must be in range (the parser checks every
     * field a packet brings before anything is indexed with it) */
    state parse_hop_1_of_2 {
        pkt.extract(hdr.hops[1]);
        /* by field, not ipv4_csum.add(hdr.hops[i]): bf-p4c 9.13.4 drops a header-stack element
         * added whole from the checksum unit without a word (the .bfa's hop states had no
         * checksum entry), so every packet arriving with hops failed verify() and was dropped
         * as bad_checksum (seen on tofino-model: tofino_tests/test_e_ssrr.py) */
        ipv4_csum.add({hdr.hops[1].next_tor, hdr.hops[1].uplink, hdr.hops[1].send_slice});
        transition select(hdr.hops[1].uplink, hdr.hops[1].send_slice) {
            (0 .. 31, 0 .. 31): parse_hops_end_2;
            default: parse_bad_options;
        }
    }
    state parse_hops_end_2 {
        meta.n_hops = 2;
        transition select(hdr.ipv4.version_ihl[3:0]) {
            8: parse_ipv4_done;      // IHL = 5 + NOP/option word + 2 hops: nothing else
            default: parse_bad_options;
        }
    }
    /* hop 0 of 3: its uplink and send slice must be in range (the parser checks every
     * field a packet brings before anything is indexed with it) */
    state parse_hop_0_of_3 {
        pkt.extract(hdr.hops[0]);
        /* by field, not ipv4_csum.add(hdr.hops[i]): bf-p4c 9.13.4 drops a header-stack element
         * added whole from the checksum unit without a word (the .bfa's hop states had no
         * checksum entry), so every packet arriving with hops failed verify() and was dropped
         * as bad_checksum (seen on tofino-model: tofino_tests/test_e_ssrr.py) */
        ipv4_csum.add({hdr.hops[0].next_tor, hdr.hops[0].uplink, hdr.hops[0].send_slice});
        transition select(hdr.hops[0].uplink, hdr.hops[0].send_slice) {
            (0 .. 31, 0 .. 31): parse_hop_1_of_3;
            default: parse_bad_options;
        }
    }
    /* hop 1 of 3: its uplink and send slice must be in range (the parser checks every
     * field a packet brings before anything is indexed with it) */
    state parse_hop_1_of_3 {
        pkt.extract(hdr.hops[1]);
        /* by field, not ipv4_csum.add(hdr.hops[i]): bf-p4c 9.13.4 drops a header-stack element
         * added whole from the checksum unit without a word (the .bfa's hop states had no
         * checksum entry), so every packet arriving with hops failed verify() and was dropped
         * as bad_checksum (seen on tofino-model: tofino_tests/test_e_ssrr.py) */
        ipv4_csum.add({hdr.hops[1].next_tor, hdr.hops[1].uplink, hdr.hops[1].send_slice});
        transition select(hdr.hops[1].uplink, hdr.hops[1].send_slice) {
            (0 .. 31, 0 .. 31): parse_hop_2_of_3;
            default: parse_bad_options;
        }
    }
    /* hop 2 of 3: its uplink and send slice must be in range (the parser checks every
     * field a packet brings before anything is indexed with it) */
    state parse_hop_2_of_3 {
        pkt.extract(hdr.hops[2]);
        /* by field, not ipv4_csum.add(hdr.hops[i]): bf-p4c 9.13.4 drops a header-stack element
         * added whole from the checksum unit without a word (the .bfa's hop states had no
         * checksum entry), so every packet arriving with hops failed verify() and was dropped
         * as bad_checksum (seen on tofino-model: tofino_tests/test_e_ssrr.py) */
        ipv4_csum.add({hdr.hops[2].next_tor, hdr.hops[2].uplink, hdr.hops[2].send_slice});
        transition select(hdr.hops[2].uplink, hdr.hops[2].send_slice) {
            (0 .. 31, 0 .. 31): parse_hops_end_3;
            default: parse_bad_options;
        }
    }
    state parse_hops_end_3 {
        meta.n_hops = 3;
        transition select(hdr.ipv4.version_ihl[3:0]) {
            9: parse_ipv4_done;      // IHL = 5 + NOP/option word + 3 hops: nothing else
            default: parse_bad_options;
        }
    }
    state parse_ipv4_done {
        /* verify() is the parser checksum unit's error bit: true when the residual is not zero
         * (a wrong checksum), false for a correct one, whatever tofino2_base.p4's comment says.
         * Checked on tofino-model (docs/tofino2.md, limits): a minimal t2na program read
         * false for a valid header and true for a corrupted one, with the model logging
         * "ChecksumEngine::do_checksum(CHECKSUM_ERR)" for the latter only. bf-p4c reads it the
         * same way: its v1model translation (arch/fromv1.0/checksum.h, createChecksumError) ORs
         * (bit<1>) verify() into parser_err bit 12, the checksum error. */
        meta.csum_err = ipv4_csum.verify();
        transition select(hdr.ipv4.protocol) {
            IPPROTO_TCP: parse_ports;
            IPPROTO_UDP: parse_ports;
            default: accept;
        }
    }
    state parse_ports {
        pkt.extract(hdr.l4);
        meta.l4_src = hdr.l4.srcPort;      // the flow hash's input, set here: no MAU stage
        meta.l4_dst = hdr.l4.dstPort;
        transition accept;
    }
}

/* ---- ingress deparser: IPv4 checksum over header + options, mirror, resubmit ---------- */
control UroIngressDeparser(packet_out pkt, inout headers_t hdr, in metadata_t meta,
                           in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Checksum() ipv4_csum;
    Mirror() mirror;
    Resubmit() resubmit;
    apply {
        /* a queue-state update: mirror type 1 + slot, so each slot's own fields are emitted */
        if (ig_dprsr_md.mirror_type == 1) {
            mirror.emit<qupd_t>(meta.mirror_session, {meta.pkt_type, 0, meta.alt_i_0, meta.epoch, meta.alt_wait_0});
        }
        else if (ig_dprsr_md.mirror_type == 2) {
            mirror.emit<qupd_t>(meta.mirror_session, {meta.pkt_type, 0, meta.alt_i_1, meta.epoch, meta.alt_wait_1});
        }
        else if (ig_dprsr_md.mirror_type == 3) {
            mirror.emit<qupd_t>(meta.mirror_session, {meta.pkt_type, 0, meta.alt_i_2, meta.epoch, meta.alt_wait_2});
        }
        else if (ig_dprsr_md.mirror_type == 4) {
            mirror.emit<qupd_t>(meta.mirror_session, {meta.pkt_type, 0, meta.alt_i_3, meta.epoch, meta.alt_wait_3});
        }
        else if (ig_dprsr_md.mirror_type == 5) {
            mirror.emit<qupd_t>(meta.mirror_session, {meta.pkt_type, 0, meta.alt_i_4, meta.epoch, meta.alt_wait_4});
        }
        else if (ig_dprsr_md.mirror_type == 6) {
            mirror.emit<qupd_t>(meta.mirror_session, {meta.pkt_type, 0, meta.alt_i_5, meta.epoch, meta.alt_wait_5});
        }
        else if (ig_dprsr_md.mirror_type == 7) {
            mirror.emit<qupd_t>(meta.mirror_session, {meta.pkt_type, 0, meta.alt_i_6, meta.epoch, meta.alt_wait_6});
        }
        else if (ig_dprsr_md.mirror_type == 8) {
            mirror.emit<qupd_t>(meta.mirror_session, {meta.pkt_type, 0, meta.alt_i_7, meta.epoch, meta.alt_wait_7});
        }
        else if (ig_dprsr_md.mirror_type == 9) {
            mirror.emit<qupd_t>(meta.mirror_session, {meta.pkt_type, 0, meta.alt_i_8, meta.epoch, meta.alt_wait_8});
        }
        else if (ig_dprsr_md.mirror_type == 10) {
            mirror.emit<qupd_t>(meta.mirror_session, {meta.pkt_type, 0, meta.alt_i_9, meta.epoch, meta.alt_wait_9});
        }
        else if (ig_dprsr_md.mirror_type == 11) {
            mirror.emit<qupd_t>(meta.mirror_session, {meta.pkt_type, 0, meta.alt_i_10, meta.epoch, meta.alt_wait_10});
        }
        if (ig_dprsr_md.resubmit_type == RESUBMIT_SPILL) {
            resubmit.emit<resub_t>({meta.pkt_type, meta.skip, 0});
        }
        hdr.ipv4.hdrChecksum = ipv4_csum.update({
            hdr.ipv4.version_ihl, hdr.ipv4.dscp, hdr.ipv4.ecn, hdr.ipv4.totalLen,
            hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
            hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr,
            hdr.ssrr.nop, hdr.ssrr.type, hdr.ssrr.len, hdr.ssrr.ptr,
            hdr.hops[0].next_tor, hdr.hops[0].uplink, hdr.hops[0].send_slice,
            hdr.hops[1].next_tor, hdr.hops[1].uplink, hdr.hops[1].send_slice,
            hdr.hops[2].next_tor, hdr.hops[2].uplink, hdr.hops[2].send_slice });
        pkt.emit(hdr.bridge);
        pkt.emit(hdr.bridge_src);
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ssrr);
        pkt.emit(hdr.hops);
        pkt.emit(hdr.l4);
    }
}

/* ---- egress: strip the bridge; write the source route of a packet sourced here (its
 * IPv4 header arrives with the path's IHL and length, without the option); a queue-state
 * update keeps its header and loops back through the recirculation port ------------------ */
parser UroEgressParser(packet_in pkt, out headers_t hdr, out metadata_t meta,
                       out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition select(pkt.lookahead<bit<8>>()) {
            PKT_QUPD: parse_qupd;
            PKT_NORMAL: parse_bridge;
            PKT_SOURCED: parse_bridge;
            default: accept;
        }
    }
    state parse_qupd {
        pkt.extract(hdr.qupd);
        transition accept;
    }
    state parse_bridge {
        pkt.extract(hdr.bridge);
        transition select(hdr.bridge.type) {
            PKT_SOURCED: parse_sourced;
            default: accept;
        }
    }
    state parse_sourced {
        pkt.extract(hdr.bridge_src);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ipv4);            // 20 bytes: ingress sent it without options
        transition accept;
    }
}

control UroEgress(inout headers_t hdr, inout metadata_t meta,
                  in egress_intrinsic_metadata_t eg_intr_md,
                  in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                  inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                  inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    /* egress: the option of n hops of a packet source-routed in ingress (key in bridge_src):
     * the ToRs of hops before the last (the last is the destination), every hop's uplink and
     * send slice. No entry (an install out of step with ssrr_first): dropped, never sent with
     * an IHL that promises an option it does not carry. */
    action write_path_1(bit<5> up0, bit<5> slice0) {
        hdr.ssrr.setValid();
        hdr.ssrr.nop = IPOPT_NOP;
        hdr.ssrr.type = IPOPT_SSRR;
        hdr.ssrr.len = 7;
        hdr.ssrr.ptr = 8;                 // hop 0 is taken here
        hdr.hops[0].setValid();
        hdr.hops[0].next_tor = hdr.bridge_src.dst_tor;
        hdr.hops[0].uplink = (uplink_t)up0;
        hdr.hops[0].send_slice = (slice_t)slice0;
    }
    action write_path_2(bit<10> tor0, bit<5> up0, bit<5> up1, bit<5> slice0, bit<5> slice1) {
        hdr.ssrr.setValid();
        hdr.ssrr.nop = IPOPT_NOP;
        hdr.ssrr.type = IPOPT_SSRR;
        hdr.ssrr.len = 11;
        hdr.ssrr.ptr = 8;                 // hop 0 is taken here
        hdr.hops[0].setValid();
        hdr.hops[0].next_tor = (tor_t)tor0;
        hdr.hops[0].uplink = (uplink_t)up0;
        hdr.hops[0].send_slice = (slice_t)slice0;
        hdr.hops[1].setValid();
        hdr.hops[1].next_tor = hdr.bridge_src.dst_tor;
        hdr.hops[1].uplink = (uplink_t)up1;
        hdr.hops[1].send_slice = (slice_t)slice1;
    }
    action write_path_3(bit<10> tor0, bit<10> tor1, bit<5> up0, bit<5> up1, bit<5> up2, bit<5> slice0, bit<5> slice1, bit<5> slice2) {
        hdr.ssrr.setValid();
        hdr.ssrr.nop = IPOPT_NOP;
        hdr.ssrr.type = IPOPT_SSRR;
        hdr.ssrr.len = 15;
        hdr.ssrr.ptr = 8;                 // hop 0 is taken here
        hdr.hops[0].setValid();
        hdr.hops[0].next_tor = (tor_t)tor0;
        hdr.hops[0].uplink = (uplink_t)up0;
        hdr.hops[0].send_slice = (slice_t)slice0;
        hdr.hops[1].setValid();
        hdr.hops[1].next_tor = (tor_t)tor1;
        hdr.hops[1].uplink = (uplink_t)up1;
        hdr.hops[1].send_slice = (slice_t)slice1;
        hdr.hops[2].setValid();
        hdr.hops[2].next_tor = hdr.bridge_src.dst_tor;
        hdr.hops[2].uplink = (uplink_t)up2;
        hdr.hops[2].send_slice = (slice_t)slice2;
    }
    action unwritten() { eg_dprsr_md.drop_ctl = 1; }
    table ssrr_hops {
        key = {
            hdr.bridge_src.gen: exact @name("generation");       // the hops belong to their route generation
            hdr.bridge_src.group[14:0]: exact @name("group");
            hdr.bridge_src.level[1:0]: exact @name("level");
            hdr.bridge_src.member[2:0]: exact @name("member");
        }
        actions = { write_path_1; write_path_2; write_path_3; @defaultonly unwritten; }
        default_action = unwritten();
        size = 392832;
    }

    apply {
        if (hdr.bridge_src.isValid()) {
            ssrr_hops.apply();   // the option, or the packet is dropped
        }
        hdr.bridge.setInvalid();
        hdr.bridge_src.setInvalid();
    }
}

control UroEgressDeparser(packet_out pkt, inout headers_t hdr, in metadata_t meta,
                          in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    Checksum() ipv4_csum;
    apply {
        if (hdr.ipv4.isValid()) {          // only a packet sourced here is parsed this far
            hdr.ipv4.hdrChecksum = ipv4_csum.update({
                hdr.ipv4.version_ihl, hdr.ipv4.dscp, hdr.ipv4.ecn, hdr.ipv4.totalLen,
                hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
                hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr,
                hdr.ssrr.nop, hdr.ssrr.type, hdr.ssrr.len, hdr.ssrr.ptr,
                hdr.hops[0].next_tor, hdr.hops[0].uplink, hdr.hops[0].send_slice,
                hdr.hops[1].next_tor, hdr.hops[1].uplink, hdr.hops[1].send_slice,
                hdr.hops[2].next_tor, hdr.hops[2].uplink, hdr.hops[2].send_slice });
        }
        pkt.emit(hdr.qupd);
        pkt.emit(hdr.bridge);
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ssrr);
        pkt.emit(hdr.hops);
    }
}

/* (bf-p4c 9.13.4 overlays fields of exclusive branches -- SSRR source and transit, the
 * timer and the data path -- and then rejects its own overlay at the larger profiles:
 * keep these apart) */
@pa_no_overlay("ingress", "meta.bucket")
@pa_no_overlay("ingress", "meta.hop_el")
@pa_no_overlay("ingress", "meta.hop_slice")
@pa_no_overlay("ingress", "meta.down")
@pa_no_overlay("ingress", "meta.down_bit")
@pa_no_overlay("ingress", "meta.down_upbit")
@pa_no_overlay("ingress", "meta.down_hit")
@pa_no_overlay("ingress", "meta.t_qidx")
/* (the slots' fields are written by different tables side by side in one stage; packed
 * into shared containers they would be written one stage after another) */
@pa_solitary("ingress", "meta.alt_q_0")
@pa_solitary("ingress", "meta.alt_i_0")
@pa_solitary("ingress", "meta.alt_pre_0")
@pa_solitary("ingress", "meta.alt_unfull_0")
@pa_solitary("ingress", "meta.alt_ok_0")
@pa_solitary("ingress", "meta.alt_q_1")
@pa_solitary("ingress", "meta.alt_i_1")
@pa_solitary("ingress", "meta.alt_pre_1")
@pa_solitary("ingress", "meta.alt_unfull_1")
@pa_solitary("ingress", "meta.alt_ok_1")
@pa_solitary("ingress", "meta.alt_q_2")
@pa_solitary("ingress", "meta.alt_i_2")
@pa_solitary("ingress", "meta.alt_pre_2")
@pa_solitary("ingress", "meta.alt_unfull_2")
@pa_solitary("ingress", "meta.alt_ok_2")
@pa_solitary("ingress", "meta.alt_q_3")
@pa_solitary("ingress", "meta.alt_i_3")
@pa_solitary("ingress", "meta.alt_pre_3")
@pa_solitary("ingress", "meta.alt_unfull_3")
@pa_solitary("ingress", "meta.alt_ok_3")
@pa_solitary("ingress", "meta.alt_q_4")
@pa_solitary("ingress", "meta.alt_i_4")
@pa_solitary("ingress", "meta.alt_pre_4")
@pa_solitary("ingress", "meta.alt_unfull_4")
@pa_solitary("ingress", "meta.alt_ok_4")
@pa_solitary("ingress", "meta.alt_q_5")
@pa_solitary("ingress", "meta.alt_i_5")
@pa_solitary("ingress", "meta.alt_pre_5")
@pa_solitary("ingress", "meta.alt_unfull_5")
@pa_solitary("ingress", "meta.alt_ok_5")
@pa_solitary("ingress", "meta.alt_q_6")
@pa_solitary("ingress", "meta.alt_i_6")
@pa_solitary("ingress", "meta.alt_pre_6")
@pa_solitary("ingress", "meta.alt_unfull_6")
@pa_solitary("ingress", "meta.alt_ok_6")
@pa_solitary("ingress", "meta.alt_q_7")
@pa_solitary("ingress", "meta.alt_i_7")
@pa_solitary("ingress", "meta.alt_pre_7")
@pa_solitary("ingress", "meta.alt_unfull_7")
@pa_solitary("ingress", "meta.alt_ok_7")
@pa_solitary("ingress", "meta.alt_q_8")
@pa_solitary("ingress", "meta.alt_i_8")
@pa_solitary("ingress", "meta.alt_pre_8")
@pa_solitary("ingress", "meta.alt_unfull_8")
@pa_solitary("ingress", "meta.alt_ok_8")
@pa_solitary("ingress", "meta.alt_q_9")
@pa_solitary("ingress", "meta.alt_i_9")
@pa_solitary("ingress", "meta.alt_pre_9")
@pa_solitary("ingress", "meta.alt_unfull_9")
@pa_solitary("ingress", "meta.alt_ok_9")
@pa_solitary("ingress", "meta.alt_q_10")
@pa_solitary("ingress", "meta.alt_i_10")
@pa_solitary("ingress", "meta.alt_pre_10")
@pa_solitary("ingress", "meta.alt_unfull_10")
@pa_solitary("ingress", "meta.alt_ok_10")
control UroIngress(inout headers_t hdr, inout metadata_t meta,
                   in ingress_intrinsic_metadata_t ig_intr_md,
                   in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                   inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                   inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    /* drop reasons: no_route, all_full, held_too_long, bad_ssrr, ttl, malformed, not_ipv4, bad_timer, unconfigured, bad_checksum, reroute_limit, stale_gen; cell = 1 + reason (cell 0 unused) */
    Counter<bit<32>, bit<8>>(13, CounterType_t.PACKETS) drops;
    /* events: reroute_missed, reroute_spill, timer, ssrr_written, ssrr_transit, timer_sync, timer_rejected, ssrr_resourced, ssrr_missed, uplink_down, qstate_full, resubmit_spill; cell = bitmap of the packet's events */
    Counter<bit<32>, bit<12>>(4096, CounterType_t.PACKETS) events;

    /* ---- who sent it: dev port -> host | uplink (written from the port map) ----------- */
    action role_host(bit<8> index) { meta.role = ROLE_HOST; }
    /* a packet from an uplink is routed by the generation its source ToR stamped into the
     * IPv4 reserved flag bit (docs/p4.md "Route generations"); a host's gets the config's */
    action role_uplink(uplink_t uplink) { meta.role = ROLE_UPLINK; meta.gen = hdr.ipv4.flags[2:2]; }
    action role_other() { meta.role = ROLE_OTHER; }
    table port_role {
        key = { ig_intr_md.ingress_port: exact @name("ingress_port"); }
        actions = { role_host; role_uplink; @defaultonly role_other; }
        default_action = role_other();
        size = 128;
    }
    /* ---- out: host port h (local delivery) or uplink u -> dev port (from the port map) --- */
    action to_port(bit<9> dev_port) { ig_tm_md.ucast_egress_port = dev_port; }
    action port_unmapped() { meta.unmapped = 1; }
    table port_map {
        key = {
            meta.is_local: exact @name("local");
            meta.out_port: exact @name("host_port");
            meta.dep_up:   exact @name("uplink");
        }
        actions = { to_port; @defaultonly port_unmapped; }
        default_action = port_unmapped();
        size = 48;
    }

    /* ---- this ToR: id, the route generation it stamps, the generations complete here
     * (`live`: stamps from uplinks are routed by them), uplinks down; no entry = not
     * configured: drop all but the clock. (The slice capacity and link rate are compiled in
     * from the timer plan; the packet generator is the clock.) */
    action set_config(tor_t my_tor, bit<1> generation, bit<2> live, down_t down) {
        meta.configured = 1;
        meta.my_tor = my_tor;
        meta.gen = generation;
        meta.live = live;
        meta.down_cfg = down;
    }
    action unconfigured() { meta.configured = 0; }
    table config {
        actions = { set_config; @defaultonly unconfigured; }
        default_action = unconfigured();
        size = 1;
    }

    /* IPv4 header bytes by IHL (a table: the 4-bit field stays out of 16-bit arithmetic) */
    action set_hdr_bytes(bit<16> bytes) { meta.hdr_bytes = bytes; }
    table ihl_bytes {
        key = { hdr.ipv4.version_ihl: exact; }
        actions = { set_hdr_bytes; }
        default_action = set_hdr_bytes(0);      // not IPv4 version 4 with IHL >= 5: caught below
        const entries = {
            0x45: set_hdr_bytes(20);
            0x46: set_hdr_bytes(24);
            0x47: set_hdr_bytes(28);
            0x48: set_hdr_bytes(32);
            0x49: set_hdr_bytes(36);
            0x4A: set_hdr_bytes(40);
            0x4B: set_hdr_bytes(44);
            0x4C: set_hdr_bytes(48);
            0x4D: set_hdr_bytes(52);
            0x4E: set_hdr_bytes(56);
            0x4F: set_hdr_bytes(60);
        }
        size = 11;
    }

    /* ---- slice clock: four registers, each accessed once per packet ---------------------
     * Timer packet (batch 0, packet 0) ticks the clock; every other packet reads it. */
    Register<bit<8>, bit<1>>(1, 0) slice_reg;       // current slice 0..S-1
    Register<step_t, bit<1>>(1, 0) active_reg;      // its calendar queue 0..Q-1
    Register<step_t, bit<1>>(1, 0) active_reg_1;      // its calendar queue 0..Q-1 (copy for slots 4..)
    Register<step_t, bit<1>>(1, 0) active_reg_2;      // its calendar queue 0..Q-1 (copy for slots 8..)
    Register<step_t, bit<1>>(1, 0) epoch_reg;       // slices since the start, mod 65536
    Register<bit<32>, bit<1>>(1, 0) start_reg;      // when the current slice began (ns, low 32 bits)
    RegisterAction<bit<8>, bit<1>, bit<8>>(slice_reg) slice_tick = {
        void apply(inout bit<8> v, out bit<8> rv) {
            if (v >= 31) { v = 0; } else { v = v + 1; }
            rv = v;
        }
    };
    RegisterAction<bit<8>, bit<1>, bit<8>>(slice_reg) slice_read = {
        void apply(inout bit<8> v, out bit<8> rv) { rv = v; }
    };
    RegisterAction<step_t, bit<1>, step_t>(active_reg) active_tick = {
        void apply(inout step_t v, out step_t rv) {
            if (v >= 31) { v = 0; } else { v = v + 1; }
            rv = v;
        }
    };
    RegisterAction<step_t, bit<1>, step_t>(active_reg) active_read = {
        void apply(inout step_t v, out step_t rv) { rv = v; }
    };
    RegisterAction<step_t, bit<1>, step_t>(active_reg_1) active_tick_1 = {
        void apply(inout step_t v, out step_t rv) {
            if (v >= 31) { v = 0; } else { v = v + 1; }
            rv = v;
        }
    };
    RegisterAction<step_t, bit<1>, step_t>(active_reg_1) active_read_1 = {
        void apply(inout step_t v, out step_t rv) { rv = v; }
    };
    RegisterAction<step_t, bit<1>, step_t>(active_reg_2) active_tick_2 = {
        void apply(inout step_t v, out step_t rv) {
            if (v >= 31) { v = 0; } else { v = v + 1; }
            rv = v;
        }
    };
    RegisterAction<step_t, bit<1>, step_t>(active_reg_2) active_read_2 = {
        void apply(inout step_t v, out step_t rv) { rv = v; }
    };
    RegisterAction<step_t, bit<1>, step_t>(epoch_reg) epoch_tick = {
        void apply(inout step_t v, out step_t rv) { v = v + 1; rv = v; }
    };
    RegisterAction<step_t, bit<1>, step_t>(epoch_reg) epoch_read = {
        void apply(inout step_t v, out step_t rv) { rv = v; }
    };
    RegisterAction<bit<32>, bit<1>, bit<32>>(start_reg) start_stamp = {
        void apply(inout bit<32> v) { v = ig_prsr_md.global_tstamp[31:0]; }
    };
    RegisterAction<bit<32>, bit<1>, bit<32>>(start_reg) start_read = {
        void apply(inout bit<32> v, out bit<32> rv) { rv = v; }
    };

    /* ---- timer batch: (batch_id, packet_id, active queue after the tick) -> the AFC word
     * that pauses uplink u's previous queue (batch 0, packet u) or resumes its active queue
     * (batch 1, packet u); a pause also clears that queue's byte count and Full bit.
     * Written by the control plane from the TM queue plan (2 x d x Q entries). */
    action timer_pause(bit<32> afc, qidx_t qidx, bit<32> upmask, down_t upbit) {
        ig_dprsr_md.adv_flow_ctl = afc;
        meta.t_qidx = qidx;
        meta.down_bit = upmask;
        meta.down_upbit = upbit;
        meta.have_dep = 1;                // reuse: "this packet drained a queue"
    }
    action timer_resume(bit<32> afc) {
        ig_dprsr_md.adv_flow_ctl = afc;
    }
    action timer_unknown() {
        meta.drop_reason = DR_MALFORMED;
    }
    table timer_afc {
        key = {
            hdr.pg_timer.batch_id:  exact @name("batch_id");
            hdr.pg_timer.packet_id: exact @name("packet_id");
            meta.active_q:          exact @name("active");
        }
        actions = { timer_pause; timer_resume; @defaultonly timer_unknown; }
        default_action = timer_unknown();
        size = 2048;
    }

    /* ---- FRANCIS-style fast failure reaction: the port-down app names the dead port; its
     * batch (32 packets) sets the Full flag of every queue of that uplink (one per packet),
     * so the next packet's one-shot lookup skips it, and link_down_reg keeps the timer from
     * clearing them. When the link is back the control plane clears the uplink's bit (the
     * daemon: SwitchBackend.clear_link_down) and the timer's pauses then clear the flags. */
    Register<bit<32>, bit<1>>(1, 0) link_down_reg;  // bit u: uplink u went down (cleared by the control plane)
    RegisterAction<bit<32>, bit<1>, bit<32>>(link_down_reg) link_down_set = {
        void apply(inout bit<32> v) { v = v | meta.down_bit; }
    };
    RegisterAction<bit<32>, bit<1>, bit<32>>(link_down_reg) link_down_test = {
        void apply(inout bit<32> v, out bit<32> rv) { rv = v & meta.down_bit; }
    };
    action mark_down(bit<32> upmask, qidx_t qidx) {
        meta.down_bit = upmask;
        meta.t_qidx = qidx;
    }
    action not_an_uplink() { meta.down_bit = 0; }
    table down_port {
        key = {
            hdr.pg_port_down.port_num:  exact @name("port_num");
            hdr.pg_port_down.packet_id: exact @name("packet_id");
        }
        actions = { mark_down; @defaultonly not_an_uplink; }
        default_action = not_an_uplink();
        size = 1024;
    }

    /* ---- time already gone in the active slice (URO §IV-C: the active queue is full when
     * the packet would not leave before the slice ends). Elapsed ns since the tick, in
     * 8 ns quanta -> wire bytes lost (rounded up); past the slice end the active
     * queue takes nothing. */
    action set_floor(units_t floor) { meta.e_floor = floor; }
    action slice_over() { meta.e_floor = CAP_UNITS; }
    table slice_time {
        key = { meta.elapsed: exact @name("quantum"); }
        actions = { set_floor; @defaultonly slice_over; }
        default_action = slice_over();
        const entries = {
            0: set_floor(0);
            1: set_floor(0);
            2: set_floor(0);
            3: set_floor(0);
            4: set_floor(0);
            5: set_floor(0);
            6: set_floor(0);
            7: set_floor(0);
            8: set_floor(0);
            9: set_floor(0);
            10: set_floor(0);
            11: set_floor(0);
            12: set_floor(0);
            13: set_floor(0);
            14: set_floor(0);
            15: set_floor(0);
            16: set_floor(0);
            17: set_floor(0);
            18: set_floor(0);
            19: set_floor(0);
            20: set_floor(0);
            21: set_floor(0);
            22: set_floor(0);
            23: set_floor(0);
            24: set_floor(0);
            25: set_floor(0);
            26: set_floor(0);
            27: set_floor(0);
            28: set_floor(0);
            29: set_floor(83);
            30: set_floor(183);
            31: set_floor(283);
            32: set_floor(383);
            33: set_floor(483);
            34: set_floor(583);
            35: set_floor(683);
            36: set_floor(783);
            37: set_floor(883);
            38: set_floor(983);
            39: set_floor(1083);
            40: set_floor(1183);
            41: set_floor(1283);
            42: set_floor(1383);
            43: set_floor(1483);
            44: set_floor(1583);
            45: set_floor(1683);
            46: set_floor(1783);
            47: set_floor(1883);
            48: set_floor(1983);
            49: set_floor(2083);
            50: set_floor(2183);
            51: set_floor(2283);
            52: set_floor(2383);
            53: set_floor(2483);
            54: set_floor(2583);
            55: set_floor(2683);
            56: set_floor(2783);
            57: set_floor(2883);
            58: set_floor(2983);
            59: set_floor(3083);
            60: set_floor(3183);
            61: set_floor(3283);
            62: set_floor(3383);
            63: set_floor(3483);
            64: set_floor(3583);
            65: set_floor(3683);
            66: set_floor(3783);
            67: set_floor(3883);
            68: set_floor(3983);
            69: set_floor(4083);
            70: set_floor(4183);
            71: set_floor(4283);
            72: set_floor(4383);
            73: set_floor(4483);
            74: set_floor(4583);
            75: set_floor(4683);
            76: set_floor(4783);
            77: set_floor(4883);
            78: set_floor(4983);
            79: set_floor(5083);
            80: set_floor(5183);
            81: set_floor(5283);
            82: set_floor(5383);
            83: set_floor(5483);
            84: set_floor(5583);
            85: set_floor(5683);
            86: set_floor(5783);
            87: set_floor(5883);
            88: set_floor(5983);
            89: set_floor(6083);
            90: set_floor(6183);
            91: set_floor(6283);
            92: set_floor(6383);
            93: set_floor(6483);
            94: set_floor(6583);
            95: set_floor(6683);
            96: set_floor(6783);
            97: set_floor(6883);
            98: set_floor(6983);
            99: set_floor(7083);
            100: set_floor(7183);
            101: set_floor(7283);
            102: set_floor(7383);
            103: set_floor(7483);
            104: set_floor(7583);
            105: set_floor(7683);
            106: set_floor(7783);
            107: set_floor(7883);
            108: set_floor(7983);
            109: set_floor(8083);
            110: set_floor(8183);
            111: set_floor(8283);
            112: set_floor(8383);
            113: set_floor(8483);
            114: set_floor(8583);
            115: set_floor(8683);
            116: set_floor(8783);
            117: set_floor(8883);
            118: set_floor(8983);
            119: set_floor(9083);
            120: set_floor(9183);
            121: set_floor(9283);
            122: set_floor(9383);
            123: set_floor(9483);
            124: set_floor(9583);
            125: set_floor(9683);
            126: set_floor(9783);
            127: set_floor(9883);
            128: set_floor(9983);
            129: set_floor(10083);
            130: set_floor(10183);
            131: set_floor(10283);
            132: set_floor(10383);
            133: set_floor(10483);
            134: set_floor(10583);
            135: set_floor(10683);
            136: set_floor(10783);
            137: set_floor(10883);
            138: set_floor(10983);
            139: set_floor(11083);
            140: set_floor(11183);
            141: set_floor(11283);
            142: set_floor(11383);
            143: set_floor(11483);
            144: set_floor(11583);
            145: set_floor(11683);
            146: set_floor(11783);
            147: set_floor(11883);
            148: set_floor(11983);
            149: set_floor(12083);
            150: set_floor(12183);
            151: set_floor(12283);
            152: set_floor(12383);
            153: set_floor(12483);
            154: set_floor(12583);
            155: set_floor(12683);
            156: set_floor(12783);
            157: set_floor(12883);
            158: set_floor(12983);
            159: set_floor(13083);
            160: set_floor(13183);
            161: set_floor(13283);
            162: set_floor(13383);
            163: set_floor(13483);
            164: set_floor(13583);
            165: set_floor(13683);
            166: set_floor(13783);
            167: set_floor(13883);
            168: set_floor(13983);
            169: set_floor(14083);
            170: set_floor(14183);
            171: set_floor(14283);
            172: set_floor(14383);
            173: set_floor(14483);
            174: set_floor(14583);
            175: set_floor(14683);
            176: set_floor(14783);
            177: set_floor(14883);
            178: set_floor(14983);
            179: set_floor(15083);
            180: set_floor(15183);
            181: set_floor(15283);
            182: set_floor(15383);
            183: set_floor(15483);
            184: set_floor(15583);
            185: set_floor(15683);
            186: set_floor(15783);
            187: set_floor(15883);
            188: set_floor(15983);
            189: set_floor(16083);
            190: set_floor(16183);
            191: set_floor(16283);
            192: set_floor(16383);
            193: set_floor(16483);
            194: set_floor(16583);
            195: set_floor(16683);
            196: set_floor(16783);
            197: set_floor(16883);
            198: set_floor(16983);
            199: set_floor(17083);
            200: set_floor(17183);
            201: set_floor(17283);
            202: set_floor(17383);
            203: set_floor(17483);
            204: set_floor(17583);
            205: set_floor(17683);
            206: set_floor(17783);
            207: set_floor(17883);
            208: set_floor(17983);
            209: set_floor(18083);
            210: set_floor(18183);
            211: set_floor(18283);
            212: set_floor(18383);
            213: set_floor(18483);
            214: set_floor(18583);
            215: set_floor(18683);
            216: set_floor(18783);
            217: set_floor(18883);
            218: set_floor(18983);
            219: set_floor(19083);
            220: set_floor(19183);
            221: set_floor(19283);
            222: set_floor(19383);
            223: set_floor(19483);
            224: set_floor(19583);
            225: set_floor(19683);
            226: set_floor(19783);
            227: set_floor(19883);
            228: set_floor(19983);
            229: set_floor(20083);
            230: set_floor(20183);
            231: set_floor(20283);
            232: set_floor(20383);
            233: set_floor(20483);
            234: set_floor(20583);
            235: set_floor(20683);
            236: set_floor(20783);
            237: set_floor(20883);
            238: set_floor(20983);
            239: set_floor(21083);
            240: set_floor(21183);
            241: set_floor(21283);
            242: set_floor(21383);
            243: set_floor(21483);
            244: set_floor(21583);
            245: set_floor(21683);
            246: set_floor(21783);
            247: set_floor(21883);
            248: set_floor(21983);
            249: set_floor(22083);
        }
        size = 250;
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
        meta.out_port = port;
    }
    action no_route() {
        meta.routed = 0;
    }
    table host_dst {
        key = { hdr.ipv4.dstAddr: lpm @name("dst_addr"); }
        actions = { set_dst_tor; deliver_local; @defaultonly no_route; }
        default_action = no_route();
        size = 1039;
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
        size = 2046;
    }

    /* ---- URO per-hop table: (arrival slice, dst ToR) -> K (uplink, wait) ---------------- */
    action set_alternatives(bit<8> n, uplink_t up0, slice_t wait0, uplink_t up1, slice_t wait1, uplink_t up2, slice_t wait2, uplink_t up3, slice_t wait3, uplink_t up4, slice_t wait4, uplink_t up5, slice_t wait5, uplink_t up6, slice_t wait6, uplink_t up7, slice_t wait7, uplink_t up8, slice_t wait8, uplink_t up9, slice_t wait9) {
        meta.n_alts = n;
        meta.alt_up_0 = up0;
        meta.alt_wait_0 = (step_t)wait0;
        meta.alt_up_1 = up1;
        meta.alt_wait_1 = (step_t)wait1;
        meta.alt_up_2 = up2;
        meta.alt_wait_2 = (step_t)wait2;
        meta.alt_up_3 = up3;
        meta.alt_wait_3 = (step_t)wait3;
        meta.alt_up_4 = up4;
        meta.alt_wait_4 = (step_t)wait4;
        meta.alt_up_5 = up5;
        meta.alt_wait_5 = (step_t)wait5;
        meta.alt_up_6 = up6;
        meta.alt_wait_6 = (step_t)wait6;
        meta.alt_up_7 = up7;
        meta.alt_wait_7 = (step_t)wait7;
        meta.alt_up_8 = up8;
        meta.alt_wait_8 = (step_t)wait8;
        meta.alt_up_9 = up9;
        meta.alt_wait_9 = (step_t)wait9;
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
        size = 65472;
    }

    /* ---- SSRR source routing ------------------------------------------------------- */
    action set_bucket(bucket_t bucket) { meta.bucket = bucket; }
    table ssrr_bucket {
        key = { hdr.ipv4.dscp: exact @name("dscp"); }
        actions = { set_bucket; }
        default_action = set_bucket(0);
        size = 64;
    }

    /* A source route in three exact lookups and a hash (UCMP §6.2), no action selector (bf-p4c
     * put a selector's groups and members in every stage its match spanned):
     *   ssrr_path  (generation, dst, start slice)          -> the group and its shape
     *   ssrr_level (generation, shape, bucket range)       -> the level (the range's index in
     *              the group) and the flow's member: hash mod the level's tie count n, one
     *              action per n copying the precomputed k<n>
     *   ssrr_first (generation, group, level, member)      -> hop 0 for the queue test
     *   ssrr_hops  (same key, in egress)                   -> the option: the path at its
     *              length. Nothing in ingress reads it, so it is off ingress's critical
     *              path and takes SRAM in whichever stages egress has free (beside
     *              ssrr_first it pushed r1024x32 to 22 ingress stages, behind admission 27).
     * A shape is the list of (bucket range, ties) of a group: few per ToR, so the one range
     * match (TCAM) holds shapes x ranges entries, not groups x ranges. */
    Hash<bit<8>>(HashAlgorithm_t.CRC16) ssrr_flow_hash;
    action set_picks(bit<3> k2, bit<3> k3, bit<3> k4, bit<3> k5, bit<3> k6, bit<3> k7, bit<3> k8) {
        meta.ssrr_k2 = k2;
        meta.ssrr_k3 = k3;
        meta.ssrr_k4 = k4;
        meta.ssrr_k5 = k5;
        meta.ssrr_k6 = k6;
        meta.ssrr_k7 = k7;
        meta.ssrr_k8 = k8;
    }
    table ssrr_picks {                  // the flow hash mod n for every tie count n
        key = { meta.ssrr_hash: exact; }
        actions = { set_picks; }
        size = 256;
        const entries = {
            0: set_picks(0, 0, 0, 0, 0, 0, 0);
            1: set_picks(1, 1, 1, 1, 1, 1, 1);
            2: set_picks(0, 2, 2, 2, 2, 2, 2);
            3: set_picks(1, 0, 3, 3, 3, 3, 3);
            4: set_picks(0, 1, 0, 4, 4, 4, 4);
            5: set_picks(1, 2, 1, 0, 5, 5, 5);
            6: set_picks(0, 0, 2, 1, 0, 6, 6);
            7: set_picks(1, 1, 3, 2, 1, 0, 7);
            8: set_picks(0, 2, 0, 3, 2, 1, 0);
            9: set_picks(1, 0, 1, 4, 3, 2, 1);
            10: set_picks(0, 1, 2, 0, 4, 3, 2);
            11: set_picks(1, 2, 3, 1, 5, 4, 3);
            12: set_picks(0, 0, 0, 2, 0, 5, 4);
            13: set_picks(1, 1, 1, 3, 1, 6, 5);
            14: set_picks(0, 2, 2, 4, 2, 0, 6);
            15: set_picks(1, 0, 3, 0, 3, 1, 7);
            16: set_picks(0, 1, 0, 1, 4, 2, 0);
            17: set_picks(1, 2, 1, 2, 5, 3, 1);
            18: set_picks(0, 0, 2, 3, 0, 4, 2);
            19: set_picks(1, 1, 3, 4, 1, 5, 3);
            20: set_picks(0, 2, 0, 0, 2, 6, 4);
            21: set_picks(1, 0, 1, 1, 3, 0, 5);
            22: set_picks(0, 1, 2, 2, 4, 1, 6);
            23: set_picks(1, 2, 3, 3, 5, 2, 7);
            24: set_picks(0, 0, 0, 4, 0, 3, 0);
            25: set_picks(1, 1, 1, 0, 1, 4, 1);
            26: set_picks(0, 2, 2, 1, 2, 5, 2);
            27: set_picks(1, 0, 3, 2, 3, 6, 3);
            28: set_picks(0, 1, 0, 3, 4, 0, 4);
            29: set_picks(1, 2, 1, 4, 5, 1, 5);
            30: set_picks(0, 0, 2, 0, 0, 2, 6);
            31: set_picks(1, 1, 3, 1, 1, 3, 7);
            32: set_picks(0, 2, 0, 2, 2, 4, 0);
            33: set_picks(1, 0, 1, 3, 3, 5, 1);
            34: set_picks(0, 1, 2, 4, 4, 6, 2);
            35: set_picks(1, 2, 3, 0, 5, 0, 3);
            36: set_picks(0, 0, 0, 1, 0, 1, 4);
            37: set_picks(1, 1, 1, 2, 1, 2, 5);
            38: set_picks(0, 2, 2, 3, 2, 3, 6);
            39: set_picks(1, 0, 3, 4, 3, 4, 7);
            40: set_picks(0, 1, 0, 0, 4, 5, 0);
            41: set_picks(1, 2, 1, 1, 5, 6, 1);
            42: set_picks(0, 0, 2, 2, 0, 0, 2);
            43: set_picks(1, 1, 3, 3, 1, 1, 3);
            44: set_picks(0, 2, 0, 4, 2, 2, 4);
            45: set_picks(1, 0, 1, 0, 3, 3, 5);
            46: set_picks(0, 1, 2, 1, 4, 4, 6);
            47: set_picks(1, 2, 3, 2, 5, 5, 7);
            48: set_picks(0, 0, 0, 3, 0, 6, 0);
            49: set_picks(1, 1, 1, 4, 1, 0, 1);
            50: set_picks(0, 2, 2, 0, 2, 1, 2);
            51: set_picks(1, 0, 3, 1, 3, 2, 3);
            52: set_picks(0, 1, 0, 2, 4, 3, 4);
            53: set_picks(1, 2, 1, 3, 5, 4, 5);
            54: set_picks(0, 0, 2, 4, 0, 5, 6);
            55: set_picks(1, 1, 3, 0, 1, 6, 7);
            56: set_picks(0, 2, 0, 1, 2, 0, 0);
            57: set_picks(1, 0, 1, 2, 3, 1, 1);
            58: set_picks(0, 1, 2, 3, 4, 2, 2);
            59: set_picks(1, 2, 3, 4, 5, 3, 3);
            60: set_picks(0, 0, 0, 0, 0, 4, 4);
            61: set_picks(1, 1, 1, 1, 1, 5, 5);
            62: set_picks(0, 2, 2, 2, 2, 6, 6);
            63: set_picks(1, 0, 3, 3, 3, 0, 7);
            64: set_picks(0, 1, 0, 4, 4, 1, 0);
            65: set_picks(1, 2, 1, 0, 5, 2, 1);
            66: set_picks(0, 0, 2, 1, 0, 3, 2);
            67: set_picks(1, 1, 3, 2, 1, 4, 3);
            68: set_picks(0, 2, 0, 3, 2, 5, 4);
            69: set_picks(1, 0, 1, 4, 3, 6, 5);
            70: set_picks(0, 1, 2, 0, 4, 0, 6);
            71: set_picks(1, 2, 3, 1, 5, 1, 7);
            72: set_picks(0, 0, 0, 2, 0, 2, 0);
            73: set_picks(1, 1, 1, 3, 1, 3, 1);
            74: set_picks(0, 2, 2, 4, 2, 4, 2);
            75: set_picks(1, 0, 3, 0, 3, 5, 3);
            76: set_picks(0, 1, 0, 1, 4, 6, 4);
            77: set_picks(1, 2, 1, 2, 5, 0, 5);
            78: set_picks(0, 0, 2, 3, 0, 1, 6);
            79: set_picks(1, 1, 3, 4, 1, 2, 7);
            80: set_picks(0, 2, 0, 0, 2, 3, 0);
            81: set_picks(1, 0, 1, 1, 3, 4, 1);
            82: set_picks(0, 1, 2, 2, 4, 5, 2);
            83: set_picks(1, 2, 3, 3, 5, 6, 3);
            84: set_picks(0, 0, 0, 4, 0, 0, 4);
            85: set_picks(1, 1, 1, 0, 1, 1, 5);
            86: set_picks(0, 2, 2, 1, 2, 2, 6);
            87: set_picks(1, 0, 3, 2, 3, 3, 7);
            88: set_picks(0, 1, 0, 3, 4, 4, 0);
            89: set_picks(1, 2, 1, 4, 5, 5, 1);
            90: set_picks(0, 0, 2, 0, 0, 6, 2);
            91: set_picks(1, 1, 3, 1, 1, 0, 3);
            92: set_picks(0, 2, 0, 2, 2, 1, 4);
            93: set_picks(1, 0, 1, 3, 3, 2, 5);
            94: set_picks(0, 1, 2, 4, 4, 3, 6);
            95: set_picks(1, 2, 3, 0, 5, 4, 7);
            96: set_picks(0, 0, 0, 1, 0, 5, 0);
            97: set_picks(1, 1, 1, 2, 1, 6, 1);
            98: set_picks(0, 2, 2, 3, 2, 0, 2);
            99: set_picks(1, 0, 3, 4, 3, 1, 3);
            100: set_picks(0, 1, 0, 0, 4, 2, 4);
            101: set_picks(1, 2, 1, 1, 5, 3, 5);
            102: set_picks(0, 0, 2, 2, 0, 4, 6);
            103: set_picks(1, 1, 3, 3, 1, 5, 7);
            104: set_picks(0, 2, 0, 4, 2, 6, 0);
            105: set_picks(1, 0, 1, 0, 3, 0, 1);
            106: set_picks(0, 1, 2, 1, 4, 1, 2);
            107: set_picks(1, 2, 3, 2, 5, 2, 3);
            108: set_picks(0, 0, 0, 3, 0, 3, 4);
            109: set_picks(1, 1, 1, 4, 1, 4, 5);
            110: set_picks(0, 2, 2, 0, 2, 5, 6);
            111: set_picks(1, 0, 3, 1, 3, 6, 7);
            112: set_picks(0, 1, 0, 2, 4, 0, 0);
            113: set_picks(1, 2, 1, 3, 5, 1, 1);
            114: set_picks(0, 0, 2, 4, 0, 2, 2);
            115: set_picks(1, 1, 3, 0, 1, 3, 3);
            116: set_picks(0, 2, 0, 1, 2, 4, 4);
            117: set_picks(1, 0, 1, 2, 3, 5, 5);
            118: set_picks(0, 1, 2, 3, 4, 6, 6);
            119: set_picks(1, 2, 3, 4, 5, 0, 7);
            120: set_picks(0, 0, 0, 0, 0, 1, 0);
            121: set_picks(1, 1, 1, 1, 1, 2, 1);
            122: set_picks(0, 2, 2, 2, 2, 3, 2);
            123: set_picks(1, 0, 3, 3, 3, 4, 3);
            124: set_picks(0, 1, 0, 4, 4, 5, 4);
            125: set_picks(1, 2, 1, 0, 5, 6, 5);
            126: set_picks(0, 0, 2, 1, 0, 0, 6);
            127: set_picks(1, 1, 3, 2, 1, 1, 7);
            128: set_picks(0, 2, 0, 3, 2, 2, 0);
            129: set_picks(1, 0, 1, 4, 3, 3, 1);
            130: set_picks(0, 1, 2, 0, 4, 4, 2);
            131: set_picks(1, 2, 3, 1, 5, 5, 3);
            132: set_picks(0, 0, 0, 2, 0, 6, 4);
            133: set_picks(1, 1, 1, 3, 1, 0, 5);
            134: set_picks(0, 2, 2, 4, 2, 1, 6);
            135: set_picks(1, 0, 3, 0, 3, 2, 7);
            136: set_picks(0, 1, 0, 1, 4, 3, 0);
            137: set_picks(1, 2, 1, 2, 5, 4, 1);
            138: set_picks(0, 0, 2, 3, 0, 5, 2);
            139: set_picks(1, 1, 3, 4, 1, 6, 3);
            140: set_picks(0, 2, 0, 0, 2, 0, 4);
            141: set_picks(1, 0, 1, 1, 3, 1, 5);
            142: set_picks(0, 1, 2, 2, 4, 2, 6);
            143: set_picks(1, 2, 3, 3, 5, 3, 7);
            144: set_picks(0, 0, 0, 4, 0, 4, 0);
            145: set_picks(1, 1, 1, 0, 1, 5, 1);
            146: set_picks(0, 2, 2, 1, 2, 6, 2);
            147: set_picks(1, 0, 3, 2, 3, 0, 3);
            148: set_picks(0, 1, 0, 3, 4, 1, 4);
            149: set_picks(1, 2, 1, 4, 5, 2, 5);
            150: set_picks(0, 0, 2, 0, 0, 3, 6);
            151: set_picks(1, 1, 3, 1, 1, 4, 7);
            152: set_picks(0, 2, 0, 2, 2, 5, 0);
            153: set_picks(1, 0, 1, 3, 3, 6, 1);
            154: set_picks(0, 1, 2, 4, 4, 0, 2);
            155: set_picks(1, 2, 3, 0, 5, 1, 3);
            156: set_picks(0, 0, 0, 1, 0, 2, 4);
            157: set_picks(1, 1, 1, 2, 1, 3, 5);
            158: set_picks(0, 2, 2, 3, 2, 4, 6);
            159: set_picks(1, 0, 3, 4, 3, 5, 7);
            160: set_picks(0, 1, 0, 0, 4, 6, 0);
            161: set_picks(1, 2, 1, 1, 5, 0, 1);
            162: set_picks(0, 0, 2, 2, 0, 1, 2);
            163: set_picks(1, 1, 3, 3, 1, 2, 3);
            164: set_picks(0, 2, 0, 4, 2, 3, 4);
            165: set_picks(1, 0, 1, 0, 3, 4, 5);
            166: set_picks(0, 1, 2, 1, 4, 5, 6);
            167: set_picks(1, 2, 3, 2, 5, 6, 7);
            168: set_picks(0, 0, 0, 3, 0, 0, 0);
            169: set_picks(1, 1, 1, 4, 1, 1, 1);
            170: set_picks(0, 2, 2, 0, 2, 2, 2);
            171: set_picks(1, 0, 3, 1, 3, 3, 3);
            172: set_picks(0, 1, 0, 2, 4, 4, 4);
            173: set_picks(1, 2, 1, 3, 5, 5, 5);
            174: set_picks(0, 0, 2, 4, 0, 6, 6);
            175: set_picks(1, 1, 3, 0, 1, 0, 7);
            176: set_picks(0, 2, 0, 1, 2, 1, 0);
            177: set_picks(1, 0, 1, 2, 3, 2, 1);
            178: set_picks(0, 1, 2, 3, 4, 3, 2);
            179: set_picks(1, 2, 3, 4, 5, 4, 3);
            180: set_picks(0, 0, 0, 0, 0, 5, 4);
            181: set_picks(1, 1, 1, 1, 1, 6, 5);
            182: set_picks(0, 2, 2, 2, 2, 0, 6);
            183: set_picks(1, 0, 3, 3, 3, 1, 7);
            184: set_picks(0, 1, 0, 4, 4, 2, 0);
            185: set_picks(1, 2, 1, 0, 5, 3, 1);
            186: set_picks(0, 0, 2, 1, 0, 4, 2);
            187: set_picks(1, 1, 3, 2, 1, 5, 3);
            188: set_picks(0, 2, 0, 3, 2, 6, 4);
            189: set_picks(1, 0, 1, 4, 3, 0, 5);
            190: set_picks(0, 1, 2, 0, 4, 1, 6);
            191: set_picks(1, 2, 3, 1, 5, 2, 7);
            192: set_picks(0, 0, 0, 2, 0, 3, 0);
            193: set_picks(1, 1, 1, 3, 1, 4, 1);
            194: set_picks(0, 2, 2, 4, 2, 5, 2);
            195: set_picks(1, 0, 3, 0, 3, 6, 3);
            196: set_picks(0, 1, 0, 1, 4, 0, 4);
            197: set_picks(1, 2, 1, 2, 5, 1, 5);
            198: set_picks(0, 0, 2, 3, 0, 2, 6);
            199: set_picks(1, 1, 3, 4, 1, 3, 7);
            200: set_picks(0, 2, 0, 0, 2, 4, 0);
            201: set_picks(1, 0, 1, 1, 3, 5, 1);
            202: set_picks(0, 1, 2, 2, 4, 6, 2);
            203: set_picks(1, 2, 3, 3, 5, 0, 3);
            204: set_picks(0, 0, 0, 4, 0, 1, 4);
            205: set_picks(1, 1, 1, 0, 1, 2, 5);
            206: set_picks(0, 2, 2, 1, 2, 3, 6);
            207: set_picks(1, 0, 3, 2, 3, 4, 7);
            208: set_picks(0, 1, 0, 3, 4, 5, 0);
            209: set_picks(1, 2, 1, 4, 5, 6, 1);
            210: set_picks(0, 0, 2, 0, 0, 0, 2);
            211: set_picks(1, 1, 3, 1, 1, 1, 3);
            212: set_picks(0, 2, 0, 2, 2, 2, 4);
            213: set_picks(1, 0, 1, 3, 3, 3, 5);
            214: set_picks(0, 1, 2, 4, 4, 4, 6);
            215: set_picks(1, 2, 3, 0, 5, 5, 7);
            216: set_picks(0, 0, 0, 1, 0, 6, 0);
            217: set_picks(1, 1, 1, 2, 1, 0, 1);
            218: set_picks(0, 2, 2, 3, 2, 1, 2);
            219: set_picks(1, 0, 3, 4, 3, 2, 3);
            220: set_picks(0, 1, 0, 0, 4, 3, 4);
            221: set_picks(1, 2, 1, 1, 5, 4, 5);
            222: set_picks(0, 0, 2, 2, 0, 5, 6);
            223: set_picks(1, 1, 3, 3, 1, 6, 7);
            224: set_picks(0, 2, 0, 4, 2, 0, 0);
            225: set_picks(1, 0, 1, 0, 3, 1, 1);
            226: set_picks(0, 1, 2, 1, 4, 2, 2);
            227: set_picks(1, 2, 3, 2, 5, 3, 3);
            228: set_picks(0, 0, 0, 3, 0, 4, 4);
            229: set_picks(1, 1, 1, 4, 1, 5, 5);
            230: set_picks(0, 2, 2, 0, 2, 6, 6);
            231: set_picks(1, 0, 3, 1, 3, 0, 7);
            232: set_picks(0, 1, 0, 2, 4, 1, 0);
            233: set_picks(1, 2, 1, 3, 5, 2, 1);
            234: set_picks(0, 0, 2, 4, 0, 3, 2);
            235: set_picks(1, 1, 3, 0, 1, 4, 3);
            236: set_picks(0, 2, 0, 1, 2, 5, 4);
            237: set_picks(1, 0, 1, 2, 3, 6, 5);
            238: set_picks(0, 1, 2, 3, 4, 0, 6);
            239: set_picks(1, 2, 3, 4, 5, 1, 7);
            240: set_picks(0, 0, 0, 0, 0, 2, 0);
            241: set_picks(1, 1, 1, 1, 1, 3, 1);
            242: set_picks(0, 2, 2, 2, 2, 4, 2);
            243: set_picks(1, 0, 3, 3, 3, 5, 3);
            244: set_picks(0, 1, 0, 4, 4, 6, 4);
            245: set_picks(1, 2, 1, 0, 5, 0, 5);
            246: set_picks(0, 0, 2, 1, 0, 1, 6);
            247: set_picks(1, 1, 3, 2, 1, 2, 7);
            248: set_picks(0, 2, 0, 3, 2, 3, 0);
            249: set_picks(1, 0, 1, 4, 3, 4, 1);
            250: set_picks(0, 1, 2, 0, 4, 5, 2);
            251: set_picks(1, 2, 3, 1, 5, 6, 3);
            252: set_picks(0, 0, 0, 2, 0, 0, 4);
            253: set_picks(1, 1, 1, 3, 1, 1, 5);
            254: set_picks(0, 2, 2, 4, 2, 2, 6);
            255: set_picks(1, 0, 3, 0, 3, 3, 7);
        }
    }
    action set_group(bit<15> group, bit<11> shape) {
        meta.ssrr_group = group;
        meta.ssrr_shape = shape;
    }
    table ssrr_path {
        key = {
            meta.gen:       exact @name("generation");
            meta.dst_tor[9:0]: exact @name("dst_tor");
            meta.cur_slice[4:0]: exact @name("start_slice");
        }
        actions = { set_group; @defaultonly NoAction; }
        default_action = NoAction();
        size = 65472;
    }
    action level_1(bit<2> level) {
        meta.ssrr_level = level;
        meta.ssrr_member = 0;
    }
    action level_2(bit<2> level) {
        meta.ssrr_level = level;
        meta.ssrr_member = meta.ssrr_k2;
    }
    action level_3(bit<2> level) {
        meta.ssrr_level = level;
        meta.ssrr_member = meta.ssrr_k3;
    }
    action level_4(bit<2> level) {
        meta.ssrr_level = level;
        meta.ssrr_member = meta.ssrr_k4;
    }
    action level_5(bit<2> level) {
        meta.ssrr_level = level;
        meta.ssrr_member = meta.ssrr_k5;
    }
    action level_6(bit<2> level) {
        meta.ssrr_level = level;
        meta.ssrr_member = meta.ssrr_k6;
    }
    action level_7(bit<2> level) {
        meta.ssrr_level = level;
        meta.ssrr_member = meta.ssrr_k7;
    }
    action level_8(bit<2> level) {
        meta.ssrr_level = level;
        meta.ssrr_member = meta.ssrr_k8;
    }
    table ssrr_level {
        key = {
            meta.gen:        exact @name("generation");
            meta.ssrr_shape: exact @name("shape");
            meta.bucket:     range @name("bucket");   // the group's bucket ranges (disjoint)
        }
        actions = { level_1; level_2; level_3; level_4; level_5; level_6; level_7; level_8; @defaultonly NoAction; }
        default_action = NoAction();
        size = 6144;
    }
    /* hop 0 of the picked path, what the queue test needs (its uplink and wait: slices from
     * the start slice, which the key fixes), and the option's shape for its length n (IHL,
     * bytes): 32 bits of immediate data, one action per n. The option itself is written in
     * egress (ssrr_hops): the key goes along in bridge_src, and an option the packet arrived
     * with (re-sourced after a refused hop) is removed here. */
    action first_1(bit<5> up0, bit<5> wait0) {
        meta.has_path = 1;
        meta.alt_up_10 = (uplink_t)up0;            // the SSRR slot: hop 0
        meta.alt_wait_10 = (step_t)wait0;
        hdr.ipv4.version_ihl = 0x47;
        meta.path_bytes = 28;
        hdr.bridge_src.setValid();
        hdr.bridge_src.gen = meta.gen;
        hdr.bridge_src.spare = 0;
        hdr.bridge_src.group = (bit<16>)meta.ssrr_group;
        hdr.bridge_src.level = (bit<8>)meta.ssrr_level;
        hdr.bridge_src.member = (bit<8>)meta.ssrr_member;
        hdr.bridge_src.dst_tor = meta.dst_tor;
        hdr.ssrr.setInvalid();
        hdr.hops[0].setInvalid();
        hdr.hops[1].setInvalid();
        hdr.hops[2].setInvalid();
    }
    action first_2(bit<5> up0, bit<5> wait0) {
        meta.has_path = 1;
        meta.alt_up_10 = (uplink_t)up0;            // the SSRR slot: hop 0
        meta.alt_wait_10 = (step_t)wait0;
        hdr.ipv4.version_ihl = 0x48;
        meta.path_bytes = 32;
        hdr.bridge_src.setValid();
        hdr.bridge_src.gen = meta.gen;
        hdr.bridge_src.spare = 0;
        hdr.bridge_src.group = (bit<16>)meta.ssrr_group;
        hdr.bridge_src.level = (bit<8>)meta.ssrr_level;
        hdr.bridge_src.member = (bit<8>)meta.ssrr_member;
        hdr.bridge_src.dst_tor = meta.dst_tor;
        hdr.ssrr.setInvalid();
        hdr.hops[0].setInvalid();
        hdr.hops[1].setInvalid();
        hdr.hops[2].setInvalid();
    }
    action first_3(bit<5> up0, bit<5> wait0) {
        meta.has_path = 1;
        meta.alt_up_10 = (uplink_t)up0;            // the SSRR slot: hop 0
        meta.alt_wait_10 = (step_t)wait0;
        hdr.ipv4.version_ihl = 0x49;
        meta.path_bytes = 36;
        hdr.bridge_src.setValid();
        hdr.bridge_src.gen = meta.gen;
        hdr.bridge_src.spare = 0;
        hdr.bridge_src.group = (bit<16>)meta.ssrr_group;
        hdr.bridge_src.level = (bit<8>)meta.ssrr_level;
        hdr.bridge_src.member = (bit<8>)meta.ssrr_member;
        hdr.bridge_src.dst_tor = meta.dst_tor;
        hdr.ssrr.setInvalid();
        hdr.hops[0].setInvalid();
        hdr.hops[1].setInvalid();
        hdr.hops[2].setInvalid();
    }
    table ssrr_first {
        key = {
            meta.gen:         exact @name("generation");
            meta.ssrr_group:  exact @name("group");
            meta.ssrr_level:  exact @name("level");
            meta.ssrr_member: exact @name("member");
        }
        actions = { first_1; first_2; first_3; @defaultonly NoAction; }
        default_action = NoAction();
        size = 392832;
    }
    /* transit: (pointer, hops) -> the hop at the pointer and the one before it. A pointer at
     * hop i (1 <= i < n) is 4 (i + 1); one past the last hop (4 (n + 1)) went astray; anything
     * else is malformed (hop_idx 0). One lookup: no arithmetic on the pointer, no branch per hop. */
    action at_hop_1() {
        meta.hop_idx = 1;
        meta.hop_uplink = hdr.hops[1].uplink;
        meta.hop_slice = hdr.hops[1].send_slice;
        meta.prev_next_tor = hdr.hops[0].next_tor;
        meta.prev_slice = hdr.hops[0].send_slice;
    }
    action at_hop_2() {
        meta.hop_idx = 2;
        meta.hop_uplink = hdr.hops[2].uplink;
        meta.hop_slice = hdr.hops[2].send_slice;
        meta.prev_next_tor = hdr.hops[1].next_tor;
        meta.prev_slice = hdr.hops[1].send_slice;
    }
    /* every hop taken, yet not at its destination: its last hop went astray (re-sourced
     * like a hop naming another ToR: no ToR has id 0xFFFF) */
    action past_last(bit<8> n) { meta.hop_idx = n; meta.prev_next_tor = 0xFFFF; }
    action ptr_bad() { meta.hop_idx = 0; }
    table ssrr_ptr {
        key = {
            hdr.ssrr.ptr: exact;
            meta.n_hops:  exact;
        }
        actions = { at_hop_1; at_hop_2; past_last; @defaultonly ptr_bad; }
        default_action = ptr_bad();
        const entries = {
            (8, 1): past_last(1);
            (8, 2): at_hop_1();
            (12, 2): past_last(2);
            (8, 3): at_hop_1();
            (12, 3): at_hop_2();
            (16, 3): past_last(3);
        }
        size = 6;
    }

    /* ---- queue state: a Full flag per (uplink, calendar queue) at uplink * 256 + queue,
     * 11 copies. Slot k of the one-shot lookup reads copy k once (Tofino: one access per
     * register per packet): the K URO alternatives and the SSRR hop (slot 10) are tested
     * side by side. A timer pause clears a drained queue's flag in every copy, a queue-state
     * update (mirror copy, see qupd_t) sets it in every copy; an uplink the port-down app
     * marked down has all its flags set and the timer leaves them set (an uplink the config
     * masks down is passed over by its slots' down_k tables instead). All actions on a
     * copy use the slot's index field: one index source per stateful ALU. */
    Register<bit<8>, qidx_t>(8192, 0) qstate_0;
    /* the one-shot test: 1 if the queue is Unfull */
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_0) qstate_0_test = {
        void apply(inout bit<8> v, out bit<8> rv) {
            rv = 0;
            if (v == 0) { rv = 1; }
        }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_0) qstate_0_set = {
        void apply(inout bit<8> v) { v = 1; }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_0) qstate_0_clear = {
        void apply(inout bit<8> v) { v = 0; }
    };
    /* slot 0: queue = (active + wait) mod Q by one table keyed by both (no
     * adder and no modulo on the way to the register); index = uplink * 256 + queue by an
     * identity hash (no shifts) */
    action qmod_0_set(queue_t q, bit<1> act) {
        meta.alt_q_0 = q;
        meta.alt_act_0 = act;       // wait 0: the active queue
    }
    table qmod_0 {
        key = {
            meta.active_q: exact @name("active");
            meta.alt_wait_0: exact @name("wait");
        }
        actions = { qmod_0_set; }
        const entries = {
            (0, 0): qmod_0_set(0, 1);
            (0, 1): qmod_0_set(1, 0);
            (0, 2): qmod_0_set(2, 0);
            (0, 3): qmod_0_set(3, 0);
            (0, 4): qmod_0_set(4, 0);
            (0, 5): qmod_0_set(5, 0);
            (0, 6): qmod_0_set(6, 0);
            (0, 7): qmod_0_set(7, 0);
            (0, 8): qmod_0_set(8, 0);
            (0, 9): qmod_0_set(9, 0);
            (0, 10): qmod_0_set(10, 0);
            (0, 11): qmod_0_set(11, 0);
            (0, 12): qmod_0_set(12, 0);
            (0, 13): qmod_0_set(13, 0);
            (0, 14): qmod_0_set(14, 0);
            (0, 15): qmod_0_set(15, 0);
            (0, 16): qmod_0_set(16, 0);
            (0, 17): qmod_0_set(17, 0);
            (0, 18): qmod_0_set(18, 0);
            (0, 19): qmod_0_set(19, 0);
            (0, 20): qmod_0_set(20, 0);
            (0, 21): qmod_0_set(21, 0);
            (0, 22): qmod_0_set(22, 0);
            (0, 23): qmod_0_set(23, 0);
            (0, 24): qmod_0_set(24, 0);
            (0, 25): qmod_0_set(25, 0);
            (0, 26): qmod_0_set(26, 0);
            (0, 27): qmod_0_set(27, 0);
            (0, 28): qmod_0_set(28, 0);
            (0, 29): qmod_0_set(29, 0);
            (0, 30): qmod_0_set(30, 0);
            (0, 31): qmod_0_set(31, 0);
            (1, 0): qmod_0_set(1, 1);
            (1, 1): qmod_0_set(2, 0);
            (1, 2): qmod_0_set(3, 0);
            (1, 3): qmod_0_set(4, 0);
            (1, 4): qmod_0_set(5, 0);
            (1, 5): qmod_0_set(6, 0);
            (1, 6): qmod_0_set(7, 0);
            (1, 7): qmod_0_set(8, 0);
            (1, 8): qmod_0_set(9, 0);
            (1, 9): qmod_0_set(10, 0);
            (1, 10): qmod_0_set(11, 0);
            (1, 11): qmod_0_set(12, 0);
            (1, 12): qmod_0_set(13, 0);
            (1, 13): qmod_0_set(14, 0);
            (1, 14): qmod_0_set(15, 0);
            (1, 15): qmod_0_set(16, 0);
            (1, 16): qmod_0_set(17, 0);
            (1, 17): qmod_0_set(18, 0);
            (1, 18): qmod_0_set(19, 0);
            (1, 19): qmod_0_set(20, 0);
            (1, 20): qmod_0_set(21, 0);
            (1, 21): qmod_0_set(22, 0);
            (1, 22): qmod_0_set(23, 0);
            (1, 23): qmod_0_set(24, 0);
            (1, 24): qmod_0_set(25, 0);
            (1, 25): qmod_0_set(26, 0);
            (1, 26): qmod_0_set(27, 0);
            (1, 27): qmod_0_set(28, 0);
            (1, 28): qmod_0_set(29, 0);
            (1, 29): qmod_0_set(30, 0);
            (1, 30): qmod_0_set(31, 0);
            (1, 31): qmod_0_set(0, 0);
            (2, 0): qmod_0_set(2, 1);
            (2, 1): qmod_0_set(3, 0);
            (2, 2): qmod_0_set(4, 0);
            (2, 3): qmod_0_set(5, 0);
            (2, 4): qmod_0_set(6, 0);
            (2, 5): qmod_0_set(7, 0);
            (2, 6): qmod_0_set(8, 0);
            (2, 7): qmod_0_set(9, 0);
            (2, 8): qmod_0_set(10, 0);
            (2, 9): qmod_0_set(11, 0);
            (2, 10): qmod_0_set(12, 0);
            (2, 11): qmod_0_set(13, 0);
            (2, 12): qmod_0_set(14, 0);
            (2, 13): qmod_0_set(15, 0);
            (2, 14): qmod_0_set(16, 0);
            (2, 15): qmod_0_set(17, 0);
            (2, 16): qmod_0_set(18, 0);
            (2, 17): qmod_0_set(19, 0);
            (2, 18): qmod_0_set(20, 0);
            (2, 19): qmod_0_set(21, 0);
            (2, 20): qmod_0_set(22, 0);
            (2, 21): qmod_0_set(23, 0);
            (2, 22): qmod_0_set(24, 0);
            (2, 23): qmod_0_set(25, 0);
            (2, 24): qmod_0_set(26, 0);
            (2, 25): qmod_0_set(27, 0);
            (2, 26): qmod_0_set(28, 0);
            (2, 27): qmod_0_set(29, 0);
            (2, 28): qmod_0_set(30, 0);
            (2, 29): qmod_0_set(31, 0);
            (2, 30): qmod_0_set(0, 0);
            (2, 31): qmod_0_set(1, 0);
            (3, 0): qmod_0_set(3, 1);
            (3, 1): qmod_0_set(4, 0);
            (3, 2): qmod_0_set(5, 0);
            (3, 3): qmod_0_set(6, 0);
            (3, 4): qmod_0_set(7, 0);
            (3, 5): qmod_0_set(8, 0);
            (3, 6): qmod_0_set(9, 0);
            (3, 7): qmod_0_set(10, 0);
            (3, 8): qmod_0_set(11, 0);
            (3, 9): qmod_0_set(12, 0);
            (3, 10): qmod_0_set(13, 0);
            (3, 11): qmod_0_set(14, 0);
            (3, 12): qmod_0_set(15, 0);
            (3, 13): qmod_0_set(16, 0);
            (3, 14): qmod_0_set(17, 0);
            (3, 15): qmod_0_set(18, 0);
            (3, 16): qmod_0_set(19, 0);
            (3, 17): qmod_0_set(20, 0);
            (3, 18): qmod_0_set(21, 0);
            (3, 19): qmod_0_set(22, 0);
            (3, 20): qmod_0_set(23, 0);
            (3, 21): qmod_0_set(24, 0);
            (3, 22): qmod_0_set(25, 0);
            (3, 23): qmod_0_set(26, 0);
            (3, 24): qmod_0_set(27, 0);
            (3, 25): qmod_0_set(28, 0);
            (3, 26): qmod_0_set(29, 0);
            (3, 27): qmod_0_set(30, 0);
            (3, 28): qmod_0_set(31, 0);
            (3, 29): qmod_0_set(0, 0);
            (3, 30): qmod_0_set(1, 0);
            (3, 31): qmod_0_set(2, 0);
            (4, 0): qmod_0_set(4, 1);
            (4, 1): qmod_0_set(5, 0);
            (4, 2): qmod_0_set(6, 0);
            (4, 3): qmod_0_set(7, 0);
            (4, 4): qmod_0_set(8, 0);
            (4, 5): qmod_0_set(9, 0);
            (4, 6): qmod_0_set(10, 0);
            (4, 7): qmod_0_set(11, 0);
            (4, 8): qmod_0_set(12, 0);
            (4, 9): qmod_0_set(13, 0);
            (4, 10): qmod_0_set(14, 0);
            (4, 11): qmod_0_set(15, 0);
            (4, 12): qmod_0_set(16, 0);
            (4, 13): qmod_0_set(17, 0);
            (4, 14): qmod_0_set(18, 0);
            (4, 15): qmod_0_set(19, 0);
            (4, 16): qmod_0_set(20, 0);
            (4, 17): qmod_0_set(21, 0);
            (4, 18): qmod_0_set(22, 0);
            (4, 19): qmod_0_set(23, 0);
            (4, 20): qmod_0_set(24, 0);
            (4, 21): qmod_0_set(25, 0);
            (4, 22): qmod_0_set(26, 0);
            (4, 23): qmod_0_set(27, 0);
            (4, 24): qmod_0_set(28, 0);
            (4, 25): qmod_0_set(29, 0);
            (4, 26): qmod_0_set(30, 0);
            (4, 27): qmod_0_set(31, 0);
            (4, 28): qmod_0_set(0, 0);
            (4, 29): qmod_0_set(1, 0);
            (4, 30): qmod_0_set(2, 0);
            (4, 31): qmod_0_set(3, 0);
            (5, 0): qmod_0_set(5, 1);
            (5, 1): qmod_0_set(6, 0);
            (5, 2): qmod_0_set(7, 0);
            (5, 3): qmod_0_set(8, 0);
            (5, 4): qmod_0_set(9, 0);
            (5, 5): qmod_0_set(10, 0);
            (5, 6): qmod_0_set(11, 0);
            (5, 7): qmod_0_set(12, 0);
            (5, 8): qmod_0_set(13, 0);
            (5, 9): qmod_0_set(14, 0);
            (5, 10): qmod_0_set(15, 0);
            (5, 11): qmod_0_set(16, 0);
            (5, 12): qmod_0_set(17, 0);
            (5, 13): qmod_0_set(18, 0);
            (5, 14): qmod_0_set(19, 0);
            (5, 15): qmod_0_set(20, 0);
            (5, 16): qmod_0_set(21, 0);
            (5, 17): qmod_0_set(22, 0);
            (5, 18): qmod_0_set(23, 0);
            (5, 19): qmod_0_set(24, 0);
            (5, 20): qmod_0_set(25, 0);
            (5, 21): qmod_0_set(26, 0);
            (5, 22): qmod_0_set(27, 0);
            (5, 23): qmod_0_set(28, 0);
            (5, 24): qmod_0_set(29, 0);
            (5, 25): qmod_0_set(30, 0);
            (5, 26): qmod_0_set(31, 0);
            (5, 27): qmod_0_set(0, 0);
            (5, 28): qmod_0_set(1, 0);
            (5, 29): qmod_0_set(2, 0);
            (5, 30): qmod_0_set(3, 0);
            (5, 31): qmod_0_set(4, 0);
            (6, 0): qmod_0_set(6, 1);
            (6, 1): qmod_0_set(7, 0);
            (6, 2): qmod_0_set(8, 0);
            (6, 3): qmod_0_set(9, 0);
            (6, 4): qmod_0_set(10, 0);
            (6, 5): qmod_0_set(11, 0);
            (6, 6): qmod_0_set(12, 0);
            (6, 7): qmod_0_set(13, 0);
            (6, 8): qmod_0_set(14, 0);
            (6, 9): qmod_0_set(15, 0);
            (6, 10): qmod_0_set(16, 0);
            (6, 11): qmod_0_set(17, 0);
            (6, 12): qmod_0_set(18, 0);
            (6, 13): qmod_0_set(19, 0);
            (6, 14): qmod_0_set(20, 0);
            (6, 15): qmod_0_set(21, 0);
            (6, 16): qmod_0_set(22, 0);
            (6, 17): qmod_0_set(23, 0);
            (6, 18): qmod_0_set(24, 0);
            (6, 19): qmod_0_set(25, 0);
            (6, 20): qmod_0_set(26, 0);
            (6, 21): qmod_0_set(27, 0);
            (6, 22): qmod_0_set(28, 0);
            (6, 23): qmod_0_set(29, 0);
            (6, 24): qmod_0_set(30, 0);
            (6, 25): qmod_0_set(31, 0);
            (6, 26): qmod_0_set(0, 0);
            (6, 27): qmod_0_set(1, 0);
            (6, 28): qmod_0_set(2, 0);
            (6, 29): qmod_0_set(3, 0);
            (6, 30): qmod_0_set(4, 0);
            (6, 31): qmod_0_set(5, 0);
            (7, 0): qmod_0_set(7, 1);
            (7, 1): qmod_0_set(8, 0);
            (7, 2): qmod_0_set(9, 0);
            (7, 3): qmod_0_set(10, 0);
            (7, 4): qmod_0_set(11, 0);
            (7, 5): qmod_0_set(12, 0);
            (7, 6): qmod_0_set(13, 0);
            (7, 7): qmod_0_set(14, 0);
            (7, 8): qmod_0_set(15, 0);
            (7, 9): qmod_0_set(16, 0);
            (7, 10): qmod_0_set(17, 0);
            (7, 11): qmod_0_set(18, 0);
            (7, 12): qmod_0_set(19, 0);
            (7, 13): qmod_0_set(20, 0);
            (7, 14): qmod_0_set(21, 0);
            (7, 15): qmod_0_set(22, 0);
            (7, 16): qmod_0_set(23, 0);
            (7, 17): qmod_0_set(24, 0);
            (7, 18): qmod_0_set(25, 0);
            (7, 19): qmod_0_set(26, 0);
            (7, 20): qmod_0_set(27, 0);
            (7, 21): qmod_0_set(28, 0);
            (7, 22): qmod_0_set(29, 0);
            (7, 23): qmod_0_set(30, 0);
            (7, 24): qmod_0_set(31, 0);
            (7, 25): qmod_0_set(0, 0);
            (7, 26): qmod_0_set(1, 0);
            (7, 27): qmod_0_set(2, 0);
            (7, 28): qmod_0_set(3, 0);
            (7, 29): qmod_0_set(4, 0);
            (7, 30): qmod_0_set(5, 0);
            (7, 31): qmod_0_set(6, 0);
            (8, 0): qmod_0_set(8, 1);
            (8, 1): qmod_0_set(9, 0);
            (8, 2): qmod_0_set(10, 0);
            (8, 3): qmod_0_set(11, 0);
            (8, 4): qmod_0_set(12, 0);
            (8, 5): qmod_0_set(13, 0);
            (8, 6): qmod_0_set(14, 0);
            (8, 7): qmod_0_set(15, 0);
            (8, 8): qmod_0_set(16, 0);
            (8, 9): qmod_0_set(17, 0);
            (8, 10): qmod_0_set(18, 0);
            (8, 11): qmod_0_set(19, 0);
            (8, 12): qmod_0_set(20, 0);
            (8, 13): qmod_0_set(21, 0);
            (8, 14): qmod_0_set(22, 0);
            (8, 15): qmod_0_set(23, 0);
            (8, 16): qmod_0_set(24, 0);
            (8, 17): qmod_0_set(25, 0);
            (8, 18): qmod_0_set(26, 0);
            (8, 19): qmod_0_set(27, 0);
            (8, 20): qmod_0_set(28, 0);
            (8, 21): qmod_0_set(29, 0);
            (8, 22): qmod_0_set(30, 0);
            (8, 23): qmod_0_set(31, 0);
            (8, 24): qmod_0_set(0, 0);
            (8, 25): qmod_0_set(1, 0);
            (8, 26): qmod_0_set(2, 0);
            (8, 27): qmod_0_set(3, 0);
            (8, 28): qmod_0_set(4, 0);
            (8, 29): qmod_0_set(5, 0);
            (8, 30): qmod_0_set(6, 0);
            (8, 31): qmod_0_set(7, 0);
            (9, 0): qmod_0_set(9, 1);
            (9, 1): qmod_0_set(10, 0);
            (9, 2): qmod_0_set(11, 0);
            (9, 3): qmod_0_set(12, 0);
            (9, 4): qmod_0_set(13, 0);
            (9, 5): qmod_0_set(14, 0);
            (9, 6): qmod_0_set(15, 0);
            (9, 7): qmod_0_set(16, 0);
            (9, 8): qmod_0_set(17, 0);
            (9, 9): qmod_0_set(18, 0);
            (9, 10): qmod_0_set(19, 0);
            (9, 11): qmod_0_set(20, 0);
            (9, 12): qmod_0_set(21, 0);
            (9, 13): qmod_0_set(22, 0);
            (9, 14): qmod_0_set(23, 0);
            (9, 15): qmod_0_set(24, 0);
            (9, 16): qmod_0_set(25, 0);
            (9, 17): qmod_0_set(26, 0);
            (9, 18): qmod_0_set(27, 0);
            (9, 19): qmod_0_set(28, 0);
            (9, 20): qmod_0_set(29, 0);
            (9, 21): qmod_0_set(30, 0);
            (9, 22): qmod_0_set(31, 0);
            (9, 23): qmod_0_set(0, 0);
            (9, 24): qmod_0_set(1, 0);
            (9, 25): qmod_0_set(2, 0);
            (9, 26): qmod_0_set(3, 0);
            (9, 27): qmod_0_set(4, 0);
            (9, 28): qmod_0_set(5, 0);
            (9, 29): qmod_0_set(6, 0);
            (9, 30): qmod_0_set(7, 0);
            (9, 31): qmod_0_set(8, 0);
            (10, 0): qmod_0_set(10, 1);
            (10, 1): qmod_0_set(11, 0);
            (10, 2): qmod_0_set(12, 0);
            (10, 3): qmod_0_set(13, 0);
            (10, 4): qmod_0_set(14, 0);
            (10, 5): qmod_0_set(15, 0);
            (10, 6): qmod_0_set(16, 0);
            (10, 7): qmod_0_set(17, 0);
            (10, 8): qmod_0_set(18, 0);
            (10, 9): qmod_0_set(19, 0);
            (10, 10): qmod_0_set(20, 0);
            (10, 11): qmod_0_set(21, 0);
            (10, 12): qmod_0_set(22, 0);
            (10, 13): qmod_0_set(23, 0);
            (10, 14): qmod_0_set(24, 0);
            (10, 15): qmod_0_set(25, 0);
            (10, 16): qmod_0_set(26, 0);
            (10, 17): qmod_0_set(27, 0);
            (10, 18): qmod_0_set(28, 0);
            (10, 19): qmod_0_set(29, 0);
            (10, 20): qmod_0_set(30, 0);
            (10, 21): qmod_0_set(31, 0);
            (10, 22): qmod_0_set(0, 0);
            (10, 23): qmod_0_set(1, 0);
            (10, 24): qmod_0_set(2, 0);
            (10, 25): qmod_0_set(3, 0);
            (10, 26): qmod_0_set(4, 0);
            (10, 27): qmod_0_set(5, 0);
            (10, 28): qmod_0_set(6, 0);
            (10, 29): qmod_0_set(7, 0);
            (10, 30): qmod_0_set(8, 0);
            (10, 31): qmod_0_set(9, 0);
            (11, 0): qmod_0_set(11, 1);
            (11, 1): qmod_0_set(12, 0);
            (11, 2): qmod_0_set(13, 0);
            (11, 3): qmod_0_set(14, 0);
            (11, 4): qmod_0_set(15, 0);
            (11, 5): qmod_0_set(16, 0);
            (11, 6): qmod_0_set(17, 0);
            (11, 7): qmod_0_set(18, 0);
            (11, 8): qmod_0_set(19, 0);
            (11, 9): qmod_0_set(20, 0);
            (11, 10): qmod_0_set(21, 0);
            (11, 11): qmod_0_set(22, 0);
            (11, 12): qmod_0_set(23, 0);
            (11, 13): qmod_0_set(24, 0);
            (11, 14): qmod_0_set(25, 0);
            (11, 15): qmod_0_set(26, 0);
            (11, 16): qmod_0_set(27, 0);
            (11, 17): qmod_0_set(28, 0);
            (11, 18): qmod_0_set(29, 0);
            (11, 19): qmod_0_set(30, 0);
            (11, 20): qmod_0_set(31, 0);
            (11, 21): qmod_0_set(0, 0);
            (11, 22): qmod_0_set(1, 0);
            (11, 23): qmod_0_set(2, 0);
            (11, 24): qmod_0_set(3, 0);
            (11, 25): qmod_0_set(4, 0);
            (11, 26): qmod_0_set(5, 0);
            (11, 27): qmod_0_set(6, 0);
            (11, 28): qmod_0_set(7, 0);
            (11, 29): qmod_0_set(8, 0);
            (11, 30): qmod_0_set(9, 0);
            (11, 31): qmod_0_set(10, 0);
            (12, 0): qmod_0_set(12, 1);
            (12, 1): qmod_0_set(13, 0);
            (12, 2): qmod_0_set(14, 0);
            (12, 3): qmod_0_set(15, 0);
            (12, 4): qmod_0_set(16, 0);
            (12, 5): qmod_0_set(17, 0);
            (12, 6): qmod_0_set(18, 0);
            (12, 7): qmod_0_set(19, 0);
            (12, 8): qmod_0_set(20, 0);
            (12, 9): qmod_0_set(21, 0);
            (12, 10): qmod_0_set(22, 0);
            (12, 11): qmod_0_set(23, 0);
            (12, 12): qmod_0_set(24, 0);
            (12, 13): qmod_0_set(25, 0);
            (12, 14): qmod_0_set(26, 0);
            (12, 15): qmod_0_set(27, 0);
            (12, 16): qmod_0_set(28, 0);
            (12, 17): qmod_0_set(29, 0);
            (12, 18): qmod_0_set(30, 0);
            (12, 19): qmod_0_set(31, 0);
            (12, 20): qmod_0_set(0, 0);
            (12, 21): qmod_0_set(1, 0);
            (12, 22): qmod_0_set(2, 0);
            (12, 23): qmod_0_set(3, 0);
            (12, 24): qmod_0_set(4, 0);
            (12, 25): qmod_0_set(5, 0);
            (12, 26): qmod_0_set(6, 0);
            (12, 27): qmod_0_set(7, 0);
            (12, 28): qmod_0_set(8, 0);
            (12, 29): qmod_0_set(9, 0);
            (12, 30): qmod_0_set(10, 0);
            (12, 31): qmod_0_set(11, 0);
            (13, 0): qmod_0_set(13, 1);
            (13, 1): qmod_0_set(14, 0);
            (13, 2): qmod_0_set(15, 0);
            (13, 3): qmod_0_set(16, 0);
            (13, 4): qmod_0_set(17, 0);
            (13, 5): qmod_0_set(18, 0);
            (13, 6): qmod_0_set(19, 0);
            (13, 7): qmod_0_set(20, 0);
            (13, 8): qmod_0_set(21, 0);
            (13, 9): qmod_0_set(22, 0);
            (13, 10): qmod_0_set(23, 0);
            (13, 11): qmod_0_set(24, 0);
            (13, 12): qmod_0_set(25, 0);
            (13, 13): qmod_0_set(26, 0);
            (13, 14): qmod_0_set(27, 0);
            (13, 15): qmod_0_set(28, 0);
            (13, 16): qmod_0_set(29, 0);
            (13, 17): qmod_0_set(30, 0);
            (13, 18): qmod_0_set(31, 0);
            (13, 19): qmod_0_set(0, 0);
            (13, 20): qmod_0_set(1, 0);
            (13, 21): qmod_0_set(2, 0);
            (13, 22): qmod_0_set(3, 0);
            (13, 23): qmod_0_set(4, 0);
            (13, 24): qmod_0_set(5, 0);
            (13, 25): qmod_0_set(6, 0);
            (13, 26): qmod_0_set(7, 0);
            (13, 27): qmod_0_set(8, 0);
            (13, 28): qmod_0_set(9, 0);
            (13, 29): qmod_0_set(10, 0);
            (13, 30): qmod_0_set(11, 0);
            (13, 31): qmod_0_set(12, 0);
            (14, 0): qmod_0_set(14, 1);
            (14, 1): qmod_0_set(15, 0);
            (14, 2): qmod_0_set(16, 0);
            (14, 3): qmod_0_set(17, 0);
            (14, 4): qmod_0_set(18, 0);
            (14, 5): qmod_0_set(19, 0);
            (14, 6): qmod_0_set(20, 0);
            (14, 7): qmod_0_set(21, 0);
            (14, 8): qmod_0_set(22, 0);
            (14, 9): qmod_0_set(23, 0);
            (14, 10): qmod_0_set(24, 0);
            (14, 11): qmod_0_set(25, 0);
            (14, 12): qmod_0_set(26, 0);
            (14, 13): qmod_0_set(27, 0);
            (14, 14): qmod_0_set(28, 0);
            (14, 15): qmod_0_set(29, 0);
            (14, 16): qmod_0_set(30, 0);
            (14, 17): qmod_0_set(31, 0);
            (14, 18): qmod_0_set(0, 0);
            (14, 19): qmod_0_set(1, 0);
            (14, 20): qmod_0_set(2, 0);
            (14, 21): qmod_0_set(3, 0);
            (14, 22): qmod_0_set(4, 0);
            (14, 23): qmod_0_set(5, 0);
            (14, 24): qmod_0_set(6, 0);
            (14, 25): qmod_0_set(7, 0);
            (14, 26): qmod_0_set(8, 0);
            (14, 27): qmod_0_set(9, 0);
            (14, 28): qmod_0_set(10, 0);
            (14, 29): qmod_0_set(11, 0);
            (14, 30): qmod_0_set(12, 0);
            (14, 31): qmod_0_set(13, 0);
            (15, 0): qmod_0_set(15, 1);
            (15, 1): qmod_0_set(16, 0);
            (15, 2): qmod_0_set(17, 0);
            (15, 3): qmod_0_set(18, 0);
            (15, 4): qmod_0_set(19, 0);
            (15, 5): qmod_0_set(20, 0);
            (15, 6): qmod_0_set(21, 0);
            (15, 7): qmod_0_set(22, 0);
            (15, 8): qmod_0_set(23, 0);
            (15, 9): qmod_0_set(24, 0);
            (15, 10): qmod_0_set(25, 0);
            (15, 11): qmod_0_set(26, 0);
            (15, 12): qmod_0_set(27, 0);
            (15, 13): qmod_0_set(28, 0);
            (15, 14): qmod_0_set(29, 0);
            (15, 15): qmod_0_set(30, 0);
            (15, 16): qmod_0_set(31, 0);
            (15, 17): qmod_0_set(0, 0);
            (15, 18): qmod_0_set(1, 0);
            (15, 19): qmod_0_set(2, 0);
            (15, 20): qmod_0_set(3, 0);
            (15, 21): qmod_0_set(4, 0);
            (15, 22): qmod_0_set(5, 0);
            (15, 23): qmod_0_set(6, 0);
            (15, 24): qmod_0_set(7, 0);
            (15, 25): qmod_0_set(8, 0);
            (15, 26): qmod_0_set(9, 0);
            (15, 27): qmod_0_set(10, 0);
            (15, 28): qmod_0_set(11, 0);
            (15, 29): qmod_0_set(12, 0);
            (15, 30): qmod_0_set(13, 0);
            (15, 31): qmod_0_set(14, 0);
            (16, 0): qmod_0_set(16, 1);
            (16, 1): qmod_0_set(17, 0);
            (16, 2): qmod_0_set(18, 0);
            (16, 3): qmod_0_set(19, 0);
            (16, 4): qmod_0_set(20, 0);
            (16, 5): qmod_0_set(21, 0);
            (16, 6): qmod_0_set(22, 0);
            (16, 7): qmod_0_set(23, 0);
            (16, 8): qmod_0_set(24, 0);
            (16, 9): qmod_0_set(25, 0);
            (16, 10): qmod_0_set(26, 0);
            (16, 11): qmod_0_set(27, 0);
            (16, 12): qmod_0_set(28, 0);
            (16, 13): qmod_0_set(29, 0);
            (16, 14): qmod_0_set(30, 0);
            (16, 15): qmod_0_set(31, 0);
            (16, 16): qmod_0_set(0, 0);
            (16, 17): qmod_0_set(1, 0);
            (16, 18): qmod_0_set(2, 0);
            (16, 19): qmod_0_set(3, 0);
            (16, 20): qmod_0_set(4, 0);
            (16, 21): qmod_0_set(5, 0);
            (16, 22): qmod_0_set(6, 0);
            (16, 23): qmod_0_set(7, 0);
            (16, 24): qmod_0_set(8, 0);
            (16, 25): qmod_0_set(9, 0);
            (16, 26): qmod_0_set(10, 0);
            (16, 27): qmod_0_set(11, 0);
            (16, 28): qmod_0_set(12, 0);
            (16, 29): qmod_0_set(13, 0);
            (16, 30): qmod_0_set(14, 0);
            (16, 31): qmod_0_set(15, 0);
            (17, 0): qmod_0_set(17, 1);
            (17, 1): qmod_0_set(18, 0);
            (17, 2): qmod_0_set(19, 0);
            (17, 3): qmod_0_set(20, 0);
            (17, 4): qmod_0_set(21, 0);
            (17, 5): qmod_0_set(22, 0);
            (17, 6): qmod_0_set(23, 0);
            (17, 7): qmod_0_set(24, 0);
            (17, 8): qmod_0_set(25, 0);
            (17, 9): qmod_0_set(26, 0);
            (17, 10): qmod_0_set(27, 0);
            (17, 11): qmod_0_set(28, 0);
            (17, 12): qmod_0_set(29, 0);
            (17, 13): qmod_0_set(30, 0);
            (17, 14): qmod_0_set(31, 0);
            (17, 15): qmod_0_set(0, 0);
            (17, 16): qmod_0_set(1, 0);
            (17, 17): qmod_0_set(2, 0);
            (17, 18): qmod_0_set(3, 0);
            (17, 19): qmod_0_set(4, 0);
            (17, 20): qmod_0_set(5, 0);
            (17, 21): qmod_0_set(6, 0);
            (17, 22): qmod_0_set(7, 0);
            (17, 23): qmod_0_set(8, 0);
            (17, 24): qmod_0_set(9, 0);
            (17, 25): qmod_0_set(10, 0);
            (17, 26): qmod_0_set(11, 0);
            (17, 27): qmod_0_set(12, 0);
            (17, 28): qmod_0_set(13, 0);
            (17, 29): qmod_0_set(14, 0);
            (17, 30): qmod_0_set(15, 0);
            (17, 31): qmod_0_set(16, 0);
            (18, 0): qmod_0_set(18, 1);
            (18, 1): qmod_0_set(19, 0);
            (18, 2): qmod_0_set(20, 0);
            (18, 3): qmod_0_set(21, 0);
            (18, 4): qmod_0_set(22, 0);
            (18, 5): qmod_0_set(23, 0);
            (18, 6): qmod_0_set(24, 0);
            (18, 7): qmod_0_set(25, 0);
            (18, 8): qmod_0_set(26, 0);
            (18, 9): qmod_0_set(27, 0);
            (18, 10): qmod_0_set(28, 0);
            (18, 11): qmod_0_set(29, 0);
            (18, 12): qmod_0_set(30, 0);
            (18, 13): qmod_0_set(31, 0);
            (18, 14): qmod_0_set(0, 0);
            (18, 15): qmod_0_set(1, 0);
            (18, 16): qmod_0_set(2, 0);
            (18, 17): qmod_0_set(3, 0);
            (18, 18): qmod_0_set(4, 0);
            (18, 19): qmod_0_set(5, 0);
            (18, 20): qmod_0_set(6, 0);
            (18, 21): qmod_0_set(7, 0);
            (18, 22): qmod_0_set(8, 0);
            (18, 23): qmod_0_set(9, 0);
            (18, 24): qmod_0_set(10, 0);
            (18, 25): qmod_0_set(11, 0);
            (18, 26): qmod_0_set(12, 0);
            (18, 27): qmod_0_set(13, 0);
            (18, 28): qmod_0_set(14, 0);
            (18, 29): qmod_0_set(15, 0);
            (18, 30): qmod_0_set(16, 0);
            (18, 31): qmod_0_set(17, 0);
            (19, 0): qmod_0_set(19, 1);
            (19, 1): qmod_0_set(20, 0);
            (19, 2): qmod_0_set(21, 0);
            (19, 3): qmod_0_set(22, 0);
            (19, 4): qmod_0_set(23, 0);
            (19, 5): qmod_0_set(24, 0);
            (19, 6): qmod_0_set(25, 0);
            (19, 7): qmod_0_set(26, 0);
            (19, 8): qmod_0_set(27, 0);
            (19, 9): qmod_0_set(28, 0);
            (19, 10): qmod_0_set(29, 0);
            (19, 11): qmod_0_set(30, 0);
            (19, 12): qmod_0_set(31, 0);
            (19, 13): qmod_0_set(0, 0);
            (19, 14): qmod_0_set(1, 0);
            (19, 15): qmod_0_set(2, 0);
            (19, 16): qmod_0_set(3, 0);
            (19, 17): qmod_0_set(4, 0);
            (19, 18): qmod_0_set(5, 0);
            (19, 19): qmod_0_set(6, 0);
            (19, 20): qmod_0_set(7, 0);
            (19, 21): qmod_0_set(8, 0);
            (19, 22): qmod_0_set(9, 0);
            (19, 23): qmod_0_set(10, 0);
            (19, 24): qmod_0_set(11, 0);
            (19, 25): qmod_0_set(12, 0);
            (19, 26): qmod_0_set(13, 0);
            (19, 27): qmod_0_set(14, 0);
            (19, 28): qmod_0_set(15, 0);
            (19, 29): qmod_0_set(16, 0);
            (19, 30): qmod_0_set(17, 0);
            (19, 31): qmod_0_set(18, 0);
            (20, 0): qmod_0_set(20, 1);
            (20, 1): qmod_0_set(21, 0);
            (20, 2): qmod_0_set(22, 0);
            (20, 3): qmod_0_set(23, 0);
            (20, 4): qmod_0_set(24, 0);
            (20, 5): qmod_0_set(25, 0);
            (20, 6): qmod_0_set(26, 0);
            (20, 7): qmod_0_set(27, 0);
            (20, 8): qmod_0_set(28, 0);
            (20, 9): qmod_0_set(29, 0);
            (20, 10): qmod_0_set(30, 0);
            (20, 11): qmod_0_set(31, 0);
            (20, 12): qmod_0_set(0, 0);
            (20, 13): qmod_0_set(1, 0);
            (20, 14): qmod_0_set(2, 0);
            (20, 15): qmod_0_set(3, 0);
            (20, 16): qmod_0_set(4, 0);
            (20, 17): qmod_0_set(5, 0);
            (20, 18): qmod_0_set(6, 0);
            (20, 19): qmod_0_set(7, 0);
            (20, 20): qmod_0_set(8, 0);
            (20, 21): qmod_0_set(9, 0);
            (20, 22): qmod_0_set(10, 0);
            (20, 23): qmod_0_set(11, 0);
            (20, 24): qmod_0_set(12, 0);
            (20, 25): qmod_0_set(13, 0);
            (20, 26): qmod_0_set(14, 0);
            (20, 27): qmod_0_set(15, 0);
            (20, 28): qmod_0_set(16, 0);
            (20, 29): qmod_0_set(17, 0);
            (20, 30): qmod_0_set(18, 0);
            (20, 31): qmod_0_set(19, 0);
            (21, 0): qmod_0_set(21, 1);
            (21, 1): qmod_0_set(22, 0);
            (21, 2): qmod_0_set(23, 0);
            (21, 3): qmod_0_set(24, 0);
            (21, 4): qmod_0_set(25, 0);
            (21, 5): qmod_0_set(26, 0);
            (21, 6): qmod_0_set(27, 0);
            (21, 7): qmod_0_set(28, 0);
            (21, 8): qmod_0_set(29, 0);
            (21, 9): qmod_0_set(30, 0);
            (21, 10): qmod_0_set(31, 0);
            (21, 11): qmod_0_set(0, 0);
            (21, 12): qmod_0_set(1, 0);
            (21, 13): qmod_0_set(2, 0);
            (21, 14): qmod_0_set(3, 0);
            (21, 15): qmod_0_set(4, 0);
            (21, 16): qmod_0_set(5, 0);
            (21, 17): qmod_0_set(6, 0);
            (21, 18): qmod_0_set(7, 0);
            (21, 19): qmod_0_set(8, 0);
            (21, 20): qmod_0_set(9, 0);
            (21, 21): qmod_0_set(10, 0);
            (21, 22): qmod_0_set(11, 0);
            (21, 23): qmod_0_set(12, 0);
            (21, 24): qmod_0_set(13, 0);
            (21, 25): qmod_0_set(14, 0);
            (21, 26): qmod_0_set(15, 0);
            (21, 27): qmod_0_set(16, 0);
            (21, 28): qmod_0_set(17, 0);
            (21, 29): qmod_0_set(18, 0);
            (21, 30): qmod_0_set(19, 0);
            (21, 31): qmod_0_set(20, 0);
            (22, 0): qmod_0_set(22, 1);
            (22, 1): qmod_0_set(23, 0);
            (22, 2): qmod_0_set(24, 0);
            (22, 3): qmod_0_set(25, 0);
            (22, 4): qmod_0_set(26, 0);
            (22, 5): qmod_0_set(27, 0);
            (22, 6): qmod_0_set(28, 0);
            (22, 7): qmod_0_set(29, 0);
            (22, 8): qmod_0_set(30, 0);
            (22, 9): qmod_0_set(31, 0);
            (22, 10): qmod_0_set(0, 0);
            (22, 11): qmod_0_set(1, 0);
            (22, 12): qmod_0_set(2, 0);
            (22, 13): qmod_0_set(3, 0);
            (22, 14): qmod_0_set(4, 0);
            (22, 15): qmod_0_set(5, 0);
            (22, 16): qmod_0_set(6, 0);
            (22, 17): qmod_0_set(7, 0);
            (22, 18): qmod_0_set(8, 0);
            (22, 19): qmod_0_set(9, 0);
            (22, 20): qmod_0_set(10, 0);
            (22, 21): qmod_0_set(11, 0);
            (22, 22): qmod_0_set(12, 0);
            (22, 23): qmod_0_set(13, 0);
            (22, 24): qmod_0_set(14, 0);
            (22, 25): qmod_0_set(15, 0);
            (22, 26): qmod_0_set(16, 0);
            (22, 27): qmod_0_set(17, 0);
            (22, 28): qmod_0_set(18, 0);
            (22, 29): qmod_0_set(19, 0);
            (22, 30): qmod_0_set(20, 0);
            (22, 31): qmod_0_set(21, 0);
            (23, 0): qmod_0_set(23, 1);
            (23, 1): qmod_0_set(24, 0);
            (23, 2): qmod_0_set(25, 0);
            (23, 3): qmod_0_set(26, 0);
            (23, 4): qmod_0_set(27, 0);
            (23, 5): qmod_0_set(28, 0);
            (23, 6): qmod_0_set(29, 0);
            (23, 7): qmod_0_set(30, 0);
            (23, 8): qmod_0_set(31, 0);
            (23, 9): qmod_0_set(0, 0);
            (23, 10): qmod_0_set(1, 0);
            (23, 11): qmod_0_set(2, 0);
            (23, 12): qmod_0_set(3, 0);
            (23, 13): qmod_0_set(4, 0);
            (23, 14): qmod_0_set(5, 0);
            (23, 15): qmod_0_set(6, 0);
            (23, 16): qmod_0_set(7, 0);
            (23, 17): qmod_0_set(8, 0);
            (23, 18): qmod_0_set(9, 0);
            (23, 19): qmod_0_set(10, 0);
            (23, 20): qmod_0_set(11, 0);
            (23, 21): qmod_0_set(12, 0);
            (23, 22): qmod_0_set(13, 0);
            (23, 23): qmod_0_set(14, 0);
            (23, 24): qmod_0_set(15, 0);
            (23, 25): qmod_0_set(16, 0);
            (23, 26): qmod_0_set(17, 0);
            (23, 27): qmod_0_set(18, 0);
            (23, 28): qmod_0_set(19, 0);
            (23, 29): qmod_0_set(20, 0);
            (23, 30): qmod_0_set(21, 0);
            (23, 31): qmod_0_set(22, 0);
            (24, 0): qmod_0_set(24, 1);
            (24, 1): qmod_0_set(25, 0);
            (24, 2): qmod_0_set(26, 0);
            (24, 3): qmod_0_set(27, 0);
            (24, 4): qmod_0_set(28, 0);
            (24, 5): qmod_0_set(29, 0);
            (24, 6): qmod_0_set(30, 0);
            (24, 7): qmod_0_set(31, 0);
            (24, 8): qmod_0_set(0, 0);
            (24, 9): qmod_0_set(1, 0);
            (24, 10): qmod_0_set(2, 0);
            (24, 11): qmod_0_set(3, 0);
            (24, 12): qmod_0_set(4, 0);
            (24, 13): qmod_0_set(5, 0);
            (24, 14): qmod_0_set(6, 0);
            (24, 15): qmod_0_set(7, 0);
            (24, 16): qmod_0_set(8, 0);
            (24, 17): qmod_0_set(9, 0);
            (24, 18): qmod_0_set(10, 0);
            (24, 19): qmod_0_set(11, 0);
            (24, 20): qmod_0_set(12, 0);
            (24, 21): qmod_0_set(13, 0);
            (24, 22): qmod_0_set(14, 0);
            (24, 23): qmod_0_set(15, 0);
            (24, 24): qmod_0_set(16, 0);
            (24, 25): qmod_0_set(17, 0);
            (24, 26): qmod_0_set(18, 0);
            (24, 27): qmod_0_set(19, 0);
            (24, 28): qmod_0_set(20, 0);
            (24, 29): qmod_0_set(21, 0);
            (24, 30): qmod_0_set(22, 0);
            (24, 31): qmod_0_set(23, 0);
            (25, 0): qmod_0_set(25, 1);
            (25, 1): qmod_0_set(26, 0);
            (25, 2): qmod_0_set(27, 0);
            (25, 3): qmod_0_set(28, 0);
            (25, 4): qmod_0_set(29, 0);
            (25, 5): qmod_0_set(30, 0);
            (25, 6): qmod_0_set(31, 0);
            (25, 7): qmod_0_set(0, 0);
            (25, 8): qmod_0_set(1, 0);
            (25, 9): qmod_0_set(2, 0);
            (25, 10): qmod_0_set(3, 0);
            (25, 11): qmod_0_set(4, 0);
            (25, 12): qmod_0_set(5, 0);
            (25, 13): qmod_0_set(6, 0);
            (25, 14): qmod_0_set(7, 0);
            (25, 15): qmod_0_set(8, 0);
            (25, 16): qmod_0_set(9, 0);
            (25, 17): qmod_0_set(10, 0);
            (25, 18): qmod_0_set(11, 0);
            (25, 19): qmod_0_set(12, 0);
            (25, 20): qmod_0_set(13, 0);
            (25, 21): qmod_0_set(14, 0);
            (25, 22): qmod_0_set(15, 0);
            (25, 23): qmod_0_set(16, 0);
            (25, 24): qmod_0_set(17, 0);
            (25, 25): qmod_0_set(18, 0);
            (25, 26): qmod_0_set(19, 0);
            (25, 27): qmod_0_set(20, 0);
            (25, 28): qmod_0_set(21, 0);
            (25, 29): qmod_0_set(22, 0);
            (25, 30): qmod_0_set(23, 0);
            (25, 31): qmod_0_set(24, 0);
            (26, 0): qmod_0_set(26, 1);
            (26, 1): qmod_0_set(27, 0);
            (26, 2): qmod_0_set(28, 0);
            (26, 3): qmod_0_set(29, 0);
            (26, 4): qmod_0_set(30, 0);
            (26, 5): qmod_0_set(31, 0);
            (26, 6): qmod_0_set(0, 0);
            (26, 7): qmod_0_set(1, 0);
            (26, 8): qmod_0_set(2, 0);
            (26, 9): qmod_0_set(3, 0);
            (26, 10): qmod_0_set(4, 0);
            (26, 11): qmod_0_set(5, 0);
            (26, 12): qmod_0_set(6, 0);
            (26, 13): qmod_0_set(7, 0);
            (26, 14): qmod_0_set(8, 0);
            (26, 15): qmod_0_set(9, 0);
            (26, 16): qmod_0_set(10, 0);
            (26, 17): qmod_0_set(11, 0);
            (26, 18): qmod_0_set(12, 0);
            (26, 19): qmod_0_set(13, 0);
            (26, 20): qmod_0_set(14, 0);
            (26, 21): qmod_0_set(15, 0);
            (26, 22): qmod_0_set(16, 0);
            (26, 23): qmod_0_set(17, 0);
            (26, 24): qmod_0_set(18, 0);
            (26, 25): qmod_0_set(19, 0);
            (26, 26): qmod_0_set(20, 0);
            (26, 27): qmod_0_set(21, 0);
            (26, 28): qmod_0_set(22, 0);
            (26, 29): qmod_0_set(23, 0);
            (26, 30): qmod_0_set(24, 0);
            (26, 31): qmod_0_set(25, 0);
            (27, 0): qmod_0_set(27, 1);
            (27, 1): qmod_0_set(28, 0);
            (27, 2): qmod_0_set(29, 0);
            (27, 3): qmod_0_set(30, 0);
            (27, 4): qmod_0_set(31, 0);
            (27, 5): qmod_0_set(0, 0);
            (27, 6): qmod_0_set(1, 0);
            (27, 7): qmod_0_set(2, 0);
            (27, 8): qmod_0_set(3, 0);
            (27, 9): qmod_0_set(4, 0);
            (27, 10): qmod_0_set(5, 0);
            (27, 11): qmod_0_set(6, 0);
            (27, 12): qmod_0_set(7, 0);
            (27, 13): qmod_0_set(8, 0);
            (27, 14): qmod_0_set(9, 0);
            (27, 15): qmod_0_set(10, 0);
            (27, 16): qmod_0_set(11, 0);
            (27, 17): qmod_0_set(12, 0);
            (27, 18): qmod_0_set(13, 0);
            (27, 19): qmod_0_set(14, 0);
            (27, 20): qmod_0_set(15, 0);
            (27, 21): qmod_0_set(16, 0);
            (27, 22): qmod_0_set(17, 0);
            (27, 23): qmod_0_set(18, 0);
            (27, 24): qmod_0_set(19, 0);
            (27, 25): qmod_0_set(20, 0);
            (27, 26): qmod_0_set(21, 0);
            (27, 27): qmod_0_set(22, 0);
            (27, 28): qmod_0_set(23, 0);
            (27, 29): qmod_0_set(24, 0);
            (27, 30): qmod_0_set(25, 0);
            (27, 31): qmod_0_set(26, 0);
            (28, 0): qmod_0_set(28, 1);
            (28, 1): qmod_0_set(29, 0);
            (28, 2): qmod_0_set(30, 0);
            (28, 3): qmod_0_set(31, 0);
            (28, 4): qmod_0_set(0, 0);
            (28, 5): qmod_0_set(1, 0);
            (28, 6): qmod_0_set(2, 0);
            (28, 7): qmod_0_set(3, 0);
            (28, 8): qmod_0_set(4, 0);
            (28, 9): qmod_0_set(5, 0);
            (28, 10): qmod_0_set(6, 0);
            (28, 11): qmod_0_set(7, 0);
            (28, 12): qmod_0_set(8, 0);
            (28, 13): qmod_0_set(9, 0);
            (28, 14): qmod_0_set(10, 0);
            (28, 15): qmod_0_set(11, 0);
            (28, 16): qmod_0_set(12, 0);
            (28, 17): qmod_0_set(13, 0);
            (28, 18): qmod_0_set(14, 0);
            (28, 19): qmod_0_set(15, 0);
            (28, 20): qmod_0_set(16, 0);
            (28, 21): qmod_0_set(17, 0);
            (28, 22): qmod_0_set(18, 0);
            (28, 23): qmod_0_set(19, 0);
            (28, 24): qmod_0_set(20, 0);
            (28, 25): qmod_0_set(21, 0);
            (28, 26): qmod_0_set(22, 0);
            (28, 27): qmod_0_set(23, 0);
            (28, 28): qmod_0_set(24, 0);
            (28, 29): qmod_0_set(25, 0);
            (28, 30): qmod_0_set(26, 0);
            (28, 31): qmod_0_set(27, 0);
            (29, 0): qmod_0_set(29, 1);
            (29, 1): qmod_0_set(30, 0);
            (29, 2): qmod_0_set(31, 0);
            (29, 3): qmod_0_set(0, 0);
            (29, 4): qmod_0_set(1, 0);
            (29, 5): qmod_0_set(2, 0);
            (29, 6): qmod_0_set(3, 0);
            (29, 7): qmod_0_set(4, 0);
            (29, 8): qmod_0_set(5, 0);
            (29, 9): qmod_0_set(6, 0);
            (29, 10): qmod_0_set(7, 0);
            (29, 11): qmod_0_set(8, 0);
            (29, 12): qmod_0_set(9, 0);
            (29, 13): qmod_0_set(10, 0);
            (29, 14): qmod_0_set(11, 0);
            (29, 15): qmod_0_set(12, 0);
            (29, 16): qmod_0_set(13, 0);
            (29, 17): qmod_0_set(14, 0);
            (29, 18): qmod_0_set(15, 0);
            (29, 19): qmod_0_set(16, 0);
            (29, 20): qmod_0_set(17, 0);
            (29, 21): qmod_0_set(18, 0);
            (29, 22): qmod_0_set(19, 0);
            (29, 23): qmod_0_set(20, 0);
            (29, 24): qmod_0_set(21, 0);
            (29, 25): qmod_0_set(22, 0);
            (29, 26): qmod_0_set(23, 0);
            (29, 27): qmod_0_set(24, 0);
            (29, 28): qmod_0_set(25, 0);
            (29, 29): qmod_0_set(26, 0);
            (29, 30): qmod_0_set(27, 0);
            (29, 31): qmod_0_set(28, 0);
            (30, 0): qmod_0_set(30, 1);
            (30, 1): qmod_0_set(31, 0);
            (30, 2): qmod_0_set(0, 0);
            (30, 3): qmod_0_set(1, 0);
            (30, 4): qmod_0_set(2, 0);
            (30, 5): qmod_0_set(3, 0);
            (30, 6): qmod_0_set(4, 0);
            (30, 7): qmod_0_set(5, 0);
            (30, 8): qmod_0_set(6, 0);
            (30, 9): qmod_0_set(7, 0);
            (30, 10): qmod_0_set(8, 0);
            (30, 11): qmod_0_set(9, 0);
            (30, 12): qmod_0_set(10, 0);
            (30, 13): qmod_0_set(11, 0);
            (30, 14): qmod_0_set(12, 0);
            (30, 15): qmod_0_set(13, 0);
            (30, 16): qmod_0_set(14, 0);
            (30, 17): qmod_0_set(15, 0);
            (30, 18): qmod_0_set(16, 0);
            (30, 19): qmod_0_set(17, 0);
            (30, 20): qmod_0_set(18, 0);
            (30, 21): qmod_0_set(19, 0);
            (30, 22): qmod_0_set(20, 0);
            (30, 23): qmod_0_set(21, 0);
            (30, 24): qmod_0_set(22, 0);
            (30, 25): qmod_0_set(23, 0);
            (30, 26): qmod_0_set(24, 0);
            (30, 27): qmod_0_set(25, 0);
            (30, 28): qmod_0_set(26, 0);
            (30, 29): qmod_0_set(27, 0);
            (30, 30): qmod_0_set(28, 0);
            (30, 31): qmod_0_set(29, 0);
            (31, 0): qmod_0_set(31, 1);
            (31, 1): qmod_0_set(0, 0);
            (31, 2): qmod_0_set(1, 0);
            (31, 3): qmod_0_set(2, 0);
            (31, 4): qmod_0_set(3, 0);
            (31, 5): qmod_0_set(4, 0);
            (31, 6): qmod_0_set(5, 0);
            (31, 7): qmod_0_set(6, 0);
            (31, 8): qmod_0_set(7, 0);
            (31, 9): qmod_0_set(8, 0);
            (31, 10): qmod_0_set(9, 0);
            (31, 11): qmod_0_set(10, 0);
            (31, 12): qmod_0_set(11, 0);
            (31, 13): qmod_0_set(12, 0);
            (31, 14): qmod_0_set(13, 0);
            (31, 15): qmod_0_set(14, 0);
            (31, 16): qmod_0_set(15, 0);
            (31, 17): qmod_0_set(16, 0);
            (31, 18): qmod_0_set(17, 0);
            (31, 19): qmod_0_set(18, 0);
            (31, 20): qmod_0_set(19, 0);
            (31, 21): qmod_0_set(20, 0);
            (31, 22): qmod_0_set(21, 0);
            (31, 23): qmod_0_set(22, 0);
            (31, 24): qmod_0_set(23, 0);
            (31, 25): qmod_0_set(24, 0);
            (31, 26): qmod_0_set(25, 0);
            (31, 27): qmod_0_set(26, 0);
            (31, 28): qmod_0_set(27, 0);
            (31, 29): qmod_0_set(28, 0);
            (31, 30): qmod_0_set(29, 0);
            (31, 31): qmod_0_set(30, 0);
        }
        size = 1024;
    }
    Hash<qidx_t>(HashAlgorithm_t.IDENTITY) qidx_0_hash;
    action slot_0_ok() { meta.alt_ok_0 = meta.alt_pre_0 & meta.alt_unfull_0; }
    /* copy 0's one access per packet, by what the packet is (q_op): a front-panel packet
     * tests slot 0's queue, a pause clears a drained queue, a port-down or queue-state
     * update sets it. One table per copy, so each stage's stateful ALUs take four copies. */
    action q_0_test() { meta.alt_unfull_0 = qstate_0_test.execute(meta.alt_i_0); }
    action q_0_set() { qstate_0_set.execute(meta.alt_i_0); }
    action q_0_clear() { qstate_0_clear.execute(meta.alt_i_0); }
    table qstate_0_op {
        key = { meta.q_op: exact; }
        actions = { q_0_test; q_0_set; q_0_clear; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            Q_TEST: q_0_test();
            Q_SET: q_0_set();
            Q_CLEAR: q_0_clear();
        }
        size = 3;
    }
    action slot_0_i() { meta.alt_i_0 = qidx_0_hash.get({meta.alt_up_0, meta.alt_q_0}); }
    /* slot 0's uplink masked down by the control plane (the config's `down`): the slot
     * counts as Full (as bmv2: a failed uplink is passed over). One ternary entry per uplink
     * tests its bit of the mask (no shift of the mask by a packet's field). */
    action slot_0_down() { meta.alt_dn_0 = 1; }
    table down_0 {
        key = {
            meta.alt_up_0: exact @name("uplink");
            meta.down_cfg: ternary @name("down");
        }
        actions = { slot_0_down; NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0x1 &&& 0x1): slot_0_down();
            (1, 0x2 &&& 0x2): slot_0_down();
            (2, 0x4 &&& 0x4): slot_0_down();
            (3, 0x8 &&& 0x8): slot_0_down();
            (4, 0x10 &&& 0x10): slot_0_down();
            (5, 0x20 &&& 0x20): slot_0_down();
            (6, 0x40 &&& 0x40): slot_0_down();
            (7, 0x80 &&& 0x80): slot_0_down();
            (8, 0x100 &&& 0x100): slot_0_down();
            (9, 0x200 &&& 0x200): slot_0_down();
            (10, 0x400 &&& 0x400): slot_0_down();
            (11, 0x800 &&& 0x800): slot_0_down();
            (12, 0x1000 &&& 0x1000): slot_0_down();
            (13, 0x2000 &&& 0x2000): slot_0_down();
            (14, 0x4000 &&& 0x4000): slot_0_down();
            (15, 0x8000 &&& 0x8000): slot_0_down();
            (16, 0x10000 &&& 0x10000): slot_0_down();
            (17, 0x20000 &&& 0x20000): slot_0_down();
            (18, 0x40000 &&& 0x40000): slot_0_down();
            (19, 0x80000 &&& 0x80000): slot_0_down();
            (20, 0x100000 &&& 0x100000): slot_0_down();
            (21, 0x200000 &&& 0x200000): slot_0_down();
            (22, 0x400000 &&& 0x400000): slot_0_down();
            (23, 0x800000 &&& 0x800000): slot_0_down();
            (24, 0x1000000 &&& 0x1000000): slot_0_down();
            (25, 0x2000000 &&& 0x2000000): slot_0_down();
            (26, 0x4000000 &&& 0x4000000): slot_0_down();
            (27, 0x8000000 &&& 0x8000000): slot_0_down();
            (28, 0x10000000 &&& 0x10000000): slot_0_down();
            (29, 0x20000000 &&& 0x20000000): slot_0_down();
            (30, 0x40000000 &&& 0x40000000): slot_0_down();
            (31, 0x80000000 &&& 0x80000000): slot_0_down();
        }
        size = 32;
    }
    Register<bit<8>, qidx_t>(8192, 0) qstate_1;
    /* the one-shot test: 1 if the queue is Unfull */
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_1) qstate_1_test = {
        void apply(inout bit<8> v, out bit<8> rv) {
            rv = 0;
            if (v == 0) { rv = 1; }
        }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_1) qstate_1_set = {
        void apply(inout bit<8> v) { v = 1; }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_1) qstate_1_clear = {
        void apply(inout bit<8> v) { v = 0; }
    };
    /* slot 1: queue = (active + wait) mod Q by one table keyed by both (no
     * adder and no modulo on the way to the register); index = uplink * 256 + queue by an
     * identity hash (no shifts) */
    action qmod_1_set(queue_t q, bit<1> act) {
        meta.alt_q_1 = q;
        meta.alt_act_1 = act;       // wait 0: the active queue
    }
    table qmod_1 {
        key = {
            meta.active_q: exact @name("active");
            meta.alt_wait_1: exact @name("wait");
        }
        actions = { qmod_1_set; }
        const entries = {
            (0, 0): qmod_1_set(0, 1);
            (0, 1): qmod_1_set(1, 0);
            (0, 2): qmod_1_set(2, 0);
            (0, 3): qmod_1_set(3, 0);
            (0, 4): qmod_1_set(4, 0);
            (0, 5): qmod_1_set(5, 0);
            (0, 6): qmod_1_set(6, 0);
            (0, 7): qmod_1_set(7, 0);
            (0, 8): qmod_1_set(8, 0);
            (0, 9): qmod_1_set(9, 0);
            (0, 10): qmod_1_set(10, 0);
            (0, 11): qmod_1_set(11, 0);
            (0, 12): qmod_1_set(12, 0);
            (0, 13): qmod_1_set(13, 0);
            (0, 14): qmod_1_set(14, 0);
            (0, 15): qmod_1_set(15, 0);
            (0, 16): qmod_1_set(16, 0);
            (0, 17): qmod_1_set(17, 0);
            (0, 18): qmod_1_set(18, 0);
            (0, 19): qmod_1_set(19, 0);
            (0, 20): qmod_1_set(20, 0);
            (0, 21): qmod_1_set(21, 0);
            (0, 22): qmod_1_set(22, 0);
            (0, 23): qmod_1_set(23, 0);
            (0, 24): qmod_1_set(24, 0);
            (0, 25): qmod_1_set(25, 0);
            (0, 26): qmod_1_set(26, 0);
            (0, 27): qmod_1_set(27, 0);
            (0, 28): qmod_1_set(28, 0);
            (0, 29): qmod_1_set(29, 0);
            (0, 30): qmod_1_set(30, 0);
            (0, 31): qmod_1_set(31, 0);
            (1, 0): qmod_1_set(1, 1);
            (1, 1): qmod_1_set(2, 0);
            (1, 2): qmod_1_set(3, 0);
            (1, 3): qmod_1_set(4, 0);
            (1, 4): qmod_1_set(5, 0);
            (1, 5): qmod_1_set(6, 0);
            (1, 6): qmod_1_set(7, 0);
            (1, 7): qmod_1_set(8, 0);
            (1, 8): qmod_1_set(9, 0);
            (1, 9): qmod_1_set(10, 0);
            (1, 10): qmod_1_set(11, 0);
            (1, 11): qmod_1_set(12, 0);
            (1, 12): qmod_1_set(13, 0);
            (1, 13): qmod_1_set(14, 0);
            (1, 14): qmod_1_set(15, 0);
            (1, 15): qmod_1_set(16, 0);
            (1, 16): qmod_1_set(17, 0);
            (1, 17): qmod_1_set(18, 0);
            (1, 18): qmod_1_set(19, 0);
            (1, 19): qmod_1_set(20, 0);
            (1, 20): qmod_1_set(21, 0);
            (1, 21): qmod_1_set(22, 0);
            (1, 22): qmod_1_set(23, 0);
            (1, 23): qmod_1_set(24, 0);
            (1, 24): qmod_1_set(25, 0);
            (1, 25): qmod_1_set(26, 0);
            (1, 26): qmod_1_set(27, 0);
            (1, 27): qmod_1_set(28, 0);
            (1, 28): qmod_1_set(29, 0);
            (1, 29): qmod_1_set(30, 0);
            (1, 30): qmod_1_set(31, 0);
            (1, 31): qmod_1_set(0, 0);
            (2, 0): qmod_1_set(2, 1);
            (2, 1): qmod_1_set(3, 0);
            (2, 2): qmod_1_set(4, 0);
            (2, 3): qmod_1_set(5, 0);
            (2, 4): qmod_1_set(6, 0);
            (2, 5): qmod_1_set(7, 0);
            (2, 6): qmod_1_set(8, 0);
            (2, 7): qmod_1_set(9, 0);
            (2, 8): qmod_1_set(10, 0);
            (2, 9): qmod_1_set(11, 0);
            (2, 10): qmod_1_set(12, 0);
            (2, 11): qmod_1_set(13, 0);
            (2, 12): qmod_1_set(14, 0);
            (2, 13): qmod_1_set(15, 0);
            (2, 14): qmod_1_set(16, 0);
            (2, 15): qmod_1_set(17, 0);
            (2, 16): qmod_1_set(18, 0);
            (2, 17): qmod_1_set(19, 0);
            (2, 18): qmod_1_set(20, 0);
            (2, 19): qmod_1_set(21, 0);
            (2, 20): qmod_1_set(22, 0);
            (2, 21): qmod_1_set(23, 0);
            (2, 22): qmod_1_set(24, 0);
            (2, 23): qmod_1_set(25, 0);
            (2, 24): qmod_1_set(26, 0);
            (2, 25): qmod_1_set(27, 0);
            (2, 26): qmod_1_set(28, 0);
            (2, 27): qmod_1_set(29, 0);
            (2, 28): qmod_1_set(30, 0);
            (2, 29): qmod_1_set(31, 0);
            (2, 30): qmod_1_set(0, 0);
            (2, 31): qmod_1_set(1, 0);
            (3, 0): qmod_1_set(3, 1);
            (3, 1): qmod_1_set(4, 0);
            (3, 2): qmod_1_set(5, 0);
            (3, 3): qmod_1_set(6, 0);
            (3, 4): qmod_1_set(7, 0);
            (3, 5): qmod_1_set(8, 0);
            (3, 6): qmod_1_set(9, 0);
            (3, 7): qmod_1_set(10, 0);
            (3, 8): qmod_1_set(11, 0);
            (3, 9): qmod_1_set(12, 0);
            (3, 10): qmod_1_set(13, 0);
            (3, 11): qmod_1_set(14, 0);
            (3, 12): qmod_1_set(15, 0);
            (3, 13): qmod_1_set(16, 0);
            (3, 14): qmod_1_set(17, 0);
            (3, 15): qmod_1_set(18, 0);
            (3, 16): qmod_1_set(19, 0);
            (3, 17): qmod_1_set(20, 0);
            (3, 18): qmod_1_set(21, 0);
            (3, 19): qmod_1_set(22, 0);
            (3, 20): qmod_1_set(23, 0);
            (3, 21): qmod_1_set(24, 0);
            (3, 22): qmod_1_set(25, 0);
            (3, 23): qmod_1_set(26, 0);
            (3, 24): qmod_1_set(27, 0);
            (3, 25): qmod_1_set(28, 0);
            (3, 26): qmod_1_set(29, 0);
            (3, 27): qmod_1_set(30, 0);
            (3, 28): qmod_1_set(31, 0);
            (3, 29): qmod_1_set(0, 0);
            (3, 30): qmod_1_set(1, 0);
            (3, 31): qmod_1_set(2, 0);
            (4, 0): qmod_1_set(4, 1);
            (4, 1): qmod_1_set(5, 0);
            (4, 2): qmod_1_set(6, 0);
            (4, 3): qmod_1_set(7, 0);
            (4, 4): qmod_1_set(8, 0);
            (4, 5): qmod_1_set(9, 0);
            (4, 6): qmod_1_set(10, 0);
            (4, 7): qmod_1_set(11, 0);
            (4, 8): qmod_1_set(12, 0);
            (4, 9): qmod_1_set(13, 0);
            (4, 10): qmod_1_set(14, 0);
            (4, 11): qmod_1_set(15, 0);
            (4, 12): qmod_1_set(16, 0);
            (4, 13): qmod_1_set(17, 0);
            (4, 14): qmod_1_set(18, 0);
            (4, 15): qmod_1_set(19, 0);
            (4, 16): qmod_1_set(20, 0);
            (4, 17): qmod_1_set(21, 0);
            (4, 18): qmod_1_set(22, 0);
            (4, 19): qmod_1_set(23, 0);
            (4, 20): qmod_1_set(24, 0);
            (4, 21): qmod_1_set(25, 0);
            (4, 22): qmod_1_set(26, 0);
            (4, 23): qmod_1_set(27, 0);
            (4, 24): qmod_1_set(28, 0);
            (4, 25): qmod_1_set(29, 0);
            (4, 26): qmod_1_set(30, 0);
            (4, 27): qmod_1_set(31, 0);
            (4, 28): qmod_1_set(0, 0);
            (4, 29): qmod_1_set(1, 0);
            (4, 30): qmod_1_set(2, 0);
            (4, 31): qmod_1_set(3, 0);
            (5, 0): qmod_1_set(5, 1);
            (5, 1): qmod_1_set(6, 0);
            (5, 2): qmod_1_set(7, 0);
            (5, 3): qmod_1_set(8, 0);
            (5, 4): qmod_1_set(9, 0);
            (5, 5): qmod_1_set(10, 0);
            (5, 6): qmod_1_set(11, 0);
            (5, 7): qmod_1_set(12, 0);
            (5, 8): qmod_1_set(13, 0);
            (5, 9): qmod_1_set(14, 0);
            (5, 10): qmod_1_set(15, 0);
            (5, 11): qmod_1_set(16, 0);
            (5, 12): qmod_1_set(17, 0);
            (5, 13): qmod_1_set(18, 0);
            (5, 14): qmod_1_set(19, 0);
            (5, 15): qmod_1_set(20, 0);
            (5, 16): qmod_1_set(21, 0);
            (5, 17): qmod_1_set(22, 0);
            (5, 18): qmod_1_set(23, 0);
            (5, 19): qmod_1_set(24, 0);
            (5, 20): qmod_1_set(25, 0);
            (5, 21): qmod_1_set(26, 0);
            (5, 22): qmod_1_set(27, 0);
            (5, 23): qmod_1_set(28, 0);
            (5, 24): qmod_1_set(29, 0);
            (5, 25): qmod_1_set(30, 0);
            (5, 26): qmod_1_set(31, 0);
            (5, 27): qmod_1_set(0, 0);
            (5, 28): qmod_1_set(1, 0);
            (5, 29): qmod_1_set(2, 0);
            (5, 30): qmod_1_set(3, 0);
            (5, 31): qmod_1_set(4, 0);
            (6, 0): qmod_1_set(6, 1);
            (6, 1): qmod_1_set(7, 0);
            (6, 2): qmod_1_set(8, 0);
            (6, 3): qmod_1_set(9, 0);
            (6, 4): qmod_1_set(10, 0);
            (6, 5): qmod_1_set(11, 0);
            (6, 6): qmod_1_set(12, 0);
            (6, 7): qmod_1_set(13, 0);
            (6, 8): qmod_1_set(14, 0);
            (6, 9): qmod_1_set(15, 0);
            (6, 10): qmod_1_set(16, 0);
            (6, 11): qmod_1_set(17, 0);
            (6, 12): qmod_1_set(18, 0);
            (6, 13): qmod_1_set(19, 0);
            (6, 14): qmod_1_set(20, 0);
            (6, 15): qmod_1_set(21, 0);
            (6, 16): qmod_1_set(22, 0);
            (6, 17): qmod_1_set(23, 0);
            (6, 18): qmod_1_set(24, 0);
            (6, 19): qmod_1_set(25, 0);
            (6, 20): qmod_1_set(26, 0);
            (6, 21): qmod_1_set(27, 0);
            (6, 22): qmod_1_set(28, 0);
            (6, 23): qmod_1_set(29, 0);
            (6, 24): qmod_1_set(30, 0);
            (6, 25): qmod_1_set(31, 0);
            (6, 26): qmod_1_set(0, 0);
            (6, 27): qmod_1_set(1, 0);
            (6, 28): qmod_1_set(2, 0);
            (6, 29): qmod_1_set(3, 0);
            (6, 30): qmod_1_set(4, 0);
            (6, 31): qmod_1_set(5, 0);
            (7, 0): qmod_1_set(7, 1);
            (7, 1): qmod_1_set(8, 0);
            (7, 2): qmod_1_set(9, 0);
            (7, 3): qmod_1_set(10, 0);
            (7, 4): qmod_1_set(11, 0);
            (7, 5): qmod_1_set(12, 0);
            (7, 6): qmod_1_set(13, 0);
            (7, 7): qmod_1_set(14, 0);
            (7, 8): qmod_1_set(15, 0);
            (7, 9): qmod_1_set(16, 0);
            (7, 10): qmod_1_set(17, 0);
            (7, 11): qmod_1_set(18, 0);
            (7, 12): qmod_1_set(19, 0);
            (7, 13): qmod_1_set(20, 0);
            (7, 14): qmod_1_set(21, 0);
            (7, 15): qmod_1_set(22, 0);
            (7, 16): qmod_1_set(23, 0);
            (7, 17): qmod_1_set(24, 0);
            (7, 18): qmod_1_set(25, 0);
            (7, 19): qmod_1_set(26, 0);
            (7, 20): qmod_1_set(27, 0);
            (7, 21): qmod_1_set(28, 0);
            (7, 22): qmod_1_set(29, 0);
            (7, 23): qmod_1_set(30, 0);
            (7, 24): qmod_1_set(31, 0);
            (7, 25): qmod_1_set(0, 0);
            (7, 26): qmod_1_set(1, 0);
            (7, 27): qmod_1_set(2, 0);
            (7, 28): qmod_1_set(3, 0);
            (7, 29): qmod_1_set(4, 0);
            (7, 30): qmod_1_set(5, 0);
            (7, 31): qmod_1_set(6, 0);
            (8, 0): qmod_1_set(8, 1);
            (8, 1): qmod_1_set(9, 0);
            (8, 2): qmod_1_set(10, 0);
            (8, 3): qmod_1_set(11, 0);
            (8, 4): qmod_1_set(12, 0);
            (8, 5): qmod_1_set(13, 0);
            (8, 6): qmod_1_set(14, 0);
            (8, 7): qmod_1_set(15, 0);
            (8, 8): qmod_1_set(16, 0);
            (8, 9): qmod_1_set(17, 0);
            (8, 10): qmod_1_set(18, 0);
            (8, 11): qmod_1_set(19, 0);
            (8, 12): qmod_1_set(20, 0);
            (8, 13): qmod_1_set(21, 0);
            (8, 14): qmod_1_set(22, 0);
            (8, 15): qmod_1_set(23, 0);
            (8, 16): qmod_1_set(24, 0);
            (8, 17): qmod_1_set(25, 0);
            (8, 18): qmod_1_set(26, 0);
            (8, 19): qmod_1_set(27, 0);
            (8, 20): qmod_1_set(28, 0);
            (8, 21): qmod_1_set(29, 0);
            (8, 22): qmod_1_set(30, 0);
            (8, 23): qmod_1_set(31, 0);
            (8, 24): qmod_1_set(0, 0);
            (8, 25): qmod_1_set(1, 0);
            (8, 26): qmod_1_set(2, 0);
            (8, 27): qmod_1_set(3, 0);
            (8, 28): qmod_1_set(4, 0);
            (8, 29): qmod_1_set(5, 0);
            (8, 30): qmod_1_set(6, 0);
            (8, 31): qmod_1_set(7, 0);
            (9, 0): qmod_1_set(9, 1);
            (9, 1): qmod_1_set(10, 0);
            (9, 2): qmod_1_set(11, 0);
            (9, 3): qmod_1_set(12, 0);
            (9, 4): qmod_1_set(13, 0);
            (9, 5): qmod_1_set(14, 0);
            (9, 6): qmod_1_set(15, 0);
            (9, 7): qmod_1_set(16, 0);
            (9, 8): qmod_1_set(17, 0);
            (9, 9): qmod_1_set(18, 0);
            (9, 10): qmod_1_set(19, 0);
            (9, 11): qmod_1_set(20, 0);
            (9, 12): qmod_1_set(21, 0);
            (9, 13): qmod_1_set(22, 0);
            (9, 14): qmod_1_set(23, 0);
            (9, 15): qmod_1_set(24, 0);
            (9, 16): qmod_1_set(25, 0);
            (9, 17): qmod_1_set(26, 0);
            (9, 18): qmod_1_set(27, 0);
            (9, 19): qmod_1_set(28, 0);
            (9, 20): qmod_1_set(29, 0);
            (9, 21): qmod_1_set(30, 0);
            (9, 22): qmod_1_set(31, 0);
            (9, 23): qmod_1_set(0, 0);
            (9, 24): qmod_1_set(1, 0);
            (9, 25): qmod_1_set(2, 0);
            (9, 26): qmod_1_set(3, 0);
            (9, 27): qmod_1_set(4, 0);
            (9, 28): qmod_1_set(5, 0);
            (9, 29): qmod_1_set(6, 0);
            (9, 30): qmod_1_set(7, 0);
            (9, 31): qmod_1_set(8, 0);
            (10, 0): qmod_1_set(10, 1);
            (10, 1): qmod_1_set(11, 0);
            (10, 2): qmod_1_set(12, 0);
            (10, 3): qmod_1_set(13, 0);
            (10, 4): qmod_1_set(14, 0);
            (10, 5): qmod_1_set(15, 0);
            (10, 6): qmod_1_set(16, 0);
            (10, 7): qmod_1_set(17, 0);
            (10, 8): qmod_1_set(18, 0);
            (10, 9): qmod_1_set(19, 0);
            (10, 10): qmod_1_set(20, 0);
            (10, 11): qmod_1_set(21, 0);
            (10, 12): qmod_1_set(22, 0);
            (10, 13): qmod_1_set(23, 0);
            (10, 14): qmod_1_set(24, 0);
            (10, 15): qmod_1_set(25, 0);
            (10, 16): qmod_1_set(26, 0);
            (10, 17): qmod_1_set(27, 0);
            (10, 18): qmod_1_set(28, 0);
            (10, 19): qmod_1_set(29, 0);
            (10, 20): qmod_1_set(30, 0);
            (10, 21): qmod_1_set(31, 0);
            (10, 22): qmod_1_set(0, 0);
            (10, 23): qmod_1_set(1, 0);
            (10, 24): qmod_1_set(2, 0);
            (10, 25): qmod_1_set(3, 0);
            (10, 26): qmod_1_set(4, 0);
            (10, 27): qmod_1_set(5, 0);
            (10, 28): qmod_1_set(6, 0);
            (10, 29): qmod_1_set(7, 0);
            (10, 30): qmod_1_set(8, 0);
            (10, 31): qmod_1_set(9, 0);
            (11, 0): qmod_1_set(11, 1);
            (11, 1): qmod_1_set(12, 0);
            (11, 2): qmod_1_set(13, 0);
            (11, 3): qmod_1_set(14, 0);
            (11, 4): qmod_1_set(15, 0);
            (11, 5): qmod_1_set(16, 0);
            (11, 6): qmod_1_set(17, 0);
            (11, 7): qmod_1_set(18, 0);
            (11, 8): qmod_1_set(19, 0);
            (11, 9): qmod_1_set(20, 0);
            (11, 10): qmod_1_set(21, 0);
            (11, 11): qmod_1_set(22, 0);
            (11, 12): qmod_1_set(23, 0);
            (11, 13): qmod_1_set(24, 0);
            (11, 14): qmod_1_set(25, 0);
            (11, 15): qmod_1_set(26, 0);
            (11, 16): qmod_1_set(27, 0);
            (11, 17): qmod_1_set(28, 0);
            (11, 18): qmod_1_set(29, 0);
            (11, 19): qmod_1_set(30, 0);
            (11, 20): qmod_1_set(31, 0);
            (11, 21): qmod_1_set(0, 0);
            (11, 22): qmod_1_set(1, 0);
            (11, 23): qmod_1_set(2, 0);
            (11, 24): qmod_1_set(3, 0);
            (11, 25): qmod_1_set(4, 0);
            (11, 26): qmod_1_set(5, 0);
            (11, 27): qmod_1_set(6, 0);
            (11, 28): qmod_1_set(7, 0);
            (11, 29): qmod_1_set(8, 0);
            (11, 30): qmod_1_set(9, 0);
            (11, 31): qmod_1_set(10, 0);
            (12, 0): qmod_1_set(12, 1);
            (12, 1): qmod_1_set(13, 0);
            (12, 2): qmod_1_set(14, 0);
            (12, 3): qmod_1_set(15, 0);
            (12, 4): qmod_1_set(16, 0);
            (12, 5): qmod_1_set(17, 0);
            (12, 6): qmod_1_set(18, 0);
            (12, 7): qmod_1_set(19, 0);
            (12, 8): qmod_1_set(20, 0);
            (12, 9): qmod_1_set(21, 0);
            (12, 10): qmod_1_set(22, 0);
            (12, 11): qmod_1_set(23, 0);
            (12, 12): qmod_1_set(24, 0);
            (12, 13): qmod_1_set(25, 0);
            (12, 14): qmod_1_set(26, 0);
            (12, 15): qmod_1_set(27, 0);
            (12, 16): qmod_1_set(28, 0);
            (12, 17): qmod_1_set(29, 0);
            (12, 18): qmod_1_set(30, 0);
            (12, 19): qmod_1_set(31, 0);
            (12, 20): qmod_1_set(0, 0);
            (12, 21): qmod_1_set(1, 0);
            (12, 22): qmod_1_set(2, 0);
            (12, 23): qmod_1_set(3, 0);
            (12, 24): qmod_1_set(4, 0);
            (12, 25): qmod_1_set(5, 0);
            (12, 26): qmod_1_set(6, 0);
            (12, 27): qmod_1_set(7, 0);
            (12, 28): qmod_1_set(8, 0);
            (12, 29): qmod_1_set(9, 0);
            (12, 30): qmod_1_set(10, 0);
            (12, 31): qmod_1_set(11, 0);
            (13, 0): qmod_1_set(13, 1);
            (13, 1): qmod_1_set(14, 0);
            (13, 2): qmod_1_set(15, 0);
            (13, 3): qmod_1_set(16, 0);
            (13, 4): qmod_1_set(17, 0);
            (13, 5): qmod_1_set(18, 0);
            (13, 6): qmod_1_set(19, 0);
            (13, 7): qmod_1_set(20, 0);
            (13, 8): qmod_1_set(21, 0);
            (13, 9): qmod_1_set(22, 0);
            (13, 10): qmod_1_set(23, 0);
            (13, 11): qmod_1_set(24, 0);
            (13, 12): qmod_1_set(25, 0);
            (13, 13): qmod_1_set(26, 0);
            (13, 14): qmod_1_set(27, 0);
            (13, 15): qmod_1_set(28, 0);
            (13, 16): qmod_1_set(29, 0);
            (13, 17): qmod_1_set(30, 0);
            (13, 18): qmod_1_set(31, 0);
            (13, 19): qmod_1_set(0, 0);
            (13, 20): qmod_1_set(1, 0);
            (13, 21): qmod_1_set(2, 0);
            (13, 22): qmod_1_set(3, 0);
            (13, 23): qmod_1_set(4, 0);
            (13, 24): qmod_1_set(5, 0);
            (13, 25): qmod_1_set(6, 0);
            (13, 26): qmod_1_set(7, 0);
            (13, 27): qmod_1_set(8, 0);
            (13, 28): qmod_1_set(9, 0);
            (13, 29): qmod_1_set(10, 0);
            (13, 30): qmod_1_set(11, 0);
            (13, 31): qmod_1_set(12, 0);
            (14, 0): qmod_1_set(14, 1);
            (14, 1): qmod_1_set(15, 0);
            (14, 2): qmod_1_set(16, 0);
            (14, 3): qmod_1_set(17, 0);
            (14, 4): qmod_1_set(18, 0);
            (14, 5): qmod_1_set(19, 0);
            (14, 6): qmod_1_set(20, 0);
            (14, 7): qmod_1_set(21, 0);
            (14, 8): qmod_1_set(22, 0);
            (14, 9): qmod_1_set(23, 0);
            (14, 10): qmod_1_set(24, 0);
            (14, 11): qmod_1_set(25, 0);
            (14, 12): qmod_1_set(26, 0);
            (14, 13): qmod_1_set(27, 0);
            (14, 14): qmod_1_set(28, 0);
            (14, 15): qmod_1_set(29, 0);
            (14, 16): qmod_1_set(30, 0);
            (14, 17): qmod_1_set(31, 0);
            (14, 18): qmod_1_set(0, 0);
            (14, 19): qmod_1_set(1, 0);
            (14, 20): qmod_1_set(2, 0);
            (14, 21): qmod_1_set(3, 0);
            (14, 22): qmod_1_set(4, 0);
            (14, 23): qmod_1_set(5, 0);
            (14, 24): qmod_1_set(6, 0);
            (14, 25): qmod_1_set(7, 0);
            (14, 26): qmod_1_set(8, 0);
            (14, 27): qmod_1_set(9, 0);
            (14, 28): qmod_1_set(10, 0);
            (14, 29): qmod_1_set(11, 0);
            (14, 30): qmod_1_set(12, 0);
            (14, 31): qmod_1_set(13, 0);
            (15, 0): qmod_1_set(15, 1);
            (15, 1): qmod_1_set(16, 0);
            (15, 2): qmod_1_set(17, 0);
            (15, 3): qmod_1_set(18, 0);
            (15, 4): qmod_1_set(19, 0);
            (15, 5): qmod_1_set(20, 0);
            (15, 6): qmod_1_set(21, 0);
            (15, 7): qmod_1_set(22, 0);
            (15, 8): qmod_1_set(23, 0);
            (15, 9): qmod_1_set(24, 0);
            (15, 10): qmod_1_set(25, 0);
            (15, 11): qmod_1_set(26, 0);
            (15, 12): qmod_1_set(27, 0);
            (15, 13): qmod_1_set(28, 0);
            (15, 14): qmod_1_set(29, 0);
            (15, 15): qmod_1_set(30, 0);
            (15, 16): qmod_1_set(31, 0);
            (15, 17): qmod_1_set(0, 0);
            (15, 18): qmod_1_set(1, 0);
            (15, 19): qmod_1_set(2, 0);
            (15, 20): qmod_1_set(3, 0);
            (15, 21): qmod_1_set(4, 0);
            (15, 22): qmod_1_set(5, 0);
            (15, 23): qmod_1_set(6, 0);
            (15, 24): qmod_1_set(7, 0);
            (15, 25): qmod_1_set(8, 0);
            (15, 26): qmod_1_set(9, 0);
            (15, 27): qmod_1_set(10, 0);
            (15, 28): qmod_1_set(11, 0);
            (15, 29): qmod_1_set(12, 0);
            (15, 30): qmod_1_set(13, 0);
            (15, 31): qmod_1_set(14, 0);
            (16, 0): qmod_1_set(16, 1);
            (16, 1): qmod_1_set(17, 0);
            (16, 2): qmod_1_set(18, 0);
            (16, 3): qmod_1_set(19, 0);
            (16, 4): qmod_1_set(20, 0);
            (16, 5): qmod_1_set(21, 0);
            (16, 6): qmod_1_set(22, 0);
            (16, 7): qmod_1_set(23, 0);
            (16, 8): qmod_1_set(24, 0);
            (16, 9): qmod_1_set(25, 0);
            (16, 10): qmod_1_set(26, 0);
            (16, 11): qmod_1_set(27, 0);
            (16, 12): qmod_1_set(28, 0);
            (16, 13): qmod_1_set(29, 0);
            (16, 14): qmod_1_set(30, 0);
            (16, 15): qmod_1_set(31, 0);
            (16, 16): qmod_1_set(0, 0);
            (16, 17): qmod_1_set(1, 0);
            (16, 18): qmod_1_set(2, 0);
            (16, 19): qmod_1_set(3, 0);
            (16, 20): qmod_1_set(4, 0);
            (16, 21): qmod_1_set(5, 0);
            (16, 22): qmod_1_set(6, 0);
            (16, 23): qmod_1_set(7, 0);
            (16, 24): qmod_1_set(8, 0);
            (16, 25): qmod_1_set(9, 0);
            (16, 26): qmod_1_set(10, 0);
            (16, 27): qmod_1_set(11, 0);
            (16, 28): qmod_1_set(12, 0);
            (16, 29): qmod_1_set(13, 0);
            (16, 30): qmod_1_set(14, 0);
            (16, 31): qmod_1_set(15, 0);
            (17, 0): qmod_1_set(17, 1);
            (17, 1): qmod_1_set(18, 0);
            (17, 2): qmod_1_set(19, 0);
            (17, 3): qmod_1_set(20, 0);
            (17, 4): qmod_1_set(21, 0);
            (17, 5): qmod_1_set(22, 0);
            (17, 6): qmod_1_set(23, 0);
            (17, 7): qmod_1_set(24, 0);
            (17, 8): qmod_1_set(25, 0);
            (17, 9): qmod_1_set(26, 0);
            (17, 10): qmod_1_set(27, 0);
            (17, 11): qmod_1_set(28, 0);
            (17, 12): qmod_1_set(29, 0);
            (17, 13): qmod_1_set(30, 0);
            (17, 14): qmod_1_set(31, 0);
            (17, 15): qmod_1_set(0, 0);
            (17, 16): qmod_1_set(1, 0);
            (17, 17): qmod_1_set(2, 0);
            (17, 18): qmod_1_set(3, 0);
            (17, 19): qmod_1_set(4, 0);
            (17, 20): qmod_1_set(5, 0);
            (17, 21): qmod_1_set(6, 0);
            (17, 22): qmod_1_set(7, 0);
            (17, 23): qmod_1_set(8, 0);
            (17, 24): qmod_1_set(9, 0);
            (17, 25): qmod_1_set(10, 0);
            (17, 26): qmod_1_set(11, 0);
            (17, 27): qmod_1_set(12, 0);
            (17, 28): qmod_1_set(13, 0);
            (17, 29): qmod_1_set(14, 0);
            (17, 30): qmod_1_set(15, 0);
            (17, 31): qmod_1_set(16, 0);
            (18, 0): qmod_1_set(18, 1);
            (18, 1): qmod_1_set(19, 0);
            (18, 2): qmod_1_set(20, 0);
            (18, 3): qmod_1_set(21, 0);
            (18, 4): qmod_1_set(22, 0);
            (18, 5): qmod_1_set(23, 0);
            (18, 6): qmod_1_set(24, 0);
            (18, 7): qmod_1_set(25, 0);
            (18, 8): qmod_1_set(26, 0);
            (18, 9): qmod_1_set(27, 0);
            (18, 10): qmod_1_set(28, 0);
            (18, 11): qmod_1_set(29, 0);
            (18, 12): qmod_1_set(30, 0);
            (18, 13): qmod_1_set(31, 0);
            (18, 14): qmod_1_set(0, 0);
            (18, 15): qmod_1_set(1, 0);
            (18, 16): qmod_1_set(2, 0);
            (18, 17): qmod_1_set(3, 0);
            (18, 18): qmod_1_set(4, 0);
            (18, 19): qmod_1_set(5, 0);
            (18, 20): qmod_1_set(6, 0);
            (18, 21): qmod_1_set(7, 0);
            (18, 22): qmod_1_set(8, 0);
            (18, 23): qmod_1_set(9, 0);
            (18, 24): qmod_1_set(10, 0);
            (18, 25): qmod_1_set(11, 0);
            (18, 26): qmod_1_set(12, 0);
            (18, 27): qmod_1_set(13, 0);
            (18, 28): qmod_1_set(14, 0);
            (18, 29): qmod_1_set(15, 0);
            (18, 30): qmod_1_set(16, 0);
            (18, 31): qmod_1_set(17, 0);
            (19, 0): qmod_1_set(19, 1);
            (19, 1): qmod_1_set(20, 0);
            (19, 2): qmod_1_set(21, 0);
            (19, 3): qmod_1_set(22, 0);
            (19, 4): qmod_1_set(23, 0);
            (19, 5): qmod_1_set(24, 0);
            (19, 6): qmod_1_set(25, 0);
            (19, 7): qmod_1_set(26, 0);
            (19, 8): qmod_1_set(27, 0);
            (19, 9): qmod_1_set(28, 0);
            (19, 10): qmod_1_set(29, 0);
            (19, 11): qmod_1_set(30, 0);
            (19, 12): qmod_1_set(31, 0);
            (19, 13): qmod_1_set(0, 0);
            (19, 14): qmod_1_set(1, 0);
            (19, 15): qmod_1_set(2, 0);
            (19, 16): qmod_1_set(3, 0);
            (19, 17): qmod_1_set(4, 0);
            (19, 18): qmod_1_set(5, 0);
            (19, 19): qmod_1_set(6, 0);
            (19, 20): qmod_1_set(7, 0);
            (19, 21): qmod_1_set(8, 0);
            (19, 22): qmod_1_set(9, 0);
            (19, 23): qmod_1_set(10, 0);
            (19, 24): qmod_1_set(11, 0);
            (19, 25): qmod_1_set(12, 0);
            (19, 26): qmod_1_set(13, 0);
            (19, 27): qmod_1_set(14, 0);
            (19, 28): qmod_1_set(15, 0);
            (19, 29): qmod_1_set(16, 0);
            (19, 30): qmod_1_set(17, 0);
            (19, 31): qmod_1_set(18, 0);
            (20, 0): qmod_1_set(20, 1);
            (20, 1): qmod_1_set(21, 0);
            (20, 2): qmod_1_set(22, 0);
            (20, 3): qmod_1_set(23, 0);
            (20, 4): qmod_1_set(24, 0);
            (20, 5): qmod_1_set(25, 0);
            (20, 6): qmod_1_set(26, 0);
            (20, 7): qmod_1_set(27, 0);
            (20, 8): qmod_1_set(28, 0);
            (20, 9): qmod_1_set(29, 0);
            (20, 10): qmod_1_set(30, 0);
            (20, 11): qmod_1_set(31, 0);
            (20, 12): qmod_1_set(0, 0);
            (20, 13): qmod_1_set(1, 0);
            (20, 14): qmod_1_set(2, 0);
            (20, 15): qmod_1_set(3, 0);
            (20, 16): qmod_1_set(4, 0);
            (20, 17): qmod_1_set(5, 0);
            (20, 18): qmod_1_set(6, 0);
            (20, 19): qmod_1_set(7, 0);
            (20, 20): qmod_1_set(8, 0);
            (20, 21): qmod_1_set(9, 0);
            (20, 22): qmod_1_set(10, 0);
            (20, 23): qmod_1_set(11, 0);
            (20, 24): qmod_1_set(12, 0);
            (20, 25): qmod_1_set(13, 0);
            (20, 26): qmod_1_set(14, 0);
            (20, 27): qmod_1_set(15, 0);
            (20, 28): qmod_1_set(16, 0);
            (20, 29): qmod_1_set(17, 0);
            (20, 30): qmod_1_set(18, 0);
            (20, 31): qmod_1_set(19, 0);
            (21, 0): qmod_1_set(21, 1);
            (21, 1): qmod_1_set(22, 0);
            (21, 2): qmod_1_set(23, 0);
            (21, 3): qmod_1_set(24, 0);
            (21, 4): qmod_1_set(25, 0);
            (21, 5): qmod_1_set(26, 0);
            (21, 6): qmod_1_set(27, 0);
            (21, 7): qmod_1_set(28, 0);
            (21, 8): qmod_1_set(29, 0);
            (21, 9): qmod_1_set(30, 0);
            (21, 10): qmod_1_set(31, 0);
            (21, 11): qmod_1_set(0, 0);
            (21, 12): qmod_1_set(1, 0);
            (21, 13): qmod_1_set(2, 0);
            (21, 14): qmod_1_set(3, 0);
            (21, 15): qmod_1_set(4, 0);
            (21, 16): qmod_1_set(5, 0);
            (21, 17): qmod_1_set(6, 0);
            (21, 18): qmod_1_set(7, 0);
            (21, 19): qmod_1_set(8, 0);
            (21, 20): qmod_1_set(9, 0);
            (21, 21): qmod_1_set(10, 0);
            (21, 22): qmod_1_set(11, 0);
            (21, 23): qmod_1_set(12, 0);
            (21, 24): qmod_1_set(13, 0);
            (21, 25): qmod_1_set(14, 0);
            (21, 26): qmod_1_set(15, 0);
            (21, 27): qmod_1_set(16, 0);
            (21, 28): qmod_1_set(17, 0);
            (21, 29): qmod_1_set(18, 0);
            (21, 30): qmod_1_set(19, 0);
            (21, 31): qmod_1_set(20, 0);
            (22, 0): qmod_1_set(22, 1);
            (22, 1): qmod_1_set(23, 0);
            (22, 2): qmod_1_set(24, 0);
            (22, 3): qmod_1_set(25, 0);
            (22, 4): qmod_1_set(26, 0);
            (22, 5): qmod_1_set(27, 0);
            (22, 6): qmod_1_set(28, 0);
            (22, 7): qmod_1_set(29, 0);
            (22, 8): qmod_1_set(30, 0);
            (22, 9): qmod_1_set(31, 0);
            (22, 10): qmod_1_set(0, 0);
            (22, 11): qmod_1_set(1, 0);
            (22, 12): qmod_1_set(2, 0);
            (22, 13): qmod_1_set(3, 0);
            (22, 14): qmod_1_set(4, 0);
            (22, 15): qmod_1_set(5, 0);
            (22, 16): qmod_1_set(6, 0);
            (22, 17): qmod_1_set(7, 0);
            (22, 18): qmod_1_set(8, 0);
            (22, 19): qmod_1_set(9, 0);
            (22, 20): qmod_1_set(10, 0);
            (22, 21): qmod_1_set(11, 0);
            (22, 22): qmod_1_set(12, 0);
            (22, 23): qmod_1_set(13, 0);
            (22, 24): qmod_1_set(14, 0);
            (22, 25): qmod_1_set(15, 0);
            (22, 26): qmod_1_set(16, 0);
            (22, 27): qmod_1_set(17, 0);
            (22, 28): qmod_1_set(18, 0);
            (22, 29): qmod_1_set(19, 0);
            (22, 30): qmod_1_set(20, 0);
            (22, 31): qmod_1_set(21, 0);
            (23, 0): qmod_1_set(23, 1);
            (23, 1): qmod_1_set(24, 0);
            (23, 2): qmod_1_set(25, 0);
            (23, 3): qmod_1_set(26, 0);
            (23, 4): qmod_1_set(27, 0);
            (23, 5): qmod_1_set(28, 0);
            (23, 6): qmod_1_set(29, 0);
            (23, 7): qmod_1_set(30, 0);
            (23, 8): qmod_1_set(31, 0);
            (23, 9): qmod_1_set(0, 0);
            (23, 10): qmod_1_set(1, 0);
            (23, 11): qmod_1_set(2, 0);
            (23, 12): qmod_1_set(3, 0);
            (23, 13): qmod_1_set(4, 0);
            (23, 14): qmod_1_set(5, 0);
            (23, 15): qmod_1_set(6, 0);
            (23, 16): qmod_1_set(7, 0);
            (23, 17): qmod_1_set(8, 0);
            (23, 18): qmod_1_set(9, 0);
            (23, 19): qmod_1_set(10, 0);
            (23, 20): qmod_1_set(11, 0);
            (23, 21): qmod_1_set(12, 0);
            (23, 22): qmod_1_set(13, 0);
            (23, 23): qmod_1_set(14, 0);
            (23, 24): qmod_1_set(15, 0);
            (23, 25): qmod_1_set(16, 0);
            (23, 26): qmod_1_set(17, 0);
            (23, 27): qmod_1_set(18, 0);
            (23, 28): qmod_1_set(19, 0);
            (23, 29): qmod_1_set(20, 0);
            (23, 30): qmod_1_set(21, 0);
            (23, 31): qmod_1_set(22, 0);
            (24, 0): qmod_1_set(24, 1);
            (24, 1): qmod_1_set(25, 0);
            (24, 2): qmod_1_set(26, 0);
            (24, 3): qmod_1_set(27, 0);
            (24, 4): qmod_1_set(28, 0);
            (24, 5): qmod_1_set(29, 0);
            (24, 6): qmod_1_set(30, 0);
            (24, 7): qmod_1_set(31, 0);
            (24, 8): qmod_1_set(0, 0);
            (24, 9): qmod_1_set(1, 0);
            (24, 10): qmod_1_set(2, 0);
            (24, 11): qmod_1_set(3, 0);
            (24, 12): qmod_1_set(4, 0);
            (24, 13): qmod_1_set(5, 0);
            (24, 14): qmod_1_set(6, 0);
            (24, 15): qmod_1_set(7, 0);
            (24, 16): qmod_1_set(8, 0);
            (24, 17): qmod_1_set(9, 0);
            (24, 18): qmod_1_set(10, 0);
            (24, 19): qmod_1_set(11, 0);
            (24, 20): qmod_1_set(12, 0);
            (24, 21): qmod_1_set(13, 0);
            (24, 22): qmod_1_set(14, 0);
            (24, 23): qmod_1_set(15, 0);
            (24, 24): qmod_1_set(16, 0);
            (24, 25): qmod_1_set(17, 0);
            (24, 26): qmod_1_set(18, 0);
            (24, 27): qmod_1_set(19, 0);
            (24, 28): qmod_1_set(20, 0);
            (24, 29): qmod_1_set(21, 0);
            (24, 30): qmod_1_set(22, 0);
            (24, 31): qmod_1_set(23, 0);
            (25, 0): qmod_1_set(25, 1);
            (25, 1): qmod_1_set(26, 0);
            (25, 2): qmod_1_set(27, 0);
            (25, 3): qmod_1_set(28, 0);
            (25, 4): qmod_1_set(29, 0);
            (25, 5): qmod_1_set(30, 0);
            (25, 6): qmod_1_set(31, 0);
            (25, 7): qmod_1_set(0, 0);
            (25, 8): qmod_1_set(1, 0);
            (25, 9): qmod_1_set(2, 0);
            (25, 10): qmod_1_set(3, 0);
            (25, 11): qmod_1_set(4, 0);
            (25, 12): qmod_1_set(5, 0);
            (25, 13): qmod_1_set(6, 0);
            (25, 14): qmod_1_set(7, 0);
            (25, 15): qmod_1_set(8, 0);
            (25, 16): qmod_1_set(9, 0);
            (25, 17): qmod_1_set(10, 0);
            (25, 18): qmod_1_set(11, 0);
            (25, 19): qmod_1_set(12, 0);
            (25, 20): qmod_1_set(13, 0);
            (25, 21): qmod_1_set(14, 0);
            (25, 22): qmod_1_set(15, 0);
            (25, 23): qmod_1_set(16, 0);
            (25, 24): qmod_1_set(17, 0);
            (25, 25): qmod_1_set(18, 0);
            (25, 26): qmod_1_set(19, 0);
            (25, 27): qmod_1_set(20, 0);
            (25, 28): qmod_1_set(21, 0);
            (25, 29): qmod_1_set(22, 0);
            (25, 30): qmod_1_set(23, 0);
            (25, 31): qmod_1_set(24, 0);
            (26, 0): qmod_1_set(26, 1);
            (26, 1): qmod_1_set(27, 0);
            (26, 2): qmod_1_set(28, 0);
            (26, 3): qmod_1_set(29, 0);
            (26, 4): qmod_1_set(30, 0);
            (26, 5): qmod_1_set(31, 0);
            (26, 6): qmod_1_set(0, 0);
            (26, 7): qmod_1_set(1, 0);
            (26, 8): qmod_1_set(2, 0);
            (26, 9): qmod_1_set(3, 0);
            (26, 10): qmod_1_set(4, 0);
            (26, 11): qmod_1_set(5, 0);
            (26, 12): qmod_1_set(6, 0);
            (26, 13): qmod_1_set(7, 0);
            (26, 14): qmod_1_set(8, 0);
            (26, 15): qmod_1_set(9, 0);
            (26, 16): qmod_1_set(10, 0);
            (26, 17): qmod_1_set(11, 0);
            (26, 18): qmod_1_set(12, 0);
            (26, 19): qmod_1_set(13, 0);
            (26, 20): qmod_1_set(14, 0);
            (26, 21): qmod_1_set(15, 0);
            (26, 22): qmod_1_set(16, 0);
            (26, 23): qmod_1_set(17, 0);
            (26, 24): qmod_1_set(18, 0);
            (26, 25): qmod_1_set(19, 0);
            (26, 26): qmod_1_set(20, 0);
            (26, 27): qmod_1_set(21, 0);
            (26, 28): qmod_1_set(22, 0);
            (26, 29): qmod_1_set(23, 0);
            (26, 30): qmod_1_set(24, 0);
            (26, 31): qmod_1_set(25, 0);
            (27, 0): qmod_1_set(27, 1);
            (27, 1): qmod_1_set(28, 0);
            (27, 2): qmod_1_set(29, 0);
            (27, 3): qmod_1_set(30, 0);
            (27, 4): qmod_1_set(31, 0);
            (27, 5): qmod_1_set(0, 0);
            (27, 6): qmod_1_set(1, 0);
            (27, 7): qmod_1_set(2, 0);
            (27, 8): qmod_1_set(3, 0);
            (27, 9): qmod_1_set(4, 0);
            (27, 10): qmod_1_set(5, 0);
            (27, 11): qmod_1_set(6, 0);
            (27, 12): qmod_1_set(7, 0);
            (27, 13): qmod_1_set(8, 0);
            (27, 14): qmod_1_set(9, 0);
            (27, 15): qmod_1_set(10, 0);
            (27, 16): qmod_1_set(11, 0);
            (27, 17): qmod_1_set(12, 0);
            (27, 18): qmod_1_set(13, 0);
            (27, 19): qmod_1_set(14, 0);
            (27, 20): qmod_1_set(15, 0);
            (27, 21): qmod_1_set(16, 0);
            (27, 22): qmod_1_set(17, 0);
            (27, 23): qmod_1_set(18, 0);
            (27, 24): qmod_1_set(19, 0);
            (27, 25): qmod_1_set(20, 0);
            (27, 26): qmod_1_set(21, 0);
            (27, 27): qmod_1_set(22, 0);
            (27, 28): qmod_1_set(23, 0);
            (27, 29): qmod_1_set(24, 0);
            (27, 30): qmod_1_set(25, 0);
            (27, 31): qmod_1_set(26, 0);
            (28, 0): qmod_1_set(28, 1);
            (28, 1): qmod_1_set(29, 0);
            (28, 2): qmod_1_set(30, 0);
            (28, 3): qmod_1_set(31, 0);
            (28, 4): qmod_1_set(0, 0);
            (28, 5): qmod_1_set(1, 0);
            (28, 6): qmod_1_set(2, 0);
            (28, 7): qmod_1_set(3, 0);
            (28, 8): qmod_1_set(4, 0);
            (28, 9): qmod_1_set(5, 0);
            (28, 10): qmod_1_set(6, 0);
            (28, 11): qmod_1_set(7, 0);
            (28, 12): qmod_1_set(8, 0);
            (28, 13): qmod_1_set(9, 0);
            (28, 14): qmod_1_set(10, 0);
            (28, 15): qmod_1_set(11, 0);
            (28, 16): qmod_1_set(12, 0);
            (28, 17): qmod_1_set(13, 0);
            (28, 18): qmod_1_set(14, 0);
            (28, 19): qmod_1_set(15, 0);
            (28, 20): qmod_1_set(16, 0);
            (28, 21): qmod_1_set(17, 0);
            (28, 22): qmod_1_set(18, 0);
            (28, 23): qmod_1_set(19, 0);
            (28, 24): qmod_1_set(20, 0);
            (28, 25): qmod_1_set(21, 0);
            (28, 26): qmod_1_set(22, 0);
            (28, 27): qmod_1_set(23, 0);
            (28, 28): qmod_1_set(24, 0);
            (28, 29): qmod_1_set(25, 0);
            (28, 30): qmod_1_set(26, 0);
            (28, 31): qmod_1_set(27, 0);
            (29, 0): qmod_1_set(29, 1);
            (29, 1): qmod_1_set(30, 0);
            (29, 2): qmod_1_set(31, 0);
            (29, 3): qmod_1_set(0, 0);
            (29, 4): qmod_1_set(1, 0);
            (29, 5): qmod_1_set(2, 0);
            (29, 6): qmod_1_set(3, 0);
            (29, 7): qmod_1_set(4, 0);
            (29, 8): qmod_1_set(5, 0);
            (29, 9): qmod_1_set(6, 0);
            (29, 10): qmod_1_set(7, 0);
            (29, 11): qmod_1_set(8, 0);
            (29, 12): qmod_1_set(9, 0);
            (29, 13): qmod_1_set(10, 0);
            (29, 14): qmod_1_set(11, 0);
            (29, 15): qmod_1_set(12, 0);
            (29, 16): qmod_1_set(13, 0);
            (29, 17): qmod_1_set(14, 0);
            (29, 18): qmod_1_set(15, 0);
            (29, 19): qmod_1_set(16, 0);
            (29, 20): qmod_1_set(17, 0);
            (29, 21): qmod_1_set(18, 0);
            (29, 22): qmod_1_set(19, 0);
            (29, 23): qmod_1_set(20, 0);
            (29, 24): qmod_1_set(21, 0);
            (29, 25): qmod_1_set(22, 0);
            (29, 26): qmod_1_set(23, 0);
            (29, 27): qmod_1_set(24, 0);
            (29, 28): qmod_1_set(25, 0);
            (29, 29): qmod_1_set(26, 0);
            (29, 30): qmod_1_set(27, 0);
            (29, 31): qmod_1_set(28, 0);
            (30, 0): qmod_1_set(30, 1);
            (30, 1): qmod_1_set(31, 0);
            (30, 2): qmod_1_set(0, 0);
            (30, 3): qmod_1_set(1, 0);
            (30, 4): qmod_1_set(2, 0);
            (30, 5): qmod_1_set(3, 0);
            (30, 6): qmod_1_set(4, 0);
            (30, 7): qmod_1_set(5, 0);
            (30, 8): qmod_1_set(6, 0);
            (30, 9): qmod_1_set(7, 0);
            (30, 10): qmod_1_set(8, 0);
            (30, 11): qmod_1_set(9, 0);
            (30, 12): qmod_1_set(10, 0);
            (30, 13): qmod_1_set(11, 0);
            (30, 14): qmod_1_set(12, 0);
            (30, 15): qmod_1_set(13, 0);
            (30, 16): qmod_1_set(14, 0);
            (30, 17): qmod_1_set(15, 0);
            (30, 18): qmod_1_set(16, 0);
            (30, 19): qmod_1_set(17, 0);
            (30, 20): qmod_1_set(18, 0);
            (30, 21): qmod_1_set(19, 0);
            (30, 22): qmod_1_set(20, 0);
            (30, 23): qmod_1_set(21, 0);
            (30, 24): qmod_1_set(22, 0);
            (30, 25): qmod_1_set(23, 0);
            (30, 26): qmod_1_set(24, 0);
            (30, 27): qmod_1_set(25, 0);
            (30, 28): qmod_1_set(26, 0);
            (30, 29): qmod_1_set(27, 0);
            (30, 30): qmod_1_set(28, 0);
            (30, 31): qmod_1_set(29, 0);
            (31, 0): qmod_1_set(31, 1);
            (31, 1): qmod_1_set(0, 0);
            (31, 2): qmod_1_set(1, 0);
            (31, 3): qmod_1_set(2, 0);
            (31, 4): qmod_1_set(3, 0);
            (31, 5): qmod_1_set(4, 0);
            (31, 6): qmod_1_set(5, 0);
            (31, 7): qmod_1_set(6, 0);
            (31, 8): qmod_1_set(7, 0);
            (31, 9): qmod_1_set(8, 0);
            (31, 10): qmod_1_set(9, 0);
            (31, 11): qmod_1_set(10, 0);
            (31, 12): qmod_1_set(11, 0);
            (31, 13): qmod_1_set(12, 0);
            (31, 14): qmod_1_set(13, 0);
            (31, 15): qmod_1_set(14, 0);
            (31, 16): qmod_1_set(15, 0);
            (31, 17): qmod_1_set(16, 0);
            (31, 18): qmod_1_set(17, 0);
            (31, 19): qmod_1_set(18, 0);
            (31, 20): qmod_1_set(19, 0);
            (31, 21): qmod_1_set(20, 0);
            (31, 22): qmod_1_set(21, 0);
            (31, 23): qmod_1_set(22, 0);
            (31, 24): qmod_1_set(23, 0);
            (31, 25): qmod_1_set(24, 0);
            (31, 26): qmod_1_set(25, 0);
            (31, 27): qmod_1_set(26, 0);
            (31, 28): qmod_1_set(27, 0);
            (31, 29): qmod_1_set(28, 0);
            (31, 30): qmod_1_set(29, 0);
            (31, 31): qmod_1_set(30, 0);
        }
        size = 1024;
    }
    Hash<qidx_t>(HashAlgorithm_t.IDENTITY) qidx_1_hash;
    action slot_1_ok() { meta.alt_ok_1 = meta.alt_pre_1 & meta.alt_unfull_1; }
    /* copy 1's one access per packet, by what the packet is (q_op): a front-panel packet
     * tests slot 1's queue, a pause clears a drained queue, a port-down or queue-state
     * update sets it. One table per copy, so each stage's stateful ALUs take four copies. */
    action q_1_test() { meta.alt_unfull_1 = qstate_1_test.execute(meta.alt_i_1); }
    action q_1_set() { qstate_1_set.execute(meta.alt_i_1); }
    action q_1_clear() { qstate_1_clear.execute(meta.alt_i_1); }
    table qstate_1_op {
        key = { meta.q_op: exact; }
        actions = { q_1_test; q_1_set; q_1_clear; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            Q_TEST: q_1_test();
            Q_SET: q_1_set();
            Q_CLEAR: q_1_clear();
        }
        size = 3;
    }
    action slot_1_i() { meta.alt_i_1 = qidx_1_hash.get({meta.alt_up_1, meta.alt_q_1}); }
    /* slot 1's uplink masked down by the control plane (the config's `down`): the slot
     * counts as Full (as bmv2: a failed uplink is passed over). One ternary entry per uplink
     * tests its bit of the mask (no shift of the mask by a packet's field). */
    action slot_1_down() { meta.alt_dn_1 = 1; }
    table down_1 {
        key = {
            meta.alt_up_1: exact @name("uplink");
            meta.down_cfg: ternary @name("down");
        }
        actions = { slot_1_down; NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0x1 &&& 0x1): slot_1_down();
            (1, 0x2 &&& 0x2): slot_1_down();
            (2, 0x4 &&& 0x4): slot_1_down();
            (3, 0x8 &&& 0x8): slot_1_down();
            (4, 0x10 &&& 0x10): slot_1_down();
            (5, 0x20 &&& 0x20): slot_1_down();
            (6, 0x40 &&& 0x40): slot_1_down();
            (7, 0x80 &&& 0x80): slot_1_down();
            (8, 0x100 &&& 0x100): slot_1_down();
            (9, 0x200 &&& 0x200): slot_1_down();
            (10, 0x400 &&& 0x400): slot_1_down();
            (11, 0x800 &&& 0x800): slot_1_down();
            (12, 0x1000 &&& 0x1000): slot_1_down();
            (13, 0x2000 &&& 0x2000): slot_1_down();
            (14, 0x4000 &&& 0x4000): slot_1_down();
            (15, 0x8000 &&& 0x8000): slot_1_down();
            (16, 0x10000 &&& 0x10000): slot_1_down();
            (17, 0x20000 &&& 0x20000): slot_1_down();
            (18, 0x40000 &&& 0x40000): slot_1_down();
            (19, 0x80000 &&& 0x80000): slot_1_down();
            (20, 0x100000 &&& 0x100000): slot_1_down();
            (21, 0x200000 &&& 0x200000): slot_1_down();
            (22, 0x400000 &&& 0x400000): slot_1_down();
            (23, 0x800000 &&& 0x800000): slot_1_down();
            (24, 0x1000000 &&& 0x1000000): slot_1_down();
            (25, 0x2000000 &&& 0x2000000): slot_1_down();
            (26, 0x4000000 &&& 0x4000000): slot_1_down();
            (27, 0x8000000 &&& 0x8000000): slot_1_down();
            (28, 0x10000000 &&& 0x10000000): slot_1_down();
            (29, 0x20000000 &&& 0x20000000): slot_1_down();
            (30, 0x40000000 &&& 0x40000000): slot_1_down();
            (31, 0x80000000 &&& 0x80000000): slot_1_down();
        }
        size = 32;
    }
    Register<bit<8>, qidx_t>(8192, 0) qstate_2;
    /* the one-shot test: 1 if the queue is Unfull */
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_2) qstate_2_test = {
        void apply(inout bit<8> v, out bit<8> rv) {
            rv = 0;
            if (v == 0) { rv = 1; }
        }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_2) qstate_2_set = {
        void apply(inout bit<8> v) { v = 1; }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_2) qstate_2_clear = {
        void apply(inout bit<8> v) { v = 0; }
    };
    /* slot 2: queue = (active + wait) mod Q by one table keyed by both (no
     * adder and no modulo on the way to the register); index = uplink * 256 + queue by an
     * identity hash (no shifts) */
    action qmod_2_set(queue_t q, bit<1> act) {
        meta.alt_q_2 = q;
        meta.alt_act_2 = act;       // wait 0: the active queue
    }
    table qmod_2 {
        key = {
            meta.active_q: exact @name("active");
            meta.alt_wait_2: exact @name("wait");
        }
        actions = { qmod_2_set; }
        const entries = {
            (0, 0): qmod_2_set(0, 1);
            (0, 1): qmod_2_set(1, 0);
            (0, 2): qmod_2_set(2, 0);
            (0, 3): qmod_2_set(3, 0);
            (0, 4): qmod_2_set(4, 0);
            (0, 5): qmod_2_set(5, 0);
            (0, 6): qmod_2_set(6, 0);
            (0, 7): qmod_2_set(7, 0);
            (0, 8): qmod_2_set(8, 0);
            (0, 9): qmod_2_set(9, 0);
            (0, 10): qmod_2_set(10, 0);
            (0, 11): qmod_2_set(11, 0);
            (0, 12): qmod_2_set(12, 0);
            (0, 13): qmod_2_set(13, 0);
            (0, 14): qmod_2_set(14, 0);
            (0, 15): qmod_2_set(15, 0);
            (0, 16): qmod_2_set(16, 0);
            (0, 17): qmod_2_set(17, 0);
            (0, 18): qmod_2_set(18, 0);
            (0, 19): qmod_2_set(19, 0);
            (0, 20): qmod_2_set(20, 0);
            (0, 21): qmod_2_set(21, 0);
            (0, 22): qmod_2_set(22, 0);
            (0, 23): qmod_2_set(23, 0);
            (0, 24): qmod_2_set(24, 0);
            (0, 25): qmod_2_set(25, 0);
            (0, 26): qmod_2_set(26, 0);
            (0, 27): qmod_2_set(27, 0);
            (0, 28): qmod_2_set(28, 0);
            (0, 29): qmod_2_set(29, 0);
            (0, 30): qmod_2_set(30, 0);
            (0, 31): qmod_2_set(31, 0);
            (1, 0): qmod_2_set(1, 1);
            (1, 1): qmod_2_set(2, 0);
            (1, 2): qmod_2_set(3, 0);
            (1, 3): qmod_2_set(4, 0);
            (1, 4): qmod_2_set(5, 0);
            (1, 5): qmod_2_set(6, 0);
            (1, 6): qmod_2_set(7, 0);
            (1, 7): qmod_2_set(8, 0);
            (1, 8): qmod_2_set(9, 0);
            (1, 9): qmod_2_set(10, 0);
            (1, 10): qmod_2_set(11, 0);
            (1, 11): qmod_2_set(12, 0);
            (1, 12): qmod_2_set(13, 0);
            (1, 13): qmod_2_set(14, 0);
            (1, 14): qmod_2_set(15, 0);
            (1, 15): qmod_2_set(16, 0);
            (1, 16): qmod_2_set(17, 0);
            (1, 17): qmod_2_set(18, 0);
            (1, 18): qmod_2_set(19, 0);
            (1, 19): qmod_2_set(20, 0);
            (1, 20): qmod_2_set(21, 0);
            (1, 21): qmod_2_set(22, 0);
            (1, 22): qmod_2_set(23, 0);
            (1, 23): qmod_2_set(24, 0);
            (1, 24): qmod_2_set(25, 0);
            (1, 25): qmod_2_set(26, 0);
            (1, 26): qmod_2_set(27, 0);
            (1, 27): qmod_2_set(28, 0);
            (1, 28): qmod_2_set(29, 0);
            (1, 29): qmod_2_set(30, 0);
            (1, 30): qmod_2_set(31, 0);
            (1, 31): qmod_2_set(0, 0);
            (2, 0): qmod_2_set(2, 1);
            (2, 1): qmod_2_set(3, 0);
            (2, 2): qmod_2_set(4, 0);
            (2, 3): qmod_2_set(5, 0);
            (2, 4): qmod_2_set(6, 0);
            (2, 5): qmod_2_set(7, 0);
            (2, 6): qmod_2_set(8, 0);
            (2, 7): qmod_2_set(9, 0);
            (2, 8): qmod_2_set(10, 0);
            (2, 9): qmod_2_set(11, 0);
            (2, 10): qmod_2_set(12, 0);
            (2, 11): qmod_2_set(13, 0);
            (2, 12): qmod_2_set(14, 0);
            (2, 13): qmod_2_set(15, 0);
            (2, 14): qmod_2_set(16, 0);
            (2, 15): qmod_2_set(17, 0);
            (2, 16): qmod_2_set(18, 0);
            (2, 17): qmod_2_set(19, 0);
            (2, 18): qmod_2_set(20, 0);
            (2, 19): qmod_2_set(21, 0);
            (2, 20): qmod_2_set(22, 0);
            (2, 21): qmod_2_set(23, 0);
            (2, 22): qmod_2_set(24, 0);
            (2, 23): qmod_2_set(25, 0);
            (2, 24): qmod_2_set(26, 0);
            (2, 25): qmod_2_set(27, 0);
            (2, 26): qmod_2_set(28, 0);
            (2, 27): qmod_2_set(29, 0);
            (2, 28): qmod_2_set(30, 0);
            (2, 29): qmod_2_set(31, 0);
            (2, 30): qmod_2_set(0, 0);
            (2, 31): qmod_2_set(1, 0);
            (3, 0): qmod_2_set(3, 1);
            (3, 1): qmod_2_set(4, 0);
            (3, 2): qmod_2_set(5, 0);
            (3, 3): qmod_2_set(6, 0);
            (3, 4): qmod_2_set(7, 0);
            (3, 5): qmod_2_set(8, 0);
            (3, 6): qmod_2_set(9, 0);
            (3, 7): qmod_2_set(10, 0);
            (3, 8): qmod_2_set(11, 0);
            (3, 9): qmod_2_set(12, 0);
            (3, 10): qmod_2_set(13, 0);
            (3, 11): qmod_2_set(14, 0);
            (3, 12): qmod_2_set(15, 0);
            (3, 13): qmod_2_set(16, 0);
            (3, 14): qmod_2_set(17, 0);
            (3, 15): qmod_2_set(18, 0);
            (3, 16): qmod_2_set(19, 0);
            (3, 17): qmod_2_set(20, 0);
            (3, 18): qmod_2_set(21, 0);
            (3, 19): qmod_2_set(22, 0);
            (3, 20): qmod_2_set(23, 0);
            (3, 21): qmod_2_set(24, 0);
            (3, 22): qmod_2_set(25, 0);
            (3, 23): qmod_2_set(26, 0);
            (3, 24): qmod_2_set(27, 0);
            (3, 25): qmod_2_set(28, 0);
            (3, 26): qmod_2_set(29, 0);
            (3, 27): qmod_2_set(30, 0);
            (3, 28): qmod_2_set(31, 0);
            (3, 29): qmod_2_set(0, 0);
            (3, 30): qmod_2_set(1, 0);
            (3, 31): qmod_2_set(2, 0);
            (4, 0): qmod_2_set(4, 1);
            (4, 1): qmod_2_set(5, 0);
            (4, 2): qmod_2_set(6, 0);
            (4, 3): qmod_2_set(7, 0);
            (4, 4): qmod_2_set(8, 0);
            (4, 5): qmod_2_set(9, 0);
            (4, 6): qmod_2_set(10, 0);
            (4, 7): qmod_2_set(11, 0);
            (4, 8): qmod_2_set(12, 0);
            (4, 9): qmod_2_set(13, 0);
            (4, 10): qmod_2_set(14, 0);
            (4, 11): qmod_2_set(15, 0);
            (4, 12): qmod_2_set(16, 0);
            (4, 13): qmod_2_set(17, 0);
            (4, 14): qmod_2_set(18, 0);
            (4, 15): qmod_2_set(19, 0);
            (4, 16): qmod_2_set(20, 0);
            (4, 17): qmod_2_set(21, 0);
            (4, 18): qmod_2_set(22, 0);
            (4, 19): qmod_2_set(23, 0);
            (4, 20): qmod_2_set(24, 0);
            (4, 21): qmod_2_set(25, 0);
            (4, 22): qmod_2_set(26, 0);
            (4, 23): qmod_2_set(27, 0);
            (4, 24): qmod_2_set(28, 0);
            (4, 25): qmod_2_set(29, 0);
            (4, 26): qmod_2_set(30, 0);
            (4, 27): qmod_2_set(31, 0);
            (4, 28): qmod_2_set(0, 0);
            (4, 29): qmod_2_set(1, 0);
            (4, 30): qmod_2_set(2, 0);
            (4, 31): qmod_2_set(3, 0);
            (5, 0): qmod_2_set(5, 1);
            (5, 1): qmod_2_set(6, 0);
            (5, 2): qmod_2_set(7, 0);
            (5, 3): qmod_2_set(8, 0);
            (5, 4): qmod_2_set(9, 0);
            (5, 5): qmod_2_set(10, 0);
            (5, 6): qmod_2_set(11, 0);
            (5, 7): qmod_2_set(12, 0);
            (5, 8): qmod_2_set(13, 0);
            (5, 9): qmod_2_set(14, 0);
            (5, 10): qmod_2_set(15, 0);
            (5, 11): qmod_2_set(16, 0);
            (5, 12): qmod_2_set(17, 0);
            (5, 13): qmod_2_set(18, 0);
            (5, 14): qmod_2_set(19, 0);
            (5, 15): qmod_2_set(20, 0);
            (5, 16): qmod_2_set(21, 0);
            (5, 17): qmod_2_set(22, 0);
            (5, 18): qmod_2_set(23, 0);
            (5, 19): qmod_2_set(24, 0);
            (5, 20): qmod_2_set(25, 0);
            (5, 21): qmod_2_set(26, 0);
            (5, 22): qmod_2_set(27, 0);
            (5, 23): qmod_2_set(28, 0);
            (5, 24): qmod_2_set(29, 0);
            (5, 25): qmod_2_set(30, 0);
            (5, 26): qmod_2_set(31, 0);
            (5, 27): qmod_2_set(0, 0);
            (5, 28): qmod_2_set(1, 0);
            (5, 29): qmod_2_set(2, 0);
            (5, 30): qmod_2_set(3, 0);
            (5, 31): qmod_2_set(4, 0);
            (6, 0): qmod_2_set(6, 1);
            (6, 1): qmod_2_set(7, 0);
            (6, 2): qmod_2_set(8, 0);
            (6, 3): qmod_2_set(9, 0);
            (6, 4): qmod_2_set(10, 0);
            (6, 5): qmod_2_set(11, 0);
            (6, 6): qmod_2_set(12, 0);
            (6, 7): qmod_2_set(13, 0);
            (6, 8): qmod_2_set(14, 0);
            (6, 9): qmod_2_set(15, 0);
            (6, 10): qmod_2_set(16, 0);
            (6, 11): qmod_2_set(17, 0);
            (6, 12): qmod_2_set(18, 0);
            (6, 13): qmod_2_set(19, 0);
            (6, 14): qmod_2_set(20, 0);
            (6, 15): qmod_2_set(21, 0);
            (6, 16): qmod_2_set(22, 0);
            (6, 17): qmod_2_set(23, 0);
            (6, 18): qmod_2_set(24, 0);
            (6, 19): qmod_2_set(25, 0);
            (6, 20): qmod_2_set(26, 0);
            (6, 21): qmod_2_set(27, 0);
            (6, 22): qmod_2_set(28, 0);
            (6, 23): qmod_2_set(29, 0);
            (6, 24): qmod_2_set(30, 0);
            (6, 25): qmod_2_set(31, 0);
            (6, 26): qmod_2_set(0, 0);
            (6, 27): qmod_2_set(1, 0);
            (6, 28): qmod_2_set(2, 0);
            (6, 29): qmod_2_set(3, 0);
            (6, 30): qmod_2_set(4, 0);
            (6, 31): qmod_2_set(5, 0);
            (7, 0): qmod_2_set(7, 1);
            (7, 1): qmod_2_set(8, 0);
            (7, 2): qmod_2_set(9, 0);
            (7, 3): qmod_2_set(10, 0);
            (7, 4): qmod_2_set(11, 0);
            (7, 5): qmod_2_set(12, 0);
            (7, 6): qmod_2_set(13, 0);
            (7, 7): qmod_2_set(14, 0);
            (7, 8): qmod_2_set(15, 0);
            (7, 9): qmod_2_set(16, 0);
            (7, 10): qmod_2_set(17, 0);
            (7, 11): qmod_2_set(18, 0);
            (7, 12): qmod_2_set(19, 0);
            (7, 13): qmod_2_set(20, 0);
            (7, 14): qmod_2_set(21, 0);
            (7, 15): qmod_2_set(22, 0);
            (7, 16): qmod_2_set(23, 0);
            (7, 17): qmod_2_set(24, 0);
            (7, 18): qmod_2_set(25, 0);
            (7, 19): qmod_2_set(26, 0);
            (7, 20): qmod_2_set(27, 0);
            (7, 21): qmod_2_set(28, 0);
            (7, 22): qmod_2_set(29, 0);
            (7, 23): qmod_2_set(30, 0);
            (7, 24): qmod_2_set(31, 0);
            (7, 25): qmod_2_set(0, 0);
            (7, 26): qmod_2_set(1, 0);
            (7, 27): qmod_2_set(2, 0);
            (7, 28): qmod_2_set(3, 0);
            (7, 29): qmod_2_set(4, 0);
            (7, 30): qmod_2_set(5, 0);
            (7, 31): qmod_2_set(6, 0);
            (8, 0): qmod_2_set(8, 1);
            (8, 1): qmod_2_set(9, 0);
            (8, 2): qmod_2_set(10, 0);
            (8, 3): qmod_2_set(11, 0);
            (8, 4): qmod_2_set(12, 0);
            (8, 5): qmod_2_set(13, 0);
            (8, 6): qmod_2_set(14, 0);
            (8, 7): qmod_2_set(15, 0);
            (8, 8): qmod_2_set(16, 0);
            (8, 9): qmod_2_set(17, 0);
            (8, 10): qmod_2_set(18, 0);
            (8, 11): qmod_2_set(19, 0);
            (8, 12): qmod_2_set(20, 0);
            (8, 13): qmod_2_set(21, 0);
            (8, 14): qmod_2_set(22, 0);
            (8, 15): qmod_2_set(23, 0);
            (8, 16): qmod_2_set(24, 0);
            (8, 17): qmod_2_set(25, 0);
            (8, 18): qmod_2_set(26, 0);
            (8, 19): qmod_2_set(27, 0);
            (8, 20): qmod_2_set(28, 0);
            (8, 21): qmod_2_set(29, 0);
            (8, 22): qmod_2_set(30, 0);
            (8, 23): qmod_2_set(31, 0);
            (8, 24): qmod_2_set(0, 0);
            (8, 25): qmod_2_set(1, 0);
            (8, 26): qmod_2_set(2, 0);
            (8, 27): qmod_2_set(3, 0);
            (8, 28): qmod_2_set(4, 0);
            (8, 29): qmod_2_set(5, 0);
            (8, 30): qmod_2_set(6, 0);
            (8, 31): qmod_2_set(7, 0);
            (9, 0): qmod_2_set(9, 1);
            (9, 1): qmod_2_set(10, 0);
            (9, 2): qmod_2_set(11, 0);
            (9, 3): qmod_2_set(12, 0);
            (9, 4): qmod_2_set(13, 0);
            (9, 5): qmod_2_set(14, 0);
            (9, 6): qmod_2_set(15, 0);
            (9, 7): qmod_2_set(16, 0);
            (9, 8): qmod_2_set(17, 0);
            (9, 9): qmod_2_set(18, 0);
            (9, 10): qmod_2_set(19, 0);
            (9, 11): qmod_2_set(20, 0);
            (9, 12): qmod_2_set(21, 0);
            (9, 13): qmod_2_set(22, 0);
            (9, 14): qmod_2_set(23, 0);
            (9, 15): qmod_2_set(24, 0);
            (9, 16): qmod_2_set(25, 0);
            (9, 17): qmod_2_set(26, 0);
            (9, 18): qmod_2_set(27, 0);
            (9, 19): qmod_2_set(28, 0);
            (9, 20): qmod_2_set(29, 0);
            (9, 21): qmod_2_set(30, 0);
            (9, 22): qmod_2_set(31, 0);
            (9, 23): qmod_2_set(0, 0);
            (9, 24): qmod_2_set(1, 0);
            (9, 25): qmod_2_set(2, 0);
            (9, 26): qmod_2_set(3, 0);
            (9, 27): qmod_2_set(4, 0);
            (9, 28): qmod_2_set(5, 0);
            (9, 29): qmod_2_set(6, 0);
            (9, 30): qmod_2_set(7, 0);
            (9, 31): qmod_2_set(8, 0);
            (10, 0): qmod_2_set(10, 1);
            (10, 1): qmod_2_set(11, 0);
            (10, 2): qmod_2_set(12, 0);
            (10, 3): qmod_2_set(13, 0);
            (10, 4): qmod_2_set(14, 0);
            (10, 5): qmod_2_set(15, 0);
            (10, 6): qmod_2_set(16, 0);
            (10, 7): qmod_2_set(17, 0);
            (10, 8): qmod_2_set(18, 0);
            (10, 9): qmod_2_set(19, 0);
            (10, 10): qmod_2_set(20, 0);
            (10, 11): qmod_2_set(21, 0);
            (10, 12): qmod_2_set(22, 0);
            (10, 13): qmod_2_set(23, 0);
            (10, 14): qmod_2_set(24, 0);
            (10, 15): qmod_2_set(25, 0);
            (10, 16): qmod_2_set(26, 0);
            (10, 17): qmod_2_set(27, 0);
            (10, 18): qmod_2_set(28, 0);
            (10, 19): qmod_2_set(29, 0);
            (10, 20): qmod_2_set(30, 0);
            (10, 21): qmod_2_set(31, 0);
            (10, 22): qmod_2_set(0, 0);
            (10, 23): qmod_2_set(1, 0);
            (10, 24): qmod_2_set(2, 0);
            (10, 25): qmod_2_set(3, 0);
            (10, 26): qmod_2_set(4, 0);
            (10, 27): qmod_2_set(5, 0);
            (10, 28): qmod_2_set(6, 0);
            (10, 29): qmod_2_set(7, 0);
            (10, 30): qmod_2_set(8, 0);
            (10, 31): qmod_2_set(9, 0);
            (11, 0): qmod_2_set(11, 1);
            (11, 1): qmod_2_set(12, 0);
            (11, 2): qmod_2_set(13, 0);
            (11, 3): qmod_2_set(14, 0);
            (11, 4): qmod_2_set(15, 0);
            (11, 5): qmod_2_set(16, 0);
            (11, 6): qmod_2_set(17, 0);
            (11, 7): qmod_2_set(18, 0);
            (11, 8): qmod_2_set(19, 0);
            (11, 9): qmod_2_set(20, 0);
            (11, 10): qmod_2_set(21, 0);
            (11, 11): qmod_2_set(22, 0);
            (11, 12): qmod_2_set(23, 0);
            (11, 13): qmod_2_set(24, 0);
            (11, 14): qmod_2_set(25, 0);
            (11, 15): qmod_2_set(26, 0);
            (11, 16): qmod_2_set(27, 0);
            (11, 17): qmod_2_set(28, 0);
            (11, 18): qmod_2_set(29, 0);
            (11, 19): qmod_2_set(30, 0);
            (11, 20): qmod_2_set(31, 0);
            (11, 21): qmod_2_set(0, 0);
            (11, 22): qmod_2_set(1, 0);
            (11, 23): qmod_2_set(2, 0);
            (11, 24): qmod_2_set(3, 0);
            (11, 25): qmod_2_set(4, 0);
            (11, 26): qmod_2_set(5, 0);
            (11, 27): qmod_2_set(6, 0);
            (11, 28): qmod_2_set(7, 0);
            (11, 29): qmod_2_set(8, 0);
            (11, 30): qmod_2_set(9, 0);
            (11, 31): qmod_2_set(10, 0);
            (12, 0): qmod_2_set(12, 1);
            (12, 1): qmod_2_set(13, 0);
            (12, 2): qmod_2_set(14, 0);
            (12, 3): qmod_2_set(15, 0);
            (12, 4): qmod_2_set(16, 0);
            (12, 5): qmod_2_set(17, 0);
            (12, 6): qmod_2_set(18, 0);
            (12, 7): qmod_2_set(19, 0);
            (12, 8): qmod_2_set(20, 0);
            (12, 9): qmod_2_set(21, 0);
            (12, 10): qmod_2_set(22, 0);
            (12, 11): qmod_2_set(23, 0);
            (12, 12): qmod_2_set(24, 0);
            (12, 13): qmod_2_set(25, 0);
            (12, 14): qmod_2_set(26, 0);
            (12, 15): qmod_2_set(27, 0);
            (12, 16): qmod_2_set(28, 0);
            (12, 17): qmod_2_set(29, 0);
            (12, 18): qmod_2_set(30, 0);
            (12, 19): qmod_2_set(31, 0);
            (12, 20): qmod_2_set(0, 0);
            (12, 21): qmod_2_set(1, 0);
            (12, 22): qmod_2_set(2, 0);
            (12, 23): qmod_2_set(3, 0);
            (12, 24): qmod_2_set(4, 0);
            (12, 25): qmod_2_set(5, 0);
            (12, 26): qmod_2_set(6, 0);
            (12, 27): qmod_2_set(7, 0);
            (12, 28): qmod_2_set(8, 0);
            (12, 29): qmod_2_set(9, 0);
            (12, 30): qmod_2_set(10, 0);
            (12, 31): qmod_2_set(11, 0);
            (13, 0): qmod_2_set(13, 1);
            (13, 1): qmod_2_set(14, 0);
            (13, 2): qmod_2_set(15, 0);
            (13, 3): qmod_2_set(16, 0);
            (13, 4): qmod_2_set(17, 0);
            (13, 5): qmod_2_set(18, 0);
            (13, 6): qmod_2_set(19, 0);
            (13, 7): qmod_2_set(20, 0);
            (13, 8): qmod_2_set(21, 0);
            (13, 9): qmod_2_set(22, 0);
            (13, 10): qmod_2_set(23, 0);
            (13, 11): qmod_2_set(24, 0);
            (13, 12): qmod_2_set(25, 0);
            (13, 13): qmod_2_set(26, 0);
            (13, 14): qmod_2_set(27, 0);
            (13, 15): qmod_2_set(28, 0);
            (13, 16): qmod_2_set(29, 0);
            (13, 17): qmod_2_set(30, 0);
            (13, 18): qmod_2_set(31, 0);
            (13, 19): qmod_2_set(0, 0);
            (13, 20): qmod_2_set(1, 0);
            (13, 21): qmod_2_set(2, 0);
            (13, 22): qmod_2_set(3, 0);
            (13, 23): qmod_2_set(4, 0);
            (13, 24): qmod_2_set(5, 0);
            (13, 25): qmod_2_set(6, 0);
            (13, 26): qmod_2_set(7, 0);
            (13, 27): qmod_2_set(8, 0);
            (13, 28): qmod_2_set(9, 0);
            (13, 29): qmod_2_set(10, 0);
            (13, 30): qmod_2_set(11, 0);
            (13, 31): qmod_2_set(12, 0);
            (14, 0): qmod_2_set(14, 1);
            (14, 1): qmod_2_set(15, 0);
            (14, 2): qmod_2_set(16, 0);
            (14, 3): qmod_2_set(17, 0);
            (14, 4): qmod_2_set(18, 0);
            (14, 5): qmod_2_set(19, 0);
            (14, 6): qmod_2_set(20, 0);
            (14, 7): qmod_2_set(21, 0);
            (14, 8): qmod_2_set(22, 0);
            (14, 9): qmod_2_set(23, 0);
            (14, 10): qmod_2_set(24, 0);
            (14, 11): qmod_2_set(25, 0);
            (14, 12): qmod_2_set(26, 0);
            (14, 13): qmod_2_set(27, 0);
            (14, 14): qmod_2_set(28, 0);
            (14, 15): qmod_2_set(29, 0);
            (14, 16): qmod_2_set(30, 0);
            (14, 17): qmod_2_set(31, 0);
            (14, 18): qmod_2_set(0, 0);
            (14, 19): qmod_2_set(1, 0);
            (14, 20): qmod_2_set(2, 0);
            (14, 21): qmod_2_set(3, 0);
            (14, 22): qmod_2_set(4, 0);
            (14, 23): qmod_2_set(5, 0);
            (14, 24): qmod_2_set(6, 0);
            (14, 25): qmod_2_set(7, 0);
            (14, 26): qmod_2_set(8, 0);
            (14, 27): qmod_2_set(9, 0);
            (14, 28): qmod_2_set(10, 0);
            (14, 29): qmod_2_set(11, 0);
            (14, 30): qmod_2_set(12, 0);
            (14, 31): qmod_2_set(13, 0);
            (15, 0): qmod_2_set(15, 1);
            (15, 1): qmod_2_set(16, 0);
            (15, 2): qmod_2_set(17, 0);
            (15, 3): qmod_2_set(18, 0);
            (15, 4): qmod_2_set(19, 0);
            (15, 5): qmod_2_set(20, 0);
            (15, 6): qmod_2_set(21, 0);
            (15, 7): qmod_2_set(22, 0);
            (15, 8): qmod_2_set(23, 0);
            (15, 9): qmod_2_set(24, 0);
            (15, 10): qmod_2_set(25, 0);
            (15, 11): qmod_2_set(26, 0);
            (15, 12): qmod_2_set(27, 0);
            (15, 13): qmod_2_set(28, 0);
            (15, 14): qmod_2_set(29, 0);
            (15, 15): qmod_2_set(30, 0);
            (15, 16): qmod_2_set(31, 0);
            (15, 17): qmod_2_set(0, 0);
            (15, 18): qmod_2_set(1, 0);
            (15, 19): qmod_2_set(2, 0);
            (15, 20): qmod_2_set(3, 0);
            (15, 21): qmod_2_set(4, 0);
            (15, 22): qmod_2_set(5, 0);
            (15, 23): qmod_2_set(6, 0);
            (15, 24): qmod_2_set(7, 0);
            (15, 25): qmod_2_set(8, 0);
            (15, 26): qmod_2_set(9, 0);
            (15, 27): qmod_2_set(10, 0);
            (15, 28): qmod_2_set(11, 0);
            (15, 29): qmod_2_set(12, 0);
            (15, 30): qmod_2_set(13, 0);
            (15, 31): qmod_2_set(14, 0);
            (16, 0): qmod_2_set(16, 1);
            (16, 1): qmod_2_set(17, 0);
            (16, 2): qmod_2_set(18, 0);
            (16, 3): qmod_2_set(19, 0);
            (16, 4): qmod_2_set(20, 0);
            (16, 5): qmod_2_set(21, 0);
            (16, 6): qmod_2_set(22, 0);
            (16, 7): qmod_2_set(23, 0);
            (16, 8): qmod_2_set(24, 0);
            (16, 9): qmod_2_set(25, 0);
            (16, 10): qmod_2_set(26, 0);
            (16, 11): qmod_2_set(27, 0);
            (16, 12): qmod_2_set(28, 0);
            (16, 13): qmod_2_set(29, 0);
            (16, 14): qmod_2_set(30, 0);
            (16, 15): qmod_2_set(31, 0);
            (16, 16): qmod_2_set(0, 0);
            (16, 17): qmod_2_set(1, 0);
            (16, 18): qmod_2_set(2, 0);
            (16, 19): qmod_2_set(3, 0);
            (16, 20): qmod_2_set(4, 0);
            (16, 21): qmod_2_set(5, 0);
            (16, 22): qmod_2_set(6, 0);
            (16, 23): qmod_2_set(7, 0);
            (16, 24): qmod_2_set(8, 0);
            (16, 25): qmod_2_set(9, 0);
            (16, 26): qmod_2_set(10, 0);
            (16, 27): qmod_2_set(11, 0);
            (16, 28): qmod_2_set(12, 0);
            (16, 29): qmod_2_set(13, 0);
            (16, 30): qmod_2_set(14, 0);
            (16, 31): qmod_2_set(15, 0);
            (17, 0): qmod_2_set(17, 1);
            (17, 1): qmod_2_set(18, 0);
            (17, 2): qmod_2_set(19, 0);
            (17, 3): qmod_2_set(20, 0);
            (17, 4): qmod_2_set(21, 0);
            (17, 5): qmod_2_set(22, 0);
            (17, 6): qmod_2_set(23, 0);
            (17, 7): qmod_2_set(24, 0);
            (17, 8): qmod_2_set(25, 0);
            (17, 9): qmod_2_set(26, 0);
            (17, 10): qmod_2_set(27, 0);
            (17, 11): qmod_2_set(28, 0);
            (17, 12): qmod_2_set(29, 0);
            (17, 13): qmod_2_set(30, 0);
            (17, 14): qmod_2_set(31, 0);
            (17, 15): qmod_2_set(0, 0);
            (17, 16): qmod_2_set(1, 0);
            (17, 17): qmod_2_set(2, 0);
            (17, 18): qmod_2_set(3, 0);
            (17, 19): qmod_2_set(4, 0);
            (17, 20): qmod_2_set(5, 0);
            (17, 21): qmod_2_set(6, 0);
            (17, 22): qmod_2_set(7, 0);
            (17, 23): qmod_2_set(8, 0);
            (17, 24): qmod_2_set(9, 0);
            (17, 25): qmod_2_set(10, 0);
            (17, 26): qmod_2_set(11, 0);
            (17, 27): qmod_2_set(12, 0);
            (17, 28): qmod_2_set(13, 0);
            (17, 29): qmod_2_set(14, 0);
            (17, 30): qmod_2_set(15, 0);
            (17, 31): qmod_2_set(16, 0);
            (18, 0): qmod_2_set(18, 1);
            (18, 1): qmod_2_set(19, 0);
            (18, 2): qmod_2_set(20, 0);
            (18, 3): qmod_2_set(21, 0);
            (18, 4): qmod_2_set(22, 0);
            (18, 5): qmod_2_set(23, 0);
            (18, 6): qmod_2_set(24, 0);
            (18, 7): qmod_2_set(25, 0);
            (18, 8): qmod_2_set(26, 0);
            (18, 9): qmod_2_set(27, 0);
            (18, 10): qmod_2_set(28, 0);
            (18, 11): qmod_2_set(29, 0);
            (18, 12): qmod_2_set(30, 0);
            (18, 13): qmod_2_set(31, 0);
            (18, 14): qmod_2_set(0, 0);
            (18, 15): qmod_2_set(1, 0);
            (18, 16): qmod_2_set(2, 0);
            (18, 17): qmod_2_set(3, 0);
            (18, 18): qmod_2_set(4, 0);
            (18, 19): qmod_2_set(5, 0);
            (18, 20): qmod_2_set(6, 0);
            (18, 21): qmod_2_set(7, 0);
            (18, 22): qmod_2_set(8, 0);
            (18, 23): qmod_2_set(9, 0);
            (18, 24): qmod_2_set(10, 0);
            (18, 25): qmod_2_set(11, 0);
            (18, 26): qmod_2_set(12, 0);
            (18, 27): qmod_2_set(13, 0);
            (18, 28): qmod_2_set(14, 0);
            (18, 29): qmod_2_set(15, 0);
            (18, 30): qmod_2_set(16, 0);
            (18, 31): qmod_2_set(17, 0);
            (19, 0): qmod_2_set(19, 1);
            (19, 1): qmod_2_set(20, 0);
            (19, 2): qmod_2_set(21, 0);
            (19, 3): qmod_2_set(22, 0);
            (19, 4): qmod_2_set(23, 0);
            (19, 5): qmod_2_set(24, 0);
            (19, 6): qmod_2_set(25, 0);
            (19, 7): qmod_2_set(26, 0);
            (19, 8): qmod_2_set(27, 0);
            (19, 9): qmod_2_set(28, 0);
            (19, 10): qmod_2_set(29, 0);
            (19, 11): qmod_2_set(30, 0);
            (19, 12): qmod_2_set(31, 0);
            (19, 13): qmod_2_set(0, 0);
            (19, 14): qmod_2_set(1, 0);
            (19, 15): qmod_2_set(2, 0);
            (19, 16): qmod_2_set(3, 0);
            (19, 17): qmod_2_set(4, 0);
            (19, 18): qmod_2_set(5, 0);
            (19, 19): qmod_2_set(6, 0);
            (19, 20): qmod_2_set(7, 0);
            (19, 21): qmod_2_set(8, 0);
            (19, 22): qmod_2_set(9, 0);
            (19, 23): qmod_2_set(10, 0);
            (19, 24): qmod_2_set(11, 0);
            (19, 25): qmod_2_set(12, 0);
            (19, 26): qmod_2_set(13, 0);
            (19, 27): qmod_2_set(14, 0);
            (19, 28): qmod_2_set(15, 0);
            (19, 29): qmod_2_set(16, 0);
            (19, 30): qmod_2_set(17, 0);
            (19, 31): qmod_2_set(18, 0);
            (20, 0): qmod_2_set(20, 1);
            (20, 1): qmod_2_set(21, 0);
            (20, 2): qmod_2_set(22, 0);
            (20, 3): qmod_2_set(23, 0);
            (20, 4): qmod_2_set(24, 0);
            (20, 5): qmod_2_set(25, 0);
            (20, 6): qmod_2_set(26, 0);
            (20, 7): qmod_2_set(27, 0);
            (20, 8): qmod_2_set(28, 0);
            (20, 9): qmod_2_set(29, 0);
            (20, 10): qmod_2_set(30, 0);
            (20, 11): qmod_2_set(31, 0);
            (20, 12): qmod_2_set(0, 0);
            (20, 13): qmod_2_set(1, 0);
            (20, 14): qmod_2_set(2, 0);
            (20, 15): qmod_2_set(3, 0);
            (20, 16): qmod_2_set(4, 0);
            (20, 17): qmod_2_set(5, 0);
            (20, 18): qmod_2_set(6, 0);
            (20, 19): qmod_2_set(7, 0);
            (20, 20): qmod_2_set(8, 0);
            (20, 21): qmod_2_set(9, 0);
            (20, 22): qmod_2_set(10, 0);
            (20, 23): qmod_2_set(11, 0);
            (20, 24): qmod_2_set(12, 0);
            (20, 25): qmod_2_set(13, 0);
            (20, 26): qmod_2_set(14, 0);
            (20, 27): qmod_2_set(15, 0);
            (20, 28): qmod_2_set(16, 0);
            (20, 29): qmod_2_set(17, 0);
            (20, 30): qmod_2_set(18, 0);
            (20, 31): qmod_2_set(19, 0);
            (21, 0): qmod_2_set(21, 1);
            (21, 1): qmod_2_set(22, 0);
            (21, 2): qmod_2_set(23, 0);
            (21, 3): qmod_2_set(24, 0);
            (21, 4): qmod_2_set(25, 0);
            (21, 5): qmod_2_set(26, 0);
            (21, 6): qmod_2_set(27, 0);
            (21, 7): qmod_2_set(28, 0);
            (21, 8): qmod_2_set(29, 0);
            (21, 9): qmod_2_set(30, 0);
            (21, 10): qmod_2_set(31, 0);
            (21, 11): qmod_2_set(0, 0);
            (21, 12): qmod_2_set(1, 0);
            (21, 13): qmod_2_set(2, 0);
            (21, 14): qmod_2_set(3, 0);
            (21, 15): qmod_2_set(4, 0);
            (21, 16): qmod_2_set(5, 0);
            (21, 17): qmod_2_set(6, 0);
            (21, 18): qmod_2_set(7, 0);
            (21, 19): qmod_2_set(8, 0);
            (21, 20): qmod_2_set(9, 0);
            (21, 21): qmod_2_set(10, 0);
            (21, 22): qmod_2_set(11, 0);
            (21, 23): qmod_2_set(12, 0);
            (21, 24): qmod_2_set(13, 0);
            (21, 25): qmod_2_set(14, 0);
            (21, 26): qmod_2_set(15, 0);
            (21, 27): qmod_2_set(16, 0);
            (21, 28): qmod_2_set(17, 0);
            (21, 29): qmod_2_set(18, 0);
            (21, 30): qmod_2_set(19, 0);
            (21, 31): qmod_2_set(20, 0);
            (22, 0): qmod_2_set(22, 1);
            (22, 1): qmod_2_set(23, 0);
            (22, 2): qmod_2_set(24, 0);
            (22, 3): qmod_2_set(25, 0);
            (22, 4): qmod_2_set(26, 0);
            (22, 5): qmod_2_set(27, 0);
            (22, 6): qmod_2_set(28, 0);
            (22, 7): qmod_2_set(29, 0);
            (22, 8): qmod_2_set(30, 0);
            (22, 9): qmod_2_set(31, 0);
            (22, 10): qmod_2_set(0, 0);
            (22, 11): qmod_2_set(1, 0);
            (22, 12): qmod_2_set(2, 0);
            (22, 13): qmod_2_set(3, 0);
            (22, 14): qmod_2_set(4, 0);
            (22, 15): qmod_2_set(5, 0);
            (22, 16): qmod_2_set(6, 0);
            (22, 17): qmod_2_set(7, 0);
            (22, 18): qmod_2_set(8, 0);
            (22, 19): qmod_2_set(9, 0);
            (22, 20): qmod_2_set(10, 0);
            (22, 21): qmod_2_set(11, 0);
            (22, 22): qmod_2_set(12, 0);
            (22, 23): qmod_2_set(13, 0);
            (22, 24): qmod_2_set(14, 0);
            (22, 25): qmod_2_set(15, 0);
            (22, 26): qmod_2_set(16, 0);
            (22, 27): qmod_2_set(17, 0);
            (22, 28): qmod_2_set(18, 0);
            (22, 29): qmod_2_set(19, 0);
            (22, 30): qmod_2_set(20, 0);
            (22, 31): qmod_2_set(21, 0);
            (23, 0): qmod_2_set(23, 1);
            (23, 1): qmod_2_set(24, 0);
            (23, 2): qmod_2_set(25, 0);
            (23, 3): qmod_2_set(26, 0);
            (23, 4): qmod_2_set(27, 0);
            (23, 5): qmod_2_set(28, 0);
            (23, 6): qmod_2_set(29, 0);
            (23, 7): qmod_2_set(30, 0);
            (23, 8): qmod_2_set(31, 0);
            (23, 9): qmod_2_set(0, 0);
            (23, 10): qmod_2_set(1, 0);
            (23, 11): qmod_2_set(2, 0);
            (23, 12): qmod_2_set(3, 0);
            (23, 13): qmod_2_set(4, 0);
            (23, 14): qmod_2_set(5, 0);
            (23, 15): qmod_2_set(6, 0);
            (23, 16): qmod_2_set(7, 0);
            (23, 17): qmod_2_set(8, 0);
            (23, 18): qmod_2_set(9, 0);
            (23, 19): qmod_2_set(10, 0);
            (23, 20): qmod_2_set(11, 0);
            (23, 21): qmod_2_set(12, 0);
            (23, 22): qmod_2_set(13, 0);
            (23, 23): qmod_2_set(14, 0);
            (23, 24): qmod_2_set(15, 0);
            (23, 25): qmod_2_set(16, 0);
            (23, 26): qmod_2_set(17, 0);
            (23, 27): qmod_2_set(18, 0);
            (23, 28): qmod_2_set(19, 0);
            (23, 29): qmod_2_set(20, 0);
            (23, 30): qmod_2_set(21, 0);
            (23, 31): qmod_2_set(22, 0);
            (24, 0): qmod_2_set(24, 1);
            (24, 1): qmod_2_set(25, 0);
            (24, 2): qmod_2_set(26, 0);
            (24, 3): qmod_2_set(27, 0);
            (24, 4): qmod_2_set(28, 0);
            (24, 5): qmod_2_set(29, 0);
            (24, 6): qmod_2_set(30, 0);
            (24, 7): qmod_2_set(31, 0);
            (24, 8): qmod_2_set(0, 0);
            (24, 9): qmod_2_set(1, 0);
            (24, 10): qmod_2_set(2, 0);
            (24, 11): qmod_2_set(3, 0);
            (24, 12): qmod_2_set(4, 0);
            (24, 13): qmod_2_set(5, 0);
            (24, 14): qmod_2_set(6, 0);
            (24, 15): qmod_2_set(7, 0);
            (24, 16): qmod_2_set(8, 0);
            (24, 17): qmod_2_set(9, 0);
            (24, 18): qmod_2_set(10, 0);
            (24, 19): qmod_2_set(11, 0);
            (24, 20): qmod_2_set(12, 0);
            (24, 21): qmod_2_set(13, 0);
            (24, 22): qmod_2_set(14, 0);
            (24, 23): qmod_2_set(15, 0);
            (24, 24): qmod_2_set(16, 0);
            (24, 25): qmod_2_set(17, 0);
            (24, 26): qmod_2_set(18, 0);
            (24, 27): qmod_2_set(19, 0);
            (24, 28): qmod_2_set(20, 0);
            (24, 29): qmod_2_set(21, 0);
            (24, 30): qmod_2_set(22, 0);
            (24, 31): qmod_2_set(23, 0);
            (25, 0): qmod_2_set(25, 1);
            (25, 1): qmod_2_set(26, 0);
            (25, 2): qmod_2_set(27, 0);
            (25, 3): qmod_2_set(28, 0);
            (25, 4): qmod_2_set(29, 0);
            (25, 5): qmod_2_set(30, 0);
            (25, 6): qmod_2_set(31, 0);
            (25, 7): qmod_2_set(0, 0);
            (25, 8): qmod_2_set(1, 0);
            (25, 9): qmod_2_set(2, 0);
            (25, 10): qmod_2_set(3, 0);
            (25, 11): qmod_2_set(4, 0);
            (25, 12): qmod_2_set(5, 0);
            (25, 13): qmod_2_set(6, 0);
            (25, 14): qmod_2_set(7, 0);
            (25, 15): qmod_2_set(8, 0);
            (25, 16): qmod_2_set(9, 0);
            (25, 17): qmod_2_set(10, 0);
            (25, 18): qmod_2_set(11, 0);
            (25, 19): qmod_2_set(12, 0);
            (25, 20): qmod_2_set(13, 0);
            (25, 21): qmod_2_set(14, 0);
            (25, 22): qmod_2_set(15, 0);
            (25, 23): qmod_2_set(16, 0);
            (25, 24): qmod_2_set(17, 0);
            (25, 25): qmod_2_set(18, 0);
            (25, 26): qmod_2_set(19, 0);
            (25, 27): qmod_2_set(20, 0);
            (25, 28): qmod_2_set(21, 0);
            (25, 29): qmod_2_set(22, 0);
            (25, 30): qmod_2_set(23, 0);
            (25, 31): qmod_2_set(24, 0);
            (26, 0): qmod_2_set(26, 1);
            (26, 1): qmod_2_set(27, 0);
            (26, 2): qmod_2_set(28, 0);
            (26, 3): qmod_2_set(29, 0);
            (26, 4): qmod_2_set(30, 0);
            (26, 5): qmod_2_set(31, 0);
            (26, 6): qmod_2_set(0, 0);
            (26, 7): qmod_2_set(1, 0);
            (26, 8): qmod_2_set(2, 0);
            (26, 9): qmod_2_set(3, 0);
            (26, 10): qmod_2_set(4, 0);
            (26, 11): qmod_2_set(5, 0);
            (26, 12): qmod_2_set(6, 0);
            (26, 13): qmod_2_set(7, 0);
            (26, 14): qmod_2_set(8, 0);
            (26, 15): qmod_2_set(9, 0);
            (26, 16): qmod_2_set(10, 0);
            (26, 17): qmod_2_set(11, 0);
            (26, 18): qmod_2_set(12, 0);
            (26, 19): qmod_2_set(13, 0);
            (26, 20): qmod_2_set(14, 0);
            (26, 21): qmod_2_set(15, 0);
            (26, 22): qmod_2_set(16, 0);
            (26, 23): qmod_2_set(17, 0);
            (26, 24): qmod_2_set(18, 0);
            (26, 25): qmod_2_set(19, 0);
            (26, 26): qmod_2_set(20, 0);
            (26, 27): qmod_2_set(21, 0);
            (26, 28): qmod_2_set(22, 0);
            (26, 29): qmod_2_set(23, 0);
            (26, 30): qmod_2_set(24, 0);
            (26, 31): qmod_2_set(25, 0);
            (27, 0): qmod_2_set(27, 1);
            (27, 1): qmod_2_set(28, 0);
            (27, 2): qmod_2_set(29, 0);
            (27, 3): qmod_2_set(30, 0);
            (27, 4): qmod_2_set(31, 0);
            (27, 5): qmod_2_set(0, 0);
            (27, 6): qmod_2_set(1, 0);
            (27, 7): qmod_2_set(2, 0);
            (27, 8): qmod_2_set(3, 0);
            (27, 9): qmod_2_set(4, 0);
            (27, 10): qmod_2_set(5, 0);
            (27, 11): qmod_2_set(6, 0);
            (27, 12): qmod_2_set(7, 0);
            (27, 13): qmod_2_set(8, 0);
            (27, 14): qmod_2_set(9, 0);
            (27, 15): qmod_2_set(10, 0);
            (27, 16): qmod_2_set(11, 0);
            (27, 17): qmod_2_set(12, 0);
            (27, 18): qmod_2_set(13, 0);
            (27, 19): qmod_2_set(14, 0);
            (27, 20): qmod_2_set(15, 0);
            (27, 21): qmod_2_set(16, 0);
            (27, 22): qmod_2_set(17, 0);
            (27, 23): qmod_2_set(18, 0);
            (27, 24): qmod_2_set(19, 0);
            (27, 25): qmod_2_set(20, 0);
            (27, 26): qmod_2_set(21, 0);
            (27, 27): qmod_2_set(22, 0);
            (27, 28): qmod_2_set(23, 0);
            (27, 29): qmod_2_set(24, 0);
            (27, 30): qmod_2_set(25, 0);
            (27, 31): qmod_2_set(26, 0);
            (28, 0): qmod_2_set(28, 1);
            (28, 1): qmod_2_set(29, 0);
            (28, 2): qmod_2_set(30, 0);
            (28, 3): qmod_2_set(31, 0);
            (28, 4): qmod_2_set(0, 0);
            (28, 5): qmod_2_set(1, 0);
            (28, 6): qmod_2_set(2, 0);
            (28, 7): qmod_2_set(3, 0);
            (28, 8): qmod_2_set(4, 0);
            (28, 9): qmod_2_set(5, 0);
            (28, 10): qmod_2_set(6, 0);
            (28, 11): qmod_2_set(7, 0);
            (28, 12): qmod_2_set(8, 0);
            (28, 13): qmod_2_set(9, 0);
            (28, 14): qmod_2_set(10, 0);
            (28, 15): qmod_2_set(11, 0);
            (28, 16): qmod_2_set(12, 0);
            (28, 17): qmod_2_set(13, 0);
            (28, 18): qmod_2_set(14, 0);
            (28, 19): qmod_2_set(15, 0);
            (28, 20): qmod_2_set(16, 0);
            (28, 21): qmod_2_set(17, 0);
            (28, 22): qmod_2_set(18, 0);
            (28, 23): qmod_2_set(19, 0);
            (28, 24): qmod_2_set(20, 0);
            (28, 25): qmod_2_set(21, 0);
            (28, 26): qmod_2_set(22, 0);
            (28, 27): qmod_2_set(23, 0);
            (28, 28): qmod_2_set(24, 0);
            (28, 29): qmod_2_set(25, 0);
            (28, 30): qmod_2_set(26, 0);
            (28, 31): qmod_2_set(27, 0);
            (29, 0): qmod_2_set(29, 1);
            (29, 1): qmod_2_set(30, 0);
            (29, 2): qmod_2_set(31, 0);
            (29, 3): qmod_2_set(0, 0);
            (29, 4): qmod_2_set(1, 0);
            (29, 5): qmod_2_set(2, 0);
            (29, 6): qmod_2_set(3, 0);
            (29, 7): qmod_2_set(4, 0);
            (29, 8): qmod_2_set(5, 0);
            (29, 9): qmod_2_set(6, 0);
            (29, 10): qmod_2_set(7, 0);
            (29, 11): qmod_2_set(8, 0);
            (29, 12): qmod_2_set(9, 0);
            (29, 13): qmod_2_set(10, 0);
            (29, 14): qmod_2_set(11, 0);
            (29, 15): qmod_2_set(12, 0);
            (29, 16): qmod_2_set(13, 0);
            (29, 17): qmod_2_set(14, 0);
            (29, 18): qmod_2_set(15, 0);
            (29, 19): qmod_2_set(16, 0);
            (29, 20): qmod_2_set(17, 0);
            (29, 21): qmod_2_set(18, 0);
            (29, 22): qmod_2_set(19, 0);
            (29, 23): qmod_2_set(20, 0);
            (29, 24): qmod_2_set(21, 0);
            (29, 25): qmod_2_set(22, 0);
            (29, 26): qmod_2_set(23, 0);
            (29, 27): qmod_2_set(24, 0);
            (29, 28): qmod_2_set(25, 0);
            (29, 29): qmod_2_set(26, 0);
            (29, 30): qmod_2_set(27, 0);
            (29, 31): qmod_2_set(28, 0);
            (30, 0): qmod_2_set(30, 1);
            (30, 1): qmod_2_set(31, 0);
            (30, 2): qmod_2_set(0, 0);
            (30, 3): qmod_2_set(1, 0);
            (30, 4): qmod_2_set(2, 0);
            (30, 5): qmod_2_set(3, 0);
            (30, 6): qmod_2_set(4, 0);
            (30, 7): qmod_2_set(5, 0);
            (30, 8): qmod_2_set(6, 0);
            (30, 9): qmod_2_set(7, 0);
            (30, 10): qmod_2_set(8, 0);
            (30, 11): qmod_2_set(9, 0);
            (30, 12): qmod_2_set(10, 0);
            (30, 13): qmod_2_set(11, 0);
            (30, 14): qmod_2_set(12, 0);
            (30, 15): qmod_2_set(13, 0);
            (30, 16): qmod_2_set(14, 0);
            (30, 17): qmod_2_set(15, 0);
            (30, 18): qmod_2_set(16, 0);
            (30, 19): qmod_2_set(17, 0);
            (30, 20): qmod_2_set(18, 0);
            (30, 21): qmod_2_set(19, 0);
            (30, 22): qmod_2_set(20, 0);
            (30, 23): qmod_2_set(21, 0);
            (30, 24): qmod_2_set(22, 0);
            (30, 25): qmod_2_set(23, 0);
            (30, 26): qmod_2_set(24, 0);
            (30, 27): qmod_2_set(25, 0);
            (30, 28): qmod_2_set(26, 0);
            (30, 29): qmod_2_set(27, 0);
            (30, 30): qmod_2_set(28, 0);
            (30, 31): qmod_2_set(29, 0);
            (31, 0): qmod_2_set(31, 1);
            (31, 1): qmod_2_set(0, 0);
            (31, 2): qmod_2_set(1, 0);
            (31, 3): qmod_2_set(2, 0);
            (31, 4): qmod_2_set(3, 0);
            (31, 5): qmod_2_set(4, 0);
            (31, 6): qmod_2_set(5, 0);
            (31, 7): qmod_2_set(6, 0);
            (31, 8): qmod_2_set(7, 0);
            (31, 9): qmod_2_set(8, 0);
            (31, 10): qmod_2_set(9, 0);
            (31, 11): qmod_2_set(10, 0);
            (31, 12): qmod_2_set(11, 0);
            (31, 13): qmod_2_set(12, 0);
            (31, 14): qmod_2_set(13, 0);
            (31, 15): qmod_2_set(14, 0);
            (31, 16): qmod_2_set(15, 0);
            (31, 17): qmod_2_set(16, 0);
            (31, 18): qmod_2_set(17, 0);
            (31, 19): qmod_2_set(18, 0);
            (31, 20): qmod_2_set(19, 0);
            (31, 21): qmod_2_set(20, 0);
            (31, 22): qmod_2_set(21, 0);
            (31, 23): qmod_2_set(22, 0);
            (31, 24): qmod_2_set(23, 0);
            (31, 25): qmod_2_set(24, 0);
            (31, 26): qmod_2_set(25, 0);
            (31, 27): qmod_2_set(26, 0);
            (31, 28): qmod_2_set(27, 0);
            (31, 29): qmod_2_set(28, 0);
            (31, 30): qmod_2_set(29, 0);
            (31, 31): qmod_2_set(30, 0);
        }
        size = 1024;
    }
    Hash<qidx_t>(HashAlgorithm_t.IDENTITY) qidx_2_hash;
    action slot_2_ok() { meta.alt_ok_2 = meta.alt_pre_2 & meta.alt_unfull_2; }
    /* copy 2's one access per packet, by what the packet is (q_op): a front-panel packet
     * tests slot 2's queue, a pause clears a drained queue, a port-down or queue-state
     * update sets it. One table per copy, so each stage's stateful ALUs take four copies. */
    action q_2_test() { meta.alt_unfull_2 = qstate_2_test.execute(meta.alt_i_2); }
    action q_2_set() { qstate_2_set.execute(meta.alt_i_2); }
    action q_2_clear() { qstate_2_clear.execute(meta.alt_i_2); }
    table qstate_2_op {
        key = { meta.q_op: exact; }
        actions = { q_2_test; q_2_set; q_2_clear; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            Q_TEST: q_2_test();
            Q_SET: q_2_set();
            Q_CLEAR: q_2_clear();
        }
        size = 3;
    }
    action slot_2_i() { meta.alt_i_2 = qidx_2_hash.get({meta.alt_up_2, meta.alt_q_2}); }
    /* slot 2's uplink masked down by the control plane (the config's `down`): the slot
     * counts as Full (as bmv2: a failed uplink is passed over). One ternary entry per uplink
     * tests its bit of the mask (no shift of the mask by a packet's field). */
    action slot_2_down() { meta.alt_dn_2 = 1; }
    table down_2 {
        key = {
            meta.alt_up_2: exact @name("uplink");
            meta.down_cfg: ternary @name("down");
        }
        actions = { slot_2_down; NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0x1 &&& 0x1): slot_2_down();
            (1, 0x2 &&& 0x2): slot_2_down();
            (2, 0x4 &&& 0x4): slot_2_down();
            (3, 0x8 &&& 0x8): slot_2_down();
            (4, 0x10 &&& 0x10): slot_2_down();
            (5, 0x20 &&& 0x20): slot_2_down();
            (6, 0x40 &&& 0x40): slot_2_down();
            (7, 0x80 &&& 0x80): slot_2_down();
            (8, 0x100 &&& 0x100): slot_2_down();
            (9, 0x200 &&& 0x200): slot_2_down();
            (10, 0x400 &&& 0x400): slot_2_down();
            (11, 0x800 &&& 0x800): slot_2_down();
            (12, 0x1000 &&& 0x1000): slot_2_down();
            (13, 0x2000 &&& 0x2000): slot_2_down();
            (14, 0x4000 &&& 0x4000): slot_2_down();
            (15, 0x8000 &&& 0x8000): slot_2_down();
            (16, 0x10000 &&& 0x10000): slot_2_down();
            (17, 0x20000 &&& 0x20000): slot_2_down();
            (18, 0x40000 &&& 0x40000): slot_2_down();
            (19, 0x80000 &&& 0x80000): slot_2_down();
            (20, 0x100000 &&& 0x100000): slot_2_down();
            (21, 0x200000 &&& 0x200000): slot_2_down();
            (22, 0x400000 &&& 0x400000): slot_2_down();
            (23, 0x800000 &&& 0x800000): slot_2_down();
            (24, 0x1000000 &&& 0x1000000): slot_2_down();
            (25, 0x2000000 &&& 0x2000000): slot_2_down();
            (26, 0x4000000 &&& 0x4000000): slot_2_down();
            (27, 0x8000000 &&& 0x8000000): slot_2_down();
            (28, 0x10000000 &&& 0x10000000): slot_2_down();
            (29, 0x20000000 &&& 0x20000000): slot_2_down();
            (30, 0x40000000 &&& 0x40000000): slot_2_down();
            (31, 0x80000000 &&& 0x80000000): slot_2_down();
        }
        size = 32;
    }
    Register<bit<8>, qidx_t>(8192, 0) qstate_3;
    /* the one-shot test: 1 if the queue is Unfull */
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_3) qstate_3_test = {
        void apply(inout bit<8> v, out bit<8> rv) {
            rv = 0;
            if (v == 0) { rv = 1; }
        }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_3) qstate_3_set = {
        void apply(inout bit<8> v) { v = 1; }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_3) qstate_3_clear = {
        void apply(inout bit<8> v) { v = 0; }
    };
    /* slot 3: queue = (active + wait) mod Q by one table keyed by both (no
     * adder and no modulo on the way to the register); index = uplink * 256 + queue by an
     * identity hash (no shifts) */
    action qmod_3_set(queue_t q, bit<1> act) {
        meta.alt_q_3 = q;
        meta.alt_act_3 = act;       // wait 0: the active queue
    }
    table qmod_3 {
        key = {
            meta.active_q: exact @name("active");
            meta.alt_wait_3: exact @name("wait");
        }
        actions = { qmod_3_set; }
        const entries = {
            (0, 0): qmod_3_set(0, 1);
            (0, 1): qmod_3_set(1, 0);
            (0, 2): qmod_3_set(2, 0);
            (0, 3): qmod_3_set(3, 0);
            (0, 4): qmod_3_set(4, 0);
            (0, 5): qmod_3_set(5, 0);
            (0, 6): qmod_3_set(6, 0);
            (0, 7): qmod_3_set(7, 0);
            (0, 8): qmod_3_set(8, 0);
            (0, 9): qmod_3_set(9, 0);
            (0, 10): qmod_3_set(10, 0);
            (0, 11): qmod_3_set(11, 0);
            (0, 12): qmod_3_set(12, 0);
            (0, 13): qmod_3_set(13, 0);
            (0, 14): qmod_3_set(14, 0);
            (0, 15): qmod_3_set(15, 0);
            (0, 16): qmod_3_set(16, 0);
            (0, 17): qmod_3_set(17, 0);
            (0, 18): qmod_3_set(18, 0);
            (0, 19): qmod_3_set(19, 0);
            (0, 20): qmod_3_set(20, 0);
            (0, 21): qmod_3_set(21, 0);
            (0, 22): qmod_3_set(22, 0);
            (0, 23): qmod_3_set(23, 0);
            (0, 24): qmod_3_set(24, 0);
            (0, 25): qmod_3_set(25, 0);
            (0, 26): qmod_3_set(26, 0);
            (0, 27): qmod_3_set(27, 0);
            (0, 28): qmod_3_set(28, 0);
            (0, 29): qmod_3_set(29, 0);
            (0, 30): qmod_3_set(30, 0);
            (0, 31): qmod_3_set(31, 0);
            (1, 0): qmod_3_set(1, 1);
            (1, 1): qmod_3_set(2, 0);
            (1, 2): qmod_3_set(3, 0);
            (1, 3): qmod_3_set(4, 0);
            (1, 4): qmod_3_set(5, 0);
            (1, 5): qmod_3_set(6, 0);
            (1, 6): qmod_3_set(7, 0);
            (1, 7): qmod_3_set(8, 0);
            (1, 8): qmod_3_set(9, 0);
            (1, 9): qmod_3_set(10, 0);
            (1, 10): qmod_3_set(11, 0);
            (1, 11): qmod_3_set(12, 0);
            (1, 12): qmod_3_set(13, 0);
            (1, 13): qmod_3_set(14, 0);
            (1, 14): qmod_3_set(15, 0);
            (1, 15): qmod_3_set(16, 0);
            (1, 16): qmod_3_set(17, 0);
            (1, 17): qmod_3_set(18, 0);
            (1, 18): qmod_3_set(19, 0);
            (1, 19): qmod_3_set(20, 0);
            (1, 20): qmod_3_set(21, 0);
            (1, 21): qmod_3_set(22, 0);
            (1, 22): qmod_3_set(23, 0);
            (1, 23): qmod_3_set(24, 0);
            (1, 24): qmod_3_set(25, 0);
            (1, 25): qmod_3_set(26, 0);
            (1, 26): qmod_3_set(27, 0);
            (1, 27): qmod_3_set(28, 0);
            (1, 28): qmod_3_set(29, 0);
            (1, 29): qmod_3_set(30, 0);
            (1, 30): qmod_3_set(31, 0);
            (1, 31): qmod_3_set(0, 0);
            (2, 0): qmod_3_set(2, 1);
            (2, 1): qmod_3_set(3, 0);
            (2, 2): qmod_3_set(4, 0);
            (2, 3): qmod_3_set(5, 0);
            (2, 4): qmod_3_set(6, 0);
            (2, 5): qmod_3_set(7, 0);
            (2, 6): qmod_3_set(8, 0);
            (2, 7): qmod_3_set(9, 0);
            (2, 8): qmod_3_set(10, 0);
            (2, 9): qmod_3_set(11, 0);
            (2, 10): qmod_3_set(12, 0);
            (2, 11): qmod_3_set(13, 0);
            (2, 12): qmod_3_set(14, 0);
            (2, 13): qmod_3_set(15, 0);
            (2, 14): qmod_3_set(16, 0);
            (2, 15): qmod_3_set(17, 0);
            (2, 16): qmod_3_set(18, 0);
            (2, 17): qmod_3_set(19, 0);
            (2, 18): qmod_3_set(20, 0);
            (2, 19): qmod_3_set(21, 0);
            (2, 20): qmod_3_set(22, 0);
            (2, 21): qmod_3_set(23, 0);
            (2, 22): qmod_3_set(24, 0);
            (2, 23): qmod_3_set(25, 0);
            (2, 24): qmod_3_set(26, 0);
            (2, 25): qmod_3_set(27, 0);
            (2, 26): qmod_3_set(28, 0);
            (2, 27): qmod_3_set(29, 0);
            (2, 28): qmod_3_set(30, 0);
            (2, 29): qmod_3_set(31, 0);
            (2, 30): qmod_3_set(0, 0);
            (2, 31): qmod_3_set(1, 0);
            (3, 0): qmod_3_set(3, 1);
            (3, 1): qmod_3_set(4, 0);
            (3, 2): qmod_3_set(5, 0);
            (3, 3): qmod_3_set(6, 0);
            (3, 4): qmod_3_set(7, 0);
            (3, 5): qmod_3_set(8, 0);
            (3, 6): qmod_3_set(9, 0);
            (3, 7): qmod_3_set(10, 0);
            (3, 8): qmod_3_set(11, 0);
            (3, 9): qmod_3_set(12, 0);
            (3, 10): qmod_3_set(13, 0);
            (3, 11): qmod_3_set(14, 0);
            (3, 12): qmod_3_set(15, 0);
            (3, 13): qmod_3_set(16, 0);
            (3, 14): qmod_3_set(17, 0);
            (3, 15): qmod_3_set(18, 0);
            (3, 16): qmod_3_set(19, 0);
            (3, 17): qmod_3_set(20, 0);
            (3, 18): qmod_3_set(21, 0);
            (3, 19): qmod_3_set(22, 0);
            (3, 20): qmod_3_set(23, 0);
            (3, 21): qmod_3_set(24, 0);
            (3, 22): qmod_3_set(25, 0);
            (3, 23): qmod_3_set(26, 0);
            (3, 24): qmod_3_set(27, 0);
            (3, 25): qmod_3_set(28, 0);
            (3, 26): qmod_3_set(29, 0);
            (3, 27): qmod_3_set(30, 0);
            (3, 28): qmod_3_set(31, 0);
            (3, 29): qmod_3_set(0, 0);
            (3, 30): qmod_3_set(1, 0);
            (3, 31): qmod_3_set(2, 0);
            (4, 0): qmod_3_set(4, 1);
            (4, 1): qmod_3_set(5, 0);
            (4, 2): qmod_3_set(6, 0);
            (4, 3): qmod_3_set(7, 0);
            (4, 4): qmod_3_set(8, 0);
            (4, 5): qmod_3_set(9, 0);
            (4, 6): qmod_3_set(10, 0);
            (4, 7): qmod_3_set(11, 0);
            (4, 8): qmod_3_set(12, 0);
            (4, 9): qmod_3_set(13, 0);
            (4, 10): qmod_3_set(14, 0);
            (4, 11): qmod_3_set(15, 0);
            (4, 12): qmod_3_set(16, 0);
            (4, 13): qmod_3_set(17, 0);
            (4, 14): qmod_3_set(18, 0);
            (4, 15): qmod_3_set(19, 0);
            (4, 16): qmod_3_set(20, 0);
            (4, 17): qmod_3_set(21, 0);
            (4, 18): qmod_3_set(22, 0);
            (4, 19): qmod_3_set(23, 0);
            (4, 20): qmod_3_set(24, 0);
            (4, 21): qmod_3_set(25, 0);
            (4, 22): qmod_3_set(26, 0);
            (4, 23): qmod_3_set(27, 0);
            (4, 24): qmod_3_set(28, 0);
            (4, 25): qmod_3_set(29, 0);
            (4, 26): qmod_3_set(30, 0);
            (4, 27): qmod_3_set(31, 0);
            (4, 28): qmod_3_set(0, 0);
            (4, 29): qmod_3_set(1, 0);
            (4, 30): qmod_3_set(2, 0);
            (4, 31): qmod_3_set(3, 0);
            (5, 0): qmod_3_set(5, 1);
            (5, 1): qmod_3_set(6, 0);
            (5, 2): qmod_3_set(7, 0);
            (5, 3): qmod_3_set(8, 0);
            (5, 4): qmod_3_set(9, 0);
            (5, 5): qmod_3_set(10, 0);
            (5, 6): qmod_3_set(11, 0);
            (5, 7): qmod_3_set(12, 0);
            (5, 8): qmod_3_set(13, 0);
            (5, 9): qmod_3_set(14, 0);
            (5, 10): qmod_3_set(15, 0);
            (5, 11): qmod_3_set(16, 0);
            (5, 12): qmod_3_set(17, 0);
            (5, 13): qmod_3_set(18, 0);
            (5, 14): qmod_3_set(19, 0);
            (5, 15): qmod_3_set(20, 0);
            (5, 16): qmod_3_set(21, 0);
            (5, 17): qmod_3_set(22, 0);
            (5, 18): qmod_3_set(23, 0);
            (5, 19): qmod_3_set(24, 0);
            (5, 20): qmod_3_set(25, 0);
            (5, 21): qmod_3_set(26, 0);
            (5, 22): qmod_3_set(27, 0);
            (5, 23): qmod_3_set(28, 0);
            (5, 24): qmod_3_set(29, 0);
            (5, 25): qmod_3_set(30, 0);
            (5, 26): qmod_3_set(31, 0);
            (5, 27): qmod_3_set(0, 0);
            (5, 28): qmod_3_set(1, 0);
            (5, 29): qmod_3_set(2, 0);
            (5, 30): qmod_3_set(3, 0);
            (5, 31): qmod_3_set(4, 0);
            (6, 0): qmod_3_set(6, 1);
            (6, 1): qmod_3_set(7, 0);
            (6, 2): qmod_3_set(8, 0);
            (6, 3): qmod_3_set(9, 0);
            (6, 4): qmod_3_set(10, 0);
            (6, 5): qmod_3_set(11, 0);
            (6, 6): qmod_3_set(12, 0);
            (6, 7): qmod_3_set(13, 0);
            (6, 8): qmod_3_set(14, 0);
            (6, 9): qmod_3_set(15, 0);
            (6, 10): qmod_3_set(16, 0);
            (6, 11): qmod_3_set(17, 0);
            (6, 12): qmod_3_set(18, 0);
            (6, 13): qmod_3_set(19, 0);
            (6, 14): qmod_3_set(20, 0);
            (6, 15): qmod_3_set(21, 0);
            (6, 16): qmod_3_set(22, 0);
            (6, 17): qmod_3_set(23, 0);
            (6, 18): qmod_3_set(24, 0);
            (6, 19): qmod_3_set(25, 0);
            (6, 20): qmod_3_set(26, 0);
            (6, 21): qmod_3_set(27, 0);
            (6, 22): qmod_3_set(28, 0);
            (6, 23): qmod_3_set(29, 0);
            (6, 24): qmod_3_set(30, 0);
            (6, 25): qmod_3_set(31, 0);
            (6, 26): qmod_3_set(0, 0);
            (6, 27): qmod_3_set(1, 0);
            (6, 28): qmod_3_set(2, 0);
            (6, 29): qmod_3_set(3, 0);
            (6, 30): qmod_3_set(4, 0);
            (6, 31): qmod_3_set(5, 0);
            (7, 0): qmod_3_set(7, 1);
            (7, 1): qmod_3_set(8, 0);
            (7, 2): qmod_3_set(9, 0);
            (7, 3): qmod_3_set(10, 0);
            (7, 4): qmod_3_set(11, 0);
            (7, 5): qmod_3_set(12, 0);
            (7, 6): qmod_3_set(13, 0);
            (7, 7): qmod_3_set(14, 0);
            (7, 8): qmod_3_set(15, 0);
            (7, 9): qmod_3_set(16, 0);
            (7, 10): qmod_3_set(17, 0);
            (7, 11): qmod_3_set(18, 0);
            (7, 12): qmod_3_set(19, 0);
            (7, 13): qmod_3_set(20, 0);
            (7, 14): qmod_3_set(21, 0);
            (7, 15): qmod_3_set(22, 0);
            (7, 16): qmod_3_set(23, 0);
            (7, 17): qmod_3_set(24, 0);
            (7, 18): qmod_3_set(25, 0);
            (7, 19): qmod_3_set(26, 0);
            (7, 20): qmod_3_set(27, 0);
            (7, 21): qmod_3_set(28, 0);
            (7, 22): qmod_3_set(29, 0);
            (7, 23): qmod_3_set(30, 0);
            (7, 24): qmod_3_set(31, 0);
            (7, 25): qmod_3_set(0, 0);
            (7, 26): qmod_3_set(1, 0);
            (7, 27): qmod_3_set(2, 0);
            (7, 28): qmod_3_set(3, 0);
            (7, 29): qmod_3_set(4, 0);
            (7, 30): qmod_3_set(5, 0);
            (7, 31): qmod_3_set(6, 0);
            (8, 0): qmod_3_set(8, 1);
            (8, 1): qmod_3_set(9, 0);
            (8, 2): qmod_3_set(10, 0);
            (8, 3): qmod_3_set(11, 0);
            (8, 4): qmod_3_set(12, 0);
            (8, 5): qmod_3_set(13, 0);
            (8, 6): qmod_3_set(14, 0);
            (8, 7): qmod_3_set(15, 0);
            (8, 8): qmod_3_set(16, 0);
            (8, 9): qmod_3_set(17, 0);
            (8, 10): qmod_3_set(18, 0);
            (8, 11): qmod_3_set(19, 0);
            (8, 12): qmod_3_set(20, 0);
            (8, 13): qmod_3_set(21, 0);
            (8, 14): qmod_3_set(22, 0);
            (8, 15): qmod_3_set(23, 0);
            (8, 16): qmod_3_set(24, 0);
            (8, 17): qmod_3_set(25, 0);
            (8, 18): qmod_3_set(26, 0);
            (8, 19): qmod_3_set(27, 0);
            (8, 20): qmod_3_set(28, 0);
            (8, 21): qmod_3_set(29, 0);
            (8, 22): qmod_3_set(30, 0);
            (8, 23): qmod_3_set(31, 0);
            (8, 24): qmod_3_set(0, 0);
            (8, 25): qmod_3_set(1, 0);
            (8, 26): qmod_3_set(2, 0);
            (8, 27): qmod_3_set(3, 0);
            (8, 28): qmod_3_set(4, 0);
            (8, 29): qmod_3_set(5, 0);
            (8, 30): qmod_3_set(6, 0);
            (8, 31): qmod_3_set(7, 0);
            (9, 0): qmod_3_set(9, 1);
            (9, 1): qmod_3_set(10, 0);
            (9, 2): qmod_3_set(11, 0);
            (9, 3): qmod_3_set(12, 0);
            (9, 4): qmod_3_set(13, 0);
            (9, 5): qmod_3_set(14, 0);
            (9, 6): qmod_3_set(15, 0);
            (9, 7): qmod_3_set(16, 0);
            (9, 8): qmod_3_set(17, 0);
            (9, 9): qmod_3_set(18, 0);
            (9, 10): qmod_3_set(19, 0);
            (9, 11): qmod_3_set(20, 0);
            (9, 12): qmod_3_set(21, 0);
            (9, 13): qmod_3_set(22, 0);
            (9, 14): qmod_3_set(23, 0);
            (9, 15): qmod_3_set(24, 0);
            (9, 16): qmod_3_set(25, 0);
            (9, 17): qmod_3_set(26, 0);
            (9, 18): qmod_3_set(27, 0);
            (9, 19): qmod_3_set(28, 0);
            (9, 20): qmod_3_set(29, 0);
            (9, 21): qmod_3_set(30, 0);
            (9, 22): qmod_3_set(31, 0);
            (9, 23): qmod_3_set(0, 0);
            (9, 24): qmod_3_set(1, 0);
            (9, 25): qmod_3_set(2, 0);
            (9, 26): qmod_3_set(3, 0);
            (9, 27): qmod_3_set(4, 0);
            (9, 28): qmod_3_set(5, 0);
            (9, 29): qmod_3_set(6, 0);
            (9, 30): qmod_3_set(7, 0);
            (9, 31): qmod_3_set(8, 0);
            (10, 0): qmod_3_set(10, 1);
            (10, 1): qmod_3_set(11, 0);
            (10, 2): qmod_3_set(12, 0);
            (10, 3): qmod_3_set(13, 0);
            (10, 4): qmod_3_set(14, 0);
            (10, 5): qmod_3_set(15, 0);
            (10, 6): qmod_3_set(16, 0);
            (10, 7): qmod_3_set(17, 0);
            (10, 8): qmod_3_set(18, 0);
            (10, 9): qmod_3_set(19, 0);
            (10, 10): qmod_3_set(20, 0);
            (10, 11): qmod_3_set(21, 0);
            (10, 12): qmod_3_set(22, 0);
            (10, 13): qmod_3_set(23, 0);
            (10, 14): qmod_3_set(24, 0);
            (10, 15): qmod_3_set(25, 0);
            (10, 16): qmod_3_set(26, 0);
            (10, 17): qmod_3_set(27, 0);
            (10, 18): qmod_3_set(28, 0);
            (10, 19): qmod_3_set(29, 0);
            (10, 20): qmod_3_set(30, 0);
            (10, 21): qmod_3_set(31, 0);
            (10, 22): qmod_3_set(0, 0);
            (10, 23): qmod_3_set(1, 0);
            (10, 24): qmod_3_set(2, 0);
            (10, 25): qmod_3_set(3, 0);
            (10, 26): qmod_3_set(4, 0);
            (10, 27): qmod_3_set(5, 0);
            (10, 28): qmod_3_set(6, 0);
            (10, 29): qmod_3_set(7, 0);
            (10, 30): qmod_3_set(8, 0);
            (10, 31): qmod_3_set(9, 0);
            (11, 0): qmod_3_set(11, 1);
            (11, 1): qmod_3_set(12, 0);
            (11, 2): qmod_3_set(13, 0);
            (11, 3): qmod_3_set(14, 0);
            (11, 4): qmod_3_set(15, 0);
            (11, 5): qmod_3_set(16, 0);
            (11, 6): qmod_3_set(17, 0);
            (11, 7): qmod_3_set(18, 0);
            (11, 8): qmod_3_set(19, 0);
            (11, 9): qmod_3_set(20, 0);
            (11, 10): qmod_3_set(21, 0);
            (11, 11): qmod_3_set(22, 0);
            (11, 12): qmod_3_set(23, 0);
            (11, 13): qmod_3_set(24, 0);
            (11, 14): qmod_3_set(25, 0);
            (11, 15): qmod_3_set(26, 0);
            (11, 16): qmod_3_set(27, 0);
            (11, 17): qmod_3_set(28, 0);
            (11, 18): qmod_3_set(29, 0);
            (11, 19): qmod_3_set(30, 0);
            (11, 20): qmod_3_set(31, 0);
            (11, 21): qmod_3_set(0, 0);
            (11, 22): qmod_3_set(1, 0);
            (11, 23): qmod_3_set(2, 0);
            (11, 24): qmod_3_set(3, 0);
            (11, 25): qmod_3_set(4, 0);
            (11, 26): qmod_3_set(5, 0);
            (11, 27): qmod_3_set(6, 0);
            (11, 28): qmod_3_set(7, 0);
            (11, 29): qmod_3_set(8, 0);
            (11, 30): qmod_3_set(9, 0);
            (11, 31): qmod_3_set(10, 0);
            (12, 0): qmod_3_set(12, 1);
            (12, 1): qmod_3_set(13, 0);
            (12, 2): qmod_3_set(14, 0);
            (12, 3): qmod_3_set(15, 0);
            (12, 4): qmod_3_set(16, 0);
            (12, 5): qmod_3_set(17, 0);
            (12, 6): qmod_3_set(18, 0);
            (12, 7): qmod_3_set(19, 0);
            (12, 8): qmod_3_set(20, 0);
            (12, 9): qmod_3_set(21, 0);
            (12, 10): qmod_3_set(22, 0);
            (12, 11): qmod_3_set(23, 0);
            (12, 12): qmod_3_set(24, 0);
            (12, 13): qmod_3_set(25, 0);
            (12, 14): qmod_3_set(26, 0);
            (12, 15): qmod_3_set(27, 0);
            (12, 16): qmod_3_set(28, 0);
            (12, 17): qmod_3_set(29, 0);
            (12, 18): qmod_3_set(30, 0);
            (12, 19): qmod_3_set(31, 0);
            (12, 20): qmod_3_set(0, 0);
            (12, 21): qmod_3_set(1, 0);
            (12, 22): qmod_3_set(2, 0);
            (12, 23): qmod_3_set(3, 0);
            (12, 24): qmod_3_set(4, 0);
            (12, 25): qmod_3_set(5, 0);
            (12, 26): qmod_3_set(6, 0);
            (12, 27): qmod_3_set(7, 0);
            (12, 28): qmod_3_set(8, 0);
            (12, 29): qmod_3_set(9, 0);
            (12, 30): qmod_3_set(10, 0);
            (12, 31): qmod_3_set(11, 0);
            (13, 0): qmod_3_set(13, 1);
            (13, 1): qmod_3_set(14, 0);
            (13, 2): qmod_3_set(15, 0);
            (13, 3): qmod_3_set(16, 0);
            (13, 4): qmod_3_set(17, 0);
            (13, 5): qmod_3_set(18, 0);
            (13, 6): qmod_3_set(19, 0);
            (13, 7): qmod_3_set(20, 0);
            (13, 8): qmod_3_set(21, 0);
            (13, 9): qmod_3_set(22, 0);
            (13, 10): qmod_3_set(23, 0);
            (13, 11): qmod_3_set(24, 0);
            (13, 12): qmod_3_set(25, 0);
            (13, 13): qmod_3_set(26, 0);
            (13, 14): qmod_3_set(27, 0);
            (13, 15): qmod_3_set(28, 0);
            (13, 16): qmod_3_set(29, 0);
            (13, 17): qmod_3_set(30, 0);
            (13, 18): qmod_3_set(31, 0);
            (13, 19): qmod_3_set(0, 0);
            (13, 20): qmod_3_set(1, 0);
            (13, 21): qmod_3_set(2, 0);
            (13, 22): qmod_3_set(3, 0);
            (13, 23): qmod_3_set(4, 0);
            (13, 24): qmod_3_set(5, 0);
            (13, 25): qmod_3_set(6, 0);
            (13, 26): qmod_3_set(7, 0);
            (13, 27): qmod_3_set(8, 0);
            (13, 28): qmod_3_set(9, 0);
            (13, 29): qmod_3_set(10, 0);
            (13, 30): qmod_3_set(11, 0);
            (13, 31): qmod_3_set(12, 0);
            (14, 0): qmod_3_set(14, 1);
            (14, 1): qmod_3_set(15, 0);
            (14, 2): qmod_3_set(16, 0);
            (14, 3): qmod_3_set(17, 0);
            (14, 4): qmod_3_set(18, 0);
            (14, 5): qmod_3_set(19, 0);
            (14, 6): qmod_3_set(20, 0);
            (14, 7): qmod_3_set(21, 0);
            (14, 8): qmod_3_set(22, 0);
            (14, 9): qmod_3_set(23, 0);
            (14, 10): qmod_3_set(24, 0);
            (14, 11): qmod_3_set(25, 0);
            (14, 12): qmod_3_set(26, 0);
            (14, 13): qmod_3_set(27, 0);
            (14, 14): qmod_3_set(28, 0);
            (14, 15): qmod_3_set(29, 0);
            (14, 16): qmod_3_set(30, 0);
            (14, 17): qmod_3_set(31, 0);
            (14, 18): qmod_3_set(0, 0);
            (14, 19): qmod_3_set(1, 0);
            (14, 20): qmod_3_set(2, 0);
            (14, 21): qmod_3_set(3, 0);
            (14, 22): qmod_3_set(4, 0);
            (14, 23): qmod_3_set(5, 0);
            (14, 24): qmod_3_set(6, 0);
            (14, 25): qmod_3_set(7, 0);
            (14, 26): qmod_3_set(8, 0);
            (14, 27): qmod_3_set(9, 0);
            (14, 28): qmod_3_set(10, 0);
            (14, 29): qmod_3_set(11, 0);
            (14, 30): qmod_3_set(12, 0);
            (14, 31): qmod_3_set(13, 0);
            (15, 0): qmod_3_set(15, 1);
            (15, 1): qmod_3_set(16, 0);
            (15, 2): qmod_3_set(17, 0);
            (15, 3): qmod_3_set(18, 0);
            (15, 4): qmod_3_set(19, 0);
            (15, 5): qmod_3_set(20, 0);
            (15, 6): qmod_3_set(21, 0);
            (15, 7): qmod_3_set(22, 0);
            (15, 8): qmod_3_set(23, 0);
            (15, 9): qmod_3_set(24, 0);
            (15, 10): qmod_3_set(25, 0);
            (15, 11): qmod_3_set(26, 0);
            (15, 12): qmod_3_set(27, 0);
            (15, 13): qmod_3_set(28, 0);
            (15, 14): qmod_3_set(29, 0);
            (15, 15): qmod_3_set(30, 0);
            (15, 16): qmod_3_set(31, 0);
            (15, 17): qmod_3_set(0, 0);
            (15, 18): qmod_3_set(1, 0);
            (15, 19): qmod_3_set(2, 0);
            (15, 20): qmod_3_set(3, 0);
            (15, 21): qmod_3_set(4, 0);
            (15, 22): qmod_3_set(5, 0);
            (15, 23): qmod_3_set(6, 0);
            (15, 24): qmod_3_set(7, 0);
            (15, 25): qmod_3_set(8, 0);
            (15, 26): qmod_3_set(9, 0);
            (15, 27): qmod_3_set(10, 0);
            (15, 28): qmod_3_set(11, 0);
            (15, 29): qmod_3_set(12, 0);
            (15, 30): qmod_3_set(13, 0);
            (15, 31): qmod_3_set(14, 0);
            (16, 0): qmod_3_set(16, 1);
            (16, 1): qmod_3_set(17, 0);
            (16, 2): qmod_3_set(18, 0);
            (16, 3): qmod_3_set(19, 0);
            (16, 4): qmod_3_set(20, 0);
            (16, 5): qmod_3_set(21, 0);
            (16, 6): qmod_3_set(22, 0);
            (16, 7): qmod_3_set(23, 0);
            (16, 8): qmod_3_set(24, 0);
            (16, 9): qmod_3_set(25, 0);
            (16, 10): qmod_3_set(26, 0);
            (16, 11): qmod_3_set(27, 0);
            (16, 12): qmod_3_set(28, 0);
            (16, 13): qmod_3_set(29, 0);
            (16, 14): qmod_3_set(30, 0);
            (16, 15): qmod_3_set(31, 0);
            (16, 16): qmod_3_set(0, 0);
            (16, 17): qmod_3_set(1, 0);
            (16, 18): qmod_3_set(2, 0);
            (16, 19): qmod_3_set(3, 0);
            (16, 20): qmod_3_set(4, 0);
            (16, 21): qmod_3_set(5, 0);
            (16, 22): qmod_3_set(6, 0);
            (16, 23): qmod_3_set(7, 0);
            (16, 24): qmod_3_set(8, 0);
            (16, 25): qmod_3_set(9, 0);
            (16, 26): qmod_3_set(10, 0);
            (16, 27): qmod_3_set(11, 0);
            (16, 28): qmod_3_set(12, 0);
            (16, 29): qmod_3_set(13, 0);
            (16, 30): qmod_3_set(14, 0);
            (16, 31): qmod_3_set(15, 0);
            (17, 0): qmod_3_set(17, 1);
            (17, 1): qmod_3_set(18, 0);
            (17, 2): qmod_3_set(19, 0);
            (17, 3): qmod_3_set(20, 0);
            (17, 4): qmod_3_set(21, 0);
            (17, 5): qmod_3_set(22, 0);
            (17, 6): qmod_3_set(23, 0);
            (17, 7): qmod_3_set(24, 0);
            (17, 8): qmod_3_set(25, 0);
            (17, 9): qmod_3_set(26, 0);
            (17, 10): qmod_3_set(27, 0);
            (17, 11): qmod_3_set(28, 0);
            (17, 12): qmod_3_set(29, 0);
            (17, 13): qmod_3_set(30, 0);
            (17, 14): qmod_3_set(31, 0);
            (17, 15): qmod_3_set(0, 0);
            (17, 16): qmod_3_set(1, 0);
            (17, 17): qmod_3_set(2, 0);
            (17, 18): qmod_3_set(3, 0);
            (17, 19): qmod_3_set(4, 0);
            (17, 20): qmod_3_set(5, 0);
            (17, 21): qmod_3_set(6, 0);
            (17, 22): qmod_3_set(7, 0);
            (17, 23): qmod_3_set(8, 0);
            (17, 24): qmod_3_set(9, 0);
            (17, 25): qmod_3_set(10, 0);
            (17, 26): qmod_3_set(11, 0);
            (17, 27): qmod_3_set(12, 0);
            (17, 28): qmod_3_set(13, 0);
            (17, 29): qmod_3_set(14, 0);
            (17, 30): qmod_3_set(15, 0);
            (17, 31): qmod_3_set(16, 0);
            (18, 0): qmod_3_set(18, 1);
            (18, 1): qmod_3_set(19, 0);
            (18, 2): qmod_3_set(20, 0);
            (18, 3): qmod_3_set(21, 0);
            (18, 4): qmod_3_set(22, 0);
            (18, 5): qmod_3_set(23, 0);
            (18, 6): qmod_3_set(24, 0);
            (18, 7): qmod_3_set(25, 0);
            (18, 8): qmod_3_set(26, 0);
            (18, 9): qmod_3_set(27, 0);
            (18, 10): qmod_3_set(28, 0);
            (18, 11): qmod_3_set(29, 0);
            (18, 12): qmod_3_set(30, 0);
            (18, 13): qmod_3_set(31, 0);
            (18, 14): qmod_3_set(0, 0);
            (18, 15): qmod_3_set(1, 0);
            (18, 16): qmod_3_set(2, 0);
            (18, 17): qmod_3_set(3, 0);
            (18, 18): qmod_3_set(4, 0);
            (18, 19): qmod_3_set(5, 0);
            (18, 20): qmod_3_set(6, 0);
            (18, 21): qmod_3_set(7, 0);
            (18, 22): qmod_3_set(8, 0);
            (18, 23): qmod_3_set(9, 0);
            (18, 24): qmod_3_set(10, 0);
            (18, 25): qmod_3_set(11, 0);
            (18, 26): qmod_3_set(12, 0);
            (18, 27): qmod_3_set(13, 0);
            (18, 28): qmod_3_set(14, 0);
            (18, 29): qmod_3_set(15, 0);
            (18, 30): qmod_3_set(16, 0);
            (18, 31): qmod_3_set(17, 0);
            (19, 0): qmod_3_set(19, 1);
            (19, 1): qmod_3_set(20, 0);
            (19, 2): qmod_3_set(21, 0);
            (19, 3): qmod_3_set(22, 0);
            (19, 4): qmod_3_set(23, 0);
            (19, 5): qmod_3_set(24, 0);
            (19, 6): qmod_3_set(25, 0);
            (19, 7): qmod_3_set(26, 0);
            (19, 8): qmod_3_set(27, 0);
            (19, 9): qmod_3_set(28, 0);
            (19, 10): qmod_3_set(29, 0);
            (19, 11): qmod_3_set(30, 0);
            (19, 12): qmod_3_set(31, 0);
            (19, 13): qmod_3_set(0, 0);
            (19, 14): qmod_3_set(1, 0);
            (19, 15): qmod_3_set(2, 0);
            (19, 16): qmod_3_set(3, 0);
            (19, 17): qmod_3_set(4, 0);
            (19, 18): qmod_3_set(5, 0);
            (19, 19): qmod_3_set(6, 0);
            (19, 20): qmod_3_set(7, 0);
            (19, 21): qmod_3_set(8, 0);
            (19, 22): qmod_3_set(9, 0);
            (19, 23): qmod_3_set(10, 0);
            (19, 24): qmod_3_set(11, 0);
            (19, 25): qmod_3_set(12, 0);
            (19, 26): qmod_3_set(13, 0);
            (19, 27): qmod_3_set(14, 0);
            (19, 28): qmod_3_set(15, 0);
            (19, 29): qmod_3_set(16, 0);
            (19, 30): qmod_3_set(17, 0);
            (19, 31): qmod_3_set(18, 0);
            (20, 0): qmod_3_set(20, 1);
            (20, 1): qmod_3_set(21, 0);
            (20, 2): qmod_3_set(22, 0);
            (20, 3): qmod_3_set(23, 0);
            (20, 4): qmod_3_set(24, 0);
            (20, 5): qmod_3_set(25, 0);
            (20, 6): qmod_3_set(26, 0);
            (20, 7): qmod_3_set(27, 0);
            (20, 8): qmod_3_set(28, 0);
            (20, 9): qmod_3_set(29, 0);
            (20, 10): qmod_3_set(30, 0);
            (20, 11): qmod_3_set(31, 0);
            (20, 12): qmod_3_set(0, 0);
            (20, 13): qmod_3_set(1, 0);
            (20, 14): qmod_3_set(2, 0);
            (20, 15): qmod_3_set(3, 0);
            (20, 16): qmod_3_set(4, 0);
            (20, 17): qmod_3_set(5, 0);
            (20, 18): qmod_3_set(6, 0);
            (20, 19): qmod_3_set(7, 0);
            (20, 20): qmod_3_set(8, 0);
            (20, 21): qmod_3_set(9, 0);
            (20, 22): qmod_3_set(10, 0);
            (20, 23): qmod_3_set(11, 0);
            (20, 24): qmod_3_set(12, 0);
            (20, 25): qmod_3_set(13, 0);
            (20, 26): qmod_3_set(14, 0);
            (20, 27): qmod_3_set(15, 0);
            (20, 28): qmod_3_set(16, 0);
            (20, 29): qmod_3_set(17, 0);
            (20, 30): qmod_3_set(18, 0);
            (20, 31): qmod_3_set(19, 0);
            (21, 0): qmod_3_set(21, 1);
            (21, 1): qmod_3_set(22, 0);
            (21, 2): qmod_3_set(23, 0);
            (21, 3): qmod_3_set(24, 0);
            (21, 4): qmod_3_set(25, 0);
            (21, 5): qmod_3_set(26, 0);
            (21, 6): qmod_3_set(27, 0);
            (21, 7): qmod_3_set(28, 0);
            (21, 8): qmod_3_set(29, 0);
            (21, 9): qmod_3_set(30, 0);
            (21, 10): qmod_3_set(31, 0);
            (21, 11): qmod_3_set(0, 0);
            (21, 12): qmod_3_set(1, 0);
            (21, 13): qmod_3_set(2, 0);
            (21, 14): qmod_3_set(3, 0);
            (21, 15): qmod_3_set(4, 0);
            (21, 16): qmod_3_set(5, 0);
            (21, 17): qmod_3_set(6, 0);
            (21, 18): qmod_3_set(7, 0);
            (21, 19): qmod_3_set(8, 0);
            (21, 20): qmod_3_set(9, 0);
            (21, 21): qmod_3_set(10, 0);
            (21, 22): qmod_3_set(11, 0);
            (21, 23): qmod_3_set(12, 0);
            (21, 24): qmod_3_set(13, 0);
            (21, 25): qmod_3_set(14, 0);
            (21, 26): qmod_3_set(15, 0);
            (21, 27): qmod_3_set(16, 0);
            (21, 28): qmod_3_set(17, 0);
            (21, 29): qmod_3_set(18, 0);
            (21, 30): qmod_3_set(19, 0);
            (21, 31): qmod_3_set(20, 0);
            (22, 0): qmod_3_set(22, 1);
            (22, 1): qmod_3_set(23, 0);
            (22, 2): qmod_3_set(24, 0);
            (22, 3): qmod_3_set(25, 0);
            (22, 4): qmod_3_set(26, 0);
            (22, 5): qmod_3_set(27, 0);
            (22, 6): qmod_3_set(28, 0);
            (22, 7): qmod_3_set(29, 0);
            (22, 8): qmod_3_set(30, 0);
            (22, 9): qmod_3_set(31, 0);
            (22, 10): qmod_3_set(0, 0);
            (22, 11): qmod_3_set(1, 0);
            (22, 12): qmod_3_set(2, 0);
            (22, 13): qmod_3_set(3, 0);
            (22, 14): qmod_3_set(4, 0);
            (22, 15): qmod_3_set(5, 0);
            (22, 16): qmod_3_set(6, 0);
            (22, 17): qmod_3_set(7, 0);
            (22, 18): qmod_3_set(8, 0);
            (22, 19): qmod_3_set(9, 0);
            (22, 20): qmod_3_set(10, 0);
            (22, 21): qmod_3_set(11, 0);
            (22, 22): qmod_3_set(12, 0);
            (22, 23): qmod_3_set(13, 0);
            (22, 24): qmod_3_set(14, 0);
            (22, 25): qmod_3_set(15, 0);
            (22, 26): qmod_3_set(16, 0);
            (22, 27): qmod_3_set(17, 0);
            (22, 28): qmod_3_set(18, 0);
            (22, 29): qmod_3_set(19, 0);
            (22, 30): qmod_3_set(20, 0);
            (22, 31): qmod_3_set(21, 0);
            (23, 0): qmod_3_set(23, 1);
            (23, 1): qmod_3_set(24, 0);
            (23, 2): qmod_3_set(25, 0);
            (23, 3): qmod_3_set(26, 0);
            (23, 4): qmod_3_set(27, 0);
            (23, 5): qmod_3_set(28, 0);
            (23, 6): qmod_3_set(29, 0);
            (23, 7): qmod_3_set(30, 0);
            (23, 8): qmod_3_set(31, 0);
            (23, 9): qmod_3_set(0, 0);
            (23, 10): qmod_3_set(1, 0);
            (23, 11): qmod_3_set(2, 0);
            (23, 12): qmod_3_set(3, 0);
            (23, 13): qmod_3_set(4, 0);
            (23, 14): qmod_3_set(5, 0);
            (23, 15): qmod_3_set(6, 0);
            (23, 16): qmod_3_set(7, 0);
            (23, 17): qmod_3_set(8, 0);
            (23, 18): qmod_3_set(9, 0);
            (23, 19): qmod_3_set(10, 0);
            (23, 20): qmod_3_set(11, 0);
            (23, 21): qmod_3_set(12, 0);
            (23, 22): qmod_3_set(13, 0);
            (23, 23): qmod_3_set(14, 0);
            (23, 24): qmod_3_set(15, 0);
            (23, 25): qmod_3_set(16, 0);
            (23, 26): qmod_3_set(17, 0);
            (23, 27): qmod_3_set(18, 0);
            (23, 28): qmod_3_set(19, 0);
            (23, 29): qmod_3_set(20, 0);
            (23, 30): qmod_3_set(21, 0);
            (23, 31): qmod_3_set(22, 0);
            (24, 0): qmod_3_set(24, 1);
            (24, 1): qmod_3_set(25, 0);
            (24, 2): qmod_3_set(26, 0);
            (24, 3): qmod_3_set(27, 0);
            (24, 4): qmod_3_set(28, 0);
            (24, 5): qmod_3_set(29, 0);
            (24, 6): qmod_3_set(30, 0);
            (24, 7): qmod_3_set(31, 0);
            (24, 8): qmod_3_set(0, 0);
            (24, 9): qmod_3_set(1, 0);
            (24, 10): qmod_3_set(2, 0);
            (24, 11): qmod_3_set(3, 0);
            (24, 12): qmod_3_set(4, 0);
            (24, 13): qmod_3_set(5, 0);
            (24, 14): qmod_3_set(6, 0);
            (24, 15): qmod_3_set(7, 0);
            (24, 16): qmod_3_set(8, 0);
            (24, 17): qmod_3_set(9, 0);
            (24, 18): qmod_3_set(10, 0);
            (24, 19): qmod_3_set(11, 0);
            (24, 20): qmod_3_set(12, 0);
            (24, 21): qmod_3_set(13, 0);
            (24, 22): qmod_3_set(14, 0);
            (24, 23): qmod_3_set(15, 0);
            (24, 24): qmod_3_set(16, 0);
            (24, 25): qmod_3_set(17, 0);
            (24, 26): qmod_3_set(18, 0);
            (24, 27): qmod_3_set(19, 0);
            (24, 28): qmod_3_set(20, 0);
            (24, 29): qmod_3_set(21, 0);
            (24, 30): qmod_3_set(22, 0);
            (24, 31): qmod_3_set(23, 0);
            (25, 0): qmod_3_set(25, 1);
            (25, 1): qmod_3_set(26, 0);
            (25, 2): qmod_3_set(27, 0);
            (25, 3): qmod_3_set(28, 0);
            (25, 4): qmod_3_set(29, 0);
            (25, 5): qmod_3_set(30, 0);
            (25, 6): qmod_3_set(31, 0);
            (25, 7): qmod_3_set(0, 0);
            (25, 8): qmod_3_set(1, 0);
            (25, 9): qmod_3_set(2, 0);
            (25, 10): qmod_3_set(3, 0);
            (25, 11): qmod_3_set(4, 0);
            (25, 12): qmod_3_set(5, 0);
            (25, 13): qmod_3_set(6, 0);
            (25, 14): qmod_3_set(7, 0);
            (25, 15): qmod_3_set(8, 0);
            (25, 16): qmod_3_set(9, 0);
            (25, 17): qmod_3_set(10, 0);
            (25, 18): qmod_3_set(11, 0);
            (25, 19): qmod_3_set(12, 0);
            (25, 20): qmod_3_set(13, 0);
            (25, 21): qmod_3_set(14, 0);
            (25, 22): qmod_3_set(15, 0);
            (25, 23): qmod_3_set(16, 0);
            (25, 24): qmod_3_set(17, 0);
            (25, 25): qmod_3_set(18, 0);
            (25, 26): qmod_3_set(19, 0);
            (25, 27): qmod_3_set(20, 0);
            (25, 28): qmod_3_set(21, 0);
            (25, 29): qmod_3_set(22, 0);
            (25, 30): qmod_3_set(23, 0);
            (25, 31): qmod_3_set(24, 0);
            (26, 0): qmod_3_set(26, 1);
            (26, 1): qmod_3_set(27, 0);
            (26, 2): qmod_3_set(28, 0);
            (26, 3): qmod_3_set(29, 0);
            (26, 4): qmod_3_set(30, 0);
            (26, 5): qmod_3_set(31, 0);
            (26, 6): qmod_3_set(0, 0);
            (26, 7): qmod_3_set(1, 0);
            (26, 8): qmod_3_set(2, 0);
            (26, 9): qmod_3_set(3, 0);
            (26, 10): qmod_3_set(4, 0);
            (26, 11): qmod_3_set(5, 0);
            (26, 12): qmod_3_set(6, 0);
            (26, 13): qmod_3_set(7, 0);
            (26, 14): qmod_3_set(8, 0);
            (26, 15): qmod_3_set(9, 0);
            (26, 16): qmod_3_set(10, 0);
            (26, 17): qmod_3_set(11, 0);
            (26, 18): qmod_3_set(12, 0);
            (26, 19): qmod_3_set(13, 0);
            (26, 20): qmod_3_set(14, 0);
            (26, 21): qmod_3_set(15, 0);
            (26, 22): qmod_3_set(16, 0);
            (26, 23): qmod_3_set(17, 0);
            (26, 24): qmod_3_set(18, 0);
            (26, 25): qmod_3_set(19, 0);
            (26, 26): qmod_3_set(20, 0);
            (26, 27): qmod_3_set(21, 0);
            (26, 28): qmod_3_set(22, 0);
            (26, 29): qmod_3_set(23, 0);
            (26, 30): qmod_3_set(24, 0);
            (26, 31): qmod_3_set(25, 0);
            (27, 0): qmod_3_set(27, 1);
            (27, 1): qmod_3_set(28, 0);
            (27, 2): qmod_3_set(29, 0);
            (27, 3): qmod_3_set(30, 0);
            (27, 4): qmod_3_set(31, 0);
            (27, 5): qmod_3_set(0, 0);
            (27, 6): qmod_3_set(1, 0);
            (27, 7): qmod_3_set(2, 0);
            (27, 8): qmod_3_set(3, 0);
            (27, 9): qmod_3_set(4, 0);
            (27, 10): qmod_3_set(5, 0);
            (27, 11): qmod_3_set(6, 0);
            (27, 12): qmod_3_set(7, 0);
            (27, 13): qmod_3_set(8, 0);
            (27, 14): qmod_3_set(9, 0);
            (27, 15): qmod_3_set(10, 0);
            (27, 16): qmod_3_set(11, 0);
            (27, 17): qmod_3_set(12, 0);
            (27, 18): qmod_3_set(13, 0);
            (27, 19): qmod_3_set(14, 0);
            (27, 20): qmod_3_set(15, 0);
            (27, 21): qmod_3_set(16, 0);
            (27, 22): qmod_3_set(17, 0);
            (27, 23): qmod_3_set(18, 0);
            (27, 24): qmod_3_set(19, 0);
            (27, 25): qmod_3_set(20, 0);
            (27, 26): qmod_3_set(21, 0);
            (27, 27): qmod_3_set(22, 0);
            (27, 28): qmod_3_set(23, 0);
            (27, 29): qmod_3_set(24, 0);
            (27, 30): qmod_3_set(25, 0);
            (27, 31): qmod_3_set(26, 0);
            (28, 0): qmod_3_set(28, 1);
            (28, 1): qmod_3_set(29, 0);
            (28, 2): qmod_3_set(30, 0);
            (28, 3): qmod_3_set(31, 0);
            (28, 4): qmod_3_set(0, 0);
            (28, 5): qmod_3_set(1, 0);
            (28, 6): qmod_3_set(2, 0);
            (28, 7): qmod_3_set(3, 0);
            (28, 8): qmod_3_set(4, 0);
            (28, 9): qmod_3_set(5, 0);
            (28, 10): qmod_3_set(6, 0);
            (28, 11): qmod_3_set(7, 0);
            (28, 12): qmod_3_set(8, 0);
            (28, 13): qmod_3_set(9, 0);
            (28, 14): qmod_3_set(10, 0);
            (28, 15): qmod_3_set(11, 0);
            (28, 16): qmod_3_set(12, 0);
            (28, 17): qmod_3_set(13, 0);
            (28, 18): qmod_3_set(14, 0);
            (28, 19): qmod_3_set(15, 0);
            (28, 20): qmod_3_set(16, 0);
            (28, 21): qmod_3_set(17, 0);
            (28, 22): qmod_3_set(18, 0);
            (28, 23): qmod_3_set(19, 0);
            (28, 24): qmod_3_set(20, 0);
            (28, 25): qmod_3_set(21, 0);
            (28, 26): qmod_3_set(22, 0);
            (28, 27): qmod_3_set(23, 0);
            (28, 28): qmod_3_set(24, 0);
            (28, 29): qmod_3_set(25, 0);
            (28, 30): qmod_3_set(26, 0);
            (28, 31): qmod_3_set(27, 0);
            (29, 0): qmod_3_set(29, 1);
            (29, 1): qmod_3_set(30, 0);
            (29, 2): qmod_3_set(31, 0);
            (29, 3): qmod_3_set(0, 0);
            (29, 4): qmod_3_set(1, 0);
            (29, 5): qmod_3_set(2, 0);
            (29, 6): qmod_3_set(3, 0);
            (29, 7): qmod_3_set(4, 0);
            (29, 8): qmod_3_set(5, 0);
            (29, 9): qmod_3_set(6, 0);
            (29, 10): qmod_3_set(7, 0);
            (29, 11): qmod_3_set(8, 0);
            (29, 12): qmod_3_set(9, 0);
            (29, 13): qmod_3_set(10, 0);
            (29, 14): qmod_3_set(11, 0);
            (29, 15): qmod_3_set(12, 0);
            (29, 16): qmod_3_set(13, 0);
            (29, 17): qmod_3_set(14, 0);
            (29, 18): qmod_3_set(15, 0);
            (29, 19): qmod_3_set(16, 0);
            (29, 20): qmod_3_set(17, 0);
            (29, 21): qmod_3_set(18, 0);
            (29, 22): qmod_3_set(19, 0);
            (29, 23): qmod_3_set(20, 0);
            (29, 24): qmod_3_set(21, 0);
            (29, 25): qmod_3_set(22, 0);
            (29, 26): qmod_3_set(23, 0);
            (29, 27): qmod_3_set(24, 0);
            (29, 28): qmod_3_set(25, 0);
            (29, 29): qmod_3_set(26, 0);
            (29, 30): qmod_3_set(27, 0);
            (29, 31): qmod_3_set(28, 0);
            (30, 0): qmod_3_set(30, 1);
            (30, 1): qmod_3_set(31, 0);
            (30, 2): qmod_3_set(0, 0);
            (30, 3): qmod_3_set(1, 0);
            (30, 4): qmod_3_set(2, 0);
            (30, 5): qmod_3_set(3, 0);
            (30, 6): qmod_3_set(4, 0);
            (30, 7): qmod_3_set(5, 0);
            (30, 8): qmod_3_set(6, 0);
            (30, 9): qmod_3_set(7, 0);
            (30, 10): qmod_3_set(8, 0);
            (30, 11): qmod_3_set(9, 0);
            (30, 12): qmod_3_set(10, 0);
            (30, 13): qmod_3_set(11, 0);
            (30, 14): qmod_3_set(12, 0);
            (30, 15): qmod_3_set(13, 0);
            (30, 16): qmod_3_set(14, 0);
            (30, 17): qmod_3_set(15, 0);
            (30, 18): qmod_3_set(16, 0);
            (30, 19): qmod_3_set(17, 0);
            (30, 20): qmod_3_set(18, 0);
            (30, 21): qmod_3_set(19, 0);
            (30, 22): qmod_3_set(20, 0);
            (30, 23): qmod_3_set(21, 0);
            (30, 24): qmod_3_set(22, 0);
            (30, 25): qmod_3_set(23, 0);
            (30, 26): qmod_3_set(24, 0);
            (30, 27): qmod_3_set(25, 0);
            (30, 28): qmod_3_set(26, 0);
            (30, 29): qmod_3_set(27, 0);
            (30, 30): qmod_3_set(28, 0);
            (30, 31): qmod_3_set(29, 0);
            (31, 0): qmod_3_set(31, 1);
            (31, 1): qmod_3_set(0, 0);
            (31, 2): qmod_3_set(1, 0);
            (31, 3): qmod_3_set(2, 0);
            (31, 4): qmod_3_set(3, 0);
            (31, 5): qmod_3_set(4, 0);
            (31, 6): qmod_3_set(5, 0);
            (31, 7): qmod_3_set(6, 0);
            (31, 8): qmod_3_set(7, 0);
            (31, 9): qmod_3_set(8, 0);
            (31, 10): qmod_3_set(9, 0);
            (31, 11): qmod_3_set(10, 0);
            (31, 12): qmod_3_set(11, 0);
            (31, 13): qmod_3_set(12, 0);
            (31, 14): qmod_3_set(13, 0);
            (31, 15): qmod_3_set(14, 0);
            (31, 16): qmod_3_set(15, 0);
            (31, 17): qmod_3_set(16, 0);
            (31, 18): qmod_3_set(17, 0);
            (31, 19): qmod_3_set(18, 0);
            (31, 20): qmod_3_set(19, 0);
            (31, 21): qmod_3_set(20, 0);
            (31, 22): qmod_3_set(21, 0);
            (31, 23): qmod_3_set(22, 0);
            (31, 24): qmod_3_set(23, 0);
            (31, 25): qmod_3_set(24, 0);
            (31, 26): qmod_3_set(25, 0);
            (31, 27): qmod_3_set(26, 0);
            (31, 28): qmod_3_set(27, 0);
            (31, 29): qmod_3_set(28, 0);
            (31, 30): qmod_3_set(29, 0);
            (31, 31): qmod_3_set(30, 0);
        }
        size = 1024;
    }
    Hash<qidx_t>(HashAlgorithm_t.IDENTITY) qidx_3_hash;
    action slot_3_ok() { meta.alt_ok_3 = meta.alt_pre_3 & meta.alt_unfull_3; }
    /* copy 3's one access per packet, by what the packet is (q_op): a front-panel packet
     * tests slot 3's queue, a pause clears a drained queue, a port-down or queue-state
     * update sets it. One table per copy, so each stage's stateful ALUs take four copies. */
    action q_3_test() { meta.alt_unfull_3 = qstate_3_test.execute(meta.alt_i_3); }
    action q_3_set() { qstate_3_set.execute(meta.alt_i_3); }
    action q_3_clear() { qstate_3_clear.execute(meta.alt_i_3); }
    table qstate_3_op {
        key = { meta.q_op: exact; }
        actions = { q_3_test; q_3_set; q_3_clear; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            Q_TEST: q_3_test();
            Q_SET: q_3_set();
            Q_CLEAR: q_3_clear();
        }
        size = 3;
    }
    action slot_3_i() { meta.alt_i_3 = qidx_3_hash.get({meta.alt_up_3, meta.alt_q_3}); }
    /* slot 3's uplink masked down by the control plane (the config's `down`): the slot
     * counts as Full (as bmv2: a failed uplink is passed over). One ternary entry per uplink
     * tests its bit of the mask (no shift of the mask by a packet's field). */
    action slot_3_down() { meta.alt_dn_3 = 1; }
    table down_3 {
        key = {
            meta.alt_up_3: exact @name("uplink");
            meta.down_cfg: ternary @name("down");
        }
        actions = { slot_3_down; NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0x1 &&& 0x1): slot_3_down();
            (1, 0x2 &&& 0x2): slot_3_down();
            (2, 0x4 &&& 0x4): slot_3_down();
            (3, 0x8 &&& 0x8): slot_3_down();
            (4, 0x10 &&& 0x10): slot_3_down();
            (5, 0x20 &&& 0x20): slot_3_down();
            (6, 0x40 &&& 0x40): slot_3_down();
            (7, 0x80 &&& 0x80): slot_3_down();
            (8, 0x100 &&& 0x100): slot_3_down();
            (9, 0x200 &&& 0x200): slot_3_down();
            (10, 0x400 &&& 0x400): slot_3_down();
            (11, 0x800 &&& 0x800): slot_3_down();
            (12, 0x1000 &&& 0x1000): slot_3_down();
            (13, 0x2000 &&& 0x2000): slot_3_down();
            (14, 0x4000 &&& 0x4000): slot_3_down();
            (15, 0x8000 &&& 0x8000): slot_3_down();
            (16, 0x10000 &&& 0x10000): slot_3_down();
            (17, 0x20000 &&& 0x20000): slot_3_down();
            (18, 0x40000 &&& 0x40000): slot_3_down();
            (19, 0x80000 &&& 0x80000): slot_3_down();
            (20, 0x100000 &&& 0x100000): slot_3_down();
            (21, 0x200000 &&& 0x200000): slot_3_down();
            (22, 0x400000 &&& 0x400000): slot_3_down();
            (23, 0x800000 &&& 0x800000): slot_3_down();
            (24, 0x1000000 &&& 0x1000000): slot_3_down();
            (25, 0x2000000 &&& 0x2000000): slot_3_down();
            (26, 0x4000000 &&& 0x4000000): slot_3_down();
            (27, 0x8000000 &&& 0x8000000): slot_3_down();
            (28, 0x10000000 &&& 0x10000000): slot_3_down();
            (29, 0x20000000 &&& 0x20000000): slot_3_down();
            (30, 0x40000000 &&& 0x40000000): slot_3_down();
            (31, 0x80000000 &&& 0x80000000): slot_3_down();
        }
        size = 32;
    }
    Register<bit<8>, qidx_t>(8192, 0) qstate_4;
    /* the one-shot test: 1 if the queue is Unfull */
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_4) qstate_4_test = {
        void apply(inout bit<8> v, out bit<8> rv) {
            rv = 0;
            if (v == 0) { rv = 1; }
        }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_4) qstate_4_set = {
        void apply(inout bit<8> v) { v = 1; }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_4) qstate_4_clear = {
        void apply(inout bit<8> v) { v = 0; }
    };
    /* slot 4: queue = (active + wait) mod Q by one table keyed by both (no
     * adder and no modulo on the way to the register); index = uplink * 256 + queue by an
     * identity hash (no shifts) */
    action qmod_4_set(queue_t q, bit<1> act) {
        meta.alt_q_4 = q;
        meta.alt_act_4 = act;       // wait 0: the active queue
    }
    table qmod_4 {
        key = {
            meta.active_q_1: exact @name("active");
            meta.alt_wait_4: exact @name("wait");
        }
        actions = { qmod_4_set; }
        const entries = {
            (0, 0): qmod_4_set(0, 1);
            (0, 1): qmod_4_set(1, 0);
            (0, 2): qmod_4_set(2, 0);
            (0, 3): qmod_4_set(3, 0);
            (0, 4): qmod_4_set(4, 0);
            (0, 5): qmod_4_set(5, 0);
            (0, 6): qmod_4_set(6, 0);
            (0, 7): qmod_4_set(7, 0);
            (0, 8): qmod_4_set(8, 0);
            (0, 9): qmod_4_set(9, 0);
            (0, 10): qmod_4_set(10, 0);
            (0, 11): qmod_4_set(11, 0);
            (0, 12): qmod_4_set(12, 0);
            (0, 13): qmod_4_set(13, 0);
            (0, 14): qmod_4_set(14, 0);
            (0, 15): qmod_4_set(15, 0);
            (0, 16): qmod_4_set(16, 0);
            (0, 17): qmod_4_set(17, 0);
            (0, 18): qmod_4_set(18, 0);
            (0, 19): qmod_4_set(19, 0);
            (0, 20): qmod_4_set(20, 0);
            (0, 21): qmod_4_set(21, 0);
            (0, 22): qmod_4_set(22, 0);
            (0, 23): qmod_4_set(23, 0);
            (0, 24): qmod_4_set(24, 0);
            (0, 25): qmod_4_set(25, 0);
            (0, 26): qmod_4_set(26, 0);
            (0, 27): qmod_4_set(27, 0);
            (0, 28): qmod_4_set(28, 0);
            (0, 29): qmod_4_set(29, 0);
            (0, 30): qmod_4_set(30, 0);
            (0, 31): qmod_4_set(31, 0);
            (1, 0): qmod_4_set(1, 1);
            (1, 1): qmod_4_set(2, 0);
            (1, 2): qmod_4_set(3, 0);
            (1, 3): qmod_4_set(4, 0);
            (1, 4): qmod_4_set(5, 0);
            (1, 5): qmod_4_set(6, 0);
            (1, 6): qmod_4_set(7, 0);
            (1, 7): qmod_4_set(8, 0);
            (1, 8): qmod_4_set(9, 0);
            (1, 9): qmod_4_set(10, 0);
            (1, 10): qmod_4_set(11, 0);
            (1, 11): qmod_4_set(12, 0);
            (1, 12): qmod_4_set(13, 0);
            (1, 13): qmod_4_set(14, 0);
            (1, 14): qmod_4_set(15, 0);
            (1, 15): qmod_4_set(16, 0);
            (1, 16): qmod_4_set(17, 0);
            (1, 17): qmod_4_set(18, 0);
            (1, 18): qmod_4_set(19, 0);
            (1, 19): qmod_4_set(20, 0);
            (1, 20): qmod_4_set(21, 0);
            (1, 21): qmod_4_set(22, 0);
            (1, 22): qmod_4_set(23, 0);
            (1, 23): qmod_4_set(24, 0);
            (1, 24): qmod_4_set(25, 0);
            (1, 25): qmod_4_set(26, 0);
            (1, 26): qmod_4_set(27, 0);
            (1, 27): qmod_4_set(28, 0);
            (1, 28): qmod_4_set(29, 0);
            (1, 29): qmod_4_set(30, 0);
            (1, 30): qmod_4_set(31, 0);
            (1, 31): qmod_4_set(0, 0);
            (2, 0): qmod_4_set(2, 1);
            (2, 1): qmod_4_set(3, 0);
            (2, 2): qmod_4_set(4, 0);
            (2, 3): qmod_4_set(5, 0);
            (2, 4): qmod_4_set(6, 0);
            (2, 5): qmod_4_set(7, 0);
            (2, 6): qmod_4_set(8, 0);
            (2, 7): qmod_4_set(9, 0);
            (2, 8): qmod_4_set(10, 0);
            (2, 9): qmod_4_set(11, 0);
            (2, 10): qmod_4_set(12, 0);
            (2, 11): qmod_4_set(13, 0);
            (2, 12): qmod_4_set(14, 0);
            (2, 13): qmod_4_set(15, 0);
            (2, 14): qmod_4_set(16, 0);
            (2, 15): qmod_4_set(17, 0);
            (2, 16): qmod_4_set(18, 0);
            (2, 17): qmod_4_set(19, 0);
            (2, 18): qmod_4_set(20, 0);
            (2, 19): qmod_4_set(21, 0);
            (2, 20): qmod_4_set(22, 0);
            (2, 21): qmod_4_set(23, 0);
            (2, 22): qmod_4_set(24, 0);
            (2, 23): qmod_4_set(25, 0);
            (2, 24): qmod_4_set(26, 0);
            (2, 25): qmod_4_set(27, 0);
            (2, 26): qmod_4_set(28, 0);
            (2, 27): qmod_4_set(29, 0);
            (2, 28): qmod_4_set(30, 0);
            (2, 29): qmod_4_set(31, 0);
            (2, 30): qmod_4_set(0, 0);
            (2, 31): qmod_4_set(1, 0);
            (3, 0): qmod_4_set(3, 1);
            (3, 1): qmod_4_set(4, 0);
            (3, 2): qmod_4_set(5, 0);
            (3, 3): qmod_4_set(6, 0);
            (3, 4): qmod_4_set(7, 0);
            (3, 5): qmod_4_set(8, 0);
            (3, 6): qmod_4_set(9, 0);
            (3, 7): qmod_4_set(10, 0);
            (3, 8): qmod_4_set(11, 0);
            (3, 9): qmod_4_set(12, 0);
            (3, 10): qmod_4_set(13, 0);
            (3, 11): qmod_4_set(14, 0);
            (3, 12): qmod_4_set(15, 0);
            (3, 13): qmod_4_set(16, 0);
            (3, 14): qmod_4_set(17, 0);
            (3, 15): qmod_4_set(18, 0);
            (3, 16): qmod_4_set(19, 0);
            (3, 17): qmod_4_set(20, 0);
            (3, 18): qmod_4_set(21, 0);
            (3, 19): qmod_4_set(22, 0);
            (3, 20): qmod_4_set(23, 0);
            (3, 21): qmod_4_set(24, 0);
            (3, 22): qmod_4_set(25, 0);
            (3, 23): qmod_4_set(26, 0);
            (3, 24): qmod_4_set(27, 0);
            (3, 25): qmod_4_set(28, 0);
            (3, 26): qmod_4_set(29, 0);
            (3, 27): qmod_4_set(30, 0);
            (3, 28): qmod_4_set(31, 0);
            (3, 29): qmod_4_set(0, 0);
            (3, 30): qmod_4_set(1, 0);
            (3, 31): qmod_4_set(2, 0);
            (4, 0): qmod_4_set(4, 1);
            (4, 1): qmod_4_set(5, 0);
            (4, 2): qmod_4_set(6, 0);
            (4, 3): qmod_4_set(7, 0);
            (4, 4): qmod_4_set(8, 0);
            (4, 5): qmod_4_set(9, 0);
            (4, 6): qmod_4_set(10, 0);
            (4, 7): qmod_4_set(11, 0);
            (4, 8): qmod_4_set(12, 0);
            (4, 9): qmod_4_set(13, 0);
            (4, 10): qmod_4_set(14, 0);
            (4, 11): qmod_4_set(15, 0);
            (4, 12): qmod_4_set(16, 0);
            (4, 13): qmod_4_set(17, 0);
            (4, 14): qmod_4_set(18, 0);
            (4, 15): qmod_4_set(19, 0);
            (4, 16): qmod_4_set(20, 0);
            (4, 17): qmod_4_set(21, 0);
            (4, 18): qmod_4_set(22, 0);
            (4, 19): qmod_4_set(23, 0);
            (4, 20): qmod_4_set(24, 0);
            (4, 21): qmod_4_set(25, 0);
            (4, 22): qmod_4_set(26, 0);
            (4, 23): qmod_4_set(27, 0);
            (4, 24): qmod_4_set(28, 0);
            (4, 25): qmod_4_set(29, 0);
            (4, 26): qmod_4_set(30, 0);
            (4, 27): qmod_4_set(31, 0);
            (4, 28): qmod_4_set(0, 0);
            (4, 29): qmod_4_set(1, 0);
            (4, 30): qmod_4_set(2, 0);
            (4, 31): qmod_4_set(3, 0);
            (5, 0): qmod_4_set(5, 1);
            (5, 1): qmod_4_set(6, 0);
            (5, 2): qmod_4_set(7, 0);
            (5, 3): qmod_4_set(8, 0);
            (5, 4): qmod_4_set(9, 0);
            (5, 5): qmod_4_set(10, 0);
            (5, 6): qmod_4_set(11, 0);
            (5, 7): qmod_4_set(12, 0);
            (5, 8): qmod_4_set(13, 0);
            (5, 9): qmod_4_set(14, 0);
            (5, 10): qmod_4_set(15, 0);
            (5, 11): qmod_4_set(16, 0);
            (5, 12): qmod_4_set(17, 0);
            (5, 13): qmod_4_set(18, 0);
            (5, 14): qmod_4_set(19, 0);
            (5, 15): qmod_4_set(20, 0);
            (5, 16): qmod_4_set(21, 0);
            (5, 17): qmod_4_set(22, 0);
            (5, 18): qmod_4_set(23, 0);
            (5, 19): qmod_4_set(24, 0);
            (5, 20): qmod_4_set(25, 0);
            (5, 21): qmod_4_set(26, 0);
            (5, 22): qmod_4_set(27, 0);
            (5, 23): qmod_4_set(28, 0);
            (5, 24): qmod_4_set(29, 0);
            (5, 25): qmod_4_set(30, 0);
            (5, 26): qmod_4_set(31, 0);
            (5, 27): qmod_4_set(0, 0);
            (5, 28): qmod_4_set(1, 0);
            (5, 29): qmod_4_set(2, 0);
            (5, 30): qmod_4_set(3, 0);
            (5, 31): qmod_4_set(4, 0);
            (6, 0): qmod_4_set(6, 1);
            (6, 1): qmod_4_set(7, 0);
            (6, 2): qmod_4_set(8, 0);
            (6, 3): qmod_4_set(9, 0);
            (6, 4): qmod_4_set(10, 0);
            (6, 5): qmod_4_set(11, 0);
            (6, 6): qmod_4_set(12, 0);
            (6, 7): qmod_4_set(13, 0);
            (6, 8): qmod_4_set(14, 0);
            (6, 9): qmod_4_set(15, 0);
            (6, 10): qmod_4_set(16, 0);
            (6, 11): qmod_4_set(17, 0);
            (6, 12): qmod_4_set(18, 0);
            (6, 13): qmod_4_set(19, 0);
            (6, 14): qmod_4_set(20, 0);
            (6, 15): qmod_4_set(21, 0);
            (6, 16): qmod_4_set(22, 0);
            (6, 17): qmod_4_set(23, 0);
            (6, 18): qmod_4_set(24, 0);
            (6, 19): qmod_4_set(25, 0);
            (6, 20): qmod_4_set(26, 0);
            (6, 21): qmod_4_set(27, 0);
            (6, 22): qmod_4_set(28, 0);
            (6, 23): qmod_4_set(29, 0);
            (6, 24): qmod_4_set(30, 0);
            (6, 25): qmod_4_set(31, 0);
            (6, 26): qmod_4_set(0, 0);
            (6, 27): qmod_4_set(1, 0);
            (6, 28): qmod_4_set(2, 0);
            (6, 29): qmod_4_set(3, 0);
            (6, 30): qmod_4_set(4, 0);
            (6, 31): qmod_4_set(5, 0);
            (7, 0): qmod_4_set(7, 1);
            (7, 1): qmod_4_set(8, 0);
            (7, 2): qmod_4_set(9, 0);
            (7, 3): qmod_4_set(10, 0);
            (7, 4): qmod_4_set(11, 0);
            (7, 5): qmod_4_set(12, 0);
            (7, 6): qmod_4_set(13, 0);
            (7, 7): qmod_4_set(14, 0);
            (7, 8): qmod_4_set(15, 0);
            (7, 9): qmod_4_set(16, 0);
            (7, 10): qmod_4_set(17, 0);
            (7, 11): qmod_4_set(18, 0);
            (7, 12): qmod_4_set(19, 0);
            (7, 13): qmod_4_set(20, 0);
            (7, 14): qmod_4_set(21, 0);
            (7, 15): qmod_4_set(22, 0);
            (7, 16): qmod_4_set(23, 0);
            (7, 17): qmod_4_set(24, 0);
            (7, 18): qmod_4_set(25, 0);
            (7, 19): qmod_4_set(26, 0);
            (7, 20): qmod_4_set(27, 0);
            (7, 21): qmod_4_set(28, 0);
            (7, 22): qmod_4_set(29, 0);
            (7, 23): qmod_4_set(30, 0);
            (7, 24): qmod_4_set(31, 0);
            (7, 25): qmod_4_set(0, 0);
            (7, 26): qmod_4_set(1, 0);
            (7, 27): qmod_4_set(2, 0);
            (7, 28): qmod_4_set(3, 0);
            (7, 29): qmod_4_set(4, 0);
            (7, 30): qmod_4_set(5, 0);
            (7, 31): qmod_4_set(6, 0);
            (8, 0): qmod_4_set(8, 1);
            (8, 1): qmod_4_set(9, 0);
            (8, 2): qmod_4_set(10, 0);
            (8, 3): qmod_4_set(11, 0);
            (8, 4): qmod_4_set(12, 0);
            (8, 5): qmod_4_set(13, 0);
            (8, 6): qmod_4_set(14, 0);
            (8, 7): qmod_4_set(15, 0);
            (8, 8): qmod_4_set(16, 0);
            (8, 9): qmod_4_set(17, 0);
            (8, 10): qmod_4_set(18, 0);
            (8, 11): qmod_4_set(19, 0);
            (8, 12): qmod_4_set(20, 0);
            (8, 13): qmod_4_set(21, 0);
            (8, 14): qmod_4_set(22, 0);
            (8, 15): qmod_4_set(23, 0);
            (8, 16): qmod_4_set(24, 0);
            (8, 17): qmod_4_set(25, 0);
            (8, 18): qmod_4_set(26, 0);
            (8, 19): qmod_4_set(27, 0);
            (8, 20): qmod_4_set(28, 0);
            (8, 21): qmod_4_set(29, 0);
            (8, 22): qmod_4_set(30, 0);
            (8, 23): qmod_4_set(31, 0);
            (8, 24): qmod_4_set(0, 0);
            (8, 25): qmod_4_set(1, 0);
            (8, 26): qmod_4_set(2, 0);
            (8, 27): qmod_4_set(3, 0);
            (8, 28): qmod_4_set(4, 0);
            (8, 29): qmod_4_set(5, 0);
            (8, 30): qmod_4_set(6, 0);
            (8, 31): qmod_4_set(7, 0);
            (9, 0): qmod_4_set(9, 1);
            (9, 1): qmod_4_set(10, 0);
            (9, 2): qmod_4_set(11, 0);
            (9, 3): qmod_4_set(12, 0);
            (9, 4): qmod_4_set(13, 0);
            (9, 5): qmod_4_set(14, 0);
            (9, 6): qmod_4_set(15, 0);
            (9, 7): qmod_4_set(16, 0);
            (9, 8): qmod_4_set(17, 0);
            (9, 9): qmod_4_set(18, 0);
            (9, 10): qmod_4_set(19, 0);
            (9, 11): qmod_4_set(20, 0);
            (9, 12): qmod_4_set(21, 0);
            (9, 13): qmod_4_set(22, 0);
            (9, 14): qmod_4_set(23, 0);
            (9, 15): qmod_4_set(24, 0);
            (9, 16): qmod_4_set(25, 0);
            (9, 17): qmod_4_set(26, 0);
            (9, 18): qmod_4_set(27, 0);
            (9, 19): qmod_4_set(28, 0);
            (9, 20): qmod_4_set(29, 0);
            (9, 21): qmod_4_set(30, 0);
            (9, 22): qmod_4_set(31, 0);
            (9, 23): qmod_4_set(0, 0);
            (9, 24): qmod_4_set(1, 0);
            (9, 25): qmod_4_set(2, 0);
            (9, 26): qmod_4_set(3, 0);
            (9, 27): qmod_4_set(4, 0);
            (9, 28): qmod_4_set(5, 0);
            (9, 29): qmod_4_set(6, 0);
            (9, 30): qmod_4_set(7, 0);
            (9, 31): qmod_4_set(8, 0);
            (10, 0): qmod_4_set(10, 1);
            (10, 1): qmod_4_set(11, 0);
            (10, 2): qmod_4_set(12, 0);
            (10, 3): qmod_4_set(13, 0);
            (10, 4): qmod_4_set(14, 0);
            (10, 5): qmod_4_set(15, 0);
            (10, 6): qmod_4_set(16, 0);
            (10, 7): qmod_4_set(17, 0);
            (10, 8): qmod_4_set(18, 0);
            (10, 9): qmod_4_set(19, 0);
            (10, 10): qmod_4_set(20, 0);
            (10, 11): qmod_4_set(21, 0);
            (10, 12): qmod_4_set(22, 0);
            (10, 13): qmod_4_set(23, 0);
            (10, 14): qmod_4_set(24, 0);
            (10, 15): qmod_4_set(25, 0);
            (10, 16): qmod_4_set(26, 0);
            (10, 17): qmod_4_set(27, 0);
            (10, 18): qmod_4_set(28, 0);
            (10, 19): qmod_4_set(29, 0);
            (10, 20): qmod_4_set(30, 0);
            (10, 21): qmod_4_set(31, 0);
            (10, 22): qmod_4_set(0, 0);
            (10, 23): qmod_4_set(1, 0);
            (10, 24): qmod_4_set(2, 0);
            (10, 25): qmod_4_set(3, 0);
            (10, 26): qmod_4_set(4, 0);
            (10, 27): qmod_4_set(5, 0);
            (10, 28): qmod_4_set(6, 0);
            (10, 29): qmod_4_set(7, 0);
            (10, 30): qmod_4_set(8, 0);
            (10, 31): qmod_4_set(9, 0);
            (11, 0): qmod_4_set(11, 1);
            (11, 1): qmod_4_set(12, 0);
            (11, 2): qmod_4_set(13, 0);
            (11, 3): qmod_4_set(14, 0);
            (11, 4): qmod_4_set(15, 0);
            (11, 5): qmod_4_set(16, 0);
            (11, 6): qmod_4_set(17, 0);
            (11, 7): qmod_4_set(18, 0);
            (11, 8): qmod_4_set(19, 0);
            (11, 9): qmod_4_set(20, 0);
            (11, 10): qmod_4_set(21, 0);
            (11, 11): qmod_4_set(22, 0);
            (11, 12): qmod_4_set(23, 0);
            (11, 13): qmod_4_set(24, 0);
            (11, 14): qmod_4_set(25, 0);
            (11, 15): qmod_4_set(26, 0);
            (11, 16): qmod_4_set(27, 0);
            (11, 17): qmod_4_set(28, 0);
            (11, 18): qmod_4_set(29, 0);
            (11, 19): qmod_4_set(30, 0);
            (11, 20): qmod_4_set(31, 0);
            (11, 21): qmod_4_set(0, 0);
            (11, 22): qmod_4_set(1, 0);
            (11, 23): qmod_4_set(2, 0);
            (11, 24): qmod_4_set(3, 0);
            (11, 25): qmod_4_set(4, 0);
            (11, 26): qmod_4_set(5, 0);
            (11, 27): qmod_4_set(6, 0);
            (11, 28): qmod_4_set(7, 0);
            (11, 29): qmod_4_set(8, 0);
            (11, 30): qmod_4_set(9, 0);
            (11, 31): qmod_4_set(10, 0);
            (12, 0): qmod_4_set(12, 1);
            (12, 1): qmod_4_set(13, 0);
            (12, 2): qmod_4_set(14, 0);
            (12, 3): qmod_4_set(15, 0);
            (12, 4): qmod_4_set(16, 0);
            (12, 5): qmod_4_set(17, 0);
            (12, 6): qmod_4_set(18, 0);
            (12, 7): qmod_4_set(19, 0);
            (12, 8): qmod_4_set(20, 0);
            (12, 9): qmod_4_set(21, 0);
            (12, 10): qmod_4_set(22, 0);
            (12, 11): qmod_4_set(23, 0);
            (12, 12): qmod_4_set(24, 0);
            (12, 13): qmod_4_set(25, 0);
            (12, 14): qmod_4_set(26, 0);
            (12, 15): qmod_4_set(27, 0);
            (12, 16): qmod_4_set(28, 0);
            (12, 17): qmod_4_set(29, 0);
            (12, 18): qmod_4_set(30, 0);
            (12, 19): qmod_4_set(31, 0);
            (12, 20): qmod_4_set(0, 0);
            (12, 21): qmod_4_set(1, 0);
            (12, 22): qmod_4_set(2, 0);
            (12, 23): qmod_4_set(3, 0);
            (12, 24): qmod_4_set(4, 0);
            (12, 25): qmod_4_set(5, 0);
            (12, 26): qmod_4_set(6, 0);
            (12, 27): qmod_4_set(7, 0);
            (12, 28): qmod_4_set(8, 0);
            (12, 29): qmod_4_set(9, 0);
            (12, 30): qmod_4_set(10, 0);
            (12, 31): qmod_4_set(11, 0);
            (13, 0): qmod_4_set(13, 1);
            (13, 1): qmod_4_set(14, 0);
            (13, 2): qmod_4_set(15, 0);
            (13, 3): qmod_4_set(16, 0);
            (13, 4): qmod_4_set(17, 0);
            (13, 5): qmod_4_set(18, 0);
            (13, 6): qmod_4_set(19, 0);
            (13, 7): qmod_4_set(20, 0);
            (13, 8): qmod_4_set(21, 0);
            (13, 9): qmod_4_set(22, 0);
            (13, 10): qmod_4_set(23, 0);
            (13, 11): qmod_4_set(24, 0);
            (13, 12): qmod_4_set(25, 0);
            (13, 13): qmod_4_set(26, 0);
            (13, 14): qmod_4_set(27, 0);
            (13, 15): qmod_4_set(28, 0);
            (13, 16): qmod_4_set(29, 0);
            (13, 17): qmod_4_set(30, 0);
            (13, 18): qmod_4_set(31, 0);
            (13, 19): qmod_4_set(0, 0);
            (13, 20): qmod_4_set(1, 0);
            (13, 21): qmod_4_set(2, 0);
            (13, 22): qmod_4_set(3, 0);
            (13, 23): qmod_4_set(4, 0);
            (13, 24): qmod_4_set(5, 0);
            (13, 25): qmod_4_set(6, 0);
            (13, 26): qmod_4_set(7, 0);
            (13, 27): qmod_4_set(8, 0);
            (13, 28): qmod_4_set(9, 0);
            (13, 29): qmod_4_set(10, 0);
            (13, 30): qmod_4_set(11, 0);
            (13, 31): qmod_4_set(12, 0);
            (14, 0): qmod_4_set(14, 1);
            (14, 1): qmod_4_set(15, 0);
            (14, 2): qmod_4_set(16, 0);
            (14, 3): qmod_4_set(17, 0);
            (14, 4): qmod_4_set(18, 0);
            (14, 5): qmod_4_set(19, 0);
            (14, 6): qmod_4_set(20, 0);
            (14, 7): qmod_4_set(21, 0);
            (14, 8): qmod_4_set(22, 0);
            (14, 9): qmod_4_set(23, 0);
            (14, 10): qmod_4_set(24, 0);
            (14, 11): qmod_4_set(25, 0);
            (14, 12): qmod_4_set(26, 0);
            (14, 13): qmod_4_set(27, 0);
            (14, 14): qmod_4_set(28, 0);
            (14, 15): qmod_4_set(29, 0);
            (14, 16): qmod_4_set(30, 0);
            (14, 17): qmod_4_set(31, 0);
            (14, 18): qmod_4_set(0, 0);
            (14, 19): qmod_4_set(1, 0);
            (14, 20): qmod_4_set(2, 0);
            (14, 21): qmod_4_set(3, 0);
            (14, 22): qmod_4_set(4, 0);
            (14, 23): qmod_4_set(5, 0);
            (14, 24): qmod_4_set(6, 0);
            (14, 25): qmod_4_set(7, 0);
            (14, 26): qmod_4_set(8, 0);
            (14, 27): qmod_4_set(9, 0);
            (14, 28): qmod_4_set(10, 0);
            (14, 29): qmod_4_set(11, 0);
            (14, 30): qmod_4_set(12, 0);
            (14, 31): qmod_4_set(13, 0);
            (15, 0): qmod_4_set(15, 1);
            (15, 1): qmod_4_set(16, 0);
            (15, 2): qmod_4_set(17, 0);
            (15, 3): qmod_4_set(18, 0);
            (15, 4): qmod_4_set(19, 0);
            (15, 5): qmod_4_set(20, 0);
            (15, 6): qmod_4_set(21, 0);
            (15, 7): qmod_4_set(22, 0);
            (15, 8): qmod_4_set(23, 0);
            (15, 9): qmod_4_set(24, 0);
            (15, 10): qmod_4_set(25, 0);
            (15, 11): qmod_4_set(26, 0);
            (15, 12): qmod_4_set(27, 0);
            (15, 13): qmod_4_set(28, 0);
            (15, 14): qmod_4_set(29, 0);
            (15, 15): qmod_4_set(30, 0);
            (15, 16): qmod_4_set(31, 0);
            (15, 17): qmod_4_set(0, 0);
            (15, 18): qmod_4_set(1, 0);
            (15, 19): qmod_4_set(2, 0);
            (15, 20): qmod_4_set(3, 0);
            (15, 21): qmod_4_set(4, 0);
            (15, 22): qmod_4_set(5, 0);
            (15, 23): qmod_4_set(6, 0);
            (15, 24): qmod_4_set(7, 0);
            (15, 25): qmod_4_set(8, 0);
            (15, 26): qmod_4_set(9, 0);
            (15, 27): qmod_4_set(10, 0);
            (15, 28): qmod_4_set(11, 0);
            (15, 29): qmod_4_set(12, 0);
            (15, 30): qmod_4_set(13, 0);
            (15, 31): qmod_4_set(14, 0);
            (16, 0): qmod_4_set(16, 1);
            (16, 1): qmod_4_set(17, 0);
            (16, 2): qmod_4_set(18, 0);
            (16, 3): qmod_4_set(19, 0);
            (16, 4): qmod_4_set(20, 0);
            (16, 5): qmod_4_set(21, 0);
            (16, 6): qmod_4_set(22, 0);
            (16, 7): qmod_4_set(23, 0);
            (16, 8): qmod_4_set(24, 0);
            (16, 9): qmod_4_set(25, 0);
            (16, 10): qmod_4_set(26, 0);
            (16, 11): qmod_4_set(27, 0);
            (16, 12): qmod_4_set(28, 0);
            (16, 13): qmod_4_set(29, 0);
            (16, 14): qmod_4_set(30, 0);
            (16, 15): qmod_4_set(31, 0);
            (16, 16): qmod_4_set(0, 0);
            (16, 17): qmod_4_set(1, 0);
            (16, 18): qmod_4_set(2, 0);
            (16, 19): qmod_4_set(3, 0);
            (16, 20): qmod_4_set(4, 0);
            (16, 21): qmod_4_set(5, 0);
            (16, 22): qmod_4_set(6, 0);
            (16, 23): qmod_4_set(7, 0);
            (16, 24): qmod_4_set(8, 0);
            (16, 25): qmod_4_set(9, 0);
            (16, 26): qmod_4_set(10, 0);
            (16, 27): qmod_4_set(11, 0);
            (16, 28): qmod_4_set(12, 0);
            (16, 29): qmod_4_set(13, 0);
            (16, 30): qmod_4_set(14, 0);
            (16, 31): qmod_4_set(15, 0);
            (17, 0): qmod_4_set(17, 1);
            (17, 1): qmod_4_set(18, 0);
            (17, 2): qmod_4_set(19, 0);
            (17, 3): qmod_4_set(20, 0);
            (17, 4): qmod_4_set(21, 0);
            (17, 5): qmod_4_set(22, 0);
            (17, 6): qmod_4_set(23, 0);
            (17, 7): qmod_4_set(24, 0);
            (17, 8): qmod_4_set(25, 0);
            (17, 9): qmod_4_set(26, 0);
            (17, 10): qmod_4_set(27, 0);
            (17, 11): qmod_4_set(28, 0);
            (17, 12): qmod_4_set(29, 0);
            (17, 13): qmod_4_set(30, 0);
            (17, 14): qmod_4_set(31, 0);
            (17, 15): qmod_4_set(0, 0);
            (17, 16): qmod_4_set(1, 0);
            (17, 17): qmod_4_set(2, 0);
            (17, 18): qmod_4_set(3, 0);
            (17, 19): qmod_4_set(4, 0);
            (17, 20): qmod_4_set(5, 0);
            (17, 21): qmod_4_set(6, 0);
            (17, 22): qmod_4_set(7, 0);
            (17, 23): qmod_4_set(8, 0);
            (17, 24): qmod_4_set(9, 0);
            (17, 25): qmod_4_set(10, 0);
            (17, 26): qmod_4_set(11, 0);
            (17, 27): qmod_4_set(12, 0);
            (17, 28): qmod_4_set(13, 0);
            (17, 29): qmod_4_set(14, 0);
            (17, 30): qmod_4_set(15, 0);
            (17, 31): qmod_4_set(16, 0);
            (18, 0): qmod_4_set(18, 1);
            (18, 1): qmod_4_set(19, 0);
            (18, 2): qmod_4_set(20, 0);
            (18, 3): qmod_4_set(21, 0);
            (18, 4): qmod_4_set(22, 0);
            (18, 5): qmod_4_set(23, 0);
            (18, 6): qmod_4_set(24, 0);
            (18, 7): qmod_4_set(25, 0);
            (18, 8): qmod_4_set(26, 0);
            (18, 9): qmod_4_set(27, 0);
            (18, 10): qmod_4_set(28, 0);
            (18, 11): qmod_4_set(29, 0);
            (18, 12): qmod_4_set(30, 0);
            (18, 13): qmod_4_set(31, 0);
            (18, 14): qmod_4_set(0, 0);
            (18, 15): qmod_4_set(1, 0);
            (18, 16): qmod_4_set(2, 0);
            (18, 17): qmod_4_set(3, 0);
            (18, 18): qmod_4_set(4, 0);
            (18, 19): qmod_4_set(5, 0);
            (18, 20): qmod_4_set(6, 0);
            (18, 21): qmod_4_set(7, 0);
            (18, 22): qmod_4_set(8, 0);
            (18, 23): qmod_4_set(9, 0);
            (18, 24): qmod_4_set(10, 0);
            (18, 25): qmod_4_set(11, 0);
            (18, 26): qmod_4_set(12, 0);
            (18, 27): qmod_4_set(13, 0);
            (18, 28): qmod_4_set(14, 0);
            (18, 29): qmod_4_set(15, 0);
            (18, 30): qmod_4_set(16, 0);
            (18, 31): qmod_4_set(17, 0);
            (19, 0): qmod_4_set(19, 1);
            (19, 1): qmod_4_set(20, 0);
            (19, 2): qmod_4_set(21, 0);
            (19, 3): qmod_4_set(22, 0);
            (19, 4): qmod_4_set(23, 0);
            (19, 5): qmod_4_set(24, 0);
            (19, 6): qmod_4_set(25, 0);
            (19, 7): qmod_4_set(26, 0);
            (19, 8): qmod_4_set(27, 0);
            (19, 9): qmod_4_set(28, 0);
            (19, 10): qmod_4_set(29, 0);
            (19, 11): qmod_4_set(30, 0);
            (19, 12): qmod_4_set(31, 0);
            (19, 13): qmod_4_set(0, 0);
            (19, 14): qmod_4_set(1, 0);
            (19, 15): qmod_4_set(2, 0);
            (19, 16): qmod_4_set(3, 0);
            (19, 17): qmod_4_set(4, 0);
            (19, 18): qmod_4_set(5, 0);
            (19, 19): qmod_4_set(6, 0);
            (19, 20): qmod_4_set(7, 0);
            (19, 21): qmod_4_set(8, 0);
            (19, 22): qmod_4_set(9, 0);
            (19, 23): qmod_4_set(10, 0);
            (19, 24): qmod_4_set(11, 0);
            (19, 25): qmod_4_set(12, 0);
            (19, 26): qmod_4_set(13, 0);
            (19, 27): qmod_4_set(14, 0);
            (19, 28): qmod_4_set(15, 0);
            (19, 29): qmod_4_set(16, 0);
            (19, 30): qmod_4_set(17, 0);
            (19, 31): qmod_4_set(18, 0);
            (20, 0): qmod_4_set(20, 1);
            (20, 1): qmod_4_set(21, 0);
            (20, 2): qmod_4_set(22, 0);
            (20, 3): qmod_4_set(23, 0);
            (20, 4): qmod_4_set(24, 0);
            (20, 5): qmod_4_set(25, 0);
            (20, 6): qmod_4_set(26, 0);
            (20, 7): qmod_4_set(27, 0);
            (20, 8): qmod_4_set(28, 0);
            (20, 9): qmod_4_set(29, 0);
            (20, 10): qmod_4_set(30, 0);
            (20, 11): qmod_4_set(31, 0);
            (20, 12): qmod_4_set(0, 0);
            (20, 13): qmod_4_set(1, 0);
            (20, 14): qmod_4_set(2, 0);
            (20, 15): qmod_4_set(3, 0);
            (20, 16): qmod_4_set(4, 0);
            (20, 17): qmod_4_set(5, 0);
            (20, 18): qmod_4_set(6, 0);
            (20, 19): qmod_4_set(7, 0);
            (20, 20): qmod_4_set(8, 0);
            (20, 21): qmod_4_set(9, 0);
            (20, 22): qmod_4_set(10, 0);
            (20, 23): qmod_4_set(11, 0);
            (20, 24): qmod_4_set(12, 0);
            (20, 25): qmod_4_set(13, 0);
            (20, 26): qmod_4_set(14, 0);
            (20, 27): qmod_4_set(15, 0);
            (20, 28): qmod_4_set(16, 0);
            (20, 29): qmod_4_set(17, 0);
            (20, 30): qmod_4_set(18, 0);
            (20, 31): qmod_4_set(19, 0);
            (21, 0): qmod_4_set(21, 1);
            (21, 1): qmod_4_set(22, 0);
            (21, 2): qmod_4_set(23, 0);
            (21, 3): qmod_4_set(24, 0);
            (21, 4): qmod_4_set(25, 0);
            (21, 5): qmod_4_set(26, 0);
            (21, 6): qmod_4_set(27, 0);
            (21, 7): qmod_4_set(28, 0);
            (21, 8): qmod_4_set(29, 0);
            (21, 9): qmod_4_set(30, 0);
            (21, 10): qmod_4_set(31, 0);
            (21, 11): qmod_4_set(0, 0);
            (21, 12): qmod_4_set(1, 0);
            (21, 13): qmod_4_set(2, 0);
            (21, 14): qmod_4_set(3, 0);
            (21, 15): qmod_4_set(4, 0);
            (21, 16): qmod_4_set(5, 0);
            (21, 17): qmod_4_set(6, 0);
            (21, 18): qmod_4_set(7, 0);
            (21, 19): qmod_4_set(8, 0);
            (21, 20): qmod_4_set(9, 0);
            (21, 21): qmod_4_set(10, 0);
            (21, 22): qmod_4_set(11, 0);
            (21, 23): qmod_4_set(12, 0);
            (21, 24): qmod_4_set(13, 0);
            (21, 25): qmod_4_set(14, 0);
            (21, 26): qmod_4_set(15, 0);
            (21, 27): qmod_4_set(16, 0);
            (21, 28): qmod_4_set(17, 0);
            (21, 29): qmod_4_set(18, 0);
            (21, 30): qmod_4_set(19, 0);
            (21, 31): qmod_4_set(20, 0);
            (22, 0): qmod_4_set(22, 1);
            (22, 1): qmod_4_set(23, 0);
            (22, 2): qmod_4_set(24, 0);
            (22, 3): qmod_4_set(25, 0);
            (22, 4): qmod_4_set(26, 0);
            (22, 5): qmod_4_set(27, 0);
            (22, 6): qmod_4_set(28, 0);
            (22, 7): qmod_4_set(29, 0);
            (22, 8): qmod_4_set(30, 0);
            (22, 9): qmod_4_set(31, 0);
            (22, 10): qmod_4_set(0, 0);
            (22, 11): qmod_4_set(1, 0);
            (22, 12): qmod_4_set(2, 0);
            (22, 13): qmod_4_set(3, 0);
            (22, 14): qmod_4_set(4, 0);
            (22, 15): qmod_4_set(5, 0);
            (22, 16): qmod_4_set(6, 0);
            (22, 17): qmod_4_set(7, 0);
            (22, 18): qmod_4_set(8, 0);
            (22, 19): qmod_4_set(9, 0);
            (22, 20): qmod_4_set(10, 0);
            (22, 21): qmod_4_set(11, 0);
            (22, 22): qmod_4_set(12, 0);
            (22, 23): qmod_4_set(13, 0);
            (22, 24): qmod_4_set(14, 0);
            (22, 25): qmod_4_set(15, 0);
            (22, 26): qmod_4_set(16, 0);
            (22, 27): qmod_4_set(17, 0);
            (22, 28): qmod_4_set(18, 0);
            (22, 29): qmod_4_set(19, 0);
            (22, 30): qmod_4_set(20, 0);
            (22, 31): qmod_4_set(21, 0);
            (23, 0): qmod_4_set(23, 1);
            (23, 1): qmod_4_set(24, 0);
            (23, 2): qmod_4_set(25, 0);
            (23, 3): qmod_4_set(26, 0);
            (23, 4): qmod_4_set(27, 0);
            (23, 5): qmod_4_set(28, 0);
            (23, 6): qmod_4_set(29, 0);
            (23, 7): qmod_4_set(30, 0);
            (23, 8): qmod_4_set(31, 0);
            (23, 9): qmod_4_set(0, 0);
            (23, 10): qmod_4_set(1, 0);
            (23, 11): qmod_4_set(2, 0);
            (23, 12): qmod_4_set(3, 0);
            (23, 13): qmod_4_set(4, 0);
            (23, 14): qmod_4_set(5, 0);
            (23, 15): qmod_4_set(6, 0);
            (23, 16): qmod_4_set(7, 0);
            (23, 17): qmod_4_set(8, 0);
            (23, 18): qmod_4_set(9, 0);
            (23, 19): qmod_4_set(10, 0);
            (23, 20): qmod_4_set(11, 0);
            (23, 21): qmod_4_set(12, 0);
            (23, 22): qmod_4_set(13, 0);
            (23, 23): qmod_4_set(14, 0);
            (23, 24): qmod_4_set(15, 0);
            (23, 25): qmod_4_set(16, 0);
            (23, 26): qmod_4_set(17, 0);
            (23, 27): qmod_4_set(18, 0);
            (23, 28): qmod_4_set(19, 0);
            (23, 29): qmod_4_set(20, 0);
            (23, 30): qmod_4_set(21, 0);
            (23, 31): qmod_4_set(22, 0);
            (24, 0): qmod_4_set(24, 1);
            (24, 1): qmod_4_set(25, 0);
            (24, 2): qmod_4_set(26, 0);
            (24, 3): qmod_4_set(27, 0);
            (24, 4): qmod_4_set(28, 0);
            (24, 5): qmod_4_set(29, 0);
            (24, 6): qmod_4_set(30, 0);
            (24, 7): qmod_4_set(31, 0);
            (24, 8): qmod_4_set(0, 0);
            (24, 9): qmod_4_set(1, 0);
            (24, 10): qmod_4_set(2, 0);
            (24, 11): qmod_4_set(3, 0);
            (24, 12): qmod_4_set(4, 0);
            (24, 13): qmod_4_set(5, 0);
            (24, 14): qmod_4_set(6, 0);
            (24, 15): qmod_4_set(7, 0);
            (24, 16): qmod_4_set(8, 0);
            (24, 17): qmod_4_set(9, 0);
            (24, 18): qmod_4_set(10, 0);
            (24, 19): qmod_4_set(11, 0);
            (24, 20): qmod_4_set(12, 0);
            (24, 21): qmod_4_set(13, 0);
            (24, 22): qmod_4_set(14, 0);
            (24, 23): qmod_4_set(15, 0);
            (24, 24): qmod_4_set(16, 0);
            (24, 25): qmod_4_set(17, 0);
            (24, 26): qmod_4_set(18, 0);
            (24, 27): qmod_4_set(19, 0);
            (24, 28): qmod_4_set(20, 0);
            (24, 29): qmod_4_set(21, 0);
            (24, 30): qmod_4_set(22, 0);
            (24, 31): qmod_4_set(23, 0);
            (25, 0): qmod_4_set(25, 1);
            (25, 1): qmod_4_set(26, 0);
            (25, 2): qmod_4_set(27, 0);
            (25, 3): qmod_4_set(28, 0);
            (25, 4): qmod_4_set(29, 0);
            (25, 5): qmod_4_set(30, 0);
            (25, 6): qmod_4_set(31, 0);
            (25, 7): qmod_4_set(0, 0);
            (25, 8): qmod_4_set(1, 0);
            (25, 9): qmod_4_set(2, 0);
            (25, 10): qmod_4_set(3, 0);
            (25, 11): qmod_4_set(4, 0);
            (25, 12): qmod_4_set(5, 0);
            (25, 13): qmod_4_set(6, 0);
            (25, 14): qmod_4_set(7, 0);
            (25, 15): qmod_4_set(8, 0);
            (25, 16): qmod_4_set(9, 0);
            (25, 17): qmod_4_set(10, 0);
            (25, 18): qmod_4_set(11, 0);
            (25, 19): qmod_4_set(12, 0);
            (25, 20): qmod_4_set(13, 0);
            (25, 21): qmod_4_set(14, 0);
            (25, 22): qmod_4_set(15, 0);
            (25, 23): qmod_4_set(16, 0);
            (25, 24): qmod_4_set(17, 0);
            (25, 25): qmod_4_set(18, 0);
            (25, 26): qmod_4_set(19, 0);
            (25, 27): qmod_4_set(20, 0);
            (25, 28): qmod_4_set(21, 0);
            (25, 29): qmod_4_set(22, 0);
            (25, 30): qmod_4_set(23, 0);
            (25, 31): qmod_4_set(24, 0);
            (26, 0): qmod_4_set(26, 1);
            (26, 1): qmod_4_set(27, 0);
            (26, 2): qmod_4_set(28, 0);
            (26, 3): qmod_4_set(29, 0);
            (26, 4): qmod_4_set(30, 0);
            (26, 5): qmod_4_set(31, 0);
            (26, 6): qmod_4_set(0, 0);
            (26, 7): qmod_4_set(1, 0);
            (26, 8): qmod_4_set(2, 0);
            (26, 9): qmod_4_set(3, 0);
            (26, 10): qmod_4_set(4, 0);
            (26, 11): qmod_4_set(5, 0);
            (26, 12): qmod_4_set(6, 0);
            (26, 13): qmod_4_set(7, 0);
            (26, 14): qmod_4_set(8, 0);
            (26, 15): qmod_4_set(9, 0);
            (26, 16): qmod_4_set(10, 0);
            (26, 17): qmod_4_set(11, 0);
            (26, 18): qmod_4_set(12, 0);
            (26, 19): qmod_4_set(13, 0);
            (26, 20): qmod_4_set(14, 0);
            (26, 21): qmod_4_set(15, 0);
            (26, 22): qmod_4_set(16, 0);
            (26, 23): qmod_4_set(17, 0);
            (26, 24): qmod_4_set(18, 0);
            (26, 25): qmod_4_set(19, 0);
            (26, 26): qmod_4_set(20, 0);
            (26, 27): qmod_4_set(21, 0);
            (26, 28): qmod_4_set(22, 0);
            (26, 29): qmod_4_set(23, 0);
            (26, 30): qmod_4_set(24, 0);
            (26, 31): qmod_4_set(25, 0);
            (27, 0): qmod_4_set(27, 1);
            (27, 1): qmod_4_set(28, 0);
            (27, 2): qmod_4_set(29, 0);
            (27, 3): qmod_4_set(30, 0);
            (27, 4): qmod_4_set(31, 0);
            (27, 5): qmod_4_set(0, 0);
            (27, 6): qmod_4_set(1, 0);
            (27, 7): qmod_4_set(2, 0);
            (27, 8): qmod_4_set(3, 0);
            (27, 9): qmod_4_set(4, 0);
            (27, 10): qmod_4_set(5, 0);
            (27, 11): qmod_4_set(6, 0);
            (27, 12): qmod_4_set(7, 0);
            (27, 13): qmod_4_set(8, 0);
            (27, 14): qmod_4_set(9, 0);
            (27, 15): qmod_4_set(10, 0);
            (27, 16): qmod_4_set(11, 0);
            (27, 17): qmod_4_set(12, 0);
            (27, 18): qmod_4_set(13, 0);
            (27, 19): qmod_4_set(14, 0);
            (27, 20): qmod_4_set(15, 0);
            (27, 21): qmod_4_set(16, 0);
            (27, 22): qmod_4_set(17, 0);
            (27, 23): qmod_4_set(18, 0);
            (27, 24): qmod_4_set(19, 0);
            (27, 25): qmod_4_set(20, 0);
            (27, 26): qmod_4_set(21, 0);
            (27, 27): qmod_4_set(22, 0);
            (27, 28): qmod_4_set(23, 0);
            (27, 29): qmod_4_set(24, 0);
            (27, 30): qmod_4_set(25, 0);
            (27, 31): qmod_4_set(26, 0);
            (28, 0): qmod_4_set(28, 1);
            (28, 1): qmod_4_set(29, 0);
            (28, 2): qmod_4_set(30, 0);
            (28, 3): qmod_4_set(31, 0);
            (28, 4): qmod_4_set(0, 0);
            (28, 5): qmod_4_set(1, 0);
            (28, 6): qmod_4_set(2, 0);
            (28, 7): qmod_4_set(3, 0);
            (28, 8): qmod_4_set(4, 0);
            (28, 9): qmod_4_set(5, 0);
            (28, 10): qmod_4_set(6, 0);
            (28, 11): qmod_4_set(7, 0);
            (28, 12): qmod_4_set(8, 0);
            (28, 13): qmod_4_set(9, 0);
            (28, 14): qmod_4_set(10, 0);
            (28, 15): qmod_4_set(11, 0);
            (28, 16): qmod_4_set(12, 0);
            (28, 17): qmod_4_set(13, 0);
            (28, 18): qmod_4_set(14, 0);
            (28, 19): qmod_4_set(15, 0);
            (28, 20): qmod_4_set(16, 0);
            (28, 21): qmod_4_set(17, 0);
            (28, 22): qmod_4_set(18, 0);
            (28, 23): qmod_4_set(19, 0);
            (28, 24): qmod_4_set(20, 0);
            (28, 25): qmod_4_set(21, 0);
            (28, 26): qmod_4_set(22, 0);
            (28, 27): qmod_4_set(23, 0);
            (28, 28): qmod_4_set(24, 0);
            (28, 29): qmod_4_set(25, 0);
            (28, 30): qmod_4_set(26, 0);
            (28, 31): qmod_4_set(27, 0);
            (29, 0): qmod_4_set(29, 1);
            (29, 1): qmod_4_set(30, 0);
            (29, 2): qmod_4_set(31, 0);
            (29, 3): qmod_4_set(0, 0);
            (29, 4): qmod_4_set(1, 0);
            (29, 5): qmod_4_set(2, 0);
            (29, 6): qmod_4_set(3, 0);
            (29, 7): qmod_4_set(4, 0);
            (29, 8): qmod_4_set(5, 0);
            (29, 9): qmod_4_set(6, 0);
            (29, 10): qmod_4_set(7, 0);
            (29, 11): qmod_4_set(8, 0);
            (29, 12): qmod_4_set(9, 0);
            (29, 13): qmod_4_set(10, 0);
            (29, 14): qmod_4_set(11, 0);
            (29, 15): qmod_4_set(12, 0);
            (29, 16): qmod_4_set(13, 0);
            (29, 17): qmod_4_set(14, 0);
            (29, 18): qmod_4_set(15, 0);
            (29, 19): qmod_4_set(16, 0);
            (29, 20): qmod_4_set(17, 0);
            (29, 21): qmod_4_set(18, 0);
            (29, 22): qmod_4_set(19, 0);
            (29, 23): qmod_4_set(20, 0);
            (29, 24): qmod_4_set(21, 0);
            (29, 25): qmod_4_set(22, 0);
            (29, 26): qmod_4_set(23, 0);
            (29, 27): qmod_4_set(24, 0);
            (29, 28): qmod_4_set(25, 0);
            (29, 29): qmod_4_set(26, 0);
            (29, 30): qmod_4_set(27, 0);
            (29, 31): qmod_4_set(28, 0);
            (30, 0): qmod_4_set(30, 1);
            (30, 1): qmod_4_set(31, 0);
            (30, 2): qmod_4_set(0, 0);
            (30, 3): qmod_4_set(1, 0);
            (30, 4): qmod_4_set(2, 0);
            (30, 5): qmod_4_set(3, 0);
            (30, 6): qmod_4_set(4, 0);
            (30, 7): qmod_4_set(5, 0);
            (30, 8): qmod_4_set(6, 0);
            (30, 9): qmod_4_set(7, 0);
            (30, 10): qmod_4_set(8, 0);
            (30, 11): qmod_4_set(9, 0);
            (30, 12): qmod_4_set(10, 0);
            (30, 13): qmod_4_set(11, 0);
            (30, 14): qmod_4_set(12, 0);
            (30, 15): qmod_4_set(13, 0);
            (30, 16): qmod_4_set(14, 0);
            (30, 17): qmod_4_set(15, 0);
            (30, 18): qmod_4_set(16, 0);
            (30, 19): qmod_4_set(17, 0);
            (30, 20): qmod_4_set(18, 0);
            (30, 21): qmod_4_set(19, 0);
            (30, 22): qmod_4_set(20, 0);
            (30, 23): qmod_4_set(21, 0);
            (30, 24): qmod_4_set(22, 0);
            (30, 25): qmod_4_set(23, 0);
            (30, 26): qmod_4_set(24, 0);
            (30, 27): qmod_4_set(25, 0);
            (30, 28): qmod_4_set(26, 0);
            (30, 29): qmod_4_set(27, 0);
            (30, 30): qmod_4_set(28, 0);
            (30, 31): qmod_4_set(29, 0);
            (31, 0): qmod_4_set(31, 1);
            (31, 1): qmod_4_set(0, 0);
            (31, 2): qmod_4_set(1, 0);
            (31, 3): qmod_4_set(2, 0);
            (31, 4): qmod_4_set(3, 0);
            (31, 5): qmod_4_set(4, 0);
            (31, 6): qmod_4_set(5, 0);
            (31, 7): qmod_4_set(6, 0);
            (31, 8): qmod_4_set(7, 0);
            (31, 9): qmod_4_set(8, 0);
            (31, 10): qmod_4_set(9, 0);
            (31, 11): qmod_4_set(10, 0);
            (31, 12): qmod_4_set(11, 0);
            (31, 13): qmod_4_set(12, 0);
            (31, 14): qmod_4_set(13, 0);
            (31, 15): qmod_4_set(14, 0);
            (31, 16): qmod_4_set(15, 0);
            (31, 17): qmod_4_set(16, 0);
            (31, 18): qmod_4_set(17, 0);
            (31, 19): qmod_4_set(18, 0);
            (31, 20): qmod_4_set(19, 0);
            (31, 21): qmod_4_set(20, 0);
            (31, 22): qmod_4_set(21, 0);
            (31, 23): qmod_4_set(22, 0);
            (31, 24): qmod_4_set(23, 0);
            (31, 25): qmod_4_set(24, 0);
            (31, 26): qmod_4_set(25, 0);
            (31, 27): qmod_4_set(26, 0);
            (31, 28): qmod_4_set(27, 0);
            (31, 29): qmod_4_set(28, 0);
            (31, 30): qmod_4_set(29, 0);
            (31, 31): qmod_4_set(30, 0);
        }
        size = 1024;
    }
    Hash<qidx_t>(HashAlgorithm_t.IDENTITY) qidx_4_hash;
    action slot_4_ok() { meta.alt_ok_4 = meta.alt_pre_4 & meta.alt_unfull_4; }
    /* copy 4's one access per packet, by what the packet is (q_op): a front-panel packet
     * tests slot 4's queue, a pause clears a drained queue, a port-down or queue-state
     * update sets it. One table per copy, so each stage's stateful ALUs take four copies. */
    action q_4_test() { meta.alt_unfull_4 = qstate_4_test.execute(meta.alt_i_4); }
    action q_4_set() { qstate_4_set.execute(meta.alt_i_4); }
    action q_4_clear() { qstate_4_clear.execute(meta.alt_i_4); }
    table qstate_4_op {
        key = { meta.q_op: exact; }
        actions = { q_4_test; q_4_set; q_4_clear; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            Q_TEST: q_4_test();
            Q_SET: q_4_set();
            Q_CLEAR: q_4_clear();
        }
        size = 3;
    }
    action slot_4_i() { meta.alt_i_4 = qidx_4_hash.get({meta.alt_up_4, meta.alt_q_4}); }
    /* slot 4's uplink masked down by the control plane (the config's `down`): the slot
     * counts as Full (as bmv2: a failed uplink is passed over). One ternary entry per uplink
     * tests its bit of the mask (no shift of the mask by a packet's field). */
    action slot_4_down() { meta.alt_dn_4 = 1; }
    table down_4 {
        key = {
            meta.alt_up_4: exact @name("uplink");
            meta.down_cfg: ternary @name("down");
        }
        actions = { slot_4_down; NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0x1 &&& 0x1): slot_4_down();
            (1, 0x2 &&& 0x2): slot_4_down();
            (2, 0x4 &&& 0x4): slot_4_down();
            (3, 0x8 &&& 0x8): slot_4_down();
            (4, 0x10 &&& 0x10): slot_4_down();
            (5, 0x20 &&& 0x20): slot_4_down();
            (6, 0x40 &&& 0x40): slot_4_down();
            (7, 0x80 &&& 0x80): slot_4_down();
            (8, 0x100 &&& 0x100): slot_4_down();
            (9, 0x200 &&& 0x200): slot_4_down();
            (10, 0x400 &&& 0x400): slot_4_down();
            (11, 0x800 &&& 0x800): slot_4_down();
            (12, 0x1000 &&& 0x1000): slot_4_down();
            (13, 0x2000 &&& 0x2000): slot_4_down();
            (14, 0x4000 &&& 0x4000): slot_4_down();
            (15, 0x8000 &&& 0x8000): slot_4_down();
            (16, 0x10000 &&& 0x10000): slot_4_down();
            (17, 0x20000 &&& 0x20000): slot_4_down();
            (18, 0x40000 &&& 0x40000): slot_4_down();
            (19, 0x80000 &&& 0x80000): slot_4_down();
            (20, 0x100000 &&& 0x100000): slot_4_down();
            (21, 0x200000 &&& 0x200000): slot_4_down();
            (22, 0x400000 &&& 0x400000): slot_4_down();
            (23, 0x800000 &&& 0x800000): slot_4_down();
            (24, 0x1000000 &&& 0x1000000): slot_4_down();
            (25, 0x2000000 &&& 0x2000000): slot_4_down();
            (26, 0x4000000 &&& 0x4000000): slot_4_down();
            (27, 0x8000000 &&& 0x8000000): slot_4_down();
            (28, 0x10000000 &&& 0x10000000): slot_4_down();
            (29, 0x20000000 &&& 0x20000000): slot_4_down();
            (30, 0x40000000 &&& 0x40000000): slot_4_down();
            (31, 0x80000000 &&& 0x80000000): slot_4_down();
        }
        size = 32;
    }
    Register<bit<8>, qidx_t>(8192, 0) qstate_5;
    /* the one-shot test: 1 if the queue is Unfull */
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_5) qstate_5_test = {
        void apply(inout bit<8> v, out bit<8> rv) {
            rv = 0;
            if (v == 0) { rv = 1; }
        }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_5) qstate_5_set = {
        void apply(inout bit<8> v) { v = 1; }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_5) qstate_5_clear = {
        void apply(inout bit<8> v) { v = 0; }
    };
    /* slot 5: queue = (active + wait) mod Q by one table keyed by both (no
     * adder and no modulo on the way to the register); index = uplink * 256 + queue by an
     * identity hash (no shifts) */
    action qmod_5_set(queue_t q, bit<1> act) {
        meta.alt_q_5 = q;
        meta.alt_act_5 = act;       // wait 0: the active queue
    }
    table qmod_5 {
        key = {
            meta.active_q_1: exact @name("active");
            meta.alt_wait_5: exact @name("wait");
        }
        actions = { qmod_5_set; }
        const entries = {
            (0, 0): qmod_5_set(0, 1);
            (0, 1): qmod_5_set(1, 0);
            (0, 2): qmod_5_set(2, 0);
            (0, 3): qmod_5_set(3, 0);
            (0, 4): qmod_5_set(4, 0);
            (0, 5): qmod_5_set(5, 0);
            (0, 6): qmod_5_set(6, 0);
            (0, 7): qmod_5_set(7, 0);
            (0, 8): qmod_5_set(8, 0);
            (0, 9): qmod_5_set(9, 0);
            (0, 10): qmod_5_set(10, 0);
            (0, 11): qmod_5_set(11, 0);
            (0, 12): qmod_5_set(12, 0);
            (0, 13): qmod_5_set(13, 0);
            (0, 14): qmod_5_set(14, 0);
            (0, 15): qmod_5_set(15, 0);
            (0, 16): qmod_5_set(16, 0);
            (0, 17): qmod_5_set(17, 0);
            (0, 18): qmod_5_set(18, 0);
            (0, 19): qmod_5_set(19, 0);
            (0, 20): qmod_5_set(20, 0);
            (0, 21): qmod_5_set(21, 0);
            (0, 22): qmod_5_set(22, 0);
            (0, 23): qmod_5_set(23, 0);
            (0, 24): qmod_5_set(24, 0);
            (0, 25): qmod_5_set(25, 0);
            (0, 26): qmod_5_set(26, 0);
            (0, 27): qmod_5_set(27, 0);
            (0, 28): qmod_5_set(28, 0);
            (0, 29): qmod_5_set(29, 0);
            (0, 30): qmod_5_set(30, 0);
            (0, 31): qmod_5_set(31, 0);
            (1, 0): qmod_5_set(1, 1);
            (1, 1): qmod_5_set(2, 0);
            (1, 2): qmod_5_set(3, 0);
            (1, 3): qmod_5_set(4, 0);
            (1, 4): qmod_5_set(5, 0);
            (1, 5): qmod_5_set(6, 0);
            (1, 6): qmod_5_set(7, 0);
            (1, 7): qmod_5_set(8, 0);
            (1, 8): qmod_5_set(9, 0);
            (1, 9): qmod_5_set(10, 0);
            (1, 10): qmod_5_set(11, 0);
            (1, 11): qmod_5_set(12, 0);
            (1, 12): qmod_5_set(13, 0);
            (1, 13): qmod_5_set(14, 0);
            (1, 14): qmod_5_set(15, 0);
            (1, 15): qmod_5_set(16, 0);
            (1, 16): qmod_5_set(17, 0);
            (1, 17): qmod_5_set(18, 0);
            (1, 18): qmod_5_set(19, 0);
            (1, 19): qmod_5_set(20, 0);
            (1, 20): qmod_5_set(21, 0);
            (1, 21): qmod_5_set(22, 0);
            (1, 22): qmod_5_set(23, 0);
            (1, 23): qmod_5_set(24, 0);
            (1, 24): qmod_5_set(25, 0);
            (1, 25): qmod_5_set(26, 0);
            (1, 26): qmod_5_set(27, 0);
            (1, 27): qmod_5_set(28, 0);
            (1, 28): qmod_5_set(29, 0);
            (1, 29): qmod_5_set(30, 0);
            (1, 30): qmod_5_set(31, 0);
            (1, 31): qmod_5_set(0, 0);
            (2, 0): qmod_5_set(2, 1);
            (2, 1): qmod_5_set(3, 0);
            (2, 2): qmod_5_set(4, 0);
            (2, 3): qmod_5_set(5, 0);
            (2, 4): qmod_5_set(6, 0);
            (2, 5): qmod_5_set(7, 0);
            (2, 6): qmod_5_set(8, 0);
            (2, 7): qmod_5_set(9, 0);
            (2, 8): qmod_5_set(10, 0);
            (2, 9): qmod_5_set(11, 0);
            (2, 10): qmod_5_set(12, 0);
            (2, 11): qmod_5_set(13, 0);
            (2, 12): qmod_5_set(14, 0);
            (2, 13): qmod_5_set(15, 0);
            (2, 14): qmod_5_set(16, 0);
            (2, 15): qmod_5_set(17, 0);
            (2, 16): qmod_5_set(18, 0);
            (2, 17): qmod_5_set(19, 0);
            (2, 18): qmod_5_set(20, 0);
            (2, 19): qmod_5_set(21, 0);
            (2, 20): qmod_5_set(22, 0);
            (2, 21): qmod_5_set(23, 0);
            (2, 22): qmod_5_set(24, 0);
            (2, 23): qmod_5_set(25, 0);
            (2, 24): qmod_5_set(26, 0);
            (2, 25): qmod_5_set(27, 0);
            (2, 26): qmod_5_set(28, 0);
            (2, 27): qmod_5_set(29, 0);
            (2, 28): qmod_5_set(30, 0);
            (2, 29): qmod_5_set(31, 0);
            (2, 30): qmod_5_set(0, 0);
            (2, 31): qmod_5_set(1, 0);
            (3, 0): qmod_5_set(3, 1);
            (3, 1): qmod_5_set(4, 0);
            (3, 2): qmod_5_set(5, 0);
            (3, 3): qmod_5_set(6, 0);
            (3, 4): qmod_5_set(7, 0);
            (3, 5): qmod_5_set(8, 0);
            (3, 6): qmod_5_set(9, 0);
            (3, 7): qmod_5_set(10, 0);
            (3, 8): qmod_5_set(11, 0);
            (3, 9): qmod_5_set(12, 0);
            (3, 10): qmod_5_set(13, 0);
            (3, 11): qmod_5_set(14, 0);
            (3, 12): qmod_5_set(15, 0);
            (3, 13): qmod_5_set(16, 0);
            (3, 14): qmod_5_set(17, 0);
            (3, 15): qmod_5_set(18, 0);
            (3, 16): qmod_5_set(19, 0);
            (3, 17): qmod_5_set(20, 0);
            (3, 18): qmod_5_set(21, 0);
            (3, 19): qmod_5_set(22, 0);
            (3, 20): qmod_5_set(23, 0);
            (3, 21): qmod_5_set(24, 0);
            (3, 22): qmod_5_set(25, 0);
            (3, 23): qmod_5_set(26, 0);
            (3, 24): qmod_5_set(27, 0);
            (3, 25): qmod_5_set(28, 0);
            (3, 26): qmod_5_set(29, 0);
            (3, 27): qmod_5_set(30, 0);
            (3, 28): qmod_5_set(31, 0);
            (3, 29): qmod_5_set(0, 0);
            (3, 30): qmod_5_set(1, 0);
            (3, 31): qmod_5_set(2, 0);
            (4, 0): qmod_5_set(4, 1);
            (4, 1): qmod_5_set(5, 0);
            (4, 2): qmod_5_set(6, 0);
            (4, 3): qmod_5_set(7, 0);
            (4, 4): qmod_5_set(8, 0);
            (4, 5): qmod_5_set(9, 0);
            (4, 6): qmod_5_set(10, 0);
            (4, 7): qmod_5_set(11, 0);
            (4, 8): qmod_5_set(12, 0);
            (4, 9): qmod_5_set(13, 0);
            (4, 10): qmod_5_set(14, 0);
            (4, 11): qmod_5_set(15, 0);
            (4, 12): qmod_5_set(16, 0);
            (4, 13): qmod_5_set(17, 0);
            (4, 14): qmod_5_set(18, 0);
            (4, 15): qmod_5_set(19, 0);
            (4, 16): qmod_5_set(20, 0);
            (4, 17): qmod_5_set(21, 0);
            (4, 18): qmod_5_set(22, 0);
            (4, 19): qmod_5_set(23, 0);
            (4, 20): qmod_5_set(24, 0);
            (4, 21): qmod_5_set(25, 0);
            (4, 22): qmod_5_set(26, 0);
            (4, 23): qmod_5_set(27, 0);
            (4, 24): qmod_5_set(28, 0);
            (4, 25): qmod_5_set(29, 0);
            (4, 26): qmod_5_set(30, 0);
            (4, 27): qmod_5_set(31, 0);
            (4, 28): qmod_5_set(0, 0);
            (4, 29): qmod_5_set(1, 0);
            (4, 30): qmod_5_set(2, 0);
            (4, 31): qmod_5_set(3, 0);
            (5, 0): qmod_5_set(5, 1);
            (5, 1): qmod_5_set(6, 0);
            (5, 2): qmod_5_set(7, 0);
            (5, 3): qmod_5_set(8, 0);
            (5, 4): qmod_5_set(9, 0);
            (5, 5): qmod_5_set(10, 0);
            (5, 6): qmod_5_set(11, 0);
            (5, 7): qmod_5_set(12, 0);
            (5, 8): qmod_5_set(13, 0);
            (5, 9): qmod_5_set(14, 0);
            (5, 10): qmod_5_set(15, 0);
            (5, 11): qmod_5_set(16, 0);
            (5, 12): qmod_5_set(17, 0);
            (5, 13): qmod_5_set(18, 0);
            (5, 14): qmod_5_set(19, 0);
            (5, 15): qmod_5_set(20, 0);
            (5, 16): qmod_5_set(21, 0);
            (5, 17): qmod_5_set(22, 0);
            (5, 18): qmod_5_set(23, 0);
            (5, 19): qmod_5_set(24, 0);
            (5, 20): qmod_5_set(25, 0);
            (5, 21): qmod_5_set(26, 0);
            (5, 22): qmod_5_set(27, 0);
            (5, 23): qmod_5_set(28, 0);
            (5, 24): qmod_5_set(29, 0);
            (5, 25): qmod_5_set(30, 0);
            (5, 26): qmod_5_set(31, 0);
            (5, 27): qmod_5_set(0, 0);
            (5, 28): qmod_5_set(1, 0);
            (5, 29): qmod_5_set(2, 0);
            (5, 30): qmod_5_set(3, 0);
            (5, 31): qmod_5_set(4, 0);
            (6, 0): qmod_5_set(6, 1);
            (6, 1): qmod_5_set(7, 0);
            (6, 2): qmod_5_set(8, 0);
            (6, 3): qmod_5_set(9, 0);
            (6, 4): qmod_5_set(10, 0);
            (6, 5): qmod_5_set(11, 0);
            (6, 6): qmod_5_set(12, 0);
            (6, 7): qmod_5_set(13, 0);
            (6, 8): qmod_5_set(14, 0);
            (6, 9): qmod_5_set(15, 0);
            (6, 10): qmod_5_set(16, 0);
            (6, 11): qmod_5_set(17, 0);
            (6, 12): qmod_5_set(18, 0);
            (6, 13): qmod_5_set(19, 0);
            (6, 14): qmod_5_set(20, 0);
            (6, 15): qmod_5_set(21, 0);
            (6, 16): qmod_5_set(22, 0);
            (6, 17): qmod_5_set(23, 0);
            (6, 18): qmod_5_set(24, 0);
            (6, 19): qmod_5_set(25, 0);
            (6, 20): qmod_5_set(26, 0);
            (6, 21): qmod_5_set(27, 0);
            (6, 22): qmod_5_set(28, 0);
            (6, 23): qmod_5_set(29, 0);
            (6, 24): qmod_5_set(30, 0);
            (6, 25): qmod_5_set(31, 0);
            (6, 26): qmod_5_set(0, 0);
            (6, 27): qmod_5_set(1, 0);
            (6, 28): qmod_5_set(2, 0);
            (6, 29): qmod_5_set(3, 0);
            (6, 30): qmod_5_set(4, 0);
            (6, 31): qmod_5_set(5, 0);
            (7, 0): qmod_5_set(7, 1);
            (7, 1): qmod_5_set(8, 0);
            (7, 2): qmod_5_set(9, 0);
            (7, 3): qmod_5_set(10, 0);
            (7, 4): qmod_5_set(11, 0);
            (7, 5): qmod_5_set(12, 0);
            (7, 6): qmod_5_set(13, 0);
            (7, 7): qmod_5_set(14, 0);
            (7, 8): qmod_5_set(15, 0);
            (7, 9): qmod_5_set(16, 0);
            (7, 10): qmod_5_set(17, 0);
            (7, 11): qmod_5_set(18, 0);
            (7, 12): qmod_5_set(19, 0);
            (7, 13): qmod_5_set(20, 0);
            (7, 14): qmod_5_set(21, 0);
            (7, 15): qmod_5_set(22, 0);
            (7, 16): qmod_5_set(23, 0);
            (7, 17): qmod_5_set(24, 0);
            (7, 18): qmod_5_set(25, 0);
            (7, 19): qmod_5_set(26, 0);
            (7, 20): qmod_5_set(27, 0);
            (7, 21): qmod_5_set(28, 0);
            (7, 22): qmod_5_set(29, 0);
            (7, 23): qmod_5_set(30, 0);
            (7, 24): qmod_5_set(31, 0);
            (7, 25): qmod_5_set(0, 0);
            (7, 26): qmod_5_set(1, 0);
            (7, 27): qmod_5_set(2, 0);
            (7, 28): qmod_5_set(3, 0);
            (7, 29): qmod_5_set(4, 0);
            (7, 30): qmod_5_set(5, 0);
            (7, 31): qmod_5_set(6, 0);
            (8, 0): qmod_5_set(8, 1);
            (8, 1): qmod_5_set(9, 0);
            (8, 2): qmod_5_set(10, 0);
            (8, 3): qmod_5_set(11, 0);
            (8, 4): qmod_5_set(12, 0);
            (8, 5): qmod_5_set(13, 0);
            (8, 6): qmod_5_set(14, 0);
            (8, 7): qmod_5_set(15, 0);
            (8, 8): qmod_5_set(16, 0);
            (8, 9): qmod_5_set(17, 0);
            (8, 10): qmod_5_set(18, 0);
            (8, 11): qmod_5_set(19, 0);
            (8, 12): qmod_5_set(20, 0);
            (8, 13): qmod_5_set(21, 0);
            (8, 14): qmod_5_set(22, 0);
            (8, 15): qmod_5_set(23, 0);
            (8, 16): qmod_5_set(24, 0);
            (8, 17): qmod_5_set(25, 0);
            (8, 18): qmod_5_set(26, 0);
            (8, 19): qmod_5_set(27, 0);
            (8, 20): qmod_5_set(28, 0);
            (8, 21): qmod_5_set(29, 0);
            (8, 22): qmod_5_set(30, 0);
            (8, 23): qmod_5_set(31, 0);
            (8, 24): qmod_5_set(0, 0);
            (8, 25): qmod_5_set(1, 0);
            (8, 26): qmod_5_set(2, 0);
            (8, 27): qmod_5_set(3, 0);
            (8, 28): qmod_5_set(4, 0);
            (8, 29): qmod_5_set(5, 0);
            (8, 30): qmod_5_set(6, 0);
            (8, 31): qmod_5_set(7, 0);
            (9, 0): qmod_5_set(9, 1);
            (9, 1): qmod_5_set(10, 0);
            (9, 2): qmod_5_set(11, 0);
            (9, 3): qmod_5_set(12, 0);
            (9, 4): qmod_5_set(13, 0);
            (9, 5): qmod_5_set(14, 0);
            (9, 6): qmod_5_set(15, 0);
            (9, 7): qmod_5_set(16, 0);
            (9, 8): qmod_5_set(17, 0);
            (9, 9): qmod_5_set(18, 0);
            (9, 10): qmod_5_set(19, 0);
            (9, 11): qmod_5_set(20, 0);
            (9, 12): qmod_5_set(21, 0);
            (9, 13): qmod_5_set(22, 0);
            (9, 14): qmod_5_set(23, 0);
            (9, 15): qmod_5_set(24, 0);
            (9, 16): qmod_5_set(25, 0);
            (9, 17): qmod_5_set(26, 0);
            (9, 18): qmod_5_set(27, 0);
            (9, 19): qmod_5_set(28, 0);
            (9, 20): qmod_5_set(29, 0);
            (9, 21): qmod_5_set(30, 0);
            (9, 22): qmod_5_set(31, 0);
            (9, 23): qmod_5_set(0, 0);
            (9, 24): qmod_5_set(1, 0);
            (9, 25): qmod_5_set(2, 0);
            (9, 26): qmod_5_set(3, 0);
            (9, 27): qmod_5_set(4, 0);
            (9, 28): qmod_5_set(5, 0);
            (9, 29): qmod_5_set(6, 0);
            (9, 30): qmod_5_set(7, 0);
            (9, 31): qmod_5_set(8, 0);
            (10, 0): qmod_5_set(10, 1);
            (10, 1): qmod_5_set(11, 0);
            (10, 2): qmod_5_set(12, 0);
            (10, 3): qmod_5_set(13, 0);
            (10, 4): qmod_5_set(14, 0);
            (10, 5): qmod_5_set(15, 0);
            (10, 6): qmod_5_set(16, 0);
            (10, 7): qmod_5_set(17, 0);
            (10, 8): qmod_5_set(18, 0);
            (10, 9): qmod_5_set(19, 0);
            (10, 10): qmod_5_set(20, 0);
            (10, 11): qmod_5_set(21, 0);
            (10, 12): qmod_5_set(22, 0);
            (10, 13): qmod_5_set(23, 0);
            (10, 14): qmod_5_set(24, 0);
            (10, 15): qmod_5_set(25, 0);
            (10, 16): qmod_5_set(26, 0);
            (10, 17): qmod_5_set(27, 0);
            (10, 18): qmod_5_set(28, 0);
            (10, 19): qmod_5_set(29, 0);
            (10, 20): qmod_5_set(30, 0);
            (10, 21): qmod_5_set(31, 0);
            (10, 22): qmod_5_set(0, 0);
            (10, 23): qmod_5_set(1, 0);
            (10, 24): qmod_5_set(2, 0);
            (10, 25): qmod_5_set(3, 0);
            (10, 26): qmod_5_set(4, 0);
            (10, 27): qmod_5_set(5, 0);
            (10, 28): qmod_5_set(6, 0);
            (10, 29): qmod_5_set(7, 0);
            (10, 30): qmod_5_set(8, 0);
            (10, 31): qmod_5_set(9, 0);
            (11, 0): qmod_5_set(11, 1);
            (11, 1): qmod_5_set(12, 0);
            (11, 2): qmod_5_set(13, 0);
            (11, 3): qmod_5_set(14, 0);
            (11, 4): qmod_5_set(15, 0);
            (11, 5): qmod_5_set(16, 0);
            (11, 6): qmod_5_set(17, 0);
            (11, 7): qmod_5_set(18, 0);
            (11, 8): qmod_5_set(19, 0);
            (11, 9): qmod_5_set(20, 0);
            (11, 10): qmod_5_set(21, 0);
            (11, 11): qmod_5_set(22, 0);
            (11, 12): qmod_5_set(23, 0);
            (11, 13): qmod_5_set(24, 0);
            (11, 14): qmod_5_set(25, 0);
            (11, 15): qmod_5_set(26, 0);
            (11, 16): qmod_5_set(27, 0);
            (11, 17): qmod_5_set(28, 0);
            (11, 18): qmod_5_set(29, 0);
            (11, 19): qmod_5_set(30, 0);
            (11, 20): qmod_5_set(31, 0);
            (11, 21): qmod_5_set(0, 0);
            (11, 22): qmod_5_set(1, 0);
            (11, 23): qmod_5_set(2, 0);
            (11, 24): qmod_5_set(3, 0);
            (11, 25): qmod_5_set(4, 0);
            (11, 26): qmod_5_set(5, 0);
            (11, 27): qmod_5_set(6, 0);
            (11, 28): qmod_5_set(7, 0);
            (11, 29): qmod_5_set(8, 0);
            (11, 30): qmod_5_set(9, 0);
            (11, 31): qmod_5_set(10, 0);
            (12, 0): qmod_5_set(12, 1);
            (12, 1): qmod_5_set(13, 0);
            (12, 2): qmod_5_set(14, 0);
            (12, 3): qmod_5_set(15, 0);
            (12, 4): qmod_5_set(16, 0);
            (12, 5): qmod_5_set(17, 0);
            (12, 6): qmod_5_set(18, 0);
            (12, 7): qmod_5_set(19, 0);
            (12, 8): qmod_5_set(20, 0);
            (12, 9): qmod_5_set(21, 0);
            (12, 10): qmod_5_set(22, 0);
            (12, 11): qmod_5_set(23, 0);
            (12, 12): qmod_5_set(24, 0);
            (12, 13): qmod_5_set(25, 0);
            (12, 14): qmod_5_set(26, 0);
            (12, 15): qmod_5_set(27, 0);
            (12, 16): qmod_5_set(28, 0);
            (12, 17): qmod_5_set(29, 0);
            (12, 18): qmod_5_set(30, 0);
            (12, 19): qmod_5_set(31, 0);
            (12, 20): qmod_5_set(0, 0);
            (12, 21): qmod_5_set(1, 0);
            (12, 22): qmod_5_set(2, 0);
            (12, 23): qmod_5_set(3, 0);
            (12, 24): qmod_5_set(4, 0);
            (12, 25): qmod_5_set(5, 0);
            (12, 26): qmod_5_set(6, 0);
            (12, 27): qmod_5_set(7, 0);
            (12, 28): qmod_5_set(8, 0);
            (12, 29): qmod_5_set(9, 0);
            (12, 30): qmod_5_set(10, 0);
            (12, 31): qmod_5_set(11, 0);
            (13, 0): qmod_5_set(13, 1);
            (13, 1): qmod_5_set(14, 0);
            (13, 2): qmod_5_set(15, 0);
            (13, 3): qmod_5_set(16, 0);
            (13, 4): qmod_5_set(17, 0);
            (13, 5): qmod_5_set(18, 0);
            (13, 6): qmod_5_set(19, 0);
            (13, 7): qmod_5_set(20, 0);
            (13, 8): qmod_5_set(21, 0);
            (13, 9): qmod_5_set(22, 0);
            (13, 10): qmod_5_set(23, 0);
            (13, 11): qmod_5_set(24, 0);
            (13, 12): qmod_5_set(25, 0);
            (13, 13): qmod_5_set(26, 0);
            (13, 14): qmod_5_set(27, 0);
            (13, 15): qmod_5_set(28, 0);
            (13, 16): qmod_5_set(29, 0);
            (13, 17): qmod_5_set(30, 0);
            (13, 18): qmod_5_set(31, 0);
            (13, 19): qmod_5_set(0, 0);
            (13, 20): qmod_5_set(1, 0);
            (13, 21): qmod_5_set(2, 0);
            (13, 22): qmod_5_set(3, 0);
            (13, 23): qmod_5_set(4, 0);
            (13, 24): qmod_5_set(5, 0);
            (13, 25): qmod_5_set(6, 0);
            (13, 26): qmod_5_set(7, 0);
            (13, 27): qmod_5_set(8, 0);
            (13, 28): qmod_5_set(9, 0);
            (13, 29): qmod_5_set(10, 0);
            (13, 30): qmod_5_set(11, 0);
            (13, 31): qmod_5_set(12, 0);
            (14, 0): qmod_5_set(14, 1);
            (14, 1): qmod_5_set(15, 0);
            (14, 2): qmod_5_set(16, 0);
            (14, 3): qmod_5_set(17, 0);
            (14, 4): qmod_5_set(18, 0);
            (14, 5): qmod_5_set(19, 0);
            (14, 6): qmod_5_set(20, 0);
            (14, 7): qmod_5_set(21, 0);
            (14, 8): qmod_5_set(22, 0);
            (14, 9): qmod_5_set(23, 0);
            (14, 10): qmod_5_set(24, 0);
            (14, 11): qmod_5_set(25, 0);
            (14, 12): qmod_5_set(26, 0);
            (14, 13): qmod_5_set(27, 0);
            (14, 14): qmod_5_set(28, 0);
            (14, 15): qmod_5_set(29, 0);
            (14, 16): qmod_5_set(30, 0);
            (14, 17): qmod_5_set(31, 0);
            (14, 18): qmod_5_set(0, 0);
            (14, 19): qmod_5_set(1, 0);
            (14, 20): qmod_5_set(2, 0);
            (14, 21): qmod_5_set(3, 0);
            (14, 22): qmod_5_set(4, 0);
            (14, 23): qmod_5_set(5, 0);
            (14, 24): qmod_5_set(6, 0);
            (14, 25): qmod_5_set(7, 0);
            (14, 26): qmod_5_set(8, 0);
            (14, 27): qmod_5_set(9, 0);
            (14, 28): qmod_5_set(10, 0);
            (14, 29): qmod_5_set(11, 0);
            (14, 30): qmod_5_set(12, 0);
            (14, 31): qmod_5_set(13, 0);
            (15, 0): qmod_5_set(15, 1);
            (15, 1): qmod_5_set(16, 0);
            (15, 2): qmod_5_set(17, 0);
            (15, 3): qmod_5_set(18, 0);
            (15, 4): qmod_5_set(19, 0);
            (15, 5): qmod_5_set(20, 0);
            (15, 6): qmod_5_set(21, 0);
            (15, 7): qmod_5_set(22, 0);
            (15, 8): qmod_5_set(23, 0);
            (15, 9): qmod_5_set(24, 0);
            (15, 10): qmod_5_set(25, 0);
            (15, 11): qmod_5_set(26, 0);
            (15, 12): qmod_5_set(27, 0);
            (15, 13): qmod_5_set(28, 0);
            (15, 14): qmod_5_set(29, 0);
            (15, 15): qmod_5_set(30, 0);
            (15, 16): qmod_5_set(31, 0);
            (15, 17): qmod_5_set(0, 0);
            (15, 18): qmod_5_set(1, 0);
            (15, 19): qmod_5_set(2, 0);
            (15, 20): qmod_5_set(3, 0);
            (15, 21): qmod_5_set(4, 0);
            (15, 22): qmod_5_set(5, 0);
            (15, 23): qmod_5_set(6, 0);
            (15, 24): qmod_5_set(7, 0);
            (15, 25): qmod_5_set(8, 0);
            (15, 26): qmod_5_set(9, 0);
            (15, 27): qmod_5_set(10, 0);
            (15, 28): qmod_5_set(11, 0);
            (15, 29): qmod_5_set(12, 0);
            (15, 30): qmod_5_set(13, 0);
            (15, 31): qmod_5_set(14, 0);
            (16, 0): qmod_5_set(16, 1);
            (16, 1): qmod_5_set(17, 0);
            (16, 2): qmod_5_set(18, 0);
            (16, 3): qmod_5_set(19, 0);
            (16, 4): qmod_5_set(20, 0);
            (16, 5): qmod_5_set(21, 0);
            (16, 6): qmod_5_set(22, 0);
            (16, 7): qmod_5_set(23, 0);
            (16, 8): qmod_5_set(24, 0);
            (16, 9): qmod_5_set(25, 0);
            (16, 10): qmod_5_set(26, 0);
            (16, 11): qmod_5_set(27, 0);
            (16, 12): qmod_5_set(28, 0);
            (16, 13): qmod_5_set(29, 0);
            (16, 14): qmod_5_set(30, 0);
            (16, 15): qmod_5_set(31, 0);
            (16, 16): qmod_5_set(0, 0);
            (16, 17): qmod_5_set(1, 0);
            (16, 18): qmod_5_set(2, 0);
            (16, 19): qmod_5_set(3, 0);
            (16, 20): qmod_5_set(4, 0);
            (16, 21): qmod_5_set(5, 0);
            (16, 22): qmod_5_set(6, 0);
            (16, 23): qmod_5_set(7, 0);
            (16, 24): qmod_5_set(8, 0);
            (16, 25): qmod_5_set(9, 0);
            (16, 26): qmod_5_set(10, 0);
            (16, 27): qmod_5_set(11, 0);
            (16, 28): qmod_5_set(12, 0);
            (16, 29): qmod_5_set(13, 0);
            (16, 30): qmod_5_set(14, 0);
            (16, 31): qmod_5_set(15, 0);
            (17, 0): qmod_5_set(17, 1);
            (17, 1): qmod_5_set(18, 0);
            (17, 2): qmod_5_set(19, 0);
            (17, 3): qmod_5_set(20, 0);
            (17, 4): qmod_5_set(21, 0);
            (17, 5): qmod_5_set(22, 0);
            (17, 6): qmod_5_set(23, 0);
            (17, 7): qmod_5_set(24, 0);
            (17, 8): qmod_5_set(25, 0);
            (17, 9): qmod_5_set(26, 0);
            (17, 10): qmod_5_set(27, 0);
            (17, 11): qmod_5_set(28, 0);
            (17, 12): qmod_5_set(29, 0);
            (17, 13): qmod_5_set(30, 0);
            (17, 14): qmod_5_set(31, 0);
            (17, 15): qmod_5_set(0, 0);
            (17, 16): qmod_5_set(1, 0);
            (17, 17): qmod_5_set(2, 0);
            (17, 18): qmod_5_set(3, 0);
            (17, 19): qmod_5_set(4, 0);
            (17, 20): qmod_5_set(5, 0);
            (17, 21): qmod_5_set(6, 0);
            (17, 22): qmod_5_set(7, 0);
            (17, 23): qmod_5_set(8, 0);
            (17, 24): qmod_5_set(9, 0);
            (17, 25): qmod_5_set(10, 0);
            (17, 26): qmod_5_set(11, 0);
            (17, 27): qmod_5_set(12, 0);
            (17, 28): qmod_5_set(13, 0);
            (17, 29): qmod_5_set(14, 0);
            (17, 30): qmod_5_set(15, 0);
            (17, 31): qmod_5_set(16, 0);
            (18, 0): qmod_5_set(18, 1);
            (18, 1): qmod_5_set(19, 0);
            (18, 2): qmod_5_set(20, 0);
            (18, 3): qmod_5_set(21, 0);
            (18, 4): qmod_5_set(22, 0);
            (18, 5): qmod_5_set(23, 0);
            (18, 6): qmod_5_set(24, 0);
            (18, 7): qmod_5_set(25, 0);
            (18, 8): qmod_5_set(26, 0);
            (18, 9): qmod_5_set(27, 0);
            (18, 10): qmod_5_set(28, 0);
            (18, 11): qmod_5_set(29, 0);
            (18, 12): qmod_5_set(30, 0);
            (18, 13): qmod_5_set(31, 0);
            (18, 14): qmod_5_set(0, 0);
            (18, 15): qmod_5_set(1, 0);
            (18, 16): qmod_5_set(2, 0);
            (18, 17): qmod_5_set(3, 0);
            (18, 18): qmod_5_set(4, 0);
            (18, 19): qmod_5_set(5, 0);
            (18, 20): qmod_5_set(6, 0);
            (18, 21): qmod_5_set(7, 0);
            (18, 22): qmod_5_set(8, 0);
            (18, 23): qmod_5_set(9, 0);
            (18, 24): qmod_5_set(10, 0);
            (18, 25): qmod_5_set(11, 0);
            (18, 26): qmod_5_set(12, 0);
            (18, 27): qmod_5_set(13, 0);
            (18, 28): qmod_5_set(14, 0);
            (18, 29): qmod_5_set(15, 0);
            (18, 30): qmod_5_set(16, 0);
            (18, 31): qmod_5_set(17, 0);
            (19, 0): qmod_5_set(19, 1);
            (19, 1): qmod_5_set(20, 0);
            (19, 2): qmod_5_set(21, 0);
            (19, 3): qmod_5_set(22, 0);
            (19, 4): qmod_5_set(23, 0);
            (19, 5): qmod_5_set(24, 0);
            (19, 6): qmod_5_set(25, 0);
            (19, 7): qmod_5_set(26, 0);
            (19, 8): qmod_5_set(27, 0);
            (19, 9): qmod_5_set(28, 0);
            (19, 10): qmod_5_set(29, 0);
            (19, 11): qmod_5_set(30, 0);
            (19, 12): qmod_5_set(31, 0);
            (19, 13): qmod_5_set(0, 0);
            (19, 14): qmod_5_set(1, 0);
            (19, 15): qmod_5_set(2, 0);
            (19, 16): qmod_5_set(3, 0);
            (19, 17): qmod_5_set(4, 0);
            (19, 18): qmod_5_set(5, 0);
            (19, 19): qmod_5_set(6, 0);
            (19, 20): qmod_5_set(7, 0);
            (19, 21): qmod_5_set(8, 0);
            (19, 22): qmod_5_set(9, 0);
            (19, 23): qmod_5_set(10, 0);
            (19, 24): qmod_5_set(11, 0);
            (19, 25): qmod_5_set(12, 0);
            (19, 26): qmod_5_set(13, 0);
            (19, 27): qmod_5_set(14, 0);
            (19, 28): qmod_5_set(15, 0);
            (19, 29): qmod_5_set(16, 0);
            (19, 30): qmod_5_set(17, 0);
            (19, 31): qmod_5_set(18, 0);
            (20, 0): qmod_5_set(20, 1);
            (20, 1): qmod_5_set(21, 0);
            (20, 2): qmod_5_set(22, 0);
            (20, 3): qmod_5_set(23, 0);
            (20, 4): qmod_5_set(24, 0);
            (20, 5): qmod_5_set(25, 0);
            (20, 6): qmod_5_set(26, 0);
            (20, 7): qmod_5_set(27, 0);
            (20, 8): qmod_5_set(28, 0);
            (20, 9): qmod_5_set(29, 0);
            (20, 10): qmod_5_set(30, 0);
            (20, 11): qmod_5_set(31, 0);
            (20, 12): qmod_5_set(0, 0);
            (20, 13): qmod_5_set(1, 0);
            (20, 14): qmod_5_set(2, 0);
            (20, 15): qmod_5_set(3, 0);
            (20, 16): qmod_5_set(4, 0);
            (20, 17): qmod_5_set(5, 0);
            (20, 18): qmod_5_set(6, 0);
            (20, 19): qmod_5_set(7, 0);
            (20, 20): qmod_5_set(8, 0);
            (20, 21): qmod_5_set(9, 0);
            (20, 22): qmod_5_set(10, 0);
            (20, 23): qmod_5_set(11, 0);
            (20, 24): qmod_5_set(12, 0);
            (20, 25): qmod_5_set(13, 0);
            (20, 26): qmod_5_set(14, 0);
            (20, 27): qmod_5_set(15, 0);
            (20, 28): qmod_5_set(16, 0);
            (20, 29): qmod_5_set(17, 0);
            (20, 30): qmod_5_set(18, 0);
            (20, 31): qmod_5_set(19, 0);
            (21, 0): qmod_5_set(21, 1);
            (21, 1): qmod_5_set(22, 0);
            (21, 2): qmod_5_set(23, 0);
            (21, 3): qmod_5_set(24, 0);
            (21, 4): qmod_5_set(25, 0);
            (21, 5): qmod_5_set(26, 0);
            (21, 6): qmod_5_set(27, 0);
            (21, 7): qmod_5_set(28, 0);
            (21, 8): qmod_5_set(29, 0);
            (21, 9): qmod_5_set(30, 0);
            (21, 10): qmod_5_set(31, 0);
            (21, 11): qmod_5_set(0, 0);
            (21, 12): qmod_5_set(1, 0);
            (21, 13): qmod_5_set(2, 0);
            (21, 14): qmod_5_set(3, 0);
            (21, 15): qmod_5_set(4, 0);
            (21, 16): qmod_5_set(5, 0);
            (21, 17): qmod_5_set(6, 0);
            (21, 18): qmod_5_set(7, 0);
            (21, 19): qmod_5_set(8, 0);
            (21, 20): qmod_5_set(9, 0);
            (21, 21): qmod_5_set(10, 0);
            (21, 22): qmod_5_set(11, 0);
            (21, 23): qmod_5_set(12, 0);
            (21, 24): qmod_5_set(13, 0);
            (21, 25): qmod_5_set(14, 0);
            (21, 26): qmod_5_set(15, 0);
            (21, 27): qmod_5_set(16, 0);
            (21, 28): qmod_5_set(17, 0);
            (21, 29): qmod_5_set(18, 0);
            (21, 30): qmod_5_set(19, 0);
            (21, 31): qmod_5_set(20, 0);
            (22, 0): qmod_5_set(22, 1);
            (22, 1): qmod_5_set(23, 0);
            (22, 2): qmod_5_set(24, 0);
            (22, 3): qmod_5_set(25, 0);
            (22, 4): qmod_5_set(26, 0);
            (22, 5): qmod_5_set(27, 0);
            (22, 6): qmod_5_set(28, 0);
            (22, 7): qmod_5_set(29, 0);
            (22, 8): qmod_5_set(30, 0);
            (22, 9): qmod_5_set(31, 0);
            (22, 10): qmod_5_set(0, 0);
            (22, 11): qmod_5_set(1, 0);
            (22, 12): qmod_5_set(2, 0);
            (22, 13): qmod_5_set(3, 0);
            (22, 14): qmod_5_set(4, 0);
            (22, 15): qmod_5_set(5, 0);
            (22, 16): qmod_5_set(6, 0);
            (22, 17): qmod_5_set(7, 0);
            (22, 18): qmod_5_set(8, 0);
            (22, 19): qmod_5_set(9, 0);
            (22, 20): qmod_5_set(10, 0);
            (22, 21): qmod_5_set(11, 0);
            (22, 22): qmod_5_set(12, 0);
            (22, 23): qmod_5_set(13, 0);
            (22, 24): qmod_5_set(14, 0);
            (22, 25): qmod_5_set(15, 0);
            (22, 26): qmod_5_set(16, 0);
            (22, 27): qmod_5_set(17, 0);
            (22, 28): qmod_5_set(18, 0);
            (22, 29): qmod_5_set(19, 0);
            (22, 30): qmod_5_set(20, 0);
            (22, 31): qmod_5_set(21, 0);
            (23, 0): qmod_5_set(23, 1);
            (23, 1): qmod_5_set(24, 0);
            (23, 2): qmod_5_set(25, 0);
            (23, 3): qmod_5_set(26, 0);
            (23, 4): qmod_5_set(27, 0);
            (23, 5): qmod_5_set(28, 0);
            (23, 6): qmod_5_set(29, 0);
            (23, 7): qmod_5_set(30, 0);
            (23, 8): qmod_5_set(31, 0);
            (23, 9): qmod_5_set(0, 0);
            (23, 10): qmod_5_set(1, 0);
            (23, 11): qmod_5_set(2, 0);
            (23, 12): qmod_5_set(3, 0);
            (23, 13): qmod_5_set(4, 0);
            (23, 14): qmod_5_set(5, 0);
            (23, 15): qmod_5_set(6, 0);
            (23, 16): qmod_5_set(7, 0);
            (23, 17): qmod_5_set(8, 0);
            (23, 18): qmod_5_set(9, 0);
            (23, 19): qmod_5_set(10, 0);
            (23, 20): qmod_5_set(11, 0);
            (23, 21): qmod_5_set(12, 0);
            (23, 22): qmod_5_set(13, 0);
            (23, 23): qmod_5_set(14, 0);
            (23, 24): qmod_5_set(15, 0);
            (23, 25): qmod_5_set(16, 0);
            (23, 26): qmod_5_set(17, 0);
            (23, 27): qmod_5_set(18, 0);
            (23, 28): qmod_5_set(19, 0);
            (23, 29): qmod_5_set(20, 0);
            (23, 30): qmod_5_set(21, 0);
            (23, 31): qmod_5_set(22, 0);
            (24, 0): qmod_5_set(24, 1);
            (24, 1): qmod_5_set(25, 0);
            (24, 2): qmod_5_set(26, 0);
            (24, 3): qmod_5_set(27, 0);
            (24, 4): qmod_5_set(28, 0);
            (24, 5): qmod_5_set(29, 0);
            (24, 6): qmod_5_set(30, 0);
            (24, 7): qmod_5_set(31, 0);
            (24, 8): qmod_5_set(0, 0);
            (24, 9): qmod_5_set(1, 0);
            (24, 10): qmod_5_set(2, 0);
            (24, 11): qmod_5_set(3, 0);
            (24, 12): qmod_5_set(4, 0);
            (24, 13): qmod_5_set(5, 0);
            (24, 14): qmod_5_set(6, 0);
            (24, 15): qmod_5_set(7, 0);
            (24, 16): qmod_5_set(8, 0);
            (24, 17): qmod_5_set(9, 0);
            (24, 18): qmod_5_set(10, 0);
            (24, 19): qmod_5_set(11, 0);
            (24, 20): qmod_5_set(12, 0);
            (24, 21): qmod_5_set(13, 0);
            (24, 22): qmod_5_set(14, 0);
            (24, 23): qmod_5_set(15, 0);
            (24, 24): qmod_5_set(16, 0);
            (24, 25): qmod_5_set(17, 0);
            (24, 26): qmod_5_set(18, 0);
            (24, 27): qmod_5_set(19, 0);
            (24, 28): qmod_5_set(20, 0);
            (24, 29): qmod_5_set(21, 0);
            (24, 30): qmod_5_set(22, 0);
            (24, 31): qmod_5_set(23, 0);
            (25, 0): qmod_5_set(25, 1);
            (25, 1): qmod_5_set(26, 0);
            (25, 2): qmod_5_set(27, 0);
            (25, 3): qmod_5_set(28, 0);
            (25, 4): qmod_5_set(29, 0);
            (25, 5): qmod_5_set(30, 0);
            (25, 6): qmod_5_set(31, 0);
            (25, 7): qmod_5_set(0, 0);
            (25, 8): qmod_5_set(1, 0);
            (25, 9): qmod_5_set(2, 0);
            (25, 10): qmod_5_set(3, 0);
            (25, 11): qmod_5_set(4, 0);
            (25, 12): qmod_5_set(5, 0);
            (25, 13): qmod_5_set(6, 0);
            (25, 14): qmod_5_set(7, 0);
            (25, 15): qmod_5_set(8, 0);
            (25, 16): qmod_5_set(9, 0);
            (25, 17): qmod_5_set(10, 0);
            (25, 18): qmod_5_set(11, 0);
            (25, 19): qmod_5_set(12, 0);
            (25, 20): qmod_5_set(13, 0);
            (25, 21): qmod_5_set(14, 0);
            (25, 22): qmod_5_set(15, 0);
            (25, 23): qmod_5_set(16, 0);
            (25, 24): qmod_5_set(17, 0);
            (25, 25): qmod_5_set(18, 0);
            (25, 26): qmod_5_set(19, 0);
            (25, 27): qmod_5_set(20, 0);
            (25, 28): qmod_5_set(21, 0);
            (25, 29): qmod_5_set(22, 0);
            (25, 30): qmod_5_set(23, 0);
            (25, 31): qmod_5_set(24, 0);
            (26, 0): qmod_5_set(26, 1);
            (26, 1): qmod_5_set(27, 0);
            (26, 2): qmod_5_set(28, 0);
            (26, 3): qmod_5_set(29, 0);
            (26, 4): qmod_5_set(30, 0);
            (26, 5): qmod_5_set(31, 0);
            (26, 6): qmod_5_set(0, 0);
            (26, 7): qmod_5_set(1, 0);
            (26, 8): qmod_5_set(2, 0);
            (26, 9): qmod_5_set(3, 0);
            (26, 10): qmod_5_set(4, 0);
            (26, 11): qmod_5_set(5, 0);
            (26, 12): qmod_5_set(6, 0);
            (26, 13): qmod_5_set(7, 0);
            (26, 14): qmod_5_set(8, 0);
            (26, 15): qmod_5_set(9, 0);
            (26, 16): qmod_5_set(10, 0);
            (26, 17): qmod_5_set(11, 0);
            (26, 18): qmod_5_set(12, 0);
            (26, 19): qmod_5_set(13, 0);
            (26, 20): qmod_5_set(14, 0);
            (26, 21): qmod_5_set(15, 0);
            (26, 22): qmod_5_set(16, 0);
            (26, 23): qmod_5_set(17, 0);
            (26, 24): qmod_5_set(18, 0);
            (26, 25): qmod_5_set(19, 0);
            (26, 26): qmod_5_set(20, 0);
            (26, 27): qmod_5_set(21, 0);
            (26, 28): qmod_5_set(22, 0);
            (26, 29): qmod_5_set(23, 0);
            (26, 30): qmod_5_set(24, 0);
            (26, 31): qmod_5_set(25, 0);
            (27, 0): qmod_5_set(27, 1);
            (27, 1): qmod_5_set(28, 0);
            (27, 2): qmod_5_set(29, 0);
            (27, 3): qmod_5_set(30, 0);
            (27, 4): qmod_5_set(31, 0);
            (27, 5): qmod_5_set(0, 0);
            (27, 6): qmod_5_set(1, 0);
            (27, 7): qmod_5_set(2, 0);
            (27, 8): qmod_5_set(3, 0);
            (27, 9): qmod_5_set(4, 0);
            (27, 10): qmod_5_set(5, 0);
            (27, 11): qmod_5_set(6, 0);
            (27, 12): qmod_5_set(7, 0);
            (27, 13): qmod_5_set(8, 0);
            (27, 14): qmod_5_set(9, 0);
            (27, 15): qmod_5_set(10, 0);
            (27, 16): qmod_5_set(11, 0);
            (27, 17): qmod_5_set(12, 0);
            (27, 18): qmod_5_set(13, 0);
            (27, 19): qmod_5_set(14, 0);
            (27, 20): qmod_5_set(15, 0);
            (27, 21): qmod_5_set(16, 0);
            (27, 22): qmod_5_set(17, 0);
            (27, 23): qmod_5_set(18, 0);
            (27, 24): qmod_5_set(19, 0);
            (27, 25): qmod_5_set(20, 0);
            (27, 26): qmod_5_set(21, 0);
            (27, 27): qmod_5_set(22, 0);
            (27, 28): qmod_5_set(23, 0);
            (27, 29): qmod_5_set(24, 0);
            (27, 30): qmod_5_set(25, 0);
            (27, 31): qmod_5_set(26, 0);
            (28, 0): qmod_5_set(28, 1);
            (28, 1): qmod_5_set(29, 0);
            (28, 2): qmod_5_set(30, 0);
            (28, 3): qmod_5_set(31, 0);
            (28, 4): qmod_5_set(0, 0);
            (28, 5): qmod_5_set(1, 0);
            (28, 6): qmod_5_set(2, 0);
            (28, 7): qmod_5_set(3, 0);
            (28, 8): qmod_5_set(4, 0);
            (28, 9): qmod_5_set(5, 0);
            (28, 10): qmod_5_set(6, 0);
            (28, 11): qmod_5_set(7, 0);
            (28, 12): qmod_5_set(8, 0);
            (28, 13): qmod_5_set(9, 0);
            (28, 14): qmod_5_set(10, 0);
            (28, 15): qmod_5_set(11, 0);
            (28, 16): qmod_5_set(12, 0);
            (28, 17): qmod_5_set(13, 0);
            (28, 18): qmod_5_set(14, 0);
            (28, 19): qmod_5_set(15, 0);
            (28, 20): qmod_5_set(16, 0);
            (28, 21): qmod_5_set(17, 0);
            (28, 22): qmod_5_set(18, 0);
            (28, 23): qmod_5_set(19, 0);
            (28, 24): qmod_5_set(20, 0);
            (28, 25): qmod_5_set(21, 0);
            (28, 26): qmod_5_set(22, 0);
            (28, 27): qmod_5_set(23, 0);
            (28, 28): qmod_5_set(24, 0);
            (28, 29): qmod_5_set(25, 0);
            (28, 30): qmod_5_set(26, 0);
            (28, 31): qmod_5_set(27, 0);
            (29, 0): qmod_5_set(29, 1);
            (29, 1): qmod_5_set(30, 0);
            (29, 2): qmod_5_set(31, 0);
            (29, 3): qmod_5_set(0, 0);
            (29, 4): qmod_5_set(1, 0);
            (29, 5): qmod_5_set(2, 0);
            (29, 6): qmod_5_set(3, 0);
            (29, 7): qmod_5_set(4, 0);
            (29, 8): qmod_5_set(5, 0);
            (29, 9): qmod_5_set(6, 0);
            (29, 10): qmod_5_set(7, 0);
            (29, 11): qmod_5_set(8, 0);
            (29, 12): qmod_5_set(9, 0);
            (29, 13): qmod_5_set(10, 0);
            (29, 14): qmod_5_set(11, 0);
            (29, 15): qmod_5_set(12, 0);
            (29, 16): qmod_5_set(13, 0);
            (29, 17): qmod_5_set(14, 0);
            (29, 18): qmod_5_set(15, 0);
            (29, 19): qmod_5_set(16, 0);
            (29, 20): qmod_5_set(17, 0);
            (29, 21): qmod_5_set(18, 0);
            (29, 22): qmod_5_set(19, 0);
            (29, 23): qmod_5_set(20, 0);
            (29, 24): qmod_5_set(21, 0);
            (29, 25): qmod_5_set(22, 0);
            (29, 26): qmod_5_set(23, 0);
            (29, 27): qmod_5_set(24, 0);
            (29, 28): qmod_5_set(25, 0);
            (29, 29): qmod_5_set(26, 0);
            (29, 30): qmod_5_set(27, 0);
            (29, 31): qmod_5_set(28, 0);
            (30, 0): qmod_5_set(30, 1);
            (30, 1): qmod_5_set(31, 0);
            (30, 2): qmod_5_set(0, 0);
            (30, 3): qmod_5_set(1, 0);
            (30, 4): qmod_5_set(2, 0);
            (30, 5): qmod_5_set(3, 0);
            (30, 6): qmod_5_set(4, 0);
            (30, 7): qmod_5_set(5, 0);
            (30, 8): qmod_5_set(6, 0);
            (30, 9): qmod_5_set(7, 0);
            (30, 10): qmod_5_set(8, 0);
            (30, 11): qmod_5_set(9, 0);
            (30, 12): qmod_5_set(10, 0);
            (30, 13): qmod_5_set(11, 0);
            (30, 14): qmod_5_set(12, 0);
            (30, 15): qmod_5_set(13, 0);
            (30, 16): qmod_5_set(14, 0);
            (30, 17): qmod_5_set(15, 0);
            (30, 18): qmod_5_set(16, 0);
            (30, 19): qmod_5_set(17, 0);
            (30, 20): qmod_5_set(18, 0);
            (30, 21): qmod_5_set(19, 0);
            (30, 22): qmod_5_set(20, 0);
            (30, 23): qmod_5_set(21, 0);
            (30, 24): qmod_5_set(22, 0);
            (30, 25): qmod_5_set(23, 0);
            (30, 26): qmod_5_set(24, 0);
            (30, 27): qmod_5_set(25, 0);
            (30, 28): qmod_5_set(26, 0);
            (30, 29): qmod_5_set(27, 0);
            (30, 30): qmod_5_set(28, 0);
            (30, 31): qmod_5_set(29, 0);
            (31, 0): qmod_5_set(31, 1);
            (31, 1): qmod_5_set(0, 0);
            (31, 2): qmod_5_set(1, 0);
            (31, 3): qmod_5_set(2, 0);
            (31, 4): qmod_5_set(3, 0);
            (31, 5): qmod_5_set(4, 0);
            (31, 6): qmod_5_set(5, 0);
            (31, 7): qmod_5_set(6, 0);
            (31, 8): qmod_5_set(7, 0);
            (31, 9): qmod_5_set(8, 0);
            (31, 10): qmod_5_set(9, 0);
            (31, 11): qmod_5_set(10, 0);
            (31, 12): qmod_5_set(11, 0);
            (31, 13): qmod_5_set(12, 0);
            (31, 14): qmod_5_set(13, 0);
            (31, 15): qmod_5_set(14, 0);
            (31, 16): qmod_5_set(15, 0);
            (31, 17): qmod_5_set(16, 0);
            (31, 18): qmod_5_set(17, 0);
            (31, 19): qmod_5_set(18, 0);
            (31, 20): qmod_5_set(19, 0);
            (31, 21): qmod_5_set(20, 0);
            (31, 22): qmod_5_set(21, 0);
            (31, 23): qmod_5_set(22, 0);
            (31, 24): qmod_5_set(23, 0);
            (31, 25): qmod_5_set(24, 0);
            (31, 26): qmod_5_set(25, 0);
            (31, 27): qmod_5_set(26, 0);
            (31, 28): qmod_5_set(27, 0);
            (31, 29): qmod_5_set(28, 0);
            (31, 30): qmod_5_set(29, 0);
            (31, 31): qmod_5_set(30, 0);
        }
        size = 1024;
    }
    Hash<qidx_t>(HashAlgorithm_t.IDENTITY) qidx_5_hash;
    action slot_5_ok() { meta.alt_ok_5 = meta.alt_pre_5 & meta.alt_unfull_5; }
    /* copy 5's one access per packet, by what the packet is (q_op): a front-panel packet
     * tests slot 5's queue, a pause clears a drained queue, a port-down or queue-state
     * update sets it. One table per copy, so each stage's stateful ALUs take four copies. */
    action q_5_test() { meta.alt_unfull_5 = qstate_5_test.execute(meta.alt_i_5); }
    action q_5_set() { qstate_5_set.execute(meta.alt_i_5); }
    action q_5_clear() { qstate_5_clear.execute(meta.alt_i_5); }
    table qstate_5_op {
        key = { meta.q_op: exact; }
        actions = { q_5_test; q_5_set; q_5_clear; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            Q_TEST: q_5_test();
            Q_SET: q_5_set();
            Q_CLEAR: q_5_clear();
        }
        size = 3;
    }
    action slot_5_i() { meta.alt_i_5 = qidx_5_hash.get({meta.alt_up_5, meta.alt_q_5}); }
    /* slot 5's uplink masked down by the control plane (the config's `down`): the slot
     * counts as Full (as bmv2: a failed uplink is passed over). One ternary entry per uplink
     * tests its bit of the mask (no shift of the mask by a packet's field). */
    action slot_5_down() { meta.alt_dn_5 = 1; }
    table down_5 {
        key = {
            meta.alt_up_5: exact @name("uplink");
            meta.down_cfg: ternary @name("down");
        }
        actions = { slot_5_down; NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0x1 &&& 0x1): slot_5_down();
            (1, 0x2 &&& 0x2): slot_5_down();
            (2, 0x4 &&& 0x4): slot_5_down();
            (3, 0x8 &&& 0x8): slot_5_down();
            (4, 0x10 &&& 0x10): slot_5_down();
            (5, 0x20 &&& 0x20): slot_5_down();
            (6, 0x40 &&& 0x40): slot_5_down();
            (7, 0x80 &&& 0x80): slot_5_down();
            (8, 0x100 &&& 0x100): slot_5_down();
            (9, 0x200 &&& 0x200): slot_5_down();
            (10, 0x400 &&& 0x400): slot_5_down();
            (11, 0x800 &&& 0x800): slot_5_down();
            (12, 0x1000 &&& 0x1000): slot_5_down();
            (13, 0x2000 &&& 0x2000): slot_5_down();
            (14, 0x4000 &&& 0x4000): slot_5_down();
            (15, 0x8000 &&& 0x8000): slot_5_down();
            (16, 0x10000 &&& 0x10000): slot_5_down();
            (17, 0x20000 &&& 0x20000): slot_5_down();
            (18, 0x40000 &&& 0x40000): slot_5_down();
            (19, 0x80000 &&& 0x80000): slot_5_down();
            (20, 0x100000 &&& 0x100000): slot_5_down();
            (21, 0x200000 &&& 0x200000): slot_5_down();
            (22, 0x400000 &&& 0x400000): slot_5_down();
            (23, 0x800000 &&& 0x800000): slot_5_down();
            (24, 0x1000000 &&& 0x1000000): slot_5_down();
            (25, 0x2000000 &&& 0x2000000): slot_5_down();
            (26, 0x4000000 &&& 0x4000000): slot_5_down();
            (27, 0x8000000 &&& 0x8000000): slot_5_down();
            (28, 0x10000000 &&& 0x10000000): slot_5_down();
            (29, 0x20000000 &&& 0x20000000): slot_5_down();
            (30, 0x40000000 &&& 0x40000000): slot_5_down();
            (31, 0x80000000 &&& 0x80000000): slot_5_down();
        }
        size = 32;
    }
    Register<bit<8>, qidx_t>(8192, 0) qstate_6;
    /* the one-shot test: 1 if the queue is Unfull */
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_6) qstate_6_test = {
        void apply(inout bit<8> v, out bit<8> rv) {
            rv = 0;
            if (v == 0) { rv = 1; }
        }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_6) qstate_6_set = {
        void apply(inout bit<8> v) { v = 1; }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_6) qstate_6_clear = {
        void apply(inout bit<8> v) { v = 0; }
    };
    /* slot 6: queue = (active + wait) mod Q by one table keyed by both (no
     * adder and no modulo on the way to the register); index = uplink * 256 + queue by an
     * identity hash (no shifts) */
    action qmod_6_set(queue_t q, bit<1> act) {
        meta.alt_q_6 = q;
        meta.alt_act_6 = act;       // wait 0: the active queue
    }
    table qmod_6 {
        key = {
            meta.active_q_1: exact @name("active");
            meta.alt_wait_6: exact @name("wait");
        }
        actions = { qmod_6_set; }
        const entries = {
            (0, 0): qmod_6_set(0, 1);
            (0, 1): qmod_6_set(1, 0);
            (0, 2): qmod_6_set(2, 0);
            (0, 3): qmod_6_set(3, 0);
            (0, 4): qmod_6_set(4, 0);
            (0, 5): qmod_6_set(5, 0);
            (0, 6): qmod_6_set(6, 0);
            (0, 7): qmod_6_set(7, 0);
            (0, 8): qmod_6_set(8, 0);
            (0, 9): qmod_6_set(9, 0);
            (0, 10): qmod_6_set(10, 0);
            (0, 11): qmod_6_set(11, 0);
            (0, 12): qmod_6_set(12, 0);
            (0, 13): qmod_6_set(13, 0);
            (0, 14): qmod_6_set(14, 0);
            (0, 15): qmod_6_set(15, 0);
            (0, 16): qmod_6_set(16, 0);
            (0, 17): qmod_6_set(17, 0);
            (0, 18): qmod_6_set(18, 0);
            (0, 19): qmod_6_set(19, 0);
            (0, 20): qmod_6_set(20, 0);
            (0, 21): qmod_6_set(21, 0);
            (0, 22): qmod_6_set(22, 0);
            (0, 23): qmod_6_set(23, 0);
            (0, 24): qmod_6_set(24, 0);
            (0, 25): qmod_6_set(25, 0);
            (0, 26): qmod_6_set(26, 0);
            (0, 27): qmod_6_set(27, 0);
            (0, 28): qmod_6_set(28, 0);
            (0, 29): qmod_6_set(29, 0);
            (0, 30): qmod_6_set(30, 0);
            (0, 31): qmod_6_set(31, 0);
            (1, 0): qmod_6_set(1, 1);
            (1, 1): qmod_6_set(2, 0);
            (1, 2): qmod_6_set(3, 0);
            (1, 3): qmod_6_set(4, 0);
            (1, 4): qmod_6_set(5, 0);
            (1, 5): qmod_6_set(6, 0);
            (1, 6): qmod_6_set(7, 0);
            (1, 7): qmod_6_set(8, 0);
            (1, 8): qmod_6_set(9, 0);
            (1, 9): qmod_6_set(10, 0);
            (1, 10): qmod_6_set(11, 0);
            (1, 11): qmod_6_set(12, 0);
            (1, 12): qmod_6_set(13, 0);
            (1, 13): qmod_6_set(14, 0);
            (1, 14): qmod_6_set(15, 0);
            (1, 15): qmod_6_set(16, 0);
            (1, 16): qmod_6_set(17, 0);
            (1, 17): qmod_6_set(18, 0);
            (1, 18): qmod_6_set(19, 0);
            (1, 19): qmod_6_set(20, 0);
            (1, 20): qmod_6_set(21, 0);
            (1, 21): qmod_6_set(22, 0);
            (1, 22): qmod_6_set(23, 0);
            (1, 23): qmod_6_set(24, 0);
            (1, 24): qmod_6_set(25, 0);
            (1, 25): qmod_6_set(26, 0);
            (1, 26): qmod_6_set(27, 0);
            (1, 27): qmod_6_set(28, 0);
            (1, 28): qmod_6_set(29, 0);
            (1, 29): qmod_6_set(30, 0);
            (1, 30): qmod_6_set(31, 0);
            (1, 31): qmod_6_set(0, 0);
            (2, 0): qmod_6_set(2, 1);
            (2, 1): qmod_6_set(3, 0);
            (2, 2): qmod_6_set(4, 0);
            (2, 3): qmod_6_set(5, 0);
            (2, 4): qmod_6_set(6, 0);
            (2, 5): qmod_6_set(7, 0);
            (2, 6): qmod_6_set(8, 0);
            (2, 7): qmod_6_set(9, 0);
            (2, 8): qmod_6_set(10, 0);
            (2, 9): qmod_6_set(11, 0);
            (2, 10): qmod_6_set(12, 0);
            (2, 11): qmod_6_set(13, 0);
            (2, 12): qmod_6_set(14, 0);
            (2, 13): qmod_6_set(15, 0);
            (2, 14): qmod_6_set(16, 0);
            (2, 15): qmod_6_set(17, 0);
            (2, 16): qmod_6_set(18, 0);
            (2, 17): qmod_6_set(19, 0);
            (2, 18): qmod_6_set(20, 0);
            (2, 19): qmod_6_set(21, 0);
            (2, 20): qmod_6_set(22, 0);
            (2, 21): qmod_6_set(23, 0);
            (2, 22): qmod_6_set(24, 0);
            (2, 23): qmod_6_set(25, 0);
            (2, 24): qmod_6_set(26, 0);
            (2, 25): qmod_6_set(27, 0);
            (2, 26): qmod_6_set(28, 0);
            (2, 27): qmod_6_set(29, 0);
            (2, 28): qmod_6_set(30, 0);
            (2, 29): qmod_6_set(31, 0);
            (2, 30): qmod_6_set(0, 0);
            (2, 31): qmod_6_set(1, 0);
            (3, 0): qmod_6_set(3, 1);
            (3, 1): qmod_6_set(4, 0);
            (3, 2): qmod_6_set(5, 0);
            (3, 3): qmod_6_set(6, 0);
            (3, 4): qmod_6_set(7, 0);
            (3, 5): qmod_6_set(8, 0);
            (3, 6): qmod_6_set(9, 0);
            (3, 7): qmod_6_set(10, 0);
            (3, 8): qmod_6_set(11, 0);
            (3, 9): qmod_6_set(12, 0);
            (3, 10): qmod_6_set(13, 0);
            (3, 11): qmod_6_set(14, 0);
            (3, 12): qmod_6_set(15, 0);
            (3, 13): qmod_6_set(16, 0);
            (3, 14): qmod_6_set(17, 0);
            (3, 15): qmod_6_set(18, 0);
            (3, 16): qmod_6_set(19, 0);
            (3, 17): qmod_6_set(20, 0);
            (3, 18): qmod_6_set(21, 0);
            (3, 19): qmod_6_set(22, 0);
            (3, 20): qmod_6_set(23, 0);
            (3, 21): qmod_6_set(24, 0);
            (3, 22): qmod_6_set(25, 0);
            (3, 23): qmod_6_set(26, 0);
            (3, 24): qmod_6_set(27, 0);
            (3, 25): qmod_6_set(28, 0);
            (3, 26): qmod_6_set(29, 0);
            (3, 27): qmod_6_set(30, 0);
            (3, 28): qmod_6_set(31, 0);
            (3, 29): qmod_6_set(0, 0);
            (3, 30): qmod_6_set(1, 0);
            (3, 31): qmod_6_set(2, 0);
            (4, 0): qmod_6_set(4, 1);
            (4, 1): qmod_6_set(5, 0);
            (4, 2): qmod_6_set(6, 0);
            (4, 3): qmod_6_set(7, 0);
            (4, 4): qmod_6_set(8, 0);
            (4, 5): qmod_6_set(9, 0);
            (4, 6): qmod_6_set(10, 0);
            (4, 7): qmod_6_set(11, 0);
            (4, 8): qmod_6_set(12, 0);
            (4, 9): qmod_6_set(13, 0);
            (4, 10): qmod_6_set(14, 0);
            (4, 11): qmod_6_set(15, 0);
            (4, 12): qmod_6_set(16, 0);
            (4, 13): qmod_6_set(17, 0);
            (4, 14): qmod_6_set(18, 0);
            (4, 15): qmod_6_set(19, 0);
            (4, 16): qmod_6_set(20, 0);
            (4, 17): qmod_6_set(21, 0);
            (4, 18): qmod_6_set(22, 0);
            (4, 19): qmod_6_set(23, 0);
            (4, 20): qmod_6_set(24, 0);
            (4, 21): qmod_6_set(25, 0);
            (4, 22): qmod_6_set(26, 0);
            (4, 23): qmod_6_set(27, 0);
            (4, 24): qmod_6_set(28, 0);
            (4, 25): qmod_6_set(29, 0);
            (4, 26): qmod_6_set(30, 0);
            (4, 27): qmod_6_set(31, 0);
            (4, 28): qmod_6_set(0, 0);
            (4, 29): qmod_6_set(1, 0);
            (4, 30): qmod_6_set(2, 0);
            (4, 31): qmod_6_set(3, 0);
            (5, 0): qmod_6_set(5, 1);
            (5, 1): qmod_6_set(6, 0);
            (5, 2): qmod_6_set(7, 0);
            (5, 3): qmod_6_set(8, 0);
            (5, 4): qmod_6_set(9, 0);
            (5, 5): qmod_6_set(10, 0);
            (5, 6): qmod_6_set(11, 0);
            (5, 7): qmod_6_set(12, 0);
            (5, 8): qmod_6_set(13, 0);
            (5, 9): qmod_6_set(14, 0);
            (5, 10): qmod_6_set(15, 0);
            (5, 11): qmod_6_set(16, 0);
            (5, 12): qmod_6_set(17, 0);
            (5, 13): qmod_6_set(18, 0);
            (5, 14): qmod_6_set(19, 0);
            (5, 15): qmod_6_set(20, 0);
            (5, 16): qmod_6_set(21, 0);
            (5, 17): qmod_6_set(22, 0);
            (5, 18): qmod_6_set(23, 0);
            (5, 19): qmod_6_set(24, 0);
            (5, 20): qmod_6_set(25, 0);
            (5, 21): qmod_6_set(26, 0);
            (5, 22): qmod_6_set(27, 0);
            (5, 23): qmod_6_set(28, 0);
            (5, 24): qmod_6_set(29, 0);
            (5, 25): qmod_6_set(30, 0);
            (5, 26): qmod_6_set(31, 0);
            (5, 27): qmod_6_set(0, 0);
            (5, 28): qmod_6_set(1, 0);
            (5, 29): qmod_6_set(2, 0);
            (5, 30): qmod_6_set(3, 0);
            (5, 31): qmod_6_set(4, 0);
            (6, 0): qmod_6_set(6, 1);
            (6, 1): qmod_6_set(7, 0);
            (6, 2): qmod_6_set(8, 0);
            (6, 3): qmod_6_set(9, 0);
            (6, 4): qmod_6_set(10, 0);
            (6, 5): qmod_6_set(11, 0);
            (6, 6): qmod_6_set(12, 0);
            (6, 7): qmod_6_set(13, 0);
            (6, 8): qmod_6_set(14, 0);
            (6, 9): qmod_6_set(15, 0);
            (6, 10): qmod_6_set(16, 0);
            (6, 11): qmod_6_set(17, 0);
            (6, 12): qmod_6_set(18, 0);
            (6, 13): qmod_6_set(19, 0);
            (6, 14): qmod_6_set(20, 0);
            (6, 15): qmod_6_set(21, 0);
            (6, 16): qmod_6_set(22, 0);
            (6, 17): qmod_6_set(23, 0);
            (6, 18): qmod_6_set(24, 0);
            (6, 19): qmod_6_set(25, 0);
            (6, 20): qmod_6_set(26, 0);
            (6, 21): qmod_6_set(27, 0);
            (6, 22): qmod_6_set(28, 0);
            (6, 23): qmod_6_set(29, 0);
            (6, 24): qmod_6_set(30, 0);
            (6, 25): qmod_6_set(31, 0);
            (6, 26): qmod_6_set(0, 0);
            (6, 27): qmod_6_set(1, 0);
            (6, 28): qmod_6_set(2, 0);
            (6, 29): qmod_6_set(3, 0);
            (6, 30): qmod_6_set(4, 0);
            (6, 31): qmod_6_set(5, 0);
            (7, 0): qmod_6_set(7, 1);
            (7, 1): qmod_6_set(8, 0);
            (7, 2): qmod_6_set(9, 0);
            (7, 3): qmod_6_set(10, 0);
            (7, 4): qmod_6_set(11, 0);
            (7, 5): qmod_6_set(12, 0);
            (7, 6): qmod_6_set(13, 0);
            (7, 7): qmod_6_set(14, 0);
            (7, 8): qmod_6_set(15, 0);
            (7, 9): qmod_6_set(16, 0);
            (7, 10): qmod_6_set(17, 0);
            (7, 11): qmod_6_set(18, 0);
            (7, 12): qmod_6_set(19, 0);
            (7, 13): qmod_6_set(20, 0);
            (7, 14): qmod_6_set(21, 0);
            (7, 15): qmod_6_set(22, 0);
            (7, 16): qmod_6_set(23, 0);
            (7, 17): qmod_6_set(24, 0);
            (7, 18): qmod_6_set(25, 0);
            (7, 19): qmod_6_set(26, 0);
            (7, 20): qmod_6_set(27, 0);
            (7, 21): qmod_6_set(28, 0);
            (7, 22): qmod_6_set(29, 0);
            (7, 23): qmod_6_set(30, 0);
            (7, 24): qmod_6_set(31, 0);
            (7, 25): qmod_6_set(0, 0);
            (7, 26): qmod_6_set(1, 0);
            (7, 27): qmod_6_set(2, 0);
            (7, 28): qmod_6_set(3, 0);
            (7, 29): qmod_6_set(4, 0);
            (7, 30): qmod_6_set(5, 0);
            (7, 31): qmod_6_set(6, 0);
            (8, 0): qmod_6_set(8, 1);
            (8, 1): qmod_6_set(9, 0);
            (8, 2): qmod_6_set(10, 0);
            (8, 3): qmod_6_set(11, 0);
            (8, 4): qmod_6_set(12, 0);
            (8, 5): qmod_6_set(13, 0);
            (8, 6): qmod_6_set(14, 0);
            (8, 7): qmod_6_set(15, 0);
            (8, 8): qmod_6_set(16, 0);
            (8, 9): qmod_6_set(17, 0);
            (8, 10): qmod_6_set(18, 0);
            (8, 11): qmod_6_set(19, 0);
            (8, 12): qmod_6_set(20, 0);
            (8, 13): qmod_6_set(21, 0);
            (8, 14): qmod_6_set(22, 0);
            (8, 15): qmod_6_set(23, 0);
            (8, 16): qmod_6_set(24, 0);
            (8, 17): qmod_6_set(25, 0);
            (8, 18): qmod_6_set(26, 0);
            (8, 19): qmod_6_set(27, 0);
            (8, 20): qmod_6_set(28, 0);
            (8, 21): qmod_6_set(29, 0);
            (8, 22): qmod_6_set(30, 0);
            (8, 23): qmod_6_set(31, 0);
            (8, 24): qmod_6_set(0, 0);
            (8, 25): qmod_6_set(1, 0);
            (8, 26): qmod_6_set(2, 0);
            (8, 27): qmod_6_set(3, 0);
            (8, 28): qmod_6_set(4, 0);
            (8, 29): qmod_6_set(5, 0);
            (8, 30): qmod_6_set(6, 0);
            (8, 31): qmod_6_set(7, 0);
            (9, 0): qmod_6_set(9, 1);
            (9, 1): qmod_6_set(10, 0);
            (9, 2): qmod_6_set(11, 0);
            (9, 3): qmod_6_set(12, 0);
            (9, 4): qmod_6_set(13, 0);
            (9, 5): qmod_6_set(14, 0);
            (9, 6): qmod_6_set(15, 0);
            (9, 7): qmod_6_set(16, 0);
            (9, 8): qmod_6_set(17, 0);
            (9, 9): qmod_6_set(18, 0);
            (9, 10): qmod_6_set(19, 0);
            (9, 11): qmod_6_set(20, 0);
            (9, 12): qmod_6_set(21, 0);
            (9, 13): qmod_6_set(22, 0);
            (9, 14): qmod_6_set(23, 0);
            (9, 15): qmod_6_set(24, 0);
            (9, 16): qmod_6_set(25, 0);
            (9, 17): qmod_6_set(26, 0);
            (9, 18): qmod_6_set(27, 0);
            (9, 19): qmod_6_set(28, 0);
            (9, 20): qmod_6_set(29, 0);
            (9, 21): qmod_6_set(30, 0);
            (9, 22): qmod_6_set(31, 0);
            (9, 23): qmod_6_set(0, 0);
            (9, 24): qmod_6_set(1, 0);
            (9, 25): qmod_6_set(2, 0);
            (9, 26): qmod_6_set(3, 0);
            (9, 27): qmod_6_set(4, 0);
            (9, 28): qmod_6_set(5, 0);
            (9, 29): qmod_6_set(6, 0);
            (9, 30): qmod_6_set(7, 0);
            (9, 31): qmod_6_set(8, 0);
            (10, 0): qmod_6_set(10, 1);
            (10, 1): qmod_6_set(11, 0);
            (10, 2): qmod_6_set(12, 0);
            (10, 3): qmod_6_set(13, 0);
            (10, 4): qmod_6_set(14, 0);
            (10, 5): qmod_6_set(15, 0);
            (10, 6): qmod_6_set(16, 0);
            (10, 7): qmod_6_set(17, 0);
            (10, 8): qmod_6_set(18, 0);
            (10, 9): qmod_6_set(19, 0);
            (10, 10): qmod_6_set(20, 0);
            (10, 11): qmod_6_set(21, 0);
            (10, 12): qmod_6_set(22, 0);
            (10, 13): qmod_6_set(23, 0);
            (10, 14): qmod_6_set(24, 0);
            (10, 15): qmod_6_set(25, 0);
            (10, 16): qmod_6_set(26, 0);
            (10, 17): qmod_6_set(27, 0);
            (10, 18): qmod_6_set(28, 0);
            (10, 19): qmod_6_set(29, 0);
            (10, 20): qmod_6_set(30, 0);
            (10, 21): qmod_6_set(31, 0);
            (10, 22): qmod_6_set(0, 0);
            (10, 23): qmod_6_set(1, 0);
            (10, 24): qmod_6_set(2, 0);
            (10, 25): qmod_6_set(3, 0);
            (10, 26): qmod_6_set(4, 0);
            (10, 27): qmod_6_set(5, 0);
            (10, 28): qmod_6_set(6, 0);
            (10, 29): qmod_6_set(7, 0);
            (10, 30): qmod_6_set(8, 0);
            (10, 31): qmod_6_set(9, 0);
            (11, 0): qmod_6_set(11, 1);
            (11, 1): qmod_6_set(12, 0);
            (11, 2): qmod_6_set(13, 0);
            (11, 3): qmod_6_set(14, 0);
            (11, 4): qmod_6_set(15, 0);
            (11, 5): qmod_6_set(16, 0);
            (11, 6): qmod_6_set(17, 0);
            (11, 7): qmod_6_set(18, 0);
            (11, 8): qmod_6_set(19, 0);
            (11, 9): qmod_6_set(20, 0);
            (11, 10): qmod_6_set(21, 0);
            (11, 11): qmod_6_set(22, 0);
            (11, 12): qmod_6_set(23, 0);
            (11, 13): qmod_6_set(24, 0);
            (11, 14): qmod_6_set(25, 0);
            (11, 15): qmod_6_set(26, 0);
            (11, 16): qmod_6_set(27, 0);
            (11, 17): qmod_6_set(28, 0);
            (11, 18): qmod_6_set(29, 0);
            (11, 19): qmod_6_set(30, 0);
            (11, 20): qmod_6_set(31, 0);
            (11, 21): qmod_6_set(0, 0);
            (11, 22): qmod_6_set(1, 0);
            (11, 23): qmod_6_set(2, 0);
            (11, 24): qmod_6_set(3, 0);
            (11, 25): qmod_6_set(4, 0);
            (11, 26): qmod_6_set(5, 0);
            (11, 27): qmod_6_set(6, 0);
            (11, 28): qmod_6_set(7, 0);
            (11, 29): qmod_6_set(8, 0);
            (11, 30): qmod_6_set(9, 0);
            (11, 31): qmod_6_set(10, 0);
            (12, 0): qmod_6_set(12, 1);
            (12, 1): qmod_6_set(13, 0);
            (12, 2): qmod_6_set(14, 0);
            (12, 3): qmod_6_set(15, 0);
            (12, 4): qmod_6_set(16, 0);
            (12, 5): qmod_6_set(17, 0);
            (12, 6): qmod_6_set(18, 0);
            (12, 7): qmod_6_set(19, 0);
            (12, 8): qmod_6_set(20, 0);
            (12, 9): qmod_6_set(21, 0);
            (12, 10): qmod_6_set(22, 0);
            (12, 11): qmod_6_set(23, 0);
            (12, 12): qmod_6_set(24, 0);
            (12, 13): qmod_6_set(25, 0);
            (12, 14): qmod_6_set(26, 0);
            (12, 15): qmod_6_set(27, 0);
            (12, 16): qmod_6_set(28, 0);
            (12, 17): qmod_6_set(29, 0);
            (12, 18): qmod_6_set(30, 0);
            (12, 19): qmod_6_set(31, 0);
            (12, 20): qmod_6_set(0, 0);
            (12, 21): qmod_6_set(1, 0);
            (12, 22): qmod_6_set(2, 0);
            (12, 23): qmod_6_set(3, 0);
            (12, 24): qmod_6_set(4, 0);
            (12, 25): qmod_6_set(5, 0);
            (12, 26): qmod_6_set(6, 0);
            (12, 27): qmod_6_set(7, 0);
            (12, 28): qmod_6_set(8, 0);
            (12, 29): qmod_6_set(9, 0);
            (12, 30): qmod_6_set(10, 0);
            (12, 31): qmod_6_set(11, 0);
            (13, 0): qmod_6_set(13, 1);
            (13, 1): qmod_6_set(14, 0);
            (13, 2): qmod_6_set(15, 0);
            (13, 3): qmod_6_set(16, 0);
            (13, 4): qmod_6_set(17, 0);
            (13, 5): qmod_6_set(18, 0);
            (13, 6): qmod_6_set(19, 0);
            (13, 7): qmod_6_set(20, 0);
            (13, 8): qmod_6_set(21, 0);
            (13, 9): qmod_6_set(22, 0);
            (13, 10): qmod_6_set(23, 0);
            (13, 11): qmod_6_set(24, 0);
            (13, 12): qmod_6_set(25, 0);
            (13, 13): qmod_6_set(26, 0);
            (13, 14): qmod_6_set(27, 0);
            (13, 15): qmod_6_set(28, 0);
            (13, 16): qmod_6_set(29, 0);
            (13, 17): qmod_6_set(30, 0);
            (13, 18): qmod_6_set(31, 0);
            (13, 19): qmod_6_set(0, 0);
            (13, 20): qmod_6_set(1, 0);
            (13, 21): qmod_6_set(2, 0);
            (13, 22): qmod_6_set(3, 0);
            (13, 23): qmod_6_set(4, 0);
            (13, 24): qmod_6_set(5, 0);
            (13, 25): qmod_6_set(6, 0);
            (13, 26): qmod_6_set(7, 0);
            (13, 27): qmod_6_set(8, 0);
            (13, 28): qmod_6_set(9, 0);
            (13, 29): qmod_6_set(10, 0);
            (13, 30): qmod_6_set(11, 0);
            (13, 31): qmod_6_set(12, 0);
            (14, 0): qmod_6_set(14, 1);
            (14, 1): qmod_6_set(15, 0);
            (14, 2): qmod_6_set(16, 0);
            (14, 3): qmod_6_set(17, 0);
            (14, 4): qmod_6_set(18, 0);
            (14, 5): qmod_6_set(19, 0);
            (14, 6): qmod_6_set(20, 0);
            (14, 7): qmod_6_set(21, 0);
            (14, 8): qmod_6_set(22, 0);
            (14, 9): qmod_6_set(23, 0);
            (14, 10): qmod_6_set(24, 0);
            (14, 11): qmod_6_set(25, 0);
            (14, 12): qmod_6_set(26, 0);
            (14, 13): qmod_6_set(27, 0);
            (14, 14): qmod_6_set(28, 0);
            (14, 15): qmod_6_set(29, 0);
            (14, 16): qmod_6_set(30, 0);
            (14, 17): qmod_6_set(31, 0);
            (14, 18): qmod_6_set(0, 0);
            (14, 19): qmod_6_set(1, 0);
            (14, 20): qmod_6_set(2, 0);
            (14, 21): qmod_6_set(3, 0);
            (14, 22): qmod_6_set(4, 0);
            (14, 23): qmod_6_set(5, 0);
            (14, 24): qmod_6_set(6, 0);
            (14, 25): qmod_6_set(7, 0);
            (14, 26): qmod_6_set(8, 0);
            (14, 27): qmod_6_set(9, 0);
            (14, 28): qmod_6_set(10, 0);
            (14, 29): qmod_6_set(11, 0);
            (14, 30): qmod_6_set(12, 0);
            (14, 31): qmod_6_set(13, 0);
            (15, 0): qmod_6_set(15, 1);
            (15, 1): qmod_6_set(16, 0);
            (15, 2): qmod_6_set(17, 0);
            (15, 3): qmod_6_set(18, 0);
            (15, 4): qmod_6_set(19, 0);
            (15, 5): qmod_6_set(20, 0);
            (15, 6): qmod_6_set(21, 0);
            (15, 7): qmod_6_set(22, 0);
            (15, 8): qmod_6_set(23, 0);
            (15, 9): qmod_6_set(24, 0);
            (15, 10): qmod_6_set(25, 0);
            (15, 11): qmod_6_set(26, 0);
            (15, 12): qmod_6_set(27, 0);
            (15, 13): qmod_6_set(28, 0);
            (15, 14): qmod_6_set(29, 0);
            (15, 15): qmod_6_set(30, 0);
            (15, 16): qmod_6_set(31, 0);
            (15, 17): qmod_6_set(0, 0);
            (15, 18): qmod_6_set(1, 0);
            (15, 19): qmod_6_set(2, 0);
            (15, 20): qmod_6_set(3, 0);
            (15, 21): qmod_6_set(4, 0);
            (15, 22): qmod_6_set(5, 0);
            (15, 23): qmod_6_set(6, 0);
            (15, 24): qmod_6_set(7, 0);
            (15, 25): qmod_6_set(8, 0);
            (15, 26): qmod_6_set(9, 0);
            (15, 27): qmod_6_set(10, 0);
            (15, 28): qmod_6_set(11, 0);
            (15, 29): qmod_6_set(12, 0);
            (15, 30): qmod_6_set(13, 0);
            (15, 31): qmod_6_set(14, 0);
            (16, 0): qmod_6_set(16, 1);
            (16, 1): qmod_6_set(17, 0);
            (16, 2): qmod_6_set(18, 0);
            (16, 3): qmod_6_set(19, 0);
            (16, 4): qmod_6_set(20, 0);
            (16, 5): qmod_6_set(21, 0);
            (16, 6): qmod_6_set(22, 0);
            (16, 7): qmod_6_set(23, 0);
            (16, 8): qmod_6_set(24, 0);
            (16, 9): qmod_6_set(25, 0);
            (16, 10): qmod_6_set(26, 0);
            (16, 11): qmod_6_set(27, 0);
            (16, 12): qmod_6_set(28, 0);
            (16, 13): qmod_6_set(29, 0);
            (16, 14): qmod_6_set(30, 0);
            (16, 15): qmod_6_set(31, 0);
            (16, 16): qmod_6_set(0, 0);
            (16, 17): qmod_6_set(1, 0);
            (16, 18): qmod_6_set(2, 0);
            (16, 19): qmod_6_set(3, 0);
            (16, 20): qmod_6_set(4, 0);
            (16, 21): qmod_6_set(5, 0);
            (16, 22): qmod_6_set(6, 0);
            (16, 23): qmod_6_set(7, 0);
            (16, 24): qmod_6_set(8, 0);
            (16, 25): qmod_6_set(9, 0);
            (16, 26): qmod_6_set(10, 0);
            (16, 27): qmod_6_set(11, 0);
            (16, 28): qmod_6_set(12, 0);
            (16, 29): qmod_6_set(13, 0);
            (16, 30): qmod_6_set(14, 0);
            (16, 31): qmod_6_set(15, 0);
            (17, 0): qmod_6_set(17, 1);
            (17, 1): qmod_6_set(18, 0);
            (17, 2): qmod_6_set(19, 0);
            (17, 3): qmod_6_set(20, 0);
            (17, 4): qmod_6_set(21, 0);
            (17, 5): qmod_6_set(22, 0);
            (17, 6): qmod_6_set(23, 0);
            (17, 7): qmod_6_set(24, 0);
            (17, 8): qmod_6_set(25, 0);
            (17, 9): qmod_6_set(26, 0);
            (17, 10): qmod_6_set(27, 0);
            (17, 11): qmod_6_set(28, 0);
            (17, 12): qmod_6_set(29, 0);
            (17, 13): qmod_6_set(30, 0);
            (17, 14): qmod_6_set(31, 0);
            (17, 15): qmod_6_set(0, 0);
            (17, 16): qmod_6_set(1, 0);
            (17, 17): qmod_6_set(2, 0);
            (17, 18): qmod_6_set(3, 0);
            (17, 19): qmod_6_set(4, 0);
            (17, 20): qmod_6_set(5, 0);
            (17, 21): qmod_6_set(6, 0);
            (17, 22): qmod_6_set(7, 0);
            (17, 23): qmod_6_set(8, 0);
            (17, 24): qmod_6_set(9, 0);
            (17, 25): qmod_6_set(10, 0);
            (17, 26): qmod_6_set(11, 0);
            (17, 27): qmod_6_set(12, 0);
            (17, 28): qmod_6_set(13, 0);
            (17, 29): qmod_6_set(14, 0);
            (17, 30): qmod_6_set(15, 0);
            (17, 31): qmod_6_set(16, 0);
            (18, 0): qmod_6_set(18, 1);
            (18, 1): qmod_6_set(19, 0);
            (18, 2): qmod_6_set(20, 0);
            (18, 3): qmod_6_set(21, 0);
            (18, 4): qmod_6_set(22, 0);
            (18, 5): qmod_6_set(23, 0);
            (18, 6): qmod_6_set(24, 0);
            (18, 7): qmod_6_set(25, 0);
            (18, 8): qmod_6_set(26, 0);
            (18, 9): qmod_6_set(27, 0);
            (18, 10): qmod_6_set(28, 0);
            (18, 11): qmod_6_set(29, 0);
            (18, 12): qmod_6_set(30, 0);
            (18, 13): qmod_6_set(31, 0);
            (18, 14): qmod_6_set(0, 0);
            (18, 15): qmod_6_set(1, 0);
            (18, 16): qmod_6_set(2, 0);
            (18, 17): qmod_6_set(3, 0);
            (18, 18): qmod_6_set(4, 0);
            (18, 19): qmod_6_set(5, 0);
            (18, 20): qmod_6_set(6, 0);
            (18, 21): qmod_6_set(7, 0);
            (18, 22): qmod_6_set(8, 0);
            (18, 23): qmod_6_set(9, 0);
            (18, 24): qmod_6_set(10, 0);
            (18, 25): qmod_6_set(11, 0);
            (18, 26): qmod_6_set(12, 0);
            (18, 27): qmod_6_set(13, 0);
            (18, 28): qmod_6_set(14, 0);
            (18, 29): qmod_6_set(15, 0);
            (18, 30): qmod_6_set(16, 0);
            (18, 31): qmod_6_set(17, 0);
            (19, 0): qmod_6_set(19, 1);
            (19, 1): qmod_6_set(20, 0);
            (19, 2): qmod_6_set(21, 0);
            (19, 3): qmod_6_set(22, 0);
            (19, 4): qmod_6_set(23, 0);
            (19, 5): qmod_6_set(24, 0);
            (19, 6): qmod_6_set(25, 0);
            (19, 7): qmod_6_set(26, 0);
            (19, 8): qmod_6_set(27, 0);
            (19, 9): qmod_6_set(28, 0);
            (19, 10): qmod_6_set(29, 0);
            (19, 11): qmod_6_set(30, 0);
            (19, 12): qmod_6_set(31, 0);
            (19, 13): qmod_6_set(0, 0);
            (19, 14): qmod_6_set(1, 0);
            (19, 15): qmod_6_set(2, 0);
            (19, 16): qmod_6_set(3, 0);
            (19, 17): qmod_6_set(4, 0);
            (19, 18): qmod_6_set(5, 0);
            (19, 19): qmod_6_set(6, 0);
            (19, 20): qmod_6_set(7, 0);
            (19, 21): qmod_6_set(8, 0);
            (19, 22): qmod_6_set(9, 0);
            (19, 23): qmod_6_set(10, 0);
            (19, 24): qmod_6_set(11, 0);
            (19, 25): qmod_6_set(12, 0);
            (19, 26): qmod_6_set(13, 0);
            (19, 27): qmod_6_set(14, 0);
            (19, 28): qmod_6_set(15, 0);
            (19, 29): qmod_6_set(16, 0);
            (19, 30): qmod_6_set(17, 0);
            (19, 31): qmod_6_set(18, 0);
            (20, 0): qmod_6_set(20, 1);
            (20, 1): qmod_6_set(21, 0);
            (20, 2): qmod_6_set(22, 0);
            (20, 3): qmod_6_set(23, 0);
            (20, 4): qmod_6_set(24, 0);
            (20, 5): qmod_6_set(25, 0);
            (20, 6): qmod_6_set(26, 0);
            (20, 7): qmod_6_set(27, 0);
            (20, 8): qmod_6_set(28, 0);
            (20, 9): qmod_6_set(29, 0);
            (20, 10): qmod_6_set(30, 0);
            (20, 11): qmod_6_set(31, 0);
            (20, 12): qmod_6_set(0, 0);
            (20, 13): qmod_6_set(1, 0);
            (20, 14): qmod_6_set(2, 0);
            (20, 15): qmod_6_set(3, 0);
            (20, 16): qmod_6_set(4, 0);
            (20, 17): qmod_6_set(5, 0);
            (20, 18): qmod_6_set(6, 0);
            (20, 19): qmod_6_set(7, 0);
            (20, 20): qmod_6_set(8, 0);
            (20, 21): qmod_6_set(9, 0);
            (20, 22): qmod_6_set(10, 0);
            (20, 23): qmod_6_set(11, 0);
            (20, 24): qmod_6_set(12, 0);
            (20, 25): qmod_6_set(13, 0);
            (20, 26): qmod_6_set(14, 0);
            (20, 27): qmod_6_set(15, 0);
            (20, 28): qmod_6_set(16, 0);
            (20, 29): qmod_6_set(17, 0);
            (20, 30): qmod_6_set(18, 0);
            (20, 31): qmod_6_set(19, 0);
            (21, 0): qmod_6_set(21, 1);
            (21, 1): qmod_6_set(22, 0);
            (21, 2): qmod_6_set(23, 0);
            (21, 3): qmod_6_set(24, 0);
            (21, 4): qmod_6_set(25, 0);
            (21, 5): qmod_6_set(26, 0);
            (21, 6): qmod_6_set(27, 0);
            (21, 7): qmod_6_set(28, 0);
            (21, 8): qmod_6_set(29, 0);
            (21, 9): qmod_6_set(30, 0);
            (21, 10): qmod_6_set(31, 0);
            (21, 11): qmod_6_set(0, 0);
            (21, 12): qmod_6_set(1, 0);
            (21, 13): qmod_6_set(2, 0);
            (21, 14): qmod_6_set(3, 0);
            (21, 15): qmod_6_set(4, 0);
            (21, 16): qmod_6_set(5, 0);
            (21, 17): qmod_6_set(6, 0);
            (21, 18): qmod_6_set(7, 0);
            (21, 19): qmod_6_set(8, 0);
            (21, 20): qmod_6_set(9, 0);
            (21, 21): qmod_6_set(10, 0);
            (21, 22): qmod_6_set(11, 0);
            (21, 23): qmod_6_set(12, 0);
            (21, 24): qmod_6_set(13, 0);
            (21, 25): qmod_6_set(14, 0);
            (21, 26): qmod_6_set(15, 0);
            (21, 27): qmod_6_set(16, 0);
            (21, 28): qmod_6_set(17, 0);
            (21, 29): qmod_6_set(18, 0);
            (21, 30): qmod_6_set(19, 0);
            (21, 31): qmod_6_set(20, 0);
            (22, 0): qmod_6_set(22, 1);
            (22, 1): qmod_6_set(23, 0);
            (22, 2): qmod_6_set(24, 0);
            (22, 3): qmod_6_set(25, 0);
            (22, 4): qmod_6_set(26, 0);
            (22, 5): qmod_6_set(27, 0);
            (22, 6): qmod_6_set(28, 0);
            (22, 7): qmod_6_set(29, 0);
            (22, 8): qmod_6_set(30, 0);
            (22, 9): qmod_6_set(31, 0);
            (22, 10): qmod_6_set(0, 0);
            (22, 11): qmod_6_set(1, 0);
            (22, 12): qmod_6_set(2, 0);
            (22, 13): qmod_6_set(3, 0);
            (22, 14): qmod_6_set(4, 0);
            (22, 15): qmod_6_set(5, 0);
            (22, 16): qmod_6_set(6, 0);
            (22, 17): qmod_6_set(7, 0);
            (22, 18): qmod_6_set(8, 0);
            (22, 19): qmod_6_set(9, 0);
            (22, 20): qmod_6_set(10, 0);
            (22, 21): qmod_6_set(11, 0);
            (22, 22): qmod_6_set(12, 0);
            (22, 23): qmod_6_set(13, 0);
            (22, 24): qmod_6_set(14, 0);
            (22, 25): qmod_6_set(15, 0);
            (22, 26): qmod_6_set(16, 0);
            (22, 27): qmod_6_set(17, 0);
            (22, 28): qmod_6_set(18, 0);
            (22, 29): qmod_6_set(19, 0);
            (22, 30): qmod_6_set(20, 0);
            (22, 31): qmod_6_set(21, 0);
            (23, 0): qmod_6_set(23, 1);
            (23, 1): qmod_6_set(24, 0);
            (23, 2): qmod_6_set(25, 0);
            (23, 3): qmod_6_set(26, 0);
            (23, 4): qmod_6_set(27, 0);
            (23, 5): qmod_6_set(28, 0);
            (23, 6): qmod_6_set(29, 0);
            (23, 7): qmod_6_set(30, 0);
            (23, 8): qmod_6_set(31, 0);
            (23, 9): qmod_6_set(0, 0);
            (23, 10): qmod_6_set(1, 0);
            (23, 11): qmod_6_set(2, 0);
            (23, 12): qmod_6_set(3, 0);
            (23, 13): qmod_6_set(4, 0);
            (23, 14): qmod_6_set(5, 0);
            (23, 15): qmod_6_set(6, 0);
            (23, 16): qmod_6_set(7, 0);
            (23, 17): qmod_6_set(8, 0);
            (23, 18): qmod_6_set(9, 0);
            (23, 19): qmod_6_set(10, 0);
            (23, 20): qmod_6_set(11, 0);
            (23, 21): qmod_6_set(12, 0);
            (23, 22): qmod_6_set(13, 0);
            (23, 23): qmod_6_set(14, 0);
            (23, 24): qmod_6_set(15, 0);
            (23, 25): qmod_6_set(16, 0);
            (23, 26): qmod_6_set(17, 0);
            (23, 27): qmod_6_set(18, 0);
            (23, 28): qmod_6_set(19, 0);
            (23, 29): qmod_6_set(20, 0);
            (23, 30): qmod_6_set(21, 0);
            (23, 31): qmod_6_set(22, 0);
            (24, 0): qmod_6_set(24, 1);
            (24, 1): qmod_6_set(25, 0);
            (24, 2): qmod_6_set(26, 0);
            (24, 3): qmod_6_set(27, 0);
            (24, 4): qmod_6_set(28, 0);
            (24, 5): qmod_6_set(29, 0);
            (24, 6): qmod_6_set(30, 0);
            (24, 7): qmod_6_set(31, 0);
            (24, 8): qmod_6_set(0, 0);
            (24, 9): qmod_6_set(1, 0);
            (24, 10): qmod_6_set(2, 0);
            (24, 11): qmod_6_set(3, 0);
            (24, 12): qmod_6_set(4, 0);
            (24, 13): qmod_6_set(5, 0);
            (24, 14): qmod_6_set(6, 0);
            (24, 15): qmod_6_set(7, 0);
            (24, 16): qmod_6_set(8, 0);
            (24, 17): qmod_6_set(9, 0);
            (24, 18): qmod_6_set(10, 0);
            (24, 19): qmod_6_set(11, 0);
            (24, 20): qmod_6_set(12, 0);
            (24, 21): qmod_6_set(13, 0);
            (24, 22): qmod_6_set(14, 0);
            (24, 23): qmod_6_set(15, 0);
            (24, 24): qmod_6_set(16, 0);
            (24, 25): qmod_6_set(17, 0);
            (24, 26): qmod_6_set(18, 0);
            (24, 27): qmod_6_set(19, 0);
            (24, 28): qmod_6_set(20, 0);
            (24, 29): qmod_6_set(21, 0);
            (24, 30): qmod_6_set(22, 0);
            (24, 31): qmod_6_set(23, 0);
            (25, 0): qmod_6_set(25, 1);
            (25, 1): qmod_6_set(26, 0);
            (25, 2): qmod_6_set(27, 0);
            (25, 3): qmod_6_set(28, 0);
            (25, 4): qmod_6_set(29, 0);
            (25, 5): qmod_6_set(30, 0);
            (25, 6): qmod_6_set(31, 0);
            (25, 7): qmod_6_set(0, 0);
            (25, 8): qmod_6_set(1, 0);
            (25, 9): qmod_6_set(2, 0);
            (25, 10): qmod_6_set(3, 0);
            (25, 11): qmod_6_set(4, 0);
            (25, 12): qmod_6_set(5, 0);
            (25, 13): qmod_6_set(6, 0);
            (25, 14): qmod_6_set(7, 0);
            (25, 15): qmod_6_set(8, 0);
            (25, 16): qmod_6_set(9, 0);
            (25, 17): qmod_6_set(10, 0);
            (25, 18): qmod_6_set(11, 0);
            (25, 19): qmod_6_set(12, 0);
            (25, 20): qmod_6_set(13, 0);
            (25, 21): qmod_6_set(14, 0);
            (25, 22): qmod_6_set(15, 0);
            (25, 23): qmod_6_set(16, 0);
            (25, 24): qmod_6_set(17, 0);
            (25, 25): qmod_6_set(18, 0);
            (25, 26): qmod_6_set(19, 0);
            (25, 27): qmod_6_set(20, 0);
            (25, 28): qmod_6_set(21, 0);
            (25, 29): qmod_6_set(22, 0);
            (25, 30): qmod_6_set(23, 0);
            (25, 31): qmod_6_set(24, 0);
            (26, 0): qmod_6_set(26, 1);
            (26, 1): qmod_6_set(27, 0);
            (26, 2): qmod_6_set(28, 0);
            (26, 3): qmod_6_set(29, 0);
            (26, 4): qmod_6_set(30, 0);
            (26, 5): qmod_6_set(31, 0);
            (26, 6): qmod_6_set(0, 0);
            (26, 7): qmod_6_set(1, 0);
            (26, 8): qmod_6_set(2, 0);
            (26, 9): qmod_6_set(3, 0);
            (26, 10): qmod_6_set(4, 0);
            (26, 11): qmod_6_set(5, 0);
            (26, 12): qmod_6_set(6, 0);
            (26, 13): qmod_6_set(7, 0);
            (26, 14): qmod_6_set(8, 0);
            (26, 15): qmod_6_set(9, 0);
            (26, 16): qmod_6_set(10, 0);
            (26, 17): qmod_6_set(11, 0);
            (26, 18): qmod_6_set(12, 0);
            (26, 19): qmod_6_set(13, 0);
            (26, 20): qmod_6_set(14, 0);
            (26, 21): qmod_6_set(15, 0);
            (26, 22): qmod_6_set(16, 0);
            (26, 23): qmod_6_set(17, 0);
            (26, 24): qmod_6_set(18, 0);
            (26, 25): qmod_6_set(19, 0);
            (26, 26): qmod_6_set(20, 0);
            (26, 27): qmod_6_set(21, 0);
            (26, 28): qmod_6_set(22, 0);
            (26, 29): qmod_6_set(23, 0);
            (26, 30): qmod_6_set(24, 0);
            (26, 31): qmod_6_set(25, 0);
            (27, 0): qmod_6_set(27, 1);
            (27, 1): qmod_6_set(28, 0);
            (27, 2): qmod_6_set(29, 0);
            (27, 3): qmod_6_set(30, 0);
            (27, 4): qmod_6_set(31, 0);
            (27, 5): qmod_6_set(0, 0);
            (27, 6): qmod_6_set(1, 0);
            (27, 7): qmod_6_set(2, 0);
            (27, 8): qmod_6_set(3, 0);
            (27, 9): qmod_6_set(4, 0);
            (27, 10): qmod_6_set(5, 0);
            (27, 11): qmod_6_set(6, 0);
            (27, 12): qmod_6_set(7, 0);
            (27, 13): qmod_6_set(8, 0);
            (27, 14): qmod_6_set(9, 0);
            (27, 15): qmod_6_set(10, 0);
            (27, 16): qmod_6_set(11, 0);
            (27, 17): qmod_6_set(12, 0);
            (27, 18): qmod_6_set(13, 0);
            (27, 19): qmod_6_set(14, 0);
            (27, 20): qmod_6_set(15, 0);
            (27, 21): qmod_6_set(16, 0);
            (27, 22): qmod_6_set(17, 0);
            (27, 23): qmod_6_set(18, 0);
            (27, 24): qmod_6_set(19, 0);
            (27, 25): qmod_6_set(20, 0);
            (27, 26): qmod_6_set(21, 0);
            (27, 27): qmod_6_set(22, 0);
            (27, 28): qmod_6_set(23, 0);
            (27, 29): qmod_6_set(24, 0);
            (27, 30): qmod_6_set(25, 0);
            (27, 31): qmod_6_set(26, 0);
            (28, 0): qmod_6_set(28, 1);
            (28, 1): qmod_6_set(29, 0);
            (28, 2): qmod_6_set(30, 0);
            (28, 3): qmod_6_set(31, 0);
            (28, 4): qmod_6_set(0, 0);
            (28, 5): qmod_6_set(1, 0);
            (28, 6): qmod_6_set(2, 0);
            (28, 7): qmod_6_set(3, 0);
            (28, 8): qmod_6_set(4, 0);
            (28, 9): qmod_6_set(5, 0);
            (28, 10): qmod_6_set(6, 0);
            (28, 11): qmod_6_set(7, 0);
            (28, 12): qmod_6_set(8, 0);
            (28, 13): qmod_6_set(9, 0);
            (28, 14): qmod_6_set(10, 0);
            (28, 15): qmod_6_set(11, 0);
            (28, 16): qmod_6_set(12, 0);
            (28, 17): qmod_6_set(13, 0);
            (28, 18): qmod_6_set(14, 0);
            (28, 19): qmod_6_set(15, 0);
            (28, 20): qmod_6_set(16, 0);
            (28, 21): qmod_6_set(17, 0);
            (28, 22): qmod_6_set(18, 0);
            (28, 23): qmod_6_set(19, 0);
            (28, 24): qmod_6_set(20, 0);
            (28, 25): qmod_6_set(21, 0);
            (28, 26): qmod_6_set(22, 0);
            (28, 27): qmod_6_set(23, 0);
            (28, 28): qmod_6_set(24, 0);
            (28, 29): qmod_6_set(25, 0);
            (28, 30): qmod_6_set(26, 0);
            (28, 31): qmod_6_set(27, 0);
            (29, 0): qmod_6_set(29, 1);
            (29, 1): qmod_6_set(30, 0);
            (29, 2): qmod_6_set(31, 0);
            (29, 3): qmod_6_set(0, 0);
            (29, 4): qmod_6_set(1, 0);
            (29, 5): qmod_6_set(2, 0);
            (29, 6): qmod_6_set(3, 0);
            (29, 7): qmod_6_set(4, 0);
            (29, 8): qmod_6_set(5, 0);
            (29, 9): qmod_6_set(6, 0);
            (29, 10): qmod_6_set(7, 0);
            (29, 11): qmod_6_set(8, 0);
            (29, 12): qmod_6_set(9, 0);
            (29, 13): qmod_6_set(10, 0);
            (29, 14): qmod_6_set(11, 0);
            (29, 15): qmod_6_set(12, 0);
            (29, 16): qmod_6_set(13, 0);
            (29, 17): qmod_6_set(14, 0);
            (29, 18): qmod_6_set(15, 0);
            (29, 19): qmod_6_set(16, 0);
            (29, 20): qmod_6_set(17, 0);
            (29, 21): qmod_6_set(18, 0);
            (29, 22): qmod_6_set(19, 0);
            (29, 23): qmod_6_set(20, 0);
            (29, 24): qmod_6_set(21, 0);
            (29, 25): qmod_6_set(22, 0);
            (29, 26): qmod_6_set(23, 0);
            (29, 27): qmod_6_set(24, 0);
            (29, 28): qmod_6_set(25, 0);
            (29, 29): qmod_6_set(26, 0);
            (29, 30): qmod_6_set(27, 0);
            (29, 31): qmod_6_set(28, 0);
            (30, 0): qmod_6_set(30, 1);
            (30, 1): qmod_6_set(31, 0);
            (30, 2): qmod_6_set(0, 0);
            (30, 3): qmod_6_set(1, 0);
            (30, 4): qmod_6_set(2, 0);
            (30, 5): qmod_6_set(3, 0);
            (30, 6): qmod_6_set(4, 0);
            (30, 7): qmod_6_set(5, 0);
            (30, 8): qmod_6_set(6, 0);
            (30, 9): qmod_6_set(7, 0);
            (30, 10): qmod_6_set(8, 0);
            (30, 11): qmod_6_set(9, 0);
            (30, 12): qmod_6_set(10, 0);
            (30, 13): qmod_6_set(11, 0);
            (30, 14): qmod_6_set(12, 0);
            (30, 15): qmod_6_set(13, 0);
            (30, 16): qmod_6_set(14, 0);
            (30, 17): qmod_6_set(15, 0);
            (30, 18): qmod_6_set(16, 0);
            (30, 19): qmod_6_set(17, 0);
            (30, 20): qmod_6_set(18, 0);
            (30, 21): qmod_6_set(19, 0);
            (30, 22): qmod_6_set(20, 0);
            (30, 23): qmod_6_set(21, 0);
            (30, 24): qmod_6_set(22, 0);
            (30, 25): qmod_6_set(23, 0);
            (30, 26): qmod_6_set(24, 0);
            (30, 27): qmod_6_set(25, 0);
            (30, 28): qmod_6_set(26, 0);
            (30, 29): qmod_6_set(27, 0);
            (30, 30): qmod_6_set(28, 0);
            (30, 31): qmod_6_set(29, 0);
            (31, 0): qmod_6_set(31, 1);
            (31, 1): qmod_6_set(0, 0);
            (31, 2): qmod_6_set(1, 0);
            (31, 3): qmod_6_set(2, 0);
            (31, 4): qmod_6_set(3, 0);
            (31, 5): qmod_6_set(4, 0);
            (31, 6): qmod_6_set(5, 0);
            (31, 7): qmod_6_set(6, 0);
            (31, 8): qmod_6_set(7, 0);
            (31, 9): qmod_6_set(8, 0);
            (31, 10): qmod_6_set(9, 0);
            (31, 11): qmod_6_set(10, 0);
            (31, 12): qmod_6_set(11, 0);
            (31, 13): qmod_6_set(12, 0);
            (31, 14): qmod_6_set(13, 0);
            (31, 15): qmod_6_set(14, 0);
            (31, 16): qmod_6_set(15, 0);
            (31, 17): qmod_6_set(16, 0);
            (31, 18): qmod_6_set(17, 0);
            (31, 19): qmod_6_set(18, 0);
            (31, 20): qmod_6_set(19, 0);
            (31, 21): qmod_6_set(20, 0);
            (31, 22): qmod_6_set(21, 0);
            (31, 23): qmod_6_set(22, 0);
            (31, 24): qmod_6_set(23, 0);
            (31, 25): qmod_6_set(24, 0);
            (31, 26): qmod_6_set(25, 0);
            (31, 27): qmod_6_set(26, 0);
            (31, 28): qmod_6_set(27, 0);
            (31, 29): qmod_6_set(28, 0);
            (31, 30): qmod_6_set(29, 0);
            (31, 31): qmod_6_set(30, 0);
        }
        size = 1024;
    }
    Hash<qidx_t>(HashAlgorithm_t.IDENTITY) qidx_6_hash;
    action slot_6_ok() { meta.alt_ok_6 = meta.alt_pre_6 & meta.alt_unfull_6; }
    /* copy 6's one access per packet, by what the packet is (q_op): a front-panel packet
     * tests slot 6's queue, a pause clears a drained queue, a port-down or queue-state
     * update sets it. One table per copy, so each stage's stateful ALUs take four copies. */
    action q_6_test() { meta.alt_unfull_6 = qstate_6_test.execute(meta.alt_i_6); }
    action q_6_set() { qstate_6_set.execute(meta.alt_i_6); }
    action q_6_clear() { qstate_6_clear.execute(meta.alt_i_6); }
    table qstate_6_op {
        key = { meta.q_op: exact; }
        actions = { q_6_test; q_6_set; q_6_clear; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            Q_TEST: q_6_test();
            Q_SET: q_6_set();
            Q_CLEAR: q_6_clear();
        }
        size = 3;
    }
    action slot_6_i() { meta.alt_i_6 = qidx_6_hash.get({meta.alt_up_6, meta.alt_q_6}); }
    /* slot 6's uplink masked down by the control plane (the config's `down`): the slot
     * counts as Full (as bmv2: a failed uplink is passed over). One ternary entry per uplink
     * tests its bit of the mask (no shift of the mask by a packet's field). */
    action slot_6_down() { meta.alt_dn_6 = 1; }
    table down_6 {
        key = {
            meta.alt_up_6: exact @name("uplink");
            meta.down_cfg: ternary @name("down");
        }
        actions = { slot_6_down; NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0x1 &&& 0x1): slot_6_down();
            (1, 0x2 &&& 0x2): slot_6_down();
            (2, 0x4 &&& 0x4): slot_6_down();
            (3, 0x8 &&& 0x8): slot_6_down();
            (4, 0x10 &&& 0x10): slot_6_down();
            (5, 0x20 &&& 0x20): slot_6_down();
            (6, 0x40 &&& 0x40): slot_6_down();
            (7, 0x80 &&& 0x80): slot_6_down();
            (8, 0x100 &&& 0x100): slot_6_down();
            (9, 0x200 &&& 0x200): slot_6_down();
            (10, 0x400 &&& 0x400): slot_6_down();
            (11, 0x800 &&& 0x800): slot_6_down();
            (12, 0x1000 &&& 0x1000): slot_6_down();
            (13, 0x2000 &&& 0x2000): slot_6_down();
            (14, 0x4000 &&& 0x4000): slot_6_down();
            (15, 0x8000 &&& 0x8000): slot_6_down();
            (16, 0x10000 &&& 0x10000): slot_6_down();
            (17, 0x20000 &&& 0x20000): slot_6_down();
            (18, 0x40000 &&& 0x40000): slot_6_down();
            (19, 0x80000 &&& 0x80000): slot_6_down();
            (20, 0x100000 &&& 0x100000): slot_6_down();
            (21, 0x200000 &&& 0x200000): slot_6_down();
            (22, 0x400000 &&& 0x400000): slot_6_down();
            (23, 0x800000 &&& 0x800000): slot_6_down();
            (24, 0x1000000 &&& 0x1000000): slot_6_down();
            (25, 0x2000000 &&& 0x2000000): slot_6_down();
            (26, 0x4000000 &&& 0x4000000): slot_6_down();
            (27, 0x8000000 &&& 0x8000000): slot_6_down();
            (28, 0x10000000 &&& 0x10000000): slot_6_down();
            (29, 0x20000000 &&& 0x20000000): slot_6_down();
            (30, 0x40000000 &&& 0x40000000): slot_6_down();
            (31, 0x80000000 &&& 0x80000000): slot_6_down();
        }
        size = 32;
    }
    Register<bit<8>, qidx_t>(8192, 0) qstate_7;
    /* the one-shot test: 1 if the queue is Unfull */
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_7) qstate_7_test = {
        void apply(inout bit<8> v, out bit<8> rv) {
            rv = 0;
            if (v == 0) { rv = 1; }
        }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_7) qstate_7_set = {
        void apply(inout bit<8> v) { v = 1; }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_7) qstate_7_clear = {
        void apply(inout bit<8> v) { v = 0; }
    };
    /* slot 7: queue = (active + wait) mod Q by one table keyed by both (no
     * adder and no modulo on the way to the register); index = uplink * 256 + queue by an
     * identity hash (no shifts) */
    action qmod_7_set(queue_t q, bit<1> act) {
        meta.alt_q_7 = q;
        meta.alt_act_7 = act;       // wait 0: the active queue
    }
    table qmod_7 {
        key = {
            meta.active_q_1: exact @name("active");
            meta.alt_wait_7: exact @name("wait");
        }
        actions = { qmod_7_set; }
        const entries = {
            (0, 0): qmod_7_set(0, 1);
            (0, 1): qmod_7_set(1, 0);
            (0, 2): qmod_7_set(2, 0);
            (0, 3): qmod_7_set(3, 0);
            (0, 4): qmod_7_set(4, 0);
            (0, 5): qmod_7_set(5, 0);
            (0, 6): qmod_7_set(6, 0);
            (0, 7): qmod_7_set(7, 0);
            (0, 8): qmod_7_set(8, 0);
            (0, 9): qmod_7_set(9, 0);
            (0, 10): qmod_7_set(10, 0);
            (0, 11): qmod_7_set(11, 0);
            (0, 12): qmod_7_set(12, 0);
            (0, 13): qmod_7_set(13, 0);
            (0, 14): qmod_7_set(14, 0);
            (0, 15): qmod_7_set(15, 0);
            (0, 16): qmod_7_set(16, 0);
            (0, 17): qmod_7_set(17, 0);
            (0, 18): qmod_7_set(18, 0);
            (0, 19): qmod_7_set(19, 0);
            (0, 20): qmod_7_set(20, 0);
            (0, 21): qmod_7_set(21, 0);
            (0, 22): qmod_7_set(22, 0);
            (0, 23): qmod_7_set(23, 0);
            (0, 24): qmod_7_set(24, 0);
            (0, 25): qmod_7_set(25, 0);
            (0, 26): qmod_7_set(26, 0);
            (0, 27): qmod_7_set(27, 0);
            (0, 28): qmod_7_set(28, 0);
            (0, 29): qmod_7_set(29, 0);
            (0, 30): qmod_7_set(30, 0);
            (0, 31): qmod_7_set(31, 0);
            (1, 0): qmod_7_set(1, 1);
            (1, 1): qmod_7_set(2, 0);
            (1, 2): qmod_7_set(3, 0);
            (1, 3): qmod_7_set(4, 0);
            (1, 4): qmod_7_set(5, 0);
            (1, 5): qmod_7_set(6, 0);
            (1, 6): qmod_7_set(7, 0);
            (1, 7): qmod_7_set(8, 0);
            (1, 8): qmod_7_set(9, 0);
            (1, 9): qmod_7_set(10, 0);
            (1, 10): qmod_7_set(11, 0);
            (1, 11): qmod_7_set(12, 0);
            (1, 12): qmod_7_set(13, 0);
            (1, 13): qmod_7_set(14, 0);
            (1, 14): qmod_7_set(15, 0);
            (1, 15): qmod_7_set(16, 0);
            (1, 16): qmod_7_set(17, 0);
            (1, 17): qmod_7_set(18, 0);
            (1, 18): qmod_7_set(19, 0);
            (1, 19): qmod_7_set(20, 0);
            (1, 20): qmod_7_set(21, 0);
            (1, 21): qmod_7_set(22, 0);
            (1, 22): qmod_7_set(23, 0);
            (1, 23): qmod_7_set(24, 0);
            (1, 24): qmod_7_set(25, 0);
            (1, 25): qmod_7_set(26, 0);
            (1, 26): qmod_7_set(27, 0);
            (1, 27): qmod_7_set(28, 0);
            (1, 28): qmod_7_set(29, 0);
            (1, 29): qmod_7_set(30, 0);
            (1, 30): qmod_7_set(31, 0);
            (1, 31): qmod_7_set(0, 0);
            (2, 0): qmod_7_set(2, 1);
            (2, 1): qmod_7_set(3, 0);
            (2, 2): qmod_7_set(4, 0);
            (2, 3): qmod_7_set(5, 0);
            (2, 4): qmod_7_set(6, 0);
            (2, 5): qmod_7_set(7, 0);
            (2, 6): qmod_7_set(8, 0);
            (2, 7): qmod_7_set(9, 0);
            (2, 8): qmod_7_set(10, 0);
            (2, 9): qmod_7_set(11, 0);
            (2, 10): qmod_7_set(12, 0);
            (2, 11): qmod_7_set(13, 0);
            (2, 12): qmod_7_set(14, 0);
            (2, 13): qmod_7_set(15, 0);
            (2, 14): qmod_7_set(16, 0);
            (2, 15): qmod_7_set(17, 0);
            (2, 16): qmod_7_set(18, 0);
            (2, 17): qmod_7_set(19, 0);
            (2, 18): qmod_7_set(20, 0);
            (2, 19): qmod_7_set(21, 0);
            (2, 20): qmod_7_set(22, 0);
            (2, 21): qmod_7_set(23, 0);
            (2, 22): qmod_7_set(24, 0);
            (2, 23): qmod_7_set(25, 0);
            (2, 24): qmod_7_set(26, 0);
            (2, 25): qmod_7_set(27, 0);
            (2, 26): qmod_7_set(28, 0);
            (2, 27): qmod_7_set(29, 0);
            (2, 28): qmod_7_set(30, 0);
            (2, 29): qmod_7_set(31, 0);
            (2, 30): qmod_7_set(0, 0);
            (2, 31): qmod_7_set(1, 0);
            (3, 0): qmod_7_set(3, 1);
            (3, 1): qmod_7_set(4, 0);
            (3, 2): qmod_7_set(5, 0);
            (3, 3): qmod_7_set(6, 0);
            (3, 4): qmod_7_set(7, 0);
            (3, 5): qmod_7_set(8, 0);
            (3, 6): qmod_7_set(9, 0);
            (3, 7): qmod_7_set(10, 0);
            (3, 8): qmod_7_set(11, 0);
            (3, 9): qmod_7_set(12, 0);
            (3, 10): qmod_7_set(13, 0);
            (3, 11): qmod_7_set(14, 0);
            (3, 12): qmod_7_set(15, 0);
            (3, 13): qmod_7_set(16, 0);
            (3, 14): qmod_7_set(17, 0);
            (3, 15): qmod_7_set(18, 0);
            (3, 16): qmod_7_set(19, 0);
            (3, 17): qmod_7_set(20, 0);
            (3, 18): qmod_7_set(21, 0);
            (3, 19): qmod_7_set(22, 0);
            (3, 20): qmod_7_set(23, 0);
            (3, 21): qmod_7_set(24, 0);
            (3, 22): qmod_7_set(25, 0);
            (3, 23): qmod_7_set(26, 0);
            (3, 24): qmod_7_set(27, 0);
            (3, 25): qmod_7_set(28, 0);
            (3, 26): qmod_7_set(29, 0);
            (3, 27): qmod_7_set(30, 0);
            (3, 28): qmod_7_set(31, 0);
            (3, 29): qmod_7_set(0, 0);
            (3, 30): qmod_7_set(1, 0);
            (3, 31): qmod_7_set(2, 0);
            (4, 0): qmod_7_set(4, 1);
            (4, 1): qmod_7_set(5, 0);
            (4, 2): qmod_7_set(6, 0);
            (4, 3): qmod_7_set(7, 0);
            (4, 4): qmod_7_set(8, 0);
            (4, 5): qmod_7_set(9, 0);
            (4, 6): qmod_7_set(10, 0);
            (4, 7): qmod_7_set(11, 0);
            (4, 8): qmod_7_set(12, 0);
            (4, 9): qmod_7_set(13, 0);
            (4, 10): qmod_7_set(14, 0);
            (4, 11): qmod_7_set(15, 0);
            (4, 12): qmod_7_set(16, 0);
            (4, 13): qmod_7_set(17, 0);
            (4, 14): qmod_7_set(18, 0);
            (4, 15): qmod_7_set(19, 0);
            (4, 16): qmod_7_set(20, 0);
            (4, 17): qmod_7_set(21, 0);
            (4, 18): qmod_7_set(22, 0);
            (4, 19): qmod_7_set(23, 0);
            (4, 20): qmod_7_set(24, 0);
            (4, 21): qmod_7_set(25, 0);
            (4, 22): qmod_7_set(26, 0);
            (4, 23): qmod_7_set(27, 0);
            (4, 24): qmod_7_set(28, 0);
            (4, 25): qmod_7_set(29, 0);
            (4, 26): qmod_7_set(30, 0);
            (4, 27): qmod_7_set(31, 0);
            (4, 28): qmod_7_set(0, 0);
            (4, 29): qmod_7_set(1, 0);
            (4, 30): qmod_7_set(2, 0);
            (4, 31): qmod_7_set(3, 0);
            (5, 0): qmod_7_set(5, 1);
            (5, 1): qmod_7_set(6, 0);
            (5, 2): qmod_7_set(7, 0);
            (5, 3): qmod_7_set(8, 0);
            (5, 4): qmod_7_set(9, 0);
            (5, 5): qmod_7_set(10, 0);
            (5, 6): qmod_7_set(11, 0);
            (5, 7): qmod_7_set(12, 0);
            (5, 8): qmod_7_set(13, 0);
            (5, 9): qmod_7_set(14, 0);
            (5, 10): qmod_7_set(15, 0);
            (5, 11): qmod_7_set(16, 0);
            (5, 12): qmod_7_set(17, 0);
            (5, 13): qmod_7_set(18, 0);
            (5, 14): qmod_7_set(19, 0);
            (5, 15): qmod_7_set(20, 0);
            (5, 16): qmod_7_set(21, 0);
            (5, 17): qmod_7_set(22, 0);
            (5, 18): qmod_7_set(23, 0);
            (5, 19): qmod_7_set(24, 0);
            (5, 20): qmod_7_set(25, 0);
            (5, 21): qmod_7_set(26, 0);
            (5, 22): qmod_7_set(27, 0);
            (5, 23): qmod_7_set(28, 0);
            (5, 24): qmod_7_set(29, 0);
            (5, 25): qmod_7_set(30, 0);
            (5, 26): qmod_7_set(31, 0);
            (5, 27): qmod_7_set(0, 0);
            (5, 28): qmod_7_set(1, 0);
            (5, 29): qmod_7_set(2, 0);
            (5, 30): qmod_7_set(3, 0);
            (5, 31): qmod_7_set(4, 0);
            (6, 0): qmod_7_set(6, 1);
            (6, 1): qmod_7_set(7, 0);
            (6, 2): qmod_7_set(8, 0);
            (6, 3): qmod_7_set(9, 0);
            (6, 4): qmod_7_set(10, 0);
            (6, 5): qmod_7_set(11, 0);
            (6, 6): qmod_7_set(12, 0);
            (6, 7): qmod_7_set(13, 0);
            (6, 8): qmod_7_set(14, 0);
            (6, 9): qmod_7_set(15, 0);
            (6, 10): qmod_7_set(16, 0);
            (6, 11): qmod_7_set(17, 0);
            (6, 12): qmod_7_set(18, 0);
            (6, 13): qmod_7_set(19, 0);
            (6, 14): qmod_7_set(20, 0);
            (6, 15): qmod_7_set(21, 0);
            (6, 16): qmod_7_set(22, 0);
            (6, 17): qmod_7_set(23, 0);
            (6, 18): qmod_7_set(24, 0);
            (6, 19): qmod_7_set(25, 0);
            (6, 20): qmod_7_set(26, 0);
            (6, 21): qmod_7_set(27, 0);
            (6, 22): qmod_7_set(28, 0);
            (6, 23): qmod_7_set(29, 0);
            (6, 24): qmod_7_set(30, 0);
            (6, 25): qmod_7_set(31, 0);
            (6, 26): qmod_7_set(0, 0);
            (6, 27): qmod_7_set(1, 0);
            (6, 28): qmod_7_set(2, 0);
            (6, 29): qmod_7_set(3, 0);
            (6, 30): qmod_7_set(4, 0);
            (6, 31): qmod_7_set(5, 0);
            (7, 0): qmod_7_set(7, 1);
            (7, 1): qmod_7_set(8, 0);
            (7, 2): qmod_7_set(9, 0);
            (7, 3): qmod_7_set(10, 0);
            (7, 4): qmod_7_set(11, 0);
            (7, 5): qmod_7_set(12, 0);
            (7, 6): qmod_7_set(13, 0);
            (7, 7): qmod_7_set(14, 0);
            (7, 8): qmod_7_set(15, 0);
            (7, 9): qmod_7_set(16, 0);
            (7, 10): qmod_7_set(17, 0);
            (7, 11): qmod_7_set(18, 0);
            (7, 12): qmod_7_set(19, 0);
            (7, 13): qmod_7_set(20, 0);
            (7, 14): qmod_7_set(21, 0);
            (7, 15): qmod_7_set(22, 0);
            (7, 16): qmod_7_set(23, 0);
            (7, 17): qmod_7_set(24, 0);
            (7, 18): qmod_7_set(25, 0);
            (7, 19): qmod_7_set(26, 0);
            (7, 20): qmod_7_set(27, 0);
            (7, 21): qmod_7_set(28, 0);
            (7, 22): qmod_7_set(29, 0);
            (7, 23): qmod_7_set(30, 0);
            (7, 24): qmod_7_set(31, 0);
            (7, 25): qmod_7_set(0, 0);
            (7, 26): qmod_7_set(1, 0);
            (7, 27): qmod_7_set(2, 0);
            (7, 28): qmod_7_set(3, 0);
            (7, 29): qmod_7_set(4, 0);
            (7, 30): qmod_7_set(5, 0);
            (7, 31): qmod_7_set(6, 0);
            (8, 0): qmod_7_set(8, 1);
            (8, 1): qmod_7_set(9, 0);
            (8, 2): qmod_7_set(10, 0);
            (8, 3): qmod_7_set(11, 0);
            (8, 4): qmod_7_set(12, 0);
            (8, 5): qmod_7_set(13, 0);
            (8, 6): qmod_7_set(14, 0);
            (8, 7): qmod_7_set(15, 0);
            (8, 8): qmod_7_set(16, 0);
            (8, 9): qmod_7_set(17, 0);
            (8, 10): qmod_7_set(18, 0);
            (8, 11): qmod_7_set(19, 0);
            (8, 12): qmod_7_set(20, 0);
            (8, 13): qmod_7_set(21, 0);
            (8, 14): qmod_7_set(22, 0);
            (8, 15): qmod_7_set(23, 0);
            (8, 16): qmod_7_set(24, 0);
            (8, 17): qmod_7_set(25, 0);
            (8, 18): qmod_7_set(26, 0);
            (8, 19): qmod_7_set(27, 0);
            (8, 20): qmod_7_set(28, 0);
            (8, 21): qmod_7_set(29, 0);
            (8, 22): qmod_7_set(30, 0);
            (8, 23): qmod_7_set(31, 0);
            (8, 24): qmod_7_set(0, 0);
            (8, 25): qmod_7_set(1, 0);
            (8, 26): qmod_7_set(2, 0);
            (8, 27): qmod_7_set(3, 0);
            (8, 28): qmod_7_set(4, 0);
            (8, 29): qmod_7_set(5, 0);
            (8, 30): qmod_7_set(6, 0);
            (8, 31): qmod_7_set(7, 0);
            (9, 0): qmod_7_set(9, 1);
            (9, 1): qmod_7_set(10, 0);
            (9, 2): qmod_7_set(11, 0);
            (9, 3): qmod_7_set(12, 0);
            (9, 4): qmod_7_set(13, 0);
            (9, 5): qmod_7_set(14, 0);
            (9, 6): qmod_7_set(15, 0);
            (9, 7): qmod_7_set(16, 0);
            (9, 8): qmod_7_set(17, 0);
            (9, 9): qmod_7_set(18, 0);
            (9, 10): qmod_7_set(19, 0);
            (9, 11): qmod_7_set(20, 0);
            (9, 12): qmod_7_set(21, 0);
            (9, 13): qmod_7_set(22, 0);
            (9, 14): qmod_7_set(23, 0);
            (9, 15): qmod_7_set(24, 0);
            (9, 16): qmod_7_set(25, 0);
            (9, 17): qmod_7_set(26, 0);
            (9, 18): qmod_7_set(27, 0);
            (9, 19): qmod_7_set(28, 0);
            (9, 20): qmod_7_set(29, 0);
            (9, 21): qmod_7_set(30, 0);
            (9, 22): qmod_7_set(31, 0);
            (9, 23): qmod_7_set(0, 0);
            (9, 24): qmod_7_set(1, 0);
            (9, 25): qmod_7_set(2, 0);
            (9, 26): qmod_7_set(3, 0);
            (9, 27): qmod_7_set(4, 0);
            (9, 28): qmod_7_set(5, 0);
            (9, 29): qmod_7_set(6, 0);
            (9, 30): qmod_7_set(7, 0);
            (9, 31): qmod_7_set(8, 0);
            (10, 0): qmod_7_set(10, 1);
            (10, 1): qmod_7_set(11, 0);
            (10, 2): qmod_7_set(12, 0);
            (10, 3): qmod_7_set(13, 0);
            (10, 4): qmod_7_set(14, 0);
            (10, 5): qmod_7_set(15, 0);
            (10, 6): qmod_7_set(16, 0);
            (10, 7): qmod_7_set(17, 0);
            (10, 8): qmod_7_set(18, 0);
            (10, 9): qmod_7_set(19, 0);
            (10, 10): qmod_7_set(20, 0);
            (10, 11): qmod_7_set(21, 0);
            (10, 12): qmod_7_set(22, 0);
            (10, 13): qmod_7_set(23, 0);
            (10, 14): qmod_7_set(24, 0);
            (10, 15): qmod_7_set(25, 0);
            (10, 16): qmod_7_set(26, 0);
            (10, 17): qmod_7_set(27, 0);
            (10, 18): qmod_7_set(28, 0);
            (10, 19): qmod_7_set(29, 0);
            (10, 20): qmod_7_set(30, 0);
            (10, 21): qmod_7_set(31, 0);
            (10, 22): qmod_7_set(0, 0);
            (10, 23): qmod_7_set(1, 0);
            (10, 24): qmod_7_set(2, 0);
            (10, 25): qmod_7_set(3, 0);
            (10, 26): qmod_7_set(4, 0);
            (10, 27): qmod_7_set(5, 0);
            (10, 28): qmod_7_set(6, 0);
            (10, 29): qmod_7_set(7, 0);
            (10, 30): qmod_7_set(8, 0);
            (10, 31): qmod_7_set(9, 0);
            (11, 0): qmod_7_set(11, 1);
            (11, 1): qmod_7_set(12, 0);
            (11, 2): qmod_7_set(13, 0);
            (11, 3): qmod_7_set(14, 0);
            (11, 4): qmod_7_set(15, 0);
            (11, 5): qmod_7_set(16, 0);
            (11, 6): qmod_7_set(17, 0);
            (11, 7): qmod_7_set(18, 0);
            (11, 8): qmod_7_set(19, 0);
            (11, 9): qmod_7_set(20, 0);
            (11, 10): qmod_7_set(21, 0);
            (11, 11): qmod_7_set(22, 0);
            (11, 12): qmod_7_set(23, 0);
            (11, 13): qmod_7_set(24, 0);
            (11, 14): qmod_7_set(25, 0);
            (11, 15): qmod_7_set(26, 0);
            (11, 16): qmod_7_set(27, 0);
            (11, 17): qmod_7_set(28, 0);
            (11, 18): qmod_7_set(29, 0);
            (11, 19): qmod_7_set(30, 0);
            (11, 20): qmod_7_set(31, 0);
            (11, 21): qmod_7_set(0, 0);
            (11, 22): qmod_7_set(1, 0);
            (11, 23): qmod_7_set(2, 0);
            (11, 24): qmod_7_set(3, 0);
            (11, 25): qmod_7_set(4, 0);
            (11, 26): qmod_7_set(5, 0);
            (11, 27): qmod_7_set(6, 0);
            (11, 28): qmod_7_set(7, 0);
            (11, 29): qmod_7_set(8, 0);
            (11, 30): qmod_7_set(9, 0);
            (11, 31): qmod_7_set(10, 0);
            (12, 0): qmod_7_set(12, 1);
            (12, 1): qmod_7_set(13, 0);
            (12, 2): qmod_7_set(14, 0);
            (12, 3): qmod_7_set(15, 0);
            (12, 4): qmod_7_set(16, 0);
            (12, 5): qmod_7_set(17, 0);
            (12, 6): qmod_7_set(18, 0);
            (12, 7): qmod_7_set(19, 0);
            (12, 8): qmod_7_set(20, 0);
            (12, 9): qmod_7_set(21, 0);
            (12, 10): qmod_7_set(22, 0);
            (12, 11): qmod_7_set(23, 0);
            (12, 12): qmod_7_set(24, 0);
            (12, 13): qmod_7_set(25, 0);
            (12, 14): qmod_7_set(26, 0);
            (12, 15): qmod_7_set(27, 0);
            (12, 16): qmod_7_set(28, 0);
            (12, 17): qmod_7_set(29, 0);
            (12, 18): qmod_7_set(30, 0);
            (12, 19): qmod_7_set(31, 0);
            (12, 20): qmod_7_set(0, 0);
            (12, 21): qmod_7_set(1, 0);
            (12, 22): qmod_7_set(2, 0);
            (12, 23): qmod_7_set(3, 0);
            (12, 24): qmod_7_set(4, 0);
            (12, 25): qmod_7_set(5, 0);
            (12, 26): qmod_7_set(6, 0);
            (12, 27): qmod_7_set(7, 0);
            (12, 28): qmod_7_set(8, 0);
            (12, 29): qmod_7_set(9, 0);
            (12, 30): qmod_7_set(10, 0);
            (12, 31): qmod_7_set(11, 0);
            (13, 0): qmod_7_set(13, 1);
            (13, 1): qmod_7_set(14, 0);
            (13, 2): qmod_7_set(15, 0);
            (13, 3): qmod_7_set(16, 0);
            (13, 4): qmod_7_set(17, 0);
            (13, 5): qmod_7_set(18, 0);
            (13, 6): qmod_7_set(19, 0);
            (13, 7): qmod_7_set(20, 0);
            (13, 8): qmod_7_set(21, 0);
            (13, 9): qmod_7_set(22, 0);
            (13, 10): qmod_7_set(23, 0);
            (13, 11): qmod_7_set(24, 0);
            (13, 12): qmod_7_set(25, 0);
            (13, 13): qmod_7_set(26, 0);
            (13, 14): qmod_7_set(27, 0);
            (13, 15): qmod_7_set(28, 0);
            (13, 16): qmod_7_set(29, 0);
            (13, 17): qmod_7_set(30, 0);
            (13, 18): qmod_7_set(31, 0);
            (13, 19): qmod_7_set(0, 0);
            (13, 20): qmod_7_set(1, 0);
            (13, 21): qmod_7_set(2, 0);
            (13, 22): qmod_7_set(3, 0);
            (13, 23): qmod_7_set(4, 0);
            (13, 24): qmod_7_set(5, 0);
            (13, 25): qmod_7_set(6, 0);
            (13, 26): qmod_7_set(7, 0);
            (13, 27): qmod_7_set(8, 0);
            (13, 28): qmod_7_set(9, 0);
            (13, 29): qmod_7_set(10, 0);
            (13, 30): qmod_7_set(11, 0);
            (13, 31): qmod_7_set(12, 0);
            (14, 0): qmod_7_set(14, 1);
            (14, 1): qmod_7_set(15, 0);
            (14, 2): qmod_7_set(16, 0);
            (14, 3): qmod_7_set(17, 0);
            (14, 4): qmod_7_set(18, 0);
            (14, 5): qmod_7_set(19, 0);
            (14, 6): qmod_7_set(20, 0);
            (14, 7): qmod_7_set(21, 0);
            (14, 8): qmod_7_set(22, 0);
            (14, 9): qmod_7_set(23, 0);
            (14, 10): qmod_7_set(24, 0);
            (14, 11): qmod_7_set(25, 0);
            (14, 12): qmod_7_set(26, 0);
            (14, 13): qmod_7_set(27, 0);
            (14, 14): qmod_7_set(28, 0);
            (14, 15): qmod_7_set(29, 0);
            (14, 16): qmod_7_set(30, 0);
            (14, 17): qmod_7_set(31, 0);
            (14, 18): qmod_7_set(0, 0);
            (14, 19): qmod_7_set(1, 0);
            (14, 20): qmod_7_set(2, 0);
            (14, 21): qmod_7_set(3, 0);
            (14, 22): qmod_7_set(4, 0);
            (14, 23): qmod_7_set(5, 0);
            (14, 24): qmod_7_set(6, 0);
            (14, 25): qmod_7_set(7, 0);
            (14, 26): qmod_7_set(8, 0);
            (14, 27): qmod_7_set(9, 0);
            (14, 28): qmod_7_set(10, 0);
            (14, 29): qmod_7_set(11, 0);
            (14, 30): qmod_7_set(12, 0);
            (14, 31): qmod_7_set(13, 0);
            (15, 0): qmod_7_set(15, 1);
            (15, 1): qmod_7_set(16, 0);
            (15, 2): qmod_7_set(17, 0);
            (15, 3): qmod_7_set(18, 0);
            (15, 4): qmod_7_set(19, 0);
            (15, 5): qmod_7_set(20, 0);
            (15, 6): qmod_7_set(21, 0);
            (15, 7): qmod_7_set(22, 0);
            (15, 8): qmod_7_set(23, 0);
            (15, 9): qmod_7_set(24, 0);
            (15, 10): qmod_7_set(25, 0);
            (15, 11): qmod_7_set(26, 0);
            (15, 12): qmod_7_set(27, 0);
            (15, 13): qmod_7_set(28, 0);
            (15, 14): qmod_7_set(29, 0);
            (15, 15): qmod_7_set(30, 0);
            (15, 16): qmod_7_set(31, 0);
            (15, 17): qmod_7_set(0, 0);
            (15, 18): qmod_7_set(1, 0);
            (15, 19): qmod_7_set(2, 0);
            (15, 20): qmod_7_set(3, 0);
            (15, 21): qmod_7_set(4, 0);
            (15, 22): qmod_7_set(5, 0);
            (15, 23): qmod_7_set(6, 0);
            (15, 24): qmod_7_set(7, 0);
            (15, 25): qmod_7_set(8, 0);
            (15, 26): qmod_7_set(9, 0);
            (15, 27): qmod_7_set(10, 0);
            (15, 28): qmod_7_set(11, 0);
            (15, 29): qmod_7_set(12, 0);
            (15, 30): qmod_7_set(13, 0);
            (15, 31): qmod_7_set(14, 0);
            (16, 0): qmod_7_set(16, 1);
            (16, 1): qmod_7_set(17, 0);
            (16, 2): qmod_7_set(18, 0);
            (16, 3): qmod_7_set(19, 0);
            (16, 4): qmod_7_set(20, 0);
            (16, 5): qmod_7_set(21, 0);
            (16, 6): qmod_7_set(22, 0);
            (16, 7): qmod_7_set(23, 0);
            (16, 8): qmod_7_set(24, 0);
            (16, 9): qmod_7_set(25, 0);
            (16, 10): qmod_7_set(26, 0);
            (16, 11): qmod_7_set(27, 0);
            (16, 12): qmod_7_set(28, 0);
            (16, 13): qmod_7_set(29, 0);
            (16, 14): qmod_7_set(30, 0);
            (16, 15): qmod_7_set(31, 0);
            (16, 16): qmod_7_set(0, 0);
            (16, 17): qmod_7_set(1, 0);
            (16, 18): qmod_7_set(2, 0);
            (16, 19): qmod_7_set(3, 0);
            (16, 20): qmod_7_set(4, 0);
            (16, 21): qmod_7_set(5, 0);
            (16, 22): qmod_7_set(6, 0);
            (16, 23): qmod_7_set(7, 0);
            (16, 24): qmod_7_set(8, 0);
            (16, 25): qmod_7_set(9, 0);
            (16, 26): qmod_7_set(10, 0);
            (16, 27): qmod_7_set(11, 0);
            (16, 28): qmod_7_set(12, 0);
            (16, 29): qmod_7_set(13, 0);
            (16, 30): qmod_7_set(14, 0);
            (16, 31): qmod_7_set(15, 0);
            (17, 0): qmod_7_set(17, 1);
            (17, 1): qmod_7_set(18, 0);
            (17, 2): qmod_7_set(19, 0);
            (17, 3): qmod_7_set(20, 0);
            (17, 4): qmod_7_set(21, 0);
            (17, 5): qmod_7_set(22, 0);
            (17, 6): qmod_7_set(23, 0);
            (17, 7): qmod_7_set(24, 0);
            (17, 8): qmod_7_set(25, 0);
            (17, 9): qmod_7_set(26, 0);
            (17, 10): qmod_7_set(27, 0);
            (17, 11): qmod_7_set(28, 0);
            (17, 12): qmod_7_set(29, 0);
            (17, 13): qmod_7_set(30, 0);
            (17, 14): qmod_7_set(31, 0);
            (17, 15): qmod_7_set(0, 0);
            (17, 16): qmod_7_set(1, 0);
            (17, 17): qmod_7_set(2, 0);
            (17, 18): qmod_7_set(3, 0);
            (17, 19): qmod_7_set(4, 0);
            (17, 20): qmod_7_set(5, 0);
            (17, 21): qmod_7_set(6, 0);
            (17, 22): qmod_7_set(7, 0);
            (17, 23): qmod_7_set(8, 0);
            (17, 24): qmod_7_set(9, 0);
            (17, 25): qmod_7_set(10, 0);
            (17, 26): qmod_7_set(11, 0);
            (17, 27): qmod_7_set(12, 0);
            (17, 28): qmod_7_set(13, 0);
            (17, 29): qmod_7_set(14, 0);
            (17, 30): qmod_7_set(15, 0);
            (17, 31): qmod_7_set(16, 0);
            (18, 0): qmod_7_set(18, 1);
            (18, 1): qmod_7_set(19, 0);
            (18, 2): qmod_7_set(20, 0);
            (18, 3): qmod_7_set(21, 0);
            (18, 4): qmod_7_set(22, 0);
            (18, 5): qmod_7_set(23, 0);
            (18, 6): qmod_7_set(24, 0);
            (18, 7): qmod_7_set(25, 0);
            (18, 8): qmod_7_set(26, 0);
            (18, 9): qmod_7_set(27, 0);
            (18, 10): qmod_7_set(28, 0);
            (18, 11): qmod_7_set(29, 0);
            (18, 12): qmod_7_set(30, 0);
            (18, 13): qmod_7_set(31, 0);
            (18, 14): qmod_7_set(0, 0);
            (18, 15): qmod_7_set(1, 0);
            (18, 16): qmod_7_set(2, 0);
            (18, 17): qmod_7_set(3, 0);
            (18, 18): qmod_7_set(4, 0);
            (18, 19): qmod_7_set(5, 0);
            (18, 20): qmod_7_set(6, 0);
            (18, 21): qmod_7_set(7, 0);
            (18, 22): qmod_7_set(8, 0);
            (18, 23): qmod_7_set(9, 0);
            (18, 24): qmod_7_set(10, 0);
            (18, 25): qmod_7_set(11, 0);
            (18, 26): qmod_7_set(12, 0);
            (18, 27): qmod_7_set(13, 0);
            (18, 28): qmod_7_set(14, 0);
            (18, 29): qmod_7_set(15, 0);
            (18, 30): qmod_7_set(16, 0);
            (18, 31): qmod_7_set(17, 0);
            (19, 0): qmod_7_set(19, 1);
            (19, 1): qmod_7_set(20, 0);
            (19, 2): qmod_7_set(21, 0);
            (19, 3): qmod_7_set(22, 0);
            (19, 4): qmod_7_set(23, 0);
            (19, 5): qmod_7_set(24, 0);
            (19, 6): qmod_7_set(25, 0);
            (19, 7): qmod_7_set(26, 0);
            (19, 8): qmod_7_set(27, 0);
            (19, 9): qmod_7_set(28, 0);
            (19, 10): qmod_7_set(29, 0);
            (19, 11): qmod_7_set(30, 0);
            (19, 12): qmod_7_set(31, 0);
            (19, 13): qmod_7_set(0, 0);
            (19, 14): qmod_7_set(1, 0);
            (19, 15): qmod_7_set(2, 0);
            (19, 16): qmod_7_set(3, 0);
            (19, 17): qmod_7_set(4, 0);
            (19, 18): qmod_7_set(5, 0);
            (19, 19): qmod_7_set(6, 0);
            (19, 20): qmod_7_set(7, 0);
            (19, 21): qmod_7_set(8, 0);
            (19, 22): qmod_7_set(9, 0);
            (19, 23): qmod_7_set(10, 0);
            (19, 24): qmod_7_set(11, 0);
            (19, 25): qmod_7_set(12, 0);
            (19, 26): qmod_7_set(13, 0);
            (19, 27): qmod_7_set(14, 0);
            (19, 28): qmod_7_set(15, 0);
            (19, 29): qmod_7_set(16, 0);
            (19, 30): qmod_7_set(17, 0);
            (19, 31): qmod_7_set(18, 0);
            (20, 0): qmod_7_set(20, 1);
            (20, 1): qmod_7_set(21, 0);
            (20, 2): qmod_7_set(22, 0);
            (20, 3): qmod_7_set(23, 0);
            (20, 4): qmod_7_set(24, 0);
            (20, 5): qmod_7_set(25, 0);
            (20, 6): qmod_7_set(26, 0);
            (20, 7): qmod_7_set(27, 0);
            (20, 8): qmod_7_set(28, 0);
            (20, 9): qmod_7_set(29, 0);
            (20, 10): qmod_7_set(30, 0);
            (20, 11): qmod_7_set(31, 0);
            (20, 12): qmod_7_set(0, 0);
            (20, 13): qmod_7_set(1, 0);
            (20, 14): qmod_7_set(2, 0);
            (20, 15): qmod_7_set(3, 0);
            (20, 16): qmod_7_set(4, 0);
            (20, 17): qmod_7_set(5, 0);
            (20, 18): qmod_7_set(6, 0);
            (20, 19): qmod_7_set(7, 0);
            (20, 20): qmod_7_set(8, 0);
            (20, 21): qmod_7_set(9, 0);
            (20, 22): qmod_7_set(10, 0);
            (20, 23): qmod_7_set(11, 0);
            (20, 24): qmod_7_set(12, 0);
            (20, 25): qmod_7_set(13, 0);
            (20, 26): qmod_7_set(14, 0);
            (20, 27): qmod_7_set(15, 0);
            (20, 28): qmod_7_set(16, 0);
            (20, 29): qmod_7_set(17, 0);
            (20, 30): qmod_7_set(18, 0);
            (20, 31): qmod_7_set(19, 0);
            (21, 0): qmod_7_set(21, 1);
            (21, 1): qmod_7_set(22, 0);
            (21, 2): qmod_7_set(23, 0);
            (21, 3): qmod_7_set(24, 0);
            (21, 4): qmod_7_set(25, 0);
            (21, 5): qmod_7_set(26, 0);
            (21, 6): qmod_7_set(27, 0);
            (21, 7): qmod_7_set(28, 0);
            (21, 8): qmod_7_set(29, 0);
            (21, 9): qmod_7_set(30, 0);
            (21, 10): qmod_7_set(31, 0);
            (21, 11): qmod_7_set(0, 0);
            (21, 12): qmod_7_set(1, 0);
            (21, 13): qmod_7_set(2, 0);
            (21, 14): qmod_7_set(3, 0);
            (21, 15): qmod_7_set(4, 0);
            (21, 16): qmod_7_set(5, 0);
            (21, 17): qmod_7_set(6, 0);
            (21, 18): qmod_7_set(7, 0);
            (21, 19): qmod_7_set(8, 0);
            (21, 20): qmod_7_set(9, 0);
            (21, 21): qmod_7_set(10, 0);
            (21, 22): qmod_7_set(11, 0);
            (21, 23): qmod_7_set(12, 0);
            (21, 24): qmod_7_set(13, 0);
            (21, 25): qmod_7_set(14, 0);
            (21, 26): qmod_7_set(15, 0);
            (21, 27): qmod_7_set(16, 0);
            (21, 28): qmod_7_set(17, 0);
            (21, 29): qmod_7_set(18, 0);
            (21, 30): qmod_7_set(19, 0);
            (21, 31): qmod_7_set(20, 0);
            (22, 0): qmod_7_set(22, 1);
            (22, 1): qmod_7_set(23, 0);
            (22, 2): qmod_7_set(24, 0);
            (22, 3): qmod_7_set(25, 0);
            (22, 4): qmod_7_set(26, 0);
            (22, 5): qmod_7_set(27, 0);
            (22, 6): qmod_7_set(28, 0);
            (22, 7): qmod_7_set(29, 0);
            (22, 8): qmod_7_set(30, 0);
            (22, 9): qmod_7_set(31, 0);
            (22, 10): qmod_7_set(0, 0);
            (22, 11): qmod_7_set(1, 0);
            (22, 12): qmod_7_set(2, 0);
            (22, 13): qmod_7_set(3, 0);
            (22, 14): qmod_7_set(4, 0);
            (22, 15): qmod_7_set(5, 0);
            (22, 16): qmod_7_set(6, 0);
            (22, 17): qmod_7_set(7, 0);
            (22, 18): qmod_7_set(8, 0);
            (22, 19): qmod_7_set(9, 0);
            (22, 20): qmod_7_set(10, 0);
            (22, 21): qmod_7_set(11, 0);
            (22, 22): qmod_7_set(12, 0);
            (22, 23): qmod_7_set(13, 0);
            (22, 24): qmod_7_set(14, 0);
            (22, 25): qmod_7_set(15, 0);
            (22, 26): qmod_7_set(16, 0);
            (22, 27): qmod_7_set(17, 0);
            (22, 28): qmod_7_set(18, 0);
            (22, 29): qmod_7_set(19, 0);
            (22, 30): qmod_7_set(20, 0);
            (22, 31): qmod_7_set(21, 0);
            (23, 0): qmod_7_set(23, 1);
            (23, 1): qmod_7_set(24, 0);
            (23, 2): qmod_7_set(25, 0);
            (23, 3): qmod_7_set(26, 0);
            (23, 4): qmod_7_set(27, 0);
            (23, 5): qmod_7_set(28, 0);
            (23, 6): qmod_7_set(29, 0);
            (23, 7): qmod_7_set(30, 0);
            (23, 8): qmod_7_set(31, 0);
            (23, 9): qmod_7_set(0, 0);
            (23, 10): qmod_7_set(1, 0);
            (23, 11): qmod_7_set(2, 0);
            (23, 12): qmod_7_set(3, 0);
            (23, 13): qmod_7_set(4, 0);
            (23, 14): qmod_7_set(5, 0);
            (23, 15): qmod_7_set(6, 0);
            (23, 16): qmod_7_set(7, 0);
            (23, 17): qmod_7_set(8, 0);
            (23, 18): qmod_7_set(9, 0);
            (23, 19): qmod_7_set(10, 0);
            (23, 20): qmod_7_set(11, 0);
            (23, 21): qmod_7_set(12, 0);
            (23, 22): qmod_7_set(13, 0);
            (23, 23): qmod_7_set(14, 0);
            (23, 24): qmod_7_set(15, 0);
            (23, 25): qmod_7_set(16, 0);
            (23, 26): qmod_7_set(17, 0);
            (23, 27): qmod_7_set(18, 0);
            (23, 28): qmod_7_set(19, 0);
            (23, 29): qmod_7_set(20, 0);
            (23, 30): qmod_7_set(21, 0);
            (23, 31): qmod_7_set(22, 0);
            (24, 0): qmod_7_set(24, 1);
            (24, 1): qmod_7_set(25, 0);
            (24, 2): qmod_7_set(26, 0);
            (24, 3): qmod_7_set(27, 0);
            (24, 4): qmod_7_set(28, 0);
            (24, 5): qmod_7_set(29, 0);
            (24, 6): qmod_7_set(30, 0);
            (24, 7): qmod_7_set(31, 0);
            (24, 8): qmod_7_set(0, 0);
            (24, 9): qmod_7_set(1, 0);
            (24, 10): qmod_7_set(2, 0);
            (24, 11): qmod_7_set(3, 0);
            (24, 12): qmod_7_set(4, 0);
            (24, 13): qmod_7_set(5, 0);
            (24, 14): qmod_7_set(6, 0);
            (24, 15): qmod_7_set(7, 0);
            (24, 16): qmod_7_set(8, 0);
            (24, 17): qmod_7_set(9, 0);
            (24, 18): qmod_7_set(10, 0);
            (24, 19): qmod_7_set(11, 0);
            (24, 20): qmod_7_set(12, 0);
            (24, 21): qmod_7_set(13, 0);
            (24, 22): qmod_7_set(14, 0);
            (24, 23): qmod_7_set(15, 0);
            (24, 24): qmod_7_set(16, 0);
            (24, 25): qmod_7_set(17, 0);
            (24, 26): qmod_7_set(18, 0);
            (24, 27): qmod_7_set(19, 0);
            (24, 28): qmod_7_set(20, 0);
            (24, 29): qmod_7_set(21, 0);
            (24, 30): qmod_7_set(22, 0);
            (24, 31): qmod_7_set(23, 0);
            (25, 0): qmod_7_set(25, 1);
            (25, 1): qmod_7_set(26, 0);
            (25, 2): qmod_7_set(27, 0);
            (25, 3): qmod_7_set(28, 0);
            (25, 4): qmod_7_set(29, 0);
            (25, 5): qmod_7_set(30, 0);
            (25, 6): qmod_7_set(31, 0);
            (25, 7): qmod_7_set(0, 0);
            (25, 8): qmod_7_set(1, 0);
            (25, 9): qmod_7_set(2, 0);
            (25, 10): qmod_7_set(3, 0);
            (25, 11): qmod_7_set(4, 0);
            (25, 12): qmod_7_set(5, 0);
            (25, 13): qmod_7_set(6, 0);
            (25, 14): qmod_7_set(7, 0);
            (25, 15): qmod_7_set(8, 0);
            (25, 16): qmod_7_set(9, 0);
            (25, 17): qmod_7_set(10, 0);
            (25, 18): qmod_7_set(11, 0);
            (25, 19): qmod_7_set(12, 0);
            (25, 20): qmod_7_set(13, 0);
            (25, 21): qmod_7_set(14, 0);
            (25, 22): qmod_7_set(15, 0);
            (25, 23): qmod_7_set(16, 0);
            (25, 24): qmod_7_set(17, 0);
            (25, 25): qmod_7_set(18, 0);
            (25, 26): qmod_7_set(19, 0);
            (25, 27): qmod_7_set(20, 0);
            (25, 28): qmod_7_set(21, 0);
            (25, 29): qmod_7_set(22, 0);
            (25, 30): qmod_7_set(23, 0);
            (25, 31): qmod_7_set(24, 0);
            (26, 0): qmod_7_set(26, 1);
            (26, 1): qmod_7_set(27, 0);
            (26, 2): qmod_7_set(28, 0);
            (26, 3): qmod_7_set(29, 0);
            (26, 4): qmod_7_set(30, 0);
            (26, 5): qmod_7_set(31, 0);
            (26, 6): qmod_7_set(0, 0);
            (26, 7): qmod_7_set(1, 0);
            (26, 8): qmod_7_set(2, 0);
            (26, 9): qmod_7_set(3, 0);
            (26, 10): qmod_7_set(4, 0);
            (26, 11): qmod_7_set(5, 0);
            (26, 12): qmod_7_set(6, 0);
            (26, 13): qmod_7_set(7, 0);
            (26, 14): qmod_7_set(8, 0);
            (26, 15): qmod_7_set(9, 0);
            (26, 16): qmod_7_set(10, 0);
            (26, 17): qmod_7_set(11, 0);
            (26, 18): qmod_7_set(12, 0);
            (26, 19): qmod_7_set(13, 0);
            (26, 20): qmod_7_set(14, 0);
            (26, 21): qmod_7_set(15, 0);
            (26, 22): qmod_7_set(16, 0);
            (26, 23): qmod_7_set(17, 0);
            (26, 24): qmod_7_set(18, 0);
            (26, 25): qmod_7_set(19, 0);
            (26, 26): qmod_7_set(20, 0);
            (26, 27): qmod_7_set(21, 0);
            (26, 28): qmod_7_set(22, 0);
            (26, 29): qmod_7_set(23, 0);
            (26, 30): qmod_7_set(24, 0);
            (26, 31): qmod_7_set(25, 0);
            (27, 0): qmod_7_set(27, 1);
            (27, 1): qmod_7_set(28, 0);
            (27, 2): qmod_7_set(29, 0);
            (27, 3): qmod_7_set(30, 0);
            (27, 4): qmod_7_set(31, 0);
            (27, 5): qmod_7_set(0, 0);
            (27, 6): qmod_7_set(1, 0);
            (27, 7): qmod_7_set(2, 0);
            (27, 8): qmod_7_set(3, 0);
            (27, 9): qmod_7_set(4, 0);
            (27, 10): qmod_7_set(5, 0);
            (27, 11): qmod_7_set(6, 0);
            (27, 12): qmod_7_set(7, 0);
            (27, 13): qmod_7_set(8, 0);
            (27, 14): qmod_7_set(9, 0);
            (27, 15): qmod_7_set(10, 0);
            (27, 16): qmod_7_set(11, 0);
            (27, 17): qmod_7_set(12, 0);
            (27, 18): qmod_7_set(13, 0);
            (27, 19): qmod_7_set(14, 0);
            (27, 20): qmod_7_set(15, 0);
            (27, 21): qmod_7_set(16, 0);
            (27, 22): qmod_7_set(17, 0);
            (27, 23): qmod_7_set(18, 0);
            (27, 24): qmod_7_set(19, 0);
            (27, 25): qmod_7_set(20, 0);
            (27, 26): qmod_7_set(21, 0);
            (27, 27): qmod_7_set(22, 0);
            (27, 28): qmod_7_set(23, 0);
            (27, 29): qmod_7_set(24, 0);
            (27, 30): qmod_7_set(25, 0);
            (27, 31): qmod_7_set(26, 0);
            (28, 0): qmod_7_set(28, 1);
            (28, 1): qmod_7_set(29, 0);
            (28, 2): qmod_7_set(30, 0);
            (28, 3): qmod_7_set(31, 0);
            (28, 4): qmod_7_set(0, 0);
            (28, 5): qmod_7_set(1, 0);
            (28, 6): qmod_7_set(2, 0);
            (28, 7): qmod_7_set(3, 0);
            (28, 8): qmod_7_set(4, 0);
            (28, 9): qmod_7_set(5, 0);
            (28, 10): qmod_7_set(6, 0);
            (28, 11): qmod_7_set(7, 0);
            (28, 12): qmod_7_set(8, 0);
            (28, 13): qmod_7_set(9, 0);
            (28, 14): qmod_7_set(10, 0);
            (28, 15): qmod_7_set(11, 0);
            (28, 16): qmod_7_set(12, 0);
            (28, 17): qmod_7_set(13, 0);
            (28, 18): qmod_7_set(14, 0);
            (28, 19): qmod_7_set(15, 0);
            (28, 20): qmod_7_set(16, 0);
            (28, 21): qmod_7_set(17, 0);
            (28, 22): qmod_7_set(18, 0);
            (28, 23): qmod_7_set(19, 0);
            (28, 24): qmod_7_set(20, 0);
            (28, 25): qmod_7_set(21, 0);
            (28, 26): qmod_7_set(22, 0);
            (28, 27): qmod_7_set(23, 0);
            (28, 28): qmod_7_set(24, 0);
            (28, 29): qmod_7_set(25, 0);
            (28, 30): qmod_7_set(26, 0);
            (28, 31): qmod_7_set(27, 0);
            (29, 0): qmod_7_set(29, 1);
            (29, 1): qmod_7_set(30, 0);
            (29, 2): qmod_7_set(31, 0);
            (29, 3): qmod_7_set(0, 0);
            (29, 4): qmod_7_set(1, 0);
            (29, 5): qmod_7_set(2, 0);
            (29, 6): qmod_7_set(3, 0);
            (29, 7): qmod_7_set(4, 0);
            (29, 8): qmod_7_set(5, 0);
            (29, 9): qmod_7_set(6, 0);
            (29, 10): qmod_7_set(7, 0);
            (29, 11): qmod_7_set(8, 0);
            (29, 12): qmod_7_set(9, 0);
            (29, 13): qmod_7_set(10, 0);
            (29, 14): qmod_7_set(11, 0);
            (29, 15): qmod_7_set(12, 0);
            (29, 16): qmod_7_set(13, 0);
            (29, 17): qmod_7_set(14, 0);
            (29, 18): qmod_7_set(15, 0);
            (29, 19): qmod_7_set(16, 0);
            (29, 20): qmod_7_set(17, 0);
            (29, 21): qmod_7_set(18, 0);
            (29, 22): qmod_7_set(19, 0);
            (29, 23): qmod_7_set(20, 0);
            (29, 24): qmod_7_set(21, 0);
            (29, 25): qmod_7_set(22, 0);
            (29, 26): qmod_7_set(23, 0);
            (29, 27): qmod_7_set(24, 0);
            (29, 28): qmod_7_set(25, 0);
            (29, 29): qmod_7_set(26, 0);
            (29, 30): qmod_7_set(27, 0);
            (29, 31): qmod_7_set(28, 0);
            (30, 0): qmod_7_set(30, 1);
            (30, 1): qmod_7_set(31, 0);
            (30, 2): qmod_7_set(0, 0);
            (30, 3): qmod_7_set(1, 0);
            (30, 4): qmod_7_set(2, 0);
            (30, 5): qmod_7_set(3, 0);
            (30, 6): qmod_7_set(4, 0);
            (30, 7): qmod_7_set(5, 0);
            (30, 8): qmod_7_set(6, 0);
            (30, 9): qmod_7_set(7, 0);
            (30, 10): qmod_7_set(8, 0);
            (30, 11): qmod_7_set(9, 0);
            (30, 12): qmod_7_set(10, 0);
            (30, 13): qmod_7_set(11, 0);
            (30, 14): qmod_7_set(12, 0);
            (30, 15): qmod_7_set(13, 0);
            (30, 16): qmod_7_set(14, 0);
            (30, 17): qmod_7_set(15, 0);
            (30, 18): qmod_7_set(16, 0);
            (30, 19): qmod_7_set(17, 0);
            (30, 20): qmod_7_set(18, 0);
            (30, 21): qmod_7_set(19, 0);
            (30, 22): qmod_7_set(20, 0);
            (30, 23): qmod_7_set(21, 0);
            (30, 24): qmod_7_set(22, 0);
            (30, 25): qmod_7_set(23, 0);
            (30, 26): qmod_7_set(24, 0);
            (30, 27): qmod_7_set(25, 0);
            (30, 28): qmod_7_set(26, 0);
            (30, 29): qmod_7_set(27, 0);
            (30, 30): qmod_7_set(28, 0);
            (30, 31): qmod_7_set(29, 0);
            (31, 0): qmod_7_set(31, 1);
            (31, 1): qmod_7_set(0, 0);
            (31, 2): qmod_7_set(1, 0);
            (31, 3): qmod_7_set(2, 0);
            (31, 4): qmod_7_set(3, 0);
            (31, 5): qmod_7_set(4, 0);
            (31, 6): qmod_7_set(5, 0);
            (31, 7): qmod_7_set(6, 0);
            (31, 8): qmod_7_set(7, 0);
            (31, 9): qmod_7_set(8, 0);
            (31, 10): qmod_7_set(9, 0);
            (31, 11): qmod_7_set(10, 0);
            (31, 12): qmod_7_set(11, 0);
            (31, 13): qmod_7_set(12, 0);
            (31, 14): qmod_7_set(13, 0);
            (31, 15): qmod_7_set(14, 0);
            (31, 16): qmod_7_set(15, 0);
            (31, 17): qmod_7_set(16, 0);
            (31, 18): qmod_7_set(17, 0);
            (31, 19): qmod_7_set(18, 0);
            (31, 20): qmod_7_set(19, 0);
            (31, 21): qmod_7_set(20, 0);
            (31, 22): qmod_7_set(21, 0);
            (31, 23): qmod_7_set(22, 0);
            (31, 24): qmod_7_set(23, 0);
            (31, 25): qmod_7_set(24, 0);
            (31, 26): qmod_7_set(25, 0);
            (31, 27): qmod_7_set(26, 0);
            (31, 28): qmod_7_set(27, 0);
            (31, 29): qmod_7_set(28, 0);
            (31, 30): qmod_7_set(29, 0);
            (31, 31): qmod_7_set(30, 0);
        }
        size = 1024;
    }
    Hash<qidx_t>(HashAlgorithm_t.IDENTITY) qidx_7_hash;
    action slot_7_ok() { meta.alt_ok_7 = meta.alt_pre_7 & meta.alt_unfull_7; }
    /* copy 7's one access per packet, by what the packet is (q_op): a front-panel packet
     * tests slot 7's queue, a pause clears a drained queue, a port-down or queue-state
     * update sets it. One table per copy, so each stage's stateful ALUs take four copies. */
    action q_7_test() { meta.alt_unfull_7 = qstate_7_test.execute(meta.alt_i_7); }
    action q_7_set() { qstate_7_set.execute(meta.alt_i_7); }
    action q_7_clear() { qstate_7_clear.execute(meta.alt_i_7); }
    table qstate_7_op {
        key = { meta.q_op: exact; }
        actions = { q_7_test; q_7_set; q_7_clear; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            Q_TEST: q_7_test();
            Q_SET: q_7_set();
            Q_CLEAR: q_7_clear();
        }
        size = 3;
    }
    action slot_7_i() { meta.alt_i_7 = qidx_7_hash.get({meta.alt_up_7, meta.alt_q_7}); }
    /* slot 7's uplink masked down by the control plane (the config's `down`): the slot
     * counts as Full (as bmv2: a failed uplink is passed over). One ternary entry per uplink
     * tests its bit of the mask (no shift of the mask by a packet's field). */
    action slot_7_down() { meta.alt_dn_7 = 1; }
    table down_7 {
        key = {
            meta.alt_up_7: exact @name("uplink");
            meta.down_cfg: ternary @name("down");
        }
        actions = { slot_7_down; NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0x1 &&& 0x1): slot_7_down();
            (1, 0x2 &&& 0x2): slot_7_down();
            (2, 0x4 &&& 0x4): slot_7_down();
            (3, 0x8 &&& 0x8): slot_7_down();
            (4, 0x10 &&& 0x10): slot_7_down();
            (5, 0x20 &&& 0x20): slot_7_down();
            (6, 0x40 &&& 0x40): slot_7_down();
            (7, 0x80 &&& 0x80): slot_7_down();
            (8, 0x100 &&& 0x100): slot_7_down();
            (9, 0x200 &&& 0x200): slot_7_down();
            (10, 0x400 &&& 0x400): slot_7_down();
            (11, 0x800 &&& 0x800): slot_7_down();
            (12, 0x1000 &&& 0x1000): slot_7_down();
            (13, 0x2000 &&& 0x2000): slot_7_down();
            (14, 0x4000 &&& 0x4000): slot_7_down();
            (15, 0x8000 &&& 0x8000): slot_7_down();
            (16, 0x10000 &&& 0x10000): slot_7_down();
            (17, 0x20000 &&& 0x20000): slot_7_down();
            (18, 0x40000 &&& 0x40000): slot_7_down();
            (19, 0x80000 &&& 0x80000): slot_7_down();
            (20, 0x100000 &&& 0x100000): slot_7_down();
            (21, 0x200000 &&& 0x200000): slot_7_down();
            (22, 0x400000 &&& 0x400000): slot_7_down();
            (23, 0x800000 &&& 0x800000): slot_7_down();
            (24, 0x1000000 &&& 0x1000000): slot_7_down();
            (25, 0x2000000 &&& 0x2000000): slot_7_down();
            (26, 0x4000000 &&& 0x4000000): slot_7_down();
            (27, 0x8000000 &&& 0x8000000): slot_7_down();
            (28, 0x10000000 &&& 0x10000000): slot_7_down();
            (29, 0x20000000 &&& 0x20000000): slot_7_down();
            (30, 0x40000000 &&& 0x40000000): slot_7_down();
            (31, 0x80000000 &&& 0x80000000): slot_7_down();
        }
        size = 32;
    }
    Register<bit<8>, qidx_t>(8192, 0) qstate_8;
    /* the one-shot test: 1 if the queue is Unfull */
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_8) qstate_8_test = {
        void apply(inout bit<8> v, out bit<8> rv) {
            rv = 0;
            if (v == 0) { rv = 1; }
        }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_8) qstate_8_set = {
        void apply(inout bit<8> v) { v = 1; }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_8) qstate_8_clear = {
        void apply(inout bit<8> v) { v = 0; }
    };
    /* slot 8: queue = (active + wait) mod Q by one table keyed by both (no
     * adder and no modulo on the way to the register); index = uplink * 256 + queue by an
     * identity hash (no shifts) */
    action qmod_8_set(queue_t q, bit<1> act) {
        meta.alt_q_8 = q;
        meta.alt_act_8 = act;       // wait 0: the active queue
    }
    table qmod_8 {
        key = {
            meta.active_q_2: exact @name("active");
            meta.alt_wait_8: exact @name("wait");
        }
        actions = { qmod_8_set; }
        const entries = {
            (0, 0): qmod_8_set(0, 1);
            (0, 1): qmod_8_set(1, 0);
            (0, 2): qmod_8_set(2, 0);
            (0, 3): qmod_8_set(3, 0);
            (0, 4): qmod_8_set(4, 0);
            (0, 5): qmod_8_set(5, 0);
            (0, 6): qmod_8_set(6, 0);
            (0, 7): qmod_8_set(7, 0);
            (0, 8): qmod_8_set(8, 0);
            (0, 9): qmod_8_set(9, 0);
            (0, 10): qmod_8_set(10, 0);
            (0, 11): qmod_8_set(11, 0);
            (0, 12): qmod_8_set(12, 0);
            (0, 13): qmod_8_set(13, 0);
            (0, 14): qmod_8_set(14, 0);
            (0, 15): qmod_8_set(15, 0);
            (0, 16): qmod_8_set(16, 0);
            (0, 17): qmod_8_set(17, 0);
            (0, 18): qmod_8_set(18, 0);
            (0, 19): qmod_8_set(19, 0);
            (0, 20): qmod_8_set(20, 0);
            (0, 21): qmod_8_set(21, 0);
            (0, 22): qmod_8_set(22, 0);
            (0, 23): qmod_8_set(23, 0);
            (0, 24): qmod_8_set(24, 0);
            (0, 25): qmod_8_set(25, 0);
            (0, 26): qmod_8_set(26, 0);
            (0, 27): qmod_8_set(27, 0);
            (0, 28): qmod_8_set(28, 0);
            (0, 29): qmod_8_set(29, 0);
            (0, 30): qmod_8_set(30, 0);
            (0, 31): qmod_8_set(31, 0);
            (1, 0): qmod_8_set(1, 1);
            (1, 1): qmod_8_set(2, 0);
            (1, 2): qmod_8_set(3, 0);
            (1, 3): qmod_8_set(4, 0);
            (1, 4): qmod_8_set(5, 0);
            (1, 5): qmod_8_set(6, 0);
            (1, 6): qmod_8_set(7, 0);
            (1, 7): qmod_8_set(8, 0);
            (1, 8): qmod_8_set(9, 0);
            (1, 9): qmod_8_set(10, 0);
            (1, 10): qmod_8_set(11, 0);
            (1, 11): qmod_8_set(12, 0);
            (1, 12): qmod_8_set(13, 0);
            (1, 13): qmod_8_set(14, 0);
            (1, 14): qmod_8_set(15, 0);
            (1, 15): qmod_8_set(16, 0);
            (1, 16): qmod_8_set(17, 0);
            (1, 17): qmod_8_set(18, 0);
            (1, 18): qmod_8_set(19, 0);
            (1, 19): qmod_8_set(20, 0);
            (1, 20): qmod_8_set(21, 0);
            (1, 21): qmod_8_set(22, 0);
            (1, 22): qmod_8_set(23, 0);
            (1, 23): qmod_8_set(24, 0);
            (1, 24): qmod_8_set(25, 0);
            (1, 25): qmod_8_set(26, 0);
            (1, 26): qmod_8_set(27, 0);
            (1, 27): qmod_8_set(28, 0);
            (1, 28): qmod_8_set(29, 0);
            (1, 29): qmod_8_set(30, 0);
            (1, 30): qmod_8_set(31, 0);
            (1, 31): qmod_8_set(0, 0);
            (2, 0): qmod_8_set(2, 1);
            (2, 1): qmod_8_set(3, 0);
            (2, 2): qmod_8_set(4, 0);
            (2, 3): qmod_8_set(5, 0);
            (2, 4): qmod_8_set(6, 0);
            (2, 5): qmod_8_set(7, 0);
            (2, 6): qmod_8_set(8, 0);
            (2, 7): qmod_8_set(9, 0);
            (2, 8): qmod_8_set(10, 0);
            (2, 9): qmod_8_set(11, 0);
            (2, 10): qmod_8_set(12, 0);
            (2, 11): qmod_8_set(13, 0);
            (2, 12): qmod_8_set(14, 0);
            (2, 13): qmod_8_set(15, 0);
            (2, 14): qmod_8_set(16, 0);
            (2, 15): qmod_8_set(17, 0);
            (2, 16): qmod_8_set(18, 0);
            (2, 17): qmod_8_set(19, 0);
            (2, 18): qmod_8_set(20, 0);
            (2, 19): qmod_8_set(21, 0);
            (2, 20): qmod_8_set(22, 0);
            (2, 21): qmod_8_set(23, 0);
            (2, 22): qmod_8_set(24, 0);
            (2, 23): qmod_8_set(25, 0);
            (2, 24): qmod_8_set(26, 0);
            (2, 25): qmod_8_set(27, 0);
            (2, 26): qmod_8_set(28, 0);
            (2, 27): qmod_8_set(29, 0);
            (2, 28): qmod_8_set(30, 0);
            (2, 29): qmod_8_set(31, 0);
            (2, 30): qmod_8_set(0, 0);
            (2, 31): qmod_8_set(1, 0);
            (3, 0): qmod_8_set(3, 1);
            (3, 1): qmod_8_set(4, 0);
            (3, 2): qmod_8_set(5, 0);
            (3, 3): qmod_8_set(6, 0);
            (3, 4): qmod_8_set(7, 0);
            (3, 5): qmod_8_set(8, 0);
            (3, 6): qmod_8_set(9, 0);
            (3, 7): qmod_8_set(10, 0);
            (3, 8): qmod_8_set(11, 0);
            (3, 9): qmod_8_set(12, 0);
            (3, 10): qmod_8_set(13, 0);
            (3, 11): qmod_8_set(14, 0);
            (3, 12): qmod_8_set(15, 0);
            (3, 13): qmod_8_set(16, 0);
            (3, 14): qmod_8_set(17, 0);
            (3, 15): qmod_8_set(18, 0);
            (3, 16): qmod_8_set(19, 0);
            (3, 17): qmod_8_set(20, 0);
            (3, 18): qmod_8_set(21, 0);
            (3, 19): qmod_8_set(22, 0);
            (3, 20): qmod_8_set(23, 0);
            (3, 21): qmod_8_set(24, 0);
            (3, 22): qmod_8_set(25, 0);
            (3, 23): qmod_8_set(26, 0);
            (3, 24): qmod_8_set(27, 0);
            (3, 25): qmod_8_set(28, 0);
            (3, 26): qmod_8_set(29, 0);
            (3, 27): qmod_8_set(30, 0);
            (3, 28): qmod_8_set(31, 0);
            (3, 29): qmod_8_set(0, 0);
            (3, 30): qmod_8_set(1, 0);
            (3, 31): qmod_8_set(2, 0);
            (4, 0): qmod_8_set(4, 1);
            (4, 1): qmod_8_set(5, 0);
            (4, 2): qmod_8_set(6, 0);
            (4, 3): qmod_8_set(7, 0);
            (4, 4): qmod_8_set(8, 0);
            (4, 5): qmod_8_set(9, 0);
            (4, 6): qmod_8_set(10, 0);
            (4, 7): qmod_8_set(11, 0);
            (4, 8): qmod_8_set(12, 0);
            (4, 9): qmod_8_set(13, 0);
            (4, 10): qmod_8_set(14, 0);
            (4, 11): qmod_8_set(15, 0);
            (4, 12): qmod_8_set(16, 0);
            (4, 13): qmod_8_set(17, 0);
            (4, 14): qmod_8_set(18, 0);
            (4, 15): qmod_8_set(19, 0);
            (4, 16): qmod_8_set(20, 0);
            (4, 17): qmod_8_set(21, 0);
            (4, 18): qmod_8_set(22, 0);
            (4, 19): qmod_8_set(23, 0);
            (4, 20): qmod_8_set(24, 0);
            (4, 21): qmod_8_set(25, 0);
            (4, 22): qmod_8_set(26, 0);
            (4, 23): qmod_8_set(27, 0);
            (4, 24): qmod_8_set(28, 0);
            (4, 25): qmod_8_set(29, 0);
            (4, 26): qmod_8_set(30, 0);
            (4, 27): qmod_8_set(31, 0);
            (4, 28): qmod_8_set(0, 0);
            (4, 29): qmod_8_set(1, 0);
            (4, 30): qmod_8_set(2, 0);
            (4, 31): qmod_8_set(3, 0);
            (5, 0): qmod_8_set(5, 1);
            (5, 1): qmod_8_set(6, 0);
            (5, 2): qmod_8_set(7, 0);
            (5, 3): qmod_8_set(8, 0);
            (5, 4): qmod_8_set(9, 0);
            (5, 5): qmod_8_set(10, 0);
            (5, 6): qmod_8_set(11, 0);
            (5, 7): qmod_8_set(12, 0);
            (5, 8): qmod_8_set(13, 0);
            (5, 9): qmod_8_set(14, 0);
            (5, 10): qmod_8_set(15, 0);
            (5, 11): qmod_8_set(16, 0);
            (5, 12): qmod_8_set(17, 0);
            (5, 13): qmod_8_set(18, 0);
            (5, 14): qmod_8_set(19, 0);
            (5, 15): qmod_8_set(20, 0);
            (5, 16): qmod_8_set(21, 0);
            (5, 17): qmod_8_set(22, 0);
            (5, 18): qmod_8_set(23, 0);
            (5, 19): qmod_8_set(24, 0);
            (5, 20): qmod_8_set(25, 0);
            (5, 21): qmod_8_set(26, 0);
            (5, 22): qmod_8_set(27, 0);
            (5, 23): qmod_8_set(28, 0);
            (5, 24): qmod_8_set(29, 0);
            (5, 25): qmod_8_set(30, 0);
            (5, 26): qmod_8_set(31, 0);
            (5, 27): qmod_8_set(0, 0);
            (5, 28): qmod_8_set(1, 0);
            (5, 29): qmod_8_set(2, 0);
            (5, 30): qmod_8_set(3, 0);
            (5, 31): qmod_8_set(4, 0);
            (6, 0): qmod_8_set(6, 1);
            (6, 1): qmod_8_set(7, 0);
            (6, 2): qmod_8_set(8, 0);
            (6, 3): qmod_8_set(9, 0);
            (6, 4): qmod_8_set(10, 0);
            (6, 5): qmod_8_set(11, 0);
            (6, 6): qmod_8_set(12, 0);
            (6, 7): qmod_8_set(13, 0);
            (6, 8): qmod_8_set(14, 0);
            (6, 9): qmod_8_set(15, 0);
            (6, 10): qmod_8_set(16, 0);
            (6, 11): qmod_8_set(17, 0);
            (6, 12): qmod_8_set(18, 0);
            (6, 13): qmod_8_set(19, 0);
            (6, 14): qmod_8_set(20, 0);
            (6, 15): qmod_8_set(21, 0);
            (6, 16): qmod_8_set(22, 0);
            (6, 17): qmod_8_set(23, 0);
            (6, 18): qmod_8_set(24, 0);
            (6, 19): qmod_8_set(25, 0);
            (6, 20): qmod_8_set(26, 0);
            (6, 21): qmod_8_set(27, 0);
            (6, 22): qmod_8_set(28, 0);
            (6, 23): qmod_8_set(29, 0);
            (6, 24): qmod_8_set(30, 0);
            (6, 25): qmod_8_set(31, 0);
            (6, 26): qmod_8_set(0, 0);
            (6, 27): qmod_8_set(1, 0);
            (6, 28): qmod_8_set(2, 0);
            (6, 29): qmod_8_set(3, 0);
            (6, 30): qmod_8_set(4, 0);
            (6, 31): qmod_8_set(5, 0);
            (7, 0): qmod_8_set(7, 1);
            (7, 1): qmod_8_set(8, 0);
            (7, 2): qmod_8_set(9, 0);
            (7, 3): qmod_8_set(10, 0);
            (7, 4): qmod_8_set(11, 0);
            (7, 5): qmod_8_set(12, 0);
            (7, 6): qmod_8_set(13, 0);
            (7, 7): qmod_8_set(14, 0);
            (7, 8): qmod_8_set(15, 0);
            (7, 9): qmod_8_set(16, 0);
            (7, 10): qmod_8_set(17, 0);
            (7, 11): qmod_8_set(18, 0);
            (7, 12): qmod_8_set(19, 0);
            (7, 13): qmod_8_set(20, 0);
            (7, 14): qmod_8_set(21, 0);
            (7, 15): qmod_8_set(22, 0);
            (7, 16): qmod_8_set(23, 0);
            (7, 17): qmod_8_set(24, 0);
            (7, 18): qmod_8_set(25, 0);
            (7, 19): qmod_8_set(26, 0);
            (7, 20): qmod_8_set(27, 0);
            (7, 21): qmod_8_set(28, 0);
            (7, 22): qmod_8_set(29, 0);
            (7, 23): qmod_8_set(30, 0);
            (7, 24): qmod_8_set(31, 0);
            (7, 25): qmod_8_set(0, 0);
            (7, 26): qmod_8_set(1, 0);
            (7, 27): qmod_8_set(2, 0);
            (7, 28): qmod_8_set(3, 0);
            (7, 29): qmod_8_set(4, 0);
            (7, 30): qmod_8_set(5, 0);
            (7, 31): qmod_8_set(6, 0);
            (8, 0): qmod_8_set(8, 1);
            (8, 1): qmod_8_set(9, 0);
            (8, 2): qmod_8_set(10, 0);
            (8, 3): qmod_8_set(11, 0);
            (8, 4): qmod_8_set(12, 0);
            (8, 5): qmod_8_set(13, 0);
            (8, 6): qmod_8_set(14, 0);
            (8, 7): qmod_8_set(15, 0);
            (8, 8): qmod_8_set(16, 0);
            (8, 9): qmod_8_set(17, 0);
            (8, 10): qmod_8_set(18, 0);
            (8, 11): qmod_8_set(19, 0);
            (8, 12): qmod_8_set(20, 0);
            (8, 13): qmod_8_set(21, 0);
            (8, 14): qmod_8_set(22, 0);
            (8, 15): qmod_8_set(23, 0);
            (8, 16): qmod_8_set(24, 0);
            (8, 17): qmod_8_set(25, 0);
            (8, 18): qmod_8_set(26, 0);
            (8, 19): qmod_8_set(27, 0);
            (8, 20): qmod_8_set(28, 0);
            (8, 21): qmod_8_set(29, 0);
            (8, 22): qmod_8_set(30, 0);
            (8, 23): qmod_8_set(31, 0);
            (8, 24): qmod_8_set(0, 0);
            (8, 25): qmod_8_set(1, 0);
            (8, 26): qmod_8_set(2, 0);
            (8, 27): qmod_8_set(3, 0);
            (8, 28): qmod_8_set(4, 0);
            (8, 29): qmod_8_set(5, 0);
            (8, 30): qmod_8_set(6, 0);
            (8, 31): qmod_8_set(7, 0);
            (9, 0): qmod_8_set(9, 1);
            (9, 1): qmod_8_set(10, 0);
            (9, 2): qmod_8_set(11, 0);
            (9, 3): qmod_8_set(12, 0);
            (9, 4): qmod_8_set(13, 0);
            (9, 5): qmod_8_set(14, 0);
            (9, 6): qmod_8_set(15, 0);
            (9, 7): qmod_8_set(16, 0);
            (9, 8): qmod_8_set(17, 0);
            (9, 9): qmod_8_set(18, 0);
            (9, 10): qmod_8_set(19, 0);
            (9, 11): qmod_8_set(20, 0);
            (9, 12): qmod_8_set(21, 0);
            (9, 13): qmod_8_set(22, 0);
            (9, 14): qmod_8_set(23, 0);
            (9, 15): qmod_8_set(24, 0);
            (9, 16): qmod_8_set(25, 0);
            (9, 17): qmod_8_set(26, 0);
            (9, 18): qmod_8_set(27, 0);
            (9, 19): qmod_8_set(28, 0);
            (9, 20): qmod_8_set(29, 0);
            (9, 21): qmod_8_set(30, 0);
            (9, 22): qmod_8_set(31, 0);
            (9, 23): qmod_8_set(0, 0);
            (9, 24): qmod_8_set(1, 0);
            (9, 25): qmod_8_set(2, 0);
            (9, 26): qmod_8_set(3, 0);
            (9, 27): qmod_8_set(4, 0);
            (9, 28): qmod_8_set(5, 0);
            (9, 29): qmod_8_set(6, 0);
            (9, 30): qmod_8_set(7, 0);
            (9, 31): qmod_8_set(8, 0);
            (10, 0): qmod_8_set(10, 1);
            (10, 1): qmod_8_set(11, 0);
            (10, 2): qmod_8_set(12, 0);
            (10, 3): qmod_8_set(13, 0);
            (10, 4): qmod_8_set(14, 0);
            (10, 5): qmod_8_set(15, 0);
            (10, 6): qmod_8_set(16, 0);
            (10, 7): qmod_8_set(17, 0);
            (10, 8): qmod_8_set(18, 0);
            (10, 9): qmod_8_set(19, 0);
            (10, 10): qmod_8_set(20, 0);
            (10, 11): qmod_8_set(21, 0);
            (10, 12): qmod_8_set(22, 0);
            (10, 13): qmod_8_set(23, 0);
            (10, 14): qmod_8_set(24, 0);
            (10, 15): qmod_8_set(25, 0);
            (10, 16): qmod_8_set(26, 0);
            (10, 17): qmod_8_set(27, 0);
            (10, 18): qmod_8_set(28, 0);
            (10, 19): qmod_8_set(29, 0);
            (10, 20): qmod_8_set(30, 0);
            (10, 21): qmod_8_set(31, 0);
            (10, 22): qmod_8_set(0, 0);
            (10, 23): qmod_8_set(1, 0);
            (10, 24): qmod_8_set(2, 0);
            (10, 25): qmod_8_set(3, 0);
            (10, 26): qmod_8_set(4, 0);
            (10, 27): qmod_8_set(5, 0);
            (10, 28): qmod_8_set(6, 0);
            (10, 29): qmod_8_set(7, 0);
            (10, 30): qmod_8_set(8, 0);
            (10, 31): qmod_8_set(9, 0);
            (11, 0): qmod_8_set(11, 1);
            (11, 1): qmod_8_set(12, 0);
            (11, 2): qmod_8_set(13, 0);
            (11, 3): qmod_8_set(14, 0);
            (11, 4): qmod_8_set(15, 0);
            (11, 5): qmod_8_set(16, 0);
            (11, 6): qmod_8_set(17, 0);
            (11, 7): qmod_8_set(18, 0);
            (11, 8): qmod_8_set(19, 0);
            (11, 9): qmod_8_set(20, 0);
            (11, 10): qmod_8_set(21, 0);
            (11, 11): qmod_8_set(22, 0);
            (11, 12): qmod_8_set(23, 0);
            (11, 13): qmod_8_set(24, 0);
            (11, 14): qmod_8_set(25, 0);
            (11, 15): qmod_8_set(26, 0);
            (11, 16): qmod_8_set(27, 0);
            (11, 17): qmod_8_set(28, 0);
            (11, 18): qmod_8_set(29, 0);
            (11, 19): qmod_8_set(30, 0);
            (11, 20): qmod_8_set(31, 0);
            (11, 21): qmod_8_set(0, 0);
            (11, 22): qmod_8_set(1, 0);
            (11, 23): qmod_8_set(2, 0);
            (11, 24): qmod_8_set(3, 0);
            (11, 25): qmod_8_set(4, 0);
            (11, 26): qmod_8_set(5, 0);
            (11, 27): qmod_8_set(6, 0);
            (11, 28): qmod_8_set(7, 0);
            (11, 29): qmod_8_set(8, 0);
            (11, 30): qmod_8_set(9, 0);
            (11, 31): qmod_8_set(10, 0);
            (12, 0): qmod_8_set(12, 1);
            (12, 1): qmod_8_set(13, 0);
            (12, 2): qmod_8_set(14, 0);
            (12, 3): qmod_8_set(15, 0);
            (12, 4): qmod_8_set(16, 0);
            (12, 5): qmod_8_set(17, 0);
            (12, 6): qmod_8_set(18, 0);
            (12, 7): qmod_8_set(19, 0);
            (12, 8): qmod_8_set(20, 0);
            (12, 9): qmod_8_set(21, 0);
            (12, 10): qmod_8_set(22, 0);
            (12, 11): qmod_8_set(23, 0);
            (12, 12): qmod_8_set(24, 0);
            (12, 13): qmod_8_set(25, 0);
            (12, 14): qmod_8_set(26, 0);
            (12, 15): qmod_8_set(27, 0);
            (12, 16): qmod_8_set(28, 0);
            (12, 17): qmod_8_set(29, 0);
            (12, 18): qmod_8_set(30, 0);
            (12, 19): qmod_8_set(31, 0);
            (12, 20): qmod_8_set(0, 0);
            (12, 21): qmod_8_set(1, 0);
            (12, 22): qmod_8_set(2, 0);
            (12, 23): qmod_8_set(3, 0);
            (12, 24): qmod_8_set(4, 0);
            (12, 25): qmod_8_set(5, 0);
            (12, 26): qmod_8_set(6, 0);
            (12, 27): qmod_8_set(7, 0);
            (12, 28): qmod_8_set(8, 0);
            (12, 29): qmod_8_set(9, 0);
            (12, 30): qmod_8_set(10, 0);
            (12, 31): qmod_8_set(11, 0);
            (13, 0): qmod_8_set(13, 1);
            (13, 1): qmod_8_set(14, 0);
            (13, 2): qmod_8_set(15, 0);
            (13, 3): qmod_8_set(16, 0);
            (13, 4): qmod_8_set(17, 0);
            (13, 5): qmod_8_set(18, 0);
            (13, 6): qmod_8_set(19, 0);
            (13, 7): qmod_8_set(20, 0);
            (13, 8): qmod_8_set(21, 0);
            (13, 9): qmod_8_set(22, 0);
            (13, 10): qmod_8_set(23, 0);
            (13, 11): qmod_8_set(24, 0);
            (13, 12): qmod_8_set(25, 0);
            (13, 13): qmod_8_set(26, 0);
            (13, 14): qmod_8_set(27, 0);
            (13, 15): qmod_8_set(28, 0);
            (13, 16): qmod_8_set(29, 0);
            (13, 17): qmod_8_set(30, 0);
            (13, 18): qmod_8_set(31, 0);
            (13, 19): qmod_8_set(0, 0);
            (13, 20): qmod_8_set(1, 0);
            (13, 21): qmod_8_set(2, 0);
            (13, 22): qmod_8_set(3, 0);
            (13, 23): qmod_8_set(4, 0);
            (13, 24): qmod_8_set(5, 0);
            (13, 25): qmod_8_set(6, 0);
            (13, 26): qmod_8_set(7, 0);
            (13, 27): qmod_8_set(8, 0);
            (13, 28): qmod_8_set(9, 0);
            (13, 29): qmod_8_set(10, 0);
            (13, 30): qmod_8_set(11, 0);
            (13, 31): qmod_8_set(12, 0);
            (14, 0): qmod_8_set(14, 1);
            (14, 1): qmod_8_set(15, 0);
            (14, 2): qmod_8_set(16, 0);
            (14, 3): qmod_8_set(17, 0);
            (14, 4): qmod_8_set(18, 0);
            (14, 5): qmod_8_set(19, 0);
            (14, 6): qmod_8_set(20, 0);
            (14, 7): qmod_8_set(21, 0);
            (14, 8): qmod_8_set(22, 0);
            (14, 9): qmod_8_set(23, 0);
            (14, 10): qmod_8_set(24, 0);
            (14, 11): qmod_8_set(25, 0);
            (14, 12): qmod_8_set(26, 0);
            (14, 13): qmod_8_set(27, 0);
            (14, 14): qmod_8_set(28, 0);
            (14, 15): qmod_8_set(29, 0);
            (14, 16): qmod_8_set(30, 0);
            (14, 17): qmod_8_set(31, 0);
            (14, 18): qmod_8_set(0, 0);
            (14, 19): qmod_8_set(1, 0);
            (14, 20): qmod_8_set(2, 0);
            (14, 21): qmod_8_set(3, 0);
            (14, 22): qmod_8_set(4, 0);
            (14, 23): qmod_8_set(5, 0);
            (14, 24): qmod_8_set(6, 0);
            (14, 25): qmod_8_set(7, 0);
            (14, 26): qmod_8_set(8, 0);
            (14, 27): qmod_8_set(9, 0);
            (14, 28): qmod_8_set(10, 0);
            (14, 29): qmod_8_set(11, 0);
            (14, 30): qmod_8_set(12, 0);
            (14, 31): qmod_8_set(13, 0);
            (15, 0): qmod_8_set(15, 1);
            (15, 1): qmod_8_set(16, 0);
            (15, 2): qmod_8_set(17, 0);
            (15, 3): qmod_8_set(18, 0);
            (15, 4): qmod_8_set(19, 0);
            (15, 5): qmod_8_set(20, 0);
            (15, 6): qmod_8_set(21, 0);
            (15, 7): qmod_8_set(22, 0);
            (15, 8): qmod_8_set(23, 0);
            (15, 9): qmod_8_set(24, 0);
            (15, 10): qmod_8_set(25, 0);
            (15, 11): qmod_8_set(26, 0);
            (15, 12): qmod_8_set(27, 0);
            (15, 13): qmod_8_set(28, 0);
            (15, 14): qmod_8_set(29, 0);
            (15, 15): qmod_8_set(30, 0);
            (15, 16): qmod_8_set(31, 0);
            (15, 17): qmod_8_set(0, 0);
            (15, 18): qmod_8_set(1, 0);
            (15, 19): qmod_8_set(2, 0);
            (15, 20): qmod_8_set(3, 0);
            (15, 21): qmod_8_set(4, 0);
            (15, 22): qmod_8_set(5, 0);
            (15, 23): qmod_8_set(6, 0);
            (15, 24): qmod_8_set(7, 0);
            (15, 25): qmod_8_set(8, 0);
            (15, 26): qmod_8_set(9, 0);
            (15, 27): qmod_8_set(10, 0);
            (15, 28): qmod_8_set(11, 0);
            (15, 29): qmod_8_set(12, 0);
            (15, 30): qmod_8_set(13, 0);
            (15, 31): qmod_8_set(14, 0);
            (16, 0): qmod_8_set(16, 1);
            (16, 1): qmod_8_set(17, 0);
            (16, 2): qmod_8_set(18, 0);
            (16, 3): qmod_8_set(19, 0);
            (16, 4): qmod_8_set(20, 0);
            (16, 5): qmod_8_set(21, 0);
            (16, 6): qmod_8_set(22, 0);
            (16, 7): qmod_8_set(23, 0);
            (16, 8): qmod_8_set(24, 0);
            (16, 9): qmod_8_set(25, 0);
            (16, 10): qmod_8_set(26, 0);
            (16, 11): qmod_8_set(27, 0);
            (16, 12): qmod_8_set(28, 0);
            (16, 13): qmod_8_set(29, 0);
            (16, 14): qmod_8_set(30, 0);
            (16, 15): qmod_8_set(31, 0);
            (16, 16): qmod_8_set(0, 0);
            (16, 17): qmod_8_set(1, 0);
            (16, 18): qmod_8_set(2, 0);
            (16, 19): qmod_8_set(3, 0);
            (16, 20): qmod_8_set(4, 0);
            (16, 21): qmod_8_set(5, 0);
            (16, 22): qmod_8_set(6, 0);
            (16, 23): qmod_8_set(7, 0);
            (16, 24): qmod_8_set(8, 0);
            (16, 25): qmod_8_set(9, 0);
            (16, 26): qmod_8_set(10, 0);
            (16, 27): qmod_8_set(11, 0);
            (16, 28): qmod_8_set(12, 0);
            (16, 29): qmod_8_set(13, 0);
            (16, 30): qmod_8_set(14, 0);
            (16, 31): qmod_8_set(15, 0);
            (17, 0): qmod_8_set(17, 1);
            (17, 1): qmod_8_set(18, 0);
            (17, 2): qmod_8_set(19, 0);
            (17, 3): qmod_8_set(20, 0);
            (17, 4): qmod_8_set(21, 0);
            (17, 5): qmod_8_set(22, 0);
            (17, 6): qmod_8_set(23, 0);
            (17, 7): qmod_8_set(24, 0);
            (17, 8): qmod_8_set(25, 0);
            (17, 9): qmod_8_set(26, 0);
            (17, 10): qmod_8_set(27, 0);
            (17, 11): qmod_8_set(28, 0);
            (17, 12): qmod_8_set(29, 0);
            (17, 13): qmod_8_set(30, 0);
            (17, 14): qmod_8_set(31, 0);
            (17, 15): qmod_8_set(0, 0);
            (17, 16): qmod_8_set(1, 0);
            (17, 17): qmod_8_set(2, 0);
            (17, 18): qmod_8_set(3, 0);
            (17, 19): qmod_8_set(4, 0);
            (17, 20): qmod_8_set(5, 0);
            (17, 21): qmod_8_set(6, 0);
            (17, 22): qmod_8_set(7, 0);
            (17, 23): qmod_8_set(8, 0);
            (17, 24): qmod_8_set(9, 0);
            (17, 25): qmod_8_set(10, 0);
            (17, 26): qmod_8_set(11, 0);
            (17, 27): qmod_8_set(12, 0);
            (17, 28): qmod_8_set(13, 0);
            (17, 29): qmod_8_set(14, 0);
            (17, 30): qmod_8_set(15, 0);
            (17, 31): qmod_8_set(16, 0);
            (18, 0): qmod_8_set(18, 1);
            (18, 1): qmod_8_set(19, 0);
            (18, 2): qmod_8_set(20, 0);
            (18, 3): qmod_8_set(21, 0);
            (18, 4): qmod_8_set(22, 0);
            (18, 5): qmod_8_set(23, 0);
            (18, 6): qmod_8_set(24, 0);
            (18, 7): qmod_8_set(25, 0);
            (18, 8): qmod_8_set(26, 0);
            (18, 9): qmod_8_set(27, 0);
            (18, 10): qmod_8_set(28, 0);
            (18, 11): qmod_8_set(29, 0);
            (18, 12): qmod_8_set(30, 0);
            (18, 13): qmod_8_set(31, 0);
            (18, 14): qmod_8_set(0, 0);
            (18, 15): qmod_8_set(1, 0);
            (18, 16): qmod_8_set(2, 0);
            (18, 17): qmod_8_set(3, 0);
            (18, 18): qmod_8_set(4, 0);
            (18, 19): qmod_8_set(5, 0);
            (18, 20): qmod_8_set(6, 0);
            (18, 21): qmod_8_set(7, 0);
            (18, 22): qmod_8_set(8, 0);
            (18, 23): qmod_8_set(9, 0);
            (18, 24): qmod_8_set(10, 0);
            (18, 25): qmod_8_set(11, 0);
            (18, 26): qmod_8_set(12, 0);
            (18, 27): qmod_8_set(13, 0);
            (18, 28): qmod_8_set(14, 0);
            (18, 29): qmod_8_set(15, 0);
            (18, 30): qmod_8_set(16, 0);
            (18, 31): qmod_8_set(17, 0);
            (19, 0): qmod_8_set(19, 1);
            (19, 1): qmod_8_set(20, 0);
            (19, 2): qmod_8_set(21, 0);
            (19, 3): qmod_8_set(22, 0);
            (19, 4): qmod_8_set(23, 0);
            (19, 5): qmod_8_set(24, 0);
            (19, 6): qmod_8_set(25, 0);
            (19, 7): qmod_8_set(26, 0);
            (19, 8): qmod_8_set(27, 0);
            (19, 9): qmod_8_set(28, 0);
            (19, 10): qmod_8_set(29, 0);
            (19, 11): qmod_8_set(30, 0);
            (19, 12): qmod_8_set(31, 0);
            (19, 13): qmod_8_set(0, 0);
            (19, 14): qmod_8_set(1, 0);
            (19, 15): qmod_8_set(2, 0);
            (19, 16): qmod_8_set(3, 0);
            (19, 17): qmod_8_set(4, 0);
            (19, 18): qmod_8_set(5, 0);
            (19, 19): qmod_8_set(6, 0);
            (19, 20): qmod_8_set(7, 0);
            (19, 21): qmod_8_set(8, 0);
            (19, 22): qmod_8_set(9, 0);
            (19, 23): qmod_8_set(10, 0);
            (19, 24): qmod_8_set(11, 0);
            (19, 25): qmod_8_set(12, 0);
            (19, 26): qmod_8_set(13, 0);
            (19, 27): qmod_8_set(14, 0);
            (19, 28): qmod_8_set(15, 0);
            (19, 29): qmod_8_set(16, 0);
            (19, 30): qmod_8_set(17, 0);
            (19, 31): qmod_8_set(18, 0);
            (20, 0): qmod_8_set(20, 1);
            (20, 1): qmod_8_set(21, 0);
            (20, 2): qmod_8_set(22, 0);
            (20, 3): qmod_8_set(23, 0);
            (20, 4): qmod_8_set(24, 0);
            (20, 5): qmod_8_set(25, 0);
            (20, 6): qmod_8_set(26, 0);
            (20, 7): qmod_8_set(27, 0);
            (20, 8): qmod_8_set(28, 0);
            (20, 9): qmod_8_set(29, 0);
            (20, 10): qmod_8_set(30, 0);
            (20, 11): qmod_8_set(31, 0);
            (20, 12): qmod_8_set(0, 0);
            (20, 13): qmod_8_set(1, 0);
            (20, 14): qmod_8_set(2, 0);
            (20, 15): qmod_8_set(3, 0);
            (20, 16): qmod_8_set(4, 0);
            (20, 17): qmod_8_set(5, 0);
            (20, 18): qmod_8_set(6, 0);
            (20, 19): qmod_8_set(7, 0);
            (20, 20): qmod_8_set(8, 0);
            (20, 21): qmod_8_set(9, 0);
            (20, 22): qmod_8_set(10, 0);
            (20, 23): qmod_8_set(11, 0);
            (20, 24): qmod_8_set(12, 0);
            (20, 25): qmod_8_set(13, 0);
            (20, 26): qmod_8_set(14, 0);
            (20, 27): qmod_8_set(15, 0);
            (20, 28): qmod_8_set(16, 0);
            (20, 29): qmod_8_set(17, 0);
            (20, 30): qmod_8_set(18, 0);
            (20, 31): qmod_8_set(19, 0);
            (21, 0): qmod_8_set(21, 1);
            (21, 1): qmod_8_set(22, 0);
            (21, 2): qmod_8_set(23, 0);
            (21, 3): qmod_8_set(24, 0);
            (21, 4): qmod_8_set(25, 0);
            (21, 5): qmod_8_set(26, 0);
            (21, 6): qmod_8_set(27, 0);
            (21, 7): qmod_8_set(28, 0);
            (21, 8): qmod_8_set(29, 0);
            (21, 9): qmod_8_set(30, 0);
            (21, 10): qmod_8_set(31, 0);
            (21, 11): qmod_8_set(0, 0);
            (21, 12): qmod_8_set(1, 0);
            (21, 13): qmod_8_set(2, 0);
            (21, 14): qmod_8_set(3, 0);
            (21, 15): qmod_8_set(4, 0);
            (21, 16): qmod_8_set(5, 0);
            (21, 17): qmod_8_set(6, 0);
            (21, 18): qmod_8_set(7, 0);
            (21, 19): qmod_8_set(8, 0);
            (21, 20): qmod_8_set(9, 0);
            (21, 21): qmod_8_set(10, 0);
            (21, 22): qmod_8_set(11, 0);
            (21, 23): qmod_8_set(12, 0);
            (21, 24): qmod_8_set(13, 0);
            (21, 25): qmod_8_set(14, 0);
            (21, 26): qmod_8_set(15, 0);
            (21, 27): qmod_8_set(16, 0);
            (21, 28): qmod_8_set(17, 0);
            (21, 29): qmod_8_set(18, 0);
            (21, 30): qmod_8_set(19, 0);
            (21, 31): qmod_8_set(20, 0);
            (22, 0): qmod_8_set(22, 1);
            (22, 1): qmod_8_set(23, 0);
            (22, 2): qmod_8_set(24, 0);
            (22, 3): qmod_8_set(25, 0);
            (22, 4): qmod_8_set(26, 0);
            (22, 5): qmod_8_set(27, 0);
            (22, 6): qmod_8_set(28, 0);
            (22, 7): qmod_8_set(29, 0);
            (22, 8): qmod_8_set(30, 0);
            (22, 9): qmod_8_set(31, 0);
            (22, 10): qmod_8_set(0, 0);
            (22, 11): qmod_8_set(1, 0);
            (22, 12): qmod_8_set(2, 0);
            (22, 13): qmod_8_set(3, 0);
            (22, 14): qmod_8_set(4, 0);
            (22, 15): qmod_8_set(5, 0);
            (22, 16): qmod_8_set(6, 0);
            (22, 17): qmod_8_set(7, 0);
            (22, 18): qmod_8_set(8, 0);
            (22, 19): qmod_8_set(9, 0);
            (22, 20): qmod_8_set(10, 0);
            (22, 21): qmod_8_set(11, 0);
            (22, 22): qmod_8_set(12, 0);
            (22, 23): qmod_8_set(13, 0);
            (22, 24): qmod_8_set(14, 0);
            (22, 25): qmod_8_set(15, 0);
            (22, 26): qmod_8_set(16, 0);
            (22, 27): qmod_8_set(17, 0);
            (22, 28): qmod_8_set(18, 0);
            (22, 29): qmod_8_set(19, 0);
            (22, 30): qmod_8_set(20, 0);
            (22, 31): qmod_8_set(21, 0);
            (23, 0): qmod_8_set(23, 1);
            (23, 1): qmod_8_set(24, 0);
            (23, 2): qmod_8_set(25, 0);
            (23, 3): qmod_8_set(26, 0);
            (23, 4): qmod_8_set(27, 0);
            (23, 5): qmod_8_set(28, 0);
            (23, 6): qmod_8_set(29, 0);
            (23, 7): qmod_8_set(30, 0);
            (23, 8): qmod_8_set(31, 0);
            (23, 9): qmod_8_set(0, 0);
            (23, 10): qmod_8_set(1, 0);
            (23, 11): qmod_8_set(2, 0);
            (23, 12): qmod_8_set(3, 0);
            (23, 13): qmod_8_set(4, 0);
            (23, 14): qmod_8_set(5, 0);
            (23, 15): qmod_8_set(6, 0);
            (23, 16): qmod_8_set(7, 0);
            (23, 17): qmod_8_set(8, 0);
            (23, 18): qmod_8_set(9, 0);
            (23, 19): qmod_8_set(10, 0);
            (23, 20): qmod_8_set(11, 0);
            (23, 21): qmod_8_set(12, 0);
            (23, 22): qmod_8_set(13, 0);
            (23, 23): qmod_8_set(14, 0);
            (23, 24): qmod_8_set(15, 0);
            (23, 25): qmod_8_set(16, 0);
            (23, 26): qmod_8_set(17, 0);
            (23, 27): qmod_8_set(18, 0);
            (23, 28): qmod_8_set(19, 0);
            (23, 29): qmod_8_set(20, 0);
            (23, 30): qmod_8_set(21, 0);
            (23, 31): qmod_8_set(22, 0);
            (24, 0): qmod_8_set(24, 1);
            (24, 1): qmod_8_set(25, 0);
            (24, 2): qmod_8_set(26, 0);
            (24, 3): qmod_8_set(27, 0);
            (24, 4): qmod_8_set(28, 0);
            (24, 5): qmod_8_set(29, 0);
            (24, 6): qmod_8_set(30, 0);
            (24, 7): qmod_8_set(31, 0);
            (24, 8): qmod_8_set(0, 0);
            (24, 9): qmod_8_set(1, 0);
            (24, 10): qmod_8_set(2, 0);
            (24, 11): qmod_8_set(3, 0);
            (24, 12): qmod_8_set(4, 0);
            (24, 13): qmod_8_set(5, 0);
            (24, 14): qmod_8_set(6, 0);
            (24, 15): qmod_8_set(7, 0);
            (24, 16): qmod_8_set(8, 0);
            (24, 17): qmod_8_set(9, 0);
            (24, 18): qmod_8_set(10, 0);
            (24, 19): qmod_8_set(11, 0);
            (24, 20): qmod_8_set(12, 0);
            (24, 21): qmod_8_set(13, 0);
            (24, 22): qmod_8_set(14, 0);
            (24, 23): qmod_8_set(15, 0);
            (24, 24): qmod_8_set(16, 0);
            (24, 25): qmod_8_set(17, 0);
            (24, 26): qmod_8_set(18, 0);
            (24, 27): qmod_8_set(19, 0);
            (24, 28): qmod_8_set(20, 0);
            (24, 29): qmod_8_set(21, 0);
            (24, 30): qmod_8_set(22, 0);
            (24, 31): qmod_8_set(23, 0);
            (25, 0): qmod_8_set(25, 1);
            (25, 1): qmod_8_set(26, 0);
            (25, 2): qmod_8_set(27, 0);
            (25, 3): qmod_8_set(28, 0);
            (25, 4): qmod_8_set(29, 0);
            (25, 5): qmod_8_set(30, 0);
            (25, 6): qmod_8_set(31, 0);
            (25, 7): qmod_8_set(0, 0);
            (25, 8): qmod_8_set(1, 0);
            (25, 9): qmod_8_set(2, 0);
            (25, 10): qmod_8_set(3, 0);
            (25, 11): qmod_8_set(4, 0);
            (25, 12): qmod_8_set(5, 0);
            (25, 13): qmod_8_set(6, 0);
            (25, 14): qmod_8_set(7, 0);
            (25, 15): qmod_8_set(8, 0);
            (25, 16): qmod_8_set(9, 0);
            (25, 17): qmod_8_set(10, 0);
            (25, 18): qmod_8_set(11, 0);
            (25, 19): qmod_8_set(12, 0);
            (25, 20): qmod_8_set(13, 0);
            (25, 21): qmod_8_set(14, 0);
            (25, 22): qmod_8_set(15, 0);
            (25, 23): qmod_8_set(16, 0);
            (25, 24): qmod_8_set(17, 0);
            (25, 25): qmod_8_set(18, 0);
            (25, 26): qmod_8_set(19, 0);
            (25, 27): qmod_8_set(20, 0);
            (25, 28): qmod_8_set(21, 0);
            (25, 29): qmod_8_set(22, 0);
            (25, 30): qmod_8_set(23, 0);
            (25, 31): qmod_8_set(24, 0);
            (26, 0): qmod_8_set(26, 1);
            (26, 1): qmod_8_set(27, 0);
            (26, 2): qmod_8_set(28, 0);
            (26, 3): qmod_8_set(29, 0);
            (26, 4): qmod_8_set(30, 0);
            (26, 5): qmod_8_set(31, 0);
            (26, 6): qmod_8_set(0, 0);
            (26, 7): qmod_8_set(1, 0);
            (26, 8): qmod_8_set(2, 0);
            (26, 9): qmod_8_set(3, 0);
            (26, 10): qmod_8_set(4, 0);
            (26, 11): qmod_8_set(5, 0);
            (26, 12): qmod_8_set(6, 0);
            (26, 13): qmod_8_set(7, 0);
            (26, 14): qmod_8_set(8, 0);
            (26, 15): qmod_8_set(9, 0);
            (26, 16): qmod_8_set(10, 0);
            (26, 17): qmod_8_set(11, 0);
            (26, 18): qmod_8_set(12, 0);
            (26, 19): qmod_8_set(13, 0);
            (26, 20): qmod_8_set(14, 0);
            (26, 21): qmod_8_set(15, 0);
            (26, 22): qmod_8_set(16, 0);
            (26, 23): qmod_8_set(17, 0);
            (26, 24): qmod_8_set(18, 0);
            (26, 25): qmod_8_set(19, 0);
            (26, 26): qmod_8_set(20, 0);
            (26, 27): qmod_8_set(21, 0);
            (26, 28): qmod_8_set(22, 0);
            (26, 29): qmod_8_set(23, 0);
            (26, 30): qmod_8_set(24, 0);
            (26, 31): qmod_8_set(25, 0);
            (27, 0): qmod_8_set(27, 1);
            (27, 1): qmod_8_set(28, 0);
            (27, 2): qmod_8_set(29, 0);
            (27, 3): qmod_8_set(30, 0);
            (27, 4): qmod_8_set(31, 0);
            (27, 5): qmod_8_set(0, 0);
            (27, 6): qmod_8_set(1, 0);
            (27, 7): qmod_8_set(2, 0);
            (27, 8): qmod_8_set(3, 0);
            (27, 9): qmod_8_set(4, 0);
            (27, 10): qmod_8_set(5, 0);
            (27, 11): qmod_8_set(6, 0);
            (27, 12): qmod_8_set(7, 0);
            (27, 13): qmod_8_set(8, 0);
            (27, 14): qmod_8_set(9, 0);
            (27, 15): qmod_8_set(10, 0);
            (27, 16): qmod_8_set(11, 0);
            (27, 17): qmod_8_set(12, 0);
            (27, 18): qmod_8_set(13, 0);
            (27, 19): qmod_8_set(14, 0);
            (27, 20): qmod_8_set(15, 0);
            (27, 21): qmod_8_set(16, 0);
            (27, 22): qmod_8_set(17, 0);
            (27, 23): qmod_8_set(18, 0);
            (27, 24): qmod_8_set(19, 0);
            (27, 25): qmod_8_set(20, 0);
            (27, 26): qmod_8_set(21, 0);
            (27, 27): qmod_8_set(22, 0);
            (27, 28): qmod_8_set(23, 0);
            (27, 29): qmod_8_set(24, 0);
            (27, 30): qmod_8_set(25, 0);
            (27, 31): qmod_8_set(26, 0);
            (28, 0): qmod_8_set(28, 1);
            (28, 1): qmod_8_set(29, 0);
            (28, 2): qmod_8_set(30, 0);
            (28, 3): qmod_8_set(31, 0);
            (28, 4): qmod_8_set(0, 0);
            (28, 5): qmod_8_set(1, 0);
            (28, 6): qmod_8_set(2, 0);
            (28, 7): qmod_8_set(3, 0);
            (28, 8): qmod_8_set(4, 0);
            (28, 9): qmod_8_set(5, 0);
            (28, 10): qmod_8_set(6, 0);
            (28, 11): qmod_8_set(7, 0);
            (28, 12): qmod_8_set(8, 0);
            (28, 13): qmod_8_set(9, 0);
            (28, 14): qmod_8_set(10, 0);
            (28, 15): qmod_8_set(11, 0);
            (28, 16): qmod_8_set(12, 0);
            (28, 17): qmod_8_set(13, 0);
            (28, 18): qmod_8_set(14, 0);
            (28, 19): qmod_8_set(15, 0);
            (28, 20): qmod_8_set(16, 0);
            (28, 21): qmod_8_set(17, 0);
            (28, 22): qmod_8_set(18, 0);
            (28, 23): qmod_8_set(19, 0);
            (28, 24): qmod_8_set(20, 0);
            (28, 25): qmod_8_set(21, 0);
            (28, 26): qmod_8_set(22, 0);
            (28, 27): qmod_8_set(23, 0);
            (28, 28): qmod_8_set(24, 0);
            (28, 29): qmod_8_set(25, 0);
            (28, 30): qmod_8_set(26, 0);
            (28, 31): qmod_8_set(27, 0);
            (29, 0): qmod_8_set(29, 1);
            (29, 1): qmod_8_set(30, 0);
            (29, 2): qmod_8_set(31, 0);
            (29, 3): qmod_8_set(0, 0);
            (29, 4): qmod_8_set(1, 0);
            (29, 5): qmod_8_set(2, 0);
            (29, 6): qmod_8_set(3, 0);
            (29, 7): qmod_8_set(4, 0);
            (29, 8): qmod_8_set(5, 0);
            (29, 9): qmod_8_set(6, 0);
            (29, 10): qmod_8_set(7, 0);
            (29, 11): qmod_8_set(8, 0);
            (29, 12): qmod_8_set(9, 0);
            (29, 13): qmod_8_set(10, 0);
            (29, 14): qmod_8_set(11, 0);
            (29, 15): qmod_8_set(12, 0);
            (29, 16): qmod_8_set(13, 0);
            (29, 17): qmod_8_set(14, 0);
            (29, 18): qmod_8_set(15, 0);
            (29, 19): qmod_8_set(16, 0);
            (29, 20): qmod_8_set(17, 0);
            (29, 21): qmod_8_set(18, 0);
            (29, 22): qmod_8_set(19, 0);
            (29, 23): qmod_8_set(20, 0);
            (29, 24): qmod_8_set(21, 0);
            (29, 25): qmod_8_set(22, 0);
            (29, 26): qmod_8_set(23, 0);
            (29, 27): qmod_8_set(24, 0);
            (29, 28): qmod_8_set(25, 0);
            (29, 29): qmod_8_set(26, 0);
            (29, 30): qmod_8_set(27, 0);
            (29, 31): qmod_8_set(28, 0);
            (30, 0): qmod_8_set(30, 1);
            (30, 1): qmod_8_set(31, 0);
            (30, 2): qmod_8_set(0, 0);
            (30, 3): qmod_8_set(1, 0);
            (30, 4): qmod_8_set(2, 0);
            (30, 5): qmod_8_set(3, 0);
            (30, 6): qmod_8_set(4, 0);
            (30, 7): qmod_8_set(5, 0);
            (30, 8): qmod_8_set(6, 0);
            (30, 9): qmod_8_set(7, 0);
            (30, 10): qmod_8_set(8, 0);
            (30, 11): qmod_8_set(9, 0);
            (30, 12): qmod_8_set(10, 0);
            (30, 13): qmod_8_set(11, 0);
            (30, 14): qmod_8_set(12, 0);
            (30, 15): qmod_8_set(13, 0);
            (30, 16): qmod_8_set(14, 0);
            (30, 17): qmod_8_set(15, 0);
            (30, 18): qmod_8_set(16, 0);
            (30, 19): qmod_8_set(17, 0);
            (30, 20): qmod_8_set(18, 0);
            (30, 21): qmod_8_set(19, 0);
            (30, 22): qmod_8_set(20, 0);
            (30, 23): qmod_8_set(21, 0);
            (30, 24): qmod_8_set(22, 0);
            (30, 25): qmod_8_set(23, 0);
            (30, 26): qmod_8_set(24, 0);
            (30, 27): qmod_8_set(25, 0);
            (30, 28): qmod_8_set(26, 0);
            (30, 29): qmod_8_set(27, 0);
            (30, 30): qmod_8_set(28, 0);
            (30, 31): qmod_8_set(29, 0);
            (31, 0): qmod_8_set(31, 1);
            (31, 1): qmod_8_set(0, 0);
            (31, 2): qmod_8_set(1, 0);
            (31, 3): qmod_8_set(2, 0);
            (31, 4): qmod_8_set(3, 0);
            (31, 5): qmod_8_set(4, 0);
            (31, 6): qmod_8_set(5, 0);
            (31, 7): qmod_8_set(6, 0);
            (31, 8): qmod_8_set(7, 0);
            (31, 9): qmod_8_set(8, 0);
            (31, 10): qmod_8_set(9, 0);
            (31, 11): qmod_8_set(10, 0);
            (31, 12): qmod_8_set(11, 0);
            (31, 13): qmod_8_set(12, 0);
            (31, 14): qmod_8_set(13, 0);
            (31, 15): qmod_8_set(14, 0);
            (31, 16): qmod_8_set(15, 0);
            (31, 17): qmod_8_set(16, 0);
            (31, 18): qmod_8_set(17, 0);
            (31, 19): qmod_8_set(18, 0);
            (31, 20): qmod_8_set(19, 0);
            (31, 21): qmod_8_set(20, 0);
            (31, 22): qmod_8_set(21, 0);
            (31, 23): qmod_8_set(22, 0);
            (31, 24): qmod_8_set(23, 0);
            (31, 25): qmod_8_set(24, 0);
            (31, 26): qmod_8_set(25, 0);
            (31, 27): qmod_8_set(26, 0);
            (31, 28): qmod_8_set(27, 0);
            (31, 29): qmod_8_set(28, 0);
            (31, 30): qmod_8_set(29, 0);
            (31, 31): qmod_8_set(30, 0);
        }
        size = 1024;
    }
    Hash<qidx_t>(HashAlgorithm_t.IDENTITY) qidx_8_hash;
    action slot_8_ok() { meta.alt_ok_8 = meta.alt_pre_8 & meta.alt_unfull_8; }
    /* copy 8's one access per packet, by what the packet is (q_op): a front-panel packet
     * tests slot 8's queue, a pause clears a drained queue, a port-down or queue-state
     * update sets it. One table per copy, so each stage's stateful ALUs take four copies. */
    action q_8_test() { meta.alt_unfull_8 = qstate_8_test.execute(meta.alt_i_8); }
    action q_8_set() { qstate_8_set.execute(meta.alt_i_8); }
    action q_8_clear() { qstate_8_clear.execute(meta.alt_i_8); }
    table qstate_8_op {
        key = { meta.q_op: exact; }
        actions = { q_8_test; q_8_set; q_8_clear; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            Q_TEST: q_8_test();
            Q_SET: q_8_set();
            Q_CLEAR: q_8_clear();
        }
        size = 3;
    }
    action slot_8_i() { meta.alt_i_8 = qidx_8_hash.get({meta.alt_up_8, meta.alt_q_8}); }
    /* slot 8's uplink masked down by the control plane (the config's `down`): the slot
     * counts as Full (as bmv2: a failed uplink is passed over). One ternary entry per uplink
     * tests its bit of the mask (no shift of the mask by a packet's field). */
    action slot_8_down() { meta.alt_dn_8 = 1; }
    table down_8 {
        key = {
            meta.alt_up_8: exact @name("uplink");
            meta.down_cfg: ternary @name("down");
        }
        actions = { slot_8_down; NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0x1 &&& 0x1): slot_8_down();
            (1, 0x2 &&& 0x2): slot_8_down();
            (2, 0x4 &&& 0x4): slot_8_down();
            (3, 0x8 &&& 0x8): slot_8_down();
            (4, 0x10 &&& 0x10): slot_8_down();
            (5, 0x20 &&& 0x20): slot_8_down();
            (6, 0x40 &&& 0x40): slot_8_down();
            (7, 0x80 &&& 0x80): slot_8_down();
            (8, 0x100 &&& 0x100): slot_8_down();
            (9, 0x200 &&& 0x200): slot_8_down();
            (10, 0x400 &&& 0x400): slot_8_down();
            (11, 0x800 &&& 0x800): slot_8_down();
            (12, 0x1000 &&& 0x1000): slot_8_down();
            (13, 0x2000 &&& 0x2000): slot_8_down();
            (14, 0x4000 &&& 0x4000): slot_8_down();
            (15, 0x8000 &&& 0x8000): slot_8_down();
            (16, 0x10000 &&& 0x10000): slot_8_down();
            (17, 0x20000 &&& 0x20000): slot_8_down();
            (18, 0x40000 &&& 0x40000): slot_8_down();
            (19, 0x80000 &&& 0x80000): slot_8_down();
            (20, 0x100000 &&& 0x100000): slot_8_down();
            (21, 0x200000 &&& 0x200000): slot_8_down();
            (22, 0x400000 &&& 0x400000): slot_8_down();
            (23, 0x800000 &&& 0x800000): slot_8_down();
            (24, 0x1000000 &&& 0x1000000): slot_8_down();
            (25, 0x2000000 &&& 0x2000000): slot_8_down();
            (26, 0x4000000 &&& 0x4000000): slot_8_down();
            (27, 0x8000000 &&& 0x8000000): slot_8_down();
            (28, 0x10000000 &&& 0x10000000): slot_8_down();
            (29, 0x20000000 &&& 0x20000000): slot_8_down();
            (30, 0x40000000 &&& 0x40000000): slot_8_down();
            (31, 0x80000000 &&& 0x80000000): slot_8_down();
        }
        size = 32;
    }
    Register<bit<8>, qidx_t>(8192, 0) qstate_9;
    /* the one-shot test: 1 if the queue is Unfull */
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_9) qstate_9_test = {
        void apply(inout bit<8> v, out bit<8> rv) {
            rv = 0;
            if (v == 0) { rv = 1; }
        }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_9) qstate_9_set = {
        void apply(inout bit<8> v) { v = 1; }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_9) qstate_9_clear = {
        void apply(inout bit<8> v) { v = 0; }
    };
    /* slot 9: queue = (active + wait) mod Q by one table keyed by both (no
     * adder and no modulo on the way to the register); index = uplink * 256 + queue by an
     * identity hash (no shifts) */
    action qmod_9_set(queue_t q, bit<1> act) {
        meta.alt_q_9 = q;
        meta.alt_act_9 = act;       // wait 0: the active queue
    }
    table qmod_9 {
        key = {
            meta.active_q_2: exact @name("active");
            meta.alt_wait_9: exact @name("wait");
        }
        actions = { qmod_9_set; }
        const entries = {
            (0, 0): qmod_9_set(0, 1);
            (0, 1): qmod_9_set(1, 0);
            (0, 2): qmod_9_set(2, 0);
            (0, 3): qmod_9_set(3, 0);
            (0, 4): qmod_9_set(4, 0);
            (0, 5): qmod_9_set(5, 0);
            (0, 6): qmod_9_set(6, 0);
            (0, 7): qmod_9_set(7, 0);
            (0, 8): qmod_9_set(8, 0);
            (0, 9): qmod_9_set(9, 0);
            (0, 10): qmod_9_set(10, 0);
            (0, 11): qmod_9_set(11, 0);
            (0, 12): qmod_9_set(12, 0);
            (0, 13): qmod_9_set(13, 0);
            (0, 14): qmod_9_set(14, 0);
            (0, 15): qmod_9_set(15, 0);
            (0, 16): qmod_9_set(16, 0);
            (0, 17): qmod_9_set(17, 0);
            (0, 18): qmod_9_set(18, 0);
            (0, 19): qmod_9_set(19, 0);
            (0, 20): qmod_9_set(20, 0);
            (0, 21): qmod_9_set(21, 0);
            (0, 22): qmod_9_set(22, 0);
            (0, 23): qmod_9_set(23, 0);
            (0, 24): qmod_9_set(24, 0);
            (0, 25): qmod_9_set(25, 0);
            (0, 26): qmod_9_set(26, 0);
            (0, 27): qmod_9_set(27, 0);
            (0, 28): qmod_9_set(28, 0);
            (0, 29): qmod_9_set(29, 0);
            (0, 30): qmod_9_set(30, 0);
            (0, 31): qmod_9_set(31, 0);
            (1, 0): qmod_9_set(1, 1);
            (1, 1): qmod_9_set(2, 0);
            (1, 2): qmod_9_set(3, 0);
            (1, 3): qmod_9_set(4, 0);
            (1, 4): qmod_9_set(5, 0);
            (1, 5): qmod_9_set(6, 0);
            (1, 6): qmod_9_set(7, 0);
            (1, 7): qmod_9_set(8, 0);
            (1, 8): qmod_9_set(9, 0);
            (1, 9): qmod_9_set(10, 0);
            (1, 10): qmod_9_set(11, 0);
            (1, 11): qmod_9_set(12, 0);
            (1, 12): qmod_9_set(13, 0);
            (1, 13): qmod_9_set(14, 0);
            (1, 14): qmod_9_set(15, 0);
            (1, 15): qmod_9_set(16, 0);
            (1, 16): qmod_9_set(17, 0);
            (1, 17): qmod_9_set(18, 0);
            (1, 18): qmod_9_set(19, 0);
            (1, 19): qmod_9_set(20, 0);
            (1, 20): qmod_9_set(21, 0);
            (1, 21): qmod_9_set(22, 0);
            (1, 22): qmod_9_set(23, 0);
            (1, 23): qmod_9_set(24, 0);
            (1, 24): qmod_9_set(25, 0);
            (1, 25): qmod_9_set(26, 0);
            (1, 26): qmod_9_set(27, 0);
            (1, 27): qmod_9_set(28, 0);
            (1, 28): qmod_9_set(29, 0);
            (1, 29): qmod_9_set(30, 0);
            (1, 30): qmod_9_set(31, 0);
            (1, 31): qmod_9_set(0, 0);
            (2, 0): qmod_9_set(2, 1);
            (2, 1): qmod_9_set(3, 0);
            (2, 2): qmod_9_set(4, 0);
            (2, 3): qmod_9_set(5, 0);
            (2, 4): qmod_9_set(6, 0);
            (2, 5): qmod_9_set(7, 0);
            (2, 6): qmod_9_set(8, 0);
            (2, 7): qmod_9_set(9, 0);
            (2, 8): qmod_9_set(10, 0);
            (2, 9): qmod_9_set(11, 0);
            (2, 10): qmod_9_set(12, 0);
            (2, 11): qmod_9_set(13, 0);
            (2, 12): qmod_9_set(14, 0);
            (2, 13): qmod_9_set(15, 0);
            (2, 14): qmod_9_set(16, 0);
            (2, 15): qmod_9_set(17, 0);
            (2, 16): qmod_9_set(18, 0);
            (2, 17): qmod_9_set(19, 0);
            (2, 18): qmod_9_set(20, 0);
            (2, 19): qmod_9_set(21, 0);
            (2, 20): qmod_9_set(22, 0);
            (2, 21): qmod_9_set(23, 0);
            (2, 22): qmod_9_set(24, 0);
            (2, 23): qmod_9_set(25, 0);
            (2, 24): qmod_9_set(26, 0);
            (2, 25): qmod_9_set(27, 0);
            (2, 26): qmod_9_set(28, 0);
            (2, 27): qmod_9_set(29, 0);
            (2, 28): qmod_9_set(30, 0);
            (2, 29): qmod_9_set(31, 0);
            (2, 30): qmod_9_set(0, 0);
            (2, 31): qmod_9_set(1, 0);
            (3, 0): qmod_9_set(3, 1);
            (3, 1): qmod_9_set(4, 0);
            (3, 2): qmod_9_set(5, 0);
            (3, 3): qmod_9_set(6, 0);
            (3, 4): qmod_9_set(7, 0);
            (3, 5): qmod_9_set(8, 0);
            (3, 6): qmod_9_set(9, 0);
            (3, 7): qmod_9_set(10, 0);
            (3, 8): qmod_9_set(11, 0);
            (3, 9): qmod_9_set(12, 0);
            (3, 10): qmod_9_set(13, 0);
            (3, 11): qmod_9_set(14, 0);
            (3, 12): qmod_9_set(15, 0);
            (3, 13): qmod_9_set(16, 0);
            (3, 14): qmod_9_set(17, 0);
            (3, 15): qmod_9_set(18, 0);
            (3, 16): qmod_9_set(19, 0);
            (3, 17): qmod_9_set(20, 0);
            (3, 18): qmod_9_set(21, 0);
            (3, 19): qmod_9_set(22, 0);
            (3, 20): qmod_9_set(23, 0);
            (3, 21): qmod_9_set(24, 0);
            (3, 22): qmod_9_set(25, 0);
            (3, 23): qmod_9_set(26, 0);
            (3, 24): qmod_9_set(27, 0);
            (3, 25): qmod_9_set(28, 0);
            (3, 26): qmod_9_set(29, 0);
            (3, 27): qmod_9_set(30, 0);
            (3, 28): qmod_9_set(31, 0);
            (3, 29): qmod_9_set(0, 0);
            (3, 30): qmod_9_set(1, 0);
            (3, 31): qmod_9_set(2, 0);
            (4, 0): qmod_9_set(4, 1);
            (4, 1): qmod_9_set(5, 0);
            (4, 2): qmod_9_set(6, 0);
            (4, 3): qmod_9_set(7, 0);
            (4, 4): qmod_9_set(8, 0);
            (4, 5): qmod_9_set(9, 0);
            (4, 6): qmod_9_set(10, 0);
            (4, 7): qmod_9_set(11, 0);
            (4, 8): qmod_9_set(12, 0);
            (4, 9): qmod_9_set(13, 0);
            (4, 10): qmod_9_set(14, 0);
            (4, 11): qmod_9_set(15, 0);
            (4, 12): qmod_9_set(16, 0);
            (4, 13): qmod_9_set(17, 0);
            (4, 14): qmod_9_set(18, 0);
            (4, 15): qmod_9_set(19, 0);
            (4, 16): qmod_9_set(20, 0);
            (4, 17): qmod_9_set(21, 0);
            (4, 18): qmod_9_set(22, 0);
            (4, 19): qmod_9_set(23, 0);
            (4, 20): qmod_9_set(24, 0);
            (4, 21): qmod_9_set(25, 0);
            (4, 22): qmod_9_set(26, 0);
            (4, 23): qmod_9_set(27, 0);
            (4, 24): qmod_9_set(28, 0);
            (4, 25): qmod_9_set(29, 0);
            (4, 26): qmod_9_set(30, 0);
            (4, 27): qmod_9_set(31, 0);
            (4, 28): qmod_9_set(0, 0);
            (4, 29): qmod_9_set(1, 0);
            (4, 30): qmod_9_set(2, 0);
            (4, 31): qmod_9_set(3, 0);
            (5, 0): qmod_9_set(5, 1);
            (5, 1): qmod_9_set(6, 0);
            (5, 2): qmod_9_set(7, 0);
            (5, 3): qmod_9_set(8, 0);
            (5, 4): qmod_9_set(9, 0);
            (5, 5): qmod_9_set(10, 0);
            (5, 6): qmod_9_set(11, 0);
            (5, 7): qmod_9_set(12, 0);
            (5, 8): qmod_9_set(13, 0);
            (5, 9): qmod_9_set(14, 0);
            (5, 10): qmod_9_set(15, 0);
            (5, 11): qmod_9_set(16, 0);
            (5, 12): qmod_9_set(17, 0);
            (5, 13): qmod_9_set(18, 0);
            (5, 14): qmod_9_set(19, 0);
            (5, 15): qmod_9_set(20, 0);
            (5, 16): qmod_9_set(21, 0);
            (5, 17): qmod_9_set(22, 0);
            (5, 18): qmod_9_set(23, 0);
            (5, 19): qmod_9_set(24, 0);
            (5, 20): qmod_9_set(25, 0);
            (5, 21): qmod_9_set(26, 0);
            (5, 22): qmod_9_set(27, 0);
            (5, 23): qmod_9_set(28, 0);
            (5, 24): qmod_9_set(29, 0);
            (5, 25): qmod_9_set(30, 0);
            (5, 26): qmod_9_set(31, 0);
            (5, 27): qmod_9_set(0, 0);
            (5, 28): qmod_9_set(1, 0);
            (5, 29): qmod_9_set(2, 0);
            (5, 30): qmod_9_set(3, 0);
            (5, 31): qmod_9_set(4, 0);
            (6, 0): qmod_9_set(6, 1);
            (6, 1): qmod_9_set(7, 0);
            (6, 2): qmod_9_set(8, 0);
            (6, 3): qmod_9_set(9, 0);
            (6, 4): qmod_9_set(10, 0);
            (6, 5): qmod_9_set(11, 0);
            (6, 6): qmod_9_set(12, 0);
            (6, 7): qmod_9_set(13, 0);
            (6, 8): qmod_9_set(14, 0);
            (6, 9): qmod_9_set(15, 0);
            (6, 10): qmod_9_set(16, 0);
            (6, 11): qmod_9_set(17, 0);
            (6, 12): qmod_9_set(18, 0);
            (6, 13): qmod_9_set(19, 0);
            (6, 14): qmod_9_set(20, 0);
            (6, 15): qmod_9_set(21, 0);
            (6, 16): qmod_9_set(22, 0);
            (6, 17): qmod_9_set(23, 0);
            (6, 18): qmod_9_set(24, 0);
            (6, 19): qmod_9_set(25, 0);
            (6, 20): qmod_9_set(26, 0);
            (6, 21): qmod_9_set(27, 0);
            (6, 22): qmod_9_set(28, 0);
            (6, 23): qmod_9_set(29, 0);
            (6, 24): qmod_9_set(30, 0);
            (6, 25): qmod_9_set(31, 0);
            (6, 26): qmod_9_set(0, 0);
            (6, 27): qmod_9_set(1, 0);
            (6, 28): qmod_9_set(2, 0);
            (6, 29): qmod_9_set(3, 0);
            (6, 30): qmod_9_set(4, 0);
            (6, 31): qmod_9_set(5, 0);
            (7, 0): qmod_9_set(7, 1);
            (7, 1): qmod_9_set(8, 0);
            (7, 2): qmod_9_set(9, 0);
            (7, 3): qmod_9_set(10, 0);
            (7, 4): qmod_9_set(11, 0);
            (7, 5): qmod_9_set(12, 0);
            (7, 6): qmod_9_set(13, 0);
            (7, 7): qmod_9_set(14, 0);
            (7, 8): qmod_9_set(15, 0);
            (7, 9): qmod_9_set(16, 0);
            (7, 10): qmod_9_set(17, 0);
            (7, 11): qmod_9_set(18, 0);
            (7, 12): qmod_9_set(19, 0);
            (7, 13): qmod_9_set(20, 0);
            (7, 14): qmod_9_set(21, 0);
            (7, 15): qmod_9_set(22, 0);
            (7, 16): qmod_9_set(23, 0);
            (7, 17): qmod_9_set(24, 0);
            (7, 18): qmod_9_set(25, 0);
            (7, 19): qmod_9_set(26, 0);
            (7, 20): qmod_9_set(27, 0);
            (7, 21): qmod_9_set(28, 0);
            (7, 22): qmod_9_set(29, 0);
            (7, 23): qmod_9_set(30, 0);
            (7, 24): qmod_9_set(31, 0);
            (7, 25): qmod_9_set(0, 0);
            (7, 26): qmod_9_set(1, 0);
            (7, 27): qmod_9_set(2, 0);
            (7, 28): qmod_9_set(3, 0);
            (7, 29): qmod_9_set(4, 0);
            (7, 30): qmod_9_set(5, 0);
            (7, 31): qmod_9_set(6, 0);
            (8, 0): qmod_9_set(8, 1);
            (8, 1): qmod_9_set(9, 0);
            (8, 2): qmod_9_set(10, 0);
            (8, 3): qmod_9_set(11, 0);
            (8, 4): qmod_9_set(12, 0);
            (8, 5): qmod_9_set(13, 0);
            (8, 6): qmod_9_set(14, 0);
            (8, 7): qmod_9_set(15, 0);
            (8, 8): qmod_9_set(16, 0);
            (8, 9): qmod_9_set(17, 0);
            (8, 10): qmod_9_set(18, 0);
            (8, 11): qmod_9_set(19, 0);
            (8, 12): qmod_9_set(20, 0);
            (8, 13): qmod_9_set(21, 0);
            (8, 14): qmod_9_set(22, 0);
            (8, 15): qmod_9_set(23, 0);
            (8, 16): qmod_9_set(24, 0);
            (8, 17): qmod_9_set(25, 0);
            (8, 18): qmod_9_set(26, 0);
            (8, 19): qmod_9_set(27, 0);
            (8, 20): qmod_9_set(28, 0);
            (8, 21): qmod_9_set(29, 0);
            (8, 22): qmod_9_set(30, 0);
            (8, 23): qmod_9_set(31, 0);
            (8, 24): qmod_9_set(0, 0);
            (8, 25): qmod_9_set(1, 0);
            (8, 26): qmod_9_set(2, 0);
            (8, 27): qmod_9_set(3, 0);
            (8, 28): qmod_9_set(4, 0);
            (8, 29): qmod_9_set(5, 0);
            (8, 30): qmod_9_set(6, 0);
            (8, 31): qmod_9_set(7, 0);
            (9, 0): qmod_9_set(9, 1);
            (9, 1): qmod_9_set(10, 0);
            (9, 2): qmod_9_set(11, 0);
            (9, 3): qmod_9_set(12, 0);
            (9, 4): qmod_9_set(13, 0);
            (9, 5): qmod_9_set(14, 0);
            (9, 6): qmod_9_set(15, 0);
            (9, 7): qmod_9_set(16, 0);
            (9, 8): qmod_9_set(17, 0);
            (9, 9): qmod_9_set(18, 0);
            (9, 10): qmod_9_set(19, 0);
            (9, 11): qmod_9_set(20, 0);
            (9, 12): qmod_9_set(21, 0);
            (9, 13): qmod_9_set(22, 0);
            (9, 14): qmod_9_set(23, 0);
            (9, 15): qmod_9_set(24, 0);
            (9, 16): qmod_9_set(25, 0);
            (9, 17): qmod_9_set(26, 0);
            (9, 18): qmod_9_set(27, 0);
            (9, 19): qmod_9_set(28, 0);
            (9, 20): qmod_9_set(29, 0);
            (9, 21): qmod_9_set(30, 0);
            (9, 22): qmod_9_set(31, 0);
            (9, 23): qmod_9_set(0, 0);
            (9, 24): qmod_9_set(1, 0);
            (9, 25): qmod_9_set(2, 0);
            (9, 26): qmod_9_set(3, 0);
            (9, 27): qmod_9_set(4, 0);
            (9, 28): qmod_9_set(5, 0);
            (9, 29): qmod_9_set(6, 0);
            (9, 30): qmod_9_set(7, 0);
            (9, 31): qmod_9_set(8, 0);
            (10, 0): qmod_9_set(10, 1);
            (10, 1): qmod_9_set(11, 0);
            (10, 2): qmod_9_set(12, 0);
            (10, 3): qmod_9_set(13, 0);
            (10, 4): qmod_9_set(14, 0);
            (10, 5): qmod_9_set(15, 0);
            (10, 6): qmod_9_set(16, 0);
            (10, 7): qmod_9_set(17, 0);
            (10, 8): qmod_9_set(18, 0);
            (10, 9): qmod_9_set(19, 0);
            (10, 10): qmod_9_set(20, 0);
            (10, 11): qmod_9_set(21, 0);
            (10, 12): qmod_9_set(22, 0);
            (10, 13): qmod_9_set(23, 0);
            (10, 14): qmod_9_set(24, 0);
            (10, 15): qmod_9_set(25, 0);
            (10, 16): qmod_9_set(26, 0);
            (10, 17): qmod_9_set(27, 0);
            (10, 18): qmod_9_set(28, 0);
            (10, 19): qmod_9_set(29, 0);
            (10, 20): qmod_9_set(30, 0);
            (10, 21): qmod_9_set(31, 0);
            (10, 22): qmod_9_set(0, 0);
            (10, 23): qmod_9_set(1, 0);
            (10, 24): qmod_9_set(2, 0);
            (10, 25): qmod_9_set(3, 0);
            (10, 26): qmod_9_set(4, 0);
            (10, 27): qmod_9_set(5, 0);
            (10, 28): qmod_9_set(6, 0);
            (10, 29): qmod_9_set(7, 0);
            (10, 30): qmod_9_set(8, 0);
            (10, 31): qmod_9_set(9, 0);
            (11, 0): qmod_9_set(11, 1);
            (11, 1): qmod_9_set(12, 0);
            (11, 2): qmod_9_set(13, 0);
            (11, 3): qmod_9_set(14, 0);
            (11, 4): qmod_9_set(15, 0);
            (11, 5): qmod_9_set(16, 0);
            (11, 6): qmod_9_set(17, 0);
            (11, 7): qmod_9_set(18, 0);
            (11, 8): qmod_9_set(19, 0);
            (11, 9): qmod_9_set(20, 0);
            (11, 10): qmod_9_set(21, 0);
            (11, 11): qmod_9_set(22, 0);
            (11, 12): qmod_9_set(23, 0);
            (11, 13): qmod_9_set(24, 0);
            (11, 14): qmod_9_set(25, 0);
            (11, 15): qmod_9_set(26, 0);
            (11, 16): qmod_9_set(27, 0);
            (11, 17): qmod_9_set(28, 0);
            (11, 18): qmod_9_set(29, 0);
            (11, 19): qmod_9_set(30, 0);
            (11, 20): qmod_9_set(31, 0);
            (11, 21): qmod_9_set(0, 0);
            (11, 22): qmod_9_set(1, 0);
            (11, 23): qmod_9_set(2, 0);
            (11, 24): qmod_9_set(3, 0);
            (11, 25): qmod_9_set(4, 0);
            (11, 26): qmod_9_set(5, 0);
            (11, 27): qmod_9_set(6, 0);
            (11, 28): qmod_9_set(7, 0);
            (11, 29): qmod_9_set(8, 0);
            (11, 30): qmod_9_set(9, 0);
            (11, 31): qmod_9_set(10, 0);
            (12, 0): qmod_9_set(12, 1);
            (12, 1): qmod_9_set(13, 0);
            (12, 2): qmod_9_set(14, 0);
            (12, 3): qmod_9_set(15, 0);
            (12, 4): qmod_9_set(16, 0);
            (12, 5): qmod_9_set(17, 0);
            (12, 6): qmod_9_set(18, 0);
            (12, 7): qmod_9_set(19, 0);
            (12, 8): qmod_9_set(20, 0);
            (12, 9): qmod_9_set(21, 0);
            (12, 10): qmod_9_set(22, 0);
            (12, 11): qmod_9_set(23, 0);
            (12, 12): qmod_9_set(24, 0);
            (12, 13): qmod_9_set(25, 0);
            (12, 14): qmod_9_set(26, 0);
            (12, 15): qmod_9_set(27, 0);
            (12, 16): qmod_9_set(28, 0);
            (12, 17): qmod_9_set(29, 0);
            (12, 18): qmod_9_set(30, 0);
            (12, 19): qmod_9_set(31, 0);
            (12, 20): qmod_9_set(0, 0);
            (12, 21): qmod_9_set(1, 0);
            (12, 22): qmod_9_set(2, 0);
            (12, 23): qmod_9_set(3, 0);
            (12, 24): qmod_9_set(4, 0);
            (12, 25): qmod_9_set(5, 0);
            (12, 26): qmod_9_set(6, 0);
            (12, 27): qmod_9_set(7, 0);
            (12, 28): qmod_9_set(8, 0);
            (12, 29): qmod_9_set(9, 0);
            (12, 30): qmod_9_set(10, 0);
            (12, 31): qmod_9_set(11, 0);
            (13, 0): qmod_9_set(13, 1);
            (13, 1): qmod_9_set(14, 0);
            (13, 2): qmod_9_set(15, 0);
            (13, 3): qmod_9_set(16, 0);
            (13, 4): qmod_9_set(17, 0);
            (13, 5): qmod_9_set(18, 0);
            (13, 6): qmod_9_set(19, 0);
            (13, 7): qmod_9_set(20, 0);
            (13, 8): qmod_9_set(21, 0);
            (13, 9): qmod_9_set(22, 0);
            (13, 10): qmod_9_set(23, 0);
            (13, 11): qmod_9_set(24, 0);
            (13, 12): qmod_9_set(25, 0);
            (13, 13): qmod_9_set(26, 0);
            (13, 14): qmod_9_set(27, 0);
            (13, 15): qmod_9_set(28, 0);
            (13, 16): qmod_9_set(29, 0);
            (13, 17): qmod_9_set(30, 0);
            (13, 18): qmod_9_set(31, 0);
            (13, 19): qmod_9_set(0, 0);
            (13, 20): qmod_9_set(1, 0);
            (13, 21): qmod_9_set(2, 0);
            (13, 22): qmod_9_set(3, 0);
            (13, 23): qmod_9_set(4, 0);
            (13, 24): qmod_9_set(5, 0);
            (13, 25): qmod_9_set(6, 0);
            (13, 26): qmod_9_set(7, 0);
            (13, 27): qmod_9_set(8, 0);
            (13, 28): qmod_9_set(9, 0);
            (13, 29): qmod_9_set(10, 0);
            (13, 30): qmod_9_set(11, 0);
            (13, 31): qmod_9_set(12, 0);
            (14, 0): qmod_9_set(14, 1);
            (14, 1): qmod_9_set(15, 0);
            (14, 2): qmod_9_set(16, 0);
            (14, 3): qmod_9_set(17, 0);
            (14, 4): qmod_9_set(18, 0);
            (14, 5): qmod_9_set(19, 0);
            (14, 6): qmod_9_set(20, 0);
            (14, 7): qmod_9_set(21, 0);
            (14, 8): qmod_9_set(22, 0);
            (14, 9): qmod_9_set(23, 0);
            (14, 10): qmod_9_set(24, 0);
            (14, 11): qmod_9_set(25, 0);
            (14, 12): qmod_9_set(26, 0);
            (14, 13): qmod_9_set(27, 0);
            (14, 14): qmod_9_set(28, 0);
            (14, 15): qmod_9_set(29, 0);
            (14, 16): qmod_9_set(30, 0);
            (14, 17): qmod_9_set(31, 0);
            (14, 18): qmod_9_set(0, 0);
            (14, 19): qmod_9_set(1, 0);
            (14, 20): qmod_9_set(2, 0);
            (14, 21): qmod_9_set(3, 0);
            (14, 22): qmod_9_set(4, 0);
            (14, 23): qmod_9_set(5, 0);
            (14, 24): qmod_9_set(6, 0);
            (14, 25): qmod_9_set(7, 0);
            (14, 26): qmod_9_set(8, 0);
            (14, 27): qmod_9_set(9, 0);
            (14, 28): qmod_9_set(10, 0);
            (14, 29): qmod_9_set(11, 0);
            (14, 30): qmod_9_set(12, 0);
            (14, 31): qmod_9_set(13, 0);
            (15, 0): qmod_9_set(15, 1);
            (15, 1): qmod_9_set(16, 0);
            (15, 2): qmod_9_set(17, 0);
            (15, 3): qmod_9_set(18, 0);
            (15, 4): qmod_9_set(19, 0);
            (15, 5): qmod_9_set(20, 0);
            (15, 6): qmod_9_set(21, 0);
            (15, 7): qmod_9_set(22, 0);
            (15, 8): qmod_9_set(23, 0);
            (15, 9): qmod_9_set(24, 0);
            (15, 10): qmod_9_set(25, 0);
            (15, 11): qmod_9_set(26, 0);
            (15, 12): qmod_9_set(27, 0);
            (15, 13): qmod_9_set(28, 0);
            (15, 14): qmod_9_set(29, 0);
            (15, 15): qmod_9_set(30, 0);
            (15, 16): qmod_9_set(31, 0);
            (15, 17): qmod_9_set(0, 0);
            (15, 18): qmod_9_set(1, 0);
            (15, 19): qmod_9_set(2, 0);
            (15, 20): qmod_9_set(3, 0);
            (15, 21): qmod_9_set(4, 0);
            (15, 22): qmod_9_set(5, 0);
            (15, 23): qmod_9_set(6, 0);
            (15, 24): qmod_9_set(7, 0);
            (15, 25): qmod_9_set(8, 0);
            (15, 26): qmod_9_set(9, 0);
            (15, 27): qmod_9_set(10, 0);
            (15, 28): qmod_9_set(11, 0);
            (15, 29): qmod_9_set(12, 0);
            (15, 30): qmod_9_set(13, 0);
            (15, 31): qmod_9_set(14, 0);
            (16, 0): qmod_9_set(16, 1);
            (16, 1): qmod_9_set(17, 0);
            (16, 2): qmod_9_set(18, 0);
            (16, 3): qmod_9_set(19, 0);
            (16, 4): qmod_9_set(20, 0);
            (16, 5): qmod_9_set(21, 0);
            (16, 6): qmod_9_set(22, 0);
            (16, 7): qmod_9_set(23, 0);
            (16, 8): qmod_9_set(24, 0);
            (16, 9): qmod_9_set(25, 0);
            (16, 10): qmod_9_set(26, 0);
            (16, 11): qmod_9_set(27, 0);
            (16, 12): qmod_9_set(28, 0);
            (16, 13): qmod_9_set(29, 0);
            (16, 14): qmod_9_set(30, 0);
            (16, 15): qmod_9_set(31, 0);
            (16, 16): qmod_9_set(0, 0);
            (16, 17): qmod_9_set(1, 0);
            (16, 18): qmod_9_set(2, 0);
            (16, 19): qmod_9_set(3, 0);
            (16, 20): qmod_9_set(4, 0);
            (16, 21): qmod_9_set(5, 0);
            (16, 22): qmod_9_set(6, 0);
            (16, 23): qmod_9_set(7, 0);
            (16, 24): qmod_9_set(8, 0);
            (16, 25): qmod_9_set(9, 0);
            (16, 26): qmod_9_set(10, 0);
            (16, 27): qmod_9_set(11, 0);
            (16, 28): qmod_9_set(12, 0);
            (16, 29): qmod_9_set(13, 0);
            (16, 30): qmod_9_set(14, 0);
            (16, 31): qmod_9_set(15, 0);
            (17, 0): qmod_9_set(17, 1);
            (17, 1): qmod_9_set(18, 0);
            (17, 2): qmod_9_set(19, 0);
            (17, 3): qmod_9_set(20, 0);
            (17, 4): qmod_9_set(21, 0);
            (17, 5): qmod_9_set(22, 0);
            (17, 6): qmod_9_set(23, 0);
            (17, 7): qmod_9_set(24, 0);
            (17, 8): qmod_9_set(25, 0);
            (17, 9): qmod_9_set(26, 0);
            (17, 10): qmod_9_set(27, 0);
            (17, 11): qmod_9_set(28, 0);
            (17, 12): qmod_9_set(29, 0);
            (17, 13): qmod_9_set(30, 0);
            (17, 14): qmod_9_set(31, 0);
            (17, 15): qmod_9_set(0, 0);
            (17, 16): qmod_9_set(1, 0);
            (17, 17): qmod_9_set(2, 0);
            (17, 18): qmod_9_set(3, 0);
            (17, 19): qmod_9_set(4, 0);
            (17, 20): qmod_9_set(5, 0);
            (17, 21): qmod_9_set(6, 0);
            (17, 22): qmod_9_set(7, 0);
            (17, 23): qmod_9_set(8, 0);
            (17, 24): qmod_9_set(9, 0);
            (17, 25): qmod_9_set(10, 0);
            (17, 26): qmod_9_set(11, 0);
            (17, 27): qmod_9_set(12, 0);
            (17, 28): qmod_9_set(13, 0);
            (17, 29): qmod_9_set(14, 0);
            (17, 30): qmod_9_set(15, 0);
            (17, 31): qmod_9_set(16, 0);
            (18, 0): qmod_9_set(18, 1);
            (18, 1): qmod_9_set(19, 0);
            (18, 2): qmod_9_set(20, 0);
            (18, 3): qmod_9_set(21, 0);
            (18, 4): qmod_9_set(22, 0);
            (18, 5): qmod_9_set(23, 0);
            (18, 6): qmod_9_set(24, 0);
            (18, 7): qmod_9_set(25, 0);
            (18, 8): qmod_9_set(26, 0);
            (18, 9): qmod_9_set(27, 0);
            (18, 10): qmod_9_set(28, 0);
            (18, 11): qmod_9_set(29, 0);
            (18, 12): qmod_9_set(30, 0);
            (18, 13): qmod_9_set(31, 0);
            (18, 14): qmod_9_set(0, 0);
            (18, 15): qmod_9_set(1, 0);
            (18, 16): qmod_9_set(2, 0);
            (18, 17): qmod_9_set(3, 0);
            (18, 18): qmod_9_set(4, 0);
            (18, 19): qmod_9_set(5, 0);
            (18, 20): qmod_9_set(6, 0);
            (18, 21): qmod_9_set(7, 0);
            (18, 22): qmod_9_set(8, 0);
            (18, 23): qmod_9_set(9, 0);
            (18, 24): qmod_9_set(10, 0);
            (18, 25): qmod_9_set(11, 0);
            (18, 26): qmod_9_set(12, 0);
            (18, 27): qmod_9_set(13, 0);
            (18, 28): qmod_9_set(14, 0);
            (18, 29): qmod_9_set(15, 0);
            (18, 30): qmod_9_set(16, 0);
            (18, 31): qmod_9_set(17, 0);
            (19, 0): qmod_9_set(19, 1);
            (19, 1): qmod_9_set(20, 0);
            (19, 2): qmod_9_set(21, 0);
            (19, 3): qmod_9_set(22, 0);
            (19, 4): qmod_9_set(23, 0);
            (19, 5): qmod_9_set(24, 0);
            (19, 6): qmod_9_set(25, 0);
            (19, 7): qmod_9_set(26, 0);
            (19, 8): qmod_9_set(27, 0);
            (19, 9): qmod_9_set(28, 0);
            (19, 10): qmod_9_set(29, 0);
            (19, 11): qmod_9_set(30, 0);
            (19, 12): qmod_9_set(31, 0);
            (19, 13): qmod_9_set(0, 0);
            (19, 14): qmod_9_set(1, 0);
            (19, 15): qmod_9_set(2, 0);
            (19, 16): qmod_9_set(3, 0);
            (19, 17): qmod_9_set(4, 0);
            (19, 18): qmod_9_set(5, 0);
            (19, 19): qmod_9_set(6, 0);
            (19, 20): qmod_9_set(7, 0);
            (19, 21): qmod_9_set(8, 0);
            (19, 22): qmod_9_set(9, 0);
            (19, 23): qmod_9_set(10, 0);
            (19, 24): qmod_9_set(11, 0);
            (19, 25): qmod_9_set(12, 0);
            (19, 26): qmod_9_set(13, 0);
            (19, 27): qmod_9_set(14, 0);
            (19, 28): qmod_9_set(15, 0);
            (19, 29): qmod_9_set(16, 0);
            (19, 30): qmod_9_set(17, 0);
            (19, 31): qmod_9_set(18, 0);
            (20, 0): qmod_9_set(20, 1);
            (20, 1): qmod_9_set(21, 0);
            (20, 2): qmod_9_set(22, 0);
            (20, 3): qmod_9_set(23, 0);
            (20, 4): qmod_9_set(24, 0);
            (20, 5): qmod_9_set(25, 0);
            (20, 6): qmod_9_set(26, 0);
            (20, 7): qmod_9_set(27, 0);
            (20, 8): qmod_9_set(28, 0);
            (20, 9): qmod_9_set(29, 0);
            (20, 10): qmod_9_set(30, 0);
            (20, 11): qmod_9_set(31, 0);
            (20, 12): qmod_9_set(0, 0);
            (20, 13): qmod_9_set(1, 0);
            (20, 14): qmod_9_set(2, 0);
            (20, 15): qmod_9_set(3, 0);
            (20, 16): qmod_9_set(4, 0);
            (20, 17): qmod_9_set(5, 0);
            (20, 18): qmod_9_set(6, 0);
            (20, 19): qmod_9_set(7, 0);
            (20, 20): qmod_9_set(8, 0);
            (20, 21): qmod_9_set(9, 0);
            (20, 22): qmod_9_set(10, 0);
            (20, 23): qmod_9_set(11, 0);
            (20, 24): qmod_9_set(12, 0);
            (20, 25): qmod_9_set(13, 0);
            (20, 26): qmod_9_set(14, 0);
            (20, 27): qmod_9_set(15, 0);
            (20, 28): qmod_9_set(16, 0);
            (20, 29): qmod_9_set(17, 0);
            (20, 30): qmod_9_set(18, 0);
            (20, 31): qmod_9_set(19, 0);
            (21, 0): qmod_9_set(21, 1);
            (21, 1): qmod_9_set(22, 0);
            (21, 2): qmod_9_set(23, 0);
            (21, 3): qmod_9_set(24, 0);
            (21, 4): qmod_9_set(25, 0);
            (21, 5): qmod_9_set(26, 0);
            (21, 6): qmod_9_set(27, 0);
            (21, 7): qmod_9_set(28, 0);
            (21, 8): qmod_9_set(29, 0);
            (21, 9): qmod_9_set(30, 0);
            (21, 10): qmod_9_set(31, 0);
            (21, 11): qmod_9_set(0, 0);
            (21, 12): qmod_9_set(1, 0);
            (21, 13): qmod_9_set(2, 0);
            (21, 14): qmod_9_set(3, 0);
            (21, 15): qmod_9_set(4, 0);
            (21, 16): qmod_9_set(5, 0);
            (21, 17): qmod_9_set(6, 0);
            (21, 18): qmod_9_set(7, 0);
            (21, 19): qmod_9_set(8, 0);
            (21, 20): qmod_9_set(9, 0);
            (21, 21): qmod_9_set(10, 0);
            (21, 22): qmod_9_set(11, 0);
            (21, 23): qmod_9_set(12, 0);
            (21, 24): qmod_9_set(13, 0);
            (21, 25): qmod_9_set(14, 0);
            (21, 26): qmod_9_set(15, 0);
            (21, 27): qmod_9_set(16, 0);
            (21, 28): qmod_9_set(17, 0);
            (21, 29): qmod_9_set(18, 0);
            (21, 30): qmod_9_set(19, 0);
            (21, 31): qmod_9_set(20, 0);
            (22, 0): qmod_9_set(22, 1);
            (22, 1): qmod_9_set(23, 0);
            (22, 2): qmod_9_set(24, 0);
            (22, 3): qmod_9_set(25, 0);
            (22, 4): qmod_9_set(26, 0);
            (22, 5): qmod_9_set(27, 0);
            (22, 6): qmod_9_set(28, 0);
            (22, 7): qmod_9_set(29, 0);
            (22, 8): qmod_9_set(30, 0);
            (22, 9): qmod_9_set(31, 0);
            (22, 10): qmod_9_set(0, 0);
            (22, 11): qmod_9_set(1, 0);
            (22, 12): qmod_9_set(2, 0);
            (22, 13): qmod_9_set(3, 0);
            (22, 14): qmod_9_set(4, 0);
            (22, 15): qmod_9_set(5, 0);
            (22, 16): qmod_9_set(6, 0);
            (22, 17): qmod_9_set(7, 0);
            (22, 18): qmod_9_set(8, 0);
            (22, 19): qmod_9_set(9, 0);
            (22, 20): qmod_9_set(10, 0);
            (22, 21): qmod_9_set(11, 0);
            (22, 22): qmod_9_set(12, 0);
            (22, 23): qmod_9_set(13, 0);
            (22, 24): qmod_9_set(14, 0);
            (22, 25): qmod_9_set(15, 0);
            (22, 26): qmod_9_set(16, 0);
            (22, 27): qmod_9_set(17, 0);
            (22, 28): qmod_9_set(18, 0);
            (22, 29): qmod_9_set(19, 0);
            (22, 30): qmod_9_set(20, 0);
            (22, 31): qmod_9_set(21, 0);
            (23, 0): qmod_9_set(23, 1);
            (23, 1): qmod_9_set(24, 0);
            (23, 2): qmod_9_set(25, 0);
            (23, 3): qmod_9_set(26, 0);
            (23, 4): qmod_9_set(27, 0);
            (23, 5): qmod_9_set(28, 0);
            (23, 6): qmod_9_set(29, 0);
            (23, 7): qmod_9_set(30, 0);
            (23, 8): qmod_9_set(31, 0);
            (23, 9): qmod_9_set(0, 0);
            (23, 10): qmod_9_set(1, 0);
            (23, 11): qmod_9_set(2, 0);
            (23, 12): qmod_9_set(3, 0);
            (23, 13): qmod_9_set(4, 0);
            (23, 14): qmod_9_set(5, 0);
            (23, 15): qmod_9_set(6, 0);
            (23, 16): qmod_9_set(7, 0);
            (23, 17): qmod_9_set(8, 0);
            (23, 18): qmod_9_set(9, 0);
            (23, 19): qmod_9_set(10, 0);
            (23, 20): qmod_9_set(11, 0);
            (23, 21): qmod_9_set(12, 0);
            (23, 22): qmod_9_set(13, 0);
            (23, 23): qmod_9_set(14, 0);
            (23, 24): qmod_9_set(15, 0);
            (23, 25): qmod_9_set(16, 0);
            (23, 26): qmod_9_set(17, 0);
            (23, 27): qmod_9_set(18, 0);
            (23, 28): qmod_9_set(19, 0);
            (23, 29): qmod_9_set(20, 0);
            (23, 30): qmod_9_set(21, 0);
            (23, 31): qmod_9_set(22, 0);
            (24, 0): qmod_9_set(24, 1);
            (24, 1): qmod_9_set(25, 0);
            (24, 2): qmod_9_set(26, 0);
            (24, 3): qmod_9_set(27, 0);
            (24, 4): qmod_9_set(28, 0);
            (24, 5): qmod_9_set(29, 0);
            (24, 6): qmod_9_set(30, 0);
            (24, 7): qmod_9_set(31, 0);
            (24, 8): qmod_9_set(0, 0);
            (24, 9): qmod_9_set(1, 0);
            (24, 10): qmod_9_set(2, 0);
            (24, 11): qmod_9_set(3, 0);
            (24, 12): qmod_9_set(4, 0);
            (24, 13): qmod_9_set(5, 0);
            (24, 14): qmod_9_set(6, 0);
            (24, 15): qmod_9_set(7, 0);
            (24, 16): qmod_9_set(8, 0);
            (24, 17): qmod_9_set(9, 0);
            (24, 18): qmod_9_set(10, 0);
            (24, 19): qmod_9_set(11, 0);
            (24, 20): qmod_9_set(12, 0);
            (24, 21): qmod_9_set(13, 0);
            (24, 22): qmod_9_set(14, 0);
            (24, 23): qmod_9_set(15, 0);
            (24, 24): qmod_9_set(16, 0);
            (24, 25): qmod_9_set(17, 0);
            (24, 26): qmod_9_set(18, 0);
            (24, 27): qmod_9_set(19, 0);
            (24, 28): qmod_9_set(20, 0);
            (24, 29): qmod_9_set(21, 0);
            (24, 30): qmod_9_set(22, 0);
            (24, 31): qmod_9_set(23, 0);
            (25, 0): qmod_9_set(25, 1);
            (25, 1): qmod_9_set(26, 0);
            (25, 2): qmod_9_set(27, 0);
            (25, 3): qmod_9_set(28, 0);
            (25, 4): qmod_9_set(29, 0);
            (25, 5): qmod_9_set(30, 0);
            (25, 6): qmod_9_set(31, 0);
            (25, 7): qmod_9_set(0, 0);
            (25, 8): qmod_9_set(1, 0);
            (25, 9): qmod_9_set(2, 0);
            (25, 10): qmod_9_set(3, 0);
            (25, 11): qmod_9_set(4, 0);
            (25, 12): qmod_9_set(5, 0);
            (25, 13): qmod_9_set(6, 0);
            (25, 14): qmod_9_set(7, 0);
            (25, 15): qmod_9_set(8, 0);
            (25, 16): qmod_9_set(9, 0);
            (25, 17): qmod_9_set(10, 0);
            (25, 18): qmod_9_set(11, 0);
            (25, 19): qmod_9_set(12, 0);
            (25, 20): qmod_9_set(13, 0);
            (25, 21): qmod_9_set(14, 0);
            (25, 22): qmod_9_set(15, 0);
            (25, 23): qmod_9_set(16, 0);
            (25, 24): qmod_9_set(17, 0);
            (25, 25): qmod_9_set(18, 0);
            (25, 26): qmod_9_set(19, 0);
            (25, 27): qmod_9_set(20, 0);
            (25, 28): qmod_9_set(21, 0);
            (25, 29): qmod_9_set(22, 0);
            (25, 30): qmod_9_set(23, 0);
            (25, 31): qmod_9_set(24, 0);
            (26, 0): qmod_9_set(26, 1);
            (26, 1): qmod_9_set(27, 0);
            (26, 2): qmod_9_set(28, 0);
            (26, 3): qmod_9_set(29, 0);
            (26, 4): qmod_9_set(30, 0);
            (26, 5): qmod_9_set(31, 0);
            (26, 6): qmod_9_set(0, 0);
            (26, 7): qmod_9_set(1, 0);
            (26, 8): qmod_9_set(2, 0);
            (26, 9): qmod_9_set(3, 0);
            (26, 10): qmod_9_set(4, 0);
            (26, 11): qmod_9_set(5, 0);
            (26, 12): qmod_9_set(6, 0);
            (26, 13): qmod_9_set(7, 0);
            (26, 14): qmod_9_set(8, 0);
            (26, 15): qmod_9_set(9, 0);
            (26, 16): qmod_9_set(10, 0);
            (26, 17): qmod_9_set(11, 0);
            (26, 18): qmod_9_set(12, 0);
            (26, 19): qmod_9_set(13, 0);
            (26, 20): qmod_9_set(14, 0);
            (26, 21): qmod_9_set(15, 0);
            (26, 22): qmod_9_set(16, 0);
            (26, 23): qmod_9_set(17, 0);
            (26, 24): qmod_9_set(18, 0);
            (26, 25): qmod_9_set(19, 0);
            (26, 26): qmod_9_set(20, 0);
            (26, 27): qmod_9_set(21, 0);
            (26, 28): qmod_9_set(22, 0);
            (26, 29): qmod_9_set(23, 0);
            (26, 30): qmod_9_set(24, 0);
            (26, 31): qmod_9_set(25, 0);
            (27, 0): qmod_9_set(27, 1);
            (27, 1): qmod_9_set(28, 0);
            (27, 2): qmod_9_set(29, 0);
            (27, 3): qmod_9_set(30, 0);
            (27, 4): qmod_9_set(31, 0);
            (27, 5): qmod_9_set(0, 0);
            (27, 6): qmod_9_set(1, 0);
            (27, 7): qmod_9_set(2, 0);
            (27, 8): qmod_9_set(3, 0);
            (27, 9): qmod_9_set(4, 0);
            (27, 10): qmod_9_set(5, 0);
            (27, 11): qmod_9_set(6, 0);
            (27, 12): qmod_9_set(7, 0);
            (27, 13): qmod_9_set(8, 0);
            (27, 14): qmod_9_set(9, 0);
            (27, 15): qmod_9_set(10, 0);
            (27, 16): qmod_9_set(11, 0);
            (27, 17): qmod_9_set(12, 0);
            (27, 18): qmod_9_set(13, 0);
            (27, 19): qmod_9_set(14, 0);
            (27, 20): qmod_9_set(15, 0);
            (27, 21): qmod_9_set(16, 0);
            (27, 22): qmod_9_set(17, 0);
            (27, 23): qmod_9_set(18, 0);
            (27, 24): qmod_9_set(19, 0);
            (27, 25): qmod_9_set(20, 0);
            (27, 26): qmod_9_set(21, 0);
            (27, 27): qmod_9_set(22, 0);
            (27, 28): qmod_9_set(23, 0);
            (27, 29): qmod_9_set(24, 0);
            (27, 30): qmod_9_set(25, 0);
            (27, 31): qmod_9_set(26, 0);
            (28, 0): qmod_9_set(28, 1);
            (28, 1): qmod_9_set(29, 0);
            (28, 2): qmod_9_set(30, 0);
            (28, 3): qmod_9_set(31, 0);
            (28, 4): qmod_9_set(0, 0);
            (28, 5): qmod_9_set(1, 0);
            (28, 6): qmod_9_set(2, 0);
            (28, 7): qmod_9_set(3, 0);
            (28, 8): qmod_9_set(4, 0);
            (28, 9): qmod_9_set(5, 0);
            (28, 10): qmod_9_set(6, 0);
            (28, 11): qmod_9_set(7, 0);
            (28, 12): qmod_9_set(8, 0);
            (28, 13): qmod_9_set(9, 0);
            (28, 14): qmod_9_set(10, 0);
            (28, 15): qmod_9_set(11, 0);
            (28, 16): qmod_9_set(12, 0);
            (28, 17): qmod_9_set(13, 0);
            (28, 18): qmod_9_set(14, 0);
            (28, 19): qmod_9_set(15, 0);
            (28, 20): qmod_9_set(16, 0);
            (28, 21): qmod_9_set(17, 0);
            (28, 22): qmod_9_set(18, 0);
            (28, 23): qmod_9_set(19, 0);
            (28, 24): qmod_9_set(20, 0);
            (28, 25): qmod_9_set(21, 0);
            (28, 26): qmod_9_set(22, 0);
            (28, 27): qmod_9_set(23, 0);
            (28, 28): qmod_9_set(24, 0);
            (28, 29): qmod_9_set(25, 0);
            (28, 30): qmod_9_set(26, 0);
            (28, 31): qmod_9_set(27, 0);
            (29, 0): qmod_9_set(29, 1);
            (29, 1): qmod_9_set(30, 0);
            (29, 2): qmod_9_set(31, 0);
            (29, 3): qmod_9_set(0, 0);
            (29, 4): qmod_9_set(1, 0);
            (29, 5): qmod_9_set(2, 0);
            (29, 6): qmod_9_set(3, 0);
            (29, 7): qmod_9_set(4, 0);
            (29, 8): qmod_9_set(5, 0);
            (29, 9): qmod_9_set(6, 0);
            (29, 10): qmod_9_set(7, 0);
            (29, 11): qmod_9_set(8, 0);
            (29, 12): qmod_9_set(9, 0);
            (29, 13): qmod_9_set(10, 0);
            (29, 14): qmod_9_set(11, 0);
            (29, 15): qmod_9_set(12, 0);
            (29, 16): qmod_9_set(13, 0);
            (29, 17): qmod_9_set(14, 0);
            (29, 18): qmod_9_set(15, 0);
            (29, 19): qmod_9_set(16, 0);
            (29, 20): qmod_9_set(17, 0);
            (29, 21): qmod_9_set(18, 0);
            (29, 22): qmod_9_set(19, 0);
            (29, 23): qmod_9_set(20, 0);
            (29, 24): qmod_9_set(21, 0);
            (29, 25): qmod_9_set(22, 0);
            (29, 26): qmod_9_set(23, 0);
            (29, 27): qmod_9_set(24, 0);
            (29, 28): qmod_9_set(25, 0);
            (29, 29): qmod_9_set(26, 0);
            (29, 30): qmod_9_set(27, 0);
            (29, 31): qmod_9_set(28, 0);
            (30, 0): qmod_9_set(30, 1);
            (30, 1): qmod_9_set(31, 0);
            (30, 2): qmod_9_set(0, 0);
            (30, 3): qmod_9_set(1, 0);
            (30, 4): qmod_9_set(2, 0);
            (30, 5): qmod_9_set(3, 0);
            (30, 6): qmod_9_set(4, 0);
            (30, 7): qmod_9_set(5, 0);
            (30, 8): qmod_9_set(6, 0);
            (30, 9): qmod_9_set(7, 0);
            (30, 10): qmod_9_set(8, 0);
            (30, 11): qmod_9_set(9, 0);
            (30, 12): qmod_9_set(10, 0);
            (30, 13): qmod_9_set(11, 0);
            (30, 14): qmod_9_set(12, 0);
            (30, 15): qmod_9_set(13, 0);
            (30, 16): qmod_9_set(14, 0);
            (30, 17): qmod_9_set(15, 0);
            (30, 18): qmod_9_set(16, 0);
            (30, 19): qmod_9_set(17, 0);
            (30, 20): qmod_9_set(18, 0);
            (30, 21): qmod_9_set(19, 0);
            (30, 22): qmod_9_set(20, 0);
            (30, 23): qmod_9_set(21, 0);
            (30, 24): qmod_9_set(22, 0);
            (30, 25): qmod_9_set(23, 0);
            (30, 26): qmod_9_set(24, 0);
            (30, 27): qmod_9_set(25, 0);
            (30, 28): qmod_9_set(26, 0);
            (30, 29): qmod_9_set(27, 0);
            (30, 30): qmod_9_set(28, 0);
            (30, 31): qmod_9_set(29, 0);
            (31, 0): qmod_9_set(31, 1);
            (31, 1): qmod_9_set(0, 0);
            (31, 2): qmod_9_set(1, 0);
            (31, 3): qmod_9_set(2, 0);
            (31, 4): qmod_9_set(3, 0);
            (31, 5): qmod_9_set(4, 0);
            (31, 6): qmod_9_set(5, 0);
            (31, 7): qmod_9_set(6, 0);
            (31, 8): qmod_9_set(7, 0);
            (31, 9): qmod_9_set(8, 0);
            (31, 10): qmod_9_set(9, 0);
            (31, 11): qmod_9_set(10, 0);
            (31, 12): qmod_9_set(11, 0);
            (31, 13): qmod_9_set(12, 0);
            (31, 14): qmod_9_set(13, 0);
            (31, 15): qmod_9_set(14, 0);
            (31, 16): qmod_9_set(15, 0);
            (31, 17): qmod_9_set(16, 0);
            (31, 18): qmod_9_set(17, 0);
            (31, 19): qmod_9_set(18, 0);
            (31, 20): qmod_9_set(19, 0);
            (31, 21): qmod_9_set(20, 0);
            (31, 22): qmod_9_set(21, 0);
            (31, 23): qmod_9_set(22, 0);
            (31, 24): qmod_9_set(23, 0);
            (31, 25): qmod_9_set(24, 0);
            (31, 26): qmod_9_set(25, 0);
            (31, 27): qmod_9_set(26, 0);
            (31, 28): qmod_9_set(27, 0);
            (31, 29): qmod_9_set(28, 0);
            (31, 30): qmod_9_set(29, 0);
            (31, 31): qmod_9_set(30, 0);
        }
        size = 1024;
    }
    Hash<qidx_t>(HashAlgorithm_t.IDENTITY) qidx_9_hash;
    action slot_9_ok() { meta.alt_ok_9 = meta.alt_pre_9 & meta.alt_unfull_9; }
    /* copy 9's one access per packet, by what the packet is (q_op): a front-panel packet
     * tests slot 9's queue, a pause clears a drained queue, a port-down or queue-state
     * update sets it. One table per copy, so each stage's stateful ALUs take four copies. */
    action q_9_test() { meta.alt_unfull_9 = qstate_9_test.execute(meta.alt_i_9); }
    action q_9_set() { qstate_9_set.execute(meta.alt_i_9); }
    action q_9_clear() { qstate_9_clear.execute(meta.alt_i_9); }
    table qstate_9_op {
        key = { meta.q_op: exact; }
        actions = { q_9_test; q_9_set; q_9_clear; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            Q_TEST: q_9_test();
            Q_SET: q_9_set();
            Q_CLEAR: q_9_clear();
        }
        size = 3;
    }
    action slot_9_i() { meta.alt_i_9 = qidx_9_hash.get({meta.alt_up_9, meta.alt_q_9}); }
    /* slot 9's uplink masked down by the control plane (the config's `down`): the slot
     * counts as Full (as bmv2: a failed uplink is passed over). One ternary entry per uplink
     * tests its bit of the mask (no shift of the mask by a packet's field). */
    action slot_9_down() { meta.alt_dn_9 = 1; }
    table down_9 {
        key = {
            meta.alt_up_9: exact @name("uplink");
            meta.down_cfg: ternary @name("down");
        }
        actions = { slot_9_down; NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0x1 &&& 0x1): slot_9_down();
            (1, 0x2 &&& 0x2): slot_9_down();
            (2, 0x4 &&& 0x4): slot_9_down();
            (3, 0x8 &&& 0x8): slot_9_down();
            (4, 0x10 &&& 0x10): slot_9_down();
            (5, 0x20 &&& 0x20): slot_9_down();
            (6, 0x40 &&& 0x40): slot_9_down();
            (7, 0x80 &&& 0x80): slot_9_down();
            (8, 0x100 &&& 0x100): slot_9_down();
            (9, 0x200 &&& 0x200): slot_9_down();
            (10, 0x400 &&& 0x400): slot_9_down();
            (11, 0x800 &&& 0x800): slot_9_down();
            (12, 0x1000 &&& 0x1000): slot_9_down();
            (13, 0x2000 &&& 0x2000): slot_9_down();
            (14, 0x4000 &&& 0x4000): slot_9_down();
            (15, 0x8000 &&& 0x8000): slot_9_down();
            (16, 0x10000 &&& 0x10000): slot_9_down();
            (17, 0x20000 &&& 0x20000): slot_9_down();
            (18, 0x40000 &&& 0x40000): slot_9_down();
            (19, 0x80000 &&& 0x80000): slot_9_down();
            (20, 0x100000 &&& 0x100000): slot_9_down();
            (21, 0x200000 &&& 0x200000): slot_9_down();
            (22, 0x400000 &&& 0x400000): slot_9_down();
            (23, 0x800000 &&& 0x800000): slot_9_down();
            (24, 0x1000000 &&& 0x1000000): slot_9_down();
            (25, 0x2000000 &&& 0x2000000): slot_9_down();
            (26, 0x4000000 &&& 0x4000000): slot_9_down();
            (27, 0x8000000 &&& 0x8000000): slot_9_down();
            (28, 0x10000000 &&& 0x10000000): slot_9_down();
            (29, 0x20000000 &&& 0x20000000): slot_9_down();
            (30, 0x40000000 &&& 0x40000000): slot_9_down();
            (31, 0x80000000 &&& 0x80000000): slot_9_down();
        }
        size = 32;
    }
    Register<bit<8>, qidx_t>(8192, 0) qstate_10;
    /* the one-shot test: 1 if the queue is Unfull */
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_10) qstate_10_test = {
        void apply(inout bit<8> v, out bit<8> rv) {
            rv = 0;
            if (v == 0) { rv = 1; }
        }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_10) qstate_10_set = {
        void apply(inout bit<8> v) { v = 1; }
    };
    RegisterAction<bit<8>, qidx_t, bit<8>>(qstate_10) qstate_10_clear = {
        void apply(inout bit<8> v) { v = 0; }
    };
    /* slot 10 (the SSRR hop): queue = (active + wait) mod Q by one table keyed by both (no
     * adder and no modulo on the way to the register); index = uplink * 256 + queue by an
     * identity hash (no shifts) */
    action qmod_10_set(queue_t q, bit<1> act) {
        meta.alt_q_10 = q;
        meta.alt_act_10 = act;       // wait 0: the active queue
    }
    table qmod_10 {
        key = {
            meta.active_q_2: exact @name("active");
            meta.alt_wait_10: exact @name("wait");
        }
        actions = { qmod_10_set; }
        const entries = {
            (0, 0): qmod_10_set(0, 1);
            (0, 1): qmod_10_set(1, 0);
            (0, 2): qmod_10_set(2, 0);
            (0, 3): qmod_10_set(3, 0);
            (0, 4): qmod_10_set(4, 0);
            (0, 5): qmod_10_set(5, 0);
            (0, 6): qmod_10_set(6, 0);
            (0, 7): qmod_10_set(7, 0);
            (0, 8): qmod_10_set(8, 0);
            (0, 9): qmod_10_set(9, 0);
            (0, 10): qmod_10_set(10, 0);
            (0, 11): qmod_10_set(11, 0);
            (0, 12): qmod_10_set(12, 0);
            (0, 13): qmod_10_set(13, 0);
            (0, 14): qmod_10_set(14, 0);
            (0, 15): qmod_10_set(15, 0);
            (0, 16): qmod_10_set(16, 0);
            (0, 17): qmod_10_set(17, 0);
            (0, 18): qmod_10_set(18, 0);
            (0, 19): qmod_10_set(19, 0);
            (0, 20): qmod_10_set(20, 0);
            (0, 21): qmod_10_set(21, 0);
            (0, 22): qmod_10_set(22, 0);
            (0, 23): qmod_10_set(23, 0);
            (0, 24): qmod_10_set(24, 0);
            (0, 25): qmod_10_set(25, 0);
            (0, 26): qmod_10_set(26, 0);
            (0, 27): qmod_10_set(27, 0);
            (0, 28): qmod_10_set(28, 0);
            (0, 29): qmod_10_set(29, 0);
            (0, 30): qmod_10_set(30, 0);
            (0, 31): qmod_10_set(31, 0);
            (1, 0): qmod_10_set(1, 1);
            (1, 1): qmod_10_set(2, 0);
            (1, 2): qmod_10_set(3, 0);
            (1, 3): qmod_10_set(4, 0);
            (1, 4): qmod_10_set(5, 0);
            (1, 5): qmod_10_set(6, 0);
            (1, 6): qmod_10_set(7, 0);
            (1, 7): qmod_10_set(8, 0);
            (1, 8): qmod_10_set(9, 0);
            (1, 9): qmod_10_set(10, 0);
            (1, 10): qmod_10_set(11, 0);
            (1, 11): qmod_10_set(12, 0);
            (1, 12): qmod_10_set(13, 0);
            (1, 13): qmod_10_set(14, 0);
            (1, 14): qmod_10_set(15, 0);
            (1, 15): qmod_10_set(16, 0);
            (1, 16): qmod_10_set(17, 0);
            (1, 17): qmod_10_set(18, 0);
            (1, 18): qmod_10_set(19, 0);
            (1, 19): qmod_10_set(20, 0);
            (1, 20): qmod_10_set(21, 0);
            (1, 21): qmod_10_set(22, 0);
            (1, 22): qmod_10_set(23, 0);
            (1, 23): qmod_10_set(24, 0);
            (1, 24): qmod_10_set(25, 0);
            (1, 25): qmod_10_set(26, 0);
            (1, 26): qmod_10_set(27, 0);
            (1, 27): qmod_10_set(28, 0);
            (1, 28): qmod_10_set(29, 0);
            (1, 29): qmod_10_set(30, 0);
            (1, 30): qmod_10_set(31, 0);
            (1, 31): qmod_10_set(0, 0);
            (2, 0): qmod_10_set(2, 1);
            (2, 1): qmod_10_set(3, 0);
            (2, 2): qmod_10_set(4, 0);
            (2, 3): qmod_10_set(5, 0);
            (2, 4): qmod_10_set(6, 0);
            (2, 5): qmod_10_set(7, 0);
            (2, 6): qmod_10_set(8, 0);
            (2, 7): qmod_10_set(9, 0);
            (2, 8): qmod_10_set(10, 0);
            (2, 9): qmod_10_set(11, 0);
            (2, 10): qmod_10_set(12, 0);
            (2, 11): qmod_10_set(13, 0);
            (2, 12): qmod_10_set(14, 0);
            (2, 13): qmod_10_set(15, 0);
            (2, 14): qmod_10_set(16, 0);
            (2, 15): qmod_10_set(17, 0);
            (2, 16): qmod_10_set(18, 0);
            (2, 17): qmod_10_set(19, 0);
            (2, 18): qmod_10_set(20, 0);
            (2, 19): qmod_10_set(21, 0);
            (2, 20): qmod_10_set(22, 0);
            (2, 21): qmod_10_set(23, 0);
            (2, 22): qmod_10_set(24, 0);
            (2, 23): qmod_10_set(25, 0);
            (2, 24): qmod_10_set(26, 0);
            (2, 25): qmod_10_set(27, 0);
            (2, 26): qmod_10_set(28, 0);
            (2, 27): qmod_10_set(29, 0);
            (2, 28): qmod_10_set(30, 0);
            (2, 29): qmod_10_set(31, 0);
            (2, 30): qmod_10_set(0, 0);
            (2, 31): qmod_10_set(1, 0);
            (3, 0): qmod_10_set(3, 1);
            (3, 1): qmod_10_set(4, 0);
            (3, 2): qmod_10_set(5, 0);
            (3, 3): qmod_10_set(6, 0);
            (3, 4): qmod_10_set(7, 0);
            (3, 5): qmod_10_set(8, 0);
            (3, 6): qmod_10_set(9, 0);
            (3, 7): qmod_10_set(10, 0);
            (3, 8): qmod_10_set(11, 0);
            (3, 9): qmod_10_set(12, 0);
            (3, 10): qmod_10_set(13, 0);
            (3, 11): qmod_10_set(14, 0);
            (3, 12): qmod_10_set(15, 0);
            (3, 13): qmod_10_set(16, 0);
            (3, 14): qmod_10_set(17, 0);
            (3, 15): qmod_10_set(18, 0);
            (3, 16): qmod_10_set(19, 0);
            (3, 17): qmod_10_set(20, 0);
            (3, 18): qmod_10_set(21, 0);
            (3, 19): qmod_10_set(22, 0);
            (3, 20): qmod_10_set(23, 0);
            (3, 21): qmod_10_set(24, 0);
            (3, 22): qmod_10_set(25, 0);
            (3, 23): qmod_10_set(26, 0);
            (3, 24): qmod_10_set(27, 0);
            (3, 25): qmod_10_set(28, 0);
            (3, 26): qmod_10_set(29, 0);
            (3, 27): qmod_10_set(30, 0);
            (3, 28): qmod_10_set(31, 0);
            (3, 29): qmod_10_set(0, 0);
            (3, 30): qmod_10_set(1, 0);
            (3, 31): qmod_10_set(2, 0);
            (4, 0): qmod_10_set(4, 1);
            (4, 1): qmod_10_set(5, 0);
            (4, 2): qmod_10_set(6, 0);
            (4, 3): qmod_10_set(7, 0);
            (4, 4): qmod_10_set(8, 0);
            (4, 5): qmod_10_set(9, 0);
            (4, 6): qmod_10_set(10, 0);
            (4, 7): qmod_10_set(11, 0);
            (4, 8): qmod_10_set(12, 0);
            (4, 9): qmod_10_set(13, 0);
            (4, 10): qmod_10_set(14, 0);
            (4, 11): qmod_10_set(15, 0);
            (4, 12): qmod_10_set(16, 0);
            (4, 13): qmod_10_set(17, 0);
            (4, 14): qmod_10_set(18, 0);
            (4, 15): qmod_10_set(19, 0);
            (4, 16): qmod_10_set(20, 0);
            (4, 17): qmod_10_set(21, 0);
            (4, 18): qmod_10_set(22, 0);
            (4, 19): qmod_10_set(23, 0);
            (4, 20): qmod_10_set(24, 0);
            (4, 21): qmod_10_set(25, 0);
            (4, 22): qmod_10_set(26, 0);
            (4, 23): qmod_10_set(27, 0);
            (4, 24): qmod_10_set(28, 0);
            (4, 25): qmod_10_set(29, 0);
            (4, 26): qmod_10_set(30, 0);
            (4, 27): qmod_10_set(31, 0);
            (4, 28): qmod_10_set(0, 0);
            (4, 29): qmod_10_set(1, 0);
            (4, 30): qmod_10_set(2, 0);
            (4, 31): qmod_10_set(3, 0);
            (5, 0): qmod_10_set(5, 1);
            (5, 1): qmod_10_set(6, 0);
            (5, 2): qmod_10_set(7, 0);
            (5, 3): qmod_10_set(8, 0);
            (5, 4): qmod_10_set(9, 0);
            (5, 5): qmod_10_set(10, 0);
            (5, 6): qmod_10_set(11, 0);
            (5, 7): qmod_10_set(12, 0);
            (5, 8): qmod_10_set(13, 0);
            (5, 9): qmod_10_set(14, 0);
            (5, 10): qmod_10_set(15, 0);
            (5, 11): qmod_10_set(16, 0);
            (5, 12): qmod_10_set(17, 0);
            (5, 13): qmod_10_set(18, 0);
            (5, 14): qmod_10_set(19, 0);
            (5, 15): qmod_10_set(20, 0);
            (5, 16): qmod_10_set(21, 0);
            (5, 17): qmod_10_set(22, 0);
            (5, 18): qmod_10_set(23, 0);
            (5, 19): qmod_10_set(24, 0);
            (5, 20): qmod_10_set(25, 0);
            (5, 21): qmod_10_set(26, 0);
            (5, 22): qmod_10_set(27, 0);
            (5, 23): qmod_10_set(28, 0);
            (5, 24): qmod_10_set(29, 0);
            (5, 25): qmod_10_set(30, 0);
            (5, 26): qmod_10_set(31, 0);
            (5, 27): qmod_10_set(0, 0);
            (5, 28): qmod_10_set(1, 0);
            (5, 29): qmod_10_set(2, 0);
            (5, 30): qmod_10_set(3, 0);
            (5, 31): qmod_10_set(4, 0);
            (6, 0): qmod_10_set(6, 1);
            (6, 1): qmod_10_set(7, 0);
            (6, 2): qmod_10_set(8, 0);
            (6, 3): qmod_10_set(9, 0);
            (6, 4): qmod_10_set(10, 0);
            (6, 5): qmod_10_set(11, 0);
            (6, 6): qmod_10_set(12, 0);
            (6, 7): qmod_10_set(13, 0);
            (6, 8): qmod_10_set(14, 0);
            (6, 9): qmod_10_set(15, 0);
            (6, 10): qmod_10_set(16, 0);
            (6, 11): qmod_10_set(17, 0);
            (6, 12): qmod_10_set(18, 0);
            (6, 13): qmod_10_set(19, 0);
            (6, 14): qmod_10_set(20, 0);
            (6, 15): qmod_10_set(21, 0);
            (6, 16): qmod_10_set(22, 0);
            (6, 17): qmod_10_set(23, 0);
            (6, 18): qmod_10_set(24, 0);
            (6, 19): qmod_10_set(25, 0);
            (6, 20): qmod_10_set(26, 0);
            (6, 21): qmod_10_set(27, 0);
            (6, 22): qmod_10_set(28, 0);
            (6, 23): qmod_10_set(29, 0);
            (6, 24): qmod_10_set(30, 0);
            (6, 25): qmod_10_set(31, 0);
            (6, 26): qmod_10_set(0, 0);
            (6, 27): qmod_10_set(1, 0);
            (6, 28): qmod_10_set(2, 0);
            (6, 29): qmod_10_set(3, 0);
            (6, 30): qmod_10_set(4, 0);
            (6, 31): qmod_10_set(5, 0);
            (7, 0): qmod_10_set(7, 1);
            (7, 1): qmod_10_set(8, 0);
            (7, 2): qmod_10_set(9, 0);
            (7, 3): qmod_10_set(10, 0);
            (7, 4): qmod_10_set(11, 0);
            (7, 5): qmod_10_set(12, 0);
            (7, 6): qmod_10_set(13, 0);
            (7, 7): qmod_10_set(14, 0);
            (7, 8): qmod_10_set(15, 0);
            (7, 9): qmod_10_set(16, 0);
            (7, 10): qmod_10_set(17, 0);
            (7, 11): qmod_10_set(18, 0);
            (7, 12): qmod_10_set(19, 0);
            (7, 13): qmod_10_set(20, 0);
            (7, 14): qmod_10_set(21, 0);
            (7, 15): qmod_10_set(22, 0);
            (7, 16): qmod_10_set(23, 0);
            (7, 17): qmod_10_set(24, 0);
            (7, 18): qmod_10_set(25, 0);
            (7, 19): qmod_10_set(26, 0);
            (7, 20): qmod_10_set(27, 0);
            (7, 21): qmod_10_set(28, 0);
            (7, 22): qmod_10_set(29, 0);
            (7, 23): qmod_10_set(30, 0);
            (7, 24): qmod_10_set(31, 0);
            (7, 25): qmod_10_set(0, 0);
            (7, 26): qmod_10_set(1, 0);
            (7, 27): qmod_10_set(2, 0);
            (7, 28): qmod_10_set(3, 0);
            (7, 29): qmod_10_set(4, 0);
            (7, 30): qmod_10_set(5, 0);
            (7, 31): qmod_10_set(6, 0);
            (8, 0): qmod_10_set(8, 1);
            (8, 1): qmod_10_set(9, 0);
            (8, 2): qmod_10_set(10, 0);
            (8, 3): qmod_10_set(11, 0);
            (8, 4): qmod_10_set(12, 0);
            (8, 5): qmod_10_set(13, 0);
            (8, 6): qmod_10_set(14, 0);
            (8, 7): qmod_10_set(15, 0);
            (8, 8): qmod_10_set(16, 0);
            (8, 9): qmod_10_set(17, 0);
            (8, 10): qmod_10_set(18, 0);
            (8, 11): qmod_10_set(19, 0);
            (8, 12): qmod_10_set(20, 0);
            (8, 13): qmod_10_set(21, 0);
            (8, 14): qmod_10_set(22, 0);
            (8, 15): qmod_10_set(23, 0);
            (8, 16): qmod_10_set(24, 0);
            (8, 17): qmod_10_set(25, 0);
            (8, 18): qmod_10_set(26, 0);
            (8, 19): qmod_10_set(27, 0);
            (8, 20): qmod_10_set(28, 0);
            (8, 21): qmod_10_set(29, 0);
            (8, 22): qmod_10_set(30, 0);
            (8, 23): qmod_10_set(31, 0);
            (8, 24): qmod_10_set(0, 0);
            (8, 25): qmod_10_set(1, 0);
            (8, 26): qmod_10_set(2, 0);
            (8, 27): qmod_10_set(3, 0);
            (8, 28): qmod_10_set(4, 0);
            (8, 29): qmod_10_set(5, 0);
            (8, 30): qmod_10_set(6, 0);
            (8, 31): qmod_10_set(7, 0);
            (9, 0): qmod_10_set(9, 1);
            (9, 1): qmod_10_set(10, 0);
            (9, 2): qmod_10_set(11, 0);
            (9, 3): qmod_10_set(12, 0);
            (9, 4): qmod_10_set(13, 0);
            (9, 5): qmod_10_set(14, 0);
            (9, 6): qmod_10_set(15, 0);
            (9, 7): qmod_10_set(16, 0);
            (9, 8): qmod_10_set(17, 0);
            (9, 9): qmod_10_set(18, 0);
            (9, 10): qmod_10_set(19, 0);
            (9, 11): qmod_10_set(20, 0);
            (9, 12): qmod_10_set(21, 0);
            (9, 13): qmod_10_set(22, 0);
            (9, 14): qmod_10_set(23, 0);
            (9, 15): qmod_10_set(24, 0);
            (9, 16): qmod_10_set(25, 0);
            (9, 17): qmod_10_set(26, 0);
            (9, 18): qmod_10_set(27, 0);
            (9, 19): qmod_10_set(28, 0);
            (9, 20): qmod_10_set(29, 0);
            (9, 21): qmod_10_set(30, 0);
            (9, 22): qmod_10_set(31, 0);
            (9, 23): qmod_10_set(0, 0);
            (9, 24): qmod_10_set(1, 0);
            (9, 25): qmod_10_set(2, 0);
            (9, 26): qmod_10_set(3, 0);
            (9, 27): qmod_10_set(4, 0);
            (9, 28): qmod_10_set(5, 0);
            (9, 29): qmod_10_set(6, 0);
            (9, 30): qmod_10_set(7, 0);
            (9, 31): qmod_10_set(8, 0);
            (10, 0): qmod_10_set(10, 1);
            (10, 1): qmod_10_set(11, 0);
            (10, 2): qmod_10_set(12, 0);
            (10, 3): qmod_10_set(13, 0);
            (10, 4): qmod_10_set(14, 0);
            (10, 5): qmod_10_set(15, 0);
            (10, 6): qmod_10_set(16, 0);
            (10, 7): qmod_10_set(17, 0);
            (10, 8): qmod_10_set(18, 0);
            (10, 9): qmod_10_set(19, 0);
            (10, 10): qmod_10_set(20, 0);
            (10, 11): qmod_10_set(21, 0);
            (10, 12): qmod_10_set(22, 0);
            (10, 13): qmod_10_set(23, 0);
            (10, 14): qmod_10_set(24, 0);
            (10, 15): qmod_10_set(25, 0);
            (10, 16): qmod_10_set(26, 0);
            (10, 17): qmod_10_set(27, 0);
            (10, 18): qmod_10_set(28, 0);
            (10, 19): qmod_10_set(29, 0);
            (10, 20): qmod_10_set(30, 0);
            (10, 21): qmod_10_set(31, 0);
            (10, 22): qmod_10_set(0, 0);
            (10, 23): qmod_10_set(1, 0);
            (10, 24): qmod_10_set(2, 0);
            (10, 25): qmod_10_set(3, 0);
            (10, 26): qmod_10_set(4, 0);
            (10, 27): qmod_10_set(5, 0);
            (10, 28): qmod_10_set(6, 0);
            (10, 29): qmod_10_set(7, 0);
            (10, 30): qmod_10_set(8, 0);
            (10, 31): qmod_10_set(9, 0);
            (11, 0): qmod_10_set(11, 1);
            (11, 1): qmod_10_set(12, 0);
            (11, 2): qmod_10_set(13, 0);
            (11, 3): qmod_10_set(14, 0);
            (11, 4): qmod_10_set(15, 0);
            (11, 5): qmod_10_set(16, 0);
            (11, 6): qmod_10_set(17, 0);
            (11, 7): qmod_10_set(18, 0);
            (11, 8): qmod_10_set(19, 0);
            (11, 9): qmod_10_set(20, 0);
            (11, 10): qmod_10_set(21, 0);
            (11, 11): qmod_10_set(22, 0);
            (11, 12): qmod_10_set(23, 0);
            (11, 13): qmod_10_set(24, 0);
            (11, 14): qmod_10_set(25, 0);
            (11, 15): qmod_10_set(26, 0);
            (11, 16): qmod_10_set(27, 0);
            (11, 17): qmod_10_set(28, 0);
            (11, 18): qmod_10_set(29, 0);
            (11, 19): qmod_10_set(30, 0);
            (11, 20): qmod_10_set(31, 0);
            (11, 21): qmod_10_set(0, 0);
            (11, 22): qmod_10_set(1, 0);
            (11, 23): qmod_10_set(2, 0);
            (11, 24): qmod_10_set(3, 0);
            (11, 25): qmod_10_set(4, 0);
            (11, 26): qmod_10_set(5, 0);
            (11, 27): qmod_10_set(6, 0);
            (11, 28): qmod_10_set(7, 0);
            (11, 29): qmod_10_set(8, 0);
            (11, 30): qmod_10_set(9, 0);
            (11, 31): qmod_10_set(10, 0);
            (12, 0): qmod_10_set(12, 1);
            (12, 1): qmod_10_set(13, 0);
            (12, 2): qmod_10_set(14, 0);
            (12, 3): qmod_10_set(15, 0);
            (12, 4): qmod_10_set(16, 0);
            (12, 5): qmod_10_set(17, 0);
            (12, 6): qmod_10_set(18, 0);
            (12, 7): qmod_10_set(19, 0);
            (12, 8): qmod_10_set(20, 0);
            (12, 9): qmod_10_set(21, 0);
            (12, 10): qmod_10_set(22, 0);
            (12, 11): qmod_10_set(23, 0);
            (12, 12): qmod_10_set(24, 0);
            (12, 13): qmod_10_set(25, 0);
            (12, 14): qmod_10_set(26, 0);
            (12, 15): qmod_10_set(27, 0);
            (12, 16): qmod_10_set(28, 0);
            (12, 17): qmod_10_set(29, 0);
            (12, 18): qmod_10_set(30, 0);
            (12, 19): qmod_10_set(31, 0);
            (12, 20): qmod_10_set(0, 0);
            (12, 21): qmod_10_set(1, 0);
            (12, 22): qmod_10_set(2, 0);
            (12, 23): qmod_10_set(3, 0);
            (12, 24): qmod_10_set(4, 0);
            (12, 25): qmod_10_set(5, 0);
            (12, 26): qmod_10_set(6, 0);
            (12, 27): qmod_10_set(7, 0);
            (12, 28): qmod_10_set(8, 0);
            (12, 29): qmod_10_set(9, 0);
            (12, 30): qmod_10_set(10, 0);
            (12, 31): qmod_10_set(11, 0);
            (13, 0): qmod_10_set(13, 1);
            (13, 1): qmod_10_set(14, 0);
            (13, 2): qmod_10_set(15, 0);
            (13, 3): qmod_10_set(16, 0);
            (13, 4): qmod_10_set(17, 0);
            (13, 5): qmod_10_set(18, 0);
            (13, 6): qmod_10_set(19, 0);
            (13, 7): qmod_10_set(20, 0);
            (13, 8): qmod_10_set(21, 0);
            (13, 9): qmod_10_set(22, 0);
            (13, 10): qmod_10_set(23, 0);
            (13, 11): qmod_10_set(24, 0);
            (13, 12): qmod_10_set(25, 0);
            (13, 13): qmod_10_set(26, 0);
            (13, 14): qmod_10_set(27, 0);
            (13, 15): qmod_10_set(28, 0);
            (13, 16): qmod_10_set(29, 0);
            (13, 17): qmod_10_set(30, 0);
            (13, 18): qmod_10_set(31, 0);
            (13, 19): qmod_10_set(0, 0);
            (13, 20): qmod_10_set(1, 0);
            (13, 21): qmod_10_set(2, 0);
            (13, 22): qmod_10_set(3, 0);
            (13, 23): qmod_10_set(4, 0);
            (13, 24): qmod_10_set(5, 0);
            (13, 25): qmod_10_set(6, 0);
            (13, 26): qmod_10_set(7, 0);
            (13, 27): qmod_10_set(8, 0);
            (13, 28): qmod_10_set(9, 0);
            (13, 29): qmod_10_set(10, 0);
            (13, 30): qmod_10_set(11, 0);
            (13, 31): qmod_10_set(12, 0);
            (14, 0): qmod_10_set(14, 1);
            (14, 1): qmod_10_set(15, 0);
            (14, 2): qmod_10_set(16, 0);
            (14, 3): qmod_10_set(17, 0);
            (14, 4): qmod_10_set(18, 0);
            (14, 5): qmod_10_set(19, 0);
            (14, 6): qmod_10_set(20, 0);
            (14, 7): qmod_10_set(21, 0);
            (14, 8): qmod_10_set(22, 0);
            (14, 9): qmod_10_set(23, 0);
            (14, 10): qmod_10_set(24, 0);
            (14, 11): qmod_10_set(25, 0);
            (14, 12): qmod_10_set(26, 0);
            (14, 13): qmod_10_set(27, 0);
            (14, 14): qmod_10_set(28, 0);
            (14, 15): qmod_10_set(29, 0);
            (14, 16): qmod_10_set(30, 0);
            (14, 17): qmod_10_set(31, 0);
            (14, 18): qmod_10_set(0, 0);
            (14, 19): qmod_10_set(1, 0);
            (14, 20): qmod_10_set(2, 0);
            (14, 21): qmod_10_set(3, 0);
            (14, 22): qmod_10_set(4, 0);
            (14, 23): qmod_10_set(5, 0);
            (14, 24): qmod_10_set(6, 0);
            (14, 25): qmod_10_set(7, 0);
            (14, 26): qmod_10_set(8, 0);
            (14, 27): qmod_10_set(9, 0);
            (14, 28): qmod_10_set(10, 0);
            (14, 29): qmod_10_set(11, 0);
            (14, 30): qmod_10_set(12, 0);
            (14, 31): qmod_10_set(13, 0);
            (15, 0): qmod_10_set(15, 1);
            (15, 1): qmod_10_set(16, 0);
            (15, 2): qmod_10_set(17, 0);
            (15, 3): qmod_10_set(18, 0);
            (15, 4): qmod_10_set(19, 0);
            (15, 5): qmod_10_set(20, 0);
            (15, 6): qmod_10_set(21, 0);
            (15, 7): qmod_10_set(22, 0);
            (15, 8): qmod_10_set(23, 0);
            (15, 9): qmod_10_set(24, 0);
            (15, 10): qmod_10_set(25, 0);
            (15, 11): qmod_10_set(26, 0);
            (15, 12): qmod_10_set(27, 0);
            (15, 13): qmod_10_set(28, 0);
            (15, 14): qmod_10_set(29, 0);
            (15, 15): qmod_10_set(30, 0);
            (15, 16): qmod_10_set(31, 0);
            (15, 17): qmod_10_set(0, 0);
            (15, 18): qmod_10_set(1, 0);
            (15, 19): qmod_10_set(2, 0);
            (15, 20): qmod_10_set(3, 0);
            (15, 21): qmod_10_set(4, 0);
            (15, 22): qmod_10_set(5, 0);
            (15, 23): qmod_10_set(6, 0);
            (15, 24): qmod_10_set(7, 0);
            (15, 25): qmod_10_set(8, 0);
            (15, 26): qmod_10_set(9, 0);
            (15, 27): qmod_10_set(10, 0);
            (15, 28): qmod_10_set(11, 0);
            (15, 29): qmod_10_set(12, 0);
            (15, 30): qmod_10_set(13, 0);
            (15, 31): qmod_10_set(14, 0);
            (16, 0): qmod_10_set(16, 1);
            (16, 1): qmod_10_set(17, 0);
            (16, 2): qmod_10_set(18, 0);
            (16, 3): qmod_10_set(19, 0);
            (16, 4): qmod_10_set(20, 0);
            (16, 5): qmod_10_set(21, 0);
            (16, 6): qmod_10_set(22, 0);
            (16, 7): qmod_10_set(23, 0);
            (16, 8): qmod_10_set(24, 0);
            (16, 9): qmod_10_set(25, 0);
            (16, 10): qmod_10_set(26, 0);
            (16, 11): qmod_10_set(27, 0);
            (16, 12): qmod_10_set(28, 0);
            (16, 13): qmod_10_set(29, 0);
            (16, 14): qmod_10_set(30, 0);
            (16, 15): qmod_10_set(31, 0);
            (16, 16): qmod_10_set(0, 0);
            (16, 17): qmod_10_set(1, 0);
            (16, 18): qmod_10_set(2, 0);
            (16, 19): qmod_10_set(3, 0);
            (16, 20): qmod_10_set(4, 0);
            (16, 21): qmod_10_set(5, 0);
            (16, 22): qmod_10_set(6, 0);
            (16, 23): qmod_10_set(7, 0);
            (16, 24): qmod_10_set(8, 0);
            (16, 25): qmod_10_set(9, 0);
            (16, 26): qmod_10_set(10, 0);
            (16, 27): qmod_10_set(11, 0);
            (16, 28): qmod_10_set(12, 0);
            (16, 29): qmod_10_set(13, 0);
            (16, 30): qmod_10_set(14, 0);
            (16, 31): qmod_10_set(15, 0);
            (17, 0): qmod_10_set(17, 1);
            (17, 1): qmod_10_set(18, 0);
            (17, 2): qmod_10_set(19, 0);
            (17, 3): qmod_10_set(20, 0);
            (17, 4): qmod_10_set(21, 0);
            (17, 5): qmod_10_set(22, 0);
            (17, 6): qmod_10_set(23, 0);
            (17, 7): qmod_10_set(24, 0);
            (17, 8): qmod_10_set(25, 0);
            (17, 9): qmod_10_set(26, 0);
            (17, 10): qmod_10_set(27, 0);
            (17, 11): qmod_10_set(28, 0);
            (17, 12): qmod_10_set(29, 0);
            (17, 13): qmod_10_set(30, 0);
            (17, 14): qmod_10_set(31, 0);
            (17, 15): qmod_10_set(0, 0);
            (17, 16): qmod_10_set(1, 0);
            (17, 17): qmod_10_set(2, 0);
            (17, 18): qmod_10_set(3, 0);
            (17, 19): qmod_10_set(4, 0);
            (17, 20): qmod_10_set(5, 0);
            (17, 21): qmod_10_set(6, 0);
            (17, 22): qmod_10_set(7, 0);
            (17, 23): qmod_10_set(8, 0);
            (17, 24): qmod_10_set(9, 0);
            (17, 25): qmod_10_set(10, 0);
            (17, 26): qmod_10_set(11, 0);
            (17, 27): qmod_10_set(12, 0);
            (17, 28): qmod_10_set(13, 0);
            (17, 29): qmod_10_set(14, 0);
            (17, 30): qmod_10_set(15, 0);
            (17, 31): qmod_10_set(16, 0);
            (18, 0): qmod_10_set(18, 1);
            (18, 1): qmod_10_set(19, 0);
            (18, 2): qmod_10_set(20, 0);
            (18, 3): qmod_10_set(21, 0);
            (18, 4): qmod_10_set(22, 0);
            (18, 5): qmod_10_set(23, 0);
            (18, 6): qmod_10_set(24, 0);
            (18, 7): qmod_10_set(25, 0);
            (18, 8): qmod_10_set(26, 0);
            (18, 9): qmod_10_set(27, 0);
            (18, 10): qmod_10_set(28, 0);
            (18, 11): qmod_10_set(29, 0);
            (18, 12): qmod_10_set(30, 0);
            (18, 13): qmod_10_set(31, 0);
            (18, 14): qmod_10_set(0, 0);
            (18, 15): qmod_10_set(1, 0);
            (18, 16): qmod_10_set(2, 0);
            (18, 17): qmod_10_set(3, 0);
            (18, 18): qmod_10_set(4, 0);
            (18, 19): qmod_10_set(5, 0);
            (18, 20): qmod_10_set(6, 0);
            (18, 21): qmod_10_set(7, 0);
            (18, 22): qmod_10_set(8, 0);
            (18, 23): qmod_10_set(9, 0);
            (18, 24): qmod_10_set(10, 0);
            (18, 25): qmod_10_set(11, 0);
            (18, 26): qmod_10_set(12, 0);
            (18, 27): qmod_10_set(13, 0);
            (18, 28): qmod_10_set(14, 0);
            (18, 29): qmod_10_set(15, 0);
            (18, 30): qmod_10_set(16, 0);
            (18, 31): qmod_10_set(17, 0);
            (19, 0): qmod_10_set(19, 1);
            (19, 1): qmod_10_set(20, 0);
            (19, 2): qmod_10_set(21, 0);
            (19, 3): qmod_10_set(22, 0);
            (19, 4): qmod_10_set(23, 0);
            (19, 5): qmod_10_set(24, 0);
            (19, 6): qmod_10_set(25, 0);
            (19, 7): qmod_10_set(26, 0);
            (19, 8): qmod_10_set(27, 0);
            (19, 9): qmod_10_set(28, 0);
            (19, 10): qmod_10_set(29, 0);
            (19, 11): qmod_10_set(30, 0);
            (19, 12): qmod_10_set(31, 0);
            (19, 13): qmod_10_set(0, 0);
            (19, 14): qmod_10_set(1, 0);
            (19, 15): qmod_10_set(2, 0);
            (19, 16): qmod_10_set(3, 0);
            (19, 17): qmod_10_set(4, 0);
            (19, 18): qmod_10_set(5, 0);
            (19, 19): qmod_10_set(6, 0);
            (19, 20): qmod_10_set(7, 0);
            (19, 21): qmod_10_set(8, 0);
            (19, 22): qmod_10_set(9, 0);
            (19, 23): qmod_10_set(10, 0);
            (19, 24): qmod_10_set(11, 0);
            (19, 25): qmod_10_set(12, 0);
            (19, 26): qmod_10_set(13, 0);
            (19, 27): qmod_10_set(14, 0);
            (19, 28): qmod_10_set(15, 0);
            (19, 29): qmod_10_set(16, 0);
            (19, 30): qmod_10_set(17, 0);
            (19, 31): qmod_10_set(18, 0);
            (20, 0): qmod_10_set(20, 1);
            (20, 1): qmod_10_set(21, 0);
            (20, 2): qmod_10_set(22, 0);
            (20, 3): qmod_10_set(23, 0);
            (20, 4): qmod_10_set(24, 0);
            (20, 5): qmod_10_set(25, 0);
            (20, 6): qmod_10_set(26, 0);
            (20, 7): qmod_10_set(27, 0);
            (20, 8): qmod_10_set(28, 0);
            (20, 9): qmod_10_set(29, 0);
            (20, 10): qmod_10_set(30, 0);
            (20, 11): qmod_10_set(31, 0);
            (20, 12): qmod_10_set(0, 0);
            (20, 13): qmod_10_set(1, 0);
            (20, 14): qmod_10_set(2, 0);
            (20, 15): qmod_10_set(3, 0);
            (20, 16): qmod_10_set(4, 0);
            (20, 17): qmod_10_set(5, 0);
            (20, 18): qmod_10_set(6, 0);
            (20, 19): qmod_10_set(7, 0);
            (20, 20): qmod_10_set(8, 0);
            (20, 21): qmod_10_set(9, 0);
            (20, 22): qmod_10_set(10, 0);
            (20, 23): qmod_10_set(11, 0);
            (20, 24): qmod_10_set(12, 0);
            (20, 25): qmod_10_set(13, 0);
            (20, 26): qmod_10_set(14, 0);
            (20, 27): qmod_10_set(15, 0);
            (20, 28): qmod_10_set(16, 0);
            (20, 29): qmod_10_set(17, 0);
            (20, 30): qmod_10_set(18, 0);
            (20, 31): qmod_10_set(19, 0);
            (21, 0): qmod_10_set(21, 1);
            (21, 1): qmod_10_set(22, 0);
            (21, 2): qmod_10_set(23, 0);
            (21, 3): qmod_10_set(24, 0);
            (21, 4): qmod_10_set(25, 0);
            (21, 5): qmod_10_set(26, 0);
            (21, 6): qmod_10_set(27, 0);
            (21, 7): qmod_10_set(28, 0);
            (21, 8): qmod_10_set(29, 0);
            (21, 9): qmod_10_set(30, 0);
            (21, 10): qmod_10_set(31, 0);
            (21, 11): qmod_10_set(0, 0);
            (21, 12): qmod_10_set(1, 0);
            (21, 13): qmod_10_set(2, 0);
            (21, 14): qmod_10_set(3, 0);
            (21, 15): qmod_10_set(4, 0);
            (21, 16): qmod_10_set(5, 0);
            (21, 17): qmod_10_set(6, 0);
            (21, 18): qmod_10_set(7, 0);
            (21, 19): qmod_10_set(8, 0);
            (21, 20): qmod_10_set(9, 0);
            (21, 21): qmod_10_set(10, 0);
            (21, 22): qmod_10_set(11, 0);
            (21, 23): qmod_10_set(12, 0);
            (21, 24): qmod_10_set(13, 0);
            (21, 25): qmod_10_set(14, 0);
            (21, 26): qmod_10_set(15, 0);
            (21, 27): qmod_10_set(16, 0);
            (21, 28): qmod_10_set(17, 0);
            (21, 29): qmod_10_set(18, 0);
            (21, 30): qmod_10_set(19, 0);
            (21, 31): qmod_10_set(20, 0);
            (22, 0): qmod_10_set(22, 1);
            (22, 1): qmod_10_set(23, 0);
            (22, 2): qmod_10_set(24, 0);
            (22, 3): qmod_10_set(25, 0);
            (22, 4): qmod_10_set(26, 0);
            (22, 5): qmod_10_set(27, 0);
            (22, 6): qmod_10_set(28, 0);
            (22, 7): qmod_10_set(29, 0);
            (22, 8): qmod_10_set(30, 0);
            (22, 9): qmod_10_set(31, 0);
            (22, 10): qmod_10_set(0, 0);
            (22, 11): qmod_10_set(1, 0);
            (22, 12): qmod_10_set(2, 0);
            (22, 13): qmod_10_set(3, 0);
            (22, 14): qmod_10_set(4, 0);
            (22, 15): qmod_10_set(5, 0);
            (22, 16): qmod_10_set(6, 0);
            (22, 17): qmod_10_set(7, 0);
            (22, 18): qmod_10_set(8, 0);
            (22, 19): qmod_10_set(9, 0);
            (22, 20): qmod_10_set(10, 0);
            (22, 21): qmod_10_set(11, 0);
            (22, 22): qmod_10_set(12, 0);
            (22, 23): qmod_10_set(13, 0);
            (22, 24): qmod_10_set(14, 0);
            (22, 25): qmod_10_set(15, 0);
            (22, 26): qmod_10_set(16, 0);
            (22, 27): qmod_10_set(17, 0);
            (22, 28): qmod_10_set(18, 0);
            (22, 29): qmod_10_set(19, 0);
            (22, 30): qmod_10_set(20, 0);
            (22, 31): qmod_10_set(21, 0);
            (23, 0): qmod_10_set(23, 1);
            (23, 1): qmod_10_set(24, 0);
            (23, 2): qmod_10_set(25, 0);
            (23, 3): qmod_10_set(26, 0);
            (23, 4): qmod_10_set(27, 0);
            (23, 5): qmod_10_set(28, 0);
            (23, 6): qmod_10_set(29, 0);
            (23, 7): qmod_10_set(30, 0);
            (23, 8): qmod_10_set(31, 0);
            (23, 9): qmod_10_set(0, 0);
            (23, 10): qmod_10_set(1, 0);
            (23, 11): qmod_10_set(2, 0);
            (23, 12): qmod_10_set(3, 0);
            (23, 13): qmod_10_set(4, 0);
            (23, 14): qmod_10_set(5, 0);
            (23, 15): qmod_10_set(6, 0);
            (23, 16): qmod_10_set(7, 0);
            (23, 17): qmod_10_set(8, 0);
            (23, 18): qmod_10_set(9, 0);
            (23, 19): qmod_10_set(10, 0);
            (23, 20): qmod_10_set(11, 0);
            (23, 21): qmod_10_set(12, 0);
            (23, 22): qmod_10_set(13, 0);
            (23, 23): qmod_10_set(14, 0);
            (23, 24): qmod_10_set(15, 0);
            (23, 25): qmod_10_set(16, 0);
            (23, 26): qmod_10_set(17, 0);
            (23, 27): qmod_10_set(18, 0);
            (23, 28): qmod_10_set(19, 0);
            (23, 29): qmod_10_set(20, 0);
            (23, 30): qmod_10_set(21, 0);
            (23, 31): qmod_10_set(22, 0);
            (24, 0): qmod_10_set(24, 1);
            (24, 1): qmod_10_set(25, 0);
            (24, 2): qmod_10_set(26, 0);
            (24, 3): qmod_10_set(27, 0);
            (24, 4): qmod_10_set(28, 0);
            (24, 5): qmod_10_set(29, 0);
            (24, 6): qmod_10_set(30, 0);
            (24, 7): qmod_10_set(31, 0);
            (24, 8): qmod_10_set(0, 0);
            (24, 9): qmod_10_set(1, 0);
            (24, 10): qmod_10_set(2, 0);
            (24, 11): qmod_10_set(3, 0);
            (24, 12): qmod_10_set(4, 0);
            (24, 13): qmod_10_set(5, 0);
            (24, 14): qmod_10_set(6, 0);
            (24, 15): qmod_10_set(7, 0);
            (24, 16): qmod_10_set(8, 0);
            (24, 17): qmod_10_set(9, 0);
            (24, 18): qmod_10_set(10, 0);
            (24, 19): qmod_10_set(11, 0);
            (24, 20): qmod_10_set(12, 0);
            (24, 21): qmod_10_set(13, 0);
            (24, 22): qmod_10_set(14, 0);
            (24, 23): qmod_10_set(15, 0);
            (24, 24): qmod_10_set(16, 0);
            (24, 25): qmod_10_set(17, 0);
            (24, 26): qmod_10_set(18, 0);
            (24, 27): qmod_10_set(19, 0);
            (24, 28): qmod_10_set(20, 0);
            (24, 29): qmod_10_set(21, 0);
            (24, 30): qmod_10_set(22, 0);
            (24, 31): qmod_10_set(23, 0);
            (25, 0): qmod_10_set(25, 1);
            (25, 1): qmod_10_set(26, 0);
            (25, 2): qmod_10_set(27, 0);
            (25, 3): qmod_10_set(28, 0);
            (25, 4): qmod_10_set(29, 0);
            (25, 5): qmod_10_set(30, 0);
            (25, 6): qmod_10_set(31, 0);
            (25, 7): qmod_10_set(0, 0);
            (25, 8): qmod_10_set(1, 0);
            (25, 9): qmod_10_set(2, 0);
            (25, 10): qmod_10_set(3, 0);
            (25, 11): qmod_10_set(4, 0);
            (25, 12): qmod_10_set(5, 0);
            (25, 13): qmod_10_set(6, 0);
            (25, 14): qmod_10_set(7, 0);
            (25, 15): qmod_10_set(8, 0);
            (25, 16): qmod_10_set(9, 0);
            (25, 17): qmod_10_set(10, 0);
            (25, 18): qmod_10_set(11, 0);
            (25, 19): qmod_10_set(12, 0);
            (25, 20): qmod_10_set(13, 0);
            (25, 21): qmod_10_set(14, 0);
            (25, 22): qmod_10_set(15, 0);
            (25, 23): qmod_10_set(16, 0);
            (25, 24): qmod_10_set(17, 0);
            (25, 25): qmod_10_set(18, 0);
            (25, 26): qmod_10_set(19, 0);
            (25, 27): qmod_10_set(20, 0);
            (25, 28): qmod_10_set(21, 0);
            (25, 29): qmod_10_set(22, 0);
            (25, 30): qmod_10_set(23, 0);
            (25, 31): qmod_10_set(24, 0);
            (26, 0): qmod_10_set(26, 1);
            (26, 1): qmod_10_set(27, 0);
            (26, 2): qmod_10_set(28, 0);
            (26, 3): qmod_10_set(29, 0);
            (26, 4): qmod_10_set(30, 0);
            (26, 5): qmod_10_set(31, 0);
            (26, 6): qmod_10_set(0, 0);
            (26, 7): qmod_10_set(1, 0);
            (26, 8): qmod_10_set(2, 0);
            (26, 9): qmod_10_set(3, 0);
            (26, 10): qmod_10_set(4, 0);
            (26, 11): qmod_10_set(5, 0);
            (26, 12): qmod_10_set(6, 0);
            (26, 13): qmod_10_set(7, 0);
            (26, 14): qmod_10_set(8, 0);
            (26, 15): qmod_10_set(9, 0);
            (26, 16): qmod_10_set(10, 0);
            (26, 17): qmod_10_set(11, 0);
            (26, 18): qmod_10_set(12, 0);
            (26, 19): qmod_10_set(13, 0);
            (26, 20): qmod_10_set(14, 0);
            (26, 21): qmod_10_set(15, 0);
            (26, 22): qmod_10_set(16, 0);
            (26, 23): qmod_10_set(17, 0);
            (26, 24): qmod_10_set(18, 0);
            (26, 25): qmod_10_set(19, 0);
            (26, 26): qmod_10_set(20, 0);
            (26, 27): qmod_10_set(21, 0);
            (26, 28): qmod_10_set(22, 0);
            (26, 29): qmod_10_set(23, 0);
            (26, 30): qmod_10_set(24, 0);
            (26, 31): qmod_10_set(25, 0);
            (27, 0): qmod_10_set(27, 1);
            (27, 1): qmod_10_set(28, 0);
            (27, 2): qmod_10_set(29, 0);
            (27, 3): qmod_10_set(30, 0);
            (27, 4): qmod_10_set(31, 0);
            (27, 5): qmod_10_set(0, 0);
            (27, 6): qmod_10_set(1, 0);
            (27, 7): qmod_10_set(2, 0);
            (27, 8): qmod_10_set(3, 0);
            (27, 9): qmod_10_set(4, 0);
            (27, 10): qmod_10_set(5, 0);
            (27, 11): qmod_10_set(6, 0);
            (27, 12): qmod_10_set(7, 0);
            (27, 13): qmod_10_set(8, 0);
            (27, 14): qmod_10_set(9, 0);
            (27, 15): qmod_10_set(10, 0);
            (27, 16): qmod_10_set(11, 0);
            (27, 17): qmod_10_set(12, 0);
            (27, 18): qmod_10_set(13, 0);
            (27, 19): qmod_10_set(14, 0);
            (27, 20): qmod_10_set(15, 0);
            (27, 21): qmod_10_set(16, 0);
            (27, 22): qmod_10_set(17, 0);
            (27, 23): qmod_10_set(18, 0);
            (27, 24): qmod_10_set(19, 0);
            (27, 25): qmod_10_set(20, 0);
            (27, 26): qmod_10_set(21, 0);
            (27, 27): qmod_10_set(22, 0);
            (27, 28): qmod_10_set(23, 0);
            (27, 29): qmod_10_set(24, 0);
            (27, 30): qmod_10_set(25, 0);
            (27, 31): qmod_10_set(26, 0);
            (28, 0): qmod_10_set(28, 1);
            (28, 1): qmod_10_set(29, 0);
            (28, 2): qmod_10_set(30, 0);
            (28, 3): qmod_10_set(31, 0);
            (28, 4): qmod_10_set(0, 0);
            (28, 5): qmod_10_set(1, 0);
            (28, 6): qmod_10_set(2, 0);
            (28, 7): qmod_10_set(3, 0);
            (28, 8): qmod_10_set(4, 0);
            (28, 9): qmod_10_set(5, 0);
            (28, 10): qmod_10_set(6, 0);
            (28, 11): qmod_10_set(7, 0);
            (28, 12): qmod_10_set(8, 0);
            (28, 13): qmod_10_set(9, 0);
            (28, 14): qmod_10_set(10, 0);
            (28, 15): qmod_10_set(11, 0);
            (28, 16): qmod_10_set(12, 0);
            (28, 17): qmod_10_set(13, 0);
            (28, 18): qmod_10_set(14, 0);
            (28, 19): qmod_10_set(15, 0);
            (28, 20): qmod_10_set(16, 0);
            (28, 21): qmod_10_set(17, 0);
            (28, 22): qmod_10_set(18, 0);
            (28, 23): qmod_10_set(19, 0);
            (28, 24): qmod_10_set(20, 0);
            (28, 25): qmod_10_set(21, 0);
            (28, 26): qmod_10_set(22, 0);
            (28, 27): qmod_10_set(23, 0);
            (28, 28): qmod_10_set(24, 0);
            (28, 29): qmod_10_set(25, 0);
            (28, 30): qmod_10_set(26, 0);
            (28, 31): qmod_10_set(27, 0);
            (29, 0): qmod_10_set(29, 1);
            (29, 1): qmod_10_set(30, 0);
            (29, 2): qmod_10_set(31, 0);
            (29, 3): qmod_10_set(0, 0);
            (29, 4): qmod_10_set(1, 0);
            (29, 5): qmod_10_set(2, 0);
            (29, 6): qmod_10_set(3, 0);
            (29, 7): qmod_10_set(4, 0);
            (29, 8): qmod_10_set(5, 0);
            (29, 9): qmod_10_set(6, 0);
            (29, 10): qmod_10_set(7, 0);
            (29, 11): qmod_10_set(8, 0);
            (29, 12): qmod_10_set(9, 0);
            (29, 13): qmod_10_set(10, 0);
            (29, 14): qmod_10_set(11, 0);
            (29, 15): qmod_10_set(12, 0);
            (29, 16): qmod_10_set(13, 0);
            (29, 17): qmod_10_set(14, 0);
            (29, 18): qmod_10_set(15, 0);
            (29, 19): qmod_10_set(16, 0);
            (29, 20): qmod_10_set(17, 0);
            (29, 21): qmod_10_set(18, 0);
            (29, 22): qmod_10_set(19, 0);
            (29, 23): qmod_10_set(20, 0);
            (29, 24): qmod_10_set(21, 0);
            (29, 25): qmod_10_set(22, 0);
            (29, 26): qmod_10_set(23, 0);
            (29, 27): qmod_10_set(24, 0);
            (29, 28): qmod_10_set(25, 0);
            (29, 29): qmod_10_set(26, 0);
            (29, 30): qmod_10_set(27, 0);
            (29, 31): qmod_10_set(28, 0);
            (30, 0): qmod_10_set(30, 1);
            (30, 1): qmod_10_set(31, 0);
            (30, 2): qmod_10_set(0, 0);
            (30, 3): qmod_10_set(1, 0);
            (30, 4): qmod_10_set(2, 0);
            (30, 5): qmod_10_set(3, 0);
            (30, 6): qmod_10_set(4, 0);
            (30, 7): qmod_10_set(5, 0);
            (30, 8): qmod_10_set(6, 0);
            (30, 9): qmod_10_set(7, 0);
            (30, 10): qmod_10_set(8, 0);
            (30, 11): qmod_10_set(9, 0);
            (30, 12): qmod_10_set(10, 0);
            (30, 13): qmod_10_set(11, 0);
            (30, 14): qmod_10_set(12, 0);
            (30, 15): qmod_10_set(13, 0);
            (30, 16): qmod_10_set(14, 0);
            (30, 17): qmod_10_set(15, 0);
            (30, 18): qmod_10_set(16, 0);
            (30, 19): qmod_10_set(17, 0);
            (30, 20): qmod_10_set(18, 0);
            (30, 21): qmod_10_set(19, 0);
            (30, 22): qmod_10_set(20, 0);
            (30, 23): qmod_10_set(21, 0);
            (30, 24): qmod_10_set(22, 0);
            (30, 25): qmod_10_set(23, 0);
            (30, 26): qmod_10_set(24, 0);
            (30, 27): qmod_10_set(25, 0);
            (30, 28): qmod_10_set(26, 0);
            (30, 29): qmod_10_set(27, 0);
            (30, 30): qmod_10_set(28, 0);
            (30, 31): qmod_10_set(29, 0);
            (31, 0): qmod_10_set(31, 1);
            (31, 1): qmod_10_set(0, 0);
            (31, 2): qmod_10_set(1, 0);
            (31, 3): qmod_10_set(2, 0);
            (31, 4): qmod_10_set(3, 0);
            (31, 5): qmod_10_set(4, 0);
            (31, 6): qmod_10_set(5, 0);
            (31, 7): qmod_10_set(6, 0);
            (31, 8): qmod_10_set(7, 0);
            (31, 9): qmod_10_set(8, 0);
            (31, 10): qmod_10_set(9, 0);
            (31, 11): qmod_10_set(10, 0);
            (31, 12): qmod_10_set(11, 0);
            (31, 13): qmod_10_set(12, 0);
            (31, 14): qmod_10_set(13, 0);
            (31, 15): qmod_10_set(14, 0);
            (31, 16): qmod_10_set(15, 0);
            (31, 17): qmod_10_set(16, 0);
            (31, 18): qmod_10_set(17, 0);
            (31, 19): qmod_10_set(18, 0);
            (31, 20): qmod_10_set(19, 0);
            (31, 21): qmod_10_set(20, 0);
            (31, 22): qmod_10_set(21, 0);
            (31, 23): qmod_10_set(22, 0);
            (31, 24): qmod_10_set(23, 0);
            (31, 25): qmod_10_set(24, 0);
            (31, 26): qmod_10_set(25, 0);
            (31, 27): qmod_10_set(26, 0);
            (31, 28): qmod_10_set(27, 0);
            (31, 29): qmod_10_set(28, 0);
            (31, 30): qmod_10_set(29, 0);
            (31, 31): qmod_10_set(30, 0);
        }
        size = 1024;
    }
    Hash<qidx_t>(HashAlgorithm_t.IDENTITY) qidx_10_hash;
    action slot_10_ok() { meta.alt_ok_10 = meta.alt_pre_10 & meta.alt_unfull_10; }
    /* copy 10's one access per packet, by what the packet is (q_op): a front-panel packet
     * tests slot 10's queue, a pause clears a drained queue, a port-down or queue-state
     * update sets it. One table per copy, so each stage's stateful ALUs take four copies. */
    action q_10_test() { meta.alt_unfull_10 = qstate_10_test.execute(meta.alt_i_10); }
    action q_10_set() { qstate_10_set.execute(meta.alt_i_10); }
    action q_10_clear() { qstate_10_clear.execute(meta.alt_i_10); }
    table qstate_10_op {
        key = { meta.q_op: exact; }
        actions = { q_10_test; q_10_set; q_10_clear; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            Q_TEST: q_10_test();
            Q_SET: q_10_set();
            Q_CLEAR: q_10_clear();
        }
        size = 3;
    }
    action slot_10_i() { meta.alt_i_10 = qidx_10_hash.get({meta.alt_up_10, meta.alt_q_10}); }
    /* slot 10's uplink masked down by the control plane (the config's `down`): the slot
     * counts as Full (as bmv2: a failed uplink is passed over). One ternary entry per uplink
     * tests its bit of the mask (no shift of the mask by a packet's field). */
    action slot_10_down() { meta.alt_dn_10 = 1; }
    table down_10 {
        key = {
            meta.alt_up_10: exact @name("uplink");
            meta.down_cfg: ternary @name("down");
        }
        actions = { slot_10_down; NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0x1 &&& 0x1): slot_10_down();
            (1, 0x2 &&& 0x2): slot_10_down();
            (2, 0x4 &&& 0x4): slot_10_down();
            (3, 0x8 &&& 0x8): slot_10_down();
            (4, 0x10 &&& 0x10): slot_10_down();
            (5, 0x20 &&& 0x20): slot_10_down();
            (6, 0x40 &&& 0x40): slot_10_down();
            (7, 0x80 &&& 0x80): slot_10_down();
            (8, 0x100 &&& 0x100): slot_10_down();
            (9, 0x200 &&& 0x200): slot_10_down();
            (10, 0x400 &&& 0x400): slot_10_down();
            (11, 0x800 &&& 0x800): slot_10_down();
            (12, 0x1000 &&& 0x1000): slot_10_down();
            (13, 0x2000 &&& 0x2000): slot_10_down();
            (14, 0x4000 &&& 0x4000): slot_10_down();
            (15, 0x8000 &&& 0x8000): slot_10_down();
            (16, 0x10000 &&& 0x10000): slot_10_down();
            (17, 0x20000 &&& 0x20000): slot_10_down();
            (18, 0x40000 &&& 0x40000): slot_10_down();
            (19, 0x80000 &&& 0x80000): slot_10_down();
            (20, 0x100000 &&& 0x100000): slot_10_down();
            (21, 0x200000 &&& 0x200000): slot_10_down();
            (22, 0x400000 &&& 0x400000): slot_10_down();
            (23, 0x800000 &&& 0x800000): slot_10_down();
            (24, 0x1000000 &&& 0x1000000): slot_10_down();
            (25, 0x2000000 &&& 0x2000000): slot_10_down();
            (26, 0x4000000 &&& 0x4000000): slot_10_down();
            (27, 0x8000000 &&& 0x8000000): slot_10_down();
            (28, 0x10000000 &&& 0x10000000): slot_10_down();
            (29, 0x20000000 &&& 0x20000000): slot_10_down();
            (30, 0x40000000 &&& 0x40000000): slot_10_down();
            (31, 0x80000000 &&& 0x80000000): slot_10_down();
        }
        size = 32;
    }

    /* The first usable slot wins (one ternary lookup over the slots' ok bits): URO
     * alternatives 0..K-1 in order, or the SSRR hop (slot 10; only one kind is in play). */
    action pick_0() {
        meta.have_dep = 1;
        meta.dep_alt = 0;
        meta.dep_up = meta.alt_up_0;
        meta.dep_q = meta.alt_q_0;
        meta.dep_act = meta.alt_act_0;
        meta.dep_i = meta.alt_i_0;
        meta.dep_mirror = 1;      // a Full mark carries slot 0's queue and rank
    }
    action pick_1() {
        meta.have_dep = 1;
        meta.dep_alt = 1;
        meta.dep_up = meta.alt_up_1;
        meta.dep_q = meta.alt_q_1;
        meta.dep_act = meta.alt_act_1;
        meta.dep_i = meta.alt_i_1;
        meta.dep_mirror = 2;      // a Full mark carries slot 1's queue and rank
    }
    action pick_2() {
        meta.have_dep = 1;
        meta.dep_alt = 2;
        meta.dep_up = meta.alt_up_2;
        meta.dep_q = meta.alt_q_2;
        meta.dep_act = meta.alt_act_2;
        meta.dep_i = meta.alt_i_2;
        meta.dep_mirror = 3;      // a Full mark carries slot 2's queue and rank
    }
    action pick_3() {
        meta.have_dep = 1;
        meta.dep_alt = 3;
        meta.dep_up = meta.alt_up_3;
        meta.dep_q = meta.alt_q_3;
        meta.dep_act = meta.alt_act_3;
        meta.dep_i = meta.alt_i_3;
        meta.dep_mirror = 4;      // a Full mark carries slot 3's queue and rank
    }
    action pick_4() {
        meta.have_dep = 1;
        meta.dep_alt = 4;
        meta.dep_up = meta.alt_up_4;
        meta.dep_q = meta.alt_q_4;
        meta.dep_act = meta.alt_act_4;
        meta.dep_i = meta.alt_i_4;
        meta.dep_mirror = 5;      // a Full mark carries slot 4's queue and rank
    }
    action pick_5() {
        meta.have_dep = 1;
        meta.dep_alt = 5;
        meta.dep_up = meta.alt_up_5;
        meta.dep_q = meta.alt_q_5;
        meta.dep_act = meta.alt_act_5;
        meta.dep_i = meta.alt_i_5;
        meta.dep_mirror = 6;      // a Full mark carries slot 5's queue and rank
    }
    action pick_6() {
        meta.have_dep = 1;
        meta.dep_alt = 6;
        meta.dep_up = meta.alt_up_6;
        meta.dep_q = meta.alt_q_6;
        meta.dep_act = meta.alt_act_6;
        meta.dep_i = meta.alt_i_6;
        meta.dep_mirror = 7;      // a Full mark carries slot 6's queue and rank
    }
    action pick_7() {
        meta.have_dep = 1;
        meta.dep_alt = 7;
        meta.dep_up = meta.alt_up_7;
        meta.dep_q = meta.alt_q_7;
        meta.dep_act = meta.alt_act_7;
        meta.dep_i = meta.alt_i_7;
        meta.dep_mirror = 8;      // a Full mark carries slot 7's queue and rank
    }
    action pick_8() {
        meta.have_dep = 1;
        meta.dep_alt = 8;
        meta.dep_up = meta.alt_up_8;
        meta.dep_q = meta.alt_q_8;
        meta.dep_act = meta.alt_act_8;
        meta.dep_i = meta.alt_i_8;
        meta.dep_mirror = 9;      // a Full mark carries slot 8's queue and rank
    }
    action pick_9() {
        meta.have_dep = 1;
        meta.dep_alt = 9;
        meta.dep_up = meta.alt_up_9;
        meta.dep_q = meta.alt_q_9;
        meta.dep_act = meta.alt_act_9;
        meta.dep_i = meta.alt_i_9;
        meta.dep_mirror = 10;      // a Full mark carries slot 9's queue and rank
    }
    action pick_10() {
        meta.have_dep = 1;
        meta.dep_alt = 10;
        meta.dep_up = meta.alt_up_10;
        meta.dep_q = meta.alt_q_10;
        meta.dep_act = meta.alt_act_10;
        meta.dep_i = meta.alt_i_10;
        meta.dep_mirror = 11;      // a Full mark carries slot 10's queue and rank
    }
    action pick_none() { meta.have_dep = 0; }
    table choose {
        key = {
            meta.alt_ok_0: ternary;
            meta.alt_ok_1: ternary;
            meta.alt_ok_2: ternary;
            meta.alt_ok_3: ternary;
            meta.alt_ok_4: ternary;
            meta.alt_ok_5: ternary;
            meta.alt_ok_6: ternary;
            meta.alt_ok_7: ternary;
            meta.alt_ok_8: ternary;
            meta.alt_ok_9: ternary;
            meta.alt_ok_10: ternary;
        }
        actions = { pick_0; pick_1; pick_2; pick_3; pick_4; pick_5; pick_6; pick_7; pick_8; pick_9; pick_10; @defaultonly pick_none; }
        default_action = pick_none();
        const entries = {
            (1, _, _, _, _, _, _, _, _, _, _): pick_0();
            (0, 1, _, _, _, _, _, _, _, _, _): pick_1();
            (0, 0, 1, _, _, _, _, _, _, _, _): pick_2();
            (0, 0, 0, 1, _, _, _, _, _, _, _): pick_3();
            (0, 0, 0, 0, 1, _, _, _, _, _, _): pick_4();
            (0, 0, 0, 0, 0, 1, _, _, _, _, _): pick_5();
            (0, 0, 0, 0, 0, 0, 1, _, _, _, _): pick_6();
            (0, 0, 0, 0, 0, 0, 0, 1, _, _, _): pick_7();
            (0, 0, 0, 0, 0, 0, 0, 0, 1, _, _): pick_8();
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, _): pick_9();
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1): pick_10();
        }
        size = 11;
    }

    /* the alternatives in play: skip <= r < n (one lookup instead of range tests per slot) */
    action slots_in_play(bit<1> c0, bit<1> c1, bit<1> c2, bit<1> c3, bit<1> c4, bit<1> c5, bit<1> c6, bit<1> c7, bit<1> c8, bit<1> c9) {
        meta.alt_c_0 = c0;
        meta.alt_c_1 = c1;
        meta.alt_c_2 = c2;
        meta.alt_c_3 = c3;
        meta.alt_c_4 = c4;
        meta.alt_c_5 = c5;
        meta.alt_c_6 = c6;
        meta.alt_c_7 = c7;
        meta.alt_c_8 = c8;
        meta.alt_c_9 = c9;
    }
    table slot_range {
        key = {
            meta.skip:   exact;
            meta.n_alts: exact;
        }
        actions = { slots_in_play; }
        default_action = slots_in_play(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        const entries = {
            (0, 1): slots_in_play(1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
            (0, 2): slots_in_play(1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
            (0, 3): slots_in_play(1, 1, 1, 0, 0, 0, 0, 0, 0, 0);
            (0, 4): slots_in_play(1, 1, 1, 1, 0, 0, 0, 0, 0, 0);
            (0, 5): slots_in_play(1, 1, 1, 1, 1, 0, 0, 0, 0, 0);
            (0, 6): slots_in_play(1, 1, 1, 1, 1, 1, 0, 0, 0, 0);
            (0, 7): slots_in_play(1, 1, 1, 1, 1, 1, 1, 0, 0, 0);
            (0, 8): slots_in_play(1, 1, 1, 1, 1, 1, 1, 1, 0, 0);
            (0, 9): slots_in_play(1, 1, 1, 1, 1, 1, 1, 1, 1, 0);
            (0, 10): slots_in_play(1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
            (1, 2): slots_in_play(0, 1, 0, 0, 0, 0, 0, 0, 0, 0);
            (1, 3): slots_in_play(0, 1, 1, 0, 0, 0, 0, 0, 0, 0);
            (1, 4): slots_in_play(0, 1, 1, 1, 0, 0, 0, 0, 0, 0);
            (1, 5): slots_in_play(0, 1, 1, 1, 1, 0, 0, 0, 0, 0);
            (1, 6): slots_in_play(0, 1, 1, 1, 1, 1, 0, 0, 0, 0);
            (1, 7): slots_in_play(0, 1, 1, 1, 1, 1, 1, 0, 0, 0);
            (1, 8): slots_in_play(0, 1, 1, 1, 1, 1, 1, 1, 0, 0);
            (1, 9): slots_in_play(0, 1, 1, 1, 1, 1, 1, 1, 1, 0);
            (1, 10): slots_in_play(0, 1, 1, 1, 1, 1, 1, 1, 1, 1);
            (2, 3): slots_in_play(0, 0, 1, 0, 0, 0, 0, 0, 0, 0);
            (2, 4): slots_in_play(0, 0, 1, 1, 0, 0, 0, 0, 0, 0);
            (2, 5): slots_in_play(0, 0, 1, 1, 1, 0, 0, 0, 0, 0);
            (2, 6): slots_in_play(0, 0, 1, 1, 1, 1, 0, 0, 0, 0);
            (2, 7): slots_in_play(0, 0, 1, 1, 1, 1, 1, 0, 0, 0);
            (2, 8): slots_in_play(0, 0, 1, 1, 1, 1, 1, 1, 0, 0);
            (2, 9): slots_in_play(0, 0, 1, 1, 1, 1, 1, 1, 1, 0);
            (2, 10): slots_in_play(0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
            (3, 4): slots_in_play(0, 0, 0, 1, 0, 0, 0, 0, 0, 0);
            (3, 5): slots_in_play(0, 0, 0, 1, 1, 0, 0, 0, 0, 0);
            (3, 6): slots_in_play(0, 0, 0, 1, 1, 1, 0, 0, 0, 0);
            (3, 7): slots_in_play(0, 0, 0, 1, 1, 1, 1, 0, 0, 0);
            (3, 8): slots_in_play(0, 0, 0, 1, 1, 1, 1, 1, 0, 0);
            (3, 9): slots_in_play(0, 0, 0, 1, 1, 1, 1, 1, 1, 0);
            (3, 10): slots_in_play(0, 0, 0, 1, 1, 1, 1, 1, 1, 1);
            (4, 5): slots_in_play(0, 0, 0, 0, 1, 0, 0, 0, 0, 0);
            (4, 6): slots_in_play(0, 0, 0, 0, 1, 1, 0, 0, 0, 0);
            (4, 7): slots_in_play(0, 0, 0, 0, 1, 1, 1, 0, 0, 0);
            (4, 8): slots_in_play(0, 0, 0, 0, 1, 1, 1, 1, 0, 0);
            (4, 9): slots_in_play(0, 0, 0, 0, 1, 1, 1, 1, 1, 0);
            (4, 10): slots_in_play(0, 0, 0, 0, 1, 1, 1, 1, 1, 1);
            (5, 6): slots_in_play(0, 0, 0, 0, 0, 1, 0, 0, 0, 0);
            (5, 7): slots_in_play(0, 0, 0, 0, 0, 1, 1, 0, 0, 0);
            (5, 8): slots_in_play(0, 0, 0, 0, 0, 1, 1, 1, 0, 0);
            (5, 9): slots_in_play(0, 0, 0, 0, 0, 1, 1, 1, 1, 0);
            (5, 10): slots_in_play(0, 0, 0, 0, 0, 1, 1, 1, 1, 1);
            (6, 7): slots_in_play(0, 0, 0, 0, 0, 0, 1, 0, 0, 0);
            (6, 8): slots_in_play(0, 0, 0, 0, 0, 0, 1, 1, 0, 0);
            (6, 9): slots_in_play(0, 0, 0, 0, 0, 0, 1, 1, 1, 0);
            (6, 10): slots_in_play(0, 0, 0, 0, 0, 0, 1, 1, 1, 1);
            (7, 8): slots_in_play(0, 0, 0, 0, 0, 0, 0, 1, 0, 0);
            (7, 9): slots_in_play(0, 0, 0, 0, 0, 0, 0, 1, 1, 0);
            (7, 10): slots_in_play(0, 0, 0, 0, 0, 0, 0, 1, 1, 1);
            (8, 9): slots_in_play(0, 0, 0, 0, 0, 0, 0, 0, 1, 0);
            (8, 10): slots_in_play(0, 0, 0, 0, 0, 0, 0, 0, 1, 1);
            (9, 10): slots_in_play(0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
        }
        size = 55;
    }

    /* ---- admission: units booked per (uplink, queue) since the queue last drained ------
     * `f` is how far the queue's slice is booked. A packet is admitted only if it fits the
     * slice's capacity (CAP_UNITS); for the active queue the time already gone (e_floor) is
     * booked first: a queue idle until now starts there, charged one full frame
     * (conservative: a stateful ALU takes two operands). A later queue has no time gone:
     * its own RegisterAction on the same register (one access per packet either way). */
    Register<units_t, qidx_t>(8192, 0) qfin_reg;
    RegisterAction<units_t, qidx_t, units_t>(qfin_reg) admit_active = {
        void apply(inout units_t f, out units_t ok, out units_t fin) {
            ok = 0;
            if (f < meta.e_floor) {
                f = meta.e_floor + MTU_UNITS;
                ok = 1;
            } else if (f + meta.len <= CAP_UNITS) {
                f = f + meta.len;
                ok = 1;
            }
            fin = f;
        }
    };
    RegisterAction<units_t, qidx_t, units_t>(qfin_reg) admit_later = {
        void apply(inout units_t f, out units_t ok, out units_t fin) {
            ok = 0;
            if (f + meta.len <= CAP_UNITS) {
                f = f + meta.len;
                ok = 1;
            }
            fin = f;
        }
    };
    RegisterAction<units_t, qidx_t, units_t>(qfin_reg) qfin_reset = {
        void apply(inout units_t f) { f = 0; }
    };

    /* ---- single-operation steps (a Tofino action runs in one stage; widths never mix) --- */
    action cfg_down_of_uplink() { meta.down_hit = meta.down_cfg & meta.down_upbit; }
    action elapsed_ns() { meta.elapsed = ig_prsr_md.global_tstamp[31:0] - meta.slice_start; }
    action elapsed_quanta() { meta.elapsed = meta.elapsed >> 3; }
    action wire_a() {
        meta.body = hdr.ipv4.totalLen + FRAME_OVERHEAD;
        meta.wire_g = hdr.ipv4.totalLen + (FRAME_OVERHEAD + GROWTH_BYTES);
    }
    action wire_b() {
        meta.len = meta.body >> 2;
        meta.len_g = meta.wire_g >> 2;
    }

    /* Comparisons are min + xor, tested for zero: a range or sign test would split the
     * fields into PHV slices that the copies between them cannot follow. */
    action body_a() { meta.body = min(hdr.ipv4.totalLen, meta.hdr_bytes); }    // total >= header?
    action body_b() { meta.body = meta.body ^ meta.hdr_bytes; }                // != 0: shorter
    action active_a() {
        meta.need = meta.e_floor + meta.len;
        meta.need_g = meta.e_floor + meta.len_g;
    }

    /* (a - b) mod S of slice ids are tables keyed by both (S x S entries): no arithmetic on
     * the packet's hop fields, whose PHV containers are fixed by the header. */
    /* transit: rank = (hop slice - now) mod S; el = (now - previous hop's slice) mod S.
     * The wait planned here is (hop - prev) mod S = rank + el when on time, so
     * rank + el >= S means the hop's slice has passed (missed). */
    action hop_rank_set(bit<16> d) { meta.alt_wait_10 = d; }
    table hop_rank {
        key = {
            meta.hop_slice: exact;
            meta.cur_slice: exact;
        }
        actions = { hop_rank_set; }
        const entries = {
            (0, 0): hop_rank_set(0);
            (0, 1): hop_rank_set(31);
            (0, 2): hop_rank_set(30);
            (0, 3): hop_rank_set(29);
            (0, 4): hop_rank_set(28);
            (0, 5): hop_rank_set(27);
            (0, 6): hop_rank_set(26);
            (0, 7): hop_rank_set(25);
            (0, 8): hop_rank_set(24);
            (0, 9): hop_rank_set(23);
            (0, 10): hop_rank_set(22);
            (0, 11): hop_rank_set(21);
            (0, 12): hop_rank_set(20);
            (0, 13): hop_rank_set(19);
            (0, 14): hop_rank_set(18);
            (0, 15): hop_rank_set(17);
            (0, 16): hop_rank_set(16);
            (0, 17): hop_rank_set(15);
            (0, 18): hop_rank_set(14);
            (0, 19): hop_rank_set(13);
            (0, 20): hop_rank_set(12);
            (0, 21): hop_rank_set(11);
            (0, 22): hop_rank_set(10);
            (0, 23): hop_rank_set(9);
            (0, 24): hop_rank_set(8);
            (0, 25): hop_rank_set(7);
            (0, 26): hop_rank_set(6);
            (0, 27): hop_rank_set(5);
            (0, 28): hop_rank_set(4);
            (0, 29): hop_rank_set(3);
            (0, 30): hop_rank_set(2);
            (0, 31): hop_rank_set(1);
            (1, 0): hop_rank_set(1);
            (1, 1): hop_rank_set(0);
            (1, 2): hop_rank_set(31);
            (1, 3): hop_rank_set(30);
            (1, 4): hop_rank_set(29);
            (1, 5): hop_rank_set(28);
            (1, 6): hop_rank_set(27);
            (1, 7): hop_rank_set(26);
            (1, 8): hop_rank_set(25);
            (1, 9): hop_rank_set(24);
            (1, 10): hop_rank_set(23);
            (1, 11): hop_rank_set(22);
            (1, 12): hop_rank_set(21);
            (1, 13): hop_rank_set(20);
            (1, 14): hop_rank_set(19);
            (1, 15): hop_rank_set(18);
            (1, 16): hop_rank_set(17);
            (1, 17): hop_rank_set(16);
            (1, 18): hop_rank_set(15);
            (1, 19): hop_rank_set(14);
            (1, 20): hop_rank_set(13);
            (1, 21): hop_rank_set(12);
            (1, 22): hop_rank_set(11);
            (1, 23): hop_rank_set(10);
            (1, 24): hop_rank_set(9);
            (1, 25): hop_rank_set(8);
            (1, 26): hop_rank_set(7);
            (1, 27): hop_rank_set(6);
            (1, 28): hop_rank_set(5);
            (1, 29): hop_rank_set(4);
            (1, 30): hop_rank_set(3);
            (1, 31): hop_rank_set(2);
            (2, 0): hop_rank_set(2);
            (2, 1): hop_rank_set(1);
            (2, 2): hop_rank_set(0);
            (2, 3): hop_rank_set(31);
            (2, 4): hop_rank_set(30);
            (2, 5): hop_rank_set(29);
            (2, 6): hop_rank_set(28);
            (2, 7): hop_rank_set(27);
            (2, 8): hop_rank_set(26);
            (2, 9): hop_rank_set(25);
            (2, 10): hop_rank_set(24);
            (2, 11): hop_rank_set(23);
            (2, 12): hop_rank_set(22);
            (2, 13): hop_rank_set(21);
            (2, 14): hop_rank_set(20);
            (2, 15): hop_rank_set(19);
            (2, 16): hop_rank_set(18);
            (2, 17): hop_rank_set(17);
            (2, 18): hop_rank_set(16);
            (2, 19): hop_rank_set(15);
            (2, 20): hop_rank_set(14);
            (2, 21): hop_rank_set(13);
            (2, 22): hop_rank_set(12);
            (2, 23): hop_rank_set(11);
            (2, 24): hop_rank_set(10);
            (2, 25): hop_rank_set(9);
            (2, 26): hop_rank_set(8);
            (2, 27): hop_rank_set(7);
            (2, 28): hop_rank_set(6);
            (2, 29): hop_rank_set(5);
            (2, 30): hop_rank_set(4);
            (2, 31): hop_rank_set(3);
            (3, 0): hop_rank_set(3);
            (3, 1): hop_rank_set(2);
            (3, 2): hop_rank_set(1);
            (3, 3): hop_rank_set(0);
            (3, 4): hop_rank_set(31);
            (3, 5): hop_rank_set(30);
            (3, 6): hop_rank_set(29);
            (3, 7): hop_rank_set(28);
            (3, 8): hop_rank_set(27);
            (3, 9): hop_rank_set(26);
            (3, 10): hop_rank_set(25);
            (3, 11): hop_rank_set(24);
            (3, 12): hop_rank_set(23);
            (3, 13): hop_rank_set(22);
            (3, 14): hop_rank_set(21);
            (3, 15): hop_rank_set(20);
            (3, 16): hop_rank_set(19);
            (3, 17): hop_rank_set(18);
            (3, 18): hop_rank_set(17);
            (3, 19): hop_rank_set(16);
            (3, 20): hop_rank_set(15);
            (3, 21): hop_rank_set(14);
            (3, 22): hop_rank_set(13);
            (3, 23): hop_rank_set(12);
            (3, 24): hop_rank_set(11);
            (3, 25): hop_rank_set(10);
            (3, 26): hop_rank_set(9);
            (3, 27): hop_rank_set(8);
            (3, 28): hop_rank_set(7);
            (3, 29): hop_rank_set(6);
            (3, 30): hop_rank_set(5);
            (3, 31): hop_rank_set(4);
            (4, 0): hop_rank_set(4);
            (4, 1): hop_rank_set(3);
            (4, 2): hop_rank_set(2);
            (4, 3): hop_rank_set(1);
            (4, 4): hop_rank_set(0);
            (4, 5): hop_rank_set(31);
            (4, 6): hop_rank_set(30);
            (4, 7): hop_rank_set(29);
            (4, 8): hop_rank_set(28);
            (4, 9): hop_rank_set(27);
            (4, 10): hop_rank_set(26);
            (4, 11): hop_rank_set(25);
            (4, 12): hop_rank_set(24);
            (4, 13): hop_rank_set(23);
            (4, 14): hop_rank_set(22);
            (4, 15): hop_rank_set(21);
            (4, 16): hop_rank_set(20);
            (4, 17): hop_rank_set(19);
            (4, 18): hop_rank_set(18);
            (4, 19): hop_rank_set(17);
            (4, 20): hop_rank_set(16);
            (4, 21): hop_rank_set(15);
            (4, 22): hop_rank_set(14);
            (4, 23): hop_rank_set(13);
            (4, 24): hop_rank_set(12);
            (4, 25): hop_rank_set(11);
            (4, 26): hop_rank_set(10);
            (4, 27): hop_rank_set(9);
            (4, 28): hop_rank_set(8);
            (4, 29): hop_rank_set(7);
            (4, 30): hop_rank_set(6);
            (4, 31): hop_rank_set(5);
            (5, 0): hop_rank_set(5);
            (5, 1): hop_rank_set(4);
            (5, 2): hop_rank_set(3);
            (5, 3): hop_rank_set(2);
            (5, 4): hop_rank_set(1);
            (5, 5): hop_rank_set(0);
            (5, 6): hop_rank_set(31);
            (5, 7): hop_rank_set(30);
            (5, 8): hop_rank_set(29);
            (5, 9): hop_rank_set(28);
            (5, 10): hop_rank_set(27);
            (5, 11): hop_rank_set(26);
            (5, 12): hop_rank_set(25);
            (5, 13): hop_rank_set(24);
            (5, 14): hop_rank_set(23);
            (5, 15): hop_rank_set(22);
            (5, 16): hop_rank_set(21);
            (5, 17): hop_rank_set(20);
            (5, 18): hop_rank_set(19);
            (5, 19): hop_rank_set(18);
            (5, 20): hop_rank_set(17);
            (5, 21): hop_rank_set(16);
            (5, 22): hop_rank_set(15);
            (5, 23): hop_rank_set(14);
            (5, 24): hop_rank_set(13);
            (5, 25): hop_rank_set(12);
            (5, 26): hop_rank_set(11);
            (5, 27): hop_rank_set(10);
            (5, 28): hop_rank_set(9);
            (5, 29): hop_rank_set(8);
            (5, 30): hop_rank_set(7);
            (5, 31): hop_rank_set(6);
            (6, 0): hop_rank_set(6);
            (6, 1): hop_rank_set(5);
            (6, 2): hop_rank_set(4);
            (6, 3): hop_rank_set(3);
            (6, 4): hop_rank_set(2);
            (6, 5): hop_rank_set(1);
            (6, 6): hop_rank_set(0);
            (6, 7): hop_rank_set(31);
            (6, 8): hop_rank_set(30);
            (6, 9): hop_rank_set(29);
            (6, 10): hop_rank_set(28);
            (6, 11): hop_rank_set(27);
            (6, 12): hop_rank_set(26);
            (6, 13): hop_rank_set(25);
            (6, 14): hop_rank_set(24);
            (6, 15): hop_rank_set(23);
            (6, 16): hop_rank_set(22);
            (6, 17): hop_rank_set(21);
            (6, 18): hop_rank_set(20);
            (6, 19): hop_rank_set(19);
            (6, 20): hop_rank_set(18);
            (6, 21): hop_rank_set(17);
            (6, 22): hop_rank_set(16);
            (6, 23): hop_rank_set(15);
            (6, 24): hop_rank_set(14);
            (6, 25): hop_rank_set(13);
            (6, 26): hop_rank_set(12);
            (6, 27): hop_rank_set(11);
            (6, 28): hop_rank_set(10);
            (6, 29): hop_rank_set(9);
            (6, 30): hop_rank_set(8);
            (6, 31): hop_rank_set(7);
            (7, 0): hop_rank_set(7);
            (7, 1): hop_rank_set(6);
            (7, 2): hop_rank_set(5);
            (7, 3): hop_rank_set(4);
            (7, 4): hop_rank_set(3);
            (7, 5): hop_rank_set(2);
            (7, 6): hop_rank_set(1);
            (7, 7): hop_rank_set(0);
            (7, 8): hop_rank_set(31);
            (7, 9): hop_rank_set(30);
            (7, 10): hop_rank_set(29);
            (7, 11): hop_rank_set(28);
            (7, 12): hop_rank_set(27);
            (7, 13): hop_rank_set(26);
            (7, 14): hop_rank_set(25);
            (7, 15): hop_rank_set(24);
            (7, 16): hop_rank_set(23);
            (7, 17): hop_rank_set(22);
            (7, 18): hop_rank_set(21);
            (7, 19): hop_rank_set(20);
            (7, 20): hop_rank_set(19);
            (7, 21): hop_rank_set(18);
            (7, 22): hop_rank_set(17);
            (7, 23): hop_rank_set(16);
            (7, 24): hop_rank_set(15);
            (7, 25): hop_rank_set(14);
            (7, 26): hop_rank_set(13);
            (7, 27): hop_rank_set(12);
            (7, 28): hop_rank_set(11);
            (7, 29): hop_rank_set(10);
            (7, 30): hop_rank_set(9);
            (7, 31): hop_rank_set(8);
            (8, 0): hop_rank_set(8);
            (8, 1): hop_rank_set(7);
            (8, 2): hop_rank_set(6);
            (8, 3): hop_rank_set(5);
            (8, 4): hop_rank_set(4);
            (8, 5): hop_rank_set(3);
            (8, 6): hop_rank_set(2);
            (8, 7): hop_rank_set(1);
            (8, 8): hop_rank_set(0);
            (8, 9): hop_rank_set(31);
            (8, 10): hop_rank_set(30);
            (8, 11): hop_rank_set(29);
            (8, 12): hop_rank_set(28);
            (8, 13): hop_rank_set(27);
            (8, 14): hop_rank_set(26);
            (8, 15): hop_rank_set(25);
            (8, 16): hop_rank_set(24);
            (8, 17): hop_rank_set(23);
            (8, 18): hop_rank_set(22);
            (8, 19): hop_rank_set(21);
            (8, 20): hop_rank_set(20);
            (8, 21): hop_rank_set(19);
            (8, 22): hop_rank_set(18);
            (8, 23): hop_rank_set(17);
            (8, 24): hop_rank_set(16);
            (8, 25): hop_rank_set(15);
            (8, 26): hop_rank_set(14);
            (8, 27): hop_rank_set(13);
            (8, 28): hop_rank_set(12);
            (8, 29): hop_rank_set(11);
            (8, 30): hop_rank_set(10);
            (8, 31): hop_rank_set(9);
            (9, 0): hop_rank_set(9);
            (9, 1): hop_rank_set(8);
            (9, 2): hop_rank_set(7);
            (9, 3): hop_rank_set(6);
            (9, 4): hop_rank_set(5);
            (9, 5): hop_rank_set(4);
            (9, 6): hop_rank_set(3);
            (9, 7): hop_rank_set(2);
            (9, 8): hop_rank_set(1);
            (9, 9): hop_rank_set(0);
            (9, 10): hop_rank_set(31);
            (9, 11): hop_rank_set(30);
            (9, 12): hop_rank_set(29);
            (9, 13): hop_rank_set(28);
            (9, 14): hop_rank_set(27);
            (9, 15): hop_rank_set(26);
            (9, 16): hop_rank_set(25);
            (9, 17): hop_rank_set(24);
            (9, 18): hop_rank_set(23);
            (9, 19): hop_rank_set(22);
            (9, 20): hop_rank_set(21);
            (9, 21): hop_rank_set(20);
            (9, 22): hop_rank_set(19);
            (9, 23): hop_rank_set(18);
            (9, 24): hop_rank_set(17);
            (9, 25): hop_rank_set(16);
            (9, 26): hop_rank_set(15);
            (9, 27): hop_rank_set(14);
            (9, 28): hop_rank_set(13);
            (9, 29): hop_rank_set(12);
            (9, 30): hop_rank_set(11);
            (9, 31): hop_rank_set(10);
            (10, 0): hop_rank_set(10);
            (10, 1): hop_rank_set(9);
            (10, 2): hop_rank_set(8);
            (10, 3): hop_rank_set(7);
            (10, 4): hop_rank_set(6);
            (10, 5): hop_rank_set(5);
            (10, 6): hop_rank_set(4);
            (10, 7): hop_rank_set(3);
            (10, 8): hop_rank_set(2);
            (10, 9): hop_rank_set(1);
            (10, 10): hop_rank_set(0);
            (10, 11): hop_rank_set(31);
            (10, 12): hop_rank_set(30);
            (10, 13): hop_rank_set(29);
            (10, 14): hop_rank_set(28);
            (10, 15): hop_rank_set(27);
            (10, 16): hop_rank_set(26);
            (10, 17): hop_rank_set(25);
            (10, 18): hop_rank_set(24);
            (10, 19): hop_rank_set(23);
            (10, 20): hop_rank_set(22);
            (10, 21): hop_rank_set(21);
            (10, 22): hop_rank_set(20);
            (10, 23): hop_rank_set(19);
            (10, 24): hop_rank_set(18);
            (10, 25): hop_rank_set(17);
            (10, 26): hop_rank_set(16);
            (10, 27): hop_rank_set(15);
            (10, 28): hop_rank_set(14);
            (10, 29): hop_rank_set(13);
            (10, 30): hop_rank_set(12);
            (10, 31): hop_rank_set(11);
            (11, 0): hop_rank_set(11);
            (11, 1): hop_rank_set(10);
            (11, 2): hop_rank_set(9);
            (11, 3): hop_rank_set(8);
            (11, 4): hop_rank_set(7);
            (11, 5): hop_rank_set(6);
            (11, 6): hop_rank_set(5);
            (11, 7): hop_rank_set(4);
            (11, 8): hop_rank_set(3);
            (11, 9): hop_rank_set(2);
            (11, 10): hop_rank_set(1);
            (11, 11): hop_rank_set(0);
            (11, 12): hop_rank_set(31);
            (11, 13): hop_rank_set(30);
            (11, 14): hop_rank_set(29);
            (11, 15): hop_rank_set(28);
            (11, 16): hop_rank_set(27);
            (11, 17): hop_rank_set(26);
            (11, 18): hop_rank_set(25);
            (11, 19): hop_rank_set(24);
            (11, 20): hop_rank_set(23);
            (11, 21): hop_rank_set(22);
            (11, 22): hop_rank_set(21);
            (11, 23): hop_rank_set(20);
            (11, 24): hop_rank_set(19);
            (11, 25): hop_rank_set(18);
            (11, 26): hop_rank_set(17);
            (11, 27): hop_rank_set(16);
            (11, 28): hop_rank_set(15);
            (11, 29): hop_rank_set(14);
            (11, 30): hop_rank_set(13);
            (11, 31): hop_rank_set(12);
            (12, 0): hop_rank_set(12);
            (12, 1): hop_rank_set(11);
            (12, 2): hop_rank_set(10);
            (12, 3): hop_rank_set(9);
            (12, 4): hop_rank_set(8);
            (12, 5): hop_rank_set(7);
            (12, 6): hop_rank_set(6);
            (12, 7): hop_rank_set(5);
            (12, 8): hop_rank_set(4);
            (12, 9): hop_rank_set(3);
            (12, 10): hop_rank_set(2);
            (12, 11): hop_rank_set(1);
            (12, 12): hop_rank_set(0);
            (12, 13): hop_rank_set(31);
            (12, 14): hop_rank_set(30);
            (12, 15): hop_rank_set(29);
            (12, 16): hop_rank_set(28);
            (12, 17): hop_rank_set(27);
            (12, 18): hop_rank_set(26);
            (12, 19): hop_rank_set(25);
            (12, 20): hop_rank_set(24);
            (12, 21): hop_rank_set(23);
            (12, 22): hop_rank_set(22);
            (12, 23): hop_rank_set(21);
            (12, 24): hop_rank_set(20);
            (12, 25): hop_rank_set(19);
            (12, 26): hop_rank_set(18);
            (12, 27): hop_rank_set(17);
            (12, 28): hop_rank_set(16);
            (12, 29): hop_rank_set(15);
            (12, 30): hop_rank_set(14);
            (12, 31): hop_rank_set(13);
            (13, 0): hop_rank_set(13);
            (13, 1): hop_rank_set(12);
            (13, 2): hop_rank_set(11);
            (13, 3): hop_rank_set(10);
            (13, 4): hop_rank_set(9);
            (13, 5): hop_rank_set(8);
            (13, 6): hop_rank_set(7);
            (13, 7): hop_rank_set(6);
            (13, 8): hop_rank_set(5);
            (13, 9): hop_rank_set(4);
            (13, 10): hop_rank_set(3);
            (13, 11): hop_rank_set(2);
            (13, 12): hop_rank_set(1);
            (13, 13): hop_rank_set(0);
            (13, 14): hop_rank_set(31);
            (13, 15): hop_rank_set(30);
            (13, 16): hop_rank_set(29);
            (13, 17): hop_rank_set(28);
            (13, 18): hop_rank_set(27);
            (13, 19): hop_rank_set(26);
            (13, 20): hop_rank_set(25);
            (13, 21): hop_rank_set(24);
            (13, 22): hop_rank_set(23);
            (13, 23): hop_rank_set(22);
            (13, 24): hop_rank_set(21);
            (13, 25): hop_rank_set(20);
            (13, 26): hop_rank_set(19);
            (13, 27): hop_rank_set(18);
            (13, 28): hop_rank_set(17);
            (13, 29): hop_rank_set(16);
            (13, 30): hop_rank_set(15);
            (13, 31): hop_rank_set(14);
            (14, 0): hop_rank_set(14);
            (14, 1): hop_rank_set(13);
            (14, 2): hop_rank_set(12);
            (14, 3): hop_rank_set(11);
            (14, 4): hop_rank_set(10);
            (14, 5): hop_rank_set(9);
            (14, 6): hop_rank_set(8);
            (14, 7): hop_rank_set(7);
            (14, 8): hop_rank_set(6);
            (14, 9): hop_rank_set(5);
            (14, 10): hop_rank_set(4);
            (14, 11): hop_rank_set(3);
            (14, 12): hop_rank_set(2);
            (14, 13): hop_rank_set(1);
            (14, 14): hop_rank_set(0);
            (14, 15): hop_rank_set(31);
            (14, 16): hop_rank_set(30);
            (14, 17): hop_rank_set(29);
            (14, 18): hop_rank_set(28);
            (14, 19): hop_rank_set(27);
            (14, 20): hop_rank_set(26);
            (14, 21): hop_rank_set(25);
            (14, 22): hop_rank_set(24);
            (14, 23): hop_rank_set(23);
            (14, 24): hop_rank_set(22);
            (14, 25): hop_rank_set(21);
            (14, 26): hop_rank_set(20);
            (14, 27): hop_rank_set(19);
            (14, 28): hop_rank_set(18);
            (14, 29): hop_rank_set(17);
            (14, 30): hop_rank_set(16);
            (14, 31): hop_rank_set(15);
            (15, 0): hop_rank_set(15);
            (15, 1): hop_rank_set(14);
            (15, 2): hop_rank_set(13);
            (15, 3): hop_rank_set(12);
            (15, 4): hop_rank_set(11);
            (15, 5): hop_rank_set(10);
            (15, 6): hop_rank_set(9);
            (15, 7): hop_rank_set(8);
            (15, 8): hop_rank_set(7);
            (15, 9): hop_rank_set(6);
            (15, 10): hop_rank_set(5);
            (15, 11): hop_rank_set(4);
            (15, 12): hop_rank_set(3);
            (15, 13): hop_rank_set(2);
            (15, 14): hop_rank_set(1);
            (15, 15): hop_rank_set(0);
            (15, 16): hop_rank_set(31);
            (15, 17): hop_rank_set(30);
            (15, 18): hop_rank_set(29);
            (15, 19): hop_rank_set(28);
            (15, 20): hop_rank_set(27);
            (15, 21): hop_rank_set(26);
            (15, 22): hop_rank_set(25);
            (15, 23): hop_rank_set(24);
            (15, 24): hop_rank_set(23);
            (15, 25): hop_rank_set(22);
            (15, 26): hop_rank_set(21);
            (15, 27): hop_rank_set(20);
            (15, 28): hop_rank_set(19);
            (15, 29): hop_rank_set(18);
            (15, 30): hop_rank_set(17);
            (15, 31): hop_rank_set(16);
            (16, 0): hop_rank_set(16);
            (16, 1): hop_rank_set(15);
            (16, 2): hop_rank_set(14);
            (16, 3): hop_rank_set(13);
            (16, 4): hop_rank_set(12);
            (16, 5): hop_rank_set(11);
            (16, 6): hop_rank_set(10);
            (16, 7): hop_rank_set(9);
            (16, 8): hop_rank_set(8);
            (16, 9): hop_rank_set(7);
            (16, 10): hop_rank_set(6);
            (16, 11): hop_rank_set(5);
            (16, 12): hop_rank_set(4);
            (16, 13): hop_rank_set(3);
            (16, 14): hop_rank_set(2);
            (16, 15): hop_rank_set(1);
            (16, 16): hop_rank_set(0);
            (16, 17): hop_rank_set(31);
            (16, 18): hop_rank_set(30);
            (16, 19): hop_rank_set(29);
            (16, 20): hop_rank_set(28);
            (16, 21): hop_rank_set(27);
            (16, 22): hop_rank_set(26);
            (16, 23): hop_rank_set(25);
            (16, 24): hop_rank_set(24);
            (16, 25): hop_rank_set(23);
            (16, 26): hop_rank_set(22);
            (16, 27): hop_rank_set(21);
            (16, 28): hop_rank_set(20);
            (16, 29): hop_rank_set(19);
            (16, 30): hop_rank_set(18);
            (16, 31): hop_rank_set(17);
            (17, 0): hop_rank_set(17);
            (17, 1): hop_rank_set(16);
            (17, 2): hop_rank_set(15);
            (17, 3): hop_rank_set(14);
            (17, 4): hop_rank_set(13);
            (17, 5): hop_rank_set(12);
            (17, 6): hop_rank_set(11);
            (17, 7): hop_rank_set(10);
            (17, 8): hop_rank_set(9);
            (17, 9): hop_rank_set(8);
            (17, 10): hop_rank_set(7);
            (17, 11): hop_rank_set(6);
            (17, 12): hop_rank_set(5);
            (17, 13): hop_rank_set(4);
            (17, 14): hop_rank_set(3);
            (17, 15): hop_rank_set(2);
            (17, 16): hop_rank_set(1);
            (17, 17): hop_rank_set(0);
            (17, 18): hop_rank_set(31);
            (17, 19): hop_rank_set(30);
            (17, 20): hop_rank_set(29);
            (17, 21): hop_rank_set(28);
            (17, 22): hop_rank_set(27);
            (17, 23): hop_rank_set(26);
            (17, 24): hop_rank_set(25);
            (17, 25): hop_rank_set(24);
            (17, 26): hop_rank_set(23);
            (17, 27): hop_rank_set(22);
            (17, 28): hop_rank_set(21);
            (17, 29): hop_rank_set(20);
            (17, 30): hop_rank_set(19);
            (17, 31): hop_rank_set(18);
            (18, 0): hop_rank_set(18);
            (18, 1): hop_rank_set(17);
            (18, 2): hop_rank_set(16);
            (18, 3): hop_rank_set(15);
            (18, 4): hop_rank_set(14);
            (18, 5): hop_rank_set(13);
            (18, 6): hop_rank_set(12);
            (18, 7): hop_rank_set(11);
            (18, 8): hop_rank_set(10);
            (18, 9): hop_rank_set(9);
            (18, 10): hop_rank_set(8);
            (18, 11): hop_rank_set(7);
            (18, 12): hop_rank_set(6);
            (18, 13): hop_rank_set(5);
            (18, 14): hop_rank_set(4);
            (18, 15): hop_rank_set(3);
            (18, 16): hop_rank_set(2);
            (18, 17): hop_rank_set(1);
            (18, 18): hop_rank_set(0);
            (18, 19): hop_rank_set(31);
            (18, 20): hop_rank_set(30);
            (18, 21): hop_rank_set(29);
            (18, 22): hop_rank_set(28);
            (18, 23): hop_rank_set(27);
            (18, 24): hop_rank_set(26);
            (18, 25): hop_rank_set(25);
            (18, 26): hop_rank_set(24);
            (18, 27): hop_rank_set(23);
            (18, 28): hop_rank_set(22);
            (18, 29): hop_rank_set(21);
            (18, 30): hop_rank_set(20);
            (18, 31): hop_rank_set(19);
            (19, 0): hop_rank_set(19);
            (19, 1): hop_rank_set(18);
            (19, 2): hop_rank_set(17);
            (19, 3): hop_rank_set(16);
            (19, 4): hop_rank_set(15);
            (19, 5): hop_rank_set(14);
            (19, 6): hop_rank_set(13);
            (19, 7): hop_rank_set(12);
            (19, 8): hop_rank_set(11);
            (19, 9): hop_rank_set(10);
            (19, 10): hop_rank_set(9);
            (19, 11): hop_rank_set(8);
            (19, 12): hop_rank_set(7);
            (19, 13): hop_rank_set(6);
            (19, 14): hop_rank_set(5);
            (19, 15): hop_rank_set(4);
            (19, 16): hop_rank_set(3);
            (19, 17): hop_rank_set(2);
            (19, 18): hop_rank_set(1);
            (19, 19): hop_rank_set(0);
            (19, 20): hop_rank_set(31);
            (19, 21): hop_rank_set(30);
            (19, 22): hop_rank_set(29);
            (19, 23): hop_rank_set(28);
            (19, 24): hop_rank_set(27);
            (19, 25): hop_rank_set(26);
            (19, 26): hop_rank_set(25);
            (19, 27): hop_rank_set(24);
            (19, 28): hop_rank_set(23);
            (19, 29): hop_rank_set(22);
            (19, 30): hop_rank_set(21);
            (19, 31): hop_rank_set(20);
            (20, 0): hop_rank_set(20);
            (20, 1): hop_rank_set(19);
            (20, 2): hop_rank_set(18);
            (20, 3): hop_rank_set(17);
            (20, 4): hop_rank_set(16);
            (20, 5): hop_rank_set(15);
            (20, 6): hop_rank_set(14);
            (20, 7): hop_rank_set(13);
            (20, 8): hop_rank_set(12);
            (20, 9): hop_rank_set(11);
            (20, 10): hop_rank_set(10);
            (20, 11): hop_rank_set(9);
            (20, 12): hop_rank_set(8);
            (20, 13): hop_rank_set(7);
            (20, 14): hop_rank_set(6);
            (20, 15): hop_rank_set(5);
            (20, 16): hop_rank_set(4);
            (20, 17): hop_rank_set(3);
            (20, 18): hop_rank_set(2);
            (20, 19): hop_rank_set(1);
            (20, 20): hop_rank_set(0);
            (20, 21): hop_rank_set(31);
            (20, 22): hop_rank_set(30);
            (20, 23): hop_rank_set(29);
            (20, 24): hop_rank_set(28);
            (20, 25): hop_rank_set(27);
            (20, 26): hop_rank_set(26);
            (20, 27): hop_rank_set(25);
            (20, 28): hop_rank_set(24);
            (20, 29): hop_rank_set(23);
            (20, 30): hop_rank_set(22);
            (20, 31): hop_rank_set(21);
            (21, 0): hop_rank_set(21);
            (21, 1): hop_rank_set(20);
            (21, 2): hop_rank_set(19);
            (21, 3): hop_rank_set(18);
            (21, 4): hop_rank_set(17);
            (21, 5): hop_rank_set(16);
            (21, 6): hop_rank_set(15);
            (21, 7): hop_rank_set(14);
            (21, 8): hop_rank_set(13);
            (21, 9): hop_rank_set(12);
            (21, 10): hop_rank_set(11);
            (21, 11): hop_rank_set(10);
            (21, 12): hop_rank_set(9);
            (21, 13): hop_rank_set(8);
            (21, 14): hop_rank_set(7);
            (21, 15): hop_rank_set(6);
            (21, 16): hop_rank_set(5);
            (21, 17): hop_rank_set(4);
            (21, 18): hop_rank_set(3);
            (21, 19): hop_rank_set(2);
            (21, 20): hop_rank_set(1);
            (21, 21): hop_rank_set(0);
            (21, 22): hop_rank_set(31);
            (21, 23): hop_rank_set(30);
            (21, 24): hop_rank_set(29);
            (21, 25): hop_rank_set(28);
            (21, 26): hop_rank_set(27);
            (21, 27): hop_rank_set(26);
            (21, 28): hop_rank_set(25);
            (21, 29): hop_rank_set(24);
            (21, 30): hop_rank_set(23);
            (21, 31): hop_rank_set(22);
            (22, 0): hop_rank_set(22);
            (22, 1): hop_rank_set(21);
            (22, 2): hop_rank_set(20);
            (22, 3): hop_rank_set(19);
            (22, 4): hop_rank_set(18);
            (22, 5): hop_rank_set(17);
            (22, 6): hop_rank_set(16);
            (22, 7): hop_rank_set(15);
            (22, 8): hop_rank_set(14);
            (22, 9): hop_rank_set(13);
            (22, 10): hop_rank_set(12);
            (22, 11): hop_rank_set(11);
            (22, 12): hop_rank_set(10);
            (22, 13): hop_rank_set(9);
            (22, 14): hop_rank_set(8);
            (22, 15): hop_rank_set(7);
            (22, 16): hop_rank_set(6);
            (22, 17): hop_rank_set(5);
            (22, 18): hop_rank_set(4);
            (22, 19): hop_rank_set(3);
            (22, 20): hop_rank_set(2);
            (22, 21): hop_rank_set(1);
            (22, 22): hop_rank_set(0);
            (22, 23): hop_rank_set(31);
            (22, 24): hop_rank_set(30);
            (22, 25): hop_rank_set(29);
            (22, 26): hop_rank_set(28);
            (22, 27): hop_rank_set(27);
            (22, 28): hop_rank_set(26);
            (22, 29): hop_rank_set(25);
            (22, 30): hop_rank_set(24);
            (22, 31): hop_rank_set(23);
            (23, 0): hop_rank_set(23);
            (23, 1): hop_rank_set(22);
            (23, 2): hop_rank_set(21);
            (23, 3): hop_rank_set(20);
            (23, 4): hop_rank_set(19);
            (23, 5): hop_rank_set(18);
            (23, 6): hop_rank_set(17);
            (23, 7): hop_rank_set(16);
            (23, 8): hop_rank_set(15);
            (23, 9): hop_rank_set(14);
            (23, 10): hop_rank_set(13);
            (23, 11): hop_rank_set(12);
            (23, 12): hop_rank_set(11);
            (23, 13): hop_rank_set(10);
            (23, 14): hop_rank_set(9);
            (23, 15): hop_rank_set(8);
            (23, 16): hop_rank_set(7);
            (23, 17): hop_rank_set(6);
            (23, 18): hop_rank_set(5);
            (23, 19): hop_rank_set(4);
            (23, 20): hop_rank_set(3);
            (23, 21): hop_rank_set(2);
            (23, 22): hop_rank_set(1);
            (23, 23): hop_rank_set(0);
            (23, 24): hop_rank_set(31);
            (23, 25): hop_rank_set(30);
            (23, 26): hop_rank_set(29);
            (23, 27): hop_rank_set(28);
            (23, 28): hop_rank_set(27);
            (23, 29): hop_rank_set(26);
            (23, 30): hop_rank_set(25);
            (23, 31): hop_rank_set(24);
            (24, 0): hop_rank_set(24);
            (24, 1): hop_rank_set(23);
            (24, 2): hop_rank_set(22);
            (24, 3): hop_rank_set(21);
            (24, 4): hop_rank_set(20);
            (24, 5): hop_rank_set(19);
            (24, 6): hop_rank_set(18);
            (24, 7): hop_rank_set(17);
            (24, 8): hop_rank_set(16);
            (24, 9): hop_rank_set(15);
            (24, 10): hop_rank_set(14);
            (24, 11): hop_rank_set(13);
            (24, 12): hop_rank_set(12);
            (24, 13): hop_rank_set(11);
            (24, 14): hop_rank_set(10);
            (24, 15): hop_rank_set(9);
            (24, 16): hop_rank_set(8);
            (24, 17): hop_rank_set(7);
            (24, 18): hop_rank_set(6);
            (24, 19): hop_rank_set(5);
            (24, 20): hop_rank_set(4);
            (24, 21): hop_rank_set(3);
            (24, 22): hop_rank_set(2);
            (24, 23): hop_rank_set(1);
            (24, 24): hop_rank_set(0);
            (24, 25): hop_rank_set(31);
            (24, 26): hop_rank_set(30);
            (24, 27): hop_rank_set(29);
            (24, 28): hop_rank_set(28);
            (24, 29): hop_rank_set(27);
            (24, 30): hop_rank_set(26);
            (24, 31): hop_rank_set(25);
            (25, 0): hop_rank_set(25);
            (25, 1): hop_rank_set(24);
            (25, 2): hop_rank_set(23);
            (25, 3): hop_rank_set(22);
            (25, 4): hop_rank_set(21);
            (25, 5): hop_rank_set(20);
            (25, 6): hop_rank_set(19);
            (25, 7): hop_rank_set(18);
            (25, 8): hop_rank_set(17);
            (25, 9): hop_rank_set(16);
            (25, 10): hop_rank_set(15);
            (25, 11): hop_rank_set(14);
            (25, 12): hop_rank_set(13);
            (25, 13): hop_rank_set(12);
            (25, 14): hop_rank_set(11);
            (25, 15): hop_rank_set(10);
            (25, 16): hop_rank_set(9);
            (25, 17): hop_rank_set(8);
            (25, 18): hop_rank_set(7);
            (25, 19): hop_rank_set(6);
            (25, 20): hop_rank_set(5);
            (25, 21): hop_rank_set(4);
            (25, 22): hop_rank_set(3);
            (25, 23): hop_rank_set(2);
            (25, 24): hop_rank_set(1);
            (25, 25): hop_rank_set(0);
            (25, 26): hop_rank_set(31);
            (25, 27): hop_rank_set(30);
            (25, 28): hop_rank_set(29);
            (25, 29): hop_rank_set(28);
            (25, 30): hop_rank_set(27);
            (25, 31): hop_rank_set(26);
            (26, 0): hop_rank_set(26);
            (26, 1): hop_rank_set(25);
            (26, 2): hop_rank_set(24);
            (26, 3): hop_rank_set(23);
            (26, 4): hop_rank_set(22);
            (26, 5): hop_rank_set(21);
            (26, 6): hop_rank_set(20);
            (26, 7): hop_rank_set(19);
            (26, 8): hop_rank_set(18);
            (26, 9): hop_rank_set(17);
            (26, 10): hop_rank_set(16);
            (26, 11): hop_rank_set(15);
            (26, 12): hop_rank_set(14);
            (26, 13): hop_rank_set(13);
            (26, 14): hop_rank_set(12);
            (26, 15): hop_rank_set(11);
            (26, 16): hop_rank_set(10);
            (26, 17): hop_rank_set(9);
            (26, 18): hop_rank_set(8);
            (26, 19): hop_rank_set(7);
            (26, 20): hop_rank_set(6);
            (26, 21): hop_rank_set(5);
            (26, 22): hop_rank_set(4);
            (26, 23): hop_rank_set(3);
            (26, 24): hop_rank_set(2);
            (26, 25): hop_rank_set(1);
            (26, 26): hop_rank_set(0);
            (26, 27): hop_rank_set(31);
            (26, 28): hop_rank_set(30);
            (26, 29): hop_rank_set(29);
            (26, 30): hop_rank_set(28);
            (26, 31): hop_rank_set(27);
            (27, 0): hop_rank_set(27);
            (27, 1): hop_rank_set(26);
            (27, 2): hop_rank_set(25);
            (27, 3): hop_rank_set(24);
            (27, 4): hop_rank_set(23);
            (27, 5): hop_rank_set(22);
            (27, 6): hop_rank_set(21);
            (27, 7): hop_rank_set(20);
            (27, 8): hop_rank_set(19);
            (27, 9): hop_rank_set(18);
            (27, 10): hop_rank_set(17);
            (27, 11): hop_rank_set(16);
            (27, 12): hop_rank_set(15);
            (27, 13): hop_rank_set(14);
            (27, 14): hop_rank_set(13);
            (27, 15): hop_rank_set(12);
            (27, 16): hop_rank_set(11);
            (27, 17): hop_rank_set(10);
            (27, 18): hop_rank_set(9);
            (27, 19): hop_rank_set(8);
            (27, 20): hop_rank_set(7);
            (27, 21): hop_rank_set(6);
            (27, 22): hop_rank_set(5);
            (27, 23): hop_rank_set(4);
            (27, 24): hop_rank_set(3);
            (27, 25): hop_rank_set(2);
            (27, 26): hop_rank_set(1);
            (27, 27): hop_rank_set(0);
            (27, 28): hop_rank_set(31);
            (27, 29): hop_rank_set(30);
            (27, 30): hop_rank_set(29);
            (27, 31): hop_rank_set(28);
            (28, 0): hop_rank_set(28);
            (28, 1): hop_rank_set(27);
            (28, 2): hop_rank_set(26);
            (28, 3): hop_rank_set(25);
            (28, 4): hop_rank_set(24);
            (28, 5): hop_rank_set(23);
            (28, 6): hop_rank_set(22);
            (28, 7): hop_rank_set(21);
            (28, 8): hop_rank_set(20);
            (28, 9): hop_rank_set(19);
            (28, 10): hop_rank_set(18);
            (28, 11): hop_rank_set(17);
            (28, 12): hop_rank_set(16);
            (28, 13): hop_rank_set(15);
            (28, 14): hop_rank_set(14);
            (28, 15): hop_rank_set(13);
            (28, 16): hop_rank_set(12);
            (28, 17): hop_rank_set(11);
            (28, 18): hop_rank_set(10);
            (28, 19): hop_rank_set(9);
            (28, 20): hop_rank_set(8);
            (28, 21): hop_rank_set(7);
            (28, 22): hop_rank_set(6);
            (28, 23): hop_rank_set(5);
            (28, 24): hop_rank_set(4);
            (28, 25): hop_rank_set(3);
            (28, 26): hop_rank_set(2);
            (28, 27): hop_rank_set(1);
            (28, 28): hop_rank_set(0);
            (28, 29): hop_rank_set(31);
            (28, 30): hop_rank_set(30);
            (28, 31): hop_rank_set(29);
            (29, 0): hop_rank_set(29);
            (29, 1): hop_rank_set(28);
            (29, 2): hop_rank_set(27);
            (29, 3): hop_rank_set(26);
            (29, 4): hop_rank_set(25);
            (29, 5): hop_rank_set(24);
            (29, 6): hop_rank_set(23);
            (29, 7): hop_rank_set(22);
            (29, 8): hop_rank_set(21);
            (29, 9): hop_rank_set(20);
            (29, 10): hop_rank_set(19);
            (29, 11): hop_rank_set(18);
            (29, 12): hop_rank_set(17);
            (29, 13): hop_rank_set(16);
            (29, 14): hop_rank_set(15);
            (29, 15): hop_rank_set(14);
            (29, 16): hop_rank_set(13);
            (29, 17): hop_rank_set(12);
            (29, 18): hop_rank_set(11);
            (29, 19): hop_rank_set(10);
            (29, 20): hop_rank_set(9);
            (29, 21): hop_rank_set(8);
            (29, 22): hop_rank_set(7);
            (29, 23): hop_rank_set(6);
            (29, 24): hop_rank_set(5);
            (29, 25): hop_rank_set(4);
            (29, 26): hop_rank_set(3);
            (29, 27): hop_rank_set(2);
            (29, 28): hop_rank_set(1);
            (29, 29): hop_rank_set(0);
            (29, 30): hop_rank_set(31);
            (29, 31): hop_rank_set(30);
            (30, 0): hop_rank_set(30);
            (30, 1): hop_rank_set(29);
            (30, 2): hop_rank_set(28);
            (30, 3): hop_rank_set(27);
            (30, 4): hop_rank_set(26);
            (30, 5): hop_rank_set(25);
            (30, 6): hop_rank_set(24);
            (30, 7): hop_rank_set(23);
            (30, 8): hop_rank_set(22);
            (30, 9): hop_rank_set(21);
            (30, 10): hop_rank_set(20);
            (30, 11): hop_rank_set(19);
            (30, 12): hop_rank_set(18);
            (30, 13): hop_rank_set(17);
            (30, 14): hop_rank_set(16);
            (30, 15): hop_rank_set(15);
            (30, 16): hop_rank_set(14);
            (30, 17): hop_rank_set(13);
            (30, 18): hop_rank_set(12);
            (30, 19): hop_rank_set(11);
            (30, 20): hop_rank_set(10);
            (30, 21): hop_rank_set(9);
            (30, 22): hop_rank_set(8);
            (30, 23): hop_rank_set(7);
            (30, 24): hop_rank_set(6);
            (30, 25): hop_rank_set(5);
            (30, 26): hop_rank_set(4);
            (30, 27): hop_rank_set(3);
            (30, 28): hop_rank_set(2);
            (30, 29): hop_rank_set(1);
            (30, 30): hop_rank_set(0);
            (30, 31): hop_rank_set(31);
            (31, 0): hop_rank_set(31);
            (31, 1): hop_rank_set(30);
            (31, 2): hop_rank_set(29);
            (31, 3): hop_rank_set(28);
            (31, 4): hop_rank_set(27);
            (31, 5): hop_rank_set(26);
            (31, 6): hop_rank_set(25);
            (31, 7): hop_rank_set(24);
            (31, 8): hop_rank_set(23);
            (31, 9): hop_rank_set(22);
            (31, 10): hop_rank_set(21);
            (31, 11): hop_rank_set(20);
            (31, 12): hop_rank_set(19);
            (31, 13): hop_rank_set(18);
            (31, 14): hop_rank_set(17);
            (31, 15): hop_rank_set(16);
            (31, 16): hop_rank_set(15);
            (31, 17): hop_rank_set(14);
            (31, 18): hop_rank_set(13);
            (31, 19): hop_rank_set(12);
            (31, 20): hop_rank_set(11);
            (31, 21): hop_rank_set(10);
            (31, 22): hop_rank_set(9);
            (31, 23): hop_rank_set(8);
            (31, 24): hop_rank_set(7);
            (31, 25): hop_rank_set(6);
            (31, 26): hop_rank_set(5);
            (31, 27): hop_rank_set(4);
            (31, 28): hop_rank_set(3);
            (31, 29): hop_rank_set(2);
            (31, 30): hop_rank_set(1);
            (31, 31): hop_rank_set(0);
        }
        size = 1024;
    }

    action hop_el_set(bit<8> d) { meta.hop_el = d; }
    table hop_el {
        key = {
            meta.cur_slice: exact;
            meta.prev_slice: exact;
        }
        actions = { hop_el_set; }
        const entries = {
            (0, 0): hop_el_set(0);
            (0, 1): hop_el_set(31);
            (0, 2): hop_el_set(30);
            (0, 3): hop_el_set(29);
            (0, 4): hop_el_set(28);
            (0, 5): hop_el_set(27);
            (0, 6): hop_el_set(26);
            (0, 7): hop_el_set(25);
            (0, 8): hop_el_set(24);
            (0, 9): hop_el_set(23);
            (0, 10): hop_el_set(22);
            (0, 11): hop_el_set(21);
            (0, 12): hop_el_set(20);
            (0, 13): hop_el_set(19);
            (0, 14): hop_el_set(18);
            (0, 15): hop_el_set(17);
            (0, 16): hop_el_set(16);
            (0, 17): hop_el_set(15);
            (0, 18): hop_el_set(14);
            (0, 19): hop_el_set(13);
            (0, 20): hop_el_set(12);
            (0, 21): hop_el_set(11);
            (0, 22): hop_el_set(10);
            (0, 23): hop_el_set(9);
            (0, 24): hop_el_set(8);
            (0, 25): hop_el_set(7);
            (0, 26): hop_el_set(6);
            (0, 27): hop_el_set(5);
            (0, 28): hop_el_set(4);
            (0, 29): hop_el_set(3);
            (0, 30): hop_el_set(2);
            (0, 31): hop_el_set(1);
            (1, 0): hop_el_set(1);
            (1, 1): hop_el_set(0);
            (1, 2): hop_el_set(31);
            (1, 3): hop_el_set(30);
            (1, 4): hop_el_set(29);
            (1, 5): hop_el_set(28);
            (1, 6): hop_el_set(27);
            (1, 7): hop_el_set(26);
            (1, 8): hop_el_set(25);
            (1, 9): hop_el_set(24);
            (1, 10): hop_el_set(23);
            (1, 11): hop_el_set(22);
            (1, 12): hop_el_set(21);
            (1, 13): hop_el_set(20);
            (1, 14): hop_el_set(19);
            (1, 15): hop_el_set(18);
            (1, 16): hop_el_set(17);
            (1, 17): hop_el_set(16);
            (1, 18): hop_el_set(15);
            (1, 19): hop_el_set(14);
            (1, 20): hop_el_set(13);
            (1, 21): hop_el_set(12);
            (1, 22): hop_el_set(11);
            (1, 23): hop_el_set(10);
            (1, 24): hop_el_set(9);
            (1, 25): hop_el_set(8);
            (1, 26): hop_el_set(7);
            (1, 27): hop_el_set(6);
            (1, 28): hop_el_set(5);
            (1, 29): hop_el_set(4);
            (1, 30): hop_el_set(3);
            (1, 31): hop_el_set(2);
            (2, 0): hop_el_set(2);
            (2, 1): hop_el_set(1);
            (2, 2): hop_el_set(0);
            (2, 3): hop_el_set(31);
            (2, 4): hop_el_set(30);
            (2, 5): hop_el_set(29);
            (2, 6): hop_el_set(28);
            (2, 7): hop_el_set(27);
            (2, 8): hop_el_set(26);
            (2, 9): hop_el_set(25);
            (2, 10): hop_el_set(24);
            (2, 11): hop_el_set(23);
            (2, 12): hop_el_set(22);
            (2, 13): hop_el_set(21);
            (2, 14): hop_el_set(20);
            (2, 15): hop_el_set(19);
            (2, 16): hop_el_set(18);
            (2, 17): hop_el_set(17);
            (2, 18): hop_el_set(16);
            (2, 19): hop_el_set(15);
            (2, 20): hop_el_set(14);
            (2, 21): hop_el_set(13);
            (2, 22): hop_el_set(12);
            (2, 23): hop_el_set(11);
            (2, 24): hop_el_set(10);
            (2, 25): hop_el_set(9);
            (2, 26): hop_el_set(8);
            (2, 27): hop_el_set(7);
            (2, 28): hop_el_set(6);
            (2, 29): hop_el_set(5);
            (2, 30): hop_el_set(4);
            (2, 31): hop_el_set(3);
            (3, 0): hop_el_set(3);
            (3, 1): hop_el_set(2);
            (3, 2): hop_el_set(1);
            (3, 3): hop_el_set(0);
            (3, 4): hop_el_set(31);
            (3, 5): hop_el_set(30);
            (3, 6): hop_el_set(29);
            (3, 7): hop_el_set(28);
            (3, 8): hop_el_set(27);
            (3, 9): hop_el_set(26);
            (3, 10): hop_el_set(25);
            (3, 11): hop_el_set(24);
            (3, 12): hop_el_set(23);
            (3, 13): hop_el_set(22);
            (3, 14): hop_el_set(21);
            (3, 15): hop_el_set(20);
            (3, 16): hop_el_set(19);
            (3, 17): hop_el_set(18);
            (3, 18): hop_el_set(17);
            (3, 19): hop_el_set(16);
            (3, 20): hop_el_set(15);
            (3, 21): hop_el_set(14);
            (3, 22): hop_el_set(13);
            (3, 23): hop_el_set(12);
            (3, 24): hop_el_set(11);
            (3, 25): hop_el_set(10);
            (3, 26): hop_el_set(9);
            (3, 27): hop_el_set(8);
            (3, 28): hop_el_set(7);
            (3, 29): hop_el_set(6);
            (3, 30): hop_el_set(5);
            (3, 31): hop_el_set(4);
            (4, 0): hop_el_set(4);
            (4, 1): hop_el_set(3);
            (4, 2): hop_el_set(2);
            (4, 3): hop_el_set(1);
            (4, 4): hop_el_set(0);
            (4, 5): hop_el_set(31);
            (4, 6): hop_el_set(30);
            (4, 7): hop_el_set(29);
            (4, 8): hop_el_set(28);
            (4, 9): hop_el_set(27);
            (4, 10): hop_el_set(26);
            (4, 11): hop_el_set(25);
            (4, 12): hop_el_set(24);
            (4, 13): hop_el_set(23);
            (4, 14): hop_el_set(22);
            (4, 15): hop_el_set(21);
            (4, 16): hop_el_set(20);
            (4, 17): hop_el_set(19);
            (4, 18): hop_el_set(18);
            (4, 19): hop_el_set(17);
            (4, 20): hop_el_set(16);
            (4, 21): hop_el_set(15);
            (4, 22): hop_el_set(14);
            (4, 23): hop_el_set(13);
            (4, 24): hop_el_set(12);
            (4, 25): hop_el_set(11);
            (4, 26): hop_el_set(10);
            (4, 27): hop_el_set(9);
            (4, 28): hop_el_set(8);
            (4, 29): hop_el_set(7);
            (4, 30): hop_el_set(6);
            (4, 31): hop_el_set(5);
            (5, 0): hop_el_set(5);
            (5, 1): hop_el_set(4);
            (5, 2): hop_el_set(3);
            (5, 3): hop_el_set(2);
            (5, 4): hop_el_set(1);
            (5, 5): hop_el_set(0);
            (5, 6): hop_el_set(31);
            (5, 7): hop_el_set(30);
            (5, 8): hop_el_set(29);
            (5, 9): hop_el_set(28);
            (5, 10): hop_el_set(27);
            (5, 11): hop_el_set(26);
            (5, 12): hop_el_set(25);
            (5, 13): hop_el_set(24);
            (5, 14): hop_el_set(23);
            (5, 15): hop_el_set(22);
            (5, 16): hop_el_set(21);
            (5, 17): hop_el_set(20);
            (5, 18): hop_el_set(19);
            (5, 19): hop_el_set(18);
            (5, 20): hop_el_set(17);
            (5, 21): hop_el_set(16);
            (5, 22): hop_el_set(15);
            (5, 23): hop_el_set(14);
            (5, 24): hop_el_set(13);
            (5, 25): hop_el_set(12);
            (5, 26): hop_el_set(11);
            (5, 27): hop_el_set(10);
            (5, 28): hop_el_set(9);
            (5, 29): hop_el_set(8);
            (5, 30): hop_el_set(7);
            (5, 31): hop_el_set(6);
            (6, 0): hop_el_set(6);
            (6, 1): hop_el_set(5);
            (6, 2): hop_el_set(4);
            (6, 3): hop_el_set(3);
            (6, 4): hop_el_set(2);
            (6, 5): hop_el_set(1);
            (6, 6): hop_el_set(0);
            (6, 7): hop_el_set(31);
            (6, 8): hop_el_set(30);
            (6, 9): hop_el_set(29);
            (6, 10): hop_el_set(28);
            (6, 11): hop_el_set(27);
            (6, 12): hop_el_set(26);
            (6, 13): hop_el_set(25);
            (6, 14): hop_el_set(24);
            (6, 15): hop_el_set(23);
            (6, 16): hop_el_set(22);
            (6, 17): hop_el_set(21);
            (6, 18): hop_el_set(20);
            (6, 19): hop_el_set(19);
            (6, 20): hop_el_set(18);
            (6, 21): hop_el_set(17);
            (6, 22): hop_el_set(16);
            (6, 23): hop_el_set(15);
            (6, 24): hop_el_set(14);
            (6, 25): hop_el_set(13);
            (6, 26): hop_el_set(12);
            (6, 27): hop_el_set(11);
            (6, 28): hop_el_set(10);
            (6, 29): hop_el_set(9);
            (6, 30): hop_el_set(8);
            (6, 31): hop_el_set(7);
            (7, 0): hop_el_set(7);
            (7, 1): hop_el_set(6);
            (7, 2): hop_el_set(5);
            (7, 3): hop_el_set(4);
            (7, 4): hop_el_set(3);
            (7, 5): hop_el_set(2);
            (7, 6): hop_el_set(1);
            (7, 7): hop_el_set(0);
            (7, 8): hop_el_set(31);
            (7, 9): hop_el_set(30);
            (7, 10): hop_el_set(29);
            (7, 11): hop_el_set(28);
            (7, 12): hop_el_set(27);
            (7, 13): hop_el_set(26);
            (7, 14): hop_el_set(25);
            (7, 15): hop_el_set(24);
            (7, 16): hop_el_set(23);
            (7, 17): hop_el_set(22);
            (7, 18): hop_el_set(21);
            (7, 19): hop_el_set(20);
            (7, 20): hop_el_set(19);
            (7, 21): hop_el_set(18);
            (7, 22): hop_el_set(17);
            (7, 23): hop_el_set(16);
            (7, 24): hop_el_set(15);
            (7, 25): hop_el_set(14);
            (7, 26): hop_el_set(13);
            (7, 27): hop_el_set(12);
            (7, 28): hop_el_set(11);
            (7, 29): hop_el_set(10);
            (7, 30): hop_el_set(9);
            (7, 31): hop_el_set(8);
            (8, 0): hop_el_set(8);
            (8, 1): hop_el_set(7);
            (8, 2): hop_el_set(6);
            (8, 3): hop_el_set(5);
            (8, 4): hop_el_set(4);
            (8, 5): hop_el_set(3);
            (8, 6): hop_el_set(2);
            (8, 7): hop_el_set(1);
            (8, 8): hop_el_set(0);
            (8, 9): hop_el_set(31);
            (8, 10): hop_el_set(30);
            (8, 11): hop_el_set(29);
            (8, 12): hop_el_set(28);
            (8, 13): hop_el_set(27);
            (8, 14): hop_el_set(26);
            (8, 15): hop_el_set(25);
            (8, 16): hop_el_set(24);
            (8, 17): hop_el_set(23);
            (8, 18): hop_el_set(22);
            (8, 19): hop_el_set(21);
            (8, 20): hop_el_set(20);
            (8, 21): hop_el_set(19);
            (8, 22): hop_el_set(18);
            (8, 23): hop_el_set(17);
            (8, 24): hop_el_set(16);
            (8, 25): hop_el_set(15);
            (8, 26): hop_el_set(14);
            (8, 27): hop_el_set(13);
            (8, 28): hop_el_set(12);
            (8, 29): hop_el_set(11);
            (8, 30): hop_el_set(10);
            (8, 31): hop_el_set(9);
            (9, 0): hop_el_set(9);
            (9, 1): hop_el_set(8);
            (9, 2): hop_el_set(7);
            (9, 3): hop_el_set(6);
            (9, 4): hop_el_set(5);
            (9, 5): hop_el_set(4);
            (9, 6): hop_el_set(3);
            (9, 7): hop_el_set(2);
            (9, 8): hop_el_set(1);
            (9, 9): hop_el_set(0);
            (9, 10): hop_el_set(31);
            (9, 11): hop_el_set(30);
            (9, 12): hop_el_set(29);
            (9, 13): hop_el_set(28);
            (9, 14): hop_el_set(27);
            (9, 15): hop_el_set(26);
            (9, 16): hop_el_set(25);
            (9, 17): hop_el_set(24);
            (9, 18): hop_el_set(23);
            (9, 19): hop_el_set(22);
            (9, 20): hop_el_set(21);
            (9, 21): hop_el_set(20);
            (9, 22): hop_el_set(19);
            (9, 23): hop_el_set(18);
            (9, 24): hop_el_set(17);
            (9, 25): hop_el_set(16);
            (9, 26): hop_el_set(15);
            (9, 27): hop_el_set(14);
            (9, 28): hop_el_set(13);
            (9, 29): hop_el_set(12);
            (9, 30): hop_el_set(11);
            (9, 31): hop_el_set(10);
            (10, 0): hop_el_set(10);
            (10, 1): hop_el_set(9);
            (10, 2): hop_el_set(8);
            (10, 3): hop_el_set(7);
            (10, 4): hop_el_set(6);
            (10, 5): hop_el_set(5);
            (10, 6): hop_el_set(4);
            (10, 7): hop_el_set(3);
            (10, 8): hop_el_set(2);
            (10, 9): hop_el_set(1);
            (10, 10): hop_el_set(0);
            (10, 11): hop_el_set(31);
            (10, 12): hop_el_set(30);
            (10, 13): hop_el_set(29);
            (10, 14): hop_el_set(28);
            (10, 15): hop_el_set(27);
            (10, 16): hop_el_set(26);
            (10, 17): hop_el_set(25);
            (10, 18): hop_el_set(24);
            (10, 19): hop_el_set(23);
            (10, 20): hop_el_set(22);
            (10, 21): hop_el_set(21);
            (10, 22): hop_el_set(20);
            (10, 23): hop_el_set(19);
            (10, 24): hop_el_set(18);
            (10, 25): hop_el_set(17);
            (10, 26): hop_el_set(16);
            (10, 27): hop_el_set(15);
            (10, 28): hop_el_set(14);
            (10, 29): hop_el_set(13);
            (10, 30): hop_el_set(12);
            (10, 31): hop_el_set(11);
            (11, 0): hop_el_set(11);
            (11, 1): hop_el_set(10);
            (11, 2): hop_el_set(9);
            (11, 3): hop_el_set(8);
            (11, 4): hop_el_set(7);
            (11, 5): hop_el_set(6);
            (11, 6): hop_el_set(5);
            (11, 7): hop_el_set(4);
            (11, 8): hop_el_set(3);
            (11, 9): hop_el_set(2);
            (11, 10): hop_el_set(1);
            (11, 11): hop_el_set(0);
            (11, 12): hop_el_set(31);
            (11, 13): hop_el_set(30);
            (11, 14): hop_el_set(29);
            (11, 15): hop_el_set(28);
            (11, 16): hop_el_set(27);
            (11, 17): hop_el_set(26);
            (11, 18): hop_el_set(25);
            (11, 19): hop_el_set(24);
            (11, 20): hop_el_set(23);
            (11, 21): hop_el_set(22);
            (11, 22): hop_el_set(21);
            (11, 23): hop_el_set(20);
            (11, 24): hop_el_set(19);
            (11, 25): hop_el_set(18);
            (11, 26): hop_el_set(17);
            (11, 27): hop_el_set(16);
            (11, 28): hop_el_set(15);
            (11, 29): hop_el_set(14);
            (11, 30): hop_el_set(13);
            (11, 31): hop_el_set(12);
            (12, 0): hop_el_set(12);
            (12, 1): hop_el_set(11);
            (12, 2): hop_el_set(10);
            (12, 3): hop_el_set(9);
            (12, 4): hop_el_set(8);
            (12, 5): hop_el_set(7);
            (12, 6): hop_el_set(6);
            (12, 7): hop_el_set(5);
            (12, 8): hop_el_set(4);
            (12, 9): hop_el_set(3);
            (12, 10): hop_el_set(2);
            (12, 11): hop_el_set(1);
            (12, 12): hop_el_set(0);
            (12, 13): hop_el_set(31);
            (12, 14): hop_el_set(30);
            (12, 15): hop_el_set(29);
            (12, 16): hop_el_set(28);
            (12, 17): hop_el_set(27);
            (12, 18): hop_el_set(26);
            (12, 19): hop_el_set(25);
            (12, 20): hop_el_set(24);
            (12, 21): hop_el_set(23);
            (12, 22): hop_el_set(22);
            (12, 23): hop_el_set(21);
            (12, 24): hop_el_set(20);
            (12, 25): hop_el_set(19);
            (12, 26): hop_el_set(18);
            (12, 27): hop_el_set(17);
            (12, 28): hop_el_set(16);
            (12, 29): hop_el_set(15);
            (12, 30): hop_el_set(14);
            (12, 31): hop_el_set(13);
            (13, 0): hop_el_set(13);
            (13, 1): hop_el_set(12);
            (13, 2): hop_el_set(11);
            (13, 3): hop_el_set(10);
            (13, 4): hop_el_set(9);
            (13, 5): hop_el_set(8);
            (13, 6): hop_el_set(7);
            (13, 7): hop_el_set(6);
            (13, 8): hop_el_set(5);
            (13, 9): hop_el_set(4);
            (13, 10): hop_el_set(3);
            (13, 11): hop_el_set(2);
            (13, 12): hop_el_set(1);
            (13, 13): hop_el_set(0);
            (13, 14): hop_el_set(31);
            (13, 15): hop_el_set(30);
            (13, 16): hop_el_set(29);
            (13, 17): hop_el_set(28);
            (13, 18): hop_el_set(27);
            (13, 19): hop_el_set(26);
            (13, 20): hop_el_set(25);
            (13, 21): hop_el_set(24);
            (13, 22): hop_el_set(23);
            (13, 23): hop_el_set(22);
            (13, 24): hop_el_set(21);
            (13, 25): hop_el_set(20);
            (13, 26): hop_el_set(19);
            (13, 27): hop_el_set(18);
            (13, 28): hop_el_set(17);
            (13, 29): hop_el_set(16);
            (13, 30): hop_el_set(15);
            (13, 31): hop_el_set(14);
            (14, 0): hop_el_set(14);
            (14, 1): hop_el_set(13);
            (14, 2): hop_el_set(12);
            (14, 3): hop_el_set(11);
            (14, 4): hop_el_set(10);
            (14, 5): hop_el_set(9);
            (14, 6): hop_el_set(8);
            (14, 7): hop_el_set(7);
            (14, 8): hop_el_set(6);
            (14, 9): hop_el_set(5);
            (14, 10): hop_el_set(4);
            (14, 11): hop_el_set(3);
            (14, 12): hop_el_set(2);
            (14, 13): hop_el_set(1);
            (14, 14): hop_el_set(0);
            (14, 15): hop_el_set(31);
            (14, 16): hop_el_set(30);
            (14, 17): hop_el_set(29);
            (14, 18): hop_el_set(28);
            (14, 19): hop_el_set(27);
            (14, 20): hop_el_set(26);
            (14, 21): hop_el_set(25);
            (14, 22): hop_el_set(24);
            (14, 23): hop_el_set(23);
            (14, 24): hop_el_set(22);
            (14, 25): hop_el_set(21);
            (14, 26): hop_el_set(20);
            (14, 27): hop_el_set(19);
            (14, 28): hop_el_set(18);
            (14, 29): hop_el_set(17);
            (14, 30): hop_el_set(16);
            (14, 31): hop_el_set(15);
            (15, 0): hop_el_set(15);
            (15, 1): hop_el_set(14);
            (15, 2): hop_el_set(13);
            (15, 3): hop_el_set(12);
            (15, 4): hop_el_set(11);
            (15, 5): hop_el_set(10);
            (15, 6): hop_el_set(9);
            (15, 7): hop_el_set(8);
            (15, 8): hop_el_set(7);
            (15, 9): hop_el_set(6);
            (15, 10): hop_el_set(5);
            (15, 11): hop_el_set(4);
            (15, 12): hop_el_set(3);
            (15, 13): hop_el_set(2);
            (15, 14): hop_el_set(1);
            (15, 15): hop_el_set(0);
            (15, 16): hop_el_set(31);
            (15, 17): hop_el_set(30);
            (15, 18): hop_el_set(29);
            (15, 19): hop_el_set(28);
            (15, 20): hop_el_set(27);
            (15, 21): hop_el_set(26);
            (15, 22): hop_el_set(25);
            (15, 23): hop_el_set(24);
            (15, 24): hop_el_set(23);
            (15, 25): hop_el_set(22);
            (15, 26): hop_el_set(21);
            (15, 27): hop_el_set(20);
            (15, 28): hop_el_set(19);
            (15, 29): hop_el_set(18);
            (15, 30): hop_el_set(17);
            (15, 31): hop_el_set(16);
            (16, 0): hop_el_set(16);
            (16, 1): hop_el_set(15);
            (16, 2): hop_el_set(14);
            (16, 3): hop_el_set(13);
            (16, 4): hop_el_set(12);
            (16, 5): hop_el_set(11);
            (16, 6): hop_el_set(10);
            (16, 7): hop_el_set(9);
            (16, 8): hop_el_set(8);
            (16, 9): hop_el_set(7);
            (16, 10): hop_el_set(6);
            (16, 11): hop_el_set(5);
            (16, 12): hop_el_set(4);
            (16, 13): hop_el_set(3);
            (16, 14): hop_el_set(2);
            (16, 15): hop_el_set(1);
            (16, 16): hop_el_set(0);
            (16, 17): hop_el_set(31);
            (16, 18): hop_el_set(30);
            (16, 19): hop_el_set(29);
            (16, 20): hop_el_set(28);
            (16, 21): hop_el_set(27);
            (16, 22): hop_el_set(26);
            (16, 23): hop_el_set(25);
            (16, 24): hop_el_set(24);
            (16, 25): hop_el_set(23);
            (16, 26): hop_el_set(22);
            (16, 27): hop_el_set(21);
            (16, 28): hop_el_set(20);
            (16, 29): hop_el_set(19);
            (16, 30): hop_el_set(18);
            (16, 31): hop_el_set(17);
            (17, 0): hop_el_set(17);
            (17, 1): hop_el_set(16);
            (17, 2): hop_el_set(15);
            (17, 3): hop_el_set(14);
            (17, 4): hop_el_set(13);
            (17, 5): hop_el_set(12);
            (17, 6): hop_el_set(11);
            (17, 7): hop_el_set(10);
            (17, 8): hop_el_set(9);
            (17, 9): hop_el_set(8);
            (17, 10): hop_el_set(7);
            (17, 11): hop_el_set(6);
            (17, 12): hop_el_set(5);
            (17, 13): hop_el_set(4);
            (17, 14): hop_el_set(3);
            (17, 15): hop_el_set(2);
            (17, 16): hop_el_set(1);
            (17, 17): hop_el_set(0);
            (17, 18): hop_el_set(31);
            (17, 19): hop_el_set(30);
            (17, 20): hop_el_set(29);
            (17, 21): hop_el_set(28);
            (17, 22): hop_el_set(27);
            (17, 23): hop_el_set(26);
            (17, 24): hop_el_set(25);
            (17, 25): hop_el_set(24);
            (17, 26): hop_el_set(23);
            (17, 27): hop_el_set(22);
            (17, 28): hop_el_set(21);
            (17, 29): hop_el_set(20);
            (17, 30): hop_el_set(19);
            (17, 31): hop_el_set(18);
            (18, 0): hop_el_set(18);
            (18, 1): hop_el_set(17);
            (18, 2): hop_el_set(16);
            (18, 3): hop_el_set(15);
            (18, 4): hop_el_set(14);
            (18, 5): hop_el_set(13);
            (18, 6): hop_el_set(12);
            (18, 7): hop_el_set(11);
            (18, 8): hop_el_set(10);
            (18, 9): hop_el_set(9);
            (18, 10): hop_el_set(8);
            (18, 11): hop_el_set(7);
            (18, 12): hop_el_set(6);
            (18, 13): hop_el_set(5);
            (18, 14): hop_el_set(4);
            (18, 15): hop_el_set(3);
            (18, 16): hop_el_set(2);
            (18, 17): hop_el_set(1);
            (18, 18): hop_el_set(0);
            (18, 19): hop_el_set(31);
            (18, 20): hop_el_set(30);
            (18, 21): hop_el_set(29);
            (18, 22): hop_el_set(28);
            (18, 23): hop_el_set(27);
            (18, 24): hop_el_set(26);
            (18, 25): hop_el_set(25);
            (18, 26): hop_el_set(24);
            (18, 27): hop_el_set(23);
            (18, 28): hop_el_set(22);
            (18, 29): hop_el_set(21);
            (18, 30): hop_el_set(20);
            (18, 31): hop_el_set(19);
            (19, 0): hop_el_set(19);
            (19, 1): hop_el_set(18);
            (19, 2): hop_el_set(17);
            (19, 3): hop_el_set(16);
            (19, 4): hop_el_set(15);
            (19, 5): hop_el_set(14);
            (19, 6): hop_el_set(13);
            (19, 7): hop_el_set(12);
            (19, 8): hop_el_set(11);
            (19, 9): hop_el_set(10);
            (19, 10): hop_el_set(9);
            (19, 11): hop_el_set(8);
            (19, 12): hop_el_set(7);
            (19, 13): hop_el_set(6);
            (19, 14): hop_el_set(5);
            (19, 15): hop_el_set(4);
            (19, 16): hop_el_set(3);
            (19, 17): hop_el_set(2);
            (19, 18): hop_el_set(1);
            (19, 19): hop_el_set(0);
            (19, 20): hop_el_set(31);
            (19, 21): hop_el_set(30);
            (19, 22): hop_el_set(29);
            (19, 23): hop_el_set(28);
            (19, 24): hop_el_set(27);
            (19, 25): hop_el_set(26);
            (19, 26): hop_el_set(25);
            (19, 27): hop_el_set(24);
            (19, 28): hop_el_set(23);
            (19, 29): hop_el_set(22);
            (19, 30): hop_el_set(21);
            (19, 31): hop_el_set(20);
            (20, 0): hop_el_set(20);
            (20, 1): hop_el_set(19);
            (20, 2): hop_el_set(18);
            (20, 3): hop_el_set(17);
            (20, 4): hop_el_set(16);
            (20, 5): hop_el_set(15);
            (20, 6): hop_el_set(14);
            (20, 7): hop_el_set(13);
            (20, 8): hop_el_set(12);
            (20, 9): hop_el_set(11);
            (20, 10): hop_el_set(10);
            (20, 11): hop_el_set(9);
            (20, 12): hop_el_set(8);
            (20, 13): hop_el_set(7);
            (20, 14): hop_el_set(6);
            (20, 15): hop_el_set(5);
            (20, 16): hop_el_set(4);
            (20, 17): hop_el_set(3);
            (20, 18): hop_el_set(2);
            (20, 19): hop_el_set(1);
            (20, 20): hop_el_set(0);
            (20, 21): hop_el_set(31);
            (20, 22): hop_el_set(30);
            (20, 23): hop_el_set(29);
            (20, 24): hop_el_set(28);
            (20, 25): hop_el_set(27);
            (20, 26): hop_el_set(26);
            (20, 27): hop_el_set(25);
            (20, 28): hop_el_set(24);
            (20, 29): hop_el_set(23);
            (20, 30): hop_el_set(22);
            (20, 31): hop_el_set(21);
            (21, 0): hop_el_set(21);
            (21, 1): hop_el_set(20);
            (21, 2): hop_el_set(19);
            (21, 3): hop_el_set(18);
            (21, 4): hop_el_set(17);
            (21, 5): hop_el_set(16);
            (21, 6): hop_el_set(15);
            (21, 7): hop_el_set(14);
            (21, 8): hop_el_set(13);
            (21, 9): hop_el_set(12);
            (21, 10): hop_el_set(11);
            (21, 11): hop_el_set(10);
            (21, 12): hop_el_set(9);
            (21, 13): hop_el_set(8);
            (21, 14): hop_el_set(7);
            (21, 15): hop_el_set(6);
            (21, 16): hop_el_set(5);
            (21, 17): hop_el_set(4);
            (21, 18): hop_el_set(3);
            (21, 19): hop_el_set(2);
            (21, 20): hop_el_set(1);
            (21, 21): hop_el_set(0);
            (21, 22): hop_el_set(31);
            (21, 23): hop_el_set(30);
            (21, 24): hop_el_set(29);
            (21, 25): hop_el_set(28);
            (21, 26): hop_el_set(27);
            (21, 27): hop_el_set(26);
            (21, 28): hop_el_set(25);
            (21, 29): hop_el_set(24);
            (21, 30): hop_el_set(23);
            (21, 31): hop_el_set(22);
            (22, 0): hop_el_set(22);
            (22, 1): hop_el_set(21);
            (22, 2): hop_el_set(20);
            (22, 3): hop_el_set(19);
            (22, 4): hop_el_set(18);
            (22, 5): hop_el_set(17);
            (22, 6): hop_el_set(16);
            (22, 7): hop_el_set(15);
            (22, 8): hop_el_set(14);
            (22, 9): hop_el_set(13);
            (22, 10): hop_el_set(12);
            (22, 11): hop_el_set(11);
            (22, 12): hop_el_set(10);
            (22, 13): hop_el_set(9);
            (22, 14): hop_el_set(8);
            (22, 15): hop_el_set(7);
            (22, 16): hop_el_set(6);
            (22, 17): hop_el_set(5);
            (22, 18): hop_el_set(4);
            (22, 19): hop_el_set(3);
            (22, 20): hop_el_set(2);
            (22, 21): hop_el_set(1);
            (22, 22): hop_el_set(0);
            (22, 23): hop_el_set(31);
            (22, 24): hop_el_set(30);
            (22, 25): hop_el_set(29);
            (22, 26): hop_el_set(28);
            (22, 27): hop_el_set(27);
            (22, 28): hop_el_set(26);
            (22, 29): hop_el_set(25);
            (22, 30): hop_el_set(24);
            (22, 31): hop_el_set(23);
            (23, 0): hop_el_set(23);
            (23, 1): hop_el_set(22);
            (23, 2): hop_el_set(21);
            (23, 3): hop_el_set(20);
            (23, 4): hop_el_set(19);
            (23, 5): hop_el_set(18);
            (23, 6): hop_el_set(17);
            (23, 7): hop_el_set(16);
            (23, 8): hop_el_set(15);
            (23, 9): hop_el_set(14);
            (23, 10): hop_el_set(13);
            (23, 11): hop_el_set(12);
            (23, 12): hop_el_set(11);
            (23, 13): hop_el_set(10);
            (23, 14): hop_el_set(9);
            (23, 15): hop_el_set(8);
            (23, 16): hop_el_set(7);
            (23, 17): hop_el_set(6);
            (23, 18): hop_el_set(5);
            (23, 19): hop_el_set(4);
            (23, 20): hop_el_set(3);
            (23, 21): hop_el_set(2);
            (23, 22): hop_el_set(1);
            (23, 23): hop_el_set(0);
            (23, 24): hop_el_set(31);
            (23, 25): hop_el_set(30);
            (23, 26): hop_el_set(29);
            (23, 27): hop_el_set(28);
            (23, 28): hop_el_set(27);
            (23, 29): hop_el_set(26);
            (23, 30): hop_el_set(25);
            (23, 31): hop_el_set(24);
            (24, 0): hop_el_set(24);
            (24, 1): hop_el_set(23);
            (24, 2): hop_el_set(22);
            (24, 3): hop_el_set(21);
            (24, 4): hop_el_set(20);
            (24, 5): hop_el_set(19);
            (24, 6): hop_el_set(18);
            (24, 7): hop_el_set(17);
            (24, 8): hop_el_set(16);
            (24, 9): hop_el_set(15);
            (24, 10): hop_el_set(14);
            (24, 11): hop_el_set(13);
            (24, 12): hop_el_set(12);
            (24, 13): hop_el_set(11);
            (24, 14): hop_el_set(10);
            (24, 15): hop_el_set(9);
            (24, 16): hop_el_set(8);
            (24, 17): hop_el_set(7);
            (24, 18): hop_el_set(6);
            (24, 19): hop_el_set(5);
            (24, 20): hop_el_set(4);
            (24, 21): hop_el_set(3);
            (24, 22): hop_el_set(2);
            (24, 23): hop_el_set(1);
            (24, 24): hop_el_set(0);
            (24, 25): hop_el_set(31);
            (24, 26): hop_el_set(30);
            (24, 27): hop_el_set(29);
            (24, 28): hop_el_set(28);
            (24, 29): hop_el_set(27);
            (24, 30): hop_el_set(26);
            (24, 31): hop_el_set(25);
            (25, 0): hop_el_set(25);
            (25, 1): hop_el_set(24);
            (25, 2): hop_el_set(23);
            (25, 3): hop_el_set(22);
            (25, 4): hop_el_set(21);
            (25, 5): hop_el_set(20);
            (25, 6): hop_el_set(19);
            (25, 7): hop_el_set(18);
            (25, 8): hop_el_set(17);
            (25, 9): hop_el_set(16);
            (25, 10): hop_el_set(15);
            (25, 11): hop_el_set(14);
            (25, 12): hop_el_set(13);
            (25, 13): hop_el_set(12);
            (25, 14): hop_el_set(11);
            (25, 15): hop_el_set(10);
            (25, 16): hop_el_set(9);
            (25, 17): hop_el_set(8);
            (25, 18): hop_el_set(7);
            (25, 19): hop_el_set(6);
            (25, 20): hop_el_set(5);
            (25, 21): hop_el_set(4);
            (25, 22): hop_el_set(3);
            (25, 23): hop_el_set(2);
            (25, 24): hop_el_set(1);
            (25, 25): hop_el_set(0);
            (25, 26): hop_el_set(31);
            (25, 27): hop_el_set(30);
            (25, 28): hop_el_set(29);
            (25, 29): hop_el_set(28);
            (25, 30): hop_el_set(27);
            (25, 31): hop_el_set(26);
            (26, 0): hop_el_set(26);
            (26, 1): hop_el_set(25);
            (26, 2): hop_el_set(24);
            (26, 3): hop_el_set(23);
            (26, 4): hop_el_set(22);
            (26, 5): hop_el_set(21);
            (26, 6): hop_el_set(20);
            (26, 7): hop_el_set(19);
            (26, 8): hop_el_set(18);
            (26, 9): hop_el_set(17);
            (26, 10): hop_el_set(16);
            (26, 11): hop_el_set(15);
            (26, 12): hop_el_set(14);
            (26, 13): hop_el_set(13);
            (26, 14): hop_el_set(12);
            (26, 15): hop_el_set(11);
            (26, 16): hop_el_set(10);
            (26, 17): hop_el_set(9);
            (26, 18): hop_el_set(8);
            (26, 19): hop_el_set(7);
            (26, 20): hop_el_set(6);
            (26, 21): hop_el_set(5);
            (26, 22): hop_el_set(4);
            (26, 23): hop_el_set(3);
            (26, 24): hop_el_set(2);
            (26, 25): hop_el_set(1);
            (26, 26): hop_el_set(0);
            (26, 27): hop_el_set(31);
            (26, 28): hop_el_set(30);
            (26, 29): hop_el_set(29);
            (26, 30): hop_el_set(28);
            (26, 31): hop_el_set(27);
            (27, 0): hop_el_set(27);
            (27, 1): hop_el_set(26);
            (27, 2): hop_el_set(25);
            (27, 3): hop_el_set(24);
            (27, 4): hop_el_set(23);
            (27, 5): hop_el_set(22);
            (27, 6): hop_el_set(21);
            (27, 7): hop_el_set(20);
            (27, 8): hop_el_set(19);
            (27, 9): hop_el_set(18);
            (27, 10): hop_el_set(17);
            (27, 11): hop_el_set(16);
            (27, 12): hop_el_set(15);
            (27, 13): hop_el_set(14);
            (27, 14): hop_el_set(13);
            (27, 15): hop_el_set(12);
            (27, 16): hop_el_set(11);
            (27, 17): hop_el_set(10);
            (27, 18): hop_el_set(9);
            (27, 19): hop_el_set(8);
            (27, 20): hop_el_set(7);
            (27, 21): hop_el_set(6);
            (27, 22): hop_el_set(5);
            (27, 23): hop_el_set(4);
            (27, 24): hop_el_set(3);
            (27, 25): hop_el_set(2);
            (27, 26): hop_el_set(1);
            (27, 27): hop_el_set(0);
            (27, 28): hop_el_set(31);
            (27, 29): hop_el_set(30);
            (27, 30): hop_el_set(29);
            (27, 31): hop_el_set(28);
            (28, 0): hop_el_set(28);
            (28, 1): hop_el_set(27);
            (28, 2): hop_el_set(26);
            (28, 3): hop_el_set(25);
            (28, 4): hop_el_set(24);
            (28, 5): hop_el_set(23);
            (28, 6): hop_el_set(22);
            (28, 7): hop_el_set(21);
            (28, 8): hop_el_set(20);
            (28, 9): hop_el_set(19);
            (28, 10): hop_el_set(18);
            (28, 11): hop_el_set(17);
            (28, 12): hop_el_set(16);
            (28, 13): hop_el_set(15);
            (28, 14): hop_el_set(14);
            (28, 15): hop_el_set(13);
            (28, 16): hop_el_set(12);
            (28, 17): hop_el_set(11);
            (28, 18): hop_el_set(10);
            (28, 19): hop_el_set(9);
            (28, 20): hop_el_set(8);
            (28, 21): hop_el_set(7);
            (28, 22): hop_el_set(6);
            (28, 23): hop_el_set(5);
            (28, 24): hop_el_set(4);
            (28, 25): hop_el_set(3);
            (28, 26): hop_el_set(2);
            (28, 27): hop_el_set(1);
            (28, 28): hop_el_set(0);
            (28, 29): hop_el_set(31);
            (28, 30): hop_el_set(30);
            (28, 31): hop_el_set(29);
            (29, 0): hop_el_set(29);
            (29, 1): hop_el_set(28);
            (29, 2): hop_el_set(27);
            (29, 3): hop_el_set(26);
            (29, 4): hop_el_set(25);
            (29, 5): hop_el_set(24);
            (29, 6): hop_el_set(23);
            (29, 7): hop_el_set(22);
            (29, 8): hop_el_set(21);
            (29, 9): hop_el_set(20);
            (29, 10): hop_el_set(19);
            (29, 11): hop_el_set(18);
            (29, 12): hop_el_set(17);
            (29, 13): hop_el_set(16);
            (29, 14): hop_el_set(15);
            (29, 15): hop_el_set(14);
            (29, 16): hop_el_set(13);
            (29, 17): hop_el_set(12);
            (29, 18): hop_el_set(11);
            (29, 19): hop_el_set(10);
            (29, 20): hop_el_set(9);
            (29, 21): hop_el_set(8);
            (29, 22): hop_el_set(7);
            (29, 23): hop_el_set(6);
            (29, 24): hop_el_set(5);
            (29, 25): hop_el_set(4);
            (29, 26): hop_el_set(3);
            (29, 27): hop_el_set(2);
            (29, 28): hop_el_set(1);
            (29, 29): hop_el_set(0);
            (29, 30): hop_el_set(31);
            (29, 31): hop_el_set(30);
            (30, 0): hop_el_set(30);
            (30, 1): hop_el_set(29);
            (30, 2): hop_el_set(28);
            (30, 3): hop_el_set(27);
            (30, 4): hop_el_set(26);
            (30, 5): hop_el_set(25);
            (30, 6): hop_el_set(24);
            (30, 7): hop_el_set(23);
            (30, 8): hop_el_set(22);
            (30, 9): hop_el_set(21);
            (30, 10): hop_el_set(20);
            (30, 11): hop_el_set(19);
            (30, 12): hop_el_set(18);
            (30, 13): hop_el_set(17);
            (30, 14): hop_el_set(16);
            (30, 15): hop_el_set(15);
            (30, 16): hop_el_set(14);
            (30, 17): hop_el_set(13);
            (30, 18): hop_el_set(12);
            (30, 19): hop_el_set(11);
            (30, 20): hop_el_set(10);
            (30, 21): hop_el_set(9);
            (30, 22): hop_el_set(8);
            (30, 23): hop_el_set(7);
            (30, 24): hop_el_set(6);
            (30, 25): hop_el_set(5);
            (30, 26): hop_el_set(4);
            (30, 27): hop_el_set(3);
            (30, 28): hop_el_set(2);
            (30, 29): hop_el_set(1);
            (30, 30): hop_el_set(0);
            (30, 31): hop_el_set(31);
            (31, 0): hop_el_set(31);
            (31, 1): hop_el_set(30);
            (31, 2): hop_el_set(29);
            (31, 3): hop_el_set(28);
            (31, 4): hop_el_set(27);
            (31, 5): hop_el_set(26);
            (31, 6): hop_el_set(25);
            (31, 7): hop_el_set(24);
            (31, 8): hop_el_set(23);
            (31, 9): hop_el_set(22);
            (31, 10): hop_el_set(21);
            (31, 11): hop_el_set(20);
            (31, 12): hop_el_set(19);
            (31, 13): hop_el_set(18);
            (31, 14): hop_el_set(17);
            (31, 15): hop_el_set(16);
            (31, 16): hop_el_set(15);
            (31, 17): hop_el_set(14);
            (31, 18): hop_el_set(13);
            (31, 19): hop_el_set(12);
            (31, 20): hop_el_set(11);
            (31, 21): hop_el_set(10);
            (31, 22): hop_el_set(9);
            (31, 23): hop_el_set(8);
            (31, 24): hop_el_set(7);
            (31, 25): hop_el_set(6);
            (31, 26): hop_el_set(5);
            (31, 27): hop_el_set(4);
            (31, 28): hop_el_set(3);
            (31, 29): hop_el_set(2);
            (31, 30): hop_el_set(1);
            (31, 31): hop_el_set(0);
        }
        size = 1024;
    }

    /* missed: rank + el >= S (a table of those pairs: no arithmetic on the way to the pick) */
    action hop_late() { meta.hop_missed = 1; }
    table hop_missed {
        key = {
            meta.alt_wait_10: exact @name("rank");
            meta.hop_el: exact @name("el");
        }
        actions = { hop_late; NoAction; }
        default_action = NoAction();
        const entries = {
            (1, 31): hop_late();
            (2, 30): hop_late();
            (2, 31): hop_late();
            (3, 29): hop_late();
            (3, 30): hop_late();
            (3, 31): hop_late();
            (4, 28): hop_late();
            (4, 29): hop_late();
            (4, 30): hop_late();
            (4, 31): hop_late();
            (5, 27): hop_late();
            (5, 28): hop_late();
            (5, 29): hop_late();
            (5, 30): hop_late();
            (5, 31): hop_late();
            (6, 26): hop_late();
            (6, 27): hop_late();
            (6, 28): hop_late();
            (6, 29): hop_late();
            (6, 30): hop_late();
            (6, 31): hop_late();
            (7, 25): hop_late();
            (7, 26): hop_late();
            (7, 27): hop_late();
            (7, 28): hop_late();
            (7, 29): hop_late();
            (7, 30): hop_late();
            (7, 31): hop_late();
            (8, 24): hop_late();
            (8, 25): hop_late();
            (8, 26): hop_late();
            (8, 27): hop_late();
            (8, 28): hop_late();
            (8, 29): hop_late();
            (8, 30): hop_late();
            (8, 31): hop_late();
            (9, 23): hop_late();
            (9, 24): hop_late();
            (9, 25): hop_late();
            (9, 26): hop_late();
            (9, 27): hop_late();
            (9, 28): hop_late();
            (9, 29): hop_late();
            (9, 30): hop_late();
            (9, 31): hop_late();
            (10, 22): hop_late();
            (10, 23): hop_late();
            (10, 24): hop_late();
            (10, 25): hop_late();
            (10, 26): hop_late();
            (10, 27): hop_late();
            (10, 28): hop_late();
            (10, 29): hop_late();
            (10, 30): hop_late();
            (10, 31): hop_late();
            (11, 21): hop_late();
            (11, 22): hop_late();
            (11, 23): hop_late();
            (11, 24): hop_late();
            (11, 25): hop_late();
            (11, 26): hop_late();
            (11, 27): hop_late();
            (11, 28): hop_late();
            (11, 29): hop_late();
            (11, 30): hop_late();
            (11, 31): hop_late();
            (12, 20): hop_late();
            (12, 21): hop_late();
            (12, 22): hop_late();
            (12, 23): hop_late();
            (12, 24): hop_late();
            (12, 25): hop_late();
            (12, 26): hop_late();
            (12, 27): hop_late();
            (12, 28): hop_late();
            (12, 29): hop_late();
            (12, 30): hop_late();
            (12, 31): hop_late();
            (13, 19): hop_late();
            (13, 20): hop_late();
            (13, 21): hop_late();
            (13, 22): hop_late();
            (13, 23): hop_late();
            (13, 24): hop_late();
            (13, 25): hop_late();
            (13, 26): hop_late();
            (13, 27): hop_late();
            (13, 28): hop_late();
            (13, 29): hop_late();
            (13, 30): hop_late();
            (13, 31): hop_late();
            (14, 18): hop_late();
            (14, 19): hop_late();
            (14, 20): hop_late();
            (14, 21): hop_late();
            (14, 22): hop_late();
            (14, 23): hop_late();
            (14, 24): hop_late();
            (14, 25): hop_late();
            (14, 26): hop_late();
            (14, 27): hop_late();
            (14, 28): hop_late();
            (14, 29): hop_late();
            (14, 30): hop_late();
            (14, 31): hop_late();
            (15, 17): hop_late();
            (15, 18): hop_late();
            (15, 19): hop_late();
            (15, 20): hop_late();
            (15, 21): hop_late();
            (15, 22): hop_late();
            (15, 23): hop_late();
            (15, 24): hop_late();
            (15, 25): hop_late();
            (15, 26): hop_late();
            (15, 27): hop_late();
            (15, 28): hop_late();
            (15, 29): hop_late();
            (15, 30): hop_late();
            (15, 31): hop_late();
            (16, 16): hop_late();
            (16, 17): hop_late();
            (16, 18): hop_late();
            (16, 19): hop_late();
            (16, 20): hop_late();
            (16, 21): hop_late();
            (16, 22): hop_late();
            (16, 23): hop_late();
            (16, 24): hop_late();
            (16, 25): hop_late();
            (16, 26): hop_late();
            (16, 27): hop_late();
            (16, 28): hop_late();
            (16, 29): hop_late();
            (16, 30): hop_late();
            (16, 31): hop_late();
            (17, 15): hop_late();
            (17, 16): hop_late();
            (17, 17): hop_late();
            (17, 18): hop_late();
            (17, 19): hop_late();
            (17, 20): hop_late();
            (17, 21): hop_late();
            (17, 22): hop_late();
            (17, 23): hop_late();
            (17, 24): hop_late();
            (17, 25): hop_late();
            (17, 26): hop_late();
            (17, 27): hop_late();
            (17, 28): hop_late();
            (17, 29): hop_late();
            (17, 30): hop_late();
            (17, 31): hop_late();
            (18, 14): hop_late();
            (18, 15): hop_late();
            (18, 16): hop_late();
            (18, 17): hop_late();
            (18, 18): hop_late();
            (18, 19): hop_late();
            (18, 20): hop_late();
            (18, 21): hop_late();
            (18, 22): hop_late();
            (18, 23): hop_late();
            (18, 24): hop_late();
            (18, 25): hop_late();
            (18, 26): hop_late();
            (18, 27): hop_late();
            (18, 28): hop_late();
            (18, 29): hop_late();
            (18, 30): hop_late();
            (18, 31): hop_late();
            (19, 13): hop_late();
            (19, 14): hop_late();
            (19, 15): hop_late();
            (19, 16): hop_late();
            (19, 17): hop_late();
            (19, 18): hop_late();
            (19, 19): hop_late();
            (19, 20): hop_late();
            (19, 21): hop_late();
            (19, 22): hop_late();
            (19, 23): hop_late();
            (19, 24): hop_late();
            (19, 25): hop_late();
            (19, 26): hop_late();
            (19, 27): hop_late();
            (19, 28): hop_late();
            (19, 29): hop_late();
            (19, 30): hop_late();
            (19, 31): hop_late();
            (20, 12): hop_late();
            (20, 13): hop_late();
            (20, 14): hop_late();
            (20, 15): hop_late();
            (20, 16): hop_late();
            (20, 17): hop_late();
            (20, 18): hop_late();
            (20, 19): hop_late();
            (20, 20): hop_late();
            (20, 21): hop_late();
            (20, 22): hop_late();
            (20, 23): hop_late();
            (20, 24): hop_late();
            (20, 25): hop_late();
            (20, 26): hop_late();
            (20, 27): hop_late();
            (20, 28): hop_late();
            (20, 29): hop_late();
            (20, 30): hop_late();
            (20, 31): hop_late();
            (21, 11): hop_late();
            (21, 12): hop_late();
            (21, 13): hop_late();
            (21, 14): hop_late();
            (21, 15): hop_late();
            (21, 16): hop_late();
            (21, 17): hop_late();
            (21, 18): hop_late();
            (21, 19): hop_late();
            (21, 20): hop_late();
            (21, 21): hop_late();
            (21, 22): hop_late();
            (21, 23): hop_late();
            (21, 24): hop_late();
            (21, 25): hop_late();
            (21, 26): hop_late();
            (21, 27): hop_late();
            (21, 28): hop_late();
            (21, 29): hop_late();
            (21, 30): hop_late();
            (21, 31): hop_late();
            (22, 10): hop_late();
            (22, 11): hop_late();
            (22, 12): hop_late();
            (22, 13): hop_late();
            (22, 14): hop_late();
            (22, 15): hop_late();
            (22, 16): hop_late();
            (22, 17): hop_late();
            (22, 18): hop_late();
            (22, 19): hop_late();
            (22, 20): hop_late();
            (22, 21): hop_late();
            (22, 22): hop_late();
            (22, 23): hop_late();
            (22, 24): hop_late();
            (22, 25): hop_late();
            (22, 26): hop_late();
            (22, 27): hop_late();
            (22, 28): hop_late();
            (22, 29): hop_late();
            (22, 30): hop_late();
            (22, 31): hop_late();
            (23, 9): hop_late();
            (23, 10): hop_late();
            (23, 11): hop_late();
            (23, 12): hop_late();
            (23, 13): hop_late();
            (23, 14): hop_late();
            (23, 15): hop_late();
            (23, 16): hop_late();
            (23, 17): hop_late();
            (23, 18): hop_late();
            (23, 19): hop_late();
            (23, 20): hop_late();
            (23, 21): hop_late();
            (23, 22): hop_late();
            (23, 23): hop_late();
            (23, 24): hop_late();
            (23, 25): hop_late();
            (23, 26): hop_late();
            (23, 27): hop_late();
            (23, 28): hop_late();
            (23, 29): hop_late();
            (23, 30): hop_late();
            (23, 31): hop_late();
            (24, 8): hop_late();
            (24, 9): hop_late();
            (24, 10): hop_late();
            (24, 11): hop_late();
            (24, 12): hop_late();
            (24, 13): hop_late();
            (24, 14): hop_late();
            (24, 15): hop_late();
            (24, 16): hop_late();
            (24, 17): hop_late();
            (24, 18): hop_late();
            (24, 19): hop_late();
            (24, 20): hop_late();
            (24, 21): hop_late();
            (24, 22): hop_late();
            (24, 23): hop_late();
            (24, 24): hop_late();
            (24, 25): hop_late();
            (24, 26): hop_late();
            (24, 27): hop_late();
            (24, 28): hop_late();
            (24, 29): hop_late();
            (24, 30): hop_late();
            (24, 31): hop_late();
            (25, 7): hop_late();
            (25, 8): hop_late();
            (25, 9): hop_late();
            (25, 10): hop_late();
            (25, 11): hop_late();
            (25, 12): hop_late();
            (25, 13): hop_late();
            (25, 14): hop_late();
            (25, 15): hop_late();
            (25, 16): hop_late();
            (25, 17): hop_late();
            (25, 18): hop_late();
            (25, 19): hop_late();
            (25, 20): hop_late();
            (25, 21): hop_late();
            (25, 22): hop_late();
            (25, 23): hop_late();
            (25, 24): hop_late();
            (25, 25): hop_late();
            (25, 26): hop_late();
            (25, 27): hop_late();
            (25, 28): hop_late();
            (25, 29): hop_late();
            (25, 30): hop_late();
            (25, 31): hop_late();
            (26, 6): hop_late();
            (26, 7): hop_late();
            (26, 8): hop_late();
            (26, 9): hop_late();
            (26, 10): hop_late();
            (26, 11): hop_late();
            (26, 12): hop_late();
            (26, 13): hop_late();
            (26, 14): hop_late();
            (26, 15): hop_late();
            (26, 16): hop_late();
            (26, 17): hop_late();
            (26, 18): hop_late();
            (26, 19): hop_late();
            (26, 20): hop_late();
            (26, 21): hop_late();
            (26, 22): hop_late();
            (26, 23): hop_late();
            (26, 24): hop_late();
            (26, 25): hop_late();
            (26, 26): hop_late();
            (26, 27): hop_late();
            (26, 28): hop_late();
            (26, 29): hop_late();
            (26, 30): hop_late();
            (26, 31): hop_late();
            (27, 5): hop_late();
            (27, 6): hop_late();
            (27, 7): hop_late();
            (27, 8): hop_late();
            (27, 9): hop_late();
            (27, 10): hop_late();
            (27, 11): hop_late();
            (27, 12): hop_late();
            (27, 13): hop_late();
            (27, 14): hop_late();
            (27, 15): hop_late();
            (27, 16): hop_late();
            (27, 17): hop_late();
            (27, 18): hop_late();
            (27, 19): hop_late();
            (27, 20): hop_late();
            (27, 21): hop_late();
            (27, 22): hop_late();
            (27, 23): hop_late();
            (27, 24): hop_late();
            (27, 25): hop_late();
            (27, 26): hop_late();
            (27, 27): hop_late();
            (27, 28): hop_late();
            (27, 29): hop_late();
            (27, 30): hop_late();
            (27, 31): hop_late();
            (28, 4): hop_late();
            (28, 5): hop_late();
            (28, 6): hop_late();
            (28, 7): hop_late();
            (28, 8): hop_late();
            (28, 9): hop_late();
            (28, 10): hop_late();
            (28, 11): hop_late();
            (28, 12): hop_late();
            (28, 13): hop_late();
            (28, 14): hop_late();
            (28, 15): hop_late();
            (28, 16): hop_late();
            (28, 17): hop_late();
            (28, 18): hop_late();
            (28, 19): hop_late();
            (28, 20): hop_late();
            (28, 21): hop_late();
            (28, 22): hop_late();
            (28, 23): hop_late();
            (28, 24): hop_late();
            (28, 25): hop_late();
            (28, 26): hop_late();
            (28, 27): hop_late();
            (28, 28): hop_late();
            (28, 29): hop_late();
            (28, 30): hop_late();
            (28, 31): hop_late();
            (29, 3): hop_late();
            (29, 4): hop_late();
            (29, 5): hop_late();
            (29, 6): hop_late();
            (29, 7): hop_late();
            (29, 8): hop_late();
            (29, 9): hop_late();
            (29, 10): hop_late();
            (29, 11): hop_late();
            (29, 12): hop_late();
            (29, 13): hop_late();
            (29, 14): hop_late();
            (29, 15): hop_late();
            (29, 16): hop_late();
            (29, 17): hop_late();
            (29, 18): hop_late();
            (29, 19): hop_late();
            (29, 20): hop_late();
            (29, 21): hop_late();
            (29, 22): hop_late();
            (29, 23): hop_late();
            (29, 24): hop_late();
            (29, 25): hop_late();
            (29, 26): hop_late();
            (29, 27): hop_late();
            (29, 28): hop_late();
            (29, 29): hop_late();
            (29, 30): hop_late();
            (29, 31): hop_late();
            (30, 2): hop_late();
            (30, 3): hop_late();
            (30, 4): hop_late();
            (30, 5): hop_late();
            (30, 6): hop_late();
            (30, 7): hop_late();
            (30, 8): hop_late();
            (30, 9): hop_late();
            (30, 10): hop_late();
            (30, 11): hop_late();
            (30, 12): hop_late();
            (30, 13): hop_late();
            (30, 14): hop_late();
            (30, 15): hop_late();
            (30, 16): hop_late();
            (30, 17): hop_late();
            (30, 18): hop_late();
            (30, 19): hop_late();
            (30, 20): hop_late();
            (30, 21): hop_late();
            (30, 22): hop_late();
            (30, 23): hop_late();
            (30, 24): hop_late();
            (30, 25): hop_late();
            (30, 26): hop_late();
            (30, 27): hop_late();
            (30, 28): hop_late();
            (30, 29): hop_late();
            (30, 30): hop_late();
            (30, 31): hop_late();
            (31, 1): hop_late();
            (31, 2): hop_late();
            (31, 3): hop_late();
            (31, 4): hop_late();
            (31, 5): hop_late();
            (31, 6): hop_late();
            (31, 7): hop_late();
            (31, 8): hop_late();
            (31, 9): hop_late();
            (31, 10): hop_late();
            (31, 11): hop_late();
            (31, 12): hop_late();
            (31, 13): hop_late();
            (31, 14): hop_late();
            (31, 15): hop_late();
            (31, 16): hop_late();
            (31, 17): hop_late();
            (31, 18): hop_late();
            (31, 19): hop_late();
            (31, 20): hop_late();
            (31, 21): hop_late();
            (31, 22): hop_late();
            (31, 23): hop_late();
            (31, 24): hop_late();
            (31, 25): hop_late();
            (31, 26): hop_late();
            (31, 27): hop_late();
            (31, 28): hop_late();
            (31, 29): hop_late();
            (31, 30): hop_late();
            (31, 31): hop_late();
        }
        size = 496;
    }
    action hop_slot0() { meta.alt_up_10 = meta.hop_uplink; }
    action src_len_a() { meta.body = hdr.ipv4.totalLen - meta.hdr_bytes; }
    /* the destination: the option removed, the total length less it (IHL 5) */
    action dst_len() { hdr.ipv4.totalLen = meta.body + 20; }
    action src_len_b() { hdr.ipv4.totalLen = meta.body + meta.path_bytes; }
    /* the departure */
    action dep_admit_active() { meta.admitted = admit_active.execute(meta.dep_i, meta.fin); }
    action dep_admit_later() { meta.admitted = admit_later.execute(meta.dep_i, meta.fin); }
    action src_len_units() { meta.len = meta.len_g; }       // admitted with the longest source route
    /* the TM queue id of a calendar queue (a table: the 7-bit qid is not a slice of dep_q) */
    action set_qid(QueueId_t qid) { ig_tm_md.qid = qid; }
    table queue_id {
        key = { meta.dep_q: exact; }
        actions = { set_qid; }
        const entries = {
            0: set_qid(0);
            1: set_qid(1);
            2: set_qid(2);
            3: set_qid(3);
            4: set_qid(4);
            5: set_qid(5);
            6: set_qid(6);
            7: set_qid(7);
            8: set_qid(8);
            9: set_qid(9);
            10: set_qid(10);
            11: set_qid(11);
            12: set_qid(12);
            13: set_qid(13);
            14: set_qid(14);
            15: set_qid(15);
            16: set_qid(16);
            17: set_qid(17);
            18: set_qid(18);
            19: set_qid(19);
            20: set_qid(20);
            21: set_qid(21);
            22: set_qid(22);
            23: set_qid(23);
            24: set_qid(24);
            25: set_qid(25);
            26: set_qid(26);
            27: set_qid(27);
            28: set_qid(28);
            29: set_qid(29);
            30: set_qid(30);
            31: set_qid(31);
        }
        size = 32;
    }
    /* comparisons with the capacity are range tables (a gateway compares at most 12 bits) */
    action fits() { meta.fits_active = 1; }
    table fits_check {
        key = { meta.need: range; }
        actions = { fits; NoAction; }
        default_action = NoAction();
        const entries = { 0 .. CAP_UNITS: fits(); }
        size = 1;
    }
    action fits_g() { meta.fits_active_g = 1; }
    table fits_check_g {
        key = { meta.need_g: range; }
        actions = { fits_g; NoAction; }
        default_action = NoAction();
        const entries = { 0 .. CAP_UNITS: fits_g(); }
        size = 1;
    }
    action dep_mark() {
        meta.mirror_session = 1;
        ig_dprsr_md.mirror_type = meta.dep_mirror;
        meta.pkt_type = PKT_QUPD;
    }
    table fill_check {
        key = { meta.fin: range; }
        actions = { dep_mark; NoAction; }
        default_action = NoAction();
        const entries = { FILL_MARK + 1 .. 0xFFFF: dep_mark(); }
        size = 1;
    }
    action dep_resubmit() {
        meta.skip = meta.dep_alt + 1;
        ig_dprsr_md.resubmit_type = RESUBMIT_SPILL;
        meta.pkt_type = 1;
    }
    action dep_resubmit_source() {
        meta.skip = 1;
        ig_dprsr_md.resubmit_type = RESUBMIT_SPILL;
        meta.pkt_type = 1;
    }
    /* queue-state update: stale once the queue drained (now - admitted > rank, mod 256) */
    action qupd_a() { meta.qupd_age = meta.epoch - hdr.qupd.epoch; }
    action qupd_b() { meta.qupd_min = min(meta.qupd_age, hdr.qupd.rank); }
    action qupd_c() { meta.qupd_min = meta.qupd_min ^ meta.qupd_age; }      // != 0: age > rank, drained

    apply {
        /* which lookup a front-panel packet takes: an SSRR hop in transit, an SSRR path
         * written here (at the source, or re-sourced after a resubmit: UCMP §6.3), or the
         * URO per-hop table */
        bit<1> front = 0;
        bit<1> transit = 0;
        bit<1> source = 0;
        bit<1> ssrr_in = 0;
        bit<1> short_body = 0;
        bit<1> uro_path = 0;
        bit<1> wrong_tor = 0;                    // transit: the hop before the pointer names another ToR
        config.apply();
        port_role.apply();                       // after config: an uplink's stamp replaces its generation
        /* ---- the clock: ticked by timer batch 0 packet 0, read by everything else ---- */
        if (hdr.pg_timer.isValid() && hdr.pg_timer.batch_id == 0 && hdr.pg_timer.packet_id == 0) {
            meta.cur_slice = slice_tick.execute(0);
            meta.active_q = active_tick.execute(0);
            meta.active_q_1 = active_tick_1.execute(0);
            meta.active_q_2 = active_tick_2.execute(0);
            meta.epoch = epoch_tick.execute(0);
            start_stamp.execute(0);
            meta.ev = meta.ev | EV_TIMER;
        } else {
            meta.cur_slice = slice_read.execute(0);
            meta.active_q = active_read.execute(0);
            meta.active_q_1 = active_read_1.execute(0);
            meta.active_q_2 = active_read_2.execute(0);
            meta.epoch = epoch_read.execute(0);
            meta.slice_start = start_read.execute(0);
        }

        if (hdr.pg_timer.isValid()) {
            /* ---- timer batch: one AFC word per packet; never forwarded --------------- */
            timer_afc.apply();
            if (meta.have_dep == 1) {            // a pause: the drained queue starts empty
                qfin_reset.execute(meta.t_qidx);
                meta.down = link_down_test.execute(0);
                cfg_down_of_uplink();
                if (meta.down == 0) {             // a down uplink keeps its queues Full
                if (meta.down_hit == 0) {         // (two tests: a gateway sees at most 4 bytes + 12 bits)
                meta.alt_i_0 = meta.t_qidx;
                meta.alt_i_1 = meta.t_qidx;
                meta.alt_i_2 = meta.t_qidx;
                meta.alt_i_3 = meta.t_qidx;
                meta.alt_i_4 = meta.t_qidx;
                meta.alt_i_5 = meta.t_qidx;
                meta.alt_i_6 = meta.t_qidx;
                meta.alt_i_7 = meta.t_qidx;
                meta.alt_i_8 = meta.t_qidx;
                meta.alt_i_9 = meta.t_qidx;
                meta.alt_i_10 = meta.t_qidx;

                    meta.q_op = Q_CLEAR;
                }
                }
            }
            ig_dprsr_md.drop_ctl = 1;
        } else if (hdr.pg_port_down.isValid()) {
            /* ---- port-down app: the uplink is down from the next packet on ------------ */
            down_port.apply();
            if (meta.down_bit != 0) {
                link_down_set.execute(0);
                meta.alt_i_0 = meta.t_qidx;
                meta.alt_i_1 = meta.t_qidx;
                meta.alt_i_2 = meta.t_qidx;
                meta.alt_i_3 = meta.t_qidx;
                meta.alt_i_4 = meta.t_qidx;
                meta.alt_i_5 = meta.t_qidx;
                meta.alt_i_6 = meta.t_qidx;
                meta.alt_i_7 = meta.t_qidx;
                meta.alt_i_8 = meta.t_qidx;
                meta.alt_i_9 = meta.t_qidx;
                meta.alt_i_10 = meta.t_qidx;

                meta.q_op = Q_SET;
                meta.ev = EV_UPLINK_DOWN;
            }
            ig_dprsr_md.drop_ctl = 1;
        } else if (hdr.qupd.isValid()) {
            /* ---- queue-state update: mark Full unless the queue drained since --------- */
            qupd_a();
            qupd_b();
            qupd_c();
            if (meta.qupd_min == 0) {
            meta.alt_i_0 = hdr.qupd.qidx;
            meta.alt_i_1 = hdr.qupd.qidx;
            meta.alt_i_2 = hdr.qupd.qidx;
            meta.alt_i_3 = hdr.qupd.qidx;
            meta.alt_i_4 = hdr.qupd.qidx;
            meta.alt_i_5 = hdr.qupd.qidx;
            meta.alt_i_6 = hdr.qupd.qidx;
            meta.alt_i_7 = hdr.qupd.qidx;
            meta.alt_i_8 = hdr.qupd.qidx;
            meta.alt_i_9 = hdr.qupd.qidx;
            meta.alt_i_10 = hdr.qupd.qidx;

                meta.q_op = Q_SET;
                meta.ev = EV_QSTATE_FULL;
            }
            ig_dprsr_md.drop_ctl = 1;
        } else {
            /* ---- a front-panel packet, part 1: lookups up to each slot's queue index;
             * lookups and queue tests run side by side, the checks decide what is used ---- */
            front = 1;
            meta.q_op = Q_TEST;
            if (hdr.resub.isValid()) {
                meta.skip = hdr.resub.skip;
                meta.resubmitted = 1;
                meta.ev = EV_RESUBMIT_SPILL;
            }
            elapsed_ns();
            elapsed_quanta();
            slice_time.apply();
            ihl_bytes.apply();
            wire_a();
            wire_b();
            body_a();                            // the total length must cover the header
            body_b();
            /* kept apart: a source write below reuses meta.body for the L4 length */
            if (meta.body != 0) { short_body = 1; }
            /* does the packet (with the most a source route adds) still fit the active slice? */
            active_a();
            fits_check.apply();
            fits_check_g.apply();

            if (hdr.ipv4.isValid()) {
                host_dst.apply();
                route_mode.apply();
                /* the UCMP bucket of every IPv4 packet, used only if it is source-routed here:
                 * ungated, so the SSRR path lookup does not wait for the route mode */
                ssrr_bucket.apply();
                /* the source route's group and level, ungated as well (used only if
                 * source-routed here); the flow's member is hash mod the level's ties */
                meta.ssrr_hash = ssrr_flow_hash.get({hdr.ipv4.srcAddr, hdr.ipv4.dstAddr, hdr.ipv4.protocol,
                                                     meta.l4_src, meta.l4_dst});
                ssrr_picks.apply();
                ssrr_path.apply();
                ssrr_level.apply();
            }
            /* the option as it arrived: a source write below makes hdr.ssrr valid */
            if (hdr.ssrr.isValid()) { ssrr_in = 1; }
            if (hdr.ssrr.isValid() && meta.skip == 0) { transit = 1; }
            if (hdr.ssrr.isValid() && meta.skip != 0) { source = 1; }
            if (!hdr.ssrr.isValid() && meta.use_ssrr == 1 && meta.is_local == 0) { source = 1; }
            if (!hdr.ssrr.isValid() && meta.use_ssrr == 0 && meta.is_local == 0) { uro_path = 1; }

            /* ---- URO: K alternatives, each tested against its own queue-state copy ------ */
            if (uro_path == 1) {
                uro_next_hop.apply();
                slot_range.apply();
                /* slot 0: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_0.apply();
                slot_0_i();
                down_0.apply();
                if (meta.alt_c_0 == 1 && meta.alt_dn_0 == 0 && (meta.alt_act_0 == 0 || meta.fits_active == 1)) { meta.alt_pre_0 = 1; }

                /* slot 1: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_1.apply();
                slot_1_i();
                down_1.apply();
                if (meta.alt_c_1 == 1 && meta.alt_dn_1 == 0 && (meta.alt_act_1 == 0 || meta.fits_active == 1)) { meta.alt_pre_1 = 1; }

                /* slot 2: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_2.apply();
                slot_2_i();
                down_2.apply();
                if (meta.alt_c_2 == 1 && meta.alt_dn_2 == 0 && (meta.alt_act_2 == 0 || meta.fits_active == 1)) { meta.alt_pre_2 = 1; }

                /* slot 3: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_3.apply();
                slot_3_i();
                down_3.apply();
                if (meta.alt_c_3 == 1 && meta.alt_dn_3 == 0 && (meta.alt_act_3 == 0 || meta.fits_active == 1)) { meta.alt_pre_3 = 1; }

                /* slot 4: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_4.apply();
                slot_4_i();
                down_4.apply();
                if (meta.alt_c_4 == 1 && meta.alt_dn_4 == 0 && (meta.alt_act_4 == 0 || meta.fits_active == 1)) { meta.alt_pre_4 = 1; }

                /* slot 5: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_5.apply();
                slot_5_i();
                down_5.apply();
                if (meta.alt_c_5 == 1 && meta.alt_dn_5 == 0 && (meta.alt_act_5 == 0 || meta.fits_active == 1)) { meta.alt_pre_5 = 1; }

                /* slot 6: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_6.apply();
                slot_6_i();
                down_6.apply();
                if (meta.alt_c_6 == 1 && meta.alt_dn_6 == 0 && (meta.alt_act_6 == 0 || meta.fits_active == 1)) { meta.alt_pre_6 = 1; }

                /* slot 7: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_7.apply();
                slot_7_i();
                down_7.apply();
                if (meta.alt_c_7 == 1 && meta.alt_dn_7 == 0 && (meta.alt_act_7 == 0 || meta.fits_active == 1)) { meta.alt_pre_7 = 1; }

                /* slot 8: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_8.apply();
                slot_8_i();
                down_8.apply();
                if (meta.alt_c_8 == 1 && meta.alt_dn_8 == 0 && (meta.alt_act_8 == 0 || meta.fits_active == 1)) { meta.alt_pre_8 = 1; }

                /* slot 9: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_9.apply();
                slot_9_i();
                down_9.apply();
                if (meta.alt_c_9 == 1 && meta.alt_dn_9 == 0 && (meta.alt_act_9 == 0 || meta.fits_active == 1)) { meta.alt_pre_9 = 1; }

            }

            /* ---- SSRR: the hop at the pointer (transit) or hop 0 of a path written here -- */
            if (transit == 1) {
                ssrr_ptr.apply();                   // the hop at the pointer, the one before it
                /* the hop before the pointer names this ToR? If not (or the pointer is past the
                 * last hop), the packet was carried by another slice's circuit (boundary skew:
                 * docs/emulate.md) and its path is no longer there: it is re-sourced here by
                 * resubmit, as bmv2 does (UCMP §6.3). A gateway compare (xor), not
                 * prev - my_tor: bf-p4c 9.13.4 placed both fields in the upper halves of
                 * 32-bit containers and subtracted the whole containers ("sub W6, W6, W4"),
                 * so the hop's slice and uplink in the lower half of my_tor's container
                 * borrowed into the difference: 0 - 0 read 0xFFFF and every transit packet
                 * whose hop leaves in a slice > 0 or on uplink > 0 was dropped as bad_ssrr
                 * (seen on tofino-model: tofino_tests/test_e_ssrr.py) */
                if (meta.prev_next_tor != meta.my_tor) { wrong_tor = 1; }
                hop_rank.apply();                   // rank -> the SSRR slot's wait
                hop_el.apply();
                hop_missed.apply();
                hop_slot0();
                meta.fits_ssrr = meta.fits_active;
            } else if (source == 1) {
                /* hop 0 of the path into the SSRR slot; the option's length (admission
                 * books the longest source route: len_g) */
                ssrr_first.apply();
                /* the option itself is written in egress (ssrr_hops, same key via bridge_src):
                 * beside ssrr_first it took the SRAM of the stages the queue test needs
                 * (r1024x32: 22 stages), behind admission it came last (27) */
                if (meta.has_path == 1) {
                    src_len_a();
                    src_len_b();
                    src_len_units();
                }
                meta.fits_ssrr = meta.fits_active_g;
            }
            if (transit == 1 || source == 1) {
                /* a hop that does not start here is not taken: re-sourced below (UCMP §6.3) */
                if (wrong_tor == 0) { meta.alt_c_10 = 1; }
                /* slot 10: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_10.apply();
                slot_10_i();
                down_10.apply();
                if (meta.alt_c_10 == 1 && meta.alt_dn_10 == 0 && (meta.alt_act_10 == 0 || meta.fits_ssrr == 1)) { meta.alt_pre_10 = 1; }

            }
        }

        /* ---- the queue-state copies: each packet's one access per copy --------------- */
        qstate_0_op.apply();
        qstate_1_op.apply();
        qstate_2_op.apply();
        qstate_3_op.apply();
        qstate_4_op.apply();
        qstate_5_op.apply();
        qstate_6_op.apply();
        qstate_7_op.apply();
        qstate_8_op.apply();
        qstate_9_op.apply();
        qstate_10_op.apply();

        if (front == 1) {
            /* ---- a front-panel packet, part 2: the checks, the one-shot pick, admission -- */
            /* ok = eligible & Unfull: one AND per slot, no branch after the register read */
            slot_0_ok();
            slot_1_ok();
            slot_2_ok();
            slot_3_ok();
            slot_4_ok();
            slot_5_ok();
            slot_6_ok();
            slot_7_ok();
            slot_8_ok();
            slot_9_ok();
            slot_10_ok();

            /* ---- checks: malformed, unconfigured, unroutable packets are dropped ------- */
            if (hdr.timer.isValid()) {
                meta.drop_reason = DR_BAD_TIMER;      // the clock is the packet generator, not a frame
            } else if (meta.configured == 0) {
                meta.drop_reason = DR_UNCONFIGURED;
            } else if (ig_prsr_md.parser_err != 0 || meta.bad_ihl == 1) {
                meta.drop_reason = DR_MALFORMED;
            } else if (!hdr.ipv4.isValid()) {
                meta.drop_reason = DR_NOT_IPV4;
            } else if (meta.bad_options == 1 || (ssrr_in == 1 && meta.role != ROLE_UPLINK)) {
                meta.drop_reason = DR_BAD_SSRR;       // other options, or SSRR from the edge (RFC 7126)
            } else if (meta.hdr_bytes == 0 || short_body == 1) {
                /* version != 4 (IHL < 5 was caught above), read through ihl_bytes from the
                 * byte as it arrived: a source write has set version_ihl to 0x4N by now */
                meta.drop_reason = DR_MALFORMED;
            } else if (meta.csum_err) {
                meta.drop_reason = DR_BAD_CHECKSUM;
            } else if (hdr.ipv4.ttl == 0) {
                meta.drop_reason = DR_TTL;            // local delivery too (as bmv2)
            } else if (meta.role == ROLE_UPLINK && ((meta.gen == 0 && meta.live[0:0] == 0)
                                                    || (meta.gen == 1 && meta.live[1:1] == 0))) {
                meta.drop_reason = DR_STALE_GEN;      // stamped with a generation not (or no longer) here
            } else if (meta.routed == 0) {
                meta.drop_reason = DR_NO_ROUTE;
            } else if (meta.is_local == 0) {
                if (meta.dst_tor == meta.my_tor) {
                    meta.drop_reason = DR_NO_ROUTE;
                } else if (hdr.ipv4.ttl <= 1) {
                    meta.drop_reason = DR_TTL;
                } else if (transit == 1 && meta.hop_idx == 0) {
                    meta.drop_reason = DR_BAD_SSRR;   // the pointer at no hop of its option
                } else if (uro_path == 1 && meta.n_alts == 0) {
                    meta.drop_reason = DR_NO_ROUTE;
                } else if (source == 1 && meta.has_path == 0) {
                    meta.drop_reason = DR_NO_ROUTE;
                }
            }

            /* ---- the departure: first usable slot, admitted if it fits ------------------ */
            if (meta.is_local == 1) {
                hdr.ipv4.flags[2:2] = 0;               // the generation stamp never reaches a host
                meta.dep_up = 0;                       // port_map's key: a host port's entry has uplink 0
                /* Destination ToR: a source route ends here. The option is removed, so hosts
                 * never see fabric routes (a host kernel would echo a reversed source route
                 * in its replies, RFC 791 3.1); as the bmv2 program does. */
                if (hdr.ssrr.isValid()) {
                    hdr.ipv4.version_ihl = 0x45;
                    src_len_a();
                    dst_len();
                    hdr.ssrr.setInvalid();
                    hdr.hops[0].setInvalid();
                    hdr.hops[1].setInvalid();
                    hdr.hops[2].setInvalid();
                }
            } else {
                meta.out_port = 0;                     // port_map's key: an uplink's entry has host port 0
            }
            if (meta.drop_reason == 0 && meta.is_local == 0) {
                hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
                hdr.ipv4.flags[2:2] = meta.gen;        // stamped at the source, kept in transit
                choose.apply();                        // URO alternatives, or the SSRR slot
                if (uro_path == 1 && meta.have_dep == 1 && meta.dep_alt != 0) { meta.ev = meta.ev | EV_REROUTE_SPILL; }
                if (transit == 1) {
                    meta.ev = meta.ev | EV_SSRR_TRANSIT;
                    if (meta.have_dep == 1) {
                        hdr.ssrr.ptr = hdr.ssrr.ptr + 4;
                    } else if (wrong_tor == 0 && meta.hop_missed == 1) {
                        meta.ev = meta.ev | EV_SSRR_MISSED;
                    } else {
                        meta.ev = meta.ev | EV_SSRR_RESOURCED;
                    }
                } else if (source == 1) {
                    meta.ev = meta.ev | EV_SSRR_WRITTEN;      // the option: ssrr_first here, ssrr_hops in egress
                }
                if (meta.have_dep == 0) {
                    if (transit == 1 && meta.resubmitted == 0) {
                        dep_resubmit_source();         // hop Full or missed: re-source here (UCMP §6.3)
                    } else {
                        meta.drop_reason = DR_ALL_FULL;
                    }
                } else {
                    queue_id.apply();                  // beside admission: unused if refused
                    if (meta.dep_act == 1) { dep_admit_active(); } else { dep_admit_later(); }
                    if (meta.admitted == 0) {
                        if (meta.resubmitted == 0 && source == 0) {
                            dep_resubmit();            // refused: back once, for the next alternative
                        } else {
                            meta.drop_reason = DR_ALL_FULL;
                        }
                    } else {
                        fill_check.apply();            // no room left for a full frame: mark Full
                    }
                }
            }

            /* ---- out: the dev port of the host port or uplink, or drop ----------------------- */
            if (meta.is_local == 1 || meta.have_dep == 1) {
                port_map.apply();
            }
            if (meta.drop_reason == 0 && meta.unmapped == 1) {
                meta.drop_reason = DR_NO_ROUTE;          // a port the port map does not name
            }
            if (meta.drop_reason != 0) {
                ig_dprsr_md.drop_ctl = 1;
                drops.count(meta.drop_reason);
            } else if (meta.pkt_type != 1) {
                hdr.bridge.setValid();
                if (hdr.bridge_src.isValid()) {
                    hdr.bridge.type = PKT_SOURCED;     // egress writes the option
                } else {
                    hdr.bridge.type = PKT_NORMAL;
                }
            }
        }
        if (meta.ev != 0) {
            events.count(meta.ev);
        }
    }
}

Pipeline(UroIngressParser(), UroIngress(), UroIngressDeparser(),
         UroEgressParser(), UroEgress(), UroEgressDeparser()) pipe;
Switch(pipe) main;
