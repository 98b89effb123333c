"""`uro compare`'s edge-disjoint shares (member share and pair share, controller.analysis.compare)
against a direct count over every group, and the hint for htsim files with a placeholder
slice length."""

import itertools

import pytest
from hypothesis import given, settings

from controller.analysis import compare
from controller.cli import main
from controller.routing import ucmp
from controller.routing.paths import REGULAR
from controller.schedule import opera, save

from strategies import small_schedules


def brute(r):
    members = pairs = disjoint_members = disjoint_pairs = 0
    S, N = r.schedule.n_slices, r.schedule.n_tors
    for t in range(S):
        for src in range(N):
            for dst in range(N):
                if src == dst:
                    continue
                paths = [p for m in r.members(src, dst, t) if r.m_kind[m] == REGULAR for p in r.member_paths(m)]
                if len(paths) < 2:
                    continue
                edges = []
                for p in paths:
                    nodes = [src] + [int(h[0]) for h in p]
                    edges.append(set(zip(nodes, nodes[1:])))
                for i, e in enumerate(edges):
                    members += 1
                    disjoint_members += all(not (e & f) for j, f in enumerate(edges) if j != i)
                for e, f in itertools.combinations(edges, 2):
                    pairs += 1
                    disjoint_pairs += not (e & f)
    if not members:
        return None, None
    return disjoint_members / members, disjoint_pairs / pairs


@settings(max_examples=25, deadline=None)
@given(sched=small_schedules(max_tors=8))
def test_shares_match_a_direct_count(sched):
    for ties in ("last-hop", "all"):
        r = ucmp.compute(sched, ucmp.UcmpParams(h_max=4, ties=ties, backups=1))
        ed, _, pairs = compare.edge_disjoint_shares(r)
        want_ed, want_pairs = brute(r)
        assert (ed is None) == (want_ed is None)
        if ed is not None:
            assert ed == pytest.approx(want_ed) and pairs == pytest.approx(want_pairs)


def test_compare_prints_both_shares_and_the_placeholder_hint(tmp_path, capsys):
    sched = opera(8, 2)
    p = tmp_path / "topo.txt"
    save(sched.__class__(sched.peer, sched.timing.__class__(slice_us=2e6, guard_us=0.01), name="x"), p, "htsim")
    assert main(["compare", "--schedule", str(p), "--schemes", "ucmp", "--json", str(tmp_path / "c.json")]) == 0
    cap = capsys.readouterr()
    assert "disj-pairs" in cap.out and "edge-disj" in cap.out
    assert "is an htsim topology file with 2 s slices, a placeholder" in cap.err and "--slice-us" in cap.err
    import json
    row = json.loads((tmp_path / "c.json").read_text())["rows"][0]
    assert 0 <= row["edge_disjoint"] <= 1 and 0 <= row["edge_disjoint_pairs"] <= 1
    assert main(["compare", "--schedule", str(p), "--slice-us", "50", "--schemes", "ucmp"]) == 0
    assert "placeholder" not in capsys.readouterr().err
