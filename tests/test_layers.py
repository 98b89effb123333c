"""The package's layer order (pyproject.toml [tool.importlinter], docs/layers.md): every
import runs down the layers, no two modules (or subpackages) of one package import each
other in a circle, and the switch backends do not know each other. Every import counts,
also one placed inside a function: a circle hidden that way fails here too."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("importlinter", reason="needs import-linter: pip install -e '.[test]'")

ROOT = Path(__file__).resolve().parents[1]
LINT = ("import sys\n"
        "from importlinter import configuration\n"
        "configuration.configure()\n"
        "from importlinter.application.use_cases import lint_imports\n"
        "sys.exit(0 if lint_imports(sys.argv[1], cache_dir=None, no_logo=True) else 1)\n")


def test_imports_follow_the_layers_without_circles():
    # the package as checked out here (not an installed copy) is the one analysed
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([sys.executable, "-c", LINT, str(ROOT / "pyproject.toml")], cwd=ROOT, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[r.stdout.find("Broken contracts"):] + r.stderr
