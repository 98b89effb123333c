"""The BfRt backend's calls into bfrt_grpc, against a fake client that enforces what the
SDE enforces (tofino2-sde-review.md F1-F16, each rule with its SDE source) -- the same
errors tofino-model + bf_switchd gave on first contact (tofino_tests/ shows them fixed on
the real runtime). No switch is needed: these run everywhere."""

from __future__ import annotations

import contextlib
import json
import queue

import pytest

from controller.agent import backend as be
from controller.agent import bfrt as bfrt_backend
from controller.p4gen import profile as prof
from controller.p4gen import render as rnd
from controller.tofino2 import chip, settings
from controller.tofino2.bfrt_json import KeyField, Write

T = "tofino2"
PIPE_ALL = 0xFFFF


#: google.rpc.Code of the per-update errors bf_switchd returns
NOT_FOUND, ALREADY_EXISTS, INVALID_ARGUMENT, UNIMPLEMENTED, UNKNOWN = 5, 6, 3, 12, 2


class SdeError(Exception):
    """What bfrt_grpc raises for a refused write: the server's per-update errors, each a
    ``p4 Error`` with ``canonical_code`` and ``message`` (``sub_errors_get``)."""

    def __init__(self, message: str, code: int = UNKNOWN):
        super().__init__(message)
        self.code = code

    def sub_errors_get(self):
        return [(0, type("P4Error", (), {"canonical_code": self.code, "message": str(self)})())]


# ---- a fake bfrt_grpc.client ------------------------------------------------------------------
class DataTuple:
    """client.py DataTuple.__init__: ``val`` must be an int or a bytearray (or str); Python 3
    ``bytes`` raises TypeError (F1)."""

    def __init__(self, name, val=None, float_val=None, str_val=None, int_arr_val=None, bool_arr_val=None,
                 bool_val=None, container_arr_val=None, str_arr_val=None):
        if val is not None and not isinstance(val, (int, bytearray, str)):
            raise TypeError(f"Please pass an int/long or bytearray. you passed {type(val)}")
        self.name = name
        self.value = next((v for v in (val, str_val, int_arr_val, bool_arr_val, bool_val) if v is not None), None)


class KeyTuple:
    """client.py KeyTuple: exact (value), ternary (mask), LPM (prefix_len), range (low, high)."""

    def __init__(self, name, value=None, mask=None, prefix_len=None, low=None, high=None):
        self.name, self.value, self.mask, self.prefix_len, self.low, self.high = \
            name, value, mask, prefix_len, low, high


class Target:
    def __init__(self, device_id=0, pipe_id=PIPE_ALL, direction=0xFF, prsr_id=0xFF):
        self.device_id, self.pipe_id = device_id, pipe_id


class _Dict:
    def __init__(self, d):
        self.d = d

    def to_dict(self):
        return dict(self.d)


def _preset(table: str, key) -> bool:
    """Entries that exist before anything is written, so they are modified, never added:
    those of the fixed functions (tf2.tm.*, tf2.pktgen.*) and every register and counter
    cell (keyed by $REGISTER_INDEX / $COUNTER_INDEX)."""
    return table.startswith("tf2.") or bool(key) and key[0][0] in ("$REGISTER_INDEX", "$COUNTER_INDEX")


