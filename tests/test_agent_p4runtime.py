"""The P4Runtime client: write planning, the entry codec, and (against an in-process fake
server) what bmv2 cannot be made to do: reordering within a request, an injected
mid-batch failure, a takeover by arbitration update, stream floods, a late answer.
Everything else is tested on real simple_switch_grpc (bmv2_tests/test_agent_*.py)."""

from __future__ import annotations

import functools
import random
import time
import threading

import pytest
from hypothesis import given, settings, strategies as st

pytest.importorskip("finsy.proto", reason="needs the agent extra")

from controller.agent import plan  # noqa: E402
from controller.agent.backend import NotPrimary, Unreachable  # noqa: E402
from controller.agent.diff import Diff  # noqa: E402
from controller.agent.diff import diff, entry_key, group_key, member_key, same_state  # noqa: E402
from controller.agent.p4info import P4Info, P4RuntimeError  # noqa: E402
from controller.agent.p4runtime import (PACKET_IN_BUFFER, P4RuntimeClient,  # noqa: E402
                                        WriteFailed, timer_frame)
from controller.tables.state import Batch, Group, Member, TableEntry  # noqa: E402

from agent_fake import CONTRACT, FakeSwitch, entry, member, p4info_msg, sel_entry  # noqa: E402


@functools.lru_cache(maxsize=None)
def info(packet_out=False) -> P4Info:
    i = P4Info(p4info_msg(packet_out))
    i.check_contract(CONTRACT)
    return i


# ---- planning (no server) ------------------------------------------------------------
@st.composite
def states(draw):
    mids = draw(st.lists(st.integers(1, 8), unique=True, max_size=8))
    members = [member(i, draw(st.integers(0, 3))) for i in mids]
    groups = []
    if mids:
        for gid in draw(st.lists(st.integers(1, 5), unique=True, max_size=5)):
            groups.append(Group("I.prof", gid, tuple(draw(st.lists(st.sampled_from(mids), min_size=1, unique=True)))))
    entries = [entry(k, draw(st.integers(0, 3))) for k in draw(st.lists(st.integers(0, 9), unique=True, max_size=8))]
    if groups:
        for d in draw(st.lists(st.integers(0, 9), unique=True, max_size=5)):
            entries.append(sel_entry(d, draw(st.sampled_from(groups)).group_id))
    return Batch(members, groups, entries)


def _switch_model(state: Batch, requests, rng: random.Random) -> Batch:
    """A switch that applies each request's updates in a random order and refuses a
    dependency violation (as the spec allows a server to reorder)."""
    m = {member_key(x): x for x in state.members}
    g = {group_key(x): x for x in state.groups}
    e = {entry_key(x): x for x in state.entries}
    for req in requests:
        req = list(req)
        rng.shuffle(req)
        for u in req:
            o = u.obj
            if isinstance(o, Member):
                if u.op == "delete":
                    assert not any(o.member_id in x.member_ids for x in g.values()), "member deleted while in a group"
                    del m[member_key(o)]
                else:
                    m[member_key(o)] = o
            elif isinstance(o, Group):
                if u.op == "delete":
                    assert not any(x.group_id == o.group_id for x in e.values()), "group deleted while used"
                    del g[group_key(o)]
                else:
                    assert all(("I.prof", i) in m for i in o.member_ids), "group before its members"
                    g[group_key(o)] = o
            else:
                if u.op == "delete":
                    del e[entry_key(o)]
                else:
                    assert o.group_id is None or ("I.prof", o.group_id) in g, "entry before its group"
                    e[entry_key(o)] = o
    return Batch(list(m.values()), list(g.values()), list(e.values()))


@settings(max_examples=200, deadline=None)
@given(states(), states(), st.integers(1, 4), st.integers(0, 2**32))
def test_stages_never_put_dependent_updates_in_one_request(actual, desired, max_batch, seed):
    _written_in_any_order(actual, desired, plan.stages(diff(actual, desired)), max_batch, seed)


def _written_in_any_order(actual: Batch, desired: Batch, stages, max_batch: int, seed: int) -> None:
    """``stages`` cut into requests of ``max_batch``: no request holds a dependent pair, and
    a switch applying each request in a random order reaches ``desired``."""
    requests = [r for s in stages for r in plan.chunks(s, max_batch)]
    for r in requests:
        for a in r:
            for b in r:
                assert not plan.depends_on(a, b), (a, b)
    assert same_state(_switch_model(actual, requests, random.Random(seed)), desired)


