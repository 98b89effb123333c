"""The network config's ``[daemon]``, ``[hosts]``, ``[tls]``, ``[program.*]`` and
``[[switch]]`` keys: every key read as written and every default the one docs/daemon.md
states; every refusal one whole line naming the file, the section and the key, at the
bounds of each range (what mutation testing of controller/daemon/config.py asked of the
tests: docs/mutation.md)."""

import json

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from controller.daemon.config import MAX_ELECTION_ID, ConfigError, load

from daemon_fakes import net_toml, ocs_switch, tor_switch


def switches(**tor0) -> list[dict]:
    sw = [tor_switch(0), tor_switch(1), ocs_switch()]
    sw[0].update(tor0)
    return sw


def refused(path) -> str:
    """The one error line of loading ``path``, the file's name taken off its front."""
    with pytest.raises(ConfigError) as e:
        load(path)
    text = str(e.value)
    assert text.startswith(f"{path.resolve()}: ") and "\n" not in text, text
    return text[len(f"{path.resolve()}: "):]


# ---- [daemon] ---------------------------------------------------------------------------------
def test_daemon_keys_left_out_take_the_documented_defaults(tmp_path):
    d = load(net_toml(tmp_path, switches(), daemon="")).daemon
    assert (d.status_host, d.status_port) == ("127.0.0.1", 10559)
    assert (d.reconcile_s, d.reconnect_s, d.reconciles_at_once, d.rpc_timeout_s) == (10.0, 1.0, 2, 5.0)
    assert (d.log_format, d.election_id, d.hold_s, d.diff_writes, d.incremental) == ("json", 1, None, True, True)
    assert (d.route_cache_mib, d.workers, d.scheduler) == (1536, 0, None)
    assert (d.worker_silent_s, d.held_id_wait_s) == (30.0, 15.0)
    assert (d.api.token_file, d.api.reads, d.api.tls_cert) == (tmp_path / "net.token", "local", None)


def test_every_daemon_key_is_read_as_written(tmp_path):
    sw = switches()
    del sw[2]["election_id"]                     # the OCS takes the [daemon] default
    d = load(net_toml(tmp_path, sw, daemon="\n".join([
        'status = "[::1]:0"', "reconcile_s = 3", "reconnect_s = 0.5", "reconciles_at_once = 4096",
        "rpc_timeout_s = 2", 'log = "kv"', f"election_id = {MAX_ELECTION_ID}", "hold_s = 0.25",
        "diff_writes = false", "incremental = false", "route_cache_mib = 0", "workers = 3",
        'scheduler = "tls://10.0.0.1:8786"', "worker_silent_s = 12", "held_id_wait_s = 3",
        'reads = "open"'])))
    cfg, d = d, d.daemon
    assert (d.status_host, d.status_port) == ("::1", 0)            # brackets off, port 0 allowed here
    assert (d.reconcile_s, d.reconnect_s, d.reconciles_at_once, d.rpc_timeout_s) == (3, 0.5, 4096, 2)
    assert (d.log_format, d.election_id, d.hold_s, d.diff_writes, d.incremental) == \
        ("kv", MAX_ELECTION_ID, 0.25, False, False)
    assert (d.route_cache_mib, d.workers, d.scheduler) == (0, 3, "tls://10.0.0.1:8786")   # as many as switches
    assert (d.worker_silent_s, d.held_id_wait_s, d.api.reads) == (12, 3, "open")
    assert cfg.switch("ocs").election_id == MAX_ELECTION_ID and cfg.switch("tor0").election_id == 10
    d = load(net_toml(tmp_path, switches(), daemon='reconciles_at_once = 1\nelection_id = 1\nstatus = "XrayX:1"')).daemon
    assert (d.reconciles_at_once, d.election_id, d.status_host, d.status_port) == (1, 1, "XrayX", 1)


