"""One ToR's route entries in bulk: the same objects as the per-entry builders, built fast.

After a failure the daemon builds a ToR's route entries for the new route set (the
aim: new routes in <= 0.5 s at (108, 6)). :mod:`controller.tables.entries` builds them one
entry at a time -- :func:`~controller.tables.entries.make_entry` looks the table up and
checks every key and parameter name and width per entry -- which is clear and is kept as
the *reference* (``entries.uro_entries_reference``, ``ssrr_entries_reference``,
``ssrr_exact_entries_reference``). The builders here produce exactly what the reference
produces (the same entries, members and groups, in the same order, with the same ids):

- a table/action layout (:class:`_Layout`) is looked up and checked once per build, not
  once per entry; an entry's values are then checked against precomputed limits only;
- the URO per-hop entries are computed as NumPy arrays over the ToR's table (one row per
  (dst, arrival slice)) and checked with array comparisons;
- a tied path's parameters are computed once per build (paths recur across slices and
  bucket ranges);
- (name, value) pairs are made once per value and shared by the entries (immutable);
- the frozen dataclasses are created without their per-field frozen ``__setattr__``, and
  the cyclic collector is paused during a build (:func:`controller.memory.paused_gc`).

Errors are the reference's, by construction: whenever a value or a contract does not
take the fast path's shape (a width exceeded, a name missing, a path too long, a
generation out of 0/1, ...), the builder gives up (:class:`_Slow`) and the reference
builds the same routes, raising its own error for the first entry that does not fit.

:func:`regenerate` derives generation g's batch from the other generation's (the
generation is only the ``generation`` key and bit ``GENERATION_ID_BIT`` of member and
group ids, docs/p4.md "Route generations"), so an update that needs both generations'
entries builds the routes once.
"""

from __future__ import annotations

import collections.abc
import threading
import weakref
from itertools import groupby
from typing import Iterable, Sequence

import numpy as np

from controller.routing.paths import RELAXED, REGULAR, PathRoutes, ranges
from controller.tables import entries as ent, perhop, source as source_tables
from controller.tables.state import (GENERATION_ID_BIT, MEMO_ATTRS, Batch, EntryError, EntryRows, Group, Member,
                                     TableEntry, blocks, check_generation)

_new = object.__new__
_ID_MASK = (1 << GENERATION_ID_BIT) - 1


def _entry(table: str, match: tuple, action: str | None, params: tuple, group_id: int | None = None,
           priority: int = 0) -> TableEntry:
    """``TableEntry(table, match, action, params, False, group_id, priority)``, without the
    frozen dataclass's field-by-field ``object.__setattr__`` (equal, same hash)."""
    o = _new(TableEntry)
    o.__dict__.update(table=table, match=match, action=action, params=params, is_default=False,
                      group_id=group_id, priority=priority)
    return o


def _member(profile: str, member_id: int, action: str, params: tuple) -> Member:
    o = _new(Member)
    o.__dict__.update(profile=profile, member_id=member_id, action=action, params=params)
    return o


def _group(profile: str, group_id: int, member_ids: tuple) -> Group:
    o = _new(Group)
    o.__dict__.update(profile=profile, group_id=group_id, member_ids=member_ids)
    return o


class _Slow(Exception):
    """The fast path does not apply: build with the reference (which raises its error)."""


class _Layout:
    """What :func:`~controller.tables.entries.make_entry` checks for one table and action,
    checked once: the caller gives keys and parameters as value lists in a fixed order
    (``keys``, ``params``); :meth:`match` / :meth:`params` check the values against the
    widths and return the contract-ordered tuples make_entry would.

    Only exact and range keys take this path; anything else (a name the contract lacks,
    a missing one, an lpm/ternary key) raises :class:`_Slow`."""

    def __init__(self, contract: dict, short: str, keys: Sequence[str], action: str | None = None,
                 params: Sequence[str] = ()):
        try:
            t = contract["tables"][short]
        except (KeyError, TypeError):
            raise _Slow from None
        self.name = t["name"]
        ck = t["keys"]
        if sorted(keys) != sorted(k["name"] for k in ck) or len(set(keys)) != len(keys):
            raise _Slow
        if any(k["match"] not in ("exact", "range") for k in ck):
            raise _Slow
        self.ranged = any(k["match"] == "range" for k in ck)
        pos = {n: i for i, n in enumerate(keys)}
        self.key_names = tuple(k["name"] for k in ck)
        self.key_pos = tuple(pos[k["name"]] for k in ck)          # contract order -> given index
        self.key_lim = tuple(1 << k["bitwidth"] for k in ck)
        self.key_range = tuple(k["match"] == "range" for k in ck)
        # (name, value) pairs made once per value and shared by the entries (immutable, equal);
        # a value is cached only once checked. Key None holds the name.
        self.key_pairs = tuple({None: k["name"]} for k in ck)
        self.action = None
        if action is not None:
            a = t["actions"].get(action)
            if a is None:
                raise _Slow
            cp = a["params"]
            if sorted(params) != sorted(p["name"] for p in cp) or len(set(params)) != len(params):
                raise _Slow
            pp = {n: i for i, n in enumerate(params)}
            self.action = a["name"]
            self.param_names = tuple(p["name"] for p in cp)
            self.param_pos = tuple(pp[p["name"]] for p in cp)
            self.param_lim = tuple(1 << p["bitwidth"] for p in cp)
            self.param_pairs = tuple({None: p["name"]} for p in cp)

    def match(self, values: Sequence) -> tuple:
        pos = self.key_pos
        v = values if pos == tuple(range(len(pos))) else [values[i] for i in pos]
        out = []
        for x, lim, rng, pairs in zip(v, self.key_lim, self.key_range, self.key_pairs):
            if rng:
                if type(x) is not tuple or len(x) != 2:
                    raise _Slow
                lo, hi = x
                if not (type(lo) is int and type(hi) is int and 0 <= lo <= hi < lim):
                    raise _Slow
            elif type(x) is not int:      # before the cache: True, 1.0, numpy ints hash as 1
                raise _Slow
            p = pairs.get(x)
            if p is None:
                if not rng and not 0 <= x < lim:
                    raise _Slow
                p = pairs[x] = (pairs[None], x)
            out.append(p)
        return tuple(out)

    def params(self, values: Sequence) -> tuple:
        out = []
        for i, lim, pairs in zip(self.param_pos, self.param_lim, self.param_pairs):
            x = values[i]
            if type(x) is not int:
                raise _Slow
            p = pairs.get(x)
            if p is None:
                if not 0 <= x < lim:
                    raise _Slow
                p = pairs[x] = (pairs[None], x)
            out.append(p)
        return tuple(out)

    def prefill(self, bounds: dict[str, int]) -> "_Layout":
        """Make the pairs of every value below ``bounds[name]`` (and its width) now, so that
        :meth:`ints` builds a parameter tuple by lookups alone."""
        for name, pairs, lim in zip(self.param_names, self.param_pairs, self.param_lim):
            for v in range(min(bounds[name], lim)):
                if v not in pairs:
                    pairs[v] = (name, v)
        return self

    def ints(self, values: Sequence) -> tuple:
        """:meth:`params` for values the caller has checked are ints (not bools, not NumPy
        scalars: they would find an int's pair); one outside the prefilled pairs takes
        :meth:`params` (which checks its width)."""
        try:
            return tuple(map(dict.__getitem__, self.param_pairs, [values[i] for i in self.param_pos]))
        except KeyError:
            return self.params(values)

    def same_keys(self, other: "_Layout") -> bool:
        """Both take the same match tuples (same key names, order and widths)."""
        return (self.key_names, self.key_pos, self.key_lim, self.key_range) == \
            (other.key_names, other.key_pos, other.key_lim, other.key_range)


