"""A failure or recovery as the API declares it (:mod:`controller.daemon.changes`): every
kind parsed to the change it names, every bad request refused with a message naming what
is wrong, the failed set each change leaves, and the two halves of the report the daemon
gives for it (FRANCIS §3.1 / UCMP §5.3: the data plane's mask, then the new generation)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from controller.daemon.changes import (MAX_HOLD_ROUTES_S, Change, apply_change, dataplane_report,
                                       generation_report, parse_change)
from controller.errors import UroError
from controller.schedule.degrade import Failed

#: 3 ToRs of 2 uplinks; ToR switch names as the daemon's config gives them
NAMES = {"tor0": 0, "tor1": 1, "tor2": 2}


def _peer() -> np.ndarray:
    """A schedule of 4 slices: ToRs 0 and 1 meet on uplink 1 in every slice, nothing else."""
    peer = np.full((4, 3, 2), -1)
    peer[:, 0, 1], peer[:, 1, 1] = 1, 0
    return peer


def parse(op: str, doc, peer=None) -> Change:
    return parse_change(op, doc, 3, 2, NAMES, peer)


@pytest.mark.parametrize("op", ["fail", "recover"])
@pytest.mark.parametrize("doc, kind, target", [
    ({"uplink": [2, 1]}, "uplink", (2, 1)),
    ({"uplink": ("tor1", "0")}, "uplink", (1, 0)),
    ({"uplink": ["0", 1]}, "uplink", (0, 1)),
    ({"tor": 2}, "tor", 2),
    ({"tor": "tor1"}, "tor", 1),
    ({"tor": "0"}, "tor", 0),
    ({"ocs": 1}, "ocs", 1),
    ({"ocs": "0"}, "ocs", 0),
    ({"circuit": [3, 1, 1]}, "circuit", (3, 0, 1)),       # named by either end: the lower ToR's
    ({"circuit": ["2", "tor0", "1"]}, "circuit", (2, 0, 1)),
])
def test_each_kind_is_parsed_to_the_change_it_names(op, doc, kind, target):
    c = parse(op, doc, _peer())
    assert (c.op, c.kind, c.target, c.hold_routes_s, c.source) == (op, kind, target, 0.0, "api")
    assert c.target_json == (list(target) if isinstance(target, tuple) else target)


@pytest.mark.parametrize("hold", [0, 0.5, 2, MAX_HOLD_ROUTES_S])
def test_a_failure_may_hold_its_routes_up_to_the_most(hold):
    c = parse("fail", {"tor": 1, "hold_routes_s": hold})
    assert c.hold_routes_s == float(hold) and isinstance(c.hold_routes_s, float)


def test_a_recovery_without_a_hold_is_taken():
    assert parse("recover", {"tor": 1, "hold_routes_s": 0}).hold_routes_s == 0.0


GIVE_ONE = ('give exactly one of {"uplink": [tor, uplink]}, {"tor": tor}, {"ocs": index}, '
            '{"circuit": [slice, tor, uplink]}')


@pytest.mark.parametrize("op, doc, message", [
    ("drop", {"tor": 1}, "unknown operation 'drop'"),
    ("fail", [1], GIVE_ONE),
    ("fail", {}, GIVE_ONE),
    ("fail", {"tor": 1, "ocs": 0}, GIVE_ONE),
    ("fail", {"tor": 1, "uplinks": 2}, "unknown key 'uplinks' (uplink, tor, ocs, circuit, hold_routes_s)"),
    ("fail", {"tor": 1, "hold_routes_s": MAX_HOLD_ROUTES_S + 0.01},
     f"hold_routes_s: seconds from 0 to {MAX_HOLD_ROUTES_S:g}, got 60.01"),
    ("fail", {"tor": 1, "hold_routes_s": None}, "hold_routes_s: seconds from 0 to 60, got None"),
    ("recover", {"tor": 1, "hold_routes_s": 0.5}, "hold_routes_s: only a failure's new routes can be held"),
    ("fail", {"tor": 3}, "ToR 3 is not in the network (0..2 or a ToR switch name)"),
    ("fail", {"tor": -1}, "ToR -1 is not in the network (0..2 or a ToR switch name)"),
    ("fail", {"tor": True}, "ToR True is not in the network (0..2 or a ToR switch name)"),
    ("fail", {"tor": 1.0}, "ToR 1.0 is not in the network (0..2 or a ToR switch name)"),
    ("fail", {"tor": "tor9"}, "ToR 'tor9' is not in the network (0..2 or a ToR switch name)"),
    ("fail", {"uplink": [1]}, "uplink: [tor, uplink], got [1]"),
    ("fail", {"uplink": [1, 0, 0]}, "uplink: [tor, uplink], got [1, 0, 0]"),
    ("fail", {"uplink": "1,0"}, "uplink: [tor, uplink], got '1,0'"),
    ("fail", {"uplink": [1, 2]}, "uplink 2 is not in the network (0..1)"),
    ("fail", {"uplink": [1, False]}, "uplink False is not in the network (0..1)"),
    ("fail", {"uplink": [1, "x"]}, "uplink 'x' is not in the network (0..1)"),
    ("fail", {"uplink": [5, 0]}, "ToR 5 is not in the network (0..2 or a ToR switch name)"),
    ("fail", {"ocs": 2}, "uplink 2 is not in the network (0..1)"),
    ("fail", {"ocs": True}, "uplink True is not in the network (0..1)"),
    ("recover", {"circuit": [0, 1]}, "circuit: [slice, tor, uplink], got [0, 1]"),
    ("recover", {"circuit": 7}, "circuit: [slice, tor, uplink], got 7"),
    ("recover", {"circuit": [4, 1, 1]}, "slice 4 is not in the schedule (0..3)"),
    ("recover", {"circuit": [True, 1, 1]}, "slice True is not in the schedule (0..3)"),
    ("recover", {"circuit": [0, 1, 2]}, "uplink 2 is not in the network (0..1)"),
    ("recover", {"circuit": [0, 2, 1]}, "circuit [0, 2, 1]: ToR 2's uplink 1 has no circuit in slice 0"),
])
def test_a_bad_request_is_refused_naming_what_is_wrong(op, doc, message):
    with pytest.raises(UroError, match="^" + re.escape(message) + "$"):
        parse(op, doc, _peer())


def test_a_circuit_needs_a_schedule_to_be_named_in():
    with pytest.raises(UroError, match=r"^circuit: this network has no schedule to name circuits in$"):
        parse("recover", {"circuit": [0, 0, 1]})


#: a failed set with one of each, none the targets below
BASE = Failed(uplinks=frozenset({(0, 0)}), tors=frozenset({2}), ocs=frozenset({0}),
              circuits=frozenset({(1, 0, 1)}))


@pytest.mark.parametrize("kind, target, attr", [
    ("uplink", (1, 1), "uplinks"), ("tor", 1, "tors"), ("ocs", 1, "ocs"),
    ("circuit", (2, 0, 1), "circuits"), ("misconfigured", 1, "tors"),
])
def test_a_failure_adds_its_target_and_its_recovery_takes_it_out(kind, target, attr):
    failed = apply_change(BASE, Change("fail", kind, target))
    for a in ("uplinks", "tors", "ocs", "circuits"):
        want = getattr(BASE, a) | ({target} if a == attr else set())
        assert getattr(failed, a) == want and isinstance(getattr(failed, a), frozenset), a
    assert apply_change(failed, Change("recover", kind, target)) == BASE
    assert apply_change(BASE, Change("recover", kind, target)) == BASE        # not failed: nothing moves
    assert apply_change(failed, Change("fail", kind, target)) == failed        # failed twice: once


def test_the_data_plane_report_of_a_change_masked_at_submit():
    c = Change("fail", "uplink", (1, 0), detected=100.0, masked={"tor1": 2.5, "tor0": 4.0}, masked_at=100.004)
    r = dataplane_report(c, {}, t_masked=109.0, dead_written=0, now=110.0)
    assert r == {
        "op": "fail", "kind": "uplink", "target": [1, 0], "source": "api", "detected": r["detected"],
        "dataplane_ms": 4.0, "dataplane_switch_ms": {"tor1": 2.5, "tor0": 4.0},
        "dataplane": "down mask written on 2 switch(es) in one write each"}
    assert c.masked == {"tor1": 2.5, "tor0": 4.0}                            # read, not changed


def test_the_data_plane_report_counts_the_late_masks_from_detection():
    """Masks the control thread wrote after the submit: dated at ``t_masked``; the phase
    ends there, not at the submit's acks."""
    c = Change("fail", "ocs", 1, detected=100.0, masked={"tor1": 2.5}, masked_at=100.004,
               hold_routes_s=1.5, source="netlink")
    r = dataplane_report(c, {"tor2": 0.3, "tor1": 0.4}, t_masked=100.25, dead_written=0, now=110.0)
    assert r["dataplane_switch_ms"] == {"tor1": 250.0, "tor2": 250.0}
    assert r["dataplane_ms"] == 250.0 and r["hold_routes_s"] == 1.5 and r["source"] == "netlink"
    assert r["dataplane"] == "down mask written on 2 switch(es) in one write each"
    # not masked at submit: the late masks alone, the phase at t_masked
    r = dataplane_report(Change("fail", "circuit", (0, 0, 1), detected=100.0), {"tor0": 1.0}, 100.1254321, 0, 110.0)
    assert (r["dataplane_ms"], r["dataplane_switch_ms"]) == (125.432, {"tor0": 125.432})      # to the µs


