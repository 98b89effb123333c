"""A P4Runtime server that stands in for many switches at once: one ``device_id`` per
simulated ToR, hundreds in one process, each with its own state
(:class:`controller.simfabric.device.Device`), arbitration and pipeline.

P4Runtime as bmv2's server (PI) speaks it, on the same sequence of calls
(``bmv2_tests/test_simfabric_semantics.py``):

- **StreamChannel / arbitration** (P4Runtime §5): per device, the connected controller with
  the highest election id is primary; every controller of the device is told when the
  primary changes (status OK for the primary, ALREADY_EXISTS for the others); an election
  id another stream of the device holds ends the stream with INVALID_ARGUMENT; a device
  this process does not simulate ends it with NOT_FOUND, naming the devices it does.
  PacketOuts (the daemon's slice timers) are counted per device;
- **Write**: only the primary (PERMISSION_DENIED "Not primary" otherwise, as bmv2 answers
  a device with no primary too); ``CONTINUE_ON_ERROR`` only (others: UNIMPLEMENTED);
  a failed update makes the call UNKNOWN with one ``p4.v1.Error`` per update in the
  status details, the others applied;
- **Read**: whole tables, by key, default entries, members, groups, counters (zeros);
- **Set/GetForwardingPipelineConfig**: a pipeline is loaded per device (entries wiped)
  and answered with its cookie and P4Info.

The handlers run on one asyncio event loop (grpc.aio): a thousand idle streams cost no
threads, and no device needs a lock. Write requests are read from their bytes by a
compiled scanner (:mod:`controller.simfabric.wire`): table entries (of a direct table, or
naming a selector group) and members are kept as their slices of the request, anything
else parsed by protobuf's C implementation; read
answers are the stored frames concatenated (no re-encoding).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from dataclasses import dataclass, field

import grpc
from finsy.proto import p4r, rpc_code, rpc_status
from google.protobuf.message import DecodeError

from controller.simfabric import wire
from controller.simfabric.device import Device, PipelineError, pipeline

SERVICE = "p4.v1.P4Runtime"
#: frames per ReadResponse message (~1 MiB at a ToR's entry size)
READ_CHUNK = 8192
_DETAILS_KEY = "grpc-status-details-bin"
_OPTIONS = [("grpc.max_receive_message_length", 64 << 20), ("grpc.max_send_message_length", 256 << 20)]


@dataclass(eq=False)
class _Stream:
    """One StreamChannel: the device it arbitrated for, its election id, its outbox."""

    out: asyncio.Queue = field(default_factory=asyncio.Queue)
    device: int | None = None
    election: int | None = None
    abort: tuple | None = None       # (code, message) that ends the stream


def _uint128(u) -> int:
    return (u.high << 64) | u.low


class Fabric:
    """The devices ``first .. first + count - 1`` and their controllers' streams."""

    def __init__(self, first: int, count: int):
        if first < 0 or count < 1:
            raise ValueError(f"devices {first}:{count}: the first device id must be >= 0 and the count >= 1")
        self.first, self.count = first, count
        self.devices = {i: Device(i) for i in range(first, first + count)}
        self.streams: dict[int, list[_Stream]] = {i: [] for i in self.devices}

    def describe(self) -> str:
        return f"devices {self.first}..{self.first + self.count - 1}"

    # ---- arbitration ------------------------------------------------------------------------------
    def primary(self, device: int) -> _Stream | None:
        live = [s for s in self.streams.get(device, ()) if s.election]
        return max(live, key=lambda s: s.election) if live else None

    def _tell(self, s: _Stream, primary: _Stream | None) -> None:
        msg = p4r.StreamMessageResponse()
        a = msg.arbitration
        a.device_id = s.device
        win = primary if primary is not None else s
        a.election_id.high, a.election_id.low = (win.election or 0) >> 64, (win.election or 0) & ((1 << 64) - 1)
        if s is primary:
            a.status.code = rpc_code.OK
            a.status.message = "Is primary"
        else:
            a.status.code = rpc_code.ALREADY_EXISTS
            a.status.message = "Is not primary"
        s.out.put_nowait(msg)

    def arbitrate(self, s: _Stream, req) -> None:
        dev, election = req.device_id, _uint128(req.election_id)
        if dev not in self.devices:
            s.abort = (grpc.StatusCode.NOT_FOUND,
                       f"device {dev} is not simulated here ({self.describe()} of this process)")
            return
        if s.device is not None and s.device != dev:
            s.abort = (grpc.StatusCode.FAILED_PRECONDITION, "a stream arbitrates for one device")
            return
        if election and any(o is not s and o.election == election for o in self.streams[dev]):
            s.abort = (grpc.StatusCode.INVALID_ARGUMENT, "Election id already exists")
            return
        before = self.primary(dev)
        if s.device is None:
            s.device = dev
            self.streams[dev].append(s)
        s.election = election
        now = self.primary(dev)
        for o in (self.streams[dev] if now is not before else [s]):
            self._tell(o, now)

    def leave(self, s: _Stream) -> None:
        if s.device is None:
            return
        before = self.primary(s.device)
        self.streams[s.device].remove(s)
        now = self.primary(s.device)
        if now is not before:
            for o in self.streams[s.device]:
                self._tell(o, now)

    def is_primary(self, dev: int, election: int) -> bool:
        p = self.primary(dev)
        return p is not None and p.election == election


