"""Re-create the install dialog's screenshot (offscreen Qt, temporary config): a plan with an icon,
a key (with what the example said), a choice, a folder and a number, light and dark.

.venv/bin/python docs/screenshots/make_install_dialog.py [OUT_DIR]

The light one is kept in this folder (install-dialog.png); the dark one is for looking at.
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent
sys.path.insert(0, str(OUT))
import shots  # noqa: E402  (the set-up shared by the scripts here)

shots.prepare("install")


def icon_png() -> bytes:
    from PySide6.QtCore import QBuffer, QIODevice, QRectF, Qt
    from PySide6.QtGui import QColor, QImage, QPainter, QPen

    image = QImage(128, 128, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setBrush(QColor("#fb542b"))
    p.setPen(Qt.PenStyle.NoPen)
    p.drawRoundedRect(QRectF(4, 4, 120, 120), 28, 28)
    pen = QPen(QColor("white"), 12)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(QRectF(30, 28, 50, 50))
    p.drawLine(74, 72, 98, 96)
    p.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data().data())


def plan() -> object:
    from app.config.model import ServerEntry
    from app.install.plan import InstallPlan, Question, ask_ref

    entry = ServerEntry(
        name="brave-search",
        command="npx",
        args=[
            "-y",
            "@brave/brave-search-mcp-server",
            "--safe-search",
            ask_ref("safe"),
            "--downloads",
            ask_ref("dir"),
        ],
        env={"BRAVE_API_KEY": ask_ref("BRAVE_API_KEY"), "BRAVE_COUNT": ask_ref("count")},
    )
    return InstallPlan(
        name="brave-search",
        entry=entry,
        source="link",
        title="Brave Search",
        description="Web, news, image and video search with the Brave Search API, "
        "and summaries of the results for your assistant.",
        version="2.0.58",
        author="Brave Software",
        website="https://github.com/brave/brave-search-mcp-server",
        icon=icon_png(),
        runtime="node",
        notes=["From a Cursor install link. Add it only if you trust the page the link came from."],
        questions=[
            Question(
                "BRAVE_API_KEY",
                "Brave API key",
                "Make one at brave.com/search/api (the free plan is enough).",
                required=True,
                secret=True,
                placeholder="YOUR_API_KEY_HERE",
            ),
            Question(
                "safe",
                "Safe search",
                kind="choice",
                choices=("off", "moderate", "strict"),
                default="moderate",
            ),
            Question("dir", "Folder for downloads", "Where saved pages go.", kind="directory"),
            Question("count", "Results per search", kind="number", minimum=1, maximum=20, default="10"),
        ],
    )


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    app, loop = shots.start_app("light")
    pump = shots.pump

    from app.ui.controller import DeskController
    from app.ui.install_dialog import InstallDialog

    c = DeskController()
    c.load_config()
    light = app.palette()
    for name, palette in (("install-dialog.png", light), ("install-dialog-dark.png", shots.dark_palette())):
        app.setPalette(palette)  # type: ignore[arg-type]
        d = InstallDialog(c, plan())  # type: ignore[arg-type]
        d.show()
        d.fields["BRAVE_API_KEY"].edit.setText("BSA-not-a-real-key-0123")  # shown masked
        d.fields["BRAVE_API_KEY"].edit.setFocus()
        pump(d.isVisible)
        d.grab().save(str(out / name))
        d.close()
        d.deleteLater()
        pump(lambda: True)
    loop.stop()
    loop.close()  # the runtime lookup's worker thread ends here, not at interpreter exit


if __name__ == "__main__":
    main()
