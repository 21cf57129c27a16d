"""Trust before running a local command: what a stdio server would start, what is risky in it, and
whether the person approved exactly that.

The guarantee: a stdio server runs only when the person approved its command, arguments, working
folder and environment variable names as they are now. The approval is a hash of those parts
(`fingerprint`), kept per server in `settings.json` (`ServerSettings.approved_launch`); any change
to one of them asks again. Environment *values* are left out on purpose: they are mostly keys,
rotated without changing what runs, and a `${secret:NAME}` reference is hashed as written, never
resolved. Nothing is approved until the person says so: imported, pasted, linked servers and
servers from older versions have no approval. The one exception is the demo server seeded on
first run: it is this app running its own code (`is_app_own`).

`find_risks` points out, in plain words, what deserves a second look: administrator rights, a
shell given a script on the command line, text piped into a shell, a download that is run, a
program or folder anyone can change. It reads; it never decides.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from app.config.refs import SECRET_REF

if TYPE_CHECKING:
    from app.config.model import ServerEntry, ServerSettings

FINGERPRINT_VERSION = 1

# Risk kinds (stable names: the UI words each one itself).
ADMIN = "admin"
SHELL_SCRIPT = "shell-script"
HIDDEN_SCRIPT = "hidden-script"
LONG_SCRIPT = "long-script"
PIPE_TO_SHELL = "pipe-to-shell"
DOWNLOAD_PIPE_SHELL = "download-pipe-shell"
DOWNLOAD_RUN = "download-run"
TEMP_FOLDER = "temporary-folder"
WORLD_WRITABLE = "world-writable"

_ADMIN_WORDS = {"sudo", "doas", "pkexec", "su", "gsudo", "runas"}
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox"}
_CMD = {"cmd"}
_POWERSHELL = {"powershell", "pwsh"}
# Programs that run what they read on stdin when given no script: "curl … | python3" is curl | sh.
_INTERPRETERS = {"python", "python3", "perl", "ruby", "node", "php"}
_DOWNLOADERS = {"curl", "wget", "fetch", "aria2c", "iwr", "irm", "invoke-webrequest", "invoke-restmethod"}
# Words that run the rest of their line as a command: look through them.
_WRAPPERS = {"env", "nohup", "exec", "command", "builtin", "time", "nice", "stdbuf", "setsid"}
_SEPARATORS = {"&&", "||", ";", "&", ";;", "\n"}
_SUBSTITUTION = re.compile(r"(?:\$\(|`|<\()\s*(?:sudo\s+)?([\w.-]+)")
_PS_RUN = re.compile(r"\b(?:iex|invoke-expression)\b", re.IGNORECASE)
_PS_DOWNLOAD = re.compile(
    r"\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget|downloadstring|downloadfile|start-bitstransfer)\b",
    re.IGNORECASE,
)
_PS_ADMIN = re.compile(r"-verb\s+['\"]?runas\b", re.IGNORECASE)
_WINDOWS_PATH = re.compile(r"^[A-Za-z]:[\\/]")


# ----------------------------------------------------------------------------------- the launch


@dataclass(frozen=True)
class Launch:
    """The parts of a stdio server the person approves, as the file has them (references kept)."""

    command: str
    args: tuple[str, ...] = ()
    cwd: str | None = None
    env_names: tuple[str, ...] = ()  # sorted
    # Names whose value is a `${secret:…}` reference (shown as "a key from your keychain").
    secret_env: frozenset[str] = field(default=frozenset(), compare=False)
    path_env: str | None = field(default=None, compare=False)  # the entry's own PATH, if any

    @classmethod
    def of(cls, entry: ServerEntry) -> Launch | None:
        """The launch of a stdio entry; None for a remote one (nothing runs here)."""
        if entry.transport != "stdio" or not entry.command:
            return None
        path = entry.env.get("PATH")
        return cls(
            command=entry.command,
            args=tuple(entry.args),
            cwd=entry.cwd or None,
            env_names=tuple(sorted(entry.env)),
            secret_env=frozenset(k for k, v in entry.env.items() if SECRET_REF.search(v)),
            path_env=path if path and "${" not in path else None,
        )

    def fingerprint(self) -> str:
        """`sha256:…` of the command, arguments, working folder and environment names."""
        parts = [FINGERPRINT_VERSION, self.command, list(self.args), self.cwd, list(self.env_names)]
        data = json.dumps(parts, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return "sha256:" + hashlib.sha256(data).hexdigest()

    def command_line(self, redact: Callable[[Sequence[str]], Sequence[str]] | None = None) -> str:
        """The full command line as a shell would read it. `${secret:NAME}` stays a reference;
        `redact` (the display layer's secret detector) may mask keys typed in clear."""
        args = list(redact(self.args)) if redact is not None else list(self.args)
        words = [self.command, *args]
        if os.name == "nt":
            return subprocess.list2cmdline(words)
        return shlex.join(words)

    def program(self) -> str | None:
        """Where the command is found (PATH lookup as the child would do it), or None. For
        node/npm/npx/uv/uvx it names the runtime too: "npx of the built-in Node.js 24.19",
        "/usr/local/bin/npx (your Node.js 22.3)" (app.runtimes)."""
        from app.runtimes import kind_of, where

        if kind_of(self.command) is not None:
            env = dict(os.environ)
            if self.path_env is not None:
                env["PATH"] = self.path_env
            return where(self.command, env)
        if _has_separator(self.command):
            return self.command
        path = self.path_env if self.path_env is not None else os.environ.get("PATH", os.defpath)
        return shutil.which(self.command, path=path)


def fingerprint(entry: ServerEntry) -> str | None:
    launch = Launch.of(entry)
    return launch.fingerprint() if launch is not None else None


def is_app_own(entry: ServerEntry) -> bool:
    """True for the bundled demo server: this app running its own code, exactly as it seeds it."""
    from app.config.store import demo_entry

    demo = demo_entry()
    return (
        entry.transport == "stdio"
        and entry.command == demo.command
        and list(entry.args) == list(demo.args)
        and not entry.cwd
        and not entry.env
    )


def needs_approval(entry: ServerEntry, settings: ServerSettings | None) -> bool:
    """True when starting `entry` must first be allowed by the person."""
    launch = Launch.of(entry)
    if launch is None or is_app_own(entry):
        return False
    approved = settings.approved_launch if settings is not None else None
    return approved != launch.fingerprint()


def approve(entry: ServerEntry, settings: ServerSettings) -> None:
    """Remember that the person allowed `entry` as it is now (the caller saves the store)."""
    settings.approved_launch = fingerprint(entry)


# ----------------------------------------------------------------------------------- the risks


@dataclass(frozen=True)
class Risk:
    """Something in a launch worth a second look. `subject` is the part concerned ("sudo",
    "bash -c", a path); `message` says it in plain English (the UI words it from `kind`)."""

    kind: str
    subject: str
    detail: str = ""  # for the folder risks: the folder anyone can change

    @property
    def message(self) -> str:
        s = self.subject
        if self.kind == ADMIN:
            return f"“{s}” runs the program with administrator rights: it can change anything here."
        if self.kind == SHELL_SCRIPT:
            return f"“{s}” runs a shell command written into the command line: whatever it says is run."
        if self.kind == HIDDEN_SCRIPT:
            return f"“{s}” runs an encoded script that cannot be read here."
        if self.kind == LONG_SCRIPT:
            return f"{s}: only its start was checked, and it is too long to read through here."
        if self.kind == PIPE_TO_SHELL:
            return f"“{s}” sends text into a shell, which runs whatever it receives."
        if self.kind == DOWNLOAD_PIPE_SHELL:
            return (
                f"“{s}” downloads a script from the internet and runs it at once: what runs can change "
                "at any time without you seeing it."
            )
        if self.kind == DOWNLOAD_RUN:
            return f"“{s}” downloads a program from the internet and runs it."
        if self.kind == TEMP_FOLDER:
            return f"“{s}” is in a temporary folder: other programs on this computer can put files there."
        if self.kind == WORLD_WRITABLE:
            return f"“{s}” is in a folder anyone on this computer can change ({self.detail})."
        return s


def find_risks(launch: Launch) -> list[Risk]:
    """The risky parts of `launch`, in the order found, each once."""
    found: list[Risk] = []
    paths: list[str] = []
    _simple_command([launch.command, *launch.args], found, paths, depth=0)
    program = launch.program()
    candidates: list[tuple[str, str | None]] = [(program or launch.command, None)]
    if launch.cwd:
        candidates.append((launch.cwd, None))
    candidates += [(p, launch.cwd) for p in paths]
    for path, base in candidates:
        risk = _path_risk(path, base)
        if risk is not None:
            found.append(risk)
    out: list[Risk] = []
    for risk in found:
        if risk not in out:
            out.append(risk)
    return out


def _base(word: str) -> str:
    """`/usr/bin/bash` → `bash`, `C:\\Windows\\cmd.EXE` → `cmd`."""
    name = PurePath(word.replace("\\", "/")).name.lower()
    for ext in (".exe", ".cmd", ".bat", ".com"):
        if name.endswith(ext):
            return name[: -len(ext)]
    return name


def _has_separator(word: str) -> bool:
    return "/" in word or "\\" in word


def _looks_like_path(word: str) -> str | None:
    """The path in a word that looks like one (`/x`, `./x`, `~/x`, `C:\\x`, `--opt=/x`)."""
    if "=" in word and word.startswith("-"):
        word = word.split("=", 1)[1]
    if "://" in word or "${" in word:
        return None
    if word.startswith(("/", "./", "../", "~/", ".\\", "..\\", "~\\")) or _WINDOWS_PATH.match(word):
        return word
    return None


def _strip_wrappers(words: list[str], found: list[Risk]) -> list[str]:
    """Drop `VAR=value`, `env`/`nohup`/`exec`…, and `sudo` (noting it) from the front."""
    i = 0
    while i < len(words):
        word = words[i]
        name = _base(word)
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", word):
            i += 1
        elif name in _WRAPPERS:
            i += 1
            while i < len(words) and words[i].startswith("-"):
                i += 1
        elif name in _ADMIN_WORDS:
            found.append(Risk(ADMIN, name))
            i += 1
            while i < len(words) and words[i].startswith("-"):
                takes_value = words[i] in ("-u", "-g", "-U", "-h", "-p", "-C", "-D", "-R", "-T", "--user")
                i += 2 if takes_value else 1
        else:
            break
    return words[i:]


def _shell_script(name: str, args: list[str]) -> tuple[str, str] | None:
    """For a shell given a script on its command line: (how it was asked, e.g. "bash -c", script)."""
    if name in _SHELLS:
        for i, arg in enumerate(args):
            if arg == "--":
                return None
            if arg in ("-c", "--command") or (
                arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:]
            ):
                rest = [a for a in args[i + 1 :] if not a.startswith("-")]
                return f"{name} {arg}", rest[0] if rest else ""
            if not arg.startswith("-") and not arg.startswith("+"):
                return None  # a script file, not a command line
        return None
    if name in _CMD:
        for i, arg in enumerate(args):
            if arg.lower() in ("/c", "/k", "/r"):
                return f"{name} {arg}", " ".join(args[i + 1 :])
        return None
    if name in _POWERSHELL:
        for i, arg in enumerate(args):
            low = arg.lower()
            if len(low) >= 2 and "-command".startswith(low):  # PowerShell takes -c, -com, -Command
                return f"{name} {arg}", " ".join(args[i + 1 :])
            if low in ("-f", "-file"):
                return None
        return None
    return None


