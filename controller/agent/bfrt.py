"""The Tofino2 backend of the daemon: BfRt gRPC to ``bf_switchd``, through the SDE's own
Python client (``bfrt_grpc``).

What it does for one ToR switch (``target = "tofino2"`` in the network config):

- ``connect``: opens a BfRt client session (``bfrt_grpc.client.ClientInterface``);
- ``set_pipeline``: checks the pipeline contract against the compiler's ``bfrt.json``,
  binds the program (``bfrt.json``, ``pipe/context.json``, ``pipe/tofino2.bin``), then
  writes the switch plan (:mod:`controller.tofino2.plan`): TM queue carving and AFC mode,
  the mirror session of the queue-state updates, the program's target tables (port roles,
  port map, the timer's AFC words, port-down marks, parser value sets) and the packet
  generator's timer and port-down applications, enabled last;
- ``read_state`` / ``apply``: the contract's tables, selector members and groups, read
  back and written by the names in ``bfrt.json`` (:mod:`controller.tofino2.bfrt_json`);
  the ``config`` entry, which admits traffic, is written last in a write;
- ``send_timer``: nothing -- the packet generator is the clock;
- ``read_counters``: the ``drops`` and ``events`` counters, decoded (events are counted as
  one cell per set of events, drops from cell 1).

``bfrt_grpc`` ships with the Tofino SDE, not on PyPI: it is imported as is, or from
``$SDE_INSTALL/lib/python3*/site-packages/tofino`` (or ``$SDE/install/...``); without it
the backend raises one :class:`BackendError` saying so. Everything up to the gRPC call --
encodings, the switch plan, counter decoding -- is plain Python in this module and in
:mod:`controller.tofino2`, tested without a switch (tests/test_tofino2_bfrt.py: a fake
client enforcing the SDE's rules); the calls into ``bfrt_grpc`` (``_Session``) run against
tofino-model + bf_switchd in tofino_tests/ (not yet on Tofino2 hardware).
"""

from __future__ import annotations

import glob
import hashlib
import importlib
import itertools
import os
import sys
import time
from pathlib import Path
from typing import Callable

from controller.agent.backend import (BackendError, ClockNotSupported, ClockProbe, MissingClient, Pipeline,
                                      SwitchAddress, SwitchBackend, Unreachable, WriteReport, need_counter,
                                      register_backend)
from controller.agent.diff import Diff
from controller.p4gen import profile as profile_mod
from controller.tables.state import Batch, Group, Member
from controller.tofino2 import clock as tofino_clock
from controller.tofino2 import plan as switch_plan, settings as tofino_settings
from controller.tofino2.bfrt_json import BfrtInfo, BfrtJsonError, KeyField, Write


# ---- the SDE client -------------------------------------------------------------------------
#: where the SDE's installer puts the runtime (tofino-model, bf_switchd, the Python client)
DEFAULT_SDE_INSTALL = "/opt/bf-sde/install"


def sde_install() -> Path:
    """The SDE install directory: ``$SDE_INSTALL``, else :data:`DEFAULT_SDE_INSTALL`."""
    return Path(os.environ.get("SDE_INSTALL", DEFAULT_SDE_INSTALL))


def _sde_paths() -> list[str]:
    """Where an SDE install keeps its Python client: ``$SDE_INSTALL``, ``$SDE/install``, else
    the SDE's default install directory (:data:`DEFAULT_SDE_INSTALL`)."""
    roots = [Path(os.environ[var]) / rel for var, rel in (("SDE_INSTALL", ""), ("SDE", "install"))
             if os.environ.get(var)] or [Path(DEFAULT_SDE_INSTALL)]
    out = []
    for base in roots:
        for sp in sorted(glob.glob(str(base / "lib" / "python3*" / "site-packages"))):
            out += [str(Path(sp) / "tofino"), str(Path(sp) / "tofino" / "bfrt_grpc"), sp]
    return out


def _quiet(gc):
    """The client sets its own logger to INFO at import (every subscribe attempt and bind
    printed on stderr): back to warnings."""
    import logging

    logging.getLogger("bfruntime_grpc_client").setLevel(logging.WARNING)
    return gc


def _share_status_proto() -> None:
    """finsy (the P4Runtime client) and ``bfrt_grpc`` each bring a generated
    ``google/rpc/status.proto``, and protobuf's default pool takes a file name once: whichever
    loads second fails ("duplicate file name google/rpc/status.proto"), so a process that
    speaks to bmv2 and Tofino2 switches (the daemon of a mixed network, the test suite) could
    not load both. The message is the same (``google.rpc.Status``): when finsy is installed,
    its module is loaded first and serves as ``google.rpc.status_pb2`` for ``bfrt_grpc``."""
    if "google.rpc.status_pb2" in sys.modules:
        return
    try:
        status_pb2 = importlib.import_module("finsy.proto.google.rpc.status_pb2")
    except ImportError:
        return
    sys.modules["google.rpc.status_pb2"] = status_pb2


def _import_client():
    _share_status_proto()
    return _quiet(importlib.import_module("bfrt_grpc.client"))


def load_bfrt_grpc():
    """``bfrt_grpc.client``, from the environment or the SDE install (:func:`_sde_paths`);
    :class:`MissingClient` if absent (a missing library, not a switch that does not answer).
    Its logger (which prints every subscribe attempt and bind at INFO) is kept to warnings."""
    try:
        return _import_client()
    except ImportError:
        pass
    extra = [p for p in _sde_paths() if Path(p).is_dir() and p not in sys.path]
    if extra:
        sys.path[:0] = extra
        try:
            return _import_client()
        except ImportError as e:
            raise MissingClient(f"bfrt_grpc (the Tofino SDE's BfRt Python client) did not load from {extra[0]}: "
                                f"{e}") from None
    raise MissingClient("bfrt_grpc (the Tofino SDE's BfRt Python client) is not installed: install the SDE "
                        "(default /opt/bf-sde/install) or its client wheel, or set SDE_INSTALL to the SDE's "
                        "install directory (it is not on PyPI)")


