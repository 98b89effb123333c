/*
 * uro OCS emulator for bmv2 (v1model) -- GENERATED, do not edit.
 * Rendered from templates/ocs_v1model.p4.j2 for profile "tiny" by controller.p4gen.
 *
 * 8 ToRs x 2 uplinks = 16 ports; port tor * 2 + uplink
 * faces that ToR uplink. In slice s a frame entering port i leaves on circuit(s, i);
 * no circuit -> dropped and counted. The slice clock is set by the same timer packets
 * as the ToR program (EtherType 0x88B5); they are never forwarded.
 */
#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_TIMER = 0x88B5;
const bit<32> NUM_SLICES = 4;
typedef bit<8> slice_t;
const bit<32> OCS_DROP_NO_CIRCUIT = 0;
const bit<32> OCS_DROP_BAD_TIMER = 1;

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}
header timer_t {
    bit<16> slice;
    bit<16> reserved;
}
struct headers_t {
    ethernet_t ethernet;
    timer_t    timer;
}
struct metadata_t {
    slice_t cur_slice;
}

parser OcsParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t sm) {
    state start {
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
    /* drop reasons: no_circuit, bad_timer */
    counter(2, CounterType.packets) ocs_drops;
    register<slice_t>(1) slice_reg;

    action connect(bit<9> port) { sm.egress_spec = port; }
    action no_circuit() { ocs_drops.count(OCS_DROP_NO_CIRCUIT); mark_to_drop(sm); }
    table circuit {
        key = {
            meta.cur_slice: exact @name("slice");
            sm.ingress_port: exact @name("in_port");
        }
        actions = { connect; @defaultonly no_circuit; }
        default_action = no_circuit();
        size = 64;
    }

    apply {
        if (hdr.timer.isValid()) {
            if ((bit<32>)hdr.timer.slice < NUM_SLICES) {
                slice_reg.write(0, (slice_t)hdr.timer.slice);
            } else {
                ocs_drops.count(OCS_DROP_BAD_TIMER);
            }
            mark_to_drop(sm);
            exit;
        }
        slice_reg.read(meta.cur_slice, 0);
        circuit.apply();
    }
}

control OcsEgress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) { apply { } }
control OcsComputeChecksum(inout headers_t hdr, inout metadata_t meta) { apply { } }
control OcsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.timer);
    }
}

V1Switch(OcsParser(), OcsVerifyChecksum(), OcsIngress(), OcsEgress(),
         OcsComputeChecksum(), OcsDeparser()) main;
