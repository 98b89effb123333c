"""User-facing errors.

Anything raised as :class:`UroError` is a problem with the user's input (a schedule,
a profile, a flag); the CLI prints its message on one line and exits non-zero without a
traceback. Everything else is a bug and keeps its traceback.
"""


class UroError(Exception):
    """An error caused by user input; the message names the offending item."""


class ScheduleError(UroError):
    """A circuit schedule is malformed or violates the model's assumptions."""
