"""An SDK stdio server that needs an API key in its environment, as many real ones do.

    python -m tests.servers.env_key_server

It exits at once (code 1, a line on stderr) unless the SHA-256 of `BRAVE_API_KEY` equals
`WANT_SHA256`: reaching "ready" proves the exact value reached the child's environment,
without the value itself ever being written anywhere by the test.
"""

from __future__ import annotations

import hashlib
import os
import sys

from mcp.server.mcpserver import MCPServer


def main() -> int:
    value = os.environ.get("BRAVE_API_KEY")
    expected = os.environ.get("WANT_SHA256", "")
    if value is None:
        print("BRAVE_API_KEY is not set", file=sys.stderr)
        return 1
    if hashlib.sha256(value.encode()).hexdigest() != expected:
        print("BRAVE_API_KEY is not the expected key", file=sys.stderr)
        return 1
    server: MCPServer = MCPServer("env-key", log_level="WARNING")

    def key_length() -> int:
        """How long the key in this server's environment is."""
        return len(value)

    server.add_tool(key_length)
    server.run("stdio")
    return 0


if __name__ == "__main__":
    sys.exit(main())
