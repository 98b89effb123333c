"""Package data: the P4 templates and the named network profiles.

In a source checkout they live at the top level (``templates/``, ``profiles/``); the
wheel maps them to ``controller.data.templates`` and ``controller.data.profiles``.
Read them through :mod:`controller.resources`, never by path arithmetic.
"""
