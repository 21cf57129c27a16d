"""Opening and unpacking packages safely: path escapes, links, zip bombs and damaged files are
refused before anything is written; a signature block is found and described honestly."""

from __future__ import annotations

import datetime
import json
import os
import stat
import zipfile
from pathlib import Path

import pytest

from app.bundles import archive, signature
from app.bundles.archive import BundleError, extract, read_bundle
from tests.bundles.builders import node_bundle, node_manifest, write_zip

MANIFEST = json.dumps(node_manifest())


def bundle_with(tmp_path: Path, extra: dict[str, bytes | str], **kwargs: object) -> Path:
    return write_zip(tmp_path / "p.mcpb", {"manifest.json": MANIFEST, **extra}, **kwargs)  # type: ignore[arg-type]


def test_reads_manifest_icon_and_files(tmp_path: Path) -> None:
    b = read_bundle(node_bundle(tmp_path / "n.mcpb"))
    assert b.manifest.name == "folder-helper"
    assert b.icon is not None and b.icon.startswith(archive.PNG_MAGIC)
    assert "server/index.js" in b.files
    assert b.signature.status == "unsigned"
    assert b.signature.describe() == "This package is not signed: nothing says who made it."


@pytest.mark.parametrize(
    "name", ["../evil.txt", "server/../../evil.txt", "/etc/evil", "C:/evil.txt", "..\\evil.txt", "a/b:stream"]
)
def test_path_escapes_are_refused(tmp_path: Path, name: str) -> None:
    path = bundle_with(tmp_path, {name: "x"})
    with pytest.raises(BundleError, match="outside its folder"):
        read_bundle(path)
    assert not (tmp_path / "evil.txt").exists()


def test_a_symlink_entry_refuses_the_package(tmp_path: Path) -> None:
    path = bundle_with(
        tmp_path, {"server/shortcut": "/etc/passwd"}, modes={"server/shortcut": stat.S_IFLNK | 0o777}
    )
    with pytest.raises(BundleError, match="holds a link"):
        read_bundle(path)
    dest = tmp_path / "dest"
    with pytest.raises(BundleError, match="holds a link"):
        extract(archive.Bundle(path, None, signature.Signature("unsigned", 0), None, frozenset(), 0), dest)  # type: ignore[arg-type]
    assert not dest.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".unpacking")] == []


def test_a_device_entry_is_refused(tmp_path: Path) -> None:
    path = bundle_with(tmp_path, {"fifo": ""}, modes={"fifo": stat.S_IFIFO | 0o644})
    with pytest.raises(BundleError, match="not a file"):
        read_bundle(path)


def test_a_zip_bomb_is_refused(tmp_path: Path) -> None:
    path = bundle_with(tmp_path, {"zeros.bin": b"\0" * (40 << 20)})
    assert path.stat().st_size < 1 << 20  # 40 MB of zeros packs into a few KB
    with pytest.raises(BundleError, match="zip bomb"):
        read_bundle(path)


def test_limits_on_size_and_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = bundle_with(tmp_path, {f"f{i}": "x" for i in range(30)})
    monkeypatch.setattr(archive, "MAX_FILES", 10)
    with pytest.raises(BundleError, match="too many files"):
        read_bundle(path)
    monkeypatch.setattr(archive, "MAX_FILES", 100)
    monkeypatch.setattr(archive, "MAX_TOTAL", 1000)
    with pytest.raises(BundleError, match="more than"):
        read_bundle(path)


def test_not_a_package(tmp_path: Path) -> None:
    (tmp_path / "x.mcpb").write_text("hello")
    with pytest.raises(BundleError, match="not a zip"):
        read_bundle(tmp_path / "x.mcpb")
    write_zip(tmp_path / "y.mcpb", {"README": "no manifest"})
    with pytest.raises(BundleError, match=r"no manifest\.json"):
        read_bundle(tmp_path / "y.mcpb")
    write_zip(tmp_path / "z.mcpb", {"manifest.json": "{not json"})
    with pytest.raises(BundleError, match="cannot be read"):
        read_bundle(tmp_path / "z.mcpb")
    with pytest.raises(BundleError, match="could not be opened"):
        read_bundle(tmp_path / "missing.mcpb")


