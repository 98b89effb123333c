"""The wire encoder (controller/agent/p4wire.py) against protobuf's own serializer: every
entity, update and write request uro sends is the bytes of the message
:meth:`P4Info.fill_entity` builds, byte for byte -- random entries of every match kind
(exact, LPM, ternary, range, optional, don't-cares omitted), members, groups, default
entries and reads' keys, and a whole ToR generation of the tiny profile."""

from __future__ import annotations

import dataclasses
import unittest.mock

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

pytest.importorskip("finsy.proto", reason="needs the agent extra")

from google.protobuf import text_format  # noqa: E402
from finsy.proto import p4i, p4r  # noqa: E402

from controller.agent import p4wire  # noqa: E402
from controller.agent.p4info import P4Info, P4RuntimeError  # noqa: E402
from controller.tables.state import EntryRows, Group, Member, TableEntry  # noqa: E402

P4INFO = """
pkg_info { arch: "v1model" }
tables {
  preamble { id: 33554433 name: "I.t" alias: "t" }
  match_fields { id: 1 name: "e" bitwidth: 9 match_type: EXACT }
  match_fields { id: 2 name: "p" bitwidth: 32 match_type: LPM }
  match_fields { id: 3 name: "m" bitwidth: 16 match_type: TERNARY }
  match_fields { id: 4 name: "r" bitwidth: 8 match_type: RANGE }
  match_fields { id: 5 name: "o" bitwidth: 1 match_type: OPTIONAL }
  action_refs { id: 16777217 }
  action_refs { id: 16777219 }
  action_refs { id: 16777220 }
  action_refs { id: 16777221 }
  action_refs { id: 16777222 }
  size: 1024
}
tables {
  preamble { id: 33554434 name: "I.sel" alias: "sel" }
  match_fields { id: 1 name: "d" bitwidth: 10 match_type: EXACT }
  action_refs { id: 16777218 }
  implementation_id: 285212673
  size: 1024
}
tables {
  preamble { id: 33554436 name: "I.ex" alias: "ex" }
  match_fields { id: 1 name: "g" bitwidth: 1 match_type: EXACT }
  match_fields { id: 2 name: "s" bitwidth: 8 match_type: EXACT }
  match_fields { id: 3 name: "d" bitwidth: 10 match_type: EXACT }
  action_refs { id: 16777217 }
  action_refs { id: 16777219 }
  action_refs { id: 16777221 }
  action_refs { id: 16777222 }
  size: 4096
}
tables {
  preamble { id: 33554435 name: "I.plain" alias: "plain" }
  match_fields { id: 1 name: "q" bitwidth: 12 match_type: EXACT }
  action_refs { id: 16777218 }
  size: 64
}
actions { preamble { id: 16777217 name: "I.a" alias: "a" }
  params { id: 1 name: "v" bitwidth: 8 } params { id: 2 name: "w" bitwidth: 48 } params { id: 3 name: "z" bitwidth: 1 } }
actions { preamble { id: 16777219 name: "I.none" alias: "none" } }
actions { preamble { id: 16777218 name: "I.w" alias: "w" } params { id: 1 name: "x" bitwidth: 16 } }
action_profiles { preamble { id: 285212673 name: "I.prof" alias: "prof" } table_ids: 33554434 with_selector: true
  size: 1024 max_group_size: 6 }
"""


def _wide_action(action_id: int, name: str, prefix: str, n: int) -> str:
    """The P4Info text of action ``I.<name>``: ``n`` parameters ``<prefix>0..`` of 48 bits."""
    params = "\n".join(f'  params {{ id: {i + 1} name: "{prefix}{i}" bitwidth: 48 }}' for i in range(n))
    return f'actions {{ preamble {{ id: {action_id} name: "I.{name}" alias: "{name}" }}\n{params}\n}}\n'


#: actions of 16, 10 and 24 parameters: entries whose length field is one varint byte or two
P4INFO += (_wide_action(16777220, "big", "b", 16) + _wide_action(16777221, "p10", "c", 10)
           + _wide_action(16777222, "p24", "c", 24))


def info() -> P4Info:
    msg = p4i.P4Info()
    text_format.Merge(P4INFO, msg)
    return P4Info(msg)


INFO = info()


