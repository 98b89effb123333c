"""Contract-named entries <-> P4Runtime messages, checked against a P4Info.

The P4Info is read and indexed by finsy's :class:`finsy.P4Schema` (names and ids of
tables, match fields, actions, parameters, counters, action profiles, controller packet
metadata, and the pipeline cookie); the protobuf classes are finsy's (generated for the
current protobuf runtime, see :mod:`controller.agent.p4runtime` for why).

Encoding and decoding of table entries is done here, not with finsy's entity classes,
for two reasons: our entries are already integers checked against the contract's widths
(:mod:`controller.tables.entries`), so the string/address parsing finsy's entities do is
not needed; and P4Runtime §9.1.1 wants a don't-care range key *omitted*, which finsy
0.30 encodes as a full ``low..high`` range (bmv2 refuses it). The canonical form is the
one :func:`controller.tables.entries.make_entry` produces, both ways:

- every key of the table, in contract order (an omitted LPM key is ``(0, 0)``, an
  omitted range key ``(0, 2^w - 1)``, an omitted ternary key ``(0, 0)``);
- parameters in contract order, as ints; full P4 names for tables and actions;
- ``priority`` as written (only tables with range/ternary keys have one);
- the default entry of a table: ``is_default=True``, no match, its action.
"""

from __future__ import annotations

from pathlib import Path
from controller.agent.backend import BackendError
from controller.agent.diff import describe  # noqa: F401 (re-exported: it lived here)
from controller.agent.p4wire import WireCodec, WireError, uint_bytes
from controller.tables.state import Group, Member, TableEntry

try:
    from finsy import P4Schema
    from finsy.p4schema import P4MatchType
    from finsy.proto import p4i, p4r
except ImportError as e:  # pragma: no cover - depends on the install
    raise ImportError(f"the P4Runtime agent needs the 'agent' extra (pip install -e '.[agent]'): {e}") from e


class P4RuntimeError(BackendError):
    """A P4Runtime operation failed or an entry does not fit the P4Info."""


_KIND = {P4MatchType.EXACT: "exact", P4MatchType.LPM: "lpm", P4MatchType.TERNARY: "ternary",
         P4MatchType.RANGE: "range", P4MatchType.OPTIONAL: "optional"}


def encode(value: int, bits: int) -> bytes:
    """Canonical P4Runtime bytestring: big-endian, no leading zero bytes (0 -> one byte)."""
    try:
        return uint_bytes(value, bits)
    except WireError as e:
        raise P4RuntimeError(str(e)) from None


_ENC: dict[tuple[int, int], bytes] = {}
#: encoded action parameters by (param id, bitwidth, value): most values repeat (ports,
#: slices, small ids), and copying a ready message is cheaper than building one
_PARAMS: dict = {}


def _enc(value: int, bits: int) -> bytes:
    """:func:`encode`, memoized for the small values tables repeat (ports, slices, ids)."""
    k = (value, bits)
    b = _ENC.get(k)
    if b is None:
        b = encode(value, bits)
        if value < 4096 and len(_ENC) < 1 << 16:
            _ENC[k] = b
    return b


def _int(b: bytes) -> int:
    return int.from_bytes(b, "big")


class _Table:
    """Per-table encode/decode data, precomputed once (entries are encoded by the 10K)."""

    __slots__ = ("name", "id", "keys", "by_id", "order", "ranged", "profile", "has_default")

    def __init__(self, t, order: list[str] | None):
        self.name, self.id = t.name, t.id
        # name -> (field id, bitwidth, kind)
        self.keys = {m.name: (m.id, m.bitwidth, _KIND.get(m.match_type, "?")) for m in t.match_fields}
        self.by_id = {m.id: m.name for m in t.match_fields}
        self.order = order or [m.name for m in t.match_fields]
        self.ranged = any(k[2] in ("range", "ternary") for k in self.keys.values())
        self.profile = t.action_profile.name if t.action_profile is not None else None


class _Action:
    __slots__ = ("name", "id", "params", "by_id", "order")

    def __init__(self, a, order: list[str] | None):
        self.name, self.id = a.name, a.id
        self.params = {p.name: (p.id, p.bitwidth) for p in a.params}
        self.by_id = {p.id: (p.name, p.bitwidth) for p in a.params}
        self.order = order or [p.name for p in a.params]


