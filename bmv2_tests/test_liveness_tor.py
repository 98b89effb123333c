"""Liveness per circuit on real simple_switch_grpc (docs/liveness.md): the sync exchange is
each circuit's beacon; a (slice, uplink) on which this ToR sent its REQ and whose peer stays
silent for down_after of its circuits is marked down in live_mask, which the lookups treat
as the daemon's dead mask.

One switch serves the module (ToR 0 of the tiny profile, S = 4, d = 2, round robin). The
test moves the clock slice by slice with SEEDs (4 s slices: nothing moves it meanwhile),
marks the ToR synchronized after each (a SEED leaves a ToR unsynchronized, whose slices
are not judged), plays the packet generator (a TRIGGER per uplink: this ToR's REQ) and the
peers: a REQ on uplink u from the ToR sync_peer(s, u) names is the circuit heard. A slice's
circuits are judged when its slot comes round again, a cycle later (the first packet of
that slice)."""

from __future__ import annotations

import time

import pytest
from clock_util import L, Registers, counts, params, probe, probe_cpu, recv, seed, send, wait_counted, write_clock
from daemon_util import until
from fabric import ME, UPLINK_BASE, routed, schedule, udp
from scapy.layers.inet import IP
from scapy.layers.l2 import Ether

from controller.clock.message import Flag, Message, Op, Stamp, decode_frame, notice, notice_fields
from controller.emulate import procs
from controller.emulate.livewatch import notices_of
from controller.liveness.notices import Notices
from controller.liveness.params import LivenessParams
from controller.tables import entries as ent
from controller.tables import liveness as live_tables
from controller.tables import tor_batch as tb

S = 4
D = 2
DST = 5
K0 = 1000                                   # slice number of the first slice (slice id 0)
PKTGEN = 500


@pytest.fixture(scope="module")
def rig(clock_tor):
    sw, client, dp, contract = clock_tor
    regs = Registers(sw, contract)
    cli = procs.RuntimeCLI(sw.thrift_port, sw.name)
    try:
        yield Rig(sw, client, dp, contract, regs, cli)
    finally:
        cli.close()
        regs.close()


