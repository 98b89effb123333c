"""Host flow aging as an nftables ruleset (UCMP §6.1, Eq. 4): pure, no I/O.

A UCMP host tags every packet of a flow with the flow-size bucket of the bytes the flow
has sent so far; the source ToR reads the bucket from the DSCP and picks the group
member that serves it (a young flow takes the fastest path, an old one the path with
fewest hops). The buckets are global: the union of every group's boundaries (Eq. 4), in
the route artifact as fractions ``b`` of *slices per hop*; a flow that has sent ``s``
bytes under weight ``alpha`` is in bucket ``#{b : b * slice_bytes <= alpha * s}``
(:class:`controller.routing.paths.Buckets`). So bucket ``k >= 1`` starts at
``ceil(b_k * slice_bytes / alpha)`` bytes; a new alpha moves the thresholds, never the
routes.

The kernel does the counting: conntrack accounting (``net.netfilter.nf_conntrack_acct
= 1``) keeps per-flow byte counters in both directions, and an ``output`` chain maps the
counter of the direction the packet travels (``ct original bytes`` / ``ct reply bytes``:
what *this host* has sent in the flow, whichever side opened it) through one interval
verdict map to a per-bucket chain that sets ``ip dscp`` / ``ip6 dscp`` and counts the
packets. The counter is L3 bytes (IP headers included) of the flow's packets so far,
this one included. (A verdict map, not ``ip dscp set ... map``: nftables 1.0.6, Debian
12's, refuses a map on the right of a DSCP set.)

Everything lives in one table of its own, :data:`TABLE` in family ``inet``; the script
:func:`replace_script` creates-then-deletes-then-defines it in one ``nft -f``
transaction, so a re-apply replaces exactly that table atomically and touches nothing
else on the host.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from controller.errors import UroError

#: the nftables table the rules live in (family inet)
TABLE = "uro_aging"
FAMILY = "inet"
#: DSCP is 6 bits
MAX_BUCKETS = 64
#: conntrack byte counters are 64-bit
U64_MAX = (1 << 64) - 1


@dataclass(frozen=True)
class AgingRules:
    """The flow-aging rules of one route set at one alpha.

    ``intervals``: ``(first byte count, last byte count, bucket)`` covering 0..2^64-1
    in order; ``buckets``: the route set's bucket count (DSCP values 0..buckets-1).
    A bucket is missing from ``intervals`` only when rounding to whole bytes made it
    empty (two boundaries less than a byte apart at this alpha)."""

    intervals: tuple[tuple[int, int, int], ...]
    buckets: int
    alpha: float
    table: str = TABLE

    def bucket_of(self, sent_bytes: int) -> int:
        """The bucket a flow that has sent ``sent_bytes`` (L3 bytes) is tagged with."""
        for lo, hi, b in self.intervals:
            if lo <= sent_bytes <= hi:
                return b
        raise ValueError(f"byte count {sent_bytes} out of range")


def check_alpha(alpha: float) -> float:
    if not (isinstance(alpha, (int, float)) and math.isfinite(alpha) and alpha > 0):
        raise UroError(f"--alpha must be a positive number, got {alpha!r}")
    return float(alpha)


def rules(boundaries: tuple[Fraction, ...] | list[Fraction], slice_bytes: float, alpha: float,
          table: str = TABLE) -> AgingRules:
    """The aging rules for bucket ``boundaries`` (sorted, slices per hop, Eq. 4) and the
    bytes one link carries in one slice, under weight ``alpha``."""
    alpha = check_alpha(alpha)
    n = len(boundaries) + 1
    if n > MAX_BUCKETS:
        raise UroError(f"the route set has {n} flow-size buckets, more than the {MAX_BUCKETS} a 6-bit DSCP holds")
    # exact: b * slice_bytes / alpha with the float inputs taken as the fractions they are
    sb, al = Fraction(slice_bytes), Fraction(alpha)
    thr = sorted(min(U64_MAX, math.ceil(Fraction(b) * sb / al)) for b in boundaries)
    starts = sorted({0, *thr})
    out = []
    for i, lo in enumerate(starts):
        hi = starts[i + 1] - 1 if i + 1 < len(starts) else U64_MAX
        out.append((lo, hi, sum(1 for t in thr if t <= lo)))
    return AgingRules(tuple(out), n, alpha, table)


def rules_for_routes(routes, alpha: float, what: str = "route set") -> AgingRules:
    """:func:`rules` of a route set or route artifact (anything with ``buckets`` or a
    ``manifest`` holding them); a route set without buckets (per-hop, or a source-routed
    baseline) is one clear error."""
    man = getattr(routes, "manifest", None)
    if man is not None:
        b = man.get("buckets")
        if b is None:
            raise UroError(f"{what}: {routes.kind} routes ({routes.algo}) have no flow-size buckets; host flow "
                           "aging needs UCMP routes (uro routes --algo ucmp -o NAME.uro)")
        return rules(tuple(Fraction(x) for x in b["boundaries_slices_per_hop"]), float(b["slice_bytes"]), alpha)
    b = getattr(routes, "buckets", None)
    if b is None:
        raise UroError(f"{what}: {getattr(routes, 'kind', '?')} routes ({getattr(routes, 'algo', '?')}) have no "
                       "flow-size buckets; host flow aging needs UCMP routes")
    return rules(b.boundaries, b.slice_bytes, alpha)


def _chain(b: int) -> str:
    return f"bucket{b}"


def render(r: AgingRules) -> str:
    """The table as ``nft -f`` text."""
    used = sorted({b for _, _, b in r.intervals})
    elems = ",\n".join(f"\t\t\t{lo}-{hi} : jump {_chain(b)}" for lo, hi, b in r.intervals)
    lines = [f"# uro host flow aging (UCMP §6.1): {r.buckets} buckets, alpha {r.alpha:g}",
             f"table {FAMILY} {r.table} {{",
             "\tmap bucket_of_bytes {", "\t\ttypeof ct original bytes : verdict", "\t\tflags interval",
             f"\t\telements = {{\n{elems}\n\t\t}}", "\t}"]
    for b in used:
        lines += [f"\tchain {_chain(b)} {{",
                  f"\t\tmeta nfproto ipv4 ip dscp set {b} counter",
                  f"\t\tmeta nfproto ipv6 ip6 dscp set {b} counter", "\t}"]
    lines += ["\tchain output {", "\t\ttype filter hook output priority mangle; policy accept;",
              "\t\tct direction original ct original bytes vmap @bucket_of_bytes",
              "\t\tct direction reply ct reply bytes vmap @bucket_of_bytes", "\t}", "}"]
    return "\n".join(lines) + "\n"


def replace_script(r: AgingRules) -> str:
    """One ``nft -f`` transaction that replaces the table (or creates it)."""
    return f"table {FAMILY} {r.table} {{}}\ndelete table {FAMILY} {r.table}\n" + render(r)


def remove_script(table: str = TABLE) -> str:
    """One ``nft -f`` transaction that removes the table if it exists."""
    return f"table {FAMILY} {table} {{}}\ndelete table {FAMILY} {table}\n"


def counters(doc: dict, table: str = TABLE) -> dict[int, tuple[int, int]]:
    """Per-bucket ``(packets, bytes)`` from ``nft -j list table`` output (IPv4 + IPv6)."""
    out: dict[int, tuple[int, int]] = {}
    for item in doc.get("nftables", []):
        rule = item.get("rule")
        if not rule or rule.get("table") != table or not str(rule.get("chain", "")).startswith("bucket"):
            continue
        b = int(rule["chain"][len("bucket"):])
        for st in rule.get("expr", []):
            c = st.get("counter") if isinstance(st, dict) else None
            if isinstance(c, dict):
                p, n = out.get(b, (0, 0))
                out[b] = (p + int(c.get("packets", 0)), n + int(c.get("bytes", 0)))
    return out
