"""Render the Jinja2 P4 templates for a profile, plus the pipeline contract.

The contract (``<program>.contract.json``) names every table, key, action, parameter
and counter the control plane writes or reads, with bit widths. The table writer
(:mod:`controller.p4gen.entries`) and the P4Runtime agent use it, and the agent checks
it against the P4Info the compiler wrote, so a name is never typed twice by hand.
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import asdict
from pathlib import Path

import jinja2

from controller.atomic import write_text
from controller.resources import templates_dir
from controller.p4gen.profile import TIMER_ETHERTYPE, Profile

TEMPLATES_DIR = templates_dir()
CONTRACT_FORMAT = "uro-pipeline-contract/1"

DROP_REASONS = ["no_route", "all_full", "held_too_long", "bad_ssrr", "ttl", "malformed", "not_ipv4"]
EVENTS = ["reroute_missed", "reroute_spill", "timer", "ssrr_written", "ssrr_transit"]
OCS_DROP_REASONS = ["no_circuit", "bad_timer"]


class V1Model:
    """v1model spellings of the few target-specific constructs the fragments use."""

    name = "bmv2"
    arch = "v1model"
    std_meta_type = "standard_metadata_t"
    sm = "sm"
    port_t = "bit<9>"
    drop = "mark_to_drop(sm)"
    egress_spec = "sm.egress_spec"
    ingress_port = "sm.ingress_port"
    packet_length = "sm.packet_length"

    @staticmethod
    def register(type_: str, size: int, name: str) -> str:
        return f"register<{type_}>({size}) {name};"

    @staticmethod
    def action_selector(name: str, size: int) -> str:
        return f"action_selector(HashAlgorithm.crc16, 32w{size}, 32w14) {name};"

    @staticmethod
    def selector_impl(name: str) -> str:
        return f"implementation = {name};"


TARGETS = {"bmv2": V1Model}


def target_class(target: str):
    """The spelling class of ``target``: v1model here, the others from their own modules
    (:mod:`controller.p4gen.targets`)."""
    from controller.p4gen import targets

    cls = TARGETS.get(target) or targets.load(target)
    if cls is None:
        from controller.p4gen.profile import ProfileError

        names = list(TARGETS) + targets.builtin_names()
        raise ProfileError(f"unknown target {target!r} (available: {', '.join(names)})")
    return cls


def target_names() -> list[str]:
    from controller.p4gen import targets

    return list(TARGETS) + targets.builtin_names()


def contract(profile: Profile, program: str = "tor") -> dict:
    """The pipeline contract: control-plane names and widths of one rendered program."""
    p = profile
    w = p.widths
    if program == "ocs":
        ctl = "OcsIngress"
        tables = {
            "circuit": {
                "keys": [("slice", "exact", w.slice), ("in_port", "exact", p.port_bits)],
                "actions": {"connect": [("port", p.port_bits)]},
            },
        }
        counters = {"ocs_drops": OCS_DROP_REASONS}
    else:
        ctl = "UroIngress"
        alt_params = [("n", 8)]
        for k in range(p.alternatives):
            alt_params += [(f"up{k}", w.uplink), (f"slice{k}", w.slice)]
        path_params = [("n", 8)]
        for h in range(p.ssrr_hops):
            path_params += [(f"tor{h}", w.tor), (f"up{h}", w.uplink), (f"slice{h}", w.slice)]
        tables = {
            "config": {"keys": [], "actions": {"set_config": [("my_tor", w.tor), ("capacity_bytes", 32)]}},
            "host_dst": {
                "keys": [("dst_addr", "lpm", 32)],
                "actions": {"set_dst_tor": [("tor", w.tor)], "deliver_local": [("port", p.port_bits)]},
            },
            "route_mode": {
                "keys": [("dst_tor", "exact", w.tor)],
                "actions": {"per_hop": [], "source_route": []},
            },
            "uro_next_hop": {
                "keys": [("arrival_slice", "exact", w.slice), ("dst_tor", "exact", w.tor)],
                "actions": {"set_alternatives": alt_params},
            },
            "ssrr_bucket": {"keys": [("dscp", "exact", 6)], "actions": {"set_bucket": [("bucket", p.bucket_bits)]}},
            "ssrr_path": {
                "keys": [("dst_tor", "exact", w.tor), ("start_slice", "exact", w.slice), ("bucket", "range", p.bucket_bits)],
                "actions": {"write_path": path_params},
                "action_profile": f"{ctl}.ssrr_selector",
            },
        }
        counters = {"drops": DROP_REASONS, "events": EVENTS}
    out_tables = {}
    for short, t in tables.items():
        entry = {
            "short": short,
            "name": f"{ctl}.{short}",
            "keys": [{"name": n, "match": m, "bitwidth": b} for n, m, b in t["keys"]],
            "actions": {
                a: {"name": f"{ctl}.{a}", "params": [{"name": n, "bitwidth": b} for n, b in params]}
                for a, params in t["actions"].items()
            },
        }
        if "action_profile" in t:
            entry["action_profile"] = t["action_profile"]
        out_tables[short] = entry
    return {
        "format": CONTRACT_FORMAT,
        "program": program,
        "target": "bmv2",
        "profile": {**asdict(p), "uplink_port_base": p.uplink_port_base,
                    "slice_capacity_bytes": p.slice_capacity_bytes},
        "timer_ethertype": TIMER_ETHERTYPE,
        "tables": out_tables,
        "counters": {c: {"name": f"{ctl}.{c}", "indices": idx} for c, idx in counters.items()},
    }


def _reindent(text: str, width: int) -> str:
    """Template filter: move a rendered block to ``width`` spaces, keeping its shape."""
    body = textwrap.dedent(str(text)).strip("\n")
    return textwrap.indent(body, " " * width) + "\n"


def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["reindent"] = _reindent
    return env


class _Obj(dict):
    """dict with attribute access, so templates can write contract.tables.uro_next_hop.short."""

    def __getattr__(self, k):
        try:
            v = self[k]
        except KeyError:
            raise AttributeError(k) from None
        return _Obj(v) if isinstance(v, dict) else v


def render(profile: Profile, program: str = "tor", target: str = "bmv2") -> tuple[str, dict]:
    """Return (P4 source, contract) of one program for one profile.

    A target with its own limits (``problems``) refuses a profile it cannot hold before
    anything is rendered, naming every reason."""
    tgt = target_class(target)
    problems = getattr(tgt, "problems", None)
    if problems is not None:
        found = problems(profile, program)
        if found:
            from controller.p4gen.profile import ProfileError

            raise ProfileError(f"profile {profile.name!r} does not fit {target}: " + "; ".join(found))
    else:
        profile.check_program(program)
    c = contract(profile, program)
    if hasattr(tgt, "adapt_contract"):
        c = tgt.adapt_contract(c, profile)
    extra = tgt.context(profile) if hasattr(tgt, "context") else {}
    tmpl = _env().get_template(f"{program}_{tgt.arch}.p4.j2")
    text = tmpl.render(p=profile, tgt=tgt, contract=_Obj(c), timer_ethertype=TIMER_ETHERTYPE, t=extra)
    # collapse runs of blank lines left by template control blocks
    lines, blank = [], 0
    for line in text.splitlines():
        blank = blank + 1 if not line.strip() else 0
        if blank <= 1:
            lines.append(line.rstrip())
    return "\n".join(lines).rstrip() + "\n", c


def output_name(profile: Profile, program: str, target: str = "bmv2") -> str:
    """``<program>_<profile>`` for bmv2, ``<program>_<profile>_<arch>`` for other targets."""
    base = f"{program}_{profile.name}"
    return base if target == "bmv2" else f"{base}_{target_class(target).arch}"


def render_to(profile: Profile, out_dir: str | Path, programs: list[str] | None = None,
              target: str = "bmv2") -> list[Path]:
    """Render every program of a profile into out_dir; nothing is written unless all render."""
    tgt = target_class(target)
    programs = programs or [p for p in profile.programs() if p in getattr(tgt, "programs", (p,))]
    rendered = [(prog, *render(profile, prog, target)) for prog in programs]
    out = Path(out_dir)
    written = []
    for prog, text, c in rendered:
        base = output_name(profile, prog, target)
        write_text(out / f"{base}.p4", text)
        write_text(out / f"{base}.contract.json", json.dumps(c, indent=1, sort_keys=True) + "\n")
        written += [out / f"{base}.p4", out / f"{base}.contract.json"]
    return written
