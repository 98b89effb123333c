"""The long-running controller (`uro daemon`): config, slice timer, reconcile, route
generations, failures, status."""
