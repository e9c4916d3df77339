"""The rendezvous of kiln.distributed's ranks: a small key-value store that
rank 0 serves over TCP (host and port from init_process_group, else
$KILN_DISTRIBUTED_HOST/$KILN_DISTRIBUTED_PORT, else CuPy's
$CUPYX_DISTRIBUTED_HOST/PORT, else 127.0.0.1:13333). Ranks exchange the NCCL
group id through it, meet at barriers, and the host backend passes its data
through it.

A request is one byte of operation, the key's length and the key, the
value's length and the value; no pickling, so a stray client can at worst
store bytes. `get` waits until the key exists.
"""
import os
import socket
import socketserver
import struct
import threading
import time

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 13333
_HEADER = struct.Struct("!cIQ")  # operation, key length, value length
_LENGTH = struct.Struct("!Q")


def address(host, port):
    """(host, port) from the arguments, else the environment, else the defaults."""
    host = host or os.environ.get("KILN_DISTRIBUTED_HOST") or os.environ.get("CUPYX_DISTRIBUTED_HOST") or DEFAULT_HOST
    port = port or os.environ.get("KILN_DISTRIBUTED_PORT") or os.environ.get("CUPYX_DISTRIBUTED_PORT") or DEFAULT_PORT
    try:
        return host, int(port)
    except ValueError:
        raise ValueError(f"port: expected an integer, got {port!r}") from None


def _read_exactly(sock, n):
    parts, left = [], n
    while left:
        chunk = sock.recv(min(left, 1 << 22))
        if not chunk:
            raise ConnectionError("kiln.distributed: the store's connection closed")
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


class _Table:
    """The served keys, and a condition to wait on for new ones."""

    def __init__(self):
        self.values = {}
        self.changed = threading.Condition()


class _Handler(socketserver.BaseRequestHandler):
    def handle(self):
        table = self.server.table
        sock = self.request
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while True:
            try:
                op, key_length, value_length = _HEADER.unpack(_read_exactly(sock, _HEADER.size))
            except ConnectionError:
                return
            key = _read_exactly(sock, key_length).decode()
            value = _read_exactly(sock, value_length)
            with table.changed:
                if op == b"S":
                    table.values[key] = value
                    table.changed.notify_all()
                    reply = b""
                elif op == b"G":
                    table.changed.wait_for(lambda: key in table.values)
                    reply = table.values[key]
                elif op == b"P":  # get and delete: a message for one reader
                    table.changed.wait_for(lambda: key in table.values)
                    reply = table.values.pop(key)
                elif op == b"A":
                    total = int(table.values.get(key, b"0")) + int(value)
                    table.values[key] = str(total).encode()
                    table.changed.notify_all()
                    reply = str(total).encode()
                elif op == b"D":
                    table.values.pop(key, None)
                    reply = b""
                else:
                    return
            sock.sendall(_LENGTH.pack(len(reply)) + reply)


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class Store:
    """A client of the store; rank 0's also serves it (on a daemon thread)."""

    def __init__(self, host, port, serve, timeout):
        self._server = None
        if serve:
            try:
                self._server = _Server((host, port), _Handler)
            except OSError as e:
                raise RuntimeError(f"kiln.distributed: rank 0 could not serve the store on {host}:{port} ({e}); "
                                   "pass another port= or set KILN_DISTRIBUTED_PORT") from None
            self._server.table = _Table()
            threading.Thread(target=self._server.serve_forever, name="kiln-distributed-store", daemon=True).start()
        self._timeout = timeout
        self._lock = threading.Lock()
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._sock = socket.create_connection((host, port), timeout=timeout)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"kiln.distributed: no store answered at {host}:{port} within {timeout} s "
                                       "(is rank 0 running, with the same host and port?)") from None
                time.sleep(0.05)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _ask(self, op, key, value=b""):
        key_bytes = key.encode()
        with self._lock:
            try:
                self._sock.sendall(_HEADER.pack(op, len(key_bytes), len(value)) + key_bytes)
                if value:
                    self._sock.sendall(value)
                (length,) = _LENGTH.unpack(_read_exactly(self._sock, _LENGTH.size))
                return _read_exactly(self._sock, length)
            except socket.timeout:
                raise TimeoutError(f"kiln.distributed: waited {self._timeout} s for {key!r} from the other ranks "
                                   "(did one of them stop or call another collective?)") from None

    def set(self, key, value):
        self._ask(b"S", key, bytes(value))

    def get(self, key):
        """The value of `key`, waiting until some rank sets it."""
        return self._ask(b"G", key)

    def take(self, key):
        """The value of `key`, waiting for it, and deleted from the store."""
        return self._ask(b"P", key)

    def add(self, key, amount):
        """Adds `amount` to the integer at `key` (0 if unset); the new total."""
        return int(self._ask(b"A", key, str(int(amount)).encode()))

    def delete(self, key):
        self._ask(b"D", key)

    def close(self):
        self._sock.close()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
