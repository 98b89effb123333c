"""Every named profile holds its own tables.

For each named profile, routes are computed on real schedules of its size (Opera-style
and round-robin, the profile's timing) and the batch of the ToR that needs the most is
compared with the table sizes *in the rendered P4* (parsed from the program text, not
taken from the contract): one generation must fit in half of every route table, so a
second generation can be written beside it. 108 x 6 and 1024 x 32 are `slow` (routes
for a whole network).

For 1024 x 32 the whole UCMP route set does not fit in memory (189M paths); its
source-route need is counted per source ToR from the streamed group engine instead,
which bounds the batch from above: a ToR's ssrr_path entries are at most its group
levels, its selector members at most the paths of those levels.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from controller.p4gen import profile as prof
from controller.p4gen import render as rnd
from controller.routing import ucmp
from controller.routing.uro import UroParams, compute
from controller.schedule import opera, round_robin
from controller.schedule.model import Timing
from controller.tables import entries as ent
from controller.tables import source as source_tables
from controller.tables import tor_batch as tb


def rendered_sizes(text: str) -> dict[str, int]:
    """{table or selector short name: size} as written in the rendered program."""
    out = {}
    for m in re.finditer(r"\btable (\w+) \{(.*?)\n    \}", text, re.S):
        size = re.search(r"size = (\d+);", m.group(2))
        out[m.group(1)] = int(size.group(1))
    for m in re.finditer(r"action_selector\(HashAlgorithm\.\w+, 32w(\d+), 32w\d+\) (\w+);", text):
        out[m.group(2)] = int(m.group(1))
    g = re.search(r"@max_group_size\((\d+)\)", text)
    if g:
        out["max_group_size"] = int(g.group(1))
    return out


def schedules(p: prof.Profile):
    t = p.timing
    timing = Timing(slice_us=t.slice_us, guard_us=t.guard_us, link_gbps=t.link_gbps)
    return [opera(p.tors, p.uplinks, seed=0, timing=timing), round_robin(p.tors, p.uplinks, timing=timing)]


def worst_tors(routes, n: int) -> set[int]:
    """The ToRs with the most source-route entries and the most paths."""
    per = [(0, 0)] * n
    for src in range(n):
        e = m = 0
        for x in source_tables.entries(routes, src):
            e += 1
            m += len(x.paths)
        per[src] = (e, m)
    return {max(range(n), key=lambda s: per[s][0]), max(range(n), key=lambda s: per[s][1])}


def check_against_program(text: str, contract: dict, batch: ent.Batch) -> dict:
    sizes = rendered_sizes(text)
    for short, t in contract["tables"].items():
        assert sizes[short] == t["size"], f"{short}: contract and program disagree"
    assert sizes["ssrr_selector"] == contract["action_profiles"]["ssrr_selector"]["size"]
    need: dict[str, int] = {}
    for e in batch.entries:
        if not e.is_default:
            short = e.table.split(".")[-1]
            need[short] = need.get(short, 0) + 1
    need["ssrr_selector"] = len(batch.members)
    for short, n in need.items():
        keyed = short == "ssrr_selector" or contract["tables"][short]["generation_keyed"]
        room = sizes[short] // 2 if keyed else sizes[short]
        assert n <= room, f"{short}: one ToR needs {n}, the program holds {room} per generation"
    assert max((len(g.member_ids) for g in batch.groups), default=0) <= sizes["max_group_size"]
    return need


@pytest.mark.parametrize("name", ["tiny", pytest.param("r108x6", marks=pytest.mark.slow)])
def test_named_profile_holds_the_full_batch_of_a_real_network(name):
    p = prof.load(name)
    text, c = rnd.render(p, "tor")
    for sched in schedules(p):
        uro = compute(sched, UroParams(k=p.alternatives))
        paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=p.ssrr_hops))
        for tor in worst_tors(paths, p.tors) | {0}:
            b = tb.tor_batch(c, tor, uro_routes=uro, path_routes=paths,
                             source_routed=[d for d in range(p.tors) if d != tor])
            need = check_against_program(text, c, b)
            assert need["uro_next_hop"] == (p.tors - 1) * p.slices
            assert need["host_dst"] == p.tors - 1 + p.host_ports


@pytest.mark.slow
def test_r1024x32_holds_its_tables():
    p = prof.load("r1024x32")
    text, c = rnd.render(p, "tor")
    sizes = rendered_sizes(text)
    sched = schedules(p)[0]
    # per-hop tables and the static ones: the full batch of ToR 0
    b = tb.tor_batch(c, 0, uro_routes=compute(sched, UroParams(k=p.alternatives)))
    need = check_against_program(text, c, b)
    assert need["uro_next_hop"] == (p.tors - 1) * p.slices and need["host_dst"] == 1039
    # source routes: every ToR's group levels and paths, streamed
    params = ucmp.UcmpParams(h_max=p.ssrr_hops)
    levels = np.zeros(p.tors, np.int64)
    npaths = np.zeros(p.tors, np.int64)
    ties = longest = 0
    for ch in ucmp.group_chunks(sched, params):
        src = (ch.lv_gid // p.tors) % p.tors
        levels += np.bincount(src, minlength=p.tors)
        npaths += np.bincount(src[ch.p_lv], minlength=p.tors)
        ties = max(ties, int(np.bincount(ch.p_lv).max(initial=0)))
        longest = max(longest, int(ch.lv_hops.max(initial=0)))
    assert longest <= p.ssrr_hops
    assert ties <= sizes["max_group_size"]
    assert levels.max() <= sizes["ssrr_path"] // 2, (int(levels.max()), sizes["ssrr_path"])
    assert npaths.max() <= sizes["ssrr_selector"] // 2, (int(npaths.max()), sizes["ssrr_selector"])


def test_a_batch_that_does_not_fit_names_the_table_and_the_numbers():
    small = prof.Profile(**{**prof.load("tiny").__dict__, "name": "small",
                            "tables": prof.ProfileTables(ssrr_ranges=1, ssrr_paths=1, ssrr_ties=8)})
    c = rnd.contract(small, "tor")
    sched = round_robin(8, 2)
    paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=4))
    OTHERS = [d for d in range(8) if d != 3]         # every destination source-routed
    with pytest.raises(ent.EntryError, match=r"ToR 3 routes \(generation 1\): table ssrr_path needs \d+ entries, "
                                             r"profile 'small' holds 56 entries for 2 generations, 28 for 1 "
                                             r"\(\(N-1\) x S x tables.ssrr_ranges = 28 x 1 per generation\); "
                                             r"raise tables.ssrr_ranges"):
        tb.route_entries(c, 3, path_routes=paths, source_routed=OTHERS, generation=1)
    few = prof.Profile(**{**prof.load("tiny").__dict__, "name": "few",
                          "tables": prof.ProfileTables(ssrr_ranges=3, ssrr_paths=1, ssrr_ties=8)})
    with pytest.raises(ent.EntryError, match=r"action profile ssrr_selector needs \d+ members, profile 'few' holds "
                                             r"56 for 2 generations, 28 for 1"):
        tb.route_entries(rnd.contract(few, "tor"), 3, path_routes=paths, source_routed=OTHERS)
    one = prof.Profile(**{**prof.load("tiny").__dict__, "name": "one",
                          "tables": prof.ProfileTables(ssrr_ranges=3, ssrr_paths=8, ssrr_ties=1)})
    with pytest.raises(ent.EntryError, match=r"a group of \d tied paths, profile 'one' holds 1 \(tables.ssrr_ties\)"):
        tb.route_entries(rnd.contract(one, "tor"), 3, path_routes=paths, source_routed=OTHERS)


def test_paths_longer_than_h_and_extra_alternatives_are_refused_not_cut():
    """Before, entries.py dropped tied paths longer than H from their group without a
    word and kept only the first K alternatives."""
    base = prof.load("tiny")
    short = prof.Profile(**{**base.__dict__, "name": "short", "ssrr_hops": 2})
    c = rnd.contract(short, "tor")
    sched = round_robin(8, 2)
    paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=4))
    longest = max(len(p) for e in source_tables.entries(paths, 0) for p in e.paths)
    assert longest == 3
    with pytest.raises(ent.EntryError, match=r"ssrr_path \(src 0, dst \d, slice \d, buckets \d\.\.\d\): a tied path "
                                             r"of 3 hops, profile 'short' holds ssrr_hops = 2; compute the routes "
                                             r"with h_max <= 2"):
        tb.route_entries(c, 0, path_routes=paths, source_routed=range(1, 8))
    uro = compute(sched, UroParams(k=4))
    with pytest.raises(ent.EntryError, match=r"uro_next_hop \(src 0, slice \d, dst \d\): the routes carry 4 "
                                             r"alternatives, profile 'tiny' holds K = 3"):
        tb.route_entries(rnd.contract(base, "tor"), 0, uro_routes=uro)