class Servicer:
    """The P4Runtime RPCs over a :class:`Fabric` (generic handlers: reads answer bytes)."""

    def __init__(self, fabric: Fabric):
        self.fabric = fabric

    def handler(self) -> grpc.GenericRpcHandler:
        return grpc.method_handlers_generic_handler(SERVICE, {
            # the request as bytes: read by the wire scanner (controller.simfabric.wire)
            "Write": grpc.unary_unary_rpc_method_handler(self.write, None, p4r.WriteResponse.SerializeToString),
            "Read": grpc.unary_stream_rpc_method_handler(self.read, p4r.ReadRequest.FromString, None),
            "SetForwardingPipelineConfig": grpc.unary_unary_rpc_method_handler(
                self.set_pipeline, p4r.SetForwardingPipelineConfigRequest.FromString,
                p4r.SetForwardingPipelineConfigResponse.SerializeToString),
            "GetForwardingPipelineConfig": grpc.unary_unary_rpc_method_handler(
                self.get_pipeline, p4r.GetForwardingPipelineConfigRequest.FromString,
                p4r.GetForwardingPipelineConfigResponse.SerializeToString),
            "StreamChannel": grpc.stream_stream_rpc_method_handler(
                self.stream, p4r.StreamMessageRequest.FromString, p4r.StreamMessageResponse.SerializeToString),
            "Capabilities": grpc.unary_unary_rpc_method_handler(
                self.capabilities, p4r.CapabilitiesRequest.FromString, p4r.CapabilitiesResponse.SerializeToString),
        })

    async def capabilities(self, req, context):
        return p4r.CapabilitiesResponse(p4runtime_api_version="1.3.0")

    def _device(self, dev: int, context) -> Device | None:
        return self.fabric.devices.get(dev)

    async def write(self, raw: bytes, context):
        f = self.fabric
        scanned = wire.scan(raw)
        req = None
        if scanned is None:             # not one the scanner reads: protobuf parses it
            try:
                req = p4r.WriteRequest.FromString(raw)
            except DecodeError as e:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"the WriteRequest does not parse: {e}")
            dev, election, atomicity = req.device_id, _uint128(req.election_id), req.atomicity
        else:
            dev, election, atomicity = scanned.device_id, scanned.election, scanned.atomicity
        d = f.devices.get(dev)
        if d is None or not f.is_primary(dev, election):
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "Not primary")
        if atomicity != p4r.WriteRequest.CONTINUE_ON_ERROR:
            await context.abort(grpc.StatusCode.UNIMPLEMENTED,
                                "Support for atomic write modes has not been implemented yet")
        if d.pipeline is None:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, "No forwarding pipeline config set for this device")
        if req is None:
            results = d.write_wire(raw, scanned)
        else:
            results = d.write(req.updates)
        if all(code == rpc_code.OK for code, _ in results):
            return p4r.WriteResponse()
        st = rpc_status.Status(code=rpc_code.UNKNOWN, message="")
        for code, message in results:
            st.details.add().Pack(p4r.Error(canonical_code=code, message=message))
        await context.abort(grpc.StatusCode.UNKNOWN, "", trailing_metadata=((_DETAILS_KEY, st.SerializeToString()),))

    async def read(self, req, context):
        d = self.fabric.devices.get(req.device_id)
        if d is None:
            await context.abort(grpc.StatusCode.NOT_FOUND,
                                f"device {req.device_id} is not simulated here ({self.fabric.describe()})")
        if d.pipeline is None:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, "No forwarding pipeline config set for this device")
        try:
            frames = d.read(req.entities)
        except LookupError as e:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        for i in range(0, len(frames), READ_CHUNK):
            yield b"".join(frames[i:i + READ_CHUNK])     # frames of field 1: a ReadResponse

    async def set_pipeline(self, req, context):
        f = self.fabric
        d = f.devices.get(req.device_id)
        if d is None or not f.is_primary(req.device_id, _uint128(req.election_id)):
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "Not primary")
        A = p4r.SetForwardingPipelineConfigRequest
        if req.action not in (A.VERIFY, A.VERIFY_AND_SAVE, A.VERIFY_AND_COMMIT, A.COMMIT, A.RECONCILE_AND_COMMIT):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"unsupported action {req.action}")
        try:
            p = pipeline(req.config)
        except PipelineError as e:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        if req.action != A.VERIFY:
            d.set_pipeline(p)
        return p4r.SetForwardingPipelineConfigResponse()

    async def get_pipeline(self, req, context):
        d = self.fabric.devices.get(req.device_id)
        if d is None or d.pipeline is None:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, "No forwarding pipeline config set for this device")
        cfg = d.pipeline.config
        R = p4r.GetForwardingPipelineConfigRequest
        out = p4r.GetForwardingPipelineConfigResponse()
        if cfg.HasField("cookie"):
            out.config.cookie.CopyFrom(cfg.cookie)
        if req.response_type in (R.ALL, R.P4INFO_AND_COOKIE):
            out.config.p4info.CopyFrom(cfg.p4info)
        if req.response_type in (R.ALL, R.DEVICE_CONFIG_AND_COOKIE):
            out.config.p4_device_config = cfg.p4_device_config
        return out

    async def stream(self, requests, context):
        f = self.fabric
        s = _Stream()

        async def inbound():
            try:
                async for msg in requests:
                    kind = msg.WhichOneof("update")
                    if kind == "arbitration":
                        f.arbitrate(s, msg.arbitration)
                        if s.abort is not None:
                            break
                    elif kind == "packet" and s.device is not None and f.primary(s.device) is s:
                        f.devices[s.device].packet_outs += 1
            finally:
                s.out.put_nowait(None)

        task = asyncio.get_running_loop().create_task(inbound())
        try:
            while (msg := await s.out.get()) is not None:
                yield msg
            if s.abort is not None:
                await context.abort(*s.abort)
        finally:
            task.cancel()
            f.leave(s)


