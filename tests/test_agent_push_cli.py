"""`uro agent push` config checks (no switch needed): every mistake is one line naming
the switch and field, exit 2, before any switch is contacted."""

from __future__ import annotations

import pytest

from controller.cli.main import main

BASE = """
[network]
profile = "tiny"
build = "build"

[schedule]
generate = "round-robin"

[routing]
k = 3

[routing.source]
algo = "ucmp"
destinations = [3]
"""

SWITCH = """
[[switch]]
name = "tor0"
role = "tor"
tor = 0
address = "127.0.0.1:9559"
insecure = true
"""


@pytest.mark.parametrize("text, message", [
    (BASE, "no [[switch]] tables"),
    (BASE + SWITCH.replace('role = "tor"', 'role = "spine"'), "switch 'tor0': role must be one of tor, ocs, got 'spine'"),
    (BASE + SWITCH + SWITCH.replace('"tor0"', '"tor1"'), "switch 'tor1': ToR id 0 is also switch 'tor0'"),
    (BASE + SWITCH + SWITCH.replace("tor = 0", "tor = 1"), "switch 'tor0': the name is used twice"),
    (BASE + SWITCH.replace("tor = 0", "tor = 8"), "switch 'tor0': tor: expected an integer in 0..7, got 8"),
    (BASE + SWITCH.replace("127.0.0.1:9559", "localhost"), "switch 'tor0': address: expected host:port, got 'localhost'"),
    (BASE + SWITCH.replace("insecure = true", ""), "switch 'tor0': TLS needs ca_cert (or insecure = true"),
    (BASE + SWITCH.replace("insecure = true", 'insecure = false\nca_cert = "nope.pem"'),
     "switch 'tor0': ca_cert "),
    (BASE + SWITCH + "election_id = 0\n", "switch 'tor0': election_id: expected an integer in 1..3402"),
    (BASE + SWITCH + "port = 3\n", "switch 'tor0': unknown key 'port'"),
    (BASE.replace("k = 3", "k = 3\nh_max = 2") + SWITCH, "[routing].h_max: not a parameter of uro"),
    (BASE.replace('algo = "ucmp"', 'algo = "uro"') + SWITCH, "[routing.source].algo: 'uro' computes per_hop routes"),
    (BASE.replace("destinations = [3]", "destinations = [3, 9]") + SWITCH,
     "[routing.source].destinations: expected an integer in 0..7, got 9"),
    (BASE.replace('profile = "tiny"', 'profile = "huge"') + SWITCH, "[network].profile: unknown profile 'huge'"),
    (BASE.replace('generate = "round-robin"', 'generate = "circle"') + SWITCH,
     "[schedule].generate: unknown generator 'circle'"),
    ("[network\n", "not valid TOML"),
])
def test_bad_config_is_one_line_exit_2(tmp_path, capsys, text, message):
    cfg = tmp_path / "net.toml"
    cfg.write_text(text)
    assert main(["agent", "push", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert not (tmp_path / "build").exists()                # nothing built, nothing written


def test_unknown_switch_name_and_missing_file(tmp_path, capsys):
    cfg = tmp_path / "net.toml"
    cfg.write_text(BASE + SWITCH)
    assert main(["agent", "push", "--config", str(cfg), "--switch", "tor9"]) == 2
    assert "--switch 'tor9': no such switch" in capsys.readouterr().err
    assert main(["agent", "push", "--config", str(tmp_path / "none.toml")]) == 2
    assert "cannot read network config" in capsys.readouterr().err


def test_schedule_that_does_not_match_the_profile(tmp_path):
    from controller.agent import netconfig
    from controller.schedule import round_robin, save

    save(round_robin(10, 2), tmp_path / "s.json")
    cfg = tmp_path / "net.toml"
    cfg.write_text(BASE.replace('generate = "round-robin"', 'file = "s.json"') + SWITCH)
    c = netconfig.load(cfg)
    with pytest.raises(netconfig.ConfigError, match=r"\[schedule\]: 10 ToRs x 2 uplinks x 5 slices does not match "
                                                    r"profile 'tiny' \(8 x 2 x 4\)"):
        c.schedule


def test_the_example_config_is_valid():
    from pathlib import Path

    from controller.agent import netconfig

    c = netconfig.load(Path(__file__).resolve().parents[1] / "examples" / "push.toml")
    (sw,) = c.switches
    assert (sw.name, sw.role, sw.tor, sw.address.address, sw.address.insecure) == ("tor0", "tor", 0,
                                                                                 "127.0.0.1:9559", True)
    assert c.profile.name == "tiny" and c.source["destinations"] == [3, 5]
    assert c.schedule.n_slices == c.profile.slices
