"""Renderer, profile validation and contract-named entries (no switch, no compiler)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from controller.cli import main
from controller.tables import bulk, entries as ent
from controller.p4gen import profile as prof
from controller.p4gen import render as rnd
from controller.p4gen.profile import Profile, ProfileError
from controller.routing.uro import UroParams, compute
from controller.schedule import round_robin
from strategies import RENDER_MATRIX

ROOT = Path(__file__).resolve().parents[1]


def mk(**kw) -> Profile:
    base = dict(name="t", tors=8, uplinks=2, host_ports=2, slices=4, alternatives=3, ssrr_hops=4, queues=4)
    base.update(kw)
    return Profile(**base)


# ---- rendering matrix ----------------------------------------------------------------
MATRIX = RENDER_MATRIX


@pytest.mark.parametrize("n,d,s,k,h,q", MATRIX)
def test_matrix_renders_with_fitting_widths(n, d, s, k, h, q):
    p = mk(tors=n, uplinks=d, slices=s, alternatives=k, ssrr_hops=h, queues=q)
    text, c = rnd.render(p, "tor")
    assert "{{" not in text and "{%" not in text
    # K alternatives and H hops are in the actions, with contract widths
    sig = re.search(r"action set_alternatives\((.*)\)", text).group(1)
    assert len(re.findall(r"uplink_t up\d+, slice_t slice\d+", sig)) == k
    assert text.count("hdr.hops[") >= 4 * h
    assert f"typedef bit<{d * q}>" in text  # one Full bit per (uplink, queue)
    alts = c["tables"]["uro_next_hop"]["actions"]["set_alternatives"]["params"]
    assert len(alts) == 1 + 2 * k
    for key in c["tables"]["uro_next_hop"]["keys"]:
        need = {"generation": 1, "arrival_slice": s - 1, "dst_tor": n - 1}[key["name"]]
        assert need < (1 << key["bitwidth"])
    assert c["profile"]["uplink_port_base"] == p.host_ports
    if p.ocs_fits:
        t2, c2 = rnd.render(p, "ocs")
        assert f"size = {2 * n * d * s};" in t2       # two generations of circuits
        keys = {k["name"]: k["bitwidth"] for k in c2["tables"]["circuit"]["keys"]}
        assert keys == {"generation": 1, "slice": p.widths.slice, "in_port": 9}


@pytest.mark.p4c
@pytest.mark.skipif(shutil.which("p4c-bm2-ss") is None, reason="p4c-bm2-ss not installed (see README 'P4 toolchain')")
@pytest.mark.parametrize("n,d,s,k,h,q", MATRIX)
def test_matrix_compiles_with_real_p4c(n, d, s, k, h, q, tmp_path):
    """Every profile of the matrix is accepted by the real compiler (v1model JSON + P4Info)."""
    from controller.p4gen import build as p4build

    p = mk(tors=n, uplinks=d, slices=s, alternatives=k, ssrr_hops=h, queues=q)
    files = p4build.build(p, tmp_path, ["tor"])
    info = next(f for f in files if f.name.endswith(".p4info.txtpb")).read_text()
    for short in ("uro_next_hop", "ssrr_path", "host_dst", "route_mode", "config"):
        assert f'name: "UroIngress.{short}"' in info
    js = json.loads(next(f for f in files if f.suffix == ".json" and "contract" not in f.name).read_text())
    assert any(r["name"] == "UroIngress.qstate_reg" and r["bitwidth"] == d * q for r in js["register_arrays"])


def test_big_ocs_is_refused_with_reason():
    p = prof.load("r108x6")
    assert p.programs() == ["tor"]
    with pytest.raises(ProfileError, match=r"OCS emulator needs tors x uplinks = 648 ports"):
        rnd.render(p, "ocs")


@pytest.mark.parametrize("kw,msg", [
    (dict(alternatives=0), r"alternatives must be in 1\.\.10"),
    (dict(queues=3), r"queues = 3 is smaller than the rank range"),
    (dict(tors=300, widths=prof.Widths(tor=8, uplink=8, slice=16)), r"tors = 300 does not fit widths.tor = 8"),
    (dict(widths=prof.Widths(tor=16, uplink=8, slice=4)), r"must be 32"),
    (dict(ssrr_hops=10), r"ssrr_hops must be in 1\.\.9"),
    (dict(uplinks=8), r"uplinks = 8 must be fewer than tors"),
    (dict(slices=300), r"slices = 300 does not fit widths.slice"),
    (dict(tors="8"), r"tors must be an integer"),
    (dict(name="a-b"), r"name must be an identifier"),
    (dict(tables=prof.ProfileTables(ssrr_dsts=8)), r"tables\.ssrr_dsts must be in 1\.\.7 \(the other ToRs\), got 8"),
    (dict(tofino2=prof.Tofino2Overrides(ssrr_dsts=0)), r"tofino2\.ssrr_dsts must be in 1\.\.7"),
    (dict(tofino2=prof.Tofino2Overrides(ssrr_dsts=True)), r"tofino2\.ssrr_dsts must be in 1\.\.7"),
])
def test_bad_profiles_name_the_field(kw, msg):
    with pytest.raises(ProfileError, match=msg):
        mk(**kw)


def test_toml_errors(tmp_path):
    f = tmp_path / "x.toml"
    f.write_text('name = "x"\ntors = 8\nuplinks = 2\nhost_ports = 2\nslices = 4\nalternatives = 3\n'
                 'ssrr_hops = 4\nqueues = 4\nqueus = 5\n')
    with pytest.raises(ProfileError, match=r"unknown key 'queus'"):
        prof.load(f)
    f.write_text('name = "x"\ntors = 8\n')
    with pytest.raises(ProfileError, match=r"missing key 'uplinks'"):
        prof.load(f)
    f.write_text('name = "x"\ntors = 8\nuplinks = 2\nhost_ports = 2\nslices = 4\nalternatives = 3\n'
                 'ssrr_hops = 4\nqueues = 4\n[widths]\nslice_bit = 3\n')
    with pytest.raises(ProfileError, match=r"x.toml: unknown key 'widths.slice_bit' \(known: "):
        prof.load(f)
    f.write_text('name = "x"\ntors = 8\nuplinks = 2\nhost_ports = 2\nslices = 4\nalternatives = 0\n'
                 'ssrr_hops = 4\nqueues = 4\n[widths]\ntor = 16\n')
    with pytest.raises(ProfileError, match=r"x.toml: profile 'x': alternatives must be"):
        prof.load(f)
    with pytest.raises(ProfileError, match=r"unknown profile 'nope'"):
        prof.load("nope")


def test_named_profiles_load():
    names = prof.available()
    assert {"tiny", "r108x6", "r1024x32"} <= set(names)
    for n in names:
        p = prof.load(n)
        assert p.name == n


def test_p4src_is_current():
    """The committed p4src/ equals what the templates render now (run `make p4src`)."""
    for name in ("tiny", "r108x6", "r1024x32"):
        p = prof.load(name)
        for program in p.programs():
            text, c = rnd.render(p, program)
            base = ROOT / "p4src" / rnd.output_name(p, program)
            assert base.with_suffix(".p4").read_text() == text, f"{base}.p4 is stale: run make p4src"
            assert json.loads(base.with_suffix(".contract.json").read_text()) == json.loads(json.dumps(c)), \
                f"{base}.contract.json is stale: run make p4src"


def test_cli_render_and_build_without_compiler(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", "/nonexistent")
    rc = main(["p4", "build", "--profile", "tiny", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert rc == 2 and "p4c-bm2-ss not found on PATH" in err
    assert (tmp_path / "tor_tiny.p4").exists() and (tmp_path / "ocs_tiny.contract.json").exists()
    assert not (tmp_path / "tor_tiny.json").exists()


def test_cli_bad_profile_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\ntors = 8\nuplinks = 2\nhost_ports = 2\nslices = 4\nalternatives = 3\n'
                   'ssrr_hops = 4\nqueues = 2\n')
    rc = main(["p4", "render", "--profile", str(bad), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "queues = 2" in err
    assert not (tmp_path / "o").exists()


# ---- entries ---------------------------------------------------------------------------
def test_uro_routes_to_contract_entries():
    p = prof.load("tiny")
    _, c = rnd.render(p, "tor")
    routes = compute(round_robin(8, 2), UroParams(k=3))
    es = bulk.uro_entries(c, routes, tor=0)
    assert len(es) == 7 * 4  # (N-1) x S
    e = es[0]
    assert e.table == "UroIngress.uro_next_hop" and e.action == "UroIngress.set_alternatives"
    keys = dict(e.match)
    params = dict(e.params)
    from controller.tables import perhop
    ref = next(x for x in perhop.entries(routes, 0) if x.dst == keys["dst_tor"] and x.slice == keys["arrival_slice"])
    assert params["n"] == len(ref.alternatives)
    assert (params["up0"], params["slice0"]) == (ref.alternatives[0].uplink, ref.alternatives[0].dep_slice)


def test_entry_errors_name_the_field():
    _, c = rnd.render(prof.load("tiny"), "tor")
    with pytest.raises(ent.EntryError, match=r"alternative 0 \(uplink 300, slice 1\) is outside 2 uplinks x 4 slices"):
        ent.uro_entry(c, 0, 1, [(300, 1)])
    with pytest.raises(ent.EntryError, match=r"UroIngress.route_mode: key generation = 2 does not fit 1 bits|generation must be 0 or 1"):
        ent.route_mode_entry(c, 3, True, generation=2)
    with pytest.raises(ent.EntryError, match=r"4 alternatives, the profile holds 1..3"):
        ent.uro_entry(c, 0, 1, [(0, 1)] * 4)
    with pytest.raises(ent.EntryError, match=r"key dst_tor = 70000 does not fit 16 bits"):
        ent.route_mode_entry(c, 70000, True)
    routes = compute(round_robin(10, 2), UroParams(k=2))
    with pytest.raises(ent.EntryError, match=r"do not fit profile 'tiny'"):
        bulk.uro_entries(c, routes, 0)


def test_ssrr_group_and_circuits():
    p = prof.load("tiny")
    _, c = rnd.render(p, "tor")
    b = ent.ssrr_group(c, dst_tor=5, start_slice=1, bucket=2, paths=[[(3, 0, 1), (5, 1, 2)], [(4, 1, 1), (5, 0, 3)]],
                       group_id=7, first_member_id=100)
    assert [m.member_id for m in b.members] == [100, 101]
    assert b.groups[0].member_ids == (100, 101) and b.entries[0].group_id == 7
    assert dict(b.members[0].params)["n"] == 2 and dict(b.members[1].params)["tor1"] == 5
    _, oc = rnd.render(p, "ocs")
    sched = round_robin(8, 2)
    cs = ent.circuit_entries(oc, sched)
    assert len(cs) == int((sched.peer >= 0).sum())  # one entry per live circuit end
    for e in cs:
        m, prm = dict(e.match), dict(e.params)
        a, u = divmod(m["in_port"], 2)
        assert sched.peer[m["slice"], a, u] * 2 + u == prm["port"]


def test_tor_batch_from_ucmp_and_uro_routes():
    """One ToR's batch: every UCMP entry becomes a selector group over its tied paths with
    its bucket range, URO entries carry the first K alternatives, the address plan maps
    every other ToR's /24 to that ToR."""
    from controller.tables import source as source_tables
    from controller.tables.tor_batch import host_ip, tor_batch
    from controller.routing import ucmp

    p = prof.load("tiny")
    c = rnd.contract(p, "tor")
    sched = round_robin(8, 2)
    uro = compute(sched, UroParams(k=3, max_hops=4))
    paths = ucmp.compute(sched, ucmp.UcmpParams(h_max=4))
    b = tor_batch(c, 2, uro_routes=uro, path_routes=paths, source_routed=[1, 5])
    # SSRR paths only for the source-routed destinations (the others never look them up)
    src = [e for e in source_tables.entries(paths, 2) if e.dst in (1, 5)]
    assert src and len(src) < len(list(source_tables.entries(paths, 2)))
    assert {dict(e.match)["dst_tor"] for e in b.entries if e.table == "UroIngress.ssrr_path"} == {1, 5}
    assert len(b.groups) == len(src)
    assert len(b.members) == sum(len(e.paths) for e in src)
    sel = [e for e in b.entries if e.table == "UroIngress.ssrr_path"]
    assert [dict(e.match)["bucket"] for e in sel] == [e.buckets for e in src]
    assert all(e.priority == 1 and e.group_id is not None for e in sel)
    assert sum(e.table == "UroIngress.ssrr_bucket" for e in b.entries) == 64
    modes = {dict(e.match)["dst_tor"]: e.action for e in b.entries if e.table == "UroIngress.route_mode"}
    assert modes == {1: "UroIngress.source_route", 5: "UroIngress.source_route"}
    hosts = {dict(e.match)["dst_addr"]: dict(e.params) for e in b.entries if e.table == "UroIngress.host_dst"}
    import ipaddress

    ip5 = int(ipaddress.IPv4Address(host_ip(5, 0))) & ~0xFF
    assert hosts[(ip5, 24)] == {"tor": 5}
    assert hosts[(int(ipaddress.IPv4Address(host_ip(2, 1))), 32)] == {"port": 1}
    assert sum(e.table == "UroIngress.uro_next_hop" for e in b.entries) == 7 * 4
    with pytest.raises(ent.EntryError, match="no path routes"):
        tor_batch(c, 2, uro_routes=uro, source_routed=[1])
    with pytest.raises(ent.EntryError, match="ToR 9"):
        tor_batch(c, 9)


