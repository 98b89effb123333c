"""The emulated fabric's config file (``examples/emu-*.toml``), parsed and validated whole.

An emulated fabric is a time-sliced optical DCN on one machine: one network namespace
per host, one ``simple_switch_grpc`` per ToR running the generated ToR program, one
``simple_switch_grpc`` running the OCS emulator program (URO §IV-B: the OCS connects
uplink ``u`` of ToR ``a`` to uplink ``u`` of ``peer[s, a, u]`` in slice ``s``), veth
links between them, and the controller daemon driving the switches. Example::

    name = "emu8x2"                 # fabric name
    prefix = "ue8"                  # optional: start of every name the fabric creates
    [schedule]
    generate = "round-robin"        # or: file = "schedule.json"
    tors = 8
    uplinks = 2
    [timing]
    slice_ms = 50                   # bmv2 keeps tens of ms, not microseconds
    guard_ms = 5                    # reconfiguration guard (default slice / 10)
    [hosts]
    per_tor = 1                     # host namespaces per ToR, on host ports 0..per_tor-1
    flow_aging = true               # with source routes: the daemon installs UCMP flow aging in every host
    alpha = 0.5                     # its weight factor (UCMP Eq. 2-4)
    [routing]
    alternatives = 3                # URO K one-shot alternatives
    source_routed = []              # destination ToRs routed by UCMP SSRR, or "all"
    [clock]
    mode = "sync"                   # the switches keep time (or "timer": the daemon sends every slice's timer)
    start_gap_s = 1.0               # switches started this far apart: their local clocks really differ
    trigger_ms = 14.25              # the packet generator's TRIGGER period per switch (default: every uplink once
                                    # per 3/4 exchange window, the window being slice - 2 guard - 2 max_delay)
    max_delay_us = 1000             # an exchange with a longer path delay is not used (default: slice / 8)
    holdover_cycles = 10            # the lead silent this long before the next candidate claims (default 2)

Everything is checked before anything is created: a problem is one :class:`EmuConfigError`
naming the key.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from controller import tomlfile
from controller.errors import UroError
from controller.liveness.params import DEFAULT_DOWN_AFTER, MAX_DOWN_AFTER
from controller.p4gen.profile import MAX_SSRR_HOPS
from controller.schedule import load as load_schedule
from controller.tomlfile import Section

#: longest prefix: interface names are at most 15 bytes (IFNAMSIZ - 1), and the longest
#: name the fabric makes is ``<prefix>t<tor:3>h<port:3>`` or ``<prefix>t<tor:3>u<uplink:3>``
MAX_PREFIX = 6
#: the CPU port of every switch (P4Runtime PacketOut enters here): one above the
#: highest data port a v1model switch can have (ports 0..509)
DEFAULT_CPU_PORT = 510
#: the bmv2 port of every switch's emulated packet generator (docs/clock.md "The emulated
#: fabric"): TRIGGERs in, PROBEs for the clock measurements; data ports stay below it
PKTGEN_PORT = 500
#: packets/s of a ToR uplink's egress queue on bmv2 (docs/emulate.md "Time"): a held packet
#: recirculates through that queue, and bmv2 takes new packets (the timer) only when no
#: recirculated one waits; the bmv2 tests pace their ToR the same way
DEFAULT_UPLINK_PPS = 2000
#: packets/s of each hold queue of a ToR uplink (bmv2, docs/p4.md "Calendar queues on
#: bmv2"): a packet held for a later slice circles in one, so this bounds what one waiting
#: packet costs a switch (a pass costs bmv2 ~0.1 ms of CPU), while it still looks at the
#: clock every 2 ms; more held packets spread over more hold queues
DEFAULT_HOLD_PPS = 500
#: nice value added to every switch process when the fabric is started by root: a switch
#: stands in for hardware, whose forwarding and slice clock never wait for the machine's
#: other work; on a shared machine a switch at the default priority waits for a core behind
#: it, and its frames leave their slice late (docs/clock.md "Under load")
DEFAULT_SWITCH_NICENESS = -10
GENERATORS = ("round-robin", "opera", "random")


class EmuConfigError(UroError):
    """The fabric config is invalid; the message names the file and the key."""


@dataclass(frozen=True)
class RoutingConfig:
    alternatives: int = 3          # URO K
    max_hops: int | None = 4       # URO hop bound M (None: unbounded)
    source_routed: tuple[int, ...] = ()   # destination ToRs routed by UCMP SSRR
    ssrr_hops: int = 4             # H: SSRR hops a source route carries (UCMP h_max)


@dataclass(frozen=True)
class EmuConfig:
    name: str
    prefix: str
    tors: int
    uplinks: int
    generate: str | None = "round-robin"
    schedule_file: str | None = None
    seed: int = 0
    slice_ms: float = 50.0
    #: reconfiguration guard (Timing.guard_us): the part of a slice no packet may start a
    #: hop in; on bmv2 it must cover the timers' skew between switches and a few hops
    guard_ms: float = 5.0
    link_gbps: float = 1.0
    hosts_per_tor: int = 1
    host_ports: int = 1
    host_mtu: int = 1500
    #: UCMP host flow aging (controller.host) in every host namespace when destinations are
    #: source-routed, with weight factor ``alpha`` (the daemon's [hosts] section)
    flow_aging: bool = True
    alpha: float = 0.5
    routing: RoutingConfig = field(default_factory=RoutingConfig)
    cpu_port: int = DEFAULT_CPU_PORT
    #: packets/s of every ToR uplink's egress queue (0: unpaced). bmv2 serves recirculated
    #: packets before new ones, so unpaced held packets can starve the timer; see docs/emulate.md
    uplink_pps: int = DEFAULT_UPLINK_PPS
    #: packets/s of every hold queue of a ToR uplink, where a packet held for a later slice
    #: circles (0: unpaced): what waiting costs a switch; see docs/p4.md
    hold_pps: int = DEFAULT_HOLD_PPS
    #: added to every switch process's nice value when started by root (0: the machine's
    #: other work shares the cores with the switches as equals)
    switch_niceness: int = DEFAULT_SWITCH_NICENESS
    #: extra arguments of every simple_switch_grpc: general bmv2 options (e.g.
    #: ["--log-console"]) and target options after its "--" (e.g. ["--priority-queues", "2"])
    switch_args: tuple[str, ...] = ()
    target_args: tuple[str, ...] = ()
    #: the slice clock (docs/clock.md): "sync", the switches keep it and the daemon seeds and
    #: watches it, TRIGGERs from the fabric's packet generator; "timer", the daemon sends
    #: every slice's timer
    clock_mode: str = "timer"
    #: seconds between two switches' starts (each bmv2 clock counts from its own start)
    start_gap_s: float = 1.0
    #: the packet generator's period per switch (ms; None: the longest that puts a TRIGGER of
    #: every uplink in every exchange window with a quarter window of slack, trigger_s)
    trigger_ms: float | None = None
    #: the daemon's [clock] max_delay_us: an exchange whose path delay is longer is not used
    #: (None: the daemon's default, an eighth of the slice)
    max_delay_us: float | None = None
    #: the daemon's [clock] holdover_cycles: how long the lead may stay unheard before the
    #: next candidate claims, and a ToR without a correction before it searches (None: the
    #: daemon's default). A loaded bmv2 loses or queues many exchanges: lead_k reaches the
    #: followers seconds late, and a short holdover makes the candidates claim in turn
    holdover_cycles: int | None = None
    #: the daemon's [liveness] (docs/liveness.md): the switches mark a circuit down after this
    #: many consecutive silent circuits (None: liveness off). Needs clock_mode "sync"
    liveness_down_after: int | None = None
    #: where the state (plan, PID files, logs, compiled programs) lives
    state_root: str = "/run/uro-emu"
    source: str = "<config>"

    @property
    def state_dir(self) -> Path:
        return Path(self.state_root) / self.prefix

    @property
    def slice_us(self) -> float:
        return self.slice_ms * 1000.0

    @property
    def trigger_s(self) -> float:
        """The packet generator's TRIGGER period per switch, in seconds: ``trigger_ms``, or
        the longest that still puts a TRIGGER of every uplink in every exchange window
        (:meth:`controller.clock.params.ClockParams.trigger_period`)."""
        if self.trigger_ms is not None:
            return self.trigger_ms / 1000.0
        from controller.clock.params import ClockParams

        ck = ClockParams(slice_ns=round(self.slice_ms * 1e6), guard_ns=round(self.guard_ms * 1e6),
                         max_delay_ns=None if self.max_delay_us is None else round(self.max_delay_us * 1e3))
        return ck.trigger_period(self.uplinks) / 1e9

    @property
    def n_hosts(self) -> int:
        return self.tors * self.hosts_per_tor

    @property
    def all_source_routed(self) -> bool:
        return len(self.routing.source_routed) == self.tors


#: the keys of each table ("": the file's top level)
_KEYS = {
    "": {"name", "prefix", "schedule", "timing", "hosts", "routing", "switches", "clock", "liveness",
         "state_dir"},
    "schedule": {"generate", "file", "tors", "uplinks", "seed"},
    "timing": {"slice_ms", "guard_ms", "link_gbps"},
    "hosts": {"per_tor", "host_ports", "mtu", "flow_aging", "alpha"},
    "routing": {"alternatives", "max_hops", "source_routed", "ssrr_hops"},
    "switches": {"cpu_port", "extra_args", "target_args", "uplink_pps", "hold_pps", "niceness"},
    "clock": {"mode", "start_gap_s", "trigger_ms", "max_delay_us", "holdover_cycles"},
    "liveness": {"enabled", "down_after"},
}


def default_prefix(name: str) -> str:
    """``u`` + the name's letters and digits, cut to :data:`MAX_PREFIX` characters."""
    return ("u" + re.sub(r"[^a-z0-9]", "", name.lower()))[:MAX_PREFIX]


