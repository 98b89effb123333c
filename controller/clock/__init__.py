"""The slice clock (docs/clock.md): every ToR keeps the optical schedule's time itself.

- :mod:`controller.clock.message`: the sync message (EtherType 0x88B6, a 52-byte header)
  and network time as ``(slice number k, phase)``;
- :mod:`controller.clock.params`: the clock's parameters and the per-switch values the
  data plane's ``clock_config`` entry holds;
- :mod:`controller.clock.servo`: the reference model of the data plane (the arithmetic
  and the per-switch state machine, bit for bit as the P4 programs do it).

A ground-floor package: it imports nothing from the agent, the daemon or the emulator.
"""
