"""The route-set artifact store: write and read route sets of every kind.

Dispatches on ``RouteSet.kind`` (:mod:`controller.routing.base`), never on a class.
"""

from __future__ import annotations

from controller.routing.base import PER_HOP, SOURCE, RouteSet
from controller.tables import perhop, source

#: JSON writers per route-set kind
_JSON_WRITERS = {PER_HOP: perhop.write_routes, SOURCE: source.write_source_routes}
#: entries per ToR (mean) per route-set kind
_ENTRY_COUNT = {
    PER_HOP: lambda r: perhop.uncompressed_count(r),
    SOURCE: lambda r: int(source.entry_counts(r).mean()),
}
#: default artifact file name per kind
DEFAULT_NAME = {PER_HOP: "routes.json", SOURCE: "source_routes.json"}


def write_json(routes: RouteSet, path: str, with_paths: bool = True) -> None:
    if routes.kind == PER_HOP:
        perhop.write_routes(routes, path, with_paths=with_paths)
    else:
        _JSON_WRITERS[routes.kind](routes, path)


def entries_per_tor(routes: RouteSet) -> int:
    return _ENTRY_COUNT[routes.kind](routes)
