#!/usr/bin/env bash
# Install MCP Desk with its test tools into ./.venv, then run ruff, mypy and pytest.
# Safe to run again: the venv is created once and reinstalled only when pyproject.toml changed.
# Arguments go to pytest (for example: ./run-tests.sh tests/demo -x -q).
# Every step runs even if an earlier one fails; the exit code is non-zero if any failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

find_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3 python3.13 python3.12 python3.11; do
        [[ -n "$candidate" ]] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    echo "run-tests.sh: MCP Desk needs Python 3.11 or newer; install it (or set PYTHON=/path/to/python3.11)" >&2
    return 1
}

elapsed() { echo $(($(date +%s) - $1)); }

start_all=$(date +%s)
if [[ ! -x .venv/bin/python ]]; then
    python="$(find_python)"
    echo "== creating .venv with $("$python" --version)"
    if ! "$python" -m venv .venv; then
        echo "run-tests.sh: could not create a venv (on Debian/Ubuntu: apt install python3-venv)" >&2
        rm -rf .venv
        exit 1
    fi
fi

stamp=.venv/.mcp-desk-installed
hash="$( (sha256sum pyproject.toml 2>/dev/null || shasum -a 256 pyproject.toml) | cut -d' ' -f1)"
if [[ "$(cat "$stamp" 2>/dev/null)" != "$hash test" ]]; then
    t=$(date +%s)
    echo "== installing MCP Desk with the test extra into .venv"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
    echo "$hash test" >"$stamp"
    echo "== installed in $(elapsed "$t") s"
fi

# npm test servers (server-everything, the conformance suite, Node 22), when the set-up script exists.
if [[ -x tests/setup_node.sh || -f tests/setup_node.sh ]]; then
    t=$(date +%s)
    echo "== tests/setup_node.sh"
    if bash tests/setup_node.sh >/dev/null; then
        echo "== node test tools ready in $(elapsed "$t") s"
    else
        # Not fatal here: the tests that need them skip (or fail under MCP_DESK_REQUIRE_ALL=1).
        echo "== tests/setup_node.sh failed; tests needing the npm servers will skip or fail" >&2
    fi
fi

failed=()
step() {
    local name="$1"
    shift
    local t
    t=$(date +%s)
    echo "== $name"
    if "$@"; then
        echo "== $name: ok ($(elapsed "$t") s)"
    else
        echo "== $name: FAILED ($(elapsed "$t") s)"
        failed+=("$name")
    fi
}

dirs=()
for d in app tests bench; do [[ -d "$d" ]] && dirs+=("$d"); done
step "ruff check ${dirs[*]}" .venv/bin/ruff check "${dirs[@]}"
step "mypy" .venv/bin/mypy
# --durations: CI must stay under 20 minutes, so the slowest tests are named on every run.
step "pytest" .venv/bin/python -m pytest --durations=10 "$@"

echo "== total $(elapsed "$start_all") s"
if ((${#failed[@]})); then
    echo "== FAILED: ${failed[*]}"
    exit 1
fi
echo "== all passed"