def test_a_stage_is_cut_into_requests_of_at_most_max_updates_and_no_fewer_than_one():
    stage = list(range(7))
    assert list(plan.chunks(stage, 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(plan.chunks(stage, 7)) == [stage] and list(plan.chunks([], 2)) == []
    with pytest.raises(ValueError, match="max_updates must be >= 1, got 0"):
        list(plan.chunks(stage, 0))


@st.composite
def no_group_entry_modified(draw, direct_modified: bool = True):
    """(actual, desired) whose diff modifies no entry that names a group: a selector entry
    of both is the same entry, as when a failure's changed cells replace selector entries
    by new keys; the direct table's entries are drawn freely (modified where their action
    differs, as the per-hop entries whose alternatives a failure changed), or
    (``direct_modified`` False) kept too."""
    actual, desired = draw(states()), draw(states())
    held = {entry_key(e): e for e in actual.entries}
    gids = {g.group_id for g in desired.groups}
    entries = []
    for e in desired.entries:
        old = held.get(entry_key(e))
        if old is None or (direct_modified and e.group_id is None):
            entries.append(e)
        elif old.group_id is None or old.group_id in gids:
            entries.append(old)           # kept as it is
    return actual, Batch(desired.members, desired.groups, entries)


@settings(max_examples=300, deadline=None)
@given(no_group_entry_modified(direct_modified=False), st.integers(1, 4), st.integers(0, 2**32))
def test_a_write_that_modifies_no_entry_takes_three_stages(pair, max_batch, seed):
    actual, desired = pair
    d = diff(actual, desired)
    assert not d.modify.entries
    stages = plan.stages(d)
    assert len(stages) <= 3
    _written_in_any_order(actual, desired, stages, max_batch, seed)


@settings(max_examples=300, deadline=None)
@given(no_group_entry_modified(), st.integers(1, 4), st.integers(0, 2**32))
def test_a_write_that_modifies_only_direct_entries_takes_three_stages(pair, max_batch, seed):
    """Direct entries modified beside selector entries inserted and deleted and groups
    deleted (a UCMP failure's per-hop and source-route cells): still three stages, and a
    switch applying each request in any order reaches the desired state."""
    actual, desired = pair
    d = diff(actual, desired)
    assert not plan.names_group(d.modify.entries)
    stages = plan.stages(d)
    assert len(stages) <= 3
    _written_in_any_order(actual, desired, stages, max_batch, seed)


def test_a_modified_selector_entry_keeps_five_stages():
    """A selector entry moved from a group that is deleted to another: the group's delete
    comes after the entry's modify, in a stage of its own (five stages)."""
    actual = Batch([member(1, 1), member(2, 2)], [Group("I.prof", 1, (1,)), Group("I.prof", 2, (2,))],
                   [sel_entry(1, 1), entry(3, 0)])
    desired = Batch([member(2, 2), member(3, 3)], [Group("I.prof", 2, (2, 3))], [sel_entry(1, 2), entry(3, 1)])
    d = diff(actual, desired)
    assert plan.names_group(d.modify.entries)
    stages = plan.stages(d)
    assert len(stages) == 5
    _written_in_any_order(actual, desired, stages, 8, 0)
    _written_in_any_order(actual, desired, stages, 1, 1)


def test_a_selector_entry_modified_beside_per_hop_columns_names_a_group():
    """A UCMP failure's modified entries are the per-hop cells' columns joined with the
    source-route cells' objects: one modified selector entry among them names a group (five
    stages), whatever block it is in, and the columns are answered without making their
    objects (a ToR's changed per-hop cells are hundreds of rows)."""
    import numpy as np

    from controller.tables.state import EntryRows, joined

    def rows():
        return EntryRows("I.t2", "I.a2", ("k",), np.arange(4).reshape(-1, 1), ("v",), np.ones((4, 1), np.int64))
    per_hop = rows()
    assert plan.names_group(joined(per_hop, [entry(3, 1), sel_entry(1, 2)]))
    assert plan.names_group(joined([sel_entry(1, 2)], per_hop))
    assert not per_hop.made()
    alone = rows()
    assert not plan.names_group(alone) and not plan.names_group(joined(alone, [entry(3, 1)]))
    assert not alone.made()
    assert not plan.names_group([])
    d = Diff(modify=Batch(entries=joined(rows(), [sel_entry(1, 2)])))
    assert plan.stage_parts(d) is plan.FIVE_STAGES


def test_a_cell_moved_to_new_groups_is_three_requests_on_a_reordering_server(fake):
    """A UCMP cell's change: its selector entry deleted and one of a new key inserted on a
    new group of new members, the old group and members deleted, another group modified:
    three requests, each applied in reverse order, and the switch holds the new state."""
    fake.order = "reverse"
    c = client(fake)
    first = Batch([member(1, 1), member(2, 2), member(3, 3)], [Group("I.prof", 1, (1, 2)), Group("I.prof", 2, (3,))],
                  [sel_entry(1, 1), sel_entry(2, 2)])
    c.apply(diff(c.read_state(), first))
    second = Batch([member(3, 3), member(4, 1), member(5, 2)], [Group("I.prof", 2, (3, 4)), Group("I.prof", 3, (4, 5))],
                   [sel_entry(2, 2), sel_entry(5, 3)])
    d = diff(c.read_state(), second)
    assert d.delete.groups and d.delete.members and d.modify.groups and not d.modify.entries
    n0 = len(fake.requests)
    rep = c.apply(d)
    assert rep.requests == 3 and len(fake.requests) - n0 == 3
    assert same_state(fake.state(), second) and same_state(c.read_state(), second)
    c.close()


def test_depends_on_knows_the_dependencies():
    m, g, e = member(1, 0), Group("I.prof", 1, (1,)), sel_entry(3, 1)
    U = plan.Update
    assert plan.depends_on(U("insert", g), U("insert", m))
    assert plan.depends_on(U("insert", e), U("modify", g))
    assert plan.depends_on(U("delete", m), U("delete", g))
    assert plan.depends_on(U("delete", g), U("delete", e))
    assert not plan.depends_on(U("insert", m), U("insert", g))
    # a group delete waits for a selector entry's modify (it may have moved off the group),
    # not for a direct entry's (of a table without groups: it never named one)
    assert plan.depends_on(U("delete", g), U("modify", sel_entry(3, 2)))
    assert not plan.depends_on(U("delete", g), U("modify", entry(3, 1)))
    # one request of everything (what the old client's 512-update chunks did) is caught
    one = [U("insert", m), U("insert", g), U("insert", e)]
    assert any(plan.depends_on(a, b) for a in one for b in one)


# ---- codec -------------------------------------------------------------------------------
@settings(deadline=None)
@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 32), st.integers(0, 2**32 - 1))
def test_codec_round_trips_to_the_canonical_form(k, v, plen, addr):
    i = info()
    mask = ((1 << 32) - 1) ^ ((1 << (32 - plen)) - 1)
    e = TableEntry("I.t", (("k", k), ("p", (addr & mask, plen))), "I.a", (("v", v),))
    msg = i.table_entry(e)
    assert len(msg.match) == (1 if plen == 0 else 2)      # a /0 prefix is omitted
    assert i.decode_table_entry(msg) == e


