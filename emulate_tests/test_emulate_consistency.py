"""Network-wide route swaps under traffic on the emulated 8x2 fabric (docs/daemon.md
"Network-wide consistency"): 10 swaps (an uplink declared failed, then recovered, five
times: every one a new route generation on every ToR) under a ping stream between all
host pairs.

A packet routed by a mix of generations would move a counter: every ToR routes a packet
from an uplink by the generation its source stamped, and drops and counts it
(``drops[stale_gen]``) when that generation is not live there -- so a packet that
crossed a swap either went by one generation end to end (``events[gen_other]`` counts
those that met a ToR whose own sources had already flipped) or is counted as stale.
No packet can be routed by a mix: a ToR routes by the stamp or drops. The test asserts
that the window was exercised (gen_other > 0) and that the swaps cost no packet beyond
the stream's baseline (the same stream with no swap): every drop a swap could cause (a
packet meeting a ToR without its generation -- stale_gen, one that outstayed the hold --
without a route or without its tables) is counted by the ToRs under its reason, and those
reasons count no more per packet sent during the swaps than during the baseline (one in
200 of slack). Ping loss is reported next to the baseline's, not bounded: on a loaded
two-core machine it is echoes later than ping's 2 s wait and queue drops of software
switches starved for CPU (the swaps' table writes take CPU from the same bmv2 processes),
and it moves by 5-15 points between two windows of the same stream. The same after a
daemon SIGKILL in each phase of a swap (prepare, stamping/hold, retire) and a restart."""

from __future__ import annotations

import json
import os
import re
import signal
import time

import pytest
from emulate_tests.conftest import bring_up, example, figure

from controller.emulate import daemon as dmn
from controller.emulate import traffic

#: every swap exercises the same window (the sources flip while packets of the old
#: generation are in flight) and each is checked the same way; what more swaps add is
#: packets crossing one: 10 swaps give ~1200 that met a ToR whose sources had flipped
#: (gen_other; 2406 for 20 at load 25) and ~6000 packets sent against the drop bound,
#: both far above what the assertions need (gen_other > 0, a 0.5% slack), at half the time
SWAPS = 10


#: the old generation's hold on the emulated fabric: the data-plane bound (a cycle on each
#: ToR a packet crosses, 1 s here) does not cover bmv2's software queues on a busy
#: machine (seconds), so the operator's override (`[daemon] hold_s`) is set, by reload.
#: 3 s was outstayed by 62 of 11352 packets at load 48 (dropped as stale_gen, counted,
#: never routed by a mix; 0.55% against the 0.5% slack) once the swaps got faster (20 in
#: 112 s, not 145: fewer packets sent over which the same queueing is counted): 5 s
HOLD_S = 5.0


@pytest.fixture(scope="module")
def env(state_root):
    with bring_up(example(), "k", state_root) as e:
        path = e.sdir / "net.toml"
        path.write_text(path.read_text().replace("[daemon]\n", f"[daemon]\nhold_s = {HOLD_S}\n", 1))
        assert dmn.declare(e.plan, e.sdir, "reload", {}, timeout=120)["ok"]
        yield e


#: drop reasons a route swap could move (render.DROP_REASONS): a packet meeting a ToR
#: without its generation, without a route, without tables, or with a source route the
#: ToR cannot follow; the others (queues full, held too long, ...) are capacity and time
SWAP_REASONS = ("stale_gen", "no_route", "unconfigured", "bad_ssrr", "reroute_limit")


def tor_totals(env) -> dict[str, int]:
    out = {"stale_gen": 0, "gen_other": 0, "swap_drops": 0, "other_drops": 0}
    for name, c in env.all_counters().items():
        if name.startswith("ocs"):
            continue
        out["stale_gen"] += c["drops"].get("stale_gen", 0)
        out["gen_other"] += c["events"].get("gen_other", 0)
        for reason, n in c["drops"].items():
            out["swap_drops" if reason in SWAP_REASONS else "other_drops"] += n
    return out


