"""The window's translations are complete and say the same thing for the same idea.

- `packaging/translations.py check` reports nothing: no string new in a source and missing from
  its .ts file, none gone from the source but still in the file, none unfinished. One test per
  source module (`test_module_translated[app.ui.window]`), so a failure names the module, and
  with it the owner who has to run `update`, `todo` and `apply` for it.
- The glossary: wherever an English source says one of the glossary's words, its Simplified
  Chinese says the glossary's Chinese word ("connected" → 已连接, never 就绪).
- The `.qm` files build, and the English one gives English plurals.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest

from tests.support.languages import translations


@cache
def problems() -> tuple[str, ...]:
    return tuple(translations().check())


def _modules() -> list[str]:
    return [translations().module_of(p) for p in translations().sources()]


@pytest.mark.parametrize("module", _modules())
def test_module_translated(module: str) -> None:
    """This module's strings are all in its .ts files and all translated (zh_CN; en plurals).

    To fix: `python packaging/translations.py update app/ui/THE_MODULE.py`, then `todo`, fill in,
    `apply` (see packaging/translations.py)."""
    mine = [line for line in problems() if f"/{module}.ts:" in line]
    assert not mine, "\n".join(mine)


HIDDEN = re.compile(
    r"""\b_tr\(\s*(?:f?["'])                   # a literal handed to a wrapper: lupdate misses it
      | \btr\(\s*(?P<name>f["']|(?:str\()?[^"'\s)][\w.]*)   # tr(variable), tr(f"…")
      | \btranslate\(\s*(?:f["']|[^"'\s][\w.]*\s*,\s*(?P<value2>f["']|(?:str\()?[^"'\s][\w.]*)?)  # (CTX, …)
      | \btranslate\(\s*["'](?P<context>[^"']*)["']\s*,\s*(?P<value>f["']|(?:str\()?[^"'\s][\w.]*)
    """,
    re.VERBOSE,
)


def _marked(name: str, text: str) -> bool:
    """`name` is a constant whose strings are marked where it is defined (QT_TRANSLATE_NOOP or
    QT_TR_NOOP in its assignment, up to the next blank line): lupdate has them."""
    name = name.removeprefix("str(").split(".")[-1]
    for found in re.finditer(rf"^\s*{re.escape(name)}\b[^=\n]*=(?!=)", text, re.MULTILINE):
        block = text[found.start() :].split("\n\n", 1)[0]
        if "QT_TR_NOOP(" in block or "QT_TRANSLATE_NOOP(" in block:
            return True
    return False


def _parameter(name: str, text: str, at: int) -> bool:
    """`name` is a parameter of the function around `at`: a wrapper (`def _tr(text): return
    translate("C", text)`), whose callers are checked instead (a literal handed to it is found)."""
    defs = list(re.finditer(r"^\s*(?:async\s+)?def\s+\w+\((?P<params>[^)]*)\)", text[:at], re.MULTILINE))
    return bool(defs) and re.search(rf"\b{re.escape(name)}\b", defs[-1].group("params")) is not None


def hidden_strings(text: str) -> list[str]:
    """The lines of a source with a translation call whose text lupdate cannot extract.

    Allowed: a variable that holds marked strings — a constant marked where it is defined, or
    any value in a context the module marks with QT_TRANSLATE_NOOP (a `_tr(word)` wrapper over
    such words included); calls quoted in comments and docstrings (after a # or a backtick)."""
    found = []
    for match in HIDDEN.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        if "#" in text[start : match.start()] or "`" in text[start : match.start()]:
            continue
        name = match.group("name") or match.group("value") or match.group("value2")
        literal_f = bool(name) and name.startswith(("f'", 'f"'))
        if name and not literal_f and (_marked(name, text) or _parameter(name, text, match.start())):
            continue
        context = match.group("context")
        noop = rf"QT_TRANSLATE_NOOP\(\s*[\"']{re.escape(context or '')}[\"']"
        if context is not None and not literal_f and re.search(noop, text):
            continue
        line = text.count("\n", 0, match.start()) + 1
        found.append(f"line {line}: {text.splitlines()[line - 1].strip()}")
    return found


def _ui_modules() -> list[Path]:
    return sorted(translations().SOURCES.rglob("*.py"))


@pytest.mark.parametrize("source", _ui_modules(), ids=lambda p: translations().module_of(p))
def test_module_strings_visible_to_lupdate(source: Path) -> None:
    """Every translated string is a literal in a tr()/translate() call, so lupdate extracts it:
    `_tr(text)` wrappers, `self.tr(VARIABLE)`, f-strings and a context in a variable are
    translated at run time only if someone typed the translation by hand. Use
    `QCoreApplication.translate("Context", "literal")` or `self.tr("literal")`; module-level
    constants with `QT_TRANSLATE_NOOP("Context", "…")` and a `translate("Context", constant)` at
    the place they are shown (found by itself when the constant is defined in the module; else
    an `# i18n: marked in MODULE` comment on that line says where)."""
    text = source.read_text(encoding="utf-8")
    hidden = [h for h in hidden_strings(text) if "# i18n: marked" not in h]
    assert not hidden, "\n".join(hidden)


def test_hidden_strings_are_found() -> None:
    assert hidden_strings('x = _tr("Add")\n')
    assert hidden_strings("x = self.tr(LABELS[a])\n")
    assert hidden_strings('x = self.tr(f"{n} tools")\n')
    assert hidden_strings('x = QCoreApplication.translate(CONTEXT, "Add")\n')
    assert hidden_strings('x = QCoreApplication.translate("C", text)\n')
    assert not hidden_strings('x = self.tr(\n    "Add"\n)\ny = QCoreApplication.translate("C", "Add")\n')
    assert not hidden_strings('x = self.tr("%n tool(s)", "", n)\ny = str(value)\n')
    marked = 'A = QT_TRANSLATE_NOOP("C", "done")\nx = QCoreApplication.translate("C", A)\n'
    assert not hidden_strings(marked)
    table = 'LABELS = {\n    "a": QT_TRANSLATE_NOOP("K", "Add"),\n}\n\n\nx = self.tr(LABELS[a])\n'
    assert not hidden_strings(table)
    unmarked = 'LABELS = {\n    "a": "Add",\n}\n\n\nx = self.tr(LABELS[a])\n'
    assert hidden_strings(unmarked)
    assert hidden_strings('x = self.tr(f"{GUIDE}")\n')
    wrapper = 'W = {"a": QT_TRANSLATE_NOOP("Row", "on")}\n\n\n'
    wrapper += 'def _tr(t):\n    return QCoreApplication.translate("Row", t)\n'
    assert not hidden_strings(wrapper + "x = _tr(word)\ny = QCoreApplication.translate('Row', str(W[k]))\n")
    assert hidden_strings(wrapper + 'x = _tr("Add")\n')
    assert not hidden_strings('# as in QCoreApplication.translate("Row", w)\n')
    assert not hidden_strings("def _t(text: str) -> str:\n    return QCoreApplication.translate(CTX, text)\n")
    assert hidden_strings("def f() -> str:\n    return QCoreApplication.translate(CTX, other)\n")


def test_no_translation_file_without_its_module() -> None:
    """Every .ts file belongs to a module that still has strings (a full `update` drops the others)."""
    modules = set(_modules())
    base = translations().I18N
    stray = [str(p.relative_to(base)) for p in base.glob("*/*.ts") if p.stem not in modules]
    assert not stray, stray


def test_check_finds_a_new_string(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself can fail: a source with a string its .ts file lacks is reported."""
    t = translations()
    ui = tmp_path / "app" / "ui"
    ui.mkdir(parents=True)
    (ui / "sample.py").write_text(
        "from PySide6.QtCore import QCoreApplication\n"
        "def f() -> str:\n"
        '    return QCoreApplication.translate("Sample", "Connected")\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(t, "ROOT", tmp_path)
    monkeypatch.setattr(t, "SOURCES", tmp_path / "app" / "ui")
    monkeypatch.setattr(t, "CORE_SOURCES", ())
    base = tmp_path / "resources" / "i18n"
    monkeypatch.setattr(t, "I18N", base)
    found = t.check()
    assert any("zh_CN/app.ui.sample.ts" in line for line in found), found
    t.update([], base=base, quiet=True)
    found = t.check()
    assert found == ["zh_CN/app.ui.sample.ts: unfinished: [Sample] 'Connected'"], found
    entries = [{"context": "Sample", "source": "Connected", "translation": "已连接"}]
    assert t.apply(entries, base=base) == 1
    assert t.check() == []


# ---- the glossary ------------------------------------------------------------------------------

# The words on screen (the project's glossary of English and Simplified Chinese): an English
# phrase (a regular expression, matched case-insensitively as whole words) and the Chinese word
# its translation must contain (a regular expression too: "在本机.*运行" lets "在本机用 uv 运行"
# be). Only rows whose English is specific enough to be checked by machine; the rest is for
# people reviewing a translation.
GLOSSARY: tuple[tuple[str, str], ...] = (
    (r"(?<!not )(?<!n't )\bconnected\b", "已连接"),
    (r"\bconnecting(?:…|\.\.\.| to\b)", "正在连接"),  # the state, not "finish connecting"
    (r"\bcouldn't connect\b", "无法连接"),
    (r"\bsign in needed\b", "需要登录"),
    (r"\bsign(?:ed|ing)? in\b|\bsign-ins?\b", "登录"),
    (r"\bsign(?:ed|ing)? out\b", "退出.*登录"),
    (r"\b(api )?keys?\b(?! ?chain)", "密钥"),
    (r"\bkeychain\b", "钥匙串"),
    (r"\bdiagnose\b", "诊断"),
    (r"\bactivity log\b", "活动日志"),
    (r"\bdeveloper mode\b", "开发者模式"),
    (r"\bserver directory\b", "服务器目录"),
    (r"\bserver packages?\b", "服务器安装包"),
    (r"\binstalling the server\b", "正在安装服务器"),
    (r"^\W*not set\W*$", "未设置"),  # the choice, not "that key is not set any more"
    (r"\bthe tool reported a problem\b", "工具报告了错误"),
    (r"\bthe call failed\b", "调用失败"),
    (r"\bresult data\b", "结果数据"),
    (r"\bonly reads\b", "只读"),
    (r"\bsafe to repeat\b", "可重复执行"),
    (r"\bfolders the server may use\b", "允许.*访问的文件夹"),
    (r"\bruns on this computer\b", "在本机.*运行"),
    (r"\btools?\b", "工具"),
    (r"\bresources?\b", "资源"),
    (r"\bservers?\b", "服务器"),
)


def _zh_messages() -> list[tuple[str, str, str, str]]:
    """(file, context, source, translation) of every finished zh_CN message."""
    found = []
    for path in sorted((translations().I18N / "zh_CN").glob("*.ts")):
        for context in ET.parse(path).getroot().iter("context"):
            name = context.findtext("name") or ""
            for message in context.iter("message"):
                tr = message.find("translation")
                if tr is None or tr.get("type") in ("unfinished", "obsolete", "vanished"):
                    continue
                forms = [f.text or "" for f in tr.iter("numerusform")] or [tr.text or ""]
                found.append((path.name, name, message.findtext("source") or "", " ".join(forms)))
    return found


def glossary_problems(messages: list[tuple[str, str, str, str]]) -> list[str]:
    wrong = []
    for file, context, source, translation in messages:
        plain = source.replace("&", "")  # mnemonics: "&Sign in" is "Sign in"
        plain = re.sub(r"\{[^}]*\}", " ", plain)  # "{server}" is a value, not the word
        for english, chinese in GLOSSARY:
            if re.search(english, plain, re.IGNORECASE) and not re.search(chinese, translation):
                wrong.append(f"{file} [{context}] {source!r} → {translation!r}: say {chinese} for {english}")
    return wrong


def test_glossary_words_in_chinese() -> None:
    problems = glossary_problems(_zh_messages())
    assert not problems, "\n".join(problems)


def test_glossary_check_can_fail() -> None:
    assert glossary_problems([("x.ts", "C", "Connected", "就绪")])
    assert glossary_problems([("x.ts", "C", "Type the API key", "输入 API 令牌")])
    assert not glossary_problems([("x.ts", "C", "Not connected", "未连接")])
    assert not glossary_problems([("x.ts", "C", "your computer's keychain", "系统钥匙串")])
    assert not glossary_problems([("x.ts", "C", "&Sign in", "登录(&S)")])
    assert glossary_problems([("x.ts", "C", "Keys and sign-ins…", "密钥和授权…")])
    assert glossary_problems([("x.ts", "C", "Connecting to %1…", "连接 %1 中…")])
    assert not glossary_problems(
        [("x.ts", "C", "the server did not finish connecting", "服务器没有完成连接")]
    )


# ---- the .qm files -----------------------------------------------------------------------------


def test_release_builds_english_plurals(tmp_path: Path) -> None:
    from PySide6.QtCore import QTranslator

    made = translations().release(tmp_path)
    assert {p.name for p in made} >= {"mcp-desk_en.qm", "mcp-desk_zh_CN.qm"}
    en = QTranslator()
    assert en.load(str(tmp_path / "mcp-desk_en.qm"))
    # QTranslator gives the form; QCoreApplication.translate puts the number in for %n.
    assert en.translate("RegistryBrowser", "%n server(s)", "", 1) == "%n server"
    assert en.translate("RegistryBrowser", "%n server(s)", "", 3) == "%n servers"
    zh = QTranslator()
    assert zh.load(str(tmp_path / "mcp-desk_zh_CN.qm"))
    assert zh.translate("RegistryBrowser", "Server directory") == "服务器目录"
