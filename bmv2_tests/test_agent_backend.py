"""The bmv2 P4Runtime backend against real simple_switch_grpc: push and read back, the
MODIFY/DELETE paths, drift repair, a real mid-batch failure and the idempotent retry,
arbitration (a lower election id refused, a takeover, primaryship regained), the
pipeline cookie, counters in one read, and the slice timer by PacketOut.

The switches here have no data ports (nothing is forwarded), only a CPU port for
packet-out."""

from __future__ import annotations

import dataclasses
import time

import pytest

from switch_util import Switch
import fabric

from controller.agent.backend import BackendError, NotPrimary, SwitchAddress, Unreachable
from controller.agent.diff import Diff
from controller.agent.diff import diff
from controller.agent.desired import Routes, TorRole
from controller.agent.p4info import describe
from controller.agent.p4runtime import P4RuntimeBackend, WriteFailed, bmv2_pipeline
from controller.agent.push import push
from controller.p4gen import profile as prof
from controller.routing.uro import UroParams, compute
from controller.schedule.degrade import Failed
from controller.tables.state import Batch
from controller.tables.tor_batch import tor_batch

CPU_PORT = str(prof.CPU_PORT)      # the generated programs take timers from this port only


@pytest.fixture
def bare(tmp_path):
    """start() -> a fresh simple_switch_grpc without data ports; connect(sw, ...) -> a
    connected backend. Everything is stopped/closed at the end, also on failure."""
    switches, backends = [], []

    def start(target_args=("--cpu-port", CPU_PORT)):
        sw = Switch([], tmp_path / f"switch{len(switches)}.log", list(target_args))
        switches.append(sw)
        return sw

    def connect(sw, election_id=10, name="tor", **kw):
        be = P4RuntimeBackend(SwitchAddress(name, f"127.0.0.1:{sw.grpc_port}", election_id=election_id,
                                            timeout_s=10, **kw.pop("tls", {})), **kw)
        backends.append(be)
        end = time.time() + 20
        while True:
            try:
                be.connect()
                return be
            except Unreachable:
                if time.time() > end or not sw.alive():
                    raise
                time.sleep(0.2)

    yield start, connect
    for be in backends:
        be.close()
    for sw in switches:
        sw.stop()


@pytest.fixture(scope="module")
def pipelines(artifacts):
    return {p: bmv2_pipeline(*artifacts[p]) for p in ("tor", "ocs")}


def desired(contract, tor=2, source=(3, 5), k=3, capacity=None) -> Batch:
    routes = fabric.uro_routes() if k == 3 else compute(fabric.schedule(), UroParams(k=k, max_hops=4))
    return tor_batch(contract, tor, uro_routes=routes, path_routes=fabric.ucmp_routes(), source_routed=source,
                     capacity_bytes=capacity)


def routes(source=(3, 5)) -> Routes:
    """The fabric's routes as the push and the daemon take them (what :func:`desired` writes)."""
    s = fabric.schedule()
    return Routes(1, 1, s, Failed(), s, fabric.uro_routes(), fabric.ucmp_routes(), tuple(source))


def load(be, pipeline, want: Batch) -> None:
    """Set up a switch state for a backend test: the pipeline, then ``want`` by diff."""
    be.set_pipeline(pipeline)
    be.apply(diff(be.read_state(), want))
    assert diff(be.read_state(), want).empty


def _groups(b: Batch) -> set:
    return {(g.profile, g.group_id, tuple(sorted(g.member_ids))) for g in b.groups}


def test_push_reads_back_the_exact_state_and_a_second_push_writes_nothing(bare, pipelines):
    """`push` (the one `uro agent push` runs): the first generation with the config entry
    written last, in its own request; read back in the canonical form, identical."""
    start, connect = bare
    pl = pipelines["tor"]
    c = pl.contract
    be = connect(start())
    want = desired(c)
    rep = push(be, pl, TorRole(c, 2), routes())
    assert rep.pipeline_loaded and rep.verified and rep.attempts == 1 and rep.installed.outcome == "installed"
    rest = [e for e in want.entries if not e.is_default]
    assert (rep.write.inserted, rep.write.modified, rep.write.deleted) == (
        len(want.members) + len(want.groups) + len(rest), 1, 0)     # the config default: ToR 2
    assert rep.write.requests == 4                                     # members | groups | entries | config
    assert rep.objects == len(want.members) + len(want.groups) + len(want.entries)
    state = be.read_state()
    assert {e for e in state.entries if not e.is_default} == set(rest)
    assert set(state.members) == set(want.members) and _groups(state) == _groups(want)
    defaults = {e.table: e for e in state.entries if e.is_default}
    # every table but the selector one (no default action there) has its default entry
    assert set(defaults) == {t["name"] for s, t in c["tables"].items() if s != "ssrr_path"}
    assert defaults["UroIngress.host_dst"].action == "UroIngress.no_route"
    assert dict(defaults["UroIngress.config"].params)["my_tor"] == 2
    assert diff(state, want).empty
    again = push(be, pl, TorRole(c, 2), routes())
    assert not again.pipeline_loaded and again.write.updates == 0 and again.write.requests == 0
    assert again.installed.outcome == "current"


