"""The plan of an emulated fabric: what runs where, and every name it creates.

Pure: computed from an :class:`~controller.emulate.config.EmuConfig` (and TCP ports the
caller picked), written to the fabric's state directory *before* anything is created,
so that ``uro emulate down`` can remove exactly what this fabric made (and nothing
else) even after a crash.

Names (``P`` is the fabric's prefix; interface names are at most 15 bytes):

- host ``h<t>_<h>`` (ToR ``t``, host port ``h``): network namespace ``P-h<t>_<h>``
  holding ``eth0``; its peer ``P t<t> h<h>`` (root namespace) is port ``h`` of ToR ``t``;
- uplink ``u`` of ToR ``t`` is a cable: ToR end ``P t<t> u<u>`` (port ``host_ports + u`` of
  ToR ``t``, profile.py's port layout) and OCS end ``P o<t> u<u>`` (port ``t * d + u`` of the
  OCS emulator), each a veth whose peer (``P x<t> u<u>``, ``P y<t> u<u>``) is one end of the
  *wire* in between: frames arriving at one wire end are sent out of the other (tc mirred).
  A cut (``uro emulate fail link``) takes the wire ends down, so both switch ports lose
  carrier while staying administratively up: libpcap, which bmv2 reads every port through
  with one thread, blocks that thread on a port that was taken *administratively* down
  until a frame arrives on it again, which leaves the whole switch deaf (docs/emulate.md);
- switches ``tor<t>`` and ``ocs``: ``simple_switch_grpc`` processes in the root namespace,
  P4Runtime on ``127.0.0.1:<grpc_port>``, their PIDs in ``<state>/pids/<name>.pid``;
- every switch's **pktgen port** (bmv2 port :data:`PKTGEN_PORT`, docs/clock.md "The
  emulated fabric"): ``P g<i>`` (``i`` the switch's device id: ToR ``t`` is ``t``, the OCS
  emulator ``N``), a veth whose peer ``P q<i>`` is held by the fabric's packet generator
  (:mod:`controller.emulate.pktgen`, TRIGGERs) and used by the clock measurements (PROBEs).

Addresses follow the shared address plan of :mod:`controller.tables.tor_batch`
(``10.<t // 256>.<t % 256>.<h + 1>/24``); MACs are ``02:75:72:<t_hi>:<t_lo>:<h>``
(locally administered, deterministic), so a host can hold a static neighbour entry for
every other host: the ToR program forwards frames unchanged and drops ARP, so the
frame a host sends must already carry the receiver's MAC.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Callable

from controller.emulate.config import PKTGEN_PORT, EmuConfig
from controller.tables.tor_batch import host_ip, tor_prefix

PLAN_FORMAT = "uro-emulate-plan/2"
#: IPv4 options carry at most 40 bytes (an SSRR route the source ToR adds)
OPTION_HEADROOM = 40


@dataclass(frozen=True)
class HostPlan:
    name: str          # h<t>_<h>
    tor: int
    port: int          # host port of the ToR
    netns: str
    ifname: str        # inside the namespace
    peer_if: str       # root-namespace end: the ToR's port
    mac: str
    ip: str
    prefix_len: int


@dataclass(frozen=True)
class SwitchPlan:
    name: str          # tor<t> | ocs
    role: str          # tor | ocs
    tor: int | None
    device_id: int
    grpc_port: int
    thrift_port: int
    cpu_port: int
    ports: dict[int, str]   # device port -> interface (root namespace)

    @property
    def grpc_address(self) -> str:
        return f"127.0.0.1:{self.grpc_port}"


@dataclass(frozen=True)
class LinkPlan:
    """A host link (one veth pair: ``a`` in the root namespace, ``b`` in ``b_netns``) or
    an uplink cable: ToR port ``a`` and OCS port ``b`` (root namespace), each paired with
    a wire end (``wire_a`` with ``a``, ``wire_b`` with ``b``) that forwards to the other."""

    kind: str          # host | uplink | pktgen
    a: str
    b: str
    b_netns: str | None
    tor: int
    index: int         # host port (host links) or uplink (uplink links)
    wire_a: str | None = None
    wire_b: str | None = None

    @property
    def wire(self) -> list[str]:
        return [x for x in (self.wire_a, self.wire_b) if x]


@dataclass(frozen=True)
class Plan:
    format: str
    name: str
    prefix: str
    tors: int
    uplinks: int
    host_ports: int
    hosts: list[HostPlan]
    switches: list[SwitchPlan]
    links: list[LinkPlan]
    fabric_mtu: int
    host_mtu: int
    cpu_port: int
    extra: dict = field(default_factory=dict)

    # ---- look-ups ----------------------------------------------------------------------
    def host(self, name: str) -> HostPlan:
        for h in self.hosts:
            if h.name == name:
                return h
        raise KeyError(name)

    def switch(self, name: str) -> SwitchPlan:
        for s in self.switches:
            if s.name == name:
                return s
        raise KeyError(name)

    @property
    def tor_switches(self) -> list[SwitchPlan]:
        return [s for s in self.switches if s.role == "tor"]

    @property
    def ocs(self) -> SwitchPlan:
        return self.switch("ocs")

    def uplink_link(self, tor: int, uplink: int) -> LinkPlan:
        for link in self.links:
            if link.kind == "uplink" and link.tor == tor and link.index == uplink:
                return link
        raise KeyError((tor, uplink))

    def pktgen_link(self, name: str) -> LinkPlan:
        """The pktgen link of switch ``name``: ``a`` its port, ``b`` the generator's end."""
        sw = self.switch(name)
        for link in self.links:
            if link.kind == "pktgen" and link.index == sw.device_id:
                return link
        raise KeyError(name)

    @property
    def netns_names(self) -> list[str]:
        return [h.netns for h in self.hosts]

    @property
    def root_ifnames(self) -> list[str]:
        """Every interface this fabric puts in the root namespace."""
        out = []
        for link in self.links:
            out.append(link.a)
            if link.b_netns is None:
                out.append(link.b)
            out += link.wire
        return out

    # ---- (de)serialization ---------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Plan":
        d = json.loads(text)
        if d.get("format") != PLAN_FORMAT:
            raise ValueError(f"not a {PLAN_FORMAT} document")
        d["hosts"] = [HostPlan(**h) for h in d["hosts"]]
        d["switches"] = [SwitchPlan(**{**s, "ports": {int(k): v for k, v in s["ports"].items()}})
                         for s in d["switches"]]
        d["links"] = [LinkPlan(**x) for x in d["links"]]
        return cls(**d)


