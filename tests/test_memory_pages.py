"""uro's processes keep NumPy's large arrays on ordinary pages (controller.memory.small_pages):
no transparent-huge-page compaction stalls in a long-running daemon, the user's
NUMPY_MADVISE_HUGEPAGE respected, the processes it starts following it."""

import json
import os
import subprocess
import sys

from controller import memory

PROBE = r"""
import json, os, subprocess, sys
import numpy as np
from controller import memory
changed = memory.small_pages()
core = getattr(np, "_core", None) or np.core
now = core.multiarray._set_madvise_hugepage(False)     # returns the state before this call
child = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('NUMPY_MADVISE_HUGEPAGE'))"],
                       capture_output=True, text=True).stdout.strip()
print(json.dumps({"changed": changed, "huge_after": bool(now), "child_env": child}))
"""


def _probe(env_value):
    env = {k: v for k, v in os.environ.items() if k != memory.HUGEPAGE_ENV}
    if env_value is not None:
        env[memory.HUGEPAGE_ENV] = env_value
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_small_pages_turns_numpys_huge_pages_off_here_and_in_the_processes_it_starts():
    r = _probe(None)
    assert r["huge_after"] is False
    assert r["child_env"] == "0"


def test_a_users_numpy_madvise_hugepage_is_respected():
    r = _probe("1")
    assert r == {"changed": False, "huge_after": True, "child_env": "1"}


def test_every_uro_command_starts_with_it(monkeypatch, capsys):
    import importlib

    cli = importlib.import_module("controller.cli.main")
    calls = []
    monkeypatch.setattr(cli.memory, "small_pages", lambda: calls.append(1) or False)
    assert cli.main(["schedule", "check", "/nonexistent/schedule.json"]) == 2
    assert calls == [1]
