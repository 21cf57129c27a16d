"""The MCP SDK imported as a client only, without its server package (for the CLI's commands).

Any `mcp.*` import runs the SDK's `mcp/__init__`, which imports the SDK's server side for the
names it re-exports (`ServerSession`, `stdio_server`); `mcp.client.client` imports `Server`,
`MCPServer` and `modern_on_request` only to recognise and drive a server object handed to
`Client` in the same process. That server package (its low-level and MCPServer servers, their
resource and prompt managers, starlette, uvicorn, ...) is about a quarter of the SDK's import, and a
command that connects to a server over stdio or HTTP never runs a line of it.

`import_client_only()` imports the SDK with stand-ins for exactly those names: a stand-in class is
never an instance's type (so `Client`'s in-process check is false, as it is for every transport)
and raises `ServerSideNotLoaded` when something calls it; any other name of the server package
fails to import. Nothing else of the SDK is touched, and nothing is patched after the import.

It is a private dependency on which server names the SDK's client imports, checked at two levels:
- here, at run time: an SDK other than the tested minor version, or one whose client imports
  another server name (the import fails), is imported whole, as without this module;
- in tests/mcp/test_sdk_canary.py: the stand-ins still cover what the tested SDK imports, and a
  stdio call works through them.

Only a process that never serves may use it: the window's engine (tests and embedding hand
`ServerConnection` an in-process server) and `mcp-desk demo-server` import the SDK whole.

A command that talks to a stdio server only (`import_client_only(http=False)`) also leaves the
SDK's HTTP client modules for later (`LATER`): `mcp.client.client` and `mcp/__init__` import them
for names a stdio session never uses, and with them httpx2 (~40 ms, a tenth of the SDK). Each is
a module of forwarders: the first use of any of its names imports the real module in its place.
The window does not leave them: its engine is imported on a worker thread, and an HTTP server's
first connect would otherwise import them on the window's thread.

The SDK checks each message against the wire shapes of its protocol era (`mcp_types._v2025_11_25`
and `_v2026_07_28`, about 300 pydantic models); a session uses a handful of them, of one era (the
engine reads call answers and listings itself: mostly a server's notifications and requests
meet them). Imported through here they are made with pydantic's `defer_build` (`WIRE_BASE`, set
on their common base while they are defined): each is built on its first use, on the thread
that uses it (a millisecond or so, once), and the rest never are: ~12% of the instructions of
the SDK's import, on the way to a command's first output and to the window's first connect.
pydantic documents the setting as changing when a model is built, not how it validates. An SDK
imported whole (a process that serves) builds them all as it defines them.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import logging
import os
import sys
import threading
import types
from collections.abc import Sequence
from typing import Any, NoReturn

logger = logging.getLogger(__name__)

TESTED_SDK = "2.3"
"""The `mcp` minor version whose client imports exactly the names below (pyproject pins it)."""

STAND_INS: dict[str, tuple[str, ...]] = {
    "mcp.server": ("Server",),  # mcp.client.client and mcp.client._memory
    "mcp.server.session": ("ServerSession",),  # mcp/__init__
    "mcp.server.stdio": ("stdio_server",),  # mcp/__init__
    "mcp.server.mcpserver": ("MCPServer",),  # mcp.client.client and mcp.client._memory
    "mcp.server.runner": ("modern_on_request",),  # mcp.client.client
}
"""Each module of the SDK's server package its client side imports, with the names it takes."""

LATER: dict[str, tuple[str, ...]] = {
    "mcp.client.streamable_http": ("streamable_http_client",),  # mcp.client.client
    "mcp.client.session_group": ("ClientSessionGroup",),  # mcp/__init__
}
"""The SDK's HTTP client modules its client imports, with the names it takes: left for their
first use by a process that talks to stdio servers only."""

WIRE_BASE = ("mcp_types._wire_base", "WireModel")
"""The base class of the SDK's per-era wire models, whose config their classes inherit when
defined (pydantic merges a base's `model_config` into each subclass's)."""