@st.composite
def entries(draw):
    if draw(st.integers(0, 9)) == 0:                       # a default entry
        return TableEntry("I.t", (), "I.a", (("v", draw(st.integers(0, 255))), ("w", 0), ("z", 1)), True)
    plen = draw(st.integers(0, 32))
    addr = draw(st.integers(0, 2**32 - 1)) & (((1 << 32) - 1) ^ ((1 << (32 - plen)) - 1)) if plen else 0
    mask = draw(st.sampled_from([0, 0xFFFF, draw(st.integers(0, 0xFFFF))]))
    lo = draw(st.integers(0, 255))
    hi = draw(st.sampled_from([255, draw(st.integers(lo, 255))]))
    match = (("e", draw(st.integers(0, 511))), ("p", (addr, plen)), ("m", (draw(st.integers(0, 0xFFFF)) & mask, mask)),
             ("r", (0, 255) if draw(st.booleans()) else (lo, hi)), ("o", draw(st.integers(0, 1))))
    if draw(st.booleans()):
        params = (("v", draw(st.integers(0, 255))), ("w", draw(st.integers(0, 2**48 - 1))), ("z", draw(st.integers(0, 1))))
        return TableEntry("I.t", match, "I.a", params, priority=draw(st.integers(1, 2**31 - 1)))
    return TableEntry("I.t", match, "I.none", (), priority=draw(st.integers(1, 2**31 - 1)))


objects = st.one_of(
    entries(),
    st.builds(lambda q, x: TableEntry("I.plain", (("q", q),), "I.w", (("x", x),)), st.integers(0, 4095),
              st.integers(0, 65535)),                        # a table of other keys
    st.builds(lambda d, g: TableEntry("I.sel", (("d", d),), None, (), False, g), st.integers(0, 1023),
              st.integers(0, 2**32 - 1)),
    st.builds(lambda i, x: Member("I.prof", i, "I.w", (("x", x),)), st.integers(0, 2**32 - 1), st.integers(0, 65535)),
    st.builds(lambda g, ms: Group("I.prof", g, tuple(ms)), st.integers(0, 2**32 - 1),
              st.lists(st.integers(0, 2**32 - 1), max_size=8)))


@settings(max_examples=400, deadline=None)
@given(objects, st.booleans())
def test_an_entity_is_the_bytes_protobuf_serializes(obj, key_only):
    want = INFO.fill_entity(p4r.Entity(), obj, key_only).SerializeToString()
    assert INFO.entity_bytes(obj, key_only) == want
    if not key_only:
        assert INFO.decode_entity(p4r.Entity.FromString(want)) in (obj, None)


#: the parameters (name, bits) of the actions table I.ex takes
_EX_ACTIONS = {"I.a": (("v", 8), ("w", 48), ("z", 1)), "I.none": (),
               "I.p10": tuple((f"c{i}", 48) for i in range(10)), "I.p24": tuple((f"c{i}", 48) for i in range(24))}


@st.composite
def entry_rows(draw):
    """Random :class:`EntryRows` of table I.ex: any action, 0-40 rows, values anywhere in
    their widths (small ones often: one-byte values, repeated), columns in any order."""
    action = draw(st.sampled_from(sorted(_EX_ACTIONS)))
    keys = [("g", 1), ("s", 8), ("d", 10)]
    params = list(_EX_ACTIONS[action])
    keys = draw(st.permutations(keys))
    params = draw(st.permutations(params)) if params else params
    m = draw(st.integers(0, 40))

    def value(bits):
        return st.one_of(st.integers(0, min(3, (1 << bits) - 1)), st.integers(0, (1 << bits) - 1))
    kc = [[draw(value(b)) for _, b in keys] for _ in range(m)]
    pc = [[draw(value(b)) for _, b in params] for _ in range(m)]
    return EntryRows("I.ex", action, tuple(n for n, _ in keys), np.array(kc, dtype=np.int64).reshape(m, len(keys)),
                     tuple(n for n, _ in params), np.array(pc, dtype=np.int64).reshape(m, len(params)))


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.integers(0, 1 << 16), st.integers(0, (1 << 64) - 1),
                 st.integers(0, (1 << 14) - 1).map(lambda i: 1 << 31 | i)))
@example(0)
@example((1 << 14) - 1)
@example(1 << 14)
@example((1 << 28) - 1)
@example(1 << 28)
@example((1 << 64) - 1)
def test_a_varint_is_the_bytes_protobuf_serializes(n):
    """:func:`p4wire.varint` (a table lookup per 14 bits) is protobuf's varint: one to ten
    bytes, around every 7-bit boundary, and the ids of generation 1 (bit 31 set)."""
    want = p4r.Uint128(high=n).SerializeToString()[1:] if n else b"\x00"     # (after the field's tag)
    assert p4wire.varint(n) == want
    assert p4wire.field_varint(5, n) == (bytes([5 << 3]) + want if n else b"")


def test_a_negative_varint_is_refused():
    with pytest.raises(ValueError, match="-1"):
        p4wire.varint(-1)


@settings(max_examples=300, deadline=None)
@given(entry_rows())
def test_entries_encoded_as_columns_are_the_bytes_protobuf_serializes_for_each(rows):
    """:meth:`WireCodec.rows` (the columns, no object made) is each entry's entity, byte
    for byte, as protobuf serializes it: lengths of one and two varint bytes, values of
    one to six bytes, keys and parameters given in any order."""
    got = INFO.wire.rows(rows)
    assert not rows.made()
    want = [INFO.fill_entity(p4r.Entity(), e).SerializeToString() for e in rows]
    assert got == want
    assert got == [INFO.entity_bytes(e) for e in rows]