def _encoded_script(name: str, args: list[str]) -> str | None:
    if name not in _POWERSHELL:
        return None
    for arg in args:
        low = arg.lower()
        if len(low) >= 2 and low.startswith("-e") and "-encodedcommand".startswith(low):
            return f"{name} {arg}"
    return None


def _simple_command(words: list[str], found: list[Risk], paths: list[str], *, depth: int) -> None:
    """One command and its arguments (no shell syntax here: the words are the argv)."""
    words = _strip_wrappers(list(words), found)
    if not words:
        return
    name = _base(words[0])
    args = words[1:]
    paths.extend(p for p in (_looks_like_path(w) for w in words) if p is not None)
    encoded = _encoded_script(name, args)
    if encoded is not None:
        found.append(Risk(HIDDEN_SCRIPT, encoded))
        return
    script = _shell_script(name, args)
    if script is None or depth > 4:
        return
    how, text = script
    found.append(Risk(SHELL_SCRIPT, how))
    if name in _POWERSHELL or name in _CMD:
        _powershell_script(text, found)
    _script(text, found, paths, depth=depth + 1)


def _powershell_script(text: str, found: list[Risk]) -> None:
    if _PS_ADMIN.search(text):
        found.append(Risk(ADMIN, "-Verb RunAs"))
    run, download = _PS_RUN.search(text), _PS_DOWNLOAD.search(text)
    if run and download:
        found.append(Risk(DOWNLOAD_PIPE_SHELL, f"{download.group(0)} … {run.group(0)}"))


