"""The two kinds of line a relay can offer a pyserial client: a pseudo-terminal and a TCP port.

Either can be cut (the client's port errors) and restored (the client can open it again).
"""

import contextlib
import errno
import os
import socket
import tty
from pathlib import Path
from typing import Protocol


class Line(Protocol):
    def watched(self) -> list[int]: ...
    def pull(self, fd: int) -> bytes: ...
    def push(self, data: bytes) -> None: ...
    def cut(self) -> None: ...
    def restore(self) -> None: ...
    def close(self) -> None: ...


class PtyLine:
    """A pseudo-terminal whose client opens `path`, a symlink re-pointed at each restore.

    The relay keeps the slave end open too, so the master never reports EIO while the client
    is between two opens; a cut closes both ends, and the client's next read fails.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._master = -1
        self._slave = -1
        self.restore()

    @property
    def url(self) -> str:
        return str(self.path)

    def restore(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        staging = self.path.with_name(self.path.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            staging.unlink()
        staging.symlink_to(os.ttyname(self._slave))
        staging.replace(self.path)

    def cut(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1

    def close(self) -> None:
        self.cut()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def watched(self) -> list[int]:
        return [self._master] if self._master >= 0 else []

    def pull(self, fd: int) -> bytes:
        try:
            return os.read(fd, 4096)
        except BlockingIOError:
            return b""
        except OSError as error:
            if error.errno == errno.EIO:
                return b""
            raise

    def push(self, data: bytes) -> None:
        if self._master < 0 or not data:
            return
        # A line nobody reads loses what is sent on it, as a real wire does.
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._master, data)


class TcpLine:
    """A serial device server on 127.0.0.1: the client opens `socket://127.0.0.1:<port>`.

    While cut, connections are accepted and closed at once, as a server with no line attached does.
    """

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.setblocking(False)
        self.port = self._listener.getsockname()[1]
        self._client: socket.socket | None = None
        self._up = True

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    def watched(self) -> list[int]:
        fds = [self._listener.fileno()]
        if self._client is not None:
            fds.append(self._client.fileno())
        return fds

    def pull(self, fd: int) -> bytes:
        if fd == self._listener.fileno():
            self._accept()
            return b""
        if self._client is None:
            return b""
        try:
            data = self._client.recv(4096)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:
            data = b""
        if not data:
            self._drop_client()
        return data

    def push(self, data: bytes) -> None:
        if self._client is None or not data:
            return
        try:
            self._client.sendall(data)
        except OSError:
            self._drop_client()

    def cut(self) -> None:
        self._up = False
        self._drop_client()

    def restore(self) -> None:
        self._up = True

    def close(self) -> None:
        self._drop_client()
        self._listener.close()

    def _accept(self) -> None:
        try:
            client, _ = self._listener.accept()
        except BlockingIOError:
            return
        if not self._up:
            client.close()
            return
        self._drop_client()
        client.setblocking(True)
        client.settimeout(1.0)
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._client = client

    def _drop_client(self) -> None:
        if self._client is not None:
            with contextlib.suppress(OSError):
                self._client.shutdown(socket.SHUT_RDWR)
            self._client.close()
            self._client = None