class FakeTable:
    """One table of the fake switch, with the SDE's rules: an add of a key the table holds
    is refused (ALREADY_EXISTS: it never overwrites), a mod or delete of a key it does not
    hold is refused (NOT_FOUND), range keys keep both bounds, and the fixed functions'
    rules (each F* names its SDE source in tofino2-sde-review.md)."""

    def __init__(self, sw, name):
        self.sw, self.name = sw, name
        self.entries: dict = {}
        self.default = None

    def make_key(self, fields):
        return tuple((f.name, f.value, f.mask, f.prefix_len, f.low, f.high) for f in fields)

    def make_data(self, fields, action=None):
        return (action, {f.name: f.value for f in fields})

    def _held(self, k) -> bool:
        return k in self.entries or _preset(self.name, k)

    def _check(self, op, target, keys=(), datas=()):
        self.sw.calls.append((op, self.name, target.pipe_id))
        if self.name.startswith(("tf2.tm.", "tf2.pktgen.")) and target.pipe_id == PIPE_ALL:
            # F4: bf_rt_tm_table_impl.cpp singlePipe_validate refuses PIPE_ALL; F13: a
            # pktgen write for all pipes starts the generator in every pipe
            raise SdeError(f"{self.name}: singlePipe_validate: PIPE_ALL is not allowed (F4, F13)", INVALID_ARGUMENT)
        if self.name.startswith("tf2.") and op == "add":
            raise SdeError(f"UNIMPLEMENTED: {self.name} Operation not supported (F9)", UNIMPLEMENTED)
        for k, d in zip(keys, datas or [None] * len(keys)):
            if op == "add" and self.name == "$PORT" and k[0][1] in self.sw.port_add_refused:
                raise SdeError(self.sw.port_add_refused[k[0][1]], UNKNOWN)
            if op == "add" and self._held(k):
                raise SdeError(f"Table Entry add failed table:{self.name} key {k}: Already exists", ALREADY_EXISTS)
            if op in ("mod", "del") and not self._held(k):
                raise SdeError(f"Table Entry {op} failed table:{self.name} key {k}: Object not found", NOT_FOUND)
            if d is None:
                continue
            action, fields = d
            if self.name == "tf2.tm.port.group" and len(fields["port_queue_count"]) != 8:
                raise SdeError(f"port_queue_count given has {len(fields['port_queue_count'])} items instead of 8 (F5)")
            if self.name == "tf2.pktgen.app_cfg" and "pkt_len" in fields and fields["pkt_len"] < 59:
                raise SdeError(f"Packet length, {fields['pkt_len']}, is too small. Must be at least 59. (F2)")
            if self.name == "$PORT" and fields.get("$SPEED") == "BF_SPEED_100G" and chip.channel(k[0][1]) % 2:
                raise SdeError(f"dev_port {k[0][1]}: 100G on an odd channel (F11)", INVALID_ARGUMENT)
            if self.name == "$PORT" and self.sw.model and fields.get("$SPEED", "BF_SPEED_10G") != "BF_SPEED_10G":
                raise SdeError("Table Add failed table:$PORT Invalid arguments (tofino-model: 10G only)")

    def entry_add(self, target, keys, datas=None):
        self._check("add", target, keys, datas)
        for k, d in zip(keys, datas or [None] * len(keys)):
            self.entries[k] = d

    def entry_mod(self, target, keys, datas, **kw):
        self._check("mod", target, keys, datas)
        for k, d in zip(keys, datas):
            self.entries[k] = d

    def entry_del(self, target, keys):
        self._check("del", target, keys)
        for k in keys:
            self.entries.pop(k, None)

    def default_entry_set(self, target, data):
        self._check("default", target)
        if self.sw.model and self.name == "tf2.tm.pipe.sched_cfg":
            data = (data[0], {**data[1], "advanced_flow_control_enable": False})     # not kept
        self.default = data

    def default_entry_get(self, target, flags=None):
        self.sw.reads.append((self.name, "default"))
        a, f = self.default or ("C.unconfigured", {})
        yield _Dict({**f, "action_name": a, "is_default_entry": True}), None

    def entry_get(self, target, keys=None, flags=None):
        self.sw.reads.append((self.name, "all" if keys is None else len(keys)))
        if self.name == "tf2.tm.port.cfg":        # the carving the port.group writes made
            yield from self._port_cfg(keys)
            return
        fields = self.sw.registers.get(self.name)
        for k in keys or ():
            if fields and k not in self.entries:           # a register cell never written reads 0 (every pipe)
                yield _Dict({f: [0, 0, 0, 0] for f in fields}), None
        for k, d in self.entries.items():
            if keys is not None and k not in keys:
                continue
            a, f = d if d else (None, {})
            # _Key.to_dict(): {field: {"value": v} | {"value", "mask"} | {"value", "prefix_len"}
            # | {"low", "high"}} (F6)
            kd = {}
            for name, value, mask, plen, low, high in k:
                kd[name] = ({"low": low, "high": high} if low is not None else
                            {"value": value, **({"mask": mask} if mask is not None else {}),
                             **({"prefix_len": plen} if plen is not None else {})})
            yield _Dict({**f, **({"action_name": a} if a else {})}), _Dict(kd)

    def _port_cfg(self, keys):
        groups = self.sw.tables["tf2.tm.port.group"].entries
        for k in keys:
            port = k[0][1]
            _, f = groups[(("pg_id", (port & 0x7F) >> 3, None, None, None, None),)]
            ch = port & 7
            base = sum(f["port_queue_count"][:ch])
            qmap = f[f"ingress_qid_map_{ch}"]
            # bf_rt_tm_table_impl_port.cpp: egress_qid_queues[q] = pg_base_queue + q_map[q]
            yield _Dict({"ingress_qid_map": list(qmap), "egress_qid_queues": [base + m for m in qmap]}), None

    def operations_execute(self, target, op):
        self.sw.calls.append(("op:" + op, self.name, target.pipe_id))


class FakeInfo:
    def __init__(self, sw):
        self.sw = sw

    def table_get(self, name):
        return self.sw.tables.setdefault(name, FakeTable(self.sw, name))


class FakeSwitch:
    def __init__(self):
        self.tables: dict = {}
        self.calls: list = []
        self.reads: list = []
        self.programs: list = []         # [(p4_name, bfrt.json bytes)]
        self.binds: list = []            # (p4_name, base_path)
        #: dev port -> why the switch refuses to add it (F3: the model's dev port 7 has no front port)
        self.port_add_refused: dict[int, str] = {}
        #: behave as tofino-model does: 10G ports only, the AFC enable not kept
        self.model = False
        #: the program's registers: BfRt table -> its data fields (a cell never written reads 0)
        self.registers: dict[str, list[str]] = {}

    def know_registers(self, contract: dict) -> None:
        """The registers the backend reads (the link-down mark, the slice clock's)."""
        names = [(r, None) for r in [contract["target_state"]["registers"]["link_down"]]]
        names += [(r["name"], r.get("field")) for r in contract.get("clock", {}).get("registers", {}).values()]
        for name, field in names:
            self.registers.setdefault("pipe." + name, []).append(f"{name}.{field or 'f1'}")
        self.now_reg = contract.get("clock", {}).get("registers", {}).get("now")
        self.timer_fired()

    #: the local time of the generator's last trigger (tick_reg.now)
    TRIGGER_NOW = 123456

    def timer_fired(self) -> None:
        """The generator's timer fired once (the program's tick_reg holds its local time)."""
        now = getattr(self, "now_reg", None)
        if now:
            t = self.tables.setdefault("pipe." + now["name"], FakeTable(self, "pipe." + now["name"]))
            t.entries[(("$REGISTER_INDEX", 0, None, None, None, None),)] = (None, {
                f: [self.TRIGGER_NOW if f.endswith(".now") else 0] * 4 for f in self.registers["pipe." + now["name"]]})

    def ports_added_by_switchd(self, ports) -> None:
        """bf_switchd adds the front-panel ports at 10G, 1 lane, no FEC when it starts."""
        t = self.tables.setdefault("$PORT", FakeTable(self, "$PORT"))
        for p in ports:
            t.entries[(("$DEV_PORT", p, None, None, None, None),)] = (None, {
                "$SPEED": "BF_SPEED_10G", "$N_LANES": 1, "$FEC": "BF_FEC_TYP_NONE", "$PORT_ENABLE": False})


