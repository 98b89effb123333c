"""A small P4Runtime client: pipeline, table entries, action-profile members and groups,
counters, over gRPC (``p4runtime`` protobufs from PyPI).

It is what the bmv2 tests and the agent use to drive ``simple_switch_grpc``::

    c = P4RuntimeClient("127.0.0.1:9559")
    c.set_pipeline("build/tor_tiny.p4info.txtpb", "build/tor_tiny.json")
    c.check_contract(contract)                 # every contract name/width is in the P4Info
    c.write(batch)                             # controller.p4gen.entries.Batch
    packets, bytes_ = c.read_counter("UroIngress.drops", 0)

Entries are checked against the P4Info before anything is written; a gRPC failure is
raised as :class:`P4RuntimeError` with the switch's message.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Iterable

from controller.errors import UroError
from controller.tables.entries import Batch, Group, Member, TableEntry

try:
    import grpc
    from google.protobuf import text_format
    from p4.config.v1 import p4info_pb2
    from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc
except ImportError as e:  # pragma: no cover - depends on the install
    raise ImportError(f"the P4Runtime agent needs the 'agent' extra (pip install -e '.[agent]'): {e}") from e


class P4RuntimeError(UroError):
    pass


def encode(value: int, bits: int) -> bytes:
    """Canonical P4Runtime bytestring: big-endian, no leading zero bytes (0 -> one byte)."""
    if value < 0 or value >= (1 << bits):
        raise P4RuntimeError(f"value {value} does not fit {bits} bits")
    return value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")


class P4Info:
    """Name -> id/width lookups over a P4Info message."""

    def __init__(self, info: "p4info_pb2.P4Info"):
        self.info = info
        self.tables = {t.preamble.name: t for t in info.tables}
        self.actions = {a.preamble.name: a for a in info.actions}
        self.counters = {c.preamble.name: c for c in info.counters}
        self.profiles = {p.preamble.name: p for p in info.action_profiles}

    @classmethod
    def load(cls, path: str | Path) -> "P4Info":
        info = p4info_pb2.P4Info()
        text_format.Merge(Path(path).read_text(), info)
        return cls(info)

    def table(self, name: str):
        try:
            return self.tables[name]
        except KeyError:
            raise P4RuntimeError(f"table {name!r} is not in the P4Info (have: {', '.join(sorted(self.tables))})") from None

    def action(self, name: str):
        try:
            return self.actions[name]
        except KeyError:
            raise P4RuntimeError(f"action {name!r} is not in the P4Info") from None

    def counter(self, name: str):
        try:
            return self.counters[name]
        except KeyError:
            raise P4RuntimeError(f"counter {name!r} is not in the P4Info (have: {', '.join(sorted(self.counters))})") from None

    def profile(self, name: str):
        try:
            return self.profiles[name]
        except KeyError:
            raise P4RuntimeError(f"action profile {name!r} is not in the P4Info") from None

    # ---- contract check ----------------------------------------------------------------
    def check_contract(self, contract: dict) -> None:
        """Every table/key/action/parameter/counter of the contract exists with the same width."""
        match_kind = {"exact": p4info_pb2.MatchField.EXACT, "lpm": p4info_pb2.MatchField.LPM,
                      "ternary": p4info_pb2.MatchField.TERNARY, "range": p4info_pb2.MatchField.RANGE}
        for t in contract["tables"].values():
            pt = self.table(t["name"])
            fields = {m.name: m for m in pt.match_fields}
            for k in t["keys"]:
                m = fields.get(k["name"])
                if m is None:
                    raise P4RuntimeError(f"{t['name']}: key {k['name']!r} not in the P4Info (has {sorted(fields)})")
                if m.bitwidth != k["bitwidth"] or m.match_type != match_kind[k["match"]]:
                    raise P4RuntimeError(f"{t['name']}: key {k['name']!r} is {m.bitwidth} bits in the P4Info, "
                                         f"{k['bitwidth']} in the contract")
            ids = {r.id for r in pt.action_refs}
            for a in t["actions"].values():
                pa = self.action(a["name"])
                if pa.preamble.id not in ids:
                    raise P4RuntimeError(f"{t['name']}: action {a['name']!r} is not an action of the table")
                params = {p.name: p.bitwidth for p in pa.params}
                for prm in a["params"]:
                    if params.get(prm["name"]) != prm["bitwidth"]:
                        raise P4RuntimeError(f"{a['name']}: parameter {prm['name']!r} is "
                                             f"{params.get(prm['name'])} bits in the P4Info, {prm['bitwidth']} in the contract")
            if "action_profile" in t:
                self.profile(t["action_profile"])
        for c in contract["counters"].values():
            pc = self.counter(c["name"])
            if pc.size < len(c["indices"]):
                raise P4RuntimeError(f"counter {c['name']!r} has {pc.size} cells, the contract names {len(c['indices'])}")

    # ---- message builders ----------------------------------------------------------------
    def _action(self, name: str, params: Iterable[tuple[str, int]]):
        pa = self.action(name)
        widths = {p.name: (p.id, p.bitwidth) for p in pa.params}
        act = p4runtime_pb2.Action(action_id=pa.preamble.id)
        for pname, v in params:
            if pname not in widths:
                raise P4RuntimeError(f"{name}: no parameter {pname!r}")
            pid, bits = widths[pname]
            act.params.add(param_id=pid, value=encode(v, bits))
        return act

    def table_entry(self, e: TableEntry):
        pt = self.table(e.table)
        msg = p4runtime_pb2.TableEntry(table_id=pt.preamble.id)
        if e.is_default:
            msg.is_default_action = True
        if e.priority:
            msg.priority = e.priority
        fields = {m.name: m for m in pt.match_fields}
        for kname, v in e.match:
            m = fields.get(kname)
            if m is None:
                raise P4RuntimeError(f"{e.table}: no key {kname!r}")
            fm = msg.match.add(field_id=m.id)
            if m.match_type == p4info_pb2.MatchField.LPM:
                val, plen = v
                if plen == 0:
                    msg.match.pop()  # a /0 prefix is the don't-care: omitted
                    continue
                mask = ((1 << m.bitwidth) - 1) ^ ((1 << (m.bitwidth - plen)) - 1)
                fm.lpm.value = encode(val & mask, m.bitwidth)
                fm.lpm.prefix_len = plen
            elif m.match_type == p4info_pb2.MatchField.RANGE:
                lo, hi = v
                if lo == 0 and hi == (1 << m.bitwidth) - 1:
                    msg.match.pop()  # the full range is the don't-care: omitted
                    continue
                fm.range.low = encode(lo, m.bitwidth)
                fm.range.high = encode(hi, m.bitwidth)
            else:
                fm.exact.value = encode(v, m.bitwidth)
        if e.group_id is not None:
            msg.action.action_profile_group_id = e.group_id
        elif e.action is not None:
            msg.action.action.CopyFrom(self._action(e.action, e.params))
        return msg

    def member(self, m: Member):
        return p4runtime_pb2.ActionProfileMember(
            action_profile_id=self.profile(m.profile).preamble.id, member_id=m.member_id,
            action=self._action(m.action, m.params))

    def group(self, g: Group):
        msg = p4runtime_pb2.ActionProfileGroup(action_profile_id=self.profile(g.profile).preamble.id,
                                               group_id=g.group_id, max_size=max(len(g.member_ids), 1))
        for mid in g.member_ids:
            msg.members.add(member_id=mid, weight=1)
        return msg


class P4RuntimeClient:
    """One controller session to one device (primary by election id)."""

    def __init__(self, address: str = "127.0.0.1:9559", device_id: int = 0, election_id: int = 1,
                 timeout: float = 10.0):
        self.address = address
        self.device_id = device_id
        self.election = p4runtime_pb2.Uint128(high=0, low=election_id)
        self.channel = grpc.insecure_channel(address)
        try:
            grpc.channel_ready_future(self.channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise P4RuntimeError(f"no P4Runtime server at {address} after {timeout:g}s") from None
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self._requests: queue.Queue = queue.Queue()
        self._stream = self.stub.StreamChannel(iter(self._requests.get, None))
        self._responses: queue.Queue = queue.Queue()
        self._reader = threading.Thread(target=self._read_stream, daemon=True)
        self._reader.start()
        req = p4runtime_pb2.StreamMessageRequest()
        req.arbitration.device_id = device_id
        req.arbitration.election_id.CopyFrom(self.election)
        self._requests.put(req)
        try:
            resp = self._responses.get(timeout=timeout)
        except queue.Empty:
            raise P4RuntimeError(f"{address}: no arbitration answer") from None
        if isinstance(resp, Exception):
            raise P4RuntimeError(f"{address}: stream failed: {resp}")
        if resp.arbitration.status.code != 0:
            raise P4RuntimeError(f"{address}: not primary: {resp.arbitration.status.message}")
        self.p4info: P4Info | None = None

    def _read_stream(self) -> None:
        try:
            for msg in self._stream:
                self._responses.put(msg)
        except grpc.RpcError as e:
            self._responses.put(e)

    def close(self) -> None:
        self._requests.put(None)
        self.channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- pipeline ------------------------------------------------------------------------
    def set_pipeline(self, p4info_path: str | Path, device_config_path: str | Path) -> None:
        self.p4info = P4Info.load(p4info_path)
        req = p4runtime_pb2.SetForwardingPipelineConfigRequest(
            device_id=self.device_id, election_id=self.election,
            action=p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT)
        req.config.p4info.CopyFrom(self.p4info.info)
        req.config.p4_device_config = Path(device_config_path).read_bytes()
        self._call(self.stub.SetForwardingPipelineConfig, req, "set pipeline")

    def check_contract(self, contract: dict) -> None:
        self._need_p4info().check_contract(contract)

    def _need_p4info(self) -> P4Info:
        if self.p4info is None:
            raise P4RuntimeError("no pipeline: call set_pipeline first")
        return self.p4info

    def _call(self, fn, req, what: str):
        try:
            return fn(req)
        except grpc.RpcError as e:
            raise P4RuntimeError(f"{self.address}: {what} failed: {e.code().name}: {e.details()}") from None

    # ---- writes --------------------------------------------------------------------------
    def write(self, batch: Batch | Iterable[TableEntry], update: str = "INSERT", chunk: int = 512) -> int:
        """Write members, groups, then table entries (default entries as MODIFY), in chunks.

        Every message is built (and so checked against the P4Info) before the first write.
        """
        info = self._need_p4info()
        if not isinstance(batch, Batch):
            batch = Batch(entries=list(batch))
        kind = getattr(p4runtime_pb2.Update, update)
        updates = []
        for m in batch.members:
            u = p4runtime_pb2.Update(type=kind)
            u.entity.action_profile_member.CopyFrom(info.member(m))
            updates.append(u)
        for g in batch.groups:
            u = p4runtime_pb2.Update(type=kind)
            u.entity.action_profile_group.CopyFrom(info.group(g))
            updates.append(u)
        for e in batch.entries:
            u = p4runtime_pb2.Update(type=p4runtime_pb2.Update.MODIFY if e.is_default else kind)
            u.entity.table_entry.CopyFrom(info.table_entry(e))
            updates.append(u)
        for i in range(0, len(updates), chunk):
            req = p4runtime_pb2.WriteRequest(device_id=self.device_id, election_id=self.election)
            req.updates.extend(updates[i:i + chunk])
            self._call(self.stub.Write, req, f"write of updates {i}..{i + len(updates[i:i + chunk]) - 1}")
        return len(updates)

    # ---- packet I/O ----------------------------------------------------------------------
    def packet_out(self, payload: bytes, metadata: dict[str, int] | None = None) -> None:
        """Send ``payload`` to the switch's CPU port (P4Runtime PacketOut on the stream).

        ``metadata`` sets the fields of the program's ``packet_out`` controller header by
        name (from the P4Info's controller_packet_metadata); fields not given are sent
        as 0, so the server always gets every field. Errors come back asynchronously on
        the stream."""
        info = self._need_p4info()
        given = dict(metadata or {})
        msg = p4runtime_pb2.StreamMessageRequest()
        msg.packet.payload = bytes(payload)
        hdr = next((h for h in info.info.controller_packet_metadata if h.preamble.name == "packet_out"), None)
        for m in (hdr.metadata if hdr is not None else ()):
            msg.packet.metadata.add(metadata_id=m.id, value=encode(given.pop(m.name, 0), m.bitwidth))
        if given:
            raise P4RuntimeError(f"packet_out: no metadata field {sorted(given)[0]!r} in the P4Info")
        self._requests.put(msg)

    # ---- reads ---------------------------------------------------------------------------
    def read_counter(self, name: str, index: int) -> tuple[int, int]:
        """(packets, bytes) of one counter cell."""
        pc = self._need_p4info().counter(name)
        req = p4runtime_pb2.ReadRequest(device_id=self.device_id)
        ent = req.entities.add()
        ent.counter_entry.counter_id = pc.preamble.id
        ent.counter_entry.index.index = index
        try:
            for resp in self.stub.Read(req):
                for e in resp.entities:
                    d = e.counter_entry.data
                    return d.packet_count, d.byte_count
        except grpc.RpcError as e:
            raise P4RuntimeError(f"{self.address}: read of {name}[{index}] failed: {e.code().name}: {e.details()}") from None
        raise P4RuntimeError(f"{self.address}: no answer for {name}[{index}]")

    def read_counters(self, contract: dict, counter: str) -> dict[str, int]:
        """All named cells of a contract counter: {reason: packets}."""
        c = contract["counters"][counter]
        return {r: self.read_counter(c["name"], i)[0] for i, r in enumerate(c["indices"])}

    def read_table(self, name: str) -> list:
        pt = self._need_p4info().table(name)
        req = p4runtime_pb2.ReadRequest(device_id=self.device_id)
        req.entities.add().table_entry.table_id = pt.preamble.id
        out = []
        for resp in self.stub.Read(req):
            out += [e.table_entry for e in resp.entities]
        return out
