"""Compiled routes -> table entries named by the pipeline contract.

Target-neutral values (ints) keyed by the contract's table/key/action/parameter names;
the agent (:mod:`controller.agent.p4runtime`) encodes them for P4Runtime after checking
them against the P4Info. Every value is checked against its bit width here, so a route
that does not fit the profile is refused with the table and field named; nothing is
silently cut (a path longer than the profile's H, more alternatives than its K, more
entries than a table holds: an :class:`EntryError` with the numbers).

The objects built (:class:`~controller.tables.state.TableEntry`, members, groups, batches)
and their generations are :mod:`controller.tables.state`. A ToR's entries are built in bulk
by :mod:`controller.tables.bulk` (``uro_entries``, ``ssrr_entries``, ``ssrr_exact_entries``);
the one-entry-at-a-time ``*_reference`` builders here are what it is tested against.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from controller.tables import perhop, source as source_tables
from controller.tables.state import (GENERATION_ID_BIT, Batch, EntryError, Group, Member, TableEntry, check_generation,
                                     entry_tables, gen_id)


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
    """One entry of table ``short``; lpm keys take (value, prefix_len), range keys (low, high),
    ternary keys (value, mask).

    Tables with a range or ternary key get ``priority`` (P4Runtime wants one > 0 there),
    others none."""
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
            elif k["match"] == "ternary":
                if not (isinstance(v, tuple) and len(v) == 2):
                    raise EntryError(f"{name}: ternary key {k['name']} needs (value, mask), got {v!r}")
                val = _fit(name, f"key {k['name']} value", v[0], k["bitwidth"])
                mask = _fit(name, f"key {k['name']} mask", v[1], k["bitwidth"])
                if val & ~mask:
                    raise EntryError(f"{name}: ternary key {k['name']} value {val:#x} has bits outside mask {mask:#x}")
                keys.append((k["name"], (val, mask)))
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
def tor_config_entry(contract: dict, my_tor: int, generation: int = 0, down: int = 0,
                     capacity_bytes: int | None = None, bytes_per_us: int | None = None,
                     max_timer_step: int | None = None, live: int | None = None, dead: int = 0) -> TableEntry:
    """The ToR's config (the config table's default entry, written as MODIFY).

    ``generation`` is the route generation this ToR stamps into the packets it sources
    (docs/p4.md "Route generations"); ``live`` the bitmask (bit g = generation g) of the
    generations complete on this ToR, by which packets stamped elsewhere are routed
    (default: just ``generation``; it must include it).
    ``down`` is the failed-uplink bitmask (bit u = uplink u); ``capacity_bytes`` bytes one
    calendar queue takes per slice (default: the profile's slice capacity);
    ``bytes_per_us`` the uplink rate that ages the active queue (default: the profile's
    link rate; 0 turns the time-left rule off, for a clock stepped by hand);
    ``max_timer_step`` the largest clock step a timer may make (default: the profile's)."""
    prof = contract["profile"]
    params = {
        "my_tor": my_tor,
        "generation": check_generation(generation),
        "live": (1 << generation) if live is None else live,
        "down": down,
        "dead": dead,
        "capacity_bytes": prof["slice_capacity_bytes"] if capacity_bytes is None else capacity_bytes,
        "bytes_per_us": prof["link_bytes_per_us"] if bytes_per_us is None else bytes_per_us,
        "max_timer_step": prof["default_max_timer_step"] if max_timer_step is None else max_timer_step,
    }
    if not isinstance(params["live"], int) or not 0 <= params["live"] <= 3 or not params["live"] >> generation & 1:
        raise EntryError(f"config: live generations {params['live']!r} must be a 2-bit mask that includes the "
                         f"stamped generation {generation}")
    if not 0 <= my_tor < prof["tors"]:
        raise EntryError(f"ToR {my_tor} is not in profile {prof['name']!r} (0..{prof['tors'] - 1})")
    if isinstance(params["max_timer_step"], int) and not 1 <= params["max_timer_step"] < max(2, prof["slices"]):
        raise EntryError(f"max_timer_step = {params['max_timer_step']} out of 1..{max(1, prof['slices'] - 1)} "
                         f"(S = {prof['slices']})")
    # a program with these compiled in (t2na: the timer plan fixes capacity and rate, the
    # packet generator is the clock) has no such parameter: only defaults are accepted
    takes = _param_names(contract, "config", "set_config")
    if "dead" not in takes:
        if dead:
            raise EntryError(f"config: the {contract.get('target')} program has no dead (slice, uplink) mask")
        del params["dead"]
    for name, given in (("capacity_bytes", capacity_bytes), ("bytes_per_us", bytes_per_us),
                        ("max_timer_step", max_timer_step)):
        if name not in takes:
            if given is not None:
                raise EntryError(f"config: the {contract.get('target')} program has no run-time {name} "
                                 f"(compiled in from the profile), {given} asked")
            del params[name]
    return make_entry(contract, "config", {}, "set_config", params, is_default=True)


def _param_names(contract: dict, short: str, action: str) -> set[str]:
    return {p["name"] for p in _table(contract, short)["actions"][action]["params"]}


def host_entries(contract: dict, remote: dict[tuple[int, int], int] | None = None,
                 local: dict[tuple[int, int], int] | None = None) -> list[TableEntry]:
    """remote: {(ip, prefix_len): dst ToR}; local: {(ip, prefix_len): host port}."""
    out = []
    for (ip, plen), tor in (remote or {}).items():
        out.append(make_entry(contract, "host_dst", {"dst_addr": (ip, plen)}, "set_dst_tor", {"tor": tor}))
    for (ip, plen), port in (local or {}).items():
        out.append(make_entry(contract, "host_dst", {"dst_addr": (ip, plen)}, "deliver_local", {"port": port}))
    return out


def route_mode_entry(contract: dict, dst_tor: int, source_routed: bool, generation: int = 0) -> TableEntry:
    return make_entry(contract, "route_mode", {"generation": check_generation(generation), "dst_tor": dst_tor},
                      "source_route" if source_routed else "per_hop")


def uro_entry(contract: dict, arrival_slice: int, dst_tor: int,
              alternatives: Sequence[tuple[int, int]], generation: int = 0) -> TableEntry:
    """One URO entry: alternatives = [(uplink, departure slice)], first = preferred.

    A program whose entries hold the wait (``wait<i>``: slices from arrival, which the key
    fixes; t2na) instead of the departure slice (``slice<i>``) gets ``(departure - arrival) mod S``."""
    prof = contract["profile"]
    k = prof["alternatives"]
    where = f"uro_next_hop (slice {arrival_slice}, dst {dst_tor})"
    waits = "wait0" in _param_names(contract, "uro_next_hop", "set_alternatives")
    if not 1 <= len(alternatives) <= k:
        raise EntryError(f"{where}: {len(alternatives)} alternatives, the profile holds 1..{k}")
    params = {"n": len(alternatives)}
    for i in range(k):
        up, sl = alternatives[i] if i < len(alternatives) else (0, 0)
        if i < len(alternatives) and not (0 <= up < prof["uplinks"] and 0 <= sl < prof["slices"]):
            raise EntryError(f"{where}: alternative {i} (uplink {up}, slice {sl}) is outside "
                             f"{prof['uplinks']} uplinks x {prof['slices']} slices")
        params[f"up{i}"] = up
        if waits:
            params[f"wait{i}"] = (sl - arrival_slice) % prof["slices"] if i < len(alternatives) else 0
        else:
            params[f"slice{i}"] = sl
    return make_entry(contract, "uro_next_hop",
                      {"generation": check_generation(generation), "arrival_slice": arrival_slice, "dst_tor": dst_tor},
                      "set_alternatives", params)


def check_fits(contract: dict, sched) -> dict:
    """The contract's profile, if routes computed on ``sched`` fit it (else EntryError)."""
    prof = contract["profile"]
    if sched.n_tors > prof["tors"] or sched.n_uplinks > prof["uplinks"] or sched.n_slices != prof["slices"]:
        raise EntryError(
            f"routes for {sched.n_tors} ToRs x {sched.n_uplinks} uplinks x {sched.n_slices} slices do not fit "
            f"profile {prof['name']!r} ({prof['tors']} x {prof['uplinks']} x {prof['slices']})")
    return prof




def uro_entries_reference(contract: dict, routes, tor: int, generation: int = 0) -> list[TableEntry]:
    """All per-hop entries of one ToR from URO routes (controller.tables.perhop.entries),
    one :func:`uro_entry` each: the reference :func:`uro_entries` must equal.

    Every alternative of an entry is written: routes with more alternatives than the
    profile's K are refused (compute them with k <= K), never cut."""
    prof = check_fits(contract, routes.schedule)
    out = []
    for e in perhop.entries(routes, tor):
        if not e.alternatives:
            continue  # unreachable: the table miss drops and counts no_route
        if len(e.alternatives) > prof["alternatives"]:
            raise EntryError(f"uro_next_hop (src {tor}, slice {e.slice}, dst {e.dst}): the routes carry "
                             f"{len(e.alternatives)} alternatives, profile {prof['name']!r} holds "
                             f"K = {prof['alternatives']}; compute the routes with k <= {prof['alternatives']}")
        alts = [(a.uplink, a.dep_slice) for a in e.alternatives]
        out.append(uro_entry(contract, e.slice, e.dst, alts, generation))
    return out


def ssrr_bucket_entry(contract: dict, dscp: int, bucket: int) -> TableEntry:
    return make_entry(contract, "ssrr_bucket", {"dscp": dscp}, "set_bucket", {"bucket": bucket})


def _path_params(contract: dict, path: Sequence[tuple[int, int, int]], where: str = "ssrr_path") -> dict:
    prof = contract["profile"]
    h = prof["ssrr_hops"]
    if not 1 <= len(path) <= h:
        raise EntryError(f"{where}: a path of {len(path)} hops, profile {prof['name']!r} holds "
                         f"1..{h} (ssrr_hops)")
    params = {"n": len(path)}
    for i in range(h):
        tor, up, sl = path[i] if i < len(path) else (0, 0, 0)
        if i < len(path) and not (0 <= tor < prof["tors"] and 0 <= up < prof["uplinks"] and 0 <= sl < prof["slices"]):
            raise EntryError(f"{where}: hop {i} (ToR {tor}, uplink {up}, slice {sl}) is outside "
                             f"{prof['tors']} ToRs x {prof['uplinks']} uplinks x {prof['slices']} slices")
        params.update({f"tor{i}": tor, f"up{i}": up, f"slice{i}": sl})
    return params


def ssrr_group(contract: dict, dst_tor: int, start_slice: int, bucket: int | tuple[int, int],
               paths: Sequence[Sequence[tuple[int, int, int]]], group_id: int, first_member_id: int,
               generation: int = 0) -> Batch:
    """A (generation, dst, start slice, bucket range) entry whose tied paths share one
    selector group.

    A path is [(next_tor, uplink, send_slice)] from the source ToR on; ``bucket`` is one
    bucket or an inclusive (low, high) range. ``group_id``/``first_member_id`` are the
    full P4Runtime ids (see :func:`gen_id`).
    """
    if isinstance(bucket, int):
        bucket = (bucket, bucket)
    t = _table(contract, "ssrr_path")
    prof_name = t["action_profile"]
    where = f"ssrr_path (dst {dst_tor}, slice {start_slice}, buckets {bucket[0]}..{bucket[1]})"
    match = {"generation": check_generation(generation), "dst_tor": dst_tor, "start_slice": start_slice, "bucket": bucket}
    b = Batch()
    for i, path in enumerate(paths):
        mid = first_member_id + i
        e = make_entry(contract, "ssrr_path", match, "write_path", _path_params(contract, path, where))
        b.members.append(Member(prof_name, mid, t["actions"]["write_path"]["name"], e.params))
    b.groups.append(Group(prof_name, group_id, tuple(m.member_id for m in b.members)))
    b.entries.append(make_entry(contract, "ssrr_path", match, None, group_id=group_id))
    return b




def ssrr_entries_reference(contract: dict, routes, tor: int, generation: int = 0,
                           dsts: Iterable[int] | None = None) -> Batch:
    """The reference :func:`ssrr_entries` must equal: one :func:`ssrr_group` per entry.

    One selector group per (dst, start slice, bucket range): its members are the tied
    paths (:func:`controller.tables.source.entries`); a program without the selector
    (t2na: ``ssrr_level`` in the contract) gets :func:`ssrr_exact_entries` instead. A path
    longer than the profile's H hops is refused with the entry named (never dropped from its
    group). The DSCP -> bucket map is generation-independent: :func:`dscp_entries`.
    """
    if "ssrr_level" in contract["tables"]:
        return ssrr_exact_entries_reference(contract, routes, tor, generation, dsts)
    prof = check_fits(contract, routes.schedule)
    rows = list(source_tables.entries(routes, tor, dsts))
    per = selector_ids(contract, routes.schedule, rows)
    b = Batch()
    gid, mid = 1, 1
    for e in rows:
        _check_hops(prof, tor, e.dst, e.slice, e.buckets, e.paths)
        if per is not None:
            gid = stable_group_id(routes.schedule, prof, e.dst, e.slice, e.buckets)
            mid = (gid - 1) * per + 1
        b.extend(ssrr_group(contract, e.dst, e.slice, e.buckets, e.paths, gen_id(generation, gid),
                            gen_id(generation, mid), generation))
        gid, mid = gid + 1, mid + len(e.paths)
    return b


def selector_ids(contract: dict, schedule, rows=None) -> int | None:
    """Members per group of the content-stable selector ids, or None (sequential ids):
    a group's id is the key of its ``ssrr_path`` entry (dst, start slice, first bucket;
    :func:`stable_group_id`), its members follow at the profile's ``max_group_size`` per
    group. Stable ids make two route versions differ only where their paths do, so a
    diff-only write into the non-live generation (docs/daemon.md "Diff-only writes")
    touches only the groups that changed; sequential ids shift every later group when one
    group changes size (6831 of 6948 objects of a (108, 6) ToR differed after a failure).
    None where the ids would not fit 31 bits, or a group of ``rows`` holds more paths
    than a group may (numbered: the size check then names it)."""
    g = contract.get("action_profiles", {}).get("ssrr_selector", {}).get("max_group_size")
    if not isinstance(g, int) or g < 1:
        return None
    n = schedule.n_tors * schedule.n_slices * (1 << contract["profile"].get("bucket_bits", 8))
    if n * g >= (1 << GENERATION_ID_BIT):
        return None
    if rows is not None and any(len(e.paths) > g or _first_bucket(e.buckets) >> contract["profile"].get(
            "bucket_bits", 8) for e in rows):
        return None
    return g


def _first_bucket(buckets) -> int:
    return buckets if isinstance(buckets, int) else buckets[0]


def stable_group_id(schedule, prof: dict, dst: int, start_slice: int, buckets) -> int:
    """The selector group id (without the generation bit) of the ``ssrr_path`` entry
    (dst, start slice, buckets from ``buckets``): see :func:`selector_ids`."""
    return ((dst * schedule.n_slices + start_slice) << prof.get("bucket_bits", 8)) + _first_bucket(buckets) + 1


def _check_hops(prof: dict, tor: int, dst: int, t: int, buckets: tuple[int, int], paths) -> None:
    for p in paths:
        if len(p) > prof["ssrr_hops"]:
            raise EntryError(f"ssrr_path (src {tor}, dst {dst}, slice {t}, buckets {buckets[0]}..{buckets[1]}): a "
                             f"tied path of {len(p)} hops, profile {prof['name']!r} holds ssrr_hops = "
                             f"{prof['ssrr_hops']}; compute the routes with h_max <= {prof['ssrr_hops']}")




def ssrr_exact_entries_reference(contract: dict, routes, tor: int, generation: int = 0,
                                 dsts: Iterable[int] | None = None) -> Batch:
    """The source routes of one ToR as exact entries and a hash pick (t2na, UCMP §6.2),
    one :func:`path_entries` per tied path: the reference :func:`ssrr_exact_entries` must equal.

    A (dst, start slice) group is one ``ssrr_path`` entry naming the group (ids from 1, in
    route order) and its shape; a shape -- the group's bucket ranges in order, each with its
    tie count -- is numbered from 1 the first time it is met and written once as
    ``ssrr_level`` range entries (range i -> ``level_<ties>(level=i)``); each tied path is an
    ``ssrr_first`` and an ``ssrr_hops`` entry keyed (group, level, member) (:func:`path_entries`).
    The data plane picks member = flow hash mod ties. Every id is checked against its key
    width, with the profile key to raise named."""
    from itertools import groupby

    prof = check_fits(contract, routes.schedule)
    S = prof["slices"]
    g = check_generation(generation)
    shapes: dict[tuple, int] = {}
    b = Batch()
    for gid, ((dst, t), levels) in enumerate(groupby(source_tables.entries(routes, tor, dsts),
                                                      key=lambda e: (e.dst, e.slice)), start=1):
        levels = list(levels)
        actions = _table(contract, "ssrr_level")["actions"]
        for e in levels:
            _check_hops(prof, tor, dst, t, e.buckets, e.paths)
            if f"level_{len(e.paths)}" not in actions:
                raise EntryError(f"ssrr_level (src {tor}, dst {dst}, slice {t}): a bucket range of {len(e.paths)} "
                                 f"tied paths, profile {prof['name']!r} holds {prof['tables']['ssrr_ties']} "
                                 "(tables.ssrr_ties)")
        shape = tuple((e.buckets, len(e.paths)) for e in levels)
        sid = shapes.setdefault(shape, len(shapes) + 1)
        where = f"ssrr_path (src {tor}, dst {dst}, slice {t})"
        if gid >= 1 << _param_width(contract, "ssrr_path", "set_group", "group"):
            raise EntryError(f"{where}: group {gid}, profile {prof['name']!r} holds {prof['ssrr_dsts']} x {S} groups "
                             f"per generation (tables.ssrr_dsts x S); source-route at most {prof['ssrr_dsts']} "
                             "destinations here")
        if sid >= 1 << _param_width(contract, "ssrr_path", "set_group", "shape"):
            raise EntryError(f"{where}: shape {sid}: more distinct group shapes (bucket ranges and ties) than "
                             f"profile {prof['name']!r} holds; raise tables.ssrr_shapes")
        b.entries.append(make_entry(contract, "ssrr_path", {"generation": g, "dst_tor": dst, "start_slice": t},
                                    "set_group", {"group": gid, "shape": sid}))
        for lv, e in enumerate(levels):
            for m, path in enumerate(e.paths):
                b.entries += path_entries(contract, gid, lv, m, path, t, generation, dst)
    for shape, sid in shapes.items():
        for lv, (buckets, ties) in enumerate(shape):
            b.entries.append(make_entry(contract, "ssrr_level", {"generation": g, "shape": sid, "bucket": buckets},
                                        f"level_{ties}", {"level": lv}, priority=lv + 1))
    return b


def path_entries(contract: dict, group: int, level: int, member: int, path: Sequence[tuple[int, int, int]],
                 start_slice: int, generation: int = 0, dst: int | None = None) -> list[TableEntry]:
    """A t2na path ([(next ToR, uplink, send slice)], n hops) as its two entries keyed
    (generation, group, level, member): ``ssrr_first`` ``first_<n>`` (hop 0's uplink and
    its wait from the start slice: what the queue test needs) and ``ssrr_hops``
    ``write_path_<n>`` in egress (the ToRs of hops before the last -- the last must be ``dst``
    and is not stored -- and every hop's uplink and send slice)."""
    prof = contract["profile"]
    where = f"ssrr_hops (group {group}, level {level}, member {member})"
    params = _path_params(contract, path, where)
    n = params.pop("n")
    if dst is not None and path[-1][0] != dst:
        raise EntryError(f"{where}: the path ends at ToR {path[-1][0]}, not at its destination {dst}")
    key = {"generation": check_generation(generation), "group": group, "level": level, "member": member}
    first = {"up0": params["up0"], "wait0": (path[0][2] - start_slice) % prof["slices"]}
    rest = {f"tor{h}": params[f"tor{h}"] for h in range(n - 1)}
    rest.update({f"{f}{h}": params[f"{f}{h}"] for h in range(n) for f in ("up", "slice")})
    return [make_entry(contract, "ssrr_first", key, f"first_{n}", first),
            make_entry(contract, "ssrr_hops", key, f"write_path_{n}", rest)]


def _param_width(contract: dict, short: str, action: str, name: str) -> int:
    return {p["name"]: p["bitwidth"] for p in _table(contract, short)["actions"][action]["params"]}[name]


def dscp_entries(contract: dict) -> list[TableEntry]:
    """DSCP -> bucket for every DSCP value: the identity (the host tags the bucket
    index, UCMP §6.1)."""
    return [ssrr_bucket_entry(contract, d, d) for d in range(64)]


# ---- OCS emulator ------------------------------------------------------------------------
def ocs_config(contract: dict, generation: int = 0, max_timer_step: int | None = None) -> TableEntry:
    """The OCS emulator's config (default entry): active circuit generation, timer bound."""
    prof = contract["profile"]
    step = prof["default_max_timer_step"] if max_timer_step is None else max_timer_step
    return make_entry(contract, "config", {}, "set_config",
                      {"generation": check_generation(generation), "max_timer_step": step}, is_default=True)


def circuit_entries(contract: dict, schedule, generation: int = 0) -> list[TableEntry]:
    """(generation, slice, in port) -> out port for every circuit of the schedule;
    port = tor * d + uplink."""
    prof = contract["profile"]
    d = prof["uplinks"]
    if schedule.n_tors != prof["tors"] or schedule.n_uplinks != d or schedule.n_slices != prof["slices"]:
        raise EntryError(f"schedule {schedule.n_tors}x{schedule.n_uplinks}x{schedule.n_slices} does not match "
                         f"profile {prof['name']!r} ({prof['tors']}x{d}x{prof['slices']})")
    g = check_generation(generation)
    out = []
    for s in range(schedule.n_slices):
        for a in range(schedule.n_tors):
            for u in range(d):
                b = int(schedule.peer[s, a, u])
                if b >= 0:
                    out.append(make_entry(contract, "circuit", {"generation": g, "slice": s, "in_port": a * d + u},
                                          "connect", {"port": b * d + u}))
    return out


# ---- sizes ---------------------------------------------------------------------------------
def check_sizes(contract: dict, batch: "Batch", what: str, generations: int = 1,
                counted: dict[str, int] | None = None) -> None:
    """Raise EntryError (with the numbers) unless ``batch`` fits the program's tables.

    The batch is ``generations`` generations' worth of generation-keyed entries (1: one
    generation, which must fit in its share, size / 2, so a new one can be written beside
    the active one) plus at most one copy of the static tables; ``counted``: entries per
    table (full name) counted, not built, beside it. Checked before anything is written."""
    prof = contract["profile"]
    count: dict[str, int] = dict(counted or {})
    for t, n in entry_tables(batch.entries)[0].items():
        count[t] = count.get(t, 0) + n
    by_name = {t["name"]: t for t in contract["tables"].values()}
    n_gen = contract.get("generations", {}).get("count", 1)
    for name, n in count.items():
        t = by_name.get(name)
        if t is None:
            continue  # make_entry already named unknown tables
        room = t["size"] // n_gen * generations if t.get("generation_keyed") else t["size"]
        if n > room:
            share = (f"{t['size']} entries for {n_gen} generations, {room} for {generations}"
                     if t.get("generation_keyed") else f"{t['size']} entries")
            raise EntryError(f"{what}: table {t['short']} needs {n} entries, profile {prof['name']!r} holds "
                             f"{share}{_size_hint(t['short'], prof, t)}")
    for short, ap in contract.get("action_profiles", {}).items():
        members = sum(1 for m in batch.members if m.profile == ap["name"])
        room = ap["size"] // n_gen * generations
        if members > room:
            raise EntryError(f"{what}: action profile {short} needs {members} members, profile {prof['name']!r} "
                             f"holds {ap['size']} for {n_gen} generations, {room} for {generations}"
                             f"{_size_hint(short, prof)}")
        big = max((len(g.member_ids) for g in batch.groups if g.profile == ap["name"]), default=0)
        if big > ap["max_group_size"]:
            raise EntryError(f"{what}: a group of {big} tied paths, profile {prof['name']!r} holds "
                             f"{ap['max_group_size']} (tables.ssrr_ties)")


def _size_hint(short: str, prof: dict, table: dict | None = None) -> str:
    dsts = prof.get("ssrr_dsts", prof["tors"] - 1)     # the profile's own value (contracts before it: all)
    ds = dsts * prof["slices"]
    who = "(N-1)" if dsts == prof["tors"] - 1 else "tables.ssrr_dsts"
    fewer = (f"; or source-route at most {dsts} destinations here" if who != "(N-1)" else "")
    exact = table is not None and all(k["match"] == "exact" for k in table["keys"])
    if short == "ssrr_path" and exact:        # t2na: one entry per (dst, start slice)
        return f" ({who} x S = {ds} per generation){fewer}"
    if short == "ssrr_hops" and exact:
        return (f" ({who} x S x tables.ssrr_paths = {ds} x {prof['tables']['ssrr_paths']} per generation); "
                f"raise tables.ssrr_paths{fewer}")
    if short == "ssrr_level":
        return (" (tables.ssrr_shapes x tables.ssrr_ranges per generation); raise tables.ssrr_shapes or "
                "tables.ssrr_ranges")
    if short == "ssrr_path":
        return (f" ({who} x S x tables.ssrr_ranges = {ds} x {prof['tables']['ssrr_ranges']} per generation); "
                f"raise tables.ssrr_ranges{fewer}")
    if short == "ssrr_selector":
        return (f" ({who} x S x tables.ssrr_paths = {ds} x {prof['tables']['ssrr_paths']} per generation); "
                f"raise tables.ssrr_paths{fewer}")
    return ""


def all_entries(entries: Iterable[TableEntry]) -> Batch:
    return Batch(entries=list(entries))