class _Cfg:
    def __init__(self, name, info):
        self.p4_name, self.bfruntime_info = name, info


class FakeStub:
    def __init__(self, sw):
        self.sw = sw

    def GetForwardingPipelineConfig(self, req, timeout=None):
        return type("Resp", (), {"config": [_Cfg(n, b) for n, b in self.sw.programs]})()


class FakeStream:
    """The thread ClientInterface reads its notification stream on: alive until the switch
    goes away (:meth:`end`) or the client tears the stream down."""

    def __init__(self):
        self.running = True

    def is_alive(self):
        return self.running

    def end(self):
        self.running = False


class FakeInterface:
    """ClientInterface: NO get_forwarding_pipeline_config (client.py 367-855, F10)."""

    def __init__(self, sw):
        self.sw = sw
        self.stub = FakeStub(sw)
        self.stream_recv_thread = FakeStream()
        self.exception_q = queue.Queue()

    def send_set_forwarding_pipeline_config_request(self, action, base_path, configs):
        fwd = configs[0]
        self.sw.binds.append((fwd.p4_name, base_path))
        self.sw.programs = [(fwd.p4_name, open(fwd.bfrt, "rb").read())]
        self.sw.tables.clear()
        self.sw.timer_fired()
        return True

    def bfrt_info_get(self, p4_name=None):
        if p4_name not in [n for n, _ in self.sw.programs]:
            raise RuntimeError("BF_RT_INFO not received")
        return FakeInfo(self.sw)

    def bind_pipeline_config(self, p4_name):
        pass

    def tear_down_stream(self):
        self.stream_recv_thread.end()


class FakeGc:
    """The parts of bfrt_grpc.client the backend uses."""

    DataTuple, KeyTuple, Target = DataTuple, KeyTuple, Target

    class bfruntime_pb2:
        class GetForwardingPipelineConfigRequest:
            def __init__(self, device_id=0, client_id=0):
                self.device_id, self.client_id = device_id, client_id

        class SetForwardingPipelineConfigRequest:
            VERIFY_AND_WARM_INIT_BEGIN_AND_END = 3

    class ProfileInfo:
        def __init__(self, name, context, binary, pipe_scope):
            self.context, self.binary = context, binary

    class ForwardingConfig:
        def __init__(self, p4_name, bfrt, profiles):
            self.p4_name, self.bfrt, self.profiles = p4_name, bfrt, profiles

    def __init__(self, sw):
        self.sw = sw

    def ClientInterface(self, grpc_addr, client_id, device_id, num_tries=5):
        return FakeInterface(self.sw)


# ---- fixtures ---------------------------------------------------------------------------------
@pytest.fixture
def tiny_t2na(tmp_path):
    """A tofino2 Pipeline of the tiny ToR: the rendered contract and stand-in program files
    (a bf-p4c output directory's layout; the bytes are not loaded by the fake switch)."""
    p = prof.load("tiny")
    _, contract = rnd.render(p, "tor", T)
    d = tmp_path / "build" / "tor_tiny_t2na"
    (d / "pipe").mkdir(parents=True)
    (d / "bfrt.json").write_text('{"tables": []}')
    (d / "pipe" / "context.json").write_text(json.dumps({"program_name": "tor_tiny_t2na"}))
    (d / "pipe" / "tofino2.bin").write_bytes(b"\0")
    files = {"bfrt": d / "bfrt.json", "context": d / "pipe" / "context.json", "binary": d / "pipe" / "tofino2.bin"}
    return be.Pipeline(T, "tor", contract, files, bfrt_backend.bfrt_cookie((d / "bfrt.json").read_bytes())), p


@pytest.fixture
def fake(monkeypatch, tiny_t2na):
    """(backend, fake switch) with prepare() standing in for the bfrt.json check."""
    sw = FakeSwitch()
    monkeypatch.setattr(bfrt_backend, "load_bfrt_grpc", lambda: FakeGc(sw))
    pipeline, p = tiny_t2na

    def prepare(self, pl):
        return FakeInfoForDecode(), settings.default_port_map(p), p

    monkeypatch.setattr(bfrt_backend.BfrtBackend, "prepare", prepare)
    sw.know_registers(pipeline.contract)
    b = bfrt_backend.BfrtBackend(be.SwitchAddress("tor0", "127.0.0.1:50052"))
    b.connect()
    return b, sw


class FakeInfoForDecode:
    pass


# ---- tests ----------------------------------------------------------------------------------------
def test_push_writes_a_plan_the_sde_accepts(fake, tiny_t2na):
    """F4 (tf2.tm.* per pipe), F5 (8 port_queue_count items), F1 (bytearray buffer), F9
    (mod on tf2.pktgen.*), F2 (pkt_len >= 59), F11 ($PORT adds, 100G on even channels):
    today's code fails at the first of them."""
    b, sw = fake
    pipeline, p = tiny_t2na
    assert b.set_pipeline(pipeline) is True
    ops = {(op, t) for op, t, _ in sw.calls}
    assert ("add", "$PORT") in ops and ("mod", "tf2.tm.port.group") in ops and ("mod", "tf2.pktgen.pkt_buffer") in ops
    assert all(pipe == 0 for _, t, pipe in sw.calls if t.startswith("tf2."))     # the ToR's pipe, never all
    assert len(sw.tables["$PORT"].entries) == 4


