"""Everything one switch needs written, as contract-named batches the daemon composes.

ToR program (docs/p4.md, "Control-plane API"):

- :func:`config_entry`: the config table's default entry (MODIFY): ToR id, the active
  route generation, failed uplinks, queue capacity, timer bound. One write flips the
  generation or marks an uplink down; without it the switch forwards nothing.
- :func:`static_entries`: generation-independent tables (host table, DSCP map).
- :func:`route_entries`: the generation-keyed tables (route mode, URO per-hop, SSRR
  members/groups/entries) of one generation; written beside the active generation,
  activated by :func:`config_entry`, the old one deleted afterwards.
- :func:`regenerate`: a route batch as the other generation, without building it again.
- :func:`tor_batch`: all of it (static + routes + config last), for a one-shot push.

OCS emulator: :func:`ocs_config_entry`, :func:`ocs_batch`.

The address plan is the one the tests and the emulated fabric share: the hosts of ToR
``t`` live in ``10.<t // 256>.<t % 256>.0/24`` and host port ``h`` of a ToR has the
address ``.h + 1`` in it. Data flows one way: routes (URO per-hop and/or path routes)
-> :mod:`controller.tables.entries` -> these batches -> a switch backend. Every batch is
checked against the program's table sizes before it is returned (an
:class:`~controller.tables.entries.EntryError` names the table and the numbers).
"""

from __future__ import annotations

import ipaddress
from typing import Iterable

from controller.memory import paused_gc
from controller.tables import bulk, entries as ent
from controller.tables.state import joined


def tor_prefix(tor: int) -> tuple[int, int]:
    """(network address, prefix length) of ToR ``tor``'s hosts."""
    return int(ipaddress.IPv4Address(f"10.{tor // 256}.{tor % 256}.0")), 24


def host_ip(tor: int, host: int) -> str:
    return f"10.{tor // 256}.{tor % 256}.{host + 1}"


def _check_tor(contract: dict, tor: int) -> dict:
    prof = contract["profile"]
    n = prof["tors"]
    if not isinstance(tor, int) or not 0 <= tor < n:
        raise ent.EntryError(f"ToR {tor} is not in profile {prof['name']!r} (0..{n - 1})")
    return prof


def down_mask(contract: dict, down_uplinks: Iterable[int]) -> int:
    """The config's failed-uplink bitmask (bit u = uplink u)."""
    d = contract["profile"]["uplinks"]
    mask = 0
    for u in down_uplinks:
        if not isinstance(u, int) or not 0 <= u < d:
            raise ent.EntryError(f"down uplink {u!r} is not an uplink of profile "
                                 f"{contract['profile']['name']!r} (0..{d - 1})")
        mask |= 1 << u
    return mask


def config_entry(contract: dict, tor: int, generation: int, down_uplinks: Iterable[int] = (),
                 capacity_bytes: int | None = None, *, bytes_per_us: int | None = None,
                 max_timer_step: int | None = None, live: Iterable[int] | None = None,
                 dead_slots: Iterable[tuple[int, int]] = ()) -> ent.TableEntry:
    """The config table's default entry of ToR ``tor`` (write it as MODIFY).

    ``generation`` (0/1) is the route generation this ToR stamps into the packets its
    hosts send, from this write on; ``live`` the generations complete on this ToR, by
    which packets stamped elsewhere are routed (default: ``generation`` only; a packet
    stamped with another is dropped and counted ``stale_gen``); ``dead_slots`` the
    (slice, uplink) pairs whose circuit leads to a dead ToR (a departure there counts as
    down: one write per neighbour of a failed ToR);
    ``down_uplinks`` the failed uplinks (their queues count as Full: the one-shot lookup
    routes around them, SSRR hops on them are re-sourced); ``capacity_bytes`` bytes per
    calendar queue per slice (default: the profile's). ``bytes_per_us`` (default: the
    profile's link rate; 0 = off) ages the active queue with the time left in the slice;
    ``max_timer_step`` bounds the clock step a timer may make (default: the profile's)."""
    _check_tor(contract, tor)
    mask = None
    if live is not None:
        mask = 0
        for g in live:
            if g not in (0, 1):
                raise ent.EntryError(f"live generation {g!r} is not 0 or 1")
            mask |= 1 << g
    prof = contract["profile"]
    dead = 0
    for s, u in dead_slots:
        if not (0 <= s < prof["slices"] and 0 <= u < prof["uplinks"]):
            raise ent.EntryError(f"dead slot (slice {s}, uplink {u}) is not in profile {prof['name']!r}")
        dead |= 1 << (s * prof["uplinks"] + u)
    return ent.tor_config_entry(contract, tor, generation, down_mask(contract, down_uplinks), capacity_bytes,
                                bytes_per_us, max_timer_step, live=mask, dead=dead)


def static_entries(contract: dict, tor: int) -> ent.Batch:
    """Generation-independent entries of ToR ``tor``: every other ToR's /24 -> that ToR,
    this ToR's host addresses -> their ports; DSCP -> bucket (identity)."""
    prof = _check_tor(contract, tor)
    remote = {tor_prefix(t): t for t in range(prof["tors"]) if t != tor}
    net, _ = tor_prefix(tor)
    local = {(net + h + 1, 32): h for h in range(prof["host_ports"])}
    b = ent.Batch(entries=ent.host_entries(contract, remote, local) + ent.dscp_entries(contract))
    ent.check_sizes(contract, b, f"ToR {tor} static tables")
    return b


