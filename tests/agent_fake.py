"""An in-process fake P4Runtime server, for what a real switch cannot be made to do:
apply the updates of a request in another order than sent (the spec allows it, bmv2
does not do it), fail a chosen update in the middle of a batch, take primaryship away
on request, flood the stream, answer late.

It keeps canonical state objects (decoded with the agent's own codec: the codec is
tested on its own and against bmv2), and checks dependencies the way a switch does: a
group needs its members, an entry its group, nothing is deleted while still referenced.
"""

from __future__ import annotations

import queue
import threading
import time
from concurrent import futures

import grpc
from finsy.proto import p4r, p4r_grpc, rpc_status
from google.protobuf import text_format
from finsy.proto import p4i

from controller.agent.diff import entry_key, group_key, member_key
from controller.agent.p4info import P4Info
from controller.tables.state import Batch, Group, Member, TableEntry

P4INFO_TEXT = """
pkg_info { arch: "v1model" }
tables {
  preamble { id: 33554433 name: "I.t" alias: "t" }
  match_fields { id: 1 name: "k" bitwidth: 8 match_type: EXACT }
  match_fields { id: 2 name: "p" bitwidth: 32 match_type: LPM }
  action_refs { id: 16777217 }
  size: 1024
}
tables {
  preamble { id: 33554434 name: "I.sel" alias: "sel" }
  match_fields { id: 1 name: "d" bitwidth: 8 match_type: EXACT }
  match_fields { id: 2 name: "b" bitwidth: 8 match_type: RANGE }
  action_refs { id: 16777218 }
  implementation_id: 285212673
  size: 1024
}
actions { preamble { id: 16777217 name: "I.a" alias: "a" } params { id: 1 name: "v" bitwidth: 8 } }
actions { preamble { id: 16777218 name: "I.w" alias: "w" } params { id: 1 name: "x" bitwidth: 16 } }
action_profiles { preamble { id: 285212673 name: "I.prof" alias: "prof" } table_ids: 33554434 with_selector: true size: 1024 }
counters { preamble { id: 301989889 name: "I.c" alias: "c" } spec { unit: PACKETS } size: 3 }
"""
#  ids carry P4Runtime's type prefix (tables 0x02, actions 0x01, profiles 0x11, counters 0x12)

PACKET_OUT_TEXT = """
controller_packet_metadata {
  preamble { id: 1073741825 name: "packet_out" }
  metadata { id: 1 name: "egress_port" bitwidth: 9 }
  metadata { id: 2 name: "flag" bitwidth: 7 }
}
"""

CONTRACT = {
    "program": "fake",
    "tables": {
        "t": {"name": "I.t", "keys": [{"name": "k", "bitwidth": 8, "match": "exact"},
                                      {"name": "p", "bitwidth": 32, "match": "lpm"}],
              "actions": {"a": {"name": "I.a", "params": [{"name": "v", "bitwidth": 8}]}}},
        "sel": {"name": "I.sel", "action_profile": "I.prof",
                "keys": [{"name": "d", "bitwidth": 8, "match": "exact"}, {"name": "b", "bitwidth": 8, "match": "range"}],
                "actions": {"w": {"name": "I.w", "params": [{"name": "x", "bitwidth": 16}]}}},
    },
    "counters": {"c": {"name": "I.c", "indices": ["x", "y", "z"]}},
    "timer_ethertype": 0x88B5,
}


def p4info_msg(packet_out: bool = False) -> "p4i.P4Info":
    msg = p4i.P4Info()
    text_format.Merge(P4INFO_TEXT + (PACKET_OUT_TEXT if packet_out else ""), msg)
    return msg


def entry(k: int, v: int, plen: int = 24) -> TableEntry:
    return TableEntry("I.t", (("k", k), ("p", (0x0A000000 + (k << 8) if plen else 0, plen))), "I.a", (("v", v),))


def member(i: int, x: int) -> Member:
    return Member("I.prof", i, "I.w", (("x", x),))


