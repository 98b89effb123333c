"""Real traffic between the hosts of an emulated fabric: ping every pair, iperf3.

Used by ``emulate_tests/`` and ``benchmarks/bench_emulate.py``; everything runs the
ordinary tools (``ping`` from iputils, ``iperf3``) inside the host namespaces.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

from controller.emulate.plan import HostPlan, Plan

_RTT = re.compile(r"icmp_seq=(\d+) .*time=([\d.]+) ms")
_TX = re.compile(r"(\d+) packets transmitted")


@dataclass
class PingResult:
    src: str
    dst: str
    sent: int
    rtts_ms: list[float] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)

    @property
    def received(self) -> int:
        return len(self.rtts_ms)


def _in(h: HostPlan, argv: list[str]) -> list[str]:
    return ["ip", "netns", "exec", h.netns, *argv]


def ping_pairs(plan: Plan, pairs: list[tuple[str, str]], count: int = 3, interval: float = 0.2,
               wait_s: float = 3.0, size: int = 56, parallel: int = 64) -> list[PingResult]:
    """``ping -c count`` for every (src host, dst host), up to ``parallel`` at once.

    ``wait_s`` is how long ping waits for the last reply (-W): replies may wait for a
    later slice, so it must exceed a whole optical cycle."""
    out: list[PingResult] = []
    todo = list(pairs)
    while todo:
        batch, todo = todo[:parallel], todo[parallel:]
        procs = []
        for s, d in batch:
            src, dst = plan.host(s), plan.host(d)
            argv = _in(src, ["ping", "-n", "-c", str(count), "-i", f"{interval:g}", "-W", f"{wait_s:g}",
                             "-s", str(size), dst.ip])
            procs.append((s, d, subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
        for s, d, p in procs:
            text, _ = p.communicate(timeout=count * interval + wait_s + 30)
            r = PingResult(s, d, count)
            for m in _RTT.finditer(text):
                r.seqs.append(int(m.group(1)))
                r.rtts_ms.append(float(m.group(2)))
            out.append(r)
    return out


def all_pairs(plan: Plan, other_tor_only: bool = True) -> list[tuple[str, str]]:
    return [(a.name, b.name) for a in plan.hosts for b in plan.hosts
            if a.name != b.name and (a.tor != b.tor or not other_tor_only)]


@dataclass
class IperfResult:
    client: str
    server: str
    seconds: float
    bytes_received: int
    goodput_mbps: float
    retransmits: int | None
    error: str | None = None


def iperf3(plan: Plan, client: str, server: str, seconds: float = 3.0, port: int = 5201,
           extra: tuple[str, ...] = ()) -> IperfResult:
    """One TCP transfer ``client`` -> ``server`` (iperf3 -J); goodput is what the
    server received per second."""
    srv, cli = plan.host(server), plan.host(client)
    sp = subprocess.Popen(_in(srv, ["iperf3", "-s", "-1", "-p", str(port)]), stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.3)
        r = subprocess.run(_in(cli, ["iperf3", "-c", srv.ip, "-p", str(port), "-t", f"{seconds:g}", "-J",
                                     "--connect-timeout", "5000", *extra]),
                           capture_output=True, text=True, timeout=seconds + 60)
    finally:
        try:
            sp.wait(10)
        except subprocess.TimeoutExpired:
            sp.kill()
            sp.wait()
    try:
        doc = json.loads(r.stdout)
    except json.JSONDecodeError:
        return IperfResult(client, server, seconds, 0, 0.0, None, error=(r.stderr or r.stdout).strip()[-200:])
    if "error" in doc:
        return IperfResult(client, server, seconds, 0, 0.0, None, error=doc["error"])
    end = doc["end"]
    recv = end.get("sum_received", {})
    sent = end.get("sum_sent", {})
    return IperfResult(client, server, float(recv.get("seconds", seconds)), int(recv.get("bytes", 0)),
                       float(recv.get("bits_per_second", 0.0)) / 1e6, sent.get("retransmits"))


class PingStream:
    """``ping -D -O -i interval -c n`` from host ``a`` to host ``b`` in the background: a
    steady stream whose loss can be split by when each echo was sent (a failure's
    phases). Stopped by its own PID (:meth:`stop`)."""

    def __init__(self, plan: Plan, a: str, b: str, n: int, interval: float):
        self.n, self.interval = n, interval
        self.t_start = time.time()
        # ping writes to a file, not a pipe: a pipe nobody reads until the end fills after
        # ~800 echoes and would stall ping (a long drill's streams run for many minutes)
        self.out = tempfile.TemporaryFile("w+")
        self.p = subprocess.Popen(_in(plan.host(a), ["ping", "-n", "-D", "-O", "-i", f"{interval:g}", "-c", str(n),
                                                     "-W", "2", plan.host(b).ip]),
                                  stdout=self.out, text=True)
        self.answered: dict[int, float] = {}
        self.transmitted: int | None = None

    def wait(self, timeout: float) -> dict[int, float]:
        """Until ping ends; ``{icmp_seq: send time (epoch)}`` of the answered echoes (the
        reply's -D timestamp minus its RTT)."""
        self.p.wait(timeout=timeout)
        self.out.seek(0)
        out = self.out.read()
        m = _TX.search(out)
        self.transmitted = int(m.group(1)) if m else None
        for line in out.splitlines():
            m = _RTT.search(line)
            if m and "bytes from" in line and line.startswith("["):
                self.answered[int(m.group(1))] = float(line[1:line.index("]")]) - float(m.group(2)) / 1000.0
        return self.answered

    def wait_answered(self, k: int, timeout: float) -> int:
        """Until ``k`` echoes are answered (or ping ended, or ``timeout`` s); the number
        answered so far. Reads ping's output with pread: the file's offset is shared with
        ping's writes and must not move."""
        end = time.time() + timeout
        fd = self.out.fileno()
        while True:
            got = os.pread(fd, os.fstat(fd).st_size, 0).decode(errors="replace").count("bytes from")
            if got >= k or self.p.poll() is not None or time.time() >= end:
                return got
            time.sleep(0.1)

    def stop(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait(5)

    def finish(self, timeout: float) -> dict[int, float]:
        """End the stream now (SIGINT: ping prints what it got and exits) and :meth:`wait`;
        ``n`` becomes the echoes ping sent."""
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGINT)
        try:
            got = self.wait(timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            return self.answered
        if self.transmitted is not None:
            self.n = self.transmitted
        return got

    def _sent_at(self) -> dict[int, float]:
        """Send time (epoch) of every echo: iputils numbers them from 1 and sends seq s
        (s - k) x interval after seq k; anchored on the answered ones' send times."""
        got = self.answered
        if got:
            offs = sorted(t - self.interval * k for k, t in got.items())
            t0 = offs[len(offs) // 2]
        else:
            t0 = self.t_start - self.interval
        return {s: t0 + s * self.interval for s in range(1, self.n + 1)}

    def phases(self, marks: dict[str, float]) -> dict[str, tuple[int, int]]:
        """``{phase: (lost, sent)}``: the echoes split by send time (epoch) at ``marks``,
        e.g. ``{"transition": t_cut, "after": t_new_generation}``; before the first mark
        is "before"."""
        names = ["before", *sorted(marks, key=marks.get)]
        bounds = sorted(marks.values())
        out = {nm: [0, 0] for nm in names}
        for seq, t in self._sent_at().items():
            nm = names[sum(1 for x in bounds if t >= x)]
            out[nm][1] += 1
            out[nm][0] += seq not in self.answered
        return {nm: (v[0], v[1]) for nm, v in out.items()}

    def longest_gap_s(self, since: float) -> float:
        """Longest run of unanswered echoes sent after ``since`` (epoch), in seconds."""
        run = best = 0
        for seq, t in self._sent_at().items():
            if t < since:
                continue
            run = 0 if seq in self.answered else run + 1
            best = max(best, run)
        return best * self.interval


def finish_all(streams: list[PingStream], timeout: float) -> tuple[int, int]:
    """End every stream now (:meth:`PingStream.finish`); ``(lost, sent)`` over them."""
    lost = sent = 0
    for s in streams:
        got = s.finish(timeout)
        sent += s.n
        lost += s.n - len(got)
    return lost, sent


# ---- short TCP flows with their completion times ---------------------------------------------
#: a sink in a host namespace: reads each connection to its end, answers one byte, closes
_SINK = r"""
import socket, sys, threading
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(64)
print("ready", flush=True)
def serve(c):
    with c:
        while c.recv(65536):
            pass
        c.sendall(b"k")
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
"""

#: a source: for each line "ip port bytes", one connection that sends the bytes, half-closes
#: and waits for the sink's byte; prints the completion time (connect to that byte) or an error
_SOURCE = r"""
import socket, sys, time
for line in sys.stdin:
    ip, port, n, tmo = line.split()
    t0 = time.monotonic()
    try:
        c = socket.create_connection((ip, int(port)), timeout=float(tmo))
        c.settimeout(float(tmo))
        c.sendall(bytes(int(n)))
        c.shutdown(socket.SHUT_WR)
        ok = c.recv(1) == b"k"
        c.close()
        print(f"{time.monotonic() - t0:.6f}" if ok else "error no answer", flush=True)
    except OSError as e:
        print(f"error {e}", flush=True)
"""


@dataclass
class FlowResult:
    src: str
    dst: str
    size: int
    fct_s: float | None       # connect .. the sink's answer; None: not completed
    error: str | None = None


class Sinks:
    """One flow sink per host namespace (port ``port``), stopped by their own PIDs."""

    def __init__(self, plan: Plan, hosts: list[str], port: int = 5301):
        self.port, self.procs = port, []
        try:
            for name in hosts:
                p = subprocess.Popen(_in(plan.host(name), ["python3", "-c", _SINK, str(port)]),
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
                self.procs.append(p)
                if p.stdout.readline().strip() != "ready":
                    raise RuntimeError(f"flow sink in {name} did not start")
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait(5)
        self.procs = []


def short_flows(plan: Plan, flows: list[tuple[str, str, int]], port: int = 5301, timeout_s: float = 10.0,
                gap_s: float = 0.0) -> list[FlowResult]:
    """Each (src host, dst host, bytes) as one TCP connection, one after another per
    source host (sources in parallel); a :class:`Sinks` must listen on the destinations.
    The completion time runs from connect() to the sink's answer after the last byte
    (handshake + transfer + one reply: what a request of that size costs)."""
    by_src: dict[str, list[tuple[str, int]]] = {}
    for s, d, n in flows:
        by_src.setdefault(s, []).append((d, n))
    procs = {s: subprocess.Popen(_in(plan.host(s), ["python3", "-c", _SOURCE]), stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True) for s in by_src}
    out: list[FlowResult] = []
    try:
        pending = {s: list(v) for s, v in by_src.items()}
        while any(pending.values()):
            round_ = [(s, pending[s].pop(0)) for s in pending if pending[s]]
            for s, (d, n) in round_:
                procs[s].stdin.write(f"{plan.host(d).ip} {port} {n} {timeout_s:g}\n")
                procs[s].stdin.flush()
            for s, (d, n) in round_:
                line = procs[s].stdout.readline().strip()
                if line and not line.startswith("error"):
                    out.append(FlowResult(s, d, n, float(line)))
                else:
                    out.append(FlowResult(s, d, n, None, line or "no output"))
            if gap_s:
                time.sleep(gap_s)
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.stdin.close()
                try:
                    p.wait(timeout_s + 5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(5)
    return out


def ssrr_path_counts(cells: dict[str, int]) -> dict[int, dict[int, int]]:
    """A ToR's ``ssrr_paths`` counter (cells ``b<bucket>h<hops>``) as ``{bucket: {hops:
    packets}}``, non-zero cells only."""
    out: dict[int, dict[int, int]] = {}
    for name, v in cells.items():
        if v:
            b, h = name[1:].split("h")
            out.setdefault(int(b), {})[int(h)] = v
    return out


def route_levels(routes, tors: int) -> dict[int, float]:
    """Mean latency (slices, Eq. 1) of the members of each hop count over every group of
    a source-routed route set: what a path of that many hops costs in time."""
    import numpy as np

    out = {}
    hops = np.asarray(routes.m_hops)
    lat = np.asarray(routes.m_latency)
    for h in sorted(set(int(x) for x in hops if x > 0)):
        out[h] = float(lat[hops == h].mean())
    return out
