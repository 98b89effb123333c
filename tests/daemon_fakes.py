"""A faithful in-memory model of a switch behind the SwitchBackend interface, for the
daemon's unit tests (no switch, no sleeps):

- it stores a state (members, groups, entries; default entries included) and applies
  Diffs with the checks a P4Runtime server makes (insert of an existing object, modify
  or delete of a missing one, a group naming a missing member, an entry naming a missing
  group, deleting something still referenced: all refused with BackendError);
- it can be made to fail after N updates (``fail_after``), to acknowledge an update it
  does not apply (``lose``: a write the switch lost), to restart empty (no pipeline,
  session gone), to be unreachable, and to report another primary;
- it records every timer and checks an invariant after every single update (``watch``);
- it keeps a slice clock as a switch in sync mode does (docs/clock.md): network time is
  the host's CLOCK_MONOTONIC plus ``clock_offset_ns``, a stratum, registers; seeds set it
  (and are recorded with the time they came), probes answer it, ``clock_answers = False``
  makes reads and probes fail.
"""

from __future__ import annotations

import threading
from typing import Callable

import time

from controller.agent.backend import (BackendError, ClockProbe, NotPrimary, Pipeline, SwitchAddress,
                                      SwitchBackend, Unreachable, WriteReport)
from controller.agent.diff import Diff, entry_key, group_key, member_key
from controller.tables.state import Batch, TableEntry


class FakeSwitch:
    """The device: outlives sessions; ``restart()`` empties it like a process restart."""

    def __init__(self, name: str = "sw"):
        self.name = name
        self.lock = threading.RLock()
        self.cookie: int | None = None
        self.pipeline: Pipeline | None = None
        self.members: dict = {}
        self.groups: dict = {}
        self.entries: dict = {}
        self.primary: int | None = None        # election id of the primary session
        self.primary_session = None
        self.reachable = True
        self.fail_after: int | None = None      # refuse the update after this many more
        self.watch: Callable[..., None] | None = None   # (switch, kind, how, object) after every update
        self.refuse: Callable[..., bool] | None = None  # (kind, how, object) -> refused (a target's limit)
        self.lose: Callable[..., bool] | None = None    # (kind, how, object) -> acknowledged, not applied
        self.timers: list[int] = []
        self.syncs: list[bool] = []
        self.counters = {"drops": {"no_route": 0}, "events": {"timer": 0}}
        self.updates = 0                        # every update ever applied
        # the switch's own slice clock (sync mode)
        self.slice_ns = 50_000_000
        self.clock_offset_ns = 7_000_000_000    # started 7 s "before" the host's clock: far off
        self.stratum = 255
        self.clock_registers: dict = {}
        self.clock_answers = True
        self.seeds: list[tuple[int, int, int, bool, bool]] = []   # (host ns when seeded, k, phase, reference, lead)
        self.probes = 0
        self.pipelines_set = 0
        self.epoch = 0                          # restarts

    # ---- test controls -------------------------------------------------------------------
    def restart(self) -> None:
        with self.lock:
            self.cookie = self.pipeline = None
            self.members, self.groups, self.entries = {}, {}, {}
            self.primary = self.primary_session = None
            self.epoch += 1

    def state(self) -> Batch:
        with self.lock:
            return Batch(list(self.members.values()), list(self.groups.values()), list(self.entries.values()))

    def set_entry(self, e: TableEntry) -> None:          # drift: behind the daemon's back
        with self.lock:
            self.entries[entry_key(e)] = e

    def delete_entry(self, e: TableEntry) -> None:
        with self.lock:
            del self.entries[entry_key(e)]

    # ---- what the backend calls -------------------------------------------------------------
    def load(self, pipeline: Pipeline) -> None:
        with self.lock:
            self.cookie = pipeline.cookie
            self.pipeline = pipeline
            self.members, self.groups, self.entries = {}, {}, {}
            for t in pipeline.contract["tables"].values():
                if not t["keys"]:    # a keyless table: its default entry is the unconfigured default
                    e = TableEntry(t["name"], (), "NoAction", (), is_default=True)
                    self.entries[entry_key(e)] = e
            self.pipelines_set += 1

    def _one(self, kind: str, how: str, x) -> None:
        if self.fail_after is not None:
            if self.fail_after <= 0:
                raise BackendError(f"{self.name}: injected failure at {how} {kind} {x}")
            self.fail_after -= 1
        if self.refuse is not None and self.refuse(kind, how, x):
            raise BackendError(f"{self.name}: INVALID_ARGUMENT: {how} of {kind} {x} refused by the target")
        if self.lose is not None and self.lose(kind, how, x):
            self.updates += 1                    # the switch says OK and holds nothing of it
            if self.watch is not None:
                self.watch(self, kind, how, x)
            return
        store = {"members": self.members, "groups": self.groups, "entries": self.entries}[kind]
        key = {"members": member_key, "groups": group_key, "entries": entry_key}[kind](x)
        if how == "insert":
            if key in store:
                raise BackendError(f"{self.name}: ALREADY_EXISTS {kind} {key}")
        elif key not in store:
            raise BackendError(f"{self.name}: NOT_FOUND {how} {kind} {key}")
        if how != "delete":
            if kind == "groups":
                for mid in x.member_ids:
                    if (x.profile, mid) not in self.members:
                        raise BackendError(f"{self.name}: group {x.group_id} names missing member {mid}")
            if kind == "entries" and x.group_id is not None and not any(
                    g.group_id == x.group_id for g in self.groups.values()):
                raise BackendError(f"{self.name}: entry names missing group {x.group_id}")
            store[key] = x
        else:
            if kind == "groups" and any(e.group_id == x.group_id for e in self.entries.values()):
                raise BackendError(f"{self.name}: group {x.group_id} still used")
            if kind == "members" and any(x.member_id in g.member_ids for g in self.groups.values()):
                raise BackendError(f"{self.name}: member {x.member_id} still used")
            del store[key]
        self.updates += 1
        if self.watch is not None:
            self.watch(self, kind, how, x)

    def apply(self, d: Diff) -> WriteReport:
        rep = WriteReport(requests=1)
        with self.lock:
            for how, b in (("insert", d.insert), ("modify", d.modify)):
                for kind in ("members", "groups", "entries"):
                    for x in getattr(b, kind):
                        self._one(kind, "modify" if (how == "insert" and kind == "entries" and x.is_default)
                                  else how, x)
                        setattr(rep, "inserted" if how == "insert" else "modified",
                                getattr(rep, "inserted" if how == "insert" else "modified") + 1)
            for kind in ("entries", "groups", "members"):
                for x in getattr(d.delete, kind):
                    self._one(kind, "delete", x)
                    rep.deleted += 1
        return rep


