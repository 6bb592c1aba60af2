"""`cardfeed serve` under descriptor pressure, through the real binary: with a low limit on open
files, more live-reload streams than it can hold are refused with 503 and a message, logged
once, and pages are still served (docs/security.md, "`cardfeed serve` is for this machine").
Where it cannot be told of changes and polls, it says why and what to do."""
import os
import socket

from conftest import Running
from raw_http import request, status


def open_event_stream(port):
    connection = socket.create_connection(("127.0.0.1", port), timeout=5)
    connection.sendall(b"GET /_cardfeed/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
    head = b""
    while b"\r\n\r\n" not in head and (chunk := connection.recv(4096)):
        head += chunk
    return connection, head


def test_more_event_streams_than_the_file_limit_allows_are_refused_and_pages_still_served(cardfeed_bin, example_site, tmp_path):
    # A soft limit of 128 open files under a hard one of 256: serve raises its own to 256, which
    # holds 64 connections, half of them for event streams (each costs three descriptors).
    serve = Running("bash", ["-c", f'ulimit -n 256 && ulimit -Sn 128 && exec "{cardfeed_bin}" serve "{example_site}" --port 0'], tmp_path)
    port = int(serve.wait_for(r"^Serving .* at http://127\.0\.0\.1:(\d+)/").group(1))
    streams, refused = [], []
    try:
        for _ in range(100):
            connection, head = open_event_stream(port)
            if status(head) == 200:
                streams.append(connection)
            else:
                refused.append(head)
                connection.close()  # as a browser would reuse it, or drop it
        assert len(streams) == 32, f"{len(streams)} streams held, {len(refused)} refused"
        assert len(refused) == 68
        assert all(status(head) == 503 for head in refused), refused[0][:200]
        answer = request(port, b"GET /_cardfeed/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port)
        assert b"Too many pages are open with live reload" in answer, answer[:300]
        for path in ["/", "/news/", "/assets/cardfeed.css"]:
            page = request(port, b"GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % (path.encode(), port))
            assert status(page) == 200, (path, page[:200])
        assert serve.process.poll() is None
        # Open streams still get their events: a heartbeat or nothing, but not a closed connection.
        streams[0].settimeout(0.2)
        try:
            assert streams[0].recv(1) != b""
        except socket.timeout:
            pass
    finally:
        for connection in streams:
            connection.close()
        serve.stop()
    warnings = [line for line in serve.errors + serve.lines if "pages are open with live reload" in line]
    assert len(warnings) == 1, warnings
    assert "32 pages are open with live reload" in warnings[0]


def test_the_polling_fallback_says_why_and_what_to_do_and_still_sees_changes(running, example_site):
    # CARDFEED_WATCH_BY_POLLING makes serve poll as it does when inotify has no watches left
    # (200,000 folders, say), which a test cannot arrange by lowering the system's limit.
    serve = running("serve", example_site, "--port", "0", env={**os.environ, "CARDFEED_WATCH_BY_POLLING": "1"})
    serve.wait_for(r"^Serving .* at http://127\.0\.0\.1:\d+/")
    warning = serve.wait_for(r"^(warning: watching the site by polling.*)$", stream="stderr").group(1)
    assert "to use at most 8% of a core" in warning, warning
    assert "(asked for by CARDFEED_WATCH_BY_POLLING)" in warning, warning
    assert "raise fs.inotify.max_user_watches" in warning and "keep fewer folders in it" in warning, warning
    cards = (example_site / "cards.json").read_text()
    (example_site / "cards.json").write_text(cards.replace('"title": "', '"title": "Seen by polling: ', 1))
    serve.wait_for(r"^Changed cards\.json: rebuilt")
