"""The slice clock's entries (docs/clock.md), contract-named: what the daemon writes so a
switch keeps time itself.

- :func:`clock_config_entry`: the ``clock_config`` default entry (MODIFY) of a ToR
  (:class:`~controller.clock.params.ClockConfig`) or of the OCS emulator
  (:class:`~controller.clock.params.OcsClockConfig`); ``None`` writes ``clock_off``
  (timer mode).
- :func:`sync_peer_entries`: ``(slice, uplink) -> peer ToR`` of one ToR from the schedule's
  circuits (every circuit of the full schedule: a failed peer just does not answer).
- :func:`servo_rate_entries`: the rate step of an applied exchange by the range of
  ``-theta`` that gives it, for a program whose servo takes it from a table (the t2na ToR's
  ``servo_rate``, docs/tofino2.md "The exchange: the requester and the servo").
- :func:`tor_clock_batch` / :func:`ocs_clock_entry`: one switch's share from the network's
  :class:`~controller.clock.params.ClockParams` (checked against the profile first).

Static entries: outside the route generations, written once (the schedule changes them).
Data flows one way: schedule + clock parameters -> these entries -> a switch backend.
"""

from __future__ import annotations

from controller.clock.params import U32, ClockConfig, ClockParams, OcsClockConfig
from controller.tables import entries as ent


def _check_schedule(contract: dict, schedule) -> dict:
    prof = contract["profile"]
    if (schedule.n_tors, schedule.n_uplinks, schedule.n_slices) != (prof["tors"], prof["uplinks"], prof["slices"]):
        raise ent.EntryError(f"schedule {schedule.n_tors}x{schedule.n_uplinks}x{schedule.n_slices} does not match "
                             f"profile {prof['name']!r} ({prof['tors']}x{prof['uplinks']}x{prof['slices']})")
    return prof


def clock_config_entry(contract: dict, config: ClockConfig | OcsClockConfig | None) -> ent.TableEntry:
    """The ``clock_config`` default entry: ``set_clock`` with ``config``'s values, or
    ``clock_off`` (timer mode) for None. Each value is checked against its width."""
    if config is None:
        return ent.make_entry(contract, "clock_config", {}, "clock_off", {}, is_default=True)
    return ent.make_entry(contract, "clock_config", {}, "set_clock", config.params(), is_default=True)


def sync_peer_entries(contract: dict, schedule, tor: int) -> list[ent.TableEntry]:
    """ToR ``tor``'s ``sync_peer``: for every (slice, uplink) with a circuit, the ToR at its
    other end (the schedule's ``peer[slice, tor, uplink]``)."""
    prof = _check_schedule(contract, schedule)
    if not isinstance(tor, int) or not 0 <= tor < prof["tors"]:
        raise ent.EntryError(f"ToR {tor!r} is not in profile {prof['name']!r} (0..{prof['tors'] - 1})")
    out = []
    for s in range(schedule.n_slices):
        for u in range(schedule.n_uplinks):
            peer = int(schedule.peer[s, tor, u])
            if peer >= 0:
                out.append(ent.make_entry(contract, "sync_peer", {"slice": s, "uplink": u}, "set_peer", {"peer": peer}))
    return out


_POS_MAX = (1 << 31) - 1


def prefix_blocks(lo: int, hi: int, bits: int = 32) -> list[tuple[int, int]]:
    """``lo..hi`` (inclusive) as the fewest aligned power-of-two blocks, each a ternary
    ``(value, mask)``: how a range is matched where the target has no range match for the
    key (Tofino: a range key must fit in 5 PHV nibbles)."""
    out = []
    for _ in range(2 * bits):                              # never more blocks than 2 x bits - 2
        if lo > hi:
            break
        size = 1 << ((hi - lo + 1).bit_length() - 1)     # the largest power of two that fits
        if lo:
            size = min(size, lo & -lo)                     # ... that lo is aligned to
        out.append((lo, ((1 << bits) - 1) & ~(size - 1)))
        lo += size
    return out


def servo_rate_entries(contract: dict, config: ClockConfig) -> list[ent.TableEntry]:
    """``servo_rate``'s entries: the step ``min(|theta| >> servo_shift, rate_step)`` of
    :meth:`controller.clock.servo.SwitchClock.response`, for each step ``k`` and sign the
    range of ``arg = -theta`` (32-bit two's complement) whose step is ``k``, as ternary
    blocks (:func:`prefix_blocks`): ``rate_up`` (theta < 0: the local slice is lengthened)
    with ``room = len_max - k``, ``rate_down`` (theta > 0) with ``room = len_min + k``; the
    switch takes the step while the length stays within ``len_min..len_max``. No entry
    where the step is 0. Raises :class:`~controller.tables.entries.EntryError` naming
    ``rate_step_ppm`` and ``servo_shift`` when the table cannot hold them."""
    t = contract["tables"]["servo_rate"]
    s, steps = config.servo_shift, config.rate_step
    out = []

    def add(lo: int, hi: int, action: str, room: int, k: int) -> None:
        for block in prefix_blocks(lo, hi):
            out.append(ent.make_entry(contract, "servo_rate", {"arg": block}, action, {"room": room, "step": k}))

    # theta is a signed 32-bit number, |theta| < 2^31: no step k with k << s past that
    for k in range(1, min(steps, _POS_MAX >> s) + 1):
        lo = k << s                                   # |theta| whose step is k: lo..hi
        hi = min((((k + 1) << s) - 1) if k < steps else _POS_MAX, _POS_MAX)
        add(lo, hi, "rate_up", config.len_max - k, k)                     # arg = |theta|: theta < 0
        add((-hi) & U32, (-lo) & U32, "rate_down", config.len_min + k, k)
        if len(out) > t["size"]:
            raise ent.EntryError(f"[clock] rate_step_ppm, servo_shift: a rate step of up to {steps} ns per exchange "
                                 f"with servo_shift = {s} needs more entries than {t['name']} holds ({t['size']}: a "
                                 "range of -theta per step and sign, in aligned blocks): lower rate_step_ppm")
    return out


def tor_clock_batch(contract: dict, schedule, params: ClockParams, tor: int) -> ent.Batch:
    """Everything ToR ``tor``'s clock needs: its ``sync_peer`` entries (and ``servo_rate``'s,
    where the program has that table), then its ``clock_config`` (last: the clock starts
    syncing once its peers are known). Timer mode (``params.mode == "timer"``): no peers,
    ``clock_off``."""
    if params.mode == "timer":     # the other parameters are not the switch's business
        return ent.Batch(entries=[clock_config_entry(contract, None)])
    prof = _check_schedule(contract, schedule)
    cfg = params.tor_config(tor, prof["tors"], prof["uplinks"], prof["slices"])
    b = ent.Batch(entries=sync_peer_entries(contract, schedule, tor))
    if "servo_rate" in contract["tables"]:
        b.entries += servo_rate_entries(contract, cfg)
    ent.check_sizes(contract, b, f"ToR {tor} clock entries")
    b.entries.append(clock_config_entry(contract, cfg))
    return b


def ocs_clock_entry(contract: dict, params: ClockParams) -> ent.TableEntry:
    """The OCS emulator's ``clock_config`` (the reference: mode and slice length)."""
    if params.mode == "timer":
        return clock_config_entry(contract, None)
    prof = contract["profile"]
    params.check(prof["tors"], prof["uplinks"], prof["slices"])
    return clock_config_entry(contract, params.ocs_config())
