"""The t2na ToR's stratum on the model (docs/tofino2.md "The stratum"): an exchange the servo
applies with a responder of a lower stratum s makes this ToR's stratum s + 1
(``UroEgress.stratum_reg``), and the frames it sends say so; a responder of the same or a
higher stratum is ``peer_worse``, and an exchange the servo refuses does not move the
stratum; the lead, written stratum 1 by the backend's seed, answers with 1 and never ages;
a ToR whose last correction is more than ``search_wait`` slices old is unsynchronized again.

The model's time stands (test_b_clock.py): the tests are the peers, with crafted stamps, on
the held clock whose boundary ``servo_at`` put half a slice after the front-panel time
(test_b_sync_servo.py)."""

from __future__ import annotations

import pytest

from controller.clock import message as sm
from controller.clock.params import ClockParams
from test_b_clock import BOUND, M32
from test_b_sync import (REQ_NONE, STRATUM, STRATUM_START, _dropped, _exchange, _req,  # noqa: F401
                         hold_requester, sync)
from test_b_sync_servo import LEN, _open, _resp, _stamps, learnt, servo_at  # noqa: F401


def _stratum(view) -> tuple[int, int]:
    return view.register(STRATUM, field="stratum"), view.register(STRATUM, field="last_k")


def _set(view, stratum: int, last_k: int) -> None:
    view.set_register(STRATUM, {"stratum": stratum, "last_k": last_k & M32})


@pytest.fixture()
def at(view, servo_at):
    """``servo_at`` with the boundary as it set it, no request open, the local slice length
    L; the stratum as the program starts it afterwards, and the length L again (an applied
    exchange steps it: the rate)."""
    s = servo_at
    view.set_register(BOUND, {"next": s["next"], "slice": s["slice"]})
    view.set_register(LEN, s["L"])
    _open(view, s["u"], sm.Stamp(0, REQ_NONE))
    try:
        yield s
    finally:
        view.set_register(BOUND, {"next": s["next"], "slice": s["slice"]})
        view.set_register(LEN, s["L"])
        _open(view, s["u"], sm.Stamp(0, REQ_NONE))
        view.set_register(STRATUM, STRATUM_START)


def _answer(view, ports, s, t1k_back: int = 3) -> sm.Message:
    """This ToR's RESP to a REQ from this slice's peer."""
    return _exchange(view, ports, s["dev"], _req(s["peer"], 0, s["u"], sm.Stamp((s["k"] - t1k_back) & M32, 777)))


@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_a_resp_from_a_stratum_1_peer_makes_this_tor_stratum_2(view, ports, at):
    """Unsynchronized (255), a RESP from a stratum-1 peer that the servo applies: `applied`,
    the stratum 2 with the slice number of the correction, and the next RESP this ToR sends
    says stratum 2, without BOOT (a synchronized clock); before, it answered as
    unsynchronized."""
    s = at
    _set(view, sm.UNSYNCED, 0)
    m0 = _answer(view, ports, s)
    assert (m0.stratum, m0.flags) == (sm.UNSYNCED, int(sm.Flag.BOOT))
    t1, t2, t3 = _stamps(s["t4"], s["L"], 25, 80, 50)
    _open(view, s["u"], t1)
    _dropped(view, ports, [[(s["dev"], _resp(s["peer"], 0, s["u"], t1, t2, t3, s["slice"], stratum=1), "applied")]])
    assert _stratum(view) == (2, s["k"])
    assert view.register(BOUND, field="next") == (s["next"] - 25) & M32
    m = _answer(view, ports, s)
    assert (m.op, m.stratum, m.flags, m.dst_tor) == (sm.Op.RESP, 2, 0, s["peer"])


