"""P4Runtime client and the bmv2 switch backend (``simple_switch_grpc``).

What is underneath, and why
---------------------------
Two maintained Python P4Runtime clients were evaluated (see README "Agent"):

- **p4runtime-shell** (``p4runtime_sh`` 0.0.6): an interactive shell whose entity API
  lives in module globals (one switch per process), pins ``ipython==7.31`` and
  ``jedi==0.17.2``, calls ``sys.exit`` when a connection or PEM file fails, sets no RPC
  deadline, reads arbitration only once, and its write-error iterator never returns
  when a detail is OK (``continue`` without advancing): bmv2 reports one ``p4.v1.Error``
  per update, OK for the updates that went through, so the first partial failure of a
  batch hangs the caller. Not usable under a daemon.
- **finsy** (0.30): asyncio only, a framework that owns the event loop, the reconnect
  policy and the pipeline (the daemon's job here). But its parts are good and
  independent of that: protobuf classes generated for the current protobuf runtime
  (``finsy.proto``), :class:`finsy.P4Schema` (P4Info index and build cookie), the
  per-update status decoding (:class:`finsy.p4client.P4RpcStatus`) and the packet
  metadata codec.

So this module is a small *synchronous* client on ``grpcio`` (the backend interface is
synchronous and one daemon thread owns a switch) built on finsy's protobufs, schema,
cookie, status and packet-metadata decoding. The official ``p4runtime`` PyPI bindings
(1.3-1.6) are generated for protobuf 3 and only run on its pure-Python backend, where
building 30K table-entry updates took 6.6 s and putting them into a request 6.5 s more;
finsy's, on protobuf's upb backend, took 0.3 s and 0.09 s, which the write-rate target
needs. Entry encoding is
:mod:`controller.agent.p4info` (why not finsy's entities: see there).

What the client guarantees
--------------------------
- every unary RPC and every read has a deadline (``timeout``); the stream has none but
  its first arbitration answer does;
- election id from the config (uint128); arbitration updates are read for the whole
  session: when another controller takes over, :attr:`P4RuntimeClient.connected` turns
  False and no further write is sent (:class:`NotPrimary`); a controller whose election
  id is lower than the primary's is refused at connect;
- the stream's inbound side is bounded: packet-ins go to a ring of
  :data:`PACKET_IN_BUFFER`, digests and idle-timeout notifications are counted and
  dropped (uro's programs declare neither), stream errors keep the last few;
- a write is planned by :mod:`controller.agent.plan` (dependency order across
  requests, never a dependent pair in one request) and cut by count and bytes;
- a failed write decodes the ``p4.v1.Error`` list of the gRPC status and names the
  first failing entry (table + match) and how many updates of the request failed;
- state and counters are read with wildcard reads, one Read RPC each;
- a session costs no thread: its stream lives on the process's one event loop and the
  sessions to one server share its channels (:mod:`controller.agent.p4rt_streams`), so a
  daemon holds a thousand sessions with the threads it has for a few.
"""

from __future__ import annotations

import collections
import itertools
import struct
import threading
import time
import queue
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from controller.agent import p4rt_streams, p4wire, plan
from controller.agent.backend import (BackendError, ClockNotSupported, ClockProbe, ElectionIdHeld, Inserts,
                                      NotPrimary, Pipeline, SwitchAddress, SwitchBackend, Unreachable, WriteReport,
                                      need_counter, register_backend)
from controller.agent.diff import Diff
from controller.agent.p4info import P4Info, P4RuntimeError, describe, encode  # noqa: F401 (re-exported)
from controller.memory import paused_gc
from controller.tables.state import Batch, EntryRows, Group, Joined, Member, TableEntry, blocks

try:
    import grpc
    from finsy.p4client import P4RpcStatus
    from finsy.proto import p4r, p4r_grpc
    from google.protobuf.message import DecodeError
except ImportError as e:  # pragma: no cover - depends on the install
    raise ImportError(f"the P4Runtime agent needs the 'agent' extra (pip install -e '.[agent]'): {e}") from e

#: packet-ins kept for :meth:`P4RuntimeClient.packet_in` (older ones are dropped)
PACKET_IN_BUFFER = 1024
#: the fewest rows of an EntryRows block a write encodes from its columns: the columns'
#: encoder costs ~0.12 ms a call, each entry's own ~4 us (a (1024, 32) per-hop entry of 21
#: parameters on this project's 2-core test machine), so below this the objects are cheaper
ROWS_ENCODED_MIN = 48

#: outbound stream messages waiting for gRPC (packet-outs); a full queue is an error
STREAM_OUT_QUEUE = 4096
#: updates per Write request, and encoded bytes per request (gRPC servers accept 4 MiB
#: by default). 1024 updates: large enough that the per-request cost vanishes, small
#: enough that encoding the next request overlaps the switch's work on this one
MAX_BATCH = 1024
MAX_REQUEST_BYTES = 2 << 20
#: the largest message the client accepts (a full read of a big switch)
MAX_RECEIVE_BYTES = 256 << 20
#: gRPC Python's option (``grpc.experimental.ChannelOptions.SingleThreadedUnaryStream``)
#: that reads a Read's answers in the thread that asked, on the unary calls' channel. By
#: default each server-streaming call on a channel without one in flight starts a thread
#: that polls the channel and hands every answer over through a lock: a failure's update
#: reads back each of a thousand ToRs on one shared channel, a thread and its hand-overs
#: per ToR (docs/fabric.md "A thread per read"). Safe here: every Read's answers are only
#: iterated (no future, no cancel).
SINGLE_THREADED_READS = ("SingleThreadedUnaryStream", 1)
#: threads of the process-wide pool that runs every session's Read RPCs (those of one
#: :meth:`P4RuntimeClient.read_state` in flight at once, decoded as they arrive): a daemon
#: with a thousand sessions shares them
READ_POOL_THREADS = 8
_read_pool: ThreadPoolExecutor | None = None
_read_pool_lock = threading.Lock()


def shared_read_pool() -> ThreadPoolExecutor:
    """The process-wide pool of read threads (made on first use, never shut down: idle
    threads cost nothing and every session of the process uses it)."""
    global _read_pool
    with _read_pool_lock:
        if _read_pool is None:
            _read_pool = ThreadPoolExecutor(READ_POOL_THREADS, thread_name_prefix="p4rt-read")
        return _read_pool
#: the slice clock's registers that hold signed values (two's complement, docs/clock.md):
#: the last exchange's offset and path delay
SIGNED_CLOCK_REGISTERS = frozenset({"offset", "delay"})
#: timer frames (bmv2_tests/fabric.py ``timer()``; the contract's ``timer_ethertype``)
TIMER_ETHERTYPE = 0x88B5

_GRPC_DETAILS_KEY = "grpc-status-details-bin"
_UNREACHABLE = ("UNAVAILABLE", "DEADLINE_EXCEEDED", "CANCELLED")

OP_TYPE = {"insert": "INSERT", "modify": "MODIFY", "delete": "DELETE"}


def timer_frame(slice_id: int, ethertype: int = TIMER_ETHERTYPE, flags: int = 0) -> bytes:
    """A slice timer frame: broadcast Ethernet, ``ethertype``, slice:16, flags:16,
    padded to the 60-byte minimum (what the Tofino2 packet generator sends each slice)."""
    if not 0 <= slice_id < 1 << 16:
        raise P4RuntimeError(f"timer slice id {slice_id} does not fit 16 bits")
    return b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x01" + struct.pack("!HHH", ethertype, slice_id, flags) + bytes(42)


def _uint128(v: int, what: str = "election id"):
    if not isinstance(v, int) or not 0 < v < 1 << 128:
        raise BackendError(f"{what} {v!r} is not in 1..2^128-1")
    return p4r.Uint128(high=v >> 64, low=v & ((1 << 64) - 1))


