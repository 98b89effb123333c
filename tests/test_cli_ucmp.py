"""`uro routes|run --algo ucmp`, `uro compare` and `uro failures` through controller.cli.main:
user errors are one clear line on stderr with a non-zero exit and no artifacts; the happy
paths write source routes that are valid on the schedule and print one row per scheme."""

import json
import re

import numpy as np
import pytest

from controller.analysis import failures
from controller.cli import main
from controller.errors import UroError
from controller.routing import ucmp
from controller.schedule import load, opera, round_robin, save

GEN = ["--generate", "opera", "--tors", "6", "--uplinks", "2"]
FGEN = ["--generate", "opera", "--tors", "6", "--uplinks", "2"]


def run(argv):
    """main(argv) -> exit code, also when argparse exits."""
    try:
        return main(argv)
    except SystemExit as e:
        return e.code


@pytest.mark.parametrize("argv,msg", [
    (["routes", *GEN, "--algo", "ucmp", "--alpha", "0", "-o", "out/r.json"], "--alpha must be a positive number, got 0.0"),
    (["routes", *GEN, "--algo", "ucmp", "--alpha", "-1", "-o", "out/r.json"], "--alpha must be a positive number, got -1.0"),
    (["routes", *GEN, "--algo", "ucmp", "--alpha", "nan", "-o", "out/r.json"], "--alpha: expected a finite number, got 'nan'"),
    (["run", *GEN, "--algo", "ucmp", "--alpha", "-0.5", "--out", "out"], "--alpha must be a positive number, got -0.5"),
    (["stats", *GEN, "--algo", "ucmp", "--alpha", "0"], "--alpha must be a positive number"),
    (["compare", *GEN, "--alpha", "-2", "--json", "out/c.json"], "--alpha must be a positive number, got -2.0"),
    (["routes", *GEN, "--algo", "ecmp", "-o", "out/r.json"], "unknown routing algorithm 'ecmp'"),
    (["run", *GEN, "--algo", "ecmp", "--out", "out"], "unknown routing algorithm 'ecmp'"),
    (["compare", *GEN, "--schemes", "ucmp,ecmp", "--json", "out/c.json"], "unknown scheme 'ecmp' in --schemes"),
    (["routes", *GEN, "--algo", "ucmp", "--h-max", "0", "-o", "out/r.json"], "--h-max: expected a positive integer, got '0'"),
    (["routes", *GEN, "--algo", "ucmp", "--max-parallel", "0", "-o", "out/r.json"], "--max-parallel: expected a positive integer"),
    (["routes", *GEN, "--algo", "ucmp", "--relax", "-1", "-o", "out/r.json"], "--relax: expected a non-negative integer"),
    (["routes", *GEN, "--algo", "ucmp", "--h-max", "40", "-o", "out/r.json"], "--h-max must be an integer in 1..32, got 40"),
    (["routes", *GEN, "--algo", "uro", "--h-max", "3", "-o", "out/r.json"], "--h-max is an option of ucmp; uro does not take it"),
    (["compare", *GEN, "--schemes", "uro,uro"], "--schemes: 'uro' is listed twice"),
    (["routes", *GEN, "--algo", "ucmp", "--ucmp-engine", "fast", "-o", "out/r.json"],
     "unknown UCMP engine 'fast'; choose one of: auto, numba, numpy"),
    (["failures", *FGEN, "--link-rate", "1.5"], "failure rate --link-rate must be in [0, 1), got 1.5"),
    (["failures", *FGEN, "--link-rate", "1"], "failure rate --link-rate must be in [0, 1), got 1.0"),
    (["failures", *FGEN, "--tor-rate", "-0.1"], "failure rate --tor-rate must be in [0, 1), got -0.1"),
    (["failures", *FGEN, "--ocs-rate", "0.1,1"], "failure rate --ocs-rate must be in [0, 1), got 1.0"),
    (["failures", *FGEN, "--link-rate", "0.1,nan"], "failure rate --link-rate must be in [0, 1), got nan"),
    (["failures", *FGEN, "--link-rate", "lots"], "--link-rate: expected a comma-separated list, got 'lots'"),
    (["failures", *FGEN, "--link-rate", "0.1,,0.2"], "--link-rate: empty item in '0.1,,0.2'"),
    (["failures", *FGEN, "--link-rate", "0"], "no failures asked for"),
    (["failures", "--generate", "opera", "--tors", "4", "--uplinks", "2", "--tor-rate", "0.9"],
     "failure rate --tor-rate 0.9 fails 4 of 4 ToRs"),
    (["failures", *FGEN, "--tors", "0.1"], "--tors is a number of ToRs, got '0.1' (a failure rate is --tor-rate)"),
    (["routes", *GEN, "--seed", "-1", "-o", "out/r.json"], "--seed: expected a non-negative integer, got '-1'"),
])
def test_user_errors_are_one_line_nonzero_and_write_nothing(tmp_path, capsys, monkeypatch, argv, msg):
    monkeypatch.chdir(tmp_path)
    assert run(argv) not in (0, None)
    cap = capsys.readouterr()
    assert msg in cap.err and cap.err.startswith("uro: error: ") and cap.err.count("\n") == 1
    assert "Traceback" not in cap.err + cap.out
    assert cap.out == ""  # no partial tables either
    assert list(tmp_path.iterdir()) == []


