/*
 * uro ToR program for bmv2 (v1model, simple_switch_grpc) -- GENERATED, do not edit.
 * Rendered from templates/tor_v1model.p4.j2 for profile "tiny" by controller.p4gen.
 *
 * Pipeline (one ToR of a time-sliced optical DCN):
 *   timer packets -> slice clock (never forwarded)
 *   IPv4: dst IP -> dst ToR | local host port
 *         route_mode(dst ToR) -> URO per-hop one-shot lookup | UCMP SSRR source route
 *         SSRR in transit: check the hop names this ToR, advance the pointer
 *   calendar queues: departure in the current slice -> out now; in a later slice ->
 *   held by recirculation until the slice clock reaches it; slice missed -> routed
 *   again from the current slice; held longer than one cycle -> dropped.
 *   Every drop reason and every reroute is counted (counters `drops`, `events`).
 */
#include <core.p4>
#include <v1model.p4>

/* ---- constants and types (profile tiny) -------------------------------------
 * N = 8 ToRs, d = 2 uplinks, 2 host ports,
 * S = 4 slices, K = 3 alternatives, H = 4 SSRR hops,
 * Q = 4 calendar queues per uplink.
 */
const bit<16> ETHERTYPE_IPV4  = 0x0800;
const bit<16> ETHERTYPE_TIMER = 0x88B5;   // slice timer packets, never forwarded
const bit<8>  IPOPT_NOP  = 1;
const bit<8>  IPOPT_SSRR = 137;      // Strict Source and Record Route
const bit<8>  IPPROTO_TCP = 6;
const bit<8>  IPPROTO_UDP = 17;

typedef bit<16>    tor_t;      // ToR id
typedef bit<8>  uplink_t;   // uplink index 0..d-1
typedef bit<8>  slice_t;    // slice id 0..S-1
typedef bit<8>  bucket_t;   // UCMP flow-size bucket
typedef bit<8>  qstate_t;   // Full(1)/Unfull(0) bit per (uplink, calendar queue)

const bit<32> NUM_SLICES  = 4;
const bit<32> NUM_QUEUES  = 4;   // calendar queues per uplink
const bit<32> NUM_UPLINKS = 2;
const bit<32> UPLINK_PORT_BASE = 2;   // uplink u leaves on port UPLINK_PORT_BASE + u

const bit<32> DROP_NO_ROUTE = 0;
const bit<32> DROP_ALL_FULL = 1;
const bit<32> DROP_HELD_TOO_LONG = 2;
const bit<32> DROP_BAD_SSRR = 3;
const bit<32> DROP_TTL = 4;
const bit<32> DROP_MALFORMED = 5;
const bit<32> DROP_NOT_IPV4 = 6;
const bit<32> EVENT_REROUTE_MISSED = 0;
const bit<32> EVENT_REROUTE_SPILL = 1;
const bit<32> EVENT_TIMER = 2;
const bit<32> EVENT_SSRR_WRITTEN = 3;
const bit<32> EVENT_SSRR_TRANSIT = 4;

/* ---- headers ------------------------------------------------------------------------- */
header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

/* Slice timer: sets the slice clock to `slice` (the pktgen batch id on Tofino2). */
header timer_t {
    bit<16> slice;
    bit<16> reserved;
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
    ethernet_t ethernet;
    timer_t    timer;
    ipv4_t     ipv4;
    ssrr_t     ssrr;
    ssrr_hop_t[4] hops;
    l4_ports_t l4;
}

/* ---- metadata ------------------------------------------------------------------------ */
struct metadata_t {
    /* carried across recirculation (field list 1): the calendar-queue hold */
    @field_list(1) bit<1>   held;          // waiting for its departure slice
    @field_list(1) uplink_t hold_uplink;
    @field_list(1) bit<32>  hold_wait;     // slices between admission and departure (the rank)
    @field_list(1) bit<32>  admit_epoch;   // slice epoch at admission
    @field_list(1) bit<32>  first_epoch;   // slice epoch when the packet first entered this ToR
    @field_list(1) tor_t    dst_tor;
    /* per pass */
    slice_t  cur_slice;      // slice clock = arrival slice of this pass
    bit<32>  epoch;          // slices elapsed since start (never wraps in practice)
    bit<32>  active_q;       // calendar queue of the current slice
    qstate_t qstate;         // Full/Unfull bitmap, read once per pass
    tor_t    my_tor;
    bit<32>  capacity;       // bytes one calendar queue takes per slice
    bit<1>   routed;
    bit<1>   is_local;
    bit<1>   relookup;       // departure slice missed: routed again from the current slice
    bit<1>   use_ssrr;
    bucket_t bucket;
    bit<8>   path_len;
    bit<8>   parse_hops;
    bit<16>  l4_src;
    bit<16>  l4_dst;
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
    /* SSRR hop at the pointer */
    tor_t    prev_next_tor;  // next_tor of the hop that brought the packet here
    uplink_t hop_uplink;
    slice_t  hop_slice;
    bit<8>   hop_idx;
}

