"""Raw HTTP for the tests of `cardfeed serve` that send what a browser would not (a foreign
Host, a malformed or oversized head): both test folders' conftest.py put this folder on the
import path."""
import socket


def request(port, data: bytes, timeout=5.0) -> bytes:
    """Sends raw bytes and returns everything the server answers until it closes (or the timeout)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        try:
            connection.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = b""
        try:
            while chunk := connection.recv(65536):
                answer += chunk
        except (socket.timeout, ConnectionResetError):
            pass
        return answer


def status(answer: bytes):
    """The status code of an HTTP/1.1 answer, or None."""
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else None
