"""Everything one ToR switch needs written, as one contract-named batch.

The address plan is the one the tests and the emulated fabric share: the hosts of ToR
``t`` live in ``10.<t // 256>.<t % 256>.0/24`` and host port ``h`` of a ToR has the
address ``.h + 1`` in it. Data flows one way: routes (URO per-hop and/or path routes)
-> :mod:`controller.p4gen.entries` -> this batch -> the P4Runtime agent.
"""

from __future__ import annotations

import ipaddress
from typing import Iterable

from controller.tables import entries as ent


def tor_prefix(tor: int) -> tuple[int, int]:
    """(network address, prefix length) of ToR ``tor``'s hosts."""
    return int(ipaddress.IPv4Address(f"10.{tor // 256}.{tor % 256}.0")), 24


def host_ip(tor: int, host: int) -> str:
    return f"10.{tor // 256}.{tor % 256}.{host + 1}"


def tor_batch(contract: dict, tor: int, uro_routes=None, path_routes=None,
              source_routed: Iterable[int] = (), capacity_bytes: int | None = None) -> ent.Batch:
    """Config, host, route-mode, URO per-hop and SSRR entries of ToR ``tor``.

    ``source_routed`` lists the destination ToRs that use the path routes (SSRR); every
    other destination uses the URO per-hop table (the table default).
    """
    prof = contract["profile"]
    n = prof["tors"]
    if not 0 <= tor < n:
        raise ent.EntryError(f"ToR {tor} is not in profile {prof['name']!r} (0..{n - 1})")
    remote = {tor_prefix(t): t for t in range(n) if t != tor}
    net, _ = tor_prefix(tor)
    local = {(net + h + 1, 32): h for h in range(prof["host_ports"])}
    b = ent.Batch(entries=[ent.config_entry(contract, tor, capacity_bytes)])
    b.entries += ent.host_entries(contract, remote, local)
    sr = sorted(set(source_routed))
    if sr and path_routes is None:
        raise ent.EntryError(f"destinations {sr[:5]} are source-routed but no path routes were given")
    b.entries += [ent.route_mode_entry(contract, d, True) for d in sr]
    if uro_routes is not None:
        b.entries += ent.uro_entries(contract, uro_routes, tor)
    if path_routes is not None:
        b.extend(ent.ssrr_entries(contract, path_routes, tor))
    return b
