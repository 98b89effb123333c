"""The daemon's live dashboard in a real browser (Debian's chromium +
chromium-driver, driven by selenium) against `uro daemon` on real simple_switch_grpc
switches: the page loads without console errors, shows every switch, its slice
advances, and a failure raised through the API appears on the page within 2 s. The
screenshot in docs/ is taken by this test (URO_DASHBOARD_SHOT=docs/dashboard.png).

And every metric the Grafana dashboard (examples/grafana-uro.json) queries is
in this real daemon's /metrics."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from controller.agent.bmv2_process import free_port
from daemon_util import DaemonProc, SwitchProc, need_daemon_stack, post, status, token_of, until, write_net
from test_daemon_process import programs_of, tor


def _browser(tmp_path: Path):
    webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium: pip install -e '.[browser]'")
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chrome or not driver:
        pytest.skip("needs Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = chrome
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'chromium-profile'}",
              "--window-size=1280,1000"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver, log_output=str(tmp_path / "chromedriver.log")), options=opts)


@pytest.fixture(scope="module")
def daemon_net(tmp_path_factory, artifacts):
    """Two ToRs and the OCS emulator on real bmv2, and `uro daemon` driving them (one
    daemon for this module's tests)."""
    need_daemon_stack()
    tmp_path = tmp_path_factory.mktemp("dashboard-net")
    sws = [SwitchProc(tmp_path, n).start() for n in ("tor0", "tor1", "ocs")]
    port = free_port()
    cfg = write_net(tmp_path / "net.toml", programs_of(artifacts),
                    [tor(0, sws[0]), tor(1, sws[1]), {"name": "ocs", "role": "ocs", "address": sws[2].address}],
                    status_port=port, clock="slice_ms = 200\ncapacity_bytes = 100000000\nbytes_per_us = 0")
    d = DaemonProc(cfg, tmp_path)
    try:
        d.wait_event("api.listening", timeout=120)
        until(lambda: all(s["generation"] is not None for s in status(port)["switches"]), timeout=120,
              what="every switch programmed")
        yield port, cfg
    finally:
        try:
            d.stop()
        finally:          # the switches go also when the daemon's stop fails
            for s in sws:
                s.stop()


def _severe(logs) -> list:
    return [e for e in logs if e.get("level") == "SEVERE"]


#: what the page shows, read in one go (it redraws every poll, so element handles go stale)
SNAPSHOT = """
const q = (s) => [...document.querySelectorAll(s)];
const m = document.getElementById('matrix');
return {
  network: document.getElementById('network').textContent,
  conn: document.getElementById('conn').textContent,
  switches: q('#switches tbody tr').map(r => ({name: r.dataset.switch, state: r.dataset.state,
                                               generation: r.dataset.generation, text: r.textContent})),
  slice: m ? m.dataset.slice : null,
  cells: m ? q('#matrix td[data-tor]').map(td => [+td.dataset.tor, +td.dataset.uplink, td.textContent,
                                                  td.classList.contains('down')]) : [],
  active: q('#active [data-failure]').map(e => e.dataset.failure),
  events: q('#events [data-event]').map(e => e.dataset.event),
};
"""


def test_dashboard_in_chromium(daemon_net, tmp_path):
    import json
    import urllib.request

    port, cfg = daemon_net
    browser = _browser(tmp_path)
    page = lambda: browser.execute_script(SNAPSHOT)  # noqa: E731
    try:
        browser.set_page_load_timeout(30)
        browser.get(f"http://127.0.0.1:{port}/")
        # every switch, with its state and generation, once the first poll is drawn
        until(lambda: len(page()["switches"]) == 3, timeout=10, what="switch rows")
        pg = page()
        assert {s["name"] for s in pg["switches"]} == {"tor0", "tor1", "ocs"}
        assert all(s["state"] == "up" and s["generation"] == "0" for s in pg["switches"]), pg["switches"]
        assert pg["network"] == "bmv2-test" and pg["conn"] == "live"
        # the circuit matrix: 8 ToRs x 2 uplinks, the circuits of the slice it names, and the slice moves
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/schedule", timeout=10) as r:
            peer = json.loads(r.read())["peer"]
        assert len(pg["cells"]) == 8 * 2
        cur = int(pg["slice"])
        assert all(text == (str(peer[cur][t][u]) if peer[cur][t][u] >= 0 else "·") for t, u, text, _ in pg["cells"])
        seen = set()
        end = time.time() + 30
        while time.time() < end and len(seen) < 3:
            seen.add(page()["slice"])
            time.sleep(0.05)
        assert len(seen) >= 3, f"the slice did not advance on the page: {seen}"

        # a failure raised through the API appears on the open page by its own polling (the
        # request returns once handled): no reload -- a mark set in the page survives
        browser.execute_script("window.uroTestMark = 41;")
        rep = post(port, "fail", {"uplink": [1, 0]}, token_of(cfg))
        assert rep["kind"] == "uplink"
        until(lambda: "uplink:1:0" in page()["active"], timeout=30, what="the failure on the page")
        until(lambda: "fail:uplink:1:0" in page()["events"], timeout=30, what="the reaction on the timeline")
        until(lambda: any(t == 1 and u == 0 and down for t, u, _, down in page()["cells"]), timeout=30,
              what="the down uplink in the matrix")
        assert browser.execute_script("return window.uroTestMark;") == 41, "the page was reloaded"
        tor1 = next(s for s in page()["switches"] if s["name"] == "tor1")
        assert tor1["state"] == "up"
        shot = os.environ.get("URO_DASHBOARD_SHOT")
        if shot:
            time.sleep(0.6)
            browser.save_screenshot(shot)
        # nothing went wrong in the page: no console errors, no failed requests
        logs = browser.get_log("browser")
        assert not _severe(logs), _severe(logs)
        assert page()["conn"] == "live"
    finally:
        browser.quit()


def test_grafana_panels_query_metrics_the_daemon_exports(daemon_net):
    import json
    import urllib.request

    from controller.daemon.metrics import exported_names, queried_names
    from daemon_util import REPO

    port, _cfg = daemon_net
    queried = queried_names(json.loads((REPO / "examples" / "grafana-uro.json").read_text()))
    # this network runs the daemon's timer ([clock] mode "timer"): the switches' own clocks
    # are not watched, so the clock panel's series (uro_clock_*, sync mode) are not exported
    clock_series = {q for q in queried if q.startswith("uro_clock_")}
    assert clock_series, "the dashboard has no clock panel"
    queried -= clock_series

    def missing() -> set[str]:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            return queried - exported_names(r.read().decode())
    # the per-switch series (session, generation, entries, the switch's counters) come with
    # the first maintenance pass, which may follow "every switch programmed" by a moment
    # (tens of seconds on a loaded machine): waited for, and what is still missing named
    end = time.monotonic() + 120
    while (gone := missing()) and time.monotonic() < end:
        time.sleep(0.5)
    assert len(queried) >= 20 and not gone, f"queried but not in the daemon's /metrics: {sorted(gone)}"