def _generation(generation) -> int:
    if type(generation) is not int or generation not in (0, 1):
        raise _Slow
    return generation


# ---- route mode ----------------------------------------------------------------------------
def route_mode_entries(contract: dict, dsts: Iterable[int], source_routed: bool, generation: int = 0
                       ) -> list[TableEntry]:
    """``[route_mode_entry(contract, d, source_routed, generation) for d in dsts]``."""
    dsts = list(dsts)
    try:
        g = _generation(generation)
        lay = _Layout(contract, "route_mode", ("generation", "dst_tor"),
                      "source_route" if source_routed else "per_hop", ())
        if lay.ranged:
            raise _Slow
        return [_entry(lay.name, lay.match((g, d)), lay.action, ()) for d in dsts]
    except _Slow:
        return [ent.route_mode_entry(contract, d, source_routed, generation) for d in dsts]


# ---- URO per-hop ----------------------------------------------------------------------------
def uro_entries(contract: dict, routes, tor: int, generation: int = 0) -> Sequence[TableEntry]:
    """:func:`controller.tables.entries.uro_entries_reference`, as array operations over the
    ToR's per-hop table: one row per (dst, arrival slice) with an alternative; as
    :class:`~controller.tables.state.EntryRows` (the entries' columns, each made as an
    object where it is asked for) where the array build takes the table."""
    prof = ent.check_fits(contract, routes.schedule)
    try:
        return _uro_fast(contract, prof, perhop.tor_table(routes, tor), tor, generation)
    except _Slow:
        return ent.uro_entries_reference(contract, routes, tor, generation)


def uro_entry_count(contract: dict, routes, tor: int, generation: int = 0) -> int | None:
    """How many entries :func:`uro_entries` builds for ``tor``, after every check the array
    build makes on their values (widths, uplinks, alternatives), without making them: the
    daemon's start-up checks of a (1024, 32) ToR counted its 32K entries instead of building
    them (~80 ms of a core each, 1024 times, before the first install builds them again).
    None where only the build can tell (a table layout the array build does not take, or a
    value it refuses: the reference build names the entry)."""
    prof = ent.check_fits(contract, routes.schedule)
    try:
        return _uro_fast(contract, prof, perhop.tor_table(routes, tor), tor, generation, count_only=True)
    except _Slow:
        return None


def uro_cell_entries(contract: dict, routes, tor: int, cells: np.ndarray, generation: int = 0
                     ) -> Sequence[TableEntry] | None:
    """The entries of :func:`uro_entries` whose (arrival slice, destination) is one of
    ``cells`` (``[m, 2]`` rows), built alone: a failure's update rewrites only the entries
    of the cells its routes changed (URO §IV-A: one entry per (arrival slice, destination)
    of a ToR). None where the program's table is not one entry per cell (a range-keyed
    layout, or another the array build does not take): then the caller builds the whole
    table. From in-memory routes the cells' rows are taken alone (a (1024, 32) ToR's
    whole table is 32K cells; a cut cable changes tens of them on most ToRs). The entries
    are an :class:`~controller.tables.state.EntryRows` (columns, objects made when asked
    for): the update diffs and encodes the columns."""
    prof = ent.check_fits(contract, routes.schedule)
    c = np.unique(np.asarray(cells, dtype=np.int64).reshape(-1, 2), axis=0)
    c = c[np.lexsort((c[:, 0], c[:, 1]))]                 # dst-major, as the whole table's
    arr, dst = c[:, 0], c[:, 1]
    try:
        rows = perhop.cell_alternatives(routes, tor, arr, dst)
        if rows is None or routes.schedule.n_slices != prof["slices"]:
            return _uro_fast(contract, prof, perhop.tor_table(routes, tor), tor, generation, c)
        upl, wait = (np.asarray(x).astype(np.int64) for x in rows)                      # [m, Kr]
        return _uro_rows(_uro_layout(contract, prof), prof, upl, wait, arr, dst, tor, generation)
    except _Slow:
        return None


def _uro_layout(contract: dict, prof: dict) -> tuple:
    """The URO table's layout for the array build: (_Layout, wait or slice params); raises
    _Slow where the program's table is another."""
    K = prof["alternatives"]
    t = contract["tables"].get("uro_next_hop")
    if t is None or "set_alternatives" not in t["actions"]:
        raise _Slow
    waits = "wait0" in {p["name"] for p in t["actions"]["set_alternatives"]["params"]}
    kind = "wait" if waits else "slice"
    pnames = ["n"] + [f"{f}{i}" for i in range(K) for f in ("up", kind)]
    lay = _Layout(contract, "uro_next_hop", ("generation", "arrival_slice", "dst_tor"), "set_alternatives", pnames)
    if lay.ranged:
        raise _Slow
    return lay, waits