def test_a_read_is_one_rpc_per_table_and_profile_part_and_equals_the_parts(bare, pipelines):
    """read_state asks each table (entries and default entry) and each profile's members
    and groups in its own Read RPC, several in flight (P4RuntimeClient.read_state): the
    state is the parts in order -- tables, then members, then groups -- exactly; a read
    after the session closed is Unreachable."""
    start, connect = bare
    pl = pipelines["tor"]
    be = connect(start())
    push(be, pl, TorRole(pl.contract, 2), routes())
    client = be._ready()
    info = client.p4info
    tables = info.contract_tables()
    profiles = {info.table(t).action_profile.name for t in tables if info.table(t).action_profile}
    asked = []
    real = client._read_entities               # (each answer's entities as their bytes)

    def spy(req, what):
        asked.append(sorted(e.WhichOneof("entity") for e in req.entities))
        return real(req, what)
    client._read_entities = spy
    state = be.read_state()
    assert len(asked) == len(tables) + 2 * len(profiles) and len(profiles) == 1
    assert asked.count(["table_entry", "table_entry"]) == len(tables)
    parts = [client.read_state([t]) for t in tables]
    assert state.entries == [e for p in parts for e in p.entries]
    ssrr = [p for t, p in zip(tables, parts) if info.table(t).action_profile]
    assert state.members == ssrr[0].members and state.groups == ssrr[0].groups
    assert state.members and state.groups and len(state.entries) > len(tables)
    be.close()
    with pytest.raises(Unreachable, match="closed"):
        client.read_state()
    with pytest.raises(Unreachable, match="closed"):     # one table: one RPC, no pool
        client.read_state([tables[0]])


def test_a_read_by_key_answers_exactly_the_held_objects_it_names(bare, pipelines):
    """read_objects (the verify of what a prepare wrote) asks bmv2 for objects by identity:
    entries by match key (an indirect table's too), the default entry of a table, members
    and groups by id. It answers each held object as the switch holds it -- a changed one
    with its switch-side contents, equal to the same objects picked from a whole read --
    leaves out the ones the switch does not hold, and asks in several RPCs when many are
    named."""
    start, connect = bare
    pl = pipelines["tor"]
    be = connect(start())
    push(be, pl, TorRole(pl.contract, 2), routes())
    state = be.read_state()
    client = be._ready()
    hops = [e for e in state.entries if e.table.endswith("uro_next_hop")]
    paths = [e for e in state.entries if e.table.endswith("ssrr_path") and not e.is_default]
    cfg = next(e for e in state.entries if e.table.endswith("config") and e.is_default)
    assert len(hops) > 4 and paths and paths[0].group_id is not None and state.members and state.groups
    # what the switch holds differs from what is named: another next hop, another config
    changed = dataclasses.replace(hops[0], params=tuple((k, v + 1 if k == "n" else v) for k, v in hops[0].params))
    absent_entry = dataclasses.replace(hops[1], match=tuple((k, 127 if k == "dst_tor" else v)
                                                            for k, v in hops[1].match))
    absent_member = dataclasses.replace(state.members[0], member_id=max(m.member_id for m in state.members) + 1)
    absent_group = dataclasses.replace(state.groups[0], group_id=max(g.group_id for g in state.groups) + 1)
    other_cfg = dataclasses.replace(cfg, params=tuple((k, v + 1) for k, v in cfg.params))
    named = Batch(state.members[:3] + [absent_member], state.groups[:2] + [absent_group],
                  [changed, hops[2], absent_entry, other_cfg] + paths[:2])
    got = be.read_objects(named)
    assert sorted(map(describe, got.entries)) == sorted(map(describe, [hops[0], hops[2], cfg] + paths[:2]))
    assert set(got.entries) == {hops[0], hops[2], cfg, *paths[:2]}      # as held, not as named
    assert set(got.members) == set(state.members[:3]) and _groups(got) == _groups(Batch(groups=state.groups[:2]))
    asked = []
    real = client._read_entities
    client._read_entities = lambda req, what: asked.append(len(req.entities)) or real(req, what)
    client.READ_BY_KEY = 7
    every = be.read_objects(state)
    assert len(asked) > 3 and sorted(asked)[1:] == [7] * (len(asked) - 1)
    assert sum(asked) == len(state.members) + len(state.groups) + len(state.entries)
    assert diff(every, state).empty and diff(state, every).empty
    assert be.read_objects(Batch()) == Batch()


