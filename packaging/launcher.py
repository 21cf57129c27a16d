"""Entry script of the frozen (PyInstaller) MCP Desk.

A servers.json written by a source install starts the demo server as
`<python> -m app demo-server`. In a frozen app `sys.executable` is MCP Desk itself, which has no
`-m`: drop that prefix so the same entry keeps working, then run the normal entry point.
"""

import sys

from app.__main__ import main

if getattr(sys, "frozen", False) and sys.argv[1:3] == ["-m", "app"]:
    del sys.argv[1:3]

sys.exit(main())
