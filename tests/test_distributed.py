"""Chunked work on a Dask cluster (``--cluster`` / ``--workers``) against the in-process engine.

On a LocalCluster of two worker PROCESSES (loopback only): URO and UCMP destination
chunks, the artifact the client writes from them, KSP/Opera sampled slices and failure
trials all come back identical to the in-process results; a worker killed in the middle
of a chunk loses nothing (the chunk runs again elsewhere); a scheduler that cannot be
reached is one clear error before any work, and nothing is written.
"""

import os
import socket
import sys
import time
from pathlib import Path

import numpy as np
import pytest

distributed_pkg = pytest.importorskip("distributed", reason="dask.distributed not installed (pip install 'uro[dask]')")

from controller.analysis import failures  # noqa: E402
from controller.cli import main  # noqa: E402
from controller.routing import distributed, ksp, opera as opera_routes, ucmp, uro, uro_chunks  # noqa: E402
from controller.schedule import opera  # noqa: E402
from controller.schedule.degrade import Failed, without  # noqa: E402
from controller.tables import artifacts, stream  # noqa: E402


@pytest.fixture(scope="module")
def ex():
    with distributed.local(2) as executor:
        assert executor.n_workers() == 2
        yield executor


def same_files(a: Path, b: Path) -> None:
    names = sorted(p.name for p in a.iterdir() if p.suffix == ".npy")
    assert names and names == sorted(p.name for p in b.iterdir() if p.suffix == ".npy")
    for n in names:
        assert (a / n).read_bytes() == (b / n).read_bytes(), n


def test_uro_chunks_on_worker_processes_are_the_reference(ex, tmp_path):
    sched = without(opera(30, 3, seed=2), Failed(uplinks=frozenset({(1, 0)})))
    params = uro.UroParams(k=4, max_hops=4)
    ref = uro.compute_numpy(sched, params)
    got = uro.compute(sched, params, executor=ex)  # small: numba chunks anyway, on the cluster
    for f in ("arrival", "hops", "alt_uplink", "alt_dep"):
        assert np.array_equal(getattr(ref, f), getattr(got, f)), f
    artifacts.write(ref, tmp_path / "ref.uro")
    (tmp_path / "dask.uro").mkdir()
    artifacts.write_uro_streamed(sched, params, tmp_path / "dask.uro", executor=ex, chunk=4)
    same_files(tmp_path / "ref.uro", tmp_path / "dask.uro")


def test_ucmp_chunks_stream_the_same_artifact(ex, tmp_path):
    sched = opera(24, 3, seed=1)
    params = ucmp.UcmpParams(relax_slices=1)
    for name, executor in (("local", None), ("dask", ex)):
        (tmp_path / name).mkdir()
        stream.write_ucmp(sched, params, tmp_path / name, chunk=5, executor=executor)
    same_files(tmp_path / "local", tmp_path / "dask")


def test_sampled_baselines_and_failure_trials_are_the_same(ex):
    sched = opera(20, 3, seed=4)
    for mod, params in ((ksp, ksp.KspParams(paths=2, sample=150, seed=3)),
                        (opera_routes, opera_routes.OperaParams(paths=2, sample=150, seed=3))):
        a, b = mod.compute(sched, params), mod.compute(sched, params, executor=ex)
        assert a.params_dict() == b.params_dict()
        for f in ("g_first", "g_count", "m_first", "m_count", "hop_node", "hop_uplink", "hop_slice"):
            assert np.array_equal(getattr(a, f), getattr(b, f)), (mod.__name__, f)
    routes = (uro.compute(sched, uro.UroParams(k=3)), ucmp.compute(sched, ucmp.UcmpParams()))
    cases = [("links", 0.1, s) for s in range(3)] + [("tors", 0.1, 7)]
    local = [failures.trial_losses(routes, c, (1, 3)) for c in cases]
    assert local[0] != local[1]  # different seeds, different failures: the trials are not all alike
    assert list(ex.map_ordered(_trial, cases, ex.share(routes), (1, 3))) == local


def _trial(case, routes, ks):
    return failures.trial_losses(routes, case, ks)


def _dies_once(spec, d0, C, marker):
    """A chunk whose first run kills its worker process (as a machine that goes away would)."""
    if d0 == 8 and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return uro_chunks.routes_chunk(spec, d0, C)


def test_a_lost_workers_chunk_runs_again(ex, tmp_path):
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers do not import the tests
    sched = opera(24, 3, seed=5)
    params = uro.UroParams(k=2)
    spec = uro_chunks.spec_for(sched, params)
    marker = str(tmp_path / "killed")
    got = list(uro_chunks.run_chunks(_dies_once, spec, sched.n_tors, 4, (marker,), executor=ex))
    assert os.path.exists(marker), "the worker was not killed: the test tested nothing"
    ref = uro.compute_numpy(sched, params)
    assert [g[0] for g in got] == list(range(0, 24, 4))
    for d0, arrival, hops, au, ad in got:
        assert np.array_equal(arrival, ref.arrival[:, :, d0:d0 + 4])
        assert np.array_equal(ad, ref.alt_dep[:, :, d0:d0 + 4])


def test_a_shared_object_outlives_every_worker_that_held_it(ex):
    """What a chunk driver shares (the schedule's arrays) is still there after the workers
    that held it went away: tasks submitted afterwards get it (a scattered object would be
    gone with its last copy, and every chunk referring to it cancelled)."""
    ref = ex.share(np.arange(1000))
    assert ex.submit(np.sum, ref).result(timeout=60) == 499500
    ex.client.restart_workers(list(ex.client.scheduler_info()["workers"]), timeout=120)
    deadline = time.monotonic() + 120
    while ex.n_workers() < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ex.n_workers() == 2, "the restarted workers did not come back"
    assert ex.submit(np.sum, ref).result(timeout=60) == 499500


def test_unreachable_cluster_is_one_error_before_any_work(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT_S", 1)
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "r.uro"
    for algo in ("uro", "ucmp"):
        assert main(["routes", "--generate", "opera", "--tors", "16", "--uplinks", "2", "--algo", algo,
                     "-o", str(out), "--cluster", f"tcp://127.0.0.1:{port}"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"uro: error: --cluster tcp://127.0.0.1:{port}: cannot reach"), err
        assert not out.exists() and list(tmp_path.iterdir()) == []
    assert main(["failures", "--generate", "opera", "--tors", "16", "--uplinks", "2", "--link-rate", "0.1",
                 "--workers", "2", "--cluster", f"tcp://127.0.0.1:{port}"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["routes", "--generate", "opera", "--tors", "16", "--uplinks", "2", "-o", str(out),
                 "--uro-engine", "numpy", "--workers", "2"]) == 2
    assert "--uro-engine numpy runs in this process" in capsys.readouterr().err
    assert not out.exists()
