"""Bring an emulated fabric up and down, run commands in its hosts, fail and recover
its elements. The I/O edge of :mod:`controller.emulate`.

``up`` checks everything first (root, tools, config, no fabric of the same prefix
exists, the programs compile, and the daemon's own offline checks of the net.toml it
will run on: schedule, programs, routes, every switch's entries), then writes the plan
to the state directory, then creates: links and namespaces, one ``simple_switch_grpc``
per ToR and one for the OCS emulator, then starts the controller daemon and waits until
it has programmed every switch and clocks them. If any step fails, what was made is
removed again. ``down`` removes everything by the names and PID files the plan recorded
(and by this fabric's exact name patterns, for what a crash left before the plan was
complete); it is idempotent.

The emulator never programs a switch itself: the daemon (``uro daemon``,
:mod:`controller.emulate.daemon`) pushes pipelines and tables, sends the slice timer to
every switch, and reacts to the failures the drills cause.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from controller import process
from controller.agent.bmv2_process import Bmv2Switch, free_port
from controller.atomic import write_text
from controller.emulate import clockfault, daemon as dmn, faults, links, pktgen, procs
from controller.emulate.config import EmuConfig
from controller.emulate.network import Network
from controller.emulate.plan import Plan, make_plan, parse_host_name
from controller.errors import UroError
from controller.p4gen import build as p4build, render as rnd
from controller.p4gen.profile import DEPART_PRIORITY
from controller.schedule.degrade import Failed

TOOLS = {"simple_switch_grpc": "bmv2 (see README 'P4 toolchain')", "p4c-bm2-ss": "p4c (see README 'P4 toolchain')",
         "ip": "iproute2", "ethtool": "ethtool (apt-get install ethtool)"}


class FabricError(UroError):
    pass


@dataclass(frozen=True)
class Artifacts:
    """A compiled program: P4Info, bmv2 JSON and the pipeline contract."""

    p4info: Path
    device_config: Path
    contract_path: Path

    @property
    def contract(self) -> dict:
        return json.loads(self.contract_path.read_text())


# ---- state directory -------------------------------------------------------------------------
def state_dir(cfg_or_root, prefix: str | None = None) -> Path:
    if isinstance(cfg_or_root, EmuConfig):
        return cfg_or_root.state_dir
    return Path(cfg_or_root) / prefix


def load_plan(sdir: Path) -> Plan | None:
    try:
        return Plan.from_json((sdir / "plan.json").read_text())
    except (FileNotFoundError, ValueError):
        return None


def fabrics(state_root: str | Path = "/run/uro-emu") -> list[str]:
    """Prefixes of the fabrics with a state directory under ``state_root``."""
    root = Path(state_root)
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


# ---- checks before anything is created --------------------------------------------------------
def preflight(cfg: EmuConfig) -> Network:
    """Everything about the host and the config that can be checked without creating
    anything; returns the network (schedule, profile). The daemon's checks follow in
    :func:`up` once the programs exist."""
    if os.geteuid() != 0:
        raise FabricError("uro emulate needs root (network namespaces, veth links): run it as root")
    for tool, what in TOOLS.items():
        if shutil.which(tool) is None:
            raise FabricError(f"{tool} not found on PATH: install {what}")
    leftovers = links.existing_netns(cfg.prefix) + links.existing_links(cfg.prefix)
    if (cfg.state_dir / "plan.json").exists() or leftovers:
        what = f"{len(leftovers)} leftover namespaces/links" if leftovers else f"state in {cfg.state_dir}"
        raise FabricError(f"fabric {cfg.prefix!r} already exists ({what}): run "
                          f"`uro emulate down --prefix {cfg.prefix}` first")
    net = Network(cfg)
    net.profile                      # ProfileError names the field
    return net


def build_programs(net: Network, cache_root: Path) -> dict[str, Artifacts]:
    """Render the ToR and OCS programs for the fabric's profile and compile them with
    p4c-bm2-ss, cached by the rendered source's hash (a second fabric of the same size
    starts without compiling)."""
    out = {}
    for program in ("tor", "ocs"):
        text, contract = rnd.render(net.profile, program)
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        d = cache_root / f"{program}-{digest}"
        base = d / rnd.output_name(net.profile, program)
        arts = Artifacts(base.with_suffix(".p4info.txtpb"), base.with_suffix(".json"), base.with_suffix(".contract.json"))
        if not (arts.p4info.exists() and arts.device_config.exists() and arts.contract_path.exists()):
            d.mkdir(parents=True, exist_ok=True)
            write_text(base.with_suffix(".p4"), text)
            p4build.compile_one(base.with_suffix(".p4"))
            write_text(arts.contract_path, json.dumps(contract, indent=1, sort_keys=True) + "\n")
        out[program] = arts
    return out


# ---- up / down -----------------------------------------------------------------------------
def up(cfg: EmuConfig, start_daemon: bool = True, log=print, ready_timeout_s: float = 120.0) -> Plan:
    """Create the fabric of ``cfg`` and start its daemon; returns its plan. On failure
    nothing is left behind. ``start_daemon=False``: the bare fabric (nothing programs
    the switches; the net.toml a daemon would run on is written all the same).
    ``ready_timeout_s``: how long the daemon may take to program and clock every switch."""
    net = preflight(cfg)
    t0 = time.time()
    arts = build_programs(net, Path(cfg.state_root) / ".build")
    log(f"programs: {arts['tor'].device_config.name}, {arts['ocs'].device_config.name} "
        f"({time.time() - t0:.1f} s)")
    plan = make_plan(cfg, free_port)
    sdir = cfg.state_dir
    net_path = sdir / "net.toml"
    text = dmn.net_toml(cfg, plan, arts)
    t0 = time.time()
    prep = dmn.prepare(text, net_path)        # the daemon's checks, before anything exists
    log(f"routes: {prep.routes.schedule.describe()}; computed in {prep.routes.seconds:.2f} s "
        f"(checks {time.time() - t0:.1f} s)")
    sdir.mkdir(parents=True, exist_ok=True)
    # the plan first: from here on `down` knows every name this fabric will create
    write_text(sdir / "plan.json", plan.to_json() + "\n")
    write_text(sdir / "artifacts.json", json.dumps({p: {"p4info": str(a.p4info), "device_config": str(a.device_config),
                                                        "contract": str(a.contract_path)} for p, a in arts.items()}) + "\n")
    write_text(sdir / "config.json", json.dumps({"source": cfg.source, "state_root": cfg.state_root}) + "\n")
    write_text(sdir / "switch_args.json", json.dumps([list(cfg.switch_args), list(cfg.target_args)]) + "\n")
    write_text(net_path, text)
    try:
        t1 = time.time()
        links.up(plan)
        n_up = sum(1 for x in plan.links if x.kind == "uplink")
        log(f"links: {len(plan.hosts)} host namespaces, {len(plan.hosts) + 2 * n_up} veth pairs, {n_up} uplink "
            f"cables ({time.time() - t1:.1f} s)")
        t2 = time.time()
        started = start_switches(plan, sdir, cfg)
        for sw in started:
            sw.wait_started()
        pace(plan, cfg.uplink_pps, cfg.hold_pps)
        log(f"switches: {len(plan.switches)} simple_switch_grpc, started {cfg.start_gap_s:g} s apart "
            f"({time.time() - t2:.1f} s)")
        if cfg.clock_mode == "sync":
            start_pktgen(plan, sdir, cfg.trigger_s, log)
        if start_daemon:
            dmn.start(cfg, plan, net_path, timeout_s=ready_timeout_s, log=log)
    except BaseException:
        down(cfg.prefix, cfg.state_root)
        raise
    return plan


def start_switches(plan: Plan, sdir: Path, cfg: EmuConfig) -> list[Bmv2Switch]:
    """Start every switch process, ``cfg.start_gap_s`` apart (not waiting for one to answer
    before the next starts): a bmv2 switch's clock counts from its own start, so the
    fabric's local clocks really differ by seconds, as a real network's do until the slice
    clock aligns them (docs/clock.md)."""
    out = []
    t0 = time.monotonic()
    for i, sw in enumerate(plan.switches):
        time.sleep(max(0.0, t0 + i * cfg.start_gap_s - time.monotonic()))
        out.append(Bmv2Switch.for_plan(sw, sdir, cfg.switch_args, cfg.target_args, cfg.switch_niceness)
                   .start(wait=False))
    return out


#: how long the packet generator may take to start sending while its process lives: a
#: Python process importing scapy takes seconds, and over 10 s on a loaded 2-core machine
PKTGEN_START_S = 60.0


def start_pktgen(plan: Plan, sdir: Path, period_s: float, log=print) -> int:
    """Start the fabric's packet generator (:mod:`controller.emulate.pktgen`), recorded in
    its PID files (``down`` stops it); returns its PID once it runs (a generator that
    exits fails at once; one that lives but does not send within PKTGEN_START_S fails)."""
    pid = process.start(pktgen.NAME, pktgen.command(sdir / "plan.json", period_s), sdir / "pids", sdir / "logs",
                        env=procs.python_env(), niceness=procs.CLOCK_NICENESS)
    end = time.monotonic() + PKTGEN_START_S
    log_path = sdir / "logs" / f"{pktgen.NAME}.log"
    while time.monotonic() < end:
        if not process.started(sdir / "pids", pktgen.NAME):
            raise FabricError(f"the packet generator exited at start: see {log_path}")
        if log_path.exists() and "pktgen: a TRIGGER every" in log_path.read_text(errors="replace"):
            log(f"pktgen: pid {pid}, a TRIGGER every {period_s * 1e3:.3g} ms to each ToR's port 500")
            return pid
        time.sleep(0.05)
    raise FabricError(f"the packet generator did not start within {PKTGEN_START_S:g} s: see {log_path}")


def load_artifacts(sdir: Path) -> dict[str, Artifacts]:
    doc = json.loads((sdir / "artifacts.json").read_text())
    return {p: Artifacts(Path(a["p4info"]), Path(a["device_config"]), Path(a["contract"])) for p, a in doc.items()}


def queue_rates(uplink_ports, uplink_pps: int, hold_pps: int) -> dict:
    """``{port or (port, priority): packets/s}`` of a ToR's paced egress queues (a rate of
    0 is left out: bmv2's queues start unpaced): on each uplink port every priority queue
    at ``hold_pps`` (the hold queues a packet held for a later slice circles in), then the
    top one, which carries what departs now, at ``uplink_pps``."""
    rates: dict = {}
    for port in uplink_ports:
        if hold_pps:
            rates[port] = hold_pps
        if uplink_pps or hold_pps:
            rates[(port, DEPART_PRIORITY)] = uplink_pps
    return rates


def pace(plan: Plan, uplink_pps: int, hold_pps: int, only: str | None = None) -> None:
    """Pace every ToR's uplink egress queues (Thrift, in parallel per switch): the queue
    of what departs now at ``uplink_pps``, the hold queues at ``hold_pps``.

    A held packet (calendar queue on bmv2) recirculates through a hold queue of its
    uplink; bmv2's input buffer serves recirculated packets strictly before new ones,
    so unpaced held packets can keep the slice clock's packets out of a switch for a
    long time, and each pass costs CPU. Pacing bounds the loop and lets the clock in;
    docs/p4.md "Calendar queues on bmv2", docs/emulate.md "Time"."""
    from concurrent.futures import ThreadPoolExecutor

    sws = [s for s in plan.tor_switches if only is None or s.name == only]
    with ThreadPoolExecutor(max_workers=4) as ex:
        list(ex.map(lambda s: procs.set_queue_rates(
            s.thrift_port, queue_rates([plan.host_ports + u for u in range(plan.uplinks)], uplink_pps, hold_pps),
            s.name), sws))


def down(prefix: str, state_root: str | Path = "/run/uro-emu") -> list[str]:
    """Stop every process and remove every namespace and link of fabric ``prefix``."""
    if os.geteuid() != 0:
        raise FabricError("uro emulate down needs root")
    sdir = state_dir(state_root, prefix)
    plan = load_plan(sdir)
    removed = []
    pid_dir = sdir / "pids"
    # the daemon first (it would restore what we stop), then the switches
    names = process.pid_names(pid_dir)
    for name in sorted(names, key=lambda n: (n != "daemon", n)):
        if process.stop(pid_dir, name):
            removed.append(f"process {name}")
    removed += links.down(prefix, plan)
    if sdir.is_dir():
        shutil.rmtree(sdir)
    return removed


def leftovers(prefix: str, state_root: str | Path = "/run/uro-emu") -> list[str]:
    """Everything of fabric ``prefix`` that still exists (empty after ``down``)."""
    sdir = state_dir(state_root, prefix)
    out = [f"netns {n}" for n in links.existing_netns(prefix)] + [f"link {n}" for n in links.existing_links(prefix)]
    out += [f"process {n}" for n in process.pid_names(sdir / "pids") if process.running(sdir / "pids", n)]
    if sdir.exists():
        out.append(f"state {sdir}")
    return out


# ---- using a running fabric ------------------------------------------------------------------
def need_plan(prefix: str, state_root: str | Path = "/run/uro-emu") -> Plan:
    plan = load_plan(state_dir(state_root, prefix))
    if plan is None:
        up_now = fabrics(state_root)
        raise FabricError(f"no emulated fabric {prefix!r} is up"
                          + (f" (up: {', '.join(up_now)})" if up_now else " (none is up: uro emulate up --config ...)"))
    return plan


def host_argv(plan: Plan, host: str, argv: list[str]) -> list[str]:
    """The command line that runs ``argv`` inside host ``host``'s namespace."""
    if parse_host_name(host) is None:
        raise FabricError(f"{host!r} is not a host name (h<tor>_<port>, e.g. h0_0)")
    try:
        h = plan.host(host)
    except KeyError:
        raise FabricError(f"no host {host!r} in fabric {plan.prefix!r} "
                          f"(hosts h0_0..h{plan.tors - 1}_{len(plan.hosts) // plan.tors - 1})") from None
    return ["ip", "netns", "exec", h.netns, *argv]


