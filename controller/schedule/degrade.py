"""The schedule routing sees after failures: every circuit a failed element carried is
removed (URO §IV-D "failures are analogous to missing scheduled time slices").

A failed *uplink* ``(t, u)`` (the cable of ToR ``t``'s uplink ``u``) loses its circuits
at both ends: in every slice, ``t``'s uplink ``u`` and the peer's uplink ``u`` that met
it become idle. A failed *ToR* loses every circuit it is on. A failed *OCS* ``u`` is
uplink ``u`` of every ToR. A failed *circuit* ``(s, t, u)`` is the one circuit ToR ``t``'s
uplink ``u`` has in slice ``s`` (an OCS port dead in some slices only, a miswired circuit:
what the switches' liveness marks show, docs/liveness.md), lost at both ends in that slice
only. The result is a :class:`~controller.schedule.model.Schedule`
built with ``complete=False``: a pair whose only meetings were removed no longer meets
directly, and routing (URO, UCMP, the baselines) then finds multi-hop routes where they
exist and none where they do not (a dead ToR is unreachable; its table entries are
absent, so the data plane drops and counts ``no_route``). Recovery is the same call with
the smaller failure set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller.errors import UroError
from controller.schedule.model import IDLE, Schedule


@dataclass(frozen=True)
class Failed:
    """What is down: uplinks ``(tor, uplink)``, ToRs, OCSes (= uplink indices), circuits
    ``(slice, tor, uplink)`` (one slice's circuit, both its ends: name it by either)."""

    uplinks: frozenset[tuple[int, int]] = frozenset()
    tors: frozenset[int] = frozenset()
    ocs: frozenset[int] = frozenset()
    circuits: frozenset[tuple[int, int, int]] = frozenset()

    @property
    def empty(self) -> bool:
        return not (self.uplinks or self.tors or self.ocs or self.circuits)

    def down_uplinks(self, tor: int) -> frozenset[int]:
        """Uplinks of ``tor`` that are down as a whole (its own failed cables, failed OCSes):
        what the data plane's per-uplink down mask can express (see docs/daemon.md for a
        failed ToR, which it cannot)."""
        return frozenset(u for (t, u) in self.uplinks if t == tor) | self.ocs

    def dead_slots(self, schedule, tor: int) -> frozenset[tuple[int, int]]:
        """(slice, uplink) of ``tor`` whose circuit leads to a failed ToR, or into a failed
        cable at its far end, or is a failed circuit (named by either end): what a
        per-(slice, uplink) mask expresses and a per-uplink one cannot (FRANCIS §4.3; URO
        §IV-C). Empty for a failed ToR itself."""
        if tor in self.tors or not (self.tors or self.uplinks or self.circuits):
            return frozenset()
        peer = schedule.peer
        S, N, U = peer.shape
        # the ToR's [slice, uplink] peers compared as arrays: the masks of a failure are
        # written to every ToR at once, and at (1024, 32) a loop over each ToR's slices and
        # uplinks took 0.40 s of CPU for the 1024 ToRs (docs/fabric.md)
        mine = peer[:, tor, :]
        dead = np.isin(mine, np.fromiter(self.tors, np.int64, len(self.tors))) if self.tors \
            else np.zeros(mine.shape, bool)
        for t, u in self.uplinks:
            if 0 <= u < U:
                dead[:, u] |= mine[:, u] == t
        for s, t, u in self.circuits:
            if s < S and u < U and t < N and (t == tor or int(peer[s, t, u]) == tor):
                dead[s, u] = True
        slices, uplinks = np.nonzero(dead)
        return frozenset(zip(slices.tolist(), uplinks.tolist()))

    def check(self, n_tors: int, n_uplinks: int, n_slices: int | None = None) -> None:
        for t, u in sorted(self.uplinks):
            if not (0 <= t < n_tors and 0 <= u < n_uplinks):
                raise UroError(f"uplink {t}/{u} is not in the network ({n_tors} ToRs x {n_uplinks} uplinks)")
        for t in sorted(self.tors):
            if not 0 <= t < n_tors:
                raise UroError(f"ToR {t} is not in the network (0..{n_tors - 1})")
        for u in sorted(self.ocs):
            if not 0 <= u < n_uplinks:
                raise UroError(f"OCS {u} is not in the network (0..{n_uplinks - 1})")
        for s, t, u in sorted(self.circuits):
            if not (0 <= t < n_tors and 0 <= u < n_uplinks and 0 <= s and (n_slices is None or s < n_slices)):
                raise UroError(f"circuit slice {s} ToR {t} uplink {u} is not in the network ({n_tors} ToRs x "
                               f"{n_uplinks} uplinks" + (f" x {n_slices} slices)" if n_slices else ")"))

    def as_dict(self) -> dict:
        return {"uplinks": [list(x) for x in sorted(self.uplinks)], "tors": sorted(self.tors),
                "ocs": sorted(self.ocs), "circuits": [list(x) for x in sorted(self.circuits)]}


def circuit_key(peer, s: int, t: int, u: int) -> tuple[int, int, int]:
    """One name for the circuit ToR ``t``'s uplink ``u`` has in slice ``s``, whichever end
    names it: the end with the lower ToR id (``peer[s, t, u]`` is the other)."""
    p = int(peer[s, t, u])
    return (s, p, u) if 0 <= p < t else (s, t, u)


def dead_circuits(sched: Schedule, failed: Failed) -> np.ndarray:
    """``dead[s, t, u]``: the circuit ToR ``t``'s uplink ``u`` has in slice ``s`` is lost."""
    failed.check(sched.n_tors, sched.n_uplinks, sched.n_slices)
    peer = sched.peer
    S, N, d = peer.shape
    dead = np.zeros((S, N, d), bool)
    for s, t, u in failed.circuits:
        dead[s, t, u] = True
    for t, u in failed.uplinks:
        dead[:, t, u] = True
    for t in failed.tors:
        dead[:, t, :] = True
    for u in failed.ocs:
        dead[:, :, u] = True
    dead &= peer >= 0
    # a circuit is lost at both ends: mirror onto the peer's side of the same OCS
    s_idx, t_idx, u_idx = np.nonzero(dead)
    dead[s_idx, peer[s_idx, t_idx, u_idx], u_idx] = True
    return dead


def without(sched: Schedule, failed: Failed) -> Schedule:
    """``sched`` with every circuit of a failed element idle (``complete=False``)."""
    if failed.empty:
        return sched
    peer = np.where(dead_circuits(sched, failed), IDLE, sched.peer)
    return Schedule(peer, sched.timing, name=f"{sched.name}-degraded", complete=False)
