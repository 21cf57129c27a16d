"""Docker servers: "not installed" and "installed but not running" are told apart, for real."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.runtimes import RuntimeMissing, resolve_command, runtime_for, search_path
from app.runtimes import resolve as resolve_mod
from app.runtimes.docker import NOT_INSTALLED, NOT_RUNNING, docker_status

DOCKER = shutil.which("docker") or "/usr/local/bin/docker"


def test_docker_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_path, "HOMEBREW_DIRS", ())
    monkeypatch.setattr(resolve_mod, "DOCKER_DIRS", ())
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    assert shutil.which("docker", path=env["PATH"]) is None
    with pytest.raises(RuntimeMissing) as caught:
        resolve_command("docker", env)
    assert caught.value.kind == "docker"
    assert caught.value.reason == NOT_INSTALLED
    assert caught.value.reason.startswith("Docker is not installed")


@pytest.mark.skipif(not Path(DOCKER).exists(), reason="no docker client on this machine")
def test_docker_installed_but_not_running(tmp_path: Path) -> None:
    # A daemon address where nothing listens: the real client, the real "cannot connect".
    env = {
        "PATH": str(Path(DOCKER).parent),
        "HOME": str(tmp_path),
        "DOCKER_HOST": f"unix://{tmp_path}/none.sock",
    }
    status = docker_status(DOCKER, env)
    assert status.client_version and not status.running
    with pytest.raises(RuntimeMissing) as caught:
        resolve_command("docker", env)
    assert caught.value.reason == NOT_RUNNING
    assert "Docker is installed but not running: start Docker Desktop (or the docker service)" in str(
        caught.value
    )
    runtime = runtime_for("docker")  # for the screens: found, no daemon question
    assert runtime is not None and runtime.kind == "docker"


def test_docker_running_is_reported_with_its_version(tmp_path: Path) -> None:
    """A `docker` whose daemon answers (a stand-in printing what `docker version` prints)."""
    fake = tmp_path / "docker"
    fake.write_text('#!/bin/sh\necho \'{"Client":{"Version":"28.2.2"},"Server":{"Version":"28.1.0"}}\'\n')
    fake.chmod(0o755)
    r = resolve_command("docker", {"PATH": str(tmp_path), "HOME": str(tmp_path)})
    assert r.executable == str(fake)
    assert r.runtime is not None and r.runtime.version == "28.1.0" and r.runtime.kind == "docker"