def test_codec_range_priority_groups_defaults_and_errors():
    i = info()
    full = sel_entry(4, 7)                                 # bucket 0..255: the don't-care
    msg = i.table_entry(full)
    assert [f.field_id for f in msg.match] == [1] and msg.priority == 1
    assert msg.action.action_profile_group_id == 7
    assert i.decode_table_entry(msg) == full
    part = sel_entry(4, 7, 3, 9)
    assert i.decode_table_entry(i.table_entry(part)) == part
    d = TableEntry("I.t", (), "I.a", (("v", 5),), is_default=True)
    assert i.table_entry(d).is_default_action and i.decode_table_entry(i.table_entry(d)) == d
    m, g = member(3, 513), Group("I.prof", 2, (3, 4))
    assert i.decode_member(i.member(m)) == m and i.decode_group(i.group(g)) == g
    with pytest.raises(P4RuntimeError, match="bits set past the /24 prefix"):
        i.table_entry(TableEntry("I.t", (("k", 1), ("p", (0x0A000001, 24))), "I.a", (("v", 1),)))
    with pytest.raises(P4RuntimeError, match="missing parameter"):
        i.table_entry(TableEntry("I.t", (("k", 1), ("p", (0, 0))), "I.a", ()))
    with pytest.raises(P4RuntimeError, match="does not fit 8 bits"):
        i.table_entry(entry(1, 256))
    with pytest.raises(P4RuntimeError, match="table 'I.nope' is not in the P4Info"):
        i.table_entry(TableEntry("I.nope", (), "I.a", ()))
    assert i.profile_name(i.member(m).action_profile_id) == "I.prof"
    with pytest.raises(P4RuntimeError, match="action profile id 999 is not in the P4Info"):
        i.profile_name(999)


