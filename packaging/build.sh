#!/usr/bin/env bash
# Build the one-folder MCP Desk app with PyInstaller and smoke-test it.
# Output goes outside the source tree (default /tmp/mcp-desk-dist; set DIST=... to change).
# Needs ./run.sh or ./run-tests.sh to have made .venv first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

dist="${DIST:-/tmp/mcp-desk-dist}"
work="${WORK:-/tmp/mcp-desk-build}"

if ! .venv/bin/python -c 'import PyInstaller' 2>/dev/null; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[package]'
fi
.venv/bin/pyinstaller packaging/mcp-desk.spec --noconfirm --log-level WARN --distpath "$dist" --workpath "$work"

binary="$dist/mcp-desk/mcp-desk"
echo "built $binary ($(du -sh "$dist/mcp-desk" | cut -f1))"
# Smoke test with a throw-away config dir: the CLI answers, and the GUI comes up and connects the demo.
config="$(mktemp -d)"
trap 'rm -rf "$config"' EXIT
"$binary" --config-dir "$config" servers list
QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" "$binary" --config-dir "$config" --smoke-test
