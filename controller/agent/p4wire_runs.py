"""A run of same-shaped table entries encoded column by column: the ``Entity`` bytes
:meth:`controller.agent.p4wire.WireCodec.entity` gives each, made with NumPy.

A (1024, 32) ToR's route generation is ~32K entries of one table and one action, each
three exact keys and 21 action parameters (URO §IV-A: one entry per (arrival slice,
destination)); their values repeat heavily (slices, uplinks, ToR ids). Encoded one entry
at a time, the joins and the nested length prefixes of each were the largest share of the
daemon's first install (docs/fabric.md "Where the CPU goes per ToR"). Here every distinct
(name, value) pair of a run is encoded once (the codec's own pieces: the same checks, the
same :class:`~controller.agent.p4wire.WireError`), each entry becomes a row of piece
codes, the length prefixes are computed per row as arrays, and the bytes of the whole run
are gathered from the pieces in one step, then cut into one ``bytes`` per entity.

The bytes are those of the per-entry encoder, byte for byte: the same pieces in the same
order (the entry's own match and parameter order), the same varint lengths
(``tests/test_agent_p4wire.py``)."""

from __future__ import annotations

from itertools import chain, groupby
from operator import attrgetter

import numpy as np

from controller.agent import p4wire
from controller.tables.state import TableEntry

#: a run shorter than this is encoded entry by entry (the arrays' set-up costs more)
MIN_RUN = 64
#: the largest length the two-byte varints here write (a larger entity: entry by entry)
_MAX_LEN = (1 << 14) - 1


class _Codes(dict):
    """(name, value) pair -> its index in ``pieces``; a pair not seen before is encoded by
    ``make`` (which checks it against the P4Info and raises WireError)."""

    def __init__(self, pieces: list[bytes], make):
        super().__init__()
        self.pieces = pieces
        self.make = make

    def __missing__(self, pair):
        b = self.make(pair)
        code = self[pair] = len(self.pieces)
        self.pieces.append(b)
        return code


#: what the entries of one run share (besides a length of their match and of their params)
_SHAPE = attrgetter("table", "action", "priority", "is_default", "group_id")


def entities(codec: p4wire.WireCodec, objs: list) -> list[bytes]:
    """``[codec.entity(x) for x in objs]``, the runs of at least :data:`MIN_RUN` consecutive
    table entries of one table, action, priority and key and parameter count (not default,
    no group) encoded by :func:`run_entities`."""
    out: list[bytes] = []
    entity = codec.entity
    i = 0
    for is_entry, group in groupby(map(type, objs), lambda t: t is TableEntry):
        j = i + sum(1 for _ in group)
        if not is_entry or j - i < MIN_RUN:
            out += [entity(x) for x in objs[i:j]]
        else:
            seg = objs[i:j]
            shapes = zip(map(_SHAPE, seg), map(len, map(attrgetter("match"), seg)),
                         map(len, map(attrgetter("params"), seg)))
            k = 0
            for (shape, *_), same in groupby(shapes):
                n = sum(1 for _ in same)
                run = seg[k:k + n]
                _, action, _, default, group_id = shape
                done = run_entities(codec, run) if n >= MIN_RUN and not default and group_id is None \
                    and action is not None else None
                out += done if done is not None else [entity(x) for x in run]
                k += n
        i = j
    return out