def test_read_entities_are_decoded_by_their_bytes_once_and_as_written():
    """A read decodes an entity's bytes once (the memo), what was written is found as it
    was encoded, and other bytes -- a switch answering something else -- are decoded,
    never taken for a remembered object."""
    i = P4Info(p4info_msg(False))
    i.check_contract(CONTRACT)
    e, m, g = sel_entry(4, 7, 3, 9), member(3, 513), Group("I.prof", 2, (3, 4))
    ents = [i.entity(x) for x in (e, m, g)]
    assert [i.decode_entity(x) for x in ents] == [e, m, g]
    assert i.decode_entity(i.entity(TableEntry("I.sel", (), None, (), True))) is None   # a selector's default
    calls = []
    i.decode_table_entry = lambda msg: calls.append(msg) or None      # noqa: E731 (decoding is not asked again)
    assert i.decode_entity(i.entity(e)) == e and not calls
    w = entry(1, 2)
    i.remember(i.entity(w), w)                                           # written: found without decoding
    assert i.decode_entity(i.entity(w)) is w and not calls
    del i.decode_table_entry
    other = i.entity(entry(1, 3))                                        # the switch holds another value
    assert i.decode_entity(other) == entry(1, 3)
    changed = i.entity(w)
    changed.table_entry.action.action.params[0].value = b"\x05"
    assert i.decode_entity(changed) == entry(1, 5)
    # the memo keeps what the last two whole reads saw (and writes since), not everything ever
    i.new_read()
    assert i.decode_entity(i.entity(e)) == e                                # from the read before: kept
    i.new_read()
    i.new_read()
    i.decode_table_entry = lambda msg: calls.append(msg) or e             # noqa: E731
    i.decode_entity(i.entity(w))
    assert calls, "an entity no read saw for two reads is decoded again"


def test_entities_read_as_bytes_are_found_as_written_or_decoded(monkeypatch):
    """A read's entities as the bytes the switch answered: what was written is found in
    the memo without a message made of it; other bytes are decoded, never taken for a
    remembered object -- bytes protobuf would write otherwise too (a switch serializes as
    it likes), which decode to what they say."""
    from finsy.proto import p4r

    i = P4Info(p4info_msg(False))
    i.check_contract(CONTRACT)
    w = entry(1, 2)
    i.remember_bytes(i.entity_bytes(w), w)
    parsed = []
    real = p4r.Entity

    class Spy:
        @staticmethod
        def FromString(b):
            parsed.append(b)
            return real.FromString(b)
    monkeypatch.setattr(p4r, "Entity", Spy)
    assert i.decode_entity_bytes(i.entity_bytes(w)) is w and not parsed
    assert i.decode_entity_bytes(i.entity_bytes(entry(1, 3))) == entry(1, 3) and len(parsed) == 1
    # the same entry with its priority written out as 0 (protobuf leaves a default out)
    te = real.FromString(i.entity_bytes(w)).table_entry
    priority = te.DESCRIPTOR.fields_by_name["priority"].number << 3

    def entity(body: bytes) -> bytes:             # an Entity holding the table entry ``body``
        return bytes([real.DESCRIPTOR.fields_by_name["table_entry"].number << 3 | 2, len(body)]) + body
    ent = entity(te.SerializeToString() + bytes([priority, 0]))
    assert ent != i.entity_bytes(w) and real.FromString(ent) == real.FromString(i.entity_bytes(w))
    assert i.decode_entity_bytes(ent) == w and len(parsed) == 2
    other = entity(te.SerializeToString() + bytes([priority, 7]))
    assert i.decode_entity_bytes(other) == TableEntry(w.table, w.match, w.action, w.params, priority=7)


def test_contract_check_names_the_mismatch():
    import copy

    bad = copy.deepcopy(CONTRACT)
    bad["tables"]["t"]["keys"][1]["bitwidth"] = 24
    with pytest.raises(P4RuntimeError, match="I.t: key 'p' is lpm 32 bits in the P4Info, lpm 24"):
        P4Info(p4info_msg()).check_contract(bad)
    bad = copy.deepcopy(CONTRACT)
    bad["counters"]["c"]["indices"].append("w")
    with pytest.raises(P4RuntimeError, match="counter 'I.c' has 3 cells, the contract names 4"):
        P4Info(p4info_msg()).check_contract(bad)


def test_packet_out_metadata_by_name_only_when_declared():
    with_hdr, without = info(packet_out=True), info()
    md = with_hdr.packet_out_metadata({"egress_port": 5, "flag": 1})
    assert [(m.metadata_id, m.value) for m in md] == [(1, b"\x05"), (2, b"\x01")]
    assert [m.value for m in with_hdr.packet_out_metadata(None)] == [b"\x00", b"\x00"]
    with pytest.raises(P4RuntimeError, match="missing parameter 'flag'"):
        with_hdr.packet_out_metadata({"egress_port": 5})
    assert without.packet_out_metadata(None) == []
    with pytest.raises(P4RuntimeError, match="declares no @controller_header"):
        without.packet_out_metadata({"egress_port": 1})


@given(device_id=st.integers(0, 2**64 - 1), high=st.integers(0, 2**64 - 1), low=st.integers(0, 2**64 - 1),
       cookie=st.integers(0, 2**64 - 1), blob=st.binary(max_size=300),
       action=st.sampled_from([1, 2, 3, 4, 5]))
