"""The streamed UCMP writer's compiled phase-1 step and its banded phase 3 (controller/tables/stream*.py)."""

import os

import numpy as np
import pytest

from controller.routing import ucmp
from controller.schedule.generate import opera
from controller.tables import artifacts, stream
from controller.routing.paths import REGULAR
from controller.routing.paths import ranges
from controller.tables import stream_kernel
from controller.tables.stream_kernel import hop_rows


def _numpy_form(order, m_np, m_t, parts, width, pad, node_dt, upl_dt, wait_dt):
    """The writer's former NumPy passes: concatenate and pad the parts, relative send
    slices, padding, casts, then the row gather into member order."""
    def cat(i):
        return np.concatenate([np.pad(p[i], ((0, 0), (0, width - p[i].shape[1])), constant_values=-1)
                               for p in parts])
    hn, hu, hs = cat(0), cat(1), cat(2)
    live = hn >= 0
    off = hs - np.repeat(m_t, m_np)[:, None]
    hw = np.where(live, off, pad).astype(wait_dt)
    pidx = ranges(np.cumsum(m_np)[order] - m_np[order], m_np[order])
    return hn.astype(node_dt)[pidx], hu.astype(upl_dt)[pidx], hw[pidx], off[live]


@pytest.mark.parametrize("seed", range(6))
def test_hop_rows_equals_the_numpy_passes(seed):
    rng = np.random.default_rng(seed)
    pad = 255
    n_members = [int(rng.integers(0, 40)) for _ in range(3)]
    widths = [int(rng.integers(1, 6)), 2, 2]
    m_np = np.concatenate([rng.integers(0 if i else 1, 4, n) for i, n in enumerate(n_members)]).astype(np.int64)
    m_t = rng.integers(0, 20, m_np.size).astype(np.int64)
    t_path = np.repeat(m_t, m_np)
    parts, at = [], 0
    for i, n in enumerate(n_members):
        P = int(m_np[sum(n_members[:i]):sum(n_members[:i + 1])].sum())
        length = rng.integers(1, widths[i] + 1, P)
        col = np.arange(widths[i])[None, :]
        real = col < length[:, None]
        hn = np.where(real, rng.integers(0, 300, (P, widths[i])), -1).astype(np.int32)
        hu = np.where(real, rng.integers(0, 30, (P, widths[i])), -1).astype(np.int16)
        hs = np.where(real, t_path[at:at + P, None] + rng.integers(0, 40, (P, widths[i])), -1).astype(np.int32)
        parts.append((hn, hu, hs))
        at += P
    width = max(widths)
    order = rng.permutation(m_np.size).astype(np.int64)
    want_n, want_u, want_w, offs = _numpy_form(order, m_np, m_t, parts, width, pad, np.int16, np.int8, np.uint8)
    P = int(m_np.sum())
    got = np.empty((P, width), np.int16), np.empty((P, width), np.int8), np.empty((P, width), np.uint8)
    lo, hi = hop_rows(order, np.cumsum(m_np) - m_np, m_np, m_t, *[a for p in parts for a in p], pad, *got)
    for g, w in zip(got, (want_n, want_u, want_w)):
        assert g.dtype == w.dtype and np.array_equal(g, w)
    assert (lo, hi) == (int(offs.min()), int(offs.max()))


def test_banded_phase_3_writes_the_same_artifact(tmp_path, monkeypatch):
    """Bands of a few paths (many bands, ToRs split across chunks) give the bytes one band gives."""
    s, prm = opera(20, 3, seed=2), ucmp.UcmpParams(relax_slices=1)
    one = tmp_path / "one.uro"
    one.mkdir()
    stream.write_ucmp(s, prm, one, chunk=3)
    monkeypatch.setattr(stream, "_BAND_PATHS", 7)
    many = tmp_path / "many.uro"
    many.mkdir()
    placed = []
    stream.write_ucmp(s, prm, many, chunk=3, write_progress=placed.append)
    assert len(placed) > 5 and sum(placed) == s.n_tors
    names = sorted(p.name for p in one.iterdir())
    assert sorted(p.name for p in many.iterdir()) == names
    for n in names:
        if n.endswith(".npy"):
            assert (one / n).read_bytes() == (many / n).read_bytes(), n
    assert artifacts.open(many, s).route_set().n_paths > 0


