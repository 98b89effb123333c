"""What every benchmark prints beside its figures: the machine's load average.

A figure measured on a shared machine means little without the load it was measured
under; every ``uro bench`` suite prints it the same way (1, 5 and 15-minute averages,
``os.getloadavg``) at its start, its end and next to each measurement.
"""
from __future__ import annotations

import os


def load_average() -> str:
    """The 1/5/15-minute load averages as ``"1.23/0.98/0.75"``."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def nice_as_started(increment: int) -> int:
    """The nice value of a process this one starts ``increment`` levels away (a negative
    increment only as root, else its parent's: :func:`controller.process.start`)."""
    base = os.nice(0)
    if increment < 0 and os.geteuid() != 0:
        return base
    return max(-20, min(19, base + increment))
