"""The connection engine: one `ServerConnection` per MCP server, a `ConnectionManager` over them.

No Qt here. Importing this package is cheap on purpose: the SDK (about 0.5 s to import) is only
pulled in by `app.mcp.connection` and `app.mcp.manager`, so the CLI and the GUI can show something
first and import the engine when they need it.
"""