def _uro_fast(contract: dict, prof: dict, tbl, tor: int, generation: int,
              cells: np.ndarray | None = None, count_only: bool = False) -> EntryRows | int:
    lay = _uro_layout(contract, prof)
    S = prof["slices"]
    upl = np.asarray(tbl.alt_uplink).astype(np.int64)   # [S, N, Kr]
    wait = np.asarray(tbl.alt_wait).astype(np.int64)
    Sr, N, Kr = upl.shape
    if Sr != S:
        raise _Slow
    upl = upl.transpose(1, 0, 2)                          # [N, S, Kr]: dst-major, as the reference
    wait = wait.transpose(1, 0, 2)
    keep = np.ones((N, S), dtype=bool)
    if cells is not None:                                 # only these (arrival slice, dst)
        keep[:] = False
        c = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
        keep[c[:, 1], c[:, 0]] = True
    dst, arr = np.nonzero(keep)
    return _uro_rows(lay, prof, upl[dst, arr], wait[dst, arr], arr, dst, tor, generation, count_only)


def _uro_rows(layout: tuple, prof: dict, upl: np.ndarray, wait: np.ndarray, arr: np.ndarray, dst: np.ndarray,
              tor: int, generation: int, count_only: bool = False) -> EntryRows | int:
    """The entries of the cells (``arr``, ``dst``) of ToR ``tor`` whose alternatives are
    ``upl`` / ``wait`` (``[m, Kr]``, -1: none); cells without one, and ``tor`` itself, get
    none (the reference stops at the first -1). ``count_only``: how many, once checked."""
    lay, waits = layout
    g = _generation(generation)
    K, S, D = prof["alternatives"], prof["slices"], prof["uplinks"]
    kind = "wait" if waits else "slice"
    Kr = upl.shape[1]
    neg = upl < 0
    n = np.where(neg.any(-1), neg.argmax(-1), Kr)         # leading alternatives (the reference stops at -1)
    keep = (n > 0) & (dst != tor)
    upl, wait, arr, dst, n = upl[keep], wait[keep], arr[keep], dst[keep], n[keep]
    if n.size and int(n.max()) > K:
        raise _Slow                                       # the reference names the entry
    u = upl[:, :K]
    w = wait[:, :K]
    if Kr < K:
        u = np.pad(u, ((0, 0), (0, K - Kr)))
        w = np.pad(w, ((0, 0), (0, K - Kr)))
    live = np.arange(K)[None, :] < n[:, None]
    if not ((u[live] >= 0) & (u[live] < D)).all():
        raise _Slow
    dep = (arr[:, None] + w) % S
    val = (dep - arr[:, None]) % S if waits else dep
    u = np.where(live, u, 0)
    val = np.where(live, val, 0)
    cols = {"n": n}
    for i in range(K):
        cols[f"up{i}"] = u[:, i]
        cols[f"{kind}{i}"] = val[:, i]
    keys = {"generation": np.full(n.size, g), "arrival_slice": arr, "dst_tor": dst}
    kcols = np.stack([keys[k] for k in lay.key_names], axis=1) if n.size else np.zeros((0, 3), np.int64)
    pcols = np.stack([cols[p] for p in lay.param_names], axis=1) if n.size else np.zeros((0, len(lay.param_names)), np.int64)
    if n.size and not ((kcols >= 0).all() and (kcols < np.array(lay.key_lim)).all()
                       and (pcols >= 0).all() and (pcols < np.array(lay.param_lim)).all()):
        raise _Slow
    if count_only:
        return int(n.size)
    # checked: the entries as columns, made as objects only where asked for
    return EntryRows(lay.name, lay.action, lay.key_names, kcols, lay.param_names, pcols)


# ---- SSRR source routes ----------------------------------------------------------------------
class _Paths:
    """A path's hop values, checked once per build: [(tor, up, slice)] -> (n, flat values)."""

    def __init__(self, prof: dict):
        self.h = prof["ssrr_hops"]
        self.lims = (prof["tors"], prof["uplinks"], prof["slices"])
        self.seen: dict = {}

    def hops(self, path) -> tuple:
        try:
            return self.seen[path]
        except KeyError:
            pass
        except TypeError:
            raise _Slow from None
        n = len(path)
        if not 1 <= n <= self.h:
            raise _Slow
        lt, lu, ls = self.lims
        flat = []
        for hop in path:
            if type(hop) is not tuple or len(hop) != 3:
                raise _Slow
            y, j, s = hop
            if not (type(y) is int and type(j) is int and type(s) is int
                    and 0 <= y < lt and 0 <= j < lu and 0 <= s < ls):
                raise _Slow
            flat.append(hop)
        self.seen[path] = out = (n, tuple(flat))
        return out


def ssrr_entries(contract: dict, routes, tor: int, generation: int = 0, dsts: Iterable[int] | None = None) -> Batch:
    """:func:`controller.tables.entries.ssrr_entries_reference` (selector groups; the exact
    layout: :func:`ssrr_exact_entries`), with layouts and paths checked once per build."""
    if "ssrr_level" in contract["tables"]:
        return ssrr_exact_entries(contract, routes, tor, generation, dsts)
    return _source_batch(_ssrr_fast, ent.ssrr_entries_reference, contract, routes, tor, generation, dsts)


def _source_batch(fast, reference, contract: dict, routes, tor: int, generation: int, dsts) -> Batch:
    """``fast``, or ``reference`` where the fast path does not apply (it raises its error)."""
    prof = ent.check_fits(contract, routes.schedule)
    dsts = None if dsts is None else list(dsts)
    try:
        return fast(contract, prof, routes, tor, generation, dsts)
    except _Slow:
        return reference(contract, routes, tor, generation, dsts)


