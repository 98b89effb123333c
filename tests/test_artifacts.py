"""Compact route artifacts (controller.tables.artifacts, .stream): every algorithm's route set
round-trips exactly; one ToR's tables read alone give the same entries (and tor_batch the
same batch) as the in-memory routes; the streamed UCMP writer equals ucmp.compute byte for
byte; bad artifacts are refused with one line naming the reason; files get ordinary modes;
`uro run` commits its outputs as one set."""

import json
import multiprocessing
import os
import re
import stat

import numpy as np
import pytest

from controller import __version__
from controller.cli import main
from controller.errors import UroError
from controller.p4gen import profile as prof
from controller.p4gen import render as rnd
from controller.routing import base, ucmp
from controller.schedule import Schedule, opera, round_robin, save
from controller.tables import artifacts, perhop, source, stream
from controller.tables.tor_batch import tor_batch

ALGOS = ["uro", "ucmp", "direct", "vlb", "ksp", "opera"]


def _same_routes(a, b):
    assert type(a) is type(b) and a.kind == b.kind and a.algo == b.algo
    assert a.schedule == b.schedule and a.params_dict() == b.params_dict()
    for f in a.__dataclass_fields__:
        x, y = getattr(a, f), getattr(b, f)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y), f
        elif f == "buckets" and x is not None:
            assert x.boundaries == y.boundaries and x.slice_bytes == y.slice_bytes
            assert np.array_equal(x.m_lo, y.m_lo) and np.array_equal(x.m_hi, y.m_hi)
        elif f == "notes":     # how the run went (for a repair in its process) is not written
            assert artifacts.artifact_notes(x) == artifacts.artifact_notes(y), f
        elif f not in ("schedule", "buckets"):
            assert x == y, f


@pytest.fixture(scope="module")
def sched():
    return opera(11, 3, seed=7)


@pytest.mark.parametrize("algo", ALGOS)
def test_every_algorithm_round_trips_and_reads_per_tor(tmp_path, sched, algo):
    r = base.compute(algo, sched)
    path = artifacts.write(r, tmp_path / f"{algo}.uro")
    art = artifacts.open(path, sched)
    assert art.kind == r.kind and art.algo == algo and art.manifest["schedule"]["hash"] == sched.content_hash()
    _same_routes(r, art.route_set())
    mod = perhop if r.kind == base.PER_HOP else source
    for x in range(sched.n_tors):
        assert list(mod.entries(art, x)) == list(mod.entries(r, x))  # the artifact stands in for routes
    assert art.entries_per_tor() == pytest.approx(artifacts.entries_per_tor(r))


def test_one_tor_is_read_without_the_others(tmp_path, sched):
    """Damage every other ToR's rows: ToR 4's table still reads, the damaged ones are refused."""
    r = base.compute("uro", sched)
    path = artifacts.write(r, tmp_path / "r.uro")
    f = path / "alt_uplink.npy"
    arr = np.load(f, mmap_mode="r+")
    arr[:4] = 99
    arr[5:] = 99
    arr.flush()
    del arr
    art = artifacts.open(path)
    assert list(perhop.entries(art, 4)) == list(perhop.entries(r, 4))
    with pytest.raises(artifacts.ArtifactError, match=re.escape(f"route artifact {path}: ToR 3's table is corrupted")):
        art.tor_table(3)


def test_tor_batch_from_artifacts_equals_in_memory(tmp_path):
    c = rnd.contract(prof.load("tiny"), "tor")
    s = round_robin(8, 2)
    uro = base.compute("uro", s, base.get("uro").params({"k": 3, "max_hops": 4}))
    paths = ucmp.compute(s, ucmp.UcmpParams(h_max=4))
    a_uro = artifacts.open(artifacts.write(uro, tmp_path / "u.uro"), s)
    a_src = artifacts.open(artifacts.write(paths, tmp_path / "s.uro"), s)
    for tor in (0, 2, 7):
        want = tor_batch(c, tor, uro_routes=uro, path_routes=paths, source_routed=[1, 5])
        got = tor_batch(c, tor, uro_routes=a_uro, path_routes=a_src, source_routed=[1, 5])
        assert got == want and len(got.entries) > 64
        # the per-ToR table views give the same entries as well
        assert list(perhop.entries(a_uro.tor_table(tor), tor)) == list(perhop.entries(uro, tor))
        assert list(source.entries(a_src.tor_table(tor), tor)) == list(source.entries(paths, tor))


