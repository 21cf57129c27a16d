"""Re-create the server package screenshots (offscreen Qt, temporary config and data folders, the
test packages of tests/bundles, real servers): the install form of the Node package and of a
signed Python package, the update question, and the Node package's server connected with a tool
run — light, and dark (Fusion with a dark palette).

.venv/bin/python docs/screenshots/make_bundle_screenshots.py [OUT_DIR] [--dark]

The light ones are kept in this folder (bundle-*.png); the dark ones are for looking at.
"""

from __future__ import annotations

import asyncio
import datetime
import os
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent
ROOT = OUT.parent.parent
sys.path.insert(0, str(OUT))
import shots  # noqa: E402  (the set-up shared by the scripts here)

TMP = shots.prepare("bundle")
# The Python package runs on uv in this checkout's environment (it has the `mcp` SDK).
os.environ["VIRTUAL_ENV"] = sys.prefix
os.environ["UV_OFFLINE"] = "1"


def icon_png(colour: str, letter: str) -> bytes:
    from PySide6.QtCore import QBuffer, QIODevice, QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    image = QImage(128, 128, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setBrush(QColor(colour))
    p.setPen(Qt.PenStyle.NoPen)
    p.drawRoundedRect(QRectF(4, 4, 120, 120), 28, 28)
    p.setPen(QColor("white"))
    font = QFont()
    font.setPixelSize(72)
    font.setBold(True)
    p.setFont(font)
    p.drawText(QRectF(4, 4, 120, 120), Qt.AlignmentFlag.AlignCenter, letter)
    p.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data().data())


