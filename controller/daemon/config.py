"""The network config (``net.toml``) of `uro daemon` and `uro agent push` (the one
loader), parsed with tomllib and checked as a whole before anything talks to a switch.

What it holds (docs/daemon.md documents every key; ``examples/*.toml`` are commented
starting points): the schedule (a file or a generator), routing (URO per-hop parameters,
which destinations are source-routed and with which algorithm), the bmv2 slice clock,
the compiled program of each role, the daemon's own settings (status API, reconcile
period) and every switch (role, ToR id, target, P4Runtime address, device and election
id, port map, TLS).

:func:`load` checks the file itself: keys, types, ranges, names and ToR ids used once,
program files present, port maps agreeing with the generated program's fixed port
layout (host ports ``0..host_ports-1``, uplink ``u`` on ``host_ports + u``,
:mod:`controller.p4gen.profile`). What needs the schedule and the programs (N, d, S, K
and widths, P4Info) is checked by :mod:`controller.daemon.plan`. Every problem is one
:class:`ConfigError` line naming the file, the switch and the field.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller import tomlfile
from controller.clock.params import DEFAULT_MAX_DRIFT_PPM, ClockParams
from controller.liveness.damping import DampingParams
from controller.liveness.params import LivenessParams
from controller.daemon.auth import ApiAccess, api_access
from controller.errors import UroError
from controller.schedule import GENERATORS
from controller.tomlfile import Section

ROLES = ("tor", "ocs")
#: the bmv2 slice clock cannot keep microseconds; below this the timer thread is all noise
MIN_SLICE_MS = 1.0
#: P4Runtime election ids are uint128; we take what fits a uint64 (the low half)
MAX_ELECTION_ID = (1 << 64) - 1
LOCALHOSTS = ("127.0.0.1", "::1", "localhost")


class ConfigError(UroError):
    """A problem with the network config; the message names file, switch and field."""


# ---- the parsed config ------------------------------------------------------------------------
@dataclass(frozen=True)
class Tls:
    """gRPC transport security of one switch: TLS with these files, or plaintext when
    ``insecure`` (only when the config says so; the daemon logs it at start)."""

    insecure: bool = False
    ca: Path | None = None
    cert: Path | None = None
    key: Path | None = None


@dataclass(frozen=True)
class PortMap:
    """Device ports of a ToR: ``hosts`` (host-facing), ``uplinks[u]`` (uplink u), and the
    Linux interface of uplink ``u`` watched for link state (``None``: not watched)."""

    hosts: tuple[int, ...]
    uplinks: tuple[int, ...]
    interfaces: tuple[str | None, ...]


@dataclass(frozen=True)
class SwitchConfig:
    name: str
    role: str
    target: str
    address: str
    program: str
    tor: int | None = None
    device_id: int = 0
    election_id: int = 1
    ports: PortMap | None = None
    tls: Tls = field(default_factory=Tls)

    @property
    def where(self) -> str:
        return f"switch {self.name!r}"


@dataclass(frozen=True)
class ProgramConfig:
    """A compiled program: its pipeline contract and the target's files (``p4info`` and
    ``device_config`` for bmv2; whatever the target's backend names for others)."""

    name: str
    contract_path: Path
    contract: dict
    files: dict[str, Path]

    @property
    def role(self) -> str:
        return self.contract.get("program", "")

    @property
    def target(self) -> str:
        return self.contract.get("target", "")

    @property
    def profile(self) -> dict:
        return self.contract["profile"]


@dataclass(frozen=True)
class ScheduleConfig:
    file: Path | None = None
    generate: str | None = None
    tors: int | None = None
    uplinks: int | None = None
    seed: int = 0
    timing: dict = field(default_factory=dict)   # Timing overrides (slice_us, guard_us, ...)


@dataclass(frozen=True)
class AlgoConfig:
    algo: str | None                             # None: from the artifact
    params: dict                                 # algorithm parameters as given (checked by plan)
    artifact: Path | None = None                 # a compact route artifact instead of computing


@dataclass(frozen=True)
class RoutingConfig:
    per_hop: AlgoConfig | None
    source: AlgoConfig | None
    source_routed: tuple[int, ...] | str         # ToR ids, or "all"


#: the clock modes: the switches keep the slice clock themselves and the daemon seeds and
#: watches it (docs/clock.md), or the daemon sends every slice's timer (tests that control time)
CLOCK_MODES = ("sync", "timer")


