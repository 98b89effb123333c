/*
 * uro OCS emulator for bmv2 (v1model) -- GENERATED, do not edit.
 * Rendered from templates/ocs_v1model.p4.j2 for profile "tiny" by controller.p4gen.
 *
 * 8 ToRs x 2 uplinks = 16 ports; port tor * 2 + uplink
 * faces that ToR uplink. In slice s a frame entering port i leaves on circuit(gen, s, i);
 * no circuit -> dropped and counted. Without its config entry the emulator forwards
 * nothing (ocs_drops[unconfigured]).
 *
 * Slice clock (docs/clock.md). Sync mode (clock_config): the emulator is the reference
 * clock the ToRs synchronize to -- its slice comes from its own clock (seeded once by the
 * controller, nothing corrects it); it answers REF requests from ToR ports itself, drops
 * REF responses from ToR ports, answers PROBEs (pktgen port 500, CPU port) and takes
 * SEEDs from the CPU port; every other sync frame is data to it, forwarded per circuit.
 * Timer mode (no clock_config): the slice is set by the same timer packets as the ToR
 * program (EtherType 0x88B5), taken only from the CPU port (P4Runtime PacketOut); they
 * are never forwarded.
 */
#include <core.p4>
#include <v1model.p4>

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
const bit<32> SYNC_MALFORMED = 0;
const bit<32> SYNC_OFF = 1;
const bit<32> SYNC_TRIGGER = 2;
const bit<32> SYNC_PROBE = 3;
const bit<32> SYNC_SEED = 4;
const bit<32> SYNC_REF_ANSWERED = 5;
const bit<32> SYNC_REF_RESP_DROPPED = 6;
const bit<32> SYNC_UNSEEDED = 7;
const bit<32> NUM_SLICES = 4;
/* the schedule's reconfiguration guard (timing.guard_us), in ns */
const bit<64> OCS_GUARD_NS = 10;
typedef bit<8> slice_t;
const bit<32> OCS_DROP_NO_CIRCUIT = 0;
const bit<32> OCS_DROP_BAD_TIMER = 1;
const bit<32> OCS_DROP_UNCONFIGURED = 2;
const bit<32> OCS_DROP_PORT_FAULT = 3;
const bit<32> OCS_EVENT_TIMER = 0;
const bit<32> OCS_EVENT_TIMER_SYNC = 1;
const bit<32> OCS_EVENT_TIMER_REJECTED = 2;

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
    bit<8> clock_stratum;
    bit<8> clock_slice;
}
struct headers_t {
    packet_in_t  packet_in;
    packet_out_t packet_out;
    ethernet_t ethernet;
    timer_t    timer;
    sync_t     sync;
}
struct metadata_t {
    slice_t cur_slice;
    bit<1>  configured;
    bit<1>  gen;
    bit<32> max_step;
    bit<48> now;            // this pass's time (us)
    bit<48> slice_start;    // timer mode: when the last applied timer came (us)
    /* slice clock (docs/clock.md): config, this pass's local time and snapshot, what leaves */
    bit<8> clk_mode;
    bit<32> clk_slice_ns;
    bit<64> clk_l;           // local time (ns) of this pass (after the emulated fault, ToR)
    bit<64> clk_fault;       // the emulated fault's offset (ns, two's complement; 0 on the OCS)
    bit<32> clk_k;           // slice number
    bit<64> clk_next;        // local time of the next boundary
    bit<32> clk_len;         // local slice length in use
    bit<32> clk_phase;       // ns since this slice's boundary
    bit<8>  clk_stratum;
    bit<2>  sync_out;        // a sync message leaves: 1 REQ (t1 in egress), 2 RESP / PROBE_REPLY (t3)

}

parser OcsParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
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
            ETHERTYPE_SYNC: parse_sync;
            default: accept;
        }
    }
    state parse_timer {
        pkt.extract(hdr.timer);
        transition accept;
    }
    state parse_sync {
        pkt.extract(hdr.sync);
        transition accept;
    }
}

control OcsVerifyChecksum(inout headers_t hdr, inout metadata_t meta) { apply { } }