@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_b_a_peer_not_better_is_peer_worse_and_a_refused_exchange_keeps_the_stratum(view, ports, at):
    """Stratum 2: a RESP from a peer of stratum 2, 3 or 255 is `peer_worse` (the boundary
    stays, the stratum too); one from a stratum-1 peer whose offset is past max_offset is
    `refused` and does not take its stratum; one that is both (stratum 2, past the bound) is
    `peer_worse`, as SwitchClock.response orders them."""
    s = at
    L, u, k0 = s["L"], s["u"], (s["k"] - 5) & M32
    _set(view, 2, k0)
    t1, t2, t3 = _stamps(s["t4"], L, 20, 40, 50)
    r1, r2, r3 = _stamps(s["t4"], L, L // 4 + 2, 30, 10)        # ClockParams' max_offset: L / 4
    cases = [(t1, _resp(s["peer"], 0, u, t1, t2, t3, s["slice"], stratum=st), "peer_worse")
             for st in (2, 3, sm.UNSYNCED)]
    cases += [(r1, _resp(s["peer"], 0, u, r1, r2, r3, s["slice"], stratum=1), "refused"),
              (r1, _resp(s["peer"], 0, u, r1, r2, r3, s["slice"], stratum=2), "peer_worse")]
    for t1x, frame, reason in cases:
        _open(view, u, t1x)
        _dropped(view, ports, [[(s["dev"], frame, reason)]])
        assert view.register(BOUND, field="next") == s["next"], reason
        assert _stratum(view) == (2, k0), reason


@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_c_the_lead_seeded_by_the_backend_answers_with_stratum_1_and_does_not_age(view, ports, port_map, sync, at):
    """BfrtBackend.seed_clock(lead=True) (the ToR the config names first among the leads):
    the stratum 1, last_k the seed's slice number, and its RESPs say 1; a lead whose last
    correction is far older than search_wait still answers with 1 (nothing corrects the
    lead but the controller). A seed without ``lead`` writes 255."""
    s = at
    c0 = view.clock()
    try:
        view.b.seed_clock(s["k"], s["L"] // 2, reference=False, lead=True)
        assert _stratum(view) == (1, s["k"])
        view.b.seed_clock(s["k"], s["L"] // 2, reference=False)
        assert _stratum(view) == (sm.UNSYNCED, s["k"])
        view.b.seed_clock(s["k"], s["L"] // 2, reference=False, lead=True)
    finally:
        view.set_register("UroIngress.k_reg", c0["k"])
        view.set_register(BOUND, {"next": s["next"], "slice": s["slice"]})
    # the clock held and its boundary learnt again: the seeds' writes take a while, and a jump
    # of the model's time past the boundary meanwhile would tick the clock to the next slice,
    # whose peer is another ToR (the REQ below then counted `wrong_peer`)
    s = learnt(view, ports, port_map, sync)[0]
    m = _answer(view, ports, s)
    assert (m.stratum, m.flags) == (1, 0)
    _set(view, 1, s["k"] - 100_000)
    m = _answer(view, ports, s)
    assert (m.stratum, m.flags) == (1, 0)
    assert _stratum(view) == (1, (s["k"] - 100_000) & M32)


@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_d_a_tor_whose_parent_went_silent_falls_back_to_255(view, ports, at, tiny, sync):
    """search_wait (holdover_cycles x S x exchange_every slices, as clock_config carries it)
    after its last correction a stratum-2 ToR still answers with 2; one slice more and its
    next frame says 255 with BOOT, and the register holds 255 (the next better peer's
    exchange corrects it again)."""
    s = at
    wait = ClockParams(slice_ns=s["L"]).tor_config(0, tiny.tors, tiny.uplinks, tiny.slices).search_wait
    assert wait > 0
    _set(view, 2, s["k"] - wait)
    m = _answer(view, ports, s)
    assert (m.stratum, m.flags) == (2, 0)
    assert _stratum(view) == (2, (s["k"] - wait) & M32)
    _set(view, 2, s["k"] - wait - 1)
    m = _answer(view, ports, s)
    assert (m.stratum, m.flags) == (sm.UNSYNCED, int(sm.Flag.BOOT))
    assert _stratum(view) == (sm.UNSYNCED, (s["k"] - wait - 1) & M32)