def test_modify_and_delete_paths(bare, pipelines):
    start, connect = bare
    pl = pipelines["tor"]
    be = connect(start())
    load(be, pl, desired(pl.contract))
    smaller = desired(pl.contract, source=(3,), k=2, capacity=1000)
    d = diff(be.read_state(), smaller)
    assert d.modify.entries and d.delete.entries and d.delete.groups and d.delete.members
    assert any(e.table == "UroIngress.route_mode" and dict(e.match)["dst_tor"] == 5 for e in d.delete.entries)
    rep = be.apply(d)
    assert (rep.inserted, rep.modified, rep.deleted) == (
        len(d.insert.members) + len(d.insert.groups) + len(d.insert.entries),
        len(d.modify.members) + len(d.modify.groups) + len(d.modify.entries),
        len(d.delete.members) + len(d.delete.groups) + len(d.delete.entries))
    state = be.read_state()
    assert diff(state, smaller).empty
    config = next(e for e in state.entries if e.table == "UroIngress.config")
    assert dict(config.params) == {"my_tor": 2, "generation": 0, "live": 1, "down": 0, "dead": 0,
                                   "capacity_bytes": 1000, "bytes_per_us": 12500, "max_timer_step": 1}
    assert not any(dict(e.match).get("dst_tor") == 5 for e in state.entries
                   if e.table in ("UroIngress.route_mode", "UroIngress.ssrr_path"))


def test_drift_behind_the_backends_back_is_repaired(bare, pipelines):
    """Another controller takes over, deletes and changes entries, leaves: the backend
    is primary again, a re-read shows exactly the drift, and writing the diff repairs it."""
    start, connect = bare
    pl = pipelines["tor"]
    sw = start()
    be = connect(sw, election_id=10)
    want = desired(pl.contract)
    load(be, pl, want)
    intruder = connect(sw, election_id=100, name="intruder")
    end = time.time() + 5
    while be.connected and time.time() < end:
        time.sleep(0.02)
    assert not be.connected
    assert not intruder.set_pipeline(pl)                   # same cookie: adopted, entries kept
    state = intruder.read_state()
    gone = next(e for e in state.entries if e.table == "UroIngress.route_mode")
    def zeroed(e):
        return dataclasses.replace(e, params=tuple((k, 1 if k == "n" else 0) for k, _ in e.params))

    hop = next(e for e in state.entries if e.table == "UroIngress.uro_next_hop" and zeroed(e) != e)
    changed = zeroed(hop)
    member = state.members[0]
    intruder.apply(Diff(modify=Batch(entries=[changed], members=[dataclasses.replace(
        member, params=tuple((k, 0) for k, _ in member.params))]), delete=Batch(entries=[gone])))
    intruder.close()
    end = time.time() + 5
    while not be.connected and time.time() < end:      # the switch re-elects us
        time.sleep(0.02)
    assert be.connected
    d = diff(be.read_state(), want)
    assert d.insert.entries == [gone] and d.modify.entries == [hop] and d.modify.members == [member]
    assert not d.delete.entries and not d.delete.members
    be.apply(d)
    assert diff(be.read_state(), want).empty