def delta(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    return {k: b[k] - a[k] for k in a}


def streams(env, seconds: float, interval: float = 0.5):
    pairs = traffic.all_pairs(env.plan)
    n = int(seconds / interval)
    return [traffic.PingStream(env.plan, a, b, n, interval) for a, b in pairs], n


def loss(ss, timeout: float) -> tuple[int, int]:
    """(lost, sent) over the streams; ``timeout`` for all of them together (a busy
    machine stretches ping's intervals)."""
    lost = sent = 0
    end = time.monotonic() + timeout
    for s in ss:
        got = s.wait(max(5.0, end - time.monotonic()))
        sent += s.n
        lost += s.n - len(got)
    return lost, sent


def swap_once(env, i: int) -> dict:
    op = "fail" if i % 2 == 0 else "recover"
    return dmn.declare(env.plan, env.sdir, op, {"uplink": [0, 1]})


def test_ten_network_wide_swaps_route_no_packet_by_a_mix(env):
    cycle_s = env.n_slices * env.slice_s
    base_s = 15.0
    at0 = tor_totals(env)
    ss, n = streams(env, base_s)
    lost0, sent0 = loss(ss, 3 * base_s + 60)
    base = delta(at0, tor_totals(env))
    before = tor_totals(env)
    t0 = time.monotonic()
    # the streams are sized well past the swaps (a loaded machine stretched 20 swaps to
    # 177 s against a planned 170) and ended 5 s after the last swap (ping -c is cut short
    # with SIGINT, so ``n`` becomes the echoes each sent)
    stream_s = 3 * (30.0 + SWAPS * (HOLD_S + 4.0))
    ss, n = streams(env, stream_s)
    time.sleep(2.0)
    reports = []
    for i in range(SWAPS):
        reports.append(swap_once(env, i))
    swaps_s = time.monotonic() - t0 - 2.0
    running = sum(1 for s in ss if s.p.poll() is None)
    time.sleep(5.0)
    lost, sent = traffic.finish_all(ss, timeout=30)
    during = delta(before, tor_totals(env))
    stale, other = during["stale_gen"], during["gen_other"]
    gen_s = sorted(r.get("generation_s") or 0 for r in reports)
    figure(f"[consistency] {SWAPS} network-wide swaps in {swaps_s:.1f} s under {len(ss)} ping streams: "
           f"loss {lost}/{sent} ({100 * lost / sent:.2f}%) vs baseline {lost0}/{sent0} "
           f"({100 * lost0 / sent0:.2f}%); stale_gen {stale}, gen_other {other} (packets routed by their "
           f"stamp on a ToR whose sources had flipped); generation_s p50 {gen_s[len(gen_s) // 2]:.3f} s, "
           f"cycle {cycle_s:.2f} s, hold {HOLD_S:g} s; drops a swap could cause {during['swap_drops']} (baseline "
           f"{base['swap_drops']}), other drops {during['other_drops']} (baseline {base['other_drops']}); "
           f"load {open('/proc/loadavg').read().split()[0]}")
    assert all("error" not in r for r in reports), reports
    assert running == len(ss), f"only {running} of {len(ss)} streams still ran when the last swap ended"
    assert other > 0, "no packet crossed a swap: the test did not exercise the window"
    # no drop a swap could cause beyond the baseline's rate, one packet of slack per 200 sent
    # (stale_gen among them: a packet that outstayed the hold in bmv2's software queues is
    # dropped and counted, never routed by the other generation; 16 of 19040 at load 36,
    # while a swap without its hold would drop most of the ~1500 packets that cross one)
    assert during["swap_drops"] / sent <= base["swap_drops"] / sent0 + 0.005, (during, base, sent, sent0)


def _kill_in_phase(env, event: str, op: str) -> tuple[float, float]:
    """Declare ``op`` (a swap), SIGKILL the daemon when its log shows ``event``, start it
    again; returns (seconds from the declare to ``event``, seconds from the kill to a
    daemon with every switch programmed).

    The phase is awaited up to :data:`PHASE_S`. A daemon that never gets there fails with
    what the declare got, the events it logged since, and where its threads were
    (:func:`stuck`)."""
    import threading

    sdir = env.sdir
    logf = sdir / "logs" / f"{dmn.NAME}.log"
    start_at = logf.stat().st_size
    answer: list[str] = []

    def send():
        try:
            answer.append(f"answered {dmn.declare(env.plan, env.sdir, op, {'uplink': [0, 1]}, timeout=PHASE_S)}")
        except Exception as e:
            answer.append(f"{type(e).__name__}: {e}")

    th = threading.Thread(target=send, daemon=True)
    t0 = time.monotonic()
    th.start()
    end = t0 + PHASE_S
    pat = re.compile(r'"event": ?"' + re.escape(event) + '"')
    while time.monotonic() < end:
        if pat.search(_log_since(logf, start_at)):
            break
        time.sleep(0.002)
    else:
        raise AssertionError(f"the daemon never logged {event} within {PHASE_S:g} s of the declare; "
                             + stuck(env, logf, start_at, answer))
    t_kill = time.monotonic()
    dmn.kill(env.cfg)
    th.join(PHASE_S + 5)
    dmn.start(env.cfg, env.plan, sdir / "net.toml", log=lambda m: None)
    return t_kill - t0, time.monotonic() - t_kill


def _log_since(logf, offset: int) -> str:
    with open(logf) as f:
        f.seek(offset)
        return f.read()


def _own_frames(stack: list[str]) -> list[str]:
    """A ``daemon.threads`` stack without the frames of Python's threading module."""
    return [f for f in stack if "/threading.py:" not in f] or stack


def stuck(env, logf, start_at: int, answer: list[str]) -> str:
    """What a daemon that did not get on with a declared swap was doing: the declare's
    answer so far, the events it logged since ``start_at``, and each of its threads' last
    calls (SIGUSR1: ``daemon.threads``)."""
    seen = re.findall(r'"ts": ?"([^"]+)".*?"event": ?"([^"]+)"', _log_since(logf, start_at))
    out = [f"the declare: {answer[0] if answer else 'no answer yet'}",
           "it logged: " + ("; ".join(f"{ts} {ev}" for ts, ev in seen[-30:]) or "nothing")]
    pid = dmn.running(env.cfg)
    if pid is None:
        return "; ".join(out + ["the daemon is not running"])
    at = logf.stat().st_size
    os.kill(pid, signal.SIGUSR1)
    end = time.monotonic() + 15.0
    while time.monotonic() < end:
        for line in _log_since(logf, at).splitlines():
            if '"daemon.threads"' in line:
                threads = json.loads(line)["threads"]
                out.append("threads (innermost call first): " + " | ".join(
                    f"{name}: {' <- '.join(reversed(_own_frames(stack)[-5:]))}"
                    for name, stack in threads.items() if name != "uro-threads"))
                return "; ".join(out)
        time.sleep(0.1)
    return "; ".join(out + [f"no daemon.threads within 15 s of SIGUSR1 to pid {pid}"])


#: seconds a declared swap may take to reach the phase the test kills the daemon in
#: (this test's figure on a quiet machine: 5.1-5.3 s to the retire, the hold included)
PHASE_S = 90.0
#: stale_gen drops allowed after a daemon restart, per packet sent. This fabric's clock is
#: the daemon's timer: while the daemon is dead and restarting (15-30 s here) no slice
#: advances, so every packet waiting for a later slice stays held; after the restart the
#: held packets a starved bmv2 does not get out within the restarted swap's hold are
#: dropped and counted as stale_gen (never routed by a mix). Seen: 0 on a quiet machine,
#: 38-114 of 3360 (1-3.4 %) at load 16-36 on 2 cores. A retire without its hold drops at
#: once every packet still held from the dead window.
STALE_SHARE = 0.10
#: seconds the restarted daemon may take to finish what it found (the interrupted swap and
#: the one its config asks for: each written, held HOLD_S and retired)
SETTLE_S = 120.0


def stale_bound(sent: int) -> float:
    """The stale_gen drops allowed for ``sent`` packets."""
    return STALE_SHARE * sent


def settled(env, timeout: float) -> tuple[list[dict], float | None]:
    """Poll the status API until every ToR stamps the same generation, the only one live
    there (the restarted daemon's swaps finished); (the ToRs' last status, seconds it took
    or None if it never got there)."""
    t0 = time.monotonic()
    tors: list[dict] = []
    while time.monotonic() - t0 < timeout:
        tors = [s for s in dmn.status(env.plan)["switches"] if s["role"] == "tor"]
        if (len({s["generation"] for s in tors}) == 1
                and all(s["live_generations"] == [s["generation"]] for s in tors)):
            return tors, time.monotonic() - t0
        time.sleep(0.25)
    return tors, None


@pytest.mark.parametrize("event", ["generation.writing", "generation.stamping", "generation.retiring"])
def test_a_daemon_killed_in_each_phase_mixes_nothing(env, event):
    """A SIGKILL while the new generation is written (prepare), while the sources flip and
    the old one's packets drain (stamping/hold), and while the old one is retired; the
    restarted daemon finishes (its routes are the config's: the failure it did not know
    of is gone, so that is one more swap): every ToR stamps one generation, the only one
    live (polled: the last swap holds its old generation ``HOLD_S`` before retiring it).
    Packets that outstay the hold in the switches' queues are dropped and counted
    (stale_gen), within :data:`STALE_SHARE` of the stream; everything else is exact."""
    before = tor_totals(env)
    load0 = os.getloadavg()[0]
    ss, n = streams(env, 30.0)
    time.sleep(2.0)
    reached, took = _kill_in_phase(env, event, "fail")
    lost, sent = loss(ss, 150)
    tors, settle_s = settled(env, SETTLE_S)
    after = tor_totals(env)
    stale = after["stale_gen"] - before["stale_gen"]
    figure(f"[consistency] SIGKILL at {event} ({reached:.1f} s after the declare): restarted and programmed in {took:.1f} s, one generation "
           f"everywhere {'never' if settle_s is None else f'{settle_s:.1f} s'} after the streams ended; "
           f"loss {lost}/{sent}; stale_gen {stale} (bound {stale_bound(sent):.0f}), gen_other "
           f"{after['gen_other'] - before['gen_other']}; load {load0:.1f} -> {os.getloadavg()[0]:.1f}")
    assert settle_s is not None, [(s["name"], s["generation"], s["live_generations"]) for s in tors]
    assert stale <= stale_bound(sent), (after, before, sent)
