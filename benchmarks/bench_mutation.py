"""Mutation testing: how many deliberate small mistakes in a module its tests catch.

mutmut (https://mutmut.readthedocs.io) makes, function by function, every small change it
knows (a comparison flipped, a constant off by one, a ``return`` of None, an argument
dropped, ...) -- a *mutant* -- and runs the tests that execute that function against each
one: a mutant that fails a test is *killed*, one that passes every test *survived* and
shows a mistake the tests would let through. The modules and the fast tests each one needs
are chosen in pyproject.toml (``[tool.uro.mutation.modules]``); docs/mutation.md says how
to read the result and lists the survivors that are *equivalent* (no test can tell them
from the original: they change nothing observable), each with the mutated line and why.

    uro bench --suite mutation [--module diff,generations] [--jobs 1]

Each module runs in a copy of the checkout (``build/mutation/<module>/``: mutmut writes
its mutants beside the sources it copies), at the lowest CPU priority (``nice -n 19``),
``--jobs`` mutants at a time. Two cases mutmut cannot tell apart are settled on disk: a
survivor is written into the copy's source (``mutmut apply``) and the module's tests are
run once more in a fresh process; one they fail is counted killed (code that runs when the
module is imported -- mutmut forks its workers after the import, so such a mutant never
runs under its test). Not in CI: from a few minutes to an hour per module on two shared
cores. Prints, per module, the mutants and what became of them, the score (killed /
(mutants - equivalent)), every survivor's diff, the run time and the load average.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

from controller.errors import UroError
from benchmarks.machine import load_average

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "build" / "mutation"
DOCS = ROOT / "docs" / "mutation.md"

#: what the copy of the checkout leaves out (mutmut copies the rest it needs into mutants/)
_SKIP = {".git", ".venv", ".ci-venv", "build", "out", "mutants", "__pycache__", ".hypothesis", ".pytest_cache",
         "uro.egg-info", "docs", "bmv2_tests", "emulate_tests", "tofino_tests"}

#: survivors checked on disk at most (two test runs in a fresh process each, about a minute
#: on a loaded machine): a module with more has tests to write first, and its score is then
#: a lower bound (a mutant that only runs at import counted as a survivor)
SETTLE_MAX = 40

#: mutmut's exit codes -> what became of the mutant (mutmut.stats.status_by_exit_code)
_KILLED = {1: "killed", 3: "killed", -11: "killed", -9: "killed", 37: "killed"}
_TIMEOUT = {36, -24, 24, 152, 255}

#: How long a mutant's tests may run. mutmut bounds them twice, from their clean run time
#: ``t`` (the tests' calls, not their fixtures): a CPU-time limit of 2 * (t + TIMEOUT_CONSTANT)
#: * TIMEOUT_MULTIPLIER seconds (RLIMIT_CPU: a mutant that loops forever is stopped there,
#: whatever the load) and a wall-clock limit of half that. At ``nice -n 19`` on two cores
#: shared with other jobs, a mutant's process may get no CPU at all for minutes: the wall
#: limit then stops mutants that have not run (a 0.1 s test was stopped after 16.5 s with
#: mutmut's defaults, 1 s and 15), and mutmut counts them as killed. So the runner starts
#: mutmut with its wall-clock limit raised to WALL_LIMIT (for a mutant that blocks without
#: using CPU: 5 min) and leaves the CPU limit to decide: 2 * (0.1 + 5) * 10 = 102 CPU seconds.
TIMEOUT_CONSTANT = 5.0
TIMEOUT_MULTIPLIER = 10.0
WALL_LIMIT = 300.0

#: ``mutmut run`` with its wall-clock limit raised to WALL_LIMIT (mutmut 3.8: the worker
#: runners call ``mutmut.workers.isolation.register_timeout(pid, seconds)``)
_LAUNCH = f"""
import sys
import mutmut.workers.isolation as iso
from mutmut.workers.timeout import register_timeout
iso.register_timeout = lambda pid, timeout_s: register_timeout(pid, max(timeout_s, {WALL_LIMIT}))
from mutmut.__main__ import cli
sys.exit(cli())
"""


@dataclasses.dataclass(frozen=True)
class Target:
    """One module to mutate and the tests that are run against its mutants."""

    path: str                        # controller/agent/diff.py
    tests: tuple[str, ...]           # pytest arguments: files or node ids under tests/

    @property
    def module(self) -> str:
        return self.path.removesuffix(".py").replace("/", ".")

    @property
    def short(self) -> str:
        return self.module.removeprefix("controller.")


@dataclasses.dataclass
class Outcome:
    target: Target
    statuses: dict[str, str]                 # mutant -> killed | survived | no tests | timeout | ...
    diffs: dict[str, str]                    # survivor -> its diff (mutmut show)
    equivalent: dict[str, str]               # survivor -> why (docs/mutation.md)
    settled_on_disk: list[str]               # survivors a fresh test process killed
    seconds: float
    load: tuple[float, float]
    unsettled: int = 0                       # survivors not checked on disk (more than SETTLE_MAX)
    functions: tuple[str, ...] = ()          # a sample: only these functions' mutants were run

    def count(self, status: str) -> int:
        return sum(1 for s in self.statuses.values() if s == status)

    @property
    def score(self) -> float:
        counted = len(self.statuses) - self.count("not checked") - len(self.equivalent)
        return (self.count("killed") + self.count("timeout")) / counted if counted else 1.0


def targets(pyproject: Path = ROOT / "pyproject.toml") -> list[Target]:
    """The modules of ``[tool.uro.mutation.modules]`` (path -> list of test arguments)."""
    doc = tomllib.loads(pyproject.read_text())
    mods = doc.get("tool", {}).get("uro", {}).get("mutation", {}).get("modules", {})
    out = []
    for path, tests in mods.items():
        if not (ROOT / path).is_file():
            raise UroError(f"pyproject.toml [tool.uro.mutation.modules]: {path} is not a file")
        if not tests or not all(isinstance(t, str) for t in tests):
            raise UroError(f"pyproject.toml [tool.uro.mutation.modules]: {path}: not a list of tests")
        out.append(Target(path, tuple(tests)))
    return out


def select(all_targets: list[Target], names: str | None) -> list[Target]:
    """``names``: comma-separated module names or their last parts (``diff``, ``tofino2.plan``)."""
    if not names:
        return all_targets
    out = []
    for n in (x.strip() for x in names.split(",") if x.strip()):
        hit = [t for t in all_targets if t.short == n or t.module == n or t.short.endswith("." + n)]
        if len(hit) != 1:
            raise UroError(f"--module {n!r}: " + ("matches " + ", ".join(t.short for t in hit) if hit
                           else "not one of " + ", ".join(t.short for t in all_targets)))
        out += hit
    return out


def equivalents(doc: Path = DOCS) -> dict[str, tuple[str, str]]:
    """{mutant: (the mutated line, why)} from the equivalent-mutant table of docs/mutation.md
    (rows ``| `mutant` | `mutated line` | why |``)."""
    out = {}
    if not doc.exists():
        return out
    row = re.compile(r"^\|\s*`(controller\.[\w.ǁ]+__mutmut_\d+)`\s*\|\s*`(.*?)`\s*\|\s*(.+?)\s*\|\s*$")
    for line in doc.read_text().splitlines():
        m = row.match(line)
        if m:
            out[m.group(1)] = (m.group(2).replace("\\|", "|").strip(), m.group(3))
    return out


def mutant_patterns(target: Target, functions: str | None) -> list[str]:
    """mutmut's names for the mutants of ``functions`` (``open,RouteArtifact.__init__``;
    ``*`` and ``?`` as in a shell) of ``target``: ``<module>.x_<function>__mutmut_<n>`` and
    ``<module>.xǁ<Class>ǁ<method>__mutmut_<n>``."""
    out = []
    for f in (x.strip() for x in (functions or "").split(",") if x.strip()):
        if not re.fullmatch(r"[\w*?]+(\.[\w*?]+)?", f):
            raise UroError(f"--functions {f!r}: a function or Class.method name of {target.path}")
        cls, _, meth = f.rpartition(".")
        out.append(f"{target.module}.{'xǁ' + cls + 'ǁ' + meth if cls else 'x_' + f}__mutmut_*")
    return out


def _copy(target: Target, work: Path) -> Path:
    """A fresh copy of the checkout for ``target`` with mutmut's config in its pyproject.toml."""
    d = work / target.short
    if d.exists():
        shutil.rmtree(d)
    shutil.copytree(ROOT, d, ignore=lambda src, names: [n for n in names if n in _SKIP or n.endswith(".pyc")],
                    symlinks=True)
    text = (ROOT / "pyproject.toml").read_text()
    text = re.sub(r'(?m)^testpaths = .*$', 'testpaths = ["tests"]', text)
    text += ("\n[tool.mutmut]\n"
             'source_paths = ["controller"]\n'
             f"only_mutate = [{json.dumps(target.path)}]\n"
             f"pytest_add_cli_args_test_selection = {json.dumps(list(target.tests))}\n"
             'pytest_add_cli_args = ["-p", "no:cacheprovider"]\n'
             f"timeout_constant = {TIMEOUT_CONSTANT}\n"
             f"timeout_multiplier = {TIMEOUT_MULTIPLIER}\n"
             # the top-level conftest.py: the t2na_build fixture and marker (the tests' builds); benchmarks: tests build their networks with its helpers
             'also_copy = ["conftest.py", "templates", "profiles", "examples", "tofino", "p4src", "benchmarks"]\n')
    (d / "pyproject.toml").write_text(text)
    return d


