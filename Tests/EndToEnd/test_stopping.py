"""Ctrl-C or SIGTERM ends a build within a second, whatever its output is doing: a terminal whose
output is paused (Ctrl-S) or a pipe nobody reads, full, with the build's next write held up in
it. Nothing the stop path does may wait on that output (issue 57).
test_broken_inputs.py::test_ctrl_c_stops_a_large_build_within_a_second_and_the_next_build_works
stops a large build as it renders; here the build is held up in a write on purpose, with and
without search (whose stop is the build's own: it ends Pagefind, removes what it was writing,
then ends by the signal)."""
import fcntl
import json
import os
import re
import select
import signal
import subprocess
import termios
import time
from pathlib import Path

import pytest

from conftest import default_signals
from test_search import ends_soon, sleeping_pagefind, started_runs

NOW = "1795000000"


def make_site(folder: Path, count: int, search: bool) -> Path:
    folder.mkdir(parents=True)
    cards = [{"id": f"c{n}", "type": "short_news", "created": 1_790_000_000 + n, "title": f"Card {n}",
              "description": f"Card **{n}** " * 20, "categories": ["news"]} for n in range(count)]
    (folder / "cards.json").write_text(json.dumps(cards))
    if search:
        (folder / "cardfeed.yml").write_text("search: true\n")
    return folder


def blocked_in_write(pid: int) -> bool:
    """Whether a thread of `pid` waits in a write to a terminal or a pipe."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            if (task / "wchan").read_text() in {"pipe_write", "anon_pipe_write", "n_tty_write", "wait_woken", "tty_write"}:
                return True
        except OSError:
            pass
    return False


@pytest.mark.parametrize("search", [False, True], ids=["build", "search"])
@pytest.mark.parametrize("output", ["paused terminal", "full pipe"])
@pytest.mark.parametrize("how", ["Ctrl-C", "SIGTERM"])
def test_a_build_held_up_writing_its_output_stops_within_a_second(cardfeed_bin, tmp_path, search, output, how):
    site = make_site(tmp_path / "site", 3000, search)
    pagefind, log = sleeping_pagefind(tmp_path)
    env = {**os.environ, "TERM": "xterm", "CARDFEED_PROGRESS_DELAY": "0", "PAGEFIND": str(pagefind)}
    if output == "paused terminal":
        reader, writer = os.openpty()
        attributes = termios.tcgetattr(writer)
        attributes[0] |= termios.IXON
        termios.tcsetattr(writer, termios.TCSANOW, attributes)
    else:
        reader, writer = os.pipe()
    process = subprocess.Popen([str(cardfeed_bin), "build", site, "--now", NOW], stdin=subprocess.DEVNULL, stdout=writer,
                               stderr=writer, env=env, start_new_session=True, preexec_fn=default_signals)
    os.close(writer)
    try:
        if search:
            # Held up while Pagefind indexes: the output read until then, then paused or filled.
            read_until(reader, process, lambda: log.exists() and "started" in log.read_text())
            pagefind_pid = started_runs(log, 1)[0]
            hold_up(reader, process, output)
        else:
            # Paused as soon as the build draws its progress, or filled before it writes: its next
            # write waits.
            read_until(reader, process, lambda: output == "full pipe" or b"[1/" in shown_so_far[0])
            hold_up(reader, process, output)
            deadline = time.monotonic() + 60
            while not blocked_in_write(process.pid):
                assert process.poll() is None and time.monotonic() < deadline, "the build never waited on its output"
                time.sleep(0.02)
        assert process.poll() is None, "the build ended before it could be stopped"
        start = time.monotonic()
        if how == "Ctrl-C":
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
        took = time.monotonic() - start
        assert process.returncode == -(signal.SIGINT if how == "Ctrl-C" else signal.SIGTERM)
        assert took < 1, f"the build took {took:.2f} s to stop"
        if search:
            assert ends_soon(pagefind_pid), "Pagefind outlived the build"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(reader)
        for pid in re.findall(r"started (\d+)", log.read_text() if log.exists() else ""):
            subprocess.run(["kill", "-9", pid], capture_output=True)
    if search:
        # The build's own stop removes what it was writing.
        assert not [p.name for p in site.glob(".public.cardfeed-*") if p.name != ".public.cardfeed-lock"], list(site.iterdir())
        return
    again = subprocess.run([str(cardfeed_bin), "build", site, "--now", NOW, "-q"], capture_output=True, text=True, timeout=300, env=env)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in site.iterdir() if p.name not in ("cardfeed.yml", ".cardfeed-cache")) == ["cards.json", "public"]


shown_so_far = [b""]


def read_until(reader: int, process, done):
    """Reads what the build writes until `done()`."""
    shown_so_far[0] = b""
    deadline = time.monotonic() + 120
    while not done():
        assert process.poll() is None and time.monotonic() < deadline, shown_so_far[0].decode(errors="replace")
        if select.select([reader], [], [], 0.05)[0]:
            try:
                shown_so_far[0] += os.read(reader, 65536)
            except OSError:
                pass


def hold_up(reader: int, process, output: str):
    """Pauses the terminal as Ctrl-S does, or fills the pipe."""
    if output == "paused terminal":
        os.write(reader, b"\x13")
    else:
        fill(reader, process.pid)


def fill(reader: int, pid: int):
    """Fills the pipe the build writes to (the build's own writes with it), so that its next
    write waits: writes from this side through /proc/PID/fd/1."""
    pipe = os.open(f"/proc/{pid}/fd/1", os.O_WRONLY | os.O_NONBLOCK)
    try:
        while True:
            os.write(pipe, b"x" * 4096)
    except BlockingIOError:
        pass
    finally:
        os.close(pipe)
