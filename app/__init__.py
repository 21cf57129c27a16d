"""MCP Desk: install, connect to, try and manage MCP servers."""

__version__ = "0.1.0"