WIRE_MODULES = ("mcp_types._v2025_11_25", "mcp_types._v2026_07_28")
"""The modules of those wire models (imported by `mcp_types.methods`, within the SDK's import)."""

CLIENT_MODULES = ("mcp", "mcp.client.client")
"""What is imported with the stand-ins in place: the package and the `Client` it re-exports."""


class ServerSideNotLoaded(RuntimeError):
    """Something in a client-only process used the SDK's server side."""


def _refuse(name: str) -> NoReturn:
    raise ServerSideNotLoaded(
        f"{name} is part of the MCP SDK's server side, which this process did not load "
        "(app.mcp.sdk_client_only)"
    )


def _stand_in_class(module: str, name: str) -> type:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        _refuse(f"{module}.{name}")

    return type(name, (), {"__init__": __init__, "__module__": module, "__doc__": "A stand-in."})


def _stand_in_function(module: str, name: str) -> Any:
    def stand_in(*args: Any, **kwargs: Any) -> NoReturn:
        _refuse(f"{module}.{name}")

    stand_in.__name__ = stand_in.__qualname__ = name
    stand_in.__module__ = module
    return stand_in


_loading = threading.RLock()  # re-entered: the real session_group imports from streamable_http


def _real(module: str) -> types.ModuleType:
    """The real module in place of its forwarders (imported now if it is not yet)."""
    with _loading:
        current = sys.modules.get(module)
        if current is not None and not _is_forwarders(current):
            return current
        sys.modules.pop(module, None)  # the finder is gone from sys.meta_path: the real one is found
        logger.debug("importing %s on its first use", module)
        real = importlib.import_module(module)
        parent, _, leaf = module.rpartition(".")
        setattr(sys.modules[parent], leaf, real)
        return real


def _forwarder(module: str, name: str) -> Any:
    """`name` of the not yet imported `module`: a function that calls the real one, or a class
    whose instances are the real class's (it is nobody's type: an isinstance check is false)."""
    if name[0].isupper():

        def __new__(cls: type, *args: Any, **kwargs: Any) -> Any:
            return getattr(_real(module), name)(*args, **kwargs)

        return type(name, (), {"__new__": __new__, "__module__": module, "__doc__": "A forwarder."})

    def forward(*args: Any, **kwargs: Any) -> Any:
        return getattr(_real(module), name)(*args, **kwargs)

    forward.__name__ = forward.__qualname__ = name
    forward.__module__ = module
    return forward


class _LaterSpec(importlib.machinery.ModuleSpec):
    """The spec of a module of forwarders (LATER)."""


