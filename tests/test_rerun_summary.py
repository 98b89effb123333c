"""The whole suite's summary says why a test ran again (the root conftest.py): -rR names
the tests pytest-rerunfailures ran again, the summary gives each one's first failure, so a
flaky test that passed on its second run still leaves what went wrong in the CI log."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_test_run_again_is_listed_with_its_first_failure(tmp_path):
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_once.py").write_text(
        "import pytest\n\nRUNS = []\n\n\n@pytest.mark.flaky(reruns=1)\ndef test_fails_once():\n"
        "    RUNS.append(1)\n    assert len(RUNS) > 1, 'the first run of this test fails on purpose'\n\n\n"
        "def test_passes():\n    pass\n")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rR", "-p", "no:cacheprovider", "-p", "no:xdist",
                        "test_once.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "URO_T2NA_PREBUILD": "0", "URO_CPU_CGROUP": ""})
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    summary = r.stdout.split("tests run again after a failure: their first failure", 1)
    assert len(summary) == 2, r.stdout[-3000:]
    listed = [line for line in summary[1].splitlines() if line.startswith("test_once.py::")]
    assert len(listed) == 1 and listed[0].startswith("test_once.py::test_fails_once: "), listed
    assert "the first run of this test fails on purpose" in listed[0], listed
