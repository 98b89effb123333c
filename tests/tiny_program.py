"""The tiny profile's ToR program compiled with p4c for the tests that need its P4Info and
contract (not its packets): one helper for their module fixtures, which compiles once per
test process (a compile costs p4c about 13 CPU-s)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest


#: the compile this process made (its files stay for the session: pytest's temporary
#: directories are removed only by a later session)
_built: tuple | None = None


def build_tiny_tor(out: Path) -> tuple:
    """Compile the tiny ToR into ``out``: (p4info path, bmv2 JSON path, contract path, the
    contract's profile); where this process compiled it already, that compile's files
    (read only). Skips the test, saying why, without p4c."""
    global _built
    if _built is not None and all(Path(p).exists() for p in _built[:3]):
        return _built
    if shutil.which("p4c-bm2-ss") is None:
        pytest.skip("p4c-bm2-ss not installed (the ToR program is compiled for its P4Info)")
    from controller.p4gen import build as p4build
    from controller.p4gen import profile as prof
    p4build.build(prof.load("tiny"), out, ["tor"])
    base = out / "tor_tiny"
    _built = (base.with_suffix(".p4info.txtpb"), base.with_suffix(".json"), base.with_suffix(".contract.json"),
              json.loads(base.with_suffix(".contract.json").read_text())["profile"])
    return _built