def status(prefix: str, state_root: str | Path = "/run/uro-emu") -> dict:
    """The fabric (processes, hosts, links down, drills) and, while its daemon runs, the
    daemon's own status (clock, generations, failures it handled)."""
    sdir = state_dir(state_root, prefix)
    plan = need_plan(prefix, state_root)
    pid_dir = sdir / "pids"
    sw = {s.name: {"role": s.role, "p4runtime": s.grpc_address, "pid": process.running(pid_dir, s.name),
                   "ports": {p: i for p, i in sorted(s.ports.items())}} for s in plan.switches}
    ups = {n: links.link_state(n) for n in plan.root_ifnames if Path(f"/sys/class/net/{n}").exists()}
    daemon_pid = dmn.running(sdir)
    daemon = None
    if daemon_pid:
        try:
            daemon = dmn.status(plan, timeout=5.0)
        except UroError as e:
            daemon = {"error": str(e)}
    return {"name": plan.name, "prefix": plan.prefix, "state_dir": str(sdir), "switches": sw,
            "daemon_pid": daemon_pid, "daemon_api": dmn.address(plan), "daemon": daemon,
            "hosts": {h.name: {"ip": h.ip, "mac": h.mac, "netns": h.netns, "tor_port": f"tor{h.tor}:{h.port}"}
                      for h in plan.hosts},
            "links_down": sorted(n for n, st in ups.items() if st == "down"),
            "cables_cut": [[x.tor, x.index] for x in plan.links
                           if x.kind == "uplink" and any(ups.get(w) == "down" for w in x.wire)],
            "failures": read_failures(sdir), "clock_faults": clockfault.read_faults(sdir)}


