"""The software switches' veth pairs (controller/agent/veths.py): exactly the recorded
ones are removed, also those a killed session left (needs root: skipped otherwise)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from controller.agent import veths


def _exists(name: str) -> bool:
    return Path(f"/sys/class/net/{name}").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to create veth pairs")
def test_a_killed_sessions_veths_are_reaped_and_a_running_ones_kept(tmp_path):
    """Two sessions recorded their veths in one directory: this one (running) and one whose
    process is gone. Reaping deletes the gone one's pairs and record and leaves this one's;
    deleting by record then removes exactly this one's."""
    gone = subprocess.Popen(["true"])
    gone.wait()                                         # a PID that runs no more
    me, dead = f"v{os.getpid() % 100000}", f"w{os.getpid() % 100000}"
    rec_me = veths.session_record(tmp_path, "ports")
    rec_dead = veths.session_record(tmp_path, "ports", pid=gone.pid)
    assert rec_me.name == f"{os.getpid()}.ports.json"
    try:
        mine = veths.add_veths([0, 1], me, rec_me)
        theirs = veths.add_veths([0], dead, rec_dead)
        assert mine == {0: (f"{me}_0s", f"{me}_0h"), 1: (f"{me}_1s", f"{me}_1h")}
        assert all(_exists(x) for pair in [*mine.values(), *theirs.values()] for x in pair)
        done = veths.reap_orphans(tmp_path)
        assert done == [f"deleted veth {dead}_0s (process {gone.pid} is gone)"], done
        assert not _exists(f"{dead}_0s") and not _exists(f"{dead}_0h") and not rec_dead.exists()
        assert all(_exists(x) for pair in mine.values() for x in pair) and rec_me.exists()
        assert veths.reap_orphans(tmp_path) == []
        assert veths.delete_veths(rec_me) == [f"deleted veth {me}_0s", f"deleted veth {me}_1s"]
        assert not any(_exists(x) for pair in mine.values() for x in pair) and not rec_me.exists()
    finally:
        for rec in (rec_me, rec_dead):
            veths.delete_veths(rec)
