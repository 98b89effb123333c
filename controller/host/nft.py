"""Install and remove the flow-aging table with ``nft`` (the I/O edge of
:mod:`controller.host.aging`), in the current network namespace or a named one.

Order of :func:`apply`: every check first (nft present, the namespace exists, the
ruleset passes ``nft -c``, conntrack accounting on or switched on when asked), then one
``nft -f`` transaction. Linux itself switches accounting on in a namespace when a rule
there reads ``ct ... bytes`` (nft_ct's init does, even for the ``nft -c`` check), so on
current kernels the accounting check only fails where that did not happen (an older
kernel, no conntrack); it runs after ``nft -c`` for that reason. A failure before the transaction changes nothing; the
transaction itself is atomic (the kernel applies all of it or none of it).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from controller.errors import UroError
from controller.host import aging

ACCT = "net.netfilter.nf_conntrack_acct"


class HostError(UroError):
    pass


def _where(netns: str | None) -> str:
    return f"network namespace {netns!r}" if netns else "this host"


def _argv(netns: str | None, argv: list[str]) -> list[str]:
    return ["ip", "netns", "exec", netns, *argv] if netns else argv


def _run(netns: str | None, argv: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(_argv(netns, argv), input=stdin, capture_output=True, text=True)


def check_tools(netns: str | None) -> None:
    if shutil.which("nft") is None:
        raise HostError("nft not found: host flow aging needs nftables (apt-get install -y nftables)")
    if netns:
        if shutil.which("ip") is None:
            raise HostError("ip not found: --netns needs iproute2")
        if not Path("/run/netns", netns).exists():
            raise HostError(f"no network namespace {netns!r} (ip netns list shows the existing ones)")


def accounting(netns: str | None) -> bool | None:
    """Whether conntrack byte accounting is on where the rules go (None: no conntrack)."""
    r = _run(netns, ["cat", f"/proc/sys/{ACCT.replace('.', '/')}"])
    if r.returncode != 0:
        return None
    return r.stdout.strip() == "1"


def _nft_error(what: str, netns: str | None, r: subprocess.CompletedProcess) -> HostError:
    first = next((ln.strip() for ln in (r.stderr or r.stdout).splitlines() if ln.strip()), f"exit {r.returncode}")
    return HostError(f"nft {what} in {_where(netns)} failed: {first}")


def apply(rules: aging.AgingRules, netns: str | None = None, enable_accounting: bool = False) -> None:
    """Install (or atomically replace) the flow-aging table. ``enable_accounting``: switch
    conntrack accounting on (``sysctl`` :data:`ACCT` in that namespace) when it is off,
    instead of refusing."""
    check_tools(netns)
    script = aging.replace_script(rules)
    r = _run(netns, ["nft", "-c", "-f", "-"], script)
    if r.returncode != 0:
        raise _nft_error("check", netns, r)
    acct = accounting(netns)
    if acct is None:
        raise HostError(f"no conntrack in {_where(netns)} (/proc/sys/net/netfilter/nf_conntrack_acct missing): "
                        "load the nf_conntrack module")
    if not acct:
        if not enable_accounting:
            raise HostError(f"conntrack accounting is off in {_where(netns)} ({ACCT} = 0): flows' byte counters "
                            f"stay 0; `sysctl -w {ACCT}=1` there, or pass --enable-accounting")
        r = _run(netns, ["sysctl", "-qw", f"{ACCT}=1"])
        if r.returncode != 0:
            raise _nft_error("sysctl", netns, r)
    r = _run(netns, ["nft", "-f", "-"], script)
    if r.returncode != 0:
        raise _nft_error("apply", netns, r)


def remove(netns: str | None = None, table: str = aging.TABLE) -> None:
    """Remove the flow-aging table (nothing else); a no-op if it is not there."""
    check_tools(netns)
    r = _run(netns, ["nft", "-f", "-"], aging.remove_script(table))
    if r.returncode != 0:
        raise _nft_error("remove", netns, r)


def installed(netns: str | None = None, table: str = aging.TABLE) -> dict | None:
    """``nft -j list table`` of the flow-aging table (None: not installed)."""
    check_tools(netns)
    r = _run(netns, ["nft", "-j", "list", "table", aging.FAMILY, table])
    if r.returncode != 0:
        return None
    return json.loads(r.stdout)


def counters(netns: str | None = None, table: str = aging.TABLE) -> dict[int, tuple[int, int]]:
    """Per-bucket ``(packets, bytes)`` the installed table has tagged ({} if none)."""
    doc = installed(netns, table)
    return {} if doc is None else aging.counters(doc, table)
