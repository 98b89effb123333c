"""What the slice clock's packet tests share (docs/clock.md): sending and receiving sync
messages, PROBEs through the pktgen port and the CPU port, the clock's registers over
Thrift, the clock configuration a test writes.

Times: the tests run 4 s slices (``L``), so a test does its exchanges well inside one
slice after seeding the clock at its start, and bmv2's microsecond timestamps and the
test's own latency (ms) are small beside it.
"""

from __future__ import annotations

import dataclasses
import itertools
import time

from controller.clock import message as m
from controller.clock.message import Message, Op, Stamp
from controller.clock.params import ClockParams
from controller.clock.servo import EVENTS, SwitchClock, Uplink, s32
from controller.emulate import procs
from controller.p4gen.timer import sync_metadata
from controller.tables import clock as clock_tables

L = 4_000_000_000          # 4 s slices: a test's exchanges happen inside one
PKTGEN = 500


def params(**kw) -> ClockParams:
    """The tests' clock: 4 s slices, no guard, max_delay 0.5 s (window [0, 3 s]), max_offset
    1 s; lead candidates 6 and 7 (the ToR under test, 0, does not claim) unless said."""
    kw.setdefault("leads", (6, 7))
    kw.setdefault("guard_ns", 0)
    return ClockParams(slice_ns=L, **kw)


def write_clock(client, contract, schedule, tor: int, p: ClockParams | None = None, **config) -> object:
    """Write ToR ``tor``'s clock entries (sync_peer + clock_config) for ``p`` (default
    :func:`params`); ``config`` overrides fields of its ClockConfig (e.g. a refuse_limit
    or exchange_every 0, which the user-facing parameters refuse). Returns the config."""
    p = p or params()
    b = clock_tables.tor_clock_batch(contract, schedule, p, tor)
    cfg = p.tor_config(tor, schedule.n_tors, schedule.n_uplinks, schedule.n_slices)
    if config:
        cfg = dataclasses.replace(cfg, **config)
        b.entries[-1] = clock_tables.clock_config_entry(contract, cfg)
    client.write(b.entries[:-1], "MODIFY" if _has_peers(client, contract) else "INSERT")
    client.write([b.entries[-1]], "MODIFY")
    return cfg


def _has_peers(client, contract) -> bool:
    return any(not e.is_default for e in client.read_table(contract["tables"]["sync_peer"]["name"]))


def send(dp, port: int, msg: Message) -> None:
    dp.send(port, m.encode_frame(msg))


def recv(dp, port: int, timeout: float = 2.0) -> Message:
    """The next sync frame leaving on ``port``."""
    end = time.time() + timeout
    while time.time() < end:
        r = dp.dataplane.poll(port_number=port, timeout=max(0.01, end - time.time()))
        if isinstance(r, dp.dataplane.PollSuccess):
            frame = bytes(r.packet)
            if frame[12:14] == m.ETHERTYPE.to_bytes(2, "big"):
                return m.decode_frame(frame)
    raise AssertionError(f"no sync frame left on port {port} within {timeout}s")


_COOKIES = itertools.count(1000)


def probe(dp, cookie: int | None = None, timeout: float = 2.0) -> Message:
    """A PROBE through the pktgen port; its reply. Each PROBE carries its own cookie (t1)
    and a reply with another one is passed over: an earlier test's reply still queued on
    the port (a switch started afresh since: its raw clock restarted) is never taken for
    this one's."""
    cookie = next(_COOKIES) if cookie is None else cookie
    send(dp, PKTGEN, m.probe(cookie))
    end = time.time() + timeout
    while True:
        r = recv(dp, PKTGEN, timeout=max(0.01, end - time.time()))
        if r.op == Op.PROBE_REPLY and r.t1 == Stamp.of_word(cookie):
            return r
        assert time.time() < end, f"no reply to PROBE {cookie} within {timeout}s (last: {r})"


def probe_cpu(client, contract, cookie: int = 9, timeout: float = 3.0) -> tuple[Message, dict]:
    """A PROBE as P4Runtime PacketOut; the reply comes back as a PacketIn: (the reply, the
    registers its packet_in header carries, by their contract short names, as stored)."""
    while client.packet_in(0) is not None:
        pass
    client.packet_out(m.encode_frame(m.probe(cookie)), sync_metadata(contract))
    pin = client.packet_in(timeout)
    assert pin is not None, "no PacketIn answered the PROBE"
    r = m.decode_frame(bytes(pin.payload))
    assert r.op == Op.PROBE_REPLY and r.t1 == Stamp.of_word(cookie), r
    fields = client._need_p4info().packet_in_metadata(pin.metadata)
    return r, {short: fields[f] for short, f in contract["clock"]["packet_in"].items()}


