"""Host flow aging on a real kernel: `uro host apply|remove` in a throwaway network
namespace (created and deleted by name here), and TCP flows whose packets the rules tag:
a long flow's packets move up through the buckets as it sends, short flows stay in
bucket 0 (seen at the table's per-bucket nft counters). Needs root, nft and ip."""

import os
import shutil
import subprocess
import sys
from fractions import Fraction

import pytest

from controller.cli import main
from controller.host import aging, nft
from controller.routing import ucmp
from controller.schedule import opera
from controller.tables import artifacts


def _missing() -> str | None:
    for tool in ("nft", "ip"):
        if shutil.which(tool) is None:
            return f"{tool} not installed (apt-get install -y nftables iproute2)"
    if os.geteuid() != 0:
        return "needs root (network namespaces, nftables)"
    return None


pytestmark = pytest.mark.skipif(_missing() is not None, reason=_missing() or "")


def run(argv):
    try:
        return main(argv)
    except SystemExit as e:
        return e.code


@pytest.fixture
def netns():
    name = f"uroh{os.getpid() % 100000}"
    subprocess.run(["ip", "netns", "add", name], check=True)
    subprocess.run(["ip", "netns", "exec", name, "ip", "link", "set", "lo", "mtu", "1500", "up"], check=True)
    # no TSO/GSO super-packets: one 64 KB skb would carry a flow past several bucket
    # boundaries at once (it is tagged with the last one), as on a host with offloads on
    if shutil.which("ethtool"):
        subprocess.run(["ip", "netns", "exec", name, "ethtool", "-K", "lo", "tso", "off", "gso", "off"],
                       capture_output=True)
    try:
        yield name
    finally:
        subprocess.run(["ip", "netns", "delete", name], check=True)


@pytest.fixture(scope="module")
def art(tmp_path_factory):
    p = tmp_path_factory.mktemp("hostnft") / "u.uro"
    artifacts.write(ucmp.compute(opera(8, 2)), p)
    return p


def _acct(ns: str, value: int) -> None:
    subprocess.run(["ip", "netns", "exec", ns, "sysctl", "-qw", f"{nft.ACCT}={value}"], check=True)


def _tables(ns: str) -> str:
    return subprocess.run(["ip", "netns", "exec", ns, "nft", "list", "tables"], capture_output=True, text=True,
                          check=True).stdout


def test_apply_replaces_only_its_table_and_remove_deletes_it(netns, art, capsys):
    # someone else's table in the namespace: never touched
    subprocess.run(["ip", "netns", "exec", netns, "nft", "add", "table", "inet", "other"], check=True)
    _acct(netns, 0)
    assert run(["host", "apply", "--routes", str(art), "--netns", netns]) == 0
    assert nft.accounting(netns) is True       # Linux switched it on for the rule reading ct bytes
    assert "table inet uro_aging" in _tables(netns)
    first = nft.installed(netns)
    assert run(["host", "apply", "--routes", str(art), "--netns", netns, "--alpha", "3"]) == 0
    second = nft.installed(netns)
    assert first != second and _tables(netns).count("uro_aging") == 1
    doc = aging.rules_for_routes(artifacts.open(art), 3.0)
    elems = [m for m in second["nftables"] if "map" in m][0]["map"]["elem"]
    assert len(elems) == len(doc.intervals)
    assert run(["host", "remove", "--netns", netns]) == 0
    assert "uro_aging" not in _tables(netns) and "table inet other" in _tables(netns)
    assert run(["host", "remove", "--netns", netns]) == 0         # idempotent


def test_no_accounting_no_nft_refuse_and_change_nothing(netns, art, capsys, monkeypatch):
    monkeypatch.setattr(nft, "accounting", lambda ns: False)
    assert run(["host", "apply", "--routes", str(art), "--netns", netns]) == 2
    err = capsys.readouterr().err
    assert err.startswith("uro: error: conntrack accounting is off in network namespace") and err.count("\n") == 1
    monkeypatch.setattr(nft, "accounting", lambda ns: None)
    assert run(["host", "apply", "--routes", str(art), "--netns", netns]) == 2
    assert "uro: error: no conntrack in network namespace" in capsys.readouterr().err
    assert "uro_aging" not in _tables(netns)                      # refused: nothing applied
    monkeypatch.setattr(nft.shutil, "which", lambda tool: None)
    assert run(["host", "remove", "--netns", netns]) == 2
    assert capsys.readouterr().err == ("uro: error: nft not found: host flow aging needs nftables "
                                       "(apt-get install -y nftables)\n")


