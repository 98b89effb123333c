"""Failures and recoveries as data: a :class:`Change` (what failed or came back, where it
was detected and when), how one is read from the status API's JSON, how it changes the
failed set, and the report the daemon gives for it (the two phases of FRANCIS §3.1 /
UCMP §5.3: the data plane's down mask, then a new route generation).

Pure functions of their arguments: the controller (:mod:`controller.daemon.controller`)
runs them and keeps the results.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

from controller.daemon.log import TS_FORMAT
from controller.errors import UroError
from controller.schedule.degrade import Failed, circuit_key


def iso(t: float | None = None) -> str:
    """Epoch seconds (default: now) in the log's time format."""
    return datetime.fromtimestamp(time.time() if t is None else t, timezone.utc).strftime(TS_FORMAT)


@dataclass
class Change:
    """One failure or recovery: ``kind`` uplink | tor | ocs | circuit | misconfigured,
    ``target`` (tor, uplink) | tor | ocs | (slice, tor, uplink) | tor (a circuit and a
    misconfigured ToR -- one answering under another id --: the switches' liveness marks
    only; a misconfigured ToR is routed around as a failed ToR)."""

    op: str                 # fail | recover
    kind: str
    target: object
    source: str = "api"     # api | netlink | config
    detected: float = 0.0   # controller clock at detection
    done: threading.Event = field(default_factory=threading.Event)
    report: dict | None = None
    masked: dict[str, float] | None = None   # phase 1 at submit: switch -> detection to its mask acked (ms)
    masked_at: float | None = None           # controller clock when the last of them was acked
    #: a diagnosis knob (``POST /fail`` ``hold_routes_s``): the new routes wait this long
    #: after detection, so the data plane's mask alone is seen over a known window
    hold_routes_s: float = 0.0

    @property
    def target_json(self) -> list | int:
        """The target as the API and the log spell it: [tor, uplink], a ToR or an OCS index."""
        return list(self.target) if isinstance(self.target, tuple) else self.target


#: the longest ``hold_routes_s`` a request may ask for
MAX_HOLD_ROUTES_S = 60.0


#: what a change names, as the API's JSON keys
KINDS = ("uplink", "tor", "ocs", "circuit")


def parse_change(op: str, doc: dict, n_tors: int, n_uplinks: int, names: dict[str, int],
                 peer=None) -> Change:
    """A change from the API's JSON: {"uplink": [tor, u]} | {"tor": t} | {"ocs": u} |
    {"circuit": [slice, tor, u]} (one circuit of the schedule ``peer``, named by either end:
    what the switches' liveness marks declare, recovered by hand once liveness is off); a
    ToR may be named by its switch name. ``"hold_routes_s"`` (a failure only, 0 to
    :data:`MAX_HOLD_ROUTES_S`) holds the new routes back that long after detection: for
    diagnosis and the tests that measure what the mask does before new routes exist.
    Raises UroError naming the problem."""
    if op not in ("fail", "recover"):
        raise UroError(f"unknown operation {op!r}")
    if not isinstance(doc, dict) or len([k for k in KINDS if k in doc]) != 1:
        raise UroError('give exactly one of {"uplink": [tor, uplink]}, {"tor": tor}, {"ocs": index}, '
                       '{"circuit": [slice, tor, uplink]}')
    unknown = sorted(set(doc) - {*KINDS, "hold_routes_s"})
    if unknown:
        raise UroError(f"unknown key {unknown[0]!r} (uplink, tor, ocs, circuit, hold_routes_s)")
    hold = doc.get("hold_routes_s", 0.0)
    if isinstance(hold, bool) or not isinstance(hold, (int, float)) or not 0 <= hold <= MAX_HOLD_ROUTES_S:
        raise UroError(f"hold_routes_s: seconds from 0 to {MAX_HOLD_ROUTES_S:g}, got {hold!r}")
    if hold and op != "fail":
        raise UroError("hold_routes_s: only a failure's new routes can be held")
    c = _parse_target(op, doc, n_tors, n_uplinks, names, peer)
    c.hold_routes_s = float(hold)
    return c


