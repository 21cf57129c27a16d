"""The connection engine: one `ServerConnection` per MCP server, a `ConnectionManager` over them.

No Qt here. Importing this package is cheap on purpose: the SDK (about 0.5 s to import) is only
pulled in by `app.mcp.connection` and `app.mcp.manager`, so the CLI and the GUI can show something
first and import the engine when they need it.

Modules, from the outside in:

- `target`     `Target` (what to connect to, secrets resolved), `target_from_config`,
               `target_from_command_line`. No SDK import.
- `events`     `ConnectionState` (NEEDS_SIGN_IN included), `StateChanged`, `CatalogChanged`
               (+ `CatalogDiff`), `LogLine`, `Progress`, `Traffic`, `ResourceUpdated`,
               `SignInWaiting`; sinks are plain callables; `EventStream` turns them into an
               async iterator. No SDK import.
- `catalog`    `Catalog`, `ToolInfo`, `ResourceInfo`, `ResourceTemplateInfo`, `PromptInfo` (plain,
               built from the wire dicts). No SDK import.
- `results`    `ToolCallResult`, `CallFailed`, `CallTimedOut`, `ToolGone`, `NotConnected`.
- `handlers`   `ClientHandlers` (what the GUI implements), `HeadlessHandlers`, request/response types.
- `connection` `ServerConnection`: the owner task, the state machine, calls and requests.
- `manager`    `ConnectionManager`: all servers at once, reconnects, qualified tool names.
- `auth`       Sign-in (OAuth through the SDK's providers): `Browser`, `AuthStatus`, `read_status`,
               `forget`, `HeadlessBrowser`, `SystemBrowser`. Imports the SDK's auth code.
- `loopback`   The 127.0.0.1 listener a sign-in's browser comes back to. No SDK import.
- `stdio`, `http`, `tap`, `masking`, `reasons`: transports and the helpers behind the above.
"""
