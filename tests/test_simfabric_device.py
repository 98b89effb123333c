"""One simulated device (controller/simfabric/device.py) in this process, no server: what it
keeps per table entry, counted in bytes (pympler's ``asizeof``), and that a read gives back
each entry as written whatever the order of its match fields. The server and bmv2's
semantics through the real client: tests/test_simfabric.py,
bmv2_tests/test_simfabric_semantics.py."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("finsy.proto", reason="needs the agent extra")
asizeof = pytest.importorskip("pympler.asizeof", reason="needs pympler (the test extra)").asizeof

from finsy.proto import p4r, rpc_code  # noqa: E402

from controller.agent.p4info import P4Info  # noqa: E402
from controller.simfabric.device import Device, _Interned, frame, pipeline  # noqa: E402
from controller.tables.state import Group, Member, TableEntry  # noqa: E402

from agent_fake import p4info_msg, sel_entry  # noqa: E402

INFO = P4Info(p4info_msg())
CONFIG = p4r.ForwardingPipelineConfig(p4info=p4info_msg(), p4_device_config=json.dumps({}).encode())
N = 4096
#: bytes a device may keep per table entry: alone (its own key and value strings, the
#: dictionary slot), and beside a device holding the same entries (the slot only). A frame
#: per entry in a tuple with its group, as the fabric kept them, is ~300 B alone and beside.
ALONE_MAX, BESIDE_MAX = 200, 64


def update(obj, op=p4r.Update.INSERT) -> p4r.Update:
    return p4r.Update(type=op, entity=INFO.entity(obj))


def route(i: int) -> TableEntry:
    """A distinct match per ``i`` (N of them), one of 8 actions: as a ToR's route entries,
    many matches sharing a few next hops."""
    return TableEntry("I.t", (("k", i & 0xFF), ("p", (0x0A000000 + (i << 8), 24))), "I.a", (("v", i % 8),))


def loaded(device_id: int) -> Device:
    d = Device(device_id)
    d.set_pipeline(pipeline(CONFIG))
    return d


def kept(*devices: Device) -> int:
    """The bytes the devices' table entries hold (a string two devices share counted once)."""
    return asizeof(*[(d.entries, d.entry_groups) for d in devices])


def test_a_device_keeps_a_bounded_number_of_bytes_per_entry():
    a, b = loaded(1), loaded(2)
    empty = kept(a)
    ups = [update(route(i)) for i in range(N)]
    assert a.write(ups) == [(rpc_code.OK, "")] * N
    alone = (kept(a) - empty) / N
    assert alone <= ALONE_MAX, f"{alone:.0f} B per entry"
    assert b.write(ups) == [(rpc_code.OK, "")] * N
    beside = (kept(a, b) - kept(a)) / N
    assert beside <= BESIDE_MAX, f"{beside:.0f} B per entry on a second device of the same entries"
    # what is kept is still what was written: every entry reads back, by key too
    got = a.read([p4r.Entity(table_entry=p4r.TableEntry(table_id=INFO.entity(route(0)).table_entry.table_id))])
    assert sorted(got) == sorted(frame(u.entity.SerializeToString()) for u in ups)
    assert b.read([ups[77].entity]) == [frame(ups[77].entity.SerializeToString())]


