"""A long build shows how far it has come on a terminal, and nowhere else."""
import os
import re
import subprocess
import sys

import pytest

from conftest import REPO

CARDS = 30_000  # a debug build (the one scripts/test.sh tests) loads and renders these for seconds


@pytest.fixture(scope="module")
def big_site(tmp_path_factory):
    site = tmp_path_factory.mktemp("big")
    subprocess.run([sys.executable, str(REPO / "bench" / "gen_cards.py"), str(CARDS), "7", str(site / "cards.json")], check=True)
    return site


def run_on_terminal(args, cwd):
    """Runs a command with a pseudo-terminal as its standard output and error; returns the exit
    status and everything it wrote (the terminal turns each newline into CR LF)."""
    controller, terminal = os.openpty()
    process = subprocess.Popen(args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal,
                               env={**os.environ, "TERM": "xterm"})
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


def test_progress_is_redrawn_in_place_and_erased_before_each_step_line(cardfeed_bin, big_site, tmp_path):
    status, text = run_on_terminal([str(cardfeed_bin), "build", str(big_site), "-o", str(tmp_path / "out"), "--now", "1800000000"], cwd=tmp_path)
    assert status == 0, text
    erase = "\r\x1b[2K"
    drawn = re.findall(r"\r\x1b\[2K(\[\d/4\] [^\r\n]*?\(\d+%\))", text)
    assert drawn, f"no progress line on a terminal: {text!r}"
    for line in drawn:
        assert re.fullmatch(rf"\[1/4\] Load cards: \d+ entries \(\d+%\)|\[3/4\] Render pages: \d+ of {CARDS} cards \(\d+%\)", line), line
    # What stays on the screen: each line as the last erase left it. No progress remains, and
    # the step lines are whole.
    visible = [line.split(erase)[-1] for line in text.split("\r\n")]
    assert not any("%)" in line for line in visible), visible
    assert f"[1/4] Load cards: {CARDS} entries from 1 file" in visible
    assert any(re.fullmatch(rf"\[3/4\] Render pages: {CARDS} cards, \d+ pages", line) for line in visible), visible


def test_no_progress_without_a_terminal_or_with_quiet(cardfeed_bin, big_site, tmp_path):
    piped = subprocess.run([str(cardfeed_bin), "build", str(big_site), "-o", tmp_path / "piped", "--now", "1800000000"],
                           capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0, piped.stderr
    assert "\x1b" not in piped.stdout and "\r" not in piped.stdout
    assert piped.stdout.startswith(f"[1/4] Load cards: {CARDS} entries from 1 file\n[2/4] Select cards:")
    status, text = run_on_terminal([str(cardfeed_bin), "build", str(big_site), "-o", str(tmp_path / "quiet"), "--quiet",
                                    "--now", "1800000000"], cwd=tmp_path)
    assert (status, text) == (0, "")
