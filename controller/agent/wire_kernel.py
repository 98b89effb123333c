"""Table entries encoded column by column (numba): the kernel of
:meth:`controller.agent.p4wire.WireCodec.rows`.

Each entry of a block of one table and one action (exact match fields, no priority) is
``Entity{table_entry: TableEntry{table_id, match..., action: TableAction{action:
Action{action_id, params...}}}}``: the same few bytes around pieces that depend on one
value each (a match field, a parameter). The caller encodes each distinct (column, value)
piece once, with the codec's own encoder, into ``pool``; the kernel only adds the lengths
and copies the pieces, where the object path looked up each entry's 24 pieces one by one
in Python.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def _vlen(n: int) -> int:
    k = 1
    while n > 0x7F:
        n >>= 7
        k += 1
    return k


@nb.njit(cache=True, nogil=True)
def _put_varint(buf, at: int, n: int) -> int:
    while n > 0x7F:
        buf[at] = (n & 0x7F) | 0x80
        n >>= 7
        at += 1
    buf[at] = n
    return at + 1


@nb.njit(cache=True, nogil=True)
def _put(buf, at: int, src, start: int, length: int) -> int:
    for j in range(length):
        buf[at + j] = src[start + j]
    return at + length


@nb.njit(cache=True, nogil=True)
def encode_rows(pool, p_off, p_len, pieces, n_keys, entity_tag, table_head, te_action_tag, ta_action_tag,
                action_head):
    """The entities of ``pieces`` (``[m, n_keys + n_params]`` indexes into ``p_off`` /
    ``p_len``: where each row's match fields, then its parameters, lie in ``pool``), one
    after another in one byte array, and where each starts (``m + 1`` offsets)."""
    m, c = pieces.shape
    starts = np.empty(m + 1, dtype=np.int64)
    body = np.empty(m, dtype=np.int64)
    ta = np.empty(m, dtype=np.int64)
    act = np.empty(m, dtype=np.int64)
    total = 0
    for i in range(m):
        keys = 0
        for j in range(n_keys):
            keys += p_len[pieces[i, j]]
        a = len(action_head)
        for j in range(n_keys, c):
            a += p_len[pieces[i, j]]
        t = len(ta_action_tag) + _vlen(a) + a
        b = len(table_head) + keys + len(te_action_tag) + _vlen(t) + t
        act[i], ta[i], body[i] = a, t, b
        starts[i] = total
        total += len(entity_tag) + _vlen(b) + b
    starts[m] = total
    buf = np.empty(total, dtype=np.uint8)
    for i in range(m):
        at = _put(buf, starts[i], entity_tag, 0, len(entity_tag))
        at = _put_varint(buf, at, body[i])
        at = _put(buf, at, table_head, 0, len(table_head))
        for j in range(n_keys):
            at = _put(buf, at, pool, p_off[pieces[i, j]], p_len[pieces[i, j]])
        at = _put(buf, at, te_action_tag, 0, len(te_action_tag))
        at = _put_varint(buf, at, ta[i])
        at = _put(buf, at, ta_action_tag, 0, len(ta_action_tag))
        at = _put_varint(buf, at, act[i])
        at = _put(buf, at, action_head, 0, len(action_head))
        for j in range(n_keys, c):
            at = _put(buf, at, pool, p_off[pieces[i, j]], p_len[pieces[i, j]])
    return buf, starts