/* ---- parser ---------------------------------------------------------------------------
 * Ethernet -> timer | IPv4 [-> NOP + SSRR option + hops] -> TCP/UDP ports.
 * Anything malformed (truncated options, more hops than H) ends in a parser error that
 * ingress drops and counts. */
parser UroParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t sm) {
    state start {
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
            default: parse_options;
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
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.timer);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ssrr);
        pkt.emit(hdr.hops);
        pkt.emit(hdr.l4);
    }
}

control UroVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control UroIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t sm) {
    /* drop reasons: no_route, all_full, held_too_long, bad_ssrr, ttl, malformed, not_ipv4 */
    counter(7, CounterType.packets) drops;
    /* events: reroute_missed, reroute_spill, timer, ssrr_written, ssrr_transit */
    counter(5, CounterType.packets) events;

    /* ---- slice clock (advanced by timer packets) and calendar-queue state ---------- */
    register<slice_t>(1) slice_reg;       // current slice id
    register<bit<32>>(1) epoch_reg;       // slices elapsed (for hold bookkeeping)
    register<bit<32>>(1) active_q_reg;    // calendar queue of the current slice
    register<qstate_t>(1) qstate_reg;     // Full bit per (uplink, queue): bit uplink*Q + queue
    register<bit<32>>(8) qbytes_reg;  // bytes admitted since the queue drained
    register<bit<32>>(8) qtag_reg;    // departure epoch those bytes belong to

    /* Bytes per calendar queue per slice (usable slice time x link rate) and this ToR's id. */
    action set_config(tor_t my_tor, bit<32> capacity_bytes) {
        meta.my_tor = my_tor;
        meta.capacity = capacity_bytes;
    }
    table config {
        actions = { set_config; }
        default_action = set_config(0, 24875);
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
        size = 1024;
    }

    /* Per destination: URO per-hop tables (default) or UCMP source routing. */
    action per_hop() { meta.use_ssrr = 0; }
    action source_route() { meta.use_ssrr = 1; }
    table route_mode {
        key = { meta.dst_tor: exact @name("dst_tor"); }
        actions = { per_hop; source_route; }
        default_action = per_hop();
        size = 8;
    }

    /* ---- URO per-hop table: (arrival slice, dst ToR) -> K (uplink, departure slice) ---- */
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
            meta.cur_slice: exact @name("arrival_slice");
            meta.dst_tor:   exact @name("dst_tor");
        }
        actions = { set_alternatives; @defaultonly uro_miss; }
        default_action = uro_miss();
        size = 28;
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

    /* (dst ToR, start slice, bucket range) -> path; tied paths are members of one group of
     * the action selector, picked by the 5-tuple hash. Writes the NOP + option 137 with
     * all H hops valid; apply() invalidates hops past n and fixes IHL/length. */
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
    action_selector(HashAlgorithm.crc16, 32w1024, 32w14) ssrr_selector;
    table ssrr_path {
        key = {
            meta.dst_tor:   exact @name("dst_tor");
            meta.cur_slice: exact @name("start_slice");
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
        size = 448;
    }

    apply {
        meta.have_dep = 0;
        meta.dep_alt = 255;
        meta.tried_full = 0;
        meta.relookup = 0;
        config.apply();
        /* Read the clock once per pass. */
        slice_reg.read(meta.cur_slice, 0);
        epoch_reg.read(meta.epoch, 0);
        active_q_reg.read(meta.active_q, 0);

        /* Timer packet: set the slice clock; when it moves by delta slices, the
         * calendar queues of the delta slices that ended have drained: clear their
         * Full bits on every uplink (their byte counts are dropped lazily: the next
         * admission sees a different departure epoch in qtag_reg). Never forwarded. */
        if (hdr.timer.isValid()) {
            if ((bit<32>)hdr.timer.slice >= NUM_SLICES) {
                drops.count(DROP_MALFORMED);
            } else {
                bit<32> delta = (bit<32>)hdr.timer.slice + NUM_SLICES - (bit<32>)meta.cur_slice;
                if (delta >= NUM_SLICES) { delta = delta - NUM_SLICES; }
                if (delta != 0) {
                    bit<32> new_active = meta.active_q + delta;
                    if (new_active >= NUM_QUEUES) { new_active = new_active - NUM_QUEUES; }
                    /* queues active_q .. active_q + delta - 1 (mod Q) drained */
                    bit<8> run = (((bit<8>)1 << (bit<8>)delta) - 1) << (bit<8>)meta.active_q;
                    bit<4> drained = run[3:0] | run[7:4];
                    /* the same drained queues on every uplink: d copies side by side */
                    qstate_t clear = drained ++ drained;
                    qstate_reg.read(meta.qstate, 0);
                    qstate_reg.write(0, meta.qstate & ~clear);
                    slice_reg.write(0, (slice_t)hdr.timer.slice);
                    epoch_reg.write(0, meta.epoch + delta);
                    active_q_reg.write(0, new_active);
                }
                events.count(EVENT_TIMER);
            }
            mark_to_drop(sm);
            exit;
        }

        /* Malformed input: dropped and counted, never forwarded. */
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
        if (hdr.ipv4.ihl > 5 && !(hdr.ssrr.nop == IPOPT_NOP && hdr.ssrr.type == IPOPT_SSRR)) {
            drops.count(DROP_BAD_SSRR);          // options we do not speak
            mark_to_drop(sm);
            exit;
        }
        qstate_reg.read(meta.qstate, 0);         // the one queue-state read of this pass

        /* ---- calendar queue on bmv2: a held packet circles until its slice ---------- */
        if (meta.held == 1) {
            bit<32> elapsed = meta.epoch - meta.admit_epoch;
            if (meta.epoch - meta.first_epoch >= NUM_SLICES) {
                drops.count(DROP_HELD_TOO_LONG);
                mark_to_drop(sm);
                exit;
            }
            sm.egress_spec = (bit<9>)(UPLINK_PORT_BASE + (bit<32>)meta.hold_uplink);
            if (elapsed < meta.hold_wait) {
                exit;                            // not yet: around again (egress recirculates)
            }
            if (elapsed == meta.hold_wait) {
                meta.held = 0;                   // its slice: out on the uplink
                exit;
            }
            /* the departure slice passed (URO Property 3): route again from now */
            meta.held = 0;
            meta.relookup = 1;
            events.count(EVENT_REROUTE_MISSED);
        }

        bit<1> transit = 0;
        if (meta.relookup == 0) {
            /* ---- first pass: host ingress ------------------------------------------ */
            meta.first_epoch = meta.epoch;
            host_dst.apply();
            if (meta.routed == 0 || (meta.is_local == 0 && meta.dst_tor == meta.my_tor)) {
                drops.count(DROP_NO_ROUTE);
                mark_to_drop(sm);
                exit;
            }
            if (meta.is_local == 1) {
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
        } else if (hdr.ssrr.isValid()) {
            meta.use_ssrr = 1;                   // missed SSRR hop: new source route from here
        } else {
            route_mode.apply();
        }

        /* ---- pick the departure ------------------------------------------------------ */
        if (transit == 1) {
            /* Intermediate ToR: the option must be well formed, the hop before the pointer
             * must name this ToR and the pointer must point at a hop. */
            {
                bit<8> nhops = (hdr.ssrr.len - 3) >> 2;
                bit<1> bad = 0;
                if (hdr.ssrr.len < 7 || ((hdr.ssrr.len - 3) & 3) != 0) { bad = 1; }
                if ((bit<8>)hdr.ipv4.ihl != 6 + nhops) { bad = 1; }           // nothing but NOP + SSRR
                if (hdr.ssrr.ptr < 8 || (hdr.ssrr.ptr & 3) != 0) { bad = 1; }  // hop 0 is the source's
                meta.hop_idx = (hdr.ssrr.ptr >> 2) - 1;
                if (meta.hop_idx >= nhops) { bad = 1; }                       // pointer past the end
                if (bad == 0) {
                    /* The hop at the pointer (index hop_idx) and the hop before it. */
                    if (meta.hop_idx == 0) {
                        meta.hop_uplink = hdr.hops[0].uplink;
                        meta.hop_slice = hdr.hops[0].send_slice;
                    }
                    else if (meta.hop_idx == 1) {
                        meta.hop_uplink = hdr.hops[1].uplink;
                        meta.hop_slice = hdr.hops[1].send_slice;
                        meta.prev_next_tor = hdr.hops[0].next_tor;
                    }
                    else if (meta.hop_idx == 2) {
                        meta.hop_uplink = hdr.hops[2].uplink;
                        meta.hop_slice = hdr.hops[2].send_slice;
                        meta.prev_next_tor = hdr.hops[1].next_tor;
                    }
                    else if (meta.hop_idx == 3) {
                        meta.hop_uplink = hdr.hops[3].uplink;
                        meta.hop_slice = hdr.hops[3].send_slice;
                        meta.prev_next_tor = hdr.hops[2].next_tor;
                    }

                    if (meta.prev_next_tor != meta.my_tor) { bad = 1; }       // hop names another ToR
                }
                if (bad == 1) {
                    drops.count(DROP_BAD_SSRR);
                    mark_to_drop(sm);
                    exit;
                }
                events.count(EVENT_SSRR_TRANSIT);
            }

            /* Take the hop at the pointer: its uplink in its send slice; advance the pointer. */
            meta.have_dep = 0;
            /* source-route hop: usable if its calendar queue is Unfull */
            if (meta.have_dep == 0 && (bit<32>)meta.hop_uplink < NUM_UPLINKS) {
                bit<32> rank = (bit<32>)meta.hop_slice + NUM_SLICES - (bit<32>)meta.cur_slice;
                if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                bit<32> q = meta.active_q + rank;
                if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                bit<32> pos = (bit<32>)meta.hop_uplink * NUM_QUEUES + q;
                bit<1> full;
                full = (bit<1>)(meta.qstate >> (bit<8>)pos);

                if (full == 0) {
                    meta.have_dep = 1;
                    meta.dep_uplink = meta.hop_uplink;
                    meta.dep_slice = meta.hop_slice;
                    meta.dep_rank = rank;
                    meta.dep_queue = q;
                } else {
                    meta.tried_full = 1;
                }
            }

            hdr.ssrr.ptr = hdr.ssrr.ptr + 4;

        } else if (meta.use_ssrr == 1) {
            /* Source ToR: pick a path for (dst, slice, bucket) and write it into the packet. */
            if (hdr.l4.isValid()) { meta.l4_src = hdr.l4.srcPort; meta.l4_dst = hdr.l4.dstPort; }
            ssrr_bucket.apply();
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
            hdr.ipv4.totalLen = hdr.ipv4.totalLen - ((bit<16>)hdr.ipv4.ihl << 2) + 24 + ((bit<16>)meta.path_len << 2);
            hdr.ipv4.ihl = 6 + (bit<4>)meta.path_len;
            meta.hop_idx = 0;
            meta.hop_uplink = hdr.hops[0].uplink;
            meta.hop_slice = hdr.hops[0].send_slice;
            events.count(EVENT_SSRR_WRITTEN);

            /* Take the hop at the pointer: its uplink in its send slice; advance the pointer. */
            meta.have_dep = 0;
            /* source-route hop: usable if its calendar queue is Unfull */
            if (meta.have_dep == 0 && (bit<32>)meta.hop_uplink < NUM_UPLINKS) {
                bit<32> rank = (bit<32>)meta.hop_slice + NUM_SLICES - (bit<32>)meta.cur_slice;
                if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                bit<32> q = meta.active_q + rank;
                if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                bit<32> pos = (bit<32>)meta.hop_uplink * NUM_QUEUES + q;
                bit<1> full;
                full = (bit<1>)(meta.qstate >> (bit<8>)pos);

                if (full == 0) {
                    meta.have_dep = 1;
                    meta.dep_uplink = meta.hop_uplink;
                    meta.dep_slice = meta.hop_slice;
                    meta.dep_rank = rank;
                    meta.dep_queue = q;
                } else {
                    meta.tried_full = 1;
                }
            }

            hdr.ssrr.ptr = hdr.ssrr.ptr + 4;

        } else {
            /* One table hit gives all K alternatives; the queue-state bitmap read once
             * (meta.qstate) says which are Unfull; the first Unfull one wins. */
            uro_next_hop.apply();
            if (meta.n_alts == 0) {
                drops.count(DROP_NO_ROUTE);
                mark_to_drop(sm);
                exit;
            }
            if (meta.n_alts > 0) {
                /* alternative 0: usable if its calendar queue is Unfull */
                if (meta.have_dep == 0 && (bit<32>)meta.alt_up_0 < NUM_UPLINKS) {
                    bit<32> rank = (bit<32>)meta.alt_sl_0 + NUM_SLICES - (bit<32>)meta.cur_slice;
                    if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                    bit<32> q = meta.active_q + rank;
                    if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                    bit<32> pos = (bit<32>)meta.alt_up_0 * NUM_QUEUES + q;
                    bit<1> full;
                    full = (bit<1>)(meta.qstate >> (bit<8>)pos);

                    if (full == 0) {
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
                /* alternative 1: usable if its calendar queue is Unfull */
                if (meta.have_dep == 0 && (bit<32>)meta.alt_up_1 < NUM_UPLINKS) {
                    bit<32> rank = (bit<32>)meta.alt_sl_1 + NUM_SLICES - (bit<32>)meta.cur_slice;
                    if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                    bit<32> q = meta.active_q + rank;
                    if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                    bit<32> pos = (bit<32>)meta.alt_up_1 * NUM_QUEUES + q;
                    bit<1> full;
                    full = (bit<1>)(meta.qstate >> (bit<8>)pos);

                    if (full == 0) {
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
                /* alternative 2: usable if its calendar queue is Unfull */
                if (meta.have_dep == 0 && (bit<32>)meta.alt_up_2 < NUM_UPLINKS) {
                    bit<32> rank = (bit<32>)meta.alt_sl_2 + NUM_SLICES - (bit<32>)meta.cur_slice;
                    if (rank >= NUM_SLICES) { rank = rank - NUM_SLICES; }
                    bit<32> q = meta.active_q + rank;
                    if (q >= NUM_QUEUES) { q = q - NUM_QUEUES; }
                    bit<32> pos = (bit<32>)meta.alt_up_2 * NUM_QUEUES + q;
                    bit<1> full;
                    full = (bit<1>)(meta.qstate >> (bit<8>)pos);

                    if (full == 0) {
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
        if (meta.have_dep == 0) {
            drops.count(DROP_ALL_FULL);          // every alternative's queue is Full
            mark_to_drop(sm);
            exit;
        }
        if (meta.tried_full == 1) {
            events.count(EVENT_REROUTE_SPILL);   // took a later alternative
        }
        /* Admit to calendar queue (dep_uplink, dep_queue): count its bytes since it last
         * drained and set its Full bit once they reach the slice capacity. A departure
         * in the current slice leaves now; a later one is held until its slice. */
        {
            bit<32> idx = (bit<32>)meta.dep_uplink * NUM_QUEUES + meta.dep_queue;
            bit<32> dep_epoch = meta.epoch + meta.dep_rank;
            bit<32> tag;
            bit<32> bytes;
            qtag_reg.read(tag, idx);
            qbytes_reg.read(bytes, idx);
            if (tag != dep_epoch) { bytes = 0; }   // the queue drained since: fresh count
            bytes = bytes + sm.packet_length;
            qbytes_reg.write(idx, bytes);
            qtag_reg.write(idx, dep_epoch);
            if (bytes >= meta.capacity) {
                qstate_t full = 0;
                full = (qstate_t)1 << (bit<8>)idx;

                qstate_reg.write(0, meta.qstate | full);
            }
            sm.egress_spec = (bit<9>)(UPLINK_PORT_BASE + (bit<32>)meta.dep_uplink);
            meta.hold_uplink = meta.dep_uplink;
            meta.hold_wait = meta.dep_rank;
            meta.admit_epoch = meta.epoch;
            meta.held = (meta.dep_rank == 0) ? 1w0 : 1w1;
        }

    }
}

control UroEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t sm) {
    apply {
        /* bmv2 cannot pause a queue: a packet held for a later slice goes around again. */
        if (meta.held == 1) {
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
