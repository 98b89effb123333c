"""PacketOut metadata by name on a program with a ``packet_out`` controller header,
gRPC over TLS (with client certificates), an election id another controller holds, and
`uro agent push --config net.toml` end to end (a daemon started afterwards adopts the
switches without writing; a push while the daemon holds them is refused), all on real
simple_switch_grpc."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from controller.agent.backend import NotPrimary, Unreachable
from controller.agent.desired import TorRole
from controller.agent.diff import diff
from controller.agent.p4runtime import bmv2_pipeline
from controller.agent.push import push
from controller.cli.main import main
from controller.tables import entries as ent

import fabric

from test_agent_backend import CPU_PORT, bare, desired, pipelines, routes  # noqa: F401 (fixtures)

PO_PROGRAM = r"""
#include <core.p4>
#include <v1model.p4>

@controller_header("packet_out")
header packet_out_t { bit<9> egress_port; bit<7> _pad; }
header ethernet_t { bit<48> dst; bit<48> src; bit<16> ether_type; }
struct headers_t { packet_out_t packet_out; ethernet_t ethernet; }
struct meta_t { }

parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { transition select(sm.ingress_port) { CPU_PORT: parse_po; default: parse_eth; } }
    state parse_po { pkt.extract(h.packet_out); transition parse_eth; }
    state parse_eth { pkt.extract(h.ethernet); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    counter(16, CounterType.packets) seen;      // by packet_out.egress_port
    counter(1, CounterType.packets) timers;     // frames with the timer EtherType
    apply {
        if (h.packet_out.isValid()) { seen.count((bit<32>)h.packet_out.egress_port); }
        if (h.ethernet.isValid() && h.ethernet.ether_type == 0x88B5) { timers.count(0); }
        mark_to_drop(sm);
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.ethernet); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
""".replace("CPU_PORT", CPU_PORT)     # the CPU port the fixtures start switches with

PO_CONTRACT = {"program": "po", "tables": {},
               "counters": {"seen": {"name": "I.seen", "indices": [f"p{i}" for i in range(8)]},
                            "timers": {"name": "I.timers", "indices": ["timer"]}}}


@pytest.fixture(scope="module")
def po_pipeline(tmp_path_factory):
    d = tmp_path_factory.mktemp("po")
    src = d / "po.p4"
    src.write_text(PO_PROGRAM)
    subprocess.run(["p4c-bm2-ss", "--arch", "v1model", "--std", "p4-16", "--p4runtime-files",
                    str(d / "po.p4info.txtpb"), "-o", str(d / "po.json"), str(src)], check=True, capture_output=True)
    return bmv2_pipeline(d / "po.p4info.txtpb", d / "po.json", PO_CONTRACT)


def _wait(fn, want, timeout=5.0):
    end = time.time() + timeout
    while fn() != want and time.time() < end:
        time.sleep(0.05)
    return fn()


def test_packet_out_metadata_by_name_and_timer_frames(bare, po_pipeline):
    start, connect = bare
    be = connect(start(), timer_metadata={"egress_port": 5, "_pad": 0})
    assert be.set_pipeline(po_pipeline)
    be.client.packet_out(b"\xff" * 12 + b"\x08\x00" + bytes(46), {"egress_port": 3, "_pad": 0})
    assert _wait(lambda: be.read_counters()["seen"]["p3"], 1) == 1
    be.send_timer(2)
    assert _wait(lambda: be.read_counters()["timers"]["timer"], 1) == 1
    seen = be.read_counters()["seen"]
    assert seen == {**{f"p{i}": 0 for i in range(8)}, "p3": 1, "p5": 1}


# ---- TLS ---------------------------------------------------------------------------------
def _openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    if shutil.which("openssl") is None:
        pytest.skip("openssl not installed (needed to make test certificates)")
    d = tmp_path_factory.mktemp("tls")
    (d / "san.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    for ca in ("ca", "other_ca"):
        _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{ca}.key", "-out", f"{ca}.crt",
                 "-days", "2", "-subj", f"/CN=uro test {ca}", cwd=d)
    for who in ("server", "client"):
        _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{who}.key", "-out", f"{who}.csr",
                 "-subj", "/CN=localhost", cwd=d)
        _openssl("x509", "-req", "-in", f"{who}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                 "-out", f"{who}.crt", "-days", "2", "-extfile", "san.ext", cwd=d)
    return d


def test_tls_with_client_certificates(bare, pipelines, certs):
    start, connect = bare
    sw = start(["--cpu-port", CPU_PORT, "--grpc-server-ssl", "--grpc-server-cacert", str(certs / "ca.crt"),
                "--grpc-server-cert", str(certs / "server.crt"), "--grpc-server-key", str(certs / "server.key"),
                "--grpc-server-with-client-auth"])
    tls = {"insecure": False, "ca_cert": certs / "ca.crt", "client_cert": certs / "client.crt",
           "client_key": certs / "client.key"}
    be = connect(sw, tls=tls)
    pl = pipelines["tor"]
    want = desired(pl.contract)
    assert push(be, pl, TorRole(pl.contract, 2), routes()).verified
    be.close()
    from controller.agent.backend import SwitchAddress
    from controller.agent.p4runtime import P4RuntimeBackend

    addr = f"127.0.0.1:{sw.grpc_port}"
    for name, kw in (("plaintext", {"insecure": True}),
                     ("no client certificate", {"insecure": False, "ca_cert": certs / "ca.crt"}),
                     ("another CA", {**tls, "ca_cert": certs / "other_ca.crt"})):
        other = P4RuntimeBackend(SwitchAddress(name, addr, election_id=20, timeout_s=2, **kw))
        with pytest.raises(Unreachable, match=f"{name}: no P4Runtime server"):
            other.connect()
    be = connect(sw, tls=tls)
    be.set_pipeline(pl)
    assert diff(be.read_state(), want).empty             # the refused sessions wrote nothing


def test_an_election_id_another_controller_holds_is_refused(bare):
    """P4Runtime §5.3: the switch ends the stream with INVALID_ARGUMENT; the client says
    NotPrimary (another controller uses it), not "unreachable", and never writes."""
    start, connect = bare
    sw = start()
    a = connect(sw, election_id=10, name="a")
    from controller.agent.backend import SwitchAddress
    from controller.agent.p4runtime import P4RuntimeBackend

    b = P4RuntimeBackend(SwitchAddress("b", f"127.0.0.1:{sw.grpc_port}", election_id=10, timeout_s=5))
    with pytest.raises(NotPrimary, match=r"b: the switch refused election id 10 \(INVALID_ARGUMENT: .*another "
                                         r"controller uses it"):
        b.connect()
    assert a.connected


def test_a_closed_session_lets_go_of_its_election_id(bare):
    """A session's close returns once the switch has dropped it: the same election id is
    taken again at once by the next session (a reconnecting controller), every time."""
    start, connect = bare
    sw = start()
    for i in range(20):
        be = connect(sw, election_id=10, name=f"session{i}")
        assert be.connected
        assert be.client.close() is True          # the switch ended the stream: it let go


# ---- uro agent push --------------------------------------------------------------------------
def _programs(artifacts) -> dict:
    return {role: (p4info, js, p4info.parent / f"{p4info.name.split('.')[0]}.contract.json")
            for role, (p4info, js, _c) in artifacts.items()}


def _config(path: Path, artifacts, switches: list[tuple[str, int | None, str]], status_port: int = 0) -> Path:
    """A net.toml (the daemon's format) for the tiny fabric's switches."""
    from daemon_util import write_net

    sws = []
    for name, tor, address in switches:
        d = {"name": name, "role": "tor" if tor is not None else "ocs", "address": address}
        if tor is not None:
            d.update(tor=tor, ports={"hosts": [0, 1], "uplinks": [2, 3]})
        sws.append(d)
    return write_net(path, _programs(artifacts), sws, status_port=status_port, election_id=7,
                     routing='source_routed = [3, 5]\n[routing.per_hop]\nk = 3\nmax_hops = 4\n'
                             '[routing.source]\nalgo = "ucmp"\nh_max = 4',
                     clock="slice_ms = 100")


def _desired(cfg: Path, name: str):
    """What the daemon's roles say ``name`` holds with generation 0 active."""
    from controller.agent import generations as gens
    from controller.agent.backend import backend_for
    from controller.daemon import plan
    from controller.daemon.config import load
    from controller.schedule.degrade import Failed

    prep = plan.Prepared(load(cfg), Failed(), backend_for, names=[name])
    role = prep.roles[name]
    return gens.final_state(role.static(), role.routes(prep.routes, 0), role.config(0))


def _state(sw, pipeline):
    from controller.agent.backend import SwitchAddress
    from controller.agent.p4runtime import P4RuntimeBackend

    be = P4RuntimeBackend(SwitchAddress("check", f"127.0.0.1:{sw.grpc_port}", election_id=900, timeout_s=10))
    be.connect()
    try:
        assert be.pipeline_cookie() == pipeline.cookie
        be.set_pipeline(pipeline)
        return be.read_state()
    finally:
        be.close()


def test_uro_agent_push_end_to_end_and_a_daemon_adopts_the_switches(bare, pipelines, artifacts, tmp_path, capsys):
    from controller.agent.bmv2_process import free_port
    from daemon_util import DaemonProc, status, until

    start, connect = bare
    sw, ocs = start(), start()
    port = free_port()
    cfg = _config(tmp_path / "net.toml", artifacts, [("tor2", 2, f"127.0.0.1:{sw.grpc_port}"),
                                                      ("ocs", None, f"127.0.0.1:{ocs.grpc_port}")], port)
    assert main(["agent", "push", "--config", str(cfg)]) == 0
    out = capsys.readouterr()
    assert "tor2: pipeline loaded" in out.out and "read back: identical" in out.out
    assert out.out.count("generation 0 installed (the switch was unconfigured; config entry written last)") == 2
    circuits = len(ent.circuit_entries(pipelines["ocs"].contract, fabric.schedule()))
    assert f"ocs: pipeline loaded (cookie {pipelines['ocs'].cookie:#018x}); generation 0 installed" in out.out
    # the OCS emulator's slice clock is a static default entry (clock_off: the daemon's timers)
    assert f"  {circuits + 2} objects: clock_config 1, circuit {circuits}, config 1" in out.out
    from controller.agent.push import per_table

    want = _desired(cfg, "tor2")
    counts = per_table(want, pipelines["tor"].contract)
    assert counts["uro_next_hop"] == 28 and counts["ssrr_selector groups"] > 0
    assert {dict(e.match)["dst_tor"] for e in want.entries if e.table == "UroIngress.ssrr_path"} == {3, 5}
    assert f"  {sum(counts.values())} objects: " in out.out
    assert "plaintext gRPC" in out.err
    assert diff(_state(sw, pipelines["tor"]), want).empty
    assert diff(_state(ocs, pipelines["ocs"]), _desired(cfg, "ocs")).empty
    assert main(["agent", "push", "--config", str(cfg), "--switch", "tor2"]) == 0
    out = capsys.readouterr().out
    assert "pipeline kept" in out and "already active with these routes" in out and "wrote 0 updates" in out
    assert "ocs:" not in out
    # the daemon on the same config adopts both switches: no program load, not one entry written
    d = DaemonProc(cfg, tmp_path)
    try:
        d.wait_event("daemon.started")
        st = until(lambda: (lambda s: s if all(x["generation"] == 0 and x["routes_version"] for x in s["switches"])
                            else None)(status(port)), what="both switches installed by the daemon")
        for x in st["switches"]:
            assert (x["name"], x["pipeline_loads"], x["entries_written"], x["installs"], x["swaps"]) == \
                (x["name"], 0, 0, 0, 0), x
        # while the daemon holds them (the same election id), a push is refused and writes nothing
        assert main(["agent", "push", "--config", str(cfg)]) == 2
        err = capsys.readouterr().err.strip().splitlines()[-1]
        assert "election_id: 7 is refused by the switch" in err and "another controller uses it" in err, err
        st = status(port)
        assert all(x["entries_written"] == 0 and x["state"] == "up" for x in st["switches"]), st["switches"]
    finally:
        assert d.stop() == 0
    assert diff(_state(sw, pipelines["tor"]), want).empty


def test_uro_agent_push_writes_nothing_when_a_switch_does_not_answer(bare, artifacts, tmp_path, capsys):
    from controller.agent.bmv2_process import free_port

    start, connect = bare
    sw = start()
    cfg = _config(tmp_path / "net.toml", artifacts, [("tor2", 2, f"127.0.0.1:{sw.grpc_port}"),
                                                      ("tor3", 3, f"127.0.0.1:{free_port()}")])
    # the live switch must answer within the timeout even on a loaded machine (1 s was not
    # always enough, and then tor2 was named first); the dead address fails at the timeout
    cfg.write_text(cfg.read_text().replace("rpc_timeout_s = 3", "rpc_timeout_s = 8"))
    assert main(["agent", "push", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"uro: error: {cfg}: switch 'tor3': address: 127.0.0.1:"), err[-1]
    assert "does not answer: tor3: no P4Runtime server at 127.0.0.1:" in err[-1]
    be = connect(sw, election_id=8)
    assert be.pipeline_cookie() is None                   # tor2 was not touched
