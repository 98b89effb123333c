"""A generation written into an empty slot (a ToR's first install, its first shadow) is
written as inserts without a diff of its objects, and read back in bulk
(:attr:`controller.agent.generations.GenerationWriter.fresh_writes`; docs/fabric.md
"Where the CPU goes per ToR"). The switches end exactly as the reference path leaves them
(the whole state diffed, read back and compared object by object), entry by entry -- on
the daemon's fake switches for random route sets (URO per-hop and UCMP source routes with
their selector groups and members, generations kept as objects or as versions), and on the
simulated fabric through the real P4Runtime client, where the read-back is compared as the
entity bytes written; a failure's update afterwards too. The bulk verify fails on a wrong,
a missing or an unexpected entry of the new generation."""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from hypothesis import HealthCheck, example, given, settings, strategies as st  # noqa: E402

from controller.agent import known as known_mod  # noqa: E402
from controller.agent.diff import Diff, explain, same_state  # noqa: E402
from controller.agent.generations import GenerationWriter, SwapError  # noqa: E402
from controller.daemon.config import load  # noqa: E402
from controller.daemon.controller import Change, Controller  # noqa: E402
from controller.daemon.switch import SwitchAgent  # noqa: E402
from controller.tables.state import Batch, EntryRows  # noqa: E402

from daemon_fakes import FakeSwitch, make_backend_for, net_toml, tor_switch  # noqa: E402
from test_daemon_incremental import Clock, Log, assert_runs_the_routes  # noqa: E402

TORS = 8
_FRESH_AS = SwitchAgent._fresh_as


def routing(source_routed: list[int], k: int) -> str:
    r = f'source_routed = {sorted(source_routed)}\n[routing.per_hop]\nalgo = "uro"\nk = {k}\nmax_hops = 4'
    if source_routed:
        r += '\n[routing.source]\nalgo = "ucmp"\nh_max = 4\nengine = "numpy"'
    return r


class Counted:
    """Calls of the fresh path (:meth:`SwitchAgent._write_fresh`) while installed."""

    def __init__(self, monkeypatch):
        self.n = 0
        orig = SwitchAgent._write_fresh

        def counted(agent, *a, **kw):
            self.n += 1
            return orig(agent, *a, **kw)
        monkeypatch.setattr(SwitchAgent, "_write_fresh", counted)


def fake_network(d: Path, routes: str, fresh: bool, monkeypatch, incremental: bool = True):
    monkeypatch.setattr(GenerationWriter, "fresh_writes", fresh)
    d.mkdir()
    sws = {f"127.0.0.1:{50000 + t}": FakeSwitch(f"tor{t}") for t in range(TORS)}
    p = net_toml(d, [tor_switch(t) for t in range(TORS)], routing=routes,
                 daemon=f'status = "127.0.0.1:0"\nreconcile_s = 1000\nincremental = {str(incremental).lower()}')
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=Log(), clock=Clock())
    ctl.start()
    return ctl, sws


def assert_same_switches(got: dict, want: dict) -> None:
    for addr, sw in got.items():
        a, b = sw.state(), want[addr].state()
        assert same_state(a, b), f"{sw.name}: fresh path against the reference: {explain(a, b)}"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source_routed=st.sets(st.integers(0, TORS - 1), max_size=3), k=st.sampled_from([2, 3]),
       compact=st.booleans(), incremental=st.booleans())
@example(source_routed=set(), k=3, compact=True, incremental=False)
@example(source_routed={0, 5}, k=2, compact=True, incremental=True)   # selector groups and members share ids
@example(source_routed={0}, k=2, compact=False, incremental=False)
def test_fresh_writes_leave_every_switch_as_the_reference_path(monkeypatch, source_routed, k, compact, incremental):
    """Random route sets, generations kept as objects or as versions: every switch after
    the start, and after a cut cable's update (incremental or whole), holds what the
    reference path leaves there,
    and the fresh path was taken (each ToR's generation 0 and its shadow, whether the known
    state keeps generation 0 as a version or as its objects)."""
    monkeypatch.setattr(known_mod, "COMPACT_MIN_OBJECTS", 0 if compact else 1 << 30)
    routes = routing(list(source_routed), k)
    seen = Counted(monkeypatch)
    tmp = tempfile.TemporaryDirectory(prefix="uro-fresh-")
    ref = fake_network(Path(tmp.name) / "reference", routes, False, monkeypatch, incremental)
    assert seen.n == 0
    fast = fake_network(Path(tmp.name) / "fresh", routes, True, monkeypatch, incremental)
    try:
        assert seen.n == TORS * 2
        assert_same_switches(fast[1], ref[1])
        assert_runs_the_routes(*fast)
        for ctl, _ in (ref, fast):
            c = ctl.submit(Change("fail", "uplink", (3, 1), detected=ctl.clock()))
            ctl.handle_jobs()
            assert c.report is not None and not c.report.get("error"), c.report
        assert_same_switches(fast[1], ref[1])
        assert_runs_the_routes(*fast)
    finally:
        ref[0].shutdown()
        fast[0].shutdown()
        tmp.cleanup()


