"""One simulated switch's P4Runtime state: its pipeline, table entries, action-profile
members and groups, with the write semantics of bmv2's P4Runtime server (PI), as
``bmv2_tests/test_simfabric_semantics.py`` checks them on the same sequence of calls
against a real ``simple_switch_grpc``.

What a write does (per update, ``CONTINUE_ON_ERROR``: bmv2 implements no other atomicity,
so an update that fails leaves the others of its request applied):

- table entry: INSERT of an existing match -> ALREADY_EXISTS, MODIFY/DELETE of an absent
  one -> NOT_FOUND; a default entry is only MODIFYed (INSERT/DELETE -> INVALID_ARGUMENT);
  an unknown table, a match field the table does not have, a missing exact field, an
  action the table does not name, a range/ternary entry without priority, a group or
  member the entry names that does not exist -> INVALID_ARGUMENT;
- member: INSERT of an existing id -> ALREADY_EXISTS, MODIFY/DELETE of an absent one ->
  NOT_FOUND, DELETE of a member a group holds -> UNKNOWN ("Error when deleting member on
  target");
- group: INSERT of an existing id -> ALREADY_EXISTS; a member that does not exist ->
  NOT_FOUND -- on INSERT the group stays, empty (bmv2 creates the group, then checks its
  members), on MODIFY nothing changes; MODIFY of ``max_size`` -> INVALID_ARGUMENT; DELETE
  of a group an entry uses -> UNKNOWN; an entry put on an empty group -> UNKNOWN.

The state is kept as the bytes the client wrote, indexed by the identity P4Runtime reads
by: a table entry by (table, priority, match fields), a member or group by (profile, id).
That keeps a write to a few dictionary operations per update, so that a benchmark
measures the controller, not the simulated switches (docs/fabric.md).

A table entry is kept as two byte strings, not a parsed message: its key (the priority
and the match fields as written, in field-id order) and its value (the rest of the
``TableEntry``: action, priority, metadata, as written). A read puts the entry back
together: the table id, the match fields (in field-id order, as bmv2 answers them) and
the value -- the entity written, field for field. Both strings are interned in one
table per process (:class:`_Interned`): the ToRs of one fabric write the same matches
and the same few actions, so a thousand devices holding one table keep one copy of each
string and a device pays about a dictionary slot per entry (36 B beside another device
holding the same entries, 100 B alone; a frame and a tuple per entry cost ~370 B:
``tests/test_simfabric_device.py`` counts the bytes).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from finsy.proto import p4i, p4r, rpc_code

from controller.simfabric import wire

OK = rpc_code.OK
UNKNOWN = rpc_code.UNKNOWN
INVALID_ARGUMENT = rpc_code.INVALID_ARGUMENT
NOT_FOUND = rpc_code.NOT_FOUND
ALREADY_EXISTS = rpc_code.ALREADY_EXISTS

INSERT, MODIFY, DELETE = p4r.Update.INSERT, p4r.Update.MODIFY, p4r.Update.DELETE
_EXACT = p4i.MatchField.EXACT
_NEEDS_PRIORITY = {p4i.MatchField.TERNARY, p4i.MatchField.RANGE, p4i.MatchField.OPTIONAL}

Result = tuple[int, str]          # (google.rpc.Code, message): one per update of a Write
_OK: Result = (OK, "")
_ABSENT: Result = (NOT_FOUND, "Cannot find match entry")
_EXISTS: Result = (ALREADY_EXISTS, "Match entry exists, use MODIFY if you wish to change action")
_PRIO0 = bytes(4)


def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def frame(entity: bytes) -> bytes:
    """``entity`` (a serialized ``p4.v1.Entity``) as one element of ReadResponse.entities
    (field 1, length-delimited): a read answers the stored frames concatenated."""
    return b"\x0a" + _varint(len(entity)) + entity


def _entry_frame(table_id: int, key: bytes, value: bytes) -> bytes:
    """The framed entity of a table entry kept as (``key``, ``value``) (:meth:`Device._entry`):
    ``TableEntry`` = table_id (field 1), the match fields (field 2, ``key`` after its 4
    priority bytes), the value; in ``Entity.table_entry`` (field 2)."""
    te = b"\x08" + _varint(table_id) + key[4:] + value
    return frame(b"\x12" + _varint(len(te)) + te)


#: the varints of 0 .. 2^14 - 1 (the lengths of an entity and its table entry)
_V = [_varint(n) for n in range(1 << 14)]


def _entry_frames(table_id: int, items) -> list[bytes]:
    """``[_entry_frame(table_id, k, v) for k, v in items]``, the varints of the lengths
    looked up (a whole table's read answers every entry it holds)."""
    head = b"\x08" + _varint(table_id)
    h = len(head) - 4                     # (the key's 4 priority bytes are not written)
    V, out = _V, []
    for k, v in items:
        n = h + len(k) + len(v)
        if n >= 16000:                    # (an entity this long: its lengths in full)
            out.append(_entry_frame(table_id, k, v))
            continue
        e = V[n]
        out.append(b"".join((b"\x0a", V[n + len(e) + 1], b"\x12", e, head, k[4:], v)))
    return out


class _Interned:
    """One copy of each byte string the devices of this process keep (entry keys and
    values): ``get(b)`` is an equal string already kept, or ``b``. Bounded: past ``limit``
    strings the table starts again (what the devices hold stays theirs; later writes share
    the new table's copies), so a workload of all-distinct strings costs at most ``limit``
    extra references."""

    def __init__(self, limit: int = 1 << 20):
        self.limit = limit
        self.strings: dict[bytes, bytes] = {}

    def get(self, b: bytes) -> bytes:
        s = self.strings
        have = s.get(b)
        if have is not None:
            return have
        if len(s) >= self.limit:
            s.clear()
        s[b] = b
        return b

    def many(self, bs: list[bytes]) -> list[bytes]:
        """``[get(b) for b in bs]``, in one call of the table's ``setdefault`` per string
        (a bulk insert's keys and values); the table starts again first where they could
        take it past ``limit``."""
        s = self.strings
        if len(s) + len(bs) > self.limit:
            s.clear()
        return list(map(s.setdefault, bs, bs))


#: the interned strings of every device of this process
INTERNED = _Interned()


@dataclass
class _Table:
    id: int
    name: str
    fields: dict[int, int]                 # field id -> match type
    exact: frozenset[int]                  # exact fields: every entry names them
    needs_priority: bool
    actions: frozenset[int]
    profile: int | None                    # action profile / selector id
    default: bytes                         # the framed default entry of a fresh pipeline


@dataclass
class Pipeline:
    """A forwarding pipeline config as the simulated switch uses it: the P4Info indexed
    (tables, actions, profiles, counters) and each table's initial default entry taken from
    the bmv2 JSON (what bmv2 answers for a default entry nobody modified). Shared by every
    device that loads the same config (:func:`pipeline`)."""

    config: p4r.ForwardingPipelineConfig
    tables: dict[int, _Table]
    profiles: dict[int, int]               # profile id -> max group size (0: unbounded)
    counters: dict[int, int]               # counter id -> size
    device_config: bytes = b""             # config.p4_device_config, kept to compare loads with
    specs: wire.TableSpecs | None = None   # the tables as the wire path checks entries against them


#: the pipelines loaded in this process, by (digest of the P4Info, length of the device config)
_PIPELINES: dict[tuple[bytes, int], list[Pipeline]] = {}


class PipelineError(ValueError):
    pass


def pipeline(config: p4r.ForwardingPipelineConfig) -> Pipeline:
    """The :class:`Pipeline` of ``config`` (one object per distinct P4Info + device config:
    a thousand devices loading one program share it). Raises :class:`PipelineError` when the
    device config is not a bmv2 JSON of that P4Info.

    The device config is compared byte for byte with the pipelines of the same P4Info and
    length, not hashed: a (1024, 32) ToR's bmv2 JSON is 23 MB, and a digest of it per load
    cost more CPU than the comparison (a memcmp) by an order of magnitude."""
    blob = config.p4_device_config
    key = (hashlib.sha256(config.p4info.SerializeToString()).digest(), len(blob))
    same = _PIPELINES.setdefault(key, [])
    for p in same:
        if p.device_config == blob:
            return p
    p = _index(config, blob)
    same.append(p)
    return p


def _canonical(value: int, bits: int) -> bytes:
    return value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big") if bits else b"\x00"


def _index(config: p4r.ForwardingPipelineConfig, blob: bytes) -> Pipeline:
    info = config.p4info
    try:
        js = json.loads(blob or b"{}")
    except (ValueError, UnicodeDecodeError) as e:
        raise PipelineError(f"the device config is not a bmv2 JSON: {e}") from None
    if not isinstance(js, dict):
        raise PipelineError("the device config is not a bmv2 JSON object")
    actions_by_name = {a.preamble.name: a for a in info.actions}
    json_actions = {a.get("id"): a for a in js.get("actions", [])}
    json_tables = {t.get("name"): t for p in js.get("pipelines", []) for t in p.get("tables", [])}
    tables = {}
    for t in info.tables:
        fields = {f.id: f.match_type for f in t.match_fields}
        default = p4r.Entity()
        default.table_entry.table_id = t.preamble.id
        default.table_entry.is_default_action = True
        de = (json_tables.get(t.preamble.name) or {}).get("default_entry")
        if de is not None:
            ja = json_actions.get(de.get("action_id"), {})
            pa = actions_by_name.get(ja.get("name"))
            if pa is not None:
                act = default.table_entry.action.action
                act.action_id = pa.preamble.id
                for prm, v in zip(pa.params, de.get("action_data", [])):
                    act.params.add(param_id=prm.id, value=_canonical(int(v, 16), prm.bitwidth))
        tables[t.preamble.id] = _Table(
            t.preamble.id, t.preamble.name, fields,
            frozenset(i for i, mt in fields.items() if mt == _EXACT),
            any(mt in _NEEDS_PRIORITY for mt in fields.values()),
            frozenset(a.id for a in t.action_refs), t.implementation_id or None,
            frame(default.SerializeToString()))
    profiles = {p.preamble.id: p.max_group_size for p in info.action_profiles}
    counters = {c.preamble.id: c.size for c in info.counters}
    return Pipeline(config, tables, profiles, counters, blob, wire.table_specs(tables))


def _key(priority: int, parts: list[bytes]) -> bytes:
    """A table entry's identity: its priority (4 bytes) and its match fields as they stand
    in a ``TableEntry`` (field 2, length-delimited), in field-id order whatever order the
    client sent them in (one FieldMatch per field: sorting the serialized fields orders
    them by field id, which the tag and the field id lead)."""
    parts = sorted(parts)
    return priority.to_bytes(4, "big") + b"".join(b"\x12" + _varint(len(m)) + m for m in parts)


def _wire_key(priority: int, match: bytes) -> bytes:
    """:func:`_key` of an entry taken from its bytes: its priority and its match fields as
    written (in field-id order: ``wire.scan`` marks no other fast)."""
    return (_PRIO0 if priority == 0 else priority.to_bytes(4, "big")) + match


def _value(te, key: bytes) -> bytes:
    """What a ``TableEntry`` holds beyond its table id and match fields, as written: the
    serialized entry after them (protobuf writes fields in field-number order: table_id 1,
    match 2, then action, priority, metadata ...); when the client's match fields were not
    in field-id order, the entry re-serialized without them."""
    raw = te.SerializeToString()
    head = b"\x08" + _varint(te.table_id) + key[4:]
    if raw.startswith(head):
        return raw[len(head):]
    rest = p4r.TableEntry()
    rest.CopyFrom(te)
    rest.table_id = 0
    del rest.match[:]
    return rest.SerializeToString()


@dataclass
class Device:
    """One switch's state (see module docstring). Not thread-safe: the server runs every
    call of every device on one event loop."""

    device_id: int
    pipeline: Pipeline | None = None
    entries: dict[int, dict[bytes, bytes]] = field(default_factory=dict)   # table -> key -> value (interned)
    entry_groups: dict[tuple[int, bytes], int] = field(default_factory=dict)   # (table, key) -> group it uses
    defaults: dict[int, bytes] = field(default_factory=dict)          # table -> framed default entry, once modified
    members: dict[tuple[int, int], bytes] = field(default_factory=dict)
    groups: dict[tuple[int, int], tuple[bytes, tuple[int, ...], int]] = field(default_factory=dict)
    member_refs: dict[tuple[int, int], int] = field(default_factory=dict)   # groups holding a member
    group_refs: dict[tuple[int, int], int] = field(default_factory=dict)    # entries using a group
    packet_outs: int = 0
    writes: int = 0                        # updates applied

    # ---- pipeline ------------------------------------------------------------------------------
    def set_pipeline(self, p: Pipeline) -> None:
        """Load ``p``: every entry, member and group goes (as on bmv2)."""
        self.pipeline = p
        self.entries = {t: {} for t in p.tables}
        self.entry_groups = {}
        self.defaults, self.members, self.groups = {}, {}, {}
        self.member_refs, self.group_refs = {}, {}

    def objects(self) -> int:
        """Entries, members and groups held (default entries not counted)."""
        return sum(map(len, self.entries.values())) + len(self.members) + len(self.groups)

    # ---- writes ----------------------------------------------------------------------------------
    def write(self, updates) -> list[Result]:
        """Apply ``updates`` (``p4.v1.Update`` messages) in order, each on its own; one
        (code, message) per update."""
        out = []
        for u in updates:
            ent = u.entity
            kind = ent.WhichOneof("entity")
            if kind == "table_entry":
                r = self._entry(u.type, ent.table_entry, ent)
            elif kind == "action_profile_member":
                r = self._member(u.type, ent.action_profile_member, ent)
            elif kind == "action_profile_group":
                r = self._group(u.type, ent.action_profile_group, ent)
            else:
                r = (rpc_code.UNIMPLEMENTED, f"entity {kind} is not simulated")
            if r[0] == OK:
                self.writes += 1
            out.append(r)
        return out

    def write_wire(self, raw: bytes, scanned) -> list[Result]:
        """Apply the updates of the WriteRequest ``raw`` in order, as :meth:`write` does:
        ``scanned`` is its :class:`~controller.simfabric.wire.Scan`, marked here against this
        device's pipeline. An update marked fast (a table entry, valid, written in field
        order, of a direct table or naming a selector group; an action profile member or
        group written in field order) is applied from its slices of ``raw`` -- an entry's
        key its priority and match fields as written, its value the rest of its
        ``TableEntry``; a member's or group's ``Entity`` as written, a group's member ids as
        scanned -- with no message made; every other one is parsed and applied by
        :meth:`write`."""
        rows = scanned.mark(self.pipeline.specs)
        mids = scanned.members.tolist()
        done = self._insert_wire(raw, rows)
        if done is not None:
            return done
        out = []
        entries = self.entries
        intern = INTERNED.get
        ok = 0
        for us, ue, op, _, tid, ms, me, ve, prio, _, _, fast, _, es, ee, mid, gid, size, ma, mb in rows.tolist():
            if fast == wire.MEMBER or fast == wire.INDIRECT or fast == wire.GROUP_FAST:
                if fast == wire.MEMBER:
                    r = self._member_wire(op, tid, mid, raw[es:ee])
                elif fast == wire.INDIRECT:
                    r = self._indirect_wire(op, tid, _wire_key(prio, raw[ms:me]), raw, me, ve, gid)
                else:
                    r = self._group_wire(op, tid, mid, tuple(mids[ma:mb]), size, raw[es:ee])
                ok += r[0] == OK
                out.append(r)
                continue
            if fast != wire.DIRECT:         # (parsed: write counts what it applies)
                out += self.write([p4r.Update.FromString(raw[us:ue])])
                continue
            table = entries[tid]
            key = _wire_key(prio, raw[ms:me])
            have = table.get(key)
            if op == DELETE:
                if have is None:
                    out.append(_ABSENT)
                    continue
                del table[key]
            elif have is None:
                if op == MODIFY:
                    out.append(_ABSENT)
                    continue
                key = intern(key)
                table[key] = intern(raw[me:ve])
            elif op == INSERT:
                out.append(_EXISTS)
                continue
            else:
                table[key] = intern(raw[me:ve])
            ok += 1
            out.append(_OK)
        self.writes += ok
        return out

    def _indirect_wire(self, op: int, tid: int, key: bytes, raw: bytes, me: int, ve: int, gid: int) -> Result:
        """:meth:`_entry` of an entry of a table with an action profile taken from its bytes
        (``wire.INDIRECT``: valid, in field order, naming selector group ``gid``, or a DELETE):
        ``key`` its priority and match fields, ``raw[me:ve]`` the rest as written."""
        t = self.pipeline.tables[tid]
        table = self.entries[tid]
        have = table.get(key)
        if op == DELETE:
            if have is None:
                return _ABSENT
            del table[key]
            self._unref_group(t, self.entry_groups.pop((tid, key), 0))
            return _OK
        if op == INSERT and have is not None:
            return _EXISTS
        if op == MODIFY and have is None:
            return _ABSENT
        refused = self._group_refused(t, gid, op)
        if refused is not None:
            return refused
        return self._stored(t, tid, key, raw[me:ve], have, gid)

    def _member_wire(self, op: int, prof: int, mid: int, entity: bytes) -> Result:
        """:meth:`_member` of a member taken from its bytes (``wire.MEMBER``: its fields in
        order): ``entity`` the ``Entity`` as written, what a read answers."""
        if prof not in self.pipeline.profiles:
            return INVALID_ARGUMENT, "Invalid P4 id"
        k = (prof, mid)
        have = k in self.members
        if op == INSERT and have:
            return ALREADY_EXISTS, f"Duplicate member id: {mid}"
        if op != INSERT and not have:
            return NOT_FOUND, f"Member id does not exist: {mid}"
        if op == DELETE:
            if self.member_refs.get(k):
                return UNKNOWN, "Error when deleting member on target"
            del self.members[k]
            return _OK
        self.members[k] = frame(entity)
        return _OK

    def _insert_wire(self, raw: bytes, rows) -> list[Result] | None:
        """:meth:`write_wire` of a request of INSERTs only, every one taken from its bytes,
        into one table, with no priority, no key twice and none the table holds (a
        generation written into an empty slot: what a daemon's first install sends), as
        one update of the table's dict: every answer OK, as the loop's. None where the
        request is not such (the loop answers it, update by update)."""
        n = len(rows)
        if not n:
            return None
        tid = int(rows[0, wire.TABLE])
        if not ((rows[:, wire.FAST] == wire.DIRECT).all() and (rows[:, wire.OP] == INSERT).all()
                and (rows[:, wire.PRIORITY] == 0).all() and (rows[:, wire.TABLE] == tid).all()):
            return None
        table = self.entries[tid]
        ms, me, ve = rows[:, wire.M_START].tolist(), rows[:, wire.M_END].tolist(), rows[:, wire.V_END].tolist()
        keys = [_PRIO0 + raw[a:b] for a, b in zip(ms, me)]
        if len(set(keys)) != n or not table.keys().isdisjoint(keys):
            return None
        many = INTERNED.many
        table.update(zip(many(keys), many([raw[b:c] for b, c in zip(me, ve)])))
        self.writes += n
        return [_OK] * n

    def _entry(self, op: int, te, ent) -> Result:
        t = self.pipeline.tables.get(te.table_id)
        if t is None:
            return INVALID_ARGUMENT, "Invalid P4 id"
        act = te.action
        which = act.WhichOneof("type")
        if te.is_default_action:
            if op != MODIFY:
                return INVALID_ARGUMENT, f"Cannot use {p4r.Update.Type.Name(op)} for default entry"
            if which == "action" and act.action.action_id not in t.actions:
                return INVALID_ARGUMENT, "Invalid action for table"
            self.defaults[te.table_id] = frame(ent.SerializeToString())
            return _OK
        fids = []
        parts = []
        for m in te.match:
            fid = m.field_id
            if fid not in t.fields:
                return INVALID_ARGUMENT, f"Invalid match field id {fid} for table {t.name}"
            fids.append(fid)
            parts.append(m.SerializeToString())
        if not t.exact.issubset(fids):
            return INVALID_ARGUMENT, "Missing exact match field"
        if t.needs_priority and te.priority == 0 and op != DELETE:
            return INVALID_ARGUMENT, "Zero priority for ternary match"
        key = _key(te.priority, parts)
        table = self.entries[te.table_id]
        have = table.get(key)
        if op == DELETE:
            if have is None:
                return _ABSENT
            del table[key]
            self._unref_group(t, self.entry_groups.pop((te.table_id, key), 0))
            return _OK
        if op == INSERT and have is not None:
            return _EXISTS
        if op == MODIFY and have is None:
            return _ABSENT
        gid = 0
        if t.profile is not None:
            if which == "action_profile_group_id":
                gid = act.action_profile_group_id
                refused = self._group_refused(t, gid, op)
                if refused is not None:
                    return refused
            elif which == "action_profile_member_id":
                if (t.profile, act.action_profile_member_id) not in self.members:
                    return INVALID_ARGUMENT, "Invalid member / group id"
            else:
                return INVALID_ARGUMENT, "Expected member or group id for indirect table"
        elif which != "action" or act.action.action_id not in t.actions:
            return INVALID_ARGUMENT, "Invalid action for table"
        return self._stored(t, te.table_id, key, _value(te, key), have, gid)

    def _stored(self, t: _Table, tid: int, key: bytes, value: bytes, have: bytes | None, gid: int) -> Result:
        """An INSERT or MODIFY of an entry of ``t`` (table ``tid``), checked: ``key`` kept
        with ``value`` (both interned), the selector group references moved from the group
        the entry used (``have``: its value before, None if new) to ``gid`` (0: none)."""
        intern = INTERNED.get
        key = intern(key)
        self.entries[tid][key] = intern(value)
        old = self.entry_groups.pop((tid, key), 0) if have is not None and t.profile is not None else 0
        if gid:
            self.entry_groups[(tid, key)] = gid
            k = (t.profile, gid)
            self.group_refs[k] = self.group_refs.get(k, 0) + 1
        self._unref_group(t, old)
        return _OK

    def _group_refused(self, t: _Table, gid: int, op: int) -> Result | None:
        """Why an INSERT or MODIFY of an entry of ``t`` naming selector group ``gid`` is
        refused: no such group, or an empty one (bmv2 refuses an entry on it); None: it is not."""
        grp = self.groups.get((t.profile, gid))
        if grp is None:
            return INVALID_ARGUMENT, "Invalid member / group id"
        if not grp[1]:
            return UNKNOWN, ("Error when adding match entry to target" if op == INSERT
                             else "Error when modifying match entry in target")
        return None

    def _unref_group(self, t: _Table, gid: int) -> None:
        if gid:
            k = (t.profile, gid)
            n = self.group_refs[k] - 1
            if n:
                self.group_refs[k] = n
            else:
                del self.group_refs[k]

    def _member(self, op: int, m, ent) -> Result:
        return self._member_wire(op, m.action_profile_id, m.member_id, ent.SerializeToString())

    def _group(self, op: int, g, ent) -> Result:
        return self._group_wire(op, g.action_profile_id, g.group_id, tuple(x.member_id for x in g.members),
                                g.max_size, ent.SerializeToString())

    def _group_wire(self, op: int, prof: int, gid: int, mids: tuple[int, ...], max_size: int,
                    entity: bytes) -> Result:
        """An update of group ``gid`` of profile ``prof`` holding members ``mids``:
        ``entity`` its ``Entity`` as written (``wire.GROUP_FAST``) or as protobuf writes the
        parsed one, what a read answers."""
        if prof not in self.pipeline.profiles:
            return INVALID_ARGUMENT, "Invalid P4 id"
        k = (prof, gid)
        have = self.groups.get(k)
        if op == INSERT and have is not None:
            return ALREADY_EXISTS, f"Duplicate group id: {gid}"
        if op != INSERT and have is None:
            return NOT_FOUND, f"Group id does not exist: {gid}"
        if op == DELETE:
            if self.group_refs.get(k):
                return UNKNOWN, "Error when deleting group on target"
            del self.groups[k]
            self._refs(prof, have[1], -1)
            return _OK
        members = self.members
        if op == MODIFY:
            if max_size != have[2]:
                return INVALID_ARGUMENT, "Cannot change group max_size after group creation"
            for mid in mids:
                if (prof, mid) not in members:
                    return NOT_FOUND, f"Member id does not exist: {mid}"
            self._refs(prof, have[1], -1)
            self._refs(prof, mids, +1)
            self.groups[k] = (frame(entity), mids, max_size)
            return _OK
        # INSERT: the group is created, then its members checked: one that does not exist
        # leaves the group there, empty (as bmv2 does)
        for mid in mids:
            if (prof, mid) not in members:
                kept = p4r.Entity.FromString(entity)
                del kept.action_profile_group.members[:]
                self.groups[k] = (frame(kept.SerializeToString()), (), max_size)
                return NOT_FOUND, f"Member id does not exist: {mid}"
        self.groups[k] = (frame(entity), mids, max_size)
        self._refs(prof, mids, +1)
        return _OK

    def _refs(self, prof: int, mids, step: int) -> None:
        refs = self.member_refs
        for mid in set(mids):
            k = (prof, mid)
            n = refs.get(k, 0) + step
            if n:
                refs[k] = n
            else:
                refs.pop(k, None)

    # ---- reads ---------------------------------------------------------------------------------
    def read(self, entities) -> list[bytes]:
        """The framed entities (:func:`frame`) that ``entities`` (a ReadRequest's) name: a
        table entry with a match is read by key (absent: nothing), one without a match is
        every entry of its table (table id 0: of every table), with ``is_default_action``
        the table's default entry; a member/group by profile and id (0: every one);
        counters: every cell, counting nothing. Raises ``LookupError`` for an unknown id."""
        p = self.pipeline
        out: list[bytes] = []
        for ent in entities:
            kind = ent.WhichOneof("entity")
            if kind == "table_entry":
                te = ent.table_entry
                if te.table_id and te.table_id not in p.tables:
                    raise LookupError(f"Invalid table id {te.table_id}")
                if te.is_default_action:
                    out.append(self.defaults.get(te.table_id) or p.tables[te.table_id].default)
                elif len(te.match):
                    key = _key(te.priority, [m.SerializeToString() for m in te.match])
                    have = self.entries[te.table_id].get(key)
                    if have is not None:
                        out.append(_entry_frame(te.table_id, key, have))
                else:
                    for tid in ([te.table_id] if te.table_id else list(p.tables)):
                        out += _entry_frames(tid, self.entries[tid].items())
            elif kind == "action_profile_member":
                m = ent.action_profile_member
                out.extend(v for (prof, mid), v in self._pick(self.members, m.action_profile_id, m.member_id))
            elif kind == "action_profile_group":
                g = ent.action_profile_group
                out.extend(v[0] for _, v in self._pick(self.groups, g.action_profile_id, g.group_id))
            elif kind == "counter_entry":
                out.extend(self._counters(ent.counter_entry))
            else:
                raise LookupError(f"reading {kind} is not simulated")
        return out

    def _pick(self, store: dict, prof: int, oid: int):
        if prof and prof not in self.pipeline.profiles:
            raise LookupError(f"Invalid action profile id {prof}")
        if prof and oid:
            v = store.get((prof, oid))
            return [] if v is None else [((prof, oid), v)]
        return [(k, v) for k, v in store.items() if (not prof or k[0] == prof)]

    def _counters(self, ce) -> list[bytes]:
        ids = [ce.counter_id] if ce.counter_id else list(self.pipeline.counters)
        out = []
        for cid in ids:
            size = self.pipeline.counters.get(cid)
            if size is None:
                raise LookupError(f"Invalid counter id {cid}")
            cells = [ce.index.index] if ce.HasField("index") else range(size)
            for i in cells:
                e = p4r.Entity()
                e.counter_entry.counter_id = cid
                e.counter_entry.index.index = i
                e.counter_entry.data.SetInParent()
                out.append(frame(e.SerializeToString()))
        return out