def seed(client, contract, k: int, phase: int = 0, ref: bool = False, expect: str = "seed") -> None:
    """SEED the switch (PacketOut): slice number ``k``, ``phase`` ns into it, now; returns
    once the switch counted it (``expect``: the reason it must count). A PacketOut and a
    frame on a data port race into the switch: what the test sends next must come after."""
    msg = m.seed(k * L + phase, L, contract["profile"]["slices"], ref=ref)
    c0 = counts(client, contract)
    client.packet_out(m.encode_frame(msg), sync_metadata(contract))
    got = wait_counted(client, contract, c0)
    assert got == {expect: 1}, got


def ns(s: Stamp) -> int:
    return s.k * L + s.phase


class Registers:
    """The clock's registers of one switch over Thrift, by their contract names."""

    SIGNED = ("offset", "delay", "fault_step", "fault_rate")

    def __init__(self, sw, contract):
        self.cli = procs.RuntimeCLI(sw.thrift_port, sw.name)
        ck = contract["clock"]
        self.regs = dict(ck["registers"])
        self.regs.update({f"fault_{k}": v for k, v in ck.get("fault", {}).get("registers", {}).items()})

    def read(self, *shorts: str) -> dict:
        """``{short: value}`` (a per-uplink register: a list); signed ones as signed,
        ``stratum`` decoded (stored as 255 - stratum)."""
        shorts = shorts or tuple(self.regs)
        cells = [(self.regs[s]["name"], i) for s in shorts for i in range(self.regs[s]["size"])]
        got = self.cli.read_registers(cells)
        out = {}
        for s in shorts:
            r = self.regs[s]
            vals = [got[(r["name"], i)] for i in range(r["size"])]
            vals = [s32(v) if s in self.SIGNED else v for v in vals]
            if s == "stratum":
                vals = [255 - v for v in vals]
            out[s] = vals if r["size"] > 1 else vals[0]
        return out

    def write(self, **values) -> None:
        cells = {}
        for s, v in values.items():
            r = self.regs[s]
            for i, x in enumerate(v if isinstance(v, (list, tuple)) else [v]):
                if s == "stratum":
                    x = 255 - x
                cells[(r["name"], i)] = x & ((1 << r["bits"]) - 1)
        self.cli.write_registers(cells)

    def reset(self) -> None:
        self.cli.reset_registers(sorted({r["name"] for r in self.regs.values()}))

    def close(self) -> None:
        self.cli.close()


def counts(client, contract) -> dict:
    return client.read_counters(contract, contract["clock"]["counter"])


def moved(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


def wait_counted(client, contract, before: dict, n: int = 1, timeout: float = 5.0) -> dict:
    """Until the sync counter moved by ``n`` (what the switch counted since ``before``),
    a reason among them: an event (``EVENTS``: adopted, claimed) is counted earlier in the
    same packet's pipeline than its reason, and a read between the two cells' updates
    (a loaded machine) would otherwise return the event alone."""
    end = time.time() + timeout
    while True:
        got = moved(before, counts(client, contract))
        if (sum(got.values()) >= n and any(k not in EVENTS for k in got)) or time.time() > end:
            return got
        time.sleep(0.02)


# ---- the reference model, loaded with a switch's registers ----------------------------------
def model(regs: dict, cfg, contract, peer) -> SwitchClock:
    """A :class:`~controller.clock.servo.SwitchClock` holding the registers ``regs`` (as
    :meth:`Registers.read` gives them) of a ToR with clock config ``cfg``."""
    prof = contract["profile"]
    c = SwitchClock(cfg, slices=prof["slices"], queues=prof["queues"], uplinks=prof["uplinks"], peer=peer)
    r = c.r
    for f in MODEL_FIELDS:
        setattr(r, "llen" if f == "len" else f, regs[f])
    r.uplinks = [Uplink(regs["req_open"][u], regs["req_k"][u], regs["req_peer"][u], regs["req_t1"][u],
                        regs["min_delay"][u]) for u in range(prof["uplinks"])]
    return c


#: the registers the model keeps, by their contract names
MODEL_FIELDS = ("k", "next", "len", "slice", "epoch", "active_q", "stratum", "term", "lead", "lead_k", "refusals",
                "offset", "delay", "last_k", "t4_k", "t4_phase")


def model_regs(c: SwitchClock) -> dict:
    """The model's registers as :meth:`Registers.read` names them."""
    r = c.r
    out = {f: getattr(r, "llen" if f == "len" else f) for f in MODEL_FIELDS}
    out.update(req_open=[u.open for u in r.uplinks], req_k=[u.k for u in r.uplinks],
               req_peer=[u.peer for u in r.uplinks], req_t1=[u.t1 for u in r.uplinks],
               min_delay=[u.min_delay for u in r.uplinks])
    return out


def arrival(pre: dict, c: SwitchClock, t4: Stamp) -> int:
    """The local time at which a message stamped ``t4`` (the switch's t4 register) arrived,
    from the registers before it: the boundaries it crossed moved ``next`` by whole
    local slices."""
    llen = c._len()
    n = (t4.k - pre["k"]) & 0xFFFFFFFF
    return pre["next"] + n * llen - llen + t4.phase
