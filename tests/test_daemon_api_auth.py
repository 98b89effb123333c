"""Only the daemon's operator can write to its status API.

Every write needs the bearer token of the token file the daemon creates 0600 at start
(or the config names); reads stay open on localhost (configurable); a wrong or missing
token is 401, does nothing, and is counted; the API can be HTTPS. Model switches, the
real HTTP server and `uro ctl`."""

import json
import os
import shutil
import ssl
import stat
import subprocess
import threading
import urllib.error
import urllib.request

import pytest

pytest.importorskip("prometheus_client", reason="needs the daemon extra: pip install -e '.[daemon]'")

from controller.cli.main import main as uro
from controller.daemon import auth
from controller.daemon.api import StatusServer
from controller.daemon.config import ConfigError, load
from controller.daemon.controller import Controller
from controller.daemon.log import EventLog
from controller.daemon.run import Daemon

from daemon_fakes import FakeSwitch, make_backend_for, net_toml, ocs_switch, tor_switch

TOKEN = "s3cret-token-" + "x" * 20


def quiet():
    return EventLog("json", stream=open(os.devnull, "w"))


def switches():
    return {"127.0.0.1:50000": FakeSwitch("tor0"), "127.0.0.1:50001": FakeSwitch("tor1"),
            "127.0.0.1:50100": FakeSwitch("ocs")}


class Served:
    """A controller on model switches behind the real HTTP server, with its control loop."""

    def __init__(self, tmp_path, reads="local", tls=None, daemon_extra=""):
        self.sws = switches()
        self.path = net_toml(tmp_path, [tor_switch(0), tor_switch(1), ocs_switch()],
                             daemon='status = "127.0.0.1:0"\nreconcile_s = 10\n' + daemon_extra)
        self.ctl = Controller(load(self.path), backend_for=make_backend_for(self.sws), log=quiet())
        self.ctl.start()
        self.srv = StatusServer(self.ctl, "127.0.0.1", 0, token=TOKEN, reads=reads, tls=tls).start()
        self.stop = threading.Event()
        self.t = threading.Thread(target=self._loop, daemon=True)
        self.t.start()
        self.addr = "127.0.0.1:%d" % self.srv.address[1]

    def _loop(self):
        while not self.stop.is_set():
            self.ctl.handle_jobs(block=0.05)

    def close(self):
        self.stop.set()
        self.t.join(2)
        self.srv.stop()
        self.ctl.shutdown()

    def unauthorized(self, method: str) -> float:
        text = self.ctl.metrics.render().decode()
        for line in text.splitlines():
            if line.startswith(f'uro_api_unauthorized_total{{method="{method}"}}'):
                return float(line.split()[-1])
        return 0.0


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path)
    yield s
    s.close()


