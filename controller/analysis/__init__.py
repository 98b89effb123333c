"""Route-set analysis: statistics (`uro stats`), scheme comparison (`uro compare`) and
connectivity under failures (`uro failures`)."""
