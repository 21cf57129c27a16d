"""Server packages built by the tests: a Node one (a tiny MCP server in plain JavaScript, no npm
packages) and a Python one (on the `mcp` SDK), plus helpers for hostile zips."""

from __future__ import annotations

import json
import stat
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

# A stdio MCP server in plain JS: newline-delimited JSON-RPC, enough of the protocol for the
# client (unknown methods get -32601, which makes the client fall back to `initialize`).
NODE_SERVER = r"""
const readline = require('readline');
const fs = require('fs');
const path = require('path');
const VERSION = '__VERSION__';
const rl = readline.createInterface({ input: process.stdin });
function send(msg) { process.stdout.write(JSON.stringify(msg) + '\n'); }
const tools = [
  { name: 'whoami', description: 'Says what it was given',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
  { name: 'list_folder', description: 'Lists the chosen folder',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
];
rl.on('line', (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch (e) { return; }
  if (msg.id === undefined) return;
  const reply = (result) => send({ jsonrpc: '2.0', id: msg.id, result });
  switch (msg.method) {
    case 'initialize':
      return reply({ protocolVersion: msg.params.protocolVersion,
                     capabilities: { tools: {} },
                     serverInfo: { name: 'node-bundle', version: VERSION } });
    case 'ping': return reply({});
    case 'tools/list': return reply({ tools });
    case 'tools/call': {
      if (msg.params.name === 'whoami') {
        const key = process.env.API_KEY || '';
        const text = `version=${VERSION} key_length=${key.length} mode=${process.env.MODE || ''}` +
          ` dir=${process.argv[2] || ''} here=${path.basename(__dirname)}`;
        return reply({ content: [{ type: 'text', text }] });
      }
      if (msg.params.name === 'list_folder') {
        const names = fs.readdirSync(process.argv[2]).sort().join(',');
        return reply({ content: [{ type: 'text', text: names }] });
      }
      return send({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'no such tool' } });
    }
    default:
      return send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'method not found' } });
  }
});
"""

PYTHON_SERVER = '''
import os
import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("python-bundle", log_level="WARNING")


@server.tool()
def greet(name: str) -> str:
    """Greets someone, the way the person chose."""
    return f"{os.environ.get('GREETING', 'Hello')}, {name}! (limit {os.environ.get('LIMIT', '')})"


if __name__ == "__main__":
    server.run("stdio")
'''


def png(size: int = 64, rgb: tuple[int, int, int] = (37, 99, 235)) -> bytes:
    """A plain square PNG (a real icon for the screenshots)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(
        b"\x00"
        + b"".join(
            bytes(rgb)
            + (b"\xff" if (x - size / 2) ** 2 + (y - size / 2) ** 2 < (size / 2.2) ** 2 else b"\x00")
            for x in range(size)
        )
        for y in range(size)
    )
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def node_manifest(version: str = "1.0.0", manifest_version: str = "0.3") -> dict[str, Any]:
    return {
        "manifest_version": manifest_version,
        "name": "folder-helper",
        "display_name": "Folder Helper",
        "version": version,
        "description": "Lists the files of a folder you choose.",
        "long_description": "A small test package: a Node.js server with no npm packages.",
        "author": {"name": "MCP Desk tests", "url": "https://example.com/tests"},
        "repository": {"type": "git", "url": "https://example.com/folder-helper.git"},
        "homepage": "https://example.com/folder-helper",
        "icon": "icon.png",
        "server": {
            "type": "node",
            "entry_point": "server/index.js",
            "mcp_config": {
                "command": "node",
                "args": ["${__dirname}/server/index.js", "${user_config.folder}"],
                "env": {"API_KEY": "${user_config.api_key}", "MODE": "${user_config.mode}"},
            },
        },
        "tools": [
            {"name": "whoami", "description": "Says what it was given"},
            {"name": "list_folder", "description": "Lists the chosen folder"},
        ],
        "compatibility": {"platforms": ["darwin", "win32", "linux"], "runtimes": {"node": ">=16.0.0"}},
        "user_config": {
            "api_key": {
                "type": "string",
                "title": "API key",
                "description": "Your key for the folder service",
                "sensitive": True,
                "required": True,
            },
            "folder": {
                "type": "directory",
                "title": "Folder",
                "description": "The folder it may list",
                "required": True,
            },
            "mode": {"type": "string", "title": "Mode", "description": "How it runs", "default": "fast"},
        },
    }


def python_manifest(version: str = "0.2.0") -> dict[str, Any]:
    return {
        "manifest_version": "0.2",
        "name": "greeter-python",
        "display_name": "Greeter (Python)",
        "version": version,
        "description": "Greets people, in Python on the MCP SDK.",
        "author": {"name": "MCP Desk tests"},
        "server": {
            "type": "python",
            "entry_point": "server/main.py",
            "mcp_config": {
                "command": "python",
                "args": ["${__dirname}/server/main.py"],
                "env": {"GREETING": "${user_config.greeting}", "LIMIT": "${user_config.limit}"},
            },
        },
        "tools": [{"name": "greet", "description": "Greets someone"}],
        "compatibility": {"runtimes": {"python": ">=3.10"}},
        "user_config": {
            "greeting": {
                "type": "string",
                "title": "Greeting",
                "description": "How to greet",
                "default": "Hello",
            },
            "limit": {
                "type": "number",
                "title": "Limit",
                "description": "A number",
                "default": 5,
                "min": 1,
                "max": 10,
            },
        },
    }


def write_zip(
    path: Path,
    files: dict[str, bytes | str],
    *,
    modes: dict[str, int] | None = None,
    compression: int = zipfile.ZIP_DEFLATED,
) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0))
            info.compress_type = compression
            mode = (modes or {}).get(name, stat.S_IFREG | 0o644)
            info.external_attr = mode << 16
            zf.writestr(info, data.encode() if isinstance(data, str) else data)
    return path


def node_bundle(path: Path, *, version: str = "1.0.0", manifest: dict[str, Any] | None = None) -> Path:
    m = manifest or node_manifest(version)
    return write_zip(
        path,
        {
            "manifest.json": json.dumps(m, indent=2),
            "icon.png": png(),
            "package.json": json.dumps({"name": "folder-helper", "version": version}),
            "server/index.js": NODE_SERVER.replace("__VERSION__", version),
        },
    )


def python_bundle(path: Path, *, version: str = "0.2.0", manifest: dict[str, Any] | None = None) -> Path:
    return write_zip(
        path,
        {
            "manifest.json": json.dumps(manifest or python_manifest(version), indent=2),
            "requirements.txt": "mcp\n",
            "server/main.py": PYTHON_SERVER,
        },
    )
