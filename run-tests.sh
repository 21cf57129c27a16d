#!/usr/bin/env bash
# Install MCP Desk with its test tools into ./.venv, then run ruff, mypy and pytest.
# Safe to run again: the venv is created once and reinstalled only when pyproject.toml changed.
# Arguments go to pytest (for example: ./run-tests.sh tests/demo -x -q).
# Every step runs even if an earlier one fails; the exit code is non-zero if any failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# shellcheck source=packaging/venv.sh
source packaging/venv.sh

elapsed() { echo $(($(date +%s) - $1)); }

start_all=$(date +%s)
ensure_venv test

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
# The tests run in parallel, one worker per core (MCP_DESK_TEST_WORKERS=N to choose, 0 for none),
# a file's tests in one worker (its module fixtures, such as a started server, are made once).
workers=()
if [[ " $* " != *" -n "* && " $* " != *" -p no:xdist "* ]]; then
    workers=(-n "${MCP_DESK_TEST_WORKERS:-auto}" --dist loadfile)
fi
step "pytest" .venv/bin/python -m pytest --durations=10 "${workers[@]}" "$@"

echo "== total $(elapsed "$start_all") s"
if ((${#failed[@]})); then
    echo "== FAILED: ${failed[*]}"
    exit 1
fi
echo "== all passed"
