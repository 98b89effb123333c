"""The mutation-testing configuration (``uro bench --suite mutation``, docs/mutation.md)
names what exists: every module and every test file of ``[tool.uro.mutation.modules]``,
and every documented equivalent mutant belongs to one of those modules. A renamed or
moved module or test file fails here, not an hour into a mutation run. The run itself is
long and not part of the tests."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest

from controller.cli.bench import load_suite
from controller.errors import UroError

bm = load_suite("bench_mutation")


def test_every_configured_module_and_test_exists():
    targets = bm.targets()
    assert {t.short for t in targets} >= {"agent.generations", "agent.diff", "agent.known"}
    for t in targets:
        assert (bm.ROOT / t.path).is_file(), t.path
        for arg in t.tests:             # test files and node ids, pytest options (--deselect ID)
            assert arg.startswith("--") or (bm.ROOT / arg.split("::")[0]).is_file(), (t.path, arg)


def test_documented_equivalents_name_configured_modules():
    modules = {t.module for t in bm.targets()}
    eq = bm.equivalents()
    assert eq, "docs/mutation.md lists no equivalent mutant (the table's format changed?)"
    for name, (line, why) in eq.items():
        assert any(name.startswith(m + ".") for m in modules), name
        assert line and why, name


def test_select_by_short_name_and_refuses_unknown(tmp_path):
    targets = bm.targets()
    assert [t.short for t in bm.select(targets, "diff,generations")] == ["agent.diff", "agent.generations"]
    assert bm.select(targets, None) == targets
    with pytest.raises(UroError, match="'nosuch': not one of"):
        bm.select(targets, "nosuch")


def test_a_bad_config_is_refused(tmp_path):
    p = tmp_path / "pyproject.toml"
    p.write_text('[tool.uro.mutation.modules]\n"controller/nosuch.py" = ["tests/test_uro.py"]\n')
    with pytest.raises(UroError, match="controller/nosuch.py is not a file"):
        bm.targets(p)
    p.write_text('[tool.uro.mutation.modules]\n"controller/agent/diff.py" = []\n')
    with pytest.raises(UroError, match="not a list of tests"):
        bm.targets(p)


def test_statuses_from_mutmuts_exit_codes(tmp_path):
    t = bm.Target("controller/agent/diff.py", ("tests/test_agent_diff.py",))
    meta = tmp_path / "mutants" / "controller" / "agent" / "diff.py.meta"
    meta.parent.mkdir(parents=True)
    meta.write_text(json.dumps({"exit_code_by_key": {"a": 1, "b": 0, "c": 33, "d": 36, "e": None, "f": 2}}))
    assert bm._statuses(tmp_path, t) == {"a": "killed", "b": "survived", "c": "no tests", "d": "timeout",
                                         "e": "not checked", "f": "suspicious (2)"}


def test_mutmut_runs_with_its_wall_clock_limit_raised_and_its_cpu_limit_kept(tmp_path):
    """The runner's start of ``mutmut run`` raises the wall-clock limit mutmut's workers
    register (a starved process on a loaded machine is not a mutant that loops) and leaves
    longer ones alone; if mutmut moved the function, this fails, not a run."""
    pytest.importorskip("mutmut")
    (tmp_path / "pyproject.toml").write_text('[tool.mutmut]\nsource_paths = ["."]\n')
    prologue = bm._LAUNCH.split("from mutmut.__main__")[0]
    code = ("import mutmut.workers.timeout as t\ncalls = []\n"
            "t.register_timeout = lambda pid, timeout_s: calls.append((pid, timeout_s))\n"
            + prologue +
            "iso.register_timeout(7, 16.5)\niso.register_timeout(pid=8, timeout_s=5000.0)\nprint(calls)\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == repr([(7, bm.WALL_LIMIT), (8, 5000.0)])


def test_the_copy_configures_mutmuts_limits(tmp_path, monkeypatch):
    monkeypatch.setattr(bm, "ROOT", tmp_path / "src")
    (tmp_path / "src" / "tests").mkdir(parents=True)
    (tmp_path / "src" / "benchmarks").mkdir()
    (tmp_path / "src" / "benchmarks" / "bench_fabric.py").write_text("")
    (tmp_path / "src" / "pyproject.toml").write_text('[tool.pytest.ini_options]\ntestpaths = ["tests", "x"]\n')
    d = bm._copy(bm.Target("controller/agent/diff.py", ("tests/test_agent_diff.py",)), tmp_path / "work")
    cfg = tomllib.loads((d / "pyproject.toml").read_text())
    assert cfg["tool"]["mutmut"]["timeout_constant"] == bm.TIMEOUT_CONSTANT
    assert cfg["tool"]["mutmut"]["timeout_multiplier"] == bm.TIMEOUT_MULTIPLIER
    assert cfg["tool"]["mutmut"]["only_mutate"] == ["controller/agent/diff.py"]
    assert cfg["tool"]["pytest"]["ini_options"]["testpaths"] == ["tests"]
    # mutmut runs the tests in its own tree (mutants/): the top-level conftest.py (the t2na_build
    # fixture some of tofino2.plan's tests take) must be copied there, or those tests error
    assert "conftest.py" in cfg["tool"]["mutmut"]["also_copy"]
    # tests import the benchmarks' helpers (tests/test_agent_p4wire.py: bench_fabric's net_config)
    assert "benchmarks" in cfg["tool"]["mutmut"]["also_copy"] and (d / "benchmarks" / "bench_fabric.py").exists()


def test_a_sample_names_its_functions_mutants_and_scores_only_them():
    t = bm.Target("controller/tables/artifacts.py", ("tests/test_artifacts.py",))
    assert bm.mutant_patterns(t, "open, RouteArtifact.__init__,_array*") == [
        "controller.tables.artifacts.x_open__mutmut_*",
        "controller.tables.artifacts.xǁRouteArtifactǁ__init____mutmut_*",
        "controller.tables.artifacts.x__array*__mutmut_*"]
    assert bm.mutant_patterns(t, None) == []
    with pytest.raises(UroError, match="--functions 'a b'"):
        bm.mutant_patterns(t, "a b")
    o = bm.Outcome(t, {"a": "killed", "b": "timeout", "c": "survived", "d": "not checked", "e": "not checked"},
                   {}, {}, [], 1.0, (0.0, 0.0), functions=("open",))
    assert o.score == pytest.approx(2 / 3)
    assert "a sample: the 3 mutants of open (of 5" in bm.report(o)
