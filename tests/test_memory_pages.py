"""uro's processes keep NumPy's large arrays on ordinary pages (controller.memory.small_pages):
no transparent-huge-page compaction stalls in a long-running daemon, the user's
NUMPY_MADVISE_HUGEPAGE respected, the processes it starts following it."""

import json
import os
import subprocess
import sys

import pytest

from controller import memory

PROBE = r"""
import json, os, subprocess, sys
import numpy as np
from controller import memory
changed = memory.small_pages()
core = getattr(np, "_core", None) or np.core
now = core.multiarray._set_madvise_hugepage(False)     # returns the state before this call
child = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('NUMPY_MADVISE_HUGEPAGE'))"],
                       capture_output=True, text=True).stdout.strip()
print(json.dumps({"changed": changed, "huge_after": bool(now), "child_env": child}))
"""


def _probe(env_value):
    env = {k: v for k, v in os.environ.items() if k != memory.HUGEPAGE_ENV}
    if env_value is not None:
        env[memory.HUGEPAGE_ENV] = env_value
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_small_pages_turns_numpys_huge_pages_off_here_and_in_the_processes_it_starts():
    r = _probe(None)
    assert r["huge_after"] is False
    assert r["child_env"] == "0"


def test_a_users_numpy_madvise_hugepage_is_respected():
    r = _probe("1")
    assert r == {"changed": False, "huge_after": True, "child_env": "1"}


def test_every_uro_command_starts_with_it(monkeypatch, capsys):
    import importlib

    cli = importlib.import_module("controller.cli.main")
    calls = []
    monkeypatch.setattr(cli.memory, "small_pages", lambda: calls.append(1) or False)
    assert cli.main(["schedule", "check", "/nonexistent/schedule.json"]) == 2
    assert calls == [1]


def test_copy_slabs_are_independent_c_ordered_copies_whatever_the_threads():
    import numpy as np

    rng = np.random.default_rng(1)
    for threads, slab_bytes in ((1, None), (2, None), (3, None), (2, 1), (3, 64), (2, 1 << 20)):
        a = rng.integers(-999, 999, (7, 3, 5), dtype=np.int16)     # new numbers each time
        srcs = (a, a.transpose(2, 0, 1), a[:, ::2], a[:1], np.zeros((0, 4), np.int32), np.array(5))
        outs = memory.copy_slabs(srcs, threads, slab_bytes=slab_bytes)
        for out, src in zip(outs, srcs, strict=True):
            assert out.dtype == src.dtype and out.shape == src.shape and out.flags["C_CONTIGUOUS"]
            assert not np.shares_memory(out, src)
            np.testing.assert_array_equal(out, src)
    (out,) = memory.copy_slabs([a], 3)
    was = int(a[6, 2, 4])
    out[6, 2, 4] = was + 1
    assert a[6, 2, 4] == was
    assert memory.array_bytes(out) == a.nbytes


def test_a_copy_no_longer_wanted_stops_within_a_slab():
    import numpy as np

    a, b = np.arange(6 * 4).reshape(6, 4), np.arange(3, dtype=np.int8)
    calls = []

    def wanted():
        calls.append(1)
        return len(calls) <= 2
    assert memory.copy_slabs((a, b), 1, wanted, slab_bytes=1) is None
    assert len(calls) == 2 + 1 + 1          # two slabs (rows) copied, the third refused, then the answer
    calls.clear()
    assert memory.copy_slabs((a, b), 1, wanted) is None
    assert len(calls) == 2 + 1 + 1          # one slab per array with one thread: both copied, then no more


def test_a_slab_copy_is_finished_from_where_it_stopped_each_slab_copied_once():
    """A copy run part of the way on one thread (the copy made ahead) and finished on
    others (the repair that needs it): each slab copied exactly once, the result the
    arrays' copy; a slab being copied by another thread is waited for."""
    import threading

    import numpy as np

    rng = np.random.default_rng(3)
    srcs = (rng.integers(0, 99, (40, 6), dtype=np.int32), rng.integers(0, 9, (10, 3, 2), dtype=np.int8))
    seen: list = []
    real = np.copyto
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(np, "copyto", lambda dst, src: seen.append((src.base is not None, src.ctypes.data)) or real(dst, src))
        c = memory.SlabCopy(srcs, slab_bytes=48)       # slabs of two rows of the first, five of the second
        assert c.slabs == 20 + 2 and not c.complete
        assert c.run(lambda: len(seen) < 7) == 7 and c.untaken() == 15
        out = c.finish(threads=3)
    assert out is c.arrays and c.complete and c.untaken() == 0
    assert len(seen) == 22 and len(set(seen)) == 22               # every slab once
    for o, s in zip(out, srcs):
        np.testing.assert_array_equal(o, s)
        assert not np.shares_memory(o, s)

    # a slab another thread holds when the copy is finished: finish waits for it
    c = memory.SlabCopy(srcs, slab_bytes=48)
    inside, go = threading.Event(), threading.Event()

    def slow_first(dst, src):
        if threading.current_thread().name == "ahead":
            inside.set()
            go.wait(10)
        real(dst, src)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(np, "copyto", slow_first)
        t = threading.Thread(target=c.run, args=(lambda: c.untaken() == c.slabs,), name="ahead")
        t.start()
        assert inside.wait(10)
        done: list = []
        f = threading.Thread(target=lambda: done.append(c.finish(threads=2)))
        f.start()
        f.join(0.5)
        assert f.is_alive() and not done, "finished while a slab was still being copied"
        go.set()
        t.join(10)
        f.join(10)
    assert done and done[0] is c.arrays and c.complete
    for o, s in zip(c.arrays, srcs):
        np.testing.assert_array_equal(o, s)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_repair_writes_only_its_copy_of_the_routes(workers):
    """The repaired routes start as a copy of the old ones: the old route set (still the
    network's until the flip, and the route cache's) is left as it was."""
    import numpy as np

    from controller.routing import uro, uro_incremental
    from controller.schedule import opera
    from controller.schedule.degrade import Failed, without

    sched = opera(72, 4, seed=4)       # 72 ToRs: three destination chunks, so two threads repair
    before = uro.compute(sched, uro.UroParams(k=3), engine="numba")
    kept = {f: getattr(before, f).copy() for f in ("arrival", "hops", "alt_uplink", "alt_dep")}
    rep = uro_incremental.repair(before, without(sched, Failed(uplinks=frozenset({(1, 0), (7, 2)}))), workers=workers)
    assert len(rep.cells)
    for f, was in kept.items():
        np.testing.assert_array_equal(getattr(before, f), was)
        assert not np.shares_memory(getattr(rep.routes, f), getattr(before, f))
