import numpy as np
import pytest
from hypothesis import given, settings

from controller.errors import ScheduleError
from controller.schedule import (
    IDLE, Schedule, Timing, format_htsim, from_dict, load, opera, parse_htsim, random_matchings,
    round_robin, save, to_dict,
)

from strategies import small_schedules


@pytest.mark.parametrize("n,d,S", [(8, 1, 7), (8, 2, 4), (7, 2, 4), (108, 6, 18), (1024, 32, 32)])
def test_round_robin_slices_match_paper(n, d, S):
    s = round_robin(n, d)
    assert s.n_slices == S
    met = s.meets()
    # every pair meets exactly once per cycle
    counts = met.sum(axis=0)
    assert (counts[~np.eye(n, dtype=bool)] == 1).all()


def test_round_robin_all_uplinks_reconfigure_every_slice():
    s = round_robin(12, 3)
    for s0 in range(s.n_slices - 1):
        live = (s.peer[s0] >= 0) & (s.peer[s0 + 1] >= 0)
        assert (s.peer[s0][live] != s.peer[s0 + 1][live]).all()


def test_opera_is_seeded():
    a, b, c = opera(16, 4, seed=1), opera(16, 4, seed=1), opera(16, 4, seed=2)
    assert a == b and not np.array_equal(a.peer, c.peer)


def test_offsets_in_a_file_become_exact_sub_slices():
    """OCS u switching u/d of a slice late: each slice is cut into d sub-slices, and in
    sub-slice j uplink u still carries its previous slice's circuit while j < u."""
    base = round_robin(8, 2)
    doc = to_dict(base)
    doc["uplink_offsets"] = [0.0, 0.5]
    sub = from_dict(doc)
    S = base.n_slices
    assert sub.n_slices == 2 * S and sub.timing.slice_us == base.timing.slice_us / 2
    for s in range(S):
        assert (sub.peer[2 * s] [:, 0] == base.peer[s, :, 0]).all()
        assert (sub.peer[2 * s][:, 1] == base.peer[(s - 1) % S, :, 1]).all()  # not yet switched
        assert (sub.peer[2 * s + 1] == base.peer[s]).all()
    assert "uplink_offsets" not in to_dict(sub)
    assert from_dict(to_dict(sub)) == sub


@pytest.mark.parametrize("offsets, msg", [([0.0, 1.0], r"uplink_offsets\[1\] must be a fraction"),
                                          ([0.0], "must list 2 values"),
                                          ([0.0, 0.013], "sub-slices per slice")])
def test_bad_offsets_are_refused(offsets, msg):
    doc = to_dict(round_robin(8, 2))
    doc["uplink_offsets"] = offsets
    with pytest.raises(ScheduleError, match=msg):
        from_dict(doc)


@given(small_schedules())
@settings(max_examples=40, deadline=None)
def test_json_round_trip_exact(sched):
    assert from_dict(to_dict(sched)) == sched


@given(small_schedules())
@settings(max_examples=40, deadline=None)
def test_htsim_round_trip(sched):
    back = parse_htsim(format_htsim(sched))
    assert np.array_equal(back.peer, sched.peer)
    assert back.timing.slice_us == pytest.approx(sched.timing.slice_us)
    assert back.timing.guard_us == pytest.approx(sched.timing.guard_us)


def test_htsim_self_peer_is_idle_and_paths_ignored():
    text = "4 1 1 4\n3 1000000 10000\n1 0 3 2\n2 3 0 1\n3 2 1 0\nsome path section\n0 1 2\n"
    s = parse_htsim(text)
    assert s.n_slices == 3 and s.n_tors == 4
    assert s.timing.slice_us == pytest.approx(1.01) and s.timing.guard_us == pytest.approx(0.01)
    assert (s.peer >= 0).all()
    # ToRs 0 and 3 listed as their own peers in slice 2 -> idle; then they never meet
    with pytest.raises(ScheduleError, match=r"never share a circuit.*\(0,3\)"):
        parse_htsim("4 1 1 4\n3 1000000 10000\n1 0 3 2\n2 3 0 1\n0 2 1 3\n")


