"""Servers that misbehave on purpose, one fault each (see `stdio_fault.FAULTS`, `http_fault`)."""