def describe(plan: Plan, sdir: Path) -> str:
    """What runs where, for `uro emulate up` and `status`."""
    pid = dmn.running(sdir)
    lines = [f"fabric {plan.name} (prefix {plan.prefix}): {plan.tors} ToRs x {plan.uplinks} uplinks, "
             f"{len(plan.hosts)} hosts, state in {sdir}",
             f"  daemon  uro daemon --config {sdir / 'net.toml'}  "
             + (f"pid {pid}  status http://{dmn.address(plan)}/status" if pid else "not running")]
    for s in plan.switches:
        lines.append(f"  {s.name:>6}  simple_switch_grpc  P4Runtime {s.grpc_address}  device {s.device_id}  "
                     f"{len(s.ports)} ports  cpu port {s.cpu_port}")
    for h in plan.hosts[:8]:
        lines.append(f"  {h.name:>6}  netns {h.netns}  {h.ip}/{h.prefix_len}  {h.mac}  -> tor{h.tor} port {h.port}")
    if len(plan.hosts) > 8:
        lines.append(f"  ... {len(plan.hosts) - 8} more hosts (uro emulate status)")
    return "\n".join(lines)


# ---- failure drills --------------------------------------------------------------------------
def read_failures(sdir: Path) -> list[dict]:
    try:
        return json.loads((sdir / "failures.json").read_text())
    except FileNotFoundError:
        return []


