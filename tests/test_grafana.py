"""The Grafana dashboard (examples/grafana-uro.json) is a dashboard Grafana imports (panels
with PromQL targets on a Prometheus datasource variable) and covers the timer, writes,
swaps, repairs, drops, failures and reaction times; every metric it queries is in the daemon's /metrics (here on model
switches; on a real daemon over bmv2: bmv2_tests/test_dashboard.py)."""

import json
from pathlib import Path

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from controller.daemon.metrics import Metrics, exported_names, queried_names

DASH = Path(__file__).resolve().parents[1] / "examples" / "grafana-uro.json"


@pytest.fixture(scope="module")
def doc():
    return json.loads(DASH.read_text())


def test_structure(doc):
    assert doc["uid"] and doc["title"] and doc["schemaVersion"] >= 30
    ids = [p["id"] for p in doc["panels"]]
    assert len(ids) == len(set(ids))
    for p in doc["panels"]:
        assert p["datasource"]["uid"] == "${datasource}" and p["targets"], p["title"]
        g = p["gridPos"]
        assert 0 <= g["x"] and g["x"] + g["w"] <= 24
        for t in p["targets"]:
            assert t["expr"].count("(") == t["expr"].count(")"), t["expr"]
    assert {v["name"] for v in doc["templating"]["list"]} == {"datasource", "instance"}


@pytest.mark.parametrize("metric", [
    "uro_timer_spread_seconds_bucket", "uro_timer_lateness_seconds_bucket", "uro_write_seconds_bucket",
    "uro_generation_swaps_total", "uro_reconcile_repairs_total", "uro_switch_restores_total",
    "uro_switch_counter_packets", "uro_failures_total", "uro_failure_dataplane_seconds_bucket",
])
def test_covers_what_the_issue_lists(doc, metric):
    assert metric in queried_names(doc)


def test_drops_are_by_reason_per_switch(doc):
    drops = [t["expr"] for p in doc["panels"] for t in p["targets"] if 'counter="drops"' in t["expr"]]
    assert drops and all("by (switch, cell)" in e for e in drops)


def test_every_queried_metric_is_exported_from_the_start(doc):
    """A fresh daemon's registry (switches known, nothing happened yet) already has every
    series the dashboard queries, so no panel starts as 'no data' for a missing name."""
    m = Metrics()
    for name in ("tor0", "ocs"):
        m.switch_known(name)
    m.set_snapshot({"tor0": {"up": 1, "generation": 0, "entries": 5, "counters": {"drops": {"no_route": 0}}}})
    from controller.daemon.clockwatch import ClockWatch   # sync mode: the clock supervision's first pass

    w = ClockWatch(50_000_000, 4, 5_000_000, 2)
    for name, role in (("tor0", "tor"), ("ocs", "ocs")):
        w.track(name, role, 0 if role == "tor" else None)
        w.registers(name, {"stratum": 2 if role == "tor" else 0}, 0.0)
    w.probe("ocs", 1000, 500, 0.0)
    w.probe("tor0", 2000, 500, 0.0)
    m.set_clocks(w.clocks)
    missing = queried_names(doc) - exported_names(m.render().decode())
    assert not missing, sorted(missing)