def _parse_target(op: str, doc: dict, n_tors: int, n_uplinks: int, names: dict[str, int], peer) -> Change:
    """The change ``doc`` names (checked by :func:`parse_change`)."""

    def tor_id(v) -> int:
        if isinstance(v, str) and v in names:
            return names[v]
        if isinstance(v, str) and v.isdigit():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n_tors:
            raise UroError(f"ToR {v!r} is not in the network (0..{n_tors - 1} or a ToR switch name)")
        return v

    def index(v, n: int, what: str, where: str) -> int:
        if isinstance(v, str) and v.isdigit():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n:
            raise UroError(f"{what} {v!r} is not in the {where} (0..{n - 1})")
        return v

    def uplink(v) -> int:
        return index(v, n_uplinks, "uplink", "network")

    if "uplink" in doc:
        v = doc["uplink"]
        if not isinstance(v, (list, tuple)) or len(v) != 2:
            raise UroError(f"uplink: [tor, uplink], got {v!r}")
        return Change(op, "uplink", (tor_id(v[0]), uplink(v[1])))
    if "tor" in doc:
        return Change(op, "tor", tor_id(doc["tor"]))
    if "circuit" in doc:
        v = doc["circuit"]
        if not isinstance(v, (list, tuple)) or len(v) != 3:
            raise UroError(f"circuit: [slice, tor, uplink], got {v!r}")
        if peer is None:
            raise UroError("circuit: this network has no schedule to name circuits in")
        sl, t, u = index(v[0], peer.shape[0], "slice", "schedule"), tor_id(v[1]), uplink(v[2])
        if peer[sl, t, u] < 0:
            raise UroError(f"circuit [{sl}, {t}, {u}]: ToR {t}'s uplink {u} has no circuit in slice {sl}")
        return Change(op, "circuit", circuit_key(peer, sl, t, u))
    return Change(op, "ocs", uplink(doc["ocs"]))


def apply_change(failed: Failed, c: Change) -> Failed:
    """The failed set after ``c`` (a failure adds its target, a recovery removes it)."""
    attr = {"uplink": "uplinks", "tor": "tors", "ocs": "ocs", "circuit": "circuits", "misconfigured": "tors"}[c.kind]
    cur = set(getattr(failed, attr))
    (cur.add if c.op == "fail" else cur.discard)(c.target)
    return Failed(**{**{a: getattr(failed, a) for a in ("uplinks", "tors", "ocs", "circuits")},
                     attr: frozenset(cur)})


def dataplane_report(c: Change, late: dict[str, float], t_masked: float, dead_written: int, now: float) -> dict:
    """The report's first half, phase 1: how long from ``c.detected`` until the last down
    mask was acknowledged, and on which switches.

    ``late``: {switch: ms} written by the control thread (the change was not masked at
    submit, or the failed set moved since), at controller time ``t_masked``;
    ``dead_written``: how many switches hold a dead-slot mask (a ToR failure masks only
    there); ``now``: the controller clock, to date the detection on the wall clock."""
    per = dict(c.masked or {})
    if late:
        per.update({n: round((t_masked - c.detected) * 1e3, 3) for n in late})
    wrote = len(per)
    done = c.masked_at if c.masked is not None and not late else t_masked
    as_tor = c.kind in ("tor", "misconfigured")
    masks = c.kind in ("uplink", "ocs", "circuit") or (as_tor and bool(wrote or dead_written))
    return {
        "op": c.op, "kind": c.kind, "target": c.target_json,
        "source": c.source, "detected": iso(time.time() - (now - c.detected)),
        **({"hold_routes_s": c.hold_routes_s} if c.hold_routes_s else {}),
        "dataplane_ms": round((done - c.detected) * 1e3, 3) if masks else None,
        "dataplane_switch_ms": per if masks else {},
        "dataplane": (f"down mask written on {wrote} switch(es) in one write each"
                      + (" (ToRs: the (slice, uplink) pairs that lead to it)" if as_tor else "")
                      if masks else
                      "this program has no (slice, uplink) mask (t2na): traffic into the failed ToR is "
                      "lost there until the new generation avoids it"),
    }


def generation_report(report: dict, detected: float, t_active: float, t_done: float, routes_version: int,
                      error: str | None) -> None:
    """The report's second half, phase 2, added to ``report``: seconds from detection until
    the new generation was active on every switch (``t_active``: the last flip; None on
    ``error``) and until the old one was cleaned up (``t_done``)."""
    report["generation_s"] = None if error else round(t_active - detected, 4)
    report["cleanup_done_s"] = round(t_done - detected, 4)
    report["routes_version"] = routes_version
    if error:
        report["error"] = error
