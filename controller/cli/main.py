"""The `uro` command line: one parser, one module per command group.

User errors (:class:`UroError`) print one line on stderr and exit 2; nothing is
written unless the whole command succeeds (artifacts are written atomically, last).
Command modules import :mod:`controller.cli.common`, never this module.
"""

from __future__ import annotations

import argparse
import sys

from controller import memory
from controller.cli import agent, analysis, bench, daemon, emulate, host, p4, plot, routes, schedule, tofino_model
from controller.errors import UroError

#: command groups, in the order `uro --help` lists them
GROUPS = (routes, schedule, analysis, plot, p4, agent, daemon, bench, emulate, host, tofino_model)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``uro <cmd>: error: ...``, exit 2), like every other
    user error, instead of a usage block."""

    def error(self, message: str):
        raise UroError(f"{self.prog.removeprefix('uro').strip() or 'uro'}: {message}" if self.prog != "uro"
                       else message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="uro", description="Route compiler, P4 generator and control-plane agent for time-sliced optical DCNs")
    sub = p.add_subparsers(dest="command", required=True)
    for group in GROUPS:
        group.register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    memory.small_pages()        # NumPy's large arrays without huge-page compaction stalls
    try:
        args = build_parser().parse_args(argv)
    except UroError as e:
        print(f"uro: error: {e}", file=sys.stderr)
        return 2
    default_generate = getattr(args, "default_generate", None)
    if default_generate and not getattr(args, "schedule", None) and not getattr(args, "generate", None):
        args.generate = default_generate  # `uro run` with nothing: the built-in example network
    try:
        return args.func(args)
    except UroError as e:
        print(f"uro: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("uro: interrupted", file=sys.stderr)
        return 130
    except RecursionError:
        print("uro: error: input nested too deeply", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
