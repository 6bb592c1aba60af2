"""Shared helpers for the end-to-end tests: they run the real `cardfeed` binary."""
import json
import os
import shutil
import sys
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Tests/raw_http.py, shared by both test folders.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: seconds of work for one test (tens of thousands of cards, a 200 MB file, many "
                   "builds); `scripts/test.sh --fast` leaves these out, the full run keeps them")


@pytest.fixture(scope="session")
def cardfeed_bin() -> Path:
    path = os.environ.get("CARDFEED_BIN")
    if not path:
        pytest.fail("set CARDFEED_BIN to the built binary (scripts/test.sh does)")
    return Path(path)


@pytest.fixture(scope="session")
def output_formats(cardfeed_bin) -> list[dict]:
    """The files a build makes besides its pages, as the binary's table declares them
    (Sources/CardFeedRender/OutputFormat.swift, through `cardfeed config --json`): name, file,
    media_type, escaping, view (feed: one in each feed's folder; site: one at the root) and
    needs_base_url. Tests list feed files from here rather than by hand."""
    result = subprocess.run([str(cardfeed_bin), "config", str(REPO / "site"), "--json"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["output_formats"]


def format_files(formats, feed_folders=("",)) -> list[str]:
    """Each format's path: a feed's in each of `feed_folders` ("", "news/"), the site's once."""
    return [folder + f["file"] for f in formats if f["view"] == "feed" for folder in feed_folders] + \
        [f["file"] for f in formats if f["view"] == "site"]


@pytest.fixture()
def run(cardfeed_bin, tmp_path):
    """Runs cardfeed with the given arguments in a working directory outside the checkout."""

    def runner(*args, cwd=None, env=None):
        """`env` adds to (or with None values, removes from) the environment."""
        environment = None
        if env:
            environment = {k: v for k, v in {**os.environ, **env}.items() if v is not None}
        return subprocess.run(
            [str(cardfeed_bin), *map(str, args)],
            cwd=cwd or tmp_path, capture_output=True, text=True, timeout=120, env=environment,
        )

    return runner


@pytest.fixture()
def example_site(tmp_path) -> Path:
    """A copy of the repository's example site."""
    target = tmp_path / "site"
    shutil.copytree(REPO / "site", target, ignore=shutil.ignore_patterns("public"))
    return target


@pytest.fixture()
def short_tmp():
    """A temporary folder directly in the system's, for a test whose messages must show a path
    whole: cardfeed cuts a quoted value after 80 characters, which a path under pytest's base
    folder (and pytest-xdist's worker folder in it) may pass."""
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="cardfeed-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def write_cards(folder: Path, cards) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.json").write_text(json.dumps(cards))
    return folder


class Running:
    """A long-running cardfeed command (`serve`) whose output lines are collected as they come;
    stopped with SIGINT at the end."""

    def __init__(self, binary, args, cwd, env=None):
        import threading
        self.lines, self.errors = [], []
        self.process = subprocess.Popen([str(binary), *map(str, args)], cwd=cwd, env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.readers = [threading.Thread(target=lambda s=stream, i=into: [i.append(line) for line in s], daemon=True)
                        for stream, into in [(self.process.stdout, self.lines), (self.process.stderr, self.errors)]]
        for reader in self.readers:
            reader.start()

    def exited(self, timeout=10):
        """Whether the process has ended; if so, once its output is read to the end: `poll()`
        can say it ended before the threads have read its last lines (under load, often)."""
        if self.process.poll() is None:
            return False
        for reader in self.readers:
            reader.join(timeout)
        return True

    def wait_for(self, pattern, timeout=30, stream="stdout"):
        import re
        import time
        lines = self.lines if stream == "stdout" else self.errors
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(lines):
                match = re.search(pattern, line)
                if match:
                    return match
            if self.process.poll() is not None and time.monotonic() > deadline - timeout + 1:
                break
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} in {stream}:\n{''.join(self.lines)}\n{''.join(self.errors)}")

    def stop(self):
        import signal
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


@pytest.fixture()
def running(cardfeed_bin, tmp_path):
    """Starts a long-running cardfeed command; stops every one at the end of the test."""
    started = []

    def start(*args, cwd=None, env=None):
        process = Running(cardfeed_bin, args, cwd or tmp_path, env)
        started.append(process)
        return process

    yield start
    for process in started:
        process.stop()