def test_only_source_routed_destinations_get_ssrr_paths():
    """route_entries writes SSRR path entries, selector groups and members for the
    source-routed destinations only, exactly those of the whole set restricted to them;
    none at all when nothing is source-routed (before, every destination's paths were
    written and took selector room the data plane never looks up)."""
    from controller.routing import ucmp
    from controller.tables import tor_batch as tb

    c = rnd.contract(prof.load("tiny"), "tor")
    paths = ucmp.compute(round_robin(8, 2), ucmp.UcmpParams(h_max=4))
    table = c["tables"]["ssrr_path"]["name"]

    def ssrr(b):
        members = {m.member_id: m.params for m in b.members}
        groups = {g.group_id: g.member_ids for g in b.groups}
        return sorted((dict(e.match)["dst_tor"], dict(e.match)["start_slice"], dict(e.match)["bucket"],
                       tuple(sorted(members[m] for m in groups[e.group_id])))
                      for e in b.entries if e.table == table)

    none = tb.route_entries(c, 3, path_routes=paths, source_routed=[])
    assert not none.members and not none.groups and not none.entries
    every = tb.route_entries(c, 3, path_routes=paths, source_routed=[d for d in range(8) if d != 3])
    some = tb.route_entries(c, 3, path_routes=paths, source_routed=[6, 1], generation=1)
    assert {x[0] for x in ssrr(every)} == {0, 1, 2, 4, 5, 6, 7}
    assert ssrr(some) == [x for x in ssrr(every) if x[0] in (1, 6)]
    # ids of generation 1 (bit 31), unique; content-stable, not numbered (docs/daemon.md "Diff-only writes")
    assert all(m.member_id >> 31 == 1 for m in some.members)
    assert len({m.member_id for m in some.members}) == len(some.members)
    used = {m for g in some.groups for m in g.member_ids}
    assert used == {m.member_id for m in some.members}                # no member without its group
    modes = {dict(e.match)["dst_tor"] for e in some.entries if e.table == c["tables"]["route_mode"]["name"]}
    assert modes == {1, 6}


