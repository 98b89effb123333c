"""Schedule generators: round-robin (RotorNet/Sirius), Opera-style offset, random.

All three decompose the complete graph on N ToRs into perfect matchings (the circle
method of a round-robin tournament; one ToR idles per matching when N is odd) and give
each OCS ("rotor", RotorNet §3) its own share of them, so every ToR pair meets exactly
once per cycle and the cycle has S = ceil((N - 1) / d) slices -- 18 for (108, 6) and
32 for (1024, 32), the figures of URO Table II.
"""

from __future__ import annotations

import numpy as np

from controller.errors import ScheduleError
from controller.schedule.model import IDLE, Schedule, Timing


def _circle_matchings(n: int) -> np.ndarray:
    """The n-1 (n even) or n (n odd) perfect matchings of K_n, as partner arrays.

    ``out[m, a]`` is the partner of ``a`` in matching ``m`` (IDLE if ``a`` sits out).
    """
    m = n if n % 2 == 0 else n + 1  # add a dummy for odd n
    rounds = m - 1
    out = np.full((rounds, n), IDLE, dtype=np.int32)
    # round r pairs (m-1, r) and ((r + i) % (m-1), (r - i) % (m-1)) for i = 1 .. m/2 - 1 (vectorised)
    r = np.arange(rounds)[:, None]
    i = np.arange(1, m // 2)[None, :]
    a = np.concatenate([np.full((rounds, 1), m - 1), (r + i) % (m - 1)], axis=1)
    b = np.concatenate([r, (r - i) % (m - 1)], axis=1)
    rr = np.broadcast_to(r, a.shape)
    ok = (a < n) & (b < n)
    out[rr[ok], a[ok]] = b[ok]
    out[rr[ok], b[ok]] = a[ok]
    return out


def _check_size(n_tors: int, n_uplinks: int) -> None:
    if not isinstance(n_tors, int) or n_tors < 2:
        raise ScheduleError(f"need at least 2 ToRs, got {n_tors!r}")
    if not isinstance(n_uplinks, int) or n_uplinks < 1:
        raise ScheduleError(f"need at least 1 uplink per ToR, got {n_uplinks!r}")
    if n_uplinks >= n_tors:
        raise ScheduleError(f"{n_uplinks} uplinks for {n_tors} ToRs: need fewer uplinks than ToRs")


def _rotor_schedule(matchings: np.ndarray, n_uplinks: int) -> np.ndarray:
    """Give rotor u the matchings [u*S, (u+1)*S); slot past the last matching idles."""
    n_match, n = matchings.shape
    S = -(-n_match // n_uplinks)
    peer = np.full((S, n, n_uplinks), IDLE, dtype=np.int32)
    for u in range(n_uplinks):
        for s in range(S):
            m = u * S + s
            if m < n_match:
                peer[s, :, u] = matchings[m]
    return peer


def round_robin(n_tors: int, n_uplinks: int, timing: Timing | None = None) -> Schedule:
    """RotorNet/Sirius round-robin: all uplinks reconfigure together every slice."""
    _check_size(n_tors, n_uplinks)
    peer = _rotor_schedule(_circle_matchings(n_tors), n_uplinks)
    return Schedule(peer, timing or Timing(), name=f"round-robin-{n_tors}x{n_uplinks}")


def opera(n_tors: int, n_uplinks: int, seed: int = 0, timing: Timing | None = None) -> Schedule:
    """Opera-style schedule (Opera NSDI'20 §3) without its offsets, as UCMP §7.1 uses it.

    The matchings are a randomly relabelled and shuffled factorization, so every slice is
    a random expander as in Opera. All OCSes switch at slice boundaries (UCMP removes
    Opera's per-OCS offsets "to obtain a fully reconfigurable schedule for VLB, KSP and
    UCMP"); the Opera baseline models the staggering itself (``OperaParams.stagger``), and
    a schedule file with offsets is made exact on load (``expand_offsets``).
    """
    _check_size(n_tors, n_uplinks)
    rng = np.random.default_rng(seed)
    base = _circle_matchings(n_tors)
    relabel = rng.permutation(n_tors)  # ToR a plays the role of relabel[a]
    inverse = np.argsort(relabel)
    shuffled = base[rng.permutation(len(base))]
    # partner of a = inverse[ partner of relabel[a] in the base matching ]
    mapped = np.where(shuffled[:, relabel] >= 0, inverse[np.maximum(shuffled[:, relabel], 0)], IDLE)
    peer = _rotor_schedule(mapped.astype(np.int32), n_uplinks)
    return Schedule(peer, timing or Timing(), name=f"opera-{n_tors}x{n_uplinks}-s{seed}")


def random_matchings(
    n_tors: int, n_uplinks: int, seed: int = 0, n_slices: int | None = None, timing: Timing | None = None
) -> Schedule:
    """Random schedule: a seeded shuffle of the factorization over ``n_slices`` slices.

    Every pair still meets once per cycle; with ``n_slices`` larger than the minimum
    the extra slots stay idle, placed at random.
    """
    _check_size(n_tors, n_uplinks)
    rng = np.random.default_rng(seed)
    base = _circle_matchings(n_tors)
    need = -(-len(base) // n_uplinks)
    S = need if n_slices is None else n_slices
    if S < need:
        raise ScheduleError(
            f"{n_slices} slices cannot fit the {len(base)} matchings of {n_tors} ToRs on {n_uplinks} uplinks "
            f"(need >= {need})"
        )
    slots = rng.permutation(S * n_uplinks)[: len(base)]
    peer = np.full((S, n_tors, n_uplinks), IDLE, dtype=np.int32)
    order = rng.permutation(len(base))
    for m, slot in zip(order, slots):
        peer[slot // n_uplinks, :, slot % n_uplinks] = base[m]
    return Schedule(peer, timing or Timing(), name=f"random-{n_tors}x{n_uplinks}-s{seed}")


GENERATORS = {"round-robin": round_robin, "opera": opera, "random": random_matchings}
