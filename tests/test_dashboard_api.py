"""What the daemon's status API serves for the dashboard, without a browser
(the browser test on real bmv2 is bmv2_tests/test_dashboard.py): the page and its files
from the package, nothing from elsewhere, no file outside the dashboard, the schedule."""

import json
import re
import urllib.error
import urllib.request

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from test_daemon_api_auth import Served


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path)
    yield s
    s.close()


def get(addr, path):
    try:
        with urllib.request.urlopen(f"http://{addr}{path}", timeout=10) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()


def test_page_and_files_come_from_the_package_only(served):
    code, ctype, html = get(served.addr, "/")
    assert code == 200 and ctype.startswith("text/html")
    html = html.decode()
    refs = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert "/ui/app.js" in refs and "/ui/style.css" in refs
    for ref in refs:          # nothing from the internet
        assert not re.match(r"^(https?:)?//", ref), ref
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        code, ctype, body = get(served.addr, f"/ui/{name}")
        assert code == 200 and ctype.startswith(kind) and body
        assert not re.search(rb"https?://(?!www\.w3\.org/2000/svg)", body), name
    for bad in ("/ui/../api.py", "/ui/%2e%2e/api.py", "/ui/api.py", "/ui/.hidden.js", "/ui/x/app.js",
                "/ui/nothing.js"):
        assert get(served.addr, bad)[0] == 404, bad


def test_schedule_endpoint_is_the_running_schedule(served):
    code, _, body = get(served.addr, "/schedule")
    doc = json.loads(body)
    sched = served.ctl.routes.schedule
    assert code == 200 and doc["peer"] == sched.peer.tolist()
    assert (doc["tors"], doc["uplinks"], doc["slices"]) == (sched.n_tors, sched.n_uplinks, sched.n_slices)
    assert doc["names"][:2] == ["tor0", "tor1"] and doc["names"][2] is None


def test_status_json_is_unchanged(served):
    code, ctype, body = get(served.addr, "/status")
    assert code == 200 and ctype == "application/json" and json.loads(body)["network"] == "test"


def test_clock_timers_say_when_each_switch_was_told_each_slice(served):
    """GET /clock/timers: the timer log the dead-ToR measurement places packets by."""
    ctl = served.ctl
    t = ctl.sclock.next_time()
    for k in range(3):
        assert ctl.tick(t + k * ctl.sclock.period + 1e-6)
    code, _, body = get(served.addr, "/clock/timers")
    doc = json.loads(body)
    assert code == 200 and doc["slice0_at"] == ctl.sclock.t0
    tail = doc["timers"][-3:]
    assert [e[1] for e in tail] == [(tail[0][0] + i) % ctl.sclock.n_slices for i in range(3)]
    assert all(set(e[2]) == {a.name for a in ctl.agents.values() if a.active is not None} for e in tail)
