#!/usr/bin/env bash
# Wrap "MCP Desk.app" in a compressed disk image with a link to /Applications (drag to install).
#
#   packaging/macos/make-dmg.sh "DIST/MCP Desk.app" OUT.dmg [SIGNING IDENTITY]
#
# With an identity the image itself is signed too (notarization then covers the image and the app).
set -euo pipefail
app="${1:?usage: make-dmg.sh APP OUT.dmg [IDENTITY]}"
dmg="${2:?usage: make-dmg.sh APP OUT.dmg [IDENTITY]}"
identity="${3:-}"
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
# ditto keeps the symlinks PyInstaller makes inside the .app and the code signatures.
ditto "$app" "$staging/MCP Desk.app"
ln -s /Applications "$staging/Applications"
rm -f "$dmg"
hdiutil create -volname "MCP Desk" -srcfolder "$staging" -fs HFS+ -format UDZO -ov "$dmg"
if [[ -n "$identity" ]]; then
    codesign --force --timestamp --sign "$identity" "$dmg"
fi
echo "$dmg: $(du -h "$dmg" | cut -f1)"