@pytest.fixture
def tz_not_utc(monkeypatch):
    """The process's local time zone 5:30 east of UTC (restored after the test)."""
    import time

    monkeypatch.setenv("TZ", "UTC-05:30")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_the_detection_is_dated_on_the_wall_clock_in_utc(monkeypatch, tz_not_utc):
    import controller.daemon.changes as changes

    monkeypatch.setattr(changes.time, "time", lambda: 1_700_000_010.0)
    r = dataplane_report(Change("fail", "tor", 1, detected=95.0), {}, 96.0, 0, now=100.0)
    assert r["detected"] == "2023-11-14T22:13:25.000000Z"                   # 5 s before the wall clock's now
    assert changes.iso(1_700_000_000.25) == "2023-11-14T22:13:20.250000Z"
    assert changes.iso() == "2023-11-14T22:13:30.000000Z"


@pytest.mark.parametrize("kind", ["tor", "misconfigured"])
def test_a_tor_is_masked_only_where_a_mask_was_written(kind):
    """A ToR failure masks the (slice, uplink) pairs that lead to it, where the program has
    a dead-slot mask; a program without one (t2na) says the traffic is lost until the new
    generation."""
    masked = dataplane_report(Change("fail", kind, 1, detected=10.0, masked={"tor0": 1.0}, masked_at=10.002),
                              {}, 11.0, 0, 20.0)
    assert masked["dataplane_ms"] == 2.0 and masked["dataplane_switch_ms"] == {"tor0": 1.0}
    assert masked["dataplane"] == ("down mask written on 1 switch(es) in one write each (ToRs: the (slice, uplink) "
                                   "pairs that lead to it)")
    dead = dataplane_report(Change("fail", kind, 1, detected=10.0), {}, 10.5, dead_written=3, now=20.0)
    assert dead["dataplane_ms"] == 500.0 and dead["dataplane_switch_ms"] == {}
    none = dataplane_report(Change("fail", kind, 1, detected=10.0), {}, 10.5, dead_written=0, now=20.0)
    assert none["dataplane_ms"] is None and none["dataplane_switch_ms"] == {}
    assert none["dataplane"].startswith("this program has no (slice, uplink) mask (t2na): traffic into the "
                                        "failed ToR is lost there until the new generation avoids it")
    assert "hold_routes_s" not in none


def test_the_generation_report_adds_the_second_phase():
    r = {"op": "fail"}
    generation_report(r, detected=10.0, t_active=10.7512345, t_done=16.5000678, routes_version=4, error=None)
    assert r == {"op": "fail", "generation_s": 0.7512, "cleanup_done_s": 6.5001, "routes_version": 4}   # to 0.1 ms
    r = {}
    generation_report(r, 10.0, 99.0, 12.25, 5, "tor3: refused")
    assert r == {"generation_s": None, "cleanup_done_s": 2.25, "routes_version": 5, "error": "tor3: refused"}
