/*
 * uro ToR program for bmv2 (v1model, simple_switch_grpc) -- GENERATED, do not edit.
 * Rendered from templates/tor_v1model.p4.j2 for profile "r1024x32" by controller.p4gen.
 *
 * Pipeline (one ToR of a time-sliced optical DCN):
 *   timer packets, only from the CPU port (P4Runtime PacketOut) -> slice clock (never forwarded)
 *   config (the table default): no entry -> everything but timers dropped and counted
 *   edge checks: malformed IPv4, bad checksum, SSRR from a host -> dropped and counted
 *   IPv4: dst IP -> dst ToR | local host port
 *         route_mode(gen, dst ToR) -> URO per-hop one-shot lookup | UCMP SSRR source route
 *         SSRR in transit: take the hop at the pointer in its send slice (a hop that
 *         names another ToR crossed a slice boundary: re-sourced here);
 *         late, Full or on a failed uplink -> re-sourced from this ToR (UCMP §6.3)
 *   calendar queues: a packet is admitted only if it fits the slice's remaining bytes;
 *   departure in the current slice -> out now; in a later slice -> held by
 *   recirculation until the slice clock reaches it; slice missed -> routed again from
 *   the current slice; held longer than one cycle -> dropped.
 *   One route generation serves the packet in the whole network: its source ToR stamps
 *   it into the IPv4 header's reserved flag bit, every other ToR routes by the stamp
 *   (a stamp not live here: dropped and counted), the destination ToR clears it. Every drop reason and reroute is counted (`drops`, `events`).
 */
#include <core.p4>
#include <v1model.p4>

/* ---- constants and types (profile r1024x32) -------------------------------------
 * N = 1024 ToRs, d = 32 uplinks, 16 host ports,
 * S = 32 slices, K = 10 alternatives, H = 5 SSRR hops,
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
const bit<16> ETHERTYPE_TIMER = 0x88B5;   // slice timer packets, never forwarded
const bit<16> TIMER_FLAG_SYNC = 1;     // set the clock to this slice whatever the step
const bit<9>  CPU_PORT = 510;             // simple_switch_grpc --cpu-port: P4Runtime PacketOut enters here
const bit<8>  OPCODE_TIMER = 0;          // packet_out.opcode of a timer
const bit<32> DEFAULT_MAX_TIMER_STEP = 2;   // before the config entry says otherwise
/* Guard at the start of every slice (the schedule's reconfiguration guard, timing.guard_us):
 * nothing departs before slice start + guard, so a packet released at the start of a
 * slice reaches the next ToR after that ToR's timer too, and the OCS has moved (the
 * timers reach the switches one after another: docs/emulate.md "Skew"). */
const bit<48> SLICE_GUARD_US = 0;

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
    packet_out_t packet_out;
    ethernet_t ethernet;
    timer_t    timer;
    ipv4_t     ipv4;
    ssrr_t     ssrr;
    ssrr_hop_t[5] hops;
    l4_ports_t l4;
}

/* ---- metadata ------------------------------------------------------------------------ */
struct metadata_t {
    /* carried across recirculation (field list 1): what one packet's stay at this ToR keeps */
    @field_list(1) bit<1>   recirculated;  // not the packet's first pass here
    @field_list(1) bit<1>   gen;           // route generation of the packet: stamped at its source ToR
    @field_list(1) bit<1>   held;          // waiting in a calendar queue for its departure slice
    @field_list(1) bit<1>   redecide;      // the next pass decides again from this ToR
    @field_list(1) bit<8>   reroutes;      // re-decisions so far (bounded by MAX_REROUTES)
    @field_list(1) uplink_t hold_uplink;
    @field_list(1) bit<32>  hold_wait;     // slices between admission and departure (the rank)
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
    uplink_t alt_up_3;
    slice_t  alt_sl_3;
    uplink_t alt_up_4;
    slice_t  alt_sl_4;
    uplink_t alt_up_5;
    slice_t  alt_sl_5;
    uplink_t alt_up_6;
    slice_t  alt_sl_6;
    uplink_t alt_up_7;
    slice_t  alt_sl_7;
    uplink_t alt_up_8;
    slice_t  alt_sl_8;
    uplink_t alt_up_9;
    slice_t  alt_sl_9;
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
}

