"""Compiled routes -> table entries named by the pipeline contract.

Target-neutral values (ints) keyed by the contract's table/key/action/parameter names;
the agent (:mod:`controller.agent.p4runtime`) encodes them for P4Runtime after checking
them against the P4Info. Every value is checked against its bit width here, so a route
that does not fit the profile is refused with the table and field named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from controller.errors import UroError


@dataclass(frozen=True)
class TableEntry:
    table: str                                   # full P4 name, e.g. UroIngress.uro_next_hop
    match: tuple[tuple[str, object], ...]        # (key name, int | (int, prefix_len))
    action: str | None = None                    # full action name (None for group entries)
    params: tuple[tuple[str, int], ...] = ()
    is_default: bool = False
    group_id: int | None = None                  # action-selector group instead of an action
    priority: int = 0                            # > 0 for tables with range/ternary keys


@dataclass(frozen=True)
class Member:
    profile: str
    member_id: int
    action: str
    params: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Group:
    profile: str
    group_id: int
    member_ids: tuple[int, ...]


@dataclass
class Batch:
    """What to write, in dependency order: members, groups, then table entries."""

    members: list[Member] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    entries: list[TableEntry] = field(default_factory=list)

    def extend(self, other: "Batch") -> "Batch":
        self.members += other.members
        self.groups += other.groups
        self.entries += other.entries
        return self


class EntryError(UroError):
    pass


def _fit(table: str, what: str, value: int, bits: int) -> int:
    if not isinstance(value, int) or value < 0 or value >= (1 << bits):
        raise EntryError(f"{table}: {what} = {value!r} does not fit {bits} bits")
    return value


def _table(contract: dict, short: str) -> dict:
    try:
        return contract["tables"][short]
    except KeyError:
        raise EntryError(f"table {short!r} is not in the pipeline contract of program "
                         f"{contract.get('program')!r}") from None


def make_entry(contract: dict, short: str, match: dict, action: str | None, params: dict | None = None,
               is_default: bool = False, group_id: int | None = None, priority: int = 1) -> TableEntry:
    """One entry of table ``short``; lpm keys take (value, prefix_len), range keys (low, high).

    Tables with a range key get ``priority`` (P4Runtime wants one > 0 there), others none."""
    t = _table(contract, short)
    name = t["name"]
    keys = []
    if not is_default:
        given = dict(match)
        for k in t["keys"]:
            if k["name"] not in given:
                raise EntryError(f"{name}: missing key {k['name']!r}")
            v = given.pop(k["name"])
            if k["match"] == "lpm":
                val, plen = v if isinstance(v, tuple) else (v, k["bitwidth"])
                _fit(name, f"key {k['name']}", val, k["bitwidth"])
                if not 0 <= plen <= k["bitwidth"]:
                    raise EntryError(f"{name}: prefix length {plen} of key {k['name']} out of 0..{k['bitwidth']}")
                keys.append((k["name"], (val, plen)))
            elif k["match"] == "range":
                if not (isinstance(v, tuple) and len(v) == 2):
                    raise EntryError(f"{name}: range key {k['name']} needs (low, high), got {v!r}")
                lo = _fit(name, f"key {k['name']} low", v[0], k["bitwidth"])
                hi = _fit(name, f"key {k['name']} high", v[1], k["bitwidth"])
                if lo > hi:
                    raise EntryError(f"{name}: range key {k['name']} low {lo} > high {hi}")
                keys.append((k["name"], (lo, hi)))
            else:
                keys.append((k["name"], _fit(name, f"key {k['name']}", v, k["bitwidth"])))
        if given:
            raise EntryError(f"{name}: unknown key {sorted(given)[0]!r}")
    ps = ()
    if action is not None:
        if action not in t["actions"]:
            raise EntryError(f"{name}: unknown action {action!r} (known: {', '.join(t['actions'])})")
        a = t["actions"][action]
        given = dict(params or {})
        out = []
        for prm in a["params"]:
            if prm["name"] not in given:
                raise EntryError(f"{a['name']}: missing parameter {prm['name']!r}")
            out.append((prm["name"], _fit(a["name"], f"parameter {prm['name']}", given.pop(prm["name"]),
                                          prm["bitwidth"])))
        if given:
            raise EntryError(f"{a['name']}: unknown parameter {sorted(given)[0]!r}")
        ps = tuple(out)
        action = a["name"]
    ranged = any(k["match"] in ("range", "ternary") for k in t["keys"])
    if ranged and not is_default and priority < 1:
        raise EntryError(f"{name}: entries of a table with range keys need a priority >= 1")
    return TableEntry(name, tuple(keys), action, ps, is_default, group_id,
                      priority if ranged and not is_default else 0)


# ---- ToR program -------------------------------------------------------------------------
def _param_names(contract: dict, short: str, action: str) -> set[str]:
    return {p["name"] for p in _table(contract, short)["actions"][action]["params"]}


def config_entry(contract: dict, my_tor: int, capacity_bytes: int | None = None) -> TableEntry:
    """The ToR's config; the slice capacity is a parameter where the program takes it at
    run time (a t2na program has it compiled in: its contract has no such parameter)."""
    params = {"my_tor": my_tor}
    if "capacity_bytes" in _param_names(contract, "config", "set_config"):
        params["capacity_bytes"] = contract["profile"]["slice_capacity_bytes"] if capacity_bytes is None else capacity_bytes
    elif capacity_bytes is not None and capacity_bytes != contract["profile"]["slice_capacity_bytes"]:
        raise EntryError(f"config: program {contract.get('program')!r} for {contract.get('target')} has its slice "
                         f"capacity compiled in ({contract['profile']['slice_capacity_bytes']} bytes), "
                         f"{capacity_bytes} asked")
    return make_entry(contract, "config", {}, "set_config", params, is_default=True)


def host_entries(contract: dict, remote: dict[tuple[int, int], int] | None = None,
                 local: dict[tuple[int, int], int] | None = None) -> list[TableEntry]:
    """remote: {(ip, prefix_len): dst ToR}; local: {(ip, prefix_len): host port}."""
    out = []
    for (ip, plen), tor in (remote or {}).items():
        out.append(make_entry(contract, "host_dst", {"dst_addr": (ip, plen)}, "set_dst_tor", {"tor": tor}))
    for (ip, plen), port in (local or {}).items():
        out.append(make_entry(contract, "host_dst", {"dst_addr": (ip, plen)}, "deliver_local", {"port": port}))
    return out


def route_mode_entry(contract: dict, dst_tor: int, source_routed: bool) -> TableEntry:
    return make_entry(contract, "route_mode", {"dst_tor": dst_tor},
                      "source_route" if source_routed else "per_hop")


def uro_entry(contract: dict, arrival_slice: int, dst_tor: int,
              alternatives: Sequence[tuple[int, int]]) -> TableEntry:
    """One URO entry: alternatives = [(uplink, departure slice)], first = preferred.

    A program whose entries hold the wait (``wait<i>``: slices from arrival, which the key
    fixes) instead of the departure slice (``slice<i>``) gets ``(departure - arrival) mod S``."""
    k = contract["profile"]["alternatives"]
    if not 1 <= len(alternatives) <= k:
        raise EntryError(f"uro_next_hop (slice {arrival_slice}, dst {dst_tor}): {len(alternatives)} alternatives, "
                         f"the profile holds 1..{k}")
    waits = "wait0" in _param_names(contract, "uro_next_hop", "set_alternatives")
    S = contract["profile"]["slices"]
    params = {"n": len(alternatives)}
    for i in range(k):
        up, sl = alternatives[i] if i < len(alternatives) else (0, arrival_slice if waits else 0)
        params[f"up{i}"] = up
        if waits:
            if not (isinstance(sl, int) and 0 <= sl < S):
                raise EntryError(f"uro_next_hop (slice {arrival_slice}, dst {dst_tor}): departure slice {sl!r} "
                                 f"of alternative {i} is not in 0..{S - 1}")
            params[f"wait{i}"] = (sl - arrival_slice) % S
        else:
            params[f"slice{i}"] = sl
    return make_entry(contract, "uro_next_hop", {"arrival_slice": arrival_slice, "dst_tor": dst_tor},
                      "set_alternatives", params)


def _check_fits(contract: dict, sched) -> dict:
    """The contract's profile, if routes computed on ``sched`` fit it (else EntryError)."""
    prof = contract["profile"]
    if sched.n_tors > prof["tors"] or sched.n_uplinks > prof["uplinks"] or sched.n_slices != prof["slices"]:
        raise EntryError(
            f"routes for {sched.n_tors} ToRs x {sched.n_uplinks} uplinks x {sched.n_slices} slices do not fit "
            f"profile {prof['name']!r} ({prof['tors']} x {prof['uplinks']} x {prof['slices']})")
    return prof


