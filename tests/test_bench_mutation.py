"""The mutation-testing configuration (``uro bench --suite mutation``, docs/mutation.md)
names what exists: every module and every test file of ``[tool.uro.mutation.modules]``,
and every documented equivalent mutant belongs to one of those modules. A renamed or
moved module or test file fails here, not an hour into a mutation run. The run itself is
long and not part of the tests."""

from __future__ import annotations

import json

import pytest

from controller.cli.bench import load_suite
from controller.errors import UroError

bm = load_suite("bench_mutation")


def test_every_configured_module_and_test_exists():
    targets = bm.targets()
    assert {t.short for t in targets} >= {"agent.generations", "agent.diff", "agent.known"}
    for t in targets:
        assert (bm.ROOT / t.path).is_file(), t.path
        for arg in t.tests:
            assert (bm.ROOT / arg.split("::")[0]).is_file(), (t.path, arg)


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