def test_mid_batch_failure_names_the_entry_and_the_retry_is_idempotent(bare, pipelines):
    start, connect = bare
    pl = pipelines["tor"]
    be = connect(start(), max_batch=16)
    assert be.set_pipeline(pl)
    want = desired(pl.contract)
    d = diff(be.read_state(), want)
    victim = d.insert.entries[20]
    be.apply(Diff(insert=Batch(entries=[victim])))        # the switch moved on since the diff
    with pytest.raises(WriteFailed) as ei:
        be.apply(d)
    msg = str(ei.value)
    assert f"insert of {describe(victim)} failed: ALREADY_EXISTS" in msg, msg
    assert [f[1] for f in ei.value.failed] == [victim]
    # requests after the failing one were not sent; bmv2 applied the rest of that one
    before = ei.value.report.requests
    n_stage12 = -(-len(want.members) // 16) + -(-len(want.groups) // 16)
    assert before == n_stage12 + 1                       # entries 0..15 went in one request
    again = diff(be.read_state(), want)
    n_entries_sent = 32
    assert len(again) == len(d.insert.entries) + len(d.modify.entries) - n_entries_sent
    assert victim not in again.insert.entries
    be.apply(again)
    assert diff(be.read_state(), want).empty


def test_lower_election_id_refused_takeover_and_regain(bare, pipelines):
    start, connect = bare
    pl = pipelines["tor"]
    sw = start()
    a = connect(sw, election_id=10, name="a")
    want = desired(pl.contract)
    load(a, pl, want)
    with pytest.raises(NotPrimary, match=r"another controller is primary \(election id 10, ours is 5\)"):
        connect(sw, election_id=5, name="b")
    assert a.connected and diff(a.read_state(), want).empty
    c = connect(sw, election_id=(1 << 64) + 1, name="c")  # a uint128 election id
    end = time.time() + 5
    while a.connected and time.time() < end:
        time.sleep(0.02)
    assert not a.connected and a.client.primary_election_id == (1 << 64) + 1
    with pytest.raises(NotPrimary, match="took over"):
        a.apply(Diff(delete=Batch(entries=[next(e for e in want.entries if not e.is_default)])))
    c.set_pipeline(pl)
    assert diff(c.read_state(), want).empty             # a wrote nothing after the takeover
    c.close()
    end = time.time() + 5
    while not a.connected and time.time() < end:
        time.sleep(0.02)
    assert a.connected


def test_cookie_keeps_a_running_build_and_force_or_another_build_reloads(bare, pipelines):
    start, connect = bare
    tor, ocs = pipelines["tor"], pipelines["ocs"]
    sw = start()
    be = connect(sw)
    assert be.pipeline_cookie() is None
    want = desired(tor.contract)
    load(be, tor, want)
    be.close()
    be = connect(sw)                                      # a reconnecting controller
    assert be.pipeline_cookie() == tor.cookie
    assert be.set_pipeline(tor) is False
    assert diff(be.read_state(), want).empty            # entries survived
    assert be.set_pipeline(tor, force=True) is True
    assert not [e for e in be.read_state().entries if not e.is_default]
    assert be.set_pipeline(ocs) is True and be.pipeline_cookie() == ocs.cookie != tor.cookie


def test_counters_in_one_read_and_the_timer_by_packet_out(bare, pipelines):
    start, connect = bare
    pl = pipelines["tor"]
    be = connect(start())
    load(be, pl, desired(pl.contract))
    reads = []
    real = be.client.stub.Read
    be.client.stub.Read = lambda req, **kw: (reads.append(req), real(req, **kw))[1]
    assert be.read_counters()["events"]["timer"] == 0
    assert len(reads) == 1
    assert {e.counter_entry.counter_id for e in reads[0].entities} == {
        be.client.p4info.counter(c["name"]).id for c in pl.contract["counters"].values()}
    assert all(not e.counter_entry.HasField("index") for e in reads[0].entities)   # wildcard
    for s in (1, 2, 3):
        be.send_timer(s)
    end = time.time() + 5
    while be.read_counters()["events"]["timer"] < 3 and time.time() < end:
        time.sleep(0.05)
    counters = be.read_counters()
    assert counters["events"]["timer"] == 3
    assert counters["events"]["timer_rejected"] == 0
    be.send_timer(pl.contract["profile"]["slices"])      # out of range: the program counts it
    end = time.time() + 5
    while be.read_counters()["events"]["timer_rejected"] < 1 and time.time() < end:
        time.sleep(0.05)
    assert be.read_counters()["events"]["timer_rejected"] == 1
    assert be.read_counters()["events"]["timer"] == 3
    n = len(reads)
    be.read_counters()
    assert len(reads) == n + 1
    # one counter: one wildcard read of that counter alone, its cells named as in the whole read
    events = be.read_counter("events")
    assert len(reads) == n + 2
    assert [e.counter_entry.counter_id for e in reads[-1].entities] == [
        be.client.p4info.counter(pl.contract["counters"]["events"]["name"]).id]
    assert events == be.read_counters()["events"] and events["timer"] == 3
    with pytest.raises(BackendError, match=r"no counter 'event' in the contract \(it has .*events"):
        be.read_counter("event")