@pytest.mark.parametrize("added", [False, True], ids=["no port yet", "bf_switchd added the ports"])
def test_a_port_the_switch_refuses_fails_with_the_switchs_message(fake, tiny_t2na, added):
    """A port add refused for another reason than "exists already" (here the model's answer
    for a dev port without a front port, F3) fails the push with the switch's message, also
    when the port is there: only an add refused as ALREADY_EXISTS is followed by the
    re-add at the planned speed (before, any refused add of a port the switch had was
    deleted and re-added, and the switch's reason was never shown)."""
    b, sw = fake
    pipeline, p = tiny_t2na
    pm = settings.default_port_map(p)
    bad = pm.hosts[-1]
    sw.port_add_refused = {bad: f"Unable to get the front port handle for dev_port : {bad}"}
    with pytest.raises(be.BackendError) as e, (switchd_adds_ports(sw, pm) if added else contextlib.nullcontext()):
        b.set_pipeline(pipeline)
    assert str(e.value) == (f"tor0: adding port {bad} ($PORT) failed: Unable to get the front port handle for "
                            f"dev_port : {bad}"), str(e.value)
    assert [op for op, t, _ in sw.calls if t == "$PORT"][-1] == "add"


def test_the_fake_switch_refuses_what_bf_switchd_refuses():
    """The fake enforces what it claims: an add of a key the table holds is refused (no
    overwrite), a mod or delete of a key it does not hold is refused, range keys keep both
    bounds (two entries that differ only in the high bound are two entries, read back as
    written), and the fixed functions take no all-pipes write (tf2.tm.* and tf2.pktgen.*)."""
    sw = FakeSwitch()
    s = bfrt_backend._Session(FakeGc(sw), be.SwitchAddress("tor0", "x:1"))
    s.info = FakeInfo(sw)
    w = Write("pipe.C.t", (KeyField("dst", 5),), "C.go", (("up", 1),))
    s.write("add", w)
    with pytest.raises(SdeError, match="Already exists"):
        s.write("add", Write("pipe.C.t", (KeyField("dst", 5),), "C.go", (("up", 2),)))
    assert s.read("pipe.C.t") == [({"dst": 5}, {"up": 1, "action_name": "C.go"})]
    for op in ("mod", "del"):
        with pytest.raises(SdeError, match="Object not found"):
            s.write(op, Write("pipe.C.t", (KeyField("dst", 6),), "C.go", (("up", 1),)))
    s.write("mod", Write("pipe.C.t", (KeyField("dst", 5),), "C.go", (("up", 3),)))
    s.write("del", w)
    assert s.read("pipe.C.t") == []
    for hi in (9, 12):
        s.write("add", Write("pipe.C.r", (KeyField("b", 3, high=hi),), "C.go", (("up", hi),)))
    assert s.read("pipe.C.r") == [({"b": (3, 9)}, {"up": 9, "action_name": "C.go"}),
                                  ({"b": (3, 12)}, {"up": 12, "action_name": "C.go"})]
    for table in ("tf2.tm.queue.sched_cfg", "tf2.pktgen.app_cfg"):
        with pytest.raises(SdeError, match="PIPE_ALL is not allowed"):
            s.write("mod", Write(table, (KeyField("k", 0),), None, (("x", 1),)))
        s.write("mod", Write(table, (KeyField("k", 0),), None, (("x", 1),), pipe=0))


def test_bind_uses_the_compiled_name_and_a_switch_side_base_path(fake, tiny_t2na):
    """The program is bound as bf-p4c named it (not the config's [program.tor]) and the
    switch stores its files outside the build directory."""
    b, sw = fake
    pipeline, _ = tiny_t2na
    b.set_pipeline(pipeline)
    (name, base), = sw.binds
    assert name == "tor_tiny_t2na"
    assert not base.startswith(str(pipeline.files["bfrt"].parent.parent))
    assert base == f"{bfrt_backend.BASE_PATH}/tor0"


def test_a_running_build_is_adopted_without_a_rebind(fake, tiny_t2na, monkeypatch):
    """F10: the cookie comes from GetForwardingPipelineConfig (the client has no
    get_forwarding_pipeline_config), so a second push adopts the switch."""
    b, sw = fake
    pipeline, p = tiny_t2na
    assert b.pipeline_cookie() is None
    assert b.set_pipeline(pipeline) is True
    assert b.pipeline_cookie() == pipeline.cookie
    b2 = bfrt_backend.BfrtBackend(be.SwitchAddress("tor0", "127.0.0.1:50052"))
    b2.connect()
    n = len(sw.calls)
    assert b2.set_pipeline(pipeline) is False
    assert len(sw.binds) == 1 and not [c for c in sw.calls[n:] if c[0] != "read"]   # nothing written


def test_a_switch_started_with_the_program_gets_the_plan_without_a_rebind(fake, tiny_t2na):
    """bf_switchd started with the program in its conf: same cookie, but no switch plan yet:
    the plan is written onto the running program (no warm init)."""
    b, sw = fake
    pipeline, _ = tiny_t2na
    sw.programs = [("tor_tiny_t2na", pipeline.files["bfrt"].read_bytes())]
    assert b.set_pipeline(pipeline) is False
    assert sw.binds == [] and ("add", "$PORT") in {(op, t) for op, t, _ in sw.calls}


