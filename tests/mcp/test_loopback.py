"""The loopback listener a sign-in's browser comes back to (real sockets on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import socket

import httpx2
import pytest

from app.mcp.loopback import LoopbackListener, PortInUse

pytestmark = pytest.mark.anyio


async def test_good_callback_ends_the_wait_and_closes() -> None:
    async with await LoopbackListener.open() as listener:
        assert listener.redirect_uri.startswith("http://127.0.0.1:")
        listener.expect("s-1")
        async with httpx2.AsyncClient() as client:
            page = await client.get(f"{listener.redirect_uri}?code=c-1&state=s-1&iss=https%3A%2F%2Fas")
            assert page.status_code == 200
            assert "Signed in" in page.text and "go back to MCP Desk" in page.text
            result = await listener.wait(5)
            assert (result.code, result.state, result.iss, result.error) == ("c-1", "s-1", "https://as", None)
            assert "c-1" not in repr(result)
            # One good callback and the listener stops listening.
            with pytest.raises(httpx2.TransportError):
                await client.get(f"{listener.redirect_uri}?code=c-2&state=s-1")


async def test_wrong_or_missing_state_is_refused_and_the_wait_goes_on() -> None:
    async with await LoopbackListener.open() as listener:
        listener.expect("right")
        async with httpx2.AsyncClient() as client:
            wrong = await client.get(f"{listener.redirect_uri}?code=forged&state=wrong")
            missing = await client.get(f"{listener.redirect_uri}?code=forged")
            assert wrong.status_code == missing.status_code == 400
            assert "not the one MCP Desk is waiting for" in wrong.text
            assert not listener.done and listener.refused == 2
            other = await client.get(f"http://127.0.0.1:{listener.port}/favicon.ico")
            assert other.status_code == 404
            good = await client.get(f"{listener.redirect_uri}?code=real&state=right")
            assert good.status_code == 200
        assert (await listener.wait(5)).code == "real"


async def test_error_answer_gets_the_error_page() -> None:
    async with await LoopbackListener.open() as listener:
        listener.expect("s")
        async with httpx2.AsyncClient() as client:
            page = await client.get(f"{listener.redirect_uri}?error=access_denied&state=s")
        assert page.status_code == 400 and "You declined the sign-in" in page.text
        result = await listener.wait(5)
        assert result.error == "access_denied" and result.code is None


async def test_wait_times_out() -> None:
    async with await LoopbackListener.open() as listener:
        listener.expect("s")
        with pytest.raises(TimeoutError):
            await listener.wait(0.05)
        assert not listener.done


async def test_a_given_port_is_reused_and_a_taken_one_says_so() -> None:
    first = await LoopbackListener.open()
    port = first.port
    await first.close()
    again = await LoopbackListener.open(port)
    try:
        assert again.port == port  # a dynamic registration's redirect URI keeps working
        with pytest.raises(PortInUse):
            await LoopbackListener.open(port)
    finally:
        await again.close()


async def test_listens_on_loopback_only() -> None:
    async with await LoopbackListener.open() as listener:
        sock = listener._server.sockets[0]
        assert sock.getsockname()[0] == "127.0.0.1" and sock.family == socket.AF_INET


async def test_a_stuck_connection_does_not_block_the_callback() -> None:
    async with await LoopbackListener.open() as listener:
        listener.expect("s")
        _, stuck = await asyncio.open_connection("127.0.0.1", listener.port)  # sends nothing
        try:
            async with httpx2.AsyncClient() as client:
                page = await client.get(f"{listener.redirect_uri}?code=c&state=s")
            assert page.status_code == 200
        finally:
            stuck.close()
