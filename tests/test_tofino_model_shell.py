"""The tofino-model shell client (:mod:`controller.agent.tofino_model_shell`) against a stand-in
shell that talks as the model's does (telnet option bytes, a banner, the prompt ``> ``, the
command echoed, its output, the next prompt); no SDE needed. The real shell is driven by
the tofino suite (its model runs with a quiet per-table trace, ``tofino_tests/conftest.py``)."""

from __future__ import annotations

import socket
import threading

import pytest

from controller.agent import tofino_model_shell as model_shell
from controller.agent import tofino_process
from controller.agent.tofino_process import TofinoModelSwitch

IAC_WILL_ECHO = bytes([0xFF, 0xFB, 0x01])
IAC_WILL_SGA = bytes([0xFF, 0xFB, 0x03])
IAC_DONT_LINEMODE = bytes([0xFF, 0xFE, 0x22])


class Shell:
    """A one-connection-at-a-time stand-in for the model's shell: ``answers`` maps a command
    line to its output; every line received is kept in ``lines``."""

    def __init__(self, answers: dict[str, str] | None = None, prompt: bool = True, close_after_line: bool = False):
        self.answers, self.prompt, self.close_after_line = answers or {}, prompt, close_after_line
        self.lines: list[str] = []
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]
        self.stopped = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            try:
                self._talk(conn)
            except OSError:                   # the client hung up first
                pass
            finally:
                conn.close()

    def _talk(self, conn: socket.socket) -> None:
        conn.sendall(IAC_WILL_ECHO + IAC_WILL_SGA + IAC_DONT_LINEMODE + b"Tofino Model CLI\r\n\r\n"
                     + (b"> " if self.prompt else b""))
        buf = b""
        while b"\r\n" not in buf:
            chunk = conn.recv(1024)
            if not chunk:
                break
            buf += chunk
        if not buf:
            return
        line = buf.split(b"\r\n")[0].decode()
        self.lines.append(line)
        if self.close_after_line:
            return
        out = self.answers.get(line, "")
        # the echo arrives in pieces, as a character-at-a-time telnet shell sends it, with
        # option bytes between
        conn.sendall(line[:3].encode())
        conn.sendall(IAC_WILL_ECHO + line[3:].encode() + b"\r\n" + out.replace("\n", "\r\n").encode() + b"\r\n> ")
        conn.recv(1024)                   # until the client hangs up

    def close(self) -> None:
        self.stopped = True
        self.sock.close()


@pytest.fixture
def shell():
    made = []

    def make(**kw) -> Shell:
        s = Shell(**kw)
        made.append(s)
        return s
    yield make
    for s in made:
        s.close()


def test_a_command_returns_its_output_without_the_echo_the_prompts_and_telnet_bytes(shell):
    s = shell(answers={"rmt-version": "Model version 9.13\nRegister version 3"})
    assert model_shell.command(s.port, "rmt-version") == "Model version 9.13\nRegister version 3"
    assert s.lines == ["rmt-version"]


def test_set_log_level_sends_the_models_command_for_the_type_and_level(shell):
    s = shell()
    model_shell.set_log_level(s.port, "Warn")
    model_shell.set_log_level(s.port, "Debug", "Packet")
    assert s.lines == ["rmt-set-log-level -T P4 -l Warn", "rmt-set-log-level -T Packet -l Debug"]


def test_a_level_the_model_refuses_is_an_error_with_its_answer(shell):
    s = shell(answers={"rmt-set-log-level -T P4 -l Warn": "No log level matching Warn"})
    with pytest.raises(model_shell.ModelCliError, match="refused log level Warn for P4: No log level matching Warn"):
        model_shell.set_log_level(s.port, "Warn")


def test_unknown_levels_types_and_multi_line_commands_are_refused_before_connecting(shell):
    s = shell()
    with pytest.raises(ValueError, match="log level 'Loud': one of Fatal, Error"):
        model_shell.set_log_level(s.port, "Loud")
    with pytest.raises(ValueError, match="log type 'Tables'"):
        model_shell.set_log_level(s.port, "Warn", "Tables")
    with pytest.raises(ValueError, match="one command line"):
        model_shell.command(s.port, "rmt-version\r\nexit-model")
    assert s.lines == []


def test_a_shell_that_never_prompts_or_hangs_up_or_is_not_there_is_an_error_not_a_hang(shell):
    from controller.agent.bmv2_process import free_port

    with pytest.raises(model_shell.ModelCliError, match="no prompt after connecting"):
        model_shell.command(shell(prompt=False).port, "rmt-version", timeout=0.5)
    with pytest.raises(model_shell.ModelCliError, match="closed the connection after 'rmt-version'"):
        model_shell.command(shell(close_after_line=True).port, "rmt-version", timeout=5)
    with pytest.raises(model_shell.ModelCliError, match=r"tofino-model's shell on 127.0.0.1:\d+"):
        model_shell.command(free_port(), "rmt-version", timeout=2)


# ---- the switch's use of it ------------------------------------------------------------------
def test_the_model_gets_a_shell_only_when_given_a_port(tmp_path):
    argv = TofinoModelSwitch(tmp_path, {}).model_command(tmp_path / "c", tmp_path / "p")
    assert "--no-cli" in argv and "--cli-port" not in argv
    argv = TofinoModelSwitch(tmp_path, {}, trace=True, cli_port=9123).model_command(tmp_path / "c", tmp_path / "p")
    assert "--no-cli" not in argv and argv[argv.index("--cli-port") + 1] == "9123"


def test_a_trace_level_needs_the_trace_and_the_shell_and_a_known_level(tmp_path):
    with pytest.raises(ValueError, match="needs trace=True and a cli_port"):
        TofinoModelSwitch(tmp_path, {}, trace=True, p4_log_level="Warn")
    with pytest.raises(ValueError, match="needs trace=True and a cli_port"):
        TofinoModelSwitch(tmp_path, {}, cli_port=9123, p4_log_level="Warn")
    with pytest.raises(ValueError, match="p4_log_level 'Quiet'"):
        TofinoModelSwitch(tmp_path, {}, trace=True, cli_port=9123, p4_log_level="Quiet")


def test_every_start_applies_the_level(tmp_path, monkeypatch, shell):
    """A restarted model starts at its own default (the full trace): the level is applied
    again once its shell is up (after bf_switchd attached), on every start."""
    s = shell()
    sw = TofinoModelSwitch(tmp_path, {}, trace=True, cli_port=s.port, p4_log_level="Warn")
    calls = []
    monkeypatch.setattr(tofino_process.TofinoModelSwitch, "_start_model", lambda self, *a: calls.append("model"))
    monkeypatch.setattr(tofino_process.TofinoModelSwitch, "start_switchd", lambda self, *a: calls.append("switchd"))
    monkeypatch.setattr(tofino_process.TofinoModelSwitch, "stop_switchd", lambda self: None)
    monkeypatch.setattr(tofino_process.time, "sleep", lambda s: None)
    sw.restart()
    assert calls == ["model", "switchd"] and s.lines == ["rmt-set-log-level -T P4 -l Warn"]
    sw.restart()
    assert calls == ["model", "switchd"] * 2 and s.lines == ["rmt-set-log-level -T P4 -l Warn"] * 2