def _tokens(text: str) -> list[str]:
    """Shell words and operators (`|`, `&&`, `;`, `<(`…); newlines become `;`."""
    lexer = shlex.shlex(text.replace("\r", "").replace("\n", " ; "), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: read it roughly rather than not at all
        return text.split()


@dataclass
class _Stage:
    words: list[str]
    piped: bool  # its stdin is the previous command's output


def _stages(tokens: list[str]) -> list[list[_Stage]]:
    """Commands grouped into pipelines, in order."""
    pipelines: list[list[_Stage]] = [[]]
    current: list[str] = []
    piped = False

    def flush(next_piped: bool) -> None:
        nonlocal current, piped
        if current:
            pipelines[-1].append(_Stage(current, piped))
        current, piped = [], next_piped

    for token in tokens:
        if token in ("|", "|&"):
            flush(True)
        elif token in _SEPARATORS:
            flush(False)
            pipelines.append([])
        elif token in ("(", ")", "{", "}"):
            continue
        else:
            current.append(token)
    flush(False)
    return [p for p in pipelines if p]


def _runs_stdin(name: str, args: list[str]) -> bool:
    """A shell or interpreter that reads its program from stdin (`sh`, `bash -s`, `python3 -`)."""
    if name not in _SHELLS and name not in _INTERPRETERS:
        return False
    for arg in args:
        short = arg.startswith("-") and not arg.startswith("--")
        if arg in ("-", "-s") or (name in _SHELLS and short and "s" in arg[1:]):
            return True
        if not arg.startswith("-"):
            return False
    return True


def _saves_file(name: str, args: list[str]) -> bool:
    """A downloader told to write a file (`curl -o x`, `curl -O`, `wget URL`), not to print it."""
    if name == "wget":
        joined = " ".join(args)
        return not re.search(r"(^|\s)-(\w*)O\s*-(\s|$)|--output-document[= ]-(\s|$)", joined)
    if name == "curl":
        return any(
            a in ("-o", "-O", "--output", "--remote-name", "--remote-name-all")
            or a.startswith("--output=")
            or (a.startswith("-") and not a.startswith("--") and ("o" in a[1:] or "O" in a[1:]))
            for a in args
        )
    return name in ("aria2c", "iwr", "invoke-webrequest")


def _makes_runnable(name: str, args: list[str]) -> bool:
    if name != "chmod":
        return False
    return any(
        "+x" in a or re.fullmatch(r"0?[0-7]*[1357][0-7]{0,2}", a) for a in args if not a.startswith("-")
    )


SCRIPT_CHARS = 20_000
"""Of a shell script, what is read for risks: shlex takes time quadratic in a word's length (a
3 MB one-word script took minutes on the GUI thread), and no real server's script is this long."""


def _script(text: str, found: list[Risk], paths: list[str], *, depth: int) -> None:
    """A shell script (the text after `sh -c`): pipelines, substitutions, download-then-run."""
    if len(text) > SCRIPT_CHARS:
        found.append(Risk(LONG_SCRIPT, f"A shell script of {len(text):,} characters"))
        text = text[:SCRIPT_CHARS]
    for match in _SUBSTITUTION.finditer(text):
        if _base(match.group(1)) in _DOWNLOADERS:
            tool, opener = _base(match.group(1)), match.group(0)[:2].strip()
            found.append(Risk(DOWNLOAD_RUN, f"`{tool} …`" if opener == "`" else f"{opener}{tool} …)"))
    downloaded, previous_download = False, ""
    for pipeline in _stages(_tokens(text)):
        previous: str | None = None
        for stage in pipeline:
            inner: list[Risk] = []
            words = _strip_wrappers(stage.words, inner)
            found.extend(inner)
            if not words:
                continue
            name = _base(words[0])
            args = words[1:]
            if stage.piped and _runs_stdin(name, args):
                if previous in _DOWNLOADERS:
                    found.append(Risk(DOWNLOAD_PIPE_SHELL, f"{previous} … | {name}"))
                else:
                    found.append(Risk(PIPE_TO_SHELL, f"| {name}"))
            if (
                downloaded
                and not stage.piped
                and (
                    _makes_runnable(name, args)
                    or _has_separator(words[0])
                    or (name in _SHELLS | _INTERPRETERS and any(not a.startswith("-") for a in args))
                )
            ):
                then = "chmod +x" if name == "chmod" else words[0] if _has_separator(words[0]) else name
                found.append(Risk(DOWNLOAD_RUN, f"{previous_download} … && {then}"))
                downloaded = False
            if name in _DOWNLOADERS and _saves_file(name, args) and not any(s.piped for s in pipeline[1:]):
                downloaded, previous_download = True, name
            _simple_command(words, found, paths, depth=depth)
            previous = name


@dataclass(frozen=True)
class TrustRequest:
    """One question to the person: may `server` run `launch`? `waiting`: servers asking next."""

    server: str
    launch: Launch
    risks: tuple[Risk, ...] = ()
    waiting: int = 0


# ----------------------------------------------------------------------------------- folders


def _temp_roots() -> list[Path]:
    roots = ["/tmp", "/var/tmp", "/dev/shm", tempfile.gettempdir()]
    roots += [v for v in (os.environ.get(k) for k in ("TMPDIR", "TEMP", "TMP")) if v]
    out: list[Path] = []
    for root in roots:
        try:
            real = Path(os.path.realpath(root))
        except (OSError, ValueError):
            continue
        if real not in out and real != Path(real.anchor):
            out.append(real)
    return out


def _real(path: str, base: str | None) -> Path | None:
    try:
        p = Path(os.path.expanduser(path))
        if not p.is_absolute():
            p = Path(base or os.getcwd()) / p
        return Path(os.path.realpath(p))
    except (OSError, ValueError):
        return None


def _path_risk(path: str, base: str | None) -> Risk | None:
    """A temporary folder, or a folder anyone can change, where `path` lives."""
    real = _real(path, base)
    if real is None:
        return None
    for root in _temp_roots():
        if real == root or root in real.parents:
            return Risk(TEMP_FOLDER, path)
    folder = _world_writable_folder(real)
    if folder is not None:
        return Risk(WORLD_WRITABLE, path, str(folder))
    return None


def _mode(path: Path) -> int | None:
    try:
        return path.stat().st_mode
    except OSError:
        return None


def _world_writable_folder(real: Path) -> Path | None:
    """The folder that lets anyone change what `real` is: the file itself or its folder when
    world-writable, or a world-writable folder above it without the sticky bit (anyone may rename
    what is in it). A path that does not exist yet is judged by the nearest folder that does."""
    if os.name == "nt":
        return None  # Windows has no world-write bit; its ACLs are not read here
    node = real
    while _mode(node) is None and node != node.parent:
        node = node.parent
    mode = _mode(node)
    if mode is not None and mode & stat.S_IWOTH and not stat.S_ISLNK(mode):
        return node
    near = node if mode is not None and stat.S_ISDIR(mode) else node.parent
    first = True
    for folder in _ancestors(near):
        m = _mode(folder)
        if m is not None and m & stat.S_IWOTH and (first or not m & stat.S_ISVTX):
            return folder
        first = False
    return None


def _ancestors(path: Path) -> Iterable[Path]:
    yield path
    yield from path.parents
