# Sourced by run.sh and run-tests.sh: make ./.venv (once) and install MCP Desk into it.
# `ensure_venv app` installs the app; `ensure_venv test` installs it with the test extra.
# Packages are reinstalled only when pyproject.toml changed (an editable install picks up code
# changes by itself): the stamp file holds the hash of pyproject.toml and what was installed.

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
    echo "MCP Desk needs Python 3.11 or newer; install it (or set PYTHON=/path/to/python3.11)" >&2
    return 1
}

ensure_venv() {
    local kind="$1" python hash stamp=.venv/.mcp-desk-installed have t
    if [[ ! -x .venv/bin/python ]]; then
        python="$(find_python)"
        echo "== creating the virtual environment .venv with $("$python" --version)" >&2
        if ! "$python" -m venv .venv; then
            echo "could not create a venv (on Debian/Ubuntu: apt install python3-venv)" >&2
            rm -rf .venv
            return 1
        fi
    fi
    hash="$( (sha256sum pyproject.toml 2>/dev/null || shasum -a 256 pyproject.toml) | cut -d' ' -f1)"
    have="$(cat "$stamp" 2>/dev/null || true)"
    # The test install includes the app, so it satisfies `app` too.
    if [[ "$have" == "$hash test" || ("$kind" == app && "$have" == "$hash app") ]]; then
        build_translations
        return 0
    fi
    t=$(date +%s)
    if [[ "$kind" == test ]]; then
        echo "== installing MCP Desk with the test extra into .venv" >&2
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
    else
        echo "== installing MCP Desk and its dependencies into .venv (the first time takes a minute or two)" >&2
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
    fi
    echo "$hash $kind" >"$stamp"
    echo "== installed in $(($(date +%s) - t)) s" >&2
    build_translations
}

# The window's translations (.ts sources in resources/i18n) -> .qm files next to them, every time:
# they are build output, not in git, and building them takes well under a second.
build_translations() {
    [[ -d resources/i18n ]] || return 0
    .venv/bin/python packaging/translations.py release >/dev/null
}

# Before a window starts on Linux: are the libraries Qt's xcb plugin needs installed? Qt aborts
# with a misleading message when one is missing; app/qtcheck.py asks `ldd` and prints which ones
# are missing and the apt/dnf line that installs them. Once everything was found, the check is
# not made again until the venv is reinstalled (it costs a Python start and an `ldd`).
check_qt_libraries() {
    local stamp=.venv/.qt-libraries-ok installed code=0
    [[ "$(uname -s)" == Linux ]] || return 0
    installed="$(cat .venv/.mcp-desk-installed 2>/dev/null || true)"
    if [[ -n "$installed" && "$(cat "$stamp" 2>/dev/null || true)" == "$installed" ]]; then
        return 0
    fi
    .venv/bin/python -m app.qtcheck "$@" || code=$?
    case "$code" in
    0) echo "$installed" >"$stamp" ;;
    1) return 1 ;; # missing, and the window would not open: the message says what to install
    *) ;;          # 4: missing, but Wayland may open the window; 5: nothing checked
    esac
    return 0
}
