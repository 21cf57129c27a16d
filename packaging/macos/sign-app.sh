#!/usr/bin/env bash
# Sign "MCP Desk.app" for the hardened runtime (needed for notarization), inside out: every Mach-O
# file in it (Qt's libraries and frameworks, Python's extension modules, the private Node.js and
# uv), then the second program (the console `mcp-desk`), then the .app itself.
#
#   packaging/macos/sign-app.sh "DIST/MCP Desk.app" "Developer ID Application: NAME (TEAMID)"
#
# The identity's certificate must be in a keychain on the search list (release.yml imports it into
# a throw-away one). `codesign --deep` is not used for signing: Apple advises against it, and it
# would give Node.js the app's entitlements instead of its own.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
app="${1:?usage: sign-app.sh APP IDENTITY}"
identity="${2:?usage: sign-app.sh APP IDENTITY}"
sign() { codesign --force --timestamp --options runtime --sign "$identity" "$@"; }

count=0
while IFS= read -r -d '' file; do
    if file -b "$file" | grep -q 'Mach-O'; then
        case "$(basename "$file")" in
        # V8 compiles JavaScript at run time: Node.js needs its own entitlements (JIT).
        node) sign --entitlements "$here/node-entitlements.plist" "$file" ;;
        "MCP Desk") continue ;; # the .app's own program: signed with the bundle below
        *) sign "$file" ;;
        esac
        count=$((count + 1))
    fi
done < <(find "$app/Contents" -type f -print0)
# Qt's frameworks (QtCore.framework, …) as bundles, after the files inside them.
while IFS= read -r -d '' framework; do
    sign "$framework"
done < <(find "$app/Contents" -type d -name '*.framework' -print0)
sign --entitlements "$here/entitlements.plist" "$app/Contents/MacOS/mcp-desk"
sign --entitlements "$here/entitlements.plist" "$app"
codesign --verify --strict --verbose=2 "$app"
echo "signed $count Mach-O files and $app"