async def serve(fabric: Fabric, address: str, ready=None) -> None:
    """Serve ``fabric`` on ``address`` until SIGTERM/SIGINT (or cancellation)."""
    server = grpc.aio.server(options=_OPTIONS)
    server.add_generic_rpc_handlers((Servicer(fabric).handler(),))
    if server.add_insecure_port(address) == 0:
        raise OSError(f"cannot listen on {address}")
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    print(f"uro simfabric: {fabric.describe()} on {address}", flush=True)
    if ready is not None:
        ready()
    try:
        await stop.wait()
    finally:
        await server.stop(0.5)


def parse_devices(text: str) -> tuple[int, int]:
    """``COUNT`` (devices 0..COUNT-1) or ``FIRST:COUNT``."""
    try:
        if ":" in text:
            a, b = text.split(":", 1)
            return int(a), int(b)
        return 0, int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--devices: COUNT or FIRST:COUNT, got {text!r}") from None


def warm() -> None:
    """Load the Write scanner's compiled kernels (:mod:`controller.simfabric.wire`) before
    the server listens: where numba's cache is empty (a fresh install) they compile for
    several seconds, and the first Write would otherwise wait for that past its deadline."""
    req = p4r.WriteRequest(device_id=1, election_id=p4r.Uint128(high=0, low=1))
    u = req.updates.add()
    u.type = p4r.Update.INSERT
    te = u.entity.table_entry
    te.table_id = 1
    m = te.match.add()
    m.field_id = 1
    m.exact.value = b"\x01"
    te.action.action.action_id = 1
    scanned = wire.scan(req.SerializeToString())
    if scanned is not None:
        scanned.mark(wire.table_specs({}))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m controller.simfabric",
                                 description="a P4Runtime server simulating many switches (one device id each)")
    ap.add_argument("--devices", type=parse_devices, required=True, help="COUNT or FIRST:COUNT device ids")
    ap.add_argument("--address", default="127.0.0.1:9559", help="host:port to listen on")
    a = ap.parse_args(argv)
    try:
        fabric = Fabric(*a.devices)
        warm()
        asyncio.run(serve(fabric, a.address))
    except (ValueError, OSError) as e:
        print(f"uro simfabric: error: {e}", file=sys.stderr)
        return 2
    return 0