control OcsIngress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    /* drop reasons: no_circuit, bad_timer, unconfigured, port_fault */
    counter(4, CounterType.packets) ocs_drops;
    /* events: timer, timer_sync, timer_rejected */
    counter(3, CounterType.packets) ocs_events;
    /* data frames from ToR ports by this switch's phase at arrival (cell port * 4 + kind:
     * in_time, in_guard, in_guard_no_circuit, no_circuit; docs/clock.md "Where misaligned
     * frames come from") */
    counter(64, CounterType.packets) ocs_arrivals;
    register<slice_t>(1) slice_reg;
    register<bit<48>>(1) slice_start_reg;
    /* emulation-only port fault (`uro emulate fail port`, written over Thrift): cell =
     * OCS port, bit s set = the port is dead in slice s (nothing in or out of it) */
    register<bit<4>>(16) port_fault;
    /* ---- slice clock in sync mode (docs/clock.md): registers the daemon reads --------- */
    register<bit<32>>(1) clock_k;   // slice number of the current slice
    register<bit<64>>(1) clock_next;   // local time (ns) of the next slice boundary
    register<bit<8>>(1) clock_stratum;   // 255 - stratum (a register never written reads as unsynchronized)
    counter(8, CounterType.packets) ocs_sync;

    /* The clock's config (the table default): mode (sync or timer: no entry is timer mode)
     * and, precomputed by the controller (controller.clock.params), what the switch only
     * compares, adds and shifts. */
    action set_clock(bit<8> mode, bit<32> slice_ns) {
        meta.clk_mode = mode;
        meta.clk_slice_ns = slice_ns;
    }
    action clock_off() {
        meta.clk_mode = 0;
    }
    table clock_config {
        actions = { set_clock; clock_off; }
        default_action = clock_off();
        size = 1;
    }

    /* The one config entry (the table default): the active circuit generation and the
     * largest step a timer may move the clock. */
    action set_config(bit<1> generation, slice_t max_timer_step) {
        meta.configured = 1;
        meta.gen = generation;
        meta.max_step = (bit<32>)max_timer_step;
    }
    action unconfigured() { meta.configured = 0; }
    table config {
        actions = { set_config; unconfigured; }
        default_action = unconfigured();
        size = 1;
    }

    action connect(bit<9> port) { sm.egress_spec = port; }
    action no_circuit() { ocs_drops.count(OCS_DROP_NO_CIRCUIT); mark_to_drop(sm); }
    table circuit {
        key = {
            meta.gen: exact @name("generation");
            meta.cur_slice: exact @name("slice");
            sm.ingress_port: exact @name("in_port");
        }
        actions = { connect; @defaultonly no_circuit; }
        default_action = no_circuit();
        size = 128;
    }

    apply {
        meta.max_step = DEFAULT_MAX_TIMER_STEP;
        config.apply();
        clock_config.apply();
        meta.now = sm.ingress_global_timestamp;
        slice_reg.read(meta.cur_slice, 0);
        slice_start_reg.read(meta.slice_start, 0);
        meta.clk_fault = 0;
        meta.sync_out = 0;
        if (meta.clk_mode == CLOCK_SYNC) {
            /* the reference's clock: slices of exactly L from its seed */
            meta.clk_l = (bit<64>)meta.now * 1000;
            clock_k.read(meta.clk_k, 0);
            clock_next.read(meta.clk_next, 0);
            bit<32> len = meta.clk_slice_ns;
            if (meta.clk_l >= meta.clk_next) {
                bit<64> el = meta.clk_l - meta.clk_next;
                bit<64> rem = el;
                bit<32> q = 0;
                if (el >= (bit<64>)len) {
                rem = el;
                q = 0;
                if (rem >= ((bit<64>)len << 31)) { rem = rem - ((bit<64>)len << 31); q = q | 32w2147483648; }
                if (rem >= ((bit<64>)len << 30)) { rem = rem - ((bit<64>)len << 30); q = q | 32w1073741824; }
                if (rem >= ((bit<64>)len << 29)) { rem = rem - ((bit<64>)len << 29); q = q | 32w536870912; }
                if (rem >= ((bit<64>)len << 28)) { rem = rem - ((bit<64>)len << 28); q = q | 32w268435456; }
                if (rem >= ((bit<64>)len << 27)) { rem = rem - ((bit<64>)len << 27); q = q | 32w134217728; }
                if (rem >= ((bit<64>)len << 26)) { rem = rem - ((bit<64>)len << 26); q = q | 32w67108864; }
                if (rem >= ((bit<64>)len << 25)) { rem = rem - ((bit<64>)len << 25); q = q | 32w33554432; }
                if (rem >= ((bit<64>)len << 24)) { rem = rem - ((bit<64>)len << 24); q = q | 32w16777216; }
                if (rem >= ((bit<64>)len << 23)) { rem = rem - ((bit<64>)len << 23); q = q | 32w8388608; }
                if (rem >= ((bit<64>)len << 22)) { rem = rem - ((bit<64>)len << 22); q = q | 32w4194304; }
                if (rem >= ((bit<64>)len << 21)) { rem = rem - ((bit<64>)len << 21); q = q | 32w2097152; }
                if (rem >= ((bit<64>)len << 20)) { rem = rem - ((bit<64>)len << 20); q = q | 32w1048576; }
                if (rem >= ((bit<64>)len << 19)) { rem = rem - ((bit<64>)len << 19); q = q | 32w524288; }
                if (rem >= ((bit<64>)len << 18)) { rem = rem - ((bit<64>)len << 18); q = q | 32w262144; }
                if (rem >= ((bit<64>)len << 17)) { rem = rem - ((bit<64>)len << 17); q = q | 32w131072; }
                if (rem >= ((bit<64>)len << 16)) { rem = rem - ((bit<64>)len << 16); q = q | 32w65536; }
                if (rem >= ((bit<64>)len << 15)) { rem = rem - ((bit<64>)len << 15); q = q | 32w32768; }
                if (rem >= ((bit<64>)len << 14)) { rem = rem - ((bit<64>)len << 14); q = q | 32w16384; }
                if (rem >= ((bit<64>)len << 13)) { rem = rem - ((bit<64>)len << 13); q = q | 32w8192; }
                if (rem >= ((bit<64>)len << 12)) { rem = rem - ((bit<64>)len << 12); q = q | 32w4096; }
                if (rem >= ((bit<64>)len << 11)) { rem = rem - ((bit<64>)len << 11); q = q | 32w2048; }
                if (rem >= ((bit<64>)len << 10)) { rem = rem - ((bit<64>)len << 10); q = q | 32w1024; }
                if (rem >= ((bit<64>)len << 9)) { rem = rem - ((bit<64>)len << 9); q = q | 32w512; }
                if (rem >= ((bit<64>)len << 8)) { rem = rem - ((bit<64>)len << 8); q = q | 32w256; }
                if (rem >= ((bit<64>)len << 7)) { rem = rem - ((bit<64>)len << 7); q = q | 32w128; }
                if (rem >= ((bit<64>)len << 6)) { rem = rem - ((bit<64>)len << 6); q = q | 32w64; }
                if (rem >= ((bit<64>)len << 5)) { rem = rem - ((bit<64>)len << 5); q = q | 32w32; }
                if (rem >= ((bit<64>)len << 4)) { rem = rem - ((bit<64>)len << 4); q = q | 32w16; }
                if (rem >= ((bit<64>)len << 3)) { rem = rem - ((bit<64>)len << 3); q = q | 32w8; }
                if (rem >= ((bit<64>)len << 2)) { rem = rem - ((bit<64>)len << 2); q = q | 32w4; }
                if (rem >= ((bit<64>)len << 1)) { rem = rem - ((bit<64>)len << 1); q = q | 32w2; }
                if (rem >= ((bit<64>)len << 0)) { rem = rem - ((bit<64>)len << 0); q = q | 32w1; }

                }
                bit<32> n = q + 1;              // boundaries passed
                meta.clk_next = meta.clk_l - rem + (bit<64>)len;
                meta.clk_k = meta.clk_k + n;
                clock_k.write(0, meta.clk_k);
                clock_next.write(0, meta.clk_next);
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
                meta.cur_slice = (slice_t)sl;
                slice_reg.write(0, meta.cur_slice);

            }
            meta.clk_len = len;
            bit<64> left = meta.clk_next - meta.clk_l;   // > 0 now
            meta.clk_phase = (left <= (bit<64>)len) ? len - (bit<32>)left : 0;
        }
        if (sm.ingress_port == PKTGEN_PORT || (hdr.ethernet.isValid() && hdr.ethernet.etherType == ETHERTYPE_SYNC)) {
            bit<8> op = hdr.sync.isValid() ? hdr.sync.op : 0;
            bit<1> ref = (hdr.sync.isValid() && (hdr.sync.flags & SYNC_FLAG_REF) != 0) ? 1w1 : 1w0;
            bit<1> taken = 1;
            bit<32> why = SYNC_MALFORMED;
            bit<8> sreg;
            clock_stratum.read(sreg, 0);
            meta.clk_stratum = 255 - sreg;      // stored as 255 - stratum: 0 until seeded
            bit<8> flags = SYNC_FLAG_REF | ((meta.clk_stratum == STRATUM_UNSYNCED) ? SYNC_FLAG_BOOT : 0);
            bit<32> k = meta.clk_k;
            bit<32> ph = meta.clk_phase;
            if (meta.clk_mode != CLOCK_SYNC) {
                flags = flags | SYNC_FLAG_TIMER;     // timer mode: phase since the last timer
                k = 0;
                ph = (((bit<64>)(meta.now - meta.slice_start) * 1000 > 0xFFFFFFFF) ? 32w0xFFFFFFFF : (bit<32>)((bit<64>)(meta.now - meta.slice_start) * 1000));
            }
            bit<1> from_cpu = (sm.ingress_port == CPU_PORT) ? 1w1 : 1w0;
            if (!hdr.sync.isValid() || (from_cpu == 1 && hdr.packet_out.opcode != OPCODE_SYNC)) {
                if (from_cpu == 1 || sm.ingress_port == PKTGEN_PORT) {
                    why = SYNC_MALFORMED;
                } else {
                    taken = 0;                         // a truncated frame from a ToR: data
                }
            } else if (op == SYNC_OP_PROBE && (from_cpu == 1 || sm.ingress_port == PKTGEN_PORT)) {
                    hdr.sync.op = SYNC_OP_PROBE_REPLY;
                    hdr.sync.flags = flags;
                    hdr.sync.dst_tor = hdr.sync.src_tor;
                    hdr.sync.src_tor = SYNC_REF_TOR;
                    hdr.sync.stratum = meta.clk_stratum;
                    hdr.sync.term = 0;
                    hdr.sync.lead = SYNC_REF_TOR;
                    hdr.sync.lead_k = 0;
                    hdr.sync.t2_k = k;
                    hdr.sync.t2_phase = ph;
                    hdr.sync.reserved = 0;
                    hdr.sync.aux = 0;
                    hdr.packet_out.setInvalid();
                    if (sm.ingress_port == CPU_PORT) {
                        hdr.packet_in.setValid();
                        clock_k.read(hdr.packet_in.clock_k, 0);
                        clock_next.read(hdr.packet_in.clock_next, 0);
                        clock_stratum.read(hdr.packet_in.clock_stratum, 0);
                        slice_reg.read(hdr.packet_in.clock_slice, 0);

                    }
                    sm.egress_spec = sm.ingress_port;
                    meta.sync_out = 2;

                why = SYNC_PROBE;
            } else if (from_cpu == 1 && op == SYNC_OP_SEED) {
                if (meta.clk_mode != CLOCK_SYNC) {
                    why = SYNC_OFF;
                } else if (hdr.sync.t3_phase >= meta.clk_slice_ns || (bit<32>)hdr.sync.slice >= NUM_SLICES) {
                    why = SYNC_MALFORMED;
                } else {
                    clock_k.write(0, hdr.sync.t3_k);
                    slice_reg.write(0, (slice_t)hdr.sync.slice);
                    clock_next.write(0, meta.clk_l + (bit<64>)(meta.clk_slice_ns - hdr.sync.t3_phase));
                    clock_stratum.write(0, 255 - (((hdr.sync.flags & SYNC_FLAG_REF) != 0) ? 8w0 : STRATUM_UNSYNCED));
                    why = SYNC_SEED;
                }
            } else if (sm.ingress_port == PKTGEN_PORT && op == SYNC_OP_TRIGGER) {
                why = (meta.clk_mode == CLOCK_SYNC) ? SYNC_TRIGGER : SYNC_OFF;   // it moved the clock
            } else if (from_cpu == 1 || sm.ingress_port == PKTGEN_PORT) {
                why = SYNC_MALFORMED;
            } else if (ref == 1 && op == SYNC_OP_REQ) {
                if (meta.clk_mode != CLOCK_SYNC) {
                    why = SYNC_OFF;
                } else if (meta.clk_stratum != 0) {
                    why = SYNC_UNSEEDED;               // no reference time yet
                } else {
                    /* a lead's exchange with the reference: answered the same way back */
                    hdr.sync.op = SYNC_OP_RESP;
                    hdr.sync.flags = SYNC_FLAG_REF;
                    hdr.sync.dst_tor = hdr.sync.src_tor;
                    hdr.sync.src_tor = SYNC_REF_TOR;
                    hdr.sync.stratum = 0;
                    hdr.sync.term = 0;
                    hdr.sync.lead = SYNC_REF_TOR;
                    hdr.sync.lead_k = 0;
                    hdr.sync.t2_k = meta.clk_k;
                    hdr.sync.t2_phase = meta.clk_phase;
                    hdr.sync.reserved = 0;
                    hdr.sync.aux = 0;
                    sm.egress_spec = sm.ingress_port;
                    meta.sync_out = 2;
                    why = SYNC_REF_ANSWERED;
                }
            } else if (ref == 1 && op == SYNC_OP_RESP) {
                why = SYNC_REF_RESP_DROPPED;           // only the reference answers REF requests
            } else {
                taken = 0;                             // a ToR's sync frame: data, per circuit
            }
            if (taken == 1) {
                ocs_sync.count(why);
                if (meta.sync_out == 0) {
                    mark_to_drop(sm);
                }
                exit;
            }
        }

        if (sm.ingress_port == CPU_PORT) {
            if (hdr.packet_out.isValid() && hdr.packet_out.opcode == OPCODE_TIMER && hdr.timer.isValid()) {
                bit<32> delta = (bit<32>)hdr.timer.slice + NUM_SLICES - (bit<32>)meta.cur_slice;
                if (delta >= NUM_SLICES) { delta = delta - NUM_SLICES; }
                bit<1> is_sync = ((hdr.timer.flags & TIMER_FLAG_SYNC) != 0) ? 1w1 : 1w0;
                if ((bit<32>)hdr.timer.slice >= NUM_SLICES) {
                    ocs_events.count(OCS_EVENT_TIMER_REJECTED);   // no such slice
                } else if (meta.clk_mode == CLOCK_SYNC) {
                    ocs_events.count(OCS_EVENT_TIMER_REJECTED);   // sync mode: the switch keeps time itself
                } else if (is_sync == 0 && (delta == 0 || delta > meta.max_step)) {
                    ocs_events.count(OCS_EVENT_TIMER_REJECTED);   // duplicate, backwards or too far
                } else {
                    slice_reg.write(0, (slice_t)hdr.timer.slice);
                    slice_start_reg.write(0, meta.now);

                    if (is_sync == 1) {
                        ocs_events.count(OCS_EVENT_TIMER_SYNC);
                    } else {
                        ocs_events.count(OCS_EVENT_TIMER);
                    }
                }
            } else {
                ocs_drops.count(OCS_DROP_BAD_TIMER);        // the controller sent something else
            }
            mark_to_drop(sm);
            exit;
        }
        if (hdr.ethernet.isValid() && hdr.ethernet.etherType == ETHERTYPE_TIMER) {
            ocs_drops.count(OCS_DROP_BAD_TIMER);            // a timer from a data port: never trusted
            mark_to_drop(sm);
            exit;
        }
        if (meta.configured == 0) {
            ocs_drops.count(OCS_DROP_UNCONFIGURED);
            mark_to_drop(sm);
            exit;
        }
        /* the phase at arrival (sync: the clock's; timer: since the last timer), in ns: a
         * ToR sends nothing in the first guard of its slice, so a data frame arriving in
         * this switch's first guard left in the ToR's previous slice */
        bit<64> arr_ph = (meta.clk_mode == CLOCK_SYNC) ? (bit<64>)meta.clk_phase
                         : (bit<64>)(meta.now - meta.slice_start) * 1000;
        bit<32> arr_kind = (arr_ph < OCS_GUARD_NS) ? 32w1 : 32w0;
        bit<1> arr_data = (sm.ingress_port < 16 && !hdr.sync.isValid()) ? 1w1 : 1w0;
        if (circuit.apply().hit) {
            /* a port dead in this slice (emulated fault): nothing in or out of it */
            bit<4> f_in;
            bit<4> f_out;
            port_fault.read(f_in, (bit<32>)sm.ingress_port);
            port_fault.read(f_out, (bit<32>)sm.egress_spec);
            if (((f_in | f_out) & ((bit<4>)1 << (bit<8>)meta.cur_slice)) != 0) {
                ocs_drops.count(OCS_DROP_PORT_FAULT);
                mark_to_drop(sm);
            }
        } else {
            arr_kind = (arr_kind == 1) ? 32w2 : 32w3;     // no circuit: in the guard, or elsewhere
        }
        if (arr_data == 1) {
            ocs_arrivals.count((bit<32>)sm.ingress_port * 4 + arr_kind);
        }
    }
}