class FakeBackend(SwitchBackend):
    target = "bmv2"
    concurrent_apply = True                 # as P4Runtime: the device (its lock) orders concurrent calls
    reads_by_key = True                     # as P4Runtime (read_objects below)
    network: dict[str, FakeSwitch] = {}     # address -> device (set per test by make_backend_for)
    epochs = True                           # session_epoch answers (False: None, the cookie always asked)

    def __init__(self, address: SwitchAddress):
        super().__init__(address)
        self.sw = self.network[address.address]
        self.session = None

    def connect(self) -> None:
        sw = self.sw
        with sw.lock:
            if not sw.reachable:
                raise Unreachable(f"{self.address.name}: no answer from {self.address.address}")
            if sw.primary is not None and sw.primary_session is not None and sw.primary > self.address.election_id:
                raise NotPrimary(f"{self.address.name}: another controller is primary (election id {sw.primary}, "
                                 f"ours is {self.address.election_id}); this one does not write")
            self.session = object()
            sw.primary, sw.primary_session = self.address.election_id, self.session
            self.epoch = sw.epoch

    def close(self) -> None:
        with self.sw.lock:
            if self.session is not None and self.sw.primary_session is self.session:
                self.sw.primary_session = None
                self.sw.primary = None
            self.session = None

    @property
    def connected(self) -> bool:
        sw = self.sw
        return (self.session is not None and sw.reachable and sw.primary_session is self.session
                and sw.epoch == self.epoch)

    def session_epoch(self):
        """As a P4Runtime session's: equal while this session stays primary on the same
        device life (``restart`` or another primary ends it); None where ``epochs`` is off."""
        if not self.epochs or not self.connected:
            return None
        return (self.session, self.epoch)

    def _check(self) -> None:
        if not self.connected:
            raise Unreachable(f"{self.address.name}: session down")

    def pipeline_cookie(self):
        self._check()
        return self.sw.cookie

    def set_pipeline(self, pipeline: Pipeline, force: bool = False) -> bool:
        self._check()
        if not force and self.sw.cookie == pipeline.cookie:
            return False
        self.sw.load(pipeline)
        return True

    def read_state(self) -> Batch:
        self._check()
        return self.sw.state()

    def read_objects(self, objects: Batch) -> Batch:
        """By key, as P4Runtime's read of named objects (not the whole state)."""
        self._check()
        sw = self.sw
        with sw.lock:
            return Batch([sw.members[k] for k in map(member_key, objects.members) if k in sw.members],
                         [sw.groups[k] for k in map(group_key, objects.groups) if k in sw.groups],
                         [sw.entries[k] for k in map(entry_key, objects.entries) if k in sw.entries])

    def apply(self, diff: Diff, progress=None) -> WriteReport:
        self._check()
        return self.sw.apply(diff)

    def send_timer(self, slice_id: int, sync: bool = False) -> None:
        self._check()
        self.sw.timers.append(slice_id)
        self.sw.syncs.append(sync)

    def read_counters(self):
        self._check()
        return {k: dict(v) for k, v in self.sw.counters.items()}

    def _clock_check(self) -> None:
        self._check()
        if not self.sw.clock_answers:
            raise BackendError(f"{self.address.name}: no PROBE_REPLY within 1 s")

    def read_clock(self) -> dict[str, int]:
        self._clock_check()
        sw = self.sw
        return {"stratum": sw.stratum, "term": 1, "lead": 0, **sw.clock_registers}

    def probe_clock(self, timeout_s: float = 1.0) -> ClockProbe:
        self._clock_check()
        sw = self.sw
        sent = time.monotonic_ns()
        sw.probes += 1
        received = time.monotonic_ns()
        # stamped at the round trip's midpoint, where the daemon puts it (ClockProbe.offset_ns):
        # a thread held up between the two reads (a loaded machine: 15 ms) moves no offset
        t = (sent + received) // 2 + sw.clock_offset_ns
        return ClockProbe(k=(t // sw.slice_ns) % (1 << 32), phase_ns=t % sw.slice_ns, local_ns=t, stratum=sw.stratum,
                          term=1, lead=0, lead_k=0, sent_ns=sent, received_ns=received)

    def seed_clock(self, k: int, phase_ns: int, reference: bool, lead: bool = False) -> None:
        self._check()
        sw = self.sw
        now = time.monotonic_ns()
        k_now = now // sw.slice_ns       # the 32-bit slice number unwrapped near the host's
        k_full = k_now + ((k - k_now + (1 << 31)) % (1 << 32) - (1 << 31))
        sw.clock_offset_ns = k_full * sw.slice_ns + phase_ns - now
        sw.stratum = 0 if reference else 255
        sw.seeds.append((now, k, phase_ns, reference, lead))


def make_backend_for(network: dict[str, FakeSwitch]):
    class Bound(FakeBackend):
        pass

    Bound.network = network

    def backend_for(target: str):
        if target != "bmv2":
            raise BackendError(f"no switch backend for target {target!r} (available: bmv2)")
        return Bound
    return backend_for


def object_generation(kind: str, x) -> int | None:
    """The route generation a state object belongs to (None: static, or the config entry):
    an entry's ``generation`` key, a selector member's or group's id bit
    (:data:`~controller.tables.state.GENERATION_ID_BIT`)."""
    from controller.agent.desired import entry_generation
    from controller.tables.state import GENERATION_ID_BIT

    if kind == "entries":
        return None if x.is_default else entry_generation(x)
    return (x.group_id if kind == "groups" else x.member_id) >> GENERATION_ID_BIT


def assert_not_live(name: str, live: frozenset, kind: str, how: str, x) -> None:
    """A route object of a generation the switch declares live (its packets are routed
    by it there) is never written or deleted: a swap writes only the generation that is
    not live, and takes a generation out of ``live`` before it deletes it. The one
    exception changes no lookup: a member or group deleted once nothing names it (what a
    prepare leaves for after its flip, :func:`controller.agent.generations.unreachable_deletes`;
    :class:`FakeSwitch` refuses the delete of one still named)."""
    if how == "delete" and kind in ("members", "groups"):
        return
    g = object_generation(kind, x)
    assert g is None or g not in live, f"{name}: {how} of a {kind[:-1]} of live generation {g} (live {sorted(live)})"


def reachable(b: Batch) -> Batch:
    """What lookups reach of ``b``: its entries, the groups they name, the members those
    name. A generation's members and groups that no entry reaches any more wait for their
    delete until after the flip (:func:`controller.agent.generations.unreachable_deletes`):
    a live generation forwards as its reachable part does."""
    gids = {e.group_id for e in b.entries if e.group_id is not None}
    groups = [g for g in b.groups if g.group_id in gids]
    mids = {(g.profile, m) for g in groups for m in g.member_ids}
    return Batch([m for m in b.members if (m.profile, m.member_id) in mids], groups, list(b.entries))


def generation_watcher(role, allowed: dict):
    """(check, seen): ``check`` as a :class:`FakeSwitch` ``watch``, the invariant of a
    switch's route generations after every single update it applies -- unconfigured, or
    its active generation holds one of ``allowed`` ({name: (generation, routes batch)})
    and every live one is complete; and no update of a route object touches a generation
    the switch declares live (not only the active one: a generation still live after the
    sources flipped routes the packets stamped with it). ``seen``: per update, the name
    of the route set active (or "unconfigured")."""
    from controller.agent.diff import same_state
    from controller.agent.generations import split

    seen = []
    cur = {"live": frozenset()}

    def full(sw):
        st = sw.state()
        act, _ = role.active(st)
        cur["live"] = role.live(st)
        if act is None:
            return "unconfigured"
        parts = split(st, role.config_table())
        part = reachable(parts.gens[act])
        match = [name for name, (g, b) in allowed.items() if g == act and same_state(part, b)]
        assert match, f"generation {act} is active but holds neither route set ({len(part.entries)} entries)"
        for g in cur["live"]:   # every live generation (stamps routed by it here) is complete
            assert any(g == h and same_state(reachable(parts.gens[g]), b) for h, b in allowed.values()), \
                f"generation {g} is live but incomplete ({len(parts.gens[g].entries)} entries)"
        return match[0]

    def check(sw, kind, how, x):
        """Full check when the config entry changes (the live set only changes then);
        otherwise the update must not touch a live generation."""
        if kind == "entries" and x.is_default:
            seen.append(full(sw))
            return
        seen.append(seen[-1] if seen else full(sw))
        assert_not_live(sw.name, cur["live"], kind, how, x)
    return check, seen


# ---- the programs' contracts, as the renderer writes them ---------------------------------------
import copy


def contract(program: str = "tor", profile: str = "tiny") -> dict:
    from controller.p4gen import profile as prof
    from controller.p4gen import render

    return copy.deepcopy(render.contract(prof.load(profile), program))


# ---- a network config on disk ---------------------------------------------------------------------
import json as _json
from pathlib import Path as _Path


def write_programs(tmp: _Path, profile: str = "tiny") -> dict[str, dict]:
    """Contract + (fake) program files for the tor and ocs programs; returns {role: files}."""
    out = {}
    for prog in ("tor", "ocs"):
        c = contract(prog, profile)
        base = tmp / f"{prog}_{profile}"
        (base.parent).mkdir(parents=True, exist_ok=True)
        _Path(f"{base}.contract.json").write_text(_json.dumps(c))
        _Path(f"{base}.p4info.txtpb").write_text(f"# p4info of {prog}\n")
        _Path(f"{base}.json").write_text("{}\n")
        out[prog] = {"contract": f"{base}.contract.json", "p4info": f"{base}.p4info.txtpb",
                     "device_config": f"{base}.json"}
    return out


def _toml(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + "}"
    if isinstance(v, bool):
        return "true" if v else "false"
    return _json.dumps(v)


def net_toml(tmp: _Path, switches: list[dict], *, extra: str = "", routing: str | None = None,
             schedule: str | None = None, profile: str = "tiny", clock: str = "slice_ms = 50",
             daemon: str = 'status = "127.0.0.1:0"\nreconcile_s = 10') -> _Path:
    progs = write_programs(tmp, profile)
    lines = ['name = "test"', "", "[schedule]",
             schedule or 'generate = "round-robin"\ntors = 8\nuplinks = 2', "",
             "[routing]", routing or 'source_routed = [5]\n[routing.per_hop]\nalgo = "uro"\nk = 3\nmax_hops = 4\n'
             '[routing.source]\nalgo = "ucmp"\nh_max = 4\nengine = "numpy"', "",
             "[clock]", clock, "", "[daemon]", daemon, "", "[tls]", "insecure = true", ""]
    for role, files in progs.items():
        lines.append(f"[program.{role}]")
        lines += [f'{k} = "{v}"' for k, v in files.items()]
        lines.append("")
    lines.append(extra)
    for s in switches:
        lines.append("[[switch]]")
        for k, v in s.items():
            if k == "ports":
                continue
            lines.append(f"{k} = {_toml(v)}")
        if "ports" in s:
            lines.append("[switch.ports]")
            for k, v in s["ports"].items():
                lines.append(f"{k} = {_json.dumps(v)}")
        lines.append("")
    p = tmp / "net.toml"
    p.write_text("\n".join(lines))
    return p


def tor_switch(t: int, port: int | None = None, **kw) -> dict:
    d = {"name": f"tor{t}", "role": "tor", "tor": t, "address": f"127.0.0.1:{port or 50000 + t}",
         "election_id": 10, "ports": {"hosts": [0, 1], "uplinks": [2, 3]}}
    d.update(kw)
    return d


def ocs_switch(port: int = 50100, **kw) -> dict:
    d = {"name": "ocs", "role": "ocs", "address": f"127.0.0.1:{port}", "election_id": 10}
    d.update(kw)
    return d