def http(addr, method, path, body=None, token=None, scheme="http", ctx=None):
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = token if token.startswith(("Bearer", "Basic")) else f"Bearer {token}"
    req = urllib.request.Request(f"{scheme}://{addr}{path}", method=method, headers=headers,
                                 data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(req, timeout=30, context=ctx) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def down_mask(ctl, name):
    a = ctl.agents[name]
    return a.role.active(a.backend.sw.state())[1]


@pytest.mark.parametrize("token", [None, "wrong-token-but-long-enough", "Basic dXNlcjpwYXNz", "Bearer"])
@pytest.mark.parametrize("op,body", [("fail", {"uplink": [1, 0]}), ("recover", {"uplink": [1, 0]}),
                                     ("reload", {})])
def test_write_without_the_token_is_401_nothing_done_counted(served, token, op, body):
    ctl = served.ctl
    version = ctl.status()["routes"]["version"]
    before = served.unauthorized("POST")
    code, raw = http(served.addr, "POST", f"/{op}", body, token)
    assert code == 401 and "token" in json.loads(raw)["error"]
    assert served.unauthorized("POST") == before + 1
    assert down_mask(ctl, "tor1") == frozenset()
    st = ctl.status()
    assert st["routes"]["version"] == version and st["failures"]["active"]["uplinks"] == []
    assert ctl.jobs.empty()


def test_write_with_the_token_is_done(served):
    code, raw = http(served.addr, "POST", "/fail", {"uplink": [1, 0]}, TOKEN)
    assert code == 200 and json.loads(raw)["kind"] == "uplink"
    assert down_mask(served.ctl, "tor1") == frozenset({0})
    assert served.unauthorized("POST") == 0


def test_reads_open_on_localhost_by_default(served):
    for path in ("/status", "/metrics"):
        code, _ = http(served.addr, "GET", path)
        assert code == 200, path


def test_reads_closed_when_configured(tmp_path):
    s = Served(tmp_path, reads="token")
    try:
        code, _ = http(s.addr, "GET", "/status")
        assert code == 401 and s.unauthorized("GET") == 1
        code, raw = http(s.addr, "GET", "/status", token=TOKEN)
        assert code == 200 and json.loads(raw)["network"] == "test"
    finally:
        s.close()


def test_read_rules():
    assert auth.read_allowed("local", "127.0.0.1", False) and auth.read_allowed("local", "::1", False)
    assert auth.read_allowed("local", "::ffff:127.0.0.1", False)
    assert not auth.read_allowed("local", "10.1.2.3", False)
    assert auth.read_allowed("local", "10.1.2.3", True)
    assert auth.read_allowed("open", "10.1.2.3", False)
    assert not auth.read_allowed("token", "127.0.0.1", False)
    assert auth.bearer_ok(f"Bearer {TOKEN}", TOKEN) and auth.bearer_ok(f"bearer  {TOKEN} ", TOKEN)
    assert not auth.bearer_ok(f"Bearer {TOKEN}x", TOKEN) and not auth.bearer_ok(TOKEN, TOKEN)
    assert not auth.bearer_ok(None, TOKEN) and not auth.bearer_ok("", TOKEN)


# ---- uro ctl ---------------------------------------------------------------------------------
def test_ctl_writes_with_the_config_token_file(served, capsys):
    tf = auth.default_token_file(served.path)
    tf.write_text(TOKEN + "\n")
    tf.chmod(0o600)
    # the config says port 0, so the address comes from --api; the token from the config's file
    assert uro(["ctl", "fail", "uplink", "tor1", "0", "--api", served.addr, "--token-file", str(tf)]) == 0
    assert json.loads(capsys.readouterr().out)["target"] == [1, 0]
    assert down_mask(served.ctl, "tor1") == frozenset({0})



def test_ctl_fails_and_recovers_a_circuit_named_by_either_end(served, capsys):
    """``uro ctl fail|recover circuit SLICE TOR U``: the circuit is kept under its lower-id
    end's name (as liveness declares it), whichever end the operator names."""
    tf = auth.default_token_file(served.path)
    tf.write_text(TOKEN + "\n")
    tf.chmod(0o600)
    peer = served.ctl.routes.schedule.peer
    other = int(peer[1, 1, 0])
    assert other >= 0
    want = (1, min(1, other), 0)
    assert uro(["ctl", "fail", "circuit", "1", "tor1", "0", "--api", served.addr, "--token-file", str(tf)]) == 0
    assert json.loads(capsys.readouterr().out)["target"] == list(want)
    assert served.ctl.failed.circuits == frozenset({want})
    assert uro(["ctl", "recover", "circuit", "1", str(other), "0", "--api", served.addr, "--token-file", str(tf)]) == 0
    capsys.readouterr()
    assert served.ctl.failed.circuits == frozenset()
    assert uro(["ctl", "recover", "circuit", "1", "0", "--api", served.addr, "--token-file", str(tf)]) == 2
    assert "circuit SLICE TOR UPLINK" in capsys.readouterr().err

def test_ctl_with_a_wrong_token_is_one_line(served, tmp_path, capsys):
    bad = tmp_path / "bad.token"
    bad.write_text("not-the-token-of-this-daemon\n")
    assert uro(["ctl", "fail", "uplink", "1", "0", "--api", served.addr, "--token-file", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"uro: error: daemon at {served.addr}: refused (401): wrong token") and err.count("\n") == 1
    assert down_mask(served.ctl, "tor1") == frozenset() and served.unauthorized("POST") == 1


def test_ctl_write_without_a_token_file_is_one_line(served, tmp_path, capsys):
    assert uro(["ctl", "fail", "uplink", "1", "0", "--api", served.addr]) == 2
    assert "give --token-file" in capsys.readouterr().err
    assert uro(["ctl", "fail", "uplink", "1", "0", "--api", served.addr, "--token-file",
                str(tmp_path / "none.token")]) == 2
    err = capsys.readouterr().err
    assert "none.token: not found" in err and err.count("\n") == 1
    assert served.unauthorized("POST") == 0          # refused before it was sent


# ---- the token file --------------------------------------------------------------------------
def test_daemon_creates_the_token_file_0600(tmp_path):
    sws = switches()
    p = net_toml(tmp_path, [tor_switch(0), tor_switch(1), ocs_switch()])
    tf = tmp_path / "net.token"
    assert not tf.exists()
    old = os.umask(0)                      # even with a permissive umask
    try:
        d = Daemon(p, backend_for=make_backend_for(sws), log=quiet()).start()
    finally:
        os.umask(old)
    try:
        assert stat.S_IMODE(tf.stat().st_mode) == 0o600
        token = tf.read_text().strip()
        assert len(token) >= 32
        addr = "127.0.0.1:%d" % d.server.address[1]
        assert http(addr, "POST", "/fail", {"tor": 0}, "x" * 40)[0] == 401
        assert http(addr, "POST", "/fail", {"uplink": [0, 1]}, token)[0] == 200
    finally:
        d.shutdown()
    # a second start keeps the operator's token
    d = Daemon(p, backend_for=make_backend_for(switches()), log=quiet()).start()
    d.shutdown()
    assert tf.read_text().strip() == token


def test_token_file_named_in_the_config(tmp_path):
    tf = tmp_path / "secrets" / "api.token"
    tf.parent.mkdir()
    tf.write_text(TOKEN + "\n")
    tf.chmod(0o600)
    p = net_toml(tmp_path, [tor_switch(0), tor_switch(1), ocs_switch()],
                 daemon='status = "127.0.0.1:0"\ntoken_file = "secrets/api.token"')
    assert load(p).daemon.api.token_file == tf
    d = Daemon(p, backend_for=make_backend_for(switches()), log=quiet()).start()
    try:
        addr = "127.0.0.1:%d" % d.server.address[1]
        assert http(addr, "POST", "/fail", {"uplink": [0, 1]}, TOKEN)[0] == 200
    finally:
        d.shutdown()


def test_token_file_others_can_read_stops_the_daemon_before_any_write(tmp_path):
    sws = switches()
    p = net_toml(tmp_path, [tor_switch(0), tor_switch(1), ocs_switch()])
    tf = tmp_path / "net.token"
    tf.write_text(TOKEN + "\n")
    tf.chmod(0o644)
    with pytest.raises(ConfigError, match=r"net.token: mode 0644 lets other users read it"):
        Daemon(p, backend_for=make_backend_for(sws), log=quiet()).start()
    assert all(s.updates == 0 and s.pipelines_set == 0 and s.primary is None for s in sws.values())


@pytest.mark.parametrize("daemon,msg", [
    ('reads = "everyone"', "reads: one of 'local', 'open', 'token'"),
    ('tls_cert = "c.pem"', "tls_cert and tls_key go together"),
    ('tls_ca = "ca.pem"', "tls_ca: only with tls_cert"),
])
def test_bad_api_config_is_one_line(tmp_path, daemon, msg):
    p = net_toml(tmp_path, [tor_switch(0)], daemon=daemon)
    with pytest.raises(ConfigError, match=msg):
        load(p)


@pytest.mark.parametrize("given,key,msg", [
    ({"tls_cert": "c.pem"}, "tls_key", "tls_cert and tls_key go together (the API's HTTPS certificate and its key)"),
    ({"tls_key": "k.pem"}, "tls_cert", "tls_cert and tls_key go together (the API's HTTPS certificate and its key)"),
    ({"tls_ca": "ca.pem"}, "tls_ca", "only with tls_cert and tls_key (HTTPS for the API)"),
    ({"tls_cert": "c.pem", "tls_key": "k.pem"}, "tls_cert", "{d}/c.pem not found"),
    ({"tls_cert": "here.pem", "tls_key": "k.pem"}, "tls_key", "{d}/k.pem not found"),
    ({"tls_cert": "here.pem", "tls_key": "here.key", "tls_ca": "ca.pem"}, "tls_ca", "{d}/ca.pem not found"),
])
def test_bad_tls_keys_are_named_whole(tmp_path, given, key, msg):
    """The whole message of each refusal: the key it names (the one missing from a pair,
    the file that is not there) and why."""
    (tmp_path / "here.pem").write_text("x")
    (tmp_path / "here.key").write_text("x")
    p = net_toml(tmp_path, [tor_switch(0)], daemon="\n".join(f'{k} = "{v}"' for k, v in given.items()))
    with pytest.raises(ConfigError) as e:
        load(p)
    assert str(e.value) == f"{p}: [daemon]: {key}: " + msg.format(d=tmp_path)


def test_the_api_access_keeps_every_tls_file(tmp_path):
    for n in ("c.pem", "k.pem", "ca.pem"):
        (tmp_path / n).write_text("x")
    p = net_toml(tmp_path, [tor_switch(0)], daemon='tls_cert = "c.pem"\ntls_key = "k.pem"\ntls_ca = "ca.pem"')
    acc = load(p).daemon.api
    assert (acc.tls_cert, acc.tls_key, acc.tls_ca) == (tmp_path / "c.pem", tmp_path / "k.pem", tmp_path / "ca.pem")
    assert acc.scheme == "https"


def test_a_token_is_one_word_of_at_least_16_characters(tmp_path):
    tf = tmp_path / "t"
    for text in ("a" * 16, "b" * 40):
        tf.write_text(text + "\n")
        assert auth.read_token(tf) == text
    for text in ("a" * 15, "a" * 10 + " " + "b" * 10, "a" * 20 + "\t" + "b" * 20):
        tf.write_text(text + "\n")
        with pytest.raises(auth.UroError) as e:
            auth.read_token(tf)
        assert str(e.value) == f"token file {tf}: does not hold a token (one word of at least 16 characters)"


def test_a_token_file_that_cannot_be_read_is_named(tmp_path, monkeypatch):
    d = tmp_path / "dir"
    d.mkdir(mode=0o700)
    with pytest.raises(auth.UroError) as e:            # a directory, its mode checked
        auth.read_token(d, check_mode=True)
    assert str(e.value) == f"token file {d}: not a regular file"
    with pytest.raises(auth.UroError) as e:            # a directory, read: the OS's reason alone
        auth.read_token(d)
    assert str(e.value) == f"token file {d}: cannot read it: Is a directory"
    bad = tmp_path / "bad"
    bad.write_bytes(b"\xff\xfe" + b"x" * 30)
    with pytest.raises(auth.UroError) as e:            # not text
        auth.read_token(bad)
    assert str(e.value).startswith(f"token file {bad}: cannot read it: 'utf-8' codec can't decode byte 0xff")

    def denied(self, *a, **k):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(auth.Path, "read_text", denied)
    with pytest.raises(auth.UroError) as e:            # (root reads any file: the refusal made)
        auth.read_token(bad)
    assert str(e.value) == f"token file {bad}: permission denied (only the daemon's operator may write to its API)"


def test_a_token_file_that_cannot_be_made_is_named(tmp_path):
    where = tmp_path / "missing" / "net.token"
    with pytest.raises(auth.UroError) as e:
        auth.ensure_token(where)
    assert str(e.value) == f"token file {where}: cannot create it: No such file or directory"
    assert not where.parent.exists()


def test_a_client_that_is_no_address_is_not_local():
    for host in ("localhost", "not-an-address", "", "127.0.0.1.5"):
        assert not auth.is_loopback(host)
        assert not auth.read_allowed("local", host, authorized=False)
    for host in ("127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1"):
        assert auth.is_loopback(host)
        assert auth.read_allowed("local", host, authorized=False)
    assert not auth.read_allowed("token", "127.0.0.1", authorized=False)
    assert auth.read_allowed("open", "192.0.2.1", authorized=False)


def test_tls_files_that_do_not_load_are_named(tmp_path):
    c, k = tmp_path / "c.pem", tmp_path / "k.pem"
    c.write_text("not a certificate\n")
    k.write_text("not a key\n")
    acc = auth.ApiAccess(tmp_path / "t", tls_cert=c, tls_key=k)
    with pytest.raises(auth.UroError, match=r"^\[daemon\] tls_cert .*/c\.pem / tls_key .*/k\.pem: cannot load: "):
        auth.server_context(acc)
    with pytest.raises(auth.UroError, match=r"^TLS CA .*/c\.pem: cannot load: "):
        auth.client_context(c)
    ctx = auth.client_context(None)                     # the system's roots
    assert ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname


# ---- HTTPS ------------------------------------------------------------------------------------
@pytest.fixture
def cert(tmp_path):
    if not shutil.which("openssl"):
        pytest.skip("openssl(1) is not installed (makes the test certificate)")
    c, k = tmp_path / "api.pem", tmp_path / "api.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=uro",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(k), "-out", str(c)],
                   check=True, capture_output=True)
    return c, k


