"""Where the package's data lives: P4 templates and named profiles.

Installed from a wheel, they are the packages ``controller.data.templates`` and
``controller.data.profiles`` (pyproject maps the top-level directories there); in a
source checkout or an editable install they are the top-level ``templates/`` and
``profiles/``. Both are found through the import system (importlib); the checkout's
directories are the fallback when the mapped packages are not importable.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[1]


def _directory(package: str, fallback: str) -> Path:
    # a data-only directory is a namespace package (importlib.resources.files() gives a
    # MultiplexedPath over its locations); Jinja2 and tomllib want one real directory
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        spec = None
    for loc in (spec.submodule_search_locations or []) if spec else []:
        p = Path(loc)
        if p.is_dir():
            return p
    return _CHECKOUT / fallback


def templates_dir() -> Path:
    """The directory holding ``<program>_<arch>.p4.j2`` and ``fragments/``."""
    return _directory("controller.data.templates", "templates")


def profiles_dir() -> Path:
    """The directory holding the named profiles ``<name>.toml``."""
    return _directory("controller.data.profiles", "profiles")