/* ---- parser ---------------------------------------------------------------------------
 * [packet_out from the CPU port ->] Ethernet -> timer | IPv4 [-> NOP + SSRR option + hops]
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
        pkt.emit(hdr.packet_out);    // never valid on the way out: timers are not forwarded
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.timer);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ssrr);
        pkt.emit(hdr.hops);
        pkt.emit(hdr.l4);
    }
}

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
              hdr.hops[3].next_tor, hdr.hops[3].uplink, hdr.hops[3].send_slice,
              hdr.hops[4].next_tor, hdr.hops[4].uplink, hdr.hops[4].send_slice },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control UroIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t sm) {
    /* drop reasons: no_route, all_full, held_too_long, bad_ssrr, ttl, malformed, not_ipv4, bad_timer, unconfigured, bad_checksum, reroute_limit, stale_gen */
    counter(12, CounterType.packets) drops;
    /* events: reroute_missed, reroute_spill, timer, ssrr_written, ssrr_transit, timer_sync, timer_rejected, ssrr_resourced, ssrr_missed, uplink_down, gen_other, ssrr_deferred, ssrr_misdelivered */
    counter(13, CounterType.packets) events;
    /* source routes written here for packets from hosts, by UCMP bucket and hop count:
     * b0h1 .. b63h5 (cell bucket * 5 + hops - 1) */
    counter(320, CounterType.packets) ssrr_paths;

    /* ---- slice clock (advanced by timer packets) and calendar-queue state ---------- */
    register<slice_t>(1) slice_reg;       // current slice id
    register<bit<32>>(1) epoch_reg;       // slices elapsed (for hold bookkeeping)
    register<bit<32>>(1) active_q_reg;    // calendar queue of the current slice
    register<bit<48>>(1) slice_start_reg; // when the current slice started (us)
    register<qstate_t>(1) qstate_reg;     // Full bit per (uplink, queue): bit uplink*Q + queue
    register<bit<32>>(1024) qbytes_reg;  // byte position the queue drains at
    register<bit<32>>(1024) qtag_reg;    // departure epoch that position belongs to

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

    /* ---- URO per-hop table: (generation, arrival slice, dst ToR) -> K (uplink, departure slice) ---- */
    action set_alternatives(bit<8> n, uplink_t up0, slice_t slice0, uplink_t up1, slice_t slice1, uplink_t up2, slice_t slice2, uplink_t up3, slice_t slice3, uplink_t up4, slice_t slice4, uplink_t up5, slice_t slice5, uplink_t up6, slice_t slice6, uplink_t up7, slice_t slice7, uplink_t up8, slice_t slice8, uplink_t up9, slice_t slice9) {
        meta.n_alts = n;
        meta.alt_up_0 = up0;
        meta.alt_sl_0 = slice0;
        meta.alt_up_1 = up1;
        meta.alt_sl_1 = slice1;
        meta.alt_up_2 = up2;
        meta.alt_sl_2 = slice2;
        meta.alt_up_3 = up3;
        meta.alt_sl_3 = slice3;
        meta.alt_up_4 = up4;
        meta.alt_sl_4 = slice4;
        meta.alt_up_5 = up5;
        meta.alt_sl_5 = slice5;
        meta.alt_up_6 = up6;
        meta.alt_sl_6 = slice6;
        meta.alt_up_7 = up7;
        meta.alt_sl_7 = slice7;
        meta.alt_up_8 = up8;
        meta.alt_sl_8 = slice8;
        meta.alt_up_9 = up9;
        meta.alt_sl_9 = slice9;
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
    action write_path(bit<8> n, tor_t tor0, uplink_t up0, slice_t slice0, tor_t tor1, uplink_t up1, slice_t slice1, tor_t tor2, uplink_t up2, slice_t slice2, tor_t tor3, uplink_t up3, slice_t slice3, tor_t tor4, uplink_t up4, slice_t slice4) {
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
        hdr.hops[4].setValid();
        hdr.hops[4].next_tor = tor4;
        hdr.hops[4].uplink = up4;
        hdr.hops[4].send_slice = slice4;
    }
    /* members: (N-1) x S x tables.ssrr_paths per generation, groups of at most tables.ssrr_ties */
    @max_group_size(8) action_selector(HashAlgorithm.crc16, 32w392832, 32w14) ssrr_selector;
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
        size = 196416;
    }

    apply {
        meta.have_dep = 0;
        meta.dep_alt = 255;
        meta.tried_full = 0;
        meta.saw_down = 0;
        meta.max_step = DEFAULT_MAX_TIMER_STEP;
        config.apply();
        /* bmv2 zeroes the ingress time of a recirculated packet: use its last egress time */
        meta.now = (meta.recirculated == 1) ? meta.recirc_ts : sm.ingress_global_timestamp;
        meta.out_len = sm.packet_length;
        /* Read the clock once per pass. */
        slice_reg.read(meta.cur_slice, 0);
        epoch_reg.read(meta.epoch, 0);
        active_q_reg.read(meta.active_q, 0);
        slice_start_reg.read(meta.slice_start, 0);

        /* Timer channel (see fragments/timer.p4.j2). An applied timer moves the clock by
         * delta slices: the calendar queues of the slices that ended have drained, so
         * their Full bits are cleared on every uplink (their byte positions are dropped
         * lazily: the next admission sees a different departure epoch in qtag_reg), and
         * the new slice starts now (the active queue's byte clock). */
        if (sm.ingress_port == CPU_PORT) {
            if (hdr.packet_out.isValid() && hdr.packet_out.opcode == OPCODE_TIMER && hdr.timer.isValid()) {
                bit<32> delta = (bit<32>)hdr.timer.slice + NUM_SLICES - (bit<32>)meta.cur_slice;
                if (delta >= NUM_SLICES) { delta = delta - NUM_SLICES; }
                bit<1> sync = ((hdr.timer.flags & TIMER_FLAG_SYNC) != 0) ? 1w1 : 1w0;
                if ((bit<32>)hdr.timer.slice >= NUM_SLICES) {
                    events.count(EVENT_TIMER_REJECTED);   // no such slice
                } else if (sync == 0 && (delta == 0 || delta > meta.max_step)) {
                    events.count(EVENT_TIMER_REJECTED);   // duplicate, backwards or too far
                } else {
                    if (delta != 0) {
                        bit<32> new_active = meta.active_q + delta;
                        if (new_active >= NUM_QUEUES) { new_active = new_active - NUM_QUEUES; }
                        /* queues active_q .. active_q + delta - 1 (mod Q) drained */
                        bit<64> run = (((bit<64>)1 << (bit<8>)delta) - 1) << (bit<8>)meta.active_q;
                        bit<32> drained = run[31:0] | run[63:32];
                        /* the same drained queues on every uplink: d copies side by side */
                        qstate_t clear = drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained ++ drained;
                        qstate_reg.read(meta.qstate, 0);
                        qstate_reg.write(0, meta.qstate & ~clear);
                        slice_reg.write(0, (slice_t)hdr.timer.slice);
                        epoch_reg.write(0, meta.epoch + delta);
                        active_q_reg.write(0, new_active);
                    }
                    slice_start_reg.write(0, meta.now);

                    if (sync == 1) {
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
                exit;                            // not yet: around again (egress recirculates)
            } else if (elapsed == meta.hold_wait) {
                if (meta.now < meta.slice_start + SLICE_GUARD_US) {
                    meta.held = 1;               // its slice, but in the guard at its start: not yet
                    exit;
                }
                /* its slice: out on the uplink, unless its circuit now leads to a dead ToR */
                bit<32> dpos = (bit<32>)meta.cur_slice * NUM_UPLINKS + (bit<32>)meta.hold_uplink;
                bit<1> dead;
                {
                    bit<256> chunk = 0;
                    if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                    else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                    else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                    else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                    dead = (bit<1>)(chunk >> (bit<8>)dpos);
                }

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
                    hdr.hops[4].setInvalid();
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
                    else if (meta.hop_idx == 4) {
                        meta.hop_next_tor = hdr.hops[4].next_tor;
                        meta.hop_uplink = hdr.hops[4].uplink;
                        meta.hop_slice = hdr.hops[4].send_slice;
                        meta.prev_next_tor = hdr.hops[3].next_tor;
                        meta.prev_slice = hdr.hops[3].send_slice;
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
                {
                    bit<256> chunk = 0;
                    if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                    else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                    else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                    else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                    full = (bit<1>)(chunk >> (bit<8>)pos);
                }

                bit<1> down;
                down = (bit<1>)(meta.down >> (bit<8>)meta.hop_uplink);

                /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                bit<32> dpos = (bit<32>)meta.hop_slice * NUM_UPLINKS + (bit<32>)meta.hop_uplink;
                bit<1> dead;
                {
                    bit<256> chunk = 0;
                    if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                    else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                    else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                    else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                    dead = (bit<1>)(chunk >> (bit<8>)dpos);
                }

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
        } else if (meta.use_ssrr == 1) {
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
            if (meta.path_len == 0 || meta.path_len > 5) {
                drops.count(DROP_NO_ROUTE);
                mark_to_drop(sm);
                exit;
            }
            if (meta.path_len <= 1) { hdr.hops[1].setInvalid(); }
            if (meta.path_len <= 2) { hdr.hops[2].setInvalid(); }
            if (meta.path_len <= 3) { hdr.hops[3].setInvalid(); }
            if (meta.path_len <= 4) { hdr.hops[4].setInvalid(); }
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

            /* Take the hop: its uplink in its send slice (the pointer moves on admission). */
            /* hop 0 of the new path: usable if its uplink is up and its calendar queue Unfull */
            if (meta.have_dep == 0 && (bit<32>)meta.hop_uplink < NUM_UPLINKS && (bit<32>)meta.hop_slice < NUM_SLICES) {
                bit<32> rank = (bit<32>)meta.hop_slice + NUM_SLICES - (bit<32>)meta.cur_slice;
                if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                bit<32> q = meta.active_q + rank;
                if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                bit<32> pos = (bit<32>)meta.hop_uplink * NUM_QUEUES + q;
                bit<1> full;
                {
                    bit<256> chunk = 0;
                    if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                    else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                    else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                    else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                    full = (bit<1>)(chunk >> (bit<8>)pos);
                }

                bit<1> down;
                down = (bit<1>)(meta.down >> (bit<8>)meta.hop_uplink);

                /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                bit<32> dpos = (bit<32>)meta.hop_slice * NUM_UPLINKS + (bit<32>)meta.hop_uplink;
                bit<1> dead;
                {
                    bit<256> chunk = 0;
                    if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                    else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                    else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                    else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                    dead = (bit<1>)(chunk >> (bit<8>)dpos);
                }

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

        } else {
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
                    {
                        bit<256> chunk = 0;
                        if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                        else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                        else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                        else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                        full = (bit<1>)(chunk >> (bit<8>)pos);
                    }

                    bit<1> down;
                    down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_0);

                    /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                    bit<32> dpos = (bit<32>)meta.alt_sl_0 * NUM_UPLINKS + (bit<32>)meta.alt_up_0;
                    bit<1> dead;
                    {
                        bit<256> chunk = 0;
                        if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                        else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                        else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                        else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                        dead = (bit<1>)(chunk >> (bit<8>)dpos);
                    }

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
                    {
                        bit<256> chunk = 0;
                        if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                        else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                        else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                        else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                        full = (bit<1>)(chunk >> (bit<8>)pos);
                    }

                    bit<1> down;
                    down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_1);

                    /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                    bit<32> dpos = (bit<32>)meta.alt_sl_1 * NUM_UPLINKS + (bit<32>)meta.alt_up_1;
                    bit<1> dead;
                    {
                        bit<256> chunk = 0;
                        if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                        else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                        else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                        else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                        dead = (bit<1>)(chunk >> (bit<8>)dpos);
                    }

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
                    {
                        bit<256> chunk = 0;
                        if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                        else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                        else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                        else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                        full = (bit<1>)(chunk >> (bit<8>)pos);
                    }

                    bit<1> down;
                    down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_2);

                    /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                    bit<32> dpos = (bit<32>)meta.alt_sl_2 * NUM_UPLINKS + (bit<32>)meta.alt_up_2;
                    bit<1> dead;
                    {
                        bit<256> chunk = 0;
                        if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                        else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                        else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                        else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                        dead = (bit<1>)(chunk >> (bit<8>)dpos);
                    }

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
            if (meta.n_alts > 3) {
                /* alternative 3: usable if its uplink is up and its calendar queue Unfull */
                if (meta.have_dep == 0 && (bit<32>)meta.alt_up_3 < NUM_UPLINKS && (bit<32>)meta.alt_sl_3 < NUM_SLICES) {
                    bit<32> rank = (bit<32>)meta.alt_sl_3 + NUM_SLICES - (bit<32>)meta.cur_slice;
                    if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                    bit<32> q = meta.active_q + rank;
                    if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                    bit<32> pos = (bit<32>)meta.alt_up_3 * NUM_QUEUES + q;
                    bit<1> full;
                    {
                        bit<256> chunk = 0;
                        if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                        else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                        else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                        else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                        full = (bit<1>)(chunk >> (bit<8>)pos);
                    }

                    bit<1> down;
                    down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_3);

                    /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                    bit<32> dpos = (bit<32>)meta.alt_sl_3 * NUM_UPLINKS + (bit<32>)meta.alt_up_3;
                    bit<1> dead;
                    {
                        bit<256> chunk = 0;
                        if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                        else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                        else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                        else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                        dead = (bit<1>)(chunk >> (bit<8>)dpos);
                    }

                    if (down == 1 || dead == 1) {
                        meta.saw_down = 1;           // a failed uplink counts as Full
                        meta.tried_full = 1;
                    } else if (full == 0) {
                        meta.have_dep = 1;
                        meta.dep_uplink = meta.alt_up_3;
                        meta.dep_slice = meta.alt_sl_3;
                        meta.dep_rank = rank;
                        meta.dep_queue = q;
                    } else {
                        meta.tried_full = 1;
                    }
                }

                if (meta.have_dep == 1 && meta.dep_alt == 255) { meta.dep_alt = 3; }
            }
            if (meta.n_alts > 4) {
                /* alternative 4: usable if its uplink is up and its calendar queue Unfull */
                if (meta.have_dep == 0 && (bit<32>)meta.alt_up_4 < NUM_UPLINKS && (bit<32>)meta.alt_sl_4 < NUM_SLICES) {
                    bit<32> rank = (bit<32>)meta.alt_sl_4 + NUM_SLICES - (bit<32>)meta.cur_slice;
                    if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                    bit<32> q = meta.active_q + rank;
                    if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                    bit<32> pos = (bit<32>)meta.alt_up_4 * NUM_QUEUES + q;
                    bit<1> full;
                    {
                        bit<256> chunk = 0;
                        if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                        else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                        else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                        else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                        full = (bit<1>)(chunk >> (bit<8>)pos);
                    }

                    bit<1> down;
                    down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_4);

                    /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                    bit<32> dpos = (bit<32>)meta.alt_sl_4 * NUM_UPLINKS + (bit<32>)meta.alt_up_4;
                    bit<1> dead;
                    {
                        bit<256> chunk = 0;
                        if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                        else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                        else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                        else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                        dead = (bit<1>)(chunk >> (bit<8>)dpos);
                    }

                    if (down == 1 || dead == 1) {
                        meta.saw_down = 1;           // a failed uplink counts as Full
                        meta.tried_full = 1;
                    } else if (full == 0) {
                        meta.have_dep = 1;
                        meta.dep_uplink = meta.alt_up_4;
                        meta.dep_slice = meta.alt_sl_4;
                        meta.dep_rank = rank;
                        meta.dep_queue = q;
                    } else {
                        meta.tried_full = 1;
                    }
                }

                if (meta.have_dep == 1 && meta.dep_alt == 255) { meta.dep_alt = 4; }
            }
            if (meta.n_alts > 5) {
                /* alternative 5: usable if its uplink is up and its calendar queue Unfull */
                if (meta.have_dep == 0 && (bit<32>)meta.alt_up_5 < NUM_UPLINKS && (bit<32>)meta.alt_sl_5 < NUM_SLICES) {
                    bit<32> rank = (bit<32>)meta.alt_sl_5 + NUM_SLICES - (bit<32>)meta.cur_slice;
                    if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                    bit<32> q = meta.active_q + rank;
                    if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                    bit<32> pos = (bit<32>)meta.alt_up_5 * NUM_QUEUES + q;
                    bit<1> full;
                    {
                        bit<256> chunk = 0;
                        if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                        else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                        else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                        else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                        full = (bit<1>)(chunk >> (bit<8>)pos);
                    }

                    bit<1> down;
                    down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_5);

                    /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                    bit<32> dpos = (bit<32>)meta.alt_sl_5 * NUM_UPLINKS + (bit<32>)meta.alt_up_5;
                    bit<1> dead;
                    {
                        bit<256> chunk = 0;
                        if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                        else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                        else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                        else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                        dead = (bit<1>)(chunk >> (bit<8>)dpos);
                    }

                    if (down == 1 || dead == 1) {
                        meta.saw_down = 1;           // a failed uplink counts as Full
                        meta.tried_full = 1;
                    } else if (full == 0) {
                        meta.have_dep = 1;
                        meta.dep_uplink = meta.alt_up_5;
                        meta.dep_slice = meta.alt_sl_5;
                        meta.dep_rank = rank;
                        meta.dep_queue = q;
                    } else {
                        meta.tried_full = 1;
                    }
                }

                if (meta.have_dep == 1 && meta.dep_alt == 255) { meta.dep_alt = 5; }
            }
            if (meta.n_alts > 6) {
                /* alternative 6: usable if its uplink is up and its calendar queue Unfull */
                if (meta.have_dep == 0 && (bit<32>)meta.alt_up_6 < NUM_UPLINKS && (bit<32>)meta.alt_sl_6 < NUM_SLICES) {
                    bit<32> rank = (bit<32>)meta.alt_sl_6 + NUM_SLICES - (bit<32>)meta.cur_slice;
                    if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                    bit<32> q = meta.active_q + rank;
                    if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                    bit<32> pos = (bit<32>)meta.alt_up_6 * NUM_QUEUES + q;
                    bit<1> full;
                    {
                        bit<256> chunk = 0;
                        if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                        else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                        else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                        else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                        full = (bit<1>)(chunk >> (bit<8>)pos);
                    }

                    bit<1> down;
                    down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_6);

                    /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                    bit<32> dpos = (bit<32>)meta.alt_sl_6 * NUM_UPLINKS + (bit<32>)meta.alt_up_6;
                    bit<1> dead;
                    {
                        bit<256> chunk = 0;
                        if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                        else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                        else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                        else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                        dead = (bit<1>)(chunk >> (bit<8>)dpos);
                    }

                    if (down == 1 || dead == 1) {
                        meta.saw_down = 1;           // a failed uplink counts as Full
                        meta.tried_full = 1;
                    } else if (full == 0) {
                        meta.have_dep = 1;
                        meta.dep_uplink = meta.alt_up_6;
                        meta.dep_slice = meta.alt_sl_6;
                        meta.dep_rank = rank;
                        meta.dep_queue = q;
                    } else {
                        meta.tried_full = 1;
                    }
                }

                if (meta.have_dep == 1 && meta.dep_alt == 255) { meta.dep_alt = 6; }
            }
            if (meta.n_alts > 7) {
                /* alternative 7: usable if its uplink is up and its calendar queue Unfull */
                if (meta.have_dep == 0 && (bit<32>)meta.alt_up_7 < NUM_UPLINKS && (bit<32>)meta.alt_sl_7 < NUM_SLICES) {
                    bit<32> rank = (bit<32>)meta.alt_sl_7 + NUM_SLICES - (bit<32>)meta.cur_slice;
                    if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                    bit<32> q = meta.active_q + rank;
                    if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                    bit<32> pos = (bit<32>)meta.alt_up_7 * NUM_QUEUES + q;
                    bit<1> full;
                    {
                        bit<256> chunk = 0;
                        if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                        else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                        else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                        else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                        full = (bit<1>)(chunk >> (bit<8>)pos);
                    }

                    bit<1> down;
                    down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_7);

                    /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                    bit<32> dpos = (bit<32>)meta.alt_sl_7 * NUM_UPLINKS + (bit<32>)meta.alt_up_7;
                    bit<1> dead;
                    {
                        bit<256> chunk = 0;
                        if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                        else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                        else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                        else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                        dead = (bit<1>)(chunk >> (bit<8>)dpos);
                    }

                    if (down == 1 || dead == 1) {
                        meta.saw_down = 1;           // a failed uplink counts as Full
                        meta.tried_full = 1;
                    } else if (full == 0) {
                        meta.have_dep = 1;
                        meta.dep_uplink = meta.alt_up_7;
                        meta.dep_slice = meta.alt_sl_7;
                        meta.dep_rank = rank;
                        meta.dep_queue = q;
                    } else {
                        meta.tried_full = 1;
                    }
                }

                if (meta.have_dep == 1 && meta.dep_alt == 255) { meta.dep_alt = 7; }
            }
            if (meta.n_alts > 8) {
                /* alternative 8: usable if its uplink is up and its calendar queue Unfull */
                if (meta.have_dep == 0 && (bit<32>)meta.alt_up_8 < NUM_UPLINKS && (bit<32>)meta.alt_sl_8 < NUM_SLICES) {
                    bit<32> rank = (bit<32>)meta.alt_sl_8 + NUM_SLICES - (bit<32>)meta.cur_slice;
                    if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                    bit<32> q = meta.active_q + rank;
                    if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                    bit<32> pos = (bit<32>)meta.alt_up_8 * NUM_QUEUES + q;
                    bit<1> full;
                    {
                        bit<256> chunk = 0;
                        if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                        else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                        else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                        else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                        full = (bit<1>)(chunk >> (bit<8>)pos);
                    }

                    bit<1> down;
                    down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_8);

                    /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                    bit<32> dpos = (bit<32>)meta.alt_sl_8 * NUM_UPLINKS + (bit<32>)meta.alt_up_8;
                    bit<1> dead;
                    {
                        bit<256> chunk = 0;
                        if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                        else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                        else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                        else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                        dead = (bit<1>)(chunk >> (bit<8>)dpos);
                    }

                    if (down == 1 || dead == 1) {
                        meta.saw_down = 1;           // a failed uplink counts as Full
                        meta.tried_full = 1;
                    } else if (full == 0) {
                        meta.have_dep = 1;
                        meta.dep_uplink = meta.alt_up_8;
                        meta.dep_slice = meta.alt_sl_8;
                        meta.dep_rank = rank;
                        meta.dep_queue = q;
                    } else {
                        meta.tried_full = 1;
                    }
                }

                if (meta.have_dep == 1 && meta.dep_alt == 255) { meta.dep_alt = 8; }
            }
            if (meta.n_alts > 9) {
                /* alternative 9: usable if its uplink is up and its calendar queue Unfull */
                if (meta.have_dep == 0 && (bit<32>)meta.alt_up_9 < NUM_UPLINKS && (bit<32>)meta.alt_sl_9 < NUM_SLICES) {
                    bit<32> rank = (bit<32>)meta.alt_sl_9 + NUM_SLICES - (bit<32>)meta.cur_slice;
                    if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                    bit<32> q = meta.active_q + rank;
                    if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                    bit<32> pos = (bit<32>)meta.alt_up_9 * NUM_QUEUES + q;
                    bit<1> full;
                    {
                        bit<256> chunk = 0;
                        if ((pos >> 8) == 0) { chunk = (bit<256>)meta.qstate[255:0]; }
                        else if ((pos >> 8) == 1) { chunk = (bit<256>)meta.qstate[511:256]; }
                        else if ((pos >> 8) == 2) { chunk = (bit<256>)meta.qstate[767:512]; }
                        else if ((pos >> 8) == 3) { chunk = (bit<256>)meta.qstate[1023:768]; }
                        full = (bit<1>)(chunk >> (bit<8>)pos);
                    }

                    bit<1> down;
                    down = (bit<1>)(meta.down >> (bit<8>)meta.alt_up_9);

                    /* its (slice, uplink) leads to a dead ToR (FRANCIS §4.3): down as well */
                    bit<32> dpos = (bit<32>)meta.alt_sl_9 * NUM_UPLINKS + (bit<32>)meta.alt_up_9;
                    bit<1> dead;
                    {
                        bit<256> chunk = 0;
                        if ((dpos >> 8) == 0) { chunk = (bit<256>)meta.dead[255:0]; }
                        else if ((dpos >> 8) == 1) { chunk = (bit<256>)meta.dead[511:256]; }
                        else if ((dpos >> 8) == 2) { chunk = (bit<256>)meta.dead[767:512]; }
                        else if ((dpos >> 8) == 3) { chunk = (bit<256>)meta.dead[1023:768]; }
                        dead = (bit<1>)(chunk >> (bit<8>)dpos);
                    }

                    if (down == 1 || dead == 1) {
                        meta.saw_down = 1;           // a failed uplink counts as Full
                        meta.tried_full = 1;
                    } else if (full == 0) {
                        meta.have_dep = 1;
                        meta.dep_uplink = meta.alt_up_9;
                        meta.dep_slice = meta.alt_sl_9;
                        meta.dep_rank = rank;
                        meta.dep_queue = q;
                    } else {
                        meta.tried_full = 1;
                    }
                }

                if (meta.have_dep == 1 && meta.dep_alt == 255) { meta.dep_alt = 9; }
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
                bit<256> one = (bit<256>)1 << (bit<8>)idx;
                if ((idx >> 8) == 0) { full = (bit<768>)0 ++ one[255:0]; }
                else if ((idx >> 8) == 1) { full = (bit<512>)0 ++ one[255:0] ++ (bit<256>)0; }
                else if ((idx >> 8) == 2) { full = (bit<256>)0 ++ one[255:0] ++ (bit<512>)0; }
                else if ((idx >> 8) == 3) { full = one[255:0] ++ (bit<768>)0; }

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

        /* paths taken: a packet from a host whose source route was written here, by its
         * UCMP bucket and the path's hop count (bucket * H + hops - 1) */
        if (meta.use_ssrr == 1 && meta.from_host == 1 && meta.path_len != 0 && (bit<32>)meta.bucket < SSRR_PATH_BUCKETS) {
            ssrr_paths.count((bit<32>)meta.bucket * 5 + (bit<32>)meta.path_len - 1);
            meta.from_host = 0;                  // once per packet, even if re-sourced here later
        }

    }
}

control UroEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t sm) {
    apply {
        /* bmv2 cannot pause a queue: a packet held for a later slice goes around again;
         * so does one to be decided again. */
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
              hdr.hops[3].next_tor, hdr.hops[3].uplink, hdr.hops[3].send_slice,
              hdr.hops[4].next_tor, hdr.hops[4].uplink, hdr.hops[4].send_slice },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

V1Switch(UroParser(), UroVerifyChecksum(), UroIngress(), UroEgress(),
         UroComputeChecksum(), UroDeparser()) main;
