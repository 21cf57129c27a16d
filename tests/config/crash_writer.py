"""Child process of the crash test: save the server list in a loop until killed.

Version k of the file is a pure function of k (`version(k)`), so the parent can check that what it
finds after SIGKILL is exactly one of the versions this child started to write. The child prints
k (flushed) before each save, and "ready" once it has loaded the previous file.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any


def version(k: int) -> dict[str, Any]:
    # Sizes vary (0 to ~7 KB) so some writes span several pages.
    return {"mcpServers": {"crash": {"command": "x", "args": [str(k)], "env": {"PAD": "p" * (k % 37 * 200)}}}}


def main(directory: str, start: int) -> None:
    from app.config.model import ServerEntry
    from app.config.store import ConfigStore

    store = ConfigStore(Path(directory))
    store.load()  # must parse: it is whatever the previous child left
    if "crash" not in store:
        store.add(ServerEntry(name="crash", command="x"))
    for name in [n for n in store.names() if n != "crash"]:
        store.remove(name)
    print("ready", flush=True)
    k = start
    while True:
        entry = ServerEntry.from_json("crash", version(k)["mcpServers"]["crash"])
        store.update(entry)
        print(k, flush=True)
        store.save()
        k += 1


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
