"""Liveness per circuit in the t2na ToR on the model (docs/liveness.md "On Tofino2"): a REQ
or RESP from the peer the schedule names for (this slice, its uplink) is heard; a circuit
silent for ``down_after`` cycles is marked down by the timer's pause at the boundary that
ends its slice, which then leaves the calendar queue that serves it Full, so a packet whose
first alternative uses it takes the next; heard again, the mark clears at its next
judgment; another synchronized ToR on a circuit is a wrong peer; a sync frame from a host
port hears nothing.

The model's time stands (test_b_clock.py): the clock is held and ticked by hand, n slices
at a time (the boundary put n slices behind the standing local time: exactly n triggers
tick), and the tests are the peers, with crafted frames (test_b_sync.py)."""

from __future__ import annotations

import dataclasses

import pytest

from controller.clock import message as sm
from controller.liveness.params import LivenessParams
from controller.tables import liveness as lt
from test_b_clock import BOUND, M32, _held, _settled
from test_b_sync import _dropped, _exchange, _req, _write, sync  # noqa: F401 (fixture)
from test_c_forwarding import reference  # noqa: F401 (fixture)
from test_d_queues import QSTATE, Counts, exchange, expect, left_as

LIVE = "UroIngress.live_reg"
MARK = "UroIngress.live_mark"
DOWN_AFTER = 2


@pytest.fixture(scope="module")
def live(view, build, tiny, sync):
    """tor0 in sync mode (``sync``) with liveness on (``down_after`` 2, its expected
    circuits: round robin 8 x 2 gives it none on (3, 1)), the liveness registers from zero;
    off again after the module (the running clock's pauses then clear the queues the marks
    held Full)."""
    contract = build[1]
    on = lt.liveness_config_entry(contract, sync["sched"], LivenessParams(True, DOWN_AFTER), 0)
    _zero(view)
    _write(view, modify=[on])
    try:
        yield {"d": tiny.uplinks, "S": tiny.slices, "sched": sync["sched"], "L": sync["L"]}
    finally:
        _write(view, modify=[lt.liveness_config_entry(contract, sync["sched"], None, 0)])
        _zero(view)


def _zero(view) -> None:
    """Every cell of the liveness registers 0 (only those that are not: a write takes seconds)."""
    s = view.b._s()
    for name, zero in ((LIVE, {"heard": 0, "miss": 0}), (MARK, 0)):
        for i, fields in s.register_cells("pipe." + name).items():
            if any(v[view.pipe] for v in fields.values()):
                view.set_register(name, zero, index=i)


def _state(view, i: int) -> tuple[int, int]:
    return view.register(LIVE, i, field="heard"), view.register(LIVE, i, field="miss")


def _tick(view, n: int) -> dict:
    """Exactly ``n`` ticks of the held clock (its boundary put n slices behind the model's
    standing time), then held again; the clock after."""
    L = view.b._pipeline.contract["clock"]["slice_ns"]
    c0 = view.clock()
    e0 = c0["epoch"]
    view.set_register(BOUND, {"next": (c0["now"] - (n - 1) * L) & M32, "slice": c0["slice"]})
    c1 = _settled(view, f"{n} ticks", min_triggers=3 * n)
    assert (c1["epoch"] - e0) % 65536 == n, (c0, c1)
    assert c1["slice"] == (c0["slice"] + n) % view.b._pipeline.contract["profile"]["slices"]
    view.hold_clock()               # the boundary a slice ahead: a trigger of another time would tick it
    return c1


def _a_circuit_now(view, live) -> tuple[dict, int, int, int]:
    """The liveness registers zeroed and the clock held: the clock, its slice s, the first
    uplink u with a circuit in s, and that circuit's cell (s * d + u)."""
    _zero(view)
    c = _held(view)
    s = c["slice"]
    u = next(u for u in range(live["d"]) if live["sched"].peer[s, 0, u] >= 0)
    return c, s, u, s * live["d"] + u


