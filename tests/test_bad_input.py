"""Bad input, as a new user would give it: one line on stderr naming the offending item and
the flag or field, exit 2, nothing written, no traceback, refused before the work (and
before large allocations); an option a command would ignore is an error or a warning."""

import json
import os
import tracemalloc

import numpy as np
import pytest

from controller import memory
from controller.cli import common, main
from controller.schedule import load, opera, round_robin, save
from controller.schedule.formats import FORMAT_TAG, to_dict

GEN = ["--generate", "opera", "--tors", "6", "--uplinks", "2"]


def one_line_error(capsys, argv, code=2):
    assert main(argv) == code
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if not ln.startswith("uro: warning")]
    assert len(lines) == 1 and lines[0].startswith("uro: error: ") and "Traceback" not in err, err
    assert len(lines[0]) < 400, f"message too long ({len(lines[0])} chars)"
    return lines[0]


# ---- output paths: checked before any work ----------------------------------------------------
@pytest.fixture
def no_work(monkeypatch):
    """Any command that reaches the schedule/routing stage fails the test."""
    def boom(*a, **k):
        raise AssertionError("work started before the output path was checked")

    monkeypatch.setattr(common.ScheduleArgs, "load", boom)


@pytest.mark.parametrize("argv,msg", [
    (["routes", *GEN, "-o", "{d}"], "is a directory that is not a uro route artifact"),
    (["routes", *GEN, "-o", "{d}/x.json"], None),  # fine: under a directory (control, needs work)
    (["routes", *GEN, "-o", "{f}/x.json"], "is not a directory"),
    (["routes", *GEN, "-o", "{f}/x.uro"], "is not a directory"),
    (["routes", *GEN, "-o", "{ro}/x.uro"], "cannot write in"),
    (["routes", *GEN, "-o", "{d}", "--format", "json"], "is a directory"),
    (["run", *GEN, "--out", "{f}"], "exists and is not a directory"),
    (["run", *GEN, "--out", "{ro}/out"], "cannot write in"),
    (["compare", *GEN, "--plot", "{d}"], "--plot {d}: is a directory"),
    (["compare", *GEN, "--json", "{f}/c.json"], "--json {f}/c.json"),
    (["compare", *GEN, "--plot", "{ro}/c.png"], "--plot {ro}/c.png: cannot write in"),
    (["schedule", "generate", *GEN, "-o", "{d}"], "-o {d}: is a directory"),
    (["schedule", "convert", "--schedule", "{f}", "-o", "{ro}/x.json"], "cannot write in"),
    (["p4", "render", "--out", "{f}"], "--out {f}: exists and is not a directory"),
])
def test_output_paths_are_checked_before_work(tmp_path, capsys, monkeypatch, no_work, argv, msg):
    d = tmp_path / "dir"
    d.mkdir()
    (d / "keep").write_text("x")
    f = tmp_path / "file"
    f.write_text("x")
    ro = tmp_path / "ro"
    ro.mkdir()
    real_access = os.access
    # a read-only location (root ignores mode bits, so the permission answer is simulated)
    monkeypatch.setattr(os, "access", lambda p, mode: False if str(p).startswith(str(ro)) else real_access(p, mode))
    argv = [a.format(d=d, f=f, ro=ro) for a in argv]
    if msg is None:
        with pytest.raises(AssertionError, match="work started"):
            main(argv)
        return
    line = one_line_error(capsys, argv)
    assert msg.format(d=d, f=f, ro=ro) in line
    assert ".tmp" not in line  # the user's path, never a hidden temporary
    assert (d / "keep").read_text() == "x" and f.read_text() == "x"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "file", "ro"] and not any(ro.iterdir())


# ---- schedules: one line, no traceback, no huge allocation --------------------------------------
def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text) if isinstance(text, str) else p.write_bytes(text)
    return p


def _check_error_and_peak(capsys, path):
    """`uro schedule check` on ``path``: its one-line error and the peak of Python memory
    allocated meanwhile (sizes must be checked against the data before allocating)."""
    tracemalloc.start()
    try:
        line = one_line_error(capsys, ["schedule", "check", "--schedule", str(path)])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return line, peak