@pytest.mark.parametrize("case", [
    (opera(20, 3, seed=2), ucmp.UcmpParams(), 4),
    (opera(13, 2, seed=1), ucmp.UcmpParams(relax_slices=1, h_max=4, backups=3), 3),
    (round_robin(12, 2), ucmp.UcmpParams(engine="numpy", relax_slices=0), 5),
    (opera(9, 2, seed=3), ucmp.UcmpParams(backups=0), 2),
])
def test_streamed_ucmp_equals_compute_byte_for_byte(tmp_path, case):
    s, prm, chunk = case
    d = tmp_path / "stream.uro"
    d.mkdir()
    man = stream.write_ucmp(s, prm, d, chunk=chunk)
    r = ucmp.compute(s, prm)
    ref = artifacts.write(r, tmp_path / "ref.uro")
    names = sorted(p.name for p in ref.iterdir())
    assert sorted(p.name for p in d.iterdir()) == names  # no spill left behind
    for n in names:
        if n.endswith(".npy"):
            assert (d / n).read_bytes() == (ref / n).read_bytes(), n
    assert man["buckets"]["count"] == r.buckets.count and man["paths"] == r.n_paths
    _same_routes(r, artifacts.open(d, s).route_set())


def _streamed_in_child(s, prm, d) -> None:
    d.mkdir()
    stream.write_ucmp(s, prm, d, chunk=2)


def test_a_forked_child_streams_ucmp_after_its_parent_did(tmp_path):
    """The process-wide thread pools (ucmp.shared_pool, the streamed writer's) are the
    child's own after fork: work the child gives them runs (a child inheriting pools
    without their threads would wait forever)."""
    s, prm = opera(9, 2, seed=3), ucmp.UcmpParams()
    (tmp_path / "parent").mkdir()
    stream.write_ucmp(s, prm, tmp_path / "parent", chunk=2)
    assert ucmp._POOLS, "the parent used no shared pool: this test tests nothing"
    child = multiprocessing.get_context("fork").Process(target=_streamed_in_child, args=(s, prm, tmp_path / "child"))
    child.start()
    child.join(120)
    if child.is_alive():
        child.kill()
        child.join()
    assert child.exitcode == 0, "the forked child did not finish streaming UCMP routes"
    for f in sorted((tmp_path / "parent").iterdir()):
        assert f.read_bytes() == (tmp_path / "child" / f.name).read_bytes(), f.name


def test_two_hop_kernel_equals_numpy_reference():
    import dataclasses

    for s in (opera(30, 3, seed=3), round_robin(14, 2)):
        prm = ucmp.UcmpParams(backups=3, relax_slices=1, max_parallel=2)
        ch = list(ucmp.group_chunks(s, prm, engine="numpy"))
        lv = [np.concatenate([getattr(c, f) for c in ch]) for f in ("lv_gid", "lv_hops", "lv_latency")]
        H = s.timing.hops_per_slice
        a = ucmp.extra_members(s, dataclasses.replace(prm, engine="numba"), H, *lv)
        b = ucmp.extra_members(s, dataclasses.replace(prm, engine="numpy"), H, *lv)
        assert len(a) == 2 and all(e[0].size > 0 for e in a)
        for ea, eb in zip(a, b):
            assert all(x.dtype == y.dtype and np.array_equal(x, y) for x, y in zip(ea, eb))


# ---- refusals -------------------------------------------------------------------------------
@pytest.fixture
def art_path(tmp_path, sched):
    return artifacts.write(base.compute("ucmp", sched), tmp_path / "a.uro")


