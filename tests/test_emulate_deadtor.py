"""The dead-ToR figure's bookkeeping (controller/emulate/deadtor.split): packets seen
towards a failed ToR are split by the daemon's own times and turned into rates."""

from controller.emulate.deadtor import split

T = 1000.0


def test_packets_are_split_by_detection_mask_and_generation():
    times = [T - 5.0, T - 2.0, T - 0.1, T + 0.001, T + 0.004, T + 0.020, T + 1.5, T + 3.2, T + 9.0]
    r = split(2, [(t, f"p{i}") for i, t in enumerate(times)], T, dataplane_ms=5.0, generation_s=3.0,
              lead_s=3.0, t_end=T + 5.0, pings=(4, 100))
    # T - 5 is outside the lead, T + 9 after the end
    assert (r.before, r.to_mask, r.mask_to_generation, r.after_generation) == (2, 2, 2, 1)
    assert r.late == ["+20 ms p5", "+1500 ms p6", "+3200 ms p7"]
    assert abs(r.rate_before - 2 / 3.0) < 1e-9 and abs(r.rate_masked - 2 / 2.995) < 1e-9
    assert "0.7/s before, 0.7/s between mask and new generation" in r.line()


def test_without_a_mask_everything_after_detection_is_before_the_mask():
    r = split(1, [(T + 0.5, "a"), (T + 9.0, "b")], T, dataplane_ms=None, generation_s=None, lead_s=3.0,
              t_end=T + 10)
    assert (r.before, r.to_mask, r.mask_to_generation, r.after_generation) == (0, 2, 0, 0)
    assert r.rate_masked is None and "no mask" in r.line() and r.late == []


def test_packets_are_classified_by_the_slices_their_sender_and_the_ocs_were_told():
    """Two ToRs (0 and 1) and the dead ToR 2, one uplink, slices of 100 ms: in slice 0
    ToR 0 meets ToR 2, in slice 1 ToR 1 does. The timer log puts ToR 1's timer of slice 1
    30 ms after the OCS's once (ToR 1 late): a packet that arrives at ToR 2 then came from
    ToR 1 still in slice 0 (sent towards ToR 0): skew. Boundary 10 ms, margin 50 ms,
    detection at 10.0 s, mask written 5 ms later."""
    from controller.emulate.deadtor import classify

    peer = [[[2], [0], [0]],           # slice 0: 0 <-> 2, ToR 1 idle (peer 0: not 2)
            [[0], [2], [1]]]           # slice 1: 1 <-> 2
    timers = []
    for k in range(200):               # 20 s of slices
        t = k * 0.1
        timers.append([k, k % 2, {"ocs": t, "tor0": t + 0.001, "tor1": t + (0.030 if k == 121 else 0.001)}])
    seen = [(9.05, 0, "before: from tor0 in slice 0"),          # slice 90 (sid 0): towards 2
            (9.15, 0, "before: from tor1 in slice 1"),          # slice 91 (sid 1): towards 2
            (9.2005, 0, "before: at a timer"),                  # unclassified
            (10.02, 0, "in flight"),                            # before mask + margin: not counted
            (12.115, 0, "skew: tor1 still in slice 0"),         # slice 121: OCS in 1, tor1 told at 12.13
            (12.35, 0, "violation: tor1 in slice 1"),           # slice 123 (sid 1): from tor1 towards 2
            (12.45, 0, "violation: tor0 in slice 0"),            # slice 124: sid 0, from tor0 towards 2
            (12.905, 0, "at a timer"),                          # unclassified
            (15.0, None, "not on a watched wire")]
    r = split(2, [(t, d) for t, _, d in seen], 10.0, dataplane_ms=5.0, generation_s=3.0, lead_s=3.0, t_end=14.0)
    classify(r, seen, timers, peer, "ocs", boundary_ms=10.0, margin_ms=50.0, t_end=14.0, t_det=10.0)
    assert (r.towards_before, r.towards_after_mask, r.skew_after_mask, r.unclassified_after_mask) == (2, 2, 1, 1)
    assert r.towards_late[0].startswith("+2350 ms from tor1 uplink 0 in slice 1")
    assert r.towards_late[1].startswith("+2450 ms from tor0 uplink 0 in slice 0")
    assert r.towards_mask_to_gen == 2 and abs(r.expected_without_mask - 2 / 3 * (3.0 - 0.055)) < 1e-9
    assert ("2 before, 2 after the mask + 50 ms (2 before the new generation, 2.0 at the rate before) "
            "(1 boundary skew, 1 within 10 ms of a timer)") in r.line()


