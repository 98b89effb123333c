"""The one interface between the controller daemon and a switch, whatever the target.

Stratum-style: the daemon (and `uro agent push`) only ever talks to a
:class:`SwitchBackend`; a target is a module implementing it (``p4runtime.py`` for bmv2
over P4Runtime, ``bfrt.py`` for Tofino2 over BfRt gRPC) and registering it with
:func:`register_backend`. Nothing outside those modules branches on the target.

What a backend is given is target-neutral and contract-named (:mod:`controller.tables.state`):
a :class:`Pipeline` (compiled program files plus the pipeline contract) and
:class:`~controller.tables.state.Batch` es of entries, members and groups. It reads the
switch's state back in the same form, so that desired and actual state can be diffed
(:mod:`controller.agent.diff`) and the difference written as INSERT/MODIFY/DELETE in
dependency order: members, then groups, then table entries; deletes in the reverse
order.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, ClassVar, Sequence

from controller.agent.diff import Diff, entry_key, group_key, member_key, restrict
from controller.agent.diff import _entry_value, _group_value, _member_value
from controller.errors import UroError
from controller.tables.state import Batch, EntryRows, Group, Joined, Member, TableEntry, blocks


class BackendError(UroError):
    """A switch refused or failed an operation; the message names the switch and, for a
    write, the entry (table, match) the switch reported."""


def need_counter(switch: str, counters: dict, counter: str) -> None:
    """Refuse a counter the program's contract does not name (``counters``: by short name)."""
    if counter not in counters:
        raise BackendError(f"{switch}: no counter {counter!r} in the contract (it has "
                           f"{', '.join(sorted(counters)) or 'none'})")


class Unreachable(BackendError):
    """No answer from the switch's control address (within the deadline)."""


class MissingClient(BackendError):
    """The client library a backend speaks to its switches through is not installed: nothing
    was asked of the switch (it may well answer)."""


class NotPrimary(BackendError):
    """Another controller holds a higher election id: this one must not write."""


class ElectionIdHeld(NotPrimary):
    """The switch refused this controller's election id because a session holds it already
    (P4Runtime §5.3): another controller configured with the same id -- or this controller's
    own earlier session, of a process that died, which the switch has not dropped yet."""


class ClockNotSupported(BackendError):
    """The backend cannot read or seed this switch's slice clock (its target, or the
    program it runs, keeps no clock of its own: ``[clock] mode = "timer"`` is what it
    supports). The message names the switch and the operation."""


@dataclass(frozen=True)
class ClockProbe:
    """A switch's slice clock as one probe saw it (docs/clock.md "Messages": a PROBE and
    its PROBE_REPLY, or what a target reads instead).

    The switch answered at network time ``(k, phase_ns)`` (slice number, 32 bits wrapping,
    and the time into the slice, ns) when its raw local clock read ``local_ns``; it was
    ``stratum`` in election ``term`` of lead ``lead`` (whose last exchange with the
    reference was in slice ``lead_k``). ``sent_ns`` and ``received_ns`` are the reader's
    clock (:func:`time.monotonic_ns`) just before the probe left and when its answer
    arrived, so the switch answered inside ``[sent_ns, received_ns]``: its error against
    the reader's clock is :meth:`offset_ns` give or take :meth:`uncertainty_ns`.
    ``registers``: the clock's registers (the pipeline contract's ``clock.registers``
    names: offset, delay, drift, refusals, last exchange, ...) where the answer carries
    them, else empty."""

    k: int
    phase_ns: int
    local_ns: int
    stratum: int
    term: int
    lead: int
    lead_k: int
    sent_ns: int
    received_ns: int
    registers: dict = field(default_factory=dict)

    def time_ns(self, slice_ns: int, near_ns: int | None = None) -> int:
        """The switch's network time ``k * L + phase`` in ns, with the 32-bit slice number
        unwrapped to the one nearest ``near_ns`` (default: the probe's midpoint)."""
        near = self.midpoint_ns if near_ns is None else near_ns
        k_near = near // slice_ns
        k = k_near + ((self.k - k_near + (1 << 31)) % (1 << 32) - (1 << 31))
        return k * slice_ns + self.phase_ns

    @property
    def midpoint_ns(self) -> int:
        return (self.sent_ns + self.received_ns) // 2

    def offset_ns(self, slice_ns: int) -> int:
        """The switch's network time minus the reader's clock at the probe's midpoint (> 0:
        the switch is ahead); meaningful where the reader's clock is the reference (the
        daemon's host, docs/clock.md "Network time")."""
        return self.time_ns(slice_ns) - self.midpoint_ns

    def uncertainty_ns(self) -> int:
        """Half the round trip: the switch answered within this of the midpoint."""
        return (self.received_ns - self.sent_ns + 1) // 2