# ---- the simulated fabric, the real P4Runtime client: the read-back compared as bytes -----------
sim = pytest.mark.p4c


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    pytest.importorskip("finsy.proto", reason="needs the agent extra")
    from tiny_program import build_tiny_tor
    return build_tiny_tor(tmp_path_factory.mktemp("fresh_build"))


def sim_config(tmp_path, program, fabric, tors: int):
    from benchmarks.bench_fabric import PER_HOP, net_config
    return load(net_config(tmp_path / "net.toml", program, fabric, tors=tors, uplinks=2, routing=PER_HOP,
                           slice_ms=1000, status_port=0, hold_s=0.05, generate="round-robin"))


def sim_states(fabric) -> list[Batch]:
    """Every device's whole state, read by a client of its own."""
    from test_daemon_workers import TORS as WORKERS_TORS, states
    assert WORKERS_TORS == TORS
    return states(fabric)


@contextlib.contextmanager
def one_agent(tmp_path, program):
    """The first ToR of a network of 8 on a simulated fabric, connected and surveyed as the
    daemon's first install finds it (empty): (its agent, the routes)."""
    from controller.agent.backend import backend_for
    from controller.daemon.plan import Prepared
    from controller.schedule.degrade import Failed
    from controller.simfabric.process import SimFabric

    with SimFabric(tmp_path / "fabric", TORS) as fabric:
        cfg = sim_config(tmp_path, program, fabric, TORS)
        prep = Prepared(cfg, Failed(), backend_for, names=[cfg.switches[0].name])
        ctl = Controller(cfg, log=Log())
        agents = {}
        try:
            ctl.routes = prep.routes
            agents = ctl._agents_for(cfg, prep, {cfg.switches[0].name})
            ctl._connect_all(cfg, agents)
            a = next(iter(agents.values()))
            a.phase(a.survey, prep.routes)
            yield a, prep.routes
        finally:
            for x in agents.values():
                x.close()
            ctl.shutdown()


#: set while a check of the test itself makes objects (its wrappers stay chained between runs)
_CHECKING: list = []


def sim_run(tmp_path, program, fresh: bool, monkeypatch, derive: bool = True) -> tuple[list, list, int, list, dict, int]:
    """A network of 8 ToRs started on a simulated fabric, then a cut cable: (the states
    after each, the bulk read-backs made, for each shadow derived from the generation
    written before it whether its bytes are those encoded afresh, the objects the cut
    cable's update wrote per device by operation, the per-hop entries made as objects
    from their columns during the start). ``derive`` False: each shadow built and encoded
    from its routes (what :meth:`SwitchAgent._fresh_as` derives otherwise)."""
    from controller.agent.backend import Inserts
    from controller.agent.p4runtime import P4RuntimeClient
    from controller.simfabric.process import SimFabric

    monkeypatch.setattr(GenerationWriter, "fresh_writes", fresh)
    monkeypatch.setattr(SwitchAgent, "_fresh_as", _FRESH_AS if derive else lambda *a: None)
    calls, derived, checking = [], [], _CHECKING
    orig = P4RuntimeClient.read_state_beside
    monkeypatch.setattr(P4RuntimeClient, "read_state_beside", lambda c, ins: calls.append(len(ins)) or orig(c, ins))
    orig_as = P4RuntimeClient.encode_inserts_keyed

    def encode_as(c, ins, objects, key, value):
        got = orig_as(c, ins, objects, key, value)
        checking.append(True)                 # (the objects this check makes are not the writer's)
        try:
            derived.append(got.encoded == P4RuntimeClient.encode_inserts(c, Inserts(list(objects)).batch()).encoded)
        finally:
            checking.pop()
        return got
    monkeypatch.setattr(P4RuntimeClient, "encode_inserts_keyed", encode_as)
    writes, recording = collections.defaultdict(collections.Counter), []
    orig_apply, orig_insert = P4RuntimeClient.apply, P4RuntimeClient.insert_encoded

    def apply(c, diff, *a, **kw):
        if recording:
            for op in ("insert", "modify", "delete"):
                b = getattr(diff, op)
                writes[c.device_id].update((op, repr(x)) for x in (*b.members, *b.groups, *b.entries))
        return orig_apply(c, diff, *a, **kw)

    def insert_encoded(c, ins):
        if recording:
            writes[c.device_id].update(("insert", repr(x)) for x in ins.objects)
        return orig_insert(c, ins)
    monkeypatch.setattr(P4RuntimeClient, "apply", apply)
    monkeypatch.setattr(P4RuntimeClient, "insert_encoded", insert_encoded)
    made, orig_entries = [], EntryRows.entries

    def entries(rows):                        # per-hop entries made as objects from their columns
        if not rows.made() and not checking:
            made.append(len(rows))
        return orig_entries(rows)
    monkeypatch.setattr(EntryRows, "entries", entries)
    with SimFabric(tmp_path / f"fabric{int(fresh)}", TORS) as fabric:
        ctl = Controller(sim_config(tmp_path, program, fabric, TORS), log=Log())
        try:
            ctl.start()
            made_at_start = sum(made)
            started = sim_states(fabric)
            recording.append(True)                # what the failure's update writes, switch by switch
            c = ctl.submit(Change("fail", "uplink", (1, 1), source="api"))
            ctl.handle_jobs()
            assert c.report is not None and not c.report.get("error"), c.report
            failed = sim_states(fabric)
        finally:
            recording.clear()                     # (the patched methods stay chained for the next run)
            ctl.shutdown()
    return (started, failed, len(calls), list(derived), {d: collections.Counter(w) for d, w in writes.items()},
            made_at_start)