@pytest.mark.parametrize("text,msg", [
    ("4 1 1 4\nnan 1000000 10000\n1 0 3 2\n", "line 2: slices must be a positive integer, got 'nan'"),
    ("4 1 1 4\ninf 1000000 10000\n1 0 3 2\n", "line 2: slices must be a positive integer, got 'inf'"),
    ("4 1 1 4\n1e30 1000000 10000\n1 0 3 2\n", "line 2 declares 1000000000000000019884624838656 slices but the file has 1"),
    ("4 1 1 1000000000\n2 1000000 10000\n1 0 3 2\n2 3 0 1\n", "line 3: slice 0 needs 1000000000 peer ids"),
    ("4 1 1 4\n2 1000000 10000\n1 0 3 1099511627776\n2 3 0 1\n", "peer 1099511627776 is out of range 0..3"),
    ("4 1 1 4\n2 1000000 10000\n1 0 3 " + "9" * 100 + "\n2 3 0 1\n", "is out of range 0..3"),
    ("-1 -1 1 4\n2 1000000 10000\n1 0 3 2\n2 3 0 1\n",
     "line 1: hosts must be >= 0, got -1; downlinks must be >= 0, got -1"),
    ("4 1 0 1\n2 1000000 10000\n", "line 1: uplinks must be >= 1, got 0; tors must be >= 2, got 1"),
    ("4 1 1 1e9\n", "line 1: tors must be an integer, got '1e9'"),
])
def test_htsim_header_and_sizes(tmp_path, capsys, text, msg):
    p = _write(tmp_path, "s.txt", text)
    line, peak = _check_error_and_peak(capsys, p)
    assert msg in line
    assert peak < 64 << 20  # the declared sizes were checked against the data before allocating


def _doc(**over):
    d = to_dict(round_robin(4, 1))
    d.update(over)
    return d


@pytest.mark.parametrize("doc,msg", [
    (_doc(tors=1e9), "tors: expected an integer, got 1000000000.0"),
    (_doc(tors=10**9), "slice 0 must list 1000000000 ToRs (\"tors\": 1000000000), got 4"),
    (_doc(slices=10**9), "circuits must list 1000000000 slices"),
    (_doc(uplinks=10**9), "must list 1000000000 uplinks"),
    (_doc(circuits=[[[2**40], [0], [3], [2]]] * 3), "peer 1099511627776 is out of range 0..3"),
    (_doc(circuits=[[[-5], [0], [3], [2]]] * 3), "peer -5 is out of range 0..3 (use null for idle)"),
    (_doc(tors=1), "tors must be >= 2, got 1"),
    (_doc(name="x" * 50000, circuits="y" * 50000), "circuits must list 3 slices"),
])
def test_json_sizes_checked_before_allocating(tmp_path, capsys, doc, msg):
    p = _write(tmp_path, "s.json", json.dumps(doc))
    line, peak = _check_error_and_peak(capsys, p)
    assert msg in line
    assert peak < 64 << 20


@pytest.mark.parametrize("text,msg", [
    ("[" * 100000 + "]" * 100000, "JSON nested too deeply"),
    ('{"a":' * 100000 + "1" + "}" * 100000, "JSON nested too deeply"),
    ("null", "a uro JSON schedule is an object"),
    ("[" + ", ".join(["1234567"] * 5000) + "]", "got a JSON list"),
    ('"' + "z" * 40000 + '"', "got a JSON string"),
    ("{" + " " * 40000 + "oops", "invalid JSON at line 1"),
])
def test_json_detection_and_short_messages(tmp_path, capsys, text, msg):
    p = _write(tmp_path, "s.json", text)
    assert msg in one_line_error(capsys, ["schedule", "check", "--schedule", str(p)])


def test_json_with_bom_loads(tmp_path, capsys):
    sched = opera(8, 2, seed=1)
    p = _write(tmp_path, "s.json", "\ufeff".encode() + json.dumps(to_dict(sched)).encode())
    assert load(p) == sched
    assert main(["schedule", "check", "--schedule", str(p)]) == 0
    p = _write(tmp_path, "n.json", b"\xef\xbb\xbfnull")
    assert "got a JSON null" in one_line_error(capsys, ["schedule", "check", "--schedule", str(p)])


def test_binary_file_is_one_line(tmp_path, capsys):
    p = _write(tmp_path, "s.bin", bytes(range(256)) * 100)
    assert "not UTF-8 text" in one_line_error(capsys, ["schedule", "check", "--schedule", str(p)])