def test_no_mask_means_no_verdict():
    from controller.emulate.deadtor import classify

    r = split(1, [(10.5, "a")], 10.0, dataplane_ms=None, generation_s=None, lead_s=3.0, t_end=20)
    classify(r, [(10.5, 0, "a")], [[0, 0, {"ocs": 0.0, "tor0": 0.0}]], [[[1], [0]]], "ocs", 10.0, 50.0, 20.0, 10.0)
    assert (r.towards_before, r.towards_after_mask) == (0, 0)


def test_mask_ms_is_the_median_and_max_over_the_neighbours():
    r = split(1, [], T, dataplane_ms=9.0, generation_s=1.0, lead_s=3.0, t_end=T + 3)
    assert r.mask_ms() is None
    r.per_switch_ms = {"tor0": 4.0, "tor1": 9.0, "tor3": 2.0, "tor4": 5.0}
    assert r.mask_ms() == (4.5, 9.0)


def test_a_packet_sent_after_the_mask_counts_whenever_it_arrives_one_sent_before_does_not():
    """With the hosts' send times: the check is by when the packet was sent, not when a
    loaded switch let it onto the wire. Same two-ToR schedule as above; detection at
    10.0 s, every mask acknowledged at 10.005 s, margin 50 ms."""
    from controller.emulate.deadtor import classify

    peer = [[[2], [0], [0]], [[0], [2], [1]]]
    timers = [[k, k % 2, {"ocs": k * 0.1, "tor0": k * 0.1 + 0.001, "tor1": k * 0.1 + 0.001}] for k in range(200)]
    seen = [(9.05, 0, "before", None),
            (10.04, 0, "sent 10.03, inside the wire margin: counted", 10.03),
            (10.045, 0, "sent 9.99, before the mask, inside the margin", 9.99),
            (12.35, 0, "sent 9.99, before the mask, left 2.3 s late: not counted", 9.99),
            (12.45, 0, "sent 12.44: counted", 12.44),
            (12.55, 0, "no send time, after the margin: counted by its wire time", None)]
    r = split(2, [(t, d) for t, _, d, _ in seen], 10.0, dataplane_ms=5.0, generation_s=3.0, lead_s=3.0, t_end=14.0)
    classify(r, seen, timers, peer, "ocs", boundary_ms=10.0, margin_ms=50.0, t_end=14.0, t_det=10.0)
    assert r.towards_before == 1 and r.send_times == 4
    assert r.towards_after_mask == 3, r.towards_late
    assert [x.split(": ", 1)[1] for x in r.towards_late] == [
        "sent 10.03, inside the wire margin: counted", "sent 12.44: counted",
        "no send time, after the margin: counted by its wire time"]


def test_the_send_time_of_an_echo_is_read_from_pings_timeval():
    """iputils ping's data starts with its gettimeofday (two little-endian 64-bit words);
    a reply carries its request's. Not an echo, too short, or a stamp that is not within
    a minute before the wire time: unknown."""
    import struct

    from scapy.layers.inet import ICMP, IP, UDP
    from scapy.packet import Raw

    from controller.emulate.deadtor import sent_at

    stamp = struct.pack("<qq", 1795680000, 250000) + bytes(40)
    wire = 1795680000.4
    assert sent_at(IP() / ICMP(type=8) / Raw(stamp), wire) == 1795680000.25
    assert sent_at(IP() / ICMP(type=0) / Raw(stamp), wire) == 1795680000.25
    assert sent_at(IP() / ICMP(type=3) / Raw(stamp), wire) is None
    assert sent_at(IP() / UDP() / Raw(stamp), wire) is None
    assert sent_at(IP() / ICMP(type=8) / Raw(stamp[:12]), wire) is None
    assert sent_at(IP() / ICMP(type=8) / Raw(stamp), wire + 120) is None          # a minute or more old
    assert sent_at(IP() / ICMP(type=8) / Raw(stamp), wire - 1.0) is None          # after the wire saw it
    assert sent_at(IP() / ICMP(type=8) / Raw(struct.pack("<qq", 1795680000, 2_000_000)), wire) is None
