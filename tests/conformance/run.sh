#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against adapter.py (MCP Desk's engine),
# one scenario at a time (the machine has two cores), with the private Node 22 from tests/node.
#
#   tests/conformance/run.sh                  # every client scenario the suite lists
#   tests/conformance/run.sh initialize sse-retry
#   tests/conformance/run.sh --client sdk     # the same against sdk_client.py (a plain SDK client:
#                                             # the baseline figure), without baseline.txt
#
# Scenarios in baseline.txt are expected to fail (the suite checks that they still do: a fixed one
# must leave the baseline). For each scenario the suite's summary lines are printed; the exit code
# is 0 only when every scenario passed or failed as the baseline expects.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
node22="$(bash "$repo/tests/setup_node.sh" | tail -n 1)" || { echo "run.sh: cannot install the npm tools" >&2; exit 1; }
suite="$repo/tests/node/node_modules/@modelcontextprotocol/conformance/dist/index.js"
python="${PYTHON:-$repo/.venv/bin/python}"
[[ -x "$python" ]] || python="$(command -v python3)"

client="$here/adapter.py"
use_baseline=1
if [[ "${1:-}" == "--client" ]]; then
    [[ "${2:-}" == "sdk" ]] || { echo "run.sh: --client takes: sdk" >&2; exit 2; }
    client="$here/sdk_client.py"
    use_baseline=0
    shift 2
fi

if [[ $# -gt 0 ]]; then
    scenarios=("$@")
else
    mapfile -t scenarios < <("$node22" "$suite" list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# baseline.txt: one scenario per line, then "#" and the reason; the suite wants YAML.
expected_list="$(sed -n 's/^\([^#[:space:]][^[:space:]]*\).*/  - \1/p' "$here/baseline.txt")"
baseline_args=()
if [[ -n "$expected_list" && $use_baseline -eq 1 ]]; then
    printf 'client:\n%s\n' "$expected_list" >"$work/baseline.yml"
    baseline_args=(--expected-failures "$work/baseline.yml")
fi

passed=0 expected=0 failed=0
for scenario in "${scenarios[@]}"; do
    log="$work/${scenario//\//_}.log"
    "$node22" "$suite" client \
        --command "$python $client" \
        --scenario "$scenario" \
        --timeout 30000 \
        --output-dir "$work/results" \
        "${baseline_args[@]}" >"$log" 2>&1
    rc=$?
    plain="$(sed 's/\x1b\[[0-9;]*m//g' "$log")"
    echo "== $scenario"
    grep -E '^(Passed: |Total: |✅|❌|⚠️|Baseline check|Stale|Unexpected)' <<<"$plain" | sed 's/^/   /'
    if [[ $rc -ne 0 && $use_baseline -eq 0 ]]; then
        failed=$((failed + 1))
        echo "   -> failed (exit $rc)"
    elif [[ $rc -ne 0 ]]; then
        failed=$((failed + 1))
        echo "   -> NOT AS EXPECTED (exit $rc); log:"
        tail -n 25 <<<"$plain" | sed 's/^/      /'
    elif grep -qx "  ~ $scenario" <<<"$plain"; then
        expected=$((expected + 1))
    else
        passed=$((passed + 1))
    fi
done
echo "conformance: $passed scenarios passed, $expected failed as the baseline expects, $failed not as expected"
[[ $failed -eq 0 ]]