def test_columns_that_do_not_fit_the_p4info_are_refused_with_what_does_not_fit():
    rows = lambda table, action, keys, params, pnames=("x",): EntryRows(  # noqa: E731
        table, action, keys, np.zeros((2, len(keys)), dtype=np.int64) + 1, pnames,
        np.array(params, dtype=np.int64).reshape(2, len(pnames)))
    bad = [(rows("I.plain", "I.w", ("q",), [[1], [65536]]), "does not fit 16 bits"),
           (rows("I.plain", "I.w", ("e",), [[1], [1]]), "no key 'e'"),
           (rows("I.plain", "I.w", ("q",), [[1], [1]], ("y",)), "no parameter 'y'"),
           (rows("I.nope", "I.w", ("q",), [[1], [1]]), "table 'I.nope' is not in the P4Info"),
           (rows("I.plain", "I.nope", ("q",), [[1], [1]]), "action 'I.nope' is not in the P4Info"),
           (rows("I.ex", "I.a", ("g", "s", "d"), [[1, 1], [1, 1]], ("v", "w")), r"missing parameter\(s\) \['z'\]")]
    for r, msg in bad:
        with pytest.raises(p4wire.WireError, match=msg):
            INFO.wire.rows(r)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["insert", "modify", "delete"]), objects), max_size=6),
       st.integers(0, 2**64 - 1), st.integers(1, 2**128 - 1))
def test_a_write_request_is_the_bytes_protobuf_serializes(updates, device, election):
    req = p4r.WriteRequest(device_id=device, election_id=p4r.Uint128(high=election >> 64, low=election & (2**64 - 1)))
    for op, obj in updates:
        INFO.fill_entity(req.updates.add(type=p4wire.UPDATE_TYPE[op]).entity, obj)
    got = p4wire.write_request(device, (election >> 64, election & (2**64 - 1)),
                               [p4wire.update(op, INFO.entity_bytes(obj)) for op, obj in updates])
    assert got == req.SerializeToString()


@settings(max_examples=100, deadline=None)
@given(st.lists(objects, max_size=12), st.integers(0, 300))
def test_the_entities_of_a_read_answer_are_the_bytes_protobuf_gives_for_each(objs, pad):
    resp = p4r.ReadResponse()
    for o in objs:
        INFO.fill_entity(resp.entities.add(), o)
    if resp.entities and pad:                 # an entity past 127 and 16383 bytes: longer length prefixes
        resp.entities[0].table_entry.metadata = b"m" * (pad * 60)
    raw = resp.SerializeToString()
    want = [e.SerializeToString() for e in resp.entities]

    def no_parse(response):
        raise AssertionError("a well-formed answer was handed to protobuf")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(p4wire, "_parsed_entities", no_parse)
        assert p4wire.read_entities(raw) == want


def test_a_read_answer_the_splitter_does_not_follow_is_parsed_or_refused():
    resp = p4r.ReadResponse()
    INFO.fill_entity(resp.entities.add(), TableEntry("I.plain", (("q", 5),), "I.w", (("x", 9),)))
    raw = resp.SerializeToString()
    # an unknown field between two entities: protobuf skips it; so does the split
    one = resp.entities[0].SerializeToString()
    assert p4wire.read_entities(raw + b"\x10\x01" + raw) == [one, one]
    with pytest.raises(Exception, match="(?i)truncated|parse|error"):
        p4wire.read_entities(raw[:-1])


def test_what_the_p4info_refuses_is_refused_with_the_object_named():
    bad = [(TableEntry("I.t", (("e", 512),), "I.none", (), priority=1), "does not fit 9 bits"),
           (TableEntry("I.t", (("p", (1, 24)),), "I.none", (), priority=1), "bits set past the /24 prefix"),
           (TableEntry("I.t", (("p", (1, 0)),), "I.none", (), priority=1), "a /0 prefix with value 1"),
           (TableEntry("I.t", (("q", 1),), "I.none", (), priority=1), "no key 'q'"),
           (TableEntry("I.t", (), "I.a", (("v", 1),), priority=1), r"missing parameter\(s\) \['w', 'z'\]"),
           (TableEntry("I.t", (), "I.a", (("v", 1), ("w", 1), ("y", 1)), priority=1), "no parameter 'y'"),
           (TableEntry("I.nope", (), "I.a", ()), "table 'I.nope' is not in the P4Info"),
           (TableEntry("I.t", (), "I.nope", ()), "action 'I.nope' is not in the P4Info"),
           (Member("I.nope", 1, "I.w", (("x", 1),)), "action profile 'I.nope' is not in the P4Info")]
    for obj, msg in bad:
        with pytest.raises(P4RuntimeError, match=msg):
            INFO.entity_bytes(obj)
        with pytest.raises(P4RuntimeError):
            INFO.fill_entity(p4r.Entity(), obj)            # the message path refuses it too


