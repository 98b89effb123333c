"""Profiles hold their own tables, and the bound on re-decisions, on
programs compiled for variants of the tiny profile.

A batch that does not fit the program's tables is refused before anything is written,
with the numbers; without that check bmv2 takes the entries that fit and refuses the
rest, which leaves a ToR with part of its routes.
"""

from __future__ import annotations

import dataclasses

import pytest
from fabric import ME, set_slice, tor_batch, ucmp_routes, udp

from controller.agent.p4runtime import P4RuntimeError
from controller.p4gen import profile as prof
from controller.tables import bulk, entries as ent
from controller.tables import tor_batch as tb


def variant(name: str, **kw) -> prof.Profile:
    base = prof.load("tiny")
    tables = kw.pop("tables", base.tables)
    return dataclasses.replace(base, name=name, tables=tables, **kw)


def test_a_batch_that_does_not_fit_is_refused_before_writing(compile_profile, tor_of):
    small = variant("tiny_small", tables=prof.ProfileTables(ssrr_ranges=1, ssrr_paths=1, ssrr_ties=8))
    arts = compile_profile(small)
    with tor_of(arts) as (sw, client, dp, contract):
        sel = contract["tables"]["ssrr_path"]
        assert sel["size"] == 2 * 7 * 4 * 1
        with pytest.raises(ent.EntryError, match=r"ToR 0 routes \(generation 0\): table ssrr_path needs \d+ entries, "
                                                 r"profile 'tiny_small' holds 56 entries for 2 generations, 28 for 1"):
            tor_batch(contract, ME, path_routes=ucmp_routes(), source_routed=range(1, 8))
        assert client.read_table(sel["name"]) == []           # nothing was written
        dp.send(0, udp(3))
        dp.expect_none()
        assert client.read_counters(contract, "drops")["unconfigured"] == 1
        # what the check prevents: bmv2 takes what fits and refuses the rest (two
        # generations side by side, as during a hitless update)
        unchecked = bulk.ssrr_entries(contract, ucmp_routes(), ME, 0).extend(
            bulk.ssrr_entries(contract, ucmp_routes(), ME, 1))
        assert len(unchecked.entries) > sel["size"]
        with pytest.raises(P4RuntimeError):
            client.write(unchecked)
        assert 0 < len(client.read_table(sel["name"])) < len(unchecked.entries)


def test_re_decisions_are_bounded(compile_profile, tor_of):
    """Six alternatives (K = 6), a capacity no packet fits: every pass marks one queue
    Full and decides again; after MAX_REROUTES = 5 re-decisions the packet is dropped
    (reroute_limit), not recirculated for ever (UCMP §6.3)."""
    k6 = variant("tiny_k6", alternatives=6)
    arts = compile_profile(k6)
    with tor_of(arts) as (sw, client, dp, contract):
        b = tb.static_entries(contract, ME)
        alts = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
        b.entries += [ent.uro_entry(contract, 0, 5, alts),
                      tb.config_entry(contract, ME, 0, capacity_bytes=1, bytes_per_us=0)]
        client.write(b)
        set_slice(dp, 0)
        dp.send(0, udp(5))
        dp.expect_none()
        drops = client.read_counters(contract, "drops")
        assert {k: v for k, v in drops.items() if v} == {"reroute_limit": 1}
        # all six queues are Full now: the next packet finds none in one lookup
        dp.send(0, udp(5, ident=2))
        dp.expect_none()
        assert client.read_counters(contract, "drops")["all_full"] == 1
        assert sw.alive()