def _read_pem(path, what: str, switch: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise BackendError(f"{switch}: cannot read {what} {path}: {e.strerror}") from None


@dataclass
class StreamStats:
    """What arrived on the stream that the client does not keep (the queue is bounded)."""

    packet_in: int = 0
    packet_in_dropped: int = 0
    digests_dropped: int = 0
    idle_timeouts_dropped: int = 0
    other_dropped: int = 0
    errors: int = 0
    arbitration_updates: int = 0
    last_errors: collections.deque = field(default_factory=lambda: collections.deque(maxlen=8))


class WriteFailed(P4RuntimeError):
    """A Write request failed; ``failed`` lists (op, object, code, message) of every
    update the switch reported, ``report`` what earlier requests applied."""

    def __init__(self, message: str, failed: list, report: WriteReport):
        super().__init__(message)
        self.failed = failed
        self.report = report


def _default_op(client: "P4RuntimeClient", u: plan.Update) -> str:
    """``u``'s operation as written: a default entry always exists, so it is modified."""
    if isinstance(u.obj, TableEntry) and u.obj.is_default:
        if u.op == "delete":
            raise P4RuntimeError(f"{client.name}: {describe(u.obj)}: a default entry cannot be deleted")
        return "modify"
    return u.op


def wire_requests(client: "P4RuntimeClient", stage: list[plan.Update],
                  encoded: dict[int, bytes] | None = None) -> Iterator[tuple[list[plan.Update], bytes]]:
    """``stage`` encoded into WriteRequests of at most ``max_batch`` updates and
    ``max_request_bytes`` bytes, each as its serialized bytes, every update written
    straight to wire bytes (:mod:`controller.agent.p4wire`: no message per entry), a
    delete as its object's identity alone (P4Runtime §9.1 and §9.2: a DELETE names an
    entry by its table, match and priority, a member or group by its id; the rest is not
    read): three quarters of a dead ToR's updates are deletes, and an action, path
    parameters or a member list are most of a whole object's bytes. What the client writes; the
    bytes are :func:`message_requests`'s. ``encoded``: the entities
    of some of the objects already encoded, by ``id`` of the object
    (:meth:`P4RuntimeClient._rows_encoded`)."""
    info = client._need_p4info()
    entity, update, field, keep = info.wire.entity, p4wire.update, p4wire.update_field, info.remember_bytes
    head = p4wire.request_head(client.device_id, (client.election_id >> 64, client.election_id & ((1 << 64) - 1)))
    objs: list[plan.Update] = []
    ups: list[bytes] = []
    size = 0
    for u in stage:
        op = _default_op(client, u)
        if len(objs) >= client.max_batch:
            yield objs, p4wire.request_of(head, ups)
            objs, ups, size = [], [], 0
        ent = encoded.get(id(u.obj)) if encoded else None
        if ent is None:
            try:
                ent = entity(u.obj, op == "delete")
            except p4wire.WireError as e:
                raise P4RuntimeError(f"{client.name}: {describe(u.obj)}: {e}") from None
        ub = update(op, ent)
        n = len(ub) + 4                                        # as the message path counts it
        if objs and size + n > client.max_request_bytes:      # full: this update opens the next request
            yield objs, p4wire.request_of(head, ups)
            objs, ups, size = [], [], 0
        if op != "delete":
            keep(ent, u.obj)
        objs.append(u)
        ups.append(field(ub))
        size += n
    if objs:
        yield objs, p4wire.request_of(head, ups)


def message_requests(client: "P4RuntimeClient", stage: list[plan.Update],
                     encoded: dict[int, bytes] | None = None) -> Iterator[tuple[list[plan.Update], bytes]]:
    """:func:`wire_requests` the way protobuf builds it: a ``p4.v1.Update`` message per
    update, filled field by field (:meth:`P4Info.fill_entity`), the request serialized by
    protobuf (``encoded`` is not used). The reference the wire encoder is tested against,
    and the baseline of `uro bench --suite fabric --large-tors N`."""
    info = client._need_p4info()

    def new():
        return [], p4r.WriteRequest(device_id=client.device_id, election_id=client.election), 0

    objs, req, size = new()
    for u in stage:
        op = _default_op(client, u)
        if len(objs) >= client.max_batch:
            yield objs, req.SerializeToString()
            objs, req, size = new()
        for _ in range(2):
            m = req.updates.add(type=OP_TYPE[op])
            try:
                info.fill_entity(m.entity, u.obj, key_only=op == "delete")
            except P4RuntimeError as e:
                raise P4RuntimeError(f"{client.name}: {e}") from None
            n = m.ByteSize() + 4
            if objs and size + n > client.max_request_bytes:
                del req.updates[-1]          # full: this update opens the next request
                yield objs, req.SerializeToString()
                objs, req, size = new()
                continue
            break
        if op != "delete":
            info.remember(m.entity, u.obj)
        objs.append(u)
        size += n
    if objs:
        yield objs, req.SerializeToString()


class _Inserting:
    """Objects of one request of :meth:`P4RuntimeClient.insert_encoded` as the updates
    :meth:`P4RuntimeClient._write` names in an error (made only when one is named)."""

    def __init__(self, objs: list):
        self.objs = objs

    def __len__(self) -> int:
        return len(self.objs)

    def __getitem__(self, i: int) -> plan.Update:
        return plan.Update("insert", self.objs[i])


#: serialized ``ForwardingPipelineConfig`` fields by (P4Info, device config, cookie): the
#: objects kept beside the bytes, so that an id is never reused while its entry stands
_CONFIG_FIELDS: "collections.OrderedDict[tuple, tuple]" = collections.OrderedDict()
_CONFIG_FIELDS_LOCK = threading.Lock()
_CONFIG_FIELDS_MAX = 4
_SFPC = p4r.SetForwardingPipelineConfigRequest
_SESSIONS = itertools.count(1)   # numbers the clients of this process (P4RuntimeClient.primacy)


def _config_field(info: P4Info, blob: bytes, cookie: int) -> bytes:
    """Field 5 (``config``) of a SetForwardingPipelineConfigRequest, serialized once per
    program: a (1024, 32) ToR's bmv2 JSON is 6.9 MB compacted, and copying it into a
    message and serializing that for each of a thousand switches cost the daemon more than
    sending it."""
    key = (id(info), id(blob), cookie)
    with _CONFIG_FIELDS_LOCK:
        have = _CONFIG_FIELDS.get(key)
        if have is not None and have[0] is info and have[1] is blob:
            _CONFIG_FIELDS.move_to_end(key)
            return have[2]
    cfg = p4r.ForwardingPipelineConfig(p4_device_config=blob)
    cfg.p4info.CopyFrom(info.info)
    cfg.cookie.cookie = cookie
    out = p4wire.field_bytes(5, cfg.SerializeToString())
    with _CONFIG_FIELDS_LOCK:
        _CONFIG_FIELDS[key] = (info, blob, out)
        while len(_CONFIG_FIELDS) > _CONFIG_FIELDS_MAX:
            _CONFIG_FIELDS.popitem(last=False)
    return out


def set_pipeline_request(device_id: int, election, info: P4Info, blob: bytes, cookie: int,
                         action: int = _SFPC.VERIFY_AND_COMMIT) -> bytes:
    """A SetForwardingPipelineConfigRequest's bytes: the fields before ``config`` (1, 3, 4)
    serialized per call, the config once per program (:func:`_config_field`); protobuf
    writes fields in field-number order, so these are its own bytes."""
    head = _SFPC(device_id=device_id, election_id=election, action=action).SerializeToString()
    return head + _config_field(info, blob, cookie)


class P4RuntimeClient:
    """One controller session to one device: primary by election id, for its lifetime.

    ``P4RuntimeClient(address, timeout=...)`` connects (raises :class:`Unreachable`,
    :class:`NotPrimary`); the pipeline is then set (:meth:`set_pipeline`) or adopted
    (:meth:`use_p4info`) before entries are written or read."""

    #: how a stage of updates becomes serialized WriteRequests: :func:`wire_requests`
    #: (:func:`message_requests` builds the same bytes through protobuf messages)
    encode_requests = wire_requests

    def __init__(self, address: str = "127.0.0.1:9559", device_id: int = 0, election_id: int = 1,
                 timeout: float = 10.0, *, name: str | None = None, insecure: bool = True,
                 ca_cert: str | Path | None = None, client_cert: str | Path | None = None,
                 client_key: str | Path | None = None, max_batch: int = MAX_BATCH,
                 max_request_bytes: int = MAX_REQUEST_BYTES):
        self.address = address
        self.name = name or address
        self.device_id = device_id
        self.election_id = election_id
        self.election = _uint128(election_id)
        self.timeout = timeout
        self.max_batch = max_batch
        self.max_request_bytes = max_request_bytes
        self.p4info: P4Info | None = None
        self.stats = StreamStats()
        self._lock = threading.Lock()
        self._arbitrated = threading.Event()
        self._primary = False
        self._primary_id: int | None = None
        self._session = next(_SESSIONS)   # this client among every client of the process
        self._primacies = 0               # times this session became primary
        self._alive = False
        self._closed = False
        self._end_reason = ""
        self._end_code = None             # gRPC status code that ended the stream
        self._packets: collections.deque = collections.deque(maxlen=PACKET_IN_BUFFER)
        self._packet_ready = threading.Condition(self._lock)
        options = [("grpc.max_receive_message_length", MAX_RECEIVE_BYTES),
                   ("grpc.max_send_message_length", MAX_RECEIVE_BYTES),
                   # a write whose updates fail comes back with one error detail per update in
                   # the trailing metadata; gRPC's 16 KiB default dropped the stream instead
                   ("grpc.max_metadata_size", MAX_RECEIVE_BYTES)]
        options += p4rt_streams.RECONNECT_OPTIONS
        sync_options = options + [SINGLE_THREADED_READS]
        if insecure:
            key = (address, True)
            make_sync = lambda: grpc.insecure_channel(address, options=sync_options)   # noqa: E731
            make_aio = lambda: grpc.aio.insecure_channel(address, options=options)     # noqa: E731
        else:
            pems = (_read_pem(ca_cert, "CA certificate", self.name) if ca_cert else None,
                    _read_pem(client_key, "client key", self.name) if client_key else None,
                    _read_pem(client_cert, "client certificate", self.name) if client_cert else None)
            key = (address, False, *pems)

            def creds():
                return grpc.ssl_channel_credentials(root_certificates=pems[0], private_key=pems[1],
                                                    certificate_chain=pems[2])
            make_sync = lambda: grpc.secure_channel(address, creds(), options=sync_options)  # noqa: E731
            make_aio = lambda: grpc.aio.secure_channel(address, creds(), options=options)  # noqa: E731
        # the unary calls go on the channel every session to this address shares; the
        # stream lives on the process's one event loop (controller.agent.p4rt_streams)
        self._key = key
        self.channel = p4rt_streams.sync_channel(key, make_sync)
        self._stream = p4rt_streams.Stream(key, make_aio, self._on_message, self._stream_ended, STREAM_OUT_QUEUE)
        self._alive = True                # until the stream ends (its reader may end it at once)
        try:
            if not self._stream.open(timeout):
                hint = "" if insecure else " (TLS: check the CA and the switch's certificate name)"
                raise Unreachable(f"{self.name}: no P4Runtime server at {address} within {timeout:g}s{hint}")
            self.stub = p4r_grpc.P4RuntimeStub(self.channel)
            # Write with the request as bytes already serialized (p4wire): no serializer
            self._write_raw = self.channel.unary_unary("/p4.v1.P4Runtime/Write", request_serializer=None,
                                                       response_deserializer=p4r.WriteResponse.FromString)
            # Read with each answer as bytes (read_state_beside looks entities up by them)
            self._read_bytes = self.channel.unary_stream("/p4.v1.P4Runtime/Read",
                                                         request_serializer=p4r.ReadRequest.SerializeToString,
                                                         response_deserializer=None)
            self._set_pipeline_raw = self.channel.unary_unary(
                "/p4.v1.P4Runtime/SetForwardingPipelineConfig", request_serializer=None,
                response_deserializer=p4r.SetForwardingPipelineConfigResponse.FromString)
            self._arbitrate()
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_address(cls, a: SwitchAddress, **kw) -> "P4RuntimeClient":
        return cls(a.address, a.device_id, a.election_id, a.timeout_s, name=a.name, insecure=a.insecure,
                   ca_cert=a.ca_cert, client_cert=a.client_cert, client_key=a.client_key, **kw)

    # ---- stream and arbitration ----------------------------------------------------------
    def _arbitrate(self) -> None:
        req = p4r.StreamMessageRequest()
        req.arbitration.device_id = self.device_id
        req.arbitration.election_id.CopyFrom(self.election)
        self._send(req)
        if not self._arbitrated.wait(self.timeout):
            raise Unreachable(f"{self.name}: no arbitration answer from {self.address} within {self.timeout:g}s")
        with self._lock:
            if not self._alive and self._end_code == grpc.StatusCode.INVALID_ARGUMENT and self._primary_id is None:
                # P4Runtime §5.3: an election id another controller holds is refused by
                # ending the stream with INVALID_ARGUMENT (bmv2: "Election id already exists")
                raise ElectionIdHeld(f"{self.name}: the switch refused election id {self.election_id} "
                                     f"({self._end_reason}): another controller uses it; this one does not write")
            if not self._alive:
                raise Unreachable(f"{self.name}: the stream to {self.address} ended: {self._end_reason}")
            if not self._primary:
                raise NotPrimary(f"{self.name}: another controller is primary (election id {self._primary_id}, "
                                 f"ours is {self.election_id}); this one does not write")

    def _send(self, msg) -> None:
        """Hand ``msg`` to the stream (it waits for gRPC on the streams' event loop)."""
        try:
            self._stream.send(msg)
        except p4rt_streams.StreamClosed:
            raise Unreachable(f"{self.name}: the session to {self.address} is down ({self._end_reason})") from None
        except queue.Full:
            raise P4RuntimeError(f"{self.name}: the stream to the switch is congested "
                                 f"({STREAM_OUT_QUEUE} messages waiting)") from None

    def _stream_ended(self, reason: str, code) -> None:
        """The stream ended (on the streams' event loop): no longer primary, waiters woken."""
        with self._lock:
            self._alive = False
            self._primary = False
            self._end_reason = "closed by this controller" if self._closed else reason
            self._end_code = None if self._closed else code
            self._packet_ready.notify_all()
        self._arbitrated.set()

    def _on_message(self, msg) -> None:
        kind = msg.WhichOneof("update")
        st = self.stats
        if kind == "arbitration":
            a = msg.arbitration
            with self._lock:
                st.arbitration_updates += 1
                if a.status.code == 0 and not self._primary:
                    self._primacies += 1
                self._primary = a.status.code == 0
                self._primary_id = (a.election_id.high << 64) | a.election_id.low
            self._arbitrated.set()
        elif kind == "packet":
            arrived = time.monotonic_ns()
            with self._lock:
                st.packet_in += 1
                if len(self._packets) == self._packets.maxlen:
                    st.packet_in_dropped += 1
                self._packets.append((arrived, msg.packet))
                self._packet_ready.notify_all()
        elif kind == "digest":
            st.digests_dropped += 1
        elif kind == "idle_timeout_notification":
            st.idle_timeouts_dropped += 1
        elif kind == "error":
            st.errors += 1
            st.last_errors.append(f"{msg.error.canonical_code}: {msg.error.message}")
        else:
            st.other_dropped += 1

    @property
    def connected(self) -> bool:
        """The stream is up and this controller is primary."""
        with self._lock:
            return self._alive and self._primary

    @property
    def primacy(self) -> tuple[int, int] | None:
        """(this session, the times it became primary) while the stream is up and this
        controller primary, else None: equal tokens mean primary throughout between them
        (:meth:`SwitchBackend.session_epoch`)."""
        with self._lock:
            return (self._session, self._primacies) if self._alive and self._primary else None

    @property
    def primary_election_id(self) -> int | None:
        """The election id the switch last announced as primary."""
        return self._primary_id

    def _check_primary(self) -> None:
        with self._lock:
            alive, primary, reason, pid = self._alive, self._primary, self._end_reason, self._primary_id
        if not alive:
            raise Unreachable(f"{self.name}: the session to {self.address} is down ({reason})")
        if not primary:
            raise NotPrimary(f"{self.name}: no longer primary (controller with election id {pid} took over); "
                             "not writing")

    def close(self) -> bool:
        """End the session (idempotent): the stream first, so the switch sees us leave
        (:meth:`p4rt_streams.Stream.close`). True when the switch acknowledged it by ending
        the stream: it holds the session's election id no more, a new session may take it
        at once; False when it did not answer in time (or the session was closed before)."""
        with self._lock:
            if self._closed:
                return False
            self._closed = True
            self._primary = False
        stream = getattr(self, "_stream", None)
        let_go = stream.close() if stream is not None else False
        if getattr(self, "channel", None) is not None:
            p4rt_streams.release_sync_channel(self._key)
        return let_go

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- RPC plumbing --------------------------------------------------------------------
    def _rpc_error(self, e: "grpc.RpcError", what: str) -> BackendError:
        code = e.code()
        text = f"{self.name}: {what} failed: {code.name}: {e.details()}"
        if code == grpc.StatusCode.PERMISSION_DENIED:
            return NotPrimary(text)
        if code.name in _UNREACHABLE:
            return Unreachable(text)
        return P4RuntimeError(text)

    def _rpc_kw(self, timeout: float | None = None) -> dict:
        """A unary call's deadline, and whether it waits for its channel.

        The unary calls go on a channel every session to the address shares (gRPC also
        shares the connection underneath). A connect attempt that failed earlier, e.g. while
        the switch restarted, leaves that channel backing off, and a call made then fails at
        once with UNAVAILABLE although the switch is up again. While this session's stream
        is up the server is there, so the call waits for the channel within its deadline
        (``wait_for_ready``); once the stream has ended, a call fails at once (UNAVAILABLE),
        so a dead switch is reported without waiting for the deadline."""
        return {"timeout": timeout or self.timeout, "wait_for_ready": self._alive}

    def _call(self, fn, req, what: str, timeout: float | None = None):
        try:
            return fn(req, **self._rpc_kw(timeout))
        except grpc.RpcError as e:
            raise self._rpc_error(e, what) from None

    def _read(self, req, what: str) -> list:
        """All entities a Read answers (one RPC, deadline over the whole stream)."""
        return self._read_with(self.stub.Read, lambda resp: resp.entities, req, what)

    def _read_entities(self, req, what: str) -> list[bytes]:
        """:meth:`_read`, each entity as its bytes (:func:`p4wire.read_entities`)."""
        return self._read_with(self._read_bytes, p4wire.read_entities, req, what)

    def _read_with(self, call, entities, req, what: str) -> list:
        """The ``entities(answer)`` of every answer of the Read ``call`` makes of ``req``."""
        req.device_id = self.device_id
        out = []
        try:
            for resp in call(req, **self._rpc_kw()):
                out += entities(resp)
        except grpc.RpcError as e:
            raise self._rpc_error(e, what) from None
        except DecodeError as e:
            raise P4RuntimeError(f"{self.name}: {what}: the answer does not parse: {e}") from None
        return out

    # ---- pipeline ------------------------------------------------------------------------
    def pipeline_cookie(self) -> int | None:
        """The cookie of the pipeline the device runs (None: no pipeline; 0: one set without
        a cookie)."""
        req = p4r.GetForwardingPipelineConfigRequest(
            device_id=self.device_id, response_type=p4r.GetForwardingPipelineConfigRequest.COOKIE_ONLY)
        try:
            resp = self.stub.GetForwardingPipelineConfig(req, **self._rpc_kw())
        except grpc.RpcError as e:
            if e.code() == grpc.StatusCode.FAILED_PRECONDITION:  # "No forwarding pipeline config set"
                return None
            raise self._rpc_error(e, "get pipeline cookie") from None
        return resp.config.cookie.cookie if resp.config.HasField("cookie") else 0

    def get_p4info(self) -> P4Info:
        """The P4Info of the pipeline the device runs (its own view of the program)."""
        req = p4r.GetForwardingPipelineConfigRequest(
            device_id=self.device_id, response_type=p4r.GetForwardingPipelineConfigRequest.P4INFO_AND_COOKIE)
        resp = self._call(self.stub.GetForwardingPipelineConfig, req, "get pipeline")
        return P4Info(resp.config.p4info)

    def set_pipeline(self, p4info: str | Path | P4Info, device_config: str | Path | bytes,
                     cookie: int | None = None) -> None:
        """Load a program (VERIFY_AND_COMMIT; wipes every entry). ``cookie`` defaults to the
        build's content hash (:attr:`P4Info.cookie`)."""
        self._check_primary()
        blob = device_config if isinstance(device_config, bytes) else Path(device_config).read_bytes()
        info = p4info if isinstance(p4info, P4Info) else P4Info.load(p4info, blob)
        if info.schema.p4blob == b"":
            info = P4Info(info.info, blob)
        req = set_pipeline_request(self.device_id, self.election, info, blob,
                                   info.cookie if cookie is None else cookie)
        # loading a program takes longer than an entry write: at least 30 s
        self._call(self._set_pipeline_raw, req, "set pipeline", timeout=max(self.timeout, 30.0))
        self.p4info = info

    def use_p4info(self, info: P4Info) -> None:
        """Adopt the program the device already runs (same build) without reloading it."""
        self.p4info = info

    def check_contract(self, contract: dict) -> None:
        self._need_p4info().check_contract(contract)

    def _need_p4info(self) -> P4Info:
        if self.p4info is None:
            raise P4RuntimeError(f"{self.name}: no pipeline: call set_pipeline first")
        return self.p4info

    # ---- writes --------------------------------------------------------------------------
    def _requests(self, stage: list[plan.Update], encoded: dict[int, bytes] | None = None
                  ) -> Iterator[tuple[list[plan.Update], bytes]]:
        """``stage`` as serialized WriteRequests (:attr:`encode_requests`)."""
        return self.encode_requests(stage, encoded)

    def _rows_encoded(self, diff: Diff) -> dict[int, bytes] | None:
        """The entities of the inserted and modified entries of ``diff`` that are
        :class:`EntryRows` blocks, encoded from their columns
        (:meth:`p4wire.WireCodec.rows`), by ``id`` of each entry's object (made here: the
        write names them in its reports and errors, the decode memo keeps them): a
        failure's changed cells at (1024, 32) are tens to hundreds of entries of 21
        parameters per ToR, each encoded alone otherwise. None where there is none (a
        block of fewer than :data:`ROWS_ENCODED_MIN` rows is encoded object by object), or
        where the columns hold a value the encoder refuses (each object is then encoded
        alone, and the error names it)."""
        found = [b for part in (diff.insert.entries, diff.modify.entries) for b in blocks(part)
                 if type(b) is EntryRows and len(b) >= ROWS_ENCODED_MIN]
        if not found:
            return None
        rows = self._need_p4info().wire.rows
        out: dict[int, bytes] = {}
        try:
            for b in found:
                out.update(zip(map(id, b.entries()), rows(b)))
        except p4wire.WireError:
            return None
        return out

    def apply(self, diff: Diff, progress: Callable[[int], object] | None = None) -> WriteReport:
        """Write ``diff`` in dependency-ordered stages (:mod:`controller.agent.plan`).

        A write of more updates than one request holds (``max_batch``: ``uro agent push``
        writing a whole generation in one call) has its requests encoded by a helper thread
        while the switch works on the previous one (encoding is most of the client's time;
        the gRPC call releases the GIL). A smaller one -- a request per stage; every write
        of the daemon, which cuts its writes into chunks of a request
        (:func:`controller.daemon.switch.chunks`) -- is encoded in the caller's thread: a
        thread's start waits for the GIL, and a network-wide update writes a hundred
        switches at once from its pool (docs/fabric.md "A dead ToR's delta"). An
        update the P4Info refuses stops the write before the request it would be in.
        Raises :class:`WriteFailed` naming the first failing entry; what earlier requests
        wrote stays (the caller re-reads and re-diffs)."""
        t0 = time.perf_counter()
        rep = WriteReport()
        stages = plan.stages(diff)
        if not stages:
            return rep
        self._check_primary()
        self._need_p4info()
        encoded = self._rows_encoded(diff)
        if len(diff) <= self.max_batch:
            # at most max_batch updates (a request per stage): encoded here, no helper thread
            # to start and hand over to (each thread start and wake-up waits for the GIL)
            for stage in stages:
                for objs, req in self._requests(stage, encoded):
                    self._write(objs, req, rep)
                    self._count(objs, rep)
                    if progress is not None:
                        progress(len(objs))
            rep.seconds = time.perf_counter() - t0
            return rep
        ready: queue.Queue = queue.Queue(maxsize=2)
        stop = threading.Event()

        def hand_over(item) -> bool:
            """Queue ``item`` for the writer unless it stopped (False then)."""
            while not stop.is_set():
                try:
                    ready.put(item, timeout=0.1)
                    return True
                except queue.Full:
                    pass
            return False

        def encoder() -> None:
            try:
                for stage in stages:
                    for item in self._requests(stage, encoded):
                        if not hand_over(item):
                            return
                hand_over(None)
            except BaseException as e:  # handed to the writer, raised there
                hand_over(e)

        worker = threading.Thread(target=encoder, name=f"p4rt-encode-{self.name}", daemon=True)
        worker.start()
        try:
            while (item := ready.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                objs, req = item
                self._write(objs, req, rep)
                self._count(objs, rep)
                if progress is not None:
                    progress(len(objs))
        finally:
            stop.set()
            worker.join()
        rep.seconds = time.perf_counter() - t0
        return rep

    @staticmethod
    def _count(objs: list[plan.Update], rep: WriteReport) -> None:
        for u in objs:
            if u.op == "delete":
                rep.deleted += 1
            elif u.op == "insert" and not (isinstance(u.obj, TableEntry) and u.obj.is_default):
                rep.inserted += 1
            else:
                rep.modified += 1
        rep.requests += 1

    def _write(self, objs: list[plan.Update], req: bytes, rep: WriteReport) -> None:
        """One WriteRequest, sent as the bytes :meth:`_requests` made (no message parsed or
        serialized again on the way)."""
        self._check_primary()
        try:
            self._write_raw(req, **self._rpc_kw())
        except grpc.RpcError as e:
            n = len(objs)
            code = e.code()
            if code != grpc.StatusCode.UNKNOWN:
                raise self._rpc_error(e, f"write of {n} updates") from None
            failed = []
            for key, value in e.trailing_metadata() or ():
                if key == _GRPC_DETAILS_KEY:
                    for idx, err in sorted(P4RpcStatus.from_bytes(value).details.items()):
                        if idx < len(objs):
                            failed.append((objs[idx].op, objs[idx].obj, err.canonical_code.name, err.message))
            if not failed:
                raise WriteFailed(f"{self.name}: write of {n} updates failed: UNKNOWN: {e.details()}",
                                  [], rep) from None
            op, obj, code_name, message = failed[0]
            more = f" (and {len(failed) - 1} more of the {n} updates of this request)" if len(failed) > 1 else ""
            raise WriteFailed(f"{self.name}: {op} of {describe(obj)} failed: {code_name}: {message}{more}",
                              failed, rep) from None

    def write(self, batch: Batch | Iterable[TableEntry], update: str = "INSERT") -> int:
        """Write a whole batch with one operation (``INSERT``/``MODIFY``/``DELETE``; default
        entries are always MODIFY), in dependency order. Returns the number of updates."""
        if not isinstance(batch, Batch):
            batch = Batch(entries=list(batch))
        op = update.lower()
        if op not in OP_TYPE:
            raise P4RuntimeError(f"unknown update type {update!r}")
        defaults = [e for e in batch.entries if e.is_default]
        rest = Batch(batch.members, batch.groups, [e for e in batch.entries if not e.is_default])
        d = Diff(modify=Batch(entries=defaults))
        setattr(d, op, Batch(rest.members, rest.groups, rest.entries + (defaults if op == "modify" else [])))
        return self.apply(d).updates

    # ---- reads ---------------------------------------------------------------------------
    def read_state(self, tables: Iterable[str] | None = None) -> Batch:
        """Entries (default entries included), members and groups of the contract's tables
        (``tables``: full names), in the canonical form, in the order of the tables, then
        of their profiles' members and groups.

        One Read RPC per table and per profile's members and groups, :data:`READ_POOL_THREADS`
        of them at a time, each decoded as it arrives: the switch answers them side by
        side (bmv2's server reads tables concurrently) while another one is decoded. A
        (108, 6) ToR's 14.7K objects: 0.10-0.20 s in one RPC, 0.06-0.08 s this way."""
        info = self._need_p4info()
        if tables is None:
            info.new_read()       # the memo keeps what the switch holds (P4Info.new_read)
        return self._read_decoded(self._state_requests(tables), "read state")

    def _state_requests(self, tables: Iterable[str] | None = None) -> list:
        """The Read requests of :meth:`read_state`: one per table (its entries and its
        default entry) and per profile's members and groups."""
        info = self._need_p4info()
        names = list(tables) if tables is not None else info.contract_tables()
        reqs = []
        for n in names:
            req = p4r.ReadRequest()
            tid = info.table(n).id
            req.entities.add().table_entry.table_id = tid
            d = req.entities.add().table_entry
            d.table_id, d.is_default_action = tid, True
            reqs.append(req)
        profiles = sorted({info.table(n).action_profile.name for n in names if info.table(n).action_profile})
        for p in profiles:
            pid = info.profile(p).id
            for kind in ("action_profile_member", "action_profile_group"):
                req = p4r.ReadRequest()
                getattr(req.entities.add(), kind).action_profile_id = pid
                reqs.append(req)
        return reqs

    # ---- a generation into an empty slot ---------------------------------------------------
    def encode_inserts(self, batch: Batch) -> Inserts:
        """:meth:`SwitchBackend.encode_inserts`: each object's ``Entity`` as wire bytes
        (:mod:`controller.agent.p4wire`), the bytes the switch answers a read of it with."""
        if any(type(b) is EntryRows and not b.made() for b in blocks(batch.entries)):
            # (the entries' columns kept: joined, not copied into a list)
            return self._encoded(Joined([*batch.members, *batch.groups], batch.entries))
        return self._encoded([*batch.members, *batch.groups, *batch.entries])

    def _encoded(self, objs) -> Inserts:
        """``objs`` as :class:`Inserts`: each of its blocks
        (:func:`~controller.tables.state.blocks`) encoded, an :class:`EntryRows` from its
        columns (:meth:`p4wire.WireCodec.rows`), any other object by object."""
        info = self._need_p4info()
        entity, rows = info.wire.entity, info.wire.rows
        try:
            enc: list[bytes] = []
            for b in blocks(objs):
                enc += rows(b) if type(b) is EntryRows and not b.made() else [entity(x) for x in b]
            return Inserts(objs, enc)
        except p4wire.WireError:
            for x in objs:                    # (again, one by one: the message names the object)
                try:
                    entity(x)
                except p4wire.WireError as e:
                    raise P4RuntimeError(f"{self.name}: {describe(x)}: {e}") from None
            raise

    def encode_inserts_keyed(self, inserts: Inserts, objects: Sequence, key: str, value: int) -> Inserts:
        """:meth:`SwitchBackend.encode_inserts_keyed`: each entity of a table entry of an
        action is its counterpart's bytes in ``inserts`` with the key's match field patched
        (:meth:`p4wire.WireCodec.entities_keyed`), its object not asked for; the others
        encoded. Where ``objects`` holds entries as columns (:class:`EntryRows` blocks, as
        long as the blocks of ``inserts``), those are encoded from the columns (cheaper than
        patching) and the other blocks patched. The bytes :meth:`encode_inserts` gives,
        byte for byte."""
        if inserts.encoded is not None and len(objects) == len(inserts):
            info = self._need_p4info()
            new, old = blocks(objects), blocks(inserts.objects)
            try:
                if not any(type(b) is EntryRows for b in new):
                    return Inserts(objects, info.wire.entities_keyed(inserts.encoded, inserts.objects, key, value,
                                                                     objects))
                if [len(b) for b in new] == [len(b) for b in old]:
                    # block by block: columns encoded (cheaper than patching), the rest patched
                    out: list[bytes] = []
                    at = 0
                    for was, now in zip(old, new):
                        n = len(now)
                        out += info.wire.rows(now) if type(now) is EntryRows and not now.made() else \
                            info.wire.entities_keyed(inserts.encoded[at:at + n], was, key, value, now)
                        at += n
                    return Inserts(objects, out)
            except p4wire.WireError:
                pass                                      # (encoded below: raises naming the object)
        if any(type(b) is EntryRows for b in blocks(objects)):
            return self._encoded(objects)
        return Inserts(objects, self.encode_inserts(Inserts(list(objects)).batch()).encoded)

    def insert_encoded(self, inserts: Inserts) -> WriteReport:
        """:meth:`SwitchBackend.insert_encoded`: the encoded entities joined into WriteRequests
        cut as :func:`wire_requests` cuts them (``max_batch`` updates, ``max_request_bytes``;
        :func:`p4wire.insert_requests`), nothing encoded again; the decode memo is not
        filled (the verify compares bytes)."""
        t0 = time.perf_counter()
        rep = WriteReport()
        if not len(inserts):
            return rep
        self._check_primary()
        self._need_p4info()
        head = p4wire.request_head(self.device_id, (self.election_id >> 64, self.election_id & ((1 << 64) - 1)))
        objs = inserts.objects
        for start, stop, req in p4wire.insert_requests(head, inserts.encoded, self.max_batch, self.max_request_bytes):
            self._write(_Inserting(objs[start:stop]), req, rep)
            rep.inserted += stop - start
            rep.requests += 1
        rep.seconds = time.perf_counter() - t0
        return rep

    def read_state_beside(self, inserts: Inserts) -> tuple[list[int], Batch]:
        """:meth:`SwitchBackend.read_state_beside`: the whole switch read, each entity's bytes
        looked up among the bytes written; only the entities not found are decoded (a
        generation read back as written decodes nothing of it)."""
        info = self._need_p4info()
        where = {b: i for i, b in enumerate(inserts.encoded)}
        with self._lock:
            if self._closed:
                raise Unreachable(f"{self.name}: the session is closed")
        reqs = self._state_requests()
        parts = list(shared_read_pool().map(lambda r: self._read_entities(r, "read state"), reqs))
        rest = Batch()
        by_kind = {TableEntry: rest.entries, Member: rest.members, Group: rest.groups}
        pop = where.pop
        for ents in parts:
            for ent in ents:
                if pop(ent, None) is None:
                    obj = info.decode_entity_bytes(ent)
                    if obj is not None:
                        by_kind[type(obj)].append(obj)
        return sorted(where.values()), rest

    #: entities asked per Read RPC of :meth:`read_objects` (the RPCs go side by side)
    READ_BY_KEY = 1024

    def read_objects(self, objects: Batch) -> Batch:
        """The objects of ``objects`` the switch holds (:meth:`SwitchBackend.read_objects`),
        each asked by its identity: bmv2's server finds an entry by its match key and a
        member or group by its id, so reading the 2.6-3.1K objects a failure's update wrote
        on a (108, 6) ToR takes about half the time of reading its 14.7K (docs/agent.md
        "Reads by key"). Objects the switch does not hold are not in its answer."""
        info = self._need_p4info()
        key = info.entity_bytes
        try:
            ents = [key(obj, True) for obj in (*objects.members, *objects.groups, *objects.entries)]
        except P4RuntimeError as e:
            raise P4RuntimeError(f"{self.name}: {e}") from None
        # each request parsed from its bytes (:mod:`p4wire`: the keys encoded without a message each)
        reqs = [p4r.ReadRequest.FromString(p4wire.read_request(ents[i:i + self.READ_BY_KEY]))
                for i in range(0, len(ents), self.READ_BY_KEY)]
        return self._read_decoded(reqs, "read by key") if reqs else Batch()

    def _read_decoded(self, reqs: list, what: str) -> Batch:
        """The answers of ``reqs``, :data:`READ_POOL_THREADS` RPCs at a time, each decoded as it
        arrives, as one batch in the order of the requests."""
        info = self._need_p4info()

        def one(req) -> list:        # (each entity as its bytes: found in the memo, or parsed)
            return list(map(info.decode_entity_bytes, self._read_entities(req, what)))
        with self._lock:
            if self._closed:
                raise Unreachable(f"{self.name}: the session is closed")
        parts = [one(reqs[0])] if len(reqs) == 1 else list(shared_read_pool().map(one, reqs))
        out = Batch()
        by_kind = {TableEntry: out.entries, Member: out.members, Group: out.groups}
        for objs in parts:
            for obj in objs:
                if obj is not None:
                    by_kind[type(obj)].append(obj)
        return out

    def read_table(self, name: str) -> list[TableEntry]:
        """The entries of one table (default entry included), canonical form."""
        return self.read_state([name]).entries

    def read_counters(self, contract: dict, counter: str | None = None):
        """Named cells of contract counters, in one wildcard Read RPC.

        ``counter`` given: ``{cell: packets}`` of that counter (e.g. ``"drops"``);
        else ``{counter: {cell: packets}}`` of every contract counter."""
        info = self._need_p4info()
        wanted = {counter: contract["counters"][counter]} if counter is not None else contract["counters"]
        by_id = {}
        req = p4r.ReadRequest()
        for short, c in wanted.items():
            pc = info.counter(c["name"])
            by_id[pc.id] = (short, c["indices"])
            req.entities.add().counter_entry.counter_id = pc.id
        out = {short: {cell: 0 for cell in cells} for short, cells in by_id.values()}
        for ent in self._read(req, "read counters"):
            ce = ent.counter_entry
            short, cells = by_id[ce.counter_id]
            if ce.index.index < len(cells):
                out[short][cells[ce.index.index]] = ce.data.packet_count
        return out[counter] if counter is not None else out

    def read_counter(self, name: str, index: int) -> tuple[int, int]:
        """(packets, bytes) of one counter cell (full counter name)."""
        pc = self._need_p4info().counter(name)
        req = p4r.ReadRequest()
        ce = req.entities.add().counter_entry
        ce.counter_id = pc.id
        ce.index.index = index
        for ent in self._read(req, f"read of {name}[{index}]"):
            d = ent.counter_entry.data
            return d.packet_count, d.byte_count
        raise P4RuntimeError(f"{self.name}: no answer for {name}[{index}]")

    # ---- packet I/O ----------------------------------------------------------------------
    def packet_out(self, payload: bytes, metadata: dict[str, int] | None = None) -> None:
        """Send ``payload`` to the switch's CPU port on the stream. ``metadata`` by name of
        the P4Info's ``packet_out`` controller header (None: every field 0); a program
        without that header takes the bare payload."""
        msg = p4r.StreamMessageRequest()
        msg.packet.payload = bytes(payload)
        info = self._need_p4info()
        msg.packet.metadata.extend(info.packet_out_metadata(metadata))
        self._check_primary()
        self._send(msg)

    def send_timer(self, slice_id: int, ethertype: int = TIMER_ETHERTYPE,
                   metadata: dict[str, int] | None = None, flags: int = 0) -> None:
        self.packet_out(timer_frame(slice_id, ethertype, flags), metadata)

    def packet_in(self, timeout: float = 0.0):
        """The oldest buffered PacketIn (a ``p4.v1.PacketIn``), waiting up to ``timeout``;
        None when there is none."""
        got = self.packet_in_timed(timeout)
        return None if got is None else got[1]

    def packet_in_timed(self, timeout: float = 0.0):
        """(when it arrived on the stream, :func:`time.monotonic_ns`; the PacketIn) of the
        oldest buffered PacketIn, waiting up to ``timeout``; None when there is none."""
        end = time.monotonic() + timeout
        with self._lock:
            while not self._packets:
                left = end - time.monotonic()
                if left <= 0 or not self._alive:
                    return None
                self._packet_ready.wait(left)
            return self._packets.popleft()


def bmv2_pipeline(p4info: str | Path, device_config: str | Path, contract: dict | str | Path,
                  program: str | None = None) -> Pipeline:
    """A :class:`Pipeline` from ``p4c-bm2-ss`` outputs; the cookie is the build's content
    hash (SHA-256 of P4Info and bmv2 JSON, finsy's :attr:`P4Schema.p4cookie`)."""
    import json

    if not isinstance(contract, dict):
        try:
            contract = json.loads(Path(contract).read_text())
        except (OSError, ValueError) as e:
            raise BackendError(f"cannot read pipeline contract {contract}: {e}") from None
    info = P4Info.load(p4info, device_config)
    return Pipeline(target="bmv2", program=program or contract.get("program", "?"), contract=contract,
                    files={"p4info": Path(p4info), "device_config": Path(device_config)},
                    cookie=info.cookie or 1)


def compact_device_config(blob: bytes) -> bytes:
    """A bmv2 JSON without the whitespace ``p4c-bm2-ss`` indents it with: the same JSON
    value (keys in their order, strings as they are), 3.9x fewer bytes for a (108, 6) ToR
    (7.3 -> 1.9 MB), what each pipeline load sends and the switch parses; a fabric's start
    loads it on every switch. A blob that is not UTF-8 JSON is returned as it is (the
    switch is the judge of what it accepts).

    The cyclic collector is paused while the JSON value lives (:func:`paused_gc`): its
    objects are acyclic and freed by their counts, and a daemon makes it after its checks,
    with a heap of ~1M tracked objects that the collections a (108, 6) ToR's JSON starts
    walked: 0.74 s of the thread's CPU against 0.05 s paused, before any switch's first
    pipeline load could go out."""
    import json

    with paused_gc():
        try:
            value = json.loads(blob)
        except ValueError:                 # (UnicodeDecodeError is one)
            return blob
        out = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
        del value
    return out if len(out) < len(blob) else blob


#: each program's codec (P4Info) and the device config its loads send
#: (:func:`compact_device_config`), shared by the sessions of every switch that runs it
_PROGRAMS: dict[tuple, tuple[P4Info, bytes]] = {}
_PROGRAMS_LOCK = threading.Lock()
#: programs loaded at once by this process: a load's request holds the device config
#: (a (1024, 32) ToR's bmv2 JSON, compacted) and gRPC its serialized copy until it is
#: sent, so a daemon loading 16 switches at once held ~0.5 GB for them
PIPELINE_LOADS_AT_ONCE = 4
_LOADS = threading.BoundedSemaphore(PIPELINE_LOADS_AT_ONCE)


def _program(pipeline: Pipeline, name: str) -> tuple[P4Info, bytes]:
    """The P4Info of ``pipeline`` and the device config its loads send, both made once per
    program build (its cookie) and shared by every switch's session.

    The P4Info is loaded and checked against the contract once (:attr:`P4Info.shared`): a
    P4Info and its decode memo per switch cost a (108, 6) daemon 4 MB per switch (the bmv2
    JSON, the schema, the memo of every object written and read), a (1024, 32) one far
    more. The device config is the bytes the codec read, compacted
    (:func:`compact_device_config`)."""
    try:
        key = (pipeline.target, pipeline.program, pipeline.cookie, str(pipeline.files["p4info"]),
               str(pipeline.files["device_config"]))
    except KeyError as e:
        raise BackendError(f"{name}: pipeline {pipeline.program!r} has no {e} file") from None
    with _PROGRAMS_LOCK:
        have = _PROGRAMS.get(key)
        if have is None:
            info = P4Info.load(pipeline.files["p4info"], pipeline.files["device_config"])
            info.check_contract(pipeline.contract)
            info.shared = True
            have = _PROGRAMS[key] = (info, compact_device_config(
                info.schema.p4blob or Path(pipeline.files["device_config"]).read_bytes()))
        return have


@register_backend
class P4RuntimeBackend(SwitchBackend):
    """:class:`SwitchBackend` for bmv2 ``simple_switch_grpc`` over P4Runtime.

    ``timer_metadata``: the packet-out metadata of timer frames when the program declares
    a ``packet_out`` controller header (default: every field 0)."""

    target = "bmv2"
    reads_by_key = True
    #: gRPC stubs are thread-safe and every ``apply`` builds its own requests: a Write may
    #: go out while a Read of the same session streams back (the server orders them)
    concurrent_apply = True

    @classmethod
    def pipeline(cls, program: str, contract: dict, files: dict[str, Path]) -> Pipeline:
        """bmv2: ``p4info`` and ``device_config``; the cookie is :func:`bmv2_pipeline`'s."""
        missing = [k for k in ("p4info", "device_config") if k not in files]
        if missing:
            raise BackendError(f"program {program!r}: no {missing[0]} file (bmv2 needs p4info and device_config)")
        extra = sorted(set(files) - {"p4info", "device_config"})
        if extra:
            raise BackendError(f"program {program!r}: {extra[0]!r} is not a bmv2 program file "
                               "(p4info, device_config)")
        return bmv2_pipeline(files["p4info"], files["device_config"], contract, program)

    @classmethod
    def check_pipeline(cls, pipeline: Pipeline) -> None:
        """The P4Info names every contract table, key, action, parameter and counter with
        the contract's widths."""
        P4Info.load(pipeline.files["p4info"], pipeline.files["device_config"]).check_contract(pipeline.contract)

    def __init__(self, address: SwitchAddress, *, timer_metadata: dict[str, int] | None = None,
                 max_batch: int = MAX_BATCH, max_request_bytes: int = MAX_REQUEST_BYTES):
        super().__init__(address)
        self.timer_metadata = timer_metadata
        self.max_batch = max_batch
        self.max_request_bytes = max_request_bytes
        self.client: P4RuntimeClient | None = None
        self.pipeline: Pipeline | None = None
        self._clock_lock = threading.Lock()       # one probe at a time: its PacketIn is its own
        self._nonce = time.monotonic_ns() & 0xFFFFFFFF

    # ---- session ---------------------------------------------------------------------
    def connect(self) -> None:
        self.close()
        self.client = P4RuntimeClient.from_address(self.address, max_batch=self.max_batch,
                                                   max_request_bytes=self.max_request_bytes)

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None

    @property
    def connected(self) -> bool:
        return self.client is not None and self.client.connected

    def _c(self) -> P4RuntimeClient:
        if self.client is None:
            raise Unreachable(f"{self.address.name}: not connected")
        return self.client

    def session_epoch(self) -> tuple[int, int] | None:
        return None if self.client is None else self.client.primacy

    # ---- pipeline --------------------------------------------------------------------
    def pipeline_cookie(self) -> int | None:
        return self._c().pipeline_cookie()

    def set_pipeline(self, pipeline: Pipeline, force: bool = False) -> bool:
        """Make the switch run ``pipeline``; True if it was loaded (entries wiped), False
        if the switch already ran the same cookie and was adopted as it is (entries kept).

        The contract is checked first against the pipeline's P4Info and, when adopting,
        against the P4Info the switch reports, so nothing is written to a mismatch."""
        c = self._c()
        info, config = _program(pipeline, self.address.name)
        if not force and c.pipeline_cookie() == pipeline.cookie:
            c.get_p4info().check_contract(pipeline.contract)
            c.use_p4info(info)
            self.pipeline = pipeline
            return False
        # the device config the codec read, compacted once per program (not once per switch)
        with _LOADS:
            c.set_pipeline(info, config, cookie=pipeline.cookie)
        self.pipeline = pipeline
        return True

    def _ready(self) -> P4RuntimeClient:
        c = self._c()
        if self.pipeline is None or c.p4info is None:
            raise BackendError(f"{self.address.name}: no pipeline: call set_pipeline(pipeline) first "
                               "(it keeps a running program with the same cookie)")
        return c

    # ---- state -----------------------------------------------------------------------
    def read_state(self) -> Batch:
        return self._ready().read_state()

    def read_objects(self, objects: Batch) -> Batch:
        return self._ready().read_objects(objects)

    def apply(self, diff: Diff, progress: Callable[[int], object] | None = None) -> WriteReport:
        return self._ready().apply(diff, progress)

    def encode_inserts(self, batch: Batch) -> Inserts:
        return self._ready().encode_inserts(batch)

    def encode_inserts_keyed(self, inserts: Inserts, objects: Sequence, key: str, value: int) -> Inserts:
        return self._ready().encode_inserts_keyed(inserts, objects, key, value)

    def insert_encoded(self, inserts: Inserts) -> WriteReport:
        return self._ready().insert_encoded(inserts)

    def read_state_beside(self, inserts: Inserts) -> tuple[list[int], Batch]:
        return self._ready().read_state_beside(inserts)

    # ---- time and counters -------------------------------------------------------------
    def send_timer(self, slice_id: int, sync: bool = False) -> None:
        """A PacketOut timer; ``sync`` sets the contract's SYNC flag (the switch then takes
        any step of its clock). The PacketOut metadata: ``timer_metadata`` if given, else
        the contract's timer opcode where the program declares one (``packet_io``)."""
        c = self._ready()
        contract = self.pipeline.contract
        flags = contract.get("timer", {}).get("flags", {}).get("sync", 1) if sync else 0
        meta = self.timer_metadata
        if meta is None and "packet_io" in contract:
            meta = {"opcode": contract["packet_io"]["opcodes"]["timer"]}
        c.send_timer(slice_id, contract.get("timer_ethertype", TIMER_ETHERTYPE), meta, flags)

    def read_counters(self) -> dict[str, dict[str, int]]:
        return self._ready().read_counters(self.pipeline.contract)

    def read_counter(self, counter: str) -> dict[str, int]:
        c = self._ready()
        need_counter(self.address.name, self.pipeline.contract["counters"], counter)
        return c.read_counters(self.pipeline.contract, counter)

    # ---- the switch's own slice clock (docs/clock.md) -------------------------------------------
    def _clock_contract(self) -> dict:
        c = self.pipeline.contract if self.pipeline is not None else {}
        if "clock" not in c:
            raise ClockNotSupported(f"{self.address.name}: program {c.get('program', '?')!r} keeps no slice clock "
                                    "(no clock section in its contract)")
        return c

    def _sync_out(self, frame: bytes) -> None:
        c = self._ready()
        contract = self._clock_contract()
        meta = None
        if "packet_io" in contract:
            ops = contract["packet_io"]["opcodes"]
            meta = {"opcode": ops.get("sync", ops.get("timer", 0))}
        c.packet_out(frame, meta)

    def _probe(self, timeout_s: float):
        """A PROBE out of the CPU port and its PacketIn: (sent ns, received ns, message,
        the PacketIn's controller-header fields)."""
        from controller.clock.message import REF_TOR, Message, Op, Stamp, decode_frame, encode_frame
        from controller.errors import UroError

        c = self._ready()
        with self._clock_lock:
            while c.packet_in_timed(0.0) is not None:     # answers to probes that timed out
                pass
            self._nonce = (self._nonce + 1) & 0xFFFFFFFF
            frame = encode_frame(Message(Op.PROBE, src_tor=REF_TOR, t1=Stamp(self._nonce, 0)))
            sent = time.monotonic_ns()
            self._sync_out(frame)
            end = time.monotonic() + timeout_s
            while True:
                got = c.packet_in_timed(max(0.0, end - time.monotonic()))
                if got is None:
                    raise BackendError(f"{self.address.name}: no answer to a clock PROBE within {timeout_s:g} s")
                received, pkt = got
                try:
                    m = decode_frame(pkt.payload)
                except UroError:
                    continue
                if m.op == Op.PROBE_REPLY and m.t1.k == self._nonce:
                    return sent, received, m, c.p4info.packet_in_metadata(pkt.metadata)

    def probe_clock(self, timeout_s: float = 1.0) -> ClockProbe:
        """A PROBE as a PacketOut, answered by a PacketIn (docs/clock.md): the switch's
        time when it answered (``t3``), its raw local clock (``aux``), stratum, term and
        lead; the registers its PacketIn carries (the program's ``packet_in`` header)."""
        sent, received, m, regs = self._probe(timeout_s)
        return ClockProbe(k=m.t3.k, phase_ns=m.t3.phase, local_ns=m.aux, stratum=m.stratum, term=m.term, lead=m.lead,
                          lead_k=m.lead_k, sent_ns=sent, received_ns=received, registers=regs)

    def read_clock(self) -> dict[str, int]:
        """bmv2's P4Runtime server reads no registers: a PROBE, whose PacketIn carries
        the clock's registers (the ``packet_in`` header: the contract's ``clock.packet_in``
        maps each register to its field), besides stratum, term and lead in the reply."""
        _, _, m, fields = self._probe(1.0)
        clk = self._clock_contract()["clock"]
        regs = clk.get("registers", {})
        out = {}
        for short, field in clk.get("packet_in", {}).items():
            if field in fields:
                v = int(fields[field])
                bits = regs.get(short, {}).get("bits")
                if short in SIGNED_CLOCK_REGISTERS and bits:
                    v = v - (1 << bits) if v >> (bits - 1) & 1 else v
                out[short] = v
        # the reply's own fields: stratum as a number (the register keeps 255 - stratum)
        return {**out, "stratum": m.stratum, "term": m.term, "lead": m.lead, "lead_k": m.lead_k}

    def seed_clock(self, k: int, phase_ns: int, reference: bool, lead: bool = False) -> None:
        """A SEED as a PacketOut: ``t3`` the time to set, its slice id ``k mod S``, REF for
        the reference. ``lead`` is not sent: the v1model program elects its lead itself
        (the first candidate claims at once)."""
        from controller.clock.message import REF_TOR, UNSYNCED, Flag, Message, Op, Stamp, encode_frame

        slices = self._clock_contract()["profile"]["slices"]
        m = Message(Op.SEED, flags=int(Flag.REF) if reference else 0, src_tor=REF_TOR,
                    stratum=0 if reference else UNSYNCED, t3=Stamp(k % (1 << 32), phase_ns), slice=k % slices)
        with self._clock_lock:
            self._sync_out(encode_frame(m))
