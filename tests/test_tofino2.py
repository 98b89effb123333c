"""Tofino2 (t2na) target without a switch or compiler: AFC words, the pktgen timer plan, the
TM queue rotation, port maps, the switch plan, profile limits, rendering, the BfRt backend
up to the gRPC call (URO §IV-B/C, UCMP §6, FRANCIS §4.3)."""

from __future__ import annotations

import dataclasses
import json
import re
import sys

import pytest

from controller.agent import backend as be
from controller.agent import bfrt as bfrt_backend
from controller.cli import main
from controller.p4gen import profile as prof
from controller.p4gen import render as rnd
from controller.p4gen.profile import Profile, ProfileError
from controller.tables import bulk, entries as ent
from controller.tofino2 import afc, chip, pktgen, plan, settings, tm
from controller.tofino2.bfrt_json import BfrtInfo, BfrtJsonError
from strategies import RENDER_MATRIX

T = "tofino2"


def mk(**kw) -> Profile:
    base = dict(name="t", tors=8, uplinks=2, host_ports=2, slices=4, alternatives=3, ssrr_hops=4, queues=4)
    base.update(kw)
    return Profile(**base)


# ---- AFC words: hand-computed --------------------------------------------------------------
@pytest.mark.parametrize("dev_port,qid,pause,word", [
    # dev 8: pipe 0, port group 1, channel 0 -> pg_queue 3; 1<<31 | 1<<25 | 3<<15 | 1
    (8, 3, True, 0x82018001),
    # dev 136: pipe 1, local 8 -> pg 1, ch 0; queue 5 resumed: 1<<31 | 1<<29 | 1<<25 | 5<<15
    (136, 5, False, 0xA2028000),
    # dev 300: pipe 2, local 44 -> pg 5, ch 4 -> pg_queue 4*16+7 = 71; 1<<31 | 2<<29 | 5<<25 | 71<<15 | 1
    (300, 7, True, 0xCA238001),
    # dev 511: pipe 3, local 127 -> pg 15, ch 7 -> pg_queue 127
    (511, 15, True, 0xFE3F8001),
    # dev 10: pipe 0, pg 1, ch 2 -> pg_queue 32; resume
    (10, 0, False, 0x82100000),
])
def test_afc_word_matches_hand_computed(dev_port, qid, pause, word):
    w = afc.port_word(dev_port, afc.default_pg_queue(dev_port, qid), pause)
    assert w == word
    f = afc.decode(w)
    assert f == {"afc": 1, "pipe": dev_port >> 7, "pg_id": (dev_port & 0x7F) >> 3, "pad": 0,
                 "pg_queue": (dev_port % 8) * 16 + qid, "credit": 1 if pause else 0}


def test_afc_word_errors_name_the_field():
    with pytest.raises(afc.AfcError, match=r"queue 16 of port 8 is beyond the default carving of 16"):
        afc.default_pg_queue(8, 16)
    with pytest.raises(afc.AfcError, match=r"physical queue 128 out of range"):
        afc.afc_word(0, 1, 128, True)
    with pytest.raises(afc.AfcError, match=r"pipe 4 out of range"):
        afc.afc_word(4, 1, 0, True)


# ---- the queue rotation across a cycle ---------------------------------------------------
def _simulate(qp: tm.QueuePlan, ticks: int):
    """Apply the timer's AFC words in order; return per tick the set of resumed queues per uplink."""
    by_word = {}
    for u, port in enumerate(qp.uplink_ports):
        for q in range(qp.queues):
            by_word[qp.word(u, q, True)] = (u, q, "pause")
            by_word[qp.word(u, q, False)] = (u, q, "resume")
    running = {u: {0} for u in range(len(qp.uplink_ports))}        # start: queue 0 active
    out = []
    for words in tm.rotation(qp, ticks):
        assert len(words) == 2 * len(qp.uplink_ports)              # one AFC word per packet
        for w in words:
            u, q, what = by_word[w]
            (running[u].discard if what == "pause" else running[u].add)(q)
        out.append({u: frozenset(s) for u, s in running.items()})
    return out


@pytest.mark.parametrize("queues,slices", [(4, 4), (6, 4), (32, 32), (40, 32)])
def test_rotation_resumes_one_queue_per_slice_on_every_uplink(queues, slices):
    qp = tm.plan_queues(queues, [8, 9 if queues <= 16 else 16])
    states = _simulate(qp, 3 * slices)
    for tick, st in enumerate(states, start=1):
        for u, running in st.items():
            assert running == {tick % queues}, (tick, u, running)
    # with Q = S the queue of slice s is s in every cycle; with Q > S it moves on by S each cycle
    first_cycle = [states[t][0] for t in range(slices)]
    second_cycle = [states[t + slices][0] for t in range(slices)]
    if queues == slices:
        assert first_cycle == second_cycle
    else:
        assert first_cycle != second_cycle
        assert [next(iter(s)) for s in second_cycle] == [(t + 1 + slices) % queues for t in range(slices)]


def test_rotation_words_for_q_equals_s_hand_checked():
    qp = tm.plan_queues(4, [8, 9])                  # one port group: 4 + 4 queues, pg_queue 0..3 and 4..7
    assert qp.groups[0].queue_counts == (4, 4)
    assert [qp.pg_queue(1, q) for q in range(4)] == [4, 5, 6, 7]
    words = tm.rotation(qp, 1)[0]                   # tick to active 1: pause 0 and 4, resume 1 and 5
    assert words == [0x82000001, 0x82020001, 0x82008000, 0x8202_8000]


def test_queue_plan_refuses_a_full_port_group():
    with pytest.raises(tm.QueuePlanError, match=r"port group 1 of pipe 0 needs 160 queues"):
        tm.plan_queues(32, [8, 9, 10, 11, 12])
    with pytest.raises(tm.QueuePlanError, match=r"at most 128 queues"):
        tm.plan_queues(129, [8])
    qp = tm.plan_queues(4, [8], actual={(8, q): 20 + q for q in range(4)})
    assert qp.pg_queue(0, 2) == 22                  # the switch's read-back wins


