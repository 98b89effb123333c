/*
 * uro ToR program for Tofino2 (t2na) -- GENERATED, do not edit.
 * Rendered from templates/tor_t2na.p4.j2 for profile "tiny" by controller.p4gen.
 *
 * One ToR of a time-sliced optical DCN on one Tofino2 pipe (URO §IV, UCMP §6):
 *   slice clock  the switch's clock plus a correction the data plane keeps (next boundary,
 *                local slice length); the packet generator fires several times per slice,
 *                and the trigger that reaches the next boundary ticks the clock: its batch 0
 *                pauses the old active calendar queue of each uplink and its batch 1, a
 *                guard band later, resumes the new one (AFC words)
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
 *   liveness     the exchange's REQs and RESPs are heard per circuit (slice, uplink); a
 *                circuit silent for down_after cycles is marked down: the pause leaves
 *                the calendar queue that serves it Full, so the lookups pass over it
 * Every drop reason and every event is counted (counters `drops`, `events`).
 */
#include <core.p4>
#include <t2na.p4>

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
 * Queue state: 4 copies (one per URO alternative, one for the SSRR hop) of a Full flag per
 * (uplink u, queue q) at u * 256 + q.
 * Slice: 2000 ns. Timer (pktgen app 1): a trigger every 250 ns (8 per slice), 2 batches
 * x 2 packets, inter-batch gap 3 ns (11.5 Gb/s of generated frames); the trigger that
 * reaches the next boundary acts: every uplink is dark 17.4 ns per slice (guard band),
 * leaving 21657 wire bytes per calendar queue per slice.
 */
/* Arithmetic never mixes widths (a Tofino ALU operates on same-size containers): slices,
 * queues, waits, ranks and epochs are 8-bit (S, Q <= 128); lengths and capacities are
 * 16-bit counts of 1-byte units (rounded conservatively); masks are 32-bit. */
const bit<16> ETHERTYPE_TIMER = 0x88B5;   // bmv2's timer frame: never trusted here (dropped, bad_timer)
typedef bit<8>  queue_t;            // calendar queue id 0..Q-1 (Q <= 128)
typedef bit<16> step_t;             // slot arithmetic: active queue + wait (< Q + S), ranks, epochs
typedef bit<16> qidx_t;             // (uplink, queue) = uplink * 256 + queue
typedef bit<16> units_t;            // wire bytes / 1, rounded up for packets, down for capacity

const bit<8>  NUM_QUEUES8  = 4;
const bit<8>  NUM_SLICES8  = 4;
const bit<4>  TIMER_APP     = 1;
const bit<4>  PORT_DOWN_APP = 2;
const bit<16> FRAME_OVERHEAD = 38;         // IPv4 total length + Ethernet, FCS, preamble, IFG (+ unit - 1: round up)
const units_t MTU_UNITS     = 1538;       // a full 1518-byte frame on the wire
const units_t CAP_UNITS     = 21657;    // a calendar queue's slice: the timer plan's usable time x link rate
const units_t FILL_MARK     = 20119;    // booked past this: no room for another full frame (Full)
const bit<16> GROWTH_BYTES  = 20;        // most a source route adds (NOP + option + H hops)

/* first byte of what egress sees: a bridged data packet, a queue-state update (mirror
 * copy), a clock update (mirror copy) */
const bit<8> PKT_NORMAL = 0xA1;
const bit<8> PKT_QUPD   = 0xA2;
const bit<8> PKT_SOURCED = 0xA3;   // a data packet whose source route egress writes (bridge_src follows)
const bit<8> PKT_CLOCK  = 0xA4;    // clock_upd_t: a clock update's second pass
const bit<8> PKT_SYNC   = 0xA5;    // a sync message this ToR sends: bridge_sync follows
const bit<8> PKT_SYNC_EVAL = 0xA6; // a RESP to evaluate (mirror copy): sync_eval_t, Ethernet, sync follow
const bit<8> PKT_REQ    = 0xA7;    // a timer packet that may leave as a REQ: bridge_sync follows
const bit<3> RESUBMIT_SPILL = 1;

/* ---- clock updates (clock_upd_t) ---- */
const MirrorType_t CLOCK_MIRROR = 5;      // after the queue-state updates' types
const bit<8>  CU_ADJ      = 1;     // move the next boundary by arg
const MirrorType_t RESP_MIRROR = 6;   // a RESP to egress's servo (sync_eval_t)
const bit<32> REQ_NONE = 0xFFFFFFFF;  // req_reg.phase: no request open on the uplink (no phase reaches it)

/* what a packet does to the queue-state copies (meta.q_op; one access per copy) */
const bit<8> Q_NONE  = 0;
const bit<8> Q_TEST  = 1;           // a front-panel packet: test its slots' queues
const bit<8> Q_SET   = 2;           // mark the queue Full (port-down app, queue-state update)
const bit<8> Q_CLEAR = 3;           // mark it Unfull (a pause drained it)

/* what a packet does to live_reg (meta.live_op) and the liveness counter's cells */
const bit<8> LIVE_HEAR  = 1;        // a REQ or RESP from the schedule's peer
const bit<8> LIVE_STRAY = 2;        // ... from another synchronized ToR
const bit<8> LIVE_JUDGE = 3;        // a pause: the circuit of the slice that ended
const bit<8> LIVE_HEARD = 0;
const bit<8> LIVE_SILENT = 1;
const bit<8> LIVE_WRONG = 2;
const bit<8> LIVE_DOWN = 3;
const bit<8> LIVE_UP = 4;

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
    bit<8> group;
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

/* A clock update: a move of the next slice boundary (at a tick, the rate's len - L) and,
 * from an applied exchange, a step of the local slice length (the rate), written to the
 * clock's registers by this second pass of a mirror copy through the recirculation port
 * (the packet that decided it had read those registers earlier in its pass: Tofino allows
 * one access per register per packet). */
header clock_upd_t {
    bit<8>  type;                   // PKT_CLOCK
    bit<8>  kind;                   // CU_ADJ
    bit<8>  why;                    // a RESP's servo: the sync counter's cell + 1 (0: none)
    bit<1>  down;                   // the rate's step shortens the local slice length
    bit<7>  step;                   // the rate's step (ns; 0: the length stays)
    bit<32> arg;                    // move the next boundary by this (ns, signed)
    bit<32> room;                   // the step is taken while len <= room (up) or >= room (down)
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

/* A sync message this ToR sends, bridged to egress: the clock as ingress read it, from
 * which egress stamps the message on its way out (docs/tofino2.md "The exchange"). Egress
 * computes the stamp in these fields (next becomes now - next, then k and len the stamp's
 * k and phase): no metadata of its own to hold it. */
header bridge_sync_t {
    bit<32> k;                      // the slice number
    bit<32> next;                   // local time of the next boundary
    bit<32> len;                    // the local slice length
    bit<8>  slice;                  // the slice id
    bit<32> wait;                   // clock_config.search_wait (egress: k - wait, the stratum's age)
}

/* A REQ (bridge type PKT_REQ) behind bridge_sync: what egress writes it from and checks it
 * against (egress computes its window test and next due slice in these fields). */
header bridge_req_t {
    bit<16> my_tor;
    uplink_t uplink;
    bit<32> window_lo;              // clock_config: the exchange window (phase, ns)
    bit<32> window_hi;
    bit<32> every;                  // clock_config.exchange_every
}

/* A RESP on its way to egress's servo (the mirror header of its copy to the recirculation
 * port): t4 as ingress read it, the local slice length, the uplink it came in on and the
 * limits of clock_config egress compares with (docs/tofino2.md "The exchange: the
 * requester and the servo"). */
header sync_eval_t {
    bit<8>   type;                  // PKT_SYNC_EVAL
    bit<8>   pad;
    uplink_t uplink;
    bit<8>   pad2;
    bit<32>  t4_k;
    bit<32>  t4_phase;
    bit<32>  max_delay;
    bit<32>  max_offset;
}
/* this ToR's stratum (egress): 255 unsynchronized; the slice number of its last correction */
struct stratum_t {
    bit<32> stratum;
    bit<32> last_k;
}
/* the open request of an uplink (egress): its t1; phase REQ_NONE when none is open */
struct req_t {
    bit<32> k;
    bit<32> phase;
}

struct clock_bound_t {
    bit<32> next;                   // local time (ns, low 32 bits) of the next slice boundary
    bit<32> slice;                  // the current slice id 0..S-1
}
struct clock_note_t {
    bit<32> now;                    // local time of the generator's last trigger
    bit<32> ticked;                 // 1: that trigger crossed a boundary (its batches act)
}
/* liveness per circuit (live_reg): heard since the last judgment, consecutive silent circuits */
struct live_t {
    bit<16> heard;                  // 0 nothing, 1 the schedule's peer, 2 only another synchronized ToR
    bit<16> miss;
}

struct headers_t {
    resub_t    resub;
    pktgen_timer_header_t     pg_timer;
    pktgen_port_down_header_t pg_port_down;
    qupd_t     qupd;
    clock_upd_t clock_upd;
    bridge_t   bridge;
    bridge_src_t bridge_src;
    bridge_sync_t bridge_sync;
    bridge_req_t bridge_req;
    sync_eval_t sync_eval;
    ethernet_t ethernet;
    sync_t     sync;
    timer_t    timer;
    ipv4_t     ipv4;
    ssrr_t     ssrr;
    ssrr_hop_t[4] hops;
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
    bit<1>   clk_crossed;   // the timer's first packet: this trigger crossed the next boundary
    bit<1>   clk_noted;     // the trigger's other packets: ... as that packet noted it
    bit<32>  clk_next;      // local time of the next boundary
    bit<32>  clk_k;         // the slice number
    bit<32>  s_len;         // the local slice length (the timer's first packet)
    bit<8>   u_kind;        // a clock update this packet makes: CU_* bits
    bit<32>  u_arg;         // ... its clock_upd_t.arg
    /* the synchronization exchange (sync frames) */
    uplink_t in_uplink;     // port_role: the uplink the packet came in on
    bit<8>   clk_mode;      // clock_config: CLOCK_SYNC, or timer mode
    tor_t    clk_my_tor;
    bit<1>   peer_hit;      // sync_peer: this slice's circuit on in_uplink reaches `peer`
    tor_t    peer;
    bit<8>   sync_why;      // the sync counter's cell
    bit<1>   sync_out;      // the frame leaves (a RESP)
    bit<32>  sync_ph;       // next - now (ingress), now - next (egress)
    bit<32>  t4_phase;      // a RESP: the phase of t4 (its k is clk_k)
    bit<32>  clk_max_delay; // clock_config: what a RESP's servo compares with (egress)
    bit<32>  clk_max_offset;
    bit<1>   sync_cnt;      // count sync_why (a RESP to the servo is counted on its second pass)
    bit<32>  clk_window_lo; // clock_config: the exchange window, REQ spacing (egress decides)
    bit<32>  clk_window_hi;
    bit<32>  clk_every;
    bit<32>  clk_wait;      // clock_config.search_wait: slices without a correction before the stratum ages to 255 (egress)
    slice_t  cur_slice;
    step_t   active_q;
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
    bit<5>  ssrr_group;    // ssrr_path: the (dst, start slice) group (0: none)
    bit<5>  ssrr_shape;    // ... and its shape (0: none)
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
    /* liveness per circuit (fragments/t2na/liveness.p4.j2) */
    bit<32>  now;           // global_tstamp[31:0], copied once (fragments/t2na/clock.p4.j2)
    bit<1>   live_on;       // liveness_config: set_liveness
    bit<16>  live_da;       // ... down_after
    bit<8> live_expect;   // ... the circuits this ToR has (bit s * d + u)
    bit<32>  live_s32;      // the timer's first packet: the slice id before its tick (bound_tick)
    bit<16>  live_i;        // the circuit's cell s * d + u
    bit<8>   live_op;       // LIVE_*: what this packet does to live_reg
    bit<1>   live_j;        // judged: live_h, live_m are the state as it was
    bit<16>  live_h;
    bit<16>  live_m;
    bit<16>  live_x;        // live_m - live_da
    bit<1>   live_set;      // the verdict: marked down (its queue held Full)
    bit<8>   live_bits;     // ... the circuit's mark (live_mark)
    bit<8>   live_cnt;      // ... the liveness counter's cell
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
        meta.clk_crossed = 0;
        meta.clk_noted = 0;
        meta.u_kind = 0;
        meta.u_arg = 0;
        meta.sync_cnt = 0;
        meta.sync_out = 0;
        meta.cur_slice = 0;             // the timer's first packet: live_judge_cell's key (it reads live_s32)
        meta.live_s32 = 0;              // every other timer packet: the same key
        meta.live_op = 0;
        meta.live_j = 0;
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
        transition select(pkt.lookahead<bit<8>>()) {
            PKT_CLOCK: parse_clock_upd;
            default: parse_qupd_only;
        }
    }
    state parse_qupd_only {
        pkt.extract(hdr.qupd);
        transition accept;
    }
    /* a clock update (the packet that decided it read the clock's registers) */
    state parse_clock_upd {
        pkt.extract(hdr.clock_upd);
        transition accept;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_TIMER: parse_timer;
            ETHERTYPE_IPV4:  parse_ipv4;
            ETHERTYPE_SYNC:  parse_sync;
            default: accept;
        }
    }
    /* a sync message (docs/clock.md "Messages"); a truncated one sets parser_err (partial
     * header), which ingress counts as malformed */
    state parse_sync {
        pkt.extract(hdr.sync);
        transition accept;
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
            (IPOPT_NOP, IPOPT_SSRR, 19): parse_hop_0_of_4;
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
            (0 .. 1, 0 .. 3): parse_hops_end_1;
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
            (0 .. 1, 0 .. 3): parse_hop_1_of_2;
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
            (0 .. 1, 0 .. 3): parse_hops_end_2;
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
            (0 .. 1, 0 .. 3): parse_hop_1_of_3;
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
            (0 .. 1, 0 .. 3): parse_hop_2_of_3;
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
            (0 .. 1, 0 .. 3): parse_hops_end_3;
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
    /* hop 0 of 4: its uplink and send slice must be in range (the parser checks every
     * field a packet brings before anything is indexed with it) */
    state parse_hop_0_of_4 {
        pkt.extract(hdr.hops[0]);
        /* by field, not ipv4_csum.add(hdr.hops[i]): bf-p4c 9.13.4 drops a header-stack element
         * added whole from the checksum unit without a word (the .bfa's hop states had no
         * checksum entry), so every packet arriving with hops failed verify() and was dropped
         * as bad_checksum (seen on tofino-model: tofino_tests/test_e_ssrr.py) */
        ipv4_csum.add({hdr.hops[0].next_tor, hdr.hops[0].uplink, hdr.hops[0].send_slice});
        transition select(hdr.hops[0].uplink, hdr.hops[0].send_slice) {
            (0 .. 1, 0 .. 3): parse_hop_1_of_4;
            default: parse_bad_options;
        }
    }
    /* hop 1 of 4: its uplink and send slice must be in range (the parser checks every
     * field a packet brings before anything is indexed with it) */
    state parse_hop_1_of_4 {
        pkt.extract(hdr.hops[1]);
        /* by field, not ipv4_csum.add(hdr.hops[i]): bf-p4c 9.13.4 drops a header-stack element
         * added whole from the checksum unit without a word (the .bfa's hop states had no
         * checksum entry), so every packet arriving with hops failed verify() and was dropped
         * as bad_checksum (seen on tofino-model: tofino_tests/test_e_ssrr.py) */
        ipv4_csum.add({hdr.hops[1].next_tor, hdr.hops[1].uplink, hdr.hops[1].send_slice});
        transition select(hdr.hops[1].uplink, hdr.hops[1].send_slice) {
            (0 .. 1, 0 .. 3): parse_hop_2_of_4;
            default: parse_bad_options;
        }
    }
    /* hop 2 of 4: its uplink and send slice must be in range (the parser checks every
     * field a packet brings before anything is indexed with it) */
    state parse_hop_2_of_4 {
        pkt.extract(hdr.hops[2]);
        /* by field, not ipv4_csum.add(hdr.hops[i]): bf-p4c 9.13.4 drops a header-stack element
         * added whole from the checksum unit without a word (the .bfa's hop states had no
         * checksum entry), so every packet arriving with hops failed verify() and was dropped
         * as bad_checksum (seen on tofino-model: tofino_tests/test_e_ssrr.py) */
        ipv4_csum.add({hdr.hops[2].next_tor, hdr.hops[2].uplink, hdr.hops[2].send_slice});
        transition select(hdr.hops[2].uplink, hdr.hops[2].send_slice) {
            (0 .. 1, 0 .. 3): parse_hop_3_of_4;
            default: parse_bad_options;
        }
    }
    /* hop 3 of 4: its uplink and send slice must be in range (the parser checks every
     * field a packet brings before anything is indexed with it) */
    state parse_hop_3_of_4 {
        pkt.extract(hdr.hops[3]);
        /* by field, not ipv4_csum.add(hdr.hops[i]): bf-p4c 9.13.4 drops a header-stack element
         * added whole from the checksum unit without a word (the .bfa's hop states had no
         * checksum entry), so every packet arriving with hops failed verify() and was dropped
         * as bad_checksum (seen on tofino-model: tofino_tests/test_e_ssrr.py) */
        ipv4_csum.add({hdr.hops[3].next_tor, hdr.hops[3].uplink, hdr.hops[3].send_slice});
        transition select(hdr.hops[3].uplink, hdr.hops[3].send_slice) {
            (0 .. 1, 0 .. 3): parse_hops_end_4;
            default: parse_bad_options;
        }
    }
    state parse_hops_end_4 {
        meta.n_hops = 4;
        transition select(hdr.ipv4.version_ihl[3:0]) {
            10: parse_ipv4_done;      // IHL = 5 + NOP/option word + 4 hops: nothing else
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
        if (ig_dprsr_md.mirror_type == CLOCK_MIRROR) {
            mirror.emit<clock_upd_t>(meta.mirror_session, {meta.pkt_type, meta.u_kind, 0, 0, 0, meta.u_arg, 0});
        }
        if (ig_dprsr_md.mirror_type == RESP_MIRROR) {
            mirror.emit<sync_eval_t>(meta.mirror_session, {meta.pkt_type, 0, meta.in_uplink, 0, meta.clk_k,
                                                           meta.t4_phase, meta.clk_max_delay, meta.clk_max_offset});
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
            hdr.hops[2].next_tor, hdr.hops[2].uplink, hdr.hops[2].send_slice,
            hdr.hops[3].next_tor, hdr.hops[3].uplink, hdr.hops[3].send_slice });
        pkt.emit(hdr.bridge);
        pkt.emit(hdr.bridge_src);
        pkt.emit(hdr.bridge_sync);
        pkt.emit(hdr.bridge_req);
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.sync);
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
            PKT_CLOCK: parse_clock_upd;
            PKT_NORMAL: parse_bridge;
            PKT_SOURCED: parse_bridge;
            PKT_SYNC: parse_bridge;
            PKT_REQ: parse_bridge;
            PKT_SYNC_EVAL: parse_sync_eval;
            default: accept;
        }
    }
    state parse_clock_upd {
        pkt.extract(hdr.clock_upd);
        transition accept;
    }
    state parse_qupd {
        pkt.extract(hdr.qupd);
        transition accept;
    }
    state parse_bridge {
        pkt.extract(hdr.bridge);
        transition select(hdr.bridge.type) {
            PKT_SOURCED: parse_sourced;
            PKT_SYNC: parse_bridge_sync;
            PKT_REQ: parse_bridge_req;
            default: accept;
        }
    }
    state parse_sync_eval {
        pkt.extract(hdr.sync_eval);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.sync);
        transition accept;
    }
    /* a timer packet that may leave as a REQ: its first 14 bytes become the Ethernet header */
    state parse_bridge_req {
        pkt.extract(hdr.bridge_sync);
        pkt.extract(hdr.bridge_req);
        pkt.extract(hdr.ethernet);
        transition accept;
    }
    state parse_bridge_sync {
        pkt.extract(hdr.bridge_sync);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.sync);
        transition accept;
    }
    state parse_sourced {
        pkt.extract(hdr.bridge_src);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ipv4);            // 20 bytes: ingress sent it without options
        transition accept;
    }
}

