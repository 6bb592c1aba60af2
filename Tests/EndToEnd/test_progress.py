"""A long build shows how far it has come on a terminal, and nowhere else."""
import fcntl
import os
import re
import struct
import subprocess
import sys
import termios

import pytest

from conftest import REPO

CARDS = 10_000  # three batches of 4,096 to load and to render
pytestmark = pytest.mark.slow
ERASE = "\r\x1b[2K"


@pytest.fixture(scope="module")
def big_site(tmp_path_factory):
    site = tmp_path_factory.mktemp("big")
    subprocess.run([sys.executable, str(REPO / "bench" / "gen_cards.py"), str(CARDS), "7", str(site / "cards.json")], check=True)
    return site


def run_on_terminal(args, cwd, columns=0, delay="0"):
    """Runs a command with a pseudo-terminal (`columns` wide; 0: unknown) as its standard output
    and error; returns the exit status and everything it wrote (the terminal turns each newline
    into CR LF). CARDFEED_PROGRESS_DELAY=0 shows progress from a step's first batch on, however
    fast the build."""
    controller, terminal = os.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    process = subprocess.Popen(args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal,
                               env={**os.environ, "TERM": "xterm", "CARDFEED_PROGRESS_DELAY": delay})
    os.close(terminal)
    chunks = []
    while True:
        try:
            data = os.read(controller, 65536)
        except OSError:  # EIO: the command ended and the terminal closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(controller)
    return process.wait(timeout=120), b"".join(chunks).decode()


def progress_lines(text):
    """The progress lines drawn: each follows an erase and is followed by the next erase."""
    return [piece for line in text.split("\r\n") for piece in line.split(ERASE)[1:-1]]


def test_progress_is_redrawn_in_place_and_erased_before_each_step_line(cardfeed_bin, big_site, tmp_path):
    status, text = run_on_terminal([str(cardfeed_bin), "build", str(big_site), "-o", str(tmp_path / "out"), "--now", "1800000000"], cwd=tmp_path)
    assert status == 0, text
    drawn = progress_lines(text)
    assert any(line.startswith("[1/4] Load cards: ") for line in drawn), text
    assert any(line.startswith("[3/4] Render pages: ") for line in drawn), text
    for line in drawn:
        assert re.fullmatch(rf"\[1/4\] Load cards: \d+ entries \(\d+%\)|\[3/4\] Render pages: \d+ of {CARDS} cards \(\d+%\)", line), line
    # What stays on the screen: each line as the last erase left it. No progress remains, and
    # the step lines are whole.
    visible = [line.split(ERASE)[-1] for line in text.split("\r\n")]
    assert not any("%)" in line for line in visible), visible
    # (The site's build cache may have the entries from an earlier test's build.)
    assert any(re.fullmatch(rf"\[1/4\] Load cards: {CARDS} entries from 1 file(, {CARDS} from the cache)?", line) for line in visible), visible
    assert any(re.fullmatch(rf"\[3/4\] Render pages: {CARDS} cards, \d+ pages and {CARDS} card pages", line) for line in visible), visible


def test_progress_fits_a_narrow_terminal(cardfeed_bin, big_site, tmp_path):
    # A line that wrapped onto a second row could not be erased: it is cut to the width.
    status, text = run_on_terminal([str(cardfeed_bin), "check", str(big_site), "--now", "1800000000"], cwd=tmp_path, columns=30)
    assert status == 0, text
    drawn = progress_lines(text)
    assert drawn and all(len(line) <= 29 for line in drawn), drawn
    assert "[3/3] Render pages: " in "".join(drawn)  # check has no write step


def test_no_progress_without_a_terminal_or_with_quiet_or_a_short_step(cardfeed_bin, big_site, tmp_path):
    piped = subprocess.run([str(cardfeed_bin), "build", str(big_site), "-o", tmp_path / "piped", "--now", "1800000000"],
                           capture_output=True, text=True, timeout=120, env={**os.environ, "CARDFEED_PROGRESS_DELAY": "0"})
    assert piped.returncode == 0, piped.stderr
    assert "\x1b" not in piped.stdout and "\r" not in piped.stdout
    assert re.match(rf"\[1/4\] Load cards: {CARDS} entries from 1 file(, {CARDS} from the cache)?\n\[2/4\] Select cards:", piped.stdout), piped.stdout
    status, text = run_on_terminal([str(cardfeed_bin), "build", str(big_site), "-o", str(tmp_path / "quiet"), "--quiet",
                                    "--now", "1800000000"], cwd=tmp_path)
    # --quiet: the warnings (the generated banners have no image_alt) and nothing else.
    assert status == 0 and all(line.startswith("warning: ") for line in text.splitlines()), text
    # Steps shorter than the delay (an hour here) show nothing but their own lines.
    status, text = run_on_terminal([str(cardfeed_bin), "check", str(big_site), "--now", "1800000000"], cwd=tmp_path, delay="3600")
    assert status == 0 and ERASE not in text, text