@dataclass(frozen=True)
class ClockConfig:
    """``[clock]``: the slice length, the ToR program's queue model, and the slice clock's
    mode and synchronization parameters (docs/clock.md "Modes and configuration").

    After :func:`parse` every optional bound is a number: ``max_offset_us`` (default a
    quarter slice), ``max_delay_us`` (default an eighth) and ``alarm_us`` (default the
    guard, or a tenth of the slice without one); ``guard_us`` is the ToR program's
    reconfiguration guard (``timing.guard_us``) as the same share of this clock's slice."""

    slice_ms: float = 50.0
    capacity_bytes: int | None = None            # per (uplink, calendar queue); None: the profile's
    bytes_per_us: int | None = None              # byte clock of the active queue; 0: off; None: the profile's
    mode: str = "timer"                          # the mode every target runs (docs/clock.md "Modes and configuration")
    leads: tuple[int, ...] = (0, 1)              # lead candidates, in order
    ref_uplink: int = 0                          # the uplink a lead reaches the reference on
    exchange_every: int = 1                      # slices between two exchanges on one uplink
    max_offset_us: float | None = None           # one exchange moves a synchronized clock by at most this
    max_delay_us: float | None = None            # an exchange with a longer path delay is not used
    refuse_limit: int = 3                        # refused exchanges in a row before a ToR declares itself lost
    holdover_cycles: int = 2                     # lead silent this long: the next candidate claims
    servo_shift: int = 4                         # rate gain 2^-shift
    phase_shift: int = 0                         # phase gain 2^-shift (offsets within 2 x filter; 0: whole)
    filter_us: float | None = None               # clock filter: delay above the least seen by more -> not used
    rate_step_ppm: int | None = None             # the most one exchange moves the local slice length (ppm of L)
    alarm_us: float | None = None                # the daemon's alarm threshold on a ToR's error
    guard_us: float = 0.0                        # derived: the ToR program's guard on this clock

    @property
    def sync(self) -> bool:
        return self.mode == "sync"

    @property
    def slice_us(self) -> float:
        return self.slice_ms * 1000.0

    def params(self) -> ClockParams:
        """The data plane's view of this clock (``controller.clock.params.ClockParams``,
        times in ns): what the ``clock_config`` entries are built from. Unresolved bounds
        stay None (the parameters' own defaults)."""
        def ns(us: float | None) -> int | None:
            return None if us is None else round(us * 1000)

        return ClockParams(slice_ns=round(self.slice_us * 1000), guard_ns=round(self.guard_us * 1000), mode=self.mode,
                           leads=tuple(self.leads), ref_uplink=self.ref_uplink, exchange_every=self.exchange_every,
                           max_offset_ns=ns(self.max_offset_us), max_delay_ns=ns(self.max_delay_us),
                           refuse_limit=self.refuse_limit, holdover_cycles=self.holdover_cycles,
                           servo_shift=self.servo_shift, phase_shift=self.phase_shift,
                           filter_ns=ns(self.filter_us),
                           **({} if self.rate_step_ppm is None else {"rate_step_ppm": self.rate_step_ppm}))


@dataclass(frozen=True)
class DaemonSettings:
    status_host: str = "127.0.0.1"
    status_port: int = 10559
    reconcile_s: float = 10.0
    reconnect_s: float = 1.0
    #: read-backs run together at most (controller/daemon/gate.py: bounded work in flight
    #: when a failure arrives, none started until it is handled)
    reconciles_at_once: int = 2
    rpc_timeout_s: float = 5.0
    log_format: str = "json"
    election_id: int = 1                         # default of every switch's election_id
    hold_s: float | None = None                  # old generation kept after a flip (None: from the clock)
    diff_writes: bool = True                     # retired generation kept as the routes' shadow (Diff-only writes)
    incremental: bool = True                     # a failure's routes repaired, only changed cells written
    #: the route sets kept for failed sets seen before (plan.RouteCache) hold at most this
    #: many MiB of arrays besides the newest (the routes the network runs)
    route_cache_mib: int = 1536
    #: worker processes that own shares of the switches (0: every switch in the daemon's
    #: process; controller/daemon/workers.py) and the Dask scheduler they run under (None:
    #: a local cluster of ``workers`` processes on the loopback)
    workers: int = 0
    scheduler: str | None = None
    #: a worker silent this long (no heartbeat to the scheduler: its process frozen,
    #: stopped or cut off) is dropped by the local cluster's scheduler and its switches
    #: taken over; half of it prints a frozen worker's threads to its stderr
    worker_silent_s: float = 30.0
    #: how long a start waits for a switch that refuses the daemon's election id as held:
    #: the holder may be this daemon's own session from before a crash, which the switch
    #: drops only once it has seen the dead process's connection close (bmv2 under load:
    #: seconds)
    held_id_wait_s: float = 15.0
    #: the status API's access (bearer token for writes, who may read, optional HTTPS):
    #: controller/daemon/auth.py; None = the defaults (token file next to the config)
    api: "ApiAccess | None" = None


