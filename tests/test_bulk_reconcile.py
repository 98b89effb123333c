"""The reconcile of a switch running the current routes compares its route objects in bulk
(:meth:`controller.daemon.switch.SwitchAgent._reconcile_in_bulk`: the routes and their
shadow encoded, the switch's answers looked up among those bytes, only the rest decoded)
and repairs exactly what the reference path repairs (the whole switch decoded and diffed,
``bulk_reconcile = False``): on the daemon's fake switches for random route sets, kinds of
drift and generations kept as objects or as versions, after a cut cable's update; and on
the simulated fabric through the real P4Runtime client, where what is compared are the
entity bytes. A switch without drift is read once and nothing of its routes is decoded;
drift in the routes is found and the whole switch read and diffed."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from controller.agent import generations as gens  # noqa: E402
from controller.agent import known as known_mod  # noqa: E402
from controller.agent.diff import Diff, explain, same_state  # noqa: E402
from controller.daemon.controller import Change  # noqa: E402
from controller.daemon.switch import SwitchAgent  # noqa: E402
from controller.tables.state import Batch  # noqa: E402

from test_fresh_writes import TORS, fake_network, routing, sim, sim_config, sim_states  # noqa: E402, F401
from test_fresh_writes import program  # noqa: E402, F401  (the module's fixture)

#: what is changed behind the daemon's back before the reconcile
DRIFTS = ("none", "active_deleted", "active_changed", "shadow_deleted", "shadow_stray", "static_deleted",
          "config_masked")
#: the drifts the bulk comparison finds in the route objects (the whole switch is then read)
IN_ROUTES = {"active_deleted", "active_changed", "shadow_deleted", "shadow_stray"}


class Reads:
    """Whole reads of the switch that a reconcile decodes (:meth:`SwitchAgent._read_split`)
    and bulk comparisons (:meth:`SwitchAgent._reconcile_in_bulk`) that found no drift in
    the routes, per switch."""

    def __init__(self, monkeypatch):
        self.split, self.bulk = [], []
        split, bulk = SwitchAgent._read_split, SwitchAgent._reconcile_in_bulk

        def counted_split(agent):
            self.split.append(agent.name)
            return split(agent)

        def counted_bulk(agent, routes):
            n = bulk(agent, routes)
            if n is not None:
                self.bulk.append(agent.name)
            return n
        monkeypatch.setattr(SwitchAgent, "_read_split", counted_split)
        monkeypatch.setattr(SwitchAgent, "_reconcile_in_bulk", counted_bulk)

    def clear(self) -> None:
        self.split.clear()
        self.bulk.clear()


def _changed(e):
    """``e`` with its first action parameter changed."""
    (name, v), *rest = e.params
    return dataclasses.replace(e, params=((name, v ^ 1), *rest))


def drift(state: Batch, role, kind: str) -> Diff:
    """The out-of-band write ``kind`` for a switch holding ``state``."""
    p = gens.split(state, role.config_table())
    act, _ = role.active(state)
    active = [e for e in p.gens[act].entries if e.params]
    shadow = p.gens.get(1 - act, Batch()).entries
    if kind == "active_deleted":
        return Diff(delete=Batch(entries=[active[len(active) // 2]]))
    if kind == "active_changed":
        return Diff(modify=Batch(entries=[_changed(active[-1])]))
    if kind == "shadow_deleted":
        return Diff(delete=Batch(entries=[shadow[0]]))
    if kind == "shadow_stray":          # a route entry of the shadow that the routes do not have
        keys = {(e.table, e.match) for e in shadow}
        e = next(dataclasses.replace(x, match=tuple((k, 1 - act if k == "generation" else v) for k, v in x.match))
                 for x in active if x.group_id is None)
        for dst in range(1 << 12):
            stray = dataclasses.replace(e, match=tuple((k, dst if k == "dst_tor" else v) for k, v in e.match))
            if (stray.table, stray.match) not in keys:
                return Diff(insert=Batch(entries=[stray]))
        raise AssertionError("no free key for a stray entry")
    if kind == "static_deleted":
        return Diff(delete=Batch(entries=[next(e for e in p.static.entries)]))
    if kind == "config_masked":
        c = p.config
        return Diff(modify=Batch(entries=[dataclasses.replace(
            c, params=tuple((k, 1 if k == "down" else v) for k, v in c.params))]))
    assert kind == "none"
    return Diff()


def _fake_apply(sw, d: Diff) -> None:
    for e in d.delete.entries:
        sw.delete_entry(e)
    for e in (*d.insert.entries, *d.modify.entries):
        sw.set_entry(e)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source_routed=st.sets(st.integers(0, TORS - 1), max_size=2), compact=st.booleans(),
       kind=st.sampled_from(DRIFTS), tor=st.integers(0, TORS - 1), incremental=st.booleans())
def test_a_bulk_reconcile_repairs_what_the_reference_path_repairs(monkeypatch, source_routed, compact, kind, tor,
                                                                  incremental):
    """Both paths after a cut cable's update, the same drift on one ToR: the same repairs,
    every switch the same, and the recovery's update after them writes the same on every
    switch (what the reconcile left known is what the switch holds); the bulk path decodes
    no whole read where the routes did not drift, and one where they did."""
    monkeypatch.setattr(known_mod, "COMPACT_MIN_OBJECTS", 0 if compact else 1 << 30)
    reads = Reads(monkeypatch)
    tmp = tempfile.TemporaryDirectory(prefix="uro-bulk-reconcile-")
    nets = {}
    try:
        for bulk in (False, True):
            monkeypatch.setattr(SwitchAgent, "bulk_reconcile", bulk)
            ctl, sws = nets[bulk] = fake_network(Path(tmp.name) / str(bulk), routing(list(source_routed), 2), True,
                                                 monkeypatch, incremental)
            c = ctl.submit(Change("fail", "uplink", (3, 1), detected=ctl.clock()))
            ctl.handle_jobs()
            assert c.report is not None and not c.report.get("error"), c.report
            a = ctl.agents[f"tor{tor}"]
            sw = sws[a.cfg.address]
            _fake_apply(sw, drift(sw.state(), a.role, kind))
            reads.clear()
            n = [x.reconcile(ctl.routes) for x in ctl.agents.values()]
            assert (n[tor] > 0) == (kind != "none") and sum(n) == n[tor], n
            if bulk:
                others = sorted(x for x in ctl.agents if x != a.name)
                assert sorted(reads.bulk) == (others if kind in IN_ROUTES else sorted(ctl.agents))
                assert reads.split == ([a.name] if kind in IN_ROUTES else [])
                # the log says which switch was decoded whole, and why
                decoded = [kw for name, kw in getattr(ctl.log, "events", []) if name == "reconcile.decoding"]
                assert [d["switch"] for d in decoded] == ([a.name] if kind in IN_ROUTES else [])
                assert all(d["missing"] or d["other_route_objects"] for d in decoded)
                again = [x.reconcile(ctl.routes) for x in ctl.agents.values()]
                assert again == [0] * TORS and reads.split == ([a.name] if kind in IN_ROUTES else [])
            else:
                assert sorted(reads.split) == sorted(ctl.agents) and reads.bulk == []
                want = n
            # the next update starts from what the reconcile left known: the same writes
            written = {x.name: x.stats["entries_written"] for x in ctl.agents.values()}
            c = ctl.submit(Change("recover", "uplink", (3, 1), detected=ctl.clock()))
            ctl.handle_jobs()
            assert c.report is not None and not c.report.get("error"), c.report
            after = {x.name: (x.stats["entries_written"] - written[x.name], x.stats["diff_refused"])
                     for x in ctl.agents.values()}
            if not bulk:
                want_after = after
        assert n == want and after == want_after
        for addr, sw in nets[True][1].items():
            got, ref = sw.state(), nets[False][1][addr].state()
            assert same_state(got, ref), f"{sw.name}: bulk reconcile against the reference: {explain(got, ref)}"
    finally:
        for ctl, _ in nets.values():
            ctl.shutdown()
        tmp.cleanup()


def test_a_mutant_that_trusts_a_missing_route_object_is_caught(monkeypatch):
    """The comparison must not pass a switch one of whose route objects is missing:
    a reconcile that ignores what read_state_beside reports missing leaves the switch
    without that entry, which the reference repairs (the property above sees it too)."""
    from controller.agent.backend import SwitchBackend

    orig = SwitchBackend.read_state_beside
    tmp = tempfile.TemporaryDirectory(prefix="uro-bulk-reconcile-")
    try:
        ctl, sws = fake_network(Path(tmp.name) / "n", routing([], 2), True, monkeypatch)
        a = ctl.agents["tor1"]
        sw = sws[a.cfg.address]
        d = drift(sw.state(), a.role, "active_deleted")
        _fake_apply(sw, d)
        monkeypatch.setattr(SwitchBackend, "read_state_beside", lambda b, ins: ([], orig(b, ins)[1]))
        assert a.reconcile(ctl.routes) == 0             # the broken comparison: nothing found
        assert d.delete.entries[0] not in sw.state().entries
        monkeypatch.setattr(SwitchBackend, "read_state_beside", orig)
        assert a.reconcile(ctl.routes) == 1             # the real one repairs it
        assert d.delete.entries[0] in sw.state().entries
    finally:
        ctl.shutdown()
        tmp.cleanup()


# ---- the simulated fabric: the entity bytes compared ------------------------------------------
def _sim_reconciled(tmp_path, program, monkeypatch, bulk: bool, kinds: dict[int, str]) -> tuple[list, list, list]:
    """A network of 8 on the simulated fabric, a cut cable, drift ``kinds`` ({ToR: kind})
    written by a client of its own, every switch reconciled twice: (repairs of each pass,
    the states after, the ToRs whose routes the bulk path compared without drift)."""
    from controller.daemon.controller import Controller
    from controller.simfabric.process import SimFabric
    from test_daemon_incremental import Log

    monkeypatch.setattr(SwitchAgent, "bulk_reconcile", bulk)
    reads = Reads(monkeypatch)
    with SimFabric(tmp_path / f"fabric{int(bulk)}", TORS) as fabric:
        ctl = Controller(sim_config(tmp_path, program, fabric, TORS), log=Log())
        try:
            ctl.start()
            c = ctl.submit(Change("fail", "uplink", (1, 1), source="api"))
            ctl.handle_jobs()
            assert c.report is not None and not c.report.get("error"), c.report
            states = sim_states(fabric)
            for t, kind in kinds.items():            # written behind the agent's back (its known state)
                a = ctl.agents[f"tor{t}"]
                a.backend.apply(drift(states[t], a.role, kind))
            reads.clear()
            passes = [[ctl.agents[f"tor{t}"].reconcile(ctl.routes) for t in range(TORS)] for _ in range(2)]
            return passes, sim_states(fabric), sorted(reads.bulk)
        finally:
            ctl.shutdown()


@sim
@pytest.mark.parametrize("compact", [False, True], ids=["objects", "versions"])
def test_on_the_simulated_fabric_a_bulk_reconcile_is_the_reference_entry_by_entry(tmp_path, program, monkeypatch,
                                                                                  compact):
    monkeypatch.setattr(known_mod, "COMPACT_MIN_OBJECTS", 0 if compact else 1 << 30)
    kinds = {1: "active_changed", 2: "shadow_stray", 5: "static_deleted"}
    ref = _sim_reconciled(tmp_path, program, monkeypatch, False, kinds)
    got = _sim_reconciled(tmp_path, program, monkeypatch, True, kinds)
    assert ref[0] == got[0] and got[0][1] == [0] * TORS
    assert all(got[0][0][t] > 0 for t in kinds) and sum(got[0][0]) == sum(got[0][0][t] for t in kinds)
    # the bulk path compared the routes of every ToR but those whose routes drifted, both passes
    drifted = [f"tor{t}" for t, k in kinds.items() if k in IN_ROUTES]
    assert got[2] == sorted([f"tor{t}" for t in range(TORS) if f"tor{t}" not in drifted] + [f"tor{t}" for t in range(TORS)])
    assert ref[2] == []
    for t, (x, y) in enumerate(zip(got[1], ref[1])):
        assert same_state(x, y), f"ToR {t}: {explain(x, y)}"
