"""Requests from the server to the person: elicitation, sampling, roots, and the paused clock
(a call's timeout measures the server, not a person answering it)."""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import anyio
import mcp_types as types
from mcp.client.session import ClientRequestContext

from app.mcp import sdk_private
from app.mcp.connection_base import ConnectionCore, _dump
from app.mcp.events import ConnectionState
from app.mcp.handlers import ElicitationRequest, SamplingRequest, schema_defaults
from app.mcp.target import Target

logger = logging.getLogger(__name__)

_R = TypeVar("_R")


class PersonRequests(ConnectionCore):
    """Answers the server's requests to the person through `self.handlers`."""

    _roots: tuple[str, ...]
    _call_clocks: dict[anyio.CancelScope, float]
    _people_waiting: int

    async def _on_elicit(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        if isinstance(params, types.ElicitRequestURLParams):
            request = ElicitationRequest(
                message=params.message, mode="url", url=params.url, elicitation_id=params.elicitation_id
            )
        else:
            schema = dict(params.requested_schema)
            request = ElicitationRequest(
                message=params.message, mode="form", requested_schema=schema, defaults=schema_defaults(schema)
            )
        response = await self._ask_person(
            lambda: self.handlers.elicit(self.name, request), "elicitation", "the client could not ask"
        )
        if isinstance(response, types.ErrorData):
            return response
        content = response.content if response.action == "accept" and request.mode == "form" else None
        return types.ElicitResult(action=response.action, content=content)

    async def _on_sampling(
        self, context: ClientRequestContext, params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult | types.CreateMessageResultWithTools | types.ErrorData:
        request = SamplingRequest(
            messages=[_dump(m) for m in params.messages],
            system_prompt=params.system_prompt,
            max_tokens=params.max_tokens,
            raw=_dump(params),
        )
        response = await self._ask_person(
            lambda: self.handlers.sample(self.name, request), "sampling", "the client could not sample"
        )
        if isinstance(response, types.ErrorData):
            return response
        if response.action != "accept" or response.content is None:
            return types.ErrorData(
                code=-1, message=response.message or "the user declined the sampling request"
            )
        return types.CreateMessageResult.model_validate(
            {
                "role": response.role,
                "content": response.content,
                "model": response.model,
                "stopReason": response.stop_reason,
            }
        )

    async def _ask_person(
        self, ask: Callable[[], Awaitable[_R]], what: str, failure: str
    ) -> _R | types.ErrorData:
        """Run a handler that may wait for a person; a handler that raises answers the server
        with an error instead of breaking the connection."""
        try:
            with self._waiting_on_a_person():
                return await ask()
        except Exception as exc:
            logger.exception("%s handler failed", what)
            return types.ErrorData(code=types.INTERNAL_ERROR, message=f"{failure}: {exc}")

    @contextmanager
    def _waiting_on_a_person(self) -> Iterator[None]:
        """A call's timeout measures the server, not a person filling in a form: stop the clocks
        of the calls in flight while a handler waits, and give them a fresh budget after."""
        self._people_waiting += 1
        if self._people_waiting == 1:
            for scope in self._call_clocks:
                scope.deadline = math.inf
        try:
            yield
        finally:
            self._people_waiting -= 1
            if not self._people_waiting:
                now = anyio.current_time()
                for scope, limit in self._call_clocks.items():
                    scope.deadline = now + limit

    async def _on_list_roots(self, context: ClientRequestContext) -> types.ListRootsResult | types.ErrorData:
        roots = [
            types.Root.model_validate({"uri": _file_uri(r), "name": Path(os.path.expanduser(r)).name or r})
            for r in self._roots
        ]
        return types.ListRootsResult(roots=roots)

    def update_roots(self, roots: tuple[str, ...]) -> bool:
        """Take new roots (answered on the next roots/list); True when they changed."""
        if tuple(roots) == self._roots:
            return False
        self._roots = tuple(roots)
        self.target = _replace_roots(self.target, self._roots)
        return True

    async def set_roots(self, roots: tuple[str, ...]) -> None:
        """New roots from the settings; a ready 2025-era server is told with roots/list_changed."""
        if self.update_roots(roots):
            await self.notify_roots_changed()

    async def notify_roots_changed(self) -> None:
        client = self._client
        if client is not None and self.state == ConnectionState.READY and not self._modern:
            with self._failures("notifications/roots/list_changed"):
                await client.session.send_notification(types.RootsListChangedNotification())

    async def _drive_input_required(self, first: Any, retry: Any) -> Any:
        """2026-07-28 servers ask for input inside results; answer through the same callbacks."""
        if not isinstance(first, types.InputRequiredResult):
            return first
        session = self._require_client().session

        async def dispatch(key: str, req: types.InputRequest) -> types.InputResponse | types.ErrorData:
            ctx = ClientRequestContext(
                session=session, request_id=key, meta=req.params.meta if req.params else None
            )
            return await session.dispatch_input_request(ctx, req)

        return await sdk_private.run_input_required(first, dispatch=dispatch, retry=retry)


def _file_uri(root: str) -> str:
    if "://" in root:
        return root
    return Path(os.path.expanduser(root)).resolve().as_uri()


def _replace_roots(target: Target, roots: tuple[str, ...]) -> Target:
    import dataclasses

    return dataclasses.replace(target, roots=roots)
