"""The compiler's ``bfrt.json``: every table, key, action and data field with its id and
width, and contract-named entries encoded as BfRt keys and data.

The pipeline contract names tables ``UroIngress.<short>``; bf-p4c prefixes them with the
pipeline instance (``pipe.UroIngress.<short>``). A key declared with ``@name("x")`` is
field ``x``; action data fields are the action's parameter names. An action selector
(``UroIngress.ssrr_selector`` in the contract) is two BfRt tables: the members live in
its action profile (``..._profile``, key ``$ACTION_MEMBER_ID``) and the groups in the
selector (key ``$SELECTOR_GROUP_ID``, data ``$ACTION_MEMBER_ID`` / ``$ACTION_MEMBER_STATUS``
/ ``$MAX_GROUP_SIZE``); a table entry that points to a group has the datum
``$SELECTOR_GROUP_ID``.

:class:`BfrtInfo` checks the contract against the file before anything is written, and
encodes :class:`~controller.tables.state.TableEntry`, ``Member`` and ``Group`` into
:class:`Write` records: target-neutral descriptions of one BfRt ``entry_add``/``entry_mod``
that the backend turns into ``bfrt_grpc`` calls. Every value is checked against the
width the compiler gave the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from controller.errors import UroError
from controller.tables.state import Group, Member, TableEntry

PIPE_PREFIX = "pipe."
MATCH = {"exact": "Exact", "lpm": "LPM", "ternary": "Ternary", "range": "Range"}


class BfrtJsonError(UroError):
    """bfrt.json is missing, malformed, or does not match the pipeline contract."""


@dataclass(frozen=True)
class KeyField:
    name: str
    value: int
    prefix_len: int | None = None     # LPM
    mask: int | None = None           # ternary
    high: int | None = None           # range: value is the low end


@dataclass(frozen=True)
class Write:
    """One BfRt write: ``table`` (full BfRt name), key fields, action (full name or None)
    and data fields; ``default`` writes the table's default entry (no key)."""

    table: str
    key: tuple[KeyField, ...] = ()
    action: str | None = None
    data: tuple[tuple[str, object], ...] = ()
    default: bool = False
    #: the pipe this write targets; None: all pipes (the program's tables). The SDE's
    #: tf2.tm.* tables refuse the all-pipes target, and the generator is per pipe.
    pipe: int | None = None

    def data_dict(self) -> dict:
        return dict(self.data)


@dataclass
class Table:
    name: str
    id: int
    table_type: str
    size: int
    keys: dict = field(default_factory=dict)        # name -> {"id", "match", "width"}
    actions: dict = field(default_factory=dict)     # name -> {"id", "params": {name: {"id", "width"}}}
    data: dict = field(default_factory=dict)        # common data fields: name -> {"id", "width", "repeated"}


def _width(t: dict) -> int | None:
    ty = t.get("type", {})
    if ty.get("type") == "bytes":
        return int(ty["width"])
    if ty.get("type") == "uint32":
        return 32
    if ty.get("type") == "uint64":
        return 64
    if ty.get("type") == "bool":
        return 1
    return None