def test_the_client_writes_what_the_message_path_writes(monkeypatch):
    """Each WriteRequest the client sends (:func:`wire_requests`) is, byte for byte, the
    one protobuf's messages give (:func:`message_requests`), cut into the same requests
    by count and by size; a delete names its object's identity alone (an entry's table,
    match and priority; a member's or group's profile and id), inserts and modifies
    their whole object."""
    from controller.agent import plan
    from controller.agent.p4runtime import P4RuntimeClient, message_requests, wire_requests

    c = object.__new__(P4RuntimeClient)                     # no session: the encoders alone
    c.name, c.device_id, c.election_id, c.p4info = "s", 7, 2**64 + 3, INFO
    c.election = p4r.Uint128(high=1, low=3)
    rnd = __import__("random").Random(1)
    ops = ["insert", "modify", "delete"]
    stage = [plan.Update(rnd.choice(ops), TableEntry(
        "I.t", (("e", i), ("p", (i << 8, 24)), ("m", (0, 0)), ("r", (0, 255)), ("o", i & 1)), "I.a",
        (("v", i % 256), ("w", rnd.getrandbits(48)), ("z", i & 1)), priority=i + 1)) for i in range(500)]
    stage += [plan.Update(rnd.choice(ops), Member("I.prof", i + 1, "I.w", (("x", i),))) for i in range(60)]
    stage += [plan.Update(rnd.choice(ops), Group("I.prof", i + 1, (i + 1, i + 2))) for i in range(60)]
    stage += [plan.Update(rnd.choice(ops), TableEntry("I.sel", (("d", i),), None, (), False, i + 1)) for i in range(60)]
    stage.append(plan.Update("insert", TableEntry("I.t", (), "I.none", (), True)))      # a default: modified
    for max_batch, max_bytes in ((1024, 2 << 20), (64, 2 << 20), (1024, 4000)):
        c.max_batch, c.max_request_bytes = max_batch, max_bytes
        got = list(wire_requests(c, stage))
        want = list(message_requests(c, stage))
        assert [len(o) for o, _ in got] == [len(o) for o, _ in want] and len(got) > (max_batch < 1024 or max_bytes < 1e6)
        assert [r for _, r in got] == [r for _, r in want]
    sent = [u for _, r in got for u in p4r.WriteRequest.FromString(r).updates]
    assert len(sent) == len(stage)
    for u, w in zip(sent, stage):
        ent = u.entity
        which = ent.WhichOneof("entity")
        body = getattr(ent, which)
        assert p4wire.UPDATE_TYPE[w.op] == u.type or w.obj.is_default
        if w.op == "delete":
            assert body == INFO.fill_entity(p4r.Entity(), w.obj, key_only=True).__getattribute__(which)
            assert not body.HasField("action") if which != "action_profile_group" else not body.members
        else:
            assert body == INFO.fill_entity(p4r.Entity(), w.obj).__getattribute__(which)
    kinds = {(w.op, type(w.obj).__name__) for w in stage}
    assert {("delete", "TableEntry"), ("delete", "Member"), ("delete", "Group")} <= kinds


def _client(max_batch: int, max_bytes: int):
    from controller.agent.p4runtime import P4RuntimeClient

    c = object.__new__(P4RuntimeClient)                     # no session: the encoders alone
    c.name, c.device_id, c.election_id, c.p4info = "s", 7, 2**64 + 3, INFO
    c.election = p4r.Uint128(high=1, low=3)
    c.max_batch, c.max_request_bytes = max_batch, max_bytes
    return c


@settings(max_examples=300, deadline=None)
@given(st.lists(objects, max_size=40), st.integers(1, 12), st.sampled_from([1, 60, 200, 700, 2000, 2 << 20]))
def test_inserts_already_encoded_are_the_requests_the_client_writes(objs, max_batch, max_bytes):
    """The requests of a generation written into an empty slot (its entities encoded once,
    :func:`p4wire.insert_requests`) are :func:`wire_requests`'s for the same inserts, byte
    for byte and cut at the same updates: by count, by size (an update too large for a
    request alone still sent alone)."""
    objs = [o for o in objs if not (isinstance(o, TableEntry) and o.is_default)]     # (defaults: modified)
    _same_cuts_as_the_client(objs, max_batch, max_bytes)