def _tables(doc: dict, src: str) -> dict[str, Section]:
    """Every table of the config as a :class:`~controller.tomlfile.Section` (an absent one
    empty), unknown keys refused first: ``FILE: unknown key 'timing.slice_us' (known: ...)``."""
    top = Section(doc, src, EmuConfigError, dotted=True)
    top.done(_KEYS[""])
    out = {"": top}
    for name in _KEYS:
        if name:
            out[name] = Section(doc.get(name, {}), src, EmuConfigError, name, dotted=True)
            out[name].done(_KEYS[name])
    return out


def from_dict(doc: dict, source: str = "<config>") -> EmuConfig:
    """Validate a parsed config document; raises :class:`EmuConfigError` naming the key."""
    src = source
    t = _tables(doc, src)
    top, sch, tm, h, r, sw, ck = (t[k] for k in ("", "schedule", "timing", "hosts", "routing", "switches", "clock"))
    name = top.get("name", "any")
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name):
        raise top.err("name", f"must be 1-64 letters, digits, '_', '.', '-', got {name!r}")
    prefix = top.get("prefix", "any", default_prefix(name))
    if not isinstance(prefix, str) or not re.fullmatch(rf"[a-z][a-z0-9]{{1,{MAX_PREFIX - 1}}}", prefix):
        raise top.err("prefix", f"must be 2-{MAX_PREFIX} lower-case letters/digits starting with a letter "
                                f"(interface names are at most 15 bytes), got {prefix!r}")

    gen, sfile = sch.get("generate", "any"), sch.get("file", "any")
    if (gen is None) == (sfile is None):
        raise EmuConfigError(f"{src}: [schedule] needs exactly one of generate = "
                             f"{'|'.join(GENERATORS)} or file = PATH")
    if gen is not None:
        if gen not in GENERATORS:
            raise sch.err("generate", f"must be one of {', '.join(GENERATORS)}, got {gen!r}")
        tors = sch.int_in("tors", 2, required=True)
        uplinks = sch.int_in("uplinks", 1, required=True)
    else:
        if not isinstance(sfile, str):
            raise sch.err("file", f"must be a path, got {sfile!r}")
        sfile = str(sch.path("file"))
        sched = load_schedule(sfile)  # ScheduleError (a UroError) names the file
        tors, uplinks = sched.n_tors, sched.n_uplinks
        for key, v in (("tors", tors), ("uplinks", uplinks)):
            if sch.has(key) and sch.get(key, "any") != v:
                raise EmuConfigError(f"{src}: schedule.{key} = {sch.get(key, 'any')!r} but {sfile} has {v}")
    seed = sch.int_in("seed", 0, default=0)
    if uplinks >= tors:
        raise EmuConfigError(f"{src}: schedule.uplinks = {uplinks} must be fewer than schedule.tors = {tors}")
    if tors * uplinks > PKTGEN_PORT:
        raise EmuConfigError(
            f"{src}: the OCS emulator needs schedule.tors x schedule.uplinks = {tors} x {uplinks} = "
            f"{tors * uplinks} ports, a v1model switch has {PKTGEN_PORT} below its pktgen port {PKTGEN_PORT}")

    slice_ms = tm.number_above("slice_ms", 50.0)
    if slice_ms < 5:
        raise EmuConfigError(f"{src}: timing.slice_ms = {slice_ms:g} is too short for bmv2 "
                             "(a software switch keeps slices of tens of ms, not microseconds); use >= 5")
    link_gbps = tm.number_above("link_gbps", 1.0)
    guard_ms = tm.get("guard_ms", "any", round(slice_ms / 10, 3))
    if not isinstance(guard_ms, (int, float)) or isinstance(guard_ms, bool) or not 0 <= guard_ms < slice_ms:
        raise tm.err("guard_ms", f"must be in [0, slice_ms = {slice_ms:g}), got {guard_ms!r}")

    per_tor = h.int_in("per_tor", 1, default=1)
    host_ports = h.int_in("host_ports", 1, default=per_tor)
    if per_tor > host_ports:
        raise EmuConfigError(f"{src}: hosts.per_tor = {per_tor} needs host ports 0..{per_tor - 1}, "
                             f"but the ToR program has hosts.host_ports = {host_ports} (ports 0..{host_ports - 1})")
    if host_ports + uplinks > PKTGEN_PORT:
        raise EmuConfigError(f"{src}: hosts.host_ports + uplinks = {host_ports + uplinks} exceeds the "
                             f"{PKTGEN_PORT} ports of a v1model switch below its pktgen port {PKTGEN_PORT}")
    if per_tor > 253:
        raise EmuConfigError(f"{src}: hosts.per_tor = {per_tor}: a ToR's /24 holds hosts .1..254 at most")
    mtu = h.int_in("mtu", 576, 9000 - 40, default=1500)
    flow_aging = h.get("flow_aging", "bool", True)
    alpha = h.number_above("alpha", 0.5)

    k = r.int_in("alternatives", 1, 10, default=3)
    mh = None if r.get("max_hops", "any", 4) == 0 else r.int_in("max_hops", 1, default=4)
    ssrr_hops = r.int_in("ssrr_hops", 1, MAX_SSRR_HOPS, default=4)
    sr = r.get("source_routed", "any", [])
    if sr == "all":
        sr = list(range(tors))
    if not isinstance(sr, list):
        raise r.err("source_routed", f"must be a list of ToR ids or \"all\", got {sr!r}")
    for tor in sr:
        if isinstance(tor, bool) or not isinstance(tor, int) or not 0 <= tor < tors:
            raise r.err("source_routed[]", f"must be in 0..{tors - 1}, got {tor!r}")
    if len(set(sr)) != len(sr):
        raise r.err("source_routed", f"lists a ToR twice: {sr!r}")

    cpu_port = sw.int_in("cpu_port", 0, 510, default=DEFAULT_CPU_PORT)
    data_ports = max(tors * uplinks, host_ports + uplinks)
    if cpu_port < data_ports:
        raise EmuConfigError(f"{src}: switches.cpu_port = {cpu_port} collides with the data ports "
                             f"0..{data_ports - 1}")
    if cpu_port == PKTGEN_PORT:
        raise EmuConfigError(f"{src}: switches.cpu_port = {cpu_port} is the pktgen port (the emulated packet "
                             "generator's)")
    uplink_pps = sw.int_in("uplink_pps", 0, 10_000_000, default=DEFAULT_UPLINK_PPS)
    hold_pps = sw.int_in("hold_pps", 0, 10_000_000, default=DEFAULT_HOLD_PPS)
    niceness = sw.int_in("niceness", -20, 19, default=DEFAULT_SWITCH_NICENESS)
    extra, targs = sw.get("extra_args", "any", []), sw.get("target_args", "any", [])
    for key, v in (("extra_args", extra), ("target_args", targs)):
        if not isinstance(v, list) or not all(isinstance(a, str) for a in v):
            raise sw.err(key, f"must be a list of strings, got {v!r}")

    clock_mode = ck.get("mode", "any", EmuConfig.clock_mode)
    if clock_mode not in ("sync", "timer"):
        raise ck.err("mode", f"must be \"sync\" (the switches keep time) or \"timer\" (the daemon "
                             f"sends every slice's timer), got {clock_mode!r}")
    gap = ck.get("start_gap_s", "any", EmuConfig.start_gap_s)
    if not isinstance(gap, (int, float)) or isinstance(gap, bool) or not math.isfinite(gap) or not 0 <= gap <= 60:
        raise ck.err("start_gap_s", f"must be a number of seconds in [0, 60], got {gap!r}")
    trigger_ms = ck.number_above("trigger_ms", None) if ck.has("trigger_ms") else None
    if trigger_ms is not None and not 0.1 <= trigger_ms <= slice_ms / uplinks:
        raise EmuConfigError(f"{src}: clock.trigger_ms = {trigger_ms:g} must be in [0.1, slice_ms / uplinks = "
                             f"{slice_ms / uplinks:g}] (every uplink needs a TRIGGER in every slice)")
    max_delay_us = ck.number_above("max_delay_us", None) if ck.has("max_delay_us") else None
    if max_delay_us is not None and not max_delay_us <= slice_ms * 1000 / 4:
        raise EmuConfigError(f"{src}: clock.max_delay_us = {max_delay_us:g} must be at most slice_ms x 1000 / 4 = "
                             f"{slice_ms * 250:g} (a sync exchange's longest path delay)")
    holdover = ck.int_in("holdover_cycles", 1, 1000, default=None) if ck.has("holdover_cycles") else None
    lv = t["liveness"]
    live_on = lv.get("enabled", "bool", False)
    down_after = lv.int_in("down_after", 1, MAX_DOWN_AFTER, default=DEFAULT_DOWN_AFTER)
    if live_on and clock_mode != "sync":
        raise lv.err("enabled", f"needs clock.mode = \"sync\" (the sync exchange is the beacon), got "
                                f"clock.mode = {clock_mode!r}")
    state_root = top.get("state_dir", "any", "/run/uro-emu")
    if not isinstance(state_root, str) or not state_root:
        raise top.err("state_dir", f"must be a directory path, got {state_root!r}")
    return EmuConfig(
        name=name, prefix=prefix, tors=tors, uplinks=uplinks, generate=gen, schedule_file=sfile, seed=seed,
        slice_ms=slice_ms, guard_ms=float(guard_ms), link_gbps=link_gbps, hosts_per_tor=per_tor,
        host_ports=host_ports, host_mtu=mtu, flow_aging=flow_aging, alpha=alpha,
        routing=RoutingConfig(alternatives=k, max_hops=mh, source_routed=tuple(sorted(sr)), ssrr_hops=ssrr_hops),
        cpu_port=cpu_port, uplink_pps=uplink_pps, hold_pps=hold_pps, switch_niceness=niceness,
        switch_args=tuple(extra), target_args=tuple(targs),
        clock_mode=clock_mode, start_gap_s=float(gap), trigger_ms=trigger_ms, max_delay_us=max_delay_us,
        holdover_cycles=holdover, liveness_down_after=down_after if live_on else None,
        state_root=state_root, source=source)


def load(path: str | Path) -> EmuConfig:
    p = Path(path)
    return from_dict(tomlfile.read(p, EmuConfigError), str(p))