def _ssrr_layout(contract: dict, prof: dict) -> tuple[_Layout, str]:
    """The ``ssrr_path`` table's layout, its parameter pairs made for every value within the
    profile's ranges, and its action profile; :class:`_Slow` for a contract of another shape."""
    h = prof["ssrr_hops"]
    pnames = ["n"] + [f"{f}{i}" for i in range(h) for f in ("tor", "up", "slice")]
    lay = _Layout(contract, "ssrr_path", ("generation", "dst_tor", "start_slice", "bucket"), "write_path", pnames)
    prof_name = contract["tables"]["ssrr_path"].get("action_profile")
    if prof_name is None:
        raise _Slow
    bounds = {"n": h + 1}
    for i in range(h):
        bounds.update({f"tor{i}": prof["tors"], f"up{i}": prof["uplinks"], f"slice{i}": prof["slices"]})
    lay.prefill(bounds)
    return lay, prof_name


def _ssrr_fast(contract: dict, prof: dict, routes, tor: int, generation: int, dsts, cells=None) -> Batch:
    names, rows = _ssrr_rows(contract, prof, routes, tor, generation, dsts, cells)
    return _ssrr_objects(names, rows)


def _ssrr_objects(names: tuple, rows: list) -> Batch:
    """The members, groups and entries of :func:`_ssrr_rows`' rows, in their order."""
    prof_name, member_action, table, priority = names
    members, groups, entries = [], [], []
    for match, gg, mem in rows:
        members.extend([_member(prof_name, m, member_action, p) for m, p in mem])
        groups.append(_group(prof_name, gg, tuple([m for m, _ in mem])))
        entries.append(_entry(table, match, None, (), gg, priority))
    return Batch(members, groups, entries)


def _ssrr_rows(contract: dict, prof: dict, routes, tor: int, generation: int, dsts, cells=None) -> tuple:
    """What :func:`_ssrr_fast` builds, checked, as plain values: ((action profile, member
    action, table, priority), rows), a row per selector entry ``(match, group id,
    ((member id, params), ...))``; raises :class:`_Slow` where the fast path does not apply."""
    g = _generation(generation)
    h = prof["ssrr_hops"]
    lay, prof_name = _ssrr_layout(contract, prof)
    member_action = lay.action
    priority = 1 if lay.ranged else 0
    paths = _Paths(prof)
    params_of: dict = {}
    gbit = g << GENERATION_ID_BIT
    out = []
    gid, mid = 1, 1
    rows = list(source_tables.entries(routes, tor, dsts, cells))
    per = ent.selector_ids(contract, routes.schedule, rows)      # content-stable ids (or sequential)
    if cells is not None and per is None:
        raise _Slow                           # a cell's ids would depend on the rows before it
    if cells is None and isinstance(routes, PathRoutes):
        # the whole table's rows answer _stable_ids_fit: a failure's update asks it of
        # these routes as the ones it repairs (a first install builds them whole)
        whole = ent.selector_ids(contract, routes.schedule)
        if whole is not None:
            _note_fit(routes, _fit_key(contract, tor, dsts, whole), per is not None)
    sched = routes.schedule
    for e in rows:
        b = e.buckets
        if type(b) is int:
            b = (b, b)
        match = lay.match((g, e.dst, e.slice, b))
        if per is not None:
            gid = ent.stable_group_id(sched, prof, e.dst, e.slice, b)
            mid = (gid - 1) * per + 1
        if not (gid <= _ID_MASK and mid + len(e.paths) - 1 <= _ID_MASK):
            raise _Slow
        mem = []
        for path in e.paths:
            p = params_of.get(path) if type(path) is tuple else None
            if p is None:
                n, hops = paths.hops(path)          # checked: ints within the profile's ranges
                vals = [n]
                for i in range(h):
                    vals.extend(hops[i] if i < n else (0, 0, 0))
                p = params_of[path] = lay.ints(vals)
            mem.append((gbit | mid, p))
            mid += 1
        out.append((match, gbit | gid, tuple(mem)))
        gid += 1
    return (prof_name, member_action, lay.name, priority), out


def ssrr_cell_entries(contract: dict, routes, tor: int, cells: np.ndarray, generation: int = 0,
                      dsts: Iterable[int] | None = None) -> Batch | None:
    """The members, groups and entries of :func:`ssrr_entries` whose (dst, start slice) is
    one of ``cells`` (``[m, 2]`` rows), built alone: a failure's update rewrites only the
    source-route cells its routes changed (UCMP §6.2: one selector group per (dst, start
    slice, bucket range)). None where a cell's objects depend on the others -- sequential
    selector ids (:func:`controller.tables.entries.selector_ids`: stable ids only when every
    group of the ToR's whole table fits, checked here on the arrays), the exact layout
    (t2na: groups and shapes numbered in table order), a contract the fast build does not
    take --: then the caller builds the whole table."""
    if "ssrr_level" in contract["tables"]:
        return None
    prof = ent.check_fits(contract, routes.schedule)
    if not _stable_ids_fit(contract, routes, tor, dsts):
        return None
    try:
        return _ssrr_fast(contract, prof, routes, tor, generation, None if dsts is None else list(dsts), cells=cells)
    except _Slow:
        return None


def ssrr_cell_pair(contract: dict, before, after, tor: int, cells: np.ndarray, generation: int = 0,
                   dsts: Iterable[int] | None = None) -> tuple[Batch, Batch] | None:
    """:func:`ssrr_cell_entries` of the cells for route sets ``before`` and ``after``, each
    object left out of both where the two hold it equal: diffing one against the other
    gives the same updates (an object equal on both sides is none), and only what the
    update writes is made. A dead ToR changes most of every source's cells towards it and
    through it, yet of a (108, 6) network's 69K objects of those cells half are equal before
    and after (a member's path, a group's members or an entry's group unchanged): they are
    compared as plain values (ids and parameter tuples) and never made. None where
    :func:`ssrr_cell_entries` gives None for either."""
    if "ssrr_level" in contract["tables"]:
        return None
    dsts = None if dsts is None else list(dsts)
    for routes in (before, after):
        prof = ent.check_fits(contract, routes.schedule)        # (the contract's profile: the same)
        if not _stable_ids_fit(contract, routes, tor, dsts):
            return None
    try:
        return _cells_pair(contract, prof, before, after, tor, cells, generation, dsts)
    except _Slow:
        pass
    try:
        (names, rows_a), (_, rows_b) = (_ssrr_rows(contract, prof, r, tor, generation, dsts, cells)
                                        for r in (before, after))   # (names: of the contract alone)
    except _Slow:
        return None
    a, b = _values(rows_a), _values(rows_b)
    if a is None or b is None:            # an identity twice: the whole objects, diff names it
        return _ssrr_objects(names, rows_a), _ssrr_objects(names, rows_b)
    return _differing(names, a, b), _differing(names, b, a)