def _same_cuts_as_the_client(objs: list, max_batch: int, max_bytes: int) -> list:
    """:func:`p4wire.insert_requests` of ``objs`` against :func:`wire_requests`'s requests
    for the same inserts: the same bytes, cut at the same updates; the updates per request."""
    from controller.agent import plan
    from controller.agent.p4runtime import wire_requests

    c = _client(max_batch, max_bytes)
    want = list(wire_requests(c, [plan.Update("insert", o) for o in objs]))
    head = p4wire.request_head(7, (1, 3))
    got = list(p4wire.insert_requests(head, [INFO.entity_bytes(o) for o in objs], max_batch, max_bytes))
    assert [stop - start for start, stop, _ in got] == [len(o) for o, _ in want]
    assert [r for *_, r in got] == [r for _, r in want]
    assert [start for start, *_ in got] == [sum(len(o) for o, _ in want[:k]) for k in range(len(want))]
    return [len(o) for o, _ in want]


def test_a_request_holds_exactly_the_updates_that_fit_its_size():
    """A request's size limit met exactly by its first n updates (each counted as its
    Update's length + 4, as the message path counts it) holds those n, and one byte less
    holds n - 1: the cut is :func:`wire_requests`'s at the byte, for entities of every
    length from one to two varint bytes."""
    rnd = __import__("random").Random(5)
    objs = [TableEntry("I.t", (("e", i), ("p", (0, 0)), ("m", (0, 0)), ("r", (0, 255)), ("o", i & 1)), "I.big",
                       tuple((f"b{j}", rnd.getrandbits(rnd.choice([1, 16, 48]))) for j in range(16)),
                       priority=rnd.randint(1, 2**31 - 1)) for i in range(40)]
    sizes = [len(p4wire.update("insert", INFO.entity_bytes(o))) + 4 for o in objs]
    for n in (1, 3, 7):
        assert _same_cuts_as_the_client(objs, 1024, sum(sizes[:n]))[0] == n
        assert _same_cuts_as_the_client(objs, 1024, sum(sizes[:n]) - 1)[0] == max(n - 1, 1)


def _with(e: TableEntry, key: str, value) -> TableEntry:
    return TableEntry(e.table, tuple((k, value if k == key else v) for k, v in e.match), e.action, e.params,
                      e.is_default, e.group_id, e.priority)


class _Asked(list):
    """A list that notes which of its items were asked for."""

    def __init__(self, items):
        super().__init__(items)
        self.asked = []

    def __getitem__(self, i):
        self.asked.append(i)
        return super().__getitem__(i)


#: entries of an action of 118..198 bytes: their Entity's length one varint byte or two
bigs = st.builds(lambda e, o, ws, prio: TableEntry("I.t", (("e", e), ("p", (0, 0)), ("m", (0, 0)), ("r", (0, 255)),
                                                       ("o", o)), "I.big",
                                                  tuple((f"b{i}", (1 << w) - 1) for i, w in enumerate(ws)), priority=prio),
                 st.integers(0, 511), st.integers(0, 1), st.lists(st.sampled_from([0, 1, 16, 48]), min_size=16,
                                                                   max_size=16), st.integers(1, 2**31 - 1))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(objects, bigs), max_size=30), st.sampled_from(["e", "o"]), st.integers(0, 511), st.data())
def test_entities_keyed_are_the_bytes_encoded_and_ask_only_what_they_encode(objs, key, value, data):
    """:meth:`WireCodec.entities_keyed` (a ToR's first shadow from its generation 0's bytes,
    its objects derived lazily): each table entry of an action with ``key`` set to
    ``value`` is its counterpart's bytes with that match field patched, byte for byte the
    entry's own encoding, and its object is never asked for; every other object -- a
    default, a selector entry, a member or a group (changed otherwise), a value of another
    width, an entry of a table without ``key`` -- is asked for and encoded."""
    value = value if key == "e" else value & 1
    new, asked = [], []
    for k, o in enumerate(objs):
        if type(o) is TableEntry and o.group_id is None and not o.is_default:
            new.append(_with(o, key, value))
            if key not in dict(o.match) or \
                    len(p4wire.uint_bytes(value, 9)) != len(p4wire.uint_bytes(dict(o.match)[key], 9)):
                asked.append(k)
        else:
            new.append(o if isinstance(o, TableEntry) else
                       dataclasses.replace(o, **{"member_id" if isinstance(o, Member) else "group_id": data.draw(
                           st.integers(0, 2**32 - 1))}))
            asked.append(k)
    wire = INFO.wire
    lazy = _Asked(new)
    one_by_one = []
    keyed_one = wire._keyed_one
    wire._keyed_one = lambda *a: one_by_one.append(a[4]) or keyed_one(*a)
    try:
        got = wire.entities_keyed([wire.entity(o) for o in objs], objs, key, value, lazy)
    finally:
        del wire._keyed_one
    assert got == [INFO.fill_entity(p4r.Entity(), n).SerializeToString() for n in new]
    assert lazy.asked == asked
    # the key first in the match ("e"): every entry patched in the array, whatever its length
    assert one_by_one == (asked if key == "e" else list(range(len(objs))))