def test_spill_budget_does_not_change_the_artifact(tmp_path, monkeypatch):
    """Phase 1's chunks held in memory, all spilled to files, or some of each (a budget
    that holds the first chunks only): the same bytes, and no spill left behind."""
    s, prm = opera(20, 3, seed=2), ucmp.UcmpParams(relax_slices=1)
    spilled, sizes = [], []
    append = stream._Spill.append

    def spy(self, arrays):
        append(self, arrays)
        spilled.append(self.mem["m_kind"][-1] is None)
        sizes.append(sum(a.nbytes for a in arrays.values()))
    monkeypatch.setattr(stream._Spill, "append", spy)
    out = {}
    for name, budget in (("mem", 1 << 40), ("file", 0), ("both", None)):
        out[name] = tmp_path / f"{name}.uro"
        out[name].mkdir()
        if budget is None:  # the first two chunks fit
            budget = sizes[0] + sizes[1]
        spilled.clear()
        stream.write_ucmp(s, prm, out[name], chunk=3, spill_budget=budget)
        kept = spilled.count(False)
        assert kept == {"mem": len(spilled), "file": 0}.get(name, kept) and (name != "both" or 0 < kept < len(spilled))
    names = sorted(p.name for p in out["mem"].iterdir())
    assert ".spill" not in names
    for other in ("file", "both"):
        assert sorted(p.name for p in out[other].iterdir()) == names
        for n in names:
            if n.endswith(".npy"):
                assert (out["mem"] / n).read_bytes() == (out[other] / n).read_bytes(), (other, n)


