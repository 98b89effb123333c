"""Packet fuzzing on the ToR program and the OCS emulator.

Random and mutated frames -- scapy ``fuzz()`` over Ethernet/IPv4/UDP/TCP, IPv4 options,
SSRR options with random pointers, lengths and hops, timer frames, random bytes, byte
flips and truncations -- from host ports and from uplinks. Each frame's fate is
predicted by a reference model of the program (``tor_model.py``) from the tables the
test wrote: sent in a given slice on a given port as given bytes, or dropped under a
given reason. The test checks that the frames that leave are exactly the predicted ones
(same slice, port and bytes: none on a wrong port), that the drop counters moved by
exactly the predicted reasons (every frame accounted for), and that the switch is
still running and forwarding at the end.

``URO_FUZZ_FRAMES`` frames per switch (default 800 here; ``URO_FUZZ_FRAMES=10000`` for
the full run), ``URO_FUZZ_SEED`` the seed; the counts are printed (``-s``).
"""

from __future__ import annotations

import os
import random
import struct
import time
from collections import Counter

from fabric import ME, UPLINK_BASE, schedule, send_timer, set_slice
from scapy.layers.inet import IP, TCP, UDP
from scapy.packet import fuzz
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from tor_model import Dropped, Sent, Tables, decide, with_checksum

from controller.tables import entries as ent
from controller.tables import tor_batch as tb
from controller.tables.tor_batch import host_ip

N, D, S, H = 8, 2, 4, 4
GEN = 1                        # fuzz with generation 1 active: member/group ids have bit 31 set
BATCH = 32                     # frames in flight at once (below bmv2's 64-packet port queues)
FRAMES = int(os.environ.get("URO_FUZZ_FRAMES", "800"))
SEED = int(os.environ.get("URO_FUZZ_SEED", "14"))


# ---- the tables the fuzzed ToR runs -------------------------------------------------------
def fuzz_tables() -> Tables:
    t = Tables(me=ME, n=N, d=D, s=S, h=H, host_ports=2, uplink_base=UPLINK_BASE, gen=GEN, live=1 << GEN)
    for s in range(S):
        for dst in range(1, N):
            if dst in (5, 7):                     # these wait: held by recirculation
                t.uro[(s, dst)] = [(dst % 2, (s + dst - 4) % S), ((dst + 1) % 2, (s + 3) % S)]
            else:
                t.uro[(s, dst)] = [(dst % 2, s)]
    t.source_routed = {3, 6}
    for s in range(S):
        t.paths[(3, s)] = [(4, 1, s), (3, 0, s)]
        t.paths[(6, s)] = [(2, 0, s), (6, 1, s)] if s % 2 == 0 else [(6, 0, (s + 1) % S)]
    return t


def write_tables(client, contract, t: Tables) -> None:
    b = tb.static_entries(contract, ME)
    b.entries += [ent.uro_entry(contract, s, dst, alts, GEN) for (s, dst), alts in t.uro.items()]
    b.entries += [ent.route_mode_entry(contract, dst, True, GEN) for dst in sorted(t.source_routed)]
    for i, ((dst, s), path) in enumerate(sorted(t.paths.items())):
        b.extend(ent.ssrr_group(contract, dst, s, (0, 255), [path], ent.gen_id(GEN, i + 1), ent.gen_id(GEN, i + 1),
                                GEN))
    b.entries.append(tb.config_entry(contract, ME, GEN, capacity_bytes=(1 << 32) - 1, bytes_per_us=0))
    client.write(b)