@pytest.mark.parametrize("text,msg", [
    ("4 1 1 4\n3 1000000 10000\n1 0 3 2\n2 3 0 1\n", "line 5"),  # truncated
    ("4 1 1 4\n3 1000000 10000\n1 0 3 2\n2 x 0 1\n3 2 1 0\n", r"line 4: must be an integer, got 'x'"),
    ("4 1 1 4\n3 1000000 10000\n1 0 3\n2 3 0 1\n3 2 1 0\n", "line 3: slice 0 needs 4"),
    ("4 1 1 4\n3 1000000 10000\n1 0 3 9\n2 3 0 1\n3 2 1 0\n", "line 3: ToR 3 uplink 0: peer 9"),
    ("4 1 1 4\n3 -5 10000\n1 0 3 2\n2 3 0 1\n3 2 1 0\n", "line 2: connected_time_ps must be positive"),
    ("4 1\n", "line 1"),
    ("", "line 1"),
])
def test_htsim_errors_name_the_line(text, msg):
    with pytest.raises(ScheduleError, match=msg):
        parse_htsim(text)


def _peer(slices):
    return np.array(slices, dtype=np.int32)[:, :, None]


def test_asymmetric_circuit_named():
    # 3 ToRs, 1 uplink: slice 0: 0->1 but 1->idle
    with pytest.raises(ScheduleError, match=r"slice 0, uplink 0: ToR 0 -> ToR 1 is not symmetric"):
        Schedule(_peer([[1, IDLE, IDLE], [2, IDLE, 0], [IDLE, 2, 1]]))


def test_two_tors_on_one_uplink_named():
    with pytest.raises(ScheduleError, match=r"slice 0: ToRs \[0, 2\] all claim uplink 0 of ToR 1"):
        Schedule(_peer([[1, 0, 1], [2, IDLE, 0], [IDLE, 2, 1]]))


def test_pair_never_connected_reports_pairs():
    with pytest.raises(ScheduleError, match=r"1 ToR pair\(s\) never share a circuit.*\(0,2\)"):
        Schedule(_peer([[1, 0, IDLE], [IDLE, 2, 1]]))


def test_out_of_range_and_self_peer():
    with pytest.raises(ScheduleError, match="slice 0, ToR 0, uplink 0: peer 7 is out of range"):
        Schedule(_peer([[7, 0, IDLE]]))
    with pytest.raises(ScheduleError, match="own peer"):
        Schedule(_peer([[0, IDLE, IDLE]]))


@pytest.mark.parametrize("kw,msg", [
    ({"slice_us": 0}, "slice_us must be a positive"),
    ({"slice_us": -1}, "slice_us must be a positive"),
    ({"guard_us": -0.1}, "guard_us must be a non-negative"),
    ({"guard_us": 3.0, "slice_us": 2.0}, "must be shorter"),
    ({"link_gbps": 0}, "link_gbps"),
])
def test_bad_timing(kw, msg):
    with pytest.raises(ScheduleError, match=msg):
        Schedule(round_robin(4, 1).peer, Timing(**kw))


def test_idle_uplinks_are_legal():
    s = random_matchings(6, 2, seed=3, n_slices=6)
    assert (s.peer == IDLE).any()


def test_json_errors_and_no_partial_write(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"tors": 3, "uplinks": 1, "slices": 1, "circuits": [[[1],[0],[null]]]}')
    with pytest.raises(ScheduleError, match="never share"):
        load(bad)
    bad.write_text('{"tors": 3, "uplinks": 1, "slices": 1, "circuits": [[[1],[0]]]}')
    with pytest.raises(ScheduleError, match="slice 0 must list 3 ToRs"):
        load(bad)
    bad.write_text('{"tors": 3, "uplinks": 1, "slices": 1, "circuits": [[[1],["a"],[null]]]}')
    with pytest.raises(ScheduleError, match="slice 0, ToR 1, uplink 0: expected an integer"):
        load(bad)
    bad.write_text('{"tors": 3,')
    with pytest.raises(ScheduleError, match="invalid JSON at line 1"):
        load(bad)


def test_save_load_files(tmp_path):
    s = opera(10, 3, seed=4)
    save(s, tmp_path / "a.json")
    save(s, tmp_path / "a.htsim", "htsim")
    assert load(tmp_path / "a.json") == s
    assert np.array_equal(load(tmp_path / "a.htsim").peer, s.peer)