class _Cells:
    """The ``ssrr_path`` entries of a few (dst, start slice) cells of one source ToR as
    columns (:func:`_ssrr_rows`' rows, the same values and order, no object made):
    per entry ``dst``, ``t``, ``lo``, ``hi`` (its bucket range), ``gid`` (its selector
    group's id, without the generation bit: content-stable, a function of (dst, t, lo))
    and ``k`` (its members, ids ``(gid - 1) * per + 1 ...``); per member ``mid`` and
    ``params`` (``[n, tor0, up0, slice0, ...]``, the layout's parameter names in
    :func:`_ssrr_rows`' order). Raises :class:`_Slow` where the rows' path applies instead
    (no bucket ranges, a path or id out of the profile's ranges, a group larger than the
    selector's, a hop after a padding hop)."""

    def __init__(self, routes, tor: int, cells: np.ndarray, dsts, prof: dict, per: int, bucket_bits: int):
        if not isinstance(routes, PathRoutes) or routes.buckets is None:
            raise _Slow
        S, N = routes.schedule.n_slices, routes.schedule.n_tors
        c = np.asarray(cells, np.int64).reshape(-1, 2)
        keep = (c[:, 0] != tor) & (c[:, 0] >= 0) & (c[:, 0] < N) & (c[:, 1] >= 0) & (c[:, 1] < S)
        if dsts is not None:
            keep &= np.isin(c[:, 0], np.asarray(sorted(set(dsts)), np.int64))
        c = np.unique(c[keep], axis=0) if keep.any() else np.zeros((0, 2), np.int64)   # (dst, t) order
        dst, t = c[:, 0], c[:, 1]
        gc = routes.g_count[t, tor, dst].astype(np.int64)
        mids = ranges(routes.g_first[t, tor, dst], gc)                    # the cells' members
        cell = np.repeat(np.arange(len(c)), gc)
        kind = routes.m_kind[mids]
        lo, hi = routes.buckets.m_lo[mids].astype(np.int64), routes.buckets.m_hi[mids].astype(np.int64)
        npaths, pfirst = routes.m_count[mids].astype(np.int64), routes.m_first[mids]
        ent_m = np.flatnonzero((kind == REGULAR) & (lo >= 0))            # an entry per served range
        rel = kind == RELAXED                     # a 2-hop member's entry carries its cell's relaxed paths
        rel_paths = ranges(pfirst[rel], npaths[rel])
        rel_count = np.bincount(cell[rel], weights=npaths[rel], minlength=len(c)).astype(np.int64)
        rel_first = np.cumsum(rel_count) - rel_count
        e_cell = cell[ent_m]
        own = npaths[ent_m]
        extra = np.where(routes.m_hops[mids[ent_m]] == 2, rel_count[e_cell], 0)
        k = own + extra
        self.dst, self.t, self.lo, self.hi = dst[e_cell], t[e_cell], lo[ent_m], hi[ent_m]
        if (k > per).any() or (self.lo >> bucket_bits).any() or (self.lo > self.hi).any():
            raise _Slow
        self.gid = ((self.dst * S + self.t) << bucket_bits) + self.lo + 1
        self.k = k
        # each entry's paths: its member's, then its cell's relaxed ones (2 hops)
        start = np.cumsum(k) - k
        paths = np.empty(int(k.sum()), np.int64)
        paths[ranges(start, own)] = ranges(pfirst[ent_m], own)
        paths[ranges(start + own, extra)] = rel_paths[ranges(rel_first[e_cell], extra)]
        base = (self.gid - 1) * per + 1
        self.mid = ranges(base, k)
        h = prof["ssrr_hops"]
        if len(self.mid) and (self.gid.max() > _ID_MASK or self.mid.max() > _ID_MASK):
            raise _Slow
        node, up, sl = (a[paths] for a in (routes.hop_node, routes.hop_uplink, routes.hop_slice))
        valid = node >= 0
        n = valid.sum(axis=1)
        width = node.shape[1] if node.ndim == 2 else 0
        if width and (valid[:, 1:] & ~valid[:, :-1]).any():
            raise _Slow                                   # a hop after a padding one
        if len(n) and (n.min() < 1 or n.max() > h):
            raise _Slow
        par = np.zeros((len(paths), 1 + 3 * h), np.int64)
        par[:, 0] = n
        w = min(width, h)
        if w:
            v = valid[:, :w]
            par[:, 1:1 + 3 * w:3] = np.where(v, node[:, :w], 0)
            par[:, 2:2 + 3 * w:3] = np.where(v, up[:, :w], 0)
            par[:, 3:3 + 3 * w:3] = np.where(v, sl[:, :w] % S, 0)
        lims = np.array([h + 1] + [prof["tors"], prof["uplinks"], prof["slices"]] * h, np.int64)
        if len(par) and ((par < 0).any() or (par >= lims).any()):
            raise _Slow
        self.params = par