@settings(max_examples=60, deadline=None)
def test_a_pipeline_request_is_protobufs_own_bytes(device_id, high, low, cookie, blob, action):
    from finsy.proto import p4r
    from controller.agent.p4runtime import set_pipeline_request
    i = info(True)
    election = p4r.Uint128(high=high, low=low)
    want = p4r.SetForwardingPipelineConfigRequest(device_id=device_id, election_id=election, action=action)
    want.config.p4info.CopyFrom(i.info)
    want.config.p4_device_config = blob
    want.config.cookie.cookie = cookie
    # twice: the second from the config kept for the program
    for _ in range(2):
        assert set_pipeline_request(device_id, election, i, blob, cookie, action) == want.SerializeToString()


def test_a_pipeline_request_follows_the_program_and_cookie_it_is_given():
    from finsy.proto import p4r
    from controller.agent.p4runtime import set_pipeline_request
    e = p4r.Uint128(low=1)
    blob = b'{"a": 1}'
    a = p4r.SetForwardingPipelineConfigRequest.FromString(set_pipeline_request(3, e, info(), blob, 7))
    b = p4r.SetForwardingPipelineConfigRequest.FromString(set_pipeline_request(3, e, info(True), blob, 7))
    c = p4r.SetForwardingPipelineConfigRequest.FromString(set_pipeline_request(3, e, info(True), blob, 8))
    d = p4r.SetForwardingPipelineConfigRequest.FromString(set_pipeline_request(3, e, info(True), b'{"a": 2}', 8))
    assert a.config.p4info == info().info and b.config.p4info == info(True).info
    assert (b.config.cookie.cookie, c.config.cookie.cookie) == (7, 8)
    assert (c.config.p4_device_config, d.config.p4_device_config) == (blob, b'{"a": 2}')


# ---- against the fake server ---------------------------------------------------------------
@pytest.fixture
def fake():
    f = FakeSwitch()
    yield f
    f.stop()


def client(fake, **kw) -> P4RuntimeClient:
    c = P4RuntimeClient(fake.address, election_id=kw.pop("election_id", 10), timeout=kw.pop("timeout", 5), **kw)
    c.set_pipeline(fake.info, b"{}", cookie=42)
    c.check_contract(CONTRACT)
    return c


def routed_state(n_groups: int, base: int = 0) -> Batch:
    """n groups of 2 members, an I.sel entry per group, and some I.t entries."""
    b = Batch()
    for gi in range(1, n_groups + 1):
        mids = (base + 2 * gi, base + 2 * gi + 1)
        b.members += [member(i, i) for i in mids]
        b.groups.append(Group("I.prof", base + gi, mids))
        b.entries.append(sel_entry(gi, base + gi))
    b.entries += [entry(k, k) for k in range(20)]
    return b


def test_server_that_reorders_within_a_request_still_reaches_the_state(fake):
    fake.order = "reverse"
    c = client(fake)
    first = routed_state(5)
    c.apply(diff(c.read_state(), first))
    assert same_state(fake.state(), first) and same_state(c.read_state(), first)
    # move every entry to new groups, drop the old groups and members, change some values
    second = routed_state(5, base=100)
    second.entries = [e for e in second.entries if e.table == "I.sel"] + [entry(k, k + 1) for k in range(10)]
    d = diff(c.read_state(), second)
    assert d.delete.groups and d.delete.members and d.modify.entries
    rep = c.apply(d)
    assert same_state(fake.state(), second)
    assert rep.updates == len(d) and rep.requests == len(plan.stages(d))
    for req in fake.requests:   # and no request ever held a dependent pair
        ups = [plan.Update(op, o) for op, o in req]
        assert not any(plan.depends_on(a, b) for a in ups for b in ups)
    c.close()


