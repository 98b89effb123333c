"""Namespaces, veth links, addresses and neighbour entries of an emulated fabric (pyroute2).

Why pyroute2 and not Mininet: the fabric needs no OVS and no controller, only
namespaces and veth pairs; pyroute2 makes *named* namespaces (``ip netns``), so a
fabric's leftovers are found by their names after a crash, and it speaks netlink
directly (structured errors, no shell parsing). Mininet's hosts are unnamed namespaces
held by shell processes, and its cleanup (``mn -c``) kills processes and deletes links
by broad patterns, which this project does not allow. See docs/emulate.md.

Every function here takes exact names from the :class:`~controller.emulate.plan.Plan`;
teardown is idempotent (a name that is already gone is fine).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from controller.emulate.plan import HostPlan, LinkPlan, Plan
from controller.errors import UroError

NETNS_DIR = Path("/run/netns")


class LinkError(UroError):
    """A namespace or link operation failed; the message names the object."""


def _ipr():
    from pyroute2 import IPRoute

    return IPRoute()


def _sysctl_root(ifname: str, key: str, value: str) -> None:
    Path(f"/proc/sys/net/ipv6/conf/{ifname}/{key}").write_text(value + "\n")


def _ns_exec(netns: str, script: str) -> None:
    r = subprocess.run(["ip", "netns", "exec", netns, "sh", "-ec", script], capture_output=True, text=True)
    if r.returncode != 0:
        raise LinkError(f"namespace {netns}: setup failed: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")


#: offloads off: bmv2 reads and writes whole frames on raw sockets, so a checksum left
#: to the NIC (CHECKSUM_PARTIAL) or a GSO super-frame would reach the peer broken
_OFFLOADS = "tx off rx off tso off gso off gro off"


def _root_if_setup(ipr, ifname: str, mtu: int) -> None:
    idx = ipr.link_lookup(ifname=ifname)[0]
    _sysctl_root(ifname, "disable_ipv6", "1")   # no router solicitations into the switch
    ipr.link("set", index=idx, mtu=mtu)
    subprocess.run(["ethtool", "-K", ifname, *_OFFLOADS.split()], capture_output=True)
    ipr.link("set", index=idx, state="up")


def create_uplink(ipr, link: LinkPlan, mtu: int) -> list[str]:
    """The cable of one ToR uplink: ToR port ``a`` <-veth-> wire end ``wire_a`` and OCS port
    ``b`` <-veth-> wire end ``wire_b``, all up; returns the ``tc`` commands that make the
    wire forward (each wire end's ingress redirected out of the other; run in one batch)."""
    ipr.link("add", ifname=link.a, kind="veth", peer={"ifname": link.wire_a})
    ipr.link("add", ifname=link.b, kind="veth", peer={"ifname": link.wire_b})
    for ifc in (link.wire_a, link.wire_b, link.a, link.b):
        _root_if_setup(ipr, ifc, mtu)
    out = []
    for src, dst in ((link.wire_a, link.wire_b), (link.wire_b, link.wire_a)):
        out += [f"qdisc add dev {src} ingress",
                f"filter add dev {src} parent ffff: protocol all u32 match u32 0 0 "
                f"action mirred egress redirect dev {dst}"]
    return out


def _tc_batch(commands: list[str]) -> None:
    if not commands:
        return
    r = subprocess.run(["tc", "-batch", "-"], input="\n".join(commands) + "\n", capture_output=True, text=True)
    if r.returncode != 0:
        raise LinkError("tc could not make the uplink wires forward (needs the kernel's u32 classifier and "
                        f"mirred action): {(r.stderr or r.stdout).strip().splitlines()[-1:]}")


def create_host(ipr, host: HostPlan, plan: Plan) -> None:
    """Namespace + veth (eth0 inside, the ToR port outside) + address, on-link route to
    every ToR's hosts (10.0.0.0/8 carries the route MTU), static neighbours, no IPv6.

    eth0's MTU has room for the SSRR option a source ToR adds (IPv4 options <= 40 bytes);
    the route MTU keeps what the host itself sends at ``host_mtu``."""
    from pyroute2 import NetNS, netns

    netns.create(host.netns)
    ipr.link("add", ifname=host.peer_if, kind="veth", peer={"ifname": host.ifname, "net_ns_fd": host.netns})
    _root_if_setup(ipr, host.peer_if, plan.fabric_mtu)
    # sysctls and offloads first: IPv6 must be off before eth0 comes up
    _ns_exec(host.netns, "\n".join([
        "sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1",
        f"sysctl -q -w net.ipv6.conf.{host.ifname}.disable_ipv6=1",
        # URO/UCMP source routes arrive as IPv4 SSRR options; the host accepts them
        "sysctl -q -w net.ipv4.conf.all.accept_source_route=1 "
        f"net.ipv4.conf.{host.ifname}.accept_source_route=1",
        f"sysctl -q -w net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.{host.ifname}.rp_filter=0",
        f"ethtool -K {host.ifname} {_OFFLOADS} >/dev/null 2>&1 || true",
        "ip link set lo up",
    ]))
    with NetNS(host.netns) as ns:
        idx = ns.link_lookup(ifname=host.ifname)[0]
        ns.link("set", index=idx, address=host.mac, mtu=plan.fabric_mtu)
        ns.link("set", index=idx, state="up")
        ns.addr("add", index=idx, address=host.ip, prefixlen=host.prefix_len)
        ns.route("add", dst="10.0.0.0/8", oif=idx, scope=253, metrics={"mtu": plan.host_mtu})
        for other in plan.hosts:
            if other.name != host.name:
                ns.neigh("add", dst=other.ip, lladdr=other.mac, ifindex=idx, state="permanent")


def create_pktgen(ipr, link: LinkPlan) -> None:
    """A switch's pktgen port ``a`` and the generator's end ``b``: one veth pair, both ends
    up in the root namespace (frames are small: the MTU stays the default)."""
    ipr.link("add", ifname=link.a, kind="veth", peer={"ifname": link.b})
    for ifc in (link.b, link.a):
        _root_if_setup(ipr, ifc, 1500)


def up(plan: Plan, progress=None) -> None:
    """Create every namespace and link of ``plan`` (the caller has written the plan first)."""
    with _ipr() as ipr:
        tc = []
        for link in plan.links:
            if link.kind == "uplink":
                tc += create_uplink(ipr, link, plan.fabric_mtu)
            elif link.kind == "pktgen":
                create_pktgen(ipr, link)
        _tc_batch(tc)
        for host in plan.hosts:
            create_host(ipr, host, plan)
            if progress:
                progress(1)


# ---- inspection and teardown -----------------------------------------------------------------
def _name_re(prefix: str) -> re.Pattern:
    """Exactly the interface names a fabric with ``prefix`` makes (plan.py)."""
    return re.compile(rf"{re.escape(prefix)}(t\d+[hu]\d+|[oxy]\d+u\d+|[gq]\d+)")


def existing_netns(prefix: str) -> list[str]:
    """This fabric's host namespaces that exist now (by name: ``<prefix>-h<t>_<h>``)."""
    pat = re.compile(rf"{re.escape(prefix)}-h\d+_\d+")
    try:
        names = os.listdir(NETNS_DIR)
    except FileNotFoundError:
        return []
    return sorted(n for n in names if pat.fullmatch(n))


def existing_links(prefix: str) -> list[str]:
    """This fabric's root-namespace interfaces that exist now (by name)."""
    pat = _name_re(prefix)
    return sorted(n for n in os.listdir("/sys/class/net") if pat.fullmatch(n))


def netns_pids(name: str) -> list[int]:
    """PIDs of the processes living in namespace ``name`` (what ``ip netns pids`` does:
    the same network-namespace inode), e.g. an ``iperf3 -s -D`` a user started there."""
    try:
        st = os.stat(NETNS_DIR / name)
    except FileNotFoundError:
        return []
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ns = os.stat(f"/proc/{d}/ns/net")
            except (FileNotFoundError, PermissionError, ProcessLookupError):
                continue
            if (ns.st_ino, ns.st_dev) == (st.st_ino, st.st_dev):
                out.append(int(d))
    return out


def kill_netns_processes(names: list[str], timeout: float = 3.0) -> list[str]:
    """SIGTERM (then SIGKILL) every process inside these namespaces; returns what it stopped."""
    import signal
    import time

    victims = {pid: n for n in names for pid in netns_pids(n)}
    for pid in victims:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    end = time.time() + timeout
    while time.time() < end and any(Path(f"/proc/{p}").exists() for p in victims):
        for p in victims:
            try:
                os.waitpid(p, os.WNOHANG)
            except ChildProcessError:
                pass
        time.sleep(0.05)
    for pid in victims:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return [f"process {pid} in {n}" for pid, n in victims.items()]


def down(prefix: str, plan: Plan | None = None) -> list[str]:
    """Remove this fabric's namespaces and interfaces; returns what was removed.

    Idempotent: names from the plan (if there is one) plus whatever still carries this
    fabric's names; deleting a namespace takes its veth end and so the pair with it."""
    from pyroute2 import netns

    ns_names = set(existing_netns(prefix)) | ({n for n in plan.netns_names if (NETNS_DIR / n).exists()} if plan else set())
    # a process left in a host (iperf3 -D, a shell) would keep its namespace alive
    removed = kill_netns_processes(sorted(ns_names))
    for n in sorted(ns_names):
        try:
            netns.remove(n)
            removed.append(f"netns {n}")
        except OSError as e:
            if (NETNS_DIR / n).exists():
                raise LinkError(f"cannot remove namespace {n}: {e}") from None
    ifnames = set(existing_links(prefix))
    if plan:
        ifnames |= {n for n in plan.root_ifnames if Path(f"/sys/class/net/{n}").exists()}
    with _ipr() as ipr:
        for n in sorted(ifnames):
            idx = ipr.link_lookup(ifname=n)
            if idx:
                try:
                    ipr.link("del", index=idx[0])
                    removed.append(f"link {n}")
                except Exception:  # the peer of one already deleted: gone with it
                    if ipr.link_lookup(ifname=n):
                        raise LinkError(f"cannot delete interface {n}") from None
    return removed


def set_link(ifname: str, state: str, netns: str | None = None) -> None:
    """Administratively bring one interface up or down (failure drills)."""
    if netns:
        from pyroute2 import NetNS

        with NetNS(netns) as ns:
            idx = ns.link_lookup(ifname=ifname)
            if not idx:
                raise LinkError(f"no interface {ifname} in namespace {netns}")
            ns.link("set", index=idx[0], state=state)
        return
    with _ipr() as ipr:
        idx = ipr.link_lookup(ifname=ifname)
        if not idx:
            raise LinkError(f"no interface {ifname} (is the fabric up?)")
        ipr.link("set", index=idx[0], state=state)


def link_state(ifname: str) -> str:
    """``up``/``down`` (administrative) of a root-namespace interface."""
    flags = int(Path(f"/sys/class/net/{ifname}/flags").read_text(), 16)
    return "up" if flags & 1 else "down"


def oper_state(ifname: str) -> str:
    """The kernel's operational state (``up``, ``lowerlayerdown`` when a veth's peer is
    down, ...): what the daemon's link watcher sees."""
    return Path(f"/sys/class/net/{ifname}/operstate").read_text().strip()


def counters(ifnames: list[str]) -> dict[str, tuple[int, int]]:
    """(rx_packets, tx_packets) of root-namespace interfaces, from sysfs."""
    out = {}
    for n in ifnames:
        base = Path(f"/sys/class/net/{n}/statistics")
        out[n] = (int((base / "rx_packets").read_text()), int((base / "tx_packets").read_text()))
    return out
