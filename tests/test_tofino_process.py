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

    from controller.agent import bfrt
    from controller.agent.backend import MissingClient
    from controller.agent.bmv2_process import free_port

    try:    # as the project loads it: beside finsy's google/rpc/status.proto, whichever came first
        gc = bfrt.load_bfrt_grpc()
    except MissingClient as e:
        pytest.skip(str(e))

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
    servers = []

    def switchd_command(conf):             # the stand-in's BfRt server comes up with it
        server = grpc.server(futures.ThreadPoolExecutor(2))
        gc.bfruntime_pb2_grpc.add_BfRuntimeServicer_to_server(Server(), server)
        server.add_insecure_port(f"127.0.0.1:{port}")
        server.start()
        servers.append(server)
        return ["sleep", "300"]

    monkeypatch.setattr(tofino_process, "GRPC_PORT", port)
    sw = TofinoModelSwitch(tmp_path, {}, program_dir=tmp_path / "tor_tiny_t2na")
    monkeypatch.setattr(sw, "switchd_command", switchd_command)
    (tmp_path / "switchd.conf").write_text("{}")
    try:
        sw.start_switchd(timeout=20)
        # returned once the server answered with the program: after its UNAVAILABLE answers
        assert Server.calls >= 2 and time.monotonic() >= ready_at
        assert (tmp_path / "switchd.log").read_bytes() == b""
        # a server up without the program is not ready
        monkeypatch.setattr(sw, "program_name", "another_program")
        sw.stop_switchd()
        servers[-1].stop(0).wait(5)     # (stop returns before the listener is closed)
        with pytest.raises(tofino_process.SwitchStartError, match="did not report the device running 'another_program'"):
            sw.start_switchd(timeout=2)
    finally:
        sw.stop_switchd()
        for server in servers:
            server.stop(0)


def test_a_switchd_whose_bfrt_server_cannot_bind_fails_at_once_with_the_reason(tmp_path, monkeypatch):
    """bf_switchd does not exit when its BfRt server cannot bind (it logs the error to
    bf_drivers.log in its working directory and idles): the start fails on that log line,
    not after the whole start timeout with "nothing listens"."""
    import pytest

    from controller.agent.bmv2_process import free_port

    monkeypatch.setattr(tofino_process, "GRPC_PORT", free_port())
    sw = TofinoModelSwitch(tmp_path, {})
    (tmp_path / "bf_drivers.log").write_text("ERROR: Failed to start bfrt grpc server (an earlier start's)\n")
    line = "2026-11-30 01:30:00 DEBUG BF_SWITCHD ERROR: Failed to start bfrt grpc server: Resource busy"
    monkeypatch.setattr(sw, "switchd_command", lambda conf: [
        "sh", "-c", f"sleep 1; for i in $(seq 3000); do echo filler line $i; done >> bf_drivers.log; "
                    f"echo '{line}' >> bf_drivers.log; exec sleep 300"])
    try:
        with pytest.raises(tofino_process.SwitchStartError,
                           match=r"its BfRt server could not bind port \d+ \(held by: nothing any more\)"):
            sw.start_switchd(timeout=120)
    finally:
        sw.stop_switchd()


def test_the_log_watch_sees_only_what_was_written_after_it_began(tmp_path):
    log = tmp_path / "bf_drivers.log"
    log.write_bytes(b"old: NEEDLE\n")
    w = tofino_process._LogWatch(log, b"NEEDLE", interval=0)
    assert not w.seen()
    with open(log, "ab") as f:
        f.write(b"new line NEE")
    assert not w.seen()
    with open(log, "ab") as f:                   # the needle split across two reads
        f.write(b"DLE\n")
    assert w.seen()
    assert not w.seen()                          # seen once: nothing new since
    log.rename(tmp_path / "bf_drivers.log.0")     # rotated: the new file from its start
    log.write_bytes(b"NEEDLE\n")
    assert w.seen()
    fresh = tofino_process._LogWatch(tmp_path / "not_yet.log", b"NEEDLE", interval=0)
    assert not fresh.seen()
    (tmp_path / "not_yet.log").write_bytes(b"x NEEDLE\n")
    assert fresh.seen()


def test_the_bfrt_port_is_reserved_while_the_switch_runs_and_only_it_is_given_back(tmp_path, monkeypatch):
    """50052 is in the ephemeral range: the switch lists it in ip_local_reserved_ports
    (so no client connection takes it between the free-port check and bf_switchd's bind),
    and gives back exactly that port: a range reserved by someone else stays, and a port
    reserved before the switch stays reserved after it."""
    reserved = tmp_path / "ip_local_reserved_ports"
    monkeypatch.setattr(tofino_process, "RESERVED_PORTS_FILE", reserved)
    monkeypatch.setattr(tofino_process, "HUGEPAGES_FILE", tmp_path / "nr_hugepages")
    pid_dir = tmp_path / "pids"
    port = tofino_process.GRPC_PORT

    reserved.write_text("8080,50000-50010\n")
    sw = TofinoModelSwitch(tmp_path, {}, pid_dir=pid_dir)
    sw._reserve_port()
    assert reserved.read_text() == f"8080,50000-50010,{port}\n"
    assert (pid_dir / tofino_process.RESERVED_RECORD).exists()
    reserved.write_text(f"8080,50000-50010,{port - 1}-{port + 1}\n")     # the kernel merges ranges
    sw.stop()
    assert reserved.read_text() == f"8080,50000-50010,{port - 1},{port + 1}\n"
    assert not (pid_dir / tofino_process.RESERVED_RECORD).exists()

    reserved.write_text(f"{port - 2}-{port + 2}\n")                      # someone else's range
    sw = TofinoModelSwitch(tmp_path, {}, pid_dir=pid_dir)
    sw._reserve_port()
    sw.stop()
    assert reserved.read_text() == f"{port - 2}-{port + 2}\n"

    reserved.write_text("\n")                                           # a killed starter's record
    TofinoModelSwitch(tmp_path, {}, pid_dir=pid_dir)._reserve_port()
    assert TofinoModelSwitch.reap(pid_dir) == [f"port {port} out of net.ipv4.ip_local_reserved_ports"]
    assert reserved.read_text() == "\n"


def test_switchd_starts_only_once_no_client_connection_holds_its_port(tmp_path):
    """A client connection whose ephemeral source port is the BfRt port would make the
    server's bind fail: the start waits for it to go; a server already on the port is
    another switch, refused at once."""
    import socket
    import struct
    import threading

    import pytest

    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen()
        client = socket.socket()
        client.bind(("127.0.0.1", 0))
        client.connect(srv.getsockname())
        port = client.getsockname()[1]
        with pytest.raises(tofino_process.SwitchStartError,
                           match=rf"port {port} stayed held for 1 s \(127.0.0.1:{port} ESTABLISHED\)"):
            tofino_process._wait_port_free(port, 1.0)

        def close():                           # reset, so no TIME-WAIT holds the port after it
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            client.close()
        t = threading.Timer(1.0, close)
        t.start()
        try:
            tofino_process._wait_port_free(port, 60.0)
        finally:
            t.cancel()
            t.join()
        with pytest.raises(tofino_process.SwitchStartError, match=rf"port {srv.getsockname()[1]} is taken by a "
                                                                  r"server already .* another bf_switchd\?"):
            tofino_process._wait_port_free(srv.getsockname()[1], 60.0)


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
