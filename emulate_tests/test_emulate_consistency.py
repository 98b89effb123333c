"""Network-wide route swaps under traffic on the emulated 8x2 fabric (docs/daemon.md
"Network-wide consistency"): 20 swaps (an uplink declared failed, then recovered, ten
times: every one a new route generation on every ToR) under a ping stream between all
host pairs.

A packet routed by a mix of generations would move a counter: every ToR routes a packet
from an uplink by the generation its source stamped, and drops and counts it
(``drops[stale_gen]``) when that generation is not live there -- so a packet that
crossed a swap either went by one generation end to end (``events[gen_other]`` counts
those that met a ToR whose own sources had already flipped) or is counted as stale.
The test asserts 0 stale, that the window was exercised (gen_other > 0), and that loss
stays within the stream's baseline (the same stream with no swap). The same after a
daemon SIGKILL in each phase of a swap (prepare, stamping/hold, retire) and a restart."""

from __future__ import annotations

import os
import re
import signal
import time

import pytest
from emulate_tests.conftest import bring_up, example, figure, tear_down

from controller.emulate import daemon as dmn
from controller.emulate import traffic

SWAPS = 20


#: the old generation's hold on the emulated fabric: the data-plane bound (a cycle on each
#: ToR a packet crosses, 1 s here) does not cover bmv2's software queues on a busy
#: machine (seconds), so the operator's override (`[daemon] hold_s`) is set, by reload
HOLD_S = 3.0


@pytest.fixture(scope="module")
def env(state_root):
    e = bring_up(example(), "c", state_root)
    try:
        path = e.sdir / "net.toml"
        path.write_text(path.read_text().replace("[daemon]\n", f"[daemon]\nhold_s = {HOLD_S}\n", 1))
        from controller.daemon.client import request

        assert request(dmn.address(e.plan), "POST", "/reload", {}, timeout=120)["ok"]
        yield e
    finally:
        tear_down(e)


def tor_totals(env) -> dict[str, int]:
    out = {"stale_gen": 0, "gen_other": 0}
    for name, c in env.all_counters().items():
        if name.startswith("ocs"):
            continue
        out["stale_gen"] += c["drops"].get("stale_gen", 0)
        out["gen_other"] += c["events"].get("gen_other", 0)
    return out


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
    return dmn.declare(env.plan, op, {"uplink": [0, 1]})


def test_twenty_network_wide_swaps_route_no_packet_by_a_mix(env):
    cycle_s = env.n_slices * env.slice_s
    base_s = 15.0
    ss, n = streams(env, base_s)
    lost0, sent0 = loss(ss, 3 * base_s + 60)
    before = tor_totals(env)
    t0 = time.monotonic()
    stream_s = 30.0 + SWAPS * (HOLD_S + 4.0)
    ss, n = streams(env, stream_s)
    time.sleep(2.0)
    reports = []
    for i in range(SWAPS):
        reports.append(swap_once(env, i))
    swaps_s = time.monotonic() - t0 - 2.0
    lost, sent = loss(ss, 3 * stream_s + 60)
    after = tor_totals(env)
    stale = after["stale_gen"] - before["stale_gen"]
    other = after["gen_other"] - before["gen_other"]
    gen_s = sorted(r.get("generation_s") or 0 for r in reports)
    figure(f"[consistency] {SWAPS} network-wide swaps in {swaps_s:.1f} s under {len(ss)} ping streams: "
           f"loss {lost}/{sent} ({100 * lost / sent:.2f}%) vs baseline {lost0}/{sent0} "
           f"({100 * lost0 / sent0:.2f}%); stale_gen {stale}, gen_other {other} (packets routed by their "
           f"stamp on a ToR whose sources had flipped); generation_s p50 {gen_s[len(gen_s) // 2]:.3f} s, "
           f"cycle {cycle_s:.2f} s, hold {HOLD_S:g} s; load {open('/proc/loadavg').read().split()[0]}")
    assert all("error" not in r for r in reports), reports
    assert swaps_s < stream_s - 5, f"the swaps took {swaps_s:.0f} s, longer than the stream"
    assert stale == 0, f"{stale} packets met a ToR without their generation"
    assert other > 0, "no packet crossed a swap: the test did not exercise the window"
    # loss within the baseline's (binomial noise of the same stream, and slice-boundary effects)
    assert lost / sent <= lost0 / sent0 + 0.02, (lost, sent, lost0, sent0)


def _kill_in_phase(env, event: str, op: str) -> float:
    """Declare ``op`` (a swap), SIGKILL the daemon when its log shows ``event``, start it
    again; returns the seconds from the kill to a daemon with every switch programmed."""
    import threading

    sdir = env.sdir
    logf = sdir / "logs" / f"{dmn.NAME}.log"
    start_at = logf.stat().st_size
    pid = dmn.running(env.cfg)
    th = threading.Thread(target=lambda: _ignore(lambda: dmn.declare(env.plan, op, {"uplink": [0, 1]},
                                                                      timeout=30)), daemon=True)
    th.start()
    end = time.monotonic() + 30
    pat = re.compile(r'"event": ?"' + re.escape(event) + '"')
    while time.monotonic() < end:
        with open(logf) as f:
            f.seek(start_at)
            if pat.search(f.read()):
                break
        time.sleep(0.002)
    else:
        raise AssertionError(f"the daemon never logged {event}")
    os.kill(pid, signal.SIGKILL)
    t_kill = time.monotonic()
    th.join(35)
    for _ in range(100):
        if dmn.running(env.cfg) is None:
            break
        time.sleep(0.05)
    dmn.start(env.cfg, env.plan, sdir / "net.toml", log=lambda m: None)
    return time.monotonic() - t_kill


def _ignore(fn):
    try:
        fn()
    except Exception:
        pass


KNOWN = pytest.mark.xfail(strict=True, reason=(
    "known bug (issue 21 note): a daemon restarted after the sources flipped finishes the update during "
    "start-up, before its slice clock runs, so the hold elapses while held packets stand still; they are "
    "then dropped as stale_gen (counted, never routed by a mix)"))


@pytest.mark.parametrize("event", ["generation.writing", pytest.param("generation.stamping", marks=KNOWN),
                                   pytest.param("generation.retiring", marks=KNOWN)])
def test_a_daemon_killed_in_each_phase_mixes_nothing(env, event):
    """A SIGKILL while the new generation is written (prepare), while the sources flip and
    the old one's packets drain (stamping/hold), and while the old one is retired; the
    restarted daemon finishes (its routes are the config's: the failure it did not know
    of is gone, so that is one more swap)."""
    before = tor_totals(env)
    ss, n = streams(env, 30.0)
    time.sleep(2.0)
    took = _kill_in_phase(env, event, "fail")
    lost, sent = loss(ss, 150)
    after = tor_totals(env)
    st = dmn.status(env.plan)
    tors = [s for s in st["switches"] if s["role"] == "tor"]
    figure(f"[consistency] SIGKILL at {event}: restarted and programmed in {took:.1f} s; loss {lost}/{sent}; "
           f"stale_gen {after['stale_gen'] - before['stale_gen']}, gen_other {after['gen_other'] - before['gen_other']}")
    assert after["stale_gen"] == before["stale_gen"]
    assert len({s["generation"] for s in tors}) == 1 and all(len(s["live_generations"]) == 1 for s in tors)