@pytest.mark.parametrize("max_batch, helper", [(1024, False), (8, True)])
def test_only_a_write_longer_than_one_request_has_a_helper_thread_encode_it(fake, monkeypatch, max_batch, helper):
    """A write whose stages each fit one request (a failure's changed cells on a ToR) is
    encoded in the caller's thread: starting a thread waits for the GIL, and a
    network-wide update writes every switch at once from its pool. One longer than a
    request (a whole generation) overlaps its encoding with the switch's work on a helper
    thread. Either way the switch reaches the state, one stage after another."""
    started = []
    start = threading.Thread.start

    def counted(self):
        started.append(self.name)
        start(self)
    monkeypatch.setattr(threading.Thread, "start", counted)
    fake.order = "reverse"
    c = client(fake, max_batch=max_batch)
    first = routed_state(5)
    d = diff(c.read_state(), first)
    assert len(d) > 8
    n = len(fake.requests)
    c.apply(d)
    assert same_state(fake.state(), first)
    assert [x for x in started if x.startswith("p4rt-encode")] == ([f"p4rt-encode-{c.name}"] if helper else [])
    assert len(fake.requests) - n == sum(-(-len(s) // max_batch) for s in plan.stages(d))
    c.close()


def test_one_request_of_everything_fails_on_a_reordering_server(fake):
    """What the old client did (members, groups, entries in one 512-update chunk)."""
    from finsy.proto import p4r

    fake.order = "reverse"
    c = client(fake)
    req = p4r.WriteRequest(device_id=0, election_id=c.election)
    for o in (member(1, 1), member(2, 2), Group("I.prof", 1, (1, 2)), sel_entry(1, 1)):
        c.p4info.fill_entity(req.updates.add(type=p4r.Update.INSERT).entity, o)
    import grpc

    with pytest.raises(grpc.RpcError):
        c.stub.Write(req, timeout=5)
    c.close()


def test_mid_batch_failure_names_the_entry_and_a_retry_writes_only_the_rest(fake):
    c = client(fake, max_batch=8)
    desired = routed_state(4)
    d = diff(c.read_state(), desired)
    stages = plan.stages(d)
    entry_stage = stages[-1]
    n_before = len(fake.requests) + sum(-(-len(s) // 8) for s in stages[:-1])
    fake.fail[(n_before + 1, 3)] = 8                      # RESOURCE_EXHAUSTED, 2nd entry request
    victim = entry_stage[8 + 3].obj
    with pytest.raises(WriteFailed) as ei:
        c.apply(d)
    msg = str(ei.value)
    assert "insert of I.t [k=" in msg and "RESOURCE_EXHAUSTED: injected fault" in msg
    assert f"k={dict(victim.match)['k']} " in msg
    assert ei.value.failed[0][1] == victim
    assert ei.value.report.requests == len(fake.requests) - 1   # all before the failing one
    # what the failed request did not refuse went through (continue on error)
    assert entry_key(victim) not in fake.entries
    assert sum(entry_key(e) in fake.entries for e in desired.entries) == len(desired.entries) - 1 - (
        len(entry_stage) - 16)
    # the retry re-reads and re-diffs: only what is missing is written
    again = diff(c.read_state(), desired)
    assert len(again) == 1 + len(entry_stage) - 16
    c.apply(again)
    assert same_state(fake.state(), desired)
    c.close()


def test_takeover_by_a_higher_election_id_stops_writes(fake):
    c = client(fake)
    c.apply(Diff(insert=Batch(entries=[entry(1, 1)])))
    assert c.connected
    fake.takeover(election_id=99)
    end = time.monotonic() + 5
    while c.connected and time.monotonic() < end:
        time.sleep(0.01)
    assert not c.connected and c.primary_election_id == 99
    writes = len(fake.requests)
    with pytest.raises(NotPrimary, match="election id 99 took over"):
        c.apply(Diff(insert=Batch(entries=[entry(2, 2)])))
    assert len(fake.requests) == writes                   # nothing was sent
    c.close()


def test_lower_election_id_is_refused_at_connect(fake):
    first = client(fake, election_id=10)
    with pytest.raises(NotPrimary, match=r"primary \(election id 10, ours is 5\)"):
        P4RuntimeClient(fake.address, election_id=5, timeout=5)
    assert first.connected
    first.close()


def test_stream_floods_are_bounded_and_counted(fake):
    from finsy.proto import p4r

    c = client(fake)
    for i in range(PACKET_IN_BUFFER + 500):
        r = p4r.StreamMessageResponse()
        r.packet.payload = i.to_bytes(4, "big")
        fake.push_stream(r)
    for _ in range(2000):
        r = p4r.StreamMessageResponse()
        r.idle_timeout_notification.timestamp = 1
        fake.push_stream(r)
    for _ in range(300):
        r = p4r.StreamMessageResponse()
        r.digest.digest_id = 1
        fake.push_stream(r)
    end = time.monotonic() + 10
    while c.stats.digests_dropped < 300 and time.monotonic() < end:
        time.sleep(0.01)
    s = c.stats
    assert (s.packet_in, s.packet_in_dropped, s.idle_timeouts_dropped, s.digests_dropped) == (
        PACKET_IN_BUFFER + 500, 500, 2000, 300)
    first = c.packet_in()
    assert first.payload == (500).to_bytes(4, "big")       # the oldest 500 were dropped
    assert c.connected
    c.close()


@pytest.mark.parametrize("rpc, call", [
    ("Write", lambda c: c.apply(Diff(insert=Batch(entries=[entry(1, 1)])))),
    ("Read", lambda c: c.read_state()),
    ("Read", lambda c: c.read_objects(Batch(entries=[entry(1, 1), entry(2, 1)]))),
    ("Read", lambda c: c.read_counters(CONTRACT)),
    ("GetForwardingPipelineConfig", lambda c: c.pipeline_cookie()),
], ids=["write", "read_state", "read_objects", "read_counters", "pipeline_cookie"])
def test_every_rpc_has_a_deadline(fake, rpc, call):
    """A switch that answers late (here 3 s) is Unreachable after the client's timeout
    (0.5 s), for the reads as for the writes: a call without a deadline would wait for the
    answer and return it. (The session is opened with the usual timeout: arbitration on a
    loaded machine may take longer than 0.5 s.)"""
    c = client(fake)
    c.timeout = 0.5
    fake.delay[rpc] = 3.0
    with pytest.raises(Unreachable, match="DEADLINE_EXCEEDED"):
        call(c)
    fake.delay.clear()
    c.close()


def test_a_unary_call_waits_for_its_channel_while_the_stream_is_up_and_fails_at_once_after(fake):
    """A connect attempt that failed (a switch restarting) leaves the shared unary channel
    backing off. While the session's stream is up, a call waits for the channel within its
    deadline and gets the answer of the server that came up meanwhile; once the stream has
    ended, a call to a dead address fails at once (UNAVAILABLE, not its deadline)."""
    import grpc
    from finsy.proto import p4r, p4r_grpc

    from controller.agent.p4rt_streams import RECONNECT_OPTIONS
    from controller.agent.bmv2_process import free_port

    c = client(fake)
    port = free_port()
    stub = p4r_grpc.P4RuntimeStub(grpc.insecure_channel(f"127.0.0.1:{port}", options=RECONNECT_OPTIONS))
    with pytest.raises(grpc.RpcError) as e:       # nothing listens: the channel backs off
        stub.GetForwardingPipelineConfig(p4r.GetForwardingPipelineConfigRequest(), timeout=5)
    assert e.value.code() == grpc.StatusCode.UNAVAILABLE
    c.stub = stub
    late: list[FakeSwitch] = []
    starter = threading.Timer(0.3, lambda: late.append(FakeSwitch(port=port)))
    starter.start()
    try:
        assert c.pipeline_cookie() is None       # the late server has no pipeline
        assert late and c.read_state() == Batch()
        late[0].stop()
        fake.stop()                              # the session's stream ends
        end = time.monotonic() + 10
        while c.connected and time.monotonic() < end:
            time.sleep(0.02)
        assert not c.connected
        with pytest.raises(Unreachable, match="UNAVAILABLE"):
            c.pipeline_cookie()
    finally:
        starter.join()
        for s in late:
            s.stop()
        c.close()


def test_unreachable_address_and_bad_election_id():
    with pytest.raises(Unreachable, match="no P4Runtime server at 127.0.0.1:9 within 0.3s"):
        P4RuntimeClient("127.0.0.1:9", timeout=0.3)
    from controller.agent.backend import BackendError

    with pytest.raises(BackendError, match="election id 0 is not in 1..2"):
        P4RuntimeClient("127.0.0.1:9", election_id=0, timeout=0.3)


def test_timer_packet_out_carries_metadata_only_when_declared():
    for declared in (False, True):
        f = FakeSwitch(packet_out=declared)
        try:
            c = P4RuntimeClient(f.address, election_id=3, timeout=5)
            c.use_p4info(f.info)
            c.send_timer(7)
            c.packet_out(b"\x01\x02", {"egress_port": 4, "flag": 0} if declared else None)
            end = time.monotonic() + 5
            while len(f.packet_outs) < 2 and time.monotonic() < end:
                time.sleep(0.01)
            timer, other = f.packet_outs
            assert timer.payload == timer_frame(7) and timer.payload[12:16] == b"\x88\xb5\x00\x07"
            assert len(timer.payload) == 60
            if declared:
                assert [(m.metadata_id, m.value) for m in timer.metadata] == [(1, b"\x00"), (2, b"\x00")]
                assert [(m.metadata_id, m.value) for m in other.metadata] == [(1, b"\x04"), (2, b"\x00")]
            else:
                assert not timer.metadata and not other.metadata
            c.close()
        finally:
            f.stop()


def test_an_entry_the_p4info_refuses_stops_the_write_cleanly(fake):
    c = client(fake, max_batch=4)
    bad = TableEntry("I.t", (("k", 99), ("p", (0, 0))), "I.a", (("v", 999),))   # v is 8 bits
    good = [entry(k, k) for k in range(12)]
    with pytest.raises(P4RuntimeError, match="does not fit 8 bits"):
        c.apply(Diff(insert=Batch(entries=good + [bad])))
    # the requests before the one holding the bad entry went through, nothing after
    assert len(fake.entries) == 12 and len(fake.requests) == 3
    c.apply(Diff(insert=Batch(entries=[entry(20, 1)])))    # the session is still usable
    assert len(fake.entries) == 13
    c.close()


def test_sessions_read_on_one_shared_pool_of_threads(fake):
    """Every session's Read RPCs run on the process's one pool of read threads: sessions
    add no read threads of their own (a daemon with a thousand sessions kept four each),
    and a session closed leaves the pool to the others."""
    from controller.agent import p4runtime as p4rt

    first = routed_state(5)
    sessions = [client(fake, election_id=20 + i) for i in range(3)]
    sessions[-1].apply(diff(sessions[-1].read_state(), first))      # the primary
    for s in sessions:
        assert same_state(s.read_state(), first)     # several RPCs each: tables, members, groups
    readers = [t for t in threading.enumerate() if t.name.startswith("p4rt-read")]
    assert readers and len(readers) <= p4rt.READ_POOL_THREADS
    assert all(t.name.startswith("p4rt-read_") for t in readers), [t.name for t in readers]
    for s in sessions:
        s.close()


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)


@given(value=_JSON, indent=st.sampled_from([None, 0, 2, 4]))
@settings(max_examples=150, deadline=None)
def test_a_device_config_is_sent_as_the_same_json_without_its_whitespace(value, indent):
    """What a bmv2 pipeline load sends: the JSON value of the file (keys in their order,
    strings, numbers as they are) in its shortest form, never longer than the file."""
    import json
    from controller.agent.p4runtime import compact_device_config
    blob = json.dumps(value, indent=indent, ensure_ascii=False).encode()
    out = compact_device_config(blob)
    assert json.loads(out) == value
    assert list(_keys(json.loads(out))) == list(_keys(value))
    assert out == min(blob, json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode(), key=len)


def _keys(v):
    if isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from _keys(x)
    elif isinstance(v, list):
        for x in v:
            yield from _keys(x)


def test_a_device_config_that_is_not_json_is_sent_as_it_is():
    from controller.agent.p4runtime import compact_device_config
    for blob in (b"\x00\xff binary", b'{"a": ', b"", "{\"\u00e9\": 1}".encode("latin-1")):
        assert compact_device_config(blob) is blob
    pretty = '{\n  "name" : "caf\u00e9 \\" {x}",\n  "v" : [ 1 , 2.5 ]\n}'.encode()
    assert compact_device_config(pretty) == '{"name":"caf\u00e9 \\" {x}","v":[1,2.5]}'.encode()


def test_a_device_config_is_compacted_with_the_collector_paused(monkeypatch):
    """The JSON value is made and freed with the cyclic collector paused (a daemon compacts
    it with a large heap, which the collections it would start walk), and the collector
    runs again after it, also when the blob is not JSON."""
    import gc
    import json
    from controller.agent.p4runtime import compact_device_config
    seen = []
    real = json.loads

    def loads(b, *a, **k):
        seen.append(gc.isenabled())
        return real(b, *a, **k)
    monkeypatch.setattr(json, "loads", loads)
    assert gc.isenabled()
    assert compact_device_config(b'{ "a" : [1, 2] }') == b'{"a":[1,2]}'
    assert compact_device_config(b"not json") == b"not json"
    assert seen == [False, False] and gc.isenabled()


def test_the_switches_of_a_program_load_its_device_config_read_once_and_a_few_at_a_time(tmp_path):
    """Loading a program on many switches sends the device config the program's codec read
    once (the same bytes object for every switch, not the file read again per switch) and
    at most ``PIPELINE_LOADS_AT_ONCE`` loads at a time in the process: each load holds the
    device config again in its request (15.5 MB for a (1024, 32) ToR), 16 at once were
    ~0.5 GB of the daemon."""
    from concurrent.futures import ThreadPoolExecutor
    from google.protobuf import text_format
    from controller.agent import p4runtime as p4rt
    from controller.agent.backend import SwitchAddress

    (tmp_path / "p.txtpb").write_text(text_format.MessageToString(p4info_msg()))
    (tmp_path / "d.json").write_bytes(b'{"program": "loaded once"}')
    pipe = p4rt.bmv2_pipeline(tmp_path / "p.txtpb", tmp_path / "d.json", CONTRACT, "t")
    sent, now, most, lock = [], [0], [0], threading.Lock()

    class Client:
        p4info = None

        def pipeline_cookie(self):
            return None

        def set_pipeline(self, p4info, device_config, cookie=None):
            with lock:
                now[0] += 1
                most[0] = max(most[0], now[0])
            time.sleep(0.02)
            with lock:
                now[0] -= 1
                sent.append(device_config)

    def load(i):
        b = p4rt.P4RuntimeBackend(SwitchAddress(name=f"s{i}", address="127.0.0.1:1", device_id=i))
        b.client = Client()
        return b.set_pipeline(pipe)
    assert load(0)                          # the program's codec reads the files here
    (tmp_path / "d.json").unlink()          # the other switches do not read them again
    with ThreadPoolExecutor(16) as pool:
        assert all(pool.map(load, range(1, 24)))
    assert len(sent) == 24 and sent[0] == b'{"program":"loaded once"}'    # compacted
    assert all(d is sent[0] for d in sent)
    assert 1 < most[0] <= p4rt.PIPELINE_LOADS_AT_ONCE, most[0]
