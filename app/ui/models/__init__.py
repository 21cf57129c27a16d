"""Qt item models over the core's plain state (servers, catalogs, log, traffic, history)."""
