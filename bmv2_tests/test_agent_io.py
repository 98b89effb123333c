"""PacketOut metadata by name on a program with a ``packet_out`` controller header,
gRPC over TLS (with client certificates), and `uro agent push` end to end, all on real
simple_switch_grpc."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from controller.agent.backend import Unreachable
from controller.agent.diff import diff
from controller.agent.p4runtime import bmv2_pipeline
from controller.agent.push import push
from controller.cli.main import main
from controller.tables import entries as ent

import fabric

from test_agent_backend import CPU_PORT, bare, desired, pipelines  # noqa: F401 (fixtures)

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
    assert push(be, pl, want).verified
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


# ---- uro agent push ------------------------------------------------------------------------
def _config(path: Path, build: Path, switches: list[tuple[str, int, str, float]]) -> Path:
    text = f"""
[network]
profile = "tiny"
build = "{build}"

[schedule]
generate = "round-robin"

[routing]
k = 3
max_hops = 4

[routing.source]
algo = "ucmp"
h_max = 4
destinations = [3, 5]
"""
    for name, tor, address, timeout in switches:
        role = f'role = "tor"\ntor = {tor}' if tor is not None else 'role = "ocs"'
        text += f"""
[[switch]]
name = "{name}"
{role}
address = "{address}"
election_id = 7
timeout_s = {timeout}
insecure = true
"""
    path.write_text(text)
    return path


def test_uro_agent_push_end_to_end(bare, pipelines, artifacts, tmp_path, capsys):
    start, connect = bare
    sw, ocs = start(), start()
    build = Path(artifacts["tor"][0]).parent
    cfg = _config(tmp_path / "net.toml", build, [("tor2", 2, f"127.0.0.1:{sw.grpc_port}", 10),
                                                 ("ocs", None, f"127.0.0.1:{ocs.grpc_port}", 10)])
    assert main(["agent", "push", "--config", str(cfg)]) == 0
    out = capsys.readouterr()
    assert "tor2: pipeline loaded" in out.out and "read back: identical" in out.out
    circuits = len(ent.circuit_entries(pipelines["ocs"].contract, fabric.schedule()))
    assert (f"ocs: pipeline loaded (cookie {pipelines['ocs'].cookie:#018x}); {circuits + 1} objects: "
            f"circuit {circuits}, config 1") in out.out                   # the circuits, then the config entry
    from controller.agent.push import per_table

    want = desired(pipelines["tor"].contract)
    counts = per_table(want, pipelines["tor"].contract)
    assert counts["uro_next_hop"] == 28 and counts["ssrr_selector groups"] > 0
    assert f"{sum(counts.values())} objects: " + ", ".join(f"{k} {v}" for k, v in counts.items()) in out.out
    assert "plaintext gRPC" in out.err
    assert main(["agent", "push", "--config", str(cfg), "--switch", "tor2"]) == 0
    out = capsys.readouterr().out
    assert "pipeline kept" in out and "wrote 0 updates" in out and "ocs:" not in out
    be = connect(sw, election_id=8)
    be.set_pipeline(pipelines["tor"])
    assert diff(be.read_state(), want).empty
    be.close()


def test_uro_agent_push_writes_nothing_when_a_switch_does_not_answer(bare, artifacts, tmp_path, capsys):
    from conftest import free_port

    start, connect = bare
    sw = start()
    build = Path(artifacts["tor"][0]).parent
    cfg = _config(tmp_path / "net.toml", build, [("tor2", 2, f"127.0.0.1:{sw.grpc_port}", 10),
                                                 ("tor3", 3, f"127.0.0.1:{free_port()}", 1)])
    assert main(["agent", "push", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("uro: error: tor3: no P4Runtime server at 127.0.0.1:")
    be = connect(sw, election_id=8)
    assert be.pipeline_cookie() is None                   # tor2 was not touched
