"""Re-create the server directory's screenshots (offscreen Qt, temporary config and data folders,
the local directory of tests/servers/registry_server.py and a local SDK server that wants a key).

.venv/bin/python docs/screenshots/make_registry_browser.py [OUT_DIR] [light|dark]

registry-search.png (results, the first entry's details), registry-detail.png (a remote entry with
its icon), registry-add.png (Add: the install dialog asks for the key, masked), registry-connected.png
(the main window: added and connected), registry-offline.png (the directory gone: the cached list,
marked offline), registry-unreachable.png (nothing cached). Dark ones end in -dark.png. The light
ones are kept in this folder for the README.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent
REPO = OUT.parent.parent
sys.path.insert(0, str(OUT))
import shots  # noqa: E402  (the set-up shared by the scripts here)

shots.prepare("registry")

KEY = "notes-key-for-the-screenshot"


def main() -> None:
    from tests.servers.process import ServerProcess
    from tests.servers.registry_server import RegistryFixture, start_registry

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    dark = len(sys.argv) > 2 and sys.argv[2] == "dark"
    suffix = "-dark.png" if dark else ".png"
    _app, _loop = shots.start_app("dark" if dark else "light")  # a memory keychain, never the real one
    pump = shots.pump

    from app.ui.controller import DeskController
    from app.ui.registry_browser import ResultsModel, open_registry
    from app.ui.window import MainWindow

    sdk = [sys.executable, str(REPO / "tests" / "mcp" / "sdk_server.py"), "--http", "--require-token", KEY]
    with ServerProcess(sdk) as proc:
        host, port = proc.wait_listening(30)
        fixture = RegistryFixture(remote_url=f"http://{host}:{port}/mcp", page_size=8)
        with start_registry(fixture) as fx:
            c = DeskController()
            c.load_config()
            w = MainWindow(c)
            w.resize(1024, 700)
            w.show()
            pump(lambda: w._painted)
            w.start_engine()
            c.store.app_settings["registryUrl"] = fx.base

            b = open_registry(w)
            b.resize(1024, 640)
            pump(lambda: b.state == "results" and b.model.rowCount() > 0)
            pump(lambda: len(b.model.icons) >= 1 and b.current is not None)
            b.grab().save(str(out / ("registry-search" + suffix)))

            b.search.setText("notes")
            b.run_search("notes")
            pump(lambda: b.state == "results" and b.model.rowCount() == 1)
            pump(lambda: b.current is not None and b.current.name in b.model.icons)
            b.grab().save(str(out / ("registry-detail" + suffix)))

            b.add_button.click()
            pump(lambda: getattr(w, "install_dialog", None) is not None and w.install_dialog.isVisible())
            d = w.install_dialog
            d.fields["api_key"].edit.setText(KEY)  # shown masked
            d.fields["api_key"].edit.setFocus()
            pump(lambda: True)
            d.grab().save(str(out / ("registry-add" + suffix)))
            d.add_button.click()
            pump(lambda: (row := w.server_model.server("notes")) is not None and row.state == "ready")
            b.hide()
            w.servers.select("notes")
            pump(lambda: True)
            w.grab().save(str(out / ("registry-connected" + suffix)))
            b.show()
            index = b.model.index(0)
            assert isinstance(b.model.data(index, ResultsModel.ServerRole).name, str)

        # The directory is gone (connections refused): the last list, marked offline; then nothing.
        b.client().fresh_seconds = 0
        b.run_search("notes", refresh=True)
        pump(lambda: b.state == "offline-cached")
        b.grab().save(str(out / ("registry-offline" + suffix)))
        b.search.setText("weather")
        b.run_search("weather")
        pump(lambda: b.state == "offline")
        b.grab().save(str(out / ("registry-unreachable" + suffix)))
        b.close()

        async def down() -> None:
            await c.shutdown()

        task = asyncio.ensure_future(down())
        pump(task.done)


if __name__ == "__main__":
    main()
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown: the engine's worker threads need not be waited for
