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

Port layout of a ToR program: host ports ``0..host_ports-1``, then uplink ``u`` on
port ``host_ports + u``. The OCS emulator program has ``N x d`` ports, port
``tor * d + uplink`` being the OCS side of that ToR uplink.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from controller.errors import UroError
from controller.resources import profiles_dir
from controller.routing.uro import MAX_ALTERNATIVES

#: v1model: 9-bit ports, 511 is the drop port; keep one spare below it.
V1MODEL_PORT_BITS = 9
V1MODEL_MAX_PORTS = 510
#: IPv4 options are at most 40 bytes: one NOP + SSRR header (4 bytes) + 4 bytes per hop.
MAX_SSRR_HOPS = 9
#: timer packets: IEEE 802 local experimental EtherType 1
TIMER_ETHERTYPE = 0x88B5

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
    #: table sizes (entries)
    host_table_size: int = 1024
    bucket_bits: int = 8
    selector_size: int = 1024

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
        ok_q = need_int("queues", 1)
        need_int("host_table_size", 1)
        need_int("selector_size", 1)
        need_int("bucket_bits", 1, 16)
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
        t = self.timing
        for tname in ("slice_us", "link_gbps"):
            v = getattr(t, tname)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not v > 0:
                out.append(f"timing.{tname} must be a positive number, got {v!r}")
        if not isinstance(t.guard_us, (int, float)) or not 0 <= t.guard_us < (t.slice_us or 0):
            out.append(f"timing.guard_us must be in [0, slice_us), got {t.guard_us!r}")
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
        """Bytes an uplink carries in the usable part of one slice."""
        t = self.timing
        return int((t.slice_us - t.guard_us) * t.link_gbps * 1000 / 8)

    @property
    def uro_table_size(self) -> int:
        """(N - 1) x S exact entries (URO Table II)."""
        return (self.tors - 1) * self.slices

    @property
    def ssrr_table_size(self) -> int:
        """(dst, start slice, bucket) entries: room for 16 buckets per (dst, slice)
        (UCMP Table 2: ~5 per (dst, slice) at (108, 6))."""
        return (self.tors - 1) * self.slices * 16

    @property
    def ocs_ports(self) -> int:
        return self.tors * self.uplinks

    @property
    def ocs_fits(self) -> bool:
        return self.ocs_ports <= V1MODEL_MAX_PORTS

    def programs(self) -> list[str]:
        """Programs this profile renders: the ToR, and the OCS emulator when its N x d ports fit v1model."""
        return ["tor", "ocs"] if self.ocs_fits else ["tor"]

    def check_program(self, program: str) -> None:
        if program not in ("tor", "ocs"):
            raise ProfileError(f"unknown program {program!r} (available: tor, ocs)")
        if program == "ocs" and not self.ocs_fits:
            raise ProfileError(
                f"profile {self.name!r}: the OCS emulator needs tors x uplinks = {self.ocs_ports} ports, "
                f"a v1model switch has {V1MODEL_MAX_PORTS}"
            )


_TOP_KEYS = {"name", "tors", "uplinks", "host_ports", "slices", "alternatives", "ssrr_hops", "queues",
             "widths", "timing", "host_table_size", "bucket_bits", "selector_size"}


def from_dict(doc: dict, source: str = "<profile>") -> Profile:
    if "max_hops" in doc and "ssrr_hops" not in doc:  # the key's name before 0.2
        import sys

        print(f"uro: warning: {source}: key 'max_hops' is deprecated, use 'ssrr_hops' (SSRR hops H)", file=sys.stderr)
        doc = {("ssrr_hops" if k == "max_hops" else k): v for k, v in doc.items()}
    unknown = sorted(set(doc) - _TOP_KEYS)
    if unknown:
        raise ProfileError(f"{source}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_TOP_KEYS))})")
    missing = [k for k in ("name", "tors", "uplinks", "host_ports", "slices", "alternatives", "ssrr_hops", "queues")
               if k not in doc]
    if missing:
        raise ProfileError(f"{source}: missing key {missing[0]!r}")
    kw = dict(doc)
    for key, cls in (("widths", Widths), ("timing", ProfileTiming)):
        sub = kw.get(key, {})
        if not isinstance(sub, dict):
            raise ProfileError(f"{source}: [{key}] must be a table")
        known = set(cls.__dataclass_fields__)
        bad = sorted(set(sub) - known)
        if bad:
            raise ProfileError(f"{source}: unknown key {key}.{bad[0]!r} (known: {', '.join(sorted(known))})")
        kw[key] = cls(**sub)
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
    try:
        with open(p, "rb") as fh:
            doc = tomllib.load(fh)
    except FileNotFoundError:
        raise ProfileError(f"profile file {str(p)!r} not found") from None
    except tomllib.TOMLDecodeError as e:
        raise ProfileError(f"{p}: not valid TOML: {e}") from None
    return from_dict(doc, str(p))


def available() -> list[str]:
    return sorted(f.stem for f in PROFILES_DIR.glob("*.toml"))
