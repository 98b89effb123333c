"""Resource usage of a compiled t2na program, next to the papers' figures.

bf-p4c (``--verbose 1``) writes ``pipe/logs/resources.json`` (per MAU stage: SRAM and TCAM
blocks with the tables using them, hash bits, hash distribution units, stateful ALUs,
gateways, VLIW instructions) and ``pipe/logs/phv.json`` (PHV containers). :func:`load`
reads them into :class:`Resources`; :func:`format_report` prints them next to URO Table II
(per-hop table SRAM) and UCMP Table 2 (source-route table SRAM).

What is compared: the papers report the SRAM of their lookup table as a share of the
chip's SRAM; we report the SRAM blocks bf-p4c allocated to ``uro_next_hop`` (sized
(N - 1) x S, URO Table II's entries per ToR) and to the source-route tables (``ssrr_path``,
``ssrr_level``, ``ssrr_hops``, the flow-hash pick ``ssrr_picks``; builds before the exact
layout: ``ssrr_path`` with its selector), as a share of all 20 x 80 SRAM blocks of a
Tofino2 pipe, and the whole program's usage.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from controller.errors import UroError
from controller.tofino2 import ssrr

#: URO Table II: (N, d) -> (max #Q/port, #entries/ToR, SRAM %)
URO_TABLE_II = {(108, 6): (18, "1.9K", 1.13), (324, 12): (27, "8.8K", 2.31),
                (768, 24): (32, "24.6K", 6.13), (1024, 32): (32, "32.8K", 7.31)}
#: UCMP Table 2: (N, d) -> (#Q/port, #buckets, #entries/ToR, SRAM %)
UCMP_TABLE_2 = {(108, 6): (18, 27, "9.5K", 0.38), (324, 12): (27, 34, "50K", 0.94),
                (768, 24): (32, 36, "140K", 2.31), (1024, 32): (32, 42, "187K", 3.06)}


#: the source-route tables of a t2na build (and the selector of builds before the exact layout)
SOURCE_ROUTE_TABLES = ("ssrr_path", "ssrr_level", "ssrr_first", "ssrr_hops", "ssrr_picks", "ssrr_selector", "ssrr_selector_profile")


class ReportError(UroError):
    pass


@dataclass
class Usage:
    used: int = 0
    total: int = 0

    @property
    def pct(self) -> float:
        return 100.0 * self.used / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"{self.used}/{self.total} ({self.pct:.2f}%)"


@dataclass
class Resources:
    program: str
    stages: int                       # MAU stages with a table
    stages_total: int
    sram: Usage = field(default_factory=Usage)
    tcam: Usage = field(default_factory=Usage)
    hash_bits: Usage = field(default_factory=Usage)
    hash_dist: Usage = field(default_factory=Usage)
    stateful_alus: Usage = field(default_factory=Usage)
    gateways: Usage = field(default_factory=Usage)
    phv_bits: Usage = field(default_factory=Usage)
    sram_by_table: Counter = field(default_factory=Counter)
    tcam_by_table: Counter = field(default_factory=Counter)
    compile_seconds: float | None = None
    compiler: str | None = None

    def table_sram(self, *names: str) -> Usage:
        """SRAM blocks of the tables whose name ends with one of ``names``, with their action
        data RAMs (bf-p4c names those ``<table>$action``)."""
        n = sum(c for t, c in self.sram_by_table.items() if any(t.split("$")[0].endswith(x) for x in names))
        return Usage(n, self.sram.total)

    def table_tcam(self, *names: str) -> Usage:
        """TCAM blocks of the tables whose name ends with one of ``names``."""
        n = sum(c for t, c in self.tcam_by_table.items() if any(t.split("$")[0].endswith(x) for x in names))
        return Usage(n, self.tcam.total)


def _program_dir(path: Path) -> Path:
    """The compiler's output directory of a program, given it or a build directory holding one."""
    if (path / "pipe" / "logs" / "resources.json").is_file():
        return path
    found = sorted(p.parent.parent.parent for p in path.glob("*/pipe/logs/resources.json"))
    if not found:
        raise ReportError(f"no compiled t2na program with resource logs under {path} "
                          "(build it: uro p4 build --target tofino2 --profile ...)")
    return found[0]


