"""Time and CPU per suite from pytest's junit XML (argv: the XML file, the pytest run's
wall seconds, the load average at its end): what each suite costs CI, next to its budget
(docs/testing.md "Time"). A test's time is its setup + call + teardown; its CPU the
seconds this session's processes used meanwhile (the ``cpu_s`` property conftest.py
records: pytest, the switches, daemons and tools it started, not the background bf-p4c
builds), which the load of other jobs disturbs far less than the time. Run by .ci/run;
prints, never fails the run."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

#: CPU seconds of each suite's tests CI has room for (docs/testing.md "Time": measured,
#: with room for the tests being added); CPU, not time: the load of other jobs on a shared
#: machine stretches the time of the same run by tens of percent, its CPU far less
BUDGET = {"tests": 300, "bmv2_tests": 200, "emulate_tests": 750, "tofino_tests": 650, "t2na builds": 30}


def suite_of(case: ET.Element) -> str:
    name = case.get("classname", "")
    suite = name.split(".", 1)[0]
    if suite == "tests" and ".test_tofino2_compile" in name:
        return "t2na builds"             # waits for the background bf-p4c builds (conftest.py)
    return suite


def cpu_of(case: ET.Element) -> float | None:
    for prop in case.iter("property"):
        if prop.get("name") == "cpu_s":
            return float(prop.get("value", 0.0))
    return None


def main(xml: str, wall: str, load: str) -> None:
    times: dict[str, float] = {}
    cpus: dict[str, float] = {}
    counts: dict[str, int] = {}
    skipped: dict[str, int] = {}
    xfailed: dict[str, int] = {}
    for case in ET.parse(xml).iter("testcase"):
        s = suite_of(case)
        times[s] = times.get(s, 0.0) + float(case.get("time", 0.0))
        cpu = cpu_of(case)
        if cpu is not None:
            cpus[s] = cpus.get(s, 0.0) + cpu
        counts[s] = counts.get(s, 0) + 1
        sk = case.find("skipped")
        if sk is not None:
            # junit XML reports an expected failure as skipped: counted apart
            kind = xfailed if sk.get("type") == "pytest.xfail" else skipped
            kind[s] = kind.get(s, 0) + 1
    for s in sorted(times, key=lambda k: list(BUDGET).index(k) if k in BUDGET else 99):
        b = BUDGET.get(s)
        over = " OVER BUDGET" if b is not None and s in cpus and cpus[s] > b else ""
        print(f"  {s}: {times[s]:7.0f} s" + (f" ({cpus[s]:.0f} s CPU)" if s in cpus else "")
              + f" for {counts[s]} tests ({skipped.get(s, 0)} skipped"
              + (f", {xfailed[s]} expected to fail" if s in xfailed else "") + ")"
              + (f", budget {b} s CPU{over}" if b is not None else ""))
    print(f"  all: {sum(times.values()):.0f} s summed" + (f" ({sum(cpus.values()):.0f} s CPU)" if cpus else "")
          + f"; pytest wall {int(wall)} s; load average at the end {load}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