def test_extract_keeps_modes_and_replaces_atomically(tmp_path: Path) -> None:
    path = write_zip(
        tmp_path / "b.mcpb",
        {"manifest.json": MANIFEST, "server/tool": "#!/bin/sh\n", "server/data.txt": "v1"},
        modes={"server/tool": stat.S_IFREG | 0o755},
    )
    dest = tmp_path / "bundles" / "x" / "1"
    extract(read_bundle(path), dest)
    assert (dest / "server" / "data.txt").read_text() == "v1"
    assert os.access(dest / "server" / "tool", os.X_OK)
    assert not os.access(dest / "server" / "data.txt", os.X_OK)
    # A second package that fails half-way leaves the first install as it was.
    bad = write_zip(tmp_path / "bad.mcpb", {"manifest.json": MANIFEST, "server/data.txt": "v2", "../x": "x"})
    good = read_bundle(path)
    with pytest.raises(BundleError):
        extract(archive.Bundle(bad, good.manifest, good.signature, None, frozenset(), 0), dest)
    assert (dest / "server" / "data.txt").read_text() == "v1"
    assert sorted(p.name for p in dest.parent.iterdir()) == ["1"]


def _sign(zip_bytes: bytes, common_name: str) -> bytes:
    """A signature block as `mcpb sign` appends it (PKCS#7 detached, self-signed certificate)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import pkcs7
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    der = (
        pkcs7.PKCS7SignatureBuilder()
        .set_data(zip_bytes)
        .add_signer(cert, key, hashes.SHA256())
        .sign(serialization.Encoding.DER, [pkcs7.PKCS7Options.DetachedSignature])
    )
    return zip_bytes + signature.HEADER + len(der).to_bytes(4, "little") + der + signature.FOOTER


def test_a_signed_package_says_who_signed_it_and_not_verified(tmp_path: Path) -> None:
    pytest.importorskip("cryptography")
    plain = node_bundle(tmp_path / "n.mcpb")
    signed = tmp_path / "signed.mcpb"
    signed.write_bytes(_sign(plain.read_bytes(), "Example Tools Ltd"))
    b = read_bundle(signed)
    assert b.signature.status == "signed"
    assert b.signature.subject == "Example Tools Ltd"
    assert b.signature.self_signed and not b.signature.verified
    assert b.signature.zip_end == plain.stat().st_size
    text = b.signature.describe()
    assert (
        "Example Tools Ltd" in text
        and "not verified" in text
        and "verified." not in text.replace("not verified.", "")
    )
    # The zip opens despite the block after it, and unpacks.
    extract(b, tmp_path / "out")
    assert (tmp_path / "out" / "server" / "index.js").exists()


def test_a_damaged_signature_block_is_unreadable_not_signed(tmp_path: Path) -> None:
    plain = node_bundle(tmp_path / "n.mcpb").read_bytes()
    junk = b"not pkcs7"
    (tmp_path / "s.mcpb").write_bytes(
        plain + signature.HEADER + len(junk).to_bytes(4, "little") + junk + signature.FOOTER
    )
    b = read_bundle(tmp_path / "s.mcpb")
    assert b.signature.status == "unreadable"
    assert "could not be read" in b.signature.describe()


def test_icon_must_be_a_png_inside_the_package(tmp_path: Path) -> None:
    m = node_manifest()
    m["icon"] = "https://example.com/icon.png"
    path = write_zip(tmp_path / "a.mcpb", {"manifest.json": json.dumps(m)})
    assert read_bundle(path).icon is None  # never fetched
    m["icon"] = "icon.png"
    path = write_zip(tmp_path / "b.mcpb", {"manifest.json": json.dumps(m), "icon.png": "GIF89a not a png"})
    assert read_bundle(path).icon is None


def test_zip_without_unix_modes(tmp_path: Path) -> None:
    # Zips made on Windows carry no Unix mode bits: plain files all the same.
    path = tmp_path / "w.mcpb"
    with zipfile.ZipFile(path, "w") as zf:
        info = zipfile.ZipInfo("manifest.json")
        info.create_system = 0
        info.external_attr = 0x20  # FILE_ATTRIBUTE_ARCHIVE
        zf.writestr(info, MANIFEST)
    assert read_bundle(path).manifest.name == "folder-helper"


def test_entries_with_permission_bits_only_are_files(tmp_path: Path) -> None:
    # `ZipFile.writestr(name, data)` writes mode 0o600 with no file type bits.
    path = tmp_path / "p.mcpb"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("manifest.json", MANIFEST)
        zf.writestr("server/index.js", "// js")
    b = read_bundle(path)
    assert b.files == {"manifest.json", "server/index.js"}