def _write_failures(sdir: Path, items: list[dict]) -> None:
    write_text(sdir / "failures.json", json.dumps(items) + "\n")


def _failure_ifnames(plan: Plan, kind: str, ids: list[int]) -> list[str]:
    """The wire ends to take down: a cut cable leaves both switch ports administratively
    up and without carrier (see plan.py: bmv2 goes deaf on a port taken down itself)."""
    if kind == "link":
        tor, up = ids
        if not 0 <= tor < plan.tors or not 0 <= up < plan.uplinks:
            raise FabricError(f"link {tor} {up}: ToR must be in 0..{plan.tors - 1}, uplink in 0..{plan.uplinks - 1}")
        return plan.uplink_link(tor, up).wire
    if kind == "ocs":
        (up,) = ids
        if not 0 <= up < plan.uplinks:
            raise FabricError(f"ocs {up}: uplink (OCS) must be in 0..{plan.uplinks - 1}")
        return [x for t in range(plan.tors) for x in plan.uplink_link(t, up).wire]
    return []


def _report_line(r: dict) -> str:
    dp = "no data-plane mask (a failed ToR)" if r.get("dataplane_ms") is None else \
        f"down mask in {r['dataplane_ms']:.0f} ms"
    gen = f"new generation active on every ToR in {r['generation_s']:.2f} s" if r.get("generation_s") is not None \
        else f"no new generation ({r.get('error')})"
    target = r["target"] if not isinstance(r["target"], list) else "/".join(map(str, r["target"]))
    return f"daemon: {r['op']} {r['kind']} {target} ({r['source']}): {dp}, {gen}"


