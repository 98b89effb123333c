"""`uro bench --suite fabric`: the controller of a whole fabric, against simulated switches.

Every ToR of the network is a device of the simulated fabric (controller/simfabric/: one
P4Runtime server process standing in for all of them, bmv2's semantics), and the daemon
is `uro daemon --config net.toml` as a user runs it (its own process, its JSON log). What
is measured (printed with the 1-min load average, never asserted):

1. the whole network programmed and verified from empty: daemon start -> checks, routes
   and sessions done (``daemon.started``) -> every ToR's generation 0 written, read back
   and active (the last ``generation.installed``) -> start finished (the status API up:
   the shadows -- the same routes in the other generation, for diff-only updates --
   written too);
2. a cut cable (one uplink of one ToR) and a dead ToR, then their recoveries: detection ->
   every ToR stamps the new generation (the report's ``generation_s``), the data plane's
   mask (``dataplane_ms``), the entries the update wrote on all switches against the whole
   table;
3. CPU seconds and peak memory (VmHWM) of the daemon and of the simulated fabric: the
   fabric must cost a fraction of what the controller costs, or the figures measure it;
   the daemon's CPU seconds per failure beside its wall times (this machine is shared:
   the CPU is the figure that holds from run to run).

(108, 6) URO per-hop runs twice in one run, side by side, with the ratios: the daemon
whose failure updates follow the failure (routes repaired label by label, only the
changed cells' entries built, diffed, written and read back: ``[daemon] incremental``,
the default) and the same daemon with ``incremental = false`` (routes recomputed, whole
generations built, split and diffed per ToR).

Sizes: (108, 6) with URO per-hop routes and with UCMP source routes (36 destinations, as
`uro bench --suite daemon`), and (1024, 32) URO per-hop (only with ``--full-large``: an hour
or more of this shared machine). After each start the daemon is watched idle for
``IDLE_S`` seconds: its threads, CPU and memory with every session open. A daemon past
``MEMORY_CAP_GIB`` of resident memory (``--memory-cap``), or with more than ``THREAD_CAP``
threads in one of its processes, is stopped (the machine is shared) and the figure says so;
so is the daemon when the simulated fabric passes the cap.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from controller.agent.bmv2_process import free_port
from controller.daemon.log import epoch
from controller.memory import proc_status
from controller.process import cpu_seconds

#: a daemon (or the simulated fabric) whose resident memory passes this is stopped (the
#: machine is shared; ``uro bench --suite fabric --memory-cap GIB`` sets another)
MEMORY_CAP_GIB = 8.0
#: a daemon (or one of its workers) with more threads than this is stopped: its sessions
#: cost threads, which a shared 2-core machine feels
THREAD_CAP = 200
#: seconds the daemon is watched idle after its start (its threads, CPU and memory with
#: every session open, the slice timers running)
IDLE_S = 10.0

SIZES = {
    "r108x6": {"tors": 108, "uplinks": 6},
    "r1024x32": {"tors": 1024, "uplinks": 32},
}
#: (1024, 32): how long the daemon is let settle before each failure. One round of the
#: read-back of the 1024 switches takes about 11 minutes of a core, so the failures are
#: measured with it running beside them; they come first (docs/daemon.md "A failure comes
#: before the reconcile"), and each row says how many reconciles were running and waited
LARGE_SETTLE_S = 60.0
PER_HOP = "source_routed = []\n[routing.per_hop]\nmax_hops = 4"
UCMP_36 = ("source_routed = [" + ", ".join(str(d) for d in range(1, 108, 3)) + "]\n[routing.per_hop]\nmax_hops = 4\n"
           "[routing.source]\nalgo = \"ucmp\"\nh_max = 5")


def _missing() -> str | None:
    if shutil.which("p4c-bm2-ss") is None:
        return "p4c-bm2-ss not installed (the ToR program is compiled for its P4Info)"
    try:
        import finsy.proto  # noqa: F401
        import grpc  # noqa: F401
    except ImportError as e:
        return f"needs the agent extra: {e}"
    return None


def _build(profile: str, work: Path) -> tuple[Path, Path, Path, dict]:
    from controller.p4gen import build as p4build
    from controller.p4gen import profile as prof

    out = work / f"build_{profile}"
    p = prof.load(profile)
    p4build.build(p, out, ["tor"])
    base = out / f"tor_{profile}"
    return (base.with_suffix(".p4info.txtpb"), base.with_suffix(".json"), base.with_suffix(".contract.json"),
            json.loads(base.with_suffix(".contract.json").read_text())["profile"])


def net_config(path: Path, program, fabric, *, tors: int, uplinks: int, routing: str, slice_ms: int,
               status_port: int, hold_s: float = 0.5, incremental: bool = True, workers: int = 0,
               generate: str = "opera") -> Path:
    """A net.toml of ``tors`` ToRs, ToR t = device t of ``fabric`` (:class:`SimFabric`);
    ``workers``: worker processes owning shares of the switches (0: the daemon's process)."""
    p4info, js, contract, prof = program
    hosts = prof["host_ports"]
    lines = ['name = "fabric"', "[schedule]", f'generate = "{generate}"', f"tors = {tors}", f"uplinks = {uplinks}",
             "seed = 1",
             "[routing]", routing, "[clock]", f"slice_ms = {slice_ms}", "capacity_bytes = 100000000",
             "bytes_per_us = 0", "[daemon]", f'status = "127.0.0.1:{status_port}"', "reconcile_s = 600",
             f"hold_s = {hold_s}", "election_id = 10", "rpc_timeout_s = 60",
             f"incremental = {'true' if incremental else 'false'}", f"workers = {workers}", "[tls]", "insecure = true",
             "[program.tor]", f'contract = "{contract}"', f'p4info = "{p4info}"', f'device_config = "{js}"']
    for t in range(tors):
        lines += ["[[switch]]", f'name = "tor{t}"', 'role = "tor"', f"tor = {t}", f"device_id = {t}",
                  f'address = "{fabric.address(t)}"', "[switch.ports]", f"hosts = {list(range(hosts))}",
                  f"uplinks = {list(range(hosts, hosts + uplinks))}"]
    path.write_text("\n".join(lines) + "\n")
    return path


def _tree(pid: int) -> list[int]:
    """``pid`` and every process under it (the daemon's worker processes and their nannies)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for t in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (t / "children").read_text().split()]
        except OSError:
            pass
    return out


def _tree_sum(pid: int, of) -> float:
    """``of(p)`` summed over ``pid`` and the processes under it that are still running (the
    workers live as long as the daemon)."""
    total = 0.0
    for p in _tree(pid):
        try:
            total += of(p)
        except OSError:
            pass
    return total


def _tree_cpu(pid: int) -> float:
    """CPU seconds of the daemon and its workers."""
    return _tree_sum(pid, cpu_seconds)


def _tree_peak_gib(pid: int) -> float:
    """The sum of the peak resident memories (VmHWM) of the daemon and its workers."""
    return _tree_sum(pid, _proc_peak_gib)


def _proc_peak_gib(pid: int) -> float:
    kib = proc_status(pid).get("VmHWM")
    return float("nan") if kib is None else kib / (1 << 20)


def _threads(pid: int) -> int:
    """The threads of process ``pid`` (the kernel's count: gRPC's and Python's)."""
    return proc_status(pid).get("Threads", 0)


def _most_threads(pid: int) -> int:
    """The threads of the daemon's process or of its busiest worker, whichever has more."""
    most = 0
    for p in _tree(pid):
        try:
            most = max(most, _threads(p))
        except OSError:
            pass
    return most


def sessions_cost(work: Path, program, n: int, at_once: int = 16, idle_s: float = IDLE_S,
                  loads: bool = False) -> dict:
    """What ``n`` P4Runtime sessions cost in one process (this one): each opened as the
    daemon opens them (primary on its device of a simulated fabric of ``n``, ``at_once``
    opening at a time), then held idle for ``idle_s`` with a PacketOut to every device each
    second (the daemon's slice timers at ``slice_ms = 1000``); the threads, resident memory
    and CPU they add, the time to open one. ``program``: the build whose P4Info encodes
    the timers (the devices load no pipeline: the fabric counts PacketOuts as they come).
    ``loads``: then ``program`` loaded on every device (:func:`pipeline_loads`)."""
    from concurrent.futures import ThreadPoolExecutor
    from controller.agent.p4info import P4Info
    from controller.agent.p4runtime import P4RuntimeClient
    from controller.simfabric.process import SimFabric

    me = os.getpid()
    out: dict = {"sessions": n, "at_once": at_once, "load_start": os.getloadavg()[0]}
    with SimFabric(work / f"sessions{n}", n) as fabric, ThreadPoolExecutor(at_once) as pool:
        list(pool.map(lambda _: None, range(at_once)))          # the pool's threads are not the sessions'
        threads0, rss0, cpu0 = _threads(me), _rss_gib(me), cpu_seconds(me)
        took: list[float] = []

        def one(d: int) -> P4RuntimeClient:
            t = time.perf_counter()
            c = P4RuntimeClient(fabric.address(d), device_id=d, election_id=10, timeout=120, name=f"tor{d}")
            took.append(time.perf_counter() - t)
            return c
        t0 = time.perf_counter()
        clients = list(pool.map(one, range(n)))
        out.update(open_s=time.perf_counter() - t0, open_cpu=cpu_seconds(me) - cpu0,
                   open_one_s=sorted(took)[len(took) // 2], open_one_max_s=max(took))
        try:
            info = P4Info.load(program[0], program[1])
            for c in clients:
                c.use_p4info(info)
            time.sleep(1.0)
            out.update(threads=_threads(me) - threads0, rss_gib=_rss_gib(me) - rss0, load_idle=os.getloadavg()[0])
            c0, i0 = cpu_seconds(me), time.perf_counter()
            k = 0
            while time.perf_counter() - i0 < idle_s:
                tick, k = time.perf_counter(), k + 1
                for c in clients:
                    c.send_timer(k % 6)
                time.sleep(max(0.0, 1.0 - (time.perf_counter() - tick)))
            out["idle_cpu"] = (cpu_seconds(me) - c0) / (time.perf_counter() - i0)
            out["most_threads"] = _threads(me)
            if loads:
                out["loads"] = pipeline_loads(clients, info, program[1], fabric.procs[0].proc.pid)
        finally:
            for c in clients:
                c.close()
    out["load_end"] = os.getloadavg()[0]
    return out


def pipeline_loads(clients: list, info, device_config: Path, fabric_pid: int) -> list[dict]:
    """The daemon's survey of a fabric from empty, alone: ``info``'s program loaded on the
    device of every one of ``clients``, ``PIPELINE_LOADS_AT_ONCE`` at a time as the daemon
    loads them, once with the bmv2 JSON as ``p4c-bm2-ss`` wrote it, once as the daemon
    sends it (:func:`controller.agent.p4runtime.compact_device_config`), one after the
    other in this run. Per way: the bytes per load, the wall time of all loads, this
    process's and the simulated fabric's CPU, the load average at its end."""
    from concurrent.futures import ThreadPoolExecutor
    from controller.agent.p4runtime import PIPELINE_LOADS_AT_ONCE, compact_device_config

    raw = Path(device_config).read_bytes()
    me, out = os.getpid(), []
    for way, blob in (("as written", raw), ("compacted", compact_device_config(raw))):
        c0, f0, t0 = cpu_seconds(me), cpu_seconds(fabric_pid), time.perf_counter()
        with ThreadPoolExecutor(PIPELINE_LOADS_AT_ONCE) as pool:
            list(pool.map(lambda c: c.set_pipeline(info, blob, cookie=info.cookie), clients))
        out.append({"way": way, "bytes": len(blob), "loads": len(clients), "at_once": PIPELINE_LOADS_AT_ONCE,
                    "wall_s": time.perf_counter() - t0,
                    "cpu_s": cpu_seconds(me) - c0, "fabric_cpu_s": cpu_seconds(fabric_pid) - f0,
                    "load": os.getloadavg()[0]})
    return out


def report_sessions(r: dict) -> None:
    n = r["sessions"]
    print(f"\n-- {n} P4Runtime sessions in one process (this one), each primary on its device of a simulated "
          f"fabric, {r['at_once']} opening at a time (load {r['load_start']:.1f} at the start)")
    print(f"   opened in {r['open_s']:.2f} s ({r['open_cpu']:.2f} CPU-s, {r['open_cpu'] / n * 1e3:.2f} ms each); "
          f"one session to open: median {r['open_one_s'] * 1e3:.1f} ms, at most {r['open_one_max_s'] * 1e3:.1f} ms")
    print(f"   held: {r['threads']:+d} threads ({r['threads'] / n:.3f} per session), {r['rss_gib'] * 1024:+.1f} MiB "
          f"resident ({r['rss_gib'] * (1 << 20) / n:.1f} KiB per session) (load {r['load_idle']:.1f})")
    print(f"   idle with a PacketOut to every device each second: {r['idle_cpu']:.3f} CPU-s per s "
          f"({r['idle_cpu'] / n * 1e6:.0f} us per session and second) (load {r['load_end']:.1f})")
    ways = r.get("loads")
    if ways:
        print(f"   the program loaded on every device, {ways[0]['loads']} loads, "
              f"{ways[0]['at_once']} at a time (the daemon's survey from empty):")
        for w in ways:
            print(f"      bmv2 JSON {w['way']:<10} {w['bytes'] / 1e6:6.2f} MB: {w['wall_s']:6.1f} s, "
                  f"{w['cpu_s']:5.1f} CPU-s here, {w['fabric_cpu_s']:5.1f} CPU-s in the fabric (load {w['load']:.1f})")
        a, b = ways
        print(f"      as written / compacted: bytes {_ratio(a['bytes'], b['bytes'])}, wall {_ratio(a['wall_s'], b['wall_s'])}, "
              f"CPU here {_ratio(a['cpu_s'], b['cpu_s'])}, in the fabric {_ratio(a['fabric_cpu_s'], b['fabric_cpu_s'])}")


def _settle(pid: int, limit_s: float, idle_share: float = 0.15) -> float | None:
    """Wait until the daemon and its workers are idle (less than ``idle_share`` of a core over
    half a second, the slice timers aside): the reconcile after an update has finished, so
    the next failure's CPU seconds are its own and its writes do not wait for a read-back
    in flight. Returns the seconds waited, None if the daemon was still busy after
    ``limit_s``."""
    t0 = time.time()
    c0 = _tree_cpu(pid)
    while time.time() < t0 + limit_s:
        time.sleep(0.5)
        c1 = _tree_cpu(pid)
        if c1 - c0 < idle_share * 0.5:
            return time.time() - t0
        c0 = c1
    return None


def _settled(s: float | None, limit_s: float) -> str:
    return f"{s:.0f} s" if s is not None else f"still busy after {limit_s:.0f} s"


def _rss_gib(pid: int) -> float:
    """Resident memory of ``pid`` and the processes under it."""
    total = 0.0
    for p in _tree(pid):
        try:
            total += proc_status(p).get("VmRSS", 0) / (1 << 20)
        except OSError:
            pass
    return total


class _Log:
    """The daemon's JSON log, read as it grows."""

    def __init__(self, path: Path):
        self.path, self.lines, self._pos = path, [], 0

    def poll(self) -> list[dict]:
        with open(self.path) as f:
            f.seek(self._pos)
            data = f.read()
        cut = data.rfind("\n") + 1
        self._pos += len(data[:cut].encode())
        for line in data[:cut].splitlines():
            try:
                self.lines.append(json.loads(line))
            except json.JSONDecodeError:
                pass
        return self.lines

    def first(self, event: str) -> dict | None:
        return next((e for e in self.lines if e.get("event") == event), None)


def _how_far(why: str, log: _Log, t0: float, tors: int, peak: dict, pid: int, alive: bool) -> str:
    """A start that did not finish, as far as it got: the sessions opened, the ToRs on
    generation 0 and their rate, memory, threads and CPU (the daemon's log and /proc)."""
    lines = log.poll()
    opened = sum(1 for e in lines if e.get("event") == "switch.connected")
    started = log.first("daemon.started")
    inst = sorted(epoch(e["ts"]) - t0 for e in lines if e.get("event") == "generation.installed")
    rate = ""
    if len(inst) > 1:
        rate = (f", the first at {inst[0]:.0f} s, the last at {inst[-1]:.0f} s "
                f"({(len(inst) - 1) / (inst[-1] - inst[0]) * 60:.1f} ToRs per minute)")
    done = "" if started is None else f" (checks, routes and sessions done at {epoch(started['ts']) - t0:.0f} s)"
    return (f"daemon {why} after {time.time() - t0:.0f} s; {opened} of {tors} sessions open{done}, "
            f"{len(inst)} of {tors} ToRs on generation 0{rate}{_progress(lines)}; resident memory up to "
            f"{peak['gib']:.2f} GiB (the simulated fabric's process {peak.get('fabric_gib', 0.0):.2f} GiB), "
            f"threads up to {peak.get('threads', 0)} in one process, CPU "
            f"{_tree_cpu(pid) if alive else peak.get('cpu', float('nan')):.0f} s")


def _written(lines: list[dict]) -> int:
    """ToRs whose generation 0 is written and read back so far (the first install's
    prepare phase: its ``update.progress`` and ``memory.phase`` lines)."""
    n = 0
    for e in lines:
        if e.get("event") == "update.progress" and e.get("phase") == "prepare_generation":
            n = max(n, e["done"])
        elif e.get("event") == "memory.phase" and str(e.get("phase", "")).startswith("prepare_generation "):
            n = max(n, int(e["phase"].split()[1]))
    return n


def _memory(lines: list[dict]) -> list[dict]:
    """The daemon's ``memory.phase`` lines (each phase's end: resident now and peak), with
    the seconds since the first."""
    ms = [e for e in lines if e.get("event") == "memory.phase"]
    return [{**e, "t": epoch(e["ts"]) - epoch(ms[0]["ts"])} for e in ms]


def report_memory(phases: list[dict]) -> None:
    """The daemon's memory at the end of each phase: resident, the peak so far, and (traced
    runs, ``URO_TRACEMALLOC``) Python's traced memory and its largest allocation sites."""
    if not phases:
        return
    print("   the daemon's memory at the end of each phase (MiB; VmRSS now, VmHWM the peak so far):")
    for e in phases:
        traced = f", traced {e['traced_mib']} (peak since the last {e.get('traced_peak_mib', 0)})" \
            if "traced_mib" in e else ""
        print(f"     {e['t']:7.1f} s  {e['phase']:<40} resident {e.get('rss_mib', 0):>6}  peak {e.get('hwm_mib', 0):>6}{traced}")
        for t in e.get("top", []):
            print(f"                  {t}")


def _progress(lines: list[dict]) -> str:
    """The last ``update.progress`` line of the daemon's log, as words."""
    last = next((e for e in reversed(lines) if e.get("event") == "update.progress"), None)
    return "" if last is None else \
        f" (the update's {last['phase']}: {last['done']} of {last['of']} switches done, {last['failed']} failed)"


def run_network(work: Path, name: str, program, *, tors: int, uplinks: int, routing: str, slice_ms: int,
                failures: list[tuple[str, dict]], timeout: float, incremental: bool = True, workers: int = 0,
                stop_after: int | None = None, memory_cap_gib: float = MEMORY_CAP_GIB,
                settle_s: float = 120.0) -> dict:
    """One network on a simulated fabric: start the daemon, wait for start-up, then each
    of ``failures`` (op, body) through the API; returns the figures. ``stop_after``: the
    daemon is stopped once that many ToRs of generation 0 are written and read back (its
    set-up and first writes: ``memory``, the daemon's memory phase by phase). Before each
    failure the daemon is let settle (its read-back of every switch after the start or the
    last update) for at most ``settle_s`` seconds; the figures say how long it took."""
    from controller.daemon.client import Api
    from controller import process
    from controller.simfabric.process import SimFabric

    out: dict = {"name": name, "tors": tors, "workers": workers, "load_start": os.getloadavg()[0]}
    with SimFabric(work / f"fabric_{name}", tors) as fabric:
        cfg = net_config(work / f"{name}.toml", program, fabric, tors=tors, uplinks=uplinks, routing=routing,
                         slice_ms=slice_ms, status_port=free_port(), incremental=incremental, workers=workers)
        fpid = fabric.procs[0].proc.pid
        f_cpu0 = cpu_seconds(fpid)
        # the daemon as the emulated fabric runs it: the project's process wrapper (PID file,
        # stopped by its own PID), its JSON log lines in work/NAME.log
        pids, dname = work / "pids", f"{name}.daemon"
        t0 = time.time()
        pid = process.start(dname, [sys.executable, "-m", "controller.cli", "daemon", "--config", str(cfg)], pids, work)
        log = _Log(work / f"{dname}.log")
        peak = {"gib": 0.0}
        stop = threading.Event()

        def alive() -> bool:
            return process.started(pids, dname)

        def watch():                          # the machine is shared: a daemon past the cap stops
            while not stop.wait(0.5) and alive():
                try:
                    peak["gib"] = max(peak["gib"], _rss_gib(pid))
                    peak["threads"] = max(peak.get("threads", 0), _most_threads(pid))
                    peak["cpu"] = _tree_cpu(pid)      # the last seen: a daemon stopped at a cap is gone
                    # the simulated fabric is a process of its own (not counted in the daemon's
                    # figures), holding every device's entries: the cap holds for it too
                    peak["fabric_gib"] = max(peak.get("fabric_gib", 0.0), _rss_gib(fpid))
                except OSError:
                    return
                if peak["gib"] > memory_cap_gib:
                    peak["capped"] = True
                    process.stop(pids, dname)
                if peak["fabric_gib"] > memory_cap_gib:
                    peak["fabric_capped"] = True
                    process.stop(pids, dname)
                if peak["threads"] > THREAD_CAP:
                    peak["thread_capped"] = True
                    process.stop(pids, dname)
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            end = t0 + timeout
            try:
                while log.first("api.listening") is None:
                    log.poll()
                    written = _written(log.lines)
                    if stop_after is not None and written >= stop_after:
                        out.update(memory=_memory(log.lines), stopped_after=written)
                        out.update(error=_how_far(f"stopped as asked after {written} ToRs written", log, t0, tors,
                                                  peak, pid, alive()), load_end=os.getloadavg()[0])
                        return out
                    if not alive() or time.time() > end:
                        why = ("stopped at the memory cap" if peak.get("capped") else
                               "stopped: the simulated fabric at the memory cap" if peak.get("fabric_capped") else
                               f"stopped at {THREAD_CAP} threads" if peak.get("thread_capped") else
                               "exited" if not alive() else f"not started within {timeout:.0f} s")
                        out.update(error=_how_far(why, log, t0, tors, peak, pid, alive()), load_end=os.getloadavg()[0],
                                   memory=_memory(log.lines))
                        return out
                    time.sleep(0.05)
            except KeyboardInterrupt as e:      # stopped by hand (SIGTERM/SIGINT): how far it got
                out.update(error=_how_far(f"stopped by {e or 'SIGINT'}", log, t0, tors, peak, pid, alive()),
                           load_end=os.getloadavg()[0], interrupted=True)
                return out
            ev = log.lines
            started = epoch(log.first("daemon.started")["ts"]) - t0
            inst = [epoch(e["ts"]) - t0 for e in ev if e.get("event") == "generation.installed"]
            out.update(started_s=started, first_installed_s=min(inst), all_installed_s=max(inst),
                       installed=len(inst), api_s=epoch(log.first("api.listening")["ts"]) - t0, memory=_memory(ev),
                       load_installed=os.getloadavg()[0])
            api = Api.of_config(cfg, need_token=True)
            st = api.request("GET", "/status")
            out["objects"] = sum(s["entries"] for s in st["switches"])
            out["daemon_cpu_start"] = _tree_cpu(pid)
            out["fabric_cpu_start"] = cpu_seconds(fpid) - f_cpu0
            out.update(settle_s=settle_s, settled_start_s=_settle(pid, settle_s))   # the read-back after the start
            # the sessions: opened (the first to the last switch.connected), then idle with
            # every session open and the slice timers running
            connected = [epoch(e["ts"]) for e in ev if e.get("event") == "switch.connected"]
            out["sessions_s"] = max(connected) - min(connected) if connected else None
            c0, i0, load = _tree_cpu(pid), time.time(), os.getloadavg()[0]
            time.sleep(IDLE_S)
            out.update(idle_cpu=(_tree_cpu(pid) - c0) / (time.time() - i0), idle_threads=_most_threads(pid),
                       idle_rss_gib=_rss_gib(pid), idle_load=load)
            rows = []
            for op, body in failures:
                before = api.request("GET", "/status")
                w0 = sum(s["entries_written"] for s in before["switches"])
                load = os.getloadavg()[0]
                n0 = len(log.poll())
                cpu0, w0t, fc0 = _tree_cpu(pid), time.time(), cpu_seconds(fpid)
                rep = api.request("POST", f"/{op}", body)
                cpu_update, wall_update = _tree_cpu(pid) - cpu0, time.time() - w0t      # answered once the update is done (retire included)
                # the simulated switches' CPU over the same update (the two processes share the machine's cores)
                fabric_update = cpu_seconds(fpid) - fc0
                settled = _settle(pid, settle_s)      # the reconcile after the update
                t_det = epoch(rep["detected"]) if rep.get("detected") else None
                new_lines = log.poll()[n0:]
                seen = {e["event"]: epoch(e["ts"]) - t_det for e in new_lines
                        if t_det is not None and e.get("event") in ("routes.computed", "generation.stamping")}
                ends = {} if t_det is None else _phase_ends(new_lines, t_det)
                computed = next((e for e in new_lines if e.get("event") == "routes.computed"), {})
                # the prepare's "generation.writing" names the route objects it built per ToR: a
                # whole generation, or the changed cells' entries of the incremental path
                built = sum(e.get("entries", 0) for e in new_lines if e.get("event") == "generation.writing")
                after = api.request("GET", "/status")
                gens = {s["generation"] for s in after["switches"] if s["state"] == "up"}
                rows.append({"op": op, "what": body, "generation_s": rep.get("generation_s"),
                             "routes_s": seen.get("routes.computed"), "cpu_s": _tree_cpu(pid) - cpu0,
                             "wall_update_s": wall_update,
                             "cpu_update_s": cpu_update, "fabric_cpu_update_s": fabric_update, "changed_cells": computed.get("changed_cells"), "built": built,
                             "changed_source_cells": computed.get("changed_source_cells"),
                             "dataplane_ms": rep.get("dataplane_ms"), "error": rep.get("error"),
                             "written": sum(s["entries_written"] for s in after["switches"]) - w0,
                             "generations": sorted(g for g in gens if g is not None), "load": load,
                             "settled_s": settled, "phases": _phases(rep, seen, ends),
                             "reconciles": _gated(before.get("maintenance"), after.get("maintenance"))})
            out["failures"] = rows
            out["daemon_cpu"] = _tree_cpu(pid)
            out["daemon_peak_gib"] = _tree_peak_gib(pid)
            out["peak_threads"] = peak.get("threads")
            out["fabric_cpu"] = cpu_seconds(fpid) - f_cpu0
            out["fabric_peak_gib"] = _proc_peak_gib(fpid)
            out["load_end"] = os.getloadavg()[0]
        finally:
            stop.set()
            process.stop(pids, dname, timeout=30)
    return out


def _phase_ends(lines: list[dict], t_det: float) -> dict[str, float]:
    """Each phase of an update (survey, prepare_generation, ...) -> its end in seconds since
    the detection at epoch ``t_det``: the daemon's ``memory.phase`` line of its last switch
    ("prepare_generation 107 of 107": every switch the update takes, one fewer than the
    network's for a dead ToR)."""
    out = {}
    for e in lines:
        w = e.get("phase", "").split() if e.get("event") == "memory.phase" else []
        if len(w) == 4 and w[2] == "of" and w[1] == w[3]:
            out[w[0]] = epoch(e["ts"]) - t_det
    return out


def _phases(rep: dict, seen: dict, ends: dict) -> dict[str, float] | None:
    """A failure's time to the new generation by phase (seconds, from its log lines): the
    masks, the routes, the survey and the prepare of every switch, then the flip."""
    t = [rep.get("dataplane_ms"), seen.get("routes.computed"), ends.get("survey"), ends.get("prepare_generation"),
         rep.get("generation_s")]
    if any(x is None for x in t):
        return None
    t[0] /= 1e3
    return {"masks": t[0], "routes": t[1] - t[0], "survey": t[2] - t[1], "prepare": t[3] - t[2], "flip": t[4] - t[3]}


def _gated(before: dict | None, after: dict | None) -> dict | None:
    """What the reconciles did around a failure (the status API's ``maintenance``): running
    when it arrived, and how many waited for it (controller/daemon/gate.py)."""
    if not before or not after:
        return None
    return {"running": before["reconciles_running"],
            "deferred": after["reconcile_deferrals"] - before["reconcile_deferrals"],
            "run": after["reconciles_run"] - before["reconciles_run"]}


class _Unreached:
    """Addresses of a fabric nobody connects to (the set-up alone: :func:`setup_memory`)."""

    @staticmethod
    def address(t: int) -> str:
        return "127.0.0.1:1"


def setup_memory(work: Path, program, checked: int) -> dict:
    """The (1024, 32) daemon's set-up in a process of its own, without switches: the
    config, the program's pipeline, the routes and the start-up checks of the first
    ``checked`` ToRs (every ToR's entries built and width-checked, kept for the first
    install where the daemon keeps them), as ``uro daemon`` runs them
    (:class:`~controller.daemon.plan.Prepared`); its memory after each step
    (``memory.phase``), the route arrays and the objects kept. Minutes where the daemon's
    whole start is hours: the checks of all 1024 ToRs are ~480 CPU-s, these ~0.5 s each."""
    cfg = net_config(work / "setup.toml", program, _Unreached(), status_port=1, routing=PER_HOP, slice_ms=5000,
                     **SIZES["r1024x32"])
    t0, load = time.time(), os.getloadavg()[0]
    r = subprocess.run([sys.executable, __file__, "--setup", str(cfg), str(checked)], capture_output=True, text=True)
    if r.returncode != 0:
        return {"error": (r.stderr or r.stdout).strip().splitlines()[-1:], "checked": checked}
    return json.loads(r.stdout.strip().splitlines()[-1]) | {"seconds": time.time() - t0, "load_start": load,
                                                             "load_end": os.getloadavg()[0], "checked": checked}


def _setup(cfg_path: str, checked: int) -> dict:
    """(In the process :func:`setup_memory` starts.)"""
    from controller.daemon.config import load
    from controller.daemon.controller import default_backend_for
    from controller.daemon.plan import Prepared
    from controller.schedule.degrade import Failed

    cfg = load(cfg_path)
    prep = Prepared(cfg, Failed(), default_backend_for, names=[s.name for s in cfg.switches[:checked]],
                    keep_entries=True)
    arrays = {k: [v.dtype.str, v.nbytes] for k, v in vars(prep.routes.per_hop).items() if hasattr(v, "nbytes")}
    return {"phases": prep.memory, "arrays": arrays, "kept_objects": prep._kept}


def report_setup(r: dict) -> None:
    print(f"\n-- 1024x32 URO per-hop: the daemon's set-up in one process, the checks of {r['checked']} of the 1024 "
          f"ToRs (load {r.get('load_start', 0):.1f} at the start)")
    if "error" in r:
        print(f"   failed: {r['error']}")
        return
    last = 0
    for e in r["phases"]:
        print(f"   {e['phase']:<10} resident {e.get('rss_mib', 0):>6} MiB (+{e.get('rss_mib', 0) - last:>5}), "
              f"peak so far {e.get('hwm_mib', 0):>6} MiB")
        last = e.get("rss_mib", 0)
    ph = {e["phase"]: e.get("rss_mib", 0) for e in r["phases"]}
    print(f"   route arrays: " + ", ".join(f"{k} {dt} {n / 2**20:.0f} MiB" for k, (dt, n) in r["arrays"].items()) +
          f" ({sum(n for _, n in r['arrays'].values()) / 2**20:.0f} MiB)")
    print(f"   the checks: {r['kept_objects']:,} route objects kept for the first install; "
          f"{(ph['checks'] - ph['routes']) / r['checked']:.2f} MiB resident per ToR checked; "
          f"{r['seconds']:.0f} s (load at the end {r['load_end']:.1f})")


#: what `--large-tors` runs side by side: (the request encoder, controller/agent/p4runtime.py;
#: whether a generation into an empty slot is written as inserts and verified in bulk,
#: GenerationWriter.fresh_writes) -- the message path, the wire path diffing and verifying
#: object by object, the wire path with fresh writes (what the daemon runs)
PATHS = (("message_requests", False), ("wire_requests", False), ("wire_requests", True))


def _path_name(encoder: str, fresh: bool) -> str:
    return f"{encoder}{', fresh writes' if fresh else ', diffed'}"


def tors_rate(work: Path, program, tors: int, encoder: str, profile: bool = False, fresh: bool = True) -> dict:
    """The first ``tors`` ToRs of the (1024, 32) network programmed from empty, as the
    daemon's first install programs each (the network-wide update: generation 0 written,
    read back, active, then its shadow), against a simulated fabric of ``tors`` devices, in
    a process of its own whose client encodes its WriteRequests with ``encoder`` (one of
    :data:`PATHS`), with ``fresh``: the empty slots written as inserts and read back in bulk
    (:attr:`GenerationWriter.fresh_writes`). Returns the objects written per CPU second of that process (the
    daemon's side: its threads, gRPC's included), and with ``profile`` cProfile's top
    entries by each thread's CPU time (the phases run on the calling thread, every thread
    started meanwhile profiled too; the profiler's own cost inflates the CPU, so only the
    shares mean something). Minutes where the whole (1024, 32) start is hours."""
    from controller.simfabric.process import SimFabric

    tag = f"{encoder}_{int(fresh)}"
    with SimFabric(work / f"fabric_tors_{tag}", tors) as fabric:
        cfg = net_config(work / f"tors_{tag}.toml", program, _FirstDevices(fabric, tors), status_port=1,
                         routing=PER_HOP, slice_ms=5000, **SIZES["r1024x32"])
        fpid = fabric.procs[0].proc.pid
        load = os.getloadavg()[0]
        r = subprocess.run([sys.executable, "-X", "faulthandler", __file__, "--tors", str(cfg), str(tors), encoder,
                            str(int(profile)), str(int(fresh))], capture_output=True, text=True)
        fabric_cpu = cpu_seconds(fpid)
    if r.returncode != 0:
        return {"error": (r.stderr or r.stdout).strip().splitlines()[-1:], "encoder": encoder, "fresh": fresh,
                "tors": tors}
    return json.loads(r.stdout.strip().splitlines()[-1]) | {"load_start": load, "load_end": os.getloadavg()[0],
                                                             "fabric_cpu": fabric_cpu}


def _tors(cfg_path: str, tors: int, encoder: str, profile: bool, fresh: bool = True) -> dict:
    """(In the process :func:`tors_rate` starts.)"""
    import cProfile
    import io
    import pstats

    from controller.agent import p4runtime
    from controller.agent.backend import backend_for
    from controller.agent.generations import GenerationWriter
    from controller.daemon.config import load
    from controller.daemon.controller import Controller
    from controller.daemon.log import EventLog
    from controller.daemon.plan import Prepared
    from controller.schedule.degrade import Failed

    p4runtime.P4RuntimeClient.encode_requests = getattr(p4runtime, encoder)
    GenerationWriter.fresh_writes = fresh
    cfg = load(cfg_path)
    names = [s.name for s in cfg.switches[:tors]]
    c0 = time.process_time()
    prep = Prepared(cfg, Failed(), backend_for, names=names)
    setup_cpu = time.process_time() - c0
    ctl = Controller(cfg, log=EventLog(stream=open(os.devnull, "w")))
    ctl.routes = prep.routes
    agents = ctl._agents_for(cfg, prep, set(names))
    ctl._connect_all(cfg, agents)
    ag = list(agents.values())
    ctl._update.each(ag, "survey", prep.routes)         # the pipelines loaded: not what is measured
    prof, threads = None, []
    if profile:
        class InLine:                                     # the phases on this thread, one switch after another
            @staticmethod
            def map(fn, items):
                return list(map(fn, items))
        ctl._update.pool = InLine()
        run = threading.Thread.run

        def profiled(self):
            p = cProfile.Profile(time.thread_time)
            threads.append(p)
            p.enable()
            try:
                run(self)
            finally:
                p.disable()
        threading.Thread.run = profiled
        p4runtime._read_pool = None                       # its threads started (and profiled) anew
        prof = cProfile.Profile(time.thread_time)
        prof.enable()
    c0, w0 = time.process_time(), time.time()
    done, gen = ctl._update.run(prep.routes, ag, 0, True)
    cpu, wall = time.process_time() - c0, time.time() - w0
    out = {"encoder": encoder, "fresh": fresh, "tors": tors, "cpu_s": cpu, "wall_s": wall, "setup_cpu_s": setup_cpu,
           "peak_gib": _proc_peak_gib(os.getpid()),
           "objects": sum(a.stats["entries_written"] for a in ag),
           "installed": sum(1 for v in done.values() if v == "installed"), "load": os.getloadavg()[0]}
    if prof is not None:
        prof.disable()
        if p4runtime._read_pool is not None:          # its threads end: their profiles are collected
            p4runtime._read_pool.shutdown()
            p4runtime._read_pool = None                   # (the figures below make a new one)
        stats = pstats.Stats(prof, stream=io.StringIO())
        for p in threads:
            try:
                stats.add(p)
            except TypeError:                            # a thread still running: not collected
                pass
        text = io.StringIO()
        stats.stream = text
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)
        out["profile"] = text.getvalue()
    out["reconcile"] = reconcile_cpu(ag, prep.routes)
    out["failures"] = failure_cpu(cfg, ctl, ag, prep.routes, gen)
    for a in ag:
        a.close()
    return out


#: cut-and-recover cycles of the failure figure of `--large-tors` (:func:`failure_cpu`)
FAILURE_CYCLES = 3


def failure_cpu(cfg, ctl, agents: list, routes, gen: int, cycles: int = FAILURE_CYCLES) -> dict:
    """A cut cable (:data:`CUT_CABLE`) and its recovery, ``cycles`` times, on the ToRs of
    ``agents`` (the first N of (1024, 32)): each update's routes repaired from the ones
    before (:func:`controller.daemon.plan.repaired_routes`: the changed cells as their
    delta, as the daemon makes them; not measured), then written as the daemon's
    network-wide update writes them -- per ToR its changed cells written into the shadow,
    read back by key, then the flip and the retire. Returns the CPU-s of this process per
    update (median and least over the ``2 * cycles`` updates), the entries written and the
    changed cells per update, and the load average at the end."""
    from controller.daemon.plan import repaired_routes
    from controller.schedule.degrade import Failed, without

    cpus, written, cells = [], [], []
    cur = routes
    for i in range(2 * cycles):
        failed = Failed(uplinks=frozenset({CUT_CABLE})) if i % 2 == 0 else Failed()
        nxt = repaired_routes(cfg, cur, routes.schedule, failed, without(routes.schedule, failed),
                              routes.source_routed, i + 2, routes.schedule_version)
        if nxt is None or nxt.delta is None:
            raise RuntimeError("the cut cable's routes were not repaired: no incremental update to measure")
        cells.append(sum(len(nxt.delta.per_hop_cells.get(a.role.tor, ())) for a in agents))
        w0 = sum(a.stats["entries_written"] for a in agents)
        c0 = time.process_time()
        done, gen = ctl._update.run(nxt, agents, gen, True)
        cpus.append(time.process_time() - c0)
        if set(done.values()) != {"swapped"}:
            raise RuntimeError(f"a failure's update did not swap every ToR: {sorted(set(map(str, done.values())))}")
        written.append(sum(a.stats["entries_written"] for a in agents) - w0)
        cur = nxt
    return {"cpu_median": statistics.median(cpus), "cpu_least": min(cpus), "updates": len(cpus),
            "entries": statistics.median(written), "cells": statistics.median(cells), "load": os.getloadavg()[0]}


#: how each ToR's reconcile is measured, alternating (:func:`reconcile_cpu`)
RECONCILES = (("decoded", False), ("in bulk", True)) * 2


def reconcile_cpu(agents: list, routes) -> dict[str, float]:
    """The reconcile that follows an update (nothing drifted), every ToR of ``agents`` one
    after another, each way of :data:`RECONCILES` in turn: {way: the least CPU-s per ToR}
    of this process -- the whole switch decoded and diffed as objects
    (``SwitchAgent.bulk_reconcile = False``) against its route objects compared as the
    bytes they are written in (docs/fabric.md "The reconcile after an update"); and the
    load average at the end."""
    from controller.daemon.switch import SwitchAgent

    out: dict[str, float] = {}
    try:
        for way, bulk in RECONCILES:
            SwitchAgent.bulk_reconcile = bulk
            c0 = time.process_time()
            repairs = sum(a.reconcile(routes) for a in agents)
            if repairs:
                raise RuntimeError(f"the reconcile {way} repaired {repairs} objects of a switch that did not drift")
            per = (time.process_time() - c0) / max(1, len(agents))
            out[way] = min(out.get(way, per), per)
    finally:
        SwitchAgent.bulk_reconcile = True
    return out | {"load": os.getloadavg()[0]}


def report_tors(runs: list[dict]) -> None:
    """The per-ToR runs side by side: objects per CPU second, and the ratio of each to the first."""
    print(f"\n-- 1024x32 URO per-hop: the first {runs[0]['tors']} ToRs from empty (generation 0 written, read "
          "back, active, then its shadow) against a simulated fabric, each path in a process of its own")
    rates = {}
    for r in runs:
        name = _path_name(r["encoder"], r.get("fresh", True))
        if "error" in r:
            print(f"   {name:<33} failed: {r['error']}")
            continue
        rate = rates[name] = r["objects"] / max(r["cpu_s"], 1e-9)
        first = next(iter(rates.values()))
        print(f"   {name:<33} {r['objects']:>10,} objects ({r['installed']} of {r['tors']} ToRs installed) in "
              f"{r['cpu_s']:7.2f} CPU-s, {r['wall_s']:7.2f} s: {rate:>9,.0f} objects per CPU second "
              f"({rate / first:.2f}x the first); peak memory of the process {r.get('peak_gib', 0):.2f} GiB; "
              f"simulated fabric {r['fabric_cpu']:.1f} CPU-s in all; set-up (routes, "
              f"checks) {r['setup_cpu_s']:.1f} CPU-s; load {r['load_start']:.1f} / {r['load']:.1f} / {r['load_end']:.1f}")
        rec = r.get("reconcile")
        if rec:
            print(f"   {'':<33} the reconcile after it, per ToR (the least of two runs each): decoded and diffed "
                  f"{rec['decoded']:.2f} CPU-s, compared in bulk {rec['in bulk']:.2f} CPU-s "
                  f"(decoded: {_ratio(rec['decoded'], rec['in bulk'])} the CPU); load {rec['load']:.1f}")
        fail = r.get("failures")
        if fail:
            first_fail = next(x["failures"]["cpu_median"] for x in runs if x.get("failures"))
            print(f"   {'':<33} a cut {_describe({'uplink': CUT_CABLE})} and its recovery, {fail['updates']} updates: "
                  f"{fail['cpu_median']:.2f} CPU-s per update (median; least {fail['cpu_least']:.2f}; "
                  f"{fail['cpu_median'] / first_fail:.2f}x the first), {fail['entries']:,.0f} entries written for "
                  f"{fail['cells']:,.0f} changed cells per update; load {fail['load']:.1f}")
        if "profile" in r:
            print(f"   cProfile of {name} (CPU time of each thread; only the shares mean something):")
            print("\n".join("      " + line for line in r["profile"].splitlines() if line.strip()))
    ok = [r for r in runs if "error" not in r]
    if ok:
        r = ok[-1]
        rate = r["objects"] / max(r["cpu_s"], 1e-9)
        total = 2 * 1024 * r["objects"] / max(1, 2 * r["installed"])
        print(f"   projection with {_path_name(r['encoder'], r.get('fresh', True))}: generation 0 of all 1024 ToRs and its shadow, {total:,.0f} objects, "
              f"{total / rate:,.0f} CPU-s at {rate:,.0f} per CPU second")


#: the cable every cut-cable figure cuts: (ToR, uplink)
CUT_CABLE = (5, 2)


class _FirstDevices:
    """Addresses of a fabric simulating the first ``n`` ToRs (the others are never reached)."""

    def __init__(self, fabric, n: int):
        self.fabric, self.n = fabric, n

    def address(self, t: int) -> str:
        return self.fabric.address(t) if t < self.n else "127.0.0.1:1"


def _describe(what: dict) -> str:
    if "uplink" in what:
        return f"cable of ToR {what['uplink'][0]} uplink {what['uplink'][1]}"
    return f"ToR {what['tor']}"


def report(r: dict) -> None:
    who = "the daemon in one process" if not r.get("workers") else \
        f"the daemon and {r['workers']} worker process{'es' if r['workers'] > 1 else ''} (their CPU and memory included)"
    print(f"\n-- {r['name']}: {r['tors']} ToRs on a simulated fabric, {who}; "
          f"load {r['load_start']:.1f} at the start")
    if "error" in r:
        print(f"   {r['error']} (load {r['load_end']:.1f})")
        report_memory(r.get("memory", []))
        return
    print(f"   from empty: checks + routes + {r['tors']} sessions {r['started_s']:.1f} s, every ToR on generation 0 "
          f"(written, read back, active) {r['all_installed_s']:.1f} s (first {r['first_installed_s']:.1f} s), "
          f"start finished (shadows written) {r['api_s']:.1f} s; {r['objects']:,} objects on the switches "
          f"(load {r['load_installed']:.1f})")
    if r.get("sessions_s") is not None:
        print(f"   sessions: {r['tors']} opened in {r['sessions_s']:.1f} s; idle with every session open and the "
              f"slice timers running: {r['idle_threads']} threads (the busiest process), "
              f"{r['idle_cpu']:.3f} CPU-s per s, {r['idle_rss_gib']:.2f} GiB resident (load {r['idle_load']:.1f}); "
              f"the read-back after the start before it: {_settled(r.get('settled_start_s'), r.get('settle_s', 0))}")
    for f in r["failures"]:
        g = f"{f['generation_s']:.3f} s" if f["generation_s"] is not None else f"- ({f['error']})"
        mask = f"{f['dataplane_ms']:.1f} ms" if f["dataplane_ms"] is not None else "-"
        rt = f"{f['routes_s']:.2f} s" if f.get("routes_s") is not None else "-"
        print(f"   {f['op']:<7} {_describe(f['what']):<26} -> routes {rt:>7}, every ToR on the new generation {g:>9}, "
              f"mask {mask:>9}, "
              f"{f['written']:>9,} entries written ({f['written'] / max(1, r['objects']):.1%} of the table), "
              f"daemon CPU {f['cpu_update_s']:.2f} s for the update (routes to retire; the simulated fabric's "
              f"{f['fabric_cpu_update_s']:.2f} s), {f['cpu_s']:.2f} s with "
              f"the reconcile after it ({_settled(f.get('settled_s'), r.get('settle_s', 0))}), "
              f"{'%s changed cells, ' % format(f['changed_cells'], ',') if f.get('changed_cells') else ''}"
              f"{'%s changed source-route cells, ' % format(f['changed_source_cells'], ',') if f.get('changed_source_cells') else ''}"
              f"{f['built']:,} route objects built for the prepare, "
              f"generations now {f['generations']} (load {f['load']:.1f})")
        if f.get("phases"):
            print("           phases: " + ", ".join(f"{k} {v:.2f} s" for k, v in f["phases"].items()))
        if f.get("reconciles"):
            g = f["reconciles"]
            print(f"           reconciles: {g['running']} running when it arrived, due ones put off {g['deferred']:,} "
                  f"times (per 0.2 s pass and switch) until it was handled, "
                  f"{g['run']} ran until the next failure (docs/daemon.md \"A failure comes before the reconcile\")")
    repeats(r["failures"])
    print(f"   CPU: daemon {r['daemon_cpu']:.1f} s ({r['daemon_cpu_start']:.1f} s of it to start), simulated fabric "
          f"{r['fabric_cpu']:.1f} s ({r['fabric_cpu_start']:.1f} s to start; "
          f"{r['fabric_cpu'] / max(r['daemon_cpu'], 1e-9):.2f}x the daemon's); peak memory: "
          f"daemon {r['daemon_peak_gib']:.2f} GiB, fabric {r['fabric_peak_gib']:.2f} GiB; threads up to "
          f"{r['peak_threads']} in one process (load at the end {r['load_end']:.1f})")


def repeated(failures: list[dict]) -> list[tuple[str, list[dict]]]:
    """The failures of one run grouped by what they did (op and target), in the order of
    their first; only those done more than once."""
    groups: dict[str, list[dict]] = {}
    for f in failures:
        groups.setdefault(f"{f['op']} {_describe(f['what'])}", []).append(f)
    return [(k, v) for k, v in groups.items() if len(v) > 1]


def repeats(failures: list[dict]) -> None:
    """Per failure done more than once (``--repeat``): the first (routes computed) and the
    median and range of the repeats (routes from the daemon's cache), every ToR on the new
    generation, the prepare, the daemon's CPU of the update and the simulated switches'."""
    for what, fs in repeated(failures):
        def fig(key, sub=None):
            vals = [(f.get("phases") or {}).get(sub) if sub else f.get(key) for f in fs]
            first, rest = vals[0], [v for v in vals[1:] if v is not None]
            if first is None and not rest:
                return "-"
            tail = (f"; the {len(rest)} repeats {statistics.median(rest):.2f} s ({min(rest):.2f}-{max(rest):.2f})"
                    if rest else "")
            return ("-" if first is None else f"first {first:.2f} s") + tail
        loads = [f["load"] for f in fs]
        print(f"   {what}, {len(fs)} times: every ToR on the new generation {fig('generation_s')}; prepare "
              f"{fig(None, 'prepare')}; daemon CPU of the update {fig('cpu_update_s')}; the simulated fabric's "
              f"{fig('fabric_cpu_update_s')} (load {min(loads):.1f}-{max(loads):.1f})")


def _ratio(a, b) -> str:
    return f"{a / b:.1f}x" if a is not None and b not in (None, 0) else "-"


def side_by_side(title: str, runs: list[dict], labels: list[str]) -> None:
    """Runs of one network side by side, each figure with its load, and the ratio of the
    first run's figure to each other's (> 1: the other is faster or smaller)."""
    print(f"\n-- {title}: side by side in one run (ratio = {labels[0]} / each; load beside each figure)")
    ok = [r for r in runs if "error" not in r]
    if len(ok) < 2:
        print("   (fewer than two runs finished: no comparison)")
        return
    runs, labels = [r for r in runs if "error" not in r], [lb for r, lb in zip(runs, labels) if "error" not in r]
    rows = [("every ToR on generation 0 from empty, s", [r["all_installed_s"] for r in runs],
             [r["load_installed"] for r in runs]),
            ("start finished (every shadow written too), s", [r["api_s"] for r in runs],
             [r["load_installed"] for r in runs]),
            ("CPU to start (daemon + workers), s", [r["daemon_cpu_start"] for r in runs],
             [r["load_installed"] for r in runs])]
    for i, f0 in enumerate(runs[0]["failures"]):
        fs = [r["failures"][i] if i < len(r["failures"]) else {} for r in runs]
        what = f"{f0['op']} {_describe(f0['what'])}"
        loads = [f.get("load") for f in fs]
        rows += [(f"{what}: every ToR on the new generation, s", [f.get("generation_s") for f in fs], loads),
                 (f"{what}: wall time of the update (the API's answer), s", [f.get("wall_update_s") for f in fs], loads),
                 (f"{what}: CPU of the update, s", [f.get("cpu_update_s") for f in fs], loads),
                 (f"{what}: route objects built for the prepare", [f.get("built") for f in fs], loads),
                 (f"{what}: entries written", [f.get("written") for f in fs], loads)]
    rows += [("CPU, whole run, s", [r["daemon_cpu"] for r in runs], [r["load_end"] for r in runs]),
             ("peak memory (daemon + workers), GiB", [r["daemon_peak_gib"] for r in runs], [r["load_end"] for r in runs])]
    head = "".join(f"{lb:>13}" for lb in labels) + "".join(f"{'/ ' + lb:>13}" for lb in labels[1:])
    print(f"   {'':<70}{head}   load")
    for what, vals, loads in rows:
        cells = "".join(f"{'-':>13}" if v is None else f"{v:>13,}" if isinstance(v, int) else f"{v:>13.3f}"
                        for v in vals)
        ratios = "".join(f"{_ratio(vals[0], v):>13}" for v in vals[1:])
        ld = " / ".join(f"{x:.1f}" if x is not None else "-" for x in loads)
        print(f"   {what:<70}{cells}{ratios}   {ld}")


def projection(runs: list[dict]) -> None:
    """(1024, 32) from empty: the measured rate of the workers and what N machines would take.
    Per worker: objects written, read back and made active per second of the slowest
    worker's share (the installs' wall time), and per CPU second of the daemon and workers
    together; N machines of one worker each divide the share, the coordinator's set-up
    (checks and routes before the first write) stays."""
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return
    print("\n-- (1024, 32) from empty: the rate per worker and the projection to N machines")
    for r in ok:
        w = max(1, r["workers"])
        install = r["all_installed_s"] - r["started_s"]
        rate = r["objects"] / install / w
        print(f"   {r['workers']} worker(s): {r['objects']:,} objects in {install:.1f} s after the set-up "
              f"({r['started_s']:.1f} s) = {rate:,.0f} objects/s per worker, {r['objects'] / max(r['daemon_cpu_start'], 1e-9):,.0f} "
              f"per CPU second (load {r['load_installed']:.1f})")
        for n in (8, 32, 128):
            print(f"      {n} machines of one worker: {r['started_s'] + r['objects'] / rate / n:.1f} s "
                  f"(set-up {r['started_s']:.1f} s + {r['objects'] / rate / n:.1f} s of writes)")


def main(quick: bool = False, large: bool = True, full_large: bool = False, large_only: bool = False,
         large_workers: tuple[int, ...] = (2, 1), large_stop_after: int | None = None,
         large_setup: int | None = None, large_tors: int | None = None, profile: bool = False,
         memory_cap_gib: float = MEMORY_CAP_GIB, networks: tuple[str, ...] | None = None, repeat: int = 1) -> int:
    """``networks``: the (108, 6) runs to make among ``uro``, ``ucmp`` and ``whole`` (default
    all three; ``quick``: URO per-hop with 0 and 2 workers); ``repeat``: their failures
    (each failed and recovered) that many times in a row, summarized by :func:`repeats`."""
    why = _missing()
    if why:
        print(f"fabric benchmark skipped: {why}")
        return 0
    work = Path(tempfile.mkdtemp(prefix="uro-bench-fabric-"))
    try:              # the work directory goes whatever ends the run (an interrupt too)
        print("== the controller of a whole fabric, on simulated switches (figures, not assertions)")
        cut = [("fail", {"uplink": list(CUT_CABLE)}), ("recover", {"uplink": list(CUT_CABLE)}), ("fail", {"tor": 7}),
               ("recover", {"tor": 7})]
        if not large_only:
            p108 = _build("r108x6", work)
            for n in (108, 1024):
                report_sessions(sessions_cost(work, p108, n, loads=n == 108))
            # (108, 6): URO per-hop and UCMP with 0, 1, 2 workers; URO's whole path (incremental = false)
            uro = [("108x6 URO per-hop, 0 workers", PER_HOP, True, 0), ("108x6 URO per-hop, 1 worker", PER_HOP, True, 1),
                   ("108x6 URO per-hop, 2 workers", PER_HOP, True, 2)]
            ucmp = [("108x6 UCMP source-routed (36 dst), 0 workers", UCMP_36, True, 0),
                    ("108x6 UCMP source-routed (36 dst), 2 workers", UCMP_36, True, 2)]
            whole = [("108x6 URO per-hop, incremental = false, 0 workers", PER_HOP, False, 0)]
            every = {"uro": ("108x6 URO per-hop", [uro[0], uro[2]] if quick else uro),
                     "ucmp": ("108x6 UCMP source-routed", ucmp), "whole": ("108x6 URO per-hop, whole path", whole)}
            groups = [every[n] for n in (networks or (("uro",) if quick else tuple(every)))]
            done = {}
            for title, runs in groups:
                for name, routing, incremental, workers in runs:
                    r = run_network(work, f"run{len(done)}", p108, routing=routing, slice_ms=1000, failures=cut * repeat,
                                    timeout=900, incremental=incremental, workers=workers, memory_cap_gib=memory_cap_gib,
                                    **SIZES["r108x6"]) | {"name": name}
                    report(r)
                    done[name] = r
                if len(runs) > 1:
                    side_by_side(title, [done[n] for n, *_ in runs], [f"{w} worker{'' if w == 1 else 's'}" for *_, w in runs])
            if whole[0][0] in done and uro[0][0] in done:
                side_by_side("108x6 URO per-hop: the whole path against the incremental one (0 workers)",
                             [done[whole[0][0]], done[uro[0][0]]], ["whole", "incremental"])
        if large and not quick and not full_large and large_setup is None and large_tors is None:
            print("\n-- 1024x32: run only with --full-large (minutes to hours on this shared 2-core machine; docs/fabric.md)")
        if large_setup is not None:          # the (1024, 32) set-up alone, its memory step by step
            report_setup(setup_memory(work, _build("r1024x32", work), large_setup))
        elif large_tors is not None:         # the first N ToRs of (1024, 32) from empty, each encoder
            p1024 = _build("r1024x32", work)
            report_tors([tors_rate(work, p1024, large_tors, enc, profile, fresh) for enc, fresh in PATHS])
        elif full_large and not quick:
            p1024 = _build("r1024x32", work)
            if large_only:
                report_sessions(sessions_cost(work, p1024, 1024, loads=True))
            big = []
            for workers in large_workers:
                r = run_network(work, f"1024x32_uro_w{workers}", p1024, routing=PER_HOP, slice_ms=5000,
                                failures=[("fail", {"uplink": list(CUT_CABLE)}), ("recover", {"uplink": list(CUT_CABLE)})],
                                timeout=4 * 3600, workers=workers, stop_after=large_stop_after, memory_cap_gib=memory_cap_gib,
                                settle_s=LARGE_SETTLE_S,
                                **SIZES["r1024x32"]) | {"name": f"1024x32 URO per-hop, {workers} worker(s)"}
                report(r)
                big.append(r)
                if r.get("interrupted"):
                    raise KeyboardInterrupt("stopped by hand")
            if len(big) > 1:
                side_by_side("1024x32 URO per-hop", big, [f"{w} worker{'' if w == 1 else 's'}" for w in large_workers])
            projection(big)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--setup"]:             # the process of setup_memory
        print(json.dumps(_setup(sys.argv[2], int(sys.argv[3]))))
        raise SystemExit(0)
    if sys.argv[1:2] == ["--tors"]:              # the process of tors_rate
        print(json.dumps(_tors(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5] == "1", sys.argv[6] == "1")))
        raise SystemExit(0)
    raise SystemExit(main())
