"""Installed packages: where their files go, and install, update and uninstall.

Files: `<data folder>/bundles/<name>/<version>/` (the data folder is `app.crashreport.data_dir()`,
which honours `MCP_DESK_DATA_DIR`). The server's settings (settings.json, `ServerSettings.extra`)
hold `"bundle": {"name", "version", "folder"}`, so uninstall and update find the files from the
server, and installing a package whose name is already installed is an update of that server.

An update keeps what the person gave: the answers are read back from the entry as it is now (by
matching it against the plan of the version installed, whose manifest.json is in its folder), the
keys stay in the keychain under the same names, and the new files replace the old ones. A new
required question the old version did not have is reported (`MissingAnswer`) before anything is
changed.

Blocking (files, keyring): the window calls these off the GUI thread.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.bundles.archive import Bundle, BundleError, extract
from app.bundles.manifest import Manifest, ManifestError, parse
from app.bundles.plan import SETTINGS_KEY, build_plan
from app.config.model import ServerEntry
from app.config.refs import SECRET_REF
from app.install.plan import ASK_REF, Answer, InstallPlan, Question, apply

if TYPE_CHECKING:
    from app.config.store import ConfigStore
    from app.secrets.store import SecretStore

logger = logging.getLogger(__name__)

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
KEPT = "\0kept"
"""The answer given for a secret whose value stays in the keychain (never stored anywhere)."""


def bundles_dir() -> Path:
    from app.crashreport import data_dir

    return data_dir() / "bundles"


def _safe(text: str) -> str:
    return _SAFE.sub("-", text).strip(".-")[:80] or "package"


def folder_for(manifest: Manifest) -> Path:
    return bundles_dir() / _safe(manifest.name) / _safe(manifest.version)


@dataclass(frozen=True)
class Installed:
    server: str
    name: str
    version: str
    folder: Path


def record_of(store: ConfigStore, server: str) -> Installed | None:
    """The package a server was installed from, or None."""
    if server not in store:
        return None
    raw = store.settings(server).extra.get(SETTINGS_KEY)
    if not isinstance(raw, dict):
        return None
    name, version, folder = raw.get("name"), raw.get("version"), raw.get("folder")
    if not (isinstance(name, str) and isinstance(version, str) and isinstance(folder, str)):
        return None
    return Installed(server, name, version, Path(folder))


def installed(store: ConfigStore) -> list[Installed]:
    return [r for s in store.names() if (r := record_of(store, s)) is not None]


def find(store: ConfigStore, package_name: str) -> Installed | None:
    """The server installed from the package called `package_name`, if any."""
    return next((r for r in installed(store) if r.name == package_name), None)


def remove_files(folder: Path) -> bool:
    """Delete an install folder; only one inside `bundles_dir()` (settings.json can be edited by
    hand: a record pointing at the home folder must not delete it). Returns whether it did."""
    root = bundles_dir().resolve()
    try:
        target = folder.resolve()
    except OSError:
        return False
    if target == root or root not in target.parents:
        logger.warning("not deleting %s: it is not inside %s", folder, root)
        return False
    if not target.exists():
        return False
    shutil.rmtree(target, ignore_errors=True)
    with contextlib.suppress(OSError):
        target.parent.rmdir()  # the package's folder, once no version is left
    return True


def unpack(bundle: Bundle) -> Path:
    """Unpack the package into its install folder (replacing that version's files); returns it."""
    return extract(bundle, folder_for(bundle.manifest))


def plan_for(bundle: Bundle, **kwargs: Any) -> InstallPlan:
    return build_plan(bundle, folder_for(bundle.manifest), **kwargs)


def install(
    store: ConfigStore,
    secrets: SecretStore,
    bundle: Bundle,
    answers: Mapping[str, Answer],
    *,
    name: str | None = None,
    platform: str | None = None,
) -> str:
    """Unpack, fill the plan, store its keys, add and save the entry; returns the server's name.
    Nothing is left behind when a step fails. (The window uses the shared install dialog instead.)"""
    plan = plan_for(bundle, platform=platform)
    applied = apply(plan, answers)  # MissingAnswer before anything is written
    server = name or store.unique_name(plan.name)
    folder = folder_for(bundle.manifest)
    existed = folder.exists()
    unpack(bundle)
    stored: list[str] = []
    try:
        entry = applied.entry
        entry.name = server
        for key, value in applied.secrets.items():
            secrets.set(server, key, value)
            stored.append(key)
        store.add(entry)
        store.settings(server).extra[SETTINGS_KEY] = dict(plan.settings[SETTINGS_KEY])
        store.save()
    except BaseException:
        with contextlib.suppress(Exception):
            if server in store:
                store.remove(server)
        for key in stored:
            with contextlib.suppress(Exception):
                secrets.delete(server, key)
        if not existed:
            remove_files(folder)
        raise
    return server


def uninstall(store: ConfigStore, secrets: SecretStore | None, server: str) -> Installed | None:
    """Remove the server's entry, its keys (when `secrets` is given) and its package's files."""
    rec = record_of(store, server)
    store.remove(server)
    store.save()
    if secrets is not None:
        secrets.delete_server(server)
    if rec is not None:
        remove_files(rec.folder)
    return rec


def _old_plan(rec: Installed, platform: str | None) -> InstallPlan | None:
    """The plan of the version installed, rebuilt from the manifest.json in its folder."""
    from app.bundles import signature

    try:
        data = json.loads((rec.folder / "manifest.json").read_text(encoding="utf-8-sig"))
        manifest = parse(data)
    except (OSError, ValueError, ManifestError) as exc:
        logger.info("the installed package's manifest cannot be read (%s): its values are not kept", exc)
        return None
    files = frozenset(
        str(p.relative_to(rec.folder)).replace(os.sep, "/") for p in rec.folder.rglob("*") if p.is_file()
    )
    old = Bundle(rec.folder / "manifest.json", manifest, signature.Signature("unsigned", 0), None, files, 0)
    try:
        return build_plan(old, rec.folder, platform=platform)
    except BundleError:
        return None


def _pattern(template: str, groups: dict[str, str]) -> re.Pattern[str]:
    out = []
    pos = 0
    for m in ASK_REF.finditer(template):
        out.append(re.escape(template[pos : m.start()]))
        group = f"g{len(groups)}"
        groups[group] = m.group(1)
        out.append(f"(?P<{group}>.*?)")
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return re.compile("".join(out), re.DOTALL)


def recover_answers(
    plan: InstallPlan, entry: ServerEntry, *, path_sep: str = os.pathsep
) -> dict[str, Answer]:
    """The answers that turned `plan` into `entry`, as far as they can be read back. A secret
    question whose reference is still in the entry is answered `KEPT`."""
    by_key = {q.key: q for q in plan.questions}
    found: dict[str, Answer] = {}

    def read(template: str, actual: str) -> None:
        if not ASK_REF.search(template):
            return
        groups: dict[str, str] = {}
        m = _pattern(template, groups).fullmatch(actual)
        if m is None:
            return
        for group, key in groups.items():
            q = by_key.get(key)
            if q is None or key in found:
                continue
            found[key] = _answer(q, m.group(group), path_sep)

    t, a = plan.entry, entry
    for k, v in t.env.items():
        if k in a.env:
            read(v, a.env[k])
    for tv, av in ((t.command, a.command), (t.cwd, a.cwd), (t.url, a.url)):
        if tv and av:
            read(tv, av)
    _read_args(list(t.args), list(a.args), by_key, found, read)
    refs = entry.secret_refs()
    for q in plan.questions:
        if q.secret and q.keyring_name() in refs:
            found[q.key] = KEPT
    return found


def _read_args(
    template: list[str],
    actual: list[str],
    by_key: dict[str, Question],
    found: dict[str, Answer],
    read: Any,
) -> None:
    """Arguments: one for one when the counts agree; else the fixed arguments around one
    several-values hole (`multiple`) mark where its values are."""
    if len(template) == len(actual):
        for tv, av in zip(template, actual, strict=True):
            read(tv, av)
        return
    multi = [
        i
        for i, tv in enumerate(template)
        if (m := ASK_REF.fullmatch(tv)) and by_key.get(m.group(1)) and by_key[m.group(1)].multiple
    ]
    if len(multi) != 1:
        return
    i = multi[0]
    after = len(template) - i - 1
    if len(actual) < i + after:
        return
    for tv, av in zip(template[:i], actual[:i], strict=True):
        read(tv, av)
    for tv, av in zip(template[i + 1 :], actual[len(actual) - after :], strict=True):
        read(tv, av)
    m = ASK_REF.fullmatch(template[i])
    assert m is not None
    found.setdefault(m.group(1), actual[i : len(actual) - after])


def _answer(q: Question, text: str, path_sep: str) -> Answer:
    if SECRET_REF.fullmatch(text):
        return KEPT
    if q.multiple:
        return [p for p in text.split(path_sep) if p]
    if q.kind == "boolean":
        return text.strip().lower() in ("true", "1", "yes")
    if q.kind == "number":
        try:
            return float(text)
        except ValueError:
            return None
    return text


@dataclass(frozen=True)
class Update:
    """An update unpacked and filled in, not yet written to the server list (`stage_update`)."""

    rec: Installed
    new_version: str
    entry: ServerEntry
    secrets: dict[str, str]
    """Keys the new version asks for that the old one did not (kept keys are not here)."""
    record: dict[str, str]
    new_folder: Path
    same_folder: bool

    @property
    def server(self) -> str:
        return self.rec.server

    @property
    def old_version(self) -> str:
        return self.rec.version


def plan_update(
    store: ConfigStore, rec: Installed, bundle: Bundle, *, platform: str | None = None
) -> tuple[InstallPlan, dict[str, Answer]]:
    """The new version's plan and the answers kept from the installed one."""
    plan = plan_for(bundle, platform=platform)
    old = _old_plan(rec, platform)
    kept = recover_answers(old, store.get(rec.server)) if old is not None else {}
    return plan, {k: v for k, v in kept.items() if k in {q.key for q in plan.questions}}


def stage_update(
    store: ConfigStore,
    rec: Installed,
    bundle: Bundle,
    *,
    answers: Mapping[str, Answer] | None = None,
    platform: str | None = None,
) -> Update:
    """Unpack the new version beside the old one and fill its plan with the kept answers (plus
    `answers`, which override them); raises `MissingAnswer` (a new required question) before
    anything is unpacked. Nothing in the server list changes here: `finish_update` does that."""
    plan, kept = plan_update(store, rec, bundle, platform=platform)
    applied = apply(plan, {**kept, **(answers or {})})
    new_secrets = {k: v for k, v in applied.secrets.items() if v != KEPT}  # kept: still in the keychain
    new_folder = folder_for(bundle.manifest)
    same_folder = rec.folder.exists() and new_folder.resolve() == rec.folder.resolve()
    unpack(bundle)
    old_entry = store.get(rec.server)
    entry = applied.entry
    entry.name = rec.server
    entry.disabled = old_entry.disabled
    entry.extra = dict(old_entry.extra)
    return Update(
        rec,
        bundle.manifest.version,
        entry,
        new_secrets,
        dict(plan.settings[SETTINGS_KEY]),
        new_folder,
        same_folder,
    )


def finish_update(store: ConfigStore, staged: Update) -> None:
    """Put the updated entry and record in the store (the caller saves, then `drop_old_files`).
    The server's other settings stay; the approval to run does not carry over when the command
    changed (the trust prompt asks again)."""
    store.update(staged.entry)
    store.settings(staged.server).extra[SETTINGS_KEY] = dict(staged.record)


def drop_old_files(staged: Update, *, failed: bool = False) -> None:
    """After the update was saved: the old version's files go. After it failed: the new ones."""
    if staged.same_folder:
        return
    remove_files(staged.new_folder if failed else staged.rec.folder)


def update(
    store: ConfigStore,
    secrets: SecretStore,
    rec: Installed,
    bundle: Bundle,
    *,
    answers: Mapping[str, Answer] | None = None,
    platform: str | None = None,
) -> Update:
    """Replace the files of `rec.server` with `bundle`'s, keeping its answers and keys (the CLI's
    whole update; the window runs the same steps with its keychain calls off the GUI thread)."""
    staged = stage_update(store, rec, bundle, answers=answers, platform=platform)
    try:
        for key, value in staged.secrets.items():
            secrets.set(rec.server, key, value)
        finish_update(store, staged)
        store.save()
    except BaseException:
        drop_old_files(staged, failed=True)
        raise
    drop_old_files(staged)
    logger.info("%s updated from %s to %s", rec.server, rec.version, staged.new_version)
    return staged
