"""Structured log lines: one event per line, JSON (default) or key=value.

    {"ts": "2026-11-23T17:02:11.123456Z", "level": "info", "event": "switch.connected", "switch": "tor0", ...}
    ts=2026-11-23T17:02:11.123456Z level=info event=switch.connected switch=tor0 ...

Every line is written whole under a lock, so threads never interleave inside a line.
"""

from __future__ import annotations

import json
import sys
import threading
from datetime import datetime, timezone
from typing import IO


#: the time format of every line's ``ts`` and of the reports' times (UTC, microseconds)
TS_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def epoch(ts: str) -> float:
    """A log line's ``ts`` (or a report's time, e.g. ``detected``) as epoch seconds."""
    return datetime.strptime(ts, TS_FORMAT).replace(tzinfo=timezone.utc).timestamp()


class EventLog:
    def __init__(self, fmt: str = "json", stream: IO[str] | None = None):
        if fmt not in ("json", "kv"):
            raise ValueError(f"log format {fmt!r}")
        self.fmt = fmt
        self.stream = stream if stream is not None else sys.stderr
        self._lock = threading.Lock()
        self.lines: list[dict] | None = None      # tests: keep the records too

    def _kv(self, rec: dict) -> str:
        out = []
        for k, v in rec.items():
            s = v if isinstance(v, str) else json.dumps(v, separators=(",", ":"), default=str)
            if isinstance(v, str) and (not s or any(c in s for c in ' ="\n')):
                s = json.dumps(s)
            out.append(f"{k}={s}")
        return " ".join(out)

    def event(self, event: str, level: str = "info", **fields) -> None:
        rec = {"ts": datetime.now(timezone.utc).strftime(TS_FORMAT), "level": level, "event": event}
        rec.update(fields)
        line = json.dumps(rec, separators=(",", ":"), default=str) if self.fmt == "json" else self._kv(rec)
        with self._lock:
            if self.lines is not None:
                self.lines.append(rec)
            try:
                self.stream.write(line + "\n")
                self.stream.flush()
            except (ValueError, OSError):  # stream closed at shutdown
                pass

    def warn(self, event: str, **fields) -> None:
        self.event(event, level="warning", **fields)

    def error(self, event: str, **fields) -> None:
        self.event(event, level="error", **fields)
