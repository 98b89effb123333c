"""A check of bf-p4c's output (the assembly, ``pipe/<program>.bfa``): no action arithmetic
on a PHV container that holds other live fields at other bit positions.

A Tofino action ALU adds, subtracts, compares (min/max) and shifts whole containers. When
bf-p4c packs a field into the upper bits of a container whose lower bits hold another live
field, an ``add``/``sub`` of that container carries or borrows the other field's bits into
it. bf-p4c 9.13.4 did this to the t2na ToR: ``meta.prev_next_tor - meta.my_tor`` became
``sub W6, W6, W4`` with my_tor in W4(16..31) and the SSRR hop's slice and uplink live in
W4(0..15); 0 - 0 read 0xFFFF (tofino-model's log) and every transit packet whose hop left
in a slice or on an uplink > 0 was dropped as ``bad_ssrr``. The compiler reported nothing,
so the build checks it (docs/tofino2.md, "On the model").

Fields that share a container at the SAME low bit in the same stage are exclusive overlays
(headers of different packets, metadata of exclusive branches): the op sees one of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: action ALU operations whose result in one bit depends on lower (or higher) bits
ARITH = frozenset({"add", "addc", "sub", "subc", "subr", "sadd", "saddu", "ssub", "ssubu",
                   "minu", "maxu", "mins", "maxs", "shl", "shru", "shrs"})
_CONTAINER = re.compile(r"[MDT]?[BHW]\d+")
_SLICE = re.compile(r"stage (\d+)(?:\.\.(\d+))?: (\w+)(?:\((\d+)(?:\.\.(\d+))?\))?")
_WHOLE = re.compile(r"(\w+)(?:\((\d+)(?:\.\.(\d+))?\))?")
_ALL_STAGES = (0, 10 ** 6)


@dataclass(frozen=True)
class Placement:
    field: str
    container: str
    low: int            # the field's lowest bit in the container
    first: int          # stages it lives there
    last: int


@dataclass(frozen=True)
class Finding:
    gress: str
    stage: int
    line: int           # 1-based, in the .bfa
    instruction: str
    container: str
    fields: tuple[str, ...]

    def __str__(self) -> str:
        return (f"{self.gress} stage {self.stage}: '{self.instruction}' (.bfa line {self.line}) computes on "
                f"{self.container}, which holds {', '.join(self.fields)} at different bits: carries cross them")


def placements(lines: list[str], gress: str) -> list[Placement]:
    """The ``phv <gress>:`` section: where each field lives, in which stages."""
    try:
        start = lines.index(f"phv {gress}:")
    except ValueError:
        return []
    out = []
    for ln in lines[start + 1:]:
        if not ln.startswith("  "):
            break
        m = re.match(r"  (\S+): (.*)$", ln)
        if not m:
            continue
        field, rest = m.groups()
        parts = _SLICE.findall(rest)
        if parts:
            for first, last, c, low, _ in parts:
                out.append(Placement(field, c, int(low or 0), int(first), int(last or first)))
        else:
            w = _WHOLE.match(rest.strip())
            if w and _CONTAINER.fullmatch(w.group(1)):
                out.append(Placement(field, w.group(1), int(w.group(2) or 0), *_ALL_STAGES))
    return out


def shared_arithmetic(bfa: str, gress: str = "ingress") -> list[Finding]:
    """Every arithmetic instruction of ``gress`` with an operand container that, in that
    stage, holds live fields starting at different bits."""
    lines = bfa.splitlines()
    by_container: dict[str, list[Placement]] = {}
    for p in placements(lines, gress):
        by_container.setdefault(p.container, []).append(p)
    found, stage = [], None
    for n, ln in enumerate(lines, 1):
        m = re.match(r"stage (\d+) (\w+):", ln)
        if m:
            stage = int(m.group(1)) if m.group(2) == gress else None
            continue
        if stage is None or not ln.strip():
            continue
        if not ln.startswith(" "):
            stage = None
            continue
        m = re.match(r"\s+- (\w+) (.*)$", ln)
        if not m or m.group(1) not in ARITH:
            continue
        seen = set()
        for op in (o.strip() for o in m.group(2).split(",")):
            if not _CONTAINER.fullmatch(op) or op in seen:
                continue
            seen.add(op)
            live = [p for p in by_container.get(op, ()) if p.first <= stage <= p.last]
            if len({p.low for p in live}) > 1:
                found.append(Finding(gress, stage, n, ln.strip()[2:], op,
                                     tuple(sorted({p.field for p in live}))))
    return found
