"""The `uro` command line (entry point :func:`main`)."""

from controller.cli.main import main

__all__ = ["main"]
