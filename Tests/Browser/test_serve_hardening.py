"""`cardfeed serve` under abuse, over loopback only and with bounded counts and times: it listens
on 127.0.0.1 unless told otherwise, answers malformed, oversized, slow and body-carrying requests
with an error of its own, keeps serving with hundreds of idle connections, keeps its memory while
a client floods it with header bytes, and survives card files that nest deeply."""
import socket
import time
from pathlib import Path

from conftest import copy_example_site
from raw_http import request, status


def get_ok(port, path="/"):
    start = time.monotonic()
    answer = request(port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
    return status(answer) == 200 and b"<!DOCTYPE html>" in answer, time.monotonic() - start


def rss_kb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def listening_addresses(port):
    """Local addresses of the listening TCP sockets on `port`, from /proc/net/tcp and tcp6."""
    found = []
    for table in ["/proc/net/tcp", "/proc/net/tcp6"]:
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            address, port_hex = fields[1].rsplit(":", 1)
            if int(port_hex, 16) == port and fields[3] == "0A":  # LISTEN
                found.append(address)
    return found


def test_listens_on_loopback_only_by_default(serve):
    server, _ = serve()
    assert server.url.startswith("http://127.0.0.1:")
    assert listening_addresses(server.port) == ["0100007F"], "127.0.0.1, not 0.0.0.0 or ::"


MALFORMED = [
    b"GARBAGE\r\n\r\n",
    b"GET\r\n\r\n",
    b"GET / HTTP/1.1 extra words\r\n\r\n",
    b"GET / HTTP/9.9\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(256)) + b"\r\n\r\n",  # TLS to a plain port
    b"\x00" * 4096 + b"\n",
    b"GET /\x00/../etc/passwd HTTP/1.1\r\n\r\n",
    b"GET /%zz%00%ff HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET http://evil.example/ HTTP/1.1\r\nHost: evil.example\r\n\r\n",
    b"GET / HTTP/1.1\r\nno colon here\r\n::::\r\n: empty name\r\n\r\n",
    b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
    b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
    b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nX: " + b"y" * 100_000 + b"\r\n\r\n",  # pipelined
]


def test_malformed_requests_get_an_error_and_the_server_stays_up(serve):
    server, _ = serve()
    for data in MALFORMED:
        answer = request(server.port, data)
        code = status(answer)
        assert code is None or code in (200, 400, 404, 405, 413, 414, 421, 431), (data[:60], answer[:200])
        assert server.process.poll() is None, f"the server died after {data[:60]!r}"
    assert request(server.port, b"GARBAGE\r\n\r\n").startswith(b"HTTP/1.1 400 Bad Request")
    assert request(server.port, b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello").startswith(b"HTTP/1.1 413")
    ok, _ = get_ok(server.port)
    assert ok


def test_oversized_headers_are_refused_fast_and_memory_stays_bounded(serve):
    server, _ = serve()
    pid = server.process.pid
    before = rss_kb(pid)
    start = time.monotonic()
    answer = request(server.port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 1_000_000 + b"\r\n\r\n")
    assert status(answer) == 431, answer[:200]
    many = b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 100) for i in range(2000))
    assert status(request(server.port, b"GET / HTTP/1.1\r\n" + many + b"\r\n")) == 431
    assert time.monotonic() - start < 5
    # A client that never stops sending one header line: refused once the head passes its limit.
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as flood:
        flood.sendall(b"GET / HTTP/1.1\r\nX-Endless: ")
        sent = 0
        try:
            while sent < 50_000_000:
                flood.sendall(b"z" * 1_000_000)
                sent += 1_000_000
        except (BrokenPipeError, ConnectionResetError):
            pass
    assert sent < 50_000_000, "the server read 50 MB of one header"
    assert rss_kb(pid) - before < 50_000, f"memory grew from {before} kB to {rss_kb(pid)} kB"
    ok, seconds = get_ok(server.port)
    assert ok and seconds < 2


def test_hundreds_of_idle_and_slow_connections_do_not_block_a_visitor(serve):
    server, _ = serve()
    slow = socket.create_connection(("127.0.0.1", server.port), timeout=20)
    slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % server.port)  # and then nothing: a slow head
    slow_since = time.monotonic()
    idle = []
    try:
        for number in range(300):
            connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            if number % 3 == 0:
                connection.sendall(b"GET /news/ HT")  # half a request line
            idle.append(connection)
        ok, seconds = get_ok(server.port, "/news/")
        assert ok, "a normal request is answered"
        assert seconds < 2, f"took {seconds:.2f} s with 300 idle connections"
        # Events streams of open pages keep working too.
        events = request(server.port, b"GET /_cardfeed/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % server.port, timeout=1)
        assert events.startswith(b"HTTP/1.1 200") and b"event: hello" in events
        # The slow head is cut off after ten seconds with 408.
        answer = b""
        while chunk := slow.recv(4096):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408 Request Timeout"), answer[:100]
        assert 9 < time.monotonic() - slow_since < 15
    finally:
        slow.close()
        for connection in idle:
            connection.close()
    assert server.process.poll() is None
    ok, seconds = get_ok(server.port)
    assert ok and seconds < 2


def test_deeply_nested_card_files_fail_the_build_not_the_server(serve, tmp_path):
    site = copy_example_site(tmp_path / "site")
    (site / "cards" / "deep.json").write_text("[" * 511 + "]" * 511)
    (site / "cards" / "deeper.json").write_text("[" * 100_000)
    server, _ = serve(site)
    server.wait_for_output(r"the site did not build", stream="stderr")
    assert server.process.poll() is None
    answer = request(server.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % server.port)
    assert status(answer) in (200, 503)
    assert any("deeper.json:1:513: invalid JSON: nested more than 512 levels deep" in line for line in server.errors + server.lines)