def test_non_numeric_alpha_is_an_argparse_error(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(["routes", *GEN, "--algo", "ucmp", "--alpha", "half", "-o", "r.json"]) == 2
    err = capsys.readouterr().err
    assert "--alpha: expected a number, got 'half'" in err and err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_bucket_overflow_is_reported_by_the_cli(tmp_path, capsys, monkeypatch):
    """More buckets than the DSCP can tag (here a 2-bucket limit) -> a UroError line, no file."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(ucmp, "MAX_BUCKETS", 2)
    assert run(["routes", *GEN, "--algo", "ucmp", "--h-max", "4", "-o", "r.json"]) == 2
    err = capsys.readouterr().err
    assert re.search(r"uro: error: \d+ flow-size buckets needed, more than the 2 a 6-bit DSCP can tag", err)
    assert list(tmp_path.iterdir()) == []


def test_failure_sampling_keeps_two_tors_up():
    sched = round_robin(4, 1)
    assert (~failures.sample(sched, tors=0.5).dead_tor).sum() == 2
    with pytest.raises(UroError, match="fails 3 of 4 ToRs"):
        failures.sample(sched, tors=0.7)


# ---- happy paths ------------------------------------------------------------------------------
def test_routes_ucmp_writes_valid_source_routes(tmp_path, capsys):
    sched = opera(7, 2, seed=4)
    save(sched, tmp_path / "s.json")
    out = tmp_path / "r.json"
    assert main(["routes", "--schedule", str(tmp_path / "s.json"), "--algo", "ucmp", "--h-max", "4",
                 "--relax", "1", "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    doc = json.loads(out.read_text())
    S, N, d = sched.peer.shape
    assert doc["format"] == "uro-source-routes/1" and doc["algo"] == "ucmp"
    assert doc["schedule"] == {"name": sched.name, "tors": N, "uplinks": d, "slices": S,
                               "hash": sched.content_hash()}
    nb = doc["buckets"]["count"]
    assert nb == len(doc["buckets"]["boundaries_slices_per_hop"]) + 1 <= 64
    assert [t["tor"] for t in doc["tors"]] == list(range(N))

    def check_path(src, dst, path):
        u = src
        for nxt, upl, s in path:
            assert 0 <= nxt < N and 0 <= upl < d and 0 <= s < S
            assert sched.peer[s, u, upl] == nxt, (src, dst, path)
            u = nxt
        assert u == dst and len({h[0] for h in path}) == len(path)

    n_backups = 0
    for tor in doc["tors"]:
        src = tor["tor"]
        served = {}
        for e in tor["entries"]:
            dst, t = e["dst"], e["slice"]
            assert 0 <= dst < N and dst != src and 0 <= t < S
            lo, hi = e["buckets"]
            assert 0 <= lo <= hi < nb
            for k in range(lo, hi + 1):
                assert (dst, t, k) not in served, "one entry per bucket"
                served[(dst, t, k)] = e
            assert e["paths"]
            for p in e["paths"]:
                check_path(src, dst, p)
                assert len(p) == e["hops"]
            # the member's paths (the relaxed 2-hop extras may be slower) deliver in time
            first = e["paths"][0]
            assert (first[-1][2] - t) % S + 1 == e["latency_slices"]
        # every (dst, start slice) has every bucket covered
        assert len(served) == (N - 1) * S * nb
        for b in tor["backups"]:
            n_backups += 1
            assert b["dst"] != src and 0 <= b["slice"] < S and 1 <= len(b["paths"]) <= 2
            for p in b["paths"]:
                assert len(p) == 2
                check_path(src, b["dst"], p)
    assert n_backups > 0


def test_run_ucmp_writes_schedule_and_source_routes(tmp_path, capsys):
    out = tmp_path / "art"
    assert main(["run", "--generate", "round-robin", "--tors", "6", "--uplinks", "1", "--algo", "ucmp",
                 "--alpha", "2", "--out", str(out), "--format", "json"]) == 0
    text = capsys.readouterr().out
    assert "flow-size buckets" in text and "alpha=2" in text
    assert sorted(p.name for p in out.iterdir()) == ["schedule.json", "source_routes.json"]
    sched = load(out / "schedule.json")
    doc = json.loads((out / "source_routes.json").read_text())
    assert doc["schedule"]["tors"] == sched.n_tors == 6 and doc["algo"] == "ucmp"


def test_compare_prints_a_row_per_scheme(tmp_path, capsys):
    sched = round_robin(6, 2)
    save(sched, tmp_path / "s.json")
    js = tmp_path / "c.json"
    assert main(["compare", "--schedule", str(tmp_path / "s.json"), "--json", str(js)]) == 0
    lines = capsys.readouterr().out.splitlines()
    labels = ["uro", "ucmp", "direct", "vlb", "ksp(k=1)", "ksp(k=5)", "opera(k=1)", "opera(k=5)"]
    head = next(i for i, line in enumerate(lines) if line.split()[:1] == ["scheme"])
    rows = [line.split() for line in lines[head + 1: head + 1 + len(labels)]]
    assert [r[0] for r in rows] == labels
    assert all(len(r) == len(lines[head].split()) for r in rows)
    by = {r[0]: r for r in rows}
    assert by["direct"][1] == "1.00" and by["ucmp"][-1] != "-" and by["uro"][-1] == "-"
    doc = json.loads(js.read_text())
    assert doc["format"] == "uro-compare/1" and doc["schedule"]["name"] == sched.name
    rows = doc["rows"]
    assert [m["scheme"] for m in rows] == labels
    assert rows[labels.index("direct")]["mean_hops"] == 1.0
    assert rows[labels.index("vlb")]["p99_hops"] <= 2


def test_compare_subset_and_sample(capsys):
    assert main(["compare", *GEN, "--schemes", "ucmp,ksp5", "--sample", "10"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^ucmp\s", out, re.M) and re.search(r"^ksp\(k=5\)\*\s", out, re.M)
    assert not re.search(r"^(uro|vlb|direct|opera)[\s(]", out, re.M)
    assert "seeded sample of 10" in out


def test_failures_table_is_monotone_in_alternatives_and_backups(capsys):
    assert main(["failures", *FGEN, "--links", "0.1,0.2", "--ocs", "0.5", "--trials", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[3].split() == ["failure", "rate", "uro", "K=1", "uro", "K=3", "uro", "K=5", "ucmp", "ucmp+backups"]
    rows = [line.split() for line in lines[4:]]
    assert [(r[0], r[1]) for r in rows] == [("links", "0.100"), ("links", "0.200"), ("ocs", "0.500")]
    for r in rows:
        k1, k3, k5, uc, ucb = (float(x.rstrip("%")) for x in r[2:])
        assert all(0 <= v <= 100 for v in (k1, k3, k5, uc, ucb))
        assert k1 >= k3 >= k5 and uc >= ucb
    assert np.isfinite([float(x.rstrip("%")) for r in rows for x in r[2:]]).all()


@pytest.mark.parametrize("slice_us", ["50", "1000"])
def test_long_slices_work_with_the_automatic_hop_budget(capsys, slice_us):
    """The paper's 50 us slices give h_slice = 80, 1000 us slices 255 (Timing's cap)."""
    assert main(["compare", *GEN, "--slice-us", slice_us, "--schemes", "uro,ucmp,vlb"]) == 0
    out = capsys.readouterr().out
    assert all(re.search(rf"^{s}\s", out, re.M) for s in ("uro", "ucmp", "vlb"))
    assert main(["failures", *FGEN, "--slice-us", slice_us, "--links", "0.1", "--trials", "1"]) == 0
    assert re.search(r"^links\s+0\.100\s", capsys.readouterr().out, re.M)


def test_ucmp_engines_write_the_same_source_routes(tmp_path, monkeypatch):
    """--ucmp-engine numpy (the reference) and numba give byte-identical source routes
    when the tie cap does not bind."""
    monkeypatch.chdir(tmp_path)
    argv = ["routes", "--generate", "opera", "--tors", "12", "--uplinks", "2", "--algo", "ucmp",
            "--max-parallel", "1000"]
    assert run([*argv, "--ucmp-engine", "numpy", "-o", "np.json"]) == 0
    assert run([*argv, "--ucmp-engine", "numba", "-o", "nb.json"]) == 0
    a, b = json.loads((tmp_path / "np.json").read_text()), json.loads((tmp_path / "nb.json").read_text())
    assert a == b
    assert any(len(e["paths"]) > 1 for t in a["tors"] for e in t["entries"]), "no tie on this schedule"
