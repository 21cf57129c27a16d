"""A package's manifest → an `InstallPlan`: the form (`user_config`), the entry with its holes, and
what to show.

- `${user_config.KEY}` becomes the hole `${ask:KEY}`; a `sensitive` option is a secret question, so
  its answer goes to the keychain and the entry holds `${secret:KEY}`.
- `${__dirname}` (the install folder), `${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`, `${DOWNLOADS}`,
  `${/}` and `${pathSeparator}` are put in at once, in `mcp_config` and in defaults; any other
  `${...}` is left as written, except our own `${secret:…}`/`${ask:…}`/`${env:…}` spellings,
  which a package may not use (it could read another value that way).
- `platform_overrides[sys.platform]` replaces `command`/`args` and adds to `env`.
- The server starts in the install folder (relative paths in the manifest mean files in it).

How each type runs (the command words `node` and `uv` are written as such: `app.runtimes` resolves
them when the server starts — the person's own Node.js/uv, else the built-in one — so the entry
does not name a path that moves when MCP Desk is updated):
- node: `node ENTRY …` as the manifest says.
- python: `uv run --no-project [--python RANGE] [--with-requirements requirements.txt] python …`.
  The spec says a Python package brings its libraries (`server/lib` on `PYTHONPATH`, which the
  manifest's env sets); uv brings the interpreter (a managed Python when the computer has none
  that fits). A package without `server/lib` but with a `requirements.txt` has those installed by
  uv into its cache on first start.
- uv: the manifest's own `uv …` command when it gives one, else `uv run --project FOLDER ENTRY`
  (uv installs the dependencies of its `pyproject.toml` into `FOLDER/.venv` on first start).
- binary: the program inside the package (`.exe` added on Windows when the name has none).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import platformdirs

from app.bundles.archive import Bundle, BundleError
from app.bundles.compat import Compatibility
from app.bundles.manifest import ConfigOption, Manifest, McpConfig
from app.config.model import ServerEntry
from app.install.plan import InstallPlan, Question, ask_ref
from app.words import QT_TRANSLATE_NOOP, fill

SETTINGS_KEY = "bundle"
"""The settings.json key (in the server's `ServerSettings.extra`) recording where it came from."""
_REF = re.compile(r"\$\{([^}]*)\}")
_FORBIDDEN = ("secret:", "ask:", "env:")
MAX_LISTED = 12
PYTHON_COMMANDS = frozenset({"python", "python3", "python.exe", "python3.exe", "py"})
NODE_COMMANDS = frozenset({"node", "node.exe"})


def variables(folder: Path) -> dict[str, str]:
    """The spec's substitution variables for a package installed in `folder`."""
    return {
        "__dirname": str(folder),
        "HOME": str(Path.home()),
        "DESKTOP": platformdirs.user_desktop_dir(),
        "DOCUMENTS": platformdirs.user_documents_dir(),
        "DOWNLOADS": platformdirs.user_downloads_dir(),
        "/": os.sep,
        "pathSeparator": os.sep,
    }


def substitute(text: str, values: dict[str, str], options: set[str]) -> str:
    def repl(m: re.Match[str]) -> str:
        inner = m.group(1)
        if inner.startswith("user_config."):
            key = inner[len("user_config.") :]
            if key in options:
                return ask_ref(key)
            return ""  # the spec: a value not configured is empty
        if inner in values:
            return values[inner]
        if inner.startswith(_FORBIDDEN):
            raise BundleError(f"The package's manifest uses ${{{inner[:60]}}}, which packages may not use.")
        return m.group(0)

    return _REF.sub(repl, text)


def effective_config(manifest: Manifest, platform: str) -> McpConfig:
    base = manifest.mcp_config
    over = manifest.platform_overrides.get(platform)
    if over is None:
        return base
    env = dict(base.env or {})
    env.update(over.env or {})
    return McpConfig(
        command=over.command if over.command is not None else base.command,
        args=over.args if over.args is not None else base.args,
        env=env if (base.env is not None or over.env is not None) else None,
    )


def _default_text(option: ConfigOption, values: dict[str, str]) -> str | None:
    d = option.default
    if d is None:
        return None
    if isinstance(d, bool):
        return "true" if d else "false"
    if isinstance(d, float):
        return str(int(d)) if d.is_integer() else str(d)
    if isinstance(d, tuple):
        return os.pathsep.join(substitute(v, values, set()) for v in d)
    return substitute(d, values, set())


def question(option: ConfigOption, values: dict[str, str]) -> Question:
    return Question(
        key=option.key,
        label=option.title,
        description=option.description,
        kind=option.type,
        required=option.required,
        secret=option.sensitive,
        default=_default_text(option, values),
        multiple=option.multiple and option.type in ("directory", "file", "string"),
        minimum=option.minimum,
        maximum=option.maximum,
        secret_name=option.key,
    )


def _has_lib(bundle: Bundle) -> bool:
    return any(f.startswith(("server/lib/", "server/venv/", "lib/")) for f in bundle.files)


def command_line(bundle: Bundle, folder: Path, platform: str) -> tuple[str, list[str], dict[str, str]]:
    """(command, args, env) with the spec's variables put in and `${ask:KEY}` holes."""
    manifest = bundle.manifest
    values = variables(folder)
    keys = {o.key for o in manifest.user_config}
    config = effective_config(manifest, platform)

    def sub(text: str) -> str:
        return substitute(text, values, keys)

    command = sub(config.command) if config.command else None
    args = [sub(a) for a in (config.args or ())]
    env = {k: sub(v) for k, v in (config.env or {}).items()}
    python_range = manifest.runtimes.get("python")
    kind = manifest.server_type
    base = os.path.basename(command or "").lower()
    if kind == "python" and (command is None or base in PYTHON_COMMANDS):
        if command is None:
            args = [str(folder / manifest.entry_point), *args]
        uv = ["run", "--no-project"]
        if python_range:
            uv += ["--python", python_range]
        if not _has_lib(bundle) and "requirements.txt" in bundle.files:
            uv += ["--with-requirements", str(folder / "requirements.txt")]
        return "uv", [*uv, "python", *args], env
    if kind == "uv" and (command is None or base in PYTHON_COMMANDS):
        uv = ["run", "--project", str(folder)]
        if python_range:
            uv += ["--python", python_range]
        entry = manifest.entry_point or (args.pop(0) if args else "")
        if not entry:
            raise BundleError(NO_ENTRY_POINT)
        return "uv", [*uv, str(folder / entry) if not os.path.isabs(entry) else entry, *args], env
    if command is None:
        raise BundleError(NO_COMMAND)
    if kind == "node" and base in NODE_COMMANDS:
        return "node", args, env
    if kind == "binary" and not os.path.isabs(command):
        program = folder / command
        if platform == "win32" and not program.suffix:
            program = program.with_suffix(".exe")
        return str(program), args, env
    return command, args, env


# The install form's notes, as templates (app.ui.i18n.translate_reason).
TOOLS = QT_TRANSLATE_NOOP("Reasons", "Tools: %1.")
PROMPTS = QT_TRANSLATE_NOOP("Reasons", "Prompts: %1.")
NEEDS = QT_TRANSLATE_NOOP("Reasons", "Needs %1.")
AND_MORE = QT_TRANSLATE_NOOP("Reasons", "%1 and %2 more")
AND_MADE = QT_TRANSLATE_NOOP("Reasons", "%1 (and more it makes as it runs)")
MADE_AS_IT_RUNS = QT_TRANSLATE_NOOP("Reasons", "made as it runs")
NEWER_FORMAT = QT_TRANSLATE_NOOP(
    "Reasons", "This package uses a newer format (%1) than MCP Desk knows; parts of it may be ignored."
)
NO_ENTRY_POINT = QT_TRANSLATE_NOOP("Reasons", "The package's manifest names no `server.entry_point` to run.")
NO_COMMAND = QT_TRANSLATE_NOOP("Reasons", "The package's manifest names no command to start its server.")
TEMPLATES: tuple[str, ...] = (
    NO_ENTRY_POINT,
    NO_COMMAND,
    TOOLS,
    PROMPTS,
    NEEDS,
    NEWER_FORMAT,
    AND_MADE,
    AND_MORE,
    MADE_AS_IT_RUNS,
)


def _names(items: tuple[Any, ...], generated: bool) -> str:
    names = [i.name for i in items[:MAX_LISTED]]
    text = ", ".join(names)
    if len(items) > MAX_LISTED:
        text = fill(AND_MORE, text, len(items) - MAX_LISTED)
    if generated:
        text = fill(AND_MADE, text) if names else MADE_AS_IT_RUNS
    return text


def summary_notes(bundle: Bundle, compat: Compatibility | None) -> list[str]:
    """The sentences the install form shows under the description."""
    m = bundle.manifest
    notes: list[str] = []
    if m.tools or m.tools_generated:
        notes.append(fill(TOOLS, _names(m.tools, m.tools_generated)))
    if m.prompts or m.prompts_generated:
        notes.append(fill(PROMPTS, _names(m.prompts, m.prompts_generated)))
    if compat is not None:
        notes += [fill(NEEDS, n) for n in compat.needs]
        notes += list(compat.problems)
    notes.append(bundle.signature.describe())
    if m.newer_than_known:
        notes.append(fill(NEWER_FORMAT, m.manifest_version[:20]))
    return notes


def build_plan(
    bundle: Bundle,
    folder: Path,
    *,
    platform: str | None = None,
    compat: Compatibility | None = None,
) -> InstallPlan:
    """The plan for installing `bundle` into `folder` (nothing is written here)."""
    platform = platform or sys.platform
    m = bundle.manifest
    command, args, env = command_line(bundle, folder, platform)
    values = variables(folder)
    entry = ServerEntry(name=m.name, command=command, args=args, env=env, cwd=str(folder))
    description = m.description
    if m.long_description and m.long_description.strip() != description.strip():
        description = f"{description}\n\n{m.long_description}" if description else m.long_description
    return InstallPlan(
        name=server_name(m),
        entry=entry,
        questions=[question(o, values) for o in m.user_config],
        source="bundle",
        title=m.title,
        description=description,
        version=m.version,
        author=m.author,
        repository=m.repository,
        website=m.homepage or m.documentation or m.author_url,
        icon=bundle.icon,
        runtime=m.server_type,
        settings={SETTINGS_KEY: record(m, folder)},
        notes=summary_notes(bundle, compat),
    )


def record(manifest: Manifest, folder: Path) -> dict[str, str]:
    return {"name": manifest.name, "version": manifest.version, "folder": str(folder)}


def server_name(manifest: Manifest) -> str:
    """A server name from the package's name (no slashes or control characters)."""
    name = "".join(c if c.isprintable() and c not in "/\\" else "-" for c in manifest.name).strip()
    return name.strip(".") or "server"
