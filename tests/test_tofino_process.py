"""What a killed Tofino2-model starter leaves behind is removed by PID and record, never
by pattern (:meth:`TofinoModelSwitch.reap`); no SDE needed (stand-in processes)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from controller.agent import tofino_process
from controller.agent.tofino_process import HUGEPAGES_RECORD, TofinoModelSwitch
from controller import process


def _sleeper() -> tuple[subprocess.Popen, list[str]]:
    argv = ["sleep", "300"]
    p = subprocess.Popen(argv)
    for _ in range(100):                      # until exec replaced the forked parent's cmdline
        if process.cmdline(p.pid) == argv:
            break
        time.sleep(0.01)
    return p, argv


def test_reap_stops_the_recorded_processes_and_restores_hugepages(tmp_path, monkeypatch):
    hp = tmp_path / "nr_hugepages"
    hp.write_text("196\n")                    # raised by the killed session
    monkeypatch.setattr(tofino_process, "HUGEPAGES_FILE", hp)
    pid_dir = tmp_path / "pids"
    model, m_argv = _sleeper()
    switchd, s_argv = _sleeper()
    bystander, b_argv = _sleeper()            # a process nobody recorded
    try:
        process.record(pid_dir, "model", model.pid, m_argv)
        process.record(pid_dir, "switchd", switchd.pid, s_argv)
        (pid_dir / HUGEPAGES_RECORD).write_text("7\n")
        done = TofinoModelSwitch.reap(pid_dir)
        assert model.wait(5) is not None and switchd.wait(5) is not None
        assert bystander.poll() is None
        assert hp.read_text() == "7\n"
        assert sorted(p.name for p in pid_dir.iterdir()) == []
        assert done == [f"stopped switchd (pid {switchd.pid})", f"stopped model (pid {model.pid})",
                        "vm.nr_hugepages back to 7"]
        assert TofinoModelSwitch.reap(pid_dir) == []          # nothing left: nothing done
    finally:
        for p in (model, switchd, bystander):
            p.kill()
            p.wait()


def test_reap_leaves_a_recycled_pid_alone(tmp_path, monkeypatch):
    """A record whose PID now runs another command line (the PID was reused) is dropped,
    its process left running."""
    monkeypatch.setattr(tofino_process, "HUGEPAGES_FILE", tmp_path / "nr_hugepages")
    other, _ = _sleeper()
    try:
        process.record(tmp_path, "model", other.pid, [str(Path("/opt/bf-sde/install/bin/tofino-model")), "--no-cli"])
        assert TofinoModelSwitch.reap(tmp_path) == []
        assert other.poll() is None
        assert not (tmp_path / "model.pid").exists()
    finally:
        other.kill()
        other.wait()


def test_bf_switchd_is_ready_when_its_bfrt_server_reports_the_program_not_on_a_log_line(tmp_path, monkeypatch):
    """bf_switchd's log is block-buffered (its "server started" lines may reach the file
    only at exit): the start waits for its BfRt server to report the device with the program
    (GetForwardingPipelineConfig), never for a log line. A stand-in bf_switchd that logs
    nothing, and a BfRt server that answers UNAVAILABLE for a moment, then the program."""
    from concurrent import futures

    import grpc
    import pytest

    gc = pytest.importorskip("bfrt_grpc.client")
    from controller.agent.bmv2_process import free_port

    ready_at = time.monotonic() + 1.0

    class Server(gc.bfruntime_pb2_grpc.BfRuntimeServicer):
        calls = 0

        def GetForwardingPipelineConfig(self, request, context):
            Server.calls += 1
            if time.monotonic() < ready_at:
                context.abort(grpc.StatusCode.UNAVAILABLE, "device not ready")
            msg = gc.bfruntime_pb2.GetForwardingPipelineConfigResponse()
            msg.config.add(p4_name="tor_tiny_t2na", bfruntime_info=b"{}")
            return msg

    port = free_port()
    server = grpc.server(futures.ThreadPoolExecutor(2))
    gc.bfruntime_pb2_grpc.add_BfRuntimeServicer_to_server(Server(), server)
    server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    monkeypatch.setattr(tofino_process, "GRPC_PORT", port)
    sw = TofinoModelSwitch(tmp_path, {}, program_dir=tmp_path / "tor_tiny_t2na")
    monkeypatch.setattr(sw, "switchd_command", lambda conf: ["sleep", "300"])
    (tmp_path / "switchd.conf").write_text("{}")
    try:
        sw.start_switchd(timeout=20)
        # returned once the server answered with the program: after its UNAVAILABLE answers
        assert Server.calls >= 2 and time.monotonic() >= ready_at
        assert (tmp_path / "switchd.log").read_bytes() == b""
        # a server up without the program is not ready
        monkeypatch.setattr(sw, "program_name", "another_program")
        sw.stop_switchd()
        with pytest.raises(tofino_process.SwitchStartError, match="did not report the device running 'another_program'"):
            sw.start_switchd(timeout=2)
    finally:
        sw.stop_switchd()
        server.stop(0)


def test_the_model_is_quiet_unless_asked_and_its_trace_is_written_once(tmp_path, monkeypatch):
    """tofino-model printed its ~3 MB/s packet trace on stdout (model.log) and into its own
    model_<time>.log: quiet by default (--logs-disable); traced, the trace is its own file
    and model.log keeps only the first STDOUT_CAP bytes of stdout (the start-up messages),
    the rest drained (the model never blocks on a full pipe or dies of a closed one)."""
    import sys

    quiet = TofinoModelSwitch(tmp_path, {})
    assert "--logs-disable" in quiet.model_command(tmp_path / "c", tmp_path / "p")
    sw = TofinoModelSwitch(tmp_path, {}, trace=True)
    assert "--logs-disable" not in sw.model_command(tmp_path / "c", tmp_path / "p")
    monkeypatch.setattr(tofino_process, "STDOUT_CAP", 4096)
    flood = ("import sys; print('Loaded p4 target config file', flush=True); "
             "[sys.stdout.write('x' * 999 + chr(10)) for _ in range(3000)]")     # 3 MB on stdout
    monkeypatch.setattr(sw, "model_command", lambda conf, pmap: [sys.executable, "-c", flood])
    sw._start_model(tmp_path / "c", tmp_path / "p", "model.log")
    assert sw.model.wait(60) == 0                           # drained: no SIGPIPE, no stall
    log = tmp_path / "model.log"
    for _ in range(100):                                    # the cap's cat ends after the model
        size = log.stat().st_size
        time.sleep(0.05)
        if log.stat().st_size == size:
            break
    assert log.read_text().startswith("Loaded p4 target config file") and log.stat().st_size == 4096