def _daemon_reaction(plan: Plan, sdir: Path, op: str, kind: str, ids: list[int], act,
                     hold_routes_s: float = 0.0) -> list[str]:
    """Do ``act()`` and return the daemon's report lines: a link change reaches the daemon
    over netlink (we wait for its reports), a stopped or restarted ToR is declared over
    its API (a lost session alone is not a failure to the daemon, docs/daemon.md), with
    ``hold_routes_s`` when given (the daemon's new routes wait that long)."""
    if dmn.running(sdir) is None:
        act()
        return ["no daemon runs on this fabric (built with --no-daemon, or it stopped): nothing reacts"]
    if kind in ("port", "id"):
        act()
        return ["no port state changes: only the switches' liveness per circuit sees it "
                "(uro emulate status, docs/liveness.md)"]
    before = dmn.events(plan)
    act()
    extra = []
    if kind == "tor":
        t0 = time.monotonic()
        body = {"tor": ids[0], **({"hold_routes_s": hold_routes_s} if hold_routes_s else {})}
        reps = [dmn.declare(plan, sdir, op, body)]
        if op == "recover":
            sw = dmn.wait_switch(plan, f"tor{ids[0]}")
            extra = [f"daemon: tor{ids[0]} restored (pipeline, tables, generation {sw['generation']}) "
                     f"{time.monotonic() - t0:.2f} s after it was declared back"]
    else:
        targets = [[ids[0], ids[1]]] if kind == "link" else [[t, ids[0]] for t in range(plan.tors)]
        reps = dmn.wait_handled(plan, op, "uplink", targets, before)
    out = [_report_line(r) for r in reps] + extra
    cut = _unreachable_line(sdir, dmn.status(plan)["failures"]["active"])
    return out + ([cut] if cut else [])


