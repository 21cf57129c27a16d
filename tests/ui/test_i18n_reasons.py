"""Why a server could not connect, in the window's language (app.mcp.reasons → app.ui.i18n).

The engine's sentences stay English (the command line, the logs and the core's tests read them
so); the window matches a sentence back to its template and shows the translation with the
values put back. Sentences of real failed connections (real child processes) and ones built by
the same code for the network cases; a sentence with no template stays as it is.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from app.mcp import reasons
from app.mcp.connection import ServerConnection
from app.mcp.events import ConnectionState
from app.mcp.target import Target
from app.ui.i18n import translate_reason
from tests.support.languages import in_language
from tests.ui.conftest import run


@pytest.fixture
def zh(qapp: Any) -> Iterator[None]:
    with in_language(qapp, "zh_CN"):
        yield


def failed_reason(qtbot: Any, *args: str) -> str:
    target = Target(name="p", transport="stdio", command=args[0], args=args[1:], timeout=60.0)

    async def go() -> str:
        conn = ServerConnection(target)
        conn.start()
        try:
            assert await conn.wait_settled(30) == ConnectionState.FAILED, conn.reason
            return conn.reason or ""
        finally:
            await conn.stop()

    result: str = run(qtbot, go(), timeout=40)
    return result


def test_a_missing_command(qtbot: Any, aloop: Any, zh: None) -> None:
    english = failed_reason(qtbot, "surely-no-such-program-xyz", "--flag")
    assert english == "command not found: surely-no-such-program-xyz — is it installed, and on the PATH?"
    assert translate_reason(english) == "找不到命令：surely-no-such-program-xyz —— 它安装了吗？在 PATH 中吗？"


def test_a_program_that_prints_text_and_exits(qtbot: Any, aloop: Any, zh: None) -> None:
    english = failed_reason(qtbot, sys.executable, "-c", "print('Hello there, world')")
    assert english.startswith(reasons.NOT_MCP), english
    chinese = translate_reason(english)
    assert chinese.startswith("这看起来不是 MCP 服务器：它输出了 “Hello there, world”，然后以代码 0 退出"), (
        chinese
    )


def test_a_program_that_fails_with_a_message(qtbot: Any, aloop: Any, zh: None) -> None:
    script = "import sys; sys.stderr.write('boom: no config\\n'); sys.exit(3)"
    english = failed_reason(qtbot, sys.executable, "-c", script)
    assert english == "the server exited with code 3 — last stderr: boom: no config", english
    assert translate_reason(english) == "服务器已退出，退出代码 3 —— 最后的错误输出：boom: no config"


def test_sentences_within_sentences(zh: None) -> None:
    http = reasons.fill(
        reasons.WITH_ADVICE, reasons.fill(reasons.HTTP_STATUS, 404, "Not Found"), reasons.HTTP_ADVICE[404]
    )
    assert translate_reason("connection lost: " + http) == (
        "连接已断开：HTTP 404 Not Found：这个网址下什么也没有：请检查路径（通常是 /mcp，SSE 方式则是 /sse）"
    )
    assert (
        translate_reason("connection lost: the server closed the connection")
        == "连接已断开：服务器关闭了连接"
    )
    assert translate_reason(
        "could not connect to http://127.0.0.1:9/mcp: [Errno 111] Connection refused (is the server running?)"
    ) == ("无法连接到 http://127.0.0.1:9/mcp：[Errno 111] Connection refused（服务器在运行吗？）")
    silent = reasons.fill(reasons.WITH_ADVICE, reasons.NOT_MCP, "it has not answered in 60 s")
    assert translate_reason(silent) == "这看起来不是 MCP 服务器：它 60 秒内没有应答"


def test_what_has_no_template_stays_as_it_is(zh: None) -> None:
    assert translate_reason("Das ist kein Satz der Engine") == "Das ist kein Satz der Engine"
    assert translate_reason("") == ""
    huge = "x" * (10 * 4000)
    assert translate_reason(huge) is huge


def test_english_stays_english() -> None:
    text = "the server exited with code 3 — last stderr: boom"
    assert translate_reason(text) == text


def test_every_template_is_translated(zh: None) -> None:
    from PySide6.QtCore import QCoreApplication

    missing = [
        t for t in reasons.TEMPLATES if QCoreApplication.translate("Reasons", t) == t and t != "HTTP %1 %2"
    ]
    assert not missing, missing