def test_switch_errors_are_one_backend_error(fake, tiny_t2na, monkeypatch):
    """A refused write in set_pipeline is a BackendError naming the switch and the write
    (`uro agent push` prints it as one line), not an exception out of bfrt_grpc."""
    b, sw = fake
    pipeline, _ = tiny_t2na

    def refuse(self, target, data):
        raise SdeError("Table Default entry set failed table:tf2.tm.pipe.sched_cfg Invalid arguments")

    monkeypatch.setattr(FakeTable, "default_entry_set", refuse)
    with pytest.raises(be.BackendError, match=r"^tor0: writing tf2.tm.pipe.sched_cfg \[\] failed: Table Default entry "
                                              r"set failed table:tf2.tm.pipe.sched_cfg Invalid arguments$"):
        b.set_pipeline(pipeline)


def test_read_decodes_client_keys_and_the_default_entry():
    """F6: ``_Key.to_dict()`` gives {field: {"value": ...}}; the keyless ``config`` lives in
    the default entry, which only default_entry_get returns (F6b)."""
    sw = FakeSwitch()
    s = bfrt_backend._Session(FakeGc(sw), be.SwitchAddress("tor0", "x:1"))
    s.info = FakeInfo(sw)
    s.write("add", Write("pipe.C.t", (KeyField("dst", 5), KeyField("m", 3, mask=7)), "C.go", (("up", 1),)))
    s.write("mod", Write("pipe.C.config", (), "C.set_config", (("my_tor", 2),), default=True))
    assert s.read("pipe.C.t") == [({"dst": 5, "m": (3, 7)}, {"up": 1, "action_name": "C.go"})]
    rows = s.read("pipe.C.config", default=True)
    assert rows == [({}, {"my_tor": 2, "action_name": "C.set_config", "is_default_entry": True})]


def test_counters_are_read_in_one_request_each(fake, tiny_t2na):
    """F16: one read-all per counter table, not one RPC per cell (4096 for tiny's events)."""
    b, sw = fake
    pipeline, _ = tiny_t2na
    b.set_pipeline(pipeline)
    b._info = type("I", (), {"full": staticmethod(lambda n: "pipe." + n)})()
    sw.reads.clear()
    b.read_counters()
    assert sorted(t for t, _ in sw.reads) == sorted("pipe." + c["name"] for c in pipeline.contract["counters"].values())


def test_one_counter_is_read_alone_and_decoded_as_in_the_read_of_all(fake, tiny_t2na):
    """read_counter reads only that counter's table (each costs a hardware sync and a read)
    and names its cells as read_counters does (drops: reason i in cell i + cell_offset); a
    counter the contract does not name is refused, naming it and the ones there are."""
    b, sw = fake
    pipeline, _ = tiny_t2na
    b.set_pipeline(pipeline)
    b._info = type("I", (), {"full": staticmethod(lambda n: "pipe." + n)})()
    spec = pipeline.contract["counters"]["drops"]
    table = sw.tables.setdefault("pipe." + spec["name"], FakeTable(sw, "pipe." + spec["name"]))
    off = int(spec.get("cell_offset", 0))
    for i in range(len(spec["indices"])):
        table.entries[(("$COUNTER_INDEX", i + off, None, None, None, None),)] = (None, {"$COUNTER_SPEC_PKTS": 10 + i})
    sw.reads.clear()
    got = b.read_counter("drops")
    assert sw.reads == [("pipe." + spec["name"], "all")]
    assert got == {name: 10 + i for i, name in enumerate(spec["indices"])}
    assert got == b.read_counters()["drops"]
    with pytest.raises(be.BackendError, match=r"^tor0: no counter 'drop' in the contract \(it has drops, events, liveness, sync\)$"):
        b.read_counter("drop")


def test_batched_apply_sends_one_request_per_table_run(fake, tiny_t2na):
    """apply() groups consecutive writes of one table and operation (``batch``)."""
    ws = [("add", Write("pipe.C.t", (KeyField("k", i),), "C.go", (("up", 1),))) for i in range(10)]
    ws.append(("add", Write("pipe.C.u", (KeyField("k", 0),), "C.go", ())))
    runs = list(bfrt_backend._batches(ws, 4))
    assert [len(g) for _, g in runs] == [4, 4, 2, 1]
    assert [len(g) for _, g in bfrt_backend._batches(ws, 1)] == [1] * 11


@pytest.mark.parametrize("first", ["finsy", "bfrt"])
def test_bfrt_client_loads_beside_the_p4runtime_client(first):
    """finsy and bfrt_grpc each bring google/rpc/status.proto; one process (a daemon of a mixed
    network, the test suite) loads both in either order (before: 'duplicate file name')."""
    import subprocess
    import sys

    pytest.importorskip("bfrt_grpc")
    finsy = "import finsy.proto.p4.v1.p4runtime_pb2, controller.agent.p4runtime"
    bfrt = "from controller.agent.bfrt import load_bfrt_grpc; load_bfrt_grpc()"
    code = "; ".join([finsy, bfrt] if first == "finsy" else [bfrt, finsy]) + "; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_a_recovered_uplink_is_cleared_in_link_down_reg_and_only_it(fake, tiny_t2na):
    """The port-down application's marks (``link_down_reg``, one bit per uplink) are undone
    for the uplinks that came back only: a read-modify-write of the ToR pipe's cell keeps
    another uplink's bit (still down); nothing is written when no asked bit is set."""
    b, sw = fake
    pipeline, _ = tiny_t2na
    b.set_pipeline(pipeline)
    name = "pipe." + pipeline.contract["target_state"]["registers"]["link_down"]
    reg = sw.tables.setdefault(name, FakeTable(sw, name))
    key = (("$REGISTER_INDEX", 0, None, None, None, None),)
    field = pipeline.contract["target_state"]["registers"]["link_down"] + ".f1"
    reg.entries[key] = (None, {field: [0b11, 0, 0, 0]})      # read from_hw: one value per pipe
    assert b.clear_link_down(frozenset({0})) == frozenset({0})
    assert reg.entries[key][1][field] == 0b10                  # uplink 1 is still down
    n = len(sw.calls)
    assert b.clear_link_down(frozenset({0})) == frozenset()     # not set (any more): no write
    assert [c for c in sw.calls[n:] if c[0] == "mod"] == []
    assert b.clear_link_down(frozenset({0, 1})) == frozenset({1})
    assert reg.entries[key][1][field] == 0