def sign(data: bytes, common_name: str) -> bytes:
    """A signature block as `mcpb sign` appends it (self-signed certificate)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import pkcs7
    from cryptography.x509.oid import NameOID

    from app.bundles import signature

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(7)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=30))
        .sign(key, hashes.SHA256())
    )
    der = (
        pkcs7.PKCS7SignatureBuilder()
        .set_data(data)
        .add_signer(cert, key, hashes.SHA256())
        .sign(serialization.Encoding.DER, [pkcs7.PKCS7Options.DetachedSignature])
    )
    return data + signature.HEADER + len(der).to_bytes(4, "little") + der + signature.FOOTER


def packages() -> tuple[Path, Path, Path]:
    import json

    from tests.bundles.builders import NODE_SERVER, PYTHON_SERVER, node_manifest, python_manifest, write_zip

    node = node_manifest()
    node["description"] = "Lists the files of a folder you choose, for your assistant."
    node["long_description"] = (
        "It reads only the folder you pick below, and needs a key for its folder service."
    )
    files: dict[str, bytes | str] = {
        "manifest.json": json.dumps(node),
        "icon.png": icon_png("#2563eb", "F"),
        "server/index.js": NODE_SERVER.replace("__VERSION__", "1.0.0"),
    }
    v1 = write_zip(TMP / "folder-helper-1.0.0.mcpb", files)
    node2 = node_manifest("1.1.0")
    files2 = {
        **files,
        "manifest.json": json.dumps(node2),
        "server/index.js": NODE_SERVER.replace("__VERSION__", "1.1.0"),
    }
    v2 = write_zip(TMP / "folder-helper-1.1.0.mcpb", files2)
    py = python_manifest()
    py["icon"] = "icon.png"
    py["author"] = {"name": "Example Tools Ltd"}
    py["homepage"] = "https://example.com/greeter"
    py["tools"] = [
        {"name": "greet", "description": "Greets someone"},
        {"name": "farewell", "description": "Says goodbye"},
    ]
    py["prompts"] = [
        {"name": "welcome", "description": "A welcome note", "text": "Welcome ${arguments.name}"}
    ]
    plain = write_zip(
        TMP / "greeter.zip",
        {
            "manifest.json": json.dumps(py),
            "icon.png": icon_png("#16a34a", "G"),
            "requirements.txt": "mcp\n",
            "server/main.py": PYTHON_SERVER,
        },
    )
    signed = TMP / "greeter-python-0.2.0.mcpb"
    signed.write_bytes(sign(plain.read_bytes(), "Example Tools Ltd"))
    return v1, v2, signed


def main() -> None:
    from PySide6.QtWidgets import QMessageBox

    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    dark = "--dark" in sys.argv
    out = Path(args[0]) if args else OUT
    out.mkdir(parents=True, exist_ok=True)
    suffix = "-dark" if dark else ""
    _app, _loop = shots.start_app("dark" if dark else "light")  # a memory keychain, never the real one
    pump = shots.pump

    from app.ui.bundle_dialog import install_bundle_file
    from app.ui.controller import DeskController
    from app.ui.window import MainWindow

    v1, v2, py = packages()
    work = TMP / "Documents" / "Projects"
    work.mkdir(parents=True)
    for name in ("notes.md", "plan.txt", "budget.xlsx"):
        (work / name).write_text("x")

    c = DeskController()
    c.load_config()
    w = MainWindow(c)
    w.resize(1280, 860)
    w.show()
    pump(lambda: w._painted)
    w.start_engine()

    def dialog_shown() -> bool:
        d = getattr(w, "install_dialog", None)
        return d is not None and d.isVisible()

    def allow(server: str) -> None:
        def shown() -> bool:
            d = w.trust_prompter.dialog
            return d is not None and d.isVisible() and d.request.server == server

        pump(shown)
        w.trust_prompter.dialog.allow_button.click()

    # 1. The Node package's install form, filled in.
    task = asyncio.ensure_future(install_bundle_file(w, v1))
    pump(dialog_shown)
    d = w.install_dialog
    d.resize(620, 640)
    d.fields["api_key"].edit.setText("fh-not-a-real-key-0123")  # shown masked
    d.fields["folder"].edit.setText(str(work))
    pump(lambda: d.add_button.isEnabled())
    d.grab().save(str(out / f"bundle-install-node{suffix}.png"))
    d.add_button.click()
    allow("folder-helper")
    pump(lambda: task.done() and w.server_model.server("folder-helper").state == "ready")

    # 2. Connected, a tool run.
    w.servers.select("folder-helper")
    w.catalog.select("tools", "folder-helper", "list_folder")
    pump(lambda: getattr(w.tool_panel.tool, "name", "") == "list_folder")
    finished: list[bool] = []
    w.call_finished.connect(lambda *_: finished.append(True))
    w.tool_panel.run_button.click()
    pump(lambda: bool(finished))
    w.grab().save(str(out / f"bundle-connected{suffix}.png"))

    # 3. The update question.
    task = asyncio.ensure_future(install_bundle_file(w, v2))

    def box() -> QMessageBox | None:
        boxes = [b for b in w.findChildren(QMessageBox) if b.isVisible()]
        return boxes[0] if boxes else None

    pump(lambda: box() is not None)
    b = box()
    assert b is not None
    b.grab().save(str(out / f"bundle-update{suffix}.png"))
    next(x for x in b.buttons() if x.text() == "Update").click()
    allow("folder-helper")
    pump(lambda: task.done())

    # 4. The signed Python package's install form.
    task = asyncio.ensure_future(install_bundle_file(w, py))
    pump(dialog_shown)
    d = w.install_dialog
    d.resize(620, 600)
    d.fields["greeting"].edit.setText("Bonjour")
    pump(lambda: d.add_button.isEnabled())
    d.grab().save(str(out / f"bundle-install-python{suffix}.png"))
    d.reject()
    pump(lambda: task.done())

    stopped = asyncio.ensure_future(c.shutdown())  # the servers stop before the pictures' process ends
    pump(stopped.done)
    w.close()
    pump(lambda: True)


if __name__ == "__main__":
    main()
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown: the engine's worker threads need not be waited for
