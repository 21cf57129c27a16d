"""Docker servers: is the `docker` program there, and does its daemon answer?

`docker run -i --rm IMAGE` fails in two ways a person can fix, and each gets its own sentence:
no Docker at all, or Docker Desktop (the daemon) not started. `docker version` tells them apart:
it prints the client's version always, and the server's only when the daemon answers.
"""

from __future__ import annotations

import json
import logging
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass

from app.runtimes.model import Runtime, RuntimeMissing
from app.words import QT_TRANSLATE_NOOP, fill

logger = logging.getLogger(__name__)

DOCKER_TIMEOUT = 10.0
"""Docker Desktop that is starting answers slowly; a hung daemon must not hold the start forever."""
NOT_INSTALLED = QT_TRANSLATE_NOOP(
    "Reasons",
    "Docker is not installed: this server runs in a Docker container; "
    "install Docker Desktop (or the docker engine), then try again",
)
NOT_RUNNING = QT_TRANSLATE_NOOP(
    "Reasons", "Docker is installed but not running: start Docker Desktop (or the docker service)"
)
NO_ANSWER = QT_TRANSLATE_NOOP("Reasons", "docker did not answer within %1 s")
TEMPLATES: tuple[str, ...] = (NOT_INSTALLED, NOT_RUNNING, NO_ANSWER)
DOCKER_DIRS = ("/Applications/Docker.app/Contents/Resources/bin",)
"""Docker Desktop's own folder on macOS: the `docker` link in /usr/local/bin is optional."""


@dataclass(frozen=True)
class DockerStatus:
    client_version: str | None
    server_version: str | None
    error: str | None

    @property
    def running(self) -> bool:
        return self.server_version is not None


def docker_status(executable: str, env: Mapping[str, str]) -> DockerStatus:
    """Ask `docker version` (blocking, up to DOCKER_TIMEOUT: call it off the event loop)."""
    try:
        out = subprocess.run(
            [executable, "version", "--format", "{{json .}}"],
            capture_output=True,
            text=True,
            timeout=DOCKER_TIMEOUT,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return DockerStatus(None, None, fill(NO_ANSWER, f"{DOCKER_TIMEOUT:g}"))
    except OSError as exc:
        return DockerStatus(None, None, str(exc))
    client = server = None
    try:
        data = json.loads(out.stdout.strip().splitlines()[0]) if out.stdout.strip() else {}
    except (ValueError, IndexError):
        data = {}
    if isinstance(data, dict):
        client = _version_of(data.get("Client"))
        server = _version_of(data.get("Server"))
    error = out.stderr.strip().splitlines()[-1] if out.stderr.strip() else None
    return DockerStatus(client, server, error)


def _version_of(part: object) -> str | None:
    if isinstance(part, dict):
        version = part.get("Version")
        return str(version) if version else None
    return None


def check_docker(executable: str | None, env: Mapping[str, str]) -> Runtime:
    """The Docker runtime when the daemon answers; RuntimeMissing with the reason otherwise."""
    if executable is None:
        raise RuntimeMissing("docker", NOT_INSTALLED)
    status = docker_status(executable, env)
    if not status.running:
        logger.info("docker at %s does not answer: %s", executable, status.error)
        raise RuntimeMissing("docker", NOT_RUNNING)
    return Runtime("docker", status.server_version or status.client_version, False, executable)
