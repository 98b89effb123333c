"""tofino-model's command shell (``tofino-model --cli-port N``): one command per call, its
answer returned. Used to set how much the model traces while it runs.

The shell is a telnet-style line interface: on connecting it sends telnet option bytes and
a ``Tofino Model CLI`` banner ending in the prompt ``> ``, echoes each command line (ended
by CR LF) and prints the command's output followed by the next prompt. It opens only once
bf_switchd has attached to the model. It has no authentication unless the model was
started with ``--cli-credentials`` (like the model's dru_sim ports): a model for tests on
one machine.

Its trace levels (``rmt-set-log-level -T <type> -l <level>``) are the model's log levels,
most severe first; setting one enables it and every more severe level. The per-packet
trace of every table of every pipeline pass is the ``P4`` type; the model's default with
logging on is ``Debug``.
"""

from __future__ import annotations

import socket
import time

#: the model's log levels, most severe first (``rmt-set-log-level -l``)
LOG_LEVELS = ("Fatal", "Error", "Error2", "Warn", "Info", "Verbose", "Debug", "Trace")
#: the model's log types (``rmt-set-log-level -T``)
LOG_TYPES = ("P4", "Packet", "Model", "Tofino")
PROMPT = b"\n> "


class ModelCliError(RuntimeError):
    """The model's shell could not be reached, or it refused a command."""


def _strip_telnet(data: bytes) -> bytes:
    """``data`` without telnet commands (IAC sequences: 0xFF, a verb, and an option for
    WILL/WONT/DO/DONT)."""
    out, i = bytearray(), 0
    while i < len(data):
        b = data[i]
        if b == 0xFF and i + 1 < len(data):
            i += 3 if 0xFB <= data[i + 1] <= 0xFE else 2
            continue
        out.append(b)
        i += 1
    return bytes(out)


def _read_until_prompt(s: socket.socket, end: float, what: str) -> bytes:
    buf = b""
    while not _strip_telnet(buf).endswith(PROMPT):
        left = end - time.monotonic()
        if left <= 0:
            raise ModelCliError(f"tofino-model's shell gave no prompt after {what} "
                                f"(got {_strip_telnet(buf)[-200:]!r})")
        s.settimeout(left)
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            raise ModelCliError(f"tofino-model's shell closed the connection after {what}")
        buf += chunk
    return _strip_telnet(buf)


def command(port: int, line: str, timeout: float = 10.0, host: str = "127.0.0.1") -> str:
    """Run ``line`` in the model's shell on ``port``: its output (without the echoed
    command and the prompts)."""
    if "\n" in line or "\r" in line:
        raise ValueError(f"one command line, not {line!r}")
    end = time.monotonic() + timeout
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            _read_until_prompt(s, end, "connecting")
            s.sendall(line.encode() + b"\r\n")
            answer = _read_until_prompt(s, end, repr(line))
    except OSError as e:
        raise ModelCliError(f"tofino-model's shell on {host}:{port}: {e}") from None
    text = answer.decode(errors="replace").replace("\r", "")
    text = text[: -len(PROMPT)] if text.endswith(PROMPT.decode()) else text
    first, _, rest = text.partition("\n")
    return (rest if line in first else text).strip("\n")


def set_log_level(port: int, level: str, log_type: str = "P4", timeout: float = 10.0) -> None:
    """The model logs ``log_type`` at ``level`` and every more severe level, on every pipe
    and stage, from now on."""
    if level not in LOG_LEVELS:
        raise ValueError(f"log level {level!r}: one of {', '.join(LOG_LEVELS)}")
    if log_type not in LOG_TYPES:
        raise ValueError(f"log type {log_type!r}: one of {', '.join(LOG_TYPES)}")
    out = command(port, f"rmt-set-log-level -T {log_type} -l {level}", timeout)
    if out.strip():                       # the command is silent when it applied the level
        raise ModelCliError(f"tofino-model refused log level {level} for {log_type}: {out.strip()}")