# ---- memory: refused with the estimate, before allocating ----------------------------------------
@pytest.mark.parametrize("argv,what", [
    (["schedule", "generate", "--generate", "opera", "--tors", "100000", "-o", "x.json"], "generating a opera schedule"),
    (["stats", "--generate", "opera", "--tors", "4096", "--uplinks", "32"], "uro"),
    (["routes", "--generate", "opera", "--tors", "4096", "--uplinks", "32", "--algo", "ucmp", "-o", "x.uro"],
     "ucmp routes (streamed)"),
    (["routes", "--generate", "opera", "--tors", "4096", "--uplinks", "32", "--algo", "ucmp", "-o", "x.json"],
     "ucmp routes"),
    (["compare", "--generate", "opera", "--tors", "4096", "--uplinks", "32", "--schemes", "vlb"], "vlb routes"),
])
def test_too_big_is_refused_with_the_estimate(tmp_path, capsys, monkeypatch, argv, what):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(memory, "available_memory", lambda: 16 << 30)
    tracemalloc.start()
    try:
        line = one_line_error(capsys, argv)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert what in line and "needs about" in line and "16.0 GiB are available" in line
    assert peak < 256 << 20
    assert list(tmp_path.iterdir()) == []


def test_estimates_grow_with_the_work():
    # per algorithm, not one figure for everything: UCMP in memory > streamed; uro grows with K
    n = (1024, 32, 32)
    assert memory.estimate("ucmp", *n) > 4 * memory.estimate("ucmp_stream", *n)
    assert memory.estimate("uro", *n, k=10) > memory.estimate("uro", *n, k=1)
    assert memory.estimate("vlb", *n) > memory.estimate("direct", *n)
    # the measured (1024, 32) runs fit the machines they ran on
    assert memory.estimate("uro", *n, k=4) < 4 << 30
    assert memory.estimate("ucmp_stream", *n) < 6 << 30


# ---- names the flag, not the field ---------------------------------------------------------------
@pytest.mark.parametrize("argv,msg", [
    (["routes", *GEN, "--max-hops", "300", "-o", "r.uro"], "--max-hops must be an integer in 1..254, got 300"),
    (["routes", *GEN, "--algo", "ucmp", "--h-max", "40", "-o", "r.uro"], "--h-max must be an integer in 1..32"),
    (["routes", *GEN, "--hop-budget", "999", "-o", "r.uro"], "--hop-budget must be auto, none or an integer"),
    (["stats", *GEN, "--slice-us", "0"], "--slice-us must be a positive number"),
    (["stats", *GEN, "--guard-us", "5"], "--guard-us (5.0) must be shorter than timing.slice_us (2.0)"),
])
def test_messages_name_flags(tmp_path, capsys, monkeypatch, argv, msg):
    monkeypatch.chdir(tmp_path)
    line = one_line_error(capsys, argv)
    assert msg in line
    for field in ("max_hops", "h_max", "hops_per_slice"):
        assert field not in line


# ---- silently ignored things ---------------------------------------------------------------------
def test_timing_flags_override_a_schedule_file(tmp_path, capsys):
    p = tmp_path / "s.json"
    save(opera(8, 2), p)
    assert main(["schedule", "check", "--schedule", str(p), "--slice-us", "50", "--link-gbps", "400"]) == 0
    out = capsys.readouterr().out
    assert "slice 50 us" in out and "400 Gbps" in out
    assert main(["stats", "--schedule", str(p), "--slice-us", "50"]) == 0
    assert "h_slice 80" in capsys.readouterr().out  # the override reaches routing (UCMP App. B)


@pytest.mark.parametrize("argv,msg", [
    (["routes", *GEN, "--algo", "uro", "--backups", "1", "-o", "r.uro"], "--backups is an option of ucmp"),
    (["stats", *GEN, "--max-parallel", "2"], "--max-parallel is an option of ucmp; uro does not take it"),
    (["compare", *GEN, "--schemes", "uro,uro"], "--schemes: 'uro' is listed twice"),
    (["compare", *GEN, "--schemes", "uro,,direct"], "--schemes: empty item"),
    (["failures", *GEN, "--links", "0.1,,0.2"], "--link-rate: empty item in '0.1,,0.2'"),
    (["failures", *GEN, "--link-rate", "0.1,0.1"], "--link-rate: 0.1 is listed twice"),
])
def test_ignored_options_are_errors(tmp_path, capsys, monkeypatch, argv, msg):
    monkeypatch.chdir(tmp_path)
    assert msg in one_line_error(capsys, argv)
    assert list(tmp_path.iterdir()) == []