_MISSING = object()


class P4Info:
    """A program's P4Info: lookups, the contract check, and the entry codec."""

    def __init__(self, info: "p4i.P4Info | P4Schema", device_config: bytes | None = None):
        self.schema = info if isinstance(info, P4Schema) else P4Schema(info, device_config)
        self.info = self.schema.p4info
        self.tables = {t.name: t for t in self.schema.tables}
        self.actions = {a.name: a for a in self.schema.actions}
        self.counters = {c.name: c for c in self.schema.counters}
        self.profiles = {p.name: p for p in self.schema.action_profiles}
        self.contract: dict | None = None
        self._t: dict[str, _Table] = {}
        self._t_by_id: dict[int, _Table] = {}
        self._a: dict[str, _Action] = {}
        self._a_by_id: dict[int, _Action] = {}
        self._decoded: dict[bytes, object] = {}       # seen in the last read, or written since
        self._decoded_before: dict[bytes, object] = {}  # seen in the read before
        self.shared = False       # one codec for the sessions of many switches (see new_read)
        self._reindex()

    @classmethod
    def load(cls, path: str | Path, device_config: str | Path | bytes | None = None) -> "P4Info":
        if isinstance(device_config, (str, Path)):
            device_config = Path(device_config).read_bytes()
        try:
            return cls(P4Schema(Path(path), device_config))
        except OSError as e:
            raise P4RuntimeError(f"cannot read P4Info {path}: {e.strerror}") from None
        except Exception as e:  # text-format parse errors
            raise P4RuntimeError(f"P4Info {path} is not a valid P4Info text file: {e}") from None

    @property
    def cookie(self) -> int:
        """finsy's build cookie: SHA-256 of the P4Info and device config, first 8 bytes."""
        return self.schema.p4cookie

    def _reindex(self) -> None:
        c = self.contract or {}
        t_order = {t["name"]: [k["name"] for k in t["keys"]] for t in c.get("tables", {}).values()}
        a_order = {a["name"]: [p["name"] for p in a["params"]]
                   for t in c.get("tables", {}).values() for a in t["actions"].values()}
        self._t = {n: _Table(t, t_order.get(n)) for n, t in self.tables.items()}
        self._t_by_id = {t.id: t for t in self._t.values()}
        self._a = {n: _Action(a, a_order.get(n)) for n, a in self.actions.items()}
        self._a_by_id = {a.id: a for a in self._a.values()}
        self._p_by_id = {p.id: p.name for p in self.profiles.values()}
        self.wire = WireCodec({n: (t.id, t.keys) for n, t in self._t.items()},
                              {n: (a.id, a.params, len(a.params)) for n, a in self._a.items()},
                              {n: (p.id, p.max_group_size) for n, p in self.profiles.items()})

    # ---- lookups -----------------------------------------------------------------------
    def table(self, name: str):
        try:
            return self.tables[name]
        except KeyError:
            raise P4RuntimeError(f"table {name!r} is not in the P4Info (have: {', '.join(sorted(self.tables))})") from None

    def action(self, name: str):
        try:
            return self.actions[name]
        except KeyError:
            raise P4RuntimeError(f"action {name!r} is not in the P4Info") from None

    def counter(self, name: str):
        try:
            return self.counters[name]
        except KeyError:
            raise P4RuntimeError(f"counter {name!r} is not in the P4Info (have: {', '.join(sorted(self.counters))})") from None

    def profile(self, name: str):
        try:
            return self.profiles[name]
        except KeyError:
            raise P4RuntimeError(f"action profile {name!r} is not in the P4Info") from None

    def profile_name(self, profile_id: int) -> str:
        """The name of the action profile whose P4Runtime id is ``profile_id`` (what a
        member or group a switch sends back names it by)."""
        try:
            return self._p_by_id[profile_id]
        except KeyError:
            raise P4RuntimeError(f"action profile id {profile_id} is not in the P4Info") from None

    def _tbl(self, name: str) -> _Table:
        t = self._t.get(name)
        if t is None:
            self.table(name)  # raises with the list of tables
        return t

    def _act(self, name: str) -> _Action:
        a = self._a.get(name)
        if a is None:
            self.action(name)
        return a

    # ---- contract check ----------------------------------------------------------------
    def check_contract(self, contract: dict) -> None:
        """Every table/key/action/parameter/profile/counter of the contract exists in the
        P4Info with the same match kind and width. On success the codec uses the contract's
        key and parameter order (the canonical form of :mod:`controller.tables.entries`)."""
        for t in contract["tables"].values():
            pt = self.table(t["name"])
            fields = {m.name: m for m in pt.match_fields}
            for k in t["keys"]:
                m = fields.get(k["name"])
                if m is None:
                    raise P4RuntimeError(f"{t['name']}: key {k['name']!r} not in the P4Info (has {sorted(fields)})")
                if m.bitwidth != k["bitwidth"] or _KIND.get(m.match_type) != k["match"]:
                    raise P4RuntimeError(f"{t['name']}: key {k['name']!r} is {_KIND.get(m.match_type)} "
                                         f"{m.bitwidth} bits in the P4Info, {k['match']} {k['bitwidth']} in the contract")
            if len(fields) != len(t["keys"]):
                extra = sorted(set(fields) - {k["name"] for k in t["keys"]})
                raise P4RuntimeError(f"{t['name']}: the P4Info has keys the contract does not name: {extra}")
            ids = {r.id for r in pt.actions}
            for a in t["actions"].values():
                pa = self.action(a["name"])
                if pa.id not in ids:
                    raise P4RuntimeError(f"{t['name']}: action {a['name']!r} is not an action of the table")
                params = {p.name: p.bitwidth for p in pa.params}
                for prm in a["params"]:
                    if params.get(prm["name"]) != prm["bitwidth"]:
                        raise P4RuntimeError(f"{a['name']}: parameter {prm['name']!r} is "
                                             f"{params.get(prm['name'])} bits in the P4Info, {prm['bitwidth']} in the contract")
                if len(params) != len(a["params"]):
                    raise P4RuntimeError(f"{a['name']}: {len(params)} parameters in the P4Info, "
                                         f"{len(a['params'])} in the contract")
            if "action_profile" in t:
                prof = self.profile(t["action_profile"])
                if pt.action_profile is None or pt.action_profile.name != prof.name:
                    raise P4RuntimeError(f"{t['name']}: not implemented by action profile {prof.name!r} in the P4Info")
        for c in contract["counters"].values():
            pc = self.counter(c["name"])
            if pc.size < len(c["indices"]):
                raise P4RuntimeError(f"counter {c['name']!r} has {pc.size} cells, the contract names {len(c['indices'])}")
        self.contract = contract
        self._reindex()

    def contract_tables(self) -> list[str]:
        """Full names of the tables the state covers: the contract's, else every table."""
        if self.contract is None:
            return sorted(self.tables)
        return [t["name"] for t in self.contract["tables"].values()]

    def contract_profiles(self) -> list[str]:
        names = {self._t[n].profile for n in self.contract_tables() if self._t[n].profile}
        return sorted(names)

    # ---- encode ------------------------------------------------------------------------
    def _fill_action(self, act: "p4r.Action", name: str, params) -> None:
        a = self._act(name)
        act.action_id = a.id
        cache = _PARAMS
        out = []
        for pname, v in params:
            spec = a.params.get(pname)
            if spec is None:
                raise P4RuntimeError(f"{name}: no parameter {pname!r}")
            key = (spec[0], spec[1], v)
            m = cache.get(key)
            if m is None:
                m = p4r.Action.Param(param_id=spec[0], value=encode(v, spec[1]))
                if len(cache) < 1 << 16:
                    cache[key] = m
            out.append(m)
        if len(out) != len(a.params):
            missing = sorted(set(a.params) - {p for p, _ in params})
            raise P4RuntimeError(f"{name}: missing parameter(s) {missing}")
        act.params.extend(out)

    def table_entry(self, e: TableEntry, msg: "p4r.TableEntry | None" = None,
                    key_only: bool = False) -> "p4r.TableEntry":
        """``e`` as a P4Runtime TableEntry (filled into ``msg`` when given: no copy);
        ``key_only``: its identity alone (table, match, priority), as a read names it."""
        t = self._tbl(e.table)
        if msg is None:
            msg = p4r.TableEntry()
        msg.table_id = t.id
        if e.is_default:
            msg.is_default_action = True
        else:
            if e.priority:
                msg.priority = e.priority
            fields = msg.match
            for kname, v in e.match:
                spec = t.keys.get(kname)
                if spec is None:
                    raise P4RuntimeError(f"{e.table}: no key {kname!r}")
                fid, bits, kind = spec
                if kind == "exact":
                    fields.add(field_id=fid).exact.value = _enc(v, bits)
                elif kind == "lpm":
                    val, plen = v
                    if plen == 0:
                        if val:
                            raise P4RuntimeError(f"{describe(e)}: a /0 prefix with value {val}")
                        continue  # the don't-care: omitted (P4Runtime §9.1.1)
                    if val & ((1 << (bits - plen)) - 1):
                        raise P4RuntimeError(f"{describe(e)}: key {kname} has bits set past the /{plen} prefix")
                    f = fields.add(field_id=fid).lpm
                    f.value, f.prefix_len = _enc(val, bits), plen
                elif kind == "range":
                    lo, hi = v
                    if lo == 0 and hi == (1 << bits) - 1:
                        continue  # the full range is the don't-care: omitted
                    f = fields.add(field_id=fid).range
                    f.low, f.high = _enc(lo, bits), _enc(hi, bits)
                elif kind == "ternary":
                    val, mask = v
                    if mask == 0:
                        continue
                    f = fields.add(field_id=fid).ternary
                    f.value, f.mask = _enc(val & mask, bits), _enc(mask, bits)
                else:
                    fields.add(field_id=fid).optional.value = _enc(v, bits)
        if key_only:
            return msg
        if e.group_id is not None:
            msg.action.action_profile_group_id = e.group_id
        elif e.action is not None:
            self._fill_action(msg.action.action, e.action, e.params)
        return msg

    def member(self, m: Member, msg: "p4r.ActionProfileMember | None" = None,
               key_only: bool = False) -> "p4r.ActionProfileMember":
        if msg is None:
            msg = p4r.ActionProfileMember()
        msg.action_profile_id, msg.member_id = self.profile(m.profile).id, m.member_id
        if not key_only:
            self._fill_action(msg.action, m.action, m.params)
        return msg

    def group(self, g: Group, msg: "p4r.ActionProfileGroup | None" = None,
              key_only: bool = False) -> "p4r.ActionProfileGroup":
        if msg is None:
            msg = p4r.ActionProfileGroup()
        msg.action_profile_id, msg.group_id = self.profile(g.profile).id, g.group_id
        if key_only:
            return msg
        # the profile's largest group, not this group's size: bmv2 refuses a MODIFY that
        # changes max_size, and a diff-only write (docs/daemon.md "Diff-only writes")
        # changes a group's member list in place
        msg.max_size = max(len(g.member_ids), 1, self.profile(g.profile).max_group_size)
        for i in g.member_ids:
            msg.members.add(member_id=i, weight=1)
        return msg

    def fill_entity(self, ent: "p4r.Entity", obj, key_only: bool = False) -> "p4r.Entity":
        """Encode a state object into ``ent`` (in place: no message copies). ``key_only``:
        its identity alone, as a read by key names it -- a table entry's table, match and
        priority (a default entry: its table), a member's or group's profile and id; no
        action, no member list."""
        if isinstance(obj, TableEntry):
            self.table_entry(obj, ent.table_entry, key_only)
        elif isinstance(obj, Member):
            self.member(obj, ent.action_profile_member, key_only)
        elif isinstance(obj, Group):
            self.group(obj, ent.action_profile_group, key_only)
        else:
            raise TypeError(f"not a state object: {obj!r}")
        return ent

    def entity(self, obj) -> "p4r.Entity":
        return self.fill_entity(p4r.Entity(), obj)

    def entity_bytes(self, obj, key_only: bool = False) -> bytes:
        """``obj``'s ``Entity`` serialized, as :meth:`entity` gives it, without building the
        message (:mod:`controller.agent.p4wire`: what a write of 33K entries spends its
        time on)."""
        try:
            return self.wire.entity(obj, key_only)
        except WireError as e:
            raise P4RuntimeError(f"{describe(obj)}: {e}") from None

    # ---- decode (the canonical form, see module docstring) ------------------------------
    def _params(self, act: "p4r.Action") -> tuple[str, tuple[tuple[str, int], ...]]:
        a = self._a_by_id.get(act.action_id)
        if a is None:
            raise P4RuntimeError(f"the switch returned unknown action id {act.action_id}")
        got = {}
        for p in act.params:
            name, _ = a.by_id[p.param_id]
            got[name] = _int(p.value)
        return a.name, tuple((n, got.get(n, 0)) for n in a.order)

    def decode_table_entry(self, msg: "p4r.TableEntry") -> TableEntry | None:
        """The canonical TableEntry of ``msg`` (None: a default entry without an action,
        as an action-selector table has)."""
        t = self._t_by_id.get(msg.table_id)
        if t is None:
            raise P4RuntimeError(f"the switch returned unknown table id {msg.table_id}")
        which = msg.action.WhichOneof("type")
        action, params, group = None, (), None
        if which == "action":
            action, params = self._params(msg.action.action)
        elif which == "action_profile_group_id":
            group = msg.action.action_profile_group_id
        elif which is not None:
            raise P4RuntimeError(f"{t.name}: the switch holds an entry with a {which} action, "
                                 "which uro never writes")
        if msg.is_default_action:
            if which is None:
                return None
            return TableEntry(t.name, (), action, params, True, group, 0)
        got = {}
        for f in msg.match:
            name = t.by_id[f.field_id]
            kind = f.WhichOneof("field_match_type")
            if kind == "exact":
                got[name] = _int(f.exact.value)
            elif kind == "lpm":
                got[name] = (_int(f.lpm.value), f.lpm.prefix_len)
            elif kind == "range":
                got[name] = (_int(f.range.low), _int(f.range.high))
            elif kind == "ternary":
                got[name] = (_int(f.ternary.value), _int(f.ternary.mask))
            else:
                got[name] = _int(f.optional.value)
        match = []
        for name in t.order:
            if name in got:
                match.append((name, got[name]))
                continue
            _, bits, kind = t.keys[name]
            match.append((name, (0, (1 << bits) - 1) if kind == "range" else (0, 0)))
        return TableEntry(t.name, tuple(match), action, params, False, group, msg.priority)

    #: at most this many decoded entities kept (a read of a (108, 6) ToR returns 7-14K)
    DECODED_MAX = 1 << 18

    def new_read(self) -> None:
        """A read of the whole switch begins: what neither it nor the read before saw (nor a
        write since) is forgotten, so the memo holds about what the switch holds, not every
        object of every update since the start (a heap the garbage collector walks). A
        codec shared by the sessions of many switches (:attr:`shared`: the daemon's, one
        per program) keeps its memo across their reads: it is bounded by
        :data:`DECODED_MAX` alone."""
        if not self.shared:
            self._decoded_before, self._decoded = self._decoded, {}

    def decode_entity(self, ent: "p4r.Entity"):
        """The canonical object of a read entity (:class:`TableEntry`, :class:`Member`,
        :class:`Group`; None for a default entry without an action, or an entity kind uro
        does not read), memoised by its bytes: decoding is a pure function of them and of
        this P4Info, and it is most of a read's time in Python (0.3-0.5 s for a (108, 6)
        ToR's 14K objects), while the switch answers mostly what an earlier read already
        decoded (a network-wide update reads the same switch three times)."""
        key = ent.SerializeToString()
        obj = self._memoised(key)
        return self._decode(key, ent) if obj is _MISSING else obj

    def decode_entity_bytes(self, ent: bytes):
        """:meth:`decode_entity` of an entity as the bytes the switch answered
        (:func:`controller.agent.p4wire.read_entities`): an entity the memo holds (what was
        written, read back as written) is found without a message made of it."""
        obj = self._memoised(ent)
        if obj is not _MISSING:
            return obj
        msg = p4r.Entity.FromString(ent)
        key = msg.SerializeToString()          # (the memo's key: protobuf's own bytes)
        obj = self._memoised(key) if key != ent else _MISSING
        return self._decode(key, msg) if obj is _MISSING else obj

    def _memoised(self, key: bytes):
        """The object memoised under ``key`` (:data:`_MISSING`: none)."""
        try:
            return self._decoded[key]
        except KeyError:
            pass
        obj = self._decoded_before.pop(key, _MISSING)
        return obj if obj is _MISSING else self._keep(key, obj)

    def _decode(self, key: bytes, ent: "p4r.Entity"):
        """:meth:`decode_entity` of ``ent`` (serialized: ``key``) not memoised: decoded, kept."""
        kind = ent.WhichOneof("entity")
        if kind == "table_entry":
            obj = self.decode_table_entry(ent.table_entry)
        elif kind == "action_profile_member":
            obj = self.decode_member(ent.action_profile_member)
        elif kind == "action_profile_group":
            obj = self.decode_group(ent.action_profile_group)
        else:
            return None
        return self._keep(key, obj)

    def remember(self, ent: "p4r.Entity", obj) -> None:
        """``ent`` was encoded from ``obj`` (:meth:`fill_entity`): the read-back of what is
        written is then found decoded. The codec is a bijection on the canonical form
        (module docstring; ``tests/test_agent_p4runtime.py`` checks that decoding what was
        encoded gives the object back), and bmv2 answers a read with the very bytes it was
        written (all 94K objects of a (108, 6) ToR's failure/recovery swaps), so the
        switch's answer decodes to ``obj``; bytes the switch answers differently are simply
        decoded when read."""
        self._keep(ent.SerializeToString(), obj)

    def remember_bytes(self, ent: bytes, obj) -> None:
        """:meth:`remember` of an entity already serialized (:meth:`entity_bytes`)."""
        self._keep(ent, obj)

    def _keep(self, key: bytes, obj):
        """``obj`` memoised under ``key``; at :data:`DECODED_MAX` the memo starts again, what
        it held kept as the one before (at most twice DECODED_MAX objects in all)."""
        if len(self._decoded) >= self.DECODED_MAX:
            self._decoded_before, self._decoded = self._decoded, {}
        self._decoded[key] = obj
        return obj

    def decode_member(self, msg: "p4r.ActionProfileMember") -> Member:
        action, params = self._params(msg.action)
        return Member(self._p_by_id[msg.action_profile_id], msg.member_id, action, params)

    def decode_group(self, msg: "p4r.ActionProfileGroup") -> Group:
        return Group(self._p_by_id[msg.action_profile_id], msg.group_id, tuple(m.member_id for m in msg.members))

    # ---- packet I/O --------------------------------------------------------------------
    def packet_in_metadata(self, metadata) -> dict[str, int]:
        """The fields of a PacketIn's ``packet_in`` controller header by name (the P4Info
        declares none: an empty dict)."""
        cpm = self.schema.controller_packet_metadata.get("packet_in")
        if cpm is None or not metadata:
            return {}
        return dict(cpm.decode(metadata))

    def packet_out_metadata(self, metadata: dict[str, int] | None) -> list:
        """The PacketMetadata of a PacketOut, by name from the P4Info's ``packet_out``
        controller header (finsy encodes them). No such header: no metadata (and giving
        some is an error). ``None``: every field 0."""
        cpm = self.schema.controller_packet_metadata.get("packet_out")
        if cpm is None:
            if metadata:
                raise P4RuntimeError(f"packet-out metadata {sorted(metadata)} given, but the P4Info declares no "
                                     "@controller_header(\"packet_out\")")
            return []
        if metadata is None:
            metadata = {m.name: 0 for m in cpm.metadata}
        try:
            return cpm.encode(dict(metadata))
        except (ValueError, OverflowError) as e:
            raise P4RuntimeError(f"packet-out metadata: {e}") from None