def _cells_pair(contract: dict, prof: dict, before, after, tor: int, cells, generation: int, dsts) -> tuple[Batch, Batch]:
    """:func:`ssrr_cell_pair` on columns (:class:`_Cells`): both sides' entries, groups and
    members compared as arrays -- an entry is the same on both where its match is (its
    group id follows from it), a group where its member count is (its member ids follow
    from its id), a member where its path parameters are -- and only what differs made.
    Raises :class:`_Slow` where the rows' path applies (an identity twice included: the
    diff of the objects names it)."""
    g = _generation(generation)
    lay, prof_name = _ssrr_layout(contract, prof)
    per = ent.selector_ids(contract, before.schedule)
    if per is None or ent.selector_ids(contract, after.schedule) != per:
        raise _Slow
    bb = contract["profile"].get("bucket_bits", 8)
    a = _Cells(before, tor, cells, dsts, prof, per, bb)
    b = _Cells(after, tor, cells, dsts, prof, per, bb)
    for x in (a, b):
        if np.unique(x.gid).size != x.gid.size:
            raise _Slow                           # (two entries of one group: the objects' diff names it)
    priority = 1 if lay.ranged else 0
    gbit = g << GENERATION_ID_BIT
    # entries and groups: by group id (an entry's match is (dst, t, lo, hi), its id (dst, t, lo))
    _, ia, ib = np.intersect1d(a.gid, b.gid, assume_unique=True, return_indices=True)
    same_entry_a, same_entry_b = np.zeros(a.gid.size, bool), np.zeros(b.gid.size, bool)
    same_group_a, same_group_b = same_entry_a.copy(), same_entry_b.copy()
    eq_e = a.hi[ia] == b.hi[ib]
    eq_g = a.k[ia] == b.k[ib]
    same_entry_a[ia[eq_e]] = True
    same_entry_b[ib[eq_e]] = True
    same_group_a[ia[eq_g]] = True
    same_group_b[ib[eq_g]] = True
    # members: by id, the same where their parameters are
    _, ma, mb = np.intersect1d(a.mid, b.mid, assume_unique=True, return_indices=True)
    eq_m = (a.params[ma] == b.params[mb]).all(axis=1)
    same_m_a, same_m_b = np.zeros(a.mid.size, bool), np.zeros(b.mid.size, bool)
    same_m_a[ma[eq_m]] = True
    same_m_b[mb[eq_m]] = True
    member_action, table = lay.action, lay.name

    def made(x: _Cells, same_e, same_g, same_m) -> Batch:
        ints = lay.ints
        members = [_member(prof_name, gbit | m, member_action, ints(p))
                   for m, p in zip(x.mid[~same_m].tolist(), x.params[~same_m].tolist())]
        gi = np.flatnonzero(~same_g)
        first = gbit | ((x.gid[gi] - 1) * per + 1)           # a group's members: ids first .. first + k - 1
        groups = [_group(prof_name, gbit | gid, tuple(range(f, f + k)))
                  for gid, f, k in zip(x.gid[gi].tolist(), first.tolist(), x.k[gi].tolist())]
        ei = np.flatnonzero(~same_e)
        entries = [_entry(table, lay.match((g, d, t, (lo, hi))), None, (), gbit | gid, priority)
                   for d, t, lo, hi, gid in zip(*(y[ei].tolist() for y in (x.dst, x.t, x.lo, x.hi, x.gid)))]
        return Batch(members, groups, entries)
    return made(a, same_entry_a, same_group_a, same_m_a), made(b, same_entry_b, same_group_b, same_m_b)


def _values(rows: list) -> tuple[dict, dict, dict] | None:
    """``rows`` (:func:`_ssrr_rows`) as {member id: params}, {group id: member ids},
    {match: group id}; None where an id or a match comes twice."""
    members, groups, entries = {}, {}, {}
    n = 0
    for match, gg, mem in rows:
        entries[match] = gg
        groups[gg] = tuple([m for m, _ in mem])
        members.update(mem)
        n += len(mem)
    if len(entries) != len(rows) or len(groups) != len(rows) or len(members) != n:
        return None
    return members, groups, entries


def _differing(names: tuple, mine: tuple, other: tuple) -> Batch:
    """The objects of ``mine`` (:func:`_values`) that ``other`` lacks or holds otherwise.
    A group's member ids are made in ascending order on both sides, so equal tuples are
    equal sets (what the diff compares)."""
    prof_name, member_action, table, priority = names
    (mm, mg, me), (om, og, oe) = mine, other
    return Batch([_member(prof_name, m, member_action, p) for m, p in mm.items() if om.get(m) != p],
                 [_group(prof_name, g, ids) for g, ids in mg.items() if og.get(g) != ids],
                 [_entry(table, match, None, (), g, priority) for match, g in me.items() if oe.get(match) != g])


#: :func:`_stable_ids_fit` of in-memory route sets, kept with each while it lives: a
#: failure's update asks it of the routes before the failure (the previous update asked
#: it of them as its new routes) and of the routes after, for each ToR
_FITS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_FITS_LOCK = threading.Lock()


def _stable_ids_fit(contract: dict, routes, tor: int, dsts) -> bool:
    """Whether :func:`controller.tables.entries.selector_ids` gives content-stable ids for
    the rows of ToR ``tor``'s whole source table towards ``dsts``, from the arrays
    (:func:`controller.tables.source.entries`: an entry holds one regular member's paths,
    and with 2 hops its group's relaxed ones; without buckets, every regular path of its
    group). Kept per route set (:data:`_FITS`) where it is an in-memory one."""
    per = ent.selector_ids(contract, routes.schedule)
    if per is None:
        return False
    if not isinstance(routes, PathRoutes):
        return _ids_fit(contract, routes, tor, dsts, per)
    key = _fit_key(contract, tor, dsts, per)
    with _FITS_LOCK:
        known = _FITS.setdefault(routes, {}).get(key)
    if known is None:
        known = _ids_fit(contract, routes, tor, dsts, per)
        _note_fit(routes, key, known)
    return known


def _fit_key(contract: dict, tor: int, dsts, per: int) -> tuple:
    """What :func:`_stable_ids_fit` of one route set depends on (a ToR's table has no
    group towards itself: ``tor`` among ``dsts`` or not, the same answer)."""
    return (tor, None if dsts is None else tuple(sorted(set(dsts) - {tor})), per,
            contract["profile"].get("bucket_bits", 8))


def _note_fit(routes, key: tuple, fits: bool) -> None:
    """:func:`_stable_ids_fit` of ``routes`` under ``key`` (:func:`_fit_key`) is ``fits``
    (computed on the arrays, or found by a whole build's rows)."""
    with _FITS_LOCK:
        _FITS.setdefault(routes, {})[key] = fits


