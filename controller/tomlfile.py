"""The one TOML file reader of every config: net.toml (daemon), profiles (p4gen), Tofino2
port maps, emulated-fabric configs. Opening and decoding fail the same way everywhere:
one line naming the file, raised as the caller's error type (its ``uro: error:``)."""

from __future__ import annotations

import tomllib
from pathlib import Path


def read(path: str | Path, error: type[Exception]) -> dict:
    """The TOML document in ``path``; raises ``error`` with one line naming the file."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise error(f"{p}: not found") from None
    except IsADirectoryError:
        raise error(f"{p}: is a directory, not a TOML file") from None
    except OSError as e:
        raise error(f"{p}: cannot read: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{p}: not a text file (byte {e.start} is not UTF-8); TOML is UTF-8 text") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{p}: not valid TOML: {e}") from None