def test_range_key_is_encoded_for_p4runtime():
    pytest.importorskip("finsy.proto", reason="needs the agent extra")
    from finsy.proto import p4i as p4info_pb2

    from controller.agent.p4runtime import P4Info

    info = p4info_pb2.P4Info()
    t = info.tables.add()
    t.preamble.id, t.preamble.name = 1, "UroIngress.ssrr_path"
    mf = t.match_fields.add(id=1, name="bucket", bitwidth=8, match_type=p4info_pb2.MatchField.RANGE)
    assert mf.name == "bucket"
    pi = P4Info(info)
    msg = pi.table_entry(ent.TableEntry("UroIngress.ssrr_path", (("bucket", (3, 9)),), None, (), False, 7, 1))
    assert (msg.match[0].range.low, msg.match[0].range.high, msg.priority) == (b"\x03", b"\x09", 1)
    assert msg.action.action_profile_group_id == 7
    full = pi.table_entry(ent.TableEntry("UroIngress.ssrr_path", (("bucket", (0, 255)),), None, (), False, 7, 1))
    assert len(full.match) == 0          # the whole range is the don't-care


# ---- derived values checked against their fields; bad profile files ----------------------
@pytest.mark.parametrize("kw,msg", [
    (dict(queues=4096), r"queues must be in 1\.\.256 \(the slice clock shifts queue indices by at most 8 bits\), got 4096"),
    (dict(queues=100000), r"queues must be in 1\.\.256"),
    (dict(slices=300, queues=300, widths=prof.Widths(tor=8, uplink=8, slice=16)), r"queues must be in 1\.\.256"),
    (dict(slices=70000, queues=4, widths=prof.Widths(tor=8, uplink=4, slice=20)),
     r"slices = 70000 does not fit the 16-bit slice field of a timer packet"),
    (dict(timing=prof.ProfileTiming(slice_us=1e300)),
     r"timing.slice_us = 1e\+300, guard_us = 0.01, link_gbps = 100.0 give a slice capacity of \d+ bytes, which does "
     r"not fit the 32-bit capacity_bytes parameter"),
    (dict(timing=prof.ProfileTiming(slice_us=0.010001, guard_us=0.01, link_gbps=1.0)),
     r"give a slice capacity of 0 bytes"),
    (dict(timing=prof.ProfileTiming(link_gbps=1e12)), r"timing.link_gbps = 1000000000000.0 gives \d+ bytes/us"),
    (dict(timing=prof.ProfileTiming(slice_us="2")), r"timing.slice_us must be a positive finite number, got '2'"),
    (dict(timing=prof.ProfileTiming(link_gbps=float("inf"))), r"timing.link_gbps must be a positive finite number, got inf"),
    (dict(timing=prof.ProfileTiming(guard_us=float("nan"))), r"timing.guard_us must be a number in \[0, slice_us\)"),
    (dict(bucket_bits=4), r"bucket_bits must be in 6\.\.16 \(the DSCP -> bucket map writes buckets 0\.\.63\)"),
    (dict(max_reroutes=300), r"max_reroutes must be in 1\.\.255"),
    (dict(tables=prof.ProfileTables(ssrr_ranges=0)), r"tables.ssrr_ranges must be a positive integer, got 0"),
    (dict(tables=prof.ProfileTables(ssrr_ties=True)), r"tables.ssrr_ties must be a positive integer, got True"),
    (dict(uplinks=64, queues=128, slices=100, tors=6400),
     r"uplinks x queues = 64 x 128 = 8192 Full/Unfull bits exceed the 4096-bit queue-state register"),
])
def test_derived_values_are_checked_against_their_fields(kw, msg):
    with pytest.raises(ProfileError, match=msg):
        mk(**kw)