def test_a_missing_client_library_is_said_as_such_not_as_a_silent_switch(monkeypatch, tmp_path):
    """Without bfrt_grpc importable and no SDE anywhere, connecting says the library is
    missing (MissingClient), and `uro agent push`'s connect step passes that on instead of
    "address ... does not answer" (the switch was never asked)."""
    from controller.agent.bfrt import DEFAULT_SDE_INSTALL
    from controller.daemon import plan

    def no_client():
        raise ImportError("No module named 'bfrt_grpc'")
    monkeypatch.setattr(bfrt_backend, "_import_client", no_client)
    monkeypatch.delenv("SDE_INSTALL", raising=False)
    monkeypatch.delenv("SDE", raising=False)
    monkeypatch.setattr(bfrt_backend.glob, "glob", lambda pattern: [])      # no SDE installed
    b = bfrt_backend.BfrtBackend(be.SwitchAddress("tor0", "127.0.0.1:50052"))
    with pytest.raises(be.MissingClient, match=r"bfrt_grpc .* is not installed") as ei:
        b.connect()
    assert DEFAULT_SDE_INSTALL in str(ei.value)

    class Cfg:
        path = tmp_path / "net.toml"

    class Sw:
        name, address, election_id = "tor0", "127.0.0.1:50052", 1
    err = plan.connect_error(Cfg, Sw, ei.value)
    assert "does not answer" not in str(err) and "bfrt_grpc" in str(err)
    assert "does not answer" in str(plan.connect_error(Cfg, Sw, be.Unreachable("tor0: no BfRt server")))


def test_the_client_is_found_at_the_sdes_default_install_path(monkeypatch, tmp_path):
    """SDE_INSTALL unset: the client is looked for under the SDE's default install directory."""
    monkeypatch.delenv("SDE_INSTALL", raising=False)
    monkeypatch.delenv("SDE", raising=False)
    sp = tmp_path / "install" / "lib" / "python3.11" / "site-packages"
    (sp / "tofino").mkdir(parents=True)
    monkeypatch.setattr(bfrt_backend, "DEFAULT_SDE_INSTALL", str(tmp_path / "install"))
    assert str(sp / "tofino") in bfrt_backend._sde_paths()
    monkeypatch.setenv("SDE_INSTALL", str(tmp_path / "elsewhere"))
    assert bfrt_backend._sde_paths() == []


@contextlib.contextmanager
def switchd_adds_ports(sw, pm):
    """Binding a program makes bf_switchd add the ToR's ports by itself (at 10G)."""
    orig = FakeInterface.send_set_forwarding_pipeline_config_request

    def bind(self, *a):
        r = orig(self, *a)
        sw.ports_added_by_switchd((*pm.hosts, *pm.uplinks))
        return r
    FakeInterface.send_set_forwarding_pipeline_config_request = bind
    try:
        yield
    finally:
        FakeInterface.send_set_forwarding_pipeline_config_request = orig


def _ports(sw):
    return {k[0][1]: d[1] for k, d in sw.tables["$PORT"].entries.items()}


def test_a_port_added_at_another_speed_is_re_added_as_planned(fake, tiny_t2na):
    """bf_switchd added the ports at 10G: the plan's add is refused ("exists"); the port is
    deleted and added at the planned 100G, 2 lanes, RS FEC (before: a modify the switch did
    not apply, and a verify that never looked)."""
    b, sw = fake
    pipeline, p = tiny_t2na
    pm = settings.default_port_map(p)
    with switchd_adds_ports(sw, pm):
        assert b.set_pipeline(pipeline) is True
    got = _ports(sw)
    assert {d["$SPEED"] for d in got.values()} == {"BF_SPEED_100G"}
    assert {(d["$N_LANES"], d["$FEC"], d["$PORT_ENABLE"]) for d in got.values()} == {(2, "BF_FEC_TYP_RS", True)}
    assert b.plan_limits() == []


def test_what_the_model_cannot_hold_is_named_as_a_model_limit(fake, tiny_t2na):
    """On tofino-model the ports stay 10G (a planned speed is refused: each port is added
    back as it was) and the AFC enable reads False: set_pipeline succeeds and names both as
    tofino-model limits, with the values read and planned (before: "read back: identical")."""
    b, sw = fake
    pipeline, p = tiny_t2na
    pm = settings.default_port_map(p)
    sw.model = True
    with switchd_adds_ports(sw, pm):
        assert b.set_pipeline(pipeline) is True
    got = _ports(sw)
    assert sorted(got) == sorted((*pm.hosts, *pm.uplinks))                  # every port is there
    assert {d["$SPEED"] for d in got.values()} == {"BF_SPEED_10G"}
    lines = b.plan_limits()
    assert len(lines) == 2, lines
    port_line = next(ln for ln in lines if "$SPEED" in ln)
    assert f"port {pm.uplinks[0]}: $SPEED reads 'BF_SPEED_10G', planned 'BF_SPEED_100G'" in port_line
    assert "$N_LANES reads 1, planned 2" in port_line and "tofino-model" in port_line
    afc = next(ln for ln in lines if "advanced_flow_control_enable" in ln)
    assert "reads False, planned True" in afc and "tofino-model" in afc
    # a re-push adopts the switch and reads the plan back again: the same lines
    b2 = bfrt_backend.BfrtBackend(be.SwitchAddress("tor0", "127.0.0.1:50052"))
    b2.connect()
    assert b2.set_pipeline(pipeline) is False and b2.plan_limits() == lines


