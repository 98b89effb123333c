"""The failure analysis follows the data plane: the vectorized least fixed point of
:func:`failures.uro_alive` against a per-packet walk of the same tables (the data plane's
model), and against an exhaustive search over every alternative (the oracle bound)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.analysis import failures
from controller.analysis.failures import UroModel
from controller.cli import main
from controller.errors import UroError
from controller.routing.uro import UroParams, compute
from controller.schedule import opera, random_matchings, round_robin


def _walk(routes, f, m: UroModel, t: int, x: int, dst: int) -> bool:
    """One packet, hop by hop, as the ToR program moves it: at each ToR the first of the K
    alternatives whose hop the ToR knows to be up; a hop that is down loses it; none known up:
    a re-routing attempt (next slice, same ToR) if one is left, else dropped."""
    sched = routes.schedule
    S = sched.n_slices
    rev = failures._reverse_uplink(sched)
    r, seen = 0, set()
    while True:
        if (t, x, r) in seen:
            return False          # a loop: it never arrives
        seen.add((t, x, r))
        choice = None
        for i in range(min(m.k, routes.alt_uplink.shape[-1])):
            u, dep = int(routes.alt_uplink[t, x, dst, i]), int(routes.alt_dep[t, x, dst, i])
            if u < 0:
                continue
            s = dep % S
            y = int(sched.peer[s, x, u])
            if y < 0:
                continue
            if failures.hop_known_up(f, rev, S, x, u, s, y, m.knowledge):
                choice = (u, s, y)
                break
        if choice is None:
            if r < m.reroutes:
                t, r = (t + 1) % S, r + 1
                continue
            return False
        u, s, y = choice
        if not failures.hop_up(f, rev, S, x, u, s, y):
            return False
        if y == dst:
            return True
        t, x = s, y


def _oracle(routes, f, m: UroModel) -> np.ndarray:
    """The bound by plain iteration over states (a second implementation): a state survives
    if some alternative's hop is up and leads to a surviving state, or an attempt is left and
    the same ToR one slice later survives."""
    sched = routes.schedule
    S, N = sched.n_slices, sched.n_tors
    rev = failures._reverse_uplink(sched)
    alive = {(r, t, x, d): False for r in range(m.reroutes + 1) for t in range(S) for x in range(N) for d in range(N)}
    changed = True
    while changed:
        changed = False
        for (r, t, x, d), v in alive.items():
            if v or x == d:
                continue
            ok = r < m.reroutes and alive[(r + 1, (t + 1) % S, x, d)]
            for i in range(min(m.k, routes.alt_uplink.shape[-1])):
                u, dep = int(routes.alt_uplink[t, x, d, i]), int(routes.alt_dep[t, x, d, i])
                if ok or u < 0:
                    continue
                s = dep % S
                y = int(sched.peer[s, x, u])
                if y >= 0 and failures.hop_up(f, rev, S, x, u, s, y):
                    ok = y == d or alive[(r, s, y, d)]
            if ok:
                alive[(r, t, x, d)] = changed = True
    out = np.zeros((S, N, N), bool)
    for (r, t, x, d), v in alive.items():
        if r == 0:
            out[t, x, d] = v
    return out


SCHEDULES = st.sampled_from(["rr", "opera", "random"])


@st.composite
def cases(draw):
    kind = draw(SCHEDULES)
    n = draw(st.integers(4, 9))
    d = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 50))
    if kind == "rr":
        sched = round_robin(n, d)
    elif kind == "opera":
        sched = opera(n, d, seed=seed)
    else:
        extra = draw(st.integers(0, 3))
        sched = random_matchings(n, d, seed=seed, n_slices=round_robin(n, d).n_slices + extra)
    k = draw(st.integers(1, 4))
    routes = compute(sched, UroParams(k=k, max_hops=draw(st.sampled_from([None, 2, 3]))))
    unit = draw(st.sampled_from(failures.UNITS))
    f = failures.sample(sched, links=draw(st.sampled_from([0.0, 0.1, 0.3])), tors=draw(st.sampled_from([0.0, 0.2])),
                        ocs=draw(st.sampled_from([0.0, 0.4])), seed=draw(st.integers(0, 1000)), unit=unit)
    m = UroModel(k=draw(st.integers(1, k)), reroutes=draw(st.integers(0, 2)),
                 knowledge=draw(st.sampled_from(failures.KNOWLEDGE)))
    return routes, f, m


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_dataplane_model_is_the_per_packet_walk(case):
    routes, f, m = case
    sched = routes.schedule
    alive = failures.uro_alive(routes, f, m)
    S, N = sched.n_slices, sched.n_tors
    for t in range(S):
        for x in range(N):
            for d in range(N):
                if x != d:
                    assert alive[t, x, d] == _walk(routes, f, m, t, x, d), (t, x, d, m)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_oracle_is_the_exhaustive_bound_and_the_data_plane_never_beats_it(case):
    routes, f, m = case
    bound = UroModel(k=m.k, reroutes=m.reroutes, model="oracle")
    oracle = failures.uro_alive(routes, f, bound)
    assert np.array_equal(oracle, _oracle(routes, f, bound))
    dp = failures.uro_alive(routes, f, m)
    assert not (dp & ~oracle).any()                      # a data plane survivor survives the oracle
    masks = failures.uro_alive(routes, f, UroModel(k=m.k, reroutes=m.reroutes, knowledge="masks"))
    local = failures.uro_alive(routes, f, UroModel(k=m.k, reroutes=m.reroutes, knowledge="local"))
    assert not (local & ~masks).any()                    # knowing more never loses a packet


def test_first_up_is_not_the_oracle():
    """A state whose first known-up alternative leads into a dead end loses its packet in
    the data plane while the oracle would take the second alternative: on the (20, 3) Opera
    schedule with 20 % of cables cut the data plane loses strictly more, and more
    alternatives or attempts never lose more."""
    sched = opera(20, 3, seed=1)
    routes = compute(sched, UroParams(k=5))
    f = failures.sample(sched, links=0.2, seed=3)
    dp = {(k, r): failures.uro_loss(routes, f, UroModel(k=k, reroutes=r)) for k in (1, 3, 5) for r in (0, 1, 3)}
    bound = failures.uro_loss(routes, f, UroModel(k=3, model="oracle"))
    assert dp[(3, 0)] > bound > 0
    for r in (0, 1, 3):
        assert dp[(1, r)] >= dp[(3, r)] >= dp[(5, r)]
    for k in (1, 3, 5):
        assert dp[(k, 0)] >= dp[(k, 1)] >= dp[(k, 3)]
    assert dp[(1, 1)] < dp[(1, 0)]                       # a re-routing attempt saves packets at K = 1
    local = failures.uro_loss(routes, f, UroModel(k=3, knowledge="local"))
    assert local > dp[(3, 0)]                            # without liveness masks a dead peer eats packets


def test_a_failed_circuit_is_one_slice_both_ways():
    sched = round_robin(8, 2)
    f = failures.sample(sched, links=0.2, seed=5, unit="circuit")
    dc = f.dead_circuit
    n = len(failures._circuits(sched))
    assert dc.sum() == 2 * round(0.2 * n)                # both ends of each failed circuit
    rev = failures._reverse_uplink(sched)
    for s, x, j in zip(*np.nonzero(dc)):
        assert dc[s, sched.peer[s, x, j], rev[s, x, j]]
    assert not f.dead_link.any()
    with pytest.raises(UroError, match="unknown failure unit 'fibre'"):
        failures.sample(sched, links=0.1, unit="fibre")


def test_cli_columns_models_reroutes_and_units(capsys):
    gen = ["--generate", "opera", "--tors", "8", "--uplinks", "2"]
    assert main(["failures", *gen, "--link-rate", "0.2", "-K", "1,3", "-R", "0,1", "--model", "dataplane,oracle",
                 "--unit", "circuit", "--trials", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    head = out[3].split()
    assert " ".join(head) == ("failure rate uro K=1 uro K=1 R=1 uro K=3 uro K=3 R=1 bound K=1 bound K=1 R=1 "
                              "bound K=3 bound K=3 R=1 ucmp ucmp+backups")
    assert "failed circuits" in out[1]
    vals = [float(x.rstrip("%")) for x in out[4].split()[2:]]
    dp, bound = vals[:4], vals[4:8]
    assert all(a >= b for a, b in zip(dp, bound))


@pytest.mark.parametrize("argv,msg", [
    (["-R", "-1"], "-R/--reroutes values must be 0..64 re-routing attempts, got '-1'"),
    (["-R", "x"], "-R/--reroutes: expected a comma-separated list, got 'x'"),
    (["--model", "psychic"], "--model: unknown model 'psychic'; choose from: dataplane, oracle"),
])
def test_cli_bad_model_options(capsys, argv, msg):
    gen = ["--generate", "opera", "--tors", "6", "--uplinks", "2", "--link-rate", "0.1"]
    assert main(["failures", *gen, *argv]) == 2
    assert msg in capsys.readouterr().err
