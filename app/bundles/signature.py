"""Whether a package is signed, said honestly.

The mcpb CLI (`mcpb sign`) appends a block after the zip: `MCPB_SIG_V1`, a 4-byte little-endian
length, a DER PKCS#7 (CMS) SignedData with a detached signature over the zip bytes, `MCPB_SIG_END`.
We find that block, cut it off before the zip is opened, and read the signer's certificate with the
`cryptography` package when it is installed (it comes with the keyring's Secret Service backend on
Linux; it is not one of our own dependencies). `cryptography` can load the certificates of a
PKCS#7 block but has no API to check a PKCS#7 signature or a code-signing chain against the
system's trust store, so nothing here claims "verified": the most we say is "signed by SUBJECT,
not verified". Checking would need the signed attributes' digest and signature checked by hand
plus a chain built to the OS store: a follow-up, not something to improvise.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from app.words import QT_TRANSLATE_NOOP, fill

logger = logging.getLogger(__name__)

HEADER = b"MCPB_SIG_V1"
FOOTER = b"MCPB_SIG_END"
MAX_BLOCK = 1_000_000
"""A signature block larger than this is not one (a certificate chain is a few KB)."""

Status = Literal["unsigned", "signed", "unreadable"]


# The signature line of the install form, as templates (app.ui.i18n.translate_reason).
UNSIGNED = QT_TRANSLATE_NOOP("Reasons", "This package is not signed: nothing says who made it.")
UNREADABLE = QT_TRANSLATE_NOOP(
    "Reasons", "This package carries a signature that could not be read; it was not verified."
)
UNKNOWN_SIGNER = QT_TRANSLATE_NOOP("Reasons", "an unknown signer")
SIGNED_BY = QT_TRANSLATE_NOOP("Reasons", "Signed by %1; the signature was not verified.")
SELF_SIGNED = QT_TRANSLATE_NOOP(
    "Reasons", "Signed by %1 (a certificate it made itself); the signature was not verified."
)
TEMPLATES: tuple[str, ...] = (SELF_SIGNED, SIGNED_BY, UNSIGNED, UNREADABLE, UNKNOWN_SIGNER)


@dataclass(frozen=True)
class Signature:
    status: Status
    zip_end: int
    """Where the zip ends in the file (the file's size when unsigned)."""
    subject: str | None = None
    issuer: str | None = None
    self_signed: bool = False
    verified: bool = False
    """Always False today: see the module's docstring."""

    def describe(self) -> str:
        if self.status == "unsigned":
            return UNSIGNED
        if self.status == "unreadable":
            return UNREADABLE
        who = self.subject or UNKNOWN_SIGNER
        return fill(SELF_SIGNED if self.self_signed else SIGNED_BY, who)


def find_block(tail: bytes, file_size: int) -> tuple[int, bytes] | None:
    """(offset of the header in the file, the PKCS#7 bytes) when the file ends with a signature
    block; `tail` is the file's last bytes."""
    stripped = tail.rstrip(b"\r\n\0 ")
    if not stripped.endswith(FOOTER):
        return None
    start = stripped.rfind(HEADER)
    if start < 0:
        return None
    body = stripped[start + len(HEADER) : len(stripped) - len(FOOTER)]
    if len(body) < 4:
        return None
    length = int.from_bytes(body[:4], "little")
    if length != len(body) - 4:
        return None
    return file_size - len(tail) + start, body[4:]


def read(path_or_bytes: bytes, file_size: int) -> Signature:
    """The signature state, given the file's last `min(size, MAX_BLOCK)` bytes."""
    found = find_block(path_or_bytes, file_size)
    if found is None:
        return Signature("unsigned", file_size)
    offset, der = found
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives.serialization import pkcs7
        from cryptography.x509.oid import NameOID
    except ImportError:
        return Signature("unreadable", offset)
    try:
        certs = pkcs7.load_der_pkcs7_certificates(der)
    except (ValueError, TypeError) as exc:
        logger.info("the package's signature block could not be read: %s", exc)
        return Signature("unreadable", offset)
    if not certs:
        return Signature("unreadable", offset)
    cert: x509.Certificate = certs[0]

    def common_name(name: x509.Name) -> str:
        names = name.get_attributes_for_oid(NameOID.COMMON_NAME)
        value = names[0].value if names else name.rfc4514_string()
        return (value if isinstance(value, str) else value.decode("utf-8", "replace"))[:200]

    subject = common_name(cert.subject)
    issuer = common_name(cert.issuer)
    return Signature("signed", offset, subject, issuer, self_signed=cert.subject == cert.issuer)