@dataclass(frozen=True)
class Pipeline:
    """A compiled program as a backend needs it.

    ``files`` maps roles to paths: bmv2 ``{"p4info": ..., "device_config": ...}``,
    Tofino2 ``{"bfrt": ..., "context": ..., "binary": ...}``. ``cookie`` identifies
    the program build (a content hash): a switch that already runs the same cookie is
    not re-programmed, so a reconnect keeps forwarding.
    """

    target: str
    program: str
    contract: dict
    files: dict[str, Path]
    cookie: int


@dataclass(frozen=True)
class SwitchAddress:
    """Where and how to reach one switch's control plane."""

    name: str
    address: str                      # host:port of P4Runtime / BfRt gRPC
    device_id: int = 0
    election_id: int = 1
    insecure: bool = True             # plaintext gRPC (logged at start); else TLS below
    ca_cert: Path | None = None
    client_cert: Path | None = None
    client_key: Path | None = None
    timeout_s: float = 5.0            # deadline of every RPC


@dataclass
class WriteReport:
    """What one :meth:`SwitchBackend.apply` did."""

    inserted: int = 0
    modified: int = 0
    deleted: int = 0
    requests: int = 0
    seconds: float = 0.0

    @property
    def updates(self) -> int:
        return self.inserted + self.modified + self.deleted


@dataclass(frozen=True)
class Inserts:
    """Objects to insert, in write order (members, groups, entries), with the backend's
    encoding of each (:meth:`SwitchBackend.encode_inserts`; None: the objects are all the
    backend needs). A generation written into an empty slot is encoded once, written in
    parts (:meth:`part`), and the read-back is compared with the same encoding
    (:meth:`SwitchBackend.read_state_beside`)."""

    objects: list
    encoded: list | None = None

    def __len__(self) -> int:
        return len(self.objects)

    def part(self, start: int, stop: int) -> "Inserts":
        return Inserts(self.objects[start:stop], None if self.encoded is None else self.encoded[start:stop])

    @staticmethod
    def joined(first: "Inserts", second: "Inserts") -> "Inserts":
        """``first``'s objects, then ``second``'s, in one :class:`Inserts` (both encoded by
        the same backend); the objects are not made (a sequence that makes its objects
        when asked, :class:`controller.tables.bulk.Regenerated`, stays one)."""
        if (first.encoded is None) != (second.encoded is None):
            raise ValueError("Inserts.joined: one part is encoded, the other is not")
        return Inserts(Joined(first.objects, second.objects),
                       None if first.encoded is None else [*first.encoded, *second.encoded])

    def batch(self) -> Batch:
        """The objects as a batch (their order kept within each kind)."""
        out = Batch()
        by_kind = {Member: out.members, Group: out.groups, TableEntry: out.entries}
        parts = blocks(self.objects)
        for i, b in enumerate(parts):
            if type(b) is EntryRows and not b.made() and i == len(parts) - 1 and not out.entries:
                out.entries = b               # (the entries as columns, not made: kept so)
                break
            for x in b:
                by_kind[type(x)].append(x)
        return out


#: identity and content of each kind of state object (controller.agent.diff)
_KEYS = {Member: (member_key, _member_value), Group: (group_key, _group_value), TableEntry: (entry_key, _entry_value)}


