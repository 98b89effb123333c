"""The t2na program through the real Tofino compiler (bf-p4c), and everything the BfRt
backend would write checked against the bfrt.json it produced.

One compile of the tiny profile serves most of the module; the named large profiles are
compiled once each to show they fit one Tofino2 pipe (`benchmarks/bench_tofino2.py` adds
the K variants). Each reuses an accepted build of the same program text by the same
compiler (:func:`compiler.compile_cached`, ``$URO_T2NA_CACHE``; the model suite shares
tiny's), so bf-p4c runs (tiny 1-14 min, r108x6 2-10, r1024x32 5-35 on this machine) only
when the program changed. The builds run in the background from the start of the session
(the ``t2na_build`` marker and fixture, conftest.py at the top of the repository); these
tests run at its end and wait for them."""

from __future__ import annotations

import json

import pytest

from controller.p4gen import profile as prof
from controller.p4gen import render as rnd
from controller.routing.ucmp import UcmpParams
from controller.routing.ucmp import compute as ucmp_compute
from controller.routing.uro import UroParams, compute
from controller.schedule import round_robin
from controller.tofino2 import ssrr
from controller.clock.params import ClockParams
from controller.liveness.params import LivenessParams
from controller.tables import clock as clock_entries
from controller.tables import liveness as liveness_entries
from controller.tables import tor_batch
from controller.tofino2 import compiler, plan, report, settings
from controller.tofino2.bfrt_json import BfrtInfo, BfrtJsonError

pytestmark = [
    pytest.mark.bf_p4c,
    pytest.mark.skipif(compiler.find() is None, reason="bf-p4c not installed (Tofino compiler, see README 'P4 toolchain')"),
]


@pytest.fixture(scope="module")
def tiny_build(tmp_path_factory, t2na_build):
    out = tmp_path_factory.mktemp("t2na_tiny")
    p = prof.load("tiny")
    written = rnd.render_to(p, out, ["tor"], "tofino2")
    p4 = next(f for f in written if f.suffix == ".p4")
    files = written + t2na_build(p4, "tiny")                 # the model suite's build too
    contract = json.loads((out / "tor_tiny_t2na.contract.json").read_text())
    return p, out, files, contract


@pytest.mark.t2na_build("tiny")
def test_tiny_compiles_to_tofino2_artifacts(tiny_build):
    p, out, files, contract = tiny_build
    d = out / "tor_tiny_t2na"
    for f in ("bfrt.json", "pipe/context.json", "pipe/tofino2.bin", "pipe/logs/resources.json", "build.json"):
        assert (d / f).is_file(), f
    info = json.loads((d / "build.json").read_text())
    assert info["seconds"] > 0 and "tofino2" in info["command"]
    BfrtInfo.load(d / "bfrt.json").check_contract(contract)      # every name and width the contract has


@pytest.mark.t2na_build("tiny")
def test_contract_mismatch_is_named(tiny_build):
    _, out, _, contract = tiny_build
    info = BfrtInfo.load(out / "tor_tiny_t2na" / "bfrt.json")
    bad = json.loads(json.dumps(contract))
    bad["tables"]["uro_next_hop"]["keys"][2]["bitwidth"] = 12          # generation, arrival_slice, dst_tor
    with pytest.raises(BfrtJsonError, match=r"pipe.UroIngress.uro_next_hop: key 'dst_tor' is Exact 16 bits in .*"
                                             r"Exact 12 in the contract"):
        info.check_contract(bad)
    bad = json.loads(json.dumps(contract))
    bad["tables"]["ssrr_hops"]["actions"]["write_path_2"]["params"][0]["name"] = "torX"   # tor0, up0-1, slice0-1
    with pytest.raises(BfrtJsonError, match=r"UroEgress.write_path_2: parameter 'torX' is None bits"):
        info.check_contract(bad)


def _schema(path):
    """Independent parse of bfrt.json: {table: (id, {key: (id, width)}, {action: (id, {param: (id, width)})}, {data: id})}."""
    out = {}
    for t in json.loads(path.read_text())["tables"]:
        keys = {k["name"]: (k["id"], k["type"].get("width")) for k in t.get("key", [])}
        acts = {a["name"]: (a["id"], {d["name"]: (d["id"], d["type"].get("width")) for d in a.get("data", [])})
                for a in t.get("action_specs", [])}
        data = {}
        for d in t.get("data", []):
            for s in ([d["singleton"]] if "singleton" in d else d.get("oneof", [])):
                data[s["name"]] = s["id"]
        out[t["name"]] = (t["id"], keys, acts, data)
    return out


def _check_write(schema, info, w):
    tid, keys, acts, data = schema[w.table]
    ids = info.ids(w)
    assert ids["table"] == tid
    for k in w.key:
        kid, width = keys[k.name]
        assert ids["keys"][k.name] == kid
        if width is not None:
            assert 0 <= k.value < 1 << width
            if k.mask is not None:
                assert 0 <= k.mask < 1 << width
    params = acts[w.action][1] if w.action else {}
    if w.action:
        assert ids["action"] == acts[w.action][0]
        assert {n for n, _ in w.data} == set(params)               # every parameter, nothing else
    for n, v in w.data:
        if n in params:
            pid, width = params[n]
            assert ids["data"][n] == pid and 0 <= v < 1 << width
        else:
            assert ids["data"][n] == data[n]


