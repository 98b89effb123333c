"""An output the OS refuses at creation time -- past the checks the commands
make first (a pseudo file system: /proc, /sys; a read-only mount) -- is one line
``uro: error: cannot write PATH: REASON``, exit 2, no traceback, nothing left behind.
The conversion happens in one place, :mod:`controller.atomic`, where every output is
created; these tests run each command that writes against such a location."""

import errno
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from controller import atomic
from controller.cli import main
from controller.errors import UroError

GEN = ["--generate", "round-robin", "--tors", "6", "--uplinks", "2"]


def one_line_error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if "error" in ln.lower()]   # progress lines aside
    assert len(lines) == 1 and lines[0].startswith("uro: error: ") and "Traceback" not in err, err
    assert err.rstrip().splitlines()[-1] == lines[0], err
    return lines[0]


@pytest.mark.parametrize("argv,path", [
    (["run", *GEN, "--out", "/proc/uro-r"], "/proc/uro-r/schedule.json"),
    (["run", *GEN, "--format", "json", "--out", "/proc/uro-r"], "/proc/uro-r/schedule.json"),
    (["routes", *GEN, "-o", "/proc/r.uro"], "/proc/r.uro"),
    (["routes", *GEN, "-o", "/proc/r.json"], "/proc/r.json"),
    (["routes", *GEN, "--algo", "ucmp", "-o", "/proc/r.uro"], "/proc/r.uro"),
    (["routes", *GEN, "--algo", "ucmp", "-o", "/proc/r.json"], "/proc/r.json"),
    (["schedule", "generate", *GEN, "-o", "/proc/s.json"], "/proc/s.json"),
    (["schedule", "generate", *GEN, "--format", "htsim", "-o", "/proc/s.txt"], "/proc/s.txt"),
    (["p4", "render", "--profile", "tiny", "--out", "/proc/x"], "/proc/x/"),
    (["p4", "render", "--profile", "tiny", "--out", "/proc/x/y/z"], "/proc/x/y/z/"),
    (["compare", *GEN, "--json", "/proc/c.json"], "/proc/c.json"),
    (["routes", *GEN, "-o", "/sys/r.uro"], "/sys/r.uro"),
])
def test_pseudo_fs_output_is_one_line(capsys, argv, path):
    line = one_line_error(capsys, argv)
    assert f"cannot write {path}" in line, line
    assert ("does not take new files" in line or "not permitted" in line
            or "ermission denied" in line), line


def test_compare_plot_refused(capsys):
    pytest.importorskip("matplotlib")
    line = one_line_error(capsys, ["compare", *GEN, "--plot", "/proc/c.png"])
    assert "cannot write /proc/c.png" in line


@pytest.fixture
def ro_mount(tmp_path):
    """A read-only bind mount of a directory (root only): the OS refuses with EROFS."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("a read-only bind mount needs root and mount(8)")
    d = tmp_path / "ro"
    d.mkdir()
    (d / "old.json").write_text("{}\n")
    r = subprocess.run(["mount", "--bind", str(d), str(d)], capture_output=True, text=True)
    if r.returncode:
        pytest.skip(f"cannot bind-mount here: {r.stderr.strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(d)], check=True, capture_output=True)
        yield d
    finally:
        subprocess.run(["umount", str(d)], check=True)


def test_read_only_mount(capsys, ro_mount, monkeypatch):
    """Past the up-front check (simulated away: the OS is the only one to refuse)."""
    from controller.cli import common

    monkeypatch.setattr(common.os, "access", lambda *a, **k: True)
    for argv in (["schedule", "generate", *GEN, "-o", str(ro_mount / "s.json")],
                 ["routes", *GEN, "-o", str(ro_mount / "r.uro")],
                 ["run", *GEN, "--out", str(ro_mount / "out")],
                 ["p4", "render", "--profile", "tiny", "--out", str(ro_mount)]):
        line = one_line_error(capsys, argv)
        assert "cannot write " + str(ro_mount) in line and "Read-only file system" in line, line
    assert sorted(p.name for p in ro_mount.iterdir()) == ["old.json"]


# ---- the one place: controller.atomic --------------------------------------------------------
def test_write_failure_inside_output_set_names_the_target(tmp_path):
    target = tmp_path / "a.json"
    with pytest.raises(atomic.OutputError, match=rf"cannot write {target}: No space left on device"):
        with atomic.OutputSet() as out:
            out.file(target)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert list(tmp_path.iterdir()) == []


def test_input_error_inside_a_write_keeps_its_type(tmp_path):
    """An OS error about another file (an input) is not an output error."""
    target = tmp_path / "a.json"
    with pytest.raises(FileNotFoundError):
        with atomic.atomic_open(target) as fh:
            fh.write(Path(tmp_path / "missing-input").read_text())
    with pytest.raises(FileNotFoundError):
        with atomic.atomic_dir(tmp_path / "d.uro"):
            open(tmp_path / "missing-input")
    assert list(tmp_path.iterdir()) == []


def test_output_error_is_a_user_error():
    assert issubclass(atomic.OutputError, UroError)