@pytest.mark.parametrize("daemon,msg", [
    ("reconciles_at_once = 0", "[daemon]: reconciles_at_once: must be in 1..4096, got 0"),
    ("reconciles_at_once = 4097", "[daemon]: reconciles_at_once: must be in 1..4096, got 4097"),
    ("election_id = 0", f"[daemon]: election_id: must be in 1..{MAX_ELECTION_ID}, got 0"),
    (f"election_id = {MAX_ELECTION_ID + 1}",
     f"[daemon]: election_id: must be in 1..{MAX_ELECTION_ID}, got {MAX_ELECTION_ID + 1}"),
    ("hold_s = 0", "[daemon]: hold_s: must be a positive number, got 0"),
    ('diff_writes = "yes"', "[daemon]: diff_writes: must be true or false, got 'yes'"),
    ("incremental = 1", "[daemon]: incremental: must be true or false, got 1"),
    ('log = "KV"', "[daemon]: log: \"json\" or \"kv\", got 'KV'"),
    ('workers = 1\nscheduler = "TLS://10.0.0.1:8786"',
     "[daemon]: scheduler: a Dask scheduler address such as \"tcp://10.0.0.1:8786\", got 'TLS://10.0.0.1:8786'"),
    ('scheduler = "tcp://10.0.0.1:8786"',
     "[daemon]: scheduler: tcp://10.0.0.1:8786 needs workers = N (how many of its workers own switches)"),
    ("workers = 4", "[daemon]: workers = 4: more workers than the 3 switches they would own"),
    ('status = "127.0.0.1:65536"', "[daemon]: status: expected host:port (port 0..65535), got '127.0.0.1:65536'"),
])
def test_a_bad_daemon_key_is_refused_whole(tmp_path, daemon, msg):
    assert refused(net_toml(tmp_path, switches(), daemon=daemon)) == msg


# ---- [hosts] ----------------------------------------------------------------------------------
def test_hosts_keys_read_and_their_defaults(tmp_path):
    h = load(net_toml(tmp_path, switches())).hosts
    assert (h.alpha, h.netns) == (0.5, ())
    h = load(net_toml(tmp_path, switches(), extra='[hosts]\nalpha = 0.25\nnetns = ["h0", "h1"]')).hosts
    assert (h.alpha, h.netns) == (0.25, ("h0", "h1"))
    assert type(h.alpha) is float


NO_SOURCE = 'source_routed = []\n[routing.per_hop]\nalgo = "uro"\nk = 3\nmax_hops = 4'


@pytest.mark.parametrize("hosts,routing,msg", [
    ("alpha = 0", None, "[hosts]: alpha: must be a positive number, got 0"),
    ("colour = 1", None, "[hosts]: colour: unknown key (known here: alpha, netns)"),
    ('netns = "h0"', None, "[hosts]: netns: a list of network namespace names, got 'h0'"),
    ('netns = [""]', None, "[hosts]: netns: a list of network namespace names, got ['']"),
    ('netns = ["a/b"]', None, "[hosts]: netns: a list of network namespace names, got ['a/b']"),
    ("netns = [1]", None, "[hosts]: netns: a list of network namespace names, got [1]"),
    ('netns = ["a", "b", "a", "b"]', None, "[hosts]: netns: 'a' is listed twice"),
    ('netns = ["h0"]', NO_SOURCE, "[hosts]: netns: host flow aging tags flows for source routes; the config "
                                  "source-routes no destination ([routing] source_routed, [routing.source])"),
    ('netns = ["h0"]', NO_SOURCE + '\n[routing.source]\nalgo = "ucmp"\nh_max = 4\nengine = "numpy"',
     "[hosts]: netns: host flow aging tags flows for source routes; the config "
     "source-routes no destination ([routing] source_routed, [routing.source])"),
])
def test_a_bad_hosts_key_is_refused_whole(tmp_path, hosts, routing, msg):
    assert refused(net_toml(tmp_path, switches(), extra=f"[hosts]\n{hosts}", routing=routing)) == msg


# ---- [tls] ------------------------------------------------------------------------------------
def with_tls(tmp_path, sw, tls: str):
    p = net_toml(tmp_path, sw)
    p.write_text(p.read_text().replace("[tls]\ninsecure = true", f"[tls]\n{tls}"))
    return p


