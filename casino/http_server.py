"""The production server's HTTP protocol: uvicorn's httptools protocol, with every write of one
turn of the event loop sent to the socket in one system call.

uvicorn writes an answer's status line and headers as soon as the application sends
`http.response.start`, and its body in a second write at `http.response.body`: two `send()`
calls on the socket per answer, each one the kernel's whole loopback or network path. A profile
of one worker under the floor load had the header write alone at 13 % of the worker's GIL
samples and the body's at 4 % (docs/PERFORMANCE.md, "Around the view"). The ASGI handler sends
the two messages one after the other without giving the loop a turn (an answer's body is in
memory), so holding what is written until the loop's next turn puts both in one write.

Nothing else changes: the bytes, their order, flow control (the real transport still pauses
the protocol when its own buffer is full; a large write is let through at once, so at most
`FLUSH_AT` bytes wait here), closing (what is held goes out first), websockets (their frames go
through the same transport).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

# Held bytes past this are written at once, not at the loop's next turn: a streamed file's
# chunks are not gathered in memory, and a large write gains nothing from waiting.
FLUSH_AT = 64 * 1024


class CoalescingTransport(asyncio.Transport):
    """A socket transport whose writes wait for the end of the loop's turn, then go as one."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] = []
        self._held_size = 0

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if not self._held:
            self._loop.call_soon(self._flush)
        # A copy of a mutable buffer: the caller may reuse it before the flush.
        self._held.append(data if isinstance(data, bytes) else bytes(data))
        self._held_size += len(data)
        if self._held_size >= FLUSH_AT:
            self._flush()

    def writelines(self, list_of_data: Any) -> None:
        for data in list_of_data:
            self.write(data)

    def _flush(self) -> None:
        if not self._held:
            return  # written already: it grew past FLUSH_AT, or the transport was closed
        data = self._held[0] if len(self._held) == 1 else b"".join(self._held)
        self._held.clear()
        self._held_size = 0
        if not self._transport.is_closing():  # the peer went away: the bytes have nowhere to go
            self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def write_eof(self) -> None:
        self._flush()
        self._transport.write_eof()

    def abort(self) -> None:
        self._held.clear()
        self._held_size = 0
        self._transport.abort()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + self._held_size

    # The rest is the socket's transport's own.
    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()


class CoalescingHttpToolsProtocol(HttpToolsProtocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(CoalescingTransport(transport, self.loop))


class CasinoUvicornWorker(UvicornWorker):  # type: ignore[misc]  # untyped package
    """gunicorn's uvicorn worker on the coalescing protocol (casino/gunicorn_conf.py)."""

    CONFIG_KWARGS = {"loop": "auto", "http": "casino.http_server:CoalescingHttpToolsProtocol"}
