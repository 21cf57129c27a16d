"""`run_plan`: the terminal's side of an install plan. Answers from `--set`, the rest asked (a key
with getpass), exit 2 naming what is missing without a terminal and nothing written, the key in
the (memory) keyring and only a reference in servers.json, and the trust gate: `--trust`
approves, a terminal asks y/N, otherwise added but not allowed to run (exit 5)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from app.cli.main import CommandError
from app.config.model import ServerEntry
from app.config.store import ConfigStore
from app.config.trust import needs_approval
from app.install.plan import InstallPlan, Question, ask_ref
from app.secrets.store import SecretStore
from tests.support.memory_keyring import MemoryKeyring

KEY = "sk-cli-typed-0123456789abcdef"


def plan() -> InstallPlan:
    entry = ServerEntry(
        name="weather",
        command=sys.executable,
        args=["-m", "weather", "--units", ask_ref("units"), "--cache", ask_ref("cache")],
        env={"WEATHER_KEY": ask_ref("key")},
    )
    return InstallPlan(
        name="weather",
        entry=entry,
        source="link",
        questions=[
            Question("key", "Weather API key", required=True, secret=True, placeholder="YOUR_KEY"),
            Question("units", "Units", kind="choice", choices=("metric", "imperial"), default="metric"),
            Question("cache", "Cache folder", kind="directory"),
        ],
    )


@pytest.fixture
def store(config_dir: Path) -> ConfigStore:
    s = ConfigStore(config_dir)
    s.load()
    return s


def run(
    store: ConfigStore, *, answers: dict[str, str], trust: bool = False, interactive: bool = False
) -> tuple[int, str]:
    from app.cli.install import run_plan

    out = io.StringIO()
    code = run_plan(
        plan(), store, SecretStore(), answers=answers, trust=trust, out=out, interactive=interactive
    )
    return code, out.getvalue()


def saved(config_dir: Path) -> dict[str, object]:
    data = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))
    servers = data["mcpServers"]
    assert isinstance(servers, dict)
    return servers


def test_without_a_terminal_a_missing_key_is_named_and_nothing_is_written(
    store: ConfigStore, config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    with pytest.raises(CommandError) as err:
        run(store, answers={"units": "imperial"})
    assert err.value.exit_code == 2
    assert "key (Weather API key)" in str(err.value) and "--set" in str(err.value)
    assert "units" not in str(err.value)  # answered; and cache is optional
    assert not (config_dir / "servers.json").exists() or "weather" not in saved(config_dir)
    assert memory_keyring.store == {}


def test_set_answers_add_it_with_the_key_in_the_keyring_but_not_allowed_to_run(
    store: ConfigStore, config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    code, text = run(store, answers={"key": KEY})
    assert code == 5 and "not allowed to run yet" in text and "--trust" in text
    entry = saved(config_dir)["weather"]
    assert isinstance(entry, dict)
    assert entry["env"] == {"WEATHER_KEY": "${secret:key}"}
    assert entry["args"] == ["-m", "weather", "--units", "metric"]  # the optional folder left out
    assert KEY in memory_keyring.store.values()
    for path in config_dir.rglob("*"):
        assert not path.is_file() or KEY.encode() not in path.read_bytes()
    assert needs_approval(store.get("weather"), store.settings("weather"))


def test_trust_approves_and_a_bad_set_is_refused(store: ConfigStore, config_dir: Path) -> None:
    with pytest.raises(CommandError, match="must be one of: metric, imperial"):
        run(store, answers={"key": KEY, "units": "kelvin"}, trust=True)
    with pytest.raises(CommandError, match="asks no such value"):
        run(store, answers={"key": KEY, "colour": "red"}, trust=True)
    code, text = run(store, answers={"key": KEY, "units": "imperial"}, trust=True)
    assert code == 0 and "allowed to run" in text
    fresh = ConfigStore(config_dir)
    fresh.load()
    assert not needs_approval(fresh.get("weather"), fresh.settings("weather"))
    # A second install of the same plan gets a name of its own.
    code, _ = run(store, answers={"key": KEY}, trust=True)
    assert code == 0 and "weather-2" in store


def test_on_a_terminal_the_rest_is_asked_and_the_key_with_getpass(
    store: ConfigStore, config_dir: Path, memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts: list[str] = []

    def fake_getpass(prompt: str, stream: object = None) -> str:
        prompts.append(prompt)
        return KEY

    monkeypatch.setattr("getpass.getpass", fake_getpass)
    folder = config_dir.parent / "cache"
    # units: a wrong answer is asked again; cache: a folder; then "y" to the trust question.
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"kelvin\nimperial\n{folder}\ny\n"))
    code, text = run(store, answers={}, interactive=True)
    assert code == 0, text
    assert prompts == ["Weather API key: "]
    assert "(the example said YOUR_KEY)" in text
    assert "Units (metric / imperial) [metric] (optional): " in text
    assert "must be one of" in text
    assert "Allow this program to run? [y/N]" in text and KEY not in text
    entry = saved(config_dir)["weather"]
    assert isinstance(entry, dict)
    assert entry["args"] == ["-m", "weather", "--units", "imperial", "--cache", str(folder)]
    assert not needs_approval(store.get("weather"), store.settings("weather"))
