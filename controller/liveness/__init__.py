"""Liveness per circuit (docs/liveness.md): each ToR's data plane marks a (slice, uplink)
down when the peer the schedule names stays silent on it, from the slice clock's sync
exchange (the beacon). This package holds the controller's side of it: the parameters
(:mod:`.params`) and what the switches' marks say failed (:mod:`.marks`)."""