def _mutmut() -> str:
    exe = Path(sys.executable).with_name("mutmut")
    if exe.exists():
        return str(exe)
    found = shutil.which("mutmut")
    if found is None:
        raise UroError("mutmut is not installed: pip install -e '.[mutation]'")
    return found


def _statuses(d: Path, target: Target) -> dict[str, str]:
    meta = d / "mutants" / (target.path + ".meta")
    if not meta.exists():
        return {}
    codes = json.loads(meta.read_text())["exit_code_by_key"]
    out = {}
    for name, code in codes.items():
        if code in _KILLED:
            out[name] = "killed"
        elif code in _TIMEOUT:
            out[name] = "timeout"
        elif code == 0:
            out[name] = "survived"
        elif code in (5, 33):
            out[name] = "no tests"
        elif code is None:
            out[name] = "not checked"
        else:
            out[name] = f"suspicious ({code})"
    return out


def _diff(d: Path, name: str) -> str:
    r = subprocess.run([_mutmut(), "show", name], cwd=d, capture_output=True, text=True, timeout=300)
    return "\n".join(line for line in r.stdout.splitlines() if not line.startswith("#")).strip()


def _mutated_line(diff: str) -> str:
    plus = [line[1:].strip() for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    return " / ".join(plus)


def _tests_of(d: Path, target: Target, name: str) -> list[str]:
    """The tests mutmut saw executing the function ``name`` mutates, in the order of the
    module's test list (its fast tests first)."""
    r = subprocess.run([_mutmut(), "tests-for-mutant", name], cwd=d, capture_output=True, text=True, timeout=300)
    tests = [line.strip() for line in r.stdout.splitlines() if "::" in line]
    rank = {t.split("::")[0]: i for i, t in enumerate(target.tests)}
    return sorted(tests, key=lambda t: (rank.get(t.split("::")[0], len(rank)), t))


def _fails_on_disk(d: Path, target: Target, name: str, env: dict) -> bool:
    """Whether the tests fail with mutant ``name`` written into the copy's source, in a
    fresh process (the mutant is then active from the module's import on): first the
    tests mutmut saw executing its function, then, if they pass, all of the module's
    (what runs at import is executed by no test in mutmut's eyes)."""
    src = d / target.path
    original = src.read_bytes()
    try:
        r = subprocess.run([_mutmut(), "apply", name], cwd=d, capture_output=True, text=True, timeout=300)
        if r.returncode != 0 or src.read_bytes() == original:
            return False
        for tests in (_tests_of(d, target, name), list(target.tests)):
            if not tests:
                continue
            t = subprocess.run(["nice", "-n", "19", sys.executable, "-m", "pytest", "-x", "-q", "-p",
                                "no:cacheprovider", *tests], cwd=d, env=env, capture_output=True, text=True,
                               timeout=3600)
            if t.returncode not in (0, 5):
                return True
        return False
    finally:
        src.write_bytes(original)


def run(target: Target, jobs: int, work: Path = WORK, functions: str | None = None) -> Outcome:
    patterns = mutant_patterns(target, functions)
    d = _copy(target, work)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MUTANT_UNDER_TEST")}
    load0, t0 = os.getloadavg()[0], time.monotonic()
    log = d / "mutmut.log"
    with open(log, "w") as f:
        r = subprocess.run(["nice", "-n", "19", sys.executable, "-c", _LAUNCH, "run", "--max-children", str(jobs), *patterns],
                           cwd=d, env=env, stdout=f, stderr=subprocess.STDOUT)
    statuses = _statuses(d, target)
    if r.returncode != 0 or not statuses:
        raise UroError(f"mutmut on {target.path} failed (exit {r.returncode}); its log: {log}")
    diffs = {n: _diff(d, n) for n, s in statuses.items() if s not in ("killed", "timeout", "not checked")}
    known = equivalents()
    equivalent = {n: known[n][1] for n, s in statuses.items()
                  if s == "survived" and n in known and known[n][0] == _mutated_line(diffs[n])}
    settled = []
    open_ = [n for n, s in statuses.items() if s == "survived" and n not in equivalent]
    if len(open_) <= SETTLE_MAX:
        for name in open_:
            if _fails_on_disk(d, target, name, env):
                statuses[name] = "killed"
                settled.append(name)
    return Outcome(target, statuses, diffs, equivalent, settled, time.monotonic() - t0, (load0, os.getloadavg()[0]),
                   unsettled=0 if len(open_) <= SETTLE_MAX else len(open_),
                   functions=tuple(x.strip() for x in (functions or "").split(",") if x.strip()))


def report(o: Outcome) -> str:
    t = o.target
    n = len(o.statuses)
    survivors = [m for m, s in o.statuses.items()
                 if s not in ("killed", "timeout", "not checked") and m not in o.equivalent]
    lines = [f"== {t.path}: {n} mutants, killed {o.count('killed')} (of them {len(o.settled_on_disk)} on disk), "
             f"timeout {o.count('timeout')}, survived {o.count('survived')} (equivalent {len(o.equivalent)}), "
             f"no tests {o.count('no tests')}; score {100 * o.score:.1f}% "
             f"({o.seconds / 60:.1f} min, load average {o.load[0]:.1f} -> {o.load[1]:.1f})",
             f"   tests: {' '.join(t.tests)}"]
    if o.functions:
        lines.insert(1, f"   a sample: the {n - o.count('not checked')} mutants of {', '.join(o.functions)} "
                        f"(of {n}; the score is theirs)")
    if o.unsettled:
        lines.append(f"   {o.unsettled} survivors, more than {SETTLE_MAX}: none checked on disk (the score is a lower "
                     "bound: a mutant of code that runs at import counts as a survivor)")
    timeouts = [m for m, s in o.statuses.items() if s == "timeout"]
    if timeouts:
        lines.append(f"   timed out (counted as caught: a test would hang; check the load): {', '.join(timeouts)}")
    for m in survivors:
        lines.append(f"-- {m}: {o.statuses[m]}")
        lines += ["   " + line for line in o.diffs.get(m, "").splitlines()]
    return "\n".join(lines)


def main(quick: bool = False, modules: str | None = None, jobs: int = 1, functions: str | None = None) -> int:
    try:
        import mutmut  # noqa: F401
    except ImportError:
        print("== mutation: skipped (mutmut is not installed: pip install -e '.[mutation]')")
        return 0
    if jobs < 1:
        raise UroError(f"--jobs {jobs}: at least 1")
    chosen = select(targets(), modules or ("agent.diff,agent.known" if quick else None))
    if functions and len(chosen) != 1:
        raise UroError("--functions: with one --module")
    for t in chosen:
        mutant_patterns(t, functions)                # a bad name is refused before any work
    print(f"== mutation testing (mutmut), {len(chosen)} module(s), {jobs} at a time, nice 19; load average "
          f"{load_average()} at the start", flush=True)
    outcomes = []
    for t in chosen:
        o = run(t, jobs, functions=functions)
        outcomes.append(o)
        print(report(o), flush=True)
    print("\n| module | mutants | killed | timeout | survived (equivalent) | no tests | score | time (load) |\n"
          "|---|---|---|---|---|---|---|---|")
    for o in outcomes:
        name = f"`{o.target.short}`" + (f" (sample: {', '.join(o.functions)})" if o.functions else "")
        print(f"| {name} | {len(o.statuses) - o.count('not checked')} | {o.count('killed')} | {o.count('timeout')} | "
              f"{o.count('survived')} ({len(o.equivalent)}) | {o.count('no tests')} | {100 * o.score:.1f}% | "
              f"{o.seconds / 60:.1f} min ({o.load[0]:.0f} -> {o.load[1]:.0f}) |")
    left = sum(1 for o in outcomes for m, s in o.statuses.items()
               if s not in ("killed", "timeout", "not checked") and m not in o.equivalent)
    return 1 if left else 0


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--module", default=None)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    sys.exit(main(a.quick, a.module, a.jobs))
