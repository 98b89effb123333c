"""The simulated fabric (controller/simfabric/) against the real P4Runtime client: one
server process standing in for several switches, each with its own state, arbitration and
pipeline, and bmv2's write semantics (the same sequence of calls is compared with a real
simple_switch_grpc in bmv2_tests/test_simfabric_semantics.py). No compiler needed: the
program is agent_fake's hand-written P4Info."""

from __future__ import annotations

import json
import os
import threading
import time

import pytest

pytest.importorskip("finsy.proto", reason="needs the agent extra")

from controller.agent.backend import ElectionIdHeld, NotPrimary, Unreachable  # noqa: E402
from controller.agent.diff import Diff, same_state  # noqa: E402
from controller.agent.p4info import P4Info  # noqa: E402
from controller.agent.p4runtime import P4RuntimeClient, WriteFailed  # noqa: E402
from controller.simfabric.process import SimFabric, SimFabricError  # noqa: E402
from controller.tables.state import Batch, Group  # noqa: E402

from agent_fake import CONTRACT, entry, member, p4info_msg, sel_entry  # noqa: E402

DEVICES = 6
#: a bmv2-style device config naming the default actions (what a fresh table answers)
DEVICE_CONFIG = json.dumps({
    "actions": [{"id": 0, "name": "I.a"}],
    "pipelines": [{"name": "ingress", "tables": [
        {"name": "I.t", "default_entry": {"action_id": 0, "action_data": ["0x7"]}}]}],
}).encode()


@pytest.fixture(scope="module")
def fabric(tmp_path_factory):
    with SimFabric(tmp_path_factory.mktemp("simfabric"), DEVICES, processes=2) as f:
        yield f


def client(fabric, device: int, election: int = 10) -> P4RuntimeClient:
    return P4RuntimeClient(fabric.address(device), device_id=device, election_id=election, timeout=5,
                           name=f"tor{device}")


def programmed(fabric, device: int, election: int = 10) -> P4RuntimeClient:
    c = client(fabric, device, election)
    info = P4Info(p4info_msg())
    c.set_pipeline(info, DEVICE_CONFIG, cookie=0xC0FFEE)
    c.check_contract(CONTRACT)
    return c


def state() -> Batch:
    ms = [member(i, i * 3) for i in (1, 2, 3)]
    gs = [Group("I.prof", 10, (1, 2)), Group("I.prof", 11, (3,))]
    es = [entry(k, k + 1) for k in range(5)] + [sel_entry(7, 10), sel_entry(8, 11, 0, 9)]
    return Batch(ms, gs, es)


def test_a_written_state_reads_back_whole_and_by_key(fabric):
    c = programmed(fabric, 0)
    try:
        want = state()
        rep = c.apply(Diff(insert=want))
        assert rep.inserted == len(want.members) + len(want.groups) + len(want.entries)
        got = c.read_state()
        # the whole read holds what was written and each table's default entry (of the device config)
        assert same_state(Batch(got.members, got.groups, [e for e in got.entries if not e.is_default]), want)
        defaults = {e.table: e for e in got.entries if e.is_default}
        assert defaults["I.t"].action == "I.a" and defaults["I.t"].params == (("v", 7),)
        some = Batch(want.members[:1], want.groups[1:], want.entries[2:4] + [entry(99, 1)])
        by_key = c.read_objects(some)
        assert same_state(by_key, Batch(some.members, some.groups, some.entries[:2]))    # absent one left out
        assert c.pipeline_cookie() == 0xC0FFEE
    finally:
        c.close()


def test_a_read_back_is_answered_in_the_thread_that_asked(fabric, monkeypatch):
    """No thread is started for a Read (gRPC's default starts one that polls the channel
    for each read where none is in flight: one per ToR in a failure's read-backs)."""
    c = programmed(fabric, 3)
    try:
        want = state()
        c.apply(Diff(insert=want))
        started, start = [], threading.Thread.start

        def counted(thread):
            started.append(thread.name)
            return start(thread)
        monkeypatch.setattr(threading.Thread, "start", counted)
        for _ in range(3):
            assert same_state(c.read_objects(want), want)
            time.sleep(0.05)          # (the polling thread of the default ends between reads)
        assert started == []
    finally:
        monkeypatch.undo()
        c.close()