class _StandIns(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the server package's modules the client imports, each made of stand-ins only; and
    with `later`, the HTTP client modules it imports, each made of forwarders."""

    def __init__(self, later: bool = False) -> None:
        self._later = later

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if self._later and fullname in LATER:
            return _LaterSpec(fullname, self)
        if fullname not in STAND_INS:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        if isinstance(spec, _LaterSpec):
            return _forwarders(spec.name)
        module = types.ModuleType(spec.name, "A stand-in (app.mcp.sdk_client_only).")
        # A package with no folder: any other module of it is not found (and fails loudly).
        module.__path__ = []
        for name in STAND_INS[spec.name]:
            if name[0].isupper():
                setattr(module, name, _stand_in_class(spec.name, name))
            else:
                setattr(module, name, _stand_in_function(spec.name, name))
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        pass  # everything was made in create_module


def _forwarders(name: str) -> types.ModuleType:
    module = types.ModuleType(name, "Forwarders to the real module (app.mcp.sdk_client_only).")
    for attribute in LATER[name]:
        setattr(module, attribute, _forwarder(name, attribute))

    def __getattr__(attribute: str) -> Any:  # any other name: the real module, now (PEP 562)
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return getattr(_real(name), attribute)

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


def deferred() -> list[str]:
    """The modules of LATER not imported yet in this process (still forwarders)."""
    return [name for name in LATER if _is_forwarders(sys.modules.get(name))]


def _is_forwarders(module: types.ModuleType | None) -> bool:
    return isinstance(getattr(module, "__spec__", None), _LaterSpec)


def tested_sdk() -> bool:
    """Whether the installed SDK is the minor version the stand-ins were made for."""
    installed = installed_sdk()
    return installed is not None and (installed == TESTED_SDK or installed.startswith(TESTED_SDK + "."))


def installed_sdk() -> str | None:
    """The installed `mcp` version (None if unknown), without importing it: the name of the
    `mcp-X.Y.Z.dist-info` folder next to the package (~0.3 ms; importlib.metadata's search of
    every path entry takes ~8 ms), else what importlib.metadata says (a frozen bundle)."""
    spec = importlib.util.find_spec("mcp")  # finds the package, does not run its __init__
    if spec is not None and spec.origin:
        folder = os.path.dirname(os.path.dirname(spec.origin))
        with contextlib.suppress(OSError):
            for name in os.listdir(folder):
                if name.startswith("mcp-") and name.endswith(".dist-info"):
                    return name[len("mcp-") : -len(".dist-info")]
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mcp")
    except PackageNotFoundError:
        return None


def is_client_only() -> bool:
    """Whether the SDK in this process was imported by `import_client_only()`."""
    spec = getattr(sys.modules.get("mcp.server"), "__spec__", None)
    return spec is not None and isinstance(spec.loader, _StandIns)


def import_client_only(*, http: bool = True) -> bool:
    """Import the SDK without its server package; True if that is what happened. False when the
    SDK is imported already (it stays as it is), is not the tested version, or its client needs
    more of the server side than the stand-ins hold: it is then imported whole (as a plain
    `import mcp` would), or left for the caller's own import. Without `http` (a process that
    talks to stdio servers only), the HTTP client modules are left for their first use (LATER)."""
    if "mcp" in sys.modules:
        return is_client_only()
    if not tested_sdk():
        logger.info("mcp is not %s: the SDK is imported whole", TESTED_SDK)
        return False
    finder = _StandIns(later=not http)
    sys.meta_path.insert(0, finder)
    wire_config = None
    try:
        wire_config = _defer_wire_models()
        for module in CLIENT_MODULES:
            __import__(module)
    except ImportError as exc:
        logger.warning("the MCP SDK's client needs more of its server side (%s): importing it whole", exc)
        _forget_sdk()
        return False
    finally:
        sys.meta_path.remove(finder)
        if wire_config is not None:
            wire_config.pop("defer_build", None)  # the base as it was; its subclasses keep theirs
    return True


def _defer_wire_models() -> dict[str, Any] | None:
    """Have the wire models defined from now on built on first use (WIRE_BASE); the base's config
    to restore, or None when nothing was changed (the SDK's types are laid out differently, or
    the wire models exist already: tests/mcp/test_sdk_client_only.py fails on the first)."""
    module_name, class_name = WIRE_BASE
    if any(name in sys.modules for name in WIRE_MODULES):
        return None
    try:
        base = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        logger.info("no %s.%s in the SDK (%s): its wire models are built when defined", *WIRE_BASE, exc)
        return None
    config = getattr(base, "model_config", None)
    if not isinstance(config, dict) or "defer_build" in config:
        return None
    config["defer_build"] = True
    return config


def wire_models_deferred() -> list[str]:
    """The names of the wire models not built yet in this process (what the tests check)."""
    names = []
    for module_name in WIRE_MODULES:
        module = sys.modules.get(module_name)
        for name, value in vars(module).items() if module is not None else ():
            if isinstance(value, type) and getattr(value, "__pydantic_complete__", True) is False:
                names.append(f"{module_name}.{name}")
    return names


def _forget_sdk() -> None:
    """Drop the half-imported SDK (and its stand-ins) so the next import starts afresh."""
    for name in [n for n in sys.modules if n == "mcp" or n.startswith("mcp.")]:
        del sys.modules[name]
