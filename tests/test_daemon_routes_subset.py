"""The daemon computes source routes towards the source-routed destinations only
(issue 21 part 3): every group it reads is the full computation's, the rest are empty;
per-hop routes, host flow-aging rules and the ToR entries follow."""

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from controller.daemon.config import load
from controller.daemon.plan import compute_routes
from controller.routing import base
from controller.schedule.degrade import Failed, without

from daemon_fakes import net_toml, tor_switch
from test_ucmp_destinations import group_view

SR = (1, 5, 6)


def _routing(engine: str, sr=SR) -> str:
    return (f"source_routed = {list(sr)}\n[routing.per_hop]\nalgo = \"uro\"\nk = 3\nmax_hops = 4\n"
            f"[routing.source]\nalgo = \"ucmp\"\nh_max = 4\nengine = \"{engine}\"")


@pytest.mark.parametrize("engine", ["numba", "numpy"])
@pytest.mark.parametrize("failed", [Failed(), Failed(uplinks=frozenset({(0, 1), (3, 0)})),
                                    Failed(tors=frozenset({2}))])
def test_source_routes_of_the_source_routed_destinations_are_the_full_ones(tmp_path, engine, failed):
    cfg = load(net_toml(tmp_path, [tor_switch(0)], routing=_routing(engine)))
    from controller.daemon.plan import build_schedule

    sched = build_schedule(cfg)
    r = compute_routes(cfg, sched, failed, 3)
    rsched = without(sched, failed)
    alg = base.get("ucmp")
    full = alg.run(rsched, alg.params({"h_max": 4, "engine": engine, "hops_per_slice": sched.timing.hops_per_slice}))
    S, N = rsched.n_slices, rsched.n_tors
    assert r.source_routed == SR and r.source.notes["destinations"] == list(SR)
    for t in range(S):
        for src in range(N):
            for dst in range(N):
                if dst in SR:
                    assert group_view(r.source, t, src, dst) == group_view(full, t, src, dst), (t, src, dst)
                else:
                    assert r.source.g_count[t, src, dst] == 0
    # per-hop routes are whole, as before
    ph = base.get("uro").run(rsched, base.get("uro").params({"k": 3, "max_hops": 4,
                                                             "hops_per_slice": sched.timing.hops_per_slice}))
    for name in ("arrival", "hops", "alt_uplink", "alt_dep"):
        assert (getattr(r.per_hop, name) == getattr(ph, name)).all(), name


def test_all_source_routed_is_the_full_computation(tmp_path):
    cfg = load(net_toml(tmp_path, [tor_switch(0)], routing=_routing("numpy").replace(
        f"source_routed = {list(SR)}", 'source_routed = "all"')))
    from controller.daemon.plan import build_schedule

    sched = build_schedule(cfg)
    r = compute_routes(cfg, sched, Failed(uplinks=frozenset({(1, 0)})), 2)
    assert (r.source.g_count > 0).sum() > 0
    assert "destinations" in r.source.notes and r.source.notes["destinations"] == list(range(8))
    full = base.get("ucmp").run(without(sched, Failed(uplinks=frozenset({(1, 0)}))), base.get("ucmp").params(
        {"h_max": 4, "engine": "numpy", "hops_per_slice": sched.timing.hops_per_slice}))
    assert r.source.buckets.boundaries == full.buckets.boundaries
    assert (r.source.g_count == full.g_count).all()
