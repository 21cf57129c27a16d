"""Translations of the window: one Qt `.ts` file per source module, built into one `.qm` per language.

    python packaging/translations.py update [app/ui/x.py ...]   # extract strings (lupdate), reuse known ones
    python packaging/translations.py todo [--lang zh_CN]        # unfinished strings, as JSON
    python packaging/translations.py apply FILE.json            # fill translations from a JSON list
    python packaging/translations.py release [--out DIR]        # .ts -> resources/i18n/mcp-desk_LANG.qm
    python packaging/translations.py check [app/ui/x.py ...]    # exit 1: a string new, gone, unfinished

Why one `.ts` per module (resources/i18n/LANG/app.ui.window.ts for app/ui/window.py): the files
follow the ownership of the sources, so two people changing two modules never edit the same
translation file, and `-locations none` keeps line moves from touching them at all. When a string
moves to another module (a class split out of window.py), `update` takes its translation from the
file it left, so nothing translated is lost.

`en` holds only plural forms ("%n tool(s)" -> "1 tool" / "2 tools"): English needs them too.
The `.qm` files are build output (git-ignored); the set-up (packaging/venv.sh) runs `release`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "app" / "ui"
CORE_SOURCES = (
    ROOT / "app" / "mcp" / "reasons.py",
    ROOT / "app" / "mcp" / "auth.py",
    ROOT / "app" / "mcp" / "legacy_sse.py",
    ROOT / "app" / "mcp" / "session_recovery.py",
    ROOT / "app" / "registry" / "client.py",
    ROOT / "app" / "registry" / "convert.py",
    ROOT / "app" / "bundles" / "archive.py",
    ROOT / "app" / "bundles" / "compat.py",
    ROOT / "app" / "bundles" / "plan.py",
    ROOT / "app" / "bundles" / "signature.py",
    ROOT / "app" / "runtimes" / "docker.py",
    ROOT / "app" / "runtimes" / "installing.py",
    ROOT / "app" / "runtimes" / "resolve.py",
)
"""Core modules with sentences marked for the window (`QT_TRANSLATE_NOOP` of app.words, Qt-free);
each lists them in its `TEMPLATES` (app.ui.i18n.translate_reason reads the same modules)."""
I18N = ROOT / "resources" / "i18n"
# language -> extra lupdate options
LANGS: dict[str, list[str]] = {"zh_CN": [], "en": ["-pluralonly"]}
if TYPE_CHECKING:
    Tree = ET.ElementTree[ET.Element[str]]  # a parsed .ts file (its root is never None)
MARKERS = ("tr(", "translate(", "QT_TR_NOOP", "QT_TRANSLATE_NOOP")


def tool(name: str) -> str:
    """lupdate / lrelease: the binary inside the PySide6 package of this Python, else the
    pyside6-lupdate / pyside6-lrelease wrapper next to it (the venv) or on PATH.

    The binary first: the wrapper is a Python start-up and a PySide6 import (about 0.6 s) before
    the tool itself runs (0.03 s), and `update`/`check` run it twice per module."""
    spec = importlib.util.find_spec("PySide6")
    folders = (spec.submodule_search_locations or []) if spec is not None else []
    for folder in folders:
        for candidate in (Path(folder) / name, Path(folder) / f"{name}.exe"):
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    here = Path(sys.executable).parent / f"pyside6-{name}"
    if here.exists():
        return str(here)
    found = shutil.which(f"pyside6-{name}")
    if not found:
        raise SystemExit(f"pyside6-{name} not found: install PySide6 into this Python")
    return found


def module_of(source: Path) -> str:
    return ".".join(source.resolve().relative_to(ROOT).with_suffix("").parts)


def sources() -> list[Path]:
    found = []
    for path in [*sorted(SOURCES.rglob("*.py")), *(p for p in CORE_SOURCES if p.exists())]:
        text = path.read_text(encoding="utf-8")
        if any(marker in text for marker in MARKERS):
            found.append(path)
    return found


def ts_path(lang: str, module: str, base: Path = I18N) -> Path:
    return base / lang / f"{module}.ts"


# ---- reading and writing .ts files -------------------------------------------------------------


def _messages(tree: Tree) -> Iterable[tuple[str, ET.Element]]:
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            yield name, message


def _key(context: str, message: ET.Element) -> tuple[str, str, str]:
    return context, message.findtext("source") or "", message.findtext("comment") or ""


def _finished(message: ET.Element) -> bool:
    translation = message.find("translation")
    return translation is not None and translation.get("type") not in ("unfinished", "obsolete", "vanished")


def _write(tree: Tree, path: Path) -> None:
    """Write a .ts file the way lupdate does (contexts at the margin, `<x></x>` for empty elements,
    quotes as entities), so the next `update` leaves a file that `apply` wrote unchanged."""
    root = tree.getroot()
    root.text = "\n"
    contexts = list(root)
    for context in contexts:
        ET.indent(context, space="    ")
        context.tail = "\n"
    body = ET.tostring(root, encoding="unicode", short_empty_elements=False)
    body = body.replace("'", "&apos;")  # attributes are in double quotes: only text has these
    body = re.sub(r">[^<]*<", lambda m: m.group(0).replace('"', "&quot;"), body)
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")


def _content(path: Path) -> list[tuple[str, ...]]:
    """What a .ts file says, whatever its layout: each message's context, source, comment, kind
    and translation (its state and forms)."""
    found: list[tuple[str, ...]] = []
    for context, message in _messages(ET.parse(path)):
        tr = message.find("translation")
        state = "missing" if tr is None else tr.get("type") or "finished"
        forms = [] if tr is None else [f.text or "" for f in tr.iter("numerusform")] or [tr.text or ""]
        found.append((*_key(context, message), message.get("numerus") or "", state, *forms))
    return sorted(found)


def memory(lang: str, base: Path = I18N) -> dict[tuple[str, str, str], ET.Element]:
    """Every finished translation of a language, by (context, source, comment)."""
    known: dict[tuple[str, str, str], ET.Element] = {}
    for path in sorted((base / lang).glob("*.ts")):
        for context, message in _messages(ET.parse(path)):
            if _finished(message):
                known[_key(context, message)] = message.find("translation")  # type: ignore[assignment]
    return known


def _fill_from(path: Path, known: dict[tuple[str, str, str], ET.Element]) -> int:
    tree = ET.parse(path)
    filled = 0
    for context, message in _messages(tree):
        if _finished(message):
            continue
        found = known.get(_key(context, message))
        if found is None:
            continue
        old = message.find("translation")
        if old is not None:
            message.remove(old)
        copy = ET.fromstring(ET.tostring(found))
        copy.tail = None
        message.append(copy)
        filled += 1
    if filled:
        _write(tree, path)
    return filled


# ---- commands -----------------------------------------------------------------------------------


def update(paths: list[Path], base: Path = I18N, quiet: bool = False) -> None:
    all_sources = sources()
    targets = paths or all_sources
    for lang, options in LANGS.items():
        known = memory(lang, base)
        (base / lang).mkdir(parents=True, exist_ok=True)
        if not paths:  # a full update drops the files of modules that are gone or have no strings
            wanted = {module_of(p) for p in all_sources}
            for ts in (base / lang).glob("*.ts"):
                if ts.stem not in wanted:
                    ts.unlink()

        def extract(source: Path, lang: str = lang, options: list[str] = options) -> None:
            ts = ts_path(lang, module_of(source), base)
            cmd = [tool("lupdate"), str(source), "-ts", str(ts), "-locations", "none", "-no-obsolete"]
            cmd += ["-target-language", lang, "-silent", *options]
            subprocess.run(cmd, check=True)

        # lupdate is a process per file; a few at once roughly halves a full update.
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(extract, targets))
        for source in targets:
            ts = ts_path(lang, module_of(source), base)
            if ts.exists() and not list(_messages(ET.parse(ts))):
                ts.unlink()  # -pluralonly on a module without plurals
                continue
            filled = _fill_from(ts, known) if ts.exists() else 0
            if filled and not quiet:
                print(f"{ts.relative_to(base)}: {filled} translation(s) reused")


def unfinished(lang: str, base: Path = I18N) -> list[dict[str, object]]:
    todo: list[dict[str, object]] = []
    for path in sorted((base / lang).glob("*.ts")):
        for context, message in _messages(ET.parse(path)):
            if not _finished(message):
                item: dict[str, object] = {"lang": lang, "file": path.name, "context": context}
                item["source"] = message.findtext("source") or ""
                if message.findtext("comment"):
                    item["comment"] = message.findtext("comment")
                item["numerus"] = message.get("numerus") == "yes"
                item["translation"] = [""] if item["numerus"] else ""
                todo.append(item)
    return todo


def apply(entries: list[dict[str, object]], base: Path = I18N) -> int:
    """Fill translations: each entry has lang (default zh_CN), context, source, [comment],
    translation (a string, or a list of plural forms for a %n string)."""
    by_lang: dict[str, dict[tuple[str, str, str], object]] = {}
    for e in entries:
        key = (str(e["context"]), str(e["source"]), str(e.get("comment") or ""))
        by_lang.setdefault(str(e.get("lang") or "zh_CN"), {})[key] = e["translation"]
    done = 0
    for lang, wanted in by_lang.items():
        for path in sorted((base / lang).glob("*.ts")):
            tree = ET.parse(path)
            changed = False
            for context, message in _messages(tree):
                value = wanted.get(_key(context, message))
                if value in (None, "", [], [""]):
                    continue
                old = message.find("translation")
                if old is not None:
                    message.remove(old)
                new = ET.SubElement(message, "translation")
                if isinstance(value, list):
                    for form in value:
                        ET.SubElement(new, "numerusform").text = str(form)
                else:
                    new.text = str(value)
                changed = True
                done += 1
            if changed:
                _write(tree, path)
    return done


def release(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for lang in LANGS:
        files = sorted(str(p) for p in (I18N / lang).glob("*.ts"))
        if not files:
            continue
        qm = out / f"mcp-desk_{lang}.qm"
        subprocess.run([tool("lrelease"), "-silent", *files, "-qm", str(qm)], check=True)
        made.append(qm)
    return made


def check() -> list[str]:
    """What is wrong: files that `update` would change (a string new or gone, a translation it
    would take from another file) and unfinished strings. Compared by content, not layout."""
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "i18n"
        if I18N.exists():
            shutil.copytree(I18N, copy)
        else:
            copy.mkdir()
        update([], base=copy, quiet=True)
        for lang in LANGS:
            before = {p.name: _content(p) for p in (I18N / lang).glob("*.ts")}
            after = {p.name: _content(p) for p in (copy / lang).glob("*.ts")}
            for name in sorted(set(before) | set(after)):
                old, new = before.get(name, []), after.get(name, [])
                if old == new:
                    continue
                keys_old, keys_new = {m[:4] for m in old}, {m[:4] for m in new}
                added, gone = len(keys_new - keys_old), len(keys_old - keys_new)
                what = f"{added} new, {gone} gone" if added or gone else "translations to reuse"
                problems.append(f"{lang}/{name}: out of date, {what} (run packaging/translations.py update)")
            for item in unfinished(lang, copy):
                problems.append(f"{lang}/{item['file']}: unfinished: [{item['context']}] {item['source']!r}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_update = sub.add_parser("update")
    p_update.add_argument("paths", nargs="*", type=Path)
    p_todo = sub.add_parser("todo")
    p_todo.add_argument("--lang", default=None)
    p_apply = sub.add_parser("apply")
    p_apply.add_argument("file", type=Path)
    p_release = sub.add_parser("release")
    p_release.add_argument("--out", type=Path, default=I18N)
    p_check = sub.add_parser("check")
    p_check.add_argument("paths", nargs="*", type=Path, help="only these modules' files")
    args = parser.parse_args(argv)
    if args.command == "update":
        update([p.resolve() for p in args.paths])
    elif args.command == "todo":
        langs = [args.lang] if args.lang else list(LANGS)
        print(json.dumps([i for lang in langs for i in unfinished(lang)], ensure_ascii=False, indent=1))
    elif args.command == "apply":
        print(f"{apply(json.loads(args.file.read_text(encoding='utf-8')))} translation(s) written")
    elif args.command == "release":
        for qm in release(args.out):
            print(qm)
    elif args.command == "check":
        problems = check()
        if args.paths:
            mine = [f"/{module_of(p)}.ts:" for p in args.paths]
            problems = [line for line in problems if any(m in line for m in mine)]
        for line in problems:
            print(line)
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
