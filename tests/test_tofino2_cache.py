"""``compiler.compile_cached``: an accepted build is reused only for the same program text
by the same compiler; a failed build stores nothing. A stand-in compiler (a script that
writes bf-p4c's outputs and counts its runs) stands for bf-p4c."""

from __future__ import annotations

import json
import stat

import pytest

from controller.tofino2 import compiler

FAKE = """#!/bin/sh
[ "$1" = "--version" ] && { echo "fake-bf-p4c VERSION"; exit 0; }
echo run >> "{runs}"
[ -n "$FAKE_SLEEP" ] && sleep "$FAKE_SLEEP"
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; last="$a"; done
grep -q FAIL "$last" && { echo "error: P4 rejected" >&2; exit 1; }
mkdir -p "$out/pipe"
echo '{"tables": []}' > "$out/bfrt.json"; echo '{}' > "$out/pipe/context.json"
cat "$last" > "$out/pipe/tofino2.bin"
"""


@pytest.fixture()
def fake(tmp_path, monkeypatch):
    runs = tmp_path / "runs"
    exe = tmp_path / "bf-p4c"

    def with_version(v):
        exe.write_text(FAKE.replace("{runs}", str(runs)).replace("VERSION", v))
        exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    with_version("9.13.4")
    monkeypatch.setenv("URO_BF_P4C", str(exe))
    return runs, with_version


def _program(d, text):
    d.mkdir(parents=True, exist_ok=True)
    p = d / "tor_x_t2na.p4"
    p.write_text(text)
    return p


def test_the_same_program_by_the_same_compiler_is_compiled_once(tmp_path, fake):
    runs, with_version = fake
    cache = tmp_path / "cache"
    a = compiler.compile_cached(_program(tmp_path / "a", "program 1"), cache)
    b = compiler.compile_cached(_program(tmp_path / "b", "program 1"), cache)
    assert runs.read_text().count("run") == 1
    assert b[2].read_text() == "program 1" and b[2] == tmp_path / "b" / "tor_x_t2na" / "pipe" / "tofino2.bin"
    assert json.loads((tmp_path / "b" / "tor_x_t2na" / "build.json").read_text())["version"] == "fake-bf-p4c 9.13.4"
    assert a[0].is_file()
    compiler.compile_cached(_program(tmp_path / "c", "program 2"), cache)      # other text: compiled
    assert runs.read_text().count("run") == 2
    with_version("9.13.5")                                                      # other compiler: compiled
    compiler.compile_cached(_program(tmp_path / "d", "program 1"), cache)
    assert runs.read_text().count("run") == 3


def test_a_failed_build_is_not_cached(tmp_path, fake):
    runs, _ = fake
    cache = tmp_path / "cache"
    for d in ("a", "b"):
        with pytest.raises(compiler.CompileError, match="error: P4 rejected"):
            compiler.compile_cached(_program(tmp_path / d, "FAIL"), cache)
    assert runs.read_text().count("run") == 2
    assert not cache.exists() or [p for p in cache.iterdir() if not p.name.startswith(".")] == []


def test_a_failed_build_keeps_what_the_compiler_said_until_a_build_succeeds(tmp_path, fake):
    """The compiler's logs say why a build failed: they stay beside the program (named in
    the error), never in the cache, and go once the program compiles."""
    prog = _program(tmp_path / "a", "FAIL here")
    with pytest.raises(compiler.CompileError, match="its whole output: ") as e:
        compiler.compile_cached(prog, tmp_path / "cache")
    log = tmp_path / "a" / "tor_x_t2na.failed" / "compiler.log"
    assert str(log) in str(e.value)
    text = log.read_text()
    assert "exit status 1" in text and "error: P4 rejected" in text and str(prog) in text
    assert not (tmp_path / "a" / "tor_x_t2na").exists()
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["tor_x_t2na.failed", "tor_x_t2na.p4"]
    prog.write_text("program 1")
    compiler.compile_cached(prog, tmp_path / "cache")
    assert not log.parent.exists() and (tmp_path / "a" / "tor_x_t2na" / "bfrt.json").is_file()


def test_concurrent_builds_of_one_program_compile_it_once(tmp_path, fake, monkeypatch):
    """Two test sessions building the same program at the same time: the second waits for
    the first one's cache entry instead of running the compiler beside it."""
    import threading

    runs, _ = fake
    monkeypatch.setenv("FAKE_SLEEP", "1")
    cache = tmp_path / "cache"
    progs = [_program(tmp_path / d, "program 1") for d in ("a", "b", "c")]
    out: dict = {}
    threads = [threading.Thread(target=lambda p=p: out.setdefault(p, compiler.compile_cached(p, cache)))
               for p in progs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert runs.read_text().count("run") == 1
    assert all(out[p][2].read_text() == "program 1" for p in progs)


@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_the_build_directory_gets_the_umask_modes(tmp_path, fake, umask):
    """bf-p4c builds into a temporary directory (mkdtemp: 0700) renamed into place: the
    output directory gets what the caller's umask gives a new directory, built or copied
    from the cache (also from an entry an older tree stored as 0700)."""
    import os

    old = os.umask(umask)
    try:
        want = 0o777 & ~umask
        compiler.compile(_program(tmp_path / "a", "program 1"))
        assert stat.S_IMODE((tmp_path / "a" / "tor_x_t2na").stat().st_mode) == want
        cache = tmp_path / "cache"
        compiler.compile_cached(_program(tmp_path / "b", "program 2"), cache)
        entry = next(p for p in cache.iterdir() if not p.name.startswith("."))
        entry.chmod(0o700)
        compiler.compile_cached(_program(tmp_path / "c", "program 2"), cache)
        assert stat.S_IMODE((tmp_path / "b" / "tor_x_t2na").stat().st_mode) == want
        assert stat.S_IMODE((tmp_path / "c" / "tor_x_t2na").stat().st_mode) == want
    finally:
        os.umask(old)