@dataclass(frozen=True)
class HostsConfig:
    """Host flow aging (UCMP §6.1, :mod:`controller.host`): the network namespaces of the
    hosts whose nftables DSCP rules the daemon keeps in step with the source routes'
    buckets, and the weight factor alpha (Eq. 2-4) the thresholds are made with."""

    alpha: float = 0.5
    netns: tuple[str, ...] = ()


@dataclass(frozen=True)
class NetConfig:
    path: Path
    name: str
    schedule: ScheduleConfig
    routing: RoutingConfig
    clock: ClockConfig
    programs: dict[str, ProgramConfig]
    switches: tuple[SwitchConfig, ...]
    daemon: DaemonSettings
    hosts: HostsConfig = field(default_factory=HostsConfig)
    liveness: LivenessParams = field(default_factory=LivenessParams)

    def switch(self, name: str) -> SwitchConfig:
        for s in self.switches:
            if s.name == name:
                return s
        raise ConfigError(f"{self.path}: no switch named {name!r}")

    def tors(self) -> dict[int, SwitchConfig]:
        return {s.tor: s for s in self.switches if s.role == "tor"}


# ---- parsing helpers ----------------------------------------------------------------------------
_ADDRESS = re.compile(r"^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")


def parse_address(text: str, where: str, allow_zero: bool = False) -> tuple[str, int]:
    m = _ADDRESS.match(text)
    lo = 0 if allow_zero else 1
    if not m or not lo <= int(m.group(2)) <= 65535:
        raise ConfigError(f"{where}: expected host:port (port {lo}..65535), got {text!r}")
    return m.group(1).strip("[]"), int(m.group(2))


# ---- sections -------------------------------------------------------------------------------------
def _schedule(doc: dict, src: Path) -> ScheduleConfig:
    t = Section(doc, src, ConfigError, "[schedule]")
    file = t.path("file")
    gen = t.get("generate", "str")
    if (file is None) == (gen is None):
        raise ConfigError(f"{src}: [schedule]: give either file = \"...\" or generate = "
                          f"\"{'|'.join(sorted(GENERATORS))}\"")
    if gen is not None and gen not in GENERATORS:
        raise ConfigError(f"{src}: [schedule]: generate: unknown generator {gen!r} "
                          f"(available: {', '.join(sorted(GENERATORS))})")
    if file is not None and not file.is_file():
        raise ConfigError(f"{src}: [schedule]: file: {file} not found")
    tors = t.int_in("tors", 2, required=gen is not None) if gen is not None or t.has("tors") else None
    uplinks = t.int_in("uplinks", 1, required=gen is not None) if gen is not None or t.has("uplinks") else None
    if file is not None and (tors is not None or uplinks is not None):
        raise ConfigError(f"{src}: [schedule]: tors/uplinks are for generate; a schedule file has its own")
    seed = t.int_in("seed", 0, default=0)
    timing = {}
    for k in ("slice_us", "guard_us", "propagation_us", "link_gbps"):
        v = t.get(k, "number")
        if v is not None:
            timing[k] = v
    t.done()
    return ScheduleConfig(file, gen, tors, uplinks, seed, timing)


def _algo(doc: dict, where: str, src: Path, default_algo: str) -> AlgoConfig:
    t = Section(doc, src, ConfigError, where)
    if t.has("artifact"):
        art = t.path("artifact")
        extra = sorted(set(doc) - {"artifact"})
        if extra:
            raise ConfigError(f"{src}: {where}: {extra[0]}: the artifact records its algorithm and parameters; "
                              "give either artifact or algo + parameters")
        if not art.exists():
            raise ConfigError(f"{src}: {where}: artifact: {art} not found (write one with `uro routes -o NAME.uro`)")
        return AlgoConfig(None, {}, art)
    algo = t.get("algo", "str", default_algo)
    params = {k: v for k, v in doc.items() if k != "algo"}
    return AlgoConfig(algo, params)


