"""Re-create the screenshots in this folder (offscreen Qt, real demo server, temporary config).

.venv/bin/python docs/screenshots/make_screenshots.py
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parent
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["MCP_DESK_CONFIG_DIR"] = tempfile.mkdtemp(prefix="mcp-desk-shots-")
sys.path.insert(0, str(OUT.parent.parent))


def main() -> None:
    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    loop = qasync.QEventLoop(app, already_running=True)
    asyncio.set_event_loop(loop)

    def pump(cond: Callable[[], bool], timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise TimeoutError("screenshot step timed out")
            app.processEvents()
        settle = time.monotonic() + 0.3
        while time.monotonic() < settle:
            app.processEvents()

    from app.ui.controller import DeskController
    from app.ui.window import MainWindow

    c = DeskController()
    c.load_config()  # first run: seeds the demo server
    w = MainWindow(c)
    w.resize(1280, 900)
    w.show()
    pump(lambda: w._painted)
    # As `mcp-desk` does after the first paint: the demo server starts connecting by itself.
    w.start_engine(connect_enabled=True)
    w.grab().save(str(OUT / "first-run.png"))

    w.servers.select("demo")
    pump(lambda: w.server_model.server("demo").state == "ready")
    w.catalog.select("tools", "demo", "create_contact")
    pump(lambda: getattr(w.tool_panel.tool, "name", "") == "create_contact")
    contact: dict[str, object] = {
        "contact": {
            "name": "Ana Lima",
            "email": "ana@example.com",
            "address": {
                "street": "Rue de Rivoli 10",
                "city": "Paris",
                "postal_code": "75001",
                "country": "FR",
            },
        }
    }
    w.tool_panel.form.set_value(contact)
    pump(lambda: True)
    w.grab().save(str(OUT / "tool-form.png"))

    done: list[bool] = []
    w.call_finished.connect(lambda *_: done.append(True))

    def run_tool(name: str, value: dict[str, object]) -> None:
        w.catalog.select("tools", "demo", name)
        pump(lambda: getattr(w.tool_panel.tool, "name", "") == name)
        w.tool_panel.form.set_value(value)
        done.clear()
        w.tool_panel.run_button.click()
        pump(lambda: bool(done))

    # A few calls that the demo server reports on its stderr: the Log tab has something to show.
    run_tool("create_contact", contact)
    run_tool("add_note", {"name": "groceries", "text": "Milk, bread, pears."})
    run_tool("add_note", {"name": "ideas", "text": "A picnic on Saturday."})
    log = w.bottom.log_filter
    pump(lambda: log.rowCount() >= 3)

    w.catalog.select("tools", "demo", "draw_badge")
    pump(lambda: getattr(w.tool_panel.tool, "name", "") == "draw_badge")
    w.tool_panel.form.set_value({"color": "purple", "size": 160})
    done.clear()
    w.tool_panel.run_button.click()
    pump(lambda: bool(done))
    w.grab().save(str(OUT / "image-result.png"))
    w.grab().save(str(OUT / "main.png"))  # the README's picture

    from app.config.model import ServerEntry

    c.store.add(ServerEntry(name="weather-api", command="uvx-not-installed", args=["mcp-weather"]))
    c.save()  # an added server connects by itself
    pump(lambda: "weather-api" in w.server_model.names())
    w.servers.select("weather-api")
    pump(lambda: w.server_model.server("weather-api").state == "failed")
    w.grab().save(str(OUT / "failed-server.png"))

    w.add_server()
    pump(lambda: getattr(w, "server_dialog", None) is not None and w.server_dialog.isVisible())
    d = w.server_dialog
    d.apply_snippet(
        json.dumps(
            {
                "github": {
                    "command": "npx",
                    "args": ["-y", "@modelcontextprotocol/server-github"],
                    "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_example1234567890"},
                }
            }
        )
    )
    pump(lambda: True)
    d.grab().save(str(OUT / "add-dialog.png"))
    d.reject()

    task = asyncio.ensure_future(c.shutdown())
    pump(task.done)
    print("saved:", ", ".join(sorted(p.name for p in OUT.glob("*.png"))))


if __name__ == "__main__":
    main()
    os._exit(0)  # skip interpreter teardown of Qt objects (the pictures are written)