def _keyed(objs: list, key: str, value: int, entities: list | None = None) -> tuple[list, list, list]:
    """:meth:`WireCodec.entities_keyed` of ``objs`` (their own encodings unless
    ``entities``): (the bytes, the objects of ``new`` asked for, the entities patched one by
    one)."""
    wire = INFO.wire
    lazy = _Asked([_with(o, key, value) for o in objs])
    one_by_one = []
    keyed_one = wire._keyed_one
    wire._keyed_one = lambda *a: one_by_one.append(a[4]) or keyed_one(*a)
    try:
        got = wire.entities_keyed(entities or [wire.entity(o) for o in objs], objs, key, value, lazy)
    finally:
        del wire._keyed_one
    return got, lazy.asked, one_by_one


def test_entities_keyed_patches_every_length_of_the_entitys_length_field_in_one_pass():
    """Entities whose length is 126..129 and 254..257 bytes (the length field one varint
    byte up to 127, two from 128, its first byte 0x80 at 128 and 256) are patched in the
    array, none one by one, and are the entries' own encodings."""
    rnd = __import__("random").Random(3)
    found: dict[int, TableEntry] = {}
    want = {126, 127, 128, 129, 254, 255, 256, 257}
    for _ in range(20000):
        n = rnd.choice([10, 24])                             # actions I.p10, I.p24: 10 or 24 parameters
        o = TableEntry("I.t", (("e", rnd.randrange(256)), ("p", (0, 0)), ("m", (0, 0)), ("r", (0, 255)), ("o", 1)),
                       f"I.p{n}", tuple((f"c{j}", rnd.getrandbits(rnd.choice([0, 1, 8, 16, 32, 48]))) for j in range(n)),
                       priority=rnd.getrandbits(rnd.choice([1, 8, 15, 22, 31])) or 1)
        body = len(INFO.wire.entity(o)) - 2
        body -= body >= 128                                  # the length field's second byte
        if body in want:
            found.setdefault(body, o)
        if len(found) == len(want):
            break
    assert sorted(found) == sorted(want)
    objs = list(found.values())
    got, asked, one_by_one = _keyed(objs, "e", 200)
    assert got == [INFO.fill_entity(p4r.Entity(), _with(o, "e", 200)).SerializeToString() for o in objs]
    assert asked == [] and one_by_one == []


def test_a_shadows_member_takes_its_actions_bytes_whatever_its_length_and_only_its_own():
    """A member under its other generation's id (bit 31 set, the same action and parameter
    tuple) is its counterpart's action bytes under the new id, whether its ``Entity``'s
    length is one varint byte or two (short and long actions), its object not encoded
    again; a member whose parameters are others is encoded."""
    small = Member("I.prof", 7, "I.w", (("x", 3),))
    big = Member("I.prof", 200, "I.big", tuple((f"b{i}", (1 << 48) - 1 - i) for i in range(16)))
    assert len(INFO.wire.entity(small)) < 128 < len(INFO.wire.entity(big))
    objs = [small, big, small, big]
    new = [dataclasses.replace(small, member_id=1 << 31 | 7), dataclasses.replace(big, member_id=1 << 31 | 200),
           dataclasses.replace(small, member_id=1 << 31 | 7, params=(("x", 4),)),
           dataclasses.replace(big, member_id=1 << 31 | 200, params=big.params[:-1] + (("b15", 1),))]
    wire = INFO.wire
    encoded = []
    entity = wire.entity
    wire.entity = lambda obj, key_only=False: encoded.append(obj) or entity(obj, key_only)
    try:
        got = wire.entities_keyed([entity(o) for o in objs], objs, "e", 1, new)
    finally:
        del wire.entity
    assert got == [INFO.fill_entity(p4r.Entity(), n).SerializeToString() for n in new]
    assert encoded == new[2:]


def test_entities_keyed_encodes_an_entity_whose_key_is_not_what_its_object_says():
    """Bytes that are not their object's (the key's field holds another value) are not
    patched: that object's counterpart in ``new`` is asked for and encoded -- the key
    first in the match (patched in the array) and not (one by one)."""
    a = TableEntry("I.t", (("e", 5), ("p", (0, 0)), ("m", (0, 0)), ("r", (0, 255)), ("o", 0)), "I.a",
                   (("v", 1), ("w", 2), ("z", 0)), priority=9)
    other = TableEntry("I.t", (("e", 6), ("p", (0, 0)), ("m", (0, 0)), ("r", (0, 255)), ("o", 1)), "I.a",
                       (("v", 3), ("w", 4), ("z", 1)), priority=9)
    for key, value in (("e", 7), ("o", 1)):
        got, asked, one_by_one = _keyed([a, a], key, value, [INFO.wire.entity(other), INFO.wire.entity(a)])
        assert got == [INFO.wire.entity(_with(a, key, value))] * 2, key
        assert asked == [0], key
        assert one_by_one == ([0] if key == "e" else [0, 1]), key       # "e": the other one patched in the array


