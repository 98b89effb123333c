"""Render then compile with the real P4 compiler of the target.

``build(profile, out_dir, target=...)`` writes ``<program>_<profile>[_<arch>].p4`` and
``.contract.json``, then what the target's compiler makes of them:

- bmv2: ``p4c-bm2-ss`` -> ``.json`` (bmv2 config) and ``.p4info.txtpb`` (P4Info) next to them;
- tofino2: ``bf-p4c --target tofino2 --arch t2na`` -> a directory named after the program
  with ``bfrt.json``, ``pipe/tofino2.bin``, ``pipe/context.json`` and the resource logs
  (:mod:`controller.tofino2.compiler`).

Each target's compiler is an object with ``find()``, ``missing_message()`` and
``compile(p4_file)`` (registered in ``_COMPILERS``). Without the compiler ``build`` renders
and raises :class:`CompilerMissing` naming it.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from controller.errors import UroError
from controller.p4gen import render as rnd
from controller.p4gen.profile import Profile


class CompilerMissing(UroError):
    pass


class CompileError(UroError):
    pass


class P4cBm2:
    """``p4c-bm2-ss``: v1model -> bmv2 JSON + P4Info."""

    name = "p4c-bm2-ss"

    @classmethod
    def find(cls) -> str | None:
        return shutil.which(cls.name)

    @classmethod
    def missing_message(cls) -> str:
        return f"{cls.name} not found on PATH (install p4c, see README 'P4 toolchain')"

    @classmethod
    def compile(cls, p4_file: Path) -> tuple[Path, Path]:
        """Returns (bmv2 json, p4info txtpb). Atomic per file."""
        exe = cls.find()
        if exe is None:
            raise CompilerMissing(cls.missing_message())
        out_json = p4_file.with_suffix(".json")
        out_info = p4_file.with_suffix(".p4info.txtpb")
        with tempfile.TemporaryDirectory(dir=p4_file.parent, prefix=".p4c-") as tmp:
            tj, ti = Path(tmp) / out_json.name, Path(tmp) / out_info.name
            cmd = [exe, "--arch", "v1model", "--std", "p4-16", "--p4runtime-files", str(ti), "-o", str(tj), str(p4_file)]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                msg = (r.stderr or r.stdout).strip().splitlines()
                first = next((m for m in msg if "error" in m.lower()), msg[0] if msg else "no output")
                raise CompileError(f"{cls.name} failed on {p4_file}: {first}"
                                   + (f" (+{len(msg) - 1} more lines)" if len(msg) > 1 else ""))
            os.replace(tj, out_json)
            os.replace(ti, out_info)
        return out_json, out_info


#: target -> its compiler (an object, or "module" imported on first use)
_COMPILERS = {"bmv2": P4cBm2, "tofino2": "controller.tofino2.compiler"}
#: the compiler's name per target (for messages)
COMPILERS = {"bmv2": P4cBm2.name, "tofino2": "bf-p4c"}


def compiler_for(target: str):
    c = _COMPILERS.get(target)
    if c is None:
        rnd.target_class(target)                # names the known targets if this one is unknown
        raise CompilerMissing(f"no compiler known for target {target!r}")
    if isinstance(c, str):
        c = _COMPILERS[target] = importlib.import_module(c)
    return c


def compiler_path(target: str = "bmv2") -> str | None:
    return compiler_for(target).find()


def compile_one(p4_file: Path, target: str = "bmv2") -> tuple[Path, ...]:
    """Compile one rendered program; returns the artifacts it wrote."""
    c = compiler_for(target)
    try:
        return tuple(c.compile(Path(p4_file)))
    except (CompileError, CompilerMissing):
        raise
    except UroError as e:                       # the target module's own error types
        raise CompileError(str(e)) from None


def build(profile: Profile, out_dir: str | Path, programs: list[str] | None = None,
          target: str = "bmv2") -> list[Path]:
    c = compiler_for(target)
    written = rnd.render_to(profile, out_dir, programs, target)
    if c.find() is None:
        raise CompilerMissing(
            f"rendered {len(written) // 2} program(s) into {out_dir}/, but cannot compile: {c.missing_message()}")
    out = []
    for f in written:
        if f.suffix == ".p4":
            out += list(compile_one(f, target))
    return written + out
