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
        raise ScheduleError(f"{where}: expected an integer, got {_short(v)}")
    return v


def _short(v, limit: int = 40) -> str:
    """``repr(v)`` cut to ``limit`` characters: messages never echo a huge value or line."""
    text = repr(v)
    return text if len(text) <= limit else text[: limit - 5] + "...'" + f" ({len(text)} chars)"


def from_dict(doc: dict, source: str = "schedule") -> Schedule:
    if not isinstance(doc, dict):
        raise ScheduleError(f"{source}: top level must be a JSON object")
    fmt = doc.get("format", FORMAT_TAG)
    if fmt != FORMAT_TAG:
        raise ScheduleError(f"{source}: unknown format {fmt!r} (expected {FORMAT_TAG!r})")
    N = _int(_need(doc, "tors", source), f"{source}: tors")
    d = _int(_need(doc, "uplinks", source), f"{source}: uplinks")
    S = _int(_need(doc, "slices", source), f"{source}: slices")
    bad = [f"{k} must be >= {lo}, got {v}" for k, v, lo in (("tors", N, 2), ("uplinks", d, 1), ("slices", S, 1))
           if v < lo]
    if bad:
        raise ScheduleError(f"{source}: " + "; ".join(bad))
    tdoc = doc.get("timing", {})
    if not isinstance(tdoc, dict):
        raise ScheduleError(f"{source}: timing must be an object")
    known = set(Timing.__dataclass_fields__)
    extra = set(tdoc) - known
    if extra:
        raise ScheduleError(f"{source}: unknown timing key(s) {sorted(extra)}; known: {sorted(known)}")
    for k, v in tdoc.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ScheduleError(f"{source}: timing.{k} must be a number, got {_short(v)}")
    timing = Timing(**tdoc)
    circuits = _need(doc, "circuits", source)
    if not isinstance(circuits, list) or len(circuits) != S:
        got = len(circuits) if isinstance(circuits, list) else type(circuits).__name__
        raise ScheduleError(f"{source}: circuits must list {S} slices (\"slices\": {S}), got {got}")
    # the declared sizes are checked against the data before anything is allocated
    for s, sl in enumerate(circuits):
        if not isinstance(sl, list) or len(sl) != N:
            got = len(sl) if isinstance(sl, list) else type(sl).__name__
            raise ScheduleError(f"{source}: slice {s} must list {N} ToRs (\"tors\": {N}), got {got}")
        for a, row in enumerate(sl):
            if not isinstance(row, list) or len(row) != d:
                got = len(row) if isinstance(row, list) else type(row).__name__
                raise ScheduleError(f"{source}: slice {s}, ToR {a} must list {d} uplinks (\"uplinks\": {d}), got {got}")
            for u, p in enumerate(row):
                if p is None:
                    continue
                _int(p, f"{source}: slice {s}, ToR {a}, uplink {u}")
                if not 0 <= p < N:
                    raise ScheduleError(f"{source}: slice {s}, ToR {a}, uplink {u}: peer {_short(p)} is out of range "
                                        f"0..{N - 1}" + (" (use null for idle)" if p < 0 else ""))
    peer = np.array([[[IDLE if p is None else p for p in row] for row in sl] for sl in circuits], dtype=np.int32)
    peer = peer.reshape(S, N, d)
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
def parse_htsim(text: str, source: str = "htsim", complete: bool = True) -> Schedule:
    """Parse an htsim dynexp topology; every error names the line number and the field.
    ``complete=False``: a degraded schedule (pairs may never meet; see :class:`Schedule`).

    The declared sizes (tors, uplinks, slices) are checked against the lines present
    before anything is allocated, so a header promising 10^9 ToRs fails at once."""
    lines = text.splitlines()

    def tokens(i: int) -> list[str]:
        if i >= len(lines):
            raise ScheduleError(f"{source}: truncated file: line {i + 1} is missing")
        return lines[i].split()

    def ints(i: int, names: tuple[str, ...] | None = None) -> list[int]:
        out = []
        for j, x in enumerate(tokens(i)):
            try:
                out.append(int(x))
            except ValueError:
                what = f"{names[j]} " if names and j < len(names) else ""
                raise ScheduleError(f"{source}: line {i + 1}: {what}must be an integer, got {_short(x)}") from None
        return out

    names = ("hosts", "downlinks", "uplinks", "tors")
    head = ints(0, names)
    if len(head) < 4:
        raise ScheduleError(f"{source}: line 1: expected 'hosts downlinks uplinks tors', got {len(head)} value(s)")
    hosts, down, d, N = head[:4]
    bad = [f"{n} must be >= {lo}, got {v}" for n, v, lo in zip(names, (hosts, down, d, N), (0, 0, 1, 2)) if v < lo]
    if bad:
        raise ScheduleError(f"{source}: line 1: " + "; ".join(bad))
    second = []
    for j, x in enumerate(tokens(1)):
        try:
            second.append(float(x))
        except ValueError:
            field = ("slices", "connected_time_ps", "reconfig_time_ps")[j] if j < 3 else f"value {j + 1}"
            raise ScheduleError(f"{source}: line 2: {field} must be a number, got {_short(x)}") from None
    if len(second) < 3:
        raise ScheduleError(f"{source}: line 2: expected 'slices connected_time_ps reconfig_time_ps', got "
                            f"{len(second)} value(s)")
    S_f = second[0]
    if not (math.isfinite(S_f) and S_f == int(S_f) and S_f >= 1):
        raise ScheduleError(f"{source}: line 2: slices must be a positive integer, got {_short(tokens(1)[0])}")
    S = int(S_f)
    if len(lines) < 2 + S:
        raise ScheduleError(f"{source}: line 2 declares {S} slices but the file has {max(0, len(lines) - 2)} line(s) "
                            f"after the header (truncated file: line {len(lines) + 1} is missing)")
    connected_ps, reconfig_ps = second[1], second[2]
    if not (math.isfinite(connected_ps) and connected_ps > 0):
        raise ScheduleError(f"{source}: line 2: connected_time_ps must be positive, got {connected_ps:g}")
    if not (math.isfinite(reconfig_ps) and reconfig_ps >= 0):
        raise ScheduleError(f"{source}: line 2: reconfig_time_ps must be >= 0, got {reconfig_ps:g}")
    rows = []
    for s in range(S):
        n_tok = len(tokens(2 + s))
        if n_tok != N * d:  # before converting (and allocating) anything
            raise ScheduleError(f"{source}: line {3 + s}: slice {s} needs {N * d} peer ids (tors {N} x uplinks {d}), "
                                f"got {n_tok}")
        row = ints(2 + s)
        lo, hi = min(row), max(row)
        if lo < 0 or hi >= N:
            i = next(i for i, v in enumerate(row) if not 0 <= v < N)
            a, u = divmod(i, d)
            raise ScheduleError(f"{source}: line {3 + s}: ToR {a} uplink {u}: peer {_short(row[i])} is out of range "
                                f"0..{N - 1}")
        arr = np.asarray(row, dtype=np.int32).reshape(N, d)
        rows.append(np.where(arr == np.arange(N)[:, None], IDLE, arr))
    peer = np.stack(rows)
    timing = Timing(slice_us=(connected_ps + reconfig_ps) / 1e6, guard_us=reconfig_ps / 1e6)
    return Schedule(peer, timing, name=Path(source).stem, complete=complete)


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
    """Load a schedule: uro JSON (anything that starts like JSON: an object, a list,
    null, a string; a UTF-8 byte-order mark is allowed) or htsim dynexp (numbers)."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise UroError(f"schedule file not found: {p}") from None
    except (IsADirectoryError, PermissionError, OSError) as e:
        raise UroError(f"cannot read schedule {p}: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UroError(f"cannot read schedule {p}: not UTF-8 text (byte {e.start})") from None
    head = text.lstrip()[:8]
    if head[:1] in ("{", "[", '"') or head.startswith(("null", "true", "false")):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            raise ScheduleError(f"{p}: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
        except RecursionError:
            raise ScheduleError(f"{p}: JSON nested too deeply") from None
        if not isinstance(doc, dict):
            kind = "null" if doc is None else type(doc).__name__.replace("dict", "object").replace("str", "string")
            raise ScheduleError(f"{p}: a uro JSON schedule is an object (with \"format\": \"{FORMAT_TAG}\"), "
                                f"got a JSON {kind}")
        return from_dict(doc, str(p))
    return parse_htsim(text, str(p))


def save(sched: Schedule, path: str | Path, fmt: str = "json") -> None:
    if fmt == "json":
        write_text(path, dumps(sched))
    elif fmt == "htsim":
        write_text(path, format_htsim(sched))
    else:
        raise UroError(f"unknown schedule format {fmt!r} (choose json or htsim)")