def _peer(sched, s: int, u: int) -> int:
    return int(sched.peer[s, 0, u])


def _hear(view, ports, port_map, sched, s: int, u: int, k: int) -> None:
    """A REQ from the peer of (s, u) (the clock in slice s), answered."""
    _exchange(view, ports, port_map.uplinks[u], _req(_peer(sched, s, u), 0, u, sm.Stamp(k & M32, 100)))


def _counts(view) -> dict[str, int]:
    return view.b.read_counter("liveness")


def _delta(c0: dict, c1: dict) -> dict:
    return {k: c1[k] - c0[k] for k in c1 if c1[k] != c0[k]}


def _circuits(sched, S: int, d: int) -> list[tuple[int, int]]:
    return [(s, u) for s in range(S) for u in range(d) if sched.peer[s, 0, u] >= 0]


@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_a_a_silent_circuit_is_marked_down_and_a_packet_takes_the_next_alternative(
        view, ports, port_map, model, build, reference, live, tiny):
    """Every circuit silent for two cycles but the one of a destination's second later
    alternative (its peer's REQ heard in its slice each cycle): after 2 x S ticks each other
    circuit the ToR has is marked (`live_mark` bit 0; counted `silent` in the first cycle,
    `down` in the second), the heard one is not, the circuit without a peer ((3, 1)) is not
    judged; the marked circuits' calendar queues are Full in every copy. The destination's
    packet then leaves on its second alternative, in its queue, counted `reroute_spill`, as
    the reference model says with the first one out."""
    tm, t = reference
    d, S, sched = live["d"], live["S"], live["sched"]
    _zero(view)
    c = _held(view)
    cur = c["slice"]
    # a destination whose first two alternatives leave in later slices (the held clock's
    # active slice has its whole time: an alternative in it would be taken)
    dst, rows = next((dst, alts[:2]) for dst in range(1, 8) if dst not in t.source_routed
                     for alts in [t.uro.get((cur, dst), [])] if len(alts) >= 2 and cur not in (alts[0][1], alts[1][1]))
    (u0, s0), (u1, s1) = rows
    kept = s1 * d + u1
    c0 = _counts(view)
    k = c["k"]
    for _ in range(2):                                  # two cycles, from slice cur to cur
        n = (s1 - cur) % S
        if n:
            k = _tick(view, n)["k"]
        _hear(view, ports, port_map, sched, s1, u1, k)
        k = _tick(view, S - n)["k"]
    assert view.clock()["slice"] == cur
    circuits = _circuits(sched, S, d)
    marks = {(s, u): view.register(MARK, s * d + u) for s in range(S) for u in range(d)}
    assert marks == {(s, u): (0 if (s, u) == (s1, u1) or (s, u) not in circuits else 1)
                     for s in range(S) for u in range(d)}, marks
    n_silent = len(circuits) - 1
    assert _delta(c0, _counts(view)) == {"silent": n_silent, "down": n_silent, "heard": 2}
    assert _state(view, s0 * d + u0) == (0, 2) and _state(view, kept) == (0, 0)
    active = view.register("UroIngress.active_reg")
    q = {s: (active + (s - cur) % S) % tiny.queues for s in range(S)}
    assert [view.register(r, u0 * 256 + q[s0]) for r in QSTATE] == [1] * len(QSTATE)
    assert [view.register(r, u1 * 256 + q[s1]) for r in QSTATE] == [0] * len(QSTATE)

    from fabric import udp

    counts = Counts(view, build[1])
    tl = dataclasses.replace(t, uro={key: [a for a in v if a[1] != key[0]] for key, v in t.uro.items()})
    spill = ("events", counts.cell("reroute_spill"))
    a = udp(dst, ident=0x501)
    left, delta, passes, _ = exchange(counts, ports, port_map, model, [a], [0x501], {spill: 1})
    assert delta == {spill: 1}, delta                   # counted once as reroute_spill alone, no drop
    left_as(left, 0x501, expect(tm, tl, dst, a, cur, 1), port_map, q[s1], passes)
    assert view.clock()["slice"] == cur


