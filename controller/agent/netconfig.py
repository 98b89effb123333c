"""A minimal network config for ``uro agent push`` (stand-in until the daemon's
``controller/daemon/config.py`` defines the full ``net.toml``; then ``uro agent push``
reads that one and this module goes).

Format (TOML, ``examples/push.toml`` is a commented example)::

    [network]
    profile = "tiny"              # named profile or a profile TOML path
    build = "build"               # p4c-bm2-ss outputs <program>_<profile>.*; built if missing

    [schedule]                    # generate = round-robin | opera | random (N, d from the
    generate = "round-robin"      #   profile, S must match it), or file = "schedule.json"
    seed = 0

    [routing]                     # per-hop routes (URO) for every destination
    algo = "uro"
    k = 3
    max_hops = 4

    [routing.source]              # source routes (UCMP or a path baseline) for some destinations
    algo = "ucmp"
    destinations = [3, 5]
    h_max = 4

    [[switch]]
    name = "tor0"
    role = "tor"                  # tor | ocs
    tor = 0                       # ToR id (role tor)
    address = "127.0.0.1:9559"
    device_id = 0
    election_id = 1
    timeout_s = 5.0
    insecure = true               # false: TLS with ca_cert, client_cert, client_key

Everything is checked before any switch is contacted; an error names the switch and
the field (:class:`ConfigError`, exit 2 from the CLI).
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterator

from controller.agent.backend import Pipeline, SwitchAddress
from controller.errors import UroError
from controller.tables.entries import Batch

ROLES = {"tor": "tor", "ocs": "ocs"}   # role -> program
_SWITCH_KEYS = {"name", "role", "tor", "address", "device_id", "election_id", "timeout_s", "insecure",
                "ca_cert", "client_cert", "client_key"}


class ConfigError(UroError):
    """The network config is invalid; the message names the file, switch and field."""


@dataclass(frozen=True)
class SwitchSpec:
    address: SwitchAddress
    role: str
    tor: int | None = None

    @property
    def name(self) -> str:
        return self.address.name


@dataclass
class NetConfig:
    path: Path
    profile: object                       # controller.p4gen.profile.Profile
    build_dir: Path
    schedule_spec: dict
    routing: dict
    source: dict
    switches: list[SwitchSpec] = field(default_factory=list)

    # ---- what a push needs -----------------------------------------------------------------
    @cached_property
    def schedule(self):
        from controller.schedule import GENERATORS, load

        s = self.schedule_spec
        p = self.profile
        try:
            if "file" in s:
                sched = load(self._rel(s["file"]))
            else:
                gen = GENERATORS[s["generate"]]
                kw = {"seed": s.get("seed", 0)} if s["generate"] != "round-robin" else {}
                sched = gen(p.tors, p.uplinks, **kw)
        except UroError as e:
            raise ConfigError(f"{self.path}: [schedule]: {e}") from None
        if (sched.n_tors, sched.n_uplinks, sched.n_slices) != (p.tors, p.uplinks, p.slices):
            raise ConfigError(f"{self.path}: [schedule]: {sched.n_tors} ToRs x {sched.n_uplinks} uplinks x "
                              f"{sched.n_slices} slices does not match profile {p.name!r} "
                              f"({p.tors} x {p.uplinks} x {p.slices})")
        return sched

    def _rel(self, p: str) -> Path:
        q = Path(p)
        return q if q.is_absolute() else self.path.parent / q

    @cached_property
    def per_hop_routes(self):
        from controller.routing import base

        alg = base.get(self.routing["algo"])
        return alg.run(self.schedule, alg.params(_params(self.routing)))

    @cached_property
    def path_routes(self):
        from controller.routing import base

        if not self.source.get("destinations"):
            return None
        alg = base.get(self.source["algo"])
        return alg.run(self.schedule, alg.params(_params(self.source)))

    def pipeline(self, role: str) -> Pipeline:
        """The compiled program of ``role`` (built with p4c-bm2-ss into ``build`` if missing)."""
        from controller.agent.p4runtime import bmv2_pipeline
        from controller.p4gen import build as p4build

        program = ROLES[role]
        base = self.build_dir / f"{program}_{self.profile.name}"
        files = [base.with_suffix(s) for s in (".p4info.txtpb", ".json", ".contract.json")]
        if not all(f.exists() for f in files):
            p4build.build(self.profile, self.build_dir, [program])
        return bmv2_pipeline(files[0], files[1], files[2], program)

    def desired(self, sw: SwitchSpec, contract: dict) -> Batch:
        """Everything ``sw`` must hold, computed in-process (no route file in between)."""
        from controller.tables.tor_batch import ocs_batch, tor_batch

        if sw.role == "ocs":
            return ocs_batch(contract, self.schedule)     # circuits + the config entry
        dsts = sorted(self.source.get("destinations", []))
        b = tor_batch(contract, sw.tor, uro_routes=self.per_hop_routes, path_routes=self.path_routes,
                      source_routed=[d for d in dsts if d != sw.tor])
        return source_routes_only_for(b, contract, set(dsts))


def source_routes_only_for(b: Batch, contract: dict, dsts: set[int]) -> Batch:
    """``b`` with the SSRR path entries (and their groups and members) of destinations that
    are not source-routed left out: the source ToR only looks them up for destinations
    whose route_mode is source_route, so their paths need not take selector members."""
    t = contract["tables"].get("ssrr_path")
    if t is None:
        return b
    keep_groups = {e.group_id for e in b.entries if e.table == t["name"] and dict(e.match)["dst_tor"] in dsts}
    keep_members = {m for g in b.groups if g.group_id in keep_groups for m in g.member_ids}
    return Batch([m for m in b.members if m.member_id in keep_members],
                 [g for g in b.groups if g.group_id in keep_groups],
                 [e for e in b.entries if e.table != t["name"] or e.group_id in keep_groups])


def _params(section: dict) -> dict:
    return {k: v for k, v in section.items() if k not in ("algo", "destinations")}


def _check_params(path: Path, where: str, section: dict, kind: str) -> None:
    from controller.routing import base

    algo = section.get("algo")
    try:
        alg = base.get(algo)
    except (UroError, KeyError):
        raise ConfigError(f"{path}: {where}.algo: unknown routing algorithm {algo!r} "
                          f"(known: {', '.join(base.algorithms())})") from None
    if alg.kind != kind:
        raise ConfigError(f"{path}: {where}.algo: {algo!r} computes {alg.kind} routes, this section needs {kind}")
    names = {f.name for f in dataclasses.fields(alg.params_type) if f.init}
    for k in _params(section):
        if k not in names:
            raise ConfigError(f"{path}: {where}.{k}: not a parameter of {algo} (known: {', '.join(sorted(names))})")
    try:
        alg.params(_params(section))
    except (UroError, TypeError, ValueError) as e:
        raise ConfigError(f"{path}: {where}: {e}") from None


def _int(path, where: str, v, lo: int, hi: int | None = None) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or (hi is not None and v > hi):
        rng = f">= {lo}" if hi is None else f"in {lo}..{hi}"
        raise ConfigError(f"{path}: {where}: expected an integer {rng}, got {v!r}")
    return v


def _address(path, where: str, v) -> str:
    if not isinstance(v, str) or ":" not in v:
        raise ConfigError(f"{path}: {where}: expected host:port, got {v!r}")
    host, _, port = v.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"{path}: {where}: expected host:port, got {v!r}")
    return v


def load(path: str | Path) -> NetConfig:
    """Parse and check ``path`` as a whole (see the module docstring)."""
    from controller.p4gen import profile as prof
    from controller.schedule import GENERATORS

    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text())
    except OSError as e:
        raise ConfigError(f"cannot read network config {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    for k in doc:
        if k not in ("network", "schedule", "routing", "switch"):
            raise ConfigError(f"{path}: unknown section [{k}]")
    net = doc.get("network", {})
    if "profile" not in net:
        raise ConfigError(f"{path}: [network].profile is missing")
    try:
        p = net["profile"]
        profile = prof.load(p if not str(p).endswith(".toml") else path.parent / p)
    except UroError as e:
        raise ConfigError(f"{path}: [network].profile: {e}") from None
    build_dir = Path(net.get("build", "build"))
    build_dir = build_dir if build_dir.is_absolute() else path.parent / build_dir

    sched = dict(doc.get("schedule", {"generate": "round-robin"}))
    if ("file" in sched) == ("generate" in sched):
        raise ConfigError(f"{path}: [schedule]: give exactly one of file = \"...\" or generate = \"...\"")
    if "generate" in sched and sched["generate"] not in GENERATORS:
        raise ConfigError(f"{path}: [schedule].generate: unknown generator {sched['generate']!r} "
                          f"(known: {', '.join(sorted(GENERATORS))})")
    for k in sched:
        if k not in ("file", "generate", "seed"):
            raise ConfigError(f"{path}: [schedule].{k}: unknown key")

    routing = dict(doc.get("routing", {}))
    source = dict(routing.pop("source", {}))
    routing.setdefault("algo", "uro")
    routing.setdefault("k", profile.alternatives)
    _check_params(path, "[routing]", routing, "per_hop")
    if source:
        source.setdefault("algo", "ucmp")
        _check_params(path, "[routing.source]", source, "source")
        dsts = source.get("destinations", [])
        if not isinstance(dsts, list):
            raise ConfigError(f"{path}: [routing.source].destinations: expected a list of ToR ids")
        for d in dsts:
            _int(path, "[routing.source].destinations", d, 0, profile.tors - 1)
        if len(set(dsts)) != len(dsts):
            raise ConfigError(f"{path}: [routing.source].destinations: a ToR is listed twice")

    switches = doc.get("switch", [])
    if not isinstance(switches, list) or not switches:
        raise ConfigError(f"{path}: no [[switch]] tables")
    out: list[SwitchSpec] = []
    names, tors = set(), {}
    for i, s in enumerate(switches):
        name = s.get("name")
        if not isinstance(name, str) or not name:
            raise ConfigError(f"{path}: [[switch]] #{i + 1}: name is missing")
        w = f"switch {name!r}"
        if name in names:
            raise ConfigError(f"{path}: {w}: the name is used twice")
        names.add(name)
        for k in s:
            if k not in _SWITCH_KEYS:
                raise ConfigError(f"{path}: {w}: unknown key {k!r}")
        role = s.get("role")
        if role not in ROLES:
            raise ConfigError(f"{path}: {w}: role must be one of {', '.join(ROLES)}, got {role!r}")
        tor = None
        if role == "tor":
            if "tor" not in s:
                raise ConfigError(f"{path}: {w}: tor (the ToR id) is missing")
            tor = _int(path, f"{w}: tor", s["tor"], 0, profile.tors - 1)
            if tor in tors:
                raise ConfigError(f"{path}: {w}: ToR id {tor} is also switch {tors[tor]!r}")
            tors[tor] = name
        elif "tor" in s:
            raise ConfigError(f"{path}: {w}: an {role} switch has no ToR id")
        if "address" not in s:
            raise ConfigError(f"{path}: {w}: address is missing")
        insecure = s.get("insecure", False)
        if not isinstance(insecure, bool):
            raise ConfigError(f"{path}: {w}: insecure must be true or false")
        tls = {}
        for k in ("ca_cert", "client_cert", "client_key"):
            if k in s:
                f = path.parent / s[k] if not Path(s[k]).is_absolute() else Path(s[k])
                if not f.is_file():
                    raise ConfigError(f"{path}: {w}: {k} {f} does not exist")
                tls[k] = f
        if not insecure and "ca_cert" not in tls:
            raise ConfigError(f"{path}: {w}: TLS needs ca_cert (or insecure = true for plaintext gRPC)")
        timeout = s.get("timeout_s", 5.0)
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not timeout > 0:
            raise ConfigError(f"{path}: {w}: timeout_s must be a positive number, got {timeout!r}")
        addr = SwitchAddress(name, _address(path, f"{w}: address", s["address"]),
                             _int(path, f"{w}: device_id", s.get("device_id", 0), 0, (1 << 64) - 1),
                             _int(path, f"{w}: election_id", s.get("election_id", 1), 1, (1 << 128) - 1),
                             insecure, timeout_s=float(timeout), **tls)
        out.append(SwitchSpec(addr, role, tor))
    return NetConfig(path, profile, build_dir, sched, routing, source, out)


def select(cfg: NetConfig, name: str | None) -> Iterator[SwitchSpec]:
    if name is None:
        yield from cfg.switches
        return
    for s in cfg.switches:
        if s.name == name:
            yield s
            return
    raise ConfigError(f"--switch {name!r}: no such switch in {cfg.path} (have: {', '.join(s.name for s in cfg.switches)})")