# ---- pktgen timer plan -------------------------------------------------------------------
@pytest.mark.parametrize("slice_us,guard_us,d,gbps,dark,ibg,cap", [
    # a generated frame is pkt_len 60 + 6-byte pktgen header + 4-byte FCS = 70 bytes (F2/F15):
    # packet time (70 + 20) * 8 / 100 = 7.2 ns; ibg = ceil(max(guard, 7.2) - 7.2); dark = d * 7.2 + ibg;
    # the capacity is what the slice leaves after one tick (the clock acts up to a trigger late)
    # and the dark time: 8 ticks of 250 ns per 2 us slice, 4 of 500 ns with 32 uplinks
    (2.0, 0.01, 6, 100.0, 6 * 7.2 + 3, 3, int((2000 - 250 - 46.2) * 100 / 8)),
    (50.0, 0.2, 6, 100.0, 6 * 7.2 + 193, 193, int((50000 - 6250 - 236.2) * 100 / 8)),
    (2.0, 0.01, 32, 400.0, 32 * 7.2 + 3, 3, int((2000 - 500 - 233.4) * 400 / 8)),
    (1.0, 0.0, 2, 100.0, 2 * 7.2, 0, int((1000 - 125 - 14.4) * 100 / 8)),
])
def test_timer_plan(slice_us, guard_us, d, gbps, dark, ibg, cap):
    p = pktgen.timer_plan(slice_us, guard_us, d, gbps)
    assert p.period_ns == round(slice_us * 1000)
    assert (p.batches, p.packets_per_batch, p.ipg_ns) == (2, d, 0)
    assert p.dark_ns == pytest.approx(dark)
    assert p.ibg_ns == ibg
    assert p.capacity_bytes == cap
    cfg = pktgen.timer_app_config(p, source_port=6)
    # the generator fires `ticks` times per slice: a whole number of ns each, no shorter than
    # a trigger's two batches, at most MAX_TICKS
    assert p.period_ns % p.ticks == 0 and p.tick_ns == p.period_ns // p.ticks >= p.busy_ns
    assert p.ticks == max(m for m in range(1, pktgen.MAX_TICKS + 1)
                          if p.period_ns % m == 0 and p.period_ns // m >= p.busy_ns)
    assert (cfg["timer_nanosec"], cfg["batch_count_cfg"], cfg["packets_per_batch_cfg"], cfg["ibg"]) == \
        (p.tick_ns, 1, d - 1, ibg)
    assert cfg["pkt_len"] == 60 and cfg["app_enable"] is False     # Tofino2 refuses pkt_len < 59
    # what the grid costs: 2 x d frames of (70 + 20) bytes per trigger
    assert p.generator_gbps == pytest.approx(2 * d * 90 * 8 / p.tick_ns)


@pytest.mark.parametrize("slice_us,d,gbps,ticks,tick_ns", [
    (2.0, 2, 100.0, 8, 250),        # tiny: a trigger every 250 ns (31.6 ns of batches)
    (2.0, 6, 100.0, 8, 250),        # r108x6
    (2.0, 32, 400.0, 4, 500),       # r1024x32: 2 x 32 packets + guard = 463.6 ns, so 4 per slice
    (20.003, 2, 100.0, 83, 241),    # 20003 ns = 83 x 241: no divisor up to 8, the fewest above
])
def test_timer_ticks_per_slice(slice_us, d, gbps, ticks, tick_ns):
    p = pktgen.timer_plan(slice_us, 0.01, d, gbps)
    assert (p.ticks, p.tick_ns) == (ticks, tick_ns)
    assert p.as_dict()["ticks"] == ticks and p.as_dict()["tick_ns"] == tick_ns


def test_timer_ticks_override_is_checked():
    assert pktgen.timer_plan(2.0, 0.01, 2, 100.0, ticks=20).tick_ns == 100
    with pytest.raises(pktgen.TimerPlanError, match=r"clock_ticks = 3: .* must divide the 2000 ns slice"):
        pktgen.timer_plan(2.0, 0.01, 2, 100.0, ticks=3)
    with pytest.raises(pktgen.TimerPlanError, match=r"clock_ticks = 8: a trigger every 250 ns is shorter than its "
                                                     r"two batches take \(463.\d ns"):
        pktgen.timer_plan(2.0, 0.01, 32, 400.0, ticks=8)
    for bad in (0, -1, True, 2.5):
        with pytest.raises(pktgen.TimerPlanError, match="clock_ticks"):
            pktgen.timer_plan(2.0, 0.01, 2, 100.0, ticks=bad)
    # one trigger per slice: a boundary acted on up to a whole slice late leaves nothing
    with pytest.raises(pktgen.TimerPlanError, match=r"slice of 2000 ns leaves -17.\d ns per uplink after the 17.\d ns "
                                                     r"guard band and the 2000 ns the clock may act late"):
        pktgen.timer_plan(2.0, 0.01, 2, 100.0, ticks=1)


@pytest.mark.parametrize("slice_us,guard_us,d,gbps,dark,cap", [
    # the generator's clock: one trigger per slice, acted on at once, so a queue's slice is
    # what the guard band leaves (no tick of lateness)
    (2.0, 0.01, 6, 100.0, 6 * 7.2 + 3, int((2000 - 46.2) * 100 / 8)),
    (2.0, 0.01, 32, 400.0, 32 * 7.2 + 3, int((2000 - 233.4) * 400 / 8)),
])
def test_timer_plan_of_the_generators_clock(slice_us, guard_us, d, gbps, dark, cap):
    p = pktgen.timer_plan(slice_us, guard_us, d, gbps, corrected=False)
    assert (p.ticks, p.tick_ns, p.capacity_bytes) == (1, p.period_ns, cap)
    assert p.dark_ns == pytest.approx(dark)
    assert pktgen.timer_app_config(p, source_port=6)["timer_nanosec"] == p.period_ns
    with pytest.raises(pktgen.TimerPlanError, match=r"clock_ticks = 4: the generator's clock ticks at every "
                                                     r"trigger, once per slice"):
        pktgen.timer_plan(slice_us, guard_us, d, gbps, ticks=4, corrected=False)


def test_slice_clock_is_the_profiles_explicit_choice():
    """r1024x32 keeps the generator's clock (the corrected one needs a 21st stage there): its
    program has no clock registers for the control plane, the others keep the corrected one."""
    r = prof.load("r1024x32")
    assert r.tofino2.slice_clock == "generator"
    c = rnd.render(r, "tor", "tofino2")[1]
    assert c["clock"]["slice_clock"] == "generator" and "registers" not in c["clock"]
    assert c["target_state"]["timer"]["ticks"] == 1 and c["target_state"]["registers"]["slice"].endswith("slice_reg")
    t = rnd.render(prof.load("tiny"), "tor", "tofino2")[1]
    assert t["clock"]["slice_clock"] == "corrected" and {"next", "slice", "k", "len", "now"} <= set(t["clock"]["registers"])
    # the exchange's tree: the stratum and its last correction, one register pair in egress
    regs = t["clock"]["registers"]
    assert (regs["stratum"]["name"], regs["stratum"]["field"], regs["last_k"]["name"], regs["last_k"]["field"]) == \
        ("UroEgress.stratum_reg", "stratum", "UroEgress.stratum_reg", "last_k")
    tiny = prof.load("tiny")
    with pytest.raises(prof.ProfileError, match="tofino2.slice_clock must be one of 'corrected', 'generator', "
                                                "got 'atomic'"):
        dataclasses.replace(tiny, tofino2=dataclasses.replace(tiny.tofino2, slice_clock="atomic"))


def test_timer_plan_refuses_slices_the_generator_cannot_serve():
    # 32 uplinks: 2 x 32 timer packets of 6.72 ns + guard = 433 ns > 400 ns
    with pytest.raises(pktgen.TimerPlanError, match=r"slice of 400 ns is shorter than the packet generator can "
                                                     r"serve: pausing and resuming 32 uplinks takes 2 x 32 timer "
                                                     r"packets of 7.20 ns plus the 10 ns guard = 463.\d ns"):
        pktgen.timer_plan(0.4, 0.01, 32, 400.0)
    with pytest.raises(pktgen.TimerPlanError, match=r"not a whole number of nanoseconds"):
        pktgen.timer_plan(2.0005, 0.01, 2, 100.0)
    with pytest.raises(pktgen.TimerPlanError, match=r"less than one 1518-byte frame"):
        pktgen.timer_plan(0.1, 0.01, 2, 100.0)


def test_slice_time_floors_are_conservative():
    p = pktgen.timer_plan(2.0, 0.01, 2, 100.0)
    st = pktgen.slice_time_table(p)
    assert len(st.floors) <= 256 and st.quantum_ns * len(st.floors) >= p.period_ns
    for i, f in enumerate(st.floors):           # bytes lost by the end of the quantum, never fewer
        end = (i + 1) * st.quantum_ns
        exact = max(0.0, (end - p.dark_ns) * 100 / 8)
        assert f == p.capacity_bytes or exact <= f <= exact + 1
    assert st.floors[0] == 0 and st.floors[-1] == p.capacity_bytes


# ---- port maps ----------------------------------------------------------------------------
def test_default_port_maps_and_their_limits():
    tiny = prof.load("tiny")
    pm = settings.default_port_map(tiny)
    qp = pm.check(tiny)
    # 100G ports start at even channels only (F11); the recirculation port of pipe 0 is 1 (F3)
    assert pm.uplinks == (8, 10) and pm.hosts == (12, 14) and (pm.pktgen_port, pm.recirc_port) == (6, 1)
    assert qp.groups[0].queue_counts == (4, 4, 1, 1)
    many = mk(tors=40, uplinks=20, host_ports=4, slices=2, queues=4)
    pm = settings.default_port_map(many)                     # 4 100G uplinks per port group, even channels
    pm.check(many)
    assert len({(chip.port_group(u), chip.channel(u)) for u in pm.uplinks}) == 20
    assert all(chip.port_group(u) in (1, 2, 3, 4, 5) and chip.channel(u) % 2 == 0 for u in pm.uplinks)
    with pytest.raises(settings.SettingsError, match=r"32 uplinks x 32 queues need 32 port groups of 128 queues; "
                                                     r"a pipe has 8"):      # 400G ports: one per port group
        settings.default_port_map(prof.load("r1024x32"))


@pytest.mark.parametrize("gbps,msg", [
    (400.0, r"32 uplinks x 32 queues need 32 port groups of 128 queues; a pipe has 8"),
    (100.0, r"32 uplinks x 32 queues fill 8 port groups; 0 ports with a queue are left for 16 host ports"),
    (50.0, r"32 uplinks x 32 queues fill 8 port groups; 0 ports with a queue are left for 16 host ports"),
])
def test_r1024x32_has_no_one_pipe_port_map_at_any_port_speed(gbps, msg):
    """Why r1024x32 cannot be deployed on one pipe, whatever the port speed: at 400G a port
    is a whole port group (8 per pipe, 32 uplinks); at 100G or 50G the 32 uplinks x 32
    calendar queues take all 8 x 128 TM queues of the pipe's front-panel port groups, and a
    host port needs one more."""
    from dataclasses import replace

    p = prof.load("r1024x32")
    assert p.uplinks * p.queues == 8 * chip.PORT_GROUP_QUEUES
    with pytest.raises(settings.SettingsError, match=msg):
        settings.default_port_map(replace(p, timing=replace(p.timing, link_gbps=gbps)))


@pytest.mark.parametrize("doc,msg", [
    (dict(hosts=[10], uplinks=[8, 9]), r"hosts lists 1 dev ports, profile 'tiny' has host_ports = 2"),
    (dict(hosts=[12, 14], uplinks=[8, 136]), r"uplinks\[1\] = dev port 136 is in pipe 1, the ToR runs on pipe 0"),
    (dict(hosts=[12, 14], uplinks=[8, 10], pktgen_port=1), r"pktgen_port and recirc_port are both 1"),
    (dict(hosts=[12, 14], uplinks=[8, 10], pktgen_port=9), r"pktgen_port = 9: the recirculation/generator ports "
                                                             r"of pipe 0 are pipe-local 1, 6"),
    # F3: port 7 of pipe 0 is not a port (channels 6-7 are one 100G recirculation port)
    (dict(hosts=[12, 14], uplinks=[8, 10], recirc_port=7), r"recirc_port = 7: the recirculation/generator ports"),
    (dict(hosts=[12, 14], uplinks=[8, 10], recirc_port=3), r"recirc_port = 3: the recirculation/generator ports"),
    # F11: a 100G port cannot start at an odd channel
    (dict(hosts=[12, 14], uplinks=[8, 9]), r"uplinks\[1\] = dev port 9 is channel 1 of its port group; a 100G port "
                                           r"starts at channel 0/2/4/6"),
    (dict(hosts=[12, 72], uplinks=[8, 10]), r"hosts\[1\] = dev port 72: a pipe has front-panel ports 8..71"),
    (dict(hosts=[3, 14], uplinks=[8, 10]), r"hosts\[0\] = dev port 3 is one of the pipe's internal ports"),
    (dict(hosts=[10, 10], uplinks=[8, 12]), r"dev port 10 is listed twice"),
    (dict(hosts=[12, 14], uplinks=[8, 10], speed=4), r"unknown key 'speed'"),
    (dict(hosts=[12, 14], uplinks=[8, 10], generator={"packet_bytes": 64}), r"packet_bytes >= 69"),
])
def test_bad_port_maps_name_the_field(doc, msg):
    with pytest.raises(settings.SettingsError, match=msg):
        settings.from_dict(doc, "ports.toml").check(prof.load("tiny"))


# ---- profiles tofino2 cannot hold: refused before rendering -------------------------------
@pytest.mark.parametrize("kw,msg", [
    (dict(queues=200, slices=4), r"queues = 200: a Tofino2 port has at most 128 TM queues"),
    (dict(tors=100, uplinks=33, host_ports=2), r"uplinks = 33: the t2na program keeps one down bit per uplink"),
    (dict(widths=prof.Widths(tor=8, uplink=8, slice=16)), r"widths.uplink = 8, widths.slice = 16: .* both must be 8"),
    (dict(tors=300, slices=150, queues=150, widths=prof.Widths(tor=16, uplink=8, slice=8)),
     r"slices = 150: .* needs slices <= 128"),
    (dict(tors=100, uplinks=32, slices=4, timing=prof.ProfileTiming(slice_us=0.4, guard_us=0.01)),
     r"slice of 400 ns is shorter than the packet generator can serve"),
])
def test_bad_tofino2_profiles_are_refused_before_rendering(kw, msg, tmp_path):
    p = mk(**kw)
    with pytest.raises(ProfileError, match=r"does not fit tofino2: .*" + msg):
        rnd.render_to(p, tmp_path, target=T)
    assert list(tmp_path.iterdir()) == []


def test_stage_budget_refuses_too_many_alternatives(monkeypatch):
    """K is bounded by the stages the one-shot lookup's queue-state copies need."""
    from controller.p4gen.targets import t2na

    p = mk(alternatives=10)
    assert t2na.T2na.stages_needed(p) <= chip.MAU_STAGES      # K = 10 passes the lower bound
    monkeypatch.setattr(t2na, "STATEFUL_PER_STAGE", 1)        # a chip with one stateful ALU per stage
    with pytest.raises(ProfileError, match=r"alternatives = 10: the one-shot lookup reads 11 queue-state copies, "
                                           r"\d+ ingress stages .* a Tofino2 pipe has 20"):
        rnd.render(p, "tor", T)


def test_no_ocs_program_on_tofino2(tmp_path):
    with pytest.raises(ProfileError, match=r"no 'ocs' program for tofino2: the OCS is real optical hardware"):
        rnd.render(prof.load("tiny"), "ocs", T)
    files = rnd.render_to(prof.load("tiny"), tmp_path, target=T)
    assert sorted(f.name for f in files) == ["tor_tiny_t2na.contract.json", "tor_tiny_t2na.p4"]


# ---- rendering matrix ---------------------------------------------------------------------
MATRIX = [*RENDER_MATRIX,  # and for the t2na queue plan:
    (64, 8, 8, 4, 5, 100),          # Q > S, Q > 32
]


@pytest.mark.parametrize("n,d,s,k,h,q", MATRIX)
def test_t2na_matrix_renders(n, d, s, k, h, q):
    p = mk(tors=n, uplinks=d, slices=s, alternatives=k, ssrr_hops=h, queues=q)
    text, c = rnd.render(p, "tor", T)
    assert "{{" not in text and "{%" not in text and "#include <t2na.p4>" in text
    sig = re.search(r"action set_alternatives\((.*)\)", text).group(1)
    assert len(re.findall(r"uplink_t up\d+, slice_t wait\d+", sig)) == k
    assert len(re.findall(r"Register<bit<8>, qidx_t>\(\d+, 0\) qstate_\d+;", text)) == k + 1
    assert f"size = {2 * d * q};" in text                      # timer_afc: 2 x d x Q
    for hops in range(1, h + 1):                                # unrolled SSRR parser states
        assert f"state parse_hops_end_{hops}" in text
    assert c["target"] == T and c["counters"]["events"]["encoding"] == "bitmap"
    assert [prm["name"] for prm in c["tables"]["config"]["actions"]["set_config"]["params"]] == \
        ["my_tor", "generation", "live", "down"]
    assert "packet_io" not in c and c["clock"]["source"] == "pktgen"
    for t in ("route_mode", "uro_next_hop", "ssrr_path"):          # the names bmv2 has, generation-keyed
        assert c["tables"][t]["keys"][0]["name"] == "generation"
        assert f"size = {c['tables'][t]['size']};" in text
    assert c["profile"]["slice_capacity_bytes"] == pktgen.timer_plan(2.0, 0.01, d, 100.0).capacity_bytes


def test_p4src_t2na_is_current():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for name in ("tiny", "r108x6", "r1024x32"):
        p = prof.load(name)
        text, c = rnd.render(p, "tor", T)
        base = root / "p4src" / rnd.output_name(p, "tor", T)
        assert base.with_suffix(".p4").read_text() == text, f"{base}.p4 is stale: run make p4src"
        assert json.loads(base.with_suffix(".contract.json").read_text()) == json.loads(json.dumps(c))


# ---- contract-named entries for the t2na contract ------------------------------------------
def test_t2na_entries_store_waits_and_config_has_no_runtime_capacity():
    p = prof.load("tiny")
    _, c = rnd.render(p, "tor", T)
    e = ent.uro_entry(c, 3, 5, [(1, 0), (0, 2)], generation=1)
    params = dict(e.params)
    assert params["n"] == 2 and (params["wait0"], params["wait1"]) == (1, 3)     # (0 - 3) % 4, (2 - 3) % 4
    assert params["up2"] == 0 and params["wait2"] == 0                           # unused alternative
    assert dict(e.match)["generation"] == 1
    assert dict(ent.tor_config_entry(c, 3, generation=1, down=2).params) == {"my_tor": 3, "generation": 1, "live": 2,
                                                                                    "down": 2}
    with pytest.raises(ent.EntryError, match=r"the tofino2 program has no run-time capacity_bytes"):
        ent.tor_config_entry(c, 3, capacity_bytes=1000)


# ---- switch plan ---------------------------------------------------------------------------
def test_switch_plan_for_tiny():
    p = prof.load("tiny")
    _, c = rnd.render(p, "tor", T)
    pm = settings.default_port_map(p)
    sp = plan.switch_plan(c, pm, p)
    # by the names bf-p4c gives them in bfrt.json, which the backend writes
    assert {w.table for w in sp.tables} == {
        "pipe.UroIngress.port_role", "pipe.UroIngress.port_map", "pipe.UroIngress.down_port",
        "pipe.UroIngress.timer_afc", "pipe.UroIngress.sync_req", "pipe.UroIngressParser.pktgen_ports",
        "pipe.UroIngressParser.recirc_ports"}
    tables = {}
    for w in sp.tables:
        tables.setdefault(w.table.split(".")[-1], []).append(w)
    # the timer's batch 1 packet u may leave as a REQ on uplink u
    assert {w.key[0].value: (w.action, w.data_dict()) for w in tables["sync_req"]} == {
        u: ("UroIngress.req_out", {"dev_port": port, "uplink": u}) for u, port in enumerate(pm.uplinks)}
    assert len(tables["timer_afc"]) == 2 * 2 * 4 and len(tables["down_port"]) == 2 * 4
    # the pause of uplink 1 when queue 2 becomes active: its queue 1 (pg_queue 4 + 1)
    w = next(w for w in tables["timer_afc"] if [k.value for k in w.key] == [0, 1, 2])
    assert w.action == "UroIngress.timer_pause"
    assert w.data_dict() == {"afc": afc.afc_word(0, 1, 5, True), "qidx": 256 + 1, "upmask": 2, "upbit": 2}
    w = next(w for w in tables["timer_afc"] if [k.value for k in w.key] == [1, 0, 2])
    assert w.data_dict() == {"afc": afc.afc_word(0, 1, 2, False)}
    assert {(tuple(k.value for k in w.key), w.data_dict()["dev_port"]) for w in tables["port_map"]} == \
        {((1, 0, 0), 12), ((1, 1, 0), 14), ((0, 0, 0), 8), ((0, 0, 1), 10)}
    assert {w.key[0].value: w.action.split(".")[1] for w in tables["port_role"]} == \
        {12: "role_host", 14: "role_host", 8: "role_uplink", 10: "role_uplink"}
    down = {(w.key[0].value, w.key[1].value): w.data_dict() for w in tables["down_port"]}
    assert down[(10, 3)] == {"upmask": 2, "qidx": 256 + 3}
    # TM: AFC on, carving, XOFF on every calendar queue
    assert sp.tm[0].default and sp.tm[0].data_dict() == {"advanced_flow_control_enable": True}
    grp = sp.tm[1]
    # F5: one count per CHANNEL of the group (8 items), maps indexed by channel
    assert grp.table == "tf2.tm.port.group" and grp.data_dict()["port_queue_count"] == (4, 0, 4, 0, 1, 0, 1, 0)
    # every channel has a map (the driver wants one for each channel whose count changes):
    # unused channels carve no queue and map everything to 0
    g = grp.data_dict()
    assert sorted(k for k in g if k.startswith("ingress_qid_map_")) == [f"ingress_qid_map_{c}" for c in range(8)]
    assert g["ingress_qid_map_2"][:5] == (0, 1, 2, 3, 3) and set(g["ingress_qid_map_1"]) == {0}
    # F4/F13: every tf2.* write targets the ToR's pipe, never all pipes
    assert all(w.pipe == pm.pipe for w in (*sp.tm, *sp.pktgen, *sp.enable))
    # F11: every port added and enabled at 100G (2 lanes, RS FEC)
    assert {w.key[0].value: w.data_dict()["$SPEED"] for w in sp.ports} == \
        {8: "BF_SPEED_100G", 10: "BF_SPEED_100G", 12: "BF_SPEED_100G", 14: "BF_SPEED_100G"}
    assert all(w.data_dict()["$N_LANES"] == 2 and w.data_dict()["$FEC"] == "BF_FEC_TYP_RS" for w in sp.ports)
    xoff = [w for w in sp.tm if w.table == "tf2.tm.queue.sched_cfg"]
    assert len(xoff) == 8 and {w.key[1].value for w in xoff} == set(range(8))
    assert sp.mirror[0].data_dict()["$ucast_egress_port"] == pm.recirc_dev_port
    app = {w.key[0].value: w for w in sp.pktgen if w.table == "tf2.pktgen.app_cfg"}
    t = app[pktgen.TIMER_APP_ID].data_dict()
    assert (app[pktgen.TIMER_APP_ID].action, t["timer_nanosec"], t["packets_per_batch_cfg"], t["batch_count_cfg"]) == \
        ("trigger_timer_periodic", 250, 1, 1)               # 8 triggers per 2 us slice
    assert app[pktgen.PORT_DOWN_APP_ID].data_dict()["packets_per_batch_cfg"] == 3      # Q packets per event
    assert [w.data_dict() for w in sp.enable] == [{"app_enable": True}, {"app_enable": True}]
    # F2: pkt_len >= 59, each buffer as long as its pkt_len, 16-byte aligned and not overlapping
    bufs = [w for w in sp.pktgen if w.table == "tf2.pktgen.pkt_buffer"]
    assert [(w.key[0].value, w.key[1].value, len(w.data_dict()["buffer"])) for w in bufs] == [(0, 60, 60), (64, 60, 60)]
    assert all(a.data_dict()["pkt_len"] == 60 for a in app.values())
    assert app[pktgen.PORT_DOWN_APP_ID].data_dict()["pkt_buffer_offset"] == 64
    # F12: the port-down mask is one bit per pipe-local port (72 bits)
    mask = next(w for w in sp.pktgen if w.table == "tf2.pktgen.port_mask").data_dict()["mask"]
    assert mask == (1 << 8) | (1 << 10)
    assert pktgen.port_down_mask([128 + 70]) == 1 << 70
    assert sp.enable[-1].key[0].value == pktgen.TIMER_APP_ID                           # the clock starts last



def test_switch_plan_values_for_tiny_in_full():
    """What each write of the tiny ToR's plan says, beyond its table: the port roles with
    their index, the port map's action, the parser value sets matching the whole 9-bit port,
    every calendar queue in XOFF, the mirror session enabled towards the recirculation port,
    the generator's ports (its own enabled, every uplink re-arming its port-down event), and
    the port-down application reading the mask it is given."""
    from controller.tofino2.bfrt_json import KeyField, Write
    p = prof.load("tiny")
    _, c = rnd.render(p, "tor", T)
    pm = settings.default_port_map(p)
    sp = plan.switch_plan(c, pm, p)
    by = {}
    for w in sp.tables:
        by.setdefault(w.table.split(".")[-1], []).append(w)
    assert {(w.key, w.action, w.data) for w in by["port_role"]} == {
        ((KeyField("ingress_port", 12),), "UroIngress.role_host", (("index", 0),)),
        ((KeyField("ingress_port", 14),), "UroIngress.role_host", (("index", 1),)),
        ((KeyField("ingress_port", 8),), "UroIngress.role_uplink", (("uplink", 0),)),
        ((KeyField("ingress_port", 10),), "UroIngress.role_uplink", (("uplink", 1),))}
    assert {w.action for w in by["port_map"]} == {"UroIngress.to_port"}
    assert [k.name for k in by["port_map"][0].key] == ["local", "host_port", "uplink"]
    assert {w.action for w in by["down_port"]} == {"UroIngress.mark_down"}
    assert {w.action for w in by["timer_afc"]} == {"UroIngress.timer_pause", "UroIngress.timer_resume"}
    assert [k.name for k in by["timer_afc"][0].key] == ["batch_id", "packet_id", "active"]
    assert [(w.table, w.key, w.action, w.data) for w in (*by["pktgen_ports"], *by["recirc_ports"])] == [
        ("pipe.UroIngressParser.pktgen_ports", (KeyField("f1", pm.pktgen_dev_port, mask=0x1FF),), None, ()),
        ("pipe.UroIngressParser.recirc_ports", (KeyField("f1", pm.recirc_dev_port, mask=0x1FF),), None, ())]
    assert all(w.pipe is None and not w.default for w in sp.tables)          # the program's tables: all pipes
    xoff = [w for w in sp.tm if w.table == "tf2.tm.queue.sched_cfg"]
    assert {(w.action, w.data, w.pipe) for w in xoff} == {(None, (("advanced_flow_control", "XOFF"),), pm.pipe)}
    assert {(w.key[0].name, w.key[0].value) for w in xoff} == {("pg_id", chip.port_group(8))}
    assert [(w.action, w.key) for w in sp.tm if w.table == "tf2.tm.port.group"] == \
        [("map", (KeyField("pg_id", chip.port_group(8)),))]
    assert sp.mirror == (Write("$mirror.cfg", (KeyField("$sid", c["target_state"]["mirror_session"]),), "$normal", (
        ("$direction", "INGRESS"), ("$session_enable", True), ("$ucast_egress_port", pm.recirc_dev_port),
        ("$ucast_egress_port_valid", True), ("$max_pkt_len", plan.QUPD_MAX_LEN))),)
    ports = [(w.key, w.data) for w in sp.pktgen if w.table == "tf2.pktgen.port_cfg"]
    assert ports == [((KeyField("dev_port", pm.pktgen_dev_port),), (("pktgen_enable", True),)),
                     ((KeyField("dev_port", 8),), (("clear_port_down_enable", True),)),
                     ((KeyField("dev_port", 10),), (("clear_port_down_enable", True),))]
    mask = next(w for w in sp.pktgen if w.table == "tf2.pktgen.port_mask")
    down = next(w for w in sp.pktgen if w.table == "tf2.pktgen.app_cfg" and w.key[0].value == pktgen.PORT_DOWN_APP_ID)
    assert mask.key == (KeyField("port_mask_sel", down.data_dict()["port_mask_sel"]),)
    assert [(w.key, w.action) for w in sp.enable] == [
        ((KeyField("app_id", pktgen.PORT_DOWN_APP_ID),), "trigger_port_down"),
        ((KeyField("app_id", pktgen.TIMER_APP_ID),), "trigger_timer_periodic")]
    assert sp.writes() == [*sp.ports, *sp.tm, *sp.mirror, *sp.tables, *sp.pktgen, *sp.enable]


def test_switch_plan_takes_the_generators_grid_from_the_compiled_program():
    """The generator must fire on the grid the loaded program counts (its contract), not on
    one derived again from the profile: a program built with 4 ticks per slice, or with the
    generator's own slice clock (one trigger per slice), gets that timer even when the
    profile at hand says otherwise."""
    p = prof.load("tiny")
    pm = settings.default_port_map(p)
    default = plan.switch_plan(rnd.render(p, "tor", T)[1], pm, p).timer
    assert default.ticks == 8
    four = dataclasses.replace(p, tofino2=dataclasses.replace(p.tofino2, clock_ticks=4))
    sp = plan.switch_plan(rnd.render(four, "tor", T)[1], pm, p)
    assert (sp.timer.ticks, sp.timer.tick_ns) == (4, 500)
    gen = dataclasses.replace(p, tofino2=dataclasses.replace(p.tofino2, slice_clock="generator"))
    sp = plan.switch_plan(rnd.render(gen, "tor", T)[1], pm, p)
    t = p.timing
    assert sp.timer == pktgen.timer_plan(t.slice_us, t.guard_us, p.uplinks, t.link_gbps, pm.generator, corrected=False)
    assert (sp.timer.ticks, sp.timer.tick_ns) == (1, 2000)
    timer_app = next(w for w in sp.pktgen if w.table == "tf2.pktgen.app_cfg" and w.key[0].value == pktgen.TIMER_APP_ID)
    assert timer_app.data_dict()["timer_nanosec"] == 2000
    # a contract that names no grid (no timer plan, no clock section): the profile's, corrected
    bare = json.loads(json.dumps(rnd.render(four, "tor", T)[1]))
    del bare["target_state"]["timer"], bare["clock"]
    assert plan.switch_plan(bare, pm, p).timer == default


def test_switch_plan_writes_the_queues_the_switch_read_back():
    """With the switch's read-back queue map (its physical queue of each calendar queue) the
    XOFF modes and the timer's AFC words name those queues, not the planned carving; the
    carving itself is the deployment's (its host ports keep their 2 queues)."""
    p = prof.load("tiny")
    _, c = rnd.render(p, "tor", T)
    pm = dataclasses.replace(settings.default_port_map(p), other_port_queues=2)
    planned = plan.switch_plan(c, pm, p)
    actual = {**{(8, q): 3 - q for q in range(4)}, **{(10, q): 4 + (q + 1) % 4 for q in range(4)}}
    sp = plan.switch_plan(c, pm, p, actual_queues=actual)
    assert planned.queues.pg_queues == {(8, q): q for q in range(4)} | {(10, q): 4 + q for q in range(4)}
    assert sp.queues.pg_queues == actual
    carving = [w for w in sp.tm if w.table == "tf2.tm.port.group"]
    assert carving == [w for w in planned.tm if w.table == "tf2.tm.port.group"]
    assert carving[0].data_dict()["port_queue_count"] == (4, 0, 4, 0, 2, 0, 2, 0)
    assert sorted(w.key[1].value for w in sp.tm if w.table == "tf2.tm.queue.sched_cfg") == list(range(8))
    words = {tuple(k.value for k in w.key): w.data_dict()["afc"] for w in sp.tables if w.table.endswith("timer_afc")}
    assert words == {(e.batch_id, e.packet_id, e.active): e.word for e in tm.timer_entries(sp.queues)}
    # the pause of uplink 1 when queue 2 becomes active: its queue 1, physical queue 4 + 2
    assert words[(0, 1, 2)] == afc.afc_word(0, 1, 6, True)
    assert words != {(e.batch_id, e.packet_id, e.active): e.word for e in tm.timer_entries(planned.queues)}


def test_switch_plan_places_the_port_down_packet_after_a_long_timer_packet():
    """The port-down packet's buffer starts at the first 16-byte boundary after the timer's
    (not at a fixed offset): with 100-byte packets the timer holds bytes 0-99 and the
    port-down packet starts at 112, where its application reads it."""
    p = prof.load("tiny")
    _, c = rnd.render(p, "tor", T)
    pm = dataclasses.replace(settings.default_port_map(p),
                             generator=pktgen.GeneratorSpec(packet_bytes=100 + chip.PKTGEN_HEADER_BYTES + chip.FCS_BYTES))
    sp = plan.switch_plan(c, pm, p)
    bufs = [(w.key[0].value, w.key[1].value, len(w.data_dict()["buffer"])) for w in sp.pktgen
            if w.table == "tf2.pktgen.pkt_buffer"]
    assert bufs == [(0, 100, 100), (112, 100, 100)]
    app = {w.key[0].value: w.data_dict() for w in sp.pktgen if w.table == "tf2.pktgen.app_cfg"}
    assert (app[pktgen.TIMER_APP_ID]["pkt_buffer_offset"], app[pktgen.PORT_DOWN_APP_ID]["pkt_buffer_offset"]) == (0, 112)


# ---- the BfRt backend up to the gRPC call --------------------------------------------------
def test_bfrt_backend_is_registered_and_needs_the_sde(monkeypatch, tmp_path):
    monkeypatch.delenv("SDE_INSTALL", raising=False)
    monkeypatch.delenv("SDE", raising=False)
    monkeypatch.setitem(sys.modules, "bfrt_grpc", None)        # not importable
    monkeypatch.setitem(sys.modules, "bfrt_grpc.client", None)
    monkeypatch.setattr(bfrt_backend, "DEFAULT_SDE_INSTALL", str(tmp_path / "no-sde"))   # nor at the default path
    cls = be.backend_for(T)
    assert cls is bfrt_backend.BfrtBackend and cls.target == T
    b = cls(be.SwitchAddress("tor0", "127.0.0.1:50052"))
    with pytest.raises(be.MissingClient, match=r"bfrt_grpc \(the Tofino SDE's BfRt Python client\) is not "
                                                r"installed: install the SDE .* or set SDE_INSTALL"):
        b.connect()
    monkeypatch.setenv("SDE_INSTALL", str(tmp_path))           # an SDE without the client
    (tmp_path / "lib" / "python3.11" / "site-packages" / "tofino").mkdir(parents=True)
    with pytest.raises(be.BackendError, match=r"did not load from .*site-packages/tofino"):
        b.connect()


def test_counters_decode_bitmap_and_offset():
    p = prof.load("tiny")
    _, c = rnd.render(p, "tor", T)
    ev = c["counters"]["events"]["indices"]
    i_t, i_tr, i_res = ev.index("timer"), ev.index("ssrr_transit"), ev.index("ssrr_resourced")
    raw = {"events": {1 << i_t: 5, (1 << i_tr) | (1 << i_res): 2, 1 << i_tr: 3},
           "drops": {0: 99, 1 + c["counters"]["drops"]["indices"].index("all_full"): 4}}
    out = bfrt_backend.decode_counters(c, raw)
    assert out["events"]["timer"] == 5 and out["events"]["ssrr_transit"] == 5 and out["events"]["ssrr_resourced"] == 2
    assert out["drops"]["all_full"] == 4 and sum(out["drops"].values()) == 4       # cell 0 is never a reason


def _mini_bfrt() -> BfrtInfo:
    """A two-table schema in the compiler's format (for ordering, not for names)."""
    def key(name, mt, w, i):
        return {"id": i, "name": name, "match_type": mt, "type": {"type": "bytes", "width": w}}
    doc = {"tables": [
        {"name": "pipe.C.config", "id": 1, "table_type": "MatchAction_Direct", "size": 1, "key": [],
         "action_specs": [{"id": 10, "name": "C.set_config", "data": [
             {"id": 1, "name": "my_tor", "type": {"type": "bytes", "width": 16}}]}], "data": []},
        {"name": "pipe.C.path", "id": 2, "table_type": "MatchAction_Indirect_Selector", "size": 8,
         "key": [key("dst", "Exact", 16, 1)],
         "data": [{"oneof": [{"id": 65539, "name": "$ACTION_MEMBER_ID", "type": {"type": "uint32"}},
                             {"id": 65540, "name": "$SELECTOR_GROUP_ID", "type": {"type": "uint32"}}]}]},
        {"name": "pipe.C.sel_profile", "id": 3, "table_type": "Action", "size": 8,
         "key": [{"id": 65539, "name": "$ACTION_MEMBER_ID", "match_type": "Exact", "type": {"type": "uint32"}}],
         "action_specs": [{"id": 11, "name": "C.go", "data": [
             {"id": 1, "name": "up", "type": {"type": "bytes", "width": 8}}]}]},
        {"name": "pipe.C.sel", "id": 4, "table_type": "Selector", "size": 8,
         "key": [{"id": 65540, "name": "$SELECTOR_GROUP_ID", "match_type": "Exact", "type": {"type": "uint32"}}],
         "data": [{"singleton": {"id": 65539, "name": "$ACTION_MEMBER_ID", "repeated": True,
                                 "type": {"type": "uint32"}}}]},
    ]}
    return BfrtInfo(doc, "mini")


def test_diff_writes_are_in_dependency_order_with_config_last():
    info = _mini_bfrt()
    ins = ent.Batch(
        members=[ent.Member("C.sel", 1, "C.go", (("up", 1),))],
        groups=[ent.Group("C.sel", 5, (1,))],
        entries=[ent.TableEntry("C.config", (), "C.set_config", (("my_tor", 3),), is_default=True),
                 ent.TableEntry("C.path", (("dst", 4),), None, (), False, 5)])
    dele = ent.Batch(members=[ent.Member("C.sel", 9, "C.go", (("up", 0),))], groups=[ent.Group("C.sel", 8, (9,))],
                     entries=[ent.TableEntry("C.path", (("dst", 6),), None, (), False, 8)])
    ops = bfrt_backend.diff_writes(info, be.Diff(insert=ins, delete=dele))
    assert [(op, w.table.split(".")[-1]) for op, w in ops] == [
        ("add", "sel_profile"), ("add", "sel"), ("add", "path"),
        ("del", "path"), ("del", "sel"), ("del", "sel_profile"),
        ("mod", "config")]
    assert ops[1][1].data_dict()["$ACTION_MEMBER_ID"] == (1,)
    assert ops[2][1].data_dict() == {"$SELECTOR_GROUP_ID": 5}
    with pytest.raises(BfrtJsonError, match=r"C.go parameter up = 300 does not fit 8 bits"):
        info.encode_member(ent.Member("C.sel", 1, "C.go", (("up", 300),)))


# ---- CLI ---------------------------------------------------------------------------------------
def test_cli_render_and_build_without_the_tofino_compiler(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", "/nonexistent")
    for var in ("SDE_INSTALL", "SDE", "URO_BF_P4C"):
        monkeypatch.delenv(var, raising=False)
    rc = main(["p4", "build", "--target", T, "--profile", "tiny", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.count("\n") == 1 and "bf-p4c not found" in err and "rendered 1 program(s)" in err
    assert (tmp_path / "tor_tiny_t2na.p4").is_file() and (tmp_path / "tor_tiny_t2na.contract.json").is_file()


def test_cli_bad_tofino2_profile_writes_nothing(tmp_path, capsys):
    f = tmp_path / "big.toml"
    f.write_text('name = "big"\ntors = 100\nuplinks = 4\nhost_ports = 2\nslices = 25\nalternatives = 3\n'
                 'ssrr_hops = 4\nqueues = 130\n')
    out = tmp_path / "out"
    rc = main(["p4", "render", "--target", T, "--profile", str(f), "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and "queues = 130: a Tofino2 port has at most 128 TM queues" in err and err.count("\n") == 1
    assert not out.exists() or list(out.iterdir()) == []
    rc = main(["p4", "render", "--target", T, "--profile", "tiny", "--program", "ocs", "--out", str(out)])
    assert rc == 2 and "OCS is real optical hardware" in capsys.readouterr().err


def test_cli_stats_needs_a_build(tmp_path, capsys):
    rc = main(["stats", "--target", T, "--profile", "tiny", "--build", str(tmp_path)])
    assert rc == 2 and "no compiled t2na program with resource logs" in capsys.readouterr().err


def test_t2na_source_routes_belong_to_their_generation():
    """Every t2na source-route table (ssrr_path, ssrr_level, ssrr_hops) is keyed by the route
    generation, so the install sequence push and daemon share (controller/agent/generations.py)
    counts all of a route's entries in its generation: nothing is 'static', the active
    generation's stay until the flip, and the new generation's read back where they were
    written. There is no action selector: no members, no groups."""
    from controller.agent import generations as gens_mod
    from controller.routing.ucmp import UcmpParams
    from controller.routing.ucmp import compute as ucmp_compute
    from controller.routing.uro import UroParams
    from controller.routing.uro import compute as uro_compute
    from controller.schedule import round_robin
    from controller.tables import tor_batch

    p = prof.load("tiny")
    _, c = rnd.render(p, "tor", T)
    assert "action_profiles" not in c
    sched = round_robin(p.tors, p.uplinks)
    uro, ucmp = uro_compute(sched, UroParams(k=p.alternatives)), ucmp_compute(sched, UcmpParams())
    by_gen = {g: tor_batch.route_entries(c, 3, uro_routes=uro, path_routes=ucmp, source_routed=[5, 6], generation=g)
              for g in (0, 1)}
    for g, b in by_gen.items():
        assert b.members == [] and b.groups == []
        for t in ("ssrr_path", "ssrr_level", "ssrr_first", "ssrr_hops"):
            rows = [e for e in b.entries if e.table == c["tables"][t]["name"]]
            assert rows and all(dict(e.match)["generation"] == g for e in rows), t
    both = ent.Batch(entries=by_gen[0].entries + by_gen[1].entries)
    parts = gens_mod.split(both, c["tables"]["config"]["name"])
    assert parts.static.entries == []
    for g in (0, 1):
        assert sorted(map(repr, parts.gens[g].entries)) == sorted(map(repr, by_gen[g].entries))


def _fake_routes(p, entries):
    """Something ``ssrr_exact_entries`` reads: a schedule's shape and these source entries."""
    from types import SimpleNamespace

    from controller.tables import source as st

    sched = SimpleNamespace(n_tors=p.tors, n_uplinks=p.uplinks, n_slices=p.slices)
    rows = [st.SourceEntry(0, dst, t, b, max(len(x) for x in paths), 1, tuple(tuple(h) for h in paths))
            for dst, t, b, paths in entries]
    return SimpleNamespace(schedule=sched, rows=rows)


def _install_fake(monkeypatch, routes):
    from controller.tables import source as st

    monkeypatch.setattr(st, "entries", lambda r, src, dsts=None: iter(r.rows))


def _lookup(batch, dst, start_slice, bucket, flow_hash, generation=0):
    """The t2na program's source-route lookups on a written batch (what ssrr.p4.j2 does):
    ssrr_path -> (group, shape); ssrr_level (range) -> level and member = hash mod ties;
    ssrr_first -> hop 0, egress's ssrr_hops (same key) -> the option, the last hop's ToR being
    the destination. None on a miss."""
    def rows(t):
        return [e for e in batch.entries if e.table.endswith(f".{t}") and dict(e.match)["generation"] == generation]
    grp = [dict(e.params) for e in rows("ssrr_path") if dict(e.match)["dst_tor"] == dst
           and dict(e.match)["start_slice"] == start_slice]
    if not grp:
        return None
    g = grp[0]
    lv = [e for e in rows("ssrr_level") if dict(e.match)["shape"] == g["shape"]
          and dict(e.match)["bucket"][0] <= bucket <= dict(e.match)["bucket"][1]]
    if not lv:
        return None
    lv = max(lv, key=lambda e: e.priority)
    ties = int(lv.action.rsplit("_", 1)[1])
    level, member = dict(lv.params)["level"], flow_hash % ties
    def at(t):
        return [e for e in rows(t) if dict(e.match)["group"] == g["group"]
                and dict(e.match)["level"] == level and dict(e.match)["member"] == member]
    first, hop = at("ssrr_first"), at("ssrr_hops")
    if not first:
        return None
    n = int(first[0].action.rsplit("_", 1)[1])
    assert len(hop) == 1 and hop[0].action.endswith(f"write_path_{n}")
    prm, f0 = dict(hop[0].params), dict(first[0].params)
    assert prm["up0"] == f0["up0"] and "slice0" not in f0   # the queue test's hop 0 is the option's
    prm["wait0"] = f0["wait0"]
    path = tuple((prm[f"tor{h}"] if h < n - 1 else dst, prm[f"up{h}"], prm[f"slice{h}"]) for h in range(n))
    return path, prm["wait0"]


def test_t2na_exact_source_routes_pick_every_tied_path_by_hash(monkeypatch):
    """The entries written for the exact layout, looked up the way the t2na program does:
    every (dst, start slice, bucket) finds its range's tied paths, hash mod ties reaching each
    of them; the path comes back hop by hop (the last ToR is the destination, not stored)
    with hop 0's wait from the start slice; a shape shared by two groups is written once."""
    p = prof.load("tiny")                                  # 8 ToRs, 2 uplinks, 4 slices
    _, c = rnd.render(p, "tor", T)
    a = [(5, 1, 0), (6, 0, 2)]
    b2 = [(4, 0, 3), (6, 1, 3)]
    c1 = [(6, 0, 1)]
    spec = [(6, 2, (0, 2), [a, b2]), (6, 2, (3, 63), [c1]),          # dst 6, start 2: two ranges
            (6, 3, (0, 2), [b2, a]), (6, 3, (3, 63), [c1]),          # same shape (ranges, ties)
            (5, 0, (0, 63), [[(5, 1, 1)]])]
    routes = _fake_routes(p, spec)
    _install_fake(monkeypatch, routes)
    batch = bulk.ssrr_entries(c, routes, 0, generation=1)
    assert batch.members == [] and batch.groups == []
    tables = ("ssrr_path", "ssrr_level", "ssrr_first", "ssrr_hops")
    count = {t: sum(e.table == c["tables"][t]["name"] for e in batch.entries) for t in tables}
    assert count == {"ssrr_path": 3, "ssrr_level": 3, "ssrr_first": 7, "ssrr_hops": 7}   # 2 shapes: 2 + 1 ranges
    for dst, t, (lo, hi), paths in spec:
        for bucket in (lo, hi):
            got = {_lookup(batch, dst, t, bucket, h, generation=1) for h in range(16)}
            want = {(tuple(x), (x[0][2] - t) % p.slices) for x in paths}
            assert got == want, (dst, t, bucket)
    assert _lookup(batch, 6, 2, 1, 0, generation=0) is None             # generation 0 holds nothing
    assert _lookup(batch, 4, 2, 1, 0, generation=1) is None             # not source-routed
    hops = [e for e in batch.entries if e.table == "UroEgress.ssrr_hops"]                # written in egress
    assert {e.action for e in hops} == {"UroEgress.write_path_1", "UroEgress.write_path_2"}
    two = [dict(e.params) for e in hops if e.action.endswith("_2")][0]
    assert set(two) == {"tor0", "up0", "up1", "slice0", "slice1"}      # tor1 is the destination
    firsts = {dict(e.params)["wait0"] for e in batch.entries if e.table == "UroIngress.ssrr_first"}
    assert firsts == {(0 - 2) % 4, (3 - 2) % 4, (1 - 2) % 4, (3 - 3) % 4, (0 - 3) % 4, (1 - 3) % 4, 1}


def test_t2na_exact_source_routes_refuse_what_the_tables_cannot_hold(monkeypatch):
    p = prof.load("tiny")
    _, c = rnd.render(p, "tor", T)
    for spec, msg in (
        ([(6, 2, (0, 63), [[(5, 1, 0), (4, 0, 2)]])], r"ssrr_hops .*: the path ends at ToR 4, not at its destination 6"),
        ([(6, 2, (0, 63), [[(6, 0, 1)]] * 9)], r"a bucket range of 9 tied paths, profile 'tiny' holds 8 \(tables\.ssrr_ties\)"),
        ([(6, 2, (0, 63), [[(5, 0, 1), (4, 0, 1), (3, 0, 1), (2, 0, 1), (6, 0, 1)]])],
         r"a tied path of 5 hops, profile 'tiny' holds ssrr_hops = 4"),
    ):
        routes = _fake_routes(p, spec)
        _install_fake(monkeypatch, routes)
        with pytest.raises(ent.EntryError, match=msg):
            bulk.ssrr_entries(c, routes, 0)
    # more distinct shapes than the shape id holds: named, with the profile key to raise
    few = prof.Profile(**{**p.__dict__, "name": "few", "tables": prof.ProfileTables(ssrr_shapes=1)})
    _, c1 = rnd.render(few, "tor", T)
    routes = _fake_routes(few, [(6, 2, (0, 63), [[(6, 0, 1)]]), (6, 3, (0, 63), [[(6, 0, 1)]] * 2)])
    _install_fake(monkeypatch, routes)
    with pytest.raises(ent.EntryError, match=r"ssrr_path \(src 0, dst 6, slice 3\): shape 2: .* raise tables\.ssrr_shapes"):
        bulk.ssrr_entries(c1, routes, 0)


def test_t2na_source_route_option_is_written_in_egress():
    """The option of a packet source-routed here is written in egress (in ingress, beside
    ssrr_first or behind admission, ssrr_hops takes the SRAM of the stages the queue test
    needs, and r1024x32 does not fit 20 stages): ingress's ssrr_first bridges the path's
    key and destination (bridge_src, type PKT_SOURCED) and removes an option the packet came
    with; the egress parser reads bridge_src + Ethernet + IPv4, ssrr_hops writes every hop
    (hop 0 included: the same key as ssrr_first), a miss drops, and the egress deparser
    recomputes the IPv4 checksum over the option."""
    import re

    text, c = rnd.render(prof.load("tiny"), "tor", T)

    def block(start):                       # a top-level parser/control, to its closing brace
        i = text.index(start)
        return text[i:text.index("\n}\n", i)]
    assert c["tables"]["ssrr_hops"]["name"] == "UroEgress.ssrr_hops"
    assert c["tables"]["ssrr_first"]["name"] == "UroIngress.ssrr_first"
    assert all(a["name"].startswith("UroEgress.write_path_") for a in c["tables"]["ssrr_hops"]["actions"].values())
    ingress, egress = block("control UroIngress("), block("control UroEgress(")
    assert "ssrr_hops.apply()" not in ingress and "ssrr_hops.apply()" in egress
    assert "hdr.bridge.type = PKT_SOURCED" in ingress
    first = ingress[ingress.index("action first_2("):]
    first = first[:first.index("}")]
    assert "hdr.bridge_src.setValid()" in first and "hdr.ssrr.setInvalid()" in first and "hdr.hops[" in first
    assert re.search(r"hdr\.hops\[0\]\.uplink = \(uplink_t\)up0", egress)
    assert "default_action = unwritten();" in egress and "eg_dprsr_md.drop_ctl = 1" in egress
    eparser = block("parser UroEgressParser(")
    assert "PKT_SOURCED: parse_bridge" in eparser and "pkt.extract(hdr.bridge_src)" in eparser
    edep = block("control UroEgressDeparser(")
    assert "ipv4_csum.update(" in edep and "hdr.hops[0].next_tor" in edep
    assert edep.index("pkt.emit(hdr.ipv4)") < edep.index("pkt.emit(hdr.ssrr)") < edep.index("pkt.emit(hdr.hops)")
    ideparser = block("control UroIngressDeparser(")
    assert ideparser.index("pkt.emit(hdr.bridge)") < ideparser.index("pkt.emit(hdr.bridge_src)") < ideparser.index("pkt.emit(hdr.ethernet)")


def test_tofino2_ssrr_hops_stores_and_parses_paths_at_their_length():
    """`[tofino2] ssrr_hops = h` (<= ssrr_hops): the t2na program writes and parses at most h
    hops (write_path_1..h, h hop headers, the growth a source route adds), the bmv2 program of
    the same profile keeps ssrr_hops; a longer value is refused."""
    base = prof.load("tiny")
    p = prof.Profile(**{**base.__dict__, "name": "short", "tofino2": prof.Tofino2Overrides(ssrr_hops=2)})
    text, c_t2 = rnd.render(p, "tor", T)
    _, c_bm = rnd.render(p, "tor", "bmv2")
    assert set(c_t2["tables"]["ssrr_hops"]["actions"]) == {"write_path_1", "write_path_2"}
    assert set(c_t2["tables"]["ssrr_first"]["actions"]) == {"first_1", "first_2"}
    assert c_t2["profile"]["ssrr_hops"] == 2 and c_bm["profile"]["ssrr_hops"] == base.ssrr_hops
    assert "ssrr_hop_t[2] hops;" in text and "GROWTH_BYTES  = 12;" in text
    with pytest.raises(prof.ProfileError, match=r"tofino2\.ssrr_hops must be in 1\.\.4 \(at most ssrr_hops\), got 5"):
        prof.Profile(**{**base.__dict__, "tofino2": prof.Tofino2Overrides(ssrr_hops=5)})


def test_tofino2_section_sizes_the_source_routes_of_the_t2na_program_only():
    """`[tofino2] ssrr_dsts = D`: the t2na program's source-route tables hold D destinations
    (one pipe cannot hold UCMP for all N-1 at (1024, 32)), the bmv2 program of the same
    profile keeps all N-1, and a batch source-routing more than D destinations is refused
    before anything is written, with the way out named."""
    from controller.routing.ucmp import UcmpParams
    from controller.routing.ucmp import compute as ucmp_compute
    from controller.schedule import round_robin
    from controller.tables import tor_batch

    base = prof.load("tiny")
    p = prof.Profile(**{**base.__dict__, "name": "few", "tofino2": prof.Tofino2Overrides(ssrr_dsts=2)})
    _, c_t2 = rnd.render(p, "tor", T)
    _, c_bm = rnd.render(p, "tor", "bmv2")
    S, ranges, paths = p.slices, p.tables.ssrr_ranges, p.tables.ssrr_paths
    assert c_t2["tables"]["ssrr_path"]["size"] == 2 * 2 * S                 # one entry per (dst, start slice)
    assert c_t2["tables"]["ssrr_hops"]["size"] == 2 * 2 * S * paths
    assert c_t2["tables"]["ssrr_level"]["size"] == 2 * min(p.tables.ssrr_shapes, 2 * S) * ranges
    assert c_bm["tables"]["ssrr_path"]["size"] == 2 * 7 * S * ranges
    assert c_t2["tables"]["uro_next_hop"]["size"] == c_bm["tables"]["uro_next_hop"]["size"]
    ucmp = ucmp_compute(round_robin(p.tors, p.uplinks), UcmpParams())
    tor_batch.route_entries(c_t2, 3, path_routes=ucmp, source_routed=[5, 6])     # 2 destinations fit
    with pytest.raises(ent.EntryError, match=r"ssrr_path \(src 3, dst 4, slice 3\): group 16, profile 'few' holds 2 x 4 "
                                             r"groups per generation \(tables\.ssrr_dsts x S\); source-route at most 2 "
                                             r"destinations here"):
        tor_batch.route_entries(c_t2, 3, path_routes=ucmp, source_routed=[0, 1, 2, 4, 5, 6, 7])


def test_table_sram_counts_action_data_rams():
    """A table's SRAM is its match RAMs and its action-data RAMs (`<table>$action` in bf-p4c's
    resources.json): at (1024, 32) the URO table's action data is 4x its match RAMs."""
    from collections import Counter

    from controller.tofino2.report import Resources

    r = Resources("p", 17, 20)
    r.sram.total = 1600
    r.sram_by_table = Counter({"UroIngress.uro_next_hop": 16, "UroIngress.uro_next_hop$action": 64,
                               "UroIngress.ssrr_path": 6, "UroIngress.ssrr_hops$action": 30,
                               "UroIngress.route_mode": 2})
    assert r.table_sram("uro_next_hop").used == 80
    assert r.table_sram("ssrr_path", "ssrr_hops").used == 36
