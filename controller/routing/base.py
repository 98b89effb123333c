"""The shape every routing algorithm shares: a :class:`RouteSet`, and a registry.

Two kinds of route sets leave the routing layer (ARCHITECTURE "Data flow"):

- ``per_hop`` (:class:`~controller.routing.uro.UroRoutes`): every ToR decides the next
  hop itself from (arrival slice, destination): URO/HOHO tables with K one-shot
  alternatives (URO §IV);
- ``source`` (:class:`~controller.routing.paths.PathRoutes`): the source ToR writes the
  whole path into the packet (SSRR, UCMP §6); UCMP and the baselines.

Algorithms register themselves with one signature, ``compute(schedule, params,
progress=None) -> RouteSet`` (networkx-style: the registry is the only dispatch, so a
new algorithm is a new module plus one :func:`register` call). The table writers,
statistics and artifact store dispatch on ``RouteSet.kind``, never on a class.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping, Protocol, runtime_checkable

from controller.errors import UroError
from controller.schedule.model import Schedule

PER_HOP = "per_hop"
SOURCE = "source"
KINDS = (PER_HOP, SOURCE)


@runtime_checkable
class RouteSet(Protocol):
    """What a table writer, the statistics and the artifact store need of any routes."""

    kind: ClassVar[str]  #: PER_HOP or SOURCE
    schedule: Schedule
    algo: str

    def params_dict(self) -> dict:
        """The parameters the routes were computed with (JSON-able; artifacts record them)."""
        ...


Progress = Callable[[int], Any] | None


@dataclass(frozen=True)
class Algorithm:
    """A registered routing algorithm."""

    name: str
    kind: str
    params_type: type
    compute: Callable[..., RouteSet]
    summary: str
    #: ``compute`` takes ``destinations=`` (the groups towards only these ToRs)
    by_destination: bool = False
    #: loads what makes later computations in this process faster (compiled kernels), for a
    #: long-lived process to call at start instead of paying it on a failure's path; or None
    warm: Callable[[], None] | None = None

    def params(self, options: Mapping[str, Any] | None = None) -> Any:
        """Build this algorithm's parameters from ``options`` (e.g. ``vars(args)``).

        Only keys that are fields of the parameter dataclass are taken, so one option
        namespace serves every algorithm; missing keys keep the dataclass defaults."""
        options = options or {}
        names = {f.name for f in dataclasses.fields(self.params_type) if f.init}
        return self.params_type(**{k: v for k, v in options.items() if k in names})

    def run(self, schedule: Schedule, params: Any = None, progress: Progress = None,
            destinations: Any = None) -> RouteSet:
        """Routes on ``schedule``. ``destinations``: the caller reads only the routes towards
        these ToRs; an algorithm registered ``by_destination`` computes just those (the
        others leave them empty), any other computes everything (None: all)."""
        params = self.params() if params is None else params
        if not isinstance(params, self.params_type):
            raise UroError(f"{self.name} takes {self.params_type.__name__}, got {type(params).__name__}")
        if destinations is not None and self.by_destination:
            return self.compute(schedule, params, progress=progress, destinations=destinations)
        return self.compute(schedule, params, progress=progress)


_REGISTRY: dict[str, Algorithm] = {}
#: modules that register the built-in algorithms (imported on first use)
_BUILTIN = ("uro", "ucmp", "direct", "vlb", "ksp", "opera")


def register(name: str, kind: str, params_type: type, summary: str, by_destination: bool = False,
             warm: Callable[[], None] | None = None) -> Callable:
    """Decorator: register ``compute(schedule, params, progress=None)`` as ``name``
    (``by_destination``: it also takes ``destinations=``, :meth:`Algorithm.run`;
    ``warm``: :attr:`Algorithm.warm`)."""
    if kind not in KINDS:
        raise ValueError(f"unknown route-set kind {kind!r}")

    def deco(fn: Callable[..., RouteSet]) -> Callable[..., RouteSet]:
        if name in _REGISTRY and _REGISTRY[name].compute is not fn:
            raise ValueError(f"routing algorithm {name!r} is registered twice")
        _REGISTRY[name] = Algorithm(name, kind, params_type, fn, summary, by_destination, warm)
        return fn

    return deco


def _load_builtins() -> None:
    import importlib

    for mod in _BUILTIN:
        importlib.import_module(f"controller.routing.{mod}")


def algorithms() -> dict[str, Algorithm]:
    """All registered algorithms by name (built-ins first, in registration order)."""
    _load_builtins()
    return dict(_REGISTRY)


def get(name: str) -> Algorithm:
    algos = algorithms()
    try:
        return algos[name]
    except KeyError:
        raise UroError(f"unknown routing algorithm {name!r} (available: {', '.join(algos)})") from None


def compute(name: str, schedule: Schedule, params: Any = None, progress: Progress = None) -> RouteSet:
    """Routes of algorithm ``name`` for ``schedule`` (``params`` default: the algorithm's defaults)."""
    return get(name).run(schedule, params, progress)
