"""The production server's transport sends what one turn of the event loop wrote in one write,
in order, before a close, and lets a large write through at once."""

from __future__ import annotations

import asyncio
import socket

from casino.http_server import FLUSH_AT, CoalescingTransport


class Recording(asyncio.Transport):
    """The socket's transport as the coalescing one sees it: the writes it is given, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def get_write_buffer_size(self) -> int:
        return 0  # the socket took every write

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True


async def next_turn() -> None:
    await asyncio.sleep(0)
    await asyncio.sleep(0)


def test_an_answer_s_head_and_body_written_in_one_turn_go_in_one_write() -> None:
    async def scenario() -> list[bytes]:
        socket_side = Recording()
        transport = CoalescingTransport(socket_side, asyncio.get_running_loop())
        transport.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
        transport.write(bytearray(b"{}"))
        assert socket_side.writes == []  # nothing yet: the loop has not had its turn
        assert transport.get_write_buffer_size() == 40
        await next_turn()
        transport.write(b"next answer")  # a later turn: a write of its own
        await next_turn()
        return socket_side.writes

    writes = asyncio.run(scenario())
    assert writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}", b"next answer"]


def test_a_large_write_goes_at_once_with_what_was_held_before_it() -> None:
    async def scenario() -> list[bytes]:
        socket_side = Recording()
        transport = CoalescingTransport(socket_side, asyncio.get_running_loop())
        transport.write(b"head")
        transport.write(b"x" * FLUSH_AT)
        written = list(socket_side.writes)
        await next_turn()
        assert socket_side.writes == written  # the turn's end has nothing left to write
        return written

    assert asyncio.run(scenario()) == [b"head" + b"x" * FLUSH_AT]


def test_a_close_sends_what_is_held_first_and_an_abort_drops_it() -> None:
    async def scenario() -> tuple[list[bytes], list[bytes]]:
        loop = asyncio.get_running_loop()
        closed, aborted = Recording(), Recording()
        transport = CoalescingTransport(closed, loop)
        transport.write(b"last answer")
        transport.close()
        assert closed.closed
        transport = CoalescingTransport(aborted, loop)
        transport.write(b"never sent")
        transport.abort()
        await next_turn()
        return closed.writes, aborted.writes

    assert asyncio.run(scenario()) == ([b"last answer"], [])


def test_over_a_real_socket_every_byte_arrives_in_order_before_the_close() -> None:
    async def scenario() -> bytes:
        loop = asyncio.get_running_loop()
        server_end, client_end = socket.socketpair()
        transport, _ = await loop.connect_accepted_socket(asyncio.Protocol, server_end)
        coalescing = CoalescingTransport(transport, loop)
        reader, writer = await asyncio.open_connection(sock=client_end)
        parts = [b"head\r\n\r\n", b"body-1", b"y" * (FLUSH_AT + 10), b"body-2"]
        for part in parts:
            coalescing.write(part)
        await next_turn()
        coalescing.write(b"after a turn")
        coalescing.close()
        received = await asyncio.wait_for(reader.read(), timeout=10)
        writer.close()
        return received

    expected = b"head\r\n\r\nbody-1" + b"y" * (FLUSH_AT + 10) + b"body-2after a turn"
    assert asyncio.run(scenario()) == expected