@pytest.mark.parametrize("seed", range(4))
def test_tor_major_runs_equal_the_gather_through_a_row_index(seed):
    """Phase 3's segments of a band (chunk-major blocks -> ToR-major runs), joined, equal
    the gather through a per-row index, for 1-D and 2-D arrays, with empty segments and chunks."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 4, (rng.integers(1, 6), rng.integers(1, 7))) * rng.integers(0, 2, (1, 1))
    at = np.cumsum(counts, 1) - counts + (np.cumsum(counts.sum(1)) - counts.sum(1))[:, None]
    order = ranges(at.T.ravel(), counts.T.ravel())
    n = int(counts.sum())
    cut = np.concatenate([np.zeros((counts.shape[0], 1), np.int64), np.cumsum(counts, 1)], 1)  # [chunk, ToR + 1]
    for a in (rng.integers(-5, 100, n).astype(np.int8), rng.integers(0, 1000, (n, 3)).astype(np.int16)):
        per_chunk = np.split(a, np.cumsum(counts.sum(1))[:-1])
        runs = stream._tor_major_runs(per_chunk, cut)
        got = np.frombuffer(b"".join(runs), a.dtype).reshape(a.shape)
        assert all(len(r) for r in runs) and np.array_equal(got, a[order])


def test_write_runs_goes_on_after_short_writes(tmp_path, monkeypatch):
    """More runs than one pwritev call takes, and a kernel that writes only part of
    what it was given: every byte lands once, in order."""
    rng = np.random.default_rng(0)
    a = rng.integers(0, 1 << 15, (500, 3)).astype(np.int16)
    cuts = np.sort(rng.choice(np.arange(1, 500), 120, replace=False))
    runs = [memoryview(p.reshape(-1)).cast("B") for p in np.split(a, cuts)]
    real = os.pwritev
    monkeypatch.setattr(artifacts, "_IOV_MAX", 7)
    monkeypatch.setattr(os, "pwritev", lambda fd, bufs, at: real(fd, bufs, at) if len(bufs) < 3
                        else real(fd, [bytes(b"".join(bufs)[:37])], at))
    f = artifacts.NpyBlocks(tmp_path / "x.npy", np.int16, (502, 3))
    f.write_runs(2, runs)
    f.close()
    got = np.load(tmp_path / "x.npy")
    assert np.array_equal(got[2:], a) and not got[:2].any()


@pytest.mark.parametrize("seed", range(6))
def test_member_order_equals_the_stable_argsort(seed):
    """The counting sort of phase 1 orders members as the stable argsort of the
    (group, kind, hops) key did, ties included, whatever order they come in."""
    rng = np.random.default_rng(seed)
    M, G = int(rng.integers(0, 300)), int(rng.integers(1, 40))
    group = rng.integers(0, G, M).astype(np.int64)
    kind = rng.integers(0, 3, M).astype(np.int8)
    hops = rng.integers(0, 5, M).astype(np.int16)
    if seed % 2:  # mostly in order already, as the engines give them
        o = np.lexsort((hops, kind, group))
        o[: M // 4] = o[: M // 4][::-1]
        group, kind, hops = group[o], kind[o], hops[o]
    want = np.argsort((group * 4 + kind) * 1024 + hops, kind="stable")
    assert np.array_equal(stream_kernel.member_order(group, kind, hops, G), want)


@pytest.mark.parametrize("seed", range(6))
def test_member_rows_equal_the_numpy_gathers_and_group_profiles(seed):
    """Phase 1's one-pass member arrays, group starts, per-ToR counts and bucket
    profiles equal the NumPy gathers and ucmp.group_profiles they replace."""
    rng = np.random.default_rng(seed)
    N, S, width = 5, 3, 3
    groups = rng.choice(N * N * S, int(rng.integers(0, 30)), replace=False)
    m_ga, m_kind, m_hops = [], [], []
    for g in groups:  # REGULAR members at distinct hop counts, then maybe a backup / relaxed member
        for h in np.sort(rng.choice(np.arange(1, 6), int(rng.integers(0, width + 1)), replace=False)):
            m_ga.append(g), m_kind.append(REGULAR), m_hops.append(h)
        for k in (1, 2):
            if rng.integers(0, 3) == 0:
                m_ga.append(g), m_kind.append(k), m_hops.append(2)
    M = len(m_ga)
    m_ga, m_kind, m_hops = np.array(m_ga, np.int64), np.array(m_kind, np.int8), np.array(m_hops, np.int16)
    m_lat = rng.integers(1, 60, M).astype(np.int64)
    m_np = rng.integers(1, 9, M).astype(np.int64)
    perm = rng.permutation(M)  # members in any order; `order` puts them in the artifact's
    m_ga, m_kind, m_hops, m_lat, m_np = m_ga[perm], m_kind[perm], m_hops[perm], m_lat[perm], m_np[perm]
    order = np.argsort((m_ga * 4 + m_kind) * 1024 + m_hops, kind="stable")
    out = np.empty(M, np.int8), np.empty(M, np.int8), np.empty(M, np.uint16), np.empty(M, np.uint16), np.empty(M, np.int8)
    per_m, per_p = np.zeros(N, np.int64), np.zeros(N, np.int64)
    g_first, prof, prof_of = stream_kernel.member_rows(order, m_ga, m_kind, m_hops, m_lat, m_np, REGULAR, N * S, width,
                                                       *out, per_m, per_p)
    s_ga, s_kind, s_hops, s_lat, s_np = m_ga[order], m_kind[order], m_hops[order], m_lat[order], m_np[order]
    for got, want in zip(out[:4], (s_kind, s_hops, s_lat, s_np)):
        assert np.array_equal(got, want.astype(got.dtype))
    assert np.array_equal(g_first, np.flatnonzero(np.r_[True, s_ga[1:] != s_ga[:-1]]) if M else g_first[:0])
    assert np.array_equal(per_m, np.bincount(s_ga // (N * S), minlength=N))
    assert np.array_equal(per_p, np.bincount(s_ga // (N * S), weights=s_np, minlength=N).astype(np.int64))
    reg, row, pos, want_prof = ucmp.group_profiles(s_ga, s_hops, s_lat, s_kind, width=width)
    assert np.array_equal(prof, want_prof)
    want_of, want_pos = np.full(M, -1), np.full(M, -1)
    want_of[reg], want_pos[reg] = row, pos
    assert np.array_equal(prof_of, want_of) and np.array_equal(out[4], want_pos)