def server_ready(address: str, device_id: int = 0, program: str | None = None, timeout: float = 2.0) -> bool:
    """Whether the BfRt server at ``address`` answers ``GetForwardingPipelineConfig`` for
    ``device_id`` -- and, given ``program``, reports that program loaded. bf_switchd accepts
    TCP connections before its device is up, and its log lines are block-buffered (they
    reach the file late, some only at exit): this asks the server itself."""
    import grpc

    gc = load_bfrt_grpc()
    # the answer carries bfrt.json and context.json (11 MB for the tiny ToR)
    ch = grpc.insecure_channel(address, options=[("grpc.max_receive_message_length", -1)])
    try:
        stub = gc.bfruntime_pb2_grpc.BfRuntimeStub(ch)
        msg = stub.GetForwardingPipelineConfig(
            gc.bfruntime_pb2.GetForwardingPipelineConfigRequest(device_id=device_id, client_id=0), timeout=timeout)
    except grpc.RpcError:
        return False
    finally:
        ch.close()
    return program is None or any(c.p4_name == program for c in msg.config)


def bfrt_cookie(bfrt_json: bytes) -> int:
    """The pipeline cookie of a tofino2 build: a content hash of its bfrt.json (the switch
    reports the bfrt.json it runs, so the daemon and the switch compute the same value)."""
    return int.from_bytes(hashlib.sha256(bfrt_json).digest()[:8], "big")


#: program file roles of a tofino2 Pipeline (``port_map`` optional: tofino/ports/<profile>.toml)
FILE_ROLES = ("bfrt", "context", "binary")


def pipeline_from_build(program_dir: str | Path, contract: dict, port_map: str | Path | None = None) -> Pipeline:
    """A :class:`Pipeline` of a bf-p4c output directory (``tofino/build/<profile>/<program>``)."""
    d = Path(program_dir)
    files = {"bfrt": d / "bfrt.json", "context": d / "pipe" / "context.json", "binary": d / "pipe" / "tofino2.bin"}
    if port_map is not None:
        files["port_map"] = Path(port_map)
    return BfrtBackend.pipeline(d.name, contract, files)


# ---- pure parts: what would be written / how cells are read ----------------------------------
def diff_writes(info: BfrtInfo, diff: Diff) -> list[tuple[str, Write]]:
    """(operation, write) in dependency order: members, groups, entries for inserts and
    modifies; entries, groups, members for deletes; the ``config`` default entry last."""
    out: list[tuple[str, Write]] = []
    late: list[tuple[str, Write]] = []
    for op, batch in (("add", diff.insert), ("mod", diff.modify)):
        out += [(op, info.encode_member(m)) for m in batch.members]
        out += [(op, info.encode_group(g)) for g in batch.groups]
        for e in batch.entries:
            w = info.encode_entry(e)
            (late if w.table.endswith(".config") else out).append(("mod" if e.is_default else op, w))
    d = diff.delete
    out += [("del", info.encode_entry(e)) for e in d.entries]
    out += [("del", info.encode_group(g)) for g in d.groups]
    out += [("del", info.encode_member(m)) for m in d.members]
    return out + late


def decode_counters(contract: dict, cells: dict[str, dict[int, int]]) -> dict[str, dict[str, int]]:
    """``{counter: {cell index: packets}}`` as read -> ``{counter: {name: packets}}``.

    ``encoding: bitmap`` (events): a packet is counted once, in the cell whose index is the
    set of its events; event i is the sum over cells with bit i set. ``cell_offset``
    (drops): reason i is cell i + offset."""
    out = {}
    for cname, c in contract["counters"].items():
        raw = cells.get(cname, {})
        names = c["indices"]
        if c.get("encoding") == "bitmap":
            out[cname] = {n: sum(v for idx, v in raw.items() if idx >> i & 1) for i, n in enumerate(names)}
        else:
            off = int(c.get("cell_offset", 0))
            out[cname] = {n: int(raw.get(i + off, 0)) for i, n in enumerate(names)}
    return out


# ---- the gRPC side ------------------------------------------------------------------------------
#: where bf_switchd stores the program files it is sent (on the switch's file system):
#: ``<base>/<switch name>/<program>/...``; never the build directory (the switch would
#: write its copies into the build tree)
BASE_PATH = "/tmp/uro-bfrt"


def compiled_name(p: Pipeline) -> str:
    """The compiled program's name (context.json ``program_name``, else the bf-p4c output
    directory's name): what bf_switchd runs it as and reports back, not the network
    config's ``[program.<key>]``."""
    import json

    try:
        name = json.loads(Path(p.files["context"]).read_text()).get("program_name")
    except (OSError, ValueError, AttributeError):
        name = None
    return str(name) if name else Path(p.files["bfrt"]).parent.name


def _key_value(v):
    """A ``_Key.to_dict()`` field ({"value"} | {"value","mask"} | {"value","prefix_len"} |
    {"low","high"}) as :meth:`BfrtInfo.decode_entry` reads it (scalar or 2-tuple)."""
    if not isinstance(v, dict):
        return v
    if "prefix_len" in v:
        return (v["value"], v["prefix_len"])
    if "mask" in v:
        return (v["value"], v["mask"])
    if "low" in v:
        return (v["low"], v["high"])
    return v["value"]


def _error_text(e: Exception) -> str:
    """One line of a bfrt_grpc error (the server's per-update messages, else its gRPC
    details), without the stack it prints."""
    subs = getattr(e, "sub_errors_get", None)
    if callable(subs):
        try:
            msgs = [getattr(err, "message", str(err)) for _, err in subs()]
        except Exception:
            msgs = []
        if msgs:
            return " ".join("; ".join(dict.fromkeys(m.strip() for m in msgs)).split())
    for attr in ("grpc_error", "grpc_exception"):
        g = getattr(e, attr, None)
        if g is not None and hasattr(g, "details"):
            try:
                return f"{g.code().name}: {g.details()}".replace("\n", " ")
            except Exception:
                pass
    if hasattr(e, "details") and callable(e.details):
        try:
            return str(e.details()).replace("\n", " ")
        except Exception:
            pass
    text = " ".join(str(e).split())
    return text or type(e).__name__


#: google.rpc.Code ALREADY_EXISTS, the canonical code of bf_switchd's per-update error for
#: an add of an object the switch holds (BF_ALREADY_EXISTS)
_ALREADY_EXISTS = 6