# ---- a whole ToR of the tiny profile ---------------------------------------------------------
@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from tiny_program import build_tiny_tor
    out = tmp_path_factory.mktemp("wire_build")
    return out, build_tiny_tor(out)


class _Nowhere:
    @staticmethod
    def address(t: int) -> str:
        return "127.0.0.1:1"


@pytest.mark.p4c
@settings(max_examples=4, deadline=None)
@given(st.sampled_from(["opera", "round-robin"]), st.integers(0, 1), st.booleans())
def test_every_object_of_a_tiny_network_encodes_as_protobuf_does(tiny, generate, generation, failed):
    """Every object the daemon writes on each ToR of a tiny network -- statics, the route
    entries of either generation, the config entry with a down mask -- is the same bytes by
    the wire encoder as by protobuf's messages, written and read by key."""
    from benchmarks.bench_fabric import PER_HOP, net_config
    from controller.agent.backend import backend_for
    from controller.daemon.config import load
    from controller.daemon.plan import Prepared
    from controller.schedule.degrade import Failed

    out, program = tiny
    cfg = load(net_config(out / f"net_{generate}.toml", program, _Nowhere(), tors=8, uplinks=2, routing=PER_HOP,
                          slice_ms=1000, status_port=0, generate=generate))
    prep = Prepared(cfg, Failed(uplinks=frozenset({(5, 1)}) if failed else frozenset()), backend_for)
    from controller.agent.p4runtime import _program
    (pipeline,) = prep.pipelines.values()
    codec = _program(pipeline, "tor")[0]
    n = 0
    for name, role in prep.roles.items():
        rb = role.routes(prep.routes, generation)
        st_ = role.static()
        cfg_entry = role.config(generation, role.down_uplinks(prep.routes.failed))
        for obj in [*st_.members, *st_.groups, *st_.entries, *rb.members, *rb.groups, *rb.entries, cfg_entry]:
            for key_only in (False, True):
                assert codec.entity_bytes(obj, key_only) == \
                    codec.fill_entity(p4r.Entity(), obj, key_only).SerializeToString(), (name, obj)
            n += 1
    assert n > 8 * 100


@pytest.mark.p4c
@settings(max_examples=4, deadline=None)
@given(st.sampled_from(["opera", "round-robin"]), st.integers(0, 1), st.sampled_from([(), (0,), (2, 5)]),
       st.booleans())
def test_a_tiny_networks_shadow_derived_from_the_other_generation_is_its_encoding(tiny, generate, generation,
                                                                                 source_routed, failed):
    """Every ToR's route objects of one generation, derived from the other's bytes
    (:meth:`P4RuntimeClient.encode_inserts_keyed`: the ``generation`` field patched) are the
    bytes of the same routes built and encoded for it, per-hop entries and source routes
    with their selector entries, groups and members (groups and selector entries the only
    ones encoded again; a member's action is taken from its bytes)."""
    from benchmarks.bench_fabric import PER_HOP, net_config
    from controller.agent.backend import Inserts, backend_for
    from controller.agent.desired import GENERATION_KEY
    from controller.agent.p4runtime import P4RuntimeClient, _program
    from controller.daemon.config import load
    from controller.daemon.plan import Prepared
    from controller.schedule.degrade import Failed

    out, program = tiny
    routing = PER_HOP.replace("source_routed = []", f"source_routed = {list(source_routed)}")
    if source_routed:
        routing += '\n[routing.source]\nalgo = "ucmp"\nh_max = 4\nengine = "numpy"'
    cfg = load(net_config(out / f"shadow_{generate}_{len(source_routed)}.toml", program, _Nowhere(), tors=8,
                          uplinks=2, routing=routing, slice_ms=1000, status_port=0, generate=generate))
    prep = Prepared(cfg, Failed(uplinks=frozenset({(5, 1)}) if failed else frozenset()), backend_for)
    (pipeline,) = prep.pipelines.values()
    c = object.__new__(P4RuntimeClient)                     # no session: the encoders alone
    c.name, c.p4info = "s", _program(pipeline, "tor")[0]
    wire = c.p4info.wire
    calls = []
    entity = wire.entity
    wire.entity = lambda obj, key_only=False: calls.append(obj) or entity(obj, key_only)
    try:
        for name, role in prep.roles.items():
            was = role.routes(prep.routes, generation)
            ins = c.encode_inserts(was)
            want = c.encode_inserts(role.routes(prep.routes, 1 - generation))
            calls.clear()
            objs = role.objects_as(ins.objects, 1 - generation)
            assert objs.key == GENERATION_KEY
            got = c.encode_inserts_keyed(ins, objs, objs.key, objs.value)
            assert list(got.objects) == list(want.objects) and got.encoded == want.encoded, name
            # members take their action's bytes as written: groups and selector entries alone encoded again
            assert len(calls) == len(was.groups) + sum(e.group_id is not None for e in was.entries)
            assert any(e.group_id is None for e in was.entries), name     # those were patched, not encoded again
            assert isinstance(got, Inserts)
    finally:
        del wire.entity


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 30), st.integers(1, 5), st.sampled_from([4, 300, 1 << 16, 1 << 40]), st.data())
def test_distinct_values_of_columns_are_numbered_column_after_column(m, c, top, data):
    """:func:`p4wire._distinct` (a table of presence for small values, a sort for wide
    ones) against numpy.unique per column."""
    cols = np.array(data.draw(st.lists(st.lists(st.integers(0, top - 1), min_size=c, max_size=c),
                                       min_size=m, max_size=m)), dtype=np.int64).reshape(m, c)
    distinct, idx = p4wire._distinct(cols)
    want = [np.unique(cols[:, j]).tolist() for j in range(c)]
    assert distinct == want
    flat = [(j, v) for j in range(c) for v in want[j]]
    assert idx.shape == (m, c)
    assert [[flat[i] for i in row] for row in idx.tolist()] == [[(j, v) for j, v in enumerate(r)] for r in cols.tolist()]