def test_every_named_profile_fits_its_fields():
    for name in prof.available():
        p = prof.load(name)
        assert 1 <= p.slice_capacity_bytes < 1 << 32 and 1 <= p.link_bytes_per_us < 1 << 32
        assert p.qstate_bits <= prof.MAX_QSTATE_BITS and p.queues <= prof.MAX_QUEUES
        assert 1 <= p.default_max_timer_step < max(2, p.slices)


def _profile_text(**over) -> str:
    base = {"name": '"x"', "tors": "8", "uplinks": "2", "host_ports": "2", "slices": "4", "alternatives": "3",
            "ssrr_hops": "4", "queues": "4"}
    timing = over.pop("timing", None)
    base.update(over)
    text = "".join(f"{k} = {v}\n" for k, v in base.items())
    return text + (f"[timing]\n{timing}\n" if timing else "")


@pytest.mark.parametrize("what,make,msg", [
    ("binary", lambda f: f.write_bytes(open("/bin/sh", "rb").read()[:512]), r"not a text file|not valid TOML"),
    ("not UTF-8", lambda f: f.write_bytes(b'name = "\xff\xfe"\n'), r"not a text file \(byte \d+ is not UTF-8\)"),
    ("a directory", lambda f: f.mkdir(), r"is a directory, not a TOML file"),
    ("slice_us as a string", lambda f: f.write_text(_profile_text(timing='slice_us = "2"')),
     r"timing.slice_us must be a positive finite number, got '2'"),
    ("link_gbps = inf", lambda f: f.write_text(_profile_text(timing="link_gbps = inf")),
     r"timing.link_gbps must be a positive finite number, got inf"),
    ("queues = 100000", lambda f: f.write_text(_profile_text(queues="100000")), r"queues must be in 1\.\.256"),
    ("slice_us = 1e300", lambda f: f.write_text(_profile_text(timing="slice_us = 1e300")),
     r"does not fit the 32-bit capacity_bytes parameter"),
    ("[tables] not a table", lambda f: f.write_text(_profile_text(tables="3")), r"\[tables\] must be a table"),
])
def test_bad_profile_files_are_one_line_exit_2_nothing_written(tmp_path, capsys, what, make, msg):
    f = tmp_path / "bad.toml"
    make(f)
    out = tmp_path / "out"
    rc = main(["p4", "render", "--profile", str(f), "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2, what
    assert err.count("\n") == 1 and err.startswith("uro: error: "), err
    assert re.search(msg, err), err
    assert not out.exists()


# ---- the control-plane API the daemon composes (controller.tables.tor_batch) -----------------
def test_config_entry_and_generations():
    from controller.tables import tor_batch as tb

    c = rnd.contract(prof.load("tiny"), "tor")
    e = tb.config_entry(c, 3, 1, down_uplinks=(1,), capacity_bytes=5000)
    assert e.is_default and e.action == "UroIngress.set_config"
    assert dict(e.params) == {"my_tor": 3, "generation": 1, "live": 0b10, "down": 0b10, "dead": 0,
                              "capacity_bytes": 5000, "bytes_per_us": 12500, "max_timer_step": 1}
    # a dead ToR: (slice, uplink) -> bit slice x d + uplink
    assert dict(tb.config_entry(c, 3, 1, dead_slots=[(0, 1), (3, 0)]).params)["dead"] == (1 << 1) | (1 << 6)
    with pytest.raises(ent.EntryError, match=r"dead slot \(slice 4, uplink 0\) is not in profile 'tiny'"):
        tb.config_entry(c, 3, 1, dead_slots=[(4, 0)])
    assert dict(tb.config_entry(c, 3, 1, live=[0, 1]).params)["live"] == 0b11
    with pytest.raises(ent.EntryError, match=r"live generations 1 must be a 2-bit mask that includes the stamped "
                                             r"generation 1"):
        tb.config_entry(c, 3, 1, live=[0])
    with pytest.raises(ent.EntryError, match=r"down uplink 2 is not an uplink of profile 'tiny' \(0\.\.1\)"):
        tb.config_entry(c, 3, 0, down_uplinks=(2,))
    with pytest.raises(ent.EntryError, match=r"ToR 8 is not in profile 'tiny'"):
        tb.config_entry(c, 8, 0)
    with pytest.raises(ent.EntryError, match=r"generation must be 0 or 1, got 2"):
        tb.config_entry(c, 3, 2)
    with pytest.raises(ent.EntryError, match=r"max_timer_step = 4 out of 1\.\.3"):
        tb.config_entry(c, 3, 0, max_timer_step=4)
    # the two generations' member and group ids never collide
    from controller.routing import ucmp

    paths = ucmp.compute(round_robin(8, 2), ucmp.UcmpParams(h_max=4))
    b0 = tb.route_entries(c, 3, path_routes=paths, source_routed=[1, 2], generation=0)
    b1 = tb.route_entries(c, 3, path_routes=paths, source_routed=[1, 2], generation=1)
    ids0 = {m.member_id for m in b0.members} | {g.group_id for g in b0.groups}
    ids1 = {m.member_id for m in b1.members} | {g.group_id for g in b1.groups}
    assert ids0 and not ids0 & ids1 and all(i >> 31 == 1 for i in ids1) and all(i >> 31 == 0 for i in ids0)
    assert {dict(e.match)["generation"] for e in b1.entries} == {1}
    # tor_batch = static + routes + config last
    full = tb.tor_batch(c, 3, path_routes=paths, source_routed=[1, 2], generation=1)
    assert full.entries[-1].is_default and dict(full.entries[-1].params)["generation"] == 1
    assert len(full.entries) == len(tb.static_entries(c, 3).entries) + len(b1.entries) + 1
    oc = rnd.contract(prof.load("tiny"), "ocs")
    ob = tb.ocs_batch(oc, round_robin(8, 2), generation=1)
    assert dict(ob.entries[-1].params) == {"generation": 1, "max_timer_step": 1}
    assert {dict(e.match)["generation"] for e in ob.entries[:-1]} == {1}


def test_timer_frame_format():
    from controller.errors import UroError
    from controller.p4gen.timer import timer_frame, timer_metadata

    c = rnd.contract(prof.load("tiny"), "tor")
    f = timer_frame(c, 3, sync=True)
    assert len(f) == 60 and f[12:14] == b"\x88\xb5" and f[14:18] == b"\x00\x03\x00\x01"
    assert timer_frame(c, 2)[14:18] == b"\x00\x02\x00\x00"
    assert timer_metadata(c) == {"opcode": 0}
    with pytest.raises(UroError, match=r"timer slice 4 out of 0\.\.3"):
        timer_frame(c, 4)
