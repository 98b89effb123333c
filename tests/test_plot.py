"""`uro plot schedule|route|cdf|failures` write images, and refuse input
that does not fit in one line (no such pair, a per-hop artifact where a group is asked,
source routes where alternatives are asked, a suffix that is not an image)."""

import pytest

pytest.importorskip("matplotlib", reason="needs the plot extra: pip install -e '.[plot]'")

from controller.analysis import plots
from controller.cli.main import main as uro
from controller.routing import ucmp
from controller.routing.uro import UroParams, compute
from controller.schedule import opera

GEN = ["--generate", "opera", "--tors", "8", "--uplinks", "2"]
PNG = b"\x89PNG\r\n\x1a\n"


def one_line(capsys, argv) -> str:
    assert uro(argv) == 2
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if "error" in ln]
    assert len(lines) == 1 and lines[0].startswith("uro: error: ") and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("argv", [
    ["plot", "schedule", *GEN],
    ["plot", "schedule", *GEN, "--by", "ocs"],
    ["plot", "route", *GEN, "-K", "3", "--src", "0", "--dst", "5", "--slice", "1"],
    ["plot", "route", *GEN, "--algo", "ucmp", "--src", "0", "--dst", "5"],
    ["plot", "cdf", *GEN, "--schemes", "uro,ucmp,vlb"],
    ["plot", "failures", *GEN, "--link-rate", "0.05,0.1", "--trials", "1"],
])
def test_each_plot_writes_an_image(tmp_path, capsys, argv):
    out = tmp_path / "x.png"
    assert uro(argv + ["-o", str(out)]) == 0, capsys.readouterr().err
    assert out.read_bytes()[:8] == PNG and out.stat().st_size > 5000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.png"]       # no temporaries left


def test_svg(tmp_path):
    out = tmp_path / "s.svg"
    assert uro(["plot", "schedule", *GEN, "-o", str(out)]) == 0
    assert b"<svg" in out.read_bytes()[:2000]


def test_route_from_artifacts_and_kind_mismatch(tmp_path, capsys):
    per_hop, source = tmp_path / "r.uro", tmp_path / "u.uro"
    assert uro(["routes", *GEN, "-K", "3", "-o", str(per_hop)]) == 0
    assert uro(["routes", *GEN, "--algo", "ucmp", "-o", str(source)]) == 0
    capsys.readouterr()
    assert uro(["plot", "route", "--routes", str(per_hop), "--src", "1", "--dst", "6", "-o",
                str(tmp_path / "a.png")]) == 0
    assert uro(["plot", "route", "--routes", str(source), "--src", "1", "--dst", "6", "-o",
                str(tmp_path / "g.png")]) == 0
    line = one_line(capsys, ["plot", "route", "--routes", str(per_hop), "--src", "1", "--dst", "6", "--show", "group",
                             "-o", str(tmp_path / "x.png")])
    assert f"--show group: {per_hop} holds per-hop routes (uro), which have no UCMP group" in line
    line = one_line(capsys, ["plot", "route", "--routes", str(source), "--src", "1", "--dst", "6", "--show",
                             "alternatives", "-o", str(tmp_path / "x.png")])
    assert "holds source routes (ucmp), which have no per-hop alternatives" in line
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("extra,msg", [
    (["--src", "0", "--dst", "0"], "--src 0 --dst 0: no such pair"),
    (["--src", "0", "--dst", "8"], "--dst 8: no such ToR (the schedule has ToRs 0..7)"),
    (["--src", "-1", "--dst", "3"], "--src -1: no such ToR"),
    (["--src", "0", "--dst", "3", "--slice", "4"], "--slice 4: no such slice (the schedule has slices 0..3)"),
])
def test_no_such_pair(tmp_path, capsys, extra, msg):
    line = one_line(capsys, ["plot", "route", *GEN, *extra, "-o", str(tmp_path / "x.png")])
    assert msg in line


def test_not_an_image_name(tmp_path, capsys):
    line = one_line(capsys, ["plot", "schedule", *GEN, "-o", str(tmp_path / "x.pdfx")])
    assert "a .png or .svg name" in line


def test_alternatives_are_walks_of_the_schedule():
    """Every drawn path follows real circuits from src to dst, alternative k leaving on
    the tables' k-th (uplink, slice), never before the arrival slice."""
    sched = opera(8, 2, seed=0)
    r = compute(sched, UroParams(k=3))
    for t in range(sched.n_slices):
        for src, dst in ((0, 5), (3, 1), (7, 2)):
            paths = plots.uro_alternatives(r, src, dst, t)
            for k, p in enumerate(paths):
                assert p.hops[0][0] == src and p.hops[0][2] >= t
                now, at = t, src
                for tor, u, dep in p.hops:
                    assert tor == at and dep >= now
                    at, now = int(sched.peer[dep % sched.n_slices, tor, u]), dep
                assert at == dst
            assert paths[0].hops[0][1:] == (int(r.alt_uplink[t, src, dst, 0]), int(r.alt_dep[t, src, dst, 0]))


def test_group_paths_are_the_groups():
    sched = opera(8, 2, seed=0)
    r = ucmp.compute(sched, ucmp.UcmpParams())
    paths = plots.ucmp_group(r, 0, 5, 1)
    assert len(paths) == sum(len(m["paths"]) for m in r.group(0, 5, 1))
    for p in paths:
        at = 0
        for tor, u, dep in p.hops:
            assert tor == at
            at = int(sched.peer[dep % sched.n_slices, tor, u])
        assert at == 5
