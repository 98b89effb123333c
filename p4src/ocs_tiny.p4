/*
 * uro OCS emulator for bmv2 (v1model) -- GENERATED, do not edit.
 * Rendered from templates/ocs_v1model.p4.j2 for profile "tiny" by controller.p4gen.
 *
 * 8 ToRs x 2 uplinks = 16 ports; port tor * 2 + uplink
 * faces that ToR uplink. In slice s a frame entering port i leaves on circuit(gen, s, i);
 * no circuit -> dropped and counted. The slice clock is set by the same timer packets
 * as the ToR program (EtherType 0x88B5), taken only from the CPU port
 * (P4Runtime PacketOut); they are never forwarded. Without its config entry the
 * emulator forwards nothing (ocs_drops[unconfigured]).
 */
#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_TIMER = 0x88B5;   // slice timer packets, never forwarded
const bit<16> TIMER_FLAG_SYNC = 1;     // set the clock to this slice whatever the step
const bit<9>  CPU_PORT = 510;             // simple_switch_grpc --cpu-port: P4Runtime PacketOut enters here
const bit<8>  OPCODE_TIMER = 0;          // packet_out.opcode of a timer
const bit<32> DEFAULT_MAX_TIMER_STEP = 1;   // before the config entry says otherwise
const bit<32> NUM_SLICES = 4;
typedef bit<8> slice_t;
const bit<32> OCS_DROP_NO_CIRCUIT = 0;
const bit<32> OCS_DROP_BAD_TIMER = 1;
const bit<32> OCS_DROP_UNCONFIGURED = 2;
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
struct headers_t {
    packet_out_t packet_out;
    ethernet_t ethernet;
    timer_t    timer;
}
struct metadata_t {
    slice_t cur_slice;
    bit<1>  configured;
    bit<1>  gen;
    bit<32> max_step;
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
            default: accept;
        }
    }
    state parse_timer {
        pkt.extract(hdr.timer);
        transition accept;
    }
}

control OcsVerifyChecksum(inout headers_t hdr, inout metadata_t meta) { apply { } }

control OcsIngress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    /* drop reasons: no_circuit, bad_timer, unconfigured */
    counter(3, CounterType.packets) ocs_drops;
    /* events: timer, timer_sync, timer_rejected */
    counter(3, CounterType.packets) ocs_events;
    register<slice_t>(1) slice_reg;

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
        slice_reg.read(meta.cur_slice, 0);
        if (sm.ingress_port == CPU_PORT) {
            if (hdr.packet_out.isValid() && hdr.packet_out.opcode == OPCODE_TIMER && hdr.timer.isValid()) {
                bit<32> delta = (bit<32>)hdr.timer.slice + NUM_SLICES - (bit<32>)meta.cur_slice;
                if (delta >= NUM_SLICES) { delta = delta - NUM_SLICES; }
                bit<1> sync = ((hdr.timer.flags & TIMER_FLAG_SYNC) != 0) ? 1w1 : 1w0;
                if ((bit<32>)hdr.timer.slice >= NUM_SLICES) {
                    ocs_events.count(OCS_EVENT_TIMER_REJECTED);   // no such slice
                } else if (sync == 0 && (delta == 0 || delta > meta.max_step)) {
                    ocs_events.count(OCS_EVENT_TIMER_REJECTED);   // duplicate, backwards or too far
                } else {
                    slice_reg.write(0, (slice_t)hdr.timer.slice);

                    if (sync == 1) {
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
        circuit.apply();
    }
}

control OcsEgress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) { apply { } }
control OcsComputeChecksum(inout headers_t hdr, inout metadata_t meta) { apply { } }
control OcsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.packet_out);
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.timer);
    }
}

V1Switch(OcsParser(), OcsVerifyChecksum(), OcsIngress(), OcsEgress(),
         OcsComputeChecksum(), OcsDeparser()) main;