def test_a_plan_value_that_is_no_known_limit_fails_the_push(fake, tiny_t2na, monkeypatch):
    """A value the plan wrote that reads back otherwise and is no known limit (a port left
    disabled) is a BackendError naming it, not a silent pass."""
    b, sw = fake
    pipeline, _ = tiny_t2na
    real = FakeTable.entry_get

    def disabled(self, target, keys=None, flags=None):
        for d, k in real(self, target, keys, flags):
            yield (_Dict({**d.d, "$PORT_ENABLE": False}) if self.name == "$PORT" else d), k
    monkeypatch.setattr(FakeTable, "entry_get", disabled)
    with pytest.raises(be.BackendError, match=r"tor0: the switch plan did not read back as written: port \d+: "
                                              r"\$PORT_ENABLE reads False, planned True"):
        b.set_pipeline(pipeline)


def test_the_session_token_holds_while_the_stream_runs_and_moves_with_a_new_session(fake):
    """session_epoch: the same token while the session's stream runs (the survey skips the
    cookie), None once bf_switchd dropped the stream or the stream failed (the cookie is
    asked), and a different token for the next session; ``connected`` follows the stream."""
    b, sw = fake
    first = b.session_epoch()
    assert b.connected and first is not None and b.session_epoch() == first
    b._session.iface.exception_q.put(RuntimeError("stream: UNAVAILABLE"))
    assert b.session_epoch() is None and not b.connected
    b.close()
    assert b.session_epoch() is None and not b.connected
    b.connect()
    second = b.session_epoch()
    assert b.connected and second is not None and second != first
    b._session.iface.stream_recv_thread.end()          # bf_switchd restarted
    assert b.session_epoch() is None
    # the old session still answers the cookie but no table (tofino_tests/test_z_restart.py):
    # it counts as down, so the daemon reconnects
    assert not b.connected


# ---- the slice clock over BfRt (read, probe, seed: docs/tofino2.md "The slice clock") -------------
def _clock_cell(sw, contract, short):
    """(register table, key, data field) of the clock's ``short`` register in the fake switch."""
    r = contract["clock"]["registers"][short]
    name = "pipe." + r["name"]
    return sw.tables.setdefault(name, FakeTable(sw, name)), (("$REGISTER_INDEX", 0, None, None, None, None),), \
        f"{r['name']}.{r.get('field') or 'f1'}"


def _set_clock(sw, contract, **values):
    for short, v in values.items():
        t, key, field = _clock_cell(sw, contract, short)
        a, fields = t.entries.get(key, (None, {}))
        t.entries[key] = (a, {**{f: [0] * 4 for f in sw.registers[t.name]}, **fields, field: [v, 0, 0, 0]})


def test_the_clock_starts_a_slice_after_the_generators_first_trigger(fake, tiny_t2na):
    """A switch whose program was just bound holds next boundary 0, which its 32-bit local
    time reaches only after a wrap: the push puts it one slice after the first trigger."""
    b, sw = fake
    pipeline, _ = tiny_t2na
    b.set_pipeline(pipeline)
    L = pipeline.contract["clock"]["slice_ns"]
    t, key, field = _clock_cell(sw, pipeline.contract, "next")
    assert t.entries[key][1][field] == FakeSwitch.TRIGGER_NOW + L


def test_read_clock_decodes_the_contracts_registers(fake, tiny_t2na):
    b, sw = fake
    pipeline, _ = tiny_t2na
    b.set_pipeline(pipeline)
    _set_clock(sw, pipeline.contract, k=77, next=5000, len=2001, now=4200, slice=1, epoch=9, active_q=3,
               stratum=2, last_k=70)
    c = b.read_clock()
    assert (c["k"], c["next"], c["len"], c["now"], c["slice"], c["epoch"], c["active_q"]) == \
        (77, 5000, 2001, 4200, 1, 9, 3)
    assert (c["stratum"], c["last_k"]) == (2, 70)       # egress's stratum_reg, as the status shows it
    p = b.probe_clock()
    # at the last trigger (local 4200) the slice that ends at 5000 was 2001 - 800 ns in; the
    # stratum is egress's register; the program keeps no term or lead
    assert (p.k, p.phase_ns, p.local_ns, p.stratum, p.term, p.lead) == (77, 1201, 4200, 2, 0, 0)
    assert p.received_ns - p.sent_ns >= pipeline.contract["clock"]["tick_ns"]   # the trigger's age is uncertainty


def test_seed_clock_holds_the_boundary_until_the_clock_is_written(fake, tiny_t2na):
    """A seed writes the slice number and the tree with the boundary held away (no trigger
    ticks a half-written clock), then sets the boundary: L - phase after the last trigger."""
    b, sw = fake
    pipeline, p = tiny_t2na
    b.set_pipeline(pipeline)
    c = pipeline.contract
    _set_clock(sw, c, now=9000)
    n = len(sw.calls)
    b.seed_clock(1234, 500, reference=False)
    writes = [name for op, name, _ in sw.calls[n:] if op == "mod"]
    bound = "pipe." + c["clock"]["registers"]["next"]["name"]
    assert writes[0] == writes[-1] == bound and writes.count(bound) == 2
    v = b.read_clock()
    L = c["clock"]["slice_ns"]
    assert (v["k"], v["slice"], v["next"]) == (1234, 1234 % p.slices, 9000 + L - 500)
    with pytest.raises(be.BackendError, match=r"tor0: seeding the slice clock failed: phase 2000 ns is outside"):
        b.seed_clock(7, L, reference=True)


