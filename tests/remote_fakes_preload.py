"""Dask worker preload (``distributed.worker.preload``) for tests/remote_fakes.py: the
worker's switches are the test process's fake switches."""

import os
import sys

sys.path.insert(0, os.environ["URO_TEST_DIR"])

import remote_fakes  # noqa: E402

remote_fakes.install()
