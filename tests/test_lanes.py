"""The whole suite's two lanes (the root conftest.py's ``LANES``, docs/testing.md "Two
lanes"): every test file has its lane by a path, each shared resource stays in one lane,
and the tests that wait for the large t2na builds run apart from the tofino model."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _root_conftest():
    spec = importlib.util.spec_from_file_location("uro_root_conftest", ROOT / "conftest.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _test_files() -> list[str]:
    paths = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["testpaths"]
    return sorted(str(f.relative_to(ROOT)) for p in paths for f in (ROOT / p).rglob("test_*.py"))


def test_every_test_file_has_its_lane_by_a_path():
    c = _root_conftest()
    files = _test_files()
    assert files
    n_paths = sum(len(ps) for ps in c.LANES.values())
    unplaced = [f for f in files if c._lane_path(f + "::t")[1] == n_paths]
    assert unplaced == []
    assert len(c.LANES) == 2


def test_a_suite_with_a_shared_resource_runs_in_one_lane_and_the_large_builds_apart_from_the_model():
    c = _root_conftest()
    files = _test_files()
    for suite in ("emulate_tests/", "tofino_tests/", "bmv2_tests/"):
        lanes = {c._lane_path(f + "::t")[0] for f in files if f.startswith(suite)}
        assert len(lanes) == 1, (suite, lanes)
    # the fit tests that wait for the large builds run where no tofino model idles meanwhile
    assert c._lane_path("tests/test_tofino2_compile.py::x")[0] != c._lane_path("tofino_tests/test_a_push.py::x")[0]


def test_a_lane_path_that_names_tests_matches_some():
    """A lane path into a file (``file::test[params``) places exactly the tests it names: a
    renamed test or a changed parameter would leave it matching none, silently, and the
    lanes uneven again."""
    import subprocess
    import sys

    c = _root_conftest()
    for p in (p for ps in c.LANES.values() for p in ps if "::" in p):
        f = p.split("::", 1)[0]
        out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                              "-p", "no:xdist", f], cwd=ROOT, capture_output=True, text=True, timeout=120).stdout
        ids = [line for line in out.splitlines() if line.startswith(f + "::")]
        assert ids, out[-2000:]
        assert any(i.startswith(p) for i in ids), (p, ids)


def _module_name(f: str) -> str:
    """The name pytest (import mode "prepend") imports a test file by: its basename, with
    the packages around it (directories with ``__init__.py``) in front."""
    p = ROOT / f
    parts = [p.stem]
    while (p.parent / "__init__.py").exists():
        p = p.parent
        parts.insert(0, p.name)
    return ".".join(parts)


def test_no_two_test_files_share_a_module_name():
    """Suites that are plain directories (no ``__init__.py``) have their test files imported
    as top-level modules by basename: two files of one name there make the whole suite's
    collection fail ("import file mismatch") in a run that collects both."""
    seen: dict[str, list[str]] = {}
    for f in _test_files():
        seen.setdefault(_module_name(f), []).append(f)
    assert {n: fs for n, fs in seen.items() if len(fs) > 1} == {}


def test_the_suites_kept_apart_never_run_side_by_side(tmp_path):
    """A run in lanes (no paths: the ``testpaths``) of a project with the root conftest.py:
    the first test of the second suite of ``APART`` starts only after the other lane's last
    test of the first has ended, though its own lane had nothing else to run, and before
    that lane's later tests have (not at its end); the summary says how long it waited.
    Without the hand-over it would start at once. The lane's later tests run at a lower
    priority (``AFTER_APART_NICENESS``), the suites kept apart at the run's."""
    import json
    import os
    import shutil
    import subprocess
    import sys

    c = _root_conftest()
    first, second = c.APART
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text(f"[pytest]\ntestpaths = {first} {second} tests\n")
    log = tmp_path / "times.jsonl"
    body = ("import json, os, time\n\n\ndef _log(what):\n"
            f"    with open({str(log)!r}, 'a') as f:\n"
            "        f.write(json.dumps([what, time.time(), os.nice(0)]) + '\\n')\n\n\n")
    (tmp_path / first).mkdir()
    (tmp_path / first / "test_slow.py").write_text(
        body + "def test_slow():\n    _log('first start')\n    time.sleep(3)\n    _log('first end')\n")
    (tmp_path / second).mkdir()
    (tmp_path / second / "test_quick.py").write_text(body + "def test_quick():\n    _log('second start')\n")
    (tmp_path / "tests").mkdir()            # after the first suite, in its lane
    (tmp_path / "tests" / "test_later.py").write_text(
        body + "def test_later():\n    time.sleep(3)\n    _log('later end')\n")
    assert c._lane_path("tests/test_later.py::x")[0] == c._lane_path(f"{first}test_slow.py::x")[0]
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "URO_T2NA_PREBUILD": "0", "URO_CPU_CGROUP": ""})
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert r.stdout.count("bringing up nodes") == 2, r.stdout[-3000:]          # in two lanes
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    times = {what: t for what, t, _ in lines}
    nice = {what: n for what, _, n in lines}
    assert times["first end"] <= times["second start"] < times["later end"], times
    base = os.nice(0)
    assert nice["first start"] == nice["second start"] == base, nice
    assert nice["later end"] == min(19, base + c.AFTER_APART_NICENESS), nice
    assert f"{second} waited" in r.stdout, r.stdout[-3000:]
    assert not list(tmp_path.glob("uro-lanes.*"))
