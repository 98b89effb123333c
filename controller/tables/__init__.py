"""Routes -> tables: everything between a route set and a switch.

- :mod:`.perhop`: URO per-hop entries (arrival slice, dst) -> K alternatives, counts;
- :mod:`.source`: source-route entries (dst, start slice, bucket range) -> paths;
- :mod:`.entries`: contract-named, width-checked table entries, members and groups;
- :mod:`.tor_batch`: everything one ToR needs, and the address plan;
- :mod:`.artifacts`: the route-set artifact store (compact columnar files, JSON): write,
  open, one ToR's table, the whole route set;
- :mod:`.stream`: UCMP computed and written to a compact artifact chunk by chunk.

Both the code generator's tests and the switch agents import from here; nothing here
imports a target or an agent.
"""
