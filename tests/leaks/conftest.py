"""The window's qasync loop fixtures, shared with tests/ui (the leak test drives the window too),
and the OAuth server's.

Both folders' tests may run in one session: each then holds a session loop of its own, and
neither is stopped before the session ends (which is what a qasync loop cannot survive)."""

from tests.servers.oauth_fixtures import oauth_server_process
from tests.ui.conftest import _qasync_loop, aloop

__all__ = ["_qasync_loop", "aloop", "oauth_server_process"]
