"""UCMP as a whole system on the emulated 8x2 fabric (the short CI form
of ``uro bench --suite ucmp-emulate``): every destination source-routed (SSRR), host flow
aging installed by the daemon in every host (nftables, UCMP §6.1), one long TCP flow and
short TCP flows at the same time.

What the packets must show, read at the ToRs' ``ssrr_paths`` counters (packets from
hosts by UCMP bucket and hop count of the path the source ToR wrote):

- the long flow's packets climb out of bucket 0 at its source ToR once it has sent more
  than the first bucket boundary (its host tags them; the ToR maps DSCP -> bucket);
- the short flows (all below the first boundary) stay in bucket 0 at their hosts and source
  ToRs; a ToR carries in a bucket above 0 only packets its hosts tagged so (the long flow's
  ACK stream is aged by its own bytes and may pass the first boundary on a fast machine);
- every (bucket, hops) seen is one the route set gives that bucket for that pair;
- the short flows complete, and no packet is dropped for arriving at a ToR its source
  route does not name (part 3: ``bad_ssrr``; such packets are re-sourced).

Completion times and the paths' hop counts are printed as figures, not asserted.
"""

from __future__ import annotations

import dataclasses
import statistics
import threading
import time

import pytest
from emulate_tests.conftest import bring_up, example, figure

from controller.emulate import traffic
from controller.host import nft

LINK_GBPS = 0.02         # a slice's bytes near what bmv2 carries (see benchmarks/bench_ucmp_emulate.py)
LONG_SRC, LONG_DST = "h0_0", "h5_0"
LONG_S = 8.0
SHORT = 4_000


@pytest.fixture(scope="module")
def ucmp_fab(state_root):
    cfg = example()
    cfg = dataclasses.replace(cfg, link_gbps=LINK_GBPS,
                              routing=dataclasses.replace(cfg.routing, source_routed=tuple(range(cfg.tors))))
    with bring_up(cfg, "a", state_root) as env:
        yield env


def _group_cells(routes, src: int, dst: int) -> set[tuple[int, int]]:
    """(bucket, hops) the route set gives bucket b of (src -> dst) in some start slice."""
    from controller.tables import source as source_tables

    out = set()
    for e in source_tables.entries(routes.source, src):
        if e.dst == dst:
            for b in range(e.buckets[0], e.buckets[1] + 1):
                out.update((b, len(p)) for p in e.paths)
    return out


def test_long_flow_ages_into_higher_buckets_while_short_flows_stay_in_bucket_0(ucmp_fab):
    from controller.host import aging

    env = ucmp_fab
    plan = env.plan
    rules = aging.rules_for_routes(env.routes.source, env.cfg.alpha)
    first = next((lo for lo, hi, b in rules.intervals if b >= 1), None)
    assert first is not None, "the route set has one bucket: nothing to age into"
    assert SHORT * 2 < first, f"short flows of {SHORT} bytes would cross the first boundary ({first} bytes)"
    src_tor = plan.host(LONG_SRC).tor
    # short flows between the other ToRs (not from the long flow's source ToR)
    pairs = [(a, b) for a, b in traffic.all_pairs(plan) if plan.host(a).tor != src_tor][::3]
    flows = [(a, b, SHORT) for a, b in pairs]
    before = {sw.name: env.counters(sw.name) for sw in plan.tor_switches}
    tags_before = {h.name: nft.counters(h.netns) for h in plan.hosts}
    sinks = traffic.Sinks(plan, sorted({b for _, b, _ in flows}))
    try:
        long_r: list = []
        t = threading.Thread(target=lambda: long_r.append(
            traffic.iperf3(plan, LONG_SRC, LONG_DST, seconds=LONG_S, port=5202)), daemon=True)
        t.start()
        time.sleep(1.0)
        res = traffic.short_flows(plan, flows, timeout_s=10)
        t.join(LONG_S + 90)
    finally:
        sinks.stop()
    after = {sw.name: env.counters(sw.name) for sw in plan.tor_switches}
    # packets each host tagged above bucket 0 (its nft flow-aging counters; every direction of
    # a connection is aged by its own bytes, so the long flow's ACK stream at LONG_DST ages
    # too once its ~66-90 B ACKs pass the first boundary: on a quiet machine they do)
    tagged_up = {h.name: sum(n - tags_before[h.name].get(b, (0, 0))[0]
                             for b, (n, _) in nft.counters(h.netns).items() if b >= 1) for h in plan.hosts}

    def delta(name, group):
        return {k: v - before[name][group].get(k, 0) for k, v in after[name][group].items()}

    done = [f.fct_s * 1e3 for f in res if f.fct_s is not None]
    lr = long_r[0] if long_r else None
    drops = {}
    for sw in plan.tor_switches:
        for k, v in delta(sw.name, "drops").items():
            if v:
                drops[k] = drops.get(k, 0) + v
    paths = {sw.tor: traffic.ssrr_path_counts(delta(sw.name, "ssrr_paths")) for sw in plan.tor_switches}
    figure(f"[ucmp system] {len(done)}/{len(res)} short flows of {SHORT} B, FCT p50 "
           f"{statistics.median(done) if done else float('nan'):.0f} ms, max {max(done) if done else float('nan'):.0f} ms; "
           f"long flow {lr.goodput_mbps if lr else 0:.2f} Mbit/s ({lr.bytes_received if lr else 0} B, "
           f"first bucket boundary {first} B); ToR drops {drops}")
    figure(f"[ucmp system]   ssrr_paths at the long flow's source ToR {src_tor}: {paths[src_tor]}; "
           f"elsewhere: { {t: p for t, p in paths.items() if t != src_tor and p} }")

    assert lr is not None and lr.error is None, f"the long flow failed: {lr}"
    assert lr.bytes_received > 2 * first, "the long flow did not send past the first bucket boundary"
    assert len(done) >= 0.9 * len(res), f"{len(res) - len(done)} of {len(res)} short flows did not complete"
    # the long flow aged: its source ToR wrote paths for buckets above 0
    assert any(b >= 1 and sum(h.values()) > 0 for b, h in paths[src_tor].items()), paths[src_tor]
    # the short flows stayed in bucket 0 at their hosts (only the long flow's two ends tag higher) ...
    assert {h for h, n in tagged_up.items() if n} <= {LONG_SRC, LONG_DST}, tagged_up
    # ... and at every other ToR: a packet in a bucket above 0 is one its host tagged (the long
    # flow's ACKs at LONG_DST's ToR), never one the ToR put there by itself
    for tor, cells in paths.items():
        if tor != src_tor:
            up = sum(sum(h.values()) for b, h in cells.items() if b >= 1)
            hosts_up = sum(tagged_up[h.name] for h in plan.hosts if h.tor == tor)
            assert up <= hosts_up, f"ToR {tor}: {up} packets from hosts in buckets above 0, its hosts tagged {hosts_up}"
    # what ToR src_tor wrote for the long flow is what the route set gives its buckets
    allowed = _group_cells(env.routes, src_tor, plan.host(LONG_DST).tor)
    seen = {(b, h) for b, hs in paths[src_tor].items() for h in hs if b >= 1}
    assert seen <= allowed, f"(bucket, hops) {sorted(seen - allowed)} not in the group of {src_tor}->{LONG_DST}"
    # part 3: no packet is dropped for arriving where its source route does not say (re-sourced
    # instead); all_full / held_too_long are printed: a path whose only hop left in the slice
    # that just ended waits a cycle, which S calendar queues cannot book, and a busy machine
    # skips slices (docs/emulate.md)
    assert drops.get("bad_ssrr", 0) == 0, drops
