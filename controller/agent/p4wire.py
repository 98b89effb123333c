"""State objects straight to P4Runtime wire bytes: the Updates of a WriteRequest without a
protobuf message per entry.

A (1024, 32) ToR's generation is 33K table entries of up to 21 action parameters; building
a ``p4.v1.Update`` message for each, field by field, then serializing the request was most
of the daemon's CPU per object written (docs/fabric.md "Where the CPU goes per ToR"). This
module writes the same bytes directly: the protobuf wire format (varint tags, length-
delimited submessages; https://protobuf.dev/programming-guides/encoding/) of the
P4Runtime messages uro writes (P4Runtime §9.1 TableEntry, §9.2 action profiles, §12
Write), with the pieces that repeat -- a table's id, a match field's value, an action
parameter's value -- encoded once and joined.

The bytes are the ones protobuf's own serializer gives for the message
:meth:`controller.agent.p4info.P4Info.fill_entity` builds (fields in field-number order,
proto3 scalars at their default omitted, a oneof member always written):
``tests/test_agent_p4wire.py`` compares them byte for byte on random entries, members and
groups of every match kind and on a whole ToR's tables. The field numbers are read from
the protobuf descriptors, not typed in.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from operator import itemgetter

import numpy as np

from controller.agent.backend import BackendError
from controller.tables.state import EntryRows, Group, Member, TableEntry

try:
    from finsy.proto import p4r
except ImportError as e:  # pragma: no cover - depends on the install
    raise ImportError(f"the P4Runtime agent needs the 'agent' extra (pip install -e '.[agent]'): {e}") from e


class WireError(BackendError):
    """An object that does not fit the P4Info (unknown table, key, action, parameter; a
    value wider than its field): nothing of the request it would be in is written."""


def _num(msg, name: str) -> int:
    return msg.DESCRIPTOR.fields_by_name[name].number


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


#: the varints of 0 .. 2^14 - 1 (the lengths of every message uro writes but a request)
_V = [_varint(n) for n in range(1 << 14)]
#: the two bytes of 14 bits of a longer varint (both with the continuation bit)
_V14 = [bytes(((x & 0x7F) | 0x80, (x >> 7) | 0x80)) for x in range(1 << 14)]


def varint(n: int) -> bytes:
    """``n`` (>= 0) as a protobuf varint: 14 bits per table lookup (a route generation's
    ids have bit 31 set: five bytes, three lookups)."""
    if 0 <= n < 16384:
        return _V[n]
    if n < 0:
        raise ValueError(f"a varint of {n}: uro writes no negative scalar")
    if n < 1 << 28:
        return _V14[n & 0x3FFF] + _V[n >> 14]
    if n < 1 << 42:                 # (a route generation's member and group ids: bit 31)
        return _V14[n & 0x3FFF] + _V14[n >> 14 & 0x3FFF] + _V[n >> 28]
    out = b""
    while n >= 16384:
        out += _V14[n & 0x3FFF]
        n >>= 14
    return out + _V[n]


def _len(n: int) -> bytes:
    return _V[n] if n < 16384 else varint(n)


def _tag(number: int, wire: int) -> bytes:
    n = number << 3 | wire
    return _V[n] if n < 16384 else varint(n)


_VARINT, _LEN = 0, 2


def field_varint(number: int, value: int) -> bytes:
    """A scalar field (uint32/uint64/int32 >= 0/enum/bool); 0 is omitted (proto3)."""
    return _tag(number, _VARINT) + varint(value) if value else b""


def field_bytes(number: int, payload: bytes) -> bytes:
    """A length-delimited field (bytes, or a submessage's serialization)."""
    return _tag(number, _LEN) + _len(len(payload)) + payload


def uint_bytes(value: int, bits: int) -> bytes:
    """P4Runtime's canonical bytestring of ``value`` (§8.4: big-endian, no leading zero
    bytes, 0 as one byte); a value that does not fit ``bits`` is refused."""
    if value < 0 or value >= (1 << bits):
        raise WireError(f"value {value} does not fit {bits} bits")
    return value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")


# field numbers (p4/v1/p4runtime.proto), from the descriptors
_WR = {n: _num(p4r.WriteRequest, n) for n in ("device_id", "election_id", "updates")}
_RR = {n: _num(p4r.ReadRequest, n) for n in ("device_id", "entities")}
_U128 = {n: _num(p4r.Uint128, n) for n in ("high", "low")}
_UPD = {n: _num(p4r.Update, n) for n in ("type", "entity")}
_ENT = {n: _num(p4r.Entity, n) for n in ("table_entry", "action_profile_member", "action_profile_group")}
_TE = {n: _num(p4r.TableEntry, n) for n in ("table_id", "match", "action", "priority", "is_default_action")}
_FM = {n: _num(p4r.FieldMatch, n) for n in ("field_id", "exact", "ternary", "lpm", "range", "optional")}
_TA = {n: _num(p4r.TableAction, n) for n in ("action", "action_profile_group_id")}
_ACT = {n: _num(p4r.Action, n) for n in ("action_id", "params")}
_PRM = {n: _num(p4r.Action.Param, n) for n in ("param_id", "value")}
_MEM = {n: _num(p4r.ActionProfileMember, n) for n in ("action_profile_id", "member_id", "action")}
_GRP = {n: _num(p4r.ActionProfileGroup, n) for n in ("action_profile_id", "group_id", "members", "max_size")}
_GM = {n: _num(p4r.ActionProfileGroup.Member, n) for n in ("member_id", "weight")}
#: Update.type by uro's operation name
UPDATE_TYPE = {"insert": p4r.Update.INSERT, "modify": p4r.Update.MODIFY, "delete": p4r.Update.DELETE}
_ENTITY_TAG = {k: _tag(v, _LEN) for k, v in _ENT.items()}
_TABLE_ENTRY_TAG = _ENTITY_TAG["table_entry"]
_UPDATE_HEAD = {op: field_varint(_UPD["type"], t) + _tag(_UPD["entity"], _LEN) for op, t in UPDATE_TYPE.items()}
_UPDATES_TAG = _tag(_WR["updates"], _LEN)
_ENTITIES_TAG = _tag(_RR["entities"], _LEN)
_MATCH_TAG = _tag(_TE["match"], _LEN)
_PARAMS_TAG = _tag(_ACT["params"], _LEN)
_DEFAULT_ACTION = field_varint(_TE["is_default_action"], 1)
_TE_ACTION_TAG = _tag(_TE["action"], _LEN)
_TA_ACTION_TAG = _tag(_TA["action"], _LEN)
# the tags of the fields a member or a group is made of (its encoders put them together
# without a call per field: a (108, 6) UCMP ToR writes ~2K members and ~1.5K groups)
_MEM_ID_TAG = _tag(_MEM["member_id"], _VARINT)
_MEM_ACTION_TAG = _tag(_MEM["action"], _LEN)
_GRP_ID_TAG = _tag(_GRP["group_id"], _VARINT)
_GRP_MEMBERS_TAG = _tag(_GRP["members"], _LEN)
_GRP_MAX_SIZE_TAG = _tag(_GRP["max_size"], _VARINT)
_GM_ID_TAG = _tag(_GM["member_id"], _VARINT)
_GM_WEIGHT_1 = field_varint(_GM["weight"], 1)
_MEMBER_TAG = _ENTITY_TAG["action_profile_member"]
_GROUP_TAG = _ENTITY_TAG["action_profile_group"]
#: memoised pieces are kept up to this many each (most values repeat: slices, ports, ToR ids)
MEMO_MAX = 1 << 16


class WireCodec:
    """The encoder of one P4Info's state objects (built by
    :class:`~controller.agent.p4info.P4Info` from its per-table and per-action indexes)."""

    def __init__(self, tables: dict, actions: dict, profiles: dict[str, tuple[int, int]]):
        """``tables``: full name -> (table id, {key name: (field id, bitwidth, kind)});
        ``actions``: full name -> (action id, {param name: (param id, bitwidth)}, param
        count); ``profiles``: full name -> (profile id, the max_size a group is written with)."""
        # name -> (encoded id, specs, memo of the encoded pieces by the object's own
        # (name, value) pair: no key tuple is made per entry)
        self.tables = {n: (field_varint(_TE["table_id"], tid), keys, {}) for n, (tid, keys) in tables.items()}
        self.actions = {n: (field_varint(_ACT["action_id"], aid), params, count, {})
                        for n, (aid, params, count) in actions.items()}
        self.profiles = {n: (field_varint(_MEM["action_profile_id"], pid), size) for n, (pid, size) in profiles.items()}
        # an action's whole bytes by (name, params): the members of a source route's paths
        # repeat their parameters (one path, many groups), and one lookup of the tuple costs
        # less than one per parameter
        self._whole: dict = {}

    # ---- pieces -----------------------------------------------------------------------------
    def _field_match(self, table: str, kname: str, v, keys, memo: dict) -> bytes:
        """One match field with its tag (b"" for a don't-care, omitted: P4Runtime §9.1.1),
        kept in ``memo`` (the table's) under (kname, v)."""
        spec = keys.get(kname)
        if spec is None:
            raise WireError(f"{table}: no key {kname!r}")
        fid, bits, kind = spec
        if kind == "exact":
            body = field_bytes(_FM["exact"], field_bytes(1, uint_bytes(v, bits)))
        elif kind == "lpm":
            val, plen = v
            if plen == 0:
                if val:
                    raise WireError(f"{table}: key {kname}: a /0 prefix with value {val}")
                body = None
            elif val & ((1 << (bits - plen)) - 1):
                raise WireError(f"{table}: key {kname} has bits set past the /{plen} prefix")
            else:
                body = field_bytes(_FM["lpm"], field_bytes(1, uint_bytes(val, bits)) + field_varint(2, plen))
        elif kind == "range":
            lo, hi = v
            body = None if lo == 0 and hi == (1 << bits) - 1 else \
                field_bytes(_FM["range"], field_bytes(1, uint_bytes(lo, bits)) + field_bytes(2, uint_bytes(hi, bits)))
        elif kind == "ternary":
            val, mask = v
            body = None if mask == 0 else \
                field_bytes(_FM["ternary"], field_bytes(1, uint_bytes(val & mask, bits)) +
                            field_bytes(2, uint_bytes(mask, bits)))
        else:
            body = field_bytes(_FM["optional"], field_bytes(1, uint_bytes(v, bits)))
        b = b"" if body is None else _MATCH_TAG + _len(len(body) + len(fb := field_varint(_FM["field_id"], fid))) + fb + body
        if len(memo) < MEMO_MAX:
            memo[(kname, v)] = b
        return b

    def _param(self, name: str, pv, specs: dict, memo: dict) -> bytes:
        """One ``Param`` of action ``name`` with its tag, kept in ``memo`` (the action's)."""
        pname, v = pv
        spec = specs.get(pname)
        if spec is None:
            raise WireError(f"{name}: no parameter {pname!r}")
        body = field_varint(_PRM["param_id"], spec[0]) + field_bytes(_PRM["value"], uint_bytes(v, spec[1]))
        b = _PARAMS_TAG + _len(len(body)) + body
        if len(memo) < MEMO_MAX:
            memo[pv] = b
        return b

    def _action(self, name: str, params) -> bytes:
        """An ``Action`` message's bytes (without its own tag)."""
        a = self.actions.get(name)
        if a is None:
            raise WireError(f"action {name!r} is not in the P4Info")
        head, specs, count, memo = a
        if len(params) == count:
            try:
                return head + b"".join([memo[pv] for pv in params])
            except KeyError:
                pass
        parts = [head]
        for pv in params:
            b = memo.get(pv)
            parts.append(b if b is not None else self._param(name, pv, specs, memo))
        if len(params) != count:
            missing = sorted(set(specs) - {p for p, _ in params})
            raise WireError(f"{name}: missing parameter(s) {missing}")
        return b"".join(parts)

    # ---- objects ------------------------------------------------------------------------------
    def table_entry(self, e: TableEntry, key_only: bool = False) -> bytes:
        """``e`` as a ``TableEntry`` message's bytes (:meth:`P4Info.table_entry`'s message)."""
        t = self.tables.get(e.table)
        if t is None:
            raise WireError(f"table {e.table!r} is not in the P4Info")
        head, keys, memo = t
        if e.is_default:
            parts = [head]
            tail = _DEFAULT_ACTION
        else:
            try:
                parts = [head, *[memo[kv] for kv in e.match]]
            except KeyError:
                parts = [head, *[memo.get(kv) or self._field_match(e.table, kv[0], kv[1], keys, memo) for kv in e.match]]
            tail = field_varint(_TE["priority"], e.priority) if e.priority else b""
        if not key_only:
            if e.group_id is not None:
                ta = _tag(_TA["action_profile_group_id"], _VARINT) + varint(e.group_id)   # a oneof: even 0
                parts.append(_TE_ACTION_TAG + _len(len(ta)) + ta)
            elif e.action is not None:
                act = self._action(e.action, e.params)
                ta = _TA_ACTION_TAG + _len(len(act)) + act
                parts.append(_TE_ACTION_TAG + _len(len(ta)) + ta)
        parts.append(tail)
        return b"".join(parts)

    def rows(self, rows: EntryRows) -> list[bytes]:
        """The entities of ``rows`` (:meth:`entity` of each of its entries, byte for byte),
        encoded from its columns without making an entry: each distinct value of a column
        encoded once as :meth:`entity` encodes it (its checks and errors included), the
        entries put together in compiled code (:func:`controller.agent.wire_kernel.encode_rows`)."""
        from controller.agent import wire_kernel     # (a kernel module: imported where it is called)

        m = len(rows)
        if not m:
            return []
        t = self.tables.get(rows.table)
        if t is None:
            raise WireError(f"table {rows.table!r} is not in the P4Info")
        head = t[0]
        a = self.actions.get(rows.action)
        if a is None:
            raise WireError(f"action {rows.action!r} is not in the P4Info")
        ahead, specs, count, amemo = a
        if len(rows.param_names) != count or len(set(rows.param_names)) != count:
            missing = sorted(set(specs) - set(rows.param_names))
            raise WireError(f"{rows.action}: missing parameter(s) {missing}")
        cols = np.concatenate([rows.keys, rows.params], axis=1).astype(np.int64, copy=False)
        distinct, pieces = _distinct(cols)
        pool: list[bytes] = []
        nk = len(rows.key_names)
        for j, vals in enumerate(distinct):
            if j < nk:
                name = rows.key_names[j]
                pool += [self._piece(rows.table, (name, v)) for v in vals]
            else:
                name = rows.param_names[j - nk]
                for v in vals:
                    b = amemo.get((name, v))
                    pool.append(b if b is not None else self._param(rows.action, (name, v), specs, amemo))
        p_len = np.fromiter(map(len, pool), dtype=np.int64, count=len(pool))
        p_off = np.zeros(len(pool), dtype=np.int64)
        np.cumsum(p_len[:-1], out=p_off[1:])
        arr = lambda b: np.frombuffer(b, dtype=np.uint8)
        buf, starts = wire_kernel.encode_rows(arr(b"".join(pool)), p_off, p_len, pieces, len(rows.key_names),
                                              arr(_TABLE_ENTRY_TAG), arr(head), arr(_TE_ACTION_TAG),
                                              arr(_TA_ACTION_TAG), arr(ahead))
        whole = buf.tobytes()
        b = starts.tolist()
        return [whole[b[i]:b[i + 1]] for i in range(m)]

    def _profile(self, name: str):
        p = self.profiles.get(name)
        if p is None:
            raise WireError(f"action profile {name!r} is not in the P4Info")
        return p

    def _whole_action(self, name: str, params) -> bytes:
        """:meth:`_action`, kept by ``(name, params)`` (up to :data:`MEMO_MAX`)."""
        key = (name, params)
        b = self._whole.get(key)
        if b is None:
            b = self._action(name, params)
            if len(self._whole) < MEMO_MAX:
                self._whole[key] = b
        return b

    def member(self, m: Member, key_only: bool = False) -> bytes:
        p = self._profile(m.profile)
        mid = m.member_id
        out = p[0] + _MEM_ID_TAG + varint(mid) if mid else p[0]       # (proto3: a 0 is omitted)
        if key_only:
            return out
        act = self._whole_action(m.action, m.params)
        return out + _MEM_ACTION_TAG + _len(len(act)) + act

    def group(self, g: Group, key_only: bool = False) -> bytes:
        p = self._profile(g.profile)
        gid = g.group_id
        out = p[0] + _GRP_ID_TAG + varint(gid) if gid else p[0]
        if key_only:
            return out
        ids = g.member_ids
        # each member: its id and weight 1, a message of at most 8 bytes (one length byte)
        members = b"".join([_GRP_MEMBERS_TAG + _V[len(b)] + b for b in
                            [(_GM_ID_TAG + varint(i) if i else b"") + _GM_WEIGHT_1 for i in ids]])
        # the profile's largest group (see P4Info.group: bmv2 refuses a MODIFY that changes it)
        return out + members + _GRP_MAX_SIZE_TAG + varint(max(len(ids), 1, p[1]))

    def entity(self, obj, key_only: bool = False) -> bytes:
        """An ``Entity`` message's bytes holding ``obj``."""
        t = type(obj)
        if t is TableEntry:                  # nearly every object written: no isinstance chain
            body = self.table_entry(obj, key_only)
            return _TABLE_ENTRY_TAG + _len(len(body)) + body
        if t is Member:
            body = self.member(obj, key_only)
            return _MEMBER_TAG + _len(len(body)) + body
        if t is Group:
            body = self.group(obj, key_only)
            return _GROUP_TAG + _len(len(body)) + body
        if isinstance(obj, TableEntry):
            body, tag = self.table_entry(obj, key_only), _ENTITY_TAG["table_entry"]
        elif isinstance(obj, Member):
            body, tag = self.member(obj, key_only), _ENTITY_TAG["action_profile_member"]
        elif isinstance(obj, Group):
            body, tag = self.group(obj, key_only), _ENTITY_TAG["action_profile_group"]
        else:
            raise TypeError(f"not a state object: {obj!r}")
        return tag + _len(len(body)) + body

    def entities_keyed(self, entities: list[bytes], objs, key: str, value: int, new) -> list[bytes]:
        """The entities of ``new`` (a sequence as long as ``objs``, its items asked for only
        where needed), derived from ``entities`` (those of ``objs``, in order), where the
        caller vouches that each object of ``new`` whose counterpart in ``objs`` is a table
        entry of an action (not of a selector group) is that entry with the value of match
        key ``key`` set to ``value`` (:class:`controller.tables.bulk.Regenerated`: a ToR's
        first shadow, its generation 0 in the other slot). Such an entity is its
        counterpart's bytes with that match field patched in place, no object of ``new``
        made -- all of them in one array where the key is an entry's first match field (a
        route entry's generation: docs/p4.md "Route generations") --; the others, and an
        entry whose field is not where and as wide as expected, are ``new``'s object
        encoded (:meth:`entity`; a member's action, the same parameters, taken from its
        counterpart's bytes). The bytes are :meth:`entity`'s, byte for byte
        (``tests/test_agent_p4wire.py``)."""
        n = len(entities)
        sites: dict[str, tuple | None] = {}        # table -> (index of key, its offset, patches) or None
        first: dict[tuple, list[int]] = {}         # (offset, was, now) -> entities whose first field it patches
        slow: list[tuple] = []                     # (k, (index, offset, was, now) to patch one by one, or None)
        for k, o in enumerate(objs):
            where = None
            if type(o) is TableEntry and o.group_id is None and not o.is_default:
                t, m = o.table, o.match
                site = sites.get(t, ())
                if site == ():
                    site = sites[t] = self._key_site(t, m, key)
                if site is not None:
                    i, head, pieces = site
                    if len(m) > i and m[i][0] == key:
                        patch = pieces.get(m[i])
                        if patch is None:
                            patch = pieces[m[i]] = self._key_patch(t, m[i], (key, value))
                        if patch[1] is not None:
                            if i == 0:
                                first.setdefault((head, *patch), []).append(k)
                                continue
                            where = (i, head, *patch)
            slow.append((k, where))
        out = entities
        if first:
            blob = bytearray().join(entities)
            arr = np.frombuffer(blob, dtype=np.uint8)
            starts = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(np.fromiter(map(len, entities), dtype=np.int64, count=n), out=starts[1:])
            for (head, was, now), ks in first.items():
                at = np.asarray(ks, dtype=np.int64)
                s = starts[at]
                one = arr[s + 1] < 0x80                 # the Entity's length: one or two varint bytes
                two = ~one & (arr[np.minimum(s + 2, len(arr) - 1)] < 0x80)
                pos = s + 2 + head + np.where(one, 0, 1)
                w, v = np.frombuffer(was, dtype=np.uint8), np.frombuffer(now, dtype=np.uint8)
                ok = (one | two) & (pos + len(w) <= starts[at + 1])
                cols = pos[:, None] + np.arange(len(w))
                ok[ok] &= (arr[cols[ok]] == w).all(axis=1)
                arr[cols[ok]] = v
                slow += [(k, None) for k in at[~ok].tolist()]          # not as expected: encoded
            whole = bytes(blob)
            bounds = starts.tolist()
            out = [whole[bounds[k]:bounds[k + 1]] for k in range(n)]
        else:
            out = list(out)
        for k, where in sorted(slow, key=itemgetter(0)):
            out[k] = self._keyed_one(entities[k], objs[k], where, new, k)
        return out

    def _keyed_one(self, ent: bytes, o, where: tuple | None, new, k: int) -> bytes:
        """:meth:`entities_keyed` of one entity: where its ``key`` was found (``where``: its
        index ``i`` in the match, the table id field's length, that field's bytes as they
        are and as they become), patched in place; else, or where the bytes there are not
        as they are expected, ``new[k]`` encoded -- a member of the same action and
        parameters (the same tuple) under another id: its action's bytes taken from ``ent``."""
        if where is not None:
            i, head, was, now = where
            pos = _body_at(ent) + head + sum(len(self._piece(o.table, kv)) for kv in o.match[:i])
            end = pos + len(was)
            if ent[pos:end] == was:
                return ent[:pos] + now + ent[end:]
        n = new[k]
        if type(o) is Member and type(n) is Member and n.params is o.params and n.action == o.action \
                and n.profile == o.profile:
            # a member under another id (a generation's: bit 31): its action's bytes, the
            # most of it, taken as written after its key (profile and id); the new key and
            # the length encoded
            pos = _body_at(ent)
            was = self.member(o, key_only=True)
            if ent[pos:pos + len(was)] == was:
                body = self.member(n, key_only=True) + ent[pos + len(was):]
                return _ENTITY_TAG["action_profile_member"] + _len(len(body)) + body
        return self.entity(n)

    def _piece(self, table: str, kv) -> bytes:
        """Match field ``kv`` of ``table`` with its tag (:meth:`_field_match`)."""
        _, keys, memo = self.tables[table]
        b = memo.get(kv)
        return b if b is not None else self._field_match(table, kv[0], kv[1], keys, memo)

    def _key_site(self, table: str, match, key: str) -> tuple | None:
        """(index of ``key`` in ``table``'s entries' match, the length of the table's id
        field, {old (key, value): patch}); None where ``table`` or ``key`` is unknown."""
        t = self.tables.get(table)
        names = [k for k, _ in match]
        if t is None or key not in names:
            return None
        return names.index(key), len(t[0]), {}

    def _key_patch(self, table: str, was, now) -> tuple[bytes, bytes | None]:
        """(the bytes of match field ``was``, those of ``now`` where as long; else None)."""
        a, b = self._piece(table, was), self._piece(table, now)
        return a, (b if a and len(a) == len(b) else None)


def _body_at(ent: bytes) -> int:
    """Where the message an ``Entity``'s bytes hold starts: after its one tag byte and its
    length varint."""
    pos = 1
    while ent[pos] & 0x80:
        pos += 1
    return pos + 1


#: columns whose values all lie below this are made distinct by a table of presence, not a sort
_DENSE = 1 << 16


def _distinct(cols: np.ndarray) -> tuple[list[list[int]], np.ndarray]:
    """(each column's distinct values, ascending; ``cols`` with each value replaced by the
    index of its (column, value) among all columns' distinct values, numbered column after
    column). Values of a route table's columns are small (slices, uplinks, ToRs): one table
    of presence for all columns, no sort; a wide value takes :func:`numpy.unique`."""
    m, c = cols.shape
    if m and (cols.min() < 0 or cols.max() >= _DENSE):
        distinct, idx, at = [], [], 0
        for j in range(c):
            vals, inv = np.unique(cols[:, j], return_inverse=True)
            distinct.append(vals.tolist())
            idx.append(inv.reshape(-1) + at)
            at += len(vals)
        return distinct, np.stack(idx, axis=1).astype(np.int64) if c else np.zeros((m, 0), np.int64)
    span = cols.max(axis=0) + 1 if m else np.zeros(c, dtype=np.int64)
    base = np.zeros(c + 1, dtype=np.int64)
    np.cumsum(span, out=base[1:])
    flat = cols + base[None, :c]
    present = np.zeros(int(base[-1]), dtype=bool)
    present[flat.ravel()] = True
    rank = np.cumsum(present) - 1
    where = np.flatnonzero(present)
    cut = np.searchsorted(where, base)
    distinct = [(where[cut[j]:cut[j + 1]] - base[j]).tolist() for j in range(c)]
    return distinct, rank[flat]


def update(op: str, entity: bytes) -> bytes:
    """An ``Update`` message's bytes: ``op`` ("insert", "modify", "delete") of ``entity``."""
    return _UPDATE_HEAD[op] + _len(len(entity)) + entity


def update_field(update: bytes) -> bytes:
    """An :func:`update` as one ``updates`` field of a WriteRequest (its tag and length
    before it): a request is its head and these, joined (:func:`request_of`)."""
    return _UPDATES_TAG + _len(len(update)) + update


def request_head(device_id: int, election: tuple[int, int]) -> bytes:
    """The fields of a ``WriteRequest`` before its updates: ``device_id`` and the election
    id as (high, low) 64-bit halves."""
    eid = field_varint(_U128["high"], election[0]) + field_varint(_U128["low"], election[1])
    return field_varint(_WR["device_id"], device_id) + field_bytes(_WR["election_id"], eid)


def request_of(head: bytes, fields: list[bytes]) -> bytes:
    """A ``WriteRequest``'s bytes: ``head`` (:func:`request_head`), then the updates
    (:func:`update_field`) in order."""
    return head + b"".join(fields)


def write_request(device_id: int, election: tuple[int, int], updates: list[bytes]) -> bytes:
    """A ``WriteRequest``'s bytes: ``device_id``, the election id as (high, low) 64-bit
    halves, the ``updates`` (from :func:`update`) in order."""
    return request_of(request_head(device_id, election), [_UPDATES_TAG + _len(len(u)) + u for u in updates])


#: {an entity's length: (the bytes of an insert's ``updates`` field before the entity, the
#: update's size as :func:`controller.agent.p4runtime.wire_requests` counts it)}: a
#: generation's entities have a few hundred lengths among them
_INSERT_PREFIX: dict[int, tuple[bytes, int]] = {}


def _insert_prefix(n: int) -> tuple[bytes, int]:
    p = _INSERT_PREFIX.get(n)
    if p is None:
        head = _UPDATE_HEAD["insert"] + _len(n)
        size = len(head) + n                            # the Update message's length
        p = _INSERT_PREFIX[n] = (_UPDATES_TAG + _len(size) + head, size + 4)
    return p


def insert_requests(head: bytes, entities: list[bytes], max_batch: int, max_bytes: int):
    """``entities`` inserted, as WriteRequests after ``head`` (:func:`request_head`): yields
    (start, stop, the request's bytes) of each, in order. The requests are those
    :func:`controller.agent.p4runtime.wire_requests` cuts and writes for the same inserts,
    byte for byte -- at most ``max_batch`` updates, an update that would take the request
    past ``max_bytes`` (each counted as its Update's length + 4) opens the next one, a
    request holds at least one --, but each is one ``join`` of pieces looked up by the
    entity's length, the cuts found by bisecting the running sizes: no update's bytes are
    copied before the request's (a (1024, 32) ToR's generation is 33K inserts)."""
    if not entities:
        return
    lens = list(map(len, entities))
    known = {n: _insert_prefix(n) for n in set(lens)}
    prefixes = list(map({n: p for n, (p, _) in known.items()}.__getitem__, lens))
    cum = list(accumulate(map({n: k for n, (_, k) in known.items()}.__getitem__, lens), initial=0))
    total = len(entities)
    i = 0
    while i < total:
        j = min(bisect_right(cum, cum[i] + max_bytes, i + 1) - 1, i + max_batch, total)
        j = max(j, i + 1)                                   # one update too large alone: still sent
        parts = [head] + [b""] * (2 * (j - i))
        parts[1::2] = prefixes[i:j]
        parts[2::2] = entities[i:j]
        yield i, j, b"".join(parts)
        i = j


def read_request(entities: list[bytes]) -> bytes:
    """A ``ReadRequest``'s bytes asking for ``entities`` (each an :meth:`WireCodec.entity`,
    a read by key's ``key_only`` one), no device id (the client sets it)."""
    return b"".join([_ENTITIES_TAG + _len(len(e)) + e for e in entities])


def read_entities(response: bytes) -> list[bytes]:
    """The entities of a serialized ``ReadResponse`` (its field 1, repeated), each as its
    bytes: what ``ent.SerializeToString()`` gives for each entity of the parsed response,
    at a third of its cost (no message made). A response holding anything else, or cut
    short, is parsed by protobuf (which raises ``DecodeError`` for a malformed one)."""
    out = []
    add = out.append
    i, n = 0, len(response)
    while i < n:
        if response[i] != 0x0A:
            return _parsed_entities(response)
        j = i + 1
        size = 0
        shift = 0
        while j < n:
            c = response[j]
            j += 1
            size |= (c & 0x7F) << shift
            if c < 0x80:
                break
            shift += 7
        else:
            return _parsed_entities(response)
        i = j + size
        if i > n:
            return _parsed_entities(response)
        add(response[j:i])
    return out


def _parsed_entities(response: bytes) -> list[bytes]:
    return [e.SerializeToString() for e in p4r.ReadResponse.FromString(response).entities]
