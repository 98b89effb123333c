"""Network profiles: the sizes and field widths one generated P4 program is built for.

A profile is a small TOML file (``profiles/<name>.toml``)::

    name = "tiny"
    tors = 8            # N ToRs (ToR ids 0..N-1)
    uplinks = 2         # d uplinks per ToR (one per OCS)
    host_ports = 2      # host-facing ports of a ToR: ports 0..host_ports-1
    slices = 4          # S slices per optical cycle
    alternatives = 3    # K one-shot alternatives per URO entry
    ssrr_hops = 4       # H hops an SSRR source route can carry (IPv4 options: H <= 9)
    queues = 4          # Q calendar queues per uplink (>= S: ranks go up to S-1)
    [widths]            # optional; an SSRR hop is 32 bits: tor + uplink + slice
    tor = 16
    uplink = 8
    slice = 8
    [timing]            # optional; slice capacity = usable slice time x link rate
    slice_us = 2.0
    guard_us = 0.01
    link_gbps = 100.0
    [tables]            # optional; what one ToR's source-route tables hold per generation
    ssrr_ranges = 3     # ssrr_path entries (bucket ranges) per (dst, start slice), on average
    ssrr_paths = 8      # selector members (paths, ties included) per (dst, start slice), on average
    ssrr_ties = 8       # tied paths of one entry at most (the selector's max group size)
    ssrr_dsts = 128     # destinations one ToR source-routes (optional; default all N-1)
    ssrr_shapes = 1024  # t2na: distinct group shapes (bucket ranges + ties) of one ToR
    [tofino2]           # optional; what changes when rendered for Tofino2 (one pipe's tables)
    ssrr_dsts = 64
    ssrr_hops = 3       # hops the t2na source routes store and parse (at most ssrr_hops)

Port layout of a ToR program: host ports ``0..host_ports-1``, then uplink ``u`` on
port ``host_ports + u``. The OCS emulator program has ``N x d`` ports, port
``tor * d + uplink`` being the OCS side of that ToR uplink. Both programs take timer
packets only from the CPU port :data:`CPU_PORT` (P4Runtime PacketOut).

Every table is sized from the network (:meth:`Profile.table_sizes`): the route tables
(keyed by a 1-bit route generation) hold two generations, so a new one can be written
beside the active one (hitless update). Every derived value is checked against the P4
field it lands in, with the profile key named (:meth:`Profile.problems`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

from controller import tomlfile
from controller.errors import UroError
from controller.resources import profiles_dir
from controller.routing.uro import MAX_ALTERNATIVES
from controller.tables.state import GENERATIONS
from controller.tomlfile import Section

#: v1model: 9-bit ports, 511 is the drop port; keep one spare below it.
V1MODEL_PORT_BITS = 9
V1MODEL_MAX_PORTS = 510
#: IPv4 options are at most 40 bytes: one NOP + SSRR header (4 bytes) + 4 bytes per hop.
MAX_SSRR_HOPS = 9
#: timer packets: IEEE 802 local experimental EtherType 1
TIMER_ETHERTYPE = 0x88B5
#: bmv2 CPU port (simple_switch_grpc --cpu-port): P4Runtime PacketOut enters here. Above
#: every data port (0..V1MODEL_MAX_PORTS-1), below the drop port 511.
CPU_PORT = V1MODEL_MAX_PORTS
#: bmv2 port of the emulated packet generator (the slice clock's TRIGGERs and PROBEs,
#: docs/clock.md), on the ToR and the OCS emulator: host, uplink and OCS ports stay below it
PKTGEN_PORT = 500
#: bmv2 ToR (docs/p4.md "Calendar queues on bmv2"): egress priority queues per port
#: (``simple_switch_grpc -- --priority-queues``): on an uplink, queues 0..HOLD_QUEUES-1 are
#: the hold queues a packet held for a later slice circles in, each paced at the hold pace;
#: the top one (DEPART_PRIORITY) carries what departs now, at the uplink's pace
PRIORITY_QUEUES = 8
HOLD_QUEUES = PRIORITY_QUEUES - 1
DEPART_PRIORITY = PRIORITY_QUEUES - 1
#: a hold queue holding this many packets is crowded: the next held packet takes the next one
HOLD_CROWD = 4
#: the slice clock shifts queue indices by 8-bit amounts (bmv2's limit on variable shifts)
MAX_QUEUES = 256
#: the Full/Unfull bitmap is one register read per packet; keep it a sane width
MAX_QSTATE_BITS = 4096
#: P4 table sizes are 32-bit
MAX_TABLE_SIZE = (1 << 31) - 1
U32 = (1 << 32) - 1

PROFILES_DIR = profiles_dir()


class ProfileError(UroError):
    """A profile file or value is invalid; the message names the field."""


@dataclass(frozen=True)
class Widths:
    tor: int = 16
    uplink: int = 8
    slice: int = 8


@dataclass(frozen=True)
class ProfileTiming:
    slice_us: float = 2.0
    guard_us: float = 0.01
    link_gbps: float = 100.0


@dataclass(frozen=True)
class ProfileTables:
    """What one ToR's source-route tables hold per route generation, per (dst, start slice).

    ``ssrr_ranges``/``ssrr_paths`` are averages over a ToR's (dst, slice) pairs: the
    ``ssrr_path`` table holds (N-1) x S x ranges entries and the selector (N-1) x S x paths
    members per generation, and a batch is checked against those totals. ``ssrr_ties`` is
    the largest group (tied paths of one entry), the selector's max group size.
    ``ssrr_dsts`` is how many destinations one ToR source-routes (the route mode of the
    others is URO per-hop); unset, all N-1. A switch whose tables cannot hold UCMP for every
    destination (one Tofino2 pipe at (1024, 32)) serves it for that many.
    UCMP on a 108 x 6 Opera-style schedule: 2.4 ranges and 3.5 paths per (dst, slice)
    on average (3.8 with ``ties = "all"``), at most ``min(max_parallel, d)`` ties per hop
    count (one per last-hop ToR; ``max_parallel`` with every tie).
    """

    ssrr_ranges: int = 3
    ssrr_paths: int = 8
    ssrr_ties: int = 8
    ssrr_dsts: int | None = None
    #: t2na: distinct group shapes (the bucket ranges of a (dst, start slice) group and each
    #: range's tie count) one ToR's source routes have per generation; the ``ssrr_level``
    #: table holds ssrr_shapes x ssrr_ranges entries per generation
    ssrr_shapes: int = 1024


#: the t2na program's slice clocks (``[tofino2] slice_clock``; docs/tofino2.md "The slice clock")
SLICE_CLOCKS = ("corrected", "generator")


@dataclass(frozen=True)
class Tofino2Overrides:
    """What a profile changes when rendered for Tofino2 (``[tofino2]``): one pipe holds less
    than a bmv2 switch, so the source-route tables can be sized for fewer destinations
    there (``ssrr_dsts``) while the bmv2 program of the same profile keeps them all, and
    source routes can be stored and parsed at the length the routes have (``ssrr_hops``,
    at most the profile's: UCMP's paths at (1024, 32) are at most 3 hops). ``clock_ticks``
    is how many times per slice the packet generator lets the data plane check its clock
    against the next slice boundary (default: as many as fit, at most 8; docs/tofino2.md
    "The slice clock"). ``slice_clock`` is ``"corrected"`` (default: the switch's clock plus
    the data plane's correction) or ``"generator"`` (the generator's period is the slice,
    every trigger ticks; no correction, nothing for the control plane to read or seed: for a
    profile whose pipe has no stage left for the corrected clock)."""

    ssrr_dsts: int | None = None
    ssrr_hops: int | None = None
    clock_ticks: int | None = None
    slice_clock: str | None = None


@dataclass(frozen=True)
class Profile:
    name: str
    tors: int
    uplinks: int
    host_ports: int
    slices: int
    alternatives: int
    ssrr_hops: int
    queues: int
    widths: Widths = field(default_factory=Widths)
    timing: ProfileTiming = field(default_factory=ProfileTiming)
    tables: ProfileTables = field(default_factory=ProfileTables)
    tofino2: Tofino2Overrides = field(default_factory=Tofino2Overrides)
    #: width of the UCMP bucket (DSCP -> bucket identity map: at least 6 bits)
    bucket_bits: int = 8
    #: a packet re-decided (re-sourced, or re-looked-up after its queue could not take it)
    #: more often than this on one ToR is dropped (UCMP §6.3: "more than 5 times")
    max_reroutes: int = 5

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise ProfileError(f"profile {self.name!r}: " + "; ".join(problems))

    # ---- validation --------------------------------------------------------------------
    def problems(self) -> list[str]:
        out: list[str] = []

        def need_int(name: str, lo: int, hi: int | None = None, why: str = "") -> bool:
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                out.append(f"{name} must be an integer, got {v!r}")
                return False
            if v < lo or (hi is not None and v > hi):
                rng = f">= {lo}" if hi is None else f"in {lo}..{hi}"
                out.append(f"{name} must be {rng}{why}, got {v}")
                return False
            return True

        if not isinstance(self.name, str) or not self.name.isidentifier():
            out.append(f"name must be an identifier (letters, digits, _), got {self.name!r}")
        ok_n = need_int("tors", 2)
        ok_d = need_int("uplinks", 1)
        need_int("host_ports", 1)
        ok_s = need_int("slices", 1)
        need_int("alternatives", 1, MAX_ALTERNATIVES, " (K one-shot alternatives)")
        need_int("ssrr_hops", 1, MAX_SSRR_HOPS, " (IPv4 options hold at most 9 SSRR hops)")
        ok_q = need_int("queues", 1, MAX_QUEUES, " (the slice clock shifts queue indices by at most 8 bits)")
        need_int("bucket_bits", 6, 16, " (the DSCP -> bucket map writes buckets 0..63)")
        need_int("max_reroutes", 1, 255, " (an 8-bit pass counter)")
        tb = self.tables
        if not isinstance(tb, ProfileTables):
            out.append(f"[tables] must be a table, got {tb!r}")
        else:
            for tname in ("ssrr_ranges", "ssrr_paths", "ssrr_ties", "ssrr_shapes"):
                v = getattr(tb, tname)
                if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                    out.append(f"tables.{tname} must be a positive integer, got {v!r}")
        over = self.tofino2
        if not isinstance(over, Tofino2Overrides):
            out.append(f"[tofino2] must be a table, got {over!r}")
        for key, v in (("tables.ssrr_dsts", getattr(tb, "ssrr_dsts", None)),
                       ("tofino2.ssrr_dsts", getattr(over, "ssrr_dsts", None))):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 1
                                  or (ok_n and v > self.tors - 1)):
                hi = f"1..{self.tors - 1} (the other ToRs)" if ok_n else "a positive integer"
                out.append(f"{key} must be in {hi}, got {v!r}")
        oh = getattr(over, "ssrr_hops", None)
        if oh is not None and (not isinstance(oh, int) or isinstance(oh, bool) or oh < 1
                               or (isinstance(self.ssrr_hops, int) and oh > self.ssrr_hops)):
            out.append(f"tofino2.ssrr_hops must be in 1..{self.ssrr_hops} (at most ssrr_hops), got {oh!r}")
        ot = getattr(over, "clock_ticks", None)
        if ot is not None and (not isinstance(ot, int) or isinstance(ot, bool) or ot < 1):
            out.append(f"tofino2.clock_ticks must be a positive integer, got {ot!r}")
        sc = getattr(over, "slice_clock", None)
        if sc is not None and sc not in SLICE_CLOCKS:
            out.append(f"tofino2.slice_clock must be one of {', '.join(map(repr, SLICE_CLOCKS))}, got {sc!r}")
        w = self.widths
        for wname in ("tor", "uplink", "slice"):
            v = getattr(w, wname)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                out.append(f"widths.{wname} must be a positive integer, got {v!r}")
        if out:
            return out
        if w.tor + w.uplink + w.slice != 32:
            out.append(
                f"widths.tor + widths.uplink + widths.slice must be 32 (one SSRR hop is 4 bytes), "
                f"got {w.tor} + {w.uplink} + {w.slice} = {w.tor + w.uplink + w.slice}"
            )
        if ok_n and self.tors > (1 << w.tor):
            out.append(f"tors = {self.tors} does not fit widths.tor = {w.tor} bits (max {1 << w.tor})")
        if ok_d and self.uplinks > (1 << w.uplink):
            out.append(f"uplinks = {self.uplinks} does not fit widths.uplink = {w.uplink} bits")
        if ok_s and self.slices > (1 << w.slice):
            out.append(f"slices = {self.slices} does not fit widths.slice = {w.slice} bits")
        if ok_s and self.slices > (1 << 16):
            out.append(f"slices = {self.slices} does not fit the 16-bit slice field of a timer packet")
        if ok_n and ok_d and self.uplinks >= self.tors:
            out.append(f"uplinks = {self.uplinks} must be fewer than tors = {self.tors}")
        if ok_q and ok_s and self.queues < self.slices:
            out.append(
                f"queues = {self.queues} is smaller than the rank range: departure slices up to "
                f"S - 1 = {self.slices - 1} slices ahead need queues >= slices = {self.slices}"
            )
        if self.host_ports + self.uplinks > V1MODEL_MAX_PORTS:
            out.append(
                f"host_ports + uplinks = {self.host_ports + self.uplinks} exceeds the "
                f"{V1MODEL_MAX_PORTS} ports of a v1model switch"
            )
        elif self.host_ports + self.uplinks > PKTGEN_PORT:
            out.append(
                f"host_ports + uplinks = {self.host_ports + self.uplinks} reaches port {PKTGEN_PORT}, "
                f"the packet generator's (the slice clock's TRIGGERs and PROBEs)"
            )
        if ok_n and self.tors > 0xFFFE:
            out.append(f"tors = {self.tors}: a sync message names ToRs 0..{0xFFFD} (0xFFFE and 0xFFFF are taken)")
        if ok_d and ok_q and self.qstate_bits > MAX_QSTATE_BITS:
            out.append(f"uplinks x queues = {self.uplinks} x {self.queues} = {self.qstate_bits} Full/Unfull bits "
                       f"exceed the {MAX_QSTATE_BITS}-bit queue-state register")
        t = self.timing
        if not isinstance(t, ProfileTiming):
            out.append(f"[timing] must be a table, got {t!r}")
            return out
        timing_ok = True
        for tname in ("slice_us", "link_gbps"):
            v = getattr(t, tname)
            if not _is_number(v) or not v > 0:
                out.append(f"timing.{tname} must be a positive finite number, got {v!r}")
                timing_ok = False
        if not _is_number(t.guard_us) or not (timing_ok and 0 <= t.guard_us < t.slice_us):
            out.append(f"timing.guard_us must be a number in [0, slice_us), got {t.guard_us!r}")
            timing_ok = False
        if timing_ok:
            cap = self.slice_capacity_bytes
            if not 1 <= cap <= U32:
                out.append(f"timing.slice_us = {t.slice_us!r}, guard_us = {t.guard_us!r}, link_gbps = {t.link_gbps!r} "
                           f"give a slice capacity of {cap} bytes, which does not fit the 32-bit "
                           f"capacity_bytes parameter (1..{U32})")
            rate = self.link_bytes_per_us
            if not 1 <= rate <= U32:
                out.append(f"timing.link_gbps = {t.link_gbps!r} gives {rate} bytes/us, which does not fit the "
                           f"32-bit bytes_per_us parameter (1..{U32})")
        if not out:
            for table, size in self.table_sizes().items():
                if size > MAX_TABLE_SIZE:
                    out.append(f"table {table} would need {size} entries, more than a P4 table holds "
                               f"({MAX_TABLE_SIZE}); lower tors, slices or [tables]")
        return out

    # ---- derived values ------------------------------------------------------------------
    @staticmethod
    def bits_for(n: int) -> int:
        """Bits needed to hold the values 0..n-1 (at least 1)."""
        return max(1, (n - 1).bit_length())

    @property
    def port_bits(self) -> int:
        return V1MODEL_PORT_BITS

    @property
    def uplink_port_base(self) -> int:
        return self.host_ports

    @property
    def queue_bits(self) -> int:
        return self.bits_for(self.queues)

    @property
    def qstate_bits(self) -> int:
        """Width of the one-register Full/Unfull bitmap: one bit per (uplink, queue)."""
        return self.uplinks * self.queues

    @property
    def slice_capacity_bytes(self) -> int:
        """Bytes an uplink carries in the usable part of one slice (URO §IV-C)."""
        t = self.timing
        return int((t.slice_us - t.guard_us) * t.link_gbps * 1000 / 8)

    @property
    def link_bytes_per_us(self) -> int:
        """Bytes an uplink sends per microsecond (the byte clock of the active queue)."""
        return int(self.timing.link_gbps * 1000 / 8)

    @property
    def default_max_timer_step(self) -> int:
        """Largest forward step of the slice clock a timer may make (config ``max_timer_step``).

        The daemon sends one timer per slice (step 1); 2 tolerates one lost timer. A step
        must stay below S/2 to tell a late (backward) timer from a forward one, hence
        ``min(2, (S-1)//2)``, at least 1."""
        return max(1, min(2, (self.slices - 1) // 2))

    def table_sizes(self) -> dict[str, int]:
        """Entries of every table (and members of the selector), from the network.

        Route tables (generation-keyed) hold ``GENERATIONS`` x one ToR's need:
        ``uro_next_hop`` (N-1) x S (URO Table II), ``route_mode`` N-1, ``ssrr_path``
        D x S x tables.ssrr_ranges, selector members D x S x tables.ssrr_paths (D =
        tables.ssrr_dsts, default N-1),
        OCS ``circuit`` N x d x S. Static tables hold one copy: ``host_dst`` the N-1
        remote ToR prefixes + the host ports, ``ssrr_bucket`` the 64 DSCP values."""
        n1s = (self.tors - 1) * self.slices
        ds = self.ssrr_dsts * self.slices
        g = GENERATIONS
        return {
            "config": 1,
            "host_dst": self.tors - 1 + self.host_ports,
            "route_mode": g * (self.tors - 1),
            "uro_next_hop": g * n1s,
            "ssrr_bucket": 64,
            "ssrr_path": g * ds * self.tables.ssrr_ranges,
            "ssrr_selector": g * ds * self.tables.ssrr_paths,
            "circuit": g * self.tors * self.uplinks * self.slices,
            "clock_config": 1,
            "sync_peer": self.slices * self.uplinks,
            "liveness_config": 1,
        }

    def for_target(self, target: str) -> "Profile":
        """The profile as rendered for ``target``: ``[tofino2]`` overrides applied for tofino2."""
        if target != "tofino2":
            return self
        out = self
        if self.tofino2.ssrr_dsts is not None:
            out = replace(out, tables=replace(out.tables, ssrr_dsts=self.tofino2.ssrr_dsts))
        if self.tofino2.ssrr_hops is not None:
            out = replace(out, ssrr_hops=self.tofino2.ssrr_hops)
        return out

    @property
    def ssrr_dsts(self) -> int:
        """Destinations one ToR's source-route tables are sized for (tables.ssrr_dsts, or all)."""
        return self.tables.ssrr_dsts if self.tables.ssrr_dsts is not None else self.tors - 1

    @property
    def ocs_ports(self) -> int:
        return self.tors * self.uplinks

    @property
    def ocs_fits(self) -> bool:
        """The OCS emulator's N x d ports fit below the packet generator's port."""
        return self.ocs_ports <= PKTGEN_PORT

    def programs(self) -> list[str]:
        """Programs this profile renders: the ToR, and the OCS emulator when its N x d ports fit v1model."""
        return ["tor", "ocs"] if self.ocs_fits else ["tor"]

    def check_program(self, program: str) -> None:
        if program not in ("tor", "ocs"):
            raise ProfileError(f"unknown program {program!r} (available: tor, ocs)")
        if program == "ocs" and not self.ocs_fits:
            raise ProfileError(
                f"profile {self.name!r}: the OCS emulator needs tors x uplinks = {self.ocs_ports} ports, "
                f"a v1model switch has {PKTGEN_PORT} below its packet generator's port"
            )


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


_TOP_KEYS = {"name", "tors", "uplinks", "host_ports", "slices", "alternatives", "ssrr_hops", "queues",
             "widths", "timing", "tables", "tofino2", "bucket_bits", "max_reroutes"}
_SUB_TABLES = (("widths", Widths), ("timing", ProfileTiming), ("tables", ProfileTables),
               ("tofino2", Tofino2Overrides))


def from_dict(doc: dict, source: str = "<profile>") -> Profile:
    if "max_hops" in doc and "ssrr_hops" not in doc:  # the key's name before 0.2
        import sys

        print(f"uro: warning: {source}: key 'max_hops' is deprecated, use 'ssrr_hops' (SSRR hops H)", file=sys.stderr)
        doc = {("ssrr_hops" if k == "max_hops" else k): v for k, v in doc.items()}
    top = Section(doc, source, ProfileError, dotted=True)
    top.done(_TOP_KEYS)
    top.require("name", "tors", "uplinks", "host_ports", "slices", "alternatives", "ssrr_hops", "queues")
    kw = dict(doc)
    for key, cls in _SUB_TABLES:
        sub = Section(kw.get(key, {}), source, ProfileError, key, dotted=True)
        sub.done(cls.__dataclass_fields__)
        kw[key] = cls(**sub.doc)
    try:
        return Profile(**kw)
    except ProfileError as e:
        raise ProfileError(f"{source}: {e}") from None


def load(name_or_path: str | Path) -> Profile:
    """Load ``profiles/<name>.toml`` or a TOML file path."""
    p = Path(name_or_path)
    if p.suffix != ".toml":
        p = PROFILES_DIR / f"{name_or_path}.toml"
        if not p.exists():
            raise ProfileError(f"unknown profile {str(name_or_path)!r} (available: {', '.join(available())})")
    return from_dict(tomlfile.read(p, ProfileError), str(p))


def available() -> list[str]:
    return sorted(f.stem for f in PROFILES_DIR.glob("*.toml"))