def sel_entry(d: int, gid: int, lo: int = 0, hi: int = 255) -> TableEntry:
    return TableEntry("I.sel", (("d", d), ("b", (lo, hi))), None, (), False, gid, 1)


class _Fault(Exception):
    def __init__(self, code: int, message: str):
        self.code, self.message = code, message


class FakeSwitch(p4r_grpc.P4RuntimeServicer):
    """``order``: "sent" or "reverse" (how each request's updates are applied);
    ``fail``: {(request number, update index): code} faults, consumed when hit."""

    def __init__(self, packet_out: bool = False, order: str = "sent", port: int = 0):
        self.info = P4Info(p4info_msg(packet_out))
        self.info.check_contract(CONTRACT)
        self.order = order
        self.fail: dict[tuple[int, int], int] = {}
        self.delay: dict[str, float] = {}        # RPC name -> seconds it answers late
        self.members: dict = {}
        self.groups: dict = {}
        self.entries: dict = {}
        self.counters = [0, 0, 0]
        self.requests: list[list[tuple[str, object]]] = []   # every Write, decoded
        self.packet_outs: list = []
        self.cookie: int | None = None
        self.primary_id = 0
        self._streams: list[queue.Queue] = []
        self._lock = threading.Lock()
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
        p4r_grpc.add_P4RuntimeServicer_to_server(self, self.server)
        self.port = self.server.add_insecure_port(f"127.0.0.1:{port}")
        self.server.start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        for q in self._streams:
            q.put(None)
        self.server.stop(0)

    def state(self) -> Batch:
        return Batch(list(self.members.values()), list(self.groups.values()), list(self.entries.values()))

    def push_stream(self, msg) -> None:
        """Send ``msg`` (a StreamMessageResponse) to every open stream."""
        for q in self._streams:
            q.put(msg)

    def takeover(self, election_id: int) -> None:
        """Another controller with a higher election id became primary."""
        self.primary_id = election_id
        r = p4r.StreamMessageResponse()
        r.arbitration.election_id.low = election_id
        r.arbitration.status.code = 6  # ALREADY_EXISTS: "not primary" (P4Runtime §5.4)
        self.push_stream(r)

    # ---- RPCs --------------------------------------------------------------------------
    def StreamChannel(self, request_iterator, context):
        out: queue.Queue = queue.Queue()
        self._streams.append(out)

        def read():
            try:
                self._serve_stream(request_iterator, out)
            except grpc.RpcError:   # the client cancelled the stream
                pass
            out.put(None)

        threading.Thread(target=read, daemon=True).start()
        while True:
            msg = out.get()
            if msg is None:
                return
            yield msg

    def _serve_stream(self, request_iterator, out: queue.Queue) -> None:
        for req in request_iterator:
            kind = req.WhichOneof("update")
            if kind == "arbitration":
                eid = (req.arbitration.election_id.high << 64) | req.arbitration.election_id.low
                r = p4r.StreamMessageResponse()
                with self._lock:
                    if eid >= self.primary_id:
                        self.primary_id = eid
                    else:
                        r.arbitration.status.code = 6
                r.arbitration.election_id.low = self.primary_id
                out.put(r)
            elif kind == "packet":
                self.packet_outs.append(req.packet)

    def SetForwardingPipelineConfig(self, request, context):
        self.cookie = request.config.cookie.cookie
        self.members.clear(), self.groups.clear(), self.entries.clear()
        return p4r.SetForwardingPipelineConfigResponse()

    def GetForwardingPipelineConfig(self, request, context):
        self._late("GetForwardingPipelineConfig")
        if self.cookie is None:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, "No forwarding pipeline config set for this device")
        resp = p4r.GetForwardingPipelineConfigResponse()
        resp.config.cookie.cookie = self.cookie
        if request.response_type != p4r.GetForwardingPipelineConfigRequest.COOKIE_ONLY:
            resp.config.p4info.CopyFrom(self.info.info)
        return resp

    def _late(self, rpc: str) -> None:
        if self.delay.get(rpc):
            time.sleep(self.delay[rpc])

    def Read(self, request, context):
        self._late("Read")
        resp = p4r.ReadResponse()
        for ent in request.entities:
            kind = ent.WhichOneof("entity")
            if kind == "table_entry" and not ent.table_entry.is_default_action:
                name = self.info.schema.tables[ent.table_entry.table_id].name
                for e in self.entries.values():
                    if e.table == name:
                        self.info.fill_entity(resp.entities.add(), e)
            elif kind == "action_profile_member":
                for m in self.members.values():
                    self.info.fill_entity(resp.entities.add(), m)
            elif kind == "action_profile_group":
                for g in self.groups.values():
                    self.info.fill_entity(resp.entities.add(), g)
            elif kind == "counter_entry":
                for i, n in enumerate(self.counters):
                    c = resp.entities.add().counter_entry
                    c.counter_id, c.index.index, c.data.packet_count = ent.counter_entry.counter_id, i, n
        yield resp

    def Write(self, request, context):
        self._late("Write")
        eid = (request.election_id.high << 64) | request.election_id.low
        if eid != self.primary_id:
            context.abort(grpc.StatusCode.PERMISSION_DENIED, "Not primary")
        n = len(self.requests)
        decoded = []
        for u in request.updates:
            e = u.entity
            kind = e.WhichOneof("entity")
            if kind == "action_profile_member" and not e.action_profile_member.HasField("action"):
                # a DELETE names a member by its id alone (P4Runtime §9.2)
                m = e.action_profile_member
                obj = Member(self.info.profile_name(m.action_profile_id), m.member_id, None, ())
            else:
                obj = (self.info.decode_table_entry(e.table_entry) if kind == "table_entry" else
                       self.info.decode_member(e.action_profile_member) if kind == "action_profile_member" else
                       self.info.decode_group(e.action_profile_group))
            decoded.append((p4r.Update.Type.Name(u.type).lower(), obj))
        self.requests.append(decoded)
        errors = [(0, "")] * len(decoded)
        order = range(len(decoded)) if self.order == "sent" else reversed(range(len(decoded)))
        for i in order:
            code = self.fail.pop((n, i), None)
            try:
                if code is not None:
                    raise _Fault(code, "injected fault")
                self._apply(*decoded[i])
            except _Fault as f:
                errors[i] = (f.code, f.message)
        if any(c for c, _ in errors):
            st = rpc_status.Status(code=grpc.StatusCode.UNKNOWN.value[0])
            for c, m in errors:
                st.details.add().Pack(p4r.Error(canonical_code=c, message=m, space="fake"))
            context.set_trailing_metadata((("grpc-status-details-bin", st.SerializeToString()),))
            context.set_code(grpc.StatusCode.UNKNOWN)
            context.set_details("")
        return p4r.WriteResponse()

    def _apply(self, op: str, obj) -> None:
        NOT_FOUND, EXISTS, PRECONDITION = 5, 6, 9
        if isinstance(obj, Member):
            store, key = self.members, member_key(obj)
            if op == "delete" and any(obj.member_id in g.member_ids for g in self.groups.values()):
                raise _Fault(PRECONDITION, "member is used by a group")
        elif isinstance(obj, Group):
            store, key = self.groups, group_key(obj)
            if op != "delete" and any(("I.prof", i) not in self.members for i in obj.member_ids):
                raise _Fault(NOT_FOUND, "group names a member that does not exist")
            if op == "delete" and any(e.group_id == obj.group_id for e in self.entries.values()):
                raise _Fault(PRECONDITION, "group is used by a table entry")
        else:
            store, key = self.entries, entry_key(obj)
            if op != "delete" and obj.group_id is not None and ("I.prof", obj.group_id) not in self.groups:
                raise _Fault(NOT_FOUND, "entry names a group that does not exist")
        if op == "insert":
            if key in store:
                raise _Fault(EXISTS, "exists")
            store[key] = obj
        elif op == "modify":
            if key not in store:
                raise _Fault(NOT_FOUND, "not found")
            store[key] = obj
        else:
            if key not in store:
                raise _Fault(NOT_FOUND, "not found")
            del store[key]