@sim
@pytest.mark.parametrize("compact", [False, True], ids=["objects", "versions"])
def test_on_the_simulated_fabric_fresh_writes_are_the_reference_path_entry_by_entry(tmp_path, program,
                                                                                   monkeypatch, compact):
    monkeypatch.setattr(known_mod, "COMPACT_MIN_OBJECTS", 0 if compact else 1 << 30)
    ref = sim_run(tmp_path, program, False, monkeypatch)
    got = sim_run(tmp_path, program, True, monkeypatch)
    assert ref[2] == 0 and got[2] == TORS         # each ToR's generation 0 read back in bulk
    # each ToR's shadow written as inserts, derived from generation 0's bytes (the bytes
    # encoded afresh), whether generation 0 is kept as a version or as its objects
    assert ref[3] == [] and got[3] == [True] * TORS
    # where generations are kept as versions, the start makes no per-hop entry: each is
    # encoded from its columns (generation 0 and its shadow), checked by its bytes
    assert ref[5] > 0 and (got[5] == 0 if compact else got[5] > 0)
    for when, a, b in (("started", got[0], ref[0]), ("after the cut cable", got[1], ref[1])):
        for t, (x, y) in enumerate(zip(a, b)):
            assert len(x.entries) == len(y.entries) and len(x.members) == len(y.members)
            assert same_state(x, y), f"ToR {t} {when}: {explain(x, y)}"


@sim
def test_after_a_shadow_made_lazily_a_failures_update_writes_what_it_writes_after_one_built(tmp_path, program,
                                                                                         monkeypatch):
    """A ToR's first shadow derived from its generation 0 (its bytes patched, its objects
    made only where asked for: ``Role.objects_as``) leaves the known state as a shadow
    built and encoded from the routes does: the cut cable's update afterwards writes
    exactly the same objects to every switch, and every switch ends the same."""
    monkeypatch.setattr(known_mod, "COMPACT_MIN_OBJECTS", 0)       # generations kept as versions: derived
    for d in ("built", "derived"):
        (tmp_path / d).mkdir()
    ref = sim_run(tmp_path / "built", program, True, monkeypatch, derive=False)
    got = sim_run(tmp_path / "derived", program, True, monkeypatch)
    assert ref[3] == [] and got[3] == [True] * TORS
    assert sum(map(len, ref[4].values())) > 0 and got[4] == ref[4]
    for when, a, b in (("started", got[0], ref[0]), ("after the cut cable", got[1], ref[1])):
        for t, (x, y) in enumerate(zip(a, b)):
            assert same_state(x, y), f"ToR {t} {when}: {explain(x, y)}"


def _corrupted(kind: str):
    """A read_state_beside that changes the switch (or what it is compared with) first: one
    entry of what was written modified, deleted, or one more on the switch than compared."""
    from controller.agent.backend import Inserts
    from controller.agent.p4runtime import P4RuntimeClient
    orig = P4RuntimeClient.read_state_beside

    def beside(client, ins):
        last = ins.objects[-1]                    # a route entry of the new generation
        if kind == "wrong":
            (name, v), *rest = last.params
            client.apply(Diff(modify=Batch(entries=[dataclasses.replace(last, params=((name, v ^ 1), *rest))])))
        elif kind == "missing":
            client.apply(Diff(delete=Batch(entries=[last])))
        else:                                     # "unexpected": on the switch, not among what is compared
            ins = Inserts(ins.objects[:-1], ins.encoded[:-1])
        return orig(client, ins)
    return beside