def _ids_fit(contract: dict, routes, tor: int, dsts, per: int) -> bool:
    """:func:`_stable_ids_fit` computed (``per``: the selector's ids per entry)."""
    tbl = source_tables.tor_table(routes, tor)
    counts = np.asarray(tbl.g_count, np.int64)
    if dsts is not None:
        mask = np.zeros(counts.shape[0], bool)
        mask[[x for x in dsts if 0 <= x < counts.shape[0] and x != tor]] = True
        counts = np.where(mask[:, None], counts, 0)
    counts = counts.ravel()
    g_of = np.repeat(np.arange(counts.size), np.asarray(tbl.g_count, np.int64).ravel())
    sel = counts[g_of] > 0                          # members of the groups written
    kind, npaths = np.asarray(tbl.m_kind), np.asarray(tbl.m_npaths, np.int64)
    reg = sel & (kind == REGULAR)
    if tbl.m_lo is None:
        per_entry = np.bincount(g_of[reg], weights=npaths[reg], minlength=counts.size)
        return bool(per_entry.max(initial=0) <= per)
    relaxed = np.bincount(g_of[sel & (kind == RELAXED)], weights=npaths[sel & (kind == RELAXED)],
                          minlength=counts.size)
    lo = np.asarray(tbl.m_lo)
    served = reg & (lo >= 0)
    paths = npaths[served] + np.where(np.asarray(tbl.m_hops)[served] == 2, relaxed[g_of[served]], 0)
    first_ok = not served.any() or int(lo[served].max()) < 1 << contract["profile"].get("bucket_bits", 8)
    return bool(first_ok and paths.max(initial=0) <= per)


def ssrr_exact_entries(contract: dict, routes, tor: int, generation: int = 0,
                       dsts: Iterable[int] | None = None) -> Batch:
    """:func:`controller.tables.entries.ssrr_exact_entries_reference` (t2na: exact entries
    and a hash pick), with layouts and paths checked once per build."""
    return _source_batch(_exact_fast, ent.ssrr_exact_entries_reference, contract, routes, tor, generation, dsts)


def _exact_fast(contract: dict, prof: dict, routes, tor: int, generation: int, dsts) -> Batch:
    """:func:`ssrr_exact_entries` in bulk: one pass over the ToR's groups in (dst, start
    slice) order, each group's ``ssrr_path`` entry and its paths' ``ssrr_first`` and
    ``ssrr_hops`` entries, then one ``ssrr_level`` entry per (shape, level). Raises
    :class:`_Slow` where the contract is not the one this pass knows (the reference runs).

    Algorithm: memoised encoding -- a path's hop parameters do not depend on its start
    slice, and a shape (the levels' bucket ranges and tie counts) is shared by many groups,
    so each is encoded once. State:

    - ``path_lay``, ``first_lays[n]``, ``hops_lays[n]``, ``kl``: the tables' key and
      parameter layouts (per path length ``n``; ``kl`` the shared group key);
    - ``same[n]``: whether ``ssrr_first``/``ssrr_hops`` take ``kl``'s key as it is;
      ``quick``, ``lvp``, ``mp``: the level and member key pairs precomputed;
    - ``rest_of``: path -> (hops, the hops entry's parameters); ``first_of``: (hops,
      uplink, wait) -> the first-hop entry's parameters;
    - ``shapes``: shape -> its id (``ssrr_path``'s ``shape``, ``ssrr_level``'s key);
    - ``entries``: the batch, in the order written.
    """
    g = _generation(generation)
    S, H = prof["slices"], prof["ssrr_hops"]
    level = contract["tables"].get("ssrr_level")
    if level is None:
        raise _Slow
    level_actions = level["actions"]
    path_lay = _Layout(contract, "ssrr_path", ("generation", "dst_tor", "start_slice"), "set_group",
                       ("group", "shape"))
    if path_lay.ranged:
        raise _Slow
    gkey = ("generation", "group", "level", "member")
    first_lays: dict[int, _Layout] = {}
    hops_lays: dict[int, _Layout] = {}
    for n in range(1, H + 1):
        first_lays[n] = _Layout(contract, "ssrr_first", gkey, f"first_{n}", ("up0", "wait0"))
        hops_lays[n] = _Layout(contract, "ssrr_hops", gkey, f"write_path_{n}",
                               [f"tor{i}" for i in range(n - 1)] + [f"{f}{i}" for i in range(n) for f in ("up", "slice")])
        if first_lays[n].ranged or hops_lays[n].ranged:
            raise _Slow
        bounds = {"up0": prof["uplinks"], "wait0": S}
        for i in range(n):
            bounds.update({f"tor{i}": prof["tors"], f"up{i}": prof["uplinks"], f"slice{i}": S})
        first_lays[n].prefill(bounds)
        hops_lays[n].prefill(bounds)
    # one (generation, group, level, member) key tuple for a path's ssrr_first and ssrr_hops
    # entries: the group's pairs once per group, level/member pairs from short lists
    kl = _Layout(contract, "ssrr_first", gkey)
    same = {n: (first_lays[n].same_keys(kl), hops_lays[n].same_keys(kl)) for n in first_lays}
    quick = kl.key_names == gkey and kl.key_pos == (0, 1, 2, 3) and max(kl.key_lim[2:]) <= 256
    lvp = [(gkey[2], i) for i in range(kl.key_lim[2])] if quick else []
    mp = [(gkey[3], i) for i in range(kl.key_lim[3])] if quick else []
    paths = _Paths(prof)
    rest_of: dict = {}      # path -> (n, hops, ssrr_hops parameters): a path's hops do not depend on t
    first_of: dict = {}     # (n, uplink, wait) -> ssrr_first parameters

    def path_params(path, t, dst):
        got = rest_of.get(path) if type(path) is tuple else None
        if got is None:
            n, hops = paths.hops(path)          # checked: ints within the profile's ranges
            vals = [y for y, _, _ in hops[:n - 1]] + [v for _, j, s in hops for v in (j, s)]
            got = rest_of[path] = (n, hops, hops_lays[n].ints(vals))
        n, hops, rest = got
        if hops[-1][0] != dst or type(t) is not int:
            raise _Slow
        up, w = hops[0][1], (hops[0][2] - t) % S
        first = first_of.get((n, up, w))
        if first is None:
            first = first_of[(n, up, w)] = first_lays[n].ints((up, w))
        return n, first, rest

    shapes: dict[tuple, int] = {}
    entries = []
    for gid, ((dst, t), levels) in enumerate(groupby(source_tables.entries(routes, tor, dsts),
                                                      key=lambda e: (e.dst, e.slice)), start=1):
        levels = list(levels)
        for e in levels:
            if f"level_{len(e.paths)}" not in level_actions:
                raise _Slow
            for p in e.paths:
                if len(p) > H:
                    raise _Slow
        shape = tuple((e.buckets, len(e.paths)) for e in levels)
        sid = shapes.setdefault(shape, len(shapes) + 1)
        entries.append(_entry(path_lay.name, path_lay.match((g, dst, t)), path_lay.action,
                              path_lay.params((gid, sid))))
        base = kl.match((g, gid, 0, 0))[:2] if quick else None
        for lv, e in enumerate(levels):
            for m, path in enumerate(e.paths):
                n, first, rest = path_params(path, t, dst)
                fl, hl = first_lays[n], hops_lays[n]
                if quick and lv < len(lvp) and m < len(mp):
                    key = base + (lvp[lv], mp[m])
                else:
                    key = kl.match((g, gid, lv, m))
                sf, sh = same[n]
                entries.append(_entry(fl.name, key if sf else fl.match((g, gid, lv, m)), fl.action, first))
                entries.append(_entry(hl.name, key if sh else hl.match((g, gid, lv, m)), hl.action, rest))
    level_lays: dict[int, _Layout] = {}
    for shape, sid in shapes.items():
        for lv, (buckets, ties) in enumerate(shape):
            lay = level_lays.get(ties)
            if lay is None:
                lay = level_lays[ties] = _Layout(contract, "ssrr_level", ("generation", "shape", "bucket"),
                                                 f"level_{ties}", ("level",))
            entries.append(_entry(lay.name, lay.match((g, sid, buckets)), lay.action, lay.params((lv,)),
                                  None, lv + 1 if lay.ranged else 0))
    return Batch(entries=entries)