def _routing(doc: dict, src: Path) -> RoutingConfig:
    t = Section(doc, src, ConfigError, "[routing]")
    sr = t.get("source_routed", "any", [])
    if sr == "all":
        source_routed: tuple[int, ...] | str = "all"
    elif isinstance(sr, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in sr):
        dup = sorted({x for x in sr if sr.count(x) > 1})
        if dup:
            raise ConfigError(f"{src}: [routing]: source_routed: ToR {dup[0]} is listed twice")
        source_routed = tuple(sorted(sr))
    else:
        raise ConfigError(f"{src}: [routing]: source_routed: a list of destination ToR ids or \"all\", got {sr!r}")
    ph = t.get("per_hop", "table")
    so = t.get("source", "table")
    t.done()
    per_hop = _algo(ph, "[routing.per_hop]", src, "uro") if ph is not None else None
    source = _algo(so, "[routing.source]", src, "ucmp") if so is not None else None
    if per_hop is None and source_routed != "all":
        raise ConfigError(f"{src}: [routing]: per_hop: missing (every destination not source-routed "
                          "uses the per-hop tables; add [routing.per_hop], or source_routed = \"all\")")
    if source is None and source_routed:
        raise ConfigError(f"{src}: [routing]: source: missing ([routing.source] says how the "
                          "source_routed destinations are routed, e.g. algo = \"ucmp\")")
    return RoutingConfig(per_hop, source, source_routed)


def _clock(doc: dict, src: Path) -> ClockConfig:
    t = Section(doc, src, ConfigError, "[clock]")
    slice_ms = t.positive("slice_ms", 50.0)
    if slice_ms < MIN_SLICE_MS:
        raise ConfigError(f"{src}: [clock]: slice_ms: {slice_ms:g} ms is too short for the bmv2 slice clock "
                          f"(>= {MIN_SLICE_MS:g} ms; tens of ms or more keep the timer jitter small)")
    cap = t.int_in("capacity_bytes", 1, (1 << 32) - 1)
    bpu = t.int_in("bytes_per_us", 0, (1 << 32) - 1)
    mode = t.get("mode", "str", ClockConfig.mode)
    if mode not in CLOCK_MODES:
        raise ConfigError(f"{src}: [clock]: mode: {mode!r} is not a clock mode (\"sync\": the switches keep "
                          "time, the daemon seeds and watches; \"timer\": the daemon sends every slice's timer)")
    leads = t.get("leads", "any", list(ClockConfig.leads))
    if not isinstance(leads, list) or not leads or \
            not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in leads):
        raise ConfigError(f"{src}: [clock]: leads: a non-empty list of ToR ids (the lead candidates, in order), "
                          f"got {leads!r}")
    dup = sorted({x for x in leads if leads.count(x) > 1})
    if dup:
        raise ConfigError(f"{src}: [clock]: leads: ToR {dup[0]} is listed twice")
    slice_us = slice_ms * 1000.0
    out = ClockConfig(
        slice_ms, cap, bpu, mode=mode, leads=tuple(leads),
        ref_uplink=t.int_in("ref_uplink", 0, 255, default=ClockConfig.ref_uplink),
        exchange_every=t.int_in("exchange_every", 1, 65535, default=ClockConfig.exchange_every),
        max_offset_us=t.positive("max_offset_us"),
        max_delay_us=t.positive("max_delay_us"),
        refuse_limit=t.int_in("refuse_limit", 1, 255, default=ClockConfig.refuse_limit),
        holdover_cycles=t.int_in("holdover_cycles", 1, 1000, default=ClockConfig.holdover_cycles),
        servo_shift=t.int_in("servo_shift", 0, 31, default=ClockConfig.servo_shift),
        phase_shift=t.int_in("phase_shift", 0, 8, default=ClockConfig.phase_shift),
        filter_us=t.positive("filter_us"),
        rate_step_ppm=t.int_in("rate_step_ppm", 1, DEFAULT_MAX_DRIFT_PPM),
        alarm_us=t.positive("alarm_us"))
    t.done()
    if out.max_offset_us is not None and out.max_offset_us > slice_us / 2:
        raise ConfigError(f"{src}: [clock]: max_offset_us: {out.max_offset_us:g} us is more than half a slice "
                          f"({slice_us / 2:g} us): a correction that large cannot tell which slice the peer is in")
    return out


