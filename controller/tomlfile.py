"""The one TOML reader of every config: net.toml (daemon), profiles (p4gen), Tofino2 port
maps, emulated-fabric configs. Opening and decoding (:func:`read`) and reading a section's
keys (:class:`Section`) fail the same way everywhere: one line naming the file (and the
key), raised as the caller's error type (its ``uro: error:``)."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any, Iterable


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


class Section:
    """One TOML table of a config being read: each key taken with its type (and range)
    checked, then any key left over refused -- the one reader of net.toml (daemon),
    emulated-fabric configs and profiles. Every problem is one ``error`` line naming the
    file and the key as the config spells it:

    - ``where="[schedule]"`` (a section header): ``FILE: [schedule]: tors: must be ...``;
    - ``dotted=True``, ``where="schedule"`` (keys named by their dotted path):
      ``FILE: schedule.tors must be ...`` (``where=""``: the file's top level)."""

    def __init__(self, doc: Any, source: str | Path, error: type[Exception], where: str = "",
                 dotted: bool = False):
        self.src, self.error, self.where, self.dotted = source, error, where, dotted
        if not isinstance(doc, dict):
            shown = f"[{where}]" if dotted else where
            raise error(f"{source}: {shown} must be a table")
        self.doc, self.seen = doc, set()

    def name(self, key: str) -> str:
        """``key`` as the config spells it."""
        return (f"{self.where}.{key}" if self.where else key) if self.dotted else f"{self.where}: {key}"

    def err(self, key: str, msg: str) -> Exception:
        """The error about ``key``: ``msg`` says what is wrong with it."""
        if self.dotted:
            return self.error(f"{self.src}: {self.name(key)} {msg}")
        return self.error(f"{self.src}: {self.name(key)}: {msg}")

    def has(self, key: str) -> bool:
        return key in self.doc

    def get(self, key: str, kind: str, default: Any = None, required: bool = False) -> Any:
        """The value of ``key`` checked to be of ``kind`` (int, number, str, bool, table,
        any); ``default`` when absent, or the error ``missing`` if ``required``."""
        self.seen.add(key)
        if key not in self.doc:
            if required:
                raise self.err(key, "missing")
            return default
        v = self.doc[key]
        if kind == "int":
            if isinstance(v, bool) or not isinstance(v, int):
                raise self.err(key, f"must be an integer, got {v!r}")
        elif kind == "number":
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise self.err(key, f"must be a number, got {v!r}")
            v = float(v)
        elif kind == "str":
            if not isinstance(v, str) or not v:
                raise self.err(key, f"must be a non-empty string, got {v!r}")
        elif kind == "bool":
            if not isinstance(v, bool):
                raise self.err(key, f"must be true or false, got {v!r}")
        elif kind == "table":
            if not isinstance(v, dict):
                raise self.err(key, "must be a table")
        elif kind != "any":  # pragma: no cover
            raise AssertionError(kind)
        return v

    def int_in(self, key: str, lo: int, hi: int | None = None, default: Any = None, required: bool = False):
        """An integer in ``lo..hi`` (``hi`` None: no upper bound)."""
        v = self.get(key, "int", default, required)
        if v is None or v is default:
            return v
        if v < lo or (hi is not None and v > hi):
            rng = f">= {lo}" if hi is None else f"in {lo}..{hi}"
            raise self.err(key, f"must be {rng}, got {v}")
        return v

    def positive(self, key: str, default: Any = None) -> Any:
        """A number > 0."""
        v = self.get(key, "number", default)
        if v is not None and not v > 0:
            raise self.err(key, f"must be a positive number, got {v:g}")
        return v

    def number_above(self, key: str, default: float, above: float = 0.0) -> float:
        """A finite number > ``above`` (``default`` when absent)."""
        self.seen.add(key)
        v = self.doc.get(key, default)
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or not v > above:
            raise self.err(key, f"must be a finite number > {above:g}, got {v!r}")
        return float(v)

    def path(self, key: str, required: bool = False) -> Path | None:
        """A path, relative to the config file's directory unless absolute."""
        v = self.get(key, "str", None, required)
        if v is None:
            return None
        p = Path(v)
        if not p.is_absolute():
            p = Path(self.src).parent / p
        return p

    def require(self, *keys: str) -> None:
        """Refuse the section if one of ``keys`` is absent (the first one named)."""
        for key in keys:
            if key not in self.doc:
                raise self.error(f"{self.src}: missing key {self.name(key)!r}") if self.dotted \
                    else self.err(key, "missing")

    def done(self, known: Iterable[str] | None = None) -> None:
        """Refuse a key not taken (or not in ``known``, when given)."""
        known = self.seen if known is None else set(known)
        extra = sorted(set(self.doc) - set(known))
        if not extra:
            return
        if self.dotted:
            raise self.error(f"{self.src}: unknown key {self.name(extra[0])!r} (known: {', '.join(sorted(known))})")
        raise self.err(extra[0], f"unknown key (known here: {', '.join(sorted(known))})")