def check_route_entries(contract: dict, tor: int, uro_routes=None, path_routes=None,
                        source_routed: Iterable[int] = (), generation: int = 0,
                        build_below: int = 0) -> tuple[int, ent.Batch | None]:
    """:func:`route_entries`' checks (raising what it raises), and how many objects it
    builds: (that count, the batch where it was built, else None). The URO per-hop
    entries are counted once checked (:func:`bulk.uro_entry_count`), not built; the rest
    (route modes, SSRR paths) is built as :func:`route_entries` builds it.

    ``build_below``: where SSRR paths are built anyway and the per-hop entries number fewer
    than this, the whole batch is built and returned: a caller that keeps a batch that small
    for its first write (the daemon's checks, :func:`controller.daemon.plan.keeps_for_install`)
    then does not build the paths a second time (a (108, 6) UCMP ToR's: a sixth of the
    daemon's set-up), and the per-hop entries it builds beside them are few."""
    def built() -> tuple[int, ent.Batch]:
        b = route_entries(contract, tor, uro_routes, path_routes, source_routed, generation)
        return b.objects(), b

    if uro_routes is None:
        return built()
    _check_tor(contract, tor)
    source_routed = list(source_routed)     # (asked below, then built from: read it once)
    try:
        n = bulk.uro_entry_count(contract, uro_routes, tor, generation)
        if n is None or (n < build_below and path_routes is not None
                         and any(d != tor for d in source_routed)):
            return built()
        b = _route_entries(contract, tor, None, path_routes, source_routed, generation)
        name = contract["tables"]["uro_next_hop"]["name"]
        ent.check_sizes(contract, b, f"ToR {tor} routes (generation {generation})", counted={name: n})
    except ent.EntryError:
        built()             # the build's own error, in the order it checks
        raise
    return n + b.objects(), None


def route_entries(contract: dict, tor: int, uro_routes=None, path_routes=None,
                  source_routed: Iterable[int] = (), generation: int = 0) -> ent.Batch:
    """The generation-keyed entries of ToR ``tor`` for ``generation``.

    ``source_routed`` lists the destination ToRs that use the path routes (SSRR); every
    other destination uses the URO per-hop table (the route-mode default). Only the
    source-routed destinations get SSRR path entries, selector groups and members: the
    data plane looks ``ssrr_path`` up only for them (as the source, or re-sourcing a
    packet that carries an SSRR option, which only they do), so paths to the others
    would only take selector room. Member and group ids carry the generation (bit 31),
    so both generations coexist."""
    b = _route_entries(contract, tor, uro_routes, path_routes, source_routed, generation)
    ent.check_sizes(contract, b, f"ToR {tor} routes (generation {generation})")
    return b


def _route_entries(contract: dict, tor: int, uro_routes, path_routes, source_routed: Iterable[int],
                   generation: int) -> ent.Batch:
    prof = _check_tor(contract, tor)
    sr = sorted(set(source_routed))
    for d in sr:
        if not isinstance(d, int) or not 0 <= d < prof["tors"] or d == tor:
            raise ent.EntryError(f"source-routed destination {d!r} is not another ToR of profile "
                                 f"{prof['name']!r} (0..{prof['tors'] - 1}, not {tor})")
    if sr and path_routes is None:
        raise ent.EntryError(f"destinations {sr[:5]} are source-routed but no path routes were given")
    with paused_gc():
        b = ent.Batch(entries=bulk.route_mode_entries(contract, sr, True, generation))
        if uro_routes is not None:
            # the per-hop entries stay the columns they may be (EntryRows), joined to the
            # others, not copied into their list: encoded from the columns, counted without
            # being made (a (108, 6) UCMP ToR's ~2K of its ~7K objects)
            b.entries = joined(b.entries, bulk.uro_entries(contract, uro_routes, tor, generation))
        if path_routes is not None and sr:
            paths = bulk.ssrr_entries(contract, path_routes, tor, generation, dsts=sr)
            b.members += paths.members
            b.groups += paths.groups
            b.entries = joined(b.entries, paths.entries)
    return b



def regenerate(batch: ent.Batch, generation: int) -> ent.Batch:
    """A :func:`route_entries` batch as generation ``generation``: equal to building the same
    routes for it (the generation is only the ``generation`` key and bit 31 of member and
    group ids), at a fraction of the cost; ``batch`` is not changed. For an update that
    needs both generations' entries of the same routes (:func:`controller.tables.bulk.regenerate`)."""
    with paused_gc():
        return bulk.regenerate(batch, generation)


def tor_batch(contract: dict, tor: int, uro_routes=None, path_routes=None,
              source_routed: Iterable[int] = (), capacity_bytes: int | None = None,
              generation: int = 0, down_uplinks: Iterable[int] = (), *, bytes_per_us: int | None = None,
              max_timer_step: int | None = None) -> ent.Batch:
    """Everything ToR ``tor`` needs: static entries, one generation of routes, and the
    config entry last (the switch forwards nothing until it is written)."""
    b = static_entries(contract, tor)
    b.extend(route_entries(contract, tor, uro_routes, path_routes, source_routed, generation))
    b.entries.append(config_entry(contract, tor, generation, down_uplinks, capacity_bytes,
                                  bytes_per_us=bytes_per_us, max_timer_step=max_timer_step))
    return b


# ---- OCS emulator ------------------------------------------------------------------------
def ocs_config_entry(contract: dict, generation: int, *, max_timer_step: int | None = None) -> ent.TableEntry:
    """The OCS emulator's config default entry: the active circuit generation."""
    return ent.ocs_config(contract, generation, max_timer_step)


def ocs_batch(contract: dict, schedule, generation: int = 0, *, max_timer_step: int | None = None) -> ent.Batch:
    """The schedule's circuits as ``generation`` and the config entry (last)."""
    b = ent.Batch(entries=ent.circuit_entries(contract, schedule, generation))
    ent.check_sizes(contract, b, f"OCS circuits (generation {generation})")
    b.entries.append(ocs_config_entry(contract, generation, max_timer_step=max_timer_step))
    return b