def _liveness(doc: dict, src: Path) -> LivenessParams:
    """``[liveness]`` (docs/liveness.md "Configuration"): ``enabled`` (default false),
    ``down_after`` (silent circuits of one (slice, uplink) that mark it down, default 3) and
    the notices' ``notice_rate`` / ``notice_burst`` (per slice; rate 0: no notices) and
    ``notice_refresh`` (cycles between two sends of unchanged marks; 0: never), and the
    daemon's flap damping, ``[liveness.damping]`` (:func:`_damping`),
    checked against the clock and the schedule's cycle by the plan
    (:func:`controller.daemon.plan.check_liveness`), which knows S."""
    t = Section(doc, src, ConfigError, "[liveness]")
    out = LivenessParams(enabled=t.get("enabled", "bool", False),
                         down_after=t.get("down_after", "int", LivenessParams.down_after),
                         notice_rate=t.get("notice_rate", "int", LivenessParams.notice_rate),
                         notice_burst=t.get("notice_burst", "int", LivenessParams.notice_burst),
                         notice_refresh=t.get("notice_refresh", "int", LivenessParams.notice_refresh),
                         damping=_damping(t.get("damping", "table", {}), src))
    t.done()
    return out


def _damping(doc: dict, src: Path) -> DampingParams:
    """``[liveness.damping]`` (docs/liveness.md "Flap damping"): ``enabled``, ``penalty``,
    ``suppress``, ``reuse``, ``half_life_s``, ``max_hold_s``, each a number; how they fit
    together (reuse below suppress, a ceiling above suppress) is checked with the rest of
    ``[liveness]`` (:meth:`DampingParams.problems`)."""
    t = Section(doc, src, ConfigError, "[liveness.damping]")
    d = DampingParams
    out = DampingParams(enabled=t.get("enabled", "bool", d.enabled),
                        **{k: t.get(k, "number", getattr(d, k))
                           for k in ("penalty", "suppress", "reuse", "half_life_s", "max_hold_s")})
    t.done()
    return out


def clock_guard_us(clock: ClockConfig, programs) -> float:
    """The reconfiguration guard on this clock: the ToR programs' ``timing.guard_us`` (the
    largest) as the same share of the clock's slice as of the profile's slice (a profile
    built for the clock gives its guard as it is)."""
    out = 0.0
    for prog in programs:
        tm = prog.profile.get("timing", {}) if prog.role == "tor" else {}
        if tm.get("slice_us"):
            out = max(out, float(tm.get("guard_us", 0.0)) * clock.slice_us / float(tm["slice_us"]))
    return out


def resolve_clock(clock: ClockConfig, programs, src: Path) -> ClockConfig:
    """``clock`` with its guard and every default bound as a number, checked: a slice that
    cannot hold a sync exchange (``L < 2 * guard + 2 * max_delay``: the REQ and its RESP
    must both cross the circuit of the slice they start in, outside both guards) is
    refused with the numbers."""
    import dataclasses

    L, g = clock.slice_us, clock_guard_us(clock, programs)
    delay = clock.max_delay_us if clock.max_delay_us is not None else L / 8
    out = dataclasses.replace(clock, guard_us=g, max_delay_us=delay,
                              max_offset_us=clock.max_offset_us if clock.max_offset_us is not None else L / 4,
                              alarm_us=clock.alarm_us if clock.alarm_us is not None else (g or L / 10))
    if clock.filter_us is not None and clock.filter_us > delay:
        raise ConfigError(f"{src}: [clock]: filter_us: {clock.filter_us:g} us is more than max_delay_us "
                          f"({delay:g} us): an exchange slower than max_delay is not used anyway")
    if clock.sync and L < 2 * g + 2 * delay:
        raise ConfigError(f"{src}: [clock]: slice_ms: a {clock.slice_ms:g} ms slice cannot hold a sync exchange: "
                          f"it needs 2 x guard + 2 x max_delay_us = 2 x {g:g} + 2 x {delay:g} = "
                          f"{2 * g + 2 * delay:g} us (the guard is the ToR program's timing.guard_us on this "
                          "clock); a longer slice or a smaller max_delay_us")
    return out


