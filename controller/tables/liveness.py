"""Liveness per circuit's entry (docs/liveness.md), contract-named: the ``liveness_config``
default entry of a ToR -- ``set_liveness(down_after, expect, notice_rate, notice_burst,
notice_refresh)`` (a program without notices, the t2na one: ``set_liveness(down_after,
expect)``),
``expect`` the (slice, uplink) pairs the schedule gives this ToR a circuit on (bit ``s * d +
u``; only those are expected to be heard), the notices' rate bound and refresh period -- or
``liveness_off``.

A static entry, outside the route generations (the schedule changes it). Data flows one
way: schedule + ``[liveness]`` -> this entry -> a switch backend.
"""

from __future__ import annotations

from controller.liveness.params import LivenessParams
from controller.tables import entries as ent
from controller.tables.clock import _check_schedule


def expected_circuits(schedule, tor: int) -> int:
    """Bit ``s * d + u`` set for every (slice s, uplink u) on which ``tor`` has a circuit."""
    d = schedule.n_uplinks
    out = 0
    for s in range(schedule.n_slices):
        for u in range(d):
            if int(schedule.peer[s, tor, u]) >= 0:
                out |= 1 << (s * d + u)
    return out


def liveness_config_entry(contract: dict, schedule, params: LivenessParams | None, tor: int) -> ent.TableEntry:
    """ToR ``tor``'s ``liveness_config``: ``set_liveness`` when ``params`` is enabled,
    ``liveness_off`` otherwise (None: off)."""
    if params is None or not params.enabled:
        return ent.make_entry(contract, "liveness_config", {}, "liveness_off", {}, is_default=True)
    prof = _check_schedule(contract, schedule)
    if not isinstance(tor, int) or not 0 <= tor < prof["tors"]:
        raise ent.EntryError(f"ToR {tor!r} is not in profile {prof['name']!r} (0..{prof['tors'] - 1})")
    given = {"down_after": params.down_after, "expect": expected_circuits(schedule, tor),
             "notice_rate": params.notice_rate, "notice_burst": params.notice_burst,
             "notice_refresh": params.notice_refresh}
    # a program without notices (the t2na one: docs/liveness.md "On Tofino2") takes the marks' two
    have = {prm["name"] for prm in contract["tables"]["liveness_config"]["actions"]["set_liveness"]["params"]}
    return ent.make_entry(contract, "liveness_config", {}, "set_liveness",
                          {k: v for k, v in given.items() if k in have}, is_default=True)
