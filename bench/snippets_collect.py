"""Collect the config snippets of servers' READMEs into tests/fixtures/snippets/ (run by hand).

    python bench/snippets_collect.py README_DIR

README_DIR holds one folder per server with `README.md` (taken from the npm package with
`npm pack PKG` or the PyPI sdist / JSON API) and `source.txt` (package and version). Every fenced
code block that configures a server (JSON/JSONC/TOML/YAML with `command`, `url`, `serverUrl`,
`httpUrl`, `mcpServers`, `context_servers` or `[mcp_servers...]`) is written verbatim to
`tests/fixtures/snippets/<server>/NN.txt`; `SOURCES.md` says where each came from.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "snippets"
CONFIG_LANGS = {"", "json", "jsonc", "json5", "js", "javascript", "toml", "yaml", "yml"}
MARKERS = re.compile(
    r'"(?:command|url|serverUrl|httpUrl|mcpServers|context_servers|servers)"\s*:|\[mcp_servers\.|^\s*mcpServers:',
    re.MULTILINE,
)
# Tool calls and protocol messages shown in READMEs hold "url" too: not configs.
NOT_CONFIG = re.compile(r'"(?:arguments|jsonrpc|params|inputSchema)"\s*:')
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([A-Za-z0-9_+-]*)[^\n]*$")


def blocks(text: str) -> list[tuple[str, str, str]]:
    """(section heading, language, body) of each fenced block."""
    out = []
    heading = ""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        m = FENCE.match(line)
        if m:
            indent, fence, lang = m.group(1), m.group(2), m.group(3).lower()
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence):
                body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
                i += 1
            out.append((heading, lang, "\n".join(body) + "\n"))
        i += 1
    return out


def main(readmes: Path) -> None:
    sources = [
        "# Where the snippets come from",
        "",
        "Collected by bench/snippets_collect.py from each package's README, verbatim.",
        "",
        "| server | package | file | README section |",
        "|---|---|---|---|",
    ]
    for folder in sorted(p for p in readmes.iterdir() if p.is_dir()):
        readme = folder / "README.md"
        source = (folder / "source.txt").read_text().strip()
        found = [
            (h, lang, b)
            for h, lang, b in blocks(readme.read_text())
            if lang in CONFIG_LANGS and MARKERS.search(b) and not NOT_CONFIG.search(b)
        ]
        target = OUT / folder.name
        target.mkdir(parents=True, exist_ok=True)
        for n, (heading, _lang, body) in enumerate(found, 1):
            (target / f"{n:02d}.txt").write_text(body)
            sources.append(f"| {folder.name} | {source} | {n:02d}.txt | {heading.replace('|', '/')} |")
        print(f"{folder.name}: {len(found)}")
    (OUT / "SOURCES.md").write_text("\n".join(sources) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