def test_insert_of_an_existing_entry_and_modify_or_delete_of_an_absent_one_are_refused(fabric):
    c = programmed(fabric, 1)
    try:
        c.apply(Diff(insert=Batch(entries=[entry(1, 1)])))
        with pytest.raises(WriteFailed, match=r"insert of I.t \[k=1 .*ALREADY_EXISTS: Match entry exists"):
            c.apply(Diff(insert=Batch(entries=[entry(1, 2)])))
        with pytest.raises(WriteFailed, match=r"modify of I.t \[k=2 .*NOT_FOUND: Cannot find match entry"):
            c.apply(Diff(modify=Batch(entries=[entry(2, 2)])))
        with pytest.raises(WriteFailed, match="delete of I.t .*NOT_FOUND") as e:
            c.apply(Diff(delete=Batch(entries=[entry(3, 2), entry(1, 1)])))
        # continue-on-error: the update after the failed one went through
        assert [x[2] for x in e.value.failed] == ["NOT_FOUND"]
        assert c.read_state().entries == [x for x in c.read_state().entries if x.is_default]
        with pytest.raises(WriteFailed, match="group .*NOT_FOUND: Member id does not exist: 5"):
            c.apply(Diff(insert=Batch(groups=[Group("I.prof", 4, (5,))])))
        with pytest.raises(WriteFailed, match="INVALID_ARGUMENT: Invalid member / group id"):
            c.apply(Diff(insert=Batch(entries=[sel_entry(1, 77)])))
    finally:
        c.close()


def test_devices_are_separate_switches(fabric):
    a, b = programmed(fabric, 2), programmed(fabric, 3)
    try:
        a.apply(Diff(insert=Batch(entries=[entry(4, 4)])))
        assert [e for e in b.read_state().entries if not e.is_default] == []
        b.apply(Diff(insert=Batch(entries=[entry(4, 5)])))      # the same key on another device: no clash
        assert [e.params for e in a.read_state().entries if not e.is_default] == [(("v", 4),)]
    finally:
        a.close()
        b.close()


def test_arbitration_primary_backup_takeover_and_reelection(fabric):
    first = programmed(fabric, 4, election=10)
    try:
        held = first.primacy                      # primary since it connected: one token throughout
        assert held is not None and first.primacy == held
        with pytest.raises(NotPrimary, match="another controller is primary .*election id 10"):
            client(fabric, 4, election=5)
        with pytest.raises(ElectionIdHeld, match="refused election id 10 .*Election id already exists"):
            client(fabric, 4, election=10)
        second = client(fabric, 4, election=20)
        try:
            assert second.connected
            deadline = time.time() + 5
            while first.connected and time.time() < deadline:
                time.sleep(0.01)
            assert not first.connected and first.primacy is None
            with pytest.raises(NotPrimary):
                first.apply(Diff(insert=Batch(entries=[entry(6, 6)])))
        finally:
            second.close()
        deadline = time.time() + 5
        while not first.connected and time.time() < deadline:
            time.sleep(0.01)
        assert first.connected                    # the switch re-elected the one left
        # primary again, not throughout: another controller could have set a pipeline meanwhile
        assert first.primacy is not None and first.primacy != held
        first.apply(Diff(insert=Batch(entries=[entry(6, 6)])))
    finally:
        first.close()


def test_a_closed_session_lets_go_of_its_election_id(fabric):
    """close() returns once the fabric has ended the session's stream (it dropped the
    session): the same election id is taken again at once, every time (a reconnecting
    controller is not refused as a second holder of its own id)."""
    for _ in range(30):
        c = client(fabric, 5, election=10)
        assert c.connected and c.primacy is not None
        assert c.close() is True
        assert c.close() is False                 # closed before: nothing more to acknowledge


def test_a_device_the_fabric_does_not_simulate_is_named(fabric):
    with pytest.raises(Unreachable, match=rf"device {DEVICES} is not simulated here \(devices 3..5"):
        P4RuntimeClient(fabric.address(DEVICES - 1), device_id=DEVICES, election_id=1, timeout=5)