def _fit(where: str, value, bits: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (bits is not None and value >= 1 << bits):
        raise BfrtJsonError(f"{where} = {value!r} does not fit {bits} bits")
    return value


class BfrtInfo:
    """Lookups over one compiled program's bfrt.json."""

    def __init__(self, doc: dict, source: str = "bfrt.json"):
        self.source = source
        if not isinstance(doc, dict) or not isinstance(doc.get("tables"), list):
            raise BfrtJsonError(f"{source}: not a BfRt schema (no 'tables' list)")
        self.tables: dict[str, Table] = {}
        for t in doc["tables"]:
            tab = Table(t["name"], int(t["id"]), t.get("table_type", ""), int(t.get("size", 0)))
            for k in t.get("key", []):
                tab.keys[k["name"]] = {"id": int(k["id"]), "match": k.get("match_type"), "width": _width(k)}
            for a in t.get("action_specs", []):
                tab.actions[a["name"]] = {"id": int(a["id"]), "params": {
                    d["name"]: {"id": int(d["id"]), "width": _width(d)} for d in a.get("data", [])}}
            for d in t.get("data", []):
                for single in ([d["singleton"]] if "singleton" in d else d.get("oneof", [])):
                    tab.data[single["name"]] = {"id": int(single["id"]), "width": _width(single),
                                                "repeated": bool(single.get("repeated"))}
            self.tables[tab.name] = tab

    @classmethod
    def load(cls, path: str | Path) -> "BfrtInfo":
        p = Path(path)
        try:
            doc = json.loads(p.read_text())
        except FileNotFoundError:
            raise BfrtJsonError(f"{p}: not found (build the program first: uro p4 build --target tofino2)") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise BfrtJsonError(f"{p}: not valid JSON: {e}") from None
        return cls(doc, str(p))

    # ---- names -------------------------------------------------------------------------------
    @staticmethod
    def full(name: str) -> str:
        return name if name.startswith(PIPE_PREFIX) else PIPE_PREFIX + name

    def table(self, name: str) -> Table:
        try:
            return self.tables[self.full(name)]
        except KeyError:
            raise BfrtJsonError(f"{self.source}: no table {self.full(name)!r}") from None

    def profile_tables(self, selector: str) -> tuple[Table, Table]:
        """(action profile, selector) BfRt tables of a contract action selector."""
        return self.table(selector + "_profile"), self.table(selector)

    # ---- contract check ------------------------------------------------------------------
    def check_contract(self, contract: dict) -> None:
        """Every contract table, key (match kind and width), action, parameter (width) and
        counter, every target table, and every register of the slice clock (with its data
        field), is in bfrt.json; raises naming the first mismatch."""
        tables = dict(contract.get("tables", {}))
        for t in list(tables.values()) + list(contract.get("target_tables", {}).values()):
            tab = self.table(t["name"])
            for k in t["keys"]:
                got = tab.keys.get(k["name"])
                if got is None:
                    raise BfrtJsonError(f"{tab.name}: no key {k['name']!r} in {self.source} (has {sorted(tab.keys)})")
                if got["match"] != MATCH[k["match"]] or got["width"] != k["bitwidth"]:
                    raise BfrtJsonError(
                        f"{tab.name}: key {k['name']!r} is {got['match']} {got['width']} bits in {self.source}, "
                        f"{MATCH[k['match']]} {k['bitwidth']} in the contract")
            if "action_profile" in t:
                prof, _sel = self.profile_tables(t["action_profile"])
                action_home = prof
            else:
                action_home = tab
            for aname, a in t["actions"].items():
                full = a["name"] if isinstance(a, dict) else f"{t['name'].split('.')[0]}.{aname}"
                params = a["params"] if isinstance(a, dict) else a
                got = action_home.actions.get(full)
                if got is None:
                    raise BfrtJsonError(f"{action_home.name}: no action {full!r} in {self.source}")
                for prm in params:
                    w = got["params"].get(prm["name"], {}).get("width")
                    if w != prm["bitwidth"]:
                        raise BfrtJsonError(f"{full}: parameter {prm['name']!r} is {w} bits in {self.source}, "
                                            f"{prm['bitwidth']} in the contract")
        for short, r in contract.get("clock", {}).get("registers", {}).items():
            tab = self.table(r["name"])                     # the slice clock's registers the daemon reads
            want = f"{r['name']}.{r.get('field') or 'f1'}"
            if tab.data and want not in tab.data:
                raise BfrtJsonError(f"{tab.name}: no data field {want!r} (the clock's {short!r}) in {self.source} "
                                    f"(has {sorted(tab.data)})")
            if tab.size < int(r.get("size", 1)):
                raise BfrtJsonError(f"register {tab.name} has {tab.size} cells, the clock's {short!r} needs "
                                    f"{r.get('size', 1)}")
        for c in contract.get("counters", {}).values():
            tab = self.table(c["name"])
            need = len(c["indices"]) + int(c.get("cell_offset", 0))
            if c.get("encoding") == "bitmap":
                need = 1 << len(c["indices"])
            if tab.size < need:
                raise BfrtJsonError(f"counter {tab.name} has {tab.size} cells, the contract needs {need}")

    # ---- encoding ----------------------------------------------------------------------------
    def encode_entry(self, e: TableEntry, contract: dict | None = None) -> Write:
        tab = self.table(e.table)
        keys = []
        if not e.is_default:
            for kname, v in e.match:
                k = tab.keys.get(kname)
                if k is None:
                    raise BfrtJsonError(f"{tab.name}: no key {kname!r}")
                w = k["width"]
                if k["match"] == "LPM":
                    val, plen = v
                    if not 0 <= plen <= w:
                        raise BfrtJsonError(f"{tab.name}: prefix length {plen} of key {kname} out of 0..{w}")
                    keys.append(KeyField(kname, _fit(f"{tab.name} key {kname}", val, w), prefix_len=plen))
                elif k["match"] == "Range":
                    lo, hi = v
                    keys.append(KeyField(kname, _fit(f"{tab.name} key {kname}", lo, w),
                                         high=_fit(f"{tab.name} key {kname}", hi, w)))
                elif k["match"] == "Ternary":
                    val, mask = v if isinstance(v, tuple) else (v, (1 << w) - 1)
                    keys.append(KeyField(kname, _fit(f"{tab.name} key {kname}", val, w),
                                         mask=_fit(f"{tab.name} key {kname} mask", mask, w)))
                else:
                    if isinstance(v, tuple):
                        raise BfrtJsonError(f"{tab.name}: key {kname} is an exact key, got {v!r} "
                                            "(expand ranges into one entry per value)")
                    keys.append(KeyField(kname, _fit(f"{tab.name} key {kname}", v, w)))
            if e.priority and "$MATCH_PRIORITY" in tab.keys:
                keys.append(KeyField("$MATCH_PRIORITY", e.priority))
        if e.group_id is not None:
            if "$SELECTOR_GROUP_ID" not in tab.data:
                raise BfrtJsonError(f"{tab.name}: entry points to group {e.group_id} but the table has no selector")
            return Write(tab.name, tuple(keys), None, (("$SELECTOR_GROUP_ID", e.group_id),), e.is_default)
        data = self._action_data(tab, e.action, e.params) if e.action else ()
        return Write(tab.name, tuple(keys), e.action, data, e.is_default)

    def _action_data(self, tab: Table, action: str, params) -> tuple:
        a = tab.actions.get(action)
        if a is None:
            raise BfrtJsonError(f"{tab.name}: no action {action!r} (has {sorted(tab.actions)})")
        out = []
        given = dict(params)
        for pname, spec in a["params"].items():
            if pname not in given:
                raise BfrtJsonError(f"{action}: missing parameter {pname!r}")
            out.append((pname, _fit(f"{action} parameter {pname}", given.pop(pname), spec["width"])))
        if given:
            raise BfrtJsonError(f"{action}: unknown parameter {sorted(given)[0]!r}")
        return tuple(out)

    def encode_member(self, m: Member) -> Write:
        prof, _ = self.profile_tables(m.profile)
        return Write(prof.name, (KeyField("$ACTION_MEMBER_ID", _fit("member id", m.member_id, 32)),), m.action,
                     self._action_data(prof, m.action, m.params))

    def encode_group(self, g: Group, max_size: int | None = None) -> Write:
        _, sel = self.profile_tables(g.profile)
        n = len(g.member_ids)
        return Write(sel.name, (KeyField("$SELECTOR_GROUP_ID", _fit("group id", g.group_id, 32)),), None, (
            ("$MAX_GROUP_SIZE", max_size or max(n, 1)),
            ("$ACTION_MEMBER_ID", tuple(g.member_ids)),
            ("$ACTION_MEMBER_STATUS", tuple(True for _ in g.member_ids))))

    def ids(self, w: Write) -> dict:
        """The numeric ids bfrt_grpc will send for ``w`` (table, key fields, action, data
        fields), resolved in this bfrt.json; raises naming anything it does not hold."""
        tab = self.tables.get(w.table)
        if tab is None:
            raise BfrtJsonError(f"{self.source}: no table {w.table!r}")
        keys = {}
        for k in w.key:
            spec = tab.keys.get(k.name)
            if spec is None:
                raise BfrtJsonError(f"{w.table}: no key {k.name!r}")
            keys[k.name] = spec["id"]
        out = {"table": tab.id, "keys": keys, "action": None, "data": {}}
        params = {}
        if w.action is not None:
            a = tab.actions.get(w.action)
            if a is None:
                raise BfrtJsonError(f"{w.table}: no action {w.action!r}")
            out["action"] = a["id"]
            params = a["params"]
        for name, _v in w.data:
            spec = params.get(name) or tab.data.get(name)
            if spec is None:
                raise BfrtJsonError(f"{w.table}: no data field {name!r}" + (f" in {w.action}" if w.action else ""))
            out["data"][name] = spec["id"]
        return out

    # ---- decoding (read-back) -----------------------------------------------------------------
    def decode_entry(self, table: str, key: dict, action: str | None, data: dict, contract_table: str,
                     is_default: bool = False) -> TableEntry:
        """A read-back entry in contract form (the inverse of :meth:`encode_entry`)."""
        tab = self.table(table)
        match = []
        prio = 0
        for kname, spec in tab.keys.items():
            if kname == "$MATCH_PRIORITY":
                prio = int(key.get(kname, 0))
                continue
            if kname not in key:
                continue
            v = key[kname]
            if spec["match"] == "LPM":
                match.append((kname, (int(v[0]), int(v[1]))))
            elif spec["match"] in ("Range", "Ternary"):
                match.append((kname, (int(v[0]), int(v[1]))))
            else:
                match.append((kname, int(v)))
        if "$SELECTOR_GROUP_ID" in data:
            return TableEntry(contract_table, tuple(match), None, (), is_default, int(data["$SELECTOR_GROUP_ID"]), prio)
        a = tab.actions.get(action or "")
        params = tuple((p, int(data[p])) for p in (a["params"] if a else {}) if p in data)
        return TableEntry(contract_table, tuple(match), action, params, is_default, None, prio)
