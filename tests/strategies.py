import numpy as np
from hypothesis import strategies as st

from controller.schedule import Schedule, opera, random_matchings, round_robin


KINDS = ("rr", "opera", "random", "random-extra", "double")


@st.composite
def small_schedules(draw, max_tors: int = 9, kinds: tuple[str, ...] = KINDS, min_tors: int = 3,
                    max_extra: int = 3):
    """Random small schedules: all three generators, odd/even N, up to ``max_extra`` extra
    idle slices, and stacked cycles in which ToR pairs meet more than once (``kinds`` picks
    among them; the three generators alone give one meeting per pair per cycle)."""
    n = draw(st.integers(min_tors, max_tors))
    d = draw(st.integers(1, min(3, n - 1)))
    seed = draw(st.integers(0, 10_000))
    kind = draw(st.sampled_from(kinds))
    if kind == "rr":
        return round_robin(n, d)
    if kind == "opera":
        return opera(n, d, seed=seed)
    if kind == "random":
        return random_matchings(n, d, seed=seed)
    base = random_matchings(n, d, seed=seed)
    if kind == "random-extra":
        return random_matchings(n, d, seed=seed, n_slices=base.n_slices + draw(st.integers(1, max_extra)))
    other = random_matchings(n, d, seed=seed + 1)
    return Schedule(np.concatenate([base.peer, other.peer]), name="double")


def pairs(sched):
    """Every (slice, source, destination) of a schedule with source != destination."""
    N = sched.n_tors
    for t in range(sched.n_slices):
        for src in range(N):
            for dst in range(N):
                if src != dst:
                    yield t, src, dst


#: profiles every target's templates must render, as (N, d, S, K, H, Q): ToRs, uplinks,
#: slices, URO alternatives, SSRR hops, calendar queues; from the smallest network to the
#: papers' (108, 6) and (1024, 32)
RENDER_MATRIX = [
    (2, 1, 1, 1, 1, 1),
    (8, 2, 4, 3, 4, 4),
    (9, 3, 3, 2, 9, 5),
    (16, 4, 4, 10, 3, 8),
    (108, 6, 18, 4, 5, 18),
    (1024, 32, 32, 10, 5, 32),
]