def _already_exists(e: Exception) -> bool:
    """Whether a bfrt_grpc write error says only that the object exists already: every
    per-update error (``sub_errors_get``) has the canonical code ALREADY_EXISTS or says
    "already exists", or, where the client gives no per-update errors, the gRPC status or
    the text says so."""
    subs = getattr(e, "sub_errors_get", None)
    if callable(subs):
        try:
            errs = [err for _, err in subs()]
        except Exception:
            errs = []
        if errs:
            return all(getattr(err, "canonical_code", None) == _ALREADY_EXISTS
                       or "already exists" in str(getattr(err, "message", "")).lower() for err in errs)
    g = getattr(e, "grpc_error", None)
    code = getattr(g, "code", None)
    if callable(code):
        try:
            if getattr(code(), "name", None) == "ALREADY_EXISTS":
                return True
        except Exception:
            pass
    return "already exists" in _error_text(e).lower()


class _Session:
    """The calls into bfrt_grpc (run against bf_switchd on tofino-model: tofino_tests/)."""

    #: a number per session this process opens (the token of :meth:`BfrtBackend.session_epoch`)
    _serials = itertools.count(1)

    def __init__(self, gc, address: SwitchAddress):
        self.gc = gc
        self.address = address
        self.serial = next(_Session._serials)
        try:
            self.iface = gc.ClientInterface(grpc_addr=address.address, client_id=0, device_id=address.device_id,
                                            num_tries=max(1, int(address.timeout_s)))
        except Exception as e:  # bfrt_grpc raises plain exceptions on a dead server
            raise Unreachable(f"{address.name}: no BfRt server at {address.address}: {_error_text(e)}") from None
        self.info = None
        self.p4_name: str | None = None
        self._targets: dict = {}

    def target(self, pipe: int | None = None):
        """All pipes (0xFFFF) or one pipe."""
        key = 0xFFFF if pipe is None else pipe
        if key not in self._targets:
            self._targets[key] = self.gc.Target(device_id=self.address.device_id, pipe_id=key)
        return self._targets[key]

    def close(self) -> None:
        try:
            self.iface.tear_down_stream()
        except Exception:
            pass

    def stream_alive(self) -> bool:
        """The session's notification stream still runs: ``ClientInterface`` reads it on a
        thread of its own, which ends -- leaving the error in its exception queue -- when
        bf_switchd goes away (a restarted switch drops every client's stream)."""
        thread = getattr(self.iface, "stream_recv_thread", None)
        if thread is None or not thread.is_alive():
            return False
        errors = getattr(self.iface, "exception_q", None)
        return errors is None or errors.empty()

    def program(self) -> tuple[str, bytes] | None:
        """(p4_name, bfrt.json) of the program the switch runs, None if it runs none.
        ``ClientInterface`` has no such call: GetForwardingPipelineConfig on its stub, as
        its own ``bfrt_info_get`` does."""
        pb = self.gc.bfruntime_pb2
        req = pb.GetForwardingPipelineConfigRequest(device_id=self.address.device_id, client_id=0)
        try:
            msg = self.iface.stub.GetForwardingPipelineConfig(req, timeout=self.address.timeout_s)
        except Exception as e:
            raise Unreachable(f"{self.address.name}: GetForwardingPipelineConfig failed: {_error_text(e)}") from None
        for c in msg.config:
            if c.p4_name:
                return c.p4_name, bytes(c.bfruntime_info)
        return None

    def attach(self, p4_name: str) -> None:
        """Use the program the switch runs (no re-bind)."""
        self.info = self.iface.bfrt_info_get(p4_name)
        self.iface.bind_pipeline_config(p4_name)
        self.p4_name = p4_name

    def bind(self, p: Pipeline) -> None:
        gc = self.gc
        name = compiled_name(p)
        prof = gc.ProfileInfo("pipe", str(p.files["context"]), str(p.files["binary"]), [0, 1, 2, 3])
        fwd = gc.ForwardingConfig(name, str(p.files["bfrt"]), [prof])
        ok = self.iface.send_set_forwarding_pipeline_config_request(
            gc.bfruntime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_WARM_INIT_BEGIN_AND_END,
            f"{BASE_PATH}/{self.address.name}", [fwd])
        if ok is False:
            raise BackendError(f"{self.address.name}: bf_switchd did not finish loading {name!r} "
                               "(no WARM_INIT_FINISHED within the client's timeout)")
        self.attach(name)

    def _table(self, name: str):
        return self.info.table_get(name)

    def _data(self, t, w: Write):
        gc = self.gc
        data = []
        for name, v in w.data:
            if isinstance(v, bool):
                data.append(gc.DataTuple(name, bool_val=v))
            elif isinstance(v, str):
                data.append(gc.DataTuple(name, str_val=v))
            elif isinstance(v, tuple):
                data.append(gc.DataTuple(name, int_arr_val=list(v)) if v and not isinstance(v[0], bool)
                            else gc.DataTuple(name, bool_arr_val=list(v)))
            elif isinstance(v, (bytes, bytearray)):
                data.append(gc.DataTuple(name, bytearray(v)))     # the client takes bytearray, not bytes
            else:
                data.append(gc.DataTuple(name, v))
        return t.make_data(data, w.action) if (data or w.action) else None

    def write(self, op: str, w: Write) -> None:
        self.write_batch(op, [w])

    def write_batch(self, op: str, ws: list[Write]) -> None:
        """One WriteRequest for writes of one table, one operation and one pipe."""
        t = self._table(ws[0].table)
        tgt = self.target(ws[0].pipe)
        if ws[0].default:
            for w in ws:
                t.default_entry_set(tgt, self._data(t, w))
            return
        keys = [t.make_key([_key_tuple(self.gc, k) for k in w.key]) for w in ws]
        if op == "del":
            t.entry_del(tgt, keys)
            return
        datas = [self._data(t, w) for w in ws]
        if op == "add":
            t.entry_add(tgt, keys, datas if any(d is not None for d in datas) else None)
        elif op == "mod":
            t.entry_mod(tgt, keys, datas)
        else:
            raise BackendError(f"unknown write operation {op!r}")

    def read(self, table: str, default: bool = False, from_hw: bool = False):
        """[(key, data)] of every entry of ``table`` (keys as :meth:`BfrtInfo.decode_entry`
        takes them); ``default``: the default entry too, with key {} (a read-all never
        returns it)."""
        t = self._table(table)
        tgt = self.target()
        out = []
        for data, key in t.entry_get(tgt, None, {"from_hw": from_hw}):
            kd = key.to_dict() if key is not None else {}
            out.append(({k: _key_value(v) for k, v in kd.items()}, data.to_dict()))
        if default:
            for data, _ in t.default_entry_get(tgt, {"from_hw": from_hw}):
                out.append(({}, data.to_dict()))
        return out

    def read_cells(self, table: str) -> dict[int, int]:
        """{index: packets} of a counter, in one read (after a sync from the hardware)."""
        t = self._table(table)
        tgt = self.target()
        try:
            t.operations_execute(tgt, "Sync")
        except Exception:
            pass                  # not every counter table syncs; from_hw below reads the hardware
        out = {}
        for data, key in t.entry_get(tgt, None, {"from_hw": True}):
            idx = _key_value(key.to_dict()["$COUNTER_INDEX"])
            out[int(idx)] = int(data.to_dict().get("$COUNTER_SPEC_PKTS", 0))
        return out

    def register_get(self, name: str, index: int = 0, field: str | None = None) -> list[int]:
        """Cell ``index`` of register ``name`` (``pipe.<control>.<register>``) in every pipe,
        read from the hardware (a register read-all returns one value per pipe);
        ``field``: one field of a pair register."""
        return self.register_fields(name, index)[_register_field(name, field)]

    def register_fields(self, name: str, index: int = 0) -> dict[str, list[int]]:
        """{data field: [value per pipe]} of cell ``index`` of register ``name``, in one read
        (a pair register has two fields)."""
        t = self._table(name)
        key = t.make_key([self.gc.KeyTuple("$REGISTER_INDEX", index)])
        for data, _ in t.entry_get(self.target(), [key], {"from_hw": True}):
            return {f: ([int(x) for x in v] if isinstance(v, (list, tuple)) else [int(v)])
                    for f, v in data.to_dict().items() if not f.startswith("$") and f != "action_name"
                    and f != "is_default_entry"}
        raise BackendError(f"{self.address.name}: {name}[{index}]: no such register cell")

    def register_cells(self, name: str) -> dict[int, dict[str, list[int]]]:
        """Every cell of register ``name``: {index: {data field: [value per pipe]}}, in one
        read (a read-all: one RPC, not one per cell)."""
        t = self._table(name)
        out: dict[int, dict[str, list[int]]] = {}
        for data, key in t.entry_get(self.target(), None, {"from_hw": True}):
            index = int(key.to_dict()["$REGISTER_INDEX"]["value"])
            out[index] = {f: ([int(x) for x in v] if isinstance(v, (list, tuple)) else [int(v)])
                          for f, v in data.to_dict().items() if not f.startswith("$") and f != "action_name"
                          and f != "is_default_entry"}
        return out

    def register_set(self, name: str, index: int, value: int | dict, field: str | None = None) -> None:
        """Cell ``index`` of register ``name`` := ``value`` (every pipe: a program's
        registers are symmetric; the ToR's pipe is the one that counts); ``field``: one
        field of a pair register, or ``value`` a {field: value} of some of its fields (the
        others keep theirs: read and written back, a pair is written whole)."""
        t = self._table(name)
        key = t.make_key([self.gc.KeyTuple("$REGISTER_INDEX", index)])
        given = value if isinstance(value, dict) else {field: value}
        fields = {_register_field(name, f): v for f, v in given.items()}
        if any(f is not None for f in given):       # a pair: keep the fields not given
            for f, vals in self.register_fields(name, index).items():
                fields.setdefault(f, vals[0])
        t.entry_mod(self.target(), [key], [t.make_data([self.gc.DataTuple(f, int(v)) for f, v in fields.items()])])

    def read_entry(self, table: str, key) -> dict | None:
        """The data of the entry of ``table`` at ``key`` (KeyFields; all pipes), None if
        there is none."""
        t = self._table(table)
        k = t.make_key([_key_tuple(self.gc, f) for f in key])
        try:
            for data, _ in t.entry_get(self.target(), [k], {"from_hw": True}):
                return data.to_dict()
        except Exception:
            return None
        return None

    def read_default(self, table: str, pipe: int | None) -> dict:
        """The default entry's data of ``table`` (a fixed-function table's settings)."""
        t = self._table(table)
        for data, _ in t.default_entry_get(self.target(pipe), {"from_hw": True}):
            return data.to_dict()
        return {}

    def tm_queue_map(self, ports) -> dict:
        """{(dev_port, qid): pg_queue}: ``egress_qid_queues`` is indexed by the ingress qid
        already (SDE bf_rt_tm_table_impl_port.cpp)."""
        t = self._table(switch_plan.TM_PORT_CFG)
        out = {}
        for p in ports:
            key = t.make_key([self.gc.KeyTuple("dev_port", p)])
            for data, _ in t.entry_get(self.target(), [key], {"from_hw": True}):
                d = data.to_dict()
                for qid, pq in enumerate(d["egress_qid_queues"]):
                    out[(p, qid)] = int(pq)
        return out


