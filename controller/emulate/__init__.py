"""The one-machine emulated optical DCN (`uro emulate`): namespaces, switches, links,
driven by the daemon."""