def uro_entries(contract: dict, routes, tor: int) -> list[TableEntry]:
    """All per-hop entries of one ToR from URO routes (controller.tables.perhop.entries)."""
    from controller.tables import perhop

    prof = _check_fits(contract, routes.schedule)
    out = []
    for e in perhop.entries(routes, tor):
        if not e.alternatives:
            continue  # unreachable: the table miss drops and counts no_route
        alts = [(a.uplink, a.dep_slice) for a in e.alternatives[: prof["alternatives"]]]
        out.append(uro_entry(contract, e.slice, e.dst, alts))
    return out


def ssrr_bucket_entry(contract: dict, dscp: int, bucket: int) -> TableEntry:
    return make_entry(contract, "ssrr_bucket", {"dscp": dscp}, "set_bucket", {"bucket": bucket})


def _path_params(contract: dict, path: Sequence[tuple[int, int, int]]) -> dict:
    h = contract["profile"]["ssrr_hops"]
    if not 1 <= len(path) <= h:
        raise EntryError(f"ssrr_path: a path of {len(path)} hops, the profile holds 1..{h}")
    params = {"n": len(path)}
    for i in range(h):
        tor, up, sl = path[i] if i < len(path) else (0, 0, 0)
        params.update({f"tor{i}": tor, f"up{i}": up, f"slice{i}": sl})
    return params