class SwitchBackend(abc.ABC):
    """One control session to one switch. Not thread-safe: one owner at a time."""

    #: the ``target`` value of the network config this backend serves
    target: ClassVar[str]
    #: ``apply`` may be called while another call of this session runs in another thread
    #: (a read-back, a chunk of a bulk write): the daemon's failure mask (one config
    #: entry) then never waits for them (docs/daemon.md "A dead ToR in one write"). Only
    #: ``apply``; everything else stays one call at a time.
    concurrent_apply: ClassVar[bool] = False
    #: the data plane marks an uplink down by itself (:meth:`clear_link_down` has work to
    #: do after a recovery); where it does not, the daemon never calls it
    marks_links: ClassVar[bool] = False
    #: :meth:`read_objects` asks the switch for the named objects only (not a whole read):
    #: the daemon then verifies an update by reading back what it wrote and reads the
    #: switch whole right after the update (docs/daemon.md "One read per switch and
    #: update"); where it does not, the verify reads the whole switch
    reads_by_key: ClassVar[bool] = False

    def __init__(self, address: SwitchAddress):
        self.address = address

    def plan_limits(self) -> list[str]:
        """What the switch plan written by :meth:`set_pipeline` asked and the switch read
        back otherwise, by a known limit of the switch (one line each, naming the value,
        what was planned and the limit); a difference that is no known limit fails
        ``set_pipeline`` instead. Default: none (bmv2 has no switch plan)."""
        return []

    # ---- programs, offline (no switch) ---------------------------------------------------
    @classmethod
    def pipeline(cls, program: str, contract: dict, files: dict[str, Path]) -> Pipeline:
        """The :class:`Pipeline` of a compiled program with this target's cookie, so that
        every tool (``uro agent push``, ``uro daemon``) recognises the same build. Default:
        the first 63 bits of a SHA-256 over the contract and the files."""
        import hashlib
        import json

        h = hashlib.sha256(json.dumps(contract, sort_keys=True).encode())
        for role in sorted(files):
            h.update(role.encode())
            h.update(Path(files[role]).read_bytes())
        return Pipeline(target=cls.target, program=program, contract=contract,
                        files={k: Path(v) for k, v in files.items()},
                        cookie=int.from_bytes(h.digest()[:8], "big") >> 1)

    @classmethod
    def check_pipeline(cls, pipeline: Pipeline) -> None:
        """Check, without a switch, that the program's files agree with its contract (every
        name and width), raising :class:`BackendError`; the daemon calls it before it
        writes anything. Default: nothing to check offline."""

    # ---- session ---------------------------------------------------------------------
    @abc.abstractmethod
    def connect(self) -> None:
        """Open the session and become primary (election id of the address).

        Raises :class:`Unreachable` or :class:`NotPrimary`; never writes."""

    @abc.abstractmethod
    def close(self) -> None:
        """End the session (idempotent)."""

    @property
    @abc.abstractmethod
    def connected(self) -> bool:
        """The session is up and this controller is primary (False after the switch
        went away or another controller took over)."""

    def session_epoch(self) -> object | None:
        """A token that stays equal for as long as this session has been primary without a
        break, or None where the backend cannot tell (or the session is down).

        While it stays equal the switch runs the program this session last set or
        adopted: a switch that restarts ends the session, and only the primary may set a
        pipeline (P4Runtime §5, §7), so a loss of primacy -- even one won back -- changes
        the token. The daemon then asks the pipeline's cookie only when the token moved
        (a failure's update skips one RPC per switch); its maintenance pass asks anyway.
        Default: None (the cookie is asked every time)."""
        return None

    # ---- pipeline --------------------------------------------------------------------
    @abc.abstractmethod
    def pipeline_cookie(self) -> int | None:
        """The cookie of the program the switch runs now (None: no program)."""

    @abc.abstractmethod
    def set_pipeline(self, pipeline: Pipeline, force: bool = False) -> bool:
        """Make the switch run ``pipeline``; checks the contract against the switch's own
        view of the program (P4Info / bfrt.json) first.

        A switch that already runs ``pipeline.cookie`` is adopted as it is: program and
        entries stay (returns False), so a reconnecting controller does not interrupt
        forwarding. Otherwise, or with ``force``, the program is loaded, which wipes every
        entry (returns True). Either way the backend uses ``pipeline`` from then on
        (``read_state``/``apply`` need it)."""

    # ---- state -----------------------------------------------------------------------
    @abc.abstractmethod
    def read_state(self) -> Batch:
        """Every entry, member and group the switch holds in the contract's tables
        (default entries included), in the same form the table writer produces."""

    def read_objects(self, objects: Batch) -> Batch:
        """The objects of ``objects`` the switch holds, found by identity (table + match +
        priority, a table's default entry, profile + member or group id) with the contents
        the switch holds; the ones it does not hold are left out. A read of what was just
        written: a verify that reads what it wrote, not the whole switch. Default: the whole
        state read and the objects picked from it (a target with a read by key overrides it)."""
        return restrict(self.read_state(), objects)

    @abc.abstractmethod
    def apply(self, diff: Diff, progress: Callable[[int], object] | None = None) -> WriteReport:
        """Write ``diff`` in dependency order, in as few requests as the target allows,
        never putting a dependent update before what it depends on in another request.
        Raises :class:`BackendError` naming the first failing entry; updates of earlier
        requests stay applied (the caller re-reads and re-diffs, so a retry is idempotent)."""

    # ---- a generation into an empty slot (GenerationWriter's fresh writes) ---------------
    def encode_inserts(self, batch: Batch) -> Inserts:
        """``batch`` (objects none of which the switch holds) as :class:`Inserts`, encoded
        once for :meth:`insert_encoded` and :meth:`read_state_beside`. Default: the
        objects themselves."""
        return Inserts([*batch.members, *batch.groups, *batch.entries])

    def encode_inserts_keyed(self, inserts: Inserts, objects: Sequence, key: str, value: int) -> Inserts:
        """``objects`` (as many as ``inserts``, an :meth:`encode_inserts`, and in its order;
        a sequence whose items may be made when asked for: a ToR's first shadow,
        :class:`controller.tables.bulk.Regenerated`) as :meth:`encode_inserts` gives them,
        where each table entry of an action (not of a selector group) of ``inserts`` is in
        ``objects`` with the value of match key ``key`` set to ``value``: a backend that
        encodes may derive those from their counterparts' bytes without asking for the
        object. Default: every object asked for and encoded afresh."""
        return Inserts(objects, self.encode_inserts(Inserts(list(objects)).batch()).encoded)

    def insert_encoded(self, inserts: Inserts) -> WriteReport:
        """Insert ``inserts`` (a :meth:`encode_inserts`, or a :meth:`Inserts.part` of one,
        in order): :meth:`apply` of their inserts. Raises as :meth:`apply` does."""
        return self.apply(Diff(insert=inserts.batch()))

    def read_state_beside(self, inserts: Inserts) -> tuple[list[int], Batch]:
        """The whole switch read (:meth:`read_state`) against ``inserts`` (all of them
        written): (the indexes of the objects of ``inserts`` the switch does not hold as
        they were written, in order; every other object the switch holds). The verify of
        a generation written into an empty slot compares what was written in bulk and
        looks at the objects only where they differ. Default: by identity and content."""
        index = {}                        # (kind, identity): a member and a group may share an id
        for i, x in enumerate(inserts.objects):
            key, _ = _KEYS[type(x)]
            index[type(x), key(x)] = i
        found = set()
        rest = Batch()
        by_kind = {Member: rest.members, Group: rest.groups, TableEntry: rest.entries}
        for x in (*(s := self.read_state()).members, *s.groups, *s.entries):
            key, value = _KEYS[type(x)]
            i = index.get((type(x), key(x)))
            if i is not None and i not in found and value(x) == value(inserts.objects[i]):
                found.add(i)
            else:
                by_kind[type(x)].append(x)
        return [i for i in range(len(inserts)) if i not in found], rest

    # ---- time and counters -------------------------------------------------------------
    @abc.abstractmethod
    def send_timer(self, slice_id: int, sync: bool = False) -> None:
        """Deliver the slice timer of ``slice_id`` to the switch (bmv2: a PacketOut on the
        session's stream; targets with their own packet generator: nothing to do).
        ``sync``: set the switch's clock to ``slice_id`` whatever the step (the first timer
        after a (re)start, after missed slices); otherwise the switch takes only small
        forward steps. May be called from the clock thread while another thread writes."""

    @abc.abstractmethod
    def read_counters(self) -> dict[str, dict[str, int]]:
        """All contract counters, ``{counter: {cell name: packets}}``, in one read."""

    def read_counter(self, counter: str) -> dict[str, int]:
        """One contract counter's cells, ``{cell name: packets}`` (``counter``: its short
        name in the contract, e.g. ``"drops"``). A backend whose reads cost per counter
        reads that one alone; this default reads them all."""
        got = self.read_counters()
        need_counter(self.address.name, got, counter)
        return got[counter]

    # ---- the switch's own slice clock (docs/clock.md; ``[clock] mode = "sync"``) --------------
    # A switch whose data plane keeps the slice clock itself is seeded once and then only
    # watched: these three calls are all the daemon does with its time. A target without
    # them raises ClockNotSupported (the daemon then refuses sync mode for that switch).
    # Like send_timer, they may be called from the daemon's clock-watch thread while
    # another thread writes; a backend serialises them itself where its session needs it.

    def read_clock(self) -> dict[str, int]:
        """The clock's registers, ``{name: value}`` under the pipeline contract's
        ``clock.registers`` names (stratum, term, lead, last offset and delay, drift,
        refusals, last exchange, ...), signed values as signed ints, in one read (the
        daemon reads them every second). bmv2, whose P4Runtime server reads no registers:
        a PROBE whose PacketIn carries them. Default: :class:`ClockNotSupported`."""
        raise ClockNotSupported(f"{self.address.name}: the {self.target} backend cannot read the slice clock")

    def probe_clock(self, timeout_s: float = 1.0) -> ClockProbe:
        """Ask the switch for its time now (a PROBE; bmv2: PacketOut answered by a
        PacketIn) and time the exchange on this host (:class:`ClockProbe`). Raises
        :class:`BackendError` when no answer comes within ``timeout_s``. Default:
        :class:`ClockNotSupported`."""
        raise ClockNotSupported(f"{self.address.name}: the {self.target} backend cannot probe the slice clock")

    def seed_clock(self, k: int, phase_ns: int, reference: bool, lead: bool = False) -> None:
        """Step the switch's clock to network time ``(k, phase_ns)`` now (a SEED; the caller
        adds the one-way delay it measured). ``reference``: the switch is the reference
        clock (the OCS emulator: stratum 0); otherwise it becomes unsynchronized (stratum
        255) so that its next exchange with a synchronized peer steps or corrects it.
        ``lead``: the ToR is the one the clock's config names first among the leads
        (:meth:`ClockParams.lead_at_start`). A program that elects its lead in the data
        plane (bmv2) ignores it; one that keeps no election (t2na) is synchronized with the
        controller by this seed and holds stratum 1, the root of the other ToRs' tree.
        Default: :class:`ClockNotSupported`."""
        raise ClockNotSupported(f"{self.address.name}: the {self.target} backend cannot seed the slice clock")

    # ---- links ---------------------------------------------------------------------------
    def clear_link_down(self, uplinks: frozenset[int]) -> frozenset[int]:
        """The links of ``uplinks`` are up again: undo what the data plane marked by itself
        when they went down, for these uplinks only (another uplink's mark stays). Returns
        the uplinks whose mark was set (and is now cleared).

        Default: nothing to undo -- this target's data plane marks no uplink down by itself
        (bmv2: the config's down mask is the only one, rewritten by the daemon). A target
        whose data plane reacts alone (Tofino2's port-down application, FRANCIS §4.3)
        overrides it."""
        return frozenset()


_BACKENDS: dict[str, type[SwitchBackend]] = {}


def register_backend(cls: type[SwitchBackend]) -> type[SwitchBackend]:
    """Class decorator: make ``cls`` the backend of ``cls.target``."""
    _BACKENDS[cls.target] = cls
    return cls


def backend_for(target: str) -> type[SwitchBackend]:
    """The backend class of ``target`` (imports the built-in backend modules lazily)."""
    import importlib

    modules = {"bmv2": "controller.agent.p4runtime", "tofino2": "controller.agent.bfrt"}
    if target not in _BACKENDS and target in modules:
        try:
            importlib.import_module(modules[target])
        except ImportError as e:
            raise BackendError(f"the {target} backend cannot be loaded: {e}") from None
    try:
        return _BACKENDS[target]
    except KeyError:
        raise BackendError(f"no switch backend for target {target!r} (available: {', '.join(sorted(modules))})") from None
