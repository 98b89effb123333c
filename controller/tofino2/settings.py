"""Deployment settings of one Tofino2 ToR: where its logical ports are, and the generator.

A ToR program addresses ports logically (host port h, uplink u, as on bmv2); the port
map says which Tofino2 dev port each one is (``tofino/ports/<profile>.toml``)::

    pipe = 0                 # the pipe this ToR runs on: all its ports are in it
    pktgen_port = 6          # pipe-local port of the packet generator (pipe 0: 1 or 6; else 0/2/4/6)
    recirc_port = 1          # pipe-local recirculation port for queue-state updates (same set)
    hosts = [12, 14]         # dev ports of host ports 0..H-1
    uplinks = [8, 10]        # dev ports of uplinks 0..d-1 (toward OCS u)
    other_port_queues = 1    # TM queues carved for a host port sharing a port group
    [generator]              # optional: the packet generator's rate (assumption to check)
    gbps = 100.0
    packet_bytes = 70        # the generated frame: pkt_len + 6-byte pktgen header + 4-byte FCS

Every port runs at the profile's ``link_gbps`` and must start at a channel that speed can
use (100G: 0/2/4/6); the backend adds and enables them (``$PORT``). One ToR is one pipe: registers (slice clock, queue state, admitted bytes) are per pipe,
so a packet must enter the pipe whose registers own its egress queues. A map that spans
pipes, or a port group that cannot carve Q queues per uplink, is refused with the reason.
"""

from __future__ import annotations

from controller import tomlfile
from dataclasses import dataclass, field
from pathlib import Path

from controller.errors import UroError
from controller.tofino2 import chip, tm
from controller.tofino2.pktgen import GeneratorSpec


class SettingsError(UroError):
    pass


@dataclass(frozen=True)
class PortMap:
    pipe: int
    pktgen_port: int          # pipe-local
    recirc_port: int          # pipe-local
    hosts: tuple[int, ...]    # dev ports
    uplinks: tuple[int, ...]  # dev ports
    other_port_queues: int = 1
    generator: GeneratorSpec = field(default_factory=GeneratorSpec)
    source: str = "<settings>"

    @property
    def pktgen_dev_port(self) -> int:
        return chip.make_port(self.pipe, self.pktgen_port)

    @property
    def recirc_dev_port(self) -> int:
        return chip.make_port(self.pipe, self.recirc_port)

    def check(self, profile, queues: int | None = None) -> tm.QueuePlan:
        """Raise :class:`SettingsError` unless the map fits ``profile``; returns the queue plan."""
        src = self.source
        if len(self.hosts) != profile.host_ports:
            raise SettingsError(f"{src}: hosts lists {len(self.hosts)} dev ports, profile {profile.name!r} "
                                f"has host_ports = {profile.host_ports}")
        if len(self.uplinks) != profile.uplinks:
            raise SettingsError(f"{src}: uplinks lists {len(self.uplinks)} dev ports, profile {profile.name!r} "
                                f"has uplinks = {profile.uplinks}")
        if not 0 <= self.pipe < chip.PIPES:
            raise SettingsError(f"{src}: pipe = {self.pipe} out of range 0..{chip.PIPES - 1}")
        internal = chip.internal_ports(self.pipe)
        for name, v in (("pktgen_port", self.pktgen_port), ("recirc_port", self.recirc_port)):
            if v not in internal:
                raise SettingsError(f"{src}: {name} = {v}: the recirculation/generator ports of pipe {self.pipe} "
                                    f"are pipe-local {', '.join(map(str, internal))} (the others are CPU "
                                    "channels or not ports)")
        if self.pktgen_port == self.recirc_port:
            raise SettingsError(f"{src}: pktgen_port and recirc_port are both {self.pktgen_port}")
        for kind, ports in (("hosts", self.hosts), ("uplinks", self.uplinks)):
            for i, p in enumerate(ports):
                if not isinstance(p, int) or not 0 <= p < 1 << chip.PORT_BITS:
                    raise SettingsError(f"{src}: {kind}[{i}] = {p!r} is not a dev port (0..511)")
                if chip.pipe_of(p) != self.pipe:
                    raise SettingsError(f"{src}: {kind}[{i}] = dev port {p} is in pipe {chip.pipe_of(p)}, the ToR "
                                        f"runs on pipe {self.pipe} (its registers are per pipe)")
                if chip.local_port(p) in chip.PKTGEN_LOCAL_PORTS:
                    raise SettingsError(f"{src}: {kind}[{i}] = dev port {p} is one of the pipe's internal ports 0..7")
                if chip.local_port(p) >= 72:
                    raise SettingsError(f"{src}: {kind}[{i}] = dev port {p}: a pipe has front-panel ports 8..71")
                spd = chip.PORT_SPEEDS.get(int(profile.timing.link_gbps))
                if spd is None:
                    raise SettingsError(f"{src}: link_gbps = {profile.timing.link_gbps:g} is not a Tofino2 port "
                                        f"speed ({', '.join(map(str, sorted(chip.PORT_SPEEDS)))})")
                if chip.channel(p) not in spd[3]:
                    raise SettingsError(f"{src}: {kind}[{i}] = dev port {p} is channel {chip.channel(p)} of its port "
                                        f"group; a {profile.timing.link_gbps:g}G port starts at channel "
                                        f"{'/'.join(map(str, spd[3]))}")
        try:
            return tm.plan_queues(queues or profile.queues, self.uplinks, self.hosts, self.other_port_queues)
        except tm.QueuePlanError as e:
            raise SettingsError(f"{src}: {e}") from None


