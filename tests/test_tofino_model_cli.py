"""`uro tofino-model up|down` without the SDE: what it takes from a network config (the
tofino2 switch, its build, its port map), and bad input or a machine that cannot run the
model as one line before anything is made. Bringing a ToR up for real is tried on the
model (docs/tofino2.md "Bring a ToR up on tofino-model")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from controller.cli import tofino_model
from controller.cli.main import main
from controller.daemon.config import load
from controller.p4gen import profile as prof
from controller.p4gen import render as rnd

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def net(tmp_path):
    """examples/net-tofino2.toml beside a stand-in of its build (the layout bf-p4c writes,
    the rendered contract; the bytes are never loaded here)."""
    (tmp_path / "examples").mkdir()
    cfg = tmp_path / "examples" / "net-tofino2.toml"
    shutil.copy(REPO / "examples" / "net-tofino2.toml", cfg)
    (tmp_path / "tofino" / "ports").mkdir(parents=True)
    shutil.copy(REPO / "tofino" / "ports" / "tiny.toml", tmp_path / "tofino" / "ports" / "tiny.toml")
    out = tmp_path / "tofino" / "build" / "tiny"
    rnd.render_to(prof.load("tiny"), out, ["tor"], "tofino2")
    d = out / "tor_tiny_t2na"
    (d / "pipe").mkdir(parents=True)
    (d / "bfrt.json").write_text('{"tables": []}')
    (d / "pipe" / "context.json").write_text(json.dumps({"program_name": "tor_tiny_t2na"}))
    (d / "pipe" / "tofino2.bin").write_bytes(b"\0")
    return cfg, d


def test_up_takes_the_switch_its_build_and_its_port_map_from_the_example(net):
    cfg, d = net
    sw, prog_dir, name, pm = tofino_model.resolve(load(cfg), None)
    assert sw.name == "tor0" and prog_dir.resolve() == d and name == "tor_tiny_t2na"
    assert (tuple(pm.hosts), tuple(pm.uplinks), pm.pktgen_dev_port) == ((12, 14), (8, 10), 6)


def test_bad_input_and_a_machine_without_the_sde_are_one_line(net, tmp_path, monkeypatch, capsys):
    cfg, d = net
    assert main(["tofino-model", "up", "--config", str(cfg), "--switch", "tor9"]) == 2
    assert "--switch 'tor9': no such switch" in capsys.readouterr().err
    monkeypatch.setenv("SDE_INSTALL", str(tmp_path / "no-sde"))
    state = tmp_path / "state"
    assert main(["tofino-model", "up", "--config", str(cfg), "--state-dir", str(state)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("uro: error: tofino-model cannot run here: ") and "no-sde" in err[0]
    assert not state.exists()                                   # nothing made
    (d / "bfrt.json").unlink()
    assert main(["tofino-model", "up", "--config", str(cfg)]) == 2
    assert "bfrt.json not found" in capsys.readouterr().err


def test_down_with_nothing_up_says_so(tmp_path, capsys):
    assert main(["tofino-model", "down", "--state-dir", str(tmp_path / "state")]) == 0
    assert "nothing was running" in capsys.readouterr().out


@pytest.mark.parametrize("argv, level", [([], None), (["--trace"], "Debug"), (["--trace", "tables"], "Debug"),
                                         (["--trace", "packets"], "Info")])
def test_trace_chooses_the_models_trace_level_and_opens_its_shell(net, tmp_path, monkeypatch, argv, level):
    """``--trace`` alone is the full per-table trace; ``--trace packets`` the packets in and
    out; traced, the model gets a shell port (its level can be changed while it runs)."""
    from controller.agent import tofino_process as tp
    from controller.agent import veths as veth_pairs
    from controller.errors import UroError

    made = {}

    class Switch:
        def __init__(self, log_dir, ports, **kw):
            made.update(kw)

        @staticmethod
        def recorded(pid_dir):
            return []

        def start(self):
            raise UroError("the stand-in model does not start")

    cfg, _ = net
    monkeypatch.setattr(tp, "missing", lambda: None)
    monkeypatch.setattr(tp, "TofinoModelSwitch", Switch)
    monkeypatch.setattr(veth_pairs, "add_veths", lambda ports, prefix, record: {p: (f"s{p}", f"h{p}") for p in ports})
    monkeypatch.setattr(veth_pairs, "delete_veths", lambda record: [])
    assert main(["tofino-model", "up", "--config", str(cfg), "--state-dir", str(tmp_path / "st"), *argv]) == 2
    assert made["trace"] is (level is not None) and made["p4_log_level"] == level
    assert (made["cli_port"] is None) is (level is None)


def test_an_unknown_trace_level_is_refused(net, capsys):
    cfg, _ = net
    assert main(["tofino-model", "up", "--config", str(cfg), "--trace", "everything"]) == 2
    assert "invalid choice: 'everything'" in capsys.readouterr().err
