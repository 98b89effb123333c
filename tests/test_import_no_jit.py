"""Importing the CLI and the routing registry compiles nothing and needs no numba cache
location: numba's ``cache=True`` kernels are decorated at their module's import, which
fails ("no locator available") for a user who can write neither the source tree's
``__pycache__`` nor a home cache (``uro emulate up`` run as nobody must say "needs root",
emulate_tests/test_emulate_lifecycle.py). The kernels live in ``*_kernel`` modules,
imported where they are called."""

import subprocess
import sys


def test_importing_the_cli_and_every_algorithm_loads_no_kernel_module():
    code = ("import sys, controller.cli, controller.cli.main, controller.routing.base as b\n"
            "b.algorithms()\n"
            "import controller.routing.paths, controller.routing.ucmp, controller.routing.uro\n"
            "bad = sorted(m for m in sys.modules if m == 'numba' or m.endswith('_kernel'))\n"
            "print(','.join(bad))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "", r.stdout