def host_mac(tor: int, port: int) -> str:
    return f"02:75:72:{tor >> 8:02x}:{tor & 0xFF:02x}:{port:02x}"


def host_name(tor: int, port: int) -> str:
    return f"h{tor}_{port}"


def parse_host_name(name: str) -> tuple[int, int] | None:
    m = re.fullmatch(r"h(\d+)_(\d+)", name)
    return (int(m.group(1)), int(m.group(2))) if m else None


def make_plan(cfg: EmuConfig, free_port: Callable[[], int]) -> Plan:
    """The fabric of ``cfg``; ``free_port()`` gives an unused local TCP port per call."""
    P, N, d = cfg.prefix, cfg.tors, cfg.uplinks
    hosts, links, switches = [], [], []
    for t in range(N):
        _, plen = tor_prefix(t)
        for h in range(cfg.hosts_per_tor):
            hp = HostPlan(name=host_name(t, h), tor=t, port=h, netns=f"{P}-{host_name(t, h)}", ifname="eth0",
                          peer_if=f"{P}t{t}h{h}", mac=host_mac(t, h), ip=host_ip(t, h), prefix_len=plen)
            hosts.append(hp)
            links.append(LinkPlan("host", hp.peer_if, hp.ifname, hp.netns, t, h))
        for u in range(d):
            links.append(LinkPlan("uplink", f"{P}t{t}u{u}", f"{P}o{t}u{u}", None, t, u,
                                  wire_a=f"{P}x{t}u{u}", wire_b=f"{P}y{t}u{u}"))
    for i in range(N + 1):    # ToR t is device t, the OCS emulator device N
        links.append(LinkPlan("pktgen", f"{P}g{i}", f"{P}q{i}", None, i if i < N else -1, i))
    for t in range(N):
        ports = {h: f"{P}t{t}h{h}" for h in range(cfg.hosts_per_tor)}
        ports.update({cfg.host_ports + u: f"{P}t{t}u{u}" for u in range(d)})
        ports[PKTGEN_PORT] = f"{P}g{t}"
        switches.append(SwitchPlan(f"tor{t}", "tor", t, t, free_port(), free_port(), cfg.cpu_port, ports))
    ocs_ports = {t * d + u: f"{P}o{t}u{u}" for t in range(N) for u in range(d)}
    ocs_ports[PKTGEN_PORT] = f"{P}g{N}"
    switches.append(SwitchPlan("ocs", "ocs", None, N, free_port(), free_port(), cfg.cpu_port, ocs_ports))
    names = [x for link in links for x in (link.a, link.b, *link.wire) if link.b_netns is None or x != link.b]
    too_long = [n for n in names if len(n.encode()) > 15]
    if too_long:  # config validation keeps the prefix short enough; this guards the invariant
        raise ValueError(f"interface name {too_long[0]!r} is longer than 15 bytes")
    return Plan(format=PLAN_FORMAT, name=cfg.name, prefix=P, tors=N, uplinks=d, host_ports=cfg.host_ports,
                hosts=hosts, switches=switches, links=links, fabric_mtu=cfg.host_mtu + OPTION_HEADROOM,
                host_mtu=cfg.host_mtu, cpu_port=cfg.cpu_port,
                extra={"uplink_pps": cfg.uplink_pps, "hold_pps": cfg.hold_pps, "switch_niceness": cfg.switch_niceness,
                       "status_port": free_port()})