def _daemon(doc: dict, src: Path) -> DaemonSettings:
    t = Section(doc, src, ConfigError, "[daemon]")
    status = t.get("status", "str", "127.0.0.1:10559")
    host, port = parse_address(status, f"{src}: [daemon]: status", allow_zero=True)
    out = DaemonSettings(
        status_host=host, status_port=port,
        reconcile_s=t.positive("reconcile_s", 10.0),
        reconnect_s=t.positive("reconnect_s", 1.0),
        reconciles_at_once=t.int_in("reconciles_at_once", 1, 4096, default=2),
        rpc_timeout_s=t.positive("rpc_timeout_s", 5.0),
        log_format=t.get("log", "str", "json"),
        election_id=t.int_in("election_id", 1, MAX_ELECTION_ID, default=1),
        hold_s=t.positive("hold_s", None),
        diff_writes=t.get("diff_writes", "bool", True),
        incremental=t.get("incremental", "bool", True),
        route_cache_mib=t.int_in("route_cache_mib", 0, 1 << 24, default=1536),
        workers=t.int_in("workers", 0, 4096, default=0),
        scheduler=t.get("scheduler", "str", None),
        worker_silent_s=t.positive("worker_silent_s", 30.0),
        held_id_wait_s=t.positive("held_id_wait_s", 15.0),
        api=api_access(t, src),
    )
    if out.scheduler is not None and not out.scheduler.startswith(("tcp://", "tls://")):
        raise ConfigError(f"{src}: [daemon]: scheduler: a Dask scheduler address such as \"tcp://10.0.0.1:8786\", "
                          f"got {out.scheduler!r}")
    if out.scheduler is not None and out.workers == 0:
        raise ConfigError(f"{src}: [daemon]: scheduler: {out.scheduler} needs workers = N (how many of its "
                          "workers own switches)")
    if out.log_format not in ("json", "kv"):
        raise ConfigError(f"{src}: [daemon]: log: \"json\" or \"kv\", got {out.log_format!r}")
    t.done()
    return out


def _hosts(doc: dict, src: Path, routing: RoutingConfig) -> HostsConfig:
    t = Section(doc, src, ConfigError, "[hosts]")
    alpha = t.positive("alpha", 0.5)
    ns = t.get("netns", "any", [])
    t.done()
    if not isinstance(ns, list) or not all(isinstance(n, str) and n and "/" not in n for n in ns):
        raise ConfigError(f"{src}: [hosts]: netns: a list of network namespace names, got {ns!r}")
    dup = [n for n in ns if ns.count(n) > 1]
    if dup:
        raise ConfigError(f"{src}: [hosts]: netns: {dup[0]!r} is listed twice")
    if ns and (routing.source is None or not routing.source_routed):
        raise ConfigError(f"{src}: [hosts]: netns: host flow aging tags flows for source routes; the config "
                          "source-routes no destination ([routing] source_routed, [routing.source])")
    return HostsConfig(float(alpha), tuple(ns))


def _tls(doc: dict | None, where: str, src: Path, base: Tls | None) -> Tls:
    if doc is None:
        return base if base is not None else Tls()
    t = Section(doc, src, ConfigError, where)
    insecure = t.get("insecure", "bool", base.insecure if base else False)
    ca = t.path("ca") or (base.ca if base else None)
    cert = t.path("cert") or (base.cert if base else None)
    key = t.path("key") or (base.key if base else None)
    t.done()
    out = Tls(insecure, ca, cert, key)
    if not insecure:
        for name in ("ca", "cert", "key"):
            p = getattr(out, name)
            if p is not None and not p.is_file():
                raise ConfigError(f"{src}: {where}: {name}: {p} not found")
        if (out.cert is None) != (out.key is None):
            raise ConfigError(f"{src}: {where}: cert and key go together (a client certificate needs its key)")
    return out