def _unreachable_line(sdir: Path, active: dict) -> str | None:
    """Which ordered pairs the daemon's current routes leave unreachable (its own code on
    its config and failed set), so a drill that disconnects a pair says so."""
    failed = Failed(uplinks=frozenset(tuple(x) for x in active["uplinks"]), tors=frozenset(active["tors"]),
                    ocs=frozenset(active["ocs"]), circuits=frozenset(tuple(x) for x in active.get("circuits", [])))
    pairs = dmn.unreachable(dmn.routes(sdir / "net.toml", failed))
    if not pairs:
        return None
    return (f"routes: {len(pairs)} ordered ToR pair(s) have no per-hop route on the degraded schedule "
            f"within the hop bound: " + ", ".join(f"{a}->{b}" for a, b in pairs))


def fail(prefix: str, kind: str, ids: list[int], state_root: str | Path = "/run/uro-emu",
         hold_routes_s: float = 0.0) -> list[str]:
    """Take an element down for real and let the daemon react: ``link T U`` (the cable of
    ToR T's uplink U cut: the daemon sees the port lose carrier over netlink), ``tor T``
    (its switch process stopped, then declared to the daemon), ``ocs U`` (uplink U of every
    ToR cut). Returns what was done, the daemon's reports (down mask, new generation) and
    the pairs its new routes leave without a route, if any. ``hold_routes_s`` (a ToR,
    which is declared over the API): the daemon holds its new routes back that long after
    detection, so the mask alone acts meanwhile (diagnosis, the dead-ToR measurement)."""
    if hold_routes_s and kind != "tor":
        raise FabricError(f"{kind}: only a ToR's failure is declared to the daemon; its new routes cannot be held")
    plan = need_plan(prefix, state_root)
    sdir = state_dir(state_root, prefix)
    items = read_failures(sdir)
    rec = {"kind": kind, "ids": _canonical(kind, ids)}
    if rec in items:
        raise FabricError(f"{kind} {' '.join(map(str, ids))} is already failed")
    # a cable cut twice would change nothing the daemon could report
    if kind == "ocs":
        cut = [f["ids"] for f in items if f["kind"] == "link" and len(ids) == 1 and f["ids"][1:] == ids]
        if cut:
            raise FabricError(f"ocs {ids[0]}: the cable of link {cut[0][0]} {cut[0][1]} is cut already "
                              f"(recover link {cut[0][0]} {cut[0][1]} first)")
    if kind == "link" and len(ids) == 2 and {"kind": "ocs", "ids": [ids[1]]} in items:
        raise FabricError(f"link {ids[0]} {ids[1]}: ocs {ids[1]} is failed, which cut it already")
    if kind == "tor":
        (tor,) = ids
        if not 0 <= tor < plan.tors:
            raise FabricError(f"tor {tor}: ToR must be in 0..{plan.tors - 1}")
        what = f"stopped switch tor{tor}"

        def act():
            process.stop(sdir / "pids", f"tor{tor}")
    elif kind in ("port", "id"):
        act, what, rec = _fault_act(plan, sdir, kind, ids, items, fail=True)
    else:
        names = _failure_ifnames(plan, kind, ids)
        what = f"cut {len(names) // 2} cable(s): wire ends {', '.join(names)} down"

        def act():
            for n in names:
                links.set_link(n, "down")
    _write_failures(sdir, items + [rec])
    return [what] + _daemon_reaction(plan, sdir, "fail", kind, ids, act, hold_routes_s)


def _canonical(kind: str, ids: list[int]) -> list[int]:
    """A drill's ids as recorded: a port's slices sorted (``port 2 1 3 0`` is ``port 2 1 0 3``)."""
    return ids[:2] + sorted(ids[2:]) if kind == "port" else list(ids)