class Rig:
    def __init__(self, sw, client, dp, contract, regs, cli):
        self.sw, self.client, self.dp, self.contract, self.regs, self.cli = sw, client, dp, contract, regs, cli
        self.sched = schedule()
        self.live = contract["liveness"]["registers"]
        self.base = {}

    def fresh(self, down_after: int = 2, enabled: bool = True) -> None:
        """A switch just started (clock and liveness registers 0), sync mode, liveness
        with ``down_after``; routes: to ToR 5 from every slice on uplink 0 of that slice,
        else uplink 1 (the one-shot alternatives)."""
        self.regs.reset()
        self.cli.reset_registers([r["name"] for r in self.live.values()])
        write_clock(self.client, self.contract, self.sched, ME, params(), max_delay=3 * L // 4, window_hi=L - 1)
        b = tb.static_entries(self.contract, ME)
        b.entries += [ent.uro_entry(self.contract, s, DST, [(0, s), (1, s)]) for s in range(S)]
        b.entries.append(tb.config_entry(self.contract, ME, 0, (), bytes_per_us=0))
        self.client.write(b, "MODIFY" if self._routed() else "INSERT")
        self.write_liveness(LivenessParams(enabled=enabled, down_after=down_after))
        self.dp.flush()
        self.base = self.client.read_counters(self.contract, "liveness")

    def _routed(self) -> bool:
        name = self.contract["tables"]["uro_next_hop"]["name"]
        return any(not e.is_default for e in self.client.read_table(name))

    def write_liveness(self, p: LivenessParams) -> None:
        self.client.write([live_tables.liveness_config_entry(self.contract, self.sched, p, ME)], "MODIFY")

    def peer(self, s: int, u: int) -> int:
        return int(self.sched.peer[s, ME, u])

    def slice(self, k: int, heard=(), strays=(), synced: bool = True, asked=(0, 1), lead: bool = False) -> dict:
        """Move the clock to slice number ``k`` (SEED; stratum 2 when ``synced``; with
        ``lead``, this ToR the lead of term 1, stratum 1), poke it (a PROBE: the slot of
        slice ``k`` is judged for its previous circuits), a TRIGGER on each uplink in
        ``asked`` that has a circuit (its REQ taken off the wire), then beacons: a REQ from
        this slice's peer on each uplink in ``heard``, from ``(uplink, tor, flags)`` of
        ``strays``. Returns the REQs sent, by uplink."""
        seed(self.client, self.contract, k)
        if lead:
            self.regs.write(stratum=1, term=1, lead=ME, lead_k=k)
        elif synced:
            self.regs.write(stratum=2)
        probe(self.dp)
        s = k % S
        reqs = {}
        for u in asked:
            if self.peer(s, u) >= 0:
                reqs[u] = self.ask(u)
        for u in heard:
            if self.peer(s, u) >= 0:         # (no circuit on (3, 1): nobody to hear)
                self.beacon(u, self.peer(s, u), k)
        for u, tor, flags in strays:
            self.beacon(u, tor, k, flags)
        return reqs

    def ask(self, u: int) -> Message:
        """A TRIGGER for uplink ``u``: the REQ it becomes (this ToR's side of the exchange)."""
        send(self.dp, PKTGEN, Message(Op.TRIGGER, uplink=u))
        req = recv(self.dp, UPLINK_BASE + u)
        while req.op == Op.RESP:                 # (a RESP to a beacon played before, still on its way)
            req = recv(self.dp, UPLINK_BASE + u)
        assert req.op == Op.REQ, req
        return req

    def beacon(self, u: int, src: int, k: int, flags: int = 0) -> None:
        c0 = self.client.read_counters(self.contract, "sync")
        send(self.dp, UPLINK_BASE + u, Message(Op.REQ, flags=flags, src_tor=src, dst_tor=ME, uplink=u, stratum=2,
                                               term=1, lead=6, lead_k=k, t1=Stamp(k, 1000)))
        assert sum(wait_counted(self.client, self.contract, c0).values()) == 1     # taken
        self.dp.flush()

    def cycle(self, k0: int, heard_on=(0, 1), strays=()) -> int:
        """S slices from ``k0``: each uplink in ``heard_on`` heard in every one (``strays``:
        per slice id, the strays of :meth:`slice`). Returns the next slice number."""
        for i in range(S):
            k = k0 + i
            self.slice(k, heard=heard_on, strays=dict(strays).get(k % S, ()))
        return k0 + S

    def read(self) -> dict:
        cells = [(r["name"], i) for r in self.live.values() for i in range(r["size"])]
        got = self.cli.read_registers(cells)
        return {short: ([got[(r["name"], i)] for i in range(r["size"])] if r["size"] > 1 else got[(r["name"], 0)])
                for short, r in self.live.items()}

    def counts(self) -> dict:
        """The liveness counter since :meth:`fresh`."""
        now = self.client.read_counters(self.contract, "liveness")
        return {k: v - self.base.get(k, 0) for k, v in now.items()}

    def out_port(self, ident: int, timeout: float = 10.0) -> int:
        """The uplink port a packet to ToR 5 leaves on now. Waits on every port at once up
        to ``timeout`` (a starved switch forwards seconds late: Dataplane.expect); anything
        else that leaves meanwhile (a sync frame still on its way) is passed over, and named
        if the packet never comes."""
        pkt = udp(DST, ident=ident)
        want = routed(pkt).build()
        self.dp.send(0, pkt)
        end, other = time.time() + timeout, []
        while time.time() < end:
            r = self.dp.dataplane.poll(timeout=max(0.01, end - time.time()))
            if not isinstance(r, self.dp.dataplane.PollSuccess):
                break
            if bytes(r.packet) == want:
                return r.port
            other.append((r.port, bytes(r.packet)[:48].hex()))
        raise AssertionError(f"the packet left on no port within {timeout:g} s (other frames: {other}):"
                             f" drops {self.client.read_counters(self.contract, 'drops')}"
                             f" events {self.client.read_counters(self.contract, 'events')}"
                             f" notices {self.client.read_counters(self.contract, 'notices')}")


def bits(*sus) -> int:
    return sum(1 << (s * D + u) for s, u in sus)


def test_silence_marks_a_circuit_down_after_down_after_and_the_lookups_pass_over_it(rig):
    """Uplink 0 silent, uplink 1 heard, this ToR asking on both: each slice's circuits are
    judged when its slot comes round again. The first cycle is judged in the second: every
    uplink-0 circuit has missed once (no mark, down_after = 2); the second is judged in the
    third: each is marked (live_mask), counted `down` once; uplink 1 never. A packet routed
    over (s, 0) takes the next alternative, (s, 1), as for a dead ToR."""
    rig.fresh(down_after=2)
    k = rig.cycle(K0, heard_on=(1,))         # collected; the slots' first turn judges nothing (`paused`)
    k = rig.cycle(k, heard_on=(1,))          # judges the first cycle
    r = rig.read()
    assert r["mask"] == 0
    assert [r["miss"][s * D + u] for s in range(S) for u in range(D)] == [1, 0] * S
    k = rig.cycle(k, heard_on=(1,))          # judges the second
    r = rig.read()
    assert r["mask"] == bits(*[(s, 0) for s in range(S)]), bin(r["mask"])
    assert r["wrong"] == 0
    c = rig.counts()
    assert c["down"] == S and c["up"] == 0 and c["wrong_peer"] == 0 and c["unasked"] == 0
    assert c["silent"] == 2 * S and c["heard"] == 2 * (S - 1) and c["paused"] >= S   # (3, 1) has no circuit
    # the lookups: slice id 3, uplink 0 marked: the packet leaves on uplink 1
    assert rig.out_port(ident=11) == UPLINK_BASE + 1
    assert rig.client.read_counters(rig.contract, "events")["uplink_down"] >= 1


def test_no_req_sent_no_verdict(rig):
    """A slice in which this ToR sent no REQ on an uplink (its TRIGGERs late or missing: a
    starved switch or generator) is no evidence against the peer: nothing heard there is
    counted `unasked`, the miss count stays and nothing is marked; the same silence with
    the REQ sent counts (down_after 2: silent, unasked, silent -> marked)."""
    rig.fresh(down_after=2)
    k = rig.cycle(K0, heard_on=(1,))         # silent on uplink 0, asked
    for i in range(S):                       # judges it (miss 1); no REQ on uplink 0 now
        rig.slice(k + i, heard=(1,), asked=(1,))
    k = rig.cycle(k + S, heard_on=(1,))      # judges the unasked cycle: no verdict
    r = rig.read()
    assert r["mask"] == 0, bin(r["mask"])
    assert [r["miss"][s * D] for s in range(S)] == [1] * S
    c = rig.counts()
    assert c["unasked"] == S and c["silent"] == S and c["down"] == 0
    rig.cycle(k, heard_on=(1,))              # judges an asked, silent cycle: the second miss
    assert rig.read()["mask"] == bits(*[(s, 0) for s in range(S)])
    assert rig.counts()["down"] == S


def test_the_lead_judges_the_circuits_of_its_reference_uplink_too(rig):
    """The lead sends its REQ on ref_uplink (0) to the reference, not to the slice's peer;
    its TRIGGER came in time and the peer sends its own REQ there in every slice, so the
    circuit was asked: silence on it is marked as on any other uplink (a lead blind on its
    ref_uplink would never see a cut cable there), and the peer's REQ keeps it up."""
    rig.fresh(down_after=2)
    k = K0
    for _ in range(3):                       # collected, judged (miss 1), judged (marked)
        for i in range(S):
            reqs = rig.slice(k + i, heard=(1,), lead=True)
            assert reqs[0].flags & Flag.REF and reqs[0].dst_tor == 0xFFFF, reqs[0]
        k += S
    r = rig.read()
    assert r["mask"] == bits(*[(s, 0) for s in range(S)]), bin(r["mask"])
    c = rig.counts()
    assert c["down"] == S and c["unasked"] == 0
    for _ in range(2):                       # the peers heard on uplink 0 again: marked up
        for i in range(S):
            rig.slice(k + i, heard=(0, 1), lead=True)
        k += S
    assert rig.read()["mask"] == 0
    assert rig.counts()["up"] == S


def test_a_beacon_taken_late_counts_for_the_slice_its_message_names(rig):
    """A loaded switch takes a packet late: a peer's REQ stamped in slice k (t1) and taken
    in slice k + 1 proves the circuit of slice k, whose slot is judged a cycle later, not a
    stray of slice k + 1; a RESP to this ToR's REQ of slice k taken late likewise. A beacon
    a whole cycle old belongs to a slot judged already: ignored."""
    rig.fresh(down_after=1)
    k = rig.cycle(K0, heard_on=(0, 1))
    k0 = k                                   # slice id 0
    rig.slice(k0)                            # both uplinks asked, nothing heard in slice k0 itself
    rig.slice(k0 + 1, heard=(0, 1))
    # slice k0's peers, taken now: a REQ on uplink 0, a RESP to this ToR's REQ on uplink 1
    rig.beacon(0, rig.peer(0, 0), k0)
    c0 = counts(rig.client, rig.contract)
    send(rig.dp, UPLINK_BASE + 1, Message(Op.RESP, src_tor=rig.peer(0, 1), dst_tor=ME, uplink=1, stratum=1,
                                          t1=Stamp(k0, 5000), t2=Stamp(k0, 6000), t3=Stamp(k0, 7000), slice=0))
    assert wait_counted(rig.client, rig.contract, c0) == {"stale": 1}   # (the clock: not the open request)
    # a REQ of slice k0 - S (a cycle old) from its peer on uplink 0: belongs to a judged slot
    rig.beacon(0, rig.peer(0, 0), k0 - S)
    for i in range(2, S + 1):                # ... up to slice id 0 again: slice k0 judged
        rig.slice(k0 + i, heard=(0, 1))
    r = rig.read()
    assert r["mask"] == 0 and r["wrong"] == 0, (bin(r["mask"]), bin(r["wrong"]))
    c = rig.counts()
    assert c["silent"] == 0 and c["wrong_peer"] == 0
    assert c["heard"] == (2 * S - 1) + 2     # the first cycle ((3, 1) has no circuit), then slice k0


def test_a_heard_circuit_is_marked_up_again_and_its_count_reset(rig):
    """A marked circuit heard once is cleared when that slice is judged (`up`), the others
    stay marked; the lookups use it again."""
    rig.fresh(down_after=1)
    k = rig.cycle(K0, heard_on=(1,))
    rig.slice(k, heard=(0, 1))               # judges slice id 0 (silent on 0: marked); heard on 0 now
    for i in range(1, S):
        rig.slice(k + i, heard=(1,))         # every uplink-0 circuit marked
    assert rig.read()["mask"] == bits(*[(s, 0) for s in range(S)])
    rig.slice(k + S, heard=(0, 1))           # judges slice id 0: heard on uplink 0
    r = rig.read()
    assert r["mask"] == bits(*[(s, 0) for s in range(1, S)])
    assert r["miss"][0] == 0 and r["miss"][1 * D] == 1
    assert rig.counts()["up"] == 1
    assert rig.out_port(ident=12) == UPLINK_BASE + 0        # slice id 0: its circuit is in use


def test_a_wrong_peer_counts_as_silence_and_is_marked_and_reported(rig):
    """On (slice 2, uplink 0) another synchronized ToR answers instead of the schedule's
    peer (a miswired OCS port): the circuit is silent for liveness, its `wrong` bit set
    and counted `wrong_peer`; with down_after = 1 it is marked down. A searching ToR
    (BOOT: its slice may be wrong) on the wrong circuit is not evidence of either."""
    rig.fresh(down_after=1)
    s = 2
    wrong_tor = next(t for t in range(8) if t not in (ME, rig.peer(s, 0)))
    strays = {s: [(0, wrong_tor, 0)], 1: [(0, wrong_tor, int(Flag.BOOT))]}
    k = rig.cycle(K0, heard_on=(1,), strays=strays.items())
    k = rig.cycle(k, heard_on=(0, 1))        # judges the first cycle
    r = rig.read()
    assert r["wrong"] == bits((s, 0))
    assert r["mask"] == bits(*[(x, 0) for x in range(S)])      # every uplink-0 circuit silent
    c = rig.counts()
    assert c["wrong_peer"] == 1 and c["silent"] == S - 1
    # the daemon's clock read (a PROBE from the CPU port) carries both masks in its PacketIn
    _, pin = probe_cpu(rig.client, rig.contract)
    assert (pin["live_mask"], pin["live_wrong"]) == (r["mask"], r["wrong"])
    # heard from the right peer again: both bits clear
    rig.cycle(k, heard_on=(0, 1))
    r = rig.read()
    assert (r["wrong"], r["mask"]) == (0, 0)


def test_an_unsynchronized_clock_evaluates_nothing(rig):
    """Slices this ToR's clock was unsynchronized in (its slice is not the schedule's) are
    not judged: counted `paused`, no miss, no mark."""
    rig.fresh(down_after=1)
    for i in range(2 * S + 1):
        rig.slice(K0 + i, synced=False)
    r = rig.read()
    assert (r["mask"], sum(r["miss"])) == (0, 0)
    c = rig.counts()
    assert c["paused"] >= 2 * S and c["silent"] == 0 and c["down"] == 0


def test_liveness_off_evaluates_nothing_and_the_lookups_ignore_the_mask(rig):
    """No liveness_config (liveness_off): silence marks nothing, and a mask left in the
    register (liveness turned off after marking) does not steer the lookups."""
    rig.fresh(enabled=False)
    k = rig.cycle(K0, heard_on=())
    k = rig.cycle(k, heard_on=())
    rig.slice(k)
    assert rig.read()["mask"] == 0 and sum(rig.counts().values()) == 0
    rig.cli.write_registers({(rig.live["mask"]["name"], 0): (1 << (S * D)) - 1})
    assert rig.out_port(ident=13) == UPLINK_BASE + 0


def test_circuits_the_schedule_does_not_have_are_never_silent(rig):
    """Only the (slice, uplink) pairs with a circuit (``expect``) are judged: ToR 0 has
    none on (3, 1), so uplink 1 silent marks (0, 1), (1, 1), (2, 1) and not (3, 1)."""
    rig.fresh(down_after=1)
    assert rig.peer(3, 1) < 0
    k = rig.cycle(K0, heard_on=(0,))
    rig.cycle(k, heard_on=(0,))
    assert rig.read()["mask"] == bits((0, 1), (1, 1), (2, 1))
    assert rig.counts()["silent"] == S - 1


# ---- in-band notices (docs/liveness.md "Notices") ------------------------------------------


def notice_counts(rig) -> dict:
    now = rig.client.read_counters(rig.contract, "notices")
    base = rig.base_notes
    return {k: v - base.get(k, 0) for k, v in now.items() if v - base.get(k, 0)}


def fresh_notes(rig, **kw) -> None:
    """:meth:`Rig.fresh` with liveness on (``kw``: LivenessParams' notice_rate / burst /
    refresh)."""
    down_after = kw.pop("down_after", 2)
    rig.fresh(down_after=down_after)
    if kw:
        rig.write_liveness(LivenessParams(enabled=True, down_after=down_after, **kw))
    rig.base_notes = rig.client.read_counters(rig.contract, "notices")


def notice_in(rig, k: int, *, origin: int, seq: int, sl: int, down: int, u: int = 0, src: int | None = None,
              dst: int = ME, port: int | None = None) -> str:
    """A NOTICE on uplink ``u`` (from this slice's peer on it unless ``src``; ``port``: in
    another port): the one notices cell it was counted under."""
    before = rig.client.read_counters(rig.contract, "notices")
    src = rig.peer(k % S, u) if src is None else src
    send(rig.dp, UPLINK_BASE + u if port is None else port,
         notice(origin, seq, sl, down, src_tor=src, dst_tor=dst, uplink=u))
    end = time.time() + 5
    while time.time() < end:
        now = rig.client.read_counters(rig.contract, "notices")
        got = [c for c in now if now[c] != before[c]]
        if got:
            assert len(got) == 1 and now[got[0]] - before[got[0]] == 1, got
            return got[0]
        time.sleep(0.02)
    raise AssertionError("the notice was not counted")


def note_regs(rig) -> dict:
    r = rig.read()
    return {k: v for k, v in r.items() if k.startswith("note_")}


def test_a_notice_is_applied_once_per_origin_slice_and_sequence_and_kept_to_send(rig):
    """From the peer this slice's circuit names: applied (ToR 5's slice 2: uplink 0 down) to
    the fabric-wide map and kept in a slot for one cycle; the same notice again, an older
    one, or this ToR's own coming back: `duplicate`, the map unchanged; a newer one (up
    again) applied over it. The reference model counts the same."""
    fresh_notes(rig)
    rig.slice(K0)
    model = Notices(8, S, D, ME)
    cell = 5 * S + 2
    seen = []
    for origin, seq, down in ((5, 3, 0b01), (5, 3, 0b01), (5, 2, 0b10), (ME, 9, 0b01), (5, 4, 0b00), (5, 4, 0b11)):
        why = notice_in(rig, K0, origin=origin, seq=seq, sl=2, down=down)
        assert why == model.receive(K0, from_uplink=True, from_host=False, synced=True, src=rig.peer(K0 % S, 0),
                                    dst=ME, peer=rig.peer(K0 % S, 0), origin=origin, seq=seq, slice_id=2, down=down)
        seen.append(why)
        if seq == 3 and why == "applied":
            r = note_regs(rig)
            assert (r["note_map"][cell], r["note_last"][cell]) == (0b01, 3)
            # the watch of the emulated fabric reads the map whole, in one command
            whole = rig.cli.read_register(rig.live["note_map"]["name"])
            assert whole == r["note_map"] and notices_of(whole, S, D) == {(5, 2, 0)}
            assert (r["note_q_origin"][0], r["note_q_seq"][0], r["note_q_slice"][0], r["note_q_down"][0],
                    r["note_q_until"][0]) == (5, 3, 2, 0b01, K0 + S)
    assert seen == ["applied", "duplicate", "duplicate", "duplicate", "applied", "duplicate"]
    r = note_regs(rig)
    assert (r["note_map"][cell], r["note_last"][cell]) == (0b00, 4)
    assert notice_counts(rig) == {"applied": 2, "duplicate": 4}


def test_the_first_notice_of_an_origin_and_slice_applies_past_half_the_sequence_space(rig):
    """A switch that has taken no notice of ToR 5's slice 1 yet applies one numbered past
    2^31 (the fabric's slice number is, half the time), then counts the same and an older
    one `duplicate`, as the reference model does."""
    fresh_notes(rig)
    rig.slice(K0)
    model = Notices(8, S, D, ME)
    cell = 5 * S + 1
    seen = []
    for seq, down in ((0x80000005, 0b01), (0x80000005, 0b10), (0x80000004, 0b10)):
        why = notice_in(rig, K0, origin=5, seq=seq, sl=1, down=down)
        assert why == model.receive(K0, from_uplink=True, from_host=False, synced=True, src=rig.peer(K0 % S, 0),
                                    dst=ME, peer=rig.peer(K0 % S, 0), origin=5, seq=seq, slice_id=1, down=down)
        seen.append(why)
    assert seen == ["applied", "duplicate", "duplicate"]
    r = note_regs(rig)
    assert (r["note_map"][cell], r["note_last"][cell]) == (0b01, 0x80000005)


def test_notices_from_a_wrong_peer_a_host_port_or_naming_nothing_are_dropped_by_reason(rig):
    """Another ToR than this slice's peer, or addressed to another: `wrong_peer`; from a host
    port: `from_host` (and the clock's `from_host`); a ToR, slice or uplink that does not
    exist, sequence 0: `unknown`. No cell of the map changes."""
    fresh_notes(rig)
    rig.slice(K0)
    wrong = next(t for t in range(8) if t not in (ME, rig.peer(K0 % S, 0)))
    cases = [
        (dict(src=wrong), "wrong_peer"),
        (dict(dst=wrong), "wrong_peer"),
        (dict(origin=8), "unknown"),
        (dict(sl=S), "unknown"),
        (dict(down=1 << D), "unknown"),
        (dict(seq=0), "unknown"),
        (dict(port=0), "from_host"),
    ]
    for over, want in cases:
        kw = dict(origin=5, seq=7, sl=1, down=0b01) | over
        assert notice_in(rig, K0, **kw) == want, over
    r = note_regs(rig)
    assert sum(r["note_map"]) == 0 and sum(r["note_last"]) == 0 and sum(r["note_q_until"]) == 0
    assert rig.client.read_counters(rig.contract, "sync")["from_host"] >= 1


def test_a_flood_of_notices_is_bounded_by_the_token_bucket(rig):
    """notice_rate 1, notice_burst 3: of five new notices in one slice three are taken and
    two dropped (`flood`); the next slice adds one token."""
    fresh_notes(rig, notice_rate=1, notice_burst=3)
    rig.slice(K0)
    got = [notice_in(rig, K0, origin=o, seq=1, sl=0, down=1) for o in (1, 2, 3, 4, 5)]
    assert got == ["applied"] * 3 + ["flood"] * 2
    rig.slice(K0 + 1)
    got = [notice_in(rig, K0 + 1, origin=o, seq=1, sl=0, down=1) for o in (4, 5)]
    assert got == ["applied", "flood"]
    assert notice_counts(rig) == {"applied": 4, "flood": 3}


def test_a_tor_tells_its_marks_and_sends_on_what_it_applied_from_triggers_whose_req_is_not_due(rig):
    """down_after 1, uplink 0 silent in slice 0: its judgment a cycle later marks
    (0, 0) and keeps this ToR's notice (seq: the slice number, slice 0, down 0b01). A TRIGGER per uplink
    sends its REQ first; the next, whose REQ is not due, sends the notice to this slice's
    peer; a third sends nothing (sent on that uplink in this slice already). A notice
    applied from a peer is sent on the same way."""
    fresh_notes(rig, down_after=1)
    rig.slice(K0, heard=(1,))
    for i in range(1, S):
        rig.slice(K0 + i, heard=(0, 1))
    rig.slice(K0 + S, asked=())                          # judges slice id 0: (0, 0) marked
    time.sleep(0.3)
    rig.dp.flush()                                       # (the RESPs to the beacons)
    r = note_regs(rig)
    assert r["note_seq"] == K0 + S and r["note_map"][ME * S + 0] == 0b01     # the slice number it was kept at
    s = (K0 + S) % S
    for u in range(D):
        port = UPLINK_BASE + u
        send(rig.dp, PKTGEN, Message(Op.TRIGGER, uplink=u))
        assert recv(rig.dp, port).op == Op.REQ
        send(rig.dp, PKTGEN, Message(Op.TRIGGER, uplink=u))
        got = recv(rig.dp, port)
        assert got.op == Op.NOTICE and (got.src_tor, got.dst_tor, got.uplink) == (ME, rig.peer(s, u), u)
        assert notice_fields(got) == (ME, K0 + S, 0, 0b01)
        c0 = rig.client.read_counters(rig.contract, "sync")
        send(rig.dp, PKTGEN, Message(Op.TRIGGER, uplink=u))
        assert wait_counted(rig.client, rig.contract, c0) == {"not_due": 1}
        res = rig.dp.dataplane.poll(port_number=port, timeout=0.5)
        assert not isinstance(res, rig.dp.dataplane.PollSuccess), "a third frame left"
    assert notice_counts(rig)["sent"] == D
    # a notice applied here goes out on the next free trigger
    assert notice_in(rig, K0 + S, origin=6, seq=5, sl=3, down=0b10, u=1) == "applied"
    send(rig.dp, PKTGEN, Message(Op.TRIGGER, uplink=0))
    got = recv(rig.dp, UPLINK_BASE)
    assert got.op == Op.NOTICE and notice_fields(got) == (6, 5, 3, 0b10)


def test_kept_notices_take_turns_on_an_uplink_when_one_trigger_a_slice_is_spare(rig):
    """Two notices applied from this slice's peer (kept in slots 0 and 1 for a cycle), then
    in each slice of that cycle a TRIGGER per uplink (its REQ) and one more on uplink 0: the
    spare one sends slot 0's notice, then slot 1's, then slot 0's again -- the one sent on
    the uplink longest ago, never sent first -- as the reference model picks them, not the
    first slot every time."""
    fresh_notes(rig, notice_refresh=0)
    rig.slice(K0)
    model = Notices(8, S, D, ME, refresh=0)
    for origin, seq, sl, down in ((5, 3, 2, 0b01), (6, 4, 1, 0b10)):
        assert notice_in(rig, K0, origin=origin, seq=seq, sl=sl, down=down) == "applied"
        assert model.receive(K0, from_uplink=True, from_host=False, synced=True, src=rig.peer(K0 % S, 0), dst=ME,
                             peer=rig.peer(K0 % S, 0), origin=origin, seq=seq, slice_id=sl, down=down) == "applied"
    sent, want = [], []
    for k in range(K0 + 1, K0 + S):
        rig.slice(k, heard=(0, 1))
        time.sleep(0.3)
        rig.dp.flush()                                   # (the RESPs to the beacons)
        c0 = counts(rig.client, rig.contract)
        send(rig.dp, PKTGEN, Message(Op.TRIGGER, uplink=0))
        assert wait_counted(rig.client, rig.contract, c0) == {"not_due": 1}
        got = recv(rig.dp, UPLINK_BASE)
        assert got.op == Op.NOTICE and got.dst_tor == rig.peer(k % S, 0), got
        sent.append(notice_fields(got))
        want.append(model.trigger(k, 0, peer=rig.peer(k % S, 0)))
    assert sent == [(5, 3, 2, 0b01), (6, 4, 1, 0b10), (5, 3, 2, 0b01)]
    assert sent == want
    assert notice_counts(rig) == {"applied": 2, "sent": S - 1}


def test_a_tors_own_change_takes_the_slot_of_a_notice_sent_on_and_goes_out_first(rig):
    """down_after 1, uplink 0 silent in slice 0; meanwhile four notices of other ToRs applied
    (every slot taken, each to be sent on). The judgment a cycle later marks (0, 0): this
    ToR's change takes slot 0 (`replaced`), and the next TRIGGER whose REQ is not due sends
    it before the others; a fifth notice sent on finds no slot less urgent than its own
    (`busy`). Slots, kinds and what is sent as the reference model has them."""
    fresh_notes(rig, down_after=1, notice_refresh=0)
    model = Notices(8, S, D, ME, refresh=0)
    rig.slice(K0, heard=(1,))
    for i in range(1, S):
        rig.slice(K0 + i, heard=(0, 1))
    k = K0 + S - 1
    others = [t for t in range(8) if t != ME]
    for origin in others[:4]:
        assert notice_in(rig, k, origin=origin, seq=7, sl=2, down=0b01) == "applied"
        model.receive(k, from_uplink=True, from_host=False, synced=True, src=rig.peer(k % S, 0), dst=ME,
                      peer=rig.peer(k % S, 0), origin=origin, seq=7, slice_id=2, down=0b01)
    r = note_regs(rig)
    assert r["note_q_kind"] == [1, 1, 1, 1] and r["note_q_origin"] == others[:4]
    rig.slice(K0 + S, asked=())                          # judges slice id 0: (0, 0) marked
    model.marked(K0 + S, 0, 0b01)
    r = note_regs(rig)
    assert r["note_q_kind"] == [s.kind for s in model.slots] == [0, 1, 1, 1]
    assert r["note_q_origin"] == [s.origin for s in model.slots] == [ME] + others[1:4]
    assert notice_counts(rig) == {"applied": 4, "replaced": 1}
    rig.ask(0)                                           # this slice's REQ on uplink 0
    sent = notices_out(rig, 0)
    assert sent[0] == (ME, K0 + S, 0, 0b01)
    assert sent == [model.trigger(K0 + S, 0, peer=rig.peer(0, 0)) for _ in sent]
    before = notice_counts(rig)
    send(rig.dp, UPLINK_BASE, notice(others[4], 7, 2, 0b01, src_tor=rig.peer(0, 0), dst_tor=ME, uplink=0))
    until(lambda: sum(notice_counts(rig).values()) >= sum(before.values()) + 2, timeout=5,
          what="the fifth notice counted twice")
    after = notice_counts(rig)
    assert {c: after.get(c, 0) - before.get(c, 0) for c in after if after.get(c, 0) != before.get(c, 0)} \
        == {"applied": 1, "busy": 1}


def notices_out(rig, u: int) -> list[tuple[int, int, int, int]]:
    """The NOTICEs this ToR sends on uplink ``u`` in this slice (its REQ sent already): a
    TRIGGER each, until one sends nothing; ``(origin, seq, slice, down)`` of each."""
    time.sleep(0.3)
    rig.dp.flush()                                       # (the RESPs to the beacons)
    out = []
    for _ in range(rig.contract["liveness"]["notices"]["slots"] + 1):
        c0 = counts(rig.client, rig.contract)
        send(rig.dp, PKTGEN, Message(Op.TRIGGER, uplink=u))
        assert wait_counted(rig.client, rig.contract, c0) == {"not_due": 1}
        res = rig.dp.dataplane.poll(port_number=UPLINK_BASE + u, timeout=0.5)
        if not isinstance(res, rig.dp.dataplane.PollSuccess):
            return out
        got = decode_frame(bytes(res.packet))
        assert got.op == Op.NOTICE, got
        out.append(notice_fields(got))
    raise AssertionError(f"more NOTICEs than slots: {out}")


def slots_of(rig) -> list[tuple[int, int, int, int, int] | None]:
    """The kept notices (origin, seq, slice, down, until) by slot, None: never used."""
    r = note_regs(rig)
    return [None if r["note_q_until"][i] == 0 else (r["note_q_origin"][i], r["note_q_seq"][i], r["note_q_slice"][i],
                                                   r["note_q_down"][i], r["note_q_until"][i])
            for i in range(len(r["note_q_until"]))]


def model_slots(model: Notices) -> list[tuple[int, int, int, int, int] | None]:
    return [None if s is None else (s.origin, s.seq, s.slice, s.down, s.until) for s in model.slots]


def test_a_tor_sends_its_marks_again_every_refresh_period_so_a_tor_that_missed_the_heal_forgets_it(rig):
    """notice_refresh 2, down_after 1: uplink 0 silent in slice 0 is marked a cycle later and
    told (a notice down 0b01), which a receiver applies; the circuit is heard again and its
    mark cleared, and that notice is lost on its way to the receiver, which keeps the old
    bit. Two cycles later this ToR sends its marks of slice 0 again (down 0, a newer
    sequence number: the slice number), unchanged as they are, and the receiver forgets the
    healed circuit. Meanwhile every slice's marks are refreshed at their first judgment and
    then every two cycles, leaving the last slot to changes: the slots and the `refresh`
    count are the reference model's, slice by slice."""
    fresh_notes(rig, down_after=1, notice_refresh=2)
    origin = Notices(8, S, D, ME, refresh=2)
    rx = Notices(8, S, D, 3)                            # a ToR the notices reach

    def take(k: int, notes) -> list[str]:
        return [rx.receive(k, from_uplink=True, from_host=False, synced=True, src=ME, dst=3, peer=ME, origin=o,
                           seq=q, slice_id=sl, down=dn) for o, q, sl, dn in notes]

    rig.slice(K0, heard=(1,))                           # the first cycle: uplink 0 silent in slice 0
    for k in range(K0 + 1, K0 + S):
        rig.slice(k, heard=(0, 1))
    down = {s: 0 for s in range(S)}
    for k in range(K0 + S, K0 + 5 * S):                 # judged from here on, a cycle later
        rig.slice(k, heard=(0, 1))
        s = k % S
        changed = k == K0 + S or k == K0 + 2 * S        # marked, then heard again: cleared
        if changed:
            down[s] ^= 0b01
        origin.judged(k, s, down[s], changed)
        assert slots_of(rig) == model_slots(origin), k
        if k == K0 + S:                                 # the mark's notice, taken by the receiver
            sent = notices_out(rig, 0)
            assert sent == [(ME, K0 + S, 0, 0b01)]
            assert take(k, sent) == ["applied"] and rx.dead(ME, 0, 0)
        elif k == K0 + 2 * S:                           # the heal's: lost on the way
            assert (ME, K0 + 2 * S, 0, 0) in notices_out(rig, 0)
        elif k == K0 + 4 * S:                           # the refresh of slice 0
            sent = [x for x in notices_out(rig, 0) if x[2] == 0]
            assert sent == [(ME, K0 + 4 * S, 0, 0)], sent
            assert take(k, sent) == ["applied"] and not rx.dead(ME, 0, 0)
    c = notice_counts(rig)
    assert c["refresh"] == origin.counts["refresh"] > 0 and c.get("busy", 0) == origin.counts["busy"]
    assert note_regs(rig)["note_seq"] == origin.seq


def test_a_notice_is_sent_on_only_when_it_changes_the_map(rig):
    """A newer notice that says what the map already holds (a refresh of marks this ToR
    knew) is applied but not kept to send: it goes no further than its origin's circuits;
    one that changes the map is kept, as the reference model does."""
    fresh_notes(rig)
    rig.slice(K0)
    model = Notices(8, S, D, ME)
    for seq, down in ((3, 0b00), (4, 0b01), (5, 0b01), (6, 0b00)):
        why = notice_in(rig, K0, origin=5, seq=seq, sl=2, down=down)
        assert why == "applied" == model.receive(K0, from_uplink=True, from_host=False, synced=True,
                                                 src=rig.peer(K0 % S, 0), dst=ME, peer=rig.peer(K0 % S, 0),
                                                 origin=5, seq=seq, slice_id=2, down=down)
        assert slots_of(rig) == model_slots(model), seq
    assert [x and x[1] for x in slots_of(rig)] == [4, 6, None, None]


def test_a_source_route_over_a_circuit_a_notice_says_is_dead_is_routed_per_hop(rig):
    """A source-routed destination whose path leaves now and crosses, at its second hop,
    another ToR's circuit: written as the path while nothing is known; once a notice from
    that circuit's ToR marks it, the packet leaves without the option, per hop on URO's
    first alternative (`avoided`), before any controller acts."""
    from fabric import ssrr_entries, ucmp_routes

    fresh_notes(rig)
    e = next(x for x in ssrr_entries() if x.dst != DST and len(x.paths) == 1 and len(x.paths[0]) >= 2
             and x.paths[0][0][2] == x.slice)
    dsr, t, path = e.dst, e.slice, list(e.paths[0])
    b = tb.route_entries(rig.contract, ME, path_routes=ucmp_routes(), source_routed=[dsr])
    b.entries += [ent.uro_entry(rig.contract, s, dsr, [(1, s), (0, s)]) for s in range(S)]
    rig.client.write(b)
    k = K0 + (t - K0 % S) % S
    rig.slice(k)

    def leave(ident):
        pkt = udp(dsr, dscp=e.buckets[0], ident=ident)
        rig.dp.send(0, pkt)
        for port in (UPLINK_BASE, UPLINK_BASE + 1):       # (a loaded switch may take seconds)
            res = rig.dp.dataplane.poll(port_number=port, timeout=3.0 if port == UPLINK_BASE else 1.0)
            if isinstance(res, rig.dp.dataplane.PollSuccess):
                return port, IP in Ether(bytes(res.packet)) and len(Ether(bytes(res.packet))[IP].options) > 0
        raise AssertionError("the packet left on no uplink")

    assert leave(21) == (UPLINK_BASE + path[0][1], True)      # the source route
    nxt, u1, s1 = path[1]
    at = path[0][0]                                           # hop 1 leaves from there
    assert notice_in(rig, k, origin=at, seq=1, sl=s1, down=1 << u1) == "applied"
    assert Notices(8, S, D, ME, map={(at, s1): 1 << u1}).path_crosses_dead(path)
    assert leave(22) == (UPLINK_BASE + 1, False)              # per hop: URO's first alternative
    assert notice_counts(rig)["avoided"] == 1
    assert notice_in(rig, k, origin=at, seq=2, sl=s1, down=0) == "applied"     # healed
    assert leave(23) == (UPLINK_BASE + path[0][1], True)


def test_an_exchange_the_clock_does_not_use_still_proves_the_peer_alive(rig):
    """The clock filter's `filtered` RESP (its path delay far above the least seen: a
    queued exchange says nothing of the time) and a `slow` one still come from the peer
    on its circuit: heard. Uplink 0 in slice 0 is heard only through such RESPs and stays
    unmarked; uplink 1, silent, is marked (down_after 1)."""

    rig.fresh(down_after=1)
    write_clock(rig.client, rig.contract, rig.sched, ME, params(), max_delay=3 * L // 4, window_hi=L - 1,
                exchange_every=0)

    def exchange(k: int, turn: int, expect: str) -> None:
        send(rig.dp, PKTGEN, Message(Op.TRIGGER, uplink=0))
        req = recv(rig.dp, UPLINK_BASE)
        assert req.op == Op.REQ and req.dst_tor == rig.peer(k % S, 0)
        t2 = Stamp.of_ns(req.t1.k * L + req.t1.phase + 2_000_000, L)
        t3 = Stamp.of_ns(t2.k * L + t2.phase + turn, L)
        c0 = counts(rig.client, rig.contract)
        send(rig.dp, UPLINK_BASE, Message(Op.RESP, src_tor=req.dst_tor, dst_tor=ME, uplink=0, stratum=1,
                                          t1=req.t1, t2=t2, t3=t3, slice=req.slice))
        assert wait_counted(rig.client, rig.contract, c0) == {expect: 1}

    rig.slice(K0 - 1)                             # slice id 3: the least delay seen on uplink 0
    exchange(K0 - 1, 50_000, "applied")
    rig.slice(K0)                                 # slice id 0: only unused exchanges on uplink 0
    exchange(K0, -1_000_000_000, "filtered")      # queued 1 s one way
    exchange(K0, -7_000_000_000, "slow")          # beyond max_delay
    for i in range(1, S + 1):                     # ... slice id 0 again: judges slice K0
        rig.slice(K0 + i)
    assert rig.read()["mask"] == bits((0, 1))
    assert rig.counts()["heard"] == 2 and rig.counts()["silent"] == 1      # (3, 0) and (0, 0); (0, 1)


def test_a_notice_from_the_other_end_of_a_circuit_marks_it_here_too(rig):
    """A one-way failure: this ToR hears its peer on (s, 0), the peer does not hear it and
    marks the circuit. The peer's notice (origin: the peer, slice s, uplink 0 down) marks the
    circuit here too (live_remote): a packet routed over (s, 0) takes the next alternative,
    (s, 1), before any controller acts; the peer's notice that it is up again clears it. A
    notice of another ToR for the same slice and uplink (not this circuit's other end)
    changes nothing here; the reference model says the same."""
    fresh_notes(rig)
    rig.slice(K0)                                 # this ToR's TRIGGERs: live_peer of slice 0
    s = K0 % S
    end, other = rig.peer(s, 0), next(t for t in range(8) if t not in (ME, rig.peer(s, 0)))
    model = Notices(8, S, D, ME)

    def take(origin: int, seq: int, down: int) -> None:
        assert notice_in(rig, K0, origin=origin, seq=seq, sl=s, down=down) == "applied"
        model.receive(K0, from_uplink=True, from_host=False, synced=True, src=rig.peer(s, 0), dst=ME,
                      peer=rig.peer(s, 0), origin=origin, seq=seq, slice_id=s, down=down)

    assert rig.out_port(ident=31) == UPLINK_BASE
    take(other, 1, 0b01)                          # not the other end of (s, 0): nothing here
    assert rig.read()["remote"] == 0 and model.other_end_marks(rig.peer) == set()
    assert rig.out_port(ident=32) == UPLINK_BASE
    take(end, 1, 0b01)                            # the other end marked it
    assert rig.read()["remote"] == bits((s, 0)) and model.other_end_marks(rig.peer) == {(s, 0)}
    assert rig.read()["mask"] == 0                # (this ToR's own judgment did not)
    assert rig.out_port(ident=33) == UPLINK_BASE + 1
    take(end, 2, 0b00)                            # healed
    assert rig.read()["remote"] == 0 and model.other_end_marks(rig.peer) == set()
    assert rig.out_port(ident=34) == UPLINK_BASE