def load(path: str | Path) -> Resources:
    d = _program_dir(Path(path))
    try:
        res = json.loads((d / "pipe" / "logs" / "resources.json").read_text())["resources"]
    except (OSError, ValueError, KeyError) as e:
        raise ReportError(f"{d}/pipe/logs/resources.json: unreadable resource report ({e})") from None
    stages = res["mau"]["mau_stages"]
    n_total = int(res["mau"].get("nStages", 20))
    r = Resources(d.name, 0, n_total)
    used_stages = set()
    for st in stages:
        rams, tcams = st["rams"], st["tcams"]
        r.sram.total += rams["nRows"] * rams["nColumns"]
        r.tcam.total += tcams["nRows"] * tcams["nColumns"]
        hb = st["hash_bits"]
        r.hash_bits.total += hb["nBits"] * hb["nFunctions"]
        hd = st["hash_distribution_units"]
        r.hash_dist.total += hd["nHashIds"] * hd["nUnitIds"]
        r.stateful_alus.total += st["meter_alus"]["nAlus"]
        gw = st["gateways"]
        r.gateways.total += gw["nRows"] * gw["nUnits"]
        r.sram.used += len(rams["srams"])
        r.tcam.used += len(tcams["tcams"])
        r.hash_bits.used += len(hb["bits"])
        r.hash_dist.used += len(hd["units"])
        r.stateful_alus.used += len(st["meter_alus"]["meters"])
        r.gateways.used += len(gw["gateways"])
        for blk in rams["srams"]:
            for u in {x["used_by"] for x in blk.get("usages", [])}:
                r.sram_by_table[u] += 1
        for blk in tcams["tcams"]:
            for u in {x["used_by"] for x in blk.get("usages", [])}:
                r.tcam_by_table[u] += 1
        if st["logical_tables"]["ids"]:
            used_stages.add(st["stage_number"])
    # stages listed cover only those the program reaches; scale totals to the whole pipe
    listed = len(stages) or 1
    for u in (r.sram, r.tcam, r.hash_bits, r.hash_dist, r.stateful_alus, r.gateways):
        u.total = u.total * n_total // listed
    r.stages = max(used_stages) + 1 if used_stages else 0
    try:
        phv = json.loads((d / "pipe" / "logs" / "phv.json").read_text())
        r.phv_bits.total = sum(g["num_containers"] * g["bit_width"] for g in phv.get("resources", []))
        seen = {}
        for c in phv.get("containers", []):
            seen[c["phv_number"]] = c["bit_width"]
        r.phv_bits.used = sum(seen.values())
    except (OSError, ValueError, KeyError):
        pass
    try:
        info = json.loads((d / "build.json").read_text())
        r.compile_seconds, r.compiler = info.get("seconds"), info.get("version")
    except (OSError, ValueError):
        pass
    return r


def format_report(r: Resources, profile=None) -> str:
    lines = [f"t2na program {r.program}" + (f" (compiled in {r.compile_seconds:.0f} s by {r.compiler})"
                                            if r.compile_seconds is not None else "")]
    rows = [("MAU stages", f"{r.stages}/{r.stages_total}"), ("SRAM blocks", str(r.sram)),
            ("TCAM blocks", str(r.tcam)), ("hash bits", str(r.hash_bits)),
            ("hash distribution units", str(r.hash_dist)), ("stateful ALUs", str(r.stateful_alus)),
            ("gateways", str(r.gateways)), ("PHV bits", str(r.phv_bits))]
    w = max(len(a) for a, _ in rows)
    lines += [f"  {a.ljust(w)}  {b}" for a, b in rows]
    uro = r.table_sram("uro_next_hop")
    ucmp = r.table_sram(*SOURCE_ROUTE_TABLES)
    ucmp_tcam = r.table_tcam(*SOURCE_ROUTE_TABLES)
    lines.append("lookup tables (SRAM blocks of the pipe):")
    if profile is not None:
        profile = profile.for_target("tofino2")          # its [tofino2] sizing, as rendered
        nd = (profile.tors, profile.uplinks)
        sizes = profile.table_sizes()
        lines.append(f"  uro_next_hop ({sizes['uro_next_hop']} entries = 2 generations x (N-1) x S, "
                     f"K = {profile.alternatives}): {uro}")
        paper = URO_TABLE_II.get(nd)
        lines.append(f"    URO Table II {nd}: " + (f"{paper[1]} entries/ToR, SRAM {paper[2]:.2f}%, "
                                                   f"#Q/port {paper[0]} (ours: {profile.queues})"
                                                   if paper else "not in the table"))
        L = ssrr.layout(profile)
        lines.append(f"  source routes: ssrr_path {L['path_size']} groups + ssrr_level {L['level_size']} + ssrr_hops "
                     f"{L['hops_size']} paths (2 generations, paths of <= {profile.ssrr_hops} hops; "
                     f"{profile.ssrr_dsts} of {profile.tors - 1} destinations source-routed): SRAM {ucmp}, "
                     f"TCAM {ucmp_tcam.used}/{ucmp_tcam.total}")
        paper2 = UCMP_TABLE_2.get(nd)
        lines.append(f"    UCMP Table 2 {nd}: " + (f"{paper2[2]} entries/ToR, {paper2[1]} buckets, SRAM "
                                                    f"{paper2[3]:.2f}%" if paper2 else "not in the table"))
    else:
        lines.append(f"  uro_next_hop: {uro}")
        lines.append(f"  source routes: SRAM {ucmp}, TCAM {ucmp_tcam.used}/{ucmp_tcam.total}")
    return "\n".join(lines)