@settings(max_examples=100, deadline=None)
@given(entry_rows(), st.booleans(), st.sampled_from([(1024, 2 << 20), (7, 2 << 20), (1024, 900)]))
def test_entries_written_as_columns_are_the_requests_of_their_objects(rows, made, cuts):
    """A diff whose modified entries are an :class:`EntryRows` (a failure's changed cells)
    is written from the entities of its columns (:meth:`P4RuntimeClient._rows_encoded`),
    made or not: the requests are protobuf's for the same updates, byte for byte, each
    entity the one of its own entry."""
    from controller.agent import p4runtime, plan
    from controller.agent.diff import Diff
    from controller.agent.p4runtime import message_requests, wire_requests
    from controller.tables.state import Batch

    c = _client(*cuts)
    if made:
        rows.entries()
    other = TableEntry("I.t", (("e", 3), ("p", (1 << 8, 24)), ("m", (0, 0)), ("r", (0, 255)), ("o", 1)), "I.a",
                       (("v", 1), ("w", 2), ("z", 0)), priority=2)
    d = Diff(insert=Batch(entries=[other]), modify=Batch(entries=rows))
    assert len(rows) >= p4runtime.ROWS_ENCODED_MIN or c._rows_encoded(d) is None   # (few: object by object)
    with unittest.mock.patch.object(p4runtime, "ROWS_ENCODED_MIN", 1):
        encoded = c._rows_encoded(d)
    if not len(rows):
        assert encoded is None
        return
    assert len(encoded) == len(rows) and all(encoded[id(e)] == INFO.entity_bytes(e) for e in rows)
    for stage in plan.stages(d):
        assert list(wire_requests(c, stage, encoded)) == list(message_requests(c, stage))


def test_columns_the_encoder_refuses_are_written_object_by_object_and_named():
    """Columns holding a value that does not fit are not encoded as columns: the write
    encodes each object and its error names the entry."""
    from controller.agent import p4runtime, plan
    from controller.agent.diff import Diff
    from controller.agent.p4runtime import wire_requests
    from controller.tables.state import Batch

    c = _client(1024, 2 << 20)
    m = p4runtime.ROWS_ENCODED_MIN
    rows = EntryRows("I.ex", "I.a", ("g", "s", "d"), np.array([[0, 1, 2]] * (m - 1) + [[1, 1, 3]]), ("v", "w", "z"),
                     np.array([[1, 2, 0]] * (m - 1) + [[256, 2, 0]]))
    d = Diff(modify=Batch(entries=rows))
    assert c._rows_encoded(d) is None
    with pytest.raises(P4RuntimeError, match=r"I\.ex \[g=1 s=1 d=3\].*does not fit 8 bits"):
        for stage in plan.stages(d):
            list(wire_requests(c, stage, c._rows_encoded(d)))


@settings(max_examples=100, deadline=None)
@given(st.lists(objects, max_size=20))
def test_a_read_by_key_is_the_request_protobuf_builds(objs):
    """The bytes of a read by key (:func:`p4wire.read_request` of the objects' key-only
    entities) parse as the ReadRequest protobuf's messages fill, and serialize back to them."""
    want = p4r.ReadRequest()
    for o in objs:
        INFO.fill_entity(want.entities.add(), o, key_only=True)
    got = p4wire.read_request([INFO.entity_bytes(o, True) for o in objs])
    assert got == want.SerializeToString()
    assert p4r.ReadRequest.FromString(got) == want