def test_the_fabric_refuses_a_config_that_does_not_match_it(fabric):
    from types import SimpleNamespace as NS

    def cfg(n: int, dev=lambda t: t, addr=None):
        """What SimFabric.check reads of a NetConfig: its path and each switch's name,
        device id and address."""
        return NS(path="net.toml", switches=[NS(name=f"tor{t}", device_id=dev(t), address=addr or (fabric.address(dev(t)) if dev(t) < DEVICES else "127.0.0.1:1"))
                                             for t in range(n)])

    fabric.check(cfg(DEVICES))
    with pytest.raises(SimFabricError, match=r"5 switches for a fabric simulating 6 devices"):
        fabric.check(cfg(DEVICES - 1))
    with pytest.raises(SimFabricError, match=r"switch 'tor5': device_id 6 is not simulated: .*6 devices \(0..5\)"):
        fabric.check(cfg(DEVICES, dev=lambda t: t + (t == 5)))
    with pytest.raises(SimFabricError, match=r"switch 'tor0': address .*: device 0 is simulated at"):
        fabric.check(cfg(DEVICES, addr=fabric.address(DEVICES - 1)))
    with pytest.raises(SimFabricError, match=r"switch 'tor1': device_id 0 is another switch's too"):
        fabric.check(cfg(DEVICES, dev=lambda t: max(0, t - 1)))


def test_a_fabric_of_no_devices_or_too_many_processes_is_refused(tmp_path):
    with pytest.raises(SimFabricError, match="at least one device"):
        SimFabric(tmp_path, 0)
    with pytest.raises(SimFabricError, match="3 processes for 2 devices"):
        SimFabric(tmp_path, 2, processes=3)


def os_threads() -> int:
    """The threads of this process as the kernel counts them (gRPC's own included)."""
    return len(os.listdir("/proc/self/task"))


def test_sessions_cost_no_threads_of_their_own(tmp_path):
    """Every session's stream lives on the process's one event loop and the sessions to one
    server share its channels: 56 more sessions (each primary on its device, its stream
    open) add no thread, where each used to add three (a daemon of 1024 sessions ran
    2,800). A session closed ends its stream: the device elects the one left."""
    with SimFabric(tmp_path, 64) as f:
        few = [client(f, d) for d in range(8)]
        many = []
        try:
            py, kernel = threading.active_count(), os_threads()
            many = [client(f, d) for d in range(8, 64)]
            assert all(c.connected for c in few + many)
            assert threading.active_count() - py <= 1, [t.name for t in threading.enumerate()]
            assert os_threads() - kernel <= 4
        finally:
            for c in few + many:
                c.close()
        # the streams ended with their sessions (the channels they shared too): a controller
        # with a lower election id than theirs is now primary on their devices
        after = [client(f, d, election=5) for d in (0, 63)]
        assert all(c.connected for c in after)
        for c in after:
            c.close()


def test_the_daemons_pipeline_load_sends_the_json_compacted_and_adopts_it_by_the_files_cookie(fabric, tmp_path):
    """A bmv2 JSON as ``p4c-bm2-ss`` writes it (indented) reaches the switch without its
    whitespace, the same JSON value (what the switch parses); the pipeline's cookie stays
    the content hash of the files, so a second session adopts the running program."""
    from google.protobuf import text_format
    from finsy.proto import p4r
    from controller.agent.backend import SwitchAddress
    from controller.agent.p4runtime import P4RuntimeBackend, bmv2_pipeline

    pretty = json.dumps(json.loads(DEVICE_CONFIG), indent=4).encode()
    (tmp_path / "p.txtpb").write_text(text_format.MessageToString(p4info_msg()))
    (tmp_path / "d.json").write_bytes(pretty)
    pipe = bmv2_pipeline(tmp_path / "p.txtpb", tmp_path / "d.json", CONTRACT, "compact")
    d = DEVICES - 1

    def session() -> P4RuntimeBackend:
        b = P4RuntimeBackend(SwitchAddress(name=f"tor{d}", address=fabric.address(d), device_id=d, election_id=20))
        b.connect()
        return b
    first = session()
    try:
        assert first.set_pipeline(pipe) is True                 # loaded
    finally:
        first.close()
    second = session()
    try:
        assert second.set_pipeline(pipe) is False               # the same cookie: adopted
        got = second.client.stub.GetForwardingPipelineConfig(p4r.GetForwardingPipelineConfigRequest(
            device_id=d, response_type=p4r.GetForwardingPipelineConfigRequest.ALL), timeout=5)
    finally:
        second.close()
    sent = got.config.p4_device_config
    assert json.loads(sent) == json.loads(pretty) and len(sent) < len(pretty)
    assert sent == json.dumps(json.loads(pretty), separators=(",", ":")).encode()
    assert got.config.cookie.cookie == pipe.cookie