def _stats_error(capsys, path, *extra):
    assert main(["stats", "--routes", str(path), *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_refuses_other_schedule(capsys, art_path, sched, tmp_path):
    other = opera(11, 3, seed=8)
    with pytest.raises(artifacts.ArtifactError, match="computed for schedule .* not for the schedule given"):
        artifacts.open(art_path, other)
    save(other, tmp_path / "other.json")
    err = _stats_error(capsys, art_path, "--schedule", str(tmp_path / "other.json"))
    assert "recompute the routes" in err
    # same circuits, other timing: other hops per slice -> refused too
    save(Schedule(sched.peer, sched.timing.__class__(slice_us=50.0), sched.name), tmp_path / "t.json")
    assert "not for the schedule given" in _stats_error(capsys, art_path, "--schedule", str(tmp_path / "t.json"))


def test_refuses_other_version(capsys, art_path):
    m = json.loads((art_path / "manifest.json").read_text())
    m["format"] = "uro-route-artifact/2"
    (art_path / "manifest.json").write_text(json.dumps(m))
    assert "format version 2" in _stats_error(capsys, art_path)


@pytest.mark.parametrize("damage,msg", [
    (lambda p: (p / "hop_node.npy").write_bytes((p / "hop_node.npy").read_bytes()[:-7]), "hop_node.npy is truncated"),
    (lambda p: (p / "m_kind.npy").unlink(), "m_kind.npy is missing"),
    (lambda p: (p / "manifest.json").write_text('{"format": "uro-route-artifact/1", "kind": '), "manifest.json is corrupted"),
    (lambda p: (p / "manifest.json").unlink(), "no manifest.json"),
    (lambda p: (p / "g_count.npy").write_bytes(b"garbage" * 20), "g_count.npy is corrupted"),
    (lambda p: (p / "manifest.json").write_text("[1, 2]"), "not a JSON object"),
    (lambda p: (p / "manifest.json").write_text("[" * 100000), "manifest.json is corrupted"),
])
def test_refuses_damaged_artifacts(capsys, art_path, damage, msg):
    damage(art_path)
    assert msg in _stats_error(capsys, art_path)


def test_refuses_damaged_values_and_peer(capsys, art_path):
    a = np.load(art_path / "peer.npy", mmap_mode="r+")
    a[0, 0, 0] = (a[0, 0, 0] + 1) % 11
    a.flush()
    del a
    assert "peer.npy does not match the schedule hash" in _stats_error(capsys, art_path)


def test_refuses_json_and_missing(capsys, tmp_path):
    assert "not found" in _stats_error(capsys, tmp_path / "nope.uro")
    (tmp_path / "r.json").write_text("{}")
    assert "is a JSON route document" in _stats_error(capsys, tmp_path / "r.json")
    (tmp_path / "d").mkdir()
    assert "no manifest.json" in _stats_error(capsys, tmp_path / "d")


def test_route_set_refused_when_too_big(art_path):
    with pytest.raises(UroError, match="needs about .* GiB"):
        artifacts.open(art_path).route_set(limit_bytes=1000)


# ---- files ----------------------------------------------------------------------------------
def test_files_get_ordinary_modes(tmp_path, sched):
    from controller.atomic import dir_mode, file_mode

    assert file_mode() == 0o666 & ~_umask()
    p = artifacts.write(base.compute("uro", sched), tmp_path / "r.uro")
    assert stat.S_IMODE(p.stat().st_mode) == dir_mode()
    for f in p.iterdir():
        assert stat.S_IMODE(f.stat().st_mode) == file_mode(), f
    assert main(["routes", "--generate", "opera", "--tors", "6", "--uplinks", "2", "-o", str(tmp_path / "r.json")]) == 0
    assert stat.S_IMODE((tmp_path / "r.json").stat().st_mode) == file_mode()
    if _umask() == 0o022:
        assert file_mode() == 0o644


def _keys(doc) -> set:
    """Every key of every object in a JSON document."""
    if isinstance(doc, dict):
        return set(doc) | {k for v in doc.values() for k in _keys(v)}
    if isinstance(doc, list):
        return {k for v in doc for k in _keys(v)}
    return set()


def test_write_reports_progress_per_tor_and_keeps_the_path_choice_in_either_format(tmp_path, sched):
    r = base.compute("uro", sched)
    for name in ("r.json", "r.uro"):
        ticks = []
        artifacts.write(r, tmp_path / name, progress=ticks.append)
        assert ticks == [1] * sched.n_tors, name
    assert artifacts.open(tmp_path / "r.uro", sched).kind == base.PER_HOP
    assert "path" in _keys(json.loads((tmp_path / "r.json").read_text()))
    artifacts.write(r, tmp_path / "bare.json", with_paths=False)
    bare = json.loads((tmp_path / "bare.json").read_text())
    assert "path" not in _keys(bare) and "alternatives" in _keys(bare)


def test_run_names_its_artifact_by_format_and_removes_the_other(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["run", *GEN, "--format", "json", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["routes.json", "schedule.json"]
    doc = json.loads((out / "routes.json").read_text())
    assert doc["format"] == "uro-routes/1" and "path" in _keys(doc)
    assert main(["run", *GEN, "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["routes.uro", "schedule.json"]
    assert "removed the previous run's" in capsys.readouterr().out


def _umask():
    u = os.umask(0o022)
    os.umask(u)
    return u


def test_run_outputs_are_one_set(tmp_path, monkeypatch, capsys):
    """A run failing (or interrupted) part-way leaves the previous schedule + routes pair."""
    out = tmp_path / "out"
    assert main(["run", "--generate", "opera", "--tors", "8", "--uplinks", "2", "--out", str(out)]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    before_manifest = (out / "routes.uro" / "manifest.json").read_text()

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(artifacts, "write_to", boom)
    assert main(["run", "--generate", "opera", "--tors", "10", "--uplinks", "2", "--out", str(out)]) == 130
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert (out / "routes.uro" / "manifest.json").read_text() == before_manifest
    assert sorted(p.name for p in out.iterdir()) == ["routes.uro", "schedule.json"]  # no temporaries
    from controller.schedule import load

    artifacts.open(out / "routes.uro", load(out / "schedule.json"))  # still a matching pair


# ---- CLI ------------------------------------------------------------------------------------
GEN = ["--generate", "opera", "--tors", "9", "--uplinks", "2", "--seed", "3"]


def test_cli_routes_stats_compare_read_artifacts(tmp_path, capsys):
    u, c = tmp_path / "u.uro", tmp_path / "c.uro"
    assert main(["routes", *GEN, "-K", "3", "-o", str(u)]) == 0
    assert main(["routes", *GEN, "--algo", "ucmp", "-o", str(c)]) == 0
    assert "compact" in capsys.readouterr().out
    assert artifacts.open(c).manifest["notes"]["engine"] == "numba"
    for path, argv in ((u, ["-K", "3"]), (c, ["--algo", "ucmp"])):
        assert main(["stats", *GEN, *argv]) == 0
        computed = capsys.readouterr().out
        assert main(["stats", "--routes", str(path)]) == 0
        assert capsys.readouterr().out == computed
    js = tmp_path / "cmp.json"
    assert main(["compare", "--routes", str(u), "--routes", str(c), "--json", str(js)]) == 0
    rows = json.loads(js.read_text())["rows"]
    assert [r["scheme"] for r in rows] == ["uro", "ucmp"]
    assert main(["compare", *GEN, "--schemes", "uro,direct", "--routes", str(c), "-K", "3", "--json", str(js)]) == 0
    doc = json.loads(js.read_text())
    assert [r["scheme"] for r in doc["rows"]] == ["uro", "direct", "ucmp"]
    assert doc["format"] == "uro-compare/1" and doc["schedule"]["name"] == "opera-9x2-s3"


@pytest.mark.parametrize("argv,msg", [
    (["stats", "--routes", "{u}", "-K", "3"], "-K/--alternatives computes routes; --routes"),
    (["stats", "--routes", "{u}", "--algo", "uro"], "--algo uro computes routes; --routes"),
    (["routes", *GEN, "-o", "{file}"], "exists and is a file"),
    (["routes", *GEN, "-o", "{dir}"], "is a directory that is not a uro route artifact"),
    (["routes", *GEN, "-o", "{u}", "--no-paths"], "--no-paths applies to JSON per-hop routes"),
    (["routes", *GEN, "-o", "x.bin", "--format", "npz"], "--format: invalid choice"),
    (["compare", "--routes", "{u}", "--routes", "{u}"], "is listed twice"),
])
def test_cli_artifact_errors(tmp_path, capsys, monkeypatch, argv, msg):
    monkeypatch.chdir(tmp_path)
    u = tmp_path / "u.uro"
    artifacts.write(base.compute("uro", opera(9, 2, seed=3)), u)
    (tmp_path / "file").write_text("x")
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "keep.txt").write_text("x")
    argv = [a.format(u=u, file=tmp_path / "file", dir=tmp_path / "dir") for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert msg in err and err.count("\n") == 1
    assert (tmp_path / "dir" / "keep.txt").exists() and (tmp_path / "file").read_text() == "x"


def test_cli_format_by_suffix_and_flag(tmp_path, capsys):
    assert main(["routes", *GEN, "-o", str(tmp_path / "a.json")]) == 0
    assert json.loads((tmp_path / "a.json").read_text())["format"] == "uro-routes/1"
    assert main(["routes", *GEN, "-o", str(tmp_path / "b"), "--format", "json"]) == 0
    assert json.loads((tmp_path / "b").read_text())["format"] == "uro-routes/1"
    assert main(["routes", *GEN, "-o", str(tmp_path / "c.routes")]) == 0
    assert (tmp_path / "c.routes" / "manifest.json").is_file()
    # an existing artifact is replaced
    assert main(["routes", *GEN, "-K", "2", "-o", str(tmp_path / "c.routes")]) == 0
    assert artifacts.open(tmp_path / "c.routes").params_dict()["k"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b", "c.routes"]


def test_stats_from_an_artifact_checks_memory_first(capsys, monkeypatch, art_path):
    from controller import memory

    monkeypatch.setattr(memory, "available_memory", lambda: 1 << 20)
    err = _stats_error(capsys, art_path)
    assert "statistics of ucmp routes on 11 ToRs" in err and "needs about" in err


# ---- every refusal, word for word -------------------------------------------------------------
@pytest.fixture
def uro_art(tmp_path, sched):
    """A per-hop artifact (URO routes) of ``sched``."""
    return artifacts.write(base.compute("uro", sched), tmp_path / "u.uro")


def _manifest(p, change):
    m = json.loads((p / "manifest.json").read_text())
    change(m)
    (p / "manifest.json").write_text(json.dumps(m))


def _refused(p, why, *, prefix=False, schedule=None):
    """``artifacts.open(p)`` fails with exactly ``route artifact <p>: <why>`` (or starting so)."""
    with pytest.raises(artifacts.ArtifactError) as e:
        artifacts.open(p, schedule)
    want = f"route artifact {p}: {why}"
    assert (str(e.value).startswith(want) if prefix else str(e.value) == want), str(e.value)


def test_refusals_of_what_is_not_an_artifact_name_the_path_and_the_reason(tmp_path):
    _refused(tmp_path / "none.uro", "not found")
    (tmp_path / "r.json").write_text("{}")
    _refused(tmp_path / "r.json", "is a JSON route document (for people and small tools); the loader reads "
                                  "compact artifacts: write one with `uro routes -o NAME.uro`")
    (tmp_path / "r.uro").write_text("{}")
    _refused(tmp_path / "r.uro", "is a file, not a compact route artifact (a directory with manifest.json)")
    (tmp_path / "d").mkdir()
    _refused(tmp_path / "d", "no manifest.json (not a uro route artifact, or one whose writing did not finish)")


@pytest.mark.parametrize("text,why", [
    (b"\xff\xfe{", "cannot read manifest.json: 'utf-8' codec can't decode byte 0xff in position 0"),
    (b'{"format": ', "manifest.json is corrupted (Expecting value)"),
    (b"[" * 100000, "manifest.json is corrupted (nested too deeply)"),
    (b"[1, 2]", "manifest.json is corrupted (not a JSON object)"),
    (b'{"format": "other/1"}', "not a uro route artifact (format 'other/1')"),
    (b'{"format": 7}', "not a uro route artifact (format 7)"),
    (b'{"format": "uro-route-artifact/1/2"}', "format version 1/2 (written by uro ?); this uro "
                                               f"({__version__}) reads version 1: recompute the routes with this uro"),
    (b'{"format": "uro-route-artifact/2", "uro_version": "0.1"}', "format version 2 (written by uro 0.1); this uro "
     f"({__version__}) reads version 1: recompute the routes with this uro"),
])
def test_refusals_of_a_bad_manifest_say_what_is_wrong(uro_art, text, why):
    (uro_art / "manifest.json").write_bytes(text)
    _refused(uro_art, why, prefix=why.startswith("cannot read"))


def test_refusals_of_damaged_arrays_say_which_and_how(uro_art, sched):
    p = uro_art
    N, S, d = sched.n_tors, sched.n_slices, sched.n_uplinks
    hops = np.load(p / "hops.npy")
    size = (p / "hops.npy").stat().st_size
    cases = [
        (lambda m: m.pop("algo"), "manifest.json is corrupted (KeyError: 'algo')"),
        (lambda m: m.update(kind="bogus"), "unknown route-set kind 'bogus'"),
        (lambda m: m["arrays"].pop("hops"), "manifest.json lists no array 'hops' (corrupted)"),
        (lambda m: m["arrays"]["hops"].update(dtype="<u2"),
         f"hops.npy holds uint8{list(hops.shape)}, the manifest says uint16{list(hops.shape)} (corrupted)"),
        (lambda m: m["arrays"]["hops"].update(shape=[S, N, N + 1]),
         f"hops.npy holds uint8{list(hops.shape)}, the manifest says uint8{[S, N, N + 1]} (corrupted)"),
        (lambda m: m["schedule"].update(uplinks=d + 1), f"peer.npy has shape {[S, N, d]}, the schedule is {S}x{N}x{d + 1}"),
    ]
    original = (p / "manifest.json").read_text()
    for change, why in cases:
        _manifest(p, change)
        _refused(p, why)
        (p / "manifest.json").write_text(original)
    raw = (p / "hops.npy").read_bytes()
    for damage, why in [
        (lambda f: f.write_bytes(raw[:-7]), f"hops.npy is truncated ({size - 7} of {size} bytes)"),
        (lambda f: f.write_bytes(raw + b"\0"), f"hops.npy is too long ({size + 1} of {size} bytes)"),
        (lambda f: np.save(f, np.asfortranarray(hops)), "hops.npy is corrupted (bad .npy header: Fortran order)"),
        (lambda f: f.unlink(), "hops.npy is missing (incomplete or damaged artifact)"),
    ]:
        damage(p / "hops.npy")
        _refused(p, why)
        (p / "hops.npy").write_bytes(raw)
    artifacts.open(p, sched)  # restored: opens again


def test_a_version_2_npy_header_reads_like_version_1(uro_art, sched):
    hops = np.load(uro_art / "hops.npy")
    with (uro_art / "hops.npy").open("wb") as fh:
        np.lib.format.write_array(fh, hops, version=(2, 0))
    art = artifacts.open(uro_art, sched)
    assert all(np.array_equal(art.tor_table(x).hops, hops[x]) for x in range(sched.n_tors))


def test_an_artifact_for_another_schedule_is_refused_with_both_named(uro_art, sched):
    other = opera(11, 3, seed=8)
    h, o = sched.content_hash(), other.content_hash()
    _refused(uro_art, f"computed for schedule {sched.name!r} (11 ToRs x 3 uplinks x {sched.n_slices} slices, "
                      f"{h[:19]}), not for the schedule given {other.name!r} (11 x 3 x {other.n_slices}, {o[:19]}): "
                      "recompute the routes for it", schedule=other)
    assert artifacts.open(uro_art, sched).schedule is sched   # the schedule given is the one used


def test_tor_tables_are_read_through_memory_maps_and_tors_checked(uro_art, sched):
    art = artifacts.open(uro_art, sched)
    assert isinstance(art._array("alt_uplink"), np.memmap)   # one ToR read, not the whole array loaded
    N = sched.n_tors
    for bad in (N, -1, True, "3", 1.0):
        with pytest.raises(UroError) as e:
            art.tor_table(bad)
        assert str(e.value) == f"ToR {bad!r} is not in route artifact {uro_art} (0..{N - 1})"
    art2 = artifacts.open(uro_art, sched)
    (uro_art / "alt_uplink.npy").unlink()
    with pytest.raises(artifacts.ArtifactError) as e:
        art2.tor_table(0)
    assert str(e.value).startswith(f"route artifact {uro_art}: alt_uplink.npy: [Errno 2] No such file")


def test_the_manifest_is_the_documented_readable_json(uro_art, sched):
    """manifest.json as docs/formats.md shows it: one field per line (JSON indented by one
    space), exactly the documented fields -- the uro version that wrote it, no P4
    contract (route artifacts do not depend on a profile) -- and per array its dtype,
    shape and the index line saying what the array holds."""
    text = (uro_art / "manifest.json").read_text()
    assert text.startswith('{\n "format": "uro-route-artifact/1",\n "kind": "per_hop",\n "algo": "uro",\n')
    assert text.endswith("\n}\n")
    m = json.loads(text)
    assert list(m) == ["format", "kind", "algo", "params", "uro_version", "schedule", "contract", "buckets",
                       "notes", "arrays", "entries_per_tor"]
    assert m["uro_version"] == __version__ and m["contract"] is None and m["buckets"] is None
    S, N, d = sched.peer.shape
    assert m["arrays"]["peer"] == {"dtype": "|i1", "shape": [S, N, d],
                                   "index": "[slice, tor, uplink] -> peer ToR, -1 idle"}
    assert m["arrays"]["hops"] == {"dtype": "|u1", "shape": [N, S, N],
                                   "index": "[tor, arrival slice, dst] -> hops of the planned path"}
    assert all(set(a) == {"dtype", "shape", "index"} and a["index"].startswith("[") for a in m["arrays"].values())