def test_htsim_export_warns_about_lost_fields(tmp_path, capsys):
    p = tmp_path / "s.json"
    save(opera(8, 2), p)
    out = tmp_path / "s.htsim"
    assert main(["schedule", "convert", "--schedule", str(p), "-o", str(out), "--format", "htsim",
                 "--propagation-us", "1.5"]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "propagation_us = 1.5" in err
    assert load(out).timing.propagation_us == 0.5  # what a reader gets, as the warning says


@pytest.mark.parametrize("slice_us", ["2000000", "1e300"])
def test_implausible_timing_warns(tmp_path, capsys, slice_us):
    assert main(["stats", *GEN, "--slice-us", slice_us]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "unusually long" in err


# ---- the long phases report progress --------------------------------------------------------------
def test_writers_report_progress_per_tor(tmp_path):
    from controller.routing import base
    from controller.tables import artifacts

    sched = opera(9, 2, seed=2)
    for algo in ("uro", "ucmp"):
        r = base.compute(algo, sched)
        for name in ("a.uro", "a.json"):
            calls = []
            artifacts.write(r, tmp_path / f"{algo}-{name}", progress=calls.append)
            assert calls == [1] * sched.n_tors


def test_compare_metrics_report_progress(tmp_path, capsys):
    from controller.analysis import compare
    from controller.routing import base

    sched = opera(9, 2, seed=2)
    for algo in ("uro", "ucmp"):
        calls = []
        compare.metrics(algo, base.compute(algo, sched), progress=calls.append)
        assert sum(calls) == compare.METRIC_STEPS
    assert main(["compare", *GEN, "--schemes", "uro,direct"]) == 0
    err = capsys.readouterr().err
    assert "uro: routes done, computing metrics" in err and "direct: routes done, computing metrics" in err


def test_plot_has_title_and_tells_overlapping_curves_apart(tmp_path):
    pytest.importorskip("matplotlib")
    from controller.analysis import compare
    from controller.routing import base

    sched = opera(9, 2, seed=2)
    r = base.compute("direct", sched)
    out = tmp_path / "cdf.png"
    summary = compare.plot_cdfs([("direct", r), ("direct-again", r), ("uro", base.compute("uro", sched))],
                                str(out), sched.timing.slice_us, title="opera-9x2: 9 ToRs")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert summary["title"] == "opera-9x2: 9 ToRs"
    styles = [(ls, mk) for _, ls, mk in summary["lines"]]
    assert [lb for lb, _, _ in summary["lines"]] == ["direct", "direct-again", "uro"]
    assert len(set(styles)) == 3  # identical curves still differ in line style and marker


def test_compare_plot_via_cli_has_schedule_title(tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    from controller.analysis import compare

    seen = {}
    real = compare.plot_cdfs

    def spy(named, path, slice_us, title=None):
        seen["title"] = title
        return real(named, path, slice_us, title=title)

    monkeypatch.setattr(compare, "plot_cdfs", spy)
    assert main(["compare", *GEN, "--schemes", "uro,direct", "--plot", str(tmp_path / "c.png")]) == 0
    assert seen["title"].startswith("opera-6x2-s0: 6 ToRs x 2 uplinks")
    assert (tmp_path / "c.png").stat().st_size > 1000


def test_schedule_hash_ignores_name_only():
    a = opera(8, 2, seed=1)
    from controller.schedule import Schedule, Timing

    assert Schedule(a.peer, a.timing, "renamed").content_hash() == a.content_hash()
    assert Schedule(a.peer, Timing(slice_us=3.0), a.name).content_hash() != a.content_hash()
    assert opera(8, 2, seed=2).content_hash() != a.content_hash()
    assert FORMAT_TAG == "uro-schedule/1" and np.int32  # the hash covers the uro-schedule/1 content


@pytest.mark.parametrize("argv,msg", [
    (["bench", "--suite", "fabric", "--profile"], "--profile profiles the runs of --suite fabric --large-tors N"),
    (["bench", "--suite", "uro", "--large-tors", "4", "--profile"], "--profile profiles the runs of --suite fabric"),
    (["bench", "--suite", "fabric", "--large-tors", "1025"], "--large-tors: at most 1024"),
    (["bench", "--suite", "fabric", "--large-tors", "0"], "--large-tors"),
    (["bench", "--suite", "liveness", "--hold-pps", "200"], "--hold-pps paces the hold queues of --suite clock"),
    (["bench", "--suite", "clock", "--hold-pps", "0"], "--hold-pps"),
    (["bench", "--suite", "liveness", "--load"], "--load runs route computations beside --suite clock's fabric"),
    (["bench", "--suite", "clock", "--load", "0"], "--load"),
    (["bench", "--suite", "clock", "--memory-cap", "12"], "--memory-cap caps the daemon and the simulated fabric"),
    (["bench", "--suite", "fabric", "--memory-cap", "0"], "--memory-cap '0': GiB of resident memory, a number above 0"),
    (["bench", "--suite", "fabric", "--memory-cap", "nan"], "--memory-cap 'nan'"),
    (["bench", "--suite", "fabric", "--memory-cap", "lots"], "--memory-cap 'lots'"),
    (["bench", "--suite", "fabric", "--networks", "ucmp,fast"], "--networks 'ucmp,fast': names of (108, 6) networks "
                                                                "among uro, ucmp, whole, comma-separated ('fast' is not"),
    (["bench", "--suite", "fabric", "--networks", "uro,uro"], "(each once)"),
    (["bench", "--suite", "fabric", "--networks", ""], "--networks ''"),
    (["bench", "--suite", "daemon", "--networks", "ucmp"], "--networks picks the (108, 6) networks of --suite fabric"),
    (["bench", "--suite", "fabric", "--repeat", "0"], "--repeat"),
    (["bench", "--suite", "fabric", "--repeat", "21"], "--repeat '21': at most 20"),
    (["bench", "--suite", "fabric", "--repeat", "twice"], "--repeat"),
    (["bench", "--suite", "clock", "--repeat", "3"], "--repeat repeats the failures of --suite fabric"),
])
def test_bench_fabric_large_tors_and_profile(capsys, monkeypatch, argv, msg):
    """`uro bench --suite fabric --large-tors N --profile`: a profile without the runs it
    profiles, or more ToRs than the network has, is refused before any work."""
    from controller.cli import bench

    def no_bench(name):
        raise AssertionError(f"benchmark {name} started before the options were checked")

    monkeypatch.setattr(bench, "load_suite", no_bench)
    assert msg in one_line_error(capsys, argv)


def bench_suite_kwargs(monkeypatch, argv: list[str]) -> dict:
    """What `uro <argv>` hands to its suite's ``main`` (the suite itself not run)."""
    from controller.cli import bench

    seen = {}

    class Suite:
        @staticmethod
        def main(**kw):
            seen.update(kw)
            return 0

    monkeypatch.setattr(bench, "load_suite", lambda name: Suite)
    assert main(argv) == 0
    return seen


@pytest.mark.parametrize("argv,load", [([], None), (["--load"], 0), (["--load", "4"], 4), (["--load", "--quick"], 0)])
def test_bench_clock_load_reaches_the_suite(monkeypatch, argv, load):
    """`uro bench --suite clock --load [N]`: no load, one computation per core (0), or N."""
    assert bench_suite_kwargs(monkeypatch, ["bench", "--suite", "clock", *argv])["load"] == load


@pytest.mark.parametrize("argv,cap", [([], None), (["--memory-cap", "14.5"], 14.5)])
def test_bench_fabric_memory_cap_reaches_the_suite(monkeypatch, argv, cap):
    """`uro bench --suite fabric --memory-cap GIB` hands its cap to the fabric suite (the
    suite's own default, 8 GiB, without it)."""
    assert bench_suite_kwargs(monkeypatch, ["bench", "--suite", "fabric", *argv]).get("memory_cap_gib") == cap


@pytest.mark.parametrize("argv,networks", [([], None), (["--networks", "ucmp"], ("ucmp",)),
                                           (["--networks", "whole, uro"], ("whole", "uro"))])
def test_bench_fabric_networks_reach_the_suite(monkeypatch, argv, networks):
    """`uro bench --suite fabric --networks NAME,...` hands the (108, 6) runs asked for to the
    fabric suite, in the order given (the suite's own default, every network, without it)."""
    assert bench_suite_kwargs(monkeypatch, ["bench", "--suite", "fabric", *argv]).get("networks") == networks


@pytest.mark.parametrize("argv,repeat", [([], None), (["--repeat", "3"], 3)])
def test_bench_fabric_repeat_reaches_the_suite(monkeypatch, argv, repeat):
    """`uro bench --suite fabric --repeat N` hands N to the fabric suite (its own default, once,
    without it)."""
    assert bench_suite_kwargs(monkeypatch, ["bench", "--suite", "fabric", *argv]).get("repeat") == repeat
