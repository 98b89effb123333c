"""Veth pairs a software switch's ports sit on (tofino-model, and simple_switch_grpc in the
packet tests): ``<prefix>_<port>s`` given to the switch, ``<prefix>_<port>h`` where packets
are sent and sniffed. Their names are recorded before any is made, so exactly those are
removed -- by the process that made them, or, after it was killed, by a later one that
finds its record (:func:`reap_orphans`); never by a name pattern, since another session's
switch may sit on veths of the same shape."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from controller import process
from controller.agent.bmv2_process import SwitchStartError


def add_veths(dev_ports, prefix: str, record: Path) -> dict[int, tuple[str, str]]:
    """{dev port: (switch side, host side)}: a veth pair per dev port, ``<prefix>_<port>s``
    (given to the switch) and ``<prefix>_<port>h`` (where packets are sent and sniffed), up,
    MTU 9000, IPv6 off (the kernel's own packets would enter the switch). Their names are
    written to ``record`` (JSON) before any is made, so :func:`delete_veths` removes exactly
    them, also after a crash; a pair that exists already is taken as it is."""
    pairs = {p: (f"{prefix}_{p}s", f"{prefix}_{p}h") for p in dev_ports}
    record = Path(record)
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps([sw for sw, _ in pairs.values()]))
    try:
        for sw, host in pairs.values():
            if not Path(f"/sys/class/net/{sw}").exists():
                _ip("link", "add", sw, "type", "veth", "peer", "name", host)
            for ifc in (sw, host):
                Path(f"/proc/sys/net/ipv6/conf/{ifc}/disable_ipv6").write_text("1\n")
                _ip("link", "set", ifc, "mtu", "9000")
                _ip("link", "set", ifc, "up")
    except BaseException:
        delete_veths(record)
        raise
    return pairs


def delete_veths(record: Path) -> list[str]:
    """Delete the veths named in ``record`` (by :func:`add_veths`) that exist, and the
    record; returns what was done."""
    record = Path(record)
    try:
        names = json.loads(record.read_text())
    except (FileNotFoundError, ValueError):
        names = []
    done = []
    for sw in names:
        if Path(f"/sys/class/net/{sw}").exists():
            subprocess.run(["ip", "link", "del", sw], capture_output=True)
            done.append(f"deleted veth {sw}")
    record.unlink(missing_ok=True)
    return done


def session_record(record_dir: Path, what: str, pid: int | None = None) -> Path:
    """The record of the veths ``what`` of process ``pid`` (this one) in ``record_dir``,
    where several processes keep theirs side by side: ``<pid>.<what>.json``."""
    return Path(record_dir) / f"{process.owned_name(what, pid)}.json"


def reap_orphans(record_dir: Path) -> list[str]:
    """Delete the veths of every record in ``record_dir`` (:func:`session_record`) whose
    process is gone (a killed test session); the records of running processes are left
    alone. Returns what was done."""
    done = []
    for rec in sorted(Path(record_dir).glob("*.*.json")):
        gone = process.gone_owner(rec.stem)
        if gone is not None:
            done += [f"{d} (process {gone[0]} is gone)" for d in delete_veths(rec)]
    return done


def _ip(*args: str) -> None:
    r = subprocess.run(["ip", *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise SwitchStartError(f"ip {' '.join(args)}: {r.stderr.strip() or f'exit {r.returncode}'}")
