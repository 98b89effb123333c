"""Cyclic optical circuit schedules: model, validation, generators and file formats."""

from controller.schedule.formats import format_htsim, from_dict, load, parse_htsim, save, to_dict
from controller.schedule.generate import GENERATORS, opera, random_matchings, round_robin
from controller.schedule.model import IDLE, Schedule, Timing, validate

__all__ = [
    "IDLE", "Schedule", "Timing", "validate", "GENERATORS", "opera", "random_matchings",
    "round_robin", "format_htsim", "from_dict", "load", "parse_htsim", "save", "to_dict",
]