/* (egress adds and subtracts on the bridged clock and the RESP's stamps: bf-p4c overlaid
 * bridge_sync.next with bridge_src's fields of the exclusive source-route path at other
 * bits of one container, and the servo's 32-bit fields with clock_upd's bytes and
 * bridge_src's level and member, which the assembly check refuses -- carries would cross
 * them) */
@pa_no_overlay("egress", "hdr.bridge_sync.k")
@pa_no_overlay("egress", "hdr.bridge_sync.next")
@pa_no_overlay("egress", "hdr.bridge_sync.len")
@pa_no_overlay("egress", "hdr.bridge_sync.slice")
@pa_no_overlay("egress", "hdr.sync.t3_k")
@pa_no_overlay("egress", "hdr.sync.t3_phase")
@pa_no_overlay("egress", "hdr.sync.slice")
@pa_no_overlay("egress", "hdr.sync_eval.max_offset")
@pa_no_overlay("egress", "hdr.sync_eval.max_delay")
@pa_no_overlay("egress", "hdr.clock_upd.type")
@pa_no_overlay("egress", "hdr.clock_upd.kind")
@pa_no_overlay("egress", "hdr.clock_upd.why")
@pa_no_overlay("egress", "hdr.clock_upd.down")
@pa_no_overlay("egress", "hdr.clock_upd.step")
@pa_no_overlay("egress", "hdr.bridge_src.level")
@pa_no_overlay("egress", "hdr.bridge_src.member")
control UroEgress(inout headers_t hdr, inout metadata_t meta,
                  in egress_intrinsic_metadata_t eg_intr_md,
                  in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                  inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                  inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    /* egress: the option of n hops of a packet source-routed in ingress (key in bridge_src):
     * the ToRs of hops before the last (the last is the destination), every hop's uplink and
     * send slice. No entry (an install out of step with ssrr_first): dropped, never sent with
     * an IHL that promises an option it does not carry. */
    action write_path_1(bit<1> up0, bit<2> slice0) {
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
    action write_path_2(bit<3> tor0, bit<1> up0, bit<1> up1, bit<2> slice0, bit<2> slice1) {
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
    action write_path_3(bit<3> tor0, bit<3> tor1, bit<1> up0, bit<1> up1, bit<1> up2, bit<2> slice0, bit<2> slice1, bit<2> slice2) {
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
    action write_path_4(bit<3> tor0, bit<3> tor1, bit<3> tor2, bit<1> up0, bit<1> up1, bit<1> up2, bit<1> up3, bit<2> slice0, bit<2> slice1, bit<2> slice2, bit<2> slice3) {
        hdr.ssrr.setValid();
        hdr.ssrr.nop = IPOPT_NOP;
        hdr.ssrr.type = IPOPT_SSRR;
        hdr.ssrr.len = 19;
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
        hdr.hops[2].next_tor = (tor_t)tor2;
        hdr.hops[2].uplink = (uplink_t)up2;
        hdr.hops[2].send_slice = (slice_t)slice2;
        hdr.hops[3].setValid();
        hdr.hops[3].next_tor = hdr.bridge_src.dst_tor;
        hdr.hops[3].uplink = (uplink_t)up3;
        hdr.hops[3].send_slice = (slice_t)slice3;
    }
    action unwritten() { eg_dprsr_md.drop_ctl = 1; }
    table ssrr_hops {
        key = {
            hdr.bridge_src.gen: exact @name("generation");       // the hops belong to their route generation
            hdr.bridge_src.group[4:0]: exact @name("group");
            hdr.bridge_src.level[1:0]: exact @name("level");
            hdr.bridge_src.member[2:0]: exact @name("member");
        }
        actions = { write_path_1; write_path_2; write_path_3; write_path_4; @defaultonly unwritten; }
        default_action = unwritten();
        size = 448;
    }

    bit<32> e_strat = (bit<32>)STRATUM_UNSYNCED;     // this ToR's stratum (stratum_reg), for the frame it sends
    bit<32> e_sa = 0;           // stratum_reg's two operands, written by both paths (a stateful
    bit<32> e_sb = 0;           // ALU takes two 32-bit inputs): a frame sent: k - search_wait;
                                // the servo: k at t4, and the responder's stratum
    /* next <- now - next (egress); e_sa <- k - search_wait (the stratum ages when its last
     * correction is older: stratum_out) */
    action sync_e_a() {
        hdr.bridge_sync.next = eg_prsr_md.global_tstamp[31:0] - hdr.bridge_sync.next;
        e_sa = hdr.bridge_sync.k - hdr.bridge_sync.wait;
    }
    action sync_e_same() { hdr.bridge_sync.len = hdr.bridge_sync.len + hdr.bridge_sync.next; }
    action sync_e_next() {
        hdr.bridge_sync.k = hdr.bridge_sync.k + 1;
        hdr.bridge_sync.len = hdr.bridge_sync.next;
    }
    /* now < next (the sign of now - next): a ternary match reads the field whole (a gateway
     * on bit 31 would split it and every field computed from it into PHV slices) */
    table sync_e_side {
        key = { hdr.bridge_sync.next: ternary @name("after"); }
        actions = { sync_e_same; sync_e_next; }
        default_action = sync_e_next();
        const entries = { 0x80000000 &&& 0x80000000: sync_e_same(); }
        size = 1;
    }
    action sync_e_wrap() { hdr.bridge_sync.slice = 0; }
    action sync_e_inc() { hdr.bridge_sync.slice = hdr.bridge_sync.slice + 1; }
    action sync_e_t3() {
        hdr.sync.t3_k = hdr.bridge_sync.k;
        hdr.sync.t3_phase = hdr.bridge_sync.len;
        hdr.sync.slice = (bit<16>)hdr.bridge_sync.slice;
        hdr.sync.stratum = e_strat[7:0];
    }
    /* a synchronized ToR's RESP: no BOOT (ingress built it as an unsynchronized one's).
     * Ternary matches, not gateways (nor exact const tables, which bf-p4c turns into
     * gateways), on the stateful ALUs' outputs: bf-p4c 9.13.4 splits such a 32-bit field
     * over several containers, and a gateway on it failed on r108x6 ("Compiler Bug: Didn't
     * cover all bytes", gateway.cpp) */
    action sync_e_synced() { hdr.sync.flags = 0; }
    table sync_e_boot {
        key = { e_strat: ternary @name("stratum"); }
        actions = { sync_e_synced; NoAction; }
        default_action = sync_e_synced();
        const entries = { (bit<32>)STRATUM_UNSYNCED &&& 0xFFFFFFFF: NoAction(); }   // unsynchronized: BOOT stays
        size = 1;
    }

    /* ---- the requester: a REQ leaves when its phase is in the window and its uplink is
     * due (req_due_reg: the slice number from which the next REQ is due; wrap-aware, as
     * bound_tick), and opens the uplink's request (req_reg, the servo's: t1) ---- */
    bit<32> e_sent = 0;
    uplink_t e_up = 0;           // req_reg's index and operand, written by both paths (a
    bit<32> e_rk = 0;            // stateful ALU takes two 32-bit inputs): the REQ's t1 to
    bit<32> e_rp = 0;            // open, or the RESP's t1 to close
    Register<bit<32>, uplink_t>(2, 0) req_due_reg;
    RegisterAction<bit<32>, uplink_t, bit<32>>(req_due_reg) req_due = {
        void apply(inout bit<32> v, out bit<32> rv) {
            if (hdr.bridge_sync.k - v < 0x80000000 && (hdr.bridge_sync.k >= v || v - hdr.bridge_sync.k > 0x80000000)) {
                v = hdr.bridge_req.every;
                rv = 1;
            } else {
                rv = 0;
            }
        }
    };
    /* window_lo <- phase - window_lo (< 0: before the window), window_hi <- window_hi -
     * phase (< 0: after it), every <- k + every (when the next REQ is due) */
    action req_window() {
        e_up = hdr.bridge_req.uplink;
        e_rk = hdr.bridge_sync.k;
        e_rp = hdr.bridge_sync.len;
        hdr.bridge_req.window_lo = hdr.bridge_sync.len - hdr.bridge_req.window_lo;
        hdr.bridge_req.window_hi = hdr.bridge_req.window_hi - hdr.bridge_sync.len;
        hdr.bridge_req.every = hdr.bridge_sync.k + hdr.bridge_req.every;
    }
    bit<1> e_inwin = 0;
    action req_inside() { e_inwin = 1; }
    /* both differences >= 0 (sign bits by a ternary match: no PHV slices) */
    table req_in_window {
        key = {
            hdr.bridge_req.window_lo: ternary @name("after_lo");
            hdr.bridge_req.window_hi: ternary @name("before_hi");
        }
        actions = { req_inside; NoAction; }
        default_action = NoAction();
        const entries = { (0 &&& 0x80000000, 0 &&& 0x80000000): req_inside(); }
        size = 1;
    }
    /* the frame: Ethernet over the timer packet's first bytes, the sync header added */
    action req_build() {
        hdr.ethernet.dstAddr = 0xFFFFFFFFFFFF;
        hdr.ethernet.srcAddr = 0x020000000002;           // controller.clock.message.SRC_MAC
        hdr.ethernet.etherType = ETHERTYPE_SYNC;
        hdr.sync.setValid();
        hdr.sync.op = SYNC_OP_REQ;
        hdr.sync.flags = SYNC_FLAG_BOOT;
        hdr.sync.src_tor = hdr.bridge_req.my_tor;
        hdr.sync.dst_tor = SYNC_ANY_TOR;
        hdr.sync.uplink = (bit<8>)hdr.bridge_req.uplink;
        hdr.sync.stratum = e_strat[7:0];
        hdr.sync.term = 0;
        hdr.sync.lead = 0;
        hdr.sync.lead_k = 0;
        hdr.sync.t1_k = hdr.bridge_sync.k;
        hdr.sync.t1_phase = hdr.bridge_sync.len;
        hdr.sync.t2_k = 0;
        hdr.sync.t2_phase = 0;
        hdr.sync.t3_k = 0;
        hdr.sync.t3_phase = 0;
        hdr.sync.slice = (bit<16>)hdr.bridge_sync.slice;
        hdr.sync.reserved = 0;
        hdr.sync.aux = 0;
    }
    action req_drop() { eg_dprsr_md.drop_ctl = 1; }
    /* the timer packet's fate: a REQ when req_due said so (e_sent), else dropped */
    table req_fate {
        key = { e_sent: ternary @name("sent"); }
        actions = { req_build; req_drop; }
        default_action = req_drop();
        const entries = { 1 &&& 0xFFFFFFFF: req_build(); }
        size = 1;
    }

    /* the open request per uplink: t1 (k, phase); phase REQ_NONE when none is open */
    Register<req_t, uplink_t>(2, {0, REQ_NONE}) req_reg;
    RegisterAction<req_t, uplink_t, bit<32>>(req_reg) req_open = {
        void apply(inout req_t v) {
            v.k = e_rk;
            v.phase = e_rp;
        }
    };
    RegisterAction<req_t, uplink_t, bit<32>>(req_reg) req_close = {
        void apply(inout req_t v, out bit<32> rv) {
            if (v.k == e_rk && v.phase == e_rp && v.phase != REQ_NONE) {
                v.phase = REQ_NONE;
                rv = 1;
            } else {
                rv = 0;
            }
        }
    };
    bit<32> e_open = 0;
    action req_close_a() { e_open = req_close.execute(e_up); }
    action req_open_a() { req_open.execute(e_up); }
    table req_access {
        key = {
            hdr.sync_eval.isValid(): exact @name("resp");
            e_sent:                  exact @name("sent");
        }
        actions = { req_close_a; req_open_a; NoAction; }
        default_action = NoAction();
        const entries = {
            (true, 0): req_close_a();
            (false, 1): req_open_a();
        }
        size = 2;
    }
    bit<32> e_dk21 = 0;
    bit<32> e_dp21 = 0;
    bit<32> e_dk34 = 0;
    bit<32> e_dp34 = 0;
    bit<32> e_dk32 = 0;
    bit<32> e_dp32 = 0;
    bit<32> e_off2 = 0;         // 2 max_offset + 2 theta (< 0: theta < -max_offset)
    bit<1>  e_bad21 = 0;
    bit<1>  e_bad34 = 0;
    bit<1>  e_bad41 = 0;
    bit<1>  e_bad32 = 0;
    bit<1>  e_badsl = 0;        // the RESP's slice id is past S - 1
    bit<1>  e_ok = 0;           // usable but for the stratum: none of malformed, stale, slow, refused
    bit<32> e_better = 0;       // the responder's stratum is below this ToR's (stratum_reg)
    bit<1>  e_sign = 0;         // the sign of arg (1 - 2 theta)
    /* arg is taken out of the arithmetic and halved by identity hashes: a hash's input
     * joins no ALU operation, so its bit slices stay off the stamps' arithmetic */
    Hash<bit<32>>(HashAlgorithm_t.IDENTITY) servo_copy;
    Hash<bit<1>>(HashAlgorithm_t.IDENTITY) servo_sign;
    Hash<bit<32>>(HashAlgorithm_t.IDENTITY) servo_half;
    /* the sync header is only read, and in the servo's first stages: the stamping of the
     * frames this ToR sends (egress_stamp) writes it, and a late read here would keep that
     * stamping, and with it req_reg's access, after the servo */
    action servo_flags(bit<1> bad_slice) {
        e_badsl = bad_slice;
    }
    table servo_peer {
        key = {
            hdr.sync.slice:   range @name("slice");
        }
        actions = { servo_flags; NoAction; }
        default_action = NoAction();
        const entries = {
            (4 .. 0xFFFF): servo_flags(1);
        }
        size = 1;
    }
    /* the stamps' differences: D(t2, t1), D(t3, t2), D(t3, t4) in e_dk/e_dp, D(t4, t1) in
     * sync_eval's t4 (written after its last read), (k, phase) each */
    action servo_diffs() {
        e_sa = hdr.sync_eval.t4_k;
        e_sb = (bit<32>)hdr.sync.stratum;
        e_up = hdr.sync_eval.uplink;
        e_rk = hdr.sync.t1_k;
        e_rp = hdr.sync.t1_phase;
        e_dk21 = hdr.sync.t2_k - hdr.sync.t1_k;
        e_dp21 = hdr.sync.t2_phase - hdr.sync.t1_phase;
        e_dk32 = hdr.sync.t3_k - hdr.sync.t2_k;
        e_dp32 = hdr.sync.t3_phase - hdr.sync.t2_phase;
        e_dk34 = hdr.sync.t3_k - hdr.sync_eval.t4_k;
        e_dp34 = hdr.sync.t3_phase - hdr.sync_eval.t4_phase;
        hdr.sync_eval.t4_k = hdr.sync_eval.t4_k - hdr.sync.t1_k;
        hdr.sync_eval.t4_phase = hdr.sync_eval.t4_phase - hdr.sync.t1_phase;
    }
    /* (a.k - b.k) x L for a.k - b.k in -1..1: add -L, 0 or L (no multiplication) */
    action servo_k21_next() { e_dp21 = e_dp21 + 2000; }
    action servo_k21_prev() { e_dp21 = e_dp21 - 2000; }
    action servo_k21_bad() { e_bad21 = 1; }
    table servo_k21 {
        key = { e_dk21: exact @name("dk"); }
        actions = { servo_k21_next; servo_k21_prev; NoAction; @defaultonly servo_k21_bad; }
        default_action = servo_k21_bad();
        const entries = {
            0: NoAction();
            1: servo_k21_next();
            0xFFFFFFFF: servo_k21_prev();
        }
        size = 3;
    }
    /* (a.k - b.k) x L for a.k - b.k in -1..1: add -L, 0 or L (no multiplication) */
    action servo_k34_next() { e_dp34 = e_dp34 + 2000; }
    action servo_k34_prev() { e_dp34 = e_dp34 - 2000; }
    action servo_k34_bad() { e_bad34 = 1; }
    table servo_k34 {
        key = { e_dk34: exact @name("dk"); }
        actions = { servo_k34_next; servo_k34_prev; NoAction; @defaultonly servo_k34_bad; }
        default_action = servo_k34_bad();
        const entries = {
            0: NoAction();
            1: servo_k34_next();
            0xFFFFFFFF: servo_k34_prev();
        }
        size = 3;
    }
    /* (a.k - b.k) x L for a.k - b.k in -1..1: add -L, 0 or L (no multiplication) */
    action servo_k41_next() { hdr.sync_eval.t4_phase = hdr.sync_eval.t4_phase + 2000; }
    action servo_k41_prev() { hdr.sync_eval.t4_phase = hdr.sync_eval.t4_phase - 2000; }
    action servo_k41_bad() { e_bad41 = 1; }
    table servo_k41 {
        key = { hdr.sync_eval.t4_k: exact @name("dk"); }
        actions = { servo_k41_next; servo_k41_prev; NoAction; @defaultonly servo_k41_bad; }
        default_action = servo_k41_bad();
        const entries = {
            0: NoAction();
            1: servo_k41_next();
            0xFFFFFFFF: servo_k41_prev();
        }
        size = 3;
    }
    /* (a.k - b.k) x L for a.k - b.k in -1..1: add -L, 0 or L (no multiplication) */
    action servo_k32_next() { e_dp32 = e_dp32 + 2000; }
    action servo_k32_prev() { e_dp32 = e_dp32 - 2000; }
    action servo_k32_bad() { e_bad32 = 1; }
    table servo_k32 {
        key = { e_dk32: exact @name("dk"); }
        actions = { servo_k32_next; servo_k32_prev; NoAction; @defaultonly servo_k32_bad; }
        default_action = servo_k32_bad();
        const entries = {
            0: NoAction();
            1: servo_k32_next();
            0xFFFFFFFF: servo_k32_prev();
        }
        size = 3;
    }
    /* e_dp21 <- 2 theta, t4_phase <- 2 delta */
    action servo_sums() {
        e_dp21 = e_dp21 + e_dp34;
        hdr.sync_eval.t4_phase = hdr.sync_eval.t4_phase - e_dp32;
    }
    /* the bounds, one addition per action and field: e_off2 <- max_offset + 2 theta,
     * t4_phase <- max_delay - 2 delta, e_dp21 <- 1 - 2 theta */
    action servo_bounds_a() {
        e_off2 = hdr.sync_eval.max_offset + e_dp21;
        hdr.sync_eval.t4_phase = hdr.sync_eval.max_delay - hdr.sync_eval.t4_phase;
        e_dp21 = 1 - e_dp21;
    }
    /* arg <- 1 - 2 theta; e_off2 <- 2 max_offset + 2 theta, t4_phase <- 2 max_delay - 2
     * delta, e_dp21 <- max_offset + 1 - 2 theta */
    action servo_bounds_b() {
        hdr.clock_upd.arg = servo_copy.get({e_dp21});
        e_off2 = e_off2 + hdr.sync_eval.max_offset;
        hdr.sync_eval.t4_phase = hdr.sync_eval.t4_phase + hdr.sync_eval.max_delay;
        e_dp21 = e_dp21 + hdr.sync_eval.max_offset;
    }
    /* t4_phase <- 2 max_delay + 1 - 2 delta (< 0: slow), e_dp21 <- 2 max_offset + 1 - 2
     * theta (< 0: theta > max_offset); the sign of arg */
    action servo_bounds_c() {
        hdr.sync_eval.t4_phase = hdr.sync_eval.t4_phase + 1;
        e_dp21 = e_dp21 + hdr.sync_eval.max_offset;
        e_sign = servo_sign.get({hdr.clock_upd.arg[31:31]});
    }
    /* arg <- floor(arg / 2) = -theta: the boundary's move when applied (ingress:
     * bound_adjust) */
    action servo_halve() {
        hdr.clock_upd.arg = servo_half.get({e_sign, hdr.clock_upd.arg[31:1]});
    }
    /* the RESP leaves as a clock update (Ethernet and the sync header behind it: payload) */
    action servo_update(bit<8> why) {
        hdr.clock_upd.setValid();
        hdr.clock_upd.type = PKT_CLOCK;
        hdr.clock_upd.kind = CU_ADJ;
        hdr.clock_upd.why = why;
        hdr.clock_upd.down = 0;
        hdr.clock_upd.step = 0;
        hdr.clock_upd.arg = 0;
        hdr.clock_upd.room = 0;
        hdr.sync_eval.setInvalid();
    }
    action servo_applied() {
        hdr.clock_upd.setValid();
        hdr.clock_upd.type = PKT_CLOCK;
        hdr.clock_upd.kind = CU_ADJ;
        hdr.clock_upd.why = (bit<8>)SYNC_APPLIED;
        hdr.clock_upd.down = 0;                         // arg: -theta (servo_halve)
        hdr.clock_upd.step = 0;                         // the rate: servo_rate
        hdr.clock_upd.room = 0;
        hdr.sync_eval.setInvalid();
    }
    /* the rate (SwitchClock.response): an applied exchange moves the local slice length by
     * min(|theta| >> servo_shift, rate_step) ns, up when theta < 0 (arg > 0), within
     * len_min..len_max. For each step, the range of arg = -theta that gives it (in aligned
     * blocks: bf-p4c matches no range on a 32-bit field), with the bound less the step
     * (room): written by the control plane from [clock]
     * (controller.tables.clock.servo_rate_entries); no entry (|theta| below 2^servo_shift):
     * no step. */
    action rate_up(bit<32> room, bit<7> step) {
        hdr.clock_upd.down = 0;
        hdr.clock_upd.step = step;
        hdr.clock_upd.room = room;
    }
    action rate_down(bit<32> room, bit<7> step) {
        hdr.clock_upd.down = 1;
        hdr.clock_upd.step = step;
        hdr.clock_upd.room = room;
    }
    table servo_rate {
        key = { hdr.clock_upd.arg: ternary @name("arg"); }
        actions = { rate_up; rate_down; @defaultonly NoAction; }
        default_action = NoAction();
        size = 256;
    }
    /* the reasons in SwitchClock.response's order, one lookup (entries in priority order;
     * sign bits by ternary match: a gateway on bit 31 would split the fields into PHV
     * slices that the arithmetic between them cannot follow) */
    table servo_decide {
        key = {
            e_badsl:           ternary @name("bad_slice");
            e_open:            ternary @name("open");
            e_bad21:           ternary @name("bad21");
            e_bad34:           ternary @name("bad34");
            e_bad41:           ternary @name("bad41");
            e_bad32:           ternary @name("bad32");
            hdr.sync_eval.t4_phase: ternary @name("delay_left");
            e_better:          ternary @name("better");
            e_dp21:            ternary @name("offset_left");
            e_off2:            ternary @name("offset_left2");
        }
        actions = { servo_update; servo_applied; }
        default_action = servo_applied();
        const entries = {
            (1, _, _, _, _, _, _, _, _, _): servo_update((bit<8>)SYNC_MALFORMED);       // slice id past S - 1
            (_, 0 &&& 1, _, _, _, _, _, _, _, _): servo_update((bit<8>)SYNC_STALE);      // no open request with this t1
            (_, _, 1, _, _, _, _, _, _, _): servo_update((bit<8>)SYNC_MALFORMED);        // stamps more than a slice apart
            (_, _, _, 1, _, _, _, _, _, _): servo_update((bit<8>)SYNC_MALFORMED);
            (_, _, _, _, 1, _, _, _, _, _): servo_update((bit<8>)SYNC_MALFORMED);
            (_, _, _, _, _, 1, _, _, _, _): servo_update((bit<8>)SYNC_MALFORMED);
            (_, _, _, _, _, _, 0x80000000 &&& 0x80000000, _, _, _): servo_update((bit<8>)SYNC_SLOW);
            (_, _, _, _, _, _, _, 0, _, _): servo_update((bit<8>)SYNC_PEER_WORSE);  // not a better clock
            (_, _, _, _, _, _, _, _, 0x80000000 &&& 0x80000000, _): servo_update((bit<8>)SYNC_REFUSED);
            (_, _, _, _, _, _, _, _, _, 0x80000000 &&& 0x80000000): servo_update((bit<8>)SYNC_REFUSED);
        }
        size = 10;
    }
    /* usable but for the stratum (servo_decide's entries but the stratum's): whether the
     * servo may take the responder's stratum (stratum_take) when it is the better clock */
    action servo_ok() { e_ok = 1; }
    table servo_usable {
        key = {
            e_badsl:           ternary @name("bad_slice");
            e_open:            ternary @name("open");
            e_bad21:           ternary @name("bad21");
            e_bad34:           ternary @name("bad34");
            e_bad41:           ternary @name("bad41");
            e_bad32:           ternary @name("bad32");
            hdr.sync_eval.t4_phase: ternary @name("delay_left");
            e_dp21:            ternary @name("offset_left");
            e_off2:            ternary @name("offset_left2");
        }
        actions = { servo_ok; NoAction; }
        default_action = servo_ok();
        const entries = {
            (1, _, _, _, _, _, _, _, _): NoAction();
            (_, 0 &&& 1, _, _, _, _, _, _, _): NoAction();
            (_, _, 1, _, _, _, _, _, _): NoAction();
            (_, _, _, 1, _, _, _, _, _): NoAction();
            (_, _, _, _, 1, _, _, _, _): NoAction();
            (_, _, _, _, _, 1, _, _, _): NoAction();
            (_, _, _, _, _, _, 0x80000000 &&& 0x80000000, _, _): NoAction();
            (_, _, _, _, _, _, _, 0x80000000 &&& 0x80000000, _): NoAction();
            (_, _, _, _, _, _, _, _, 0x80000000 &&& 0x80000000): NoAction();
        }
        size = 9;
    }
    /* ---- this ToR's stratum (docs/tofino2.md "The exchange: the stratum";
     * SwitchClock.response/_took): 255 unsynchronized; the control plane writes the lead's
     * 1 (BfRt, at its seed); an applied exchange with a responder of a lower stratum s makes
     * it s + 1 and keeps the slice number (last_k). A ToR below the lead whose last
     * correction is more than search_wait slices old (its parent went silent) is
     * unsynchronized again: every RESP and REQ candidate reads the stratum through
     * stratum_out, which ages it. ---- */
    Register<stratum_t, bit<1>>(1, {(bit<32>)STRATUM_UNSYNCED, 0}) stratum_reg;
    RegisterAction<stratum_t, bit<1>, bit<32>>(stratum_reg) stratum_out = {
        void apply(inout stratum_t v, out bit<32> rv) {
            /* k - search_wait > last_k, wrap-aware (three comparisons: bound_tick) */
            if (v.stratum != 1 && e_sa - v.last_k < 0x80000000 &&
                (e_sa > v.last_k || v.last_k - e_sa > 0x80000000)) {
                v.stratum = (bit<32>)STRATUM_UNSYNCED;
            }
            rv = v.stratum;           // (as written: a constant is no output of a stateful ALU)
        }
    };
    RegisterAction<stratum_t, bit<1>, bit<32>>(stratum_reg) stratum_take = {
        void apply(inout stratum_t v, out bit<32> rv) {
            if (e_sb < v.stratum) {
                v.stratum = e_sb + 1;
                v.last_k = e_sa;
                rv = 1;
            } else {
                rv = 0;
            }
        }
    };
    RegisterAction<stratum_t, bit<1>, bit<32>>(stratum_reg) stratum_peek = {
        void apply(inout stratum_t v, out bit<32> rv) {
            if (e_sb < v.stratum) {
                rv = 1;
            } else {
                rv = 0;
            }
        }
    };
    action stratum_out_a() { e_strat = stratum_out.execute(0); }
    action stratum_take_a() { e_better = stratum_take.execute(0); }
    action stratum_peek_a() { e_better = stratum_peek.execute(0); }
    /* one table for the register's three actions (one access per packet, one stage) */
    table stratum_access {
        key = {
            hdr.sync_eval.isValid():   exact @name("resp");
            hdr.bridge_sync.isValid(): exact @name("sent");
            e_ok:                      exact @name("usable");
        }
        actions = { stratum_out_a; stratum_take_a; stratum_peek_a; NoAction; }
        default_action = NoAction();
        const entries = {
            (false, true, 0): stratum_out_a();
            (true, false, 1): stratum_take_a();
            (true, false, 0): stratum_peek_a();
        }
        size = 3;
    }

    apply {
        if (hdr.bridge_src.isValid()) {
            ssrr_hops.apply();   // the option, or the packet is dropped
        }
        if (hdr.sync_eval.isValid()) {
            servo_peer.apply();
            servo_diffs();
            servo_k21.apply();
            servo_k34.apply();
            servo_k41.apply();
            servo_k32.apply();
            servo_sums();
            servo_bounds_a();
            servo_bounds_b();
            servo_bounds_c();
            servo_halve();
        }

        if (hdr.bridge_sync.isValid()) {
            sync_e_a();
            switch (sync_e_side.apply().action_run) {
                sync_e_next: {                           // the boundary passed: the next slice
                    if (hdr.bridge_sync.slice == NUM_SLICES8 - 1) {
                        sync_e_wrap();
                    } else {
                        sync_e_inc();
                    }
                }
            }
            if (hdr.bridge_req.isValid()) {              // PKT_REQ
                req_window();
                req_in_window.apply();
                if (e_inwin == 1) {
                    e_sent = req_due.execute(hdr.bridge_req.uplink);
                }
            }
        }
        req_access.apply();                              // a RESP closes its request, a REQ sent opens one
        if (hdr.sync_eval.isValid()) {
            servo_usable.apply();   // none of malformed, stale, slow, refused
        }
        stratum_access.apply();     // a frame sent reads (and ages) the stratum, the servo takes a better one
        if (hdr.sync_eval.isValid()) {
            switch (servo_decide.apply().action_run) {   // malformed, stale, slow, peer_worse, refused; else applied
                servo_applied: { servo_rate.apply(); }   // the rate's step
            }
        }
        if (hdr.bridge_sync.isValid()) {
            if (hdr.bridge_req.isValid()) {
                req_fate.apply();                        // dropped: outside the window, or not due
            } else {
                sync_e_t3();
                sync_e_boot.apply();
            }
            hdr.bridge_sync.setInvalid();
            hdr.bridge_req.setInvalid();
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
                hdr.hops[2].next_tor, hdr.hops[2].uplink, hdr.hops[2].send_slice,
                hdr.hops[3].next_tor, hdr.hops[3].uplink, hdr.hops[3].send_slice });
        }
        pkt.emit(hdr.qupd);
        pkt.emit(hdr.clock_upd);
        pkt.emit(hdr.bridge);
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.sync);
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
/* (the parser writes its error flags to the low 16 bits of a container: bf-p4c 9.13.4 put
 * parser_err in the upper half of a 32-bit one, where the sync check read 0 for a truncated
 * frame, and let it through as a REQ) */
@pa_container_size("ingress", "ig_intr_md_from_prsr.parser_err", 16)
/* (the verdict's subtraction: its operands alone in their containers, no borrow from a
 * neighbour) */
@pa_solitary("ingress", "meta.live_m")
@pa_solitary("ingress", "meta.live_da")
@pa_solitary("ingress", "meta.live_x")
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
    action role_uplink(uplink_t uplink) { meta.role = ROLE_UPLINK; meta.gen = hdr.ipv4.flags[2:2]; meta.in_uplink = uplink; }
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
        size = 4;
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

    /* ---- slice clock (docs/tofino2.md "The slice clock") ---------------------------------
     * Network time is kept as the switch's clock (global_tstamp, ns; its low 32 bits, every
     * comparison wrap-aware) plus a correction: the local time of the next slice boundary
     * (`bound_reg.next`) and the local length of a slice (the rate). The generator's timer
     * fires 8 times per slice (every 250 ns); its first packet (batch 0, packet 0)
     * compares the local time with the next boundary and, if it has been reached, ticks the
     * clock: the boundary moves on by one slice, the slice id, slice number, active queue
     * and epoch advance, and this trigger's batches pause and resume the calendar queues.
     * Every other packet reads the clock. Each register is accessed once per packet; the
     * slice id is read in the first stage, as every lookup needs it. */
    Register<clock_bound_t, bit<1>>(1) bound_reg;   // the next boundary (local ns) and the slice id 0..S-1
    RegisterAction<clock_bound_t, bit<1>, bit<32>>(bound_reg) bound_tick = {
        void apply(inout clock_bound_t v, out bit<32> rv, out bit<32> rv_slice) {
            rv_slice = v.slice;         // the slice that ends if this ticks (liveness judges it)
            /* reached: (now - next) mod 2^32 < 2^31. A stateful ALU compares the exact
             * difference of its operands (33 bits: a lone "now - next < 2^31" holds whenever
             * now < next), so wrap-aware takes three comparisons: now - next < 2^31, and
             * either now >= next or now has wrapped past next (next - now > 2^31). */
            if (ig_prsr_md.global_tstamp[31:0] - v.next < 0x80000000 &&
                (ig_prsr_md.global_tstamp[31:0] >= v.next || v.next - ig_prsr_md.global_tstamp[31:0] > 0x80000000)) {
                v.next = v.next + 2000;
                if (v.slice >= 3) { v.slice = 0; } else { v.slice = v.slice + 1; }
                rv = 1;
            } else {
                rv = 0;
            }
        }
    };
    RegisterAction<clock_bound_t, bit<1>, bit<32>>(bound_reg) bound_read = {
        void apply(inout clock_bound_t v, out bit<32> rv1, out bit<32> rv2) { rv1 = v.slice; rv2 = v.next; }
    };
    /* a clock update moves the next boundary (the rate's len - L at a tick) */
    RegisterAction<clock_bound_t, bit<1>, bit<32>>(bound_reg) bound_adjust = {
        void apply(inout clock_bound_t v) { v.next = v.next + hdr.clock_upd.arg; }
    };
    Register<bit<32>, bit<1>>(1, 2000) len_reg;     // the local slice length (the rate; nominal 2000 ns)
    RegisterAction<bit<32>, bit<1>, bit<32>>(len_reg) len_read = {
        void apply(inout bit<32> v, out bit<32> rv) { rv = v; }
    };
    /* an applied exchange's rate step (egress's servo_rate: min(|theta| >> servo_shift,
     * rate_step) ns), taken while the length stays within len_min..len_max: room is the
     * bound less the step (a stateful ALU compares with one packet field, and cannot set
     * the register to a second one) */
    RegisterAction<bit<32>, bit<1>, bit<32>>(len_reg) len_up = {
        void apply(inout bit<32> v) {
            if (v <= hdr.clock_upd.room) { v = v + (bit<32>)hdr.clock_upd.step; }
        }
    };
    RegisterAction<bit<32>, bit<1>, bit<32>>(len_reg) len_down = {
        void apply(inout bit<32> v) {
            if (v >= hdr.clock_upd.room) { v = v - (bit<32>)hdr.clock_upd.step; }
        }
    };
    /* one table for the register's three actions (as stratum_access): executed from the
     * branches of an if, they were three tables whose stateful ALU bf-p4c 9.13.4 placed in
     * a later stage than the first, and the enable it carried there had no PHV source
     * ("No phv record $data0") */
    action len_read_a() { meta.s_len = len_read.execute(0); }
    action len_up_a() { len_up.execute(0); }
    action len_down_a() { len_down.execute(0); }
    table len_access {
        key = {
            hdr.pg_timer.isValid():  ternary @name("timer");
            hdr.pg_timer.batch_id:   ternary @name("batch_id");
            hdr.pg_timer.packet_id:  ternary @name("packet_id");
            hdr.sync.isValid():      ternary @name("sync");
            hdr.clock_upd.isValid(): ternary @name("update");
            hdr.clock_upd.down:      ternary @name("down");
        }
        actions = { len_read_a; len_up_a; len_down_a; NoAction; }
        default_action = NoAction();
        const entries = {
            (true, 0, 0, _, _, _): len_read_a();       // the tick: the timer's rate
            (true, 1, _, _, _, _): len_read_a();       // a REQ's phase
            (_, _, _, true, _, _): len_read_a();       // a sync frame's phase
            (_, _, _, _, true, 1): len_down_a();       // the rate: an applied exchange's step
            (_, _, _, _, true, 0): len_up_a();         // (none: step 0, room 0)
        }
        size = 5;
    }
    Register<bit<32>, bit<1>>(1, 0) k_reg;          // the slice number k (network time = k x L + phase)
    RegisterAction<bit<32>, bit<1>, bit<32>>(k_reg) k_tick = {
        void apply(inout bit<32> v, out bit<32> rv) { v = v + 1; rv = v; }
    };
    RegisterAction<bit<32>, bit<1>, bit<32>>(k_reg) k_read = {
        void apply(inout bit<32> v, out bit<32> rv) { rv = v; }
    };
    /* the last trigger: its local time (what the control plane reads to seed the clock) and
     * whether it ticked (the trigger's other packets pause and resume only then) */
    Register<clock_note_t, bit<1>>(1) tick_reg;
    RegisterAction<clock_note_t, bit<1>, bit<32>>(tick_reg) tick_note_yes = {
        void apply(inout clock_note_t v) { v.now = meta.now; v.ticked = 1; }
    };
    RegisterAction<clock_note_t, bit<1>, bit<32>>(tick_reg) tick_note_no = {
        void apply(inout clock_note_t v) { v.now = meta.now; v.ticked = 0; }
    };
    RegisterAction<clock_note_t, bit<1>, bit<32>>(tick_reg) tick_ticked = {
        void apply(inout clock_note_t v, out bit<32> rv) { rv = v.ticked; }
    };
    /* (its three accesses in one table: bf-p4c 9.13.4 otherwise placed the read's gateway
     * and the notes in different stages on r108x6 and failed to split the read) */
    action tick_note_yes_a() { tick_note_yes.execute(0); }
    action tick_note_no_a() { tick_note_no.execute(0); }
    action tick_ticked_a() { meta.clk_noted = (bit<1>)tick_ticked.execute(0); }
    table tick_access {
        key = {
            hdr.pg_timer.isValid(): exact @name("timer");
            hdr.pg_timer.batch_id:  ternary @name("batch_id");
            hdr.pg_timer.packet_id: ternary @name("packet_id");
            meta.clk_crossed:       ternary @name("crossed");
        }
        actions = { tick_note_yes_a; tick_note_no_a; tick_ticked_a; NoAction; }
        default_action = NoAction();
        const entries = {
            (true, 0, 0, 1): tick_note_yes_a();     // the first packet, which ticked
            (true, 0, 0, _): tick_note_no_a();      // ... which did not
            (true, _, _, _): tick_ticked_a();       // the trigger's other packets
        }
        size = 3;
    }
    Register<step_t, bit<1>>(1, 0) active_reg;      // its calendar queue 0..Q-1
    Register<step_t, bit<1>>(1, 0) epoch_reg;       // slices since the start, mod 65536
    Register<bit<32>, bit<1>>(1, 0) start_reg;      // when the current slice began (ns, low 32 bits)
    RegisterAction<step_t, bit<1>, step_t>(active_reg) active_tick = {
        void apply(inout step_t v, out step_t rv) {
            if (v >= 3) { v = 0; } else { v = v + 1; }
            rv = v;
        }
    };
    RegisterAction<step_t, bit<1>, step_t>(active_reg) active_read = {
        void apply(inout step_t v, out step_t rv) { rv = v; }
    };
    RegisterAction<step_t, bit<1>, step_t>(epoch_reg) epoch_tick = {
        void apply(inout step_t v, out step_t rv) { v = v + 1; rv = v; }
    };
    RegisterAction<step_t, bit<1>, step_t>(epoch_reg) epoch_read = {
        void apply(inout step_t v, out step_t rv) { rv = v; }
    };
    RegisterAction<bit<32>, bit<1>, bit<32>>(start_reg) start_stamp = {
        void apply(inout bit<32> v) { v = meta.now; }
    };
    RegisterAction<bit<32>, bit<1>, bit<32>>(start_reg) start_read = {
        void apply(inout bit<32> v, out bit<32> rv) { rv = v; }
    };

    /* ---- clock updates: a mirror copy (clock_upd_t) to the recirculation port; its second
     * pass moves or sets the registers above (read_or_tick) ---------------------------------- */
    action clock_update() {
        meta.mirror_session = 1;
        ig_dprsr_md.mirror_type = CLOCK_MIRROR;
        meta.pkt_type = PKT_CLOCK;
    }
    /* the rate: the tick moved the boundary by the nominal slice, the local slice length
     * says len - L more */
    action rate_adjust() { meta.u_arg = meta.s_len - 2000; meta.u_kind = CU_ADJ; }

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
        size = 16;
    }

    /* ---- FRANCIS-style fast failure reaction: the port-down app names the dead port; its
     * batch (4 packets) sets the Full flag of every queue of that uplink (one per packet),
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
        size = 8;
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
            2: set_floor(83);
            3: set_floor(183);
            4: set_floor(283);
            5: set_floor(383);
            6: set_floor(483);
            7: set_floor(583);
            8: set_floor(683);
            9: set_floor(783);
            10: set_floor(883);
            11: set_floor(983);
            12: set_floor(1083);
            13: set_floor(1183);
            14: set_floor(1283);
            15: set_floor(1383);
            16: set_floor(1483);
            17: set_floor(1583);
            18: set_floor(1683);
            19: set_floor(1783);
            20: set_floor(1883);
            21: set_floor(1983);
            22: set_floor(2083);
            23: set_floor(2183);
            24: set_floor(2283);
            25: set_floor(2383);
            26: set_floor(2483);
            27: set_floor(2583);
            28: set_floor(2683);
            29: set_floor(2783);
            30: set_floor(2883);
            31: set_floor(2983);
            32: set_floor(3083);
            33: set_floor(3183);
            34: set_floor(3283);
            35: set_floor(3383);
            36: set_floor(3483);
            37: set_floor(3583);
            38: set_floor(3683);
            39: set_floor(3783);
            40: set_floor(3883);
            41: set_floor(3983);
            42: set_floor(4083);
            43: set_floor(4183);
            44: set_floor(4283);
            45: set_floor(4383);
            46: set_floor(4483);
            47: set_floor(4583);
            48: set_floor(4683);
            49: set_floor(4783);
            50: set_floor(4883);
            51: set_floor(4983);
            52: set_floor(5083);
            53: set_floor(5183);
            54: set_floor(5283);
            55: set_floor(5383);
            56: set_floor(5483);
            57: set_floor(5583);
            58: set_floor(5683);
            59: set_floor(5783);
            60: set_floor(5883);
            61: set_floor(5983);
            62: set_floor(6083);
            63: set_floor(6183);
            64: set_floor(6283);
            65: set_floor(6383);
            66: set_floor(6483);
            67: set_floor(6583);
            68: set_floor(6683);
            69: set_floor(6783);
            70: set_floor(6883);
            71: set_floor(6983);
            72: set_floor(7083);
            73: set_floor(7183);
            74: set_floor(7283);
            75: set_floor(7383);
            76: set_floor(7483);
            77: set_floor(7583);
            78: set_floor(7683);
            79: set_floor(7783);
            80: set_floor(7883);
            81: set_floor(7983);
            82: set_floor(8083);
            83: set_floor(8183);
            84: set_floor(8283);
            85: set_floor(8383);
            86: set_floor(8483);
            87: set_floor(8583);
            88: set_floor(8683);
            89: set_floor(8783);
            90: set_floor(8883);
            91: set_floor(8983);
            92: set_floor(9083);
            93: set_floor(9183);
            94: set_floor(9283);
            95: set_floor(9383);
            96: set_floor(9483);
            97: set_floor(9583);
            98: set_floor(9683);
            99: set_floor(9783);
            100: set_floor(9883);
            101: set_floor(9983);
            102: set_floor(10083);
            103: set_floor(10183);
            104: set_floor(10283);
            105: set_floor(10383);
            106: set_floor(10483);
            107: set_floor(10583);
            108: set_floor(10683);
            109: set_floor(10783);
            110: set_floor(10883);
            111: set_floor(10983);
            112: set_floor(11083);
            113: set_floor(11183);
            114: set_floor(11283);
            115: set_floor(11383);
            116: set_floor(11483);
            117: set_floor(11583);
            118: set_floor(11683);
            119: set_floor(11783);
            120: set_floor(11883);
            121: set_floor(11983);
            122: set_floor(12083);
            123: set_floor(12183);
            124: set_floor(12283);
            125: set_floor(12383);
            126: set_floor(12483);
            127: set_floor(12583);
            128: set_floor(12683);
            129: set_floor(12783);
            130: set_floor(12883);
            131: set_floor(12983);
            132: set_floor(13083);
            133: set_floor(13183);
            134: set_floor(13283);
            135: set_floor(13383);
            136: set_floor(13483);
            137: set_floor(13583);
            138: set_floor(13683);
            139: set_floor(13783);
            140: set_floor(13883);
            141: set_floor(13983);
            142: set_floor(14083);
            143: set_floor(14183);
            144: set_floor(14283);
            145: set_floor(14383);
            146: set_floor(14483);
            147: set_floor(14583);
            148: set_floor(14683);
            149: set_floor(14783);
            150: set_floor(14883);
            151: set_floor(14983);
            152: set_floor(15083);
            153: set_floor(15183);
            154: set_floor(15283);
            155: set_floor(15383);
            156: set_floor(15483);
            157: set_floor(15583);
            158: set_floor(15683);
            159: set_floor(15783);
            160: set_floor(15883);
            161: set_floor(15983);
            162: set_floor(16083);
            163: set_floor(16183);
            164: set_floor(16283);
            165: set_floor(16383);
            166: set_floor(16483);
            167: set_floor(16583);
            168: set_floor(16683);
            169: set_floor(16783);
            170: set_floor(16883);
            171: set_floor(16983);
            172: set_floor(17083);
            173: set_floor(17183);
            174: set_floor(17283);
            175: set_floor(17383);
            176: set_floor(17483);
            177: set_floor(17583);
            178: set_floor(17683);
            179: set_floor(17783);
            180: set_floor(17883);
            181: set_floor(17983);
            182: set_floor(18083);
            183: set_floor(18183);
            184: set_floor(18283);
            185: set_floor(18383);
            186: set_floor(18483);
            187: set_floor(18583);
            188: set_floor(18683);
            189: set_floor(18783);
            190: set_floor(18883);
            191: set_floor(18983);
            192: set_floor(19083);
            193: set_floor(19183);
            194: set_floor(19283);
            195: set_floor(19383);
            196: set_floor(19483);
            197: set_floor(19583);
            198: set_floor(19683);
            199: set_floor(19783);
            200: set_floor(19883);
            201: set_floor(19983);
            202: set_floor(20083);
            203: set_floor(20183);
            204: set_floor(20283);
            205: set_floor(20383);
            206: set_floor(20483);
            207: set_floor(20583);
            208: set_floor(20683);
            209: set_floor(20783);
            210: set_floor(20883);
            211: set_floor(20983);
            212: set_floor(21083);
            213: set_floor(21183);
            214: set_floor(21283);
            215: set_floor(21383);
            216: set_floor(21483);
            217: set_floor(21583);
            218: set_floor(21657);
            219: set_floor(21657);
            220: set_floor(21657);
            221: set_floor(21657);
            222: set_floor(21657);
            223: set_floor(21657);
            224: set_floor(21657);
            225: set_floor(21657);
            226: set_floor(21657);
            227: set_floor(21657);
            228: set_floor(21657);
            229: set_floor(21657);
            230: set_floor(21657);
            231: set_floor(21657);
            232: set_floor(21657);
            233: set_floor(21657);
            234: set_floor(21657);
            235: set_floor(21657);
            236: set_floor(21657);
            237: set_floor(21657);
            238: set_floor(21657);
            239: set_floor(21657);
            240: set_floor(21657);
            241: set_floor(21657);
            242: set_floor(21657);
            243: set_floor(21657);
            244: set_floor(21657);
            245: set_floor(21657);
            246: set_floor(21657);
            247: set_floor(21657);
            248: set_floor(21657);
            249: set_floor(21657);
        }
        size = 250;
    }

    /* ---- the synchronization exchange: the clock's configuration and this slice's peers ---- */
    /* sync counter: one cell per reason (from_host, malformed, off, req_sent, ref_req_sent, outside_window, not_due, no_peer, resp_sent, wrong_peer, wrong_dst, stale, slow, peer_worse, step, filtered, refused, lost, applied, probe, seed, adopted, claimed) */
    Counter<bit<32>, bit<8>>(23, CounterType_t.PACKETS) sync;
    /* clock_config: the ToR's share of [clock] (controller.clock.params.ClockConfig, every
     * field kept so the daemon writes both targets alike); the responder needs the mode and
     * this ToR's id. No entry or clock_off: timer mode (sync frames are counted `off`). */
    action set_clock(bit<8> mode, bit<16> my_tor, bit<32> slice_ns, bit<32> window_lo, bit<32> window_hi, bit<32> max_delay, bit<32> max_offset, bit<32> len_min, bit<32> len_max, bit<8> servo_shift, bit<8> phase_shift, bit<32> filter, bit<32> filter_creep, bit<32> rate_step, bit<8> refuse_limit, bit<1> candidate, bit<8> ref_uplink, bit<32> exchange_every, bit<32> claim_wait, bit<32> start_wait, bit<32> search_wait) {
        meta.clk_mode = mode;
        meta.clk_my_tor = my_tor;
        meta.clk_max_delay = max_delay;
        meta.clk_max_offset = max_offset;
        meta.clk_window_lo = window_lo;
        meta.clk_window_hi = window_hi;
        meta.clk_every = exchange_every;
        meta.clk_wait = search_wait;
    }
    action clock_off() { meta.clk_mode = 0; }
    table clock_config {
        actions = { set_clock; @defaultonly clock_off; }
        default_action = clock_off();
        size = 1;
    }
    /* sync_peer(slice, uplink) -> the ToR this slice's circuit reaches on that uplink */
    action set_peer(tor_t peer) {
        meta.peer_hit = 1;
        meta.peer = peer;
    }
    action no_peer() { meta.peer_hit = 0; }
    table sync_peer {
        key = {
            meta.cur_slice: exact @name("slice");
            meta.in_uplink: exact @name("uplink");
        }
        actions = { set_peer; @defaultonly no_peer; }
        default_action = no_peer();
        size = 8;
    }
    /* sync_req(packet_id) -> uplink u's dev port: batch 1 packet u of a trigger that does
     * not tick may leave as a REQ on uplink u (written by the BfRt backend from the port map) */
    action req_out(bit<9> dev_port, uplink_t uplink) {
        ig_tm_md.ucast_egress_port = dev_port;
        meta.in_uplink = uplink;
        meta.sync_out = 1;
    }
    table sync_req {
        key = { hdr.pg_timer.packet_id: exact @name("packet_id"); }
        actions = { req_out; @defaultonly NoAction; }
        default_action = NoAction();
        size = 2;
    }
    /* t2 (the phase at ingress): len - (next - now), wrap-aware in 32 bits (a frame that
     * arrives after the boundary but before the trigger that ticks it reads the slice that
     * ended, with a phase past len: the same network time) */
    action sync_ph_a() { meta.sync_ph = meta.clk_next - meta.now; }
    action sync_ph_b() { hdr.sync.t2_phase = meta.s_len - meta.sync_ph; }
    /* t4 of a RESP, the same way (its k is meta.clk_k) */
    action sync_t4() { meta.t4_phase = meta.s_len - meta.sync_ph; }
    /* a RESP to the servo: its copy goes to egress through the recirculation port (the
     * mirror session of the queue-state updates) behind sync_eval_t; the RESP itself is
     * dropped. Egress evaluates it and turns it into a clock update, whose second pass
     * here moves the boundary and counts the RESP's reason (docs/tofino2.md "The exchange:
     * the requester and the servo") */
    action sync_to_servo() {
        meta.mirror_session = 1;
        ig_dprsr_md.mirror_type = RESP_MIRROR;
        meta.pkt_type = PKT_SYNC_EVAL;
    }

    /* ---- liveness per circuit (docs/liveness.md "On Tofino2") --------------------------------
     * live_reg[s * d + u]: {heard, miss}: heard 1 when the peer the schedule names was heard
     * on (s, u) since its last judgment, 2 when only another synchronized ToR was; miss the
     * consecutive silent circuits (saturates at 255). Heard by a REQ or RESP from an uplink
     * (the sync channel, after its sync_peer lookup); judged by the timer's pause of uplink
     * u's queue at the boundary that ends slice s: the queue paused there serves (s, u) again
     * one cycle later (Q = S), so a circuit marked down leaves that queue Full instead of
     * clearing it, and the lookups pass over it as over any Full queue. */
    Counter<bit<32>, bit<8>>(5, CounterType_t.PACKETS) liveness;
    action set_liveness(bit<8> down_after, bit<8> expect) {
        meta.live_on = 1;
        meta.live_da = (bit<16>)down_after;
        meta.live_expect = expect;
    }
    action liveness_off() { meta.live_on = 0; }
    table liveness_config {
        actions = { set_liveness; @defaultonly liveness_off; }
        default_action = liveness_off();
        size = 1;
    }
    Register<live_t, bit<16>>(8, {0, 0}) live_reg;
    RegisterAction<live_t, bit<16>, bit<16>>(live_reg) live_hear = {
        void apply(inout live_t v) { v.heard = 1; }
    };
    RegisterAction<live_t, bit<16>, bit<16>>(live_reg) live_stray = {
        void apply(inout live_t v) {
            if (v.heard == 0) { v.heard = 2; }      // the peer heard too: heard
        }
    };
    /* the judgment: the state as it was (heard, miss), then miss reset or counted, heard
     * cleared for the next cycle */
    RegisterAction<live_t, bit<16>, bit<16>>(live_reg) live_judge = {
        void apply(inout live_t v, out bit<16> h, out bit<16> m) {
            h = v.heard;
            m = v.miss;
            if (v.heard == 1) {
                v.miss = 0;
            } else if (v.miss < 255) {
                v.miss = v.miss + 1;
            }
            v.heard = 0;
        }
    };
    action live_hear_a() { live_hear.execute(meta.live_i); }
    action live_stray_a() { live_stray.execute(meta.live_i); }
    action live_judge_a() {
        meta.live_h = live_judge.execute(meta.live_i, meta.live_m);
        meta.live_j = 1;
    }
    /* one table for the register's three actions (one access per packet, one stage) */
    table live_access {
        key = {
            meta.live_op: exact @name("op");
            meta.live_on: exact @name("on");
        }
        actions = { live_hear_a; live_stray_a; live_judge_a; NoAction; }
        default_action = NoAction();
        const entries = {
            (LIVE_HEAR, 1): live_hear_a();
            (LIVE_STRAY, 1): live_stray_a();
            (LIVE_JUDGE, 1): live_judge_a();
        }
        size = 3;
    }
    /* the circuit a sync frame came over: (this slice, its uplink) -> cell s * d + u */
    action live_hear_at(bit<16> i) { meta.live_i = i; }
    table live_hear_cell {
        key = {
            meta.cur_slice: exact @name("slice");
            meta.in_uplink: exact @name("uplink");
        }
        actions = { live_hear_at; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0): live_hear_at(0);
            (0, 1): live_hear_at(1);
            (1, 0): live_hear_at(2);
            (1, 1): live_hear_at(3);
            (2, 0): live_hear_at(4);
            (2, 1): live_hear_at(5);
            (3, 0): live_hear_at(6);
            (3, 1): live_hear_at(7);
        }
        size = 8;
    }
    /* the circuit a pause judges: batch 0 packet u pauses uplink u's queue of the slice that
     * ended. Packet 0 ticked the clock and has the slice id from before the tick (live_s32;
     * its cur_slice stays 0); packets 1..d-1 read it after (cur_slice: the next slice's;
     * live_s32 0). Only a circuit the schedule gives this ToR is judged (`expect`, bit
     * s * d + u: one ternary entry per circuit). */
    action live_judge_at(bit<16> i) {
        meta.live_i = i;
        meta.live_op = LIVE_JUDGE;
    }
    table live_judge_cell {
        key = {
            meta.cur_slice:         exact @name("slice");
            meta.live_s32:          exact @name("slice_before");
            hdr.pg_timer.packet_id: exact @name("packet_id");
            meta.live_expect:       ternary @name("expect");
        }
        actions = { live_judge_at; @defaultonly NoAction; }
        default_action = NoAction();
        const entries = {
            (0, 0, 0, 0x1 &&& 0x1): live_judge_at(0);
            (0, 0, 1, 0x80 &&& 0x80): live_judge_at(7);
            (0, 1, 0, 0x4 &&& 0x4): live_judge_at(2);
            (1, 0, 1, 0x2 &&& 0x2): live_judge_at(1);
            (0, 2, 0, 0x10 &&& 0x10): live_judge_at(4);
            (2, 0, 1, 0x8 &&& 0x8): live_judge_at(3);
            (0, 3, 0, 0x40 &&& 0x40): live_judge_at(6);
            (3, 0, 1, 0x20 &&& 0x20): live_judge_at(5);
        }
        size = 8;
    }
    /* down_after against the silent count as it was: x = miss - down_after (16 bits) */
    action live_cmp() { meta.live_x = meta.live_m - meta.live_da; }
    /* the verdict (a ternary lookup on the old state; x's sign says whether the circuit was
     * marked down, x = -1 that this silence marks it): the queue held Full or not, the
     * circuit's mark (bit 0 down, bit 1 only another ToR heard), its counter cell */
    action live_verdict(bit<1> down, bit<8> bits, bit<8> cell) {
        meta.live_set = down;
        meta.live_bits = bits;
        meta.live_cnt = cell;
    }
    table live_decide {
        key = {
            meta.live_h: ternary @name("heard");
            meta.live_x: ternary @name("x");
        }
        actions = { live_verdict; }
        default_action = live_verdict(0, 0, LIVE_SILENT);
        const entries = {
            (1, 0x0000 &&& 0x8000): live_verdict(0, 0, LIVE_UP);        // heard, was down: up
            (1, _): live_verdict(0, 0, LIVE_HEARD);
            (2, 0xFFFF): live_verdict(1, 3, LIVE_DOWN);                  // the down_after-th silent circuit
            (_, 0xFFFF): live_verdict(1, 1, LIVE_DOWN);
            (2, 0x0000 &&& 0x8000): live_verdict(1, 3, LIVE_WRONG);     // still down
            (_, 0x0000 &&& 0x8000): live_verdict(1, 1, LIVE_SILENT);
            (2, _): live_verdict(0, 2, LIVE_WRONG);
        }
        size = 7;
    }
    /* what the daemon reads (BfRt, with the clock): the circuit's mark */
    Register<bit<8>, bit<16>>(8, 0) live_mark;
    RegisterAction<bit<8>, bit<16>, bit<8>>(live_mark) live_mark_set = {
        void apply(inout bit<8> v) { v = meta.live_bits; }
    };

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

    /* ---- URO per-hop table: (arrival slice, dst ToR) -> K (uplink, wait) ---------------- */
    action set_alternatives(bit<8> n, uplink_t up0, slice_t wait0, uplink_t up1, slice_t wait1, uplink_t up2, slice_t wait2) {
        meta.n_alts = n;
        meta.alt_up_0 = up0;
        meta.alt_wait_0 = (step_t)wait0;
        meta.alt_up_1 = up1;
        meta.alt_wait_1 = (step_t)wait1;
        meta.alt_up_2 = up2;
        meta.alt_wait_2 = (step_t)wait2;
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
    action set_group(bit<5> group, bit<5> shape) {
        meta.ssrr_group = group;
        meta.ssrr_shape = shape;
    }
    table ssrr_path {
        key = {
            meta.gen:       exact @name("generation");
            meta.dst_tor[2:0]: exact @name("dst_tor");
            meta.cur_slice[1:0]: exact @name("start_slice");
        }
        actions = { set_group; @defaultonly NoAction; }
        default_action = NoAction();
        size = 56;
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
        size = 168;
    }
    /* hop 0 of the picked path, what the queue test needs (its uplink and wait: slices from
     * the start slice, which the key fixes), and the option's shape for its length n (IHL,
     * bytes): 32 bits of immediate data, one action per n. The option itself is written in
     * egress (ssrr_hops): the key goes along in bridge_src, and an option the packet arrived
     * with (re-sourced after a refused hop) is removed here. */
    action first_1(bit<1> up0, bit<2> wait0) {
        meta.has_path = 1;
        meta.alt_up_3 = (uplink_t)up0;            // the SSRR slot: hop 0
        meta.alt_wait_3 = (step_t)wait0;
        hdr.ipv4.version_ihl = 0x47;
        meta.path_bytes = 28;
        hdr.bridge_src.setValid();
        hdr.bridge_src.gen = meta.gen;
        hdr.bridge_src.spare = 0;
        hdr.bridge_src.group = (bit<8>)meta.ssrr_group;
        hdr.bridge_src.level = (bit<8>)meta.ssrr_level;
        hdr.bridge_src.member = (bit<8>)meta.ssrr_member;
        hdr.bridge_src.dst_tor = meta.dst_tor;
        hdr.ssrr.setInvalid();
        hdr.hops[0].setInvalid();
        hdr.hops[1].setInvalid();
        hdr.hops[2].setInvalid();
        hdr.hops[3].setInvalid();
    }
    action first_2(bit<1> up0, bit<2> wait0) {
        meta.has_path = 1;
        meta.alt_up_3 = (uplink_t)up0;            // the SSRR slot: hop 0
        meta.alt_wait_3 = (step_t)wait0;
        hdr.ipv4.version_ihl = 0x48;
        meta.path_bytes = 32;
        hdr.bridge_src.setValid();
        hdr.bridge_src.gen = meta.gen;
        hdr.bridge_src.spare = 0;
        hdr.bridge_src.group = (bit<8>)meta.ssrr_group;
        hdr.bridge_src.level = (bit<8>)meta.ssrr_level;
        hdr.bridge_src.member = (bit<8>)meta.ssrr_member;
        hdr.bridge_src.dst_tor = meta.dst_tor;
        hdr.ssrr.setInvalid();
        hdr.hops[0].setInvalid();
        hdr.hops[1].setInvalid();
        hdr.hops[2].setInvalid();
        hdr.hops[3].setInvalid();
    }
    action first_3(bit<1> up0, bit<2> wait0) {
        meta.has_path = 1;
        meta.alt_up_3 = (uplink_t)up0;            // the SSRR slot: hop 0
        meta.alt_wait_3 = (step_t)wait0;
        hdr.ipv4.version_ihl = 0x49;
        meta.path_bytes = 36;
        hdr.bridge_src.setValid();
        hdr.bridge_src.gen = meta.gen;
        hdr.bridge_src.spare = 0;
        hdr.bridge_src.group = (bit<8>)meta.ssrr_group;
        hdr.bridge_src.level = (bit<8>)meta.ssrr_level;
        hdr.bridge_src.member = (bit<8>)meta.ssrr_member;
        hdr.bridge_src.dst_tor = meta.dst_tor;
        hdr.ssrr.setInvalid();
        hdr.hops[0].setInvalid();
        hdr.hops[1].setInvalid();
        hdr.hops[2].setInvalid();
        hdr.hops[3].setInvalid();
    }
    action first_4(bit<1> up0, bit<2> wait0) {
        meta.has_path = 1;
        meta.alt_up_3 = (uplink_t)up0;            // the SSRR slot: hop 0
        meta.alt_wait_3 = (step_t)wait0;
        hdr.ipv4.version_ihl = 0x4A;
        meta.path_bytes = 40;
        hdr.bridge_src.setValid();
        hdr.bridge_src.gen = meta.gen;
        hdr.bridge_src.spare = 0;
        hdr.bridge_src.group = (bit<8>)meta.ssrr_group;
        hdr.bridge_src.level = (bit<8>)meta.ssrr_level;
        hdr.bridge_src.member = (bit<8>)meta.ssrr_member;
        hdr.bridge_src.dst_tor = meta.dst_tor;
        hdr.ssrr.setInvalid();
        hdr.hops[0].setInvalid();
        hdr.hops[1].setInvalid();
        hdr.hops[2].setInvalid();
        hdr.hops[3].setInvalid();
    }
    table ssrr_first {
        key = {
            meta.gen:         exact @name("generation");
            meta.ssrr_group:  exact @name("group");
            meta.ssrr_level:  exact @name("level");
            meta.ssrr_member: exact @name("member");
        }
        actions = { first_1; first_2; first_3; first_4; @defaultonly NoAction; }
        default_action = NoAction();
        size = 448;
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
    action at_hop_3() {
        meta.hop_idx = 3;
        meta.hop_uplink = hdr.hops[3].uplink;
        meta.hop_slice = hdr.hops[3].send_slice;
        meta.prev_next_tor = hdr.hops[2].next_tor;
        meta.prev_slice = hdr.hops[2].send_slice;
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
        actions = { at_hop_1; at_hop_2; at_hop_3; past_last; @defaultonly ptr_bad; }
        default_action = ptr_bad();
        const entries = {
            (8, 1): past_last(1);
            (8, 2): at_hop_1();
            (12, 2): past_last(2);
            (8, 3): at_hop_1();
            (12, 3): at_hop_2();
            (16, 3): past_last(3);
            (8, 4): at_hop_1();
            (12, 4): at_hop_2();
            (16, 4): at_hop_3();
            (20, 4): past_last(4);
        }
        size = 10;
    }

    /* ---- queue state: a Full flag per (uplink, calendar queue) at uplink * 256 + queue,
     * 4 copies. Slot k of the one-shot lookup reads copy k once (Tofino: one access per
     * register per packet): the K URO alternatives and the SSRR hop (slot 3) are tested
     * side by side. A timer pause clears a drained queue's flag in every copy, a queue-state
     * update (mirror copy, see qupd_t) sets it in every copy; an uplink the port-down app
     * marked down has all its flags set and the timer leaves them set (an uplink the config
     * masks down is passed over by its slots' down_k tables instead). All actions on a
     * copy use the slot's index field: one index source per stateful ALU. */
    Register<bit<8>, qidx_t>(512, 0) qstate_0;
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
            (1, 0): qmod_0_set(1, 1);
            (1, 1): qmod_0_set(2, 0);
            (1, 2): qmod_0_set(3, 0);
            (1, 3): qmod_0_set(0, 0);
            (2, 0): qmod_0_set(2, 1);
            (2, 1): qmod_0_set(3, 0);
            (2, 2): qmod_0_set(0, 0);
            (2, 3): qmod_0_set(1, 0);
            (3, 0): qmod_0_set(3, 1);
            (3, 1): qmod_0_set(0, 0);
            (3, 2): qmod_0_set(1, 0);
            (3, 3): qmod_0_set(2, 0);
        }
        size = 16;
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
        }
        size = 2;
    }
    Register<bit<8>, qidx_t>(512, 0) qstate_1;
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
            (1, 0): qmod_1_set(1, 1);
            (1, 1): qmod_1_set(2, 0);
            (1, 2): qmod_1_set(3, 0);
            (1, 3): qmod_1_set(0, 0);
            (2, 0): qmod_1_set(2, 1);
            (2, 1): qmod_1_set(3, 0);
            (2, 2): qmod_1_set(0, 0);
            (2, 3): qmod_1_set(1, 0);
            (3, 0): qmod_1_set(3, 1);
            (3, 1): qmod_1_set(0, 0);
            (3, 2): qmod_1_set(1, 0);
            (3, 3): qmod_1_set(2, 0);
        }
        size = 16;
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
        }
        size = 2;
    }
    Register<bit<8>, qidx_t>(512, 0) qstate_2;
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
            (1, 0): qmod_2_set(1, 1);
            (1, 1): qmod_2_set(2, 0);
            (1, 2): qmod_2_set(3, 0);
            (1, 3): qmod_2_set(0, 0);
            (2, 0): qmod_2_set(2, 1);
            (2, 1): qmod_2_set(3, 0);
            (2, 2): qmod_2_set(0, 0);
            (2, 3): qmod_2_set(1, 0);
            (3, 0): qmod_2_set(3, 1);
            (3, 1): qmod_2_set(0, 0);
            (3, 2): qmod_2_set(1, 0);
            (3, 3): qmod_2_set(2, 0);
        }
        size = 16;
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
        }
        size = 2;
    }
    Register<bit<8>, qidx_t>(512, 0) qstate_3;
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
    /* slot 3 (the SSRR hop): queue = (active + wait) mod Q by one table keyed by both (no
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
            (1, 0): qmod_3_set(1, 1);
            (1, 1): qmod_3_set(2, 0);
            (1, 2): qmod_3_set(3, 0);
            (1, 3): qmod_3_set(0, 0);
            (2, 0): qmod_3_set(2, 1);
            (2, 1): qmod_3_set(3, 0);
            (2, 2): qmod_3_set(0, 0);
            (2, 3): qmod_3_set(1, 0);
            (3, 0): qmod_3_set(3, 1);
            (3, 1): qmod_3_set(0, 0);
            (3, 2): qmod_3_set(1, 0);
            (3, 3): qmod_3_set(2, 0);
        }
        size = 16;
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
        }
        size = 2;
    }

    /* The first usable slot wins (one ternary lookup over the slots' ok bits): URO
     * alternatives 0..K-1 in order, or the SSRR hop (slot 3; only one kind is in play). */
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
    action pick_none() { meta.have_dep = 0; }
    table choose {
        key = {
            meta.alt_ok_0: ternary;
            meta.alt_ok_1: ternary;
            meta.alt_ok_2: ternary;
            meta.alt_ok_3: ternary;
        }
        actions = { pick_0; pick_1; pick_2; pick_3; @defaultonly pick_none; }
        default_action = pick_none();
        const entries = {
            (1, _, _, _): pick_0();
            (0, 1, _, _): pick_1();
            (0, 0, 1, _): pick_2();
            (0, 0, 0, 1): pick_3();
        }
        size = 4;
    }

    /* the alternatives in play: skip <= r < n (one lookup instead of range tests per slot) */
    action slots_in_play(bit<1> c0, bit<1> c1, bit<1> c2) {
        meta.alt_c_0 = c0;
        meta.alt_c_1 = c1;
        meta.alt_c_2 = c2;
    }
    table slot_range {
        key = {
            meta.skip:   exact;
            meta.n_alts: exact;
        }
        actions = { slots_in_play; }
        default_action = slots_in_play(0, 0, 0);
        const entries = {
            (0, 1): slots_in_play(1, 0, 0);
            (0, 2): slots_in_play(1, 1, 0);
            (0, 3): slots_in_play(1, 1, 1);
            (1, 2): slots_in_play(0, 1, 0);
            (1, 3): slots_in_play(0, 1, 1);
            (2, 3): slots_in_play(0, 0, 1);
        }
        size = 6;
    }

    /* ---- admission: units booked per (uplink, queue) since the queue last drained ------
     * `f` is how far the queue's slice is booked. A packet is admitted only if it fits the
     * slice's capacity (CAP_UNITS); for the active queue the time already gone (e_floor) is
     * booked first: a queue idle until now starts there, charged one full frame
     * (conservative: a stateful ALU takes two operands). A later queue has no time gone:
     * its own RegisterAction on the same register (one access per packet either way). */
    Register<units_t, qidx_t>(512, 0) qfin_reg;
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
    action elapsed_ns() { meta.elapsed = meta.now - meta.slice_start; }
    action elapsed_quanta() { meta.elapsed = meta.elapsed >> 3; }
    action wire_a() {
        meta.body = hdr.ipv4.totalLen + FRAME_OVERHEAD;
        meta.wire_g = hdr.ipv4.totalLen + (FRAME_OVERHEAD + GROWTH_BYTES);
    }
    action wire_b() {
        meta.len = meta.body >> 0;
        meta.len_g = meta.wire_g >> 0;
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
    action hop_rank_set(bit<16> d) { meta.alt_wait_3 = d; }
    table hop_rank {
        key = {
            meta.hop_slice: exact;
            meta.cur_slice: exact;
        }
        actions = { hop_rank_set; }
        const entries = {
            (0, 0): hop_rank_set(0);
            (0, 1): hop_rank_set(3);
            (0, 2): hop_rank_set(2);
            (0, 3): hop_rank_set(1);
            (1, 0): hop_rank_set(1);
            (1, 1): hop_rank_set(0);
            (1, 2): hop_rank_set(3);
            (1, 3): hop_rank_set(2);
            (2, 0): hop_rank_set(2);
            (2, 1): hop_rank_set(1);
            (2, 2): hop_rank_set(0);
            (2, 3): hop_rank_set(3);
            (3, 0): hop_rank_set(3);
            (3, 1): hop_rank_set(2);
            (3, 2): hop_rank_set(1);
            (3, 3): hop_rank_set(0);
        }
        size = 16;
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
            (0, 1): hop_el_set(3);
            (0, 2): hop_el_set(2);
            (0, 3): hop_el_set(1);
            (1, 0): hop_el_set(1);
            (1, 1): hop_el_set(0);
            (1, 2): hop_el_set(3);
            (1, 3): hop_el_set(2);
            (2, 0): hop_el_set(2);
            (2, 1): hop_el_set(1);
            (2, 2): hop_el_set(0);
            (2, 3): hop_el_set(3);
            (3, 0): hop_el_set(3);
            (3, 1): hop_el_set(2);
            (3, 2): hop_el_set(1);
            (3, 3): hop_el_set(0);
        }
        size = 16;
    }

    /* missed: rank + el >= S (a table of those pairs: no arithmetic on the way to the pick) */
    action hop_late() { meta.hop_missed = 1; }
    table hop_missed {
        key = {
            meta.alt_wait_3: exact @name("rank");
            meta.hop_el: exact @name("el");
        }
        actions = { hop_late; NoAction; }
        default_action = NoAction();
        const entries = {
            (1, 3): hop_late();
            (2, 2): hop_late();
            (2, 3): hop_late();
            (3, 1): hop_late();
            (3, 2): hop_late();
            (3, 3): hop_late();
        }
        size = 6;
    }
    action hop_slot0() { meta.alt_up_3 = meta.hop_uplink; }
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
        }
        size = 4;
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
        meta.now = ig_prsr_md.global_tstamp[31:0];   // the time every reader but bound_tick takes (fragments/t2na/clock.p4.j2)
        config.apply();
        port_role.apply();                       // after config: an uplink's stamp replaces its generation
        clock_config.apply();
        liveness_config.apply();
        /* ---- the clock: the timer's first packet checks the next boundary (and ticks the
         * clock when it has been reached); the trigger's other packets learn whether it did;
         * a clock update moves or sets it; everything else reads it. (The conditions are on
         * headers, so that the registers' stages follow one another without tables between
         * them.) ---- */
        if (hdr.pg_timer.isValid() && hdr.pg_timer.batch_id == 0 && hdr.pg_timer.packet_id == 0) {
            meta.clk_crossed = (bit<1>)bound_tick.execute(0, meta.live_s32);
        } else if (hdr.clock_upd.isValid() && hdr.clock_upd.kind == CU_ADJ) {
            bound_adjust.execute(0);
        } else {
            meta.cur_slice = (slice_t)bound_read.execute(0, meta.clk_next);
        }
        len_access.apply();     // the timer's rate; a REQ's or a sync frame's phase; the servo's rate step
        tick_access.apply();                     // the trigger noted, or whether it ticked
        if (meta.clk_crossed == 1) {
            meta.clk_k = k_tick.execute(0);
        } else {
            meta.clk_k = k_read.execute(0);
        }
        if (meta.clk_crossed == 1) {
            meta.active_q = active_tick.execute(0);
            meta.epoch = epoch_tick.execute(0);
            start_stamp.execute(0);
            meta.ev = meta.ev | EV_TIMER;
        } else {
            meta.active_q = active_read.execute(0);
            meta.epoch = epoch_read.execute(0);
            meta.slice_start = start_read.execute(0);
        }

        if (hdr.pg_timer.isValid()) {
            if (hdr.pg_timer.batch_id == 0 && meta.clk_mode == CLOCK_SYNC
                && (meta.clk_crossed == 1 || meta.clk_noted == 1)) {
                live_judge_cell.apply();
            }

            /* ---- timer batch: one AFC word per packet if this trigger ticked the clock;
             * never forwarded ------------------------------------------------------------ */
            if (meta.clk_crossed == 1 || meta.clk_noted == 1) {
                timer_afc.apply();
            }
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

                    meta.q_op = Q_CLEAR;
                }
                }
            }
            if (meta.clk_crossed == 1) {
                rate_adjust();
                if (meta.u_arg != 0) {
                    clock_update();
                }
            }

            if (meta.clk_mode == CLOCK_SYNC && hdr.pg_timer.batch_id == 1 && meta.clk_noted == 0) {
                sync_req.apply();
            }
            if (meta.sync_out == 1) {
                ig_tm_md.qid = (QueueId_t)meta.active_q[6:0];
                hdr.bridge.setValid();
                hdr.bridge.type = PKT_REQ;
                hdr.bridge_sync.setValid();
                hdr.bridge_sync.k = meta.clk_k;
                hdr.bridge_sync.next = meta.clk_next;
                hdr.bridge_sync.len = meta.s_len;
                hdr.bridge_sync.slice = (bit<8>)meta.cur_slice;
                hdr.bridge_sync.wait = meta.clk_wait;
                hdr.bridge_req.setValid();
                hdr.bridge_req.my_tor = (bit<16>)meta.clk_my_tor;
                hdr.bridge_req.uplink = meta.in_uplink;
                hdr.bridge_req.window_lo = meta.clk_window_lo;
                hdr.bridge_req.window_hi = meta.clk_window_hi;
                hdr.bridge_req.every = meta.clk_every;
            } else {
                ig_dprsr_md.drop_ctl = 1;
            }

        } else if (hdr.pg_port_down.isValid()) {
            /* ---- port-down app: the uplink is down from the next packet on ------------ */
            down_port.apply();
            if (meta.down_bit != 0) {
                link_down_set.execute(0);
                meta.alt_i_0 = meta.t_qidx;
                meta.alt_i_1 = meta.t_qidx;
                meta.alt_i_2 = meta.t_qidx;
                meta.alt_i_3 = meta.t_qidx;

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

                meta.q_op = Q_SET;
                meta.ev = EV_QSTATE_FULL;
            }
            ig_dprsr_md.drop_ctl = 1;
        } else if (hdr.clock_upd.isValid()) {
            /* ---- a clock update (clock_upd_t from the recirculation port): done ---- */
            if (hdr.clock_upd.why != 0) {        // a RESP's servo: its reason, counted once
                meta.sync_why = hdr.clock_upd.why;
                meta.sync_cnt = 1;
            }
            ig_dprsr_md.drop_ctl = 1;

        } else if (hdr.ethernet.isValid() && hdr.ethernet.etherType == ETHERTYPE_SYNC) {
            /* ---- a sync frame: counted once under its reason, never forwarded but as a RESP ---- */
            sync_peer.apply();
            live_hear_cell.apply();                                     // the circuit it came over
            meta.sync_why = (bit<8>)SYNC_MALFORMED;
            meta.sync_out = 0;
            meta.sync_cnt = 1;
            if (meta.role == ROLE_HOST) {
                meta.sync_why = (bit<8>)SYNC_FROM_HOST;                 // hosts cannot move the clock
            } else if (meta.role == ROLE_UPLINK && hdr.sync.isValid() && ig_prsr_md.parser_err == 0) {
                /* (a frame shorter than the header: the parser flags PARTIAL_HDR and extracts
                 * it valid, what follows the frame's end read as padding -- malformed) */
                if (meta.clk_mode != CLOCK_SYNC) {
                    if (hdr.sync.op == SYNC_OP_REQ || hdr.sync.op == SYNC_OP_RESP) {
                        meta.sync_why = (bit<8>)SYNC_OFF;               // timer mode
                    }
                } else if (hdr.sync.op == SYNC_OP_REQ) {
                    if (hdr.sync.flags[0:0] == 1) {             // SYNC_FLAG_REF
                        meta.sync_why = (bit<8>)SYNC_WRONG_DST;         // a ToR is not the reference
                    } else if (meta.peer_hit == 0 || hdr.sync.src_tor != meta.peer) {
                        meta.sync_why = (bit<8>)SYNC_WRONG_PEER;        // not on this slice's circuit
                        if (hdr.sync.stratum != STRATUM_UNSYNCED) {
                            meta.live_op = LIVE_STRAY;
                        }

                    } else if (hdr.sync.dst_tor != meta.clk_my_tor
                               && !(hdr.sync.dst_tor == SYNC_ANY_TOR && hdr.sync.flags[1:1] == 1)) {
                        meta.sync_why = (bit<8>)SYNC_WRONG_DST;
                        meta.live_op = LIVE_HEAR;                       // the schedule's peer: heard
                    } else {
                        meta.live_op = LIVE_HEAR;
                        /* the RESP: t1 stays (the requester's), t2 now, t3 in egress, and the
                         * stratum there (stratum_reg; BOOT stays only while it is 255). The
                         * t2na ToR keeps no term or lead. */
                        hdr.sync.op = SYNC_OP_RESP;
                        hdr.sync.flags = SYNC_FLAG_BOOT;
                        hdr.sync.dst_tor = hdr.sync.src_tor;
                        hdr.sync.src_tor = meta.clk_my_tor;
                        hdr.sync.uplink = (bit<8>)meta.in_uplink;
                        hdr.sync.stratum = STRATUM_UNSYNCED;
                        hdr.sync.term = 0;
                        hdr.sync.lead = 0;
                        hdr.sync.lead_k = 0;
                        hdr.sync.reserved = 0;
                        hdr.sync.aux = 0;
                        hdr.sync.t2_k = meta.clk_k;
                        sync_ph_a();
                        sync_ph_b();
                        ig_tm_md.ucast_egress_port = ig_intr_md.ingress_port;
                        ig_tm_md.qid = (QueueId_t)meta.active_q[6:0];   // this slice's calendar queue: the circuit of this slice
                        hdr.bridge.setValid();
                        hdr.bridge.type = PKT_SYNC;
                        hdr.bridge_sync.setValid();
                        hdr.bridge_sync.k = meta.clk_k;
                        hdr.bridge_sync.next = meta.clk_next;
                        hdr.bridge_sync.len = meta.s_len;
                        hdr.bridge_sync.slice = (bit<8>)meta.cur_slice;
                        hdr.bridge_sync.wait = meta.clk_wait;
                        meta.sync_out = 1;
                        meta.sync_why = (bit<8>)SYNC_RESP_SENT;
                    }

                } else if (hdr.sync.op == SYNC_OP_RESP) {
                    if (hdr.sync.flags[0:0] == 1) {             // SYNC_FLAG_REF: the reference's answer
                        if (hdr.sync.src_tor != SYNC_REF_TOR) {
                            meta.sync_why = (bit<8>)SYNC_WRONG_PEER;
                        }
                    } else if (meta.peer_hit == 0 || hdr.sync.src_tor != meta.peer) {
                        meta.sync_why = (bit<8>)SYNC_WRONG_PEER;        // not on this slice's circuit
                        if (hdr.sync.stratum != STRATUM_UNSYNCED) {
                            meta.live_op = LIVE_STRAY;
                        }

                    } else {
                        meta.live_op = LIVE_HEAR;                       // the schedule's peer: heard
                    }
                    if (meta.sync_why != (bit<8>)SYNC_WRONG_PEER) {
                        if (hdr.sync.dst_tor != meta.clk_my_tor) {
                            meta.sync_why = (bit<8>)SYNC_WRONG_DST;
                        } else {
                            sync_ph_a();
                            sync_t4();
                            sync_to_servo();
                            meta.sync_cnt = 0;                          // counted on its second pass
                        }
                    }

                }
            }
            if (meta.sync_out == 0) {
                ig_dprsr_md.drop_ctl = 1;
            }

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
                if (wrong_tor == 0) { meta.alt_c_3 = 1; }
                /* slot 3: queue (active + wait) mod Q and its index; eligible if in play and,
                 * for the active queue, the packet fits what is left of the slice (beside the
                 * register read, see ops()), and its uplink is not masked down in the config */
                qmod_3.apply();
                slot_3_i();
                down_3.apply();
                if (meta.alt_c_3 == 1 && meta.alt_dn_3 == 0 && (meta.alt_act_3 == 0 || meta.fits_ssrr == 1)) { meta.alt_pre_3 = 1; }

            }
        }

        live_access.apply();                     // heard, another ToR heard, or a judgment
        if (meta.live_j == 1) {
            live_cmp();
            live_decide.apply();
            live_mark_set.execute(meta.live_i);
            liveness.count(meta.live_cnt);
            if (meta.live_set == 1) {            // marked down: the queue that serves it stays Full
                meta.alt_i_0 = meta.t_qidx;
                meta.alt_i_1 = meta.t_qidx;
                meta.alt_i_2 = meta.t_qidx;
                meta.alt_i_3 = meta.t_qidx;
                meta.q_op = Q_SET;
            }
        }

        /* ---- the queue-state copies: each packet's one access per copy --------------- */
        qstate_0_op.apply();
        qstate_1_op.apply();
        qstate_2_op.apply();
        qstate_3_op.apply();

        if (front == 1) {
            /* ---- a front-panel packet, part 2: the checks, the one-shot pick, admission -- */
            /* ok = eligible & Unfull: one AND per slot, no branch after the register read */
            slot_0_ok();
            slot_1_ok();
            slot_2_ok();
            slot_3_ok();

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
                    hdr.hops[3].setInvalid();
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
        if (meta.sync_cnt == 1) {
            sync.count(meta.sync_why);
        }
    }
}

Pipeline(UroIngressParser(), UroIngress(), UroIngressDeparser(),
         UroEgressParser(), UroEgress(), UroEgressDeparser()) pipe;
Switch(pipe) main;
