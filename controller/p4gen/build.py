"""Render then compile with the real P4 compiler (``p4c-bm2-ss`` for bmv2).

``build(profile, out_dir)`` writes ``<program>_<profile>.p4`` and ``.contract.json``,
then ``.json`` (bmv2 config) and ``.p4info.txtpb`` (P4Info) next to them. Without the
compiler it renders and raises :class:`CompilerMissing` naming it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from controller.errors import UroError
from controller.p4gen import render as rnd
from controller.p4gen.profile import Profile

COMPILERS = {"bmv2": "p4c-bm2-ss"}


class CompilerMissing(UroError):
    pass


class CompileError(UroError):
    pass


def compiler_path(target: str = "bmv2") -> str | None:
    return shutil.which(COMPILERS[target])


def compile_one(p4_file: Path, target: str = "bmv2") -> tuple[Path, Path]:
    """Compile one rendered program; returns (bmv2 json, p4info txtpb). Atomic per file."""
    exe = compiler_path(target)
    if exe is None:
        raise CompilerMissing(f"{COMPILERS[target]} not found on PATH (install p4c, see README 'P4 toolchain')")
    out_json = p4_file.with_suffix(".json")
    out_info = p4_file.with_suffix(".p4info.txtpb")
    with tempfile.TemporaryDirectory(dir=p4_file.parent, prefix=".p4c-") as tmp:
        tj, ti = Path(tmp) / out_json.name, Path(tmp) / out_info.name
        cmd = [exe, "--arch", "v1model", "--std", "p4-16", "--p4runtime-files", str(ti), "-o", str(tj), str(p4_file)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            msg = (r.stderr or r.stdout).strip().splitlines()
            first = next((m for m in msg if "error" in m.lower()), msg[0] if msg else "no output")
            raise CompileError(f"{COMPILERS[target]} failed on {p4_file}: {first}"
                               + (f" (+{len(msg) - 1} more lines)" if len(msg) > 1 else ""))
        os.replace(tj, out_json)
        os.replace(ti, out_info)
    return out_json, out_info


def build(profile: Profile, out_dir: str | Path, programs: list[str] | None = None,
          target: str = "bmv2") -> list[Path]:
    written = rnd.render_to(profile, out_dir, programs, target)
    if compiler_path(target) is None:
        raise CompilerMissing(
            f"rendered {len(written) // 2} program(s) into {out_dir}/, but cannot compile: "
            f"{COMPILERS[target]} not found on PATH (install p4c, see README 'P4 toolchain')"
        )
    out = []
    for f in written:
        if f.suffix == ".p4":
            out += list(compile_one(f, target))
    return written + out