def test_a_switch_tls_table_inherits_the_network_tls(tmp_path):
    for name in ("ca.pem", "cert.pem", "key.pem"):
        (tmp_path / name).write_text("x")
    files = f'ca = "{tmp_path}/ca.pem"\ncert = "{tmp_path}/cert.pem"\nkey = "{tmp_path}/key.pem"'
    cfg = load(with_tls(tmp_path, switches(tls={"insecure": False}), files))
    t = cfg.switch("tor0").tls
    assert (t.insecure, t.ca, t.cert, t.key) == (False, tmp_path / "ca.pem", tmp_path / "cert.pem", tmp_path / "key.pem")
    t = load(with_tls(tmp_path, switches(tls={"ca": str(tmp_path / "cert.pem")}), "insecure = true")).switch("tor0").tls
    assert (t.insecure, t.ca) == (True, tmp_path / "cert.pem")             # insecure inherited
    t = load(with_tls(tmp_path, switches(tls={"ca": str(tmp_path / "ca.pem")}), "")).switch("tor0").tls
    assert (t.insecure, t.ca, t.cert) == (False, tmp_path / "ca.pem", None)  # no [tls] keys: verified TLS


@pytest.mark.parametrize("tor0,tls,msg", [
    ({"tls": {"colour": 1}}, "insecure = true", "switch 'tor0': tls: colour: unknown key (known here: ca, cert, insecure, key)"),
    ({}, "insecure = 1", "[tls]: insecure: must be true or false, got 1"),
    ({}, 'cert = "/nonexistent/c.pem"', "[tls]: cert: /nonexistent/c.pem not found"),
])
def test_a_bad_tls_key_is_refused_whole(tmp_path, tor0, tls, msg):
    assert refused(with_tls(tmp_path, switches(**tor0), tls)) == msg


# ---- [program.*] ------------------------------------------------------------------------------
def program_toml(tmp_path, edit):
    """The good config with ``edit(text of [program.tor], contract path)`` in place of [program.tor]."""
    p = net_toml(tmp_path, switches())
    text = p.read_text()
    start = text.index("[program.tor]")
    end = text.index("[program.ocs]")
    p.write_text(text[:start] + edit(text[start:end], tmp_path / "tor_tiny.contract.json") + text[end:])
    return p


def test_a_program_files_are_the_keys_besides_its_contract(tmp_path):
    prog = load(net_toml(tmp_path, switches())).programs["tor"]
    assert sorted(prog.files) == ["device_config", "p4info"]
    assert prog.contract_path == tmp_path / "tor_tiny.contract.json"


def test_a_bad_program_is_refused_whole(tmp_path):
    def rewrite(contract):
        def edit(section, cpath):
            cpath.write_text(contract)
            return section
        return edit
    c = tmp_path / "tor_tiny.contract.json"
    cases = [
        (lambda s, _: s.replace('p4info = "', 'p4info = "/nonexistent'),
         f"[program.tor]: p4info: /nonexistent{tmp_path}/tor_tiny.p4info.txtpb not found (build it with `uro p4 build`)"),
        (lambda s, _: "\n".join(x for x in s.split("\n") if not x.startswith("contract")) + "\n",
         "[program.tor]: contract: missing"),
        (lambda s, _: "\n".join(x for x in s.split("\n") if x.startswith(("[", "contract"))) + "\n",
         "[program.tor]: no program files (bmv2: p4info = \"...\", device_config = \"...\")"),
        (lambda s, _: s.replace('contract = "', 'contract = "/nonexistent'),
         f"[program.tor]: contract: /nonexistent{c} not found (build it with `uro p4 build`)"),
        (rewrite("[1]"), f"[program.tor]: contract: {c} is not a uro pipeline contract"),
        (rewrite('{"format": "other/1"}'), f"[program.tor]: contract: {c} is not a uro pipeline contract"),
        (rewrite('{"format": "uro-pipeline-contract/1", "program": "spine"}'),
         f"[program.tor]: contract: program 'spine' is not one of ('tor', 'ocs')"),
        (lambda s, _: s.replace('p4info = "', "p4info = 5 #"), "[program.tor]: p4info: must be a non-empty string, got 5"),
    ]
    for edit, msg in cases:
        assert refused(program_toml(tmp_path, edit)) == msg
    got = refused(program_toml(tmp_path, rewrite("{not json")))
    assert got.startswith(f"[program.tor]: contract: {c} is not JSON: Expecting property name"), got