def _register_field(name: str, field: str | None = None) -> str:
    """The data field of a register table: ``<control>.<register>.f1`` (bf-p4c's name), or
    ``<control>.<register>.<field>`` of a pair register (its struct's field)."""
    return name.removeprefix("pipe.") + "." + (field or "f1")


def _key_tuple(gc, k: KeyField):
    if k.prefix_len is not None:
        return gc.KeyTuple(k.name, k.value, prefix_len=k.prefix_len)
    if k.mask is not None:
        return gc.KeyTuple(k.name, k.value, mask=k.mask)
    if k.high is not None:
        return gc.KeyTuple(k.name, low=k.value, high=k.high)
    return gc.KeyTuple(k.name, k.value)


#: values of the switch plan tofino-model does not hold (docs/tofino2.md "On the model"):
#: (table, field) -> the limit, named in the push's output instead of passed silently; any
#: other value of the plan that reads back otherwise fails ``set_pipeline``
MODEL_LIMITS = {
    (switch_plan.PORT_TABLE, f): "tofino-model: bf_switchd adds every front-panel port at 10G, 1 lane, no FEC, and "
                                 "the model's port manager (a serdes stub) refuses another speed"
    for f in ("$SPEED", "$N_LANES", "$FEC")
}
MODEL_LIMITS[(switch_plan.TM_PIPE_SCHED, "advanced_flow_control_enable")] = (
    "tofino-model: its TM does not keep the AFC enable (it decodes the AFC words but pauses no queue)")


