#!/usr/bin/env bash
# Install MCP Desk into its own virtual environment (./.venv) and start it.
# Safe to run again: the venv is created once, and dependencies are reinstalled only when
# pyproject.toml changed. Arguments go to `mcp-desk` (for example: ./run.sh servers list).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

find_python() {
    # The first Python 3.11+ we can find: $PYTHON if set, then the usual names.
    local candidate
    for candidate in "${PYTHON:-}" python3 python3.13 python3.12 python3.11; do
        [[ -n "$candidate" ]] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    echo "run.sh: MCP Desk needs Python 3.11 or newer; install it (or set PYTHON=/path/to/python3.11)" >&2
    return 1
}

if [[ ! -x .venv/bin/python ]]; then
    python="$(find_python)"
    echo "Creating the virtual environment .venv with $("$python" --version)" >&2
    if ! "$python" -m venv .venv; then
        echo "run.sh: could not create a venv (on Debian/Ubuntu: apt install python3-venv)" >&2
        rm -rf .venv
        exit 1
    fi
fi

# Reinstall only when the dependency list changed (an editable install picks up code changes by itself).
# The stamp holds the hash of pyproject.toml and what was installed ("app", or "test" which includes it).
stamp=.venv/.mcp-desk-installed
hash="$( (sha256sum pyproject.toml 2>/dev/null || shasum -a 256 pyproject.toml) | cut -d' ' -f1)"
if [[ "$(cat "$stamp" 2>/dev/null | cut -d' ' -f1)" != "$hash" ]]; then
    echo "Installing MCP Desk and its dependencies into .venv (the first time takes a minute or two)" >&2
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
    echo "$hash app" >"$stamp"
fi

exec .venv/bin/mcp-desk "$@"
