"""The daemon keeps host flow aging in step (UCMP §6.1): `[hosts] netns` get the nftables
DSCP rules of the source routes' buckets at start, a reload with a new alpha re-applies
them, a bad [hosts] section is refused before anything is written. Real network
namespaces (created and deleted by name here) and real nft; switches are fakes."""

import os
import shutil
import subprocess

import pytest

from controller.daemon.config import ConfigError, load
from controller.daemon.controller import Controller
from controller.daemon.log import EventLog
from controller.host import aging, nft

from daemon_fakes import FakeSwitch, make_backend_for, net_toml, tor_switch

pytestmark = pytest.mark.skipif(shutil.which("nft") is None or os.geteuid() != 0,
                                reason="needs root and nft (apt-get install -y nftables)")


def quiet():
    return EventLog("json", stream=open("/dev/null", "w"))


@pytest.fixture
def two_netns():
    names = [f"urodh{os.getpid() % 100000}{x}" for x in "ab"]
    for n in names:
        subprocess.run(["ip", "netns", "add", n], check=True)
    try:
        yield names
    finally:
        for n in names:
            subprocess.run(["ip", "netns", "delete", n], check=True)


def hosts_section(netns, alpha) -> str:
    return f"[hosts]\nalpha = {alpha}\nnetns = [{', '.join(repr(n).replace(chr(39), chr(34)) for n in netns)}]\n"


def elements(ns: str) -> int:
    doc = nft.installed(ns)
    return [m for m in doc["nftables"] if "map" in m][0]["map"]["elem"]


def test_start_installs_reload_with_new_alpha_reapplies(tmp_path, two_netns):
    sws = {"127.0.0.1:50000": FakeSwitch("tor0")}
    p = net_toml(tmp_path, [tor_switch(0)], extra=hosts_section(two_netns, 0.5))
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=quiet())
    ctl.start()
    try:
        want = aging.rules_for_routes(ctl.routes.source, 0.5)
        first = {ns: elements(ns) for ns in two_netns}
        assert all(len(e) == len(want.intervals) for e in first.values())
        assert ctl.status()["hosts"]["applied"] == sorted(two_netns) and not ctl.status()["hosts"]["errors"]
        # reload with a new alpha: thresholds move in every namespace
        text = p.read_text()
        p.write_text(text.replace("alpha = 0.5", "alpha = 4"))
        res = ctl.reload()
        assert res["ok"] and res["hosts"] == {ns: None for ns in two_netns}
        second = {ns: elements(ns) for ns in two_netns}
        assert second != first
        assert ctl.aging.rules == aging.rules_for_routes(ctl.routes.source, 4.0)
        # a bad alpha is refused: the running rules stay
        p.write_text(text.replace("alpha = 0.5", "alpha = -1"))
        res = ctl.reload()
        assert not res["ok"] and "[hosts]: alpha: must be a positive number" in res["error"]
        assert {ns: elements(ns) for ns in two_netns} == second
        # an unchanged reload writes no host again
        p.write_text(text.replace("alpha = 0.5", "alpha = 4"))
        assert ctl.reload()["hosts"] == {}
    finally:
        ctl.shutdown()


def test_bad_hosts_sections_are_refused(tmp_path, two_netns):
    per_hop_only = 'source_routed = []\n[routing.per_hop]\nalgo = "uro"\nk = 3\nmax_hops = 4'
    p = net_toml(tmp_path, [tor_switch(0)], routing=per_hop_only, extra=hosts_section(two_netns, 0.5))
    with pytest.raises(ConfigError, match=r"\[hosts\]: netns: host flow aging tags flows for source routes"):
        load(p)
    # a namespace that is not there (yet): the switches are programmed, the error is in the status
    p = net_toml(tmp_path, [tor_switch(0)], extra=hosts_section([two_netns[0], "nope-not-here"], 0.5))
    sws = {"127.0.0.1:50000": FakeSwitch("tor0")}
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=quiet())
    ctl.start()
    try:
        st = ctl.status()["hosts"]
        assert st["applied"] == [two_netns[0]]
        assert st["errors"] == {"nope-not-here": "no network namespace 'nope-not-here' (ip netns list shows the "
                                                 "existing ones)"}
    finally:
        ctl.shutdown()
    vlb = 'source_routed = [5]\n[routing.per_hop]\nalgo = "uro"\nk = 3\nmax_hops = 4\n[routing.source]\nalgo = "vlb"'
    p = net_toml(tmp_path, [tor_switch(0)], routing=vlb, extra=hosts_section(two_netns, 0.5))
    ctl = Controller(load(p), backend_for=make_backend_for(sws), log=quiet())
    with pytest.raises(ConfigError, match=r"\[hosts\]: \[routing.source\]: source routes \(vlb\) have no flow-size"):
        ctl.start()
    p = net_toml(tmp_path, [tor_switch(0)], extra="[hosts]\nnetns = [\"a\", \"a\"]\n")
    with pytest.raises(ConfigError, match=r"\[hosts\]: netns: 'a' is listed twice"):
        load(p)


def test_with_workers_the_coordinator_keeps_the_hosts_rules_at_start_and_after_a_failure(tmp_path, two_netns,
                                                                                        monkeypatch):
    """``[daemon] workers`` with ``[hosts] netns``: the switches are owned by 2 worker
    processes, the hosts' namespaces are on the coordinator's host and it keeps their rules,
    as the one-process daemon does: installed at start, and after a cut cable the rules of
    the degraded routes' buckets."""
    pytest.importorskip("dask.distributed", reason="needs the dask extra")
    from pathlib import Path

    import dask

    from controller.daemon.changes import Change
    from controller.daemon.workers import DistributedController
    from remote_fakes import FakeNetwork

    tests = Path(__file__).resolve().parent
    sws = {f"127.0.0.1:{50000 + t}": FakeSwitch(f"tor{t}") for t in range(4)}
    p = net_toml(tmp_path, [tor_switch(t) for t in range(4)],
                 daemon='status = "127.0.0.1:0"\nreconcile_s = 10\nworkers = 2', extra=hosts_section(two_netns, 0.5))
    monkeypatch.setenv("URO_TEST_DIR", str(tests))
    with FakeNetwork(sws), dask.config.set({"distributed.worker.preload": [str(tests / "remote_fakes_preload.py")]}):
        ctl = DistributedController(load(p), backend_for=make_backend_for({}), log=quiet())
        try:
            ctl.start()
            assert len(set(ctl.workers.owner.values())) == 2
            want = aging.rules_for_routes(ctl.routes.source, 0.5)
            assert ctl.status()["hosts"]["applied"] == sorted(two_netns)
            assert all(len(elements(ns)) == len(want.intervals) for ns in two_netns)
            before = {ns: elements(ns) for ns in two_netns}
            ctl.submit(Change("fail", "uplink", (5, 0)))
            ctl.handle_jobs()
            assert ctl.failed.uplinks == frozenset({(5, 0)})
            degraded = aging.rules_for_routes(ctl.routes.source, 0.5)
            assert ctl.aging.rules == degraded
            assert all(len(elements(ns)) == len(degraded.intervals) for ns in two_netns)
            assert degraded != want                           # the cut cable moved the buckets' thresholds
            assert {ns: elements(ns) for ns in two_netns} != before
        finally:
            ctl.shutdown()
