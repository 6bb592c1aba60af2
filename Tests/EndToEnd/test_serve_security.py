"""`cardfeed serve` against other sites and other machines, through the real binary: it answers
only requests addressed to itself (DNS rebinding), only its own pages on the event stream, warns
for every spelling of "listen everywhere", reads request heads in time linear in their size, and
cleans up on every signal that ends it."""
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from raw_http import request, status


def start(running, example_site, *extra):
    serve = running("serve", example_site, "--port", "0", *extra)
    match = serve.wait_for(r"^Serving .* at (http://\S+) \(Ctrl-C to stop\)$")
    return serve, int(match.group(1).rstrip("/").rsplit(":", 1)[1])


def test_only_requests_addressed_to_the_server_itself_are_answered(running, example_site):
    serve, port = start(running, example_site)
    for host in [f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}", f"[::1]:{port}"]:
        answer = request(port, f"GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        assert status(answer) == 200 and b"<!DOCTYPE html>" in answer, host
    # What a page of another site sends once its name resolves to 127.0.0.1.
    for host in [f"rebind.example:{port}", "rebind.example", f"127.0.0.1.nip.io:{port}", "127.0.0.1", f"127.0.0.1:{port + 1}"]:
        answer = request(port, f"GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        assert status(answer) == 421, (host, answer[:100])
        assert b"DNS rebinding" in answer and b"<!DOCTYPE" not in answer
        events = request(port, f"GET /_cardfeed/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode(), timeout=1)
        assert status(events) == 421 and b"event:" not in events
    answer = request(port, f"GET http://rebind.example:{port}/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    assert status(answer) == 421
    assert status(request(port, b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n")) == 400, "HTTP/1.1 without Host"
    assert serve.process.poll() is None


def test_the_event_stream_answers_only_its_own_pages(running, example_site):
    serve, port = start(running, example_site)
    own = f"http://127.0.0.1:{port}"
    for origin in [None, own]:
        extra = f"Origin: {origin}\r\n" if origin else ""
        events = request(port, f"GET /_cardfeed/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}\r\n".encode(), timeout=1)
        assert status(events) == 200 and b"event: hello" in events, origin
    for origin in ["http://rebind.example", "null", f"http://localhost:{port}", f"https://127.0.0.1:{port}"]:
        events = request(port, f"GET /_cardfeed/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\n\r\n".encode(), timeout=1)
        assert status(events) == 403 and b"event:" not in events, origin


def test_pages_of_this_machine_may_read_the_placements_files_and_nothing_else(running, example_site):
    """A host page on another port of this machine previews the component (docs/embedding.md):
    the files of embed/ are answered with Access-Control-Allow-Origin: *, its 404 too; a page of
    any other origin is refused them, and every page of another origin the rest."""
    (example_site / "cardfeed.yml").write_text((example_site / "cardfeed.yml").read_text() + "placements:\n  home-hero: {feed: all}\n")
    serve, port = start(running, example_site)

    def get(path, origin):
        return request(port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\nConnection: close\r\n\r\n".encode())
    for origin in ["http://127.0.0.1:8080", "http://localhost:3000", "http://[::1]:5173"]:
        for path, code in [("/embed/home-hero.json", 200), ("/embed/cardfeed-embed.js", 200), ("/embed/home-hero/", 200), ("/embed/no-such.json", 404)]:
            answer = get(path, origin)
            assert status(answer) == code and b"\r\nAccess-Control-Allow-Origin: *\r\n" in answer, (origin, path, answer[:300])
        for path in ["/", "/news/", "/_cardfeed/events", "/_cardfeed/placements/"]:
            assert status(get(path, origin)) == 403, (origin, path)
    for origin in ["https://evil.example", "null", "http://192.168.1.5:8080"]:
        answer = get("/embed/home-hero.json", origin)
        assert status(answer) == 403 and b'"html"' not in answer, origin
    # Its own pages, as before: no header needed, none sent on the others.
    own = request(port, f"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
    assert status(own) == 200 and b"Access-Control-Allow-Origin" not in own


WILDCARDS = ["0.0.0.0", "::", "::0", "[::]", "0:0:0:0:0:0:0:0", "::ffff:0.0.0.0", "[::ffff:0:0]", "::0.0.0.0",
             "0", "0x0", "0.0", "000.000.000.000"]


@pytest.mark.parametrize("host", WILDCARDS)
def test_every_spelling_of_everywhere_is_warned_about_or_refused(running, example_site, host):
    serve = running("serve", example_site, "--port", "0", "--host", host, "-q")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and serve.process.poll() is None and not any("Serving" in line for line in serve.lines):
        time.sleep(0.05)
    if serve.exited():  # its output read to the end: it may have ended before its error was read
        errors = "".join(serve.errors)
        assert serve.process.returncode == 64 and "--host takes an IP address" in errors, errors
        return
    errors = "".join(serve.errors)
    if "Address family not supported" in errors or "not an address of this machine" in errors:
        pytest.skip("no IPv6 here")
    # The warning is on standard error, which its own thread reads: maybe not yet when "Serving"
    # came on standard output.
    serve.wait_for(r"warning: listening on \S+: anyone who can reach this machine can read the site", stream="stderr")
    assert re.search(r"at http://(127\.0\.0\.1|\[::1\]):\d+/", "".join(serve.lines))


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_request_heads_cost_time_in_proportion_to_their_size(running, example_site):
    serve, port = start(running, example_site, "-q")
    host = f"Host: 127.0.0.1:{port}\r\nConnection: close\r\n".encode()
    heads = {  # each close to the 64 KB limit
        "one long header line": b"GET / HTTP/1.1\r\n" + host + b"X: " + b"a" * 60_000 + b"\r\n\r\n",
        "many header lines": b"GET / HTTP/1.1\r\n" + host + b"".join(b"X-%d: v\r\n" % i for i in range(6000)) + b"\r\n",
        "long target, short lines": b"GET /" + b"a" * 2000 + b" HTTP/1.1\r\n" + host + b"x:\r\n" * 14_000 + b"\r\n",
        "long target refused": b"GET /" + b"a" * 30_000 + b" HTTP/1.1\r\n" + host + b"x:\r\n" * 7000 + b"\r\n",
    }
    time.sleep(0.5)
    for name, head in heads.items():
        before = cpu_seconds(serve.process.pid)
        answer = request(port, head, timeout=30)
        assert status(answer) in (200, 404, 414), (name, answer[:80])
        time.sleep(0.2)
        spent = cpu_seconds(serve.process.pid) - before
        # Before the guard handed on only short lines, each of these cost 7 to 20 s of CPU in a debug build.
        assert spent < 0.5, f"{name}: {spent:.2f} s of CPU for {len(head) // 1024} KB"


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT], ids=lambda s: signal.Signals(s).name)
def test_every_signal_that_ends_serve_removes_its_folder(running, example_site, number):
    serve, port = start(running, example_site)
    work = re.search(r"Write (\S+/cardfeed-serve-[^/]+)/site", "".join(serve.lines)).group(1)
    assert os.path.isdir(work)
    serve.process.send_signal(number)
    assert serve.process.wait(timeout=10) == 0
    time.sleep(0.2)
    assert "Stopped; the preview build was removed." in "".join(serve.lines)
    assert not os.path.exists(work)


def fake_opener(folder: Path, status: int) -> Path:
    folder.mkdir()
    opener = folder / "xdg-open"
    opener.write_text(f"#!/bin/sh\nexit {status}\n")
    opener.chmod(0o755)
    return folder


@pytest.mark.parametrize("case", ["opener fails", "no opener"])
def test_open_says_which_url_to_open_by_hand_when_no_browser_starts(running, example_site, tmp_path, case):
    folder = fake_opener(tmp_path / "bin", 3) if case == "opener fails" else tmp_path / "empty"
    folder.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    env["PATH"] = str(folder)
    serve = running("serve", example_site, "--port", "0", "--open", "-q", env=env)
    url = serve.wait_for(r"^Serving .* at (http://\S+) \(Ctrl-C to stop\)$").group(1)
    reason = "could not start a browser" if case == "opener fails" else "found no program to open a browser with"
    serve.wait_for(rf"^warning: {reason}.*; open {re.escape(url)} in a browser by hand$", stream="stderr", timeout=10)


def test_a_save_prints_only_new_and_resolved_warnings(running, example_site):
    cards = example_site / "cards" / "warned.json"
    cards.write_text(json.dumps([{"id": "warned", "type": "text_announcement", "description": "x", "created": 1794999000,
                                  "url": "javascript:alert(1)"}]))
    serve, port = start(running, example_site)
    warning = serve.wait_for(r"^(warning: .*warned\.json.*)$", stream="stderr").group(1)
    before = len(serve.errors)
    # An unrelated save: the site's warnings are not printed again.
    (example_site / "cards" / "other.json").write_text(json.dumps([{"id": "other", "type": "text_announcement", "description": "y", "created": 1794999000}]))
    serve.wait_for(r"^Changed cards/other\.json: rebuilt")
    time.sleep(0.3)
    assert serve.errors[before:] == [], serve.errors[before:]
    # A broken card file: its error, and no warning about rules or anything else.
    (example_site / "cards" / "broken.json").write_text('[{"id": "x",,}]\n')
    serve.wait_for(r"^error: .*broken\.json", stream="stderr")
    time.sleep(0.3)
    assert not [line for line in serve.errors[before:] if line.startswith("warning:")], serve.errors[before:]
    (example_site / "cards" / "broken.json").unlink()
    serve.wait_for(r"^Changed cards/broken\.json: rebuilt")
    # Fixing the warned card: the warning is reported as resolved, once.
    cards.write_text(json.dumps([{"id": "warned", "type": "text_announcement", "description": "x", "created": 1794999000}]))
    serve.wait_for(r"^Resolved: ")
    resolved = [line for line in serve.lines if line.startswith("Resolved: ")]
    assert resolved == ["Resolved: " + warning[len("warning: "):] + "\n"], resolved
    assert not [line for line in serve.errors[before:] if line.startswith("warning:")]


def test_a_card_that_moves_in_its_file_keeps_its_warning_quiet(running, example_site):
    """A save that moves a warned card (a card above it grew) changes the warning's line, not
    the warning: serve prints it neither as new nor as resolved."""
    cards = example_site / "cards" / "moved.json"
    warned = {"id": "warned", "type": "text_announcement", "description": "x", "created": 1794999000, "url": "javascript:alert(1)"}
    above = {"id": "above", "type": "text_announcement", "description": "y", "created": 1794999000}
    cards.write_text(json.dumps([above, warned]))
    serve, port = start(running, example_site)
    serve.wait_for(r"^warning: .*moved\.json:1:\d+: card 2 \(id \"warned\"\)", stream="stderr")
    before = len(serve.errors)
    cards.write_text(json.dumps([{**above, "description": "a longer description\n\nin two paragraphs"}, warned], indent=2))
    serve.wait_for(r"^Changed cards/moved\.json: rebuilt")
    time.sleep(0.3)
    assert serve.errors[before:] == [], serve.errors[before:]
    assert not [line for line in serve.lines if line.startswith("Resolved: ")], serve.lines


def test_a_duplicate_id_that_moves_in_its_file_keeps_its_warning_quiet(running, example_site):
    """The warning of a card whose id another card has names that card's place ("same id as
    FILE: card 2"), which moves with it: a card added above both is no new warning either."""
    cards = example_site / "cards" / "moved.json"
    first = {"id": "twice", "type": "text_announcement", "description": "x", "created": 1794999000}
    second = {**first, "description": "z", "created": 1794999100}
    cards.write_text(json.dumps([first, second]))
    serve, port = start(running, example_site)
    serve.wait_for(r"^warning: .*moved\.json:1:\d+: card 2 \(id \"twice\"\): field \"id\": same id as \S*moved\.json: card 1", stream="stderr")
    before = len(serve.errors)
    above = {"id": "above", "type": "text_announcement", "description": "y", "created": 1794999000}
    cards.write_text(json.dumps([above, first, second], indent=2))
    serve.wait_for(r"^Changed cards/moved\.json: rebuilt")
    time.sleep(0.3)
    assert serve.errors[before:] == [], serve.errors[before:]
    assert not [line for line in serve.lines if line.startswith("Resolved: ")], serve.lines
    # A third card of the id is a warning of the same words but one more: new.
    third = {**first, "description": "w", "created": 1794999200}
    cards.write_text(json.dumps([above, first, second, third], indent=2))
    serve.wait_for(r"^warning: .*moved\.json:\d+:\d+: card 4 \(id \"twice\"\): field \"id\": same id as \S*moved\.json: card 3", stream="stderr")
    # And when it goes, one of the two is resolved.
    cards.write_text(json.dumps([above, first, second], indent=2))
    serve.wait_for(r"^Resolved: .*card \d \(id \"twice\"\): field \"id\": same id as")
    assert len([line for line in serve.lines if line.startswith("Resolved: ")]) == 1, serve.lines


def test_serve_says_its_preview_build_was_removed_once_it_is(running, tmp_path):
    """The last line says the work folder is gone: on a site of thousands of cards its removal
    takes a moment, which the line came before."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "cardfeed.yml").write_text("title: Many\n")
    subprocess.run([sys.executable, str(Path(__file__).parents[2] / "bench" / "gen_cards.py"), "5000", "3", str(site / "cards.json")], check=True)
    serve, port = start(running, site)
    work = re.search(r"Write (\S+/cardfeed-serve-[^/]+)/site", "".join(serve.lines)).group(1)
    serve.process.send_signal(signal.SIGINT)
    serve.wait_for(r"^Stopped; the preview build was removed\.$")
    assert not os.path.exists(work)
    assert serve.process.wait(timeout=30) == 0
