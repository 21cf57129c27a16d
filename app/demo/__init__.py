"""The demo MCP server bundled with MCP Desk (`mcp-desk demo-server`, or `python -m app.demo`)."""