control OcsEgress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply {
        /* t3 of the reference's answers on the way out */
        if (meta.sync_out != 0) {
            bit<64> raw = (bit<64>)sm.egress_global_timestamp * 1000;
            bit<64> le = raw + meta.clk_fault;
            bit<32> ok = meta.clk_k;
            bit<32> oph = 0;
            bit<32> osl = (bit<32>)meta.cur_slice;
            if (meta.clk_mode != CLOCK_SYNC) {
                ok = 0;          // timer mode: the epoch, ns since the last timer
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

            } else {
                hdr.sync.t3_k = ok;
                hdr.sync.t3_phase = oph;
                if (hdr.sync.op == SYNC_OP_PROBE_REPLY) {
                    hdr.sync.aux = raw;          // the raw local clock (before the emulated fault)
                }
            }
            exit;
        }
        /* a ToR's REQ or RESP crossing a circuit: the time it spent in this switch added to
         * aux (REQ: the upper 32 bits, RESP: the lower, each saturating), as a PTP transparent
         * clock adds its residence (message.add_residence): a real OCS is a passive light path,
         * this emulator queues, and unequally in the two ways of one exchange */
        if (hdr.sync.isValid() && (hdr.sync.flags & SYNC_FLAG_REF) == 0
                && (hdr.sync.op == SYNC_OP_REQ || hdr.sync.op == SYNC_OP_RESP)) {
            bit<64> held = (bit<64>)(sm.egress_global_timestamp - sm.ingress_global_timestamp) * 1000;
            bit<64> half = (hdr.sync.op == SYNC_OP_REQ) ? (bit<64>)hdr.sync.aux[63:32] : (bit<64>)hdr.sync.aux[31:0];
            half = (half + held > 0xFFFFFFFF) ? 0xFFFFFFFF : half + held;
            if (hdr.sync.op == SYNC_OP_REQ) {
                hdr.sync.aux[63:32] = (bit<32>)half;
            } else {
                hdr.sync.aux[31:0] = (bit<32>)half;
            }
        }
    }
}
control OcsComputeChecksum(inout headers_t hdr, inout metadata_t meta) { apply { } }
control OcsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.packet_in);
        pkt.emit(hdr.packet_out);
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.timer);
        pkt.emit(hdr.sync);
    }
}

V1Switch(OcsParser(), OcsVerifyChecksum(), OcsIngress(), OcsEgress(),
         OcsComputeChecksum(), OcsDeparser()) main;
