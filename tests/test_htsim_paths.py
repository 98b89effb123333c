"""uro's routes exported as the UCMP artifact's htsim topology file, read back with uro's
own readers (the schedule with :func:`controller.schedule.formats.parse_htsim`, the path
section with :func:`controller.tables.htsim.parse`): the same schedule, and for every
(start slice, src, dst) exactly the paths the routes hold -- each one walks to its
destination over circuits of the slices it names."""

import io

import numpy as np
import pytest

from controller.cli import main
from controller.errors import UroError
from controller.routing import ucmp, uro
from controller.schedule import opera
from controller.schedule.degrade import Failed, without
from controller.tables import artifacts, htsim


def export(routes, **kw) -> str:
    buf = io.StringIO()
    htsim.write(routes, buf, **kw)
    return buf.getvalue()


@pytest.mark.parametrize("failed", [Failed(), Failed(tors=frozenset({3}), uplinks=frozenset({(0, 1)}))])
def test_uro_per_hop_paths_round_trip(failed):
    sched = without(opera(14, 3, seed=2), failed) if not failed.empty else opera(14, 3, seed=2)
    routes = uro.compute(sched, uro.UroParams(k=3))
    back, down, paths = htsim.parse(export(routes, downlinks=4), complete=failed.empty)
    assert down == 4 and np.array_equal(back.peer, sched.peer)
    S, N = sched.n_slices, sched.n_tors
    seen = 0
    for t in range(S):
        for src in range(N):
            for dst in range(N):
                if src == dst:
                    continue
                got = paths.get((t, src, dst), [])
                if routes.arrival[t, src, dst] < 0:  # unreachable after the failures: no path
                    assert got == []
                    continue
                hops = routes.path(src, dst, t)[:-1]
                assert got == [htsim.HtsimPath(0, tuple(u for _, u, _ in hops), tuple(s % S for _, _, s in hops))]
                assert htsim.walk(back, src, got[0]) == dst
                seen += 1
    assert seen == sum(len(v) for v in paths.values()) and seen > 0
    if not failed.empty:
        assert seen < S * N * (N - 1)


def test_ucmp_groups_round_trip_with_flow_size_classes(tmp_path):
    sched = opera(12, 3, seed=1)
    routes = ucmp.compute(sched, ucmp.UcmpParams())
    alpha = 0.5
    _, _, paths = htsim.parse(export(routes, alpha=alpha))
    b = routes.buckets
    bounds = [0.0] + [x / alpha for x in b.boundary_bytes()]
    S, N = sched.n_slices, sched.n_tors
    classes = set()
    for t in range(S):
        for src in range(N):
            for dst in range(N):
                if src == dst:
                    continue
                want = []
                for m in routes.members(src, dst, t):
                    if b.m_lo[m] < 0:
                        continue
                    for p in routes.member_paths(m):
                        want.append(htsim.HtsimPath(round(bounds[b.m_lo[m]]), tuple(u for _, u, _ in p),
                                                    tuple(s % S for _, _, s in p)))
                got = paths.get((t, src, dst), [])
                assert got == want
                assert all(htsim.walk(sched, src, p) == dst for p in got)
                assert min(p.lb_bytes for p in got) == 0  # the smallest flows always have a class
                classes |= {p.lb_bytes for p in got}
    assert len(classes) > 1  # several flow-size classes were written


def test_bad_path_lines_name_the_line():
    sched = opera(6, 2)
    text = export(uro.compute(sched, uro.UroParams(k=1)))
    lines = text.splitlines()
    first_path = next(i for i, ln in enumerate(lines) if i > 2 + sched.n_slices and len(ln.split()) > 3)
    bad = lines[:]
    bad[first_path] = "0 1 0 99"
    with pytest.raises(UroError, match=rf"line {first_path + 1}: port 99 is not an uplink port"):
        htsim.parse("\n".join(bad))
    with pytest.raises(UroError, match=r"send slices of the path on line"):
        htsim.parse("\n".join(lines[:first_path + 1]))


def test_cli_writes_the_file_from_an_artifact(tmp_path, capsys):
    art = tmp_path / "r.uro"
    assert main(["routes", "--generate", "opera", "--tors", "10", "--uplinks", "3", "--algo", "ucmp",
                 "-o", str(art)]) == 0
    out = tmp_path / "topo.txt"
    assert main(["htsim", "--routes", str(art), "-o", str(out)]) == 0
    assert "-routing OptiRoute" in capsys.readouterr().out
    sched, down, paths = htsim.parse(out.read_text())
    assert sched.n_tors == 10 and down == 3
    assert len(paths) == sched.n_slices * 10 * 9  # every group of the artifact has paths
    assert main(["htsim", "--routes", str(tmp_path / "missing.uro"), "-o", str(tmp_path / "x.txt")]) == 2
    assert not (tmp_path / "x.txt").exists()
