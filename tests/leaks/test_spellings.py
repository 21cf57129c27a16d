"""A target masks its secrets in the spellings servers and libraries quote them in, and the
credential alone of an Authorization value; log records are masked of every known secret."""

from __future__ import annotations

import base64
import json
import logging
from urllib.parse import quote

import pytest

from app.mcp.masking import MASK, credential_parts, mask_log_records
from app.mcp.target import Target

VALUE = 'k3y"& +\\ü-0042'


def test_a_target_masks_json_url_and_repr_spellings() -> None:
    t = Target("s", "stdio", command="x", secret_values=frozenset({VALUE}))
    for spelled in (VALUE, json.dumps(VALUE)[1:-1], quote(VALUE, safe=""), repr(VALUE)[1:-1]):
        assert t.mask(f"<{spelled}>") == f"<{MASK}>", spelled


def test_the_credential_of_an_authorization_value_is_masked_alone() -> None:
    t = Target("s", "http", url="http://h/mcp", secret_values=frozenset({"Bearer tok-123456"}))
    assert t.mask("token tok-123456 is not valid") == f"token {MASK} is not valid"
    basic = "Basic " + base64.b64encode(b"me:pa55word").decode()
    assert credential_parts(basic) == {base64.b64encode(b"me:pa55word").decode(), "me:pa55word", "pa55word"}
    assert credential_parts("plain-value") == set()


def test_log_records_are_masked_of_known_secrets(caplog: pytest.LogCaptureFixture) -> None:
    mask_log_records()
    Target("s", "http", url="http://h/mcp?token=abc-987654", secret_values=frozenset({"abc-987654"}))
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("somelib").debug("GET %s", "http://h/mcp?token=abc-987654")
        try:
            raise ValueError("abc-987654")
        except ValueError:
            logging.getLogger("somelib").exception("failed")
    assert "abc-987654" not in caplog.text
    assert f"token={MASK}" in caplog.text and f"ValueError: {MASK}" in caplog.text
