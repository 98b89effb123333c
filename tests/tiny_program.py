"""The tiny profile's ToR program compiled with p4c for the tests that need its P4Info and
contract (not its packets): one helper for their module fixtures."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest


def build_tiny_tor(out: Path) -> tuple:
    """Compile the tiny ToR into ``out``: (p4info path, bmv2 JSON path, contract path, the
    contract's profile). Skips the test, saying why, without p4c."""
    if shutil.which("p4c-bm2-ss") is None:
        pytest.skip("p4c-bm2-ss not installed (the ToR program is compiled for its P4Info)")
    from controller.p4gen import build as p4build
    from controller.p4gen import profile as prof
    p4build.build(prof.load("tiny"), out, ["tor"])
    base = out / "tor_tiny"
    return (base.with_suffix(".p4info.txtpb"), base.with_suffix(".json"), base.with_suffix(".contract.json"),
            json.loads(base.with_suffix(".contract.json").read_text())["profile"])
