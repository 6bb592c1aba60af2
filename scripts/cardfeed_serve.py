"""A generated site served by `cardfeed serve`, for the measuring scripts in this folder."""
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path


class ServedSite:
    """Copies CARDS.json into a new site folder and serves it on a free port of 127.0.0.1.
    `site` is the folder (edit its cards.json), `port` the port, `process` the server, whose
    further output is left in `process.stdout`. Use it with `with`: the server is stopped and the
    folder removed at the end. CARDFEED_SERVE_ARGS adds options to `serve` (`--search`, say)."""

    def __init__(self, binary, cards):
        self.work = Path(tempfile.mkdtemp(prefix="cardfeed-measure-"))
        self.site = self.work / "site"
        self.site.mkdir()
        shutil.copy(cards, self.site / "cards.json")
        self.process = subprocess.Popen([binary, "serve", str(self.site), "--port", "0", *shlex.split(os.environ.get("CARDFEED_SERVE_ARGS", ""))],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            while not (match := re.search(r"^Serving .*:(\d+)/ ", line := self.process.stdout.readline())):
                if not line:
                    raise SystemExit("serve did not start")
        except BaseException:
            self.close()
            raise
        self.port = int(match.group(1))

    def close(self):
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.work, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()