# ---- frames ---------------------------------------------------------------------------------
def _addr(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.75:
        return host_ip(rng.randrange(N), rng.randrange(2))
    if r < 0.8:
        return f"10.0.{rng.randrange(12)}.{rng.randrange(256)}"
    return ".".join(str(rng.randrange(256)) for _ in range(4))


def _l4(rng: random.Random):
    k = rng.random()
    if k < 0.45:
        return UDP(sport=rng.randrange(65536), dport=rng.randrange(65536))
    if k < 0.9:
        return TCP(sport=rng.randrange(65536), dport=rng.randrange(65536))
    return Raw(bytes(rng.randrange(256) for _ in range(rng.randrange(8))))


def _with_options(frame: bytes, raw: bytes) -> bytes:
    """The frame with ``raw`` spliced in as IPv4 options (IHL, length, checksum fixed)."""
    raw = raw + bytes(-len(raw) % 4)
    hdr = bytearray(frame[14:34])
    hdr[0] = 0x40 | (5 + len(raw) // 4)
    hdr[2:4] = ((int.from_bytes(hdr[2:4], "big") + len(raw)) & 0xFFFF).to_bytes(2, "big")
    return frame[:14] + with_checksum(bytearray(bytes(hdr) + raw))[:20] + raw + frame[34:]


def _good(rng: random.Random, options: bytes | None = None) -> bytes:
    ip = IP(src=_addr(rng), dst=_addr(rng), ttl=rng.choice([0, 1, 2, 64, 64, 64, 64, 255]), tos=rng.randrange(256),
            id=rng.randrange(65536), proto=None)
    l4 = _l4(rng)
    if isinstance(l4, Raw):
        ip.proto = rng.choice([1, 47, 253])
    body = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 64)))
    f = (Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01") / ip / l4 / body).build()
    return f if options is None else _with_options(f, options)


def _hop(rng: random.Random, valid: bool) -> tuple[int, int, int]:
    if valid:
        return rng.randrange(N), rng.randrange(D), rng.randrange(S)
    return rng.choice([rng.randrange(N + 3), 0xFFFF]), rng.randrange(4), rng.choice([rng.randrange(S + 2), 255])


def _ssrr(rng: random.Random) -> bytes:
    n = rng.choice([1, 2, 3, 4, 4, 5])
    hops = [_hop(rng, rng.random() < 0.8) for _ in range(n)]
    if rng.random() < 0.8:
        hops[0] = (ME, hops[0][1], hops[0][2])
    ptr = rng.choice([8, 8, 8, 12, 4, 16, 20, rng.randrange(256)])
    if ptr == 12 and n >= 2:
        hops[1] = (ME, hops[1][1], hops[1][2])
    length = 3 + 4 * n if rng.random() < 0.85 else rng.randrange(256)
    body = b"".join(((t << 16) | (u << 8) | s).to_bytes(4, "big") for t, u, s in hops)
    return _good(rng, options=bytes([1, 137, length & 0xFF, ptr]) + body)


def _timer(rng: random.Random) -> bytes:
    f = Ether(dst="ff:ff:ff:ff:ff:ff", src="02:00:00:00:00:01", type=0x88B5) / struct.pack(
        "!HH", rng.randrange(S + 2), rng.randrange(4))
    return f.build() + bytes(rng.randrange(50))


def _fix_checksum(frame: bytes) -> bytes:
    if len(frame) >= 34 and frame[12:14] == b"\x08\x00":
        ihl = frame[14] & 0xF
        if 5 <= ihl and len(frame) >= 14 + ihl * 4:
            return frame[:14] + with_checksum(bytearray(frame[14:14 + ihl * 4])) + frame[14 + ihl * 4:]
    return frame


def make_frame(rng: random.Random) -> tuple[int, bytes]:
    """(ingress port, frame): SSRR frames mostly from uplinks, the rest from any port."""
    kind = rng.choices(["good", "ssrr", "fuzz_ip", "fuzz_l4", "options", "timer", "random"],
                       weights=[25, 25, 12, 8, 8, 7, 5])[0]
    if kind == "good":
        f = _good(rng)
    elif kind == "ssrr":
        f = _ssrr(rng)
    elif kind == "fuzz_ip":                       # every IPv4 field random, some checksums fixed
        f = (Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01") / fuzz(IP(dst=_addr(rng))) / UDP()
             / b"uro").build()
        if rng.random() < 0.5:
            f = _fix_checksum(f)
    elif kind == "fuzz_l4":
        f = (Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01") / IP(src=_addr(rng), dst=_addr(rng), ttl=64)
             / fuzz(rng.choice([UDP(), TCP()])) / (b"x" * rng.randrange(40))).build()
    elif kind == "options":                       # options we do not speak, some well formed
        raw = bytes(rng.randrange(256) for _ in range(rng.choice([2, 4, 8, 12])))
        f = _good(rng, options=raw)
    elif kind == "timer":
        f = _timer(rng)
    else:
        f = bytes(rng.randrange(256) for _ in range(rng.randrange(15, 120)))
    if kind in ("good", "ssrr", "options") and len(f) >= 34 and rng.random() < 0.9:
        b = bytearray(f)                          # stamped with the live generation by its source
        b[20] = (b[20] & 0x7F) | (GEN << 7)
        f = _fix_checksum(bytes(b))
    # mutations: byte flips (then maybe a fixed checksum), truncation
    if kind != "random" and rng.random() < 0.3:
        b = bytearray(f)
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(12, min(len(b), 14 + 60))
            b[i] = rng.randrange(256)
        f = bytes(b)
        if rng.random() < 0.5:
            f = _fix_checksum(f)
    if rng.random() < 0.12:
        f = f[:rng.randrange(15, max(16, len(f)))]   # Linux may not send a frame under 15 bytes
    uplink = rng.random() < (0.85 if kind == "ssrr" else 0.5)
    return (UPLINK_BASE + rng.randrange(D) if uplink else rng.randrange(UPLINK_BASE)), f


# ---- running ---------------------------------------------------------------------------------
def _poll_all(dp, want: int, got: list, timeout: float = 3.0, quiet: float = 0.05) -> None:
    """Receive until ``want`` frames arrived (or timeout), then until quiet."""
    end = time.time() + timeout
    while len(got) < want and time.time() < end:
        r = dp.dataplane.poll(timeout=0.05)
        if isinstance(r, dp.dataplane.PollSuccess):
            got.append((r.port, bytes(r.packet)))
    while True:
        r = dp.dataplane.poll(timeout=quiet)
        if not isinstance(r, dp.dataplane.PollSuccess):
            return
        got.append((r.port, bytes(r.packet)))


def _report(name: str, sent: int, out: Counter, drops: Counter, ports: dict, events: Counter) -> None:
    print(f"\nfuzz {name}: {sent} frames (seed {SEED}); forwarded {sum(out.values())} "
          f"({', '.join(f'{k}: {v}' for k, v in sorted(out.items()))}); dropped {sum(drops.values())} "
          f"({', '.join(f'{k}: {v}' for k, v in sorted(drops.items()))}); from ports {dict(sorted(ports.items()))}; "
          f"events {dict(sorted(events.items()))}")


def test_fuzz_tor(tor):
    sw, client, dp, contract = tor
    t = fuzz_tables()
    write_tables(client, contract, t)
    set_slice(dp, 0)
    rng = random.Random(SEED)
    random.seed(SEED)                            # scapy's fuzz() draws from the random module
    before = client.read_counters(contract, "drops")
    ev_before = client.read_counters(contract, "events")
    want_drops: Counter = Counter()
    out_kinds: Counter = Counter()
    from_ports: Counter = Counter()
    sent = 0
    while sent < FRAMES:
        n = min(BATCH, FRAMES - sent)
        frames = [make_frame(rng) for _ in range(n)]
        fates = [decide(t, f, port, 0) for port, f in frames]
        for port, f in frames:
            dp.send(port, f)
            from_ports["host" if port < UPLINK_BASE else "uplink"] += 1
        sent += n
        want = Counter()
        for fate in fates:
            if isinstance(fate, Dropped):
                want_drops[fate.reason] += 1
            else:
                want[(fate.slice, fate.port, fate.frame)] += 1
                out_kinds["host port" if fate.port < UPLINK_BASE else f"slice {fate.slice}"] += 1
        got: Counter = Counter()
        for k in range(S + 1):                   # slice 0, then one timer per slice, back to 0
            if k:
                assert send_timer(dp, k % S) == "timer"
            rx: list = []
            _poll_all(dp, sum(v for (s, _, _), v in want.items() if s == k % S and k < S), rx)
            for port, f in rx:
                got[(k % S, port, f)] += 1
        if got != want:
            missing, extra = want - got, got - want
            raise AssertionError(f"after {sent} frames: missing {len(missing)} {list(missing)[:3]}, "
                                 f"unexpected {len(extra)} {list(extra)[:3]}")
    after = client.read_counters(contract, "drops")
    moved = Counter({k: after[k] - before[k] for k in after if after[k] != before[k]})
    assert moved == want_drops, (moved, want_drops)
    assert sum(moved.values()) + sum(out_kinds.values()) == sent      # every frame accounted for
    assert sw.alive()
    ev_after = client.read_counters(contract, "events")
    events = Counter({k: ev_after[k] - ev_before[k] for k in ev_after if ev_after[k] != ev_before[k]})
    _report("ToR", sent, out_kinds, moved, from_ports, events)
    if sent >= 500:   # the frames reach every part of the program, not only its first checks
        assert all(events[k] > 0 for k in ("ssrr_transit", "ssrr_written")), events
        # re-sourced in transit: late (ssrr_missed) or delivered to a ToR its route does not name
        assert events["ssrr_missed"] + events["ssrr_misdelivered"] > 0, events
        assert all(moved[k] > 0 for k in ("bad_ssrr", "malformed", "bad_checksum", "ttl", "no_route",
                                          "not_ipv4", "bad_timer")), moved
        assert len([k for k in out_kinds if k.startswith("slice")]) == S, out_kinds
    # still forwarding
    f = _good(random.Random(1))
    good = (Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01") / IP(src=host_ip(ME, 0), dst=host_ip(1, 0))
            / UDP(sport=1, dport=2) / b"alive").build()
    fate = decide(t, good, 0, 0)
    assert isinstance(fate, Sent) and f
    dp.send(0, good)
    assert dp.expect(fate.port, Ether(fate.frame)) == fate.frame


def test_fuzz_ocs(ocs):
    sw, client, dp, contract = ocs
    sched = schedule()
    client.write(tb.ocs_batch(contract, sched, generation=GEN))
    rng = random.Random(SEED + 1)
    random.seed(SEED + 1)
    before = client.read_counters(contract, "ocs_drops")
    want_drops: Counter = Counter()
    forwarded = 0
    sent = 0
    while sent < FRAMES:
        now = rng.randrange(S)
        set_slice(dp, now)
        n = min(BATCH, FRAMES - sent)
        frames = [(rng.randrange(N * D), make_frame(rng)[1]) for _ in range(n)]
        want = Counter()
        for port, f in frames:
            if f[12:14] == b"\x88\xb5":
                want_drops["bad_timer"] += 1
                continue
            peer = int(sched.peer[now, port // D, port % D])
            if peer < 0:
                want_drops["no_circuit"] += 1
            else:
                want[(peer * D + port % D, f)] += 1
        for port, f in frames:
            dp.send(port, f)
        sent += n
        rx: list = []
        _poll_all(dp, sum(want.values()), rx)
        got = Counter(rx)
        assert got == want, (f"after {sent} frames: missing {list(want - got)[:3]}, unexpected {list(got - want)[:3]}")
        forwarded += sum(got.values())
    after = client.read_counters(contract, "ocs_drops")
    moved = Counter({k: after[k] - before[k] for k in after if after[k] != before[k]})
    assert moved == want_drops, (moved, want_drops)
    assert sum(moved.values()) + forwarded == sent
    assert sw.alive()
    print(f"\nfuzz OCS: {sent} frames (seed {SEED + 1}); forwarded {forwarded}; dropped {sum(moved.values())} "
          f"({', '.join(f'{k}: {v}' for k, v in sorted(moved.items()))})")
