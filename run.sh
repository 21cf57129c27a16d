#!/usr/bin/env bash
# Install MCP Desk into its own virtual environment (./.venv) and start it.
# Safe to run again: the venv is created once, and dependencies are reinstalled only when
# pyproject.toml changed. Arguments go to `mcp-desk` (for example: ./run.sh servers list).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# shellcheck source=packaging/venv.sh
source packaging/venv.sh
ensure_venv app
check_qt_libraries "$@" || exit 1

exec .venv/bin/mcp-desk "$@"
