"""Target spelling classes: one module per target, registered here by name.

A target class gives the templates the few constructs that are spelled differently
(registers, drops, the egress port, action selectors), says which programs it renders
(``programs``), refuses profiles it cannot hold with the reason (``problems``), computes
the values its own fragments need (``context``) and adjusts the pipeline contract where
its program differs (``adapt_contract``). :mod:`controller.p4gen.render` only looks
targets up here; nothing else branches on the target name.
"""

from __future__ import annotations

import importlib

#: target name -> "module:Class" (imported on first use)
_MODULES = {
    "tofino2": "controller.p4gen.targets.t2na:T2na",
}


def builtin_names() -> list[str]:
    return list(_MODULES)


def load(name: str):
    """The spelling class of target ``name`` (None if it is not a built-in module target)."""
    spec = _MODULES.get(name)
    if spec is None:
        return None
    mod, cls = spec.split(":")
    return getattr(importlib.import_module(mod), cls)