# ---- [[switch]] and its ports -----------------------------------------------------------------
def test_switch_keys_at_their_bounds_are_taken(tmp_path):
    sw = switches(name="ToR-0.a_B", address="[::1]:65535", device_id=(1 << 64) - 1)
    sw[1]["address"] = "localhost:1"
    sw[0]["ports"]["interfaces"] = ["eth1", ""]
    sw[1]["ports"]["interfaces"] = ["eth9"]
    cfg = load(net_toml(tmp_path, sw))
    s = cfg.switch("ToR-0.a_B")
    assert (s.address, s.device_id, s.ports.interfaces) == ("[::1]:65535", (1 << 64) - 1, ("eth1", None))
    assert cfg.switch("tor1").ports.interfaces == ("eth9", None)
    assert cfg.switch("tor1").ports.hosts == (0, 1) and cfg.switch("tor1").ports.uplinks == (2, 3)


def test_a_switch_that_is_no_table_is_refused(tmp_path):
    p = net_toml(tmp_path, switches())
    text = p.read_text()
    p.write_text("switch = [1]\n" + text[:text.index("[[switch]]")])
    assert refused(p) == "switch[0] must be a table ([[switch]])"


def _drop(key):
    return lambda s: s[0].pop(key)


@pytest.mark.parametrize("mutate,msg", [
    (lambda s: s[0].update(name=""), "switch[0]: name: letters, digits, '_', '.', '-' required, got ''"),
    (lambda s: s[0].update(name=5), "switch[0]: name: letters, digits, '_', '.', '-' required, got 5"),
    (lambda s: s[0].update(name="tor 0"), "switch[0]: name: letters, digits, '_', '.', '-' required, got 'tor 0'"),
    (_drop("role"), "switch 'tor0': role: missing"),
    (lambda s: s[0].update(role="spine"), "switch 'tor0': role: unknown role 'spine' (roles: tor, ocs)"),
    (lambda s: s[2].update(tor=-1), "switch 'ocs': tor: only a role = \"tor\" switch has a ToR id"),
    (_drop("address"), "switch 'tor0': address: missing"),
    (lambda s: s[0].update(address="127.0.0.1:0"), "switch 'tor0': address: expected host:port (port 1..65535), got '127.0.0.1:0'"),
    (lambda s: s[0].update(address="127.0.0.1:65536"),
     "switch 'tor0': address: expected host:port (port 1..65535), got '127.0.0.1:65536'"),
    (lambda s: s[0].update(device_id=1 << 64), f"switch 'tor0': device_id: must be in 0..{(1 << 64) - 1}, got {1 << 64}"),
    (lambda s: s[2].update(ports={"hosts": [0]}),
     "switch 'ocs': ports: an OCS emulator's ports are fixed (port tor * uplinks + uplink faces that ToR uplink); "
     "leave ports out"),
    (lambda s: s[0]["ports"].update(colour=1), "switch 'tor0': ports: colour: unknown key (known here: hosts, interfaces, uplinks)"),
    (lambda s: s[0]["ports"].pop("hosts"), "switch 'tor0': ports: hosts: missing"),
    (lambda s: s[0]["ports"].update(hosts=5), "switch 'tor0': ports.hosts: a list of device port numbers, got 5"),
    (lambda s: s[0]["ports"].update(hosts=[-1]), "switch 'tor0': ports.hosts: a list of device port numbers, got [-1]"),
    (lambda s: s[0]["ports"].update(hosts=[True]), "switch 'tor0': ports.hosts: a list of device port numbers, got [True]"),
    (lambda s: s[0]["ports"].update(hosts=[1, 0, 1, 0]), "switch 'tor0': ports.hosts: port 0 is listed twice"),
    (lambda s: s[0]["ports"].update(interfaces="eth1"),
     "switch 'tor0': ports.interfaces: a list of interface names (\"\" for none), got 'eth1'"),
    (lambda s: s[0]["ports"].update(uplinks=[2, 3, 4]),
     "switch 'tor0': ports.uplinks: 3 uplinks listed (the schedule's ToRs have 2 uplinks; program tor_tiny has host "
     "ports 0..1 and uplink u on port 2 + u; the generated port layout is fixed)"),
    (lambda s: s[0]["ports"].update(uplinks=[2, 5]),
     "switch 'tor0': ports.uplinks[1]: port 5, but program tor_tiny has host ports 0..1 and uplink u on port 2 + u; "
     "the generated port layout is fixed (uplink 1 = port 3)"),
])
def test_a_bad_switch_is_refused_whole(tmp_path, mutate, msg):
    sw = switches()
    mutate(sw)
    assert refused(net_toml(tmp_path, sw)) == msg