def _program(name: str, doc: dict, src: Path) -> ProgramConfig:
    where = f"[program.{name}]"
    t = Section(doc, src, ConfigError, where)
    cpath = t.path("contract", required=True)
    files = {}
    for k in doc:
        if k != "contract":
            files[k] = t.path(k)
    t.done()
    if not files:
        raise ConfigError(f"{src}: {where}: no program files (bmv2: p4info = \"...\", device_config = \"...\")")
    for k, p in files.items():
        if not p.is_file():
            raise ConfigError(f"{src}: {where}: {k}: {p} not found (build it with `uro p4 build`)")
    if not cpath.is_file():
        raise ConfigError(f"{src}: {where}: contract: {cpath} not found (build it with `uro p4 build`)")
    try:
        contract = json.loads(cpath.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{src}: {where}: contract: {cpath} is not JSON: {e}") from None
    if not isinstance(contract, dict) or not str(contract.get("format", "")).startswith("uro-pipeline-contract/"):
        raise ConfigError(f"{src}: {where}: contract: {cpath} is not a uro pipeline contract")
    if contract.get("program") not in ROLES:
        raise ConfigError(f"{src}: {where}: contract: program {contract.get('program')!r} is not one of {ROLES}")
    return ProgramConfig(name, cpath, contract, files)


def _ports(doc: dict, sw: str, src: Path) -> PortMap:
    where = f"switch {sw!r}: ports"
    t = Section(doc, src, ConfigError, where)

    def int_list(key: str) -> tuple[int, ...]:
        v = t.get(key, "any", None, required=True)
        if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v):
            raise ConfigError(f"{src}: {where}.{key}: a list of device port numbers, got {v!r}")
        dup = sorted({x for x in v if v.count(x) > 1})
        if dup:
            raise ConfigError(f"{src}: {where}.{key}: port {dup[0]} is listed twice")
        return tuple(v)

    hosts = int_list("hosts")
    uplinks = int_list("uplinks")
    ifs = t.get("interfaces", "any", [])
    if not isinstance(ifs, list) or not all(isinstance(x, str) for x in ifs):
        raise ConfigError(f"{src}: {where}.interfaces: a list of interface names (\"\" for none), got {ifs!r}")
    if len(ifs) > len(uplinks):
        raise ConfigError(f"{src}: {where}.interfaces: {len(ifs)} names for {len(uplinks)} uplinks")
    both = set(hosts) & set(uplinks)
    if both:
        raise ConfigError(f"{src}: {where}: port {sorted(both)[0]} is both a host port and an uplink")
    t.done()
    interfaces = tuple((x or None) for x in ifs) + (None,) * (len(uplinks) - len(ifs))
    return PortMap(hosts, uplinks, interfaces)


def _switch(i: int, doc: Any, src: Path, default_tls: Tls, default_election: int) -> SwitchConfig:
    if not isinstance(doc, dict):
        raise ConfigError(f"{src}: switch[{i}] must be a table ([[switch]])")
    name = doc.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", name or ""):
        raise ConfigError(f"{src}: switch[{i}]: name: letters, digits, '_', '.', '-' required, got {name!r}")
    where = f"switch {name!r}"
    t = Section(doc, src, ConfigError, where)
    t.get("name", "str")
    role = t.get("role", "str", required=True)
    if role not in ROLES:
        raise ConfigError(f"{src}: {where}: role: unknown role {role!r} (roles: {', '.join(ROLES)})")
    tor = t.int_in("tor", 0) if role == "tor" else None
    if role == "tor" and tor is None:
        raise ConfigError(f"{src}: {where}: tor: missing (the ToR id of a role = \"tor\" switch)")
    if role != "tor" and t.has("tor"):
        raise ConfigError(f"{src}: {where}: tor: only a role = \"tor\" switch has a ToR id")
    target = t.get("target", "str", "bmv2")
    address = t.get("address", "str", required=True)
    parse_address(address, f"{src}: {where}: address")
    device_id = t.int_in("device_id", 0, (1 << 64) - 1, default=0)
    election_id = t.int_in("election_id", 1, MAX_ELECTION_ID, default=default_election)
    program = t.get("program", "str", role)
    ports_doc = t.get("ports", "table")
    tls = _tls(t.get("tls", "table"), f"{where}: tls", src, default_tls)
    t.done()
    if role == "tor" and ports_doc is None:
        raise ConfigError(f"{src}: {where}: ports: missing (hosts = [...], uplinks = [...])")
    if role == "ocs" and ports_doc is not None:
        raise ConfigError(f"{src}: {where}: ports: an OCS emulator's ports are fixed (port tor * uplinks + "
                          "uplink faces that ToR uplink); leave ports out")
    ports = _ports(ports_doc, name, src) if ports_doc is not None else None
    return SwitchConfig(name, role, target, address, program, tor, device_id, election_id, ports, tls)


_TOP = {"name", "schedule", "routing", "clock", "program", "daemon", "tls", "switch", "hosts", "liveness"}


