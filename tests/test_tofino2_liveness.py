"""Liveness per circuit in the t2na ToR program, controller side (docs/liveness.md "On
Tofino2"): the contract's liveness (marks, no notices), the ``liveness_config`` entry it
takes, the config check for the programs that have none, and the marks read over BfRt with
the clock reaching the daemon's liveness watch. The packets are tofino_tests/test_b_liveness.py."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace

import pytest

from controller.daemon.config import ConfigError
from controller.daemon.liveness import LivenessWatch
from controller.daemon.plan import check_liveness
from controller.liveness.params import LivenessParams
from controller.p4gen import profile as prof
from controller.p4gen import render
from controller.schedule import round_robin
from controller.tables import liveness as lt

from test_tofino2_bfrt import FakeTable, fake, tiny_t2na  # noqa: F401 (fixtures)


@pytest.fixture(scope="module")
def t2():
    return render.render(prof.load("tiny"), "tor", "tofino2")[1]


def test_the_t2na_contract_has_the_marks_and_no_notices(t2):
    lv = t2["liveness"]
    assert t2["counters"]["liveness"] == {"name": "UroIngress.liveness",
                                          "indices": ["heard", "silent", "wrong_peer", "down", "up"]}
    assert "notices" not in t2["counters"] and "notices" not in lv
    r = lv["registers"]
    assert (r["mark"]["name"], r["mark"]["bits"], r["mark"]["size"]) == ("UroIngress.live_mark", 8, 8)
    assert (r["state"]["name"], r["state"]["size"]) == ("UroIngress.live_reg", 8)
    assert lv["marks"] == {"register": "mark", "down_bit": 1, "wrong_bit": 2}
    params = t2["tables"]["liveness_config"]["actions"]["set_liveness"]["params"]
    assert [(x["name"], x["bitwidth"]) for x in params] == [("down_after", 8), ("expect", 8)]
    assert "liveness_off" not in t2
    r108 = render.render(prof.load("r108x6"), "tor", "tofino2")[1]
    assert r108["tables"]["liveness_config"]["actions"]["set_liveness"]["params"][1]["bitwidth"] == 18 * 6


def test_the_t2na_entry_takes_down_after_and_the_expected_circuits(t2):
    s = round_robin(8, 2)
    e = lt.liveness_config_entry(t2, s, LivenessParams(enabled=True, down_after=4), 3)
    assert e.is_default and e.action == "UroIngress.set_liveness"
    assert dict(e.params) == {"down_after": 4, "expect": lt.expected_circuits(s, 3)}
    assert lt.liveness_config_entry(t2, s, None, 3).action == "UroIngress.liveness_off"


@pytest.mark.parametrize("name, edit, why", [
    ("r1024x32", None, "the packet generator's clock"),
    ("tiny", dict(queues=5), "queues = 5 and slices = 4"),
])
def test_a_t2na_program_without_liveness_says_why_and_the_config_check_refuses_it(name, edit, why, tmp_path):
    p = prof.load(name)
    if edit:
        p = dataclasses.replace(p, **edit)
    c = render.render(p, "tor", "tofino2")[1]
    assert "liveness" not in c and "liveness_config" not in c["tables"] and "liveness" not in c["counters"]
    assert why in c["liveness_off"]
    prog = SimpleNamespace(name="tor", role="tor", contract=c, contract_path=Path(f"tor_{name}_t2na.contract.json"))
    cfg = SimpleNamespace(path=tmp_path / "net.toml", liveness=LivenessParams(True, 3),
                          clock=SimpleNamespace(mode="sync", exchange_every=1), programs={"tor": prog},
                          switches=[SimpleNamespace(program="tor")])
    with pytest.raises(ConfigError) as e:
        check_liveness(cfg, round_robin(8, 2))
    msg = str(e.value)
    assert "[liveness]: enabled, but [program.tor]" in msg and why in msg and "set enabled = false" in msg
    # the tiny program with it passes
    prog.contract = render.render(prof.load("tiny"), "tor", "tofino2")[1]
    check_liveness(cfg, round_robin(8, 2))


def _marks(sw, contract, cells: dict[int, int]) -> None:
    """The fake switch's mark register: cell -> value in pipe 0."""
    name = "pipe." + contract["liveness"]["registers"]["mark"]["name"]
    t = sw.tables.setdefault(name, FakeTable(sw, name))
    field = contract["liveness"]["registers"]["mark"]["name"] + ".f1"
    for i, v in cells.items():
        t.entries[(("$REGISTER_INDEX", i, None, None, None, None),)] = (None, {field: [v, 0, 0, 0]})


def test_the_marks_read_over_bfrt_with_the_clock_reach_the_liveness_watch(fake, tiny_t2na):  # noqa: F811
    """read_clock adds live_mask and live_wrong (bit s * d + u) from the mark register, read
    in one read-all; the daemon's watch takes them as bmv2's: ToR 0 marking both of its
    uplink-1 circuits it has ((0, 1), (1, 1), (2, 1); round robin 8 x 2 leaves it none in
    slice 3) is a cut cable there, a wrong-peer bit is listed as such."""
    b, sw = fake
    pipeline, _ = tiny_t2na
    b.set_pipeline(pipeline)
    c = pipeline.contract
    d = 2
    _marks(sw, c, {0 * d + 1: 1, 1 * d + 1: 1, 2 * d + 1: 3, 2 * d + 0: 2, 3 * d + 0: 0})
    n = len(sw.reads)
    regs = b.read_clock()
    assert regs["live_mask"] == (1 << 1) | (1 << 3) | (1 << 5)
    assert regs["live_wrong"] == (1 << 5) | (1 << 4)
    name = "pipe." + c["liveness"]["registers"]["mark"]["name"]
    assert sw.reads[n:].count((name, "all")) == 1 and not [r for r in sw.reads[n:] if r[0] == name and r[1] != "all"]
    assert "k" in regs and "stratum" in regs                      # the clock's own, as before
    lw = LivenessWatch(round_robin(8, 2))
    v = lw.read({0: regs}, now=1.0)
    assert v.failed.uplinks == frozenset({(0, 1)})
    assert (2, 0, 0) in v.wrong and (2, 0, 1) in v.wrong