def ssrr_group(contract: dict, dst_tor: int, start_slice: int, bucket: int | tuple[int, int],
               paths: Sequence[Sequence[tuple[int, int, int]]], group_id: int, first_member_id: int) -> Batch:
    """A (dst, start slice, bucket range) entry whose tied paths share one selector group.

    A path is [(next_tor, uplink, send_slice)] from the source ToR on; ``bucket`` is one
    bucket or an inclusive (low, high) range.
    """
    if isinstance(bucket, int):
        bucket = (bucket, bucket)
    t = _table(contract, "ssrr_path")
    prof_name = t["action_profile"]
    action = t["actions"]["write_path"]["name"]
    b = Batch()
    for i, path in enumerate(paths):
        e = make_entry(contract, "ssrr_path", {"dst_tor": dst_tor, "start_slice": start_slice, "bucket": bucket[0]}
                       if _key_match(t, "bucket") == "exact" else
                       {"dst_tor": dst_tor, "start_slice": start_slice, "bucket": bucket},
                       "write_path", _path_params(contract, path))
        b.members.append(Member(prof_name, first_member_id + i, action, e.params))
    b.groups.append(Group(prof_name, group_id, tuple(m.member_id for m in b.members)))
    bucket_key = next(k for k in t["keys"] if k["name"] == "bucket")
    if bucket_key["match"] == "exact":      # one entry per bucket of the range, all to the group
        # buckets come from DSCP (6 bits, ssrr_bucket): larger ones are never looked up
        for bk in range(bucket[0], min(bucket[1], DSCP_BUCKETS - 1) + 1):
            b.entries.append(make_entry(contract, "ssrr_path",
                                        {"dst_tor": dst_tor, "start_slice": start_slice, "bucket": bk},
                                        None, group_id=group_id))
    else:
        b.entries.append(make_entry(contract, "ssrr_path",
                                    {"dst_tor": dst_tor, "start_slice": start_slice, "bucket": bucket},
                                    None, group_id=group_id))
    return b


#: buckets a packet can carry: the DSCP -> bucket map covers the 64 DSCP values
DSCP_BUCKETS = 64


def _key_match(table: dict, key: str) -> str:
    return next(k["match"] for k in table["keys"] if k["name"] == key)


def ssrr_entries(contract: dict, routes, tor: int) -> Batch:
    """All source-route entries of one ToR from path routes (UCMP or a baseline).

    One selector group per (dst, start slice, bucket range): its members are the tied
    paths (:func:`controller.source_tables.entries`); a DSCP -> bucket entry for every
    DSCP value (identity, the host tags the bucket index, UCMP §6.1). Schemes without
    buckets match the whole bucket range.
    """
    from controller.tables import source as source_tables

    prof = _check_fits(contract, routes.schedule)
    b = Batch()
    gid, mid = 1, 1
    for e in source_tables.entries(routes, tor):
        paths = [p for p in e.paths if len(p) <= prof["ssrr_hops"]]
        if not paths:
            raise EntryError(f"ssrr_path (src {tor}, dst {e.dst}, slice {e.slice}): every path has more "
                             f"than ssrr_hops = {prof['ssrr_hops']} hops")
        b.extend(ssrr_group(contract, e.dst, e.slice, e.buckets, paths, gid, mid))
        gid, mid = gid + 1, mid + len(paths)
    b.entries += [ssrr_bucket_entry(contract, d, d) for d in range(64)]
    return b


# ---- OCS emulator ------------------------------------------------------------------------
def circuit_entries(contract: dict, schedule) -> list[TableEntry]:
    """(slice, in port) -> out port for every circuit of the schedule; port = tor * d + uplink."""
    prof = contract["profile"]
    d = prof["uplinks"]
    if schedule.n_tors != prof["tors"] or schedule.n_uplinks != d or schedule.n_slices != prof["slices"]:
        raise EntryError(f"schedule {schedule.n_tors}x{schedule.n_uplinks}x{schedule.n_slices} does not match "
                         f"profile {prof['name']!r} ({prof['tors']}x{d}x{prof['slices']})")
    out = []
    for s in range(schedule.n_slices):
        for a in range(schedule.n_tors):
            for u in range(d):
                b = int(schedule.peer[s, a, u])
                if b >= 0:
                    out.append(make_entry(contract, "circuit", {"slice": s, "in_port": a * d + u},
                                          "connect", {"port": b * d + u}))
    return out


def all_entries(entries: Iterable[TableEntry]) -> Batch:
    return Batch(entries=list(entries))
