"""Server packages (`.mcpb`, formerly `.dxt`): a zip with a `manifest.json` describing one server.

- `manifest` — the manifest as plain data (spec versions 0.1–0.4, `dxt_version` too), checked
  field by field with plain sentences for what is wrong.
- `archive` — opening a package file: the signature block the mcpb CLI appends is cut off first,
  the manifest and icon are read with size limits, and `extract` unpacks safely (no path escapes,
  no links, limits on size, count and compression ratio) into a temporary folder then renamed.
- `signature` — "signed by <subject>, not verified" or "unsigned": what can be said honestly.
- `plan` — a manifest → an `app.install.plan.InstallPlan` (the form, the entry with its holes).
- `installed` — install, update (answers and keys kept) and uninstall, recorded in settings.json.

No Qt here (tests/test_layers.py); the window is `app/ui/bundle_dialog.py`, the CLI `app/cli/bundles.py`.
"""
