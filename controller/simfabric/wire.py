"""A WriteRequest read from its wire bytes (numba), for the simulated fabric's write path.

A daemon programming a (1024, 32) fabric writes 68M table entries; parsed into protobuf
messages and taken apart field by field in Python (match fields serialized again to form
the key, the entry serialized again to form the value), each cost the simulated switches
several microseconds, more than the controller spent encoding it, and the benchmark
measured the simulated fabric instead of the controller. :func:`scan` reads the request
once, in compiled code: the header (device, election id, atomicity) and, per update, where
its key and its value lie in the request's bytes and whether the update is one the device
can apply from those slices alone (:meth:`~controller.simfabric.device.Device.write_wire`):

- an INSERT, MODIFY or DELETE of a table entry (not a default entry) of a table without an
  action profile, whose ``TableEntry`` starts with its table id followed by its match
  fields in ascending field-id order (ids below 64), each ``FieldMatch`` led by its field
  id, every field the table does not have absent, every exact field present, a priority
  where the table needs one (0 <= priority < 2^31), and (INSERT, MODIFY) an ``Action``
  whose id the table names (:data:`DIRECT`);
- the same of a table with an action profile whose entry (INSERT, MODIFY) names one
  selector group (``action_profile_group_id``), or a DELETE of one (:data:`INDIRECT`: the
  device checks the group and keeps its references);
- an INSERT, MODIFY or DELETE of an action profile member whose fields are its profile id,
  its member id (neither written as 0) and its action, in that order (:data:`MEMBER`);
- an INSERT, MODIFY or DELETE of an action profile group whose fields are its profile id,
  its group id, its members (each a member id and at most a weight, in that order, below
  2^31) and its max size, in that order, none written as 0 (:data:`GROUP_FAST`: the member
  ids are read into :attr:`Scan.members`).

Such an entry's key is its priority and its match fields' bytes as written, its value the
rest of the ``TableEntry`` as written: what :func:`controller.simfabric.device._key` and
``_value`` make of the parsed message, without parsing it (protobuf writes fields in
field-number order); such a member or group is kept as its ``Entity`` as written. Every
other update -- default entries, entries naming a member, group members with a watch
(port), anything invalid, whose answer is an error message -- is marked for the parsed
path, which the device takes for it alone (``tests/test_simfabric_wire.py`` compares the
two paths on random requests, valid and not, and on every answer of the selector-entry,
member and group paths). A request the scanner cannot follow at all (a malformed or
unusual encoding) is returned as ``None``: parsed whole by protobuf. (A UCMP ToR's
generation is about two thirds members, groups and selector entries.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

# columns of the per-update rows :func:`scan` returns: where the update lies, its type, the
# entity's kind (field of ``Entity``) and bytes; a table entry's table id, match fields,
# value, priority, match field ids seen, action id and selector group id (-1: none); a
# member's or group's action profile id (TABLE) and member or group id (ID); a group's max
# size and where its member ids lie in Scan.members; CANON: written as protobuf writes it;
# FAST: how the device may apply it from its bytes (:data:`DIRECT` ...; 0: parsed)
(U_START, U_END, OP, CANON, TABLE, M_START, M_END, V_END, PRIORITY, SEEN, ACTION, FAST,
 KIND, E_START, E_END, ID, GROUP, MAX_SIZE, MIDS_START, MIDS_END) = range(20)
_NCOL = 20
#: FAST: an entry of a direct table; an entry of a table with an action profile that names a
#: selector group (or a DELETE of one); an action profile member; an action profile group
DIRECT, INDIRECT, MEMBER, GROUP_FAST = 1, 2, 3, 4
#: KIND: ``Entity`` fields
_TABLE_ENTRY, _MEMBER, _GROUP = 2, 3, 4
_LEN, _VARINT, _I64, _I32 = 2, 0, 1, 5


@dataclass(frozen=True)
class TableSpecs:
    """What an entry is checked against, per table of a pipeline, as arrays: table ids
    (sorted), a bit per match field id (< 64) the table has, a bit per exact field,
    whether it needs a priority, whether it is direct (no action profile) or indirect (an
    action profile), and the (table index << 32 | action id) pairs it allows (sorted)."""

    ids: np.ndarray
    fields: np.ndarray
    exact: np.ndarray
    needs_priority: np.ndarray
    direct: np.ndarray
    actions: np.ndarray
    indirect: np.ndarray


def table_specs(tables) -> TableSpecs:
    """:class:`TableSpecs` of ``tables`` (:attr:`controller.simfabric.device.Pipeline.tables`:
    id -> ``_Table``). A table with a match field id of 64 or more is left to the parsed
    path (not direct here: its entries are never marked fast)."""
    order = sorted(tables)
    n = len(order)
    ids = np.array(order, dtype=np.int64)
    fields = np.zeros(n, np.uint64)
    exact = np.zeros(n, np.uint64)
    prio = np.zeros(n, np.bool_)
    direct = np.zeros(n, np.bool_)
    indirect = np.zeros(n, np.bool_)
    acts = []
    for i, tid in enumerate(order):
        t = tables[tid]
        wide = any(f >= 64 for f in t.fields)
        fields[i] = 0 if wide else sum(1 << f for f in t.fields)
        exact[i] = 0 if wide else sum(1 << f for f in t.exact)
        prio[i] = t.needs_priority
        direct[i] = t.profile is None and not wide
        indirect[i] = t.profile is not None and not wide
        acts += [(i << 32) | a for a in t.actions]
    return TableSpecs(ids, fields, exact, prio, direct, np.array(sorted(acts), dtype=np.int64), indirect)


@nb.njit(cache=True, nogil=True)
def _varint(buf, i, end):
    """(value, next index) of the varint at ``i``; next index -1 when it runs past ``end``,
    is longer than 10 bytes, or is not minimally encoded (a last byte of 0 after others)."""
    v = np.uint64(0)
    shift = 0
    start = i
    while i < end:
        b = buf[i]
        i += 1
        if shift < 64:
            v |= np.uint64(b & 0x7F) << np.uint64(shift)
        if b < 0x80:
            if b == 0 and i - start > 1:
                return v, -1
            return v, i
        shift += 7
        if shift > 63:
            return v, -1
    return v, -1


@nb.njit(cache=True, nogil=True)
def _skip(buf, i, end, wire):
    """Index after a field of wire type ``wire`` whose value starts at ``i``; -1 if malformed."""
    if wire == _VARINT:
        _, j = _varint(buf, i, end)
        return j
    if wire == _LEN:
        n, j = _varint(buf, i, end)
        if j < 0 or np.uint64(end - j) < n:
            return -1
        return j + np.int64(n)
    if wire == _I64:
        return i + 8 if i + 8 <= end else -1
    if wire == _I32:
        return i + 4 if i + 4 <= end else -1
    return -1


@nb.njit(cache=True, nogil=True)
def _find(arr, x):
    k = np.searchsorted(arr, x)
    return k if k < arr.shape[0] and arr[k] == x else -1


@nb.njit(cache=True, nogil=True)
def _entry(buf, s, e, row):
    """Read the TableEntry at ``buf[s:e]`` into ``row`` (TABLE .. ACTION; CANON 1 when its
    table id comes first, its match fields next in ascending field-id order, each led by
    its field id, below 64, then the other fields in ascending field-number order, once
    each, a priority in 0 .. 2^31 - 1 and no default-entry flag). False: malformed."""
    i = s
    if i >= e or buf[i] != 0x08:                # the table id first
        return True
    tid, i = _varint(buf, i + 1, e)
    if i < 0:
        return False
    row[TABLE] = np.int64(tid)
    row[M_START] = i
    seen = np.uint64(0)
    last = -1
    canonical = True
    while i < e and buf[i] == 0x12:            # the match fields
        n, j = _varint(buf, i + 1, e)
        if j < 0 or np.uint64(e - j) < n:
            return False
        fe = j + np.int64(n)
        if j < fe and buf[j] == 0x08:
            fid, k = _varint(buf, j + 1, fe)
            if k < 0:
                return False
            if fid >= 64 or np.int64(fid) <= last:
                canonical = False
            else:
                last = np.int64(fid)
                seen |= np.uint64(1) << fid
        else:
            canonical = False
        i = fe
    row[M_END] = i
    row[V_END] = e
    prio = np.int64(0)
    action = np.int64(-1)                      # -1: none (or not one Action with an id)
    group = np.int64(-1)                       # -1: none (or not one selector group id)
    lastnum = np.uint64(2)
    while i < e:                               # the rest, as written
        tag, j = _varint(buf, i, e)
        if j < 0:
            return False
        num = tag >> np.uint64(3)
        wire = np.int64(tag & np.uint64(7))
        if num <= lastnum:
            canonical = False
        lastnum = num
        k = _skip(buf, j, e, wire)
        if k < 0:
            return False
        if num == 3 and wire == _LEN:          # TableAction holding one Action, its id first
            n, a0 = _varint(buf, j, e)
            if a0 < k and buf[a0] == 0x0A:
                m, a1 = _varint(buf, a0 + 1, k)
                if a1 >= 0 and a1 + np.int64(m) == k and a1 < k and buf[a1] == 0x08:
                    aid, a2 = _varint(buf, a1 + 1, k)
                    if a2 >= 0:
                        action = np.int64(aid)
            elif a0 < k and buf[a0] == 0x18:    # or one selector group id (action_profile_group_id)
                gid, a1 = _varint(buf, a0 + 1, k)
                if a1 == k and gid < np.uint64(1 << 32):
                    group = np.int64(gid)
        elif num == 4 and wire == _VARINT:
            p, _ = _varint(buf, j, e)
            if p >= np.uint64(1 << 31):
                canonical = False
            prio = np.int64(p & np.uint64(0x7FFFFFFF))
        elif num == 8:                         # is_default_action: the parsed path
            canonical = False
        i = k
    row[PRIORITY] = prio
    row[SEEN] = np.int64(seen)
    row[ACTION] = action
    row[GROUP] = group
    row[CANON] = 1 if canonical else 0
    return True


@nb.njit(cache=True, nogil=True)
def _member(buf, s, e, row):
    """Read the ActionProfileMember at ``buf[s:e]`` into ``row`` (TABLE: its action profile
    id, ID: its member id; CANON 1 when its fields are the profile id, the member id and the
    action, in that order, each at most once, no varint written as 0 -- the bytes protobuf
    writes for it). False: malformed."""
    i = s
    last = np.uint64(0)
    canonical = True
    while i < e:
        tag, j = _varint(buf, i, e)
        if j < 0:
            return False
        num = tag >> np.uint64(3)
        wire = np.int64(tag & np.uint64(7))
        k = _skip(buf, j, e, wire)
        if k < 0:
            return False
        if num <= last or num > 3 or wire != (_LEN if num == 3 else _VARINT):
            canonical = False
        last = num
        if num == 1 and wire == _VARINT:
            v, _ = _varint(buf, j, e)
            row[TABLE] = np.int64(v & np.uint64(0xFFFFFFFF))
            canonical = canonical and v != 0 and v < np.uint64(1 << 32)
        elif num == 2 and wire == _VARINT:
            v, _ = _varint(buf, j, e)
            row[ID] = np.int64(v & np.uint64(0xFFFFFFFF))
            canonical = canonical and v != 0 and v < np.uint64(1 << 32)
        i = k
    row[CANON] = 1 if canonical else 0
    return True


@nb.njit(cache=True, nogil=True)
def _group_member(buf, s, e):
    """The member id of the ``ActionProfileGroup.Member`` at ``buf[s:e]``; 0 when it is not
    written as protobuf writes it with a member id and at most a weight (in that order,
    neither written as 0, both below 2^31 for the weight and 2^32 for the id) or malformed."""
    i = s
    last = np.uint64(0)
    mid = np.int64(0)
    while i < e:
        tag, j = _varint(buf, i, e)
        if j < 0:
            return 0
        num = tag >> np.uint64(3)
        if num <= last or num > 2 or (tag & np.uint64(7)) != _VARINT:
            return 0
        last = num
        v, k = _varint(buf, j, e)
        if k < 0 or v == 0 or v >= np.uint64(1 << 31 if num == 2 else 1 << 32):
            return 0
        if num == 1:
            mid = np.int64(v)
        i = k
    return mid


@nb.njit(cache=True, nogil=True)
def _group(buf, s, e, row, mids, m):
    """Read the ActionProfileGroup at ``buf[s:e]`` into ``row`` (TABLE: its action profile
    id, ID: its group id, MAX_SIZE; its member ids into ``mids`` from ``m`` on, MIDS_START ..
    MIDS_END; CANON 1 when its fields are the profile id, the group id, the members and the
    max size, in that order, no varint written as 0, every member as :func:`_group_member`
    reads it -- the bytes protobuf writes for it). (False: malformed, next free index of
    ``mids``)."""
    i = s
    last = np.uint64(0)
    canonical = True
    row[MIDS_START] = m
    row[MAX_SIZE] = 0
    while i < e:
        tag, j = _varint(buf, i, e)
        if j < 0:
            return False, m
        num = tag >> np.uint64(3)
        wire = np.int64(tag & np.uint64(7))
        k = _skip(buf, j, e, wire)
        if k < 0:
            return False, m
        if num < last or (num == last and num != 3) or num > 4 or wire != (_LEN if num == 3 else _VARINT):
            canonical = False
        last = num
        if num == 3 and wire == _LEN:
            n, a = _varint(buf, j, e)
            mid = _group_member(buf, a, k)
            if mid == 0 or m >= mids.shape[0]:
                canonical = False
            else:
                mids[m] = mid
                m += 1
        elif wire == _VARINT:
            v, _ = _varint(buf, j, e)
            if v == 0 or v >= np.uint64(1 << 31 if num == 4 else 1 << 32):
                canonical = False
            elif num == 1:
                row[TABLE] = np.int64(v)
            elif num == 2:
                row[ID] = np.int64(v)
            elif num == 4:
                row[MAX_SIZE] = np.int64(v)
        i = k
    row[MIDS_END] = m
    row[CANON] = 1 if canonical else 0
    return True, m


@nb.njit(cache=True, nogil=True)
def _update(buf, k, ue, row, mids, nm):
    """Read the Update at ``buf[k:ue]`` into ``row`` (a group's member ids into ``mids``
    from ``nm`` on); (False: malformed, next free index of ``mids``)."""
    row[OP] = -1
    row[GROUP] = -1
    entities = 0
    es = np.int64(-1)
    ee = np.int64(-1)
    kind = np.uint64(0)
    while k < ue:
        t, k = _varint(buf, k, ue)
        if k < 0:
            return False, nm
        wire = np.int64(t & np.uint64(7))
        nk = _skip(buf, k, ue, wire)
        if nk < 0:
            return False, nm
        if t == 0x08:
            v, _ = _varint(buf, k, ue)
            row[OP] = np.int64(v)
        elif t == 0x12:
            entities += 1
            m, k2 = _varint(buf, k, ue)
            # an Entity holding one field: its kind and where it lies
            if k2 < nk:
                t3, k3 = _varint(buf, k2, nk)
                if k3 >= 0 and np.int64(t3 & np.uint64(7)) == _LEN:
                    m3, k4 = _varint(buf, k3, nk)
                    if k4 >= 0 and k4 + np.int64(m3) == nk:
                        kind = t3 >> np.uint64(3)
                        es = k4
                        ee = nk
                        row[E_START] = k2
                        row[E_END] = nk
        k = nk
    if entities != 1:
        return True, nm
    row[KIND] = np.int64(kind)
    if kind == _TABLE_ENTRY:
        return _entry(buf, es, ee, row), nm
    if kind == _MEMBER:
        return _member(buf, es, ee, row), nm
    if kind == _GROUP:
        return _group(buf, es, ee, row, mids, nm)
    return True, nm


@nb.njit(cache=True, nogil=True)
def _scan(buf):
    """(header, rows, member ids, ok): header = device id, election high, low, atomicity;
    a row per update (the columns above); the groups' member ids (MIDS_START .. MIDS_END of
    their rows); ok False when the request is malformed or not one this reads (an election
    id given twice)."""
    end = buf.shape[0]
    head = np.zeros(4, np.uint64)
    none = np.zeros((0, _NCOL), np.int64)
    nomids = np.zeros(0, np.int64)
    count = 0
    elections = 0
    i = 0
    while i < end:                             # the header and the number of updates
        tag, j = _varint(buf, i, end)
        if j < 0:
            return head, none, nomids, False
        num = tag >> np.uint64(3)
        wire = np.int64(tag & np.uint64(7))
        nj = _skip(buf, j, end, wire)
        if nj < 0:
            return head, none, nomids, False
        if num == 1 and wire == _VARINT:
            v, _ = _varint(buf, j, end)
            head[0] = v
        elif num == 3 and wire == _LEN:
            elections += 1
            n, k = _varint(buf, j, end)
            while k < nj:
                t2, k = _varint(buf, k, nj)
                if k < 0:
                    return head, none, nomids, False
                nk = _skip(buf, k, nj, np.int64(t2 & np.uint64(7)))
                if nk < 0:
                    return head, none, nomids, False
                if t2 == 0x08:
                    v, _ = _varint(buf, k, nj)
                    head[1] = v
                elif t2 == 0x10:
                    v, _ = _varint(buf, k, nj)
                    head[2] = v
                k = nk
        elif num == 5 and wire == _VARINT:
            v, _ = _varint(buf, j, end)
            head[3] = v
        elif num == 4 and wire == _LEN:
            count += 1
        i = nj
    if elections > 1:
        return head, none, nomids, False
    rows = np.zeros((count, _NCOL), np.int64)
    mids = np.empty(end // 4 + 1, np.int64)    # a member id kept takes 4 bytes at least
    m = np.int64(0)
    r = 0
    i = 0
    while i < end:                             # the updates
        tag, j = _varint(buf, i, end)
        wire = np.int64(tag & np.uint64(7))
        nj = _skip(buf, j, end, wire)
        if tag == 0x22:
            n, k = _varint(buf, j, end)
            row = rows[r]
            r += 1
            row[U_START] = k
            row[U_END] = nj
            ok, m = _update(buf, k, nj, row, mids, m)
            if not ok:
                return head, rows, nomids, False
        i = nj
    return head, rows, mids[:m], True


@nb.njit(cache=True, nogil=True)
def _mark(rows, ids, fields, exact, needs_prio, direct, actions, indirect):
    """Set FAST on the rows the device can apply from their slices (module docstring)."""
    for r in range(rows.shape[0]):
        row = rows[r]
        row[FAST] = 0
        op = row[OP]
        if row[CANON] != 1 or op < 1 or op > 3:
            continue
        if row[KIND] == _MEMBER:
            row[FAST] = MEMBER
            continue
        if row[KIND] == _GROUP:
            row[FAST] = GROUP_FAST
            continue
        t = _find(ids, row[TABLE])
        if t < 0 or not (direct[t] or indirect[t]):
            continue
        seen = np.uint64(row[SEEN])
        if seen & ~fields[t] or exact[t] & ~seen:
            continue
        if needs_prio[t] and row[PRIORITY] == 0 and op != 3:
            continue
        if indirect[t]:
            if op == 3 or (row[GROUP] >= 0 and row[ACTION] < 0):
                row[FAST] = INDIRECT
            continue
        if op != 3 and (row[ACTION] < 0 or _find(actions, (np.int64(t) << 32) | row[ACTION]) < 0):
            continue
        row[FAST] = DIRECT


@dataclass(frozen=True)
class Scan:
    """A WriteRequest as :func:`scan` read it: the header, a row per update, and the
    member ids of its groups (a group's from MIDS_START to MIDS_END of its row)."""

    device_id: int
    election: int
    atomicity: int
    rows: np.ndarray
    members: np.ndarray

    def mark(self, specs: TableSpecs) -> np.ndarray:
        """The rows with FAST set against the device's pipeline ``specs``."""
        _mark(self.rows, specs.ids, specs.fields, specs.exact, specs.needs_priority, specs.direct, specs.actions,
              specs.indirect)
        return self.rows


def scan(raw: bytes) -> Scan | None:
    """``raw`` (a serialized WriteRequest) read; None when it is not a request this reads
    (the caller parses it with protobuf, which names what is wrong with it)."""
    head, rows, mids, ok = _scan(np.frombuffer(raw, dtype=np.uint8))
    if not ok:
        return None
    return Scan(int(head[0]), (int(head[1]) << 64) | int(head[2]), int(head[3]), rows, mids)