def parse(doc: dict, src: Path) -> NetConfig:
    """A :class:`NetConfig` from a parsed TOML document (``src``: where it came from)."""
    extra = sorted(set(doc) - _TOP)
    if extra:
        raise ConfigError(f"{src}: unknown top-level key {extra[0]!r} (known: {', '.join(sorted(_TOP))})")
    for key in ("schedule", "routing", "program", "switch"):
        if key not in doc:
            raise ConfigError(f"{src}: missing [{key}]" if key != "switch" else f"{src}: no [[switch]]")
    name = doc.get("name", src.stem)
    if not isinstance(name, str):
        raise ConfigError(f"{src}: name: must be a string")
    schedule = _schedule(doc["schedule"], src)
    routing = _routing(doc["routing"], src)
    clock = _clock(doc.get("clock", {}), src)
    liveness = _liveness(doc.get("liveness", {}), src)
    daemon = _daemon(doc.get("daemon", {}), src)
    hosts = _hosts(doc.get("hosts", {}), src, routing)
    if not isinstance(doc["program"], dict) or not doc["program"]:
        raise ConfigError(f"{src}: [program]: one table per program, e.g. [program.tor]")
    programs = {n: _program(n, d, src) for n, d in doc["program"].items()}
    default_tls = _tls(doc.get("tls"), "[tls]", src, None)
    if not isinstance(doc["switch"], list):
        raise ConfigError(f"{src}: switch: write every switch as a [[switch]] table")
    switches = tuple(_switch(i, d, src, default_tls, daemon.election_id) for i, d in enumerate(doc["switch"]))
    names, tors, addrs = {}, {}, {}
    for s in switches:
        if s.name in names:
            raise ConfigError(f"{src}: switch {s.name!r}: name: used twice")
        names[s.name] = s
        if s.tor is not None:
            if s.tor in tors:
                raise ConfigError(f"{src}: switch {s.name!r}: tor: ToR id {s.tor} is also switch {tors[s.tor].name!r}")
            tors[s.tor] = s
        key = (s.address, s.device_id)
        if key in addrs:
            raise ConfigError(f"{src}: switch {s.name!r}: address: {s.address} device {s.device_id} is also "
                              f"switch {addrs[key].name!r}")
        addrs[key] = s
        prog = programs.get(s.program)
        if prog is None:
            raise ConfigError(f"{src}: switch {s.name!r}: program: no [program.{s.program}] "
                              f"(programs: {', '.join(sorted(programs))})")
        if prog.role != s.role:
            raise ConfigError(f"{src}: switch {s.name!r}: program: [program.{s.program}] is the "
                              f"{prog.role!r} program ({prog.contract_path.name}), the switch's role is {s.role!r}")
        if prog.target != s.target:
            raise ConfigError(f"{src}: switch {s.name!r}: target: {s.target!r}, but [program.{s.program}] was "
                              f"built for {prog.target!r}")
        if s.ports is not None:
            _check_ports(s, prog, src)
    clock = resolve_clock(clock, [programs[s.program] for s in switches], src)
    if clock.sync and not any(s.role == "ocs" for s in switches):
        raise ConfigError(f"{src}: [clock]: mode = \"sync\": no switch is the reference clock (a [[switch]] with "
                          "role = \"ocs\", the OCS emulator); without one the leads' REF exchanges go unanswered "
                          "and the ToRs' clocks run free of the optical schedule (docs/clock.md \"The tree and the "
                          "election\")")
    if daemon.workers:
        _check_workers(daemon, len(switches), src)
    return NetConfig(src, name, schedule, routing, clock, programs, switches, daemon, hosts, liveness)


def _check_workers(daemon: DaemonSettings, switches: int, src: Path) -> None:
    """Workers own switches: at most one worker per switch."""
    if daemon.workers > switches:
        raise ConfigError(f"{src}: [daemon]: workers = {daemon.workers}: more workers than the {switches} switches "
                          "they would own")


def _check_ports(s: SwitchConfig, prog: ProgramConfig, src: Path) -> None:
    """The generated ToR program's port layout is fixed: the port map must agree with it."""
    p = prog.profile
    hp, d = p["host_ports"], p["uplinks"]
    where = f"{src}: switch {s.name!r}: ports"
    layout = (f"program {prog.contract_path.stem.removesuffix('.contract')} has host ports 0..{hp - 1} and "
              f"uplink u on port {hp} + u; the generated port layout is fixed")
    if len(s.ports.uplinks) != d:
        missing = f"uplink {len(s.ports.uplinks)} is missing" if len(s.ports.uplinks) < d else \
            f"{len(s.ports.uplinks)} uplinks listed"
        raise ConfigError(f"{where}.uplinks: {missing} (the schedule's ToRs have {d} uplinks; {layout})")
    for u, port in enumerate(s.ports.uplinks):
        if port != hp + u:
            raise ConfigError(f"{where}.uplinks[{u}]: port {port}, but {layout} (uplink {u} = port {hp + u})")
    for port in s.ports.hosts:
        if not 0 <= port < hp:
            raise ConfigError(f"{where}.hosts: port {port} is not a host port ({layout})")


def load(path: str | Path) -> NetConfig:
    """Read and check ``net.toml`` (see module docstring)."""
    p = Path(path)
    return parse(tomlfile.read(p, ConfigError), p.resolve())
