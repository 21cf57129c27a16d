"""The screenshot set of the window (offscreen Qt, the real demo server, a temporary config):
first run, a tool form, results (markdown, table, image), a failed server with Diagnose, the Add
dialog simple and advanced, developer mode — at 1280×800 and 1024×700, light and dark, in English
and in Simplified Chinese.

    .venv/bin/python docs/screenshots/make_screenshots.py [OUT_DIR] [--scheme light|dark]
        [--lang en|zh_CN] [--readme]

OUT_DIR (default /tmp/mcp-desk-screenshots) gets one folder per language and scheme
(`en-light/first-run-1280x800.png`, …; dialogs once, at their own size). Each language and scheme
runs in a process of its own, as the app starts in one. `--readme` also copies the English light
1280×800 pictures to the names the README shows (docs/screenshots/first-run.png, …).
The set-up shared with the other scripts here is shots.py.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import shots  # noqa: E402  (the shared set-up; after the path above)

LANGS = ("en", "zh_CN")
# README name -> (picture of the en-light set)
README = {
    "first-run.png": "first-run-1280x800.png",
    "tool-form.png": "tool-form-1280x800.png",
    "image-result.png": "result-image-1280x800.png",
    "main.png": "result-image-1280x800.png",
    "failed-server.png": "failed-server-1280x800.png",
    "add-dialog.png": "add-simple.png",
}

CONTACT: dict[str, object] = {
    "contact": {
        "name": "Ana Lima",
        "email": "ana@example.com",
        "address": {"street": "Rue de Rivoli 10", "city": "Paris", "postal_code": "75001", "country": "FR"},
    }
}
MARKDOWN = (
    "# Shopping list\n\nFor **Saturday's picnic**:\n\n- bread and cheese\n- pears\n- a *big* blanket\n\n"
    "> Bring the [map](https://example.com/map) too.\n"
)
SNIPPET = {
    "github": {
        "command": "npx",
        "args": ["-y", "@modelcontextprotocol/server-github"],
        "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_example1234567890"},
    }
}


def one(out: Path, scheme: str, lang: str) -> list[Path]:
    """The whole set for one scheme and language (in this process)."""
    shots.prepare("shots")
    app, _loop = shots.start_app(scheme, lang)
    pump = shots.pump

    from app.config.model import ServerEntry
    from app.ui.controller import DeskController
    from app.ui.developer_mode import developer_mode
    from app.ui.window import MainWindow
    from tests.support.trust import allow_when_asked

    folder = out / f"{lang}-{scheme}"
    saved: list[Path] = []
    developer_mode().set_enabled(False)
    c = DeskController()
    c.load_config()  # first run: seeds the demo server
    w = MainWindow(c)
    w.resize(*shots.SIZES[0])
    w.show()
    pump(lambda: w._painted)
    # As `mcp-desk` does after the first paint: the demo server starts connecting by itself.
    w.start_engine(connect_enabled=True)

    def shoot(name: str) -> None:
        for width, height in shots.SIZES:
            w.resize(width, height)
            pump(lambda: True, settle=0.2)
            saved.append(shots.save(w, folder / f"{name}-{width}x{height}.png"))
        w.resize(*shots.SIZES[0])

    def shoot_dialog(dialog: Any, name: str) -> None:
        pump(lambda: True, settle=0.2)
        saved.append(shots.save(dialog, folder / f"{name}.png"))

    w.servers.select("demo")
    pump(lambda: w.server_model.server("demo").state == "ready")
    shoot("first-run")  # the guide, and the demo server connected by itself

    def show_tool(name: str, value: dict[str, object]) -> None:
        w.catalog.select("tools", "demo", name)
        pump(lambda: getattr(w.tool_panel.tool, "name", "") == name)
        w.tool_panel.form.set_value(value)

    done: list[bool] = []
    w.call_finished.connect(lambda *_: done.append(True))

    def run_tool(name: str, value: dict[str, object]) -> None:
        show_tool(name, value)
        done.clear()
        w.tool_panel.run_button.click()
        pump(lambda: bool(done))

    show_tool("create_contact", CONTACT)
    pump(lambda: True)
    shoot("tool-form")
    run_tool("echo", {"message": MARKDOWN})
    shoot("result-markdown")
    run_tool("weather", {"city": "Lisbon", "unit": "celsius"})
    shoot("result-table")
    run_tool("draw_badge", {"color": "purple", "size": 160})
    shoot("result-image")

    developer_mode().set_enabled(True)
    run_tool("weather", {"city": "Lisbon", "unit": "celsius"})
    shoot("developer-mode")
    developer_mode().set_enabled(False)

    allow_when_asked(w)  # the new server passes the trust prompt as a person's Allow would
    c.store.add(ServerEntry(name="weather-api", command="uvx-not-installed", args=["mcp-weather"]))
    c.save()  # an added server connects by itself
    pump(lambda: "weather-api" in w.server_model.names())
    w.servers.select("weather-api")
    pump(lambda: w.server_model.server("weather-api").state == "failed")
    shoot("failed-server")
    w.diagnose_button.click()
    pump(lambda: getattr(w, "diagnose_dialog", None) is not None)
    diagnose = w.diagnose_dialog
    pump(lambda: diagnose.outcome is not None, timeout=60)
    shoot_dialog(diagnose, "diagnose")
    diagnose.reject()
    pump(lambda: getattr(w, "diagnose_dialog", None) is None)

    w.add_server()
    pump(lambda: getattr(w, "server_dialog", None) is not None and w.server_dialog.isVisible())
    d = w.server_dialog
    d.apply_snippet(json.dumps(SNIPPET))
    shoot_dialog(d, "add-simple")
    if open_advanced(d):
        shoot_dialog(d, "add-advanced")
    else:
        print("add-advanced: no 'Advanced' section in this Add dialog; developer mode shown instead")
        d.reject()
        developer_mode().set_enabled(True)
        w.add_server()
        pump(lambda: getattr(w, "server_dialog", None) is not None and w.server_dialog.isVisible())
        d = w.server_dialog
        d.apply_snippet(json.dumps(SNIPPET))
        shoot_dialog(d, "add-advanced")
        developer_mode().set_enabled(False)
    d.reject()

    import asyncio

    task = asyncio.ensure_future(c.shutdown())
    pump(task.done)
    del app
    return saved


def open_advanced(dialog: Any) -> bool:
    """Open the Add dialog's "Advanced" section (a checkable button or group), if it has one."""
    from PySide6.QtWidgets import QAbstractButton, QGroupBox

    words = ("advanced", "高级")
    for button in dialog.findChildren(QAbstractButton):
        if any(word in button.text().lower() for word in words) and button.isVisible():
            if not (button.isCheckable() and button.isChecked()):
                button.click()  # a closed section opens; an open one is left open
            return True
    for group in dialog.findChildren(QGroupBox):
        if any(word in group.title().lower() for word in words) and group.isCheckable():
            group.setChecked(True)
            return True
    return False


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", nargs="?", default="/tmp/mcp-desk-screenshots", type=Path)
    parser.add_argument("--scheme", choices=shots.SCHEMES, action="append")
    parser.add_argument("--lang", choices=LANGS, action="append")
    parser.add_argument(
        "--readme", action="store_true", help="copy the en-light 1280×800 set to the README's names"
    )
    parser.add_argument("--one", nargs=2, metavar=("SCHEME", "LANG"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    if args.one:
        saved = one(out, *args.one)
        print("\n".join(str(p) for p in saved), flush=True)
        return 0
    failed = 0
    for lang in args.lang or LANGS:
        for scheme in args.scheme or shots.SCHEMES:
            print(f"== {lang} {scheme}", flush=True)
            done = subprocess.run(
                [sys.executable, __file__, str(out), "--one", scheme, lang], timeout=600, check=False
            )
            failed += done.returncode != 0
    if args.readme:
        for name, picture in README.items():
            source = out / "en-light" / picture
            if source.exists():
                shutil.copyfile(source, HERE / name)
    return 1 if failed else 0


if __name__ == "__main__":
    status = main(sys.argv[1:])
    sys.stdout.flush()
    os._exit(status)  # skip interpreter teardown of Qt objects (the pictures are written)