def test_https_api(tmp_path, cert, capsys):
    c, k = cert
    d = 'status = "127.0.0.1:0"\n' + f'tls_cert = "{c}"\ntls_key = "{k}"'
    p = net_toml(tmp_path, [tor_switch(0), tor_switch(1), ocs_switch()], daemon=d)
    acc = load(p).daemon.api
    assert acc.scheme == "https"
    dm = Daemon(p, backend_for=make_backend_for(switches()), log=quiet()).start()
    try:
        addr = "127.0.0.1:%d" % dm.server.address[1]
        # plain HTTP to the HTTPS port gets no answer
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(f"http://{addr}/status", timeout=5).read()
        ctx = auth.client_context(c)
        code, raw = http(addr, "GET", "/status", scheme="https", ctx=ctx)
        assert code == 200 and json.loads(raw)["network"] == "test"
        token = (tmp_path / "net.token").read_text().strip()
        assert http(addr, "POST", "/fail", {"uplink": [0, 1]}, "y" * 40, "https", ctx)[0] == 401
        # uro ctl: HTTPS verified with the config's certificate, the config's token file
        assert uro(["ctl", "fail", "uplink", "0", "1", "--api", addr, "--token-file", str(tmp_path / "net.token"),
                    "--ca", str(c)]) == 0
        assert json.loads(capsys.readouterr().out)["target"] == [0, 1]
        assert uro(["ctl", "status", "--api", addr, "--ca", str(c)]) == 0
        assert "tor0" in capsys.readouterr().out
        assert token
    finally:
        dm.shutdown()