@sim
@pytest.mark.parametrize("kind,said", [("wrong", "1 different"), ("missing", "1 missing"),
                                        ("unexpected", "1 unexpected")])
def test_the_bulk_verify_fails_on_a_wrong_missing_or_unexpected_entry(tmp_path, program, monkeypatch, kind, said):
    from controller.agent.p4runtime import P4RuntimeClient

    with one_agent(tmp_path, program) as (a, routes):
        monkeypatch.setattr(P4RuntimeClient, "read_state_beside", _corrupted(kind))
        with pytest.raises(SwapError) as e:
            a.phase(a.prepare_generation, routes, 0)
        assert "generation 0 did not read back as written" in str(e.value) and said in str(e.value), str(e.value)
        assert a._known is None                # the switch is read again before it is trusted


def test_a_slot_is_fresh_only_where_nothing_shares_a_table_or_profile_with_the_routes():
    """:func:`fresh_slot`: a route object's table (or profile) holding anything but its
    default entry, beside the routes, is not an empty slot; nor are routes with a default
    entry (a default is modified, never inserted)."""
    from controller.agent.generations import fresh_slot
    from controller.tables.state import Group, Member, TableEntry

    rt = TableEntry("I.routes", (("generation", 0), ("dst", 1)), "I.fwd", (("port", 1),))
    rb = Batch([Member("I.prof", 1, "I.fwd", (("port", 2),))], [Group("I.prof", 1, (1,))], [rt])
    static = Batch(entries=[TableEntry("I.hosts", (("ip", 1),), "I.fwd", (("port", 3),))])
    default = TableEntry("I.routes", (), "I.drop", is_default=True)
    assert fresh_slot(rb, static, Batch(entries=[default]))
    assert not fresh_slot(rb, Batch(entries=[dataclasses.replace(rt, match=(("generation", 1), ("dst", 1)))]))
    assert not fresh_slot(rb, Batch(members=[Member("I.prof", 9, "I.fwd", (("port", 2),))]))
    assert not fresh_slot(rb, Batch(groups=[Group("I.prof", 9, ())]))
    assert not fresh_slot(Batch(entries=[rt, default]), static)


@sim
def test_a_generation_answered_in_other_bytes_passes_and_is_read_again(tmp_path, program, monkeypatch):
    """An object the switch answers in other bytes than written (a target that orders match
    fields its own way) is compared as an object: equal, the verify passes, and the
    known state is dropped (the next phase reads the switch)."""
    from controller.agent.backend import Inserts
    from controller.agent.p4runtime import P4RuntimeClient

    orig = P4RuntimeClient.read_state_beside

    def beside(client, ins):                  # one entity compared with other bytes than the switch's
        return orig(client, Inserts(ins.objects, ins.encoded[:-1] + [ins.encoded[-1] + b"\x00"]))
    with one_agent(tmp_path, program) as (a, routes):
        monkeypatch.setattr(P4RuntimeClient, "read_state_beside", beside)
        assert a.phase(a.prepare_generation, routes, 0).outcome == "installed"
        assert a._known is None


@sim
@pytest.mark.parametrize("compact", [False, True], ids=["objects", "versions"])
def test_a_first_install_leaves_its_shadow_for_later_only_where_its_generation_stays_objects(tmp_path, program,
                                                                                            monkeypatch, compact):
    """A ToR whose generation the known state keeps as objects (small) keeps the bytes it
    wrote past the install, and its shadow is left for a later phase (``shadow_pending``),
    derived from them there; one kept as a version (large: a (1024, 32) ToR's) writes its
    shadow within the install and keeps nothing past it."""
    monkeypatch.setattr(known_mod, "COMPACT_MIN_OBJECTS", 0 if compact else 1 << 30)
    with one_agent(tmp_path, program) as (a, routes):
        res = a.phase(a.prepare_generation, routes, 0, True)
        assert (res.outcome, res.shadow_pending) == ("installed", not compact)
        assert (a._fresh_kept is None) == compact
        holds = a._known_generations()[2]
        assert set(holds) == ({0, 1} if compact else {0})
        if not compact:
            derived = []
            monkeypatch.setattr(SwitchAgent, "_fresh_as", lambda *x: derived.append(_FRESH_AS(*x)) or derived[-1])
            a.phase(a.retire_generation, 0, routes)
            assert derived and derived[0] is not None and a._fresh_kept is None
            assert set(a._known_generations()[2]) == {0, 1}
