"""The t2na program's source-route tables: their field widths and sizes for a profile
(UCMP §6.2 on exact tables), shared by the P4 generator (the tables it renders and their
contract) and the resource report (what a build holds)."""

from __future__ import annotations

from controller.tables.state import GENERATIONS


def layout(profile) -> dict:
    """Widths and sizes of the t2na source-route tables (UCMP §6.2 on exact tables).

    ``ssrr_path`` (generation, dst, start slice) -> the group's id and shape (ids from 1;
    0 = none), ``ssrr_level`` (generation, shape, bucket range) -> the level (the bucket
    range's index in its group) and the flow's member (hash mod its tie count),
    ``ssrr_hops`` (generation, group, level, member) -> the path, written at its length.
    Every field is as wide as the network needs (ToR, uplink and slice ids of N, d, S),
    so a path of n hops costs n x (ToR + uplink + slice) bits less the last ToR (the
    destination) plus the first hop's wait. Sizes hold two generations."""
    def bits(n: int) -> int:
        return max(1, int(n).bit_length())

    g = GENERATIONS
    t = profile.tables
    groups = profile.ssrr_dsts * profile.slices
    shapes = min(t.ssrr_shapes, groups)              # a shape has a group at least
    return {
        "tor_bits": bits(profile.tors - 1), "uplink_bits": bits(profile.uplinks - 1),
        "slice_bits": bits(profile.slices - 1), "group_bits": bits(groups), "shape_bits": bits(shapes),
        "level_bits": bits(profile.ssrr_hops - 1),        # a level per hop count: at most H
        "member_bits": bits(t.ssrr_ties - 1), "ties": t.ssrr_ties, "hash_bits": 8,
        "path_size": g * groups, "level_size": g * shapes * t.ssrr_ranges,
        "hops_size": g * groups * t.ssrr_paths,
    }