def from_dict(doc: dict, source: str = "<settings>") -> PortMap:
    known = {"pipe", "pktgen_port", "recirc_port", "hosts", "uplinks", "other_port_queues", "generator"}
    bad = sorted(set(doc) - known)
    if bad:
        raise SettingsError(f"{source}: unknown key {bad[0]!r} (known: {', '.join(sorted(known))})")
    for k in ("hosts", "uplinks"):
        if k not in doc:
            raise SettingsError(f"{source}: missing key {k!r}")
        if not isinstance(doc[k], list):
            raise SettingsError(f"{source}: {k} must be a list of dev ports")
    for k in ("pipe", "pktgen_port", "recirc_port", "other_port_queues"):
        if k in doc and (not isinstance(doc[k], int) or isinstance(doc[k], bool)):
            raise SettingsError(f"{source}: {k} must be an integer, got {doc[k]!r}")
    gen = doc.get("generator", {})
    if not isinstance(gen, dict) or set(gen) - {"gbps", "packet_bytes"}:
        raise SettingsError(f"{source}: [generator] takes gbps and packet_bytes")
    g = GeneratorSpec(**gen)
    least = chip.PKTGEN_MIN_PKT_LEN + chip.PKTGEN_HEADER_BYTES + chip.FCS_BYTES
    if not (isinstance(g.gbps, (int, float)) and g.gbps > 0) or not (isinstance(g.packet_bytes, int)
                                                                      and g.packet_bytes >= least):
        raise SettingsError(f"{source}: [generator] gbps must be > 0 and packet_bytes >= {least} (pkt_len >= "
                            f"{chip.PKTGEN_MIN_PKT_LEN} + the 6-byte pktgen header + the 4-byte FCS)")
    return PortMap(doc.get("pipe", 0), doc.get("pktgen_port", 6), doc.get("recirc_port", 1), tuple(doc["hosts"]),
                   tuple(doc["uplinks"]), doc.get("other_port_queues", 1), g, source)


def load(path: str | Path) -> PortMap:
    p = Path(path)
    return from_dict(tomlfile.read(p, SettingsError), str(p))


def default_port_map(profile, pipe: int = 0) -> PortMap:
    """A port map for ``profile`` on one pipe: each uplink starts a port group (channel 0),
    so it can carve Q queues; host ports fill the remaining channels. Raises
    :class:`SettingsError` when the pipe cannot hold the ports with their queues."""
    spd = chip.PORT_SPEEDS.get(int(profile.timing.link_gbps))
    if spd is None:
        raise SettingsError(f"profile {profile.name!r}: link_gbps = {profile.timing.link_gbps:g} is not a Tofino2 "
                            f"port speed ({', '.join(map(str, sorted(chip.PORT_SPEEDS)))})")
    channels = spd[3]                               # where a port of that speed can start
    per_group = max(1, min(len(channels), chip.PORT_GROUP_QUEUES // max(profile.queues, 1)))
    groups = list(range(1, 9))                      # front-panel port groups 1..8 (local ports 8..71)
    uplinks, hosts = [], []
    free = []                                       # (group, channel) left for hosts
    gi = 0
    for u in range(profile.uplinks):
        g = groups[gi // per_group] if gi // per_group < len(groups) else None
        if g is None:
            raise SettingsError(
                f"profile {profile.name!r}: {profile.uplinks} uplinks x {profile.queues} queues need "
                f"{-(-profile.uplinks // per_group)} port groups of {chip.PORT_GROUP_QUEUES} queues; a pipe has "
                f"{len(groups)}")
        uplinks.append(chip.make_port(pipe, g * 8 + channels[(gi % per_group) * (len(channels) // per_group)]))
        gi += 1
    used_groups = {chip.port_group(p) for p in uplinks}
    for g in groups:
        left = chip.PORT_GROUP_QUEUES - sum(profile.queues for p in uplinks if chip.port_group(p) == g)
        taken = {chip.channel(p) for p in uplinks if chip.port_group(p) == g}
        for ch in channels:
            if ch not in taken and left >= 1:
                free.append(chip.make_port(pipe, g * 8 + ch))
                left -= 1
    if len(free) < profile.host_ports:
        raise SettingsError(
            f"profile {profile.name!r}: {profile.uplinks} uplinks x {profile.queues} queues fill "
            f"{len(used_groups)} port groups; {len(free)} ports with a queue are left for {profile.host_ports} "
            "host ports in one pipe (one ToR is one pipe: its registers are per pipe)")
    hosts = free[:profile.host_ports]
    return PortMap(pipe, 6, chip.internal_ports(pipe)[0] if pipe == 0 else 2, tuple(hosts), tuple(uplinks),
                   source=f"default port map of {profile.name!r}")


def port_map_text(pm: PortMap) -> str:
    """The TOML of a port map (what ``tofino/ports/<profile>.toml`` holds)."""
    return (f"# Tofino2 port map: logical ToR ports -> dev ports (controller.tofino2.settings)\n"
            f"pipe = {pm.pipe}\npktgen_port = {pm.pktgen_port}\nrecirc_port = {pm.recirc_port}\n"
            f"hosts = {list(pm.hosts)}\nuplinks = {list(pm.uplinks)}\nother_port_queues = {pm.other_port_queues}\n"
            f"[generator]\ngbps = {pm.generator.gbps}\npacket_bytes = {pm.generator.packet_bytes}\n")