# ---- the backend --------------------------------------------------------------------------------
@register_backend
class BfrtBackend(SwitchBackend):
    """One BfRt session to one Tofino2 switch running one ToR (one pipe)."""

    target = "tofino2"
    #: after the timer starts, wait a queue cycle before admitting traffic (see plan.py)
    warmup_slices = None
    #: the port-down application sets ``link_down_reg`` by itself (FRANCIS §4.3)
    marks_links = True

    # ---- programs, offline ---------------------------------------------------------------
    @classmethod
    def pipeline(cls, program: str, contract: dict, files: dict[str, Path]) -> Pipeline:
        """tofino2: ``bfrt``, ``context``, ``binary`` (+ optional ``port_map``); the cookie is
        the content hash of bfrt.json (:func:`bfrt_cookie`), which the switch reports back."""
        files = {k: Path(v) for k, v in files.items()}
        for role in FILE_ROLES:
            if role not in files:
                raise BackendError(f"program {program!r}: no {role} file (tofino2 needs bfrt, context and binary: "
                                   "the bf-p4c output directory)")
            if not files[role].is_file():
                raise BackendError(f"program {program!r}: {role} file {files[role]} not found "
                                   "(build with: uro p4 build --target tofino2)")
        extra = sorted(set(files) - set(FILE_ROLES) - {"port_map"})
        if extra:
            raise BackendError(f"program {program!r}: {extra[0]!r} is not a tofino2 program file "
                               "(bfrt, context, binary, port_map)")
        return Pipeline(cls.target, program, contract, files, bfrt_cookie(files["bfrt"].read_bytes()))

    @classmethod
    def check_pipeline(cls, pipeline: Pipeline) -> None:
        """bfrt.json names every contract table, key, action, parameter and counter (and the
        target tables) with the contract's widths; the port map fits the profile."""
        try:
            BfrtInfo.load(pipeline.files["bfrt"]).check_contract(pipeline.contract)
        except BfrtJsonError as e:
            raise BackendError(f"program {pipeline.program!r}: {e}") from None
        prof = _profile_of(pipeline.contract)
        pm_file = pipeline.files.get("port_map")
        try:
            pm = tofino_settings.load(pm_file) if pm_file else tofino_settings.default_port_map(prof)
            pm.check(prof)
        except tofino_settings.SettingsError as e:
            raise BackendError(f"program {pipeline.program!r}: {e}") from None

    def __init__(self, address: SwitchAddress):
        super().__init__(address)
        self._session: _Session | None = None
        self._pipeline: Pipeline | None = None
        self._info: BfrtInfo | None = None
        self._pm = None                  # the ToR's port map (its pipe), from set_pipeline
        self._warm_until = 0.0
        self._step = ""
        self._plan_limits: list[str] = []
        #: writes per WriteRequest in :meth:`apply` (1: one by one)
        self.batch = 64

    # ---- session --------------------------------------------------------------------------
    def connect(self) -> None:
        gc = load_bfrt_grpc()
        self._session = _Session(gc, self.address)

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
        self._session = None

    @property
    def connected(self) -> bool:
        """The session is open and its notification stream runs. After bf_switchd restarted,
        an old session still answers GetForwardingPipelineConfig (the cookie of the program
        the switch's conf loaded) but every table read and write on it fails NOT_FOUND: only
        the ended stream says the switch went away, and the daemon reconnects on it
        (tofino_tests/test_z_restart.py)."""
        s = self._session
        return s is not None and s.stream_alive()

    def _s(self) -> _Session:
        if self._session is None:
            raise BackendError(f"{self.address.name}: not connected")
        return self._session

    def session_epoch(self) -> int | None:
        """The session's number while its stream runs, else None (the cookie is asked).

        BfRt has no primacy to lose: one client-0 session per device subscribes, and a
        second is refused while it runs, so only this session set or adopted the program
        since it opened. bf_switchd restarting ends the stream; a new session gets a new
        number."""
        return self._session.serial if self.connected else None

    # ---- pipeline -------------------------------------------------------------------------
    def pipeline_cookie(self) -> int | None:
        prog = self._s().program()
        return None if prog is None else bfrt_cookie(prog[1])

    def prepare(self, pipeline: Pipeline):
        """Everything ``set_pipeline`` writes besides binding the program, checked (pure):
        (bfrt info, switch plan). Raises naming the first problem."""
        if pipeline.target != self.target:
            raise BackendError(f"{self.address.name}: a {pipeline.target} program on a tofino2 switch")
        self.check_pipeline(pipeline)
        info = BfrtInfo.load(pipeline.files["bfrt"])
        prof = _profile_of(pipeline.contract)
        pm_file = pipeline.files.get("port_map")
        pm = tofino_settings.load(pm_file) if pm_file else tofino_settings.default_port_map(prof)
        return info, pm, prof

    def set_pipeline(self, pipeline: Pipeline, force: bool = False) -> bool:
        """Adopt a switch that runs this build (same bfrt.json: entries stay, returns False;
        a switch plan that is missing -- bf_switchd started with the program -- is written
        without re-binding); otherwise bind the program and write the switch plan (True).
        Every switch error is one :class:`BackendError` naming the switch and the write."""
        info, pm, prof = self.prepare(pipeline)
        s = self._s()
        self._step = "reading the running program"
        try:
            running = s.program()
            name = compiled_name(pipeline)
            if not force and running is not None and bfrt_cookie(running[1]) == pipeline.cookie:
                self._step = f"attaching to {running[0]!r}"
                s.attach(running[0])
                sp = switch_plan.switch_plan(pipeline.contract, pm, prof)
                if not self._plan_present(s, sp):
                    self._write_plan(s, pipeline, pm, prof)
                else:
                    self._verify_plan(s, sp)
                self._pipeline, self._info, self._pm = pipeline, info, pm
                return False
            self._step = f"binding {name!r}"
            s.bind(pipeline)
            self._write_plan(s, pipeline, pm, prof)
        except BackendError:
            raise
        except Exception as e:
            raise BackendError(f"{self.address.name}: {self._step} failed: {_error_text(e)}") from None
        self._pipeline, self._info, self._pm = pipeline, info, pm
        return True

    def _write_plan(self, s: _Session, pipeline: Pipeline, pm, prof) -> None:
        sp = switch_plan.switch_plan(pipeline.contract, pm, prof)
        for w in sp.ports:
            self._write_port(s, w)
        for w in (*sp.tm, *sp.mirror):
            self._step = f"writing {w.table} {[(k.name, k.value) for k in w.key]}"
            s.write(_fixed_op(w), w)
        self._step = "reading the TM carving back (tf2.tm.port.cfg)"
        actual = s.tm_queue_map(pm.uplinks)          # the carving the switch made
        sp = switch_plan.switch_plan(pipeline.contract, pm, prof, actual_queues=actual)
        for w in sp.tables:
            self._step = f"writing {w.table} {[(k.name, k.value) for k in w.key]}"
            s.write("add", w)
        for w in (*sp.pktgen, *sp.enable):
            self._step = f"writing {w.table} {[(k.name, k.value) for k in w.key]}"
            s.write(_fixed_op(w), w)
        self._step = "starting the slice clock"
        self._start_clock(s, pipeline.contract, pm.pipe)
        self._warm_until = time.monotonic() + prof.queues * sp.timer.period_ns * 1e-9
        self._verify_plan(s, sp)

    def _write_port(self, s: _Session, w: Write) -> None:
        """Add a port of the plan. One that exists already (bf_switchd adds ports by
        itself: the add is refused as ALREADY_EXISTS) at another speed, lane count or FEC is
        deleted and added as planned; if the switch refuses that, it is added back as it was
        (the verify names it). An add refused for any other reason fails with the switch's
        message."""
        port = w.key[0].value
        self._step = f"adding port {port} ($PORT)"
        try:
            s.write("add", w)
            return
        except Exception as e:
            have = s.read_entry(w.table, w.key) if _already_exists(e) else None
            if have is None:
                raise
        if all(_same(have.get(n), v) for n, v in w.data if n != "$PORT_ENABLE"):
            self._step = f"enabling port {port} ($PORT)"
            s.write("mod", Write(w.table, w.key, None, (("$PORT_ENABLE", True),)))
            return
        self._step = f"re-adding port {port} at the planned speed ($PORT)"
        s.write("del", w)
        try:
            s.write("add", w)
        except Exception:
            self._step = f"adding port {port} back at its speed ($PORT)"
            s.write("add", Write(w.table, w.key, None, tuple((n, have[n] if n != "$PORT_ENABLE" else v)
                                                             for n, v in w.data if n in have)))

    def _verify_plan(self, s: _Session, sp) -> None:
        """Read back what the plan set on the ports and the TM's AFC enable: a value a
        known limit of the switch keeps otherwise is kept in :meth:`plan_limits`; any other
        difference is a BackendError naming it."""
        self._step = "reading the switch plan back ($PORT, tf2.tm.pipe.sched_cfg)"
        limits, wrong = {}, []
        checks = [(w, s.read_entry(w.table, w.key), f"port {w.key[0].value}") for w in sp.ports]
        checks += [(w, s.read_default(w.table, w.pipe), f"{w.table} (pipe {w.pipe})") for w in sp.tm if w.default]
        for w, have, what in checks:
            if have is None:
                wrong.append(f"{what}: missing")
                continue
            for n, v in w.data:
                if not _same(have.get(n), v):
                    line = f"{what}: {n} reads {have.get(n)!r}, planned {v!r}"
                    why = MODEL_LIMITS.get((w.table, n))
                    if why is None:
                        wrong.append(line)
                    else:
                        limits.setdefault(why, []).append(line)
        if wrong:
            raise BackendError(f"{self.address.name}: the switch plan did not read back as written: {wrong[0]}"
                               + (f" (+{len(wrong) - 1} more)" if len(wrong) > 1 else ""))
        self._plan_limits = [f"{'; '.join(lines)} ({why})" for why, lines in limits.items()]

    def plan_limits(self) -> list[str]:
        return list(self._plan_limits)

    def _start_clock(self, s: _Session, contract: dict, pipe: int, wait_s: float = 2.0) -> None:
        """Put the next slice boundary one slice after the generator's first trigger: a
        clock whose registers were just created holds boundary 0, which the 32-bit local time
        would reach only after a wrap (up to 4.3 s) or catch up one slice per trigger. The
        network's time is the daemon's to seed (sync mode); this only starts the clock."""
        refs = tofino_clock.register_refs(contract)
        if "now" not in refs or "next" not in refs:
            return
        now_ref, nxt = refs["now"], refs["next"]
        deadline = time.monotonic() + wait_s
        now = 0
        while now == 0 and time.monotonic() < deadline:
            vals = s.register_get(BfrtInfo.full(now_ref.name), 0, now_ref.field)
            now = vals[pipe] if len(vals) > pipe else vals[0]
            if now == 0:
                time.sleep(0.05)
        if now:
            s.register_set(BfrtInfo.full(nxt.name), 0, (now + int(contract["clock"]["slice_ns"])) & tofino_clock.M32,
                           nxt.field)

    def _plan_present(self, s: _Session, sp) -> bool:
        """Whether the running program holds this switch plan's target tables (a switch
        the daemon configured) or not (bf_switchd started with the program, nothing else)."""
        want: dict[str, int] = {}
        for w in sp.tables:
            want[w.table] = want.get(w.table, 0) + 1
        for table, n in want.items():
            if len(s.read(table)) != n:
                return False
        return True

    # ---- state ----------------------------------------------------------------------------
    def read_state(self) -> Batch:
        if self._pipeline is None or self._info is None:
            raise BackendError(f"{self.address.name}: no pipeline set")
        s, info, c = self._s(), self._info, self._pipeline.contract
        b = Batch()
        try:
            for t in c["tables"].values():
                full = info.full(t["name"])
                # the keyless ``config`` lives in its default entry, which a read-all never returns
                for key, data in s.read(full, default=not t.get("keys")):
                    action = data.get("action_name")
                    if not key and not action:
                        continue                 # a default entry nobody set
                    b.entries.append(info.decode_entry(full, key, action, data, t["name"], is_default=not key))
                if "action_profile" in t:
                    prof_t, sel_t = info.profile_tables(t["action_profile"])
                    for key, data in s.read(prof_t.name):
                        a = data.get("action_name")
                        spec = prof_t.actions.get(a, {"params": {}})
                        b.members.append(Member(t["action_profile"], int(key["$ACTION_MEMBER_ID"]), a,
                                                tuple((p, int(data[p])) for p in spec["params"] if p in data)))
                    for key, data in s.read(sel_t.name):
                        b.groups.append(Group(t["action_profile"], int(key["$SELECTOR_GROUP_ID"]),
                                              tuple(int(m) for m in data.get("$ACTION_MEMBER_ID", []))))
        except BackendError:
            raise
        except Exception as e:
            raise BackendError(f"{self.address.name}: reading the tables back failed: {_error_text(e)}") from None
        return b

    def apply(self, diff: Diff, progress: Callable[[int], object] | None = None) -> WriteReport:
        """The diff's writes in dependency order, ``batch`` at a time: consecutive writes of
        one table and one operation go in one WriteRequest (``batch = 1``: one by one)."""
        if self._info is None:
            raise BackendError(f"{self.address.name}: no pipeline set")
        t0 = time.monotonic()
        writes = diff_writes(self._info, diff)
        rep = WriteReport()
        s = self._s()
        done = 0
        for op, group in _batches(writes, self.batch):
            if group[0].table.endswith(".config"):
                time.sleep(max(0.0, self._warm_until - time.monotonic()))   # the TM rotation first
            try:
                s.write_batch(op, group)
            except Exception as e:
                w = group[0]
                more = f" (and {len(group) - 1} more in the batch)" if len(group) > 1 else ""
                raise BackendError(f"{self.address.name}: {op} in {w.table} {[(k.name, k.value) for k in w.key]}"
                                   f"{more} failed: {_error_text(e)}") from None
            rep.requests += 1
            n = len(group)
            if op == "add":
                rep.inserted += n
            elif op == "mod":
                rep.modified += n
            else:
                rep.deleted += n
            done += n
            if progress:
                progress(done)
        rep.seconds = time.monotonic() - t0
        return rep

    # ---- time and counters -------------------------------------------------------------------
    def send_timer(self, slice_id: int, sync: bool = False) -> None:
        """Nothing to do: the switch keeps the slice itself, its own clock acted on by the
        packet generator's triggers (docs/tofino2.md "The slice clock"); aligning it with the
        network's time is :meth:`seed_clock`'s job."""

    def read_counters(self) -> dict[str, dict[str, int]]:
        """Each counter in one read-all (not one RPC per cell)."""
        return self._read_counters(None)

    def read_counter(self, counter: str) -> dict[str, int]:
        """One counter's cells in one read-all (each counter costs a hardware sync and a
        read: on the model about a third of :meth:`read_counters`' time)."""
        return self._read_counters(counter)[counter]

    def _read_counters(self, only: str | None) -> dict[str, dict[str, int]]:
        """The contract's counters, or counter ``only`` alone, each in one read-all."""
        if self._pipeline is None or self._info is None:
            raise BackendError(f"{self.address.name}: no pipeline set")
        c = self._pipeline.contract
        if only is not None:
            need_counter(self.address.name, c["counters"], only)
        names = list(c["counters"]) if only is None else [only]
        cells = {}
        try:
            for cname in names:
                cells[cname] = self._s().read_cells(self._info.full(c["counters"][cname]["name"]))
        except BackendError:
            raise
        except Exception as e:
            raise BackendError(f"{self.address.name}: reading the counters failed: {_error_text(e)}") from None
        return decode_counters({**c, "counters": {n: c["counters"][n] for n in names}}, cells)


    # ---- links ------------------------------------------------------------------------------------
    def clear_link_down(self, uplinks: frozenset[int]) -> frozenset[int]:
        """Clear the bits of ``uplinks`` in the program's ``link_down_reg`` (the contract's
        ``target_state.registers.link_down``): the packet generator's port-down application
        set the bit of an uplink whose port went down (templates/fragments/t2na/clock.p4.j2)
        and nothing in the data plane clears it, so without this a recovered uplink stays
        down until bf_switchd restarts. Once the bit is clear, the timer's pauses clear the
        uplink's Full flags again (each queue at its next pause: within one cycle of Q slices).

        Read-modify-write of the one cell of the ToR's pipe: bits of other uplinks (still
        down) are written back as read; nothing is written when none of ``uplinks`` is set.
        (Not atomic with the data plane: a port-down batch between the read and the write
        would lose its bit; the daemon's down mask, written when it learns the failure,
        routes around that uplink regardless.)"""
        if not uplinks:
            return frozenset()
        if self._pipeline is None or self._pm is None:
            raise BackendError(f"{self.address.name}: no pipeline set")
        name = BfrtInfo.full(self._pipeline.contract["target_state"]["registers"]["link_down"])
        s = self._s()
        try:
            cells = s.register_get(name)
            v = cells[self._pm.pipe] if len(cells) > self._pm.pipe else cells[0]
            mask = sum(1 << u for u in uplinks)
            if not v & mask:
                return frozenset()
            s.register_set(name, 0, v & ~mask)
        except BackendError:
            raise
        except Exception as e:
            raise BackendError(f"{self.address.name}: clearing uplinks {sorted(uplinks)} in {name} failed: "
                               f"{_error_text(e)}") from None
        return frozenset(u for u in uplinks if v >> u & 1)


    # ---- the slice clock (docs/clock.md, docs/tofino2.md "The slice clock") -------------------
    def _clock_values(self, shorts=None) -> dict[str, int]:
        """The clock's register words by contract name (``clock.registers``), of the ToR's
        pipe; one read per register (a pair's two fields come in one)."""
        if self._pipeline is None or self._pm is None:
            raise BackendError(f"{self.address.name}: no pipeline set")
        refs = tofino_clock.register_refs(self._pipeline.contract)
        if not refs:
            raise ClockNotSupported(f"{self.address.name}: the program {self._pipeline.program!r} keeps no slice "
                                    "clock (its contract has no clock registers)")
        s, pipe = self._s(), self._pm.pipe
        out: dict[str, int] = {}
        read: dict[tuple[str, int], dict[str, list[int]]] = {}
        try:
            for short, r in refs.items():
                if shorts is not None and short not in shorts:
                    continue
                full = BfrtInfo.full(r.name)
                for i in range(r.size):
                    if (full, i) not in read:
                        read[(full, i)] = s.register_fields(full, i)
                    vals = read[(full, i)][_register_field(full, r.field)]
                    v = vals[pipe] if len(vals) > pipe else vals[0]
                    out[short if r.size == 1 else f"{short}_{i}"] = v
        except BackendError:
            raise
        except Exception as e:
            raise BackendError(f"{self.address.name}: reading the slice clock failed: {_error_text(e)}") from None
        return out

    def read_clock(self) -> dict[str, int]:
        """The clock's registers (the contract's ``clock.registers`` names: next boundary,
        slice, slice number, local slice length, stratum, term, lead, lead_k, refusals,
        last offset and delay, last correction, the open requests), offset and delay
        signed, term and lead split out of ``term_lead``; with liveness per circuit (the
        contract's ``liveness.marks``) also ``live_mask`` and ``live_wrong``, as bmv2's
        (bit ``s * d + u``: :meth:`read_marks`)."""
        out = tofino_clock.decode(self._clock_values())
        if self._pipeline is not None and "marks" in self._pipeline.contract.get("liveness", {}):
            out.update(self.read_marks())
        return out

    def read_marks(self) -> dict[str, int]:
        """The liveness marks of the ToR's pipe (docs/liveness.md "On Tofino2"): the mark
        register's cells (cell ``s * d + u``: the down and wrong-peer bits the contract's
        ``liveness.marks`` names) in one read, as the bitmaps ``live_mask`` and
        ``live_wrong`` (bit ``s * d + u``) the daemon's liveness watch reads."""
        if self._pipeline is None or self._pm is None:
            raise BackendError(f"{self.address.name}: no pipeline set")
        lv = self._pipeline.contract["liveness"]
        marks = lv["marks"]
        reg = lv["registers"][marks["register"]]
        full, pipe = BfrtInfo.full(reg["name"]), self._pm.pipe
        try:
            cells = self._s().register_cells(full)
        except BackendError:
            raise
        except Exception as e:
            raise BackendError(f"{self.address.name}: reading the liveness marks failed: {_error_text(e)}") from None
        mask = wrong = 0
        for i, fields in cells.items():
            if not 0 <= i < int(reg["size"]) or not fields:
                continue
            vals = next(iter(fields.values()))
            v = vals[pipe] if len(vals) > pipe else vals[0]
            if v & int(marks["down_bit"]):
                mask |= 1 << i
            if v & int(marks["wrong_bit"]):
                wrong |= 1 << i
        return {"live_mask": mask, "live_wrong": wrong}

    def probe_clock(self, timeout_s: float = 1.0) -> ClockProbe:
        """The switch's time as its registers hold it: (k, phase) at the local time of the
        packet generator's last trigger (``tick_reg.now``). BfRt reads no clock, so the
        switch "answered" at that trigger, up to one generator period before the read:
        ``sent_ns`` is the read's start less that period. (On tofino-model the model's
        time is not wall time: such a probe says nothing of the offset there.)"""
        tick_ns = int(self._pipeline.contract["clock"].get("tick_ns", 0)) if self._pipeline else 0
        sent = time.monotonic_ns() - tick_ns
        v = tofino_clock.decode(self._clock_values())
        received = time.monotonic_ns()
        k, phase = tofino_clock.time_at(v["k"], v["next"], v["len"], v["now"])
        # a program without the exchange keeps no tree: unsynchronized, no term
        return ClockProbe(k=k, phase_ns=phase, local_ns=v["now"], stratum=v.get("stratum", tofino_clock.UNSYNCED),
                          term=v.get("term", 0), lead=v.get("lead", 0), lead_k=v.get("lead_k", 0), sent_ns=sent,
                          received_ns=received, registers=v)

    def seed_clock(self, k: int, phase_ns: int, reference: bool, lead: bool = False) -> None:
        """Set the clock to network time ``(k, phase_ns)`` now, by register writes: the
        local time of the generator's last trigger stands for now (one generator period
        at most), the boundary is held away while the slice number and the tree are written
        (:func:`controller.tofino2.clock.seed_writes`), then set. ``reference``: stratum 0;
        ``lead`` (the ToR the config names first among the leads; the program keeps no
        election): stratum 1, the root the other ToRs synchronize to; otherwise 255, so the
        next exchange with a better clock corrects it."""
        c = self._pipeline.contract if self._pipeline else {}
        refs = tofino_clock.register_refs(c)
        if not refs:
            raise ClockNotSupported(f"{self.address.name}: the program keeps no slice clock to seed")
        clock = c["clock"]
        now = self._clock_values(("now",))["now"]
        s = self._s()
        try:
            writes: list[tuple[str, dict]] = []     # consecutive fields of one register in one write
            for short, value in tofino_clock.seed_writes(k, phase_ns, now, int(clock["slice_ns"]),
                                                          int(c["profile"]["slices"]), reference, lead):
                r = refs.get(short)
                if r is None:
                    continue                        # a register this program does not keep
                if writes and writes[-1][0] == r.name:
                    writes[-1][1][r.field] = value
                else:
                    writes.append((r.name, {r.field: value}))
            for name, fields in writes:
                s.register_set(BfrtInfo.full(name), 0, fields)
        except (BackendError, ValueError) as e:
            raise BackendError(f"{self.address.name}: seeding the slice clock failed: {e}") from None
        except Exception as e:
            raise BackendError(f"{self.address.name}: seeding the slice clock failed: {_error_text(e)}") from None