@pytest.mark.t2na_build("tiny")
def test_route_tables_encode_against_the_compilers_bfrt_json(tiny_build):
    """Every table of a full tiny ToR batch (URO per-hop, UCMP source routes on the exact
    tables, host, route mode, bucket, config), of its clock's (sync_peer, clock_config) and its
    liveness's (liveness_config, set_liveness) -> BfRt key/data whose ids, field names and
    widths are the ones bf-p4c wrote."""
    p, out, _, contract = tiny_build
    path = out / "tor_tiny_t2na" / "bfrt.json"
    info, schema = BfrtInfo.load(path), _schema(path)
    sched = round_robin(p.tors, p.uplinks)
    uro = compute(sched, UroParams(k=p.alternatives))
    ucmp = ucmp_compute(sched, UcmpParams())
    b = tor_batch.tor_batch(contract, 3, uro_routes=uro, path_routes=ucmp, source_routed=[5, 6])
    assert b.members == [] and b.groups == []                   # no action selector
    # the clock's static entries (sync mode: sync_peer, then clock_config's default)
    clk = clock_entries.tor_clock_batch(contract, sched, ClockParams(slice_ns=contract["clock"]["slice_ns"]), 3)
    live = liveness_entries.liveness_config_entry(contract, sched, LivenessParams(True, 2), 3)
    seen = set()
    for e in b.entries + clk.entries + [live]:
        w = info.encode_entry(e)
        _check_write(schema, info, w)
        seen.add(w.table)
    for t in contract["tables"].values():
        assert info.full(t["name"]) in seen, t["name"]
    src = {t: [info.encode_entry(e) for e in b.entries if e.table.endswith(t)] for t in ("ssrr_first", "ssrr_hops")}
    keys = {t: {tuple((k.name, k.value) for k in w.key) for w in ws} for t, ws in src.items()}
    assert keys["ssrr_first"] == keys["ssrr_hops"] and keys["ssrr_first"]     # every path in both tables
    assert any(w.table.endswith("ssrr_level") and any(k.name == "bucket" for k in w.key)
               for w in (info.encode_entry(e) for e in b.entries))
    uro_w = [info.encode_entry(e) for e in b.entries if e.table.endswith("uro_next_hop")]
    assert len(uro_w) == (p.tors - 1) * p.slices
    assert all(0 <= dict(w.data)["wait0"] < p.slices for w in uro_w)


@pytest.mark.t2na_build("tiny")
def test_switch_plan_target_tables_encode_against_bfrt_json(tiny_build):
    p, out, _, contract = tiny_build
    path = out / "tor_tiny_t2na" / "bfrt.json"
    info, schema = BfrtInfo.load(path), _schema(path)
    sp = plan.switch_plan(contract, settings.default_port_map(p), p)
    for w in sp.tables:
        _check_write(schema, info, w)
    assert {w.table for w in sp.tables} == {
        "pipe.UroIngress.port_role", "pipe.UroIngress.port_map", "pipe.UroIngress.down_port",
        "pipe.UroIngress.timer_afc", "pipe.UroIngressParser.pktgen_ports", "pipe.UroIngressParser.recirc_ports",
        "pipe.UroIngress.sync_req"}                # the requester: timer packet id -> its uplink's dev port
    # the program's own table sizes hold what the plan writes
    for name, n in (("timer_afc", 2 * p.uplinks * p.queues), ("down_port", p.uplinks * p.queues)):
        assert info.table("UroIngress." + name).size >= n


@pytest.mark.slow
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.t2na_build(n)) for n in ("r108x6", "r1024x32")])
def test_named_large_profiles_fit_one_pipe(name, tmp_path, t2na_build):
    """The named profiles compile into a loadable program within the 20 MAU stages, and the
    compiler's bfrt.json has every name and width of their contract (r1024x32 with its
    `[tofino2]` source-route sizing)."""
    p = prof.load(name)
    p4 = next(f for f in rnd.render_to(p, tmp_path, ["tor"], "tofino2") if f.suffix == ".p4")
    # an accepted build of this very program by this compiler is reused (5-20 min each)
    t2na_build(p4, name)
    d = tmp_path / f"tor_{name}_t2na"
    assert (d / "pipe" / "tofino2.bin").is_file()
    r = report.load(tmp_path)
    assert 0 < r.stages <= 20
    assert r.stateful_alus.used >= p.alternatives + 1          # a queue-state copy per slot
    contract = json.loads((tmp_path / f"tor_{name}_t2na.contract.json").read_text())
    BfrtInfo.load(d / "bfrt.json").check_contract(contract)
    # the exact source-route layout: a group per (generation, destination, start
    # slice) for every destination of the ToR, a path per (group, member) in egress
    sized = p.for_target("tofino2")
    layout = ssrr.layout(sized)
    assert sized.ssrr_dsts == p.tors - 1
    assert contract["tables"]["ssrr_path"]["size"] == layout["path_size"] == 2 * (p.tors - 1) * p.slices
    assert contract["tables"]["ssrr_hops"]["size"] == layout["hops_size"]


@pytest.mark.t2na_build("tiny")
def test_resource_report_reads_the_compiler_logs(tiny_build):
    p, out, _, _ = tiny_build
    r = report.load(out)
    assert 0 < r.stages <= 20 and r.sram.total == 20 * 80 and 0 < r.sram.used < r.sram.total
    assert r.table_sram("uro_next_hop").used >= 1 and r.stateful_alus.used >= p.alternatives + 1
    assert r.phv_bits.used > 0 and r.phv_bits.used < r.phv_bits.total
    text = report.format_report(r, p)
    assert "URO Table II" in text and "UCMP Table 2" in text and "MAU stages" in text