@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_b_a_marked_circuit_heard_again_is_up_at_its_next_judgment(view, ports, port_map, live, tiny):
    """A circuit marked down (its silent count at down_after, its mark set) whose peer is
    heard in its slice: the tick that ends the slice clears the mark (counted `up` once),
    resets the count, and clears its calendar queue's Full flag in every copy."""
    d, sched = live["d"], live["sched"]
    c, s, u, i = _a_circuit_now(view, live)
    view.set_register(LIVE, {"heard": 0, "miss": DOWN_AFTER}, index=i)
    view.set_register(MARK, 1, index=i)
    qi = u * 256 + c["active_q"]
    for r in QSTATE:
        view.set_register(r, 1, index=qi)
    c0 = _counts(view)
    _hear(view, ports, port_map, sched, s, u, c["k"])
    assert _state(view, i) == (1, DOWN_AFTER)
    _tick(view, 1)
    assert view.register(MARK, i) == 0
    assert _state(view, i) == (0, 0)
    silent = len([x for x in range(d) if x != u and sched.peer[s, 0, x] >= 0])   # the slice's other circuits
    assert _delta(c0, _counts(view)) == {"up": 1, **({"silent": silent} if silent else {})}
    assert [view.register(r, qi) for r in QSTATE] == [0] * len(QSTATE)


@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_c_another_synchronized_tor_on_a_circuit_is_a_wrong_peer(view, ports, port_map, live, tiny):
    """A REQ on an uplink from a ToR the circuit does not bring (counted `wrong_peer` by the
    sync counter, answered by nothing): with a stratum (synchronized) it marks the circuit's
    slot heard-by-another (2), and the judgment counts `wrong_peer` and sets the mark's bit 1;
    an unsynchronized one (stratum 255, searching: its slice may be wrong) is no evidence."""
    d, S, sched = live["d"], live["S"], live["sched"]
    _zero(view)
    c = _held(view)
    s = next(x for x in range(S) if all(sched.peer[(c["slice"] + x) % S, 0, u] >= 0 for u in range(d)))
    if s:
        c = _tick(view, s)
    s = c["slice"]
    peers = {_peer(sched, s, u) for u in range(d)}
    other = next(t for t in range(1, tiny.tors) if t not in peers)
    t1 = sm.Stamp(c["k"], 5)
    _dropped(view, ports, [[(port_map.uplinks[0], _req(other, 0, 0, t1, stratum=2), "wrong_peer")],
                           [(port_map.uplinks[1], _req(other, 0, 1, t1), "wrong_peer")]])
    assert _state(view, s * d + 0)[0] == 2 and _state(view, s * d + 1)[0] == 0
    c0 = _counts(view)
    _tick(view, 1)
    assert _delta(c0, _counts(view)) == {"wrong_peer": 1, "silent": 1}
    assert view.register(MARK, s * d + 0) == 2 and view.register(MARK, s * d + 1) == 0
    _zero(view)


@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_d_a_sync_frame_from_a_host_port_hears_nothing(view, ports, port_map, live, tiny):
    """The REQ of this slice's peer, sent into a host port: counted `from_host` and dropped,
    no circuit of the slice heard (the same REQ on the uplink is: heard 1)."""
    d, sched = live["d"], live["sched"]
    c, s, u, i = _a_circuit_now(view, live)
    req = _req(_peer(sched, s, u), 0, u, sm.Stamp(c["k"], 5))
    _dropped(view, ports, [[(port_map.hosts[0], req, "from_host")]])
    assert [_state(view, s * d + x) for x in range(d)] == [(0, 0)] * d
    _hear(view, ports, port_map, sched, s, u, c["k"])
    assert _state(view, i) == (1, 0)
    _zero(view)
