"""A simulated fabric for scale runs: one P4Runtime server process standing in for many
switches (one ``device_id`` per ToR), with bmv2's write, read, arbitration and pipeline
semantics (:mod:`controller.simfabric.device`, :mod:`controller.simfabric.server`),
started and stopped by uro's process wrapper (:mod:`controller.simfabric.process`).
A tool for benchmarks and tests of the controller at (108, 6) and (1024, 32): docs/fabric.md.
"""