#: the SDE's two spellings of the same FEC ($PORT's $FEC choices)
_ALIASES = {"BF_FEC_TYP_RS": "BF_FEC_TYP_REED_SOLOMON", "BF_FEC_TYP_FC": "BF_FEC_TYP_FIRECODE"}


def _same(read, planned) -> bool:
    """A value read back is the planned one (FEC names in either spelling)."""
    return _ALIASES.get(read, read) == _ALIASES.get(planned, planned)


def _fixed_op(w: Write) -> str:
    """Fixed-function tables (tf2.tm.*, tf2.pktgen.*) hold their entries already: modify;
    the mirror session is added."""
    return "mod" if w.table.startswith("tf2.") else "add"


def _batches(writes: list[tuple[str, Write]], size: int):
    """Consecutive (op, table, pipe) runs of at most ``size`` writes; default entries alone."""
    cur: list[Write] = []
    cur_key = None
    for op, w in writes:
        k = (op, w.table, w.pipe, w.default)
        if cur and (k != cur_key or len(cur) >= size or w.default):
            yield cur_key[0], cur
            cur = []
        cur.append(w)
        cur_key = k
    if cur:
        yield cur_key[0], cur


def _profile_of(contract: dict):
    doc = dict(contract["profile"])
    keep = {k: doc[k] for k in profile_mod._TOP_KEYS if k in doc}
    return profile_mod.from_dict(keep, "the pipeline contract")
