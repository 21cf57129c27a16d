"""OAuth sign-in of an http/sse server (app/mcp/auth.py does the protocol): the token store,
the hooks that keep the connect timeout off the person's time, sign_in/cancel_sign_in/sign_out."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from typing import TYPE_CHECKING, Any

import anyio

from app.mcp.events import SIGNED_OUT, WAITING_FOR_BROWSER, ConnectionState, SignInWaiting
from app.mcp.person_requests import PersonRequests

logger = logging.getLogger(__name__)


class NotSignInServer(ValueError):
    """sign_in() on a server that does not sign in with OAuth (stdio, or credentials in a header)."""


class SignIn(PersonRequests):
    """Signing in with OAuth; the run itself (app.mcp.connection) settles in NEEDS_SIGN_IN."""

    secrets: Any
    browser: Any
    _task: asyncio.Task[None] | None
    _attempt: Any
    _next_attempt: Any
    _sign_in_problem: Any
    _wanted_scope: str | None
    _memory_store: Any

    if TYPE_CHECKING:  # the lifecycle (app.mcp.connection) restarts the connection for a sign-in

        def start(self) -> None: ...

        async def stop(self) -> None: ...

        async def wait_settled(self, timeout: float) -> ConnectionState: ...

    @property
    def _oauth_key(self) -> str:
        """The server name the sign-in is stored under: an ad-hoc target may be named by its URL,
        which the store does not take as a name ("/" separates its keys)."""
        return self.name.replace("/", "\u2215")

    async def _usable_store(self) -> Any:
        """The store for the sign-in: the given one, or, when its keychain cannot be read (none,
        locked), this connection's memory, so a server that needs no sign-in still connects
        and one that does keeps its sign-in for this session."""
        from app.secrets.errors import SecretStoreError
        from app.secrets.store import SecretStore

        if self._memory_store is not None:
            return self._memory_store
        store = self._secret_store()
        try:
            await store.aget(self._oauth_key, "oauth.tokens")
        except SecretStoreError as exc:
            self._log("warning", "client", f"sign-in cannot use the keychain ({exc}); it lasts this session")
            self._memory_store = SecretStore(session_only=True)
            return self._memory_store
        return store

    def _secret_store(self) -> Any:
        if self.secrets is None:
            from app.secrets.store import SecretStore

            # No keyring given (ad-hoc targets, embedding): the sign-in lasts this connection.
            self.secrets = SecretStore(session_only=True)
        return self.secrets

    async def _open_auth(self, stack: AsyncExitStack) -> Any:
        from app.mcp.auth import SignInHooks, SignInProblem, open_auth
        from app.secrets.oauth import KeyringTokenStorage

        hooks = SignInHooks(
            waiting=self._on_sign_in_waiting,
            resumed=self._on_sign_in_resumed,
            pause=self._signing_in,
            failed=self._on_sign_in_problem,
        )
        storage = KeyringTokenStorage(await self._usable_store(), self._oauth_key)
        try:
            self._auth = await open_auth(self.target, storage, stack, attempt=self._attempt, hooks=hooks)
        except SignInProblem as exc:
            self._on_sign_in_problem(exc)
            raise
        return self._auth

    def _on_sign_in_waiting(self, url: str) -> None:
        # A step-up of a ready server (a call needing more permissions) keeps it READY: only
        # that call waits; the SignInWaiting event says where the person is.
        if self.state == ConnectionState.CONNECTING:
            self._set_state(ConnectionState.CONNECTING, WAITING_FOR_BROWSER)
        self._emit(SignInWaiting(self.name, url))

    def _on_sign_in_resumed(self) -> None:
        if self.state == ConnectionState.CONNECTING and self.reason == WAITING_FOR_BROWSER:
            self._set_state(ConnectionState.CONNECTING)

    def _on_sign_in_problem(self, problem: Any) -> None:
        """The sign-in will not happen: end this run (it settles in NEEDS_SIGN_IN)."""
        if self._sign_in_problem is not None:
            return
        self._sign_in_problem = problem
        scope = getattr(problem, "scope", None)
        if scope:
            self._wanted_scope = scope
        if self.state == ConnectionState.READY:
            self._lost_reason = problem.reason
            self._lost.set()
        elif self._scope is not None:
            self._scope.cancel()

    @contextmanager
    def _signing_in(self) -> Iterator[None]:
        """The person is in the browser: the connect timeout measures the server, not them
        (the sign-in has its own timeout), and calls in flight stop their clocks too."""
        scope = self._scope
        connecting = scope is not None and not self.was_ready
        if connecting and scope is not None:
            scope.deadline = math.inf
        try:
            with self._waiting_on_a_person():
                yield
        finally:
            if connecting and scope is not None and not scope.cancel_called:
                scope.deadline = anyio.current_time() + self.target.timeout

    @property
    def uses_sign_in(self) -> bool:
        """True for a server that signs in with OAuth (http/sse without credential headers)."""
        return self._inproc is None and self.target.uses_oauth

    @property
    def signing_in(self) -> bool:
        """True while a `sign_in()` waits for the person in the browser."""
        attempt = self._attempt
        return attempt is not None and bool(attempt.waiting)

    async def sign_in(self, *, timeout: float | None = None, browser: Any = None) -> ConnectionState:
        """Connect again, signing in through the browser (`browser`, else the connection's, else
        the system browser); returns the settled state (READY, NEEDS_SIGN_IN with the reason
        why not, FAILED). The stored access token is set aside first: a sign-in asks the person,
        keeping the registration and asking again for the scopes granted before."""
        from app.mcp.auth import SIGN_IN_TIMEOUT, SignInAttempt, SystemBrowser
        from app.secrets.oauth import KeyringTokenStorage

        if not self.uses_sign_in:
            raise NotSignInServer(f"{self.name} does not sign in (its credentials are in its settings)")
        if self._task is not None and not self._task.done():
            await self.stop()
        from mcp.client.auth.utils import union_scopes

        from app.secrets.oauth import TOKENS

        store = await self._usable_store()
        storage = KeyringTokenStorage(store, self._oauth_key)
        old = await storage.get_tokens()
        old_raw = await store.aget(self._oauth_key, TOKENS) if old is not None else None
        extra = union_scopes(old.scope if old is not None else None, self._wanted_scope)
        if old is not None:
            await store.adelete(self._oauth_key, TOKENS)
        self._next_attempt = SignInAttempt(
            browser=browser or self.browser or SystemBrowser(),
            timeout=timeout if timeout is not None else SIGN_IN_TIMEOUT,
            extra_scope=extra,
        )
        self.start()
        await self.wait_settled(math.inf)
        if self.state == ConnectionState.READY:
            self._wanted_scope = None
        elif old_raw is not None and await store.aget(self._oauth_key, TOKENS) is None:
            # A sign-in that did not happen (cancelled, declined, timed out) takes nothing away:
            # the tokens set aside come back (a valid one still works on the next connect).
            await store.aset(self._oauth_key, TOKENS, old_raw)
        return self.state

    def cancel_sign_in(self) -> bool:
        """Stop a sign-in in progress (it settles in NEEDS_SIGN_IN, "sign-in was cancelled");
        False when there was none."""
        attempt = self._attempt
        if attempt is None or self._task is None or self._task.done():
            return False
        attempt.cancel()
        if not attempt.waiting and self.state == ConnectionState.CONNECTING:
            from app.mcp.auth import SignInCancelled

            self._on_sign_in_problem(SignInCancelled())
        return True

    async def sign_out(self) -> None:
        """Forget the tokens and the dynamic registration; the server is left NEEDS_SIGN_IN."""
        from app.mcp.auth import forget

        if self._task is not None and not self._task.done():
            await self.stop()
        await forget(await self._usable_store(), self._oauth_key)
        self._wanted_scope = None
        self._set_state(ConnectionState.NEEDS_SIGN_IN, SIGNED_OUT)