def _varints(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the varint bytes of each value < 2^14 as two columns, the second unused below
    128; the varint's length: 1 or 2)."""
    two = values > 0x7F
    first = np.where(two, (values & 0x7F) | 0x80, values)
    return np.stack([first, values >> 7], axis=1).astype(np.uint8), 1 + two


def run_entities(codec: p4wire.WireCodec, run: list[TableEntry]) -> list[bytes] | None:
    """The ``Entity`` bytes of each entry of ``run`` (same table, action, priority, key and
    parameter count; not default, no group), as :meth:`WireCodec.entity` encodes them.
    None where the run does not fit this path (the action's parameter count differs, an
    entity of 16 KiB or more): the caller encodes entry by entry."""
    first = run[0]
    t = codec.tables.get(first.table)
    if t is None:
        raise p4wire.WireError(f"table {first.table!r} is not in the P4Info")
    a = codec.actions.get(first.action)
    if a is None:
        raise p4wire.WireError(f"action {first.action!r} is not in the P4Info")
    head, keys, tmemo = t
    ahead, specs, count, amemo = a
    km, kp = len(first.match), len(first.params)
    if kp != count:
        return None                               # (the per-entry encoder names what is missing)
    n = len(run)
    pieces: list[bytes] = []

    def match_piece(kv) -> bytes:
        b = tmemo.get(kv)
        return b if b is not None else codec._field_match(first.table, kv[0], kv[1], keys, tmemo)

    def param_piece(pv) -> bytes:
        b = amemo.get(pv)
        return b if b is not None else codec._param(first.action, specs, amemo, pv)

    mcodes = _Codes(pieces, match_piece)
    flat = list(chain.from_iterable([e.match for e in run]))
    m = np.fromiter(map(mcodes.__getitem__, flat), dtype=np.int64, count=n * km).reshape(n, km)
    pcodes = _Codes(pieces, param_piece)
    flat = list(chain.from_iterable([e.params for e in run]))
    p = np.fromiter(map(pcodes.__getitem__, flat), dtype=np.int64, count=n * kp).reshape(n, kp)
    del flat
    tail = p4wire.field_varint(p4wire._TE["priority"], first.priority) if first.priority else b""
    fixed = {name: len(pieces) + k for k, name in enumerate(("ent", "head", "te_act", "ta_act", "ahead", "tail"))}
    pieces += [p4wire._TABLE_ENTRY_TAG, head, p4wire._TE_ACTION_TAG, p4wire._TA_ACTION_TAG, ahead, tail]
    size = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    # the nested lengths, inside out: Action, TableAction, TableEntry, Entity
    act = len(ahead) + size[p].sum(axis=1)
    act_v, act_vl = _varints(act)
    ta = len(p4wire._TA_ACTION_TAG) + act_vl + act
    ta_v, ta_vl = _varints(ta)
    te = len(head) + size[m].sum(axis=1) + len(p4wire._TE_ACTION_TAG) + ta_vl + ta + len(tail)
    if int(te.max()) > _MAX_LEN:
        return None
    te_v, te_vl = _varints(te)
    total = len(p4wire._TABLE_ENTRY_TAG) + te_vl + te
    # every row: its pieces (codes into one pool) and its three varints (2 bytes each, in a
    # pool of their own after the pieces, of which the row's length prefix takes 1 or 2)
    pool = np.frombuffer(b"".join(pieces), dtype=np.uint8)
    start = np.concatenate([[0], np.cumsum(size)[:-1]])
    vbase = len(pool)
    vpool = np.concatenate([te_v, ta_v, act_v], axis=1).reshape(-1)       # [n, 6] -> flat
    rows = np.arange(n, dtype=np.int64) * 6 + vbase
    col = lambda name: np.full(n, start[fixed[name]], dtype=np.int64)      # noqa: E731
    csize = lambda name: np.full(n, size[fixed[name]], dtype=np.int64)     # noqa: E731
    src = np.column_stack([col("ent"), rows, col("head"), start[m], col("te_act"), rows + 2, col("ta_act"), rows + 4,
                           col("ahead"), start[p], col("tail")])
    ln = np.column_stack([csize("ent"), te_vl, csize("head"), size[m], csize("te_act"), ta_vl, csize("ta_act"), act_vl,
                          csize("ahead"), size[p], csize("tail")])
    src, ln = src.reshape(-1), ln.reshape(-1)
    ends = np.cumsum(ln)
    idx = np.repeat(src - (ends - ln), ln) + np.arange(int(ends[-1]), dtype=np.int64)
    blob = np.concatenate([pool, vpool])[idx].tobytes()
    bounds = np.concatenate([[0], np.cumsum(total)]).tolist()
    return [blob[s:e] for s, e in zip(bounds[:-1], bounds[1:])]
