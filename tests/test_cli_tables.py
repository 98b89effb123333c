import json
import subprocess
import sys

import numpy as np
import pytest

from controller.analysis import stats
from controller.tables import perhop
from controller.cli import main
from controller.routing.uro import UroParams, compute
from controller.schedule import opera, round_robin, save


def test_run_default_writes_artifacts(tmp_path, capsys):
    assert main(["run", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "round-robin-8x2" in out and "entries/ToR" in out
    from controller.schedule import load
    from controller.tables import artifacts

    sched = load(tmp_path / "schedule.json")
    art = artifacts.open(tmp_path / "routes.uro", sched)  # the pair matches
    assert art.kind == "per_hop" and art.algo == "uro" and art.params_dict()["k"] == 4
    assert main(["run", "--out", str(tmp_path), "--format", "json"]) == 0
    assert "removed the previous run's" in capsys.readouterr().out
    assert not (tmp_path / "routes.uro").exists()
    doc = json.loads((tmp_path / "routes.json").read_text())
    assert doc["format"] == "uro-routes/1" and len(doc["tors"]) == 8
    e = doc["tors"][0]["entries"][0]
    assert {"dst", "slice", "alternatives", "path", "latency_slices", "hops"} <= set(e)
    assert json.loads((tmp_path / "schedule.json").read_text())["tors"] == 8


def test_routes_json_is_consistent_with_schedule(tmp_path):
    sched = opera(10, 2, seed=5)
    save(sched, tmp_path / "s.json")
    assert main(["routes", "--schedule", str(tmp_path / "s.json"), "-K", "3", "-o", str(tmp_path / "r.json")]) == 0
    doc = json.loads((tmp_path / "r.json").read_text())
    S = sched.n_slices
    for tor in doc["tors"]:
        x = tor["tor"]
        assert len(tor["entries"]) == (sched.n_tors - 1) * S
        for e in tor["entries"]:
            for a in e["alternatives"]:
                assert sched.peer[a["dep_slice"], x, a["uplink"]] == a["next_tor"]
                assert (e["slice"] + a["wait"]) % S == a["dep_slice"] and 0 <= a["wait"] < S
            assert len(e["path"]) == e["hops"]
            assert e["path"][0]["uplink"] == e["alternatives"][0]["uplink"]


@pytest.mark.parametrize("argv,msg", [
    (["routes", "--generate", "opera", "--tors", "9", "--uplinks", "9", "-o", "X"], "9 uplinks for 9 ToRs"),
    (["routes", "--generate", "opera", "-K", "0", "-o", "X"], "-K/--alternatives: expected a positive integer, got '0'"),
    (["routes", "--generate", "opera", "--algo", "nope", "-o", "X"], "unknown routing algorithm 'nope'"),
    (["stats", "--generate", "opera", "--hop-budget", "lots"], "--hop-budget must be"),
    (["stats", "--schedule", "missing.json"], "schedule file not found"),
    (["stats"], "no schedule"),
    (["stats", "--generate", "opera", "--slice-us", "-1"], "--slice-us must be a positive"),
    (["routes", "--generate", "opera", "-K", "11", "-o", "X"], "K (alternatives per entry) must be 1..10"),
])
def test_cli_errors_are_one_line_and_write_nothing(tmp_path, capsys, monkeypatch, argv, msg):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert msg in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "X").exists()


def test_bad_schedule_file_via_console_script(tmp_path):
    bad = tmp_path / "bad.htsim"
    bad.write_text("4 1 1 4\n3 1000000 10000\n1 0 3 2\n")
    p = subprocess.run([sys.executable, "-m", "controller.cli", "routes", "--schedule", str(bad), "-o",
                        str(tmp_path / "r.json")], capture_output=True, text=True)
    assert p.returncode == 2 and "line 4 is missing" in p.stderr and "Traceback" not in p.stderr
    assert not (tmp_path / "r.json").exists()


def test_schedule_generate_convert_check(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.htsim"
    assert main(["schedule", "generate", "--generate", "round-robin", "--tors", "6", "--uplinks", "1", "-o", str(a)]) == 0
    assert main(["schedule", "convert", "--schedule", str(a), "-o", str(b), "--format", "htsim"]) == 0
    assert main(["schedule", "check", "--schedule", str(b)]) == 0
    assert "ok: " in capsys.readouterr().out


def test_entry_counts_and_compression_fig4b():
    sched = round_robin(8, 1)  # 7 slices, one uplink: long waits share actions
    r = compute(sched, UroParams(k=1, hops_per_slice=1))
    assert perhop.uncompressed_count(r) == 7 * 7
    comp = perhop.compressed_counts(r)
    # recount by brute force: runs of identical (uplink, dep slice) over arrival slices
    S, N = 7, 8
    for x in range(N):
        runs = 0
        for dst in range(N):
            if dst == x:
                continue
            prev = None
            for t in range(S):
                cur = (int(r.alt_uplink[t, x, dst, 0]), int(r.alt_dep[t, x, dst, 0]) % S)
                runs += cur != prev
                prev = cur
        assert comp[x] == runs
    assert comp.max() < perhop.uncompressed_count(r)


def test_queues_per_port_is_max_wait_plus_one():
    sched = opera(12, 2, seed=3)
    r = compute(sched, UroParams(k=3))
    q = perhop.queues_per_port(r)
    S = sched.n_slices
    want = np.zeros_like(q)
    for t, x, dst, k in zip(*np.nonzero(r.alt_uplink >= 0)):
        u = r.alt_uplink[t, x, dst, k]
        want[x, u] = max(want[x, u], r.alt_dep[t, x, dst, k] - t + 1)
    assert (q == want).all() and q.max() <= S
    st = stats.summarize(r)
    assert st.max_queues_per_port == q.max()
    assert sum(st.hop_histogram.values()) == S * 12 * 11


@pytest.mark.parametrize("argv", [["routes", "--algo", "ucmp", "-o", "r.json"],
                                  ["stats"], ["run", "--out", "out"]])
def test_each_command_computes_its_routes_once(tmp_path, monkeypatch, argv):
    from controller.routing import base

    calls, real = [], base.Algorithm.run

    def counting(self, *a, **kw):
        calls.append(self.name)
        return real(self, *a, **kw)

    monkeypatch.setattr(base.Algorithm, "run", counting)
    monkeypatch.chdir(tmp_path)
    assert main([*argv, "--generate", "round-robin", "--tors", "8", "--uplinks", "2"]) == 0
    assert len(calls) == 1, calls
