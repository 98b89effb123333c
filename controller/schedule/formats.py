"""Schedule file formats: uro JSON (exact round trip) and htsim "dynexp" topology files.

uro JSON (``"format": "uro-schedule/1"``)::

    {
      "format": "uro-schedule/1",
      "name": "opera-108x6-s0",
      "tors": 108, "uplinks": 6, "slices": 18,
      "timing": {"slice_us": 10.0, "guard_us": 0.01, "propagation_us": 0.5,
                 "link_gbps": 100.0, "mtu_bytes": 1500},
      "uplink_offsets": [0.0, 0.1666, ...],          # optional, read only: see below
      "circuits": [ [ [peer, ...d], ...N ], ...S ]    # peer ToR id or null (idle)
    }

htsim dynexp (the Opera / UCMP simulators' topology files)::

    hosts downlinks uplinks tors
    slices connected_time_ps reconfig_time_ps [...]
    <tors*uplinks peer ids for slice 0, in (tor, uplink) order>
    ...one line per slice...
    <path sections: ignored>

``uplink_offsets`` (OCS ``u`` switches that fraction of a slice after the boundary) are
made exact on load by cutting every slice into sub-slices
(:func:`controller.schedule.model.expand_offsets`); written schedules never carry them.

A ToR listed as its own peer has no circuit on that uplink in that slice. Times are in
picoseconds; slice_us = (connected + reconfig) / 1e6, guard_us = reconfig / 1e6.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from controller.atomic import write_text
from controller.errors import ScheduleError, UroError
from controller.schedule.model import IDLE, Schedule, Timing, expand_offsets

FORMAT_TAG = "uro-schedule/1"


# ---- uro JSON -------------------------------------------------------------------------
def to_dict(sched: Schedule) -> dict:
    t = sched.timing
    return {
        "format": FORMAT_TAG,
        "name": sched.name,
        "tors": sched.n_tors,
        "uplinks": sched.n_uplinks,
        "slices": sched.n_slices,
        "timing": {
            "slice_us": t.slice_us,
            "guard_us": t.guard_us,
            "propagation_us": t.propagation_us,
            "link_gbps": t.link_gbps,
            "mtu_bytes": t.mtu_bytes,
        },
        "circuits": [
            [[None if p < 0 else int(p) for p in row] for row in sl] for sl in sched.peer.tolist()
        ],
    }


def _need(obj: dict, key: str, where: str):
    if key not in obj:
        raise ScheduleError(f"{where}: missing key '{key}'")
    return obj[key]


def _int(v, where: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ScheduleError(f"{where}: expected an integer, got {v!r}")
    return v


def from_dict(doc: dict, source: str = "schedule") -> Schedule:
    if not isinstance(doc, dict):
        raise ScheduleError(f"{source}: top level must be a JSON object")
    fmt = doc.get("format", FORMAT_TAG)
    if fmt != FORMAT_TAG:
        raise ScheduleError(f"{source}: unknown format {fmt!r} (expected {FORMAT_TAG!r})")
    N = _int(_need(doc, "tors", source), f"{source}: tors")
    d = _int(_need(doc, "uplinks", source), f"{source}: uplinks")
    S = _int(_need(doc, "slices", source), f"{source}: slices")
    if N < 2 or d < 1 or S < 1:
        raise ScheduleError(f"{source}: need tors >= 2, uplinks >= 1, slices >= 1 (got {N}, {d}, {S})")
    tdoc = doc.get("timing", {})
    if not isinstance(tdoc, dict):
        raise ScheduleError(f"{source}: timing must be an object")
    known = set(Timing.__dataclass_fields__)
    extra = set(tdoc) - known
    if extra:
        raise ScheduleError(f"{source}: unknown timing key(s) {sorted(extra)}; known: {sorted(known)}")
    for k, v in tdoc.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ScheduleError(f"{source}: timing.{k} must be a number, got {v!r}")
    timing = Timing(**tdoc)
    circuits = _need(doc, "circuits", source)
    if not isinstance(circuits, list) or len(circuits) != S:
        raise ScheduleError(f"{source}: circuits must list {S} slices, got {len(circuits) if isinstance(circuits, list) else type(circuits).__name__}")
    peer = np.full((S, N, d), IDLE, dtype=np.int32)
    for s, sl in enumerate(circuits):
        if not isinstance(sl, list) or len(sl) != N:
            raise ScheduleError(f"{source}: slice {s} must list {N} ToRs")
        for a, row in enumerate(sl):
            if not isinstance(row, list) or len(row) != d:
                raise ScheduleError(f"{source}: slice {s}, ToR {a} must list {d} uplinks")
            for u, p in enumerate(row):
                if p is None:
                    continue
                peer[s, a, u] = _int(p, f"{source}: slice {s}, ToR {a}, uplink {u}")
                if p < 0:
                    raise ScheduleError(f"{source}: slice {s}, ToR {a}, uplink {u}: peer {p} is out of range 0..{N - 1} (use null for idle)")
    offsets = doc.get("uplink_offsets") or [0.0] * d
    if not isinstance(offsets, list):
        raise ScheduleError(f"{source}: uplink_offsets must be a list")
    try:
        peer, timing, m = expand_offsets(peer, offsets, timing)
    except ScheduleError as e:
        raise ScheduleError(f"{source}: {e}") from None
    name = doc.get("name", Path(source).stem)
    if not isinstance(name, str):
        raise ScheduleError(f"{source}: name must be a string")
    if m > 1:
        name = f"{name}-x{m}"
    return Schedule(peer, timing, name=name)


def dumps(sched: Schedule) -> str:
    return json.dumps(to_dict(sched), separators=(",", ":")) + "\n"


# ---- htsim dynexp -----------------------------------------------------------------------
def parse_htsim(text: str, source: str = "htsim") -> Schedule:
    """Parse an htsim dynexp topology; every error names the line number."""
    lines = text.splitlines()

    def nums(i: int, kind=int) -> list:
        if i >= len(lines):
            raise ScheduleError(f"{source}: truncated file: line {i + 1} is missing")
        try:
            return [kind(x) for x in lines[i].split()]
        except ValueError:
            bad = next(x for x in lines[i].split() if not _is_num(x, kind))
            raise ScheduleError(f"{source}: line {i + 1}: non-numeric value {bad!r}") from None

    head = nums(0)
    if len(head) < 4:
        raise ScheduleError(f"{source}: line 1: expected 'hosts downlinks uplinks tors', got {len(head)} value(s)")
    hosts, down, d, N = head[:4]
    if N < 2 or d < 1 or down < 0 or hosts < 0:
        raise ScheduleError(f"{source}: line 1: need tors >= 2 and uplinks >= 1 (got tors={N}, uplinks={d})")
    second = nums(1, float)
    if len(second) < 3:
        raise ScheduleError(f"{source}: line 2: expected 'slices connected_time reconfig_time', got {len(second)} value(s)")
    S = second[0]
    if S != int(S) or S < 1:
        raise ScheduleError(f"{source}: line 2: slice count must be a positive integer, got {second[0]:g}")
    S = int(S)
    connected_ps, reconfig_ps = second[1], second[2]
    if not (math.isfinite(connected_ps) and connected_ps > 0):
        raise ScheduleError(f"{source}: line 2: connected time must be positive, got {connected_ps:g} ps")
    if not (math.isfinite(reconfig_ps) and reconfig_ps >= 0):
        raise ScheduleError(f"{source}: line 2: reconfiguration time must be >= 0, got {reconfig_ps:g} ps")
    peer = np.full((S, N, d), IDLE, dtype=np.int32)
    for s in range(S):
        row = nums(2 + s)
        if len(row) != N * d:
            raise ScheduleError(f"{source}: line {3 + s}: slice {s} needs {N * d} peer ids (tors*uplinks), got {len(row)}")
        arr = np.asarray(row, dtype=np.int64).reshape(N, d)
        bad = np.argwhere((arr < 0) | (arr >= N))
        if len(bad):
            a, u = bad[0]
            raise ScheduleError(f"{source}: line {3 + s}: ToR {a} uplink {u}: peer {arr[a, u]} is out of range 0..{N - 1}")
        arr = np.where(arr == np.arange(N)[:, None], IDLE, arr)
        peer[s] = arr
    timing = Timing(slice_us=(connected_ps + reconfig_ps) / 1e6, guard_us=reconfig_ps / 1e6)
    return Schedule(peer, timing, name=Path(source).stem)


def _is_num(x: str, kind) -> bool:
    try:
        kind(x)
        return True
    except ValueError:
        return False


def format_htsim(sched: Schedule, downlinks: int | None = None) -> str:
    d, N = sched.n_uplinks, sched.n_tors
    down = d if downlinks is None else downlinks
    t = sched.timing
    connected_ps = round(t.usable_us * 1e6)
    reconfig_ps = round(t.guard_us * 1e6)
    out = [f"{N * down} {down} {d} {N}", f"{sched.n_slices} {connected_ps} {reconfig_ps}"]
    ids = np.where(sched.peer < 0, np.arange(N)[None, :, None], sched.peer)
    for s in range(sched.n_slices):
        out.append(" ".join(map(str, ids[s].reshape(-1).tolist())))
    return "\n".join(out) + "\n"


# ---- files ------------------------------------------------------------------------------
def load(path: str | Path) -> Schedule:
    """Load a schedule, guessing the format from content (JSON object vs numbers)."""
    p = Path(path)
    try:
        text = p.read_text()
    except FileNotFoundError:
        raise UroError(f"schedule file not found: {p}") from None
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as e:
        raise UroError(f"cannot read schedule {p}: {e}") from None
    if text.lstrip().startswith("{"):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            raise ScheduleError(f"{p}: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
        return from_dict(doc, str(p))
    return parse_htsim(text, str(p))


def save(sched: Schedule, path: str | Path, fmt: str = "json") -> None:
    if fmt == "json":
        write_text(path, dumps(sched))
    elif fmt == "htsim":
        write_text(path, format_htsim(sched))
    else:
        raise UroError(f"unknown schedule format {fmt!r} (choose json or htsim)")
