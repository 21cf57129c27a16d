"""The MCP Registry ("server directory"): its read API v0.1, a cache, and entries → install plans."""
