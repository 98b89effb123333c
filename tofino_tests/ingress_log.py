"""The ingress passes the model traced, packet by packet: which frame came in on which port,
the TM queue id and egress port the program gave it. What the queue tests read besides the
packets that left: on the model the TM does not pause queues, so a packet for a later slice
leaves at once and only the qid the TM got tells its calendar queue.

The model prefixes every trace line with its packet id (``:0x1a9:0x1a8:<pipe,?,stage>:``).
A packet's ingress trace is ``Ingress Pkt from port P`` followed by its ``Packet :`` hex dump
and the fields the tables wrote (``ig_intr_md_for_tm.qid[6:0] = 0x3``). The egress side of
an earlier packet is logged under the id the model is busy with (interleaved), so only
ingress lines are read here; the egress qid is not in the log at all (the program never
reads ``eg_intr_md.egress_qid``, so it has no PHV container the model could print)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_LINE = re.compile(r":(0x[0-9a-fA-F]+):(?:0x[0-9a-fA-F]+|-):<[^>]*>:(.*)$")
_IN = re.compile(r"=+ Ingress Pkt from port (\d+) ")
_HEX = re.compile(r"^\s*(?:[0-9a-fA-F]{2}\s+)*[0-9a-fA-F]{2}\s*$")
_FIELD = {
    "qid": re.compile(r"ig_intr_md_for_tm\.qid\[\d+:0\] = 0x([0-9a-fA-F]+)"),
    "egress_port": re.compile(r"ig_intr_md_for_tm\.ucast_egress_port\[\d+:0\] = 0x([0-9a-fA-F]+)"),
}


@dataclass
class Pass:
    """One packet's trip through ingress."""

    in_port: int
    head: bytearray = field(default_factory=bytearray)      # the first bytes the model dumped
    qid: int | None = None
    egress_port: int | None = None

    def ip_ident(self) -> int | None:
        """IPv4 identification of an Ethernet/IPv4 frame (None for anything else)."""
        h = self.head
        if len(h) >= 20 and h[12:14] == b"\x08\x00":
            return int.from_bytes(h[18:20], "big")
        return None


def ingress_passes(lines: list[str]) -> list[Pass]:
    """Every ingress pass in ``lines``, in the order they started."""
    out: list[Pass] = []
    cur: dict[str, Pass] = {}
    state: dict[str, str] = {}
    for line in lines:
        m = _LINE.search(line)
        if not m:
            continue
        pid, body = m.group(1), m.group(2)
        i = _IN.search(body)
        if i:
            cur[pid] = Pass(int(i.group(1)))
            out.append(cur[pid])
            state[pid] = "want_dump"
            continue
        if body.startswith("="):             # another packet's (egress) block under this id
            state[pid] = ""
            continue
        st = state.get(pid, "")
        if body.strip() == "Packet :":
            state[pid] = "dump" if st == "want_dump" else ""
            continue
        if st == "dump":
            if _HEX.match(body):
                cur[pid].head.extend(bytes.fromhex(body))
                continue
            state[pid] = ""
        p = cur.get(pid)
        if p is None:
            continue
        for name, rx in _FIELD.items():
            f = rx.search(body)
            if f:
                setattr(p, name, int(f.group(1), 16))
    return out


def by_ident(passes: list[Pass], idents) -> dict[int, list[Pass]]:
    """{IPv4 identification: its passes (a resubmitted packet has two)} for ``idents``."""
    want = set(idents)
    out: dict[int, list[Pass]] = {i: [] for i in want}
    for p in passes:
        i = p.ip_ident()
        if i in want:
            out[i].append(p)
    return out