# ---- the other generation ----------------------------------------------------------------------
def regenerate(batch: Batch, generation: int) -> Batch:
    """The same route entries as generation ``generation``: every entry's ``generation`` key
    set to it, bit ``GENERATION_ID_BIT`` of every member and group id (and a group entry's
    group id) set to it. Equal to building the routes for ``generation`` afresh
    (:func:`controller.tables.tor_batch.route_entries`), since nothing else of a route entry
    depends on the generation (docs/p4.md "Route generations"); the input is not changed.

    Every entry must carry the generation key (route batches do; the static tables and
    the config entry do not belong here): an EntryError names the first that does not."""
    r = Regenerated((), generation)
    e = batch.entries
    if type(e) is EntryRows and r.key in e.key_names:
        entries = e.with_key(r.key, r.value)         # (columns stay columns: no object made)
    else:
        entries = [r.derive(x) for x in e]
    return Batch([r.derive(m) for m in batch.members], [r.derive(x) for x in batch.groups], entries)


class Regenerated(collections.abc.Sequence):
    """The objects of ``base`` (members, groups and route entries, in any order) as
    generation ``generation``, each derived when it is asked for (:func:`regenerate`'s
    rule, the same objects): a ToR's first shadow is written from its generation 0's
    encoding (``controller.agent.p4wire.WireCodec.entities_keyed``), and of its 33K objects
    at (1024, 32) only those the writer names -- in an error, the members and groups and
    entries whose ids carry the generation, which are encoded -- are made (docs/fabric.md
    "Where the CPU goes per ToR"). A slice is derived lazily too; an entry of ``base``
    without the ``generation`` key raises EntryError when asked for, as :func:`regenerate`.

    What the derivation changes (:attr:`key`, :attr:`value`): a table entry without a group
    id has only its ``generation`` key set to :attr:`value`; a member,
    a group and a group entry have their ids' bit ``GENERATION_ID_BIT`` set too."""

    key = "generation"

    def __init__(self, base: Sequence, generation: int):
        self.base = base
        self.value = check_generation(generation)
        self._gbit = self.value << GENERATION_ID_BIT
        self._pos: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.base)

    def __getitem__(self, i):
        if isinstance(i, slice):
            out = Regenerated(self.base[i], self.value)
            out._pos = self._pos
            return out
        return self.derive(self.base[i])

    def __iter__(self):
        return map(self.derive, self.base)

    def blocks(self) -> list:
        """The blocks of :attr:`base` (:func:`controller.tables.state.blocks`) derived: an
        :class:`EntryRows` block with the key as columns (:meth:`EntryRows.with_key`), any
        other as a :class:`Regenerated` of it."""
        out = []
        for b in blocks(self.base):
            if type(b) is EntryRows and not b.made() and self.key in b.key_names:
                out.append(b.with_key(self.key, self.value))
            else:
                r = Regenerated(b, self.value)
                r._pos = self._pos
                out.append(r)
        return out

    def derive(self, x):
        """``x`` as generation :attr:`value` (:func:`regenerate` of it alone)."""
        gbit = self._gbit
        if type(x) is Member:
            return _member(x.profile, (x.member_id & _ID_MASK) | gbit, x.action, x.params)
        if type(x) is Group:
            return _group(x.profile, (x.group_id & _ID_MASK) | gbit, tuple((i & _ID_MASK) | gbit for i in x.member_ids))
        key, m = self.key, x.match
        i = self._pos.get(x.table)
        if i is None or i >= len(m) or m[i][0] != key:
            names = [k for k, _ in m]
            if key not in names or x.is_default:
                raise EntryError(f"{x.table}: entry {dict(m)} has no {key!r} key: not a route entry")
            i = self._pos[x.table] = names.index(key)
        d = x.__dict__.copy()
        for a in MEMO_ATTRS:
            d.pop(a, None)
        d["match"] = m[:i] + ((key, self.value),) + m[i + 1:]
        gid = d["group_id"]
        if gid is not None:
            d["group_id"] = (gid & _ID_MASK) | gbit
        o = _new(type(x))
        object.__setattr__(o, "__dict__", d)
        return o
