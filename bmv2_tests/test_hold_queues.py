"""Calendar queues on bmv2 (docs/p4.md): a packet held for a later slice circles in a hold
queue of its uplink -- an egress priority queue paced slowly, below the top queue that
carries what departs now -- and takes the lowest hold queue not yet crowded, so a
burst of held packets spreads over several of them. bmv2 keeps 64 packets per priority
queue: more held packets than that for one uplink all leave in their slice only if they
spread; a program that kept them in one queue loses the rest in bmv2's queue, unseen. A held
packet waits in a hold queue from its first pass: the test paces the uplink's top queue at
2 frames a second while the burst is held, so a program that sent the burst's first pass
through the top queue would overflow it (as a loaded bmv2 does when its ingress outpaces
the uplink).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from scapy.layers.inet import IP
from scapy.layers.l2 import Ether

from fabric import ME, UPLINK_BASE, set_slice, tor_batch, udp, uro_entry, uro_routes

from controller.emulate import procs
from controller.emulate.config import DEFAULT_UPLINK_PPS

S = 4
#: the top queue's pace while the burst is held: far below what ingress admits
PACED_PPS = 2
#: ... and while it is released: as fast as egress goes
RELEASE_PPS = 100_000
#: more than one bmv2 priority queue holds (64): they fit only spread over hold queues
BURST = 100
#: frames in flight to the switch at once: far below a port's receive buffer
SEND_AT_ONCE = 10


def _case(wait: int):
    """(dst, slice, alternative 0) whose first alternative leaves ``wait`` slices later."""
    return next((d, s, uro_entry(d, s).alternatives[0]) for s in range(S) for d in range(1, 8)
                if uro_entry(d, s).alternatives[0].wait == wait)


def _receive(dp, port: int, n: int, timeout: float) -> list[int]:
    """IPv4 ids of up to ``n`` frames that leave on ``port`` (``timeout`` per frame: a
    liveness bound for a loaded machine, not a timing)."""
    ids = []
    while len(ids) < n:
        r = dp.dataplane.poll(port_number=port, timeout=timeout)
        if r.packet is None:
            break
        ids.append(Ether(r.packet)[IP].id)
    return ids


def _send_burst(dp, client, contract, dst: int) -> int:
    """Send the burst into the host port ``SEND_AT_ONCE`` frames at a time, each group once
    ingress has taken the one before; returns how many frames ingress took. All of them are
    taken in the same slice either way (the test moves no slice), but a loaded switch that
    does not read its port loses the frames beyond the port's receive buffer before its
    ingress sees them (69 of 100 sent at once, seen under load). The wait per group is a
    liveness bound for a loaded machine, not a timing."""
    before = client.read_counters(contract, "passes")["fresh"]
    end = time.monotonic() + 60
    taken = 0
    for first in range(0, BURST, SEND_AT_ONCE):
        sent = min(BURST, first + SEND_AT_ONCE)
        for i in range(first, sent):
            dp.send(0, udp(dst, ident=3000 + i))
        while (taken := client.read_counters(contract, "passes")["fresh"] - before) < sent \
                and time.monotonic() < end:
            time.sleep(0.05)
    return taken


def _kernel_drops(ifc: str) -> dict[str, int]:
    """What the kernel dropped: the switch's veth ``ifc`` (frames bmv2 sent that never
    reached the test's end) and every CPU's input backlog (``/proc/net/softnet_stat``'s
    second column, netdev_max_backlog overflows: a loaded machine's, not the switch's)."""
    stats = Path("/sys/class/net") / ifc / "statistics"
    out = {f"{ifc} {k}": int((stats / k).read_text()) for k in ("tx_dropped", "rx_dropped")}
    out["softnet backlog"] = sum(int(line.split()[1], 16)
                                 for line in Path("/proc/net/softnet_stat").read_text().splitlines())
    return out


# A whole CI run at load 8-10 once lost 5 of the 100 frames on their way out (a switch
# taking its burst in one go, or the kernel's backlog: the failure now says which); the
# rerun is a fresh switch, and a program that loses held frames fails it again
@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_a_burst_held_for_the_next_slice_spreads_over_hold_queues_and_leaves_in_its_slice(tor):
    sw, client, dp, contract = tor
    assert contract["calendar"]["hold_queues"] * contract["calendar"]["hold_crowd"] < BURST
    client.write(tor_batch(contract, ME, uro_routes=uro_routes()))
    dst, t, a0 = _case(1)
    top = (UPLINK_BASE + a0.uplink, contract["calendar"]["depart_priority"])
    procs.set_queue_rates(sw.thrift_port, {top: PACED_PPS}, "tor")
    kernel_before = _kernel_drops(sw.ports[top[0]])
    try:
        set_slice(dp, t)
        taken = _send_burst(dp, client, contract, dst)
        assert taken >= BURST, f"{taken} of the {BURST} frames reached ingress"
        dp.expect_none(timeout=0.5)                  # all held for slice t + 1
        # the release: the burst leaves through the top queue; a loaded switch that takes
        # the released frames in one go must not overflow it (what is tested is the hold)
        procs.set_queue_rates(sw.thrift_port, {top: RELEASE_PPS}, "tor")
        set_slice(dp, (t + 1) % S, settle=0)
        got = _receive(dp, UPLINK_BASE + a0.uplink, BURST, timeout=10)
    finally:
        procs.set_queue_rates(sw.thrift_port, {top: DEFAULT_UPLINK_PPS}, "tor")
    drops = {k: v for k, v in client.read_counters(contract, "drops").items() if v}
    events = client.read_counters(contract, "events")
    passes = client.read_counters(contract, "passes")
    missing = sorted(set(range(3000, 3000 + BURST)) - set(got))
    assert sorted(got) == list(range(3000, 3000 + BURST)), \
        f"held packets {missing} never left on uplink {a0.uplink}; drops {drops}; " \
        f"events {({k: v for k, v in events.items() if v})}; passes {passes}; " \
        f"dropped by the test's receive sockets {dp.socket_drops()}; by the kernel " \
        f"{ {k: v - kernel_before[k] for k, v in _kernel_drops(sw.ports[top[0]]).items()} }"
    assert drops == {}
    assert events["reroute_missed"] == 0