def test_a_bad_ruleset_changes_nothing(netns):
    _acct(netns, 1)
    good = aging.rules((Fraction(1),), 1000.0, 1.0)
    nft.apply(good, netns)
    before = nft.installed(netns)
    bad = aging.AgingRules(((0, 10, 0), (5, aging.U64_MAX, 1)), 2, 1.0)   # overlapping intervals
    with pytest.raises(nft.HostError, match="nft check in network namespace .* failed"):
        nft.apply(bad, netns)
    assert nft.installed(netns) == before


# each 1000-byte write leaves as a segment of its own: the next waits until the send queue
# is empty (TIOCOUTQ: bytes not yet acknowledged), so that a loaded machine's slow receiver
# cannot have TCP merge queued writes into one larger skb (tagged with the bucket of its
# last byte, it would carry its first bytes past a boundary)
FLOWS = r"""
import fcntl, socket, struct, sys, termios, threading, time
sizes = [int(x) for x in sys.argv[1:]]
def queued(c):
    return struct.unpack("i", fcntl.ioctl(c.fileno(), termios.TIOCOUTQ, b"\0" * 4))[0]
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(64)
port = srv.getsockname()[1]
def serve():
    while True:
        c, _ = srv.accept()
        while c.recv(1 << 16):
            pass
        c.close()
threading.Thread(target=serve, daemon=True).start()
for n in sizes:
    c = socket.create_connection(("127.0.0.1", port))
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for i in range(0, n, 1000):
        c.sendall(b"x" * min(1000, n - i))
        while queued(c):
            time.sleep(0.0001)
    c.shutdown(socket.SHUT_WR); c.recv(1); c.close()
"""


def _flows(ns: str, sizes: list[int]) -> None:
    subprocess.run(["ip", "netns", "exec", ns, sys.executable, "-c", FLOWS, *map(str, sizes)], check=True, timeout=60)


@pytest.mark.skipif(shutil.which("ethtool") is None, reason="ethtool not installed (to turn TSO/GSO off on lo)")
def test_long_flow_climbs_the_buckets_short_flows_stay_in_bucket_0(netns, art):
    r = aging.rules_for_routes(artifacts.open(art), 0.5)
    assert r.buckets >= 3
    top_start = r.intervals[-1][0]
    _acct(netns, 1)
    nft.apply(r, netns)
    _flows(netns, [2000] * 10)                                     # ten short flows, far below the first boundary
    short = nft.counters(netns)
    assert short.get(0, (0, 0))[0] > 10 * 4
    assert all(p == 0 for b, (p, _) in short.items() if b != 0), short
    nft.apply(r, netns)                                            # re-apply: counters start again
    assert all(p == 0 for p, _ in nft.counters(netns).values())
    _flows(netns, [3 * top_start])                                 # one long flow
    long = nft.counters(netns)
    used = sorted({b for _, _, b in r.intervals})
    # up through the buckets: it starts in 0, ends in the top one, and passes through most
    # of those between (a packet is tagged with the count that includes it, so one larger
    # skb may step over a narrow bucket)
    hit = [b for b in used if long.get(b, (0, 0))[0] > 0]
    assert hit[0] == used[0] and hit[-1] == used[-1] and len(hit) >= max(3, len(used) - 2), long
    # bytes tagged below the top bucket: about the flow's first top_start bytes (+ ACKs, headers)
    below = sum(n for b, (_, n) in long.items() if b != used[-1])
    assert top_start * 0.9 < below < top_start * 1.5, (below, top_start)
    nft.remove(netns)
    assert nft.counters(netns) == {}