def test_a_read_gives_back_the_entry_written_whatever_the_order_of_its_match_fields():
    d = loaded(3)
    ent = INFO.entity(route(5))
    te = ent.table_entry
    te.metadata = b"cookie"
    swapped = p4r.Entity()
    swapped.CopyFrom(ent)
    del swapped.table_entry.match[:]
    swapped.table_entry.match.extend(reversed(te.match))      # field 2 before field 1
    assert d.write([p4r.Update(type=p4r.Update.INSERT, entity=swapped)]) == [(rpc_code.OK, "")]
    # the same entry (the same key) whichever order names it; read back field for field
    assert d.write([p4r.Update(type=p4r.Update.INSERT, entity=ent)])[0][0] == rpc_code.ALREADY_EXISTS
    for ask in (ent, swapped, p4r.Entity(table_entry=p4r.TableEntry(table_id=te.table_id))):
        (got,) = d.read([ask])
        assert got == frame(ent.SerializeToString())            # match fields in field-id order
    # a modify keeps the new action, a delete by the other order removes it
    mod = INFO.entity(TableEntry("I.t", route(5).match, "I.a", (("v", 99),)))
    assert d.write([p4r.Update(type=p4r.Update.MODIFY, entity=mod)]) == [(rpc_code.OK, "")]
    assert d.read([ent]) == [frame(mod.SerializeToString())]
    assert d.write([p4r.Update(type=p4r.Update.DELETE, entity=swapped)]) == [(rpc_code.OK, "")]
    assert d.read([ent]) == [] and d.objects() == 0


def test_the_groups_an_entry_uses_follow_its_modify_and_delete():
    d = loaded(4)
    ok = [(rpc_code.OK, "")]
    for m in (Member("I.prof", 1, "I.w", (("x", 1),)), Member("I.prof", 2, "I.w", (("x", 2),))):
        assert d.write([update(m)]) == ok
    for g in (Group("I.prof", 10, (1,)), Group("I.prof", 11, (2,))):
        assert d.write([update(g)]) == ok
    assert d.write([update(sel_entry(7, 10))]) == ok
    assert d.write([update(Group("I.prof", 10, (1,)), p4r.Update.DELETE)])[0][0] == rpc_code.UNKNOWN
    assert d.write([update(sel_entry(7, 11), p4r.Update.MODIFY)]) == ok       # now on group 11
    assert d.write([update(Group("I.prof", 10, (1,)), p4r.Update.DELETE)]) == ok
    assert d.write([update(Group("I.prof", 11, (2,)), p4r.Update.DELETE)])[0][0] == rpc_code.UNKNOWN
    assert d.write([update(sel_entry(7, 11), p4r.Update.DELETE)]) == ok
    assert d.write([update(Group("I.prof", 11, (2,)), p4r.Update.DELETE)]) == ok
    assert d.entry_groups == {} and d.group_refs == {}


def test_the_interned_strings_are_bounded():
    t = _Interned(limit=3)
    first = bytes([1, 2])
    assert t.get(first) is first and t.get(bytes([1, 2])) is first
    for i in range(3, 6):
        t.get(bytes([i]))
    assert len(t.strings) <= 3
    again = bytes([1, 2])
    assert t.get(again) == first           # an equal string, whichever copy


def _config_with_default(v: int) -> p4r.ForwardingPipelineConfig:
    """A device config whose table ``I.t`` starts with ``I.a(v)`` as its default entry: one
    hex digit, so configs of different ``v`` have the same length."""
    js = {"actions": [{"id": 7, "name": "I.a"}],
          "pipelines": [{"tables": [{"name": "I.t", "default_entry": {"action_id": 7, "action_data": [f"0x{v:x}"]}}]}]}
    return p4r.ForwardingPipelineConfig(p4info=p4info_msg(), p4_device_config=json.dumps(js).encode())


def test_loads_of_one_program_share_a_pipeline_and_a_config_differing_in_one_byte_gets_its_own():
    one, same, other = _config_with_default(1), _config_with_default(1), _config_with_default(2)
    assert len(one.p4_device_config) == len(other.p4_device_config)
    assert pipeline(one) is pipeline(same)
    assert pipeline(other) is not pipeline(one)
    t = INFO.entity(route(0)).table_entry.table_id
    default = p4r.Entity(table_entry=p4r.TableEntry(table_id=t, is_default_action=True))
    for cfg, v in ((one, 1), (other, 2), (same, 1)):
        d = Device(9)
        d.set_pipeline(pipeline(cfg))
        (got,) = d.read([default])
        ent = p4r.ReadResponse.FromString(got).entities[0]
        assert ent.table_entry.action.action.params[0].value == bytes([v])