def _fault_act(plan: Plan, sdir: Path, kind: str, ids: list[int], items: list[dict], fail: bool):
    """(act, what, record) of an emulated fault no port state shows (:mod:`.faults`): an OCS
    port dead in some slices, a ToR going by a wrong id; checked before anything is written."""
    arts = load_artifacts(sdir)
    if kind == "port":
        tor, up, slices = faults.check_port(plan, int(arts["ocs"].contract["profile"]["slices"]), ids)
        if fail:
            other = [f["ids"] for f in items if f["kind"] == "port" and f["ids"][:2] == [tor, up]]
            if other:
                raise FabricError(f"port {tor} {up}: already dead in slice(s) {' '.join(map(str, other[0][2:]))} "
                                  f"(recover port {' '.join(map(str, other[0]))} first)")
        contract = arts["ocs"].contract
        faults.port_register(contract)
        what = (f"OCS port of tor{tor} uplink {up} {'dead' if fail else 'alive again'} in slice(s) "
                f"{', '.join(map(str, slices))} (emulated fault register, over Thrift)")

        def act():
            faults.set_port(plan, contract, tor, up, slices if fail else ())
        return act, what, {"kind": kind, "ids": [tor, up, *slices]}
    tor, as_id = faults.check_id(plan, ids)
    if fail:
        other = [f["ids"] for f in items if f["kind"] == "id" and f["ids"][0] == tor]
        if other:
            raise FabricError(f"id {tor} {as_id}: tor{tor} goes by id {other[0][1]} already "
                              f"(recover id {tor} {other[0][1]} first)")
    contract = arts["tor"].contract
    faults.id_register(contract, f"tor{tor}")
    what = (f"tor{tor}'s clock goes by id {as_id}" if fail else f"tor{tor}'s clock goes by its own id again") + \
        " (emulated fault register, over Thrift)"

    def act():
        faults.set_id(plan, contract, tor, as_id if fail else None)
    return act, what, {"kind": kind, "ids": [tor, as_id]}


def restart_switch(plan: Plan, sdir: Path, name: str) -> None:
    """Start switch ``name``'s process again as ``up`` started it (stopping the running one
    by its PID first, if any): a bare switch with no pipeline or tables, as after a power
    cycle; the daemon restores it (docs/daemon.md). Paced as ``up`` paces it."""
    sw = plan.switch(name)
    process.stop(sdir / "pids", name)
    extra, target = json.loads((sdir / "switch_args.json").read_text())
    Bmv2Switch.for_plan(sw, sdir, tuple(extra), tuple(target), plan.extra.get("switch_niceness", 0)).start()
    pace(plan, plan.extra.get("uplink_pps", 0), plan.extra.get("hold_pps", 0), only=sw.name)


def recover(prefix: str, kind: str, ids: list[int], state_root: str | Path = "/run/uro-emu") -> list[str]:
    plan = need_plan(prefix, state_root)
    sdir = state_dir(state_root, prefix)
    items = read_failures(sdir)
    rec = {"kind": kind, "ids": _canonical(kind, ids)}
    if rec not in items:
        raise FabricError(f"{kind} {' '.join(map(str, ids))} is not failed (failed: "
                          f"{', '.join(f['kind'] + ' ' + ' '.join(map(str, f['ids'])) for f in items) or 'nothing'})")
    if kind == "tor":
        sw = plan.switch(f"tor{ids[0]}")
        what = f"restarted switch {sw.name} (the daemon restores its pipeline and tables)"

        def act():
            restart_switch(plan, sdir, sw.name)
    elif kind in ("port", "id"):
        act, what, rec = _fault_act(plan, sdir, kind, ids, items, fail=False)
    else:
        names = _failure_ifnames(plan, kind, ids)
        what = f"joined {len(names) // 2} cable(s): wire ends {', '.join(names)} up"

        def act():
            for n in names:
                links.set_link(n, "up")
    def act_and_record():       # the element is back once act() ran, whatever the daemon says next
        act()
        _write_failures(sdir, [f for f in items if f != rec])

    return [what] + _daemon_reaction(plan, sdir, "recover", kind, ids, act_and_record)