@pytest.mark.parametrize("lead, stratum", [(True, 1), (False, 255)])
def test_seed_clock_writes_the_leads_stratum_1_and_the_others_255(fake, tiny_t2na, lead, stratum):
    """The t2na program keeps no election: the seed of the ToR the config names first among
    the leads writes stratum 1 (the root the others synchronize to), any other ToR's 255;
    either way the last correction's slice number is the seed's (the stratum ages from it),
    in one write of egress's stratum_reg."""
    b, sw = fake
    pipeline, _ = tiny_t2na
    b.set_pipeline(pipeline)
    c = pipeline.contract
    _set_clock(sw, c, now=9000, stratum=7, last_k=3)
    n = len(sw.calls)
    b.seed_clock(1234, 500, reference=False, lead=lead)
    reg = "pipe." + c["clock"]["registers"]["stratum"]["name"]
    assert reg == "pipe.UroEgress.stratum_reg" == "pipe." + c["clock"]["registers"]["last_k"]["name"]
    assert [name for op, name, _ in sw.calls[n:] if op == "mod"].count(reg) == 1
    v = b.read_clock()
    assert (v["stratum"], v["last_k"]) == (stratum, 1234)


# ---- the fixed-function writes against the SDE's own schemas -----------------------------------
#: the BfRt schemas of the fixed functions, as the SDE installs them (bf_switchd loads these)
SDE_SCHEMAS = bfrt_backend.sde_install() / "share" / "bf_rt_shared"


def _sde_tables() -> dict:
    """{table: (key names, {action: {field: type}}, {common field: type})} of the SDE's
    bf_rt_{port,tm,pktgen,mirror}_tf2.json; a field's type is its ``type`` object (``type``,
    ``choices``, ``width``) plus ``repeated``."""
    out = {}
    for part in ("port", "tm", "pktgen", "mirror"):
        for t in json.loads((SDE_SCHEMAS / f"bf_rt_{part}_tf2.json").read_text())["tables"]:
            def fields(items):
                f = {}
                for d in items:
                    for s in ([d["singleton"]] if "singleton" in d else d.get("oneof", [d])):
                        f[s["name"]] = {**s["type"], "repeated": s.get("repeated", False)}
                return f
            out[t["name"]] = ({k["name"] for k in t.get("key", [])},
                              {a["name"]: fields(a.get("data", [])) for a in t.get("action_specs", [])},
                              fields(t.get("data", [])))
    return out


def _fits(name: str, value, typ: dict) -> None:
    kind = typ["type"]
    if typ["repeated"] and kind == "bytes" and isinstance(value, (bytes, bytearray)):
        assert typ.get("width") == 8, (name, typ)                       # a byte string: a list of bytes
    elif typ["repeated"]:
        assert isinstance(value, (tuple, list)), (name, value)
        for v in value:
            _fits(name, v, {**typ, "repeated": False})
    elif kind == "bool":
        assert value is True or value is False, (name, value)
    elif kind == "string" and typ.get("choices"):
        assert value in typ["choices"], (name, value, typ["choices"])
    elif kind.startswith("uint"):
        assert isinstance(value, int) and 0 <= value < 1 << int(kind[4:]), (name, value, kind)
    elif kind == "bytes" and isinstance(value, int) and typ.get("width"):
        assert 0 <= value < 1 << typ["width"], (name, value, typ["width"])


@pytest.mark.skipif(not (SDE_SCHEMAS / "bf_rt_tm_tf2.json").is_file(),
                    reason=f"the Tofino SDE's fixed-function BfRt schemas are not installed ({SDE_SCHEMAS})")
def test_the_fixed_function_writes_fit_the_sdes_schemas(tiny_t2na):
    """Every write of the switch plan outside the program ($PORT, tf2.tm.*, $mirror.cfg,
    tf2.pktgen.*) names a table, key fields, an action and data fields of the SDE's own
    schemas (the compiler's bfrt.json does not hold them; bf_switchd refuses a misspelt
    name only at run time), gives every key field of its table, and each value fits its
    field: one of its choices, a bool, an unsigned integer of its width, a list where the
    field is repeated."""
    from controller.tofino2 import plan
    pipeline, p = tiny_t2na
    sp = plan.switch_plan(pipeline.contract, settings.default_port_map(p), p)
    schema = _sde_tables()
    fixed = [*sp.ports, *sp.tm, *sp.mirror, *sp.pktgen, *sp.enable]
    assert {w.table for w in fixed} == {"$PORT", "tf2.tm.pipe.sched_cfg", "tf2.tm.port.group",
                                        "tf2.tm.queue.sched_cfg", "$mirror.cfg", "tf2.pktgen.port_cfg",
                                        "tf2.pktgen.pkt_buffer", "tf2.pktgen.port_mask", "tf2.pktgen.app_cfg"}
    for w in fixed:
        keys, actions, common = schema[w.table]
        assert {k.name for k in w.key} == keys, w                       # every key field, by its name
        assert w.default == (not keys), w                               # a keyless table: its default entry
        assert all(k.mask is None and k.prefix_len is None and k.high is None for k in w.key), w   # exact keys
        assert (w.action in actions) if w.action is not None else True, w
        allowed = {**common, **actions.get(w.action, {})}
        for name, value in w.data:
            assert name in allowed, (w.table, w.action, name)
            _fits(name, value, allowed[name])
