"""Tofino2 (t2na) target support: the chip facts, the time machinery and the resources.

What a Tofino2 ToR needs besides its route tables, computed from a profile (and, where it
depends on cabling, from the deployment's port map in :mod:`.settings`):

- :mod:`.chip`      facts about the chip the other modules rely on (ports, queues, AFC);
- :mod:`.pktgen`    the slice clock: the periodic timer application of the packet
  generator (period, batches, gaps) and the FRANCIS-style port-down application;
- :mod:`.afc`       advanced-flow-control words that pause and resume TM queues;
- :mod:`.tm`        the TM queue plan: Q calendar queues per uplink port, their physical
  queues, and the pause/resume sequence across a cycle;
- :mod:`.bfrt_json` the compiler's ``bfrt.json``: names, ids and widths of every table,
  and contract-named entries encoded as BfRt keys and data;
- :mod:`.plan`      everything the BfRt backend writes besides the route tables;
- :mod:`.report`    the compiler's resource usage, next to URO Table II / UCMP Table 2.

Nothing here talks to a switch; :mod:`controller.agent.bfrt` does.
"""
